"""Record boundaries and line ends (issue 27, items 6 and 7).

A record that does not check is passed on byte for byte, line ends included (lone
CR, CRLF, LF, mixed, and no line end at all after a file's last record), by every
command that writes records.  A record that is only a malformed first tag line is a
broken record of its own, and the record after it is read as it would be alone, by
every path that finds records: the reader, the streaming check, convert, select,
stats, and the index.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.cli import cli
from notation.collections.index import (
    RecordNotFound,
    build_index,
    read_headers,
    record_at,
    write_index,
)
from notation.reader import read_file, read_records, read_string, record_starts, visit_records
from notation.replay import Replay, check_record
from notation.writer import record_separator

ENDS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout_bytes, result.stderr


def broken(end: str, move: str = "d1", bad: str = "zz") -> str:
    """A Cave record whose second move does not parse, its lines ended with ``end``."""
    return end.join(['[Game "cave"]', f'[Event "{bad}"]', "", f"1. {move} {bad} *"]) + end


def valid(end: str) -> str:
    """A short Cave record that checks, its lines ended with ``end``."""
    return end.join(['[Game "cave"]', "", "1. d1 c5 *"]) + end


# -- item 6: broken records keep their exact bytes -----------------------------------


#: Two broken records separated by one blank line in every shape of line end; the
#: last record with its final line end or without it.
SHAPES = {
    f"{name}-{final}": (broken(end) + end + broken(end, "a1", "yy")).removesuffix(
        "" if final == "final" else end
    )
    for name, end in ENDS.items()
    for final in ("final", "unended")
} | {
    # lines ended three ways in one record, and the blank line between in the last
    "mixed-final": '[Game "cave"]\r\n[Event "zz"]\r\r1. d1 zz *\n\n' + broken("\r", "a1", "yy"),
    "mixed-unended": '[Game "cave"]\r[Event "zz"]\n\r\n1. d1 zz *\r\n\r\n'
    + broken("\n", "a1", "yy").rstrip("\n"),
}

#: Commands that write records, on a file: (label, arguments before the file).
WRITERS = {
    "convert-text": ["convert", "--to", "text"],
    "annotate": ["annotate"],
    "annotate-tree": ["annotate", "--diagrams", "2"],  # the tree path (notation.formats.annotate)
    "select": ["select"],
    "dedup": ["dedup"],
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_broken_records_come_out_byte_for_byte(tmp_path: Path, shape: str, writer: str) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(SHAPES[shape].encode())
    out = tmp_path / "out.txt"
    code, _, _ = run(*WRITERS[writer], str(source), "-o", str(out))
    assert code == (0 if writer in ("select", "dedup") else 1)  # they keep broken records
    assert out.read_bytes() == SHAPES[shape].encode()


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_broken_records_come_out_of_stdout_byte_for_byte(tmp_path: Path, shape: str) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(SHAPES[shape].encode())
    code, out, _ = run("convert", "--to", "text", str(source))
    assert (code, out) == (1, SHAPES[shape].encode())


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_broken_records_survive_json_and_back(tmp_path: Path, shape: str) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(SHAPES[shape].encode())
    jsonl, back = tmp_path / "out.jsonl", tmp_path / "back.txt"
    assert run("convert", "--to", "json", str(source), "-o", str(jsonl))[0] == 1
    raws = [json.loads(line)["raw"] for line in jsonl.read_text().splitlines()]
    expected = [r.raw for r in read_records(io.StringIO(SHAPES[shape], newline=""), keep_raw=True)]
    assert raws == expected  # the raw text exactly, no line end added
    assert run("convert", "--to", "text", str(jsonl), "-o", str(back))[0] == 1
    assert back.read_bytes() == SHAPES[shape].encode()
    # select writes JSON input as it came, and converts it to text on demand
    assert run("select", str(jsonl), "--to", "text", "-o", str(back))[0] == 0
    assert back.read_bytes() == SHAPES[shape].encode()


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_split_keeps_broken_records_byte_for_byte(tmp_path: Path, shape: str) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(SHAPES[shape].encode())
    parts = tmp_path / "parts"
    code, _, _ = run("split", str(source), "--every", "5", "-d", str(parts), "-q")
    assert code == 0
    assert (parts / "in-001.txt").read_bytes() == SHAPES[shape].encode()


@pytest.mark.parametrize("name", sorted(ENDS))
def test_a_valid_record_between_broken_ones_keeps_them_intact(tmp_path: Path, name: str) -> None:
    end = ENDS[name]
    first, last = broken(end), broken(end, "a1", "yy").removesuffix(end)
    source = tmp_path / "in.txt"
    source.write_bytes((first + end + valid(end) + end + last).encode())
    for args in (["convert", "--to", "text"], ["annotate"], ["select", "--to", "text"]):
        out = tmp_path / "out.txt"
        run(*args, str(source), "-o", str(out))
        text = out.read_bytes().decode()
        raws = [r.raw for r in read_records(io.StringIO(text, newline=""), keep_raw=True)]
        assert len(raws) == 3, args
        assert (raws[0], raws[2]) == (first, last), args
        assert text.startswith(first) and text.endswith(last), args


def test_the_separator_is_a_blank_line_in_the_record_s_own_line_end() -> None:
    assert record_separator("1. d1 zz *\n") == "\n"
    assert record_separator("1. d1 zz *\r\n") == "\r\n"
    assert record_separator("1. d1 zz *\r") == "\r"
    assert record_separator('[Game "cave"]\r\n\r\n1. d1 zz *') == "\r\n\r\n"
    assert record_separator('[Game "cave"]\r\r1. d1 zz *') == "\r\r"
    assert record_separator("1. d1 zz *") == "\n\n"


# -- item 7: a malformed first tag line is a record of its own -----------------------

GARBAGE = {
    "bracket": "[",
    "G": "[G",
    "unclosed": '[Game "cave"',
    "bad-escape": '[Event "a\\"]',
    "closing": "]",
}


def _records(text: str) -> list[tuple[bool, int]]:
    """(checks, first line) of each record the library reader finds in ``text``."""
    return [(check_record(r).ok, r.first_line) for r in read_string(text)]


def _via_index(path: Path) -> list[tuple[bool, int]]:
    found = []
    number = 1
    while True:
        try:
            record = record_at(path, number)
        except RecordNotFound:
            return found
        found.append((check_record(record).ok, record.first_line))
        number += 1


@pytest.mark.parametrize("name", sorted(ENDS))
@pytest.mark.parametrize("garbage", sorted(GARBAGE))
def test_a_malformed_first_line_does_not_swallow_the_next_record(
    tmp_path: Path, garbage: str, name: str
) -> None:
    end = ENDS[name]
    text = GARBAGE[garbage] + end + end + valid(end)
    expected = [(False, 1), (True, 3)]
    assert _records(text) == expected
    path = tmp_path / "g.txt"
    path.write_bytes(text.encode())
    assert [(r.error is None, r.first_line) for r in read_file(path)] == [(False, 1), (True, 3)]
    verdicts = list(visit_records(io.StringIO(text, newline=""), Replay()))
    assert [(v.ok, v.record) for v in verdicts] == [(False, 1), (True, 2)]
    assert _via_index(path) == expected
    write_index(path, build_index(path))
    assert _via_index(path) == expected
    assert [h.line for h in read_headers(path)] == [1, 3]
    code, out, _ = run("check", str(path))
    assert code == 1
    assert b"1 valid, 1 broken" in out
    code, out, _ = run("convert", "--to", "json", str(path))
    assert code == 1
    assert [json.loads(line)["ok"] for line in out.decode().splitlines()] == [False, True]
    _, out, _ = run("stats", str(path), "--format", "json")
    stats = json.loads(out)
    assert (stats["records"], stats["games"]["cave"]["records"]) == (2, 1)
    code, out, err = run("select", str(path), "--valid")
    assert out == valid(end).encode()
    assert "kept 1 of 2" in err


@pytest.mark.parametrize("name", sorted(ENDS))
@pytest.mark.parametrize("garbage", sorted(GARBAGE))
def test_without_the_blank_line_every_path_agrees(tmp_path: Path, garbage: str, name: str) -> None:
    end = ENDS[name]
    text = GARBAGE[garbage] + end + valid(end)
    found = _records(text)
    path = tmp_path / "g.txt"
    path.write_bytes(text.encode())
    assert [(r.error is None, r.first_line) for r in read_file(path)] == found
    verdicts = list(visit_records(io.StringIO(text, newline=""), Replay()))
    assert [v.ok for v in verdicts] == [ok for ok, _ in found]
    assert _via_index(path) == found
    assert [h.line for h in read_headers(path)] == [line for _, line in found]
    code, out, _ = run("convert", "--to", "json", str(path))
    oks = [json.loads(line)["ok"] for line in out.decode().splitlines()]
    assert (code, oks) == (0 if all(oks) else 1, [ok for ok, _ in found])


def test_the_sure_starts_are_the_reader_s() -> None:
    # record_starts (check --jobs, the index, the streaming check) finds a start only
    # where the reader begins one, whatever came before.
    lines = ["[G\n", "\n", '[Game "cave"]\n', "\n", "1. d1 c5\n", "\n", '[Game "cave"]\n']
    assert list(record_starts(lines)) == [6]


#: One line of anything but a line end, weighted to the container's characters.
_GARBAGE_LINE = st.text(
    st.sampled_from('[]{}()";%\\*.-1 0/Gamecv\t$!?') | st.characters(blacklist_characters="\r\n"),
    min_size=1,
    max_size=24,
)


@settings(max_examples=300, deadline=None)
@given(garbage=_GARBAGE_LINE, end=st.sampled_from(sorted(ENDS.values())))
def test_a_valid_record_after_any_garbage_line_and_a_blank_one_is_read_alone(
    garbage: str, end: str
) -> None:
    text = garbage + end + end + valid(end)
    # The reader: the last record is the valid one, with its own tag, moves and line.
    last = read_string(text)[-1]
    assert check_record(last).ok
    assert [(t.name, t.value, t.line) for t in last.tags] == [("Game", "cave", 3)]
    assert [m.text for m in last.moves] == ["d1", "c5"]
    # The streaming check (notation check): the last verdict is that record's.
    verdicts = list(visit_records(io.StringIO(text, newline=""), Replay()))
    assert verdicts[-1].ok and verdicts[-1].turns == 2
    assert len(verdicts) == len(read_string(text))
