"""``notation replay``: step through records on the terminal (a Textual app, :mod:`notation.tui`).

FILE is a file, a folder (its record files, in order) or ``-`` (standard input, read
whole before the app starts; the keys then come from the terminal itself).  The app
opens at once however large the input: records are found and checked in the
background (:class:`notation.tui.catalog.Catalog`).  ``--record N`` is the Nth record
of the list (of the file; of the folder's files one after the other).

When standard output is not a terminal, ``replay`` prints what ``show`` prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from notation.commands._one_record import (
    go_to,
    missing_record,
    open_stepper,
    print_position,
    select_record,
    stdin_bytes,
)
from notation.commands.common import (
    ShownPath,
    UsageProblem,
    expand_sources,
    game_option,
    is_terminal,
    warn_not_utf8,
)
from notation.errors import Defect, display_path
from notation.record import Record
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError

if TYPE_CHECKING:
    from notation.tui.catalog import Catalog

__all__ = ["command"]


def _select(file: str, number: int) -> Record:
    """Record ``number`` of the list FILE stands for (``show``'s messages for a file)."""
    if file == "-" or not Path(file).is_dir():
        return select_record(file, number)  # through the file's index, if it has one
    sources = expand_sources((file,))
    count = 0
    for source in sources:
        for record in source.records():
            count += 1
            if count == number:
                return record
    shown = display_path(sources[0].name if len(sources) == 1 else file)
    raise missing_record(shown, number, count)


@click.command("replay")
@click.argument("file", type=ShownPath(exists=True, allow_dash=True))
@click.option(
    "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
    help="Which record to open first (1 is the first; of a folder, counted across its files).",
)
@click.option(
    "--turn", type=click.IntRange(min=0), default=None,
    help="Open at the position after this turn of the main line (0: the start).",
)
@game_option
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
def command(file: str, number: int, turn: int | None, game: str | None, ascii: bool) -> None:
    """Step through records on the terminal: board, move tree, comments, variations.

    FILE is a record file, a folder of them, or - for standard input.  Keys: Right/Left
    next/previous move, Home/End, PgDn/PgUp ten moves, Down/Up into/out of a variation,
    g go to a turn, / search (n N: next/previous match), ] [ next/previous record,
    l the record list (type to filter), ? help, q quit.  Starts at --turn (default:
    the start).  When standard output is not a terminal, prints what `notation show`
    prints (default turn: the end).
    """
    if not is_terminal(sys.stdout):
        stepper = open_stepper(_select(file, number), game)
        go_to(stepper, turn)
        print_position(stepper, ascii=ascii, position_only=False)
        return
    # Imported here: Textual is loaded only when there is a screen to draw on.
    from notation.tui.app import ReplayApp
    from notation.tui.catalog import Catalog, RecordSource
    from notation.tui.tty import NoTerminal, hold_standard_descriptors, terminal_descriptors

    hold_standard_descriptors()  # before any file is opened (see there)

    if file == "-":
        sources = [RecordSource("<stdin>", data=b"".join(stdin_bytes()))]
    else:
        sources = [
            RecordSource(source.name, path=source.path or Path(source.name))
            for source in expand_sources((file,))
        ]
    catalog = Catalog(sources, game)
    if not catalog.scan_to(number - 1):
        name = display_path(sources[0].name if len(sources) == 1 else file)
        raise missing_record(name, number, len(catalog.entries))
    _warn_not_utf8(catalog, number - 1)
    # A record that cannot be replayed (no game, a bad setup tag) does not stop the
    # app: it says so in the board's place, and the other records open.  A --turn
    # that the record has not is a usage error, as for `show`.
    first = _stepper(catalog.record(number - 1), game)
    if first is not None and turn is not None:
        go_to(first, turn)
    app = ReplayApp(
        catalog, start=number - 1, stepper=first, ascii=ascii,
        turn=turn if first is None else None,
    )
    try:
        with terminal_descriptors():
            app.run()
    except NoTerminal as exc:
        raise UsageProblem(
            f"no terminal to read keys from ({exc}); use `notation show` to print a position"
        ) from None


def _stepper(record: Record, game: str | None) -> Stepper | None:
    """A stepper on ``record``, or None if it cannot be replayed (the app says why)."""
    resolved = resolve_game(record, game)
    if isinstance(resolved, Defect):
        return None
    try:
        return Stepper(record, resolved)
    except StepperError:
        return None


def _warn_not_utf8(catalog: Catalog, index: int) -> None:
    """Say before the screen opens if the first record's source is not UTF-8 (later
    ones are named on the screen)."""
    name = catalog.source_name(index)
    if name in catalog.not_utf8:
        warn_not_utf8(name)
