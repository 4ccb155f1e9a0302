"""Tinkertown Cemetery (Christian Freeling, Mindsports).

The rules are those of RULINGS.md section 1; docs/tinkertown.md explains them
and the notation, and marks the rulings that are ours.

Squares are small ints, ``file + 8 * rank`` (a1 = 0, h8 = 63).  All board
geometry (which squares are graves, their neighbours, the lines a group can
travel, the squares a move passes) is computed once, below, into tuples: the
rules as data.  A position keeps one string per square for its stack, bottom to
top, ``"w"`` for a white zombie and ``"r"`` for a red one, so moving the top k
zombies is a slice and "does this group hold both colours" is two ``in`` tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Self

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from notation.errors import IllegalMoveError, MoveSyntaxError
from notation.games.base import WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser

__all__ = [
    "CHAPEL",
    "GAME",
    "GRAVES",
    "MOVEMENT",
    "NEIGHBOURS",
    "OFF_BOARD",
    "RED",
    "RESURRECTION",
    "SIDE_NAMES",
    "SQUARE_NAMES",
    "WHITE",
    "Drop",
    "Move",
    "Resurrection",
    "TinkertownGame",
    "TinkertownMove",
    "TinkertownPosition",
    "parse_square",
]

# ---------------------------------------------------------------------------
# Board geometry
# ---------------------------------------------------------------------------

FILES = "abcdefgh"
SIZE = 8
#: ``SQUARE_NAMES[sq]`` is the name of square ``sq`` ("a1" .. "h8").
SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(SIZE * SIZE)
)
_SQUARE_INDEX: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

#: The three squares at each corner of the grid that are not part of the cemetery.
OFF_BOARD: frozenset[int] = frozenset(
    _SQUARE_INDEX[n]
    for n in ("a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7")
)
#: The chapel, the centre 2x2: squares of the grid, but not graves.
CHAPEL: frozenset[int] = frozenset(_SQUARE_INDEX[n] for n in ("d4", "e4", "d5", "e5"))
#: The 48 graves, in square order.
GRAVES: tuple[int, ...] = tuple(
    sq for sq in range(SIZE * SIZE) if sq not in OFF_BOARD and sq not in CHAPEL
)
IS_GRAVE: tuple[bool, ...] = tuple(sq in GRAVES for sq in range(SIZE * SIZE))

# Up, down, right, left as (file step, rank step).
_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    """The squares of the grid from ``sq`` (excluded) to the edge, in one direction."""
    f, r = sq % SIZE + df, sq // SIZE + dr
    out: list[int] = []
    while 0 <= f < SIZE and 0 <= r < SIZE:
        out.append(f + SIZE * r)
        f, r = f + df, r + dr
    return tuple(out)


def _graves_until_blocked(ray: tuple[int, ...]) -> tuple[int, ...]:
    """The leading graves of a ray: the chapel and off-board squares stop travel."""
    out: list[int] = []
    for sq in ray:
        if not IS_GRAVE[sq]:
            break
        out.append(sq)
    return tuple(out)


def _neighbours(sq: int) -> tuple[int, ...]:
    if not IS_GRAVE[sq]:
        return ()
    out = []
    for df, dr in _STEPS:
        ray = _ray(sq, df, dr)
        if ray and IS_GRAVE[ray[0]]:
            out.append(ray[0])
    return tuple(out)


def _rays(sq: int) -> tuple[tuple[int, ...], ...]:
    if not IS_GRAVE[sq]:
        return ()
    rays = (_graves_until_blocked(_ray(sq, df, dr)) for df, dr in _STEPS)
    return tuple(ray for ray in rays if ray)


def _path(src: int, dst: int) -> tuple[int, ...] | None:
    for df, dr in _STEPS:
        ray = _ray(src, df, dr)
        if dst in ray:
            return ray[: ray.index(dst) + 1]
    return None


#: ``NEIGHBOURS[sq]``: the graves orthogonally next to grave ``sq`` (() for a non-grave).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SIZE * SIZE))
#: ``RAYS[sq]``: for each direction, the graves a group on ``sq`` may travel over,
#: nearest first, up to the first chapel square, off-board square or edge.
#: Tombstones are not in this table; they are checked during play.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(sq) for sq in range(SIZE * SIZE))
#: ``PATHS[src * 64 + dst]``: the squares a move from src to dst passes, dst last,
#: for every pair of distinct squares on one rank or file of the grid; else None.
PATHS: tuple[tuple[int, ...] | None, ...] = tuple(
    _path(src, dst) for src in range(SIZE * SIZE) for dst in range(SIZE * SIZE)
)

WHITE, RED = 0, 1
#: Side names, indexed by WHITE / RED.
SIDE_NAMES = ("White", "Red")
#: The letter of each side's zombies in a stack string.
COLOURS = "wr"
RESURRECTION = "resurrection"
MOVEMENT = "movement"


def parse_square(name: str) -> int:
    """The square called ``name`` ("a1" .. "h8", any case); ``ValueError`` if none."""
    try:
        return _SQUARE_INDEX[name.strip().lower()]
    except KeyError:
        raise ValueError(f"{name!r} is not a square (files a-h, ranks 1-8)") from None


def _not_a_grave(sq: int) -> str | None:
    """Why ``sq`` is not a grave, or None if it is one."""
    if sq in CHAPEL:
        return f"{SQUARE_NAMES[sq]} is the chapel, not a grave"
    if sq in OFF_BOARD:
        return f"{SQUARE_NAMES[sq]} is outside the cemetery, not a grave"
    return None


def _zombies(n: int) -> str:
    return f"{n} zombie" if n == 1 else f"{n} zombies"


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Drop:
    """One zombie put on one grave.

    What it means depends on the stage: White's opening placement, the single
    placement that ends the resurrection stage, or an entry in the movement
    stage.  ``marked`` is the capture mark (``h3x``); only an entry can capture.
    """

    square: int
    marked: bool = False

    def __str__(self) -> str:
        return SQUARE_NAMES[self.square] + ("x" if self.marked else "")


@dataclass(frozen=True, slots=True)
class Resurrection:
    """A resurrection turn of two placements: (a) ``a`` then (b) ``b`` (``d2,b5``).

    ``marked`` records a capture mark written after either square; the rules
    refuse it (a placement never captures), but it is well-formed.
    """

    a: int
    b: int
    marked: bool = False

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.a]},{SQUARE_NAMES[self.b]}" + ("x" if self.marked else "")


@dataclass(frozen=True, slots=True)
class Move:
    """The top k zombies of the group on ``src`` moved to ``dst``, k graves away.

    Canonical text: ``h5-h3``, or ``h5xh3`` with the capture mark.
    """

    src: int
    dst: int
    marked: bool = False

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.src]}{'x' if self.marked else '-'}{SQUARE_NAMES[self.dst]}"


TinkertownMove = Drop | Resurrection | Move

# Every move and entry the board geometry allows, made once: legal_moves() hands
# out these shared immutable objects instead of building new ones every turn.
_MOVES: dict[tuple[int, int, bool], Move] = {
    (src, dst, marked): Move(src, dst, marked)
    for src in GRAVES
    for ray in RAYS[src]
    for dst in ray
    for marked in (False, True)
}
_DROPS: tuple[tuple[Drop, Drop], ...] = tuple(
    (Drop(sq, False), Drop(sq, True)) for sq in range(SIZE * SIZE)
)


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


class _MoveBuilder(Transformer[Token, TinkertownMove]):
    """Builds typed moves while the LALR parser runs (no tree is kept)."""

    def drop(self, children: list[Token]) -> Drop:
        return Drop(_SQUARE_INDEX[children[0]], len(children) > 1)

    def pair(self, children: list[Token]) -> Resurrection:
        squares = [_SQUARE_INDEX[c] for c in children if c.type == "SQUARE"]
        return Resurrection(squares[0], squares[1], len(children) > 2)

    def move(self, children: list[Token]) -> Move:
        return Move(_SQUARE_INDEX[children[0]], _SQUARE_INDEX[children[1]], len(children) > 2)

    def move_x(self, children: list[Token]) -> Move:
        return Move(_SQUARE_INDEX[children[0]], _SQUARE_INDEX[children[2]], True)


_SQUARELIKE = re.compile(r"[a-z]\d+")


def _explain_syntax(text: str) -> str:
    """A sentence saying why ``text`` is not a Tinkertown move."""
    low = text.lower()
    for candidate in _SQUARELIKE.findall(low):
        if candidate not in _SQUARE_INDEX:
            return f"{candidate} is not a square (files a-h, ranks 1-8)"
    if low.count(",") > 1:
        return f"{text} has {low.count(',')} commas; a resurrection turn is written d2,b5"
    if re.fullmatch(r"[a-h][1-8]x[a-h][1-8]x", low):
        return f"{text} has two capture marks; write {low[:-1]} or {low[:2]}-{low[3:]}"
    return (
        f"{text!r} is not a Tinkertown move: expected a square (d3, h3x), "
        "two placements (d2,b5) or a move (h5-h3, h5xh3, h5-h3x)"
    )


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

# One history entry: the move, the (square, stack before) pairs it changed, the
# square that got a tombstone (-1 if none), and the stage and last placements
# before the move.  That is all pop() needs to restore the position exactly.
_Undo = tuple[TinkertownMove, tuple[tuple[int, str], ...], int, bool, int, int]


class TinkertownPosition(Position[TinkertownMove]):
    """A game of Tinkertown Cemetery in progress (mutable, with push/pop)."""

    __slots__ = (
        "_capacity",
        "_controlled",
        "_history",
        "_last",
        "_movement",
        "_stacks",
        "_to_move",
        "_tomb",
        "_win_turn",
        "_winner",
    )

    def __init__(self) -> None:
        self._stacks: list[str] = [""] * (SIZE * SIZE)
        self._tomb: list[bool] = [False] * (SIZE * SIZE)
        # Graves next to each grave that carry no tombstone; kept up to date as
        # tombstones come and go.  Meaningless (and never read) on a tombstone.
        self._capacity: list[int] = [len(n) for n in NEIGHBOURS]
        # Groups each side controls (top zombie of its colour): the win test.
        self._controlled: list[int] = [0, 0]
        # Each side's most recent placement in the resurrection stage (-1: none).
        self._last: list[int] = [-1, -1]
        self._movement = False
        self._to_move = WHITE
        self._winner = -1
        self._win_turn = 0
        self._history: list[_Undo] = []

    @classmethod
    def setup(
        cls,
        stacks: Mapping[str, str],
        tombstones: Iterable[str] = (),
        to_move: int = WHITE,
    ) -> Self:
        """A position of the movement stage, for puzzles, diagrams and tests.

        ``stacks`` maps square names to stacks written bottom to top ("wr": a
        red zombie on a white one); ``tombstones`` names graves with a
        tombstone.  :attr:`turn` counts from 0 here.  ``ValueError`` if a
        square is not a grave, a stack has a letter other than w and r, or a
        tombstone shares its grave with zombies.
        """
        if to_move not in (WHITE, RED):
            raise ValueError(f"to_move is WHITE (0) or RED (1), not {to_move!r}")
        pos = cls()
        pos._movement = True
        pos._to_move = to_move
        groups: dict[int, str] = {}
        for name, stack in stacks.items():
            sq = parse_square(name)
            why = _not_a_grave(sq)
            if why:
                raise ValueError(why)
            groups[sq] = stack.lower()
            if groups[sq].strip("wr"):
                raise ValueError(f"stack {stack!r} on {name}: only w and r are zombies")
        for name in tombstones:
            sq = parse_square(name)
            why = _not_a_grave(sq)
            if why:
                raise ValueError(why)
            if groups.get(sq):
                raise ValueError(f"{name} holds zombies and a tombstone")
            if not pos._tomb[sq]:
                pos._bury(sq)
        for sq, stack in groups.items():
            pos._set(sq, stack)
        return pos

    # -- the protocol ---------------------------------------------------------
    @property
    def turn(self) -> int:
        """How many turns have been played (0 at the start)."""
        return len(self._history)

    @property
    def mover(self) -> str:
        """The side to move, "White" or "Red"."""
        return SIDE_NAMES[self._to_move]

    def outcome(self) -> str | None:
        """``1-0`` or ``0-1`` once a side has won, else None (the rules know no draw)."""
        if self._winner < 0:
            return None
        return WIN_FIRST if self._winner == WHITE else WIN_SECOND

    def push(self, move: TinkertownMove) -> None:
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it."""
        if self._winner >= 0:
            raise IllegalMoveError(
                f"the game is over: {SIDE_NAMES[self._winner]} won at turn {self._win_turn}"
            )
        if self._movement:
            if isinstance(move, Move):
                self._push_move(move)
            elif isinstance(move, Drop):
                self._push_entry(move)
            else:
                raise IllegalMoveError(
                    "the resurrection stage is over: a turn is one move or one entry, "
                    f"{self.mover} to move"
                )
        elif isinstance(move, Resurrection):
            self._push_pair(move)
        elif isinstance(move, Drop):
            self._push_single(move)
        else:
            raise IllegalMoveError(
                f"the resurrection stage is on: {self.mover} places zombies; "
                "groups move only in the movement stage"
            )

    def pop(self) -> TinkertownMove:
        """Take back the last move and return it."""
        move, changes, tomb, movement, last_w, last_r = self._history.pop()
        if tomb >= 0:
            self._tomb[tomb] = False
            capacity = self._capacity
            for n in NEIGHBOURS[tomb]:
                capacity[n] += 1
        for sq, stack in changes:
            self._set(sq, stack)
        self._movement = movement
        self._last[0] = last_w
        self._last[1] = last_r
        self._winner = -1
        self._to_move ^= 1
        return move

    def legal_moves(self) -> list[TinkertownMove]:
        """Every legal move, canonical: a capture carries its mark, nothing else does."""
        if self._winner >= 0:
            return []
        if self._movement:
            return self._movement_moves()
        return self._resurrection_moves()

    def copy(self) -> Self:
        """An independent copy, history included."""
        other = self.__class__.__new__(self.__class__)
        other._stacks = self._stacks.copy()
        other._tomb = self._tomb.copy()
        other._capacity = self._capacity.copy()
        other._controlled = self._controlled.copy()
        other._last = self._last.copy()
        other._movement = self._movement
        other._to_move = self._to_move
        other._winner = self._winner
        other._win_turn = self._win_turn
        other._history = self._history.copy()
        return other

    def diagram(self) -> str:
        """The board as text, rank 8 at the top.

        A stack is shown bottom to top (``wr``: a red zombie on a white one);
        ``.`` an empty grave, ``+`` a tombstone, ``#`` the chapel, blank
        off the board.  The last line says whose turn it is and the stage.
        """
        width = max(2, *(len(s) for s in self._stacks)) + 1
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                sq = file + SIZE * rank
                if sq in OFF_BOARD:
                    cell = ""
                elif sq in CHAPEL:
                    cell = "#"
                elif self._tomb[sq]:
                    cell = "+"
                else:
                    cell = self._stacks[sq] or "."
                cells.append(cell.ljust(width))
            lines.append(f"{rank + 1}  {''.join(cells).rstrip()}")
        lines.append("   " + "".join(f.ljust(width) for f in FILES).rstrip())
        if self._winner >= 0:
            lines.append(f"{SIDE_NAMES[self._winner]} won at turn {self._win_turn}")
        else:
            lines.append(f"{self.mover} to move, {self.stage} stage, turn {self.turn + 1}")
        return "\n".join(lines)

    # -- read-only accessors for renderers and tools ----------------------------
    @property
    def stage(self) -> str:
        """``"resurrection"`` or ``"movement"``."""
        return MOVEMENT if self._movement else RESURRECTION

    @property
    def side_to_move(self) -> int:
        """WHITE (0) or RED (1); :attr:`mover` is the same as a word."""
        return self._to_move

    @property
    def winner(self) -> int | None:
        """WHITE or RED once the game is won, else None."""
        return None if self._winner < 0 else self._winner

    def stack(self, square: int) -> str:
        """The zombies on ``square``, bottom to top ("w" white, "r" red; "" none)."""
        return self._stacks[square]

    def groups(self) -> dict[int, str]:
        """Every occupied grave and its stack (bottom to top), in square order."""
        return {sq: st for sq, st in enumerate(self._stacks) if st}

    def controller(self, square: int) -> int | None:
        """WHITE or RED, the side whose zombie tops the group on ``square``; None if empty."""
        st = self._stacks[square]
        return None if not st else COLOURS.index(st[-1])

    def is_tombstone(self, square: int) -> bool:
        """Whether a tombstone stands on ``square``."""
        return self._tomb[square]

    @property
    def tombstones(self) -> frozenset[int]:
        """The squares that carry a tombstone."""
        return frozenset(sq for sq in GRAVES if self._tomb[sq])

    def capacity(self, square: int) -> int:
        """Graves next to ``square`` without a tombstone; 0 for a non-grave or a tombstone."""
        if not IS_GRAVE[square] or self._tomb[square]:
            return 0
        return self._capacity[square]

    def zombie_count(self, side: int) -> int:
        """How many zombies of ``side`` (WHITE or RED) are on the board."""
        colour = COLOURS[side]
        return sum(st.count(colour) for st in self._stacks)

    def group_count(self, side: int) -> int:
        """How many groups ``side`` controls."""
        return self._controlled[side]

    def last_placement(self, side: int) -> int | None:
        """``side``'s most recent placement of the resurrection stage, or None."""
        sq = self._last[side]
        return None if sq < 0 else sq

    @property
    def move_stack(self) -> list[TinkertownMove]:
        """The moves played so far, first to last (a new list)."""
        return [entry[0] for entry in self._history]

    # -- the resurrection stage -------------------------------------------------
    def _b_candidates(self) -> list[int]:
        """Empty graves whose neighbours are all empty: where (b) may go now."""
        stacks = self._stacks
        return [
            sq for sq in GRAVES if not stacks[sq] and not any(stacks[n] for n in NEIGHBOURS[sq])
        ]

    def _check_a(self, sq: int) -> None:
        """Refuse ``sq`` as placement (a) (or White's opening placement)."""
        why = _not_a_grave(sq)
        if why:
            raise IllegalMoveError(why)
        if self._stacks[sq]:
            raise IllegalMoveError(f"{SQUARE_NAMES[sq]} is occupied")
        side = self._to_move
        target = self._last[1 - side]
        if target >= 0 and sq not in NEIGHBOURS[target]:
            raise IllegalMoveError(
                f"{SQUARE_NAMES[sq]} is not next to {SIDE_NAMES[1 - side]}'s last placement "
                f"{SQUARE_NAMES[target]}"
            )

    def _push_single(self, move: Drop) -> None:
        sq = move.square
        self._check_a(sq)
        opening = not self._history
        if not opening:
            # The single placement is (a) alone, allowed only when (b) is impossible.
            self._stacks[sq] = "x"  # (b) is tested with (a) on the board
            candidates = self._b_candidates()
            self._stacks[sq] = ""
            if candidates:
                raise IllegalMoveError(
                    f"a grave for (b) remains after {SQUARE_NAMES[sq]} "
                    f"(e.g. {SQUARE_NAMES[candidates[0]]}): the turn is two placements"
                )
        if move.marked:
            raise IllegalMoveError("a placement never captures: remove the x")
        side = self._to_move
        entry: _Undo = (move, ((sq, ""),), -1, False, self._last[0], self._last[1])
        self._set(sq, COLOURS[side])
        self._last[side] = sq
        # After the opening the single placement ends the stage; the other side,
        # next by plain alternation, moves first.
        self._movement = not opening
        self._history.append(entry)
        self._to_move ^= 1

    def _push_pair(self, move: Resurrection) -> None:
        if not self._history:
            raise IllegalMoveError("White's first turn is one placement")
        a, b = move.a, move.b
        self._check_a(a)
        stacks = self._stacks
        stacks[a] = "x"  # (b) is tested with (a) on the board
        try:
            why = _not_a_grave(b)
            if why:
                raise IllegalMoveError(why)
            if not self._b_candidates():
                raise IllegalMoveError(
                    f"no grave has all its neighbours empty after {SQUARE_NAMES[a]}: "
                    f"the turn is the single placement {SQUARE_NAMES[a]}, "
                    "which ends the resurrection stage"
                )
            if stacks[b]:
                raise IllegalMoveError(f"{SQUARE_NAMES[b]} is occupied")
            busy = next((n for n in NEIGHBOURS[b] if stacks[n]), -1)
            if busy >= 0:
                raise IllegalMoveError(
                    f"{SQUARE_NAMES[b]} has an occupied neighbour ({SQUARE_NAMES[busy]})"
                )
        finally:
            stacks[a] = ""
        if move.marked:
            raise IllegalMoveError("a placement never captures: remove the x")
        side = self._to_move
        entry: _Undo = (move, ((a, ""), (b, "")), -1, False, self._last[0], self._last[1])
        colour = COLOURS[side]
        self._set(a, colour)
        self._set(b, colour)
        self._last[side] = b
        self._history.append(entry)
        self._to_move ^= 1

    def _resurrection_moves(self) -> list[TinkertownMove]:
        stacks = self._stacks
        if not self._history:
            return [_DROPS[sq][0] for sq in GRAVES]
        side = self._to_move
        moves: list[TinkertownMove] = []
        for a in NEIGHBOURS[self._last[1 - side]]:
            if stacks[a]:
                continue
            stacks[a] = "x"
            candidates = self._b_candidates()
            stacks[a] = ""
            if candidates:
                moves.extend(Resurrection(a, b) for b in candidates)
            else:
                moves.append(_DROPS[a][0])
        return moves

    # -- the movement stage -----------------------------------------------------
    def _push_move(self, move: Move) -> None:
        src, dst = move.src, move.dst
        for sq in (src, dst):
            why = _not_a_grave(sq)
            if why:
                raise IllegalMoveError(why)
        stacks, tomb = self._stacks, self._tomb
        side = self._to_move
        if tomb[src]:
            raise IllegalMoveError(f"{SQUARE_NAMES[src]} holds a tombstone")
        source = stacks[src]
        if not source:
            raise IllegalMoveError(f"{SQUARE_NAMES[src]} is empty: no group to move")
        if source[-1] != COLOURS[side]:
            raise IllegalMoveError(
                f"the top zombie on {SQUARE_NAMES[src]} is {SIDE_NAMES[1 - side]}'s "
                f"({SIDE_NAMES[side]} to move)"
            )
        path = PATHS[src * 64 + dst]
        if path is None:
            raise IllegalMoveError(
                f"{move}: {SQUARE_NAMES[dst]} is not in a straight orthogonal line "
                f"from {SQUARE_NAMES[src]}"
                if src != dst
                else f"{move}: a move must leave its grave"
            )
        k = len(path)
        if k > len(source):
            raise IllegalMoveError(
                f"{SQUARE_NAMES[src]} holds {_zombies(len(source))}; a move of {k} needs {k}"
            )
        for sq in path:
            if sq in CHAPEL:
                raise IllegalMoveError(f"{move} crosses the chapel at {SQUARE_NAMES[sq]}")
            if sq in OFF_BOARD:
                raise IllegalMoveError(f"{move} leaves the cemetery at {SQUARE_NAMES[sq]}")
            if tomb[sq]:
                if sq == dst:
                    raise IllegalMoveError(f"{SQUARE_NAMES[dst]} holds a tombstone")
                raise IllegalMoveError(f"{move} crosses a tombstone at {SQUARE_NAMES[sq]}")
        target = stacks[dst]
        landed = target + source[-k:]
        capture = len(landed) > self._capacity[dst] and "w" in landed and "r" in landed
        if move.marked and not capture:
            raise IllegalMoveError(self._no_capture(dst, landed))
        entry: _Undo = (
            move,
            ((src, source), (dst, target)),
            dst if capture else -1,
            True,
            self._last[0],
            self._last[1],
        )
        self._set(src, source[:-k])
        if capture:
            self._set(dst, "")
            self._bury(dst)
        else:
            self._set(dst, landed)
        self._history.append(entry)
        self._to_move ^= 1
        self._check_win(side)

    def _push_entry(self, move: Drop) -> None:
        sq = move.square
        why = _not_a_grave(sq)
        if why:
            raise IllegalMoveError(why)
        if self._tomb[sq]:
            raise IllegalMoveError(f"{SQUARE_NAMES[sq]} holds a tombstone")
        side = self._to_move
        target = self._stacks[sq]
        landed = target + COLOURS[side]
        # An entry onto a one-coloured group (or an empty grave) never captures.
        capture = "w" in target and "r" in target and len(landed) > self._capacity[sq]
        if move.marked and not capture:
            if target and target.count(target[0]) == len(target):
                raise IllegalMoveError(
                    f"no capture on {SQUARE_NAMES[sq]}: an entry onto a one-coloured group "
                    "never captures; remove the x"
                )
            raise IllegalMoveError(self._no_capture(sq, landed))
        entry: _Undo = (
            move,
            ((sq, target),),
            sq if capture else -1,
            True,
            self._last[0],
            self._last[1],
        )
        if capture:
            self._set(sq, "")
            self._bury(sq)
        else:
            self._set(sq, landed)
        self._history.append(entry)
        self._to_move ^= 1
        self._check_win(side)

    def _no_capture(self, sq: int, landed: str) -> str:
        colours = "both colours" if "w" in landed and "r" in landed else "one colour"
        return (
            f"no capture on {SQUARE_NAMES[sq]} ({_zombies(len(landed))}, {colours}, "
            f"capacity {self._capacity[sq]}): remove the x"
        )

    def _movement_moves(self) -> list[TinkertownMove]:
        stacks, tomb, capacity = self._stacks, self._tomb, self._capacity
        colour = COLOURS[self._to_move]
        moves: list[TinkertownMove] = []
        for src in GRAVES:
            source = stacks[src]
            if not source or source[-1] != colour:
                continue
            height = len(source)
            for ray in RAYS[src]:
                for k, dst in enumerate(ray, 1):
                    if k > height or tomb[dst]:
                        break
                    landed = stacks[dst] + source[-k:]
                    capture = len(landed) > capacity[dst] and "w" in landed and "r" in landed
                    moves.append(_MOVES[src, dst, capture])
        for sq in GRAVES:
            if tomb[sq]:
                continue
            target = stacks[sq]
            capture = "w" in target and "r" in target and len(target) >= capacity[sq]
            moves.append(_DROPS[sq][capture])
        return moves

    # -- bookkeeping --------------------------------------------------------------
    def _set(self, sq: int, stack: str) -> None:
        """Put ``stack`` on ``sq``, keeping the count of controlled groups right."""
        stacks = self._stacks
        old = stacks[sq]
        if old:
            self._controlled[old[-1] == "r"] -= 1
        if stack:
            self._controlled[stack[-1] == "r"] += 1
        stacks[sq] = stack

    def _bury(self, sq: int) -> None:
        """A tombstone on ``sq``: the neighbours lose one capacity (nothing else happens)."""
        self._tomb[sq] = True
        capacity = self._capacity
        for n in NEIGHBOURS[sq]:
            capacity[n] -= 1

    def _check_win(self, side: int) -> None:
        """After an action of ``side``: the opponent without a group loses."""
        if not self._controlled[1 - side]:
            self._winner = side
            self._win_turn = len(self._history)


class TinkertownGame(Game[TinkertownMove]):
    """Tinkertown Cemetery: moves, notation and the starting position."""

    name = "tinkertown"
    aliases = ("tinkertown-cemetery", "cemetery")
    title = "Tinkertown Cemetery"
    player_tags = ("White", "Red")
    result_names = MappingProxyType({"1-0": "White wins", "0-1": "Red wins"})

    def __init__(self) -> None:
        super().__init__()
        self._parser: Lark | None = None

    def parse_move(self, text: str) -> TinkertownMove:
        """Read one move token (any letter case); MoveSyntaxError if malformed."""
        parser = self._parser
        if parser is None:
            parser = self._parser = build_parser("tinkertown", _MoveBuilder())  # type: ignore[arg-type]
        try:
            move: TinkertownMove = parser.parse(text.strip().lower())  # type: ignore[assignment]
        except LarkError:
            raise MoveSyntaxError(_explain_syntax(text.strip())) from None
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> TinkertownPosition:
        """The empty cemetery, White to place (no tag changes the start)."""
        return TinkertownPosition()


GAME = TinkertownGame()
