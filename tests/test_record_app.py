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
from textual.pilot import Pilot
from textual.widgets import Static

import notation
from notation.cli import cli
from notation.editor import RecordEditor
from notation.generate import generate_records
from notation.recordfile import RecordFile, journal_path
from notation.replay import check_record
from notation.tui.board import BoardWidget
from notation.tui.record_app import GLYPH_KEYS, RecordApp

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
        assert "e3,h6  Red placed zombies on e3 and h6" in offered
        assert all(line.startswith("e3,h") for line in offered.splitlines())
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


def test_the_arrows_move_through_the_record_with_the_entry_empty(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5", "c1")
        await pilot.press("left")
        assert app.editor.address == (2,)
        await pilot.press("home")
        assert app.editor.address == (0,)
        await pilot.press("right")
        assert app.editor.address == (1,)
        await pilot.press("end")
        assert app.editor.address == (3,)
        await pilot.press("c", "left")  # with text typed, Left moves in the text
        assert app.editor.address == (3,)

    drive(app, scenario)


def test_a_move_where_another_follows_asks_how(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "b5", "c1")
        await pilot.press("left", "left")
        await type_in(pilot, "c5")
        assert app.mode == "how" and "v variation" in shown(app, "#status")
        await type_in(pilot, "v")
        assert [n.text for n in app.editor.record.moves[1].variations[0].nodes] == ["c5"]
        await pilot.press("up")  # out of the variation
        assert app.editor.depth == 0
        await pilot.press("left")
        await type_in(pilot, "a5", "m")
        assert moves(app) == ["b1", "a5"]
        await pilot.press("left")
        await type_in(pilot, "d5", "r")
        assert moves(app) == ["b1", "d5"]
        await pilot.press("left")
        await type_in(pilot, "c5", "e")  # mend: this move changes, nothing else
        assert moves(app) == ["b1", "c5"] and "mended" in shown(app, "#status")

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


def test_zombie_kidz_asks_for_the_roll(tmp_path: Path) -> None:
    app = new_app(tmp_path, "zombie-kidz")

    async def scenario(pilot: Pilot[int]) -> None:
        assert "roll the die: R Y G K B W" in shown(app, "#status")
        await type_in(pilot, "g")
        assert app.editor.roll == "G" and "rolled G" in shown(app, "#status")
        assert all(line.startswith("G") for line in shown(app, "#offered").splitlines())
        first = app.editor.candidates()[0].text
        await type_in(pilot, first)
        assert moves(app) == [first] and app.editor.needs_roll

    drive(app, scenario)


def test_a_cave_attack_offers_the_classes(tmp_path: Path) -> None:
    app = new_app(tmp_path, "cave")

    async def scenario(pilot: Pilot[int]) -> None:
        await type_in(pilot, "b1", "a5", "b1-b2", "a5-a4", "b2-b3", "a4xb3")
        assert moves(app)[-1] == "b2-b3"
        assert "did you mean Ka4xKb3" in shown(app, "#status")
        await pilot.press(*"a4xb3")
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
        await type_in(pilot, "s")

    drive(app, scenario)
    assert app.return_code == 0 and path.read_text(encoding="utf-8").endswith("1. b1 *\n")

    dropped = RecordApp(RecordFile.open(path, game="cave", defaults=False))

    async def drop(pilot: Pilot[int]) -> None:
        await type_in(pilot, "c1")
        assert Path(journal_path(path)).exists()
        await pilot.press("ctrl+q")
        await type_in(pilot, "d")

    drive(dropped, drop)
    assert len(list(notation.read_file(path))) == 1 and not Path(journal_path(path)).exists()


def test_a_saved_record_reopens_and_a_broken_one_opens_at_its_defect(tmp_path: Path) -> None:
    path = tmp_path / "broken.ugn"
    path.write_text('[Game "cave"]\n\n1. b1 b5 2. b1 c5 *\n', encoding="utf-8")
    app = RecordApp(RecordFile.open(path, 1))

    async def scenario(pilot: Pilot[int]) -> None:
        assert "b1 holds" in shown(app, "#defect")
        await type_in(pilot, "c1", "e")
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

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        help_text = str(app.screen.query_one(Static).render())
        for key in keys:
            assert written(key) in help_text, key
            assert written(key) in doc, key
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]

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
        assert app.editor.index == 1

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
