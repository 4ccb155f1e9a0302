"""Finding records without reading them (notation.collections.index), the catalog of the viewer,
and moving through a record by address (notation.tui.navigate, notation.tui.moves)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.collections.index import is_json_source, read_chunk, scan_chunks
from notation.files.textfile import decoded_lines
from notation.formats.convert import read_any_records
from notation.reader import read_string
from notation.record import Record
from notation.stepper import Stepper
from notation.tui.catalog import Catalog, RecordSource
from notation.tui.moves import tree_rows
from notation.tui.navigate import Navigator, nodes_in_order, search

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(
    path for path in (ROOT / "records").rglob("*")
    if path.suffix in (".ugn", ".txt", ".json", ".jsonl")
) + sorted((ROOT / "tests" / "data").rglob("*.txt"))


def by_chunks(data: bytes, name: str = "in") -> list[Record]:
    """The records of ``data`` as the viewer reads them: chunk by chunk."""
    json = is_json_source(io.BytesIO(data))
    records: list[Record] = []
    for chunk in scan_chunks(io.BytesIO(data), json=json):
        found = read_chunk(data[chunk.start : chunk.end], chunk, name, len(records) + 1)
        if chunk.count is not None:
            assert len(found) == chunk.count, chunk
        records.extend(found)
    return records


def whole(data: bytes, name: str = "in") -> list[Record]:
    """The records of ``data`` as every command reads them: in one go."""
    return list(read_any_records(decoded_lines(io.BytesIO(data), lambda: None), name))


def same(a: list[Record], b: list[Record]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x == y
        assert (x.index, x.first_line, x.last_line) == (y.index, y.first_line, y.last_line)
        assert str(x.error) == str(y.error)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_chunks_read_as_the_whole_file_does(path: Path) -> None:
    data = path.read_bytes()
    same(by_chunks(data), whole(data))


HOSTILE = {
    "crlf and bom": b'\xef\xbb\xbf[Game "cave"]\r\n\r\n1. b1 c5 *\r\n\r\n[Game "cave"]\r\n\r\n'
    b'1. b1 c5 1-0 [Game "cave"] 1. b1 *\r\n\r\n[Game "cave"]\r\n[Event "x"]\r\n\r\n'
    b'[Game "cave"]\r\n\r\n1. b1 {comment\r\n\r\n[not a tag} c5 *\r\n[Game "cave"]\r\n1. b1 *\n',
    "lone cr": b'[Game "cave"]\n\n1. b1 c5 *\n\n[Game "cave"]\r1. b1 *\n\n[Game "cave"]\n\n'
    b"1. a1 *\n",
    "latin-1": b'[Game "cave"]\n[Black "Jos\xe9"]\n\n1. b1 {caf\xe9} b\xff5 *\n\n'
    b'[Game "cave"]\n\n1. b1 c5 *\n',
    "empty": b"",
    "blank": b"\n\n\n",
    "result in a variation": b'1. b1 c5 *\n1. b1 *\n% escape\n[Game "cave"]\n\n'
    b'1. b1 ( 1. c1 1-0 ) *\n\n[Game "cave"]\n1. b1 *',
    "headers only": b'[Game "cave"]\n\n[Game "cave"]\n\n[Game "cave"]\n1. b1 *\n',
}


@pytest.mark.parametrize("data", list(HOSTILE.values()), ids=list(HOSTILE))
def test_chunks_of_awkward_text(data: bytes) -> None:
    same(by_chunks(data), whole(data))


def test_json_lines_are_a_record_each(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from notation.cli import cli

    text = CliRunner().invoke(
        cli, ["convert", "--to", "json", str(ROOT / "records" / "cave" / "examples.ugn")]
    ).stdout
    data = ("\n" + text + '\n{"not": "a record"}\nnot json\n').encode()
    assert is_json_source(io.BytesIO(data))
    records = by_chunks(data)
    same(records, whole(data))
    assert len(records) == 7 and records[-1].error is not None


FRAGMENTS = [
    '[Game "cave"]\n', '[Event "x"]\n', "\n", "1. b1 c5 ", "2. b1-b2 ", "*\n", "1-0\n",
    "{a comment}\n", "{an open\n", "comment}\n", "; rest\n", "( 1... a5 )\n", "% escape\n",
    "1-0 [Game \"cave\"] 1. b1\n", "\r\n", "[Game \"cave\"]", "[bad tag\n", "\u00e9\n",
    "\u00a01-0 ", "\x1c", "$1-0 ", "1/2-1/2 ", "  [Game \"cave\"]\n", "%[Game \"cave\"]\n",
    "{c} ", "b1-c1 ", "*", "1-0",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_any_text_reads_the_same_in_chunks(parts: list[str]) -> None:
    data = "".join(parts).encode("utf-8")
    same(by_chunks(data), whole(data))


# -- the catalog -------------------------------------------------------------------------


def test_the_catalog_finds_reads_and_checks_records_lazily() -> None:
    path = ROOT / "records" / "tinkertown" / "broken.ugn"
    catalog = Catalog([RecordSource(str(path), path=path)])
    assert catalog.scan_to(2) and len(catalog.entries) >= 3 and not catalog.scanned
    assert catalog.known(2) is None  # nothing read yet
    catalog.scan()
    assert catalog.scanned and len(catalog.entries) == 16
    summary = catalog.summary(6)
    assert summary.status == "" and summary.turns > 30
    checked = catalog.check(6)
    assert checked.status == "broken" and "e5 is the chapel, not a grave" in checked.problem
    assert checked.problem.startswith(f"{path}:82:1: record 7, turn 35 (e5)")
    assert "tinkertown" in catalog.header_text(0)  # its tags' values, in lower case
    assert not catalog.scan_to(99)


def test_a_catalog_of_standard_input_and_of_several_files() -> None:
    data = (ROOT / "records" / "cave" / "examples.ugn").read_bytes()
    catalog = Catalog([RecordSource("<stdin>", data=data)])
    catalog.scan()
    assert [catalog.label(i) for i in range(2)] == ["record 1", "record 2"]
    assert catalog.record(1).index == 2 and catalog.record(1).source == "<stdin>"
    files = sorted((ROOT / "records" / "zombie-kidz").glob("*.ugn"))
    catalog = Catalog([RecordSource(str(p), path=p) for p in files])
    catalog.scan()
    assert catalog.label(0) == "broken.ugn record 1"
    assert catalog.find(1, 2) is not None
    assert catalog.label(catalog.find(1, 2) or 0) == "examples.ugn record 2"


def test_a_file_that_goes_away_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    catalog = Catalog([RecordSource("gone.txt", path=tmp_path / "gone.txt")])
    catalog.scan()
    assert catalog.scanned and catalog.entries == []
    assert catalog.problems and catalog.problems[0].startswith("gone.txt: ")


# -- addresses, search, the tree ------------------------------------------------------------

NESTED = """[Game "tinkertown"]

1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6 (2. g5,b7)) (1... c3,b6)
2. c5,f2 e2,g5! $1 {well played} *
"""


def nested() -> Stepper:
    return Stepper(read_string(NESTED)[0])


def test_nodes_come_in_the_order_of_the_text() -> None:
    found = [(n.node.text, n.address, n.turn, n.depth) for n in nodes_in_order(nested().record)]
    assert found == [
        ("d3", (1,), 1, 0),
        ("d2,b5", (2,), 2, 0),
        ("c3,g6", (1, 1, 1), 2, 1),
        ("g5,b6", (1, 1, 2), 3, 1),
        ("g5,b7", (1, 1, 1, 1, 1), 3, 2),
        ("c3,b6", (1, 2, 1), 2, 1),
        ("c5,f2", (3,), 3, 0),
        ("e2,g5", (4,), 4, 0),
    ]


def test_the_navigator_goes_to_any_address_and_knows_where_it_is() -> None:
    nav = Navigator(nested())
    for found in nodes_in_order(nav.stepper.record):
        assert nav.goto(found.address) and nav.address == found.address
        assert nav.stepper.cursor.last_node is found.node and nav.stepper.cursor.turn == found.turn
    assert nav.goto((0,)) and nav.stepper.cursor.turn == 0
    assert not nav.goto((9,))  # no such move: the cursor stays
    assert nav.address == (0,)
    nav.goto((2,))
    assert nav.enter(2) and nav.address == (1, 2, 1)
    assert nav.leave() and nav.address == (2,)


def test_search_finds_moves_and_comments_in_the_order_of_the_text() -> None:
    record = nested().record
    found = search(record, "WELL", (0,))
    assert found is not None and found.address == (4,)  # the comment after e2,g5
    found = search(record, "c3", (1, 1, 1))
    assert found is not None and found.node.text == "c3,b6"
    found = search(record, "c3", (1, 2, 1))  # round to the start
    assert found is not None and found.node.text == "c3,g6"
    assert search(record, "nowhere", (0,)) is None and search(record, "  ", (0,)) is None


def test_the_tree_has_a_round_a_row_and_variations_indented() -> None:
    rows, current = tree_rows(
        nested().record, first_turn=1, round_size=2, current=(1, 1, 2), width=40
    )
    assert [row.plain for row in rows] == [
        "1. d3 d2,b5",
        "(1... c3,g6",
        " 2. g5,b6",
        "  (2. g5,b7))",
        "(1... c3,b6)",
        "2. c5,f2 e2,g5!",
    ]
    assert current == 2
    narrow, _ = tree_rows(nested().record, first_turn=1, round_size=2, current=(0,), width=12)
    assert all(row.cell_len <= 13 for row in narrow)


def test_variations_nested_deeper_than_recursion_allows() -> None:
    depth = 3000
    text = '[Game "cave"]\n\n1. b1 ' + "(1. c1 " * depth + ")" * depth + " *\n"
    (record,) = read_string(text)
    nodes = list(nodes_in_order(record))
    assert len(nodes) == depth + 1 and nodes[-1].depth == depth
    rows, _ = tree_rows(record, first_turn=1, round_size=2, current=(0,), width=80)
    assert len(rows) == depth + 1
    assert search(record, "c1", (1,)) is not None
