"""Issue 27, item 17: the pictures of `notation diagram` and `notation html` read.

Geometry on the SVG text (the page draws the very same text, see test_browser.py):
the last move's marks leave the pieces at their ends visible, tall stacks keep
readable labels that do not overlap, legend lines end in words, Cave's notes are
explained one by one, Zombie Kidz's counts stay off the paths, and the black tomb
and a locked gate do not look alike.
"""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from notation.games.view import BoardView, Cell, Token
from notation.games.zombie_kidz.describe import PALETTE as ZOMBIE_KIDZ_PALETTE
from notation.reader import read_file, read_string
from notation.render.legend import legend_entries
from notation.render.palette import THEMES, contrast, readable
from notation.render.record_svg import draw_position, last_move_arrow
from notation.render.svg import board_svg
from notation.stepper import Stepper

RECORDS = Path(__file__).resolve().parent.parent / "records"
SVG = "{http://www.w3.org/2000/svg}"

#: The position before turn 295 of record 1500 of `notation generate --game tinkertown
#: --games 2000 --seed 1`: piles of 8 (f8) and 10 (f1).
TALL = (
    '[Game "tinkertown"]\n[Position "+++rrrrrrrW/++++++/++++++++/wwwwwR++##+++/+++##+++/'
    '++++++++/++++++/+++wwwwwwwwwR w movement h3,g3 294"]\n\n148. a5x *\n'
)

Box = tuple[float, float, float, float]  # left, top, right, bottom
Shape = tuple[str, tuple[float, ...]]  # ("circle", (cx, cy, r)) or ("rect", (x, y, w, h))


def example(game: str, record: int) -> object:
    return list(read_file(RECORDS / game / "examples.ugn"))[record - 1]


def picture(game: str, record: int, turn: int, size: float = 480) -> ET.Element:
    drawn = draw_position(example(game, record), turn=turn, size=size)  # type: ignore[arg-type]
    return ET.fromstring(drawn.svg)


def tall_picture(size: float = 480) -> ET.Element:
    record = next(iter(read_string(TALL)))
    return ET.fromstring(draw_position(record, size=size).svg)


def stack(root: ET.Element, square: str) -> ET.Element:
    (found,) = [g for g in root.iter(SVG + "g")
                if g.get("class") == "stack" and g.get("data-square") == square]
    return found


def shapes(group: ET.Element) -> list[Shape]:
    """The outline of every token drawn in ``group``, with half its stroke."""
    out: list[Shape] = []
    for token in group.iter(SVG + "g"):
        if token.get("class") not in ("token", "more"):
            continue
        for child in token:
            stroke = float(child.get("stroke-width", "0")) / 2
            if child.tag == SVG + "circle":
                out.append(("circle", (float(child.get("cx", "0")), float(child.get("cy", "0")),
                                       float(child.get("r", "0")) + stroke)))
            elif child.tag == SVG + "rect":
                out.append(("rect", (
                    float(child.get("x", "0")) - stroke, float(child.get("y", "0")) - stroke,
                    float(child.get("width", "0")) + 2 * stroke,
                    float(child.get("height", "0")) + 2 * stroke,
                )))
    return out


def inside(shape: Shape, x: float, y: float) -> bool:
    kind, v = shape
    if kind == "circle":
        return math.hypot(x - v[0], y - v[1]) < v[2]
    return v[0] < x < v[0] + v[2] and v[1] < y < v[1] + v[3]


def polygon(path: str) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def edge_points(
    points: list[tuple[float, float]], steps: int = 60
) -> Iterator[tuple[float, float]]:
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        for i in range(steps + 1):
            t = i / steps
            yield x0 + (x1 - x0) * t, y0 + (y1 - y0) * t


def text_box(text: ET.Element) -> Box:
    """Where a text element's glyphs are, estimated generously (DejaVu Sans: digits and
    capitals are at most 0.7 of the font size wide in bold, 0.64 in regular)."""
    font = float(text.get("font-size", "0"))
    label = text.text or ""
    width = len(label) * font * (0.7 if text.get("font-weight") == "bold" else 0.64)
    x, y = float(text.get("x", "0")), float(text.get("y", "0"))
    anchor = text.get("text-anchor", "start")
    left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
    if text.get("dominant-baseline") == "central":
        top, bottom = y - font * 0.37, y + font * 0.37
    else:
        top, bottom = y - font * 0.74, y + font * 0.02
    return left, top, left + width, bottom


def disjoint(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def segment_box_distance(a: tuple[float, float], b: tuple[float, float], box: Box) -> float:
    """The least distance between the segment ``a``-``b`` and ``box`` (sampled)."""
    best = math.inf
    for i in range(201):
        t = i / 200
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        dx = max(box[0] - x, 0.0, x - box[2])
        dy = max(box[1] - y, 0.0, y - box[3])
        best = min(best, math.hypot(dx, dy))
    return best


def arrow_of(root: ET.Element) -> tuple[str, str, list[tuple[float, float]]]:
    (group,) = [g for g in root.iter(SVG + "g") if g.get("class") == "arrow"]
    (path,) = group.iter(SVG + "path")
    return group.get("data-from", ""), group.get("data-to", ""), polygon(path.get("d", ""))


# -- the last move's arrow and ring ----------------------------------------------------


def tall_move_view() -> tuple[BoardView, tuple[str, str]]:
    """A pile of 9 and a move from it, diagonally, onto a pile of 2."""
    w, r = Token("white", "W"), Token("red", "R")
    cells = {
        "a1": Cell("a1", "grave", (w,) * 8 + (r,), note="3"),
        "a2": Cell("a2", "grave", (r, w, r, w), note="4"),
        "b2": Cell("b2", "grave", (w, r), note="2"),
        "b1": Cell("b1", "grave"),
    }
    palette = {"grave": "#34402f", "white": "#f1ecdf", "red": "#d63a2f"}
    return BoardView(("a", "b"), ("1", "2"), cells, palette, marks=("a1", "b2")), ("a1", "b2")


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("zombie kidz: a pawn's walk onto a zone with a pawn and a lock",
         lambda size: picture("zombie-kidz", 1, 12, size)),
        ("cave: a piece joins a team of 2", lambda size: picture("cave", 3, 38, size)),
        ("tinkertown: a move onto a stack", lambda size: picture("tinkertown", 2, 57, size)),
        ("a pile of 9 moves onto a pile of 4", lambda size: ET.fromstring(board_svg(
            tall_move_view()[0], size=size, arrow=tall_move_view()[1]))),
    ],
)
@pytest.mark.parametrize("size", [480, 300])
def test_the_arrow_leaves_the_pieces_at_its_ends_visible(
    name: str, make: object, size: float
) -> None:
    root = make(size)  # type: ignore[operator]
    start, end, points = arrow_of(root)
    for square in (start, end):
        found = [g for g in root.iter(SVG + "g")
                 if g.get("class") == "stack" and g.get("data-square") == square]
        for shape in shapes(found[0]) if found else []:
            for x, y in edge_points(points):
                assert not inside(shape, x, y), (name, square, shape, (x, y))
    # Still an arrow: its tip is beyond its tail, towards the destination.
    assert points[3] != points[0]


def test_no_arrow_where_the_pieces_fill_the_way() -> None:
    # From a pile of 9 to the pile of 4 above it: no room for an arrow between them,
    # so both squares get the ring, beneath their pieces.
    view = dataclasses.replace(tall_move_view()[0], marks=("a1", "a2"))
    root = ET.fromstring(board_svg(view, arrow=("a1", "a2")))
    groups = [(g.get("class"), g.get("data-square")) for g in root.iter(SVG + "g")]
    assert not [g for g in groups if g[0] == "arrow"]
    for square in ("a1", "a2"):
        assert groups.index(("ring", square)) < groups.index(("stack", square))


def test_a_ring_is_drawn_beneath_the_pieces_of_its_square() -> None:
    # Zombie Kidz, turn 12: a zombie appeared on b1, which the ring marks.
    root = picture("zombie-kidz", 1, 12)
    order = [(g.get("class"), g.get("data-square")) for g in root.iter(SVG + "g")]
    assert ("ring", "b1") in order
    assert order.index(("ring", "b1")) < order.index(("stack", "b1"))
    # Every mark of the last move, outline and ring, is painted before the tokens.
    classes = [g.get("class") for g in root.iter(SVG + "g")]
    assert classes.index("marks") < classes.index("tokens")


# -- tall stacks ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [480, 300, 200])
def test_tall_stacks_keep_readable_labels_that_do_not_overlap(size: float) -> None:
    root = tall_picture(size)
    cell = float(next(c for c in root.iter(SVG + "rect") if c.get("class") == "cell")
                 .get("width", "0"))
    for square in ("f8", "f1"):
        group = stack(root, square)
        assert int(group.get("data-height", "0")) >= 8
        texts = list(group.iter(SVG + "text"))
        notes = [t for t in root.iter(SVG + "text")
                 if t.get("class") == "note" and t.get("data-square") == square]
        labels = [t for t in texts if t.get("class") != "count"]
        for label in labels:
            assert float(label.get("font-size", "0")) >= 0.12 * cell, (square, label.text)
        boxes = [(t.text, text_box(t)) for t in texts + notes]
        for i, (a, box_a) in enumerate(boxes):
            for b, box_b in boxes[i + 1:]:
                assert disjoint(box_a, box_b), (size, square, a, box_a, b, box_b)
        counts = [t for t in texts if t.get("class") == "count"]
        assert [c.text for c in counts] == [group.get("data-height")]
        for shape in shapes(group):
            x, y, w, h = shape[1]
            assert disjoint(text_box(counts[0]), (x, y, x + w, y + h)), (size, square)


# -- the legend --------------------------------------------------------------------


VALUE_LIST = re.compile(r":( \S{1,4})+( \.\.\.)?$")


def legend_texts(root: ET.Element) -> list[tuple[ET.Element, str]]:
    out = []
    for group in root.iter(SVG + "g"):
        if group.get("class") == "legend" and group.get("data-kind"):
            # The words are in the muted colour; the swatch's text is not.
            words = " ".join(
                (t.text or "") for t in group.findall(SVG + "text")
                if t.get("fill") == THEMES["light"]["muted"]
            )
            out.append((group, words))
    return out


PICTURES = {
    "tinkertown": lambda: picture("tinkertown", 2, 57),
    "tall": lambda: tall_picture(),
    "cave": lambda: picture("cave", 3, 38),
    "zombie-kidz": lambda: picture("zombie-kidz", 1, 12),
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_legend_lines_end_in_words_not_lists_of_values(name: str) -> None:
    entries = legend_texts(PICTURES[name]())
    assert entries
    for _group, words in entries:
        assert not VALUE_LIST.search(words), words


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_legend_texts_and_swatches_do_not_overlap(name: str) -> None:
    root = PICTURES[name]()
    boxes = [text_box(t) for group, _ in legend_texts(root) for t in group.iter(SVG + "text")]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert disjoint(a, b), (a, b)


def test_the_cave_notes_are_explained_one_by_one() -> None:
    root = picture("cave", 3, 38)
    notes = {group.findall(SVG + "text")[0].text: words
             for group, words in legend_texts(root) if group.get("data-kind") == "note"}
    assert notes["=Z"] == "a team of 2 fights as a zombie"
    assert notes["=K"] == "a team of 3 fights as the black knight"
    (general,) = [words for note, words in notes.items() if note not in ("=Z", "=K")]
    assert general.startswith("what a hidden piece may still be")
    assert "=" not in general and "(" not in general.replace("(the odds", "")


def test_the_html_legend_has_the_same_entries() -> None:
    # The page's legend is made of the same entries (notation/render/html.py).
    stepper = Stepper(example("cave", 3))  # type: ignore[arg-type]
    assert stepper.goto_turn(38)
    entries = legend_entries([stepper.cursor.position.board_view()], arrow=True)
    assert [e.sample for e in entries if e.kind == "note"][1:] == ["=Z", "=K"]
    for entry in entries:
        assert not VALUE_LIST.search(entry.text), entry.text


# -- Zombie Kidz: counts off the paths; black tomb and locked gate -------------------


@pytest.mark.parametrize("turn", [4, 8, 12])
def test_zombie_kidz_counts_stay_off_the_paths(turn: int) -> None:
    stepper = Stepper(example("zombie-kidz", 1))  # type: ignore[arg-type]
    assert stepper.goto_turn(turn)
    view = stepper.cursor.position.board_view()
    for size in (480, 300):
        root = ET.fromstring(board_svg(view, size=size, arrow=last_move_arrow(
            stepper, view.marks)))
        notes = [t for t in root.iter(SVG + "text") if t.get("class") == "note"]
        assert notes
        links = [line for g in root.iter(SVG + "g") if g.get("class") == "link"
                 for line in g.iter(SVG + "line")][::2]  # the casing of each path
        assert links
        for note in notes:
            box = text_box(note)
            for line in links:
                a = (float(line.get("x1", "0")), float(line.get("y1", "0")))
                b = (float(line.get("x2", "0")), float(line.get("y2", "0")))
                half = float(line.get("stroke-width", "0")) / 2
                assert segment_box_distance(a, b, box) > half, (size, note.get("data-square"))


def test_the_black_tomb_and_a_locked_gate_differ_in_the_dark_theme() -> None:
    # The cells keep their colours on the dark page; WCAG's non-text contrast is 3:1.
    black = readable(ZOMBIE_KIDZ_PALETTE["tomb-black"])
    locked = readable(ZOMBIE_KIDZ_PALETTE["gate-locked"])
    gate = readable(ZOMBIE_KIDZ_PALETTE["gate"])
    assert contrast(black, locked) >= 3
    assert contrast(gate, locked) >= 2  # and a locked gate still differs from an open one
    paper = THEMES["dark"]["paper"]
    assert contrast(locked, paper) >= 3


@pytest.mark.parametrize("odd", ["\x00", "\x01", "\x0b", "\x1f", "\ufffe"])
def test_a_tag_with_characters_xml_cannot_hold_still_draws_well_formed_svg(
    tmp_path: Path, odd: str
) -> None:
    # Found by the fuzz campaign: a NUL in the Event tag went into the SVG's <title>.
    from click.testing import CliRunner

    from notation.cli import cli

    source = tmp_path / "odd.txt"
    source.write_text(f'[Game "cave"]\n[Event "a{odd}b"]\n\n1. b1 c5 *\n', encoding="utf-8")
    out = tmp_path / "odd.svg"
    result = CliRunner().invoke(cli, ["diagram", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    title = ET.parse(out).getroot().find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text is not None
    assert title.text.startswith("a") and ascii(odd)[1:-1] in title.text
