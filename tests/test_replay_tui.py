"""``notation replay`` as a command: what it prints without a terminal, its usage errors,
and the real thing on a pseudo-terminal (the app itself: tests/test_tui_app.py)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
TINKERTOWN = RECORDS / "tinkertown" / "examples.ugn"


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["replay", *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_without_a_terminal_replay_prints_what_show_prints() -> None:
    runner = CliRunner()
    replay = runner.invoke(cli, ["replay", "--turn", "12", str(TINKERTOWN)])
    show = runner.invoke(cli, ["show", "--turn", "12", str(TINKERTOWN)])
    assert replay.exit_code == show.exit_code == 0
    assert replay.output == show.output and "Turn 12" in replay.output


def test_a_folder_is_the_records_of_its_files_one_after_the_other() -> None:
    folder = RECORDS / "cave"
    # broken.json (1 record), broken.ugn (16), examples.ugn (5), positions.ugn (3)
    code, out = run("--record", "18", str(folder))
    assert code == 0
    first_of_examples = CliRunner().invoke(cli, ["show", str(folder / "examples.ugn")])
    assert out == first_of_examples.output
    code, out = run("--record", "99", str(folder))
    assert code == 2 and f"{folder} has no record 99 (it has 25)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--record", "9", str(TINKERTOWN)], "has no record 9 (it has 3)"),
        (["--turn", "86", str(TINKERTOWN)], "record 1 runs from turn 0 to turn 85"),
        (["no-such-file.txt"], "does not exist"),
        (["--game", "chess", str(TINKERTOWN)], "'chess' is not one of"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2 and message in out


def test_standard_input_without_a_terminal() -> None:
    code, out = run("-", "--record", "2", stdin=TINKERTOWN.read_text(encoding="utf-8"))
    assert code == 0 and "Example 2: Red wins" in out


# -- the app on a pseudo-terminal -----------------------------------------------------------


def _spawn(args: list[str], size: tuple[int, int] = (24, 80)) -> object:
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    try:
        return pexpect.spawn(
            sys.executable, ["-m", "notation", "replay", *args],
            cwd=str(ROOT), env=env, dimensions=size, encoding="utf-8", timeout=60,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")


def test_replay_on_a_real_pseudo_terminal() -> None:
    """At 80x24: keys go through the terminal, q quits with 0, the screen is restored."""
    import pexpect

    child = _spawn([str(TINKERTOWN)])
    assert isinstance(child, pexpect.spawn)
    try:
        child.expect_exact("main line: turn 0 of 0-85")
        child.send("\x1b[C")  # Right
        child.expect_exact("main line: turn 1 of 0-85")
        child.send("\x1b[6~")  # PgDn
        child.expect_exact("main line: turn 11 of 0-85")
        child.send("]")
        child.expect_exact("(record 2)")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    output = child.before or ""
    assert "Traceback" not in output
    assert "\x1b[?1049l" in output  # the alternate screen was left


def test_the_docs_show_the_key_table_the_app_uses() -> None:
    from notation.tui.keys import key_table_markdown

    doc = (ROOT / "docs" / "viewing.md").read_text(encoding="utf-8")
    assert key_table_markdown() in doc
    for game in ("tinkertown", "cave", "zombie-kidz"):
        for size in ("80x24", "160x50"):
            name = f"replay-{game}-{size}.svg"
            assert f"(img/{name})" in doc and (ROOT / "docs" / "img" / name).is_file()


def test_a_folder_with_closed_standard_input_and_standard_error_in_a_file(
    tmp_path: Path,
) -> None:
    """``notation replay records/cave <&- 2>err``: the keys come from the terminal, the
    screen goes where standard output is, and a first record that cannot be replayed
    (no Game tag) does not stop the app: it says so, and ``]`` opens the next."""
    import pexpect

    errors = tmp_path / "errors.txt"
    # Quoted: the checkout's path may hold spaces.
    command = (
        f"{shlex.quote(sys.executable)} -m notation replay "
        f"{shlex.quote(str(RECORDS / 'cave'))} <&- 2>{shlex.quote(str(errors))}"
    )
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    try:
        child = pexpect.spawn(
            "/bin/sh", ["-c", command], cwd=str(ROOT), env=env, dimensions=(40, 100),
            encoding="utf-8", timeout=60,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")
    try:
        child.expect_exact("cannot be replayed")
        child.send("]")
        child.expect_exact("(broken.ugn record 1)")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert errors.read_text(encoding="utf-8") == ""


def test_the_navigator_address_is_the_stepper_s_however_it_moved() -> None:
    # The replay app's Navigator and the stepper share one cursor (notation.cursor):
    # the stepper moved directly, the address still says where it stands.
    from notation.reader import read_string
    from notation.stepper import Stepper
    from notation.tui.navigate import Navigator, nodes_in_order

    (record,) = read_string(
        '[Game "cave"]\n\n1. b1 b5 (1... c5 2. b1-b2 (2. c1)) (1... a5) 2. c1 c5 *\n'
    )
    nav = Navigator(Stepper(record))
    stepper = nav.stepper
    assert nav.address == (0,)
    stepper.goto_turn(2)
    assert stepper.enter_variation(1) and nav.address == (1, 1, 1)
    assert stepper.forward() and stepper.enter_variation(1)
    assert nav.address == (1, 1, 1, 1, 1) and stepper.where() == (
        "variation 1 at turn 3, in variation 1 at turn 2"
    )
    assert stepper.line_turns() == [(3, stepper.cursor.line[0])]
    for place in nodes_in_order(record):
        assert nav.goto(place.address) and stepper.cursor.address == nav.address == place.address
        assert stepper.cursor.last_node is place.node
    # An address the record does not have: False, and the stepper stays where it was.
    for address in [(1, 3, 1), (9,), (1, 1, 1, 2, 1), (2, 1)]:
        assert not nav.goto(address) and nav.address == (4,)
    assert nav.goto((1, 2, 1)) and nav.leave() and nav.address == (2,)
