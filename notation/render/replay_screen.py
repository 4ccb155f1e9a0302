"""The screen of ``notation replay``: the position's text (:mod:`notation.render.show_text`)
around the board, the moves of the current line beside or under it, a status line,
and the help screen; drawn from a :class:`~notation.stepper.Stepper` and the
viewer's :class:`ViewState`, with no terminal in it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from notation.render.show_text import (
    header,
    line_range,
    move_lines,
    move_number,
    problem_line,
    to_move,
)
from notation.render.terminal import (
    asciify,
    board_renderable,
    draw_board,
    fits_beside,
)
from notation.stepper import Stepper
from notation.walk import expected_number

__all__ = [
    "HELP_LINE",
    "KEY_HELP",
    "ViewState",
    "help_screen",
    "move_list",
    "screen",
    "status_line",
]

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


@dataclass(slots=True)
class ViewState:
    """What the viewer holds besides the stepper: typed digits, help, a message."""

    buffer: str = ""
    help: bool = False
    message: str = ""


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
        if not lines or expected_number(turn, round_size)[1]:  # a round's first turn
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
