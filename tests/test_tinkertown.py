"""Tinkertown Cemetery: board, notation, every rule and ruling of docs/tinkertown.md.

Positions are built by pushing moves from the start, or, for the movement stage,
with :meth:`TinkertownPosition.setup` (stacks written bottom to top, "wr" is a
red zombie on a white one).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games import get_game
from notation.games.tinkertown import (
    CHAPEL,
    GAME,
    GRAVES,
    MOVEMENT,
    NEIGHBOURS,
    OFF_BOARD,
    PATHS,
    RED,
    RESURRECTION,
    SQUARE_NAMES,
    WHITE,
    Drop,
    Move,
    Resurrection,
    TinkertownMove,
    TinkertownPosition,
    parse_square,
)
from notation.reader import read_file, read_string
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records" / "tinkertown"

# Resurrection stages taken from real records: the first ends after Red's
# turn 14 (a6), the second after White's turn 15 (b5).


def tokens(text: str) -> list[str]:
    return text.split()


ENDS_AFTER_RED = tokens(
    "f6 f7,c8 c7,h4 h5,d2 d3,f1 e1,a4 a5,b2 c2,g3 g2,e8 f8,d6 e6,c5 c4,f4 g4,b6 a6"
)
ENDS_AFTER_WHITE = tokens(
    "f2 f1,c7 b7,g4 g5,d3 c3,d6 e6,h3 g3,d8 d7,b2 b3,a6 b6,g7 g6,f8 f7,a4 b4,d1 c1,c5 b5"
)


def sq(name: str) -> int:
    return parse_square(name)


def play(*tokens: str) -> TinkertownPosition:
    pos = GAME.new_position()
    for token in tokens:
        pos.push(GAME.parse(token))
    return pos


def setup(
    stacks: dict[str, str], tombstones: tuple[str, ...] = (), to_move: int = WHITE
) -> TinkertownPosition:
    return TinkertownPosition.setup(stacks, tombstones, to_move)


def snapshot(pos: TinkertownPosition) -> tuple[Any, ...]:
    """Everything observable about a position."""
    return (
        tuple(pos.stack(s) for s in range(64)),
        pos.tombstones,
        tuple(pos.capacity(s) for s in range(64)),
        pos.group_count(WHITE),
        pos.group_count(RED),
        pos.last_placement(WHITE),
        pos.last_placement(RED),
        pos.stage,
        pos.side_to_move,
        pos.turn,
        pos.outcome(),
        pos.move_stack,
    )


def refused(pos: TinkertownPosition, token: str) -> str:
    """Push ``token``, expect IllegalMoveError, check nothing changed; the message."""
    before = snapshot(pos)
    with pytest.raises(IllegalMoveError) as info:
        pos.push(GAME.parse(token))
    assert snapshot(pos) == before
    return str(info.value)


# ---------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------

NEIGHBOUR_TABLE = """
8  .  .  2  3  3  2  .  .
7  .  2  4  4  4  4  2  .
6  2  4  4  3  3  4  4  2
5  3  4  3  #  #  3  4  3
4  3  4  3  #  #  3  4  3
3  2  4  4  3  3  4  4  2
2  .  2  4  4  4  4  2  .
1  .  .  2  3  3  2  .  .
"""


def test_48_graves_with_12_16_20_neighbour_counts() -> None:
    assert len(GRAVES) == 48
    assert Counter(len(NEIGHBOURS[g]) for g in GRAVES) == {2: 12, 3: 16, 4: 20}
    assert len(OFF_BOARD) == 12 and len(CHAPEL) == 4
    assert set(GRAVES) | OFF_BOARD | CHAPEL == set(range(64))


def test_neighbour_counts_match_the_rules_diagram() -> None:
    rows = []
    for rank in range(8, 0, -1):
        cells = []
        for file in "abcdefgh":
            s = sq(f"{file}{rank}")
            cells.append("#" if s in CHAPEL else "." if s in OFF_BOARD else str(len(NEIGHBOURS[s])))
        rows.append(f"{rank}  " + "  ".join(cells))
    assert "\n".join(rows) == NEIGHBOUR_TABLE.strip()


def test_off_board_corners_and_chapel() -> None:
    assert {SQUARE_NAMES[s] for s in OFF_BOARD} == set(
        tokens("a1 b1 a2 g1 h1 h2 a7 a8 b8 g8 h8 h7")
    )
    assert {SQUARE_NAMES[s] for s in CHAPEL} == {"d4", "e4", "d5", "e5"}
    # Neighbours are graves only: the chapel and the corners are nobody's neighbour.
    assert set(NEIGHBOURS[sq("d3")]) == {sq("d2"), sq("e3"), sq("c3")}
    assert NEIGHBOURS[sq("d4")] == ()


def test_game_is_registered_without_draws() -> None:
    assert get_game("tinkertown") is GAME
    assert get_game("Tinkertown-Cemetery") is GAME
    assert dict(GAME.result_names) == {"1-0": "White wins", "0-1": "Red wins"}
    assert not GAME.allows_result("1/2-1/2")
    assert GAME.allows_result("*")
    assert GAME.player_tags == ("White", "Red")


# ---------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move", "canonical"),
    [
        ("d3", Drop(sq("d3")), "d3"),
        ("D3", Drop(sq("d3")), "d3"),
        ("h3x", Drop(sq("h3"), True), "h3x"),
        ("H3X", Drop(sq("h3"), True), "h3x"),
        ("d2,b5", Resurrection(sq("d2"), sq("b5")), "d2,b5"),
        ("d2x,b5", Resurrection(sq("d2"), sq("b5"), True), "d2,b5x"),
        ("d2,b5x", Resurrection(sq("d2"), sq("b5"), True), "d2,b5x"),
        ("h5-h3", Move(sq("h5"), sq("h3")), "h5-h3"),
        ("h5xh3", Move(sq("h5"), sq("h3"), True), "h5xh3"),
        ("h5-h3x", Move(sq("h5"), sq("h3"), True), "h5xh3"),
        ("H5XH3", Move(sq("h5"), sq("h3"), True), "h5xh3"),
        # Well-formed although not graves or not a line: the rules refuse them.
        ("a1", Drop(sq("a1")), "a1"),
        ("d4", Drop(sq("d4")), "d4"),
        ("c3-e5", Move(sq("c3"), sq("e5")), "c3-e5"),
    ],
)
def test_move_forms(text: str, move: TinkertownMove, canonical: str) -> None:
    assert GAME.parse_move(text) == move
    assert str(move) == canonical
    assert GAME.parse_move(canonical) == move


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("h9", "h9 is not a square"),
        ("i3", "i3 is not a square"),
        ("z1", "z1 is not a square"),
        ("h9-h3", "h9 is not a square"),
        ("a10", "a10 is not a square"),
        ("h5xh3x", "two capture marks"),
        ("d2,,b5", "2 commas"),
        ("d2,b5,c3", "2 commas"),
        ("", "not a Tinkertown move"),
        ("h5-", "not a Tinkertown move"),
        ("h5--h3", "not a Tinkertown move"),
        ("h5x-h3", "not a Tinkertown move"),
        ("h5-h3-h1", "not a Tinkertown move"),
        ("xh3", "not a Tinkertown move"),
        ("h3xx", "not a Tinkertown move"),
        ("d2-b5,c3", "not a Tinkertown move"),
    ],
)
def test_malformed_moves(text: str, fact: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        GAME.parse_move(text)
    assert fact in str(info.value)


def test_every_geometric_move_round_trips() -> None:
    for src in GRAVES:
        for dst in range(64):
            if PATHS[src * 64 + dst] is None:
                continue
            for marked in (False, True):
                move = Move(src, dst, marked)
                assert GAME.parse(str(move)) == move
    for s in range(64):
        for marked in (False, True):
            assert GAME.parse(str(Drop(s, marked))) == Drop(s, marked)


def test_moves_are_frozen_value_objects() -> None:
    move = Move(sq("h5"), sq("h3"))
    with pytest.raises(AttributeError):
        move.origin = 3  # type: ignore[misc]
    assert hash(move) == hash(Move(sq("h5"), sq("h3")))
    assert not hasattr(move, "__dict__")


# ---------------------------------------------------------------------------
# The resurrection stage
# ---------------------------------------------------------------------------


def test_white_opens_with_one_zombie_on_any_grave() -> None:
    for g in GRAVES:
        pos = play(SQUARE_NAMES[g])
        assert pos.stack(g) == "w" and pos.stage == RESURRECTION and pos.mover == "Red"
    assert len(GAME.new_position().legal_moves()) == 48


def test_opening_refusals() -> None:
    pos = GAME.new_position()
    assert refused(pos, "a1") == "a1 is outside the cemetery, not a grave"
    assert refused(pos, "d4") == "d4 is the chapel, not a grave"
    assert refused(pos, "d3,b5") == "White's first turn is one placement"
    assert "never captures" in refused(pos, "d3x")
    assert "resurrection stage is on" in refused(pos, "d3-d2")


def test_placement_a_must_be_next_to_the_opponents_last_placement() -> None:
    pos = play("e3")
    assert refused(pos, "c4,h8") == "c4 is not next to White's last placement e3"
    pos = play("e3", "e2,b6")
    assert refused(pos, "c4,g8") == "c4 is not next to Red's last placement b6"
    pos.push(GAME.parse("b5,g7"))  # next to b6, the most recent placement
    assert pos.last_placement(WHITE) == sq("g7")
    assert pos.last_placement(RED) == sq("b6")


def test_placement_b_needs_all_neighbours_empty() -> None:
    pos = play("e3")
    assert refused(pos, "e2,f3") == "f3 has an occupied neighbour (e3)"
    assert refused(pos, "e2,e3") == "e3 is occupied"
    assert refused(pos, "e2,e2") == "e2 is occupied"
    assert refused(pos, "e2,e4") == "e4 is the chapel, not a grave"


def test_placement_b_is_tested_after_a() -> None:
    # c3's only occupied neighbour after Red's turn would be d3, placed as (a):
    # with (a) on the board c3 no longer qualifies.
    pos = play("e3")
    assert refused(pos, "d3,c3") == "c3 has an occupied neighbour (d3)"
    pos.push(GAME.parse("d3,c6"))
    assert pos.stack(sq("d3")) == pos.stack(sq("c6")) == "r"


def test_single_placement_refused_while_b_is_possible() -> None:
    pos = play("e3")
    message = refused(pos, "e2")
    assert message.startswith("a grave for (b) remains after e2")


def test_stage_ends_after_a_red_turn_and_white_moves_first() -> None:
    pos = play(*ENDS_AFTER_RED[:-1])
    assert pos.mover == "Red" and pos.stage == RESURRECTION
    # (b) is impossible after a6, so a pair is refused and the single placement ends it.
    message = refused(pos, "a6,h6")
    assert "no grave has all its neighbours empty after a6" in message
    assert all(isinstance(m, Drop) for m in pos.legal_moves())
    pos.push(GAME.parse("a6"))
    assert pos.stage == MOVEMENT and pos.mover == "White" and pos.turn == 14
    assert pos.zombie_count(WHITE) == pos.zombie_count(RED) == 13
    assert "resurrection stage is over" in refused(pos, "b3,b4")


def test_stage_ends_after_a_white_turn_and_red_moves_first() -> None:
    pos = play(*ENDS_AFTER_WHITE)
    assert pos.turn == 15 and pos.stage == MOVEMENT
    assert pos.mover == "Red" and pos.side_to_move == RED
    assert pos.zombie_count(WHITE) == pos.zombie_count(RED) == 14
    pos.pop()
    assert pos.stage == RESURRECTION and pos.mover == "White"


def test_a_is_always_possible_during_the_stage() -> None:
    rng = random.Random(5)
    for _ in range(20):
        pos = GAME.new_position()
        while pos.stage == RESURRECTION:
            moves = pos.legal_moves()
            assert moves
            pos.push(rng.choice(moves))


# ---------------------------------------------------------------------------
# The movement stage
# ---------------------------------------------------------------------------


def test_move_top_k_exactly_k_graves_keeping_order() -> None:
    pos = setup({"c2": "rwrw", "h5": "r"})
    pos.push(GAME.parse("c2-c4"))  # top two, two graves
    assert pos.stack(sq("c2")) == "rw" and pos.stack(sq("c4")) == "rw"
    pos = setup({"c2": "wwww", "h5": "r"})
    pos.push(GAME.parse("c2-g2"))  # all four, four graves (one colour: no capture)
    assert pos.stack(sq("c2")) == "" and pos.stack(sq("g2")) == "wwww"


def test_move_onto_an_occupied_grave_stacks_on_top_and_passes_over_groups() -> None:
    pos = setup({"b3": "ww", "c3": "r", "d3": "r", "h5": "r"})
    pos.push(GAME.parse("b3-d3"))
    assert pos.stack(sq("d3")) == "rww"
    assert pos.stack(sq("c3")) == "r"


def test_move_may_carry_the_opponents_zombies() -> None:
    pos = setup({"f2": "rrw", "h5": "r"})
    pos.push(GAME.parse("f2-f5"))
    assert pos.stack(sq("f5")) == "rrw" and pos.group_count(WHITE) == 1


def test_distance_must_not_exceed_the_height() -> None:
    pos = setup({"h5": "w", "c3": "r"})
    assert refused(pos, "h5-h3") == "h5 holds 1 zombie; a move of 2 needs 2"


def test_moves_are_straight_and_leave_the_grave() -> None:
    pos = setup({"c3": "ww", "h5": "r"})
    assert "not in a straight orthogonal line" in refused(pos, "c3-d2")
    assert "must leave its grave" in refused(pos, "c3-c3")


def test_only_the_controller_moves_a_group() -> None:
    pos = setup({"c3": "wr", "h5": "w"})
    assert refused(pos, "c3-c2") == "the top zombie on c3 is Red's (White to move)"
    assert refused(pos, "f6-f5") == "f6 is empty: no group to move"
    pos = setup({"c3": "rw", "h5": "r"}, to_move=RED)
    assert refused(pos, "c3-c2") == "the top zombie on c3 is White's (Red to move)"


@pytest.mark.parametrize(
    ("stacks", "tombs", "token", "message"),
    [
        ({"d3": "www"}, (), "d3-d6", "d3-d6 crosses the chapel at d4"),
        ({"c4": "www"}, (), "c4-f4", "c4-f4 crosses the chapel at d4"),
        ({"d3": "w"}, (), "d3-d4", "d4 is the chapel, not a grave"),
        ({"c2": "ww"}, (), "c2-a2", "a2 is outside the cemetery, not a grave"),
        ({"g3": "www"}, ("g5",), "g3-g6", "g3-g6 crosses a tombstone at g5"),
        ({"g3": "ww"}, ("g5",), "g3-g5", "g5 holds a tombstone"),
        ({"g3": "w"}, ("g5",), "g5-g4", "g5 holds a tombstone"),
    ],
)
def test_blocked_moves(
    stacks: dict[str, str], tombs: tuple[str, ...], token: str, message: str
) -> None:
    pos = setup({**stacks, "h6": "r"}, tombs)
    assert refused(pos, token) == message


def test_entry_on_any_grave_without_tombstone() -> None:
    pos = setup({"c3": "r", "f6": "w"}, ("g3",))
    for target in ("c3", "f6", "b4"):
        probe = pos.copy()
        probe.push(GAME.parse(target))
        assert probe.stack(sq(target)).endswith("w")
    assert refused(pos, "g3") == "g3 holds a tombstone"
    assert refused(pos, "e4") == "e4 is the chapel, not a grave"
    assert refused(pos, "h8") == "h8 is outside the cemetery, not a grave"


# ---------------------------------------------------------------------------
# Capture
# ---------------------------------------------------------------------------


def test_capture_by_move_above_capacity_both_colours() -> None:
    # c1 has two neighbours (c2, d1): three zombies of both colours are too many.
    pos = setup({"c2": "w", "c1": "rr", "h5": "r"})
    assert pos.capacity(sq("c1")) == 2 and pos.capacity(sq("d1")) == 3
    assert Move(sq("c2"), sq("c1"), True) in pos.legal_moves()
    pos.push(GAME.parse("c2xc1"))
    assert pos.is_tombstone(sq("c1")) and pos.stack(sq("c1")) == ""
    assert pos.zombie_count(WHITE) == 0 and pos.zombie_count(RED) == 1
    # The tombstone lowers its neighbours' capacity.
    assert pos.capacity(sq("d1")) == 2 and pos.capacity(sq("c2")) == 3
    assert pos.capacity(sq("c1")) == 0


def test_capture_mark_is_optional_and_has_two_spellings() -> None:
    for token in ("c2-c1", "c2xc1", "c2-c1x"):
        pos = setup({"c2": "w", "c1": "rr", "h5": "r"})
        pos.push(GAME.parse(token))
        assert pos.is_tombstone(sq("c1"))


def test_no_capture_at_capacity() -> None:
    pos = setup({"c2": "w", "c1": "r", "h5": "r"})
    assert refused(pos, "c2xc1") == (
        "no capture on c1 (2 zombies, both colours, capacity 2): remove the x"
    )
    pos.push(GAME.parse("c2-c1"))
    assert pos.stack(sq("c1")) == "rw" and not pos.is_tombstone(sq("c1"))


def test_no_capture_of_a_one_coloured_group_above_capacity() -> None:
    pos = setup({"c2": "w", "c1": "ww", "h5": "r"})
    assert "one colour" in refused(pos, "c2xc1")
    pos.push(GAME.parse("c2-c1"))
    assert pos.stack(sq("c1")) == "www"


def test_a_moving_two_coloured_group_is_captured_on_an_empty_grave() -> None:
    pos = setup({"c4": "wrw", "h5": "r"})
    pos.push(GAME.parse("c4xc1"))
    assert pos.is_tombstone(sq("c1")) and pos.group_count(WHITE) == 0


def test_capture_by_entry_onto_a_two_coloured_group() -> None:
    pos = setup({"c1": "wr", "h5": "r", "f6": "w"})
    assert Drop(sq("c1"), True) in pos.legal_moves()
    pos.push(GAME.parse("c1x"))
    assert pos.is_tombstone(sq("c1"))


def test_entry_onto_a_one_coloured_group_never_captures() -> None:
    # White enters on Red's full one-coloured group: no capture, it stays above capacity.
    pos = setup({"c1": "rr", "h5": "r", "h3": "w"})
    assert "one-coloured group never captures" in refused(pos, "c1x")
    assert Drop(sq("c1")) in pos.legal_moves()
    pos.push(GAME.parse("c1"))
    assert pos.stack(sq("c1")) == "rrw" and pos.capacity(sq("c1")) == 2
    assert not pos.is_tombstone(sq("c1"))
    # Now two-coloured: an entry by either side captures it.
    for token in ("c1x", "c1"):
        probe = pos.copy()
        probe.push(GAME.parse(token))
        assert probe.is_tombstone(sq("c1"))
    pos.push(GAME.parse("h5-h4"))
    pos.push(GAME.parse("c1x"))
    assert pos.is_tombstone(sq("c1"))


def test_groups_left_above_capacity_by_a_tombstone_stay() -> None:
    # c1 (capacity 2) holds "wr"; a capture on d1 drops c1's capacity to 1, and
    # the tombstone captures nothing by itself (no chain reaction).
    pos = setup({"c1": "wr", "d1": "rrr", "d2": "w", "h5": "r"})
    pos.push(GAME.parse("d2xd1"))
    assert pos.is_tombstone(sq("d1"))
    assert pos.capacity(sq("c1")) == 1 and pos.stack(sq("c1")) == "wr"
    assert not pos.is_tombstone(sq("c1"))
    # The next action landing on it captures it, whoever makes it.
    assert Drop(sq("c1"), True) in pos.legal_moves()
    pos.push(GAME.parse("c1x"))
    assert pos.is_tombstone(sq("c1"))


def test_only_the_destination_is_examined() -> None:
    pos = setup({"c1": "wrw", "h6": "rw", "h5": "r"}, ("d1",))
    # c1 is above capacity (3 > 1) but an action elsewhere does not touch it.
    pos.push(GAME.parse("h6-g6"))
    assert pos.stack(sq("c1")) == "wrw" and not pos.is_tombstone(sq("c1"))


def test_mark_without_capture_is_illegal() -> None:
    pos = setup({"h5": "w", "h3": "r", "h4": "r"})
    assert refused(pos, "h5xh4") == (
        "no capture on h4 (2 zombies, both colours, capacity 3): remove the x"
    )
    assert refused(pos, "b4x") == (
        "no capture on b4 (1 zombie, one colour, capacity 4): remove the x"
    )


# ---------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------


def test_win_when_the_opponent_controls_no_group() -> None:
    pos = setup({"c2": "w", "c1": "rr", "h5": "w"})
    pos.push(GAME.parse("c2xc1"))
    assert pos.outcome() == "1-0" and pos.winner == WHITE
    assert pos.legal_moves() == []
    assert refused(pos, "h5-h4") == "the game is over: White won at turn 1"


def test_control_is_the_top_zombie() -> None:
    # Covering Red's only group takes it over: Red controls nothing and loses.
    pos = setup({"c3": "r", "c4": "w"}, to_move=WHITE)
    pos.push(GAME.parse("c4-c3"))
    assert pos.outcome() == "1-0"


def test_win_even_if_the_winners_last_group_disappears() -> None:
    pos = setup({"b2": "rr", "b3": "w"}, to_move=WHITE)
    pos.push(GAME.parse("b3xb2"))
    assert pos.group_count(WHITE) == pos.group_count(RED) == 0
    assert pos.outcome() == "1-0"
    pos = setup({"b2": "ww", "b3": "r"}, to_move=RED)
    pos.push(GAME.parse("b3xb2"))
    assert pos.outcome() == "0-1"
    assert refused(pos, "c3") == "the game is over: Red won at turn 2"


def test_losing_ones_own_last_group_does_not_end_the_game() -> None:
    pos = setup({"b2": "rr", "b3": "w", "h5": "r"})
    pos.push(GAME.parse("b3xb2"))
    assert pos.group_count(WHITE) == 0 and pos.outcome() is None
    assert pos.mover == "Red"


def test_no_passing_there_is_always_an_entry() -> None:
    pos = play(*ENDS_AFTER_RED)
    entries = [m for m in pos.legal_moves() if isinstance(m, Drop)]
    assert len(entries) == 48  # one entry per grave, empty or occupied
    with pytest.raises(MoveSyntaxError):
        GAME.parse_move("--")


# ---------------------------------------------------------------------------
# push / pop / copy / accessors / diagram
# ---------------------------------------------------------------------------


def test_pop_restores_captures_and_tombstones_exactly() -> None:
    pos = setup({"c1": "wr", "d1": "rrr", "d2": "w", "h5": "r"})
    before = snapshot(pos)
    pos.push(GAME.parse("d2xd1"))
    middle = snapshot(pos)
    pos.push(GAME.parse("c1x"))
    assert pos.pop() == Drop(sq("c1"), True)
    assert snapshot(pos) == middle
    assert pos.pop() == Move(sq("d2"), sq("d1"), True)
    assert snapshot(pos) == before


def test_pop_restores_the_end_of_the_game_and_the_stage() -> None:
    pos = setup({"b2": "rr", "b3": "w"})
    pos.push(GAME.parse("b3xb2"))
    pos.pop()
    assert pos.outcome() is None and pos.legal_moves()
    pos = play(*ENDS_AFTER_RED)
    pos.pop()
    assert pos.stage == RESURRECTION and pos.last_placement(RED) == sq("f4")


def test_copy_is_independent() -> None:
    pos = play(*ENDS_AFTER_RED)
    other = pos.copy()
    other.push(GAME.parse("c8"))
    assert pos.turn == 14 and other.turn == 15
    assert pos.stack(sq("c8")) == "r" and other.stack(sq("c8")) == "rw"
    assert other.pop() == Drop(sq("c8"))


def test_accessors() -> None:
    pos = setup({"c1": "wr", "h5": "rw"}, ("d1",), to_move=RED)
    assert pos.groups() == {sq("c1"): "wr", sq("h5"): "rw"}
    assert pos.controller(sq("c1")) == RED and pos.controller(sq("h5")) == WHITE
    assert pos.controller(sq("c3")) is None
    assert pos.tombstones == frozenset({sq("d1")})
    assert pos.capacity(sq("d4")) == 0 and pos.capacity(sq("a1")) == 0
    assert pos.zombie_count(WHITE) == pos.zombie_count(RED) == 2
    # Red moves after an odd number of turns: setup counts one for White's.
    assert pos.mover == "Red" and pos.turn == 1 and pos.stage == MOVEMENT
    assert pos.round_size == 2
    with pytest.raises(ValueError, match="not a grave"):
        setup({"d4": "w"})
    with pytest.raises(ValueError, match="tombstone"):
        setup({"c1": "w"}, ("c1",))
    with pytest.raises(ValueError, match="only w and r"):
        setup({"c1": "wx"})


def test_diagram() -> None:
    pos = setup({"c1": "wr", "h5": "w"}, ("d1",))
    text = pos.diagram()
    lines = text.splitlines()
    assert lines[0].startswith("8") and lines[7].startswith("1")
    assert "wr" in lines[7] and "+" in lines[7]
    assert lines[3].count("#") == 2 and lines[4].count("#") == 2
    assert lines[-1] == "White to move, movement stage, turn 1"
    pos.push(GAME.parse("c1x"))
    assert pos.diagram().splitlines()[-1] == "White won at turn 1"


# ---------------------------------------------------------------------------
# Whole records
# ---------------------------------------------------------------------------


def test_conformance_record_1_main_line() -> None:
    moves = tokens(
        "f6 f7,c8 c7,h4 h5,d2 d3,f1 e1,a4 a5,b2 c2,g3 g2,e8 f8,d6 e6,c5 c4,f4 g4,b6 a6 "
        "c2 a5 a6 c7 c4 g2 a5 h4 e1 c4 a4 d3 g3 c4x f8 b2 h5 a5x f7 g2-f2 b2x h5 f1-f2 g3 "
        "d6 h5-h3 f4 e8 c7 e2 b3 c2 d2 f5 f5 c7 g3 e6 f7-f5x e7 e6 b3 e8 f4x f8-d8 f2 e2 "
        "a6x c7x c2-e2 g4xg3 e1 e7 a4x c2 b5 e1x f6 b3 c8-d8 d2-c2 d6 d8x g2 h5 e6x c2-d2 "
        "c1 b3-b5 e8x f6x d6-b6 d6 f2-d2 h4 b5x f2 d3-b3 f2-f1 c5 d2x f1 h3x e7x f2 h4x b3x "
        "f2 c1 c2x d1 d6x c5x c1x f1x h5x g2x g4 f2x d1"
    )
    pos = play(*moves)
    assert pos.turn == 114 and pos.outcome() == "0-1"


def test_examples_are_valid_and_cover_the_rules() -> None:
    seen: set[str] = set()
    records = list(read_file(RECORDS / "examples.ugn"))
    assert len(records) >= 3
    for record in records:
        tags = record.tag_dict
        assert tags["Game"] == "tinkertown"
        assert {"Event", "White", "Red", "Result", "Source"} <= tags.keys()
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert verdict.outcome == verdict.result == tags["Result"] != "*"
        seen |= _features([GAME.parse(node.text) for node in record.moves])
    assert seen >= {
        "stage ends after White",
        "stage ends after Red",
        "split",
        "capture by move",
        "capture by entry",
        "entry exception",
        "above capacity after a tombstone",
        "winner's own last group gone",
    }


def _features(moves: list[TinkertownMove]) -> set[str]:
    """The rules a game exercises, as the engine sees them."""
    pos = GAME.new_position()
    seen: set[str] = set()
    for move in moves:
        side, stage, tombs = pos.side_to_move, pos.stage, pos.tombstones
        if isinstance(move, Move):
            k = len(PATHS[move.origin * 64 + move.target] or ())
            if k < len(pos.stack(move.origin)):
                seen.add("split")
        before = pos.stack(move.square) if isinstance(move, Drop) else ""
        pos.push(move)
        new = pos.tombstones - tombs
        if stage == RESURRECTION and pos.stage == MOVEMENT:
            seen.add(f"stage ends after {'White' if side == WHITE else 'Red'}")
        if new:
            seen.add("capture by move" if isinstance(move, Move) else "capture by entry")
            for n in NEIGHBOURS[next(iter(new))]:
                s = pos.stack(n)
                if len(set(s)) == 2 and len(s) > pos.capacity(n):
                    seen.add("above capacity after a tombstone")
        elif isinstance(move, Drop) and stage == MOVEMENT and len(set(before)) == 1:
            s = pos.stack(move.square)
            if len(set(s)) == 2 and len(s) > pos.capacity(move.square):
                seen.add("entry exception")
        if pos.outcome() is not None and pos.group_count(side) == 0:
            seen.add("winner's own last group gone")
    return seen


def test_broken_records_get_their_verdicts() -> None:
    expected = json.loads((RECORDS / "broken.json").read_text())
    records = list(read_file(RECORDS / "broken.ugn"))
    assert len(records) == len(expected) >= 12
    assert {e["kind"] for e in expected} == {"syntax", "illegal", "result"}
    for record, want in zip(records, expected, strict=True):
        error = check_record(record).error
        assert error is not None, want
        assert (error.kind, error.turn, error.line) == (want["kind"], want["turn"], want["line"])


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


def _random_move(rng: random.Random) -> TinkertownMove:
    kind = rng.randrange(3)
    marked = rng.random() < 0.3
    if kind == 0:
        return Drop(rng.randrange(64), marked)
    if kind == 1:
        return Resurrection(rng.randrange(64), rng.randrange(64), marked and rng.random() < 0.3)
    src = rng.choice(GRAVES) if rng.random() < 0.8 else rng.randrange(64)
    return Move(src, rng.randrange(64), marked)


def _is_accepted_form(move: TinkertownMove, legal: set[TinkertownMove]) -> bool:
    """Legal as written: in legal_moves(), or an unmarked capture (the mark is optional)."""
    if move in legal:
        return True
    if isinstance(move, Move) and not move.marked:
        return Move(move.origin, move.target, True) in legal
    if isinstance(move, Drop) and not move.marked:
        return Drop(move.square, True) in legal
    return False


def _capacities_from_scratch(pos: TinkertownPosition) -> list[int]:
    return [
        sum(not pos.is_tombstone(n) for n in NEIGHBOURS[s]) if not pos.is_tombstone(s) else 0
        for s in range(64)
    ]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_agree_with_legal_moves(seed: int) -> None:
    rng = random.Random(seed)
    pos = GAME.new_position()
    while pos.outcome() is None and pos.turn < 160:
        moves = pos.legal_moves()
        legal = set(moves)
        assert len(legal) == len(moves)
        for move in moves:
            assert GAME.parse(str(move)) == move
        # Every legal move is accepted and taken back exactly.
        before = snapshot(pos)
        for move in rng.sample(moves, min(8, len(moves))):
            pos.push(move)
            pos.pop()
            assert snapshot(pos) == before
        # Random well-formed moves are accepted exactly when they are legal.
        for _ in range(12):
            move = _random_move(rng)
            try:
                pos.push(move)
            except IllegalMoveError:
                assert not _is_accepted_form(move, legal), move
                assert snapshot(pos) == before
            else:
                assert _is_accepted_form(move, legal), move
                pos.pop()
                assert snapshot(pos) == before
        pos.push(rng.choice(moves))
        assert _capacities_from_scratch(pos) == [pos.capacity(s) for s in range(64)]
        groups = pos.groups().values()
        assert pos.group_count(WHITE) == sum(s[-1] == "w" for s in groups)
        assert pos.group_count(RED) == sum(s[-1] == "r" for s in groups)
    if pos.outcome() is not None:
        loser = RED if pos.outcome() == "1-0" else WHITE
        assert pos.group_count(loser) == 0 and pos.legal_moves() == []


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_popping_a_whole_game_returns_to_the_start(seed: int) -> None:
    pos = GAME.new_position()
    start = snapshot(pos)
    played = GAME.random_playout(pos, random.Random(seed), 400)
    assert pos.outcome() is not None or pos.turn == 400
    for move in reversed(played):
        assert pos.pop() == move
    assert snapshot(pos) == start


# ---------------------------------------------------------------------------
# Position strings
# ---------------------------------------------------------------------------

START = "4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0"
# The rules' example: the end of a resurrection stage, Red's last placement c2,
# White starts the movement stage (records/tinkertown/positions.ugn, Position 2).
C2_TOKENS = tokens("h4 h3,c4 c3,g6 g5,e2 f2,a5 a6,d8 c8,e6 e7,c1 d1,a3 a4,f8 f7,b7 b6,f4 f5,b2 c2")
C2_END = "WR1R/W2RW1/RR2W1W1/W2##WR1/R1R##R1W/W1W4R/WR1RW1/RW2 w movement b2,c2 14"
# White's ww on h5, h4 and h3 empty (Position 3): h5-h3 puts it on capacity.
H5_H3 = "RRW1/RWwRR1rW/1W1R1R1R/R1W##2wW/wW1W##R2/1R1wRrR1wW1/1W3R/RrWwR1 w movement c3,b3 30"


def from_string(text: str) -> TinkertownPosition:
    return TinkertownPosition.from_string(text)


def test_position_string_of_the_start_and_the_first_turns() -> None:
    pos = GAME.new_position()
    assert pos.position_string() == START
    pos.push(GAME.parse("d3"))
    assert pos.position_string() == "4/6/8/3##3/3##3/3W4/6/4 r resurrection d3,- 1"
    pos.push(GAME.parse("d2,b5"))
    assert pos.position_string() == "4/6/8/1R1##3/3##3/3W4/2R3/4 w resurrection d3,b5 2"


def test_position_string_of_the_rules_example_reached_by_play() -> None:
    pos = play(*C2_TOKENS)
    assert pos.position_string() == C2_END
    again = GAME.position_from_string(C2_END)
    assert isinstance(again, TinkertownPosition)
    assert snapshot(again)[:-1] == snapshot(pos)[:-1]  # all but the moves played
    assert again.move_stack == [] and again.turn == 14 and again.mover == "White"
    assert again.legal_moves() == pos.legal_moves()


def test_position_string_stacks_tombstones_and_the_chapel() -> None:
    pos = setup({"c1": "wr", "h5": "rww", "a6": "w", "d3": "rrrw"}, ("d1", "g7"), to_move=RED)
    assert pos.position_string() == "4/5+/W7/3##2rwW/3##3/3rrrW4/6/wR+2 r movement -,- 1"
    assert from_string(pos.position_string()).groups() == pos.groups()


def test_positions_read_back_go_on_counting_turns() -> None:
    pos = from_string(H5_H3)
    assert pos.turn == 30 and pos.mover == "White" and pos.move_stack == []
    pos.push(GAME.parse("h5-h3"))
    assert pos.turn == 31 and pos.position_string().endswith(" r movement c3,b3 31")
    assert pos.board_view().caption == "16. h5-h3: White moved 2 zombies"
    assert pos.pop() == Move(sq("h5"), sq("h3"))
    assert pos.position_string() == H5_H3
    with pytest.raises(MisuseError, match="no move to take back"):
        pos.pop()


def test_a_won_position_is_read_as_won() -> None:
    # Red to move without a group: White's last action won.
    pos = from_string("4/6/8/3##3/3##3/8/6/W1W1 r movement -,- 81")
    assert pos.outcome() == "1-0" and pos.winner == WHITE and pos.legal_moves() == []
    assert "the game is over: White won at turn 81" in refused(pos, "c1")
    # Even when the winner's own last group vanished too (only tombstones left).
    pos = from_string("4/6/8/3##3/3##3/8/6/+3 w movement -,- 40")
    assert pos.outcome() == "0-1"
    # The same goes for setup().
    assert setup({"c1": "w"}, to_move=RED).outcome() == "1-0"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "0 fields; a position string has 5"),
        ("4/6/8/3##3/3##3/8/6/4 w resurrection -,-", "4 fields"),
        (START + " 7", "6 fields"),
        ("4/6/8/3##3/3##3/8/6 w resurrection -,- 0", "the board has 7 ranks"),
        ("4/6/8/3##3/3##3/8/6/4/4 w resurrection -,- 0", "the board has 9 ranks"),
        ("4/6/8/3##3/3##3/8/6/5 w resurrection -,- 0", "rank 1 '5' describes more than"),
        ("4/6/8/3##3/3##3/8/6/3 w resurrection -,- 0", "rank 1 '3' describes 3 of its 4"),
        ("4/6/8/3#3/3##3/8/6/4 w resurrection -,- 0", "rank 5 '3#3': e5 is the chapel"),
        ("4/6/8/2##4/3##3/8/6/4 w resurrection -,- 0", "# stands for c5, a grave"),
        ("4/6/8/8/3##3/8/6/4 w resurrection -,- 0", "rank 5 '8': d5 is the chapel"),
        ("4/6/8/3##3/3##3/8/6/13 w movement -,- 0", "two counts of empty graves in a row"),
        ("4/6/8/3##3/3##3/8/6/wr w movement -,- 0", "rank 1 'wr': unexpected 'w'"),
        ("4/6/8/3##3/3##3/8/6/0W3 w movement -,- 0", "rank 1 '0W3': unexpected '0'"),
        ("4/6/8/3##3/3##3/8/6/4 x resurrection -,- 0", "side to move 'x'"),
        ("4/6/8/3##3/3##3/8/6/4 w rising -,- 0", "stage 'rising'"),
        ("4/6/8/3##3/3##3/8/6/4 w movement c3 0", "last placements 'c3'"),
        ("4/6/8/3##3/3##3/8/6/W3 w movement d4,- 0", "d4 is the chapel, not a grave"),
        ("4/6/8/3##3/3##3/8/6/W3 w movement a1,- 0", "a1 is outside the cemetery"),
        ("4/6/8/3##3/3##3/8/6/W3 w movement -,- 02", "turns played '02'"),
        ("4/6/8/3##3/3##3/8/6/W3 w movement -,- -2", "turns played '-2'"),
        ("4/6/8/3##3/3##3/8/6/W3 w movement -,- 3", "side to move w after 3 turns"),
        ("4/6/8/3##3/3##3/8/6/W3 r movement -,- 0", "side to move r after 0 turns"),
        ("4/6/8/3##3/3##3/8/6/4 w movement -,- 0", "the movement stage in an empty cemetery"),
        # Impossible in the resurrection stage.
        ("+3/6/8/3##3/3##3/8/6/4 w resurrection -,- 0", "a tombstone on c8"),
        ("wW3/6/8/3##3/3##3/8/6/4 r resurrection c8,- 1", "c8 holds 2 zombies"),
        ("4/6/8/3##3/3##3/8/6/4 r resurrection -,- 1", "White has 0 zombies on the board"),
        ("W3/6/8/3##3/3##3/8/6/4 w resurrection c8,- 2", "Red has 0 zombies"),
        ("W3/6/8/3##3/3##3/8/6/4 r resurrection -,- 1", "White's last placement is missing"),
        ("W3/6/8/3##3/3##3/8/6/4 r resurrection c8,c1 1", "Red has not placed yet"),
        ("W3/6/8/3##3/3##3/8/6/4 r resurrection c1,- 1", "c1 holds no white zombie"),
        (
            "WR2/6/8/3##3/3##3/8/6/R3 r resurrection c8,d8 3",
            "White has 1 zombie on the board; after 3 turns",
        ),
        (
            "WR2/6/8/3##3/3##3/8/6/WRW1 r resurrection c1,d8 3",
            "White's last placement c1 has an occupied neighbour (d1)",
        ),
    ],
)
def test_bad_position_strings_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(TagValueError) as info:
        GAME.position_from_string(text)
    assert info.value.tag == "Position"
    assert reason in str(info.value), str(info.value)


def test_position_strings_hold_no_record_syntax() -> None:
    pos = GAME.new_position()
    GAME.random_playout(pos, random.Random(7), 400)
    while True:
        text = pos.position_string()
        assert "\n" not in text and not set(text) & set('"{}[]')
        if not pos.move_stack:
            break
        pos.pop()


def _playout(seed: int, max_turns: int = 400) -> list[TinkertownMove]:
    return list(GAME.random_playout(GAME.new_position(), random.Random(seed), max_turns))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.floats(min_value=0, max_value=1))
def test_position_strings_round_trip_and_play_on_in_lockstep(seed: int, where: float) -> None:
    moves = _playout(seed)
    # From the start, any turn in between, or the finished game.
    cut = 0 if where < 0.1 else len(moves) if where > 0.9 else int(where * len(moves))
    pos = GAME.new_position()
    for move in moves[:cut]:
        pos.push(move)
    text = pos.position_string()
    again = GAME.position_from_string(text)
    assert isinstance(again, TinkertownPosition)
    assert again.position_string() == text
    assert snapshot(again)[:-1] == snapshot(pos)[:-1]
    for move in moves[cut:]:
        assert again.legal_moves() == pos.legal_moves()
        assert again.outcome() is None
        pos.push(move)
        again.push(move)
        assert again.position_string() == pos.position_string()
        assert again.last_move_facts() == pos.last_move_facts()
        assert again.annotations() == pos.annotations()
        assert again.board_view() == pos.board_view()
    assert again.outcome() == pos.outcome() and again.legal_moves() == pos.legal_moves()
    for _ in moves[cut:]:
        again.pop()
    assert again.position_string() == text
    with pytest.raises(MisuseError):
        again.pop()


def test_setup_counts_turns_by_the_side_to_move() -> None:
    assert setup({"c3": "w", "h5": "r"}).turn == 0
    assert setup({"c3": "w", "h5": "r"}, to_move=RED).turn == 1
    assert TinkertownPosition.setup({"c3": "w", "h5": "r"}, (), RED, 41).turn == 41
    with pytest.raises(ValueError, match="turn 40 does not fit Red to move"):
        TinkertownPosition.setup({"c3": "w", "h5": "r"}, (), RED, 40)


# ---------------------------------------------------------------------------
# Canonical moves, moves as data, facts of the last move
# ---------------------------------------------------------------------------


def test_canonical_marks_exactly_the_captures() -> None:
    pos = setup({"c2": "w", "c1": "rr", "h5": "r", "b3": "wr", "f6": "w"})
    assert pos.canonical(GAME.parse("c2-c1")) == Move(sq("c2"), sq("c1"), True)
    assert pos.canonical(GAME.parse("c2xc1")) == Move(sq("c2"), sq("c1"), True)
    assert pos.canonical(GAME.parse("b3")) == Drop(sq("b3"), False)  # capacity 4: no capture
    assert pos.canonical(GAME.parse("f6-f5")) == Move(sq("f6"), sq("f5"))
    # A mark where nothing is captured is illegal: such a move comes back as it was.
    assert pos.canonical(GAME.parse("f6xf5")) == Move(sq("f6"), sq("f5"), True)
    start = GAME.new_position()
    assert start.canonical(GAME.parse("d3")) == Drop(sq("d3"))
    assert play("d3").canonical(GAME.parse("d2,b5")) == Resurrection(sq("d2"), sq("b5"))


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_canonical_agrees_with_legal_moves(seed: int) -> None:
    pos = GAME.new_position()
    rng = random.Random(seed)
    while pos.outcome() is None and pos.turn < 200:
        moves = pos.legal_moves()
        before = pos.position_string()
        for move in rng.sample(moves, min(10, len(moves))):
            written = move
            if isinstance(move, Move):
                written = Move(move.origin, move.target, False)
            elif isinstance(move, Drop):
                written = Drop(move.square, False)
            assert pos.canonical(written) == move
            assert pos.canonical(move) == move
        assert pos.position_string() == before
        pos.push(rng.choice(moves))


def test_move_to_dict() -> None:
    assert GAME.move_to_dict(GAME.parse("h3x")) == {"type": "drop", "square": "h3", "marked": True}
    assert GAME.move_to_dict(GAME.parse("d2,b5")) == {
        "type": "resurrection",
        "a": "d2",
        "b": "b5",
        "marked": False,
    }
    assert GAME.move_to_dict(GAME.parse("h5-h3")) == {
        "type": "move",
        "from": "h5",
        "to": "h3",
        "marked": False,
    }
    for move in _playout(3, 120):
        data = GAME.move_to_dict(move)
        assert json.loads(json.dumps(data)) == data


def _facts(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "action": "move",
        "side": "White",
        "zombies": 1,
        "captured": False,
        "tombstone": None,
        "above_capacity": False,
        "stage_over": False,
        "winner": None,
    }
    base.update(changes)
    return base


def test_facts_of_the_resurrection_stage() -> None:
    assert GAME.new_position().last_move_facts() == {}
    assert from_string(C2_END).last_move_facts() == {}
    pos = play("d3")
    assert pos.last_move_facts() == _facts(action="placement")
    pos.push(GAME.parse("d2,b5"))
    assert pos.last_move_facts() == _facts(action="resurrection", side="Red", zombies=2)
    pos = play(*C2_TOKENS)
    assert pos.last_move_facts() == _facts(action="placement", side="Red", stage_over=True)
    pos = play(*ENDS_AFTER_WHITE)
    assert pos.last_move_facts() == _facts(action="placement", stage_over=True)


def test_facts_of_moves_and_entries() -> None:
    # A split: the top 2 of 3 travel 2 graves.
    pos = setup({"c3": "rww", "h5": "r"})
    pos.push(GAME.parse("c3-e3"))
    assert pos.last_move_facts() == _facts(zombies=2)
    # A capture by move: w from c2 onto rr on c1 (capacity 2).
    pos = setup({"c2": "w", "c1": "rr", "h5": "r", "f6": "w"})
    pos.push(GAME.parse("c2-c1"))
    assert pos.last_move_facts() == _facts(
        captured=True, removed={"white": 1, "red": 2}, tombstone="c1"
    )
    # The entry exception, then a capture by entry by the other side.
    pos = from_string(H5_H3)
    pos.push(GAME.parse("h5-h3"))
    assert pos.last_move_facts() == _facts(zombies=2)
    pos.push(GAME.parse("h3"))
    assert pos.last_move_facts() == _facts(action="entry", side="Red", above_capacity=True)
    pos.push(GAME.parse("a5"))
    pos.push(GAME.parse("h3"))
    assert pos.last_move_facts() == _facts(
        action="entry", side="Red", captured=True, removed={"white": 2, "red": 2}, tombstone="h3"
    )
    # A winning move.
    pos = setup({"b2": "ww", "b3": "r"}, to_move=RED)
    pos.push(GAME.parse("b3xb2"))
    assert pos.last_move_facts() == _facts(
        side="Red", captured=True, removed={"white": 2, "red": 1}, tombstone="b2", winner="Red"
    )


# ---------------------------------------------------------------------------
# Annotations
# ---------------------------------------------------------------------------


def test_annotations_of_the_rules_examples() -> None:
    # "eval" is the assessment's (annotate --analyze), not a position's.
    assert {"capture", "stage", "over", "control", "eval"} == GAME.annotation_keys
    assert GAME.new_position().annotations() == []
    assert play("d3", "d2,b5").annotations() == []
    pos = play(*C2_TOKENS)
    assert pos.annotations() == [("stage", "movement"), ("control", "W13 R13")]
    pos = from_string(H5_H3)
    assert pos.annotations() == [("control", "W11 R16")]
    pos.push(GAME.parse("h5-h3"))
    assert pos.annotations() == [("control", "W11 R16")]
    pos.push(GAME.parse("h3"))
    assert pos.annotations() == [("over", "h3"), ("control", "W10 R17")]
    pos.push(GAME.parse("h3x"))
    assert pos.annotations() == [("capture", "h3 3w 1r"), ("control", "W10 R16")]


def test_annotations_list_every_group_above_capacity_in_square_order() -> None:
    # The tombstone on c1 leaves d1 (wrr, capacity 2) above capacity; then Red's
    # entry on www (h4, capacity 3) makes a second such group.
    pos = setup({"c2": "w", "c1": "rr", "d1": "wrr", "h5": "rrw", "h6": "w", "h4": "www"})
    pos.push(GAME.parse("c2-c1"))
    assert pos.annotations() == [
        ("capture", "c1 1w 2r"),
        ("over", "d1"),
        ("control", "W3 R1"),
    ]
    pos.push(GAME.parse("h4"))
    assert pos.annotations() == [("over", "d1 h4"), ("control", "W2 R2")]


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_annotation_values_fit_in_a_comment(seed: int) -> None:
    pos = GAME.new_position()
    for move in _playout(seed):
        pos.push(move)
        for key, value in pos.annotations():
            assert key in GAME.annotation_keys
            assert value and not set(value) & set("[]{}\n")


# ---------------------------------------------------------------------------
# Board views
# ---------------------------------------------------------------------------

ROLES = {"off", "chapel", "grave", "over", "tombstone", "white", "red"}


def _check_view_structure(pos: TinkertownPosition) -> None:
    view = pos.board_view()
    assert view.files == tuple("abcdefgh")
    assert view.ranks == tuple("12345678")
    assert set(view.cells) == set(SQUARE_NAMES)
    for name, cell in view.cells.items():
        s = sq(name)
        assert cell.square == name
        assert cell.role in view.palette
        for token in cell.tokens:
            assert token.role in view.palette and 1 <= len(token.label) <= 2
        if s in OFF_BOARD:
            assert cell.role == "off" and not cell.tokens and not cell.note
        elif s in CHAPEL:
            assert cell.role == "chapel" and not cell.tokens
        elif pos.is_tombstone(s):
            assert cell.role == "tombstone" and not cell.tokens
        else:
            assert cell.role in {"grave", "over"}
            assert "".join(t.label for t in cell.tokens).lower() == pos.stack(s)
            assert cell.note == str(pos.capacity(s))
    assert set(view.palette) == ROLES
    for colour in view.palette.values():
        assert len(colour) == 7 and colour[0] == "#" and int(colour[1:], 16) >= 0
    history = pos.move_stack
    if not history:
        assert view.marks == () and view.caption == ""
    else:
        last = history[-1]
        expected: tuple[str, ...]
        if isinstance(last, Move):
            expected = (SQUARE_NAMES[last.origin], SQUARE_NAMES[last.target])
        elif isinstance(last, Drop):
            expected = (SQUARE_NAMES[last.square],)
        else:
            expected = (SQUARE_NAMES[last.a], SQUARE_NAMES[last.b])
        assert view.marks == expected
        assert view.caption
    json.dumps(view.to_dict())


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_board_views_of_random_games(seed: int) -> None:
    pos = GAME.new_position()
    _check_view_structure(pos)
    for i, move in enumerate(_playout(seed)):
        pos.push(move)
        if i % 7 == 0 or pos.outcome() is not None:
            _check_view_structure(pos)


def test_board_view_of_the_entry_exception() -> None:
    pos = from_string(H5_H3)
    pos.push(GAME.parse("h5-h3"))
    pos.push(GAME.parse("h3"))
    view = pos.board_view()
    h3 = view.cell("h3")
    assert h3.role == "over" and h3.note == "2"
    assert [(t.role, t.label) for t in h3.tokens] == [("white", "W"), ("white", "W"), ("red", "R")]
    assert view.cell("d4").role == "chapel" and view.cell("a1").role == "off"
    assert view.marks == ("h3",)
    assert view.caption == "16... h3: Red entered a zombie; h3 stands above capacity, not captured"
    assert view.facts == (
        ("To move", "White"),
        ("Stage", "movement"),
        ("Turns played", "32"),
        ("White", "10 groups, 17 zombies"),
        ("Red", "17 groups, 20 zombies"),
        ("Tombstones", "0"),
        ("Above capacity", "h3"),
    )
    pos.push(GAME.parse("h3"))
    view = pos.board_view()
    assert view.cell("h3").role == "tombstone" and view.cell("h3").tokens == ()
    assert view.caption == (
        "17. h3x: White entered a zombie; captured on h3: 3 white, 1 red; tombstone"
    )


def test_board_view_captions_and_facts_of_the_resurrection_stage() -> None:
    pos = play("d3")
    assert pos.board_view().caption == "1. d3: White placed a zombie on d3"
    pos.push(GAME.parse("d2,b5"))
    view = pos.board_view()
    assert view.caption == "1... d2,b5: Red placed zombies on d2 and b5"
    assert view.marks == ("d2", "b5")
    assert ("Last placed", "White d3, Red b5") in view.facts
    assert view.facts[:2] == (("To move", "White"), ("Stage", "resurrection"))
    pos = play(*C2_TOKENS)
    assert pos.board_view().caption == (
        "7... c2: Red placed a zombie on c2; the resurrection stage is over, White moves first"
    )


def test_board_view_of_a_won_game() -> None:
    pos = setup({"b2": "ww", "b3": "r"}, to_move=RED)
    pos.push(GAME.parse("b3-b2"))
    view = pos.board_view()
    assert (
        view.caption == "1... b3xb2: Red moved 1 zombie; captured on b2: 2 white, 1 red; "
        "tombstone; Red wins"
    )
    assert view.facts[0] == ("Winner", "Red")
    assert ("White", "0 groups, 0 zombies") in view.facts


# ---------------------------------------------------------------------------
# Assessing moves (annotate --analyze)
# ---------------------------------------------------------------------------


def _assess(pos: TinkertownPosition, token: str) -> tuple[str, str] | None:
    """The glyph and reason the assessment gives ``token``; None for no glyph (the move
    still gets its ``eval``)."""
    before = snapshot(pos)
    found = GAME.assess_move(pos, GAME.parse(token))
    assert snapshot(pos) == before
    if found is None or not found.glyph:
        return None
    return (found.glyph, found.reason)


def test_assess_a_move_that_allows_a_win_at_once() -> None:
    # White merges its two groups into one: Red enters on it and wins.
    pos = setup({"c3": "w", "c4": "w", "h5": "r", "b6": "r"})
    assert _assess(pos, "c3-c4") == ("??", "allows c4, which wins for Red")
    assert _assess(pos, "c3-c2") is None
    # Red's top zombie leaves c1 for c2 and uncovers a white one: Red keeps one
    # group, c2, and White's entry there wins (rr was one-coloured: no capture).
    pos = TinkertownPosition.setup({"c1": "wr", "c2": "r", "f6": "w", "b6": "w"}, (), RED, 61)
    assert _assess(pos, "c1-c2") == ("??", "allows c2, which wins for White")
    # c1-d1 keeps Red two groups: no blunder (a mistake all the same, where an entry
    # on a white group gains two).
    assert _assess(pos, "c1-d1") in (None, ("?", "b6 scores 2.98 groups more (depth 3)"))


def test_assess_a_missed_win_in_one() -> None:
    pos = setup({"c3": "w", "f6": "w", "h5": "r"})
    assert _assess(pos, "b6") == ("?", "misses h5, which wins at once")
    assert _assess(pos, "h5") is None  # the winning move itself
    # Red has one group left, two-coloured at capacity: the entry captures it.
    pos = setup({"c3": "w", "f6": "w", "c1": "wr"})
    assert _assess(pos, "c3-b3") == ("?", "misses c1x, which wins at once")


def test_assess_the_only_move() -> None:
    # Every grave but four has a tombstone.  White controls c6 only; after every
    # move but the entry on d6 Red wins, at once or two moves later.
    graves = {"d7": "r", "c6": "w", "d6": "wr", "e6": "rwr"}
    tombs = tuple(SQUARE_NAMES[g] for g in GRAVES if SQUARE_NAMES[g] not in graves)
    pos = TinkertownPosition.setup(graves, tombs, WHITE, 80)
    assert _assess(pos, "d6") == ("!", "the only move that does not lose")
    # A reply that captures is named with its mark: wrw on d6, capacity 2.
    assert _assess(pos, "c6-d6") == ("??", "allows d6x, which wins for Red")
    assert _assess(pos, "d7") == ("??", "allows d7x, and Red wins in 3 plies")


def test_assess_quiet_positions_and_the_resurrection_stage() -> None:
    pos = from_string(C2_END)
    # The start of the movement stage: no move is far better or worse than another.
    assert all(_assess(pos, str(move)) is None for move in pos.legal_moves()[::4])
    pos = play("d3")
    assert GAME.assess_move(pos, GAME.parse("d2,b5")) is None
    assert GAME.can_assess


def _wins_at_once(pos: TinkertownPosition) -> bool:
    side = pos.side_to_move
    for move in pos.legal_moves():
        pos.push(move)
        won = pos.winner == side
        pos.pop()
        if won:
            return True
    return False


def _wins_within_three(pos: TinkertownPosition, move: TinkertownMove) -> bool:
    """Whether ``move`` wins at once, or every reply lets the mover win at once (the
    winner_move test, exact, stands in for a loop over the mover's moves)."""
    side = pos.side_to_move
    pos.push(move)
    try:
        if pos.winner is not None:
            return pos.winner == side
        for reply in pos.legal_moves():
            pos.push(reply)
            lost = pos.winner is not None or pos.winning_move() is None
            pos.pop()
            if lost:
                return False
        return True
    finally:
        pos.pop()


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_assess_agrees_with_brute_force_in_endgames(seed: int) -> None:
    # What brute force decides about a move, the search (3 plies) must say too: a
    # move that wins in 3 plies is never a mistake; a move that does not, where a win
    # at once was there, is "?" (or "??" if it also lets the opponent win at once); a
    # move that lets the opponent win at once is "??" unless every move loses (then
    # no move is marked).
    rng = random.Random(seed)
    pos = GAME.new_position()
    checked = 0
    while pos.outcome() is None and pos.turn < 400 and checked < 6:
        moves = pos.legal_moves()
        few = min(pos.group_count(WHITE), pos.group_count(RED)) <= 3
        if pos.stage == MOVEMENT and few:
            checked += 1
            can_win = pos.winning_move() is not None
            for move in rng.sample(moves, min(8, len(moves))):
                found = GAME.assess_move(pos, move)
                assert found is not None
                if _wins_within_three(pos, move):
                    assert found.glyph not in ("?", "??")
                elif can_win:
                    assert found.glyph in ("?", "??")
                else:
                    pos.push(move)
                    allows = _wins_at_once(pos)
                    pos.pop()
                    if allows:
                        assert found.glyph in ("??", "")
        captures = [m for m in moves if getattr(m, "marked", False)]
        pos.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))


def test_assessing_a_long_game_leaves_every_position_as_it_was() -> None:
    # Speed is measured by the benchmarks, not here (no timed assertions in tests).
    moves = _playout(11, 300)
    pos = GAME.new_position()
    for move in moves:
        before = pos.position_string()
        GAME.assess_move(pos, move)
        assert pos.position_string() == before
        pos.push(move)


# ---------------------------------------------------------------------------
# Records that start from a position
# ---------------------------------------------------------------------------


def test_position_records_are_valid() -> None:
    records = list(read_file(RECORDS / "positions.ugn"))
    assert len(records) >= 4
    for record in records:
        tags = record.tag_dict
        assert tags["Game"] == "tinkertown" and "Position" in tags
        assert {"Event", "White", "Red", "Result"} <= tags.keys()
        assert tags["Source"].startswith("composed for the notation toolkit")
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert verdict.result == tags["Result"]
    assert records[1].tag("Position") == C2_END
    assert records[2].tag("Position") == H5_H3


def test_a_bad_position_tag_is_a_syntax_error_at_the_tag() -> None:
    text = '[Game "tinkertown"]\n[Position "4/6/8/3##3/3##3/8/6/4 w movement -,- 0"]\n\n1. d3 *\n'
    (record,) = read_string(text)
    error = check_record(record).error
    assert error is not None and error.kind == "syntax" and error.line == 2
    assert "empty cemetery" in error.message


def test_new_position_honours_a_position_tag() -> None:
    # It used to ignore the tag and return the empty cemetery.
    pos = GAME.new_position({"Game": "tinkertown", "Position": H5_H3})
    assert pos.position_string() == H5_H3 and pos.turn == 30 and pos.stage == MOVEMENT
    pos.push(GAME.parse("h5-h3"))
    assert pos.turn == 31
    with pytest.raises(TagValueError, match="bad position string"):
        GAME.new_position({"Position": "4/6/8 w"})
    assert GAME.new_position({"Game": "tinkertown"}).position_string() == (
        "4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0"
    )


def test_a_side_that_lost_its_last_group_loses_at_the_next_action_unless_uncovered() -> None:
    # White's entry on c1 captures the group there, White's last one; Red still has
    # d1 (with a White zombie under it) and h5.  The game is not over: Red moves next.
    pos = setup({"c1": "rw", "d1": "wr", "h5": "r"})
    pos.push(GAME.parse("c1x"))
    assert pos.group_count(WHITE) == 0 and pos.outcome() is None and pos.mover == "Red"
    # Any action of Red that does not uncover a White zombie wins at once: White
    # never gets the "next turn" to enter a zombie.
    for token in ("h5-h4", "e3"):
        probe = pos.copy()
        probe.push(GAME.parse(token))
        assert probe.outcome() == "0-1" and probe.legal_moves() == []
    # Moving the Red zombie off d1 uncovers White's zombie: White controls a group
    # again and the game goes on.
    pos.push(GAME.parse("d1-e1"))
    assert pos.outcome() is None and pos.group_count(WHITE) == 1 and pos.mover == "White"
    doc = (ROOT / "docs" / "tinkertown.md").read_text(encoding="utf-8")
    assert "may enter a zombie on his next turn" not in doc
    assert "uncovers" in doc


def _cli(*args: str, stdin: str | None = None) -> tuple[int, str]:
    from click.testing import CliRunner

    from notation.cli import cli

    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_game_option_takes_every_name_and_alias_that_notation_games_lists() -> None:
    code, listing = _cli("games")
    assert code == 0 and "tinkertown-cemetery" in listing
    # Every word of the listing that names a game: names, then "(also: a, b)".
    spellings = [
        word.strip("(),")
        for line in listing.splitlines()
        for word in [line.split()[0], *line.partition("(also:")[2].split()]
    ]
    assert {"tinkertown", "tinkertown-cemetery", "cemetery", "zombiekidz"} <= set(spellings)
    for spelling in spellings:
        for written in (spelling, spelling.upper()):
            code, out = _cli("check", "--game", written, "-", stdin="*\n")
            assert code == 0, (written, out)
    code, out = _cli("check", "--game", "Tinkertown-Cemetery", "-", stdin="1. d3 d2,b5 *\n")
    assert code == 0 and "1 valid" in out


def test_a_misspelt_game_name_gets_the_nearest_one_suggested() -> None:
    code, out = _cli("check", "--game", "tinkertwn", "-", stdin="*\n")
    assert code == 2 and "Did you mean 'tinkertown'?" in out
    code, out = _cli("generate", "--game", "cemetary")
    assert code == 2 and "Did you mean 'cemetery'?" in out
    code, out = _cli("check", "--game", "chess", "-", stdin="*\n")
    assert code == 2 and "Did you mean" not in out
    # The same in a record's Game tag.
    record = read_string('[Game "tinkertwn"]\n\n1. d3 *\n')[0]
    error = check_record(record).error
    assert error is not None and "did you mean 'tinkertown'?" in error.message
    assert (error.line, error.column) == (1, 1)


def test_generate_says_and_checks_the_players_of_each_game() -> None:
    code, help_text = _cli("generate", "--help")
    players = " ".join(help_text.partition("--players")[2].partition("--max-turns")[0].split())
    assert code == 0 and "tinkertown 2" in players and "x>=1" not in players
    code, out = _cli("generate", "--game", "tinkertown", "--players", "3")
    assert code == 2 and "Tinkertown Cemetery is played by 2 players, not 3" in out
    code, out = _cli("generate", "--game", "tinkertown", "--players", "2", "--max-turns", "4")
    assert code == 0 and '[Game "tinkertown"]' in out
    assert GAME.player_range() == (2, 2) and GAME.setup_tags(2) == []
