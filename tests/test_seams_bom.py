"""A byte-order mark at the start of a later record (issue 27, a fuzz campaign's find).

``cat a.txt b.txt`` of a file saved with a mark (U+FEFF, bytes EF BB BF) puts one at
the start of the line where b.txt's first record begins.  The reader skips it there,
as it skips the one that starts a file, on every path that finds records: the reader,
the streaming check, ``check --jobs`` and its cutting of files into parts, convert
(both ways through JSON Lines), select, stats and the index (``show --record``).  A
broken record keeps its bytes as written, the mark included.  A mark anywhere else
(within a header, in the middle of a line, before movetext) is read as today: a token
that is no move.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.collections import batch
from notation.collections.batch import check_paths
from notation.collections.generate import generate_records
from notation.collections.index import find_record, read_headers, scan_chunks
from notation.formats.convert import read_json_records
from notation.reader import read_file, read_records, read_string, record_starts, visit_records
from notation.replay import Replay, check_record
from notation.writer import write_records

BOM = "\ufeff"
CAVE = '[Game "cave"]\n\n1. b1 a5 *\n'
BROKEN = '[Game "cave"]\n[Event "e"]\n\n1. b1 zz *\n'

#: Inputs with a mark at the start of a later record, by how it got there.
MARKED = {
    # cat of two files, the first ending with a blank line
    "after a blank line": CAVE + "\n" + BOM + CAVE,
    # cat of two files, the first ending with one line end: the tag begins a record
    "after the result line": CAVE + BOM + CAVE,
    "after blank lines, before an escape line": CAVE + "\n\n" + BOM + "% saved by X\n" + CAVE,
    "crlf": (CAVE + "\n" + BOM + CAVE).replace("\n", "\r\n"),
    "third record": CAVE + "\n" + CAVE + "\n" + BOM + CAVE,
}


def run(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout_bytes, result.stderr


def write(tmp_path: Path, text: str, name: str = "marked.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


# -- the library -------------------------------------------------------------------------


@pytest.mark.parametrize("text", MARKED.values(), ids=MARKED.keys())
def test_the_reader_skips_a_mark_where_a_record_begins(text: str, tmp_path: Path) -> None:
    for records in (read_string(text), list(read_file(write(tmp_path, text)))):
        assert [record.tags[0].name for record in records] == ["Game"] * len(records)
        assert all(record.tags[0].column == 1 for record in records)
        assert all(check_record(record).ok for record in records)
        assert len(records) == text.count("[Game")
    # The streaming check (the fast path of `check`) says the same.
    lines = io.StringIO(text, newline="")
    verdicts = [check_record(record) for record in read_string(text)]
    assert list(visit_records(lines, Replay())) == verdicts


@pytest.mark.parametrize(
    "text",
    [
        '[Game "cave"]\n' + BOM + '[Event "x"]\n\n1. b1 *\n',  # within a header
        '[Game "cave"]\n\n1. b1 ' + BOM + "*\n",  # in the middle of a line
        '[Game "cave"]\n\n' + BOM + "1. b1 *\n",  # before movetext, after a blank line
        CAVE + "\n" + '[Game "cave"]\n\n1. b1 a5 ' + BOM + "2. b1-b2 *\n",  # a later record
    ],
    ids=["header", "mid-line", "movetext", "later record"],
)
def test_a_mark_elsewhere_is_still_an_error(text: str) -> None:
    verdicts = [check_record(record) for record in read_string(text)]
    broken = [verdict.error for verdict in verdicts if verdict.error is not None]
    assert len(broken) == 1 and broken[0].code == "cave-move-malformed"
    assert broken[0].move is not None and broken[0].move.startswith(BOM)
    lines = io.StringIO(text, newline="")
    assert list(visit_records(lines, Replay())) == verdicts


def test_record_starts_finds_a_marked_start_as_an_unmarked_one() -> None:
    plain = "".join(write_records(generate_records("cave", 12, 5)))
    records = plain.split("\n\n[")
    marked = ("\n\n" + BOM + "[").join(records)
    assert marked.count(BOM) == 11
    starts = list(record_starts(marked.splitlines(keepends=True)))
    assert starts and starts == list(record_starts(plain.splitlines(keepends=True)))


# -- check, and check --jobs cutting files into parts ------------------------------------


def test_check_accepts_a_mark_at_a_later_record(tmp_path: Path) -> None:
    for text in MARKED.values():
        path = write(tmp_path, text)
        code, _, err = run("check", str(path))
        assert code == 0, err
        code, _, err = run("check", "-", stdin=path.read_bytes())
        assert code == 0, err


@pytest.fixture
def every_record_marked(tmp_path: Path) -> Path:
    """Generated records, each after a blank line and a mark: a file several parts long."""
    records = ["".join(write_records([record])) for record in generate_records("cave", 60, 7)]
    return write(tmp_path, "\n".join(BOM + record for record in records), "every.txt")


def test_check_jobs_cuts_at_marked_starts(every_record_marked: Path, small_parts: None) -> None:
    path = every_record_marked
    expected = [check_record(record) for record in read_file(path)]
    assert len(expected) == 60 and all(verdict.ok for verdict in expected)
    units = list(batch._units([str(path)], batch._MIN_PART))
    assert len(units) > 2  # every start is marked: cut at them, or not at all
    lines = path.read_text(encoding="utf-8").splitlines()
    firsts = {record.first_line for record in read_file(path)}
    for unit in units[1:]:
        assert isinstance(unit, batch._Unit)
        # A part begins at a record's first line, its mark and all.
        assert unit.first_line in firsts and lines[unit.first_line - 1].startswith(BOM + "[")
    assert list(check_paths([path], jobs=2)) == expected
    strict = list(check_paths([path], jobs=1, strict=True))
    assert list(check_paths([path], jobs=2, strict=True)) == strict
    code, out, err = run("check", "--jobs", "2", str(path))
    assert code == 0 and "60 valid" in out.decode() + err


# -- convert, select, stats ----------------------------------------------------------------


def test_convert_reads_the_marked_record_both_ways(tmp_path: Path) -> None:
    path = write(tmp_path, MARKED["after a blank line"])
    code, text, err = run("convert", "--to", "text", str(path))
    assert code == 0, err
    assert text.decode() == CAVE + "\n" + CAVE
    code, jsonl, _ = run("convert", "--to", "json", str(path))
    assert code == 0 and jsonl.count(b'"game": "cave"') == 2
    assert run("convert", "--to", "text", "-", stdin=jsonl)[1] == text


def test_a_broken_record_after_a_mark_keeps_its_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, CAVE + "\n" + BOM + BROKEN)
    code, text, err = run("convert", "--to", "text", str(path))
    assert code == 1
    assert "zz" in err and "no Game tag" not in err  # its own defect, its Game tag read
    assert text.decode() == CAVE + "\n" + BOM + BROKEN
    code, jsonl, _ = run("convert", "--to", "json", str(path))
    assert code == 1
    assert run("convert", "--to", "text", "-", stdin=jsonl)[1] == text


def test_json_lines_with_a_mark_at_a_later_line(tmp_path: Path) -> None:
    path = write(tmp_path, CAVE)
    jsonl = run("convert", "--to", "json", str(path))[1].decode()
    joined = jsonl + BOM + jsonl  # cat of two files, the second saved with a mark
    records = list(read_json_records(io.StringIO(joined), "joined.jsonl"))
    assert [record.error for record in records] == [None, None]
    code, text, err = run("convert", "--to", "text", "-", stdin=joined.encode())
    assert code == 0, err
    assert text.decode() == CAVE + "\n" + CAVE


def test_select_keeps_the_marked_record_byte_for_byte(tmp_path: Path) -> None:
    text = MARKED["after a blank line"]
    path = write(tmp_path, text)
    assert run("select", "--valid", "--count", str(path))[1].decode().strip() == "2"
    assert run("select", "--valid", str(path))[1] == text.encode()


def test_stats_counts_the_marked_record(tmp_path: Path) -> None:
    path = write(tmp_path, MARKED["after the result line"])
    code, out, _ = run("stats", str(path))
    assert code == 0
    assert "Cave: 2 records, 0 broken" in out.decode()
    assert "without a known game" not in out.decode()


# -- the index: show --record ---------------------------------------------------------------


def test_show_reaches_the_marked_record(tmp_path: Path) -> None:
    path = write(tmp_path, MARKED["after a blank line"])
    code, out, err = run("show", str(path), "--record", "2")
    assert code == 0, err
    plain = write(tmp_path, CAVE + "\n" + CAVE, "plain.txt")
    assert out == run("show", str(plain), "--record", "2")[1]


def test_the_index_cuts_at_marked_starts(every_record_marked: Path) -> None:
    data = every_record_marked.read_bytes()
    chunks = list(scan_chunks(io.BytesIO(data)))
    firsts = [record.first_line for record in read_file(every_record_marked)]
    assert [chunk.first_line for chunk in chunks] == firsts
    assert all(chunk.count == 1 for chunk in chunks)
    record = find_record(io.BytesIO(data).readlines(), 30, "every.txt")
    assert record.first_line == firsts[29] and check_record(record).ok
    assert [r.tags[0].name for r in read_records(data.decode().splitlines(True))] == ["Game"] * 60
    headers = list(read_headers(every_record_marked))
    assert [header.line for header in headers] == firsts
    assert [header.tags for header in headers] == [
        record.tag_dict for record in read_file(every_record_marked)
    ]


def test_dedup_takes_a_broken_record_after_a_mark_for_its_copy(tmp_path: Path) -> None:
    """``cat a.txt b.txt`` where b.txt starts with a mark: a broken record of b.txt that
    is a copy of one of a.txt is still a copy (the mark is no part of the game)."""
    broken = '[Game "cave"]\n\n1. zz *\n'
    source = tmp_path / "joined.txt"
    source.write_text(broken + "\n" + BOM + broken, encoding="utf-8")
    result = CliRunner().invoke(cli, ["dedup", str(source)])
    assert result.exit_code == 0, result.output
    assert "kept 1 record of 2, dropped 1 duplicate" in result.stderr
