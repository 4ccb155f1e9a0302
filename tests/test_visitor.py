"""The one visitor protocol: the reader and a tree walk tell a visitor the same things.

A visitor that logs every event, with what each node holds once the record is read,
gets the same log from :func:`notation.reader.visit_records` (text) and from
:func:`notation.visitor.walk_record` (the tree :func:`read_records` built), on every
bundled record file and on records with comments, glyphs and nested variations.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from notation.reader import read_records, visit_records
from notation.record import MoveNode, MoveNumber, Record, Variation
from notation.visitor import SKIP, RecordVisitor, Skip, TurnCounter, walk_record

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "records").glob("*/*.ugn"))

NESTED = (
    '[Game "cave"]\n\n{before} 1. b1 {after} (1. c1 $2 (1. d1 b5) ! 1... c5) $1 1... b5\n'
    "2. b1-b2 b5-b4 ; to the end\n3. b2-b3 (3. b2-c2?! {why}) 3... b4-b3 *\n"
)


class Log(RecordVisitor[list[Any]]):
    """Every event, and what the nodes hold at the end of the record."""

    def begin_record(self, record: Record) -> None:
        self.events: list[Any] = [("record", record.index, record.first_line)]
        self.nodes: list[MoveNode] = []

    def begin_moves(self, record: Record) -> Skip | None:
        self.events.append(("tags", [(tag.name, tag.value) for tag in record.tags]))
        return None

    def visit_move(self, node: MoveNode) -> None:
        self.events.append("move")
        self.nodes.append(node)

    def begin_variation(self, variation: Variation, node: MoveNode) -> None:
        self.events.append(("(", node.text))

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        self.events.append((")", node.text))

    def end_record(self, record: Record) -> list[Any]:
        nodes = [
            (n.text, n.line, n.column, n.suffix, list(n.nags), str(n.number),
             [c.text for c in n.comments_before], [c.text for c in n.comments_after])
            for n in self.nodes
        ]
        return [*self.events, nodes, record.result, record.error]


def lines(text: str) -> list[str]:
    return io.StringIO(text, newline="").readlines()


def assert_same_events(text: str) -> None:
    from_text = list(visit_records(lines(text), Log(), "f.txt"))
    from_tree = [walk_record(r, Log()) for r in read_records(lines(text), "f.txt")]
    assert from_text == from_tree
    assert from_text  # something was read


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

    def begin_moves(self, record: Record) -> Skip | None:
        return SKIP

    def visit_move(self, node: MoveNode) -> None:
        self.moves += 1  # never: the moves are skipped

    def visit_plain_move(
        self, text: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.moves += 1

    def end_record(self, record: Record) -> tuple[list[str], str | None]:
        assert self.moves == 0
        return [tag.name for tag in record.tags], record.result


def test_skip_leaves_the_moves_unvisited() -> None:
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text(encoding="utf-8")
    skipped = list(visit_records(lines(text), HeadersOnly()))
    records = list(read_records(lines(text)))
    assert skipped == [([t.name for t in r.tags], r.result) for r in records]
    assert all(record.moves for record in records)  # there were moves to skip


class Plain(RecordVisitor[list[tuple[str, str, int]]]):
    def begin_record(self, record: Record) -> None:
        self.seen: list[tuple[str, str, int]] = []

    def visit_move(self, node: MoveNode) -> None:
        self.seen.append((node.text, str(node.number), node.column))

    def end_record(self, record: Record) -> list[tuple[str, str, int]]:
        return self.seen


def test_runs_of_plain_moves_become_moves_with_their_numbers_and_columns() -> None:
    text = '[Game "cave"]\n\n1. b1 b5 2. b1-b2 b5-b4 3... x\n'
    (seen,) = visit_records(lines(text), Plain())
    assert seen == [
        ("b1", "1.", 4), ("b5", "None", 7), ("b1-b2", "2.", 13), ("b5-b4", "None", 19),
        ("x", "3...", 30),
    ]


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
