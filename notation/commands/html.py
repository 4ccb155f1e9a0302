"""``notation html``: records as one self-contained web page that replays them."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

import click

from notation.commands.common import (
    ShownPath,
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.record import Record
from notation.render.html import PagePart, build_chunks, write_page

#: Past this many bytes of records in the page, a warning (docs/cli.md): browsers
#: open such a page slowly, if at all.
PAGE_WARNING_BYTES = 200_000_000


@click.command("html")
@files_argument
@game_option
@click.option(
    "-o", "--output", type=ShownPath(dir_okay=False, writable=True), default=None,
    help="The HTML file to write (default or -: standard output).",
)
@click.option("--title", default=None, help="The page's title (default: the first record's).")
@click.option(
    "--record", "number", type=click.IntRange(min=1), default=None,
    help="Only this record of FILE (1 is the first; one FILE), reached at once "
    "(see `notation index`).",
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None,
    help="Make the page with this many processes (default: one per core). "
    "The page is the same whatever the number.",
)
def command(
    files: tuple[str, ...], game: str | None, output: str | None, title: str | None,
    number: int | None, jobs: int | None,
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

    chosen: Record | None = None
    if number is not None:  # record N alone, without reading those before it
        from notation.commands._one_record import select_record

        if len(files) != 1:
            raise click.UsageError("--record picks a record of one FILE; name one")
        chosen = select_record(files[0], number)

    def records() -> Iterator[Record]:
        if chosen is not None:
            yield chosen
            return
        for source in sources:
            yield from source.records()

    chunks = build_chunks(records(), game, jobs=jobs)
    try:
        first = next(chunks, None)
        if first is None:
            raise click.UsageError("no records found in the files given")
        broken = [0]
        size = 0

        def warned() -> Iterator[PagePart]:
            # Warnings in record order, as each chunk comes.
            nonlocal size
            for chunk in itertools.chain((first,), chunks):
                for error in chunk.errors:
                    if error is not None:
                        broken[0] += 1
                        click.echo(f"warning: {error}", err=True)
                before, size = size, size + len(chunk.json)  # JSON: nearly all ASCII
                if before <= PAGE_WARNING_BYTES < size:
                    click.echo(_too_big(), err=True)
                yield chunk

        with atomic_output(output) as out:
            write_page(out, warned(), title or _record_title(first))
    finally:
        chunks.close()  # stops the workers, however this ends
    sys.exit(1 if broken[0] else 0)


def _too_big() -> str:
    size = PAGE_WARNING_BYTES // 1_000_000
    return (
        f"warning: the page is over {size} MB, more than a browser opens comfortably; "
        "make several pages, each of a part of the records "
        "(notation split FILE --every 2000, then notation html on each part)"
    )


def _record_title(chunk: PagePart) -> str:
    for name, value in chunk.first_tags:
        if name == "Event":
            return value
    return "Game records"
