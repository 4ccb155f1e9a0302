"""Records kept in files while they are entered (notation.editing.recordfile): atomic saves that
change no other record's bytes, files changed on disk, and the journal after a crash."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.collections.generate import generate_records
from notation.editing.recordfile import FileChangedError, RecordFile, RecordFileError, journal_path
from notation.errors import MisuseError
from notation.record import Record
from notation.visitor import TreeBuilder
from notation.writer import write_records


def games_file(tmp_path: Path, count: int, name: str = "games.txt") -> Path:
    path = tmp_path / name
    records = [record for record, _ in generate_records("cave", count, 11, max_turns=12)]
    path.write_text("".join(write_records(records)), encoding="utf-8")
    return path


def test_a_new_record_makes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    kept = RecordFile.open(path, game="cave", defaults=False)
    assert not path.exists()
    kept.editor.play("b1")
    assert kept.save() == 1
    assert path.read_text() == '[Game "cave"]\n[Result "*"]\n\n1. b1 *\n'
    assert not os.path.exists(kept.journal)
    kept.close()
    assert os.listdir(tmp_path) == ["new.txt"]  # no temporary file, no lock left


def test_a_new_record_is_appended_after_the_others(tmp_path: Path) -> None:
    path = games_file(tmp_path, 3)
    before = path.read_bytes()
    kept = RecordFile.open(path, game="cave", defaults=False)
    kept.editor.play("c1")
    assert kept.save() == 4
    after = path.read_bytes()
    assert after.startswith(before)
    assert after[len(before):] == b'\n[Game "cave"]\n[Result "*"]\n\n1. c1 *\n'
    assert len(list(notation.read_file(path))) == 4


def test_saving_one_record_of_a_thousand_changes_no_other_byte(tmp_path: Path) -> None:
    path = games_file(tmp_path, 1000)
    before = path.read_bytes()
    kept = RecordFile.open(path, 500)
    old = kept.editor.text().encode()
    kept.editor.set_comment("checked at the club")
    kept.save()
    after = path.read_bytes()
    start = before.index(old)
    assert after[:start] == before[:start]
    new = kept.editor.text().encode()
    assert after[start:start + len(new)] == new
    assert after[start + len(new):] == before[start + len(old):]
    records = list(notation.read_file(path))
    assert len(records) == 1000 and records[499].moves[-1].comment == "checked at the club"
    assert all(notation.check_record(r).ok for r in records)


def test_a_file_changed_on_disk_is_not_written_over(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    kept = RecordFile.open(path, 1)
    kept.editor.back()
    kept.editor.delete_rest()
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\n[Game \"cave\"]\n\n1. b1 *\n")  # someone else's edit
    changed = path.read_bytes()
    assert kept.changed_on_disk()
    with pytest.raises(FileChangedError):
        kept.save()
    assert path.read_bytes() == changed and kept.dirty
    kept.save(force=True)
    records = list(notation.read_file(path))
    assert len(records) == 3 and records[2].moves[0].text == "b1"  # theirs kept too


def test_crlf_files_keep_their_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "dos.txt"
    path.write_bytes(b'[Game "cave"]\r\n\r\n1. b1 b5 *\r\n\r\n[Game "cave"]\r\n\r\n1. c1 *\r\n')
    kept = RecordFile.open(path, 2)
    kept.editor.play("c5")
    kept.save()
    assert path.read_bytes() == (
        b'[Game "cave"]\r\n\r\n1. b1 b5 *\r\n\r\n[Game "cave"]\r\n\r\n1. c1 c5 *\r\n'
    )


def test_every_edit_is_journaled_and_restored(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    kept = RecordFile.open(path, 2)
    kept.editor.set_comment("a note")
    assert os.path.exists(kept.journal) and kept.journal == journal_path(path)
    kept.close()  # the session ends unsaved: its journal stays
    again = RecordFile.open(path, 1)  # the journal wins: record 2 comes back
    assert again.index == 2 and again.restored is not None and "record 2" in again.restored
    assert again.editor.record == kept.editor.record and again.dirty
    assert again.editor.cursor.address == kept.editor.cursor.address
    again.save()
    assert not os.path.exists(kept.journal)
    assert list(notation.read_file(path))[1].moves[-1].comment == "a note"


def test_undoing_back_to_the_saved_record_removes_the_journal(tmp_path: Path) -> None:
    path = games_file(tmp_path, 1)
    kept = RecordFile.open(path, 1)
    kept.editor.set_comment("x")
    assert os.path.exists(kept.journal)
    kept.editor.undo()
    assert not kept.dirty and not os.path.exists(kept.journal)


def test_kill_9_during_entry_loses_no_edit(tmp_path: Path) -> None:
    path = tmp_path / "live.txt"
    record, _ = next(generate_records("tinkertown", 1, 3))
    moves = [node.written for node in record.moves[:12]]
    script = textwrap.dedent(
        f"""
        import sys
        from notation.editing.recordfile import RecordFile
        kept = RecordFile.open({str(path)!r}, game="tinkertown", defaults=False)
        for number, move in enumerate({moves!r}, 1):
            kept.editor.play(move)
            print("played", number, flush=True)
        sys.stdin.read()  # wait to be killed, never saving
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    for expected in range(1, len(moves) + 1):
        assert child.stdout.readline().split() == ["played", str(expected)]
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL and not path.exists()
    restored = RecordFile.open(path)
    assert restored.restored is not None and restored.index is None
    assert [node.text for node in restored.editor.record.moves] == moves
    assert restored.save() == 1
    assert [n.text for n in next(notation.read_file(path)).moves] == moves


def test_what_cannot_be_opened_says_why(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    with pytest.raises(RecordFileError, match="has 2 records, not a record 3"):
        RecordFile.open(path, 3)
    with pytest.raises(RecordFileError, match="does not exist"):
        RecordFile.open(tmp_path / "none.txt", 1)
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b'[Game "cave"]\n[Event "caf\xe9"]\n\n1. b1 *\n')
    with pytest.raises(RecordFileError, match="not UTF-8"):
        RecordFile.open(latin, 1)
    packed = tmp_path / "packed.txt.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    with pytest.raises(RecordFileError, match="compressed"):
        RecordFile.open(packed, 1)
    bad = tmp_path / "bad.txt"
    Path(journal_path(bad)).write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordFileError, match="journal"):
        RecordFile.open(bad, game="cave")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_file_opens_or_says_why(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "any.txt"
    path.write_bytes(b'[Game "cave"]\n\n' + data)
    try:
        kept = RecordFile.open(path, 1)
    except (RecordFileError, MisuseError):
        return
    with kept:
        kept.save()  # what opened saves, and still reads as a record
    assert list(notation.read_file(path))


def test_one_record_of_a_big_file_is_the_only_one_read_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening and saving record N finds where the records are without building their
    trees: only record N's is built (the cost of a big file is a pass, not a tree per
    record), and every other byte stays, non-ASCII text included."""
    path = tmp_path / "many.txt"
    records = [record for record, _ in generate_records("cave", 300, 3, max_turns=6)]
    text = "".join(write_records(records))
    text = text.replace('[Game "cave"]', '[Game "cave"]\n[Event "café ♞ ☃"]', 150)
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    built: list[int] = []
    end_record = TreeBuilder.end_record

    def counted(self: TreeBuilder, record: Record) -> Record:
        built.append(record.first_line)
        return end_record(self, record)

    monkeypatch.setattr(TreeBuilder, "end_record", counted)
    with RecordFile.open(path, 200) as kept:
        old = kept.editor.text().encode()
        kept.editor.set_comment("é, checked")
        kept.save()
        new = kept.editor.text().encode()
    assert len(built) == 1
    after = path.read_bytes()
    start = before.index(old, len(before) // 2)
    assert after[:start] == before[:start]
    assert after[start:start + len(new)] == new
    assert after[start + len(new):] == before[start + len(old):]
