"""Converting between text, plain and JSON: deterministic, idempotent, nothing lost."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.cli import cli
from notation.collections.generate import generate_records
from notation.formats.convert import convert_record, ordered_tags, read_json_records
from notation.games import get_game
from notation.reader import read_file, read_records, read_string
from notation.record import Record
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text())
GAMES = ["tinkertown", "cave", "zombie-kidz"]


def convert_text(text: str, to: str, game: str | None = None) -> str:
    records = read_records(io.StringIO(text), keep_raw=True)
    separator = "" if to == "json" else "\n"  # JSON Lines; text records: a blank line
    return separator.join(convert_record(r, to, game).text for r in records)


def from_json(text: str, to: str = "text") -> str:
    records = read_json_records(io.StringIO(text))
    return "\n".join(convert_record(r, to).text for r in records)


def shape(record: Record) -> Any:
    """Tags, comments, glyphs, suffixes and the variation structure (not move spelling)."""

    def line(nodes: list[Any]) -> list[Any]:
        return [
            (
                n.suffix,
                n.nags,
                [c.text for c in n.comments_before],
                [c.text for c in n.comments_after],
                [
                    (
                        [c.text for c in v.comments_before],
                        line(v.nodes),
                        [c.text for c in v.comments],
                    )
                    for v in n.variations
                ],
            )
            for n in nodes
        ]

    return (
        sorted((t.name, t.value) for t in record.tags if t.name != "Game"),
        line(record.moves),
        [c.text for c in record.comments],
        record.result,
    )


def generated(game: str, seed: int, count: int = 2) -> str:
    players = 3 if game == "zombie-kidz" else None
    return "".join(write_records(generate_records(game, count, seed, players=players)))


@pytest.mark.parametrize(
    "name", ["tinkertown-valid.txt", "cave-valid.txt", "zombie-kidz-valid.txt"]
)
def test_conformance_records_convert_without_loss(name: str) -> None:
    game = name.removesuffix("-valid.txt")
    text = (CONFORMANCE / name).read_text()
    canonical = convert_text(text, "text", game)
    # Idempotent: canonical text converts to the same bytes.
    assert convert_text(canonical, "text") == canonical
    # JSON and back gives the same bytes as converting to text directly.
    as_json = convert_text(text, "json", game)
    assert from_json(as_json) == canonical
    for line in as_json.splitlines():
        jsonschema.validate(json.loads(line), SCHEMA)
    # Every tag, comment, glyph and variation survives.
    before = read_string(text)
    after = read_string(canonical)
    assert [shape(r) for r in after] == [shape(r) for r in before]
    assert all(len(line) < 80 for line in canonical.splitlines() if "{" not in line)


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000))
def test_generated_records_round_trip(game: str, seed: int) -> None:
    text = generated(game, seed)
    canonical = convert_text(text, "text")
    assert convert_text(canonical, "text") == canonical
    assert from_json(convert_text(text, "json")) == canonical


def test_tags_in_canonical_order() -> None:
    (record,) = read_string(
        '[Mood "spooky"]\n[Red "B"]\n[Result "*"]\n[Date "2024.10.31"]\n[White "A"]\n'
        '[Event "E"]\n[Game "Tinkertown"]\n\nd3 *'
    )
    names = [t.name for t in ordered_tags(record, get_game("tinkertown"))]
    assert names == ["Game", "Event", "Date", "White", "Red", "Result", "Mood"]
    assert convert_text("d3 *", "text", "tinkertown").startswith('[Game "tinkertown"]\n\n1. d3 *')


def test_canonical_spelling_and_numbers() -> None:
    text = "1. D3 D2,B5 2.C5,F2 {why} E2,G5 $1 *"
    assert convert_text(text, "text", "tinkertown").endswith(
        "1. d3 d2,b5 2. c5,f2 {why} 2... e2,g5 $1 *\n"
    )


def test_plain_is_the_main_line_only() -> None:
    text = "1. d3 {c} d2,b5! $1 (1... c3,g6) 2. c5,f2 *"
    plain = convert_text(text, "plain", "tinkertown")
    assert plain == '[Game "tinkertown"]\n\n1. d3 d2,b5 2. c5,f2 *\n'


def test_json_moves_carry_typed_moves_and_facts() -> None:
    obj = json.loads(convert_text("1. d3 d2,b5 (1... c3,g6) *", "json", "tinkertown"))
    first, second = obj["moves"]
    assert first["turn"] == 1 and first["move"]["type"] and isinstance(first["facts"], dict)
    variation = second["variations"][0]["moves"][0]
    assert variation["turn"] == 2 and variation["text"] == "c3,g6"
    assert obj["ok"] is True and obj["error"] is None


def test_a_record_that_does_not_check_is_passed_on_as_written_with_its_error() -> None:
    records = list(read_records(io.StringIO("D3 zz9 d2,b5 *"), keep_raw=True))
    converted = convert_record(records[0], "text", "tinkertown")
    assert converted.error is not None and converted.error.move == "zz9"
    # byte for byte: no line end is added (a writer puts one before the next record)
    assert converted.verbatim and converted.text == "D3 zz9 d2,b5 *"


def test_repair_rewrites_a_broken_record_as_far_as_it_reads() -> None:
    (record,) = read_records(io.StringIO("D3 zz9 D2,B5 *"), keep_raw=True)
    converted = convert_record(record, "text", "tinkertown", repair=True)
    assert converted.error is not None and converted.repaired and not converted.verbatim
    assert converted.text.endswith("1. d3 zz9 2. d2,b5 *\n")


def test_a_record_that_cannot_be_read_in_full_is_passed_on_as_written() -> None:
    text = "d3 {never closed\n  indented line\n"
    (record,) = list(read_records(io.StringIO(text), keep_raw=True))
    converted = convert_record(record, "text", "tinkertown")
    assert converted.verbatim and converted.text == text
    as_json = convert_record(record, "json", "tinkertown").text
    jsonschema.validate(json.loads(as_json), SCHEMA)
    assert from_json(as_json) == text


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_convert_command_to_json_and_back(tmp_path: Path) -> None:
    source = ROOT / "records" / "cave" / "examples.ugn"
    code, as_json, _ = run("convert", "--to", "json", str(source))
    assert code == 0
    json_file = tmp_path / "cave.jsonl"
    json_file.write_text(as_json)
    code, text, _ = run("convert", "--to", "text", str(json_file))
    assert code == 0
    assert text == run("convert", "--to", "text", str(source))[1]
    assert len(list(read_string(text))) == len(list(read_file(source)))


def test_convert_warns_and_strict_refuses(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "tinkertown"]\n\nd3 zz9 *\n\n[Game "tinkertown"]\n\nd3 *\n')
    code, out, err = run("convert", "--to", "text", str(bad))
    assert code == 1 and "warning:" in err and "zz9" in err
    assert out.count("[Game") == 2  # nothing dropped
    target = tmp_path / "out.txt"
    target.write_text("old contents\n")
    code, _, err = run("convert", "--to", "text", "--strict", "-o", str(target), str(bad))
    assert code == 1 and "--strict" in err
    assert target.read_text() == "old contents\n"  # written whole or not at all
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_convert_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    source = tmp_path / "games.txt"
    source.write_text("d3 *\n")
    code, _, err = run("convert", "--to", "text", "-o", str(source), str(source))
    assert code == 2 and "also an input" in err
    assert source.read_text() == "d3 *\n"


def test_bad_json_lines_stop_the_conversion_with_their_own_code(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "notation-record/1", "tags": 5}\n')
    for how in ("json", "auto"):
        code, _, err = run("convert", "--to", "text", "--from", how, str(bad))
        assert code == 3 and "bad.jsonl:1" in err and "stopped" in err


def test_seeded_corpus_of_every_game_is_idempotent() -> None:
    rng = random.Random(4)
    for game in GAMES:
        text = generated(game, rng.randrange(10_000), 3)
        canonical = convert_text(text, "text")
        assert convert_text(canonical, "text") == canonical


def test_written_files_get_ordinary_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    code, _, _ = run(
        "convert", "--to", "text", "--game", "tinkertown", "-o", str(target), "-", stdin="d3 *\n"
    )
    assert code == 0
    assert target.stat().st_mode & 0o044 == 0o044  # readable by others, as open() makes it
