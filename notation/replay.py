"""Replaying a record through its game's rules: the verdict on one record.

This is where the record tree (text) meets a game (typed moves and a position).
Each move is read by the game's grammar and pushed on a position; variations are
replayed from the position before the move they replace, then taken back.  The
first defect, in file order, is the verdict's error.

Turns count every player's turn from the start of the game (1 for the first),
along the line a move stands in: a move in a variation that replaces turn 30 is
turn 30.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from notation.errors import (
    ErrorKind,
    IllegalMoveError,
    MoveSyntaxError,
    NotationError,
    TagValueError,
)
from notation.games import UnknownGameError, get_game
from notation.games.base import Game, Position
from notation.reader import RESULTS
from notation.record import MoveNode, Record, Tag

__all__ = [
    "ReplayVisitor",
    "Verdict",
    "check_record",
    "check_records",
    "replay_mainline",
    "resolve_game",
    "start_position",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the rules say of one record."""

    source: str | None
    record: int
    game: str | None
    result: str | None
    turns: int
    error: NotationError | None
    #: The result the rules gave, if they ended the main line.
    outcome: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.source,
            "record": self.record,
            "game": self.game,
            "ok": self.ok,
            "result": self.result,
            "turns": self.turns,
            "error": None if self.error is None else self.error.to_dict(),
            "outcome": self.outcome,
        }


#: Games by the names records give them, as found: every record of a file names its
#: game the same way, and get_game() normalises the name first (profiled).  Only names
#: of games are kept, so it stays small (a bound all the same, for hostile spellings).
_GAMES_NAMED: dict[str, Game[Any]] = {}
_GAMES_NAMED_LIMIT = 1000


def _game_named(name: str) -> Game[Any]:
    """``get_game(name)``, memoised; raises ``UnknownGameError`` as it does."""
    game = _GAMES_NAMED.get(name)
    if game is None:
        game = get_game(name)
        if len(_GAMES_NAMED) >= _GAMES_NAMED_LIMIT:
            _GAMES_NAMED.clear()
        _GAMES_NAMED[name] = game
    return game


def resolve_game(record: Record, default: str | None = None) -> Game[Any] | NotationError:
    """The game a record is of: its ``Game`` tag, else ``default``; or why there is none."""
    tag = record.find_tag("Game")
    if tag is not None:
        try:
            return _game_named(tag.value)
        except UnknownGameError as exc:
            return NotationError(ErrorKind.SYNTAX, str(exc), tag.line, tag.column)
    if default is not None:
        try:
            return _game_named(default)
        except UnknownGameError as exc:
            return NotationError(ErrorKind.SYNTAX, str(exc), record.first_line, 1)
    return NotationError(
        ErrorKind.SYNTAX,
        "the record has no Game tag; name its game (for example --game tinkertown)"
        + _tag_case_hint(record, "Game"),
        record.first_line,
        1,
    )


def start_position(game: Game[Any], tags: Mapping[str, str]) -> Position[Any]:
    """The position a record starts from: its ``Position`` tag, else the game's start.

    Raises ``TagValueError`` for a tag value the game cannot accept.
    """
    text = tags.get("Position")
    if text is not None:
        return game.position_from_string(text, tags)
    return game.new_position(tags)


def check_records(records: Iterable[Record], default_game: str | None = None) -> Iterator[Verdict]:
    for record in records:
        yield check_record(record, default_game)


def check_record(
    record: Record, default_game: str | None = None, visitor: ReplayVisitor | None = None
) -> Verdict:
    """Replay ``record`` (main line and every variation) and judge it.

    A ``visitor`` sees every legal move on the way (see :class:`ReplayVisitor`).
    """
    game = resolve_game(record, default_game)
    turns = len(record.moves)
    if isinstance(game, NotationError):
        return _verdict(record, None, turns, _earliest(game, record.error))
    replayer = _Replayer(game, visitor)
    tags = record.tag_dict
    tagged = tags.get("Result")
    error = None if tagged is None else _tag_error(record.find_tag("Result"))
    position: Position[Any] | None = None
    if error is None:
        try:
            position = start_position(game, tags)
        except TagValueError as exc:
            tag = record.find_tag(exc.tag)
            line, col = (tag.line, tag.column) if tag else (record.first_line, 1)
            error = NotationError(ErrorKind.SYNTAX, str(exc), line, col)
    if error is None and position is not None:
        error = replayer.walk(record.moves, position)
    error = _earliest(error, record.error)
    outcome = position.outcome() if position is not None and error is None else None
    if error is None:
        error = _result_error(record, tagged, game, outcome, position)
    if error is not None:
        # A tag the game reads, spelt in the wrong case, is a likely cause.
        for name in ("Result", "Position", *(name for name, _ in game.setup_tags())):
            hint = _tag_case_hint(record, name)
            if hint:
                error = replace(error, message=error.message + hint)
                break
    return _verdict(record, game.name, turns, error, outcome)


def replay_mainline(record: Record, game: Game[Any]) -> Iterator[tuple[MoveNode, Any]]:
    """Pairs (node, typed move) of the main line, pushed on a fresh position.

    Raises the game's exceptions on the first bad move: for callers that already
    know the record is valid (writers, viewers).
    """
    position = start_position(game, record.tag_dict)
    for node in record.moves:
        move = game.parse(node.text)
        position.push(move)
        yield node, move


def _verdict(
    record: Record,
    game: str | None,
    turns: int,
    error: NotationError | None,
    outcome: str | None = None,
) -> Verdict:
    if error is not None:
        error = error.located(file=record.source, record=record.index)
    return Verdict(record.source, record.index, game, record.result, turns, error, outcome)


def _earliest(a: NotationError | None, b: NotationError | None) -> NotationError | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if (a.line, a.column) <= (b.line, b.column) else b


def _tag_error(tag: Tag | None) -> NotationError | None:
    """What is wrong with the Result tag ``tag``, if anything."""
    if tag is not None and tag.value not in RESULTS:
        return NotationError(
            ErrorKind.SYNTAX,
            f"the Result tag must be 1-0, 0-1, 1/2-1/2 or *, not {tag.value!r}",
            tag.line,
            tag.column,
        )
    return None


def _result_error(
    record: Record,
    tagged: str | None,
    game: Game[Any],
    outcome: str | None,
    position: Position[Any] | None,
) -> NotationError | None:
    """What is wrong with the record's result token (given its Result tag's value), if
    anything."""
    result = record.result
    if result is None:  # the reader reports a missing result itself
        return None
    message = None
    if not game.allows_result(result):
        message = f"{game.title} has no result {result} (it has no draws)"
    elif tagged is not None and tagged != result:
        message = f"the result {result} contradicts the Result tag {tagged}"
    elif outcome is not None and result != outcome:
        meaning = game.result_names.get(outcome, outcome)
        turn = position.turn if position is not None else 0
        message = (
            f"the rules ended the game at turn {turn} with {outcome} ({meaning}); "
            f"the record says {result}"
        )
    if message is None:
        return None
    return NotationError(
        ErrorKind.RESULT, message, record.result_line, record.result_column, move=result
    )


class _Frame:
    """One line being replayed (the main line or a variation)."""

    __slots__ = ("held", "index", "nodes", "pushed", "var_index")

    def __init__(self, nodes: list[MoveNode]) -> None:
        self.nodes = nodes
        self.index = 0
        self.pushed = 0
        self.held: Any = None  # the move whose variations are being replayed
        self.var_index = 0


class ReplayVisitor:
    """Hooks into a replay, for layers that want more than a verdict.

    Both are called for every move of the tree, in file order, variations
    included: ``before_move`` with the position before the move (already known to
    be legal), ``after_move`` with the position after it.  Annotating, converting
    and canonicalising are visitors.
    """

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        """Called before a legal move is played."""

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        """Called right after a move was played."""


class _Replayer:
    """Walks a tree depth-first in file order, with an explicit stack (no recursion
    limit on how deeply variations nest)."""

    def __init__(self, game: Game[Any], visitor: ReplayVisitor | None = None) -> None:
        self.game = game
        self.visitor = visitor

    def walk(self, mainline: list[MoveNode], position: Position[Any]) -> NotationError | None:
        game = self.game
        parse = game.parse
        # The hot path (profiled): a hit in the game's memo of parsed tokens skips the
        # call to parse(); a miss goes through it (length limit, grammar, memo).
        cached = game._parse_cache.get
        push = position.push
        size = position.round_size
        visitor = self.visitor
        stack = [_Frame(mainline)]
        while stack:
            frame = stack[-1]
            nodes = frame.nodes
            if frame.held is not None:
                node = nodes[frame.index]
                if frame.var_index < len(node.variations):
                    variation = node.variations[frame.var_index]
                    frame.var_index += 1
                    stack.append(_Frame(variation.nodes))
                    continue
                push(frame.held)
                frame.held = None
                frame.pushed += 1
                frame.index += 1
                continue
            if frame.index == len(nodes):
                if len(stack) == 1:
                    return None
                for _ in range(frame.pushed):
                    position.pop()
                stack.pop()
                continue
            # A run of moves without variations, in one loop: frame.index and
            # frame.pushed are written back when it stops.  Every push plays one turn,
            # so the turns played are counted here rather than asked of the position.
            index, pushed, count = frame.index, frame.pushed, len(nodes)
            played = position.turn
            while index < count:
                node = nodes[index]
                number = node.number
                if number is not None and (
                    number.number != played // size + 1
                    or (number.dots == 1) != (played % size == 0)
                ):
                    return _number_error(node, played + 1, size)
                move = cached(node.text)
                if move is None:
                    try:
                        move = parse(node.text)
                    except MoveSyntaxError as exc:
                        return NotationError(
                            ErrorKind.SYNTAX, str(exc) + _semicolon_hint(node), node.line,
                            node.column, played + 1, node.written,
                        )
                try:
                    push(move)
                except IllegalMoveError as exc:
                    return NotationError(
                        ErrorKind.ILLEGAL, str(exc) + _semicolon_hint(node), node.line,
                        node.column, played + 1, node.written,
                    )
                if visitor is not None:
                    position.pop()
                    visitor.before_move(node, move, position)
                    push(move)
                    visitor.after_move(node, move, position)
                if node.variations:
                    position.pop()
                    frame.held = move
                    frame.var_index = 0
                    break
                played += 1
                pushed += 1
                index += 1
            frame.index, frame.pushed = index, pushed
        return None


def _semicolon_hint(node: MoveNode) -> str:
    """A hint for a ';' typed where a ',' was meant (``d2;b5``): it starts a comment that
    swallows the rest of the line, so the move before it is cut short."""
    end = node.column + len(node.written)
    for comment in node.comments_after:
        if not comment.braced and comment.line == node.line and comment.column == end:
            following = comment.text.split(maxsplit=1)[0] if comment.text.strip() else ""
            return (
                f" (the ';' right after {node.written} starts a comment to the end of the "
                f"line; did you mean {node.written},{following}?)"
            )
    return ""


def _tag_case_hint(record: Record, name: str) -> str:
    """A hint for a tag spelt in the wrong case (``[game "cave"]``): names are
    case-sensitive, so the tag is kept but does not count."""
    for tag in record.tags:
        if tag.name != name and tag.name.lower() == name.lower():
            return (
                f"; tag names are case-sensitive: [{tag.name} ...] at line {tag.line} is "
                f"not [{name} ...]"
            )
    return ""


def _number_error(node: MoveNode, turn: int, round_size: int) -> NotationError | None:
    number = node.number
    assert number is not None
    expected = (turn - 1) // round_size + 1
    first = (turn - 1) % round_size == 0
    right = f"{expected}." if first else f"{expected}..."
    if number.number == expected and (number.dots == 1) == first:
        return None
    where = "the first turn" if first else "a later turn"
    return NotationError(
        ErrorKind.SYNTAX,
        f"move number {number} is wrong: turn {turn} is {where} of round {expected}, "
        f"numbered {right}",
        number.line,
        number.column,
        turn,
        node.written,
    )
