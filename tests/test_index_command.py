"""Record N without reading the records before it: ``select_record`` (show, diagram,
analyze, replay), ``notation.collections.index.find_record`` and ``record_at``, and the side index
``notation index`` writes, trusted only while it is of the file as it is."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import notation.collections.index
from notation.cli import cli
from notation.collections.index import (
    IndexProblem,
    RecordNotFound,
    build_index,
    find_index,
    find_record,
    load_index,
    record_at,
    write_index,
)
from notation.commands._one_record import select_record
from notation.files.textfile import decoded_lines
from notation.formats.convert import read_any_records
from notation.record import Record

ROOT = Path(__file__).resolve().parent.parent
CLUB = ROOT / "records" / "collections" / "club.ugn"
SAMPLES = sorted(
    path for path in (ROOT / "records").rglob("*")
    if path.is_file() and path.suffix in (".ugn", ".txt", ".json", ".jsonl")
) + sorted((ROOT / "tests" / "data").rglob("*.txt"))

#: Records that put the cutting to the test: comments with brackets, records after a
#: result on the same line, headers without moves, Latin-1, CRLF, a broken record.
AWKWARD = (
    b'\xef\xbb\xbf[Game "cave"]\r\n[Event "a \\"quoted\\" [name]"]\r\n\r\n1. b1 c5 *\r\n\r\n'
    b'{a comment first [Event "x"]}\n[Game "cave"]\n\n1. b1 {a [comment]\n\n[not a tag} c5 *\n'
    b'[Game "cave"]\n\n1. b1 * [Game "cave"] 1. c5 *\n\n[Game "cave"]\n[Red "Jos\xe9"]\n\n'
    b'[Game "cave"]\n\n1. b1 ( 1. c1 1-0 ) *\n\n1. b1 c5 *\n\n[Game "cave"]\n\n'
    b'1. b1 {never closed\n\n[Game "cave"]\n\n1. b1 *\n'
)


def full(path: Path) -> list[Record]:
    with open(path, "rb") as handle:
        return list(read_any_records(decoded_lines(handle, lambda: None), str(path)))


def same(got: Record, expected: Record) -> None:
    assert got == expected
    assert (got.index, got.first_line, got.last_line, got.source) == (
        expected.index, expected.first_line, expected.last_line, expected.source,
    )
    assert str(got.error) == str(expected.error)


@pytest.fixture
def big(tmp_path: Path) -> Path:
    """A file of 150 records, the 120th broken far into the file."""
    records = []
    for number in range(1, 151):
        moves = "1. b1 c5 2. b1-b2 ) c5-b5 *" if number == 120 else "1. b1 c5 2. b1-b2 c5-b5 *"
        records.append(f'[Game "cave"]\n[Round "{number}"]\n\n{moves}\n')
    path = tmp_path / "big.txt"
    path.write_text("\n".join(records), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", SAMPLES, ids=[str(p.relative_to(ROOT)) for p in SAMPLES])
def test_every_record_by_offset_is_the_record_of_a_full_reading(
    path: Path, tmp_path: Path
) -> None:
    expected = full(path)
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    for record in expected:  # cut apart, without an index
        same(record_at(copy, record.index, str(path)), record)
    index = build_index(copy)
    assert index.records == len(expected)
    write_index(copy, index)
    for record in expected:  # through the index
        same(load_index(find_index(copy) or Path(), copy).read(copy, record.index, str(path)),
             record)


def test_awkward_records_by_offset_and_through_streams(tmp_path: Path) -> None:
    path = tmp_path / "awkward.txt"
    path.write_bytes(AWKWARD)
    expected = full(path)
    assert len(expected) == 10 and any(r.error for r in expected)
    gz = tmp_path / "awkward.txt.gz"
    gz.write_bytes(gzip.compress(AWKWARD))
    write_index(path, build_index(path))
    for record in expected:
        same(record_at(path, record.index), record)
        same(record_at(gz, record.index, str(path)), record)
        same(find_record(io.BytesIO(AWKWARD), record.index, str(path)), record)
        same(find_record(iter(AWKWARD.splitlines(keepends=True)), record.index, str(path)),
             record)
    with pytest.raises(RecordNotFound) as caught:
        record_at(path, 11)
    assert caught.value.count == 10


def test_a_broken_record_far_into_a_file_says_the_lines_of_the_file(big: Path) -> None:
    expected = full(big)[119]
    assert expected.error is not None and expected.error.line == 120 * 5 - 1
    for indexed in (False, True):
        if indexed:
            assert CliRunner().invoke(cli, ["index", str(big)]).exit_code == 0
        record = select_record(str(big), 120)
        same(record, expected)
        result = CliRunner().invoke(cli, ["show", str(big), "--record", "120"])
        assert result.exit_code == 1
        assert f"big.txt:{expected.error.line}:{expected.error.column}:" in result.output
        assert str(expected.error.located(file=str(big), record=120)) in result.output


def test_the_index_command_writes_an_index_the_commands_use(
    big: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = CliRunner().invoke(cli, ["index", str(big)])
    assert result.exit_code == 0
    assert result.output == f"{big}: 150 records, index in big.txt.idx\n"
    assert find_index(big) == big.with_name("big.txt.idx")

    def no_scan(*args: object, **kwargs: object) -> Record:
        raise AssertionError("the file was scanned despite its index")

    monkeypatch.setattr(notation.collections.index, "find_record", no_scan)
    for command in ("show", "replay"):
        result = CliRunner().invoke(cli, [command, str(big), "--record", "77", "--position"]
                                    if command == "show" else [command, str(big), "--record", "77"])
        assert result.exit_code == 0, result.output
    expected = full(big)
    for number in (1, 77, 150):
        same(select_record(str(big), number), expected[number - 1])
    result = CliRunner().invoke(cli, ["show", str(big), "--record", "151"])
    assert result.exit_code == 2
    assert "has no record 151 (it has 150)" in result.output


def test_folders_and_several_files_are_indexed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(CLUB.read_bytes())
    (tmp_path / "b.txt.gz").write_bytes(gzip.compress(CLUB.read_bytes()))
    result = CliRunner().invoke(cli, ["index", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a.txt.idx").is_file() and not (tmp_path / "b.txt.gz.idx").exists()
    # the index is not taken for a record file of the folder
    result = CliRunner().invoke(cli, ["check", str(tmp_path)])
    assert "2 files" in result.output


def test_an_index_out_of_date_is_never_used(big: Path) -> None:
    CliRunner().invoke(cli, ["index", str(big)])
    stat = big.stat()
    data = big.read_bytes()
    # The same size and time, another record 2: only the hash of the head tells.
    changed = data.replace(b'[Round "2"]', b'[Round "X"]', 1)
    big.write_bytes(changed)
    os.utime(big, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(IndexProblem, match="out of date"):
        load_index(big.with_name("big.txt.idx"), big)
    result = CliRunner().invoke(cli, ["show", str(big), "--record", "2", "--position"])
    assert result.exit_code == 0
    assert "out of date" in result.stderr and "notation index" in result.stderr
    same(select_record(str(big), 2), full(big)[1])
    # A record added: the index says 150, the file has 151.
    big.write_bytes(data + b'\n[Game "cave"]\n\n1. b1 *\n')
    result = CliRunner().invoke(cli, ["show", str(big), "--record", "151", "--position"])
    assert result.exit_code == 0 and "out of date" in result.stderr


def test_a_changed_chunk_far_from_the_edges_is_found_out(tmp_path: Path) -> None:
    """Size, time and both ends alike: the CRC of the chunk read tells."""
    records = [f'[Game "cave"]\n[Round "{n:05}"]\n\n1. b1 c5 2. b1-b2 c5-b5 *\n'
               for n in range(1, 4001)]
    path = tmp_path / "long.txt"
    data = "\n".join(records).encode()
    assert len(data) > 3 * 64 * 1024
    path.write_bytes(data)
    index = build_index(path)
    write_index(path, index)
    stat = path.stat()
    path.write_bytes(data.replace(b'[Round "02000"]', b'[Round "0200X"]'))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    loaded = load_index(path.with_name("long.txt.idx"), path)  # the stamp is alike
    with pytest.raises(IndexProblem, match="out of date"):
        loaded.read(path, 2000)
    assert record_at(path, 2000).tag("Round") == "0200X"


def test_an_index_of_another_file_or_no_index_at_all(tmp_path: Path) -> None:
    one, other = tmp_path / "one.txt", tmp_path / "other.txt"
    one.write_bytes(CLUB.read_bytes())
    other.write_bytes(AWKWARD)
    write_index(one, build_index(one))
    other.with_name("other.txt.idx").write_bytes(one.with_name("one.txt.idx").read_bytes())
    result = CliRunner().invoke(cli, ["show", str(other), "--record", "9", "--position"])
    assert "is the index of another file (one.txt)" in result.stderr
    same(select_record(str(other), 9), full(other)[8])
    for garbage in (b"", b"not an index\n", one.with_name("one.txt.idx").read_bytes()[:-3]):
        other.with_name("other.txt.idx").write_bytes(garbage)
        result = CliRunner().invoke(cli, ["show", str(other), "--record", "1", "--position"])
        assert result.exit_code == 0
        assert re.search(r"not an index of records|is damaged", result.stderr)
        assert "Traceback" not in result.output


def test_a_folder_that_cannot_be_written_puts_the_index_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "data" / "club.ugn"
    path.parent.mkdir()
    path.write_bytes(CLUB.read_bytes())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    real = notation.collections.index.replace_file

    def read_only(target: Path, data: bytes) -> None:
        if target.parent == path.parent:
            raise PermissionError(13, "Permission denied", str(target))
        real(target, data)

    monkeypatch.setattr(notation.collections.index, "replace_file", read_only)
    result = CliRunner().invoke(cli, ["index", str(path)])
    assert result.exit_code == 0, result.output
    assert "cannot be written" in result.output and str(tmp_path / "cache") in result.output
    place = find_index(path)
    assert place is not None and place.parent == tmp_path / "cache" / "notation" / "index"
    same(select_record(str(path), 26), full(path)[25])
    # Neither place: a message, exit 2.
    def nowhere(target: Path, data: bytes) -> None:
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(notation.collections.index, "replace_file", nowhere)
    result = CliRunner().invoke(cli, ["index", str(path)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {path}: Permission denied\n"


def test_what_a_user_can_get_wrong_is_a_message(tmp_path: Path) -> None:
    runner = CliRunner()
    cases = [
        (["index", "-"], "standard input cannot be indexed"),
        (["index", str(tmp_path / "nope.txt")], "no such file or folder"),
        (["show", str(tmp_path / "nope.txt")], "does not exist"),
        (["show", str(tmp_path)], "is a directory"),
        (["diagram", str(tmp_path)], "is a folder"),
        (["show", "-", "--record", "3"], "<stdin> has no record 3 (it has 1)"),
        (["show", "-"], "no records found in <stdin>"),
    ]
    (tmp_path / "x.txt").write_bytes(CLUB.read_bytes())
    for args, message in cases:
        stdin = '[Game "cave"]\n\n1. b1 *\n' if args[-1] == "3" else ""
        result = runner.invoke(cli, args, input=stdin)
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
    gz = tmp_path / "x.txt.gz"
    gz.write_bytes(gzip.compress(CLUB.read_bytes()))
    result = runner.invoke(cli, ["index", str(gz)])
    assert result.exit_code == 2 and "is compressed" in result.stderr
    damaged = tmp_path / "cut.txt.gz"
    damaged.write_bytes(gzip.compress(CLUB.read_bytes())[:300])
    result = runner.invoke(cli, ["show", str(damaged), "--record", "20"])
    assert result.exit_code == 2 and "damaged or cut short" in result.output
    assert runner.invoke(cli, ["index", str(tmp_path / "x.txt")]).exit_code == 0
    result = runner.invoke(cli, ["index", str(tmp_path / "x.txt.idx")])
    assert result.exit_code == 2 and "is an index itself" in result.stderr
    result = runner.invoke(cli, ["show", str(tmp_path / "x.txt.idx"), "--record", "2"])
    assert result.exit_code == 2 and "is an index (made by `notation index`)" in result.output


def test_standard_input_and_compressed_files_are_read_through() -> None:
    expected = full(CLUB)
    data = CLUB.read_bytes()
    for number in (1, 13, 26):
        result = CliRunner().invoke(cli, ["show", "-", "--record", str(number), "--position"],
                                    input=data)
        by_file = CliRunner().invoke(cli, ["show", str(CLUB), "--record", str(number),
                                           "--position"])
        assert result.exit_code == by_file.exit_code
        assert result.stdout == by_file.stdout
        same(find_record(io.BytesIO(data), number, str(CLUB)), expected[number - 1])


def test_a_record_not_in_utf8_is_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(b'[Game "cave"]\n\n1. b1 *\n\n[Game "cave"]\n[Red "Jos\xe9"]\n\n1. b1 *\n')
    for number, warned in ((1, False), (2, True)):
        result = CliRunner().invoke(cli, ["show", str(path), "--record", str(number),
                                          "--position"])
        assert result.exit_code == 0
        assert ("is not UTF-8" in result.stderr) is warned


def test_select_record_stays_a_click_error_for_a_missing_record(big: Path) -> None:
    with pytest.raises(click.BadParameter, match=r"has no record 200 \(it has 150\)"):
        select_record(str(big), 200)


def test_html_makes_the_page_of_one_record(big: Path, tmp_path: Path) -> None:
    CliRunner().invoke(cli, ["index", str(big)])
    page = tmp_path / "one.html"
    result = CliRunner().invoke(cli, ["html", str(big), "--record", "77", "-o", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert f'"records":[{{"index":77,"source":{json.dumps(str(big))}' in text
    assert '["Round","77"]' in text and '"index":78' not in text
    result = CliRunner().invoke(cli, ["html", str(big), str(big), "--record", "2"])
    assert result.exit_code == 2 and "one FILE" in result.output
    result = CliRunner().invoke(cli, ["html", str(big), "--record", "151"])
    assert result.exit_code == 2 and "has no record 151 (it has 150)" in result.output
