"""Options and helpers that several commands share: sources of records, files in and
out, the options and the opening of one record for ``show`` and ``replay``."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO, TypeVar

import click

from notation.convert import looks_like_json_records, read_any_records
from notation.errors import Defect
from notation.games import game_names
from notation.record import Record
from notation.render.show_text import line_range, problem_line, show_renderable
from notation.render.terminal import emit, is_plain, make_console
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError
from notation.textio import COMPRESSED_SUFFIXES, decoded_lines, not_utf8_message, open_binary

#: The files a folder stands for: records as text (.txt, .pgn), and as the JSON Lines
#: that ``convert --to json`` writes (.jsonl, .json); each may be compressed
#: (``games.txt.gz``: see :func:`notation.textio.open_binary`).
RECORD_SUFFIXES = (".txt", ".pgn", ".jsonl", ".json")
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Source:
    """A place records come from: a file, or standard input (``path`` None)."""

    name: str
    path: Path | None

    def lines(self, *, warn: bool = True) -> Iterator[str]:
        """The text lines of the source, line ends kept: UTF-8, or Windows-1252 with a
        warning on standard error for a source that is not (see :mod:`notation.textio`).

        ``warn`` False: no warning, for a look at the source before it is read (the
        user is warned once, when it is).  A file is opened here and now, so that one
        that cannot be read is a usage error (exit 2) before anything is written, not
        a traceback.
        """
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
        for line in self.lines(warn=False):
            if line.strip():
                return looks_like_json_records(line)
        return False

    def records(self, *, keep_raw: bool = False) -> Iterator[Record]:
        """The records of the source: record text, or the JSON Lines that ``convert --to
        json`` writes, told apart by content (not by the file's name)."""
        return read_any_records(self.lines(), self.name, keep_raw=keep_raw)


def _closing(handle: IO[bytes], name: str | None) -> Iterator[str]:
    """The lines of ``handle``, closed at the end; a warning naming ``name`` (None: none)
    if they are not UTF-8."""
    with handle:
        yield from decoded_lines(handle, lambda: None if name is None else warn_not_utf8(name))


def warn_not_utf8(name: str) -> None:
    """Tell the user that the source ``name`` was read as Windows-1252, not UTF-8."""
    click.echo(f"warning: {not_utf8_message(name)}", err=True)


def stdin_lines() -> Iterator[str]:
    """Standard input read as a file is (see :meth:`Source.lines`), whatever the locale.

    ``sys.stdin`` decodes with the locale's encoding and, in a UTF-8 locale, raises
    on invalid bytes (or, in the C locale, lets lone surrogates through that cannot
    be written out again).  Its bytes are read instead, and left open: this
    generator may be dropped unfinished (``show --record 2`` stops early) and
    collected at exit, after Python closed standard input, so its cleanup must not
    touch it.
    """
    if sys.stdin is None:  # closed (``notation check - <&-``): an empty input
        return
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # already text without bytes underneath (an embedding program)
        yield from sys.stdin
        return
    yield from decoded_lines(buffer, lambda: warn_not_utf8("<stdin>"))


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
                raise click.UsageError(f"{raw}: no record files ({suffixes}) in this folder")
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
            if (
                not name.startswith(".")
                and _record_suffix(path) in RECORD_SUFFIXES
                and path.is_file()
            ):
                yield path


def _record_suffix(path: Path) -> str:
    """The suffix that says what a file holds: ``.txt`` for ``games.txt.gz`` too."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if len(suffixes) >= 2 and suffixes[-1] in COMPRESSED_SUFFIXES:
        return suffixes[-2]
    return suffixes[-1] if suffixes else ""


def files_argument(func: F) -> F:
    """FILES...: record files, folders, or - for standard input."""
    return click.argument(
        "files", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=True)
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
    # Imported here, not at the top, to keep every change of this option inside it.
    from notation.games import UnknownGameError, game_spellings, get_game

    class GameChoice(click.Choice[str]):
        def convert(
            self, value: Any, param: click.Parameter | None, ctx: click.Context | None
        ) -> str:
            try:
                return get_game(str(value)).name
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
        type=GameChoice(game_spellings(), case_sensitive=False),
        required=required,
        help=help_text,
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


# -- one record, one position: what ``show`` and ``replay`` share ------------------------


def record_options(func: Callable[..., None]) -> Callable[..., None]:
    """FILE, --record, --turn, --game and --ascii: what ``show`` and ``replay`` share."""
    decorators = [
        click.argument(
            "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True)
        ),
        click.option(
            "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
            help="Which record of FILE (1 is the first).",
        ),
        click.option(
            "--turn", type=click.IntRange(min=0), default=None,
            help="The position after this turn of the main line (0: the start).",
        ),
        game_option,
        click.option("--ascii", is_flag=True, help="Draw with ASCII characters only."),
    ]
    for decorate in reversed(decorators):
        func = decorate(func)
    return func


def open_stepper(record: Record, game: str | None) -> Stepper:
    """A stepper on ``record``; a record we cannot even start is an error for the user.

    No game (no ``Game`` tag, no ``--game``) is a usage error (exit 2); a start that
    the game refuses (a bad ``Players`` tag) makes the record broken (exit 1).
    """
    resolved = resolve_game(record, game)
    if isinstance(resolved, Defect):
        raise click.UsageError(str(resolved.located(file=record.source, record=record.index)))
    try:
        return Stepper(record, resolved)
    except StepperError as exc:
        click.echo(f"error: {exc.error}", err=True)
        sys.exit(1)


def go_to(stepper: Stepper, turn: int | None) -> None:
    """Step along the main line to the position after ``turn`` (None: its end).

    A turn outside the record is a usage error; a turn beyond a broken move stops
    at that move, with ``stepper.error`` saying why.
    """
    if turn is None:
        stepper.to_end()
        return
    first, last = line_range(stepper)
    if not first <= turn <= last:
        raise click.BadParameter(
            f"record {stepper.record.index} runs from turn {first} to turn {last}",
            param_hint="--turn",
        )
    stepper.goto_turn(turn)


def print_position(stepper: Stepper, *, ascii: bool, position_only: bool) -> None:
    """Print the stepper's position as ``show`` does, and exit 1 if the record is broken."""
    broken = not stepper.verdict.ok
    if position_only:
        click.echo(stepper.position.position_string())
        problem = problem_line(stepper, ascii=True)
        if problem is not None:
            click.echo(problem.plain, err=True)
    else:
        console = make_console()
        renderable = show_renderable(
            stepper, width=console.width, ascii=ascii, plain=is_plain(console)
        )
        emit(console, renderable)
    sys.exit(1 if broken else 0)


# -- progress on a terminal -------------------------------------------------------------

#: The progress bar is for inputs that take a while (several seconds).
PROGRESS_MIN_BYTES = 8_000_000


class Progress:
    """A progress bar on standard error, for long work on a terminal (``check``, and
    the commands over collections), in bytes of input.

    Standard output is never touched: the bar is drawn only between lines of output,
    and erased before them when both go to the same terminal.
    """

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


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal (``False`` for one that is closed or missing)."""
    if stream is None:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
