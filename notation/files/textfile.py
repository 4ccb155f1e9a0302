"""Reading record text: UTF-8, or Windows-1252 for what is not, with line ends kept.

Every line that is not valid UTF-8 is read as Windows-1252 (its five undefined bytes
as Latin-1, so that no byte is lost) rather than with replacement characters, and
whoever reads is told once per source (``on_fallback``; the library's
:func:`~notation.reader.read_file` issues a :class:`NotUTF8Warning`).  Deciding line
by line reads a file in one encoding as if decoded whole (Windows-1252 text is valid
UTF-8 only where it is ASCII), and a part of a file exactly as within the whole.

Lines keep their line ends untranslated (``\\r\\n``, ``\\r`` or ``\\n``), as
``open(..., newline="")`` gives them; a lone ``\\r`` ends a line.
"""

from __future__ import annotations

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
    "MAX_LINE",
    "LineTooLong",
    "MissingExtra",
    "NotUTF8Warning",
    "compression_of",
    "decode_line",
    "decoded_lines",
    "is_compressed",
    "not_utf8_message",
    "open_binary",
    "open_stream",
]

#: The encoding assumed for text that is not UTF-8, as messages name it.
FALLBACK_ENCODING = "Windows-1252"

#: The longest line read, in bytes (64 MiB): far beyond any record, and what keeps
#: memory bounded on input that is no record file.  A longer one raises :class:`LineTooLong`.
MAX_LINE = 64 << 20


class NotUTF8Warning(UserWarning):
    """Issued by :func:`notation.reader.read_file` for a file that is not valid UTF-8 (its
    lines that are not read as Windows-1252).  Turn it into an error with
    ``warnings.simplefilter("error", NotUTF8Warning)``."""


def not_utf8_message(name: str) -> str:
    """What to tell the user about the source ``name`` (a file name, ``<stdin>``)."""
    from notation.errors import display_path  # the one way messages show a file name

    return f"{display_path(name)} is not UTF-8; read as {FALLBACK_ENCODING}"


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
    r"""One line of bytes as text, and whether it was not UTF-8 (so read as Windows-1252).

    >>> decode_line(b"Jos\xc3\xa9\n"), decode_line(b"Jos\xe9\n")
    (('José\n', False), ('José\n', True))
    """
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("latin-1").translate(_FROM_LATIN_1), True


class _Borrowed(io.BufferedIOBase):
    """A binary stream lent to a TextIOWrapper, which closes it when done or collected:
    closing this view leaves the stream itself open."""

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
    r"""The lines of a binary stream as text, line ends kept; the stream is left open.

    ``on_fallback`` is called once, at the first line that is not UTF-8 (from a file,
    when the block of lines holding it is read).

    >>> import io
    >>> data = b'[Event "Jos\xe9"]\r\n\r\n1. b1 *\n'
    >>> list(decoded_lines(io.BytesIO(data), lambda: print("not UTF-8")))
    not UTF-8
    ['[Event "José"]\r\n', '\r\n', '1. b1 *\n']
    """
    # surrogateescape keeps every byte that is not UTF-8 as a lone surrogate, which
    # valid UTF-8 never gives: such a line is turned back into its exact bytes and
    # decoded again.  newline="" splits at \n, \r\n and a lone \r, translating none.
    text = io.TextIOWrapper(
        _Borrowed(stream), encoding="utf-8", errors="surrogateescape", newline=""
    )
    if _is_file(stream):
        # Blocks of lines, chained; not from a pipe, whose reader would wait for a block
        # before the first record is checked.
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
    """A file that needs an optional package to be read (``.zst`` needs zstandard): an
    ``OSError`` whose message says what to install."""


def compression_of(head: bytes) -> str | None:
    """The compression a file beginning with ``head`` uses (``"gzip"``...), or ``None``.

    >>> import gzip
    >>> compression_of(gzip.compress(b"1. b1 *\\n")), compression_of(b"1. b1 *\\n")
    ('gzip', None)
    """
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
    return None


class LineTooLong(OSError):
    """A line longer than :data:`MAX_LINE` bytes (``/dev/zero``, a compressed bomb): an
    ``OSError`` naming the file (``filename``); its ``line`` is that line's number."""

    def __init__(self, line: int, name: str) -> None:
        super().__init__(
            errno.EFBIG,
            f"line {line} is longer than {MAX_LINE >> 20} MiB, the most a line may hold "
            f"(is this a file of records?)",
            name,
        )
        self.line = line

    def __reduce__(self) -> tuple[Any, ...]:  # sent from a worker process whole
        return (type(self), (self.line, self.filename))


class _Source(io.RawIOBase):
    """The bytes of a source as they are read, from a file or a decompressing stream,
    with a bound on the length of a line.

    Line ends are counted as the bytes pass: more than :data:`MAX_LINE` bytes without
    one raise :class:`LineTooLong` with its line number.  A decompressor's failures
    (``EOFError``, ``zlib.error``, ``lzma.LZMAError``...) become ``OSError``\\ s naming
    the source: a file that cannot be read, not a traceback.
    """

    def __init__(
        self,
        stream: IO[bytes],
        kind: str | None,
        name: str,
        owned: tuple[IO[bytes], ...],
        path: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__()
        self._stream = stream
        self._kind = kind  # the compression, or None
        self._name = name
        self._owned = owned  # closed with this stream
        self._path = path  # a file read again for a line number after a seek
        read1: Callable[[int], bytes] | None = getattr(stream, "read1", None)
        # read1, where there is one: what a pipe has now, not a full buffer's worth.
        self._read: Callable[[int], bytes] = read1 if read1 is not None else stream.read
        self._position = 0  # bytes given so far (the offset in the source)
        self._ends = 0  # line ends among them; -1: not known (after a seek)
        self._run = 0  # bytes since the last line end
        self._after_cr = False  # the last byte given was a \r

    @property
    def name(self) -> str:  # shown in reprs
        return self._name

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._kind is None and self._stream.seekable()

    def fileno(self) -> int:
        if self._kind is not None:
            raise io.UnsupportedOperation("a decompressed stream has no file descriptor")
        return self._stream.fileno()

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if not self.seekable():
            raise io.UnsupportedOperation("a decompressed stream cannot seek")
        self._position = self._stream.seek(offset, whence)
        self._ends = 0 if self._position == 0 else -1
        self._run = 0
        self._after_cr = False
        return self._position

    def readinto(self, buffer: Any) -> int:
        # At most _READ bytes: the lines within them are then all shorter than the bound.
        size = min(len(buffer), _READ)
        if self._kind is None:
            data = self._read(size)
        else:
            try:
                data = self._read(size)
            except OSError as exc:
                if exc.filename is None:
                    raise OSError(exc.errno or errno.EIO, self._damaged(exc), self._name) from None
                raise
            except MemoryError:  # no fault of the data: the command says so
                raise
            except Exception as exc:  # each decompressor has its own error classes
                raise OSError(errno.EIO, self._damaged(exc), self._name) from None
        if data:
            self._count(data)
        buffer[: len(data)] = data
        return len(data)

    def _count(self, data: bytes) -> None:
        """Count the line ends of ``data``, the next bytes given, and raise
        :class:`LineTooLong` if a line has grown over the bound."""
        carriage = data.count(b"\r")
        ends = data.count(b"\n")
        if carriage:
            ends += carriage - data.count(b"\r\n")
            first = min(at for at in (data.find(b"\n"), data.find(b"\r")) if at >= 0)
            last = max(data.rfind(b"\n"), data.rfind(b"\r"))
        else:
            first = data.find(b"\n") if ends else -1
            last = data.rfind(b"\n") if ends else -1
        # The line that runs on from the bytes before (the lines after it in data are
        # shorter than data, which is shorter than the bound).
        if self._run + (len(data) if first < 0 else first) > MAX_LINE:
            raise LineTooLong(self._line_at(self._position - self._run), self._name)
        if self._after_cr and data[:1] == b"\n":
            ends -= 1  # the \n of a \r\n cut between two reads: the \r counted it
        self._after_cr = data[-1:] == b"\r"
        self._run = self._run + len(data) if last < 0 else len(data) - 1 - last
        self._position += len(data)
        if self._ends >= 0:
            self._ends += ends

    def _line_at(self, start: int) -> int:
        """The number of the line that begins at byte ``start``, the last line end given."""
        if self._ends >= 0:
            return self._ends + 1
        assert self._path is not None  # only a file seeks
        counted = 0
        after_cr = False
        with open(self._path, "rb") as again:
            while start > 0:
                block = again.read(min(start, 1 << 20))
                if not block:
                    break
                start -= len(block)
                counted += block.count(b"\n") + block.count(b"\r") - block.count(b"\r\n")
                if after_cr and block[:1] == b"\n":
                    counted -= 1
                after_cr = block[-1:] == b"\r"
        return counted + 1

    def _damaged(self, exc: BaseException) -> str:
        detail = str(exc) or type(exc).__name__
        return f"the {self._kind} data is damaged or cut short ({detail})"

    def close(self) -> None:
        if not self.closed:
            for stream in self._owned:
                stream.close()
        super().close()


class _Passing(io.RawIOBase):
    """A binary stream without ``peek`` as a raw stream, so that a buffer over it can
    peek: a stream such as ``io.BytesIO`` given for standard input."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__()
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        read1: Callable[[int], bytes] | None = getattr(self._stream, "read1", None)
        data = read1(len(buffer)) if read1 is not None else self._stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _ZstdFrames:
    """The compressed bytes of a zstd stream as the decompressor reads them, walked
    through frame by frame (RFC 8878, section 3.1: headers only), so that data that ends
    inside a frame is damaged: ``zstandard``'s reader takes it for the end.
    """

    _FRAME = 0xFD2FB528
    _SKIPPABLE = 0x184D2A50  # the last four bits are free

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._state = "magic"  # what the next header is: magic, descriptor, block, size
        self._need = 4  # its length
        self._head = b""  # its bytes so far
        self._skip = 0  # bytes to pass over first (header fields, block contents)
        self._checksum = False  # the frame ends with a 4-byte checksum

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        if data:
            self._walk(data)
        elif self._state != "lost" and (self._state != "magic" or self._head or self._skip):
            raise EOFError("the data ends inside a frame")
        return data

    def _walk(self, data: bytes) -> None:
        pos = 0
        while pos < len(data) and self._state != "lost":
            if self._skip:
                taken = min(self._skip, len(data) - pos)
                self._skip -= taken
                pos += taken
                continue
            piece = data[pos : pos + self._need - len(self._head)]
            pos += len(piece)
            self._head += piece
            if len(self._head) == self._need:
                head, self._head = self._head, b""
                self._header(int.from_bytes(head, "little"))

    def _header(self, value: int) -> None:
        state = self._state
        if state == "magic":
            if value == self._FRAME:
                self._state, self._need = "descriptor", 1
            elif value & ~0xF == self._SKIPPABLE:
                self._state, self._need = "size", 4
            else:  # not zstd: the decompressor says so
                self._state = "lost"
        elif state == "size":  # of a skippable frame
            self._skip = value
            self._state, self._need = "magic", 4
        elif state == "descriptor":
            single = value >> 5 & 1
            self._checksum = bool(value >> 2 & 1)
            self._skip = (
                (0 if single else 1)  # the window descriptor
                + (0, 1, 2, 4)[value & 3]  # the dictionary id
                + (single, 2, 4, 8)[value >> 6]  # the frame content size
            )
            self._state, self._need = "block", 3
        else:  # a block header: last block, type, size
            kind = value >> 1 & 3
            if kind == 3:
                self._state = "lost"  # reserved: the decompressor says so
                return
            self._skip = 1 if kind == 1 else value >> 3  # an RLE block holds one byte
            if value & 1:
                self._skip += 4 if self._checksum else 0
                self._state, self._need = "magic", 4


def _decompressing(stream: IO[bytes], kind: str, name: str) -> IO[bytes]:
    """A stream of the decompressed bytes of ``stream``, which it leaves open."""
    if kind == "zstd":
        try:
            import zstandard  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise MissingExtra(
                errno.EIO,
                "a zstd file needs the zstandard package: pip install 'undead-notation[zstd]'",
                name,
            ) from None
        return cast(
            IO[bytes],
            zstandard.ZstdDecompressor().stream_reader(
                cast(IO[bytes], _ZstdFrames(stream)), read_across_frames=True, closefd=False
            ),
        )
    if kind == "gzip":
        import gzip

        return cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
    if kind == "bzip2":
        import bz2

        return cast(IO[bytes], bz2.BZ2File(stream, "rb"))
    import lzma

    return cast(IO[bytes], lzma.LZMAFile(stream, "rb"))


#: Bytes read from a source at once.
_READ = 1 << 16


def _reading(
    stream: IO[bytes], name: str, *, owned: bool, path: str | os.PathLike[str] | None = None
) -> IO[bytes]:
    """The bytes of ``stream`` (see :func:`open_binary`); closing them closes ``stream``
    if ``owned``."""
    peekable = stream if callable(getattr(stream, "peek", None)) else cast(
        IO[bytes], io.BufferedReader(_Passing(stream))
    )
    # peek, not read and seek: the stream may be a pipe
    peek: Callable[[int], bytes] = peekable.peek  # type: ignore[attr-defined]
    kind = compression_of(peek(6)[:6])
    inner = peekable if kind is None else _decompressing(peekable, kind, name)
    closed = ((inner,) if kind is not None else ()) + ((stream,) if owned else ())
    source = _Source(inner, kind, name, closed, path if kind is None else None)
    return cast(IO[bytes], io.BufferedReader(source, _READ))


def open_binary(path: str | os.PathLike[str]) -> IO[bytes]:
    """The bytes of the file at ``path``, decompressed if it is gzip, bzip2, xz or zstd
    (zstd with the optional ``zstandard`` package: ``pip install 'undead-notation[zstd]'``);
    closing the stream closes the file.

    Raises ``OSError`` for a file that cannot be read (damaged compressed data too, and
    :class:`LineTooLong`), :class:`MissingExtra` for one that needs a missing package.
    """
    handle = open(path, "rb")  # noqa: SIM115 - returned to the caller, or closed here
    try:
        return _reading(handle, os.fspath(path), owned=True, path=path)
    except BaseException:
        handle.close()
        raise


def open_stream(stream: IO[bytes], name: str) -> IO[bytes]:
    """The bytes of an open binary stream (standard input's), read as :func:`open_binary`
    reads a file's, errors naming ``name``; closing it leaves ``stream`` open.  The first
    bytes are looked at (and waited for, on a pipe) here.

    Compressed bytes come out decompressed, as from a compressed file:

    >>> import gzip, io
    >>> piped = io.BytesIO(gzip.compress(b'[Game "cave"]\\n\\n1. b1 b5 *\\n'))
    >>> open_stream(piped, "<stdin>").read()
    b'[Game "cave"]\\n\\n1. b1 b5 *\\n'
    """
    return _reading(stream, name, owned=False)


def is_compressed(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is compressed (``False`` for one that cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return compression_of(handle.read(6)) is not None
    except OSError:
        return False


def first_line_ahead(lines: Iterable[str]) -> tuple[str | None, Iterator[str]]:
    """The first non-blank line of ``lines`` (``None`` if there is none), read ahead,
    and all the lines again, from the start: what tells JSON Lines from record text.
    The blank lines before it come again as as many ``"\\n"`` (never all held)."""
    it = iter(lines)
    blank = 0
    for line in it:
        if not isinstance(line, str):
            from notation.errors import misuse

            misuse(f"line {blank + 1}", "text", line)
        if line.strip():
            return line, itertools.chain(itertools.repeat("\n", blank), (line,), it)
        blank += 1
    return None, itertools.repeat("\n", blank)

