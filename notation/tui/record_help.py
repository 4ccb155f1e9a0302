"""The help of ``notation record`` (F1): every key and command, and where edits go.

:data:`HELP` is the text, in sections of (keys, what they do); :func:`help_renderable`
lays it out in two columns that fit the help window from 80x24 up, and
:class:`RecordHelp` is the screen that shows it over the app.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from notation.tui.panels import grid

# RecordHelp (a textual screen) is left out: pdoc cannot read the members it
# inherits from textual, as for the apps in notation.tui.app and record_app.
__all__ = ["HELP", "HELP_NOTE", "MEND_KEY", "help_renderable"]

#: The key that mends the slip a broken record probably holds (see RecordApp.mends).
MEND_KEY = "ctrl+r"
#: The help (F1): sections of (keys, what they do), laid out in two columns that fit
#: the help window from 80x24 up (a description wraps in its own column).
HELP: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Entering a game", (
        ("a move, Enter", "play it: any spelling the notation accepts; a glyph may "
         "follow it (h5-h3!). The moves that start with what is typed are listed, with "
         "what each would do. A move refused stays typed, to be put right."),
        ("Tab", "complete the move typed as far as it is certain"),
        ("click a square", "add it to the move typed"),
        ("F8", "pick squares from the keyboard: the arrows move over the board, Space "
         "adds the square to the move typed, Enter plays it, Esc (or F8) goes back to "
         "typing"),
        ("Zombie Kidz", "type the die's letter and Enter first: the moves it allows are "
         "listed, and what follows the face is enough, marks or not (b2-c2x, b2-c2 or "
         "c2; the letter again for no step); or the whole turn at once: G:b2-c2x. A "
         "wrong face: type another letter, or the whole turn with its face; Esc or "
         "ctrl+z takes it back"),
        ("Cave", "an attack without the classes (b3xc4) lists the ones the pieces can "
         "still be: pick one"),
        ("v r m e", "a move where another follows asks, and one key answers: v a "
         "variation (or Enter), r replace the rest, m make it the main line (the rest "
         "its variation), e mend: this move changes, the later ones are replayed and "
         "kept while the rules allow; Esc: not played"),
        (MEND_KEY, "a broken record whose break an earlier slip explains (a move "
         "copied wrong but legal) says beside the board which move was probably "
         "meant: this key mends it, the later ones replayed (several offered: a digit "
         "picks one); ctrl+z takes it back"),
    )),
    ("Moving (with the entry line empty)", (
        ("Left / Right", "previous / next move"),
        ("Home / End", "start / end of the line"),
        ("Down / Up", "into the first variation here / out of the variation"),
    )),
    ("Editing", (
        ("ctrl+z / ctrl+y", "undo / redo (every edit, the die's face too): the status "
         "line says what"),
        ("F2 F3 F4 F5 F6 F7", "glyph on the last move:  !  ?  !!  ??  !?  ?!"),
        ("{  (or ctrl+t)", "comment on the last move: type it, Enter (empty: remove "
         "it); it is shown under the last move"),
        (":clk 1:02:03", "clock after the last move ([%clk])"),
        (":tag NAME VALUE", "set a tag"),
        (":result 1-0", "resigned or agreed (:result * gives it back to the rules)"),
        (":roll K", "the die's face (Zombie Kidz), in place of the one given"),
        (":delete", "delete the moves after the cursor (at a variation's start: the "
         "variation)"),
        (":promote", "make this variation the main line"),
        (":w PATH", "save as: append the record to the file PATH and go on there "
         "(:save-as PATH too; for a file that cannot be saved)"),
    )),
    ("Files", (
        ("ctrl+s", "save (atomically; a file changed on disk is not written over "
         "unless ctrl+s is pressed again)"),
        ("ctrl+q", "quit (asking when something is unsaved: s save and quit, d drop "
         "the edits, Esc stay)"),
        ("F1", "this help (Esc closes it)"),
    )),
)
#: What the help says after the keys.
HELP_NOTE = (
    "Every edit is kept in a journal beside the file until it is saved: after a "
    "crash, `notation record` of the same file brings it all back."
)


def help_renderable() -> RenderableType:
    """The help (:data:`HELP`) as shown: a heading and two columns per section."""
    parts: list[RenderableType] = []
    width = max(len(key) for _, rows in HELP for key, _ in rows)  # one column for all
    for heading, rows in HELP:
        if parts:
            parts.append(Text())
        table = grid([(key.ljust(width), does) for key, does in rows])
        parts += [Text(heading, style="bold underline"), table]
    parts += [Text(), Text(HELP_NOTE, style="dim")]
    return Group(*parts)


class RecordHelp(ModalScreen[None]):
    """The help of ``notation record`` (F1), over the app until Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "dismiss", "close", key_display="Esc"),
    ]
    DEFAULT_CSS = """
    RecordHelp { align: center middle; }
    RecordHelp > VerticalScroll {
        width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(help_renderable(), id="help-text")

    def on_mount(self) -> None:
        """The help scrolls with the keys as soon as it opens."""
        self.set_focus(self.query_one(VerticalScroll))
