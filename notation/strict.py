"""The canonical form, checked: what ``notation check --strict`` adds to a check.

Records are read in a forgiving import form: a capture written without its mark,
Zombie Kidz's short form ``K:b1``, squares in capitals, move numbers left out.
People who keep canonical archives want those refused too.  A strict check
replays the record as :func:`notation.replay.check_record` does and also
compares each legal move, and each move number, with what ``notation convert
--to text`` would write there:

- a move must be spelled as ``str(position.canonical(move))``: marks exactly where
  the rules apply them, long forms, letters in the game's case;
- a move number must stand where the canonical text writes one: before the first
  turn of every round (``N.``), and before a turn that starts a variation or
  follows a comment or a variation (``N...``).

Each departure is a ``syntax`` error (the kinds of docs/record-format.md: it is a matter of
spelling, not of the rules) at the move, naming what to write instead, with its code
(``strict-number-missing``, ``strict-letter-case`` or ``strict-spelling``; see
:data:`notation.errors.CODES`).  The first defect in file order is reported, whether a
strict one or an ordinary one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from notation.errors import Defect, ErrorKind
from notation.games.base import Game, Position
from notation.record import MoveNode, Record
from notation.replay import ReplayVisitor, Verdict, check_record, resolve_game
from notation.walk import TreeVisitor, move_label, walk_tree

__all__ = ["check_record_strict", "strict_problem"]

def check_record_strict(record: Record, default_game: str | None = None) -> Verdict:
    """:func:`~notation.replay.check_record`, refusing the import form's liberties too."""
    game = resolve_game(record, default_game)
    if isinstance(game, Defect):
        return check_record(record, default_game)
    visitor = _Strict(game, _resuming(record))
    verdict = check_record(record, default_game, visitor)
    problem = visitor.problem
    if problem is None:
        return verdict
    error = verdict.error
    if error is not None and (error.line, error.column) <= (problem.line, problem.column):
        return verdict
    return replace(verdict, error=problem.located(file=record.source, record=record.index))


def strict_problem(record: Record, default_game: str | None = None) -> Defect | None:
    """The first move or move number not in canonical form, among the moves that replay.

    ``None`` when every legal move of the record (and its variations) is canonical;
    whether the record checks is :func:`~notation.replay.check_record`'s business.
    """
    game = resolve_game(record, default_game)
    if isinstance(game, Defect):
        return None
    visitor = _Strict(game, _resuming(record))
    check_record(record, default_game, visitor)
    if visitor.problem is None:
        return None
    return visitor.problem.located(file=record.source, record=record.index)


class _Resuming(TreeVisitor):
    """The nodes before which the canonical text writes ``N...`` when the turn is not a
    round's first (by id), each with the reason: where a line starts or resumes."""

    def __init__(self) -> None:
        self.found: dict[int, str] = {}

    def visit_move(self, node: MoveNode, turn: int, resumes: str | None) -> None:
        if resumes is not None:
            self.found[id(node)] = resumes


def _resuming(record: Record) -> dict[int, str]:
    resuming = _Resuming()
    walk_tree(record.moves, resuming)
    return resuming.found


class _Strict(ReplayVisitor):
    """Keeps the first departure from the canonical form, in replay (= file) order."""

    def __init__(self, game: Game[Any], resuming: dict[int, str]) -> None:
        self.game = game
        self.resuming = resuming
        self.problem: Defect | None = None

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        if self.problem is not None:
            return
        turn = position.turn + 1
        message = self._number(node, turn, position.round_size)
        code = "strict-number-missing"
        if message is None:
            message, code = self._spelling(node, move, position)
        if message is not None:
            self.problem = Defect(
                ErrorKind.SYNTAX, message, node.line, node.column, turn, node.written, code=code
            )

    def _number(self, node: MoveNode, turn: int, round_size: int) -> str | None:
        if node.number is not None:
            return None  # a wrong one is an ordinary error, found by the replay
        where = self.resuming.get(id(node))
        label = move_label(turn, round_size, where is not None)
        if label.endswith("..."):
            return f"write {label} before {node.written}: {where} (missing move number)"
        if label:
            return (
                f"write {label} before {node.written}: the first turn of a round carries "
                "its number (missing move number)"
            )
        return None

    def _spelling(
        self, node: MoveNode, move: Any, position: Position[Any]
    ) -> tuple[str | None, str]:
        """What to write instead of ``node``'s move, if it is not canonical, and the code
        of the case: ``strict-letter-case`` when the case of its letters is all that
        differs, ``strict-spelling`` otherwise."""
        canonical = position.canonical(move)
        wanted = str(canonical)
        text = node.text
        if text == wanted:
            return None, ""
        # What the game's canonical form adds (marks, long forms) is the game's to say.
        reasons = self.game.spelling_reasons(move, canonical)
        code = "strict-spelling"
        as_read = str(move)  # what was written, in the game's letter case
        if text != as_read and text.lower() == as_read.lower():
            if not reasons:
                code = "strict-letter-case"
            reasons.append(f"letters in the wrong case ({text})")
        if not reasons:
            reasons.append(f"{text} is another spelling of this move")
        return f"write {wanted}: {'; '.join(reasons)}", code
