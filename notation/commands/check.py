"""``notation check``: the verdict of the rules on every record."""

from __future__ import annotations

import json
import sys
from typing import TextIO

import click

from notation.commands.common import expand_sources, files_argument, game_option
from notation.replay import Verdict, check_record


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
def command(files: tuple[str, ...], game: str | None, fmt: str, verbose: bool) -> None:
    """Check every record in FILES against the rules of its game.

    FILES are record files, folders (their *.txt and *.pgn files, recursively)
    or - for standard input.  Each broken record gets one line:
    FILE:LINE:COL: record N, turn T (MOVE): reason.  Exits 0 if every record
    is valid, 1 if any is not.
    """
    out = sys.stdout
    total = broken = 0
    sources = expand_sources(files)
    for source in sources:
        for record in source.records():
            verdict = check_record(record, game)
            total += 1
            broken += not verdict.ok
            _report(out, verdict, fmt, verbose)
    if fmt == "text":
        files_word = "file" if len(sources) == 1 else "files"
        if total == 0:
            out.write(f"no records found in {len(sources)} {files_word}\n")
        else:
            out.write(
                f"{total} record{'s' if total != 1 else ''} in {len(sources)} {files_word}: "
                f"{total - broken} valid, {broken} broken\n"
            )
    sys.exit(1 if broken else 0)


def _report(out: TextIO, verdict: Verdict, fmt: str, verbose: bool) -> None:
    if fmt == "json":
        out.write(json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n")
    elif verdict.error is not None:
        out.write(f"{verdict.error}\n")
    elif verbose:
        out.write(
            f"{verdict.source}: record {verdict.record}: valid {verdict.game} game, "
            f"{verdict.turns} turns, {verdict.result}\n"
        )
