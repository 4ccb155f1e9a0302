"""The text ``notation show`` prints for a position of a record, as a string: what an
editor shows on hovering over a move (the position after it), with the facts of that
move as the game gives them (``Position.last_move_facts``).

The picture is the command's own (:func:`notation.render.show_text.show_renderable` on a
plain console of :data:`notation.render.terminal.PLAIN_WIDTH` columns), so it is what
``notation show FILE --record N --turn T | cat`` prints, whatever the terminal, its
width or the locale.  :func:`position_brief` is the same position made small enough for
an editor's hover (:data:`HOVER_WIDTH` columns at most, and the board's rows without
their note lines), since a hover is a window inside an editor's window.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from notation.errors import NotationException
from notation.games.view import PILE
from notation.record import MoveNode, Record
from notation.render.show_text import problem_line, show_renderable, turn_line
from notation.render.terminal import (
    PLAIN_WIDTH,
    draw_board,
    emit,
    legend,
    make_console,
    stack_lines,
)
from notation.stepper import Stepper

__all__ = [
    "HOVER_WIDTH",
    "brief_text",
    "facts_text",
    "position_after",
    "position_brief",
    "stepper_text",
]

#: The widest line of a hover: an editor's window of 80 columns, less the hover's
#: border and padding.
HOVER_WIDTH = 72


def stepper_text(stepper: Stepper, *, width: int = PLAIN_WIDTH, ascii: bool = False) -> str:
    """What ``notation show`` prints, piped, for the stepper's position."""
    out = io.StringIO()
    console = make_console(out, width=width, plain=True)
    emit(console, show_renderable(stepper, width=width, ascii=ascii, plain=True))
    return out.getvalue()


def facts_text(facts: dict[str, Any]) -> str:
    """A move's facts (``Position.last_move_facts``) as lines ``key: value``, the empty and
    false ones left out.

    >>> print(facts_text({"side": "red", "reserve_left": 5, "captured": None}))
    side: red
    reserve left: 5
    """
    lines = []
    for key, value in facts.items():
        if value in (None, False, "", {}, []):
            continue
        shown = value
        if isinstance(value, dict):
            shown = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"{key.replace('_', ' ')}: {shown}")
    return "\n".join(lines)


def position_after(
    record: Record, node: MoveNode | None, default_game: str | None = None
) -> tuple[str, str] | None:
    """The position after ``node`` (None: the record's start), as ``notation show`` draws
    it, and the facts of ``node``'s move; where a move on the way cannot be played, the
    position before it, with why (the picture ends with the reason).  None for a record
    whose game cannot start (no game, a bad setup tag)."""
    stepped = _stepped_to(record, node, default_game)
    return None if stepped is None else (stepper_text(stepped[0]), stepped[1])


def _stepped_to(
    record: Record, node: MoveNode | None, default_game: str | None
) -> tuple[Stepper, str] | None:
    """A stepper of ``record`` after ``node`` (or as far as it plays), and the facts of
    ``node``'s move; None for a record whose game cannot start."""
    try:
        stepper = Stepper(record, default_game=default_game)
    except NotationException:
        return None
    facts = ""
    if node is not None and stepper.goto_node(node):
        facts = facts_text(stepper.cursor.position.last_move_facts())
    return stepper, facts


def brief_text(stepper: Stepper, *, width: int = HOVER_WIDTH) -> str:
    """The stepper's position in ``width`` columns at most, for a hover: the turn line,
    the board drawn compact with one line a row (no note lines), the stacks it writes
    short in full, the legend of its symbols, the last move's caption, the facts of the
    side panel as one paragraph, and what stopped the replay, if anything."""
    view = stepper.cursor.position.board_view()
    drawing = draw_board(view, plain=True, compact=True, notes=False)
    board = Text("\n").join(drawing.lines)
    board.no_wrap = True
    board.overflow = "crop"  # no board of the games is wider; a wider one is cut, not folded
    parts: list[RenderableType] = [turn_line(stepper), board]
    if drawing.shortened:
        stacks = stack_lines(view, drawing.shortened)
        order = ", bottom to top" if view.token_layout == PILE else ""
        parts.append(Text(f"In full{order}: " + ", ".join(
            f"{square} {label}" for square, label in stacks
        )))
    key = legend(view, plain=True)
    if key is not None:
        parts.append(key)
    if view.caption:
        parts.append(Text(view.caption))
    if view.facts:
        parts.append(Text("; ".join(f"{name}: {value}" for name, value in view.facts)))
    problem = problem_line(stepper)
    if problem is not None:
        parts.append(problem)
    # Not make_console's plain console: piped output keeps each line whole (soft wrap),
    # and a hover must fit its width.
    console = Console(
        file=io.StringIO(), width=width, no_color=True, color_system=None,
        force_terminal=False, highlight=False, markup=False, emoji=False, soft_wrap=False,
    )
    with console.capture() as capture:
        console.print(Group(*parts))
    return "".join(f"{line.rstrip()}\n" for line in capture.get().splitlines())


def position_brief(
    record: Record, node: MoveNode | None, default_game: str | None = None,
    *, width: int = HOVER_WIDTH,
) -> tuple[str, str] | None:
    """:func:`position_after`, the picture drawn by :func:`brief_text` (for a hover).

    Hovering over Red's ``b1-c1``: the turn line and the board after it (Red's piece on
    c1, its class not shown yet), then the move's facts:

    >>> import notation
    >>> (record,) = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 2. b1-c1 *\\n')
    >>> picture, facts = position_brief(record, record.moves[2])
    >>> print("\\n".join(picture.splitlines()[:13]))
    Turn 3 (main line, turns 0-3)   Black to move
      ┌────┬────┬────┬────┐
    5 │   %│ b?%│   %│   %│
      ├────┼────┼────┼────┤
    4 │    │    │    │    │
      ├────┼────┼────┼────┤
    3 │    │    │    │    │
      ├────┼────┼────┼────┤
    2 │    │    │    │    │
      ├────┼────┼────┼────┤
    1 │   #│[  ]│[r?]│   #│
      └────┴────┴────┴────┘
        a    b    c    d
    >>> print(facts)
    side: red
    team size: 1
    """
    stepped = _stepped_to(record, node, default_game)
    return None if stepped is None else (brief_text(stepped[0], width=width), stepped[1])
