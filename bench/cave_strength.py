"""How strong Cave's reasoning players are: win rates against random and greedy play.

Plays ``--games`` games of each match through the referee (:func:`notation.play`,
which deals the identities and shows each bot only its view), the two players
taking Red and Black in turn, and prints for each match the wins, losses and
unfinished games (still on after ``--max-turns`` turns), the win rate of the first
player with a 95% Wilson interval (unfinished games count half), the turns per
game and the processor time each player takes per move.

The players (docs/cave.md, "Players and analysis"):

* ``random``: :func:`notation.random_bot`;
* ``greedy``: :func:`notation.games.cave.engine.greedy_bot`, the best attack by
  expected material if one gains, else a random move;
* ``expectimax``: :class:`~notation.games.cave.engine.ExpectimaxPlayer`, a search
  ``--depth`` plies deep over the record's positions, fights as chance nodes;
* ``determinised``: :class:`~notation.games.cave.engine.DeterminisedPlayer`,
  ``--deals`` sampled consistent deals, each searched ``--depth`` plies;

and ``expectimax@3`` (or ``determinised@1``) searches that many plies instead.

    .venv/bin/python bench/cave_strength.py                    # 200 games a match
    .venv/bin/python bench/cave_strength.py --games 40 --matches expectimax:greedy
    .venv/bin/python bench/cave_strength.py --matches expectimax@3:expectimax,greedy:random
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import notation
from notation.games.base import Position
from notation.games.cave import CaveMove
from notation.games.cave.engine import (
    DeterminisedPlayer,
    ExpectimaxPlayer,
    greedy_bot,
)

DEFAULT_MATCHES = (
    "greedy:random,expectimax:random,expectimax:greedy,"
    "determinised:random,determinised:greedy,expectimax:determinised"
)

Choose = Callable[[Position[CaveMove], Sequence[CaveMove], random.Random], Any]


@dataclass
class Timed:
    """A bot that counts its moves and the processor time they take."""

    name: str
    # Not called "choose": the referee would call a choose attribute directly.
    inner: Choose
    moves: int = 0
    seconds: float = 0.0
    times: list[float] = field(default_factory=list)

    def __call__(
        self, view: Position[CaveMove], legal: Sequence[CaveMove], rng: random.Random
    ) -> Any:
        start = time.process_time()
        move = self.inner(view, legal, rng)
        spent = time.process_time() - start
        self.moves += 1
        self.seconds += spent
        self.times.append(spent)
        return move

    @property
    def __name__(self) -> str:  # the referee names a function bot by this
        return self.name


def make(kind: str, depth: int, deals: int) -> Timed:
    """A fresh timed player of ``kind``; ``expectimax@3`` searches 3 plies whatever
    ``depth`` says."""
    kind, _, own_depth = kind.partition("@")
    if own_depth:
        depth = int(own_depth)
    if kind == "random":
        return Timed("random", notation.random_bot)
    if kind == "greedy":
        return Timed("greedy", greedy_bot)
    if kind == "expectimax":
        player = ExpectimaxPlayer(depth=depth)
        return Timed(player.name, player.choose)
    if kind == "determinised":
        other = DeterminisedPlayer(deals=deals, depth=depth)
        return Timed(other.name, other.choose)
    raise SystemExit(f"unknown player {kind!r}: random, greedy, expectimax or determinised")


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (centre - spread) / scale, (centre + spread) / scale


def match(first: Timed, second: Timed, games: int, seed: int, max_turns: int) -> None:
    """Play ``games`` games, colours alternating, and print the figures."""
    rng = random.Random(seed)
    wins = losses = unfinished = turns = 0
    as_red = [0, 0]
    start = time.perf_counter()
    for game in range(games):
        red_first = game % 2 == 0
        players = [first, second] if red_first else [second, first]
        record = notation.play("cave", players, rng, max_turns=max_turns)
        turns += len(record.moves)
        if record.result == "*" or record.result == "1/2-1/2":
            unfinished += 1
            continue
        first_won = (record.result == "1-0") == red_first
        if first_won:
            wins += 1
            as_red[0 if red_first else 1] += 1
        else:
            losses += 1
    score = wins + unfinished / 2
    low, high = wilson(score, games)
    print(
        f"{first.name} v {second.name}: {wins} won, {losses} lost, {unfinished} unfinished "
        f"of {games}; score {100 * score / games:.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%); "
        f"wins as Red {as_red[0]}, as Black {as_red[1]}; {turns / games:.0f} turns a game; "
        f"{wall(time.perf_counter() - start)}",
        flush=True,
    )
    for player in (first, second):
        if player.moves and player.name not in ("random",):
            times = sorted(player.times)
            median = times[len(times) // 2]
            print(
                f"    {player.name}: {1000 * player.seconds / player.moves:.2f} ms a move "
                f"(median {1000 * median:.2f}, slowest {1000 * times[-1]:.0f}) "
                f"over {player.moves} moves",
                flush=True,
            )


def wall(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games a match (default 200)")
    parser.add_argument("--seed", type=int, default=18, help="the referee's seed")
    parser.add_argument("--depth", type=int, default=2, help="search depth in plies (2)")
    parser.add_argument("--deals", type=int, default=8, help="deals of determinised (8)")
    parser.add_argument("--max-turns", type=int, default=400,
                        help="turns after which a game counts as unfinished (400)")
    parser.add_argument("--matches", default=DEFAULT_MATCHES,
                        help="comma-separated first:second pairs (default: all six)")
    args = parser.parse_args(argv)
    print(
        f"Cave strength: {args.games} games a match, colours alternating, seed {args.seed}, "
        f"search depth {args.depth}, {args.deals} deals; unfinished after {args.max_turns} "
        "turns counts half; times are processor time",
        flush=True,
    )
    for pair in args.matches.split(","):
        first, _, second = pair.strip().partition(":")
        match(
            make(first, args.depth, args.deals),
            make(second, args.depth, args.deals),
            args.games,
            args.seed,
            args.max_turns,
        )


if __name__ == "__main__":
    main()
