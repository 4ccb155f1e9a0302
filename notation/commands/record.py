"""``notation record``: enter a game move by move, or mend a record, on the terminal (a
Textual app on :class:`notation.editing.recordfile.RecordFile`)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import click

from notation.commands.common import (
    RECORD_EXTENSION,
    UsageProblem,
    game_option,
    is_terminal,
)
from notation.editing.recordfile import RecordFile, journal_path
from notation.errors import NotationException, display_path

__all__ = ["command"]


@click.command("record")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--record", "number", type=click.IntRange(min=1), default=None,
    help="Open this record of FILE (1 is the first) to continue or mend it; without "
    "it, a new record is appended.",
)
@game_option
@click.option(
    "--player", "players", multiple=True, metavar="NAME",
    help="A player's name, in turn order (repeat for each; Zombie Kidz: their number "
    "sets Players).",
)
@click.option(
    "--clock", "live", is_flag=True,
    help="Recording a game as it is played: every move gets the time since the app "
    "started as its clock, [%clk h:mm:ss] (:clk still sets one by hand).",
)
@click.option("--ascii", is_flag=True, help="Draw with ASCII characters only.")
def command(
    file: str, number: int | None, game: str | None, players: tuple[str, ...], live: bool,
    ascii: bool,
) -> None:
    """Enter a game move by move, with the rules at hand, into FILE.

    Without --record a new record of --game is appended to FILE (which need not exist;
    a name without an extension gets .ugn, the records' own).
    With --record N, record N opens to continue or mend it (a broken one at its first
    defect; where an earlier move copied wrong by one slip explains the break, that
    mend is offered beside the board, and ctrl+r makes it).  Type a move and press
    Enter (Tab completes; the moves that can be played are listed with what they do);
    ctrl+z undo, ctrl+y redo, ctrl+s save, ctrl+q quit, F2-F7 glyphs, { a comment, F1
    all the keys.  Every edit goes to a journal beside FILE until it is saved, and the
    next `notation record FILE` after a crash restores it.  Needs a terminal: exits 2
    when standard input or output is not one.
    """
    if not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        raise UsageProblem(
            "notation record needs a terminal to read keys from and draw on; "
            "use `notation check` and `notation convert` for files"
        )
    file = with_record_extension(file)
    journal = journal_path(file)
    if number is None and game is None and not os.path.lexists(journal):
        raise UsageProblem("a new record needs its game: --game cave, for example")
    try:
        kept = RecordFile.open(
            file, number, game=game, players=players, clock=stopwatch() if live else None
        )
    except NotationException as exc:
        raise UsageProblem(str(exc)) from None
    except OSError as exc:
        raise UsageProblem(f"{display_path(file)}: {exc.strerror or exc}") from None
    # Imported here: Textual is loaded only when there is a screen to draw on.
    from notation.tui.record_app import RecordApp
    from notation.tui.tty import NoTerminal, hold_standard_descriptors, terminal_descriptors

    hold_standard_descriptors()
    app = RecordApp(kept, ascii=ascii)
    try:
        with terminal_descriptors():
            app.run()
    except NoTerminal as exc:
        raise UsageProblem(f"no terminal to read keys from ({exc})") from None
    finally:
        kept.close()
    if os.path.exists(journal):
        click.echo(
            f"unsaved edits are kept in {display_path(journal)}; "
            f"`notation record {display_path(file)}` brings them back",
            err=True,
        )


def with_record_extension(file: str) -> str:
    """``file``, or ``file.ugn`` when it names no file that exists and has no extension:
    a new file of records gets the records' own extension, as a chess file gets .pgn."""
    name = os.path.basename(file)
    if os.path.exists(file) or not name or os.path.splitext(name)[1]:
        return file
    return file + RECORD_EXTENSION


def stopwatch() -> Callable[[], float]:
    """A clock for a game recorded as it is played: the seconds since it was made."""
    start = time.monotonic()
    return lambda: time.monotonic() - start
