"""Checking many records at once: :func:`check_paths`, in one process or several.

Verdicts come in input order whatever the number of processes, and memory stays
flat.  A big file is cut into parts at lines where the reader surely begins a record
(:func:`notation.collections.cutting.sure_starts`); each part is read from its offset
with its own first line number, so it reads as it does within the whole.  The units go
to the workers of :mod:`notation.collections.workers`, which number the verdicts within
a unit; this process renumbers them.
"""

from __future__ import annotations

import functools
import itertools
import operator
import os
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, fields
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from notation.collections.cutting import sure_starts
from notation.collections.workers import (
    POOL_MIN_BYTES,
    WorkerError,
    collecting_less,
    default_jobs,
    in_order,
    map_in_order,
)
from notation.errors import (
    MisuseError,
    misuse_unless,
    require_number,
    require_path,
    require_sequence,
)
from notation.files.textfile import (
    MAX_LINE,
    NotUTF8Warning,
    compression_of,
    decode_line,
    decoded_lines,
    first_line_ahead,
    not_utf8_message,
    open_binary,
)
from notation.reader import SureStarts, read_records, visit_records
from notation.replay import Replay, Verdict
from notation.visitor import RecordVisitor, walk_record

#: What a visitor makes of a record.
T = TypeVar("T")

if TYPE_CHECKING:

    from notation.collections.stats import Summary
    from notation.record import Record

__all__ = [
    "POOL_MIN_BYTES",
    "TextSource",
    "WorkerError",
    "check_paths",
    "collecting_less",
    "default_jobs",
    "input_size",
    "map_in_order",
    "summarise_paths",
    "tally_paths",
]

#: A file is cut in parts of about this size at most (and at least _MIN_PART).
_MAX_PART = 8_000_000
_MIN_PART = 250_000
#: For workers, a part is about the rest of the file divided by this many per worker:
#: parts get smaller towards the end, so that the workers finish together.
_SHARE = 4


@dataclass(frozen=True, slots=True)
class TextSource:
    """Record text that is not a file to open: standard input, text made in memory.

    ``lines`` (text lines, line ends kept or not) is read in this process, in its turn.
    """

    name: str
    lines: Iterable[str]


def check_paths(
    paths: Iterable[str | os.PathLike[str] | TextSource],
    *,
    jobs: int | None = 1,
    default_game: str | None = None,
    strict: bool = False,
    on_not_utf8: Callable[[str], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    all_errors: bool = False,
) -> Generator[Verdict, None, None]:
    """The verdict of :func:`~notation.replay.check_record` on every record of ``paths``,
    in input order, streamed.

    ``paths``: record files (record text, or the JSON Lines of ``convert --to json``),
    named as the verdicts and errors will name them, or :class:`TextSource` s.
    ``jobs``: processes to check with (None: :func:`default_jobs`); inputs under
    :data:`POOL_MIN_BYTES`, and what is not a regular file, are checked in this process;
    the verdicts are the same for any number.
    ``default_game``: the game of records without a ``Game`` tag.  ``strict``: check
    as :func:`~notation.checking.canonical_form.check_record_strict` does.
    ``on_not_utf8(name)``: told of a file read as Windows-1252 (default: a
    :class:`~notation.files.textfile.NotUTF8Warning`).
    ``on_progress(size)``: told of each ``size`` bytes of files done; with it, a big
    file is cut into parts in one process too, so that progress moves within it.

    A file that cannot be opened raises its ``OSError`` in its turn, after the verdicts
    of the files before it.  The garbage collector runs less often meanwhile
    (:func:`collecting_less`).  Close the iterator to stop early: the workers are
    terminated whenever it ends.  ``all_errors``: each broken record's verdict lists
    every defect found (:func:`notation.checking.every_defect.all_errors`, ``check --all``).
    """
    run, units, workers = _plan(
        paths, jobs, default_game, strict, on_not_utf8, on_progress, all_errors
    )
    return run.parallel(units, workers) if workers > 1 else run.serial(units)


def tally_paths(
    paths: Iterable[str | os.PathLike[str] | TextSource],
    *,
    jobs: int | None = 1,
    default_game: str | None = None,
    strict: bool = False,
    on_not_utf8: Callable[[str], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
    all_errors: bool = False,
) -> Generator[Verdict | int, None, None]:
    """:func:`check_paths` for a caller that needs only the broken records and a count
    of the others, as ``notation check`` without ``-v``: in input order, the verdict
    of each broken record, and in place of the valid records between them, how many
    they are (an ``int`` above 0; two may come one after the other).  A worker sends
    back only its broken records' verdicts and a count.
    """
    run, units, workers = _plan(
        paths, jobs, default_game, strict, on_not_utf8, on_progress, all_errors
    )
    if workers > 1:
        return run.parallel_tally(units, workers)
    return _tallied(run.serial(units))


def _path_text(item: object) -> str:
    """A path given to :func:`check_paths` as text; anything else is refused."""
    require_path(item, "each path")
    return str(os.fspath(item))  # type: ignore[call-overload]  # require_path made sure


def _plan(
    paths: Iterable[str | os.PathLike[str] | TextSource],
    jobs: int | None,
    default_game: str | None,
    strict: bool,
    on_not_utf8: Callable[[str], None] | None,
    on_progress: Callable[[int], None] | None,
    all_errors: bool = False,
) -> tuple[_Run, Iterator[_Work], int]:
    """The run, the units of work and the number of worker processes (1: none, all in
    this process) for :func:`check_paths` and :func:`tally_paths`."""
    require_sequence(paths, "paths", "paths")
    if jobs is not None:
        require_number(jobs, "jobs")
    misuse_unless(
        default_game is None or isinstance(default_game, str), "default_game", "a str",
        default_game,
    )
    sources = [
        item if isinstance(item, TextSource) else _path_text(item) for item in paths
    ]
    size = input_size(sources)
    workers = default_jobs(size) if jobs is None else jobs
    if workers < 1:
        raise MisuseError(f"jobs must be at least 1, not {jobs}")
    parallel = workers > 1 and size >= POOL_MIN_BYTES
    run = _Run(
        _Settings(default_game, strict, all_errors=all_errors),
        on_not_utf8 if on_not_utf8 is not None else _warn_not_utf8,
        on_progress,
    )
    # Parts only where they serve: to share a big file between workers, or to show
    # progress within one.
    if parallel:
        units = _units(sources, _MIN_PART, share=workers * _SHARE)
    else:
        units = _units(sources, _part_size(size, workers) if on_progress is not None else 0)
    return run, units, workers if parallel else 1


def _tallied(verdicts: Generator[Verdict, None, None]) -> Generator[Verdict | int, None, None]:
    """``verdicts`` as :func:`tally_paths` gives them: runs of valid ones counted."""
    with closing(verdicts):  # closed with this generator: the workers stop
        valid = 0
        for verdict in verdicts:
            if verdict.error is None:
                valid += 1
                continue
            if valid:
                yield valid
                valid = 0
            yield verdict
        if valid:
            yield valid


def input_size(paths: Iterable[str | os.PathLike[str] | TextSource]) -> int:
    """The bytes of the regular files among ``paths`` (for a progress bar's total)."""
    return sum(_size(os.fspath(item)) for item in paths if not isinstance(item, TextSource))


# -- units of work --------------------------------------------------------------------


class _Settings(NamedTuple):
    default_game: str | None
    strict: bool
    #: What a worker does with a unit: "check" (its verdicts), "tally" (how many
    #: records, and the verdicts of the broken ones) or "summarise" (a
    #: :class:`~notation.collections.stats.Summary`), see _TASKS.
    task: str = "check"
    #: ``check --all``: verdicts list every defect (records are read keeping their text).
    all_errors: bool = False


class _Unit(NamedTuple):
    """A file, or a part of one that starts with a record: checked as a unit."""

    name: str
    #: Where the part starts (a byte offset), its first line's number, and how many
    #: lines it has (None: to the end of the file).  A whole file is (0, 1, None).
    start: int = 0
    first_line: int = 1
    lines: int | None = None
    #: The file's first part: its records are numbered from 1.
    first: bool = True
    #: Bytes, for progress.
    size: int = 0
    #: To be read in this process: a pipe, a device (what is not a regular file).
    here: bool = False

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.lines is None


class _Unreadable:
    """A file that cannot be opened: an error in its turn, after the verdicts before it."""

    __slots__ = ("error",)

    def __init__(self, error: OSError) -> None:
        self.error = error


_Work = _Unit | TextSource | _Unreadable


def _size(name: str) -> int:
    try:
        return os.path.getsize(name) if os.path.isfile(name) else 0
    except OSError:
        return 0  # reported in its turn


def _part_size(total: int, workers: int) -> int:
    # Several parts per worker, so that they finish together and progress moves.
    return max(_MIN_PART, min(_MAX_PART, total // (workers * 8)))


def _units(sources: list[str | TextSource], part: int, *, share: int = 0) -> Iterator[_Work]:
    """The units of work of ``sources``: files, big ones cut in parts of ``part`` bytes
    (0: not cut), or with ``share`` as :func:`_cuts` does; cut as the units are taken."""
    for source in sources:
        if isinstance(source, TextSource):
            yield source
            continue
        if not os.path.isfile(source):
            yield _Unit(source, here=True)
            continue
        try:
            size = os.path.getsize(source)
            with open(source, "rb") as handle:
                # JSON Lines are not record text: never cut (a line of one is not a
                # place where the text reader starts a record); nor is a compressed
                # file, which cannot be read from the middle.
                cut = (
                    bool(part)
                    and size >= 2 * part
                    and compression_of(handle.peek(6)[:6]) is None
                    and not _is_json(handle)
                )
        except OSError as exc:
            yield _Unreadable(exc)
            return  # the error ends the batch: nothing after it is checked
        cuts = _cuts(source, part, size=size, share=share) if cut else iter(())
        bounds = itertools.chain([(0, 1)], cuts, [(size, 0)])
        for index, ((start, line), (end, next_line)) in enumerate(itertools.pairwise(bounds)):
            last = next_line == 0
            yield _Unit(
                source,
                start,
                line,
                None if last else next_line - line,
                first=index == 0,
                size=end - start,
            )


def _is_json(handle: IO[bytes]) -> bool:
    # Lines read with the bound on a line (notation.files.textfile.MAX_LINE): one over it is no
    # JSON record, and reading the file says what it is.
    for raw in iter(functools.partial(handle.readline, MAX_LINE + 1), b""):
        if raw.strip():
            line = decode_line(raw)[0]
            if not could_be_json(line):
                return False
            from notation.formats.convert import looks_like_json_records

            return looks_like_json_records(line)
    return False


def _cuts(path: str, part: int, *, size: int = 0, share: int = 0) -> Iterator[tuple[int, int]]:
    """Where a file can be cut into parts of about ``part`` bytes: (offset, line number)
    of lines where the reader surely begins a record
    (:func:`~notation.collections.cutting.sure_starts`).  With ``share``, a part is
    rather about (``size`` - its start) / ``share`` bytes, within ``part`` and
    :data:`_MAX_PART`.  Cutting stops at a lone carriage return (line
    numbers would differ from a count of line feeds): the rest is one part.
    """
    with open(path, "rb") as handle:
        pos, line = 0, 1  # the handle is at byte pos, where line number `line` starts
        while True:
            target = pos + (
                max(part, min(_MAX_PART, (size - pos) // share)) if share else part
            )
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
            text = handle.readline(MAX_LINE + 1)  # the rest of the line the skip ended in
            if not text.endswith(b"\n") or text.count(b"\r") != text.count(b"\r\n"):
                return
            pos += len(text)
            line += 1
            found = next(sure_starts(_whole_lines(handle), SureStarts()), None)
            if found is None:
                return
            pos, line = pos + found[1], line + found[0]
            yield pos, line
            handle.seek(pos)  # that line is the next part's first


def _whole_lines(handle: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``handle`` up to the end or a line longer than
    :data:`~notation.files.textfile.MAX_LINE` (no cut there: reading says why)."""
    while True:
        text = handle.readline(MAX_LINE + 1)
        if not text.endswith(b"\n"):
            return
        yield text


# -- checking a unit ------------------------------------------------------------------


#: What a worker sends back for a unit: its verdicts as tuples of their fields (cheaper
#: to pickle), numbered within the unit, and whether it had lines that are not UTF-8.
_Result = tuple[list[tuple[Any, ...]], bool]
_FIELDS = tuple(field.name for field in fields(Verdict))
_RECORD = _FIELDS.index("record")
_ERROR = _FIELDS.index("error")
_ERRORS = _FIELDS.index("errors")
_pack = operator.attrgetter(*_FIELDS)


def _unpack(values: tuple[Any, ...], offset: int) -> Verdict:
    if offset:
        renumbered = list(values)
        renumbered[_RECORD] += offset
        error = values[_ERROR]
        if error is not None:
            renumbered[_ERROR] = error.located(file=error.file, record=renumbered[_RECORD])
        errors = values[_ERRORS]
        if errors:
            renumbered[_ERRORS] = tuple(
                each.located(file=each.file, record=renumbered[_RECORD]) for each in errors
            )
        values = tuple(renumbered)
    return Verdict(*values)


def _read_unit(
    unit: _Unit,
    not_utf8: Callable[[], None],
    whole: Callable[[Iterator[str]], Iterator[T]],
    part: Callable[[Iterator[str]], Iterator[T]],
) -> Iterator[T]:
    """What ``whole`` (of a whole file) or ``part`` (of a part) reads of the lines of a
    unit, numbered within it; ``not_utf8`` is called at its first line not UTF-8."""
    with open_binary(unit.name) as handle:
        if unit.start:
            handle.seek(unit.start)  # not for a whole file: it may be a pipe
        lines = decoded_lines(handle, not_utf8)
        yield from whole(lines) if unit.whole else part(itertools.islice(lines, unit.lines))


def _unit_records(unit: _Unit, not_utf8: Callable[[], None]) -> Iterator[Record]:
    from notation.formats.convert import read_any_records

    return _read_unit(
        unit, not_utf8, lambda lines: read_any_records(lines, unit.name),
        lambda lines: read_records(lines, unit.name, first_line=unit.first_line),
    )


def _verdicts(unit: _Unit, settings: _Settings, not_utf8: Callable[[], None]) -> Iterator[Verdict]:
    """The verdicts of a unit's records: text read by the replay itself (no record
    tree), or the records of JSON Lines replayed."""
    replay = _replay(settings)
    raw = settings.all_errors
    return _read_unit(
        unit, not_utf8, lambda lines: visit_any_records(lines, replay, unit.name, keep_raw=raw),
        lambda lines: visit_records(
            lines, replay, unit.name, first_line=unit.first_line, keep_raw=raw
        ),
    )


def could_be_json(first_line: str) -> bool:
    """Whether a source whose first non-blank line is ``first_line`` may be JSON Lines
    of records: ``False`` tells, without importing the converters (start-up), that
    :func:`notation.formats.convert.looks_like_json_records` would say no (no ``{`` first)."""
    return first_line.strip().removeprefix("\ufeff").startswith("{")


def visit_any_records(
    lines: Iterable[str],
    visitor: RecordVisitor[T],
    source: str | None = None,
    *,
    keep_raw: bool = False,
) -> Iterator[T]:
    """What ``visitor`` makes of each record of ``lines``: record text read by the
    reader (:func:`~notation.reader.visit_records`, each record keeping its text with
    ``keep_raw``), or JSON Lines read into records and walked (told apart as
    :func:`notation.formats.convert.read_any_records` does)."""
    first, rest = first_line_ahead(lines)
    if first is not None and could_be_json(first):
        from notation.formats.convert import looks_like_json_records, read_json_records

        if looks_like_json_records(first):
            for record in read_json_records(rest, source, errors="record"):
                yield walk_record(record, visitor)
            return
    yield from visit_records(rest, visitor, source, keep_raw=keep_raw)


def _replay(settings: _Settings) -> Replay:
    """The replay of a check: :class:`~notation.replay.Replay`, or the strict one; for
    ``check --all``, those of :mod:`notation.checking.every_defect`."""
    if settings.all_errors or settings.strict:
        from notation.checking.every_defect import check_replay

        return check_replay(
            settings.default_game, strict=settings.strict, every=settings.all_errors
        )
    return Replay(settings.default_game)


def _check_unit(unit: _Unit, settings: _Settings) -> _Result:
    """Check one unit in a worker."""
    flagged: list[bool] = []
    packed = [_pack(verdict) for verdict in _verdicts(unit, settings, lambda: flagged.append(True))]
    return packed, bool(flagged)


def _tally_unit(unit: _Unit, settings: _Settings) -> tuple[int, list[tuple[Any, ...]], bool]:
    """Tally one unit in a worker: how many records it has, the verdicts of the broken
    ones (as :func:`_check_unit` sends them), and whether it had lines not UTF-8."""
    flagged: list[bool] = []
    count = 0
    broken: list[tuple[Any, ...]] = []
    for verdict in _verdicts(unit, settings, lambda: flagged.append(True)):
        count += 1
        if verdict.error is not None:
            broken.append(_pack(verdict))
    return count, broken, bool(flagged)


def _summarise_unit(unit: _Unit, settings: _Settings) -> tuple[Summary, bool]:
    """Summarise one unit in a worker: its :class:`~notation.collections.stats.Summary`, and whether
    it had lines that are not UTF-8."""
    from notation.collections.stats import summarise

    flagged: list[bool] = []
    summary = summarise(_unit_records(unit, lambda: flagged.append(True)), settings.default_game)
    return summary, bool(flagged)


#: What a worker can do with a unit, by ``_Settings.task``.
_TASKS: dict[str, Callable[[_Unit, _Settings], Any]] = {
    "check": _check_unit,
    "tally": _tally_unit,
    "summarise": _summarise_unit,
}


def _serve(settings: _Settings, unit: _Unit) -> Any:
    """What a worker makes of ``unit``: the task of ``settings`` done on it."""
    return _TASKS[settings.task](unit, settings)


def summarise_paths(
    paths: Iterable[str | os.PathLike[str] | TextSource],
    *,
    jobs: int | None = 1,
    default_game: str | None = None,
    on_not_utf8: Callable[[str], None] | None = None,
) -> Summary:
    """The :class:`~notation.collections.stats.Summary` of every record of ``paths`` (see
    :func:`check_paths` for ``paths``, ``jobs`` and the rest), the same for any ``jobs``:
    parts are summarised where they are checked, and merged in input order."""
    sources = [item if isinstance(item, TextSource) else os.fspath(item) for item in paths]
    size = input_size(sources)
    workers = default_jobs(size) if jobs is None else jobs
    if workers < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    tell = on_not_utf8 or _warn_not_utf8
    warned: set[str] = set()

    def not_utf8(name: str) -> None:
        if name not in warned:
            warned.add(name)
            tell(name)

    from notation.collections.stats import Summary, summarise
    from notation.formats.convert import read_any_records

    total = Summary()

    def here(work: TextSource | _Unit) -> None:
        if isinstance(work, TextSource):
            records = read_any_records(work.lines, work.name)
        else:
            records = _unit_records(work, functools.partial(not_utf8, work.name))
        total.merge(summarise(records, default_game))

    if workers == 1 or size < POOL_MIN_BYTES:
        with collecting_less():
            for source in sources:
                here(source if isinstance(source, TextSource) else _Unit(source))
        return total
    settings = _Settings(default_game, False, "summarise")
    units = _units(sources, _MIN_PART, share=workers * _SHARE)
    serve = functools.partial(_serve, settings)
    for work, result in in_order(units, workers, serve, here=_here):
        if isinstance(work, _Unreadable):
            raise work.error
        if result is None:
            here(work)
            continue
        summary, flagged = result
        if flagged:
            not_utf8(work.name)
        total.merge(summary)
    return total


class _Run:
    """One call of :func:`check_paths`: its settings, and who is told what."""

    def __init__(
        self,
        settings: _Settings,
        on_not_utf8: Callable[[str], None],
        on_progress: Callable[[int], None] | None,
    ) -> None:
        self.settings = settings
        self.on_not_utf8 = on_not_utf8
        self.on_progress = on_progress
        # A file read in parts is reported once, not once per part; one read whole is
        # reported each time it is read.
        self.warned: set[str] = set()
        self.offset = 0  # records in the parts before, of the file being read

    def _not_utf8(self, unit: _Unit) -> None:
        if unit.whole:
            self.on_not_utf8(unit.name)
        elif unit.name not in self.warned:
            self.warned.add(unit.name)
            self.on_not_utf8(unit.name)

    def here(self, work: _Work) -> Generator[Verdict, None, None]:
        """Check ``work`` in this process, its verdicts as they come."""
        if isinstance(work, _Unreadable):
            raise work.error
        if isinstance(work, TextSource):
            settings = self.settings
            yield from visit_any_records(
                work.lines, _replay(settings), work.name, keep_raw=settings.all_errors
            )
            return
        offset = self.offset = 0 if work.first else self.offset
        count = 0
        for verdict in _verdicts(work, self.settings, lambda: self._not_utf8(work)):
            count += 1
            yield _unpack(_pack(verdict), offset) if offset else verdict
        self.offset += count
        self._done(work)

    def _done(self, unit: _Unit) -> None:
        if self.on_progress is not None:
            self.on_progress(unit.size)

    def serial(self, units: Iterator[_Work]) -> Generator[Verdict, None, None]:
        with collecting_less():
            for work in units:
                yield from self.here(work)

    def parallel(
        self, units: Iterator[_Work], workers: int
    ) -> Generator[Verdict, None, None]:
        serve = functools.partial(_serve, self.settings)
        for work, result in in_order(units, workers, serve, here=_here):
            if result is None:
                yield from self.here(work)
                continue
            assert isinstance(work, _Unit)
            packed, not_utf8 = cast(_Result, result)
            offset = self._received(work, len(packed), not_utf8)
            for values in packed:
                yield _unpack(values, offset)
            self._done(work)

    def parallel_tally(
        self, units: Iterator[_Work], workers: int
    ) -> Generator[Verdict | int, None, None]:
        """:meth:`parallel` as :func:`tally_paths` gives it, the workers tallying."""
        settings = self.settings._replace(task="tally")
        serve = functools.partial(_serve, settings)
        for work, result in in_order(units, workers, serve, here=_here):
            if result is None:
                yield from _tallied(self.here(work))
                continue
            assert isinstance(work, _Unit)
            count, broken, not_utf8 = result
            offset = self._received(work, count, not_utf8)
            done = 0  # records of the unit yielded or counted
            for values in broken:
                number = values[_RECORD]  # within the unit, from 1
                if number - 1 > done:
                    yield number - 1 - done
                yield _unpack(values, offset)
                done = number
            if count > done:
                yield count - done
            self._done(work)

    def _received(self, unit: _Unit, count: int, not_utf8: bool) -> int:
        """A worker's result for ``unit`` came, of ``count`` records: the records of
        its file before it (what to add to its records' numbers)."""
        if not_utf8:
            self._not_utf8(unit)
        offset = 0 if unit.first else self.offset
        self.offset = offset + count
        return offset


def _here(work: _Work) -> bool:
    """Whether ``work`` is done in this process (standard input, a pipe, an unreadable
    file), not by a worker."""
    return isinstance(work, (TextSource, _Unreadable)) or (isinstance(work, _Unit) and work.here)


def _warn_not_utf8(name: str) -> None:
    warnings.warn(NotUTF8Warning(not_utf8_message(name)), stacklevel=2)


