"""``notation lsp``: a Language Server Protocol server for record files (docs/editors.md).

Every file the editor opens is a file of records: its diagnostics are what ``notation
check --all`` finds (and ``--strict``, as hints), completion offers the legal moves at
the cursor, hover shows the position after a move, formatting writes the canonical text,
and so on.  The server is thin: it turns the editor's requests into calls of the library
(:mod:`notation.editing.buffer`, :mod:`notation.editing.places`,
:mod:`notation.editing.completions`, :mod:`notation.editing.fix_holds`,
:mod:`notation.render.plain_text`) and their answers into the protocol's; the quick
fixes are the defects' own (:attr:`notation.errors.Defect.fixes`), each checked again
before it is offered.

The modules of this package import pygls (the ``lsp`` extra: ``pip install
'undead-notation[lsp]'``); nothing else of the toolkit imports them.  The layer may
import every layer under it (rendering, editing, collections, checking, formats, the
core, the games and the files); only the command line imports it.
:func:`notation.lsp.server.serve` runs the server on standard input and output.
"""
