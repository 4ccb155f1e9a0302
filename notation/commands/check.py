"""``notation check``: the verdict of the rules on every record.

This module reads the options; :func:`notation.cli.check_report.run_check` checks and writes
the verdicts.  A plain ``notation check FILE...`` runs it without click (the fast path
of :func:`notation.cli.main`).
"""

from __future__ import annotations

import sys

import click

from notation.cli.check_report import run_check
from notation.commands.common import expand_sources, files_argument, game_option


@click.command("check")
@files_argument
@game_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a line per broken record and a summary; json: one JSON object per record.",
)
@click.option("-v", "--verbose", is_flag=True, help="Also list the valid records.")
@click.option(
    "--strict",
    is_flag=True,
    help="Also refuse what the import form tolerates: missing capture and other marks, "
    "short forms, letters in the wrong case, missing move numbers.",
)
@click.option(
    "--all",
    "all_errors",
    is_flag=True,
    help="Report every defect of a broken record, not only the first: each syntax error "
    "the reader can read past and the rules defects of every line, going on after a "
    "likely slip as if the move meant had been written (the message says which).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Check with this many processes (default: one per free core). The output is the "
    "same whatever the number; small inputs and standard input are checked in one.",
)
def command(
    files: tuple[str, ...],
    game: str | None,
    fmt: str,
    verbose: bool,
    strict: bool,
    all_errors: bool,
    jobs: int | None,
) -> None:
    """Check every record in FILES against the rules of its game.

    FILES are record files, folders (their *.ugn, *.txt, *.pgn, *.jsonl and *.json
    files, recursively, hidden ones skipped) or - for standard input.  Each broken record
    gets one line: FILE:LINE:COL: record N, turn T (MOVE): reason (with --all, one
    line per defect).  Exits 0 if every
    record is valid, 1 if any is not.
    """
    sources = expand_sources(files)
    # The body is shared with the fast path of notation.cli.main (no click there).
    code = run_check(
        [source.name if source.path is not None else None for source in sources],
        game=game,
        fmt=fmt,
        verbose=verbose,
        strict=strict,
        jobs=jobs,
        all_errors=all_errors,
    )
    sys.exit(code)
