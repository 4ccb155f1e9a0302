"""Draw any :class:`~notation.games.view.BoardView` on a terminal, with rich.

A grid of cells with file and rank coordinates, each cell showing its tokens' labels
bottom to top ("WRW", "ZZ 1 3") and its note on a second line, the last move's cells
between brackets, the view's facts beside (or under) the board; in Unicode box drawing
or ``ascii``.  A board too wide is spelt *compact* (``R5``: five tokens, ``R`` on top;
``Z4 1``), and the stacks are then listed in full under it.

Without colour (not a terminal, ``no_color``) the same layout is plain text.  In colour,
text on a cell is black or white, whichever reaches WCAG AA, and cell colours that a
256-colour terminal would draw the same are told apart (:func:`terminal_palette`).
Roles also carry a symbol in a cell's corner, so that no colour is the only sign.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from notation.files.console import is_terminal
from notation.games.view import NOTE_KEY, PILE, STACK_KEY, BoardView, Cell, Token, TokenLayout
from notation.render.palette import AA
from notation.render.terminal_colours import (
    BLACK_INK,
    WHITE_INK,
    contrast_ratio,
    ink_on,
    terminal_palette,
)

__all__ = [
    "BLACK_INK",
    "ROLE_SYMBOLS",
    "WHITE_INK",
    "BoardDrawing",
    "asciify",
    "blank_role",
    "board_renderable",
    "board_size",
    "cell_label",
    "cell_width",
    "cleaner",
    "compact_label",
    "compact_note",
    "contrast_ratio",
    "draw_board",
    "emit",
    "facts_table",
    "facts_width",
    "fits_beside",
    "ink_on",
    "is_plain",
    "legend",
    "make_console",
    "notes_legend",
    "render_plain",
    "role_symbols",
    "stack_lines",
    "terminal_palette",
]

#: Width of piped output: wide enough that the facts fit beside the board.
PLAIN_WIDTH = 100
#: The facts go beside the board when at least this many columns are left for them.
MIN_FACTS_WIDTH = 28
GAP = 3

#: The mark of the last move where its contrast with the cell allows (else the ink).
MARK_COLOUR = "#ffd75f"
NOTE_STYLE = Style(dim=True)


@dataclass(frozen=True, slots=True)
class _Box:
    """The characters a grid is drawn with."""

    horizontal: str
    vertical: str
    #: Junction characters by the lines that meet there: (up, down, left, right).
    junctions: dict[tuple[bool, bool, bool, bool], str]


UNICODE_BOX = _Box("─", "│", {
    (False, True, False, True): "┌",
    (False, True, True, False): "┐",
    (True, False, False, True): "└",
    (True, False, True, False): "┘",
    (True, True, False, True): "├",
    (True, True, True, False): "┤",
    (False, True, True, True): "┬",
    (True, False, True, True): "┴",
    (True, True, True, True): "┼",
    (False, False, True, True): "─",
    (True, True, False, False): "│",
    (True, False, False, False): "│",
    (False, True, False, False): "│",
    (False, False, True, False): "─",
    (False, False, False, True): "─",
    (False, False, False, False): " ",
})
ASCII_BOX = _Box("-", "|", {key: "+" if any(key) else " " for key in UNICODE_BOX.junctions})


def asciify(text: str) -> str:
    """``text`` in ASCII: usual stand-ins for typographic characters ("->", "..."),
    accents dropped, anything else as ``?``."""
    if text.isascii():
        return text
    out: list[str] = []
    for char in text:
        if char.isascii():
            out.append(char)
            continue
        stand_in = _ASCII_STAND_INS.get(char)
        if stand_in is not None:
            out.append(stand_in)
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        kept = "".join(c for c in decomposed if c.isascii())
        out.append(kept or "?")
    return "".join(out)


_ASCII_STAND_INS = {
    "\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2026": "...", "\u00b7": ".",
    "\u2022": "*", "\u00d7": "x", "\u2018": "'", "\u2019": "'", "\u201c": '"',
    "\u201d": '"', "\u2192": "->", "\u2190": "<-", "\u2194": "<->", "\u2264": "<=",
    "\u2265": ">=", "\u2713": "v", "\u2717": "x",
}


def cleaner(ascii: bool) -> Callable[[str], str]:
    """:func:`asciify` for ``ascii`` output, else the text as it is."""
    return asciify if ascii else str


def _cell_roles(view: BoardView) -> list[str]:
    """The roles of the board's cells, commonest first (ties in palette order)."""
    counts: dict[str, int] = {}
    for cell in view.cells.values():
        if cell.role != "off":
            counts[cell.role] = counts.get(cell.role, 0) + 1
    order = {role: i for i, role in enumerate(view.palette)}
    return sorted(counts, key=lambda role: (-counts[role], order.get(role, len(order)), role))


# -- labels -----------------------------------------------------------------------


def cell_label(cell: Cell) -> str:
    """The tokens of a cell, bottom to top, as one short text.

    Single-letter labels run together ("WRW", "??", "ZZ"); a space goes next to a
    number or a longer label, where running together would misread ("ZZ 1 3").
    """
    return "".join(text for text, _ in _full_parts(cell))


def compact_label(cell: Cell, layout: TokenLayout = PILE) -> str:
    """The short spelling of a cell's tokens, for a board that must be narrow.

    A pile of two or more is its top token and its height: ``WWWR`` is ``R4``.  A
    spread (figures side by side) counts each run of equal labels: ``ZZZZ 1 2`` is
    ``Z4 1 2``.  A cell of one token is spelt in full.
    """
    return "".join(text for text, _ in _compact_parts(cell, layout))


def _token_label(token: Token) -> str:
    return token.label or token.role[:1].upper() or "*"


def _needs_space(label: str) -> bool:
    return len(label) > 1 or any(c.isdigit() for c in label)


def _joined(parts: list[tuple[str, Token]]) -> list[tuple[str, Token | None]]:
    """Labels run together, with a space where running together would misread."""
    out: list[tuple[str, Token | None]] = []
    previous = ""
    for text, token in parts:
        if out and (_needs_space(previous) or _needs_space(text)):
            out.append((" ", None))
        out.append((text, token))
        previous = text
    return out


def _full_parts(cell: Cell) -> list[tuple[str, Token | None]]:
    return _joined([(_token_label(token), token) for token in cell.tokens])


def _compact_parts(cell: Cell, layout: TokenLayout) -> list[tuple[str, Token | None]]:
    tokens = cell.tokens
    if len(tokens) < 2:
        return _full_parts(cell)
    if layout == PILE:
        top = tokens[-1]
        return [(f"{_token_label(top)}{len(tokens)}", top)]
    runs: list[tuple[str, Token, int]] = []
    for token in tokens:
        label = _token_label(token)
        if runs and runs[-1][0] == label:
            runs[-1] = (label, runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((label, token, 1))
    return _joined([(label if n == 1 else f"{label}{n}", token) for label, token, n in runs])


def compact_note(view: BoardView) -> str:
    """What a compact cell means, for this view's kind of board."""
    if view.token_layout == PILE:
        return "R5 = a stack of 5, R on top"
    return "Z4 = 4 Z side by side"


def _colour(palette: Mapping[str, str], role: str) -> str | None:
    return palette.get(role) or None


# -- the grid ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """A board drawn as lines of text, how wide they are, and where its cells are."""

    lines: list[Text]
    width: int
    #: Columns before the first cell (the rank labels), and each cell's width with
    #: its left wall.
    margin: int = 0
    cell_width: int = 0
    #: Lines per rank (the wall above it, the label, the note line if any).
    row_height: int = 0
    #: Square names row by row, top row first (as drawn).
    squares: tuple[tuple[str, ...], ...] = ()
    #: The cells spelt short (compact drawings): square -> the full label.
    shortened: dict[str, str] = field(default_factory=dict)
    #: Whether the cells are spelt short.
    compact: bool = False

    @property
    def height(self) -> int:
        """Lines of the drawing."""
        return len(self.lines)

    def square_at(self, x: int, y: int) -> str | None:
        """The square drawn at column ``x``, line ``y`` (walls and margins: None)."""
        if x < self.margin or not self.cell_width or not self.row_height:
            return None
        column, inside = divmod(x - self.margin, self.cell_width)
        row, line = divmod(y, self.row_height)
        if inside == 0 or line == 0 or row >= len(self.squares):
            return None
        names = self.squares[row]
        return names[column] if column < len(names) else None


#: Symbols that stand for cell roles where there is no colour (see :func:`role_symbols`).
ROLE_SYMBOLS = "#%=~^:&@"


def role_symbols(view: BoardView) -> dict[str, str]:
    """The symbol in the corner of each cell role on the board.

    Symbols are fixed by the game, not by the position: the view's palette lists the
    roles, its first (after ``off``) is the plain cell (a grave, a square, a gate),
    which has none, and every other role gets the next of :data:`ROLE_SYMBOLS` in
    palette order, so a symbol means the same on every board of a game.  A cell role
    missing from the palette comes after those, by name.  Only the roles of cells on
    this board are returned.
    """
    present = {cell.role for cell in view.cells.values() if cell.role != "off"}
    return {
        role: symbol for role, symbol in _symbol_table(view).items() if role in present
    }


def blank_role(view: BoardView) -> str | None:
    """The role whose cells carry no symbol (the palette's first after ``off``)."""
    return next((role for role in view.palette if role != "off"), None)


def _symbol_table(view: BoardView) -> dict[str, str]:
    plain = blank_role(view)
    roles = [role for role in view.palette if role not in ("off", plain)]
    extra = {cell.role for cell in view.cells.values()} - set(view.palette) - {"off"}
    roles += sorted(extra - {plain} if plain is not None else extra)
    return dict(zip(roles, ROLE_SYMBOLS, strict=False))


def _line_kinds(two_lines: bool, zoom: int) -> list[str]:
    """The lines of a cell, top to bottom: blank ones around the label for a zoomed
    board (terminal cells are twice as tall as wide: 2 more columns, 1 more line), the
    note last."""
    return (
        ["pad"] * ((zoom + 1) // 2) + ["label"] + ["pad"] * (zoom // 2)
        + (["note"] if two_lines else [])
    )


def cell_width(view: BoardView, *, compact: bool = False, notes: bool = True) -> tuple[int, bool]:
    """The inside width the cells of ``view`` need (no zoom), and whether they have a
    note line: what :func:`draw_board` makes of the view's own content and of the
    game's widest cells (:attr:`BoardView.widest`), so that a viewer's board is the
    same size whatever the pieces."""
    cells = [cell for cell in (*view.cells.values(), *view.widest) if cell.role != "off"]
    labels = [
        sum(len(text) for text, _ in _cell_parts(cell, view.token_layout, compact))
        for cell in cells
    ]
    symbols = role_symbols(view)
    two_lines = notes and (bool(symbols) or any(cell.note for cell in cells))
    widths = labels
    if two_lines:
        widths = widths + [len(cell.note) + 2 * bool(symbols) for cell in cells if cell.note]
    return max(2 if compact else 3, *widths), two_lines


def board_size(
    view: BoardView,
    *,
    compact: bool = False,
    notes: bool = True,
    zoom: int = 0,
    inner: int | None = None,
    note_line: bool | None = None,
) -> tuple[int, int]:
    """The (width, height) :func:`draw_board` draws, counted without drawing (a viewer
    asks it for each way of drawing, at each move).  ``inner``, ``note_line``: as for
    :func:`draw_board`."""
    needed, two_lines = cell_width(view, compact=compact, notes=notes)
    if inner is not None:
        needed = inner
    if note_line is not None:
        two_lines = notes and note_line
    margin = max((len(r) for r in view.ranks), default=0) + 1
    width = margin + len(view.files) * (needed + 2 * zoom + 3) + 1
    height = len(view.ranks) * (1 + len(_line_kinds(two_lines, zoom))) + 2
    return width, height


def draw_board(
    view: BoardView,
    *,
    ascii: bool = False,
    plain: bool = False,
    compact: bool = False,
    notes: bool = True,
    selected: str | None = None,
    zoom: int = 0,
    inner: int | None = None,
    note_line: bool | None = None,
) -> BoardDrawing:
    """The grid with its coordinates, one :class:`Text` per screen line.

    Each role but the plain one has a symbol in the lower left corner of its cells
    (:func:`legend` says which).  ``compact``: cells spelt short
    (:func:`compact_label`).  ``notes`` False: one line per cell, without the note
    line (the role's symbol then stands at the right edge of the label line).
    ``selected``: a square drawn in reverse video (in colour only).  ``zoom``: cells
    ``2 * zoom`` columns wider and ``zoom`` lines taller, for a screen with room.

    ``inner``: the cells' inside width, whatever they hold, so that every position of
    a game is drawn the same size (a viewer's choice, see
    :func:`notation.tui.board.choose_layout`).  A cell whose tokens are longer is
    spelt compact, and if even that is too long, as its top token and ``+`` (``R+``:
    more beneath than the cell can count); :attr:`BoardDrawing.shortened` gives
    them in full.  ``note_line``: whether cells have their note line (with ``notes``),
    whatever this view's cells hold.
    """
    box = ASCII_BOX if ascii else UNICODE_BOX
    clean = cleaner(ascii)
    rows = view.rows()
    on = [[cell.role != "off" for cell in row] for row in rows]
    symbols = role_symbols(view)
    note_texts = [[clean(cell.note) for cell in row] for row in rows]
    two_lines = notes and (bool(symbols) or any(note for row in note_texts for note in row))
    if note_line is not None:
        two_lines = notes and note_line
    if inner is None:
        parts = [
            [
                [
                    (clean(text), token)
                    for text, token in _cell_parts(cell, view.token_layout, compact)
                ]
                for cell in row
            ]
            for row in rows
        ]
        labels = [["".join(text for text, _ in cell) for cell in row] for row in parts]
        # A note keeps a space from the role symbol in its cell's corner.  Full cells are
        # at least 3 wide, as they always were; compact ones may be 2 ("R5").
        widths = [len(s) for row in labels for s in row]
        if two_lines:
            widths += [len(s) + 2 * bool(symbols and s) for row in note_texts for s in row]
        inner = max(2 if compact else 3, *widths)
    else:
        parts = [[_fitted_parts(cell, view.token_layout, inner, clean) for cell in row]
                 for row in rows]
        room = max(1, inner - 2 * bool(symbols))
        note_texts = [[note[:room] for note in row] for row in note_texts]
    inner += 2 * zoom
    kinds = _line_kinds(two_lines, zoom)
    rank_labels = [clean(r) for r in reversed(view.ranks)]
    margin = max((len(r) for r in rank_labels), default=0) + 1
    marks = set(view.marks)
    palette = terminal_palette(view.palette, _cell_roles(view)) if not plain else {}

    def is_on(r: int, c: int) -> bool:
        return 0 <= r < len(rows) and 0 <= c < len(view.files) and on[r][c]

    lines: list[Text] = []
    for r in range(len(rows) + 1):
        lines.append(_border_line(box, is_on, r, len(view.files), inner + 2, margin))
        if r == len(rows):
            break
        for kind in kinds:
            line = Text((rank_labels[r] if kind == "label" else "").rjust(margin - 1) + " ")
            for c, cell in enumerate(rows[r]):
                line.append(box.vertical if is_on(r, c - 1) or on[r][c] else " ")
                symbol = symbols.get(cell.role, " ")
                content: list[tuple[str, Token | None]] = []
                edges = (" ", " ")
                if kind == "label":
                    marked = cell.square in marks
                    right = "]" if marked else (symbol if not two_lines else " ")
                    edges = ("[" if marked else " ", right)
                    content = parts[r][c]
                elif kind == "note":
                    edges = (symbol, " ")
                    content = [(note_texts[r][c], None)]
                line.append_text(
                    _cell_interior(
                        cell, content, int(kind == "note"), inner, edges, palette,
                        reverse=cell.square == selected and not plain,
                    )
                )
            line.append(box.vertical if on[r][-1] else " ")
            lines.append(line)
    files = Text(" " * margin)
    for name in view.files:
        files.append(" " + clean(name).center(inner + 2))
    lines.append(files)
    width = margin + len(view.files) * (inner + 3) + 1
    shortened = {}
    for row, shown in zip(rows, parts, strict=True):
        for cell, cell_parts in zip(row, shown, strict=True):
            full = clean(cell_label(cell))
            if cell.role != "off" and full != "".join(text for text, _ in cell_parts):
                shortened[cell.square] = full
    for line in lines:
        line.rstrip()
    return BoardDrawing(
        lines,
        width,
        margin=margin,
        cell_width=inner + 3,
        row_height=1 + len(kinds),
        squares=tuple(tuple(cell.square for cell in row) for row in rows),
        shortened=shortened,
        compact=compact or bool(shortened),
    )


def _cell_parts(
    cell: Cell, layout: TokenLayout, compact: bool
) -> list[tuple[str, Token | None]]:
    return _compact_parts(cell, layout) if compact else _full_parts(cell)


def _fitted_parts(
    cell: Cell, layout: TokenLayout, width: int, clean: Callable[[str], str]
) -> list[tuple[str, Token | None]]:
    """A cell's tokens in ``width`` columns: in full if they fit, else compact, else
    the top token and ``+``."""
    for spelling in (_full_parts(cell), _compact_parts(cell, layout)):
        cleaned = [(clean(text), token) for text, token in spelling]
        if sum(len(text) for text, _ in cleaned) <= width:
            return cleaned
    top = cell.tokens[-1]
    return [(clean(_token_label(top))[: max(1, width - 1)] + "+", top)]


def legend(view: BoardView, *, ascii: bool = False, plain: bool = False) -> Text | None:
    """What the cell colours and the corner symbols stand for.

    Plain: the symbols only, and the role of the cells without one (``Cells: # over
    % chapel  = tombstone  no symbol: grave``).  In colour, every role on the board,
    each with a swatch of its colour and its symbol if it has one.
    """
    clean = cleaner(ascii)
    text = Text("Cells: ", style="bold")
    symbols = role_symbols(view)
    entries: list[tuple[Text, str]] = []
    blank = blank_role(view)
    if plain:
        entries = [(Text(symbol), role) for role, symbol in symbols.items()]
        if entries and any(cell.role == blank for cell in view.cells.values()):
            entries.append((Text("no symbol:"), blank or ""))
    else:
        roles = _cell_roles(view)
        palette = terminal_palette(view.palette, roles)
        swatch = "##" if ascii else "\u2588\u2588"
        order = {symbol: i for i, symbol in enumerate(ROLE_SYMBOLS)}
        for role in sorted(roles, key=lambda role: order.get(symbols.get(role, ""), -1)):
            mark = Text(swatch, style=Style(color=palette[role])) if palette.get(role) else Text()
            if role in symbols:
                mark.append((" " if mark else "") + symbols[role])
            if mark:
                entries.append((mark, role))
    if not entries:
        return None
    for i, (mark, role) in enumerate(entries):
        text.append("  " if i else "")
        text.append_text(mark)
        text.append(" " + clean(role))
    return text


def notes_legend(view: BoardView, *, ascii: bool = False) -> Text | None:
    """What the notes of the cells and their stacks mean, in the view's words
    (:attr:`BoardView.legend`), under the ``Cells:`` line: ``Notes: 3 the grave's
    capacity (...)``, ``Stacks: WRW a stack, bottom to top``; each only when the board
    shows one (no line at all for a game without words)."""
    clean = cleaner(ascii)
    words = view.legend
    lines: list[str] = []
    shown = [cell.note for row in view.rows() for cell in row if cell.note]
    samples = [key.partition(":")[2] for key in words if key.startswith(NOTE_KEY + ":")]
    if shown and NOTE_KEY in words:
        # The words of every note, with the sample they were written for if any.
        meaning = words[NOTE_KEY]
        sample = next(
            (s for s in samples if words[f"{NOTE_KEY}:{s}"] == meaning), shown[0]
        )
        lines.append(f"Notes: {sample} {meaning}")
    elif shown and samples:
        sample = next((note for note in shown if note in samples), samples[0])
        lines.append(f"Notes: {sample} {words[f'{NOTE_KEY}:{sample}']}")
    stacked = any(len(cell.tokens) > 1 for cell in view.cells.values())
    if stacked and view.token_layout == PILE:
        stack = next((key for key in words if key.startswith(STACK_KEY + ":")), None)
        if stack is not None:
            lines.append(f"Stacks: {stack.partition(':')[2]} {words[stack]}")
    if not lines:
        return None
    text = Text()
    for i, line in enumerate(lines):
        label, _, rest = clean(line).partition(" ")
        text.append("\n" if i else "")
        text.append(label, style="bold")
        text.append(" " + rest)
    return text


def _border_line(
    box: _Box, is_on: Callable[[int, int], bool], r: int, columns: int, span: int, margin: int
) -> Text:
    """The horizontal line above row ``r`` (``r`` = the row count: the bottom line)."""
    out = [" " * margin]
    for c in range(columns + 1):
        up = is_on(r - 1, c - 1) or is_on(r - 1, c)
        down = is_on(r, c - 1) or is_on(r, c)
        left = is_on(r - 1, c - 1) or is_on(r, c - 1)
        right = is_on(r - 1, c) or is_on(r, c)
        out.append(box.junctions[(up, down, left, right)])
        if c < columns:
            out.append((box.horizontal if right else " ") * span)
    return Text("".join(out))


def _cell_interior(
    cell: Cell,
    content: list[tuple[str, Token | None]],
    sub: int,
    inner: int,
    edges: tuple[str, str],
    palette: Mapping[str, str],
    *,
    reverse: bool = False,
) -> Text:
    """One line of a cell: centred text between two edge characters.

    The edges are padding, the brackets of a marked cell, or a role's symbol.  With
    no palette (plain output) nothing is styled but the note, which is dimmed.
    """
    if cell.role == "off":
        return Text(" " * (inner + 2))
    length = sum(len(text) for text, _ in content)
    left_pad = (inner - length) // 2
    right_pad = inner - length - left_pad
    if not palette:  # plain: the layout alone, the note dimmed
        out = Text()
        out.append(edges[0], NOTE_STYLE if edges[0] not in "[]" else None)
        out.append(" " * left_pad)
        for text, _ in content:
            out.append(text, NOTE_STYLE if sub else None)
        out.append(" " * right_pad)
        out.append(edges[1], NOTE_STYLE if edges[1] not in "[]" else None)
        return out
    background = _colour(palette, cell.role)
    if background is None:  # a role without a colour: the terminal's own background
        base, ink, mark_colour = Style(), None, MARK_COLOUR
    else:
        ink = ink_on(background)
        base = Style(bgcolor=background, color=ink)
        if reverse:
            base = Style(bgcolor=ink, color=background)
            ink, background = background, ink
        mark_colour = MARK_COLOUR if contrast_ratio(MARK_COLOUR, background) >= AA else ink
    out = Text(style=base)

    def edge(char: str) -> None:
        bracket = char in "[]"
        out.append(char, Style(color=mark_colour, bold=True) if bracket else None)

    edge(edges[0])
    out.append(" " * left_pad)
    for text, token in content:
        colour = _colour(palette, token.role) if token is not None else None
        if colour is None:
            out.append(text, NOTE_STYLE if sub and ink is None else None)
            continue
        # A chip: the token's colour behind its label, in the ink that reads on it.
        out.append(text, Style(bgcolor=colour, color=ink_on(colour), bold=True))
    out.append(" " * right_pad)
    edge(edges[1])
    return out


# -- facts, links, caption, and the whole view ----------------------------------------


def facts_table(facts: Sequence[tuple[str, str]], *, ascii: bool = False) -> Table:
    """Labelled facts as a two-column grid: label, value."""
    clean = cleaner(ascii)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in facts:
        table.add_row(Text(clean(label)), Text(clean(value)))
    return table


def facts_width(facts: Sequence[tuple[str, str]]) -> int:
    """The columns ``facts`` take as :func:`facts_table` draws them, each on one line."""
    if not facts:
        return 0
    return max(len(label) for label, _ in facts) + 2 + max(len(value) for _, value in facts)


def _links_text(view: BoardView, *, ascii: bool) -> Text | None:
    if not view.links:
        return None
    joined = ", ".join(f"{a}-{b}" for a, b in view.links)
    text = Text("Paths: ", style="bold")
    text.append(asciify(joined) if ascii else joined)
    return text


def fits_beside(drawing: BoardDrawing, width: int, needed: int = MIN_FACTS_WIDTH) -> bool:
    """Whether a column ``needed`` wide fits beside the board in ``width`` columns."""
    return width - drawing.width - GAP >= needed


def stack_lines(
    view: BoardView, squares: Iterable[str], *, ascii: bool = False
) -> list[tuple[str, str]]:
    """(square, its tokens in full, bottom to top) for each of ``squares`` that has any."""
    clean = cleaner(ascii)
    out = []
    for square in squares:
        label = cell_label(view.cell(square))
        if label:
            out.append((clean(square), clean(label)))
    return out


def _stacks_text(
    view: BoardView, drawing: BoardDrawing, width: int, *, ascii: bool
) -> Text | None:
    """What a board too wide for ``width`` left out, and every stack it shortened."""
    if drawing.width > width:
        # Even compact, the grid is cut at the edge: every stack in full, then.
        squares = [s for row in drawing.squares for s in row]
        head = f"The board is {drawing.width} columns wide, cut at {width}; every stack"
    elif drawing.shortened:
        squares = list(drawing.shortened)
        head = (
            f"Stacks too tall for {width} columns are written short "
            f"({compact_note(view)}); in full"
        )
    else:
        return None
    stacks = stack_lines(view, squares, ascii=ascii)
    text = Text(head, style="bold")
    if view.token_layout == PILE:
        text.append(", bottom to top")
    text.append(": ")
    text.append(", ".join(f"{square} {label}" for square, label in stacks) or "none")
    return text


def board_renderable(
    view: BoardView, *, width: int, ascii: bool = False, plain: bool = False,
    beside: RenderableType | None = None,
) -> RenderableType:
    """The board with its facts beside it (or under it, when ``width`` is too small),
    the legend of its cells, the paths between cells, and the caption.

    ``plain``: drawn for a console without colour.  ``beside``: more to show under
    the facts (a move list), beside the board if it fits.  A board too wide for
    ``width`` is drawn compact, and a line under it gives the shortened stacks in
    full (and every stack, if even the compact board is too wide): no piece is ever
    lost at the edge of the screen.
    """
    drawing = draw_board(view, ascii=ascii, plain=plain)
    if drawing.width > width:
        drawing = draw_board(view, ascii=ascii, plain=plain, compact=True)
    board = Text("\n").join(drawing.lines)
    board.no_wrap = True
    board.overflow = "ignore"
    column: list[RenderableType] = []
    if view.facts:
        column.append(facts_table(view.facts, ascii=ascii))
    if beside is not None:
        column.append(beside)
    needed = MIN_FACTS_WIDTH
    if beside is None:
        needed = min(needed, facts_width(view.facts))
    parts: list[RenderableType] = []
    if column and fits_beside(drawing, width, needed):
        side = Table.grid(padding=(0, GAP, 0, 0))
        side.add_column(no_wrap=True, width=drawing.width)
        side.add_column(overflow="fold")
        side.add_row(board, Group(*column))
        parts.append(side)
    else:
        parts.extend([board, *column])
    stacks = _stacks_text(view, drawing, width, ascii=ascii)
    if stacks is not None:
        parts.append(stacks)
    key = legend(view, ascii=ascii, plain=plain)
    if key is not None:
        parts.append(key)
    notes = notes_legend(view, ascii=ascii)
    if notes is not None:
        parts.append(notes)
    links = _links_text(view, ascii=ascii)
    if links is not None:
        parts.append(links)
    if view.caption:
        parts.append(Text(asciify(view.caption) if ascii else view.caption, style="italic"))
    return Group(*parts)


# -- consoles ---------------------------------------------------------------------


def make_console(
    file: IO[str] | None = None, *, width: int | None = None, plain: bool | None = None
) -> Console:
    """A console for our output: colour on a terminal, plain text otherwise.

    ``plain`` None: plain (no ANSI at all) when the stream is not a terminal or
    ``NO_COLOR`` is set.  Piped output has a fixed width for the layout, and its lines
    of text are never wrapped (soft wrap), so that a long message stays one line.
    """
    stream = file if file is not None else sys.stdout
    is_tty = is_terminal(stream)
    if plain is None:
        plain = not is_tty or bool(os.environ.get("NO_COLOR"))
    if width is None:
        width = shutil.get_terminal_size((PLAIN_WIDTH, 40)).columns if is_tty else PLAIN_WIDTH
    return Console(
        file=stream,
        width=width,
        force_terminal=not plain,
        no_color=plain,
        color_system=None if plain else "auto",
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=not is_tty,
    )


def render_plain(renderable: RenderableType, width: int = PLAIN_WIDTH) -> str:
    """What ``renderable`` prints as plain text (for captures and tests)."""
    return _captured(make_console(io.StringIO(), width=width, plain=True), renderable)


def _captured(console: Console, renderable: RenderableType) -> str:
    with console.capture() as capture:
        console.print(renderable)
    return "\n".join(line.rstrip() for line in capture.get().splitlines()) + "\n"


def is_plain(console: Console) -> bool:
    """Whether ``console`` shows no colour (so drawings must say with symbols what it would)."""
    return console.no_color or console.color_system is None or not console.is_terminal


def emit(console: Console, renderable: RenderableType) -> None:
    """Print ``renderable``; plain output loses the padding rich adds to line ends."""
    if not is_plain(console):
        console.print(renderable)
        return
    console.file.write(_captured(console, renderable))
