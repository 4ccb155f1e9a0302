"""Text that cannot be encoded (issue 27, items 8 and 9).

A JSON line can spell a lone surrogate (``"\\udc00"``), which is no character and
cannot be written as UTF-8: every command refuses such a line the same way, as a
line that is not a record.  A file name need not be UTF-8 (``b"caf\\xe9.txt"``, which
Python hands over as ``"caf\\udce9.txt"``): every command shows it with the byte
escaped (``caf\\xe9.txt``) and never writes a lone surrogate, nor crashes on one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.errors import display_path
from notation.formats.convert import NotARecord, read_json_records
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "records" / "cave" / "examples.ugn"
REASON = "a lone surrogate \\udc00 is not text"


def run(args: list[str], cwd: Path | None = None) -> tuple[int, bytes, bytes]:
    """The exit code, standard output and standard error of ``notation ARGS``, run in
    process, asserted free of tracebacks (the runner's streams are strict UTF-8: a lone
    surrogate written to them is an exception, not bytes)."""
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args)
    finally:
        os.chdir(old)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception),
        result.stderr,
    )
    out, err = result.stdout_bytes, result.stderr_bytes or b""
    for stream in (out, err):
        stream.decode("utf-8")  # raises if not UTF-8
        assert b"Traceback" not in stream
    return result.exit_code, out, err


# -- item 8: lone surrogates in JSON Lines ------------------------------------------------


def _one_json_line() -> str:
    code, out, _ = run(["convert", "--to", "json", str(EXAMPLES)])
    assert code == 0
    return out.decode().splitlines()[0]


def _surrogate_lines() -> dict[str, str]:
    """A valid JSON record line with a lone surrogate spelt in one string each."""
    line = _one_json_line()
    lines = {
        "tag": line.replace('"Composer"', '"Comp\\udc00oser"', 1),
        "comment": line.replace("Composed to show", "Composed \\udc00 to show", 1),
        "move": line.replace('"text": "b1"', '"text": "b1\\udc00"', 1),
        "raw": '{"format": "notation-record/1", '
        '"raw": "[Game \\"cave\\"]\\n\\n1. b1 {\\udc00} *\\n"}',
        "key": line.replace('"format"', '"\\udc00format"', 1),
    }
    for name, text in lines.items():
        assert "\\udc00" in text, name
    return lines


@pytest.fixture(scope="module")
def surrogate_lines() -> dict[str, str]:
    return _surrogate_lines()


def test_a_lone_surrogate_is_a_line_that_is_not_a_record(surrogate_lines: dict[str, str]) -> None:
    for name, line in surrogate_lines.items():
        (record,) = read_json_records([line + "\n"], "x.jsonl")
        assert record.error is not None, name
        assert record.error.code == "json-not-a-record"
        assert REASON in record.error.message
        verdict = check_record(record)
        assert verdict.error is not None
        assert str(verdict.error).startswith("x.jsonl:1:1: record 1: a lone surrogate"), name
        record.raw.encode("utf-8")  # the line as written: escapes, no surrogate
        with pytest.raises(NotARecord, match=r"^x\.jsonl:1: a lone surrogate \\udc00 is not text"):
            list(read_json_records([line + "\n"], "x.jsonl", errors="raise"))


def test_the_refusal_names_the_column_of_the_escape() -> None:
    line = '{"format": "notation-record/1", "raw": "\\udc00"}'
    (record,) = read_json_records([line])
    assert record.error is not None
    assert f"(column {line.index(chr(92) + 'udc00') + 1})" in record.error.message


@pytest.mark.parametrize(
    "text",
    [
        "\\ud83d\\ude00",  # a pair: one character
        "\\\\udc00",  # a backslash, then the letters udc00
        "\\u00e9\\u20ac",
    ],
)
def test_surrogate_pairs_and_other_escapes_still_read(text: str) -> None:
    line = _one_json_line().replace("Composed to show", f"Composed {text} to show", 1)
    (record,) = read_json_records([line])
    assert record.error is None, record.error


def test_a_lone_high_surrogate_before_another_escape_is_refused() -> None:
    raw = '{"format": "notation-record/1", "raw": "\\ud83d\\u0041"}'
    (record,) = read_json_records([raw])
    assert record.error is not None
    assert "a lone surrogate \\ud83d is not text (column 41)" in record.error.message


COMMANDS_8 = [
    ["check"],
    ["check", "--format", "json"],
    ["check", "-v"],
    ["convert", "--to", "text"],
    ["convert", "--to", "json"],
    ["show", "--record", "2"],
    ["html", "-o", "page.html"],
    ["annotate"],
    ["select"],
    ["select", "--tag", "Game=cave"],
    ["stats"],
    ["stats", "--format", "json"],
    ["dedup"],
]


@pytest.mark.parametrize("args", COMMANDS_8, ids=" ".join)
def test_every_command_refuses_a_lone_surrogate_alike(
    args: list[str], surrogate_lines: dict[str, str], tmp_path: Path
) -> None:
    good = _one_json_line()
    for name, line in surrogate_lines.items():
        path = tmp_path / f"{name}.jsonl"
        # The bad line second: nothing of it is written, and the first record is whole.
        path.write_text(good + "\n" + line + "\n", encoding="utf-8")
        code, out, err = run([*args, str(path)], cwd=tmp_path)
        assert "\udc00".encode("utf-8", "surrogatepass") not in out + err
        said = (out + err).decode()
        if args[0] in ("select", "dedup"):
            # Records are passed on as written (the line is ASCII: its escapes).
            assert code in (0, 1), (name, said)
            continue
        if args[0] == "stats":
            # Counted, with the records whose game is not known.
            assert code == 0, (name, said)
            assert '"records": 2' in said or said.startswith("2 records"), (name, said)
            continue
        # 1 a broken record, 3 a conversion stopped, 2 show: no position to show.
        assert code == {"convert": 3, "show": 2}.get(args[0], 1), (name, said)
        if args[:2] == ["check", "--format"]:
            verdicts = [json.loads(text) for text in out.decode().splitlines()]
            assert verdicts[0]["ok"] is True
            assert REASON in verdicts[1]["error"]["message"]
            continue
        assert f"{path.name}:2" in said, (name, said)
        assert REASON in said, (name, said)
        if args[0] == "convert":
            assert code == 3
            # The first record whole, then nothing: no part of the bad line.
            written = out.decode()
            assert "\\udc00" not in written
            if args[-1] == "json":
                assert written.splitlines() == [good]


# -- item 9: file names that are not UTF-8 ------------------------------------------------


def test_display_path_escapes_the_bytes_that_are_not_utf8() -> None:
    assert display_path("caf\udce9.txt") == "caf\\xe9.txt"
    assert display_path("café.txt") == "café.txt"
    assert display_path("a\nb\x1b.txt") == "a\\nb\\x1b.txt"
    assert display_path("lone\ud800.txt") == "lone\\ud800.txt"
    assert display_path("<stdin>") == "<stdin>"


@pytest.fixture
def odd_names(tmp_path: Path) -> tuple[str, str]:
    """A valid and a broken record file whose names are not UTF-8 (``caf\\xe9.txt``,
    ``bro\\xe9.txt``), in ``tmp_path``; the names as Python hands them over."""
    folder = os.fsencode(tmp_path)
    valid, broken = folder + b"/caf\xe9.txt", folder + b"/bro\xe9.txt"
    try:
        with open(valid, "wb") as handle:
            handle.write(EXAMPLES.read_bytes())
    except OSError:  # pragma: no cover - a file system that wants UTF-8 names
        pytest.skip("this file system refuses names that are not UTF-8")
    with open(broken, "wb") as handle:
        handle.write(b'[Game "cave"]\n\n1. zz *\n')
    valid_name, broken_name = os.fsdecode(valid), os.fsdecode(broken)
    if "\udce9" not in valid_name:  # pragma: no cover - a file system encoding not UTF-8
        pytest.skip("names are decoded with an encoding that reads every byte")
    return valid_name, broken_name


COMMANDS_9 = [
    ["check"],
    ["check", "-v"],
    ["check", "--format", "json"],
    ["convert", "--to", "text"],
    ["convert", "--to", "json"],
    ["annotate"],
    ["show"],
    ["replay"],
    ["diagram", "-o", "pos.svg"],
    ["html", "-o", "page.html"],
    ["select"],
    ["dedup"],
    ["split", "--every", "2", "-d", "parts"],
    ["stats"],
    ["stats", "--format", "json"],
    ["index"],
]


@pytest.mark.parametrize("args", COMMANDS_9, ids=" ".join)
def test_every_command_takes_a_file_name_that_is_not_utf8(
    args: list[str], odd_names: tuple[str, str], tmp_path: Path
) -> None:
    for name in odd_names:
        code, out, err = run([*args, name], cwd=tmp_path)
        broken = "bro" in os.path.basename(name)
        judged = args[0] not in ("select", "dedup", "split", "stats", "index")
        assert code == (1 if broken and judged else 0), (args, name, out, err)
        said = (out + err).decode()
        assert "\udce9" not in said and "\\udce9" not in said, said
        named = args[:2] in (["check", "--format"], ["check", "-v"], ["index"])
        if named or (broken and args[0] in ("check", "convert", "annotate", "diagram", "html")):
            assert "\\xe9.txt" in said, said
        if args == ["check", "--format", "json"]:
            files = {json.loads(line)["file"] for line in out.decode().splitlines()}
            assert files == {display_path(name)}
    if args[0] == "html":
        page = (tmp_path / "page.html").read_bytes().decode("utf-8")
        assert "bro\\\\xe9.txt" in page  # the broken record's error names the file


def test_annotate_in_place_takes_a_file_name_that_is_not_utf8(
    odd_names: tuple[str, str], tmp_path: Path
) -> None:
    valid, broken = odd_names
    assert run(["annotate", "--in-place", valid])[0] == 0
    assert "[%reserve" in Path(valid).read_text(encoding="utf-8")
    code, _, err = run(["annotate", "--in-place", broken])
    assert code == 1 and "bro\\xe9.txt:3:4" in err.decode()


def test_messages_about_such_a_file_show_its_name_escaped(
    odd_names: tuple[str, str], tmp_path: Path
) -> None:
    valid, _ = odd_names
    not_utf8 = os.fsdecode(os.fsencode(tmp_path) + b"/lat\xe9.txt")
    with open(os.fsencode(not_utf8), "wb") as handle:
        handle.write(b'[Game "cave"]\n[Event "\xe9t\xe9"]\n\n1. b1 *\n')
    code, _, err = run(["check", not_utf8])
    assert code == 0 and "lat\\xe9.txt is not UTF-8" in err.decode()
    code, _, err = run(["html", valid, "-o", valid])
    assert code == 2 and "caf\\xe9.txt is also an input" in err.decode()
    folder = os.fsdecode(os.fsencode(tmp_path) + b"/dir\xe9")
    os.mkdir(os.fsencode(folder))
    code, _, err = run(["check", folder])
    assert code == 2 and "dir\\xe9: no record files" in err.decode()
    code, _, err = run(["check", os.fsdecode(os.fsencode(tmp_path) + b"/nope\xe9.txt")])
    assert code == 2 and "nope\\xe9.txt" in err.decode()
    parts = os.fsdecode(os.fsencode(tmp_path) + b"/part\xe9s")
    code, _, err = run(["split", "--every", "2", "-d", parts, valid])
    assert code == 0 and "into 3 files in " in err.decode() and "part\\xe9s" in err.decode()
    code, _, err = run(["show", valid, "--record", "99"])
    assert code == 2 and "caf\\xe9.txt has no record 99" in err.decode()
    assert run(["index", valid])[0] == 0
    with open(os.fsencode(valid), "ab") as handle:
        handle.write(b"\n")
    code, _, err = run(["show", valid, "--record", "2"])
    assert code == 0 and "the index of " in err.decode()
    assert "caf\\xe9.txt is out of date" in err.decode()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_writes_utf8_for_such_a_name_whatever_the_locale(
    fmt: str, odd_names: tuple[str, str]
) -> None:
    """The fast path of ``notation check`` (no click), in a real process whose standard
    output passes lone surrogates through as bytes (the C.UTF-8 locale's
    surrogateescape) and in one that refuses them."""
    _, broken = odd_names
    for errors in ("surrogateescape", "strict"):
        env = {**os.environ, "PYTHONIOENCODING": f"utf-8:{errors}"}
        done = subprocess.run(
            [sys.executable, "-m", "notation", "check", "--format", fmt, "-v", broken],
            capture_output=True,
            env=env,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        text = done.stdout.decode("utf-8")  # raises if not UTF-8
        assert "bro\\xe9.txt" in text.replace("\\\\", "\\"), text
        assert b"Traceback" not in done.stderr
