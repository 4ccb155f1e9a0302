"""The record editor (notation.editing.editor): playing, candidates, mending, undo, annotations."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import notation
from notation.collections.generate import generate_records
from notation.editing.editor import Candidate, EditError, RecordEditor
from notation.writer import write_record

GAMES = ["cave", "tinkertown", "zombie-kidz"]


def enter(game: str, record: notation.Record) -> RecordEditor:
    """A record's moves entered one by one through the editor's text path."""
    tags = [(tag.name, tag.value) for tag in record.tags if tag.name != "Result"]
    editor = RecordEditor.new(game, tags, defaults=False)
    for node in record.moves:
        if editor.needs_roll:
            editor.set_roll(node.text[0])
        editor.play(node.written)
    return editor


@pytest.mark.parametrize("game", GAMES)
def test_generated_games_entered_move_by_move_are_the_same_records(game: str) -> None:
    count = 0
    for record, _ in generate_records(game, 300, 2026):
        editor = enter(game, record)
        assert editor.record == record
        assert editor.text() == write_record(record)
        count += 1
    assert count == 300


def test_a_new_record_has_its_default_tags() -> None:
    editor = RecordEditor.new(
        "zombie-kidz", players=["Ann", "Bo", "Cy"], date=datetime.date(2026, 12, 2)
    )
    assert [(t.name, t.value) for t in editor.record.tags] == [
        ("Game", "zombie-kidz"), ("Date", "2026.12.02"), ("Player1", "Ann"),
        ("Player2", "Bo"), ("Player3", "Cy"), ("Players", "3"), ("Result", "*"),
    ]
    assert editor.cursor.position.round_size == 3
    mine = RecordEditor.new("cave", [("Date", "1999.01.01"), ("Event", "club")])
    assert [(t.name, t.value) for t in mine.record.tags] == [
        ("Game", "cave"), ("Date", "1999.01.01"), ("Event", "club"), ("Result", "*"),
    ]


@pytest.mark.parametrize(
    "tags", [{"Round": 3}, [("Round",)], ["Round"], "Round 3", 3, [("Event", "x"), None]]
)
def test_a_new_record_refuses_tags_as_a_record_from_moves_does(tags: object) -> None:
    # One check of the tags (notation.replay.require_tag_pairs) for both ways to make one.
    with pytest.raises(notation.MisuseError) as from_moves:
        notation.Record.from_moves("cave", [], tags=tags)  # type: ignore[arg-type]
    with pytest.raises(notation.MisuseError) as new:
        RecordEditor.new("cave", tags)  # type: ignore[arg-type]
    assert str(new.value) == str(from_moves.value)
    assert str(new.value).startswith(("a tag is ", "tags is "))


def test_candidates_match_a_prefix_in_any_case_and_say_what_they_do() -> None:
    editor = RecordEditor.new("tinkertown", defaults=False)
    every = editor.candidates()
    assert {c.text for c in every} == {str(m) for m in editor.cursor.position.legal_moves()}
    d = editor.candidates("D")
    assert d and all(c.text.startswith("d") for c in d)
    assert d[0].description == f"White placed a zombie on {d[0].text}"
    exact = editor.candidates("d3")
    assert exact[0].text == "d3"


def test_a_cave_attack_asks_which_classes_fought() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    for text in ["b1", "a5", "b1-b2", "a5-a4", "b2-b3"]:
        editor.play(text)
    offered = [c.text for c in editor.candidates("a4xb3")]
    assert offered == [f"{a}a4x{d}b3" for a in "KZS" for d in "KZS"]
    assert [c.text for c in editor.candidates("za4x")] == ["Za4xKb3", "Za4xZb3", "Za4xSb3"]
    with pytest.raises(EditError) as caught:
        editor.play("a4xb3")
    assert caught.value.choices == offered
    assert "did you mean" in str(caught.value)
    node = editor.play("Za4xSb3")
    assert node.text == "Za4xSb3" and editor.check().ok


def test_zombie_kidz_asks_for_the_die_before_the_turn() -> None:
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    assert editor.needs_roll
    assert editor.roll_faces() == ["R", "Y", "G", "K", "B", "W"]
    editor.set_roll("g")
    assert editor.roll == "G" and not editor.needs_roll
    offered = editor.candidates()
    assert offered and all(c.text.startswith("G") for c in offered)
    with pytest.raises(EditError) as caught:
        editor.play("R")
    assert caught.value.code == "editor-roll"
    editor.play(offered[0].text)
    assert editor.roll is None and editor.needs_roll
    with pytest.raises(EditError):
        editor.set_roll("Q")


def test_once_the_die_is_given_the_move_after_its_face_is_enough() -> None:
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    editor.set_roll("G")
    assert [c.text for c in editor.candidates("b2-c")] == ["G:b2-c2x"]
    assert [c.text for c in editor.candidates("b2")] == [
        c.text for c in editor.candidates("G:b2")
    ]
    editor.play("b2-c2x")
    assert [node.text for node in editor.record.moves] == ["G:b2-c2x"]
    editor.set_roll("K")
    offered = editor.candidates("b2")
    assert offered and all(c.text.startswith("K:b2") for c in offered)  # K's moves now
    with pytest.raises(EditError):
        editor.play("zz")


@pytest.mark.parametrize("spelling", ["b2-a2x", "b2-a2", "a2", "A2", "B:a2", "b:b2-a2"])
def test_once_the_die_is_given_the_rest_of_the_turn_is_taken_in_any_spelling(
    spelling: str,
) -> None:
    """Marks are optional in the notation, and the step may be written by its end zone
    alone: so it is after the face given (set_roll, then play)."""
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    editor.set_roll("B")
    assert [c.text for c in editor.candidates(spelling)] == ["B:b2-a2x"]
    editor.play(spelling)
    assert [node.text for node in editor.record.moves] == ["B:b2-a2x"]


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        # what follows the face: its own fault, not a missing face the roll gives
        ("b2-x9", "x9 is not a zone"),
        ("x9", "x9 is not a zone"),
        # a whole turn, face and all: the fault of what was written
        ("K:b2-x9", "x9 is not a zone"),
        ("Q:b2", "Q is not a die letter"),
    ],
)
def test_once_the_die_is_given_a_refusal_names_what_is_wrong_after_the_face(
    written: str, reason: str
) -> None:
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    editor.set_roll("B")
    with pytest.raises(EditError) as refused:
        editor.play(written)
    assert reason in str(refused.value)
    assert "not a die letter" not in str(refused.value) or written.startswith("Q")


def test_the_roll_given_is_undone_and_redone_and_a_turn_says_its_face() -> None:
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    seen: list[int] = []
    editor.listeners.append(lambda _: seen.append(editor.version))
    editor.set_roll("B")
    editor.set_roll("k")
    assert editor.roll == "K" and editor.next_undo == "the roll K"
    assert not editor.dirty and editor.state is None and not seen  # no record changed
    assert editor.undo() and editor.roll == "B" and editor.next_redo == "the roll K"
    assert editor.undo() and editor.roll is None and editor.next_undo is None
    assert editor.redo() and editor.roll == "B"
    assert editor.face_of("K:b2-b1") == "K" and editor.face_of("b2-a2") is None
    assert editor.face_of("Q:b2-b1") is None and editor.face_of("K:b2-z9") is None
    editor.play("b2-a2")
    # The turn and its roll are one edit: undone, the turn goes, the roll with it.
    assert editor.next_undo == "the move B:b2-a2x" and editor.dirty and seen
    assert editor.undo() and not editor.record.moves and editor.roll is None
    assert not editor.can_undo
    editor.set_comment("a start")
    assert editor.next_undo == "the comment on the record"


def test_the_next_move_mended_after_the_roll_takes_the_rest_of_the_turn() -> None:
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    editor.play("B:b2-a2")
    editor.play("K:b2-c2")
    editor.back()
    editor.set_roll("G")
    with pytest.raises(EditError):
        editor.mend(editor.cursor.line[1], "zz")
    assert editor.roll == "G" and editor.cursor.address == (1,)  # refused: the die still given
    result = editor.mend(editor.cursor.line[1], "b3")
    assert [node.text for node in editor.record.moves] == ["B:b2-a2x", "G:b2-b3"]
    assert result.kept == 0 and editor.roll is None and editor.needs_roll


def test_playing_the_next_move_goes_there_and_another_makes_a_variation() -> None:
    record = notation.read_string('[Game "cave"]\n\n1. b1 b5 2. b1-b2 *\n')[0]
    editor = RecordEditor(record)
    editor.to_start()
    editor.play("b1")
    assert editor.cursor.address == (1,) and len(record.moves) == 3
    node = editor.play("c5")
    where: tuple[int, ...] = editor.cursor.address
    assert editor.cursor.depth == 1 and where == (1, 1, 1)
    assert record.moves[1].variations[0].nodes == [node]
    editor.back()
    editor.back()
    assert editor.cursor.address == (1,)
    editor.play("c5")  # the variation's first move: entered, not added again
    assert len(record.moves[1].variations) == 1 and editor.cursor.depth == 1


def test_replace_and_main() -> None:
    text = '[Game "cave"]\n\n1. b1 b5 2. b1-b2 *\n'
    editor = RecordEditor(notation.read_string(text)[0])
    editor.goto((1,))
    editor.play("a5", how="main")
    assert [n.text for n in editor.record.moves] == ["b1", "a5"]
    assert [n.text for n in editor.record.moves[1].variations[0].nodes] == ["b5", "b1-b2"]
    editor.undo()
    editor.goto((1,))
    editor.play("a5", how="replace")
    assert [n.text for n in editor.record.moves] == ["b1", "a5"]
    assert not editor.record.moves[1].variations


def test_promote_a_variation() -> None:
    text = '[Game "cave"]\n\n1. b1 b5 (1... c5 2. b1-b2) 2. c1 *\n'
    editor = RecordEditor(notation.read_string(text)[0])
    editor.goto((1, 1, 2))
    assert editor.promote()
    assert [n.text for n in editor.record.moves] == ["b1", "c5", "b1-b2"]
    assert [n.text for n in editor.record.moves[1].variations[0].nodes] == ["b5", "c1"]
    assert editor.cursor.depth == 0 and editor.cursor.address == (3,)
    assert editor.check().ok


def test_every_edit_undoes_and_redoes() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    edits: list[Callable[[], object]] = [
        lambda: editor.play("b1"),
        lambda: editor.play("b5!"),
        lambda: editor.toggle_glyph("?"),
        lambda: editor.toggle_glyph(10),
        lambda: editor.set_comment("a plan"),
        lambda: editor.set_comment("first", before=True),
        lambda: editor.set_clock("0:01:30"),
        lambda: editor.set_tag("Event", "club night"),
        lambda: editor.set_tag("Event", "club"),
        lambda: editor.remove_tag("Event"),
        lambda: editor.set_result("1-0"),
        lambda: editor.back(),
        lambda: editor.play("c5"),
        lambda: editor.promote(),
        lambda: editor.delete_rest(),
    ]
    texts = [editor.text()]
    for edit in edits:
        before = editor.version
        edit()
        if editor.version != before:  # back() moves the cursor, it edits nothing
            texts.append(editor.text())
    for expected in reversed(texts[:-1]):
        assert editor.undo()
        assert editor.text() == expected
    assert not editor.undo()
    for expected in texts[1:]:
        assert editor.redo()
        assert editor.text() == expected
    assert not editor.redo()


def test_a_new_edit_after_undo_drops_the_redo() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    editor.play("b1")
    editor.undo()
    editor.play("c1")
    assert not editor.can_redo and editor.record.moves[0].text == "c1"


def test_mend_keeps_the_later_moves_that_stay_legal() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    for text in ["b1", "b5", "c1", "c5", "b1-b2"]:
        editor.play(text)
    first = editor.record.moves[0]
    result = editor.mend(first, "a1")  # b1-b2 now moves a piece that is not there
    assert result.kept == 3 and result.stopped is editor.record.moves[4]
    assert result.defect is not None and result.defect.turn == 5
    assert [n.text for n in editor.record.moves] == ["a1", "b5", "c1", "c5", "b1-b2"]
    assert editor.cursor.address == (4,) and editor.cursor.defect == result.defect
    fixed = editor.mend(editor.record.moves[4], "a1-a2")
    assert fixed.kept == 0 and fixed.stopped is None and editor.check().ok
    editor.undo()
    editor.undo()
    assert [n.text for n in editor.record.moves] == ["b1", "b5", "c1", "c5", "b1-b2"]


def test_a_mend_the_rules_refuse_changes_nothing() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    for text in ["b1", "b5"]:
        editor.play(text)
    with pytest.raises(EditError):
        editor.mend(editor.record.moves[1], "b1")
    assert [n.text for n in editor.record.moves] == ["b1", "b5"] and editor.cursor.address == (2,)


def test_a_broken_record_opens_at_its_first_defect() -> None:
    record = notation.read_string('[Game "cave"]\n\n1. b1 b5 2. b1 c5 *\n')[0]
    editor = RecordEditor(record)
    assert editor.cursor.address == (2,)
    assert editor.cursor.defect is not None and editor.cursor.defect.turn == 3
    assert editor.cursor.next_node is record.moves[2]
    editor.mend(record.moves[2], "c1")
    assert editor.cursor.defect is None and editor.check().ok


def test_comments_glyphs_and_clock_are_written() -> None:
    ticks = iter([5.0, 65.0, 3725.0])
    editor = RecordEditor.new("cave", defaults=False, clock=lambda: next(ticks))
    editor.play("b1")
    editor.set_comment("solid")
    editor.toggle_glyph("!")
    editor.play("b5")
    editor.toggle_glyph("$13")
    editor.play("c1")
    editor.set_clock("2:03")
    assert editor.clock_of() == "0:02:03"
    assert editor.comment() == ""
    text = editor.text()
    assert " ".join(text.split()).endswith(
        "1. b1! {solid} {[%clk 0:00:05]} 1... b5 $13 {[%clk 0:01:05]} 2. c1 {[%clk 0:02:03]} *"
    )
    assert notation.check_record(notation.read_string(text)[0]).ok


def test_the_result_follows_the_rules_until_one_is_set() -> None:
    record, _ = next(generate_records("tinkertown", 1, 5))
    editor = enter("tinkertown", record)
    outcome = editor.cursor.position.outcome()
    assert outcome is not None and editor.record.result == outcome
    assert editor.record.tag("Result") == outcome
    editor.back()
    editor.delete_rest()
    assert editor.record.result == "*" and editor.record.tag("Result") == "*"
    with pytest.raises(EditError):
        RecordEditor.new("tinkertown", defaults=False).set_result("1/2-1/2")
    editor.set_result("1-0")  # a resignation
    assert editor.record.result == "1-0" and editor.check().ok


def test_a_setup_tag_the_game_refuses_is_not_set() -> None:
    editor = RecordEditor.new("zombie-kidz", players=["A", "B"])
    with pytest.raises(EditError):
        editor.set_tag("Players", "9")
    assert editor.record.tag("Players") == "2"
    editor.set_tag("Players", "3")
    assert editor.cursor.position.round_size == 3
    editor.undo()
    assert editor.cursor.position.round_size == 2


def test_listeners_hear_every_edit() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    heard: list[int] = []
    editor.listeners.append(lambda e: heard.append(e.version))
    editor.play("b1")
    editor.undo()
    editor.redo()
    assert heard == [1, 2, 3]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), turns=st.integers(0, 40))
def test_every_candidate_is_accepted_and_nothing_else_is_offered(
    game: str, seed: int, turns: int
) -> None:
    """Legal moves generated = moves accepted, at a random point of a random game."""
    rng = random.Random(seed)
    editor = RecordEditor.new(game, defaults=False)
    for _ in range(turns):
        if editor.cursor.position.outcome() is not None:
            break
        if editor.needs_roll:
            editor.set_roll(rng.choice(editor.roll_faces()))
        offered: list[Candidate] = editor.candidates()
        assert {c.text for c in offered} == {str(m) for m in editor.legal_moves()}
        choice = rng.choice(offered)
        assert editor.resolve(choice.text) == choice.move
        editor.play(choice.text)
    assert editor.check().ok


def test_text_a_record_cannot_hold_is_refused() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    editor.play("b1")
    with pytest.raises(EditError, match="comment"):
        editor.set_comment("a } inside")
    with pytest.raises(EditError, match="line break"):
        editor.set_tag("Event", "two\nlines")
    assert editor.comment() == "" and editor.record.tag("Event") is None
    assert not editor.can_redo and editor.text().endswith("1. b1 *\n")


def test_playing_the_next_move_with_a_glyph_marks_it() -> None:
    editor = RecordEditor(notation.read_string('[Game "cave"]\n\n1. b1 b5 *\n')[0])
    editor.to_start()
    node = editor.play("b1!?")
    assert node is editor.record.moves[0] and node.suffix == "!?"
    assert len(editor.record.moves) == 2 and not node.variations


def test_a_glyph_toggles_on_and_off_and_undoes() -> None:
    editor = RecordEditor.new("cave", defaults=False)
    node = editor.play("b1")
    marks: list[tuple[str, list[int]]] = []
    for glyph in ("!", "$13", "?", 1, 2, "$2", 13, 200, "!?"):
        editor.toggle_glyph(glyph)
        marks.append((node.suffix, list(node.nags)))
    assert marks == [
        ("!", []),  # a move glyph is the move's suffix
        ("!", [13]),  # any other glyph one of its nags, the suffix kept
        ("?", [13]),  # one move glyph at a time
        ("!", [13]), ("?", [13]),  # $1 and $2 are ! and ?
        ("", [13]),  # the same again: off
        ("", []), ("", [200]), ("!?", [200]),
    ]
    for suffix, nags in reversed(marks[:-1]):
        assert editor.undo()
        assert (node.suffix, node.nags) == (suffix, nags)
    assert editor.undo() and (node.suffix, node.nags) == ("", [])
    assert editor.redo() and (node.suffix, node.nags) == ("!", [])
    assert "1. b1!" in editor.text()
    with pytest.raises(notation.MisuseError):
        editor.toggle_glyph("!!!")
    with pytest.raises(notation.MisuseError):
        editor.toggle_glyph(256)
    assert (node.suffix, node.nags) == ("!", [])
    editor.back()
    with pytest.raises(EditError, match="there is no move here to mark"):
        editor.toggle_glyph("!")


#: Variations two deep, and a broken move at the end of the main line (turn 5).
TREE = """[Game "tinkertown"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7)) (1... c3,b6)
2. c5,f2 e2,g5 3. d3 *
"""


def test_the_editor_and_the_stepper_stand_at_the_same_addresses() -> None:
    # One cursor (notation.cursor) under both: the same numbers for the same place, the
    # ones the replay app's move tree gives each move.
    from notation.tui.navigate import nodes_in_order

    (record,) = notation.read_string(TREE)
    editor, stepper = RecordEditor(record), notation.Stepper(record)
    assert editor.cursor.address == (4,) and editor.cursor.defect is not None  # before 3. d3
    assert "turn 5 (d3)" in str(editor.cursor.defect)
    places = list(nodes_in_order(record))
    assert len(places) == 9
    for place in places[:-1]:
        assert editor.goto(place.address) and stepper.goto(place.address)
        assert editor.cursor.address == stepper.cursor.address == place.address
        assert editor.cursor.last_node is stepper.cursor.last_node is place.node
        assert editor.cursor.turn == stepper.cursor.turn == place.turn
        assert editor.cursor.depth == stepper.cursor.depth == place.depth
        assert editor.address_of(place.node) == place.address
        assert editor.cursor.line is stepper.cursor.line
    # Past the broken move: as far as the rules go, both saying why.
    assert not editor.goto(places[-1].address) and not stepper.goto(places[-1].address)
    assert editor.cursor.address == stepper.cursor.address == (4,)
    assert editor.cursor.defect == stepper.cursor.defect and editor.cursor.defect is not None
    # Into a variation: the editor's of the next move, the stepper's of the last.
    editor.goto((1,))
    stepper.goto((2,))
    assert editor.enter_variation(2) and stepper.enter_variation(2)
    assert editor.cursor.address == stepper.cursor.address == (1, 2, 1)
    assert stepper.where() == "variation 2 at turn 2"
    assert editor.leave_variation() and stepper.leave_variation()
    assert editor.cursor.address == stepper.cursor.address == (2,)
    assert editor.cursor.last_node is stepper.cursor.last_node is record.moves[1]


def test_an_address_not_in_the_record_moves_nothing() -> None:
    (record,) = notation.read_string(TREE)
    editor, stepper = RecordEditor(record), notation.Stepper(record)
    editor.goto((1, 1, 1, 1, 1))
    stepper.goto((1, 1, 1, 1, 1))
    for address in [(1, 3, 1), (0, 1, 1), (1, 1, 3), (1, 1, 1, 2, 1), (6,), (1, 1), (), (-1,)]:
        for mover in (editor, stepper):
            with pytest.raises(notation.MisuseError, match="address"):
                mover.goto(address)
            assert mover.cursor.address == (1, 1, 1, 1, 1), address
            assert mover.cursor.last_node is not None and mover.cursor.last_node.text == "g5,b7"
    with pytest.raises(notation.MisuseError, match="not a move of this record"):
        editor.goto_node(notation.read_string(TREE)[0].moves[0])


def test_the_cursor_keeps_its_place_through_edits_and_their_undo() -> None:
    (record,) = notation.read_string(TREE)
    editor = RecordEditor(record)
    editor.goto((1, 2, 1))
    node = editor.play("b7,c1")
    assert editor.cursor.address == (1, 2, 2) and editor.cursor.last_node is node
    editor.goto((1, 1, 1))
    editor.delete_rest()  # g5,b6 and its variation
    assert editor.cursor.address == (1, 1, 1)
    assert editor.back() and editor.cursor.address == (1, 1, 0)
    assert editor.back() and editor.cursor.address == (1,)  # out, before the move it replaces
    assert editor.cursor.next_node is record.moves[1]
    assert editor.enter_variation(1) and editor.back() and editor.cursor.address == (1, 1, 0)
    assert editor.delete_rest() == 1  # at its start: the variation, not only its moves
    assert editor.cursor.address == (1,) and len(record.moves[1].variations) == 1
    editor.enter_variation(1)
    editor.to_end()
    assert (
        editor.cursor.address == (1, 1, 2) and
        editor.cursor.last_node is node
    )  # once variation 2
    assert editor.promote() and editor.cursor.address == (3,) and editor.cursor.last_node is node
    # Each undo puts the cursor where the edit was made, each redo where it was undone.
    for address in [(1, 1, 2), (1, 1, 0), (1, 1, 1), (1, 2, 1)]:
        assert editor.undo() and editor.cursor.address == address
    for address in [(1, 1, 1), (1, 1, 0), (1, 1, 2), (3,)]:
        assert editor.redo() and editor.cursor.address == address
    assert editor.cursor.last_node is node and record.moves[2] is node


def test_delete_at_a_variations_first_move_removes_the_variation() -> None:
    """:delete with the cursor before a variation's first move: the variation goes (an
    empty one could not be written: later edits would never reach the journal)."""
    editor = RecordEditor(notation.read_string('[Game "cave"]\n\n1. b1 b5 2. c1 *\n')[0])
    editor.goto((2,))
    editor.play("d1")
    editor.play("c5")
    assert editor.cursor.address == (2, 1, 2)
    editor.back()
    editor.back()
    assert editor.cursor.address == (2, 1, 0)
    assert editor.delete_rest() == 2
    assert editor.cursor.address == (2,) and not editor.record.moves[2].variations
    assert editor.text().endswith("1. b1 b5 2. c1 *\n")
    assert editor.undo() and editor.cursor.address == (2, 1, 0)
    assert editor.text().endswith("1. b1 b5 2. c1 (2. d1 c5) *\n")


def test_a_refused_move_names_the_turn_that_last_changed_its_square() -> None:
    """As ``notation check`` does (notation.lastchange): where the rules' reason depends
    on what stands on a square, the turn that last changed it."""
    editor = RecordEditor.new("tinkertown", defaults=False)
    for move in ["d3", "e3,h6", "g6,e8"]:
        editor.play(move)
    with pytest.raises(EditError) as refused:
        editor.play("d3,c3")
    assert "d3 is occupied; d3 was last changed at turn 1: 1. d3" in str(refused.value)
    assert refused.value.code == "tinkertown-occupied"


def test_a_move_entry_is_what_the_editor_asks_and_refuses_a_wrong_argument() -> None:
    from notation.editing.move_entry import MoveEntry
    from notation.games import get_game

    editor = RecordEditor.new("cave", defaults=False)
    entry = editor.entry()
    assert isinstance(entry, MoveEntry)
    assert [c.text for c in entry.candidates("b")] == [c.text for c in editor.candidates("b")]
    cave = get_game("cave")
    for wrong in [(None, cave.new_position()), (cave, None), (cave, cave.new_position(), 3)]:
        with pytest.raises(notation.MisuseError):
            MoveEntry(*wrong)  # type: ignore[arg-type]
