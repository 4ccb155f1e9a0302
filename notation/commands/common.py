"""Options and helpers that several commands share."""

from __future__ import annotations

import io
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
from notation.reader import read_records
from notation.record import Record

RECORD_SUFFIXES = (".txt", ".pgn")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Source:
    """A place records come from: a file, or standard input (``path`` None)."""

    name: str
    path: Path | None

    def lines(self) -> Iterator[str]:
        """The text lines of the source: UTF-8 with undecodable bytes replaced, any line end.

        A file is opened here and now, so that one that cannot be read is a usage
        error (exit 2) before anything is written, not a traceback.
        """
        if self.path is None:
            return stdin_lines()
        try:
            handle = open(self.path, encoding="utf-8", errors="replace", newline=None)  # noqa: SIM115 - closed by _closing
        except OSError as exc:
            raise file_error(self.name, exc) from None
        return _closing(handle)

    def records(self, *, keep_raw: bool = False) -> Iterator[Record]:
        return read_records(self.lines(), self.name, keep_raw=keep_raw)


def _closing(handle: TextIO) -> Iterator[str]:
    with handle:
        yield from handle


def stdin_lines() -> Iterator[str]:
    """Standard input read as a file is: UTF-8 whatever the locale, bad bytes replaced.

    ``sys.stdin`` decodes with the locale's encoding and, in a UTF-8 locale, raises
    on invalid bytes (or, in the C locale, lets lone surrogates through that cannot
    be written out again).
    """
    if sys.stdin is None:  # closed (``notation check - <&-``): an empty input
        return
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # already text without bytes underneath (an embedding program)
        yield from sys.stdin
        return
    text = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline=None)
    try:
        yield from text
    finally:
        text.detach()  # leave sys.stdin's buffer open


class UnusableFile(click.FileError):
    """A file that cannot be read or written: a usage error (exit 2), like a missing one."""

    exit_code = 2


class UsageProblem(click.ClickException):
    """Any other problem with what the command was asked to do (exit 2)."""

    exit_code = 2


def file_error(name: str, exc: OSError) -> click.ClickException:
    """A file that cannot be read or written, as a usage error (exit 2) naming it."""
    return UnusableFile(name, hint=exc.strerror or str(exc))


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
    count = 0
    for record in source.records():
        if record.index == number:
            return record
        count += 1
    if not count:
        raise click.UsageError(f"no records found in {source.name}")
    raise click.BadParameter(
        f"{source.name} has no record {number} (it has {count})", param_hint="--record"
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
        raise file_error(path, exc) from None
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
