"""The HTML viewer page: self-contained, with every record's tree and positions as JSON."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from notation.cli import cli
from notation.generate import generate_records
from notation.reader import read_file, read_string
from notation.render.html import page_html, record_data, view_delta
from notation.stepper import Stepper
from notation.view import BoardView

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"
DATA_RE = re.compile(
    r'<script type="application/json" id="notation-data">(.*?)</script>', re.DOTALL
)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["html", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def payload(page: str) -> dict[str, Any]:
    found = DATA_RE.findall(page)
    assert len(found) == 1
    data: dict[str, Any] = json.loads(found[0])
    return data


def assert_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.IGNORECASE)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "<script src" not in page
    assert "fetch(" not in page and "XMLHttpRequest" not in page
    # Exactly the data block and the viewer's script.
    assert page.count("<script") == 2 and page.count("</script>") == 2


def apply(before: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """What viewer.js does with a node's view."""
    view = {**before, **delta}
    if "cells" in delta:
        cells = dict(before["cells"])
        for square, cell in delta["cells"].items():
            if cell is None:
                cells.pop(square, None)
            else:
                cells[square] = cell
        view["cells"] = cells
    return view


def test_one_record_makes_one_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    code, stdout, _ = run(str(RECORDS / "cave" / "examples.txt"), "-o", str(out))
    assert code == 0 and stdout == ""
    page = out.read_text(encoding="utf-8")
    assert_self_contained(page)
    data = payload(page)
    records = data["records"]
    assert len(records) == len(list(read_file(RECORDS / "cave" / "examples.txt")))
    first = records[0]
    assert ["Game", "cave"] in first["tags"]
    assert first["game"] == "cave" and first["error"] is None and not first["fatal"]
    assert set(first["start"]) >= {"files", "ranks", "cells", "palette", "marks", "caption"}
    move = first["moves"][0]
    assert (move["text"], move["turn"]) == ("b1", 1)
    assert move["before"] and move["after"]  # the record's comments
    assert "marks" in move["view"] and "cells" in move["view"]
    assert data["glyphs"]["1"] == "!"
    assert "<title>Examples: single duels and a knight team</title>" in page


def test_the_views_rebuild_every_position_of_the_main_line() -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "examples.txt")))
    data = record_data(record).data
    stepper = Stepper(record)
    view = data["start"]
    assert view == stepper.position.board_view().to_dict()
    for node in data["moves"]:
        assert stepper.forward()
        view = apply(view, node["view"])
        assert view == stepper.position.board_view().to_dict()
        assert node["turn"] == stepper.turn


def test_the_page_says_how_tokens_stand_only_when_they_do_not_pile() -> None:
    # The viewer takes the layout from the data (BoardView.token_layout), not from the
    # size of the board; left out for the default, so pages that pile stay as they were.
    view = BoardView(files=("a",), ranks=("1",), cells={}, palette={})
    assert "token_layout" not in view.to_dict()
    spread = replace(view, token_layout="spread").to_dict()
    assert spread["token_layout"] == "spread"
    assert apply(view.to_dict(), view_delta(view.to_dict(), spread)) == spread


def test_view_delta_keeps_what_changed_only() -> None:
    before = {"cells": {"a1": {"role": "x"}, "b1": {"role": "y"}}, "caption": "c", "marks": []}
    after = {"cells": {"a1": {"role": "x"}, "c1": {"role": "z"}}, "caption": "d", "marks": []}
    delta = view_delta(before, after)
    assert delta == {"cells": {"c1": {"role": "z"}, "b1": None}, "caption": "d"}
    assert apply(before, delta) == after


def test_variations_are_kept_with_their_positions() -> None:
    path = CONFORMANCE / "tinkertown-valid.txt"
    record = next(r for r in read_file(path) if any(n.variations for n in r.moves))
    data = record_data(record, "tinkertown").data
    node = next(n for n in data["moves"] if n["variations"])
    variation = node["variations"][0]
    first = variation["moves"][0]
    assert first["turn"] == node["turn"]  # a variation replaces the move it follows
    assert "view" in first


def test_several_files_make_one_page_with_a_record_each() -> None:
    files = [str(RECORDS / g / "examples.txt") for g in ("tinkertown", "cave", "zombie-kidz")]
    code, stdout, _ = run(*files)
    assert code == 0
    assert_self_contained(stdout)
    records = payload(stdout)["records"]
    assert {r["game"] for r in records} == {"tinkertown", "cave", "zombie-kidz"}
    expected = sum(len(list(read_file(f))) for f in files)
    assert len(records) == expected


def test_broken_records_are_shown_up_to_their_bad_move_and_warned_about() -> None:
    code, stdout, stderr = run(str(RECORDS / "tinkertown" / "broken.txt"))
    assert code == 1
    assert "warning: " in stderr and "c9 is not a square" in stderr
    first = payload(stdout)["records"][0]
    assert "c9 is not a square" in first["error"]
    last = first["moves"][-1]
    assert last["text"] == "c9-d1" and "c9 is not a square" in last["error"]
    assert "view" not in last and all("view" in n for n in first["moves"][:-1])


def test_a_record_that_cannot_be_replayed_is_listed_with_its_error() -> None:
    record = read_string("b1 c5 *\n")[0]
    data = record_data(record).data
    assert data["fatal"] and "no Game tag" in data["error"] and data["moves"] == []
    assert record_data(record, "cave").data["moves"][1]["text"] == "c5"


def test_text_from_records_cannot_break_out_of_the_page() -> None:
    evil = '</script><script>alert(1)</script> /*JS*/ <!-- & -->'
    record = read_string(f'[Game "cave"]\n[Event "{evil}"]\n\nb1 {{{evil}}} *\n')[0]
    page = page_html([record_data(record).data], title=evil)
    assert "<script>alert" not in page
    assert page.count("</script>") == 2
    data = payload(page)
    assert data["records"][0]["moves"][0]["after"] == [evil]
    assert ["Event", evil] in data["records"][0]["tags"]
    assert "<title>&lt;/script&gt;" in page


def test_a_long_game_stays_small() -> None:
    record, _ = max(generate_records("tinkertown", 4, 11), key=lambda r: len(r[0].moves))
    assert len(record.moves) >= 300
    page = page_html([record_data(record).data], title="long")
    assert len(page.encode("utf-8")) < 500_000


def test_the_page_is_never_written_over_an_input(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text('[Game "cave"]\n\nb1 *\n', encoding="utf-8")
    code, _, stderr = run(str(path), "-o", str(path))
    assert code == 2 and "is also an input" in stderr
    assert path.read_text(encoding="utf-8").startswith("[Game")


def test_no_records_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n", encoding="utf-8")
    code, _, stderr = run(str(path))
    assert code == 2 and "no records found" in stderr
