"""A position as a standalone SVG picture.

:func:`board_svg` draws any :class:`notation.games.view.BoardView` and knows no game:
cells coloured by their role, coordinates, the paths between cells, the tokens
on each cell, the corner note, the last move (its squares outlined, an arrow from
where to where a piece went, a ring where one entered or was placed), and under
the board the caption, the facts and a legend of every mark the picture uses.
Cells and piles carry a ``<title>``: a browser shows it as a tooltip.
:mod:`notation.render.record_svg` draws the positions of a record with it.

Text is in whichever ink contrasts more with its fill (:mod:`notation.render.palette`).
The HTML viewer draws the same pictures with a JavaScript port of this module
(``viewer.js``), step by step: a change here belongs there too.  Output is
deterministic (numbers rounded the same way, cells in board order).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from notation.games.view import SPREAD, BoardView, Cell, Token
from notation.render.legend import LegendEntry, legend_entries
from notation.render.palette import INK, THEMES, ink_on, readable

__all__ = [
    "DEFAULT_SIZE",
    "board_svg",
    "pile_overflows",
    "spreads_tokens",
]

#: The length of the board's longer side, in SVG user units.
DEFAULT_SIZE = 480

SVG_NS = "http://www.w3.org/2000/svg"
PAPER = THEMES["light"]["paper"]
MUTED = THEMES["light"]["muted"]
MARK = THEMES["light"]["mark"]
LINK = "#efe6d2"
#: A role missing from the palette still gets a colour, the same one every time.
FALLBACK = "#b9b2a7"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Proportions of a cell (its side is 1).  Piles of tokens are bars seen from the
# side, left of the note's corner so that a tall pile never hides the note; bars
# thinner than MIN_BAR would lose their label, so a taller pile shows its top
# bars and a "+n" bar for the ones beneath.
BAR_LEFT = 0.1
BAR_WIDTH = 0.64
MAX_BAR = 0.24
MIN_BAR = 0.17
PILE_TOP = 0.07
#: A tall pile's height, in the corner right of its bars: its widest text fits there.
COUNT_ROOM = 0.94 - BAR_LEFT - BAR_WIDTH - 0.03
FOOT = 0.07
#: Figures side by side keep the band of the note free.
NOTE_BAND = 0.2
#: A path's line, as a part of a side (its dark casing is 1.8 times as wide).
LINK_WIDTH = 0.045
#: The widest digit or capital of DejaVu Sans Bold, as a part of the font size: how
#: wide a short text may be (SVG text is never measured).
WIDE_GLYPH = 0.7
# The last move's arrow: it starts and stops short of the centres, and short of
# the pieces on its two squares (ARROW_CLEAR beyond the box they fill), so that they
# stay visible; a gap too short for its head (ARROW_SHORTEST) draws no arrow.  Its
# shaft and head, as parts of a side.
ARROW_CLEAR = 0.06
ARROW_SHORTEST = 0.2
ARROW_START = 0.16
ARROW_END = 0.2
ARROW_SHAFT = 0.07
ARROW_HEAD = 0.26
ARROW_WING = 0.13
RING = 0.4

# Spelled out, not str.split(): viewer.js must cut text at the very same places.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def _num(value: float) -> str:
    """A coordinate as short, stable text (two decimals at most).

    Rounded with integer arithmetic that JavaScript does the same way, so that
    the viewer's pictures are the same text as these.
    """
    hundredths = math.floor(value * 100 + 0.5)
    sign = "-" if hundredths < 0 else ""
    whole, frac = divmod(abs(hundredths), 100)
    if not frac:
        return f"{sign}{whole}" if whole else "0"
    return f"{sign}{whole}.{frac:02d}".rstrip("0")


#: What XML 1.0 cannot hold even as a character reference: control characters but
#: tab and line ends, lone surrogates, U+FFFE and U+FFFF (a comment read from a file
#: that is not UTF-8 may carry them into a title).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace('"', "&quot;")
    if text.isprintable():  # the common case: nothing XML refuses
        return text
    return _NOT_XML.sub(lambda found: ascii(found.group())[1:-1], text)


def _attrs(attrs: Mapping[str, str | float]) -> str:
    parts = []
    for name, value in attrs.items():
        text = _num(value) if isinstance(value, float | int) else value
        parts.append(f' {name}="{_escape(text)}"')
    return "".join(parts)


def _el(name: str, attrs: Mapping[str, str | float], text: str | None = None) -> str:
    if text is None:
        return f"<{name}{_attrs(attrs)}/>"
    return f"<{name}{_attrs(attrs)}>{_escape(text)}</{name}>"


def _colour(palette: Mapping[str, str], role: str) -> str:
    """The fill of ``role``: the game's colour, made readable under text."""
    return readable(palette.get(role, FALLBACK))


def spreads_tokens(view: BoardView) -> bool:
    """Whether the tokens of a cell stand side by side rather than in a pile.

    The view says so (:attr:`~notation.games.view.BoardView.token_layout`): a zone where
    separate figures meet (pawns, zombies, a lock), or a stack whose order matters.
    """
    return view.token_layout == SPREAD


def pile_overflows(height: int) -> bool:
    """Whether a pile of ``height`` tokens is too tall to show every bar (it then
    shows its top bars and a ``+n`` bar); the same at any size."""
    return height * MIN_BAR > 1 - PILE_TOP - FOOT


def _pile_bars(height: int, side: float) -> tuple[float, int]:
    """(the height of one bar, how many tokens a ``+n`` bar stands for) of a pile."""
    room = side * (1 - PILE_TOP - FOOT)
    if not pile_overflows(height):
        return min(side * MAX_BAR, room / height), 0
    bar = side * MIN_BAR
    shown = max(1, int(room / bar) - 1)  # one bar's room goes to "+n"
    return bar, height - shown


def _spread_grid(count: int, side: float) -> tuple[int, int, float, float]:
    """(columns, rows, a figure's diameter, the top of the first row below the
    cell's top) of ``count`` figures side by side."""
    cols = math.ceil(math.sqrt(count))
    rows = math.ceil(count / cols)
    room = side * (1 - NOTE_BAND - FOOT)
    diameter = min(side * 0.34, side * 0.84 / cols, room / rows)
    return cols, rows, diameter, side * NOTE_BAND + (room - rows * diameter) / 2


def _token_box(
    view: BoardView, cell: Cell, corner: tuple[float, float], side: float
) -> tuple[float, float, float, float] | None:
    """The box (left, top, right, bottom) the tokens of ``cell`` fill; None for none."""
    count = len(cell.tokens)
    if not count or cell.role == "off":
        return None
    if spreads_tokens(view):
        cols, rows, diameter, top = _spread_grid(count, side)
        width = min(cols, count) * diameter
        left = corner[0] + (side - width) / 2
        return left, corner[1] + top, left + width, corner[1] + top + rows * diameter
    bar, hidden = _pile_bars(count, side)
    drawn = count - hidden + (1 if hidden else 0)
    bottom = corner[1] + side * (1 - FOOT)
    left = corner[0] + side * BAR_LEFT
    return left, bottom - drawn * bar, left + side * BAR_WIDTH, bottom


def _wrap(text: str, width: float, font: float) -> list[str]:
    """Split ``text`` into lines that fit ``width`` (estimated: SVG text never wraps)."""
    per_line = max(8, int(width / (font * 0.56)))
    lines: list[str] = []
    for paragraph in _LINE_BREAK.split(text):
        current = ""
        for word in _SPACES.split(paragraph):
            if not word:
                continue
            if current and len(current) + 1 + len(word) > per_line:
                lines.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        lines.append(current)
    return [line for line in lines if line]


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Where things go: one cell's side, the board's corner, the whole picture."""

    cell: float
    band: float
    left: float
    top: float
    width: float
    board_height: float
    text_top: float
    font: float
    #: The top left corner of each square of the grid, by its name (file + rank, as
    #: :meth:`BoardView.cell` names it: a label may have any length).
    corners: Mapping[str, tuple[float, float]]

    def origin(self, square: str) -> tuple[float, float] | None:
        return self.corners.get(square)

    def centre(self, square: str) -> tuple[float, float] | None:
        corner = self.corners.get(square)
        if corner is None:
            return None
        return corner[0] + self.cell / 2, corner[1] + self.cell / 2


def _geometry(view: BoardView, size: float) -> _Geometry:
    cells = max(len(view.files), len(view.ranks), 1)
    cell = size / cells
    band = max(18.0, min(28.0, cell * 0.4))
    board_height = cell * len(view.ranks)
    width = band + cell * len(view.files) + band / 2
    corners: dict[str, tuple[float, float]] = {}
    for row, rank in enumerate(reversed(view.ranks)):
        for col, file in enumerate(view.files):
            # A name that two label pairs spell (a malformed view) keeps its first place.
            corners.setdefault(file + rank, (band + col * cell, band / 2 + row * cell))
    return _Geometry(
        cell=cell,
        band=band,
        left=band,
        top=band / 2,
        width=width,
        board_height=board_height,
        text_top=band / 2 + board_height + band,
        font=max(12.0, min(16.0, size / 32)),
        corners=corners,
    )


def _tooltip(cell: Cell) -> str:
    """What a cell holds, in words, for its ``<title>`` (a browser's tooltip)."""
    text = f"{cell.square}: {cell.role.replace('-', ' ')}"
    if cell.tokens:
        text += ", " + " ".join(t.label or t.role for t in cell.tokens)
        if len(cell.tokens) > 1:
            text += " (bottom to top)"
    if cell.note:
        text += f"; note {cell.note}"
    if cell.detail:
        text += f"; {cell.detail}"
    return text


def _cells(view: BoardView, geo: _Geometry) -> Iterable[str]:
    stroke = _num(max(1.0, geo.cell * 0.02))
    for row in view.rows():
        for cell in row:
            corner = geo.origin(cell.square)
            if cell.role == "off" or corner is None:
                continue
            attrs = _attrs({
                "class": "cell", "data-square": cell.square, "data-role": cell.role,
                "x": corner[0], "y": corner[1], "width": geo.cell, "height": geo.cell,
                "fill": _colour(view.palette, cell.role), "stroke": INK,
                "stroke-width": stroke,
            })
            yield f"<rect{attrs}>{_el('title', {}, _tooltip(cell))}</rect>"


def _coordinates(view: BoardView, geo: _Geometry) -> Iterable[str]:
    font = geo.band * 0.55
    bottom = geo.top + geo.board_height
    for col, file in enumerate(view.files):
        yield _el("text", {
            "class": "coord", "x": geo.left + (col + 0.5) * geo.cell,
            "y": bottom + geo.band * 0.7, "font-size": font, "text-anchor": "middle",
            "fill": MUTED,
        }, file)
    for row, rank in enumerate(reversed(view.ranks)):
        yield _el("text", {
            "class": "coord", "x": geo.left / 2, "y": geo.top + (row + 0.5) * geo.cell,
            "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
            "fill": MUTED,
        }, rank)


def _link_colour(view: BoardView) -> str:
    return view.palette.get("link", view.palette.get("path", LINK))


def _link(ends: Mapping[str, float], colour: str, width: float) -> str:
    # A pale line on a dark casing reads on light and dark cells alike.
    return (
        _el("line", {**ends, "stroke": INK, "stroke-width": width * 1.8,
                     "stroke-linecap": "round", "stroke-opacity": "0.55"})
        + _el("line", {**ends, "stroke": colour, "stroke-width": width,
                       "stroke-linecap": "round"})
    )


def _links(view: BoardView, geo: _Geometry) -> Iterable[str]:
    colour = _link_colour(view)
    width = geo.cell * LINK_WIDTH
    for a, b in view.links:
        start, end = geo.centre(a), geo.centre(b)
        if start is None or end is None:
            continue
        ends = {"x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1]}
        yield (
            "<g" + _attrs({"class": "link", "data-from": a, "data-to": b}) + ">"
            + _link(ends, colour, width) + "</g>"
        )


def _point_segment(
    point: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    squared = dx * dx + dy * dy
    t = 0.0 if squared == 0 else ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / squared
    t = max(0.0, min(1.0, t))
    x, y = point[0] - (a[0] + t * dx), point[1] - (a[1] + t * dy)
    return math.sqrt(x * x + y * y)


def _segment_box(
    a: tuple[float, float], b: tuple[float, float], box: tuple[float, float, float, float]
) -> float:
    """The distance between the segment ``a``-``b`` and ``box`` (0 where they meet)."""
    crossing = _ray_box(a, b[0] - a[0], b[1] - a[1], box, 0.0)
    if crossing is not None and crossing[0] <= 1 and crossing[1] >= 0:
        return 0.0
    ends = []
    for x, y in (a, b):
        dx, dy = max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3])
        ends.append(math.sqrt(dx * dx + dy * dy))
    corners = [_point_segment((x, y), a, b) for x in (box[0], box[2]) for y in (box[1], box[3])]
    return min(*ends, *corners)


#: Where a note may stand on its cell, in order of preference: (x as a part of the
#: side, text-anchor).  The first whose text keeps clear of every path is taken.
NOTE_PLACES: tuple[tuple[float, str], ...] = (
    (0.94, "end"), (0.06, "start"), (0.58, "start"), (0.42, "end"),
)


def _note_place(
    geo: _Geometry, corner: tuple[float, float], note: str, font: float,
    paths: Sequence[tuple[tuple[float, float], tuple[float, float]]],
) -> tuple[float, str]:
    """(x, text-anchor) of a note: the first of NOTE_PLACES clear of the paths' lines."""
    width = len(note) * font * WIDE_GLYPH
    top = corner[1] + geo.cell * 0.05
    clear = geo.cell * LINK_WIDTH * 0.9 + geo.cell * 0.02  # the casing's half, and a gap
    for part, anchor in NOTE_PLACES:
        x = corner[0] + geo.cell * part
        left = x - width if anchor == "end" else x
        box = (left, top, left + width, top + font)
        if all(_segment_box(a, b, box) > clear for a, b in paths):
            return x, anchor
    return corner[0] + geo.cell * NOTE_PLACES[0][0], NOTE_PLACES[0][1]


def _notes(view: BoardView, geo: _Geometry) -> Iterable[str]:
    font = _note_font(geo.cell)
    paths = []
    for a, b in view.links:
        start, end = geo.centre(a), geo.centre(b)
        if start is not None and end is not None:
            paths.append((start, end))
    for row in view.rows():
        for cell in row:
            corner = geo.origin(cell.square)
            if not cell.note or cell.role == "off" or corner is None:
                continue
            fill = _colour(view.palette, cell.role)
            x, anchor = _note_place(geo, corner, cell.note, font, paths)
            yield _el("text", {
                "class": "note", "data-square": cell.square,
                "x": x, "y": corner[1] + geo.cell * 0.05 + font * 0.85,
                "font-size": font, "text-anchor": anchor, "fill": ink_on(fill),
            }, cell.note)


def _note_font(side: float) -> float:
    return max(9.0, min(14.0, side * 0.16))


def _token_text(label: str, x: float, y: float, font: float, fill: str) -> str:
    return _el("text", {
        "x": x, "y": y, "font-size": font, "text-anchor": "middle",
        "dominant-baseline": "central", "font-weight": "bold", "fill": ink_on(fill),
    }, label)


def _bar(x: float, y: float, width: float, bar: float, fill: str, stroke: str) -> str:
    return _el("rect", {
        "x": x, "y": y, "width": width, "height": bar, "rx": bar * 0.35,
        "fill": fill, "stroke": INK, "stroke-width": stroke,
    })


def _more_bar(x: float, y: float, width: float, bar: float, stroke: str, hidden: str) -> str:
    return (
        "<g class=\"more\">"
        + _el("rect", {
            "x": x, "y": y, "width": width, "height": bar, "rx": bar * 0.35,
            "fill": PAPER, "stroke": INK, "stroke-width": stroke,
            "stroke-dasharray": "3 2",
        })
        + _el("text", {
            "x": x + width / 2, "y": y + bar / 2, "font-size": bar * 0.75,
            "text-anchor": "middle", "dominant-baseline": "central", "fill": INK,
        }, hidden)
        + "</g>"
    )


def _pile(view: BoardView, cell: Cell, corner: tuple[float, float], side: float) -> list[str]:
    """A stack seen from the side: bars bottom to top, the top ones if it is too tall."""
    bar, hidden = _pile_bars(len(cell.tokens), side)
    tokens = list(cell.tokens)[hidden:]
    width = side * BAR_WIDTH
    x = corner[0] + side * BAR_LEFT
    bottom = corner[1] + side * (1 - FOOT)
    stroke = _num(max(0.8, side * 0.015))
    out: list[str] = []
    if hidden:
        bottom -= bar
        out.append(_more_bar(x, bottom, width, bar, stroke, f"+{hidden}"))
    for token in tokens:
        bottom -= bar
        fill = _colour(view.palette, token.role)
        body = _bar(x, bottom, width, bar, fill, stroke)
        if token.label:
            body += _token_text(token.label, x + width / 2, bottom + bar / 2, bar * 0.72, fill)
        out.append(_token_group(token, body))
    if hidden:
        count = str(len(cell.tokens))
        # As large as a note, as long as it fits right of the bars.
        font = min(_note_font(side), side * COUNT_ROOM / (WIDE_GLYPH * len(count)))
        out.append(_el("text", {
            "class": "count", "x": corner[0] + side * 0.94,
            "y": corner[1] + side * 0.94, "font-size": font,
            "text-anchor": "end", "font-weight": "bold", "fill": ink_on(
                _colour(view.palette, cell.role)
            ),
        }, count))
    return out


def _disc(cx: float, cy: float, diameter: float, fill: str, stroke: str) -> str:
    return _el("circle", {
        "cx": cx, "cy": cy, "r": diameter * 0.44, "fill": fill, "stroke": INK,
        "stroke-width": stroke,
    })


def _spread(view: BoardView, cell: Cell, corner: tuple[float, float], side: float) -> list[str]:
    """Separate figures side by side, in rows, in the order the view gives them."""
    count = len(cell.tokens)
    cols, _rows, diameter, top = _spread_grid(count, side)
    top += corner[1]
    stroke = _num(max(0.8, side * 0.012))
    out: list[str] = []
    for index, token in enumerate(cell.tokens):
        row, col = divmod(index, cols)
        in_row = min(cols, count - row * cols)
        left = corner[0] + (side - in_row * diameter) / 2
        cx = left + (col + 0.5) * diameter
        cy = top + (row + 0.5) * diameter
        fill = _colour(view.palette, token.role)
        body = _disc(cx, cy, diameter, fill, stroke)
        if token.label:
            body += _token_text(token.label, cx, cy, diameter * 0.42, fill)
        out.append(_token_group(token, body))
    return out


def _token_group(token: Token, body: str) -> str:
    attrs = _attrs({"class": "token", "data-role": token.role, "data-label": token.label})
    return f"<g{attrs}>{body}</g>"


def _tokens(view: BoardView, geo: _Geometry) -> Iterable[str]:
    draw = _spread if spreads_tokens(view) else _pile
    for row in view.rows():
        for cell in row:
            corner = geo.origin(cell.square)
            if not cell.tokens or cell.role == "off" or corner is None:
                continue
            attrs = _attrs({
                "class": "stack", "data-square": cell.square, "data-height": len(cell.tokens)
            })
            title = _el("title", {}, _tooltip(cell))
            yield f"<g{attrs}>{title}" + "".join(draw(view, cell, corner, geo.cell)) + "</g>"


def _mark_colour(view: BoardView) -> str:
    return view.palette.get("mark", MARK)


def _ray_box(
    start: tuple[float, float], ux: float, uy: float,
    box: tuple[float, float, float, float], grow: float,
) -> tuple[float, float] | None:
    """Where the ray from ``start`` along (ux, uy) enters and leaves ``box`` grown by
    ``grow`` on every side, as distances along it; None where it misses."""
    low, high = -math.inf, math.inf
    for origin, step, near, far in (
        (start[0], ux, box[0] - grow, box[2] + grow),
        (start[1], uy, box[1] - grow, box[3] + grow),
    ):
        if step == 0:
            if origin < near or origin > far:
                return None
            continue
        a, b = (near - origin) / step, (far - origin) / step
        low, high = max(low, min(a, b)), min(high, max(a, b))
    return (low, high) if low <= high else None


def _arrow_path(
    start: tuple[float, float], end: tuple[float, float], side: float,
    boxes: tuple[tuple[float, float, float, float] | None,
                 tuple[float, float, float, float] | None] = (None, None),
) -> str | None:
    """The outline of an arrow from ``start`` to ``end`` (centres), as path data.

    ``boxes`` are where the tokens of the two squares are (:func:`_token_box`): the
    arrow leaves the first and stops short of the second, ARROW_CLEAR of a side
    away.  None when the room left is shorter than ARROW_SHORTEST of a side.  Only
    square roots, products and quotients: JavaScript computes the very same numbers
    (its trigonometry may differ in the last bit, its square root cannot).
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.sqrt(dx * dx + dy * dy)
    if length == 0:
        return None
    ux, uy = dx / length, dy / length
    begin, stop = side * ARROW_START, length - side * ARROW_END
    if boxes[0] is not None:
        out = _ray_box(start, ux, uy, boxes[0], side * (ARROW_SHAFT / 2 + ARROW_CLEAR))
        if out is not None:
            begin = max(begin, out[1])
    if boxes[1] is not None:
        into = _ray_box(start, ux, uy, boxes[1], side * ARROW_CLEAR)
        if into is not None:
            stop = min(stop, into[0])
    if stop - begin < side * ARROW_SHORTEST:
        return None  # the pieces fill the way: the outline says it all
    head = min(side * ARROW_HEAD, (stop - begin) * 0.75)
    px, py = -uy, ux  # the perpendicular
    x0, y0 = start[0] + ux * begin, start[1] + uy * begin
    x2, y2 = start[0] + ux * stop, start[1] + uy * stop
    x1, y1 = x2 - ux * head, y2 - uy * head
    shaft = side * ARROW_SHAFT / 2
    wing = shaft + head * ARROW_WING / ARROW_HEAD
    points = [
        (x0 + px * shaft, y0 + py * shaft),
        (x1 + px * shaft, y1 + py * shaft),
        (x1 + px * wing, y1 + py * wing),
        (x2, y2),
        (x1 - px * wing, y1 - py * wing),
        (x1 - px * shaft, y1 - py * shaft),
        (x0 - px * shaft, y0 - py * shaft),
    ]
    return "M" + " L".join(f"{_num(x)} {_num(y)}" for x, y in points) + " Z"


def _move_path(view: BoardView, geo: _Geometry, arrow: Sequence[str] | None) -> str | None:
    """The path of the last move's arrow on the board, or None for none."""
    if arrow is None or len(arrow) != 2:
        return None
    start, end = geo.centre(arrow[0]), geo.centre(arrow[1])
    corners = geo.origin(arrow[0]), geo.origin(arrow[1])
    if start is None or end is None or corners[0] is None or corners[1] is None:
        return None
    boxes = (
        _token_box(view, view.cell(arrow[0]), corners[0], geo.cell),
        _token_box(view, view.cell(arrow[1]), corners[1], geo.cell),
    )
    return _arrow_path(start, end, geo.cell, boxes)


def _marks(view: BoardView, geo: _Geometry, arrow: Sequence[str] | None) -> Iterable[str]:
    """The last move's outlines and rings, drawn beneath the notes and tokens."""
    width = max(2.0, geo.cell * 0.06)
    colour = _mark_colour(view)
    squares = dict.fromkeys(view.marks)  # a square named twice is outlined once
    for square in squares:
        corner = geo.origin(square)
        if corner is None:
            continue
        yield _el("rect", {
            "class": "mark", "data-square": square,
            "x": corner[0] + width / 2, "y": corner[1] + width / 2,
            "width": geo.cell - width, "height": geo.cell - width,
            "fill": "none", "stroke": colour, "stroke-width": width,
        })
    moved = () if arrow is None or _move_path(view, geo, arrow) is None else tuple(arrow)
    for square in squares:
        centre = geo.centre(square)
        if square in moved or centre is None:
            continue
        yield _ring(centre[0], centre[1], geo.cell * RING, width * 0.6, colour, square)


def _arrow(view: BoardView, geo: _Geometry, arrow: Sequence[str] | None) -> Iterable[str]:
    """The last move's arrow, over the tokens but clear of those on its squares."""
    path = _move_path(view, geo, arrow)
    if arrow is None or path is None:
        return
    yield (
        "<g" + _attrs({"class": "arrow", "data-from": arrow[0], "data-to": arrow[1]})
        + ">" + _el("path", {
            "d": path, "fill": _mark_colour(view), "fill-opacity": "0.8", "stroke": INK,
            "stroke-width": max(1.0, geo.cell * 0.015), "stroke-linejoin": "round",
        }) + "</g>"
    )


def _ring(cx: float, cy: float, radius: float, width: float, colour: str, square: str) -> str:
    # A dark casing under the ring, so that it reads on a light cell too.
    return (
        "<g" + _attrs({"class": "ring", "data-square": square}) + ">"
        + _el("circle", {"cx": cx, "cy": cy, "r": radius, "fill": "none", "stroke": INK,
                         "stroke-width": width * 1.6, "stroke-opacity": "0.55"})
        + _el("circle", {"cx": cx, "cy": cy, "r": radius, "fill": "none",
                         "stroke": colour, "stroke-width": width})
        + "</g>"
    )


def _text_lines(
    view: BoardView, geo: _Geometry, facts: bool, caption: bool
) -> list[tuple[str, str]]:
    """(class, text) of each line under the board."""
    room = geo.width - geo.left
    lines = (
        [("caption", line) for line in _wrap(view.caption, room, geo.font)] if caption else []
    )
    if facts:
        for key, value in view.facts:
            lines.extend(("fact", line) for line in _wrap(f"{key}: {value}", room, geo.font))
    return lines


def _swatch(entry: LegendEntry, x: float, y: float, unit: float, view: BoardView) -> str:
    """The little picture of a legend entry, in a ``unit`` square at (x, y)."""
    stroke = _num(max(0.8, unit * 0.06))
    mark = _mark_colour(view)
    if entry.kind == "cell":
        return _el("rect", {
            "x": x, "y": y, "width": unit, "height": unit,
            "fill": readable(entry.colour or FALLBACK), "stroke": INK, "stroke-width": stroke,
        })
    if entry.kind == "token":
        fill = readable(entry.colour or FALLBACK)
        if spreads_tokens(view):
            body = _disc(x + unit / 2, y + unit / 2, unit / 0.88, fill, stroke)
            font = unit * 0.42 / 0.88
        else:
            body = _bar(x - unit * 0.1, y + unit * 0.2, unit * 1.2, unit * 0.6, fill, stroke)
            font = unit * 0.6 * 0.72
        if entry.sample:
            body += _token_text(entry.sample, x + unit / 2, y + unit / 2, font, fill)
        return body
    if entry.kind == "note":
        # A long note ("KZS") is made smaller to stay in front of the words.
        font = min(unit * 0.8, unit * 1.7 / (WIDE_GLYPH * max(1, len(entry.sample))))
        return _el("text", {
            "x": x + unit * 1.5, "y": y + unit * 0.8, "font-size": font, "text-anchor": "end",
            "fill": INK,
        }, entry.sample)
    if entry.kind == "more":
        return _more_bar(x - unit * 0.1, y + unit * 0.2, unit * 1.2, unit * 0.6, stroke, "+n")
    if entry.kind == "path":
        ends = {"x1": x, "y1": y + unit / 2, "x2": x + unit, "y2": y + unit / 2}
        return _link(ends, _link_colour(view), unit * 0.2)
    if entry.kind == "arrow":
        path = _arrow_path((x - unit * 0.5, y + unit / 2), (x + unit * 1.4, y + unit / 2), unit)
        return _el("path", {
            "d": path or "", "fill": mark, "stroke": INK, "stroke-width": stroke,
            "stroke-linejoin": "round",
        })
    if entry.kind == "ring":
        return _ring(x + unit / 2, y + unit / 2, unit * 0.42, unit * 0.12, mark, "")
    return _el("rect", {
        "x": x + unit * 0.06, "y": y + unit * 0.06, "width": unit * 0.88,
        "height": unit * 0.88, "fill": "none", "stroke": mark, "stroke-width": unit * 0.12,
    })


def _legend_layout(
    geo: _Geometry, entries: Sequence[LegendEntry]
) -> tuple[list[tuple[float, int, list[str]]], int]:
    """Where each entry goes: (x, first row, its lines); and the rows in all.

    Two columns where the picture is wide enough, filled left then right, each
    entry's text wrapped to its column.  Each column runs on from entry to entry
    (a long entry leaves no empty rows beside it), and the entries are split
    between the columns where that makes the longer one shortest.
    """
    columns = 2 if geo.width >= 360 else 1
    column = (geo.width - geo.left - geo.band / 2) / columns
    room = column - geo.font * 2.4
    wrapped = [_wrap(e.text, room, geo.font * 0.85) or [""] for e in entries]
    heights = [len(lines) for lines in wrapped]
    total = sum(heights)
    # The entries of the left column: all of them, or the split of the least rows
    # (the left column the longer of the two on a tie).
    split = len(entries) if columns == 1 else min(
        range(len(entries) + 1),
        key=lambda k: (max(sum(heights[:k]), total - sum(heights[:k])), -k),
    )
    layout: list[tuple[float, int, list[str]]] = []
    rows = [0, 0]
    for i, lines in enumerate(wrapped):
        side = int(i >= split)
        layout.append((geo.left + side * column, rows[side], lines))
        rows[side] += len(lines)
    return layout, max(rows)


def _legend(
    view: BoardView, geo: _Geometry, entries: Sequence[LegendEntry], top: float,
    line_height: float,
) -> list[str]:
    unit = geo.font * 0.85
    layout, _rows = _legend_layout(geo, entries)
    out: list[str] = []
    for entry, (x, row, lines) in zip(entries, layout, strict=True):
        y = top + row * line_height
        attrs = _attrs({"class": "legend", "data-kind": entry.kind, "data-role": entry.role})
        texts = "".join(
            _el("text", {
                "x": x + unit * 2, "y": y + (index + 0.8) * line_height,
                "font-size": geo.font * 0.85, "fill": MUTED,
            }, line)
            for index, line in enumerate(lines)
        )
        swatch = _swatch(entry, x + unit * 0.2, y + (line_height - unit) / 2, unit, view)
        out.append(f"<g{attrs}>{swatch}{texts}</g>")
    return out


def board_svg(
    view: BoardView,
    *,
    size: float = DEFAULT_SIZE,
    title: str | None = None,
    facts: bool = True,
    caption: bool = True,
    arrow: Sequence[str] | None = None,
    legend: bool = False,
) -> str:
    """``view`` as a standalone SVG document (a string, ending with a newline).

    ``size`` is the length of the board's longer side in user units; ``title`` goes
    in the ``<title>`` element (default: the caption); ``caption`` and ``facts`` add
    the view's caption and facts under the board (without either, the picture of
    every position of a game has the same size); ``arrow`` (from, to), two of the
    view's marks, draws the last move as an arrow (see :func:`move_arrow`), and
    the other marks as rings; ``legend`` adds what each mark used means.
    """
    geo = _geometry(view, size)
    lines = _text_lines(view, geo, facts, caption)
    line_height = geo.font * 1.35
    moved = tuple(arrow) if arrow is not None and len(arrow) == 2 else None
    entries: list[LegendEntry] = []
    if legend:
        marks = set(view.marks)
        entries = legend_entries(
            [view],
            arrow=moved is not None,
            ring=bool(marks - set(moved or ())),
            more=not spreads_tokens(view) and any(
                pile_overflows(len(c.tokens)) for c in view.cells.values() if c.role != "off"
            ),
        )
    legend_top = geo.text_top + len(lines) * line_height + (geo.band / 2 if entries else 0)
    rows = _legend_layout(geo, entries)[1] if entries else 0
    height = legend_top + rows * line_height + geo.band / 2
    name = title if title is not None else (view.caption or "Board position")
    parts = [
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_num(geo.width)} {_num(height)}" '
        f'width="{_num(geo.width)}" height="{_num(height)}" class="board" '
        f'font-family="{FONT}">',
        _el("title", {}, name),
        _el("rect", {"class": "paper", "x": 0, "y": 0, "width": geo.width, "height": height,
                     "rx": 6, "fill": PAPER}),
        '<g class="cells">', *_cells(view, geo), "</g>",
        '<g class="coords">', *_coordinates(view, geo), "</g>",
        '<g class="links">', *_links(view, geo), "</g>",
        # The marks beneath the notes and tokens, the arrow over them: none hides a piece.
        '<g class="marks">', *_marks(view, geo, moved), "</g>",
        '<g class="notes">', *_notes(view, geo), "</g>",
        '<g class="tokens">', *_tokens(view, geo), "</g>",
        '<g class="arrows">', *_arrow(view, geo, moved), "</g>",
        '<g class="text">',
    ]
    for index, (kind, line) in enumerate(lines):
        parts.append(_el("text", {
            "class": kind, "x": geo.left, "y": geo.text_top + (index + 0.8) * line_height,
            "font-size": geo.font, "fill": INK if kind == "caption" else MUTED,
        }, line))
    parts.append("</g>")
    if entries:
        parts += ['<g class="legend">', *_legend(view, geo, entries, legend_top, line_height),
                  "</g>"]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
