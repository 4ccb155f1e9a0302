"""SVG pictures of positions: structure, for made-up views and for every game."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.errors import MisuseError
from notation.games import get_game
from notation.games.view import BoardView, Cell, Token
from notation.reader import read_file, read_string
from notation.render.legend import legend_entries
from notation.render.palette import AA, INK, THEMES, WHITE, contrast, ink_on, readable
from notation.render.record_svg import draw_position, last_move_arrow, position_svg
from notation.render.svg import board_svg, spreads_tokens
from notation.stepper import Stepper

RECORDS = Path(__file__).resolve().parent.parent / "records"
NS = {"s": "http://www.w3.org/2000/svg"}
W, R = Token("white", "W"), Token("red", "R")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    return root


def find(root: ET.Element, cls: str, square: str | None = None) -> list[ET.Element]:
    where = f"[@data-square='{square}']" if square else ""
    return root.findall(f".//*[@class='{cls}']{where}")


def tokens_of(root: ET.Element, square: str) -> list[ET.Element]:
    (stack,) = find(root, "stack", square)
    return stack.findall("s:g[@class='token']", NS)


def pile_view(**changes: object) -> BoardView:
    cells = {
        "a1": Cell("a1", "floor"),
        "b1": Cell("b1", "floor", (W, W, R), note="4"),
        "a2": Cell("a2", "off"),
        "b2": Cell("b2", "floor", (R,)),
    }
    fields: dict[str, object] = {
        "files": ("a", "b", "c", "d"),
        "ranks": ("1", "2", "3", "4"),
        "cells": cells,
        "palette": {"floor": "#d9cdb8", "white": "#f4f4f0", "red": "#c0392b"},
        "marks": ("a1", "b1"),
        "facts": (("To move", "Red"),),
        "caption": "b1: a <stack> & more",
    }
    fields.update(changes)
    return BoardView(**fields)  # type: ignore[arg-type]


# -- made-up views: the renderer knows no game -----------------------------------


def test_the_picture_is_standalone_svg_with_title_cells_coordinates_and_marks() -> None:
    svg = board_svg(pile_view())
    root = parse(svg)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert root.find("s:title", NS) is not None
    assert root.findtext("s:title", namespaces=NS) == "b1: a <stack> & more"
    cells = find(root, "cell")
    # Squares missing from the view and "off" cells are not drawn.
    assert sorted(c.get("data-square") or "" for c in cells) == ["a1", "b1", "b2"]
    assert [c.text for c in find(root, "coord")] == ["a", "b", "c", "d", "4", "3", "2", "1"]
    assert [m.get("data-square") for m in find(root, "mark")] == ["a1", "b1"]
    assert [n.text for n in find(root, "note")] == ["4"]
    assert [t.text for t in find(root, "caption")] == ["b1: a <stack> & more"]
    assert [t.text for t in find(root, "fact")] == ["To move: Red"]


def test_a_pile_is_drawn_bottom_to_top_in_its_colours() -> None:
    root = parse(board_svg(pile_view()))
    tokens = tokens_of(root, "b1")
    assert [t.get("data-role") for t in tokens] == ["white", "white", "red"]
    tops = [float(t.find("s:rect", NS).get("y", "0")) for t in tokens]  # type: ignore[union-attr]
    assert tops == sorted(tops, reverse=True)  # each next token higher up
    fills = [t.find("s:rect", NS).get("fill") for t in tokens]  # type: ignore[union-attr]
    assert fills == ["#f4f4f0", "#f4f4f0", "#c0392b"]
    (stack,) = find(root, "stack", "b1")
    assert stack.get("data-height") == "3"


def test_a_pile_too_tall_for_its_cell_shows_its_top_and_a_count() -> None:
    tall = (W, R) * 8 + (R,)
    view = pile_view(cells={"b1": Cell("b1", "floor", tall)})
    root = parse(board_svg(view))
    shown = tokens_of(root, "b1")
    assert 1 < len(shown) < len(tall)
    assert [t.get("data-role") for t in shown] == [t.role for t in tall[-len(shown):]]
    (more,) = find(root, "more")
    assert more.findtext("s:text", namespaces=NS) == f"+{len(tall) - len(shown)}"
    assert [c.text for c in find(root, "count")] == [str(len(tall))]


def test_figures_in_a_zone_stand_side_by_side() -> None:
    z, p, lock = Token("zombie", "Z"), Token("pawn", "1"), Token("lock", "L")
    view = BoardView(
        files=("a", "b", "c"), ranks=("1", "2", "3"),
        cells={"b2": Cell("b2", "tomb", (z, z, p)), "a1": Cell("a1", "gate", (lock,))},
        palette={"tomb": "#c62828", "gate": "#b0bec5"},
        links=(("a1", "b2"), ("b2", "c3"), ("b2", "z9")),
        token_layout="spread",
    )
    assert spreads_tokens(view)
    root = parse(board_svg(view))
    tokens = tokens_of(root, "b2")
    assert [t.get("data-label") for t in tokens] == ["Z", "Z", "1"]
    circles = [t.find("s:circle", NS) for t in tokens]
    xs = [float(c.get("cx", "0")) for c in circles if c is not None]
    assert len(xs) == 3 and xs[0] < xs[1]  # side by side, in the view's order
    # A link to a square that is not on the board is left out; c3 is in the grid.
    assert [(g.get("data-from"), g.get("data-to")) for g in find(root, "link")] == [
        ("a1", "b2"), ("b2", "c3"),
    ]


def test_the_view_not_the_size_of_the_board_says_how_tokens_stand() -> None:
    # A small board piles unless the view says otherwise; a large one spreads if it does.
    small = BoardView(
        files=("a", "b", "c"), ranks=("1",), cells={"b1": Cell("b1", "heap", (W, W, R))},
        palette={"heap": "#d9cdb8"},
    )
    assert not spreads_tokens(small)
    tokens = tokens_of(parse(board_svg(small)), "b1")
    assert [t.find("s:rect", NS) is not None for t in tokens] == [True] * 3
    large = pile_view(token_layout="spread")
    assert spreads_tokens(large)
    tokens = tokens_of(parse(board_svg(large)), "b1")
    assert [t.find("s:circle", NS) is not None for t in tokens] == [True] * 3


def test_a_layout_the_renderers_do_not_know_is_refused() -> None:
    with pytest.raises(MisuseError, match="token_layout"):
        pile_view(token_layout="heap")


def test_labels_of_any_length_place_their_squares() -> None:
    view = BoardView(
        files=("x", "yy", "zzz"), ranks=("9", "10"),
        cells={name: Cell(name, "floor", (R,)) for name in ("x9", "yy9", "zzz10")},
        palette={"floor": "#d9cdb8"}, marks=("yy9",), links=(("x9", "zzz10"),),
    )
    root = parse(board_svg(view))
    xs = {c.get("data-square"): float(c.get("x", "0")) for c in find(root, "cell")}
    ys = {c.get("data-square"): float(c.get("y", "0")) for c in find(root, "cell")}
    assert xs["x9"] < xs["yy9"] < xs["zzz10"]
    assert ys["x9"] == ys["yy9"] > ys["zzz10"]  # rank 10 above rank 9
    assert [m.get("data-square") for m in find(root, "mark")] == ["yy9"]
    assert len(find(root, "link")) == 1 and len(find(root, "stack")) == 3


def test_text_is_escaped_and_output_is_deterministic() -> None:
    view = pile_view(
        cells={"a1": Cell("a1", 'fl"oor', (Token("x<y", '"&'),), note="<1>")},
        facts=(("A & B", "<c>"),),
    )
    svg = board_svg(view, title="T & <t>")
    root = parse(svg)
    assert root.findtext("s:title", namespaces=NS) == "T & <t>"
    assert [t.get("data-label") for t in tokens_of(root, "a1")] == ['"&']
    assert [n.text for n in find(root, "fact")] == ["A & B: <c>"]
    assert board_svg(view, title="T & <t>") == svg
    assert find(root, "fact") and not find(parse(board_svg(view, facts=False)), "fact")


def test_long_captions_wrap_and_size_scales() -> None:
    view = pile_view(caption="word " * 60)
    root = parse(board_svg(view))
    assert len(find(root, "caption")) > 1
    small = parse(board_svg(view, size=240))
    assert float(small.get("width", "0")) < float(root.get("width", "0"))


def test_a_move_is_an_arrow_and_other_marks_are_rings() -> None:
    root = parse(board_svg(pile_view(marks=("a1", "b2", "b1")), arrow=("a1", "b2")))
    (arrow,) = find(root, "arrow")
    assert (arrow.get("data-from"), arrow.get("data-to")) == ("a1", "b2")
    path = arrow.find("s:path", NS)
    outline = path.get("d", "") if path is not None else ""
    assert outline.startswith("M") and outline.endswith("Z")
    assert [r.get("data-square") for r in find(root, "ring")] == ["b1"]
    # Without a move (an entry, a placement), every mark is a ring; outlines stay.
    root = parse(board_svg(pile_view()))
    assert not find(root, "arrow")
    assert [r.get("data-square") for r in find(root, "ring")] == ["a1", "b1"]
    assert len(find(root, "mark")) == 2
    # An arrow to a square off the grid is left out.
    assert not find(parse(board_svg(pile_view(), arrow=("a1", "z9"))), "arrow")


def test_cells_and_piles_have_tooltips() -> None:
    root = parse(board_svg(pile_view()))
    (cell,) = find(root, "cell", "b1")
    assert cell.findtext("s:title", namespaces=NS) == "b1: floor, W W R (bottom to top); note 4"
    (stack,) = find(root, "stack", "b1")
    assert stack.findtext("s:title", namespaces=NS) == "b1: floor, W W R (bottom to top); note 4"


def test_without_caption_and_facts_every_position_has_the_same_size() -> None:
    heights = set()
    stepper = Stepper(first_record("cave"))  # type: ignore[arg-type]
    while stepper.forward():
        svg = board_svg(stepper.cursor.position.board_view(), caption=False, facts=False)
        heights.add(parse(svg).get("height"))
    assert len(heights) == 1


def test_the_legend_names_every_mark_the_picture_uses() -> None:
    view = pile_view(cells={
        "a1": Cell("a1", "floor"), "b1": Cell("b1", "chapel", (W, R), note="4"),
        "c1": Cell("c1", "floor", (R,) * 9),
    }, palette={"floor": "#d9cdb8", "chapel": "#4c4258", "white": "#f4f4f0", "red": "#c0392b"})
    root = parse(board_svg(view, arrow=("a1", "b1"), legend=True))
    legend = find(root, "legend")
    kinds = [(g.get("data-kind"), g.get("data-role")) for g in legend if g.get("data-kind")]
    assert kinds == [
        ("cell", "floor"), ("cell", "chapel"), ("token", "white"), ("token", "red"),
        ("note", ""), ("more", ""), ("arrow", ""), ("outline", ""),
    ]
    texts = " ".join(t.text or "" for g in legend for t in g.iter(f"{{{NS['s']}}}text"))
    assert "chapel" in texts and "note in the corner" in texts
    assert not find(parse(board_svg(view)), "legend")


def test_a_game_may_name_its_marks_in_the_view() -> None:
    # The view's own words (BoardView.legend) win over the role names.
    words = {
        "floor": "the cave floor", "note": "what the piece may be", "red:r?": "unknown",
        "note:KS": "a knight or a skeleton",
    }
    view = pile_view(cells={"a1": Cell("a1", "floor", (Token("red", "r?"),), note="KS")})
    entries = legend_entries([view])
    assert entries[0].text == "floor"

    entries = legend_entries([dataclasses.replace(view, legend=words)])
    texts = {e.kind: e.text for e in entries}
    assert texts["cell"] == "the cave floor"
    # The one note has words of its own: its line says them, and no general line.
    assert texts["note"] == "a knight or a skeleton"
    assert texts["token"] == "unknown"  # the words of its one label


@pytest.mark.parametrize(
    ("game", "record", "turn", "expected"),
    [
        ("tinkertown", 2, 57, {"chapel", "tombstone", "grave"}),
        ("cave", 3, 38, {"home-red", "home-black", "note"}),
        ("zombie-kidz", 1, 12, {"lock", "gate-locked", "path", "ring", "arrow"}),
    ],
)
def test_each_game_s_legend(game: str, record: int, turn: int, expected: set[str]) -> None:
    picture = draw_position(first_record(game, record), turn=turn)  # type: ignore[arg-type]
    legend = find(parse(picture.svg), "legend")
    names = {g.get("data-role") or g.get("data-kind") for g in legend}
    assert expected <= names


def test_text_on_every_fill_of_every_game_reads_at_wcag_aa() -> None:
    for game in ("tinkertown", "cave", "zombie-kidz"):
        view = view_at(game, 12)
        for role, colour in view.palette.items():
            fill = readable(colour)
            assert contrast(fill, ink_on(fill)) >= AA, (game, role, colour, fill)
    # A red that neither ink reads on is darkened, a little.
    assert contrast("#d9463e", WHITE) < AA and contrast("#d9463e", INK) < AA
    fixed = readable("#d9463e")  # Cave's red
    assert fixed == "#ce433b" and contrast(fixed, WHITE) >= AA
    assert readable("#123") == "#123" and ink_on("#123") == INK
    # The picture's own text: the caption and the facts, on its paper.
    paper = THEMES["light"]["paper"]
    assert contrast(INK, paper) >= AA and contrast(THEMES["light"]["muted"], paper) >= AA


def test_the_arrow_of_a_record_s_last_move() -> None:
    stepper = Stepper(first_record("cave"))  # type: ignore[arg-type]
    assert last_move_arrow(stepper, ()) is None  # at the start
    seen = {}
    while stepper.forward():
        view = stepper.cursor.position.board_view()
        seen[stepper.cursor.last_node.text] = last_move_arrow(stepper, view.marks)  # type: ignore[union-attr]
    assert seen["b1"] is None and seen["b1-b2"] == ("b1", "b2")
    assert seen["Sc4xKb3"] == ("c4", "b3")


# -- the games' real positions ----------------------------------------------------


def first_record(game: str, index: int = 1) -> object:
    for record in read_file(RECORDS / game / "examples.ugn"):
        if record.index == index:
            return record
    raise AssertionError(f"no record {index} in {game}")


def view_at(game: str, turn: int) -> BoardView:
    stepper = Stepper(first_record(game))  # type: ignore[arg-type]
    assert stepper.goto_turn(turn)
    return stepper.cursor.position.board_view()


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_every_game_draws_valid_svg_with_its_cells_tokens_and_marks(game: str) -> None:
    view = view_at(game, 12)
    root = parse(board_svg(view))
    on_board = [c for c in view.cells.values() if c.role != "off"]
    assert len(find(root, "cell")) == len(on_board)
    token_count = sum(len(c.tokens) for c in on_board)
    assert 0 < len(find(root, "token")) <= token_count
    assert len(find(root, "coord")) == len(view.files) + len(view.ranks)
    assert {m.get("data-square") for m in find(root, "mark")} == set(view.marks)
    assert find(root, "caption")


def test_tinkertown_stacks_keep_their_colour_order() -> None:
    record = first_record("tinkertown")
    stepper = Stepper(record)  # type: ignore[arg-type]
    checked = 0
    while stepper.forward():
        view = stepper.cursor.position.board_view()
        stacks = [c for c in view.cells.values() if len(c.tokens) >= 2]
        if not stacks:
            continue
        root = parse(board_svg(view))
        for cell in stacks:
            drawn = tokens_of(root, cell.square)
            roles = [t.get("data-role") for t in drawn]
            assert roles == [t.role for t in cell.tokens[-len(drawn):]]
            checked += 1
    assert checked > 10
    # The chapel and the corners: the chapel is drawn, the corners are not.
    roles = {c.get("data-square"): c.get("data-role") for c in find(root, "cell")}
    assert roles["d4"] == "chapel" and "a1" not in roles


def test_cave_shows_identities_it_knows() -> None:
    stepper = Stepper(first_record("cave"))  # type: ignore[arg-type]
    known = 0
    while stepper.forward():
        view = stepper.cursor.position.board_view()
        labels = {t.label for c in view.cells.values() for t in c.tokens}
        identities = {label for label in labels if set(label) & set("KZS")}
        if not identities:
            continue
        drawn = {t.get("data-label") for t in find(parse(board_svg(view)), "token")}
        assert identities <= drawn
        known += 1
    assert known > 5


def test_zombie_kidz_draws_the_paths_of_the_board_side_in_use() -> None:
    game = get_game("zombie-kidz")

    def links(players: str) -> int:
        view = game.new_position({"Players": players}).board_view()
        return len(find(parse(board_svg(view)), "link"))

    assert links("2") > links("3") > 0
    assert links("3") == links("4")


def test_position_svg_replays_to_the_turn_asked_for() -> None:
    record = first_record("tinkertown")
    start = parse(position_svg(record, turn=0))  # type: ignore[arg-type]
    assert not find(start, "token") and not find(start, "mark")
    assert start.findtext("s:title", namespaces=NS) == "Example 1: a short game, after turn 0"
    end = draw_position(record)  # type: ignore[arg-type]
    assert end.reached and end.error is None and end.turn == len(record.moves)  # type: ignore[attr-defined]


def test_a_broken_record_is_drawn_as_far_as_it_goes() -> None:
    record = read_string('[Game "cave"]\n\nb1 c5 b1-b2 c5-c4 b2-b4 *\n')[0]
    picture = draw_position(record)
    assert not picture.reached and picture.turn == 4
    assert picture.error is not None and "turn 5" in picture.error
    parse(picture.svg)


# -- the pictures in the docs -----------------------------------------------------

DOC_IMAGES = [
    ("tinkertown", "2", "57"),
    ("cave", "3", "38"),
    ("zombie-kidz", "1", "12"),
]


@pytest.mark.parametrize(("game", "record", "turn"), DOC_IMAGES, ids=[g for g, _, _ in DOC_IMAGES])
def test_the_docs_pictures_are_what_the_tool_draws(game: str, record: str, turn: str) -> None:
    committed = (RECORDS.parent / "docs" / "img" / f"{game}.svg").read_text(encoding="utf-8")
    code, stdout, _ = run(
        str(RECORDS / game / "examples.ugn"), "--record", record, "--turn", turn
    )
    assert code == 0
    assert stdout == committed, (
        f"docs/img/{game}.svg is out of date: make it again with the command in docs/diagrams.md"
    )
    doc = (RECORDS.parent / "docs" / "diagrams.md").read_text(encoding="utf-8")
    assert f"--record {record} --turn {turn} -o docs/img/{game}.svg" in doc


# -- notation diagram ---------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["diagram", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_diagram_writes_a_file_with_o(tmp_path: Path) -> None:
    out = tmp_path / "pos.svg"
    code, stdout, _ = run(str(RECORDS / "cave" / "examples.ugn"), "--turn", "9", "-o", str(out))
    assert code == 0 and stdout == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert root.findtext("s:title", namespaces=NS, default="").endswith("after turn 9")


def test_diagram_writes_to_stdout_without_o() -> None:
    code, stdout, _ = run(str(RECORDS / "zombie-kidz" / "examples.ugn"), "--record", "2")
    assert code == 0
    assert find(parse(stdout), "link")


def test_diagram_reports_a_missing_record_or_turn_as_usage_errors() -> None:
    path = str(RECORDS / "tinkertown" / "examples.ugn")
    code, _, err = run(path, "--record", "99")
    assert code == 2 and "has no record 99" in err
    code, _, err = run(path, "--turn", "5000")
    assert code == 2 and "ends at turn" in err


def test_diagram_of_a_broken_record_draws_and_warns(tmp_path: Path) -> None:
    out = tmp_path / "broken.svg"
    code, _, err = run(str(RECORDS / "tinkertown" / "broken.ugn"), "-o", str(out))
    assert code == 1
    assert err.startswith("warning: ") and "c9 is not a square" in err
    assert "drew the position after turn 33" in err
    parse(out.read_text(encoding="utf-8"))


def test_diagram_of_a_record_without_a_game(tmp_path: Path) -> None:
    path = tmp_path / "nogame.txt"
    path.write_text("b1 c5 *\n", encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 2 and "no Game tag" in err
    code, stdout, _ = run(str(path), "--game", "cave")
    assert code == 0 and find(parse(stdout), "token")


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_the_legend_columns_stack_their_entries_without_gaps(game: str) -> None:
    # Each column of the legend runs on from one entry to the next: a long entry in
    # one column leaves no empty rows beside it in the other (Cave's note entry did).
    picture = draw_position(first_record(game))  # type: ignore[arg-type]
    root = parse(picture.svg)
    columns: dict[str, list[list[float]]] = {}
    for group in find(root, "legend"):
        if group.get("data-kind") is None:  # the group of them all
            continue
        # The entry's lines come last, after its swatch (which may hold a text too).
        texts = group.findall("s:text", NS)
        x = texts[-1].get("x", "")
        ys = [float(t.get("y", "0")) for t in texts if t.get("x") == x]
        columns.setdefault(x, []).append(ys)
    assert len(columns) == 2
    for column in columns.values():
        column.sort()
    # One line height, from line to line within an entry and from entry to entry.
    lines = sorted(y for column in columns.values() for ys in column for y in ys)
    line = min(b - a for a, b in itertools.pairwise(lines) if b > a)
    for column in columns.values():
        for before, after in itertools.pairwise(column):
            assert after[0] - before[-1] == pytest.approx(line), (before, after)
    # The picture ends under the longer column, not under rows of empty space.
    bottom = max(column[-1][-1] for column in columns.values())
    height = float(root.get("viewBox", "").split()[3])
    assert height - bottom < 2 * line


def _arrow_clearance(svg: str) -> float | None:
    """The least distance between the last move's arrow (its outline) and any token's
    disc, in pixels (negative: they overlap); None without an arrow."""
    root = parse(svg)
    arrows = find(root, "arrow")
    if not arrows:
        return None
    path = arrows[0].find("s:path", NS)
    assert path is not None
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
    outline = list(zip(numbers[::2], numbers[1::2], strict=True))

    def to_edge(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy)))
        return math.hypot(px - a[0] - t * dx, py - a[1] - t * dy)

    least = math.inf
    for stack in find(root, "stack"):
        for disc in stack.iter(f"{{{NS['s']}}}circle"):
            cx, cy, r = (float(disc.get(k, "0")) for k in ("cx", "cy", "r"))
            edges = zip(outline, outline[1:] + outline[:1], strict=True)
            least = min(least, min(to_edge(cx, cy, a, b) for a, b in edges) - r)
    return least


def test_the_zombie_kidz_arrowhead_stops_short_of_every_pawn() -> None:
    # Each position of the examples: the arrow ends before the figures of the zone
    # it points at (a pawn, a lock, zombies), never on them.
    arrows = 0
    for record in read_file(RECORDS / "zombie-kidz" / "examples.ugn"):
        stepper = Stepper(record)
        while stepper.forward():
            view = stepper.cursor.position.board_view()
            svg = board_svg(view, arrow=last_move_arrow(stepper, view.marks))
            clearance = _arrow_clearance(svg)
            arrows += clearance is not None
            assert clearance is None or clearance > 0, (record.index, stepper.cursor.turn)
    assert arrows > 50
