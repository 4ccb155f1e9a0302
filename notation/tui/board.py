"""The board of ``notation replay`` (:class:`BoardWidget`: a click gives its square), and
:func:`choose_layout`: how to draw it in the room there is (full or compact cells, with
or without notes, panels beside or below), saying what it had to leave out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from notation.games.view import BoardView
from notation.render.terminal import (
    BoardDrawing,
    board_size,
    cell_width,
    draw_board,
    facts_width,
)

# BoardWidget is left out for pdoc, which cannot read Textual's own annotations.
__all__ = ["Layout", "ScreenNeeds", "choose_layout", "record_needs"]

#: The narrowest the side panels (move, moves, facts) may be beside the board.
SIDE_MIN = 30
#: As narrow as they may get to keep a board of tall stacks beside them at 80x24.
SIDE_TIGHT = 28
#: The side panels' width below which the board is not drawn bigger than needed.
ZOOM_SIDE = 50
MAX_ZOOM = 4
#: The record list, when there is room for it beside everything else.
LIST_WIDTH = 40
#: Columns of the screen around the board and the side panels' text: their padding
#: and the side's scroll bar.
FRAME = 5
#: Rows that are not the body: the title (2), the status line, the footer.
CHROME_ROWS = 4
#: The smallest terminal that shows everything (below it, the notice says what is not).
MIN_WIDTH, MIN_HEIGHT = 80, 24

#: A way to draw a board: (compact, notes).
Form = tuple[bool, bool]
#: The ways to draw a board, most detailed first.
FORMS: tuple[Form, ...] = ((False, True), (False, False), (True, True), (True, False))


@dataclass(frozen=True, slots=True)
class ScreenNeeds:
    """What every position of a record needs of the screen, so that all are drawn the
    same size: the cells' inside width in each form, a note line, the facts' width."""

    inner: Mapping[Form, int]
    note_line: bool
    facts: int


def record_needs(views: Iterable[BoardView]) -> ScreenNeeds:
    """The :class:`ScreenNeeds` of the positions ``views`` (a record's, as it is opened)."""
    inner = dict.fromkeys(FORMS, 0)
    note_line = False
    facts = 0
    for view in views:
        for form in FORMS:
            width, lines = cell_width(view, compact=form[0], notes=form[1])
            inner[form] = max(inner[form], width)
            note_line = note_line or lines
        facts = max(facts, facts_width(view.facts))
    return ScreenNeeds(MappingProxyType(inner), note_line, facts)


@dataclass(frozen=True, slots=True)
class Layout:
    """How the screen is shared out."""

    compact: bool
    notes: bool
    #: Panels below the board (the window is too narrow for them beside it).
    narrow: bool
    #: The record list beside the board.
    list_beside: bool
    board_width: int
    board_height: int
    #: What had to be left out, in words ("" when nothing was).
    notice: str = ""
    #: How much bigger than needed the cells are drawn (a big window).
    zoom: int = 0
    #: The cells' inside width (``draw_board``'s ``inner``; None: as the view needs).
    inner: int | None = None
    #: Whether cells have their note line (``draw_board``'s ``note_line``).
    note_line: bool | None = None


def choose_layout(
    view: BoardView, width: int, height: int, *, several: bool, needs: ScreenNeeds | None = None
) -> Layout:
    """The layout for a ``width`` x ``height`` terminal (``several``: more than one
    record, so the list is worth its room).

    ``needs``: what every position of the record needs (:func:`record_needs`), so
    that the board keeps its size from move to move; by default, this view's.  From
    80x24 up everything fits, the board perhaps compact or without its note line (the
    legend and the Square panel say so), its tallest stacks written short if need be;
    below, the notice says what is left out.  The record list goes beside the board
    only when it leaves the facts room to be read on one line each.
    """
    if needs is None:
        needs = record_needs([view])
    body = max(1, height - CHROME_ROWS)
    small = width < MIN_WIDTH or height < MIN_HEIGHT
    side_text = max(SIDE_MIN, needs.facts)

    def size(form: Form, inner: int, zoom: int = 0) -> tuple[int, int]:
        return board_size(
            view, compact=form[0], notes=form[1], zoom=zoom, inner=inner,
            note_line=needs.note_line,
        )

    def beside(board_w: int) -> bool:
        return several and width - LIST_WIDTH - board_w - FRAME >= side_text

    for form in FORMS:
        compact, notes = form
        inner = needs.inner[form]
        board_w, board_h = size(form, inner)
        if board_w + 1 + SIDE_MIN <= width and board_h <= body:
            list_beside = beside(board_w)
            notice = _left_out(compact, notes) if small else ""
            zoom = 0
            if not compact and notes:
                # Room to spare: bigger cells, leaving the panels a comfortable width.
                room = width - 2 - ZOOM_SIDE - (LIST_WIDTH if list_beside else 0)
                for level in range(MAX_ZOOM, 0, -1):
                    zoomed_w, zoomed_h = size(form, inner, level)
                    if zoomed_w <= room and zoomed_h <= body:
                        zoom, board_w, board_h = level, zoomed_w, zoomed_h
                        break
            return Layout(
                compact, notes, False, list_beside, board_w, board_h, notice, zoom,
                inner, needs.note_line,
            )
    # Stacks too tall even for compact cells: cells as wide as the room allows, the
    # tallest stacks as their top token and "+" (Square gives them in full).
    margin = max((len(r) for r in view.ranks), default=0) + 1
    files = max(1, len(view.files))
    tight = min(needs.inner[True, False], (width - 1 - SIDE_TIGHT - margin - 1) // files - 3)
    if tight >= 2:
        board_w, board_h = size((True, False), tight)
        if board_h <= body:
            notice = _left_out(True, False) if small else ""
            return Layout(
                True, False, False, beside(board_w), board_w, board_h, notice, 0, tight,
                needs.note_line,
            )
    for form in FORMS:
        compact, notes = form
        board_w, board_h = size(form, needs.inner[form])
        if board_w <= width:
            notice = ", ".join(filter(None, (_left_out(compact, notes), "panels below it")))
            return Layout(
                compact, notes, True, False, board_w, board_h, notice, 0,
                needs.inner[form], needs.note_line,
            )
    board_w, board_h = size((True, False), needs.inner[True, False])
    return Layout(
        True, False, True, False, board_w, board_h,
        f"the board needs {board_w} columns: cut on the right (the stacks are under Square)",
        0, needs.inner[True, False], needs.note_line,
    )


def _left_out(compact: bool, notes: bool) -> str:
    parts = []
    if compact:
        parts.append("compact board")
    if not notes:
        parts.append("notes under Square")
    return ", ".join(parts)


class BoardWidget(Widget, can_focus=False):
    """A board view drawn as text; a click on a square says which."""

    DEFAULT_CSS = """
    BoardWidget { width: auto; height: auto; }
    """

    class SquareClicked(Message):
        """A square was clicked."""

        def __init__(self, square: str) -> None:
            super().__init__()
            self.square = square

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawing: BoardDrawing | None = None
        self._text = Text()

    def show(
        self,
        view: BoardView,
        *,
        compact: bool,
        notes: bool,
        selected: str | None,
        ascii: bool,
        zoom: int = 0,
        inner: int | None = None,
        note_line: bool | None = None,
    ) -> BoardDrawing:
        """Draw ``view`` and return the drawing (for the panels that explain it);
        ``inner``, ``note_line``: as for ``draw_board``."""
        self.drawing = draw_board(
            view, ascii=ascii, compact=compact, notes=notes, selected=selected, zoom=zoom,
            inner=inner, note_line=note_line,
        )
        self._text = Text("\n").join(self.drawing.lines)
        self._text.no_wrap = True
        self._text.overflow = "crop"
        self.styles.width = self.drawing.width
        self.styles.height = self.drawing.height
        self.refresh(layout=True)
        return self.drawing

    def clear(self) -> None:
        """Show no board."""
        self.drawing, self._text = None, Text()
        self.styles.width = self.styles.height = 0
        self.refresh(layout=True)

    def render(self) -> Text:
        return self._text

    def on_click(self, event: Click) -> None:
        if self.drawing is None:
            return
        square = self.drawing.square_at(event.x, event.y)
        if square is not None:
            self.post_message(self.SquareClicked(square))
