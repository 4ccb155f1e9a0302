"""Seeded random games, played to the end through ``legal_moves()``, as records.

The same seed gives the same records on every machine (``random.Random`` is
deterministic across platforms for the calls used here), and the first games of
``count=5`` are those of ``count=3``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from notation.games import get_game
from notation.games.base import Game
from notation.record import MoveNode, Record, Tag

__all__ = ["DEFAULT_MAX_TURNS", "generate_records", "random_record"]

DEFAULT_MAX_TURNS = 1000


def random_record(
    game: Game[Any],
    rng: random.Random,
    *,
    players: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    tags: list[tuple[str, str]] | None = None,
) -> tuple[Record, int]:
    """One random game as a record, with its round size (for writing move numbers).

    A game the rules have not ended after ``max_turns`` turns gets the result ``*``.
    """
    setup = game.setup_tags(players)
    all_tags = [("Game", game.name), *(tags or []), *setup]
    position = game.new_position(dict(all_tags))
    moves = game.random_playout(position, rng, max_turns)
    result = position.outcome() or "*"
    record = Record(
        tags=[Tag(name, value) for name, value in all_tags] + [Tag("Result", result)],
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
) -> Iterator[tuple[Record, int]]:
    """``count`` random games of ``game_name`` from ``seed``, one at a time."""
    game = get_game(game_name)
    rng = random.Random(seed)
    player_tags = game.player_tags
    if players is not None and len(player_tags) != players:
        player_tags = tuple(f"Player{i}" for i in range(1, players + 1))
    for number in range(1, count + 1):
        tags = [
            ("Event", "Random games"),
            ("Round", str(number)),
            *((tag, f"Random player {i}") for i, tag in enumerate(player_tags, 1)),
            ("Source", f"generated: random legal play, seed {seed}, game {number}"),
        ]
        yield random_record(game, rng, players=players, max_turns=max_turns, tags=tags)
