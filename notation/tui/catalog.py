"""The records of the files a viewer was given, found at once and read when needed.

A :class:`Catalog` holds the sources and one :class:`Entry` per record, found by
:func:`notation.collections.index.scan_chunks` without reading any.  A record is read when it is
opened or its row is shown, and checked in the background; its :class:`ListedRecord` is
kept, the record is not.  Worker threads scan and check while the screen reads:
entries are only appended, summaries only added, the chunk cache is locked.
"""

from __future__ import annotations

import io
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

from notation.collections.scanning import SourceSpan, is_json_source, read_chunk, scan_chunks
from notation.errors import Defect
from notation.record import Record
from notation.replay import check_record, resolve_game

__all__ = ["Catalog", "Entry", "ListedRecord", "RecordSource"]

#: Chunks kept read (a chunk is usually one record): enough for the rows on a screen.
CACHE_CHUNKS = 64
#: Tags that name players in every game (used when a record's game is unknown).
_PLAYER_TAG = re.compile(r"^(White|Red|Black|Player\d+)$")
#: A tag line as most are written, for a glance at a header without reading it.
_TAG_LINE = re.compile(rb'^\s*\[\s*[A-Za-z0-9_][^\s"]*\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


@dataclass(frozen=True, slots=True)
class RecordSource:
    """A file, or standard input held in memory (``data``)."""

    name: str
    path: Path | None = None
    data: bytes | None = None

    def open(self) -> IO[bytes]:
        """The source's bytes from the start (a file is opened anew each time)."""
        if self.data is not None:
            return io.BytesIO(self.data)
        assert self.path is not None
        return open(self.path, "rb")  # the caller closes it

    def read(self, chunk: SourceSpan) -> bytes:
        """The bytes of ``chunk``."""
        if self.data is not None:
            return self.data[chunk.start : chunk.end]
        assert self.path is not None
        with open(self.path, "rb") as handle:
            handle.seek(chunk.start)
            return handle.read(chunk.end - chunk.start)


@dataclass(frozen=True, slots=True)
class Entry:
    """One record of the catalog: where it is."""

    #: Index of its source, of its chunk in that source, and of the record in the chunk.
    source: int
    chunk: int
    offset: int
    #: Its number in its source (``--record N``), from 1.
    number: int


@dataclass(frozen=True, slots=True)
class ListedRecord:
    """What the record list shows of a record."""

    game: str
    event: str
    players: str
    result: str
    turns: int
    #: "valid", "broken", or "" while it is not checked yet.
    status: str = ""
    #: Why it is broken (the first defect, as ``notation check`` says it).
    problem: str = ""

    def text(self) -> str:
        """Everything a filter may match, in lower case."""
        return " ".join(
            (self.game, self.event, self.players, self.result, f"{self.turns}", self.status)
        ).lower()


class Catalog:
    """The records of a list of sources, numbered within each source."""

    def __init__(self, sources: list[RecordSource], default_game: str | None = None) -> None:
        self.sources = sources
        self.default_game = default_game
        self.entries: list[Entry] = []
        #: Whether every source has been scanned.
        self.scanned = False
        #: A problem met while scanning (a source that cannot be read), for the screen.
        self.problems: list[str] = []
        #: Sources with lines that are not UTF-8 (read as Windows-1252).
        self.not_utf8: set[str] = set()
        self._chunks: list[list[SourceSpan]] = [[] for _ in sources]
        #: Per source, per chunk: the number of its first record.
        self._first: list[list[int]] = [[] for _ in sources]
        self._summaries: dict[int, ListedRecord] = {}
        self._headers: dict[int, str] = {}
        self._cache: OrderedDict[tuple[int, int], list[Record]] = OrderedDict()
        self._lock = threading.Lock()
        self._scanning = self._scan_all()
        #: Goes up whenever something the screen shows changes (entries, summaries).
        self.version = 0

    # -- finding the records --------------------------------------------------------
    def scan(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Find every record of every source (a worker thread's job: fast, but a file of
        gigabytes takes seconds).  Entries appear as they are found."""
        for _ in self._scanning:
            if cancelled():
                return

    def scan_to(self, index: int) -> bool:
        """Find records until entry ``index`` is found; False if there is no such entry.

        The scan resumes where it stopped: :meth:`scan` goes on from there.
        """
        while len(self.entries) <= index:
            if next(self._scanning, False) is False:
                return False
        return True

    def _scan_all(self) -> Iterator[bool]:
        for index, source in enumerate(self.sources):
            try:
                yield from self._scan_source(index, source)
            except OSError as exc:
                self.problems.append(f"{source.name}: {exc.strerror or exc}")
        self.scanned = True
        self.version += 1

    def _scan_source(self, index: int, source: RecordSource) -> Iterator[bool]:
        with source.open() as stream:
            json = is_json_source(stream)
            stream.seek(0)
            number = 1
            for chunk in scan_chunks(stream, json=json):
                chunks = self._chunks[index]
                chunks.append(chunk)
                self._first[index].append(number)
                count = chunk.count
                if count is None:  # only reading it tells how many records it holds
                    count = len(self._read(index, len(chunks) - 1))
                for offset in range(count):
                    self.entries.append(Entry(index, len(chunks) - 1, offset, number))
                    number += 1
                self.version += 1
                yield True

    # -- reading them -----------------------------------------------------------------
    def _read(self, source: int, chunk: int) -> list[Record]:
        key = (source, chunk)
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        origin = self.sources[source]
        piece = self._chunks[source][chunk]
        records = read_chunk(
            origin.read(piece), piece, origin.name, self._first[source][chunk],
            not_utf8=lambda: self.not_utf8.add(origin.name),
        )
        with self._lock:
            self._cache[key] = records
            while len(self._cache) > CACHE_CHUNKS:
                self._cache.popitem(last=False)
        return records

    def record(self, index: int) -> Record:
        """Entry ``index``'s record, read now (a fresh copy when its chunk is read again;
        the same object while it stays in the cache)."""
        entry = self.entries[index]
        return self._read(entry.source, entry.chunk)[entry.offset]

    def label(self, index: int) -> str:
        """How the screen names entry ``index``: its number, and its file if there are
        several."""
        entry = self.entries[index]
        if len(self.sources) == 1:
            return f"record {entry.number}"
        return f"{Path(self.sources[entry.source].name).name} record {entry.number}"

    def source_name(self, index: int) -> str:
        """The name of the source of entry ``index``."""
        return self.sources[self.entries[index].source].name

    def find(self, source: int, number: int) -> int | None:
        """The entry of record ``number`` of ``source``, if the scan has found it."""
        for index, entry in enumerate(self.entries):
            if entry.source == source and entry.number == number:
                return index
        return None

    # -- what the list shows ----------------------------------------------------------
    def known(self, index: int) -> ListedRecord | None:
        """The summary of entry ``index`` if it was made, without reading anything."""
        return self._summaries.get(index)

    def summary(self, index: int) -> ListedRecord:
        """The summary of entry ``index``: read now if needed, checked if it was."""
        if index not in self._summaries:
            self._summaries.setdefault(index, self._summarise(self.record(index)))
            self.version += 1
        return self._summaries[index]

    def check(self, index: int) -> ListedRecord:
        """The summary of entry ``index`` with the rules' verdict (read and replayed now)."""
        found = self._summaries.get(index)
        if found is not None and found.status:
            return found
        record = self.record(index)
        base = found or self._summarise(record)
        verdict = check_record(record, self.default_game)
        error = verdict.error
        if error is not None:
            error = error.located(file=record.source, record=record.index)
        checked = replace(
            base,
            status="valid" if verdict.ok else "broken",
            problem="" if error is None else str(error),
        )
        self._summaries[index] = checked
        self.version += 1
        return checked

    def checked_count(self) -> tuple[int, int]:
        """How many entries are checked, and how many of those are broken."""
        statuses = [s.status for s in list(self._summaries.values())]
        return sum(1 for s in statuses if s), statuses.count("broken")

    def header_text(self, index: int) -> str:
        """The values of a record's tags, lower case, from a glance at its lines (no
        reading): what a filter matches before the record's summary is made."""
        found = self._summaries.get(index)
        if found is not None:
            return found.text()
        cached = self._headers.get(index)
        if cached is not None:
            return cached
        entry = self.entries[index]
        chunk = self._chunks[entry.source][entry.chunk]
        if chunk.count != 1 or chunk.json:
            text = self.summary(index).text()
        else:
            values = []
            data = self.sources[entry.source].read(
                replace(chunk, end=min(chunk.end, chunk.start + 4096))
            )
            for line in data.splitlines():
                match = _TAG_LINE.match(line)
                if match is None:
                    if line.strip():
                        break
                    continue
                values.append(match.group(1).decode("utf-8", "replace"))
            text = " ".join(values).lower()
        self._headers[index] = text
        return text

    def _summarise(self, record: Record) -> ListedRecord:
        game = resolve_game(record, self.default_game)
        tags = record.tag_dict
        if isinstance(game, Defect):
            title = tags.get("Game", "?")
            names = [name for name in tags if _PLAYER_TAG.match(name)]
        else:
            title = game.title
            names = [name for name in game.player_tags if tags.get(name)]
        players = " - ".join(tags[name] for name in names if tags.get(name)) or "?"
        status = "broken" if record.error is not None else ""
        problem = "" if record.error is None else str(
            record.error.located(file=record.source, record=record.index)
        )
        result = record.result or tags.get("Result") or "none"
        return ListedRecord(title, tags.get("Event", ""), players, result, len(record.moves),
                       status, problem)
