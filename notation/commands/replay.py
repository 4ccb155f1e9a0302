"""``notation replay``: step through a record on a full-screen terminal.

Three parts, so that only the last touches a terminal:

* :func:`handle_key` applies one key to a :class:`~notation.stepper.Stepper` and
  a small :class:`ViewState` (the digits typed so far, whether help is shown);
* :func:`screen` draws the stepper and the state as one rich renderable;
* :func:`run` reads keys in cbreak mode and redraws on rich's alternate screen,
  restoring the terminal however it ends.

When standard output is not a terminal, ``replay`` prints what ``show`` prints.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import sys
import termios
import tty
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

import click
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from notation.commands.common import UsageProblem, select_record
from notation.commands.show import (
    go_to,
    header,
    line_range,
    move_lines,
    move_number,
    open_stepper,
    print_position,
    problem_line,
    record_options,
    to_move,
)
from notation.render.terminal import (
    asciify,
    board_renderable,
    draw_board,
    fits_beside,
    is_plain,
)
from notation.stepper import Stepper

__all__ = ["KEY_HELP", "ViewState", "command", "handle_key", "screen", "split_keys"]

#: The keys, as (keys, what they do), for the help screen and the docs.
KEY_HELP = (
    ("right, n", "next move"),
    ("left, p", "previous move"),
    ("Home, g", "start of the line"),
    ("End, G", "end of the line (or the move that breaks it)"),
    ("N Enter", "go to turn N of the line"),
    ("v, N v", "enter variation 1 (or N) of the last move"),
    ("u", "leave the variation"),
    ("Esc", "clear the number typed"),
    ("?", "show or hide this help and the tags"),
    ("q", "quit"),
)
HELP_LINE = "n/p next/back  g/G start/end  N Enter turn  v/u variation  ? help  q quit"
#: Seconds between checks of the terminal size while no key comes.
RESIZE_POLL = 0.5
#: Seconds to wait for the rest of an escape sequence.
ESCAPE_WAIT = 0.05


@dataclass(slots=True)
class ViewState:
    """What the viewer holds besides the stepper: typed digits, help, a message."""

    buffer: str = ""
    help: bool = False
    message: str = ""


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


# -- the screen -----------------------------------------------------------------------


def move_list(stepper: Stepper, rows: int, ascii: bool = False) -> Text:
    """The current line, a round per row, the last move highlighted, around it ``rows`` rows.

    A move with variations carries ``(+N)``.
    """
    clean = asciify if ascii else _same
    round_size = stepper.position.round_size
    lines: list[Text] = []
    current_row = 0
    current_index = stepper.index - 1
    for i, (turn, node) in enumerate(stepper.line_turns()):
        starts_round = (turn - 1) % round_size == 0
        if not lines or starts_round:
            lines.append(Text(move_number(turn, round_size), style="dim"))
        line = lines[-1]
        line.append(" ")
        line.append(clean(node.written), style="reverse bold" if i == current_index else None)
        if node.variations:
            line.append(f"(+{len(node.variations)})", style="cyan")
        if i == current_index:
            current_row = len(lines) - 1
    if not lines:
        return Text("(no moves)", style="dim")
    top = max(0, min(current_row - rows // 2, len(lines) - rows))
    shown = lines[top : top + rows]
    if top > 0:
        shown[0] = Text("...", style="dim")
    if top + rows < len(lines):
        shown[-1] = Text("...", style="dim")
    return Text("\n").join(shown)


def _same(text: str) -> str:
    return text


def status_line(stepper: Stepper, state: ViewState, ascii: bool = False) -> Text:
    """Where we are, who moves, what can be done here, and the last key's message."""
    first, last = line_range(stepper)
    text = Text(f"{stepper.where()}: turn {stepper.turn} of {first}-{last}", style="bold")
    text.append("   ")
    text.append_text(to_move(stepper, ascii))
    if stepper.variations_here():
        count = len(stepper.variations_here())
        text.append(f"   v: {count} variation{'s' if count > 1 else ''}", style="cyan")
    if stepper.depth:
        text.append("   u: leave the variation", style="cyan")
    if state.buffer:
        text.append(f"   turn {state.buffer}_", style="bold yellow")
    if state.message:
        text.append(f"   {state.message}", style="yellow")
    text.append("   ? help  q quit", style="dim")
    return text


def help_screen(stepper: Stepper, ascii: bool = False) -> RenderableType:
    """The keys, and every tag of the record."""
    clean = asciify if ascii else _same
    keys = Table.grid(padding=(0, 3))
    keys.add_column(style="bold", no_wrap=True)
    keys.add_column()
    for names, meaning in KEY_HELP:
        keys.add_row(names, meaning)
    tags = Table.grid(padding=(0, 3))
    tags.add_column(style="bold", no_wrap=True)
    tags.add_column(overflow="fold")
    for tag in stepper.record.tags:
        tags.add_row(clean(tag.name), clean(tag.value))
    return Group(
        Text("Keys", style="bold underline"), keys, Text(),
        Text("Tags", style="bold underline"), tags, Text("\n? or Esc: back to the board"),
    )


def screen(
    stepper: Stepper, state: ViewState, width: int, height: int, *, ascii: bool = False,
    plain: bool = False,
) -> RenderableType:
    """The whole screen for the current position (``plain``: for a screen without colour)."""
    top: list[RenderableType] = [header(stepper, ascii), status_line(stepper, state, ascii)]
    problem = problem_line(stepper, ascii)
    if problem is not None:
        top.append(problem)
    if state.help:
        return Group(*top, Text(), help_screen(stepper, ascii))
    view = stepper.position.board_view()
    below = Group(move_lines(stepper, ascii), Text(HELP_LINE, style="dim"))
    drawing = draw_board(view, ascii=ascii, plain=plain)
    if fits_beside(drawing, width):
        # The move list goes under the facts: as tall as the board leaves room for, and
        # longer if the screen has rows to spare below everything else.
        title = Text("Moves", style="bold underline")

        def layout(rows: int) -> RenderableType:
            moves = Group(Text(), title, move_list(stepper, rows, ascii))
            board = board_renderable(view, width=width, ascii=ascii, plain=plain, beside=moves)
            return Group(*top, board, below)

        rows = max(3, len(drawing.lines) - len(view.facts) - 2)
        spare = height - _height(layout(rows), width)
        return layout(rows + spare) if spare > 0 else layout(rows)
    above = Group(
        *top,
        board_renderable(view, width=width, ascii=ascii, plain=plain),
        Text("Moves", style="bold underline"),
    )
    # The move list gets the rows the rest leaves (at least a few: rich crops the bottom).
    rows = max(3, height - _height(above, width) - _height(below, width))
    return Group(above, move_list(stepper, rows, ascii), below)


def _height(renderable: RenderableType, width: int) -> int:
    console = Console(file=io.StringIO(), width=width)
    return len(console.render_lines(renderable, console.options, pad=False))


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
