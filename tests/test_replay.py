"""Replay: turn counting, move numbers, variations, results, which error wins."""

from __future__ import annotations

import pytest

from notation.errors import ErrorKind, MisuseError
from notation.games import game_names, get_game
from notation.reader import read_string
from notation.replay import Verdict, check_record, require_tag_pairs

# A legal Tinkertown opening: White d3; Red's (a) must touch d3, (b) must be isolated.
OPENING = "1. d3 d2,b5 2. c5,f2 e2,g5"


def verdict(text: str, game: str | None = "tinkertown") -> Verdict:
    (record,) = read_string(text)
    return check_record(record, game)


def test_registry_finds_every_game_module() -> None:
    assert set(game_names()) >= {"tinkertown", "cave", "zombie-kidz"}
    assert get_game("Zombie_Kidz").name == "zombie-kidz"


def test_a_valid_unfinished_record() -> None:
    v = verdict(f"{OPENING} *")
    assert v.ok and v.turns == 4 and v.result == "*" and v.game == "tinkertown"


def test_wrong_move_number_points_at_the_number_with_the_turn_it_announces() -> None:
    v = verdict("1. d3 d2,b5 3. c5,f2 *")
    assert v.error is not None and v.error.kind == ErrorKind.SYNTAX
    assert (v.error.turn, v.error.line, v.error.column) == (3, 1, 13)
    assert "2." in v.error.message
    dots = verdict("1. d3 1. d2,b5 *")  # a later turn of round 1 is "1..."
    assert dots.error is not None and dots.error.turn == 2 and "1..." in dots.error.message


def test_variation_moves_count_turns_from_the_move_they_replace() -> None:
    v = verdict("1. d3 d2,b5 2. c5,f2 (2. a1,a1) e2,g5 *")
    assert v.error is not None and v.error.kind == ErrorKind.ILLEGAL
    assert v.error.turn == 3 and v.error.move == "a1,a1"
    nested = verdict("1. d3 d2,b5 (1... c3,g6 2. g5,b6 (2. h9) ) 2. c5,f2 *")
    assert nested.error is not None and nested.error.kind == ErrorKind.SYNTAX
    assert nested.error.turn == 3 and nested.error.move == "h9"


def test_variations_are_replayed_from_their_own_position() -> None:
    # The variation replaces d2,b5 with c3,g6; the main line goes on from d2,b5.
    v = verdict("1. d3 d2,b5 (1... c3,g6 2. g5,b6) 2. c5,f2 *")
    assert v.ok, v.error


def test_the_first_error_in_file_order_wins() -> None:
    # A malformed move, then a stray ')': the move comes first.
    v = verdict("1. d3 zz9 ) *")
    assert v.error is not None and v.error.move == "zz9"
    # A stray ')' before a bad move: the bracket comes first.
    w = verdict("1. d3 ) zz9 *")
    assert w.error is not None and w.error.move is None and w.error.column == 7


def test_result_contradicting_the_tag() -> None:
    v = verdict(f'[Result "1-0"]\n\n{OPENING} *')
    assert v.error is not None and v.error.kind == ErrorKind.RESULT and v.error.turn is None
    assert (v.error.line, v.error.column) == (3, 28)


def test_a_game_without_draws_rejects_a_draw() -> None:
    v = verdict(f"{OPENING} 1/2-1/2")
    assert v.error is not None and v.error.kind == ErrorKind.RESULT
    assert "no draws" in v.error.message


def test_decisive_result_without_rules_ending_is_a_resignation() -> None:
    assert verdict(f"{OPENING} 0-1").ok


def test_bad_result_tag_value_is_a_syntax_error_at_the_tag() -> None:
    v = verdict(f'[Game "tinkertown"]\n[Result "White"]\n\n{OPENING} *')
    assert v.error is not None and v.error.kind == ErrorKind.SYNTAX and v.error.line == 2


def test_game_tag_beats_the_default_and_unknown_games_are_named() -> None:
    v = verdict('[Game "cave"]\n\nb1 b5 *', "tinkertown")
    assert v.ok and v.game == "cave"
    unknown = verdict('[Game "chess"]\n\ne4 *')
    assert unknown.error is not None and unknown.error.line == 1
    assert "chess" in unknown.error.message
    none = verdict("d3 *", None)
    assert none.error is not None and "--game" in none.error.message


def test_errors_carry_source_and_record_index() -> None:
    records = read_string("d3 *\n\nzz9 *\n", source="games.txt")
    bad = check_record(records[1], "tinkertown").error
    assert bad is not None
    assert str(bad) == (
        f"games.txt:3:1: record 2, turn 1 (zz9): {bad.message}"
    )


def test_tag_pairs_from_a_mapping_or_pairs_and_nothing_else() -> None:
    assert require_tag_pairs({"Event": "club", "Round": "3"}) == [
        ("Event", "club"), ("Round", "3"),
    ]
    assert require_tag_pairs(iter([("Round", "3"), ("Event", "club")])) == [
        ("Round", "3"), ("Event", "club"),
    ]
    for bad, message in (
        ({"Round": 3}, "a tag is a (name, value) pair of str, not tuple"),
        ([("Round", "3", "x")], "a tag is a (name, value) pair of str, not tuple"),
        (["Round"], "a tag is a (name, value) pair of str, not str 'Round'"),
        ("Round 3", "tags is an iterable of (name, value) pairs, or a mapping, not str"),
        (3, "tags is an iterable of (name, value) pairs, or a mapping, not int 3"),
    ):
        with pytest.raises(MisuseError) as caught:
            require_tag_pairs(bad)  # type: ignore[arg-type]
        assert str(caught.value).startswith(message), bad
