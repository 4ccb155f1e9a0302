"""Hostile input and a hostile environment: one test per case of the robustness issue.

Whatever arrives (an empty or binary file, NUL bytes, bad UTF-8, a byte-order mark,
any line ends, huge lines and tokens, absurdly deep variations, a comment left open)
and whatever happens (a missing or unreadable file, a closed pipe, Ctrl-C), every
command answers with a message that says where and why, an exit code of 0, 1 or 2,
never a traceback, and never damages a file.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from notation.checking.canonical_form import check_record_strict
from notation.cli import cli
from notation.cli.check_report import SYMPTOM_NOTE
from notation.collections.generate import generate_records
from notation.files.textfile import NotUTF8Warning, decode_line, decoded_lines
from notation.formats.convert import convert_record, read_json_records
from notation.reader import read_file, read_string
from notation.record import Record
from notation.replay import check_record
from notation.stepper import Stepper
from notation.writer import write_record, write_records

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
CAVE = '[Game "cave"]\n[Result "*"]\n\n1. b1 b5 2. b1-b2 {a step} b5-b4 *\n'


def run(*args: str, stdin: bytes | str | None = None) -> Result:
    """A command through click's runner, with the promises every command keeps."""
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception
    )
    return result


#: How long a command may take before a test gives up on it: a guard against a hang,
#: generous enough for the slowest machine, never a measure of speed.
DEADLINE = 600


def python_calls(action: Callable[[], object]) -> int:
    """How many Python and built-in functions ``action`` calls: a measure of its work
    that, unlike a duration, does not depend on the machine or its load."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return count


def assert_linear(work: Callable[[int], object], size: int) -> None:
    """``work(2 * size)`` makes at most about twice the calls of ``work(size)``: four
    times would be quadratic."""
    work(size)  # once first: grammars built, caches filled
    once = python_calls(lambda: work(size))
    twice = python_calls(lambda: work(2 * size))
    assert twice <= 2.2 * once, (once, twice)


def python_m(*args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    """``python -m notation ARGS`` in a process of its own, on this checkout's code."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "notation", *args], env=env, **kwargs)


def json_verdicts(*args: str) -> list[dict[str, Any]]:
    out = run("check", "--format", "json", *args).output
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 generated Tinkertown games, about 400 kB (more than a pipe holds)."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_text("".join(write_records(generate_records("tinkertown", 200, seed=5))))
    return path


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40,000 short records (1.2 MB, enough for workers): a line each from ``check -v``,
    3 MB, far more than a pipe holds."""
    path = tmp_path_factory.mktemp("many") / "many.txt"
    path.write_text('[Game "cave"]\n\n1. b1 b5 *\n\n' * 40_000)
    return path


@pytest.fixture(scope="module")
def huge(big: Path) -> Path:
    """The big file ten times over (4 MB): a check and a conversion that take seconds."""
    path = big.with_name("huge.txt")
    text = big.read_text()
    path.write_text("\n".join([text] * 10))
    return path


# -- empty, binary, NUL, bad UTF-8, BOM ----------------------------------------------


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    result = run("check", str(empty))
    assert (result.exit_code, result.output) == (0, "no records found in 1 file\n")
    for args in (("convert", "--to", "text"), ("annotate",)):
        result = run(*args, str(empty))
        assert result.exit_code == 0
        assert "warning: no records found in the files given" in result.output
    for command in ("show", "diagram", "replay", "html"):
        result = run(command, str(empty))
        assert result.exit_code == 2 and "no records found" in result.output


def test_binary_file(tmp_path: Path) -> None:
    data = random.Random(7).randbytes(64_000)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(data)
    result = run("check", "--game", "tinkertown", str(binary))
    assert result.exit_code == 1
    assert result.stderr == f"warning: {binary} is not UTF-8; read as Windows-1252\n"
    *errors, summary = result.stdout.splitlines()
    assert errors and all(re.match(rf"{re.escape(str(binary))}:\d+:\d+: ", e) for e in errors)
    assert re.fullmatch(r"\d+ records? in 1 file: 0 valid, \d+ broken", summary)
    assert "\x00" not in result.output and "\x1b" not in result.output  # escaped, shown
    for args in (("convert", "--to", "json"), ("annotate",), ("show",), ("html",)):
        assert run(*args, "--game", "cave", str(binary)).exit_code == 1
    assert binary.read_bytes() == data


def test_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "nul.txt"
    path.write_bytes(b'[Game "cave"]\n\n1. b1 {a NUL \x00 in a comment} b5\x00 *\n')
    result = run("check", str(path))
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}:3:30: record 1, turn 2 (b5\\x00): ")
    assert "\x00" not in result.output
    for args in (("convert", "--to", "text"), ("annotate",), ("show",)):
        assert run(*args, str(path)).exit_code == 1


def test_input_that_is_not_utf8_is_read_as_windows_1252_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b'[Game "cave"]\n[Black "Jos\xe9"]\n\n1. b1 {caf\xe9} b\xff5 *\n')
    result = run("check", "--format", "json", str(path))
    warning, line = result.stderr.splitlines(), result.stdout
    assert warning == [f"warning: {path} is not UTF-8; read as Windows-1252"]
    verdict = json.loads(line)
    assert (verdict["error"]["line"], verdict["error"]["column"]) == (4, 14)
    assert verdict["error"]["move"] == "b\xff5"  # the byte 0xFF is "ÿ" in Windows-1252
    # The same bytes on standard input, whatever the locale's encoding.
    from_stdin = run("check", "--format", "json", "-", stdin=path.read_bytes())
    assert json.loads(from_stdin.stdout)["error"] == verdict["error"]
    assert from_stdin.stderr == "warning: <stdin> is not UTF-8; read as Windows-1252\n"
    result = run("convert", "--to", "text", "-", stdin=path.read_bytes())
    assert result.exit_code == 1 and '[Black "José"]' in result.stdout
    assert "{café}" in result.stdout and "\ufffd" not in result.output
    result = run("show", str(path))
    assert result.exit_code == 1 and "Black: José" in result.stdout
    assert result.stderr == f"warning: {path} is not UTF-8; read as Windows-1252\n"


@pytest.mark.parametrize(
    "args",
    [
        ("check",), ("check", "--format", "json"), ("convert", "--to", "text"),
        ("convert", "--to", "json"), ("annotate",), ("annotate", "--in-place"), ("show",),
        ("replay",), ("html",), ("diagram",),
    ],
)
def test_every_command_warns_once_of_a_file_not_in_utf8(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b'[Event "Jos\xe9"]\n[Game "cave"]\n\n1. b1 b5 *\n')
    result = run(*args, str(path))
    assert result.exit_code == 0
    assert result.stderr == f"warning: {path} is not UTF-8; read as Windows-1252\n"
    assert "\ufffd" not in result.output


def test_windows_1252_punctuation_and_its_undefined_bytes(tmp_path: Path) -> None:
    """0x93/0x94 are quotes in Windows-1252; 0x81, which it leaves undefined, is kept
    as Latin-1's control character, so that no byte is lost."""
    path = tmp_path / "cp1252.txt"
    path.write_bytes(b'[Game "cave"]\n[Event "\x93Open\x94 \x80\x81"]\n\n1. b1 b5 *\n')
    with pytest.warns(NotUTF8Warning, match=re.escape(f"{path} is not UTF-8")):
        (record,) = read_file(path)
    assert record.tag("Event") == "\u201cOpen\u201d \u20ac\x81"


def test_utf8_lines_stay_utf8_beside_one_that_is_not(tmp_path: Path) -> None:
    """A UTF-8 file with one pasted Latin-1 line: the decision is made line by line."""
    path = tmp_path / "mixed.txt"
    path.write_bytes(
        '[Game "cave"]\n[White "Zoë"]\n'.encode() + b'[Black "Jos\xe9"]\n\n1. b1 b5 *\n'
    )
    with pytest.warns(NotUTF8Warning):
        (record,) = read_file(path)
    assert (record.tag("White"), record.tag("Black")) == ("Zoë", "José")


def test_a_utf8_file_gives_no_warning(tmp_path: Path) -> None:
    path = tmp_path / "utf8.txt"
    path.write_text('[Game "cave"]\n[White "Zoë"]\n\n1. b1 b5 *\n', encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (record,) = read_file(path)
    assert record.tag("White") == "Zoë"
    result = run("check", str(path))
    assert result.exit_code == 0 and result.stderr == ""


def test_decoded_lines_keep_their_ends_and_split_at_a_lone_carriage_return() -> None:
    """The reader strips line ends itself and keeps a record's exact text: they must
    reach it untranslated."""
    fell_back: list[bool] = []
    data = b"a\r\nb\rc\nJos\xe9\r\nd\xc3\xa9\n\xe9"
    lines = list(decoded_lines(io.BytesIO(data), lambda: fell_back.append(True)))
    assert lines == ["a\r\n", "b\r", "c\n", "Jos\xe9\r\n", "d\xe9\n", "\xe9"]
    assert fell_back == [True]  # once, for two lines that are not UTF-8
    assert decode_line(b"caf\xc3\xa9") == ("caf\xe9", False)
    assert decode_line(b"caf\xe9 \x9d") == ("caf\xe9 \x9d", True)


def test_decoded_lines_of_a_file_are_those_of_a_stream(tmp_path: Path) -> None:
    """From a file, lines are read in blocks (docs/performance.md): the same lines as
    from a stream, and the fallback told once, however the encodings fall in blocks."""
    from notation.files import textfile as textio
    rows = [b"plain line %d of sixty bytes or so, in ASCII .......\r\n" % i for i in range(3000)]
    rows[5] = "caf\u00e9 in UTF-8\n".encode()  # not ASCII, but UTF-8: a block of its own
    rows[1500] = b"Jos\xe9 in Windows-1252\r"  # a later block: not UTF-8
    rows[2900] = b"Jos\xe9 again, a block further\n"
    data = b"".join(rows) + b"no end"
    path = tmp_path / "mixed.txt"
    path.write_bytes(data)
    told: list[bool] = []
    streamed = list(decoded_lines(io.BytesIO(data), lambda: told.append(True)))
    assert told == [True]
    with path.open("rb") as handle:
        assert textio._is_file(handle)
        from_file = list(decoded_lines(handle, lambda: told.append(True)))
    assert from_file == streamed and len(from_file) == 3001
    assert told == [True, True]
    assert from_file[5] == "caf\u00e9 in UTF-8\n"
    assert from_file[1500] == "Jos\u00e9 in Windows-1252\r"
    assert len(data) > 2 * textio._BLOCK  # several blocks


def test_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + CAVE.encode())
    (verdict,) = json_verdicts(str(path))
    assert verdict["ok"] and verdict["game"] == "cave"
    (record,) = read_file(path)
    assert record.tags[0].name == "Game" and record.tags[0].line == 1
    assert json.loads(run("check", "--format", "json", "-", stdin=path.read_bytes()).output)[
        "ok"
    ]
    assert run("convert", "--to", "text", str(path)).output.startswith('[Game "cave"]')
    json_path = tmp_path / "bom.jsonl"
    json_path.write_bytes(b"\xef\xbb\xbf" + run("convert", "--to", "json", str(path)).stdout_bytes)
    result = run("convert", "--to", "text", str(json_path))
    assert result.exit_code == 0 and result.output.startswith('[Game "cave"]')


# -- line ends and tabs ------------------------------------------------------------------


@pytest.mark.parametrize("ending", ["\r\n", "\r"], ids=["CRLF", "CR"])
def test_crlf_and_cr_line_ends_give_the_same_verdicts(tmp_path: Path, ending: str) -> None:
    for name in ("tinkertown-invalid.txt", "cave-valid.txt", "zombie-kidz-invalid.txt"):
        source = CONFORMANCE / name
        game = name.split("-in")[0].split("-valid")[0]
        text = source.read_text(encoding="utf-8")
        path = tmp_path / name
        path.write_bytes(text.replace("\n", ending).encode())
        lf = json_verdicts("--game", game, str(source))
        other = json_verdicts("--game", game, str(path))
        for verdict in other:
            verdict["file"] = str(source)
        assert other == lf
        assert [r.error for r in read_string(text.replace("\n", ending))] == [
            r.error for r in read_string(text)
        ]
        # A broken record comes out as its own bytes, line ends included: the same
        # records, once line ends are read as lines.
        converted = run("convert", "--to", "text", "--game", game, str(path)).stdout
        lf_converted = run("convert", "--to", "text", "--game", game, str(source)).stdout
        assert converted.replace(ending, "\n") == lf_converted


def test_tabs_separate_tokens_like_spaces(tmp_path: Path) -> None:
    source = CONFORMANCE / "zombie-kidz-invalid.txt"
    path = tmp_path / "tabs.txt"
    # Outside tags (whose values keep their spaces), a tab for every space: same columns.
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(ln if ln.startswith("[") else ln.replace(" ", "\t") for ln in lines))
    tabbed = json_verdicts("--game", "zombie-kidz", str(path))
    for verdict in tabbed:
        verdict["file"] = str(source)
    assert tabbed == json_verdicts("--game", "zombie-kidz", str(source))


# -- size: a 10 MB line, a 1 MB token -----------------------------------------------------


def test_a_10_mb_single_line_checks(tmp_path: Path) -> None:
    ((record, round_size),) = generate_records("tinkertown", 1, seed=3)
    tokens = write_record(record, round_size).split("\n\n", 1)[1].split()
    # The whole movetext on one line, a long comment after every move: over 10 MB.
    moves = sum(1 for t in tokens if not t.endswith("."))
    filler = "{" + "zombies " * (10_100_000 // 8 // moves + 1) + "}"
    line = " ".join(t if t.endswith(".") or t == tokens[-1] else f"{t} {filler}" for t in tokens)
    path = tmp_path / "one-line.txt"
    path.write_text('[Game "tinkertown"]\n\n' + line + "\n")
    assert path.stat().st_size > 10_000_000 and len(line) > 10_000_000
    process = python_m("check", "-v", str(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate(timeout=DEADLINE)
    assert (process.returncode, err) == (0, b"")
    assert re.fullmatch(
        rf"{re.escape(str(path))}: record 1: valid tinkertown game, \d+ turns, "
        rf"{re.escape(tokens[-1])}\n1 record in 1 file: 1 valid, 0 broken\n",
        out.decode(),
    )


def test_the_work_on_one_long_line_grows_linearly(tmp_path: Path) -> None:
    """The work of reading and checking a line, counted in calls (not timed): twice the
    comments on the line, at most about twice the calls."""
    ((record, round_size),) = generate_records("tinkertown", 1, seed=3)
    movetext = write_record(record, round_size).split("\n\n", 1)[1].replace("\n", " ")

    def check(size: int) -> None:
        text = '[Game "tinkertown"]\n\n' + movetext.replace(" ", " {zombies} ", size)
        assert all(check_record(r).ok for r in read_string(text))

    assert_linear(check, 60)


@pytest.mark.parametrize(
    "token",
    ["d" * 1_000_000, "!" * 1_000_000 + "x", "9" * 1_000_000 + ".", "$" + "9" * 1_000_000],
    ids=["letters", "exclamations", "move-number", "glyph"],
)
def test_a_1_mb_token_is_a_clear_syntax_error(tmp_path: Path, token: str) -> None:
    path = tmp_path / "token.txt"
    path.write_text(f'[Game "tinkertown"]\n\n1. d3 {token} *\n')
    (verdict,) = json_verdicts(str(path))
    assert verdict["error"]["kind"] == "syntax"
    assert (verdict["error"]["line"], verdict["error"]["column"]) == (3, 7)
    assert len(verdict["error"]["message"]) < 200
    line = run("check", str(path)).output.splitlines()[0]
    assert len(line) < 400 and "(1000" in line


@pytest.mark.parametrize("token", ["d", "!", "9", "$9"])
def test_the_work_on_a_long_token_grows_linearly(token: str) -> None:
    def check(size: int) -> None:
        (record,) = read_string(f'[Game "tinkertown"]\n\n1. d3 {token * size}x *\n')
        assert check_record(record).error is not None

    assert_linear(check, 50_000)


def test_a_1_mb_comment_of_machine_commands_annotates(tmp_path: Path) -> None:
    path = tmp_path / "commands.txt"
    path.write_text('[Game "cave"]\n\n1. b1 {' + "[%a " * 250_000 + "} b5 *\n")
    result = run("annotate", str(path))
    assert result.exit_code == 0 and result.stdout.count("[%a") == 250_000


def test_the_work_on_machine_commands_grows_linearly(tmp_path: Path) -> None:
    path = tmp_path / "commands.txt"

    def annotate(size: int) -> None:
        path.write_text('[Game "cave"]\n\n1. b1 {' + "[%a " * size + "} b5 *\n")
        assert run("annotate", str(path)).exit_code == 0

    assert_linear(annotate, 5_000)


# -- variations nested 100,000 deep ------------------------------------------------------

DEPTH = 100_000


def _depth(record: Record) -> int:
    depth, nodes = 0, record.moves
    while nodes and nodes[0].variations:
        depth, nodes = depth + 1, nodes[0].variations[0].nodes
    return depth


@pytest.fixture(scope="module")
def deep_text() -> str:
    # Each variation replaces White's opening d3 with the same move, 100,000 times over.
    return '[Game "tinkertown"]\n\n1. d3 ' + "(1. d3 " * DEPTH + ")" * DEPTH + " 1... d2,b5 *\n"


@pytest.fixture(scope="module")
def deep_canonical(deep_text: str) -> str:
    (record,) = read_string(deep_text)
    return convert_record(record, "text").text


def test_deep_variations_read_check_and_write(deep_text: str, deep_canonical: str) -> None:
    (record,) = read_string(deep_text)
    assert record.error is None and _depth(record) == DEPTH
    assert check_record(record).ok and check_record_strict(record).ok
    (again,) = read_string(deep_canonical)
    assert _depth(again) == DEPTH and [n.text for n in again.moves] == ["d3", "d2,b5"]
    stepper = Stepper(again)
    stepper.forward()
    for _ in range(100):
        assert stepper.enter_variation()
    assert stepper.cursor.depth == 100 and stepper.cursor.turn == 1


def test_deep_variations_to_json_and_back(deep_text: str, deep_canonical: str) -> None:
    (record,) = read_string(deep_text)
    as_json = convert_record(record, "json").text
    (back,) = read_json_records(io.StringIO(as_json))
    assert _depth(back) == DEPTH
    assert convert_record(back, "text").text == deep_canonical


def test_deep_variations_through_the_commands(tmp_path: Path, deep_text: str) -> None:
    path = tmp_path / "deep.txt"
    path.write_text(deep_text)
    assert run("check", str(path)).output.endswith("1 valid, 0 broken\n")
    assert run("show", str(path)).exit_code == 0
    out = tmp_path / "annotated.txt"
    assert run("annotate", "-o", str(out), str(path)).exit_code == 0
    assert out.stat().st_size > len(deep_text)


def test_an_unclosed_variation_100_000_deep_is_an_error() -> None:
    (record,) = read_string("1. d3 " + "(1. d3 " * DEPTH + "*\n")
    verdict = check_record(record, "tinkertown")
    assert verdict.error is not None and verdict.error.kind == "syntax"
    assert "variation" in verdict.error.message


# -- an unclosed comment at the end of a large file -----------------------------------------


def test_unclosed_comment_at_the_end_of_a_large_file(tmp_path: Path, big: Path) -> None:
    text = big.read_text()
    lines = text.count("\n")
    path = tmp_path / "open-comment.txt"
    path.write_text(
        text + '\n[Game "cave"]\n\n1. b1 b5 {this comment is never closed\n' + "b1-b2\n" * 1000
    )
    result = run("check", str(path))
    assert result.exit_code == 1
    first, summary = result.output.splitlines()
    assert first == (
        f"{path}:{lines + 4}:10: record 201: the comment opened here is never closed with '}}'"
    )
    assert summary == "201 records in 1 file: 200 valid, 1 broken"


# -- files that are not there or cannot be read ----------------------------------------------


@pytest.mark.parametrize(
    "args",
    [("check",), ("convert", "--to", "text"), ("annotate",), ("show",), ("html",), ("diagram",)],
)
def test_missing_file(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run(*args, str(tmp_path / "no-such-file.txt"))
    assert result.exit_code == 2 and "does not exist" in result.output


@pytest.mark.parametrize(
    "args", [("check",), ("convert", "--to", "json"), ("annotate",), ("html",)]
)
def test_directory_without_records(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "notes.md").write_text("not a record file")
    result = run(*args, str(tmp_path))
    assert result.exit_code == 2
    assert "no record files (*.ugn, *.txt, *.pgn, *.jsonl, *.json) in this folder" in result.output


def test_a_directory_where_a_file_is_expected(tmp_path: Path) -> None:
    result = run("show", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.output
    # diagram and replay search a folder, as check does
    for command in ("diagram", "replay"):
        result = run(command, str(tmp_path))
        assert result.exit_code == 2 and "no record files" in result.output


@pytest.mark.parametrize(
    "args", [("check",), ("convert", "--to", "text"), ("annotate",), ("show",), ("html",)]
)
def test_unreadable_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """As root every file is readable, so the refusal of the system is simulated: the
    file is found, and opening it fails as it would for a user without the right."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "secret.txt").write_text(CAVE)

    def refuse(path: Any, *rest: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("notation.commands.common.open", refuse, raising=False)
    monkeypatch.setattr("notation.collections.batch.open", refuse, raising=False)  # check's reading
    monkeypatch.setattr("notation.files.textfile.open", refuse, raising=False)  # open_binary
    target = folder if args[0] != "show" else folder / "secret.txt"
    result = run(*args, str(target))
    assert result.exit_code == 2
    assert "secret.txt" in result.output and "Permission denied" in result.output


def test_unreadable_file_for_real(request: pytest.FixtureRequest) -> None:
    """chmod 000 for real.  Root reads any file, so as root the command runs in a
    process that gives up root (once its modules are loaded) before it opens files.

    Nothing the process reads after giving up root may be in the checkout, which may
    be closed to other users (a clone in ``mktemp -d`` is mode 700): the package is
    copied to a folder everyone can read, and a first run as root, on a readable file
    and on a missing one, loads every module the command and its error paths use."""
    # Beside pytest's folders, which are closed to other users.
    folder = Path(tempfile.mkdtemp(prefix="notation-unreadable-"))
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    folder.chmod(0o755)
    library = folder / "lib"
    shutil.copytree(
        ROOT / "notation", library / "notation", ignore=shutil.ignore_patterns("__pycache__")
    )
    for path in [library, *library.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    readable = folder / "readable.txt"
    readable.write_text(CAVE)
    records = folder / "records"
    records.mkdir(mode=0o755)
    secret = records / "secret.txt"
    secret.write_text(CAVE)
    secret.chmod(0)
    become_nobody = "os.setgroups([]); os.setgid(65534); os.setuid(65534); " if (
        os.geteuid() == 0
    ) else ""
    code = (
        "import os, sys\n"
        "import notation.cli as cli\n"
        "def run(*args):\n"
        "    sys.argv = ['notation', 'check', *args]\n"
        "    cli.main()\n"
        # Load what a check and its messages import, while still root.
        f"for warm in ({str(readable)!r}, {str(folder / 'missing.txt')!r}):\n"
        "    try:\n"
        "        run(warm)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "sys.stdout.flush(); sys.stderr.flush()\n"
        "print('-- as nobody', file=sys.stderr, flush=True)\n"
        f"{become_nobody}\n"
        f"run({str(records)!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": str(library)}
    process = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, env=env, check=False, timeout=60,
        cwd=folder,
    )
    stderr = process.stderr.partition(b"-- as nobody\n")[2]
    assert process.returncode == 2, process.stderr
    assert b"Traceback" not in process.stdout + process.stderr
    assert b"secret.txt" in stderr and b"Permission denied" in stderr, process.stderr


# -- a closed pipe, Ctrl-C --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "source"),
    [
        (("convert", "--to", "text"), "big"),
        (("convert", "--to", "json"), "big"),
        (("check", "-v", "--jobs", "1"), "many"),
        (("check", "-v", "--jobs", "2"), "many"),
        (("annotate",), "big"),
    ],
)
def test_broken_pipe_exits_quietly_with_141(
    request: pytest.FixtureRequest, args: tuple[str, ...], source: str
) -> None:
    """``notation convert big.txt | head -1``: no message, and 141 (128 + SIGPIPE) as
    for `cat`, never 1, which says that a record is broken.  Each command writes far
    more than the pipe holds, so that it is still writing when ``head`` goes."""
    path: Path = request.getfixturevalue(source)
    notation = python_m(*args, str(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert notation.stdout is not None
    head = subprocess.run(["head", "-1"], stdin=notation.stdout, capture_output=True, check=True)
    notation.stdout.close()  # only head reads the pipe: when it exits the pipe is broken
    _, err = notation.communicate(timeout=DEADLINE)
    assert head.stdout.count(b"\n") == 1
    assert err == b"", err.decode()
    assert notation.returncode == 141


@pytest.mark.parametrize("args", [("show",), ("html",), ("diagram",), ("generate", "--game")])
def test_broken_pipe_of_any_command_exits_141(big: Path, args: tuple[str, ...]) -> None:
    """A reader that reads nothing and goes away: the first write finds the pipe closed."""
    argv = [*args, "tinkertown", "--games", "200"] if args[0] == "generate" else [
        *args, str(big),
    ]
    read, write = os.pipe()
    os.close(read)  # gone before the command writes a byte
    try:
        process = python_m(*argv, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _, err = process.communicate(timeout=DEADLINE)
    assert (process.returncode, err) == (141, b"")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_disk_on_standard_output(big: Path) -> None:
    with open("/dev/full", "wb") as full:
        process = python_m("convert", "--to", "text", str(big), stdout=full, stderr=subprocess.PIPE)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.decode().strip() == "Error: No space left on device"


@pytest.mark.parametrize(
    ("closed", "args"), [(0, ("check", "-")), (1, ("convert", "--to", "text"))]
)
def test_closed_standard_streams(big: Path, closed: int, args: tuple[str, ...]) -> None:
    """``notation check - <&-`` and ``notation convert big.txt >&-``."""
    argv = [*args] if "-" in args else [*args, str(big)]
    process = python_m(
        *argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(closed)
    )
    _, err = process.communicate(timeout=60)
    assert process.returncode in (0, 1) and b"Traceback" not in err


def interruptible(*args: str, **kwargs: Any) -> subprocess.Popen[bytes]:
    """``python -m notation ARGS`` that Ctrl-C stops, even when this suite runs where
    SIGINT is ignored (a background job), which Python would inherit."""
    return python_m(
        *args, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kwargs
    )


def _interrupt_when(process: subprocess.Popen[bytes], ready: Any) -> tuple[bytes, bytes]:
    deadline = time.monotonic() + DEADLINE
    while not ready() and time.monotonic() < deadline:
        assert process.poll() is None, "finished before it could be interrupted"
        time.sleep(0.02)  # a poll of the condition, not a wait for it to be true
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=DEADLINE)


def test_ctrl_c_during_a_long_check(huge: Path) -> None:
    process = interruptible(
        "check", "-v", str(huge), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    first = process.stdout.readline()  # it is checking
    assert b"valid" in first
    _, err = _interrupt_when(process, lambda: True)
    assert process.returncode == 130
    assert err.strip().endswith(b"interrupted") and b"Traceback" not in err


def test_ctrl_c_during_convert_leaves_the_old_output(tmp_path: Path, big: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("the old output\n")
    # The records come from a pipe kept open: the conversion is surely still going on
    # when it is interrupted, however fast it is.
    process = interruptible(
        "convert", "--to", "json", "-o", str(out), "-",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    process.stdin.write(big.read_bytes()[:200_000])
    process.stdin.flush()
    _, err = _interrupt_when(process, lambda: list(tmp_path.glob(".out.txt.*.tmp")))
    assert process.returncode == 130
    assert err.strip() == b"interrupted"
    assert out.read_text() == "the old output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary file left


# -- writes are safe ----------------------------------------------------------------------------


def test_no_command_writes_over_its_input(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(CAVE)
    for args in (("convert", "--to", "text"), ("annotate",), ("html",), ("diagram",)):
        result = run(*args, "-o", str(path), str(path))
        assert result.exit_code == 2 and "is also an input" in result.output
        assert path.read_text() == CAVE
    assert run("annotate", "--in-place", str(path)).exit_code == 0  # asked for: rewritten
    assert "[%" in path.read_text()


def test_a_failed_conversion_leaves_the_old_output(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(CAVE + '\n[Game "cave"]\n\n1. b1 b9 *\n')
    out = tmp_path / "out.txt"
    out.write_text("the old output\n")
    result = run("convert", "--to", "text", "--strict", "-o", str(out), str(path))
    assert result.exit_code == 1 and "--strict: nothing written" in result.output
    assert out.read_text() == "the old output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "out.txt"]


def test_an_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(CAVE)
    result = run("convert", "--to", "text", "-o", str(tmp_path / "no" / "out.txt"), str(path))
    assert result.exit_code == 2 and "No such file or directory" in result.output


# -- one error does not hide the next --------------------------------------------------------

BROKEN_FILE = """\
[Game "cave"]

1. b1 b5 (1... c5 *

[Game "cave"]

1. b1 b5 2. b1-b2 *

[Game "cave"]
[Black "a tag without its closing bracket"

1. b1 b5 *

[Game "cave"]

1. b1 b5 ) 2. b1-b2 *
[Game "cave"]

1. b1 b5 2. b1-b3 *

1. b1 } b5 *
[Game "cave"]
1. b1 b5 2. b1-b2 b5-b4 *
"""


def test_every_broken_record_of_a_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "broken.ugn"
    path.write_text(BROKEN_FILE)
    result = run("check", "--game", "cave", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:3:19: record 1: a result token cannot stand inside a variation; "
        "the variation opened at line 3, column 10 is never closed",
        f"{path}:10:1: record 3: a tag is written [Name \"value\"]; this line is not one",
        f"{path}:16:10: record 4: a ')' without an opening '('",
        f"{path}:19:13: record 5, turn 3 (b1-b3): b1-b3 is not between neighbouring squares: "
        "a move goes one square orthogonally",
        f"{path}:21:7: record 6: a '}}' without an opening '{{'",
        "7 records in 1 file: 2 valid, 5 broken",
        SYMPTOM_NOTE,
    ]


def test_the_reader_resynchronises_at_the_next_record() -> None:
    records = read_string(BROKEN_FILE)
    assert [r.first_line for r in records] == [1, 5, 9, 14, 17, 21, 22]
    assert [r.error is None for r in records] == [False, True, False, False, True, False, True]
    assert [len(r.moves) for r in records] == [2, 3, 2, 2, 3, 1, 4]


def test_a_record_cut_short_by_the_next_tag_is_reported_and_the_next_is_read() -> None:
    first, second = read_string('1. b1 b5\n[Game "cave"]\n\n1. b1 b5 *\n')
    assert first.error is not None and "no result token" in first.error.message
    assert second.error is None and check_record(second).ok


def test_streaming_yields_records_one_at_a_time(big: Path) -> None:
    """A file of any size is read a record at a time (what keeps memory flat)."""
    records: Iterator[Record] = read_file(big)
    assert next(records).index == 1
    assert sum(1 for _ in records) == 199


def test_the_help_of_check_names_strict() -> None:
    assert "--strict" in run("check", "--help").output
