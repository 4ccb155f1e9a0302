"""The mends ``check --all`` promises for a broken record, each with the move it changes.

A legal slip (``f5-f3`` copied for ``f5-f4``) breaks a record many moves later.
``check --all`` (:mod:`notation.checking.every_defect`) looks back from the break for the move
that, written otherwise by one slip, lets the whole rest of its line play, and
attaches each one it names to its defect as a :class:`~notation.errors.Fix` with a
``turn``.  :func:`suggested_mends` gives those fixes with the record's own
:class:`~notation.record.MoveNode` each changes, ready for
:meth:`notation.editing.editor.RecordEditor.mend` (which ``notation record`` offers).

Nothing is guessed here: a mend is a fix the check found to let the rest of the line
play (its result included), and a fix whose move cannot be found in the record is
left out.

>>> import notation
>>> from notation.editing.editor import RecordEditor
>>> record = notation.read_string(
...     '[Game "cave"]\\n\\n1. b1 b5 2. b1-a1 b5-b4 3. c1-c2 b4-c4 *\\n'  # b1-a1: b1-c1
... )[0]
>>> mends = suggested_mends(record)
>>> [mend.said() for mend in mends]
['turn 3 (2. b1-a1) was probably b1-c1']
>>> mends[0].node is record.moves[2], mends[0].later, mends[0].defect.turn
(True, 3, 5)
>>> editor = RecordEditor(record)
>>> editor.mend(mends[0].node, mends[0].meant).kept, editor.check().ok
(3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.checking.every_defect import all_errors
from notation.errors import Defect, Fix, TagValueError
from notation.record import MoveNode, Record
from notation.replay import check_record, resolve_game, start_position
from notation.visitor import expected_number, nodes_in_order

__all__ = ["SuggestedMend", "suggested_mends"]


@dataclass(frozen=True, slots=True)
class SuggestedMend:
    """A move of a record that a slip probably wrote wrong: ``node``, the record's own
    move (give it to :meth:`~notation.editing.editor.RecordEditor.mend`), and ``fix``, the
    check's fix for it (its ``turn``, its place in the text, the move meant as
    ``replacement``, and ``later``, how many later moves of the line then play);
    ``defect``, the defect of the check that the fix mends (the mends of one defect
    are alternatives: any one of them lets the rest of the line play); ``written``,
    the move as the record has it, with its number (``13. f5-f3``).

    The node belongs to the record as it was checked: once the record is edited (an
    undo puts a new record in place), ask :func:`suggested_mends` again."""

    node: MoveNode = field(compare=False)
    fix: Fix
    defect: Defect
    written: str

    @property
    def turn(self) -> int:
        """The turn of the move to change (1 for the game's first)."""
        assert self.fix.turn is not None  # a move's fix: suggested_mends keeps no other
        return self.fix.turn

    @property
    def meant(self) -> str:
        """The move probably meant, in its canonical spelling."""
        return self.fix.replacement

    @property
    def later(self) -> int | None:
        """How many later moves of the line play once the move is changed."""
        return self.fix.later

    def said(self) -> str:
        """The mend in words: ``turn 25 (13. f5-f3) was probably f5-f4``."""
        return f"turn {self.turn} ({self.written}) was probably {self.meant}"


def suggested_mends(record: Record, default_game: str | None = None) -> list[SuggestedMend]:
    """The mends of ``record``'s moves that ``check --all`` finds (``default_game``: the
    game of a record without a ``Game`` tag), likeliest first: the fixes of its first
    defect in their order, then the next defect's..., each once (a later defect's
    were found assuming the earlier defects mended as their first fix says).  Empty for a valid
    record, and for a broken one where no move changed by one slip lets the rest of
    its line play.  ``MisuseError`` for a ``record`` that is not a
    :class:`~notation.record.Record`."""
    verdict = check_record(record, default_game)
    if verdict.ok:
        return []
    fixes: dict[tuple[int, int, str], tuple[Fix, Defect]] = {}
    for defect in all_errors(record, verdict, default_game).errors or ():
        for fix in defect.fixes:
            if fix.turn is not None and not fix.also:  # (two slips at once: not offered)
                fixes.setdefault((fix.line, fix.start, fix.replacement), (fix, defect))
    if not fixes:
        return []
    nodes = _nodes_by_place(record)
    size = _round_size(record, default_game)
    mends = []
    for fix, defect in fixes.values():
        node = nodes.get((fix.line, fix.start))
        if node is not None:
            number, first = expected_number(fix.turn or 1, size)
            written = f"{number}{'.' if first else '...'} {node.written}"
            mends.append(SuggestedMend(node, fix, defect, written))
    return mends


def _nodes_by_place(record: Record) -> dict[tuple[int, int], MoveNode]:
    """The moves of ``record`` by their (line, column) in its text; a place two moves
    share (moves entered in an editor have none) names neither."""
    found: dict[tuple[int, int], MoveNode] = {}
    shared: set[tuple[int, int]] = set()
    for node in nodes_in_order(record.moves):
        place = (node.line, node.column)
        if place in found:
            shared.add(place)
        found[place] = node
    for place in shared:
        del found[place]
    return found


def _round_size(record: Record, default_game: str | None) -> int:
    """How many turns a round of ``record``'s game has (1 where it cannot be told: a
    record with move fixes always can)."""
    game = resolve_game(record, default_game)
    if isinstance(game, Defect):
        return 1
    try:
        return start_position(game, record.tag_dict).round_size
    except TagValueError:
        return 1
