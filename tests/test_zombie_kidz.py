"""Zombie Kidz: notation, every rule and ruling of docs/zombie-kidz.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games import get_game
from notation.games.view import Token
from notation.games.zombie_kidz import (
    CENTRE,
    DICE,
    GATE_NAMES,
    GATES,
    NEIGHBOURS_MANY,
    NEIGHBOURS_TWO,
    PALETTE,
    PATHS_BOTH_SIDES,
    PATHS_TWO_PLAYER_SIDE,
    TOMB_COLOURS,
    ZONE_INDEX,
    ZONE_NAMES,
    ZombieKidzGame,
    ZombieKidzMove,
    ZombieKidzPosition,
)

GAME = ZombieKidzGame()

State = tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...], int, int, str | None]


def play(moves: str = "", players: int = 2, zombies: int = 8) -> ZombieKidzPosition:
    """A position reached by pushing ``moves`` (space-separated tokens) from the start."""
    pos = GAME.new_position({"Players": str(players), "Zombies": str(zombies)})
    for text in moves.split():
        pos.push(GAME.parse(text))
    return pos


def state(pos: ZombieKidzPosition) -> State:
    return (
        tuple(pos.zombies_on(z) for z in ZONE_NAMES),
        tuple(pos.pawn_zone(p) for p in range(1, pos.players + 1)),
        pos.locked_gates,
        pos.reserve,
        pos.turn,
        pos.outcome(),
    )


def illegal(pos: ZombieKidzPosition, text: str) -> str:
    """Push ``text``, expect IllegalMoveError, check the position is unchanged; the message."""
    before = state(pos)
    with pytest.raises(IllegalMoveError) as info:
        pos.push(GAME.parse(text))
    assert state(pos) == before
    return str(info.value)


def names(zones: frozenset[int]) -> set[str]:
    return {ZONE_NAMES[z] for z in zones}


# -- the board -------------------------------------------------------------------------


def test_nine_zones_five_tombs_four_gates() -> None:
    assert ZONE_NAMES == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    assert TOMB_COLOURS == {
        "b2": "red",
        "b3": "yellow",
        "c2": "green",
        "b1": "black",
        "a2": "blue",
    }
    assert set(GATE_NAMES) == {"a1", "c1", "a3", "c3"}
    assert set(TOMB_COLOURS).isdisjoint(GATE_NAMES)


def test_paths_of_the_three_and_four_player_side() -> None:
    assert names(NEIGHBOURS_MANY[CENTRE]) == {"b1", "a2", "c2", "b3"}
    assert names(NEIGHBOURS_MANY[ZONE_INDEX["a1"]]) == {"a2", "b1"}
    assert names(NEIGHBOURS_MANY[ZONE_INDEX["c3"]]) == {"b3", "c2"}
    assert names(NEIGHBOURS_MANY[ZONE_INDEX["b3"]]) == {"b2", "a3", "c3"}
    assert sum(len(n) for n in NEIGHBOURS_MANY) == 2 * 12


def test_the_two_player_side_adds_four_diagonals() -> None:
    assert names(NEIGHBOURS_TWO[ZONE_INDEX["b3"]]) == {"b2", "a3", "c3", "a2", "c2"}
    assert names(NEIGHBOURS_TWO[ZONE_INDEX["b1"]]) == {"b2", "a1", "c1", "a2", "c2"}
    assert sum(len(n) for n in NEIGHBOURS_TWO) == 2 * 16
    for zone in range(9):
        assert NEIGHBOURS_MANY[zone] <= NEIGHBOURS_TWO[zone]
        assert (zone in NEIGHBOURS_TWO[zone]) is False


def test_gates_never_touch_the_centre() -> None:
    for table in (NEIGHBOURS_MANY, NEIGHBOURS_TWO):
        assert not table[CENTRE] & GATES
        for gate in GATES:
            assert CENTRE not in table[gate]


# -- the notation ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move", "canonical"),
    [
        ("Y", ZombieKidzMove("Y"), "Y"),
        ("w", ZombieKidzMove("W"), "W"),
        ("Rx", ZombieKidzMove("R", eliminated=True), "Rx"),
        ("K:b2-b1", ZombieKidzMove("K", 4, 1), "K:b2-b1"),
        ("k:B2-B1X", ZombieKidzMove("K", 4, 1, eliminated=True), "K:b2-b1x"),
        ("K:b1", ZombieKidzMove("K", None, 1), "K:b1"),
        ("B:b2-a2", ZombieKidzMove("B", 4, 3), "B:b2-a2"),
        ("b:a2-a1l", ZombieKidzMove("B", 3, 0, locked=True), "B:a2-a1L"),
        ("W:a2-a1L", ZombieKidzMove("W", 3, 0, locked=True), "W:a2-a1L"),
        ("Y:b3xL", ZombieKidzMove("Y", None, 7, True, True), "Y:b3xL"),
        ("YXL", ZombieKidzMove("Y", None, None, True, True), "YxL"),
        ("BL", ZombieKidzMove("B", locked=True), "BL"),
    ],
)
def test_parse_and_write(text: str, move: ZombieKidzMove, canonical: str) -> None:
    assert GAME.parse(text) == move
    assert str(move) == canonical
    assert GAME.parse(canonical) == move


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("K:d4", "d4 is not a zone"),
        ("K:b2-a4", "a4 is not a zone"),
        ("W:b0", "b0 is not a zone"),
        ("Q", "Q is not a die letter"),
        ("L:a2-a1", "L is not a die letter"),
        ("K:a3-c3-c2", "more than two zones"),
        ("b1", "starts with a zone"),
        ("K:", "stops short"),
        ("K:b2-", "stops short"),
        ("Kxx", "cannot stand"),
        ("Y:b3Lx", "cannot stand"),
        ("K b1", "cannot stand"),
        ("", "stops short"),
    ],
)
def test_malformed_moves_are_syntax_errors(text: str, fact: str) -> None:
    with pytest.raises(MoveSyntaxError, match=fact):
        GAME.parse_move(text)


def test_die_letters_name_colours() -> None:
    assert [GAME.parse(d).colour for d in DICE] == [
        "red",
        "yellow",
        "green",
        "black",
        "blue",
        "white",
    ]
    with pytest.raises(ValueError, match="not a die letter"):
        play().legal_moves_for_roll("Q")


def test_registered_under_its_name_and_alias() -> None:
    assert get_game("zombie-kidz").name == "zombie-kidz"
    assert get_game("zombiekidz").name == "zombie-kidz"
    assert get_game("zombie-kidz").allows_result("1-0")
    assert get_game("zombie-kidz").allows_result("0-1")
    assert not get_game("zombie-kidz").allows_result("1/2-1/2")


# -- tags and setup --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "side"), [(2, NEIGHBOURS_TWO), (3, NEIGHBOURS_MANY)])
def test_players_tag_sets_round_size_and_side(
    players: int, side: tuple[frozenset[int], ...]
) -> None:
    pos = GAME.new_position({"Players": str(players)})
    assert pos.round_size == players
    assert pos.legal_moves_for_roll("W") == [
        ZombieKidzMove("W", None, None),
        *(ZombieKidzMove("W", CENTRE, d) for d in sorted(side[CENTRE])),
    ]
    # b2-b3 then b3-a2: the diagonal is legal only on the 2-player side.
    pos.push(GAME.parse("W:b2-b3"))
    for _ in range(players - 1):
        pos.push(GAME.parse("W"))
    assert pos.is_legal(GAME.parse("W:b3-a2")) is (players == 2)


def test_defaults_are_two_players_and_eight_zombies() -> None:
    pos = GAME.new_position({})
    assert (pos.players, pos.zombie_total, pos.reserve, pos.round_size) == (2, 8, 4, 2)
    assert GAME.new_position(None).players == 2


@pytest.mark.parametrize(
    ("tags", "tag"),
    [
        ({"Players": "1"}, "Players"),
        ({"Players": "5"}, "Players"),
        ({"Players": "two"}, "Players"),
        ({"Players": ""}, "Players"),
        ({"Zombies": "6"}, "Zombies"),
        ({"Zombies": "9"}, "Zombies"),
        ({"Players": "3", "Zombies": "seven"}, "Zombies"),
    ],
)
def test_bad_tag_values(tags: dict[str, str], tag: str) -> None:
    with pytest.raises(TagValueError) as info:
        GAME.new_position(tags)
    assert info.value.tag == tag


def test_setup_tags() -> None:
    assert GAME.setup_tags() == [("Players", "2")]
    assert GAME.setup_tags(4) == [("Players", "4")]
    for bad in (1, 5):
        with pytest.raises(TagValueError):
            GAME.setup_tags(bad)


@pytest.mark.parametrize(("zombies", "reserve"), [(8, 4), (7, 3)])
def test_setup_one_zombie_per_gate_rest_in_reserve(zombies: int, reserve: int) -> None:
    pos = play(players=4, zombies=zombies)
    assert pos.reserve == reserve
    for zone in ZONE_NAMES:
        assert pos.zombies_on(zone) == (1 if zone in GATE_NAMES else 0)
    assert [pos.pawn_zone(p) for p in (1, 2, 3, 4)] == ["b2"] * 4
    assert pos.locked_gates == ()
    assert (pos.turn, pos.outcome()) == (0, None)


def test_players_take_turns_in_fixed_order_player_one_first() -> None:
    pos = play(players=3)
    seen = []
    for _ in range(7):
        seen.append(pos.mover)
        pos.push(GAME.parse("W"))
    assert seen == ["player 1", "player 2", "player 3"] * 2 + ["player 1"]


# -- 1. the roll -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "tomb"), [("R", "b2"), ("Y", "b3"), ("G", "c2"), ("K", "b1"), ("B", "a2")]
)
def test_a_colour_puts_a_zombie_on_its_tomb(die: str, tomb: str) -> None:
    # Player 1 on b1 rolls, then steps to the gate c1, away from every tomb.
    pos = play("W:b2-b1 W:b2-a2")
    pos.push(GAME.parse(f"{die}:b1-c1x"))
    for zone in TOMB_COLOURS:
        assert pos.zombies_on(zone) == (1 if zone == tomb else 0)
    assert pos.reserve == 4 - 1 + 1  # one placed, the c1 gate zombie back


def test_white_adds_nothing() -> None:
    pos = play("W W")
    assert sum(pos.zombies_on(z) for z in ZONE_NAMES) == 4
    assert pos.reserve == 4


def test_empty_reserve_at_a_colour_roll_loses() -> None:
    # 7 zombies: 3 in the reserve; three placements empty it.
    pos = play("R:b2-b1 K:b2-a2 Y:b1-c2", zombies=7)
    assert pos.reserve == 0
    assert pos.legal_moves_for_roll("G") == [ZombieKidzMove("G")]
    assert "reserve is empty" in illegal(pos, "G:a2-b2")
    assert "die letter alone (G)" in illegal(pos, "Gx")
    pos.push(GAME.parse("G"))
    assert pos.outcome() == "0-1"
    assert pos.end_reason == "the reserve is empty"
    assert pos.turn == 4


def test_white_with_an_empty_reserve_goes_on() -> None:
    pos = play("R:b2-b1 K:b2-a2 Y:b1-c2 W", zombies=7)
    assert pos.outcome() is None


def test_a_pawn_with_three_zombies_loses_even_if_not_the_mover() -> None:
    # Players 1-3 leave b2, player 4 stays there; three reds follow on turns 5-7.
    pos = play("W:b2-a2 W:b2-c2 W:b2-b3 W R R", players=4)
    assert (pos.zombies_on("b2"), pos.pawn_zone(4), pos.mover) == (2, "b2", "player 3")
    message = illegal(pos, "R:b3-a3x")
    assert message == (
        "player 4 stands on b2, which now holds 3 zombies: the zombies win at this roll, "
        "so the turn is the die letter alone (R)"
    )
    assert pos.legal_moves_for_roll("R") == [ZombieKidzMove("R")]
    pos.push(GAME.parse("R"))
    assert (pos.outcome(), pos.zombies_on("b2"), pos.turn) == ("0-1", 3, 7)


def test_the_mover_on_a_full_zone_loses_too() -> None:
    pos = play("W:b2-a2 W:b2-c2 W R R", players=3)
    # Player 3 stayed on b2 on turn 3; b2 got two reds; now player 3 rolls red.
    assert (pos.zombies_on("b2"), pos.mover) == (2, "player 3")
    assert "player 3 stands on b2, which now holds 3 zombies" in illegal(pos, "R:b2-b1")
    pos.push(GAME.parse("R"))
    assert pos.outcome() == "0-1"


def test_three_zombies_on_an_empty_tomb_do_not_lose() -> None:
    pos = play("Y Y:b2-a2 Y:b2-c2", players=3)
    assert pos.zombies_on("b3") == 3
    assert pos.outcome() is None


# -- 2. the step -----------------------------------------------------------------------


def test_the_pawn_may_stay_or_step_along_a_path() -> None:
    pos = play("W")
    assert pos.pawn_zone(1) == "b2"
    pos = play("W:b2-b1 W:b2-a2 W:b1-c1")
    assert (pos.pawn_zone(1), pos.pawn_zone(2)) == ("c1", "a2")


def test_short_form_steps_from_the_mover_zone() -> None:
    pos = play("K:b1 W:a2 W:c1x")
    assert (pos.pawn_zone(1), pos.pawn_zone(2)) == ("c1", "a2")


def test_no_step_off_the_paths() -> None:
    assert illegal(play(players=3), "W:b2-a1") == (
        "b2-a1 is not one step: gates never touch the centre; "
        "the paths from b2 lead to b1, a2, c2 and b3"
    )
    pos = play("W:b2-b1 W W", players=3)
    assert illegal(pos, "W:c3") == (
        "b1-c3 is not one step: the paths from b1 lead to a1, c1 and b2"
    )
    pos = play("W:b2-b1 W")
    assert illegal(pos, "W:b1-b3") == (
        "b1-b3 is not one step: the paths from b1 lead to a1, c1, a2, b2 and c2"
    )


def test_diagonals_only_on_the_two_player_side() -> None:
    pos = play("W:b2-a2 W W", players=3)
    assert illegal(pos, "W:a2-b3") == "a2-b3 is a path only on the 2-player side"
    pos = play("W:b2-a2 W")
    pos.push(GAME.parse("W:a2-b3"))
    assert pos.pawn_zone(1) == "b3"


def test_wrong_from_zone_is_illegal() -> None:
    pos = play("W:b2-a2")
    assert illegal(play("W:b2-a2 W:b2-c2"), "W:b2-b3") == "player 1 is on a2, not b2"
    assert illegal(pos, "W:a2-b1") == "player 2 is on b2, not a2"


def test_ruling_a_step_to_the_own_zone_is_not_a_stay() -> None:
    pos = play()
    assert "to stay, write the die letter alone (K)" in illegal(pos, "K:b2")
    assert "to stay, write the die letter alone (K)" in illegal(pos, "K:b2-b2")


def test_no_pawn_enters_a_zone_with_three_zombies() -> None:
    pos = play("Y Y:b2-a2 Y:b2-c2", players=3)
    assert illegal(pos, "W:b2-b3") == "b3 holds 3 zombies; no pawn may enter"
    assert ZombieKidzMove("W", 4, 7) not in pos.legal_moves()


def test_the_zombie_just_placed_counts_against_entering() -> None:
    pos = play("Y:b2-a2 Y:b2-c2", players=3)
    assert pos.zombies_on("b3") == 2
    # Player 3, on b2, rolls yellow: b3 now holds 3 and is closed.
    assert illegal(pos, "Y:b2-b3") == "b3 holds 3 zombies; no pawn may enter"
    assert all(m.target != ZONE_INDEX["b3"] for m in pos.legal_moves_for_roll("Y"))
    # With any other roll b3 holds 2: the pawn may enter and clears it.
    pos.push(GAME.parse("W:b2-b3x"))
    assert (pos.zombies_on("b3"), pos.reserve) == (0, 4)


# -- 3. elimination (ruling) -----------------------------------------------------------


def test_elimination_is_automatic_and_returns_zombies_to_the_reserve() -> None:
    pos = play("K:b2-b1")  # no x written: the zombie on b1 goes anyway
    assert pos.zombies_on("b1") == 0
    assert pos.reserve == 4
    pos = play("W:b2-b1 W:b2-a2 W:b1-a1")
    assert (pos.zombies_on("a1"), pos.reserve) == (0, 5)


def test_elimination_of_two_zombies_and_by_staying() -> None:
    pos = play("R:b2-a2 R", players=2)
    # Player 2 stayed on b2, which held 2 zombies after the roll.
    assert pos.zombies_on("b2") == 0
    assert pos.reserve == 4


def test_only_the_mover_zone_is_cleared() -> None:
    pos = play("R:b2-a2", players=3)
    assert pos.zombies_on("b2") == 1  # players 2 and 3 stand there, but did not move yet
    pos.push(GAME.parse("W:b2-b1"))
    assert pos.zombies_on("b2") == 1


def test_no_zombie_left_the_players_win() -> None:
    pos = play("W:b2-a2 W:b2-b1 W:a2-a1x W:b1-c1x W:a1-a2 W:c1-c2 W:a2-a3x W:c2-c3x")
    assert pos.outcome() == "1-0"
    assert pos.end_reason == "no zombie is left on the board"
    assert pos.turn == 8
    assert pos.legal_moves() == []
    assert (
        illegal(pos, "W")
        == "the game is over: the players won at turn 8 (no zombie is left on the board)"
    )


# -- 4. locking (ruling) ---------------------------------------------------------------


def test_a_gate_is_locked_when_a_second_pawn_is_on_it() -> None:
    pos = play("W:b2-b1 W:b2-b1 W:b1-a1x")
    assert not pos.is_locked("a1")  # alone on a1
    pos.push(GAME.parse("W:b1-a1"))  # no L written: locked anyway
    assert pos.locked_gates == ("a1",)


def test_a_locked_gate_stays_locked_and_is_not_locked_twice() -> None:
    pos = play("W:b2-b1 W:b2-b1 W:b1-a1x W:b1-a1L W:a1-b1 W:a1-b1 W:b1-a1")
    assert illegal(pos, "W:b1-a1L") == "a1 was locked before this turn: remove the L"
    pos.push(GAME.parse("W:b1-a1"))
    assert pos.locked_gates == ("a1",)


def test_four_locked_gates_the_players_win() -> None:
    pos = play(
        "R:b2-a2 G:b2-a2 K:a2-a1x Y:a2-a1L B:a1-b1x W:a1-b1 W:b1-c1x R:b1-c1L "
        "G:c1-c2x Y:c1-c2 W:c2-c3x K:c2-c3L W:c3-b3x B:c3-b3 W:b3-a3x"
    )
    assert pos.locked_gates == ("a1", "c1", "c3")
    assert pos.outcome() is None
    pos.push(GAME.parse("G:b3-a3L"))
    assert pos.outcome() == "1-0"
    assert pos.end_reason == "all 4 gates are locked"
    assert "the players won at turn 16" in illegal(pos, "W")


# -- marks -----------------------------------------------------------------------------


def test_x_without_elimination_is_illegal() -> None:
    assert (
        illegal(play(), "W:b2-b1x")
        == "no zombie is eliminated on b1 (0 zombies there): remove the x"
    )
    assert illegal(play(), "Yx") == "no zombie is eliminated on b2 (0 zombies there): remove the x"


def test_l_without_a_lock_is_illegal() -> None:
    assert illegal(play(), "BL") == "b2 is a tomb, not a gate, so nothing is locked: remove the L"
    pos = play("W:b2-b1 W")
    assert illegal(pos, "W:b1-a1xL") == "no other pawn is on a1, so it is not locked: remove the L"


def test_x_and_l_never_apply_together() -> None:
    # A pawn clears a gate when it arrives and no roll puts a zombie on a gate, so a gate
    # with another pawn on it is empty: xL is well formed but never legal.
    pos = play("W:b2-b1 W:b2-b1 W:b1-a1x")
    assert pos.is_legal(GAME.parse("W:b1-a1L"))
    assert "no zombie is eliminated on a1" in illegal(pos, "W:b1-a1xL")
    for seed in range(100):
        game = GAME.new_position({"Players": str(2 + seed % 3)})
        for move in GAME.random_playout(game, random.Random(seed), 1000):
            assert not (move.eliminated and move.locked)


def test_missing_marks_are_accepted() -> None:
    pos = play("K:b2-b1 W:b2-b1 W:b1-a1 W:b1-a1")
    assert pos.locked_gates == ("a1",)
    assert pos.zombies_on("a1") == 0


# -- end of the game -------------------------------------------------------------------


def test_outcome_and_moves_after_the_end() -> None:
    pos = play("R:b2-b1 K:b2-a2 Y:b1-c2 G", zombies=7)
    assert pos.outcome() == "0-1"
    assert pos.legal_moves() == []
    assert pos.legal_moves_for_roll("W") == []
    message = illegal(pos, "W")
    assert message == "the game is over: the zombies won at turn 4 (the reserve is empty)"


def test_pop_undoes_a_losing_roll() -> None:
    pos = play("R:b2-b1 K:b2-a2 Y:b1-c2", zombies=7)
    before = state(pos)
    pos.push(GAME.parse("G"))
    assert pos.pop() == GAME.parse("G")
    assert state(pos) == before


# -- legal moves -----------------------------------------------------------------------


def test_legal_moves_cover_every_face_with_exact_marks() -> None:
    pos = play(players=3)
    moves = pos.legal_moves()
    assert [m.die for m in moves] == [d for d in DICE for _ in range(5)]
    assert ZombieKidzMove("R", None, None, eliminated=True) in moves  # red on b2, stay
    assert ZombieKidzMove("K", 4, 1, eliminated=True) in moves
    assert ZombieKidzMove("K", 4, 3) in moves
    assert ZombieKidzMove("W", None, None) in moves
    for die in DICE:
        dests = [m.target for m in pos.legal_moves_for_roll(die)]
        assert len(dests) == len(set(dests))  # one move per destination


def test_legal_moves_mark_locks() -> None:
    pos = play("W:b2-b1 W:b2-b1 W:b1-a1x")
    assert ZombieKidzMove("W", 1, 0, locked=True) in pos.legal_moves()


def test_canonical_form_of_a_relaxed_move() -> None:
    pos = play()
    assert pos.canonical(GAME.parse("k:b1")) == GAME.parse("K:b2-b1x")
    assert pos.canonical(GAME.parse("R")) == GAME.parse("Rx")
    with pytest.raises(IllegalMoveError):
        pos.canonical(GAME.parse("W:a1"))


# -- push / pop / copy / diagram -------------------------------------------------------


def test_pop_restores_every_detail() -> None:
    pos = play(players=2)
    history = []
    texts = "R:b2-a2 G:b2-a2 K:a2-a1x Y:a2-a1L B:a1-b1x W:a1-b1 W:b1-c1x R:b1-c1L"
    for text in texts.split():
        history.append(state(pos))
        pos.push(GAME.parse(text))
    for text in reversed(texts.split()):
        assert str(pos.pop()) == text
        assert state(pos) == history.pop()


def test_copy_is_independent() -> None:
    pos = play("K:b2-b1x")
    other = pos.copy()
    other.push(GAME.parse("W:b2-a2"))
    assert (pos.turn, pos.pawn_zone(2)) == (1, "b2")
    assert (other.turn, other.pawn_zone(2)) == (2, "a2")
    assert str(other.pop()) == "W:b2-a2"
    assert str(other.pop()) == "K:b2-b1x"


def test_diagram_shows_zombies_pawns_locks_reserve_and_mover() -> None:
    pos = play("W:b2-b1 W:b2-b1 W:b1-a1x W:b1-a1L R", players=2)
    text = pos.diagram()
    assert "gate Z0" in text and "P1 P2 locked" in text
    assert "red Z1" in text
    assert "reserve 4 of 8" in text and "locked 1 of 4" in text and "2-player side" in text
    assert "turn 6: player 2 to roll" in text
    over = play("R:b2-b1 K:b2-a2 Y:b1-c2 G", zombies=7).diagram()
    assert "game over at turn 4: the zombies win (the reserve is empty) 0-1" in over


def test_random_playout_is_seeded_and_legal() -> None:
    first = GAME.random_playout(GAME.new_position({"Players": "3"}), random.Random(7), 1000)
    again = GAME.random_playout(GAME.new_position({"Players": "3"}), random.Random(7), 1000)
    assert first == again
    pos = GAME.new_position({"Players": "3"})
    for move in first:
        pos.push(GAME.parse(str(move)))
    assert pos.outcome() in ("1-0", "0-1")
    short = GAME.new_position({"Players": "4"})
    assert len(GAME.random_playout(short, random.Random(1), 2)) == 2


def test_two_players_never_lose_to_a_full_zone() -> None:
    # A consequence of the rules worth keeping an eye on: with two players a pawn's zone
    # is cleared on each of its turns and gets at most 2 zombies before the next one.
    for seed in range(200):
        pos = GAME.new_position({"Players": "2"})
        GAME.random_playout(pos, random.Random(seed), 1000)
        assert pos.end_reason is not None
        assert "stands on" not in pos.end_reason


# -- properties ------------------------------------------------------------------------


def relaxed_forms(move: ZombieKidzMove) -> set[ZombieKidzMove]:
    """The same turn written the accepted other ways: short form, marks left out."""
    forms = set()
    for origin in {move.origin, None}:
        for x in {move.eliminated, False}:
            for lock in {move.locked, False}:
                forms.add(ZombieKidzMove(move.die, origin, move.target, x, lock))
    return forms


# A move names an origin only with a target (a pawn that stays has neither): the
# constructor refuses anything else, so the origin is dropped where there is no target.
well_formed_moves = st.builds(
    lambda die, origin, target, eliminated, locked: ZombieKidzMove(
        die, origin if target is not None else None, target, eliminated, locked
    ),
    die=st.sampled_from(DICE),
    origin=st.none() | st.integers(0, 8),
    target=st.none() | st.integers(0, 8),
    eliminated=st.booleans(),
    locked=st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    zombies=st.sampled_from([7, 8]),
    probes=st.lists(well_formed_moves, min_size=1, max_size=4),
)
def test_random_games_round_trip_and_reject_the_rest(
    seed: int, players: int, zombies: int, probes: list[ZombieKidzMove]
) -> None:
    rng = random.Random(seed)
    pos = play(players=players, zombies=zombies)
    while pos.outcome() is None and pos.turn < 300:
        legal = pos.legal_moves()
        assert legal
        accepted = set()
        for move in legal:
            text = str(move)
            assert GAME.parse(text) == move
            assert GAME.parse(text.lower()) == move
            assert pos.is_legal(move), (text, pos.diagram())
            accepted |= relaxed_forms(move)
        for probe in probes:
            assert pos.is_legal(probe) is (probe in accepted), (str(probe), pos.diagram())
            assert GAME.parse(str(probe)) == probe
        move = rng.choice(pos.legal_moves_for_roll(rng.choice(DICE)))
        snapshot = state(pos)
        pos.push(move)
        pos.pop()
        assert state(pos) == snapshot
        pos.push(move)
    assert pos.legal_moves() == [] or pos.turn >= 300


# -- position strings ------------------------------------------------------------------

START_2_8 = "101/000/101 b2,b2 - 4/8 2 1 0"
LOCK_WIN = "R:b2-a2 G:b2-a2 K:a2-a1x Y:a2-a1L B:a1-b1x W:a1-b1 W:b1-c1x R:b1-c1L"
LOCK_WIN += " G:c1-c2x Y:c1-c2 W:c2-c3x K:c2-c3L W:c3-b3x B:c3-b3 W:b3-a3x G:b3-a3L"
#: Player 3 stands on b2 with two zombies and is to roll (4 players).
ONE_RED_FROM_LOSING = "001/022/100 b1,b3,b2,b1 a3 2/8 4 3 18"
#: The reserve is empty; player 2 is to roll (2 players, 7 zombies).
EMPTY_RESERVE = "000/040/021 a2,c3 - 0/7 2 2 11"


def from_string(text: str, tags: dict[str, str] | None = None) -> ZombieKidzPosition:
    return GAME.position_from_string(text, tags)


@pytest.mark.parametrize(
    ("players", "zombies", "text"),
    [
        (2, 8, START_2_8),
        (3, 7, "101/000/101 b2,b2,b2 - 3/7 3 1 0"),
        (4, 8, "101/000/101 b2,b2,b2,b2 - 4/8 4 1 0"),
    ],
)
def test_position_string_of_the_start(players: int, zombies: int, text: str) -> None:
    assert play(players=players, zombies=zombies).position_string() == text
    pos = from_string(text)
    assert state(pos) == state(play(players=players, zombies=zombies))
    assert (pos.players, pos.zombie_total) == (players, zombies)


def test_position_string_fields_on_composed_positions() -> None:
    # Rank 3 first; pawns in player order; the player to move follows from the turn.
    assert play("K:b2-b1x R:b2-c2 B:b2-a2", players=3).position_string() == (
        "101/010/101 b1,c2,a2 - 3/8 3 1 3"
    )
    assert play("W:b2-b1 W:b2-b1 W:b1-a1x W:b1-a1L R").position_string() == (
        "101/010/001 a1,a1 a1 4/8 2 2 5"
    )
    # Finished games: the result stands where the player to move would.
    assert play(LOCK_WIN).position_string() == "000/221/010 a3,a3 a1,c1,a3,c3 2/8 2 1-0 16"
    assert play("R:b2-b1 K:b2-a2 Y:b1-c2 G", zombies=7).position_string() == (
        "111/010/111 c2,a2 - 0/7 2 0-1 4"
    )


def test_a_position_read_back_keeps_the_end_and_its_reason() -> None:
    for moves, zombies in ((LOCK_WIN, 8), ("R:b2-b1 K:b2-a2 Y:b1-c2 G", 7)):
        played = play(moves, zombies=zombies)
        back = from_string(played.position_string())
        assert back.outcome() == played.outcome() is not None
        assert back.end_reason == played.end_reason
        assert back.diagram() == played.diagram()
        assert back.legal_moves() == []
        assert illegal(back, "W") == illegal(played, "W")
    caught = from_string(ONE_RED_FROM_LOSING)
    caught.push(GAME.parse("R"))
    back = from_string(caught.position_string())
    assert caught.position_string() == "001/032/100 b1,b3,b2,b1 a3 1/8 4 0-1 19"
    assert (
        back.end_reason == caught.end_reason == "player 3 stands on b2, which now holds 3 zombies"
    )


def test_a_position_string_starts_the_turn_count_and_plays_on() -> None:
    pos = from_string(EMPTY_RESERVE)
    assert (pos.turn, pos.mover, pos.reserve, pos.players, pos.zombie_total) == (
        11, "player 2", 0, 2, 7,
    )  # fmt: skip
    assert pos.legal_moves_for_roll("G") == [ZombieKidzMove("G")]
    pos.push(GAME.parse("W:c3-c2"))
    pos.push(GAME.parse("W:a2-b1x"))  # the diagonal of the 2-player side
    assert pos.position_string() == "000/040/001 b1,c2 - 2/7 2 2 13"
    assert str(pos.pop()) == "W:a2-b1x"
    assert str(pos.pop()) == "W:c3-c2"
    assert pos.position_string() == EMPTY_RESERVE
    with pytest.raises(MisuseError, match="no move to take back"):
        pos.pop()


def test_position_strings_are_read_leniently_and_written_one_way() -> None:
    text = "  101/000/101   B2,b2  -   4/8 2 1 0 "
    assert from_string(text).position_string() == START_2_8
    locked = "101/010/001 a1,a1 a1 4/8 2 2 5"
    assert from_string(locked.replace("a1,a1 a1", "A1,a1 A1")).position_string() == locked
    two = "000/010/000 a1,c1 c1,a1,c3,a3 7/8 2 1-0 10"
    assert from_string(two).position_string() == "000/010/000 a1,c1 a1,c1,a3,c3 7/8 2 1-0 10"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("101/000/101 b2,b2 - 4/8 2 1", "7 fields, not 6"),
        ("", "7 fields, not 0"),
        ("101/000/101 b2,b2 - 4/8 2 1 0 0", "7 fields, not 8"),
        ("101/000/10 b2,b2 - 4/8 2 1 0", "the zombies field '101/000/10' is not three ranks"),
        ("1x1/000/101 b2,b2 - 4/8 2 1 0", "the zombies field"),
        ("101000101 b2,b2 - 4/8 2 1 0", "the zombies field"),
        ("101/000/101 b2 - 4/8 1 1 0", "the players field '1' is not 2, 3 or 4"),
        ("101/000/101 b2,d4 - 4/8 2 1 0", "'d4' in the pawns field is not a zone"),
        ("101/000/101 b2,,b2 - 4/8 2 1 0", "'' in the pawns field is not a zone"),
        ("101/000/101 b2,b2,b2 - 4/8 2 1 0", "places 3 pawns, but the players field says 2"),
        ("101/000/101 b2 - 4/8 3 1 0", "places 1 pawn, but the players field says 3"),
        ("101/000/101 b2,b2 b2 4/8 2 1 0", "b2 in the locks field is a tomb, not a gate"),
        ("101/000/101 b2,b2 e5 4/8 2 1 0", "'e5' in the locks field is not a zone"),
        ("000/000/000 b2,b2 a1,a1 8/8 2 1 4", "a1 is named twice in the locks field"),
        ("101/000/101 b2,b2 - 4 2 1 0", "the reserve field '4' is not reserve/total"),
        ("101/000/101 b2,b2 - 5/9 2 1 0", "the zombie total 9"),
        ("101/000/101 b2,b2 - 4/8 2 1 x", "the turn field 'x'"),
        ("101/000/101 b2,b2 - 4/8 2 1 -3", "the turn field '-3'"),
        ("101/000/101 b2,b2 - 4/8 2 x 0", "the to-move field 'x' is neither a player"),
        ("101/000/101 b2,b2 - 4/8 2 1/2-1/2 3", "the to-move field '1/2-1/2'"),
        ("101/000/101 b2,b2 - 4/8 2 2 0", "says player 2, but after 0 turns played of 2"),
        ("101/000/101 b2,b2,b2 - 4/8 3 1 5", "after 5 turns played of 3 players player 3"),
        ("888/000/101 b2,b2 - 0/8 2 1 8", "the board holds 26 zombies, more than the total of 8"),
        ("101/010/101 b2,b2 - 4/8 2 2 1", "which makes 9, not the total of 8"),
        ("201/000/101 b2,b2 - 3/8 2 1 4", "gate a3 holds 2 zombies"),
        ("101/000/101 b2,b2 a1 4/8 2 1 4", "gate a1 is locked but holds a zombie"),
        ("101/000/101 a1,b2 - 4/8 2 1 4", "player 1 stands on gate a1, which holds a zombie"),
        ("101/000/001 a1,a1 - 5/8 2 1 4", "players 1 and 2 stand on gate a1, which is not locked"),
        ("121/000/101 b2,b2 - 2/8 2 2 1", "the tombs hold 2 zombies after 1 turn played"),
        ("101/000/101 b2,a2,b2 - 4/8 3 2 1", "player 2 has had no turn yet (1 turn played)"),
        ("030/300/000 b3,a2 - 2/8 2 0-1 9", "pawns stand among 3 or more zombies on a2 and b3"),
        ("030/000/000 b3,b2 - 5/8 2 2 9", "player 1 stands on b3, which now holds 3 zombies"),
        ("000/000/000 b2,b2 - 8/8 2 1 4", "no zombie is on the board: the players have won"),
        ("000/010/000 a1,c1 a1,c1,a3,c3 7/8 2 1 10", "all four gates are locked: the players"),
        ("000/000/000 a1,c1 a1,c1,a3,c3 8/8 2 1-0 10", "the board is empty and all four gates"),
        ("000/000/000 b2,b2 - 8/8 2 1-0 0", "the game is over (1-0) before any turn"),
        ("101/000/101 b2,b2 - 4/8 2 1-0 6", "says the players won (1-0), but zombies are"),
        ("030/000/000 b3,b2 a1,c1,a3,c3 5/8 2 1-0 9", "yet the to-move field says the players"),
        ("000/010/000 a1,c1 a1,c1,a3,c3 7/8 2 0-1 10", "says the zombies won (0-1), but all four"),
        ("101/000/101 b2,b2 - 4/8 2 0-1 6", "but the reserve is not empty and no pawn stands"),
        ("111/000/101 b2,b3 - 3/8 2 1 2", "player 2 stands on b3 with 1 zombie, but that zone"),
        ("101/200/101 b2,b2,a2,b2 - 2/8 4 1 4", "after its turn 3 and only 1 roll has come"),
        ("101/200/101 b2,b2,a2,b2 - 2/8 4 4 3", "player 3 stands on a2 with 2 zombies"),
    ],
)
def test_malformed_or_impossible_position_strings_say_why(text: str, reason: str) -> None:
    with pytest.raises(TagValueError) as info:
        from_string(text)
    assert info.value.tag == "Position"
    assert reason in str(info.value)


def test_players_and_zombies_tags_must_agree_with_the_position() -> None:
    assert from_string(EMPTY_RESERVE, {"Players": "2", "Zombies": "7"}).players == 2
    for tags, tag, reason in [
        ({"Players": "3"}, "Players", "the Players tag says 3 but the Position tag has 2 players"),
        ({"Zombies": "8"}, "Zombies", "the Zombies tag says 8 but the Position tag has 7 zombies"),
        ({"Players": "9"}, "Players", "played by 2, 3 or 4 players, not '9'"),
        ({"Zombies": "6"}, "Zombies", "not '6'"),
    ]:
        with pytest.raises(TagValueError) as info:
            from_string(EMPTY_RESERVE, tags)
        assert info.value.tag == tag
        assert reason in str(info.value)


def random_position(seed: int, players: int, zombies: int, turns: int) -> ZombieKidzPosition:
    pos = play(players=players, zombies=zombies)
    GAME.random_playout(pos, random.Random(seed), turns)
    return pos


#: Won games (random play nearly always loses): (start, turns).
CLEARED = (
    "G:b2-c2x G:b2-a2 Wx Y:a2-b2 R:c2-c1x W:b2-b3x K:c1-b1x Y:b3-c3x K:b1-a2 W:c3-c2 "
    "R:a2-a1x K:c2-c1 G:a1-b1x W:c1-c2x W W:c2-b3x G:b1-c1 B:b3-a3x G:c1-c2x B:a3-a2x "
    "W:c2-b2x"
)
POSITIONS_RECORD_1 = "G:c3-c2x B:a3-a2x K:a3-a2 Y:c2-c1x R:a2-a1x G:a2-a1L W B:a1-b1x Y K R:b1-c1L"
WON_GAMES = (
    (START_2_8, LOCK_WIN),
    (START_2_8, CLEARED),
    ("000/101/101 a3,c3,a3 a3,c3 4/8 3 2 16", POSITIONS_RECORD_1),
)


def won_position(game: int, turns: int) -> ZombieKidzPosition:
    """A position of a won game (its start read from a position string)."""
    start, moves = WON_GAMES[game]
    pos = from_string(start)
    for text in moves.split()[:turns]:
        pos.push(GAME.parse(text))
    return pos


def test_random_and_won_positions_include_starts_and_both_ends() -> None:
    # The properties below sample these; make sure they really are there.
    assert {random_position(seed, 3, 7, 10_000).outcome() for seed in range(30)} == {"0-1"}
    assert [won_position(g, 10_000).outcome() for g in range(len(WON_GAMES))] == ["1-0"] * 3
    assert [won_position(g, 10_000).end_reason for g in range(len(WON_GAMES))] == [
        "all 4 gates are locked",
        "no zombie is left on the board",
        "all 4 gates are locked",
    ]
    assert random_position(1, 2, 8, 0).position_string() == START_2_8


positions = st.builds(
    random_position,
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    zombies=st.sampled_from([7, 8]),
    turns=st.sampled_from([0, 10_000]) | st.integers(0, 40),
) | st.builds(
    won_position,
    game=st.integers(0, len(WON_GAMES) - 1),
    turns=st.sampled_from([10_000]) | st.integers(0, 20),
)


@settings(max_examples=30, deadline=None)
@given(pos=positions, seed=st.integers(0, 2**32 - 1))
def test_position_strings_round_trip_and_play_on_in_lockstep(
    pos: ZombieKidzPosition, seed: int
) -> None:
    text = pos.position_string()
    assert not set(text) & set('"{}[]') and "\n" not in text
    back = from_string(text, {"Players": str(pos.players), "Zombies": str(pos.zombie_total)})
    assert back.position_string() == text
    assert state(back) == state(pos)
    assert back.diagram() == pos.diagram()
    assert back.last_move_facts() == {}
    rng = random.Random(seed)
    while True:
        assert back.legal_moves() == pos.legal_moves()
        assert (back.outcome(), back.end_reason) == (pos.outcome(), pos.end_reason)
        if pos.outcome() is not None:
            break
        move = rng.choice(pos.legal_moves_for_roll(rng.choice(DICE)))
        pos.push(move)
        back.push(move)
        assert back.position_string() == pos.position_string()
        assert from_string(pos.position_string()).position_string() == pos.position_string()
        assert back.last_move_facts() == pos.last_move_facts()
        assert back.annotations() == pos.annotations()
        assert back.board_view() == pos.board_view()
    assert illegal(back, "W") == illegal(pos, "W")


def test_every_position_of_the_won_games_reads_back() -> None:
    for game, (_, moves) in enumerate(WON_GAMES):
        for turns in range(len(moves.split()) + 1):
            pos = won_position(game, turns)
            back = from_string(pos.position_string())
            assert back.position_string() == pos.position_string()
            assert back.legal_moves() == pos.legal_moves()
            assert (back.outcome(), back.end_reason) == (pos.outcome(), pos.end_reason)


# -- move data, facts and annotations --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("K:b2-b1x", {"die": "K", "colour": "black", "tomb": "b1", "from": "b2", "to": "b1",
                      "form": "long", "x": True, "L": False}),
        ("G:c2", {"die": "G", "colour": "green", "tomb": "c2", "from": None, "to": "c2",
                  "form": "short", "x": False, "L": False}),
        ("W", {"die": "W", "colour": "white", "tomb": None, "from": None, "to": None,
               "form": "stay", "x": False, "L": False}),
        ("Y:a2-a1L", {"die": "Y", "colour": "yellow", "tomb": "b3", "from": "a2", "to": "a1",
                      "form": "long", "x": False, "L": True}),
        ("Rx", {"die": "R", "colour": "red", "tomb": "b2", "from": None, "to": None,
                "form": "stay", "x": True, "L": False}),
    ],
)  # fmt: skip
def test_move_to_dict(text: str, data: dict[str, object]) -> None:
    assert GAME.move_to_dict(GAME.parse(text)) == {"type": "turn", **data}


def test_every_legal_move_is_json_ready_data() -> None:
    import json

    pos = play("K:b2-b1x R:b2-c2", players=3)
    for move in pos.legal_moves():
        data = GAME.move_to_dict(move)
        assert json.loads(json.dumps(data)) == data
        assert data["form"] == ("stay" if move.target is None else "long")


def test_last_move_facts_on_composed_turns() -> None:
    pos = play(players=3)
    assert pos.last_move_facts() == {}
    pos.push(GAME.parse("K:b2-a2"))
    assert pos.last_move_facts() == {
        "player": 1, "die": "K", "placed_on": "b1", "moved_to": "a2", "zone": "a2",
        "eliminated": 0, "locked": None,
    }  # fmt: skip
    pos.push(GAME.parse("K:b1"))  # the short form: the facts are the same
    assert pos.last_move_facts() == {
        "player": 2, "die": "K", "placed_on": "b1", "moved_to": "b1", "zone": "b1",
        "eliminated": 2, "locked": None,
    }  # fmt: skip
    pos.push(GAME.parse("W"))
    assert pos.last_move_facts() == {
        "player": 3, "die": "W", "placed_on": None, "moved_to": None, "zone": "b2",
        "eliminated": 0, "locked": None,
    }  # fmt: skip
    locked = play("W:b2-b1 W:b2-b1 W:b1-a1x W:b1-a1L")
    assert locked.last_move_facts() == {
        "player": 2, "die": "W", "placed_on": None, "moved_to": "a1", "zone": "a1",
        "eliminated": 0, "locked": "a1",
    }  # fmt: skip
    won = play(LOCK_WIN)
    assert won.last_move_facts() == {
        "player": 2, "die": "G", "placed_on": "c2", "moved_to": "a3", "zone": "a3",
        "eliminated": 0, "locked": "a3", "outcome": "1-0",
        "end_reason": "all 4 gates are locked",
    }  # fmt: skip
    lost = from_string(EMPTY_RESERVE)
    lost.push(GAME.parse("G"))
    assert lost.last_move_facts() == {
        "player": 2, "die": "G", "placed_on": None, "moved_to": None, "zone": "c3",
        "eliminated": 0, "locked": None, "outcome": "0-1",
        "end_reason": "the reserve is empty",
    }  # fmt: skip
    caught = from_string(ONE_RED_FROM_LOSING)
    assert caught.last_move_facts() == {}
    caught.push(GAME.parse("R"))
    assert caught.last_move_facts() == {
        "player": 3, "die": "R", "placed_on": "b2", "moved_to": None, "zone": "b2",
        "eliminated": 0, "locked": None, "outcome": "0-1",
        "end_reason": "player 3 stands on b2, which now holds 3 zombies",
    }  # fmt: skip
    caught.pop()
    caught.push(GAME.parse("Yx"))
    assert caught.last_move_facts()["eliminated"] == 2


def test_annotations_on_composed_positions() -> None:
    assert play().annotations() == [("zombies", "a1:1 c1:1 a3:1 c3:1"), ("reserve", "4")]
    assert play("K:b2-b1x R:b2-c2 B:b2-a2", players=3).annotations() == [
        ("zombies", "a1:1 c1:1 b2:1 a3:1 c3:1"),
        ("reserve", "3"),
    ]
    assert play(LOCK_WIN).annotations() == [
        ("zombies", "b1:1 a2:2 b2:2 c2:1"),
        ("reserve", "2"),
        ("locks", "a1 c1 a3 c3"),
    ]
    assert play("W:b2-b1 W:b2-b1 W:b1-a1x W:b1-a1L").annotations() == [
        ("zombies", "c1:1 a3:1 c3:1"),
        ("reserve", "5"),
        ("locks", "a1"),
    ]
    # The clearing win of records/zombie-kidz/examples.ugn (seed 17680): an empty board.
    cleared = play(
        "G:b2-c2x G:b2-a2 Wx Y:a2-b2 R:c2-c1x W:b2-b3x K:c1-b1x Y:b3-c3x K:b1-a2 W:c3-c2 "
        "R:a2-a1x K:c2-c1 G:a1-b1x W:c1-c2x W W:c2-b3x G:b1-c1 B:b3-a3x G:c1-c2x B:a3-a2x "
        "W:c2-b2x"
    )
    assert cleared.outcome() == "1-0"
    assert cleared.annotations() == [("zombies", "-"), ("reserve", "8")]


@settings(max_examples=30, deadline=None)
@given(pos=positions)
def test_annotation_values_fit_in_a_comment(pos: ZombieKidzPosition) -> None:
    notes = pos.annotations()
    assert [k for k, _ in notes][:2] == ["zombies", "reserve"]
    for key, value in notes:
        assert value and not set(value) & set("[]{}\n"), (key, value)
    zones = dict(item.split(":") for item in notes[0][1].split()) if notes[0][1] != "-" else {}
    assert {z: int(n) for z, n in zones.items()} == {
        z: pos.zombies_on(z) for z in ZONE_NAMES if pos.zombies_on(z)
    }
    assert int(notes[1][1]) == pos.reserve
    assert dict(notes).get("locks", "") == " ".join(pos.locked_gates)


# -- board views -----------------------------------------------------------------------


def test_board_view_of_the_start() -> None:
    view = play().board_view()
    assert (view.files, view.ranks) == (("a", "b", "c"), ("1", "2", "3"))
    assert set(view.cells) == set(ZONE_NAMES)
    assert {z: c.role for z, c in view.cells.items()} == {
        "a1": "gate", "b1": "tomb-black", "c1": "gate",
        "a2": "tomb-blue", "b2": "tomb-red", "c2": "tomb-green",
        "a3": "gate", "b3": "tomb-yellow", "c3": "gate",
    }  # fmt: skip
    assert view.cell("a1").tokens == (Token("zombie", "Z"),)
    assert view.cell("a1").note == "1"
    assert view.cell("b2").tokens == (Token("pawn-1", "1"), Token("pawn-2", "2"))
    assert view.cell("b2").note == ""
    assert set(view.links) == set(PATHS_BOTH_SIDES) | set(PATHS_TWO_PLAYER_SIDE)
    assert (view.marks, view.caption) == ((), "")
    assert view.facts == (
        ("To move", "player 1"),
        ("Turns played", "0"),
        ("Reserve", "4 of 8"),
        ("Board side", "2-player side"),
        ("Locks", "none (0 of 4)"),
        ("Zombies on the board", "4"),
    )


def test_board_view_after_composed_turns() -> None:
    view = play("K:b2-a2 K:b2-b1x", players=3).board_view()
    assert view.caption == "K:b2-b1x: black tomb +1, player 2 moved to b1 and eliminated 2 zombies"
    assert view.marks == ("b2", "b1")  # the tomb filled is the zone stepped to
    assert set(view.links) == set(PATHS_BOTH_SIDES)  # no diagonals with three players
    assert "pawn-4" not in view.palette and "pawn-3" in view.palette
    view = play("K:b2-a2 Y:b2-c2", players=3).board_view()
    assert view.caption == "Y:b2-c2: yellow tomb +1, player 2 moved to c2"
    assert view.marks == ("b3", "b2", "c2")
    assert play("K:b2-a2 R", players=3).board_view().marks == ("b2",)
    assert play("K:b2-a2 Y", players=3).board_view().marks == ("b3", "b2")
    assert play("K:b2-a2 W", players=3).board_view().caption == (
        "W: white, no zombie, player 2 stayed on b2"
    )
    won = play(LOCK_WIN).board_view()
    assert won.caption == (
        "G:b3-a3L: green tomb +1, player 2 moved to a3 and locked a3; "
        "the players win: all 4 gates are locked"
    )
    assert won.marks == ("c2", "b3", "a3")
    assert won.cell("a3").role == "gate-locked"
    assert won.cell("a3").tokens == (Token("lock", "L"), Token("pawn-1", "1"), Token("pawn-2", "2"))
    assert won.cell("a2").tokens == (Token("zombie", "Z"),) * 2
    assert won.facts[0] == ("Result", "1-0, the players win (all 4 gates are locked)")
    assert ("Locks", "a1, c1, a3, c3 (4 of 4)") in won.facts
    lost = from_string(EMPTY_RESERVE)
    lost.push(GAME.parse("G"))
    view = lost.board_view()
    assert (
        view.caption == "G: green, no zombie left to place; the zombies win: the reserve is empty"
    )
    assert view.marks == ("c3",)
    caught = from_string(ONE_RED_FROM_LOSING)
    caught.push(GAME.parse("R"))
    view = caught.board_view()
    assert view.caption == (
        "R: red tomb +1; the zombies win: player 3 stands on b2, which now holds 3 zombies"
    )
    assert view.cell("b2").note == "3"
    assert view.facts[0] == (
        "Result", "0-1, the zombies win (player 3 stands on b2, which now holds 3 zombies)"
    )  # fmt: skip
    assert ("Board side", "3-4 player side") in view.facts


def test_board_view_palette_colours() -> None:
    assert set(PALETTE) == {
        "tomb-red", "tomb-yellow", "tomb-green", "tomb-black", "tomb-blue", "gate",
        "gate-locked", "zombie", "lock", "pawn-1", "pawn-2", "pawn-3", "pawn-4",
    }  # fmt: skip
    assert len(set(PALETTE.values())) == len(PALETTE)
    for colour in PALETTE.values():
        assert len(colour) == 7 and colour[0] == "#" and int(colour[1:], 16) >= 0
    assert play(players=4).board_view().palette == PALETTE


@settings(max_examples=30, deadline=None)
@given(pos=positions)
def test_board_view_structure(pos: ZombieKidzPosition) -> None:
    view = pos.board_view()
    assert set(view.cells) == set(ZONE_NAMES)
    used = {c.role for c in view.cells.values()}
    used |= {t.role for c in view.cells.values() for t in c.tokens}
    assert used <= set(view.palette)
    side = PATHS_BOTH_SIDES + (PATHS_TWO_PLAYER_SIDE if pos.players == 2 else ())
    assert view.links == side
    for zone in ZONE_NAMES:
        cell = view.cell(zone)
        assert cell.square == zone
        roles = [t.role for t in cell.tokens]
        assert roles.count("zombie") == pos.zombies_on(zone)
        pawns = [p for p in range(1, pos.players + 1) if pos.pawn_zone(p) == zone]
        assert [t.label for t in cell.tokens if t.role.startswith("pawn-")] == [
            str(p) for p in pawns
        ]
        locked = zone in GATE_NAMES and pos.is_locked(zone)
        assert roles.count("lock") == locked
        assert cell.role == (
            ("gate-locked" if locked else "gate")
            if zone in GATE_NAMES
            else "tomb-" + TOMB_COLOURS[zone]
        )
        assert all(1 <= len(t.label) <= 2 for t in cell.tokens)
    facts = pos.last_move_facts()
    if not facts:
        assert (view.marks, view.caption) == ((), "")
    else:
        assert view.marks[-1] == facts["zone"]
        if facts["placed_on"] is not None:
            assert facts["placed_on"] in view.marks
        if facts["moved_to"] is not None:
            assert view.marks[-2:] == (str(view.marks[-2]), facts["moved_to"])
        move = pos.pop()
        canonical = pos.canonical(move)
        pos.push(move)
        assert view.caption.startswith(f"{canonical}: ")
    assert view.to_dict()["cells"].keys() == set(ZONE_NAMES)


# -- records that start from a position ------------------------------------------------


def test_the_position_records_are_valid_and_start_from_their_tag() -> None:
    from pathlib import Path

    from notation.reader import read_file
    from notation.replay import check_record

    path = Path(__file__).resolve().parent.parent / "records" / "zombie-kidz" / "positions.ugn"
    records = list(read_file(path))
    assert len(records) >= 3
    for record in records:
        assert record.tag("Source") == "composed for the notation toolkit"
        assert record.tag("Position") is not None
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert verdict.game == "zombie-kidz"
    outcomes = [check_record(r).outcome for r in records]
    assert outcomes == ["1-0", "0-1", None]


def test_new_position_honours_a_position_tag() -> None:
    # It used to ignore the tag and return the start.
    pos = GAME.new_position({"Game": "zombie-kidz", "Position": EMPTY_RESERVE, "Players": "2"})
    assert pos.position_string() == EMPTY_RESERVE and pos.turn == 11
    with pytest.raises(TagValueError, match="the Players tag says 3"):
        GAME.new_position({"Position": EMPTY_RESERVE, "Players": "3"})
    with pytest.raises(TagValueError):
        GAME.new_position({"Position": "000/040"})
    assert GAME.new_position({"Players": "3"}).position_string() == (
        "101/000/101 b2,b2,b2 - 4/8 3 1 0"
    )


def test_zones_are_names_or_indices_and_players_are_checked() -> None:
    pos = from_string(EMPTY_RESERVE)
    assert pos.zombies_on(4) == pos.zombies_on("b2") == 4
    assert pos.is_locked(0) == pos.is_locked("a1")
    # pawn_zone(-1) used to wrap around to the last player.
    with pytest.raises(MisuseError, match="players are 1 to 2"):
        pos.pawn_zone(-1)
    with pytest.raises(MisuseError, match="is not a zone"):
        pos.zombies_on(9)


def test_generate_says_and_checks_the_range_of_players() -> None:
    from click.testing import CliRunner

    from notation.cli import cli

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["generate", "--game", "zombie-kidz", *args])
        return result.exit_code, result.output

    help_text = run("--help")[1]
    players = " ".join(help_text.partition("--players")[2].partition("--max-turns")[0].split())
    assert "zombie-kidz 2 to 4" in players and "x>=1" not in players
    for bad in ("0", "1", "5", "-2"):
        code, out = run("--players", bad)
        assert code == 2 and f"Zombie Kidz is played by 2 to 4 players, not {bad}" in out
    code, out = run("--players", "4", "--max-turns", "3")
    assert code == 0 and '[Players "4"]' in out
    assert GAME.player_range() == (2, 4)
