"""``notation convert``: records from one format to another, nothing lost."""

from __future__ import annotations

import sys
from collections.abc import Iterator
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
from notation.formats.convert import (
    FORMATS,
    Converted,
    NotARecord,
    convert_lines,
    convert_record,
    read_json_records,
    sniff_json,
)
from notation.writer import record_separator


def _converted(
    source: Source, fmt: str, to: str, game: str | None, repair: bool
) -> Iterator[Converted]:
    """``convert_record`` of every record of ``source`` (read as ``fmt`` says)."""
    lines = source.lines()
    if fmt == "auto":
        is_json, lines = sniff_json(lines)
        fmt = "json" if is_json else "text"
    if fmt == "json":
        # A JSON line that is not a record stops the conversion: its text is no record
        # text to pass on, and skipping it would lose it.
        records = read_json_records(lines, source.name, errors="raise")
        return (convert_record(record, to, game, repair=repair) for record in records)
    return convert_lines(lines, source.name, to, game, repair=repair)


#: The exit code of a conversion stopped by input that is not records at all (a JSON
#: line that is not a record object): not 1, which says "some record is broken".
STOPPED = 3


@click.command("convert")
@files_argument
@click.option("--to", "to", type=click.Choice(FORMATS), required=True,
              help="text: canonical record text; plain: main line only; json: JSON Lines.")
@click.option("--from", "source_format", type=click.Choice(["auto", "text", "json"]),
              default="auto", show_default=True,
              help="The input format; auto tells JSON Lines from record text by content.")
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write here (whole or not at all) instead of standard output.")
@click.option("--strict", is_flag=True,
              help="Stop at the first record that does not check, writing nothing.")
@click.option("--repair", is_flag=True,
              help="Rewrite records that do not check in canonical form as far as they "
                   "read (numbers, spellings), instead of passing them on as written.")
@game_option
def command(
    files: tuple[str, ...],
    to: str,
    source_format: str,
    output: str | None,
    strict: bool,
    repair: bool,
    game: str | None,
) -> None:
    """Convert the records of FILES to another format, losing nothing.

    A record that checks comes out in canonical form.  One that does not is
    passed on exactly as it was written (in JSON, as its raw text), with a
    warning on standard error naming it, so that converting never changes a
    verdict; --repair rewrites it as far as it reads instead, and --strict
    refuses it.  Every record that comes in goes out.  Exits 0 when every record
    checked, 1 when some did not (the output is complete all the same), 2 for
    usage errors, 3 when a JSON line is not a record (the conversion stops there).
    """
    if strict and repair:
        raise click.UsageError("--strict and --repair do not go together")
    sources = expand_sources(files)
    refuse_overwriting_inputs(output, sources)
    broken = written = 0
    try:
        # Records are freed as they are written, as in a check: collect cycles less.
        with atomic_output(output) as out, collecting_less():
            written, broken = _convert_all(sources, out, to, source_format, strict, repair, game)
    except NotARecord as exc:
        click.echo(f"error: {exc} (conversion stopped)", err=True)
        sys.exit(STOPPED)
    if not written:
        click.echo("warning: no records found in the files given", err=True)
    sys.exit(1 if broken else 0)


def _convert_all(
    sources: list[Source],
    out: TextIO,
    to: str,
    source_format: str,
    strict: bool,
    repair: bool,
    game: str | None,
) -> tuple[int, int]:
    """Convert every record of ``sources`` into ``out``; (records written, broken)."""
    broken = written = 0
    previous = ""  # the text of the record written last
    for source in sources:
        for converted in _converted(source, source_format, to, game, repair):
            if converted.error is not None:
                broken += 1
                if strict:
                    raise click.ClickException(f"{converted.error} (--strict: nothing written)")
                how = "kept as written"
                if converted.repaired:
                    how = "rewritten as far as it reads (--repair)"
                click.echo(f"warning: {converted.error} ({how})", err=True)
            if written and to != "json":
                out.write(record_separator(previous))  # a blank line, in its line end
            out.write(converted.text)
            previous = converted.text
            written += 1
    return written, broken
