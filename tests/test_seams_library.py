"""The library as programmers use it: what a programmer under ``mypy --strict`` found.

Every public entry point refuses a wrong type or value with the library's own
:class:`notation.errors.MisuseError` (a ``NotationException`` and a ``ValueError``),
as docs/library.md promises; every exception the library raises is a
``NotationException``; the everyday bot program type-checks as written; the docs say
what Zombie Kidz's analysis does without numpy, how ``play()`` stops a game, and how a
short-form turn is written back.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import notation
from notation import reader, record, replay, stepper, writer
from notation.collections import batch, generate, index, referee
from notation.errors import MisuseError, NotationException
from notation.formats import annotate, convert
from notation.games import get_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "library_examples"
CAVE_FILE = ROOT / "records" / "cave" / "examples.ugn"


def _record() -> notation.Record:
    (one,) = notation.read_string('[Game "cave"]\n\n1. b1 c5 *\n')
    return one


# -- item 12: wrong types and values ------------------------------------------------

#: Values a program may pass by mistake where a str, a path, a record or a sequence is
#: expected: None, bytes (a file read in binary), an int, a float.
WRONG: list[object] = [None, b'[Game "cave"]\n\n1. b1 *\n', 3, 1.5]
#: ... where a number is expected, or a value that may also be None.
NOT_NUMBERS: list[object] = [None, b"2", "2", 1.5, True]
NOT_OPTIONAL: list[object] = [b"cave", 3, 1.5]

#: Paths that no file can have: a NUL, and lone surrogates that stand for no byte of a
#: file name (``"\udc80"`` to ``"\udcff"`` do: Python reads such a byte as one).
NO_FILE_NAMES: list[object] = ["a\x00b", "\udc00", "x\ud800"]


def _game_entry_points(name: str) -> list[tuple[str, Callable[[Any], object], list[object]]]:
    """The public calls of one game taking text, tags, a position, a generator or a number."""
    game = get_game(name)
    other = get_game("cave" if name != "cave" else "tinkertown").new_position()
    position_class = type(game.new_position())
    rng = random.Random(1)
    return [
        ("parse_move(text)", lambda x: game.parse_move(x), WRONG),
        ("parsed(text)", lambda x: game.parsed(x), [*WRONG, []]),
        ("from_string(text)", lambda x: position_class.from_string(x), WRONG),
        ("position_from_string(text)", lambda x: game.position_from_string(x), WRONG),
        ("new_position(tags)", lambda x: game.new_position(x), NOT_OPTIONAL),
        (
            "position_from_string(tags)",
            lambda x: game.position_from_string(game.new_position().position_string(), x),
            NOT_OPTIONAL,
        ),
        ("deal(rng)", lambda x: game.deal(x), WRONG),
        ("random_playout(position)", lambda x: game.random_playout(x, rng, 5), [*WRONG, other]),
        ("random_playout(rng)", lambda x: game.random_playout(game.new_position(), x, 5), WRONG),
        (
            "random_playout(max_turns)",
            lambda x: game.random_playout(game.new_position(), rng, x),
            NOT_NUMBERS,
        ),
    ]


#: Each public entry point, with the wrong value put where a str, path, record, number
#: or sequence goes, and the wrong values tried there.
ENTRY_POINTS: dict[str, tuple[Callable[[Any], object], list[object]]] = {
    "get_game(name)": (lambda x: notation.get_game(x), WRONG),
    "check_record(record)": (lambda x: notation.check_record(x), WRONG),
    "check_record(record, default_game)": (
        lambda x: notation.check_record(_record(), x), NOT_OPTIONAL
    ),
    "read_string(text)": (lambda x: notation.read_string(x), WRONG),
    "read_file(path)": (lambda x: list(notation.read_file(x)), WRONG),
    "read_records(lines)": (lambda x: list(notation.read_records(x)), WRONG),
    "read_headers(source)": (lambda x: list(notation.read_headers(x)), WRONG),
    "Record.from_moves(game)": (lambda x: notation.Record.from_moves(x, ["b1"]), WRONG),
    "Record.from_moves(moves)": (lambda x: notation.Record.from_moves("cave", x), WRONG),
    "Record.add_variation(turn)": (
        lambda x: notation.Record.from_moves("cave", ["b1", "c5"]).add_variation(x, ["d5"]),
        NOT_NUMBERS,
    ),
    "Record.add_variation(moves)": (
        lambda x: notation.Record.from_moves("cave", ["b1", "c5"]).add_variation(2, x), WRONG
    ),
    "play(game)": (lambda x: notation.play(x, [notation.random_bot] * 2), WRONG),
    "play(players)": (lambda x: notation.play("cave", x), WRONG),
    "play(rng)": (lambda x: notation.play("cave", [notation.random_bot] * 2, x), NOT_OPTIONAL),
    "index.record_at(path)": (lambda x: index.record_at(x, 1), WRONG),
    "index.record_at(number)": (lambda x: index.record_at(CAVE_FILE, x), NOT_NUMBERS),
    "index.find_record(number)": (
        lambda x: index.find_record([b"1. b1 *\n"], x), NOT_NUMBERS
    ),
    "index.build_index(path)": (lambda x: index.build_index(x), WRONG),
    "index.find_index(path)": (lambda x: index.find_index(x), WRONG),
    "index.load_index(path)": (lambda x: index.load_index(x, CAVE_FILE), WRONG),
    "replay.start_position(game)": (lambda x: replay.start_position(x, {}), WRONG),
    "convert_record(record)": (lambda x: convert.convert_record(x, "text"), WRONG),
    "convert_record(to)": (lambda x: convert.convert_record(_record(), x), WRONG),
    "read_json_records(lines)": (lambda x: list(convert.read_json_records(x)), WRONG),
    "read_json_records(line)": (lambda x: list(convert.read_json_records([x])), [b"{}", 3]),
    "write_record(record)": (lambda x: writer.write_record(x), WRONG),
    "write_records(records)": (lambda x: list(writer.write_records(x)), WRONG),
    "annotate_record(record)": (lambda x: annotate.annotate_record(x), WRONG),
    "annotate_record(options)": (
        lambda x: annotate.annotate_record(_record(), x), [*NOT_OPTIONAL, [b"x"], "json"]
    ),
    "annotate_record(default_game)": (
        lambda x: annotate.annotate_record(_record(), None, x), NOT_OPTIONAL
    ),
    "annotate_lines(options)": (
        lambda x: list(annotate.annotate_lines(["1. b1 *"], None, x)), [*NOT_OPTIONAL, [b"x"]]
    ),
    "Stepper(record)": (lambda x: stepper.Stepper(x), WRONG),
    "generate_records(game)": (lambda x: list(generate.generate_records(x, 1, 1)), WRONG),
    "read_headers(line)": (lambda x: list(notation.read_headers(iter([x]))), [None, 3, 1.5]),
    "Game.parse(text)": (lambda x: notation.get_game("cave").parse(x), [None, b"b1", 3, ["b1"]]),
    "Game.allows_result(result)": (
        lambda x: notation.get_game("cave").allows_result(x), [None, b"1-0", ["1-0"]]
    ),
    "TinkertownGame.spelling_reasons": (
        lambda x: notation.get_game("tinkertown").spelling_reasons(x, x), WRONG
    ),
    "ZombieKidzGame.spelling_reasons": (
        lambda x: notation.get_game("zombie-kidz").spelling_reasons(x, x), WRONG
    ),
    "Record.from_moves(tags)": (
        lambda x: notation.Record.from_moves("cave", ["b1"], x), [*WRONG, "path"]
    ),
    "read_records(line)": (lambda x: list(notation.read_records([x])), WRONG),
    "read_records(binary stream)": (lambda x: list(notation.read_records(x)), [io.BytesIO(b"x")]),
    "read_any_records(line)": (
        lambda x: list(convert.read_any_records(iter([x]))), [None, b"1. b1 *", 3]
    ),
    "read_any_records(binary stream)": (
        lambda x: list(convert.read_any_records(x)), [io.BytesIO(b"1. b1 *\n")]
    ),
    "write_record(width)": (
        lambda x: writer.write_record(_record(), width=x), [None, b"72", "72", 1.5]
    ),
    "write_record(round_size)": (lambda x: writer.write_record(_record(), x), [b"2", 1.5]),
    "check_paths(paths)": (lambda x: list(batch.check_paths(x)), WRONG),
    "check_paths(path)": (lambda x: list(batch.check_paths([x])), WRONG),
    "check_paths(jobs)": (lambda x: list(batch.check_paths([CAVE_FILE], jobs=x)), [b"2", "2", 1.5]),
    "tally_paths(paths)": (lambda x: list(batch.tally_paths(x)), WRONG),
    "generate_records(count)": (
        lambda x: list(generate.generate_records("cave", x, 1)), NOT_NUMBERS
    ),
    # paths no file system can name: a NUL, a lone surrogate that is no byte of a name
    "read_file(path no file has)": (lambda x: list(notation.read_file(x)), NO_FILE_NAMES),
    "check_paths(path no file has)": (lambda x: list(batch.check_paths([x])), NO_FILE_NAMES),
    "index.record_at(path no file has)": (lambda x: index.record_at(x, 1), NO_FILE_NAMES),
    "Stepper(game)": (lambda x: stepper.Stepper(_record(), x), [*NOT_OPTIONAL, "cave"]),
    "Stepper(default_game)": (lambda x: stepper.Stepper(_record(), None, x), NOT_OPTIONAL),
    "Stepper.goto_turn(turn)": (lambda x: stepper.Stepper(_record()).goto_turn(x), NOT_NUMBERS),
    "Stepper.enter_variation(number)": (
        lambda x: stepper.Stepper(_record()).enter_variation(x), NOT_NUMBERS
    ),
    "Stepper.goto_node(node)": (lambda x: stepper.Stepper(_record()).goto_node(x), WRONG),
    "Stepper.goto(address)": (
        lambda x: stepper.Stepper(_record()).goto(x), [*NOT_NUMBERS, (1, 1), ("1",)]
    ),
    **{
        f"{name}.{call}": (function, values)
        for name in ("cave", "tinkertown", "zombie-kidz")
        for call, function, values in _game_entry_points(name)
    },
    "TinkertownPosition.setup(stacks)": (
        lambda x: type(get_game("tinkertown").new_position()).setup(x), WRONG
    ),
    "TinkertownPosition.setup(tombstones)": (
        lambda x: type(get_game("tinkertown").new_position()).setup({}, x), [*WRONG, "b5"]
    ),
    "random_bot(legal_moves)": (
        lambda x: notation.random_bot(_record().end_position(), x, random.Random(1)),
        [*WRONG, []],
    ),
    "random_bot(rng)": (lambda x: notation.random_bot(_record().end_position(), ["b2"], x), WRONG),
    "walk_record(record)": (
        lambda x: notation.walk_record(x, notation.RecordVisitor()), [*WRONG, []]
    ),
    "walk_record(visitor)": (lambda x: notation.walk_record(_record(), x), WRONG),
    "visit_records(visitor)": (
        lambda x: list(notation.visit_records(["1. b1 *\n"], x)), WRONG
    ),
    "read_any_records(lines)": (lambda x: list(notation.read_any_records(x)), WRONG),
}
def shown(wrong: object) -> str:
    """A test id for ``wrong``, the same in every process (no object addresses)."""
    text = repr(wrong)
    return type(wrong).__name__ if " at 0x" in text else text


CASES = [(name, wrong) for name, (_, values) in ENTRY_POINTS.items() for wrong in values]


@pytest.mark.parametrize(
    ("call", "wrong"), CASES, ids=[f"{name}-{shown(wrong)}" for name, wrong in CASES]
)
def test_a_wrong_type_is_refused_with_the_librarys_own_error(call: str, wrong: object) -> None:
    with pytest.raises(MisuseError) as caught:
        ENTRY_POINTS[call][0](wrong)
    assert type(wrong).__name__ in str(caught.value) or repr(wrong) in str(caught.value)


def test_a_file_descriptor_is_no_path() -> None:
    # open(1) is standard output: read_file(1) used to read it, and close it.
    with pytest.raises(MisuseError, match="int"):
        list(notation.read_file(1))  # type: ignore[arg-type]
    os.fstat(1)  # still open


def test_a_name_that_is_not_utf8_still_opens(tmp_path: Path) -> None:
    # The byte 0xe9 of a name is read by Python as "\udce9": a path that opens a file.
    name = os.fsdecode(b"caf\xe9.txt")
    (tmp_path / name).write_bytes(b'[Game "cave"]\n\n1. b1 c5 *\n')
    assert len(list(notation.read_file(tmp_path / name))) == 1
    assert [verdict.ok for verdict in batch.check_paths([str(tmp_path / name)])] == [True]


def test_a_playout_from_another_games_position_names_both_games() -> None:
    other = get_game("tinkertown").new_position()
    with pytest.raises(MisuseError, match="a Cave position, not a Tinkertown Cemetery one"):
        get_game("cave").random_playout(other, random.Random(1), 5)


def test_record_zero_and_below_are_misuse() -> None:
    for number in (0, -1):
        with pytest.raises(MisuseError, match="numbered from 1"):
            index.record_at(CAVE_FILE, number)
        with pytest.raises(MisuseError, match="numbered from 1"):
            index.find_record([b"1. b1 *\n"], number)


def test_every_exception_of_the_library_is_a_notation_exception() -> None:
    assert issubclass(index.RecordNotFound, NotationException)
    assert issubclass(index.RecordNotFound, LookupError)  # as it was
    assert issubclass(index.IndexProblem, NotationException)
    with pytest.raises(NotationException, match="there is no record 99"):
        index.record_at(CAVE_FILE, 99)


def test_a_path_that_is_a_path_still_reads(tmp_path: Path) -> None:
    assert len(list(notation.read_file(CAVE_FILE))) == len(list(notation.read_file(str(CAVE_FILE))))
    assert index.record_at(str(CAVE_FILE), 2).index == 2
    with pytest.raises(FileNotFoundError):  # a file that cannot be read: its OSError
        list(notation.read_file(tmp_path / "missing.txt"))


def test_right_values_still_work() -> None:
    text = '[Game "cave"]\n\n1. b1 *\n'
    assert [h.tags for h in notation.read_headers(io.StringIO(text))] == [{"Game": "cave"}]
    assert notation.get_game("Cave").name == "cave"
    assert notation.check_record(_record()).ok
    built = notation.Record.from_moves("cave", ("b1", "c5"))
    built.add_variation(2, ("d5",))
    assert notation.play("cave", (notation.random_bot,) * 2, random.Random(1)).moves
    assert index.find_record(iter([b"1. b1 *\n"]), 1).moves[0].text == "b1"
    assert reader.read_string("") == [] and record.Record.from_moves("cave", []).moves == []
    assert referee.play(get_game("cave"), [notation.random_bot] * 2, max_turns=0).moves == []


# -- item 18: the everyday bot program type-checks -----------------------------------


def test_player_is_exported_and_documented() -> None:
    assert notation.Player is referee.Player
    assert "Player" in notation.__all__
    doc = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    assert "`notation.Player`" in doc


def test_the_greedy_bot_program_is_on_the_page() -> None:
    program = (EXAMPLES / "notation_greedy.py").read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    assert f"```python\n{program}```" in doc


def test_the_greedy_bot_program_passes_mypy_strict(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is in the dev extra: '.[dev]'")
    program = EXAMPLES / "notation_greedy.py"
    out, err, status = mypy_api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path), str(program)]
    )
    assert status == 0, out + err


def test_the_greedy_bot_program_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import runpy

    monkeypatch.chdir(ROOT)
    runpy.run_path(str(EXAMPLES / "notation_greedy.py"), run_name="__main__")
    records = notation.read_string(capsys.readouterr().out)
    assert records and all(notation.check_record(one).ok for one in records)
    assert records[0].tag("Red") == "greedy_bot"


# -- item 19: Zombie Kidz's analysis without numpy -----------------------------------

_NO_NUMPY = """
import json, sys
sys.modules["numpy"] = None  # import numpy now raises ImportError
from notation.games import get_game
game = get_game("zombie-kidz")
position = game.new_position({"Players": "3"})
fixed = game.analyse(position, depth=2)
deepened = game.analyse(position)
print(json.dumps([
    [fixed.depth, fixed.exact, dict(fixed.notes)["method"]],
    [deepened.depth, deepened.exact, dict(deepened.notes)["method"]],
]))
"""


def test_zombie_kidz_analysis_without_numpy_says_how_deep_it_looked(tmp_path: Path) -> None:
    from notation.games.zombie_kidz.analysis import DEFAULT_DEPTH

    env = {**os.environ, "NOTATION_CACHE_DIR": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", _NO_NUMPY], capture_output=True, text=True, env=env,
        cwd=ROOT, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    fixed, deepened = json.loads(done.stdout)
    assert fixed == [2, False, "estimate: a search 2 turns deep, no solved table"]
    depth, exact, method = deepened
    assert not exact and depth >= DEFAULT_DEPTH
    assert method == f"estimate: a search {depth} turns deep, no solved table"


def test_the_docs_say_what_analyse_does() -> None:
    page = (ROOT / "docs" / "zombie-kidz.md").read_text(encoding="utf-8")
    library = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    assert "GAME.analyse(position" in page and "analyse(position" in library
    # Without a table the search deepens from 2 turns while its time allows: the page
    # says so, and no longer that it looks 2 turns ahead and no further.
    words = " ".join(page.split())
    assert "a search looks 2 turns ahead" not in words
    assert "deeper one turn at a time" in words


# -- item 20: the move limit of play() ------------------------------------------------


def test_a_game_stopped_by_the_move_limit_says_so() -> None:
    played = notation.play("tinkertown", [notation.random_bot] * 2, random.Random(3), max_turns=6)
    assert played.result == "*" and len(played.moves) == 6
    assert played.tag("Termination") == "unfinished: move limit of 6 turns reached"
    names = [tag.name for tag in played.tags]
    assert names[-2:] == ["Result", "Termination"]
    text = notation.write_record(played)
    assert notation.convert_record(played, "text").text == text  # canonical order already
    as_json = notation.convert_record(played, "json").text
    (back,) = notation.read_json_records(io.StringIO(as_json))
    assert back == played and notation.check_record(back).ok


def test_a_game_the_rules_ended_has_no_termination_tag() -> None:
    played = notation.play("cave", [notation.random_bot] * 2, random.Random(3))
    assert played.result != "*" and played.tag("Termination") is None


def test_the_docs_give_the_default_move_limit() -> None:
    library = " ".join((ROOT / "docs" / "library.md").read_text(encoding="utf-8").split())
    assert f"`max_turns=` ({referee.DEFAULT_MAX_TURNS} by default" in library
    assert "move limit of 1000 turns reached" in library


# -- item 21: a short form is written back long ---------------------------------------


def test_a_short_form_is_written_back_in_the_long_form() -> None:
    (short,) = notation.read_string('[Game "zombie-kidz"]\n\n1. r:b3 *\n')
    assert notation.convert_record(short, "text").text.endswith("1. R:b2-b3 *\n")
    page = " ".join((ROOT / "docs" / "zombie-kidz.md").read_text(encoding="utf-8").split())
    assert "stays short when written back" not in page
