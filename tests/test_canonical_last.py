"""``Position.last_move_canonical`` agrees with the old way of spelling a move.

Converting and annotating write every move in its canonical spelling.  They used to
ask ``position.canonical(move)`` before the move (the replay took each move back to
show them that position, and ``canonical`` itself pushed and popped it again); they
now ask ``position.last_move_canonical()`` after it.  Over random games of every game,
the fourth one included (which keeps the protocol's default), each move played in
some spelling the game accepts:

- ``last_move_canonical()`` after the push is what ``canonical(move)`` gave before it,
  and what the protocol's default (pop, ``canonical``, push) gives;
- the position is left as it was (same position string, same move to pop);
- a replay collects the same spelling for every node either way, for records written
  in those spellings, so the converted text is the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fourth_game import GAME as GRAVE_NIM
from fourth_game.published import published
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.errors import MisuseError, MoveSyntaxError
from notation.formats.convert import convert_record
from notation.games import Game, all_games
from notation.games.base import Position
from notation.reader import read_string
from notation.record import MoveNode, MoveNumber, Record
from notation.replay import ReplayVisitor, Visitors, check_record
from notation.visitor import nodes_in_order

GAMES: list[Game[Any]] = [*(game for game in all_games() if game is not GRAVE_NIM), GRAVE_NIM]
IDS = [game.name for game in GAMES]
MAX_TURNS = 150


class NodeByNode(ReplayVisitor[None]):
    """A replay visitor that knows the node of each move told (the record's, in the
    order a walk tells them): :attr:`node`."""

    def __init__(self) -> None:
        self.texts: dict[int, str] = {}
        self.nodes: Iterator[MoveNode] = iter(())  # the record's, in the order told
        self.node: MoveNode | None = None  # the move told last

    def begin_record(self, record: Record) -> None:
        self.nodes = nodes_in_order(record.moves)

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.node = next(self.nodes)


class CanonicalSpellings(NodeByNode):
    """Collects, per node, the canonical spelling of each legal move and (for JSON) the
    turn, the typed move and the facts it produced: one replay serves both.

    All of it is asked after the move is played (``last_move_canonical``), so the
    replay never takes a move back for this visitor."""

    def __init__(self, game: Game[Any], with_data: bool) -> None:
        super().__init__()
        self.game = game
        self.with_data = with_data
        #: (turn, the move as written, facts) by ``id(node)``: the move is made typed
        #: data (``move_to_dict``) only when it is asked for, :attr:`data`; the JSON
        #: writer takes the text of each move's data from a cache by the move instead.
        self.moves: dict[int, tuple[int, Any, dict[str, Any]]] = {}
        #: (round size, turn of the first move) of the record, as the replay found
        #: them at its first move (the main line's first): what layout() would make a
        #: new start position to learn.  None until a move was played.
        self.layout: tuple[int, int] | None = None

    @property
    def data(self) -> dict[int, tuple[int, dict[str, Any], dict[str, Any]]]:
        """(turn, typed move, facts) by ``id(node)``, as :func:`record_to_json` takes them."""
        to_dict = self.game.move_to_dict
        return {
            key: (turn, to_dict(move), facts) for key, (turn, move, facts) in self.moves.items()
        }

    def after_move(self, move: Any, position: Position[Any]) -> None:
        key = id(self.node)
        self.texts[key] = str(position.last_move_canonical())
        if self.layout is None:
            self.layout = (position.round_size, position.turn)
        if self.with_data:
            self.moves[key] = (position.turn, move, position.last_move_facts())


@pytest.fixture(autouse=True, scope="module")
def fourth_game_registered() -> Iterator[None]:
    """Grave Nim registered for this module (records name their game), as
    tests/test_game_contract.py does it, and forgotten afterwards."""
    with published():
        yield


def spellings(game: Game[Any], move: Any) -> list[Any]:
    """``move`` and other spellings of it or of nearby moves that the game reads: the
    text changed in case, without its capture marks, or without any one character
    (a short form, a missing mark).  Not all are legal where ``move`` is."""
    text = str(move)
    texts = {text, text.lower(), text.upper(), text.replace("x", "-"), text.replace("x", "")}
    texts.update(text[:i] + text[i + 1 :] for i in range(len(text)))
    found = [move]
    for variant in sorted(texts):
        try:
            found.append(game.parse(variant))
        except MoveSyntaxError:
            continue
    return found


def setup_tags(game: Game[Any], seed: int) -> dict[str, str]:
    """Setup tags for a game: each number of players the game is played by, in turn."""
    fewest, most = game.player_range()
    return dict(game.setup_tags(fewest + seed % (most - fewest + 1) if most else None))


def random_game(game: Game[Any], seed: int) -> tuple[dict[str, str], list[Any]]:
    """A random game, each move written in a random spelling the rules accept there
    (checked on the way: the spellings agree, the position is left as it was)."""
    rng = random.Random(seed)
    tags = setup_tags(game, seed)
    position = game.new_position(tags)
    written: list[Any] = []
    while position.outcome() is None and len(written) < MAX_TURNS:
        legal = position.legal_moves()
        if not legal:
            break
        accepted = [m for m in spellings(game, rng.choice(legal)) if position.check(m) is None]
        move = rng.choice(accepted)
        before = position.canonical(move)  # the old way: asked before the move
        position.push(move)
        string = position.position_string()
        assert position.last_move_canonical() == before
        assert str(position.last_move_canonical()) == str(before)
        # The protocol's default, which a game without its own method gets.
        assert Position.last_move_canonical(position) == before
        assert position.position_string() == string
        written.append(move)
    assert written, "a game has a first move"
    assert position.pop() == written[-1]  # the history untouched: the same move on top
    return tags, written


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_last_move_canonical_is_the_canonical_spelling_before_the_move(
    game: Game[Any], seed: int
) -> None:
    random_game(game, seed)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_position_with_no_move_pushed_has_no_last_move(game: Game[Any]) -> None:
    position = game.new_position(setup_tags(game, 0))
    with pytest.raises(MisuseError):
        position.last_move_canonical()
    with pytest.raises(MisuseError):
        Position.last_move_canonical(position)


class _OldSpellings(NodeByNode):
    """How the converter collected spellings before: ``canonical`` before each move."""

    def after_move(self, move: Any, position: Position[Any]) -> None:
        position.pop()
        self.texts[id(self.node)] = str(position.canonical(move))
        position.push(move)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_replay_collects_the_spellings_the_old_way_did(game: Game[Any], seed: int) -> None:
    tags, moves = random_game(game, seed)
    position = game.new_position(tags)
    for move in moves:
        position.push(move)
    head = "".join(f'[{name} "{value}"]\n' for name, value in {"Game": game.name, **tags}.items())
    record = read_string(f"{head}\n{' '.join(map(str, moves))} {position.result()}\n")[0]
    old, new = _OldSpellings(), CanonicalSpellings(game, with_data=True)
    verdict = check_record(record, None, Visitors(old, new))
    assert verdict.ok, verdict.error
    assert len(new.texts) == len(moves)
    assert new.texts == old.texts
    # The converted text spells every move so.
    converted = convert_record(record, "text")
    assert converted.error is None
    written = read_string(converted.text)[0].moves
    assert [node.text for node in written] == [old.texts[id(node)] for node in record.moves]


class _Counting(ReplayVisitor[None]):
    def __init__(self) -> None:
        self.before: list[int] = []
        self.after: list[int] = []

    def after_move(self, move: Any, position: Position[Any]) -> None:
        self.after.append(position.turn)
        position.pop()
        self.before.append(position.turn)
        position.push(move)


def test_after_move_gives_the_position_after_and_by_pop_the_one_before() -> None:
    game = GAMES[0]
    tags, moves = random_game(game, 1)
    head = "".join(f'[{name} "{value}"]\n' for name, value in {"Game": game.name, **tags}.items())
    position = game.new_position(tags)
    for move in moves:
        position.push(move)
    record = read_string(f"{head}\n{' '.join(map(str, moves))} {position.result()}\n")[0]
    counting = _Counting()
    assert check_record(record, None, Visitors(CanonicalSpellings(game, False), counting)).ok
    # before_move sees the position before each move, after_move the one after it.
    assert counting.before == list(range(len(moves)))
    assert counting.after == list(range(1, len(moves) + 1))
