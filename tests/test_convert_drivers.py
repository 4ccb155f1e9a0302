"""Converting and annotating write the same driven from text as from a record tree.

``notation convert`` and ``notation annotate`` read record text with
:func:`notation.formats.convert.convert_lines` and
:func:`notation.formats.annotate.annotate_lines`: the replay and the writer run on the
reader's events, no tree built. :func:`notation.formats.convert.convert_record` and
:func:`notation.formats.annotate.annotate_record` run the same visitors on each record
that ``read_records(..., keep_raw=True)`` yields: the texts, errors and flags must be
equal, in every format, on the same inputs as the check's (bundled files, generated
games plain and decorated, edges, mutated records).
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from notation.formats import convert as convert_module
from notation.formats.annotate import AnnotateOptions, annotate_lines, annotate_record
from notation.formats.convert import Converted, convert_lines, convert_record
from notation.reader import read_records
from tests.test_drivers import FILES, MIXED, _game_of, _plain_text, decorated_text, mixed
from tests.test_fuzz import GAMES, Seed, fuzz

#: The formats of convert, and annotate.
KINDS = ("text", "plain", "json", "annotate")


def tree_path(text: str, kind: str, default_game: str | None = None) -> list[Converted]:
    records = read_records(io.StringIO(text, newline=""), "f.txt", keep_raw=True)
    if kind == "annotate":
        return [annotate_record(record, None, default_game) for record in records]
    return [convert_record(record, kind, default_game) for record in records]


def streamed(text: str, kind: str, default_game: str | None = None) -> list[Converted]:
    lines = io.StringIO(text, newline="").readlines()
    if kind == "annotate":
        return list(annotate_lines(lines, "f.txt", None, default_game))
    return list(convert_lines(lines, "f.txt", kind, default_game))


def assert_same(text: str, default_game: str | None = None) -> None:
    for kind in KINDS:
        # Converted compares the text, the error (every field of it) and the flags.
        assert streamed(text, kind, default_game) == tree_path(text, kind, default_game), kind


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_bundled_files(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    assert_same(text)
    assert_same(text, _game_of(path))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_generated_games_are_written_without_a_tree(
    game: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _plain_text(game, 30, 7)
    tree = tree_path(text, kind)
    assert len(tree) == 30 and all(converted.error is None for converted in tree)

    def no_tree(*args: Any, **kwargs: Any) -> Converted:
        raise AssertionError("a plain record was read into a tree")

    monkeypatch.setattr(convert_module, "walk_record", no_tree)
    if kind != "annotate":  # annotate_lines: a streaming annotate is to come
        assert streamed(text, kind) == tree


@pytest.mark.parametrize("game", GAMES)
def test_generated_games_with_variations_and_comments(game: str) -> None:
    text = decorated_text(game, 16, 13, random.Random(5))
    assert_same(text)
    broken = text.replace(" 3. ", " 4. ", 5)
    assert broken != text
    assert_same(broken)
    # Annotated records (comments on every move) annotated again, and converted.
    annotated = "\n".join(converted.text for converted in tree_path(text, "annotate"))
    assert_same(annotated)


@pytest.mark.parametrize(
    "text",
    [
        '[Game "cave"]\n[Termination "old"]\n[Event "e"]\n\n1. b1 a5 2. b1-b2 b5 *\n',
        '[Game "cave"]\n[Termination "a"]\n[Termination "b"]\n\n1. b1 a5 *\n',
        '[Result "*"]\n[Site "s"]\n[Game "Cave"]\n[Red "r"]\n[Event "e"]\n[Site "t"]\n\n'
        "1. b1 a5 *\n",
        '[Game "zombie_kidz"]\n[Players "3"]\n\n1. R 2. R 3. R *\n',
        '[Game "cave"]\n\n*\n',
        '[Game "cave"]\n\n1. b1 a5 0-1\n',
        '[Game "cave"]\n\n1. b1 a5 2. b1-b2 b5 3. b2-b1 b5-a5 4. b1-b2 a5-b5 5. b2-b1 '
        "b5-a5 6. b1-b2 a5-b5 7. b2-b1 b5-a5 8. b1-b2 a5-b5 9. b2-b1 b5-a5 10. b1-b2 *\n",
        '[Game "cave"]\n\n1. b1 a5 *\n\n[Game "cave"]\n\n1. b1 a5 * {after}\n',
        "\ufeff[Game \"cave\"]\n\n1. b1 a5 *\n",
        '[Game "cave"]\r\n\r\n1. b1 a5 *\r\n\r\n[Game "cave"]\r\n\r\n1. b1 a5 *\r\n',
        '[Game "cave"]\n\n1. b1 a5 2. b1-b9 *\n\n[Game "cave"]\n\n1. b1 a5 *\n',
        "1. b1 a5 *\n",
    ],
)
def test_edges(text: str) -> None:
    assert_same(text)
    assert_same(text, "cave")


@fuzz(2.0)
@given(**MIXED)
def test_mutated_records(parts: list[Seed], plain: str, where: int, default: str | None) -> None:
    assert_same("\n".join(mixed(parts, plain, where)), default)


def test_annotate_options_and_json_lines_take_the_tree_path() -> None:
    text = _plain_text("tinkertown", 3, 2)
    options = AnnotateOptions(diagrams=4)
    records = list(read_records(io.StringIO(text), "f.txt", keep_raw=True))
    expected = [annotate_record(record, options) for record in records]
    assert list(annotate_lines(io.StringIO(text), "f.txt", options)) == expected
    assert "[%diagram 4]" in expected[0].text
    jsonl = "".join(convert_record(record, "json").text for record in records)
    annotated = list(annotate_lines(io.StringIO(jsonl), "f.jsonl"))
    assert [c.text for c in annotated] == [c.text for c in tree_path(text, "annotate")]


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        list(convert_lines([], None, "yaml"))
