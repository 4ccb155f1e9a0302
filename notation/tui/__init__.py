"""``notation replay``: the terminal app, a thin layer of Textual over the library.

From the data up: :mod:`~notation.tui.catalog`, :mod:`~notation.tui.navigate`,
:mod:`~notation.tui.keys`, :mod:`~notation.tui.legend` and :mod:`~notation.tui.panels`
(no Textual), then the widgets (:mod:`~notation.tui.board`, :mod:`~notation.tui.moves`,
:mod:`~notation.tui.records`), :mod:`~notation.tui.app`, :mod:`~notation.tui.tty` (the
terminal it runs on) and :mod:`~notation.tui.shots` (headless: screenshots, tests).
:mod:`~notation.tui.record_app` is ``notation record``, the app that enters a record
(its help, F1: :mod:`~notation.tui.record_help`).

The terminal apps may import every layer under them (rendering, editing, collections,
checking, formats, the core, the games and the files); only the command line imports
them.
"""
