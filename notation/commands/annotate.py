"""``notation annotate``: what the engine knows, written into the records."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from notation.collections.workers import collecting_less
from notation.commands.common import (
    Source,
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.errors import display_path
from notation.formats.annotate import AnnotateOptions, annotate_lines
from notation.writer import record_separator


def _annotate_source(source: Source, out: TextIO, options: AnnotateOptions, game: str | None,
                     previous: str | None) -> tuple[int, int, str | None]:
    """Annotate every record of one source into ``out``, after ``previous`` (the text of
    the record written there last, None: none); (records written, broken, the text of
    the record written last)."""
    written = broken = 0
    # Records are freed as they are written, as in a check: collect cycles less.
    with collecting_less():
        for converted in annotate_lines(source.lines(), source.name, options, game):
            if converted.error is not None:
                broken += 1
                click.echo(
                    f"warning: {converted.error} (not annotated, kept as written)", err=True
                )
            if previous is not None:
                out.write(record_separator(previous))  # a blank line, in its line end
            out.write(converted.text)
            previous = converted.text
            written += 1
    return written, broken, previous


@click.command("annotate")
@files_argument
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write here (whole or not at all) instead of standard output.")
@click.option("--in-place", is_flag=True, help="Rewrite each input file with its annotations.")
@click.option("--diagrams", type=click.IntRange(min=0), default=0, metavar="N",
              help="Add a text diagram after every N-th turn.")
@click.option("--analyze", is_flag=True,
              help="Mark moves ?? (allows a win at once), ? (misses a win in one) and ! (the "
                   "only move that does not lose at once), where the game supports it.")
@game_option
def command(files: tuple[str, ...], output: str | None, in_place: bool, diagrams: int,
            analyze: bool, game: str | None) -> None:
    """Write each record back with what the engine knows about every position.

    Facts go after each move as [%key value] commands inside a comment; a
    Termination tag says how the game ended.  Annotating an annotated record
    replaces the old commands and keeps the human comments.  The output is the
    canonical record text.  Records that do not check are written back exactly
    as they were, with a warning; the exit code is then 1.  Every record that
    comes in goes out.
    """
    sources = expand_sources(files)
    options = AnnotateOptions(diagrams=diagrams, analyze=analyze)
    broken = total = 0
    if in_place:
        if output is not None:
            raise click.UsageError("--in-place and -o do not go together")
        for source in sources:  # every file is fit before the first is rewritten
            if source.path is None:
                raise click.UsageError("--in-place needs files, not standard input")
            if not source.path.is_file():  # a FIFO or a device: read once, not rewritten
                raise click.UsageError(
                    f"{display_path(source.name)} is not a regular file: write it elsewhere "
                    "with -o instead of --in-place"
                )
            if source.is_json():
                raise click.UsageError(
                    f"{display_path(source.name)} holds JSON Lines, and annotate writes "
                    "record text: write it elsewhere with -o instead of --in-place"
                )
        for source in sources:
            with atomic_output(str(source.path)) as out:
                written, bad, _ = _annotate_source(source, out, options, game, None)
                total += written
                broken += bad
    else:
        refuse_overwriting_inputs(output, sources)
        previous: str | None = None
        with atomic_output(output) as out:
            for source in sources:
                written, bad, previous = _annotate_source(source, out, options, game, previous)
                total += written
                broken += bad
    if not total:
        click.echo("warning: no records found in the files given", err=True)
    sys.exit(1 if broken else 0)
