"""The cemetery as data: docs/tinkertown.md, "The cemetery".

Squares are small ints, ``file + 8 * rank`` (a1 = 0, h8 = 63).  All board
geometry (which squares are graves, their neighbours, the lines a group can
travel, the squares a move passes) is computed once, at import, into tuples: the
rules as data.  The sides, the letters of their zombies and the names of the
stages are here too, since every other module of the game reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from notation.errors import MisuseError
from notation.games.base import index_arg

FILES: Final = "abcdefgh"
SIZE: Final = 8
#: ``SQUARE_NAMES[sq]`` is the name of square ``sq`` ("a1" .. "h8").
SQUARE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{FILES[sq % SIZE]}{sq // SIZE + 1}" for sq in range(SIZE * SIZE)
)
#: The index of each square name (lower case).
SQUARE_INDEX: Final[Mapping[str, int]] = MappingProxyType(
    {name: sq for sq, name in enumerate(SQUARE_NAMES)}
)

# docs/tinkertown.md, "The cemetery": the three squares in each corner are outside
# the cemetery, the four centre squares are the chapel, the other 48 are graves.
#: The three squares at each corner of the grid that are not part of the cemetery.
OFF_BOARD: Final[frozenset[int]] = frozenset(
    SQUARE_INDEX[n]
    for n in ("a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7")
)
#: The chapel, the centre 2x2: squares of the grid, but not graves.
CHAPEL: Final[frozenset[int]] = frozenset(SQUARE_INDEX[n] for n in ("d4", "e4", "d5", "e5"))
#: The 48 graves, in square order.
GRAVES: Final[tuple[int, ...]] = tuple(
    sq for sq in range(SIZE * SIZE) if sq not in OFF_BOARD and sq not in CHAPEL
)
IS_GRAVE: Final[tuple[bool, ...]] = tuple(sq in GRAVES for sq in range(SIZE * SIZE))

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
    """The leading graves of a ray: the chapel and off-board squares stop travel
    (docs/tinkertown.md, "The movement stage", the ruling on the chapel)."""
    out: list[int] = []
    for sq in ray:
        if not IS_GRAVE[sq]:
            break
        out.append(sq)
    return tuple(out)


def _neighbours(sq: int) -> tuple[int, ...]:
    """The graves that touch grave ``sq`` along an edge (docs/tinkertown.md, "The cemetery")."""
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


def _paths() -> tuple[tuple[int, ...] | None, ...]:
    """The table :data:`PATHS`: each ray from each square, cut after each of its squares
    (a square lies on one ray of another at most).  Made ray by ray, not pair by pair,
    since it is made at import."""
    paths: list[tuple[int, ...] | None] = [None] * (SIZE * SIZE * SIZE * SIZE)
    for origin in range(SIZE * SIZE):
        for df, dr in _STEPS:
            ray = _ray(origin, df, dr)
            for length, target in enumerate(ray, 1):
                paths[origin * SIZE * SIZE + target] = ray[:length]
    return tuple(paths)


#: ``NEIGHBOURS[sq]``: the graves orthogonally next to grave ``sq`` (() for a non-grave).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(sq) for sq in range(SIZE * SIZE))
#: ``RAYS[sq]``: for each direction, the graves a group on ``sq`` may travel over,
#: nearest first, up to the first chapel square, off-board square or edge.
#: Tombstones are not in this table; they are checked during play.
RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(_rays(sq) for sq in range(SIZE * SIZE))
#: ``PATHS[origin * 64 + target]``: the squares a move from origin to target passes,
#: target last, for every pair of distinct squares on one rank or file of the grid;
#: else None.
PATHS: Final[tuple[tuple[int, ...] | None, ...]] = _paths()
#: ``PATH_OF_GRAVES[origin * 64 + target]``: whether that path exists and crosses
#: graves only (no chapel, no off-board square), so that a move along it checks only
#: tombstones.
PATH_OF_GRAVES: Final[tuple[bool, ...]] = tuple(
    path is not None and all(IS_GRAVE[sq] for sq in path) for path in PATHS
)
#: ``PATH_BITS[origin * 64 + target]``: the squares of that path as a bit set (bit sq),
#: to test a path for tombstones in one step.
PATH_BITS: Final[tuple[int, ...]] = tuple(
    sum(1 << sq for sq in path) if path else 0 for path in PATHS
)
#: Each grave with its neighbours: placement (b) may go on a grave whose group here
#: is all empty (docs/tinkertown.md, "The resurrection stage").
B_GROUPS: Final[tuple[tuple[int, ...], ...]] = tuple((sq, *NEIGHBOURS[sq]) for sq in GRAVES)

# -- sides and stages --------------------------------------------------------------

WHITE: Final = 0
RED: Final = 1
#: Side names, indexed by WHITE / RED.
SIDE_NAMES: Final = ("White", "Red")
#: The letter of each side's zombies in a stack string (docs/tinkertown.md,
#: "Zombies, groups, tombstones").
COLOURS: Final = "wr"
RESURRECTION: Final = "resurrection"
MOVEMENT: Final = "movement"

# -- reading arguments, and words for messages -------------------------------------


def parse_square(name: str) -> int:
    """The square called ``name`` ("a1" .. "h8", any case); ``MisuseError`` if none."""
    index = SQUARE_INDEX.get(name.strip().lower()) if isinstance(name, str) else None
    if index is None:
        raise MisuseError(f"{name!r} is not a square (files a-h, ranks 1-8)")
    return index


def square_arg(square: int | str) -> int:
    """The index of ``square``, given as an index 0-63 (a1 = 0, h8 = 63) or a name.

    Every accessor that takes a square reads it with this: one meaning of an int
    (a square) and names accepted alike.  ``MisuseError`` for anything else.
    """
    return index_arg(
        square, SQUARE_INDEX, SIZE * SIZE,
        "is not a square: give its name (a1-h8) or its index 0-63 (a1 = 0, h8 = 63)",
    )


def side_arg(side: int) -> int:
    """``side`` checked: WHITE (0) or RED (1); ``MisuseError`` for anything else."""
    if type(side) is int and side in (WHITE, RED):
        return side
    raise MisuseError(f"{side!r} is not a side: WHITE (0) or RED (1)")


def not_a_grave(sq: int) -> str | None:
    """Why ``sq`` is not a grave, or None if it is one."""
    if sq in CHAPEL:
        return f"{SQUARE_NAMES[sq]} is the chapel, not a grave"
    if sq in OFF_BOARD:
        return f"{SQUARE_NAMES[sq]} is outside the cemetery, not a grave"
    return None


def plural(n: int, word: str) -> str:
    """``"1 zombie"``, ``"2 zombies"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def zombies(n: int) -> str:
    """``n`` zombies in words."""
    return plural(n, "zombie")
