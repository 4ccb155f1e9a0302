"""Tags in canonical order, and annotating twice, on generated games with comments,
glyphs, suffixes, variations and tags in every order added at random.

``ordered_tags`` finds the head tags in one pass, held here to a search for each;
annotating an annotated record again gives the same text.  (What the writer and the
converter make of these records is held to the old code's output by
tests/test_golden.py, which keeps them as JSON Lines.)
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from notation.collections.generate import generate_records
from notation.formats.annotate import annotate_record
from notation.formats.convert import (
    _ordered_tags_by_search,
    ordered_tags,
)
from notation.games import get_game
from notation.reader import read_file, read_records
from notation.record import Comment, Record, Tag
from notation.writer import (
    write_record,
)

GAMES = ("tinkertown", "cave", "zombie-kidz")
RECORDS = Path(__file__).resolve().parent.parent / "records"


def decorated(
    game: str, seed: int, count: int, rich: bool = True
) -> list[tuple[Record, int]]:
    """Generated games with things added at random: comments after moves (braced, a
    ';' one, two of them, empty, one with a quote and a backslash), comments before
    moves, suffixes, glyphs, variations, tags repeated or in another order, a long
    move text, comments after the result.  Not ``rich``: comments after moves and
    suffixes only (the writer's quick path, mostly)."""
    rng = random.Random(seed)
    out = []
    players = 3 if game == "zombie-kidz" else None
    for record, size in generate_records(game, count, seed, players=players, max_turns=60):
        for node in record.moves:
            roll = rng.random()
            if not rich and 0.19 <= roll < 0.27:
                roll = 0.22 if roll < 0.23 else 1.0
            if roll < 0.15:
                node.comments_after.append(Comment(f"[%note {rng.randrange(9)}]"))
            elif roll < 0.17:
                node.comments_after.append(Comment('a "quoted" \\ one', braced=False))
            elif roll < 0.19:
                node.comments_after.extend([Comment("one"), Comment("")])
            elif roll < 0.21:
                node.comments_before.append(Comment("before", after_number=rng.random() < 0.5))
            elif roll < 0.23:
                node.suffix = rng.choice(["!", "?", "!?"])
            elif roll < 0.25:
                node.nags.append(rng.randrange(1, 20))
            elif roll < 0.27:
                node.add_variation([node.text])
        if rng.random() < 0.3:
            record.tags.insert(0, Tag("Annotator", 'x "y" \\ z'))
        if rng.random() < 0.3:
            record.tags.append(Tag("Event", "a second Event"))
        if rng.random() < 0.3:
            record.tags.reverse()
        if rng.random() < 0.2:
            record.comments_after_result.append(Comment("after the result"))
        if rng.random() < 0.2:
            record.comments.append(Comment("last words", braced=False))
        out.append((record, size))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_ordered_tags_one_pass(game: str) -> None:
    rng = random.Random(3)
    played = get_game(game)
    for record, _ in decorated(game, 11, 30):
        tags = list(record.tags)
        rng.shuffle(tags)
        tags += [Tag("Game", "again"), Tag("Result", "*"), Tag("Site", "here")]
        for view in (record, replace(record, tags=tags), replace(record, tags=[])):
            assert ordered_tags(view, played) == _ordered_tags_by_search(
                view.tags, played, ("Event", "Site", "Date", "Round", *played.player_tags, "Result")
            )


def _all_records() -> list[Record]:
    records: list[Record] = []
    for game in GAMES:
        for name in ("examples.ugn", "positions.ugn"):
            records.extend(read_file(RECORDS / game / name, keep_raw=True))
        for record, _ in decorated(game, 5, 20):
            records.extend(read_records(write_record(record).splitlines(keepends=True),
                                        keep_raw=True))
    return records


def test_annotate_twice_is_stable() -> None:
    for record in _all_records():
        first = annotate_record(record)
        if first.error is not None:
            continue
        again = next(iter(read_records(first.text.splitlines(keepends=True), keep_raw=True)))
        assert annotate_record(again).text == first.text
