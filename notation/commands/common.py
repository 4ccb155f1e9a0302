"""Options and helpers that several commands share: sources of records, files in and
out, progress.  What the commands on one record share is in
:mod:`notation.commands._one_record`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO, TypeVar

import click
from click.utils import format_filename

from notation.errors import display_path
from notation.files.console import PROGRESS_MIN_BYTES, is_terminal, stdin_lines, warn_not_utf8
from notation.files.textfile import COMPRESSED_SUFFIXES, decoded_lines, open_binary

if TYPE_CHECKING:
    from notation.record import Record

# What only some commands or inputs need is imported where it is used (start-up).
# What `notation check` needs without click lives in notation.files.console, re-exported here.

__all__ = [
    "PROGRESS_MIN_BYTES",
    "RECORD_EXTENSION",
    "RECORD_SUFFIXES",
    "Progress",
    "ShownPath",
    "Source",
    "UnusableFile",
    "UsageProblem",
    "atomic_output",
    "expand_sources",
    "file_error",
    "files_argument",
    "game_option",
    "is_terminal",
    "refuse_overwriting_inputs",
    "stdin_lines",
    "warn_not_utf8",
]

#: The files a folder stands for: records as text (.ugn, the records' own extension;
#: .txt and .pgn), and as the JSON Lines that ``convert --to json`` writes (.jsonl,
#: .json); each may be compressed (``games.ugn.gz``: see
#: :func:`notation.files.textfile.open_binary`).
RECORD_SUFFIXES = (".ugn", ".txt", ".pgn", ".jsonl", ".json")

#: The extension of a file of records as text ("undead game notation"), as PGN's is
#: .pgn: what ``notation record`` gives a new file named without one.
RECORD_EXTENSION = ".ugn"
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Source:
    """A place records come from: a file, or standard input (``path`` None)."""

    name: str
    path: Path | None

    def lines(self, *, warn: bool = True) -> Iterator[str]:
        """The text lines of the source, line ends kept: UTF-8, or Windows-1252 with a
        warning (``warn`` False: none, for a first look at it).  A file is opened now,
        so that one that cannot be read is a usage error before anything is written."""
        if self.path is None:
            return stdin_lines()
        try:
            handle = open_binary(self.path)  # closed by _closing; decompressed if need be
        except OSError as exc:
            raise file_error(self.name, exc) from None
        return _closing(handle, self.name if warn else None)

    def is_json(self) -> bool:
        """Whether the source holds JSON Lines of records (a file; standard input cannot
        be looked at twice, and counts as not)."""
        if self.path is None:
            return False
        from notation.formats.convert import looks_like_json_records

        for line in self.lines(warn=False):
            if line.strip():
                return looks_like_json_records(line)
        return False

    def records(self, *, keep_raw: bool = False) -> Iterator[Record]:
        """The records of the source: record text, or the JSON Lines that ``convert --to
        json`` writes, told apart by content (not by the file's name)."""
        from notation.formats.convert import read_any_records

        return read_any_records(self.lines(), self.name, keep_raw=keep_raw)


def _closing(handle: IO[bytes], name: str | None) -> Iterator[str]:
    """The lines of ``handle``, closed at the end; a warning naming ``name`` (None: none)
    if they are not UTF-8."""
    with handle:
        yield from decoded_lines(handle, lambda: None if name is None else warn_not_utf8(name))


class UnusableFile(click.FileError):
    """A file that cannot be read or written: a usage error (exit 2), like a missing one."""

    exit_code = 2


class UsageProblem(click.ClickException):
    """Any other problem with what the command was asked to do (exit 2)."""

    exit_code = 2


def file_error(name: str, exc: OSError) -> click.ClickException:
    """A file that cannot be read or written, as a usage error (exit 2) naming it."""
    return UnusableFile(display_path(name), hint=exc.strerror or str(exc))


def expand_sources(paths: tuple[str, ...]) -> list[Source]:
    """Files named on the command line; a folder stands for its record files.

    A file named is read whatever its name; in a folder, only files with a record
    suffix (:data:`RECORD_SUFFIXES`) count, and hidden files and folders (a name
    starting with ``.``: ``.git``, ``.venv``, editors' backups) are skipped, as are
    links to folders (which could loop).
    """
    sources: list[Source] = []
    for raw in paths:
        if raw == "-":
            sources.append(Source("<stdin>", None))
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(_record_files(path))
            if not found:
                suffixes = ", ".join(f"*{suffix}" for suffix in RECORD_SUFFIXES)
                raise click.UsageError(
                    f"{display_path(raw)}: no record files ({suffixes}) in this folder"
                )
            sources.extend(Source(str(p), p) for p in found)
        else:
            sources.append(Source(raw, path))
    return sources


def _record_files(folder: Path) -> Iterator[Path]:
    """The record files under ``folder``, hidden ones and those in hidden folders left out."""
    for top, folders, files in os.walk(folder):
        # Pruned in place, so that os.walk never even lists a hidden folder.
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in files:
            path = Path(top, name)
            hidden = name.startswith(".")
            if not hidden and _record_suffix(path) in RECORD_SUFFIXES and path.is_file():
                yield path


if TYPE_CHECKING:
    _PathType = click.Path[str]
    _ChoiceType = click.Choice[str]
else:  # click's types are generic from 8.2 (Choice) and 8.5 (Path); 8.1 is supported
    _PathType = click.Path
    _ChoiceType = click.Choice

def _record_suffix(path: Path) -> str:
    """The suffix that says what a file holds: ``.txt`` for ``games.txt.gz`` too."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if len(suffixes) >= 2 and suffixes[-1] in COMPRESSED_SUFFIXES:
        return suffixes[-2]
    return suffixes[-1] if suffixes else ""


class ShownPath(_PathType):
    """``click.Path`` (for arguments that name files), whose messages show a name as
    every message does (:func:`~notation.errors.display_path`: ``caf\\xe9.txt``, where
    click would write ``caf\ufffd.txt``)."""

    def convert(
        self, value: str | os.PathLike[str], param: click.Parameter | None,
        ctx: click.Context | None,
    ) -> str:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            if not isinstance(value, str) or value.isprintable():
                raise
            self.fail(exc.message.replace(format_filename(value), display_path(value)), param, ctx)


def files_argument(func: F) -> F:
    """FILES...: record files, folders, or - for standard input."""
    return click.argument(
        "files", nargs=-1, required=True, type=ShownPath(exists=True, allow_dash=True)
    )(func)


def game_option(
    func: F,
    *,
    required: bool = False,
    help_text: str = "The game of records without a Game tag (a Game tag always wins).",
) -> F:
    """--game NAME, for records without a Game tag (every command that reads records).

    NAME is any name or alias ``notation games`` lists, in any case; the command gets
    the game's name (``tinkertown`` for ``Tinkertown-Cemetery``).  A misspelt name
    is a usage error (exit 2) that suggests the nearest one.
    """
    from notation.games import UnknownGameError, canonical_name, game_names, game_spellings

    class GameChoice(_ChoiceType):
        """The names and aliases of the games, listed only when they are shown (help,
        completion): a command that runs loads no game it is not given (start-up)."""

        @property  # click sets them in __init__; they are computed when read instead
        def choices(self) -> tuple[str, ...]:
            return tuple(game_spellings())

        @choices.setter
        def choices(self, value: tuple[str, ...]) -> None:
            pass

        def convert(
            self, value: Any, param: click.Parameter | None, ctx: click.Context | None
        ) -> str:
            try:
                return canonical_name(str(value))  # the game is loaded when used
            except UnknownGameError as exc:
                known = ", ".join(map(repr, game_names()))
                hint = f" Did you mean {exc.suggestion!r}?" if exc.suggestion else ""
                self.fail(
                    f"{value!r} is not one of {known} (or an alias `notation games` lists).{hint}",
                    param,
                    ctx,
                )

    return click.option(
        "--game",
        "game",
        type=GameChoice((), case_sensitive=False),
        required=required,
        help=help_text,
    )(func)


def refuse_overwriting_inputs(output: str | None, sources: list[Source]) -> None:
    """No command writes over one of its inputs unless asked (``--in-place``)."""
    if output is None or output == "-":
        return
    target = Path(output).resolve()
    for source in sources:
        if source.path is not None and source.path.resolve() == target:
            raise click.UsageError(
                f"{display_path(output)} is also an input; "
                "write elsewhere (or use --in-place where offered)"
            )


@contextmanager
def atomic_output(path: str | None) -> Iterator[TextIO]:
    """Standard output (``path`` None or ``-``), or a file saved whole or not at all
    (:func:`notation.files.savefile.saving_text`); one that cannot be saved is a usage error."""
    if path is None or path == "-":
        yield sys.stdout
        return
    from notation.files.savefile import saving_text

    try:
        with saving_text(path) as handle:
            yield handle
    except OSError as exc:
        if exc.filename != path:  # an input that failed mid-way names itself
            raise
        raise file_error(path, exc) from None


# -- progress on a terminal -------------------------------------------------------------


class Progress:
    """A progress bar on standard error, in bytes of input, for long work on a terminal:
    drawn only between lines of output, and erased before them on a shared terminal."""

    def __init__(self, total: int, label: str = "checking") -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self._progress = Progress(
            TextColumn(label),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            # for_input made sure it is a terminal (rich would look again, differently)
            console=Console(file=sys.stderr, force_terminal=True),
            auto_refresh=False,  # no thread drawing while output is written
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task = self._progress.add_task("check", total=total)
        self._shared = sys.stdout.isatty()
        self._progress.start()
        self._progress.refresh()

    @classmethod
    def for_input(cls, size: int, label: str = "checking") -> Progress | None:
        """A bar for ``size`` bytes of input, or ``None`` when there is too little input
        to need one or standard error is not a terminal."""
        if size < PROGRESS_MIN_BYTES or not is_terminal(sys.stderr):
            return None
        return cls(size, label)

    def clear(self) -> None:
        """Before lines of output: erase the bar where it shares their terminal."""
        if self._shared:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()

    def advance(self, size: int) -> None:
        """Count ``size`` more bytes done."""
        self._progress.advance(self._task, size)
        self._progress.refresh()

    def stop(self) -> None:
        """Erase the bar (at the end, or before the command stops)."""
        self._progress.stop()
