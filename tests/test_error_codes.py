"""Every error carries a stable code (notation.errors.CODES): a program sorts broken
records by code, not by message text. The examples of docs/errors.md give the cases."""

from __future__ import annotations

import re
from pathlib import Path

from notation.errors import CODES, Defect, ErrorKind
from notation.reader import read_string
from notation.replay import check_record

DOC = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
EXAMPLE = re.compile(r"```record( strict)?\n(.*?)```\n\n```error (\w+)\n", re.S)


def _codes_of_examples() -> dict[str, str]:
    """Each example record's error code, by the record's text (strict ones left out)."""
    out = {}
    for strict, text, _kind in EXAMPLE.findall(DOC.read_text(encoding="utf-8")):
        if strict:
            continue
        for record in read_string(text, source="game.txt"):
            error = record.error or check_record(record).error
            if error is not None:
                out[text] = error.code
                break
    return out


CODES_OF_EXAMPLES = _codes_of_examples()


def test_every_example_error_has_a_documented_code() -> None:
    assert len(CODES_OF_EXAMPLES) > 100
    unknown = {text: code for text, code in CODES_OF_EXAMPLES.items() if code not in CODES}
    assert not unknown


def test_the_reader_and_replay_cases_each_have_an_example() -> None:
    seen = set(CODES_OF_EXAMPLES.values())
    # game-missing needs a record without a Game tag, which the page does not show
    assert set(CODES) - seen <= {"game-missing"}, sorted(set(CODES) - seen)


def test_codes_name_cases_more_finely_than_kinds() -> None:
    (record,) = read_string('[Game "cave"]\n\n1. b1 b5 2... b1-b2 *\n')
    error = check_record(record).error
    assert error is not None and error.kind == ErrorKind.SYNTAX
    assert error.code == "number-wrong"
    (record,) = read_string('[Game "cave"]\n\n1. b1 b5 (\n')
    assert record.error is not None and record.error.code == "variation-unclosed"
    (record,) = read_string("1. b1 b5 *\n")
    verdict = check_record(record)
    assert verdict.error is not None and verdict.error.code == "game-missing"


def test_an_error_made_without_a_code_gets_its_kind() -> None:
    error = Defect(ErrorKind.ILLEGAL, "no", 1, 1)
    assert error.code == "illegal"
    assert error.located(file="f", record=2).code == "illegal"
    # the JSON form stays as it was (check --json output is unchanged)
    assert "code" not in error.to_dict()
