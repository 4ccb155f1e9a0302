"""Every error carries a stable code: a program sorts broken records by code, not by
message text.  The shared codes are notation.errors.CODES; each game keeps its own
(``Game.error_codes``, one per rule a move breaks); notation.errors.all_codes() joins
them.  docs/errors.md lists them all (tests/test_errors_doc.py checks the page)."""

from __future__ import annotations

import ast
import json
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fourth_game.published import published

from notation.errors import (
    CODES,
    Defect,
    ErrorKind,
    IllegalMoveError,
    MoveSyntaxError,
    all_codes,
)
from notation.games import all_games, get_game
from notation.games.base import Game
from notation.reader import read_file, read_string
from notation.record import Record
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "errors.md"
EXAMPLE = re.compile(r"```record( strict)?\n(.*?)```\n\n```error (\w+) ([a-z0-9-]+)\n", re.S)
CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"

#: A code: lower-case words of letters and digits, joined by hyphens.
CODE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
#: The codes that name no case: the exceptions' defaults and the kinds.
GENERIC = {"move-syntax", "move-illegal", "syntax", "illegal", "result"}
#: The games of the package, by the folder each lives in.
PACKAGE_GAMES = {
    "tinkertown": "tinkertown",
    "cave": "cave",
    "zombie_kidz": "zombie-kidz",
}


def _codes_of_examples() -> dict[str, str]:
    """Each example record's error code, by the record's text (strict ones left out)."""
    out = {}
    for strict, text, _kind, _code in EXAMPLE.findall(DOC.read_text(encoding="utf-8")):
        if strict:
            continue
        for record in read_string(text, source="game.txt"):
            error = record.error or check_record(record).error
            if error is not None:
                out[text] = error.code
                break
    return out


CODES_OF_EXAMPLES = _codes_of_examples()


# -- codes are documented, and written one way ------------------------------------------


def test_every_example_error_has_a_documented_code() -> None:
    assert len(CODES_OF_EXAMPLES) > 100
    known = all_codes()
    unknown = {text: code for text, code in CODES_OF_EXAMPLES.items() if code not in known}
    assert not unknown


def test_codes_are_lower_case_words_joined_by_hyphens() -> None:
    for code, meaning in all_codes().items():
        assert CODE.fullmatch(code), code
        assert meaning and meaning == meaning.strip(), code


def test_a_games_codes_start_with_its_name_and_no_shared_code_does() -> None:
    names = [game.name for game in all_games()]
    assert set(PACKAGE_GAMES.values()) <= set(names)
    for game in all_games():
        for code in game.error_codes:
            assert code.startswith(f"{game.name}-"), (game.name, code)
    for code in CODES:
        assert not any(code.startswith(f"{name}-") for name in names), code


def test_all_codes_joins_the_shared_codes_and_every_games() -> None:
    codes = all_codes()
    assert CODES.items() <= codes.items()
    for game in all_games():
        assert game.error_codes.items() <= codes.items()
    assert len(codes) == len(CODES) + sum(len(game.error_codes) for game in all_games())
    assert list(codes) == sorted(codes)
    # each game of the package names its cases: a code for each
    for name in PACKAGE_GAMES.values():
        assert len(get_game(name).error_codes) >= 15, name


# -- every raise names its case, with a code of its game's table ------------------------


def _raised_codes(path: Path) -> Iterator[tuple[int, set[str]]]:
    """For each ``IllegalMoveError(...)`` or ``MoveSyntaxError(...)`` made in ``path``: its
    line and the strings its code argument can be (empty: no code given)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in ("IllegalMoveError", "MoveSyntaxError"):
            continue
        assert not node.keywords, f"{path}:{node.lineno}: the code is positional"
        codes: set[str] = set()
        if len(node.args) >= 2:
            for part in ast.walk(node.args[1]):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    codes.add(part.value)
        yield node.lineno, codes


@pytest.mark.parametrize("folder", sorted(PACKAGE_GAMES))
def test_every_error_a_game_raises_has_a_code_of_its_table(folder: str) -> None:
    game = get_game(PACKAGE_GAMES[folder])
    raised: set[str] = set()
    for path in sorted((ROOT / "notation" / "games" / folder).glob("*.py")):
        for line, codes in _raised_codes(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            assert codes, f"{where}: no code"
            assert codes <= set(game.error_codes), f"{where}: {codes - set(game.error_codes)}"
            raised |= codes
    # and the table holds no code that nothing raises
    assert raised == set(game.error_codes)


def test_the_shared_layers_raise_only_shared_codes() -> None:
    for path in [ROOT / "notation" / "games" / "base.py"]:
        for line, codes in _raised_codes(path):
            assert codes and codes <= set(CODES), f"{path.name}:{line}"


# -- the exceptions ---------------------------------------------------------------------


def test_an_exception_takes_its_code_second_and_defaults_to_its_class() -> None:
    error = IllegalMoveError("d3 is occupied", "tinkertown-occupied")
    assert (str(error), error.code) == ("d3 is occupied", "tinkertown-occupied")
    assert IllegalMoveError("no").code == "move-illegal"
    assert MoveSyntaxError("no").code == "move-syntax"
    assert str(MoveSyntaxError("h9 is no square", "tinkertown-not-a-square")) == (
        "h9 is no square"
    )
    # a copy keeps both (the arguments hold them)
    copied = pickle.loads(pickle.dumps(error))
    assert (str(copied), copied.code) == (str(error), error.code)
    with pytest.raises(TypeError):
        IllegalMoveError("no", code="tinkertown-occupied")  # type: ignore[call-arg]


def test_a_replay_error_carries_the_exceptions_code() -> None:
    (record,) = read_string('[Game "tinkertown"]\n\n1. d3 d3,b5 *\n')
    error = check_record(record).error
    assert error is not None
    assert (error.kind, error.code) == (ErrorKind.ILLEGAL, "tinkertown-occupied")


def test_building_a_record_keeps_the_code_of_the_move_refused() -> None:
    with pytest.raises(IllegalMoveError) as illegal:
        Record.from_moves("tinkertown", ["d3", "d3,b5"])
    assert illegal.value.code == "tinkertown-occupied"
    assert str(illegal.value).startswith("turn 2 (d3,b5): d3 is occupied")
    with pytest.raises(MoveSyntaxError) as syntax:
        Record.from_moves("cave", ["b1", "e9"])
    assert syntax.value.code == "cave-not-a-square"
    # so does replaying the moves before a variation (b2 is not on Black's home row)
    (record,) = read_string('[Game "cave"]\n\n1. b1 b2 2. c1 *\n', source="game.txt")
    with pytest.raises(IllegalMoveError) as replayed:
        record.add_variation(3, ["d1"])
    assert replayed.value.code == "cave-not-home-row"


def test_a_position_says_why_with_the_rules_own_code() -> None:
    # canonical() of an illegal move raises the error push() gives, code and all
    position = get_game("zombie-kidz").new_position()
    with pytest.raises(IllegalMoveError) as refused:
        position.canonical(get_game("zombie-kidz").parse("R:b2"))
    assert refused.value.code == "zombie-kidz-step-stays"


# -- no rule is left without its code ----------------------------------------------------


def _conformance_errors() -> list[tuple[str, int, Defect]]:
    expected = json.loads((CONFORMANCE / "expected.json").read_text())
    games = {entry["file"]: entry["game"] for entry in expected}
    found = []
    for name, game in sorted(games.items()):
        for record in read_file(CONFORMANCE / name):
            error = check_record(record, game).error
            if error is not None:
                found.append((name, record.index, error))
    return found


def test_every_conformance_error_names_its_case() -> None:
    errors = _conformance_errors()
    assert len(errors) == 120
    known = all_codes()
    for name, index, error in errors:
        assert error.code in known, (name, index, error)
        assert error.code not in GENERIC, (name, index, error)
    # the moves the rules refuse have the codes of their game
    for name, index, error in errors:
        if error.kind == ErrorKind.ILLEGAL:
            assert error.code.startswith(name.removesuffix("-invalid.txt") + "-"), (name, index)
    assert len({error.code for _, _, error in errors}) >= 30


@pytest.mark.parametrize("name", sorted(PACKAGE_GAMES.values()))
def test_every_move_refused_in_play_has_a_code_of_its_game(name: str) -> None:
    """Random games, and at each position every move of a pool pushed: each refusal
    carries a code of the game's table, never the default."""
    game = get_game(name)
    rng = random.Random(2024)
    seen: set[str] = set()
    for _ in range(6):
        position = game.new_position(dict(game.setup_tags()))
        pool: list[Any] = []
        while position.outcome() is None and position.turn < 80:
            moves = position.legal_moves()
            pool.extend(rng.sample(moves, min(4, len(moves))))
            for move in rng.sample(pool, min(40, len(pool))):
                try:
                    position.push(move)
                except IllegalMoveError as exc:
                    assert exc.code in game.error_codes, (exc.code, str(exc))
                    seen.add(exc.code)
                else:
                    position.pop()
            position.push(rng.choice(moves))
        for move in pool[:20]:  # the game is over (or long): every move refused
            if position.outcome() is not None:
                with pytest.raises(IllegalMoveError) as over:
                    position.push(move)
                assert over.value.code == f"{name}-game-over"
    assert len(seen) >= 4, seen


# -- codes finer than kinds --------------------------------------------------------------


def test_the_reader_and_replay_cases_each_have_an_example() -> None:
    seen = set(CODES_OF_EXAMPLES.values())
    # The strict codes' examples are strict ones (left out here); the exceptions'
    # defaults are given by no game of the package (test_a_game_without_codes_...), and
    # the kinds only by errors made without a code; a JSON line is no record text
    # (test_a_json_line_that_is_not_a_record_has_its_code).
    unshown = {"strict-number-missing", "strict-letter-case", "strict-spelling",
               "strict-tag-case"} | GENERIC
    unshown |= {"json-not-a-record"}
    assert set(CODES) - seen == unshown, sorted(set(CODES) - seen)


def test_a_json_line_that_is_not_a_record_has_its_code() -> None:
    from notation.formats.convert import read_json_records

    (record,) = read_json_records(['{"format": "something else"}\n'], "x.jsonl")
    assert record.error is not None and record.error.code == "json-not-a-record"


def test_codes_name_cases_more_finely_than_kinds() -> None:
    (record,) = read_string('[Game "cave"]\n\n1. b1 b5 2... b1-b2 *\n')
    error = check_record(record).error
    assert error is not None and error.kind == ErrorKind.SYNTAX
    assert error.code == "number-wrong"
    (record,) = read_string('[Game "cave"]\n\n1. b1 b5 (\n')
    assert record.error is not None and record.error.code == "variation-unclosed"
    (record,) = read_string("1. b1 b5 *\n")
    verdict = check_record(record)
    assert verdict.error is not None and verdict.error.code == "game-missing"
    # two illegal moves of one game, two rules broken
    codes = set()
    for moves in ("1. b2 *", "1. b1 b5 2. b1-c2 *"):
        (record,) = read_string(f'[Game "cave"]\n\n{moves}\n')
        error = check_record(record).error
        assert error is not None and error.kind == ErrorKind.ILLEGAL
        codes.add(error.code)
    assert codes == {"cave-not-home-row", "cave-move-not-orthogonal"}


def test_an_error_made_without_a_code_gets_its_kind() -> None:
    error = Defect(ErrorKind.ILLEGAL, "no", 1, 1)
    assert error.code == "illegal"
    assert error.located(file="f", record=2).code == "illegal"
    assert error.to_dict()["code"] == "illegal"


def test_the_json_form_gives_the_code_after_the_kind() -> None:
    error = Defect(ErrorKind.SYNTAX, "no", 3, 4, 2, "b9", code="cave-not-a-square")
    assert error.to_dict() == {
        "kind": "syntax",
        "code": "cave-not-a-square",
        "line": 3,
        "column": 4,
        "turn": 2,
        "move": "b9",
        "message": "no",
    }


# -- a game added later brings its codes -------------------------------------------------


@pytest.fixture()
def fourth_game() -> Iterator[Game[Any]]:
    """Grave Nim (tests/fourth_game) registered through the entry points, then forgotten."""
    with published() as game:
        yield game


def test_a_game_added_later_brings_its_codes(fourth_game: Game[Any]) -> None:
    codes = all_codes()
    assert fourth_game.error_codes.items() <= codes.items()
    assert all(code.startswith("grave-nim-") for code in fourth_game.error_codes)
    (record,) = read_string('[Game "grave-nim"]\n\n1. a2 c6 *\n')
    error = check_record(record).error
    assert error is not None and (error.kind, error.code) == ("illegal", "grave-nim-too-many")


def test_a_game_without_codes_of_its_own_gives_the_defaults(
    fourth_game: Game[Any],
) -> None:
    # Grave Nim names no case of a token it cannot read: the class's default stands.
    (record,) = read_string('[Game "grave-nim"]\n\n1. a2 d1 *\n')
    error = check_record(record).error
    assert error is not None and (error.kind, error.code) == ("syntax", "move-syntax")
