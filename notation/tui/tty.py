"""Running the app on the user's terminal, whatever standard input and error are.

Textual reads keys from file descriptor 0 and draws on descriptor 2 (standard
error).  ``cat games.txt | notation replay -`` has the records on standard input,
read to the end by now; ``notation replay games.txt 2>log`` sends standard error to
a file.  For as long as the app runs, descriptor 0 is the terminal itself
(``/dev/tty``) if it was not a terminal, and descriptor 2 is standard output (a
terminal: the command checked) if it was not; both are put back afterwards,
however the app ends.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["NoTerminal", "hold_standard_descriptors", "terminal_descriptors"]


class NoTerminal(Exception):
    """There is no terminal to read keys from."""


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def hold_standard_descriptors() -> None:
    """Open /dev/null on descriptors 0, 1 and 2 where they are closed (``<&-``).

    Else the next file opened gets the lowest free number, 0 say, and putting the
    terminal on 0 for Textual would put it under that file too.  Call it before
    opening any file.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, os.O_RDWR)
            if held != fd:  # a lower one was free too: it is held by now, move on
                os.dup2(held, fd)
                os.close(held)


@contextlib.contextmanager
def terminal_descriptors() -> Iterator[None]:
    """Descriptors 0 and 2 on the terminal while the block runs (see the module)."""
    saved: dict[int, int | None] = {}
    stdin_object = sys.__stdin__
    try:
        if not _is_terminal(0):
            saved[0] = _dup(0)  # before opening: a closed 0 would be the number it gets
            try:
                terminal = os.open("/dev/tty", os.O_RDWR)
            except OSError as exc:
                raise NoTerminal(f"/dev/tty: {exc.strerror or exc}") from None
            if terminal != 0:
                os.dup2(terminal, 0)
                os.close(terminal)
        if not _is_terminal(2):
            saved[2] = _dup(2)
            os.dup2(1, 2)
        if sys.__stdin__ is None:  # standard input was closed (``<&-``): Textual needs one
            # setattr: the stubs call it final; Python lets a program replace it.
            setattr(sys, "__stdin__", open(0, closefd=False))  # noqa: SIM115, B010
        yield
    finally:
        if sys.__stdin__ is not stdin_object and sys.__stdin__ is not None:
            sys.__stdin__.close()
            setattr(sys, "__stdin__", stdin_object)  # noqa: B010
        for fd, copy in saved.items():
            if copy is None:
                os.close(fd)
            else:
                os.dup2(copy, fd)
                os.close(copy)


def _dup(fd: int) -> int | None:
    """A copy of ``fd`` to put back later (None: it was closed)."""
    try:
        return os.dup(fd)
    except OSError:
        return None
