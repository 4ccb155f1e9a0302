# Broken input: where and why each broken record breaks, and how many break each way.
import logging
from collections import Counter

import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # we report the errors ourselves
causes: Counter[str] = Counter()
with open("tests/library_examples/broken.pgn") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        for error in game.errors:
            print(game.headers["Event"], error)
            causes[type(error).__name__] += 1
print(causes)
