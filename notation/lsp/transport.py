"""The server's two pipes, made safe for pygls's reading loop: a message too big is read
past, never held, and a client that stops reading ends the server in one line.

pygls reads a header line at a time and then as many bytes as ``Content-Length`` says,
all at once: a header ``Content-Length: 1000000000000000`` would make it ask for a
petabyte (an out-of-memory exit, every open document lost), and a header line without
an end would be read whole.  :class:`BoundedInput` stands between: a header line is
read :data:`MAX_HEADER` bytes at most, and the body of a message over the limit is read
past in pieces (the message is refused, the next one read as usual); pygls then sees a
header it ignores.  :class:`Output` writes the answers, and when the client has closed
its end it says so on standard error and ends the process (by ``SIGPIPE``, as a writer
to a closed pipe ends): there is no one left to answer, and pygls would otherwise log
each answer it could not send, traceback and all.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import sys
from collections.abc import Callable
from typing import BinaryIO

__all__ = ["MAX_HEADER", "MAX_MESSAGE", "BoundedInput", "Output"]

#: The biggest message read (bytes of its body): far more than any file of records an
#: editor opens (a 50 MB file, escaped as JSON), far less than a machine's memory.
MAX_MESSAGE = 256 << 20
#: The longest header line read (the protocol's are a few dozen bytes).
MAX_HEADER = 8192
#: The header pygls acts on, as it reads it.  A length of more than 18 digits is over
#: any limit (and int() refuses some thousands of digits).
_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")
#: What pygls is given instead of a header it must not act on (it ignores it).
_IGNORED = b"X-Notation-Refused: 1\r\n"
#: Bytes read at a time when a refused body is read past.
_PIECE = 1 << 16


class BoundedInput:
    """The client's messages, as pygls reads them (``readline``, ``read``), with bounds.

    ``refused(what)`` is called (on the reading thread) with a sentence saying what was
    refused, once for each message or header line refused."""

    def __init__(
        self, stream: BinaryIO, refused: Callable[[str], None], limit: int = MAX_MESSAGE
    ) -> None:
        self.stream = stream
        self.refused = refused
        self.limit = limit
        #: The length of a refused message's body, to read past after its headers.
        self.skip: int | None = None

    def readline(self) -> bytes:
        """The next header line (or the blank line that ends the headers)."""
        line = self.stream.readline(MAX_HEADER)
        if len(line) == MAX_HEADER and not line.endswith(b"\n"):
            while True:  # read to the end of the line, a piece at a time
                rest = self.stream.readline(MAX_HEADER)
                if not rest or rest.endswith(b"\n"):
                    break
            self.refused(f"a header line of more than {MAX_HEADER} bytes")
            return _IGNORED
        found = _LENGTH.fullmatch(line)
        if found is not None:
            digits = found.group(1)
            if len(digits) > 18 or int(digits) > self.limit:
                self.skip = int(digits) if len(digits) <= 18 else -1
                shown = digits.decode() if len(digits) <= 18 else f"a {len(digits)}-digit"
                self.refused(
                    f"a message of {shown} bytes, more than the limit of {self.limit}: "
                    "read past, not handled"
                )
                return _IGNORED
        if self.skip is not None and not line.strip() and not self._read_past(self.skip):
            return b""  # the input ended inside the body
        return line

    def read(self, size: int) -> bytes:
        """The body of a message (``size`` bytes, within the limit)."""
        return self.stream.read(size)

    def _read_past(self, size: int) -> bool:
        """Read ``size`` bytes (-1: all there are) and drop them; whether they were all
        there."""
        self.skip = None
        left = size
        while left:
            piece = self.stream.read(_PIECE if left < 0 else min(left, _PIECE))
            if not piece:
                return False
            if left > 0:
                left -= len(piece)
        return True


class Output:
    """The answers' pipe (a file descriptor), as pygls writes to it (``write``, ``flush``,
    ``close``)."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def write(self, data: bytes) -> None:
        """Write ``data`` whole; if the client closed its end, end the server."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.descriptor, view):]
        except OSError as error:
            if error.errno not in (errno.EPIPE, errno.ECONNRESET, errno.EBADF):
                raise
            _lost()

    def flush(self) -> None:
        """Nothing to do: every write goes straight to the pipe."""

    def close(self) -> None:
        """Close the pipe (at the protocol's ``exit``)."""
        with contextlib.suppress(OSError):  # closed already
            os.close(self.descriptor)


def _lost() -> None:
    """The client stopped reading: say so once, on standard error, and end the process
    at once, as a writer to a closed pipe ends (by ``SIGPIPE``, which Python ignores by
    default): no one is left to answer, the documents are the editor's (none is lost),
    and an orderly exit would wait for the reading thread, blocked on the client."""
    with contextlib.suppress(OSError):  # the editor's log may be gone too
        sys.stderr.write("notation lsp: the client closed the connection; exiting\n")
        sys.stderr.flush()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
