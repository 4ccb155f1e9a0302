"""``notation analyze``: what a game's engine says of one position of a record.

The engines are the games' own (``Game.analyse``, described in each game's docs);
this command finds the position and prints the answer.
"""

from __future__ import annotations

import json
import math
from typing import Any

import click

from notation.commands._one_record import (
    go_to,
    open_stepper,
    record_options,
    select_record,
)
from notation.commands.common import (
    UsageProblem,
)
from notation.errors import MisuseError
from notation.games.view import WIN, Analysis
from notation.stepper import Stepper
from notation.visitor import move_label


@click.command("analyze")
@record_options
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="How many plies a search looks ahead (default: the game's; an exact "
                   "solver needs none).")
@click.option("--seconds", type=click.FloatRange(min=0.01), default=None,
              help="How long a search may take, at most (default: the game's).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: for people; json: one JSON object.")
def command(
    file: str, number: int, turn: int | None, game: str | None, ascii: bool,
    depth: int | None, seconds: float | None, fmt: str,
) -> None:
    """Analyse the position after a turn of a record: its value and the best line.

    FILE is a record file or - for standard input; without --turn, the position at
    the end of the main line.  The value is for the side (or team) to move: a
    probability of winning in Zombie Kidz and Cave, a search score in Tinkertown.
    Example:

        notation analyze games.txt --record 3 --turn 40 --depth 4
    """
    del ascii  # analyze draws no board
    record = select_record(file, number)
    stepper = open_stepper(record, game)
    go_to(stepper, turn)
    if stepper.cursor.defect is not None:
        click.echo(f"error: {stepper.cursor.defect}", err=True)
        raise SystemExit(1)
    engine = stepper.game
    if not engine.can_analyse:
        raise UsageProblem(f"{engine.title} has no analysis engine")
    try:
        analysis = engine.analyse(stepper.cursor.position, depth=depth, seconds=seconds)
    except MisuseError as exc:
        raise UsageProblem(str(exc)) from None
    if fmt == "json":
        click.echo(json.dumps(to_dict(stepper, analysis), ensure_ascii=False))
    else:
        for line in describe(stepper, analysis):
            click.echo(line)


def to_dict(stepper: Stepper, analysis: Analysis) -> dict[str, Any]:
    """The JSON form of an analysis, with where it was made."""
    return {
        "game": stepper.game.name,
        "record": stepper.record.index,
        "turn": stepper.cursor.position.turn,
        "mover": stepper.cursor.position.mover,
        "position": stepper.cursor.position.position_string(),
        "value": analysis.value,
        "unit": analysis.unit,
        "best_line": list(analysis.best_line),
        "exact": analysis.exact,
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "notes": [list(note) for note in analysis.notes],
    }


def describe(stepper: Stepper, analysis: Analysis) -> list[str]:
    """The text form of an analysis, line by line."""
    position = stepper.cursor.position
    lines = [
        f"{stepper.game.title}, record {stepper.record.index}, after turn {position.turn}; "
        f"{position.mover} to move",
    ]
    if position.outcome() is not None:
        lines.append(f"the game is over: {position.outcome()}")
    lines.append(f"value: {value_text(analysis)}")
    if analysis.best_line:
        lines.append(f"best line: {line_text(position.turn, position.round_size, analysis)}")
    how = ["exact" if analysis.exact else "estimate"]
    if analysis.depth is not None:
        how.append(f"depth {analysis.depth}")
    if analysis.nodes:
        how.append(f"{analysis.nodes:,} positions")
    lines.append("(" + ", ".join(how) + ")")
    lines.extend(f"{name}: {value}" for name, value in analysis.notes)
    return lines


def value_text(analysis: Analysis) -> str:
    """``"62.5% to win"``, ``"+1.25"``, ``"wins in 3 plies"``."""
    if analysis.unit == "probability":
        return f"{100 * analysis.value:.1f}% to win"
    value = analysis.value
    if math.isfinite(value) and abs(value) >= WIN - 1000:
        plies = int(WIN - abs(value))
        return f"{'wins' if value > 0 else 'loses'} in {plies} pl{'y' if plies == 1 else 'ies'}"
    return f"{value:+.2f}"


def line_text(turn: int, round_size: int, analysis: Analysis) -> str:
    """The best line with move numbers, as a record writes them (``21... d4 22. e5``);
    ``turn`` is the number of turns played before it."""
    parts: list[str] = []
    for offset, move in enumerate(analysis.best_line):
        label = move_label(turn + offset + 1, round_size, resumes=offset == 0)
        parts.extend([label, move] if label else [move])
    return " ".join(parts)
