"""Tests of the Cave engine: notation, every rule and ruling of docs/cave.md."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games import get_game
from notation.games.cave import (
    GAME,
    SQUARES,
    Attack,
    CaveMove,
    CavePosition,
    Enter,
    Pass,
    Step,
    square_index,
)
from notation.games.view import Token as ViewToken
from notation.reader import read_file
from notation.replay import check_record

# Red b1 and Black c5 walk towards each other: Red's piece ends on b3, diagonal to
# Black's on c4, with Black to move.
MEET = "b1 c5 b1-b2 c5-c4 b2-b3"
# The same with Black's extra piece on a5, so that Red is to move and can attack c4.
RED_TO_ATTACK = MEET + " a5"

# Random legal play, seed 4825 of the generator: at turn 49 Red's only unit, a team of
# 2 on a1, is hemmed in by Black's pieces on a2 and b1 with b2 empty, so Red passes;
# Black wins at turn 52.
FORCED_PASS_TEXT = (
    "a1 a5 a1-b1 a5-a4 b1-c1 a5 a1 d5 a1-b1 d5-d4 c1-c2 d4-d3 c2-d2 a4-a3 d2-d1 a5-b5 "
    "d1-d2 d3-c3 b1-a1 a3-a2 Zd2xKc3 a5 c1 a5-a4 c1-b1 c3-c2 a1-b1 c2-c3 b1-a1 b5-a5 c1 "
    "a5-a4 b1 c3-c2 b1-c1 a5 d1 a5-a4 d1-d2 b5 c1-d1 Kc2xd1 d2-d3 b5-a5 d3-d2 d1-c1 "
    "Sd2xKc1 c1-b1 -- a2-a3 a1-a2 Kb1xa2"
)
FORCED_PASS_GAME = FORCED_PASS_TEXT.split()


def play(text: str) -> CavePosition:
    pos = GAME.new_position()
    for token in text.split():
        pos.push(GAME.parse(token))
    return pos


def refused(pos: CavePosition, token: str) -> str:
    """The reason ``token`` is illegal in ``pos``; the position must stay unchanged."""
    before = (pos.diagram(), pos.turn, pos.legal_moves())
    with pytest.raises(IllegalMoveError) as info:
        pos.push(GAME.parse(token))
    assert (pos.diagram(), pos.turn, pos.legal_moves()) == before
    return str(info.value)


def sq(name: str) -> int:
    return square_index(name)


# -- notation -----------------------------------------------------------------


def test_registered_under_its_name() -> None:
    assert get_game("cave") is GAME
    assert GAME.player_tags == ("Red", "Black")


@pytest.mark.parametrize(
    ("text", "move", "canonical"),
    [
        ("b1", Enter(sq("b1")), "b1"),
        ("B1", Enter(sq("b1")), "b1"),
        ("b1-b2", Step(sq("b1"), sq("b2")), "b1-b2"),
        ("D4-C4", Step(sq("d4"), sq("c4")), "d4-c4"),
        ("Zb2xSc3", Attack(sq("b2"), sq("c3"), "Z", "S"), "Zb2xSc3"),
        ("kB3Xc4", Attack(sq("b3"), sq("c4"), "K", None), "Kb3xc4"),
        ("b2xSa3", Attack(sq("b2"), sq("a3"), None, "S"), "b2xSa3"),
        ("b2xa3", Attack(sq("b2"), sq("a3"), None, None), "b2xa3"),
        ("--", Pass(), "--"),
    ],
)
def test_parse_and_canonical_text(text: str, move: CaveMove, canonical: str) -> None:
    assert GAME.parse(text) == move
    assert str(move) == canonical
    assert GAME.parse(canonical) == move


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("e5", "e5 is not a square"),
        ("c6", "c6 is not a square"),
        ("z1", "z1 is not a square"),
        ("a0", "a0 is not a square"),
        ("a1-a6", "a6 is not a square"),
        ("Ke1xd2", "e1 is not a square"),
        ("D1x", "not a Cave move"),
        ("b1-", "not a Cave move"),
        ("Kb1-b2", "not a Cave move"),
        ("b1xxc2", "not a Cave move"),
        ("KZb2xc3", "not a Cave move"),
        ("Qb2xc3", "not a Cave move"),
        ("-", "not a Cave move"),
        ("", "not a Cave move"),
        ("b1 b2", "not a Cave move"),
    ],
)
def test_malformed_tokens_are_syntax_errors(text: str, fact: str) -> None:
    with pytest.raises(MoveSyntaxError, match=fact):
        GAME.parse_move(text)


# -- board, sides, entering ------------------------------------------------------


def test_start_red_moves_first_with_six_in_each_reserve() -> None:
    pos = GAME.new_position({"Red": "A", "Black": "B"})
    assert (pos.turn, pos.mover, pos.reserves, pos.outcome()) == (0, "Red", (6, 6), None)
    assert pos.legal_moves() == [Enter(sq(f)) for f in ("a1", "b1", "c1", "d1")]
    assert all(not pos.pieces_at(s) for s in SQUARES)
    pos.push(GAME.parse("c1"))
    assert pos.mover == "Black"
    assert pos.legal_moves() == [Enter(sq(f)) for f in ("a5", "b5", "c5", "d5")]


def test_entry_only_on_own_home_row() -> None:
    assert refused(play(""), "b5") == "b5 is not on Red's home row (rank 1)"
    assert refused(play(""), "c2") == "c2 is not on Red's home row (rank 1)"
    assert refused(play("a1"), "a1") == "a1 is not on Black's home row (rank 5)"


def test_entry_only_on_an_empty_square() -> None:
    assert "b1 holds Red's piece" in refused(play("b1 b5"), "b1")


def test_entry_needs_a_reserve_and_pieces_keep_their_ids() -> None:
    # Red enters six pieces, always moving the one on b1 up to make room.
    text = "b1 a5 b1-b2 a5-a4 b1 a4-a3 b1-c1 a3-a4 b1 a4-a3 a1 a3-a4 b1-b2"
    pos = play(text)
    assert pos.reserves == (2, 5)
    pos = play(text + " a4-a3 b1 a3-a4 d1 a4-a3")
    assert pos.reserves == (0, 5)
    assert refused(pos, "b1") == "Red's reserve is empty (all 6 pieces have entered)"
    ids = sorted(p for s in SQUARES for p in pos.pieces_at(s) if pos.side_of(p) == "Red")
    assert ids == [0, 1, 2, 3, 4, 5]


# -- moving and joining ------------------------------------------------------


def test_move_one_square_orthogonally_onto_an_empty_square() -> None:
    pos = play("b1 c5")
    piece = pos.pieces_at("b1")
    pos.push(GAME.parse("b1-b2"))
    assert pos.pieces_at("b2") == piece and pos.pieces_at("b1") == ()


@pytest.mark.parametrize(
    ("setup", "token", "reason"),
    [
        ("b1 c5 b1-b2 c5-c4 b2-b3 c4-b4", "b3-c4", "b3-c4 is diagonal: a move goes one square"),
        ("b1 c5 b1-b2 c5-c4 b2-b3 b5 b3-b4 c4-c3", "b4-c5", "b4-c5 is diagonal: a move goes"),
        ("b1 c5", "b1-b3", "b1-b3 is not between neighbouring squares"),
        ("b1 c5", "b1-b1", "b1-b1 stays on its square"),
        ("b1 c5", "c3-c2", "c3 is empty"),
        ("b1 c5", "c5-c4", "c5 holds Black's piece; Red is to move"),
        ("b1 c5 b1-b2 c5-c4 b2-b3 c4-c3", "b3-c3", "c3 holds Black's piece: a move goes onto"),
    ],
)
def test_illegal_moves(setup: str, token: str, reason: str) -> None:
    assert reason in refused(play(setup), token)


def test_joins_make_teams_of_two_and_three_that_move_whole() -> None:
    pos = play("b1 c5 b1-b2 c5-c4 b1")
    first, second = pos.pieces_at("b2"), pos.pieces_at("b1")
    pos.push(GAME.parse("d5"))
    pos.push(GAME.parse("b1-b2"))
    assert pos.pieces_at("b2") == first + second and pos.pieces_at("b1") == ()
    pos.push(GAME.parse("d5-d4"))
    pos.push(GAME.parse("b1"))
    third = pos.pieces_at("b1")
    pos.push(GAME.parse("a5"))
    pos.push(GAME.parse("b1-b2"))
    team = first + second + third
    assert pos.pieces_at("b2") == team
    pos.push(GAME.parse("a5-a4"))
    pos.push(GAME.parse("b2-b3"))  # teams never split: the whole stack moves
    assert pos.pieces_at("b3") == team and pos.pieces_at("b2") == ()


def test_a_team_never_grows_beyond_three() -> None:
    three = "b1 a5 b1-b2 a5-a4 b1 a4-a3 b1-b2 a3-a4 b1 a4-a3 b1-b2 a3-a4 b1 a4-a3"
    assert refused(play(three), "b1-b2") == "a team of 3 on b2 cannot take another piece"
    assert refused(play(three), "b2-b1") == "a team of 3 on b2 cannot join another piece"
    two_and_two = "b1 a5 b1-b2 a5-a4 b1 a4-a3 b1-b2 a3-a4 b1 a4-a3 a1 a3-a4 a1-b1 a4-a3"
    assert refused(play(two_and_two), "b1-b2") == (
        "b1 and b2 hold 2 pieces each: a team has at most 3"
    )
    assert Step(sq("b1"), sq("b2")) not in play(two_and_two).legal_moves()


# -- attacks ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("Zb3xSb4", "Zb3xSb4 is orthogonal: an attack goes one square diagonally"),
        ("Zb3xd5", "is not between neighbouring squares"),
        ("Zb3xSa4", "a4 is empty"),
    ],
)
def test_attack_needs_a_diagonal_enemy(token: str, reason: str) -> None:
    assert reason in refused(play(RED_TO_ATTACK), token)


def test_attack_is_diagonal_not_orthogonal() -> None:
    pos = play("b1 c5 b1-b2 c5-c4 b2-b3 c4-c3")
    assert refused(pos, "Zb3xSc3") == "Zb3xSc3 is orthogonal: an attack goes one square diagonally"


def test_attack_on_own_piece() -> None:
    pos = play("b1 c5 b1-b2 c5-c4 a1 d5")
    assert refused(pos, "Sa1xSb2") == "b2 holds Red's piece, not an enemy"


def test_single_piece_needs_its_class_letter() -> None:
    pos = play(RED_TO_ATTACK)
    assert refused(pos, "b3xSc4") == "a single piece fights as its identity: write Kb3, Zb3 or Sb3"
    assert refused(pos, "Kb3xc4") == "a single piece fights as its identity: write Kc4, Zc4 or Sc4"


def test_a_shown_piece_without_letter_names_its_reveal() -> None:
    pos = play(MEET + " Sc4xKb3 a1 a5 b3-b4 c5")
    assert refused(pos, "b4xSc5") == (
        "a single piece fights as its identity: the piece on b4 was shown as a black knight "
        "at turn 6, write Kb4"
    )


def test_a_team_carries_no_letter() -> None:
    two = "b1 c5 b1-b2 c5-c4 b1 a5 b1-b2 a5-a4 b2-b3 a4-a5"
    assert refused(play(two), "Zb3xSc4") == (
        "b3 holds a team of 2, which fights as a zombie and shows no identity: "
        "write b3 without a class letter"
    )
    defender = "b1 c5 b1-b2 c5-c4 b1 a5 b1-b2 a5-a4 b2-b3"
    assert "b3 holds a team of 2" in refused(play(defender), "Sc4xZb3")


# The whole combat table: the attacker wins iff its class is at least the defender's.
COMBAT = {
    ("K", "K"): True, ("K", "Z"): True, ("K", "S"): True,
    ("Z", "K"): False, ("Z", "Z"): True, ("Z", "S"): True,
    ("S", "K"): False, ("S", "Z"): False, ("S", "S"): True,
}  # fmt: skip


@pytest.mark.parametrize(("pair", "attacker_wins"), COMBAT.items())
def test_combat_single_against_single(pair: tuple[str, str], attacker_wins: bool) -> None:
    pos = play(RED_TO_ATTACK)
    red, black = pos.pieces_at("b3"), pos.pieces_at("c4")
    pos.push(GAME.parse(f"{pair[0]}b3x{pair[1]}c4"))
    assert pos.pieces_at("b3") == ()
    assert pos.pieces_at("c4") == (red if attacker_wins else black)
    assert pos.revealed(red[0]) == (pair[0], 7)
    assert pos.revealed(black[0]) == (pair[1], 7)
    assert pos.outcome() is None


# Teams: a 2-team fights as Z, a 3-team as K, with the same table.
TWO_ON_B3 = "b1 c5 b1-b2 c5-c4 b1 a5 b1-b2 a5-a4 b2-b3"  # Black to move, c4 single
THREE_ON_B3 = "b1 c5 b1-b2 c5-c4 b1 a5 b1-b2 a5-a4 b1 d5 b1-b2 d5-d4 b2-b3"


@pytest.mark.parametrize(
    ("setup", "token", "attacker_wins"),
    [
        (TWO_ON_B3 + " a4-a5", "b3xKc4", False),  # Z v K
        (TWO_ON_B3 + " a4-a5", "b3xZc4", True),  # Z v Z: tie to the attacker
        (TWO_ON_B3 + " a4-a5", "b3xSc4", True),
        (TWO_ON_B3, "Kc4xb3", True),
        (TWO_ON_B3, "Zc4xb3", True),
        (TWO_ON_B3, "Sc4xb3", False),  # S v Z: the defender wins
        (THREE_ON_B3 + " a4-a5", "b3xKc4", True),  # K v K
        (THREE_ON_B3, "Kc4xb3", True),  # K v K: tie to the attacker
        (THREE_ON_B3, "Zc4xb3", False),
        (THREE_ON_B3, "Sa4xb3", False),
    ],
)
def test_team_fights(setup: str, token: str, attacker_wins: bool) -> None:
    pos = play(setup)
    move = GAME.parse(token)
    assert isinstance(move, Attack)
    attacker, defender = pos.pieces_at(move.origin), pos.pieces_at(move.target)
    counts = pos._on_board.copy()
    pos.push(move)
    assert pos.pieces_at(move.origin) == ()
    assert pos.pieces_at(move.target) == (attacker if attacker_wins else defender)
    loser = defender if attacker_wins else attacker
    side = pos.turn & 1 if attacker_wins else 1 - (pos.turn & 1)
    # the loser is removed whole; team members are never revealed
    assert pos._on_board[side] == counts[side] - len(loser)
    team = attacker if len(attacker) > 1 else defender
    assert all(pos.revealed(p) is None for p in team)


def test_team_against_team() -> None:
    pos = play("b1 c5 b1-b2 c5-c4 b1 c5 b1-b2 c5-c4 b2-b3")
    black = pos.pieces_at("c4")
    pos.push(GAME.parse("c4xb3"))  # Z v Z: the attacker wins
    assert pos.pieces_at("b3") == black and pos.pieces_at("c4") == ()


# -- hidden information -----------------------------------------------------------


def test_a_piece_keeps_its_identity_wherever_it_goes() -> None:
    pos = play(RED_TO_ATTACK + " Zb3xSc4 d5")
    assert refused(pos, "Sc4xSd5") == (
        "the piece on c4 was shown as a zombie at turn 7, so it is not a skeleton"
    )
    pos.push(GAME.parse("Zc4xSd5"))
    assert pos.possible_identities("d5") == frozenset("Z")


def test_identity_is_kept_inside_a_team() -> None:
    pos = play(MEET + " Sc4xKb3 b1 a5 b1-b2 a5-a4 b2-b3 a4-a5")
    knight, other = pos.pieces_at("b3")
    assert pos.revealed(knight) == ("K", 6) and pos.revealed(other) is None
    assert pos.piece_identities(knight) == frozenset("K")
    assert pos.piece_identities(other) == frozenset("ZS")
    assert pos.possible_identities("b3") == frozenset("KZS")


def test_a_side_shows_at_most_one_knight() -> None:
    pos = play(RED_TO_ATTACK + " Kb3xSc4 a5-a4 b1 a4-a3 b1-b2")
    assert refused(pos, "Sa3xKb2") == (
        "Red has already shown its black knight at turn 7; the piece on b2 cannot be "
        "a black knight too (each side has 1 K, 2 Z, 3 S)"
    )
    assert GAME.parse("Sa3xKb2") not in pos.legal_moves()
    pos.push(GAME.parse("Sa3xZb2"))


def _black_attacks_the_knight(letters: str) -> str:
    """Red's knight stands on b3; Black's pieces come down c5-c4 and attack it one by one.

    The first attack is at turn 6, then one every 6 turns; Red waits on d1/d2.  The
    text ends with the next Black piece on c4, Black to move.
    """
    waits = itertools.cycle(["d1-d2", "d2-d1"])
    text = MEET + f" {letters[0]}c4xKb3 d1"
    for letter in letters[1:]:
        text += f" c5 {next(waits)} c5-c4 {next(waits)} {letter}c4xKb3 {next(waits)}"
    return text + f" c5 {next(waits)} c5-c4 {next(waits)}"


def test_a_side_shows_at_most_two_zombies_and_three_skeletons() -> None:
    pos = play(_black_attacks_the_knight("ZZ"))
    assert refused(pos, "Zc4xKb3") == (
        "Black has already shown its 2 zombies (turns 6 and 12); the piece on c4 cannot be "
        "a zombie too (each side has 1 K, 2 Z, 3 S)"
    )
    pos = play(_black_attacks_the_knight("ZZSSS"))
    assert pos.reserves == (4, 0)
    assert pos.possible_identities("c4") == frozenset("K")
    assert "Black has already shown its 3 skeletons (turns 18, 24 and 30)" in refused(
        pos, "Sc4xKb3"
    )
    pos.push(GAME.parse("Kc4xKb3"))  # the last one is the knight, and it wins


def test_possible_identities_follow_the_reveals() -> None:
    pos = play(RED_TO_ATTACK)
    assert pos.possible_identities("b3") == frozenset("KZS")
    pos.push(GAME.parse("Kb3xZc4"))
    red_knight = pos.pieces_at("c4")[0]
    assert pos.piece_identities(red_knight) == frozenset("K")
    assert pos.possible_identities("a5") == frozenset("KZS")
    pos.push(GAME.parse("b5"))
    pos.push(GAME.parse("Kc4xZb5"))
    assert pos.possible_identities("a5") == frozenset("KS")
    with pytest.raises(MisuseError, match="b1 is empty"):
        pos.possible_identities("b1")


def test_legal_attacks_offer_every_consistent_letter_pair() -> None:
    pos = play(RED_TO_ATTACK)
    attacks = {m for m in pos.legal_moves() if isinstance(m, Attack)}
    pairs = itertools.product("KZS", "KZS")
    assert attacks == {Attack(sq("b3"), sq("c4"), a, d) for a, d in pairs}
    # once Red has shown its knight, another Red piece is offered only Z and S
    pos = play(RED_TO_ATTACK + " Kb3xSc4 a5-a4 b1 a4-a3 b1-b2")
    attacks = {m for m in pos.legal_moves() if isinstance(m, Attack)}
    assert attacks == {Attack(sq("a3"), sq("b2"), a, d) for a in "KZS" for d in "ZS"}
    # a team is offered without letters
    pos = play(TWO_ON_B3)
    attacks = {m for m in pos.legal_moves() if isinstance(m, Attack)}
    assert attacks == {Attack(s, sq("b3"), a, None) for s in (sq("c4"), sq("a4")) for a in "KZS"}


# -- passing and the end ----------------------------------------------------------


def test_pass_is_illegal_while_an_action_exists() -> None:
    assert refused(play(""), "--") == (
        "Red has a legal action (e.g. a1): a side passes only when it has none"
    )
    assert refused(play(MEET), "--").startswith("Black has a legal action")


def test_forced_pass_then_the_game_goes_on() -> None:
    pos = GAME.new_position()
    for token in FORCED_PASS_GAME[:48]:
        pos.push(GAME.parse(token))
    assert pos.mover == "Red" and pos.legal_moves() == [Pass()]
    pos.push(Pass())
    assert pos.outcome() is None and Pass() not in pos.legal_moves()
    assert refused(pos, "--").startswith("Black has a legal action")


def test_win_when_the_opponent_has_nothing_left() -> None:
    pos = GAME.new_position()
    for token in FORCED_PASS_GAME[:-1]:
        pos.push(GAME.parse(token))
    assert pos.outcome() is None
    pos.push(GAME.parse(FORCED_PASS_GAME[-1]))
    assert pos.outcome() == "0-1" and pos.turn == 52
    assert pos.reserves[0] == 0 and all(pos.side_of(p) == "Black" for p in _all_pieces(pos))
    assert pos.legal_moves() == []
    assert refused(pos, "b1") == "the game is over: Black won at turn 52"
    assert "the game is over: Black won at turn 52" in pos.diagram()
    pos.pop()
    assert pos.outcome() is None


def test_no_win_while_the_opponent_has_a_reserve() -> None:
    pos = play(MEET + " Sc4xKb3")  # Black's only piece on the board is removed
    assert pos.outcome() is None and pos.reserves == (5, 5)
    pos.push(GAME.parse("a1"))
    assert pos.legal_moves() == [Enter(sq(f)) for f in ("a5", "b5", "c5", "d5")]


class _NoActionPosition(CavePosition):
    """A position whose sides never have an action.

    Two passes in a row cannot happen in a real game (a unit next to an empty
    square can always move there, and 12 pieces cannot fill 20 squares), so the
    ruling is exercised with the action test switched off.
    """

    def _has_action(self, side: int) -> bool:
        return False


def test_two_passes_in_a_row_draw() -> None:
    pos = _NoActionPosition()
    pos.push(Pass())
    assert pos.outcome() is None
    pos.push(Pass())
    assert pos.outcome() == "1/2-1/2"
    with pytest.raises(IllegalMoveError, match=r"drawn at turn 2 \(two passes in a row\)"):
        pos.push(Pass())
    pos.pop()
    assert pos.outcome() is None


def test_both_sides_without_pieces_draw() -> None:
    # Unreachable by play (docs/cave.md says so); the end test is checked directly.
    pos = GAME.new_position()
    pos._reserve[:] = [0, 0]
    pos._check_end()
    assert pos.outcome() == "1/2-1/2"


def test_result_tokens() -> None:
    assert dict(GAME.result_names) == {"1-0": "Red wins", "0-1": "Black wins", "1/2-1/2": "draw"}
    assert GAME.allows_result("1/2-1/2") and GAME.allows_result("*")


# -- diagram, copy, pop ---------------------------------------------------------------


def test_diagram_shows_pieces_reserves_and_mover() -> None:
    pos = play(MEET + " Sc4xKb3 b1 a5 b1-b2 a5-a4")
    text = pos.diagram()
    assert "3  .      R[K]" in text and "2  .      R[?]" in text and "4  B[?]" in text
    assert "Reserves: Red 4, Black 4" in text
    assert "Red has shown: K at turn 6" in text and "Black has shown: S at turn 6" in text
    assert text.endswith("Red to move (turn 11)")


def test_copy_is_independent_and_pop_restores() -> None:
    pos = play(RED_TO_ATTACK)
    twin = pos.copy()
    pos.push(GAME.parse("Kb3xSc4"))
    assert twin.turn == 6 and twin.pieces_at("c4") != pos.pieces_at("c4")
    assert pos.pop() == GAME.parse("Kb3xSc4")
    assert pos.diagram() == twin.diagram() and pos.legal_moves() == twin.legal_moves()
    assert twin.copy().pop() == GAME.parse("a5")


def _all_pieces(pos: CavePosition) -> list[int]:
    return [p for s in SQUARES for p in pos.pieces_at(s)]


# -- the generator ------------------------------------------------------------------


def test_random_playout_is_reproducible_and_consistent() -> None:
    first = GAME.random_playout(GAME.new_position(), random.Random(7), 400)
    again = GAME.random_playout(GAME.new_position(), random.Random(7), 400)
    assert first == again
    pos = GAME.new_position()
    for move in first:
        pos.push(GAME.parse(str(move)))
    assert pos.outcome() in {"1-0", "0-1"}
    short = GAME.new_position()
    assert len(GAME.random_playout(short, random.Random(7), 10)) == 10 == short.turn


def test_random_playout_writes_true_identities() -> None:
    # Over many games every class of both sides gets shown, never beyond 1K 2Z 3S.
    seen: set[tuple[str, str]] = set()
    for seed in range(40):
        pos = GAME.new_position()
        GAME.random_playout(pos, random.Random(seed), 300)
        for pid in range(12):
            shown = pos.revealed(pid)
            if shown:
                seen.add((pos.side_of(pid), shown[0]))
    assert seen == {(side, c) for side in ("Red", "Black") for c in "KZS"}


def test_random_playout_keeps_earlier_reveals() -> None:
    pos = play(RED_TO_ATTACK + " Kb3xSc4")
    GAME.random_playout(pos, random.Random(3), 300)
    assert pos.revealed(0) == ("K", 7)


# -- properties ------------------------------------------------------------------------

_SQUARE_IDS = st.integers(0, len(SQUARES) - 1)
_LETTERS = st.sampled_from([None, "K", "Z", "S"])
_MOVES: st.SearchStrategy[CaveMove] = st.one_of(
    st.builds(Enter, _SQUARE_IDS),
    st.builds(Step, _SQUARE_IDS, _SQUARE_IDS),
    st.builds(Attack, _SQUARE_IDS, _SQUARE_IDS, _LETTERS, _LETTERS),
    st.just(Pass()),
)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), probes=st.lists(_MOVES, min_size=30, max_size=30))
def test_random_games_round_trip_and_agree_with_push(seed: int, probes: list[CaveMove]) -> None:
    rng = random.Random(seed)
    pos = GAME.new_position()
    undo_check: list[str] = []
    while pos.outcome() is None and pos.turn < 400:
        legal = pos.legal_moves()
        assert legal
        for move in legal:
            assert GAME.parse(str(move)) == move
            assert GAME.parse(str(move).upper()) == move
        probe = probes[pos.turn % len(probes)]
        if probe in legal:
            assert pos.check(probe) is None
        else:
            before = pos.diagram()
            assert pos.check(probe) is not None
            assert pos.diagram() == before
        if Pass() in legal:
            assert legal == [Pass()]
        undo_check.append(pos.diagram())
        pos.push(GAME.parse(str(rng.choice(legal))))
        if pos.legal_moves() == [Pass()] and pos.outcome() is None:
            # after a forced pass the other side always has an action again
            pos.push(Pass())
            assert pos.outcome() is None and pos.legal_moves() != [Pass()]
            pos.pop()
    assert pos.legal_moves() == []
    while undo_check:
        pos.pop()
        assert pos.diagram() == undo_check.pop()


# -- position strings ---------------------------------------------------------------

START_STRING = "- 6/6 -/- 0 r 0"
# The docs' example after 12 turns: Red's knight (shown at turn 6) and a hidden piece
# form a team on b3; Black's skeleton shown at turn 6 is gone.
DOCS_EXAMPLE = MEET + " Sc4xKb3 b1 a5 b1-b2 a5-a4 b2-b3 c5"
DOCS_EXAMPLE_STRING = "b3:rK@6?,a4:b?,c5:b? 4/3 -/S@6 0 r 12"
# records/cave/positions.ugn, first record: a middle game after 30 turns.
MIDDLE_STRING = "d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30"
# Reveals without their turns: one of each class shown by each side.
NO_TURNS_STRING = "a1:r?,b2:rK?,c3:rZ,d4:bS,b5:b??,d5:b? 1/0 S/KZ 0 r 20"


def from_string(text: str) -> CavePosition:
    return GAME.position_from_string(text)


def test_start_position_string() -> None:
    start = GAME.new_position()
    assert start.position_string() == START_STRING
    again = from_string(START_STRING)
    assert again.turn == 0 and again.mover == "Red" and again.reserves == (6, 6)
    assert again.legal_moves() == start.legal_moves()
    assert again.last_move_facts() == {} and again.annotations() == []


def test_position_string_fields() -> None:
    pos = play(DOCS_EXAMPLE)
    assert pos.position_string() == DOCS_EXAMPLE_STRING
    back = from_string(DOCS_EXAMPLE_STRING)
    assert back.position_string() == DOCS_EXAMPLE_STRING
    assert back.diagram() == pos.diagram()
    assert back.turn == 12 and back.mover == "Red" and back.reserves == (4, 3)
    # ids: by square, bottom to top, then removed pieces; reserves enter next
    assert back.pieces_at("b3") == (0, 1) and back.revealed(0) == ("K", 6)
    assert back.pieces_at("a4") == (6,) and back.pieces_at("c5") == (7,)
    assert back.revealed(8) == ("S", 6) and back.revealed(9) is None
    back.push(GAME.parse("a1"))
    assert back.pieces_at("a1") == (2,)
    assert back.position_string() == "a1:r?,b3:rK@6?,a4:b?,c5:b? 3/3 -/S@6 0 b 13"


def test_non_canonical_order_is_normalised() -> None:
    shuffled = "c5:b?,b3:rK@6?,a4:b? 4/3 -/S@6 0 r 12"
    assert from_string(shuffled).position_string() == DOCS_EXAMPLE_STRING
    # removed pieces: revealed first, by turn, then the hidden ones
    text = "a1:r?,a5:b? 1/5 ?S@3K@1Z@5/- 0 r 10"
    assert from_string(text).position_string() == "a1:r?,a5:b? 1/5 K@1S@3Z@5?/- 0 r 10"


def test_a_position_string_goes_on_counting_turns() -> None:
    pos = from_string(MIDDLE_STRING)
    assert pos.turn == 30 and pos.mover == "Red" and pos.outcome() is None
    assert pos.possible_identities("c4") == frozenset("ZS")
    assert pos.possible_identities("d2") == frozenset("ZS")
    pos.push(GAME.parse("Kb3xc4"))
    assert pos.turn == 31 and pos.mover == "Black"
    for token in ("a5-a4", "c4-b4", "a4-a3", "Kb4xZa3"):
        pos.push(GAME.parse(token))
    assert pos.outcome() == "1-0"
    assert refused(pos, "a1") == "the game is over: Red won at turn 35"
    for _ in range(5):
        pos.pop()
    assert pos.position_string() == MIDDLE_STRING
    with pytest.raises(MisuseError, match="no move to take back"):
        pos.pop()


def test_reveal_turns_name_the_turn_or_say_earlier() -> None:
    with_turns = from_string(MIDDLE_STRING)
    assert refused(with_turns, "Sb3xc4") == (
        "the piece on b3 was shown as a black knight at turn 9, so it is not a skeleton"
    )
    pos = from_string(NO_TURNS_STRING)
    assert pos.revealed(pos.pieces_at("c3")[0]) == ("Z", 0)
    assert refused(pos, "Sc3xSd4") == (
        "the piece on c3 was shown as a zombie earlier, so it is not a skeleton"
    )
    assert refused(pos, "c3xSd4") == (
        "a single piece fights as its identity: the piece on c3 was shown as a zombie "
        "earlier, write Zc3"
    )
    assert "Red has shown: K earlier, Z earlier, S earlier" in pos.diagram()
    assert pos.possible_identities("a1") == frozenset("ZS")
    knight_gone = from_string("b2:r?,c3:b? 4/5 K/- 0 r 4")
    assert refused(knight_gone, "Kb2xSc3") == (
        "Red has already shown its black knight earlier; the piece on b2 cannot be a "
        "black knight too (each side has 1 K, 2 Z, 3 S)"
    )
    zombies_gone = from_string("b2:r?,c3:b? 3/5 ZZ/- 0 r 6")
    assert refused(zombies_gone, "Zb2xSc3") == (
        "Red has already shown its 2 zombies earlier; the piece on b2 cannot be a "
        "zombie too (each side has 1 K, 2 Z, 3 S)"
    )


def test_a_finished_game_reads_back_finished() -> None:
    pos = play(FORCED_PASS_TEXT)
    text = pos.position_string()
    assert text == "a2:bK@21,a3:b?,a4:b???,a5:b? 0/0 Z@21S@47????/- 0 r 52"
    back = from_string(text)
    assert back.outcome() == "0-1" and back.legal_moves() == []
    assert refused(back, "--") == refused(pos, "--") == "the game is over: Black won at turn 52"


def test_a_forced_pass_reads_back() -> None:
    pos = play(" ".join(FORCED_PASS_GAME[:49]))
    assert pos.last_move_facts() == {"side": "red", "passes": 1}
    text = pos.position_string()
    assert text == "a1:r??,b1:bK@21,a2:b?,a4:b???,a5:b? 0/0 Z@21S@47??/- 1 b 49"
    back = from_string(text)
    assert back.legal_moves() == pos.legal_moves()
    back.push(GAME.parse("a2-a3"))
    assert back.position_string().split()[3] == "0"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "has 6 fields"),
        ("- 6/6 -/- 0 r", "has 6 fields"),
        ("- 6/6 -/- 0 r 0 x", "has 6 fields"),
        ("- 6/6 -/- 0 r -1", "turn: '-1' is not a number"),
        ("- 6/6 -/- 0 r 01", "turn: '01'"),
        ("- 6/6 -/- 0 w 0", "mover: 'w' is not r (Red) or b (Black)"),
        ("- 6/6 -/- 0 b 0", "mover: after 0 turns Red is to move, not Black"),
        ("- 6-6 -/- 0 r 0", "reserves: '6-6'"),
        ("- 7/6 -/- 0 r 0", "reserves: '7/6'"),
        ("a1:r 5/6 -/- 0 b 1", "board: a1: '' is not a list of pieces"),
        ("a1:rX 5/6 -/- 0 b 1", "board: a1: 'X' is not a list of pieces"),
        ("a1:rK@0 5/6 -/- 0 b 1", "board: a1: 'K@0'"),
        ("a1:x? 5/6 -/- 0 b 1", "board: 'a1:x?' is not a unit"),
        ("A1:r? 5/6 -/- 0 b 1", "board: 'A1:r?' is not a unit"),
        ("e1:r? 5/6 -/- 0 b 1", "board: e1 is not a square of the Cave board"),
        ("a1:r?,a1:r? 4/6 -/- 0 b 3", "board: a1 is listed twice"),
        ("a1:r?,,b1:r? 4/6 -/- 0 b 3", "board: '' is not a unit"),
        ("a1:r???? 2/6 -/- 0 r 8", "board: a1 holds 4 pieces; a team has at most 3"),
        ("- 6/6 - 0 r 0", "removed: '-' is not Red's and Black's removed pieces"),
        ("- 6/6 -/-/- 0 r 0", "removed: '-/-/-'"),
        ("- 5/6 Q/- 0 b 1", "removed (Red): 'Q' is not a list of pieces"),
        ("- 6/6 -/- x r 0", "passes: 'x' is not a count"),
    ],
)
def test_malformed_position_strings_are_refused(text: str, reason: str) -> None:
    with pytest.raises(TagValueError) as info:
        from_string(text)
    assert info.value.tag == "Position"
    assert str(info.value).startswith("bad Cave position: ")
    assert reason in str(info.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a1:r? 6/6 -/- 0 b 1", "Red has 7 pieces (1 on the board, 6 in reserve, 0 removed)"),
        ("- 5/6 -/- 0 b 1", "Red has 5 pieces"),
        ("a1:r?,b1:r? 4/6 -/- 0 b 1", "2 of Red's pieces have entered, but Red has played only 1"),
        (
            "a1:r?,a5:b? 5/5 -/- 0 b 1",
            "1 of Black's pieces have entered, but Black has played only 0",
        ),
        ("a1:rK,b2:rK 4/6 -/- 0 r 4", "Red shows 2 black knights"),
        ("a1:rS@1 1/6 S@2S@3Z@4S@5/- 0 r 10", "Red shows 4 skeletons"),
        ("a1:rZ@7 5/6 -/- 0 r 4", "Red's Z@7 was shown at turn 7, but only 4 turns"),
        ("a1:rZ@3,b2:rS@3 4/6 -/- 0 r 8", "Red has two pieces shown at turn 3"),
        ("- 5/0 ?/?????? 0 b 13", "Black has no piece left and Red none on the board"),
        ("- 0/0 ??????/?????? 0 r 30", "neither side has a piece left"),
        ("a1:r? 5/6 -/- 1 b 1", "passes: 1 in a row, but Red has a legal action"),
        ("a1:r? 5/6 -/- 3 b 1", "passes: 3, but two passes in a row end the game"),
        (
            "a1:rK@3 5/0 -/?????? 1 r 12",
            "passes: 1, but the game was already over",
        ),
    ],
)
def test_impossible_position_strings_are_refused(text: str, reason: str) -> None:
    with pytest.raises(TagValueError) as info:
        from_string(text)
    assert reason in str(info.value)


def _play_to(moves: list[CaveMove], turns: int) -> CavePosition:
    pos = GAME.new_position()
    for move in moves[:turns]:
        pos.push(move)
    return pos


def _snapshot(pos: CavePosition, probes: list[CaveMove]) -> tuple[object, ...]:
    """Everything a position says, ids aside: must be equal for a position read back."""
    return (
        pos.position_string(),
        pos.turn,
        pos.mover,
        pos.outcome(),
        pos.legal_moves(),
        pos.diagram(),
        pos.last_move_facts(),
        pos.annotations(),
        pos.board_view(),
        [pos.check(probe) for probe in probes],
    )


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0, 1),
    probes=st.lists(_MOVES, min_size=5, max_size=5),
)
def test_position_strings_round_trip_and_play_on_identically(
    seed: int, cut: float, probes: list[CaveMove]
) -> None:
    moves = list(GAME.random_playout(GAME.new_position(), random.Random(seed), 300))
    turns = round(cut * len(moves))
    original = _play_to(moves, turns)
    text = original.position_string()
    assert text.count(" ") == 5 and not set(text) & set('"{}[]\n')
    back = from_string(text)
    assert back.position_string() == text
    assert back.legal_moves() == original.legal_moves()
    assert back.outcome() == original.outcome()
    # What each says of the last move differs only because the copy has no history.
    assert back.last_move_facts() == {} and back.annotations() == []
    # Continue in lockstep with the rest of the game.
    for move in moves[turns:]:
        assert back.check(move) is None
        original.push(move)
        back.push(move)
        assert _snapshot(back, probes) == _snapshot(original, probes)
    # The same end, or both still going: a random game may outlast the 300 turns.
    assert back.outcome() == original.outcome()
    assert original.outcome() is not None or len(moves) == 300


def test_random_playout_from_a_position_string() -> None:
    pos = from_string(MIDDLE_STRING)
    GAME.random_playout(pos, random.Random(5), 300)
    assert pos.outcome() in {"1-0", "0-1"}
    assert pos.revealed(6 + 2) == ("Z", 14)  # Black's zombie on a5 keeps its reveal


# -- moves and facts as data ---------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "data"),
    [
        ("b1", {"type": "enter", "square": "b1"}),
        ("b1-b2", {"type": "step", "from": "b1", "to": "b2"}),
        (
            "Zb2xSc3",
            {"type": "attack", "from": "b2", "to": "c3", "attacker": "Z", "defender": "S"},
        ),
        (
            "b2xc3",
            {"type": "attack", "from": "b2", "to": "c3", "attacker": None, "defender": None},
        ),
        ("--", {"type": "pass"}),
    ],
)
def test_move_to_dict(token: str, data: dict[str, object]) -> None:
    move = GAME.parse(token)
    assert GAME.move_to_dict(move) == data
    assert json.loads(json.dumps(GAME.move_to_dict(move))) == data


def test_canonical_is_the_move_itself() -> None:
    pos = play(RED_TO_ATTACK)
    for move in pos.legal_moves():
        assert pos.canonical(move) is move


def _facts_after(setup: str, token: str) -> dict[str, object]:
    pos = play(setup)
    pos.push(GAME.parse(token))
    facts = pos.last_move_facts()
    assert json.loads(json.dumps(facts)) == facts
    return facts


def test_facts_of_an_entry_a_step_and_a_join() -> None:
    assert GAME.new_position().last_move_facts() == {}
    assert _facts_after("b1", "c5") == {"side": "black", "reserve_left": 5}
    assert _facts_after("b1 c5", "b1-b2") == {"side": "red", "join": False, "team_size": 1}
    assert _facts_after("b1 c5 b1-b2 c5-c4 b1 a5", "b2-b1") == {
        "side": "red",
        "join": True,
        "team_size": 2,
    }


def test_facts_of_attacks() -> None:
    # Black's skeleton attacks Red's knight and loses; both are shown.
    assert _facts_after(MEET, "Sc4xKb3") == {
        "side": "black",
        "attacker_class": "S",
        "attacker_size": 1,
        "defender_class": "K",
        "defender_size": 1,
        "winner": "defender",
        "removed": {"side": "black", "count": 1},
        "revealed": {"c4": "S", "b3": "K"},
    }
    # The middle game: Red's knight (already shown) beats a team of 2: nothing new
    # is shown, two pieces leave.
    pos = from_string(MIDDLE_STRING)
    pos.push(GAME.parse("Kb3xc4"))
    assert pos.last_move_facts() == {
        "side": "red",
        "attacker_class": "K",
        "attacker_size": 1,
        "defender_class": "Z",
        "defender_size": 2,
        "winner": "attacker",
        "removed": {"side": "black", "count": 2},
        "revealed": {},
    }
    for token in ("a5-a4", "c4-b4", "a4-a3", "Kb4xZa3"):
        pos.push(GAME.parse(token))
    facts = pos.last_move_facts()
    assert facts["outcome"] == "1-0" and facts["removed"] == {"side": "black", "count": 1}


def test_facts_of_a_pass() -> None:
    pos = play(" ".join(FORCED_PASS_GAME[:49]))
    assert FORCED_PASS_GAME[48] == "--"
    assert pos.last_move_facts() == {"side": "red", "passes": 1}
    pos.push(GAME.parse(FORCED_PASS_GAME[49]))
    assert pos.last_move_facts() == {"side": "black", "join": False, "team_size": 1}


# -- annotations ------------------------------------------------------------------------


def test_annotations() -> None:
    pos = play(MEET)
    assert pos.annotations() == []  # a step changes nothing worth noting
    pos.push(GAME.parse("Sc4xKb3"))
    # Nothing narrowed yet: Red has shown its knight, but its only piece on the
    # board is that knight; Black has no piece on the board.
    assert pos.annotations() == [("reveal", "c4:S b3:K")]
    pos.push(GAME.parse("b1"))
    assert pos.annotations() == [("reserve", "R4 B5")]
    pos.push(GAME.parse("c5"))
    assert pos.annotations() == [("reserve", "R4 B4")]


def test_annotations_list_the_narrowed_pieces() -> None:
    pos = play(" ".join(FORCED_PASS_GAME[:47]))
    assert FORCED_PASS_GAME[46] == "Sd2xKc1"
    # Black has shown its knight: its other pieces are zombies or skeletons.  Red has
    # shown a zombie and now a skeleton: its team on a1 may still be anything.
    assert pos.annotations() == [("reveal", "d2:S"), ("possible", "a2:ZS a4:ZS a5:ZS")]
    for _key, value in pos.annotations():
        assert not set(value) & set("[]{}\n")
    # An attack without a new reveal still lists what is narrowed.
    mid = from_string(MIDDLE_STRING)
    mid.push(GAME.parse("Kb3xc4"))
    assert mid.annotations() == [("possible", "d2:ZS")]


# -- the board view ----------------------------------------------------------------------


def _check_view_structure(pos: CavePosition) -> None:
    view = pos.board_view()
    assert view.files == ("a", "b", "c", "d") and view.ranks == ("1", "2", "3", "4", "5")
    assert sorted(view.cells) == sorted(SQUARES)
    roles = {cell.role for cell in view.cells.values()}
    roles |= {t.role for cell in view.cells.values() for t in cell.tokens}
    assert roles <= set(view.palette)
    for colour in view.palette.values():
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
    for name, cell in view.cells.items():
        assert cell.square == name
        assert len(cell.tokens) == len(pos.pieces_at(name))
        assert all(1 <= len(t.label) <= 2 for t in cell.tokens)
    assert view.links == ()
    history = pos._history
    if history:
        data = GAME.move_to_dict(history[-1][0])
        want = tuple(data[k] for k in ("square", "from", "to") if k in data)
        assert view.marks == want
        assert view.caption.startswith(f"{history[-1][0]}: ")
    else:
        assert view.marks == () and view.caption == ""
    json.dumps(view.to_dict())


def test_board_view_of_the_docs_example() -> None:
    pos = play(DOCS_EXAMPLE)
    view = pos.board_view()
    _check_view_structure(pos)
    assert view.cell("a1").role == "home-red" and view.cell("c5").role == "home-black"
    assert view.cell("b3").role == "square" and view.cell("b3").note == "=Z"
    assert view.cell("b3").tokens == (ViewToken("red", "rK"), ViewToken("red", "r?"))
    assert view.cell("a4").tokens == (ViewToken("black", "b?"),)
    assert view.cell("a4").note == "KZS"
    assert view.cell("a1").tokens == () and view.cell("a1").note == ""
    assert view.marks == ("c5",)
    assert view.facts == (
        ("To move", "Red"),
        ("Next turn", "13"),
        ("Reserves", "Red 4, Black 3"),
        ("Red revealed", "K 1/1, Z 0/2, S 0/3"),
        ("Black revealed", "K 0/1, Z 0/2, S 1/3"),
        ("Red hidden", "Z 2/5, S 3/5 each (5 pieces)"),
        ("Black hidden", "K 1/5, Z 2/5, S 2/5 each (5 pieces)"),
    )
    assert view.cell("a4").detail == "never shown: K 1/5, Z 2/5, S 2/5"
    assert view.caption == "c5: Black entered a piece on c5 (3 left in reserve)"


def test_board_view_notes_and_captions() -> None:
    pos = from_string(MIDDLE_STRING)
    view = pos.board_view()
    assert view.cell("d2").note == "=Z" and view.cell("c4").note == "=Z"
    assert view.cell("b3").note == "" and view.cell("b3").tokens == (ViewToken("red", "rK"),)
    assert view.caption == "" and view.marks == ()
    pos.push(GAME.parse("Kb3xc4"))
    assert pos.board_view().caption == (
        "Kb3xc4: Red's black knight beat Black's team of 2 (fighting as a zombie) and took c4"
    )
    assert pos.board_view().marks == ("b3", "c4")
    for token in ("a5-a4", "c4-b4", "a4-a3", "Kb4xZa3"):
        pos.push(GAME.parse(token))
    view = pos.board_view()
    assert view.caption == "Kb4xZa3: Red's black knight beat Black's zombie and took a3; Red wins"
    assert view.facts[0] == ("Result", "1-0 (Red wins)")
    assert ("Black revealed", "K 1/1, Z 1/2, S 2/3") in view.facts
    three = play(
        "b1 a5 b1-b2 a5-a4 b1 b5 b2-c2 a4-a3 b1-b2 b5-b4 c2-b2 b4-c4 a1 a3-a2 a1-b1 c4-c3 "
        "b1-b2 a5 b2-c2"
    )
    _check_view_structure(three)
    assert three.board_view().cell("c2").note == "=K"
    assert three.board_view().caption == ("b2-c2: Red's team of 3 moved to c2")


@pytest.mark.parametrize(
    ("setup", "token", "caption"),
    [
        ("b1 c5", "b1-b2", "b1-b2: Red's piece moved to b2"),
        (MEET, "Sc4xKb3", "Sc4xKb3: Black's skeleton lost to Red's black knight on b3"),
        (RED_TO_ATTACK, "Zb3xSc4", "Zb3xSc4: Red's zombie beat Black's skeleton and took c4"),
        (
            "b1 c5 b1-b2 c5-c4 b1",
            "a5 b2-b1",
            "b2-b1: Red's piece joined Red's piece on b1, making a team of 2",
        ),
    ],
)
def test_captions(setup: str, token: str, caption: str) -> None:
    pos = play(setup + " " + token)
    assert pos.board_view().caption == caption
    _check_view_structure(pos)


def test_board_view_after_a_pass() -> None:
    pos = play(" ".join(FORCED_PASS_GAME[:49]))
    view = pos.board_view()
    _check_view_structure(pos)
    assert view.caption == "--: Red had no action and passed" and view.marks == ()
    assert view.facts[-1] == ("Passes in a row", "1")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_board_view_of_random_positions(seed: int, cut: float) -> None:
    moves = list(GAME.random_playout(GAME.new_position(), random.Random(seed), 300))
    pos = _play_to(moves, round(cut * len(moves)))
    _check_view_structure(pos)
    view = pos.board_view()
    for name, cell in view.cells.items():
        stack = pos.pieces_at(name)
        if len(stack) == 1 and pos.revealed(stack[0]) is None:
            assert cell.note == "".join(c for c in "KZS" if c in pos.possible_identities(name))
    for key, value in pos.annotations():
        assert key in {"reveal", "possible", "reserve"}
        assert value and not set(value) & set("[]{}\n")


# -- records that start from a position ---------------------------------------------------

POSITIONS = Path(__file__).resolve().parent.parent / "records" / "cave" / "positions.ugn"


def test_position_records_are_valid() -> None:
    records = list(read_file(POSITIONS))
    assert len(records) >= 3
    for record in records:
        tags = record.tag_dict
        for name in ("Game", "Event", "Red", "Black", "Result", "Position"):
            assert name in tags, (record.index, name)
        assert tags["Source"] == "composed for the notation toolkit"
        start = from_string(tags["Position"])
        assert start.position_string() == tags["Position"]
        assert start.turn > 0
        verdict = check_record(record)
        assert verdict.ok, verdict.error
        assert verdict.game == "cave"
    results = [record.result for record in records]
    assert "1-0" in results and "0-1" in results


def test_new_position_honours_a_position_tag() -> None:
    # It used to ignore the tag and return the empty board.
    pos = GAME.new_position({"Game": "cave", "Position": MIDDLE_STRING})
    assert pos.position_string() == MIDDLE_STRING and pos.turn == 30
    with pytest.raises(TagValueError, match="bad Cave position"):
        GAME.new_position({"Position": "- 6/6"})
    assert GAME.new_position({"Game": "cave"}).position_string() == "- 6/6 -/- 0 r 0"


def test_an_int_is_a_square_for_every_accessor() -> None:
    # possible_identities(9) used to read 9 as Black's piece id 9, while pieces_at(9)
    # read the square b3.
    pos = play(MEET)
    (red,) = pos.pieces_at(9)
    assert pos.pieces_at(9) == pos.pieces_at("b3") and pos.side_of(red) == "Red"
    assert pos.possible_identities(9) == pos.possible_identities("b3") == frozenset("KZS")
    with pytest.raises(MisuseError, match="a1 is empty"):
        pos.possible_identities(0)  # a1, not Red's first piece (now on b3)
    assert pos.piece_identities(0) == frozenset("KZS")


def test_the_facts_tell_fights_apart_by_an_attacker_shown_before() -> None:
    """Two fights alike but for the class of an attacker shown before (so that nothing
    the fight shows tells them apart) have different facts."""
    knight = from_string(MIDDLE_STRING)
    knight.push(GAME.parse("Kb3xc4"))
    zombie = from_string(MIDDLE_STRING.replace("b3:rK@9", "b3:rZ@9"))
    zombie.push(GAME.parse("Zb3xc4"))  # a zombie against a team of 2: the tie is the attacker's
    differences = {
        name
        for name, value in knight.last_move_facts().items()
        if zombie.last_move_facts()[name] != value
    }
    assert differences == {"attacker_class"}
