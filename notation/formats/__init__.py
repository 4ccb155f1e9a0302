"""Formats: a record as text, plain moves or JSON lines, and converting between them.

:mod:`~notation.formats.convert` turns records of any format into any other without
losing anything (:func:`~notation.formats.convert.convert_record`),
:mod:`~notation.formats.jsonwriter` writes the JSON lines of a record as its events
arrive, :mod:`~notation.formats.jsontext` is JSON text for trees of any depth, and
:mod:`~notation.formats.annotate` writes what the engine knows into a record.

The layer stands on the core (the record tree, the reader, the writer, the replay) and
may import it, the games and the files; nothing above it (checking, collections,
editing, rendering, the apps and the command line).
"""
