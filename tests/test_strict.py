"""``check --strict``: the canonical form, each departure with its own message."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.checking.canonical_form import check_record_strict, strict_problem
from notation.cli import cli
from notation.errors import ErrorKind
from notation.formats.convert import convert_record
from notation.reader import read_records, read_string
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted([*ROOT.glob("records/*/examples.ugn"), *ROOT.glob("records/*/positions.ugn")])
CONFORMANCE = ROOT / "tests" / "data" / "conformance"


def strict_error(text: str, game: str | None = None) -> tuple[str, int, int, str]:
    (record,) = read_string(text)
    assert check_record(record, game).ok  # the import form accepts it
    verdict = check_record_strict(record, game)
    error = verdict.error
    assert error is not None and error.kind == ErrorKind.SYNTAX
    return error.message, error.line, error.column, error.move or ""


def test_the_four_departures_each_have_their_message() -> None:
    """Marks, short forms, letter case and move numbers, in Zombie Kidz where all apply."""
    head = '[Game "zombie-kidz"]\n[Players "2"]\n\n'
    # The opening of the first example record, canonical, then spoilt one way at a time.
    line = "1. R:b2-a2 G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n"
    (record,) = read_string(head + line)
    assert check_record_strict(record).ok
    # spoilt line: (message, where the move it is about starts in the line)
    cases = {
        "1. R:b2-a2 G:b2-a2 2. K:a2-a1 Y:a2-a1L *\n": (
            "write K:a2-a1x: this turn eliminates zombies (missing mark x)", "K:a2-a1 "
        ),
        "1. R:b2-a2 G:b2-a2 2. K:a2-a1x Y:a2-a1 *\n": (
            "write Y:a2-a1L: this turn locks a gate (missing mark L)", "Y:"
        ),
        "1. R:a2 G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": (
            "write R:b2-a2: the long form names where the pawn comes from (short form)", "R:"
        ),
        "1. r:B2-A2 G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": (
            "write R:b2-a2: letters in the wrong case (r:B2-A2)", "r:"
        ),
        "1. R:b2-a2 G:b2-a2 K:a2-a1x Y:a2-a1L *\n": (
            "write 2. before K:a2-a1x: the first turn of a round carries its number "
            "(missing move number)", "K:"
        ),
        "1. R:b2-a2 {a comment} G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": (
            "write 1... before G:b2-a2: the line resumes after a comment "
            "(missing move number)", "G:"
        ),
        "1. R:b2-a2 (R:b2-b1) G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": (
            "write 1. before R:b2-b1: the first turn of a round carries its number "
            "(missing move number)", "R:b2-b1"
        ),
        "1. R:b2-a2 G:b2-a2 (G:b2-b1) 2. K:a2-a1x Y:a2-a1L *\n": (
            "write 1... before G:b2-b1: a line of play starts here (missing move number)",
            "G:b2-b1",
        ),
        "1. R:b2-a2 G:b2-a2 (1... G:b2-b1) K:a2-a1x Y:a2-a1L *\n": (
            "write 2. before K:a2-a1x: the first turn of a round carries its number "
            "(missing move number)", "K:"
        ),
        "1. R:b2-a2 G:b2-a2 2. K:a2-a1x (2. W) Y:a2-a1L *\n": (
            "write 2... before Y:a2-a1L: the line resumes after a variation "
            "(missing move number)", "Y:"
        ),
    }
    for spoilt, (message, where) in cases.items():
        got = strict_error(head + spoilt)
        assert got[:3] == (message, 4, spoilt.index(where) + 1), spoilt


def test_each_departure_has_its_code() -> None:
    """A missing number, letter case alone, and any other spelling: three codes."""
    head = '[Game "zombie-kidz"]\n[Players "2"]\n\n'
    cases = {
        "1. R:b2-a2 G:b2-a2 2. K:a2-a1 Y:a2-a1L *\n": "strict-spelling",  # mark x missing
        "1. R:b2-a2 G:b2-a2 2. K:a2-a1x Y:a2-a1 *\n": "strict-spelling",  # mark L missing
        "1. R:a2 G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": "strict-spelling",  # short form
        "1. r:B2-A2 G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": "strict-letter-case",
        # the case is wrong, but so is more: the spelling is the case
        "1. R:b2-a2 G:b2-a2 2. k:A2-A1 Y:a2-a1L *\n": "strict-spelling",
        "1. R:b2-a2 G:b2-a2 K:a2-a1x Y:a2-a1L *\n": "strict-number-missing",
        "1. R:b2-a2 {a comment} G:b2-a2 2. K:a2-a1x Y:a2-a1L *\n": "strict-number-missing",
    }
    for spoilt, code in cases.items():
        (record,) = read_string(head + spoilt)
        error = check_record_strict(record).error
        assert error is not None and (error.kind, error.code) == ("syntax", code), spoilt
        assert strict_problem(record) == error


def test_tinkertown_capture_marks() -> None:
    # A capture written without its mark, and with the mark after the move.
    record_text = (ROOT / "records" / "tinkertown" / "examples.ugn").read_text().split(
        "\n\n[Game"
    )[0]
    (record,) = read_string(record_text)
    error = strict_problem(record)
    assert error is not None
    assert error.message == "write d2xd3: d2-d3x is another spelling of this move"
    spoilt = record_text.replace("11. b3xa3", "11. b3-a3")
    (record,) = read_string(spoilt)
    error = strict_problem(record)
    assert error is not None and error.move == "b3-a3"
    assert error.message == "write b3xa3: this move captures (missing capture mark)"


def test_the_first_defect_in_file_order_wins() -> None:
    # A strict problem before an illegal move is reported; after it, the illegal move is.
    (record,) = read_string("1. B1 b5 2. b1-b3 *\n")
    error = check_record_strict(record, "cave").error
    assert error is not None and (error.kind, error.move) == ("syntax", "B1")
    (record,) = read_string("1. b1 b5 2. b1-b3 B1 *\n")
    error = check_record_strict(record, "cave").error
    assert error is not None and (error.kind, error.move) == ("illegal", "b1-b3")


def test_records_without_a_game_are_left_to_the_ordinary_check() -> None:
    (record,) = read_string("1. b1 b5 *\n")
    assert check_record_strict(record).error == check_record(record).error
    assert strict_problem(record) is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_canonical_text_of_every_example_passes_strict(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for record in read_records(io.StringIO(text)):
        canonical = convert_record(record, "text").text
        (again,) = read_string(canonical)
        verdict = check_record_strict(again)
        assert verdict.ok, (record.index, verdict.error)


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_canonical_text_of_the_conformance_records_passes_strict(game: str) -> None:
    text = (CONFORMANCE / f"{game}-valid.txt").read_text(encoding="utf-8")
    records = list(read_records(io.StringIO(text)))
    refused = sum(not check_record_strict(r, game).ok for r in records)
    assert refused > 0  # written the many ways people write them
    for record in records:
        (again,) = read_string(convert_record(record, "text", game).text)
        assert check_record_strict(again).ok


def test_check_strict_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Game "cave"]\n\n1. b1 b5 2. B1-b2 *\n')
    plain = CliRunner().invoke(cli, ["check", str(path)])
    assert plain.exit_code == 0
    strict = CliRunner().invoke(cli, ["check", "--strict", str(path)])
    assert strict.exit_code == 1
    assert strict.output.splitlines() == [
        f"{path}:3:13: record 1, turn 3 (B1-b2): write b1-b2: letters in the wrong case (B1-b2)",
        "1 record in 1 file: 0 valid, 1 broken",
    ]
    as_json = CliRunner().invoke(cli, ["check", "--strict", "--format", "json", str(path)])
    assert '"kind": "syntax", "code": "strict-letter-case"' in as_json.output


def test_a_tag_name_in_the_wrong_case_is_its_own_defect_at_its_line(tmp_path: Path) -> None:
    """``[result "1-0"]`` is not the Result tag: --strict says so at the tag, in text and
    JSON, on a record that is otherwise valid; the ordinary check says nothing of it."""
    path = tmp_path / "game.txt"
    path.write_text('[Game "cave"]\n[result "1-0"]\n\n1. b1 b5 1-0\n', encoding="utf-8")
    assert CliRunner().invoke(cli, ["check", str(path)]).exit_code == 0
    strict = CliRunner().invoke(cli, ["check", "--strict", str(path)])
    assert strict.exit_code == 1
    assert strict.output.splitlines()[0] == (
        f"{path}:2:2: record 1: write Result: tag names are case-sensitive "
        "([result ...] is not [Result ...] and does not count)"
    )
    as_json = CliRunner().invoke(cli, ["check", "--strict", "--format", "json", str(path)])
    error = json.loads(as_json.output.splitlines()[0])["error"]
    assert (error["code"], error["line"], error["column"], error["kind"]) == (
        "strict-tag-case", 2, 2, "syntax"
    )
    (record,) = read_string(path.read_text(encoding="utf-8"))
    assert strict_problem(record) == check_record_strict(record).error


def test_a_tag_name_in_the_wrong_case_is_not_glued_to_another_error(tmp_path: Path) -> None:
    """On a broken record, a wrong number on line 5 says nothing of a tag on line 2;
    --all --strict lists each defect at its own line (every tag in the wrong case)."""
    path = tmp_path / "game.txt"
    text = '[Game "cave"]\n[result "1-0"]\n[red "Mina"]\n\n1. b1 b5 3. b1-b2 *\n'
    path.write_text(text, encoding="utf-8")
    plain = CliRunner().invoke(cli, ["check", str(path)])
    assert plain.output.splitlines()[0] == (
        f"{path}:5:10: record 1, turn 3 (b1-b2): move number 3. is wrong: turn 3 is the "
        "first turn of round 2, numbered 2."
    )
    every = CliRunner().invoke(cli, ["check", "--all", "--strict", "--format", "json", str(path)])
    errors = json.loads(every.output.splitlines()[0])["errors"]
    assert [(e["code"], e["line"], e["column"]) for e in errors] == [
        ("strict-tag-case", 2, 2), ("strict-tag-case", 3, 2), ("number-wrong", 5, 10)
    ]
    assert "Red" in errors[1]["message"] and "[result" not in errors[2]["message"]
