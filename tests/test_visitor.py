"""The one visitor protocol: the reader and a tree walk tell a visitor the same things.

A visitor that logs the tags, moves, variations and result gets the same log from
:func:`notation.reader.visit_records` (text) and from :func:`notation.visitor.walk_record`
(the tree :func:`read_records` built), on every bundled record file and on records with
comments, glyphs and nested variations; and the tree a walk of a tree builds is that
tree, comments, glyphs and places included.
"""

from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from notation.reader import read_records, visit_records
from notation.record import Comment, MoveNode, MoveNumber, Record
from notation.replay import Visitors
from notation.visitor import (
    SKIP,
    RecordVisitor,
    Skip,
    TreeBuilder,
    TurnCounter,
    iter_nodes,
    walk_record,
)

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "records").glob("*/*.ugn"))

NESTED = (
    '[Game "cave"]\n\n{before} 1. b1 {after} (1. c1 $2 (1. d1 b5) ! 1... c5) $1 1... b5\n'
    "2. b1-b2 b5-b4 ; to the end\n3. b2-b3 (3. b2-c2?! {why}) 3... b4-b3 *\n"
)


class Log(RecordVisitor[list[Any]]):
    """The tags, moves (with their numbers and places), variations and result."""

    def begin_record(self, record: Record) -> None:
        self.events: list[Any] = [("record", record.index, record.first_line)]

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        self.events.append(("tag", name, value, line, column))

    def end_tags(self, record: Record) -> Skip | None:
        self.events.append("moves")
        return None

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.events.append(("move", text, str(number), line, column))

    def begin_variation(self, line: int, column: int) -> None:
        self.events.append(("(", line, column))

    def end_variation(self) -> None:
        self.events.append(")")

    def visit_result(self, result: str, line: int, column: int) -> None:
        self.events.append(("result", result, line, column))

    def end_record(self, record: Record) -> list[Any]:
        return [*self.events, record.result, record.error]


def placed(record: Record) -> list[Any]:
    """What a tree holds, with every place: its nodes, comments, glyphs, variations."""
    def comments(items: list[Comment]) -> list[Any]:
        return [(c.text, c.line, c.column, c.braced, c.after_number) for c in items]

    def line(nodes: list[MoveNode]) -> list[Any]:
        return [
            (n.text, n.line, n.column, n.suffix, list(n.nags), str(n.number),
             comments(n.comments_before), comments(n.comments_after),
             [(v.line, v.column, comments(v.comments_before), line(v.nodes),
               comments(v.comments)) for v in n.variations])
            for n in nodes
        ]
    return [
        [(t.name, t.value, t.line, t.column) for t in record.tags], line(record.moves),
        comments(record.comments), record.result, record.result_line, record.result_column,
        comments(record.comments_after_result), record.error, record.first_line,
        record.last_line,
    ]


class Rebuilder(TreeBuilder):
    """A tree builder that builds a walked tree again from its events (a fresh record
    begun, not the walked one taken as it is)."""

    def begin_record(self, record: Record) -> None:
        super().begin_record(Record(index=record.index, source=record.source,
                                    first_line=record.first_line))

    def end_record(self, record: Record) -> Record:
        # The walked record's comments were told as events: not added again.
        return self.finish(replace(record, comments=[]))


def rebuilt(tree: Record) -> Record:
    """``tree`` built again by a :class:`TreeBuilder` from the events of its walk."""
    return walk_record(tree, Rebuilder())


def test_a_tree_walked_is_taken_as_it_is() -> None:
    (tree,) = read_records(lines(NESTED))
    assert walk_record(tree, TreeBuilder()) is tree


def lines(text: str) -> list[str]:
    return io.StringIO(text, newline="").readlines()


def assert_same_events(text: str) -> None:
    from_text = list(visit_records(lines(text), Log(), "f.txt"))
    trees = list(read_records(lines(text), "f.txt"))
    from_tree = [walk_record(r, Log()) for r in trees]
    assert from_text == from_tree
    assert from_text  # something was read
    # A walk of a tree tells all of it: a builder that builds from its events (a fresh
    # record begun) makes the same tree, every place kept.
    assert [placed(rebuilt(r)) for r in trees] == [placed(r) for r in trees]
    # Two visitors under one read are told all that each alone is.
    both = list(visit_records(lines(text), Visitors(Log(), TreeBuilder()), "f.txt"))
    assert len(both) == len(trees)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_text_and_tree_tell_the_same(path: Path) -> None:
    assert_same_events(path.read_text(encoding="utf-8", errors="surrogateescape"))


def test_nested_variations_comments_and_glyphs() -> None:
    assert_same_events(NESTED)
    (record,) = read_records(lines(NESTED))
    first = record.moves[0]
    # the glyph after the variations belongs to the move they replace
    assert (first.text, first.nags, first.suffix) == ("b1", [1], "")
    assert [v.nodes[0].text for v in first.variations] == ["c1"]
    inner = first.variations[0].nodes[0]
    assert (inner.nags, inner.suffix, inner.variations[0].nodes[0].text) == ([2], "!", "d1")


class HeadersOnly(RecordVisitor[tuple[list[str], str | None]]):
    def begin_record(self, record: Record) -> None:
        self.moves = 0
        self.tags: list[str] = []

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        self.tags.append(name)

    def end_tags(self, record: Record) -> Skip | None:
        return SKIP

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.moves += 1  # never: the moves are skipped

    def visit_comment(self, comment: Comment) -> None:
        self.moves += 1  # never either

    def end_record(self, record: Record) -> tuple[list[str], str | None]:
        assert self.moves == 0
        return self.tags, record.result


def test_skip_leaves_the_moves_unvisited() -> None:
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text(encoding="utf-8")
    skipped = list(visit_records(lines(text), HeadersOnly()))
    records = list(read_records(lines(text)))
    assert skipped == [([t.name for t in r.tags], r.result) for r in records]
    assert all(record.moves for record in records)  # there were moves to skip


class Plain(RecordVisitor[list[tuple[str, str, int]]]):
    def begin_record(self, record: Record) -> None:
        self.seen: list[tuple[str, str, int]] = []

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.seen.append((text, str(number), column))

    def end_record(self, record: Record) -> list[tuple[str, str, int]]:
        return self.seen


def test_moves_come_with_their_numbers_and_columns() -> None:
    text = '[Game "cave"]\n\n1. b1 b5 2. b1-b2 b5-b4 3... x\n'
    (seen,) = visit_records(lines(text), Plain())
    assert seen == [
        ("b1", "1.", 4), ("b5", "None", 7), ("b1-b2", "2.", 13), ("b5-b4", "None", 19),
        ("x", "3...", 30),
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_tokens_are_the_same_wherever_the_lines_break(path: Path) -> None:
    # Every token on a line of its own (a move number ending a line, its move on the
    # next): the same moves, numbers, glyphs and variations.
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    for record in read_records(lines(text)):
        if record.error is not None or not record.moves:
            continue
        from notation.writer import UnwritableRecord, write_record

        try:
            canonical = write_record(record)
        except UnwritableRecord:
            continue  # its tags cannot number its moves
        head, _, moves = canonical.partition("\n\n")
        broken = head + "\n\n" + "\n".join(moves.split()) + "\n"
        (again,) = read_records(lines(broken))
        (whole,) = read_records(lines(canonical))
        assert again.error is None and again.result == whole.result

        def moves(tree: Record) -> list[Any]:
            return [(n.text, str(n.number), n.suffix, n.nags, len(n.variations))
                    for n in iter_nodes(tree.moves)]

        assert moves(again) == moves(whole)


def test_the_turn_counter_numbers_lines_and_variations() -> None:
    (record,) = read_records(lines(NESTED))
    counter = TurnCounter(first_turn=1)
    first, second = record.moves[0], record.moves[1]
    assert counter.move(first) == (1, "a line of play starts here")
    assert counter.begin_variation() == 1
    counter.end_variation()
    assert counter.move(second) == (2, "the line resumes after a comment")


def test_repairing_text_that_is_no_record_writes_it_as_it_was() -> None:
    # An empty variation "()" reads, but cannot be written back: kept as written.
    text = "x = ()\nprint(x)\n"
    done = subprocess.run(
        [sys.executable, "-m", "notation", "convert", "--to", "text", "--repair", "-"],
        input=text, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in done.stderr
    assert done.stdout == text
    assert "kept as written" in done.stderr


class TagsAndPlace(TreeBuilder):
    """The tree builder that skips every record's moves."""

    def end_tags(self, record: Record) -> Skip | None:
        return SKIP


SKIPPED = [
    NESTED,
    '[Game "cave"]\n\n1. b1 b5\n2. b1-b2 * 1. a1 a5 *\n\n[Game "cave"]\n\n1. b1 {a\n\n[x\n}'
    " b5 1-0 {after}\n[Game \"cave\"]\n1. b1 ; 1-0\nb5 0-1\n",
]


@pytest.mark.parametrize("text", [*(p.read_text(encoding="utf-8") for p in FILES), *SKIPPED])
def test_skipped_moves_leave_every_record_where_it_was(text: str) -> None:
    # A reader whose visitor skips the moves reads only what finds each record's end;
    # the records, their places, tags, results and texts are those of a whole reading.
    def seen(records: list[Record]) -> list[Any]:
        return [(r.first_line, r.last_line, r.result, r.raw,
                 [(t.name, t.value, t.line) for t in r.tags]) for r in records]

    whole = list(read_records(lines(text), keep_raw=True))
    skipped = list(visit_records(lines(text), TagsAndPlace(), keep_raw=True))
    assert seen(skipped) == seen(whole)
    assert all(not record.moves for record in skipped)
