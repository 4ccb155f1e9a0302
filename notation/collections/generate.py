"""Seeded random games, played to the end through ``legal_moves()``, as records.

The same seed gives the same records on every machine (``random.Random`` is
deterministic across platforms for the calls used here), and the first games of
``count=5`` are those of ``count=3``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from notation.errors import require_number
from notation.games import get_game
from notation.games.base import Game
from notation.record import MoveNode, Record, Tag

__all__ = ["DEFAULT_MAX_TURNS", "generate_records", "random_record"]

DEFAULT_MAX_TURNS = 1000


def random_record(
    game: Game[Any],
    rng: random.Random,
    tags: Sequence[tuple[str, str]],
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> tuple[Record, int]:
    """One random game with these tags, as a record, with its round size.

    A game the rules have not ended after ``max_turns`` turns gets the result ``*``.
    """
    position = game.new_position(dict(tags))
    moves = game.random_playout(position, rng, max_turns)
    result = position.outcome() or "*"
    record = Record(
        tags=[Tag(name, value) for name, value in tags] + [Tag("Result", result)],
        moves=[MoveNode(str(move)) for move in moves],
        result=result,
    )
    return record, position.round_size


def generate_records(
    game_name: str,
    count: int,
    seed: int,
    *,
    players: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    extra_tags: Sequence[tuple[str, str]] = (),
) -> Iterator[tuple[Record, int]]:
    """``count`` random games of ``game_name`` from ``seed``, one at a time; ``extra_tags``
    set up the game further (``("Zombies", "7")``).  Raises ``TagValueError`` for a
    number of players or a tag the game cannot accept.

    Each record comes with its round size (the turns of a round: two players at Cave);
    one seed always gives the same games:

    >>> from notation.writer import write_record
    >>> (record, round_size), = generate_records("cave", 1, seed=7, max_turns=6)
    >>> round_size, record.tag("Source")
    (2, 'generated: random legal play, seed 7, game 1')
    >>> print(write_record(record).splitlines()[-1])
    1. b1 a5 2. a1 a5-b5 3. a1-b1 a5 *
    """
    require_number(count, "count")
    game = get_game(game_name)
    setup = [*game.setup_tags(players), *extra_tags]
    game.new_position(dict(setup))  # reject bad setup tags before writing anything
    size = int(dict(setup).get("Players", len(game.player_tags)))
    names = game.player_tags[:size]
    if len(names) < size:
        names = tuple(f"Player{i}" for i in range(1, size + 1))
    rng = random.Random(seed)
    for number in range(1, count + 1):
        tags = [
            ("Game", game.name),
            ("Event", "Random games"),
            ("Round", str(number)),
            *((tag, f"Random player {i}") for i, tag in enumerate(names, 1)),
            *setup,
            ("Source", f"generated: random legal play, seed {seed}, game {number}"),
        ]
        yield random_record(game, rng, tags, max_turns=max_turns)
