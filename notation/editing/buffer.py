"""A file of records held in memory while an editor changes it: the language server's
view of an open document, with no protocol in it.

:class:`RecordDocument` keeps the text as a list of lines and cuts it into *chunks*:
runs of lines that begin where the reader begins a record (the one detector,
:class:`~notation.reader.SureStarts`), so that each chunk reads, alone, as it reads
within the whole text (one record a chunk, nearly always).  Each chunk is checked as
``notation check --all`` checks (:func:`notation.checking.every_defect.check_replay`), and, in a
second pass that costs more, as ``--all --strict`` does, for the strict-form hints;
both are kept by the chunk's text,
so that a chunk whose text did not change is never checked again: after an edit in one
record of a file of thousands, one record is read and checked.

An edit (:meth:`RecordDocument.edit`) cuts again only from the chunk it starts in to the
first start past it that the cut before the edit had too; the chunks after it keep
their checks, their lines moved.  A check whose messages name a line of the file
("opened at line 3") is made again where its chunk moved; any other moves with it.

Positions here are the editor's: lines and characters from 0, characters counted in
code points (a tab is one, so is any character).  The defects handed out are the
library's (:class:`~notation.errors.Defect`): lines and columns from 1.

Typical use: :meth:`~RecordDocument.edit`, then :meth:`~RecordDocument.check_chunk` on
each of :meth:`~RecordDocument.unchecked` (one at a time, so that a server can answer
other requests in between; :meth:`~RecordDocument.check_all` does them all), then
:meth:`~RecordDocument.findings`.
"""

from __future__ import annotations

import bisect
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from notation.checking.every_defect import EveryDefect, check_replay
from notation.collections.cutting import sure_starts
from notation.errors import (
    Defect,
    misuse,
    misuse_unless,
    require_flag,
    require_number,
    require_sequence,
    require_text,
)
from notation.formats.convert import convert_lines
from notation.reader import SureStarts, read_records, visit_records
from notation.record import Record
from notation.replay import Judge, Replay, Verdict
from notation.writer import record_separator

__all__ = [
    "Chunk",
    "ChunkCheck",
    "Finding",
    "RecordDocument",
    "RecordSummary",
    "Replacement",
    "check_text",
    "check_text_strict",
    "chunk_starts",
    "split_lines",
]

#: Checks kept by text, per document, besides those of its chunks: enough to undo a
#: long run of edits for free, and a bound all the same.
CACHE_LIMIT = 4096

#: A message naming a line of the file: its check holds only where it was made.
_NAMES_A_LINE = re.compile(r"\bline \d")

#: The code of every strict-form issue starts so (notation.errors.CODES).
STRICT_PREFIX = "strict-"

def split_lines(text: str) -> list[str]:
    """``text`` as the editor's lines, without their ends: a line ends at ``\\r\\n``,
    ``\\r`` or ``\\n`` (what the Language Server Protocol and the reader agree on; not
    ``str.splitlines``, which also cuts at form feeds and other separators).  The text
    after the last line end is a line too, empty or not: ``"a\\n"`` is ``["a", ""]``."""
    require_text(text, "text")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _holds(starts: list[int], line: int) -> bool:
    """Whether ``line`` is one of ``starts`` (in order)."""
    at = bisect.bisect_left(starts, line)
    return at < len(starts) and starts[at] == line


def chunk_starts(lines: Sequence[str]) -> list[int]:
    """The indices of ``lines`` at which a chunk begins: 0, then each line where the
    reader begins a record (:class:`notation.reader.SureStarts`, reading from the
    text's start)."""
    require_sequence(lines, "lines", "str")
    if not isinstance(lines, (list, tuple)):
        lines = list(lines)  # read twice: checked, then cut
    for line in lines:
        if type(line) is not str:
            misuse("a line", "a str", line)
    found = sure_starts(lines, SureStarts(from_start=True))
    return [0, *(index for index, _ in found if index)]


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """One record of a chunk as its check saw it: its lines (from 1, as the check was
    made), tags, game, result and whether it checks."""

    first_line: int
    last_line: int
    tags: tuple[tuple[str, str], ...]
    game: str | None
    result: str | None
    turns: int
    ok: bool

    def moved(self, lines: int) -> RecordSummary:
        """The same record, ``lines`` further down."""
        if not lines:
            return self
        return replace(self, first_line=self.first_line + lines, last_line=self.last_line + lines)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, or None."""
        for tag, value in self.tags:
            if tag == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class ChunkCheck:
    """What a check of a chunk's text found, made with its first line at ``at`` (from 0):
    its records and their defects (every one of ``check --all``, or the strict-form
    issues alone for a strict check)."""

    at: int
    records: tuple[RecordSummary, ...]
    defects: tuple[Defect, ...]
    #: Some message names a line of the file: the check holds only at ``at``.
    bound: bool = False

    def holds_at(self, start: int) -> bool:
        """Whether the check is right for the chunk starting at line ``start``."""
        return not self.bound or start == self.at

    def defects_at(self, start: int) -> list[Defect]:
        """The defects, for the chunk starting at line ``start``."""
        shift = start - self.at
        if not shift:
            return list(self.defects)
        return [defect.shifted(shift) for defect in self.defects]


@dataclass(eq=False, slots=True)
class Chunk:
    """A run of whole records: its first line (from 0), its number of lines, its text
    (each line ending in ``\\n``), and what is known of it."""

    start: int
    count: int
    text: str
    check: ChunkCheck | None = None
    strict: ChunkCheck | None = None
    #: The record trees, read with the chunk at ``trees[0]``.
    trees: tuple[int, list[Record]] | None = None

    @property
    def end(self) -> int:
        """The line after the chunk's last."""
        return self.start + self.count

    @property
    def lines(self) -> list[str]:
        """The chunk's lines, each ending in ``\\n`` (as the reader takes them)."""
        # Not str.splitlines: a line may hold a form feed or another separator.
        parts = self.text.split("\n")
        return [f"{part}\n" for part in parts[:-1]]


@dataclass(frozen=True, slots=True)
class Finding:
    """A defect of the document, placed in it, and whether it is a strict-form issue (a
    hint) rather than an error."""

    defect: Defect
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Replacement:
    """Lines ``start`` to ``end`` (from 0, ``end`` excluded: the text from the start of
    line ``start`` to the start of line ``end``, or to the end of the text when ``end`` is
    past its last line) replaced by ``text``."""

    start: int
    end: int
    text: str


@dataclass(slots=True)
class _Checks:
    """Checks by chunk text, the least recently used dropped first."""

    limit: int = CACHE_LIMIT
    items: OrderedDict[str, ChunkCheck] = field(default_factory=OrderedDict)

    def get(self, text: str) -> ChunkCheck | None:
        found = self.items.get(text)
        if found is not None:
            self.items.move_to_end(text)
        return found

    def put(self, text: str, check: ChunkCheck) -> None:
        self.items[text] = check
        self.items.move_to_end(text)
        while len(self.items) > self.limit:
            self.items.popitem(last=False)

    def made(
        self,
        chunk: Chunk,
        check: Callable[[list[str], int, str | None], ChunkCheck],
        default_game: str | None,
    ) -> ChunkCheck:
        """The check of ``chunk`` kept for its text if it holds where the chunk stands,
        else made now by ``check`` (:func:`check_text` or :func:`check_text_strict`) and
        kept."""
        found = self.get(chunk.text)
        if found is None or not found.holds_at(chunk.start):
            found = check(chunk.lines, chunk.start + 1, default_game)
            self.put(chunk.text, found)
        return found


class _Summaries(Judge):
    """Under ``check --all``'s replay (the last judge), each record's lines, tags and
    verdict noted on the way."""

    def __init__(self) -> None:
        self.seen: list[RecordSummary] = []
        self.tags: list[tuple[str, str]] = []

    def begin_record(self, record: Record) -> None:
        self.tags = []

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        self.tags.append((name, value))

    def judged(self, record: Record, verdict: Verdict) -> Verdict:
        self.seen.append(_summary(record, verdict, tuple(self.tags)))
        return verdict


def _summary(
    record: Record, verdict: Verdict, tags: tuple[tuple[str, str], ...]
) -> RecordSummary:
    return RecordSummary(
        record.first_line,
        record.last_line,
        tags,
        verdict.game,
        record.result,
        verdict.turns,
        verdict.ok,
    )


def _errors(verdict: Verdict) -> tuple[Defect, ...]:
    if verdict.errors:
        return verdict.errors
    return (verdict.error,) if verdict.error is not None else ()


def check_text(lines: list[str], first_line: int, default_game: str | None) -> ChunkCheck:
    """The ``check --all`` of the records of ``lines`` (each ending in ``\\n``), the first
    being line ``first_line`` (from 1) of its file."""
    _require_check_arguments(lines, first_line, default_game)
    summaries = _Summaries()
    replay = Replay(default_game, judges=[EveryDefect(default_game), summaries])
    defects: list[Defect] = []
    for verdict in visit_records(lines, replay, keep_raw=True, first_line=first_line):
        defects.extend(_errors(verdict))
    return ChunkCheck(first_line - 1, tuple(summaries.seen), tuple(defects), _bound(defects))


def check_text_strict(lines: list[str], first_line: int, default_game: str | None) -> ChunkCheck:
    """The strict-form issues (``check --all --strict``, its ``strict-`` codes alone) of
    the records of ``lines``, as :func:`check_text` takes them."""
    _require_check_arguments(lines, first_line, default_game)
    defects: list[Defect] = []
    replay = check_replay(default_game, strict=True, every=True)
    for verdict in visit_records(lines, replay, keep_raw=True, first_line=first_line):
        defects.extend(d for d in _errors(verdict) if d.code.startswith(STRICT_PREFIX))
    return ChunkCheck(first_line - 1, (), tuple(defects), _bound(defects))


def _require_check_arguments(lines: object, first_line: object, default_game: object) -> None:
    ok = isinstance(lines, list | tuple) and all(type(line) is str for line in lines)
    misuse_unless(ok, "lines", "a list of str", lines)
    require_number(first_line, "first_line")
    _require_game_name(default_game)


def _require_game_name(default_game: object) -> None:
    misuse_unless(default_game is None or isinstance(default_game, str), "default_game",
                  "a game's name (str) or None", default_game)


def _require_position(position: object, what: str) -> tuple[int, int]:
    """``position`` if it is a (line, character) pair of whole numbers, else
    ``MisuseError`` naming ``what``."""
    ok = isinstance(position, tuple | list) and len(position) == 2 and all(
        type(n) is int for n in position
    )
    misuse_unless(ok, what, "a (line, character) pair of whole numbers", position)
    return position  # type: ignore[return-value]  # checked above


def _require_chunk(chunk: object) -> None:
    misuse_unless(isinstance(chunk, Chunk), "chunk", "a Chunk of the document", chunk)


def _bound(defects: list[Defect]) -> bool:
    return any(_NAMES_A_LINE.search(defect.message) for defect in defects)


class RecordDocument:
    """An open file of records: its lines, its chunks, and their checks (see the module).

    ``default_game`` is the game of records without a ``Game`` tag (``--game``); setting
    it again forgets every check.  An argument of the wrong type (a line that is not an
    int, a position that is not a ``(line, character)`` pair) raises ``MisuseError``.

    A file of two records is two chunks; checked, the second has an error (a square off
    the board) and a strict-form hint (a square in capitals), placed in the file:

    >>> text = '[Game "cave"]\\n\\n1. b1 b5 *\\n\\n[Game "cave"]\\n\\n1. B1 b5 2. b1-b0 *\\n'
    >>> document = RecordDocument(text)
    >>> [chunk.start for chunk in document.chunks]
    [0, 4]
    >>> document.check_all()
    >>> [(found.strict, found.defect.line, found.defect.code) for found in document.findings()]
    [(True, 7, 'strict-letter-case'), (False, 7, 'cave-not-a-square')]

    An edit (lines and characters from 0) leaves the first record's check as it was;
    only the chunk it changed is checked again:

    >>> document.edit((6, 12), (6, 17), "b1-b2")
    >>> [chunk.start for chunk in document.unchecked()]
    [4]
    >>> document.check_all()
    >>> [(found.strict, found.defect.code) for found in document.findings()]
    [(True, 'strict-letter-case')]
    >>> document.canonical()
    [Replacement(start=4, end=8, text='[Game "cave"]\\n\\n1. b1 b5 2. b1-b2 *\\n')]
    """

    def __init__(self, text: str = "", *, default_game: str | None = None) -> None:
        _require_game_name(default_game)
        self._default_game = default_game
        self._checks = _Checks()
        self._stricts = _Checks()
        self.lines: list[str] = []
        self.chunks: list[Chunk] = []
        self.starts: list[int] = []
        self.set_text(text)

    # -- the text ----------------------------------------------------------------------
    @property
    def default_game(self) -> str | None:
        """The game of records without a ``Game`` tag."""
        return self._default_game

    @default_game.setter
    def default_game(self, name: str | None) -> None:
        _require_game_name(name)
        if name == self._default_game:
            return
        self._default_game = name
        self._checks = _Checks()
        self._stricts = _Checks()
        for chunk in self.chunks:
            chunk.check = chunk.strict = chunk.trees = None

    @property
    def text(self) -> str:
        """The whole text, lines joined with ``\\n``."""
        return "\n".join(self.lines)

    def set_text(self, text: str) -> None:
        """Replace the whole text (checks of unchanged chunks are kept)."""
        self.lines = split_lines(text)
        self.starts = chunk_starts(self.lines)
        self.chunks = [self._chunk(start, end) for start, end in self._spans(0, None)]

    def edit(self, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Replace the text from ``start`` to ``end`` (each a line and a character from 0,
        the character in code points) with ``text``; positions past a line's end or the
        last line stand for that end.  ``end`` before ``start`` is taken as ``start``."""
        start, end = _require_position(start, "start"), _require_position(end, "end")
        require_text(text, "text")
        lines = self.lines
        last = len(lines) - 1
        first_line = min(max(start[0], 0), last)
        end_line = min(max(end[0], 0), last)
        first_char = max(start[1], 0) if start[0] <= last else len(lines[first_line])
        end_char = max(end[1], 0) if end[0] <= last else len(lines[end_line])
        if (end_line, end_char) < (first_line, first_char):
            end_line, end_char = first_line, first_char
        head = lines[first_line][:first_char]
        tail = lines[end_line][end_char:]
        new = split_lines(head + text + tail)
        lines[first_line : end_line + 1] = new
        self._recut(first_line, end_line, len(new))

    # -- chunks ------------------------------------------------------------------------
    def _spans(self, begin: int, stop: int | None) -> Iterator[tuple[int, int]]:
        """(start, end) of the chunks from index ``begin`` of :attr:`starts` to ``stop``."""
        starts = self.starts
        stop = len(starts) if stop is None else stop
        for index in range(begin, stop):
            end = starts[index + 1] if index + 1 < len(starts) else len(self.lines)
            yield starts[index], end

    def _chunk(self, start: int, end: int) -> Chunk:
        text = "".join(f"{line}\n" for line in self.lines[start:end])
        chunk = Chunk(start, end - start, text)
        chunk.check = self._checks.get(text)
        chunk.strict = self._stricts.get(text)
        return chunk

    def _recut(self, first: int, last: int, count: int) -> None:
        """Cut again after lines ``first`` to ``last`` (old numbers) became ``count``
        lines: from the chunk before the edit (the one it starts in, unless the edit
        starts at that chunk's first line) to the first start past the new lines that
        the old cut had too (from a record's start on, the cut depends on the lines
        alone); the chunks after it are moved."""
        shift = count - (last - first + 1)
        old_starts, old_chunks = self.starts, self.chunks
        index = bisect.bisect_right(old_starts, first) - 1
        if index > 0 and old_starts[index] == first:  # its first line changes
            index -= 1
        resume = old_starts[index]
        lines = self.lines
        floor = first + count  # the first line after the new ones
        starts = old_starts[: index + 1]
        feeder = SureStarts(from_start=True, begun=index > 0)
        synced = len(lines)
        for number in range(resume, len(lines)):
            if feeder.feed(lines[number]) and number != resume:
                if number >= floor and _holds(old_starts, number - shift):
                    synced = number
                    break
                starts.append(number)
        # The old chunks from the start the cut synced at, moved.
        keep_from = bisect.bisect_left(old_starts, synced - shift)
        kept = old_chunks[keep_from:] if synced < len(lines) else []
        starts.extend(chunk.start + shift for chunk in kept)
        self.starts = starts
        rebuilt = [self._chunk(s, e) for s, e in self._spans(index, len(starts) - len(kept))]
        for chunk in kept:
            chunk.start += shift
        self.chunks = old_chunks[:index] + rebuilt + kept

    def chunk_at(self, line: int) -> Chunk:
        """The chunk holding ``line`` (from 0; clamped to the text)."""
        require_number(line, "line")
        line = min(max(line, 0), len(self.lines) - 1)
        return self.chunks[bisect.bisect_right(self.starts, line) - 1]

    # -- checking ----------------------------------------------------------------------
    def needs_check(self, chunk: Chunk) -> bool:
        """Whether ``chunk`` has no ``check --all`` that holds where it stands."""
        _require_chunk(chunk)
        return chunk.check is None or not chunk.check.holds_at(chunk.start)

    def needs_strict(self, chunk: Chunk) -> bool:
        """Whether ``chunk`` has no strict check that holds where it stands."""
        _require_chunk(chunk)
        return chunk.strict is None or not chunk.strict.holds_at(chunk.start)

    def check_chunk(self, chunk: Chunk) -> ChunkCheck:
        """The ``check --all`` of ``chunk``, made now if need be."""
        if self.needs_check(chunk):
            chunk.check = self._checks.made(chunk, check_text, self._default_game)
        assert chunk.check is not None
        return chunk.check

    def check_strict(self, chunk: Chunk) -> ChunkCheck:
        """The strict check of ``chunk``, made now if need be."""
        if self.needs_strict(chunk):
            chunk.strict = self._stricts.made(chunk, check_text_strict, self._default_game)
        assert chunk.strict is not None
        return chunk.strict

    def unchecked(self) -> list[Chunk]:
        """The chunks that need a ``check --all``."""
        return [chunk for chunk in self.chunks if self.needs_check(chunk)]

    def unchecked_strict(self) -> list[Chunk]:
        """The chunks that need a strict check."""
        return [chunk for chunk in self.chunks if self.needs_strict(chunk)]

    def check_all(self, *, strict: bool = True) -> None:
        """Check every chunk that needs it (and, with ``strict``, its strict form)."""
        require_flag(strict, "strict")
        for chunk in self.unchecked():
            self.check_chunk(chunk)
        if strict:
            for chunk in self.unchecked_strict():
                self.check_strict(chunk)

    # -- what was found ----------------------------------------------------------------
    def findings(self) -> list[Finding]:
        """Every defect found so far, in file order: the errors of ``check --all``, then,
        where a strict check was made, the strict-form issues (hints)."""
        found: list[Finding] = []
        for chunk in self.chunks:
            check = chunk.check
            if check is not None and check.holds_at(chunk.start):
                found.extend(Finding(defect) for defect in check.defects_at(chunk.start))
            strict = chunk.strict
            if strict is not None and strict.holds_at(chunk.start):
                found.extend(Finding(defect, True) for defect in strict.defects_at(chunk.start))
        found.sort(key=lambda f: (f.defect.line, f.defect.column, f.strict))
        return found

    def records(self) -> list[RecordSummary]:
        """Every record of the document, in order, with its lines in the document (each
        chunk checked first if need be)."""
        out: list[RecordSummary] = []
        for chunk in self.chunks:
            check = self.check_chunk(chunk)
            shift = chunk.start - check.at
            out.extend(record.moved(shift) for record in check.records)
        return out

    def trees(self, chunk: Chunk) -> list[Record]:
        """The record trees of ``chunk`` (read now if need be), with the document's line
        numbers; each keeps its text (``Record.raw``)."""
        _require_chunk(chunk)
        kept = chunk.trees
        if kept is None or kept[0] != chunk.start:
            records = list(read_records(chunk.lines, keep_raw=True, first_line=chunk.start + 1))
            kept = chunk.trees = (chunk.start, records)
        return kept[1]

    def record_at(self, line: int) -> Record | None:
        """The tree of the record that ``line`` (from 0) belongs to: the one whose first
        to last line holds it, else the one before it in its chunk (``line`` is after its
        last token, in the blank lines before the next), else None."""
        chunk = self.chunk_at(line)
        number = line + 1
        before: Record | None = None
        for record in self.trees(chunk):
            if record.first_line <= number <= record.last_line:
                return record
            if record.last_line < number:
                before = record
        return before

    # -- the canonical form ------------------------------------------------------------
    def canonical(self) -> list[Replacement]:
        """What turns the text into ``notation convert --to text``'s output for it: a
        replacement per chunk whose text differs.  A record that does not check is passed
        on as it is written (so it changes only in the blank lines around it)."""
        chunks = self.chunks
        game = self._default_game
        texts = [
            [done.text for done in convert_lines(chunk.lines, to="text", default_game=game)]
            for chunk in chunks
        ]
        # Each chunk's records, and the separator after its last one if a record follows.
        later = [False] * len(chunks)
        seen = False
        for index in range(len(chunks) - 1, -1, -1):
            later[index] = seen
            seen = seen or bool(texts[index])
        out: list[Replacement] = []
        for index, chunk in enumerate(chunks):
            records = texts[index]
            new = "".join(
                text + (record_separator(text) if n + 1 < len(records) or later[index] else "")
                for n, text in enumerate(records)
            )
            last = index == len(chunks) - 1
            old = "\n".join(self.lines[chunk.start : chunk.end]) + ("" if last else "\n")
            if new != old:
                out.append(Replacement(chunk.start, chunk.end, new))
        return out
