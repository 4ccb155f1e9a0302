# A bot of one's own: annotated as its author likes, it plays Cave against a random bot.
import random

import notation
from notation.games.cave import Attack, CaveMove


def greedy_bot(
    view: notation.Position[CaveMove], legal_moves: list[CaveMove], rng: random.Random
) -> CaveMove:
    """A move that wins at once if there is one, else an attack, else any move."""
    win = "1-0" if view.turn % view.round_size == 0 else "0-1"
    for move in legal_moves:
        view.push(move)  # the view is the bot's own copy: it may try moves on it
        won = view.outcome() == win
        view.pop()
        if won:
            return move
    attacks = [move for move in legal_moves if isinstance(move, Attack)]
    return rng.choice(attacks or legal_moves)


record = notation.play("cave", [greedy_bot, notation.random_bot], random.Random(7))
print(notation.write_record(record))
