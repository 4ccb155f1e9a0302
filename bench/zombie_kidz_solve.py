"""Zombie Kidz solved: the figures of docs/zombie-kidz.md, "Solving the game".

For each variant (players, zombies), printed as it goes:

1. the solve, in a child process (``python -m notation.games.zombie_kidz.solve``, numpy
   needed): states, wall and processor time, peak memory (the child's resident set),
   the table's size on disk; ``--reuse`` takes a table already in ``--out`` instead;
2. the team's probability of winning from the start under best play (the table);
3. by simulation from the start, ``--games`` games each (95% intervals): best play (the
   table's policy: a cross-check of its value), random play (a uniform choice among
   the turns the roll allows) and the simple policy (win if a turn wins, else lock a
   gate if a turn does, else clear the zone with the most zombies in reach, else stay);
4. the search that stands in where no table is (``analysis.Evaluator`` without a
   table, ``--depth`` turns): its error against the exact values on ``--sample``
   states, and the horizon estimates (``analysis.LEAF_ESTIMATES``) the table gives.

    python3 bench/zombie_kidz_solve.py                       # all six: about 25 min CPU
    python3 bench/zombie_kidz_solve.py --variants 2p8z,2p7z --games 2000
    python3 bench/zombie_kidz_solve.py --reuse --out ~/.cache/undead-notation
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.games.zombie_kidz import ZombieKidzPosition
from notation.games.zombie_kidz.analysis import Evaluator
from notation.games.zombie_kidz.board import DICE, PLAYERS_WIN
from notation.games.zombie_kidz.moves import ZombieKidzMove
from notation.games.zombie_kidz.solve import (
    VARIANTS,
    Table,
    Variant,
    cache_dir,
    decode_key,
    start_key,
)


def solve_in_child(variant: Variant, path: Path) -> tuple[float, float, float]:
    """Solve ``variant`` into ``path`` in a child process: wall seconds, processor
    seconds and peak resident memory in MB."""
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "notation.games.zombie_kidz.solve",
         str(variant.players), str(variant.zombies), str(path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parent.parent,
    )
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"the solve of {variant.describe()} failed ({status})")
    wall = time.perf_counter() - began
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best_turn(position: ZombieKidzPosition, die: str, rating: Evaluator) -> ZombieKidzMove:
    """The best turn of ``die`` by the table, near-ties broken by progress (the turn
    ``analyze`` names first: ``Evaluator.roll_values``)."""
    return rating.roll_values(position, die)[0][0]


def simple_turn(position: ZombieKidzPosition, die: str) -> ZombieKidzMove:
    """The simple policy: a turn that wins, else one that locks a gate, else the one
    that clears the most zombies, else staying (the first turn listed)."""
    moves = position.legal_moves_for_roll(die)
    wins = []
    for move in moves:
        position.push(move)
        if position.outcome() == PLAYERS_WIN:
            wins.append(move)
        position.pop()
    if wins:
        return wins[0]
    locks = [m for m in moves if m.locked]
    if locks:
        return locks[0]

    def cleared(move: ZombieKidzMove) -> int:
        position.push(move)
        count = int(position.last_move_facts().get("eliminated", 0))
        position.pop()
        return count

    return max(moves, key=cleared)  # max keeps the first of equals: staying comes first


def play(variant: Variant, policy: str, games: int, seed: int, table: Table | None) -> int:
    """Games won of ``games`` from the start with ``policy``: best, random or simple."""
    rng = random.Random(seed)
    rating = Evaluator(variant, table)
    won = 0
    for _ in range(games):
        position = ZombieKidzPosition(variant.players, variant.zombies)
        while position.outcome() is None:
            die = DICE[rng.randrange(len(DICE))]
            if policy == "best":
                move = best_turn(position, die, rating)
            elif policy == "simple":
                move = simple_turn(position, die)
            else:
                move = rng.choice(position.legal_moves_for_roll(die))
            position.push(move)
        won += position.outcome() == PLAYERS_WIN
    return won


def rate(won: int, games: int) -> str:
    """``won/games`` as a percentage with its 95% interval (Wilson)."""
    p = won / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f"{100 * p:.1f}% [{100 * (centre - half):.1f}, {100 * (centre + half):.1f}]"


def leaf_estimates(table: Table) -> tuple[tuple[float, ...], ...]:
    """The mean value of the table's states by gates locked and zombies in reserve."""
    sums: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    players, zombies = table.variant
    for key, value in zip(table.keys, table.values, strict=True):
        counts, _, locks = decode_key(key, players)
        cell = sums[bin(locks).count("1"), zombies - sum(counts)]
        cell[0] += value
        cell[1] += 1
    rows = []
    for locked in range(4):
        row = []
        for reserve in range(zombies + 1):
            total, count = sums.get((locked, reserve), (0.0, 0.0))
            row.append(round(total / count, 3) if count else 0.5)
        rows.append(tuple(row))
    return tuple(rows)


def search_error(table: Table, sample: int, depth: int, seed: int) -> tuple[float, float, float]:
    """Mean and largest error of the table-less search against the table on ``sample``
    states, and the seconds one search took on average."""
    rng = random.Random(seed)
    keys = rng.sample(list(table.keys), min(sample, len(table)))
    errors = []
    began = time.perf_counter()
    for key in keys:
        search = Evaluator(table.variant, None)
        estimate, _ = search.value(key, depth)
        exact = table.value(key)
        assert exact is not None
        errors.append(abs(estimate - exact))
    took = (time.perf_counter() - began) / len(keys)
    return sum(errors) / len(errors), max(errors), took


def main() -> None:
    """Run the benchmark (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(v.name for v in VARIANTS))
    parser.add_argument("--out", type=Path, default=None, help="where the tables go (the cache)")
    parser.add_argument("--reuse", action="store_true", help="use tables already in --out")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out: Path = args.out or cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    chosen = [v for v in VARIANTS if v.name in args.variants.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; tables in {out}",
          flush=True)
    for variant in chosen:
        path = out / f"zombie-kidz-{variant.name}.zks"
        print(f"\n== {variant.describe()} ==", flush=True)
        if args.reuse and path.is_file():
            print("solve: reused the table in the cache")
        else:
            wall, cpu, peak = solve_in_child(variant, path)
            print(f"solve: {wall:.0f} s wall, {cpu:.0f} s CPU, peak {peak:,.0f} MB")
        table = Table.load(path)
        start = table.value(start_key(variant))
        assert start is not None
        print(f"states: {len(table):,} (classes under the 8 symmetries); "
              f"table {path.stat().st_size / 1e6:.2f} MB; tolerance {table.tolerance:g}")
        print(f"best play from the start: {start:.10f}", flush=True)
        for policy in ("best", "random", "simple"):
            began = time.perf_counter()
            won = play(variant, policy, args.games, args.seed, table)
            print(f"  {policy:6} play, {args.games} games: {rate(won, args.games)}"
                  f"  ({time.perf_counter() - began:.0f} s)", flush=True)
        mean, worst, took = search_error(table, args.sample, args.depth, args.seed)
        print(f"search without a table, {args.depth} turns: mean error {mean:.4f}, "
              f"largest {worst:.4f}, {took * 1000:.0f} ms a position ({args.sample} states)")
        print(f"LEAF_ESTIMATES[{variant.players}, {variant.zombies}] = {leaf_estimates(table)}",
              flush=True)


if __name__ == "__main__":
    main()
