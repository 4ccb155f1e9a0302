"""The replay gives the same verdict driven from text as from a record tree.

``notation check`` runs :class:`notation.replay.Replay` on the reader's events
(:func:`notation.reader.visit_records`: no record tree); :func:`check_record` runs it on
a tree, walked by :func:`notation.visitor.walk_record`.  Every verdict (game, result,
turns, outcome, and the error's kind, code, message, line, column, turn and move) must
be equal, on every bundled record file, generated games (plain, and with comments,
glyphs and variations added), and records mutated by the fuzzer's mutations, several
to a text.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation import replay as replay_module
from notation.collections.batch import visit_any_records
from notation.collections.generate import generate_records
from notation.reader import read_records, visit_records
from notation.record import Record
from notation.replay import Replay, Verdict, check_record
from notation.writer import write_record
from tests.test_fuzz import GAMES, Seed, fuzz, mutated, seeds

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path("/work/shared/conformance")
FILES = sorted(
    {
        *ROOT.glob("records/**/*.ugn"),
        *(ROOT / "tests" / "data").glob("**/*.txt"),
        *(SHARED.glob("*.txt") if SHARED.is_dir() else ()),
    }
)


def tree_verdicts(
    text: str, default_game: str | None = None, first_line: int = 1
) -> list[Verdict]:
    lines = io.StringIO(text, newline="").readlines()
    records = read_records(lines, "f.txt", first_line=first_line)
    return [check_record(record, default_game) for record in records]


def streamed_verdicts(
    text: str, default_game: str | None = None, first_line: int = 1
) -> list[Verdict]:
    lines = io.StringIO(text, newline="").readlines()
    return list(visit_records(lines, Replay(default_game), "f.txt", first_line=first_line))


def assert_same(text: str, default_game: str | None = None, first_line: int = 1) -> None:
    tree = tree_verdicts(text, default_game, first_line)
    streamed = streamed_verdicts(text, default_game, first_line)
    # Verdict and Defect compare every field: codes, messages, lines, columns, turns.
    assert streamed == tree
    assert [v.to_dict() for v in streamed] == [v.to_dict() for v in tree]


def _game_of(path: Path) -> str | None:
    return next((g for g in GAMES if g in path.name or g in path.parent.name), None)


def test_the_files_are_found() -> None:
    names = {path.name for path in FILES}
    assert {"cave-valid.txt", "cave-invalid.txt", "zombie-kidz-invalid.txt"} <= names
    assert any(path.parent.parent.name == "records" for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_bundled_files(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    assert_same(text)
    assert_same(text, _game_of(path))


def _generated(game: str, count: int, seed: int) -> list[tuple[Record, int]]:
    players = 3 if game == "zombie-kidz" else None
    return list(generate_records(game, count, seed, players=players))


def _plain_text(game: str, count: int, seed: int) -> str:
    return "\n".join(write_record(record, size) for record, size in _generated(game, count, seed))


@pytest.mark.parametrize("game", GAMES)
def test_generated_games_take_the_fast_path(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _plain_text(game, 30, 7)
    tree = tree_verdicts(text)
    assert len(tree) == 30 and all(v.ok for v in tree)

    def no_tree(*args: Any, **kwargs: Any) -> Verdict:
        raise AssertionError("a plain record was read into a tree")

    monkeypatch.setattr(replay_module, "walk_record", no_tree)
    assert streamed_verdicts(text) == tree


def _decorated(record: Record, rng: random.Random) -> None:
    """Comments, glyphs and checked variations on some of ``record``'s moves."""
    game = record.game()
    for _ in range(3):
        if len(record.moves) < 3:
            return
        index = rng.randrange(len(record.moves) - 1)
        position = record.start_position()
        for node in record.moves[:index]:
            position.push(game.parse(node.text))
        legal = position.legal_moves()
        others = [m for m in legal if str(m) != record.moves[index].text]
        if others:
            record.add_variation(position.turn + 1, [rng.choice(others)])
    for node in rng.sample(record.moves, min(4, len(record.moves))):
        choice = rng.randrange(3)
        if choice == 0:
            node.comment = "a comment"
        elif choice == 1:
            node.suffix = "!?"
        else:
            node.nags.append(1)


def decorated_text(game: str, count: int, seed: int, rng: random.Random) -> str:
    """``count`` generated games, every other one decorated (see _decorated)."""
    texts = []
    for number, (record, size) in enumerate(_generated(game, count, seed)):
        if number % 2:
            _decorated(record, rng)
        texts.append(write_record(record, size))
    return "\n".join(texts)


@pytest.mark.parametrize("game", GAMES)
def test_generated_games_with_variations_and_comments(game: str) -> None:
    text = decorated_text(game, 24, 11, random.Random(3))
    assert_same(text)
    # The same, every move of some records made illegal or misnumbered by a swap.
    broken = text.replace(" 3. ", " 4. ", 5)
    assert broken != text
    assert_same(broken)


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff[Game \"cave\"]\n\n1. b1 a5 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 *\n\n\ufeff[Game \"cave\"]\n\n1. b1 a5 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 *\n\n% escape\n[Game \"cave\"]\n\n1. b1 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 * {after}\n\n[Game \"cave\"]\n\n1. b1 *\n",
        "[Game \"cave\"]\n\n1. b1 a5\n*\n[Game \"cave\"]\n1. b1 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 12. *\n",
        "[Game \"cave\"]\n\n1. b1 a5 2. *\n[Game \"cave\"]\n\n1. b1 1-0 1. b1 *\n",
        "[Game \"cave\"]\n[Game \"tinkertown\"]\n[Result \"0-1\"]\n[Result \"1-0\"]\n\n"
        "1. b1 a5 0-1\n",
        "[Game \"cave\"]\n\n[Event \"x\"]\n\n1. b1 a5 *\n",
        "[Game \"cave\"]\n1. b1 a5 *\n1. b1 *\n",
        "[Game \"nope\"]\n\n1. b1 a5 *\n\n[Game \"cave\"]\n\n1. b1 a5 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 2. b1-b2 b5 3. b2-b1 a5-a4 1/2-1/2\n",
        "[Game \"cave\"]\n\n1. b1 a5 2... b1-b2 *\n",
        "[Game \"cave\"]\n\n1.  b1 a5 *\n[Game \"cave\"]\n\n1. b1\ta5 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 1234567890. b1-b2 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 2.. b1-b2 *\n",
        "[Game \"cave\"]\n\n1. b1 a5 2. b1-b2 ; b5 *\n",
        "[Game \"cave\"]\n\n1. b1 a5\n\n",
        "[Game \"cave\"]\n\n",
        "\n\n[Game \"cave\"]\n\n1. b1 a5 *\n\n\n",
        "1. b1 a5 *\n",
        "[Game \"zombie-kidz\"]\n[Players \"9\"]\n\n1. R *\n",
        "[Game \"zombie-kidz\"]\n[Result \"2-0\"]\n\n1. R *\n",
        " [Game \"cave\"]\n\n1. b1 a5 *\n",
        "[Game \"cave\"]\r\n\r\n1. b1 a5 *\r\n\r\n[Game \"cave\"]\r\n\r\n1. b1 a5 *\r\n",
        # A line's last move that fails, then what the next line hangs on it: a glyph
        # (the error names the move with it), a comment, a glyph number, a variation.
        "[Game \"cave\"]\n\n1. b1 b5 2. b1-c9\n! {x} *\n",
        "[Game \"cave\"]\n\n1. b1 b5 2. b1-c9\n{x} $1 *\n",
        "[Game \"cave\"]\n\n1. b1 b5 2. b1-c9\n(2. b1-c1) *\n",
        "[Game \"cave\"]\n\n1. b1 b5 2. b1-b2\n(2. b1-c9) 2... c4 *\n",
        "[Game \"cave\"]\n\n1. b1 b5 2.\nb1-b2 3. c5 *\n",
    ],
)
def test_edges(text: str) -> None:
    assert_same(text)
    assert_same(text, "cave")


def test_first_line_as_in_parts() -> None:
    # notation check --jobs reads big files in parts, numbered from their first line.
    text = _plain_text("cave", 5, 2)
    assert_same(text, first_line=101)
    assert streamed_verdicts(text, first_line=101)[0].error is None
    broken = text.replace(" 2. ", " 9. ", 1)
    streamed = streamed_verdicts(broken, first_line=101)
    assert streamed == tree_verdicts(broken, first_line=101)
    assert streamed[0].error is not None and streamed[0].error.line > 100


def test_json_lines_are_checked_as_records() -> None:
    from notation.formats.convert import convert_record, read_json_records

    records = list(read_records(io.StringIO(_plain_text("zombie-kidz", 3, 1))))
    text = "".join(convert_record(record, "json").text for record in records)
    lines = io.StringIO(text).readlines()
    streamed = list(visit_any_records(lines, Replay(), "f.jsonl"))
    assert [v.ok for v in streamed] == [True] * 3
    assert streamed == [check_record(r) for r in read_json_records(lines, "f.jsonl")]
    assert [v.turns for v in streamed] == [len(r.moves) for r in records]


_PLAIN = {game: _plain_text(game, 3, 5) for game in GAMES}

#: Records mutated by the fuzzer's mutations, several to a text, plain ones among them
#: (``mixed``), and a default game: the arguments of a hypothesis test.
MIXED = {
    "parts": st.lists(st.one_of(mutated(), st.sampled_from(seeds())), min_size=1, max_size=4),
    "plain": st.sampled_from(GAMES),
    "where": st.integers(0, 4),
    "default": st.sampled_from((None, *GAMES)),
}


def mixed(parts: list[Seed], plain: str, where: int) -> list[str]:
    """The texts of ``parts``, with the plain records of ``plain`` at ``where``."""
    texts = [seed.text for seed in parts]
    texts.insert(min(where, len(texts)), _PLAIN[plain])
    return texts


@fuzz(2.0)
@given(**MIXED)
def test_mutated_records(parts: list[Seed], plain: str, where: int, default: str | None) -> None:
    texts = mixed(parts, plain, where)
    for joiner in ("\n", ""):
        assert_same(joiner.join(texts), default)


def test_records_the_reader_reads_are_streamed_too() -> None:
    # Records the fast path leaves to the reader (a comment after each result keeps the
    # reader from being sure where the next begins) go to it line by line: the first
    # verdict comes before the input is all read (a big file is never held whole).
    record = '[Game "cave"]\n\n1. b1 a5 * {a comment}\n\n'
    taken = 0

    def lines() -> Any:
        nonlocal taken
        for _ in range(10_000):
            for line in io.StringIO(record).readlines():
                taken += 1
                yield line

    verdicts = visit_records(lines(), Replay(), "f.txt")
    first = next(verdicts)
    assert first.ok and first.record == 1
    assert taken < 100
    assert sum(1 for _ in verdicts) == 9_999
