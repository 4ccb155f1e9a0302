"""``import notation`` gives the everyday names, typed, and one family of exceptions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import notation
from notation.errors import NotationException

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(set(notation.__all__) - {"__version__"}))
def test_every_facade_name_is_there_and_documented(name: str) -> None:
    value = getattr(notation, name)
    assert value.__doc__, name
    assert name in dir(notation)


def test_a_name_that_is_not_there_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        notation.nonesuch  # noqa: B018


def test_every_exception_the_library_raises_is_a_notation_exception() -> None:
    from notation.collections.batch import WorkerError
    from notation.formats.convert import NotARecord

    for cls in (
        notation.MoveSyntaxError, notation.IllegalMoveError, notation.MisuseError,
        notation.TagValueError, notation.UnknownGameError, notation.StepperError,
        notation.UnwritableRecord, NotARecord, WorkerError,
    ):
        assert issubclass(cls, NotationException), cls
    with pytest.raises(NotationException):
        notation.get_game("no-such-game")


def test_the_facade_reads_and_checks() -> None:
    (record,) = notation.read_string("1. b1 b5 *\n")
    verdict = notation.check_record(record, "cave")
    assert verdict.ok and verdict.turns == 2


def test_importing_notation_loads_nothing_else() -> None:
    code = "import sys, notation; print(sorted(m for m in sys.modules if m.startswith('notation')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "['notation']"


def test_the_names_listed_are_the_names_loaded() -> None:
    assert set(notation.__all__) - {"__version__"} == set(notation._HOME)


def test_an_old_name_is_the_new_value() -> None:
    """``NotationError`` became ``Defect``: old code importing it goes on working."""
    assert notation.NotationError is notation.Defect
    assert "NotationError" not in notation.__all__


def test_the_package_is_marked_typed() -> None:
    """mypy sees the library's types in user code only if the package carries py.typed
    (.ci/run checks that the installed wheel has it too)."""
    assert (ROOT / "notation" / "py.typed").is_file()


def test_python_m_notation_without_its_dependencies_says_so_in_one_line(tmp_path: Path) -> None:
    """Run from a checkout by a Python without lark, click and rich: no traceback."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\n"
        "class _Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('lark', 'click', 'rich'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, _Hide())\n"
    )
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-m", "notation", "--version"], capture_output=True, text=True,
        cwd=ROOT, env=env,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "is not installed" in result.stderr and "pip install" in result.stderr
