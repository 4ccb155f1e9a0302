# Building a record in code: players, moves, a comment and a variation.
import chess
import chess.pgn

game = chess.pgn.Game({"White": "Mina", "Black": "Igor"})
game.add_line(map(chess.Move.from_uci, ["e2e4", "e7e5", "g1f3"]))
game.variations[0].variations[0].comment = "Black's reply"
game.variations[0].add_line(map(chess.Move.from_uci, ["c7c5", "g1f3"]))  # another reply
print(game)
