"""Where a run of lines is cut into records: the one loop that finds record starts.

:func:`sure_starts` goes through lines of text or of bytes and yields each line at
which the reader surely begins a record, as :class:`notation.reader.SureStarts` (the
detector it is given) says, with its place: ``(index, offset)``, the line's index
from 0 and how far from the first line it begins (bytes, or characters for text).
Lines of bytes are decoded as the reader decodes them, and only where need be: a
blank line or an escape line is told without decoding it.  In lines of bytes, a lone
carriage return ends the cutting (line numbers would differ from a count of line
feeds): the caller then takes the rest as one piece.

Every cutter of record text uses it: ``notation check --jobs``
(:mod:`notation.collections.batch`, which cuts big files into parts), the chunks of a
source (:func:`notation.collections.scanning.scan_chunks`, which also watches each
chunk's lines through a :class:`ChunkWatch`), and the chunks of a document being
edited (:func:`notation.editing.buffer.chunk_starts`).

Read from the text's start, the first record begins where any cut begins; the second
surely begins at line 3 (from 0), 23 characters in:

>>> from notation.collections.cutting import sure_starts
>>> from notation.reader import SureStarts
>>> lines = ['[Game "Cave"]\\n', '1. b1 *\\n', '\\n', '[Game "Cave"]\\n', '1. c1 *\\n']
>>> list(sure_starts(lines, SureStarts(from_start=True)))
[(3, 23)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol, cast

from notation.files.textfile import decode_line
from notation.reader import SureStarts

__all__ = ["ChunkWatch", "Cut", "sure_starts"]


class ChunkWatch(Protocol):
    """What :func:`sure_starts` tells of the lines between two starts (the caller makes
    it anew, or resets it, at each start): ``gap`` is set at a blank line, and while
    ``single`` is true, :meth:`line` is told of every other line that begins no record
    (escape lines aside)."""

    single: bool
    gap: bool

    def line(self, text: str, stripped: str) -> None:
        """A line that is neither blank nor a start: ``text`` decoded, and stripped."""


class Cut:
    """Where :func:`sure_starts` stopped: after ``size`` bytes (or characters) of lines,
    and whether a lone carriage return stopped it (``short``)."""

    __slots__ = ("short", "size")

    def __init__(self) -> None:
        self.size = 0
        self.short = False


def sure_starts(
    lines: Iterable[bytes] | Iterable[str],
    starts: SureStarts,
    watch: ChunkWatch | None = None,
    cut: Cut | None = None,
) -> Iterator[tuple[int, int]]:
    """``(index, offset)`` of each of ``lines`` at which ``starts`` (told every line)
    says that a record surely begins; see the module's docstring.  ``watch`` is told of
    the lines in between; ``cut`` holds where the lines ended, once they did."""
    position = 0
    index = -1
    binary: bool | None = None
    for raw in cast(Iterable[Any], lines):
        if binary is None:
            binary = isinstance(raw, bytes)
            escape = b"%" if binary else "%"
        if binary and b"\r" in raw and raw.count(b"\r") != raw.endswith(b"\r\n"):
            if cut is not None:
                cut.size, cut.short = position, True
            return
        index += 1
        here = position
        position += len(raw)
        if raw.isspace():  # a blank line (ASCII white space for bytes), told undecoded
            starts.feed_stripped("", "")
            if watch is not None:
                watch.gap = True
            continue
        if raw[:1] == escape:
            continue  # an escape line: nothing to the reader, blank lines around it too
        # Bytes are decoded as the reader decodes them, so that strip() strips what it
        # strips.
        text: str = (
            (raw.decode("ascii") if raw.isascii() else decode_line(raw)[0]) if binary else raw
        )
        if text[:1] == "\ufeff":  # a byte-order mark, where the reader skips it
            text = starts.skip_bom(text)
            if text[:1] == "%":
                continue
        stripped = text.strip()
        if starts.feed_stripped(text, stripped):
            yield index, here
        elif not stripped:
            if watch is not None:
                watch.gap = True
        elif watch is not None and watch.single:
            watch.line(text, stripped)
    if cut is not None:
        cut.size = position
