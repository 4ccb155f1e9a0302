"""``notation html``: records as one self-contained web page that replays them."""

from __future__ import annotations

import sys
from typing import Any

import click

from notation.commands.common import (
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.render.html import page_html, record_data


@click.command("html")
@files_argument
@game_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
    help="The HTML file to write (default or -: standard output).",
)
@click.option("--title", default=None, help="The page's title (default: the first record's).")
def command(
    files: tuple[str, ...], game: str | None, output: str | None, title: str | None
) -> None:
    """Write the records in FILES as one HTML page that steps through them.

    The page is a single file with everything inside (no network, opens from
    the disk in any current browser): the board as in `notation diagram`,
    buttons and arrow keys to step, the move list, comments, glyphs and
    variations, and a chooser when there are several records.  Broken records
    are shown up to their first bad move, with the error; the command then
    warns and exits 1.
    """
    records: list[dict[str, Any]] = []
    broken = 0
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)
    for source in sources:
        for record in source.records():
            made = record_data(record, game)
            records.append(made.data)
            if made.error is not None:
                broken += 1
                click.echo(f"warning: {made.error}", err=True)
    if not records:
        raise click.UsageError("no records found in the files given")
    first = records[0]
    name = title or _record_title(first)
    page = page_html(records, name)
    with atomic_output(output) as out:
        out.write(page)
    sys.exit(1 if broken else 0)


def _record_title(data: dict[str, object]) -> str:
    tags = data.get("tags")
    if isinstance(tags, list):
        for name, value in tags:
            if name == "Event":
                return str(value)
    return "Game records"

