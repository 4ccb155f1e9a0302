"""Make the JSON golden files that tests/test_jsonwriter.py compares with, byte for byte.

Run it on the code whose output is the reference (it was run on the code before the
one-visitor rewrite, issue 28), from the repository's root, with that code's python
(``-P``: the package imported is the interpreter's, not the working directory's)::

    /path/to/old/.venv/bin/python -P tests/golden/json/make_golden.py

It writes ``inputs/`` (generated and hand-written record texts, JSON Lines) and
``expected/`` (what ``notation convert --to json`` printed for each input, with and
without ``--repair``, gzipped), and ``built.json.gz`` (the JSON of records built in code).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

from notation.collections.generate import generate_records
from notation.formats.convert import _dumps, convert_record, record_to_json
from notation.games import get_game
from notation.record import Comment, MoveNode, Record
from notation.writer import write_record

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
INPUTS = HERE / "inputs"
EXPECTED = HERE / "expected"
GAMES = ("cave", "tinkertown", "zombie-kidz")

_spec = importlib.util.spec_from_file_location("json_golden_cases", HERE / "cases.py")
assert _spec is not None and _spec.loader is not None
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)


def source_files() -> list[Path]:
    """Every file of records/ and tests/data but scripts, and every input made here."""
    found = [
        path
        for folder in (ROOT / "records", ROOT / "tests" / "data", INPUTS)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix != ".py"
    ]
    return found


#: The options of each run, by the name of its expected file's mode.
MODES = {"json": [], "repair": ["--repair"], "cave": ["--game", "cave", "--repair"]}


def modes_of(path: Path) -> list[str]:
    return ["json", "repair", "cave"] if path.name == "shapes.txt" else ["json", "repair"]


def expected_name(path: Path, mode: str) -> str:
    return str(path.relative_to(ROOT)).replace("/", "__") + f".{mode}.jsonl.gz"


def decorate(record: Record, rng: random.Random) -> None:
    """Variations (some inside others), comments, glyphs and suffixes on ``record``."""
    game = record.game()
    # (the nodes of a line, the texts of the moves before its first)
    lines: list[tuple[list[MoveNode], list[str]]] = [(record.moves, [])]
    for number in range(7):
        nodes, before = lines[0] if number < 3 else rng.choice(lines)
        if len(nodes) < 2:
            continue
        index = rng.randrange(len(nodes) - 1)
        path = before + [node.text for node in nodes[:index]]
        position = record.start_position()
        for text in path:
            position.push(game.parse(text))
        others = [move for move in position.legal_moves() if str(move) != nodes[index].text]
        if not others:
            continue
        moves = [rng.choice(others)]
        position.push(moves[0])
        for _ in range(rng.randrange(5)):
            legal = position.legal_moves()
            if not legal or position.outcome() is not None:
                break
            moves.append(rng.choice(legal))
            position.push(moves[-1])
        variation = record.add_variation(nodes[index], moves)
        if rng.randrange(3) == 0:
            variation.comments = [Comment("variation's end")]
        if rng.randrange(3) == 0:
            variation.comments_before = [Comment("before the variation")]
        lines.append((variation.nodes, path))
    everything = [node for nodes, _ in lines for node in nodes]
    for node in rng.sample(everything, min(8, len(everything))):
        choice = rng.randrange(5)
        if choice == 0:
            node.comment = "a comment"
        elif choice == 1:
            node.suffix = rng.choice(["!?", "!", "??"])
        elif choice == 2:
            node.nags.append(rng.randrange(1, 140))
        elif choice == 3:
            node.comments_before = [Comment("before", after_number=rng.randrange(2) == 1)]
        else:
            node.comments_after = [Comment("semi", braced=False), Comment("braced")]


def make_inputs() -> None:
    INPUTS.mkdir(exist_ok=True)
    (INPUTS / "shapes.txt").write_text("\n".join(cases.SHAPES), encoding="utf-8")
    (INPUTS / "deep.txt").write_text(cases.deep_text(1500), encoding="utf-8")
    rng = random.Random(28)
    for game in GAMES:
        players = 3 if game == "zombie-kidz" else None
        texts = []
        for number, (record, size) in enumerate(generate_records(game, 3, 28, players=players)):
            if number:
                decorate(record, rng)
            texts.append(write_record(record, size))
        text = "\n".join(texts)
        (INPUTS / f"generated-{game}.txt").write_text(text, encoding="utf-8")
        # The same made illegal or misnumbered here and there: broken records.
        broken = text.replace(" 3. ", " 4. ", 1).replace(" 12. ", " 12... ", 2)
        (INPUTS / f"generated-{game}-broken.txt").write_bytes(broken.encode("utf-8"))
        # JSON Lines of them, some moves made illegal (records without their text).
        lines = convert(INPUTS / f"generated-{game}.txt", "json").decode("utf-8").splitlines(True)
        tampered = []
        for number, line in enumerate(lines):
            obj = json.loads(line)
            if number == 1 and "moves" in obj:
                obj["moves"][5]["text"] = obj["moves"][2]["text"]
                obj["moves"][5]["variations"] = obj["moves"][2]["variations"]
            tampered.append(json.dumps(obj, ensure_ascii=False) + "\n")
        with gzip.GzipFile(INPUTS / f"generated-{game}.jsonl.gz", "wb", mtime=0) as out:
            out.write("".join(tampered).encode("utf-8"))
    # Line ends of every kind, a byte-order mark, bytes that are not UTF-8.
    shapes = "\n".join(cases.SHAPES[:4])
    (INPUTS / "crlf.txt").write_bytes(("\ufeff" + shapes).replace("\n", "\r\n").encode("utf-8"))
    (INPUTS / "cp1252.txt").write_bytes(
        b'[Game "cave"]\n[Event "caf\xe9"]\n\n1. b1 {d\xe9j\xe0 vu \x80} b5 *\n'
    )


def convert(path: Path, mode: str) -> bytes:
    command = [sys.executable, "-P", "-m", "notation", "convert", "--to", "json", *MODES[mode]]
    command.append(str(path.relative_to(ROOT)))
    done = subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command}: exit {done.returncode}: {done.stderr.decode()}")
    return done.stdout


def make_expected() -> None:
    EXPECTED.mkdir(exist_ok=True)
    for path in source_files():
        for mode in modes_of(path):
            data = convert(path, mode)
            with gzip.GzipFile(EXPECTED / expected_name(path, mode), "wb", mtime=0) as out:
                out.write(data)


def make_built() -> None:
    out = {}
    for name, record in cases.built_records().items():
        game = record.game() if record.find_tag("Game") is not None else None
        entry = {
            "convert": convert_record(record, "json").text,
            "repair": convert_record(record, "json", repair=True).text,
            "to_json_none": _dumps(record_to_json(record, None)),
        }
        if game is not None:
            entry["to_json"] = _dumps(record_to_json(record, game))
            entry["to_json_default"] = _dumps(record_to_json(record, get_game("cave")))
        out[name] = entry
    with gzip.GzipFile(HERE / "built.json.gz", "wb", mtime=0) as handle:
        handle.write(json.dumps(out, sort_keys=True).encode("ascii"))


if __name__ == "__main__":
    make_inputs()
    make_expected()
    make_built()
