"""The terminal app of ``notation replay``, driven by Textual's own pilot (no terminal).

Every key of the key table (notation.tui.keys.KEYS) has a scenario here, and a test
fails if one is missing; the mouse and the record list have theirs.  No fixed sleeps:
:func:`notation.tui.shots.settle` waits until the workers are done, and each key's
effect is on the app's state when ``press`` returns.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, Static

from notation.tui.app import HelpScreen, ReplayApp
from notation.tui.catalog import Catalog, RecordSource
from notation.tui.keys import KEYS
from notation.tui.moves import MoveTree
from notation.tui.records import RecordList
from notation.tui.shots import drive, settle

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
TINKERTOWN = RECORDS / "tinkertown" / "examples.ugn"

NESTED = """[Game "tinkertown"]
[White "Mina Harker"]
[Red "Igor"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7)) (1... c3,b6)
2. c5,f2 e2,g5! $1 {well played} *
"""

Scenario = Callable[[Pilot[int]], Awaitable[None]]


def app_on(path: Path, **options: object) -> ReplayApp:
    catalog = Catalog([RecordSource(str(path), path=path)])
    return ReplayApp(catalog, **options)  # type: ignore[arg-type]


def nested(tmp_path: Path) -> ReplayApp:
    path = tmp_path / "nested.txt"
    path.write_text(NESTED + "\n" + TINKERTOWN.read_text(encoding="utf-8"), encoding="utf-8")
    return app_on(path)


def replay(pilot: Pilot[int]) -> ReplayApp:
    app = pilot.app
    assert isinstance(app, ReplayApp)
    return app


def text_of(pilot: Pilot[int], selector: str, screen: int = 0) -> str:
    """What a Static of the board's screen (or another) shows, as plain text."""
    app = replay(pilot)
    widget = app.screen_stack[screen].query_one(selector, Static)
    console = Console(width=200, file=io.StringIO(), color_system=None)
    with console.capture() as capture:
        console.print(widget.content)
    return capture.get()


def status(pilot: Pilot[int]) -> str:
    return text_of(pilot, "#status")


def turn(pilot: Pilot[int]) -> int:
    stepper = replay(pilot).stepper
    assert stepper is not None
    return stepper.cursor.turn


def depth(pilot: Pilot[int]) -> int:
    stepper = replay(pilot).stepper
    assert stepper is not None
    return stepper.cursor.depth


def last_move(pilot: Pilot[int]) -> str:
    stepper = replay(pilot).stepper
    assert stepper is not None and stepper.cursor.last_node is not None
    return stepper.cursor.last_node.text


# -- one scenario per line of the key table ----------------------------------------------


async def next_move(pilot: Pilot[int]) -> None:
    await pilot.press("right", "right")
    assert turn(pilot) == 2 and "main line: turn 2 of 0-85" in status(pilot)
    await pilot.press("end", "right")
    assert "end of the line" in status(pilot)


async def previous_move(pilot: Pilot[int]) -> None:
    await pilot.press("right", "right", "right", "left")
    assert turn(pilot) == 2
    await pilot.press("home", "left")
    assert turn(pilot) == 0 and "start of the line" in status(pilot)


async def line_start(pilot: Pilot[int]) -> None:
    await pilot.press("pagedown", "home")
    assert turn(pilot) == 0


async def line_end(pilot: Pilot[int]) -> None:
    await pilot.press("end")
    assert turn(pilot) == 85 and "Game over: 1-0" in status(pilot)


async def ten_forward(pilot: Pilot[int]) -> None:
    await pilot.press("pagedown", "pagedown")
    assert turn(pilot) == 20


async def ten_back(pilot: Pilot[int]) -> None:
    await pilot.press("end", "pageup")
    assert turn(pilot) == 75
    await pilot.press("home", "pageup")
    assert turn(pilot) == 0


async def into_variation(pilot: Pilot[int]) -> None:
    await pilot.press("down")
    assert "no variation at this move" in status(pilot)
    await pilot.press("right", "right")
    assert "Down: 2 variations" in status(pilot)
    await pilot.press("down")
    assert depth(pilot) == 1 and last_move(pilot) == "c3,g6"
    await pilot.press("right", "down")
    assert depth(pilot) == 2 and last_move(pilot) == "g5,b7"
    assert "variation 1 at turn 3, in variation 1 at turn 2" in status(pilot)


async def variation_by_number(pilot: Pilot[int]) -> None:
    await pilot.press("right", "right", "2")
    assert depth(pilot) == 1 and last_move(pilot) == "c3,b6"
    await pilot.press("up", "3")
    assert "no variation 3: this move has 2" in status(pilot)


async def out_of_variation(pilot: Pilot[int]) -> None:
    await pilot.press("right", "right", "down", "right", "down", "up")
    assert depth(pilot) == 1 and turn(pilot) == 3 and last_move(pilot) == "g5,b6"
    await pilot.press("up")
    assert depth(pilot) == 0 and turn(pilot) == 2 and last_move(pilot) == "d2,b5"
    await pilot.press("up")
    assert "already on the main line" in status(pilot)


async def goto_turn(pilot: Pilot[int]) -> None:
    await pilot.press("g", "4", "2", "enter")
    assert turn(pilot) == 42 and pilot.app.focused is None
    await pilot.press("g", "9", "9", "enter")
    assert turn(pilot) == 42 and "99 is not a turn of this line (0-85)" in status(pilot)
    await pilot.press("g", "7", "escape")
    assert turn(pilot) == 42 and pilot.app.focused is None


async def search_moves(pilot: Pilot[int]) -> None:
    await pilot.press("slash", *"well", "enter")
    assert turn(pilot) == 4 and "found at turn 4 (main line)" in status(pilot)
    await pilot.press("slash", "ctrl+u", *"g5,b7", "enter")
    assert depth(pilot) == 2 and last_move(pilot) == "g5,b7"
    await pilot.press("slash", "ctrl+u", *"nowhere", "enter")
    assert "no move or comment holds 'nowhere'" in status(pilot)
    await pilot.press("slash", "ctrl+u", *"c3", "enter")
    assert last_move(pilot) == "c3,b6"  # the next one after g5,b7, in the text's order
    await pilot.press("slash", "enter")  # the same search again: round to the first
    assert last_move(pilot) == "c3,g6" and depth(pilot) == 1


async def next_match(pilot: Pilot[int]) -> None:
    # As in less and vim: n finds the next match of the last search, the record stays.
    await pilot.press("n")
    assert "no search yet" in status(pilot) and replay(pilot).current == 0
    await pilot.press("slash")
    assert "(n, N: next, previous)" in pilot.app.query_one("#prompt", Input).placeholder
    await pilot.press(*"c3", "enter")
    assert last_move(pilot) == "c3,g6" and depth(pilot) == 1
    await pilot.press("n")
    assert last_move(pilot) == "c3,b6" and depth(pilot) == 1 and replay(pilot).current == 0
    await pilot.press("n")  # round to the first
    assert last_move(pilot) == "c3,g6"


async def previous_match(pilot: Pilot[int]) -> None:
    await pilot.press("N")
    assert "no search yet" in status(pilot)
    await pilot.press("slash", *"c3", "enter", "N")
    assert last_move(pilot) == "c3,b6"  # backwards from the first match: round to the last
    await pilot.press("N")
    assert last_move(pilot) == "c3,g6" and replay(pilot).current == 0
    await pilot.press("N", "n")
    assert last_move(pilot) == "c3,g6"


async def next_record(pilot: Pilot[int]) -> None:
    await pilot.press("right_square_bracket")
    assert replay(pilot).current == 1 and "(record 2)" in text_of(pilot, "#title")
    await pilot.press("right_square_bracket", "right_square_bracket")
    assert replay(pilot).current == 2 and "no next record" in status(pilot)


async def previous_record(pilot: Pilot[int]) -> None:
    await pilot.press("right_square_bracket", "right_square_bracket", "left_square_bracket")
    assert replay(pilot).current == 1
    await pilot.press("p", "p")
    assert replay(pilot).current == 0 and "no previous record" in status(pilot)


async def record_list(pilot: Pilot[int]) -> None:
    await pilot.press("l")
    assert isinstance(pilot.app.focused, Input)
    await pilot.press(*"red wins")
    records = pilot.app.query_one(RecordList)
    assert records.shown == [1]
    await pilot.press("enter")
    assert replay(pilot).current == 1 and pilot.app.focused is None
    await pilot.press("l", "ctrl+u", "down", "down", "enter")
    assert replay(pilot).current == 2
    await pilot.press("l", "end", "escape")
    assert pilot.app.focused is None and replay(pilot).current == 2


async def escape(pilot: Pilot[int]) -> None:
    await pilot.press("right", "right", "down")
    assert depth(pilot) == 1
    await pilot.press("g", "escape")
    assert depth(pilot) == 1  # the first Esc closes the prompt
    await pilot.press("escape")
    assert depth(pilot) == 0 and turn(pilot) == 2


async def help_screen(pilot: Pilot[int]) -> None:
    await pilot.press("question_mark")
    assert isinstance(pilot.app.screen, HelpScreen)
    help_text = text_of(pilot, "#help-text", screen=-1)
    assert "ten moves forward" in help_text and "Legend" in help_text and "Tags" in help_text
    await pilot.press("question_mark")
    assert not isinstance(pilot.app.screen, HelpScreen)
    await pilot.press("question_mark", "escape")
    assert not isinstance(pilot.app.screen, HelpScreen)


async def quit_app(pilot: Pilot[int]) -> None:
    await pilot.press("q")
    assert not pilot.app.is_running


#: The scenario of each line of the key table, on the three examples of Tinkertown
#: (85 turns in the first) or (nested) a record with variations before them.
KEY_SCENARIOS: dict[str, tuple[Scenario, bool]] = {
    "right": (next_move, False),
    "left": (previous_move, False),
    "home": (line_start, False),
    "end": (line_end, False),
    "pagedown": (ten_forward, False),
    "pageup": (ten_back, False),
    "down": (into_variation, True),
    "1,2,3,4,5,6,7,8,9": (variation_by_number, True),
    "up": (out_of_variation, True),
    "g": (goto_turn, False),
    "slash": (search_moves, True),
    "n": (next_match, True),
    "N": (previous_match, True),
    "right_square_bracket": (next_record, False),
    "left_square_bracket,p": (previous_record, False),
    "l": (record_list, False),
    "escape": (escape, True),
    "question_mark": (help_screen, False),
    "q": (quit_app, False),
}


@pytest.mark.parametrize("key", KEYS, ids=[key.shown for key in KEYS])
def test_every_key_of_the_table(key: object, tmp_path: Path) -> None:
    names = getattr(key, "names")  # noqa: B009 - the parameter's type is the table's row
    assert names in KEY_SCENARIOS, f"no test drives the key {names!r}"
    scenario, with_variations = KEY_SCENARIOS[names]
    app = nested(tmp_path) if with_variations else app_on(TINKERTOWN)
    drive(app, scenario)


def test_the_key_table_has_no_scenario_left_over() -> None:
    assert set(KEY_SCENARIOS) == {key.names for key in KEYS}


# -- the mouse --------------------------------------------------------------------------


def test_a_click_on_a_move_goes_there(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        tree = pilot.app.query_one(MoveTree)
        rows = [row.plain for row in tree.rows]
        assert rows[:4] == ["1. d3 d2,b5", "(1... c3,g6", " 2. g5,b6", "  (2. g5,b7))"]
        # Row 3: the first variation's second move.
        await pilot.click(MoveTree, offset=(rows[2].index("g5,b6") + 1, 2))
        assert depth(pilot) == 1 and last_move(pilot) == "g5,b6"
        await pilot.click(MoveTree, offset=(rows[0].index("d3") + 1, 0))
        assert depth(pilot) == 0 and turn(pilot) == 1

    drive(nested(tmp_path), scenario)


def test_a_click_on_a_square_shows_its_stack() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        app.go_to_turn(57)
        await pilot.pause()
        drawing = app.drawing
        assert drawing is not None
        # The square c2 (file c, rank 2) on the drawing: its column and its label line.
        row = next(i for i, names in enumerate(drawing.squares) if "c2" in names)
        column = drawing.squares[row].index("c2")
        x = drawing.margin + column * drawing.cell_width + 2
        y = row * drawing.row_height + 1
        await pilot.click("#board", offset=(x, y))
        assert app.selected == "c2"
        assert "Square c2  RW  (2, bottom to top)" in text_of(pilot, "#square")

    drive(app_on(TINKERTOWN, start=1), scenario, size=(80, 24))


def test_a_click_on_a_record_opens_it() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        await pilot.click(RecordList, offset=(10, 2))
        assert replay(pilot).current == 2

    drive(app_on(TINKERTOWN), scenario, size=(160, 50))


# -- what the screen shows ----------------------------------------------------------------


def test_the_list_shows_number_result_turns_and_validity() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        records = pilot.app.query_one(RecordList)
        rows = [records.render_line(y).text for y in range(3)]
        assert rows[0].split()[:5] == [">", "1", "1-0", "85t", "valid"]
        assert rows[1].split()[:4] == ["2", "0-1", "96t", "valid"]
        assert "3 records, all checked" in text_of(pilot, "#records-status")

    drive(app_on(TINKERTOWN), scenario, size=(160, 50))


def test_a_broken_record_is_marked_and_says_why() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        records = app.query_one(RecordList)
        assert any("broken" in records.render_line(y).text for y in range(16))
        await pilot.press("end")
        assert turn(pilot) == 34
        move = text_of(pilot, "#move-text")
        assert "stopped at turn 35 (e5): e5 is the chapel, not a grave" in move

    drive(app_on(RECORDS / "tinkertown" / "broken.ugn", start=6), scenario, size=(160, 50))


def test_a_record_without_a_game_says_so_and_the_others_open(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text('1. b1 c5 *\n\n[Game "cave"]\n\n1. b1 c5 *\n', encoding="utf-8")

    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        assert app.stepper is None and "has no Game tag" in status(pilot)
        await pilot.press("right", "right_square_bracket")
        assert app.stepper is not None and app.current == 1

    drive(app_on(path), scenario)


def test_standard_input_and_a_folder_of_files(tmp_path: Path) -> None:
    data = (RECORDS / "cave" / "examples.ugn").read_bytes()
    catalog = Catalog([RecordSource("<stdin>", data=data)])

    async def from_stdin(pilot: Pilot[int]) -> None:
        assert len(replay(pilot).catalog.entries) == 5
        await pilot.press("right_square_bracket")
        assert "(record 2)" in text_of(pilot, "#title")

    drive(ReplayApp(catalog), from_stdin)
    sources = [
        RecordSource(str(path), path=path)
        for path in sorted((RECORDS / "zombie-kidz").glob("*.ugn"))
    ]

    async def folder(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        assert len(app.catalog.sources) == 3
        title = text_of(pilot, "#title")
        assert "broken.ugn record 1" in title
        await pilot.press("l", *"positions")
        assert all(
            app.catalog.source_name(i).endswith("positions.ugn")
            for i in app.query_one(RecordList).shown
        )

    drive(ReplayApp(Catalog(sources)), folder, size=(160, 50))


def test_a_small_window_says_what_it_leaves_out() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        app.go_to_turn(57)
        await pilot.pause()
        notice = text_of(pilot, "#notice")
        assert notice.startswith("a 60x20 window (80x24 shows all): ")
        assert "panels below it" in notice
        assert app.layout_now is not None and app.layout_now.narrow

    drive(app_on(TINKERTOWN, start=1), scenario, size=(60, 20))


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 50)])
def test_from_80x24_up_everything_fits_and_nothing_is_announced(size: tuple[int, int]) -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        for turn_number in (0, 57, 96):
            app.go_to_turn(turn_number)
            await pilot.pause()
            layout = app.layout_now
            assert layout is not None and not layout.narrow and not layout.notice
            drawing = app.drawing
            assert drawing is not None and drawing.width + 30 < size[0]

    drive(app_on(TINKERTOWN, start=2), scenario, size=size)


def test_a_tall_stack_makes_the_board_compact_and_square_lists_it(tmp_path: Path) -> None:
    path = tmp_path / "tall.txt"
    path.write_text(TALL_STACK, encoding="utf-8")

    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        await pilot.press("end")
        drawing = app.drawing
        assert drawing is not None and drawing.compact
        assert "h5" in drawing.shortened
        square = text_of(pilot, "#square")
        assert f"h5 {drawing.shortened['h5']}" in square

    drive(app_on(path), scenario, size=(80, 24))


def test_ascii_draws_the_board_and_texts_in_ascii() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        assert app.drawing is not None
        board = "\n".join(line.plain for line in app.drawing.lines)
        assert board.isascii() and "+-" in board
        for name in ("#title", "#status", "#move-text", "#facts", "#square", "#legend"):
            assert text_of(pilot, name).isascii(), name

    drive(app_on(RECORDS / "cave" / "examples.ugn", ascii=True, turn=20), scenario)


def test_turn_option_and_a_record_that_is_not_there() -> None:
    async def at_turn(pilot: Pilot[int]) -> None:
        assert turn(pilot) == 20

    drive(app_on(RECORDS / "cave" / "examples.ugn", turn=20), at_turn)

    async def missing(pilot: Pilot[int]) -> None:
        assert "no record 9: 3 records found" in status(pilot)

    drive(app_on(TINKERTOWN, start=8), missing)


def test_settle_waits_for_the_checks() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        await settle(pilot)
        assert replay(pilot).catalog.checked_count() == (3, 0)

    drive(app_on(TINKERTOWN), scenario)


#: A Tinkertown record whose last position has a stack of 11 on h5 (from a generated
#: game: notation generate --game tinkertown --games 300 --seed 1, record 300).
TALL_STACK = """\
[Game "tinkertown"]

1. d8 d7,c4 2. c3,g6 h6,g3 3. f3,f8 e8,e2 4. e1,b5 a5,b2 5. c2,c6 c5,e6
6. d6,b7 c7,h4 7. h5,f5 g5,a3 8. a4 e6-d6 9. g6-f6 b2-b3 10. g2 e7 11. b5-b6
c7-b7 12. e6 c4-b4 13. c3-d3 d6-c6 14. f8-e8 a5-a4 15. d8-c8 b3-b4 16. c6 a4-a3
17. e8-f8 a3-b3 18. e6-d6 g5 19. f8-f7 e8-f8 20. f3-f2 a5 21. c4 h3 22. e3 e7
23. c2-d2 d7 24. b6-a6 g5-g6 25. f6-f5 d7-d8 26. d2-d1 e7-g7 27. a5 h3 28. g2
g3-f3 29. a3 b4-b6 30. f5-g5 c4 31. g5-g3 b6 32. e6 b5 33. d6-c6 f6 34. b5 c1
35. e1-f1 e3 36. g3-f3 g6-g7 37. h3 h5 38. c6-e6 e3-d3 39. f2-f1 c6-b6
40. a5-a6 f8 41. a6-a4 f8-f6 42. h3xh6 a3x 43. b3 g6 44. g2-g3 e2-f2 45. d6-d7
c3 46. e1 h5-h4 47. f8 g3 48. f8-e8 g7-g6 49. b5xb6 f2xf1 50. f2 f6-g6
51. h5-h4 d8-c8 52. e6 d6 53. h4x g3-h3 54. b3-b2 c3-d3 55. e1-d1 c4-b4 56. a5
g7-g5 57. d6 c8x 58. f2 b2 59. d1xd3 c1-d1 60. a5 f6-g6 61. d1 g5 62. d6-f6 f4
63. f3-e3 g6xe6 64. g3 g5-g4 65. f2-g2 a4 66. e2 g6-g5 67. f6-f4 g4xf4
68. c6-c5 g5-g6 69. f7-f8 e3 70. g3-g5 g3-f3 71. c4-c3 b7x 72. a6 g6 73. g5-h5
c6 74. f3 d7 75. b3 f7 76. c5-c7 b5-b4 77. f2-g2 f6-g6 78. b3-b4 f5 79. d1
f7-e7 80. g2xg5 f2 81. d1-d2 c5 82. f8-e8 d8 83. g6 d7-f7 84. c7-d7 f7-f8
85. b4xa4 f2 86. f5x a5x 87. e8-e7 a6 88. e7 g3 89. c7 b2-d2 90. e8xe7 b4-c4
91. f2 f8 92. g3 e3-e1 93. f3xf2 f8 94. e1x b4-b3 95. c7-c5 f3-h3 96. e3-f3
b3-b2 97. c6 b3-c3 98. g6x d2x 99. c6-d6 c3-c2 100. g2 c2-b2 101. c3 c4-b4
102. d7 c3 103. d8 g7 104. h5 b2-b4 105. g3-g2 h3-e3 106. b5 d6 107. g4 c6xc5
108. f6 e3xe2 109. g4 f8-f7 110. c6 g3 111. c6-c7 d6-c6 112. d1-c1 c3xc1
113. c3-c2 f7xf6 114. d1 f8-f7 115. h3 b4-b2 116. f3 b3 117. h5 b2 118. g4-g3
d7x 119. h5 f8xf7 120. h5 c6xd6 121. g4-g3 e3xg3 122. f3-e3 c7 123. c4 e3
124. g2 h3 125. b5-b4 b3-b4 126. c7x b2-b5 127. d8x g2 128. h5 c6 129. f8 c2
130. g2x a6x 131. h3x f3 132. c4xb4 e3xf3 133. h5 c6 134. h5 b3 135. f8 c6
136. d1x b2 137. c2x b2-b3 138. f8 b5 139. f8-e8 b5 140. f8-e8 e3 141. e8 c3
142. g4 c3 143. g7 c6 144. e8 g7x 145. f8-e8 c3-c4 146. e8-f8 c3 147. h5 b2
148. e8 b5 149. b5 g4 150. e8-f8 c3-c4 151. h5 c3-c4 152. e8-f8 c6 153. b2 e3x
154. b5x h5 *
"""


# -- Cave's board at 80x24 ----------------------------------------------------------------

CAVE = RECORDS / "cave" / "examples.ugn"


def test_a_cave_board_keeps_its_size_whatever_the_pieces() -> None:
    # The record app chooses its layout from the position alone (no needs of a whole
    # record): the cells must not widen as a team of three forms.
    from notation.reader import read_file
    from notation.stepper import Stepper
    from notation.tui.board import choose_layout

    sizes = set()
    for record in read_file(CAVE):
        stepper = Stepper(record)
        while True:
            layout = choose_layout(stepper.cursor.position.board_view(), 80, 24, several=False)
            sizes.add((layout.board_width, layout.board_height, layout.inner))
            if not stepper.forward():
                break
    assert len(sizes) == 1, sizes

    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        widths = set()
        for entry in range(len(app.catalog.entries)):
            app.open_entry(entry)
            assert app.drawing is not None
            widths.add(app.drawing.width)
        assert len(widths) == 1, widths

    drive(app_on(CAVE, check=False), scenario)


def test_at_80x24_every_cave_fact_that_fits_is_on_one_line() -> None:
    async def scenario(pilot: Pilot[int]) -> None:
        app = replay(pilot)
        for turn_number in (0, 2, 50):
            app.go_to_turn(turn_number)
            await pilot.pause()
            widget = app.query_one("#facts", Static)
            width = widget.content_region.width
            console = Console(width=width, file=io.StringIO(), color_system=None)
            with console.capture() as capture:
                console.print(widget.content)
            lines = capture.get().splitlines()
            view = app.view
            assert view is not None
            for label, value in view.facts:
                if len(value) <= width - 2:
                    assert any(value in line for line in lines), (label, value, lines)
                assert any(line.strip().startswith(label) for line in lines), (label, lines)

    drive(app_on(CAVE, check=False), scenario)


def test_the_record_app_draws_cave_s_board_one_size_from_the_start(tmp_path: Path) -> None:
    # notation record: a new record (an empty board) and record 1 at its end (a team
    # of three, r? r? r?) draw boards of one width, so the board never jumps.
    from notation.editing.recordfile import RecordFile
    from notation.tui.board import BoardWidget
    from notation.tui.record_app import RecordApp

    path = tmp_path / "cave.txt"
    path.write_text(CAVE.read_text(encoding="utf-8"), encoding="utf-8")
    widths: list[int] = []

    async def measure(app: RecordApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            drawing = app.query_one(BoardWidget).drawing
            assert drawing is not None
            widths.append(drawing.width)

    asyncio.run(measure(RecordApp(RecordFile.open(path, 1))))
    asyncio.run(measure(RecordApp(RecordFile.open(tmp_path / "new.txt", game="cave"))))
    assert len(widths) == 2 and widths[0] == widths[1], widths
