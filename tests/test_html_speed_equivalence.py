"""The quick paths of the HTML page give what the straightforward ones gave.

Tinkertown's ``board_view`` shares its cells between positions (a cache by contents)
and counts what it needs once: the reference below is the plain construction it
replaced, and the two must agree on every position of many random games, including
the objects they are made of, field for field.
"""

from __future__ import annotations

import random
from types import MappingProxyType

import pytest

from notation.games.tinkertown import GAME, TinkertownPosition, describe
from notation.games.tinkertown.board import (
    CHAPEL,
    FILES,
    OFF_BOARD,
    RED,
    SIDE_NAMES,
    SIZE,
    SQUARE_NAMES,
    WHITE,
    plural,
    zombies,
)
from notation.games.tinkertown.moves import squares_of
from notation.games.tinkertown.strings import BOARD_LEGEND
from notation.games.view import BoardView, Cell
from notation.games.view import Token as ViewToken

# -- the reference: Tinkertown's board view as it was built before it was made quick ----

_TOKENS = {"w": ViewToken("white", "W"), "r": ViewToken("red", "R")}


def reference_board_view(position: TinkertownPosition) -> BoardView:
    over = set(position.over_capacity())
    cells = {SQUARE_NAMES[sq]: _reference_cell(position, sq, over) for sq in range(SIZE * SIZE)}
    marks: tuple[str, ...] = ()
    if position._history:
        marks = tuple(SQUARE_NAMES[sq] for sq in squares_of(position._history[-1][0]))
    return BoardView(
        files=tuple(FILES),
        ranks=tuple(str(r) for r in range(1, SIZE + 1)),
        cells=MappingProxyType(cells),
        palette=describe.PALETTE,
        marks=marks,
        facts=_reference_facts(position, over),
        caption=describe.caption(position),
        legend=BOARD_LEGEND,
    )


def _reference_cell(position: TinkertownPosition, sq: int, over: set[int]) -> Cell:
    name = SQUARE_NAMES[sq]
    if sq in OFF_BOARD:
        return Cell(name, "off")
    if sq in CHAPEL:
        return Cell(name, "chapel")
    if position._tomb[sq]:
        return Cell(name, "tombstone")
    tokens = tuple(_TOKENS[c] for c in position._stacks[sq])
    role = "over" if sq in over else "grave"
    return Cell(name, role, tokens, str(position._capacity[sq]))


def _reference_facts(
    position: TinkertownPosition, over: set[int]
) -> tuple[tuple[str, str], ...]:
    facts: list[tuple[str, str]] = []
    if position._winner >= 0:
        facts.append(("Winner", SIDE_NAMES[position._winner]))
    else:
        facts.append(("To move", position.mover))
    facts.append(("Stage", position.stage))
    facts.append(("Turns played", str(position.turn)))
    last = position._last
    if not position._movement and last[WHITE] >= 0:
        placed = [
            f"{SIDE_NAMES[side]} {SQUARE_NAMES[last[side]]}"
            for side in (WHITE, RED)
            if last[side] >= 0
        ]
        facts.append(("Last placed", ", ".join(placed)))
    for side in (WHITE, RED):
        groups, count = position._controlled[side], position.zombie_count(side)
        facts.append((SIDE_NAMES[side], f"{plural(groups, 'group')}, {zombies(count)}"))
    facts.append(("Tombstones", str(sum(position._tomb))))
    names = " ".join(SQUARE_NAMES[sq] for sq in sorted(over))
    facts.append(("Above capacity", names or "none"))
    return tuple(facts)


def reference_caption(position: TinkertownPosition) -> str:
    """The caption as it was: asks the position for its groups above capacity."""
    return describe.caption(position, over=position.over_capacity())


def assert_same_view(fast: BoardView, slow: BoardView) -> None:
    assert fast == slow
    # The order of the squares is the page's frame: it must be the same too.
    assert list(fast.cells) == list(slow.cells)
    assert type(fast.cells) is type(slow.cells)
    for name, cell in slow.cells.items():
        assert fast.cells[name] == cell and fast.cells[name].square == name


def positions(seed: int, games: int) -> list[TinkertownPosition]:
    """Every position of ``games`` random games: the resurrection stage, the movement
    stage, captures, positions above capacity and the ends."""
    rng = random.Random(seed)
    out: list[TinkertownPosition] = []
    for _ in range(games):
        position = GAME.new_position()
        out.append(position.copy())
        for _ in range(400):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
            out.append(position.copy())
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_board_view_of_random_positions_is_the_reference(seed: int) -> None:
    seen = positions(seed, 12)
    assert len(seen) > 1000
    roles = set()
    for position in seen:
        fast = position.board_view()
        assert_same_view(fast, reference_board_view(position))
        assert describe.caption(position) == reference_caption(position)
        roles.update(c.role for c in fast.cells.values())
    # The positions had every kind of square, groups above capacity included.
    assert roles == {"off", "chapel", "grave", "over", "tombstone"}


def test_the_board_view_after_undoing_moves_is_the_reference() -> None:
    rng = random.Random(9)
    position = GAME.new_position()
    for _ in range(150):
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    while position._history:
        assert_same_view(position.board_view(), reference_board_view(position))
        position.pop()
    assert_same_view(position.board_view(), reference_board_view(position))


def test_cells_of_the_same_contents_are_shared() -> None:
    first, second = GAME.new_position(), GAME.new_position()
    a, b = first.board_view(), second.board_view()
    assert all(a.cells[name] is b.cells[name] for name in a.cells)
    # Still the reference's: a cache never hands out a cell of other contents.
    assert_same_view(a, reference_board_view(first))


def test_the_cell_cache_stays_bounded() -> None:
    for position in positions(4, 4):
        position.board_view()
    assert 0 < describe.cached_cells() <= describe.CELL_CACHE_SIZE
