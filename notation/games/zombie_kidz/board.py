"""The board, the die and the setup as data: docs/zombie-kidz.md, "The board".

Zones are small ints, ``file + 3 * rank`` (a1 = 0, b2 = 4, c3 = 8).  The paths of
each side of the board are tables computed once, at import; the die is a table
from letter to tomb.  Nothing here changes during a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

from notation.games.base import WIN_FIRST, WIN_SECOND, index_arg

#: Zone names by index; index = file + 3 * rank (a1 = 0, b2 = 4, c3 = 8).
ZONE_NAMES: Final[tuple[str, ...]] = tuple(f"{f}{r}" for r in "123" for f in "abc")
ZONE_INDEX: Final[Mapping[str, int]] = MappingProxyType(
    {name: i for i, name in enumerate(ZONE_NAMES)}
)
_ZONES: Final[range] = range(len(ZONE_NAMES))

#: The five tombs and their colours (the layout is a ruling: docs/zombie-kidz.md,
#: "The board").
TOMB_COLOURS: Final[Mapping[str, str]] = MappingProxyType(
    {"b2": "red", "b3": "yellow", "c2": "green", "b1": "black", "a2": "blue"}
)
GATE_NAMES: Final[tuple[str, ...]] = ("a1", "c1", "a3", "c3")
CENTRE: Final[int] = ZONE_INDEX["b2"]
GATES: Final[frozenset[int]] = frozenset(ZONE_INDEX[g] for g in GATE_NAMES)
#: Locked gates are a bit set: a gate's bit, 0 for a tomb.
GATE_BIT: Final[tuple[int, ...]] = tuple(1 << z if z in GATES else 0 for z in _ZONES)
ALL_GATES_LOCKED: Final[int] = sum(GATE_BIT)

#: Paths printed on both sides of the board: the centre to each edge tomb, and
#: each gate to its two neighbouring edge tombs.  No path joins a gate and the centre.
PATHS_BOTH_SIDES: Final[tuple[tuple[str, str], ...]] = (
    ("b2", "b1"), ("b2", "a2"), ("b2", "c2"), ("b2", "b3"),
    ("a1", "a2"), ("a1", "b1"), ("c1", "b1"), ("c1", "c2"),
    ("a3", "a2"), ("a3", "b3"), ("c3", "b3"), ("c3", "c2"),
)  # fmt: skip
#: The four diagonal paths of the 2-player side, between edge tombs sharing a corner.
PATHS_TWO_PLAYER_SIDE: Final[tuple[tuple[str, str], ...]] = (
    ("a2", "b3"), ("b3", "c2"), ("c2", "b1"), ("b1", "a2"),
)  # fmt: skip


def _neighbours(paths: Sequence[tuple[str, str]]) -> tuple[frozenset[int], ...]:
    table: list[set[int]] = [set() for _ in _ZONES]
    for one, other in paths:
        table[ZONE_INDEX[one]].add(ZONE_INDEX[other])
        table[ZONE_INDEX[other]].add(ZONE_INDEX[one])
    return tuple(frozenset(s) for s in table)


#: Neighbours of each zone on the side for 3 or 4 players and on the 2-player side.
NEIGHBOURS_MANY: Final[tuple[frozenset[int], ...]] = _neighbours(PATHS_BOTH_SIDES)
NEIGHBOURS_TWO: Final[tuple[frozenset[int], ...]] = _neighbours(
    PATHS_BOTH_SIDES + PATHS_TWO_PLAYER_SIDE
)
#: The same, sorted, so that moves are generated in a fixed order.
STEPS_MANY: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(s)) for s in NEIGHBOURS_MANY)
STEPS_TWO: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(s)) for s in NEIGHBOURS_TWO)


def side_name(players: int) -> str:
    """The side of the board ``players`` play on (docs/zombie-kidz.md, "Setting up")."""
    return "2-player side" if players == 2 else "3-4 player side"


#: Die faces in the order legal moves are listed: letter -> (colour, tomb or None).
DIE_FACES: Final[Mapping[str, tuple[str, str | None]]] = MappingProxyType(
    {
        "R": ("red", "b2"),
        "Y": ("yellow", "b3"),
        "G": ("green", "c2"),
        "K": ("black", "b1"),
        "B": ("blue", "a2"),
        "W": ("white", None),
    }
)
DICE: Final[tuple[str, ...]] = tuple(DIE_FACES)
#: The tomb a face puts a zombie on, as a zone index; -1 for white (no zombie).
DIE_TOMB: Final[Mapping[str, int]] = MappingProxyType(
    {d: -1 if tomb is None else ZONE_INDEX[tomb] for d, (_, tomb) in DIE_FACES.items()}
)


#: A zone holding this many zombies is closed to pawns, and loses the game if a pawn
#: is on it (docs/zombie-kidz.md, "A turn").
DEADLY: Final[int] = 3

# docs/zombie-kidz.md, "Setting up": the values of the Players and Zombies tags.
PLAYER_COUNTS: Final[Mapping[str, int]] = MappingProxyType({"2": 2, "3": 3, "4": 4})
ZOMBIE_COUNTS: Final[Mapping[str, int]] = MappingProxyType({"8": 8, "7": 7})
DEFAULT_PLAYERS: Final[int] = 2
DEFAULT_ZOMBIES: Final[int] = 8

# docs/zombie-kidz.md, "Results": everybody wins together or loses together.
PLAYERS_WIN: Final[str] = WIN_FIRST
ZOMBIES_WIN: Final[str] = WIN_SECOND


def square_arg(zone: int | str) -> int:
    """The index of ``zone``, given as an index 0-8 (a1 = 0, b2 = 4, c3 = 8) or a name.

    Every accessor that takes a zone reads it with this: an int always means a
    zone, and names are accepted alike.  ``MisuseError`` for anything else.
    """
    return index_arg(
        zone, ZONE_INDEX, len(ZONE_NAMES),
        "is not a zone: give its name (a1 to c3) or its index 0-8 (a1 = 0, b2 = 4, c3 = 8)",
    )


def zone_list(zones: Sequence[int]) -> str:
    """Zones in words, in board order: "b1", "a1, c1 and b2"."""
    names = [ZONE_NAMES[z] for z in sorted(zones)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
