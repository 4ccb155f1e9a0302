"""The bundled records: every example is valid, every broken one breaks where it says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from notation.reader import read_file
from notation.replay import check_record

RECORDS = Path(__file__).resolve().parent.parent / "records"
#: A folder of records per game, and collections/ for the docs' examples of many records.
GAMES = sorted(p.name for p in RECORDS.iterdir() if p.is_dir() and p.name != "collections")


def test_every_game_has_records() -> None:
    assert GAMES == ["cave", "tinkertown", "zombie-kidz"]


def test_the_club_collection_is_what_its_script_makes(tmp_path: Path) -> None:
    """records/collections/club.ugn is generated, seeded: the script makes it again, byte
    for byte, and every record says where it comes from."""
    import runpy

    script = RECORDS / "collections" / "make_club.py"
    module = runpy.run_path(str(script), run_name="make_club")
    module["main"](tmp_path / "club.ugn")
    club = RECORDS / "collections" / "club.ugn"
    assert (tmp_path / "club.ugn").read_bytes() == club.read_bytes()
    records = list(read_file(club))
    assert len(records) == 26
    assert all("make_club.py" in (r.tag("Source") or "") for r in records)
    assert sum(not check_record(r).ok for r in records) == 1


@pytest.mark.parametrize("game", GAMES)
def test_examples_are_valid_and_labelled(game: str) -> None:
    records = list(read_file(RECORDS / game / "examples.ugn"))
    assert len(records) >= 3
    for record in records:
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert verdict.game == game
        # Honest labels: every example says where it comes from.
        source = record.tag("Source") or ""
        assert "composed" in source or "generated" in source, (record.index, source)


@pytest.mark.parametrize("game", GAMES)
def test_broken_records_break_where_their_list_says(game: str) -> None:
    expected: list[dict[str, Any]] = json.loads((RECORDS / game / "broken.json").read_text())
    records = list(read_file(RECORDS / game / "broken.ugn"))
    assert len(records) == len(expected) >= 8
    for want in expected:
        verdict = check_record(records[want["record"] - 1], game)
        error = verdict.error
        assert error is not None, want
        got = {"kind": str(error.kind), "turn": error.turn, "line": error.line}
        assert got == {k: want[k] for k in ("kind", "turn", "line")}, (want, error)
