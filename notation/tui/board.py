"""The board of ``notation replay``, and the choice of how to draw it in the room there is.

:func:`choose_layout` decides, from the terminal's size and the position, how much
the board can show: cells in full or compact (``R5``), with or without their note
line, the panels beside the board or below it, the record list beside them or not.
It prefers the full spelling to the notes (a capacity is shown under Square anyway),
and says what it had to leave out.  :class:`BoardWidget` draws the board
(:func:`notation.render.terminal.draw_board`) and turns a click into a square.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from notation.render.terminal import BoardDrawing, board_size, draw_board
from notation.view import BoardView

# BoardWidget is left out for pdoc, which cannot read Textual's own annotations.
__all__ = ["Layout", "choose_layout"]

#: The narrowest the side panels (move, moves, facts) may be beside the board.
SIDE_MIN = 30
#: The side panels' width below which the board is not drawn bigger than needed.
ZOOM_SIDE = 50
MAX_ZOOM = 4
#: The record list, when there is room for it beside everything else.
LIST_WIDTH = 40
#: Rows that are not the body: the title (2), the status line, the footer.
CHROME_ROWS = 4
#: The smallest terminal that shows everything (below it, the notice says what is not).
MIN_WIDTH, MIN_HEIGHT = 80, 24


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


#: The ways to draw a board, most detailed first.
FORMS = ((False, True), (False, False), (True, True), (True, False))


def choose_layout(view: BoardView, width: int, height: int, *, several: bool) -> Layout:
    """The layout for a ``width`` x ``height`` terminal (``several``: more than one
    record, so the list is worth its room).

    From 80x24 up everything fits, the board perhaps compact or without its note line
    (the legend and the Square panel say so); below, the notice says what is left out.
    """
    body = max(1, height - CHROME_ROWS)
    sizes = {form: board_size(view, compact=form[0], notes=form[1]) for form in FORMS}
    small = width < MIN_WIDTH or height < MIN_HEIGHT
    for compact, notes in FORMS:
        board_w, board_h = sizes[compact, notes]
        if board_w + 1 + SIDE_MIN <= width and board_h <= body:
            list_beside = several and board_w + 2 + SIDE_MIN + LIST_WIDTH <= width
            notice = _left_out(compact, notes) if small else ""
            zoom = 0
            if not compact and notes:
                # Room to spare: bigger cells, leaving the panels a comfortable width.
                room = width - 2 - ZOOM_SIDE - (LIST_WIDTH if list_beside else 0)
                for level in range(MAX_ZOOM, 0, -1):
                    zoomed_w, zoomed_h = board_size(view, zoom=level)
                    if zoomed_w <= room and zoomed_h <= body:
                        zoom, board_w, board_h = level, zoomed_w, zoomed_h
                        break
            return Layout(
                compact, notes, False, list_beside, board_w, board_h, notice, zoom
            )
    for compact, notes in FORMS:
        board_w, board_h = sizes[compact, notes]
        if board_w <= width:
            notice = ", ".join(filter(None, (_left_out(compact, notes), "panels below it")))
            return Layout(compact, notes, True, False, board_w, board_h, notice)
    board_w, board_h = sizes[True, False]
    return Layout(
        True, False, True, False, board_w, board_h,
        f"the board needs {board_w} columns: cut on the right (the stacks are under Square)",
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
    ) -> BoardDrawing:
        """Draw ``view`` and return the drawing (for the panels that explain it)."""
        self.drawing = draw_board(
            view, ascii=ascii, compact=compact, notes=notes, selected=selected, zoom=zoom
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
        self.drawing = None
        self._text = Text()
        self.styles.width = 0
        self.styles.height = 0
        self.refresh(layout=True)

    def render(self) -> Text:
        return self._text

    def on_click(self, event: Click) -> None:
        if self.drawing is None:
            return
        square = self.drawing.square_at(event.x, event.y)
        if square is not None:
            self.post_message(self.SquareClicked(square))
