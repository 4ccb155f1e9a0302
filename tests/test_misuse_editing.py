"""Calling the editing library wrongly: :class:`~notation.editing.editor.RecordEditor`,
:class:`~notation.editing.recordfile.RecordFile` and
:class:`~notation.editing.buffer.RecordDocument` refuse every wrong type or value with
:class:`notation.errors.MisuseError` (issue 37, item 22), never ``TypeError``,
``AttributeError``, ``OverflowError``, ``IndexError``, ``KeyError``,
``UnicodeEncodeError`` or a bare ``ValueError``, and change nothing.

Each public entry point is tried with the values a program passes by mistake: None, a
str for a number, a number for a str, a bool for a number and a number for a flag,
infinity and NaN, negative and huge numbers, a lone surrogate (no file can hold it), a
NUL (no path can hold it), bytes, and tuples of the wrong shape.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.editing.buffer import (
    RecordDocument,
    check_text,
    check_text_strict,
    chunk_starts,
    split_lines,
)
from notation.editing.editor import EditError, RecordEditor
from notation.editing.recordfile import RecordFile, journal_path
from notation.errors import MisuseError
from notation.games import UnknownGameError
from notation.reader import SureStarts, read_string

INF, NAN = float("inf"), float("nan")
SURROGATE = "x\ud800"

#: Wrong where text goes (a comment, a tag, a name, a move's text).
NOT_TEXT: list[object] = [None, 3, 1.5, b"text", ("a", "b"), ["a"]]
#: Wrong where text goes that a file will hold: the above, and a lone surrogate.
NOT_SAVED_TEXT: list[object] = [*NOT_TEXT, SURROGATE]
#: Wrong where a whole number goes.
NOT_NUMBERS: list[object] = [None, "3", True, 1.5, INF, NAN, b"3", (3,)]
#: Wrong where True or False goes.
NOT_FLAGS: list[object] = [None, 1, 0, "yes", "", 1.5]
#: Wrong where a path goes: not a path at all, or one no file can have.
NOT_PATHS: list[object] = [None, 3, 1.5, b"games.txt", ["games.txt"], "a\x00b", "\ud800"]
#: Wrong where a function or None goes.
NOT_CALLABLE: list[object] = [3, "clock", 1.5, INF]
#: Wrong where a number of seconds goes.
NOT_SECONDS: list[object] = [INF, -INF, NAN, -1, 10**30, 1000 * 3600, True, b"1:00", ["1:00"]]
#: Wrong where a sequence of names goes.
NOT_NAMES: list[object] = [None, "Mina", 3, [3], ["Mina", None], [SURROGATE], [b"Mina"]]
#: Wrong where tags go.
NOT_TAGS: list[object] = [None, "Event", 3, [("Event",)], {"Event": 3}, {"Event": SURROGATE}]
#: Wrong where a date or None goes.
NOT_DATES: list[object] = ["2026.12.02", "2026-12-02", 20261202, 1.5, (2026, 12, 2)]
#: Wrong where an address of the record goes.
NOT_ADDRESSES: list[object] = [None, 3, INF, "1", b"\x01", (), (1, 2), (-1,), (1.0,), ("1",),
                               (True,), (10**30,), (0, 1, 0)]
#: Wrong where a (line, character) position goes.
NOT_POSITIONS: list[object] = [None, 3, "0,0", b"xy", (0,), (0, 0, 0), ("0", "0"), (0, 1.5),
                               (True, 0), {}, []]

RECORD = '[Game "cave"]\n\n1. b1 c5 2. b1-b2 *\n'


def editor() -> RecordEditor:
    """An editor with moves played (so that a glyph, a clock, a comment have a move)."""
    made = RecordEditor.new("cave", defaults=False)
    for move in ("b1", "c5"):
        made.play(move)
    return made


def zombie_kidz() -> RecordEditor:
    return RecordEditor.new("zombie-kidz", players=["Ann", "Bob"])


def document() -> RecordDocument:
    return RecordDocument(RECORD)


def record_file(tmp_path: Path) -> RecordFile:
    path = tmp_path / "games.txt"
    path.write_text(RECORD, encoding="utf-8")
    return RecordFile.open(path, 1)


def records_path(tmp_path: Path) -> Path:
    """A file of records no session holds."""
    path = tmp_path / "games.txt"
    path.write_text(RECORD, encoding="utf-8")
    return path


def _new_file(tmp_path: Path, **arguments: Any) -> RecordFile:
    return RecordFile.open(tmp_path / "new.txt", **{"game": "cave", **arguments})


#: Each entry point, the wrong value put in one of its arguments (the others right), and
#: the wrong values tried there.  A call takes the test's folder and the wrong value.
CALLS: dict[str, tuple[Callable[[Path, Any], object], list[object]]] = {
    # RecordEditor: making one
    "RecordEditor(record)": (lambda _, x: RecordEditor(x), [*NOT_TEXT, RECORD]),
    "RecordEditor(default_game)": (
        lambda _, x: RecordEditor(read_string("1. b1 *\n")[0], default_game=x), NOT_TEXT[1:]
    ),
    "RecordEditor(clock)": (
        lambda _, x: RecordEditor(read_string(RECORD)[0], clock=x), NOT_CALLABLE
    ),
    "RecordEditor.new(game)": (lambda _, x: RecordEditor.new(x), [None, 3, b"cave", ["cave"]]),
    "RecordEditor.new(tags)": (lambda _, x: RecordEditor.new("cave", x), NOT_TAGS),
    "RecordEditor.new(players)": (
        lambda _, x: RecordEditor.new("cave", players=x), [*NOT_NAMES, ["Mina"], ["a", "b", "c"]]
    ),
    "RecordEditor.new(date)": (lambda _, x: RecordEditor.new("cave", date=x), NOT_DATES),
    "RecordEditor.new(defaults)": (lambda _, x: RecordEditor.new("cave", defaults=x), NOT_FLAGS),
    "RecordEditor.new(clock)": (lambda _, x: RecordEditor.new("cave", clock=x), NOT_CALLABLE),
    # RecordEditor: moving the cursor
    "RecordEditor.goto(address)": (lambda _, x: editor().goto(x), NOT_ADDRESSES),
    "RecordEditor.goto_node(node)": (lambda _, x: editor().goto_node(x), NOT_TEXT),
    "RecordEditor.address_of(node)": (lambda _, x: editor().address_of(x), NOT_TEXT),
    "RecordEditor.enter_variation(number)": (
        lambda _, x: editor().enter_variation(x), NOT_NUMBERS
    ),
    # RecordEditor: what can be played
    "RecordEditor.set_roll(face)": (lambda _, x: zombie_kidz().set_roll(x), NOT_TEXT[1:]),
    "RecordEditor.face_of(text)": (lambda _, x: zombie_kidz().face_of(x), NOT_TEXT),
    "RecordEditor.candidates(prefix)": (lambda _, x: editor().candidates(x), NOT_TEXT),
    "RecordEditor.resolve(text)": (lambda _, x: editor().resolve(x), NOT_TEXT),
    # RecordEditor: edits
    "RecordEditor.play(move)": (lambda _, x: editor().play(x), NOT_TEXT),
    "RecordEditor.play(how)": (lambda _, x: editor().play("b1-b2", how=x), [None, "Main", 1]),
    "RecordEditor.mend(node)": (lambda _, x: editor().mend(x, "a1"), NOT_TEXT),
    "RecordEditor.mend(move)": (
        lambda _, x: (lambda made: made.mend(made.record.moves[0], x))(editor()), NOT_TEXT
    ),
    "RecordEditor.set_comment(text)": (lambda _, x: editor().set_comment(x), NOT_SAVED_TEXT),
    "RecordEditor.set_comment(before)": (
        lambda _, x: editor().set_comment("a slip", before=x), NOT_FLAGS
    ),
    "RecordEditor.comment(before)": (lambda _, x: editor().comment(before=x), NOT_FLAGS),
    "RecordEditor.toggle_glyph(glyph)": (
        lambda _, x: editor().toggle_glyph(x),
        [None, True, 1.5, -1, 256, 10**30, "$²", "$٣", "$", "$-1", "!!!", b"!", ("!",)],
    ),
    "RecordEditor.set_clock(value)": (lambda _, x: editor().set_clock(x), NOT_SECONDS),
    "RecordEditor.clock_of(node)": (lambda _, x: editor().clock_of(x), NOT_TEXT[1:]),
    "RecordEditor.set_tag(name)": (lambda _, x: editor().set_tag(x, "club night"), NOT_SAVED_TEXT),
    "RecordEditor.set_tag(value)": (lambda _, x: editor().set_tag("Event", x), NOT_SAVED_TEXT),
    "RecordEditor.remove_tag(name)": (lambda _, x: editor().remove_tag(x), NOT_TEXT),
    "RecordEditor.set_result(result)": (lambda _, x: editor().set_result(x), NOT_TEXT),
    # RecordFile
    "RecordFile.open(path)": (lambda _, x: RecordFile.open(x, game="cave"), NOT_PATHS),
    "RecordFile.open(record)": (
        lambda tmp, x: RecordFile.open(records_path(tmp), x), [*NOT_NUMBERS, 0, -1]
    ),
    "RecordFile.open(game)": (lambda tmp, x: _new_file(tmp, game=x), [3, b"cave", ["cave"]]),
    "RecordFile.open(tags)": (lambda tmp, x: _new_file(tmp, tags=x), NOT_TAGS),
    "RecordFile.open(players)": (lambda tmp, x: _new_file(tmp, players=x), NOT_NAMES),
    "RecordFile.open(date)": (lambda tmp, x: _new_file(tmp, date=x), NOT_DATES),
    "RecordFile.open(defaults)": (lambda tmp, x: _new_file(tmp, defaults=x), NOT_FLAGS),
    "RecordFile.open(clock)": (lambda tmp, x: _new_file(tmp, clock=x), NOT_CALLABLE),
    "RecordFile.save(force)": (lambda tmp, x: record_file(tmp).save(force=x), NOT_FLAGS),
    "RecordFile.save_as(path)": (lambda tmp, x: record_file(tmp).save_as(x), NOT_PATHS),
    "journal_path(path)": (lambda _, x: journal_path(x), NOT_PATHS),
    # RecordDocument
    "RecordDocument(text)": (lambda _, x: RecordDocument(x), NOT_TEXT),
    "RecordDocument(default_game)": (
        lambda _, x: RecordDocument(RECORD, default_game=x), NOT_TEXT[1:]
    ),
    "RecordDocument.default_game": (
        lambda _, x: setattr(document(), "default_game", x), NOT_TEXT[1:]
    ),
    "RecordDocument.set_text(text)": (lambda _, x: document().set_text(x), NOT_TEXT),
    "RecordDocument.edit(start)": (lambda _, x: document().edit(x, (0, 0), ""), NOT_POSITIONS),
    "RecordDocument.edit(end)": (lambda _, x: document().edit((0, 0), x, ""), NOT_POSITIONS),
    "RecordDocument.edit(text)": (lambda _, x: document().edit((0, 0), (0, 0), x), NOT_TEXT),
    "RecordDocument.chunk_at(line)": (lambda _, x: document().chunk_at(x), NOT_NUMBERS),
    "RecordDocument.record_at(line)": (lambda _, x: document().record_at(x), NOT_NUMBERS),
    "RecordDocument.needs_check(chunk)": (lambda _, x: document().needs_check(x), NOT_TEXT),
    "RecordDocument.needs_strict(chunk)": (lambda _, x: document().needs_strict(x), NOT_TEXT),
    "RecordDocument.check_chunk(chunk)": (lambda _, x: document().check_chunk(x), NOT_TEXT),
    "RecordDocument.check_strict(chunk)": (lambda _, x: document().check_strict(x), NOT_TEXT),
    "RecordDocument.trees(chunk)": (lambda _, x: document().trees(x), NOT_TEXT),
    "RecordDocument.check_all(strict)": (lambda _, x: document().check_all(strict=x), NOT_FLAGS),
    "split_lines(text)": (lambda _, x: split_lines(x), NOT_TEXT),
    "chunk_starts(lines)": (lambda _, x: chunk_starts(x), [None, 3, RECORD, [3], [None]]),
    "SureStarts.feed(line)": (lambda _, x: SureStarts(from_start=True).feed(x), NOT_TEXT),
    "check_text(lines)": (lambda _, x: check_text(x, 1, None), [None, 3, RECORD, [3]]),
    "check_text(first_line)": (lambda _, x: check_text([RECORD], x, None), NOT_NUMBERS),
    "check_text(default_game)": (lambda _, x: check_text([RECORD], 1, x), NOT_TEXT[1:]),
    "check_text_strict(first_line)": (
        lambda _, x: check_text_strict([RECORD], x, None), NOT_NUMBERS
    ),
}


def shown(wrong: object) -> str:
    """A test id for ``wrong``: its ASCII repr (a surrogate cannot name a test)."""
    return ascii(wrong)


CASES = [(name, wrong) for name, (_, values) in CALLS.items() for wrong in values]


@pytest.mark.parametrize(
    ("call", "wrong"), CASES, ids=[f"{name}-{shown(wrong)}" for name, wrong in CASES]
)
def test_a_wrong_argument_is_misuse_and_says_which(
    call: str, wrong: object, tmp_path: Path
) -> None:
    with pytest.raises(MisuseError) as caught:
        CALLS[call][0](tmp_path, wrong)
    message = str(caught.value)
    # The message names the argument (or one of its items: "a tag", "a player's name"),
    # or the value given.
    argument = call.rsplit("(", 1)[-1].rstrip(")").split(".")[-1].rstrip("s")
    named = (argument, type(wrong).__name__, repr(wrong))
    assert any(name in message for name in named), message
    assert message.isprintable(), message  # a surrogate or a NUL shown escaped


def test_every_entry_point_of_the_three_classes_is_tried() -> None:
    public = {
        f"{kind.__name__}.{name}"
        for kind in (RecordEditor, RecordFile, RecordDocument)
        for name, member in vars(kind).items()
        if not name.startswith("_") and callable(getattr(member, "__func__", member))
    }
    # What takes no argument cannot be called wrongly (undo, text, check, forward...).
    without_arguments = {
        f"RecordEditor.{name}" for name in (
            "variations_here", "forward", "back", "to_start", "to_end", "leave_variation",
            "roll_faces", "entry", "legal_moves", "delete_rest", "promote", "undo", "redo", "text",
            "check",
        )
    } | {f"RecordFile.{name}" for name in ("changed_on_disk", "discard_journal", "close")} | {
        f"RecordDocument.{name}" for name in (
            "unchecked", "unchecked_strict", "findings", "records", "canonical",
        )
    }
    tried = {call.split("(")[0] for call in CALLS}
    assert public - without_arguments <= tried, public - without_arguments - tried


def test_a_refused_edit_changes_nothing() -> None:
    made = editor()
    before, version = made.text(), made.version
    for call in (
        lambda: made.set_clock(INF),
        lambda: made.toggle_glyph("$²"),
        lambda: made.set_comment(SURROGATE),
        lambda: made.set_tag("Event", SURROGATE),
        lambda: made.play(None),
        lambda: made.goto(None),
    ):
        with pytest.raises(MisuseError):
            call()
    assert made.text() == before and made.version == version and not made.can_redo


def test_a_clock_giving_no_time_is_misuse_and_the_move_not_played() -> None:
    made = RecordEditor.new("cave", defaults=False, clock=lambda: INF)
    with pytest.raises(MisuseError, match="the clock's value is seconds"):
        made.play("b1")
    assert made.record.moves == [] and not made.can_undo


def test_a_journal_cannot_be_broken_by_text_no_file_holds(tmp_path: Path) -> None:
    # A comment with a lone surrogate used to be applied, then the journal's write failed
    # with UnicodeEncodeError: the edit neither journaled nor undone.
    kept = record_file(tmp_path)
    kept.editor.goto((2,))
    with pytest.raises(MisuseError, match="no lone surrogate"):
        kept.editor.set_comment(SURROGATE)
    assert not kept.dirty and not Path(kept.journal).exists()


def test_valid_calls_still_work(tmp_path: Path) -> None:
    made = RecordEditor.new(
        "cave", {"Event": "club night"}, players=("Mina", "Igor"),
        date=datetime.date(2026, 12, 2), defaults=True, clock=lambda: 3723,
    )
    made.play("b1")
    made.toggle_glyph("$1")
    made.toggle_glyph(14)
    made.set_clock(61.5)
    assert made.clock_of() == "0:01:01"
    made.set_clock("1:02:03")
    made.set_comment("opening", before=True)
    assert made.comment(before=True) == "opening"
    assert made.goto([0]) and made.goto(iter([1]))
    assert made.record.moves[0].suffix == "!" and made.record.moves[0].nags == [14]
    doc = document()
    doc.edit([0, 0], [0, 0], "")
    assert doc.chunk_at(-5) is doc.chunk_at(0) and doc.chunk_at(10**30) is doc.chunks[-1]
    doc.check_all(strict=False)
    kept = record_file(tmp_path)
    kept.editor.play("c5-c4")
    assert kept.save(force=True) == 1


# -- any value at all: refused as misuse or as an edit the rules refuse, never a crash --

#: What a program may pass by mistake, of every type.
ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner),
    max_leaves=4,
)

#: The calls that any value is tried in (not those of a file: a value there could name
#: one); what they may raise besides MisuseError: a refusal of the rules, for text.
ANY_CALLS = {
    name: call
    for name, (call, _) in CALLS.items()
    if not name.startswith(("RecordFile", "journal_path"))
}


@settings(max_examples=30, deadline=None)
@given(value=ANY_VALUE)
@pytest.mark.parametrize("call", sorted(ANY_CALLS))
def test_any_value_is_refused_with_the_librarys_own_errors(call: str, value: object) -> None:
    with contextlib.suppress(MisuseError, EditError, UnknownGameError):
        ANY_CALLS[call](Path("unused"), value)  # these calls take no folder
