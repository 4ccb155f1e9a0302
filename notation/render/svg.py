"""A position as a standalone SVG picture.

:func:`board_svg` draws any :class:`notation.view.BoardView` and knows no game:
cells coloured by their role, coordinates, the paths between cells, the tokens
on each cell, the corner note, the squares of the last move, and the caption
and facts under the board.  :func:`position_svg` replays a record to a turn and
draws the position reached.

The HTML viewer (:mod:`notation.render.html`) draws the same pictures in the
browser with a JavaScript port of this module (``viewer.js``); the two follow
the same geometry, step by step, so a change here belongs there too.

Output is deterministic: numbers are rounded and written the same way every
time, cells are drawn in board order, and nothing depends on dict order beyond
the view's own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from notation.record import Record
from notation.stepper import Stepper
from notation.view import SPREAD, BoardView, Cell, Token

__all__ = [
    "DEFAULT_SIZE",
    "PositionPicture",
    "board_svg",
    "draw_position",
    "position_svg",
    "spreads_tokens",
]

#: The length of the board's longer side, in SVG user units.
DEFAULT_SIZE = 480

SVG_NS = "http://www.w3.org/2000/svg"
INK = "#2b2622"
PAPER = "#fbf8f1"
MUTED = "#6f665c"
MARK = "#e0a100"
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
MIN_BAR = 0.13
PILE_TOP = 0.07
FOOT = 0.07
#: Figures side by side keep the band of the note free.
NOTE_BAND = 0.2

# Spelled out, not str.split(): viewer.js must cut text at the very same places.
_RGB = re.compile("#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")
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


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;")
    )


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
    return palette.get(role, FALLBACK)


def _ink_on(fill: str) -> str:
    """Black or white text, whichever reads better on ``fill`` ("#rrggbb")."""
    found = _RGB.match(fill)
    if found is None:
        return INK
    r, g, b = (int(part, 16) for part in found.groups())
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def spreads_tokens(view: BoardView) -> bool:
    """Whether the tokens of a cell stand side by side rather than in a pile.

    The view says so (:attr:`~notation.view.BoardView.token_layout`): a zone where
    separate figures meet (pawns, zombies, a lock), or a stack whose order matters.
    """
    return view.token_layout == SPREAD


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


def _cells(view: BoardView, geo: _Geometry) -> Iterable[str]:
    stroke = _num(max(1.0, geo.cell * 0.02))
    for row in view.rows():
        for cell in row:
            corner = geo.origin(cell.square)
            if cell.role == "off" or corner is None:
                continue
            yield _el("rect", {
                "class": "cell", "data-square": cell.square, "data-role": cell.role,
                "x": corner[0], "y": corner[1], "width": geo.cell, "height": geo.cell,
                "fill": _colour(view.palette, cell.role), "stroke": INK,
                "stroke-width": stroke,
            })


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


def _links(view: BoardView, geo: _Geometry) -> Iterable[str]:
    # A pale line on a dark casing reads on light and dark cells alike.
    colour = view.palette.get("link", view.palette.get("path", LINK))
    width = geo.cell * 0.045
    for a, b in view.links:
        start, end = geo.centre(a), geo.centre(b)
        if start is None or end is None:
            continue
        ends = {"x1": start[0], "y1": start[1], "x2": end[0], "y2": end[1]}
        yield (
            "<g" + _attrs({"class": "link", "data-from": a, "data-to": b}) + ">"
            + _el("line", {**ends, "stroke": INK, "stroke-width": width * 1.8,
                           "stroke-linecap": "round", "stroke-opacity": "0.55"})
            + _el("line", {**ends, "stroke": colour, "stroke-width": width,
                           "stroke-linecap": "round"})
            + "</g>"
        )


def _notes(view: BoardView, geo: _Geometry) -> Iterable[str]:
    font = _note_font(geo.cell)
    for row in view.rows():
        for cell in row:
            corner = geo.origin(cell.square)
            if not cell.note or cell.role == "off" or corner is None:
                continue
            fill = _colour(view.palette, cell.role)
            yield _el("text", {
                "class": "note", "data-square": cell.square,
                "x": corner[0] + geo.cell * 0.94, "y": corner[1] + geo.cell * 0.05 + font * 0.85,
                "font-size": font, "text-anchor": "end", "fill": _ink_on(fill),
                "fill-opacity": "0.8",
            }, cell.note)


def _note_font(side: float) -> float:
    return max(9.0, min(14.0, side * 0.16))


def _token_text(
    token: Token, x: float, y: float, font: float, fill: str
) -> str:
    return _el("text", {
        "x": x, "y": y, "font-size": font, "text-anchor": "middle",
        "dominant-baseline": "central", "font-weight": "bold", "fill": _ink_on(fill),
    }, token.label)


def _pile(view: BoardView, cell: Cell, corner: tuple[float, float], side: float) -> list[str]:
    """A stack seen from the side: bars bottom to top, the top ones if it is too tall."""
    tokens = list(cell.tokens)
    room = side * (1 - PILE_TOP - FOOT)
    bar = min(side * MAX_BAR, room / len(tokens))
    hidden = 0
    if bar < side * MIN_BAR:
        bar = side * MIN_BAR
        shown = max(1, int(room / bar) - 1)  # one bar's room goes to "+n"
        hidden = len(tokens) - shown
        tokens = tokens[hidden:]
    width = side * BAR_WIDTH
    x = corner[0] + side * BAR_LEFT
    bottom = corner[1] + side * (1 - FOOT)
    stroke = _num(max(0.8, side * 0.015))
    out: list[str] = []
    if hidden:
        bottom -= bar
        out.append(
            "<g class=\"more\">"
            + _el("rect", {
                "x": x, "y": bottom, "width": width, "height": bar, "rx": bar * 0.35,
                "fill": PAPER, "stroke": INK, "stroke-width": stroke,
                "stroke-dasharray": "3 2",
            })
            + _el("text", {
                "x": x + width / 2, "y": bottom + bar / 2, "font-size": bar * 0.75,
                "text-anchor": "middle", "dominant-baseline": "central", "fill": INK,
            }, f"+{hidden}")
            + "</g>"
        )
    for token in tokens:
        bottom -= bar
        fill = _colour(view.palette, token.role)
        body = _el("rect", {
            "x": x, "y": bottom, "width": width, "height": bar, "rx": bar * 0.35,
            "fill": fill, "stroke": INK, "stroke-width": stroke,
        })
        if token.label:
            body += _token_text(token, x + width / 2, bottom + bar / 2, bar * 0.72, fill)
        out.append(_token_group(token, body))
    if hidden:
        out.append(_el("text", {
            "class": "count", "x": corner[0] + side * 0.94,
            "y": corner[1] + side * 0.94, "font-size": _note_font(side),
            "text-anchor": "end", "font-weight": "bold", "fill": INK,
        }, str(len(cell.tokens))))
    return out


def _spread(view: BoardView, cell: Cell, corner: tuple[float, float], side: float) -> list[str]:
    """Separate figures side by side, in rows, in the order the view gives them."""
    count = len(cell.tokens)
    cols = math.ceil(math.sqrt(count))
    rows = math.ceil(count / cols)
    room = side * (1 - NOTE_BAND - FOOT)
    diameter = min(side * 0.34, side * 0.84 / cols, room / rows)
    top = corner[1] + side * NOTE_BAND + (room - rows * diameter) / 2
    stroke = _num(max(0.8, side * 0.012))
    out: list[str] = []
    for index, token in enumerate(cell.tokens):
        row, col = divmod(index, cols)
        in_row = min(cols, count - row * cols)
        left = corner[0] + (side - in_row * diameter) / 2
        cx = left + (col + 0.5) * diameter
        cy = top + (row + 0.5) * diameter
        fill = _colour(view.palette, token.role)
        body = _el("circle", {
            "cx": cx, "cy": cy, "r": diameter * 0.44, "fill": fill, "stroke": INK,
            "stroke-width": stroke,
        })
        if token.label:
            body += _token_text(token, cx, cy, diameter * 0.42, fill)
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
            yield f"<g{attrs}>" + "".join(draw(view, cell, corner, geo.cell)) + "</g>"


def _marks(view: BoardView, geo: _Geometry) -> Iterable[str]:
    width = max(2.0, geo.cell * 0.06)
    colour = view.palette.get("mark", MARK)
    for square in dict.fromkeys(view.marks):  # a square named twice is outlined once
        corner = geo.origin(square)
        if corner is None:
            continue
        yield _el("rect", {
            "class": "mark", "data-square": square,
            "x": corner[0] + width / 2, "y": corner[1] + width / 2,
            "width": geo.cell - width, "height": geo.cell - width,
            "fill": "none", "stroke": colour, "stroke-width": width,
        })


def _text_lines(view: BoardView, geo: _Geometry, facts: bool) -> list[tuple[str, str]]:
    """(class, text) of each line under the board."""
    room = geo.width - geo.left
    lines = [("caption", line) for line in _wrap(view.caption, room, geo.font)]
    if facts:
        for key, value in view.facts:
            lines.extend(("fact", line) for line in _wrap(f"{key}: {value}", room, geo.font))
    return lines


def board_svg(
    view: BoardView, *, size: float = DEFAULT_SIZE, title: str | None = None, facts: bool = True
) -> str:
    """``view`` as a standalone SVG document (a string, ending with a newline).

    ``size`` is the length of the board's longer side in user units; ``title`` goes
    in the ``<title>`` element (default: the caption); ``facts`` adds the view's
    facts under the caption.
    """
    geo = _geometry(view, size)
    lines = _text_lines(view, geo, facts)
    line_height = geo.font * 1.35
    height = geo.text_top + len(lines) * line_height + geo.band / 2
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
        '<g class="notes">', *_notes(view, geo), "</g>",
        '<g class="tokens">', *_tokens(view, geo), "</g>",
        '<g class="marks">', *_marks(view, geo), "</g>",
        '<g class="text">',
    ]
    for index, (kind, line) in enumerate(lines):
        parts.append(_el("text", {
            "class": kind, "x": geo.left, "y": geo.text_top + (index + 0.8) * line_height,
            "font-size": geo.font, "fill": INK if kind == "caption" else MUTED,
        }, line))
    parts += ["</g>", "</svg>"]
    return "\n".join(parts) + "\n"


@dataclass(frozen=True, slots=True)
class PositionPicture:
    """What :func:`draw_position` reached: the picture, the turn, and any defect."""

    svg: str
    turn: int
    #: Whether the position drawn is the one asked for (False: a defect stopped the replay).
    reached: bool
    #: The record's first defect (``str`` of a :class:`notation.errors.Defect`).
    error: str | None


def draw_position(
    record: Record,
    game: str | None = None,
    turn: int | None = None,
    *,
    size: float = DEFAULT_SIZE,
) -> PositionPicture:
    """Replay ``record``'s main line to ``turn`` (default: its end) and draw it.

    ``game`` names the game of a record without a ``Game`` tag.  A broken record is
    drawn as far as it goes.  Raises :class:`notation.stepper.StepperError` when the
    record cannot be replayed at all (unknown game, bad setup tag).
    """
    stepper = Stepper(record, default_game=game)
    if turn is None:
        stepper.to_end()
        reached = stepper.error is None
    else:
        reached = stepper.goto_turn(turn)
    error = stepper.error or stepper.verdict.error
    view = stepper.position.board_view()
    return PositionPicture(
        svg=board_svg(view, size=size, title=_title(record, stepper.turn)),
        turn=stepper.turn,
        reached=reached,
        error=None if error is None else str(error),
    )


def position_svg(
    record: Record, game: str | None = None, turn: int | None = None, *,
    size: float = DEFAULT_SIZE,
) -> str:
    """The SVG of the position after ``turn`` of ``record``'s main line (default: the end).

    See :func:`draw_position`, which also says whether a defect stopped the replay.
    """
    return draw_position(record, game, turn, size=size).svg


def _title(record: Record, turn: int) -> str:
    event = record.tag("Event") or f"Record {record.index}"
    return f"{event}, after turn {turn}"
