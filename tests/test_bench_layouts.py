"""The layouts the benchmark reads (bench/layouts.py) keep the records as they are.

``bench/run.py`` and ``bench/compare_old.py`` time every command on the same records
laid out as users have them; the figures only compare if a layout changes nothing a
record means.  Here, on generated records of every game and the bundled examples:
every layout gets the same verdicts as the canonical text; the layouts that add
nothing convert back (``notation convert --to text``) to the canonical bytes; the rich
layout converts to the same bytes as itself with every move in the canonical case.
And each layout is what it says it is.  Nothing here is timed.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

_spec = importlib.util.spec_from_file_location("bench_layouts", ROOT / "bench" / "layouts.py")
assert _spec is not None and _spec.loader is not None
layouts = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = layouts  # its dataclass looks its module up there
_spec.loader.exec_module(layouts)

#: Generated records of each game, and the bundled ones that check (all do but those
#: meant to be broken): positions.ugn starts records from a position, mid-round.
SOURCES = [
    ("generated", "tinkertown"),
    ("generated", "cave"),
    ("generated", "zombie-kidz"),
    *[(str(RECORDS / game / name), game)
      for game in ("tinkertown", "cave", "zombie-kidz")
      for name in ("examples.ugn", "positions.ugn")],
]


def notation(*args: str) -> bytes:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout_bytes


def canonical_text(source: str, game: str, folder: Path) -> Path:
    """The records as ``convert --to text`` writes them: the canonical layout."""
    raw = folder / "raw.ugn"
    if source == "generated":
        players = ["--players", "3"] if game == "zombie-kidz" else []
        notation("generate", "--game", game, "--games", "12", "--seed", "3",
                 *players, "-o", str(raw))
    else:
        raw.write_bytes(Path(source).read_bytes())
    path = folder / "canonical.ugn"
    path.write_bytes(notation("convert", "--to", "text", str(raw)))
    return path


def verdicts(path: Path) -> list[dict[str, object]]:
    lines = notation("check", "-v", "--format", "json", str(path)).splitlines()
    found = [json.loads(line) for line in lines]
    for verdict in found:
        del verdict["file"]
    return found


@pytest.mark.parametrize(("source", "game"), SOURCES, ids=lambda v: Path(v).name)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_layout_means_what_the_canonical_text_means(
    source: str, game: str, seed: int, tmp_path: Path
) -> None:
    canonical = canonical_text(source, game, tmp_path)
    text = canonical.read_text(encoding="utf-8")
    expected = verdicts(canonical)
    assert expected and all(v["ok"] for v in expected)
    for layout in layouts.LAYOUTS:
        path = tmp_path / f"{layout}.ugn"
        path.write_text(layouts.lay_out(layout, text, seed), encoding="utf-8")
        assert verdicts(path) == expected, layout
        converted = notation("convert", "--to", "text", str(path))
        if layout in layouts.PLAIN_LAYOUTS:
            assert converted == canonical.read_bytes(), layout
        else:
            reference = tmp_path / "reference.ugn"
            reference.write_text(layouts.rich(text, seed, mixed_case=False), encoding="utf-8")
            assert converted == notation("convert", "--to", "text", str(reference))


def movetext_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("[")]


def generated(tmp_path: Path) -> str:
    return canonical_text("generated", "tinkertown", tmp_path).read_text(encoding="utf-8")


def test_the_wrapped_layout_breaks_lines_after_move_numbers(tmp_path: Path) -> None:
    text = generated(tmp_path)
    lines = movetext_lines(layouts.lay_out("wrapped", text))
    assert max(len(line) for line in lines) <= 80
    assert any(re.search(r"\d+\.$", line) for line in lines)
    assert not any(re.search(r"\d+\.$", line) for line in movetext_lines(text))


def test_the_token_layout_has_one_token_per_line(tmp_path: Path) -> None:
    text = generated(tmp_path)
    lines = movetext_lines(layouts.lay_out("token-lines", text))
    assert lines and all(" " not in line for line in lines)
    assert sum(len(line.split()) for line in movetext_lines(text)) == len(lines)


def test_the_rich_layout_has_what_annotated_files_have(tmp_path: Path) -> None:
    text = generated(tmp_path)
    laid = layouts.lay_out("rich", text, 1)
    assert laid == layouts.lay_out("rich", text, 1)  # seeded
    assert laid != layouts.lay_out("rich", text, 2)
    for mark in ("{", ";", "$", "(", "\n%", "!", "?"):
        assert mark in laid, mark
    assert re.search(r"\([^()]*\(", laid), "a nested variation"
    assert re.search(r"\b[A-H][1-8]", laid) and re.search(r"\b[a-h][1-8]", laid)
    assert re.search(r"\d+\.\.\. ", laid), "the main line resumes after a note"
    widths = [len(line) for line in movetext_lines(laid) if not line.startswith("%")]
    assert min(widths) < 80 < max(widths) <= 255
    assert movetext_lines(text) != movetext_lines(laid)
