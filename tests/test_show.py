"""``notation show``, as a user runs it (through click's runner: output is not a terminal)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.games import get_game
from notation.reader import read_file
from notation.stepper import Stepper

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
TINKERTOWN = RECORDS / "tinkertown" / "examples.ugn"

ANNOTATED = """[Game "tinkertown"]
[White "Mina Harker"]
[Red "Igor"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6) (1... c3,b6)
2. c5,f2 e2,g5! $1 {well played} *
"""


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["show", *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("game", "title", "fact"),
    [
        ("tinkertown", "Tinkertown Cemetery", "Tombstones"),
        ("cave", "Cave", "Reserves"),
        ("zombie-kidz", "Zombie Kidz", "Board side"),
    ],
)
def test_plain_output_has_header_board_facts_and_last_move(
    game: str, title: str, fact: str
) -> None:
    code, out = run(str(RECORDS / game / "examples.ugn"))
    assert code == 0
    assert out.startswith(title) and "Result: 1-0" in out.splitlines()[1]
    assert "┌" in out and "┘" in out and fact in out
    assert "Last move: turn" in out and "Game over: 1-0" in out
    assert "\x1b" not in out and all(line == line.rstrip() for line in out.splitlines())


def test_turn_option_and_the_start() -> None:
    code, out = run("--turn", "0", str(TINKERTOWN))
    assert code == 0 and "Turn 0 (main line, turns 0-85)   White to move" in out
    assert "Last move" not in out and "{Resurrection ends" in out  # the opening comment
    code, out = run("--turn", "5", str(TINKERTOWN))
    assert code == 0 and "Last move: turn 5, 3. e8,h6" in out


def test_ascii_output_is_pure_ascii() -> None:
    for game in ("tinkertown", "cave", "zombie-kidz"):
        code, out = run("--ascii", str(RECORDS / game / "examples.ugn"))
        assert code == 0 and out.isascii() and "+-" in out


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_position_prints_a_string_the_game_reads_back(game: str) -> None:
    path = RECORDS / game / "examples.ugn"
    code, out = run("--position", "--turn", "9", str(path))
    assert code == 0 and len(out.splitlines()) == 1
    text = out.strip()
    assert get_game(game).position_from_string(text).position_string() == text
    stepper = Stepper(next(iter(read_file(path))))
    stepper.goto_turn(9)
    assert text == stepper.cursor.position.position_string()


def test_record_option_picks_the_record() -> None:
    code, out = run("--record", "2", str(TINKERTOWN))
    assert code == 0 and "Example 2: Red wins" in out


def test_glyphs_comments_and_variations_of_the_last_move() -> None:
    code, out = run("-", stdin=ANNOTATED)
    assert code == 0 and "White: Mina Harker   Red: Igor   Result: *" in out
    assert "Last move: turn 4, 2... e2,g5!   (! good move, $1 good move)" in out
    assert "{well played}" in out
    code, out = run("--turn", "2", "-", stdin=ANNOTATED)
    assert "2 variations instead of this move: (1) 1... c3,g6, (2) 1... c3,b6" in out


def test_a_broken_record_prints_where_replay_stopped_and_exits_1() -> None:
    path = RECORDS / "tinkertown" / "broken.ugn"
    code, out = run("--record", "7", str(path))
    assert code == 1
    assert "Turn 34 (main line" in out and "┌" in out
    assert "stopped at turn 35 (e5): e5 is the chapel, not a grave (line 82, column 1)" in out
    code, out = run("--record", "7", "--turn", "10", str(path))
    assert code == 1 and "Turn 10 (main line" in out
    assert "the record is broken: " in out and "turn 35 (e5)" in out


def test_a_long_path_does_not_wrap_the_problem_line(tmp_path: Path) -> None:
    """From a checkout at a long path, piped output keeps each message on one line."""
    folder = tmp_path.joinpath("x" * 60, "y" * 60, "z" * 90)
    folder.mkdir(parents=True)
    path = folder / "broken.ugn"
    path.write_bytes((RECORDS / "tinkertown" / "broken.ugn").read_bytes())
    code, out = run("--record", "7", "--turn", "10", str(path))
    assert code == 1 and len(str(path)) > 200
    (problem,) = [line for line in out.splitlines() if "the record is broken" in line]
    assert problem == (
        f"the record is broken: {path}:82:1: record 7, turn 35 (e5): "
        "e5 is the chapel, not a grave"
    )


def test_a_record_with_a_bad_setup_tag_is_broken() -> None:
    code, out = run(str(RECORDS / "zombie-kidz" / "broken.ugn"))
    assert code == 1 and "2, 3 or 4 players, not '5'" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--record", "99", str(TINKERTOWN)], "has no record 99"),
        (["--turn", "86", str(TINKERTOWN)], "record 1 runs from turn 0 to turn 85"),
        (["--turn", "-1", str(TINKERTOWN)], "-1 is not in the range x>=0"),
        (["no-such-file.txt"], "does not exist"),
        (["--game", "chess", str(TINKERTOWN)], "'chess' is not one of"),
    ],
)
def test_usage_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2 and message in out


def test_a_record_without_game_needs_the_game_option() -> None:
    code, out = run("-", stdin="1. b1 c5 *\n")
    assert code == 2 and "no Game tag" in out
    code, out = run("--game", "cave", "-", stdin="1. b1 c5 *\n")
    assert code == 0 and "Last move: turn 2, 1... c5" in out


SHOWN = re.compile(r"^```\n\$ notation show ([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _captures() -> list[tuple[str, str, str]]:
    found = []
    for path in (ROOT / "docs" / "viewing.md", ROOT / "README.md"):
        for args, text in SHOWN.findall(path.read_text(encoding="utf-8")):
            found.append((path.name, args, text))
    return found


CAPTURES = _captures()


def test_the_viewing_doc_has_a_capture_per_game() -> None:
    titles = {text.splitlines()[0] for doc, _, text in CAPTURES if doc == "viewing.md"}
    assert {t.split(" - ")[0] for t in titles} >= {"Tinkertown Cemetery", "Cave", "Zombie Kidz"}


@pytest.mark.parametrize(("doc", "args", "text"), CAPTURES, ids=[a for _, a, _ in CAPTURES])
def test_captures_in_the_docs_are_what_show_prints(
    doc: str, args: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["show", *shlex.split(args)])
    assert result.stdout == text, f"{doc}: regenerate the capture of `notation show {args}`"


def test_a_stack_too_tall_for_the_width_is_written_short_and_never_lost(
    tmp_path: Path,
) -> None:
    """A stack of 11 on h5 would make the board 112 columns: piped (100 columns) the
    board goes compact, says so, and gives every shortened stack in full."""
    from tests.test_tui_app import TALL_STACK

    path = tmp_path / "tall.txt"
    path.write_text(TALL_STACK, encoding="utf-8")
    code, out = run(str(path))
    assert code == 0
    assert all(len(line) <= 100 for line in out.splitlines() if "│" in line)
    assert "[R11]" in out
    assert "Stacks too tall for 100 columns are written short (R5 = a stack of 5, R on top)" in out
    assert "h5 WWWWWWWWWWR" in out  # every piece of it, bottom to top


def test_the_legend_says_what_the_number_under_a_cell_is_and_how_a_stack_reads() -> None:
    # Tinkertown: the number under each cell is its capacity; WRW is W at the bottom.
    code, out = run(str(TINKERTOWN), "--turn", "20")
    assert code == 0
    legend = out[out.index("Cells:"):]
    assert "Notes: 3 the grave's capacity (zombies it holds before a capture)" in legend
    assert "Stacks: WRW a stack, bottom to top" in legend
    # Cave: its notes and its teams, in its own words.
    code, out = run(str(RECORDS / "cave" / "examples.ugn"), "--turn", "50")
    assert code == 0
    legend = out[out.index("Cells:"):]
    assert "Notes: KZS what a hidden piece may still be" in legend
    assert "Stacks: r? rZ a team, bottom to top" in legend
    # The start of a game holds no stack: no line for stacks.
    code, out = run(str(TINKERTOWN), "--turn", "0")
    assert code == 0 and "Stacks:" not in out and "Notes: 3 the grave's capacity" in out
