"""The odds of each hidden Cave piece's identity, as every viewer shows them: the facts
of the board view (``notation show``, the replayer's Facts panel, the SVG, the HTML
page) and each cell's detail (the SVG tooltip, the replayer's Square panel).

The expected odds are counted here by brute force over the deals, independently of
:mod:`notation.games.cave.infer`.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.games import get_game
from notation.games.cave import CavePosition
from notation.reader import read_file
from notation.render.show_text import show_renderable
from notation.render.svg import board_svg
from notation.render.terminal import render_plain
from notation.stepper import Stepper
from notation.tui.panels import facts_panel, square_panel

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "records" / "cave" / "examples.ugn"
SIDES = ("Red", "Black")
#: Every deal of one side: its six pieces (in id order) get 1 K, 2 Z, 3 S.
DEALS = sorted(set(itertools.permutations("KZZSSS")))
FILES = "abcd"


def odds_by_counting(position: Any, piece: int) -> str:
    """The odds of ``piece``'s identity: among the deals of its side that give every
    piece the side has shown its letter, the share giving ``piece`` each letter."""
    side = piece // 6
    shown = {
        p - 6 * side: found[0]
        for p in range(6 * side, 6 * side + 6)
        if (found := position.revealed(p)) is not None
    }
    fitting = [deal for deal in DEALS if all(deal[p] == letter for p, letter in shown.items())]
    parts = []
    for letter in "KZS":
        share = Fraction(sum(deal[piece - 6 * side] == letter for deal in fitting), len(fitting))
        if share:
            parts.append(f"{letter} {share}")
    return ", ".join(parts)


def squares() -> list[str]:
    return [f + str(rank) for rank in range(1, 6) for f in FILES]


def hidden_line(position: Any, side: int) -> str:
    """The fact the board view must give for ``side``'s pieces never shown, built here:
    their odds (one answer for all, checked) and how many they are, on the board
    (where ``r?`` and ``b?`` show them) and in reserve."""
    hidden = [
        p for square in squares() for p in position.pieces_at(square)
        if p // 6 == side and position.revealed(p) is None
    ]
    reserve = position.reserves[side]
    # Pieces in reserve have never fought: their ids are the side's last ones.
    odds = {odds_by_counting(position, p) for p in hidden + list(range(6 * side + 6 - reserve,
                                                                      6 * side + 6))}
    assert len(odds) == 1  # every piece a side has never shown has the same odds
    count = len(hidden) + reserve
    return f"{odds.pop()} each ({count} pieces)" if count > 1 else f"{odds.pop()} (1 piece)"


def stepper_at(record: int, turn: int) -> Stepper:
    stepper = Stepper(list(read_file(EXAMPLES))[record - 1])
    assert stepper.goto_turn(turn)
    return stepper


def run_show(*args: str) -> str:
    result = CliRunner().invoke(cli, ["show", *args])
    assert result.exit_code == 0, result.output
    return result.output


def squeezed(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


# -- notation show ------------------------------------------------------------------------


@pytest.mark.parametrize(("record", "turn"), [(2, 10), (1, 20), (3, 38), (2, 3)])
def test_show_prints_the_odds_of_every_hidden_piece(record: int, turn: int) -> None:
    # What `notation show` prints, 200 columns wide: no fact is wrapped.
    stepper = stepper_at(record, turn)
    position = stepper.cursor.position
    lines = squeezed(render_plain(show_renderable(stepper, width=200), width=200))
    found = 0
    for side, name in enumerate(SIDES):
        if any(position.revealed(p) is None for p in range(6 * side, 6 * side + 6)):
            expected = f"{name} hidden {hidden_line(position, side)}"
            assert any(line.endswith(expected) for line in lines), expected
            found += 1
    assert found


def test_record_2_at_turn_10_exactly() -> None:
    # Black has shown two skeletons: 1 K, 2 Z, 1 S left for four pieces (a5 and three
    # in reserve).  Red has shown a zombie: 1 K, 1 Z, 3 S left for five (d1, four in
    # reserve).
    out = run_show(str(EXAMPLES), "--record", "2", "--turn", "10")
    lines = squeezed(out)
    assert any(line.endswith("Red hidden K 1/5, Z 1/5, S 3/5 each (5 pieces)") for line in lines)
    assert any(line.endswith("Black hidden K 1/4, Z 1/2, S 1/4 each (4 pieces)")
               for line in lines)
    # The pieces on the board are the r? and b? tokens: a5 is Black's, d1 Red's.
    assert re.search(r"^5 │ +b\? +│", out, re.MULTILINE)
    assert re.search(r"^1 │.*│ +r\? +│$", out, re.MULTILINE)


def test_a_last_hidden_piece_is_certain(tmp_path: Path) -> None:
    # Black has shown its knight, both zombies and two skeletons: the piece on a3,
    # never shown, is a skeleton with probability 1.
    record = tmp_path / "last.txt"
    record.write_text(
        '[Game "cave"]\n[Position "a3:b?,c3:r? 5/0 -/K@2Z@4Z@6S@8S@10 0 r 12"]\n\n*\n',
        encoding="utf-8",
    )
    lines = squeezed(run_show(str(record)))
    assert any(line.endswith("Black hidden S 1 (1 piece)") for line in lines)
    assert any(line.endswith("Red hidden K 1/6, Z 1/3, S 1/2 each (6 pieces)")
               for line in lines)
    position = get_game("cave").position_from_string(
        "a3:b?,c3:r? 5/0 -/K@2Z@4Z@6S@8S@10 0 r 12"
    )
    assert odds_by_counting(position, position.pieces_at("a3")[0]) == "S 1"
    assert position.board_view().cell("a3").detail == "never shown: S 1"


# -- the cell's detail: the SVG tooltip, the replayer's Square panel ---------------------


def test_each_hidden_cell_has_its_odds_as_detail() -> None:
    position = stepper_at(3, 38).cursor.position
    view = position.board_view()
    for square in squares():
        pieces = position.pieces_at(square)
        cell = view.cell(square)
        hidden = [p for p in pieces if position.revealed(p) is None]
        if not pieces or (len(pieces) == 1 and not hidden):
            assert cell.detail == ""
            continue
        odds = odds_by_counting(position, hidden[0]) if hidden else ""
        if len(pieces) == 1:
            assert cell.detail == f"never shown: {odds}"
        else:
            fights = {2: "a zombie", 3: "a black knight"}[len(pieces)]
            assert cell.detail.startswith(f"a team of {len(pieces)}, fighting as {fights}")
            if hidden:
                each = " each" if len(hidden) > 1 else ""
                assert cell.detail.endswith(
                    f"; {len(hidden)} of its pieces never shown: {odds}{each}"
                )


def test_the_svg_shows_the_odds_in_the_facts_and_the_tooltips() -> None:
    position = stepper_at(2, 10).cursor.position
    svg = board_svg(position.board_view(), legend=True)
    odds = odds_by_counting(position, position.pieces_at("a5")[0])
    assert odds == "K 1/4, Z 1/2, S 1/4"
    assert f"<title>a5: home black, b?; note KZS; never shown: {odds}</title>" in svg
    facts = " ".join(re.findall(r'<text class="fact"[^>]*>([^<]*)</text>', svg))
    assert f"Black hidden: {odds} each (4 pieces)" in facts


def test_the_replayer_shows_the_odds_in_its_panels() -> None:
    stepper = stepper_at(2, 10)
    view = stepper.cursor.position.board_view()
    square = squeezed(render_plain(square_panel(view, "d1", None), width=120))
    assert square[0].startswith("Square d1 r? (1) home-red note KZS")
    assert square[1] == "never shown: K 1/5, Z 1/5, S 3/5"
    facts = squeezed(render_plain(facts_panel(stepper, view), width=120))
    assert "Red hidden K 1/5, Z 1/5, S 3/5 each (5 pieces)" in facts
    assert "Black hidden K 1/4, Z 1/2, S 1/4 each (4 pieces)" in facts


def test_the_html_page_carries_the_odds_with_the_facts(tmp_path: Path) -> None:
    page = tmp_path / "cave.html"
    result = CliRunner().invoke(cli, ["html", str(EXAMPLES), "-o", str(page), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert '"Black hidden"' in html
    assert '"K 1/4, Z 1/2, S 1/4 each (4 pieces)"' in html  # record 2, turn 10
    # Each value once, in the chunk's strings: the odds are a few texts however long
    # the records.
    assert html.count('"K 1/4, Z 1/2, S 1/4 each (4 pieces)"') == 1


# -- the cost: only pictures pay for the odds ----------------------------------------------


def test_check_never_builds_a_board_view(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: CavePosition) -> Any:
        raise AssertionError("check built a board view")

    monkeypatch.setattr(CavePosition, "board_view", refuse)
    result = CliRunner().invoke(cli, ["check", "--jobs", "1", str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
