"""A defect carries the edits that mend it as values (``Defect.fixes``): each producer of
a hint attaches its edit where it finds the defect (the reader, the replay, the strict
check, ``check --all``), nobody reads them back out of messages, and a fix never makes
the record worse.  ``check --format json`` writes them, as docs/check.schema.json says."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from notation.checking.canonical_form import check_record_strict
from notation.checking.every_defect import check_replay
from notation.cli import cli
from notation.editing.buffer import RecordDocument, check_text, check_text_strict
from notation.errors import Defect, Fix
from notation.reader import read_string, visit_records
from notation.replay import check_record
from tests.test_check_all import TYPOS

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "check.schema.json").read_text(encoding="utf-8"))
BROKEN = sorted((ROOT / "records").glob("*/broken.ugn")) + sorted(
    (ROOT / "tests" / "data" / "conformance").glob("*-invalid.txt")
)


def first(text: str) -> Defect:
    """The defect a plain check finds first in the one record of ``text``."""
    (record,) = read_string(text)
    error = check_record(record).error
    assert error is not None, text
    return error


def every(text: str) -> list[Defect]:
    """Every defect ``check --all`` finds in ``text``."""
    found: list[Defect] = []
    lines = io.StringIO(text, newline="")
    for verdict in visit_records(lines, check_replay(every=True), keep_raw=True):
        found += verdict.errors or ()
    return found


def edits(defect: Defect) -> list[tuple[int, int, int, str]]:
    return [(fix.line, fix.start, fix.end, fix.replacement) for fix in defect.fixes]


# -- the reader: results written the wrong way, or not at all ---------------------------


def test_a_result_written_with_spaces() -> None:
    defect = first('[Game "cave"]\n\n1. b1 b5 1 - 0\n')
    assert defect.code == "result-spaced"
    assert defect.fixes == (Fix("Write 1-0", 3, 10, 15, "1-0"),)


def test_a_draw_written_1_2_and_a_game_without_draws() -> None:
    assert edits(first('[Game "cave"]\n\n1. b1 b5 1/2\n')) == [(3, 10, 13, "1/2-1/2")]
    # Zombie Kidz has no draws: 1/2-1/2 would be another defect, so no fix.
    defect = first('[Game "zombie-kidz"]\n[Players "2"]\n\n1. R:b2-a2 G:b2-a2 1/2\n')
    assert defect.code == "result-draw-spelling" and defect.fixes == ()


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ('[Game "cave"]\n\n1. b1 b5\n', Fix("Add the result *", 3, 9, 9, " *")),
        ('[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5\n',
         Fix("Add the result 1-0", 4, 9, 9, " 1-0")),
        ('[Game "cave"]\n\n1. b1 b5 \n', Fix("Add the result *", 3, 9, 9, " *")),
    ],
    ids=["any", "the-tags", "trailing-space"],
)
def test_a_missing_result(text: str, fix: Fix) -> None:
    defect = first(text)
    assert defect.code == "result-missing"
    assert defect.fixes == (fix,)


def test_no_missing_result_fix_where_no_result_checks() -> None:
    # The Result tag names a result Tinkertown has not: the message says so, no fix.
    defect = first('[Game "tinkertown"]\n[Result "1/2-1/2"]\n\n1. d3 d2,b5\n')
    assert defect.code == "result-missing" and defect.fixes == ()
    # A result inside a ';' comment: the hint says where it is; no edit is sure.
    defect = first('[Game "cave"]\n\n1. b1 b5 ; 1-0\n')
    assert defect.code == "result-missing" and defect.fixes == ()


# -- the replay: numbers, results, games, tags, a turn cut in two ---------------------------


def test_a_wrong_move_number() -> None:
    defect = first('[Game "cave"]\n\n1. b1 b5 3. b1-b2 *\n')
    assert defect.code == "number-wrong"
    assert defect.fixes == (Fix("Number it 2.", 3, 10, 12, "2."),)


def test_a_result_the_rules_did_not_end_with() -> None:
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text(encoding="utf-8")
    record = text.split("\n\n[", 1)[0].rstrip().replace('[Result "1-0"]\n', "")
    assert record.endswith("} 1-0")
    record = record.removesuffix("1-0") + "0-1\n"
    defect = first(record)
    assert defect.code == "result-contradicts-rules"
    line = record.splitlines()[defect.line - 1]
    (fix,) = defect.fixes
    assert (fix.line, fix.replacement) == (defect.line, "1-0")
    assert line[fix.start - 1 : fix.end - 1] == "0-1"
    assert fix.applied(line).endswith("} 1-0")


def test_an_unknown_game_and_a_game_tag_in_the_wrong_case() -> None:
    defect = first('[Game "cavee"]\n\n1. b1 b5 *\n')
    assert defect.code == "game-unknown"
    assert defect.fixes == (Fix("Write the game cave", 1, 8, 13, "cave"),)
    defect = first('[Event "x"]\n[game "cave"]\n\n1. b1 b5 *\n')
    assert defect.code == "game-missing"
    assert defect.fixes == (Fix("Rename the tag game to Game", 2, 2, 6, "Game"),)


def test_a_setup_tag_in_the_wrong_case_is_mended_at_its_own_line() -> None:
    defect = first('[Game "zombie-kidz"]\n[players "3"]\n\n1. R G B 2. R *\n')
    assert defect.code == "number-wrong" and defect.line == 4
    assert edits(defect) == [(4, 10, 12, "2..."), (2, 2, 9, "Players")]


def test_a_turn_cut_in_two_by_a_space_or_a_semicolon() -> None:
    defect = first('[Game "tinkertown"]\n\n1. d3 d2, b5! 2. c5,f2 e2,g5 *\n')
    # The second square's suffix stays as written.
    assert defect.fixes == (Fix("Write d2,b5", 3, 7, 13, "d2,b5"),)
    defect = first('[Game "tinkertown"]\n\n1. d3 d2;b5 2. c5,f2 e2,g5 *\n')
    assert defect.fixes == (Fix("Replace with d2,b5", 3, 7, 12, "d2,b5"),)


# -- the strict check ------------------------------------------------------------------------


def test_the_strict_forms() -> None:
    (record,) = read_string('[Game "cave"]\n\n1. B1! b5 b1-b2 *\n')
    error = check_record_strict(record).error
    assert error is not None and error.code == "strict-letter-case"
    assert error.fixes == (Fix("Write b1", 3, 4, 6, "b1"),)  # the "!" stays
    (record,) = read_string('[Game "cave"]\n\n1. b1 b5 b1-b2 *\n')
    error = check_record_strict(record).error
    assert error is not None and error.code == "strict-number-missing"
    assert error.fixes == (Fix("Insert 2.", 3, 10, 10, "2. "),)
    (record,) = read_string('[Game "cave"]\n[result "1-0"]\n\n1. b1 b5 *\n')
    error = check_record_strict(record).error
    assert error is not None and error.code == "strict-tag-case"
    assert error.fixes == (Fix("Rename the tag result to Result", 2, 2, 8, "Result"),)


# -- check --all: the moves likely meant -----------------------------------------------------


def test_the_move_meant_and_the_moves_no_one_can_tell_apart() -> None:
    found = every(TYPOS)
    assert [(d.turn, edits(d)) for d in found] == [
        (24, [(6, 11, 16, "f5-f7")]),
        (26, [(6, 37, 42, "b4-b3"), (6, 37, 42, "b4-b5")]),
        (30, [(6, 64, 70, "e1-f1")]),
    ]
    assert all(fix.turn == d.turn and fix.title == f"Replace with {fix.replacement}"
               for d in found for fix in d.fixes)


def test_the_move_meant_across_a_space_after_the_comma() -> None:
    (defect,) = every('[Game "tinkertown"]\n\n1. d3 d2, b5 2. c5,f2 e2,g5 *\n')
    assert edits(defect)[0] == (3, 7, 13, "d2,b5") and defect.fixes[0].turn == 2


def test_the_first_defect_of_all_keeps_the_checks_fixes() -> None:
    """``--all`` says the first defect as the check does: the result the rules or the tag
    name is the one added, not the reader's ``*``."""
    (defect,) = every('[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5\n')
    assert edits(defect) == [(4, 9, 9, " 1-0")]


# -- a fix never makes the record worse ----------------------------------------------------


def _count(lines: list[str], first_line: int, strict: bool) -> int:
    count = len(check_text(lines, first_line, None).defects)
    if strict:
        count += len(check_text_strict(lines, first_line, None).defects)
    return count


@pytest.mark.parametrize("path", BROKEN, ids=lambda path: f"{path.parent.name}-{path.stem}")
def test_no_fix_of_a_bundled_broken_record_adds_a_defect(path: Path) -> None:
    """Every fix of every defect ``check --all`` finds, and the first strict-form fix of
    each record, made in the record's text: the record has no more defects than before
    (a fix may let a check go further, and see what it could not reach)."""
    document = RecordDocument(path.read_text(encoding="utf-8"))
    document.check_all()
    tried, strict_seen = 0, set()
    for finding in document.findings():
        defect = finding.defect
        chunk = document.chunk_at(defect.line - 1)
        if not defect.fixes or (finding.strict and chunk.start in strict_seen):
            continue
        if finding.strict:
            strict_seen.add(chunk.start)
        lines, at = chunk.lines, chunk.start + 1
        before = _count(lines, at, finding.strict)
        for fix in defect.fixes:
            fixed = [*lines]
            fixed[fix.line - at] = fix.applied(lines[fix.line - at])
            assert _count(fixed, at, finding.strict) <= before, (defect, fix)
            tried += 1
    assert tried >= 5  # the file has fixes to try


# -- check --format json --------------------------------------------------------------------


@pytest.mark.parametrize("options", [[], ["--all"], ["--all", "--strict"]],
                         ids=["check", "all", "all-strict"])
def test_check_json_lines_follow_the_schema(options: list[str]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    paths = [str(path) for path in BROKEN]
    result = CliRunner().invoke(cli, ["check", *options, "--format", "json", *paths])
    assert result.exit_code == 1
    verdicts = [json.loads(line) for line in result.output.splitlines()]
    for verdict in verdicts:
        validator.validate(verdict)
    fixes = [fix for verdict in verdicts for error in verdict.get("errors") or
             [verdict["error"] or {}] for fix in error.get("fixes", ())]
    assert fixes and all(fix["line"] >= 1 and fix["start"] <= fix["end"] for fix in fixes)
    if options:
        assert any("turn" in fix for fix in fixes)  # a move meant, with its turn


def test_convert_json_of_broken_records_follows_the_record_schema() -> None:
    """A broken record's JSON (``convert --to json``) carries its error as ``check``
    does, fixes included: docs/record.schema.json allows what it has."""
    schema = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    result = CliRunner().invoke(cli, ["convert", *map(str, BROKEN), "--to", "json"])
    # (warnings on standard error, which the runner may mix in, are no JSON lines)
    lines = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert len(lines) > 100
    assert any(line["error"] and line["error"].get("fixes") for line in lines)
    for line in lines:
        validator.validate(line)
