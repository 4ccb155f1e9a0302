"""The ``notation`` command: a thin shell over the library.

Each subcommand is a module of :mod:`notation.commands`.  Exit codes: 0 all is
well, 1 some record is broken, 2 the command itself was used wrongly (unknown
option, missing file...), 130 interrupted, 141 the reader of the output went away.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

import click

from notation import __version__
from notation.commands import command_names, load_command


class _Notation(click.Group):
    """The command group, which loads a command only when it runs (see
    :mod:`notation.commands`) and ends an interrupted or failing command with a message."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return command_names()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return load_command(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # click would say "Aborted!" and exit 1, the code of a broken record.
            click.echo("interrupted", err=True)
            ctx.exit(INTERRUPTED)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                # The reader of our output went away.  click would exit 1, the code of
                # a broken record: exit as `cat` does in a closed pipe instead.
                _silence_stdout()
                ctx.exit(BROKEN_PIPE)
            # A file that vanished or cannot be read mid-way, a full disk under -o.
            from notation.commands.common import UsageProblem, file_error

            if exc.filename is not None:
                raise file_error(str(exc.filename), exc) from None
            raise UsageProblem(exc.strerror or str(exc)) from None


#: The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130
#: The exit code of a command whose reader went away (``notation convert f | head``):
#: 128 + SIGPIPE, what shells report for `cat` or `grep` killed by a closed pipe, so
#: that a pipeline sees the usual code, never 1, which would say a record is broken.
BROKEN_PIPE = 141


def _silence_stdout() -> None:
    """Send what is left of standard output nowhere: the reader is gone, and the flush
    at exit would fail again ("Exception ignored ... BrokenPipeError")."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # not a file (an embedding program)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


@click.group(cls=_Notation, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notation")
def cli() -> None:
    """Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

    Records are PGN-like text files holding one or more games; see
    docs/record-format.md.  Run `notation COMMAND --help` for each command.
    """




def main() -> None:
    """Entry point of the ``notation`` console script."""
    # Started with standard output or error closed (``notation check x >&-``), Python
    # has None there: what would go to them goes nowhere, as to a reader gone away.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the whole run
    try:
        try:
            cli(standalone_mode=True)
        finally:
            # Flush here, not at exit: a reader gone by then gets a quiet exit below
            # instead of "Exception ignored ... BrokenPipeError" from the interpreter.
            sys.stdout.flush()
    except BrokenPipeError:
        # The reader of our output went away (``notation check ... | head``): stop quietly.
        _silence_stdout()
        sys.exit(BROKEN_PIPE)
    except KeyboardInterrupt:  # before or after a command runs (the group handles it within)
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)


if __name__ == "__main__":
    main()
