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

- a tag the toolkit reads must be named in its own case: ``[result "1-0"]`` is not the
  ``Result`` tag, and does not count (:func:`tag_case_defects`).

Each departure is a ``syntax`` error (the kinds of docs/record-format.md: it is a matter of
spelling, not of the rules) at the move or the tag, naming what to write instead, with its
code (``strict-number-missing``, ``strict-letter-case``, ``strict-spelling`` or
``strict-tag-case``; see :data:`notation.errors.CODES`).  The first defect in file order is
reported, whether a strict one or an ordinary one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from notation.convert import STANDARD_TAGS
from notation.errors import Defect, ErrorKind, misuse_unless
from notation.games.base import Game, Position
from notation.record import MoveNode, Record, Variation
from notation.replay import Replay, Verdict, check_record, resolve_game
from notation.visitor import RecordVisitor, Skip, TurnCounter, move_label, walk_record

__all__ = ["StrictReplay", "check_record_strict", "strict_problem", "tag_case_defects"]

def check_record_strict(record: Record, default_game: str | None = None) -> Verdict:
    """:func:`~notation.replay.check_record`, refusing the import form's liberties too."""
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    return walk_record(record, StrictReplay(default_game))


def strict_problem(record: Record, default_game: str | None = None) -> Defect | None:
    """The first move or move number not in canonical form, among the moves that replay.

    ``None`` when every legal move of the record (and its variations) is canonical;
    whether the record checks is :func:`~notation.replay.check_record`'s business.
    """
    strict = _Strict(default_game)
    check_record(record, default_game, strict)
    if strict.problem is None:
        return None
    return strict.problem.located(file=record.source, record=record.index)


def tag_case_defects(record: Record, game: Game[Any] | None) -> list[Defect]:
    """A defect for each tag of ``record`` whose name is one the toolkit reads (of
    ``game``, if known) in another letter case (``[result "1-0"]``): tag names are
    case-sensitive, so such a tag is kept but does not count.  Each stands at its tag's
    name, with the code ``strict-tag-case``."""
    known = ["Game", "Result", "Position", *STANDARD_TAGS]
    if game is not None:
        known += [*game.player_tags, *(name for name, _ in game.setup_tags())]
    by_case = {name.lower(): name for name in known}
    found = []
    for tag in record.tags:
        wanted = by_case.get(tag.name.lower())
        if wanted is not None and wanted != tag.name:
            message = (
                f"write {wanted}: tag names are case-sensitive ([{tag.name} ...] is not "
                f"[{wanted} ...] and does not count)"
            )
            found.append(Defect(
                ErrorKind.SYNTAX, message, tag.line, tag.column + 1, code="strict-tag-case"
            ))
    return found


class StrictReplay(Replay):
    """The replay of a strict check: its verdicts are those of
    :func:`check_record_strict`, from text (``notation check --strict``) or from a tree."""

    def __init__(self, default_game: str | None = None) -> None:
        self.strict = _Strict(default_game)
        super().__init__(default_game, self.strict)

    def end_record(self, record: Record) -> Verdict:
        verdict = super().end_record(record)
        problem = self.strict.problem
        if problem is None:
            return verdict
        error = verdict.error
        if error is not None and (error.line, error.column) <= (problem.line, problem.column):
            return verdict
        return replace(verdict, error=problem.located(file=record.source, record=record.index))


class _Strict(RecordVisitor[None]):
    """Keeps the first departure from the canonical form, in replay (= file) order."""

    def __init__(self, default_game: str | None) -> None:
        self.default_game = default_game
        self.game: Game[Any] | None = None
        self.problem: Defect | None = None
        #: Every tag of the record named in the wrong case (the first is the problem).
        self.tag_cases: list[Defect] = []
        self.turns = TurnCounter()
        self.resumes: str | None = None

    def begin_record(self, record: Record) -> None:
        self.problem = None
        self.turns = TurnCounter()

    def begin_moves(self, record: Record) -> Skip | None:
        game = resolve_game(record, self.default_game)
        self.game = game if isinstance(game, Game) else None
        self.tag_cases = tag_case_defects(record, self.game)
        if self.tag_cases:  # the tags stand before every move
            self.problem = self.tag_cases[0]
        return None

    def visit_move(self, node: MoveNode) -> None:
        self.resumes = self.turns.move(node)[1]

    def begin_variation(self, variation: Variation, node: MoveNode) -> None:
        self.turns.begin_variation()

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        self.turns.end_variation()

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
        where = self.resumes
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
        assert self.game is not None  # a move was played: the game is known
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
