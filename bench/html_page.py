"""How fast ``notation html`` makes a page, how big the page is, how much memory it takes.

Generates ``--games`` random games of each game asked (``notation generate``, a fixed
seed), then runs ``notation html FILE -o PAGE --jobs N`` for each ``--jobs`` in a
process of its own and prints, for each run: the wall time, the processor time of
the command and its workers (user + system), the largest resident memory of any of
its processes, the page's size, and that size per 100 turns.  On a machine that
other work keeps busy, the processor time is the figure to compare.

    .venv/bin/python bench/html_page.py                          # 2,000 games of each
    .venv/bin/python bench/html_page.py --games 200 --game tinkertown --jobs 1
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from notation.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tinkertown", "cave", "zombie-kidz")


def run_page(source: Path, page: Path, jobs: int) -> tuple[float, float, float]:
    """Wall seconds, processor seconds and largest resident MB of one ``notation html``
    (its workers included: they are its children, waited for)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", "html", str(source), "-o", str(page),
         "--jobs", str(jobs)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"notation html exited with {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # kB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", action="append", choices=GAMES, help="default: all three")
    parser.add_argument("--jobs", type=int, action="append", help="default: 1 and 2")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = args.game or list(GAMES)
    jobs = args.jobs or [1, 2]
    print(f"{'game':12} {'jobs':>4} {'wall s':>7} {'cpu s':>7} {'MB rss':>7} "
          f"{'page MB':>8} {'kB/100 turns':>12} {'turns':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            source = Path(folder) / f"{game}.txt"
            # In a process of its own: a child's peak memory counts its parent's at the
            # fork, so this one must stay small.
            with source.open("w", encoding="utf-8") as out:
                subprocess.run(
                    [sys.executable, "-m", "notation", "generate", "--game", game,
                     "--games", str(args.games), "--seed", str(args.seed)],
                    stdout=out, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                )
            turns = sum(len(record.moves) for record in read_file(source))
            for count in jobs:
                page = Path(folder) / f"{game}-{count}.html"
                wall, cpu, rss = run_page(source, page, count)
                size = page.stat().st_size
                print(
                    f"{game:12} {count:>4} {wall:>7.1f} {cpu:>7.1f} {rss:>7.0f} "
                    f"{size / 1e6:>8.1f} {size / turns * 100 / 1000:>12.1f} {turns:>8}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
