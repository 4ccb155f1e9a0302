"""``notation convert``: records from one format to another, nothing lost."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator

import click

from notation.commands.common import (
    Source,
    atomic_output,
    expand_sources,
    files_argument,
    game_option,
    refuse_overwriting_inputs,
)
from notation.convert import FORMATS, convert_record, read_json_records
from notation.reader import read_records
from notation.record import Record


def _records(source: Source, fmt: str) -> Iterator[Record]:
    lines = source.lines()
    if fmt == "auto":
        first: list[str] = []
        for line in lines:
            first.append(line)
            if line.strip():
                break
        # A byte-order mark is not part of the text (both readers skip it).
        start = first[-1].lstrip().removeprefix("\ufeff") if first else ""
        fmt = "json" if start.startswith('{"') else "text"
        lines = _chain(first, lines)
    if fmt == "json":
        return read_json_records(lines, source.name)
    return read_records(lines, source.name, keep_raw=True)


def _chain(head: list[str], rest: Iterable[str]) -> Iterator[str]:
    yield from head
    yield from rest


@click.command("convert")
@files_argument
@click.option("--to", "to", type=click.Choice(FORMATS), required=True,
              help="text: canonical record text; plain: main line only; json: JSON Lines.")
@click.option("--from", "source_format", type=click.Choice(["auto", "text", "json"]),
              default="auto", show_default=True,
              help="The input format; auto tells JSON Lines from record text by the first line.")
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write here (whole or not at all) instead of standard output.")
@click.option("--strict", is_flag=True,
              help="Stop at the first record that does not check, writing nothing.")
@game_option
def command(
    files: tuple[str, ...],
    to: str,
    source_format: str,
    output: str | None,
    strict: bool,
    game: str | None,
) -> None:
    """Convert the records of FILES to another format, losing nothing.

    A record that does not check is still converted as far as its syntax allows
    (a record that cannot be read in full is passed on as written), with a
    warning on standard error naming it; --strict refuses it instead.  Exits 0
    when every record checked, 1 when some did not (the output is complete all
    the same), 2 for usage errors.
    """
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)
    broken = written = 0
    try:
        with atomic_output(output) as out:
            for source in sources:
                for record in _records(source, source_format):
                    converted = convert_record(record, to, game)
                    if converted.error is not None:
                        broken += 1
                        if strict:
                            raise click.ClickException(
                                f"{converted.error} (--strict: nothing written)"
                            )
                        how = "kept as written" if converted.verbatim else "converted as read"
                        click.echo(f"warning: {converted.error} ({how})", err=True)
                    if written and to != "json":
                        out.write("\n")  # records are separated by a blank line
                    out.write(converted.text)
                    written += 1
    except ValueError as exc:  # a JSON Lines input that is not records
        raise click.ClickException(str(exc)) from None
    if not written:
        click.echo("warning: no records found in the files given", err=True)
    sys.exit(1 if broken else 0)
