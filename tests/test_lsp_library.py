"""The library under the language server, without the server: a document cut into chunks
and checked by chunk (notation.editing.buffer), what stands at a line and column
(notation.editing.places), the quick fixes a defect carries
(notation.editing.fix_holds), what to offer at a cursor (notation.editing.completions)
and the text of a position (notation.render.plain_text). None of it needs pygls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.checking.every_defect import check_replay
from notation.cli import cli
from notation.editing.buffer import (
    Finding,
    RecordDocument,
    Replacement,
    chunk_starts,
    split_lines,
)
from notation.editing.completions import move_offers, offers_at, tag_meaning, tag_names, tag_offers
from notation.editing.editor import RecordEditor
from notation.editing.fix_holds import fix_holds
from notation.editing.places import (
    MoveCursor,
    TagCursor,
    address_before,
    changed_by,
    cursor_at,
    line_of_play,
    node_at,
    token_span,
    walk,
)
from notation.errors import Defect, ErrorKind, Fix
from notation.reader import read_records, read_string, visit_records
from notation.render.plain_text import HOVER_WIDTH, position_after, position_brief

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "records").glob("*/*.ugn")) + sorted(
    (ROOT / "tests" / "data" / "conformance").glob("*.txt")
)
TEXTS = [path.read_text(encoding="utf-8") for path in FILES]


def _shape(records: list[object]) -> list[tuple[object, ...]]:
    return [
        (r.first_line, r.last_line, [(t.name, t.value) for t in r.tags], len(r.moves),
         r.error and (r.error.code, r.error.line, r.error.column), r.result)
        for r in records  # type: ignore[attr-defined]
    ]


def _read_by_chunks(document: RecordDocument) -> list[tuple[object, ...]]:
    out = []
    for chunk in document.chunks:
        out += _shape(list(read_records(chunk.lines, first_line=chunk.start + 1)))
    return out


def _read_whole(document: RecordDocument) -> list[tuple[object, ...]]:
    return _shape(list(read_records([f"{line}\n" for line in document.lines])))


def _every_defect(text: str) -> list[tuple[int, int, str, str]]:
    """What ``check --all`` of the whole text finds, as the document's findings say it."""
    lines = [f"{line}\n" for line in split_lines(text)]
    found = []
    for verdict in visit_records(lines, check_replay(every=True), keep_raw=True):
        errors = verdict.errors or ((verdict.error,) if verdict.error else ())
        found += [(d.line, d.column, d.code, d.message) for d in errors]
    return found


def _found(document: RecordDocument) -> list[tuple[int, int, str, str]]:
    document.check_all(strict=False)
    return [
        (f.defect.line, f.defect.column, f.defect.code, f.defect.message)
        for f in document.findings() if not f.strict
    ]


# -- the document: lines, chunks, edits ---------------------------------------------------


def test_lines_end_where_the_protocol_and_the_reader_end_them() -> None:
    assert split_lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]
    assert split_lines("a\n") == ["a", ""] and split_lines("") == [""]
    assert split_lines("a\x0cb\u2028c") == ["a\x0cb\u2028c"]  # not str.splitlines


def test_a_chunk_per_record_even_after_a_comment() -> None:
    for text in TEXTS:
        document = RecordDocument(text)
        records = read_string(text)
        assert _read_by_chunks(document) == _read_whole(document)
        if all(record.tags for record in records):  # a chunk starts at a tag line
            assert len(document.chunks) == len(records), text[:40]


def test_a_comment_before_the_first_tags_keeps_them_in_one_record() -> None:
    text = '{a comment}\n\n[Game "cave"]\n\n1. b1 *\n\n[Game "cave"]\n\n1. b1 *\n'
    document = RecordDocument(text)
    assert chunk_starts(document.lines) == [0, 6]
    assert _read_by_chunks(document) == _read_whole(document)


PIECES = ["", "\n", "\n\n", '[Game "cave"]\n', "x", "{", "}", "(", ")", "1. d3 ", "%esc\n",
          '\n[Event "y"]\n\n', " * ", "\n\n{c}\n\n", ";", "\ufeff", "1-0\n\n[", "\r\n"]


def test_edits_cut_as_a_whole_cut_does_and_read_as_the_whole_reads() -> None:
    rng = random.Random(30)
    short = ["\n".join(text.split("\n")[:80]) for text in TEXTS]
    for trial in range(30):
        document = RecordDocument(rng.choice(short))
        for step in range(25):
            lines = document.lines
            line = rng.randrange(len(lines))
            char = rng.randrange(len(lines[line]) + 1)
            end_line = min(len(lines) - 1, line + rng.choice([0, 0, 0, 1, 2, 5]))
            end_char = rng.randrange(len(lines[end_line]) + 1)
            if (end_line, end_char) < (line, char):
                end_line, end_char = line, char
            document.edit((line, char), (end_line, end_char), rng.choice(PIECES))
            assert document.starts == chunk_starts(document.lines), (trial, step)
            assert [c.start for c in document.chunks] == document.starts
            assert "".join(c.text for c in document.chunks) == "".join(
                f"{line}\n" for line in document.lines
            )
            assert _read_by_chunks(document) == _read_whole(document), (trial, step)


def test_edits_past_the_end_and_backwards_are_clamped() -> None:
    document = RecordDocument("ab\ncd")
    document.edit((9, 9), (12, 0), "!")
    assert document.text == "ab\ncd!"
    document.edit((0, 5), (0, 1), "X")  # end before start: an insertion at the start
    assert document.text == "abX\ncd!"
    document.edit((-3, -1), (0, 1), "")
    assert document.text == "bX\ncd!"


def test_the_findings_are_those_of_check_all() -> None:
    for text in TEXTS:
        assert _found(RecordDocument(text)) == _every_defect(text)


def test_an_edit_checks_only_the_record_it_is_in() -> None:
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text(encoding="utf-8") * 3
    document = RecordDocument(text)
    document.check_all()
    line = document.chunks[7].start + 4
    document.edit((line, 0), (line, 0), "}")
    assert [c.start for c in document.unchecked()] == [document.chunks[7].start]
    assert _found(document) == _every_defect(document.text)
    # Lines added between records: the record before them is read again (they end it),
    # the others move, unchecked, and their findings with them.
    line = document.chunks[3].start
    document.edit((line, 0), (line, 0), "% one\n\n% two\n")
    assert [c.start for c in document.unchecked()] == [document.chunks[2].start]
    assert _found(document) == _every_defect(document.text)


def test_a_message_naming_a_line_is_made_again_where_its_record_moved() -> None:
    text = '[Game "cave"]\n\n1. b1 b5 *\n\n[Game "cave"]\n\n1. b1 b5 (1... c5 2. b1-b2\n'
    document = RecordDocument(text)
    assert "opened at line 7" in _found(document)[0][3]
    document.edit((2, 0), (2, 0), "\n\n")
    assert document.unchecked() == document.chunks  # the first edited, the second moved
    (found,) = _found(document)
    assert found[0] == 9 and "opened at line 9" in found[3]
    assert [found] == _every_defect(document.text)


def test_strict_issues_are_findings_of_their_own() -> None:
    document = RecordDocument('[Game "cave"]\n\n1. B1 b5 b1-b2 *\n')
    document.check_all()
    found = [(f.defect.code, f.strict) for f in document.findings()]
    assert found == [("strict-letter-case", True), ("strict-number-missing", True)]


def test_a_long_move_is_too_long_and_nothing_more() -> None:
    token = "d" * 30_000
    document = RecordDocument(f'[Game "tinkertown"]\n\n1. d3 {token} *\n')
    assert [code for _, _, code, _ in _found(document)] == ["move-too-long"]


def test_the_canonical_form_is_what_convert_writes(tmp_path: Path) -> None:
    for game in ("tinkertown", "cave", "zombie-kidz"):
        text = (ROOT / "records" / game / "examples.ugn").read_text(encoding="utf-8")
        text = "\n\n" + text.replace("1. ", "1.").replace("\n\n", "\n\n\n")
        text += "\n" + (ROOT / "records" / game / "broken.ugn").read_text(encoding="utf-8")
        document = RecordDocument(text)
        path = tmp_path / "games.txt"
        path.write_text(text, encoding="utf-8")
        wanted = CliRunner().invoke(cli, ["convert", "--to", "text", str(path)]).stdout
        assert _replaced(document, document.canonical()) == wanted
        again = RecordDocument(wanted)
        assert again.canonical() == []


def _replaced(document: RecordDocument, replacements: list[Replacement]) -> str:
    lines = document.lines
    out, line = [], 0
    for item in replacements:
        out.append("".join(f"{text}\n" for text in lines[line : item.start]))
        out.append(item.text)
        line = item.end
    rest = lines[line:]
    out.append("\n".join(rest))
    return "".join(out)


def test_the_default_game_is_the_game_of_untagged_records() -> None:
    document = RecordDocument("1. b1 b5 *\n")
    assert [code for *_, code, _ in _found(document)] == ["game-missing"]
    document.default_game = "cave"
    assert _found(document) == []
    assert document.records()[0].game == "cave"


# -- locate ---------------------------------------------------------------------------------

TREE = '[Game "tinkertown"]\n\n1. d3 d2,b5 (1... e2,g5 2. c5,f2) 2. c5,f2! e2,g5 *\n'


def test_the_move_at_a_column_and_the_line_of_play_to_it() -> None:
    (record,) = read_string(TREE)
    node = node_at(record, 3, 29)
    assert node is not None and node.text == "c5,f2" and node.column == 28
    assert node_at(record, 3, 1) is None
    suffixed = node_at(record, 3, 44)  # just after it: the suffix is the move's
    assert suffixed is not None and suffixed.written == "c5,f2!"
    assert address_before(record, node) == (1, 1, 1)
    assert [(turn, n.text) for turn, n in line_of_play(record, node, 1)] == [
        (1, "d3"), (2, "e2,g5"), (3, "c5,f2")
    ]
    assert [n.text for n in walk(record.moves)] == ["d3", "d2,b5", "e2,g5", "c5,f2", "c5,f2",
                                                     "e2,g5"]


def test_the_move_a_defect_blames() -> None:
    text = '[Game "tinkertown"]\n\n1. d3 d2,b5 2. c5,f2 c5,g6 *\n'
    (record,) = read_string(text)
    lines = text.splitlines(True)
    (verdict,) = visit_records(lines, check_replay(every=True), keep_raw=True)
    defect = verdict.error
    assert defect is not None and defect.last_changed is not None
    blamed = changed_by(record, defect)
    assert blamed is not None and blamed.text == "c5,f2" and blamed.column == 16


def test_the_span_of_what_a_defect_names() -> None:
    def defect(line: int, column: int, code: str, move: str | None = None) -> Defect:
        return Defect(ErrorKind.SYNTAX, "m", line, column, move=move, code=code)

    assert token_span("1. d3 h9-h3! *", defect(1, 7, "x", "h9-h3!")) == (7, 13)
    assert token_span("1. b1 b5} *", defect(1, 9, "comment-unopened")) == (9, 10)
    assert token_span('[Black Mina]', defect(1, 1, "tag-malformed")) == (1, 13)
    assert token_span("1. b1 b5 1 - 0", defect(1, 10, "result-spaced")) == (10, 15)
    assert token_span("1. b1 b5", defect(1, 9, "result-missing")) == (9, 9)
    assert token_span("1. b1 2.. b2", defect(1, 7, "number-malformed")) == (7, 10)


def test_where_a_cursor_is() -> None:
    lines = TREE.splitlines(True)
    cursor = cursor_at(lines, 1, 3, 29)  # "2. c|5,f2" in the variation
    assert isinstance(cursor, MoveCursor)
    assert (cursor.address, cursor.prefix, cursor.column) == ((1, 1, 1), "c", 28)
    after_number = cursor_at(['[Game "cave"]\n', "\n", "1.b1 b5 2.b\n"], 1, 3, 12)
    assert isinstance(after_number, MoveCursor) and after_number.prefix == "b"
    assert after_number.address == (2,)
    assert cursor_at(['[Game "cave"]\n', "\n", "1. b1 {b5 *\n"], 1, 3, 10) is None
    assert cursor_at(['[Game "cave"]\n', "%b1\n"], 1, 2, 3) is None
    named = cursor_at(['[Ev\n'], 1, 1, 4)
    assert named == TagCursor("Ev", False, "Ev", 2)
    valued = cursor_at(['[Game "ca\n'], 1, 1, 10)
    assert valued == TagCursor("Game", True, "ca", 8)
    assert cursor_at(['[Game "cave"]\n'], 1, 1, 14) is None


# -- offers -------------------------------------------------------------------------------


def test_the_moves_offered_are_the_record_editors() -> None:
    lines = ['[Game "zombie-kidz"]\n', "\n", "1. G:b2-c2x \n"]
    cursor = cursor_at(lines, 1, 3, 13)
    assert isinstance(cursor, MoveCursor)
    offers = move_offers(cursor)
    editor = RecordEditor.new("zombie-kidz", defaults=False)
    editor.play("G:b2-c2x")
    assert [o.text for o in offers if o.kind == "face"] == editor.roll_faces()
    assert [(o.text, o.description) for o in offers if o.kind == "move"] == [
        (c.text, c.description) for c in editor.candidates("")
    ]
    broken = cursor_at(['[Game "cave"]\n', "\n", "1. b9 b5 \n"], 1, 3, 10)
    assert isinstance(broken, MoveCursor) and move_offers(broken) == []


def test_tags_offered_and_what_they_mean() -> None:
    assert tag_names("zombie-kidz")[:5] == ["Game", "Event", "Site", "Date", "Round"]
    assert {"Player4", "Players", "Zombies"} <= set(tag_names("zombie-kidz"))
    assert "Zombies" not in tag_names("cave") and "Black" in tag_names("cave")
    assert "Red's" not in (tag_meaning("Red", "cave") or "")
    assert "moves first" in (tag_meaning("Red", "cave") or "")
    assert "1-0 White wins" in (tag_meaning("Result", "tinkertown") or "")
    assert tag_meaning("Nonsense") is None
    assert [o.text for o in tag_offers(TagCursor("Game", True, "z", 8), None)] == ["zombie-kidz"]


# -- fixes --------------------------------------------------------------------------------


def _fixes(text: str, strict: bool = False) -> list[tuple[int, int, int, str]]:
    document = RecordDocument(text)
    document.check_all()
    out = []
    for finding in document.findings():
        if finding.strict != strict:
            continue
        for fix in finding.defect.fixes:
            out.append((fix.line, fix.start, fix.end, fix.replacement))
    return out


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ('[Game "cave"]\n\n1. b1 b5 2. b1-b3 b5-b4 3. b2-b3 *\n', (3, 13, 18, "b1-b2")),
        ('[Game "tinkertown"]\n\n1. d3 d2;b5 2. c5,f2 e2,g5 *\n', (3, 7, 12, "d2,b5")),
        ('[Game "tinkertown"]\n\n1. d3 d2, b5 2. c5,f2 e2,g5 *\n', (3, 7, 13, "d2,b5")),
        ('[Game "cavee"]\n\n1. b1 b5 *\n', (1, 8, 13, "cave")),
        ('[Game "cave"]\n\n1. b1 b5\n', (3, 9, 9, " *")),
        ('[Game "cave"]\n\n1. b1 b5 1 - 0\n', (3, 10, 15, "1-0")),
        ('[Game "cave"]\n\n1. b1 b5 1/2\n', (3, 10, 13, "1/2-1/2")),
        ('[Game "cave"]\n\n1. b1 b5 3. b1-b2 *\n', (3, 10, 12, "2.")),
        ('[game "cave"]\n\n1. b1 b5 *\n', (1, 2, 6, "Game")),
    ],
    ids=["did-you-mean", "semicolon", "comma-space", "game", "result-missing",
         "result-spaced", "draw", "number", "tag-case"],
)
def test_the_fix_a_message_proposes(text: str, fix: tuple[int, int, int, str]) -> None:
    assert fix in _fixes(text)


def _applied(text: str, line: int, start: int, end: int, new: str) -> str:
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1][: start - 1] + new + lines[line - 1][end - 1 :]
    return "\n".join(lines)


def _defects(text: str) -> list[tuple[str, int, int]]:
    document = RecordDocument(text)
    document.check_all()
    return [(f.defect.code, f.defect.line, f.defect.column) for f in document.findings()
            if not f.strict]


def _finished_cave_game(result_tag: str | None) -> str:
    """The first Cave example (which the rules end with 1-0), its result token taken
    away, its Result tag ``result_tag`` (none: no tag)."""
    text = (ROOT / "records" / "cave" / "examples.ugn").read_text(encoding="utf-8")
    record = text.split("\n\n[", 1)[0].rstrip()
    assert record.endswith("} 1-0")
    record = record.removesuffix(" 1-0") + "\n"
    tag = "" if result_tag is None else f'[Result "{result_tag}"]\n'
    return record.replace('[Result "1-0"]\n', tag)


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ('[Game "cave"]\n\n1. b1 b5\n', "*"),
        ('[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5\n', "1-0"),
        ('[Game "cave"]\n[Result "1/2-1/2"]\n\n1. b1 b5\n', "1/2-1/2"),
        (_finished_cave_game("1-0"), "1-0"),
        (_finished_cave_game(None), "1-0"),
    ],
    ids=["no-tag", "tag", "tag-draw", "rules-and-tag", "rules"],
)
def test_the_missing_result_fix_adds_the_result_that_checks(text: str, added: str) -> None:
    """The result added is the rules', else the Result tag's, else *: the record then
    checks clean (a fix never makes a defect)."""
    (fix,) = [f for f in _fixes(text) if f[1] == f[2]]
    assert fix[3].strip() == added
    assert _defects(text)[0][0] == "result-missing"
    assert _defects(_applied(text, *fix)) == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (_finished_cave_game("0-1"), "with 1-0, the Result tag says 0-1"),
        (_finished_cave_game("*"), "with 1-0, the Result tag says *"),
        ('[Game "tinkertown"]\n[Result "1/2-1/2"]\n\n1. d3 d2,b5\n',
         "the Result tag says 1/2-1/2, which Tinkertown Cemetery has not"),
    ],
    ids=["rules-win", "rules-unfinished", "no-draws"],
)
def test_no_missing_result_fix_when_no_result_would_check(text: str, said: str) -> None:
    """The rules and the tag disagree, or the tag names a result the game has not: no
    one result would check; the message says why, and no fix is offered."""
    document = RecordDocument(text)
    document.check_all()
    (finding,) = document.findings()
    assert finding.defect.code == "result-missing"
    assert said in finding.defect.message
    assert _fixes(text) == []


@pytest.mark.parametrize(
    "text",
    [
        '[Game "cave"]\n\n1. b1 b5 2. b1-b3 b5-b4 3. b2-b3 *\n',
        '[Game "tinkertown"]\n\n1. d3 d2, b5 2. c5,f2 e2,g5 *\n',
        '[Game "cavee"]\n\n1. b1 b5 *\n',
        '[Game "cave"]\n[Result "0-1"]\n\n1. b1 b5\n',
        '[Game "cave"]\n\n1. b1 b5 1 - 0\n',
        '[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5 1 - 0\n',
        '[Game "cave"]\n\n1. b1 b5 3. b1-b2 *\n',
        '[game "cave"]\n\n1. b1 b5 *\n',
    ],
)
def test_a_fix_makes_no_new_defect(text: str) -> None:
    """Each fix offered for a record's one defect leaves it with none."""
    assert len(_defects(text)) == 1
    found = _fixes(text)
    assert found
    for fix in found:
        assert _defects(_applied(text, *fix)) == [], fix


@pytest.mark.parametrize(
    ("text", "proposed"),
    [
        ('[Game "zombie-kidz"]\n[Players "2"]\n\n1. R:b2-a2 G:b2-a2 1/2\n', "1/2-1/2"),
    ],
    ids=["no-draws"],
)
def test_a_fix_that_would_make_another_defect_does_not_hold(text: str, proposed: str) -> None:
    """The message's hint names it, but the record would still not check: the defect
    carries no such fix, and made by hand it does not hold (the language server asks
    :func:`fix_holds` of each fix before it offers it)."""
    assert _holding(text, want=True) == _holding(text, want=False) == []
    line = text.split("\n")[3]
    at = line.index("1/2") + 1
    (finding,) = _findings(text)
    wrong = Fix(f"Write {proposed}", 4, at, at + 3, proposed)
    assert not fix_holds(wrong, finding.defect, [f"{x}\n" for x in text.split("\n")[:-1]], 1)
    # No hint of a result that is none ("1 - 1"), and a hint where it checks holds.
    assert "write it without spaces" not in _messages('[Game "cave"]\n\n1. b1 b5 1 - 1\n')
    assert [fix.replacement for fix in _holding('[Game "cave"]\n\n1. b1 b5 1 - 0\n')] == ["1-0"]


def _messages(text: str) -> str:
    document = RecordDocument(text)
    document.check_all()
    return "\n".join(finding.defect.message for finding in document.findings())


def _findings(text: str) -> list[Finding]:
    document = RecordDocument(text)
    document.check_all()
    return document.findings()


def _holding(text: str, *, want: bool = True) -> list[Fix]:
    """The fixes of ``text``'s one defect that hold (``want``) or do not."""
    lines = [f"{line}\n" for line in text.split("\n")[:-1]]
    (finding,) = _findings(text)
    found = finding.defect.fixes
    return [fix for fix in found if fix_holds(fix, finding.defect, lines, 1) == want]


def test_the_fixes_of_strict_issues() -> None:
    found = _fixes('[Game "cave"]\n\n1. B1 b5 b1-b2 *\n', strict=True)
    assert (3, 4, 6, "b1") in found and (3, 10, 10, "2. ") in found
    # A tag name in the wrong case: a hint at its own line, renamed by its fix.
    text = '[Game "cave"]\n[result "1-0"]\n\n1. b1 b5 1-0\n'
    assert _fixes(text, strict=True) == [(2, 2, 8, "Result")]
    assert _defects(_applied(text, 2, 2, 8, "Result")) == []


# -- the text of a position ------------------------------------------------------------------


def test_the_position_after_a_move_is_what_show_prints() -> None:
    path = ROOT / "records" / "tinkertown" / "examples.ugn"
    records = read_string(path.read_text(encoding="utf-8"))
    node = records[1].moves[56]
    shown = position_after(records[1], node)
    assert shown is not None
    board, facts = shown
    wanted = CliRunner().invoke(cli, ["show", str(path), "--record", "2", "--turn", "57"])
    assert board == wanted.output
    assert "action: " in facts
    assert position_after(read_string("1. b1 *\n")[0], None) is None  # no game


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_the_position_for_a_hover_fits_an_editors_window(game: str) -> None:
    """Every position of the examples, drawn for a hover: HOVER_WIDTH columns at most
    (an 80-column editor), the board's rows without their note lines, the side panel's
    facts under it: short enough for a hover in a window of 30 lines."""
    text = (ROOT / "records" / game / "examples.ugn").read_text(encoding="utf-8")
    for record in read_string(text):
        for node in record.moves:
            brief = position_brief(record, node)
            assert brief is not None
            lines = brief[0].splitlines()
            assert max(len(line) for line in lines) <= HOVER_WIDTH, (record.index, node.line)
            assert len(lines) <= 26, (record.index, node.line)
    # The same position as show's: its turn line, the caption of its last move.
    path = ROOT / "records" / "tinkertown" / "examples.ugn"
    records = read_string(path.read_text(encoding="utf-8"))
    brief = position_brief(records[1], records[1].moves[56])
    shown = CliRunner().invoke(cli, ["show", str(path), "--record", "2", "--turn", "57"])
    assert brief is not None and brief[0].splitlines()[0] in shown.output.splitlines()
    assert records[1].moves[56].written in brief[0]


# -- any text: nothing the server calls raises ----------------------------------------------

#: Pieces of record text, cut and joined at random.
_TOKENS = st.sampled_from([
    '[Game "cave"]', '[Game "tinkertown"]', '[Game "zombie-kidz"]', "[Players \"3\"]",
    "[Position \"zz\"]", "[game \"cave\"]", "1.", "2...", "b1", "b5", "b1-b2", "Kb3xc4",
    "d3", "d2,b5", "h5-h3x", "G:b2-c2x", "R", "K:b1", "(", ")", "{", "}", ";", "$1", "*",
    "1-0", "1/2", "1 - 0", "\n", "\n\n", " ", "%", "\ufeff", "\x00", "\udce9", "😀", "\r",
])


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TOKENS, max_size=40), st.lists(st.tuples(st.integers(0, 12),
                                                          st.integers(0, 40)), max_size=4))
def test_no_text_makes_the_library_under_the_server_raise(
    tokens: list[str], spots: list[tuple[int, int]]
) -> None:
    document = RecordDocument(" ".join(tokens))
    document.check_all()
    lines = document.lines
    for finding in document.findings():
        for fix in finding.defect.fixes:
            fix_holds(fix, finding.defect, [f"{line}\n" for line in lines], 1)
        token_span(lines[finding.defect.line - 1] if finding.defect.line <= len(lines) else "",
                   finding.defect)
    document.canonical()
    document.records()
    for line, column in spots:
        line = min(line, len(lines) - 1)
        chunk = document.chunk_at(line)
        cursor = cursor_at(chunk.lines, chunk.start + 1, line + 1, column + 1)
        if cursor is not None:
            offers_at(cursor, None)
        record = document.record_at(line)
        if record is not None:
            node = node_at(record, line + 1, column + 1)
            position_after(record, node)
            position_brief(record, node)
            for defect in [f.defect for f in document.findings()]:
                changed_by(record, defect)
    document.edit((0, 1), (len(lines), 0), " ".join(reversed(tokens)))
    document.check_all()


def test_a_tag_line_in_a_comment_is_no_start_of_a_chunk() -> None:
    # "[x" inside a comment before the tags is no tag: the tags after the blank line
    # are the one record's, and the document cuts no chunk there.
    text = '{c\n[x\n}\n\n[Game "cave"]\n\n1. b1 *\n'
    document = RecordDocument(text)
    assert chunk_starts(document.lines) == [0]
    assert _read_by_chunks(document) == _read_whole(document)
