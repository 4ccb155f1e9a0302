# Filtering a collection: the short games that the rules say the first player won.
import chess.pgn

with open("tests/library_examples/games.pgn") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        if game.end().board().result() == "1-0" and game.end().ply() <= 40:
            print(game, end="\n\n")
