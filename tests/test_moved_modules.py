"""The modules that moved into the layers' folders (issue 40) still import by their old
names: the same module object, with a warning that names where it lives now."""

from __future__ import annotations

import importlib
import importlib.resources
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import notation

OLD_NAMES = sorted(notation.MOVED)


@pytest.mark.parametrize("old", OLD_NAMES)
def test_an_old_name_imports_the_moved_module(old: str) -> None:
    new = notation.MOVED[old]
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new
    assert module.__spec__ is not None and module.__spec__.name == new


def test_every_old_name_is_free_and_every_new_name_exists() -> None:
    for old, new in notation.MOVED.items():
        assert importlib.util.find_spec(new) is not None, new
        leaf = old.rpartition(".")[2]
        assert not (importlib.resources.files(notation) / f"{leaf}.py").is_file(), old


def test_old_imports_work_in_a_fresh_interpreter() -> None:
    # what old code does: from-imports of names and modules, by the old paths
    script = (
        "import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "try:\n"
        "    from notation.editor import RecordEditor\n"
        "except DeprecationWarning as warning:\n"
        "    print(warning)\n"
        "warnings.simplefilter('ignore')\n"
        "from notation.editor import RecordEditor\n"
        "from notation import view, recordfile\n"
        "print(RecordEditor.__module__, view.__name__, recordfile.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [
        "notation.editor moved to notation.editing.editor",
        "notation.editing.editor notation.games.view notation.editing.recordfile",
    ]


ROOT = Path(__file__).resolve().parent.parent


def test_the_library_docs_list_every_moved_module() -> None:
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    table = text[text.index("### Moved modules") :]
    for old, new in notation.MOVED.items():
        assert f"| `{old}` | `{new}` |" in table


def test_the_readme_layout_names_every_folder_of_the_package() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    layout = layout[: layout.index("grammar/ ")]
    folders = sorted(p.parent.name for p in (ROOT / "notation").glob("*/__init__.py"))
    assert len(folders) >= 7
    for folder in folders:
        assert f"{folder}/" in layout, folder
