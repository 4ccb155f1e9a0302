"""What every mark on a board means: cells, tokens, notes, the last move's brackets.

The renderers know no game: a legend's words come from the board view
(:attr:`notation.games.view.BoardView.legend`: what each cell role, ``role:label`` token,
``stack:`` sample and ``note`` stands for).  The terminal's legend is a reference
for the whole game, so it lists every token and note the game describes, in the
order the game gives them, not only those on the board now.  A game without words
gets the generic legend, built from its view alone: its roles and the labels on
the board.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from notation.games.view import NOTE_KEY, PATH_KEY, PILE, STACK_KEY, BoardView
from notation.render.terminal import (
    ROLE_SYMBOLS,
    BoardDrawing,
    cleaner,
    compact_note,
    ink_on,
    role_symbols,
    terminal_palette,
)

__all__ = ["legend_line", "legend_renderable", "legend_rows"]


def _chip(label: str, role: str, view: BoardView, plain: bool) -> Text:
    colour = view.palette.get(role) if role else None
    if plain or not colour:
        return Text(label, style="bold")
    return Text(label, style=Style(bgcolor=colour, color=ink_on(colour), bold=True))


def legend_rows(view: BoardView) -> list[tuple[str, str, str]]:
    """The rows of the legend below the cells: (sample, role of its colour or "",
    meaning), from the view's words; for a game without words, the labels on the board."""
    words: Mapping[str, str] = view.legend
    rows: list[tuple[str, str, str]] = []
    described: set[str] = set()  # token roles the words give samples of
    has_notes = False
    for key, meaning in words.items():
        role, colon, sample = key.partition(":")
        if not colon or not sample:
            continue
        if role == NOTE_KEY:
            rows.append((sample, "", f"note: {meaning}"))
            has_notes = True
        elif role == STACK_KEY:
            rows.append((sample, "", meaning))
        elif role in view.palette:  # a token of a role this position may show
            rows.append((sample, role, meaning))
            described.add(role)
        else:
            described.add(role)
    if not has_notes and NOTE_KEY in words:
        sample = next((c.note for c in view.cells.values() if c.note), "n")
        rows.append((sample, "", f"note: {words[NOTE_KEY]}"))
    # Tokens on the board the words give no sample of: their label and role's words.
    seen: dict[str, str] = {}
    for cell in view.cells.values():
        for token in cell.tokens:
            if token.role not in described:
                seen.setdefault(token.label or token.role[:1].upper(), token.role)
    for label, role in seen.items():
        rows.append((label, role, words.get(role, role)))
    return rows


def legend_renderable(
    view: BoardView,
    game: str = "",
    drawing: BoardDrawing | None = None,
    *,
    ascii: bool = False,
    plain: bool = False,
) -> RenderableType:
    """Every mark of ``view`` as drawn (``drawing``: compact or not), with its meaning
    in the view's words (``game``, its name, is not needed: the view says it all)."""
    clean = cleaner(ascii)
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    symbols = role_symbols(view)
    roles = sorted(
        {cell.role for cell in view.cells.values() if cell.role != "off"},
        key=lambda role: ROLE_SYMBOLS.find(symbols[role]) if role in symbols else -1,
    )
    palette = terminal_palette(view.palette, roles)
    words = view.legend
    for role in roles:
        mark = Text()
        if not plain and palette.get(role):
            mark.append("##" if ascii else "\u2588\u2588", Style(color=palette[role]))
        mark.append(" " + symbols[role] if role in symbols else "  ")
        table.add_row(mark, Text(clean(words.get(role, role))))
    for label, role, meaning in legend_rows(view):
        table.add_row(_chip(clean(label), role, view, plain), Text(clean(meaning)))
    table.add_row(Text("[ ]", style="bold"), Text("the squares of the last move"))
    if drawing is not None and drawing.compact:
        sample = "R5" if view.token_layout == PILE else "Z4"
        table.add_row(
            Text(sample, style="bold"),
            Text(clean(compact_note(view)) + " (compact board: the full stack is under Square)"),
        )
    if view.links:
        paths = words.get(PATH_KEY, "the paths between zones")
        table.add_row(Text("Paths", style="bold"), Text(clean(f"{paths} (listed under Facts)")))
    return Group(table)


def legend_line(
    view: BoardView, *, notes: bool, names: Mapping[str, str] | None = None
) -> str:
    """The marks of ``view`` a reader cannot guess, in one short line to show by the
    board (the full legend is :func:`legend_renderable`): the symbol of each cell role
    on the board (``# red tomb``), what a stack written short means (``R5``), what the
    number of a cell is where notes are drawn (``notes``), and whose each numbered pawn
    is (``names``: a token's label to a player's name, ``{"1": "Ann"}``)."""
    words = view.legend
    symbols = role_symbols(view)
    parts = [
        f"{symbol} {_short(words.get(role, role))}"
        for role, symbol in sorted(symbols.items(), key=lambda item: ROLE_SYMBOLS.find(item[1]))
    ]
    if view.token_layout == PILE:
        parts.append(compact_note(view))
    if notes and NOTE_KEY in words:
        sample = next(
            (key.partition(":")[2] for key in words if key.startswith(f"{NOTE_KEY}:")), "n"
        )
        parts.append(f"{sample} = {_short(words[NOTE_KEY])}")
    for label, name in (names or {}).items():
        parts.append(f"{label} {name}")
    return "; ".join(parts)


def _short(words: str) -> str:
    """Words of the legend without their article and what follows a colon or a
    bracket: ``"the home row (where pieces enter)"`` -> ``"home row"``."""
    head = words.split(":")[0].split("(")[0].strip()
    for article in ("the ", "a ", "an "):
        if head.startswith(article):
            return head[len(article):]
    return head
