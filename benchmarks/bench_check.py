"""Speed of reading and checking a large generated corpus, per game.

Prints turns per second for reading alone and for reading + checking (one core),
and the peak memory of a streaming check of a corpus and of one four times
larger: the two peaks should be about the same.

    python3 benchmarks/bench_check.py [--games N] [--game NAME ...]
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
import tracemalloc
from pathlib import Path

from notation.games import game_names, get_game
from notation.generate import generate_records
from notation.reader import read_file
from notation.replay import check_record
from notation.writer import write_records


def make_corpus(game: str, games: int, folder: Path, seed: int = 1) -> tuple[Path, int]:
    path = folder / f"{game}-{games}.txt"
    players = 3 if game == "zombie-kidz" else None
    turns = 0
    with path.open("w", encoding="utf-8") as out:
        pairs = list(generate_records(game, games, seed, players=players))
        turns = sum(len(record.moves) for record, _ in pairs)
        for text in write_records(pairs):
            out.write(text)
    return path, turns


def timed(fn: object) -> float:
    assert callable(fn)
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def read_only(path: Path) -> None:
    for _ in read_file(path):
        pass


def read_and_check(path: Path, game: str) -> None:
    for record in read_file(path):
        verdict = check_record(record, game)
        if not verdict.ok:
            raise SystemExit(f"generated record broken: {verdict.error}")


def peak_memory(path: Path, game: str) -> int:
    tracemalloc.start()
    read_and_check(path, game)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per corpus")
    parser.add_argument("--game", action="append", choices=game_names())
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game in args.game or game_names():
            get_game(game)
            path, turns = make_corpus(game, args.games, folder)
            size = path.stat().st_size / 1e6
            t_read = min(timed(lambda p=path: read_only(p)) for _ in range(2))
            t_check = min(timed(lambda p=path, g=game: read_and_check(p, g)) for _ in range(2))
            print(
                f"{game:12} {args.games} games, {turns} turns, {size:.1f} MB: "
                f"read {turns / t_read:,.0f} turns/s, "
                f"read+check {turns / t_check:,.0f} turns/s"
            )
            small, _ = make_corpus(game, max(args.games // 4, 1), folder, seed=2)
            print(
                f"{'':12} peak memory of a streaming check: "
                f"{peak_memory(small, game) / 1e6:.2f} MB for {max(args.games // 4, 1)} games, "
                f"{peak_memory(path, game) / 1e6:.2f} MB for {args.games} games"
            )


if __name__ == "__main__":
    main()
