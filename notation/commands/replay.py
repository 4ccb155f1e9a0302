"""``notation replay``: step through a record on a full-screen terminal.

Three parts, so that only the last touches a terminal:

* :func:`handle_key` applies one key to a :class:`~notation.stepper.Stepper` and
  a small :class:`~notation.render.replay_screen.ViewState` (the digits typed so
  far, whether help is shown);
* :func:`notation.render.replay_screen.screen` draws the stepper and the state as
  one rich renderable;
* :func:`run` reads keys in cbreak mode and redraws on rich's alternate screen,
  restoring the terminal however it ends.

When standard output is not a terminal, ``replay`` prints what ``show`` prints.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import tty
from collections.abc import Iterator
from typing import TextIO

import click
from rich.console import Console

from notation.commands.common import (
    UsageProblem,
    go_to,
    open_stepper,
    print_position,
    record_options,
    select_record,
)
from notation.render.replay_screen import ViewState, screen
from notation.render.show_text import line_range
from notation.render.terminal import is_plain
from notation.stepper import Stepper

__all__ = ["ViewState", "command", "handle_key", "screen", "split_keys"]

#: Seconds between checks of the terminal size while no key comes.
RESIZE_POLL = 0.5
#: Seconds to wait for the rest of an escape sequence.
ESCAPE_WAIT = 0.05


# -- keys --------------------------------------------------------------------------

_SEQUENCES = {
    "[A": "up", "[B": "down", "[C": "right", "[D": "left",
    "[H": "home", "[F": "end", "[1~": "home", "[7~": "home", "[4~": "end", "[8~": "end",
    "OA": "up", "OB": "down", "OC": "right", "OD": "left", "OH": "home", "OF": "end",
}
_CONTROLS = {
    "\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace",
    "\x03": "ctrl-c", "\x04": "ctrl-d", "\t": "tab",
}


def split_keys(data: bytes) -> tuple[list[str], bytes]:
    """Bytes read from a terminal as key names, and an unfinished escape sequence left over.

    Printable keys are themselves ("n", "G", "7"); others have names: ``right``,
    ``left``, ``home``, ``end``, ``up``, ``down``, ``enter``, ``backspace``,
    ``escape``, ``ctrl-c``.  Unknown escape sequences become ``unknown``.
    """
    text = data.decode("utf-8", errors="replace")
    keys: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char != "\x1b":
            keys.append(_CONTROLS.get(char, char))
            i += 1
            continue
        if i + 1 == len(text):
            return keys, text[i:].encode()  # perhaps the start of a sequence: wait for more
        end = _sequence_end(text, i + 1)
        if end is None:
            return keys, text[i:].encode()
        if end == i + 1:  # ESC followed by an ordinary key: a lone Escape, then that key
            keys.append("escape")
            i += 1
            continue
        keys.append(_SEQUENCES.get(text[i + 1 : end], "unknown"))
        i = end
    return keys, b""


def _sequence_end(text: str, start: int) -> int | None:
    """Where the escape sequence whose body starts at ``start`` ends (None: unfinished)."""
    if text[start] == "O":
        return start + 2 if start + 1 < len(text) else None
    if text[start] != "[":
        return start
    for j in range(start + 1, len(text)):
        if "@" <= text[j] <= "~":  # a CSI sequence ends with a byte in this range
            return j + 1
    return None


# -- what keys do ---------------------------------------------------------------------


def handle_key(stepper: Stepper, key: str, state: ViewState) -> bool:
    """Apply ``key`` to the stepper; False when the viewer should quit."""
    state.message = ""
    if key in ("q", "ctrl-c", "ctrl-d"):
        return False
    if len(key) == 1 and key.isdigit():
        state.buffer += key
        return True
    if key == "backspace":
        state.buffer = state.buffer[:-1]
        return True
    typed, state.buffer = state.buffer, ""
    if key == "?":
        state.help = not state.help
        return True
    state.help = False
    if key == "escape":
        return True
    action = _ACTIONS.get(key)
    if action is None:
        state.message = f"no key {key!r}: press ? for help"
        return True
    action(stepper, typed, state)
    return True


def _forward(stepper: Stepper, typed: str, state: ViewState) -> None:
    if not stepper.forward() and stepper.error is None:
        state.message = "end of the line"


def _back(stepper: Stepper, typed: str, state: ViewState) -> None:
    if not stepper.back():
        state.message = "start of the line"


def _start(stepper: Stepper, typed: str, state: ViewState) -> None:
    stepper.to_start()


def _end(stepper: Stepper, typed: str, state: ViewState) -> None:
    stepper.to_end()


def _goto(stepper: Stepper, typed: str, state: ViewState) -> None:
    if not typed:
        state.message = "type a turn number, then Enter"
        return
    first, last = line_range(stepper)
    turn = int(typed)
    if not first <= turn <= last:
        state.message = f"turn {turn} is not on this line (turns {first}-{last})"
        return
    stepper.goto_turn(turn)


def _enter(stepper: Stepper, typed: str, state: ViewState) -> None:
    count = len(stepper.variations_here())
    number = int(typed) if typed else 1
    if not count:
        state.message = "no variation at this move"
    elif not stepper.enter_variation(number):
        state.message = f"no variation {number}: this move has {count}"


def _leave(stepper: Stepper, typed: str, state: ViewState) -> None:
    if not stepper.leave_variation():
        state.message = "already on the main line"


_ACTIONS = {
    "right": _forward, "n": _forward, "down": _forward,
    "left": _back, "p": _back, "up": _back,
    "home": _start, "g": _start,
    "end": _end, "G": _end,
    "enter": _goto,
    "v": _enter,
    "u": _leave,
}


# -- the terminal ------------------------------------------------------------------------


@contextlib.contextmanager
def cbreak(fd: int) -> Iterator[None]:
    """Keys one by one, without echo; the terminal as it was afterwards, whatever happens."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_keys(fd: int, pending: bytes, timeout: float) -> tuple[list[str], bytes]:
    """The keys typed within ``timeout`` seconds (none if nothing came), and leftovers."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return split_keys(pending) if pending else ([], b"")
    data = pending + os.read(fd, 64)
    keys, rest = split_keys(data)
    if rest:  # an escape sequence cut in two: wait a moment for its end
        ready, _, _ = select.select([fd], [], [], ESCAPE_WAIT)
        if ready:
            more, rest = split_keys(rest + os.read(fd, 64))
            keys.extend(more)
        elif rest == b"\x1b":
            keys.append("escape")
            rest = b""
    return keys, rest


def run(stepper: Stepper, key_fd: int, ascii: bool) -> None:
    """The interactive loop: draw, read keys, apply them, until ``q``."""
    console = Console(
        force_terminal=True,
        no_color=bool(os.environ.get("NO_COLOR")),
        highlight=False,
        markup=False,
        emoji=False,
    )
    state = ViewState()
    pending = b""
    plain = is_plain(console)
    with cbreak(key_fd), console.screen(hide_cursor=True) as live:
        size = console.size

        def draw() -> None:
            live.update(screen(stepper, state, size.width, size.height, ascii=ascii, plain=plain))

        try:
            draw()
            while True:
                keys, pending = read_keys(key_fd, pending, RESIZE_POLL)
                if not keys and console.size == size:
                    continue
                if not all(handle_key(stepper, key, state) for key in keys):
                    return
                size = console.size
                draw()
        except KeyboardInterrupt:
            return


def _key_fd(file: str) -> tuple[int, bool]:
    """Where keys come from, and whether that descriptor was opened here (to close).

    Standard input when it is a terminal and not the record; else the terminal itself
    (``cat f | notation replay -``: standard input is the record, spent by now).  No
    terminal to read keys from is a usage error: the user is told, not left with a
    screen that ignores every key.
    """
    if file != "-" and _isatty(sys.stdin):
        return sys.stdin.fileno(), False
    try:
        return os.open("/dev/tty", os.O_RDONLY), True
    except OSError as exc:
        raise UsageProblem(
            f"no terminal to read keys from (/dev/tty: {exc.strerror or exc}); "
            "use `notation show` to print a position"
        ) from None


def _isatty(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal: not if it is closed or missing (``<&-``)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


@click.command("replay")
@record_options
def command(file: str, number: int, turn: int | None, game: str | None, ascii: bool) -> None:
    """Step through a record on the terminal: board, moves, comments, variations.

    Keys: right/n next, left/p back, Home/g start, End/G end, a number then Enter
    to go to that turn, v to enter a variation of the last move (N v: variation N),
    u to leave it, ? help, q quit.  Starts at --turn (default: the start).  When
    standard output is not a terminal, prints what `notation show` prints (default
    turn: the end).
    """
    record = select_record(file, number)
    stepper = open_stepper(record, game)
    if not _isatty(sys.stdout):
        go_to(stepper, turn)
        print_position(stepper, ascii=ascii, position_only=False)
        return
    key_fd, owned = _key_fd(file)
    if turn is not None:
        go_to(stepper, turn)
    try:
        run(stepper, key_fd, ascii)
    except termios.error as exc:
        raise click.ClickException(f"cannot use this terminal: {exc}") from None
    finally:
        if owned:
            os.close(key_fd)
