"""``notation analyze``: finds the position, asks the game's engine, prints the answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.commands.analyze import line_text, value_text
from notation.games import get_game
from notation.games.view import WIN, Analysis

ROOT = Path(__file__).resolve().parent.parent
CAVE = str(ROOT / "records" / "cave" / "examples.ugn")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout_bytes.decode(), result.stderr_bytes.decode()


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Cave with a stand-in engine that says what it was asked."""
    calls: list[dict[str, Any]] = []
    game = type(get_game("cave"))

    def analyse(self: Any, position: Any, *, depth: Any = None, seconds: Any = None) -> Analysis:
        calls.append({"turn": position.turn, "depth": depth, "seconds": seconds})
        return Analysis(0.625, "probability", ("b1-b2", "b5-b4"), False, depth, 1234,
                        (("b3", "K 1/2, Z 1/2"),))

    monkeypatch.setattr(game, "can_analyse", True)
    monkeypatch.setattr(game, "analyse", analyse)
    return calls


def test_the_position_asked_for_goes_to_the_engine(engine: list[dict[str, Any]]) -> None:
    code, out, _ = run("analyze", CAVE, "--record", "2", "--turn", "3", "--depth", "5")
    assert code == 0
    assert engine == [{"turn": 3, "depth": 5, "seconds": None}]
    lines = out.splitlines()
    assert lines[0].startswith("Cave, record 2, after turn 3; ")
    assert "value: 62.5% to win" in lines
    assert "best line: 2... b1-b2 3. b5-b4" in lines
    assert "(estimate, depth 5, 1,234 positions)" in lines
    assert "b3: K 1/2, Z 1/2" in lines


def test_json(engine: list[dict[str, Any]]) -> None:
    code, out, _ = run("analyze", CAVE, "--turn", "0", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert (data["turn"], data["value"], data["best_line"]) == (0, 0.625, ["b1-b2", "b5-b4"])
    assert data["notes"] == [["b3", "K 1/2, Z 1/2"]]


def test_a_game_without_an_engine_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(get_game("cave")), "can_analyse", False)
    code, _, err = run("analyze", CAVE)
    assert code == 2 and "has no analysis engine" in err and "Traceback" not in err


def test_a_turn_outside_the_record_is_a_usage_error(engine: list[dict[str, Any]]) -> None:
    code, _, err = run("analyze", CAVE, "--turn", "9999")
    assert code == 2 and "--turn" in err and not engine


def test_scores_and_wins_in_words() -> None:
    def score(value: float) -> str:
        return value_text(Analysis(value, "score", (), True))

    assert score(1.25) == "+1.25"
    assert score(WIN - 3) == "wins in 3 plies"
    assert score(-(WIN - 1)) == "loses in 1 ply"
    line = Analysis(0, "score", ("d3", "d2,b5", "c5,f2"), False)
    assert line_text(0, 2, line) == "1. d3 d2,b5 2. c5,f2"
    assert line_text(1, 2, line) == "1... d3 2. d2,b5 c5,f2"
