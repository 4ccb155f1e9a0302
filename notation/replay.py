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

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    TagValueError,
    _cut,
    _printable,
    display_path,
    misuse_unless,
    require_sequence,
)
from notation.games import UnknownGameError, get_game
from notation.games.base import Game, Position, memo_lookup
from notation.reader import RESULTS
from notation.record import MoveNode, Record, Tag, Variation, split_suffix
from notation.walk import expected_number

__all__ = [
    "ReplayVisitor",
    "Verdict",
    "Visitors",
    "add_checked_variation",
    "check_record",
    "move_error",
    "play_moves",
    "record_from_moves",
    "replay_line",
    "replay_tree",
    "resolve_game",
    "start_position",
]

#: A game's move type (as in :mod:`notation.games.base`).
M = TypeVar("M", bound=Hashable)


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

    @property
    def ok(self) -> bool:
        """Whether the rules found no defect (``error`` is ``None``)."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form, one object per record as ``check --json`` prints it."""
        return {
            "file": None if self.source is None else display_path(self.source),
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


def resolve_game(record: Record, default: str | None = None) -> Game[Any] | Defect:
    """The game a record is of: its ``Game`` tag, else ``default``; or why there is none."""
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(default is None or isinstance(default, str), "default_game", "a str", default)
    tag = record.find_tag("Game")
    if tag is not None:
        try:
            return _game_named(tag.value)
        except UnknownGameError as exc:
            return Defect(
                ErrorKind.SYNTAX, str(exc), tag.line, tag.column, code="game-unknown"
            )
    if default is not None:
        try:
            return _game_named(default)
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
        + _tag_case_hint(record, "Game"),
        record.first_line,
        1,
        code="game-missing",
    )


def start_position(game: Game[Any], tags: Mapping[str, str]) -> Position[Any]:
    """The position a record starts from: its ``Position`` tag, else the game's start.

    Raises ``TagValueError`` for a tag value the game cannot accept.
    """
    misuse_unless(isinstance(game, Game), "game", "a notation.Game", game)
    misuse_unless(isinstance(tags, Mapping), "tags", "a mapping of tag names to values", tags)
    text = tags.get("Position")
    if text is not None:
        return game.position_from_string(text, tags)
    return game.new_position(tags)


def check_record(
    record: Record,
    default_game: str | None = None,
    visitor: ReplayVisitor | None = None,
    *,
    _streamed: tuple[Position[Any], int] | None = None,
) -> Verdict:
    """Replay ``record`` (main line and every variation) and judge it.

    A ``visitor`` sees every legal move on the way (see :class:`ReplayVisitor`).
    ``_streamed``: for :mod:`notation.streamcheck`, the position that the record's
    first main-line moves were already played on, and how many (they are not in
    ``record.moves``); the record's game and tags must allow a replay.

    ``MisuseError`` for a ``record`` that is not a :class:`Record`, or a
    ``default_game`` that is neither a str nor None.
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(
        default_game is None or isinstance(default_game, str), "default_game",
        "a game's name (a str) or None", default_game,
    )
    game = resolve_game(record, default_game)
    turns = len(record.moves) if _streamed is None else len(record.moves) + _streamed[1]
    if isinstance(game, Defect):
        return _verdict(record, None, turns, _earliest(game, record.error))
    tags = record.tag_dict
    tagged = tags.get("Result")
    error = None if tagged is None else _tag_error(record.find_tag("Result"))
    position: Position[Any] | None = None
    if error is None and _streamed is not None:
        position = _streamed[0]
    elif error is None:
        try:
            position = start_position(game, tags)
        except TagValueError as exc:
            tag = record.find_tag(exc.tag)
            line, col = (tag.line, tag.column) if tag else (record.first_line, 1)
            error = Defect(ErrorKind.SYNTAX, str(exc), line, col, code=exc.code or "")
    if error is None and position is not None:
        error = replay_tree(record.moves, game, position, visitor)
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


def _verdict(
    record: Record,
    game: str | None,
    turns: int,
    error: Defect | None,
    outcome: str | None = None,
) -> Verdict:
    if error is not None:
        error = error.located(file=record.source, record=record.index)
    return Verdict(record.source, record.index, game, record.result, turns, error, outcome)


def _earliest(a: Defect | None, b: Defect | None) -> Defect | None:
    if a is None:
        return b
    if b is None:
        return a
    return a if (a.line, a.column) <= (b.line, b.column) else b


def _tag_error(tag: Tag | None) -> Defect | None:
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


def _result_error(
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
    return Defect(
        ErrorKind.RESULT, message, record.result_line, record.result_column, move=result,
        code=code,
    )


class ReplayVisitor:
    """Hooks into a replay, for layers that want more than a verdict.

    Called in file order, variations included: ``before_move`` with the position
    before a move already known to be legal, ``after_move`` with the position after
    it; ``begin_variation`` and ``end_variation`` around each variation of a move,
    with the position the variation starts from (before that move); ``move_error``
    for a move that cannot be played (in a replay that goes on past errors, see
    :func:`replay_tree`).  Annotating, converting, strict checking and the HTML
    viewer are visitors; :class:`Visitors` lets several share one replay.

    ``before_move`` costs the replay a move taken back and played again, so it is
    called only for a visitor whose :attr:`needs_before_move` is true (by default,
    one that overrides it).  A visitor that wants the canonical spelling of a move
    asks ``position.last_move_canonical()`` in ``after_move``: no replaying at all.
    """

    @property
    def needs_before_move(self) -> bool:
        """Whether the replay must call :meth:`before_move`: by default, whether this
        visitor's class overrides it."""
        return type(self).before_move is not ReplayVisitor.before_move

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        """Called before a legal move is played."""

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        """Called right after a move was played."""

    def begin_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        """Called when a variation of ``node`` starts (``position``: before ``node``)."""

    def end_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        """Called when a variation of ``node`` ends (``position``: before ``node`` again)."""

    def move_error(self, node: MoveNode, error: Defect) -> None:
        """Called for a move that cannot be played (its line ends there)."""


class Visitors(ReplayVisitor):
    """Several visitors sharing one replay, called in the order given."""

    def __init__(self, *visitors: ReplayVisitor) -> None:
        self.visitors = visitors

    @property
    def needs_before_move(self) -> bool:
        """Whether any of the visitors needs :meth:`before_move`."""
        return any(visitor.needs_before_move for visitor in self.visitors)

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        for visitor in self.visitors:
            visitor.before_move(node, move, position)

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        for visitor in self.visitors:
            visitor.after_move(node, move, position)

    def begin_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        for visitor in self.visitors:
            visitor.begin_variation(variation, node, position)

    def end_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        for visitor in self.visitors:
            visitor.end_variation(variation, node, position)

    def move_error(self, node: MoveNode, error: Defect) -> None:
        for visitor in self.visitors:
            visitor.move_error(node, error)


def move_error(node: MoveNode, exc: Exception, turn: int) -> Defect:
    """The located error for a move the game could not read (``MoveSyntaxError``: a
    syntax error) or the rules forbid (``IllegalMoveError``: illegal) at ``turn``."""
    kind = ErrorKind.SYNTAX if isinstance(exc, MoveSyntaxError) else ErrorKind.ILLEGAL
    return Defect(
        kind, str(exc) + _semicolon_hint(node), node.line, node.column, turn, node.written,
        code=getattr(exc, "code", None) or "",
    )


#: ``_Frame.held`` of a node whose move failed: its variations are still replayed
#: (they replace it), then its line ends.
_FAILED: Any = object()


class _Frame:
    """One line being replayed (the main line or a variation)."""

    __slots__ = ("held", "index", "nodes", "pushed", "var_index", "variation")

    def __init__(self, nodes: list[MoveNode], variation: Variation | None = None) -> None:
        self.nodes = nodes
        self.variation = variation
        self.index = 0
        self.pushed = 0
        self.held: Any = None  # the move whose variations are being replayed
        self.var_index = 0


def replay_tree(
    moves: list[MoveNode],
    game: Game[Any],
    position: Position[Any],
    visitor: ReplayVisitor | None = None,
    *,
    stop_at_error: bool = True,
    check_numbers: bool = True,
) -> Defect | None:
    """Play every move under ``moves`` on ``position``, variations included, depth first
    in file order.  Returns the first error.  The position is left after the main
    line's last move played (its end, when nothing stopped the replay): variations are
    taken back as they end.

    ``stop_at_error`` stops there (a check); without it a move that cannot be played
    is reported to ``visitor.move_error`` and ends its line only (a viewer).
    ``check_numbers``: a wrong move number is an error too.  An explicit stack: no
    recursion limit on how deeply variations nest.
    """
    parse = game.parse
    # The hot path (profiled): a hit in the game's memo of parsed tokens skips the
    # call to parse(); a miss goes through it (length limit, grammar, memo).
    cached = memo_lookup(game)  # parsed(), unchecked: only str here
    push = position.push
    size = position.round_size
    # Taking each move back to show the position before it costs a pop and a push:
    # only for a visitor that looks at it.
    before = visitor is not None and visitor.needs_before_move
    first_error: Defect | None = None
    stack = [_Frame(moves)]
    while stack:
        frame = stack[-1]
        nodes = frame.nodes
        if frame.held is not None:
            node = nodes[frame.index]
            if frame.var_index < len(node.variations):
                variation = node.variations[frame.var_index]
                frame.var_index += 1
                if visitor is not None:
                    visitor.begin_variation(variation, node, position)
                stack.append(_Frame(variation.nodes, variation))
                continue
            if frame.held is _FAILED:
                frame.index = len(nodes)  # the failed move ends its line
            else:
                push(frame.held)
                frame.pushed += 1
                frame.index += 1
            frame.held = None
            continue
        if frame.index == len(nodes):
            if len(stack) == 1:
                return first_error
            for _ in range(frame.pushed):
                position.pop()
            stack.pop()
            if visitor is not None and frame.variation is not None:
                parent = stack[-1]
                visitor.end_variation(frame.variation, parent.nodes[parent.index], position)
            continue
        # A run of moves without variations, in one loop: frame.index and
        # frame.pushed are written back when it stops.  Every push plays one turn,
        # so the turns played are counted here rather than asked of the position.
        index, pushed, count = frame.index, frame.pushed, len(nodes)
        played = position.turn
        error: Defect | None = None
        while index < count:
            node = nodes[index]
            number = node.number
            # expected_number(played + 1, size), inline: this loop is the hot path.
            if (
                number is not None
                and check_numbers
                and (
                    number.number != played // size + 1
                    or (number.dots == 1) != (played % size == 0)
                )
            ):
                error = _number_error(node, played + 1, size)
                break
            move = cached(node.text)
            try:
                if move is None:
                    move = parse(node.text)
                push(move)
            except (MoveSyntaxError, IllegalMoveError) as exc:
                error = move_error(node, exc, played + 1)
                break
            if visitor is not None:
                if before:
                    position.pop()
                    visitor.before_move(node, move, position)
                    push(move)
                visitor.after_move(node, move, position)
            # The slot, not the property: the property makes an empty list for every
            # move that has none (profiled: nearly all of them).
            if node._variations:
                position.pop()
                frame.held = move
                frame.var_index = 0
                break
            played += 1
            pushed += 1
            index += 1
        frame.index, frame.pushed = index, pushed
        if error is not None:
            if stop_at_error:
                return error
            first_error = first_error or error
            if visitor is not None:
                visitor.move_error(node, error)
            if node._variations:
                frame.held = _FAILED
                frame.var_index = 0
            else:
                frame.index = count
    return first_error


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


def _number_error(node: MoveNode, turn: int, round_size: int) -> Defect | None:
    number = node.number
    assert number is not None
    expected, first = expected_number(turn, round_size)
    right = f"{expected}." if first else f"{expected}..."
    if number.number == expected and (number.dots == 1) == first:
        return None
    where = "the first turn" if first else "a later turn"
    return Defect(
        ErrorKind.SYNTAX,
        f"move number {number} is wrong: turn {turn} is {where} of round {expected}, "
        f"numbered {right}",
        number.line,
        number.column,
        turn,
        node.written,
        code="number-wrong",
    )


# -- building records from play (Record.from_moves, Record.add_variation, end_position) --


def play_moves(game: Game[M], position: Position[M], moves: Iterable[object]) -> list[MoveNode]:
    """Play ``moves`` (texts, a suffix split off, or typed moves) on ``position`` and
    return their nodes, each in canonical text (``str(position.canonical(move))``).

    ``MoveSyntaxError``, ``IllegalMoveError`` or ``MisuseError`` (not a move of this
    game) for a move that cannot be played, its message naming the turn; the moves
    before it stay pushed.
    """
    nodes: list[MoveNode] = []
    for item in moves:
        turn = position.turn + 1
        suffix = ""
        try:
            if isinstance(item, str):
                text, suffix = split_suffix(item)
                move: Any = game.parse(text)
            else:
                move = item
            move = position.canonical(move)
            position.push(move)
        except (MoveSyntaxError, IllegalMoveError, MisuseError) as exc:
            shown = item if isinstance(item, str) else str(item)
            raise _at_turn(exc, f"turn {turn} ({_cut_move(shown)}): {exc}") from exc
        nodes.append(MoveNode(str(move), suffix=suffix))
    return nodes


def _at_turn(exc: NotationException, message: str) -> NotationException:
    """An exception of ``exc``'s own kind with ``message``: callers catch the kind, and
    sort by its code, which is kept."""
    if isinstance(exc, MisuseError):
        return MisuseError(message)
    if isinstance(exc, IllegalMoveError):
        return IllegalMoveError(message, exc.code)
    return MoveSyntaxError(message, exc.code)


def _cut_move(text: str) -> str:
    """A move's text as a message quotes it (a token can hold megabytes)."""
    return _printable(_cut(text))


def record_from_moves(
    game: Game[M] | str,
    moves: Iterable[M | str],
    tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    result: str | None = None,
) -> Record:
    """:meth:`Record.from_moves`: a record of ``moves`` played in ``game``."""
    if not isinstance(game, Game):
        game = get_game(game)  # a name, or MisuseError for what is neither
    require_sequence(moves, "moves", "moves (texts or typed moves)")
    if not isinstance(tags, Mapping):
        require_sequence(tags, "tags", "(name, value) pairs, or a mapping")
    pairs = list(tags.items()) if isinstance(tags, Mapping) else list(tags)
    for pair in pairs:
        misuse_unless(
            isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(x, str) for x in pair),
            "a tag", "a (name, value) pair of str", pair,
        )
    record_tags = [Tag("Game", game.name)]
    tagged_result: str | None = None
    for name, value in pairs:
        if name == "Game":
            if get_game(value) is not game:
                raise MisuseError(f"the Game tag {value!r} is not the game {game.name!r}")
        elif name == "Result":
            tagged_result = value
        else:
            record_tags.append(Tag(name, value))
    position = start_position(game, {tag.name: tag.value for tag in record_tags})
    nodes = play_moves(game, position, moves)
    outcome = position.outcome()
    if result is None:
        result = tagged_result if tagged_result is not None else outcome or "*"
    if result not in RESULTS:
        raise MisuseError(f"the result is 1-0, 0-1, 1/2-1/2 or *, not {result!r}")
    if not game.allows_result(result):
        raise MisuseError(f"{game.title} has no result {result} (it has no draws)")
    if tagged_result is not None and tagged_result != result:
        raise MisuseError(f"the result {result} contradicts the Result tag {tagged_result!r}")
    if outcome is not None and result != outcome:
        raise MisuseError(
            f"the rules ended the game at turn {position.turn} with {outcome}; "
            f"the result cannot be {result}"
        )
    record_tags.append(Tag("Result", result))
    return Record(tags=record_tags, moves=nodes, result=result)


def replay_line(
    record: Record, game: Game[Any], position: Position[Any], nodes: Iterable[MoveNode]
) -> None:
    """Push the moves of ``nodes`` (a line of ``record``, or its start) on ``position``,
    variations left out and move numbers unchecked.

    ``MoveSyntaxError`` or ``IllegalMoveError`` for a move that cannot be played, with
    the message :func:`check_record` would give (where the record says it stands:
    file, line and column, for a record that was read).
    """
    for node in nodes:
        turn = position.turn + 1
        try:
            position.push(game.parse(node.text))
        except (MoveSyntaxError, IllegalMoveError) as exc:
            if node.line:
                error = move_error(node, exc, turn).located(
                    file=record.source, record=record.index or None
                )
                message = str(error)
            else:  # built in code: it stands nowhere
                message = f"turn {turn} ({_cut_move(node.written)}): {exc}"
            raised = _at_turn(exc, message)
            raised.code = exc.code  # the case, as a verdict's error gives it
            raise raised from exc


def _path_to(moves: list[MoveNode], target: MoveNode) -> list[MoveNode] | None:
    """The moves played before ``target`` (found by identity, anywhere in the tree),
    from the record's start; ``None`` if it is not in the tree."""
    stack: list[tuple[list[MoveNode], list[MoveNode]]] = [(moves, [])]
    while stack:  # no recursion: variations nest as deep as a file says
        nodes, before = stack.pop()
        for index, node in enumerate(nodes):
            if node is target:
                return before + nodes[:index]
            for variation in node.variations:
                stack.append((variation.nodes, before + nodes[:index]))
    return None


def add_checked_variation(record: Record, at: int | MoveNode, moves: Iterable[object]) -> Variation:
    """:meth:`Record.add_variation`: a checked variation of a move of ``record``."""
    require_sequence(moves, "moves", "moves (texts or typed moves)")
    game = record.game()
    position = record.start_position()
    if isinstance(at, MoveNode):
        before = _path_to(record.moves, at)
        if before is None:
            raise MisuseError(f"{at!r} is not a move of this record")
        target = at
    elif type(at) is int:
        index = at - position.turn - 1
        if not 0 <= index < len(record.moves):
            first = position.turn + 1
            span = (
                f"turns {first} to {first + len(record.moves) - 1}"
                if record.moves
                else "no move"
            )
            raise MisuseError(f"turn {at} is no move of the main line (it has {span})")
        before, target = record.moves[:index], record.moves[index]
    else:
        raise MisuseError(f"a variation is added at a turn (int) or a MoveNode, not {at!r}")
    replay_line(record, game, position, before)
    nodes = play_moves(game, position, moves)
    if not nodes:
        raise MisuseError("a variation holds at least one move; none was given")
    variation = Variation(nodes)
    target.variations.append(variation)
    return variation
