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

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from notation.errors import Defect, ErrorKind, Fix, misuse_unless
from notation.formats.convert import STANDARD_TAGS
from notation.games.base import Game, Position
from notation.record import Comment, MoveNumber, Record
from notation.replay import (
    Judge,
    Replay,
    TagLike,
    Verdict,
    check_record,
    tag_rename_fix,
    tags_game,
)
from notation.visitor import (
    AFTER_COMMENT,
    AFTER_VARIATION,
    STARTS,
    Skip,
    TagSeen,
    move_label,
    walk_record,
)

__all__ = [
    "StrictJudge",
    "check_record_strict",
    "strict_problem",
    "strict_replay",
    "tag_case_defects",
]


def strict_replay(default_game: str | None = None) -> Replay:
    """The replay of a strict check (``notation check --strict``): a
    :class:`~notation.replay.Replay` with a :class:`StrictJudge`."""
    return Replay(default_game, judges=[StrictJudge(default_game)])


def check_record_strict(record: Record, default_game: str | None = None) -> Verdict:
    """:func:`~notation.replay.check_record`, refusing the import form's liberties too.

    A square written in capitals is read (a check passes), but it is not canonical:

    >>> import notation
    >>> (record,) = notation.read_string('[Game "cave"]\\n\\n1. B1 b5 2. b1-c1 *\\n')
    >>> notation.check_record(record).ok
    True
    >>> print(check_record_strict(record).error)
    <input>:3:4: record 1, turn 1 (B1): write b1: letters in the wrong case (B1)
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    return walk_record(record, strict_replay(default_game))


def strict_problem(record: Record, default_game: str | None = None) -> Defect | None:
    """The first move or move number not in canonical form, among the moves that replay.

    ``None`` when every legal move of the record (and its variations) is canonical;
    whether the record checks is :func:`~notation.replay.check_record`'s business.

    A record that leaves out the number of Red's second turn checks, but is not in
    canonical form:

    >>> import notation
    >>> (record,) = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 b1-c1 *\\n')
    >>> notation.check_record(record).ok
    True
    >>> problem = strict_problem(record)
    >>> problem.turn, problem.code
    (3, 'strict-number-missing')
    >>> problem.message
    'write 2. before b1-c1: the first turn of a round carries its number (missing move number)'
    """
    strict = StrictJudge(default_game)
    check_record(record, default_game, strict)
    if strict.problem is None:
        return None
    return strict.problem.located(file=record.source, record=record.index)


def tag_case_defects(
    record: Record | Iterable[TagLike], game: Game[Any] | None
) -> list[Defect]:
    """A defect for each tag of ``record`` whose name is one the toolkit reads (of
    ``game``, if known) in another letter case (``[result "1-0"]``): tag names are
    case-sensitive, so such a tag is kept but does not count.  Each stands at its tag's
    name, with the code ``strict-tag-case``."""
    known = ["Game", "Result", "Position", *STANDARD_TAGS]
    if game is not None:
        known += [*game.player_tags, *(name for name, _ in game.setup_tags())]
    by_case = {name.lower(): name for name in known}
    found = []
    for tag in record.tags if isinstance(record, Record) else record:
        wanted = by_case.get(tag.name.lower())
        if wanted is not None and wanted != tag.name:
            message = (
                f"write {wanted}: tag names are case-sensitive ([{tag.name} ...] is not "
                f"[{wanted} ...] and does not count)"
            )
            fix = tag_rename_fix(tag, wanted)
            found.append(Defect(
                ErrorKind.SYNTAX, message, tag.line, tag.column + 1, code="strict-tag-case",
                fixes=() if fix is None else (fix,),
            ))
    return found


class StrictJudge(Judge):
    """The strict check under a replay: keeps the first departure from the canonical
    form, in replay (= file) order, and makes it the verdict's error where it comes
    before the replay's own."""

    def __init__(self, default_game: str | None = None) -> None:
        self.default_game = default_game
        self.game: Game[Any] | None = None
        self.problem: Defect | None = None
        #: Every tag of the record named in the wrong case (the first is the problem).
        self.tag_cases: list[Defect] = []
        self.tags: list[TagSeen] = []
        # Per open line: whether its next move starts or resumes it (and why), as the
        # canonical text numbers it.
        self.resumes: list[str | None] = [STARTS]
        # The move just told: its text, whether a number was written before it, where.
        self.move = ("", False, 0, 0, "")
        self.why: str | None = None  # why the move just told starts or resumes its line
        # A comment after a variation: the next variation's, or the next move's.
        self.commented = False

    def begin_record(self, record: Record) -> None:
        self.problem = None
        self.tags = []
        self.resumes = [STARTS]

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        self.tags.append(TagSeen(name, value, line, column))

    def end_tags(self, record: Record) -> Skip | None:
        game = tags_game(self.tags, record, self.default_game)
        self.game = game if isinstance(game, Game) else None
        self.tag_cases = tag_case_defects(self.tags, self.game)
        if self.tag_cases:  # the tags stand before every move
            self.problem = self.tag_cases[0]
        return None

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        why = self.resumes[-1]
        if why is AFTER_VARIATION and self.commented:
            why = AFTER_COMMENT
        self.why, self.commented = why, False
        self.resumes[-1] = None
        self.move = (text, number is not None, line, column, text + suffix)

    def visit_comment(self, comment: Comment) -> None:
        resumes = self.resumes[-1]
        if resumes is None:
            self.resumes[-1] = AFTER_COMMENT
        elif resumes is AFTER_VARIATION:
            self.commented = True
        # (a line's start is where it starts, whatever comment stands there)

    def begin_variation(self, line: int, column: int) -> None:
        self.commented = False  # a comment before a variation is the variation's
        self.resumes.append(STARTS)

    def end_variation(self) -> None:
        self.commented = False
        self.resumes.pop()
        if self.resumes[-1] is None:  # a comment before it is the reason given first
            self.resumes[-1] = AFTER_VARIATION

    def after_move(self, move: Any, position: Position[Any]) -> None:
        if self.problem is not None:
            return
        text, numbered, line, column, written = self.move
        turn = position.turn
        label = None if numbered else self._number(turn, position.round_size)
        if label is not None:
            message = self._number_message(label, written)
            code = "strict-number-missing"
            fix = Fix(f"Insert {label}", line, column, column, f"{label} ")
        else:
            spelt, code = self._spelling(text, move, position)
            if spelt is None:
                return
            message = spelt
            wanted = str(position.last_move_canonical())
            fix = Fix(f"Write {wanted}", line, column, column + len(text), wanted)
        self.problem = Defect(
            ErrorKind.SYNTAX, message, line, column, turn, written, code=code,
            fixes=(fix,) if line >= 1 else (),
        )

    def judged(self, record: Record, verdict: Verdict) -> Verdict:
        problem = self.problem
        if problem is None:
            return verdict
        error = verdict.error
        if error is not None and (error.line, error.column) <= (problem.line, problem.column):
            return verdict
        return replace(verdict, error=problem.located(file=record.source, record=record.index))

    def _number(self, turn: int, round_size: int) -> str | None:
        """The number that must stand before the move at ``turn``, if one must."""
        label = move_label(turn, round_size, self.why is not None)
        return label or None

    def _number_message(self, label: str, written: str) -> str:
        """Why the number ``label`` must stand before the move ``written``."""
        if label.endswith("..."):
            return f"write {label} before {written}: {self.why} (missing move number)"
        return (
            f"write {label} before {written}: the first turn of a round carries "
            "its number (missing move number)"
        )

    def _spelling(
        self, text: str, move: Any, position: Position[Any]
    ) -> tuple[str | None, str]:
        """What to write instead of ``text``, the move just played, if it is not
        canonical, and the code of the case: ``strict-letter-case`` when the case of
        its letters is all that differs, ``strict-spelling`` otherwise."""
        canonical = position.last_move_canonical()
        wanted = str(canonical)
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
