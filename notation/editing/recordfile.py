"""A record being entered, kept in a file: saved whole or not at all, and journaled.

:class:`RecordFile` ties a :class:`~notation.editing.editor.RecordEditor` to its place in a
file of records: a record of it (by number, from 1) to mend or continue, or a new one
to append.  It never loses work and never writes over what it did not read:

- :meth:`~RecordFile.save` writes the record's canonical text in place of the record
  read (or after the last one), every other byte of the file as it was, atomically (a
  temporary file beside it, flushed to disk, renamed over it);
- a file changed on disk since it was read is not written over unless the save is
  told so (:class:`FileChangedError`);
- every edit goes at once to a journal beside the file (``.NAME.notation-journal``):
  the next :meth:`~RecordFile.open` of the file after a crash restores the record from
  it, unasked (:attr:`~RecordFile.restored` says so), and a save removes it.  A journal
  that cannot be written (a read-only folder, a full disk) stops nothing: the edit is
  made in memory and :attr:`~RecordFile.journal_problem` says why it is not journaled
  (save, or :meth:`~RecordFile.save_as` elsewhere, to keep it);
- one session at a time: a lock file beside the file (``.NAME.notation-lock``, locked
  with ``flock`` while the session lasts, removed by :meth:`~RecordFile.close`) makes a
  second :meth:`~RecordFile.open` of the file fail at once (:class:`FileBusyError`);
  a journal whose lock is free is a crashed session's, and is restored.  Temporary files
  a killed save left beside the file (``.NAME.XXXXXXXX.tmp``) are removed then.

A journal is input like any other file: one that is not a regular file (a link, a
FIFO), too large, or with any field out of place is refused (:class:`RecordFileError`
naming it: move it away to open the file without it), and it is written by a rename
over whatever is at its path, never through a link.

>>> import os, shutil, tempfile
>>> from notation.editing.recordfile import RecordFile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "games.txt")
>>> kept = RecordFile.open(path, game="cave", defaults=False)
>>> _ = kept.editor.play("b1"); _ = kept.editor.play("b5")
>>> os.path.exists(kept.journal), kept.dirty
(True, True)
>>> kept.save()
1
>>> print(open(path).read(), end="")
[Game "cave"]
[Result "*"]
<BLANKLINE>
1. b1 b5 *
>>> os.path.exists(kept.journal), kept.dirty
(False, False)
>>> shutil.rmtree(folder)
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import weakref
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from notation.editing.editor import RecordEditor
from notation.editing.new_record import require_new_record
from notation.errors import (
    MisuseError,
    NotationException,
    misuse_unless,
    require_flag,
    require_path,
)
from notation.files.savefile import replace_file
from notation.files.textfile import is_compressed
from notation.games import UnknownGameError, canonical_name
from notation.games.base import Game
from notation.reader import SureStarts, read_records, visit_records
from notation.record import Record
from notation.visitor import SKIP, RecordVisitor, Skip, TreeBuilder
from notation.writer import unwritable

__all__ = [
    "JOURNAL_LIMIT",
    "FileBusyError",
    "FileChangedError",
    "RecordFile",
    "RecordFileError",
    "journal_path",
    "lock_path",
]

#: What a journal's first field says it is, and its version.
_JOURNAL = "notation-journal 1"
#: The most bytes a journal may have: far more than any record typed or mended, far
#: less than would hurt to read.
JOURNAL_LIMIT = 16 * 2**20
#: The most numbers an address in a journal may have, and the largest number in it.
_ADDRESS_LENGTH, _ADDRESS_NUMBER = 4096, 10**7
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


class RecordFileError(NotationException):
    """The file cannot hold the record as asked: no such record, not UTF-8 text,
    compressed, or a journal (or lock file) that cannot be read or is not one."""


class FileChangedError(RecordFileError):
    """The file was changed on disk since it was read: saving would write over that."""


class FileBusyError(RecordFileError):
    """Another session (``notation record``, or a :class:`RecordFile` not closed) has
    the file open: a second one would share its journal.  Nothing was read or written;
    end the other session first (or open a copy of the file)."""


def journal_path(path: str | os.PathLike[str]) -> str:
    """Where the journal of the record being entered into ``path`` is kept."""
    require_path(path)
    return _beside(path, "notation-journal")


def lock_path(path: str | os.PathLike[str]) -> str:
    """The lock file of a session on ``path`` (see the module's docstring)."""
    return _beside(path, "notation-lock")


def _beside(path: str | os.PathLike[str], kind: str) -> str:
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    return os.path.join(folder, f".{name}.{kind}")


class _Session:
    """The lock of a session on a file, held from :meth:`take` to :meth:`end` (or to
    the garbage collector, for a session never ended): ``problem`` says why there is
    none (a folder where no file can be made), ``removed`` the temporary files of
    killed saves it removed."""

    def __init__(self, lock: str, fd: int | None, problem: str | None,
                 removed: tuple[str, ...]) -> None:
        self.lock = lock
        self.problem = problem
        self.removed = removed
        self._closer = weakref.finalize(self, _unlock, lock, fd) if fd is not None else None

    @classmethod
    def take(cls, name: str) -> _Session:
        """The session of ``name``: its lock taken, leftovers removed; FileBusyError
        if another session holds it, RecordFileError if something not a lock file
        is in its place."""
        lock = lock_path(name)
        for _ in range(100):  # a lock removed under us by a session ending: again
            try:
                fd = os.open(
                    lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                    0o644,
                )
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise _not_ours(lock, "it is a symbolic link") from None
                return cls(lock, None, _why(exc), ())
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise _not_ours(lock, "it is not a regular file")
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise FileBusyError(
                        f"{name} is being edited in another session (its lock "
                        f"{os.path.basename(lock)} is held): end that one first, or "
                        "edit a copy of the file"
                    ) from None
                if _same_file(fd, lock):
                    return cls(lock, fd, None, _remove_leftovers(name))
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)
        raise RecordFileError(f"the lock {lock} keeps being replaced: try again")

    @property
    def held(self) -> bool:
        """Whether the lock is held."""
        return self._closer is not None and self._closer.alive

    def end(self) -> None:
        """Let go of the lock (and remove the lock file): another session may begin."""
        if self._closer is not None:
            self._closer()


def _why(exc: OSError) -> str:
    """The system's words for ``exc`` alone ("Read-only file system"): short enough
    for a status line."""
    return os.strerror(exc.errno) if exc.errno else str(exc)


def _unlock(lock: str, fd: int) -> None:
    # Removed while still held: a session that opened it meanwhile sees, once its
    # flock succeeds, that it is no longer the lock's file, and makes another.
    with contextlib.suppress(OSError):
        if _same_file(fd, lock):
            os.unlink(lock)
    os.close(fd)


def _same_file(fd: int, path: str) -> bool:
    """Whether the open file ``fd`` is the one at ``path`` (not followed)."""
    try:
        there = os.lstat(path)
    except OSError:
        return False
    here = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _not_ours(path: str, why: str) -> RecordFileError:
    return RecordFileError(
        f"{path} is not a file this program made ({why}); move it away and open the "
        "file again"
    )


def _remove_leftovers(name: str) -> tuple[str, ...]:
    """Remove the temporary files that saves of ``name`` or of its journal killed
    half-way left beside it (:func:`notation.files.savefile.temporary_beside` names them):
    with the session's lock held, no other session is writing them.  Their names."""
    folder, base = os.path.split(os.path.abspath(name))
    journal = os.path.basename(journal_path(name))
    pattern = re.compile(
        "|".join(rf"\.{re.escape(b)}\.[a-z0-9_]{{8}}\.tmp" for b in (base, journal))
    )
    removed = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed.append(entry.name)
    return tuple(sorted(removed))


@dataclass(frozen=True, slots=True)
class _Journal:
    """What a journal holds, every field checked (see :func:`_load_journal`)."""

    record: int | None  # the record's number in the file (None: a new one)
    #: The game of a record without a Game tag (the one open was given), or None.
    game: str | None
    digest: str | None  # of the file as read or last saved
    address: tuple[int, ...]
    text: str
    written: str
    #: A save under way when the journal was written: the record's number and the
    #: digest of the file it was writing (the save reached the file if it has it).
    saving: tuple[int, str] | None


def _load_journal(journal: str, name: str) -> _Journal:
    """The journal at ``journal`` of the file ``name``, read without following a link
    or waiting on a FIFO, its size bounded, every field checked; RecordFileError (what
    to do included) if it is anything else."""
    try:
        data = _read_bounded(journal)
        try:
            kept = json.loads(
                data.decode("utf-8"), parse_constant=_no_number, parse_float=_no_number
            )
        except RecursionError:
            raise ValueError("it is nested too deeply") from None
        return _journal_fields(kept, name)
    except (OSError, ValueError) as exc:
        raise _unreadable(journal, str(exc)) from None


def _read_bounded(path: str) -> bytes:
    """The bytes of the regular file at ``path`` (not a link), at most JOURNAL_LIMIT."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ValueError("it is a symbolic link") from None
        raise ValueError(exc.strerror or str(exc)) from None
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("it is not a regular file")
        data = handle.read(JOURNAL_LIMIT + 1)
    if len(data) > JOURNAL_LIMIT:
        raise ValueError(f"it is larger than {JOURNAL_LIMIT} bytes")
    return data


def _no_number(text: str) -> object:
    raise ValueError(f"{text[:20]} is no number a journal holds")


def _journal_fields(kept: object, name: str) -> _Journal:
    """The fields of the parsed journal ``kept``; ValueError for any out of place."""
    if not isinstance(kept, dict) or kept.get("journal") != _JOURNAL:
        raise ValueError("not a journal of this program")
    file = kept.get("file")
    if not isinstance(file, str) or os.path.basename(file) != os.path.basename(name):
        raise ValueError(f"it is not the journal of {os.path.basename(name)}")
    record = kept.get("record")
    if record is not None and not _record_number(record):
        raise ValueError(f"its record number {str(record)[:20]} is not one")
    game = kept.get("game")
    if game is not None and not (isinstance(game, str) and 0 < len(game) <= 40):
        raise ValueError("its game is not a game's name")
    digest = kept.get("digest")
    if digest is not None and not _is_digest(digest):
        raise ValueError("its digest is not one")
    address = kept.get("address")
    if not (
        isinstance(address, list)
        and len(address) <= _ADDRESS_LENGTH
        and all(type(n) is int and 0 <= n <= _ADDRESS_NUMBER for n in address)
    ):
        raise ValueError("its address is not one")
    text, written = kept.get("text"), kept.get("written", "")
    if not isinstance(text, str) or not isinstance(written, str) or len(written) > 40:
        raise ValueError("its record text is not one")
    saving = kept.get("saving")
    if saving is not None and not (
        isinstance(saving, list) and len(saving) == 2 and _record_number(saving[0])
        and _is_digest(saving[1])
    ):
        raise ValueError("its save under way is not one")
    return _Journal(
        record, game, digest, tuple(address), text, written,
        (saving[0], saving[1]) if saving is not None else None,
    )


def _record_number(value: object) -> bool:
    return type(value) is int and 1 <= value <= _ADDRESS_NUMBER


def _is_digest(value: object) -> bool:
    return isinstance(value, str) and _HEX_DIGEST.fullmatch(value) is not None


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def _text(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordFileError(
            f"{path} is not UTF-8 text (byte {exc.start}): a record cannot be saved into "
            "it without changing its other bytes"
        ) from None


def _lines(text: str) -> list[str]:
    """``text`` as lines, each with its own ``\\n`` (the last may have none)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class _Spans(RecordVisitor[tuple[int, int, str]]):
    """A visit that makes nothing of a record but where it starts (its first line, and
    how its text begins there) and how long its text is: its moves are skipped, no
    tree is built."""

    def end_tags(self, record: Record) -> Skip:
        return SKIP

    def end_record(self, record: Record) -> tuple[int, int, str]:
        raw = record.raw or ""
        return record.first_line, len(raw), raw[:_HEAD]


#: How much of a record's text :class:`_Spans` keeps to find where it starts on its
#: first line (after a byte-order mark the reader skipped, say).
_HEAD = 32


def _spans(text: str, source: str) -> list[tuple[int, int]]:
    """Where each record of ``text`` starts and ends in it, found without reading any
    record's moves (a file of many megabytes costs one pass of the reader, not a tree
    per record)."""
    starts = array("q")  # where each line starts

    def lines() -> Iterator[str]:
        # Lines end at "\n" only, as in _lines; one at a time (an io.StringIO would hold
        # the text again, four bytes a character).
        at, size = 0, len(text)
        while at < size:
            end = text.find("\n", at)
            end = size if end < 0 else end + 1
            starts.append(at)
            yield text[at:end]
            at = end

    spans = []
    for first_line, length, head in visit_records(lines(), _Spans(), source, keep_raw=True):
        begin = starts[first_line - 1] if 0 < first_line <= len(starts) else 0
        at = text.find(head, begin, begin + 2 * _HEAD) if head else begin
        begin = begin if at < 0 else at
        spans.append((begin, begin + length))
    return spans


def _in_bytes(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` of ``text`` as offsets in its UTF-8 bytes."""
    if text.isascii():
        return spans
    out = []
    char = byte = 0
    for start, end in spans:
        byte += len(text[char:start].encode("utf-8"))
        begin = byte
        byte += len(text[start:end].encode("utf-8"))
        out.append((begin, byte))
        char = end
    return out


def _record_at(text: str, spans: list[tuple[int, int]], number: int, source: str) -> Record:
    """Record ``number`` (from 1) of ``text`` (``spans`` its records'), read from the
    last record's start before it where the reader surely begins a record (for most
    files: its own start), so that it reads as it does within the whole text."""
    end = spans[number - 1][1]
    begin = next(
        (spans[k][0] for k in range(number - 1, 0, -1) if _surely_begins(text, spans[k][0])),
        0,
    )
    first_line = text.count("\n", 0, begin) + 1
    records = list(visit_records(
        _lines(text[begin:end]), TreeBuilder(), source, first_line=first_line,
        strip_bom=begin == 0,
    ))
    return records[-1]


def _surely_begins(text: str, at: int) -> bool:
    """Whether the reader begins a record at the line starting at ``at`` whatever came
    before it (:class:`notation.reader.SureStarts`, told the lines from the last one
    with a token before it: all that its verdict depends on).  Only false where a
    byte-order mark is met: then the caller reads from further back."""
    if at == 0 or text[at - 1] != "\n":
        return False
    lines = [text[at:text.find("\n", at) + 1 or len(text)]]
    end = at
    while end > 0:
        begin = text.rfind("\n", 0, end - 1) + 1
        line = text[begin:end]
        lines.append(line)
        if line.strip() and line[:1] != "%":
            break
        end = begin
    if any("\ufeff" in line for line in lines):
        return False
    detector = SureStarts()
    verdicts = [detector.feed(line) for line in reversed(lines)]
    return verdicts[-1]


class RecordFile:
    """A record of the file ``path`` being entered or mended (see the module's
    docstring); made by :meth:`open`.  :attr:`editor` edits it, :meth:`save` saves it,
    :meth:`close` (or the end of a ``with`` block) ends the session.
    """

    def __init__(
        self,
        path: str,
        editor: RecordEditor,
        index: int | None,
        digest: str | None,
        *,
        restored: str | None = None,
        session: _Session | None = None,
        saved: bool | None = None,
        spans: list[tuple[int, int]] | None = None,
    ) -> None:
        self.path = path
        self.editor = editor
        #: The record's number in the file (None: a new one, appended by the first save).
        self.index = index
        #: What restoring from the journal brought back, in words (None: nothing).
        self.restored = restored
        self.journal = journal_path(path)
        self._session = session if session is not None else _Session.take(path)
        #: Why edits are not being journaled, in words (None: every edit is): the
        #: journal's folder takes no new file (read-only, full).  The edits are made in
        #: memory all the same; :meth:`save` or :meth:`save_as` keeps them.
        self.journal_problem: str | None = self._session.problem
        #: The temporary files of killed saves that opening removed (their names).
        self.removed_leftovers = self._session.removed
        self._digest = digest  # of the file as read or last saved (None: no file)
        # Where the file's records are in its bytes, while it is as read (None: not known).
        self._spans = spans
        # The state saved (restored edits are not: a token no state is).
        saved = not restored if saved is None else saved
        self._saved: object = editor.state if saved else object()
        editor.listeners.append(self._write_journal)

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- opening ------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        record: int | None = None,
        *,
        game: Game[Any] | str | None = None,
        tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        players: Sequence[str] = (),
        date: datetime.date | None = None,
        defaults: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> RecordFile:
        """Record ``record`` (from 1) of the file at ``path``, or a new record of ``game``
        to append to it (``record`` None; the file need not exist yet, and ``tags``,
        ``players``, ``date``, ``defaults`` are :meth:`RecordEditor.new`'s).  For a record
        of the file, ``game`` is its game if it has no ``Game`` tag (as ``--game`` is for
        every command: a ``Game`` tag wins).

        The session lasts until :meth:`close`: ``FileBusyError`` while another holds
        the file.  A journal left beside the file by a session that did not end (a
        crash, a kill) wins over ``record`` and ``game``: the record it holds is
        restored, its edits unsaved, and :attr:`restored` says what came back (a
        journal whose record a save had already written into the file is removed, the
        record open as saved).  ``RecordFileError`` for a record the file does not
        have, a compressed file, a file that is not UTF-8 text, or a journal that
        cannot be read or is not one; ``MisuseError`` for a new record without a game,
        or an argument of the wrong type or value.
        """
        require_path(path)
        if record is not None:
            _require_record_number(record)
        misuse_unless(game is None or isinstance(game, Game | str), "game",
                      "a Game, its name or None", game)
        tags, players = require_new_record(
            tags, players=players, date=date, defaults=defaults, clock=clock
        )
        name = os.fspath(path)
        if os.path.exists(name) and is_compressed(name):
            raise RecordFileError(f"{name} is compressed: records are entered into plain text")
        session = _Session.take(name)
        try:
            return cls._open_in(
                session, name, record, game=game, tags=tags, players=players, date=date,
                defaults=defaults, clock=clock,
            )
        except BaseException:
            session.end()
            raise

    @classmethod
    def _open_in(
        cls,
        session: _Session,
        name: str,
        record: int | None,
        *,
        game: Game[Any] | str | None,
        tags: Mapping[str, str] | Iterable[tuple[str, str]],
        players: Sequence[str],
        date: datetime.date | None,
        defaults: bool,
        clock: Callable[[], float] | None,
    ) -> RecordFile:
        journal = journal_path(name)
        if os.path.lexists(journal):  # a link to nowhere is no journal to write through
            return cls._restore(session, name, journal, clock)
        data = _read(name)
        if record is None:
            if game is None:
                raise MisuseError("a new record needs its game (game='cave', for example)")
            editor = RecordEditor.new(
                game, tags, players=players, date=date, defaults=defaults, clock=clock
            )
            return cls(name, editor, None, _digest(data), session=session)
        _require_record_number(record)
        if data is None:
            raise RecordFileError(f"{name} does not exist, so it has no record {record}")
        text = _text(data, name)
        found = _spans(text, name)
        if not 1 <= record <= len(found):
            raise RecordFileError(
                f"{name} has {len(found)} record{'s' if len(found) != 1 else ''}, "
                f"not a record {record}"
            )
        chosen = _record_at(text, found, record, name)
        problem = unwritable(chosen)
        if problem is not None:
            raise RecordFileError(
                f"record {record} of {name} cannot be written back as it stands ({problem}); "
                "mend that in a text editor first"
            )
        default_game = game.name if isinstance(game, Game) else game
        editor = RecordEditor(chosen, default_game=default_game, clock=clock)
        return cls(name, editor, record, _digest(data), session=session,
                   spans=_in_bytes(text, found))

    @classmethod
    def _restore(
        cls, session: _Session, name: str, journal: str, clock: Callable[[], float] | None
    ) -> RecordFile:
        kept = _load_journal(journal, name)
        data = _read(name)
        records = list(read_records(_lines(kept.text), name))
        if len(records) != 1 or unwritable(records[0]) is not None:
            raise _unreadable(journal, "its record is not one record that can be written")
        index, digest, saved = kept.record, kept.digest, False
        if kept.saving is not None and kept.saving[1] == _digest(data):
            # Killed after the save's rename, before the journal went: the file holds
            # the record already, as record kept.saving[0].
            (index, digest), saved = kept.saving, True
        if index is not None:
            count = len(_spans(_text(data, name), name)) if data else 0
            if index > count:
                raise _unreadable(
                    journal, f"it names record {index}; {os.path.basename(name)} has {count}"
                )
        # The game of a record with no Game tag (given to open), kept by the journal.
        if kept.game is not None:
            try:
                canonical_name(kept.game)
            except UnknownGameError:
                why = f"its game {kept.game!r} is no game known here"
                raise _unreadable(journal, why) from None
        editor = RecordEditor(records[0], default_game=kept.game, clock=clock)
        with contextlib.suppress(MisuseError):
            editor.goto(kept.address)
        base = os.path.basename(journal)
        if saved:
            restored = f"record {index} was saved before the last session ended; {base} removed"
        else:
            where = f"record {index}" if index is not None else "a new record"
            restored = f"restored {where} with its unsaved edits from {base}" + (
                f" (last edit {kept.written})" if kept.written else ""
            )
        opened = cls(name, editor, index, digest, restored=restored, session=session,
                     saved=saved)
        if saved:
            opened.discard_journal()
        return opened

    # -- state ----------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        """Whether the record has edits that are not saved."""
        return self.editor.state is not self._saved

    def changed_on_disk(self) -> bool:
        """Whether the file differs from what was read or last saved."""
        return _digest(_read(self.path)) != self._digest

    # -- saving ---------------------------------------------------------------------
    def save(self, *, force: bool = False) -> int:
        """Write the record into the file and return its number there; the journal goes.

        A record read is replaced by its canonical text; a new one is appended after a
        blank line.  The other records keep every byte.  ``FileChangedError`` (nothing
        written) if the file changed on disk since it was read, unless ``force``: then
        the record of that number in the file as it is now is replaced.
        ``RecordFileError`` if the file lost the record, or is no longer UTF-8 text;
        ``OSError`` if it cannot be written (nothing lost: the edits stay, unsaved).
        """
        require_flag(force, "force")
        data = _read(self.path)
        unchanged = _digest(data) == self._digest
        if not force and not unchanged:
            raise FileChangedError(
                f"{self.path} was changed since it was read; save again with force to "
                "write over it, or save elsewhere"
            )
        index, encoded = self._placed(data or b"", self._spans if unchanged else None)
        saving = (index, _digest(encoded))
        # The journal learns first what the file will be: a save killed after the
        # rename leaves a journal the next open knows to be saved already.
        self._write_journal(self.editor, saving=saving)
        try:
            replace_file(self.path, encoded)
        except BaseException:
            if not self.dirty:
                self.discard_journal()  # it would restore edits there are none of
            raise
        self._saved_as(self.path, index, encoded)
        return index

    def save_as(self, path: str | os.PathLike[str]) -> int:
        """Append the record to the file at ``path`` (made if need be) and go on in
        that file: the session, its journal and its lock move there; the record's number
        there is returned.  For a file that cannot be saved (a read-only folder), or a
        copy.  ``FileBusyError`` if another session holds ``path``, ``RecordFileError``
        for a file that is compressed or not UTF-8 text, ``OSError`` if it cannot be
        written: then nothing changed.
        """
        require_path(path)
        name = os.fspath(path)
        if os.path.abspath(name) == os.path.abspath(self.path):
            return self.save()
        if os.path.exists(name) and is_compressed(name):
            raise RecordFileError(f"{name} is compressed: records are entered into plain text")
        session = _Session.take(name)
        try:
            data = _read(name) or b""
            index, encoded = _appended(data, _text(data, name), self.editor.text())
            replace_file(name, encoded)
        except BaseException:
            session.end()
            raise
        self.discard_journal()
        self._session.end()
        self._session, self.journal = session, journal_path(name)
        self.journal_problem = session.problem
        self._saved_as(name, index, encoded)
        return index

    def _placed(
        self, data: bytes, spans: list[tuple[int, int]] | None
    ) -> tuple[int, bytes]:
        """The record's number and the file's bytes once the record is in ``data`` (the
        file's bytes now; ``spans`` where its records are, if known)."""
        text = self.editor.text()
        if self.index is None:
            return _appended(data, _text(data, self.path), text)
        if spans is None:
            current = _text(data, self.path)
            spans = _in_bytes(current, _spans(current, self.path))
            del current  # a big file's text: not kept while the new file is made
        if self.index > len(spans):
            raise RecordFileError(
                f"{self.path} has no record {self.index} any more ({len(spans)} now)"
            )
        start, end = spans[self.index - 1]
        old = data[start:end].decode("utf-8")
        replacement = _with_line_ends(text, old)
        if not old.endswith(("\n", "\r")):
            replacement = replacement.rstrip("\r\n")  # it ended the file without one
        whole = memoryview(data)
        return self.index, b"".join((whole[:start], replacement.encode("utf-8"), whole[end:]))

    def _saved_as(self, path: str, index: int, encoded: bytes) -> None:
        """The state after ``encoded`` was saved as ``path``, the record its ``index``."""
        self.path = path
        self._digest = _digest(encoded)
        self._spans = None  # the file's records are found again by the next save
        self.index = index
        self._saved = self.editor.state
        self.discard_journal()

    def discard_journal(self) -> None:
        """Remove the journal (the edits it holds are lost if unsaved)."""
        with contextlib.suppress(OSError):
            os.unlink(self.journal)

    def close(self) -> None:
        """End the session: the journal goes if nothing is unsaved, else it stays for
        the next :meth:`open` to restore; the lock goes."""
        if not self.dirty:
            self.discard_journal()
        with contextlib.suppress(ValueError):
            self.editor.listeners.remove(self._write_journal)
        self._session.end()

    def _write_journal(
        self, editor: RecordEditor, *, saving: tuple[int, str | None] | None = None
    ) -> None:
        """Write the journal (an editor's listener); a problem goes to
        :attr:`journal_problem`, never up: the edit is made all the same."""
        if not self._session.held and self._session.problem is None:
            return  # the session ended: another may own the journal now
        if not self.dirty and saving is None:
            self.discard_journal()
            return
        kept: dict[str, object] = {
            "journal": _JOURNAL,
            "file": os.path.abspath(self.path),
            "record": self.index,
            "game": editor.game.name,
            "digest": self._digest,
            "address": list(editor.cursor.address),
            "written": datetime.datetime.now().isoformat(timespec="seconds"),
            "text": editor.text(),
        }
        if saving is not None:
            kept["saving"] = list(saving)
        data = (json.dumps(kept, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            replace_file(self.journal, data, follow_links=False)
        except OSError as exc:
            self.journal_problem = _why(exc)
        else:
            self.journal_problem = None


def _unreadable(journal: str, why: str) -> RecordFileError:
    return RecordFileError(
        f"the journal {journal} of unsaved edits cannot be read ({why}); move it away to "
        "open the file without it"
    )


def _appended(data: bytes, current: str, text: str) -> tuple[int, bytes]:
    """The number of the record ``text`` appended to the file of bytes ``data`` (its
    text ``current``), and the file's bytes then."""
    count = len(_spans(current, "")) if current.strip() else 0
    added = _separator(current) + _with_line_ends(text, current)
    return count + 1, data + added.encode("utf-8")


def _require_record_number(record: object) -> None:
    """``MisuseError`` unless ``record`` is a record's number (an int from 1)."""
    if type(record) is not int or record < 1:
        raise MisuseError(f"a record's number is a whole number from 1, not {record!r}")


def _separator(current: str) -> str:
    """What goes between the file's text ``current`` and a record appended to it."""
    if not current.strip():
        return ""
    end = "\r\n" if current.rstrip(" \t").endswith("\r\n") else "\n"
    body = current.rstrip(" \t")
    if body.endswith(end + end) or body.endswith("\n\n"):
        return ""
    return end if body.endswith(("\n", "\r")) else end + end


def _with_line_ends(text: str, like: str) -> str:
    """``text`` (``\\n`` line ends) with the line ends of ``like``'s lines."""
    return text.replace("\n", "\r\n") if "\r\n" in like else text
