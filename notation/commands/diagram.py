"""``notation diagram``: one position of a record as an SVG or PNG picture, or a game
as an animated GIF."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from notation.commands._one_record import (
    select_record,
)
from notation.commands.common import (
    ShownPath,
    atomic_output,
    expand_sources,
    game_option,
    refuse_overwriting_inputs,
)
from notation.errors import Defect
from notation.record import Record
from notation.render import raster
from notation.render.record_svg import draw_position
from notation.render.svg import DEFAULT_SIZE
from notation.replay import resolve_game
from notation.stepper import StepperError

FORMATS = ("svg", "png", "gif")


@click.command("diagram")
@click.argument("file", type=ShownPath(exists=True, allow_dash=True))
@game_option
@click.option(
    "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
    help="Which record of FILE (1 is the first).",
)
@click.option(
    "--turn", type=click.IntRange(min=0), default=None,
    help="Draw the position after this turn of the main line (0: the start). "
    "Default: the end of the main line.  A GIF plays up to it.",
)
@click.option(
    "--size", type=click.FloatRange(min=60, max=4000), default=DEFAULT_SIZE,
    show_default=True, help="Length of the board's longer side, in pixels.",
)
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default=None,
    help="svg (the default), png, or gif: the main line, one frame per turn.  "
    "Default: from the name of -o (.png, .gif), else svg.  PNG and GIF need the "
    "png extra: pip install 'undead-notation[png]'.",
)
@click.option(
    "--legend/--no-legend", default=True, show_default=True,
    help="Under the picture, what each colour and mark means (not in a GIF).",
)
@click.option(
    "--delay", type=click.IntRange(min=20, max=60_000), default=raster.DEFAULT_DELAY,
    show_default=True, help="GIF: how long each frame stays, in milliseconds.",
)
@click.option(
    "-o", "--output", type=ShownPath(dir_okay=False, writable=True), default=None,
    help="The file to write (default or -: standard output).",
)
def command(
    file: str, game: str | None, number: int, turn: int | None, size: float,
    fmt: str | None, legend: bool, delay: int, output: str | None,
) -> None:
    """Draw a position of a record in FILE as SVG or PNG, or its game as a GIF.

    The picture shows the board with its coordinates, every piece or stack
    (bottom to top), the last move (its squares outlined, an arrow for a move,
    a ring for an entry or a placement), and under it what the last move did,
    the facts of the position and a legend.  A broken record is drawn as far
    as its first bad move, with a warning, and the command exits 1.
    """
    kind = fmt or _format_of(output)
    if kind != "svg":
        try:
            raster.require()
        except raster.RasterUnavailable as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
    refuse_overwriting_inputs(output, expand_sources((file,)))
    record = select_record(file, number)
    resolved = resolve_game(record, game)
    if isinstance(resolved, Defect):  # nothing to draw: say which game
        raise click.UsageError(str(resolved.located(file=record.source, record=record.index)))
    if kind == "gif":
        _gif(record, game, number, turn, size, delay, output)
        return
    try:
        picture = draw_position(record, game, turn, size=size, legend=legend)
    except StepperError as exc:
        raise click.ClickException(str(exc.error)) from None
    if turn is not None and not picture.reached and picture.error is None:
        where = "starts after" if picture.turn > turn else "ends at"
        raise click.BadParameter(
            f"record {number} {where} turn {picture.turn}", param_hint="--turn"
        )
    with atomic_output(output) as out:
        if kind == "png":
            out.flush()
            out.buffer.write(raster.svg_to_png(picture.svg))
        else:
            out.write(picture.svg)
    if picture.error is not None:
        stopped = "" if picture.reached else f"; drew the position after turn {picture.turn}"
        click.echo(f"warning: {picture.error}{stopped}", err=True)
        sys.exit(1)


def _format_of(output: str | None) -> str:
    suffix = Path(output).suffix.lower().lstrip(".") if output and output != "-" else ""
    return suffix if suffix in FORMATS else "svg"


def _gif(
    record: Record, game: str | None, number: int, turn: int | None, size: float, delay: int,
    output: str | None,
) -> None:
    try:
        data, stepper = raster.record_gif(record, game, turn, size=size, delay=delay)
    except StepperError as exc:
        raise click.ClickException(str(exc.error)) from None
    if turn is not None and stepper.cursor.turn != turn and stepper.cursor.defect is None:
        where = "starts after" if stepper.cursor.turn > turn else "ends at"
        raise click.BadParameter(
            f"record {number} {where} turn {stepper.cursor.turn}", param_hint="--turn"
        )
    with atomic_output(output) as out:
        out.flush()
        out.buffer.write(data)
    error = stepper.cursor.defect or stepper.verdict.error
    if error is not None:
        click.echo(f"warning: {error}; the GIF stops after turn {stepper.cursor.turn}", err=True)
        sys.exit(1)
