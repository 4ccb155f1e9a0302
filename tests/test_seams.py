"""The seams between the layers: what a newcomer met in the first hour.

Converting keeps verdicts and records as they are, the tool reads its own JSON, the
reader points at the real problem and hints at the usual slips.
"""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.collections.generate import generate_records
from notation.formats.annotate import annotate_record
from notation.formats.convert import convert_record, read_json_records, record_from_json
from notation.reader import read_records, read_string
from notation.replay import check_record
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
GAMES = ("tinkertown", "cave", "zombie-kidz")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout_bytes.decode(), result.stderr


# -- converting never changes a verdict ------------------------------------------------


def _one_defect(rng: random.Random, text: str) -> str:
    """A generated record with one token changed: a move made illegal or malformed, a
    capture mark added, a move number changed."""
    head, _, movetext = text.partition("\n\n")
    tokens = movetext.split()
    index = rng.randrange(len(tokens) - 1)
    token = tokens[index]
    if token[0].isdigit():
        tokens[index] = f"{int(token.rstrip('.')) + 1}{token[len(token.rstrip('.')):]}"
    else:
        tokens[index] = rng.choice([token + "x", token[::-1], tokens[max(0, index - 2)]])
    return head + "\n\n" + " ".join(tokens) + "\n"


def _broken_corpus() -> list[tuple[str, str]]:
    """(game, text) of broken records: the conformance's and generated one-defect ones."""
    found = []
    for game in GAMES:
        text = (CONFORMANCE / f"{game}-invalid.txt").read_text()
        found += [(game, r.raw) for r in read_records(io.StringIO(text), keep_raw=True)]
        rng = random.Random(game)
        generated = list(write_records(generate_records(game, 40, seed=7, max_turns=40)))
        for record_text in generated:
            found.append((game, _one_defect(rng, record_text.lstrip("\n"))))
    return [(g, t) for g, t in found if t]


@pytest.mark.parametrize("to", ["text", "plain", "json"])
def test_converting_a_broken_record_never_changes_its_verdict(to: str) -> None:
    changed = []
    count = 0
    for game, text in _broken_corpus():
        (record,) = read_records(io.StringIO(text), keep_raw=True)
        before = check_record(record, game)
        if before.ok:
            continue
        count += 1
        converted = convert_record(record, to, game)
        assert converted.verbatim
        if to == "json":
            (again,) = read_json_records(io.StringIO(converted.text))
        else:
            (again,) = read_records(io.StringIO(converted.text), keep_raw=True)
            assert converted.text.rstrip("\n") == text.rstrip("\n")
        after = check_record(again, game)
        assert before.error is not None and after.error is not None
        key = (before.error.kind, before.error.turn, before.error.line)
        if key != (after.error.kind, after.error.turn, after.error.line):
            changed.append((text, before.error, after.error))
    assert count > 100
    assert not changed


def test_convert_record_does_not_change_the_record() -> None:
    (record,) = read_string('[Red "R"]\n[Game "tinkertown"]\n\nD3 D2,B5 {c} (C3,G6) *\n')
    before = copy.deepcopy(record)
    for to in ("text", "plain", "json"):
        convert_record(record, to, "tinkertown")
        assert record == before


def test_annotate_is_idempotent_around_numbers_and_results() -> None:
    text = '[Game "cave"]\n\n1. b1 {first} b5 2. {before the move} b1-b2 {x} * {after the result}\n'
    (record,) = read_records(io.StringIO(text), keep_raw=True)
    once = annotate_record(record).text
    assert "2. {before the move} b1-b2" in once
    assert once.rstrip().endswith("* {after the result}")
    (again,) = read_records(io.StringIO(once), keep_raw=True)
    assert annotate_record(again).text == once
    # Converting keeps them where they were too.
    converted = convert_record(read_string(text)[0], "text").text
    assert "2. {before the move} b1-b2" in converted and converted.rstrip().endswith(
        "* {after the result}"
    )
    as_json = convert_record(read_string(text)[0], "json").text
    assert convert_record(record_from_json(json.loads(as_json)), "text").text == converted


# -- the tool reads what it writes -----------------------------------------------------


@pytest.fixture
def json_file(tmp_path: Path) -> Path:
    code, out, _ = run("convert", "--to", "json", str(ROOT / "records" / "cave" / "examples.ugn"))
    assert code == 0
    path = tmp_path / "games.out"  # a name that says nothing: found by content
    path.write_text(out)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("check",),
        ("show", "--record", "2"),
        ("diagram", "--record", "2"),
        ("html",),
        ("annotate",),
        ("convert", "--to", "text"),
    ],
)
def test_every_command_reads_json_lines(json_file: Path, args: tuple[str, ...]) -> None:
    code, out, err = run(*args, str(json_file))
    assert code == 0, err
    assert "no Game tag" not in out + err


def test_check_reads_json_lines_from_stdin_and_goes_on_after_a_bad_line(json_file: Path) -> None:
    lines = json_file.read_text().splitlines(keepends=True)
    text = lines[0] + '{"format": "notation-record/1", "moves": 3}\n' + "".join(lines[1:])
    code, out, _ = run("check", "-", stdin=text)
    assert code == 1
    assert f"{len(lines) + 1} records" in out and "1 broken" in out


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda o: o["moves"][0].update(suffix=" {"), "suffix"),
        (lambda o: o["moves"][0].update(nags=[-5]), "glyphs"),
        (lambda o: o["tags"].append(["Event", "two\nlines"]), "line break"),
        (lambda o: o["tags"].append(["Na]me", "x"]), "tag name"),
        (lambda o: o["moves"][0].update(text="b1 b2"), "move"),
        (lambda o: o.update(surprise=1), "unknown key"),
        (lambda o: o["moves"][0]["comments_after"].append({"text": 5, "braced": True}), "text"),
    ],
)
def test_json_the_schema_forbids_or_text_cannot_hold_is_refused(
    tmp_path: Path, change: object, problem: str
) -> None:
    code, out, _ = run("convert", "--to", "json", "--game", "cave", "-", stdin="1. b1 b5 *\n")
    obj = json.loads(out)
    change(obj)  # type: ignore[operator]
    source = tmp_path / "bad.jsonl"
    source.write_text(json.dumps(obj) + "\n")
    code, out, err = run("convert", "--to", "text", str(source))
    assert code == 3 and problem in err and out == ""


# -- errors point at the real problem --------------------------------------------------


def test_a_missing_result_does_not_hide_an_earlier_defect_on_its_line() -> None:
    (record,) = read_string("1. d3 d4 2. c5,f2 e2,g5\n")
    error = check_record(record, "tinkertown").error
    assert error is not None and error.move == "d4" and error.column == 7
    (record,) = read_string("1. d3 d2,b5 2. c5,f2 e2,g5\n")
    error = check_record(record, "tinkertown").error
    assert error is not None and "no result" in error.message and error.column == 27


@pytest.mark.parametrize(
    ("movetext", "hint"),
    [
        ("1. b1 b5 1/2", "a draw is written 1/2-1/2"),
        ("1. b1 b5 1 - 0", "without spaces: 1-0"),
        ("1. b1 b5 0 - 1", "without spaces: 0-1"),
        ("1. b1 b5 1/2 - 1/2", "without spaces: 1/2-1/2"),
    ],
)
def test_results_written_the_usual_wrong_ways_are_named(movetext: str, hint: str) -> None:
    (record,) = read_string(movetext + "\n")
    error = check_record(record, "cave").error
    assert error is not None and hint in error.message and error.column == 10


def test_a_semicolon_for_a_comma_is_named() -> None:
    (record,) = read_string("1. d3 d2;b5 2. c5,f2 e2,g5 *\n")
    error = check_record(record, "tinkertown").error
    assert error is not None and "did you mean d2,b5?" in error.message
    (record,) = read_string("1. d3 d2,b5 ; fine so far *\n")
    error = check_record(record, "tinkertown").error
    assert error is not None and "inside the ';' comment" in error.message


def test_a_tag_name_in_the_wrong_case_is_named() -> None:
    (record,) = read_string('[game "cave"]\n\n1. b1 b5 *\n')
    error = check_record(record).error
    assert error is not None and "[game ...] at line 1 is not [Game ...]" in error.message
    (record,) = read_string('[Game "zombie-kidz"]\n[players "3"]\n\n1. W W W 2. W *\n')
    error = check_record(record).error
    assert error is not None and "[players ...] at line 2" in error.message


def test_escape_lines_are_ignored_wherever_they_stand() -> None:
    text = '% a header\n[Game "cave"]\n% between tags\n\n1. b1 {a\n% inside\ncomment} b5\n% x\n*\n'
    (record,) = read_records(io.StringIO(text), keep_raw=True)
    verdict = check_record(record)
    assert verdict.ok and verdict.turns == 2
    assert [c.text for c in record.moves[0].comments_after] == ["a\ncomment"]
    assert record.raw == text  # and kept with the record's text, not lost


def test_annotate_in_place_refuses_json_lines_before_touching_any_file(
    tmp_path: Path, json_file: Path
) -> None:
    text_file = tmp_path / "a.txt"
    text_file.write_text('[Game "cave"]\n\n1. b1 b5 *\n')
    before = json_file.read_bytes()
    code, _, err = run("annotate", "--in-place", str(text_file), str(json_file))
    assert code == 2 and "JSON Lines" in err
    assert json_file.read_bytes() == before
    assert text_file.read_text() == '[Game "cave"]\n\n1. b1 b5 *\n'
