# Bots: an attacker plays a random bot three times at Cave; the records go to stdout.
import random
from collections.abc import Sequence
from typing import Any

import notation


def attacker(view: notation.Position[Any], legal_moves: Sequence[Any], rng: random.Random) -> Any:
    attacks = [move for move in legal_moves if "x" in str(move)]  # Cave writes attacks with x
    return rng.choice(attacks or legal_moves)


rng = random.Random(2024)  # one seed replays all three games
for _ in range(3):
    record = notation.play("cave", [attacker, notation.random_bot], rng)
    print(notation.write_record(record))
