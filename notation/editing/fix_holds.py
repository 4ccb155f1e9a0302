"""Whether a fix keeps its promise: the records with it made have no defect they did not
have, and one fewer of the kind it is for.

A :class:`~notation.errors.Defect` carries its fixes as values (:attr:`Defect.fixes
<notation.errors.Defect.fixes>`), each made where the defect is found; an editor that
offers them checks each again on the text it has open (:func:`fix_holds`), which may
have changed since, before it shows it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from notation.editing.buffer import check_text
from notation.errors import Defect, Fix

__all__ = ["fix_holds"]


def fix_holds(
    fix: Fix, defect: Defect, lines: Sequence[str], first_line: int,
    default_game: str | None = None,
) -> bool:
    """Whether ``fix`` (of ``defect``) makes no new defect: ``lines`` are the records
    around it (each line ending in ``\\n``, the first being line ``first_line``, from 1,
    of the file), checked as ``check --all`` checks them before and after the fix.  It
    holds when every defect found after was found before too (by its code), and an error
    it is for (not a strict-form issue) is one fewer.  A fix that reaches outside
    ``lines`` does not hold.

    The fix a check offers for a square off the board holds; another move in its place
    breaks the line and does not:

    >>> from notation.editing.buffer import check_text
    >>> from notation.errors import Fix
    >>> lines = ['[Game "cave"]\\n', '\\n', '1. b1 b5 2. b1-b0 *\\n']
    >>> (defect,) = check_text(lines, 1, None).defects
    >>> defect.fixes[0].title, fix_holds(defect.fixes[0], defect, lines, 1)
    ('Replace with b1-b2', True)
    >>> fix_holds(Fix("Replace with b5-b4", 3, 13, 18, "b5-b4"), defect, lines, 1)
    False
    """
    fixed = [*lines]
    for made in fix.edits():  # the fix, and the edits made with it
        at = made.line - first_line
        if not 0 <= at < len(lines):
            return False
        fixed[at] = made.applied(fixed[at])
    before = _codes(lines, first_line, default_game)
    after = _codes(fixed, first_line, default_game)
    if not after <= before:
        return False
    # A strict-form issue is no error of check --all: its own count is not there to see.
    return defect.code not in before or after[defect.code] < before[defect.code]


def _codes(lines: Sequence[str], first_line: int, default_game: str | None) -> Counter[str]:
    """The codes of the defects ``check --all`` finds in ``lines``, each with its count."""
    return Counter(d.code for d in check_text(list(lines), first_line, default_game).defects)
