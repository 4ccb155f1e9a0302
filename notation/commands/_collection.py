"""What ``select``, ``dedup`` and ``split`` share: records with the text they were
written in, and writing them out as written or converted."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

import click

from notation.collections.workers import collecting_less
from notation.commands.common import Progress, Source, UsageProblem, is_terminal
from notation.files.textfile import is_compressed
from notation.formats.convert import (
    FORMATS,
    NotARecord,
    convert_record,
    read_json_records,
    sniff_json,
)
from notation.reader import read_records
from notation.record import Record
from notation.writer import record_separator

F = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Written:
    """A record and the exact text it came as: its record text, or its JSON line."""

    record: Record
    text: str
    is_json: bool


def written_records(source: Source) -> Iterator[Written]:
    """The records of ``source`` with their text as written, streamed.  JSON Lines are
    told from record text by the first non-blank line, standard input included.

    While they are read, the garbage collector runs as seldom as it does for ``check``
    (:func:`notation.collections.workers.collecting_less`).
    """
    with collecting_less():
        is_json, rest = sniff_json(source.lines())
        if not is_json:
            for record in read_records(rest, source.name, keep_raw=True):
                yield Written(record, record.raw or "", False)
            return
        last = [""]

        def remember(lines: Iterator[str]) -> Iterator[str]:
            for line in lines:
                last[0] = line
                yield line

        # read_json_records reads one line per record (blank lines skipped): the line it
        # read last is the record's own.
        for record in read_json_records(remember(rest), source.name):
            yield Written(record, last[0], True)


def all_written_records(sources: list[Source], label: str) -> Iterator[tuple[Source, Written]]:
    """The records of every source in turn (:func:`written_records`), each with its
    source, and a progress bar on standard error for a long read when standard error is
    a terminal and standard output is not (records on the terminal show the progress)."""
    progress = None
    if not is_terminal(sys.stdout) and all(
        s.path is not None and s.path.is_file() and not is_compressed(s.path) for s in sources
    ):
        size = sum(os.path.getsize(s.path) for s in sources if s.path is not None)
        progress = Progress.for_input(size, label)
    try:
        for source in sources:
            for item in written_records(source):
                yield source, item
                if progress is not None:
                    progress.advance(len(item.text) + 1)  # characters: bytes, near enough
    finally:
        if progress is not None:
            progress.stop()


def to_option(func: F) -> F:
    """--to FORMAT: convert the records kept instead of writing them as they were."""
    return click.option(
        "--to",
        "to",
        type=click.Choice(FORMATS),
        default=None,
        help="Convert the records kept to this format (default: write each exactly as "
        "it was written, byte for byte).",
    )(func)


class Writer:
    """Writes records to one output: as written, or converted (``to``)."""

    def __init__(self, out: TextIO, to: str | None, game: str | None) -> None:
        self.out = out
        self.to = to
        self.game = game
        self.count = 0
        self._previous = ""  # the text written last

    def write(self, item: Written) -> None:
        """Write one record, separated from the one before as its format wants."""
        if self.to is None:
            text = item.text
            json_line = item.is_json
        else:
            try:
                text = convert_record(item.record, self.to, self.game).text
            except NotARecord as exc:  # pragma: no cover - read_json_records gives records
                raise UsageProblem(str(exc)) from None
            json_line = self.to == "json"
        if json_line:
            if not text.endswith("\n"):
                text += "\n"
        elif self.count:  # record text: a blank line between records, in their line end
            self.out.write(record_separator(self._previous))
        self.out.write(text)
        self._previous = text
        self.count += 1


def summary(message: str, quiet: bool) -> None:
    """A line on standard error saying what the command did (not with ``--quiet``)."""
    if not quiet:
        click.echo(message, err=True)


def records_word(n: int) -> str:
    """``"1 record"``, ``"2 records"``."""
    return f"{n} record{'' if n == 1 else 's'}"
