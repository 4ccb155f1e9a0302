"""A record with no Game tag opened by number with its game named (issue 37, item 23):
``RecordFile.open(path, N, game="cave")`` and ``notation record FILE --record N --game
cave`` open it as a record of that game, as ``--game`` is for every command (a Game tag
the record has wins), save it with its other bytes as they were, and a crash's journal
brings it back without the game named again."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

import pytest

import notation
from notation.editing.recordfile import RecordFile
from notation.errors import MisuseError
from notation.games import get_game

ROOT = Path(__file__).resolve().parent.parent
UNTAGGED = '[Event "club night"]\n\n1. b1 c5 *\n'
TINKERTOWN = '[Game "tinkertown"]\n\n1. d3 *\n'


def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.txt"
    path.write_text(f"{TINKERTOWN}\n{UNTAGGED}", encoding="utf-8")
    return path


def test_a_record_without_a_game_tag_opens_as_the_game_named(tmp_path: Path) -> None:
    path = games(tmp_path)
    kept = RecordFile.open(path, 2, game="cave")
    assert kept.editor.game.name == "cave" and kept.editor.cursor.address == (2,)
    kept.editor.play("b1-b2")
    assert kept.save() == 2
    # Saved in place, still without a Game tag (nothing added the user did not write);
    # the record before it keeps every byte.
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"{TINKERTOWN}\n") and '[Game "' not in text[len(TINKERTOWN):]
    (saved,) = notation.read_string(text[len(TINKERTOWN) + 1:])
    assert [node.text for node in saved.moves] == ["b1", "c5", "b1-b2"]
    assert notation.check_record(saved, "cave").ok


def test_the_game_may_be_given_as_a_game(tmp_path: Path) -> None:
    kept = RecordFile.open(games(tmp_path), 2, game=get_game("cave"))
    assert kept.editor.game.name == "cave"


def test_without_the_game_the_message_says_to_name_it(tmp_path: Path) -> None:
    with pytest.raises(MisuseError, match="no Game tag; name its game"):
        RecordFile.open(games(tmp_path), 2)


def test_a_game_tag_wins_over_the_game_named(tmp_path: Path) -> None:
    # As --game is for every command: the game of records without a Game tag.
    kept = RecordFile.open(games(tmp_path), 1, game="cave")
    assert kept.editor.game.name == "tinkertown"


def test_the_journal_of_such_a_record_restores_it_unasked(tmp_path: Path) -> None:
    path = games(tmp_path)
    kept = RecordFile.open(path, 2, game="cave")
    kept.editor.play("b1-b2")  # journaled; then the session ends without a save
    kept.close()  # unsaved: the journal stays, as after a crash
    restored = RecordFile.open(path)
    assert restored.restored is not None and restored.index == 2
    assert restored.editor.game.name == "cave"
    assert [node.text for node in restored.editor.record.moves] == ["b1", "c5", "b1-b2"]
    assert restored.save() == 2


def test_notation_record_with_record_and_game_opens_it(tmp_path: Path) -> None:
    """The real command on a pseudo-terminal: it used to exit 2, "name its game"."""
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras")
    path = games(tmp_path)
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    try:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "notation", "record", str(path), "--record", "2", "--game", "cave"],
            cwd=str(tmp_path), env=env, dimensions=(24, 80), encoding="utf-8", timeout=60,
        )
    except (OSError, pexpect.ExceptionPexpect) as exc:
        pytest.skip(f"no pseudo-terminal here: {exc}")
    try:
        child.expect_exact("a move, { a comment")  # the app is up
        child.send("b1-b2\r")
        child.send("\x13")  # ctrl+s
        deadline = time.monotonic() + 60
        while "b1-b2" not in path.read_text(encoding="utf-8"):
            assert time.monotonic() < deadline, "the record was never saved"
            with contextlib.suppress(pexpect.TIMEOUT):
                child.read_nonblocking(65536, timeout=0.05)
        child.send("\x11")  # ctrl+q
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    (_, saved) = notation.read_file(path)
    assert [node.text for node in saved.moves] == ["b1", "c5", "b1-b2"]
