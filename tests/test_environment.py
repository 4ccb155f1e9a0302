"""The suite and the commands, whatever the environment: where the checkout is, the
terminal variables of the shell, bare ``pytest`` or ``python -m pytest``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import notation
from notation.cli import cli
from notation.games.grammar import grammar_path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "records" / "tinkertown" / "broken.ugn"
#: What `check` says of record 7 of BROKEN, after FILE:.
REASON = ":82:1: record 7, turn 35 (e5): e5 is the chapel, not a grave"


# -- bare pytest and python -m pytest test the same code ----------------------------------


def test_notation_is_imported_from_this_checkout() -> None:
    """Not an installed copy: pyproject.toml's pythonpath puts the checkout first."""
    assert Path(notation.__file__).resolve() == ROOT / "notation" / "__init__.py"
    assert grammar_path("tinkertown").resolve().parent == ROOT / "grammar"


def test_bare_pytest_prefers_the_checkout_to_an_installed_copy(tmp_path: Path) -> None:
    """An installed ``notation`` ahead of the checkout on sys.path, as bare ``pytest``
    would have it (it does not put the current folder on sys.path): the checkout wins."""
    installed = tmp_path / "site-packages" / "notation"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("raise ImportError('the installed copy')\n")
    env = {**os.environ, "PYTHONPATH": str(installed.parent)}
    process = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
            "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
            f"{Path(__file__).resolve()}::test_notation_is_imported_from_this_checkout",
        ],
        cwd=tmp_path,  # python -m puts this folder, not the checkout, on sys.path
        env=env, capture_output=True, text=True, check=False, timeout=600,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    assert "1 passed" in process.stdout


# -- a checkout at a long path: messages are never wrapped when piped -------------------------


@pytest.fixture
def long_path(tmp_path: Path) -> Path:
    """BROKEN copied to a path over 200 characters long."""
    folder = tmp_path.joinpath("x" * 60, "y" * 60, "z" * 90)
    folder.mkdir(parents=True)
    path = folder / "broken.ugn"
    path.write_bytes(BROKEN.read_bytes())
    assert len(str(path)) > 200
    return path


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["show", "--record", "7"], "stopped at turn 35 (e5): e5 is the chapel, not a grave"),
        (["show", "--record", "7", "--turn", "3"], "the record is broken: {path}" + REASON),
        (["replay", "--record", "7", "--turn", "3"], "the record is broken: {path}" + REASON),
        (["diagram", "--record", "7"], "warning: {path}" + REASON),
        (["check"], "{path}" + REASON),
        (["check", "--format", "json"], '"file": "{path}", "record": 7'),
        (["convert", "--to", "text"], "warning: {path}" + REASON),
        (["annotate"], "warning: {path}" + REASON),
        (["html"], "warning: {path}" + REASON),
    ],
)
def test_messages_about_a_file_at_a_long_path_are_one_line(
    long_path: Path, args: list[str], line: str
) -> None:
    result = CliRunner().invoke(cli, [*args, str(long_path)])
    assert result.exit_code == 1
    expected = line.format(path=long_path)
    assert any(expected in output_line for output_line in result.output.splitlines()), (
        result.output
    )


def test_a_real_pipe_from_a_long_path(long_path: Path) -> None:
    """``notation show ... | grep``: the process's own standard output, a pipe."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.run(
        [sys.executable, "-m", "notation", "show", "--record", "7", "--turn", "3",
         str(long_path)],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )
    assert (process.returncode, process.stderr) == (1, "")
    assert f"the record is broken: {long_path}{REASON}" in process.stdout.splitlines()


# -- NO_COLOR, TERM=dumb, COLUMNS=40 ----------------------------------------------------------


@pytest.mark.parametrize(
    "variable", ["NO_COLOR=1", "TERM=dumb", "COLUMNS=40", "LINES=5", "FORCE_COLOR=1"]
)
def test_piped_output_does_not_depend_on_the_terminal_variables(
    variable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped, ``show`` writes the same plain text whatever the shell says about a
    terminal that is not there."""
    args = ["show", "--record", "7", "--turn", "3", str(BROKEN)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plain = subprocess.run(
        [sys.executable, "-m", "notation", *args],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )
    name, value = variable.split("=")
    other = subprocess.run(
        [sys.executable, "-m", "notation", *args],
        capture_output=True, text=True, env={**env, name: value}, check=False, timeout=600,
    )
    assert plain.returncode == other.returncode == 1
    assert other.stdout == plain.stdout and "\x1b" not in other.stdout
    assert max(len(line) for line in plain.stdout.splitlines()) > 40
