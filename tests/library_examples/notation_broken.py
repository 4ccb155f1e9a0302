# Broken input: where and why each broken record breaks, and how many break each way.
from collections import Counter

import notation

causes: Counter[str] = Counter()
for record in notation.read_file("records/tinkertown/broken.ugn"):
    error = notation.check_record(record).error
    if error is not None:
        print(error)
        causes[error.code] += 1
print(causes)
