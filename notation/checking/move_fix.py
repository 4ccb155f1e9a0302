"""The fix of a move, as a value: the move likely meant written over the move as read.

``check --all`` (:mod:`notation.checking.every_defect`) attaches one to a defect for each move it
names after "did you mean"; an editor offers it as it is (:attr:`Defect.fixes
<notation.errors.Defect.fixes>`).  The span is the move's own text: its suffix
(``!``, ``?!``) stays as written.
"""

from __future__ import annotations

from notation.errors import Fix
from notation.record import MoveNode

__all__ = ["move_fix"]


def move_fix(
    node: MoveNode,
    meant: str,
    turn: int,
    later: int | None = None,
    *,
    through: MoveNode | None = None,
) -> Fix:
    """The fix that writes ``meant`` for the move of ``node`` (at ``turn``; ``later``:
    how many later moves of its line play once it is made, where that is known).

    ``through`` is the next move when the two are one turn cut in two (``c6, h4``, read
    as ``c6,`` and ``h4``, on one line): the fix then runs to the end of its text.

    >>> fix = move_fix(MoveNode("f5-f3", 30, 5, "!"), "f5-f4", 25)
    >>> (fix.title, fix.line, fix.start, fix.end, fix.replacement, fix.turn)
    ('Replace with f5-f4', 30, 5, 10, 'f5-f4', 25)
    >>> fix.applied("13. f5-f3! b2-c3")
    '13. f5-f4! b2-c3'
    >>> move_fix(MoveNode("c6,", 4, 5), "c6,h4", 9, through=MoveNode("h4", 4, 9)).end
    11
    """
    last = through if through is not None else node
    return Fix(
        f"Replace with {meant}", node.line, node.column, last.column + len(last.text), meant,
        turn=turn, later=later,
    )
