# Filtering a collection: the short games that the rules say the first player won.
import notation

for record in notation.read_file("records/cave/examples.ugn"):
    if notation.check_record(record).outcome == "1-0" and len(record.moves) <= 50:
        print(notation.write_record(record))
