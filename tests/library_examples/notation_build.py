# Building a record in code: players, moves, a comment and a variation.
import notation

moves = ["d3", "d2,b5", "c5,f2"]
record = notation.Record.from_moves("tinkertown", moves, tags={"White": "Mina", "Red": "Igor"})
record.moves[1].comment = "Red's pair"
record.add_variation(2, ["c3,g6", "g5,b6"])  # another second turn
print(notation.write_record(record))
