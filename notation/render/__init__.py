"""Renderers: draw any :class:`notation.view.BoardView` (terminal, SVG, HTML).

They know no game: each game describes its positions as a ``BoardView``
(``Position.board_view()``), with its own palette.
"""
