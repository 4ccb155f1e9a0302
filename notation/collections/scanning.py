"""A source of records cut into chunks at a glance: byte offsets, not records.

:func:`scan_chunks` goes through the bytes of a source once, reading no record, and
cuts it into chunks (:class:`SourceSpan`): runs of lines that begin where the reader
surely begins a record (:func:`notation.collections.cutting.sure_starts`), with their
byte offsets and first line numbers.  :func:`read_chunk` reads the records of one chunk, numbered
and located as a reading of the whole source would.  A chunk whose lines surely make
one record (tag lines, then movetext with no ``[`` line and no result before the
last) has ``count`` 1; any other has ``count`` None: only reading it tells.  In JSON
Lines each non-blank line is a record.  :mod:`notation.collections.index` finds and
indexes records on top of it.

Two records, two chunks (start and end offsets, first line, records in it); the
second read alone is record 2, at line 5, as in the whole file:

>>> import io
>>> from notation.collections.scanning import read_chunk, scan_chunks
>>> data = b'[Game "Cave"]\\n\\n1. b1 b5 *\\n\\n[Game "Cave"]\\n\\n1. c1 *\\n'
>>> spans = list(scan_chunks(io.BytesIO(data)))
>>> [(s.start, s.end, s.first_line, s.count) for s in spans]
[(0, 27, 1, 1), (27, 50, 5, 1)]
>>> second = spans[1]
>>> (record,) = read_chunk(data[second.start:second.end], second, "games.ugn", 2)
>>> record.index, record.first_line, record.moves[0].text
(2, 5, 'c1')
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TypeAlias, cast

from notation.collections.cutting import Cut, sure_starts
from notation.files.textfile import decode_line
from notation.formats.convert import looks_like_json_records, read_json_records
from notation.reader import SureStarts, visit_records
from notation.record import Record
from notation.visitor import SKIP, Skip, TreeBuilder

__all__ = [
    "Run",
    "SourceSpan",
    "chunks_of",
    "crc_of",
    "is_json_source",
    "read_chunk",
    "read_lines",
    "run_lines",
    "scan_chunks",
]

_RESULT = re.compile(r"(?:1-0|0-1|1/2-1/2|\*)(?![^\s(){};])")
_SEPARATORS = frozenset("(){};")


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A run of a source's bytes that begins where a record surely begins."""

    #: Byte offsets: the chunk is ``data[start:end]``.
    start: int
    end: int
    #: The number of its first line in the source (1-based).
    first_line: int
    #: How many records it holds, when its lines tell for sure (1); None: read it.
    count: int | None
    #: JSON Lines: the chunk is one line, one record object.
    json: bool = False


class _Glance:
    """Whether the lines of a chunk surely make one record (see the module's docstring):
    the :class:`~notation.collections.cutting.ChunkWatch` of :func:`scan_chunks`."""

    __slots__ = ("body", "closed", "gap", "single")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """As made: for the next chunk."""
        self.single = True
        self.body = False  # a line that is not a tag line was seen
        self.gap = False  # a blank line was seen
        self.closed = False  # a result token was seen

    def line(self, text: str, stripped: str) -> None:
        if stripped[0] == "[":
            # A tag line after a blank line or after moves may begin a record.
            if self.body or self.gap:
                self.single = False
            return
        if self.closed:
            self.single = False  # anything after the result: perhaps the next record
            return
        self.body = True
        if "*" not in text and "-0" not in text and "-1" not in text:
            return  # no result token here (each holds one of these): the usual line
        results = [
            found for found in _RESULT.finditer(text)
            if not found.start()
            or text[found.start() - 1].isspace()
            or text[found.start() - 1] in _SEPARATORS
        ]
        if len(results) > 1 or (results and text[results[0].end() :].strip()):
            self.single = False
        elif results:
            self.closed = True


def is_json_source(stream: Iterable[bytes]) -> bool:
    """Whether the source is JSON Lines of records, by its first non-blank line (read
    from where the stream stands)."""
    for raw in stream:
        if raw.isspace():
            continue  # the usual blank line, told without decoding it
        text = decode_line(raw)[0].removeprefix("\ufeff")
        if text.strip():
            return looks_like_json_records(text)
    return False


def scan_chunks(stream: IO[bytes], *, json: bool = False) -> Iterator[SourceSpan]:
    """The chunks of a binary stream read from its start, in order, as it is read, cut
    where :func:`~notation.collections.cutting.sure_starts` cuts.  Cutting stops at a lone carriage
    return (line numbers would differ from a count of line feeds): the rest of the
    source is then one chunk.
    """
    if json:
        yield from _json_chunks(stream)
        return
    glance = _Glance()
    cut = Cut()
    start, first_line = 0, 1
    for index, here in sure_starts(stream, SureStarts(), glance, cut):
        yield SourceSpan(start, here, first_line, 1 if glance.single else None)
        glance.reset()
        start, first_line = here, index + 1
    if cut.short:
        yield SourceSpan(start, stream.seek(0, io.SEEK_END), first_line, None)
    elif cut.size > start or start == 0:
        yield SourceSpan(start, cut.size, first_line, 1 if glance.single and start else None)


def _json_chunks(stream: IO[bytes]) -> Iterator[SourceSpan]:
    position = 0
    for number, raw in enumerate(stream, 1):
        if decode_line(raw)[0].strip() and raw.strip() != b"\xef\xbb\xbf":
            yield SourceSpan(position, position + len(raw), number, 1, json=True)
        position += len(raw)


def read_chunk(
    data: bytes,
    chunk: SourceSpan,
    source: str | None,
    first_index: int,
    not_utf8: Callable[[], None] | None = None,
) -> list[Record]:
    """The records of ``chunk`` (``data`` is its bytes), numbered from ``first_index``, as
    reading the whole source gives them.  ``not_utf8`` is called if a line of the chunk
    is not UTF-8 (it is then read as Windows-1252, as :mod:`notation.files.textfile` does).
    """
    return read_lines(_split_lines(data), chunk, source, first_index, not_utf8)


def _split_lines(data: bytes) -> Iterator[bytes]:
    """``data.splitlines(keepends=True)``, one line at a time (never all held)."""
    for found in _LINE.finditer(data):
        if found.end() > found.start():
            yield found.group()


#: A line as ``bytes.splitlines`` cuts it: up to a line feed, a carriage return and
#: line feed, a lone carriage return, or the end of the data.
_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n|\Z)")


class _TagsOnly(TreeBuilder):
    """The tree builder that answers :data:`~notation.visitor.SKIP`: a record's tags,
    its place and its result, its moves skipped (the index's reading of headers)."""

    __slots__ = ()

    def end_tags(self, record: Record) -> Skip | None:
        return SKIP


def read_lines(
    lines: Iterable[bytes],
    chunk: SourceSpan,
    source: str | None,
    first_index: int,
    not_utf8: Callable[[], None] | None,
    *,
    tags_only: bool = False,
) -> list[Record]:
    """:func:`read_chunk` of the chunk's lines of bytes, read as they come (with
    ``tags_only``, the records without their moves)."""
    fell_back = False

    def decoded() -> Iterator[str]:
        nonlocal fell_back
        for raw in lines:
            text, fallback = decode_line(raw)
            fell_back = fell_back or fallback
            yield text

    if chunk.json:
        records = [
            _json_record(line, chunk.first_line, first_index, source)
            for line in itertools.islice(decoded(), 1)
        ]
    else:
        builder = _TagsOnly() if tags_only else TreeBuilder()
        records = list(visit_records(decoded(), builder, source, first_line=chunk.first_line))
        for offset, record in enumerate(records):
            record.index = first_index + offset
    if fell_back and not_utf8 is not None:
        not_utf8()
    return records


def _json_record(line: str, number: int, index: int, source: str | None) -> Record:
    """The record of JSON line ``number``, as :func:`read_json_records` reads it in place."""
    text = line.removeprefix("\ufeff")
    (record,) = read_json_records([text], source)
    record.index = index
    if record.raw is not None and record.raw != text:
        # A record kept as its raw text: its lines are those of that text.
        record.source = f"{source or '<input>'} (raw text of JSON line {number})"
        return record
    record.first_line = record.last_line = number
    if record.error is not None:  # a line that is not a record object
        record.error = dataclasses.replace(record.error, line=number)
    return record


# -- reading through a stream, the lines of the current chunk kept --------------------


#: A run of equal lines, kept as one line and how many times it comes: the millions of
#: blank lines that may sit between two records take no more room than one.
Run: TypeAlias = tuple[bytes, int]


def run_lines(runs: Iterable[Run]) -> Iterator[bytes]:
    """The lines of ``runs``, cut as :func:`read_chunk` cuts the bytes they make."""
    for raw, count in runs:
        if b"\r" in raw:  # a lone carriage return ends a line too
            pieces = raw.splitlines(keepends=True)
            for _ in range(count):
                yield from pieces
        else:
            yield from itertools.repeat(raw, count)


def _run_blocks(runs: Iterable[Run]) -> Iterator[bytes]:
    """The bytes of ``runs``, in blocks of a few MiB at most."""
    for raw, count in runs:
        per_block = max(1, (1 << 20) // len(raw))
        while count > 0:
            yield raw * min(count, per_block)
            count -= per_block


def _add_run(runs: list[Run], raw: bytes) -> None:
    """Add the line ``raw`` to ``runs``."""
    if runs and runs[-1][0] == raw:
        runs[-1] = (raw, runs[-1][1] + 1)
    else:
        runs.append((raw, 1))


class _Tap:
    """The lines of a stream of bytes as :func:`scan_chunks` reads them, each kept (runs
    of equal lines as one) until the chunk it belongs to is taken (:meth:`take`).  It
    needs no seek: standard input and a decompressed file are read through too.
    """

    def __init__(self, lines: Iterable[bytes]) -> None:
        self._ahead: list[Run] = []
        self._lines = iter(lines)
        self._source: Iterator[bytes] | None = None
        self._kept: list[Run] = []
        self._kept_start = 0
        self._position = 0

    def is_json(self) -> bool:
        """Whether the lines are JSON Lines of records: by the first non-blank line,
        read ahead and given again by the iteration."""

        def ahead() -> Iterator[bytes]:
            for raw in self._lines:
                _add_run(self._ahead, raw)
                yield raw

        return is_json_source(ahead())

    def _rest(self) -> Iterator[bytes]:
        if self._source is None:
            self._source = itertools.chain(_run_lines_kept(self._ahead), self._lines)
        return self._source

    def __iter__(self) -> Iterator[bytes]:
        kept = self._kept
        for raw in self._rest():
            _add_run(kept, raw)
            self._position += len(raw)
            yield raw

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Only ``seek(0, SEEK_END)``: the rest is read, and kept."""
        if (offset, whence) != (0, io.SEEK_END):
            raise io.UnsupportedOperation("a stream read through goes only to its end")
        for _ in self:
            pass
        return self._position

    def take(self, chunk: SourceSpan) -> list[Run]:
        """The lines of ``chunk`` (read already), as runs; what comes before its end is
        let go."""
        taken: list[Run] = []
        rest: list[Run] = []
        at = self._kept_start
        for raw, count in self._kept:
            size = len(raw)
            # Chunks begin and end between lines: each run is cut at whole lines.
            inside = (min(chunk.end, at + size * count) - max(chunk.start, at)) // size
            if inside > 0:
                taken.append((raw, inside))
            after = (at + size * count - max(chunk.end, at)) // size
            if after > 0:
                rest.append((raw, after))
            at += size * count
        self._kept[:] = rest  # the same list: the iteration goes on adding to it
        self._kept_start = chunk.end
        return taken


def _run_lines_kept(runs: list[Run]) -> Iterator[bytes]:
    """The lines of ``runs`` as they were read (lone carriage returns left in)."""
    for raw, count in runs:
        yield from itertools.repeat(raw, count)
    runs.clear()


def chunks_of(lines: Iterable[bytes]) -> Iterator[tuple[SourceSpan, list[Run]]]:
    """The chunks of a stream of bytes read through, each with its lines as runs."""
    tap = _Tap(lines)
    json = tap.is_json()
    for chunk in scan_chunks(cast(IO[bytes], tap), json=json):
        yield chunk, tap.take(chunk)


def crc_of(runs: Iterable[Run], crc: int = 0) -> int:
    """The CRC-32 of the bytes of ``runs``, going on from ``crc``."""
    for block in _run_blocks(runs):
        crc = zlib.crc32(block, crc)
    return crc
