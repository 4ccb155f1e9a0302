"""Checking modes beyond the verdict: every defect, the canonical form, the legal slip.

A plain check is the core's (:func:`notation.replay.check_record`: the first defect
of a record).  This layer adds the modes, each a judge of the one replay:
:mod:`~notation.checking.every_defect` (``notation check --all``: every defect of
every line, and what each depends on), :mod:`~notation.checking.canonical_form`
(``--strict``: the record written as the writer writes it),
:mod:`~notation.checking.slips` (the legal slip: an earlier move copied wrong but still
legal, found by replaying the rest of the line) and :mod:`~notation.checking.move_fix`
(the fix of a move, as data a program can apply).

It may import the core, the formats, the games and the files; nothing above it.
"""
