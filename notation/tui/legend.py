"""What every mark on a board means: cells, tokens, notes, the last move's brackets.

The renderers know no game; a legend needs a few words from each game about its
tokens and corner notes (Cave's ``KZS`` and ``=K``, Tinkertown's capacities).  They
are here, by game name, until the board view carries them itself (games describe
their roles and labels in docs/<game>.md, "Board view"); a game without an entry
gets the generic legend, built from its view alone.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from notation.render.terminal import (
    ROLE_SYMBOLS,
    BoardDrawing,
    asciify,
    compact_note,
    ink_on,
    role_symbols,
    terminal_palette,
)
from notation.view import PILE, BoardView

__all__ = ["ROLES", "TOKENS", "legend_renderable"]

#: What each game's cell roles are.
ROLES: dict[str, dict[str, str]] = {
    "tinkertown": {
        "grave": "a grave",
        "over": "a grave whose group stands above capacity",
        "chapel": "the chapel (no zombie ever stands there)",
        "tombstone": "a tombstone: the grave is closed",
    },
    "cave": {
        "square": "a square",
        "home-red": "Red's home row (Red enters here)",
        "home-black": "Black's home row (Black enters here)",
    },
    "zombie-kidz": {
        "tomb-red": "the red tomb",
        "tomb-yellow": "the yellow tomb",
        "tomb-green": "the green tomb",
        "tomb-black": "the black tomb",
        "tomb-blue": "the blue tomb",
        "gate": "a gate",
        "gate-locked": "a locked gate",
    },
}

#: What each game's token labels and corner notes say: (sample, role or "", meaning).
TOKENS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "tinkertown": (
        ("W", "white", "a white zombie"),
        ("R", "red", "a red zombie"),
        ("WRW", "", "a stack, bottom to top"),
        ("3", "", "note: the grave's capacity (zombies it holds before a capture)"),
    ),
    "cave": (
        ("r?", "red", "a Red piece never shown"),
        ("bK", "black", "a Black piece shown as the black knight (Z zombie, S skeleton)"),
        ("r? rZ", "", "a team, bottom to top"),
        ("KZS", "", "note: what a hidden piece may still be (K knight, Z zombie, S skeleton)"),
        ("=Z", "", "note: a team of 2 fights as a zombie; =K: a team of 3, as the knight"),
    ),
    "zombie-kidz": (
        ("Z", "zombie", "a zombie"),
        ("1", "pawn-1", "player 1's pawn (2, 3, 4: the others')"),
        ("L", "lock", "a lock: the gate is locked"),
        ("2", "", "note: the zombies on the zone"),
    ),
}


def _chip(label: str, role: str, view: BoardView, plain: bool) -> Text:
    colour = view.palette.get(role) if role else None
    if plain or not colour:
        return Text(label, style="bold")
    return Text(label, style=Style(bgcolor=colour, color=ink_on(colour), bold=True))


def legend_renderable(
    view: BoardView,
    game: str,
    drawing: BoardDrawing | None = None,
    *,
    ascii: bool = False,
    plain: bool = False,
) -> RenderableType:
    """Every mark of ``view`` as drawn (``drawing``: compact or not), with its meaning."""
    clean = asciify if ascii else _same
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    symbols = role_symbols(view)
    roles = sorted(
        {cell.role for cell in view.cells.values() if cell.role != "off"},
        key=lambda role: ROLE_SYMBOLS.find(symbols[role]) if role in symbols else -1,
    )
    palette = terminal_palette(view.palette, roles)
    words = ROLES.get(game, {})
    for role in roles:
        mark = Text()
        if not plain and palette.get(role):
            mark.append("##" if ascii else "\u2588\u2588", Style(color=palette[role]))
        mark.append(" " + symbols[role] if role in symbols else "  ")
        table.add_row(mark, Text(clean(words.get(role, role))))
    for label, role, meaning in TOKENS.get(game, ()):
        table.add_row(_chip(clean(label), role, view, plain), Text(clean(meaning)))
    if not TOKENS.get(game):
        seen: dict[str, str] = {}
        for cell in view.cells.values():
            for token in cell.tokens:
                seen.setdefault(token.label or token.role[:1].upper(), token.role)
        for label, role in seen.items():
            table.add_row(_chip(clean(label), role, view, plain), Text(clean(role)))
    table.add_row(Text("[ ]", style="bold"), Text("the squares of the last move"))
    if drawing is not None and drawing.compact:
        sample = "R5" if view.token_layout == PILE else "Z4"
        table.add_row(
            Text(sample, style="bold"),
            Text(clean(compact_note(view)) + " (compact board: the full stack is under Square)"),
        )
    if view.links:
        table.add_row(
            Text("Paths", style="bold"), Text("the paths between zones (listed under Facts)")
        )
    return Group(table)


def _same(text: str) -> str:
    return text
