"""``notation html``: records as one self-contained web page that replays them."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

import click

from notation.commands.common import (
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.record import Record
from notation.render.html import Chunk, build_chunks, write_page


@click.command("html")
@files_argument
@game_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
    help="The HTML file to write (default or -: standard output).",
)
@click.option("--title", default=None, help="The page's title (default: the first record's).")
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None,
    help="Make the page with this many processes (default: one per core). "
    "The page is the same whatever the number.",
)
def command(
    files: tuple[str, ...], game: str | None, output: str | None, title: str | None,
    jobs: int | None,
) -> None:
    """Write the records in FILES as one HTML page that steps through them.

    The page is a single file with everything inside (no network, opens from
    the disk in any current browser): the board as in `notation diagram`,
    buttons and keys to step (press ? on the page for the keys), the move list
    with its variations, comments, glyphs, a legend, and a chooser when there
    are several records.  Broken records are shown up to their first bad move,
    with the error; the command then warns and exits 1.
    """
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)

    def records() -> Iterator[Record]:
        for source in sources:
            yield from source.records()

    chunks = build_chunks(records(), game, jobs=jobs)
    try:
        first = next(chunks, None)
        if first is None:
            raise click.UsageError("no records found in the files given")
        broken = [0]

        def warned() -> Iterator[Chunk]:
            # Warnings in record order, as each chunk comes.
            for chunk in itertools.chain((first,), chunks):
                for error in chunk.errors:
                    if error is not None:
                        broken[0] += 1
                        click.echo(f"warning: {error}", err=True)
                yield chunk

        with atomic_output(output) as out:
            write_page(out, warned(), title or _record_title(first))
    finally:
        chunks.close()  # stops the workers, however this ends
    sys.exit(1 if broken[0] else 0)


def _record_title(chunk: Chunk) -> str:
    for name, value in chunk.first_tags:
        if name == "Event":
            return value
    return "Game records"
