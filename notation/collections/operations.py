"""Working with collections of records: select, deduplicate, split (streamed).

A record is judged only as far as a question needs: a tag or a record number needs
no replay; "valid", "reached this position" and "contains this move" need one
replay, shared by every criterion that asks (see :class:`Facts`).  The command line's
``select``, ``dedup`` and ``split`` are thin shells over :func:`select`,
:func:`dedup` and :func:`split_key`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from notation.errors import Defect, MisuseError
from notation.games.base import Game, Position
from notation.record import Record
from notation.replay import Verdict, check_record, resolve_game
from notation.visitor import ReplayVisitor

__all__ = [
    "Criterion",
    "Facts",
    "HasMove",
    "IsBroken",
    "IsValid",
    "NumberIn",
    "ReachesPosition",
    "ResultIs",
    "Seen",
    "Selection",
    "TagEquals",
    "TagIn",
    "TagMatches",
    "TurnsIn",
    "dedup",
    "dedup_key",
    "parse_range",
    "select",
    "split_key",
]


# -- what a replay of one record tells ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Needs:
    """What the criteria of a selection ask of a record's replay."""

    verdict: bool = False
    moves: bool = False  # canonical spellings of the moves played
    positions: bool = False  # position strings of the positions reached

    def __or__(self, other: Needs) -> Needs:
        return Needs(
            self.verdict or other.verdict,
            self.moves or other.moves,
            self.positions or other.positions,
        )


class _Collector(ReplayVisitor[None]):
    """Gathers, in the one replay ``check_record`` makes, the moves and positions of the
    main line and of the whole tree."""

    def __init__(self, needs: Needs) -> None:
        self.needs = needs
        self.depth = 0  # of the open variations: 0 on the main line
        self.main_moves: list[str] = []
        self.all_moves: set[str] = set()
        self.main_positions: set[str] = set()
        self.all_positions: set[str] = set()

    def begin_variation(self, line: int, column: int) -> None:
        self.depth += 1

    def end_variation(self) -> None:
        self.depth -= 1

    def after_move(self, move: Any, position: Position[Any]) -> None:
        main = self.depth == 0
        if self.needs.moves:
            text = str(position.last_move_canonical())
            self.all_moves.add(text)
            if main:
                self.main_moves.append(text)
        if self.needs.positions:
            text = position.position_string()
            self.all_positions.add(text)
            if main:
                self.main_positions.add(text)


@dataclass(slots=True)
class Facts:
    """One record of a collection, with what its replay found, computed on first use.

    ``number`` is the record's place in its source (1 for the first).
    """

    record: Record
    number: int
    default_game: str | None = None
    _verdict: Verdict | None = field(default=None, repr=False)
    _collector: _Collector | None = field(default=None, repr=False)
    _start: str | None = field(default=None, repr=False)

    def replay(self, needs: Needs) -> None:
        """Replay the record, collecting what ``needs`` asks; again only if an earlier
        replay collected less."""
        if self._collector is not None:
            if (self._collector.needs | needs) == self._collector.needs:
                return
            needs = needs | self._collector.needs
        collector = _Collector(needs)
        # A visitor costs a call per move: none when only the verdict is wanted.
        wanted = needs.moves or needs.positions
        self._verdict = check_record(self.record, self.default_game, collector if wanted else None)
        self._collector = collector

    @property
    def verdict(self) -> Verdict:
        """What the rules say of the record."""
        self.replay(Needs(verdict=True))
        assert self._verdict is not None
        return self._verdict

    def _collected(self) -> _Collector:
        self.replay(Needs(True, True, True))
        assert self._collector is not None
        return self._collector

    @property
    def main_moves(self) -> list[str]:
        """The canonical spellings of the main line's legal moves, in order (up to the
        first defect, for a broken record)."""
        return self._collected().main_moves

    @property
    def all_moves(self) -> set[str]:
        """The canonical spellings of every legal move of the record, variations too."""
        return self._collected().all_moves

    def positions(self, anywhere: bool) -> set[str]:
        """The position strings reached (in the main line, or ``anywhere``), the start
        included."""
        collected = self._collected()
        reached = collected.all_positions if anywhere else collected.main_positions
        start = self.start_string()
        return reached | {start} if start is not None else reached

    def start_string(self) -> str | None:
        """The position string of the start, or ``None`` for a record whose game or
        Position tag cannot be read."""
        if self._start is None:
            game = self.game()
            if game is None:
                return None
            try:
                self._start = self.record.start_position(game.name).position_string()
            except Exception:  # a bad Position or setup tag: the record has no start
                return None
        return self._start

    def game(self) -> Game[Any] | None:
        """The record's game, or ``None`` if it names none the toolkit knows."""
        game = resolve_game(self.record, self.default_game)
        return None if isinstance(game, Defect) else game


# -- criteria ---------------------------------------------------------------------------


class Criterion(ABC):
    """A question a record answers yes or no (see :class:`Selection`)."""

    #: What answering needs of the record's replay.
    needs = Needs()

    @abstractmethod
    def matches(self, facts: Facts) -> bool:
        """Whether the record answers yes."""


@dataclass(frozen=True, slots=True)
class TagEquals(Criterion):
    """The tag ``name`` has exactly ``value`` (a missing tag never does)."""

    name: str
    value: str

    def matches(self, facts: Facts) -> bool:
        return facts.record.tag(self.name) == self.value


@dataclass(frozen=True, slots=True)
class TagMatches(Criterion):
    """The tag ``name`` contains a match of the regular expression ``pattern``
    (``re.search``: anchor it with ``^...$`` for the whole value)."""

    name: str
    pattern: re.Pattern[str]

    def matches(self, facts: Facts) -> bool:
        value = facts.record.tag(self.name)
        return value is not None and self.pattern.search(value) is not None


@dataclass(frozen=True, slots=True)
class TagIn(Criterion):
    """The tag ``name`` lies between ``low`` and ``high`` (both included; either may be
    ``None`` for no bound).

    Values are compared as numbers when both sides read as numbers, and as dates
    (``2024.03.01``, ``2024-03-01``, ``2024.03.??``) otherwise: a date's unknown parts
    count as the start of the period for ``low`` and its end for ``high``, so that
    ``2024.03.??`` lies in ``2024.01.01..2024.12.31``.
    """

    name: str
    low: str | None
    high: str | None

    def matches(self, facts: Facts) -> bool:
        value = facts.record.tag(self.name)
        return value is not None and _in_range(value, self.low, self.high)


@dataclass(frozen=True, slots=True)
class ResultIs(Criterion):
    """The record's result token is one of ``results`` (``1-0``, ``0-1``, ``1/2-1/2``, ``*``)."""

    results: frozenset[str]

    def matches(self, facts: Facts) -> bool:
        return facts.record.result in self.results


@dataclass(frozen=True, slots=True)
class TurnsIn(Criterion):
    """The main line has between ``low`` and ``high`` turns (both included; ``None``: no
    bound).  A turn is one move token of the main line, as ``check`` counts them."""

    low: int | None
    high: int | None

    def matches(self, facts: Facts) -> bool:
        turns = len(facts.record.moves)
        return (self.low is None or turns >= self.low) and (self.high is None or turns <= self.high)


@dataclass(frozen=True, slots=True)
class NumberIn(Criterion):
    """The record's place in its source lies between ``low`` and ``high`` (1 is the
    first; both included; ``None``: no bound)."""

    low: int | None
    high: int | None

    def matches(self, facts: Facts) -> bool:
        n = facts.number
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)


@dataclass(frozen=True, slots=True)
class IsValid(Criterion):
    """The record checks: the rules find no defect."""

    needs = Needs(verdict=True)

    def matches(self, facts: Facts) -> bool:
        return facts.verdict.ok


@dataclass(frozen=True, slots=True)
class IsBroken(Criterion):
    """The record does not check; with ``kinds`` or ``codes``, its error is of one of
    those kinds (``syntax``, ``illegal``, ``result``) or has one of those codes."""

    kinds: frozenset[str] = frozenset()
    codes: frozenset[str] = frozenset()

    needs = Needs(verdict=True)

    def matches(self, facts: Facts) -> bool:
        error = facts.verdict.error
        if error is None:
            return False
        if not self.kinds and not self.codes:
            return True
        return str(error.kind) in self.kinds or error.code in self.codes


@dataclass(frozen=True, slots=True)
class ReachesPosition(Criterion):
    """The game passes through ``position`` (a position string) in its main line, or
    ``anywhere`` (variations too); the start counts.  Write it as ``show --position``
    prints it (or as a ``Position`` tag holds it).
    """

    position: str
    anywhere: bool = False

    needs = Needs(verdict=True, positions=True)

    def matches(self, facts: Facts) -> bool:
        return self.position in facts.positions(self.anywhere)


@dataclass(frozen=True, slots=True)
class HasMove(Criterion):
    """The main line (or, ``anywhere``, any line) contains the move ``text``, compared
    in canonical spelling: ``d2,b5`` also finds ``b5,d2`` where the game reads both as
    one move."""

    text: str
    anywhere: bool = False

    needs = Needs(verdict=True, moves=True)

    def matches(self, facts: Facts) -> bool:
        game = facts.game()
        if game is None:
            return False
        wanted = _canonical_token(game, self.text)
        if wanted is None:
            return False
        played = facts.all_moves if self.anywhere else set(facts.main_moves)
        return any(_same_move(game, wanted, text) for text in played)


def _canonical_token(game: Game[Any], text: str) -> Any | None:
    """``text`` parsed as a move of ``game``, or ``None`` if it is not one."""
    try:
        return game.parse(text)
    except Exception:  # a token the game cannot read matches nothing
        return None


def _same_move(game: Game[Any], wanted: Any, played: str) -> bool:
    """Whether the canonical spelling ``played`` is the move ``wanted``.

    Canonical spellings may add what the position knew (a capture mark): the move
    parsed from them is compared, and also their text without such marks.
    """
    parsed = _canonical_token(game, played)
    return parsed == wanted or played == str(wanted)


@dataclass(frozen=True, slots=True)
class Selection:
    """Criteria combined: a record is selected when it meets all of them (or, with
    ``any_of``, at least one); ``invert`` selects the others instead.  No criteria:
    every record meets "all of them"."""

    criteria: tuple[Criterion, ...] = ()
    any_of: bool = False
    invert: bool = False

    @property
    def needs(self) -> Needs:
        """What the criteria ask of a record's replay, together."""
        needs = Needs()
        for criterion in self.criteria:
            needs = needs | criterion.needs
        return needs

    def matches(self, facts: Facts) -> bool:
        """Whether the record is selected."""
        needs = self.needs
        if needs.verdict:
            facts.replay(needs)
        if not self.criteria:
            hit = not self.any_of
        elif self.any_of:
            hit = any(c.matches(facts) for c in self.criteria)
        else:
            hit = all(c.matches(facts) for c in self.criteria)
        return hit != self.invert


def select(
    records: Iterable[Record], selection: Selection, default_game: str | None = None
) -> Iterator[Record]:
    """The records that ``selection`` selects, in order (streamed).  A record's place
    (for :class:`NumberIn`) is its ``index`` as read, else its place in ``records``."""
    for place, record in enumerate(records, 1):
        if selection.matches(Facts(record, record.index or place, default_game)):
            yield record


# -- duplicates -----------------------------------------------------------------------------


def dedup_key(record: Record, default_game: str | None = None) -> tuple[str, ...]:
    """What makes two records the same game: the game, the start position and the main
    line's moves, each as the game reads it (so ``b5,d2`` and ``d2,b5`` are one move
    where the game says so).  Tags, comments, glyphs, variations and move numbers do
    not count.  Nothing is replayed.

    A record the game cannot read (unknown game, a setup tag refused, a defect, a token
    that is no move) is compared by its text as written (line ends aside), or, read
    without its text, by its tags, tokens and defect.
    """
    game = resolve_game(record, default_game)
    if isinstance(game, Defect) or record.error is not None:
        return _as_written(record)
    start = _start_string(game, record)
    if start is None:
        return _as_written(record)
    moves = []
    for node in record.moves:
        move = _canonical_token(game, node.text)
        if move is None:
            return _as_written(record)
        moves.append(str(move))
    return (game.name, start, *moves)


def _as_written(record: Record) -> tuple[str, ...]:
    """The key of a record the game cannot read: its text (no game's name is empty), but
    for its line ends and a byte-order mark before it (what ``cat`` of files leaves)."""
    if record.raw is not None:
        text = record.raw.removeprefix("\ufeff")
        return ("", text.replace("\r\n", "\n").replace("\r", "\n"))
    tags = (f"{tag.name}\0{tag.value}" for tag in record.tags)
    error = "" if record.error is None else str(record.error)
    return ("", "", *tags, "", *(node.text for node in record.moves), error)


#: Start positions by the game and the record's tags that set it up: most records of a
#: collection start alike.
_STARTS: dict[tuple[str, tuple[tuple[str, str], ...]], str | None] = {}
_STARTS_LIMIT = 1000


def _start_string(game: Game[Any], record: Record) -> str | None:
    """The position string of the record's start (None when the game refuses its
    setup tags)."""
    tags = record.tag_dict
    players = game.player_tags
    setup = tuple(
        item
        for item in sorted(tags.items())
        if item[0] not in _NOT_SETUP and item[0] not in players
    )
    key = (game.name, setup)
    if key in _STARTS:
        return _STARTS[key]
    found: str | None
    try:
        found = game.new_position(tags).position_string()
    except Exception:  # a Position or setup tag the game refuses
        found = None
    if len(_STARTS) < _STARTS_LIMIT:
        _STARTS[key] = found
    return found


#: Tags that never change a start, besides the players' (any other tag is taken to be
#: part of the setup, to be safe: at worst a start is computed again).
_NOT_SETUP = frozenset(
    ("Game", "Event", "Site", "Date", "Round", "Result", "Annotator", "Source", "Time", "Note")
)


class Seen:
    """The games seen so far (see :func:`dedup_key`): a 64-bit hash of each key in an
    open-addressing table, with (``places``) the place of its first record; 16 bytes a
    game at most.  Two games share a hash with a probability of about n^2 / 2^65.
    """

    def __init__(self, default_game: str | None = None, *, places: bool = True) -> None:
        self.default_game = default_game
        self._size = 1 << 10  # slots: a power of two, at most three quarters full
        self._hashes = array("q", [0]) * self._size  # 0: an empty slot
        self._places = array("I", [0]) * (self._size if places else 0)
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def first_of(self, record: Record, place: int) -> int | None:
        """The place of the first record of ``record``'s game (0 when places are not
        kept), or ``None`` if this is the first (it is remembered at ``place``)."""
        return self._first(hash(dedup_key(record, self.default_game)) or 1, place)

    def _first(self, key: int, place: int) -> int | None:
        mask = self._size - 1
        slot = key & mask
        hashes = self._hashes
        while True:
            found = hashes[slot]
            if found == 0:
                break
            if found == key:
                return int(self._places[slot]) if self._places else 0
            slot = (slot + 1) & mask  # linear probing: the next slot
        hashes[slot] = key
        if self._places:
            self._places[slot] = place & 0xFFFFFFFF
        self._count += 1
        if 4 * self._count > 3 * self._size:
            self._grow()
        return None

    def _grow(self) -> None:
        hashes, places = self._hashes, self._places
        self._size *= 2
        self._hashes = array("q", [0]) * self._size
        self._places = array("I", [0]) * (self._size if places else 0)
        self._count = 0
        for slot, key in enumerate(hashes):
            if key:
                self._first(key, places[slot] if places else 0)


def dedup(
    records: Iterable[Record],
    default_game: str | None = None,
    on_duplicate: Callable[[Record, int], None] | None = None,
) -> Iterator[Record]:
    """The records whose game (see :func:`dedup_key`) was not seen before, in order.
    ``on_duplicate(record, first)`` is called for each record dropped, with the place
    (``index``) of the first record of that game."""
    seen = Seen(default_game)
    for place, record in enumerate(records, 1):
        first = seen.first_of(record, record.index or place)
        if first is None:
            yield record
        elif on_duplicate is not None:
            on_duplicate(record, first)


# -- splitting ------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^\w.+-]+")


def split_key(record: Record, place: int, every: int | None, tag: str | None) -> str:
    """The part of an output file's name that ``record`` goes to: its group of ``every``
    records (``"1"``, ``"2"``...; ``place`` counts from 1), or the value of its ``tag``,
    made safe for a file name (``"unknown"`` when missing or empty)."""
    if (every is None) == (tag is None):
        raise MisuseError("split by a number of records or by a tag, one of the two")
    if every is not None:
        if every < 1:
            raise MisuseError(f"every must be at least 1, not {every}")
        return str((place - 1) // every + 1)
    assert tag is not None
    value = record.tag(tag) or ""
    safe = _UNSAFE.sub("_", value).strip("._")
    return safe[:80] or "unknown"


# -- ranges ---------------------------------------------------------------------------------

_DATE = re.compile(r"^(\d{4}|\?{4})(?:[.\-/](\d{2}|\?{2})(?:[.\-/](\d{2}|\?{2}))?)?$")


def parse_range(text: str) -> tuple[str | None, str | None]:
    """``"A..B"``, ``"A.."``, ``"..B"`` or ``"A"`` (just A) as its two bounds (``None``: no
    bound).  Raises ``ValueError`` for a text that is none of these."""
    if ".." not in text:
        if not text:
            raise ValueError("an empty range")
        return text, text
    low, _, high = text.partition("..")
    if ".." in high:
        raise ValueError(f"{text!r} is not a range (write LOW..HIGH)")
    if not low and not high:
        raise ValueError("a range needs at least one bound (LOW.., ..HIGH or LOW..HIGH)")
    return low or None, high or None


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _date(text: str, end: bool) -> str | None:
    """A date as ``YYYYMMDD``, its unknown parts the first (or, ``end``, the last) of the
    period; ``None`` for a text that is not a date."""
    m = _DATE.match(text.strip())
    if m is None:
        return None
    year, month, day = m.group(1), m.group(2) or "??", m.group(3) or "??"
    if "?" in year:
        return None
    month = month if "?" not in month else ("12" if end else "01")
    day = day if "?" not in day else ("31" if end else "01")
    return year + month + day


def _in_range(value: str, low: str | None, high: str | None) -> bool:
    v = _number(value)
    lo = None if low is None else _number(low)
    hi = None if high is None else _number(high)
    if v is not None and (low is None or lo is not None) and (high is None or hi is not None):
        return (lo is None or v >= lo) and (hi is None or v <= hi)
    first, last = _date(value, False), _date(value, True)
    if first is None or last is None:
        return False
    if low is not None:
        bound = _date(low, False)
        if bound is None or first < bound:
            return False
    if high is not None:
        bound = _date(high, True)
        if bound is None or last > bound:
            return False
    return True
