"""Renderers: draw any :class:`notation.games.view.BoardView` (terminal, SVG, HTML).

They know no game: each game describes its positions as a ``BoardView``
(``Position.board_view()``), with its own palette.

:mod:`~notation.render.terminal` draws for a terminal (rich), in the colours of
:mod:`~notation.render.terminal_colours`; :mod:`~notation.render.svg` draws a board as
SVG, :mod:`~notation.render.record_svg` a record's positions with their last move, and
:mod:`~notation.render.raster` the same as PNG;
:mod:`~notation.render.html` writes a page that replays records in a browser, and
:mod:`~notation.render.show_text` and :mod:`~notation.render.plain_text` are what
``notation show`` prints.

Rendering may import the layers under it (the core, formats, checking, collections,
editing, the games and the files); the apps, the language server and the command line
stand on it, and it imports none of them.
"""
