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
from typing import Any, Self

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games.base import WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser
from notation.view import Assessment, BoardView, Cell
from notation.view import Token as ViewToken

__all__ = [
    "CHAPEL",
    "GAME",
    "GRAVES",
    "MOVEMENT",
    "NEIGHBOURS",
    "OFF_BOARD",
    "PALETTE",
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
    "square_arg",
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
#: ``PATH_OF_GRAVES[src * 64 + dst]``: whether that path exists and crosses graves only
#: (no chapel, no off-board square), so that a move along it checks only tombstones.
PATH_OF_GRAVES: tuple[bool, ...] = tuple(
    path is not None and all(IS_GRAVE[sq] for sq in path) for path in PATHS
)
#: Each grave with its neighbours: (b) may go on a grave whose group here is all empty.
_B_GROUPS: tuple[tuple[int, ...], ...] = tuple((sq, *NEIGHBOURS[sq]) for sq in GRAVES)

WHITE, RED = 0, 1
#: Side names, indexed by WHITE / RED.
SIDE_NAMES = ("White", "Red")
#: The letter of each side's zombies in a stack string.
COLOURS = "wr"
RESURRECTION = "resurrection"
MOVEMENT = "movement"


def parse_square(name: str) -> int:
    """The square called ``name`` ("a1" .. "h8", any case); ``MisuseError`` if none."""
    index = _SQUARE_INDEX.get(name.strip().lower()) if isinstance(name, str) else None
    if index is None:
        raise MisuseError(f"{name!r} is not a square (files a-h, ranks 1-8)")
    return index


def square_arg(square: int | str) -> int:
    """The index of ``square``, given as an index 0-63 (a1 = 0, h8 = 63) or a name.

    Every accessor that takes a square reads it with this: one meaning of an int
    (a square) and names accepted alike.  ``MisuseError`` for anything else.
    """
    # bool is an int to Python, but True is no square anyone means.
    if isinstance(square, int) and not isinstance(square, bool):
        if 0 <= square < SIZE * SIZE:
            return square
    elif isinstance(square, str):
        index = _SQUARE_INDEX.get(square.strip().lower())
        if index is not None:
            return index
    raise MisuseError(
        f"{square!r} is not a square: give its name (a1-h8) or its index 0-63 (a1 = 0, h8 = 63)"
    )


def _side_arg(side: int) -> int:
    """``side`` checked: WHITE (0) or RED (1); ``MisuseError`` for anything else."""
    if type(side) is int and side in (WHITE, RED):
        return side
    raise MisuseError(f"{side!r} is not a side: WHITE (0) or RED (1)")


def _check_square_field(move: object, field: str, value: object) -> None:
    """Refuse a hand-built move whose ``field`` is not a square index (MisuseError).

    Run once when a move is made, never when it is pushed: parsed moves are
    memoised and legal_moves() hands out prebuilt ones, so push stays unchecked.
    """
    if type(value) is not int or not 0 <= value < SIZE * SIZE:
        raise MisuseError(
            f"{type(move).__name__}.{field} is {value!r}: a square is an int 0-63 "
            "(a1 = 0, h8 = 63); GAME.parse() reads a move from its text"
        )


def _check_mark_field(move: object, marked: object) -> None:
    if type(marked) is not bool:
        raise MisuseError(f"{type(move).__name__}.marked is {marked!r}: True or False")


def _not_a_move(move: object) -> MisuseError:
    return MisuseError(
        f"{move!r} is not a Tinkertown move (Drop, Resurrection or Move; "
        "GAME.parse() reads one from its text)"
    )


def _bad_string(reason: str) -> TagValueError:
    return TagValueError("Position", f"bad position string: {reason}")


def _not_a_grave(sq: int) -> str | None:
    """Why ``sq`` is not a grave, or None if it is one."""
    if sq in CHAPEL:
        return f"{SQUARE_NAMES[sq]} is the chapel, not a grave"
    if sq in OFF_BOARD:
        return f"{SQUARE_NAMES[sq]} is outside the cemetery, not a grave"
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _zombies(n: int) -> str:
    return _plural(n, "zombie")


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

    def __post_init__(self) -> None:
        _check_square_field(self, "square", self.square)
        _check_mark_field(self, self.marked)

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

    def __post_init__(self) -> None:
        _check_square_field(self, "a", self.a)
        _check_square_field(self, "b", self.b)
        _check_mark_field(self, self.marked)

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

    def __post_init__(self) -> None:
        _check_square_field(self, "src", self.src)
        _check_square_field(self, "dst", self.dst)
        _check_mark_field(self, self.marked)

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

#: What a position string describes, rank 8 first, each rank left to right: the
#: graves and the chapel (the corners outside the cemetery are left out).
_STRING_ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sq for sq in range(SIZE * rank, SIZE * rank + SIZE) if sq not in OFF_BOARD)
    for rank in range(SIZE - 1, -1, -1)
)
#: One item of a rank in a position string: empty graves, a tombstone, the chapel
#: or a stack (bottom to top, its top zombie in capitals).
_CELL = re.compile(r"[1-8]|\+|#|[wr]*[WR]")
_PLACEMENTS = re.compile(r"([a-h][1-8]|-),([a-h][1-8]|-)")
_TURNS = re.compile(r"0|[1-9][0-9]{0,8}")

#: Colours of the board view's roles: a dark cemetery, bone-white and red zombies.
PALETTE: Mapping[str, str] = MappingProxyType(
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
_VIEW_TOKENS = {"w": ViewToken("white", "W"), "r": ViewToken("red", "R")}

# One history entry: the move, the (square, stack before) pairs it changed, the
# square that got a tombstone (-1 if none), and the stage and last placements
# before the move.  That is all pop() needs to restore the position exactly.
_Undo = tuple[TinkertownMove, tuple[tuple[int, str], ...], int, bool, int, int]


class TinkertownPosition(Position[TinkertownMove]):
    """A game of Tinkertown Cemetery in progress (mutable, with push/pop)."""

    __slots__ = (
        "_base",
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
        # Turns played before the first move of the history (a position read from
        # a position string starts there).
        self._base = 0
        self._history: list[_Undo] = []

    @classmethod
    def setup(
        cls,
        stacks: Mapping[str, str],
        tombstones: Iterable[str] = (),
        to_move: int = WHITE,
        turn: int | None = None,
    ) -> Self:
        """A position of the movement stage, for puzzles, diagrams and tests.

        ``stacks`` maps square names to stacks written bottom to top ("wr": a
        red zombie on a white one); ``tombstones`` names graves with a
        tombstone.  ``turn`` is the number of turns played before (White
        moves after an even number); by default 0 with White to move and 1
        with Red.  If the side to move controls no group, the other side has
        already won.  ``ValueError`` if a square is not a grave, a stack has a
        letter other than w and r, a tombstone shares its grave with zombies,
        or ``turn`` does not fit the side to move
        (a :class:`MisuseError`, which is a ``ValueError``).
        """
        if type(to_move) is not int or to_move not in (WHITE, RED):
            raise MisuseError(f"to_move is WHITE (0) or RED (1), not {to_move!r}")
        if turn is None:
            turn = to_move
        if type(turn) is not int or turn < 0 or turn % 2 != to_move:
            raise MisuseError(
                f"turn {turn} does not fit {SIDE_NAMES[to_move]} to move: White moves "
                "after an even number of turns, Red after an odd one"
            )
        pos = cls()
        pos._movement = True
        pos._to_move = to_move
        pos._base = turn
        groups: dict[int, str] = {}
        for name, stack in stacks.items():
            sq = parse_square(name)
            why = _not_a_grave(sq)
            if why:
                raise MisuseError(why)
            groups[sq] = stack.lower()
            if groups[sq].strip("wr"):
                raise MisuseError(f"stack {stack!r} on {name}: only w and r are zombies")
        for name in tombstones:
            sq = parse_square(name)
            why = _not_a_grave(sq)
            if why:
                raise MisuseError(why)
            if groups.get(sq):
                raise MisuseError(f"{name} holds zombies and a tombstone")
            if not pos._tomb[sq]:
                pos._bury(sq)
        for sq, stack in groups.items():
            pos._set(sq, stack)
        pos._settle()
        return pos

    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes.

        ``TagValueError("Position", reason)`` if the string is malformed or the
        position impossible; the reason names the part that is wrong.
        """
        fields = text.split()
        if len(fields) != 5:
            raise _bad_string(
                f"{len(fields)} fields; a position string has 5, separated by spaces: "
                "board, side to move, stage, last placements, turns played "
                "(e.g. 4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0)"
            )
        board, side_text, stage, placements, turns = fields
        pos = cls()
        pos._read_board(board)
        if side_text not in ("w", "r"):
            raise _bad_string(f"side to move {side_text!r}: w (White) or r (Red)")
        pos._to_move = COLOURS.index(side_text)
        if stage not in (RESURRECTION, MOVEMENT):
            raise _bad_string(f"stage {stage!r}: resurrection or movement")
        pos._movement = stage == MOVEMENT
        match = _PLACEMENTS.fullmatch(placements)
        if match is None:
            raise _bad_string(
                f"last placements {placements!r}: White's and Red's most recent "
                "placement, each a square or -, separated by a comma (d3,c2)"
            )
        for side, name in enumerate(match.groups()):
            if name != "-":
                sq = _SQUARE_INDEX[name]
                why = _not_a_grave(sq)
                if why:
                    raise _bad_string(f"last placements {placements!r}: {why}")
                pos._last[side] = sq
        if _TURNS.fullmatch(turns) is None:
            raise _bad_string(
                f"turns played {turns!r}: a number without leading zeros (0 at the start)"
            )
        pos._base = int(turns)
        if pos._base % 2 != pos._to_move:
            raise _bad_string(
                f"side to move {side_text} after {_plural(pos._base, 'turn')}: "
                "White moves after an even number of turns, Red after an odd one"
            )
        if not pos._movement:
            pos._check_resurrection()
        elif not any(pos._stacks) and not any(pos._tomb):
            raise _bad_string(
                "the movement stage in an empty cemetery: zombies only leave the board "
                "in a capture, which leaves a tombstone"
            )
        pos._settle()
        return pos

    def _read_board(self, board: str) -> None:
        """Put the board field of a position string on this (empty) position."""
        ranks = board.split("/")
        if len(ranks) != SIZE:
            raise _bad_string(
                f"the board has {len(ranks)} ranks; it has 8, rank 8 first, separated by /"
            )
        for rank, row, text in zip(range(SIZE, 0, -1), _STRING_ROWS, ranks, strict=True):
            where = f"rank {rank} {text!r}"
            span = f"{SQUARE_NAMES[row[0]][0]}-{SQUARE_NAMES[row[-1]][0]}"
            chapel = " with the chapel (##) in d and e" if row[3] in CHAPEL else ""
            size = f"{len(row)} squares ({span}{chapel})"
            i = 0
            at = 0
            after_count = False
            while i < len(text):
                match = _CELL.match(text, i)
                if match is None:
                    raise _bad_string(
                        f"{where}: unexpected {text[i]!r}; a rank is digits 1-8 for empty "
                        "graves, + for a tombstone, # for the chapel and stacks of w and r "
                        "bottom to top, the top one a capital (wwR)"
                    )
                item = match.group()
                i = match.end()
                count = int(item) if item.isdigit() else 1
                if item.isdigit() and after_count:
                    raise _bad_string(f"{where}: two counts of empty graves in a row")
                after_count = item.isdigit()
                if at + count > len(row):
                    raise _bad_string(f"{where} describes more than its {size}")
                for sq in row[at : at + count]:
                    if (item == "#") != (sq in CHAPEL):
                        if item == "#":
                            raise _bad_string(
                                f"{where}: # stands for {SQUARE_NAMES[sq]}, a grave; "
                                "the chapel is d and e of ranks 4 and 5"
                            )
                        raise _bad_string(f"{where}: {SQUARE_NAMES[sq]} is the chapel, written #")
                    if item == "+":
                        self._bury(sq)
                    elif not item.isdigit() and item != "#":
                        self._set(sq, item.lower())
                at += count
            if at != len(row):
                raise _bad_string(f"{where} describes {at} of its {size}")

    def _check_resurrection(self) -> None:
        """Refuse a resurrection-stage position that no game reaches."""
        turn = self._base
        for sq in GRAVES:
            if self._tomb[sq]:
                raise _bad_string(
                    f"a tombstone on {SQUARE_NAMES[sq]} in the resurrection stage; "
                    "tombstones come from captures in the movement stage"
                )
            if len(self._stacks[sq]) > 1:
                raise _bad_string(
                    f"{SQUARE_NAMES[sq]} holds {len(self._stacks[sq])} zombies in the "
                    "resurrection stage, where a grave holds one at most"
                )
        white_turns, red_turns = (turn + 1) // 2, turn // 2
        expected = (max(0, 2 * white_turns - 1), 2 * red_turns)
        for side in (WHITE, RED):
            have = self.zombie_count(side)
            if have != expected[side]:
                raise _bad_string(
                    f"{SIDE_NAMES[side]} has {_zombies(have)} on the board; after {turn} "
                    f"turns of the resurrection stage it has {expected[side]}"
                )
        for side, turns_played in ((WHITE, white_turns), (RED, red_turns)):
            sq = self._last[side]
            if (sq >= 0) != (turns_played > 0):
                raise _bad_string(
                    f"{SIDE_NAMES[side]}'s last placement "
                    + (
                        f"is missing after {turn} turns; write its square"
                        if sq < 0
                        else f"{SQUARE_NAMES[sq]}: {SIDE_NAMES[side]} has not placed yet; write -"
                    )
                )
            if sq >= 0 and self._stacks[sq] != COLOURS[side]:
                raise _bad_string(
                    f"{SIDE_NAMES[side]}'s last placement {SQUARE_NAMES[sq]} holds no "
                    f"{SIDE_NAMES[side].lower()} zombie"
                )
        if turn:
            side = 1 - self._to_move
            last = self._last[side]
            busy = next((n for n in NEIGHBOURS[last] if self._stacks[n]), -1)
            if busy >= 0:
                raise _bad_string(
                    f"{SIDE_NAMES[side]}'s last placement {SQUARE_NAMES[last]} has an "
                    f"occupied neighbour ({SQUARE_NAMES[busy]}); it was made next to empty "
                    "graves only, and nothing has been placed since"
                )

    def _settle(self) -> None:
        """Derive the outcome of a position made without play (setup, strings).

        In the movement stage the side to move controls a group unless the last
        action left it none, and that action won: so a side to move without a
        group has lost.
        """
        side = self._to_move
        if self._movement and not self._controlled[side]:
            self._winner = 1 - side
            self._win_turn = self.turn

    # -- the protocol ---------------------------------------------------------
    @property
    def turn(self) -> int:
        """How many turns have been played (0 at the start)."""
        return self._base + len(self._history)

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
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it.

        MisuseError (position unchanged) for an object that is not a Tinkertown move.
        """
        if self._winner >= 0:
            if not isinstance(move, Drop | Resurrection | Move):
                raise _not_a_move(move)
            raise IllegalMoveError(
                f"the game is over: {SIDE_NAMES[self._winner]} won at turn {self._win_turn}"
            )
        if self._movement:
            if isinstance(move, Move):
                self._push_move(move)
            elif isinstance(move, Drop):
                self._push_entry(move)
            else:
                # The type is checked only here, off the path of every legal move.
                if not isinstance(move, Resurrection):
                    raise _not_a_move(move)
                raise IllegalMoveError(
                    "the resurrection stage is over: a turn is one move or one entry, "
                    f"{self.mover} to move"
                )
        elif isinstance(move, Resurrection):
            self._push_pair(move)
        elif isinstance(move, Drop):
            self._push_single(move)
        else:
            if not isinstance(move, Move):
                raise _not_a_move(move)
            raise IllegalMoveError(
                f"the resurrection stage is on: {self.mover} places zombies; "
                "groups move only in the movement stage"
            )

    def pop(self) -> TinkertownMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
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
        other._base = self._base
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

    def stack(self, square: int | str) -> str:
        """The zombies on ``square``, bottom to top ("w" white, "r" red; "" none).

        Like every accessor here, ``square`` is an index 0-63 or a name ("h5").
        """
        return self._stacks[square_arg(square)]

    def groups(self) -> dict[int, str]:
        """Every occupied grave and its stack (bottom to top), in square order."""
        return {sq: st for sq, st in enumerate(self._stacks) if st}

    def controller(self, square: int | str) -> int | None:
        """WHITE or RED, the side whose zombie tops the group on ``square``; None if empty."""
        st = self._stacks[square_arg(square)]
        return None if not st else COLOURS.index(st[-1])

    def is_tombstone(self, square: int | str) -> bool:
        """Whether a tombstone stands on ``square``."""
        return self._tomb[square_arg(square)]

    @property
    def tombstones(self) -> frozenset[int]:
        """The squares that carry a tombstone."""
        return frozenset(sq for sq in GRAVES if self._tomb[sq])

    def capacity(self, square: int | str) -> int:
        """Graves next to ``square`` without a tombstone; 0 for a non-grave or a tombstone."""
        square = square_arg(square)
        if not IS_GRAVE[square] or self._tomb[square]:
            return 0
        return self._capacity[square]

    def zombie_count(self, side: int) -> int:
        """How many zombies of ``side`` (WHITE or RED) are on the board."""
        colour = COLOURS[_side_arg(side)]
        return sum(st.count(colour) for st in self._stacks)

    def group_count(self, side: int) -> int:
        """How many groups ``side`` controls."""
        return self._controlled[_side_arg(side)]

    def last_placement(self, side: int) -> int | None:
        """``side``'s most recent placement of the resurrection stage, or None."""
        sq = self._last[_side_arg(side)]
        return None if sq < 0 else sq

    @property
    def move_stack(self) -> list[TinkertownMove]:
        """The moves played so far, first to last (a new list)."""
        return [entry[0] for entry in self._history]

    def over_capacity(self) -> list[int]:
        """Graves whose group holds both colours and stands above capacity, in square order.

        Such a group waits to be captured by the next action that lands on it
        (the entry exception and new tombstones leave them).
        """
        stacks, capacity = self._stacks, self._capacity
        return [
            sq
            for sq in GRAVES
            if len(stacks[sq]) > capacity[sq] and "w" in stacks[sq] and "r" in stacks[sq]
        ]

    # -- describing positions and moves ------------------------------------------
    def position_string(self) -> str:
        """This position as one line (docs/tinkertown.md, "Position strings").

        ``board side stage placements turns``, e.g. the start is
        ``4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0``.
        """
        stacks, tomb = self._stacks, self._tomb
        rows: list[str] = []
        for row in _STRING_ROWS:
            parts: list[str] = []
            run = 0
            for sq in row:
                if sq in CHAPEL:
                    cell = "#"
                elif tomb[sq]:
                    cell = "+"
                elif stacks[sq]:
                    cell = stacks[sq][:-1] + stacks[sq][-1].upper()
                else:
                    run += 1
                    continue
                if run:
                    parts.append(str(run))
                    run = 0
                parts.append(cell)
            if run:
                parts.append(str(run))
            rows.append("".join(parts))
        last = ",".join(SQUARE_NAMES[sq] if sq >= 0 else "-" for sq in self._last)
        return f"{'/'.join(rows)} {COLOURS[self._to_move]} {self.stage} {last} {self.turn}"

    def canonical(self, move: TinkertownMove) -> TinkertownMove:
        """``move`` as legal_moves() writes it: the capture mark exactly when it captures.

        A move that is illegal here (whatever its mark) comes back unchanged;
        MisuseError for an object that is not a Tinkertown move.
        """
        plain: TinkertownMove
        if isinstance(move, Move):
            plain = _MOVES.get((move.src, move.dst, False), move)
        elif isinstance(move, Drop):
            plain = _DROPS[move.square][0]
        elif isinstance(move, Resurrection):
            plain = Resurrection(move.a, move.b)
        else:
            raise _not_a_move(move)
        try:
            self.push(plain)
        except IllegalMoveError:
            return move
        captured = self._history[-1][2] >= 0
        self.pop()
        if move.marked and not captured:
            return move
        if isinstance(plain, Move):
            return _MOVES[plain.src, plain.dst, captured]
        if isinstance(plain, Drop):
            return _DROPS[plain.square][captured]
        return plain

    def _landing(self) -> tuple[int, str, int]:
        """The last action of the movement stage: its destination, the group that
        landed there (before any capture) and how many zombies the action brought."""
        move, changes, _tomb, _movement, _lw, _lr = self._history[-1]
        if isinstance(move, Move):
            (_src, source), (dst, target) = changes
            path = PATHS[move.src * 64 + move.dst]
            assert path is not None
            return dst, target + source[-len(path) :], len(path)
        ((sq, target),) = changes
        return sq, target + COLOURS[1 - self._to_move], 1

    def last_move_facts(self) -> dict[str, Any]:
        """What the last move did (docs/tinkertown.md, "Move facts"); ``{}`` before any.

        Keys: ``action`` ("placement", "resurrection", "move" or "entry"),
        ``side`` ("White"/"Red", who played it), ``zombies`` (how many it moved or
        placed), ``captured``, ``removed`` ({"white": n, "red": m}, only when it
        captured), ``tombstone`` (the square, or None), ``above_capacity`` (it left
        its destination two-coloured above capacity), ``stage_over`` (it ended the
        resurrection stage), ``winner`` ("White"/"Red" if it won, else None).
        """
        if not self._history:
            return {}
        move, _changes, tomb, movement, _lw, _lr = self._history[-1]
        side = 1 - self._to_move
        facts: dict[str, Any] = {}
        above = False
        if not movement:
            if isinstance(move, Resurrection):
                facts.update(action="resurrection", side=SIDE_NAMES[side], zombies=2)
            else:
                facts.update(action="placement", side=SIDE_NAMES[side], zombies=1)
            facts["captured"] = False
        else:
            dst, landed, zombies = self._landing()
            action = "move" if isinstance(move, Move) else "entry"
            facts.update(action=action, side=SIDE_NAMES[side], zombies=zombies)
            facts["captured"] = tomb >= 0
            if tomb >= 0:
                facts["removed"] = {"white": landed.count("w"), "red": landed.count("r")}
            else:
                stack = self._stacks[dst]
                above = len(stack) > self._capacity[dst] and "w" in stack and "r" in stack
        facts["tombstone"] = SQUARE_NAMES[tomb] if tomb >= 0 else None
        facts["above_capacity"] = above
        facts["stage_over"] = not movement and self._movement
        facts["winner"] = SIDE_NAMES[self._winner] if self._winner >= 0 else None
        return facts

    def annotations(self) -> list[tuple[str, str]]:
        """Facts for ``[%key value]`` comments (docs/tinkertown.md, "Annotations").

        ``capture`` ("h3 2w 1r": where, and the white and red zombies that left;
        only after a capture), ``stage`` ("movement"; only after the placement that
        ended the resurrection stage), ``over`` (the graves whose two-coloured
        group stands above capacity; only when there are any) and ``control``
        ("W5 R4", the groups each side controls; movement stage only).
        """
        out: list[tuple[str, str]] = []
        if self._history:
            _move, _changes, tomb, movement, _lw, _lr = self._history[-1]
            if tomb >= 0:
                _dst, landed, _k = self._landing()
                out.append(
                    ("capture", f"{SQUARE_NAMES[tomb]} {landed.count('w')}w {landed.count('r')}r")
                )
            if not movement and self._movement:
                out.append(("stage", MOVEMENT))
        if self._movement:
            over = self.over_capacity()
            if over:
                out.append(("over", " ".join(SQUARE_NAMES[sq] for sq in over)))
            white, red = self._controlled
            out.append(("control", f"W{white} R{red}"))
        return out

    def board_view(self) -> BoardView:
        """The position for the renderers (docs/tinkertown.md, "Board views").

        Roles: ``off`` (the 12 corner squares), ``chapel``, ``grave``, ``over`` (a
        grave whose two-coloured group stands above capacity), ``tombstone``;
        tokens ``white`` ("W") and ``red`` ("R"), bottom to top.  A grave's note
        is its capacity.
        """
        stacks, tomb, capacity = self._stacks, self._tomb, self._capacity
        over = set(self.over_capacity())
        cells: dict[str, Cell] = {}
        for sq in range(SIZE * SIZE):
            name = SQUARE_NAMES[sq]
            if sq in OFF_BOARD:
                cells[name] = Cell(name, "off")
            elif sq in CHAPEL:
                cells[name] = Cell(name, "chapel")
            elif tomb[sq]:
                cells[name] = Cell(name, "tombstone")
            else:
                tokens = tuple(_VIEW_TOKENS[c] for c in stacks[sq])
                role = "over" if sq in over else "grave"
                cells[name] = Cell(name, role, tokens, str(capacity[sq]))
        marks: tuple[str, ...] = ()
        if self._history:
            move = self._history[-1][0]
            if isinstance(move, Move):
                marks = (SQUARE_NAMES[move.src], SQUARE_NAMES[move.dst])
            elif isinstance(move, Drop):
                marks = (SQUARE_NAMES[move.square],)
            else:
                marks = (SQUARE_NAMES[move.a], SQUARE_NAMES[move.b])
        return BoardView(
            files=tuple(FILES),
            ranks=tuple(str(r) for r in range(1, SIZE + 1)),
            cells=MappingProxyType(cells),
            palette=PALETTE,
            marks=marks,
            facts=self._view_facts(over),
            caption=self._caption(),
        )

    def _view_facts(self, over: set[int]) -> tuple[tuple[str, str], ...]:
        facts: list[tuple[str, str]] = []
        if self._winner >= 0:
            facts.append(("Winner", SIDE_NAMES[self._winner]))
        else:
            facts.append(("To move", self.mover))
        facts.append(("Stage", self.stage))
        facts.append(("Turns played", str(self.turn)))
        if not self._movement and self._last[WHITE] >= 0:
            placed = [
                f"{SIDE_NAMES[side]} {SQUARE_NAMES[self._last[side]]}"
                for side in (WHITE, RED)
                if self._last[side] >= 0
            ]
            facts.append(("Last placed", ", ".join(placed)))
        for side in (WHITE, RED):
            groups, zombies = self._controlled[side], self.zombie_count(side)
            facts.append(
                (SIDE_NAMES[side], f"{_plural(groups, 'group')}, {_plural(zombies, 'zombie')}")
            )
        facts.append(("Tombstones", str(sum(tomb for tomb in self._tomb))))
        names = " ".join(SQUARE_NAMES[sq] for sq in sorted(over))
        facts.append(("Above capacity", names or "none"))
        return tuple(facts)

    def _caption(self) -> str:
        """The last move and what it did, in words ("" at the start)."""
        if not self._history:
            return ""
        move, _changes, tomb, movement, _lw, _lr = self._history[-1]
        turn = self.turn
        number = f"{(turn - 1) // 2 + 1}{'.' if turn % 2 else '...'}"
        side = SIDE_NAMES[1 - self._to_move]
        captured = tomb >= 0
        if isinstance(move, Move):
            move = _MOVES[move.src, move.dst, captured]
        elif isinstance(move, Drop):
            move = _DROPS[move.square][captured]
        text = f"{number} {move}: "
        if isinstance(move, Resurrection):
            text += f"{side} placed zombies on {SQUARE_NAMES[move.a]} and {SQUARE_NAMES[move.b]}"
        elif not movement:
            assert isinstance(move, Drop)
            text += f"{side} placed a zombie on {SQUARE_NAMES[move.square]}"
            if self._movement:
                text += f"; the resurrection stage is over, {self.mover} moves first"
        else:
            dst, landed, k = self._landing()
            if isinstance(move, Move):
                text += f"{side} moved {_zombies(k)}"
            else:
                text += f"{side} entered a zombie"
            if captured:
                text += (
                    f"; captured on {SQUARE_NAMES[dst]}: {landed.count('w')} white, "
                    f"{landed.count('r')} red; tombstone"
                )
            elif dst in self.over_capacity():
                text += f"; {SQUARE_NAMES[dst]} stands above capacity, not captured"
        if self._winner >= 0:
            text += f"; {SIDE_NAMES[self._winner]} wins"
        return text

    # -- immediate wins (assess_move) ---------------------------------------------
    def winning_move(self) -> TinkertownMove | None:
        """A move that wins at once for the side to move, or None (movement stage).

        An action changes two graves at most and takes at most one group from the
        opponent (the one it lands on; its source was the mover's), so only an
        opponent with one group or none can lose at once, and then an entry wins:
        on that last group (covered or captured), or anywhere if there is none.
        """
        if not self._movement or self._winner >= 0:
            return None
        opponent = COLOURS[1 - self._to_move]
        count = self._controlled[1 - self._to_move]
        if count > 1:
            return None
        stacks, tomb, capacity = self._stacks, self._tomb, self._capacity
        for sq in GRAVES:
            if tomb[sq]:
                continue
            target = stacks[sq]
            if count and (not target or target[-1] != opponent):
                continue
            capture = "w" in target and "r" in target and len(target) >= capacity[sq]
            return _DROPS[sq][capture]
        return None

    def _only_safe(self, move: TinkertownMove) -> bool:
        """Whether ``move`` (safe, legal) is the only legal move after which the
        opponent cannot win at once.  No move of the mover wins here."""
        side = self._to_move
        # An action takes at most two groups from the mover (its source uncovered,
        # its destination captured): with four or more, every move is safe.
        if self._controlled[side] >= 4:
            return False
        # An entry on an empty grave adds a group (the mover has one at least).
        stacks, tomb = self._stacks, self._tomb
        target = move.square if isinstance(move, Drop) else -1
        if any(not stacks[sq] and not tomb[sq] and sq != target for sq in GRAVES):
            return False
        played = self.canonical(move)
        for other in self.legal_moves():
            if other == played:
                continue
            self.push(other)
            safe = self._controlled[side] >= 2 or self._winner == side
            self.pop()
            if safe:
                return False
        return True

    # -- the resurrection stage -------------------------------------------------
    def _b_candidates(self) -> list[int]:
        """Empty graves whose neighbours are all empty: where (b) may go now."""
        stacks = self._stacks
        return [
            sq for sq in GRAVES if not stacks[sq] and not any(stacks[n] for n in NEIGHBOURS[sq])
        ]

    def _has_b_candidate(self) -> bool:
        """Whether :meth:`_b_candidates` has any, found without listing them all (a
        check of every resurrection turn, profiled)."""
        stacks = self._stacks
        for group in _B_GROUPS:
            for sq in group:
                if stacks[sq]:
                    break
            else:
                return True
        return False

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
        opening = self._last[WHITE] < 0
        if not opening:
            # The single placement is (a) alone, allowed only when (b) is impossible.
            self._stacks[sq] = "x"  # (b) is tested with (a) on the board
            candidates = self._b_candidates() if self._has_b_candidate() else []
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
        if self._last[WHITE] < 0:
            raise IllegalMoveError("White's first turn is one placement")
        a, b = move.a, move.b
        self._check_a(a)
        stacks = self._stacks
        stacks[a] = "x"  # (b) is tested with (a) on the board
        try:
            why = _not_a_grave(b)
            if why:
                raise IllegalMoveError(why)
            if not self._has_b_candidate():
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
        if self._last[WHITE] < 0:
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
        if not (IS_GRAVE[src] and IS_GRAVE[dst]):
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
        index = src * 64 + dst
        path = PATHS[index]
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
        # The squares are checked in order only when one is not a plain grave (the
        # table says which paths have none) or holds a tombstone: the first one wrong
        # is the message.
        if not PATH_OF_GRAVES[index] or True in map(tomb.__getitem__, path):
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
        last = self._last
        self._history.append(
            (move, ((src, source), (dst, target)), dst if capture else -1, True, last[0], last[1])
        )
        # What _set does for both squares, inline (the hot path of every movement turn):
        # the source's top zombie is the mover's; what stays on it and what lands (or
        # nothing, on a capture) change who controls a group.
        controlled = self._controlled
        controlled[side] -= 1
        rest = source[:-k]
        stacks[src] = rest
        if rest:
            controlled[rest[-1] == "r"] += 1
        if target:
            controlled[target[-1] == "r"] -= 1
        if capture:
            stacks[dst] = ""
            self._bury(dst)
        else:
            stacks[dst] = landed
            controlled[side] += 1  # landed ends with the mover's zombie
        self._to_move ^= 1
        if not controlled[1 - side]:  # _check_win
            self._winner = side
            self._win_turn = self._base + len(self._history)

    def _push_entry(self, move: Drop) -> None:
        sq = move.square
        if not IS_GRAVE[sq]:
            raise IllegalMoveError(_not_a_grave(sq) or "")
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
        last = self._last
        self._history.append((move, ((sq, target),), sq if capture else -1, True, last[0], last[1]))
        # What _set does, inline (profiled): the group there, if any, changes hands or is
        # captured; what lands ends with the mover's zombie.
        controlled = self._controlled
        if target:
            controlled[target[-1] == "r"] -= 1
        if capture:
            self._stacks[sq] = ""
            self._bury(sq)
        else:
            self._stacks[sq] = landed
            controlled[side] += 1
        self._to_move ^= 1
        if not controlled[1 - side]:  # _check_win
            self._winner = side
            self._win_turn = self._base + len(self._history)

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
            self._win_turn = self._base + len(self._history)


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
            parser = self._parser = build_parser("tinkertown", _MoveBuilder())
        try:
            move: TinkertownMove = parser.parse(text.strip().lower())  # type: ignore[assignment]
        except LarkError:
            raise MoveSyntaxError(_explain_syntax(text.strip())) from None
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> TinkertownPosition:
        """The empty cemetery, White to place; or the position of a ``Position`` tag.

        No other tag changes the start.
        """
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return TinkertownPosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> TinkertownPosition:
        """The position a position string describes (no other tag changes it)."""
        return TinkertownPosition.from_string(text)

    def move_to_dict(self, move: TinkertownMove) -> dict[str, Any]:
        """``{"type": "drop", "square": "h3", "marked": True}``, ``{"type":
        "resurrection", "a": "d2", "b": "b5", ...}`` or ``{"type": "move", "from":
        "h5", "to": "h3", ...}``; ``marked`` is the capture mark as written."""
        if isinstance(move, Drop):
            return {"type": "drop", "square": SQUARE_NAMES[move.square], "marked": move.marked}
        if isinstance(move, Resurrection):
            return {
                "type": "resurrection",
                "a": SQUARE_NAMES[move.a],
                "b": SQUARE_NAMES[move.b],
                "marked": move.marked,
            }
        if not isinstance(move, Move):
            raise _not_a_move(move)
        return {
            "type": "move",
            "from": SQUARE_NAMES[move.src],
            "to": SQUARE_NAMES[move.dst],
            "marked": move.marked,
        }

    #: The keys of :meth:`TinkertownPosition.annotations`.
    annotation_keys = frozenset({"capture", "stage", "over", "control"})
    can_assess = True

    def assess_move(
        self, position: Position[TinkertownMove], move: TinkertownMove
    ) -> Assessment | None:
        """``??``, ``?`` or ``!`` for a move of the movement stage (see the base class).

        Exact and cheap: a side loses at once only when it is left with one group
        or none (:meth:`TinkertownPosition.winning_move`), so most moves cost one
        push and pop.  ``position`` is left as it was.
        """
        if not isinstance(position, TinkertownPosition) or position.stage != MOVEMENT:
            return None
        if position.outcome() is not None:
            return None
        side = position.side_to_move
        try:
            position.push(move)
        except IllegalMoveError:
            return None
        try:
            if position.winner == side:
                return None
            reply = position.winning_move()
        finally:
            position.pop()
        if reply is not None:
            return Assessment("??", f"allows {reply}, which wins for {SIDE_NAMES[1 - side]}")
        win = position.winning_move()
        if win is not None:
            return Assessment("?", f"misses {win}, which wins at once")
        if position._only_safe(move):
            return Assessment("!", "the only move that does not lose at once")
        return None


GAME = TinkertownGame()
