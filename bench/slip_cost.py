#!/usr/bin/env python3
"""What ``notation check --all`` costs beside a plain check on a 300-turn Tinkertown
record with one legal slip that breaks the record far later (40 turns or more)::

    python3 bench/slip_cost.py --records 5

Each record is a generated game of 300 turns with one move replaced by a legal move
one slip away (bench/slipped.py).  Two figures per record, each the best of a few runs:

- in process: the check of the record's text (read and replayed) by the library, plain
  and with every defect (``check_replay(every=True)``, which runs the slip search);
- whole processes: ``notation check FILE`` and ``notation check --all FILE``, processor
  time of the child process (start-up included, as a user waits for it).

Figures only: no assertion.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from slipped import SlippedGame, slipped_games

from notation.checking.every_defect import check_replay
from notation.reader import visit_records


def in_process(text: str, every: bool, runs: int) -> float:
    """The best processor time of ``runs`` checks of ``text``."""
    best = float("inf")
    for _ in range(runs):
        began = time.process_time()
        for _verdict in visit_records(io.StringIO(text), check_replay(every=every),
                                      keep_raw=True):
            pass
        best = min(best, time.process_time() - began)
    return best


def whole(path: str, every: bool, runs: int) -> float:
    """The best processor time of ``runs`` ``notation check`` processes of ``path``."""
    command = [sys.executable, "-m", "notation", "check", *(["--all"] if every else []), path]
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, spent)
    return best


def far_slips(count: int, seed: int) -> list[tuple[SlippedGame, int]]:
    """``count`` 300-turn records whose slip breaks the record 40 turns later or more,
    each with that distance."""
    found: list[tuple[SlippedGame, int]] = []
    for case in slipped_games("tinkertown", seed, 40 * count, min_turns=300):
        if len(case.moves) < 300:
            continue
        (index,) = case.slips
        (verdict,) = visit_records(io.StringIO(case.text()), check_replay(), keep_raw=True)
        error = verdict.error
        if error is None or error.turn is None or error.turn - (index + 1) < 40:
            continue
        found.append((case, error.turn - (index + 1)))
        if len(found) == count:
            break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    inner: list[float] = []
    outer: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for number, (case, gap) in enumerate(far_slips(args.records, args.seed), 1):
            text = case.text()
            path = os.path.join(folder, f"slip{number}.ugn")
            Path(path).write_text(text, encoding="utf-8")
            plain, every = in_process(text, False, 5 * args.runs), in_process(text, True, args.runs)
            plain_run, every_run = whole(path, False, args.runs), whole(path, True, args.runs)
            (verdict,) = visit_records(io.StringIO(text), check_replay(every=True), keep_raw=True)
            (index,) = case.slips
            named = any(fix.turn == index + 1 and fix.replacement == case.moves[index]
                        for defect in verdict.errors for fix in defect.fixes)
            inner.append(every / plain)
            outer.append(every_run / plain_run)
            print(f"record {number}: {len(case.moves)} turns, slip at turn {index + 1}, "
                  f"breaks {gap} turns later, named: {'yes' if named else 'no'}")
            print(f"  in process   check {plain * 1000:7.1f} ms  --all {every * 1000:7.1f} ms"
                  f"  ratio {every / plain:6.1f}")
            print(f"  processes    check {plain_run * 1000:7.1f} ms  --all "
                  f"{every_run * 1000:7.1f} ms  ratio {every_run / plain_run:6.1f}")
    if inner:
        print(f"median ratio: in process {statistics.median(inner):.1f} (worst "
              f"{max(inner):.1f}), whole processes {statistics.median(outer):.1f} (worst "
              f"{max(outer):.1f})")


if __name__ == "__main__":
    main()
