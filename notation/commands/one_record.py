"""What the commands on one record share (``show``, ``replay``, ``analyze``,
``diagram``): FILE, --record, --turn; finding the record, opening a stepper on it,
going to a turn, printing the position."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from notation.commands.common import expand_sources, game_option
from notation.errors import Defect
from notation.record import Record
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError


def select_record(path: str, number: int) -> Record:
    """Record ``number`` (1-based) of the file at ``path`` ('-': standard input)."""
    (source,) = expand_sources((path,))
    count = 0
    for record in source.records():
        if record.index == number:
            return record
        count += 1
    if not count:
        raise click.UsageError(f"no records found in {source.name}")
    raise click.BadParameter(
        f"{source.name} has no record {number} (it has {count})", param_hint="--record"
    )



def record_options(func: Callable[..., None]) -> Callable[..., None]:
    """FILE, --record, --turn, --game and --ascii: what ``show`` and ``replay`` share."""
    decorators = [
        click.argument(
            "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True)
        ),
        click.option(
            "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
            help="Which record of FILE (1 is the first).",
        ),
        click.option(
            "--turn", type=click.IntRange(min=0), default=None,
            help="The position after this turn of the main line (0: the start).",
        ),
        game_option,
        click.option("--ascii", is_flag=True, help="Draw with ASCII characters only."),
    ]
    for decorate in reversed(decorators):
        func = decorate(func)
    return func


def open_stepper(record: Record, game: str | None) -> Stepper:
    """A stepper on ``record``; a record we cannot even start is an error for the user.

    No game (no ``Game`` tag, no ``--game``) is a usage error (exit 2); a start that
    the game refuses (a bad ``Players`` tag) makes the record broken (exit 1).
    """
    resolved = resolve_game(record, game)
    if isinstance(resolved, Defect):
        raise click.UsageError(str(resolved.located(file=record.source, record=record.index)))
    try:
        return Stepper(record, resolved)
    except StepperError as exc:
        click.echo(f"error: {exc.error}", err=True)
        sys.exit(1)


def go_to(stepper: Stepper, turn: int | None) -> None:
    """Step along the main line to the position after ``turn`` (None: its end).

    A turn outside the record is a usage error; a turn beyond a broken move stops
    at that move, with ``stepper.error`` saying why.
    """
    if turn is None:
        stepper.to_end()
        return
    from notation.render.show_text import line_range

    first, last = line_range(stepper)
    if not first <= turn <= last:
        raise click.BadParameter(
            f"record {stepper.record.index} runs from turn {first} to turn {last}",
            param_hint="--turn",
        )
    stepper.goto_turn(turn)


def print_position(stepper: Stepper, *, ascii: bool, position_only: bool) -> None:
    """Print the stepper's position as ``show`` does, and exit 1 if the record is broken."""
    from notation.render.show_text import problem_line, show_renderable
    from notation.render.terminal import emit, is_plain, make_console

    broken = not stepper.verdict.ok
    if position_only:
        click.echo(stepper.position.position_string())
        problem = problem_line(stepper, ascii=True)
        if problem is not None:
            click.echo(problem.plain, err=True)
    else:
        console = make_console()
        renderable = show_renderable(
            stepper, width=console.width, ascii=ascii, plain=is_plain(console)
        )
        emit(console, renderable)
    sys.exit(1 if broken else 0)
