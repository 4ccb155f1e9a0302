"""The verdict on a record, and the defects the replay finds beside its moves.

A :class:`Verdict` is what :func:`notation.replay.check_record` (and every
:class:`~notation.replay.Replay`) gives for one record.  The rest of this module
are the judgements the replay makes on the way, one function each, so that a mode
of a check that replays every line (:mod:`notation.checking.every_defect`) makes
the same ones: the game a record's tags name (:func:`resolve_game`, :func:`tags_game`),
a Result tag's value (:func:`tag_error`), the result token (:func:`result_error`),
a move number (:func:`number_error`), a move that cannot be read or played
(:func:`move_error`), and the hints and fixes that go with them (a tag spelt in
another case, ``c6, h4`` written with a space, a ``;`` typed for a ``,``).

Nothing here replays: each judgement is given the record, tags, move or position it
judges, and returns a :class:`~notation.errors.Defect` (or ``None``: nothing wrong).

>>> import notation
>>> record = notation.read_string('[Game "cave"]\\n[Result "2-0"]\\n\\n1. b1 *\\n')[0]
>>> tag_error(first_tag(record.tags, "Result")).code
'result-tag-value'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from notation.errors import (
    Defect,
    ErrorKind,
    Fix,
    MoveSyntaxError,
    cut,
    display_path,
    misuse_unless,
    printable,
    require_sequence,
)
from notation.games import UnknownGameError, get_game
from notation.games.base import Game, Position
from notation.record import MoveNode, Record
from notation.record_bounds import ADD_ANY_RESULT, RESULTS
from notation.visitor import expected_number

__all__ = [
    "RESPELT_CODES",
    "TagLike",
    "Verdict",
    "comma_fix",
    "comma_hint",
    "earliest_defect",
    "first_tag",
    "game_named",
    "move_error",
    "number_error",
    "record_verdict",
    "require_tag_pairs",
    "resolve_game",
    "result_error",
    "tag_case_fix",
    "tag_case_hint",
    "tag_error",
    "tag_rename_fix",
    "tag_values",
    "tags_game",
    "with_respellings_that_check",
    "with_result_to_add",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the rules say of one record."""

    source: str | None
    record: int
    game: str | None
    result: str | None
    turns: int
    error: Defect | None
    #: The result the rules gave, if they ended the main line.
    outcome: str | None = None
    #: ``check --all``: every defect found, in file order (the first is ``error``);
    #: ``None`` for a check that looks for the first only.
    errors: tuple[Defect, ...] | None = None

    @property
    def ok(self) -> bool:
        """Whether the rules found no defect (``error`` is ``None``)."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, one object per record as ``check --json`` prints it."""
        shown: dict[str, Any] = {
            "file": None if self.source is None else display_path(self.source),
            "record": self.record,
            "game": self.game,
            "ok": self.ok,
            "result": self.result,
            "turns": self.turns,
            "error": None if self.error is None else self.error.to_dict(),
        }
        if self.errors is not None:  # check --all
            shown["errors"] = [error.to_dict() for error in self.errors]
        shown["outcome"] = self.outcome
        return shown


def record_verdict(
    record: Record,
    game: str | None,
    turns: int,
    error: Defect | None,
    outcome: str | None = None,
) -> Verdict:
    """The verdict on ``record``: of ``game`` (its name; None: no game known), with
    ``turns`` main-line moves told, its first defect ``error`` (located in the record's
    file and at its index) and the ``outcome`` the rules gave."""
    if error is not None:
        error = error.located(file=record.source, record=record.index)
    return Verdict(record.source, record.index, game, record.result, turns, error, outcome)


def earliest_defect(a: Defect | None, b: Defect | None) -> Defect | None:
    """The one of ``a`` and ``b`` that stands first in the file (``a`` at a tie); the
    other if one is None."""
    if a is None:
        return b
    if b is None:
        return a
    return a if (a.line, a.column) <= (b.line, b.column) else b


#: Games by the names records give them, as found: every record of a file names its
#: game the same way, and get_game() normalises the name first.  Only names
#: of games are kept, so it stays small (a bound all the same, for hostile spellings).
_GAMES_NAMED: dict[str, Game[Any]] = {}
_GAMES_NAMED_LIMIT = 1000


def game_named(name: str) -> Game[Any]:
    """``get_game(name)``, memoised; raises ``UnknownGameError`` as it does."""
    game = _GAMES_NAMED.get(name)
    if game is None:
        game = get_game(name)
        if len(_GAMES_NAMED) >= _GAMES_NAMED_LIMIT:
            _GAMES_NAMED.clear()
        _GAMES_NAMED[name] = game
    return game


def resolve_game(record: Record, default: str | None = None) -> Game[Any] | Defect:
    """The game a record is of: its ``Game`` tag, else ``default``; or why there is none."""
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(default is None or isinstance(default, str), "default_game", "a str", default)
    return tags_game(record.tags, record, default)


class TagLike(Protocol):
    """A tag as a check reads it: a :class:`~notation.record.Tag` of a tree, or a
    :class:`~notation.visitor.TagSeen` a visitor was told."""

    @property
    def name(self) -> str:
        """The tag's name (case-sensitive)."""

    @property
    def value(self) -> str:
        """The tag's value, unescaped."""

    @property
    def line(self) -> int:
        """The line the tag stands on (0: built in code)."""

    @property
    def column(self) -> int:
        """The column its ``[`` stands at."""


def tag_values(tags: Iterable[TagLike]) -> dict[str, str]:
    """``tags`` as a dict of names to values (the first of repeated names wins)."""
    values: dict[str, str] = {}
    for tag in tags:
        values.setdefault(tag.name, tag.value)
    return values


def first_tag(tags: Iterable[TagLike], name: str) -> TagLike | None:
    """The first tag of ``tags`` called ``name``."""
    for tag in tags:
        if tag.name == name:
            return tag
    return None


def tags_game(
    tags: Sequence[TagLike], record: Record, default: str | None
) -> Game[Any] | Defect:
    """:func:`resolve_game` of ``record`` whose tags are ``tags`` (a visitor that builds
    no tree keeps them as it is told them)."""
    tag = first_tag(tags, "Game")
    if tag is not None:
        try:
            return game_named(tag.value)
        except UnknownGameError as exc:
            return Defect(
                ErrorKind.SYNTAX, str(exc), tag.line, tag.column, code="game-unknown",
                fixes=_game_fix(tag, exc.suggestion),
            )
    if default is not None:
        try:
            return game_named(default)
        except UnknownGameError as exc:
            return Defect(
                ErrorKind.SYNTAX, str(exc), record.first_line, 1, code="game-unknown"
            )
    if record.error is not None and record.error.code == "json-not-a-record":
        # A JSON line that is no record: that, not a missing Game tag, is what is wrong.
        return record.error
    return Defect(
        ErrorKind.SYNTAX,
        "the record has no Game tag; name its game (for example --game tinkertown)"
        + tag_case_hint(tags, "Game"),
        record.first_line,
        1,
        code="game-missing",
        fixes=tag_case_fix(tags, "Game"),
    )


def _game_fix(tag: TagLike, suggestion: str | None) -> tuple[Fix, ...]:
    """The fix of an unknown game: ``suggestion`` (the nearest game's name) written over
    the value of ``tag``, its ``Game`` tag, as ``[Game "value"]`` writes it (none for a
    value written with escapes, or a tag built in code)."""
    value = tag.value
    if not suggestion or tag.line < 1 or '"' in value or "\\" in value:
        return ()
    start = tag.column + len(tag.name) + 3  # past '[', the name, ' "'
    return (Fix(f"Write the game {suggestion}", tag.line, start, start + len(value),
                suggestion),)


def tag_error(tag: TagLike | None) -> Defect | None:
    """What is wrong with the Result tag ``tag``, if anything."""
    if tag is not None and tag.value not in RESULTS:
        return Defect(
            ErrorKind.SYNTAX,
            f"the Result tag must be 1-0, 0-1, 1/2-1/2 or *, not {tag.value!r}",
            tag.line,
            tag.column,
            code="result-tag-value",
        )
    return None


def result_error(
    record: Record,
    tagged: str | None,
    game: Game[Any],
    outcome: str | None,
    position: Position[Any] | None,
) -> Defect | None:
    """What is wrong with the record's result token (given its Result tag's value), if
    anything."""
    result = record.result
    if result is None:  # the reader reports a missing result itself
        return None
    message = code = None
    if not game.allows_result(result):
        message = f"{game.title} has no result {result} (it has no draws)"
        code = "result-not-in-game"
    elif tagged is not None and tagged != result:
        message = f"the result {result} contradicts the Result tag {tagged}"
        code = "result-contradicts-tag"
    elif outcome is not None and result != outcome:
        code = "result-contradicts-rules"
        meaning = game.result_names.get(outcome, outcome)
        turn = position.turn if position is not None else 0
        message = (
            f"the rules ended the game at turn {turn} with {outcome} ({meaning}); "
            f"the record says {result}"
        )
    if message is None or code is None:
        return None
    fixes: tuple[Fix, ...] = ()
    if outcome is not None and code == "result-contradicts-rules":
        at = record.result_column
        fixes = (Fix(f"Write the rules' result {outcome}", record.result_line, at,
                     at + len(result), outcome),)
    return Defect(
        ErrorKind.RESULT, message, record.result_line, record.result_column, move=result,
        code=code, fixes=fixes,
    )


def with_result_to_add(
    error: Defect, tagged: str | None, game: Game[Any], position: Position[Any] | None
) -> Defect:
    """``error`` (a missing result, as the reader says it) naming the result to add: the
    one the rules ended the game with, else the Result tag's, else any.  Its hint is a
    promise, as its fix is (the result added), so it names no result that would make
    another defect: when the rules and the tag disagree, or the tag names a result the
    game has not, it says so instead, and has no fix."""
    if not error.message.endswith(ADD_ANY_RESULT):
        return error  # another hint (a result inside a ';' comment)
    outcome = position.outcome() if position is not None else None
    turn = position.turn if position is not None else 0
    named = None  # the one result that checks, if there is one
    if tagged is not None and not game.allows_result(tagged):
        hint = (
            f"add the result after the last move (the Result tag says {tagged}, which "
            f"{game.title} has not)"
        )
    elif outcome is not None and tagged is not None and tagged != outcome:
        hint = (
            f"add the result after the last move (the rules ended the game at turn {turn} "
            f"with {outcome}, the Result tag says {tagged}: one of them is wrong)"
        )
    elif outcome is not None:
        hint = f"add {outcome} after the last move (the rules ended the game with it)"
        named = outcome
    elif tagged is not None:
        hint = f"add {tagged} after the last move (the Result tag's)"
        named = tagged
    else:
        return error
    # The reader's fix adds "*" (after a space where one is needed): this result instead.
    fixes = () if named is None else tuple(
        replace(fix, title=f"Add the result {named}",
                replacement=fix.replacement.removesuffix("*") + named)
        for fix in error.fixes
    )
    message = error.message[: -len(ADD_ANY_RESULT)] + hint
    return replace(error, message=message, fixes=fixes)


def with_respellings_that_check(
    error: Defect, tagged: str | None, game: Game[Any], position: Position[Any] | None
) -> Defect:
    """``error`` (a result written ``1 - 0`` or ``1/2``, as the reader says it) without
    its fix where the result it writes would be another defect: one the game has not
    (a draw), or other than the Result tag or the rules' outcome."""
    outcome = position.outcome() if position is not None else None
    kept = tuple(
        fix for fix in error.fixes
        if game.allows_result(fix.replacement)
        and tagged in (None, fix.replacement)
        and outcome in (None, fix.replacement)
    )
    return error if kept == error.fixes else replace(error, fixes=kept)


#: The codes of a result the reader found written the wrong way, with its fix.
RESPELT_CODES = frozenset({"result-spaced", "result-draw-spelling"})


def move_error(node: MoveNode, exc: Exception, turn: int) -> Defect:
    """The located error for a move the game could not read (``MoveSyntaxError``: a
    syntax error) or the rules forbid (``IllegalMoveError``: illegal) at ``turn``."""
    kind = ErrorKind.SYNTAX if isinstance(exc, MoveSyntaxError) else ErrorKind.ILLEGAL
    hint, fixes = _semicolon_hint(node)
    return Defect(
        kind, str(exc) + hint, node.line, node.column, turn, node.written,
        code=getattr(exc, "code", None) or "", fixes=fixes,
    )


def _semicolon_hint(node: MoveNode) -> tuple[str, tuple[Fix, ...]]:
    """A hint for a ';' typed where a ',' was meant (``d2;b5``): it starts a comment that
    swallows the rest of the line, so the move before it is cut short.  With it, its fix:
    the move and the word after the ';' written as one (``d2,b5``)."""
    end = node.column + len(node.written)
    for comment in node.comments_after:
        if not comment.braced and comment.line == node.line and comment.column == end:
            following = comment.text.split(maxsplit=1)[0] if comment.text.strip() else ""
            meant = f"{node.written},{following}"
            hint = (
                f" (the ';' right after {node.written} starts a comment to the end of the "
                f"line; did you mean {meant}?)"
            )
            fix = Fix(f"Replace with {meant}", node.line, node.column,
                      end + 1 + len(following), meant)
            return hint, (fix,)
    return "", ()


def comma_hint(node: MoveNode, following: MoveNode) -> str:
    """A hint for a two-square turn written with a space after its comma (``c6, h4``):
    the space cuts it into two tokens, ``c6,`` and ``h4``.  ``following`` is the move
    read after ``node``; the hint is given only when it stands on the same line."""
    if following.line != node.line or following.column <= node.column + len(node.written):
        return ""
    joined = f"{node.text}{following.text}"
    return (
        f" (a space after the comma cuts the turn in two: write {printable(cut(joined))} "
        "without spaces)"
    )


def comma_fix(node: MoveNode, following: MoveNode) -> tuple[Fix, ...]:
    """The fix of :func:`comma_hint`: ``c6, h4`` written ``c6,h4`` (the second move's
    suffix kept)."""
    joined = f"{node.text}{following.text}"
    end = following.column + len(following.text)
    return (Fix(f"Write {joined}", node.line, node.column, end, joined),)


def _miscased(tags: Iterable[TagLike], name: str) -> TagLike | None:
    """The first tag of ``tags`` named ``name`` in another letter case."""
    for tag in tags:
        if tag.name != name and tag.name.lower() == name.lower():
            return tag
    return None


def tag_rename_fix(tag: TagLike, name: str) -> Fix | None:
    """The fix that renames ``tag`` (at its line, written ``[name "value"]``) to
    ``name``; None for a tag built in code (no line)."""
    if tag.line < 1:
        return None
    start = tag.column + 1
    return Fix(f"Rename the tag {tag.name} to {name}", tag.line, start,
               start + len(tag.name), name)


def tag_case_fix(tags: Iterable[TagLike], name: str) -> tuple[Fix, ...]:
    """The fix of :func:`tag_case_hint`: the tag renamed."""
    tag = _miscased(tags, name)
    fix = None if tag is None else tag_rename_fix(tag, name)
    return () if fix is None else (fix,)


def tag_case_hint(tags: Iterable[TagLike], name: str) -> str:
    """A hint for a tag of ``tags`` spelt in the wrong case (``[game "cave"]``): names
    are case-sensitive, so the tag is kept but does not count."""
    tag = _miscased(tags, name)
    if tag is not None:
        return (
            f"; tag names are case-sensitive: [{tag.name} ...] at line {tag.line} is "
            f"not [{name} ...]"
        )
    return ""


def number_error(node: MoveNode, turn: int, round_size: int) -> Defect | None:
    """What is wrong with the move number of ``node`` (a move with one) standing at
    ``turn`` in a game of ``round_size`` turns a round; None if it is right."""
    number = node.number
    assert number is not None
    expected, first = expected_number(turn, round_size)
    right = f"{expected}." if first else f"{expected}..."
    if number.number == expected and (number.dots == 1) == first:
        return None
    where = "the first turn" if first else "a later turn"
    at = number.column
    fix = Fix(f"Number it {right}", number.line, at, at + len(str(number)), right)
    return Defect(
        ErrorKind.SYNTAX,
        f"move number {number} is wrong: turn {turn} is {where} of round {expected}, "
        f"numbered {right}",
        number.line,
        at,
        turn,
        node.written,
        code="number-wrong",
        fixes=(fix,) if number.line >= 1 else (),
    )


def require_tag_pairs(tags: Mapping[str, str] | Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The tags of a record being made, as a list of ``(name, value)`` pairs in their
    order: ``tags`` is a mapping of names to values or an iterable of such pairs (a
    list, a generator), all of ``str``, as :meth:`Record.from_moves
    <notation.record.Record.from_moves>` and :meth:`RecordEditor.new
    <notation.editing.editor.RecordEditor.new>` take them; :class:`~notation.errors.MisuseError`
    for anything else.

    >>> require_tag_pairs({"Event": "club night"})
    [('Event', 'club night')]
    >>> require_tag_pairs([("Event", "club night"), ("Round", 3)])
    Traceback (most recent call last):
    ...
    notation.errors.MisuseError: a tag is a (name, value) pair of str, not tuple
    """
    if isinstance(tags, Mapping):
        pairs = list(tags.items())
    else:
        require_sequence(tags, "tags", "(name, value) pairs, or a mapping")
        pairs = list(tags)
    for pair in pairs:
        misuse_unless(
            isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(x, str) for x in pair),
            "a tag", "a (name, value) pair of str", pair,
        )
    return pairs
