"""Records on standard input and output into pipes, as a shell runs the command.

Each command runs in a process of its own (``python -m notation``, on this checkout's
code), with standard input a real pipe: what Python prints at exit, after the command
returned, shows only there (``Exception ignored ... I/O operation on closed file``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINKERTOWN = ROOT / "records" / "tinkertown" / "examples.ugn"
CAVE = b'[Game "cave"]\n\n1. b1 c5 *\n'


def notation(*args: str, stdin: bytes, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """``printf ... | notation ARGS``, waited for, its output captured."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "notation", *args],
        input=stdin, capture_output=True, env=env, check=False, timeout=120, **kwargs,
    )


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("show", "-", "--record", "2"), 0),
        (("show", "-", "--record", "2", "--position"), 0),
        (("replay", "-", "--record", "2"), 0),  # not on a terminal: what show prints
        (("diagram", "-", "--record", "2"), 0),
        (("check", "-"), 0),
        (("convert", "--to", "json", "-"), 0),
        (("annotate", "-"), 0),
        (("html", "-"), 0),
    ],
)
def test_a_record_on_standard_input_leaves_standard_error_empty(
    args: tuple[str, ...], code: int
) -> None:
    """``cat examples.ugn | notation show - --record 2``: no "Exception ignored"."""
    process = notation(*args, stdin=TINKERTOWN.read_bytes())
    assert process.stderr == b""
    assert process.returncode == code and process.stdout


def test_one_record_on_standard_input() -> None:
    """``printf '[Game "cave"]\\n\\n1. b1 c5 *\\n' | notation check -``"""
    process = notation("check", "-", stdin=CAVE)
    assert (process.returncode, process.stderr) == (0, b"")
    assert process.stdout == b"1 record in 1 file: 1 valid, 0 broken\n"


def test_a_record_number_beyond_standard_input_is_a_usage_error() -> None:
    process = notation("show", "-", "--record", "9", stdin=TINKERTOWN.read_bytes())
    assert process.returncode == 2
    assert process.stderr.decode().splitlines()[-1] == (
        "Error: Invalid value for --record: <stdin> has no record 9 (it has 3)"
    )


# -- replay: keys from the terminal when the record comes from standard input -----------


def _pty_spawn(command: str) -> Any:
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    try:
        return pexpect.spawn(
            "/bin/sh", ["-c", command], cwd=str(ROOT), env=env, dimensions=(50, 120),
            encoding="utf-8", timeout=30,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")


def test_replay_of_standard_input_reads_keys_from_the_terminal() -> None:
    """``cat f | notation replay - --record 1``, then keys, then ``q``: exit 0, no traceback."""
    import pexpect

    # Quoted: the checkout's path may hold spaces.
    python = f"{shlex.quote(sys.executable)} -m notation"
    child = _pty_spawn(f"cat {shlex.quote(str(TINKERTOWN))} | {python} replay - --record 1")
    try:
        child.expect_exact("main line: turn 0 of 0-85")
        child.send("\x1b[C")  # Right: the next move (n is the next record)
        child.expect_exact("main line: turn 1 of 0-85")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "") and "Exception" not in (child.before or "")


def test_replay_without_a_terminal_to_read_keys_says_so_and_exits_2() -> None:
    """Output on a terminal, the record on standard input, and no terminal of its own
    (a new session has none): no key could ever arrive."""
    import pty

    controller, terminal = pty.openpty()
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        process = subprocess.run(
            [sys.executable, "-m", "notation", "replay", "-"],
            input=TINKERTOWN.read_bytes(), stdout=terminal, stderr=subprocess.PIPE,
            env=env, start_new_session=True, check=False, timeout=120,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert process.returncode == 2
    message = process.stderr.decode()
    assert "Traceback" not in message
    assert message.startswith("Error: no terminal to read keys from (/dev/tty: ")
    assert "use `notation show`" in message
