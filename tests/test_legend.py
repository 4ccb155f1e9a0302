"""A game's own words in the legends: ``BoardView.legend``, used by the SVG picture, the
HTML page and the terminal replayer, none of which knows a game."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import notation.tui.legend as tui_legend
from notation.cli import cli
from notation.games import get_game
from notation.games.cave.describe import BOARD_LEGEND as CAVE_LEGEND
from notation.games.tinkertown.strings import BOARD_LEGEND as TINKERTOWN_LEGEND
from notation.games.view import NO_WORDS, NOTE_KEY, PATH_KEY, STACK_KEY, BoardView, Cell, Token
from notation.games.zombie_kidz.describe import BOARD_LEGEND as ZOMBIE_KIDZ_LEGEND
from notation.reader import read_file
from notation.render.legend import legend_entries
from notation.render.record_svg import draw_position
from notation.render.terminal import render_plain
from notation.stepper import Stepper
from notation.tui.legend import legend_renderable, legend_rows

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
LEGENDS = {
    "tinkertown": TINKERTOWN_LEGEND,
    "cave": CAVE_LEGEND,
    "zombie-kidz": ZOMBIE_KIDZ_LEGEND,
}
# Positions with something of everything: (record, turn) of each game's examples.
AT = {"tinkertown": (2, 57), "cave": (3, 38), "zombie-kidz": (1, 12)}


def stepper_at(game: str, record: int, turn: int) -> Stepper:
    found = list(read_file(RECORDS / game / "examples.ugn"))[record - 1]
    stepper = Stepper(found)
    assert stepper.goto_turn(turn)
    return stepper


def view_at(game: str, record: int, turn: int) -> BoardView:
    return stepper_at(game, record, turn).cursor.position.board_view()


def plain(renderable: Any, width: int = 200) -> str:
    return " ".join(render_plain(renderable, width=width).split())


# -- the field -------------------------------------------------------------------------


def test_a_view_without_words_has_an_empty_shared_mapping_and_says_nothing_of_it() -> None:
    view = BoardView(("a",), ("1",), {"a1": Cell("a1", "floor")}, {"floor": "#808080"})
    assert view.legend is NO_WORDS and not view.legend
    data = view.to_dict()
    assert "legend" not in data and "detail" not in data["cells"]["a1"]
    words = {"floor": "the cave floor"}
    detailed = dataclasses.replace(
        view, cells={"a1": Cell("a1", "floor", detail="cold")}, legend=words
    )
    data = detailed.to_dict()
    assert data["legend"] == words and data["cells"]["a1"]["detail"] == "cold"
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("game", list(LEGENDS))
def test_each_game_gives_its_words_in_its_view(game: str) -> None:
    # Tinkertown's words are in strings.py, given by its board_view().
    view = view_at(game, *AT[game])
    assert view.legend == LEGENDS[game]
    assert view.to_dict()["legend"] == dict(LEGENDS[game])


@pytest.mark.parametrize("game", list(LEGENDS))
def test_every_key_follows_the_scheme(game: str) -> None:
    palette = get_game(game).new_position().board_view().palette
    roles = set(palette) | {f"pawn-{p}" for p in range(1, 5)}
    for key, words in LEGENDS[game].items():
        assert words and words == words.strip(), key
        role, colon, sample = key.partition(":")
        if not colon:
            assert role in roles or role in (NOTE_KEY, PATH_KEY), key
        else:
            assert sample, key
            assert role in roles or role in (NOTE_KEY, STACK_KEY), key


def test_the_terminal_legend_knows_no_game() -> None:
    assert not hasattr(tui_legend, "ROLES") and not hasattr(tui_legend, "TOKENS")
    source = Path(tui_legend.__file__).read_text(encoding="utf-8").lower()
    for name in ("tinkertown", "zombie-kidz", "kzs", "chapel", "knight"):
        assert name not in source, name


# -- the words in each renderer --------------------------------------------------------


def svg_legend_text(svg: str) -> str:
    legend = svg[svg.index('<g class="legend">'):]
    return " ".join(" ".join(re.findall(r">([^<>]+)</text>", legend)).split())


def record(game: str, number: int) -> Any:
    return list(read_file(RECORDS / game / "examples.ugn"))[number - 1]


def test_the_cave_svg_explains_its_notes_and_tokens() -> None:
    # a1, c1: Red teams of 2 never shown (=Z); a4: a Black team of 3 (=K); d1: a Red
    # piece never shown (KZS); a2: a Black one (ZS); c2: Black's knight, shown.
    text = svg_legend_text(draw_position(record("cave", 3), turn=38).svg)
    assert "Red's home row (Red enters here)" in text
    assert "a Red piece never shown" in text  # Red shows only r? tokens
    assert "Black's pieces: ? until a fight shows K, Z or S" in text
    assert "b? bK" not in text  # the swatch shows a label; the line ends in words
    assert (
        "what a hidden piece may still be: K black knight, Z zombie, S skeleton "
        "(the odds are in the facts); or how a team fights"
    ) in text
    assert "=K a team of 3 fights as the black knight" in text
    assert "=Z a team of 2 fights as a zombie" in text
    assert "a square" in text


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("tinkertown", ("a tombstone: the grave is closed", "a white zombie",
                        "the grave's capacity (zombies it holds before a capture)")),
        ("zombie-kidz", ("the yellow tomb", "player 1's pawn", "a path between zones",
                         "the zombies on the zone")),
    ],
)
def test_the_other_games_svg_use_their_words(game: str, words: tuple[str, ...]) -> None:
    text = svg_legend_text(draw_position(record(game, AT[game][0]), turn=AT[game][1]).svg)
    for phrase in words:
        assert phrase.replace("'", "&#x27;") in text or phrase in text, phrase


def test_the_html_page_gives_the_cave_words_once(tmp_path: Path) -> None:
    # Record 3 of the examples alone (each record starts with its Game tag).
    text = (RECORDS / "cave" / "examples.ugn").read_text(encoding="utf-8")
    records = re.split(r"\n(?=\[Game )", text)
    source, page = tmp_path / "one.txt", tmp_path / "cave.html"
    source.write_text(records[2].strip() + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["html", str(source), "-o", str(page), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert "Examples: random legal play" in html
    # In the record's legend, once: not with every turn.
    for phrase in ("a team of 2 fights as a zombie", "a team of 3 fights as the black knight",
                   "Black enters here", "until a fight shows K, Z or S",
                   "what a hidden piece may still be: K black knight"):
        assert html.count(phrase) == 1, phrase


def test_the_terminal_legend_lists_the_cave_words() -> None:
    stepper = stepper_at("cave", 1, 20)
    view = stepper.cursor.position.board_view()
    out = render_plain(legend_renderable(view, stepper.game.name), width=200)
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert "r? a Red piece never shown" in lines
    assert "b? a Black piece never shown" in lines
    assert "r? rZ a team, bottom to top" in lines
    assert (
        "KZS note: what a hidden piece may still be: K black knight, Z zombie, "
        "S skeleton (the odds are in the facts); or how a team fights"
    ) in lines
    assert "=Z note: a team of 2 fights as a zombie" in lines
    assert "=K note: a team of 3 fights as the black knight" in lines
    assert any(line.endswith("Red's home row (Red enters here)") for line in lines)
    # The same at the start, with no piece on the board: a reference for the game.
    start = get_game("cave").new_position().board_view()
    assert render_plain(legend_renderable(start), width=200) == out


def test_the_terminal_legend_of_tinkertown_and_zombie_kidz() -> None:
    tinkertown = plain(legend_renderable(view_at("tinkertown", *AT["tinkertown"])))
    assert "W a white zombie R a red zombie WRW a stack, bottom to top" in tinkertown
    assert "3 note: the grave's capacity" in tinkertown
    assert "a grave whose group stands above capacity" not in tinkertown  # none above
    zombies = plain(legend_renderable(view_at("zombie-kidz", *AT["zombie-kidz"])))
    assert "Z a zombie L a lock: the gate is locked 1 player 1's pawn 2 player 2's pawn" in zombies
    assert "player 3's pawn" not in zombies  # a game of two players
    assert "Paths a path between zones (listed under Facts)" in zombies


# -- a game without words: the generic legend ------------------------------------------


def test_a_game_without_words_gets_the_generic_legend() -> None:
    from fourth_game import GAME  # tests/fourth_game: Grave Nim, which gives no words

    position = GAME.new_position()
    view = position.board_view()
    assert view.legend is NO_WORDS
    entries = {(e.kind, e.role): e.text for e in legend_entries([view])}
    assert entries[("cell", "grave")] == "grave"
    assert entries[("token", "zombie")] == "zombie"
    assert entries[("note", "")].startswith("note in the corner")
    rows = legend_rows(view)
    assert rows == [("Z", "zombie", "zombie")]
    out = plain(legend_renderable(view))
    assert "grave" in out and "Z zombie" in out and "[ ] the squares of the last move" in out


def test_words_for_some_marks_only() -> None:
    # What the words leave out is named after its role; a token's words are used when
    # one of its role and label is drawn.
    palette = {"floor": "#808080", "wall": "#202020", "red": "#c0392b", "blue": "#2060c0"}
    cells = {
        "a1": Cell("a1", "floor", (Token("red", "r"), Token("red", "R")), note="2"),
        "b1": Cell("b1", "wall", (Token("blue", "b"),), note="x"),
    }
    words = {"floor": "the floor", "red:r": "a small red", "blue:b": "a blue one",
             "note:x": "an x", "stack:r R": "a pile"}
    view = BoardView(("a", "b"), ("1",), cells, palette, legend=words)
    texts = {(e.kind, e.role): e.text for e in legend_entries([view])}
    assert texts[("cell", "floor")] == "the floor" and texts[("cell", "wall")] == "wall"
    # A label or a note with words of its own gets a line of its own, after the role's
    # or the notes' general line; no line ends in a list of labels or notes.
    lines = [(e.kind, e.role, e.sample, e.text) for e in legend_entries([view])]
    assert ("token", "red", "r", "red") in lines and ("token", "red", "r", "a small red") in lines
    assert texts[("token", "blue")] == "a blue one"
    assert [line for line in lines if line[0] == "note"] == [
        ("note", "", "2", "note in the corner"), ("note", "", "x", "an x"),
    ]
    rows = legend_rows(view)
    assert rows == [
        ("r", "red", "a small red"), ("b", "blue", "a blue one"), ("x", "", "note: an x"),
        ("r R", "", "a pile"),
    ]
