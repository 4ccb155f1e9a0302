"""The quick paths of ``convert`` and ``annotate`` give what the general ones gave.

The writer lays out a main line of plain (or annotated) moves without the tree walk,
wraps lines without gluing brackets, and takes the tags given instead of a copy of
the record; ``ordered_tags`` finds the head tags in one pass; the converter takes the
layout from its replay and writes a record's JSON line from its parts.  Each is held
here to the general construction it stands for, on generated games with comments,
glyphs, suffixes, variations and tags in every order added at random.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from notation.annotate import annotate_record
from notation.convert import (
    CanonicalSpellings,
    _dumps,
    _json_text,
    _layout,
    _ordered_tags_by_search,
    convert_record,
    ordered_tags,
    record_to_json,
)
from notation.games import get_game
from notation.generate import generate_records
from notation.reader import read_file, read_records
from notation.record import Comment, Record, Tag
from notation.replay import check_record
from notation.walk import walk_tree
from notation.writer import (
    WIDTH,
    _comment_tokens,
    _escape,
    _MovetextWriter,
    write_record,
    write_with_tags,
)

GAMES = ("tinkertown", "cave", "zombie-kidz")
RECORDS = Path(__file__).resolve().parent.parent / "records"


def reference_write(record: Record, round_size: int, first_turn: int,
                    texts: dict[int, str] | None = None, width: int = WIDTH) -> str:
    """write_record as it was: the walk, then the writer's own units and lines."""
    parts = [f'[{tag.name} "{_escape(tag.value)}"]' for tag in record.tags]
    writer = _MovetextWriter(round_size, texts)
    walk_tree(record.moves, writer, first_turn)
    _comment_tokens(record.comments, writer.tokens)
    writer.tokens.append(record.result or "*")
    _comment_tokens(record.comments_after_result, writer.tokens)
    movetext = writer.text(width)
    if parts:
        return "\n".join(parts) + "\n\n" + movetext + "\n"
    return movetext + "\n"


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
def test_writer_quick_paths(game: str) -> None:
    for record, size in decorated(game, 7, 40) + decorated(game, 8, 40, rich=False):
        for width in (WIDTH, 20, 3):
            expected = reference_write(record, size, 1, width=width)
            assert write_record(record, size, width, 1) == expected
            assert write_with_tags(record, record.tags, size, 1, None, width) == expected
        texts = {id(node): node.text.upper() for node in record.moves[::3]}
        assert write_record(record, size, first_turn=5, texts=texts) == reference_write(
            record, size, 5, texts
        )


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
        for name in ("examples.txt", "positions.txt"):
            records.extend(read_file(RECORDS / game / name, keep_raw=True))
        for record, _ in decorated(game, 5, 20):
            records.extend(read_records(write_record(record).splitlines(keepends=True),
                                        keep_raw=True))
    return records


def test_layout_from_replay_and_json_from_parts() -> None:
    for record in _all_records():
        game = get_game(record.tag("Game") or "")
        collector = CanonicalSpellings(game, True)
        verdict = check_record(record, None, collector)
        if not verdict.ok:
            continue
        view = replace(record, tags=ordered_tags(record, game))
        if collector.layout is not None:
            assert collector.layout == _layout(view, game)
        line = _json_text(view, game, collector.moves, collector.texts)
        obj = record_to_json(view, game, collector.data, texts=collector.texts)
        obj["ok"], obj["error"] = True, None
        if line is not None:
            assert line == _dumps(obj) + "\n"
        assert convert_record(record, "json").text == _dumps(obj) + "\n"


def test_annotate_twice_is_stable() -> None:
    for record in _all_records():
        first = annotate_record(record)
        if first.error is not None:
            continue
        again = next(iter(read_records(first.text.splitlines(keepends=True), keep_raw=True)))
        assert annotate_record(again).text == first.text
