"""A record being entered, kept in a file: saved whole or not at all, and journaled.

:class:`RecordFile` ties a :class:`~notation.editor.RecordEditor` to its place in a
file of records: a record of it (by number, from 1) to mend or continue, or a new one
to append.  It never loses work and never writes over what it did not read:

- :meth:`~RecordFile.save` writes the record's canonical text in place of the record
  read (or after the last one), every other byte of the file as it was, atomically (a
  temporary file beside it, flushed to disk, renamed over it);
- a file changed on disk since it was read is not written over unless the save is
  told so (:class:`FileChangedError`);
- every edit goes at once to a journal beside the file (``.NAME.notation-journal``):
  the next :meth:`~RecordFile.open` of the file after a crash restores the record from
  it, unasked (:attr:`~RecordFile.restored` says so), and a save removes it.

>>> import os, shutil, tempfile
>>> from notation.recordfile import RecordFile
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
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from notation.editor import RecordEditor, require_new_record
from notation.errors import (
    MisuseError,
    NotationException,
    misuse_unless,
    require_flag,
    require_path,
)
from notation.games.base import Game
from notation.reader import read_records
from notation.record import Record
from notation.savefile import replace_file
from notation.textio import is_compressed
from notation.writer import unwritable

__all__ = ["FileChangedError", "RecordFile", "RecordFileError", "journal_path"]

#: What a journal's first field says it is, and its version.
_JOURNAL = "notation-journal 1"


class RecordFileError(NotationException):
    """The file cannot hold the record as asked: no such record, not UTF-8 text,
    compressed, or a journal that cannot be read."""


class FileChangedError(RecordFileError):
    """The file was changed on disk since it was read: saving would write over that."""


def journal_path(path: str | os.PathLike[str]) -> str:
    """Where the journal of the record being entered into ``path`` is kept."""
    require_path(path)
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    return os.path.join(folder, f".{name}.notation-journal")


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


def _records_with_spans(text: str, source: str) -> list[tuple[Record, int, int]]:
    """The records of ``text``, each with where its text starts and ends in it."""
    lines = _lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out = []
    for record in read_records(lines, source, keep_raw=True):
        raw = record.raw or ""
        begin = starts[record.first_line - 1] if record.first_line else 0
        at = text.find(raw, begin) if raw else begin
        at = begin if at < 0 else at
        out.append((record, at, at + len(raw)))
    return out


class RecordFile:
    """A record of the file ``path`` being entered or mended (see the module's
    docstring); made by :meth:`open`.  :attr:`editor` edits it, :meth:`save` saves it.
    """

    def __init__(
        self,
        path: str,
        editor: RecordEditor,
        index: int | None,
        digest: str | None,
        *,
        restored: str | None = None,
    ) -> None:
        self.path = path
        self.editor = editor
        #: The record's number in the file (None: a new one, appended by the first save).
        self.index = index
        #: What restoring from the journal brought back, in words (None: nothing).
        self.restored = restored
        self.journal = journal_path(path)
        self._digest = digest  # of the file as read or last saved (None: no file)
        # The state saved (restored edits are not: a token no state is).
        self._saved: object = object() if restored else editor.state
        editor.listeners.append(self._write_journal)

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

        A journal left beside the file by a session that did not end (a crash, a kill)
        wins over both: the record it holds is restored, its edits unsaved, and
        :attr:`restored` says what came back.  ``RecordFileError`` for a record the file
        does not have, a compressed file, a file that is not UTF-8 text, or an unreadable
        journal; ``MisuseError`` for a new record without a game, or an argument of the
        wrong type or value.
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
        journal = journal_path(name)
        if os.path.exists(journal):
            return cls._restore(name, journal, clock)
        data = _read(name)
        if record is None:
            if game is None:
                raise MisuseError("a new record needs its game (game='cave', for example)")
            editor = RecordEditor.new(
                game, tags, players=players, date=date, defaults=defaults, clock=clock
            )
            return cls(name, editor, None, _digest(data))
        _require_record_number(record)
        if data is None:
            raise RecordFileError(f"{name} does not exist, so it has no record {record}")
        found = _records_with_spans(_text(data, name), name)
        if not 1 <= record <= len(found):
            raise RecordFileError(
                f"{name} has {len(found)} record{'s' if len(found) != 1 else ''}, "
                f"not a record {record}"
            )
        chosen = found[record - 1][0]
        problem = unwritable(chosen)
        if problem is not None:
            raise RecordFileError(
                f"record {record} of {name} cannot be written back as it stands ({problem}); "
                "mend that in a text editor first"
            )
        default_game = game.name if isinstance(game, Game) else game
        editor = RecordEditor(chosen, default_game=default_game, clock=clock)
        return cls(name, editor, record, _digest(data))

    @classmethod
    def _restore(
        cls, name: str, journal: str, clock: Callable[[], float] | None
    ) -> RecordFile:
        try:
            with open(journal, encoding="utf-8") as handle:
                kept = json.load(handle)
            if not isinstance(kept, dict) or kept.get("journal") != _JOURNAL:
                raise ValueError("not a journal of this program")
            records = list(read_records(_lines(str(kept["text"])), name))
            address = tuple(int(n) for n in kept["address"])
            index = kept["record"]
            if len(records) != 1 or not (index is None or type(index) is int):
                raise ValueError("its record is not one")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RecordFileError(
                f"the journal {journal} of unsaved edits cannot be read ({exc}); move it "
                "away to open the file without it"
            ) from None
        # The game of a record with no Game tag (given to open), kept by the journal.
        game = kept.get("game")
        editor = RecordEditor(
            records[0], default_game=game if isinstance(game, str) else None, clock=clock
        )
        with contextlib.suppress(MisuseError):
            editor.goto(address)
        where = f"record {index}" if index is not None else "a new record"
        saved_at = kept.get("written", "")
        restored = (
            f"restored {where} with its unsaved edits from {os.path.basename(journal)}"
            + (f" (last edit {saved_at})" if saved_at else "")
        )
        digest = kept.get("digest")
        return cls(name, editor, index, digest if isinstance(digest, str) else None,
                   restored=restored)

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
        ``OSError`` if it cannot be written.
        """
        require_flag(force, "force")
        data = _read(self.path)
        if not force and _digest(data) != self._digest:
            raise FileChangedError(
                f"{self.path} was changed since it was read; save again with force to "
                "write over it, or save elsewhere"
            )
        text = self.editor.text()
        current = _text(data, self.path) if data is not None else ""
        if self.index is None:
            count = len(_records_with_spans(current, self.path)) if current.strip() else 0
            new = current + _separator(current) + _with_line_ends(text, current)
            index = count + 1
        else:
            found = _records_with_spans(current, self.path)
            if self.index > len(found):
                raise RecordFileError(
                    f"{self.path} has no record {self.index} any more ({len(found)} now)"
                )
            _, start, end = found[self.index - 1]
            old = current[start:end]
            replacement = _with_line_ends(text, old)
            if not old.endswith(("\n", "\r")):
                replacement = replacement.rstrip("\r\n")  # it ended the file without one
            new = current[:start] + replacement + current[end:]
            index = self.index
        encoded = new.encode("utf-8")
        replace_file(self.path, encoded)
        self._digest = _digest(encoded)
        self.index = index
        self._saved = self.editor.state
        self.discard_journal()
        return index

    def discard_journal(self) -> None:
        """Remove the journal (the edits it holds are lost if unsaved)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.journal)

    def close(self) -> None:
        """End the session: the journal goes if nothing is unsaved, else it stays for
        the next :meth:`open` to restore."""
        if not self.dirty:
            self.discard_journal()
        with contextlib.suppress(ValueError):
            self.editor.listeners.remove(self._write_journal)

    def _write_journal(self, editor: RecordEditor) -> None:
        if not self.dirty:
            self.discard_journal()
            return
        kept = {
            "journal": _JOURNAL,
            "file": os.path.abspath(self.path),
            "record": self.index,
            "game": editor.game.name,
            "digest": self._digest,
            "address": list(editor.address),
            "written": datetime.datetime.now().isoformat(timespec="seconds"),
            "text": editor.text(),
        }
        replace_file(self.journal, (json.dumps(kept, ensure_ascii=False) + "\n").encode("utf-8"))


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
