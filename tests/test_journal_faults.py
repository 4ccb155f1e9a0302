"""Faults met while a record is entered (notation.editing.recordfile, ``notation record``): a
journal that cannot be written (a read-only folder, a full disk), two sessions on one
file, a save killed before its journal went, journals made by hand or by an attacker,
and the temporary files of killed saves."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import notation
from notation.collections.generate import generate_records
from notation.editing import recordfile
from notation.editing.recordfile import FileBusyError, RecordFile, RecordFileError, journal_path
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent


def games_file(folder: Path, count: int, name: str = "games.txt") -> Path:
    path = folder / name
    records = [record for record, _ in generate_records("cave", count, 5, max_turns=8)]
    path.write_text("".join(write_records(records)), encoding="utf-8")
    return path


def record_count(path: Path) -> int:
    return len(list(notation.read_file(path)))


@contextlib.contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A small tmpfs mounted at ``folder`` (root only): a real full disk, and with
    ``remount_read_only`` a real read-only folder (root ignores permission bits)."""
    folder.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"a tmpfs cannot be mounted here (root and mount are needed): {done.stderr}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` up to its last byte."""
    with (folder / "filler").open("wb", buffering=0) as handle:
        for size in (1024, 1):
            with contextlib.suppress(OSError):
                while True:
                    handle.write(b"x" * size)


def journals_fill_the_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, writing a journal fails as on a full disk (ENOSPC); other files are
    written as usual."""
    real = recordfile.replace_file

    def full(where: Any, data: bytes, **options: Any) -> None:
        if os.fspath(where).endswith(".notation-journal"):
            raise OSError(errno.ENOSPC, "No space left on device", os.fspath(where))
        real(where, data, **options)

    monkeypatch.setattr(recordfile, "replace_file", full)


# -- 1. a journal that cannot be written ------------------------------------------------
def test_a_journal_that_cannot_be_written_keeps_the_edit_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = games_file(tmp_path, 2)
    journals_fill_the_disk(monkeypatch)
    with RecordFile.open(path, 1) as kept:
        assert kept.journal_problem is None
        kept.editor.set_comment("kept in memory")  # no OSError: the edit is made
        assert kept.journal_problem == "No space left on device" and kept.dirty
        assert kept.editor.comment() == "kept in memory"
        assert kept.save() == 1 and not kept.dirty
    assert next(notation.read_file(path)).moves[-1].comment == "kept in memory"


def test_a_read_only_folder_journals_nothing_and_save_as_saves_elsewhere(
    tmp_path: Path,
) -> None:
    with tmpfs(tmp_path / "ro", "1m") as folder:
        path = games_file(folder, 3)
        before = path.read_bytes()
        remount_read_only(folder)
        kept = RecordFile.open(path, 2)
        assert kept.journal_problem == "Read-only file system"
        kept.editor.set_comment("mended on a read-only disk")
        with pytest.raises(OSError):
            kept.save()
        assert kept.dirty and path.read_bytes() == before
        elsewhere = tmp_path / "elsewhere.txt"
        assert kept.save_as(elsewhere) == 1
        assert kept.path == str(elsewhere) and not kept.dirty and kept.journal_problem is None
        kept.editor.set_comment("and on")  # journaled where it is now
        assert Path(journal_path(elsewhere)).exists()
        kept.save()
        kept.close()
        assert path.read_bytes() == before
        assert next(notation.read_file(elsewhere)).moves[-1].comment == "and on"


def spawn_record(args: list[str], cwd: Path) -> Any:
    """``notation record ARGS`` on a pseudo-terminal of 80x24 (skip without one)."""
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    try:
        return pexpect.spawn(
            sys.executable, ["-m", "notation", "record", *args],
            cwd=str(cwd), env=env, dimensions=(24, 80), encoding="utf-8", timeout=60,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")


def wait_for(child: Any, done: Any, what: str) -> None:
    """Poll ``done()`` until true, reading what the app draws meanwhile."""
    import pexpect

    deadline = time.monotonic() + 60
    while not done():
        assert child.isalive(), f"the app ended before {what}: {child.before!r}"
        assert time.monotonic() < deadline, f"never {what}"
        with contextlib.suppress(pexpect.TIMEOUT):
            child.read_nonblocking(65536, timeout=0.05)


def quit_and_wait(child: Any) -> None:
    import pexpect

    child.send("\x11")  # ctrl+q
    child.expect(pexpect.EOF)
    child.wait()


@pytest.mark.parametrize("fault", ["read-only", "full"])
def test_notation_record_on_a_terminal_survives_a_journal_it_cannot_write(
    tmp_path: Path, fault: str
) -> None:
    """The real command: the first edit no longer kills it; the status line says the
    edits are not journaled and why; ctrl+s says why it cannot save; :w saves
    elsewhere, after which ctrl+q quits at once.  The file keeps every byte."""
    with tmpfs(tmp_path / "disk", "64k") as folder:
        path = games_file(folder, 2)
        before = path.read_bytes()
        if fault == "read-only":
            remount_read_only(folder)
        else:
            fill(folder)
        why = "Read-only file system" if fault == "read-only" else "No space left on device"
        elsewhere = tmp_path / "saved elsewhere.txt"
        child = spawn_record([str(path), "--record", "2"], tmp_path)
        try:
            child.expect_exact("a move, { a comment")
            child.send("{")
            child.expect_exact("the comment (")
            child.send("a note\r")
            child.expect_exact(f"NOT journaled ({why})")  # the status line
            child.send("\x13")  # ctrl+s
            child.expect_exact("not saved")
            child.send(f':w "{elsewhere.name}"\r')
            wait_for(child, elsewhere.exists, "saved elsewhere")
            child.expect_exact("saved as record 1")
            quit_and_wait(child)
        finally:
            child.close(force=True)
        assert child.exitstatus == 0 and "Traceback" not in (child.before or "")
        assert path.read_bytes() == before
        assert next(notation.read_file(elsewhere)).moves[-1].comment == "a note"


# -- 3. two sessions on one file -----------------------------------------------------
def test_a_second_session_on_a_file_is_refused_at_once(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    first = RecordFile.open(path, 1)
    first.editor.set_comment("the first session's edit")
    with pytest.raises(FileBusyError, match="being edited in another session"):
        RecordFile.open(path, 2)
    assert Path(first.journal).exists()  # nothing of the first session's touched
    first.close()  # unsaved: the journal stays, the lock goes
    again = RecordFile.open(path, 2)  # the crashed (here: ended) session's journal
    assert again.index == 1 and again.dirty
    assert again.editor.comment() == "the first session's edit"
    again.close()


def test_notation_record_on_a_file_another_session_edits_exits_2(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    with RecordFile.open(path, 1) as first:
        first.editor.set_comment("unsaved")
        child = spawn_record([str(path), "--record", "2"], tmp_path)
        try:
            child.expect_exact("being edited in another session")
            child.expect(__import__("pexpect").EOF)
            child.wait()
        finally:
            child.close(force=True)
        assert child.exitstatus == 2
        assert json.loads(Path(first.journal).read_text("utf-8"))["record"] == 1


# -- 4. a save killed between its rename and the journal's removal ---------------------
def test_a_save_killed_before_its_journal_went_is_not_appended_again(tmp_path: Path) -> None:
    path = games_file(tmp_path, 4)
    script = textwrap.dedent(
        f"""
        import os, signal
        from notation.editing.recordfile import RecordFile
        kept = RecordFile.open({str(path)!r}, game="cave", defaults=False)
        kept.editor.play("b1")
        unlink = os.unlink
        def killed(name, *args, **options):
            if name == kept.journal:  # the file is renamed in: die before this
                os.kill(os.getpid(), signal.SIGKILL)
            return unlink(name, *args, **options)
        os.unlink = killed
        kept.save()
        """
    )
    child = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=False)
    assert child.returncode == -signal.SIGKILL
    assert record_count(path) == 5 and Path(journal_path(path)).exists()
    with RecordFile.open(path) as kept:
        assert kept.index == 5 and not kept.dirty
        assert kept.restored is not None and "saved" in kept.restored
        assert not Path(journal_path(path)).exists()
        kept.save()
    assert record_count(path) == 5


# -- 5. and 6. journals made by hand, and hostile ones ----------------------------------
def journal_of(path: Path, **fields: Any) -> dict[str, Any]:
    kept = {
        "journal": "notation-journal 1", "file": str(path), "record": 1, "digest": None,
        "address": [1], "written": "", "text": '[Game "cave"]\n\n1. b1 *\n',
    }
    kept.update(fields)
    return kept


#: Journals a hand (or a bug) made: each field out of place in turn.
BAD_FIELDS: list[dict[str, Any]] = [
    {"record": 0}, {"record": -1}, {"record": 3}, {"record": True}, {"record": "1"},
    {"address": [-1]}, {"address": "1"}, {"address": [2**70]}, {"address": [1.5]},
    {"digest": "not hex"}, {"digest": 7}, {"text": 7}, {"text": ""},
    {"text": '[Game "cave"]\n\n1. b1 *\n\n[Game "cave"]\n\n1. c1 *\n'},
    {"file": "/elsewhere/other.txt"}, {"saving": [0, "0" * 64]}, {"written": 5},
    {"game": 7}, {"game": ""}, {"game": "chess", "text": "1. b1 *\n"},
]


def test_a_journal_with_a_field_out_of_place_is_refused(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    before = path.read_bytes()
    for fields in BAD_FIELDS:
        Path(journal_path(path)).write_text(json.dumps(journal_of(path, **fields)), "utf-8")
        with pytest.raises(RecordFileError, match=r"journal .*\.games\.txt\.notation-jo.*move"):
            RecordFile.open(path, 1)
        assert path.read_bytes() == before, fields


def test_a_hostile_journal_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = games_file(tmp_path, 2)
    whole = json.dumps(journal_of(path, address="ADDRESS"))
    hostile = [
        *(whole.replace('"ADDRESS"', f"[{n}]").encode() for n in ("1e400", "Infinity", "NaN",
                                                                   "-Infinity", "9" * 5000)),
        ("[" * 100_000 + "]" * 100_000).encode(),
        whole.encode("utf-8").replace(b"cave", b"c\xffve"),
    ]
    for data in hostile:
        Path(journal_path(path)).write_bytes(data)
        with pytest.raises(RecordFileError, match=r"journal .* move it away"):
            RecordFile.open(path, 1)


def open_in_a_child(path: Path) -> subprocess.CompletedProcess[str]:
    """Open ``path`` in a child process with 60 s and 1 GB at most: a journal that
    hangs or eats memory fails the test instead of taking the machine with it."""
    script = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
        from notation.editing.recordfile import RecordFile, RecordFileError
        try:
            RecordFile.open({str(path)!r}, game="cave")
        except RecordFileError as exc:
            print("refused:", exc)
        """
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False,
    )


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_journal_that_is_no_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "games.txt"
    journal = Path(journal_path(path))
    if kind == "fifo":
        os.mkfifo(journal)
    else:
        journal.symlink_to(kind)
    try:
        done = open_in_a_child(path)
    except subprocess.TimeoutExpired:
        pytest.fail(f"opening with a {kind} journal hung")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("refused:") and str(journal) in done.stdout
    assert "move it away" in done.stdout


def test_a_dangling_link_at_the_journal_is_never_written_through(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    target = tmp_path / "somewhere else"
    journal = Path(journal_path(path))
    journal.symlink_to(target)
    with pytest.raises(RecordFileError, match=r"symbolic link.*move it away"):
        RecordFile.open(path, game="cave")
    assert not target.exists()
    journal.unlink()
    with RecordFile.open(path, game="cave", defaults=False) as kept:
        journal.symlink_to(target)  # planted during the session
        kept.editor.play("b1")
        assert not target.exists() and not journal.is_symlink()  # replaced, not followed
        assert json.loads(journal.read_text("utf-8"))["text"].endswith("1. b1 *\n")
        kept.save()


# -- 7. the temporary files of killed saves -----------------------------------------
def test_the_leftovers_of_killed_saves_go_when_a_session_begins(tmp_path: Path) -> None:
    path = games_file(tmp_path, 1)
    leftovers = [".games.txt.k2x_9abc.tmp", "..games.txt.notation-journal.abcdefgh.tmp"]
    kept_files = [".games.txt.other.tmp", ".other.txt.abcdefgh.tmp", "games.txt"]
    for name in leftovers + kept_files[:-1]:
        (tmp_path / name).write_text("half a save")
    (tmp_path / ".games.txt.linkedxx.tmp").symlink_to(tmp_path / "games.txt")
    with RecordFile.open(path, 1) as kept:
        assert kept.removed_leftovers == tuple(sorted(leftovers))
        with pytest.raises(FileBusyError):  # a session that could own them: nothing goes
            RecordFile.open(path, 1)
    names = sorted(os.listdir(tmp_path))
    assert names == sorted([*kept_files, ".games.txt.linkedxx.tmp"])


def test_the_leftovers_of_a_killed_notation_record_go_on_the_next_open(tmp_path: Path) -> None:
    """``notation record`` killed with -9 on a terminal: the lock goes with the process,
    and the next session removes the temporary files a killed save left."""
    path = games_file(tmp_path, 1)
    child = spawn_record([str(path), "--record", "1"], tmp_path)
    journal = Path(journal_path(path))
    try:
        child.expect_exact("a move, { a comment")
        child.send("{")
        child.expect_exact("the comment (")
        child.send("a note\r")
        wait_for(child, journal.exists, "journaled")
        (tmp_path / ".games.txt.abcdefgh.tmp").write_text("a save killed half-way")
        child.kill(signal.SIGKILL)
        child.wait()
    finally:
        child.close(force=True)
    with RecordFile.open(path) as kept:
        assert kept.removed_leftovers == (".games.txt.abcdefgh.tmp",)
        assert kept.editor.comment() == "a note" and kept.dirty
        kept.save()
    assert sorted(os.listdir(tmp_path)) == ["games.txt"]


def test_the_app_says_edits_are_not_journaled_and_asks_before_quitting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the app (a pilot, 80x24): a journal that cannot be written is on the title
    and the status line, with why; ctrl+q asks about the unjournaled edits; :w saves
    elsewhere, and then ctrl+q quits at once."""
    import asyncio

    from textual.widgets import Static

    from notation.tui.record_app import RecordApp

    journals_fill_the_disk(monkeypatch)
    app = RecordApp(RecordFile.open(tmp_path / "game.txt", game="cave", defaults=False))
    elsewhere = tmp_path / "elsewhere.txt"

    def shown(selector: str) -> str:
        return str(app.query_one(selector, Static).render())

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("b", "1", "enter")
            assert [node.text for node in app.editor.record.moves] == ["b1"]
            assert "NOT journaled (No space left on device)" in shown("#status")
            assert "NOT journaled: No space left on device" in shown("#title")
            await pilot.press("ctrl+q")
            assert app.mode == "quit" and "unjournaled: s save and quit" in shown("#status")
            await pilot.press("escape")
            await pilot.press(*f":w {elsewhere}", "enter")
            assert f"saved as record 1 of {elsewhere}" in shown("#status")
            await pilot.press("ctrl+q")
            await pilot.pause()

    asyncio.run(scenario())
    assert app.return_code == 0
    assert elsewhere.read_text(encoding="utf-8") == '[Game "cave"]\n[Result "*"]\n\n1. b1 *\n'
