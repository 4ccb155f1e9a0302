"""Where the records of a file are, found at a glance: byte offsets, not records.

:func:`scan_chunks` goes through the bytes of a source once, reading no record, and
cuts it into *chunks*: runs of lines that begin where the reader surely begins a
record (:func:`notation.reader.record_starts`), with their byte offsets and first
line numbers.  :func:`read_chunk` reads the records of one chunk, numbered and
located as a reading of the whole source would.  A chunk whose lines surely make one
record (tag lines, then movetext with no ``[`` line and no result before the last)
has ``count`` 1; any other has ``count`` None: only reading it tells.  In JSON Lines
each non-blank line is a record.

On top of the chunks, :func:`find_record` reaches record N of any stream of bytes
reading only the chunk that holds it (and those whose count only reading tells); a
*side index* (:func:`build_index`, :func:`write_index`, :func:`load_index`;
``notation index FILE``), written as ``FILE.idx`` or in the user's cache folder,
makes record N one seek (:func:`record_at`), and holds a stamp of the file and a CRC
of every chunk, so that an index of another version is never used;
:func:`read_headers` reads the tags of every record, skipping their moves.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import hashlib
import io
import itertools
import json as json_module
import os
import re
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeAlias, cast

from notation.errors import (
    MisuseError,
    NotationException,
    display_path,
    misuse_unless,
    require_number,
    require_path,
    require_sequence,
)
from notation.files.savefile import replace_file
from notation.files.textfile import decode_line
from notation.formats.convert import looks_like_json_records, read_json_records
from notation.reader import SureStarts, read_records, visit_records
from notation.record import Record
from notation.visitor import SKIP, Skip, TreeBuilder

if TYPE_CHECKING:
    #: Numbers of the index, 8 bytes each (an ``array("q")``).
    Int64s: TypeAlias = array[int]
else:  # ``array`` takes no subscript at run time (pdoc evaluates these annotations)
    Int64s = array

__all__ = [
    "INDEX_SUFFIX",
    "IndexProblem",
    "RecordHeaders",
    "RecordIndex",
    "RecordNotFound",
    "SourceSpan",
    "build_index",
    "find_index",
    "find_record",
    "is_index_file",
    "is_json_source",
    "load_index",
    "read_chunk",
    "read_headers",
    "record_at",
    "scan_chunks",
    "write_index",
]

#: A result token where the reader takes one: before white space, a bracket, a
#: comment or the end of the line (reader._TOKEN), and at the start of a token.
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
    """Whether the lines of a chunk surely make one record (see the module's docstring)."""

    __slots__ = ("body", "closed", "gap", "single")

    def __init__(self) -> None:
        self.single = True
        self.body = False  # a line that is not a tag line was seen
        self.gap = False  # a blank line was seen
        self.closed = False  # a result token was seen

    def tag_line(self) -> None:
        # A tag line after a blank line or after moves may begin a record.
        if self.body or self.gap:
            self.single = False

    def body_line(self, line: str) -> None:
        if self.closed:
            self.single = False  # anything after the result: perhaps the next record
            return
        self.body = True
        if "*" not in line and "-0" not in line and "-1" not in line:
            return  # no result token here (each holds one of these): the usual line
        results = [
            found for found in _RESULT.finditer(line)
            if not found.start()
            or line[found.start() - 1].isspace()
            or line[found.start() - 1] in _SEPARATORS
        ]
        if len(results) > 1 or (results and line[results[0].end() :].strip()):
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
    where :func:`~notation.reader.record_starts` cuts.  Cutting stops at a lone carriage
    return (line numbers would differ from a count of line feeds): the rest of the
    source is then one chunk.
    """
    if json:
        yield from _json_chunks(stream)
        return
    glance = _Glance()
    start, first_line = 0, 1
    position, number = 0, 0
    starts = SureStarts()
    for raw in stream:
        if b"\r" in raw and raw.count(b"\r") != raw.endswith(b"\r\n"):
            yield SourceSpan(start, stream.seek(0, io.SEEK_END), first_line, None)
            return
        number += 1
        here = position
        position += len(raw)
        if raw.isspace():  # a blank line (ASCII white space), told without decoding
            starts.feed_stripped("", "")
            glance.gap = True
            continue
        if raw[:1] == b"%":
            continue  # an escape line: nothing to the reader, blank lines around it too
        # Decoded as the reader decodes it, so that strip() strips what it strips.
        text = raw.decode("ascii") if raw.isascii() else decode_line(raw)[0]
        if text[:1] == "\ufeff":  # a byte-order mark, where the reader skips it
            text = starts.skip_bom(text)
            if text[:1] == "%":
                continue
        stripped = text.strip()
        begins = starts.feed_stripped(text, stripped)
        if not stripped:
            glance.gap = True
        elif begins:
            yield SourceSpan(start, here, first_line, 1 if glance.single else None)
            glance = _Glance()
            start, first_line = here, number
        elif glance.single:
            if stripped[0] == "[":
                glance.tag_line()
            else:
                glance.body_line(text)
    if position > start or start == 0:
        yield SourceSpan(start, position, first_line, 1 if glance.single and start else None)


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
    return _read_lines(_split_lines(data), chunk, source, first_index, not_utf8)


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


def _read_lines(
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
_Run: TypeAlias = tuple[bytes, int]


def _run_lines(runs: Iterable[_Run]) -> Iterator[bytes]:
    """The lines of ``runs``, cut as :func:`read_chunk` cuts the bytes they make."""
    for raw, count in runs:
        if b"\r" in raw:  # a lone carriage return ends a line too
            pieces = raw.splitlines(keepends=True)
            for _ in range(count):
                yield from pieces
        else:
            yield from itertools.repeat(raw, count)


def _run_blocks(runs: Iterable[_Run]) -> Iterator[bytes]:
    """The bytes of ``runs``, in blocks of a few MiB at most."""
    for raw, count in runs:
        per_block = max(1, (1 << 20) // len(raw))
        while count > 0:
            yield raw * min(count, per_block)
            count -= per_block


def _add_run(runs: list[_Run], raw: bytes) -> None:
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
        self._ahead: list[_Run] = []
        self._lines = iter(lines)
        self._source: Iterator[bytes] | None = None
        self._kept: list[_Run] = []
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

    def take(self, chunk: SourceSpan) -> list[_Run]:
        """The lines of ``chunk`` (read already), as runs; what comes before its end is
        let go."""
        taken: list[_Run] = []
        rest: list[_Run] = []
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


def _run_lines_kept(runs: list[_Run]) -> Iterator[bytes]:
    """The lines of ``runs`` as they were read (lone carriage returns left in)."""
    for raw, count in runs:
        yield from itertools.repeat(raw, count)
    runs.clear()


def _chunks_of(lines: Iterable[bytes]) -> Iterator[tuple[SourceSpan, list[_Run]]]:
    """The chunks of a stream of bytes read through, each with its lines as runs."""
    tap = _Tap(lines)
    json = tap.is_json()
    for chunk in scan_chunks(cast(IO[bytes], tap), json=json):
        yield chunk, tap.take(chunk)


def _crc_of(runs: Iterable[_Run], crc: int = 0) -> int:
    """The CRC-32 of the bytes of ``runs``, going on from ``crc``."""
    for block in _run_blocks(runs):
        crc = zlib.crc32(block, crc)
    return crc


class RecordNotFound(NotationException, LookupError):
    """A source has fewer records than the one asked for; ``count`` is how many it has."""

    def __init__(self, number: int, count: int) -> None:
        super().__init__(f"there is no record {number}: the source has {count}")
        self.number = number
        self.count = count


def find_record(
    lines: Iterable[bytes],
    number: int,
    source: str | None = None,
    *,
    not_utf8: Callable[[], None] | None = None,
) -> Record:
    """Record ``number`` (1 is the first) of the lines of bytes of a source, as reading
    the whole source gives it, the records before it only cut apart (:func:`scan_chunks`).

    ``not_utf8`` is called if the lines of the record's chunk are not UTF-8.  Raises
    :class:`RecordNotFound`, and ``MisuseError`` for a ``number`` that is not a whole
    number from 1.
    """
    _require_record_number(number)
    require_sequence(lines, "lines", "lines of bytes")
    count = 0
    fell_back: list[bool] = []
    for chunk, runs in _chunks_of(lines):
        if chunk.count is not None and count + chunk.count < number:
            count += chunk.count
            continue
        fell_back.clear()
        records = _read_lines(
            _run_lines(runs), chunk, source, count + 1, lambda: fell_back.append(True)
        )
        if count + len(records) >= number:
            if fell_back and not_utf8 is not None:
                not_utf8()
            return records[number - count - 1]
        count += len(records)
    raise RecordNotFound(number, count)


def _require_record_number(number: object) -> None:
    """:class:`MisuseError` unless ``number`` can be the number of a record."""
    require_number(number, "the record's number")
    assert isinstance(number, int)
    if number < 1:
        raise MisuseError(f"records are numbered from 1, not {number}")


# -- the side index -------------------------------------------------------------------

#: What an index's name adds to the name of its file: ``games.txt.idx``.
INDEX_SUFFIX = ".idx"
_MAGIC = b"notation-index 1\n"
#: How much of the start and of the end of a file its index keeps a hash of.
_EDGE = 64 * 1024
_FIELDS = ("starts", "ends", "lines", "counts", "crcs")
#: The most bytes of records one entry of an index covers (see :func:`build_index`).
_GROUP_BYTES = 32_768


class IndexProblem(NotationException):
    """An index that cannot be used (unreadable, damaged, out of date, of another file),
    or a file that cannot be indexed: the message says which, for the user."""


def _stamp(path: Path) -> dict[str, object]:
    """What tells a version of a file from another: size, mtime, hashes of its edges."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        mtime = os.fstat(handle.fileno()).st_mtime_ns
        head = hashlib.sha256(handle.read(_EDGE)).hexdigest()
        handle.seek(max(0, size - _EDGE))
        tail = hashlib.sha256(handle.read(_EDGE)).hexdigest()
    return {"size": size, "mtime_ns": mtime, "head": head, "tail": tail}


@dataclass(frozen=True)
class RecordIndex:
    r"""Where the records of a file are: its chunks (their byte offsets, first lines,
    record counts and CRCs), and the stamp of the version of the file they are of.

    :func:`build_index` makes one, :func:`write_index` saves it beside the file (as
    ``notation index FILE`` does) and :func:`load_index` reads it back, refusing an
    index of another version of the file; :meth:`read` reads one record through it.

    >>> import os, shutil, tempfile
    >>> from notation.collections.index import build_index, load_index, write_index
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "games.txt")
    >>> with open(path, "w") as file:
    ...     _ = file.write('[Game "cave"]\n\n1. b1 b5 *\n\n[Game "cave"]\n\n1. a1 *\n')
    >>> index = build_index(path)
    >>> index.records
    2
    >>> record = index.read(path, 2)
    >>> record.index, record.first_line, record.moves[0].written
    (2, 5, 'a1')
    >>> where, beside = write_index(path, index)
    >>> where.name, beside
    ('games.txt.idx', True)
    >>> load_index(where, path).read(path, 1).moves[1].written
    'b5'
    >>> shutil.rmtree(folder)
    """

    #: The file's name when it was indexed (for messages), and its stamp.
    name: str
    stamp: dict[str, object]
    #: Whether the file is JSON Lines.
    json: bool
    starts: Int64s
    ends: Int64s
    lines: Int64s
    counts: Int64s
    crcs: Int64s
    #: The number of the first record of each chunk.
    firsts: Int64s = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        firsts = array("q", itertools.accumulate(self.counts, initial=1))
        firsts.pop()
        object.__setattr__(self, "firsts", firsts)

    @property
    def records(self) -> int:
        """How many records the file holds."""
        return sum(self.counts)

    def read(
        self,
        path: str | os.PathLike[str],
        number: int,
        source: str | None = None,
        *,
        not_utf8: Callable[[], None] | None = None,
    ) -> Record:
        """Record ``number`` of the file at ``path``: one seek, one chunk read.  Raises
        :class:`RecordNotFound`, and :class:`IndexProblem` if the file changed.
        """
        _require_record_number(number)
        if number > self.records:
            raise RecordNotFound(number, self.records)
        at = bisect.bisect_right(self.firsts, number) - 1
        chunk = SourceSpan(
            self.starts[at], self.ends[at], self.lines[at],
            1 if self.counts[at] == 1 else None, json=self.json,
        )
        with open(path, "rb") as handle:
            # Read twice, a block then a line at a time, so that a chunk of millions of
            # blank lines is never held: once for its CRC, once for its records.
            blocks = _file_runs(handle, chunk, lambda most: handle.read(min(most, 1 << 20)))
            if _crc_of(blocks) != self.crcs[at]:
                raise IndexProblem(_out_of_date(path))
            lines = _run_lines(_file_runs(handle, chunk, handle.readline))
            records = _read_lines(lines, chunk, source, self.firsts[at], not_utf8)
        if len(records) != self.counts[at]:
            raise IndexProblem(_out_of_date(path))
        return records[number - self.firsts[at]]

    def to_bytes(self) -> bytes:
        """The index as it is written to disk."""
        header = {
            "file": self.name, **self.stamp, "json": self.json, "chunks": len(self.starts),
            "records": self.records,
        }
        parts = [_MAGIC, json_module.dumps(header).encode("utf-8"), b"\n"]
        for field in _FIELDS:
            values = array("q", getattr(self, field))
            if sys.byteorder != "little":
                values.byteswap()
            parts.append(values.tobytes())
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes, where: str) -> RecordIndex:
        """An index read from disk (``where`` names it in messages)."""
        if not data.startswith(_MAGIC):
            raise IndexProblem(f"{where} is not an index of records (`notation index` makes one)")
        try:
            end = data.index(b"\n", len(_MAGIC))
            header = json_module.loads(data[len(_MAGIC) : end])
            count = header["chunks"]
            body = data[end + 1 :]
            if not isinstance(count, int) or len(body) != 8 * count * len(_FIELDS):
                raise ValueError("cut short")
            fields = []
            for place in range(len(_FIELDS)):
                values = array("q")
                values.frombytes(body[8 * count * place : 8 * count * (place + 1)])
                if sys.byteorder != "little":
                    values.byteswap()
                fields.append(values)
            stamp = {key: header[key] for key in ("size", "mtime_ns", "head", "tail")}
            return cls(str(header["file"]), stamp, bool(header["json"]), *fields)
        except (ValueError, KeyError, TypeError) as exc:
            raise IndexProblem(
                f"{where} is damaged ({exc}); make it again with `notation index`"
            ) from None


def _file_runs(
    handle: IO[bytes], chunk: SourceSpan, read: Callable[[int], bytes]
) -> Iterator[_Run]:
    """The bytes of ``chunk`` in the file ``handle``, as runs of one piece each: what
    ``read(most)`` gives (a block, a line), ``most`` bytes at most."""
    handle.seek(chunk.start)
    left = chunk.end - chunk.start
    while left > 0:
        piece = read(left)
        if not piece:
            return
        left -= len(piece)
        yield piece, 1


def _out_of_date(path: str | os.PathLike[str]) -> str:
    shown = display_path(os.fspath(path))
    return (
        f"the index of {shown} is out of date (the file changed since); "
        f"run `notation index {shown}` again"
    )


def build_index(path: str | os.PathLike[str]) -> RecordIndex:
    """The index of the file at ``path``, in one pass.  Raises ``OSError`` for a file
    that cannot be read, and :class:`IndexProblem` for a compressed one (an index is of
    offsets to seek to) or one that changed while it was being indexed."""
    from notation.files.textfile import is_compressed

    require_path(path)
    where = Path(path)
    if is_compressed(where):
        raise IndexProblem(
            f"{display_path(str(where))} is compressed: an index is of places to seek to, "
            "and a compressed file cannot be seeked in; decompress it to index it"
        )
    stamp = _stamp(where)
    fields: list[Int64s] = [array("q") for _ in _FIELDS]
    starts, ends, lines, counts, crcs = fields
    json = False
    with open(where, "rb") as handle:
        if handle.read(len(_MAGIC)) == _MAGIC:
            raise IndexProblem(
                f"{display_path(str(where))} is an index itself, not a file of records"
            )
        handle.seek(0)
        for chunk, runs in _chunks_of(handle):
            json = chunk.json
            count = chunk.count
            if count is None:
                count = len(_read_lines(_run_lines(runs), chunk, None, 1, None))
            if not count:
                continue  # blank lines, escape lines: no record
            # Records that follow each other share an entry up to _GROUP_BYTES (not JSON
            # lines), so that the index of millions of short records stays small.
            if (
                not json
                and ends
                and ends[-1] == chunk.start
                and chunk.end - starts[-1] <= _GROUP_BYTES
            ):
                ends[-1] = chunk.end
                counts[-1] += count
                crcs[-1] = _crc_of(runs, crcs[-1])
                continue
            starts.append(chunk.start)
            ends.append(chunk.end)
            lines.append(chunk.first_line)
            counts.append(count)
            crcs.append(_crc_of(runs))
    if _stamp(where) != stamp:
        raise IndexProblem(
            f"{display_path(str(where))} changed while it was being indexed; index it again"
        )
    return RecordIndex(where.name, stamp, json, *fields)


def is_index_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is an index (``False`` for one that cannot be read,
    and for a pipe, which is left unread)."""
    if not Path(path).is_file():
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_MAGIC)) == _MAGIC
    except OSError:
        return False


def _cache_folder() -> Path:
    """Where the indexes of files in folders that cannot be written go."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "notation", "index")


def _index_places(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Where the index of ``path`` is: beside it, or else in the cache folder."""
    where = Path(path)
    key = hashlib.sha256(os.fsencode(os.path.abspath(where))).hexdigest()[:32]
    return where.with_name(where.name + INDEX_SUFFIX), _cache_folder() / f"{key}{INDEX_SUFFIX}"


def find_index(path: str | os.PathLike[str]) -> Path | None:
    """The index of the file at ``path`` if there is one (not yet checked): ``FILE.idx``
    beside it, or the one in the cache folder."""
    require_path(path)
    for place in _index_places(path):
        if place.is_file():
            return place
    return None


def write_index(path: str | os.PathLike[str], index: RecordIndex) -> tuple[Path, bool]:
    """Write the index of the file at ``path`` beside it, as ``FILE.idx``, whole or not
    at all; if that folder cannot be written, in the cache folder (``$XDG_CACHE_HOME``
    or ``~/.cache``, under ``notation/index``).  Returns where, and whether it is beside;
    raises ``OSError`` (the one from beside the file) if neither can be written.
    """
    beside, cached = _index_places(path)
    data = index.to_bytes()
    try:
        replace_file(beside, data)
    except OSError as first:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            replace_file(cached, data)
        except OSError:
            raise first from None
        return cached, False
    with contextlib.suppress(OSError):
        cached.unlink()  # an older one, now hidden by the one beside
    return beside, True


def load_index(index_path: str | os.PathLike[str], path: str | os.PathLike[str]) -> RecordIndex:
    """The index at ``index_path``, if it is one of the file at ``path`` as it is now;
    :class:`IndexProblem` saying why not (unreadable, damaged, of another file, out of
    date)."""
    require_path(index_path, "index_path")
    require_path(path)
    where = display_path(os.fspath(index_path))
    try:
        data = Path(index_path).read_bytes()
    except OSError as exc:
        raise IndexProblem(f"cannot read the index {where}: {exc.strerror or exc}") from None
    index = RecordIndex.from_bytes(data, where)
    try:
        stamp = _stamp(Path(path))
    except OSError as exc:
        shown = display_path(os.fspath(path))
        raise IndexProblem(f"cannot read {shown}: {exc.strerror or exc}") from None
    if stamp != index.stamp:
        if index.name != Path(path).name:
            raise IndexProblem(f"{where} is the index of another file ({index.name})")
        raise IndexProblem(_out_of_date(path))
    return index


def record_at(
    path: str | os.PathLike[str],
    number: int,
    source: str | None = None,
    *,
    not_utf8: Callable[[], None] | None = None,
    on_problem: Callable[[str], None] | None = None,
) -> Record:
    """Record ``number`` of the file at ``path`` (compressed or not), as reading the
    whole file gives it: through the file's index if it is up to date, else with
    :func:`find_record`.  An index that cannot be used is told to ``on_problem`` (a
    message), then left aside.  Raises :class:`RecordNotFound`, ``OSError`` for a file
    that cannot be read, and ``MisuseError`` for a bad ``path`` or ``number``.
    """
    from notation.files.textfile import open_binary

    require_path(path)
    _require_record_number(number)
    name = os.fspath(path) if source is None else source
    place = find_index(path)
    if place is not None:
        try:
            return load_index(place, path).read(path, number, name, not_utf8=not_utf8)
        except IndexProblem as exc:
            if on_problem is not None:
                on_problem(str(exc))
    with open_binary(path) as stream:
        return find_record(stream, number, name, not_utf8=not_utf8)


# -- headers only ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordHeaders:
    """The tags of one record, and where it stands: what :func:`read_headers` gives."""

    #: Its number in the source (1 is the first), as ``Record.index``.
    number: int
    #: Its tags in order, as ``Record.tag_dict`` (the first of repeated names wins).
    tags: dict[str, str]
    #: The byte offset of the line it begins on (in a JSON Lines source: of its line).
    offset: int
    #: The number of that line (1 is the first), as ``Record.first_line``.
    line: int
    #: The source's name, as ``Record.source``.
    source: str | None = None


def read_headers(
    source: str | os.PathLike[str] | IO[bytes] | Iterable[str] | Iterable[bytes],
    name: str | None = None,
) -> Iterator[RecordHeaders]:
    r"""The tags of every record of a source, their moves skipped: much quicker than
    reading the records (:func:`notation.read_file`), with the same tags.

    >>> import notation
    >>> lines = ['[Game "cave"]\n', '[Event "Club night"]\n', '\n', '1. b1 b5 *\n']
    >>> for headers in notation.read_headers(lines):
    ...     print(headers.number, headers.line, headers.tags)
    1 1 {'Game': 'cave', 'Event': 'Club night'}

    ``source`` is a path (a compressed file too), a binary stream, or lines of text or
    of bytes (offsets are then those of the lines encoded as UTF-8).  Record text and
    JSON Lines (``convert --to json``) are told apart by content, as every command
    does.  A file that is not UTF-8 is read as Windows-1252 with a
    :class:`notation.files.textfile.NotUTF8Warning`, as :func:`notation.read_file` does.
    ``MisuseError`` for a ``source`` that is none of these (bytes: a path is a str).
    """
    if isinstance(source, (str, os.PathLike)):
        require_path(source, "source")
        return _headers_of_path(source, name)
    if hasattr(source, "read") and not isinstance(source, io.TextIOBase):
        return _headers(cast(IO[bytes], source), name, lambda: None)
    require_sequence(source, "source", "lines (or a path, or a binary stream)")
    return _headers(_encoded_lines(cast(Iterable[object], source)), name, lambda: None)


def _encoded_lines(lines: Iterable[object]) -> Iterator[bytes]:
    """Lines of text or of bytes as bytes; ``MisuseError`` for a line that is neither."""
    for number, line in enumerate(lines, 1):
        if isinstance(line, str):
            yield line.encode("utf-8")
        else:
            misuse_unless(isinstance(line, bytes), f"line {number}", "a str or bytes", line)
            yield cast(bytes, line)


def _headers_of_path(path: str | os.PathLike[str], name: str | None) -> Iterator[RecordHeaders]:
    import warnings

    from notation.files.textfile import NotUTF8Warning, not_utf8_message, open_binary

    shown = os.fspath(path) if name is None else name
    warned: list[bool] = []

    def warn() -> None:
        if not warned:
            warned.append(True)
            warnings.warn(NotUTF8Warning(not_utf8_message(shown)), stacklevel=3)

    with open_binary(path) as stream:
        yield from _headers(stream, shown, warn)


def _headers(
    lines: Iterable[bytes], name: str | None, not_utf8: Callable[[], None]
) -> Iterator[RecordHeaders]:
    number = 1
    for chunk, runs in _chunks_of(lines):
        if chunk.count == 1 and chunk.start and not chunk.json:
            # One record, which begins at the chunk's first line (a tag line: only the
            # first chunk may begin otherwise).  Its header lines are all there is to
            # read: the reader reads a line alike whatever comes after it.
            header: list[str] = []
            for raw in _run_lines(runs):
                text, fell_back = decode_line(raw)
                if (
                    raw[:1] != b"%"
                    and not text.lstrip().startswith("[")
                    # the first line may start with a byte-order mark, which the reader skips
                    and not (not header and text.startswith("\ufeff["))
                ):
                    break
                if fell_back:
                    not_utf8()
                header.append(text)
            (record,) = read_records(header, name, first_line=chunk.first_line)
            yield RecordHeaders(number, record.tag_dict, chunk.start, chunk.first_line, name)
            number += 1
            continue
        records = _read_lines(_run_lines(runs), chunk, name, number, not_utf8, tags_only=True)
        firsts = [chunk.first_line if chunk.json else record.first_line for record in records]
        offsets = _line_offsets(runs, {line - chunk.first_line for line in firsts})
        for record, line in zip(records, firsts, strict=True):
            offset = chunk.start + offsets[line - chunk.first_line]
            yield RecordHeaders(number, record.tag_dict, offset, line, name)
            number += 1


def _line_offsets(runs: Iterable[_Run], wanted: set[int]) -> dict[int, int]:
    """Where the lines numbered ``wanted`` (0: the first) of the lines of ``runs``
    (:func:`_run_lines`) begin, in bytes from the first."""
    found: dict[int, int] = {}
    numbers = sorted(wanted, reverse=True)
    line = offset = 0
    for raw, count in runs:
        pieces = raw.splitlines(keepends=True) if b"\r" in raw else [raw]
        lines = count * len(pieces)
        while numbers and numbers[-1] < line + lines:
            number = numbers.pop()
            repeat, piece = divmod(number - line, len(pieces))
            found[number] = offset + repeat * len(raw) + sum(map(len, pieces[:piece]))
        line += lines
        offset += count * len(raw)
    return found
