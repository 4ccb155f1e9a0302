"""``notation replay`` as a Textual app: a thin layer over a
:class:`~notation.stepper.Stepper` (through a :class:`~notation.tui.navigate.Navigator`)
and the position's :class:`~notation.games.view.BoardView`.

The screen: two title lines, a status line (the prompt of ``g`` and ``/``), the board
with its panels beside it (last move, move tree, facts, square, legend), the record list
when there is room (:func:`~notation.tui.board.choose_layout`), and the keys.  Records
are found and checked in worker threads, so that a file of thousands opens at once.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import ClassVar, TypeVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.events import Key, Resize
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from notation.errors import Defect, NotationException
from notation.games.view import BoardView
from notation.render.show_text import header, line_range
from notation.render.terminal import BoardDrawing, cleaner
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError
from notation.tui.board import BoardWidget, Layout, ScreenNeeds, choose_layout, record_needs
from notation.tui.catalog import Catalog
from notation.tui.keys import KEYS, MOUSE
from notation.tui.legend import legend_renderable
from notation.tui.moves import MoveTree, tree_rows
from notation.tui.navigate import Navigator, search
from notation.tui.panels import facts_panel, grid, move_panel, square_panel, status_text
from notation.tui.records import RecordList, RecordPanel

# Empty for pdoc (docs/build_api.py): it cannot read the annotations of Textual's own
# classes, which ReplayApp and HelpScreen inherit; the module docstring describes them.
__all__: list[str] = []

W = TypeVar("W", bound=Widget)

#: Seconds between looks at what the workers found (new records, checks).
TICK = 0.25


#: How the footer shows each action's key with ``--ascii``.
_ASCII_GLYPHS = {key.action: key.ascii_glyph for key in KEYS if key.ascii_glyph}


def _bindings() -> list[BindingType]:
    bindings: list[BindingType] = []
    for key in KEYS:
        if key.action == "enter_variation" and "1" in key.names:
            for digit in key.names.split(","):
                bindings.append(Binding(digit, f"enter_variation({digit})", show=False))
            continue
        bindings.append(
            Binding(
                key.names, key.action, key.footer or key.does, show=bool(key.footer),
                key_display=key.glyph or None,
            )
        )
    # Ctrl-C quits, as in every terminal program (Textual would copy).
    bindings.append(Binding("ctrl+c", "quit", show=False, priority=True))
    return bindings


class _Prompt(Input):
    """The line that asks for a turn (``g``) or a search (``/``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "go", key_display="Enter"),
        Binding("escape", "app.escape", "cancel", key_display="Esc"),
    ]


class _Scroll(VerticalScroll, can_focus=False):
    """A scrolling column that leaves every key to the app (the mouse wheel scrolls it)."""


class _Body(Container, can_focus=False):
    """Board and panels: side by side, or (``narrow``) one under the other, scrolling."""


class HelpScreen(ModalScreen[None]):
    """The keys, the mouse, the legend of the board, and the record's tags."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "close", key_display="Esc"),
        Binding("space", "page_down", "page down", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1;
    }
    HelpScreen.-ascii > VerticalScroll { border: ascii $accent; scrollbar-size: 0 0; }
    """

    def __init__(self, content: RenderableType) -> None:
        super().__init__()
        self._content = content

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self._content, id="help-text")

    def on_mount(self) -> None:
        self.set_class(bool(getattr(self.app, "ascii", False)), "-ascii")
        # The text has the focus, so that the scrolling keys (Down, PgDn, End) are its.
        self.set_focus(self.query_one(VerticalScroll))

    def action_page_down(self) -> None:
        self.query_one(VerticalScroll).scroll_page_down()


class ReplayApp(App[int]):
    """Step through the records of a catalog."""

    BINDINGS: ClassVar[list[BindingType]] = _bindings()
    TITLE = "notation replay"
    ENABLE_COMMAND_PALETTE = False
    # No focus at first: every key goes to the app's bindings (a filter takes arrows).
    AUTO_FOCUS = None
    CSS = """
    Screen { layout: vertical; }
    * { scrollbar-size-vertical: 1; }
    #title { height: 2; padding: 0 1; }
    #status { height: 1; padding: 0 1; }
    #prompt, #prompt:focus { height: 1; border: none; padding: 0 1; display: none; }
    Screen.-prompt #prompt { display: block; }
    Screen.-prompt #status { display: none; }
    #notice { height: auto; padding: 0 1; color: $warning; display: none; }
    #notice.-shown { display: block; }
    _Body { height: 1fr; layout: horizontal; overflow: hidden hidden; }
    _Body.-narrow { layout: vertical; overflow-y: auto; }
    #records { display: none; width: 40; border-right: solid $panel; }
    Screen.-ascii #records { border-right: ascii $panel; }
    /* --ascii: no block characters, so no scrollbars (the mouse wheel still scrolls) */
    Screen.-ascii * { scrollbar-size: 0 0; }
    #records.-beside { display: block; }
    #records.-alone { display: block; width: 1fr; border-right: none; }
    _Body.-list-alone #board-box, _Body.-list-alone #side { display: none; }
    #board-box { width: auto; height: auto; padding: 0 1 0 1; }
    #side { width: 1fr; height: 1fr; padding: 0 1; }
    _Body.-narrow #side { height: auto; }
    #move { height: auto; max-height: 35%; }
    .heading { height: 1; text-style: bold; color: $accent; }
    #moves { height: 1fr; min-height: 3; }
    _Body.-narrow #moves { height: 12; }
    #info { height: auto; max-height: 40%; }
    _Body.-narrow #info { max-height: 1000; }
    #error { height: auto; padding: 1 2; color: $error; display: none; }
    #error.-shown { display: block; }
    """

    def __init__(
        self,
        catalog: Catalog,
        *,
        start: int = 0,
        stepper: Stepper | None = None,
        turn: int | None = None,
        ascii: bool = False,
        check: bool = True,
    ) -> None:
        """``start``: the entry opened first (``stepper``: already open on it), at
        ``turn`` of its main line; ``check``: check every record in the background
        (the list's valid/broken)."""
        super().__init__()
        self.catalog = catalog
        self.ascii = ascii
        self.current = start
        self.stepper: Stepper | None = None
        self.nav: Navigator | None = None
        self.selected: str | None = None
        self.message = ""
        self.layout_now: Layout | None = None
        self.drawing: BoardDrawing | None = None
        self._initial = stepper
        self._turn = turn
        self._waiting = True  # for the first record to open
        self._check = check
        self._prompt = ""  # "turn" or "search" while the prompt is open
        self._query = ""
        self._list_alone = False
        self._seen_version = -1
        self._stop = threading.Event()
        #: The entries whose rows are in view (for the checker thread).
        self._in_view: tuple[int, ...] = ()
        self._legend_key: object = None
        #: What every position of the open record's main line needs of the screen.
        self._needs: ScreenNeeds | None = None

    def get_key_display(self, binding: Binding) -> str:
        if self.ascii and binding.action in _ASCII_GLYPHS:
            return _ASCII_GLYPHS[binding.action]
        return super().get_key_display(binding)

    # -- building ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="status")
        yield _Prompt(id="prompt")
        yield Static(id="notice")
        with _Body(id="body"):
            yield RecordPanel(self.catalog, ascii=self.ascii, id="records")
            with Vertical(id="board-box"):
                yield BoardWidget(id="board")
                yield Static(id="error")
            with Vertical(id="side"):
                with _Scroll(id="move"):
                    yield Static(id="move-text")
                yield Static("Moves", classes="heading", id="moves-title")
                yield MoveTree(id="moves")
                with _Scroll(id="info"):
                    yield Static(id="square")
                    yield Static(id="facts")
                    yield Static("Legend", classes="heading")
                    yield Static(id="legend")
        yield Footer(show_command_palette=False, compact=True)

    def _find(self, selector: str | type[W], expect_type: type[W] | None = None) -> W:
        """A widget of the board's screen (the app's own query looks at the screen on top,
        which is the help while it is open)."""
        screen = self.screen_stack[0] if self.screen_stack else self.screen
        if expect_type is None:
            assert not isinstance(selector, str)
            return screen.query_one(selector)
        return screen.query_one(selector, expect_type)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.screen.set_class(self.ascii, "-ascii")
        if self._initial is not None:
            self._set_stepper(self._initial)
            self._initial = None
            self._opened_first()
        elif self.current < len(self.catalog.entries):
            self.open_entry(self.current)
            self._opened_first()
        # Else the scan has not found it yet: take_in opens it when it has.
        self.set_interval(TICK, self._tick)
        self._scan()
        if self._check:
            self._check_all()
        self._tick()

    def on_unmount(self) -> None:
        self._stop.set()

    # -- workers ---------------------------------------------------------------------
    @work(thread=True, exclusive=False, group="scan", exit_on_error=False)
    def _scan(self) -> None:
        worker = get_current_worker()
        try:
            self.catalog.scan(lambda: worker.is_cancelled or self._stop.is_set())
        except Exception as exc:  # no input may end the app with a traceback
            self.catalog.problems.append(f"the records could not all be found: {exc}")
            self.catalog.scanned = True

    @work(thread=True, exclusive=False, group="check", exit_on_error=False)
    def _check_all(self) -> None:
        """Check every record, those in view first, while the scan goes on."""
        worker = get_current_worker()
        catalog = self.catalog
        done = 0
        while not (worker.is_cancelled or self._stop.is_set()):
            index = self._next_to_check(done)
            if index is None:
                if catalog.scanned and done >= len(catalog.entries):
                    return
                time.sleep(0.05)  # the scan has not found more yet
                continue
            # A record that cannot be read says so in its row; the checks go on.
            with contextlib.suppress(Exception):
                catalog.check(index)
            if index == done:
                done += 1
            # Let the screen have the interpreter between records.
            time.sleep(0)

    def _next_to_check(self, done: int) -> int | None:
        # The rows in view first (left in self._in_view: widgets are not thread-safe).
        catalog = self.catalog
        for index in self._in_view:
            known = catalog.known(index)
            if known is None or not known.status:
                return index
        if not catalog.scanned:  # the rest waits: finding every record comes first
            return None
        count = len(catalog.entries)
        while done < count:
            known = catalog.known(done)
            if known is None or not known.status:
                return done
            done += 1
        return None

    def _tick(self) -> None:
        try:
            records = self._find(RecordList)
        except (NoMatches, ScreenStackError):  # the app is closing: its screens are gone
            return
        top = int(records.scroll_y)
        self._in_view = tuple(records.shown[top : top + max(1, records.size.height)])
        if self.catalog.version != self._seen_version:
            self.take_in()

    def _opened_first(self) -> None:
        self._waiting = False
        if self._turn is not None:
            self.go_to_turn(self._turn)

    def take_in(self) -> None:
        """Take in what the workers found: rows, counts, and the problems met; open the
        first record once it is found."""
        if self._waiting:
            if self.current < len(self.catalog.entries):
                self.open_entry(self.current)
                self._opened_first()
            elif self.catalog.scanned:
                self._waiting = False
                count = len(self.catalog.entries)
                plural = "s" if count != 1 else ""
                self._show_error(f"no record {self.current + 1}: {count} record{plural} found")
        self._seen_version = self.catalog.version
        panel = self._find(RecordPanel)
        panel.list.current = self.current
        panel.list.update_rows()
        panel.update_status()
        self._update_notice()

    # -- opening records ----------------------------------------------------------------
    def open_entry(self, index: int) -> None:
        """Show entry ``index`` of the catalog, at the start of its main line."""
        if not 0 <= index < len(self.catalog.entries):
            return
        self.current = index
        self.selected = None
        try:
            record = self.catalog.record(index)
            game = resolve_game(record, self.catalog.default_game)
            if isinstance(game, Defect):
                raise StepperError(game.located(file=record.source, record=record.index))
            stepper = Stepper(record, game)
        except StepperError as exc:
            self._show_error(f"{self.catalog.label(index)} cannot be replayed: {exc.error}")
            return
        except (NotationException, OSError, RecursionError, ValueError) as exc:
            self._show_error(f"{self.catalog.label(index)} cannot be read: {exc}")
            return
        self._set_stepper(stepper)

    def _set_stepper(self, stepper: Stepper) -> None:
        self.stepper = stepper
        self.nav = Navigator(stepper)
        self._needs = _main_line_needs(self.nav)
        self._find("#error", Static).remove_class("-shown")
        records = self._find(RecordList)
        records.current = self.current
        records.move_to(self.current)
        self.refresh_view()

    def _show_error(self, message: str) -> None:
        self.stepper = None
        self.nav = None
        clean = cleaner(self.ascii)
        label = (
            self.catalog.label(self.current)
            if self.current < len(self.catalog.entries) else "notation replay"
        )
        self._find("#title", Static).update(Text(clean(label)))
        self._find("#status", Static).update(Text(clean(message), style="bold red"))
        error = self._find("#error", Static)
        error.update(Text(clean(message)))
        error.add_class("-shown")
        self._find(BoardWidget).clear()
        for name in ("#move-text", "#facts", "#square", "#legend"):
            self._find(name, Static).update("")
        self._legend_key = None
        self._find(MoveTree).show([], None)
        self._find(RecordList).current = self.current

    # -- drawing -----------------------------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw everything for the stepper's position."""
        stepper = self.stepper
        if stepper is None:
            return
        clean = cleaner(self.ascii)
        view = stepper.cursor.position.board_view()
        width, height = self.size
        layout = choose_layout(
            view, width, height, several=len(self.catalog.entries) > 1, needs=self._needs
        )
        self.layout_now = layout
        self._apply_layout(layout)
        title = header(stepper, self.ascii)
        title.append(clean(f"   ({self.catalog.label(self.current)})"), style="dim")
        # Fixed heights: no need to lay the screen out again for these two.
        self._find("#title", Static).update(title, layout=False)
        self._find("#status", Static).update(
            status_text(stepper, ascii=self.ascii, message=self.message, width=width - 2),
            layout=False,
        )
        selected = self.selected
        if selected is None and view.marks:
            selected = view.marks[-1]
        self.drawing = self._find(BoardWidget).show(
            view, compact=layout.compact, notes=layout.notes, selected=self.selected,
            ascii=self.ascii, zoom=layout.zoom, inner=layout.inner, note_line=layout.note_line,
        )
        self._find("#move-text", Static).update(move_panel(stepper, ascii=self.ascii))
        self._refresh_tree()
        self._find("#facts", Static).update(facts_panel(stepper, view, ascii=self.ascii))
        self._find("#square", Static).update(
            square_panel(view, selected, self.drawing, ascii=self.ascii)
        )
        # Redrawn only when the roles or the drawing's form change (an update lays out).
        legend_key = (
            stepper.game.name, frozenset(c.role for c in view.cells.values()),
            self.drawing.compact, bool(view.links),
        )
        if legend_key != self._legend_key:
            self._legend_key = legend_key
            self._find("#legend", Static).update(
                legend_renderable(view, stepper.game.name, self.drawing, ascii=self.ascii)
            )
        self._update_notice()

    def _refresh_tree(self) -> None:
        stepper, nav = self.stepper, self.nav
        assert stepper is not None and nav is not None
        error = stepper.verdict.error
        broken = (error.line, error.column) if error is not None and error.turn else None
        tree = self._find(MoveTree)
        rows, current = tree_rows(
            stepper.record,
            first_turn=stepper.start_turn + 1,
            round_size=stepper.cursor.position.round_size,
            current=nav.address,
            width=max(12, tree.size.width or 40),
            broken=broken,
            ascii=self.ascii,
        )
        tree.show(rows, current)

    def _apply_layout(self, layout: Layout) -> None:
        body = self._find(_Body)
        body.set_class(layout.narrow, "-narrow")
        body.set_class(self._list_alone, "-list-alone")
        records = self._find(RecordPanel)
        records.set_class(layout.list_beside and not self._list_alone, "-beside")
        records.set_class(self._list_alone, "-alone")

    def _update_notice(self) -> None:
        notes = []
        if self.layout_now is not None and self.layout_now.notice:
            width, height = self.size
            notes.append(f"a {width}x{height} window (80x24 shows all): {self.layout_now.notice}")
        notes.extend(self.catalog.problems)
        notes.extend(
            f"{name} is not UTF-8; read as Windows-1252" for name in sorted(self.catalog.not_utf8)
        )
        notice = self._find("#notice", Static)
        notice.update(Text("; ".join(notes)))
        notice.set_class(bool(notes), "-shown")

    def _done(self, message: str = "") -> None:
        """After a key: remember its message and draw."""
        self.message = message
        self.refresh_view()

    # -- the keys ---------------------------------------------------------------------
    def action_next_move(self, count: int = 1) -> None:
        if self.nav is None:
            return
        stepper = self.nav.stepper
        moved = self.nav.forward(count)
        if moved == 0 and stepper.cursor.defect is None:
            self._done("end of the variation" if stepper.cursor.depth else "end of the line")
        else:
            self._done()

    def action_previous_move(self, count: int = 1) -> None:
        if self.nav is None:
            return
        self._done("" if self.nav.back(count) else "start of the line")

    def action_line_start(self) -> None:
        if self.nav is not None:
            self.nav.stepper.to_start()
            self._done()

    def action_line_end(self) -> None:
        if self.nav is not None:
            self.nav.stepper.to_end()
            self._done()

    def action_enter_variation(self, number: int = 1) -> None:
        if self.nav is None:
            return
        count = len(self.nav.stepper.variations_here())
        if not count:
            self._done("no variation at this move")
        elif not self.nav.enter(number):
            self._done(f"no variation {number}: this move has {count}")
        else:
            self._done()

    def action_leave_variation(self) -> None:
        if self.nav is None:
            return
        self._done("" if self.nav.leave() else "already on the main line")

    def action_jump(self, address: str) -> None:
        """Go to the position after the move at ``address`` (a click in the tree)."""
        if self.nav is None:
            return
        try:
            parts = tuple(int(part) for part in address.split("."))
        except ValueError:
            return
        self._done("" if self.nav.goto(parts) else "a broken move stands in the way")

    def action_goto_turn(self) -> None:
        if self.stepper is None:
            return
        first, last = line_range(self.stepper)
        self._open_prompt("turn", f"go to turn ({first}-{last}), then Enter: ", "")

    def action_search(self) -> None:
        if self.stepper is None:
            return
        self._open_prompt(
            "search", "search moves and comments, then Enter (n, N: next, previous): ",
            self._query,
        )

    def action_search_next(self) -> None:
        self._search(self._query, again=True)

    def action_search_previous(self) -> None:
        self._search(self._query, again=True, backward=True)

    def action_next_record(self) -> None:
        self._step_record(1)

    def action_previous_record(self) -> None:
        self._step_record(-1)

    def _step_record(self, step: int) -> None:
        self.take_in()  # the records found since the last tick count too
        shown = self._find(RecordList).shown
        if not shown:
            return
        if self.current in shown:
            position = shown.index(self.current) + step
        else:  # the open record is filtered out: the first shown after it
            later = [i for i, index in enumerate(shown) if index > self.current]
            position = (later[0] if later else len(shown)) + (step if step < 0 else 0)
        if not 0 <= position < len(shown):
            more = "" if self.catalog.scanned or step < 0 else " yet: records are still being found"
            self._done(("no next record" if step > 0 else "no previous record") + more)
            return
        self.message = ""
        self.open_entry(shown[position])

    def action_records(self) -> None:
        """Show the record list and put the cursor in its filter."""
        self.take_in()
        layout = self.layout_now
        if layout is None or not layout.list_beside:
            self._list_alone = True
            if layout is not None:
                self._apply_layout(layout)
        # At once (Widget.focus waits a refresh): the keys typed right after "l" are its.
        self.screen.set_focus(self._find("#filter", Input))

    def action_escape(self) -> None:
        if self._prompt:
            self._close_prompt()
        elif self._list_alone or self.focused is not None:
            self._close_list()
        elif self.nav is not None and self.nav.stepper.cursor.depth:
            self.action_leave_variation()

    def _close_list(self) -> None:
        self._list_alone = False
        self.set_focus(None)
        if self.layout_now is not None:
            self._apply_layout(self.layout_now)
        self.refresh_view()

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self._help()))

    def _help(self) -> RenderableType:
        clean = cleaner(self.ascii)
        keys = grid([(key.shown, key.does) for key in KEYS])
        mouse = grid([(f"mouse: {what}", does) for what, does in MOUSE])
        parts: list[RenderableType] = [Text("Keys", style="bold underline"), keys, mouse]
        if self.stepper is not None:
            view = self.stepper.cursor.position.board_view()
            parts += [
                Text(),
                Text("Legend", style="bold underline"),
                legend_renderable(view, self.stepper.game.name, self.drawing, ascii=self.ascii),
                Text(),
                Text("Tags", style="bold underline"),
                grid([(clean(t.name), clean(t.value)) for t in self.stepper.record.tags]),
            ]
        parts.append(Text("\nEsc, ? or q: back to the board", style="dim"))
        return Group(*parts)

    # -- the prompt -------------------------------------------------------------------
    def _open_prompt(self, kind: str, label: str, value: str) -> None:
        self._prompt = kind
        prompt = self._find("#prompt", Input)
        prompt.placeholder = label
        prompt.value = value
        self.screen.add_class("-prompt")
        self.screen.set_focus(prompt)  # at once: the next keys are the prompt's

    def on_key(self, event: Key) -> None:
        """Keys typed right after ``g`` or ``/``, before the prompt had the focus, are
        the prompt's: they reach the app instead, and would be taken for moves."""
        if not self._prompt:
            return
        prompt = self._find("#prompt", Input)
        if event.key == "enter":
            prompt.post_message(Input.Submitted(prompt, prompt.value))
        elif event.is_printable and event.character:
            prompt.insert_text_at_cursor(event.character)
        else:
            return
        event.prevent_default()
        event.stop()

    def _close_prompt(self) -> None:
        self._prompt = ""
        self.screen.remove_class("-prompt")
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "prompt":
            return
        kind, text = self._prompt, event.value.strip()
        if not kind:  # submitted twice (Enter typed as the prompt got the focus)
            return
        self._close_prompt()
        if kind == "turn":
            self._goto_turn(text)
        elif kind == "search":
            self._search(text)

    def _goto_turn(self, text: str) -> None:
        if self.stepper is None:
            return
        first, last = line_range(self.stepper)
        if not text:
            self._done(f"type a turn of this line ({first}-{last}) before Enter")
            return
        if not text.isdigit() or not first <= int(text) <= last:
            self._done(f"{text} is not a turn of this line ({first}-{last})")
            return
        self.stepper.goto_turn(int(text))
        self._done()

    def _search(self, text: str, *, again: bool = False, backward: bool = False) -> None:
        """Go to the next match of ``text`` (``backward``: the previous one); ``again``:
        it is the last search, repeated by ``n`` or ``N``."""
        if again and not text:
            self._done("no search yet: / to search (] is the next record)")
            return
        if self.stepper is None or self.nav is None or not text:
            self._done()
            return
        self._query = text
        found = search(
            self.stepper.record, text, self.nav.address, self.stepper.start_turn + 1,
            backward=backward,
        )
        if found is None:
            self._done(f"no move or comment holds {text!r}")
            return
        reached = self.nav.goto(found.address)
        where = "main line" if not found.depth else f"variation, depth {found.depth}"
        self._done(
            f"found at turn {found.turn} ({where})"
            if reached else f"found at turn {found.turn}, past a broken move"
        )

    # -- the list and the board -----------------------------------------------------
    def on_record_list_chosen(self, event: RecordList.Chosen) -> None:
        self._list_alone = False
        self.set_focus(None)
        self.message = ""
        # The filter found the record; once it is open, [ and ] step through them all.
        panel = self._find(RecordPanel)
        with panel.prevent(Input.Changed):
            self._find("#filter", Input).value = ""
        panel.list.set_filter("")
        panel.update_status()
        self.open_entry(event.index)

    def on_move_tree_resized(self, event: MoveTree.Resized) -> None:
        if self.stepper is not None:
            self._refresh_tree()

    def on_board_widget_square_clicked(self, event: BoardWidget.SquareClicked) -> None:
        self.selected = event.square
        self.refresh_view()

    # -- for tests and the screenshot script ---------------------------------------------
    def go_to_turn(self, turn: int) -> bool:
        """To the position after ``turn`` of the main line (as far as the record goes)."""
        if self.nav is None:
            return False
        while self.nav.leave():
            pass
        reached = self.nav.stepper.goto_turn(turn)
        self.refresh_view()
        return reached

    @property
    def view(self) -> BoardView | None:
        """The board view shown (None when no record is open)."""
        return self.stepper.cursor.position.board_view() if self.stepper is not None else None

    def settled(self) -> bool:
        """Whether the workers are done: every record found and checked."""
        checked, _ = self.catalog.checked_count()
        return self.catalog.scanned and (not self._check or checked >= len(self.catalog.entries))


def _main_line_needs(nav: Navigator) -> ScreenNeeds:
    """What the positions of the main line need (see :func:`record_needs`), so that
    the board keeps its size from move to move; ``nav`` is left where it was."""
    stepper = nav.stepper
    address = nav.address
    while nav.leave():
        pass
    stepper.to_start()
    views = [stepper.cursor.position.board_view()]
    while stepper.forward():
        views.append(stepper.cursor.position.board_view())
    nav.goto(address)
    return record_needs(views)
