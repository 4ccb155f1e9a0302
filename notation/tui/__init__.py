"""``notation replay``: the terminal app, a thin layer of Textual over the library.

Its modules, from the data up: :mod:`~notation.tui.catalog` (the records of the
files given, found at once, read and checked when needed), :mod:`~notation.tui.navigate`
(a stepper moved by address: clicks, searches), :mod:`~notation.tui.keys` (the one
key table), :mod:`~notation.tui.legend` and :mod:`~notation.tui.panels` (what the
panels say), :mod:`~notation.tui.board`, :mod:`~notation.tui.moves` and
:mod:`~notation.tui.records` (the widgets), :mod:`~notation.tui.app` (the app),
:mod:`~notation.tui.tty` (the terminal it runs on) and :mod:`~notation.tui.shots`
(the app run headless: screenshots, tests).  Textual is imported by the widget and
app modules only.
"""
