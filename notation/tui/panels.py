"""The texts around the board of ``notation replay`` as rich renderables (status line,
last move, square, facts), from a :class:`~notation.stepper.Stepper`; no Textual here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from notation.games.view import PILE, BoardView
from notation.render.show_text import (
    comments_here,
    glyph_words,
    line_range,
    move_number,
    problem_line,
    to_move,
    variation_list,
)
from notation.render.terminal import BoardDrawing, cell_label, cleaner
from notation.stepper import Stepper

__all__ = [
    "FittedFacts",
    "facts_panel",
    "fitted_facts",
    "move_panel",
    "rule_facts",
    "square_panel",
    "status_text",
]


def status_text(
    stepper: Stepper, *, ascii: bool = False, message: str = "", width: int | None = None
) -> Text:
    """Where we are, who moves, what the arrows can do here, and the last key's message:
    ``main line: turn 15 of 0-85   Red to move   Down: 2 variations``.

    ``width``: the columns there are.  A line that would be longer says the same in
    fewer words (``Down: 2 var.``, ``Up: out``, only the innermost variation and its
    depth, or the depth alone), so that the message, said last, is seen.
    """
    first, last = line_range(stepper)
    count = len(stepper.variations_here())
    where = stepper.where()
    innermost = where.split(", in ", 1)[0] + (
        f" (depth {stepper.cursor.depth})" if stepper.cursor.depth > 1 else ""
    )
    plural = "s" if count > 1 else ""
    short = f"depth {stepper.cursor.depth}" if stepper.cursor.depth else where
    forms = [
        (where, f"Down: {count} variation{plural}", "Up: leave the variation", "   "),
        (where, f"Down: {count} var.", "Up: out", "   "),
        (innermost, f"Down: {count} var.", "Up: out", "   "),
        (short, f"Down: {count} var.", "Up: out", "  "),
    ]
    text = Text()
    for place, down, up, gap in forms:
        text = Text(f"{place}: turn {stepper.cursor.turn} of {first}-{last}", style="bold")
        text.append(gap)
        text.append_text(to_move(stepper, ascii))
        if count:
            text.append(f"{gap}{down}", style="cyan")
        if stepper.cursor.depth:
            text.append(f"{gap}{up}", style="cyan")
        if message:
            text.append(f"{gap}{message}", style="bold yellow")
        if width is None or text.cell_len <= width:
            break
    else:
        if width is not None:
            text.truncate(width)
    return text


def rule_facts(stepper: Stepper) -> list[tuple[str, str]]:
    """What the rules say the last move did (``Position.last_move_facts``), as words."""
    try:
        facts = stepper.cursor.position.last_move_facts()
    except Exception:  # a game's description must never break the viewer
        return []
    return [(key.replace("_", " "), _value(value)) for key, value in facts.items()]


def _value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list | tuple):
        return " ".join(_value(v) for v in value) or "-"
    return str(value)


def move_panel(stepper: Stepper, *, ascii: bool = False) -> RenderableType:
    """The last move and all that is said of it; at a line's start, what comes next."""
    clean = cleaner(ascii)
    parts: list[RenderableType] = []
    node = stepper.cursor.last_node
    round_size = stepper.cursor.position.round_size
    if node is None:
        following = stepper.cursor.next_node
        line = Text("Start of the line", style="bold")
        if following is not None:
            line.append(clean(f"; next: {move_number(stepper.cursor.turn + 1, round_size)} "))
            line.append(clean(following.written))
        parts.append(line)
    else:
        view = stepper.cursor.position.board_view()
        # The caption names the move as a rule: "2. f1,b4: White placed...".  Where it
        # does not, the move comes first, numbered.
        line = Text(style="bold")
        if node.written not in view.caption:
            line.append(clean(f"{move_number(stepper.cursor.turn, round_size)} {node.written}  "))
        line.append(clean(view.caption))
        glyphs = glyph_words(node)
        if glyphs:
            line.append(clean(f"  ({glyphs})"), style="italic")
        parts.append(line)
    for comment in comments_here(stepper):
        parts.append(Text(clean("{" + " ".join(comment.text.split()) + "}"), style="green"))
    variations = stepper.variations_here()
    if variations:
        text = Text(
            f"{len(variations)} variation{'s' if len(variations) > 1 else ''} instead "
            "(Down, or 1-9): ",
            style="cyan",
        )
        text.append(clean(variation_list(stepper)))
        parts.append(text)
    problem = problem_line(stepper, ascii)
    if problem is not None:
        parts.append(problem)
    return Group(*parts)


def square_panel(
    view: BoardView, square: str | None, drawing: BoardDrawing | None, *, ascii: bool = False
) -> RenderableType:
    """The chosen square in full (stack bottom to top, role, note, and the detail the
    game gives, such as a hidden piece's odds); on a compact board,
    every stack that is written short."""
    clean = cleaner(ascii)
    parts: list[RenderableType] = []
    if square is not None and square in view.cells:
        cell = view.cell(square)
        label = cell_label(cell)
        text = Text("Square ", style="bold")
        text.append(clean(square), style="bold")
        order = ", bottom to top" if view.token_layout == PILE and len(cell.tokens) > 1 else ""
        if label:
            text.append(clean(f"  {label}  ({len(cell.tokens)}{order})"))
        else:
            text.append("  empty")
        text.append(clean(f"  {cell.role}"), style="dim")
        if cell.note:
            text.append(clean(f"  note {cell.note}"), style="dim")
        parts.append(text)
        if cell.detail:  # what the game says more of it: a hidden piece's odds...
            parts.append(Text(clean(cell.detail)))
    else:
        parts.append(Text("Square: click one to see it here", style="dim"))
    if drawing is not None and drawing.shortened:
        text = Text("Written short: ", style="bold")
        text.append(clean(", ".join(f"{s} {full}" for s, full in drawing.shortened.items())))
        parts.append(text)
    return Group(*parts)


@dataclass(frozen=True, slots=True)
class FittedFacts:
    """Labelled facts as a rich renderable for a narrow panel: label and value side by
    side where the pair fits the width it is drawn in, else the value on its own lines
    under its label, indented, so that it wraps whole words of its own (never
    ``Red 5, Black`` with the ``5`` under the labels)."""

    facts: tuple[tuple[str, str], ...]

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[Text | Padding]:
        labels = max((len(label) for label, _ in self.facts), default=0)
        for label, value in self.facts:
            if labels + 2 + len(value) <= options.max_width:
                line = Text(label.ljust(labels), style="bold")
                line.append("  " + value)
                yield line
            else:
                yield Text(label, style="bold")
                yield Padding(Text(value), (0, 0, 0, 2))


def fitted_facts(facts: Sequence[tuple[str, str]], *, ascii: bool = False) -> FittedFacts:
    """:class:`FittedFacts` of ``facts``, in ASCII with ``ascii``."""
    clean = cleaner(ascii)
    return FittedFacts(tuple((clean(label), clean(value)) for label, value in facts))


def facts_panel(stepper: Stepper, view: BoardView, *, ascii: bool = False) -> RenderableType:
    """The position's facts, what the rules say the last move did, and the paths
    between zones if the board has them."""
    clean = cleaner(ascii)
    parts: list[RenderableType] = [fitted_facts(view.facts, ascii=ascii)]
    facts = rule_facts(stepper) if stepper.cursor.last_node is not None else []
    if facts:
        text = Text("Last move: ", style="bold")
        for i, (key, value) in enumerate(facts):
            text.append("; " if i else "")
            text.append(clean(key), style="dim")
            text.append(" " + clean(value))
        parts.append(text)
    if view.links:
        joined = ", ".join(f"{a}-{b}" for a, b in view.links)
        parts.append(Text(clean(f"Paths: {joined}"), style="dim"))
    return Group(*parts)


def grid(rows: list[tuple[str, str]]) -> Table:
    """Two columns of text, the first bold."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for left, right in rows:
        table.add_row(left, right)
    return table
