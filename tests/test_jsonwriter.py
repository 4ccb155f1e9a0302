"""JsonWriter writes, byte for byte, the JSON Lines that ``convert --to json`` wrote
before the one-visitor rewrite (issue 28): the golden files of tests/golden/json were
made by that code (see make_golden.py there), from every file of records/ and
tests/data, generated games (decorated with nested variations, comments, glyphs and
suffixes), broken records, unusual characters, JSON Lines and records built in code.

The writer is driven both ways, under a replay from text and from record trees, and
the two must agree with the golden text and with each other.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.errors import MoveSyntaxError
from notation.files.textfile import decoded_lines, open_binary
from notation.formats import jsontext
from notation.formats.convert import order_tags, read_json_records
from notation.formats.jsonwriter import ENCODER, JSON_FORMAT_ID, JsonWriter, record_json_text
from notation.games import get_game
from notation.games.base import Game
from notation.reader import read_records, read_string, visit_records
from notation.record import Record
from notation.replay import Replay, Verdict
from notation.visitor import Skip, walk_record
from tests.test_golden import without_fixes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "golden" / "json"

_spec = importlib.util.spec_from_file_location("json_golden_cases", GOLDEN / "cases.py")
assert _spec is not None and _spec.loader is not None
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)


# -- the conversion, as convert_record did it, with JsonWriter -------------------------


def _repaired_spelling(game: Game[Any], text: str) -> str:
    try:
        return str(game.parse(text))
    except MoveSyntaxError:
        return text


class Converter(JsonWriter):
    """JsonWriter with the tags in canonical order, and (``repair``) the grammar's
    spelling for the moves after a defect."""

    def __init__(self, default_game: str | None, repair: bool) -> None:
        super().__init__(default_game, order_tags=order_tags)
        self.repair = repair

    def end_tags(self, record: Record) -> Skip | None:
        super().end_tags(record)
        game = self.game
        if self.repair and game is not None:
            self.spell = lambda text: _repaired_spelling(game, text)
        else:
            self.spell = None
        return None


def converted_line(
    writer: Converter, record: Record, verdict: Verdict, default_game: str | None
) -> str:
    """The JSON line of ``record``, just replayed with ``writer``."""
    error = verdict.error
    if error is not None and not writer.repair and record.raw is not None:
        obj = {"format": JSON_FORMAT_ID, "raw": record.raw, "ok": False, "error": error.to_dict()}
        return jsontext.dumps(obj) + "\n"
    if writer.game is None:  # no game: the moves as written, without data
        return writer.line(False, error)
    if error is not None and not writer.repair:
        # A broken tree without its text: written as it is, moves as written.
        again = JsonWriter(default_game, canonical=False)
        walk_record(record, Replay(default_game, again))
        return again.line(False, error)
    return writer.line(verdict.ok, error)


def from_text(lines: list[str], source: str, default_game: str | None, repair: bool) -> str:
    writer = Converter(default_game, repair)
    out = []
    for verdict in visit_records(lines, Replay(default_game, writer), source, keep_raw=True):
        assert writer.record is not None
        out.append(converted_line(writer, writer.record, verdict, default_game))
    return "".join(out)


def from_trees(records: Iterator[Record], default_game: str | None, repair: bool) -> str:
    writer = Converter(default_game, repair)
    out = []
    for record in records:
        verdict = walk_record(record, Replay(default_game, writer))
        out.append(converted_line(writer, record, verdict, default_game))
    return "".join(out)


# -- the golden files ------------------------------------------------------------------

#: (--game, --repair) of each mode of the golden files.
MODES = {"json": (None, False), "repair": (None, True), "cave": ("cave", True)}


def _golden_cases() -> list[tuple[str, str]]:
    found = []
    for expected in sorted((GOLDEN / "expected").glob("*.jsonl.gz")):
        name, mode = expected.name.removesuffix(".jsonl.gz").rsplit(".", 1)
        found.append((name.replace("__", "/"), mode))
    return found


def _same(actual: str, expected: str, what: str) -> None:
    # The golden files were made before defects had fixes.
    actual, expected = without_fixes(actual), without_fixes(expected)
    if actual == expected:
        return
    got, want = actual.splitlines(True), expected.splitlines(True)
    for number, (a, b) in enumerate(zip(got, want, strict=False), 1):
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(b))
            pytest.fail(
                f"{what}: line {number} differs at {at}:\n  got  {a[max(0, at - 80):at + 80]!r}"
                f"\n  want {b[max(0, at - 80):at + 80]!r}"
            )
    pytest.fail(f"{what}: {len(got)} lines, the golden file has {len(want)}")


def test_the_golden_files_are_there() -> None:
    names = {name for name, _ in _golden_cases()}
    for folder in ("records", "tests/data"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix != ".py":
                assert str(path.relative_to(ROOT)) in names
    assert len(names) >= 30


@pytest.mark.parametrize(("name", "mode"), _golden_cases())
def test_json_lines_are_the_old_ones_byte_for_byte(name: str, mode: str) -> None:
    with gzip.open(GOLDEN / "expected" / f"{name.replace('/', '__')}.{mode}.jsonl.gz") as f:
        expected = f.read().decode("utf-8", "surrogatepass")
    default_game, repair = MODES[mode]
    with open_binary(ROOT / name) as handle:
        lines = list(decoded_lines(handle, lambda: None))
    if name.endswith(".jsonl.gz"):
        records = read_json_records(lines, name, errors="raise")
        _same(from_trees(records, default_game, repair), expected, f"{name} ({mode}), trees")
        return
    text = from_text(lines, name, default_game, repair)
    _same(text, expected, f"{name} ({mode}), from text")
    trees = from_trees(read_records(lines, name, keep_raw=True), default_game, repair)
    _same(trees, expected, f"{name} ({mode}), from trees")


def _built() -> dict[str, dict[str, str]]:
    with gzip.open(GOLDEN / "built.json.gz") as f:
        loaded: dict[str, dict[str, str]] = json.loads(f.read())
    return loaded


@pytest.mark.parametrize("name", sorted(_built()))
def test_records_built_in_code(name: str) -> None:
    expected = _built()[name]
    record = cases.built_records()[name]
    _same(from_trees(iter([record]), None, False), expected["convert"], f"{name}: convert")
    _same(from_trees(iter([record]), None, True), expected["repair"], f"{name}: repair")
    _same(record_json_text(record, None), expected["to_json_none"], f"{name}: no game")
    if "to_json" in expected:
        game = record.game()
        _same(record_json_text(record, game), expected["to_json"], f"{name}: record_to_json")
        cave = get_game("cave")
        _same(record_json_text(record, cave), expected["to_json_default"], f"{name}: cave")
        assert jsontext.loads(record_json_text(record, game))["game"] == game.name


# -- the two drivers, and what the golden files cannot show ----------------------------


def _generated_text(game: str, seed: int) -> str:
    from notation.collections.generate import generate_records
    from notation.writer import write_record

    players = 3 if game == "zombie-kidz" else None
    rng = random.Random(seed)
    texts = []
    for record, size in generate_records(game, 4, seed, players=players):
        for node in rng.sample(record.moves, min(5, len(record.moves))):
            node.nags.append(rng.randrange(1, 9))
        record.moves[len(record.moves) // 2].comment = "half way"
        texts.append(write_record(record, size))
    return "\n".join(texts)


@pytest.mark.parametrize("game", ["cave", "tinkertown", "zombie-kidz"])
def test_text_and_trees_agree(game: str) -> None:
    text = _generated_text(game, 5)
    for variant in (text, text.replace(" 5. ", " 6. ", 1)):
        lines = variant.splitlines(True)
        for repair in (False, True):
            streamed = from_text(lines, "x", None, repair)
            trees = from_trees(read_records(lines, "x", keep_raw=True), None, repair)
            assert streamed == trees


def test_a_writer_serves_record_after_record() -> None:
    text = "".join(cases.SHAPES)
    writer = JsonWriter(order_tags=order_tags)
    lines = io.StringIO(text, newline=None).readlines()  # as read_string reads it
    together = [
        writer.line(v.ok, v.error) for v in visit_records(lines, Replay(None, writer))
    ]
    alone = []
    for record in read_string(text):
        one = JsonWriter(order_tags=order_tags)
        verdict = walk_record(record, Replay(None, one))
        alone.append(one.line(verdict.ok, verdict.error))
    assert together == alone


def test_end_record_gives_the_object() -> None:
    record = read_string('[Game "cave"]\n\n1. b1 {x} (1. c1) b5 * {after}\n')[0]
    writer = JsonWriter()
    obj = walk_record(record, Replay(None, writer))
    assert isinstance(obj, Verdict)
    text = writer.end_record(record)  # again: the same object
    loaded = json.loads(text)
    assert loaded["comments_after_result"] == [{"text": "after", "braced": True}]
    assert json.loads(writer.line(True, None))["ok"] is True
    assert writer.line(True, None) == text[:-1] + ', "ok": true, "error": null}\n'


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain",
        "caf\u00e9 \U0001f600 \u2028 \u2029 \u0085 \x7f \x00 \x1f \t \n \r \\ \" /",
        "\ud800",
        "\udfff lone",
        "\ud83d\ude00 a pair",
        "".join(map(chr, range(0, 0x800))),
    ],
)
def test_strings_are_encoded_as_the_encoder_does(text: str) -> None:
    """JsonWriter writes the strings it puts together itself with the function the
    encoder uses (ensure_ascii=False): the same text, whatever the characters."""
    encode_string = json.encoder.encode_basestring
    assert ENCODER.encode(text) == encode_string(text)
    assert ENCODER.encode({"a": [text]}) == '{"a": [' + encode_string(text) + "]}"
    assert json.dumps(text, ensure_ascii=False) == encode_string(text)
