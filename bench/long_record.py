"""Write one very long legal record, for measuring memory per turn (docs/performance.md,
"Memory").

    python3 bench/long_record.py > /tmp/long.txt                  # 1,000,000 turns of Cave
    python3 bench/long_record.py --turns 200000 --seed 3 -o long.txt

Two peaceful random players play Cave: each turn a random legal move that is not an
attack (an attack is played only when nothing else is legal, which random play does
not meet) and that does not end the game.  Without attacks no piece ever leaves the
board, so the game never ends: a Cave game ends only when a side has no piece left, or
on two passes in a row, and a side passes only when it has no action at all.  The
moves are played with the library (``get_game``, ``new_position``, ``legal_moves``,
``push``) and the record is written as ``notation generate`` writes records: tags, then
the movetext, with ``*`` (the rules have not ended the game).  Seeded: the same
arguments give the same file.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from typing import Any

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    args = parser.parse_args()
    if args.output is None:
        write_record(sys.stdout, args.turns, args.seed)
    else:
        with open(args.output, "w", encoding="utf-8") as out:
            write_record(out, args.turns, args.seed)


if __name__ == "__main__":
    main()
