"""Bots for :func:`notation.play`: the search player and a greedy player.

docs/tinkertown.md, "The search engine": both see the whole position (the game
hides nothing) and return one of the legal moves they are offered.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from notation.errors import MisuseError
from notation.games.base import Position
from notation.games.tinkertown.moves import TinkertownMove
from notation.games.tinkertown.rules import TinkertownRules
from notation.games.tinkertown.search import Searcher

__all__ = ["DEFAULT_PLAYER_DEPTH", "SearchPlayer", "greedy_player"]

#: The depth of a :class:`SearchPlayer` made without one.
DEFAULT_PLAYER_DEPTH = 3


def _tinkertown(view: Position[TinkertownMove]) -> TinkertownRules:
    if not isinstance(view, TinkertownRules):
        raise MisuseError(f"{view!r} is not a Tinkertown position: this bot plays Tinkertown")
    return view


class SearchPlayer:
    """A bot that plays the search's best move: ``depth`` plies, and/or at most
    ``seconds`` per move (a depth alone has no time limit, a time alone no depth
    limit; neither: :data:`DEFAULT_PLAYER_DEPTH`).

    It counts what it did, for the figures, over all its searches: :attr:`moves`,
    :attr:`nodes` (positions looked at), :attr:`visited` (nodes searched) and
    :attr:`seconds`.
    """

    def __init__(self, depth: int | None = None, seconds: float | None = None) -> None:
        if depth is None and seconds is None:
            depth = DEFAULT_PLAYER_DEPTH
        if depth is not None and (type(depth) is not int or depth < 1):
            raise MisuseError(f"depth is a whole number of plies >= 1, not {depth!r}")
        self.depth = depth
        self.time_limit = seconds
        #: The player's name, for the record's tags.
        self.name = "search" + (f" depth {depth}" if depth else "") + (
            f" {seconds:g}s" if seconds else ""
        )
        self.moves = 0
        self.nodes = 0
        self.visited = 0
        self.seconds = 0.0

    def choose(
        self,
        view: Position[TinkertownMove],
        legal_moves: Sequence[TinkertownMove],
        rng: random.Random,
    ) -> TinkertownMove:
        """The first move of the best line found in ``view``."""
        searcher = Searcher(_tinkertown(view))
        found = searcher.search(self.depth, self.time_limit)
        self.moves += 1
        self.nodes += found.nodes
        self.visited += searcher.visited
        self.seconds += found.seconds
        return found.line[0]


def greedy_player(
    view: Position[TinkertownMove],
    legal_moves: Sequence[TinkertownMove],
    rng: random.Random,
) -> TinkertownMove:
    """A move of ``legal_moves`` with the best one-ply value in ``view`` (the search's
    evaluation after the move; a win at once first, a move that lets the opponent win
    at once last), at random among equals (with ``rng``)."""
    children = Searcher(_tinkertown(view)).children(0)
    best = max(value for value, _, _ in children)
    return rng.choice([move for value, move, _ in children if value == best])
