#!/usr/bin/env python3
"""How often the legal-slip search finds a legal slip injected at a random earlier
turn of a generated game, and what it costs beside a plain replay of the line::

    python3 bench/slip_rates.py --games 40

For each game of each kind: a random move of the main line is replaced by a legal move
one slip away from it (``notation.allcheck.ranked_moves``); where the line then breaks,
``notation.slips.find_slips`` is asked.  Found: the move written first is among the
slips it lists.  Sole: it is the only slip that lets the rest play (the cases the
issue's 95% is about).  Figures only: no assertion.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.allcheck import ranked_moves
from notation.games import get_game
from notation.slips import find_slips, plays_to_the_end


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("tinkertown", "cave", "zombie-kidz"):
        game = get_game(name)
        rng = random.Random(args.seed)
        tried = found = sole = sole_found = 0
        search = plain = 0.0
        for _ in range(args.games):
            position = game.new_position()
            texts: list[str] = []
            while position.outcome() is None and len(texts) < 300:
                move = rng.choice(position.legal_moves())
                texts.append(str(position.canonical(move)))
                position.push(move)
            result = position.outcome() or "*"
            start = game.new_position()
            for _attempt in range(5):
                index = rng.randrange(len(texts))
                at = start.copy()
                for text in texts[:index]:
                    at.push(game.parse(text))
                others = [m for rank, m in ranked_moves(game, at, texts[index])
                          if m.casefold() != texts[index].casefold()]
                if not others:
                    continue
                slipped = [*texts[:index], rng.choice(others), *texts[index + 1 :]]
                if plays_to_the_end(game, start.copy(), slipped, result):
                    continue  # the slip leaves a line that plays: nothing to find
                tried += 1
                began = time.process_time()
                slips = find_slips(game, start, slipped, result, limit=100)
                search += time.process_time() - began
                began = time.process_time()
                plays_to_the_end(game, start.copy(), texts, result)
                plain += time.process_time() - began
                hit = any(s.index == index and s.meant == texts[index] for s in slips[:3])
                found += hit
                if len(slips) == 1:
                    sole += 1
                    sole_found += hit
                break
        print(f"{name:12} tried {tried:3}  found in the first three {found / max(tried, 1):6.1%}"
              f"  sole {sole:3}, found {sole_found / max(sole, 1):6.1%}"
              f"  search / plain replay {search / max(plain, 1e-9):7.1f}")


if __name__ == "__main__":
    main()
