"""The record reader: container syntax, the tree it builds, streaming."""

from __future__ import annotations

from collections.abc import Iterator

from notation.reader import read_records, read_string, visit_records
from notation.record import Record
from notation.visitor import RecordVisitor


def one(text: str) -> Record:
    records = read_string(text)
    assert len(records) == 1, records
    return records[0]


def test_tags_in_order_with_escapes_and_unknown_tags() -> None:
    record = one(
        '[Game "tinkertown"]\n[Mood "spooky"]\n[Source "C:\\\\crypt\\\\x.txt"]\n'
        '[Annotator "Dr. \\"Bones\\" Grave"]\n\n1. d3 *\n'
    )
    assert [(t.name, t.value) for t in record.tags] == [
        ("Game", "tinkertown"),
        ("Mood", "spooky"),
        ("Source", "C:\\crypt\\x.txt"),
        ("Annotator", 'Dr. "Bones" Grave'),
    ]
    assert record.tags[1].line == 2 and record.tags[1].column == 1
    assert record.tag("Mood") == "spooky" and record.tag("mood") is None
    assert record.error is None


def test_moves_numbers_suffixes_glyphs_and_locations() -> None:
    record = one("1. d3 d2,b5! $4 2.c5,f2 2... e2,g5?! 1-0")
    texts = [(n.text, n.suffix, n.nags) for n in record.moves]
    assert texts == [("d3", "", []), ("d2,b5", "!", [4]), ("c5,f2", "", []), ("e2,g5", "?!", [])]
    assert [str(n.number) if n.number else None for n in record.moves] == [
        "1.", None, "2.", "2...",
    ]
    third = record.moves[2]
    assert (third.line, third.column) == (1, 19)  # "2.c5,f2" reads as "2. c5,f2"
    assert record.result == "1-0" and (record.result_line, record.result_column) == (1, 38)


def test_comments_keep_their_place_and_style() -> None:
    record = one("{before} d3 {after d3} ; to the end\nd2,b5 {multi\nline} *")
    first, second = record.moves
    assert [c.text for c in first.comments_before] == ["before"]
    assert [(c.text, c.braced) for c in first.comments_after] == [
        ("after d3", True),
        ("to the end", False),
    ]
    assert [c.text for c in second.comments_after] == ["multi\nline"]


def test_nested_variations_belong_to_the_move_before_them() -> None:
    record = one("1. d3 d2,b5 (1... e2,g5 (1... f2,c5) 2. c4,c6) 2. c5,f2 *")
    d2 = record.moves[1]
    assert [n.text for n in d2.variations[0].nodes] == ["e2,g5", "c4,c6"]
    inner = d2.variations[0].nodes[0].variations[0]
    assert [n.text for n in inner.nodes] == ["f2,c5"]
    assert [n.text for n in record.moves] == ["d3", "d2,b5", "c5,f2"]


def test_a_comment_after_the_result_stays_with_its_record() -> None:
    records = read_string("d3 1-0 {well played}\n\nd3 0-1\n")
    assert len(records) == 2
    assert [c.text for c in records[0].comments_after_result] == ["well played"]
    assert records[1].result == "0-1" and records[1].index == 2


def test_records_end_at_result_or_at_a_tag_after_a_blank_line() -> None:
    text = '[Game "cave"]\n\nb1 *\nd3 1-0\n\n[Game "tinkertown"]\n\nd3\n\n[Game "cave"]\n\nb1 *\n'
    records = read_string(text)
    assert [r.tag("Game") for r in records] == ["cave", None, "tinkertown", "cave"]
    assert [r.index for r in records] == [1, 2, 3, 4]
    missing = records[2].error
    assert missing is not None and "no result" in missing.message and missing.line == 8
    assert records[3].error is None and records[3].first_line == 10


def test_unclosed_brace_reports_where_it_opened_and_next_record_survives() -> None:
    records = read_string('d3 {never closed\nstill comment\n\n[Game "cave"]\n\nb1 *\n')
    assert len(records) == 2
    error = records[0].error
    assert error is not None and (error.line, error.column) == (1, 4)
    assert "never closed" in error.message
    assert records[1].error is None


def test_stray_close_paren_and_unclosed_open_paren() -> None:
    stray = one("d3 d2,b5 ) c5,f2 *")
    assert stray.error is not None and (stray.error.line, stray.error.column) == (1, 10)
    assert [n.text for n in stray.moves] == ["d3", "d2,b5"]  # what came before is kept
    unclosed = one("d3 d2,b5 (e2,g5\nc5,f2\n\n")
    assert unclosed.error is not None and unclosed.error.line == 2  # the record's last line


def test_result_inside_a_variation_is_an_unclosed_variation() -> None:
    record = one("d3 d2,b5 (e2,g5 1-0")
    assert record.error is not None and "never closed" in record.error.message
    assert record.result == "1-0"


def test_malformed_tag_number_and_glyph() -> None:
    bad_tag = one("[Game tinkertown]\n\nd3 *")
    assert bad_tag.error is not None and bad_tag.error.line == 1
    bad_number = one("1.. d3 *")
    assert bad_number.error is not None and bad_number.error.column == 1
    bad_glyph = one("$3 d3 *")
    assert bad_glyph.error is not None and "glyph" in bad_glyph.error.message


def test_streaming_holds_one_record_at_a_time() -> None:
    """The reader yields record 1 before it reads past record 2's first line."""
    consumed: list[int] = []

    def lines() -> Iterator[str]:
        for i in range(10**9):
            consumed.append(i)
            yield '[Game "cave"]\n'
            yield "\n"
            yield "b1 *\n"
            yield "\n"

    stream = read_records(lines())
    first = next(stream)
    second = next(stream)
    assert first.index == 1 and second.index == 2
    assert len(consumed) <= 3


def test_case_of_result_and_star() -> None:
    record = one("D3 D2,B5 *")
    assert [n.text for n in record.moves] == ["D3", "D2,B5"] and record.result == "*"


class _RawOnly(RecordVisitor[Record]):
    """A visitor that builds nothing (as a check): each record comes back with its
    ``raw`` text."""

    def end_record(self, record: Record) -> Record:
        return record


def test_raw_keeps_every_line_of_records_without_tags_for_a_visitor_without_nodes() -> None:
    # Lines of plain moves after the first go straight to such a visitor; the text of
    # records without tags kept them too little (a tagless record lost its later lines,
    # the lines after a tagged record went to that record's finished list).
    first = "1. b1 b5 2. b1-b2 b5-b4\n3. a1 a5 4. a1-a2 a5-a4\n5. c1 c5 *\n"
    tagged = '[Game "cave"]\n\n1. b1 b5\n2. b1-b2 b5-b4\n3. a1 a5 *\n'
    last = "1. b1 b5\n2. b1-b2 b5-b4\n3. a1 a5\n4. c1 c5 *\n"
    text = first + "\n" + tagged + "\n" + last
    records = list(visit_records(text.splitlines(keepends=True), _RawOnly(), keep_raw=True))
    assert [record.raw for record in records] == [first, tagged, last]
    assert "".join(r.raw + "\n" for r in records)[:-1] == text


def test_the_white_space_the_reader_tells_apart_is_pythons() -> None:
    from notation.reader import WHITE_SPACE

    assert {chr(code) for code in range(0x110000) if chr(code).isspace()} == WHITE_SPACE
