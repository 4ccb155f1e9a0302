# Stepping through a game: each move with its comment and alternatives, then one alternative.
import chess.pgn

with open("tests/library_examples/games.pgn") as handle:
    game = chess.pgn.read_game(handle)  # the first game
for node in game.mainline():
    print(node.ply(), node.san(), node.comment)
    for other in node.parent.variations[1:]:
        print("   or", other.san())
alternative = list(game.mainline())[4].variations[1]  # ply 6's alternative
print(alternative.ply(), alternative.board().fen())
