"""Snapshots of ``notation replay``'s screen (pytest-textual-snapshot): each game at
80x24 and 160x50 (the positions of the screenshots in docs/img), the help, the record
list being filtered, and a window below 80x24.

After a deliberate change to the screen: ``pytest tests/test_tui_snapshots.py
--snapshot-update``, look at the new pictures (tests/__snapshots__), and run
``python docs/make_terminal_shots.py`` for the docs.  The pictures depend on nothing
but the records and the size: the terminal's variables are cleared (tests/conftest.py)
and every record is found and checked before the picture is taken.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from notation.tui.app import ReplayApp
from notation.tui.shots import make_app, settle

ROOT = Path(__file__).resolve().parent.parent

#: The same positions as docs/make_terminal_shots.py.
SHOTS = {
    "tinkertown": ("records/tinkertown/examples.ugn", 2, 57),
    "cave": ("records/cave/examples.ugn", 1, 20),
    "zombie-kidz": ("records/zombie-kidz/examples.ugn", 2, 12),
}

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def from_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """Record paths as the pictures show them: relative to the repository."""
    monkeypatch.chdir(ROOT)


def app_for(game: str, **options: Any) -> ReplayApp:
    path, record, turn = SHOTS[game]
    return make_app(Path(path), record=record, turn=turn, **options)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
@pytest.mark.parametrize("game", list(SHOTS))
def test_each_game(snap_compare: SnapCompare, game: str, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(game), terminal_size=size, run_before=settle)


def test_help(snap_compare: SnapCompare) -> None:
    assert snap_compare(
        app_for("cave"), terminal_size=(80, 24), run_before=settle, press=["question_mark"]
    )


def test_the_record_list_filtered(snap_compare: SnapCompare) -> None:
    async def filtered(pilot: Pilot[int]) -> None:
        await settle(pilot)
        await pilot.press("l", *"random")

    assert snap_compare(app_for("zombie-kidz"), terminal_size=(80, 24), run_before=filtered)


def test_below_80x24(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_for("tinkertown"), terminal_size=(60, 20), run_before=settle)
