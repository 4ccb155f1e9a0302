"""What a position tells a person: the diagram, the board view, the facts of the
last move, the annotations and the caption (docs/tinkertown.md, "Moves as data, and
what a move did", "Annotations" and "Board views").

No ``from __future__ import annotations`` here: it would take the name of
:func:`annotations`.
"""

import functools
from collections.abc import Mapping, Sequence
from itertools import compress
from operator import is_not
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from notation.games.tinkertown import rules
from notation.games.tinkertown.board import (
    CHAPEL,
    COLOURS,
    FILES,
    IS_GRAVE,
    MOVEMENT,
    OFF_BOARD,
    PATHS,
    RED,
    RESURRECTION,
    SIDE_NAMES,
    SIZE,
    SQUARE_NAMES,
    WHITE,
    plural,
    zombies,
)
from notation.games.tinkertown.moves import Drop, Move, Resurrection, squares_of, with_mark
from notation.games.tinkertown.rules import TinkertownUndo
from notation.games.tinkertown.strings import BOARD_LEGEND
from notation.games.view import BoardView, Cell
from notation.games.view import Token as ViewToken

if TYPE_CHECKING:
    from notation.games.tinkertown.rules import TinkertownRules

#: Colours of the board view's roles: a dark cemetery, bone-white and red zombies.
PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "off": "#15171b",
        "grave": "#34402f",
        "over": "#7a4a1c",
        "chapel": "#4c4258",
        "tombstone": "#8b9099",
        "white": "#f1ecdf",
        "red": "#d63a2f",
    }
)
_VIEW_TOKENS: Final = {"w": ViewToken("white", "W"), "r": ViewToken("red", "R")}


def diagram(position: "TinkertownRules") -> str:
    """The board as text, rank 8 at the top, and a line saying whose turn it is."""
    width = max(2, *(len(s) for s in position._stacks)) + 1
    lines = []
    for rank in range(SIZE - 1, -1, -1):
        cells = "".join(
            _diagram_cell(position, file + SIZE * rank).ljust(width) for file in range(SIZE)
        )
        lines.append(f"{rank + 1}  {cells.rstrip()}")
    lines.append("   " + "".join(f.ljust(width) for f in FILES).rstrip())
    if position._winner >= 0:
        lines.append(f"{SIDE_NAMES[position._winner]} won at turn {position._win_turn}")
    else:
        lines.append(f"{position.mover} to move, {position.stage} stage, turn {position.turn + 1}")
    return "\n".join(lines)


def _diagram_cell(position: "TinkertownRules", sq: int) -> str:
    if sq in OFF_BOARD:
        return ""
    if sq in CHAPEL:
        return "#"
    if position._tomb[sq]:
        return "+"
    return position._stacks[sq] or "."


# -- the last move ---------------------------------------------------------------


class _Landing(NamedTuple):
    """The last action of the movement stage."""

    square: int  # where it ended
    landed: str  # the group there, before any capture
    zombies: int  # how many zombies the action brought


def _landing(position: "TinkertownRules") -> _Landing:
    last = TinkertownUndo._make(position._history[-1])
    move, changes = last.move, last.changes
    if isinstance(move, Move):
        (_origin, group), (square, before) = changes
        path = PATHS[move.origin * 64 + move.target]
        assert path is not None
        return _Landing(square, before + group[-len(path) :], len(path))
    ((square, before),) = changes
    return _Landing(square, before + COLOURS[1 - position._to_move], 1)


def last_move_facts(position: "TinkertownRules") -> dict[str, Any]:
    """What the last move did (docs/tinkertown.md, "Moves as data, and what a move did"),
    read from the history entry; ``_reference_last_move_facts`` in
    tests/test_describe_equivalence.py is the plain version it must equal."""
    history = position._history
    if not history:
        return {}
    last = TinkertownUndo._make(history[-1])
    move, tomb = last.move, last.tomb
    side = SIDE_NAMES[position._to_move ^ 1]
    winner = SIDE_NAMES[position._winner] if position._winner >= 0 else None
    above = False
    if not last.movement:
        # No capture and no win in the resurrection stage: only the kind differs.
        if isinstance(move, Resurrection):
            action, count = "resurrection", 2
        else:
            action, count = "placement", 1
    else:
        square, landed, count = _landing(position)
        action = "move" if isinstance(move, Move) else "entry"
        if tomb >= 0:
            return {
                "action": action,
                "side": side,
                "zombies": count,
                "captured": True,
                "removed": {"white": landed.count("w"), "red": landed.count("r")},
                "tombstone": SQUARE_NAMES[tomb],
                "above_capacity": False,
                "stage_over": False,
                "winner": winner,
            }
        above = rules.captures(position._stacks[square], position._capacity[square])
    return {
        "action": action,
        "side": side,
        "zombies": count,
        "captured": False,
        "tombstone": None,
        "above_capacity": above,
        "stage_over": not last.movement and position._movement,
        "winner": winner,
    }


#: The annotations' (key, value) pairs, made once each: ``[%capture]`` by (tombstone,
#: white, red); ``[%control]`` by (white << 8 | red); ``[%over]`` by the squares.  Bounded.
_CAPTURE_NOTES: dict[tuple[int, int, int], tuple[str, str]] = {}
_CONTROL_NOTES: dict[int, tuple[str, str]] = {}
_OVER_NOTES: dict[tuple[int, ...], tuple[str, str]] = {}
_STAGE_NOTE: Final = ("stage", MOVEMENT)
NOTES_CACHE_SIZE: Final = 20_000


def _note(
    cache: dict[Any, tuple[str, str]], key: Any, key_name: str, value: str
) -> tuple[str, str]:
    if len(cache) >= NOTES_CACHE_SIZE:
        cache.clear()
    note = cache[key] = (key_name, value)
    return note


def annotations(position: "TinkertownRules") -> list[tuple[str, str]]:
    """Facts for ``[%key value]`` comments (docs/tinkertown.md, "Annotations"); each pair
    comes from a cache by what it says (see above)."""
    if not position._movement:
        return []  # nothing to say in the resurrection stage, which never captures
    out: list[tuple[str, str]] = []
    history = position._history
    if history:
        last = TinkertownUndo._make(history[-1])
        if last.tomb >= 0:  # the action captured: a tombstone went on this grave
            landed = _landing(position).landed
            key = (last.tomb, landed.count("w"), landed.count("r"))
            note = _CAPTURE_NOTES.get(key)
            if note is None:
                note = _note(
                    _CAPTURE_NOTES, key, "capture", f"{SQUARE_NAMES[key[0]]} {key[1]}w {key[2]}r"
                )
            out.append(note)
        elif not last.movement:  # this placement ended the resurrection stage
            out.append(_STAGE_NOTE)
    over = position._over_squares()
    if over:
        note = _OVER_NOTES.get(over)
        if note is None:
            note = _note(_OVER_NOTES, over, "over", " ".join(SQUARE_NAMES[sq] for sq in over))
        out.append(note)
    white, red = position._controlled
    note = _CONTROL_NOTES.get(white << 8 | red)  # fewer than 256 groups a side
    if note is None:
        note = _note(_CONTROL_NOTES, white << 8 | red, "control", f"W{white} R{red}")
    out.append(note)
    return out


# -- the board view --------------------------------------------------------------


def board_view(position: "TinkertownRules") -> BoardView:
    """The position for the renderers (docs/tinkertown.md, "Board views").

    A square's :class:`~notation.games.view.Cell` comes from a cache by its contents (cells
    are frozen, so views share them), and when the board differs from the last one
    viewed in a few stacks (the next position of a replay), only those are looked at.
    """
    global _last_board
    stacks, capacity, tomb = position._stacks, position._capacity, position._tomb
    last = _last_board
    if last is not None and capacity == last.capacity and tomb == last.tomb:
        # A move replaces the strings of the stacks it changes, and only those.
        changed = list(compress(_ALL_SQUARES, map(is_not, stacks, last.stacks)))
        cells = dict(last.cells)
        above = last.above
        if changed:
            now = set(above)
            for sq in changed:
                if not IS_GRAVE[sq]:
                    continue  # always empty, its cell never changes
                cell, over_here = _grave(sq, stacks[sq], capacity[sq])
                if over_here:
                    now.add(sq)
                else:
                    now.discard(sq)
                cells[SQUARE_NAMES[sq]] = _TOMBSTONES[sq] if tomb[sq] else cell
            above = frozenset(now)
        over = sorted(above)  # in square order, as over_capacity() gives them
    else:
        cells = {}
        over = []
        for sq, name, fixed in _SQUARES:
            if fixed is not None:
                cells[name] = fixed
                continue
            cell, over_here = _grave(sq, stacks[sq], capacity[sq])
            if over_here:
                over.append(sq)
            cells[name] = _TOMBSTONES[sq] if tomb[sq] else cell
        above = frozenset(over)
    _last_board = _Board(list(stacks), list(capacity), list(tomb), cells, above)
    marks: tuple[str, ...] = ()
    if position._history:
        move = TinkertownUndo._make(position._history[-1]).move
        marks = tuple(SQUARE_NAMES[sq] for sq in squares_of(move))
    return BoardView(
        files=_VIEW_FILES,
        ranks=_VIEW_RANKS,
        cells=MappingProxyType(cells),
        palette=PALETTE,
        marks=marks,
        facts=_view_facts(position, over),
        caption=caption(position, over),
        legend=BOARD_LEGEND,
    )


_VIEW_FILES: Final = tuple(FILES)
_VIEW_RANKS: Final = tuple(str(r) for r in range(1, SIZE + 1))
#: Each square, its name, and its cell when it never changes (off the board, the
#: chapel), in square order: the order of the view's cells.
_SQUARES: Final = tuple(
    (
        sq,
        SQUARE_NAMES[sq],
        Cell(SQUARE_NAMES[sq], "off") if sq in OFF_BOARD
        else Cell(SQUARE_NAMES[sq], "chapel") if sq in CHAPEL
        else None,
    )
    for sq in range(SIZE * SIZE)
)
_TOMBSTONES: Final = tuple(Cell(name, "tombstone") for name in SQUARE_NAMES)
#: Every square once: for a comparison of two boards' stacks, square by square.
_ALL_SQUARES: Final = range(SIZE * SIZE)


class _Board(NamedTuple):
    """The board of the last view made: what the next one starts from.  Never changed
    once made (a copy of the position's lists), so that threads may share it."""

    stacks: list[str]
    capacity: list[int]
    tomb: list[bool]
    cells: dict[str, Cell]
    above: frozenset[int]


_last_board: _Board | None = None

#: At most this many grave cells are kept; past it the cache starts again (a page of
#: thousands of games meets a few thousand of them).
CELL_CACHE_SIZE: Final = 20_000
#: (square, stack, capacity) -> the grave's cell, and whether its group stands above
#: capacity (``rules.captures`` of the stack and capacity).
_CELLS: dict[tuple[int, str, int], tuple[Cell, bool]] = {}


def _grave(sq: int, stack: str, cap: int) -> tuple[Cell, bool]:
    """The cell of grave ``sq`` (not a tombstone), and whether it is above capacity."""
    key = (sq, stack, cap)
    found = _CELLS.get(key)
    if found is not None:
        return found
    above = rules.captures(stack, cap)
    tokens = tuple(_VIEW_TOKENS[c] for c in stack)
    found = (Cell(SQUARE_NAMES[sq], "over" if above else "grave", tokens, str(cap)), above)
    if len(_CELLS) >= CELL_CACHE_SIZE:
        _CELLS.clear()
    _CELLS[key] = found
    return found


def cached_cells() -> int:
    """How many grave cells the cache holds (at most :data:`CELL_CACHE_SIZE`)."""
    return len(_CELLS)


def _view_facts(position: "TinkertownRules", over: list[int]) -> tuple[tuple[str, str], ...]:
    facts: list[tuple[str, str]] = []
    if position._winner >= 0:
        facts.append(("Winner", SIDE_NAMES[position._winner]))
    else:
        facts.append(("To move", SIDE_NAMES[position._to_move]))
    facts.append(("Stage", MOVEMENT if position._movement else RESURRECTION))
    facts.append(("Turns played", str(position.turn)))
    last = position._last
    if not position._movement and last[WHITE] >= 0:
        placed = [
            f"{SIDE_NAMES[side]} {SQUARE_NAMES[last[side]]}"
            for side in (WHITE, RED)
            if last[side] >= 0
        ]
        facts.append(("Last placed", ", ".join(placed)))
    # The zombies of both sides in one pass over the board.
    board = "".join(position._stacks)
    counts = (board.count(COLOURS[WHITE]), board.count(COLOURS[RED]))
    controlled = position._controlled
    for side in (WHITE, RED):
        facts.append((SIDE_NAMES[side], _side_fact(controlled[side], counts[side])))
    facts.append(("Tombstones", str(position._tomb.count(True))))
    names = " ".join(SQUARE_NAMES[sq] for sq in over)
    facts.append(("Above capacity", names or "none"))
    return tuple(facts)


@functools.lru_cache(maxsize=4096)
def _side_fact(groups: int, count: int) -> str:
    return f"{plural(groups, 'group')}, {zombies(count)}"


def caption(position: "TinkertownRules", over: Sequence[int] | None = None) -> str:
    """The last move and what it did, in words ("" at the start).  ``over``: the
    graves above capacity, when the caller has them (else they are found here)."""
    if not position._history:
        return ""
    last = TinkertownUndo._make(position._history[-1])
    move, tomb, movement = last.move, last.tomb, last.movement
    turn = position.turn
    number = f"{(turn - 1) // 2 + 1}{'.' if turn % 2 else '...'}"
    side = SIDE_NAMES[1 - position._to_move]
    captured = tomb >= 0
    move = with_mark(move, captured)
    text = f"{number} {move}: "
    if isinstance(move, Resurrection):
        text += f"{side} placed zombies on {SQUARE_NAMES[move.a]} and {SQUARE_NAMES[move.b]}"
    elif not movement:
        assert isinstance(move, Drop)
        text += f"{side} placed a zombie on {SQUARE_NAMES[move.square]}"
        if position._movement:
            text += f"; the resurrection stage is over, {position.mover} moves first"
    else:
        landing = _landing(position)
        if isinstance(move, Move):
            text += f"{side} moved {zombies(landing.zombies)}"
        else:
            text += f"{side} entered a zombie"
        square, landed = landing.square, landing.landed
        if captured:
            text += (
                f"; captured on {SQUARE_NAMES[square]}: {landed.count('w')} white, "
                f"{landed.count('r')} red; tombstone"
            )
        elif square in (position.over_capacity() if over is None else over):
            text += f"; {SQUARE_NAMES[square]} stands above capacity, not captured"
    if position._winner >= 0:
        text += f"; {SIDE_NAMES[position._winner]} wins"
    return text
