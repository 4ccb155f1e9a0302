"""Record files have an extension of their own, .ugn: the bundled records use it, every
command reads it (in folders too, compressed too), ``notation record`` gives it to a new
file named without one, and every editor configuration of docs/editors.md matches it."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.commands.common import RECORD_EXTENSION, RECORD_SUFFIXES
from notation.commands.record import with_record_extension

ROOT = Path(__file__).resolve().parent.parent
RECORD = '[Game "cave"]\n[Result "*"]\n\n1. b1 b5 *\n'


def test_the_extension_is_ugn_and_read_first() -> None:
    assert RECORD_EXTENSION == ".ugn"
    assert RECORD_SUFFIXES[0] == RECORD_EXTENSION
    assert {".txt", ".pgn"} <= set(RECORD_SUFFIXES)


def test_the_bundled_records_use_it() -> None:
    records = [p for p in (ROOT / "records").rglob("*") if p.is_file()]
    texts = [p for p in records if p.suffix not in (".json", ".py")]
    assert texts and all(p.suffix == ".ugn" for p in texts), texts


def test_a_folder_stands_for_its_ugn_files_plain_and_compressed(tmp_path: Path) -> None:
    (tmp_path / "one.ugn").write_text(RECORD)
    (tmp_path / "two.ugn.gz").write_bytes(gzip.compress(RECORD.encode()))
    (tmp_path / "three.txt").write_text(RECORD)
    (tmp_path / "notes.md").write_text("not records\n")
    result = CliRunner().invoke(cli, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.endswith("3 records in 3 files: 3 valid, 0 broken\n")


@pytest.mark.parametrize("command", ["convert", "show", "stats"])
def test_every_reading_command_takes_a_ugn_file(tmp_path: Path, command: str) -> None:
    path = tmp_path / "game.ugn"
    path.write_text(RECORD)
    args = {"convert": ["--to", "text"], "show": [], "stats": []}[command]
    result = CliRunner().invoke(cli, [command, *args, str(path)])
    assert result.exit_code == 0, result.output
    assert "b5" in result.output or command == "stats"


def test_record_gives_a_new_file_without_an_extension_the_records_one(tmp_path: Path) -> None:
    assert with_record_extension(str(tmp_path / "games")) == str(tmp_path / "games.ugn")
    assert with_record_extension(str(tmp_path / "games.txt")) == str(tmp_path / "games.txt")
    assert with_record_extension(str(tmp_path / "games.ugn")) == str(tmp_path / "games.ugn")
    existing = tmp_path / "games-file"
    existing.write_text(RECORD)  # a file that exists is the file meant, extension or not
    assert with_record_extension(str(existing)) == str(existing)


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return {part.split("\n", 1)[0]: part for part in parts[1:]}


@pytest.mark.parametrize(
    ("editor", "matcher"),
    [
        ("Neovim", r'extension = \{ ugn = "notation" \}'),
        ("Neovim", r'pattern = \{ "\*\.ugn" \}'),
        ("Helix", r'file-types = \["ugn"'),
        ("Emacs (eglot)", r"\\\\\.ugn\\\\'"),
        ("VS Code", r'"\*\.ugn": "plaintext"'),
    ],
)
def test_every_editor_configuration_matches_ugn_files(editor: str, matcher: str) -> None:
    section = _sections((ROOT / "docs" / "editors.md").read_text(encoding="utf-8"))[editor]
    assert re.search(matcher, section), f"{editor}: no configuration for *.ugn"


def test_neovim_configures_every_version_for_ugn() -> None:
    section = _sections((ROOT / "docs" / "editors.md").read_text(encoding="utf-8"))["Neovim"]
    blocks = re.findall(r"```lua\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 3
    assert all("ugn" in block for block in blocks)
