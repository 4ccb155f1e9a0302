"""``notation replay``: keys one by one on a stepper, then the real thing on a pseudo-terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.commands.replay import handle_key, split_keys
from notation.reader import read_file, read_string
from notation.render.replay_screen import ViewState, move_list, screen
from notation.render.terminal import render_plain
from notation.stepper import Stepper

ROOT = Path(__file__).resolve().parent.parent
TINKERTOWN = ROOT / "records" / "tinkertown" / "examples.txt"

NESTED = """[Game "tinkertown"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7)) (1... c3,b6)
2. c5,f2 e2,g5 *
"""


def tinkertown() -> Stepper:
    return Stepper(next(iter(read_file(TINKERTOWN))))


def press(stepper: Stepper, state: ViewState, *keys: str) -> bool:
    return all(handle_key(stepper, key, state) for key in keys)


# -- bytes to keys ------------------------------------------------------------------------


def test_split_keys_names_arrows_home_end_and_controls() -> None:
    data = b"n\x1b[C\x1b[D\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF12\r\x7f\x03"
    keys, rest = split_keys(data)
    assert keys == [
        "n", "right", "left", "home", "end", "home", "end", "home", "end",
        "1", "2", "enter", "backspace", "ctrl-c",
    ]
    assert rest == b""


def test_split_keys_keeps_an_unfinished_sequence_and_reads_a_lone_escape() -> None:
    assert split_keys(b"g\x1b[") == (["g"], b"\x1b[")
    assert split_keys(b"\x1b") == ([], b"\x1b")
    assert split_keys(b"\x1bq") == (["escape", "q"], b"")
    assert split_keys(b"\x1b[99z") == (["unknown"], b"")


# -- keys to moves --------------------------------------------------------------------


def test_next_back_start_end() -> None:
    stepper, state = tinkertown(), ViewState()
    assert press(stepper, state, "n", "right", "n") and stepper.turn == 3
    assert press(stepper, state, "p", "left") and stepper.turn == 1
    assert press(stepper, state, "G") and stepper.turn == 85 and stepper.at_end
    assert press(stepper, state, "n") and state.message == "end of the line"
    assert press(stepper, state, "g") and stepper.turn == 0
    assert press(stepper, state, "p") and state.message == "start of the line"
    assert press(stepper, state, "end") and stepper.turn == 85
    assert press(stepper, state, "home") and stepper.turn == 0


def test_a_number_then_enter_goes_to_that_turn() -> None:
    stepper, state = tinkertown(), ViewState()
    assert press(stepper, state, "4", "2") and state.buffer == "42" and stepper.turn == 0
    assert press(stepper, state, "enter") and stepper.turn == 42 and state.buffer == ""
    assert press(stepper, state, "1", "7", "backspace", "enter") and stepper.turn == 1
    assert press(stepper, state, "9", "9", "enter") and stepper.turn == 1
    assert state.message == "turn 99 is not on this line (turns 0-85)"
    assert press(stepper, state, "5", "escape", "enter") and stepper.turn == 1
    assert state.message == "type a turn number, then Enter"
    assert press(stepper, state, "3", "n") and stepper.turn == 2 and state.buffer == ""


def test_v_enters_a_variation_and_u_leaves_it() -> None:
    stepper, state = Stepper(read_string(NESTED)[0]), ViewState()
    assert press(stepper, state, "v") and state.message == "no variation at this move"
    assert press(stepper, state, "n", "n", "v") and stepper.depth == 1
    assert stepper.last_node is not None and stepper.last_node.text == "c3,g6"
    assert press(stepper, state, "n", "v") and stepper.depth == 2
    assert stepper.last_node.text == "g5,b7"
    assert press(stepper, state, "u", "u") and stepper.depth == 0 and stepper.turn == 2
    assert press(stepper, state, "u") and state.message == "already on the main line"
    assert press(stepper, state, "2", "v") and stepper.last_node.text == "c3,b6"
    assert press(stepper, state, "u", "3", "v") and stepper.depth == 0
    assert state.message == "no variation 3: this move has 2"


def test_q_quits_and_question_mark_toggles_help() -> None:
    stepper, state = tinkertown(), ViewState()
    assert press(stepper, state, "?") and state.help
    assert press(stepper, state, "?") and not state.help
    assert press(stepper, state, "x") and state.message == "no key 'x': press ? for help"
    assert not handle_key(stepper, "q", state)
    assert not handle_key(stepper, "ctrl-c", state)


def test_a_broken_record_stops_and_the_screen_says_why() -> None:
    records = read_file(ROOT / "records" / "tinkertown" / "broken.txt")
    stepper = Stepper(next(r for r in records if r.index == 7))
    state = ViewState()
    assert press(stepper, state, "G") and stepper.turn == 34
    out = render_plain(screen(stepper, state, 110, 50, plain=True), width=110)
    assert "main line: turn 34 of 0-35" in out
    assert "stopped at turn 35 (e5): e5 is the chapel, not a grave" in out


# -- the screen -----------------------------------------------------------------------


def test_screen_has_board_moves_status_and_help() -> None:
    stepper, state = tinkertown(), ViewState()
    press(stepper, state, "1", "5", "enter")
    out = render_plain(screen(stepper, state, 110, 50, ascii=True), width=110)
    assert out.isascii()
    assert "main line: turn 15 of 0-85   Red to move" in out
    assert "Moves" in out and "8. d7-e7 b2-b3" in out and "+-----+" in out
    assert "Last move: turn 15, 8. d7-e7" in out and "q quit" in out
    state.help = True
    assert "enter variation 1 (or N) of the last move" in render_plain(
        screen(stepper, state, 110, 50), width=110
    )


def test_move_list_scrolls_around_the_current_move() -> None:
    stepper = tinkertown()
    stepper.goto_turn(60)
    rows = move_list(stepper, 5).plain.splitlines()
    assert rows == ["...", "29. b5 d6", "30. f6-f7 g4-g5", "31. f7x d6-d8", "..."]
    stepper.to_start()
    assert move_list(stepper, 3).plain.splitlines()[0] == "1. f4 g4,e1"


def test_variation_moves_are_marked_in_the_move_list() -> None:
    stepper = Stepper(read_string(NESTED)[0])
    assert move_list(stepper, 10).plain.splitlines()[0] == "1. d3 d2,b5(+2)"


def test_without_a_terminal_replay_prints_what_show_prints() -> None:
    runner = CliRunner()
    replay = runner.invoke(cli, ["replay", "--turn", "12", str(TINKERTOWN)])
    show = runner.invoke(cli, ["show", "--turn", "12", str(TINKERTOWN)])
    assert replay.exit_code == show.exit_code == 0
    assert replay.output == show.output and "Turn 12" in replay.output


# -- end to end, on a pseudo-terminal ---------------------------------------------------


def test_replay_on_a_real_pseudo_terminal() -> None:
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "", "LINES": ""}
    env.pop("NO_COLOR", None)
    try:
        child = pexpect.spawn(
            sys.executable, ["-m", "notation", "replay", str(TINKERTOWN)],
            cwd=str(ROOT), env=env, dimensions=(50, 120), encoding="utf-8", timeout=10,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")
    try:
        child.expect_exact("main line: turn 0 of 0-85")
        for keys, turn in [
            ("n", 1), ("n", 2), ("p", 1), ("G", 85), ("g", 0),
            ("\x1b[C", 1), ("\x1b[C", 2), ("\x1b[D", 1), ("\x1b[F", 85), ("\x1b[H", 0),
            ("42\r", 42),
        ]:
            child.send(keys)
            child.expect_exact(f"main line: turn {turn} of 0-85")
        child.send("?")
        child.expect_exact("show or hide this help")
        child.expect_exact("Source")  # the record's tags are listed too
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    # The alternate screen was left and the cursor shown again.
    assert "\x1b[?1049l" in (child.before or "")
