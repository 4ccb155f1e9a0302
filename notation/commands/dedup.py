"""``notation dedup``: drop the records whose game came before, keep the first."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

import click

from notation.collections.operations import Seen
from notation.commands._collection import (
    Writer,
    all_written_records,
    records_word,
    summary,
    to_option,
)
from notation.commands.common import (
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)


@click.command("dedup")
@files_argument
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write the records kept here (whole or not at all) instead of standard "
                   "output.")
@click.option("-d", "--duplicates", default=None, metavar="FILE",
              help="Write the records dropped to FILE, as they were written.")
@to_option
@click.option("-q", "--quiet", is_flag=True, help="No summary on standard error.")
@game_option
def command(
    files: tuple[str, ...],
    output: str | None,
    duplicates: str | None,
    to: str | None,
    quiet: bool,
    game: str | None,
) -> None:
    """Keep the first record of each game in FILES, dropping later copies.

    Two records are the same game when they have the same game, the same start
    position and the same main line, move for move, however the moves are spelt:
    tags, comments, glyphs, variations and move numbers do not count (so a copy
    with different player tags or added comments is a duplicate).  A record the
    game cannot read (a token that is no move, an unknown game) is compared by its
    whole text as written, so only its exact copies are duplicates.  Records are
    written exactly as they were, or converted with --to.  Memory grows by one
    hash per distinct game, whatever the records' length.
    """
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)
    refuse_overwriting_inputs(duplicates, sources)
    if output is not None and duplicates is not None and output == duplicates:
        raise click.UsageError("--output and --duplicates name the same file")
    seen = Seen(game, places=False)  # the command needs no places: 4 bytes a game less
    total = dropped = 0
    with atomic_output(output) as out, _maybe_output(duplicates) as dup_out:
        kept_writer = Writer(out, to, game)
        dup_writer = Writer(dup_out, None, game) if dup_out is not None else None
        for _, item in all_written_records(sources, "deduplicating"):
            total += 1
            if seen.first_of(item.record, total) is not None:
                dropped += 1
                if dup_writer is not None:
                    dup_writer.write(item)
                continue
            kept_writer.write(item)
    summary(
        f"dedup: kept {records_word(total - dropped)} of {total}, dropped {dropped} "
        f"duplicate{'' if dropped == 1 else 's'}",
        quiet,
    )


def _maybe_output(path: str | None) -> AbstractContextManager[TextIO | None]:
    """atomic_output(path), or nothing when no path is given."""
    return nullcontext(None) if path is None else atomic_output(path)
