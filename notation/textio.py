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

import contextlib
import errno
import io
import itertools
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, cast

__all__ = [
    "COMPRESSED_SUFFIXES",
    "FALLBACK_ENCODING",
    "MissingExtra",
    "NotUTF8Warning",
    "compression_of",
    "decode_line",
    "decoded_lines",
    "is_compressed",
    "not_utf8_message",
    "open_binary",
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

    ``on_fallback`` is called once, at the first line that is not UTF-8 (from a file,
    when the block of lines holding it is read).
    """
    # surrogateescape keeps every byte that is not UTF-8 as a lone surrogate, which
    # valid UTF-8 never gives: such a line is turned back into its exact bytes and
    # decoded again.  newline="" splits at \n, \r\n and a lone \r, translating none.
    text = io.TextIOWrapper(
        _Borrowed(stream), encoding="utf-8", errors="surrogateescape", newline=""
    )
    if _is_file(stream):
        # Blocks of lines, chained: the consumer's loop then takes each line from C,
        # not from this generator (profiled: 60 ns a line, 2% of a check of short
        # records).  Only from a file, which has all its lines already: a pipe's
        # reader would wait for a block of them before the first record is checked.
        return itertools.chain.from_iterable(_decoded_blocks(text, on_fallback))
    return _decoded(text, on_fallback)


#: Characters of lines read at once from a file (see decoded_lines).
_BLOCK = 1 << 16


def _is_file(stream: IO[bytes]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return False


def _decoded_blocks(
    text: io.TextIOWrapper, on_fallback: Callable[[], None]
) -> Iterator[list[str]]:
    told: list[bool] = []

    def once() -> None:
        if not told:
            told.append(True)
            on_fallback()

    while True:
        block = text.readlines(_BLOCK)
        if not block:
            return
        if all(map(str.isascii, block)):
            yield block
        else:
            yield list(_decoded(block, once))


def _decoded(lines: Iterable[str], on_fallback: Callable[[], None]) -> Iterator[str]:
    """``lines`` read with surrogateescape, each line that is not UTF-8 read as
    Windows-1252 (:func:`decode_line`); ``on_fallback`` called at the first."""
    warned = False
    for line in lines:
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


# -- compressed files ---------------------------------------------------------------------

#: How a compressed file begins, and what it is.  A file is recognised by its first bytes,
#: not its name: ``games.txt`` that is really gzip reads, ``games.gz`` that is not is text.
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
#: File name suffixes of compressed record files (for folders: ``games.txt.gz``).
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


class MissingExtra(OSError):
    """A file that needs an optional package to be read (``.zst`` needs zstandard).

    An ``OSError``: to the user it is a file that cannot be read, with the reason and the
    command that installs what is missing.
    """


def compression_of(head: bytes) -> str | None:
    """The compression a file beginning with ``head`` uses (``"gzip"``...), or ``None``."""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
    return None


class _Decompressed(io.RawIOBase):
    """A decompressing stream whose failures are ``OSError``s naming the file: damaged or
    cut-short data raises ``EOFError``, ``zlib.error``, ``lzma.LZMAError`` or
    ``zstandard.ZstdError`` deep in a read, which must reach the user as a file that
    cannot be read, not as a traceback (nor as click's "Aborted!" for an ``EOFError``)."""

    def __init__(self, stream: IO[bytes], kind: str, name: str) -> None:
        super().__init__()
        self._stream = stream
        self._kind = kind
        self._name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._stream.read(len(buffer))
        except OSError as exc:
            if exc.filename is None:
                raise OSError(exc.errno or errno.EIO, self._damaged(exc), self._name) from None
            raise
        except Exception as exc:  # each decompressor has its own error classes
            raise OSError(errno.EIO, self._damaged(exc), self._name) from None
        buffer[: len(data)] = data
        return len(data)

    def _damaged(self, exc: BaseException) -> str:
        detail = str(exc) or type(exc).__name__
        return f"the {self._kind} data is damaged or cut short ({detail})"

    def close(self) -> None:
        if not self.closed:
            self._stream.close()
        super().close()


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """The bytes of the file at ``path``, decompressed if it is gzip, bzip2, xz or zstd
    (zstd with the optional ``zstandard`` package: ``pip install 'undead-notation[zstd]'``).

    Raises ``OSError`` for a file that cannot be read (damaged compressed data too, when
    it is read), :class:`MissingExtra` for one that needs a package that is not
    installed.  Closing the stream closes the file.
    """
    handle = open(path, "rb")  # noqa: SIM115 - returned to the caller, or closed here
    # peek, not read and seek: the file may be a pipe (/dev/stdin)
    kind = compression_of(handle.peek(6)[:6])
    if kind is None:
        return handle
    stream: IO[bytes]
    if kind == "zstd":
        try:
            import zstandard  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            handle.close()
            raise MissingExtra(
                errno.EIO,
                "a zstd file needs the zstandard package: pip install 'undead-notation[zstd]'",
                os.fspath(path),
            ) from None
        stream = zstandard.ZstdDecompressor().stream_reader(handle, closefd=True)
    else:
        handle.close()
        # Opened by name, so that closing the decompressing stream closes the file too.
        if kind == "gzip":
            import gzip

            stream = cast(IO[bytes], gzip.open(path, "rb"))  # noqa: SIM115
        elif kind == "bzip2":
            import bz2

            stream = cast(IO[bytes], bz2.open(path, "rb"))  # noqa: SIM115
        else:
            import lzma

            stream = cast(IO[bytes], lzma.open(path, "rb"))  # noqa: SIM115
    return cast(IO[bytes], io.BufferedReader(_Decompressed(stream, kind, os.fspath(path))))


def is_compressed(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is compressed (``False`` for one that cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return compression_of(handle.read(6)) is not None
    except OSError:
        return False


def first_line_ahead(lines: Iterable[str]) -> tuple[str | None, Iterator[str]]:
    """The first non-blank line of ``lines`` (``None`` if there is none), read ahead,
    and the lines again, all of them, to read from the start: what tells JSON Lines
    from record text."""
    it = iter(lines)
    head: list[str] = []
    for line in it:
        head.append(line)
        if line.strip():
            return line, itertools.chain(head, it)
    return None, iter(head)


def replace_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` at once: into a new file beside it, then renamed over
    it, so that a reader sees the old file or the new one, never a part.  The new
    file gets the mode a plain ``open()`` would give (``mkstemp``'s 0600 is for
    secrets).  The temporary file is removed if anything fails."""
    import tempfile  # only writers need it (start-up)

    folder, name = os.path.split(os.fspath(path))
    fd, temp = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        with open(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
