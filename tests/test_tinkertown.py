"""Tinkertown Cemetery: board, notation, every rule and ruling of RULINGS.md section 1.

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

from notation.errors import IllegalMoveError, MoveSyntaxError
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
from notation.reader import read_file
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
        move.src = 3  # type: ignore[misc]
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
    pos = setup({"c3": "rw", "h5": "w"}, to_move=RED)
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
    pos = setup({"c1": "wr", "h5": "r"})
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
    assert refused(pos, "c3") == "the game is over: Red won at turn 1"


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
    assert pos.mover == "Red" and pos.turn == 0 and pos.stage == MOVEMENT
    assert pos.round_size == 2
    with pytest.raises(ValueError, match="not a grave"):
        setup({"d4": "w"})
    with pytest.raises(ValueError, match="tombstone"):
        setup({"c1": "w"}, ("c1",))
    with pytest.raises(ValueError, match="only w and r"):
        setup({"c1": "wx"})


def test_diagram() -> None:
    pos = setup({"c1": "wr"}, ("d1",))
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
    records = list(read_file(RECORDS / "examples.txt"))
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
            k = len(PATHS[move.src * 64 + move.dst] or ())
            if k < len(pos.stack(move.src)):
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
    records = list(read_file(RECORDS / "broken.txt"))
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
        return Move(move.src, move.dst, True) in legal
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
