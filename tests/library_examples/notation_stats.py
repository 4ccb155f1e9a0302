# Statistics over a file: how many games, how long, how they end and open.
from collections import Counter

import notation

records = list(notation.read_file("records/cave/examples.ugn"))
turns = [len(record.moves) for record in records]
print(f"{len(records)} games, {sum(turns) / len(turns):.1f} turns on average, longest {max(turns)}")
print("results:", Counter(record.result for record in records))
print("ended by the rules:", sum(record.end_position().is_game_over() for record in records))
print("first moves:", Counter(record.moves[0].text for record in records).most_common(2))
