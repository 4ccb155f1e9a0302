"""Six everyday programs, written against the library as a third-party user would, and
the same six tasks with python-chess (issue 15, "The library as programmers import it").

The notation programs are the blocks of docs/library.md, "Six everyday programs", and
the files tests/library_examples/notation_*.py, which must be identical; their
python-chess counterparts are tests/library_examples/chess_*.py.  Each program runs
and prints what it should, and none of ours is longer than its python-chess
counterpart (counted by :func:`code_lines`; the page's table gives the counts).
``mypy --strict`` checks ours as user code against the installed wheel (.ci/run).
"""

from __future__ import annotations

import ast
import io
import re
import runpy
from collections.abc import Callable
from pathlib import Path

import pytest

from notation import Record, check_record, get_game, read_file, read_string

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "library_examples"
LIBRARY_DOC = ROOT / "docs" / "library.md"
SECTION = "## Six everyday programs"

#: The six tasks, in the order of the page, and the row of each in its table.
TASKS = {
    "stats": "statistics over a file",
    "bots": "bots that play each other and write records",
    "build": "building a record with a variation",
    "step": "stepping through one",
    "filter": "filtering a collection",
    "broken": "handling broken input",
}


def code_lines(text: str) -> int:
    """The lines of a program that count: not blank, and not only a comment."""
    return sum(1 for line in text.splitlines() if line.strip() and line.lstrip()[0] != "#")


def _section() -> str:
    text = LIBRARY_DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end != -1 else len(text)]


def _program(kind: str, task: str) -> str:
    return (EXAMPLES / f"{kind}_{task}.py").read_text(encoding="utf-8")


def _run(
    kind: str, task: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What the program prints, run from the repository's root as the page's are."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    runpy.run_path(str(EXAMPLES / f"{kind}_{task}.py"), run_name="__main__")
    return capsys.readouterr().out


# -- the page and the files ---------------------------------------------------------


def test_the_pages_blocks_are_the_example_files() -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", _section(), re.MULTILINE | re.DOTALL)
    assert len(blocks) == len(TASKS)
    for task, block in zip(TASKS, blocks, strict=True):
        assert block == _program("notation", task), f"docs/library.md and notation_{task}.py differ"


def test_the_pages_table_gives_the_line_counts() -> None:
    rows = re.findall(r"^\| (.+?) \| (\d+) \| (\d+) \|$", _section(), re.MULTILINE)
    counts = [
        (row, str(code_lines(_program("notation", task))), str(code_lines(_program("chess", task))))
        for task, row in TASKS.items()
    ]
    assert rows == counts


@pytest.mark.parametrize("task", TASKS)
def test_ours_is_no_longer_than_python_chesss(task: str) -> None:
    ours, theirs = code_lines(_program("notation", task)), code_lines(_program("chess", task))
    assert ours <= theirs, f"{task}: notation {ours} lines, python-chess {theirs}"


def test_code_lines_counts_code_only() -> None:
    text = "# a comment\nimport notation\n\n    # indented comment\nx = 1  # trailing\n"
    assert code_lines(text) == 2


def test_ours_import_only_notation_and_the_standard_library() -> None:
    allowed = {"notation", "random", "collections", "typing"}
    for task in TASKS:
        for node in ast.walk(ast.parse(_program("notation", task))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert {name.split(".")[0] for name in names} <= allowed, (task, names)


# -- what ours print ------------------------------------------------------------------


def _stats(out: str) -> None:
    records = list(read_file(ROOT / "records" / "cave" / "examples.ugn"))
    lines = out.splitlines()
    assert lines[0] == "5 games, 40.6 turns on average, longest 52"
    assert lines[1] == "results: Counter({'1-0': 2, '0-1': 2, '1/2-1/2': 1})"
    ended = sum(check_record(record).outcome is not None for record in records)
    assert lines[2] == f"ended by the rules: {ended}"
    assert lines[3] == "first moves: [('b1', 3), ('a1', 1)]"
    assert len(lines) == 4


def _bots(out: str) -> None:
    records = read_string(out)
    assert len(records) == 3
    for record in records:
        assert check_record(record).ok
        assert (record.tag("Red"), record.tag("Black")) == ("attacker", "random_bot")
        assert record.result in {"1-0", "0-1", "1/2-1/2", "*"}
        assert record.result == record.tag("Result")
    # The attacker took every attack it was offered: some of Red's moves are attacks.
    assert any("x" in node.text for record in records for node in record.moves[0::2])


def _build(out: str) -> None:
    assert out == (
        '[Game "tinkertown"]\n[White "Mina"]\n[Red "Igor"]\n[Result "*"]\n\n'
        "1. d3 d2,b5 {Red's pair} (1... c3,g6 2. g5,b6) 2. c5,f2 *\n\n"
    )
    (record,) = read_string(out)
    assert check_record(record).ok and record.moves[1].comment == "Red's pair"


def _step(out: str) -> None:
    record = list(read_file(ROOT / "records" / "zombie-kidz" / "examples.ugn"))[-1]
    lines = out.splitlines()
    assert lines[0] == "1 r:b3 short form of R:b2-b3"
    assert lines[2:4] == ["3 Rx ", "   or R:b2-a2"]
    numbered = [line.split(" ", 2)[:2] for line in lines if re.match(r"\d+ ", line)][:-1]
    assert numbered == [[str(turn), node.written] for turn, node in enumerate(record.moves, 1)]
    # The last line: the alternative at turn 3, played from the position before it.
    position = get_game("zombie-kidz").new_position(record.tag_dict)
    for text in ("r:b3", "Y:c2", "R:b2-a2"):
        position.push_text(text)
    assert lines[-1] == f"3 variation 1 at turn 3 {position.position_string()}"


def _filter(out: str) -> None:
    kept = read_string(out)
    assert [record.tag("Event") for record in kept] == [
        "Examples: single duels and a knight team", "Examples: random legal play"
    ]
    for record in kept:
        assert check_record(record).outcome == "1-0" and len(record.moves) <= 50


def _broken(out: str) -> None:
    *errors, tally = out.splitlines()
    records = list(read_file(ROOT / "records" / "tinkertown" / "broken.ugn"))
    assert len(errors) == len(records) == 16  # every record of the file is broken
    for line, record in zip(errors, records, strict=True):
        assert line.startswith("records/tinkertown/broken.ugn:"), line
        assert f": record {record.index}" in line
    causes = ast.literal_eval(tally.removeprefix("Counter(").removesuffix(")"))
    codes = [error.code for record in records if (error := check_record(record).error)]
    assert causes == {code: codes.count(code) for code in codes}


CHECKS: dict[str, Callable[[str], None]] = {
    "stats": _stats, "bots": _bots, "build": _build, "step": _step, "filter": _filter,
    "broken": _broken,
}


@pytest.mark.parametrize("task", TASKS)
def test_ours_run_and_print_what_they_should(
    task: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    CHECKS[task](_run("notation", task, monkeypatch, capsys))


def test_the_bots_replay_the_same_games_from_one_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _run("notation", "bots", monkeypatch, capsys)
    assert _run("notation", "bots", monkeypatch, capsys) == first


def test_the_built_record_equals_the_one_read_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (record,) = read_string(_run("notation", "build", monkeypatch, capsys))
    tags = {"White": "Mina", "Red": "Igor"}
    built = Record.from_moves("tinkertown", ["d3", "d2,b5", "c5,f2"], tags=tags)
    built.moves[1].comment = "Red's pair"
    built.add_variation(2, ["c3,g6", "g5,b6"])
    assert record == built


# -- what theirs print ------------------------------------------------------------------


def _chess_stats(out: str) -> None:
    assert out.splitlines() == [
        "6 games, 25.3 plies on average, longest 47",
        "results: Counter({'1-0': 4, '0-1': 1, '1/2-1/2': 1})",
        "ended by the rules: 5",
        "first moves: [('e4', 5), ('f3', 1)]",
    ]


def _chess_bots(out: str) -> None:
    import chess.pgn

    games = []
    handle = io.StringIO(out)
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    assert len(games) == 3
    for game in games:
        assert not game.errors
        assert (game.headers["White"], game.headers["Black"]) == ("attacker", "random_bot")
        assert game.headers["Result"] == game.end().board().result()


def _chess_build(out: str) -> None:
    assert out.splitlines()[-1] == "1. e4 e5 { Black's reply } ( 1... c5 2. Nf3 ) 2. Nf3 *"


def _chess_step(out: str) -> None:
    lines = out.splitlines()
    assert lines[0] == "1 e4 "
    assert lines[5:7] == ["6 Bg4 a weak move", "   or exd4"]
    assert lines[-1] == "6 rnbqkbnr/ppp2ppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4"


def _chess_filter(out: str) -> None:
    assert re.findall(r'^\[Event "(.*)"\]$', out, re.MULTILINE) == ["Paris", "Casual game"]


def _chess_broken(out: str) -> None:
    *errors, tally = out.splitlines()
    assert [re.sub(r" (illegal|ambiguous) san: .*", "", line) for line in errors] == [
        "An illegal move", "A token that is no move", "An ambiguous move"
    ]
    assert tally == "Counter({'IllegalMoveError': 2, 'AmbiguousMoveError': 1})"


CHESS_CHECKS: dict[str, Callable[[str], None]] = {
    "stats": _chess_stats, "bots": _chess_bots, "build": _chess_build, "step": _chess_step,
    "filter": _chess_filter, "broken": _chess_broken,
}


@pytest.mark.parametrize("task", TASKS)
def test_theirs_run_and_print_what_they_should(
    task: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("chess", reason="python-chess is in the bench extra: '.[bench]'")
    CHESS_CHECKS[task](_run("chess", task, monkeypatch, capsys))
