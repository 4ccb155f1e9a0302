"""``notation show``: one position of a record, drawn on the terminal.

The picture is :func:`notation.render.show_text.show_renderable`; ``notation
replay`` prints the same when its output is not a terminal.
"""

from __future__ import annotations

import click

from notation.commands._one_record import (
    go_to,
    open_stepper,
    print_position,
    record_options,
    select_record,
)


@click.command("show")
@record_options
@click.option(
    "--position", "position_only", is_flag=True,
    help="Print the position as a one-line position string instead of the board.",
)
def command(
    file: str, number: int, turn: int | None, game: str | None, ascii: bool,
    position_only: bool,
) -> None:
    """Print the position after a turn of a record: board, facts, last move.

    FILE is a record file or - for standard input.  Without --turn, the position
    at the end of the main line.  Colours on a terminal; plain text when piped or
    when NO_COLOR is set.  Exits 0 for a valid record, 1 for a broken one (after
    printing the position the replay reached and what stopped it), 2 for a usage
    error.
    """
    record = select_record(file, number)
    stepper = open_stepper(record, game)
    go_to(stepper, turn)
    print_position(stepper, ascii=ascii, position_only=position_only)
