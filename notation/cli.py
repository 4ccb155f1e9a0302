"""The ``notation`` command: a thin shell over the library.

Each subcommand is a module of :mod:`notation.commands`.  Exit codes: 0 all is
well, 1 some record is broken, 2 the command itself was used wrongly (unknown
option, missing file...).
"""

from __future__ import annotations

import os
import sys

import click

from notation import __version__
from notation.commands import all_commands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notation")
def cli() -> None:
    """Record, check and replay games of Tinkertown Cemetery, Cave and Zombie Kidz.

    Records are PGN-like text files holding one or more games; see
    docs/record-format.md.  Run `notation COMMAND --help` for each command.
    """


for _command in all_commands():
    cli.add_command(_command)


def main() -> None:
    """Entry point of the ``notation`` console script."""
    try:
        cli(standalone_mode=True)
    except BrokenPipeError:
        # The reader of our output went away (``notation check ... | head``): stop quietly.
        devnull = open(os.devnull, "w")  # noqa: SIM115 - must outlive this frame
        os.dup2(devnull.fileno(), sys.stdout.fileno())
        sys.exit(1)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
