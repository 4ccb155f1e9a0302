"""Options and helpers that several commands share."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click

from notation.games import game_names
from notation.reader import read_file, read_records
from notation.record import Record

RECORD_SUFFIXES = (".txt", ".pgn")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Source:
    """A place records come from: a file, or standard input (``path`` None)."""

    name: str
    path: Path | None

    def records(self) -> Iterator[Record]:
        if self.path is None:
            return read_records(sys.stdin, self.name)
        try:  # open it now, so that an unreadable file is a usage error, not a traceback
            with open(self.path, "rb"):
                pass
        except OSError as exc:
            raise click.FileError(self.name, hint=exc.strerror or str(exc)) from None
        return read_file(self.path)


def expand_sources(paths: tuple[str, ...]) -> list[Source]:
    """Files named on the command line; a folder stands for its record files."""
    sources: list[Source] = []
    for raw in paths:
        if raw == "-":
            sources.append(Source("<stdin>", None))
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
            )
            if not found:
                raise click.UsageError(f"{raw}: no record files (*.txt, *.pgn) in this folder")
            sources.extend(Source(str(p), p) for p in found)
        else:
            sources.append(Source(raw, path))
    return sources


def files_argument(func: F) -> F:
    """FILES...: record files, folders, or - for standard input."""
    return click.argument(
        "files", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True)
    )(func)


def game_option(func: F) -> F:
    """--game NAME, for records without a Game tag (every command that reads records)."""
    return click.option(
        "--game",
        "game",
        type=click.Choice(game_names(), case_sensitive=False),
        help="The game of records without a Game tag (a Game tag always wins).",
    )(func)


def select_record(path: str, number: int) -> Record:
    """Record ``number`` (1-based) of the file at ``path`` ('-': standard input)."""
    (source,) = expand_sources((path,))
    for record in source.records():
        if record.index == number:
            return record
    raise click.BadParameter(
        f"{source.name} has no record {number}", param_hint="--record"
    )


def refuse_overwriting_inputs(output: str | None, sources: list[Source]) -> None:
    """No command writes over one of its inputs unless asked (``--in-place``)."""
    if output is None or output == "-":
        return
    target = Path(output).resolve()
    for source in sources:
        if source.path is not None and source.path.resolve() == target:
            raise click.UsageError(
                f"{output} is also an input; write elsewhere (or use --in-place where offered)"
            )


@contextmanager
def atomic_output(path: str | None) -> Iterator[TextIO]:
    """Standard output, or a file written whole or not at all.

    The text goes to a temporary file beside ``path`` that replaces it only when
    everything was written: an interrupted command leaves the old file intact.
    """
    if path is None or path == "-":
        yield sys.stdout
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise click.FileError(path, hint=exc.strerror or str(exc)) from None
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would,
        # or the mode of the file it replaces.
        try:
            mode = target.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp_name, mode)
        with open(fd, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
        os.replace(temp_name, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp_name)
        raise
