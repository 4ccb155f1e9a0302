"""The fast path of ``notation check``: the same bytes and exit code as the click command.

:func:`notation.cli.main` reads a plain ``notation check FILE...`` without importing
click (start-up, docs/performance.md).  Each case here runs the command twice, each
in a process of its own as the ``notation`` script runs it: once as it comes (the fast
path where it applies) and once with the fast path turned off inside that process (the
click command), and wants the same standard output, standard error and exit code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from notation.cli import _fast_check

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
CONFORMANCE = ROOT / "tests" / "data" / "conformance"

#: Run in the child: ``notation ARGS`` through main(), on the path argv[1] says:
#: "fast" (as it comes) or "click" (the fast path turned off); then whether click was
#: imported, into the file named by argv[2].
PROBE = """
import sys
mode, report, args = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.argv = ["notation", *args]
import notation.cli as cli
if mode == "click":
    cli._fast_check = lambda args: None
try:
    cli.main()
finally:
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("click" if "click" in sys.modules else "no click")
"""


def _run(mode: str, tmp_path: Path, *args: str) -> tuple[int, bytes, bytes, bool]:
    """Exit code, standard output and error of ``notation ARGS``, and whether click was
    imported."""
    report = tmp_path / f"report-{mode}.txt"
    report.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, str(report), *args],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NOTATION_CACHE_DIR": str(tmp_path / "cache")},
        cwd=tmp_path,
        check=False,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr, report.read_text() == "click"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files of every kind the cases read."""
    folder = tmp_path_factory.mktemp("fast-check")
    made: dict[str, Path] = {}
    latin = folder / "latin1.txt"
    text = (RECORDS / "cave" / "examples.ugn").read_text(encoding="utf-8")
    first = text.split("\n\n[", 1)[0] + "\n"
    latin.write_bytes(first.replace("]\n\n", "]\n\n{caf\xe9 au lait} ", 1).encode("cp1252"))
    assert b"\xe9" in latin.read_bytes()
    made["latin1"] = latin
    empty = folder / "empty.txt"
    empty.write_bytes(b"")
    made["empty"] = empty
    untagged = folder / "untagged.txt"
    untagged.write_text(
        "\n".join(line for line in first.splitlines() if not line.startswith("[Game ")) + "\n",
        encoding="utf-8",
    )
    made["untagged"] = untagged
    jsonl = folder / "records.jsonl"
    subprocess.run(
        [sys.executable, "-m", "notation", "convert", "--to", "json", "-o", str(jsonl),
         str(RECORDS / "zombie-kidz" / "broken.ugn")],
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert jsonl.read_text(encoding="utf-8").startswith("{")
    made["jsonl"] = jsonl
    ansi = folder / "esc\x1b[31mred.txt"
    ansi.write_bytes(latin.read_bytes())
    made["ansi"] = ansi
    big = folder / "many.txt"
    big.write_text(text * 12, encoding="utf-8")
    made["many"] = big
    return made


def _cases() -> list[tuple[str, tuple[str, ...], bool]]:
    """(id, arguments, whether the fast path takes them); ``@name`` names a file of
    the ``inputs`` fixture."""
    cases: list[tuple[str, tuple[str, ...], bool]] = []
    for game in ("cave", "tinkertown", "zombie-kidz"):
        for name in ("examples.ugn", "broken.ugn", "positions.ugn"):
            path = str(RECORDS / game / name)
            cases.append((f"{game}-{name}", (path,), True))
        cases.append((f"{game}-valid", (str(CONFORMANCE / f"{game}-valid.txt"),), True))
        cases.append((f"{game}-invalid", (str(CONFORMANCE / f"{game}-invalid.txt"),), True))
    broken = str(RECORDS / "tinkertown" / "broken.ugn")
    valid = str(CONFORMANCE / "cave-valid.txt")
    cases += [
        ("not-utf8", ("@latin1",), True),
        ("not-utf8-json", ("--format", "json", "@latin1"), True),
        ("ansi-name", ("-v", "@ansi"), True),
        ("empty", ("@empty",), True),
        ("empty-twice", ("@empty", "@empty"), True),
        ("several", (broken, "@latin1", valid, "@empty"), True),
        ("jsonl", ("@jsonl",), True),
        ("jsonl-verbose", ("-v", "@jsonl"), True),
        ("verbose", ("-v", valid), True),
        ("verbose-long-after", (valid, "--verbose"), True),
        ("json", ("--format", "json", broken), True),
        ("json-equals", ("--format=json", broken, valid), True),
        ("text-then-json", ("--format", "text", "--format", "json", valid), True),
        ("jobs-2", ("--jobs", "2", "-v", "@many", broken), True),
        ("j-1", ("-j", "1", broken), True),
        ("jobs-equals", ("--jobs=2", broken), True),
        ("strict", ("--strict", broken, valid), True),
        ("game", ("--game", "Cave", "@untagged"), True),
        ("game-alias-wrong-game", ("--game", "tinkertown", "@untagged"), True),
        ("no-game", ("@untagged",), True),
        # Left to click, which says what is wrong (or reads what the fast path does not).
        ("missing", (str(RECORDS / "nope.txt"),), False),
        ("missing-after-a-file", (valid, str(RECORDS / "nope.txt")), False),
        ("folder", (str(RECORDS / "cave"),), False),
        ("no-file", (), False),
        ("help", ("--help",), False),
        ("help-after", (valid, "-h"), False),
        ("unknown-option", ("--fast", valid), False),
        ("misspelt-game", ("--game", "cavern", valid), False),
        ("bad-format", ("--format", "xml", valid), False),
        ("jobs-0", ("--jobs", "0", valid), False),
        ("jobs-word", ("--jobs", "two", valid), False),
        ("jobs-huge", ("--jobs", "9" * 5000, valid), False),
        ("jobs-missing", (valid, "--jobs"), False),
        ("combined-flags", ("-vj1", valid), False),
        ("double-dash", ("--", valid), False),
    ]
    return cases


@pytest.mark.parametrize(
    ("args", "fast"), [case[1:] for case in _cases()], ids=[case[0] for case in _cases()]
)
def test_the_fast_path_writes_what_the_click_command_writes(
    args: tuple[str, ...], fast: bool, inputs: dict[str, Path], tmp_path: Path
) -> None:
    argv = ["check", *(str(inputs[a[1:]]) if a.startswith("@") else a for a in args)]
    code, out, err, fast_clicked = _run("fast", tmp_path, *argv)
    assert (code, out, err) == _run("click", tmp_path, *argv)[:3]
    assert fast_clicked is not fast, "the fast path was not taken" if fast else "nor click's"
    assert code in (0, 1, 2)
    assert b"Traceback" not in err


def test_the_cases_cover_what_they_say(inputs: dict[str, Path], tmp_path: Path) -> None:
    """The warnings and outputs the cases compare are there to compare."""
    code, out, err, _ = _run("fast", tmp_path, "check", str(inputs["latin1"]))
    assert code == 0 and err.startswith(b"warning: ") and b"latin1.txt" in err
    code, out, _, _ = _run("fast", tmp_path, "check", "--format", "json", str(inputs["jsonl"]))
    assert code == 1 and all(json.loads(line)["file"] for line in out.splitlines())
    code, _, err, _ = _run("fast", tmp_path, "check", str(inputs["ansi"]))
    assert b"\x1b" not in err and b"esc" in err  # stripped, as click.echo strips it
    code, out, _, _ = _run("fast", tmp_path, "check", str(inputs["empty"]))
    assert (code, out) == (0, b"no records found in 1 file\n")


@pytest.mark.parametrize("mode", ["fast", "click"])
def test_a_closed_pipe_exits_quietly_with_141(
    mode: str, inputs: dict[str, Path], tmp_path: Path
) -> None:
    """``notation check -v many.txt | head -1``: far more output than a pipe holds."""
    report = tmp_path / "report.txt"
    # Far more than a pipe and an output buffer hold, whether or not the environment
    # asks for unbuffered output (PYTHONUNBUFFERED), which is then taken out.
    many = tmp_path / "more.txt"
    many.write_text(inputs["many"].read_text(encoding="utf-8") * 20, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-c", PROBE, mode, str(report), "check", "-v", str(many)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, "PYTHONPATH": str(ROOT), "NOTATION_CACHE_DIR": str(tmp_path / "c")},
    )
    assert process.stdout is not None and process.stderr is not None
    assert b"valid" in process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=300) == 141, err
    assert err == b""
    assert (report.read_text() == "click") is (mode == "click")


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["show", "x"],
        ["check", "-"],
        ["check", "."],
        ["check", "--verbose=yes", __file__],
        ["check", "--format", "--strict", __file__],
        ["check", "--game", "", __file__],
    ],
)
def test_what_the_fast_path_leaves_to_click(args: list[str]) -> None:
    assert _fast_check(args) is None


def test_the_fast_path_takes_plain_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _fast_check(["check", __file__]) is not None
    assert _fast_check(["check", "-v", "--strict", "-j", "3", "--game=cave", __file__])
    monkeypatch.setenv("_NOTATION_COMPLETE", "bash_complete")  # a shell completing
    assert _fast_check(["check", __file__]) is None


#: PROBE with the progress bar's threshold at 0: a bar for any input on a terminal.
PROGRESS_PROBE = PROBE.replace(
    "import notation.cli as cli\n",
    "import notation.cli as cli\n"
    "import notation.cli.check_report, notation.commands.common as common\n"
    "notation.cli.check_report.PROGRESS_MIN_BYTES = common.PROGRESS_MIN_BYTES = 0\n",
)


@pytest.mark.parametrize("mode", ["fast", "click"])
def test_a_terminal_gets_the_progress_bar(mode: str, tmp_path: Path) -> None:
    """Standard error a terminal: the bar is drawn there, the output is untouched."""
    import pty

    master, slave = pty.openpty()
    out = tmp_path / "out.txt"
    with out.open("wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-c", PROGRESS_PROBE, mode, str(tmp_path / "report.txt"), "check",
             str(RECORDS / "tinkertown" / "broken.ugn")],
            stdout=handle,
            stderr=slave,
            env={**os.environ, "PYTHONPATH": str(ROOT), "NOTATION_CACHE_DIR": str(tmp_path / "c")},
        )
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    assert process.wait(timeout=300) == 1
    assert b"checking" in err
    plain = _run(mode, tmp_path, "check", str(RECORDS / "tinkertown" / "broken.ugn"))
    assert out.read_bytes() == plain[1]
