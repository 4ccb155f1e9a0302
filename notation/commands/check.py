"""``notation check``: the verdict of the rules on every record.

The checking, in one process or several (``--jobs``), is :func:`notation.batch.check_paths`;
this module reads the options and writes a line per verdict, a summary, and a progress
bar for long checks on a terminal.
"""

from __future__ import annotations

import json
import sys
from contextlib import closing

import click

from notation.batch import TextSource, check_paths, input_size
from notation.commands.common import (
    Progress,
    expand_sources,
    files_argument,
    game_option,
    stdin_lines,
    warn_not_utf8,
)
from notation.replay import Verdict


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
    jobs: int | None,
) -> None:
    """Check every record in FILES against the rules of its game.

    FILES are record files, folders (their *.txt, *.pgn, *.jsonl and *.json files,
    recursively, hidden ones skipped) or - for standard input.  Each broken record
    gets one line: FILE:LINE:COL: record N, turn T (MOVE): reason.  Exits 0 if every
    record is valid, 1 if any is not.
    """
    sources = expand_sources(files)
    inputs = [
        source.name if source.path is not None else TextSource(source.name, stdin_lines())
        for source in sources
    ]
    progress = Progress.for_input(input_size(inputs))

    def not_utf8(name: str) -> None:
        if progress is not None:
            progress.clear()
        warn_not_utf8(name)

    verdicts = check_paths(
        inputs,
        jobs=jobs,
        default_game=game,
        strict=strict,
        on_not_utf8=not_utf8,
        on_progress=None if progress is None else progress.advance,
    )
    out = sys.stdout
    total = broken = 0
    try:
        with closing(verdicts):  # stopped by Ctrl-C, a closed pipe...: end the workers now
            for verdict in verdicts:
                total += 1
                if verdict.error is not None:
                    broken += 1
                elif fmt != "json" and not verbose:
                    continue
                if progress is not None:
                    progress.clear()
                out.write(_line(verdict, fmt))
                if progress is not None:
                    out.flush()
    finally:
        if progress is not None:
            progress.stop()
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


def _line(verdict: Verdict, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n"
    if verdict.error is not None:
        return f"{verdict.error}\n"
    return (
        f"{verdict.source}: record {verdict.record}: valid {verdict.game} game, "
        f"{verdict.turns} turns, {verdict.result}\n"
    )
