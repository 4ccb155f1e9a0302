"""The Tinkertown search (notation/games/tinkertown/search.py): Zobrist keys, the children
a node scores, composed forced wins, the assessment's glyphs against brute force, the
analysis protocol and the players.

Every search here has a depth budget, never a time budget, and no assertion is timed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.collections.referee import play, random_bot
from notation.errors import MisuseError
from notation.games import get_game
from notation.games.tinkertown import (
    GAME,
    GRAVES,
    NEIGHBOURS,
    RED,
    SQUARE_NAMES,
    WHITE,
    TinkertownPosition,
)
from notation.games.tinkertown import analysis as assessment
from notation.games.tinkertown.players import SearchPlayer, greedy_player
from notation.games.tinkertown.search import (
    PROVEN,
    TEMPO,
    WIN_SCORE,
    Searcher,
    analyse,
    evaluate,
    key_after_push,
    material,
    score_to_value,
    zobrist_key,
)
from notation.games.view import WIN
from notation.replay import check_record

# -- composed positions: forced wins -------------------------------------------------
# Each found by a seeded search of small endgames (most graves under tombstones) and
# checked by brute force below: White to move has exactly one move that wins within
# 3 plies (2 moves of White's) or 5 plies (3 moves), and no faster win.

#: (position string, the only winning move, plies to the win)
WIN_IN_TWO = [
    # f3 covers Red's f3: every reply leaves Red one group.
    ("++++/++++++/++++++++/+++##+++/+++##+rW+/+++rWrWRR+/+++++rW/++++ w movement -,- 80", "f3", 3),
    # a5x captures wwr (3 zombies, capacity 2 with a6 and b5): a sacrifice that wins.
    ("++++/++++++/+rwW++++++/wwRR+##+++/rrWrwW+##+++/rW+++++++/++++++/++++ w movement -,- 80",
     "a5x", 3),
    ("++++/rWrW++++/rwWrwWrwW+++++/rwWrrR+##+++/+R+##+++/++++++++/++++++/++++ w movement -,- 80",
     "a5xb5", 3),
]
WIN_IN_THREE = [
    ("++++/++++++/+++++rWwR+/+++##wrRrW+/+++##rWrW+/+++++1++/++++++/++++ w movement -,- 80",
     "f5x", 5),
    ("++++/++++++/++++++++/wrW++##+++/RwR+##+++/wrW1wrW+++++/++++++/++++ w movement -,- 80",
     "b4x", 5),
    ("RwrRwrW+/+rWrW1++/++++++++/+++##+++/+++##+++/++++++++/++++++/++++ w movement -,- 80",
     "d8x", 5),
]


def winning_moves(pos: TinkertownPosition, plies: int) -> list[str]:
    """By brute force over the rules alone: the moves after which the mover wins within
    ``plies`` plies (odd) whatever the opponent does."""
    side = pos.side_to_move
    found = []
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if pos.winner == side or (
                pos.winner is None and plies >= 3 and _every_reply_loses(pos, side, plies - 1)
            ):
                found.append(str(move))
        finally:
            pos.pop()
    return found


def _every_reply_loses(pos: TinkertownPosition, side: int, plies: int) -> bool:
    for reply in pos.legal_moves():
        pos.push(reply)
        try:
            if pos.winner is not None or not winning_moves(pos, plies - 1):
                return False
        finally:
            pos.pop()
    return True


@pytest.mark.parametrize(("text", "move", "plies"), WIN_IN_TWO + WIN_IN_THREE)
def test_composed_wins_are_what_brute_force_says(text: str, move: str, plies: int) -> None:
    pos = TinkertownPosition.from_string(text)
    assert winning_moves(pos, plies - 2) == []
    assert winning_moves(pos, plies) == [move]


@pytest.mark.parametrize(("text", "move", "plies"), WIN_IN_TWO + WIN_IN_THREE)
def test_the_search_finds_the_forced_win(text: str, move: str, plies: int) -> None:
    pos = TinkertownPosition.from_string(text)
    before = pos.position_string()
    # The leaf rule (an opponent with one group or none loses at once) proves the
    # win one ply past the depth.
    found = analyse(pos, depth=plies - 1)
    assert pos.position_string() == before
    assert found.value == WIN - plies and found.exact and found.unit == "score"
    assert found.best_line[0] == move
    # The line is legal, and ends with the win.
    line = pos.copy()
    for text_move in found.best_line:
        line.push_text(text_move)
    assert len(found.best_line) == plies and line.winner == WHITE
    # One ply less is not enough.
    assert not analyse(pos, depth=plies - 2).exact


@pytest.mark.parametrize(("text", "move", "plies"), WIN_IN_TWO)
def test_the_winning_move_is_marked_at_the_default_depth(text: str, move: str, plies: int) -> None:
    pos = TinkertownPosition.from_string(text)
    found = GAME.assess_move(pos, GAME.parse(move))
    assert found is not None
    assert (found.glyph, found.reason) == ("!", f"the only move that wins (in {plies} plies)")
    assert found.values == (("eval", f"#{plies - 1}"),)
    # Every other move misses it.
    for other in pos.legal_moves():
        if str(other) != move:
            other_found = GAME.assess_move(pos, other)
            assert other_found is not None and other_found.glyph == "?"
            assert other_found.reason == f"misses {move}, which wins in {plies} plies"


@pytest.mark.parametrize(("text", "move", "plies"), WIN_IN_THREE)
def test_a_win_in_three_is_marked_at_depth_four(text: str, move: str, plies: int) -> None:
    pos = TinkertownPosition.from_string(text)
    found = assessment.assess_move(pos, GAME.parse(move), depth=4)
    assert found is not None
    assert (found.glyph, found.reason) == ("!", f"the only move that wins (in {plies} plies)")
    # The default depth does not see so far; it does not call the move a mistake here.
    shallow = GAME.assess_move(pos, GAME.parse(move))
    assert shallow is not None and shallow.glyph not in ("?", "??")


def test_an_only_move_that_does_not_lose_at_once() -> None:
    # Every grave but four has a tombstone; every move but c8 lets Red win at once.
    # At depth 2 that is all the search sees; at depth 3 it sees that c8 loses too,
    # two moves later, and then no move is marked: the position is lost.
    graves = {"c8": "r", "d8": "wwr", "c7": "rw", "d7": "wr"}
    tombs = tuple(SQUARE_NAMES[g] for g in GRAVES if SQUARE_NAMES[g] not in graves)
    pos = TinkertownPosition.setup(graves, tombs, WHITE, 80)
    found = assessment.assess_move(pos, GAME.parse("c8"), depth=2)
    assert found is not None
    assert (found.glyph, found.reason) == ("!", "the only move that does not lose at once")
    deeper = assessment.assess_move(pos, GAME.parse("c8"), depth=3)
    assert deeper is not None and deeper.glyph == "" and deeper.values == (("eval", "#-3"),)
    assert analyse(pos, depth=3).value == -(WIN - 4)
    for move in pos.legal_moves():
        other = GAME.assess_move(pos, move)
        assert other is not None and other.glyph == ""


# -- the assessment against brute force ----------------------------------------------


@st.composite
def endgames(draw: st.DrawFn) -> TinkertownPosition:
    """A small endgame: a connected patch of 4 to 9 graves with stacks of one to three
    zombies, the other graves under tombstones, either side to move; never over."""
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32 - 1)))
    while True:
        region = {rng.choice(GRAVES)}
        size = rng.randint(4, 9)
        while len(region) < size:
            around = [n for sq in sorted(region) for n in NEIGHBOURS[sq] if n not in region]
            region.add(rng.choice(around))
        stacks = {
            SQUARE_NAMES[sq]: "".join(rng.choice("wr") for _ in range(rng.randint(1, 3)))
            for sq in sorted(region)
            if rng.random() < 0.75
        }
        tombs = [SQUARE_NAMES[sq] for sq in GRAVES if sq not in region]
        pos = TinkertownPosition.setup(stacks, tombs, rng.choice((WHITE, RED)))
        if pos.outcome() is None:
            return pos


@settings(max_examples=40, deadline=None)
@given(endgames())
def test_no_winning_move_is_ever_marked_a_mistake(pos: TinkertownPosition) -> None:
    # Brute force over 3 plies, the default depth: a move that wins is never "?" or
    # "??"; where a win at once is missed, the move is "?" (or "??" if it also lets
    # the opponent win at once); the only move that wins (none winning at once) is "!".
    before = pos.position_string()
    at_once = winning_moves(pos, 1)
    winners = winning_moves(pos, 3)
    for move in pos.legal_moves():
        found = GAME.assess_move(pos, move)
        assert found is not None and pos.position_string() == before
        if str(move) in winners:
            assert found.glyph not in ("?", "??")
        elif at_once:
            assert found.glyph in ("?", "??")
        if winners == [str(move)] and not at_once:
            assert found.glyph == "!"


# -- Zobrist keys and material, move by move -------------------------------------------


def _walk(seed: int, turns: int) -> Iterator[tuple[Searcher, str]]:
    """A random game played through a searcher, with a take-back now and then: the
    searcher after each push or pop, and which it was."""
    rng = random.Random(seed)
    searcher = Searcher(GAME.new_position())
    for _ in range(turns):
        pos = searcher.position
        if pos.outcome() is not None or (pos.move_stack and rng.random() < 0.2):
            searcher.pop()
            yield searcher, "pop"
            continue
        moves = pos.legal_moves()
        captures = [m for m in moves if m.marked]
        searcher.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        yield searcher, "push"


@pytest.mark.parametrize("seed", range(4))
def test_keys_and_material_follow_push_and_pop(seed: int) -> None:
    seen: dict[int, str] = {}
    for searcher, _ in _walk(seed, 400):
        pos = searcher.position
        assert searcher.key == zobrist_key(pos)
        assert searcher.material == material(pos)
        # Equal keys for equal positions (the turn count aside), and only for them.
        state = pos.position_string().rsplit(" ", 1)[0]
        assert seen.setdefault(searcher.key, state) == state


def test_key_after_push_on_a_plain_position() -> None:
    pos = TinkertownPosition.from_string(
        "RRW1/RWwRR1rW/1W1R1R1R/R1W##2wW/wW1W##R2/1R1wRrR1wW1/1W3R/RrWwR1 w movement c3,b3 30"
    )
    key = zobrist_key(pos)
    for token in ("h5-h3", "h3", "h3x"):  # a move, the entry exception, a capture
        pos.push_text(token)
        key = key_after_push(pos, key)
        assert key == zobrist_key(pos)


def test_transpositions_share_a_key() -> None:
    one = TinkertownPosition.setup({"c3": "w", "f6": "r", "h4": "w"})
    other = one.copy()
    for token in ("c4", "f5", "d2"):
        one.push_text(token)
    for token in ("d2", "f5", "c4"):
        other.push_text(token)
    assert zobrist_key(one) == zobrist_key(other)
    # The side to move, a stack's order and a tombstone are all in the key.
    keys = {
        zobrist_key(TinkertownPosition.setup({"c3": "wr", "f6": "r"})),
        zobrist_key(TinkertownPosition.setup({"c3": "wr", "f6": "r"}, to_move=RED)),
        zobrist_key(TinkertownPosition.setup({"c3": "rwr", "f6": "r"})),
        zobrist_key(TinkertownPosition.setup({"c3": "wrr", "f6": "r"})),
        zobrist_key(TinkertownPosition.setup({"c3": "wr", "f6": "r"}, ["h4"])),
    }
    assert len(keys) == 5


# -- what a node scores ---------------------------------------------------------------


def _one_ply_later(score: int) -> int:
    """A score for the side to move after a move, as the mover's: negated, a win or loss
    one ply further away."""
    if score >= PROVEN:
        return -score + 1
    if score <= -PROVEN:
        return -score - 1
    return -score


@pytest.mark.parametrize("seed", range(3))
def test_children_are_the_legal_moves_with_their_one_ply_values(seed: int) -> None:
    for searcher, how in _walk(seed + 10, 300):
        pos = searcher.position
        if how == "pop" or pos.outcome() is not None or pos.turn % 3:
            continue
        children = searcher.children(0)
        assert sorted(str(m) for _, m, _ in children) == sorted(str(m) for m in pos.legal_moves())
        for value, move, child_material in children:
            searcher.push(move)
            assert searcher.material == child_material
            assert value == _one_ply_later(evaluate(searcher.position))
            searcher.pop()


def test_the_evaluation() -> None:
    pos = TinkertownPosition.setup({"c3": "w", "f6": "rw", "h4": "wwr", "b6": "rr"}, ["g4"])
    # White: c3 (4 neighbours) and f6 (4; Red's zombie under it, a latent group of
    # Red's); Red: h4 (3 neighbours, the tombstone on g4 notwithstanding: the term
    # is the grave's, not its capacity; White's zombie under it) and b6 (4
    # neighbours, a run of two: it can split once and stay Red's).
    assert material(pos) == (100 + 8) + (100 + 8 - 10) - (100 + 6 - 10) - (100 + 12 + 8)
    assert evaluate(pos) == material(pos) + TEMPO
    assert score_to_value(250) == 2.5 and score_to_value(WIN_SCORE - 3) == WIN - 3


def _minimax(pos: TinkertownPosition, depth: int) -> int:
    """The score ``depth`` plies deep by plain negamax over the rules: every move
    played, the evaluation at the leaves, no pruning, no table, no ordering."""
    side = pos.side_to_move
    best = -WIN_SCORE - 1
    for move in pos.legal_moves():
        pos.push(move)
        if pos.winner == side:
            score = WIN_SCORE - 1
        elif depth == 1:
            score = _one_ply_later(evaluate(pos))
        else:
            score = _one_ply_later(_minimax(pos, depth - 1))
        pos.pop()
        best = max(best, score)
    return best


@settings(max_examples=15, deadline=None)
@given(endgames(), st.sampled_from([2, 3]))
def test_the_search_scores_what_plain_minimax_scores(
    pos: TinkertownPosition, depth: int
) -> None:
    # Alpha-beta, the null windows, the table, the ordering and the unplayed last
    # ply change how much is searched, not the score.
    found = Searcher(pos).search(depth)
    assert found.score == _minimax(pos, found.depth)


def test_the_search_scores_what_minimax_scores_in_the_opening_and_middle_game() -> None:
    pos = GAME.new_position()
    for token in ("d3", "d2,b5"):
        pos.push_text(token)
    assert Searcher(pos).search(2).score == _minimax(pos, 2)
    rng = random.Random(5)
    GAME.random_playout(pos, rng, 60)
    assert pos.stage == "movement" and pos.outcome() is None
    assert Searcher(pos).search(2).score == _minimax(pos, 2)


# -- the analysis protocol -------------------------------------------------------------


def test_analyse_through_the_game() -> None:
    assert GAME.can_analyse and "eval" in GAME.annotation_keys
    pos = GAME.new_position()
    for token in ("d3", "d2,b5", "c5,f2"):
        pos.push_text(token)
    before = pos.position_string()
    found = GAME.analyse(pos, depth=2)
    assert pos.position_string() == before
    assert found.unit == "score" and not found.exact and found.depth == 2 and found.nodes > 0
    assert abs(found.value) < 10 and len(found.best_line) == 2
    line = pos.copy()
    for token in found.best_line:
        line.push_text(token)
    # A time budget alone: the search goes as deep as it can, one ply at least.
    assert (GAME.analyse(pos, seconds=0.05).depth or 0) >= 1


def test_analyse_a_finished_game_and_bad_budgets() -> None:
    pos = TinkertownPosition.setup({"c3": "w"}, to_move=RED)  # Red has no group: lost
    found = GAME.analyse(pos)
    assert (found.value, found.best_line, found.exact) == (-WIN, (), True)
    for depth in (0, -1, 2.5, True):
        with pytest.raises(MisuseError):
            GAME.analyse(GAME.new_position(), depth=depth)  # type: ignore[arg-type]
    with pytest.raises(MisuseError):
        GAME.analyse(GAME.new_position(), seconds=0)
    with pytest.raises(MisuseError):
        GAME.analyse(get_game("cave").new_position(), depth=1)


# -- the players ------------------------------------------------------------------------


def test_the_players_play_legal_games() -> None:
    searcher = SearchPlayer(depth=1)
    matches: list[list[Any]] = [[searcher, greedy_player], [random_bot, SearchPlayer(depth=2)]]
    for players in matches:
        record = play("tinkertown", players, random.Random(7), max_turns=40)
        assert check_record(record).ok
        assert record.tag("White") in ("search depth 1", "random_bot")
    assert searcher.moves == 20 and searcher.nodes > 0


def test_the_players_take_a_forced_win() -> None:
    text, move, _ = WIN_IN_TWO[0]
    pos = TinkertownPosition.from_string(text)
    rng = random.Random(1)
    assert str(SearchPlayer(depth=2).choose(pos, pos.legal_moves(), rng)) == move
    # The greedy player sees one ply: it takes a win at once, and never lets the
    # opponent win at once when it can help it.
    won = TinkertownPosition.setup({"c3": "w", "f6": "w", "h5": "r"})
    assert str(greedy_player(won, won.legal_moves(), rng)) == "h5"
    with pytest.raises(MisuseError):
        SearchPlayer(depth=0)

