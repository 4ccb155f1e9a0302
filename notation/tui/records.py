"""The record list of ``notation replay``: every record of the files given, filtered by
what is typed, one row each (number, result, turns, valid or broken, players).

Rows are drawn, and their records read, only when in view, so a list of thousands
opens at once.  A filter matches the words typed against the records' tags and, once
checked, their summaries ("broken", "1-0", a player's name).
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

from notation.errors import NotationException
from notation.render.terminal import asciify
from notation.tui.catalog import Catalog

# The widgets are left out for pdoc, which cannot read Textual's own annotations.
__all__ = ["row_text"]

STATUS_STYLES = {"valid": Style(color="green"), "broken": Style(color="red", bold=True)}


def row_text(catalog: Catalog, index: int, *, several: bool, ascii: bool = False) -> Text:
    """The row of entry ``index``: read now if it was not (a row in view is worth it)."""
    entry = catalog.entries[index]
    try:
        summary = catalog.summary(index)
    except Exception as exc:  # a row must never break the list
        return Text(f"{entry.number:>5}  cannot be read: {exc}", style="red")
    text = Text(f"{entry.number:>5} ", style="bold")
    status = summary.status or "..."
    text.append(f"{summary.result:<7}")
    text.append(f"{summary.turns:>4}t ")
    text.append(f"{status:<7}", STATUS_STYLES.get(status, Style(dim=True)))
    if several:
        name = catalog.source_name(index).rsplit("/", 1)[-1]
        text.append(f"{name[:14]:<15}", Style(dim=True))
    players = summary.players
    text.append(asciify(players) if ascii else players)
    return text


class RecordList(ScrollView, can_focus=True):
    """The rows of the entries that pass the filter, with a cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("pageup", "cursor(-10)", show=False),
        Binding("pagedown", "cursor(10)", show=False),
        Binding("home", "cursor(-1000000000)", show=False),
        Binding("end", "cursor(1000000000)", show=False),
        Binding("enter", "open", show=False),
    ]
    DEFAULT_CSS = """
    RecordList { height: 1fr; }
    """

    class Chosen(Message):
        """Entry ``index`` was chosen (Enter or a click)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, catalog: Catalog, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.catalog = catalog
        self.ascii = ascii
        #: The entries shown, in order (all of them without a filter).
        self.shown: list[int] = []
        self.cursor = 0
        #: The entry open in the viewer (marked in its row).
        self.current: int | None = None
        self._words: list[str] = []
        self._at_end = False

    @property
    def filtering(self) -> bool:
        """Whether a filter is typed."""
        return bool(self._words)

    def set_filter(self, text: str) -> None:
        """Show the entries whose tags (or summary) hold every word of ``text``."""
        self._words = text.lower().split()
        self.update_rows()

    def update_rows(self) -> None:
        """Take in entries found (and summaries made) since the last call."""
        keep = self.shown[self.cursor] if self.shown and self.cursor < len(self.shown) else None
        count = len(self.catalog.entries)
        if not self._words:
            self.shown = list(range(count))
        else:
            words = self._words
            self.shown = [
                i for i in range(count)
                if all(word in self._match_text(i) for word in words)
            ]
        if self._at_end:  # End was pressed while records were still being found
            self.cursor = len(self.shown) - 1
            self._scroll_to_cursor()
        elif keep is not None and keep in self.shown:
            self.cursor = self.shown.index(keep)
        self.cursor = max(0, min(self.cursor, len(self.shown) - 1))
        self.virtual_size = Size(self.size.width, len(self.shown))
        self.refresh()

    def _match_text(self, index: int) -> str:
        entry = self.catalog.entries[index]
        try:
            header = self.catalog.header_text(index)
        except (OSError, NotationException, RecursionError, ValueError):
            header = ""  # a file gone or unreadable since the scan: its number still matches
        return f"{entry.number} {header}"

    def move_to(self, index: int) -> None:
        """Put the cursor on entry ``index`` (if shown) and bring it into view."""
        self._at_end = False
        if index in self.shown:
            self.cursor = self.shown.index(index)
            self._scroll_to_cursor()
            self.refresh()

    def action_cursor(self, step: int) -> None:
        if not self.shown:
            return
        self.cursor = max(0, min(self.cursor + step, len(self.shown) - 1))
        # At the end, the cursor stays at the end as the scan finds more.
        self._at_end = self.cursor == len(self.shown) - 1 and step > 0
        self._scroll_to_cursor()
        self.refresh()

    def action_open(self) -> None:
        if self.shown:
            self.post_message(self.Chosen(self.shown[self.cursor]))

    def _scroll_to_cursor(self) -> None:
        height = max(1, self.size.height)
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False)

    def on_click(self, event: Click) -> None:
        row = int(self.scroll_y) + event.y
        if 0 <= row < len(self.shown):
            self.cursor = row
            self._at_end = False
            self.refresh()
            self.post_message(self.Chosen(self.shown[row]))

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= len(self.shown):
            return Strip.blank(width, base)
        index = self.shown[row]
        text = Text(style=base)  # the widget's colours under the row's own
        text.append("> " if index == self.current else "  ", style="bold")
        text.append_text(
            row_text(self.catalog, index, several=len(self.catalog.sources) > 1, ascii=self.ascii)
        )
        text.no_wrap = True
        if row == self.cursor:
            text.stylize(Style(reverse=True) if self.has_focus else Style(underline=True))
        strip = Strip(text.render(self.app.console), text.cell_len)
        return strip.crop_extend(scroll_x, scroll_x + width, base)


class FilterInput(Input):
    """The filter: Up, Down, PgUp and PgDn move in the list; Home and End too while
    nothing is typed (then there is no text to move in)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "open", key_display="Enter"),
        Binding("escape", "app.escape", "back to the board", key_display="Esc"),
        Binding("up", "list_cursor(-1)", show=False),
        Binding("down", "list_cursor(1)", show=False),
        Binding("pageup", "list_cursor(-10)", show=False),
        Binding("pagedown", "list_cursor(10)", show=False),
    ]

    def action_list_cursor(self, step: int) -> None:
        if isinstance(self.parent, RecordPanel):
            self.parent.list.action_cursor(step)

    def action_home(self, select: bool = False) -> None:
        if not self.value and isinstance(self.parent, RecordPanel):
            self.parent.list.action_cursor(-(10**9))
            return
        super().action_home(select)

    def action_end(self, select: bool = False) -> None:
        if not self.value and isinstance(self.parent, RecordPanel):
            self.parent.list.action_cursor(10**9)
            return
        super().action_end(select)


class RecordPanel(Vertical):
    """The filter, the list, and a line on how far the reading and checking have got."""

    DEFAULT_CSS = """
    RecordPanel { width: 40; height: 1fr; }
    RecordPanel Input, RecordPanel Input:focus { height: 1; border: none; padding: 0 1; }
    RecordPanel #records-status { height: 1; color: $text-muted; }
    """

    def __init__(self, catalog: Catalog, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.catalog = catalog
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        yield FilterInput(placeholder="type to filter the records", id="filter")
        yield RecordList(self.catalog, ascii=self.ascii, id="record-list")
        yield Static("", id="records-status")

    @property
    def list(self) -> RecordList:
        """The list itself."""
        return self.query_one(RecordList)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.list.set_filter(event.value)
        self.update_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Posted from here: Textual stops a message at the widget that sent it, and a
        # message the list posts from this handler would count as sent by the panel.
        records = self.list
        if records.shown:
            self.post_message(RecordList.Chosen(records.shown[records.cursor]))

    def update_status(self) -> None:
        """Say how many records there are, shown, checked and broken."""
        catalog = self.catalog
        total = len(catalog.entries)
        checked, broken = catalog.checked_count()
        words = [f"{total} record{'s' if total != 1 else ''}"]
        if not catalog.scanned:
            words[0] += " so far"
        if self.list.filtering:
            words.append(f"{len(self.list.shown)} shown")
        words.append(f"{checked} checked" if checked < total else "all checked")
        if broken:
            words.append(f"{broken} broken")
        self.query_one("#records-status", Static).update(", ".join(words))
