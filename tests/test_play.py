"""The referee (notation.play) and the chance / hidden-information protocol it uses.

Bots play every game to a record that checks; Zombie Kidz rolls a fair die as a chance
step; Cave deals identities the bots never see and writes the true letters of every
fight; a bot that breaks the protocol is named.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

import notation
from notation.collections.referee import random_bot
from notation.errors import MisuseError, TagValueError
from notation.games import all_games, get_game
from notation.games.base import Deal, Position
from notation.games.cave import GAME as CAVE
from notation.games.cave.hidden import CaveDeal
from notation.games.cave.moves import Attack, CaveMove
from notation.games.cave.rules import CaveRules
from notation.games.zombie_kidz import GAME as ZOMBIE_KIDZ
from notation.games.zombie_kidz.moves import ZombieKidzMove
from notation.games.zombie_kidz.rules import ZombieKidzRules
from notation.replay import check_record

GAMES = sorted(game.name for game in all_games())


def _players(name: str) -> list[int]:
    fewest, most = get_game(name).player_range()
    return list(range(fewest, most + 1))


# -- every game, random bots: the record checks ----------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_random_bots_write_records_that_check(name: str) -> None:
    rng = random.Random(15)
    for count in _players(name):
        for _ in range(40):
            record = notation.play(name, [random_bot] * count, rng)
            verdict = check_record(record)
            assert verdict.ok, (verdict.error, [n.text for n in record.moves])
            assert record.result == record.tag("Result") == verdict.outcome
            assert record.result != "*"  # these games end well within 1000 turns


@pytest.mark.parametrize("name", GAMES)
def test_a_seed_replays_the_same_game(name: str) -> None:
    def texts(seed: int) -> list[str]:
        record = notation.play(get_game(name), [random_bot, random_bot], random.Random(seed))
        return [node.text for node in record.moves]

    assert texts(3) == texts(3)
    assert texts(3) != texts(4)


def test_moves_are_written_in_canonical_text() -> None:
    record = notation.play("zombie-kidz", [random_bot] * 3, random.Random(2))
    game = get_game("zombie-kidz")
    position = game.new_position(record.tag_dict)
    for node in record.moves:
        move = game.parse(node.text)
        assert position.canonical(move) == move and str(move) == node.text
        position.push(move)


def test_max_turns_leaves_the_game_unfinished() -> None:
    record = notation.play("cave", [random_bot, random_bot], random.Random(1), max_turns=7)
    assert len(record.moves) == 7 and record.result == "*" == record.tag("Result")
    assert check_record(record).ok


def test_tags_name_the_bots_and_may_be_replaced() -> None:
    class Named:
        name = "Ada's bot"

        def choose(
            self, view: Position[Any], legal_moves: Sequence[Any], rng: random.Random
        ) -> Any:
            return legal_moves[0]

    record = notation.play(
        "zombie-kidz",
        [Named(), random_bot],
        random.Random(1),
        tags={"Event": "Bots", "Player2": "Ben"},
    )
    assert record.tag_dict | {"Result": "-"} == {
        "Game": "zombie-kidz",
        "Player1": "Ada's bot",
        "Player2": "Ben",
        "Players": "2",
        "Event": "Bots",
        "Result": "-",
    }
    assert [tag.name for tag in record.tags][-1] == "Result"
    with pytest.raises(MisuseError, match="Result tag"):
        notation.play("cave", [random_bot, random_bot], tags=[("Result", "1-0")])


def test_a_position_tag_starts_the_game_there() -> None:
    start = "d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30"
    for seed in range(20):
        record = notation.play(
            "cave", [random_bot, random_bot], random.Random(seed), tags={"Position": start}
        )
        assert record.tag("Position") == start
        assert check_record(record).ok
    zk = "000/040/021 a2,c3 - 0/7 2 2 11"
    record = notation.play(
        "zombie-kidz", [random_bot, random_bot], random.Random(1), tags={"Position": zk}
    )
    assert check_record(record).ok


def test_the_number_of_players_is_the_games() -> None:
    with pytest.raises(TagValueError, match="2"):
        notation.play("cave", [random_bot] * 3)
    with pytest.raises(TagValueError, match="2 to 4"):
        notation.play("zombie-kidz", [random_bot])
    record = notation.play("zombie-kidz", [random_bot] * 4, random.Random(5))
    assert record.tag("Players") == "4" and record.tag("Player4") == "random_bot"


# -- the bot protocol ---------------------------------------------------------------


def test_a_bot_may_answer_with_text_or_another_spelling() -> None:
    def short_form(view: Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> str:
        move = rng.choice(legal_moves)
        # "K:b1" for "K:b2-b1", and no marks: the referee writes the canonical move.
        text = str(move).replace("x", "").replace("L", "")
        return text if ":" not in text else text[0] + ":" + text.split("-")[-1]

    record = notation.play("zombie-kidz", [short_form, short_form], random.Random(8))
    assert check_record(record).ok
    assert any(node.text.endswith("x") for node in record.moves)  # marks filled in
    assert all("-" in node.text or ":" not in node.text for node in record.moves)


def test_a_bot_that_cheats_is_named() -> None:
    def wrong_roll(view: Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> Any:
        # A turn for a face the die did not show.
        die = legal_moves[0].die
        return ZombieKidzMove("W" if die != "W" else "R")

    with pytest.raises(MisuseError, match=r"player 1 \(wrong_roll\) chose .* not one of"):
        notation.play("zombie-kidz", [wrong_roll, random_bot], random.Random(1))

    def garbage(view: Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> str:
        return "z9"

    with pytest.raises(MisuseError, match=r"player 2 \(garbage\) chose 'z9', which is no move"):
        notation.play("cave", [random_bot, garbage], random.Random(1))
    with pytest.raises(MisuseError, match="no bot"):
        notation.play("cave", [random_bot, 42])  # type: ignore[list-item]


def test_a_bot_cannot_disturb_the_referee() -> None:
    """A bot that plays on its view, or draws numbers from its generator, changes
    neither the referee's position nor the dice."""

    def meddler(view: Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> Any:
        choice = legal_moves[0]
        view.push(choice)  # the view is the bot's own copy
        for _ in range(rng.randrange(5)):
            rng.random()
        return choice

    def first(view: Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> Any:
        return legal_moves[0]

    a = notation.play("zombie-kidz", [meddler, meddler], random.Random(4))
    b = notation.play("zombie-kidz", [first, first], random.Random(4))
    assert [n.text for n in a.moves] == [n.text for n in b.moves]
    assert check_record(a).ok


# -- Zombie Kidz: the roll as a chance step ---------------------------------------


def test_the_roll_is_a_fair_die() -> None:
    position = ZOMBIE_KIDZ.new_position()
    outcomes = position.chance_outcomes()
    assert outcomes == [(die, Fraction(1, 6)) for die in "RYGKBW"]
    assert sum(p for _, p in outcomes) == 1


def test_the_turns_after_a_roll_are_those_with_its_letter() -> None:
    rng = random.Random(6)
    for _ in range(30):
        position = ZOMBIE_KIDZ.new_position({"Players": str(rng.randint(2, 4))})
        while position.outcome() is None:
            outcomes = position.chance_outcomes()
            assert outcomes is not None
            every = position.legal_moves()
            joined = []
            for die, _ in outcomes:
                after = position.legal_moves_after(die)
                assert after and all(move.die == die for move in after)
                assert after == [move for move in every if move.die == die]
                assert position.legal_moves_after(die.lower()) == after
                joined.extend(after)
            assert joined == every  # legal_moves() without a roll is unchanged
            position.push(rng.choice(every))
        assert position.chance_outcomes() is None
        assert position.legal_moves_after("R") == []
    with pytest.raises(MisuseError, match="die letter"):
        ZOMBIE_KIDZ.new_position().legal_moves_after("Q")


def test_the_referee_rolls_each_face_about_as_often() -> None:
    rng = random.Random(11)
    faces: Counter[str] = Counter()
    for _ in range(150):
        record = notation.play("zombie-kidz", [random_bot] * 3, rng)
        faces.update(node.text[0] for node in record.moves)
    total = faces.total()
    assert set(faces) == set("RYGKBW")
    for count in faces.values():
        assert abs(count / total - 1 / 6) < 0.03, faces


def test_the_bot_sees_the_roll_only_in_its_moves() -> None:
    seen: list[set[str]] = []

    def watcher(
        view: Position[ZombieKidzMove], legal_moves: Sequence[ZombieKidzMove], rng: random.Random
    ) -> ZombieKidzMove:
        assert isinstance(view, ZombieKidzRules)
        seen.append({move.die for move in legal_moves})
        return rng.choice(legal_moves)

    notation.play(ZOMBIE_KIDZ, [watcher, watcher], random.Random(3))
    assert seen and all(len(dice) == 1 for dice in seen)


# -- games without chance or hidden information: the defaults ----------------------


def test_games_without_chance_or_secrets_keep_the_defaults() -> None:
    game = get_game("tinkertown")
    position = game.new_position()
    assert position.chance_outcomes() is None
    with pytest.raises(MisuseError, match="no chance step"):
        position.legal_moves_after("R")
    assert game.deal(random.Random(1)) is None
    view = position.view_for(1)
    assert view is not position and view.position_string() == position.position_string()
    deal: Deal[Any] = Deal()
    assert deal.settle(position, position.legal_moves()[0]) == position.legal_moves()[0]
    assert CAVE.new_position().chance_outcomes() is None


# -- Cave: dealt identities, views, and what a fight reveals ----------------------


def test_a_deal_gives_each_side_its_six_pieces() -> None:
    for seed in range(50):
        deal = CAVE.deal(random.Random(seed))
        for side in (range(6), range(6, 12)):
            assert sorted(deal.identity(p) for p in side) == sorted("KZZSSS")
    with pytest.raises(MisuseError, match="3 S, 2 Z and 1 K"):
        CaveDeal([0] * 12)
    with pytest.raises(MisuseError, match="CavePosition"):
        CAVE.deal(random.Random(1), ZOMBIE_KIDZ.new_position())  # type: ignore[arg-type]


def test_a_deal_keeps_what_the_position_revealed() -> None:
    position = CAVE.position_from_string(
        "d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30"
    )
    for seed in range(30):
        deal = CAVE.deal(random.Random(seed), position)
        for piece in range(12):
            shown = position.revealed(piece)
            if shown is not None:
                assert deal.identity(piece) == shown[0]
            assert deal.identity(piece) in position.piece_identities(piece)


def test_a_cave_bot_sees_only_what_the_record_revealed() -> None:
    """Every view a bot gets is the public position: its strings hold no letter the
    record has not shown, and equal the referee's position string."""
    views: list[str] = []

    def spy(
        view: Position[CaveMove], legal_moves: Sequence[CaveMove], rng: random.Random
    ) -> CaveMove:
        assert isinstance(view, CaveRules)
        views.append(view.position_string())
        return rng.choice(legal_moves)

    for seed in range(10):
        record = notation.play(CAVE, [spy, spy], random.Random(seed))
        position = CAVE.new_position()
        for node, seen in zip(record.moves, views[-len(record.moves) :], strict=True):
            assert seen == position.position_string()  # nothing more than the record's
            position.push(CAVE.parse(node.text))
        assert check_record(record).ok


def test_the_referee_writes_the_true_letters_of_a_fight() -> None:
    """A bot that always claims the strongest letters (the first listed) gets its attacks
    written with the truth, which the deal holds and the record then shows."""
    claims: list[CaveMove] = []

    def bluffer(
        view: Position[CaveMove], legal_moves: Sequence[CaveMove], rng: random.Random
    ) -> CaveMove:
        attacks = [m for m in legal_moves if isinstance(m, Attack)]
        move = attacks[0] if attacks else rng.choice(legal_moves)
        claims.append(move)
        return move

    rng = random.Random(21)
    rewritten = 0
    for _ in range(20):
        claims.clear()
        seed = rng.getrandbits(32)
        record = notation.play(CAVE, [bluffer, bluffer], random.Random(seed))
        assert check_record(record).ok
        # Deal again as the referee did: the same seed gives the same deal.
        referee = random.Random(seed)
        deal = CAVE.deal(random.Random(referee.getrandbits(64)))
        position = CAVE.new_position()
        for claim, node in zip(claims, record.moves, strict=True):
            move = CAVE.parse(node.text)
            if isinstance(move, Attack):
                assert isinstance(claim, Attack)
                assert (claim.origin, claim.target) == (move.origin, move.target)
                rewritten += claim != move
                for letter, square in ((move.attacker, move.origin), (move.defender, move.target)):
                    stack = position.pieces_at(square)
                    assert letter == (deal.identity(stack[0]) if len(stack) == 1 else None)
            else:
                assert claim == move
            position.push(move)
    assert rewritten  # the bluff was corrected at least once


def test_settle_leaves_other_moves_and_teams_alone() -> None:
    deal = CAVE.deal(random.Random(2))
    position = CAVE.new_position()
    for text in ("b1", "c5", "b1-b2", "c5-c4", "a1", "c4-c3", "a1-b1", "d5"):
        move = CAVE.parse(text)
        assert deal.settle(position, move) is move
        position.push(move)
    # Single pieces on b2 (Red) and c3 (Black): both get their true letters.
    attack = CAVE.parse("Kb2xKc3")
    settled = deal.settle(position, attack)
    assert isinstance(settled, Attack)
    assert settled.attacker == deal.identity(position.pieces_at("b2")[0])
    assert settled.defender == deal.identity(position.pieces_at("c3")[0])
    position.push(CAVE.parse("b1-b2"))  # a join: b2 is a team of 2
    position.push(CAVE.parse("d5-d4"))
    settled = deal.settle(position, CAVE.parse("b2xKc3"))
    assert isinstance(settled, Attack) and settled.attacker is None
    with pytest.raises(MisuseError, match="empty"):
        deal.settle(position, CAVE.parse("Ka1xSb2"))
