"""Replaying a record through its game's rules: the verdict on one record.

This is where a record (text) meets a game (typed moves and a position).
:class:`Replay` is the one replay loop, a :class:`~notation.visitor.RecordVisitor`
driven by the reader from text (no tree) or by :func:`~notation.visitor.walk_record`
from a tree: each move is read by the game's grammar and pushed on a position;
variations are replayed from the position before the move they replace, then taken
back.  The first defect, in file order, is the verdict's error.  The
:class:`~notation.verdict.Verdict` and the judgements beside the moves (the game a
record names, its result, its move numbers, the hints and fixes) are in
:mod:`notation.verdict`, and are importable from here too.

Turns count every player's turn from the start of the game (1 for the first),
along the line a move stands in: a move in a variation that replaces turn 30 is
turn 30.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

import notation.record
from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    TagValueError,
    cut,
    misuse_unless,
    printable,
    require_sequence,
)
from notation.games import UnknownGameError, get_game
from notation.games.base import Game, Position
from notation.record import (
    Comment,
    MoveNode,
    MoveNumber,
    Record,
    Tag,
    Variation,
    route_to,
    split_suffix,
)
from notation.record_bounds import RESULTS
from notation.verdict import (
    RESPELT_CODES,
    TagLike,
    Verdict,
    comma_fix,
    comma_hint,
    earliest_defect,
    first_tag,
    game_named,
    move_error,
    number_error,
    record_verdict,
    require_tag_pairs,
    resolve_game,
    result_error,
    tag_case_fix,
    tag_case_hint,
    tag_error,
    tag_rename_fix,
    tag_values,
    tags_game,
    with_respellings_that_check,
    with_result_to_add,
)
from notation.visitor import (
    RecordVisitor,
    ReplayVisitor,
    Skip,
    TagSeen,
    walk_moves,
    walk_record,
)

__all__ = [
    "Judge",
    "Replay",
    "ReplayVisitor",
    "TagLike",
    "Verdict",
    "Visitors",
    "add_checked_variation",
    "check_record",
    "comma_hint",
    "move_error",
    "number_error",
    "play_moves",
    "record_from_moves",
    "replay_line",
    "replay_tree",
    "require_tag_pairs",
    "resolve_game",
    "result_error",
    "start_position",
    "tag_error",
    "tag_rename_fix",
    "tag_values",
    "tags_game",
]

#: A game's move type (as in :mod:`notation.games.base`).
M = TypeVar("M", bound=Hashable)


def start_position(game: Game[Any], tags: Mapping[str, str]) -> Position[Any]:
    """The position a record starts from: its ``Position`` tag, else the game's start.

    Raises ``TagValueError`` for a tag value the game cannot accept.
    """
    misuse_unless(isinstance(game, Game), "game", "a notation.Game", game)
    misuse_unless(isinstance(tags, Mapping), "tags", "a mapping of tag names to values", tags)
    return _position_from(game, tags)


def _position_from(game: Game[Any], tags: Mapping[str, str]) -> Position[Any]:
    """:func:`start_position` without its checks of the arguments."""
    text = tags.get("Position")
    if text is not None:
        return game.position_from_string(text, tags)
    return game.new_position(tags)


def check_record(
    record: Record,
    default_game: str | None = None,
    visitor: RecordVisitor[Any] | None = None,
) -> Verdict:
    """Replay ``record`` (main line and every variation) and judge it.

    A ``visitor`` sees the record's events and every legal move on the way, with the
    position (see :class:`Replay`).  ``MisuseError`` for a ``record`` that is not a
    :class:`Record`, or a ``default_game`` that is neither a str nor None.

    >>> import notation
    >>> record = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 *\\n')[0]
    >>> check_record(record).ok
    True
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(
        default_game is None or isinstance(default_game, str), "default_game",
        "a game's name (a str) or None", default_game,
    )
    misuse_unless(
        visitor is None or isinstance(visitor, RecordVisitor), "visitor", "a RecordVisitor",
        visitor,
    )
    return walk_record(record, Replay(default_game, visitor))



class _Frame:
    """One line being replayed (the main line or a variation)."""

    __slots__ = ("dead", "failed", "held", "main", "pushed")

    def __init__(self, main: bool, dead: bool, held: Any = None) -> None:
        self.main = main  # the main line: its moves are the verdict's turns
        self.dead = dead  # no move of this line is played any more
        self.failed = False  # a move of it could not be played (its variations are)
        self.held = held  # the move the variation replaces, pushed again at its end
        self.pushed = 0  # moves played in this line


class Replay(RecordVisitor[Verdict]):
    """The replay: the one place where a move is read, its number checked and it is
    played.  A :class:`~notation.visitor.RecordVisitor` whose result is the record's
    :class:`Verdict`; the reader drives it from text (no record tree is built:
    ``notation check``), :func:`~notation.visitor.walk_record` from a tree
    (:func:`check_record`).

    An inner ``visitor`` (a :class:`~notation.visitor.ReplayVisitor`) gets every event
    of the record, :meth:`~notation.visitor.ReplayVisitor.visit_start` with the
    position the moves start from, and ``after_move`` for each move played.
    Variations are played from the position before the move they replace and taken
    back at their end.

    The options:

    - ``stop_at_error`` (a check) plays nothing after the first error; without it, a
      move that cannot be played goes to the visitor's ``move_error`` and ends its line
      only (a viewer);
    - ``check_numbers``: a wrong move number is an error too;
    - ``judges``: the check's modes (:class:`Judge`), each a visitor under the replay
      that has its say on the verdict: :func:`notation.checking.canonical_form.strict_replay` (the
      canonical form) and :func:`notation.checking.every_defect.all_defects_replay` (every defect,
      ``check --all``) make the replays of ``notation check``'s options;
    - ``game`` and ``position``: replay from that position in that game, whatever the
      record's tags.

    >>> import notation
    >>> from notation.reader import visit_records
    >>> text = '[Game "cave"]\\n\\n1. b1 b5 *\\n[Game "cave"]\\n\\n1. a1-a9 *\\n'
    >>> [verdict.ok for verdict in visit_records(text.splitlines(True), Replay())]
    [True, False]
    """

    def __init__(
        self,
        default_game: str | None = None,
        visitor: RecordVisitor[Any] | None = None,
        *,
        stop_at_error: bool = True,
        check_numbers: bool = True,
        judges: Iterable[Judge] = (),
        game: Game[Any] | None = None,
        position: Position[Any] | None = None,
    ) -> None:
        self.default_game = default_game
        self.stop_at_error = stop_at_error
        self.check_numbers = check_numbers
        self.fixed = (game, position) if game is not None and position is not None else None
        self.judges = tuple(judges)
        if self.judges:
            visitor = Visitors(*self.judges, *([visitor] if visitor is not None else []))
        self.inner = visitor
        # The replay events go to an inner visitor that takes them.
        self.inner_replay = visitor if isinstance(visitor, ReplayVisitor) else None
        self.begun = False
        self.reset()

    def reset(self) -> None:
        """Forget the record replayed last."""
        self.game: Game[Any] | None = None
        #: The position the replay is at (None: the record cannot be replayed).
        self.position: Position[Any] | None = None
        self.frames = [_Frame(True, True)]
        self.frame = self.frames[0]
        # Main-line moves told that were not played (after an error, or no game).
        self.unplayed = 0
        self.stopped = False
        self.tagged: str | None = None
        self.tags: list[TagSeen] = []
        # The first error: a Defect, or (node, exception, turn) made one at the end.
        self.error: Defect | tuple[MoveNode, Exception, int] | None = None
        # The move that failed first, while what follows it may still be its own (a
        # glyph, a comment right after it: hints look at them).
        self.watched: MoveNode | None = None
        # A move that failed with a ',' at its end ("c6," of "c6, h4"), and the move
        # read after it, for the hint (see comma_hint).
        self.comma: MoveNode | None = None
        self.after_comma: MoveNode | None = None

    # -- the record ------------------------------------------------------------------
    def begin_record(self, record: Record) -> None:
        self.reset()
        self.begun = False
        if self.inner is not None:
            self.inner.begin_record(record)

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        # tuple.__new__: what TagSeen(...) makes, without its Python-level __new__.
        self.tags.append(tuple.__new__(TagSeen, (name, value, line, column)))
        if self.inner is not None:
            self.inner.visit_tag(name, value, line, column)

    def end_tags(self, record: Record) -> Skip | None:
        self.begun = True
        if self.fixed is not None:
            self.game, self.position = self.fixed
        else:
            self._start(record)
        if self.position is not None:
            game = self.game
            assert game is not None
            self.parse = game.parse
            self.cached = game.parsed_unchecked  # tokens are str
            self.push = self.position.push
            self.size = self.position.round_size
            self.frame.dead = False
        if self.inner is not None:
            self.inner.end_tags(record)
            if self.position is not None and self.inner_replay is not None:
                self.inner_replay.visit_start(self.position)
        return None

    def _start(self, record: Record) -> None:
        """The record's game and start position, or the error that there are none."""
        tags = tag_values(self.tags)
        name = tags.get("Game", self.default_game)
        game: Game[Any] | Defect
        try:
            game = game_named(name) if name is not None else tags_game(self.tags, record, None)
        except UnknownGameError:
            game = tags_game(self.tags, record, self.default_game)  # the error, where it is
        if isinstance(game, Defect):
            self.error = game
            return
        self.game = game
        self.tagged = tagged = tags.get("Result")
        if tagged is not None and tagged not in RESULTS:
            self.error = tag_error(first_tag(self.tags, "Result"))
            return
        try:
            self.position = _position_from(game, tags)
        except TagValueError as exc:
            tag = first_tag(self.tags, exc.tag)
            line, col = (tag.line, tag.column) if tag else (record.first_line, 1)
            self.error = Defect(ErrorKind.SYNTAX, str(exc), line, col, code=exc.code or "")

    # -- the moves ---------------------------------------------------------------------
    @property
    def turns(self) -> int:
        """The main line's moves told so far (played or not): the verdict's turns."""
        frames = self.frames
        # A variation of the main line left open holds the main-line move it replaces.
        held = len(frames) > 1 and frames[1].held is not None
        return frames[0].pushed + self.unplayed + held

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        frame = self.frame
        inner = self.inner
        if inner is not None:
            inner.visit_move(text, suffix, number, line, column)
        if frame.dead:
            if frame.main:
                self.unplayed += 1
            self.watched = None
            frame.failed = False  # its variations are no longer the failed move's
            if self.comma is not None and self.after_comma is None:
                self.after_comma = MoveNode(text, line, column, suffix, number=number)
            return
        position = self.position
        assert position is not None
        if number is not None and self.check_numbers:
            played, size = position.turn, self.size
            if number.number != played // size + 1 or (number.dots == 1) != (
                played % size == 0
            ):
                node = MoveNode(text, line, column, suffix, number=number)
                error = number_error(node, played + 1, size)
                assert error is not None
                self._failed(node, error, played + 1)
                return
        move = self.cached(text)
        try:
            if move is None:
                move = self.parse(text)
            self.push(move)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            node = MoveNode(text, line, column, suffix, number=number)
            self._failed(node, exc, position.turn + 1)
            return
        frame.pushed += 1
        if self.inner_replay is not None:
            self.inner_replay.after_move(move, position)

    def _failed(self, node: MoveNode, why: Exception | Defect, turn: int) -> None:
        """``node``'s move cannot be played: ``why`` (a defect, or the exception of its
        reading or playing, made a defect at the end: hints look at what follows it)."""
        frame = self.frame
        frame.dead = True
        frame.failed = True
        if frame.main:
            self.unplayed += 1
        if self.error is None:
            self.error = why if isinstance(why, Defect) else (node, why, turn)
            self.watched = node
            if node.text.endswith(",") and not isinstance(why, Defect):
                self.comma = node
        if self.stop_at_error:
            self.stopped = True
            for each in self.frames:
                each.dead = True
        elif self.inner_replay is not None:
            error = why if isinstance(why, Defect) else move_error(node, why, turn)
            self.inner_replay.move_error(error)

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        watched = self.watched
        if watched is not None and glyph[:1] != "$":
            watched.suffix = glyph  # a suffix written apart: part of the failed move
        if self.inner is not None:
            self.inner.visit_glyph(glyph, line, column)

    def visit_comment(self, comment: Comment) -> None:
        watched = self.watched
        if watched is not None:
            if comment.after_number:
                self.watched = None
            else:  # right after the failed move (a ';' typed for a ',')
                watched.comments_after.append(comment)
        if self.inner is not None:
            self.inner.visit_comment(comment)

    def begin_variation(self, line: int, column: int) -> None:
        self.watched = None
        parent = self.frame
        if not parent.dead:
            assert self.position is not None
            # The variation replaces the last move played: from before it.
            frame = _Frame(False, False, self.position.pop())
            parent.pushed -= 1
        else:
            # The variations of a move that failed replace it; any other's are not
            # played (the line ended before them).
            frame = _Frame(False, self.stopped or not parent.failed)
        self.frames.append(frame)
        self.frame = frame
        if self.inner is not None:
            self.inner.begin_variation(line, column)

    def end_variation(self) -> None:
        self.watched = None
        frame = self.frames.pop()
        self.frame = self.frames[-1]
        if frame.held is not None:
            self.frame.pushed += 1  # the move it replaced is its line's again
        position = self.position
        if not self.stopped and position is not None:
            for _ in range(frame.pushed):
                position.pop()
            if frame.held is not None:
                self.push(frame.held)
        if self.inner is not None:
            self.inner.end_variation()

    def visit_result(self, result: str, line: int, column: int) -> None:
        self.watched = None
        if self.inner is not None:
            self.inner.visit_result(result, line, column)

    def end_record(self, record: Record) -> Verdict:
        if not self.begun:
            self.end_tags(record)
        inner = self.inner
        if inner is not None:
            inner.end_record(record)
        verdict = self._verdict(record)
        for judge in self.judges:
            verdict = judge.judged(record, verdict)
        return verdict

    def _verdict(self, record: Record) -> Verdict:
        """The verdict of the moves replayed, the record's own defect and its result."""
        found = self.error
        error = move_error(*found) if isinstance(found, tuple) else found
        game, position = self.game, self.position
        if game is None:
            return record_verdict(record, None, self.turns, earliest_defect(error, record.error))
        if isinstance(found, tuple) and error is not None:  # a move failed
            error = self._move_context(game, found, error)
        error = earliest_defect(error, record.error)
        if error is not None and error is record.error and error.code == "result-missing":
            error = with_result_to_add(error, self.tagged, game, position)
        elif error is not None and error is record.error and error.code in RESPELT_CODES:
            error = with_respellings_that_check(error, self.tagged, game, position)
        outcome = position.outcome() if position is not None and error is None else None
        if error is None and self.fixed is None:
            error = result_error(record, self.tagged, game, outcome, position)
        if error is not None:
            # A tag that sets the game up (its position, its round), spelt in the wrong
            # case, is a likely cause.  Not a Result tag: one that does not count makes
            # no error (check --strict reports its case, at its line).
            for name in ("Position", *(name for name, _ in game.setup_tags())):
                hint = tag_case_hint(self.tags, name)
                if hint:
                    fixes = (*error.fixes, *tag_case_fix(self.tags, name))
                    error = replace(error, message=error.message + hint, fixes=fixes)
                    break
        return record_verdict(record, game.name, self.turns, error, outcome)

    def _move_context(
        self, game: Game[Any], found: tuple[MoveNode, Exception, int], error: Defect
    ) -> Defect:
        """``error`` (of the move ``found`` names) with what helps to see why: the hint
        for ``c6, h4``, and for a rules defect that depends on what stands on a square,
        the turn that last changed it (the position is still the one before the move:
        a check plays nothing after its first error)."""
        node, exc, _ = found
        comma = self.comma
        following = self.after_comma
        if comma is not None and following is not None and comma is node:
            hint = comma_hint(node, following)
            fixes = (*error.fixes, *comma_fix(node, following)) if hint else error.fixes
            error = replace(error, message=error.message + hint, fixes=fixes)
        position = self.position
        if self.stop_at_error and isinstance(exc, IllegalMoveError) and position is not None:
            from notation.lastchange import with_last_change

            error = with_last_change(game, position, error, node.text)
        return error

    @property
    def first_error(self) -> Defect | None:
        """The first error of the moves replayed so far (numbers and moves), if any."""
        found = self.error
        return move_error(*found) if isinstance(found, tuple) else found


class Judge(ReplayVisitor[None]):
    """A mode of a check: a visitor under a :class:`Replay` (``judges=``) that has its
    say on each verdict (:meth:`judged`), in the order the judges are given."""

    def judged(self, record: Record, verdict: Verdict) -> Verdict:
        """The verdict on ``record`` as this mode gives it, from ``verdict`` (the
        replay's, or the judge's before this one)."""
        return verdict


class Visitors(ReplayVisitor[None]):
    """Several visitors sharing one replay (or one read), each told every event, in
    the order given (the replay events only those that are replay visitors)."""

    def __init__(self, *visitors: RecordVisitor[Any]) -> None:
        self.visitors = visitors
        self.replaying = [v for v in visitors if isinstance(v, ReplayVisitor)]

    def begin_record(self, record: Record) -> None:
        for visitor in self.visitors:
            visitor.begin_record(record)

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        for visitor in self.visitors:
            visitor.visit_tag(name, value, line, column)

    def end_tags(self, record: Record) -> Skip | None:
        for visitor in self.visitors:
            visitor.end_tags(record)
        return None

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        for visitor in self.visitors:
            visitor.visit_move(text, suffix, number, line, column)

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        for visitor in self.visitors:
            visitor.visit_glyph(glyph, line, column)

    def visit_comment(self, comment: Comment) -> None:
        for visitor in self.visitors:
            visitor.visit_comment(comment)

    def begin_variation(self, line: int, column: int) -> None:
        for visitor in self.visitors:
            visitor.begin_variation(line, column)

    def end_variation(self) -> None:
        for visitor in self.visitors:
            visitor.end_variation()

    def visit_result(self, result: str, line: int, column: int) -> None:
        for visitor in self.visitors:
            visitor.visit_result(result, line, column)

    def end_record(self, record: Record) -> None:
        for visitor in self.visitors:
            visitor.end_record(record)

    def visit_start(self, position: Any) -> None:
        for visitor in self.replaying:
            visitor.visit_start(position)

    def after_move(self, move: Any, position: Any) -> None:
        for visitor in self.replaying:
            visitor.after_move(move, position)

    def move_error(self, error: Defect) -> None:
        for visitor in self.replaying:
            visitor.move_error(error)



def replay_tree(
    moves: list[MoveNode],
    game: Game[Any],
    position: Position[Any],
    visitor: RecordVisitor[Any] | None = None,
    *,
    stop_at_error: bool = True,
    check_numbers: bool = True,
) -> Defect | None:
    """Play every move under ``moves`` on ``position``, variations included, in file
    order (the moves of a :class:`Replay`, without a record): returns the first error.
    The position is left after the main line's last move played; variations are
    taken back as they end.  ``stop_at_error``, ``check_numbers`` as for
    :class:`Replay`."""
    replay = Replay(
        None, visitor, stop_at_error=stop_at_error, check_numbers=check_numbers,
        game=game, position=position,
    )
    replay.end_tags(Record())
    walk_moves(moves, replay)
    return replay.first_error



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
    return printable(cut(text))



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
    pairs = require_tag_pairs(tags)
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
                if isinstance(exc, IllegalMoveError):  # as a check says it
                    from notation.lastchange import with_last_change

                    error = with_last_change(game, position, error, node.text)
                message = str(error)
            else:  # built in code: it stands nowhere
                message = f"turn {turn} ({_cut_move(node.written)}): {exc}"
            raised = _at_turn(exc, message)
            raised.code = exc.code  # the case, as a verdict's error gives it
            raise raised from exc


def add_checked_variation(record: Record, at: int | MoveNode, moves: Iterable[object]) -> Variation:
    """:meth:`Record.add_variation`: a checked variation of a move of ``record``."""
    require_sequence(moves, "moves", "moves (texts or typed moves)")
    game = record.game()
    position = record.start_position()
    if isinstance(at, MoveNode):
        route = route_to(record.moves, at)
        if route is None:
            raise MisuseError(f"{at!r} is not a move of this record")
        before, line = [], record.moves  # the moves played before at, from the start
        for index, number in route[0]:
            before += line[:index]
            line = line[index].variations[number - 1].nodes
        before += line[: route[1]]
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


def record_game(record: Record, default: str | None = None) -> Game[Any]:
    """:meth:`Record.game`: the game of ``record``'s ``Game`` tag, else ``default``."""
    name = record.tag("Game", default)
    if name is None:
        error = UnknownGameError("")
        # The same kind of error as for a wrong name, with the message of the case.
        error.args = ("the record has no Game tag (record.set_tag('Game', name))",)
        raise error
    return get_game(name)


# This module is the play layer of the record model's game-aware methods.
notation.record.play_layer = sys.modules[__name__]
