"""Saving files: special files written into, links followed, clean messages naming the
user's file; ``split`` on fresh temporary files; ``dedup`` of broken records.

No test here writes to a real device: the FIFOs, devices and links are made in a
temporary folder (``/dev/stdout`` is only looked up, never written by name).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import notation.files.savefile
from notation.cli import cli
from notation.collections.operations import dedup_key
from notation.files.savefile import replace_file, saving_text, where_saved
from notation.reader import read_string

CAVE = '[Game "cave"]\n\n1. b1 c5 2. b1-b2 c5-c4 *\n'
TINKERTOWN = '[Game "Tinkertown-Cemetery"]\n\n'


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout_bytes.decode(), result.stderr


def _fifo(tmp_path: Path) -> tuple[Path, int]:
    """A FIFO in ``tmp_path`` and a descriptor reading it, opened read-write so that
    neither side waits for the other (the outputs here fit in the pipe's buffer)."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    return fifo, os.open(fifo, os.O_RDWR | os.O_NONBLOCK)


# -- 1. special files are written into, never replaced ---------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("convert", "--to", "text"),
        ("annotate",),
        ("select", "--valid"),
        ("dedup",),
        ("html",),
        ("diagram",),
    ],
)
def test_output_to_a_fifo_is_written_into_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    source = tmp_path / "game.txt"
    source.write_text(CAVE)
    fifo, reader = _fifo(tmp_path)
    try:
        code, _, err = run(*args, str(source), "-o", str(fifo))
        assert code == 0, err
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the FIFO
        assert os.read(reader, 1 << 16)  # and the output went through it
    finally:
        os.close(reader)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt", "out.fifo"]


def test_output_to_a_character_device_is_written_into_it(tmp_path: Path) -> None:
    """A null device of our own (made with mknod, never the real /dev/null)."""
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("devices cannot be made here")
    source = tmp_path / "game.txt"
    source.write_text(CAVE)
    code, _, err = run("convert", "--to", "json", str(source), "-o", str(device))
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(device).st_mode)
    replace_file(device, b"bytes too\n")
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_output_to_standard_output_by_name(tmp_path: Path) -> None:
    """``-o /dev/stdout`` is standard output.  Tried through links of our own to it, so
    that a writer that renames would replace only those links, not the real /dev."""
    assert where_saved("/dev/stdout").descriptor == 1
    assert where_saved("/dev/fd/1").descriptor == 1
    assert where_saved(f"/proc/{os.getpid()}/fd/2").descriptor == 2
    assert where_saved(tmp_path / "plain.txt").descriptor is None
    source = tmp_path / "game.txt"
    source.write_text(CAVE)
    for name, target in (("stdout", "/dev/stdout"), ("fd1", "/proc/self/fd/1")):
        link = tmp_path / name
        link.symlink_to(target)
        code, out, err = run("convert", "--to", "text", str(source), "-o", str(link))
        assert code == 0, err
        assert out.startswith('[Game "cave"]')
        assert link.is_symlink() and os.readlink(link) == target


def test_a_failed_write_into_a_special_file_names_it(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    with pytest.raises(OSError) as caught:
        replace_file(folder, b"x")
    assert caught.value.filename == str(folder)
    assert folder.is_dir() and not list(tmp_path.glob(".*.tmp"))


# -- saving: one implementation, atomic ---------------------------------------------------


def test_saving_keeps_the_mode_and_leaves_nothing_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("old\n")
    path.chmod(0o640)
    replace_file(path, b"new\n")
    assert path.read_bytes() == b"new\n" and stat.S_IMODE(path.stat().st_mode) == 0o640
    with pytest.raises(RuntimeError), saving_text(path) as out:
        out.write("half")
        raise RuntimeError("stop")
    assert path.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]


def test_textio_has_no_writer_of_its_own() -> None:
    import notation.commands.common
    import notation.files.textfile

    assert not hasattr(notation.files.textfile, "replace_file")
    import inspect

    common = inspect.getsource(notation.commands.common)
    assert "mkstemp" not in common and "os.replace" not in common


# -- 5. a link is followed: its target saved, the link kept ----------------------------------


def test_annotate_in_place_writes_through_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text(CAVE)
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    code, _, err = run("annotate", "--in-place", str(link))
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert "[%" in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]


def test_output_through_a_link_writes_its_target(tmp_path: Path) -> None:
    source = tmp_path / "game.txt"
    source.write_text(CAVE)
    target = tmp_path / "out" / "target.jsonl"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "out.jsonl"
    link.symlink_to(target)
    code, _, err = run("convert", "--to", "json", str(source), "-o", str(link))
    assert code == 0, err
    assert link.is_symlink() and target.read_text().startswith("{")


# -- 13. a file that cannot be replaced: the user's file named, and why ------------------------


def test_a_file_that_cannot_be_replaced_is_named_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``chattr +i`` makes it (the rename refused), without needing the attribute."""
    path = tmp_path / "game.txt"
    path.write_text(CAVE)
    real_replace: Callable[..., None] = os.replace

    def immutable(src: str, dst: str | os.PathLike[str]) -> None:
        if Path(dst) == path:
            raise PermissionError(errno.EPERM, "Operation not permitted", src, str(dst))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", immutable)
    code, _, err = run("annotate", "--in-place", str(path))
    assert code == 2
    assert str(path) in err and ".tmp" not in err
    assert "Operation not permitted" in err and "immutable" in err
    assert "Traceback" not in err
    assert path.read_text() == CAVE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.txt"]


def test_a_folder_that_cannot_be_written_is_named_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a read-only folder makes it (root may write anyway: the refusal is made up)."""
    import tempfile

    path = tmp_path / "game.txt"
    path.write_text(CAVE)

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path / ".x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    code, _, err = run("annotate", "--in-place", str(path))
    assert code == 2
    assert str(path) in err and ".tmp" not in err and "Permission denied" in err
    assert "no new file can be made" in err


@pytest.mark.skipif(shutil.which("chattr") is None, reason="no chattr here")
def test_an_immutable_file_for_real(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(CAVE)
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("the file system or the user cannot make a file immutable")
    try:
        code, _, err = run("annotate", "--in-place", str(path))
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert code == 2 and str(path) in err and ".tmp" not in err
    assert path.read_text() == CAVE


# -- 2. split: fresh temporary files, nothing left behind ------------------------------------


def _games(count: int) -> str:
    return "\n".join(
        f'[Game "cave"]\n[Round "{n}"]\n\n1. b1 c5 2. b1-b2 c5-c4 *\n' for n in range(count)
    )


def test_split_ignores_a_stale_temporary_file(tmp_path: Path) -> None:
    """What a killed split left: the next one starts afresh, not after it."""
    source = tmp_path / "games.txt"
    source.write_text(_games(4))
    out = tmp_path / "out"
    out.mkdir()
    stale = out / ".games-001.txt.tmp"
    stale.write_text('[Game "cave"]\n\n1. b1 c5 2. b1-b2 c5-')
    code, _, err = run("split", str(source), "--every", "2", "-d", str(out))
    assert code == 0, err
    part = (out / "games-001.txt").read_text()
    assert part.count("[Game") == 2 and "c5-\n" not in part
    assert stale.read_text().endswith("c5-")  # someone else's file: left alone


def test_split_keeping_few_files_open_appends_to_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import notation.commands.split

    monkeypatch.setattr(notation.commands.split, "OPEN_FILES", 1)
    source = tmp_path / "games.txt"
    source.write_text(_games(6))
    out = tmp_path / "out"
    code, _, err = run("split", str(source), "--by-tag", "Round", "-d", str(out),
                       "-p", "{n}.txt")
    assert code == 0, err
    assert len(list(out.iterdir())) == 6 and not list(out.glob(".*"))


def test_a_split_that_fails_leaves_no_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last file cannot be moved to its name: the ones moved before are taken back."""
    source = tmp_path / "games.txt"
    source.write_text(_games(6))
    out = tmp_path / "out"
    real_commit = notation.files.savefile.commit

    def fails_last(temp: str, where: notation.files.savefile.Destination, **kwargs: bool) -> None:
        if where.path.endswith("games-003.txt"):
            raise OSError(errno.ENOSPC, "No space left on device", where.name)
        real_commit(temp, where, **kwargs)

    monkeypatch.setattr(notation.files.savefile, "commit", fails_last)
    code, _, err = run("split", str(source), "--every", "2", "-d", str(out))
    assert code == 2 and "No space left" in err and "Traceback" not in err
    assert list(out.iterdir()) == []


# -- 3. dedup: broken records by their whole text ----------------------------------------------


def test_dedup_keeps_different_broken_records(tmp_path: Path) -> None:
    texts = [
        TINKERTOWN + "1. zz *\n",
        TINKERTOWN + "1. yy *\n",
        TINKERTOWN + "1. zz 2. a *\n",
        TINKERTOWN + "1. zz 2. b *\n",
        '[Game "nope"]\n\n1. zz *\n',
        '[Game "nope"]\n\n1. yy *\n',
    ]
    source = tmp_path / "broken.ugn"
    source.write_text("\n".join(texts + texts[:2]))  # and two copies, byte for byte
    code, out, err = run("dedup", str(source))
    assert code == 0, err
    assert "kept 6 records of 8, dropped 2 duplicates" in err
    assert out.count("[Game") == 6


def test_dedup_key_tells_apart_moves_not_yet_read() -> None:
    """Valid records of the same length but different moves are different games, even
    in a process that has not read their moves before."""
    first = read_string(CAVE)[0]
    second = read_string(CAVE.replace("c5-c4", "c5-d4"))[0]
    assert dedup_key(first) != dedup_key(second)
    assert dedup_key(first) == dedup_key(read_string(CAVE.replace("b1-b2", "B1-B2"))[0])


def test_annotate_in_place_refuses_a_file_that_is_not_regular(tmp_path: Path) -> None:
    fifo, reader = _fifo(tmp_path)
    try:
        code, _, err = run("annotate", "--in-place", str(fifo))
    finally:
        os.close(reader)
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
