"""Statistics: counts, lengths, first moves, players and Elo; merging shards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.collections.stats import ELO_K, ELO_START, summarise
from notation.commands.stats import report
from notation.reader import read_file, read_string
from notation.record import Record

ROOT = Path(__file__).resolve().parent.parent


def test_a_merged_summary_is_the_single_pass_summary() -> None:
    records = [
        *read_file(ROOT / "records" / "cave" / "examples.ugn"),
        *read_file(ROOT / "records" / "tinkertown" / "examples.ugn"),
        *read_file(ROOT / "records" / "zombie-kidz" / "examples.ugn"),
        *read_file(ROOT / "records" / "cave" / "broken.ugn"),
    ]
    whole = summarise(records)
    for cut in (0, 3, len(records) // 2, len(records)):
        merged = summarise(records[:cut]).merge(summarise(records[cut:]))
        assert merged.to_dict() == whole.to_dict()
    assert whole.records == len(records)
    assert whole.games["cave"].broken > 0


def _decided(red: str, black: str, result: str) -> Record:
    """A decided two-player record, built from a finished bundled game with new tags."""
    for record in read_file(ROOT / "records" / "cave" / "examples.ugn"):
        if record.result == result:
            record.set_tag("Red", red)
            record.set_tag("Black", black)
            record.set_tag("Result", result)
            return record
    raise AssertionError(f"no bundled Cave game ends {result}")


def test_elo_follows_abstractplays_basic_rater() -> None:
    summary = summarise([_decided("Ann", "Bob", "1-0")])
    elo = summary.games["cave"].elo()
    # even ratings expect half a point each: the winner gains K/2
    assert elo == {"Ann": ELO_START + ELO_K / 2, "Bob": ELO_START - ELO_K / 2}
    summary = summarise([_decided("Ann", "Bob", "1-0"), _decided("Ann", "Bob", "1/2-1/2")])
    elo = summary.games["cave"].elo()
    assert elo["Ann"] < ELO_START + ELO_K / 2  # a draw against a weaker player costs
    assert elo["Ann"] + elo["Bob"] == pytest.approx(2 * ELO_START)  # zero-sum
    scores = summary.games["cave"].players
    assert (scores["Ann"].wins, scores["Ann"].draws, scores["Ann"].points) == (1, 1, 1.5)


def test_self_play_and_unfinished_games_are_not_rated() -> None:
    summary = summarise([_decided("Ann", "Ann", "1-0")])
    assert summary.games["cave"].elo() == {}
    (unfinished,) = read_string('[Game "cave"]\n[Red "A"]\n[Black "B"]\n\n1. b1 b5 *\n')
    summary = summarise([unfinished])
    assert summary.games["cave"].players == {}
    assert summary.games["cave"].results == {("", "*"): 1}


def test_first_moves_are_counted_in_canonical_spelling() -> None:
    (record,) = read_string('[Game "tinkertown"]\n\n1. D3 *\n')
    summary = summarise([record])
    assert dict(summary.games["tinkertown"].first_moves) == {"d3": 1}


def test_the_report_fits_80_columns_and_draws_the_lengths() -> None:
    summary = summarise(read_file(ROOT / "records" / "tinkertown" / "examples.ugn"))
    lines = list(report(summary, bins=5))
    assert max(map(len, lines)) <= 80
    text = "\n".join(lines)
    assert "Lengths in turns: shortest 85, median 96, mean 113.3, longest 159" in text
    assert "#" * 40 in text  # the tallest bar is full width


def test_stats_command_json_and_text(tmp_path: Path) -> None:
    path = ROOT / "records" / "cave" / "examples.ugn"
    result = CliRunner().invoke(cli, ["stats", str(path), "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["records"] == sum(1 for _ in read_file(path))
    assert set(data["games"]) == {"cave"}
    text = CliRunner().invoke(cli, ["stats", str(path), "--top", "2"])
    assert text.exit_code == 0
    assert "Results" in text.output and "First moves (top 2 of" in text.output


def test_jobs_give_the_statistics_one_process_gives(tmp_path: Path, small_parts: None) -> None:
    """Parts of files are summarised by workers and merged in input order: the same
    statistics, Elo included (it depends on the order)."""
    text = "\n".join(
        (ROOT / "records" / game / "examples.ugn").read_text()
        for game in ("cave", "tinkertown", "zombie-kidz")
    )
    big = tmp_path / "big.txt"
    big.write_text("\n".join([text] * 20))
    other = tmp_path / "other.txt"
    other.write_text((ROOT / "records" / "cave" / "broken.ugn").read_text())
    outputs = [
        CliRunner().invoke(
            cli, ["stats", "--format", "json", "--jobs", jobs, str(big), str(other)]
        )
        for jobs in ("1", "2", "3")
    ]
    assert all(o.exit_code == 0 for o in outputs)
    assert outputs[0].output == outputs[1].output == outputs[2].output
    records = 20 * len(read_string(text)) + len(read_string(other.read_text()))
    assert json.loads(outputs[0].output)["records"] == records


def test_stats_reads_standard_input() -> None:
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text()
    result = CliRunner().invoke(cli, ["stats", "-", "--format", "json"], input=text)
    assert result.exit_code == 0
    assert json.loads(result.output)["records"] == len(read_string(text))


def test_zombie_kidz_results_are_counted_by_players_and_zombies() -> None:
    summary = summarise(read_file(ROOT / "records" / "zombie-kidz" / "examples.ugn"))
    variants = {variant for variant, _ in summary.games["zombie-kidz"].results}
    assert "3 players, 7 zombies" in variants and "2 players, 8 zombies" in variants
    cave = summarise(read_file(ROOT / "records" / "cave" / "examples.ugn"))
    assert {variant for variant, _ in cave.games["cave"].results} == {""}  # one setup
