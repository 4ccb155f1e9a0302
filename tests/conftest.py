from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

#: What the terminal and the user's shell say about colour and size, read by rich,
#: click and shutil.  Tests must not inherit them (the suite passes under NO_COLOR=1,
#: TERM=dumb or COLUMNS=40): each test starts without them, on a colour terminal
#: type, and a test about one of them sets it itself.
_TERMINAL_VARIABLES = (
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "COLUMNS",
    "LINES",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
)


_EMPTY_CACHE = Path(tempfile.mkdtemp(prefix="notation-test-cache-"))
# Set at once, not only in the fixture below: modules of the tests build parsers (whose
# compiled grammars are cached) while they are collected, before any fixture runs.
os.environ["NOTATION_CACHE_DIR"] = str(_EMPTY_CACHE)


@pytest.fixture(autouse=True)
def standard_terminal_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same environment for every test, whatever the shell that runs the suite.

    Subprocesses started by a test inherit it too (os.environ is patched).
    """
    for name in _TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    # No test reads or fills the user's cache of solved Zombie Kidz tables, nor starts
    # a solve of minutes (tests/test_zombie_kidz_solve.py sets its own).
    monkeypatch.setenv("NOTATION_CACHE_DIR", str(_EMPTY_CACHE))
    monkeypatch.setenv("NOTATION_NO_SOLVE", "1")


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers and parts for small inputs too, so that a few kilobytes are cut in many
    (for the tests of checking in parallel)."""
    from notation.collections import batch
    monkeypatch.setattr(batch, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(batch, "_MIN_PART", 2_000)
