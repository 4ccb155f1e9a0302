"""The streaming check: record text in, verdicts out, most moves never made nodes.

:func:`notation.replay.check_record` replays a record's tree, which the reader built
in full: a :class:`~notation.record.MoveNode` (and its four lists) for every move.  A
check needs none of that for most moves.  Here the reader pushes main-line moves on
the record's position as it reads them (see :data:`notation.reader.MoveStream`): a
move followed on the same plain line by another move can get nothing more (no glyph,
comment or variation), so it is played at once and forgotten.  What remains a node
(the last move of each line, moves with glyphs or comments, and everything from a
move that has variations, or that could not be pushed, on) is replayed by the tree
path afterwards, from the position the streamed moves left.

The verdicts are exactly those of ``check_record`` (codes, lines, columns, messages,
turns, outcomes): a move that cannot be pushed stops the streaming and stays a node,
so that the tree path finds the same error, hints and all.  tests/test_streamcheck.py
holds the two paths to that on every bundled record, generated games and mutated ones.
"""

from __future__ import annotations

import itertools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from notation.errors import Defect, IllegalMoveError, MoveSyntaxError, TagValueError
from notation.games import UnknownGameError
from notation.games.base import Game, Position, memo_lookup
from notation.reader import (
    _BRACKETS,
    _MAX_DIGITS,
    RESULTS,
    SureStarts,
    _Reader,
)
from notation.record import MoveNumber, Record
from notation.replay import Verdict, _game_named, check_record, resolve_game, start_position
from notation.textio import first_line_ahead

__all__ = ["PlainRecords", "check_lines", "check_records_text", "could_be_json"]

#: What a :class:`PlainRecords` yields per record.
T = TypeVar("T")


class _Stream:
    """The moves streamed for the record being read: its position, and how many."""

    __slots__ = ("count", "default_game", "position", "record")

    def __init__(self, default_game: str | None) -> None:
        self.default_game = default_game
        self.record: Record | None = None
        self.position: Position[Any] | None = None
        self.count = 0

    def __call__(self, record: Record) -> Callable[[str, MoveNumber | None], bool] | None:
        """``play`` for ``record`` (see :data:`notation.reader.MoveStream`), or ``None``
        when check_record would replay none of its moves (no game, a Result tag or a
        setup tag it refuses): the tree path then says why."""
        self.record = None
        game = resolve_game(record, self.default_game)
        if isinstance(game, Defect):
            return None
        tags = record.tag_dict
        tagged = tags.get("Result")
        if tagged is not None and tagged not in RESULTS:
            return None
        try:
            position = start_position(game, tags)
        except TagValueError:
            return None
        self.record = record
        self.position = position
        self.count = 0
        # What replay_tree's loop does with one move, without a node.
        parse = game.parse
        cached = memo_lookup(game)  # parsed(), unchecked: only str here
        push = position.push
        size = position.round_size

        def play(text: str, number: MoveNumber | None) -> bool:
            if number is not None:
                played = position.turn
                if number.number != played // size + 1 or (number.dots == 1) != (
                    played % size == 0
                ):
                    return False
            move = cached(text)
            try:
                if move is None:
                    move = parse(text)
                push(move)
            except (MoveSyntaxError, IllegalMoveError):
                return False
            self.count += 1
            return True

        return play

    def verdict(self, record: Record) -> Verdict:
        """check_record's verdict on ``record``, its streamed moves counted in."""
        if self.record is record and self.position is not None:
            self.record = None
            return check_record(record, self.default_game, _streamed=(self.position, self.count))
        return check_record(record, self.default_game)


def check_lines(
    lines: Iterable[str],
    source: str | None = None,
    default_game: str | None = None,
    *,
    first_line: int = 1,
) -> Iterator[Verdict]:
    """The verdict of every record of ``lines`` (record text), as
    ``check_record(record, default_game)`` gives it for each record that
    ``read_records(lines, source, first_line=first_line)`` yields."""
    return _Checker(source, default_game).run(lines, first_line)


#: A tag line as the reader reads most (``_PLAIN_TAG``, the line end included).
_TAG_LINE = re.compile(r'\[([A-Za-z0-9_][A-Za-z0-9_+#=:.-]*) "([^"\\]*)"\][\r\n]*').fullmatch
#: The (name, value) of tag lines already read, by the line: the records of a file
#: repeat most of theirs (event, players, setup), and a look-up is a fifth of a match
#: (profiled: tag lines were a tenth of a check of Zombie Kidz's short records).
#: Bounded against hostile input (it starts again when full).
_TAG_PAIRS: dict[str, tuple[str, str]] = {}
#: The most texts _TAG_PAIRS and _NUMBERS keep before they start again.
_TEXTS_LIMIT = 4096

#: (number, dots) of the move numbers read, by their text ("12." is (12, 1), "12..."
#: (12, 3)): a few hundred in a file, each read many times.  Bounded.
_NUMBERS: dict[str, tuple[int, int]] = {}


def _move_number(text: str) -> tuple[int, int]:
    """(number, dots) of a move number ``text`` (digits, then one dot or three), kept in
    _NUMBERS; _Deviation for anything else that starts with a digit."""
    digits = text.rstrip(".")
    dots = len(text) - len(digits)
    if (dots != 1 and dots != 3) or not digits.isdigit() or len(digits) > _MAX_DIGITS:
        raise _Deviation
    number = (int(digits), dots)
    if len(_NUMBERS) >= _TEXTS_LIMIT:
        _NUMBERS.clear()
    _NUMBERS[text] = number
    return number


#: The states of :class:`_Checker`: between records, in a header, after a blank line
#: in a header, in the movetext, after the result token.
_BETWEEN, _TAGS, _HEADER_BLANK, _MOVES, _CLOSED = range(5)


class _Deviation(Exception):
    """A record is not of the plain shape the fast path reads: the reader reads it."""


class PlainRecords(ABC, Generic[T]):
    """Records read a line at a time, those of the plain shape without a reader.

    The fast path of :func:`check_lines`, and of the streaming convert and annotate
    (:mod:`notation.streamconvert`), which give it what to make of a record: a
    subclass says what to do with each move pushed (:meth:`_begin`), what to yield for
    a plain record that checked (:meth:`_closed`), and for the records the reader
    reads (:meth:`_from_reader`).

    A record of the plain shape writers write (``[Name "value"]`` tag lines, a blank
    line, lines of moves and move numbers one space apart, the result token ending
    the last, then blank lines or the next record's first tag) whose every move is
    legal and numbered right, and whose result agrees with its tags and the rules, is
    checked here without a record: its verdict is the one check_record gives such a
    record (no error).  At anything else (a comment, a glyph, a variation, an escape
    line, an illegal move, a wrong number, an unknown game...) the record goes to the
    reader with its lines, up to where the reader surely begins a record (the
    reader's own ``SureStarts``), and the tree path judges it, so that every message,
    line and column is the reader's and check_record's own.
    """

    def __init__(self, source: str | None, default_game: str | None) -> None:
        self.source = source
        self.default_game = default_game
        self.index = 0  # records so far
        # The game the last record named, and its name.
        self.game_name: str | None = None
        self.game: Game[Any] | None = None

    def run(self, lines: Iterable[str], first_line: int) -> Iterator[T]:
        """The item of every record of ``lines``, whose first is line ``first_line``."""
        # After a record that left the plain shape, the reader has read up to a line
        # beginning the next one (follow), which the loop then reads again: chained
        # before the lines still to come, never before the last chain (each record
        # read so would nest one chain deeper, and reading a line cost a step per level).
        rest = it = iter(lines)
        lineno = first_line - 1
        start = first_line  # the first line of the record being read (or pending)
        buffered: list[str] = []  # its lines (and the pending record's) as read
        # Blank lines between records (before the first too), counted, not buffered:
        # the reader needs them only as lines to count, and there may be millions.
        blanks = 0
        pending: T | None = None  # a closed record's item, until it surely ends
        state = _BETWEEN
        game: Game[Any] | None = None
        tags: dict[str, str] = {}  # the first value of each name
        position: Position[Any] | None = None
        result = ""
        known_tags = _TAG_PAIRS.get
        known_numbers = _NUMBERS.get
        while True:
            for raw in it:
                lineno += 1
                buffered.append(raw)
                try:
                    first = raw[:1]
                    if first == "[":
                        pair = known_tags(raw)
                        if pair is None:
                            match = _TAG_LINE(raw)
                            if match is None:
                                raise _Deviation
                            name, value = match.groups()
                            if len(_TAG_PAIRS) >= _TEXTS_LIMIT:
                                _TAG_PAIRS.clear()
                            _TAG_PAIRS[raw] = (name, value)
                        else:
                            name, value = pair
                        if state == _TAGS:
                            tags.setdefault(name, value)
                            continue
                        if state in (_MOVES, _HEADER_BLANK):
                            raise _Deviation  # a record without a result, or moves
                        # A tag line where records begin (a fresh input, or after a
                        # result): it begins the next record.
                        if pending is not None:
                            yield pending
                            pending = None
                        buffered = [raw]
                        blanks = 0
                        start = lineno
                        tags = {name: value}
                        game = None
                        state = _TAGS
                        continue
                    if first == "%" or first == "\ufeff":
                        raise _Deviation
                    line = raw.rstrip("\r\n")
                    tokens = line.split()
                    if not tokens:
                        if state == _TAGS:
                            state = _HEADER_BLANK
                        elif state in (_BETWEEN, _CLOSED):
                            buffered.pop()
                            blanks += 1
                        continue
                    if state in (_BETWEEN, _CLOSED) or tokens[0][0] == "[":
                        raise _Deviation
                    # A line of movetext, read as _spaced reads it.
                    if not (
                        line.isascii()
                        and _BRACKETS.search(line) is None
                        and " ".join(tokens) == line
                    ):
                        raise _Deviation
                    if game is None:
                        game, position = self._start(tags)
                        played = first_played = position.turn
                        number: tuple[int, int] | None = None
                        parse = game.parse
                        cached = memo_lookup(game)  # parsed(), unchecked: only str here
                        push = position.push
                        size = position.round_size
                        pushed = self._begin(game, position)
                        state = _MOVES
                    assert position is not None
                    closing = tokens[-1] in RESULTS
                    if closing:
                        result = tokens.pop()
                    for text in tokens:
                        first = text[0]
                        if first in "0123456789":
                            number = known_numbers(text)
                            if number is None:
                                number = _move_number(text)
                        elif first in "$*" or text[-1] in "!?":
                            raise _Deviation
                        else:
                            if number is not None:
                                if number[0] != played // size + 1 or (number[1] == 1) != (
                                    played % size == 0
                                ):
                                    raise _Deviation
                                number = None
                            move = cached(text)
                            try:
                                if move is None:
                                    move = parse(text)
                                push(move)
                            except (MoveSyntaxError, IllegalMoveError):
                                raise _Deviation from None
                            if pushed is not None:
                                pushed(move)
                            played += 1
                    if closing:
                        if number is not None:
                            raise _Deviation  # a number with no move: left to the reader
                        turns = played - first_played
                        outcome = self._check_result(game, tags, position, result, turns)
                        self.index += 1
                        pending = self._closed(game, buffered, position, result, turns, outcome)
                        state = _CLOSED
                except _Deviation:
                    # The record (and the one before it, if not yet surely ended) goes to
                    # the reader, with the lines up to where the reader surely begins one.
                    if pending is not None:
                        self.index -= 1  # read again, with the lines after it
                    lines_read: Iterable[str] = buffered
                    if blanks:  # they came before the line read last
                        lines_read = itertools.chain(
                            buffered[:-1], itertools.repeat("\n", blanks), buffered[-1:]
                        )
                        blanks = 0
                    yield from self._read(lines_read, start, it, first_line)
                    # _read stopped at a line beginning a record, or at the end.
                    follow = self.follow
                    if follow is None:
                        return
                    lineno = self.follow_line - 1
                    it = itertools.chain((follow,), rest)
                    pending = None
                    buffered = []
                    state = _BETWEEN
                    start = self.follow_line
                    break
            else:
                break
        if state in (_CLOSED, _BETWEEN):
            if pending is not None:
                yield pending
            return
        yield from self._read(buffered, start, it, first_line)

    def _start(self, tags: dict[str, str]) -> tuple[Game[Any], Position[Any]]:
        """The game and start position of a record with ``tags``, as check_record finds
        them; _Deviation where it would find an error."""
        name = tags.get("Game", self.default_game)
        if name is None:
            raise _Deviation
        if name == self.game_name and self.game is not None:
            game = self.game  # every record of a file names its game the same way
        else:
            try:
                game = _game_named(name)
            except UnknownGameError:
                raise _Deviation from None
            self.game_name, self.game = name, game
        tagged = tags.get("Result")
        if tagged is not None and tagged not in RESULTS:
            raise _Deviation
        try:
            return game, start_position(game, tags)
        except TagValueError:
            raise _Deviation from None

    @staticmethod
    def _check_result(
        game: Game[Any], tags: dict[str, str], position: Position[Any], result: str, turns: int
    ) -> str | None:
        """_Deviation unless check_record finds no error in a record read whole and
        replayed without one, with this ``result`` (and a move at least: a record of
        none is left to the tree path, which knows how to write it); else the outcome
        the rules gave, if any."""
        outcome = position.outcome()
        tagged = tags.get("Result")
        if (
            not turns
            or not game.allows_result(result)
            or (tagged is not None and tagged != result)
            or (outcome is not None and result != outcome)
        ):
            raise _Deviation
        return outcome

    # -- what a subclass makes of records ------------------------------------------
    def _begin(self, game: Game[Any], position: Position[Any]) -> Callable[[Any], None] | None:
        """Called as a plain record's moves begin, on its start ``position``: what to
        call with each move after it is pushed (None: nothing)."""
        return None

    @abstractmethod
    def _closed(
        self,
        game: Game[Any],
        lines: list[str],
        position: Position[Any],
        result: str,
        turns: int,
        outcome: str | None,
    ) -> T:
        """The item of a plain record read whole and found valid: its ``lines`` (its tag
        lines first, each of which matched ``_TAG_LINE``; the check keeps only the first
        value of each name as it reads), the ``position`` after its ``turns`` moves, its
        ``result``, the ``outcome`` the rules gave.  Its number is ``self.index``."""

    @abstractmethod
    def _from_reader(self, lines: Iterator[str], start: int, strip_bom: bool) -> Iterator[T]:
        """The items of the records the reader reads in ``lines`` (from line ``start``),
        numbered on from ``self.index``, which it leaves at the last one's number."""

    def _read(
        self, buffered: Iterable[str], start: int, it: Iterator[str], first_line: int
    ) -> Iterator[T]:
        """The items of the records of ``buffered`` (lines from line ``start``) and of
        the lines of ``it`` up to where the reader surely begins a record, by the reader
        (:meth:`_from_reader`).  Sets ``follow`` to that line (``None`` at the end),
        and ``follow_line`` to its number.  The lines go to the reader as they come:
        it holds one record at a time, however far the next sure beginning is."""
        self.follow: str | None = None
        self.follow_line = 0

        def chunk() -> Iterator[str]:
            starts = SureStarts()
            for count, raw in enumerate(itertools.chain(buffered, it)):
                # The first line (where a record begins) is never where the reader
                # surely begins another; of the buffered ones, only the last (the one
                # that left the plain shape) can be.
                if starts.feed(raw) and count:
                    self.follow = raw
                    self.follow_line = start + count
                    return
                yield raw

        yield from self._from_reader(chunk(), start, start == first_line)


class _Checker(PlainRecords[Verdict]):
    """The fast path of :func:`check_lines`: verdicts, the reader's records checked with
    their main-line moves streamed (:class:`_Stream`)."""

    def __init__(self, source: str | None, default_game: str | None) -> None:
        super().__init__(source, default_game)
        self.stream = _Stream(default_game)

    def _closed(
        self,
        game: Game[Any],
        lines: list[str],
        position: Position[Any],
        result: str,
        turns: int,
        outcome: str | None,
    ) -> Verdict:
        return Verdict(self.source, self.index, game.name, result, turns, None, outcome)

    def _from_reader(self, lines: Iterator[str], start: int, strip_bom: bool) -> Iterator[Verdict]:
        reader = _Reader(self.source, False, self.stream)
        reader.count = self.index
        for record in reader.run(lines, start, strip_bom=strip_bom):
            yield self.stream.verdict(record)
        self.index = reader.count


def could_be_json(first_line: str) -> bool:
    """Whether a source whose first non-blank line is ``first_line`` may be JSON Lines
    of records: ``False`` tells, without importing the converters (start-up), that
    :func:`notation.convert.looks_like_json_records` would say no (no ``{`` first)."""
    return first_line.strip().removeprefix("\ufeff").startswith("{")


def check_records_text(
    lines: Iterable[str], source: str | None = None, default_game: str | None = None
) -> Iterator[Verdict]:
    """:func:`check_lines` on record text, or check_record on each record of JSON Lines
    (told apart as :func:`notation.convert.read_any_records` does)."""
    first, rest = first_line_ahead(lines)
    if first is not None and could_be_json(first):  # the converters tell, as read_any_records does
        from notation.convert import looks_like_json_records, read_json_records

        if looks_like_json_records(first):
            for record in read_json_records(rest, source, errors="record"):
                yield check_record(record, default_game)
            return
    yield from check_lines(rest, source, default_game)
