"""The terminal renderer on hand-made board views: it knows no game."""

from __future__ import annotations

import io

import pytest
from rich.text import Text

from notation.games.view import BoardView, Cell, Token
from notation.render.terminal import (
    asciify,
    board_renderable,
    cell_label,
    draw_board,
    is_plain,
    make_console,
    render_plain,
    role_symbols,
)

WHITE, RED, ZOMBIE = Token("white", "W"), Token("red", "R"), Token("zombie", "Z")
PALETTE = {"grave": "#34402f", "tomb": "#8b9099", "white": "#f1ecdf", "red": "#d63a2f"}


def stacks_view() -> BoardView:
    """Three files, two ranks; a tall stack, a tombstone, a cell off the board."""
    cells = {
        "a1": Cell("a1", "grave", (WHITE, RED, WHITE, RED, WHITE, RED, WHITE), "2"),
        "b1": Cell("b1", "grave", (), "1"),
        "c1": Cell("c1", "tomb"),
        "a2": Cell("a2", "grave", (RED,), "3"),
        "b2": Cell("b2", "grave"),
        # c2 is missing: off the board
    }
    return BoardView(
        files=("a", "b", "c"),
        ranks=("1", "2"),
        cells=cells,
        palette=PALETTE,
        marks=("b2", "a1"),
        facts=(("To move", "Red"), ("Stage", "movement \u2014 late")),
        caption="1. b2-a1: Red moved",
        links=(("a1", "b1"),),
    )


def test_labels_run_together_unless_numbers_would_merge() -> None:
    pawns = (ZOMBIE, ZOMBIE, Token("pawn", "1"), Token("pawn", "3"))
    assert cell_label(Cell("a1", "zone", pawns)) == "ZZ 1 3"
    assert cell_label(Cell("a1", "grave", (WHITE, RED, WHITE))) == "WRW"
    assert cell_label(Cell("a1", "sq", (Token("team", "?"), Token("team", "?")))) == "??"
    assert cell_label(Cell("a1", "sq", (Token("red", "r?"), Token("red", "rK")))) == "r? rK"
    assert cell_label(Cell("a1", "sq", (Token("lock"),))) == "L"


def test_grid_is_as_wide_as_the_tallest_stack() -> None:
    drawing = draw_board(stacks_view())
    text = [line.plain for line in drawing.lines]
    assert text[0] == "  ┌─────────┬─────────┐"
    assert "[WRWRWRW]" in text[4] and text[4].startswith("1 │")
    assert all(len(line) <= drawing.width for line in text)
    assert text[-1].split() == ["a", "b", "c"]
    # The off cell c2 has no walls of its own: the top line stops at b2.
    assert text[1].startswith("2 │    R    │[       ]│")


def test_ascii_drawing_uses_ascii_only() -> None:
    out = render_plain(board_renderable(stacks_view(), width=100, ascii=True))
    assert out.isascii()
    assert "+---------+---------+" in out and "movement - late" in out
    assert "Paths: a1-b1" in out and "1. b2-a1: Red moved" in out


def test_plain_drawing_shows_roles_with_symbols_and_a_legend() -> None:
    view = stacks_view()
    assert role_symbols(view) == {"tomb": "#"}
    out = render_plain(board_renderable(view, width=100, plain=True))
    assert "Cells: # tomb" in out
    assert "│#        │" in out  # the tombstone's corner


def test_facts_go_beside_a_board_when_there_is_room_and_under_it_otherwise() -> None:
    wide = render_plain(board_renderable(stacks_view(), width=100), width=100).splitlines()
    assert wide[0].endswith("To move  Red")
    narrow = render_plain(board_renderable(stacks_view(), width=30), width=30).splitlines()
    assert narrow[0].rstrip().endswith("┐")
    assert any(line.startswith("To move  Red") for line in narrow)


def test_colour_console_writes_the_palette_and_plain_console_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")  # rich gives a dumb terminal no colour
    out = io.StringIO()
    console = make_console(out, plain=False, width=100)
    console.print(board_renderable(stacks_view(), width=100))
    assert "\x1b[" in out.getvalue()
    plain = io.StringIO()
    console = make_console(plain, plain=True)
    console.print(board_renderable(stacks_view(), width=100))
    assert "\x1b" not in plain.getvalue() and "WRWRWRW" in plain.getvalue()


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_make_console_is_plain_when_not_a_terminal_or_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert is_plain(make_console(io.StringIO()))
    assert not is_plain(make_console(FakeTerminal()))
    monkeypatch.setenv("NO_COLOR", "1")
    assert is_plain(make_console(FakeTerminal()))


def test_a_dumb_terminal_gets_no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    out = FakeTerminal()
    console = make_console(out, width=100)
    assert is_plain(console)
    console.print(board_renderable(stacks_view(), width=100, plain=is_plain(console)))
    assert "\x1b" not in out.getvalue() and "Cells: # tomb" in out.getvalue()


def test_a_terminal_is_as_wide_as_columns_says_and_a_pipe_always_100(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    assert make_console(FakeTerminal()).width == 40
    assert make_console(io.StringIO()).width == 100


def test_piped_text_is_never_wrapped_but_a_terminal_wraps_it() -> None:
    message = Text("stopped at turn 35: " + "/long" * 60 + "/broken.ugn (line 82, column 1)")
    piped = io.StringIO()
    make_console(piped, width=40).print(message)
    assert piped.getvalue() == message.plain + "\n"
    screen = FakeTerminal()
    make_console(screen, width=40, plain=True).print(message)
    assert len(screen.getvalue().splitlines()) > 1


def test_asciify() -> None:
    assert asciify("Mina Harker") == "Mina Harker"
    assert asciify("caf\u00e9 \u2014 \u201cok\u201d \u00d72") == 'cafe - "ok" x2'
    assert asciify("墓") == "?"


# -- compact cells, contrast, the terminal palette -------------------------------------


def test_compact_labels_give_the_top_and_the_height() -> None:
    from notation.games.view import SPREAD
    from notation.render.terminal import compact_label

    assert compact_label(Cell("h4", "grave", (WHITE, WHITE, WHITE, RED))) == "R4"
    assert compact_label(Cell("h4", "grave", (RED,))) == "R"
    assert compact_label(Cell("h4", "grave", (WHITE,) * 10 + (RED,))) == "R11"
    zone = Cell("b2", "tomb", (Token("lock", "L"), ZOMBIE, ZOMBIE, ZOMBIE, Token("pawn", "1")))
    assert compact_label(zone, SPREAD) == "L Z3 1"


def test_a_board_too_wide_turns_compact_and_lists_the_stacks_in_full() -> None:
    view = stacks_view()
    full = draw_board(view)
    out = render_plain(board_renderable(view, width=full.width - 1), width=full.width - 1)
    assert "WRWRWRW" not in out.split("Stacks")[0]  # the grid has the short spelling
    assert "1 │[W7 ]│" in out
    width = full.width - 1
    assert f"Stacks too tall for {width} columns are written short (R5 = a stack of 5" in out
    assert "in full, bottom to top: a1 WRWRWRW" in out
    # Narrower than even the compact board: every stack is listed, nothing is lost.
    out = render_plain(board_renderable(view, width=12), width=12)
    assert "cut at 12; every stack, bottom to top: a2 R, a1 WRWRWRW" in out


def test_square_at_finds_the_square_under_a_column_and_a_line() -> None:
    drawing = draw_board(stacks_view())
    assert drawing.squares == (("a2", "b2", "c2"), ("a1", "b1", "c1"))
    x = drawing.margin + 1  # inside the first column
    assert drawing.square_at(x, 1) == "a2" and drawing.square_at(x, 4) == "a1"
    assert drawing.square_at(x + drawing.cell_width, 5) == "b1"
    assert drawing.square_at(x, 0) is None  # the top wall
    assert drawing.square_at(0, 1) is None  # the rank labels


def test_zoomed_and_one_line_boards_keep_their_size_promise() -> None:
    from notation.render.terminal import board_size

    view = stacks_view()
    for compact in (False, True):
        for notes in (False, True):
            for zoom in (0, 1, 3):
                drawing = draw_board(view, compact=compact, notes=notes, zoom=zoom)
                size = board_size(view, compact=compact, notes=notes, zoom=zoom)
                assert size == (drawing.width, drawing.height)
    one_line = draw_board(view, notes=False)
    assert one_line.row_height == 2 and one_line.height == 2 * 2 + 2


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
def test_every_text_on_a_cell_reaches_wcag_aa(game: str) -> None:
    """Labels on their chips, notes and symbols on their cells: 4.5:1 or more."""
    from notation.games import get_game
    from notation.render.terminal import contrast_ratio, ink_on, terminal_palette

    palette = get_game(game).new_position().board_view().palette
    tuned = terminal_palette(palette, list(palette))
    for role, colour in {**palette, **tuned}.items():
        assert contrast_ratio(ink_on(colour), colour) >= 4.5, (game, role, colour)


def test_the_cave_home_row_differs_from_the_squares_on_a_256_colour_terminal() -> None:
    from rich.color import Color, ColorSystem

    from notation.games.cave import PALETTE
    from notation.render.terminal import terminal_palette

    def eight_bit(colour: str) -> int | None:
        return Color.parse(colour).downgrade(ColorSystem.EIGHT_BIT).number

    # As the game paints them, both are greys of the 256-colour palette (59, 241).
    assert {eight_bit(PALETTE["square"]), eight_bit(PALETTE["home-red"])} == {241, 59}
    tuned = terminal_palette(PALETTE, ["square", "home-red", "home-black"])
    assert tuned["square"] == PALETTE["square"]  # the commonest keeps its colour
    red_row = Color.parse(tuned["home-red"]).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
    assert red_row.red > red_row.green + 30  # a red, not a grey


def test_colour_drawings_show_the_role_symbols_too() -> None:
    """No colour is the only sign of a role: the symbols are drawn in colour as well."""
    drawing = draw_board(stacks_view(), plain=False)
    assert "#" in drawing.lines[5].plain  # c1, the tomb, in the lower left corner
    key = render_plain(board_renderable(stacks_view(), width=100, plain=False))
    assert "# tomb" in key and "grave" in key
