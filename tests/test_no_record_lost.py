"""No command loses, duplicates or alters a record.

Files are built from valid records and records with one defect, in any order, with
and without tags, with comments and variations, separated by blank lines or not.
``convert``, ``annotate`` and ``annotate --in-place`` must give out exactly as many
records as ``check`` reads in, with the same verdicts in the same order, and every
broken record's text must appear in the output byte for byte.
"""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.cli import cli
from notation.collections.generate import generate_records
from notation.formats.convert import read_json_records
from notation.reader import read_records
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tinkertown", "cave", "zombie-kidz")


@cache
def valid_records(game: str) -> tuple[str, ...]:
    """Record texts of ``game``: the bundled examples (comments, variations) and a few
    short generated games."""
    texts = [
        r.raw
        for r in read_records(
            io.StringIO((ROOT / "records" / game / "examples.ugn").read_text()), keep_raw=True
        )
        if r.raw is not None
    ]
    generated = "".join(write_records(generate_records(game, 3, seed=11, max_turns=12)))
    texts += [r.raw for r in read_records(io.StringIO(generated), keep_raw=True) if r.raw]
    return tuple(text.rstrip("\n") for text in texts)


def _without_tags(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.startswith("[")).strip("\n")


def _defect(draw: st.DrawFn, text: str) -> str:
    """``text`` with one defect: a bad move, a lost result, an unclosed bracket..."""
    head, sep, movetext = text.rpartition("\n\n")
    tokens = movetext.split(" ")
    kind = draw(st.sampled_from(["move", "result", "brace", "paren", "number", "illegal"]))
    if kind == "result":
        movetext = movetext.rstrip().rsplit(" ", 1)[0] if " " in movetext else ""
    elif kind == "brace":
        movetext = movetext.rstrip() + " {never closed"
    elif kind == "paren":
        movetext = movetext.replace(" ", " ( ", 1) if " " in movetext else "( *"
    else:
        moves = [i for i, t in enumerate(tokens) if t and t[0].isalpha()]
        if not moves:
            return text + " zz9"
        index = draw(st.sampled_from(moves))
        tokens[index] = {"move": "zz9", "illegal": tokens[0] if tokens[0] else "a1",
                         "number": "99. " + tokens[index]}[kind]
        movetext = " ".join(tokens)
    return head + sep + movetext


@st.composite
def files(draw: st.DrawFn) -> tuple[str, str]:
    """(the game, a file's text)."""
    game = draw(st.sampled_from(GAMES))
    pool = valid_records(game)
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        text = draw(st.sampled_from(pool))
        if draw(st.booleans()):
            text = _without_tags(text)
        if draw(st.booleans()):
            text = _defect(draw, text)
        if parts:
            parts.append(draw(st.sampled_from(["\n\n", "\n\n\n", "\n", " "])))
        parts.append(text)
    ending = draw(st.sampled_from(["\n", "", "\n\n", "\r\n"]))
    return game, "".join(parts) + ending


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout_bytes.decode()  # .stdout turns \r\n into \n


def verdicts(path: Path, game: str) -> list[tuple[bool, str | None]]:
    code, out = run("check", "--game", game, "--format", "json", str(path))
    assert code in (0, 1)
    lines = [json.loads(line) for line in out.splitlines()]
    return [
        (v["ok"], v["error"]["kind"] if v["error"] else None)
        for v in lines
        if isinstance(v.get("record"), int)
    ]


def broken_texts(path: Path, game: str) -> list[str]:
    from notation.replay import check_record

    texts = []
    with open(path, encoding="utf-8", newline="") as handle:
        for record in read_records(handle, keep_raw=True):
            if not check_record(record, game).ok:
                assert record.raw is not None
                texts.append(record.raw)
    return texts


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(files())
def test_convert_and_annotate_keep_every_record(tmp_path: Path, case: tuple[str, str]) -> None:
    game, text = case
    source = tmp_path / "in.txt"
    source.write_bytes(text.encode())
    before = verdicts(source, game)
    broken = broken_texts(source, game)
    outputs = {}
    for name, args in {
        "text": ("convert", "--to", "text"),
        "plain": ("convert", "--to", "plain"),
        "annotate": ("annotate",),
    }.items():
        _, out = run(*args, "--game", game, str(source))
        outputs[name] = out
    in_place = tmp_path / "in-place.txt"
    in_place.write_bytes(text.encode())
    run("annotate", "--in-place", "--game", game, str(in_place))
    outputs["in-place"] = in_place.read_bytes().decode()
    for name, out in outputs.items():
        target = tmp_path / f"{name}.txt"
        target.write_bytes(out.encode())
        after = verdicts(target, game)
        if name != "plain":  # plain drops variations: a verdict may only improve
            assert after == before, (name, text, out)
        else:
            assert len(after) == len(before), (name, text, out)
        for raw in broken:
            assert raw in out, (name, raw, out)
    # And through JSON: every record goes in and comes back.
    _, as_json = run("convert", "--to", "json", "--game", game, str(source))
    assert len(list(read_json_records(io.StringIO(as_json)))) == len(before)
    back = tmp_path / "back.jsonl"
    back.write_text(as_json)
    _, again = run("convert", "--to", "text", "--game", game, str(back))
    assert again == outputs["text"]


def test_two_records_without_tags_both_survive(tmp_path: Path) -> None:
    """The case from the report: the second record was dropped, and deleted in place."""
    source = tmp_path / "two.txt"
    source.write_text("1. b1 b5 *\n\n1. a1 a5 2. a1-a2\n")
    code, out = run("convert", "--to", "text", "--game", "cave", str(source))
    assert code == 1
    assert out.endswith("1. b1 b5 *\n\n1. a1 a5 2. a1-a2\n")
    run("annotate", "--in-place", "--game", "cave", str(source))
    assert source.read_text().endswith("\n\n1. a1 a5 2. a1-a2\n")


def test_a_record_starting_after_a_result_on_the_same_line_keeps_its_own_text() -> None:
    text = "1. b1 b5 * {done} 1. a1 a5 2. a1-a2\r\n\r\n"
    first, second = read_records(io.StringIO(text, newline=""), keep_raw=True)
    assert first.raw == "1. b1 b5 * {done}"
    assert second.raw == "1. a1 a5 2. a1-a2\r\n"


def test_converting_from_json_reads_every_line() -> None:
    generated = "".join(write_records(generate_records("cave", 300, seed=3, max_turns=30)))
    result = CliRunner().invoke(cli, ["convert", "--to", "json", "-"], input=generated)
    assert result.stdout.count("\n") == 300
    back = CliRunner().invoke(cli, ["convert", "--to", "text", "-"], input=result.stdout)
    assert back.exit_code == result.exit_code
    assert back.stdout.count('[Game "cave"]') == 300


def test_several_records_on_one_line_each_keep_their_own_text() -> None:
    text = "6. Y 0-1 (0-1 (0-1 ))\n"
    records = list(read_records(io.StringIO(text), keep_raw=True))
    assert [r.raw for r in records] == ["6. Y 0-1", "(0-1", "(0-1", "))\n"]
