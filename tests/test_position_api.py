"""Positions as a program uses them (issue 15): they know their game, print well in a
REPL and a notebook, compare and hash by their position string, and play by text;
moves print in notation.

The equality of moves that legal_moves(), is_legal() and push_text() keep to is
checked over random playouts in tests/test_game_contract.py; here are the cases
by name.
"""

from __future__ import annotations

import copy
import importlib.metadata
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fourth_game import GAME as GRAVE_NIM
from fourth_game.game import GraveNimPosition

import notation.games as registry
from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError
from notation.games import Game, all_games, get_game
from notation.games.base import Position
from notation.games.cave import Attack, Enter, Pass, Step
from notation.games.tinkertown import Drop, Move, Resurrection, TinkertownPosition
from notation.games.zombie_kidz import ZombieKidzMove

GAMES = all_games()
IDS = [game.name for game in GAMES]
TINKERTOWN = get_game("tinkertown")


def finished(game: Game[Any]) -> Position[Any]:
    """A position where the rules have ended the game (random play, seed 0)."""
    position = game.new_position()
    game.random_playout(position, random.Random(0), 2000)
    assert position.outcome() is not None
    return position


def captures() -> TinkertownPosition:
    """White to move, and c2-c1 captures Red's pair on c1 (so it is written c2xc1)."""
    return TinkertownPosition.setup({"c2": "w", "c1": "rr", "h5": "r", "b3": "wr", "f6": "w"})


# -- a position knows its game ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_position_knows_its_game(game: Game[Any]) -> None:
    position = game.new_position()
    assert position.game is game
    assert position.copy().game is game
    assert game.position_from_string(position.position_string()).game is game


def test_a_game_that_names_no_game_is_found_by_its_positions() -> None:
    # Grave Nim (tests/fourth_game) sets no game_name: it is found once registered,
    # as another distribution's game is, and named as unknown otherwise.
    assert GraveNimPosition.game_name is None
    with pytest.raises(MisuseError, match="no registered game makes GraveNimPosition"):
        _ = GRAVE_NIM.new_position().game

    def entry_points(*, group: str) -> list[Any]:
        found: list[Any] = list(importlib.metadata.entry_points(group=group))

        class Published:
            def load(self) -> Game[Any]:
                return GRAVE_NIM

        return [*found, Published()] if group == "notation.games" else found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "entry_points", entry_points)
        registry._registry.cache_clear()
        try:
            assert GRAVE_NIM.new_position().game is GRAVE_NIM
        finally:
            registry._registry.cache_clear()


# -- in a REPL and a notebook ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_repr_is_the_class_and_the_position_string_and_str_the_board(game: Game[Any]) -> None:
    position = game.new_position()
    name = type(position).__name__
    assert repr(position) == f"<{name} {position.position_string()!r}>"
    assert "\n" not in repr(position)
    assert str(position) == position.diagram()
    assert f"{position}" == position.diagram()


def test_the_repr_of_a_tinkertown_position() -> None:
    position = TINKERTOWN.new_position()
    assert repr(position) == "<TinkertownPosition '4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0'>"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_notebook_draws_the_board_as_svg(game: Game[Any]) -> None:
    position = game.new_position()
    position.push(position.legal_moves()[0])
    svg = position._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    from notation.render.svg import board_svg

    assert svg == board_svg(position.board_view())


# -- equality and hashing -----------------------------------------------------------


def test_positions_are_equal_when_their_position_strings_are() -> None:
    # Played, or read from its string (no history): one position, with one hash.
    one = TINKERTOWN.new_position()
    for text in ("d3", "d2,b5"):
        one.push_text(text)
    one.push(one.legal_moves()[0])
    other = TINKERTOWN.position_from_string(one.position_string())
    assert one == other and hash(one) == hash(other)
    assert len({one, other, one.copy()}) == 1
    played = one.copy()
    played.pop()
    assert played != one
    assert one != one.position_string()  # a position is no string
    assert (one == 3) is False


def test_positions_of_two_games_are_never_equal() -> None:
    tinkertown = TINKERTOWN.new_position()
    for game in GAMES:
        other = game.new_position()
        assert (other == tinkertown) is (game is TINKERTOWN)


def test_a_hash_follows_the_position_as_it_changes() -> None:
    # Documented: a position is mutable, so its hash changes with push and pop; a
    # copy keeps the hash of the moment it was made.
    position = TINKERTOWN.new_position()
    seen = {position.copy(): "start"}
    before = hash(position)
    position.push_text("d3")
    assert hash(position) != before and position not in seen
    position.pop()
    assert hash(position) == before and seen[position] == "start"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_copy_copy_is_an_independent_copy(game: Game[Any]) -> None:
    position = game.new_position()
    position.push(position.legal_moves()[0])
    duplicate = copy.copy(position)
    assert duplicate == position and duplicate is not position
    assert duplicate.pop() == position.pop()  # history included, and its own
    assert duplicate == position


# -- moves print in notation ------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Drop(19), "Drop('d3')"),
        (Drop(23, True), "Drop('h3x')"),
        (Resurrection(11, 33), "Resurrection('d2,b5')"),
        (Move(39, 23), "Move('h5-h3')"),
        (Move(39, 23, True), "Move('h5xh3')"),
        (Enter(1), "Enter('b1')"),
        (Step(1, 5), "Step('b1-b2')"),
        (Attack(5, 10, "Z", "S"), "Attack('Zb2xSc3')"),
        (Attack(5, 10), "Attack('b2xc3')"),
        (Pass(), "Pass('--')"),
        (ZombieKidzMove("K", 4, 1), "ZombieKidzMove('K:b2-b1')"),
        (ZombieKidzMove("R", eliminated=True), "ZombieKidzMove('Rx')"),
    ],
    ids=str,
)
def test_a_move_prints_in_notation(move: object, text: str) -> None:
    assert repr(move) == text


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_repr_of_every_legal_move_holds_its_text(game: Game[Any]) -> None:
    position = game.new_position()
    for _ in range(30):
        moves = position.legal_moves()
        if not moves:
            break
        for move in moves:
            assert repr(move) == f"{type(move).__name__}({str(move)!r})"
            assert game.parse(str(move)) == move
        position.push(moves[len(moves) // 2])
    assert repr([Drop(19)]) == "[Drop('d3')]"


# -- play by text -------------------------------------------------------------------


def test_push_text_parses_checks_plays_and_returns_the_move() -> None:
    position = TINKERTOWN.new_position()
    assert position.push_text("d3") == Drop(19)
    assert position.push_text(" D2,B5 ") == Resurrection(11, 33)  # any case, spaces
    assert position.turn == 2
    assert position.pop() == Resurrection(11, 33)


def test_push_text_plays_the_canonical_spelling() -> None:
    # c2-c1 captures: legal, accepted by is_legal and push, but listed as c2xc1.
    position = captures()
    written = TINKERTOWN.parse("c2-c1")
    assert position.is_legal(written) and written not in position.legal_moves()
    assert position.canonical(written) in position.legal_moves()
    played = position.push_text("c2-c1")
    assert str(played) == "c2xc1" and played in captures().legal_moves()
    assert position.pop() is played


def test_push_text_refuses_bad_text_and_illegal_moves_and_changes_nothing() -> None:
    position = captures()
    before = position.position_string()
    with pytest.raises(MoveSyntaxError):
        position.push_text("z9-q0")
    with pytest.raises(IllegalMoveError):
        position.push_text("f6xf5")  # a capture mark where nothing is captured
    with pytest.raises(IllegalMoveError):
        position.push_text("d2,b5")  # a resurrection turn in the movement stage
    with pytest.raises(MisuseError):
        position.push_text(None)  # type: ignore[arg-type]
    assert position.position_string() == before and position == captures()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_game_is_played_by_text_to_its_result(game: Game[Any]) -> None:
    position = game.new_position()
    assert not position.is_game_over() and position.result() == "*"
    rng = random.Random(1)
    while not position.is_game_over() and position.turn < 2000:
        text = str(rng.choice(position.legal_moves()))
        assert str(position.push_text(text)) == text
    assert position.result() == position.outcome()
    assert game.allows_result(position.result()) and position.result() != "*"
    with pytest.raises(IllegalMoveError):
        position.push_text(str(position.copy().pop()))  # nothing is legal once it is over


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_result_and_is_game_over_follow_outcome(game: Game[Any]) -> None:
    over = finished(game)
    assert over.is_game_over() and over.result() == over.outcome()
    assert over.legal_moves() == []
    over.pop()
    assert over.is_game_over() is (over.outcome() is not None)


def test_zombie_kidz_is_played_by_text_with_the_roll_in_the_move() -> None:
    game = get_game("zombie-kidz")
    position = game.new_position()
    # The short form, without the x mark: played in the long form with its mark.
    assert str(position.push_text("r:b1")) == "R:b2-b1"
    assert position.pop() == ZombieKidzMove("R", 4, 1)
