# Stepping through a game: each move with its comment and alternatives, then one alternative.
import notation

record = list(notation.read_file("records/zombie-kidz/examples.ugn"))[-1]  # the last game
stepper = notation.Stepper(record)
while node := stepper.forward():
    print(stepper.cursor.turn, node.written, node.comment)
    for variation in node.variations:
        print("   or", variation.nodes[0].written)
stepper.goto_node(record.moves[2].variations[0].nodes[0])  # turn 3's alternative
print(stepper.cursor.turn, stepper.where(), stepper.cursor.position.position_string())
