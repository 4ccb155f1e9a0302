"""Files and standard streams: the lowest layer, under everything that reads or writes.

:mod:`~notation.files.textfile` opens a record file as lines of text (UTF-8, or
Windows-1252 for what is not; compressed or plain; every line bounded),
:mod:`~notation.files.savefile` saves a file whole or not at all (a temporary file in
the same folder, flushed, renamed), and :mod:`~notation.files.console` is what the
command line writes to standard error and reads from standard input.

This layer knows nothing of records or games: it may import :mod:`notation.errors`
and nothing else of the package.
"""
