"""Every output is what the code before the one reading loop made, byte for byte.

Before issue 28, ``check``, ``convert`` and ``annotate`` each had a tree path and a
streaming path, held equal by equivalence tests.  Their corpora (generated games plain,
decorated with comments, glyphs and variations, misnumbered; the edge cases; every
bundled record file; records built in code) and what the old code made of them are in
``tests/golden/`` (``make.py`` made them, run on the old code): the verdicts, strict
verdicts, the three conversions with and without ``--repair``, and the annotations with
and without diagrams and analysis, without a default game and with ``cave``.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from notation.formats.convert import read_json_records
from notation.writer import layout, write_record
from tests.golden.make import GAMES, outputs

GOLDEN = Path(__file__).resolve().parent / "golden"
CORPORA = sorted((GOLDEN / "corpora").glob("*.txt"))

#: A defect's fixes in JSON (``, "fixes": [{...}, ...]``): values the old code did not
#: have, so not in its outputs (tests/test_defect_fixes.py holds them to account).  Their
#: strings hold no brace: titles, moves, results, tag and game names.
_FIXES = re.compile(r', "fixes": \[(?:\{[^{}]*\}(?:, )?)*\]')


def without_fixes(output: str) -> str:
    """``output`` with the fixes of its defects taken out of its JSON."""
    return _FIXES.sub("", output)


def golden(name: str) -> str | None:
    path = GOLDEN / "out" / f"{name}.gz"
    if not path.exists():
        return None
    return gzip.decompress(path.read_bytes()).decode("utf-8", errors="surrogateescape")


def test_the_corpora_are_there() -> None:
    names = {path.stem for path in CORPORA}
    assert {"edges", "plain-cave", "decorated-tinkertown", "misnumbered-zombie-kidz"} <= names
    assert any(name.startswith("records-") for name in names)


@pytest.mark.parametrize("path", CORPORA, ids=lambda path: path.stem)
def test_outputs_are_the_old_ones(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    plain = outputs(text, None)
    for default, made in ((None, plain), ("cave", outputs(text, "cave"))):
        for kind, output in made.items():
            suffix = "" if default is None else f"-{default}"
            expected = golden(f"{path.stem}{suffix}.{kind}")
            # make.py keeps an output once where it is the same as without a default
            # game, or without --repair.
            if expected is None and kind.endswith("-repair"):
                expected = golden(f"{path.stem}{suffix}.{kind.removesuffix('-repair')}")
            if expected is None and default is not None:
                expected = golden(f"{path.stem}.{kind}")
                if expected is None and kind.endswith("-repair"):
                    expected = golden(f"{path.stem}.{kind.removesuffix('-repair')}")
            assert expected is not None, f"no golden output for {path.stem}{suffix}.{kind}"
            assert without_fixes(output) == without_fixes(expected), f"{path.stem}{suffix}.{kind}"


@pytest.mark.parametrize("game", GAMES)
def test_records_built_in_code_are_written_as_before(game: str) -> None:
    lines = (GOLDEN / "corpora" / f"built-{game}.jsonl").read_text(encoding="utf-8")
    written = []
    for record in read_json_records(lines.splitlines(keepends=True), errors="raise"):
        size = layout(record)[0]
        for width in (79, 20, 3):
            written.append(write_record(record, size, width, 1) + "\x00")
    assert "".join(written) == golden(f"built-{game}.widths")
