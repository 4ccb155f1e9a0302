# Statistics over a file: how many games, how long, how they end and open.
from collections import Counter

import chess.pgn

with open("tests/library_examples/games.pgn") as handle:
    games = list(iter(lambda: chess.pgn.read_game(handle), None))
plies = [game.end().ply() for game in games]
print(f"{len(games)} games, {sum(plies) / len(plies):.1f} plies on average, longest {max(plies)}")
print("results:", Counter(game.headers["Result"] for game in games))
print("ended by the rules:", sum(game.end().board().is_game_over() for game in games))
print("first moves:", Counter(game.variations[0].san() for game in games).most_common(2))
