"""The words Zombie Kidz's rules, position strings and descriptions share: what a
result means, why a game ended, how many zombies, who stands where; so that every
message says them alike.  Kept apart from :mod:`.describe` (which draws and needs the
views) because the rules need them to check.
"""

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

from notation.games.zombie_kidz.board import PLAYERS_WIN, ZOMBIES_WIN, ZONE_NAMES

#: What each result means (docs/zombie-kidz.md, "Results").
RESULT_NAMES: Final[Mapping[str, str]] = MappingProxyType(
    {PLAYERS_WIN: "the players win", ZOMBIES_WIN: "the zombies win"}
)
#: Why the rules ended a game, in the words of docs/zombie-kidz.md, "A turn".
NO_ZOMBIE_LEFT: Final[str] = "no zombie is left on the board"
ALL_GATES_ARE_LOCKED: Final[str] = "all 4 gates are locked"
RESERVE_EMPTY: Final[str] = "the reserve is empty"


def zombies_text(n: int) -> str:
    """A count of zombies in words: "1 zombie", "3 zombies"."""
    return f"{n} zombie" if n == 1 else f"{n} zombies"


def turns_text(n: int) -> str:
    """A count of turns in words: "1 turn played", "5 turns played"."""
    return f"{n} turn played" if n == 1 else f"{n} turns played"


def standing(pawns: Sequence[int], zone: int) -> str:
    """Who stands on ``zone``: "player 2 stands", "players 1 and 3 stand"."""
    players = [str(p + 1) for p, z in enumerate(pawns) if z == zone]
    if len(players) == 1:
        return f"player {players[0]} stands"
    return f"players {', '.join(players[:-1])} and {players[-1]} stand"


def caught(pawns: Sequence[int], zone: int, held: int) -> str:
    """Why the zombies win when pawns stand on ``zone`` among ``held`` zombies."""
    return f"{standing(pawns, zone)} on {ZONE_NAMES[zone]}, which now holds {zombies_text(held)}"

