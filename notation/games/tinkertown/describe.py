"""What a position tells a person: the diagram, the board view, the facts of the
last move, the annotations and the caption.

docs/tinkertown.md, "Moves as data, and what a move did", "Annotations" and "Board
views" describe the output.  The functions read the position through its
package-internal attributes; :class:`~notation.games.tinkertown.rules.
TinkertownPosition` delegates to them.  (No ``from __future__ import
annotations`` here: it would take the name of :func:`annotations`.)
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from notation.games.tinkertown import rules
from notation.games.tinkertown.board import (
    CHAPEL,
    COLOURS,
    FILES,
    MOVEMENT,
    OFF_BOARD,
    PATHS,
    RED,
    SIDE_NAMES,
    SIZE,
    SQUARE_NAMES,
    WHITE,
    plural,
    zombies,
)
from notation.games.tinkertown.moves import Drop, Move, Resurrection, squares_of, with_mark
from notation.view import BoardView, Cell
from notation.view import Token as ViewToken

if TYPE_CHECKING:
    from notation.games.tinkertown.rules import TinkertownPosition

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


def diagram(position: "TinkertownPosition") -> str:
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


def _diagram_cell(position: "TinkertownPosition", sq: int) -> str:
    if sq in OFF_BOARD:
        return ""
    if sq in CHAPEL:
        return "#"
    if position._tomb[sq]:
        return "+"
    return position._stacks[sq] or "."


# ---------------------------------------------------------------------------
# The last move
# ---------------------------------------------------------------------------


class _Landing(NamedTuple):
    """The last action of the movement stage."""

    square: int  # where it ended
    landed: str  # the group there, before any capture
    zombies: int  # how many zombies the action brought


def _landing(position: "TinkertownPosition") -> _Landing:
    move, changes, _tomb, _movement, _white, _red = position._history[-1]
    if isinstance(move, Move):
        (_origin, group), (square, before) = changes
        path = PATHS[move.origin * 64 + move.target]
        assert path is not None
        return _Landing(square, before + group[-len(path) :], len(path))
    ((square, before),) = changes
    return _Landing(square, before + COLOURS[1 - position._to_move], 1)


def last_move_facts(position: "TinkertownPosition") -> dict[str, Any]:
    """What the last move did (docs/tinkertown.md, "Moves as data, and what a move did")."""
    if not position._history:
        return {}
    move, _changes, tomb, movement, _white, _red = position._history[-1]
    side = SIDE_NAMES[1 - position._to_move]
    facts: dict[str, Any] = {}
    above = False
    if not movement:
        if isinstance(move, Resurrection):
            facts.update(action="resurrection", side=side, zombies=2)
        else:
            facts.update(action="placement", side=side, zombies=1)
        facts["captured"] = False
    else:
        landing = _landing(position)
        action = "move" if isinstance(move, Move) else "entry"
        facts.update(action=action, side=side, zombies=landing.zombies)
        facts["captured"] = tomb >= 0
        if tomb >= 0:
            facts["removed"] = {
                "white": landing.landed.count("w"),
                "red": landing.landed.count("r"),
            }
        else:
            square = landing.square
            above = rules.captures(position._stacks[square], position._capacity[square])
    facts["tombstone"] = SQUARE_NAMES[tomb] if tomb >= 0 else None
    facts["above_capacity"] = above
    facts["stage_over"] = not movement and position._movement
    facts["winner"] = SIDE_NAMES[position._winner] if position._winner >= 0 else None
    return facts


def annotations(position: "TinkertownPosition") -> list[tuple[str, str]]:
    """Facts for ``[%key value]`` comments (docs/tinkertown.md, "Annotations")."""
    out: list[tuple[str, str]] = []
    if position._history:
        _move, _changes, tomb, movement, _white, _red = position._history[-1]
        if tomb >= 0:
            landed = _landing(position).landed
            out.append(
                ("capture", f"{SQUARE_NAMES[tomb]} {landed.count('w')}w {landed.count('r')}r")
            )
        if not movement and position._movement:
            out.append(("stage", MOVEMENT))
    if position._movement:
        over = position.over_capacity()
        if over:
            out.append(("over", " ".join(SQUARE_NAMES[sq] for sq in over)))
        white, red = position._controlled
        out.append(("control", f"W{white} R{red}"))
    return out


# ---------------------------------------------------------------------------
# The board view
# ---------------------------------------------------------------------------


def board_view(position: "TinkertownPosition") -> BoardView:
    """The position for the renderers (docs/tinkertown.md, "Board views")."""
    over = set(position.over_capacity())
    cells = {SQUARE_NAMES[sq]: _view_cell(position, sq, over) for sq in range(SIZE * SIZE)}
    marks: tuple[str, ...] = ()
    if position._history:
        marks = tuple(SQUARE_NAMES[sq] for sq in squares_of(position._history[-1][0]))
    return BoardView(
        files=tuple(FILES),
        ranks=tuple(str(r) for r in range(1, SIZE + 1)),
        cells=MappingProxyType(cells),
        palette=PALETTE,
        marks=marks,
        facts=_view_facts(position, over),
        caption=caption(position),
    )


def _view_cell(position: "TinkertownPosition", sq: int, over: set[int]) -> Cell:
    name = SQUARE_NAMES[sq]
    if sq in OFF_BOARD:
        return Cell(name, "off")
    if sq in CHAPEL:
        return Cell(name, "chapel")
    if position._tomb[sq]:
        return Cell(name, "tombstone")
    tokens = tuple(_VIEW_TOKENS[c] for c in position._stacks[sq])
    role = "over" if sq in over else "grave"
    return Cell(name, role, tokens, str(position._capacity[sq]))


def _view_facts(position: "TinkertownPosition", over: set[int]) -> tuple[tuple[str, str], ...]:
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


def caption(position: "TinkertownPosition") -> str:
    """The last move and what it did, in words ("" at the start)."""
    if not position._history:
        return ""
    move, _changes, tomb, movement, _white, _red = position._history[-1]
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
        elif square in position.over_capacity():
            text += f"; {SQUARE_NAMES[square]} stands above capacity, not captured"
    if position._winner >= 0:
        text += f"; {SIDE_NAMES[position._winner]} wins"
    return text
