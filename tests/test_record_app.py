"""``notation record``'s terminal app, driven by Textual's pilot (no terminal): every key
of its help, the questions it asks, the mouse, and snapshots of each game at 80x24 and
120x40.  No fixed sleeps: each key's effect is on the app when ``press`` returns."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static

import notation
from notation.cli import cli
from notation.collections.generate import generate_records
from notation.editing.editor import RecordEditor
from notation.editing.recordfile import RecordFile, journal_path
from notation.replay import check_record
from notation.tui.board import BoardWidget
from notation.tui.record_app import GLYPH_KEYS, RecordApp
from notation.tui.record_help import HELP, RecordHelp

Scenario = Callable[[Pilot[int]], Awaitable[None]]
SnapCompare = Callable[..., bool]
DAY = datetime.date(2026, 12, 2)
ROOT = Path(__file__).resolve().parent.parent


def new_app(tmp_path: Path, game: str, **options: object) -> RecordApp:
    kept = RecordFile.open(tmp_path / "game.txt", game=game, date=DAY, **options)  # type: ignore[arg-type]
    return RecordApp(kept)


def drive(app: RecordApp, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(run())


async def type_in(pilot: Pilot[int], *texts: str) -> None:
    """Type each text into the entry line and press Enter after it."""
    for text in texts:
        await pilot.press(*text, "enter")


def moves(app: RecordApp) -> list[str]:
    return [node.written for node in app.editor.record.moves]


def shown(app: RecordApp, selector: str) -> str:
    widget = app.query_one(selector, Static)
    return str(widget.render())


async def on_screen(pilot: Pilot[int], selector: str) -> str:
    """What the screen shows inside the widget ``selector`` (its rows joined, runs of
    spaces made one): what a user can read there, clipping and all."""
    await pilot.pause()  # the screen drawn as the app now stands
    app = pilot.app
    region = app.query_one(selector).region
    strips = app.screen._compositor.render_strips()
    rows = [strip.text[region.x:region.right] for strip in strips[region.y:region.bottom]]
    return " ".join(" ".join(rows).split())


def whole(text: str) -> str:
    return " ".join(text.split())


def test_typing_moves_plays_them_and_ctrl_s_saves(tmp_path: Path) -> None:
    app = new_app(tmp_path, "tinkertown")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "d3", "e3,h6")
        assert moves(app) == ["d3", "e3,h6"]
        assert "(unsaved)" in shown(app, "#title")
        await pilot.press("ctrl+s")
        assert "saved as record 1" in shown(app, "#status")
        assert "(unsaved)" not in shown(app, "#title")

    drive(app, scenario)
    text = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert text.endswith("1. d3 e3,h6 *\n") and '[Date "2026.12.02"]' in text
    assert not Path(journal_path(tmp_path / "game.txt")).exists()


def test_the_moves_offered_follow_what_is_typed_and_tab_completes(tmp_path: Path) -> None:
    app = new_app(tmp_path, "tinkertown")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "d3")
        await pilot.press("e", "3", ",", "h")
        offered = shown(app, "#offered")
        assert "e3,h6 Red placed zombies on e3 and h6" in whole(offered)
        # Each move's description wraps under it, indented: the moves start the lines.
        assert all(line.startswith(("e3,h", "    ")) for line in offered.splitlines())
        await pilot.press("backspace", "backspace", "backspace", "tab")
        # Every move of Red's starting with e is e3,... (the grave next to d3 on file e).
        assert app.query_one("#entry").value == "e3,"  # type: ignore[attr-defined]
        await pilot.press("q")
        assert "no move here starts with e3,q" in shown(app, "#offered")

    drive(app, scenario)


def test_an_illegal_move_says_why_and_plays_nothing(tmp_path: Path) -> None:
    app = new_app(tmp_path, "tinkertown")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "d3", "e6,c3")
        assert moves(app) == ["d3"]
        assert "e6 is not next to White's last placement d3" in shown(app, "#status")
        # The refused move stays typed, the cursor after it: a transcriber who keeps
        # typing puts nothing one turn early.
        entry = app.query_one("#entry")
        assert entry.value == "e6,c3" and entry.cursor_position == 5  # type: ignore[attr-defined]
        await type_in(pilot, "e3,h6")
        assert moves(app) == ["d3"] and entry.value == "e6,c3e3,h6"  # type: ignore[attr-defined]
        await pilot.press(*["backspace"] * 10)
        await type_in(pilot, "e3,h6", "g6,e8")
        assert moves(app) == ["d3", "e3,h6", "g6,e8"]
        await type_in(pilot, ":frobnicate")  # a command refused stays too
        assert entry.value == ":frobnicate"  # type: ignore[attr-defined]
        await pilot.press(*["backspace"] * 11, "{")
        await type_in(pilot, "a } breaks a comment")  # a comment refused: still its line
        assert app.mode == "comment" and entry.value == "a } breaks a comment"  # type: ignore[attr-defined]

    drive(app, scenario)


def test_undo_redo_glyphs_and_a_comment(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5")
        await pilot.press("ctrl+z")
        assert moves(app) == ["b1"]
        await pilot.press("ctrl+y")
        assert moves(app) == ["b1", "b5"]
        for key, glyph in GLYPH_KEYS.items():
            await pilot.press(key)
            assert app.editor.record.moves[-1].suffix == glyph
            await pilot.press(key)
            assert app.editor.record.moves[-1].suffix == ""
        await pilot.press("{")
        assert app.mode == "comment"
        await type_in(pilot, "a quiet start")
        assert app.editor.record.moves[-1].comment == "a quiet start"
        await pilot.press("ctrl+t")
        assert app.query_one("#entry").value == "a quiet start"  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert app.mode == "move"
        await type_in(pilot, "!?")  # a glyph typed alone marks the last move
        assert app.editor.record.moves[-1].suffix == "!?"

    drive(app, scenario)


def test_a_comment_is_shown_and_its_undo_and_redo_say_so(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5")
        await pilot.press("{")
        await type_in(pilot, "a quiet start")
        assert "{a quiet start}" in await on_screen(pilot, "#last")
        await pilot.press("left")  # the comment goes with its move
        assert "a quiet start" not in await on_screen(pilot, "#last")
        await pilot.press("right", "ctrl+z")
        assert "undone: the comment after b5" in await on_screen(pilot, "#status")
        assert "a quiet start" not in await on_screen(pilot, "#last")
        await pilot.press("ctrl+y")
        assert "redone: the comment after b5" in await on_screen(pilot, "#status")
        assert "{a quiet start}" in await on_screen(pilot, "#last")

    drive(app, scenario)


def test_the_arrows_move_through_the_record_with_the_entry_empty(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5", "c1")
        await pilot.press("left")
        assert app.editor.cursor.address == (2,)
        await pilot.press("home")
        assert app.editor.cursor.address == (0,)
        await pilot.press("right")
        assert app.editor.cursor.address == (1,)
        await pilot.press("end")
        assert app.editor.cursor.address == (3,)
        await pilot.press("c", "left")  # with text typed, Left moves in the text
        assert app.editor.cursor.address == (3,)

    drive(app, scenario)


def test_a_move_where_another_follows_asks_how(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5", "c1")
        await pilot.press("left", "left")
        await type_in(pilot, "c5")
        assert app.mode == "how" and "v variation" in shown(app, "#status")
        await pilot.press("x", "left")  # no answer: still asked, nothing typed
        assert app.mode == "how" and app.query_one("#entry").value == ""  # type: ignore[attr-defined]
        await pilot.press("v")  # one key answers
        assert [n.text for n in app.editor.record.moves[1].variations[0].nodes] == ["c5"]
        await pilot.press("up")  # out of the variation
        assert app.editor.cursor.depth == 0
        await pilot.press("left")
        await type_in(pilot, "a5")
        await pilot.press("m")
        assert moves(app) == ["b1", "a5"]
        await pilot.press("left")
        await type_in(pilot, "d5")
        await pilot.press("r")
        assert moves(app) == ["b1", "d5"]
        await pilot.press("left")
        await type_in(pilot, "c5")
        await pilot.press("e")  # mend: this move changes, nothing else
        assert moves(app) == ["b1", "c5"] and "mended" in shown(app, "#status")
        assert app.mode == "move" and app.query_one("#entry").value == ""  # type: ignore[attr-defined]
        await pilot.press("left")
        await type_in(pilot, "a5", "")  # Enter alone: a variation, the default
        assert app.editor.cursor.depth == 1 and moves(app) == ["b1", "c5"]

    drive(app, scenario)


def test_commands(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", ":clk 0:01:02", ":tag Event club", ":result 1-0")
        record = app.editor.record
        assert app.editor.clock_of() == "0:01:02" and record.tag("Event") == "club"
        assert record.result == "1-0"
        await type_in(pilot, ":result *", ":delete")
        assert moves(app) == ["b1"]  # nothing after the cursor
        await pilot.press("left")
        await type_in(pilot, ":delete")
        assert moves(app) == [] and "1 move deleted" in shown(app, "#status")
        await type_in(pilot, ":frobnicate")
        assert "no command :frobnicate" in shown(app, "#status")

    drive(app, scenario)


def test_delete_at_a_variations_start_removes_it_and_the_record_still_saves(
    tmp_path: Path,
) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5", "c1")
        await pilot.press("left")
        await type_in(pilot, "d1")
        await pilot.press("v")
        await pilot.press("left")  # before the variation's first move
        assert app.editor.cursor.address == (2, 1, 0)
        await type_in(pilot, ":delete")
        assert "the variation deleted (1 move)" in shown(app, "#status")
        assert app.editor.cursor.address == (2,) and not app.editor.record.moves[2].variations
        await type_in(pilot, "c1", "c5")  # a later edit, then the save: both work
        await pilot.press("ctrl+s")
        assert "saved as record 1" in shown(app, "#status")

    drive(app, scenario)
    assert (tmp_path / "game.txt").read_text(encoding="utf-8").endswith("1. b1 b5 2. c1 c5 *\n")


def test_zombie_kidz_asks_for_the_roll(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        assert "roll the die: R Y G K B W" in shown(app, "#status")
        await type_in(pilot, "g")
        assert app.editor.roll == "G" and "rolled G" in shown(app, "#status")
        assert all(line.startswith(("G", "    ")) for line in shown(app, "#offered").splitlines())
        first = app.editor.candidates()[0].text
        await type_in(pilot, first)
        assert moves(app) == [first] and app.editor.needs_roll

    drive(app, scenario)


def test_zombie_kidz_takes_the_short_spellings_after_the_roll(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b")
        await pilot.press("a", "2")
        assert shown(app, "#offered").splitlines()[0].startswith("B:b2-a2x")
        await pilot.press("enter")
        assert moves(app) == ["B:b2-a2x"], shown(app, "#status")
        await type_in(pilot, "g", "c2")  # the other pawn's step, by its zone alone
        assert [node.text for node in app.editor.record.moves] == ["B:b2-a2x", "G:b2-c2x"]

    drive(app, scenario)


def test_a_mistyped_die_face_is_put_right(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b", "K:b2-b1")  # the whole turn with its face: played
        assert moves(app) == ["K:b2-b1x"], shown(app, "#status")
        assert "the roll is K, not B" in shown(app, "#status")
        await type_in(pilot, "b")
        await pilot.press("ctrl+z")  # the roll is an edit: undone
        assert app.editor.roll is None and "undone: the roll B" in shown(app, "#status")
        await pilot.press("ctrl+y")
        assert app.editor.roll == "B" and "redone: the roll B" in shown(app, "#status")
        await pilot.press("escape")  # nothing typed: Esc clears the roll
        assert app.editor.roll is None and "roll the die" in shown(app, "#status")
        await type_in(pilot, "b", "g")  # another letter alone: the roll put right
        assert app.editor.roll == "G" and "the roll is G, not B" in shown(app, "#status")
        assert moves(app) == ["K:b2-b1x"]

    drive(app, scenario)


def test_every_message_is_read_whole_at_80x24(tmp_path: Path) -> None:
    """The status line wraps a long message rather than cut it, and each move offered
    is shown whole, its description wrapped under it (who wins a Cave fight)."""
    cave = new_app(tmp_path, "cave")

    async def attack(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "a5", "b1-b2", "a5-a4", "b2-b3", "a4xb3")
        assert "write Ka4, Za4 or Sa4" in cave.message
        assert whole(cave.message) in await on_screen(pilot, "#status")
        await pilot.press(*["backspace"] * 8, *"a4xb3")
        offered = await on_screen(pilot, "#offered")
        assert "Ka4xKb3 Black's black knight beat Red's black knight and took b3" in offered
        assert "Ka4xZb3 Black's black knight beat Red's zombie and took b3" in offered
        await pilot.press(*["backspace"] * 8)
        await type_in(pilot, "Za4xSb3")
        await pilot.press("home")
        await type_in(pilot, "c1")
        await pilot.press("e")  # mend: the later moves are replayed
        assert cave.message.startswith("mended; 1 later move kept, stopped at b1-b2")
        assert whole(cave.message) in await on_screen(pilot, "#status")

    drive(cave, attack)

    (tmp_path / "zk").mkdir()
    zombies = new_app(tmp_path / "zk", "zombie-kidz")

    async def refused(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b", "b1", "g", "zz")  # a turn (journaled), then a slip
        assert "a turn is a die letter" in zombies.message
        assert whole(zombies.message) in await on_screen(pilot, "#status")

    drive(zombies, refused)
    zombies.kept.close()  # as a crash would leave it: the journal, unsaved edits in it

    path = tmp_path / "zk" / "game.txt"
    restored = RecordApp(RecordFile.open(path))  # the journal of the edits above

    async def restore(pilot: Pilot[int]) -> None:
        assert restored.message.startswith("restored")
        assert whole(restored.message) in await on_screen(pilot, "#status")

    drive(restored, restore)
    restored.kept.close()


def test_a_turn_after_the_roll_where_another_follows_is_mended(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b", "a2", "k", "c2")
        await pilot.press("left")
        await type_in(pilot, "g", "b3")  # what follows the face, where a move follows
        assert app.mode == "how"
        await pilot.press("e")
        assert moves(app) == ["B:b2-a2x", "G:b2-b3"], shown(app, "#status")
        assert app.editor.needs_roll

    drive(app, scenario)


def test_the_players_are_named_and_the_board_has_a_legend_line(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz", players=["Ann", "Bob"])

    async def scenario(pilot: Pilot[int]) -> None:
        assert "Ann to move" in await on_screen(pilot, "#status")
        legend = await on_screen(pilot, "#legend")
        assert "# red tomb" in legend and "^ blue tomb" in legend
        assert "2 = zombies on the zone" in legend and "1 Ann; 2 Bob" in legend
        await type_in(pilot, "b", "a2")
        assert "Bob to move" in await on_screen(pilot, "#status")
        assert "Ann moved to a2" in await on_screen(pilot, "#last")

    drive(app, scenario)
    (tmp_path / "tt").mkdir()
    stacks = new_app(tmp_path / "tt", "tinkertown", players=["Mina", "Igor"])

    async def tinkertown(pilot: Pilot[int]) -> None:
        assert "White to move" in await on_screen(pilot, "#status")  # a side: its colour
        legend = await on_screen(pilot, "#legend")
        assert "% chapel" in legend and "R5 = a stack of 5, R on top" in legend
        await type_in(pilot, "d3", "d3,e3")  # refused: the square's last change named
        status = await on_screen(pilot, "#status")
        assert "d3 is occupied; d3 was last changed at turn 1: 1. d3" in status

    drive(stacks, tinkertown)


def test_a_cave_attack_offers_the_classes(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "a5", "b1-b2", "a5-a4", "b2-b3", "a4xb3")
        assert moves(app)[-1] == "b2-b3"
        assert "did you mean Ka4xKb3" in shown(app, "#status")
        # The attack stays typed, and the list shows the classes to pick from.
        assert app.query_one("#entry").value == "a4xb3"  # type: ignore[attr-defined]
        assert shown(app, "#offered").splitlines()[0].startswith("Ka4xKb3")
        await pilot.press("ctrl+a", "ctrl+k")
        await type_in(pilot, "Za4xSb3")
        assert moves(app)[-1] == "Za4xSb3"

    drive(app, scenario)


def test_a_click_on_a_square_goes_into_the_move(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5")
        board = app.query_one(BoardWidget)
        drawing = board.drawing
        assert drawing is not None
        for square in ("b1", "b2"):
            x, y = next(
                (x, y) for y in range(drawing.height) for x in range(drawing.width)
                if drawing.square_at(x, y) == square
            )
            await pilot.click(BoardWidget, offset=(x, y))
        assert app.query_one("#entry").value == "b1-b2"  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert moves(app) == ["b1", "b5", "b1-b2"]

    drive(app, scenario)


def test_quit_asks_when_something_is_unsaved(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1")
        await pilot.press("ctrl+q")
        assert app.mode == "quit" and "s save and quit" in shown(app, "#status")
        await pilot.press("escape")
        assert app.mode == "move"
        await pilot.press("ctrl+q")
        await pilot.press("s")

    drive(app, scenario)
    assert app.return_code == 0 and path.read_text(encoding="utf-8").endswith("1. b1 *\n")

    dropped = RecordApp(RecordFile.open(path, game="cave", defaults=False))

    async def drop(pilot: Pilot[int]) -> None:
        await type_in(pilot, "c1")
        assert Path(journal_path(path)).exists()
        await pilot.press("ctrl+q")
        await pilot.press("d")

    drive(dropped, drop)
    assert len(list(notation.read_file(path))) == 1 and not Path(journal_path(path)).exists()


def test_a_saved_record_reopens_and_a_broken_one_opens_at_its_defect(tmp_path: Path) -> None:
    path = tmp_path / "broken.ugn"
    path.write_text('[Game "cave"]\n\n1. b1 b5 2. b1 c5 *\n', encoding="utf-8")
    app = RecordApp(RecordFile.open(path, 1))

    async def scenario(pilot: Pilot[int]) -> None:
        assert "b1 holds" in shown(app, "#defect")
        await type_in(pilot, "c1")
        await pilot.press("e")
        assert app.editor.check().ok and shown(app, "#defect") == ""

    drive(app, scenario)


def test_help_lists_the_keys(tmp_path: Path) -> None:
    """Every key the app binds is in its help (F1) and in docs/recording.md."""
    app = new_app(tmp_path, "cave")
    doc = (ROOT / "docs" / "recording.md").read_text(encoding="utf-8")
    keys = {
        key for binding in RecordApp.BINDINGS if isinstance(binding, Binding)
        for key in binding.key.split(",") if key not in ("ctrl+c", "up", "down")
    } | {"tab", "up", "down", "left", "right", "home", "end", "escape"}

    def written(key: str) -> str:
        names = {"escape": "Esc", "tab": "Tab", "up": "Up", "down": "Down"}
        return names.get(key) or (key.upper() if key.startswith("f") else key.title()
                                  if key in ("left", "right", "home", "end") else key)

    help_text = "\n".join(f"{key}  {does}" for _, rows in HELP for key, does in rows)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        assert isinstance(app.screen, RecordHelp)
        for key in keys:
            assert written(key) in help_text, key
            assert written(key) in doc, key
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]

    drive(app, scenario)


def test_the_help_fits_80x24_each_description_wrapped_in_its_column(tmp_path: Path) -> None:
    """F1 at 80x24: every key at the start of its row, its description whole, wrapped
    once, in its own column (not broken by hand and wrapped again into ragged lines)."""
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        scroll = app.screen.query_one(VerticalScroll)
        shown_rows: dict[int, str] = {}
        while True:
            await pilot.pause()
            region = scroll.scrollable_content_region
            strips = app.screen._compositor.render_strips()
            for at, strip in enumerate(strips[region.y:region.bottom]):
                shown_rows[round(scroll.scroll_y) + at] = strip.text[region.x:region.right]
            if scroll.scroll_y >= scroll.max_scroll_y:
                break
            scroll.scroll_page_down(animate=False)
        lines = [shown_rows[at].rstrip() for at in sorted(shown_rows)]
        for _, rows in HELP:
            for key, does in rows:
                at = next(i for i, line in enumerate(lines) if line.startswith(key))
                column = len(key) + len(lines[at][len(key):]) - len(lines[at][len(key):].lstrip())
                said = [lines[at][column:]]
                for line in lines[at + 1:]:
                    if line[:column].strip() or not line[column:].strip():
                        break
                    said.append(line[column:])
                assert whole(" ".join(said)) == whole(does), key

    drive(app, scenario)


def test_record_without_a_terminal_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["record", str(tmp_path / "g.txt"), "--game", "cave"])
    assert result.exit_code == 2 and "needs a terminal" in result.output


SNAPSHOT_MOVES = {
    "tinkertown": ["d3", "e3,h6", "g6,e8", "e7,h4", "h3,b7"],
    "cave": ["b1", "a5", "b1-b2", "a5-a4", "b2-b3"],
    "zombie-kidz": ["R:b2-b1", "B:b2-b3"],
}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("game", list(SNAPSHOT_MOVES))
def test_snapshots(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    game: str, size: tuple[int, int],
) -> None:
    monkeypatch.chdir(tmp_path)  # the title names the file as given: the same everywhere
    kept = RecordFile.open("game.txt", game=game, date=DAY, players=["Ann", "Bob"])
    for move in SNAPSHOT_MOVES[game]:
        kept.editor.play(move)
    assert snap_compare(RecordApp(kept), terminal_size=size, press=["a"])


def test_the_squares_a_typed_move_can_go_on_to_are_marked(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5")
        assert app.marked == ("b5",)  # the last move's square
        await pilot.press("b", "1")
        assert app.marked == ("a1", "b2", "c1")  # where b1's piece can go
        await pilot.press("-")
        assert app.marked == ("a1", "b2", "c1")
        await pilot.press("b", "2")
        assert app.marked == ()  # the move is whole: nothing further
        await pilot.press("enter")
        assert app.marked == ("b1", "b2")

    drive(app, scenario)


def typed_games(game: str) -> list[list[str]]:
    """Generated games of ``game`` to type key by key (a key costs the pilot a screen
    update, so they are short): the two shortest Zombie Kidz games whole; of Cave and
    Tinkertown, the game of the earliest first capture (Cave's first fight, where the
    classes are revealed), up to two moves after it."""
    games = [
        [node.written for node in record.moves]
        for record, _ in generate_records(game, 40, 2026)
    ]
    if game == "zombie-kidz":
        return sorted(games, key=len)[:2]

    def first_capture(texts: list[str]) -> int:
        return next((at for at, text in enumerate(texts) if "x" in text), len(texts))

    texts = min(games, key=first_capture)
    return [texts[: first_capture(texts) + 3]]


@pytest.mark.parametrize("game", ["cave", "tinkertown", "zombie-kidz"])
def test_generated_games_typed_key_by_key_save_what_the_library_makes(
    tmp_path: Path, game: str
) -> None:
    for number, texts in enumerate(typed_games(game)):
        path = tmp_path / f"game{number}.txt"
        players = ["Ann", "Bob"]
        app = RecordApp(RecordFile.open(path, game=game, date=DAY, players=players))

        async def scenario(
            pilot: Pilot[int], app: RecordApp = app, texts: list[str] = texts
        ) -> None:
            for at, text in enumerate(texts):
                if app.editor.needs_roll and (at % 2 or ":" not in text):
                    # Every other Zombie Kidz turn: the die's letter first, then the move.
                    # A turn without a step ("Y") is always so: a letter alone is the die.
                    await type_in(pilot, text[0].lower(), text.partition(":")[2] or text)
                else:
                    await type_in(pilot, text)
                assert len(app.editor.record.moves) == at + 1, shown(app, "#status")
            await pilot.press("ctrl+s")
            assert "saved as record 1" in shown(app, "#status")

        drive(app, scenario)
        library = RecordEditor.new(game, date=DAY, players=players)
        for text in texts:
            library.play(text)
        assert path.read_text(encoding="utf-8") == library.text()
        (saved,) = notation.read_string(path.read_text(encoding="utf-8"))
        assert check_record(saved).ok


def test_f8_picks_squares_from_the_keyboard(tmp_path: Path) -> None:
    app = new_app(tmp_path, "tinkertown")

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f8")
        # The cursor starts on a square a move can start on.
        assert app.picking and app.selected == app.marked[-1] == "h6"
        await pilot.press(*["left"] * 4, *["down"] * 2)
        assert app.selected == "d4"
        # White's first placement may go on any grave: every one is marked.
        assert set(app.marked) == {c.text for c in app.editor.candidates()}
        assert len(app.marked) == 48
        await pilot.press("down", "space")
        assert app.query_one("#entry").value == "d3"  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert moves(app) == ["d3"] and app.picking
        # Red's pair: the first square, then the second joins it after its comma.
        await pilot.press("right", "space")
        assert app.query_one("#entry").value == "e3"  # type: ignore[attr-defined]
        assert "h6" in app.marked and "e3" not in app.marked
        await pilot.press(*["up"] * 3, *["right"] * 3, "space")
        assert app.selected == "h6"
        assert app.query_one("#entry").value == "e3,h6"  # type: ignore[attr-defined]
        await pilot.press(*["right"] * 5)  # the edge of the board stops the cursor
        assert app.selected == "h6"
        await pilot.press("enter")
        assert moves(app) == ["d3", "e3,h6"]
        await pilot.press("escape")
        assert not app.picking
        await pilot.press("left")  # the arrows move through the record again
        assert app.editor.cursor.index == 1

    drive(app, scenario)


def test_kill_9_of_notation_record_on_a_terminal_loses_no_edit(tmp_path: Path) -> None:
    """The real command on a pseudo-terminal, recording live (``--clock``): moves typed
    ahead, the process killed (no save, no clean exit) once the journal holds them, then
    every one comes back, with its clock."""
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    path = tmp_path / "live game.txt"
    typed = ["b1", "b5", "b1-b2", "b5-b4", "c1"]
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    try:
        child = pexpect.spawn(
            sys.executable, ["-m", "notation", "record", str(path), "--game", "cave", "--clock"],
            cwd=str(tmp_path), env=env, dimensions=(24, 80), encoding="utf-8", timeout=60,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")
    journal = Path(journal_path(path))

    def journal_holds_every_move() -> bool:
        try:
            text = json.loads(journal.read_text(encoding="utf-8"))["text"]
        except (OSError, ValueError, KeyError):
            return False  # not written yet, or being replaced
        return len(notation.read_string(text)[0].moves) == len(typed)

    try:
        child.expect_exact("a move, { a comment")  # the app is up
        child.send("".join(f"{move}\r" for move in typed))
        deadline = time.monotonic() + 60
        while not journal_holds_every_move():
            assert time.monotonic() < deadline, "the journal never held every move"
            # Read what the app draws, so that it never waits on a full terminal.
            with contextlib.suppress(pexpect.TIMEOUT):
                child.read_nonblocking(65536, timeout=0.05)
        child.kill(signal.SIGKILL)
        child.wait()
    finally:
        child.close(force=True)
    assert child.signalstatus == signal.SIGKILL and not path.exists()
    restored = RecordFile.open(path)
    assert restored.restored is not None
    nodes = restored.editor.record.moves
    assert [node.text for node in nodes] == typed
    assert all(re.fullmatch(r"\d+:\d\d:\d\d", restored.editor.clock_of(n) or "") for n in nodes)
    assert restored.save() == 1
    saved = next(notation.read_file(path))
    assert [node.text for node in saved.moves] == typed and "[%clk 0:" in path.read_text("utf-8")
