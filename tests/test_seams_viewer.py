"""Issue 27, items 14-16: the terminal viewer (``notation show``, ``notation replay``).

- 14: a tall stack never pushes the board out of an 80x24 window: every turn of
  generated records with stacks of 10 to 12 zombies fits the 80x24 layout;
- 15: a cell symbol means one thing for the whole game, and every cell whose role has
  one carries it (a late Tinkertown board has more tombstones than graves);
- 16: the replayer's keys and layout (help scrolling, fast typing, the record list's
  filter, the status line in a variation, the end of a variation, the move tree after
  ``]``, a board that keeps its size, the facts panel at 120x40).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from textual import events
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static

from notation.cli import cli
from notation.games.view import BoardView
from notation.reader import read_file
from notation.render.terminal import draw_board, role_symbols
from notation.stepper import Stepper
from notation.tui.app import HelpScreen, ReplayApp
from notation.tui.board import CHROME_ROWS, SIDE_TIGHT, choose_layout, record_needs
from notation.tui.catalog import Catalog, RecordSource
from notation.tui.moves import MoveTree
from notation.tui.shots import drive

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
#: Records 1500, 948, 708 and 732 of ``notation generate --game tinkertown --games 2000
#: --seed 1``: stacks of 10 to 12 zombies.
TALL = ROOT / "tests" / "data" / "tall_stacks.txt"

NESTED = """[Game "tinkertown"]
[White "Mina Harker"]
[Red "Igor"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7 c7,f2 (2... b6,f3))) (1... c3,b6)
2. c5,f2 e2,g5! $1 {well played} *
"""


def positions(path: Path, record: int | None = None) -> list[tuple[int, BoardView]]:
    """(turn, view) of every position of the main lines of ``path``'s records."""
    out = []
    for number, rec in enumerate(read_file(path), 1):
        if record is not None and number != record:
            continue
        stepper = Stepper(rec)
        out.append((stepper.cursor.turn, stepper.cursor.position.board_view()))
        while stepper.forward():
            out.append((stepper.cursor.turn, stepper.cursor.position.board_view()))
    return out


def app_on(path: Path, **options: object) -> ReplayApp:
    catalog = Catalog([RecordSource(str(path), path=path)])
    return ReplayApp(catalog, **options)  # type: ignore[arg-type]


def replay(pilot: Pilot[int]) -> ReplayApp:
    app = pilot.app
    assert isinstance(app, ReplayApp)
    return app


def text_of(pilot: Pilot[int], selector: str, width: int = 200) -> str:
    widget = replay(pilot).screen_stack[0].query_one(selector, Static)
    console = Console(width=width, file=io.StringIO(), color_system=None)
    with console.capture() as capture:
        console.print(widget.content)
    return capture.get()


async def burst(pilot: Pilot[int], *keys: str) -> None:
    """Keys sent all at once, as a fast typist's reach the app (no waiting between)."""
    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(pilot.app)
        driver.send_message(event)
    await pilot.pause()
    await pilot.pause()


# -- 14: tall stacks at 80x24 ------------------------------------------------------------


def test_every_turn_of_records_with_tall_stacks_fits_80x24() -> None:
    tallest = 0
    for number in range(1, len(list(read_file(TALL))) + 1):
        views = [view for _, view in positions(TALL, number)]
        tallest = max(tallest, *(len(c.tokens) for v in views for c in v.cells.values()))
        needs = record_needs(views)
        for size in ((80, 24), (100, 30), (120, 40)):
            width, height = size
            for turn, view in enumerate(views):
                layout = choose_layout(view, width, height, several=True, needs=needs)
                where = f"record {number}, turn {turn}, {width}x{height}"
                assert not layout.narrow and not layout.notice, where
                drawing = draw_board(
                    view, compact=layout.compact, notes=layout.notes, zoom=layout.zoom,
                    inner=layout.inner,
                )
                assert (drawing.width, drawing.height) == (
                    layout.board_width, layout.board_height
                ), where
                assert drawing.width + 1 + SIDE_TIGHT <= width, where
                assert drawing.height <= height - CHROME_ROWS, where
                assert all(len(line.plain) <= drawing.width for line in drawing.lines), where
                # Nothing is lost: a stack written short is given in full.
                for cell in view.cells.values():
                    if len(cell.tokens) > 3 and layout.compact:
                        assert cell.square in drawing.shortened, where
    assert tallest >= 12


def test_the_replayer_at_turn_295_of_record_1500_shows_everything_at_80x24() -> None:
    app = app_on(TALL, turn=295)

    async def scenario(pilot: Pilot[int]) -> None:
        board = app.query_one("#board")
        side = app.query_one("#side")
        assert board.region.bottom <= 24 - 1 and board.region.right <= 80
        assert side.region.width >= SIDE_TIGHT - 1 and side.region.right <= 80
        assert not app.query_one("#notice").has_class("-shown")
        drawing = app.drawing
        assert drawing is not None and "f1" in drawing.shortened
        assert drawing.shortened["f1"] == "WWWWWWWWWR"

    drive(app, scenario, size=(80, 24))


# -- 15: one symbol per meaning ----------------------------------------------------------


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_a_symbol_means_one_role_for_the_whole_game(game: str) -> None:
    meaning: dict[str, str] = {}
    plain_roles: set[str] = set()
    for _, view in positions(RECORDS / game / "examples.ugn"):
        symbols = role_symbols(view)
        for role, symbol in symbols.items():
            assert meaning.setdefault(symbol, role) == role, (symbol, role, meaning)
        plain_roles |= {
            c.role for c in view.cells.values() if c.role != "off" and c.role not in symbols
        }
    # One role only goes without a symbol: the plain cell (a grave, a square, a gate).
    assert len(plain_roles) == 1, plain_roles


def test_every_tombstone_carries_its_symbol_in_show(tmp_path: Path) -> None:
    runner = CliRunner()
    example = str(RECORDS / "tinkertown" / "examples.ugn")
    seen = {}
    for turn in (75, 85):
        out = runner.invoke(cli, ["show", example, "--turn", str(turn)]).output
        legend = next(line for line in out.splitlines() if line.startswith("Cells:"))
        entries = dict(
            (part.split(" ", 1)[1], part.split(" ", 1)[0])
            for part in legend.removeprefix("Cells: ").split("  ") if " " in part
        )
        seen[turn] = entries
        assert "no symbol: grave" in legend
    assert seen[75]["tombstone"] == seen[85]["tombstone"]
    assert seen[75]["chapel"] == seen[85]["chapel"]
    # 45 tombstones at turn 295 of record 1500: each with the symbol in its corner.
    out = runner.invoke(cli, ["show", str(TALL), "--turn", "295"]).output
    symbol = seen[85]["tombstone"]
    board = out.split("Cells:")[0]
    view = positions(TALL, 1)[295][1]
    tombs = sum(c.role == "tombstone" for c in view.cells.values())
    assert tombs >= 45
    assert board.count("│" + symbol) == tombs


def test_a_locked_gate_has_a_symbol_and_a_gate_none() -> None:
    locked = 0
    for _, view in positions(RECORDS / "zombie-kidz" / "examples.ugn"):
        symbols = role_symbols(view)
        roles = {c.role for c in view.cells.values()}
        assert "gate" not in symbols
        assert roles - {"gate"} <= set(symbols)
        locked += "gate-locked" in roles
    assert locked


# -- 16: the replayer --------------------------------------------------------------------


@pytest.mark.parametrize("key", ["down", "pagedown", "end", "space"])
def test_the_help_scrolls_at_once(key: str) -> None:
    app = app_on(RECORDS / "cave" / "examples.ugn")

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == 0
        await pilot.press(key)
        await pilot.pause()
        assert scroll.scroll_y > 0

    drive(app, scenario, size=(80, 24))


def test_keys_typed_fast_are_all_taken() -> None:
    app = app_on(RECORDS / "tinkertown" / "examples.ugn")

    async def scenario(pilot: Pilot[int]) -> None:
        await burst(pilot, "g", "1", "0", "enter")
        assert app.stepper is not None and app.stepper.cursor.turn == 10
        await burst(pilot, "g", "enter")
        assert "nothing" not in text_of(pilot, "#status")
        assert "type a turn" in text_of(pilot, "#status")

    drive(app, scenario)


def test_next_record_after_opening_one_from_a_filtered_list(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    one = (RECORDS / "tinkertown" / "examples.ugn").read_text(encoding="utf-8")
    path.write_text("\n".join([one] * 4), encoding="utf-8")
    app = app_on(path)

    async def scenario(pilot: Pilot[int]) -> None:
        count = len(app.catalog.entries)
        await pilot.press("l", *str(count - 2), "enter")
        assert app.current == count - 3
        await pilot.press("right_square_bracket")
        assert app.current == count - 2, text_of(pilot, "#status")

    drive(app, scenario, size=(120, 40))


def test_the_status_line_in_a_nested_variation_fits_80_columns(tmp_path: Path) -> None:
    path = tmp_path / "nested.txt"
    path.write_text(NESTED, encoding="utf-8")
    app = app_on(path)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("right", "right", "down", "right", "down", "right", "down")
        assert app.stepper is not None and app.stepper.cursor.depth == 3
        await pilot.press("right")
        shown = text_of(pilot, "#status", width=1000).rstrip("\n")
        assert len(shown) <= 78, shown
        assert "end of the variation" in shown

    drive(app, scenario, size=(80, 24))


def test_right_at_the_end_of_a_variation_says_so(tmp_path: Path) -> None:
    path = tmp_path / "nested.txt"
    path.write_text(NESTED, encoding="utf-8")
    app = app_on(path)

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("right", "right", "down", "right", "right", "right")
        assert "end of the variation" in text_of(pilot, "#status")

    drive(app, scenario, size=(120, 40))


def test_the_move_tree_starts_at_the_top_after_next_record(tmp_path: Path) -> None:
    app = app_on(RECORDS / "tinkertown" / "examples.ugn")

    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.press("end")
        await pilot.pause()
        tree = app.query_one(MoveTree)
        assert tree.scroll_y > 0
        await pilot.press("right_square_bracket")
        await pilot.pause()
        await pilot.pause()
        assert app.current == 1 and tree.scroll_y == 0

    drive(app, scenario, size=(80, 24))


def test_the_zombie_kidz_board_keeps_its_size(tmp_path: Path) -> None:
    path = tmp_path / "zk.txt"
    made = CliRunner().invoke(
        cli, ["generate", "--game", "zombie-kidz", "--games", "6", "--seed", "1", "-o", str(path)]
    )
    assert made.exit_code == 0, made.output

    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        for record in range(len(app.catalog.entries)):
            app.open_entry(record)
            sizes = set()
            while True:
                drawing = app.drawing
                assert drawing is not None and app.stepper is not None
                sizes.add((drawing.width, drawing.height))
                if not app.stepper.forward():
                    break
                app.refresh_view()
            assert len(sizes) == 1, (record + 1, sizes)

    for size in ((80, 24), (120, 40), (160, 50)):
        drive(app_on(path, check=False), scenario, size=size)


def test_at_120x40_the_facts_do_not_wrap() -> None:
    for game in ("tinkertown", "cave", "zombie-kidz"):
        app = app_on(RECORDS / game / "examples.ugn")

        async def scenario(pilot: Pilot[int]) -> None:
            app = replay(pilot)
            facts = app.query_one("#facts", Static)
            assert app.view is not None
            for label, value in app.view.facts:
                lines = [line for line in text_of(pilot, "#facts", facts.size.width).splitlines()]
                assert any(value in line for line in lines), (label, value, lines)

        drive(app, scenario, size=(120, 40))

