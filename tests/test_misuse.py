"""Calling the library wrongly: every misuse raises MisuseError and changes nothing.

A move built by hand with fields that name nothing, an object that is not a move of
the game, ``pop()`` with nothing to take back, a square, zone, side, player or piece
that does not exist: each raises :class:`notation.errors.MisuseError` (the
library's own error, a ``ValueError`` too), never ``IndexError``, ``KeyError``,
``TypeError`` or ``AttributeError``, and the position is left exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from notation.errors import IllegalMoveError, MisuseError, NotationException
from notation.games import get_game
from notation.games.base import Position
from notation.games.cave import Attack, Enter, Pass, Step, square_index, square_name
from notation.games.tinkertown import (
    RED,
    WHITE,
    Drop,
    Move,
    Resurrection,
    TinkertownPosition,
    parse_square,
)
from notation.games.zombie_kidz import ZombieKidzMove, ZombieKidzPosition

TINKERTOWN = get_game("tinkertown")
CAVE = get_game("cave")
ZOMBIE_KIDZ = get_game("zombie-kidz")

#: A few turns of each game, so that a misuse meets a position with a history.
OPENINGS = {
    "tinkertown": "d3 d2,b5 b4,g7",
    "cave": "b1 c5 b1-b2 c5-c4 b2-b3",
    "zombie-kidz": "W:b2-a2 W:b2-c2 W",
}


def played(name: str) -> Position[Any]:
    game = get_game(name)
    position = game.new_position({})
    for token in OPENINGS[name].split():
        position.push(game.parse(token))
    return position


def snapshot(position: Position[Any]) -> tuple[str, int, str | None, list[str]]:
    """What a misuse must leave unchanged: the position, its turn, outcome and history."""
    undo = position.copy()
    history: list[str] = []
    while True:
        try:
            history.append(str(undo.pop()))
        except MisuseError:
            break
    return position.position_string(), position.turn, position.outcome(), history


def test_misuse_error_is_the_libraries_own_and_a_value_error() -> None:
    assert issubclass(MisuseError, NotationException)
    assert issubclass(MisuseError, ValueError)
    assert not issubclass(MisuseError, IllegalMoveError)
    assert MisuseError.__doc__ and "argument it cannot use" in MisuseError.__doc__


# -- moves built by hand with fields that name nothing -----------------------------

BAD_MOVES: list[tuple[Callable[[], object], str]] = [
    (lambda: Drop(-1), "Drop.square is -1"),
    (lambda: Drop(64), "Drop.square is 64"),
    (lambda: Drop("d3"), "Drop.square is 'd3'"),  # type: ignore[arg-type]
    (lambda: Drop(3, 1), "Drop.marked is 1"),  # type: ignore[arg-type]
    (lambda: Move(0, 99), "Move.target is 99"),
    (lambda: Move(-8, 0), "Move.origin is -8"),
    (lambda: Resurrection(19, -1), "Resurrection.b is -1"),
    (lambda: Resurrection(None, 3), "Resurrection.a is None"),  # type: ignore[arg-type]
    (lambda: Enter(-1), "Enter.square is -1"),
    (lambda: Enter(20), "Enter.square is 20"),
    (lambda: Step(0, 20), "Step.target is 20"),
    (lambda: Attack(5, 10, "Q"), "Attack.attacker is 'Q'"),
    (lambda: Attack(5, 10, None, "k"), "Attack.defender is 'k'"),
    (lambda: Attack(5.0, 10), "Attack.origin is 5.0"),  # type: ignore[arg-type]
    (lambda: ZombieKidzMove("Q"), "ZombieKidzMove.die is 'Q'"),
    (lambda: ZombieKidzMove("R", None, 9), "ZombieKidzMove.target is 9"),
    (lambda: ZombieKidzMove("R", -1, 3), "ZombieKidzMove.origin is -1"),
    (lambda: ZombieKidzMove("R", 4, None), "origin is b2 without a target"),
    (lambda: ZombieKidzMove("R", None, None, "x"), "ZombieKidzMove.eliminated is 'x'"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("make", "message"), BAD_MOVES)
def test_a_move_whose_fields_name_nothing_cannot_be_made(
    make: Callable[[], object], message: str
) -> None:
    with pytest.raises(MisuseError, match=message.replace(".", r"\.")):
        make()


def test_a_move_out_of_range_no_longer_corrupts_the_position() -> None:
    # Drop(-1) used to be played on h8, outside the cemetery, or wrap to another square.
    position = TINKERTOWN.new_position()
    before = position.position_string()
    with pytest.raises(MisuseError):
        position.push(Drop(-1))
    assert position.position_string() == before and position.turn == 0


def test_hand_built_moves_in_range_still_work() -> None:
    assert str(Drop(19, True)) == "d3x" and str(Resurrection(11, 33)) == "d2,b5"
    assert str(Attack(5, 10, "K", None)) == "Kb2xc3" and str(Pass()) == "--"
    assert str(ZombieKidzMove("K", 4, 1, True)) == "K:b2-b1x"


# -- objects that are not moves of the game ----------------------------------------

FOREIGN: dict[str, list[object]] = {
    "tinkertown": [Enter(1), ZombieKidzMove("W"), "d3", None, 19, object()],
    "cave": [Drop(19), ZombieKidzMove("W"), "b1", None, 1, object()],
    "zombie-kidz": [Drop(19), Enter(1), "W", None, 0, object()],
}
CALLS: dict[str, Callable[[Position[Any], object], object]] = {
    "push": lambda p, m: p.push(m),
    "check": lambda p, m: p.check(m),
    "is_legal": lambda p, m: p.is_legal(m),
    "canonical": lambda p, m: p.canonical(m),
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("fresh", [True, False], ids=["fresh", "played"])
def test_a_foreign_object_is_refused_and_the_position_unchanged(
    name: str, call: str, fresh: bool
) -> None:
    position = get_game(name).new_position({}) if fresh else played(name)
    before = snapshot(position)
    for thing in FOREIGN[name]:
        with pytest.raises(MisuseError, match=r"is not a .* move"):
            CALLS[call](position, thing)
        assert snapshot(position) == before


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_a_foreign_object_is_refused_after_the_end_too(name: str) -> None:
    game = get_game(name)
    over = {
        "tinkertown": "4/6/8/3##3/3##3/8/6/W1W1 r movement -,- 81",
        "cave": "b3:r??? 0/0 ???/K@57????? 0 r 86",
        "zombie-kidz": "101/100/131 b2,c2 - 0/8 2 0-1 11",
    }[name]
    position = game.position_from_string(over)
    assert position.outcome() is not None
    with pytest.raises(MisuseError):
        position.push(None)
    with pytest.raises(MisuseError):
        game.move_to_dict(None)


# -- pop() with nothing to take back ------------------------------------------------


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_pop_on_a_fresh_position_is_misuse(name: str) -> None:
    position = get_game(name).new_position({})
    with pytest.raises(MisuseError, match="no move to take back"):
        position.pop()
    assert position.turn == 0 and position.position_string() == snapshot(position)[0]
    again = played(name)
    for _ in OPENINGS[name].split():
        again.pop()
    with pytest.raises(MisuseError, match="no move to take back"):
        again.pop()
    assert again.position_string() == get_game(name).new_position({}).position_string()


# -- accessors: squares and zones by name or index, the same meaning everywhere -----


def test_tinkertown_accessors_take_square_names_and_indices_alike() -> None:
    position = TinkertownPosition.setup({"c1": "rw", "h5": "w"}, tombstones=["d1"])
    for name, index in (("c1", 2), ("h5", 39), ("d1", 3), ("d4", 27)):
        assert parse_square(name) == index
        assert position.stack(name) == position.stack(index) == position.stack(name.upper())
        assert position.controller(name) == position.controller(index)
        assert position.is_tombstone(name) == position.is_tombstone(index)
        assert position.capacity(name) == position.capacity(index)
    assert position.stack("c1") == "rw" and position.controller("c1") == WHITE
    assert position.is_tombstone("d1") and position.capacity("c1") == 1


@pytest.mark.parametrize("square", [-1, 64, "z9", "i1", "", None, 2.0, True, [2]])
def test_tinkertown_refuses_what_is_not_a_square(square: Any) -> None:
    position = played("tinkertown")
    before = snapshot(position)
    for accessor in (position.stack, position.controller, position.is_tombstone, position.capacity):
        with pytest.raises(MisuseError, match="is not a square"):
            accessor(square)
    if not isinstance(square, int):
        with pytest.raises(MisuseError, match="is not a square"):
            parse_square(square)
    assert snapshot(position) == before


@pytest.mark.parametrize("side", [-1, 2, "White", None, 0.0])
def test_tinkertown_refuses_what_is_not_a_side(side: Any) -> None:
    position = played("tinkertown")
    assert position.group_count(WHITE) >= 0 and position.last_placement(RED) is not None
    for accessor in (position.zombie_count, position.group_count, position.last_placement):
        with pytest.raises(MisuseError, match="is not a side"):
            accessor(side)


def test_cave_reads_an_int_as_a_square_everywhere() -> None:
    position = played("cave")  # Red's piece on b3, Black's on c4
    b3 = square_index("b3")
    assert b3 == 9 and square_name(9) == "b3"
    assert position.pieces_at(b3) == position.pieces_at("b3") == position.pieces_at("B3")
    # 9 is the square b3 for possible_identities too, not piece id 9.
    assert position.possible_identities(b3) == position.possible_identities("b3")
    (piece,) = position.pieces_at("b3")
    assert position.piece_identities(piece) == position.possible_identities(b3)
    assert position.side_of(piece) == "Red" and position.revealed(piece) is None


@pytest.mark.parametrize("square", [-1, 20, "e1", "a6", None, 9.0, False])
def test_cave_refuses_what_is_not_a_square(square: Any) -> None:
    position = played("cave")
    before = snapshot(position)
    for accessor in (position.pieces_at, position.possible_identities, square_name):
        with pytest.raises(MisuseError, match="is not a square"):
            accessor(square)
    with pytest.raises(MisuseError, match="is not a square"):
        square_index(square)
    assert snapshot(position) == before


def test_cave_an_empty_square_has_no_identities() -> None:
    with pytest.raises(MisuseError, match="a1 is empty"):
        played("cave").possible_identities(0)


@pytest.mark.parametrize("piece", [-1, 12, "b3", None, 1.0])
def test_cave_refuses_what_is_not_a_piece(piece: Any) -> None:
    position = played("cave")
    for accessor in (position.side_of, position.revealed, position.piece_identities):
        with pytest.raises(MisuseError, match="is not a piece id"):
            accessor(piece)


def test_zombie_kidz_accessors_take_zone_names_and_indices_alike() -> None:
    position = played("zombie-kidz")
    for name, index in (("a1", 0), ("b2", 4), ("c3", 8), ("c2", 5)):
        assert position.zombies_on(name) == position.zombies_on(index)
        assert position.is_locked(name) == position.is_locked(index)
    assert position.zombies_on("A1") == 1 and position.zombies_on(4) == 0


@pytest.mark.parametrize("zone", [-1, 9, "d1", "", None, 4.0, True])
def test_zombie_kidz_refuses_what_is_not_a_zone(zone: Any) -> None:
    position = played("zombie-kidz")
    before = snapshot(position)
    for accessor in (position.zombies_on, position.is_locked):
        with pytest.raises(MisuseError, match="is not a zone"):
            accessor(zone)
    assert snapshot(position) == before


@pytest.mark.parametrize("player", [-1, 0, 3, "1", None, 1.0])
def test_zombie_kidz_pawn_zone_refuses_what_is_not_a_player(player: Any) -> None:
    position = played("zombie-kidz")  # two players: -1 used to be player 2
    assert [position.pawn_zone(1), position.pawn_zone(2)] == ["a2", "c2"]
    with pytest.raises(MisuseError, match="is not a player of this game: players are 1 to 2"):
        position.pawn_zone(player)


@pytest.mark.parametrize("die", ["Q", "", None, 1])
def test_zombie_kidz_refuses_what_is_not_a_die(die: Any) -> None:
    position = played("zombie-kidz")
    with pytest.raises(MisuseError, match="is not a die letter"):
        position.legal_moves_for_roll(die)
    assert position.legal_moves_for_roll("w") == position.legal_moves_for_roll("W")


@pytest.mark.parametrize(("players", "zombies"), [(1, 8), (5, 8), ("2", 8), (2, 6), (2, None)])
def test_zombie_kidz_positions_refuse_impossible_setups(players: Any, zombies: Any) -> None:
    with pytest.raises(MisuseError):
        ZombieKidzPosition(players, zombies)
