"""Fuzzing: whatever arrives, the toolkit answers with error values, never an exception.

Inputs are arbitrary text, and mutations of the valid and broken records shipped
with the toolkit (all three games): characters and tokens deleted, inserted,
duplicated and swapped, brackets, braces and quotes inserted, letter case
changed, NUL bytes, odd Unicode and long runs of one character put in.  They go
through the reader, the games' grammars and engines, checking, converting,
annotating, the strict check, and every command through click's test runner.

CI runs a bounded number of examples (the profile "fuzz-ci", a few seconds per
test).  The long run (see docs/errors.md, "Fuzzing") is the same tests with more
examples each::

    NOTATION_FUZZ=long python3 -m pytest tests/test_fuzz.py -p no:warnings \\
        --hypothesis-show-statistics

``NOTATION_FUZZ_EXAMPLES=N`` sets the number of examples per test directly.
"""

from __future__ import annotations

import io
import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.checking.canonical_form import check_record_strict, tag_case_defects
from notation.cli import cli
from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MoveSyntaxError,
    TagValueError,
)
from notation.formats.annotate import AnnotateOptions, annotate_record
from notation.formats.convert import FORMATS, convert_record, read_json_records
from notation.games import all_games, get_game
from notation.games.base import Game, Position
from notation.reader import read_records, read_string
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
SEED_FILES = sorted(
    [*ROOT.glob("records/*/*.ugn"), *(ROOT / "tests" / "data" / "conformance").glob("*.txt")]
)
GAMES = ("tinkertown", "cave", "zombie-kidz")

# -- profiles ------------------------------------------------------------------------

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "fuzz-ci", max_examples=150, deadline=None, suppress_health_check=_HEALTH, print_blob=True
)
settings.register_profile(
    "fuzz-long", max_examples=15000, deadline=None, suppress_health_check=_HEALTH,
    print_blob=True,
)
_PROFILE = settings.get_profile("fuzz-long" if os.environ.get("NOTATION_FUZZ") == "long"
                                else "fuzz-ci")


def fuzz(weight: float = 1.0) -> settings:
    """This module's settings for one test: the profile's examples times ``weight``
    (cheap tests run more, the command line fewer), or NOTATION_FUZZ_EXAMPLES."""
    fixed = os.environ.get("NOTATION_FUZZ_EXAMPLES")
    count = int(fixed) if fixed else max(1, round(_PROFILE.max_examples * weight))
    return settings(_PROFILE, max_examples=count)


# -- seeds and mutations ---------------------------------------------------------------


@dataclass(frozen=True)
class Seed:
    text: str
    game: str | None  # the game the file's name gives (records without a Game tag)


def _game_of(path: Path) -> str | None:
    return next((g for g in GAMES if g in path.name or g in path.parent.name), None)


@cache
def seeds() -> tuple[Seed, ...]:
    """Every record shipped with the toolkit, as its own text."""
    found: list[Seed] = []
    for path in SEED_FILES:
        text = path.read_text(encoding="utf-8")
        for record in read_records(io.StringIO(text), keep_raw=True):
            assert record.raw is not None
            raw = record.raw if record.raw.endswith("\n") else record.raw + "\n"
            found.append(Seed(raw, _game_of(path)))
    return tuple(found)


@cache
def json_seeds() -> tuple[Seed, ...]:
    """The example records as JSON Lines, for the JSON reader."""
    found: list[Seed] = []
    for path in ROOT.glob("records/*/examples.ugn"):
        for record in read_records(io.StringIO(path.read_text(encoding="utf-8"))):
            found.append(Seed(convert_record(record, "json").text, _game_of(path)))
    return tuple(found)


#: Characters and pieces of notation that mutations put in.
ODD = (
    "(", ")", "{", "}", "[", "]", '"', "\\", ";", ".", "...", "!", "?", "!!", "$", "$12",
    "*", "-", "x", "X", ",", ":", "/", "1-0", "0-1", "1/2-1/2", "12.", "3...", " ", "\t",
    "\n", "\n\n", "\r", "\r\n", "\x00", "\x1b[2J", "\ufeff", "\u00e9", "\u200b", "\u2028",
    "\U0001f9df", "\udcff", '\n[Game "cave"]\n', '[Result "1-0"]', "{[%diagram 3]",
)
_TOKENS = re.compile(r"(\s+)")


@st.composite
def mutated(draw: st.DrawFn, corpus: Callable[[], tuple[Seed, ...]] = seeds) -> Seed:
    """A seed record changed by one to four mutations."""
    seed = draw(st.sampled_from(corpus()))
    text = seed.text
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from(_MUTATIONS))(draw, text)
    return Seed(text, seed.game)


def _span(draw: st.DrawFn, text: str, longest: int = 40) -> tuple[int, int]:
    start = draw(st.integers(0, len(text)))
    return start, min(len(text), start + draw(st.integers(0, longest)))


def _delete(draw: st.DrawFn, text: str) -> str:
    i, j = _span(draw, text)
    return text[:i] + text[j:]


def _insert(draw: st.DrawFn, text: str) -> str:
    i = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(ODD) | st.text(max_size=8))
    return text[:i] + piece + text[i:]


def _duplicate(draw: st.DrawFn, text: str) -> str:
    i, j = _span(draw, text)
    return text[:j] + text[i:j] + text[j:]


def _swap(draw: st.DrawFn, text: str) -> str:
    i, j = _span(draw, text, 20)
    k, m = _span(draw, text, 20)
    if j <= k:
        return text[:i] + text[k:m] + text[j:k] + text[i:j] + text[m:]
    return text


def _change_case(draw: st.DrawFn, text: str) -> str:
    i, j = _span(draw, text, 200)
    change = draw(st.sampled_from((str.upper, str.lower, str.swapcase)))
    return text[:i] + change(text[i:j]) + text[j:]


_LENGTHS = st.sampled_from((2, 50, 1200, 5000)) | st.integers(2, 5000)


def _long_run(draw: st.DrawFn, text: str) -> str:
    """A run of one character or piece: long tokens, numbers of many digits, unclosed
    brackets."""
    i = draw(st.integers(0, len(text)))
    piece = draw(st.sampled_from(("9", "!", "(", ")", "{", "a", "x", "-", ".", "(1. d3 ", "[%a ")))
    return text[:i] + piece * draw(_LENGTHS) + text[i:]


def _nest(draw: st.DrawFn, text: str) -> str:
    """After a token, variations of that token nested deep (more than recursion allows)."""
    tokens = [m for m in re.finditer(r"[^\s(){};]+", text) if not m.group().endswith(".")]
    if not tokens:
        return text
    token = draw(st.sampled_from(tokens))
    depth = draw(_LENGTHS)
    nested = f"({token.group()} " * depth + ")" * depth
    return text[: token.end()] + " " + nested + text[token.end() :]


def _token_op(draw: st.DrawFn, text: str) -> str:
    parts = _TOKENS.split(text)
    words = list(range(0, len(parts), 2))
    if len(words) < 2:
        return text
    a, b = draw(st.sampled_from(words)), draw(st.sampled_from(words))
    op = draw(st.sampled_from(("delete", "duplicate", "swap")))
    if op == "delete":
        parts[a] = ""
    elif op == "duplicate":
        parts[a] = parts[a] + " " + parts[a]
    else:
        parts[a], parts[b] = parts[b], parts[a]
    return "".join(parts)


_MUTATIONS = (
    _delete, _insert, _duplicate, _swap, _change_case, _long_run, _nest, _token_op,
)


def assert_error_value(error: Defect | None, lines: int) -> None:
    """An error is a value with a kind, a place inside the input and a reason."""
    if error is None:
        return
    assert isinstance(error, Defect)
    assert error.kind in set(ErrorKind)
    assert 1 <= error.line <= max(1, lines), error
    assert error.column >= 1, error
    assert error.message.strip(), error
    assert str(error)


def line_count(text: str) -> int:
    return len(io.StringIO(text, newline=None).readlines())


# -- the reader and checking -----------------------------------------------------------


@fuzz(2)
@given(st.text())
def test_reader_reads_any_text(text: str) -> None:
    lines = line_count(text)
    for record in read_string(text, "fuzz.txt"):
        assert_error_value(record.error, lines)
        for game in GAMES:
            assert_error_value(check_record(record, game).error, lines)


@fuzz(2)
@given(mutated())
def test_check_gives_error_values_for_mutated_records(seed: Seed) -> None:
    lines = line_count(seed.text)
    for record in read_string(seed.text, "fuzz.txt"):
        assert_error_value(record.error, lines)
        verdict = check_record(record, seed.game)
        assert_error_value(verdict.error, lines)
        assert verdict.ok == (verdict.error is None)


def _verdicts(text: str, game: str | None) -> list[tuple[Any, ...]]:
    return [
        (v.ok, v.result, v.turns) + ((v.error.kind, v.error.line, v.error.column, v.error.turn)
                                     if v.error else ())
        for v in (check_record(r, game) for r in read_string(text))
    ]


@fuzz()
@given(mutated())
def test_line_ends_and_a_byte_order_mark_change_no_verdict(seed: Seed) -> None:
    expected = _verdicts(seed.text, seed.game)
    assert _verdicts("\ufeff" + seed.text, seed.game) == expected
    if "\r" not in seed.text:
        assert _verdicts(seed.text.replace("\n", "\r\n"), seed.game) == expected
        assert _verdicts(seed.text.replace("\n", "\r"), seed.game) == expected


@fuzz()
@given(mutated())
def test_strict_check_gives_error_values_for_mutated_records(seed: Seed) -> None:
    lines = line_count(seed.text)
    for record in read_string(seed.text, "fuzz.txt"):
        assert_error_value(check_record_strict(record, seed.game).error, lines)


# -- converting and annotating ---------------------------------------------------------


def _records(text: str) -> Iterator[Any]:
    return read_records(io.StringIO(text, newline=None), "fuzz.txt", keep_raw=True)


@fuzz()
@given(mutated(), st.sampled_from(FORMATS))
def test_convert_never_raises_and_keeps_its_promises(seed: Seed, to: str) -> None:
    lines = line_count(seed.text)
    # Converting changes a record in place: the second reader gives fresh copies.
    for record, fresh in zip(_records(seed.text), _records(seed.text), strict=True):
        converted = convert_record(record, to, seed.game)
        assert isinstance(converted.text, str)
        # A record passed on as written keeps its text exactly, a missing last line end too.
        assert converted.text.endswith("\n") or (converted.verbatim and to != "json")
        assert not converted.verbatim or to == "json" or converted.text == fresh.raw
        assert_error_value(converted.error, lines)
        if converted.error is not None or to == "plain":
            continue
        if to == "json":
            # Nothing lost: the JSON read back writes the same text as a direct conversion.
            (again,) = read_json_records(io.StringIO(converted.text))
            assert (
                convert_record(again, "text", seed.game).text
                == convert_record(fresh, "text", seed.game).text
            )
            continue
        # Canonical text reads back as one valid record, is a fixed point, and passes
        # --strict but for a tag named in the wrong case ([game "cave"]): that one is
        # kept as written, since it does not count and renaming it would change what
        # the record says; strict rightly names it.
        (again,) = read_string(converted.text)
        assert convert_record(again, "text", seed.game).text == converted.text
        game = again.game(seed.game)
        miscased = {defect.line for defect in tag_case_defects(again, game)}
        again.tags[:] = [tag for tag in again.tags if tag.line not in miscased]
        assert check_record_strict(again, seed.game).ok


@fuzz(0.5)
@given(mutated(), st.integers(0, 3), st.booleans())
def test_annotate_never_raises_and_is_idempotent(seed: Seed, diagrams: int, analyze: bool) -> None:
    options = AnnotateOptions(diagrams=diagrams, analyze=analyze)
    lines = line_count(seed.text)
    for record in _records(seed.text):
        annotated = annotate_record(record, options, seed.game)
        assert_error_value(annotated.error, lines)
        if annotated.error is None:
            (again,) = read_string(annotated.text)
            assert annotate_record(again, options, seed.game).text == annotated.text


@fuzz()
@given(mutated(json_seeds))
def test_json_reader_gives_a_located_reason(seed: Seed) -> None:
    try:
        records = list(read_json_records(io.StringIO(seed.text, newline=None), "fuzz.jsonl"))
    except ValueError as exc:
        assert str(exc).startswith("fuzz.jsonl:")  # file:line: reason
        return
    for record in records:
        for to in FORMATS:
            assert isinstance(convert_record(record, to, seed.game).text, str)


# -- grammars and engines --------------------------------------------------------------

#: Letters, digits and signs the three notations use, for move-like text.
MOVE_ALPHABET = "abcdefghz0123456789RYGKBWLZSXrygkbwlzsx-,:?@ "
move_text = st.text(alphabet=MOVE_ALPHABET, max_size=12) | st.text(max_size=12)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_fuzzed(name: str) -> None:
    assert get_game(name).name == name


@fuzz(4)
@given(st.sampled_from(GAMES), move_text)
def test_parse_raises_only_move_syntax_errors(name: str, text: str) -> None:
    game = get_game(name)
    try:
        move = game.parse(text)
    except MoveSyntaxError as exc:
        assert str(exc)
        return
    assert game.parse(str(move)) == move  # a move writes itself in a form read back


def _played(game: Game[Any], players: int, rng: random.Random, turns: int) -> Position[Any]:
    tags = {"Players": str(players)} if game.name == "zombie-kidz" else {}
    position = game.new_position(tags)
    game.random_playout(position, rng, turns)
    return position


@fuzz(2)
@given(
    st.sampled_from(GAMES),
    st.integers(2, 4),
    st.randoms(use_true_random=False),
    st.integers(0, 120),
    st.lists(move_text, min_size=1, max_size=6),
)
def test_engines_refuse_bad_moves_and_stay_unchanged(
    name: str, players: int, rng: random.Random, turns: int, texts: list[str]
) -> None:
    game = get_game(name)
    position = _played(game, players, rng, turns)
    moves = list(position.legal_moves()[:3])
    for text in texts:
        try:
            moves.append(game.parse(text))
        except MoveSyntaxError:
            continue
    for move in moves:
        before = position.position_string()
        reason = position.check(move)
        try:
            position.push(move)
        except IllegalMoveError as exc:
            assert reason == str(exc)
            assert position.position_string() == before  # a refused move changes nothing
            continue
        assert reason is None
        position.pop()
        assert position.position_string() == before
        canonical = position.canonical(move)
        assert position.is_legal(canonical) and game.parse(str(canonical)) == canonical


@fuzz(2)
@given(
    st.sampled_from(GAMES), st.integers(2, 4), st.randoms(use_true_random=False),
    st.integers(0, 120), st.data(),
)
def test_position_strings_read_back_and_refuse_garbage(
    name: str, players: int, rng: random.Random, turns: int, data: st.DataObject
) -> None:
    game = get_game(name)
    line = _played(game, players, rng, turns).position_string()
    assert game.position_from_string(line).position_string() == line
    text = line
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(st.sampled_from(_MUTATIONS))(data.draw, text)
    try:
        position = game.position_from_string(text)
    except TagValueError as exc:
        assert exc.tag == "Position" and str(exc)
        return
    assert game.position_from_string(position.position_string()).position_string() == (
        position.position_string()
    )


# -- every command ---------------------------------------------------------------------

#: Command lines; IN is the input file, OUT an output file, GAME the seed's game.
COMMANDS = (
    ("check", "IN"),
    ("check", "--format", "json", "IN"),
    ("check", "--strict", "-v", "IN"),
    ("check", "-"),
    ("convert", "--to", "text", "IN"),
    ("convert", "--to", "plain", "IN"),
    ("convert", "--to", "json", "IN"),
    ("convert", "--to", "text", "--strict", "-o", "OUT", "IN"),
    ("convert", "--to", "text", "-"),
    ("annotate", "IN"),
    ("annotate", "--analyze", "--diagrams", "2", "-o", "OUT", "IN"),
    ("annotate", "--in-place", "COPY"),
    ("show", "IN"),
    ("show", "--position", "IN"),
    ("show", "--ascii", "--record", "2", "--turn", "3", "IN"),
    ("replay", "IN"),
    # Not a terminal here: it says so and exits 2 before reading (the reading is
    # RecordFile's, fuzzed in tests/test_recordfile.py).
    ("record", "--record", "1", "IN"),
    ("diagram", "--turn", "5", "IN"),
    ("diagram", "-o", "OUT", "IN"),
    ("html", "-o", "OUT", "IN"),
    ("select", "--valid", "IN"),
    ("select", "--move", "b1", "--anywhere", "--tag-range", "Date=2020..", "--to", "json", "IN"),
    ("select", "--broken", "-"),
    ("dedup", "-d", "OUT", "IN"),
    ("split", "--every", "2", "--force", "-d", "DIR", "IN"),
    ("stats", "IN"),
    ("stats", "--format", "json", "-"),
    ("analyze", "--depth", "1", "--seconds", "0.2", "IN"),
    ("index", "COPY"),
    ("show", "--record", "3", "COPY"),
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _file_bytes(text: str) -> bytes:
    # Lone surrogates become bytes that are not UTF-8, as in a damaged file.
    return text.encode("utf-8", "surrogatepass")


def run_command(workdir: Path, args: tuple[str, ...], data: bytes, game: str | None) -> None:
    source = workdir / "in.txt"
    copy = workdir / "copy.txt"
    out = workdir / "out.txt"
    source.write_bytes(data)
    copy.write_bytes(data)
    out.write_text("old output\n")
    names = {"IN": str(source), "OUT": str(out), "COPY": str(copy), "DIR": str(workdir / "parts")}
    argv = [names.get(a, a) for a in args]
    if game is not None:
        argv[1:1] = ["--game", game]
    result = CliRunner().invoke(cli, argv, input=data if "-" in args else None)
    # 3: a conversion stopped by a JSON line that is not a record.
    assert result.exit_code in (0, 1, 2, 3), (argv, result.output)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception
    )
    assert source.read_bytes() == data  # an input is never written to
    if "OUT" in args and out.read_text() != "old output\n":
        assert result.exit_code in (0, 1)  # replaced only by a command that did its work
    assert not list(workdir.glob(".*.tmp"))  # no temporary file left behind
    assert not list(workdir.glob("parts/.*.tmp"))


@fuzz(1.5)
@given(
    st.sampled_from(COMMANDS),
    st.lists(mutated(), min_size=1, max_size=3),
    st.booleans(),
)
def test_commands_on_mutated_files(
    workdir: Path, args: tuple[str, ...], records: list[Seed], with_game: bool
) -> None:
    text = "\n".join(seed.text for seed in records)
    game = records[0].game if with_game else None
    run_command(workdir, args, _file_bytes(text), game)


@fuzz(0.5)
@given(st.sampled_from(COMMANDS), st.binary(max_size=300))
def test_commands_on_arbitrary_bytes(workdir: Path, args: tuple[str, ...], data: bytes) -> None:
    run_command(workdir, args, data, None)


@fuzz(0.5)
@given(mutated(json_seeds), st.sampled_from(FORMATS))
def test_convert_command_on_mutated_json(workdir: Path, seed: Seed, to: str) -> None:
    run_command(workdir, ("convert", "--to", to, "IN"), _file_bytes(seed.text), None)


def test_every_command_is_fuzzed() -> None:
    # games and generate read no records; lsp speaks the protocol (tests/test_lsp.py
    # sends it the hostile corpus).
    fuzzed = {args[0] for args in COMMANDS} | {"games", "generate", "lsp"}
    assert fuzzed == set(cli.list_commands(None))  # type: ignore[arg-type]
    assert {g.name for g in all_games()} == set(GAMES)
