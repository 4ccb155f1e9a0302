"""Move assessment: wins at once, and the moves that allow or miss one.

docs/tinkertown.md, "Move assessment (``annotate --analyze``)".  An action changes
two graves at most, and the grave it leaves was the mover's, so it takes at most
one group from the opponent: only a side with one group or none can lose at once,
and then an entry wins.  So the test is exact and cheap: most moves cost one push
and pop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.errors import IllegalMoveError
from notation.games.tinkertown import rules
from notation.games.tinkertown.board import COLOURS, GRAVES, MOVEMENT, SIDE_NAMES
from notation.games.tinkertown.moves import DROPS, Drop, TinkertownMove
from notation.view import Assessment

if TYPE_CHECKING:
    from notation.games.tinkertown.rules import TinkertownPosition


def assess_move(position: TinkertownPosition, move: TinkertownMove) -> Assessment | None:
    """``??``, ``?`` or ``!`` for a move of the movement stage, or None.

    ``??`` lets the opponent win at once, ``?`` misses a win at once, ``!`` is the
    only move that does not lose at once.  ``position`` is left as it was.
    """
    if position.stage != MOVEMENT or position.outcome() is not None:
        return None
    side = position.side_to_move
    try:
        position.push(move)
    except IllegalMoveError:
        return None
    try:
        if position.winner == side:
            return None
        reply = winning_move(position)
    finally:
        position.pop()
    if reply is not None:
        return Assessment("??", f"allows {reply}, which wins for {SIDE_NAMES[1 - side]}")
    win = winning_move(position)
    if win is not None:
        return Assessment("?", f"misses {win}, which wins at once")
    if _only_safe(position, move):
        return Assessment("!", "the only move that does not lose at once")
    return None


def winning_move(position: TinkertownPosition) -> TinkertownMove | None:
    """A move that wins at once for the side to move, or None (movement stage only).

    Only an opponent with one group or none can lose at once, and then an entry
    wins: on that last group (covered or captured), or anywhere if there is none.
    """
    if not position._movement or position._winner >= 0:
        return None
    mover = position._to_move
    count = position._controlled[1 - mover]
    if count > 1:
        return None
    stacks, tomb, capacity = position._stacks, position._tomb, position._capacity
    for sq in GRAVES:
        if tomb[sq]:
            continue
        before = stacks[sq]
        if count and (not before or before[-1] != COLOURS[1 - mover]):
            continue
        return DROPS[sq][rules.captures(before + COLOURS[mover], capacity[sq], before)]
    return None


def _only_safe(position: TinkertownPosition, move: TinkertownMove) -> bool:
    """Whether ``move`` (safe, legal) is the only legal move after which the
    opponent cannot win at once.  No move of the mover wins here."""
    side = position._to_move
    # An action takes at most two groups from the mover (its origin uncovered, its
    # target captured): with four or more, every move is safe.
    if position._controlled[side] >= 4:
        return False
    # An entry on an empty grave adds a group (the mover has one at least).
    stacks, tomb = position._stacks, position._tomb
    entered = move.square if isinstance(move, Drop) else -1
    if any(not stacks[sq] and not tomb[sq] and sq != entered for sq in GRAVES):
        return False
    played = position.canonical(move)
    for other in position.legal_moves():
        if other == played:
            continue
        position.push(other)
        safe = position._controlled[side] >= 2 or position._winner == side
        position.pop()
        if safe:
            return False
    return True
