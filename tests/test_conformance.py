"""The shared conformance records (copied into tests/data/conformance) get their verdicts."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from notation.reader import read_file
from notation.replay import Verdict, check_record

HERE = Path(__file__).resolve().parent / "data" / "conformance"
EXPECTED: list[dict[str, Any]] = json.loads((HERE / "expected.json").read_text())


def _verdicts() -> dict[tuple[str, int], Verdict]:
    out: dict[tuple[str, int], Verdict] = {}
    games = {e["file"]: e["game"] for e in EXPECTED}
    for fname, game in games.items():
        for record in read_file(HERE / fname):
            out[(fname, record.index)] = check_record(record, game)
    return out


VERDICTS = _verdicts()


def test_every_record_has_a_verdict() -> None:
    assert len(VERDICTS) == len(EXPECTED) == 240


@pytest.mark.parametrize(
    "expected", EXPECTED, ids=[f"{e['file']}:{e['record']}" for e in EXPECTED]
)
def test_conformance_record(expected: dict[str, Any]) -> None:
    verdict = VERDICTS[(expected["file"], expected["record"])]
    assert verdict.ok == expected["ok"], verdict.error
    if expected["ok"]:
        assert verdict.result == expected["result"]
        assert verdict.turns == expected["turns"]
        return
    error = verdict.error
    assert error is not None
    assert error.kind == expected["kind"], (error, expected["note"])
    if expected["bad_turn"] is not None:
        assert error.turn == expected["bad_turn"], (error, expected["note"])
    else:
        assert error.turn is None
        assert error.line == expected["bad_line"], (error, expected["note"])
    # Every error points at a real place and says something.
    assert error.line >= 1 and error.column >= 1 and error.message


def test_errors_point_at_the_offending_line() -> None:
    """Where the expected turn is given, the line must agree too."""
    wrong = []
    for e in EXPECTED:
        if e["ok"]:
            continue
        error = VERDICTS[(e["file"], e["record"])].error
        assert error is not None
        if error.line != e["bad_line"]:
            wrong.append((e["file"], e["record"], error.line, e["bad_line"]))
    assert wrong == []


def test_by_game_counts() -> None:
    per_game: dict[str, list[bool]] = defaultdict(list)
    for e in EXPECTED:
        per_game[e["game"]].append(VERDICTS[(e["file"], e["record"])].ok)
    assert {g: sum(v) for g, v in per_game.items()} == {
        "tinkertown": 40,
        "cave": 40,
        "zombie-kidz": 40,
    }
