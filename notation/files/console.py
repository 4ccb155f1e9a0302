"""What the command line writes to standard error and reads from standard input,
without click: the commands use these helpers (through
:mod:`notation.commands.common`), and so does the fast path of ``notation check``
(:mod:`notation.cli.check_report`), which starts without importing click.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from notation.files.textfile import decoded_lines, not_utf8_message, open_stream

#: The progress bar is for inputs that take a while (several seconds).
PROGRESS_MIN_BYTES = 8_000_000

#: The ANSI style codes that ``click.echo`` strips from what does not go to a terminal.
_ANSI = r"\033\[[0-?]*[ -/]*[@-~]"


def echo_err(message: str) -> None:
    """Write ``message`` and a line end to standard error and flush it, exactly as
    ``click.echo(message, err=True)`` does: ANSI style codes stripped when standard
    error is not a terminal, UTF-8 where its encoding is misconfigured as ASCII.

    Written to a file (here a string buffer standing for standard error), the bold of a
    warning is taken out:

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     echo_err("\\033[1mwarning:\\033[0m record 2 was skipped")
    >>> err.getvalue()
    'warning: record 2 was skipped\\n'
    """
    stream = sys.stderr
    if stream is None:  # closed: nowhere to write, as click
        return
    text = message + "\n"
    if "\033" in text and not is_terminal(stream):
        import re

        text = re.sub(_ANSI, "", text)
    encoding = getattr(stream, "encoding", None) or "ascii"
    buffer = getattr(stream, "buffer", None)
    if buffer is not None and _is_ascii(encoding):
        # click writes through a UTF-8 wrapper (errors replaced) of the stream's bytes.
        stream.flush()
        buffer.write(text.encode("utf-8", "replace"))
        buffer.flush()
        return
    stream.write(text)
    stream.flush()


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal (not if it is closed, missing or cannot say).

    >>> import io
    >>> is_terminal(io.StringIO()), is_terminal(None)
    (False, False)
    """
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except Exception:  # as click: anything that cannot say is not a terminal
        return False


def _is_ascii(encoding: str) -> bool:
    import codecs

    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False


def warn_not_utf8(name: str) -> None:
    """Tell the user that the source ``name`` was read as Windows-1252, not UTF-8."""
    echo_err(f"warning: {not_utf8_message(name)}")


def stdin_lines() -> Iterator[str]:
    """Standard input read as a file is (see :meth:`notation.commands.common.Source.lines`),
    whatever the locale.

    ``sys.stdin`` decodes with the locale's encoding and, in a UTF-8 locale, raises
    on invalid bytes (or, in the C locale, lets lone surrogates through that cannot
    be written out again).  Its bytes are read instead, and left open: this
    generator may be dropped unfinished (``show --record 2`` stops early) and
    collected at exit, after Python closed standard input, so its cleanup must not
    touch it.
    """
    if sys.stdin is None:  # closed (``notation check - <&-``): an empty input
        return
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # already text without bytes underneath (an embedding program)
        yield from sys.stdin
        return
    # Decompressed if its first bytes say so, as a file is (open_stream leaves it open).
    yield from decoded_lines(open_stream(buffer, "<stdin>"), lambda: warn_not_utf8("<stdin>"))
