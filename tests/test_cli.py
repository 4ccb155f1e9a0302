"""The command line, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.cli.check_report import SYMPTOM_NOTE
from notation.reader import read_string
from notation.replay import check_record

CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"
RECORDS = Path(__file__).resolve().parent.parent / "records"


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_check_valid_file_exits_0_with_a_summary() -> None:
    code, out = run("check", "--game", "cave", str(CONFORMANCE / "cave-valid.txt"))
    assert code == 0
    assert out.strip().endswith("40 records in 1 file: 40 valid, 0 broken")


def test_check_broken_file_prints_one_line_per_broken_record() -> None:
    path = CONFORMANCE / "tinkertown-invalid.txt"
    code, out = run("check", "--game", "tinkertown", str(path))
    assert code == 1
    lines = out.strip().splitlines()
    assert len(lines) == 42 and lines[-2].endswith("0 valid, 40 broken")
    assert lines[-1] == SYMPTOM_NOTE  # moves the rules refuse: --all may find a slip
    assert lines[2] == (
        f"{path}:41:1: record 3, turn 62 (G7-E7): g7 holds 1 zombie; a move of 2 needs 2; "
        "g7 was last changed at turn 10: 5... h4,g7"
    )


def test_json_has_the_promised_keys() -> None:
    code, out = run(
        "check", "--format", "json", "--game", "zombie-kidz",
        str(CONFORMANCE / "zombie-kidz-invalid.txt"),
    )
    assert code == 1
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) == 40
    first = objects[0]
    assert list(first)[:7] == ["file", "record", "game", "ok", "result", "turns", "error"]
    assert first["record"] == 1 and first["ok"] is False and first["game"] == "zombie-kidz"
    assert set(first["error"]) >= {"kind", "line", "column", "turn", "move", "message"}
    assert (first["error"]["kind"], first["error"]["turn"], first["error"]["line"]) == (
        "syntax", 14, 9,
    )


def test_stdin_and_game_option() -> None:
    code, out = run("check", "--game", "tinkertown", "-", stdin="1. d3 d2,b5 *\n")
    assert code == 0 and "1 record in 1 file: 1 valid" in out
    code, out = run("check", "-", stdin="1. d3 d2,b5 *\n")
    assert code == 1 and "no Game tag" in out


def test_folders_are_searched_for_record_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text('[Game "cave"]\n\nb1 *\n')
    (tmp_path / "b.pgn").write_text('[Game "cave"]\n\nb1 b5 *\n')
    (tmp_path / "notes.md").write_text("not a record")
    code, out = run("check", str(tmp_path))
    assert code == 0 and "2 records in 2 files: 2 valid" in out


def test_a_folder_stands_for_its_record_files_hidden_ones_skipped(tmp_path: Path) -> None:
    """``notation check .`` in a checkout: not the files of .venv, .git, or a backup."""
    cave = '[Game "cave"]\n\n1. b1 b5 *\n'
    broken = '[Game "cave"]\n\n1. b1 b9 *\n'
    for name in ("a.txt", "b.PGN", "sub/c.txt", "sub/deeper/d.pgn"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(cave)
    # What `convert --to json` writes, under the two names it goes by.
    code, as_json = run("convert", "--to", "json", str(tmp_path / "a.txt"))
    assert code == 0
    (tmp_path / "e.jsonl").write_text(as_json)
    (tmp_path / "sub" / "f.json").write_text(as_json)
    # Never read: hidden folders and files, and files that are not records.
    for name in (
        ".venv/lib/site-packages/pkg/LICENSE.txt", ".git/logs/HEAD.txt", ".a.txt.swp.txt",
        "sub/.hidden.pgn", "notes.md", "games.txt.orig", "sub/README",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(broken)
    code, out = run("check", "-v", str(tmp_path))
    assert code == 0, out
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == [
        str(tmp_path / name)
        for name in ("a.txt", "b.PGN", "e.jsonl", "sub/c.txt", "sub/deeper/d.pgn", "sub/f.json")
    ]
    assert out.splitlines()[-1] == "6 records in 6 files: 6 valid, 0 broken"


def test_a_hidden_file_or_folder_named_on_the_command_line_is_read(tmp_path: Path) -> None:
    hidden = tmp_path / ".records"
    hidden.mkdir()
    (hidden / ".game.txt").write_text('[Game "cave"]\n\n1. b1 b5 *\n')
    (hidden / "game.txt").write_text('[Game "cave"]\n\n1. b1 b5 *\n')
    code, out = run("check", str(hidden), str(hidden / ".game.txt"))
    assert code == 0 and out.endswith("2 records in 2 files: 2 valid, 0 broken\n")


def test_a_folder_with_only_hidden_records_has_none(tmp_path: Path) -> None:
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "a.txt").write_text('[Game "cave"]\n\n1. b1 b5 *\n')
    code, out = run("check", str(tmp_path))
    assert code == 2
    suffixes = "*.ugn, *.txt, *.pgn, *.jsonl, *.json"
    assert f"{tmp_path}: no record files ({suffixes}) in this folder" in out


def test_usage_errors_exit_2() -> None:
    assert run("check", "no-such-file.txt")[0] == 2
    assert run("check", "--game", "chess", "-", stdin="")[0] == 2
    assert run("check")[0] == 2
    assert run("generate", "--game", "tinkertown", "--games", "0")[0] == 2


def test_generate_is_seeded_and_valid() -> None:
    code, first = run("generate", "--game", "tinkertown", "--games", "3", "--seed", "5")
    assert code == 0
    assert run("generate", "--game", "tinkertown", "--games", "3", "--seed", "5")[1] == first
    assert run("generate", "--game", "tinkertown", "--games", "3", "--seed", "6")[1] != first
    records = read_string(first)
    assert len(records) == 3
    for record in records:
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert record.tag("Result") == record.result
        assert "seed 5" in (record.tag("Source") or "")


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_generated_games_of_every_game_check_clean(game: str) -> None:
    code, text = run("generate", "--game", game, "--games", "4", "--seed", "1")
    assert code == 0
    verdicts = [check_record(r) for r in read_string(text)]
    assert len(verdicts) == 4 and all(v.ok for v in verdicts), [v.error for v in verdicts]
    # Played to the end: the rules decided every game.
    assert all(v.outcome is not None and v.outcome == v.result for v in verdicts)


def test_games_lists_every_game() -> None:
    code, out = run("games")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["cave", "tinkertown", "zombie-kidz"]


def test_python_dash_m_works_and_never_shows_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b'[Game "cave"]\n\n\xff\xfe b1 ( ) } {\n')
    proc = subprocess.run(
        [sys.executable, "-m", "notation", "check", str(bad)],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"{bad}:3:")
