"""``notation record`` as a Textual app: entering a game move by move, on a
:class:`~notation.editing.recordfile.RecordFile` (and its
:class:`~notation.editing.editor.RecordEditor`).

The screen: a title line, the board with the last move, the move tree and the moves
that can be played beside it, a status line (who is to move, the roll, what just
happened) and the entry line, where a move is typed (Tab completes it, Enter plays it),
``{`` starts a comment and ``:`` a command.  Everything it does is the editor's; the app
only reads keys and draws.
"""

from __future__ import annotations

import gc
import os
import re
import shlex
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.events import Resize
from textual.widgets import Footer, Input, Static

from notation.editing.editor import GLYPHS, EditError, How, RecordEditor
from notation.editing.mends import SuggestedMend, suggested_mends
from notation.editing.recordfile import FileChangedError, RecordFile
from notation.errors import NotationException
from notation.render.terminal import cleaner
from notation.replay import check_record
from notation.tui.board import BoardWidget, choose_layout
from notation.tui.legend import legend_line
from notation.tui.moves import MoveTree, tree_rows
from notation.tui.record_help import MEND_KEY, RecordHelp

# Empty for pdoc, which cannot read the annotations of Textual's own classes.
__all__: list[str] = []

#: The glyph keys, F2 to F7, in the order of GLYPHS.
GLYPH_KEYS = dict(zip(("f2", "f3", "f4", "f5", "f6", "f7"), GLYPHS, strict=True))

#: The keys that pick squares while the board is picked from (F8): the rest type.
PICKING_KEYS = frozenset({"up", "down", "left", "right", "space", "enter", "escape", "f8"})
#: A board arrow key's step: (files, ranks), ranks counted upwards.
STEPS = {"left": (-1, 0), "right": (1, 0), "up": (0, 1), "down": (0, -1)}

#: What the empty entry line says.
PLACEHOLDER = "a move, { a comment, : a command, F1 help"

#: Rows of moves offered under the move tree (a move's description wraps, indented).
OFFERED_ROWS = 8

#: At most this many mends are offered at once: one digit picks each.
MENDS_OFFERED = 9

class _Entry(Input):
    """The entry line: a move, a comment, a command or an answer.  With nothing typed,
    Left, Right, Home and End move through the record instead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Shown in the footer; the key itself is read in _on_key.
        Binding("tab", "complete", "complete", key_display="Tab"),
    ]

    @property
    def recorder(self) -> RecordApp:
        """The app the line belongs to."""
        app = self.app
        assert isinstance(app, RecordApp)
        return app

    def _empty_or(self, step: Callable[[], None], edit: Callable[[], None]) -> None:
        """``step`` through the record with nothing typed, else ``edit`` the text."""
        (edit if self.value else step)()

    def action_cursor_left(self, select: bool = False) -> None:
        self._empty_or(
            self.recorder.action_step_back, lambda: super(_Entry, self).action_cursor_left(select)
        )

    def action_cursor_right(self, select: bool = False) -> None:
        self._empty_or(
            self.recorder.action_forward, lambda: super(_Entry, self).action_cursor_right(select)
        )

    def action_home(self, select: bool = False) -> None:
        self._empty_or(
            self.recorder.action_to_start, lambda: super(_Entry, self).action_home(select)
        )

    def action_end(self, select: bool = False) -> None:
        self._empty_or(
            self.recorder.action_to_end, lambda: super(_Entry, self).action_end(select)
        )

    async def _on_key(self, event: events.Key) -> None:
        app = self.recorder
        if app.picking and event.key in PICKING_KEYS:
            event.stop()
            event.prevent_default()
            app.pick_key(event.key)
            return
        if app.mode in ("how", "quit", "mend") and event.key != "escape":
            # A question is answered by one key, never typed into the line.
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                app.answer("")
            elif event.character and event.character.isprintable():
                app.answer(event.character)
            return
        # Enter and Tab are taken here, with the typed characters, not as bindings
        # (which run after the keys already waiting): keys typed ahead (a fast typist,
        # tmux send-keys) find the move played or the roll set, and go to the next line.
        if event.key in ("enter", "tab"):
            event.stop()
            event.prevent_default()
            if event.key == "tab":
                app.complete()
                return
            value, self.value = self.value, ""
            app.submit(value)
            return
        await super()._on_key(event)

    def action_complete(self) -> None:
        self.recorder.complete()


class _Body(Container, can_focus=False):
    """Board and panels side by side."""


class RecordApp(App[int]):
    """Enter or mend one record of a file (see the module's docstring)."""

    TITLE = "notation record"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "undo", priority=True),
        Binding("ctrl+y", "redo", "redo", priority=True),
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("ctrl+q", "quit_asking", "quit", priority=True),
        Binding("ctrl+c", "quit_asking", show=False, priority=True),
        Binding("ctrl+t", "comment", "comment", priority=True),
        Binding("f1", "help", "help", priority=True),
        Binding("f8", "pick", "board", priority=True),
        Binding(MEND_KEY, "mend_slip", show=False, priority=True),
        Binding("down", "enter_variation", show=False),
        Binding("up", "leave_variation", show=False),
        *(
            Binding(key, f"glyph('{glyph}')", show=False, priority=True)
            for key, glyph in GLYPH_KEYS.items()
        ),
    ]
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; padding: 0 1; }
    _Body { height: 1fr; layout: horizontal; }
    #board-box { width: auto; height: auto; padding: 0 1; }
    #side { width: 1fr; height: 1fr; padding: 0 1 0 0; }
    #legend { height: auto; color: $text-muted; }
    #mends { height: auto; color: $warning; }
    #last { height: auto; max-height: 5; }
    #moves { height: 1fr; }
    /* OFFERED_ROWS, and the line saying how many more */
    #offered { height: auto; max-height: 9; color: $text-muted; }
    #defect { height: auto; color: $error; }
    /* A long message wraps: at 80x24 the tallest board (Tinkertown's 18 rows) keeps
       room above 3 rows, and a message that needs a 4th is still read whole. */
    #status { height: auto; max-height: 4; padding: 0 1; background: $panel; }
    #entry, #entry:focus { height: 1; border: none; padding: 0 1; }
    """

    def __init__(self, kept: RecordFile, *, ascii: bool = False) -> None:
        super().__init__()
        self.kept = kept
        self.ascii = ascii
        self.message = kept.restored or ""
        #: What the entry line holds: "move", "comment", or a question being asked.
        self.mode = "move"
        self._pending_move = ""  # the move waiting for the answer to "how?"
        self._force_save = False
        self.selected: str | None = None
        self.marked: tuple[str, ...] = ()
        #: Whether squares are being picked from the keyboard (F8): the arrows move
        #: ``selected`` over the board, Space adds it to the move typed.
        self.picking = False
        #: The mends offered (MEND_KEY): those of the record's first defect that
        #: ``check --all`` explains by a slip, as the record stood at ``_mends_version``.
        self.mends: list[SuggestedMend] = []
        self._mends_version: int | None = None
        # Look for them when the record is opened, and again after an undo or a redo.
        self._look_again = True

    @property
    def editor(self) -> RecordEditor:
        """The editor of the record."""
        return self.kept.editor

    # -- the screen -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with _Body():
            with Vertical(id="board-box"):
                yield BoardWidget(id="board")
                yield Static(id="defect")
            with Vertical(id="side"):
                yield Static(id="mends")
                yield Static(id="legend")
                yield Static(id="last")
                yield MoveTree(id="moves")
                yield Static(id="offered")
        yield Static(id="status")
        yield _Entry(id="entry", placeholder=PLACEHOLDER)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(_Entry).focus()
        self.refresh_view()
        # What is made by now (Textual, the record, the games' tables) lives as long as
        # the app: out of the collector's way, so that a full collection does not hold
        # up a key (80 ms, one key in twenty, without this).
        gc.collect()
        gc.freeze()

    def on_unmount(self) -> None:
        # The app goes: what was frozen may be collected again (in a process that goes
        # on, as the tests' does, the app's own cycles would otherwise be kept).
        gc.unfreeze()

    def on_resize(self, event: Resize) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw everything for where the editor stands."""
        editor = self.editor
        clean = cleaner(self.ascii)
        self._show_board()
        kept = self.kept
        where = f"record {kept.index}" if kept.index is not None else "a new record"
        title = Text(clean(f"{editor.game.title}: {where} of {kept.path}"), style="bold")
        if kept.dirty:
            title.append("  (unsaved)", style="yellow")
        if kept.journal_problem is not None:
            title.append(f"  NOT journaled: {kept.journal_problem}", style="bold red")
        self.query_one("#title", Static).update(title)
        self.query_one("#last", Static).update(Text(clean(self._named(self._last_text()))))
        defect = editor.cursor.defect
        self.query_one("#defect", Static).update(
            Text(clean(f"turn {defect.turn}: {defect.message}")) if defect else ""
        )
        self._look_for_mends()
        offer = self.query_one("#mends", Static)
        offer.update(Text(clean(self._mends_text())))
        offer.display = bool(self.mends)  # no empty row above the legend
        tree = self.query_one(MoveTree)
        rows, current = tree_rows(
            editor.record,
            first_turn=editor.first_turn,
            round_size=editor.cursor.position.round_size,
            current=editor.cursor.address,
            width=max(12, tree.size.width or 40),
            ascii=self.ascii,
        )
        tree.show(rows, current)
        self._show_offered()
        self.query_one("#status", Static).update(Text(clean(self._status_text())))

    def _show_board(self) -> None:
        """The board; while a move is typed (or squares are picked), the squares it can
        go on to are marked."""
        view = self.editor.cursor.position.board_view()
        typed = self.query_one(_Entry).value.strip()
        moving = self.mode == "move" and not typed.startswith((":", "{"))
        if moving and (typed or (self.picking and not self.editor.needs_roll)):
            targets = self._targets(typed, view.cells.keys())
            view = replace(view, marks=tuple(sorted(targets)))
        #: The squares marked on the board (the last move's, or the typed move's targets).
        self.marked = view.marks
        width, height = self.size
        layout = choose_layout(view, max(width, 1), max(height, 1), several=False)
        names = {
            label: name for label, name in self._players().items() if label.isdigit()
        }
        self.query_one("#legend", Static).update(Text(cleaner(self.ascii)(
            legend_line(view, notes=layout.notes, names=names)
        )))
        self.query_one(BoardWidget).show(
            view, compact=layout.compact, notes=layout.notes, selected=self.selected,
            ascii=self.ascii, zoom=0, inner=layout.inner, note_line=layout.note_line,
        )

    def _targets(self, typed: str, squares: Iterable[str]) -> set[str]:
        """The next square of each legal move that starts with ``typed``."""
        names = set(squares)
        sizes = sorted({len(name) for name in names}, reverse=True)  # a10 before a1
        found: set[str] = set()
        for candidate in self.editor.candidates(typed.rstrip("!?")):
            rest = candidate.text[len(typed):]
            square = next(
                (rest[at:at + size] for at in range(len(rest)) for size in sizes
                 if rest[at:at + size] in names),
                None,
            )
            if square is not None:
                found.add(square)
        return found

    def _last_text(self) -> str:
        editor = self.editor
        caption = editor.cursor.position.caption() if editor.cursor.last_node is not None else ""
        said = caption or "The start: nothing played yet."
        # The comment here, as {Ctrl+T} would edit it: the last move's (at a line's
        # start, the next move's, before it; with no move, the record's).
        comment = editor.comment()
        return f"{said}\n{{{comment}}}" if comment else said

    def _players(self) -> dict[str, str]:
        """The players named in the record's tags, by the tag's name without its letters
        where it has a number (``Player1`` -> ``"1"``: the label of their pawn), else
        by the tag's name (``Red``)."""
        record = self.editor.record
        named: dict[str, str] = {}
        for tag in self.editor.game.player_tags:
            value = record.tag(tag)
            if value:
                number = re.fullmatch(r"[A-Za-z]+(\d+)", tag)
                named[number.group(1) if number else tag] = value
        return named

    def _named(self, text: str) -> str:
        """``text`` with each numbered player (``player 1``) called by their name."""
        names = self._players()
        return re.sub(
            r"\bplayer (\d+)\b", lambda found: names.get(found.group(1), found.group(0)),
            text,
        )

    def _status_text(self) -> str:
        editor = self.editor
        position = editor.cursor.position
        outcome = position.outcome()
        parts = [f"turn {editor.cursor.turn}"]
        if outcome is not None:
            parts.append(f"game over: {outcome}")
        else:
            # A numbered player by name (the legend says whose pawn); a side by its colour.
            parts.append(f"{self._named(str(position.mover))} to move")
            if editor.roll is not None:
                parts.append(f"rolled {editor.roll}")
            elif editor.needs_roll:
                parts.append(f"roll the die: {' '.join(editor.roll_faces())}")
        if editor.cursor.depth:
            parts.append(f"in a variation (depth {editor.cursor.depth})")
        if self.picking:
            parts.append(f"board {self.selected}: arrows, Space picks, Enter plays, Esc")
        if self.mode == "comment":
            parts.append("comment: Enter sets it, Esc cancels")
        elif self.mode == "how":  # a question is the whole line: it must fit in 80
            return "a move follows here: v variation, r replace, m main line, e mend, Esc"
        elif self.mode == "quit":
            unsaved = "unsaved edits" if self.kept.journal_problem is None else "unjournaled"
            return f"{unsaved}: s save and quit, d drop them and quit, Esc stay"
        elif self.mode == "mend":
            digits = " ".join(str(number) for number in range(1, len(self.mends) + 1))
            return f"mend which? {digits} (listed beside the board; Enter: 1), Esc none"
        if self.message:
            parts.append(self.message)
        if self.kept.journal_problem is not None:  # the title says it too, never cut
            parts.append(f"NOT journaled ({self.kept.journal_problem}): :w PATH saves")
        return " | ".join(parts)

    def _show_offered(self) -> None:
        entry = self.query_one(_Entry)
        text = entry.value.strip()
        lines = Text()
        box = self.query_one("#offered", Static)
        # Before the first layout the panel has no width yet: about half the screen's.
        width = max(20, box.size.width or self.size.width // 2)
        if self.mode == "move" and not text.startswith((":", "{")):
            bare = text.rstrip("!?")
            offered = [] if self.editor.needs_roll and not bare else self.editor.candidates(bare)
            rows = shown = 0
            for candidate in offered:
                # Each move whole, its description wrapped under it: nothing cut off.
                wrapped = textwrap.wrap(
                    f"{candidate.text}  {self._named(candidate.description)}", width,
                    subsequent_indent="    ", break_on_hyphens=False,
                ) or [candidate.text]
                more = len(offered) > shown + 1
                if shown and rows + len(wrapped) + more > OFFERED_ROWS:
                    break
                if shown:
                    lines.append("\n")
                first = wrapped[0]
                bold = min(len(candidate.text), len(first))
                lines.append(first[:bold], style="bold")
                lines.append("\n".join([first[bold:], *wrapped[1:]]))
                rows += len(wrapped)
                shown += 1
            if len(offered) > shown:
                lines.append(f"\n... {len(offered) - shown} more (type to narrow)")
            elif bare and not offered:
                lines.append(f"no move here starts with {bare}", style="yellow")
        box.update(
            Text(cleaner(self.ascii)(lines.plain)) if self.ascii else lines
        )

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.mode == "move" and event.value == "{":
            self.action_comment()
            return
        self._show_board()
        self._show_offered()

    # -- what Enter does --------------------------------------------------------
    def submit(self, line: str) -> None:
        """What Enter does with the entry line ``line``."""
        entry = self.query_one(_Entry)
        text = line.strip()
        self.message = ""
        typed = self.mode in ("move", "comment")  # text of the user's, not an answer
        try:
            if self.mode == "comment":
                self.editor.set_comment(text)
                self.mode = "move"
                entry.placeholder = PLACEHOLDER
            elif self.mode == "how":
                self._answer_how(text)
            elif self.mode == "quit":
                self._answer_quit(text)
            elif self.mode == "mend":
                self._answer_mend(text)
            elif text.startswith(":"):
                self._command(text[1:])
            elif text and text.strip("!?") == "":
                self.editor.toggle_glyph(text)
            elif text:
                self._play(text)
        except NotationException as exc:  # EditError among them
            self.message = str(exc)
            if typed:
                # Kept, the cursor after it, to be put right: what is typed next goes
                # on it (and is refused), not on the next turn, one turn early.
                entry.value = text
                entry.cursor_position = len(text)
        self.refresh_view()

    def answer(self, key: str) -> None:
        """One key pressed while a question is asked (``""``: Enter): the answer."""
        self.message = ""
        try:
            if self.mode == "how":
                self._answer_how(key)
            elif self.mode == "quit":
                self._answer_quit(key)
            elif self.mode == "mend":
                self._answer_mend(key)
        except NotationException as exc:
            self.message = str(exc)
        self.refresh_view()

    def _play(self, text: str) -> None:
        editor = self.editor
        if editor.needs_roll and len(text) == 1:
            editor.set_roll(text)
            return
        if editor.roll is not None and self._new_face(text):
            return
        following = editor.cursor.next_node
        if following is not None:
            move = str(editor.resolve(text.rstrip("!?")))
            replaced = following.text == move or any(
                v.nodes and v.nodes[0].text == move for v in following.variations
            )
            if not replaced:
                # Kept whole (its die face too, which moving to mend forgets), its glyph after.
                self._pending_move = move + text[len(text.rstrip("!?")):]
                self.mode = "how"
                return
        editor.play(text)

    def _new_face(self, text: str) -> bool:
        """A face other than the one given puts it right: typed alone, it replaces the
        roll (True: nothing more to do); a whole turn written with it, legal for it,
        replaces the roll and is played (False: play it)."""
        editor = self.editor
        was = editor.roll
        alone = len(text) == 1 and text.upper() != str(was).upper()
        face = text if alone else editor.face_of(text)
        if face is None or face.upper() == str(was).upper():
            return False
        editor.set_roll(face)
        self.message = f"the roll is {editor.roll}, not {was}" + (
            " (ctrl+z takes it back)" if alone else ""
        )
        return alone

    def _answer_how(self, answer: str) -> None:
        self.mode = "move"
        choice = (answer or "v")[:1].lower()
        hows: dict[str, How] = {"v": "variation", "r": "replace", "m": "main"}
        if choice not in (*hows, "e"):
            self.mode = "how"  # still asked: only these keys (and Esc) answer
            return
        move, self._pending_move = self._pending_move, ""
        if choice == "e":
            following = self.editor.cursor.next_node
            assert following is not None
            result = self.editor.mend(following, move)
            self.message = (
                f"mended; {result.kept} later move{'s' if result.kept != 1 else ''} kept"
                + (f", stopped at {result.stopped.text}" if result.stopped else "")
            )
        else:
            self.editor.play(move, how=hows[choice])

    # -- the slip a broken record probably holds (MEND_KEY) ----------------------
    def _look_for_mends(self) -> None:
        """Find the mends to offer (:attr:`mends`) again if the record changed since
        they were found and may be broken: when it is opened, after an undo, a redo
        or a mend, while mends are offered or the cursor stands at a defect.  (A valid
        record edited is not checked again: that would cost a check every move.)"""
        editor = self.editor
        if self._mends_version == editor.version:
            return
        self._mends_version = editor.version
        if not (self._look_again or self.mends or editor.cursor.defect is not None):
            return
        self._look_again = False
        found = suggested_mends(editor.record, editor.game.name)
        # The mends of one defect, the first: each lets the rest of its line play.
        # Another defect's come once it is mended (they may assume it).
        self.mends = [mend for mend in found if mend.defect is found[0].defect]
        del self.mends[MENDS_OFFERED:]

    def _mends_text(self) -> str:
        """The mends offered, in words, with the key that makes them."""
        mends = self.mends
        if not mends:
            return ""
        key = MEND_KEY
        if len(mends) == 1:
            mend = mends[0]
            later = "" if mend.later is None else f", all {mend.later} later moves play"
            return f"{mend.said()}: with it{later}. {key} mends it"
        rows = [f"Probably a slip: with any of these, all later moves play ({key}):"]
        rows += [
            f"{number} turn {mend.turn} ({mend.written}) was {mend.meant}"
            for number, mend in enumerate(mends, 1)
        ]
        return "\n".join(rows)

    def action_mend_slip(self) -> None:
        """MEND_KEY: make the mend offered (several: ask which)."""
        if self.mode != "move":
            return
        self.message = ""
        self._look_for_mends()
        if not self.mends:
            self.message = "no mend to offer: no slip found that lets the rest play"
        elif len(self.mends) == 1:
            self._mend(self.mends[0])
        else:
            self.mode = "mend"
        self.refresh_view()

    def _answer_mend(self, answer: str) -> None:
        """The mend picked by its number (Enter: the first); other keys: still asked."""
        number = int(answer) if answer.isdigit() else 1 if answer == "" else 0
        if not 1 <= number <= len(self.mends):
            return
        self.mode = "move"
        self._mend(self.mends[number - 1])

    def _mend(self, mend: SuggestedMend) -> None:
        """Make ``mend`` (an edit: ctrl+z takes it back) and say what it did."""
        self._look_again = True
        try:
            result = self.editor.mend(mend.node, mend.meant)
        except NotationException as exc:
            self.message = f"not mended: {exc}"
            return
        moves = f"{result.kept} later move{' stands' if result.kept == 1 else 's stand'}"
        valid = check_record(self.editor.record, self.editor.game.name).ok
        self.message = (
            f"mended turn {mend.turn} to {mend.meant}: {moves}"
            + (f", then {result.stopped.text} is refused" if result.stopped else "")
            + ("; the record is valid" if valid else "; the record is still broken")
            + " (ctrl+z undoes)"
        )

    def _answer_quit(self, answer: str) -> None:
        choice = answer[:1].lower()
        if choice not in ("s", "d"):
            return  # still asked: s, d or Esc
        self.mode = "move"
        if choice == "s":
            self.action_save()
            if not self.kept.dirty:
                self.kept.close()
                self.exit(0)
        elif choice == "d":
            self.kept.discard_journal()
            self.kept.close()
            self.exit(0)

    def _command(self, line: str) -> None:
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise EditError(f"the command cannot be read: {exc}") from None
        if not words:
            return
        name, args = words[0].lower(), words[1:]
        editor = self.editor
        if name in ("clk", "clock") and len(args) == 1:
            editor.set_clock(args[0])
        elif name == "tag" and len(args) == 2:
            editor.set_tag(args[0], args[1])
        elif name == "result" and len(args) == 1:
            editor.set_result(args[0])
        elif name == "roll" and len(args) == 1:
            editor.set_roll(args[0])
        elif name == "delete" and not args:
            whole = editor.cursor.depth > 0 and editor.cursor.index == 0  # at a variation's start
            count = editor.delete_rest()
            moves = f"{count} move{'s' if count != 1 else ''}"
            self.message = f"the variation deleted ({moves})" if whole else f"{moves} deleted"
        elif name == "promote" and not args:
            if not editor.promote():
                self.message = "the main line is already the main line"
        elif name in ("w", "save-as") and len(args) == 1:
            self._save_as(args[0])
        else:
            raise EditError(
                f"no command :{line}; the commands are :clk, :tag, :result, :roll, :delete, "
                ":promote, :w (F1 help)"
            )

    def _save_as(self, path: str) -> None:
        """``:w PATH``: the record appended to the file PATH, the session going on there."""
        try:
            number = self.kept.save_as(os.path.expanduser(path))
        except OSError as exc:
            why = os.strerror(exc.errno) if exc.errno else str(exc)
            self.message = f"not saved ({why}): {exc.filename or path}"
        else:
            self._force_save = False
            self.message = f"saved as record {number} of {self.kept.path}"

    # -- keys -------------------------------------------------------------------
    def complete(self) -> None:
        """Tab: the entry completed as far as every move it could be agrees."""
        entry = self.query_one(_Entry)
        if self.mode != "move":
            return
        offered = [c.text for c in self.editor.candidates(entry.value.strip())]
        if not offered:
            return
        common = offered[0]
        for text in offered[1:]:
            while not text.lower().startswith(common.lower()):
                common = common[:-1]
        if len(common) >= len(entry.value.strip()):
            entry.value = common
            entry.cursor_position = len(common)

    def _move(self, step: Callable[[], object]) -> None:
        self.message = ""
        step()
        self.refresh_view()

    def action_step_back(self) -> None:
        self._move(self.editor.back)

    def action_forward(self) -> None:
        self._move(self.editor.forward)

    def action_to_start(self) -> None:
        self._move(self.editor.to_start)

    def action_to_end(self) -> None:
        self._move(self.editor.to_end)

    def action_enter_variation(self) -> None:
        self._move(lambda: self.editor.enter_variation(1))

    def action_leave_variation(self) -> None:
        self._move(self.editor.leave_variation)

    def action_undo(self) -> None:
        self._look_again = True  # the record as it was: perhaps broken again
        what = self.editor.next_undo
        self._move(self.editor.undo)
        self.message = f"undone: {what}" if what else "nothing to undo"
        self.refresh_view()

    def action_redo(self) -> None:
        self._look_again = True
        what = self.editor.next_redo
        self._move(self.editor.redo)
        self.message = f"redone: {what}" if what else "nothing to redo"
        self.refresh_view()

    def action_glyph(self, glyph: str) -> None:
        self.message = ""
        try:
            self.editor.toggle_glyph(glyph)
        except EditError as exc:
            self.message = str(exc)
        self.refresh_view()

    def action_comment(self) -> None:
        entry = self.query_one(_Entry)
        self.mode = "comment"
        entry.value = self.editor.comment()
        entry.cursor_position = len(entry.value)
        entry.placeholder = "the comment (Enter sets it, empty removes it, Esc cancels)"
        self.refresh_view()

    def action_help(self) -> None:
        self.push_screen(RecordHelp())

    def action_save(self) -> None:
        kept = self.kept
        try:
            number = kept.save(force=self._force_save)
        except FileChangedError:
            self._force_save = True
            self.message = "the file changed on disk since it was read: ctrl+s again writes over it"
        except OSError as exc:  # nothing lost: the edits stay, unsaved
            why = os.strerror(exc.errno) if exc.errno else str(exc)  # short: the line is one
            self.message = f"not saved ({why}): :w PATH saves elsewhere"
        except NotationException as exc:
            self.message = f"not saved: {exc}"
        else:
            self._force_save = False
            self.message = f"saved as record {number}"
        self.refresh_view()

    def action_quit_asking(self) -> None:
        if not self.kept.dirty:
            self.kept.close()
            self.exit(0)
            return
        self.mode = "quit"
        self.refresh_view()

    def key_escape(self) -> None:
        entry = self.query_one(_Entry)
        if self.mode == "move" and not entry.value and self.editor.roll is not None:
            # Nothing typed: Esc takes back the die's face (a mistyped one).
            self.editor.set_roll(None)
            self.message = "the roll is cleared: type the die's letter"
            self.refresh_view()
            return
        self.mode = "move"
        self._pending_move = ""
        entry.value = ""
        entry.placeholder = PLACEHOLDER
        self.message = ""
        self.refresh_view()

    def on_board_widget_square_clicked(self, event: BoardWidget.SquareClicked) -> None:
        """A square clicked goes into the move typed (see :meth:`pick`)."""
        self.pick(event.square)

    def pick(self, square: str) -> None:
        """Put ``square`` into the move typed: after what is there if a legal move
        continues so, else starting it."""
        entry = self.query_one(_Entry)
        typed = entry.value.strip()
        self.selected = square
        value = square
        if typed:
            for candidate in self.editor.candidates(typed):
                rest = candidate.text[len(typed):]
                at = rest.find(square)
                if 0 <= at <= 2:
                    value = candidate.text[: len(typed) + at + len(square)]
                    break
        entry.value = value
        entry.cursor_position = len(value)
        self.refresh_view()

    # -- picking squares from the keyboard (F8) ----------------------------------
    def action_pick(self) -> None:
        """F8: start (or stop) picking squares with the arrow keys."""
        if self.mode != "move":
            return
        self.picking = not self.picking
        if self.picking:
            self._show_board()  # marks the squares a move can start on
            if self.selected not in self.marked:
                self.selected = self._first_square()
        self.refresh_view()

    def _first_square(self) -> str:
        """Where the board cursor starts: the last of the squares marked (those the
        move typed can go on to, or the last move's), or the middle of the board."""
        if self.marked:
            return self.marked[-1]
        grid = self._grid()
        middle_x = max(x for x, _ in grid.values()) / 2
        middle_y = max(y for _, y in grid.values()) / 2
        return min(grid, key=lambda name: (
            abs(grid[name][0] - middle_x) + abs(grid[name][1] - middle_y), grid[name]
        ))

    def _grid(self) -> dict[str, tuple[int, int]]:
        """Every square of the board by (file, rank) index, ranks counted upwards."""
        view = self.editor.cursor.position.board_view()
        return {
            file + rank: (x, y)
            for x, file in enumerate(view.files)
            for y, rank in enumerate(view.ranks)
            if file + rank in view.cells
        }

    def pick_key(self, key: str) -> None:
        """A key pressed while picking: an arrow moves the board cursor to the next
        square that way, Space picks it, Enter plays the move typed, Esc and F8 stop."""
        if key in ("escape", "f8"):
            self.picking = False
            self.refresh_view()
        elif key == "space":
            if self.selected is not None:
                self.pick(self.selected)
        elif key == "enter":
            entry = self.query_one(_Entry)
            value, entry.value = entry.value, ""
            self.submit(value)
        else:
            grid = self._grid()
            at = grid.get(self.selected or "") or grid[self._first_square()]
            step_x, step_y = STEPS[key]
            x, y = at[0] + step_x, at[1] + step_y
            where = {place: name for name, place in grid.items()}
            files = max(place[0] for place in where) + 1
            ranks = max(place[1] for place in where) + 1
            while 0 <= x < files and 0 <= y < ranks:
                if (x, y) in where:  # squares off the board are stepped over
                    self.selected = where[x, y]
                    break
                x, y = x + step_x, y + step_y
            self.refresh_view()
