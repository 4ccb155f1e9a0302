"""Draw any :class:`~notation.view.BoardView` on a terminal, with rich.

The renderer knows no game: it draws a grid of cells with file and rank
coordinates, each cell showing its tokens' labels bottom to top ("WRW", "??",
"ZZ 1 3") in the palette's colours, the cell's note on a second, dimmed line,
the last move's cells between brackets, and the view's facts beside (or under)
the board.  Two character sets: Unicode box drawing, or ``ascii`` for terminals
that have no Unicode, where every character written is ASCII.

Colour is rich's business: a console that is not a terminal, or has ``no_color``,
writes the same layout as plain text.  Brackets mark the last move in every mode,
so a plain capture still shows it.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from notation.view import BoardView, Cell, Token

__all__ = [
    "BoardDrawing",
    "asciify",
    "board_renderable",
    "cell_label",
    "draw_board",
    "emit",
    "facts_table",
    "fits_beside",
    "is_plain",
    "legend",
    "make_console",
    "render_plain",
    "role_symbols",
]

#: Width of piped output: wide enough that the facts fit beside the board.
PLAIN_WIDTH = 100
#: The facts go beside the board when at least this many columns are left for them.
MIN_FACTS_WIDTH = 28
GAP = 3

MARK_STYLE = Style(bold=True, color="bright_yellow")
NOTE_STYLE = Style(dim=True)


@dataclass(frozen=True, slots=True)
class _Box:
    """The characters a grid is drawn with."""

    horizontal: str
    vertical: str
    #: Junction characters by the lines that meet there: (up, down, left, right).
    junctions: dict[tuple[bool, bool, bool, bool], str]


def _unicode_junctions() -> dict[tuple[bool, bool, bool, bool], str]:
    chars = {
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
    }
    chars[(False, False, False, False)] = " "
    return chars


def _ascii_junctions() -> dict[tuple[bool, bool, bool, bool], str]:
    table: dict[tuple[bool, bool, bool, bool], str] = {}
    for code in range(16):
        key = (bool(code & 8), bool(code & 4), bool(code & 2), bool(code & 1))
        table[key] = "+" if any(key) else " "
    return table


UNICODE_BOX = _Box("─", "│", _unicode_junctions())
ASCII_BOX = _Box("-", "|", _ascii_junctions())


def asciify(text: str) -> str:
    """``text`` with ASCII characters only: accents dropped, anything else as ``?``.

    Box-drawing and typographic characters a game might use get their usual
    ASCII stand-ins, so ``--ascii`` output stays readable.
    """
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


def cell_label(cell: Cell) -> str:
    """The tokens of a cell, bottom to top, as one short text.

    Single-letter labels run together ("WRW", "??", "ZZ"); a space goes next to a
    number or a longer label, where running together would misread ("ZZ 1 3").
    """
    parts: list[str] = []
    previous = ""
    for token in cell.tokens:
        label = _token_label(token)
        if parts and (_needs_space(previous) or _needs_space(label)):
            parts.append(" ")
        parts.append(label)
        previous = label
    return "".join(parts)


def _token_label(token: Token) -> str:
    return token.label or token.role[:1].upper() or "*"


def _needs_space(label: str) -> bool:
    return len(label) > 1 or any(c.isdigit() for c in label)


def _colour(palette: dict[str, str], role: str) -> str | None:
    return palette.get(role) or None


# -- the grid ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """A board drawn as lines of text, and how wide they are."""

    lines: list[Text]
    width: int


#: Symbols that stand for cell roles where there is no colour (see :func:`role_symbols`).
ROLE_SYMBOLS = "#%=~^:&@"


def role_symbols(view: BoardView) -> dict[str, str]:
    """A symbol for each role a plain drawing must show, as colour cannot.

    Every role on the board except ``off`` and the commonest one (the plain
    background: graves, squares) gets one, in palette order, then by name.
    """
    counts: dict[str, int] = {}
    for cell in view.cells.values():
        if cell.role != "off":
            counts[cell.role] = counts.get(cell.role, 0) + 1
    if not counts:
        return {}
    order = {role: i for i, role in enumerate(view.palette)}
    roles = sorted(counts, key=lambda role: (order.get(role, len(order)), role))
    commonest = max(roles, key=lambda role: counts[role])
    shown = [role for role in roles if role != commonest]
    return dict(zip(shown, ROLE_SYMBOLS, strict=False))


def draw_board(view: BoardView, *, ascii: bool = False, plain: bool = False) -> BoardDrawing:
    """The grid with its coordinates, one :class:`Text` per screen line.

    ``plain`` drawings (no colour) put a role's symbol in the lower left corner
    of its cells; :func:`legend` says what each symbol means.
    """
    box = ASCII_BOX if ascii else UNICODE_BOX
    clean = asciify if ascii else _same
    rows = view.rows()
    on = [[cell.role != "off" for cell in row] for row in rows]
    labels = [[clean(cell_label(cell)) for cell in row] for row in rows]
    notes = [[clean(cell.note) for cell in row] for row in rows]
    symbols = role_symbols(view) if plain else {}
    # A note keeps a space from the role symbol in its cell's corner.
    inner = max(
        3, *(len(s) for row in labels for s in row),
        *(len(s) + 2 * bool(symbols and s) for row in notes for s in row),
    )
    two_lines = bool(symbols) or any(note for row in notes for note in row)
    rank_labels = [clean(r) for r in reversed(view.ranks)]
    margin = max((len(r) for r in rank_labels), default=0) + 1
    marks = set(view.marks)
    palette = dict(view.palette)

    def is_on(r: int, c: int) -> bool:
        return 0 <= r < len(rows) and 0 <= c < len(view.files) and on[r][c]

    lines: list[Text] = []
    for r in range(len(rows) + 1):
        lines.append(_border_line(box, is_on, r, len(view.files), inner + 2, margin))
        if r == len(rows):
            break
        for sub in range(2 if two_lines else 1):
            line = Text((rank_labels[r] if sub == 0 else "").rjust(margin - 1) + " ")
            for c, cell in enumerate(rows[r]):
                line.append(box.vertical if is_on(r, c - 1) or on[r][c] else " ")
                if sub == 0:
                    edges = ("[", "]") if cell.square in marks else (" ", " ")
                    text = labels[r][c]
                else:
                    edges = (symbols.get(cell.role, " "), " ")
                    text = notes[r][c]
                line.append_text(_cell_interior(cell, text, sub, inner, edges, palette))
            line.append(box.vertical if on[r][-1] else " ")
            lines.append(line)
    files = Text(" " * margin)
    for name in view.files:
        files.append(" " + clean(name).center(inner + 2))
    lines.append(files)
    width = margin + len(view.files) * (inner + 3) + 1
    return BoardDrawing([_rstrip(line) for line in lines], width)


def legend(view: BoardView, *, ascii: bool = False, plain: bool = False) -> Text | None:
    """What the cell colours (or, in a plain drawing, the corner symbols) stand for."""
    clean = asciify if ascii else _same
    text = Text("Cells: ", style="bold")
    if plain:
        symbols = role_symbols(view)
        if not symbols:
            return None
        entries = [(Text(symbol), role) for role, symbol in symbols.items()]
    else:
        roles = {cell.role for cell in view.cells.values() if cell.role != "off"}
        swatch = "##" if ascii else "\u2588\u2588"
        entries = [
            (Text(swatch, style=Style(color=colour)), role)
            for role, colour in view.palette.items()
            if role in roles and colour
        ]
        if not entries:
            return None
    for i, (mark, role) in enumerate(entries):
        text.append("  " if i else "")
        text.append_text(mark)
        text.append(" " + clean(role))
    return text


def _same(text: str) -> str:
    return text


def _rstrip(line: Text) -> Text:
    line.rstrip()
    return line


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
    cell: Cell, text: str, sub: int, inner: int, edges: tuple[str, str],
    palette: dict[str, str],
) -> Text:
    """One line of a cell: centred text between two edge characters.

    The edges are padding, the brackets of a marked cell, or a role's symbol.
    """
    if cell.role == "off":
        return Text(" " * (inner + 2))
    background = _colour(palette, cell.role)
    out = Text(style=Style(bgcolor=background) if background else Style())
    left_pad = (inner - len(text)) // 2
    right_pad = inner - len(text) - left_pad
    edge_style = MARK_STYLE if edges[0] == "[" else NOTE_STYLE
    out.append(edges[0], edge_style)
    out.append(" " * left_pad)
    if sub == 0:
        out.append_text(_token_text(cell, text, palette))
    else:
        out.append(text, NOTE_STYLE)
    out.append(" " * right_pad)
    out.append(edges[1], edge_style)
    return out


def _token_text(cell: Cell, text: str, palette: dict[str, str]) -> Text:
    """The label text with each token's part in its role's colour."""
    out = Text()
    position = 0
    for token in cell.tokens:
        label_length = len(_token_label(token))
        # ``text`` may have been made ASCII; find each label by its place, not its value.
        while position < len(text) and text[position] == " ":
            out.append(" ")
            position += 1
        colour = _colour(palette, token.role)
        style = Style(color=colour, bold=True) if colour else Style(bold=True)
        out.append(text[position : position + label_length], style)
        position += label_length
    out.append(text[position:])
    return out


# -- facts, links, caption, and the whole view ----------------------------------------


def facts_table(facts: Sequence[tuple[str, str]], *, ascii: bool = False) -> Table:
    """Labelled facts as a two-column grid: label, value."""
    clean = asciify if ascii else _same
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in facts:
        table.add_row(Text(clean(label)), Text(clean(value)))
    return table


def _facts_width(facts: Sequence[tuple[str, str]]) -> int:
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


def board_renderable(
    view: BoardView, *, width: int, ascii: bool = False, plain: bool = False,
    beside: RenderableType | None = None,
) -> RenderableType:
    """The board with its facts beside it (or under it, when ``width`` is too small),
    the legend of its cells, the paths between cells, and the caption.

    ``plain``: drawn for a console without colour (role symbols in the cells).
    ``beside``: more to show under the facts (a move list), beside the board if it fits.
    """
    drawing = draw_board(view, ascii=ascii, plain=plain)
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
        needed = min(needed, _facts_width(view.facts))
    parts: list[RenderableType] = []
    if column and fits_beside(drawing, width, needed):
        side = Table.grid(padding=(0, GAP, 0, 0))
        side.add_column(no_wrap=True, width=drawing.width)
        side.add_column(overflow="fold")
        side.add_row(board, Group(*column))
        parts.append(side)
    else:
        parts.extend([board, *column])
    key = legend(view, ascii=ascii, plain=plain)
    if key is not None:
        parts.append(key)
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

    ``plain`` None decides from the stream and the environment: plain text when
    the stream is not a terminal or ``NO_COLOR`` is set (no ANSI at all, not even
    bold).  Piped output gets a fixed width, so it does not depend on a terminal,
    and its lines of text are never wrapped (soft wrap): a message naming a long
    path stays one line for grep.  Only the layout (the board, its facts beside it)
    keeps the fixed width.
    """
    stream = file if file is not None else sys.stdout
    is_tty = _isatty(stream)
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


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def render_plain(renderable: RenderableType, width: int = PLAIN_WIDTH) -> str:
    """What ``renderable`` prints as plain text (for captures and tests)."""
    console = make_console(io.StringIO(), width=width, plain=True)
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
    with console.capture() as capture:
        console.print(renderable)
    text = "\n".join(line.rstrip() for line in capture.get().splitlines())
    console.file.write(text + "\n")
