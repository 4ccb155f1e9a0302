"""Entering records from a program, as docs/library.md shows it (issue 37, item 24):
``RecordEditor``, ``RecordFile`` and their errors come from ``import notation``, loaded
on first use; ``dir(notation)`` lists the library's names, not what the facade imports
to work; the page's program is tests/library_examples/notation_record.py, runs, and
passes ``mypy --strict`` as user code."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import notation

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "tests" / "library_examples" / "notation_record.py"
LIBRARY_DOC = ROOT / "docs" / "library.md"
RECORDING_DOC = ROOT / "docs" / "recording.md"

EDITING_NAMES = ("RecordEditor", "RecordFile", "EditError", "RecordFileError", "FileChangedError")


def test_the_editing_names_come_from_notation() -> None:
    from notation.editing import editor, recordfile
    homes = {"RecordEditor": editor, "EditError": editor}
    for name in EDITING_NAMES:
        home = homes.get(name, recordfile)
        assert getattr(notation, name) is getattr(home, name), name
        assert name in notation.__all__ and name in dir(notation)
    assert issubclass(notation.FileChangedError, notation.RecordFileError)
    assert issubclass(notation.EditError, notation.NotationException)


def test_dir_lists_no_name_the_facade_imports_to_work() -> None:
    listed = dir(notation)
    for name in ("Any", "TYPE_CHECKING", "importlib", "annotations"):
        assert name not in listed, name
    # It still lists every name of the facade, loaded or not, and its own.
    assert set(notation.__all__) <= set(listed)
    assert {"__version__", "__doc__", "plug_in"} <= set(listed)


def test_the_editor_is_loaded_on_first_use_only() -> None:
    code = (
        "import sys, notation\n"
        "assert 'notation.editing.editor' not in sys.modules\n"
        "notation.RecordFile\n"
        "loaded = set(sys.modules)\n"
        "assert 'notation.editing.recordfile' in loaded and 'notation.editing.editor' in loaded\n"
        "assert not {'textual', 'click', 'rich'} & loaded, {'textual', 'click', 'rich'} & loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_library_page_shows_the_editor_and_the_file() -> None:
    page = LIBRARY_DOC.read_text(encoding="utf-8")
    assert "## Entering a record move by move: `RecordEditor` and `RecordFile`" in page
    program = PROGRAM.read_text(encoding="utf-8")
    assert f"```python\n{program}```" in page  # the program, as the file holds it


def test_the_recording_page_documents_players_and_tags() -> None:
    page = RECORDING_DOC.read_text(encoding="utf-8")
    new = re.search(r"^- `RecordEditor\.new\(game, tags=\(\), \*, players=\(\).*?(?=^- )",
                    page, re.MULTILINE | re.DOTALL)
    assert new is not None
    assert "`players`" in new.group() and "`tags`" in new.group()
    assert "RecordFile.open(path, record=None, *, game=None, tags=(), players=()" in page


def test_the_recording_program_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(PROGRAM), run_name="__main__")
    out = capsys.readouterr().out
    head, record = out.split("later moves kept: 1\n")
    assert head.startswith("refused: b2-b4: ") and "saved as record 1" in head
    (saved,) = notation.read_string(record)
    assert [node.text for node in saved.moves] == ["b1", "c5", "b1-b2"]
    assert (saved.tag("Red"), saved.tag("Black"), saved.tag("Event")) == (
        "Mina", "Igor", "club night"
    )
    assert saved.moves[2].comment == "the usual plan" and notation.check_record(saved).ok


def test_the_recording_program_passes_mypy_strict(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is in the dev extra: '.[dev]'")
    out, err, status = mypy_api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path), str(PROGRAM)]
    )
    assert status == 0, out + err
