"""The mends a broken record is offered (:mod:`notation.editing.mends`), and ``notation record``
offering them: a legal slip copied several turns before the break is found, with the
record's own move, and the app's key mends it (ctrl+z takes it back)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

import notation
from notation.editing.editor import RecordEditor
from notation.editing.mends import suggested_mends
from notation.editing.recordfile import RecordFile, journal_path
from notation.errors import MisuseError
from notation.record import MoveNode, Record, Tag
from notation.replay import check_record
from notation.tui.record_app import RecordApp
from notation.tui.record_help import MEND_KEY
from tests.test_record_app import drive, on_screen

ROOT = Path(__file__).resolve().parent.parent


def slipped(game: str, number: int, index: int, written: str) -> tuple[str, Record, str]:
    """Record ``number`` (from 1) of the examples of ``game`` with its move ``index``
    (from 0) of the main line written ``written``: its text, the record read from it,
    and the move it had."""
    text = (ROOT / "records" / game / "examples.ugn").read_text(encoding="utf-8")
    record = list(notation.read_string(text))[number - 1]
    node = record.moves[index]
    lines = text.splitlines(keepends=True)
    line = lines[node.line - 1]
    start = node.column - 1
    assert line[start:].startswith(node.text)
    lines[node.line - 1] = line[:start] + written + line[start + len(node.text):]
    broken_text = "".join(lines)
    broken = list(notation.read_string(broken_text))[number - 1]
    return broken_text, broken, node.text


def tinkertown_slip() -> tuple[str, Record, str]:
    """Tinkertown's first example with turn 15, ``8. d7-e7``, copied ``d7-c7``: legal,
    and the record breaks only at turn 40."""
    return slipped("tinkertown", 1, 14, "d7-c7")


def kidz_slip() -> tuple[str, Record, str]:
    """Zombie Kidz's first example with turn 3's die face copied wrong, ``G:a2-a1x`` for
    ``K:a2-a1x``: legal, and the record breaks only at turn 5 (and one other change, at
    turn 2, would also let it play)."""
    return slipped("zombie-kidz", 1, 2, "G:a2-a1x")


def test_a_legal_slip_several_turns_before_the_break_is_found_with_its_move() -> None:
    _, broken, meant = tinkertown_slip()
    error = check_record(broken).error
    assert error is not None and error.turn == 40  # the slip is legal: a symptom later
    mends = suggested_mends(broken)
    assert len(mends) == 1
    mend = mends[0]
    assert mend.node is broken.moves[14]
    assert (mend.turn, mend.meant, meant) == (15, "d7-e7", "d7-e7")
    assert mend.later == len(broken.moves) - 15  # every later move plays
    assert mend.defect.turn == 40
    assert mend.said() == "turn 15 (8. d7-c7) was probably d7-e7"
    editor = RecordEditor(broken)
    assert editor.mend(mend.node, mend.meant).kept == mend.later
    assert editor.check().ok


def test_a_die_face_slip_is_among_the_mends_each_one_checked() -> None:
    _, broken, meant = kidz_slip()
    mends = suggested_mends(broken)
    assert len(mends) > 1
    assert any(mend.node is broken.moves[2] and mend.meant == meant for mend in mends)
    for mend in mends:  # each is a promise: with it, the record is valid
        record = kidz_slip()[1]  # read again: each mend on the record as it was
        editor = RecordEditor(record)
        index = next(i for i, node in enumerate(broken.moves) if node is mend.node)
        assert editor.mend(record.moves[index], mend.meant).stopped is None
        assert editor.check().ok


def test_no_mend_for_a_valid_record_or_a_move_not_found() -> None:
    text = (ROOT / "records" / "tinkertown" / "examples.ugn").read_text(encoding="utf-8")
    assert suggested_mends(next(iter(notation.read_string(text)))) == []
    # Built in memory, every move at (0, 0): the check's fix names no one move.
    moves = [MoveNode(text) for text in ("b1", "b5", "b1-a1", "b5-b4", "c1-c2", "b4-c4")]
    record = Record(tags=[Tag("Game", "cave"), Tag("Result", "*")], moves=moves, result="*")
    assert not check_record(record).ok
    assert suggested_mends(record) == []
    with pytest.raises(MisuseError):
        suggested_mends("1. b1 b5 *")  # type: ignore[arg-type]


def test_record_offers_the_mend_and_its_key_makes_it_and_ctrl_z_undoes_it(
    tmp_path: Path,
) -> None:
    text, _, meant = tinkertown_slip()
    path = tmp_path / "copied.ugn"
    path.write_text(text, encoding="utf-8")
    app = RecordApp(RecordFile.open(path, 1))

    async def scenario(pilot: Pilot[int]) -> None:
        offer = await on_screen(pilot, "#mends")  # whole at 80x24: nothing cut off
        assert offer == (
            f"turn 15 (8. d7-c7) was probably d7-e7: with it, all 70 later moves play. "
            f"{MEND_KEY} mends it"
        )
        assert "turn 40" in await on_screen(pilot, "#defect")
        await pilot.press(MEND_KEY)
        record = app.editor.record
        assert record.moves[14].text == meant and app.editor.check().ok
        status = await on_screen(pilot, "#status")
        assert f"mended turn 15 to {meant}: 70 later moves stand; the record is valid" in status
        assert not app.query_one("#mends").display
        assert Path(journal_path(path)).exists()  # journaled as any edit
        await pilot.press("ctrl+z")
        record = app.editor.record
        assert record.moves[14].text == "d7-c7" and not app.editor.check().ok
        assert f"{MEND_KEY} mends it" in await on_screen(pilot, "#mends")  # offered again

    drive(app, scenario)


def test_several_mends_are_listed_and_a_digit_picks_one(tmp_path: Path) -> None:
    text, broken, meant = kidz_slip()
    path = tmp_path / "copied.ugn"
    path.write_text(text, encoding="utf-8")
    app = RecordApp(RecordFile.open(path, 1))
    number = next(
        n for n, mend in enumerate(suggested_mends(broken), 1) if mend.meant == meant
    )

    async def scenario(pilot: Pilot[int]) -> None:
        offer = await on_screen(pilot, "#mends")
        assert f"{number} turn 3 (2. G:a2-a1x) was {meant}" in offer
        await pilot.press(MEND_KEY)
        assert "mend which?" in await on_screen(pilot, "#status")
        await pilot.press("x")  # no answer: still asked, nothing changed
        assert app.mode == "mend" and app.editor.record.moves[2].text == "G:a2-a1x"
        await pilot.press(str(number))
        assert app.mode == "move"
        assert app.editor.record.moves[2].text == meant and app.editor.check().ok
        assert "the record is valid" in await on_screen(pilot, "#status")

    drive(app, scenario)
