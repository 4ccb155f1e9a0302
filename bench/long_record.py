"""Write one very long legal record, and measure the memory a turn of it takes
(docs/performance.md, "Memory").

    python3 bench/long_record.py > /tmp/long.txt                  # 1,000,000 turns of Cave
    python3 bench/long_record.py --turns 200000 --seed 3 -o long.txt
    python3 bench/long_record.py --measure /tmp/long.txt          # bytes a turn, peak RSS

Two peaceful random players play Cave: each turn a random legal move that is not an
attack (an attack is played only when nothing else is legal, which random play does
not meet) and that does not end the game.  Without attacks no piece ever leaves the
board, so the game never ends: a Cave game ends only when a side has no piece left, or
on two passes in a row, and a side passes only when it has no action at all.  The
moves are played with the library (``get_game``, ``new_position``, ``legal_moves``,
``push``) and the record is written as ``notation generate`` writes records: tags, then
the movetext, with ``*`` (the rules have not ended the game).  Seeded: the same
arguments give the same file.

``--measure FILE`` reads such a file (any file of one record) and prints, each from a
process of its own: the record tree's bytes a turn (tracemalloc, the tree kept after
``read_file``) and that process's peak resident set; the peak resident set of
``notation check --jobs 1 FILE`` and of ``notation check`` on a one-record file (the
start-up, to take off); and their bytes a turn.  Figures of one machine: compare runs
of the same file on it.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import notation
from notation.games import get_game


def long_game(turns: int, seed: int) -> Iterator[str]:
    """The canonical texts of ``turns`` legal Cave moves that never end the game."""
    game = get_game("cave")
    position: Any = game.new_position()
    rng = random.Random(seed)
    for _ in range(turns):
        moves = position.legal_moves()
        quiet = [move for move in moves if "x" not in str(move)]  # Cave writes attacks with x
        choices = quiet or moves
        while True:
            move = rng.choice(choices)
            position.push(move)
            if not position.is_game_over():
                break
            position.pop()  # never end the game: another move
            choices = [other for other in choices if other != move]
            if not choices:
                raise SystemExit(f"every legal move ends the game at turn {position.turn + 1}")
        yield str(position.last_move_canonical())


def write_record(out: Any, turns: int, seed: int) -> None:
    """The record, as text, to ``out``: lines of about 80 characters."""
    out.write('[Game "cave"]\n[Event "A long game"]\n')
    out.write(f'[Source "bench/long_record.py, seed {seed}, {turns} turns"]\n')
    out.write('[Result "*"]\n\n')
    line: list[str] = []
    width = 0
    for turn, text in enumerate(long_game(turns, seed), start=1):
        token = f"{(turn + 1) // 2}. {text}" if turn % 2 else text
        if width + len(token) + 1 > 80 and line:
            out.write(" ".join(line) + "\n")
            line, width = [], 0
        line.append(token)
        width += len(token) + 1
    line.append("*")
    out.write(" ".join(line) + "\n")


#: Run in a process of its own by --measure: the number of turns of the file's records,
#: read and kept, and with an argument "trace", the bytes their trees take (tracemalloc,
#: whose own bookkeeping makes that process's peak resident set no measure).
_TREE = """
import gc, sys, tracemalloc
from notation.reader import read_file
trace = sys.argv[2:] == ["trace"]
if trace:
    tracemalloc.start()
records = list(read_file(sys.argv[1]))
gc.collect()
size = tracemalloc.get_traced_memory()[0] if trace else 0
print(sum(len(record.moves) for record in records), size)
"""

#: A record of one turn, for the start-up of ``notation check``.
_SHORT = '[Game "cave"]\n\n1. b1 *\n'


def _run(args: list[str]) -> tuple[str, float]:
    """Run ``args`` with the ``notation`` this script imported first on the path: its
    standard output and its peak resident set in MB (the child's own, from wait4)."""
    root = Path(notation.__file__).resolve().parent.parent
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path}, text=True
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: a check that found a broken record
        raise SystemExit(f"{args} failed ({process.returncode})")
    return out, usage.ru_maxrss / 1024  # kB on Linux


def measure(path: str) -> None:
    """Print the memory a turn of the record in ``path`` takes (see the docstring)."""
    out, _ = _run([sys.executable, "-c", _TREE, path, "trace"])
    turns, tree = (int(word) for word in out.split())
    _, read_rss = _run([sys.executable, "-c", _TREE, path])
    _, check_rss = _run([sys.executable, "-m", "notation", "check", "--jobs", "1", path])
    with tempfile.TemporaryDirectory() as folder:
        short = Path(folder) / "short.txt"
        short.write_text(_SHORT, encoding="utf-8")
        _, base_rss = _run([sys.executable, "-m", "notation", "check", "--jobs", "1", str(short)])
    per_turn = 1024 * 1024 / max(turns, 1)
    print(f"{path}: {turns:,} turns")
    print(f"read_file, tree kept: {tree / max(turns, 1):.1f} bytes a turn (tracemalloc), "
          f"peak RSS {read_rss:.1f} MB, {(read_rss - base_rss) * per_turn:.1f} bytes a turn")
    print(f"notation check --jobs 1: peak RSS {check_rss:.1f} MB, "
          f"{(check_rss - base_rss) * per_turn:.1f} bytes a turn beyond the "
          f"{base_rss:.1f} MB of a one-turn record")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    parser.add_argument("--measure", metavar="FILE", help="measure FILE rather than write one")
    args = parser.parse_args()
    if args.measure is not None:
        measure(args.measure)
    elif args.output is None:
        write_record(sys.stdout, args.turns, args.seed)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            write_record(out, args.turns, args.seed)


if __name__ == "__main__":
    main()
