"""Reading record text: UTF-8, or Windows-1252 for what is not, with line ends kept.

Records are UTF-8.  A file written by an older tool in Windows-1252 (or Latin-1)
is not, and decoding it as UTF-8 with replacement characters would turn ``José``
into ``Jos\\ufffd`` without a word.  So every line that is not valid UTF-8 is read
as Windows-1252 instead (the five bytes Windows-1252 leaves undefined as Latin-1,
so that no byte is ever lost), and whoever reads the text is told, once per source
(``on_fallback``): the command line prints a warning naming the file, the library's
:func:`~notation.reader.read_file` issues a :class:`NotUTF8Warning`.

The decision is made line by line: a line of Windows-1252 text is valid UTF-8 only
if it is ASCII, where the two agree (or in contrived mixes such as ``Ã©``), so a
file in one encoding reads the same as if it had been decoded whole, and a UTF-8
file with one pasted Latin-1 line keeps its UTF-8 elsewhere.  Deciding per line
also lets a part of a file (``notation check`` cuts big files) decode exactly as
the whole does.

Lines keep their line ends untranslated (``\\r\\n``, ``\\r`` or ``\\n``), as
``open(..., newline="")`` gives them: the record reader strips them itself and
keeps each record's exact text.  A lone ``\\r`` ends a line.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import IO

__all__ = [
    "FALLBACK_ENCODING",
    "NotUTF8Warning",
    "decode_line",
    "decoded_lines",
    "not_utf8_message",
]

#: The encoding assumed for text that is not UTF-8, as messages name it.
FALLBACK_ENCODING = "Windows-1252"


class NotUTF8Warning(UserWarning):
    """Issued by :func:`notation.reader.read_file` for a file that is not valid UTF-8.

    The file was read anyway, its lines that are not UTF-8 as Windows-1252.  Turn it
    into an error with ``warnings.simplefilter("error", NotUTF8Warning)``.
    """


def not_utf8_message(name: str) -> str:
    """What to tell the user about the source ``name`` (a file name, ``<stdin>``)."""
    return f"{name} is not UTF-8; read as {FALLBACK_ENCODING}"


def _windows_1252_table() -> dict[int, str]:
    """From Latin-1 to Windows-1252: they differ in 0x80-0x9F only."""
    table: dict[int, str] = {}
    for byte in range(0x80, 0xA0):
        try:
            table[byte] = bytes([byte]).decode("cp1252")
        except UnicodeDecodeError:  # undefined in Windows-1252: keep Latin-1's control
            continue
    return table


_FROM_LATIN_1 = _windows_1252_table()


def decode_line(data: bytes) -> tuple[str, bool]:
    """One line of bytes as text, and whether it was not UTF-8 (so read as Windows-1252)."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1").translate(_FROM_LATIN_1), True


class _Borrowed(io.BufferedIOBase):
    """A binary stream lent to a TextIOWrapper, which closes it when done or collected:
    closing this view leaves the stream itself (``sys.stdin.buffer``, a file the
    caller manages) open, and needs nothing of it, even after it was closed."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__()
        self._stream = stream

    @property
    def name(self) -> object:  # TextIOWrapper shows it in its repr
        return getattr(self._stream, "name", None)

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        return self._stream.read(-1 if size is None else size)

    def read1(self, size: int = -1) -> bytes:
        read1: Callable[[int], bytes] | None = getattr(self._stream, "read1", None)
        return read1(size) if read1 is not None else self._stream.read(size)


def decoded_lines(stream: IO[bytes], on_fallback: Callable[[], None]) -> Iterator[str]:
    """The lines of a binary stream as text, line ends kept; the stream is left open.

    ``on_fallback`` is called once, at the first line that is not UTF-8.
    """
    # surrogateescape keeps every byte that is not UTF-8 as a lone surrogate, which
    # valid UTF-8 never gives: such a line is turned back into its exact bytes and
    # decoded again.  newline="" splits at \n, \r\n and a lone \r, translating none.
    text = io.TextIOWrapper(
        _Borrowed(stream), encoding="utf-8", errors="surrogateescape", newline=""
    )
    warned = False
    for line in text:
        if line.isascii():
            yield line
            continue
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: bytes that were not UTF-8
            decoded, _ = decode_line(line.encode("utf-8", "surrogateescape"))
            if not warned:
                warned = True
                on_fallback()
            yield decoded
            continue
        yield line
