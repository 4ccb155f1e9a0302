"""The move list of ``notation replay``: the whole record as a tree, one round per row,
each variation indented under the move it replaces, the current move highlighted;
a click on a move goes there.  :func:`tree_rows` lays the rows
out (no Textual); :class:`MoveTree` draws only those in view.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from notation.record import Record
from notation.render.terminal import cleaner
from notation.tui.navigate import Address, nodes_in_order
from notation.visitor import expected_number, move_label

# MoveTree is left out for pdoc, which cannot read Textual's own annotations.
__all__ = ["address_text", "tree_rows"]

CURRENT = Style(reverse=True, bold=True)
BROKEN = Style(color="red", bold=True)
NUMBER = Style(dim=True)
#: Columns of indentation per level of variation.
INDENT = 2


def address_text(address: Address) -> str:
    """An address as the argument of the app's ``jump`` action: ``"12"``, ``"3.1.2"``."""
    return ".".join(str(part) for part in address)


def tree_rows(
    record: Record,
    *,
    first_turn: int,
    round_size: int,
    current: Address,
    width: int,
    broken: tuple[int, int] | None = None,
    ascii: bool = False,
) -> tuple[list[Text], int | None]:
    """The rows of the move tree, and the row of the current move (None at a start).

    ``broken``: the (line, column) of the move that breaks the record, drawn in red.
    Rows are cut to ``width`` columns, continuing on the next row, indented.
    """
    clean = cleaner(ascii)
    rows: list[Text] = []
    row: Text | None = None
    row_depth = 0
    open_depth = 0  # variations opened and not yet closed
    current_row: int | None = None
    width = max(width, 12)

    def new_row(depth: int, opening: bool) -> Text:
        nonlocal row, row_depth
        row = Text(" " * (INDENT * (depth - 1) if depth else 0))
        if depth:
            row.append("(" if opening else " ")
        row_depth = depth
        rows.append(row)
        return row

    def close(down_to: int) -> None:
        nonlocal open_depth
        while open_depth > down_to:
            if rows:
                rows[-1].append(")")
            open_depth -= 1

    for found in nodes_in_order(record, first_turn):
        depth, turn = found.depth, found.turn
        if found.first and depth:
            close(depth - 1)
            line = new_row(depth, opening=True)
            open_depth = depth
            resumes = True
        else:
            close(depth)
            starts_round = expected_number(turn, round_size)[1]
            resumes = row is None or row_depth != depth or rows[-1] is not row
            if resumes or (starts_round and row is not None and row.plain.strip("( ")):
                line = new_row(depth, opening=False)
                resumes = True
            else:
                assert row is not None
                line = row
        number = move_label(turn, round_size, resumes)
        move = clean(found.node.written)
        piece_length = len(number) + bool(number) + len(move)
        if line.plain.strip("( ") and line.cell_len + 1 + piece_length > width:
            line = new_row(depth, opening=False)
            line.append("  ")
            number = move_label(turn, round_size, True)
        if line.plain.strip("( "):
            line.append(" ")
        if number:
            line.append(number + " ", NUMBER)
        style = Style(meta={"@click": f"app.jump('{address_text(found.address)}')"})
        if broken is not None and (found.node.line, found.node.column) == broken:
            style += BROKEN
        if found.address == current:
            style += CURRENT
            current_row = len(rows) - 1
        line.append(move, style)
    close(0)
    if not rows:
        rows.append(Text("(no moves)", style=NUMBER))
    return rows, current_row


class MoveTree(ScrollView, can_focus=False):
    """The rows of :func:`tree_rows`, scrolled to keep the current row in view."""

    DEFAULT_CSS = """
    MoveTree { height: 1fr; overflow-x: hidden; }
    """

    class Resized(Message):
        """The tree changed width: its rows must be laid out again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[Text] = []
        self._strips: dict[int, Strip] = {}
        self._current: int | None = None
        self._width = 0

    def show(self, rows: list[Text], current: int | None) -> None:
        """Show ``rows``; bring row ``current`` to the middle if it is out of view."""
        self._rows = rows
        self._strips.clear()
        self._current = current
        width = max((row.cell_len for row in rows), default=0)
        self.virtual_size = Size(width, len(rows))
        self.refresh()
        # Scrolled once the new size is known (at the first show there is none yet).
        self.call_after_refresh(self._keep_in_view)

    def _keep_in_view(self) -> None:
        current = self._current
        if current is None:  # the start of a line: its first rows
            self.scroll_to(y=0, animate=False)
            return
        height = max(1, self.size.height)
        top = int(self.scroll_y)
        if not top <= current < top + height:
            self.scroll_to(y=max(0, current - height // 2), animate=False)

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.post_message(self.Resized())
        else:
            self._keep_in_view()

    @property
    def rows(self) -> list[Text]:
        """The rows shown."""
        return self._rows

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.size.width
        style = self.rich_style
        if index >= len(self._rows):
            return Strip.blank(width, style)
        strip = self._strips.get(index)
        if strip is None:
            text = self._rows[index].copy()
            text.style = style  # the widget's colours under the row's own
            text.no_wrap = True
            strip = Strip(text.render(self.app.console), text.cell_len)
            self._strips[index] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, style)
