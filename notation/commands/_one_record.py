"""What the commands on one record share (``show``, ``replay``, ``analyze``,
``diagram``): FILE, --record, --turn; finding the record, opening a stepper on it,
going to a turn, printing the position."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from notation.commands.common import (
    ShownPath,
    expand_sources,
    file_error,
    game_option,
    stdin_lines,
    warn_not_utf8,
)
from notation.errors import Defect, display_path
from notation.record import Record
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError


def select_record(path: str, number: int) -> Record:
    """Record ``number`` (1-based) of the file at ``path`` ('-': standard input).

    Reached without reading the records before it: through the file's index
    (``notation index``) when it has one that is up to date, else by cutting the
    file into records without reading them (:mod:`notation.collections.index`); standard input
    and compressed files are read through the same way.  Its number, lines and
    defects are those a reading of the whole file gives.
    """
    from notation.collections.index import RecordNotFound, find_record, is_index_file, record_at

    if path != "-" and Path(path).is_dir():
        raise click.UsageError(f"{display_path(path)} is a folder; name one record file of it")
    (source,) = expand_sources((path,))
    name = source.name
    if source.path is not None and is_index_file(source.path):
        raise click.UsageError(
            f"{display_path(name)} is an index (made by `notation index`), not a file of records; "
            f"name the file it is the index of"
        )

    def not_utf8() -> None:
        warn_not_utf8(name)

    def unusable_index(message: str) -> None:
        click.echo(f"warning: {message}; reading the file without it", err=True)

    try:
        if source.path is None:
            return find_record(stdin_bytes(), number, name, not_utf8=not_utf8)
        return record_at(
            source.path, number, name, not_utf8=not_utf8, on_problem=unusable_index
        )
    except OSError as exc:
        raise file_error(name, exc) from None
    except RecordNotFound as exc:
        raise missing_record(display_path(name), number, exc.count) from None


def missing_record(shown: str, number: int, count: int) -> click.UsageError:
    """The error for a ``--record number`` beyond the ``count`` records of ``shown``."""
    if not count:
        return click.UsageError(f"no records found in {shown}")
    message = f"{shown} has no record {number} (it has {count})"
    return click.BadParameter(message, param_hint="--record")


def stdin_bytes() -> Iterator[bytes]:
    """The lines of standard input as bytes (none if it is closed), left open."""
    if sys.stdin is None:
        return iter(())
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # text without bytes underneath (an embedding program)
        return (line.encode("utf-8") for line in stdin_lines())
    from notation.files.textfile import open_stream

    return iter(open_stream(buffer, "<stdin>"))  # decompressed as a file is


def record_options(func: Callable[..., None]) -> Callable[..., None]:
    """FILE, --record, --turn, --game and --ascii: what ``show`` and ``replay`` share."""
    decorators = [
        click.argument(
            "file", type=ShownPath(exists=True, dir_okay=False, allow_dash=True)
        ),
        click.option(
            "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
            help="Which record of FILE (1 is the first); reached without reading those "
            "before it (at once with `notation index FILE`).",
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
    at that move, with ``stepper.cursor.defect`` saying why.
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
        click.echo(stepper.cursor.position.position_string())
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
