"""How strong the Tinkertown search player is: matches against a random and a greedy player.

The players are :class:`notation.games.tinkertown.players.SearchPlayer` (the search of
docs/tinkertown.md, "The search engine", at ``--depth`` plies and/or ``--seconds`` per
move), :func:`notation.games.tinkertown.players.greedy_player` (the best one-ply value,
at random among equals) and :func:`notation.collections.referee.random_bot`.  Each match is
``--games`` games played by :func:`notation.play` from the empty cemetery, the search
player White in every other game; a game the rules have not ended after
``--max-turns`` turns counts as unfinished.  For context, greedy plays random too.

Printed per match: the search player's wins, losses and unfinished games, its win rate
with a 95% (Wilson) interval, as White and as Red, the mean length of the games in
turns, and the search's cost: milliseconds per move, positions looked at per second
(the nodes searched and the children scored at the last ply, which are not played) and
nodes searched per second (processor time of this process).

    python3 bench/tinkertown_strength.py                       # 200 games a match, depth 2
    python3 bench/tinkertown_strength.py --games 40 --depth 3  # slower: ~60 ms a move
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from notation.collections.referee import play, random_bot
from notation.games.tinkertown.players import SearchPlayer, greedy_player


class TimedSearch:
    """A :class:`SearchPlayer` whose moves are also timed in processor time (the player's
    own figures are wall-clock time, which other work on the machine inflates)."""

    def __init__(self, depth: int, seconds: float | None) -> None:
        self.player = SearchPlayer(depth, seconds)
        self.name = self.player.name
        self.cpu = 0.0

    def choose(self, view: Any, legal_moves: Sequence[Any], rng: random.Random) -> Any:
        """The search player's move, timed."""
        started = time.process_time()
        move = self.player.choose(view, legal_moves, rng)
        self.cpu += time.process_time() - started
        return move


@dataclass
class Match:
    """The tally of one match, from the first player's side."""

    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    as_white: list[int] = field(default_factory=lambda: [0, 0])  # wins, games
    as_red: list[int] = field(default_factory=lambda: [0, 0])
    turns: int = 0
    seconds: float = 0.0


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def run_match(
    name: str, player: Any, opponent: Any, games: int, seed: int, max_turns: int
) -> Match:
    """``games`` games of ``player`` against ``opponent``, ``player`` White in the even ones."""
    match = Match(name)
    started = time.process_time()
    for index in range(games):
        white = index % 2 == 0
        players = [player, opponent] if white else [opponent, player]
        record = play("tinkertown", players, random.Random(seed * 100_003 + index),
                      max_turns=max_turns)
        match.games += 1
        match.turns += len(record.moves)
        side = match.as_white if white else match.as_red
        side[1] += 1
        if record.result == "*":
            match.unfinished += 1
        elif record.result == ("1-0" if white else "0-1"):
            match.wins += 1
            side[0] += 1
        else:
            match.losses += 1
        if (index + 1) % 50 == 0:
            print(f"  {name}: {index + 1} games", file=sys.stderr, flush=True)
    match.seconds = time.process_time() - started
    return match


def report(match: Match, timed: TimedSearch | None) -> list[str]:
    """The lines printed for one match."""
    low, high = wilson(match.wins, match.games)
    rate = match.wins / match.games if match.games else 0.0
    lines = [
        f"{match.name}: {match.games} games, {match.wins} won, {match.losses} lost, "
        f"{match.unfinished} unfinished; win rate {100 * rate:.1f}% "
        f"(95%: {100 * low:.1f}-{100 * high:.1f}%)",
        f"    as White {match.as_white[0]}/{match.as_white[1]}, "
        f"as Red {match.as_red[0]}/{match.as_red[1]}; "
        f"{match.turns / max(1, match.games):.0f} turns a game; {match.seconds:.0f} s in all",
    ]
    if timed is not None and timed.player.moves and timed.cpu > 0:
        searcher, cpu = timed.player, timed.cpu
        lines.append(
            f"    search: {1000 * cpu / searcher.moves:.1f} ms a move, "
            f"{searcher.nodes / cpu:,.0f} positions/s, "
            f"{searcher.visited / cpu:,.0f} nodes searched/s "
            f"({searcher.moves} moves, {searcher.nodes:,} positions)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    """Run the matches and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per match (default 200)")
    parser.add_argument("--depth", type=int, default=2, help="search depth in plies (default 2)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="search time per move (default: none, the depth decides)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=1000,
                        help="a game not over after this many turns is unfinished")
    args = parser.parse_args(argv)
    print(f"Tinkertown: search (depth {args.depth}"
          + (f", {args.seconds:g} s a move" if args.seconds else "")
          + f") against random and greedy players, {args.games} games a match, "
          f"seed {args.seed}; Python {sys.version.split()[0]}")
    for name, opponent in (("search - random", random_bot), ("search - greedy", greedy_player)):
        timed = TimedSearch(args.depth, args.seconds)
        match = run_match(name, timed, opponent, args.games, args.seed, args.max_turns)
        print("\n".join(report(match, timed)), flush=True)
    baseline = run_match("greedy - random", greedy_player, random_bot, args.games, args.seed,
                         args.max_turns)
    print("\n".join(report(baseline, None)), flush=True)


if __name__ == "__main__":
    main()
