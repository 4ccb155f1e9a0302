"""``notation check``: the verdict of the rules on every record.

With ``--jobs N`` the records are checked by N processes.  The input is cut into
tasks: each file is one, and a big file is cut into parts of whole records (at a
line starting with ``[`` after a blank line, where the reader is known to start a
record), each read from its byte offset with its own first line number.  Workers
return their lines of output with the record number left out, as the text before
and after it; the main process numbers them (it knows how many records the parts
before held) and writes them in input order, so the output is the same as with
``--jobs 1``, which runs the very same tasks in this process.
"""

from __future__ import annotations

import gc
import itertools
import json
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from notation.commands.common import (
    Source,
    UsageProblem,
    expand_sources,
    file_error,
    files_argument,
    game_option,
    warn_not_utf8,
)
from notation.reader import read_records
from notation.replay import Verdict, check_record
from notation.strict import check_record_strict
from notation.textio import decoded_lines

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult

#: Below this much input, all in this process: starting workers costs more than it saves.
POOL_MIN_BYTES = 1_000_000
#: A file is cut in parts of about this size at most (and at least _MIN_PART).
_MAX_PART = 8_000_000
_MIN_PART = 250_000
#: Tasks handed to the workers ahead of the one being written, per worker: enough to
#: keep them busy, few enough that results waiting to be written stay small.
_AHEAD = 4
#: The progress bar is for inputs that take a while (several seconds).
PROGRESS_MIN_BYTES = 8_000_000


@click.command("check")
@files_argument
@game_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a line per broken record and a summary; json: one JSON object per record.",
)
@click.option("-v", "--verbose", is_flag=True, help="Also list the valid records.")
@click.option(
    "--strict",
    is_flag=True,
    help="Also refuse what the import form tolerates: missing capture and other marks, "
    "short forms, letters in the wrong case, missing move numbers.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Check with this many processes (default: one per core). The output is the "
    "same whatever the number; small inputs and standard input are checked in one.",
)
def command(
    files: tuple[str, ...],
    game: str | None,
    fmt: str,
    verbose: bool,
    strict: bool,
    jobs: int | None,
) -> None:
    """Check every record in FILES against the rules of its game.

    FILES are record files, folders (their *.txt, *.pgn, *.jsonl and *.json files,
    recursively, hidden ones skipped) or - for standard input.  Each broken record
    gets one line: FILE:LINE:COL: record N, turn T (MOVE): reason.  Exits 0 if every
    record is valid, 1 if any is not.
    """
    settings = _Settings(game, fmt, verbose, strict)
    sources = expand_sources(files)
    workers = jobs if jobs is not None else _cores()
    size = sum(_size(source) for source in sources)
    parallel = workers > 1 and size >= POOL_MIN_BYTES
    progress = _Progress.for_input(size)
    # Parts only where they serve: to share a big file between workers, or to show
    # progress within one.
    part = _part_size(size, workers) if parallel or progress is not None else 0
    out = sys.stdout
    total = broken = offset = 0
    pool = multiprocessing.Pool(workers, initializer=_start_worker) if parallel else None
    thresholds = gc.get_threshold()
    _tune_gc()
    not_utf8: set[str] = set()  # the files warned of
    try:
        for task, (count, bad, lines, part_not_utf8) in _results(
            _tasks(sources, part), settings, pool, workers
        ):
            offset = 0 if task.first else offset
            if part_not_utf8 and task.source.name not in not_utf8:
                not_utf8.add(task.source.name)
                if progress is not None:
                    progress.clear()
                warn_not_utf8(task.source.name)
            if lines:
                if progress is not None:
                    progress.clear()
                for number, head, tail in lines:
                    out.write(head if tail is None else f"{head}{offset + number}{tail}")
                if progress is not None:
                    out.flush()
            offset += count
            total += count
            broken += bad
            if progress is not None:
                progress.advance(task.size)
    finally:
        if progress is not None:
            progress.stop()
        if pool is not None:
            # Done, or stopped by Ctrl-C, a closed pipe or an error: end the workers now.
            pool.terminate()
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    if fmt == "text":
        files_word = "file" if len(sources) == 1 else "files"
        if total == 0:
            out.write(f"no records found in {len(sources)} {files_word}\n")
        else:
            out.write(
                f"{total} record{'s' if total != 1 else ''} in {len(sources)} {files_word}: "
                f"{total - broken} valid, {broken} broken\n"
            )
    sys.exit(1 if broken else 0)


# -- tasks --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Settings:
    game: str | None
    fmt: str
    verbose: bool
    strict: bool


@dataclass(frozen=True, slots=True)
class _Task:
    """A source, or a part of a file that starts with a record: checked as a unit."""

    source: Source
    #: Where the part starts (a byte offset), its first line's number, and how many
    #: lines it has (None: to the end of the source).  A whole source is (0, 1, None).
    start: int = 0
    first_line: int = 1
    lines: int | None = None
    #: The source's first part: its records are numbered from 1.
    first: bool = True
    #: Bytes, for the progress bar.
    size: int = 0
    #: To be read in the main process: standard input, a pipe, a device.
    here: bool = False


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """A file that cannot be opened: an error in its turn, after the output before it."""

    source: Source
    error: OSError


#: What a task gives: records, broken records, its lines of output as (record number
#: within the task, text before the number, text after it), a tail of None for a line
#: without a record number; and whether a part of a file had lines not in UTF-8.
_Output = list[tuple[int, str, str | None]]
_Result = tuple[int, int, _Output, bool]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the cores this process may use
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _size(source: Source) -> int:
    if source.path is None:
        return 0
    try:
        return source.path.stat().st_size if source.path.is_file() else 0
    except OSError:
        return 0  # reported in its turn


def _part_size(total: int, workers: int) -> int:
    # Several parts per worker, so that they finish together and the progress moves.
    return max(_MIN_PART, min(_MAX_PART, total // (workers * 8)))


def _tasks(sources: list[Source], part: int) -> Iterator[_Task | _Unreadable]:
    for source in sources:
        path = source.path
        if path is None or not path.is_file():
            yield _Task(source, here=True)
            continue
        try:
            size = path.stat().st_size
            with open(path, "rb"):
                pass
        except OSError as exc:
            yield _Unreadable(source, exc)
            return  # the error ends the command: nothing after it is checked
        cuts = list(_cuts(path, part)) if part and size >= 2 * part else []
        bounds = [(0, 1), *cuts, (size, 0)]
        for index, ((start, line), (end, next_line)) in enumerate(itertools.pairwise(bounds)):
            last = index == len(bounds) - 2
            yield _Task(
                source,
                start,
                line,
                None if last else next_line - line,
                first=index == 0,
                size=end - start,
            )


#: White space as str.strip() knows it, in ASCII.
_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _cuts(path: Path, part: int) -> Iterator[tuple[int, int]]:
    """Where a file can be cut into parts of about ``part`` bytes: (offset, line number)
    of lines that begin a record.

    A line starting with ``[`` after blank lines begins a record when the last line
    before the blank ones had a token outside comments (the reader has then begun the
    movetext, or read the result): the reader's rule, kept safe by refusing any line
    with a comment bracket or ``;``, and any line not in ASCII.  Cutting stops at a
    line ending in a lone carriage return, which would make line numbers differ from
    a count of line feeds; the rest is then one part.
    """
    with open(path, "rb") as handle:
        pos, line = 0, 1  # the handle is at byte pos, where line number `line` starts
        while True:
            target = pos + part
            while pos < target:  # skip ahead, counting lines
                block = handle.read(min(1 << 20, target - pos))
                if not block:
                    return
                if block.endswith(b"\r"):  # keep a \r\n whole
                    block += handle.read(1)
                if block.count(b"\r") != block.count(b"\r\n"):
                    return
                line += block.count(b"\n")
                pos += len(block)
            text = handle.readline()  # the rest of the line the skip ended in
            if not text.endswith(b"\n") or text.count(b"\r") != text.count(b"\r\n"):
                return
            pos += len(text)
            line += 1
            tokens_before = blank = False  # the line before this one is not known
            while True:
                text = handle.readline()
                if not text.endswith(b"\n") or text.count(b"\r") != text.count(b"\r\n"):
                    return
                stripped = text.strip(_SPACE)
                if not stripped:
                    blank = True
                elif stripped.startswith(b"%"):
                    pass  # an escape line: the reader ignores it, blank lines and all
                elif blank and tokens_before and stripped.startswith(b"["):
                    yield pos, line
                    handle.seek(pos)  # this line is the next part's first
                    break
                else:
                    blank = False
                    tokens_before = (
                        stripped.isascii()
                        and not stripped.startswith(b"[")
                        and not any(c in stripped for c in b"{};")
                    )
                pos += len(text)
                line += 1


def _lines(task: _Task, not_utf8: list[bool]) -> Iterator[str]:
    """The lines of a part of a file, decoded as ``Source.lines`` decodes the whole
    (line by line, so a part reads as it would in the whole).  A line that is not
    UTF-8 is noted in ``not_utf8``: the main process warns once for the whole file,
    not once per part."""
    assert task.source.path is not None
    with open(task.source.path, "rb") as raw:
        raw.seek(task.start)
        text = decoded_lines(raw, lambda: not_utf8.append(True))
        yield from text if task.lines is None else itertools.islice(text, task.lines)


def _check_task(task: _Task, settings: _Settings) -> _Result:
    """Check one task: in this process, or in a worker (a module-level function and
    picklable arguments, as every way of starting processes needs)."""
    not_utf8: list[bool] = []
    if task.start == 0 and task.lines is None:
        records = task.source.records()  # which warns itself of a file not in UTF-8
    else:
        records = read_records(
            _lines(task, not_utf8), task.source.name, first_line=task.first_line
        )
    check = check_record_strict if settings.strict else check_record
    count = bad = 0
    output: _Output = []
    for record in records:
        verdict = check(record, settings.game)
        count += 1
        bad += not verdict.ok
        if settings.fmt == "json" or verdict.error is not None or settings.verbose:
            head, tail = _split_line(verdict, settings)
            output.append((verdict.record, head, tail))
    return count, bad, output, bool(not_utf8)


def _split_line(verdict: Verdict, settings: _Settings) -> tuple[str, str | None]:
    """The verdict's line of output, as the text before and after its record number.

    The line is written twice, for records 1 and 2: the texts differ only where the
    number stands, so whatever the line's form, the number is found.
    """
    one, two = (_line(_renumbered(verdict, n), settings) for n in (1, 2))
    if one == two:
        return one, None
    at = next(i for i, (a, b) in enumerate(zip(one, two, strict=True)) if a != b)
    return one[:at], one[at + 1 :]


def _renumbered(verdict: Verdict, number: int) -> Verdict:
    error = verdict.error
    if error is not None:
        error = error.located(file=error.file, record=number)
    return replace(verdict, record=number, error=error)


def _line(verdict: Verdict, settings: _Settings) -> str:
    if settings.fmt == "json":
        return json.dumps(verdict.to_dict(), ensure_ascii=False) + "\n"
    if verdict.error is not None:
        return f"{verdict.error}\n"
    return (
        f"{verdict.source}: record {verdict.record}: valid {verdict.game} game, "
        f"{verdict.turns} turns, {verdict.result}\n"
    )


# -- running tasks --------------------------------------------------------------------


def _results(
    tasks: Iterator[_Task | _Unreadable],
    settings: _Settings,
    pool: multiprocessing.pool.Pool | None,
    workers: int,
) -> Iterator[tuple[_Task, _Result]]:
    """Each task with its result, in input order: from the pool's workers, or from this
    process, task after task, when there is no pool."""
    pending: deque[tuple[_Task | _Unreadable, AsyncResult[_Result] | None]] = deque()
    # The pool's workers: one that dies (killed, out of memory) takes its task with it,
    # and the pool, which starts another, would wait for that task for ever.
    started = {child.pid for child in multiprocessing.active_children()}
    for task in tasks:
        if pool is not None and isinstance(task, _Task) and not task.here:
            pending.append((task, pool.apply_async(_check_task, (task, settings))))
        else:
            pending.append((task, None))
        while len(pending) > (workers * _AHEAD if pool is not None else 0):
            yield _collect(*pending.popleft(), settings, started)
    while pending:
        yield _collect(*pending.popleft(), settings, started)


def _collect(
    task: _Task | _Unreadable,
    result: AsyncResult[_Result] | None,
    settings: _Settings,
    workers: set[int | None],
) -> tuple[_Task, _Result]:
    if isinstance(task, _Unreadable):
        raise file_error(task.source.name, task.error)
    if result is None:  # no pool, or standard input and the like: here, in its turn
        return task, _check_task(task, settings)
    while not result.ready():
        result.wait(1.0)
        if not result.ready() and any(
            child.pid not in workers for child in multiprocessing.active_children()
        ):
            raise UsageProblem(
                "a worker process stopped unexpectedly (out of memory?); "
                "check again, or with --jobs 1"
            )
    return task, result.get()


def _start_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops them (no traceback each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _tune_gc()


def _tune_gc() -> None:
    """Collect cycles less often while checking.

    Record trees, positions and verdicts hold no cycles and are freed as soon as a
    record is done, but the collector still walks the young ones every 700 allocations:
    a fifth of the time of a check of long games, profiled.  Objects that live until
    the end (modules, grammars) are frozen out of the collections that remain.
    """
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


# -- progress -------------------------------------------------------------------------


class _Progress:
    """A progress bar on standard error, for long checks on a terminal.

    Standard output is never touched: the bar is drawn only between lines of output,
    and erased before them when both go to the same terminal.
    """

    def __init__(self, total: int) -> None:
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
            TextColumn("checking"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
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
    def for_input(cls, size: int) -> _Progress | None:
        if size < PROGRESS_MIN_BYTES or not _is_terminal(sys.stderr):
            return None
        return cls(size)

    def clear(self) -> None:
        """Before lines of output: erase the bar where it shares their terminal."""
        if self._shared:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()

    def advance(self, size: int) -> None:
        self._progress.advance(self._task, size)
        self._progress.refresh()

    def stop(self) -> None:
        self._progress.stop()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
