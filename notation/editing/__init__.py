"""Editing: a record changed move by move, kept in a file, or held open by an editor.

:mod:`~notation.editing.editor` makes a record move by move
(:class:`~notation.editing.editor.RecordEditor`: a tree, a cursor in it and the
position there; what a typed move is comes from :mod:`~notation.editing.move_entry`,
its undo list from :mod:`~notation.editing.changes`, its clock times from
:mod:`~notation.editing.clocks`, a new record's tags from
:mod:`~notation.editing.new_record`), :mod:`~notation.editing.recordfile` keeps it in a
file (saved whole, journaled, guarded against a second writer), and
:mod:`~notation.editing.mends` offers the mends ``check --all`` promises.  For an
editor of text files: :mod:`~notation.editing.buffer` holds a file of records and
checks it chunk by chunk, :mod:`~notation.editing.places` says what stands at a line
and column, :mod:`~notation.editing.completions` what may be written there, and
:mod:`~notation.editing.fix_holds` whether a fix keeps its promise.

It may import the core, the formats, the checking modes, the collections, the games
and the files; nothing above it (rendering, the apps and the command line).
"""
