"""Where the records of a file are, found at a glance: byte offsets, not records.

The chunks of :mod:`notation.collections.scanning` (:func:`scan_chunks`, runs of lines
that begin where the reader surely begins a record) are what this module finds and
indexes records with.

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
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeAlias, cast

from notation.collections.scanning import (
    Run,
    SourceSpan,
    chunks_of,
    crc_of,
    is_json_source,
    read_chunk,
    read_lines,
    run_lines,
    scan_chunks,
)
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
from notation.reader import read_records
from notation.record import Record

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
    for chunk, runs in chunks_of(lines):
        if chunk.count is not None and count + chunk.count < number:
            count += chunk.count
            continue
        fell_back.clear()
        records = read_lines(
            run_lines(runs), chunk, source, count + 1, lambda: fell_back.append(True)
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
            if crc_of(blocks) != self.crcs[at]:
                raise IndexProblem(_out_of_date(path))
            lines = run_lines(_file_runs(handle, chunk, handle.readline))
            records = read_lines(lines, chunk, source, self.firsts[at], not_utf8)
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
) -> Iterator[Run]:
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
        for chunk, runs in chunks_of(handle):
            json = chunk.json
            count = chunk.count
            if count is None:
                count = len(read_lines(run_lines(runs), chunk, None, 1, None))
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
                crcs[-1] = crc_of(runs, crcs[-1])
                continue
            starts.append(chunk.start)
            ends.append(chunk.end)
            lines.append(chunk.first_line)
            counts.append(count)
            crcs.append(crc_of(runs))
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
    for chunk, runs in chunks_of(lines):
        if chunk.count == 1 and chunk.start and not chunk.json:
            # One record, which begins at the chunk's first line (a tag line: only the
            # first chunk may begin otherwise).  Its header lines are all there is to
            # read: the reader reads a line alike whatever comes after it.
            header: list[str] = []
            for raw in run_lines(runs):
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
        records = read_lines(run_lines(runs), chunk, name, number, not_utf8, tags_only=True)
        firsts = [chunk.first_line if chunk.json else record.first_line for record in records]
        offsets = _line_offsets(runs, {line - chunk.first_line for line in firsts})
        for record, line in zip(records, firsts, strict=True):
            offset = chunk.start + offsets[line - chunk.first_line]
            yield RecordHeaders(number, record.tag_dict, offset, line, name)
            number += 1


def _line_offsets(runs: Iterable[Run], wanted: set[int]) -> dict[int, int]:
    """Where the lines numbered ``wanted`` (0: the first) of the lines of ``runs``
    (:func:`run_lines`) begin, in bytes from the first."""
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
