"""Building records from play, and the record tree as a value (issue 15).

``Record.from_moves``, ``MoveNode.add_variation`` / ``Record.add_variation``,
``Record.game`` / ``start_position`` / ``end_position``, structural ``==`` and the
one-line reprs.
"""

from __future__ import annotations

import copy
import io
import random
import subprocess
import sys

import pytest

import notation
from notation import (
    IllegalMoveError,
    MisuseError,
    MoveNode,
    MoveSyntaxError,
    Record,
    Tag,
    TagValueError,
    UnknownGameError,
    Variation,
    check_record,
    get_game,
    read_records,
    read_string,
    write_record,
)
from notation.record import Comment, split_suffix

#: A Tinkertown position (White to move) where c2-c1 captures Red's last group.
LAST_CAPTURE = "4/6/8/3##2W/3##3/8/1W4/rR3 w movement -,- 0"


def _cave(*moves: str, **tags: str) -> Record:
    return Record.from_moves("cave", moves, tags=tags)


# -- Record.from_moves ---------------------------------------------------------------


def test_from_moves_writes_the_canonical_text_and_checks() -> None:
    record = Record.from_moves(
        "cave", ["b1", "c5!", "B1-B2"], tags={"Red": "Mina", "Black": "Igor"}
    )
    assert [(t.name, t.value) for t in record.tags] == [
        ("Game", "cave"), ("Red", "Mina"), ("Black", "Igor"), ("Result", "*"),
    ]
    assert [n.written for n in record.moves] == ["b1", "c5!", "b1-b2"]
    assert record.result == "*"
    assert write_record(record).endswith("\n\n1. b1 c5! 2. b1-b2 *\n")
    assert check_record(record).ok


def test_from_moves_takes_typed_moves_and_a_game() -> None:
    game = get_game("tinkertown")
    # An unmarked capture is written with its mark; the rules end the game there.
    record = Record.from_moves(
        game, [game.parse("c2-c1")], tags=[("Position", LAST_CAPTURE), ("White", "Mina")]
    )
    assert [n.text for n in record.moves] == ["c2xc1"]
    assert record.result == "1-0" and record.tag("Result") == "1-0"
    assert record.tag("Game") == "tinkertown" and record.tag("Position") == LAST_CAPTURE
    verdict = check_record(record)
    assert verdict.ok and verdict.outcome == "1-0"


def test_from_moves_rebuilds_a_refereed_game() -> None:
    played = notation.play("zombie-kidz", [notation.random_bot] * 3, random.Random(5))
    again = Record.from_moves(
        "zombie-kidz",
        [node.text for node in played.moves],
        tags=[(tag.name, tag.value) for tag in played.tags],
    )
    assert again == played
    assert write_record(again) == write_record(played)


def test_from_moves_names_the_turn_of_a_move_that_cannot_be_played() -> None:
    with pytest.raises(IllegalMoveError, match=r"^turn 3 \(b1\): b1 holds Red's piece"):
        _cave("b1", "c5", "b1")
    with pytest.raises(MoveSyntaxError, match=r"^turn 2 \(zz9\): "):
        _cave("b1", "zz9")
    with pytest.raises(MisuseError, match=r"^turn 1 \(None\): "):
        Record.from_moves("cave", [None])
    # After the rules ended the game, every move is illegal.
    with pytest.raises(IllegalMoveError, match=r"^turn 2 \(h5-h4\): "):
        Record.from_moves("tinkertown", ["c2-c1", "h5-h4"], tags={"Position": LAST_CAPTURE})


def test_from_moves_keeps_the_result_consistent() -> None:
    assert _cave("b1").result == "*"
    resigned = Record.from_moves("cave", ["b1"], result="0-1")
    assert resigned.tag("Result") == "0-1" and check_record(resigned).ok
    from_tag = Record.from_moves("cave", ["b1"], tags={"Result": "1-0"})
    assert from_tag.result == "1-0" and [t.name for t in from_tag.tags] == ["Game", "Result"]
    with pytest.raises(MisuseError, match="contradicts the Result tag"):
        Record.from_moves("cave", ["b1"], tags={"Result": "1-0"}, result="0-1")
    with pytest.raises(MisuseError, match="not 'white'"):
        Record.from_moves("cave", [], result="white")
    with pytest.raises(MisuseError, match="has no result 1/2-1/2"):
        Record.from_moves("tinkertown", [], result="1/2-1/2")
    with pytest.raises(MisuseError, match="the rules ended the game at turn 1 with 1-0"):
        Record.from_moves("tinkertown", ["c2-c1"], tags={"Position": LAST_CAPTURE}, result="*")


def test_from_moves_game_and_tags() -> None:
    with pytest.raises(UnknownGameError):
        Record.from_moves("cavern", [])
    assert Record.from_moves("cave", [], tags={"Game": "Cave"}).tags == [
        Tag("Game", "cave"), Tag("Result", "*"),
    ]
    with pytest.raises(MisuseError, match="is not the game 'cave'"):
        Record.from_moves("cave", [], tags={"Game": "tinkertown"})
    with pytest.raises(TagValueError):
        Record.from_moves("zombie-kidz", [], tags={"Players": "9"})


# -- variations --------------------------------------------------------------------------


def test_node_add_variation_keeps_texts() -> None:
    record = _cave("b1", "c5", "b1-b2")
    game = record.game()
    variation = record.moves[1].add_variation(["d5!", game.parse("B1-B2")])
    assert isinstance(variation, Variation)
    assert record.moves[1].variations == [variation]
    assert [n.written for n in variation.nodes] == ["d5!", "b1-b2"]
    assert write_record(record).endswith("1. b1 c5 (1... d5! 2. b1-b2) 2. b1-b2 *\n")
    # A node knows no game: nothing is checked.
    record.moves[2].add_variation(["b1-b7"])
    assert not check_record(record).ok
    with pytest.raises(MisuseError, match="at least one move"):
        record.moves[0].add_variation([])


def test_a_nodes_comment_reads_and_sets_the_comments_after_it() -> None:
    (record,) = read_string("1. b1 {one\nline} {two} c5 (1... d5 {aside}) 2. b1-b2 *\n")
    first, second, _ = record.moves
    assert first.comment == "one\nline two"  # joined by a space, as python-chess does
    assert second.comment == "" and second.variations[0].nodes[0].comment == "aside"
    second.comment = "  Black's reply "
    assert second.comments_after == [Comment("Black's reply")]
    first.comment = ""
    assert first.comments_after == []
    assert write_record(record).endswith("1. b1 c5 {Black's reply} (1... d5 {aside}) 2. b1-b2 *\n")
    assert check_record(record, "cave").ok
    with pytest.raises(MisuseError, match="a comment is a str, not int"):
        first.comment = 3  # type: ignore[assignment]


def test_record_add_variation_checks_and_canonicalises() -> None:
    record = _cave("b1", "c5", "b1-b2")
    variation = record.add_variation(2, ["d5", "B1-A1"])
    assert [n.text for n in variation.nodes] == ["d5", "b1-a1"]
    inner = record.add_variation(variation.nodes[1], ["b1-c1"])
    assert record.moves[1].variations[0].nodes[1].variations == [inner]
    assert write_record(record).endswith(
        "1. b1 c5 (1... d5 2. b1-a1 (2. b1-c1)) 2. b1-b2 *\n"
    )
    assert check_record(record).ok
    with pytest.raises(IllegalMoveError, match=r"^turn 2 \(c4\): "):
        record.add_variation(2, ["c4"])
    with pytest.raises(MisuseError, match="turn 4 is no move of the main line"):
        record.add_variation(4, ["b1-a1"])
    with pytest.raises(MisuseError, match="not a move of this record"):
        record.add_variation(MoveNode("b1"), ["b2"])
    with pytest.raises(MisuseError, match="at least one move"):
        record.add_variation(1, [])


def test_record_add_variation_counts_turns_from_a_position_tag() -> None:
    start = _cave("b1", "c5").end_position().position_string()
    record = Record.from_moves("cave", ["b1-b2"], tags={"Position": start})
    record.add_variation(3, ["b1-a1"])
    assert write_record(record).endswith("2. b1-b2 (2. b1-a1) *\n")
    with pytest.raises(MisuseError, match=r"it has turns 3 to 3"):
        record.add_variation(1, ["b1"])


# -- game, start and end positions ---------------------------------------------------


def test_game_start_and_end_positions() -> None:
    (record,) = read_string('[Game "Cave"]\n\n1. b1 c5 (1... d5) 2. b1-b2 *\n')
    assert record.game() is get_game("cave")
    assert record.start_position().position_string() == get_game("cave").new_position(
    ).position_string()
    end = record.end_position()
    assert end.turn == 3
    assert end.position_string() == _cave("b1", "c5", "b1-b2").end_position().position_string()
    tagged = Record.from_moves("cave", [], tags={"Position": end.position_string()})
    assert tagged.start_position().position_string() == end.position_string()


def test_game_of_a_record_without_a_known_game() -> None:
    (bare,) = read_string("1. b1 c5 *\n")
    with pytest.raises(UnknownGameError, match="no Game tag"):
        bare.game()
    assert bare.game("cave").name == "cave"
    assert bare.end_position("cave").turn == 2
    (unknown,) = read_string('[Game "cavern"]\n\n*\n')
    with pytest.raises(UnknownGameError, match="did you mean 'cave'"):
        unknown.game()


def test_end_position_raises_the_checks_error() -> None:
    (record,) = read_string('[Game "cave"]\n\n1. b1 c5 2. b1 *\n', source="b.txt")
    with pytest.raises(IllegalMoveError) as info:
        record.end_position()
    assert str(info.value) == str(check_record(record).error)
    assert str(info.value).startswith("b.txt:3:13: record 1, turn 3 (b1): ")
    assert info.value.code == "cave-enter-occupied"  # the rule's own code
    (syntax,) = read_string('[Game "cave"]\n\n1. b1 zz9 *\n')
    with pytest.raises(MoveSyntaxError, match=r":3:7: record 1, turn 2 \(zz9\)"):
        syntax.end_position()
    built = Record(tags=[Tag("Game", "cave")], moves=[MoveNode("b1"), MoveNode("b1")])
    with pytest.raises(IllegalMoveError, match=r"^turn 2 \(b1\): "):
        built.end_position()


# -- structural equality -------------------------------------------------------------


def test_equality_ignores_where_and_how_a_record_was_written() -> None:
    built = _cave("b1", "c5", "b1-b2")
    built.moves[2].comments_after.append(Comment("a step"))
    built.add_variation(2, ["d5"])
    text = '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 (1... d5) 2. b1-b2 {a step} *\n'
    (read,) = read_records(io.StringIO(text), source="games.txt", keep_raw=True)
    assert read.raw and read.index == 1 and read.moves[0].number is not None
    assert read == built
    (spread,) = read_string(
        '\n\n[Game "cave"]\n[Result "*"]\n\n1.\nb1\n1... c5\n(d5)\nb1-b2 ; a step\n*\n'
    )
    assert spread == read
    assert copy.deepcopy(read) == read


@pytest.mark.parametrize(
    "other",
    [
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 (1... d5) 2. b1-b2 {a stride} *\n',
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 (1... d4) 2. b1-b2 {a step} *\n',
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 2. b1-b2 {a step} *\n',
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5! (1... d5) 2. b1-b2 {a step} *\n',
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 $1 (1... d5) 2. b1-b2 {a step} *\n',
        '[Game "cave"]\n[Result "0-1"]\n\n1. b1 c5 (1... d5) 2. b1-b2 {a step} 0-1\n',
        '[Game "cave"]\n[Red "Mina"]\n[Result "*"]\n\n1. b1 c5 (1... d5) 2. b1-b2 {a step} *\n',
    ],
)
def test_equality_sees_what_a_record_says(other: str) -> None:
    (base,) = read_string(
        '[Game "cave"]\n[Result "*"]\n\n1. b1 c5 (1... d5) 2. b1-b2 {a step} *\n'
    )
    (changed,) = read_string(other)
    assert changed != base


# -- reprs ---------------------------------------------------------------------------


def test_record_repr_is_one_line() -> None:
    text = (
        '[Game "cave"]\n[Red "Mina"]\n[Black "Igor"]\n[Result "*"]\n\n1. b1 c5 *\n\n'
        '[Game "cave"]\n[Red "Mina"]\n[Black "Igor"]\n\n1. b1 {never closed *\n'
    )
    first, broken = read_string(text, source="games.txt")
    assert repr(first) == "<Record 1 of games.txt: cave, Mina - Igor, *, 2 turns>"
    assert repr(broken).startswith("<Record 2 of games.txt: cave, Mina - Igor, no result, 1 turn")
    assert "syntax error at 12:" in repr(broken)
    assert repr(Record()) == "<Record: no game, no result, 0 turns>"
    (unknown,) = read_string('[Game "cavern"]\n[Red "Mina"]\n\n*\n')
    assert repr(unknown) == "<Record 1: cavern, *, 0 turns>"
    hostile = Record(tags=[Tag("Game", "x" * 10_000 + "\x1b[2J")])
    assert len(repr(hostile)) < 100 and "\x1b" not in repr(hostile)
    long = Record.from_moves("cave", ["b1", "c5"], tags={"Red": "a\nb"})
    assert "\n" not in repr(long)


def test_node_and_variation_reprs_are_short() -> None:
    (record,) = read_string('[Game "cave"]\n\n1. b1 c5! (1... d5 2. b1-b2) 12... b1-b2 *\n')
    assert repr(record.moves[0]) == "<MoveNode 1. b1>"
    assert repr(record.moves[1]) == "<MoveNode c5! (1 variation)>"
    assert repr(record.moves[2]) == "<MoveNode 12... b1-b2>"
    assert repr(record.moves[1].variations[0]) == "<Variation of 2 moves from d5>"
    assert repr(Variation()) == "<Variation of 0 moves>"


# -- the layering --------------------------------------------------------------------


def test_split_suffix() -> None:
    assert split_suffix("h5-h3!") == ("h5-h3", "!")
    assert split_suffix("h5-h3?!") == ("h5-h3", "?!")
    assert split_suffix("h5-h3!!!") == ("h5-h3!!!", "")
    assert split_suffix("!") == ("!", "")
    assert split_suffix("d3") == ("d3", "")


def test_the_record_module_imports_no_game() -> None:
    code = (
        "import sys, notation.record\n"
        "assert not [m for m in sys.modules if m.startswith('notation.games')], "
        "sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
