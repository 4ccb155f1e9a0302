"""Annotating: the engine's facts written into records, idempotently."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.formats.annotate import AnnotateOptions, annotate_record, termination
from notation.formats.convert import convert_record, read_json_records
from notation.games.tinkertown import GAME as TINKERTOWN
from notation.reader import read_records, read_string
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["tinkertown", "cave", "zombie-kidz"]


def annotate_text(text: str, **options: int | bool) -> str:
    opts = AnnotateOptions(**options)  # type: ignore[arg-type]
    records = read_records(io.StringIO(text), keep_raw=True)
    return "\n".join(annotate_record(r, opts).text for r in records)


@pytest.mark.parametrize("game", GAMES)
def test_annotating_is_idempotent_and_the_result_checks(game: str) -> None:
    text = (ROOT / "records" / game / "examples.ugn").read_text()
    once = annotate_text(text, diagrams=10, analyze=True)
    assert annotate_text(once, diagrams=10, analyze=True) == once
    records = read_string(once)
    assert records
    for record in records:
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert record.tag("Termination") == termination(record.result, verdict.outcome)
    assert "[%" in once and "[%diagram 10]" in once


@pytest.mark.parametrize("game", GAMES)
def test_annotated_records_convert_without_loss(game: str) -> None:
    once = annotate_text((ROOT / "records" / game / "examples.ugn").read_text())
    as_json = "".join(
        convert_record(r, "json").text for r in read_records(io.StringIO(once))
    )
    back = "\n".join(
        convert_record(r, "text").text for r in read_json_records(io.StringIO(as_json))
    )
    assert back == once


def test_human_comments_stay_and_old_commands_are_replaced() -> None:
    text = (
        '[Game "tinkertown"]\n\n1. d3 {my note [%control W9 R9] [%clk 0:05:00]} '
        "d2,b5 {[%diagram 2]\n old picture} *\n"
    )
    out = annotate_text(text)
    assert "my note" in out and "[%clk 0:05:00]" in out  # other tools' commands stay
    assert "W9 R9" not in out and "old picture" not in out
    assert annotate_text(out) == out


def test_termination_values() -> None:
    assert termination("0-1", "0-1") == "rules"
    assert termination("1-0", None) == "resignation"
    assert termination("1/2-1/2", None) == "agreement"
    assert termination("*", None) == "unfinished"


def test_annotate_command_in_place_and_broken_records(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text('[Game "cave"]\n\n1. b1 b5 2. b1-b2 *\n')
    result = CliRunner().invoke(cli, ["annotate", "--in-place", str(good)])
    assert result.exit_code == 0, result.output
    assert "[Termination \"unfinished\"]" in good.read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "cave"]\n\n1. b1 b5 2. z9 *\n')
    result = CliRunner().invoke(cli, ["annotate", str(bad)])
    assert result.exit_code == 1
    assert "warning:" in result.stderr and "z9" in result.stdout


@pytest.mark.parametrize("game", GAMES)
def test_games_declare_every_annotation_key_they_write(game: str) -> None:
    """Annotating again can only replace old commands whose keys the game declares."""
    from notation.games import get_game

    declared = get_game(game).annotation_keys
    text = annotate_text((ROOT / "records" / game / "examples.ugn").read_text())
    written = set(re.findall(r"\[%([A-Za-z][\w-]*)", text)) - {"diagram", "analysis"}
    assert written and written <= declared


@pytest.mark.parametrize("seed", range(12))
def test_tinkertown_over_capacity_kept_by_push_and_pop_is_found_afresh(seed: int) -> None:
    """Annotating asks which groups stand above capacity after every move, and the
    position keeps the answer up to date as actions are pushed (looking only at the
    graves an action changed) and popped; moves taken back (as variations are) and
    played again, and copies, must not fool it."""
    rng = random.Random(seed)
    position = TINKERTOWN.new_position()
    seen_over = 0
    while position.outcome() is None and position.turn < 400:
        moves = position.legal_moves()
        if position.turn > 20 and rng.random() < 0.2:
            for _ in range(rng.randint(1, 3)):
                position.pop()  # back up, as a replay does at the end of a variation
        else:
            position.push(rng.choice(moves))
        afresh = TINKERTOWN.position_from_string(position.position_string()).over_capacity()
        assert position.over_capacity() == afresh
        assert position.copy().over_capacity() == afresh
        seen_over += bool(afresh)
    assert position.turn > 20
    if seed < 4:  # these games do leave groups above capacity: the rare path is taken
        assert seen_over


BROKEN_FOR_ANALYSIS = {
    # read wrong before its moves: the tag line is no tag
    "a tag": '[Game "cave"]\n[Event "Broken "x"]\n\n1. b1 b5 2. b1-c1 b5-b4 *\n',
    # its fourth move cannot be played (no piece on c5 to move)
    "a move": '[Game "cave"]\n\n1. b1 b5 2. b1-c1 c5-c4 3. c1-c2 b5-b4 *\n',
}


@pytest.mark.parametrize("broken", sorted(BROKEN_FOR_ANALYSIS))
def test_analysis_asks_nothing_once_the_record_is_known_broken(
    broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A broken record is written back as it was: an opinion of its later moves (for
    # Zombie Kidz with 3 players, a table solved for a minute) would be thrown away.
    from notation.formats.annotate import annotate_lines
    from notation.games.cave import GAME as CAVE

    asked: list[str] = []
    real = type(CAVE).assess_move

    def counting(self: object, position: object, move: object) -> object:
        asked.append(str(move))
        return real(self, position, move)  # type: ignore[arg-type]

    monkeypatch.setattr(type(CAVE), "assess_move", counting)
    text = BROKEN_FOR_ANALYSIS[broken]
    (converted,) = annotate_lines(io.StringIO(text), options=AnnotateOptions(analyze=True))
    assert converted.error is not None and converted.text == text
    assert asked == ([] if broken == "a tag" else ["b1", "b5", "b1-c1"])
    # the same records, valid, are assessed move by move
    asked.clear()
    (converted,) = annotate_lines(
        io.StringIO('[Game "cave"]\n\n1. b1 b5 2. b1-c1 b5-b4 *\n'),
        options=AnnotateOptions(analyze=True),
    )
    assert converted.error is None and asked == ["b1", "b5", "b1-c1", "b5-b4"]
