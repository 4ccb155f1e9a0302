"""What a Cave record lets anyone know: exact identity odds, and the players that use them.

docs/cave.md, "What can be known" and "Players and analysis".  The odds are checked
against a brute-force count over all 3600 deals a game can start with, replaying
the records' attacks to decide which deals fit; the players only ever see their view.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import notation
from notation.errors import MisuseError
from notation.formats.annotate import AnnotateOptions, annotate_record
from notation.games.base import Position
from notation.games.cave import GAME, Attack, CaveMove, CavePosition, infer
from notation.games.cave.engine import (
    DeterminisedPlayer,
    ExpectimaxPlayer,
    actions,
    analyse,
    fight_odds,
    greedy_bot,
    win_chance,
)
from notation.games.cave.game import CaveGame
from notation.games.cave.hidden import CaveDeal
from notation.reader import read_file, read_string
from notation.replay import start_position

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records" / "cave"

# Each side's 60 deals (which of its 6 pieces is the K, which 2 are Z), as classes by
# piece index 0-5 (0 S, 1 Z, 2 K); a whole deal is one of each side's.
SIDE_DEALS: list[tuple[int, ...]] = sorted(set(itertools.permutations((0, 0, 0, 1, 1, 2))))
LETTERS = "SZK"


def all_deals() -> Iterator[tuple[int, ...]]:
    """Every deal of a game, as the class of each piece id 0-11."""
    for red in SIDE_DEALS:
        for black in SIDE_DEALS:
            yield red + black


def replay(record: notation.Record) -> Iterator[tuple[CavePosition, list[tuple[int, int]]]]:
    """The positions of a record's main line, from its start, each with what the record
    has shown so far as (piece id, class) pairs, found independently of the engine's own
    tracking: from the start position's reveals and each attack's letters, by the piece
    ids standing on its squares before it is played."""
    position = start_position(GAME, {tag.name: tag.value for tag in record.tags})
    assert isinstance(position, CavePosition)
    shown: list[tuple[int, int]] = []
    for pid in range(12):
        found = position.revealed(pid)
        if found is not None:
            shown.append((pid, LETTERS.index(found[0])))
    yield position.copy(), list(shown)
    for node in record.moves:
        move = GAME.parse(node.text)
        if isinstance(move, Attack):
            for letter, square in ((move.attacker, move.origin), (move.defender, move.target)):
                stack = position.pieces_at(square)
                if letter is not None:
                    assert len(stack) == 1
                    shown.append((stack[0], LETTERS.index(letter)))
        position.push(move)
        yield position.copy(), list(shown)


def brute_force(shown: Sequence[tuple[int, int]]) -> tuple[int, list[dict[str, Fraction]]]:
    """The deals that give every shown piece its letter, counted, and each piece's odds
    among them."""
    counts = [[0, 0, 0] for _ in range(12)]
    fitting = 0
    for deal in all_deals():
        if all(deal[pid] == c for pid, c in shown):
            fitting += 1
            for pid, c in enumerate(deal):
                counts[pid][c] += 1
    odds = [
        {LETTERS[c]: Fraction(counts[pid][c], fitting) for c in (2, 1, 0)} for pid in range(12)
    ]
    return fitting, odds


def cave_records() -> list[notation.Record]:
    return [*read_file(RECORDS / "examples.ugn"), *read_file(RECORDS / "positions.ugn")]


# A composed game: Black's skeleton loses to Red's knight on b3 (turn 6); Black
# makes a team of 2 on c4 (turn 16), which Red's zombie beats (turn 17).
COMPOSED = """[Game "cave"]
[Result "*"]

1. b1 c5 2. b1-b2 c5-c4 3. b2-b3 Sc4xKb3 4. b1 d5 5. b1-b2 d5-d4 6. d1 d4-c4
7. d1-d2 c5 8. d2-d3 c5-c4 9. Zd3xc4 *
"""


def test_the_odds_are_the_brute_force_count_over_every_deal() -> None:
    """Every position of every example record (and a composed game): for each piece,
    on the board, in a team, in reserve or removed, the odds are the share of the
    deals consistent with the record that give it each letter."""
    records = [*cave_records(), *read_string(COMPOSED)]
    checked = 0
    cache: dict[tuple[tuple[int, int], ...], tuple[int, list[dict[str, Fraction]]]] = {}
    for record in records:
        for position, shown in replay(record):
            key = tuple(sorted(shown))
            if key not in cache:
                cache[key] = brute_force(shown)
            fitting, expected = cache[key]
            assert infer.consistent_deals(position) == fitting
            for pid in range(12):
                assert dict(position.piece_odds(pid)) == expected[pid]
                for letter in "KZS":
                    count = infer.deals_with(position, pid, letter)
                    assert Fraction(count, fitting) == expected[pid][letter]
            for sq in range(20):
                stack = position.pieces_at(sq)
                if stack:
                    odds = position.identity_odds(sq)
                    assert [dict(o) for o in odds] == [expected[pid] for pid in stack]
            checked += 1
    assert checked > 150 and len(cache) > 5


def test_odds_sum_to_one_and_a_shown_piece_is_certain() -> None:
    for record in cave_records():
        for position, shown in replay(record):
            for pid in range(12):
                odds = position.piece_odds(pid)
                assert list(odds) == ["K", "Z", "S"]
                assert sum(odds.values()) == 1
                assert all(0 <= p <= 1 for p in odds.values())
            for pid, c in shown:
                assert position.piece_odds(pid)[LETTERS[c]] == 1


def position_after(text: str, start: str | None = None) -> CavePosition:
    position = GAME.new_position() if start is None else GAME.position_from_string(start)
    for token in text.split():
        if not token[0].isdigit():
            position.push_text(token)
    return position


def test_composed_cases() -> None:
    # Red's knight shown: Red's other pieces are Z or S, 2 of 5 and 3 of 5.
    position = position_after("b1 c5 b1-b2 c5-c4 b2-b3 Sc4xKb3 b1 a5")
    assert position.identity_odds("b3") == ({"K": Fraction(1), "Z": Fraction(0), "S": Fraction(0)},)
    assert position.identity_odds("b1") == ({"K": 0, "Z": Fraction(2, 5), "S": Fraction(3, 5)},)
    assert dict(infer.side_odds(position, "Black")) == {
        "K": Fraction(1, 5), "Z": Fraction(2, 5), "S": Fraction(2, 5),
    }
    assert infer.odds_lines(position) == [
        ("b1", "Z 2/5, S 3/5"),
        ("a5", "K 1/5, Z 2/5, S 2/5"),
        ("Red reserve (4)", "Z 2/5, S 3/5"),
        ("Black reserve (4)", "K 1/5, Z 2/5, S 2/5"),
    ]
    assert infer.annotation_value(position) == (
        "b1:Z2/5,S3/5 a5:K1/5,Z2/5,S2/5 reserve-red:Z2/5,S3/5 reserve-black:K1/5,Z2/5,S2/5"
    )
    assert infer.cell_notes(position) == {"b1": "Z2/5 S3/5", "a5": "K1/5 Z2/5 S2/5"}
    assert infer.consistent_deals(position) == 5 * 60 and infer.deals_with(position, 1, "Z") == 120
    # A deduction: Black has shown 1 K, 2 Z and 2 S, so its last piece is a skeleton.
    record = next(iter(read_file(RECORDS / "examples.ugn")))
    for position, _ in replay(record):
        if position.turn == 46:
            assert infer.odds_lines(position) == [
                ("b4", "S 1"),
                ("d5, team of 3", "Z 2/5, S 3/5"),
                ("Red reserve (2)", "Z 2/5, S 3/5"),
            ]
            certain = {"K": Fraction(0), "Z": Fraction(0), "S": Fraction(1)}
            assert position.identity_odds("b4") == (certain,)
            break
    else:  # pragma: no cover
        raise AssertionError("turn 46 not reached")


def test_teams_and_empty_squares() -> None:
    position = GAME.position_from_string(
        "d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30"
    )
    team = position.identity_odds("d2")
    assert len(team) == 2 and team[0] == team[1]
    assert dict(team[0]) == {"K": 0, "Z": Fraction(1, 3), "S": Fraction(2, 3)}
    assert ("d2, team of 2", "Z 1/3, S 2/3") in infer.odds_lines(position)
    with pytest.raises(MisuseError, match="a1 is empty"):
        position.identity_odds("a1")
    with pytest.raises(MisuseError):
        position.piece_odds(12)
    with pytest.raises(MisuseError):
        infer.deals_with(position, 0, "Q")
    with pytest.raises(MisuseError):
        infer.side_odds(position, "Green")


def test_a_side_that_has_shown_everything() -> None:
    position = GAME.position_from_string("b2:rK@3,c3:b? 0/5 Z@5Z@7S@9S@11S@13/- 0 r 20")
    assert infer.side_odds(position, "Red") == {}
    assert [where for where, _, _ in infer.hidden_odds(position)] == ["c3", "Black reserve"]
    assert infer.consistent_deals(position) == 60
    assert infer.deals_with(position, 0, "K") == 60 and infer.deals_with(position, 0, "S") == 0


# -- sampling: hidden.py's deal and the counts agree --------------------------------


def binomial_ok(hits: int, trials: int, p: Fraction) -> bool:
    """Whether ``hits`` of ``trials`` is within 4.5 standard deviations of ``p`` (a test
    that fails by chance about once in 150,000 checks)."""
    mean = trials * float(p)
    spread = math.sqrt(trials * float(p) * (1 - float(p)))
    return abs(hits - mean) <= 4.5 * spread + 1e-9


def test_sampled_deals_reproduce_the_odds() -> None:
    """Deals drawn by hidden.py for a position (``GAME.deal(rng, position)``) and deals
    drawn for the empty board then kept only when they fit the record both give each
    piece each letter as often as the exact odds say."""
    position = position_after(COMPOSED.split("\n\n", 1)[1].rsplit("*", 1)[0])
    shown = [
        (pid, LETTERS.index(found[0])) for pid in range(12) if (found := position.revealed(pid))
    ]
    assert len(shown) == 3
    rng = random.Random(18)
    trials = 400
    direct = [[0] * 3 for _ in range(12)]
    for _ in range(trials):
        deal = GAME.deal(rng, position)
        for pid in range(12):
            direct[pid][LETTERS.index(deal.identity(pid))] += 1
        assert all(deal.identity(pid) == LETTERS[c] for pid, c in shown)
    kept = [[0] * 3 for _ in range(12)]
    accepted = 0
    while accepted < trials:
        deal = GAME.deal(rng)
        if all(deal.identity(pid) == LETTERS[c] for pid, c in shown):
            accepted += 1
            for pid in range(12):
                kept[pid][LETTERS.index(deal.identity(pid))] += 1
    for pid in range(12):
        for c in range(3):
            p = position.piece_odds(pid)[LETTERS[c]]
            assert binomial_ok(direct[pid][c], trials, p), (pid, c, direct[pid][c], p)
            assert binomial_ok(kept[pid][c], trials, p), (pid, c, kept[pid][c], p)
    sampled = infer.sample_deal(position, rng)
    assert isinstance(sampled, CaveDeal)
    assert all(sampled.identity(pid) == LETTERS[c] for pid, c in shown)


# -- the odds of a fight ---------------------------------------------------------------


def test_fight_odds() -> None:
    position = position_after("b1 c5 b1-b2 c5-c4 b2-b3 a5")
    origin, target = 9, 14  # b3, c4
    outcomes = fight_odds(position, origin, target)
    assert len(outcomes) == 9 and sum(p for _, p in outcomes) == 1
    # Two pieces dealt alike: the attacker wins ties and better, 25 times in 36.
    assert win_chance(position, origin, target) == Fraction(25, 36)
    # A team of 3 fights as a knight and always wins an attack.
    team = GAME.position_from_string("b2:r???,c3:b? 3/5 -/- 0 r 10")
    assert win_chance(team, 5, 10) == 1
    assert fight_odds(team, 5, 10)[0][0].attacker is None


# -- annotate --analyze and analyse ------------------------------------------------------


def test_annotate_writes_identities_after_fights() -> None:
    record = read_string(COMPOSED)[0]
    text = annotate_record(record, AnnotateOptions(analyze=True)).text
    assert "[%analysis Black's attack from c4 wins with probability 25/36]" in text
    assert "[%identities reserve-red:Z2/5,S3/5 reserve-black:K1/5,Z2/5,S2/5]" in text
    # A zombie against a team of 2 (which fights as a zombie) wins a tie; Red has shown
    # its knight, so its piece on d3 is a zombie 2 times in 5.
    assert "[%analysis Red's attack from d3 wins with probability 2/5]" in text
    assert (
        "[%identities b2:Z1/4,S3/4 reserve-red:Z1/4,S3/4 reserve-black:K1/5,Z2/5,S2/5]" in text
    )
    assert text.count("[%identities") == 2  # after the two fights only
    for value in re.findall(r"\[%identities ([^\]]*)\]", text):
        assert not set(value) & set("[]{}")
    assert "identities" in GAME.annotation_keys and GAME.can_assess


def test_a_sure_loss_is_a_blunder() -> None:
    loss = GAME.position_from_string("b2:rS@3,c3:bK@4 5/5 -/- 0 r 10")
    assessment = GAME.assess_move(loss, GAME.parse("Sb2xKc3"))
    assert assessment is not None and assessment.glyph == "??"
    assert "cannot win" in assessment.reason
    assert GAME.assess_move(loss, GAME.parse("b2-b3")) is None
    assert loss.position_string() == "b2:rS@3,c3:bK@4 5/5 -/- 0 r 10"


def test_analyse_names_a_legal_move_and_the_odds() -> None:
    position = position_after("b1 c5 b1-b2 c5-c4 b2-b3 a5")
    before = position.position_string()
    analysis = GAME.analyse(position, depth=1, seconds=0.2)
    assert position.position_string() == before
    assert GAME.can_analyse and analysis.unit == "probability" and not analysis.exact
    assert 0 <= analysis.value <= 1
    (best,) = analysis.best_line
    assert position.is_legal(GAME.parse(best))
    notes = dict(analysis.notes)
    assert notes["b3"] == "K 1/6, Z 1/3, S 1/2"
    assert notes["Red reserve (5)"] == "K 1/6, Z 1/3, S 1/2"
    assert analysis.depth == 1 and analysis.nodes > 0
    # Over: exact.
    over = GAME.position_from_string("b2:rS@3 5/0 -/S@4????? 0 r 20")
    done = analyse(over, depth=1, seconds=0.1)
    assert done.exact and done.value == 1 and done.best_line == ()


# -- the players: legal moves, from the view alone ---------------------------------------


class GuardedDeal(CaveDeal):
    """A referee's deal that refuses to be read while a bot is choosing."""

    choosing = False

    def __getattribute__(self, name: str) -> Any:
        if name == "_truth" and GuardedDeal.choosing:
            raise AssertionError("a bot read the referee's deal")
        return super().__getattribute__(name)


def guarded(bot: Any) -> Any:
    choose = bot.choose if hasattr(bot, "choose") else bot

    def play(view: Position[CaveMove], legal: Sequence[CaveMove], rng: random.Random) -> Any:
        GuardedDeal.choosing = True
        try:
            return choose(view, legal, rng)
        finally:
            GuardedDeal.choosing = False

    play.__name__ = getattr(bot, "name", None) or bot.__name__
    return play


@pytest.mark.parametrize(
    "bot", [greedy_bot, ExpectimaxPlayer(depth=1), DeterminisedPlayer(deals=2, depth=1)],
    ids=["greedy", "expectimax", "determinised"],
)
def test_players_see_only_their_view(bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def deal(self: CaveGame, rng: random.Random, position: Any = None) -> CaveDeal:
        return GuardedDeal(infer.sample_deal(self.new_position(), rng)._truth)

    monkeypatch.setattr(CaveGame, "deal", deal)
    players = [guarded(bot), notation.random_bot]
    record = notation.play("cave", players, random.Random(5), max_turns=60)
    assert notation.check_record(record).ok
    assert len(record.moves) > 10


def test_the_guard_catches_a_bot_that_reads_the_deal() -> None:
    deal = GuardedDeal([0, 0, 0, 1, 1, 2] * 2)
    cheat = guarded(lambda view, legal, rng: deal.identity(0) and legal[0])
    position = GAME.new_position()
    with pytest.raises(AssertionError, match="read the referee's deal"):
        cheat(position, position.legal_moves(), random.Random(1))
    assert deal.identity(0) == "S"  # outside a bot's turn the referee may read it


def test_a_players_choice_depends_on_the_view_only() -> None:
    """The same view and the same generator give the same move, whatever the deal."""
    position = position_after("b1 c5 b1-b2 c5-c4 b2-b3 a5")
    for bot in (ExpectimaxPlayer(depth=1), DeterminisedPlayer(deals=3, depth=1)):
        choices = set()
        for seed in range(3):
            deal = GAME.deal(random.Random(seed), position)
            view = deal.view_for(position, 1)
            choices.add(str(bot.choose(view, view.legal_moves(), random.Random(1))))
            assert view.position_string() == position.position_string()
        assert len(choices) == 1


def test_actions_list_each_attack_once() -> None:
    position = position_after("b1 c5 b1-b2 c5-c4 b2-b3 a5")
    choices = actions(position)
    attacks = [m for m in choices if isinstance(m, Attack)]
    assert len(attacks) == 1 and len(position.legal_moves()) == len(choices) + 8
