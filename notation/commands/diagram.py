"""``notation diagram``: one position of a record as an SVG picture."""

from __future__ import annotations

import sys

import click

from notation.commands.common import (
    atomic_output,
    expand_sources,
    game_option,
    refuse_overwriting_inputs,
    select_record,
)
from notation.errors import Defect
from notation.render.svg import DEFAULT_SIZE, draw_position
from notation.replay import resolve_game
from notation.stepper import StepperError


@click.command("diagram")
@click.argument("file", type=click.Path(exists=True, allow_dash=True))
@game_option
@click.option(
    "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
    help="Which record of FILE (1 is the first).",
)
@click.option(
    "--turn", type=click.IntRange(min=0), default=None,
    help="Draw the position after this turn of the main line (0: the start). "
    "Default: the end of the main line.",
)
@click.option(
    "--size", type=click.FloatRange(min=60, max=4000), default=DEFAULT_SIZE,
    show_default=True, help="Length of the board's longer side, in pixels.",
)
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
    help="The SVG file to write (default or -: standard output).",
)
def command(
    file: str, game: str | None, number: int, turn: int | None, size: float,
    output: str | None,
) -> None:
    """Draw a position of a record in FILE as SVG.

    The picture shows the board with its coordinates, every piece or stack
    (bottom to top), the squares of the last move outlined, and under it what
    the last move did and the facts of the position.  A broken record is drawn
    as far as its first bad move, with a warning, and the command exits 1.
    """
    refuse_overwriting_inputs(output, expand_sources((file,)))
    record = select_record(file, number)
    resolved = resolve_game(record, game)
    if isinstance(resolved, Defect):  # nothing to draw: say which game
        raise click.UsageError(str(resolved.located(file=record.source, record=record.index)))
    try:
        picture = draw_position(record, game, turn, size=size)
    except StepperError as exc:
        raise click.ClickException(str(exc.error)) from None
    if turn is not None and not picture.reached and picture.error is None:
        where = "starts after" if picture.turn > turn else "ends at"
        raise click.BadParameter(
            f"record {number} {where} turn {picture.turn}", param_hint="--turn"
        )
    with atomic_output(output) as out:
        out.write(picture.svg)
    if picture.error is not None:
        stopped = "" if picture.reached else f"; drew the position after turn {picture.turn}"
        click.echo(f"warning: {picture.error}{stopped}", err=True)
        sys.exit(1)

