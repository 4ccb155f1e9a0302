"""Where the records of a file are, found at a glance: byte offsets, not records.

A viewer of a file of thousands of records (``notation replay``) must open at once
and read a record only when it is shown.  :func:`scan_chunks` goes through the
bytes of a source once, without reading any record, and cuts it into *chunks*: runs
of lines that begin where the reader surely begins a record
(:func:`notation.reader.record_starts`), each with its byte offsets and the number
of its first line.  :func:`read_chunk` reads the records of one chunk, numbered and
located as a reading of the whole source would (the reader begins a record at a
chunk's first line whatever came before).

Most chunks hold exactly one record, and a glance at their lines tells so: a run of
tag lines, then movetext with no line that starts with ``[`` and no result token
before the last.  Such a chunk has ``count`` 1; any other (a record after a comment
or on the line of the previous result, a header without moves) has ``count`` None,
and only reading it tells how many records it holds.

JSON Lines sources (``convert --to json``) are simpler: each non-blank line is a
record.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from notation.convert import looks_like_json_records, read_json_records
from notation.reader import read_records, record_starts
from notation.record import Record
from notation.textio import decode_line

__all__ = ["Chunk", "is_json_source", "read_chunk", "scan_chunks"]

#: A result token where the reader takes one: before white space, a bracket, a
#: comment or the end of the line (reader._TOKEN), and (see _results) at the start of
#: a token.  The literal comes first, so that the search skips ahead fast.
_RESULT = re.compile(r"(?:1-0|0-1|1/2-1/2|\*)(?![^\s(){};])")
_SEPARATORS = frozenset("(){};")


@dataclass(frozen=True, slots=True)
class Chunk:
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


def is_json_source(stream: IO[bytes]) -> bool:
    """Whether the source is JSON Lines of records: by its first non-blank line.

    The stream is read from where it stands and left wherever that took it.
    """
    for raw in stream:
        text = decode_line(raw)[0].removeprefix("\ufeff")
        if text.strip():
            return looks_like_json_records(text)
    return False


def scan_chunks(stream: IO[bytes], *, json: bool = False) -> Iterator[Chunk]:
    """The chunks of a binary stream read from its start, in order, as it is read.

    One pass over the lines, a few string operations each: only a tag line after
    moves is put to :func:`~notation.reader.record_starts`, whose answer depends on
    nothing but that line, whether a blank line came before it, and whether the last
    line that was not blank held moves (what this loop keeps).  Cutting stops at a
    line holding a lone carriage return (which the reader counts as a line end, so
    that line numbers would differ from a count of line feeds): the rest of the
    source is then one chunk, read whole.
    """
    if json:
        yield from _json_chunks(stream)
        return
    glance = _Glance()
    start, first_line = 0, 1
    position, number = 0, 0
    blank = moves = False
    for raw in stream:
        if b"\r" in raw and raw.count(b"\r") != raw.endswith(b"\r\n"):
            yield Chunk(start, stream.seek(0, io.SEEK_END), first_line, None)
            return
        number += 1
        here = position
        position += len(raw)
        if raw[:1] == b"%":
            continue  # an escape line: nothing to the reader, blank lines around it too
        # Decoded as the reader decodes it, so that strip() strips what it strips.
        text = raw.decode("ascii") if raw.isascii() else decode_line(raw)[0]
        stripped = text.strip()
        if not stripped:
            blank = glance.gap = True
            continue
        if stripped[0] == "[":
            if moves and next(record_starts([*_AFTER_MOVES[blank], text]), None) is not None:
                yield Chunk(start, here, first_line, 1 if glance.single else None)
                glance = _Glance()
                start, first_line = here, number
            elif glance.single:
                glance.tag_line()
            moves = False
        else:
            if glance.single:
                glance.body_line(text)
            moves = _COMMENT_MARKS.search(stripped) is None
        blank = False
    if position > start or start == 0:
        yield Chunk(start, position, first_line, 1 if glance.single and start else None)


#: Lines that leave record_starts after moves, without a blank line or with one.
_AFTER_MOVES = {False: ("1.\n",), True: ("1.\n", "\n")}
_COMMENT_MARKS = re.compile(r"[{};]")


def _json_chunks(stream: IO[bytes]) -> Iterator[Chunk]:
    position = 0
    for number, raw in enumerate(stream, 1):
        if decode_line(raw)[0].strip() and raw.strip() != b"\xef\xbb\xbf":
            yield Chunk(position, position + len(raw), number, 1, json=True)
        position += len(raw)


def read_chunk(
    data: bytes,
    chunk: Chunk,
    source: str | None,
    first_index: int,
    not_utf8: Callable[[], None] | None = None,
) -> list[Record]:
    """The records of ``chunk`` (``data`` is its bytes), numbered from ``first_index``.

    Records, their lines and their defects are as reading the whole source gives them.
    ``not_utf8`` is called if a line of the chunk is not UTF-8 (it is then read as
    Windows-1252, as :mod:`notation.textio` does).
    """
    lines = []
    fell_back = False
    for raw in data.splitlines(keepends=True):
        text, fallback = decode_line(raw)
        lines.append(text)
        fell_back = fell_back or fallback
    if fell_back and not_utf8 is not None:
        not_utf8()
    if chunk.json:
        return [_json_record(line, chunk.first_line, first_index, source) for line in lines[:1]]
    records = list(read_records(lines, source, first_line=chunk.first_line))
    for offset, record in enumerate(records):
        record.index = first_index + offset
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
