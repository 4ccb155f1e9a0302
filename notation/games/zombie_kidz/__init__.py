"""Zombie Kidz (Annick Lobet, Le Scorpion Masque, 2013): a cooperative game with a die.

Notation and our rulings: docs/zombie-kidz.md.  The package, one file per concern:

- ``board``: the zones, tombs, gates, paths of both sides and the die, as tables;
- ``moves``: :class:`ZombieKidzMove`, its text, reading it and its data;
- ``rules``: the position's rules, what a turn does and when the game ends;
- ``strings``: position strings, written and read;
- ``describe``: diagram, board view, facts, captions and the words they share;
- ``position``: :class:`ZombieKidzPosition`, the rules' position with its strings
  and descriptions: the class of the positions the game makes;
- ``codes``: the codes of its errors, one per rule a turn breaks;
- ``game``: :class:`ZombieKidzGame`, and here ``GAME``, the registered instance.

Every public name of the rules is importable from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.games import lazy_exports

if TYPE_CHECKING:
    from notation.games.zombie_kidz.board import (
        ALL_GATES_LOCKED,
        CENTRE,
        DEADLY,
        DEFAULT_PLAYERS,
        DEFAULT_ZOMBIES,
        DICE,
        DIE_FACES,
        DIE_TOMB,
        GATE_BIT,
        GATE_NAMES,
        GATES,
        NEIGHBOURS_MANY,
        NEIGHBOURS_TWO,
        PATHS_BOTH_SIDES,
        PATHS_TWO_PLAYER_SIDE,
        PLAYER_COUNTS,
        PLAYERS_WIN,
        TOMB_COLOURS,
        ZOMBIE_COUNTS,
        ZOMBIES_WIN,
        ZONE_INDEX,
        ZONE_NAMES,
        square_arg,
    )
    from notation.games.zombie_kidz.codes import ERROR_CODES
    from notation.games.zombie_kidz.describe import LOCK_TOKEN, PALETTE, PAWN_TOKENS, ZOMBIE_TOKEN
    from notation.games.zombie_kidz.game import ZombieKidzGame
    from notation.games.zombie_kidz.moves import ZombieKidzMove
    from notation.games.zombie_kidz.position import ZombieKidzPosition
    from notation.games.zombie_kidz.strings import POSITION_FIELDS

    GAME: ZombieKidzGame

#: The names the game answers to, its own first (``GAME.name``, then its aliases):
#: the registry finds the game by them without loading it (see :mod:`notation.games`).
NAMES = ("zombie-kidz", "zombiekidz")

__all__ = [
    "ALL_GATES_LOCKED", "CENTRE", "DEADLY", "DEFAULT_PLAYERS", "DEFAULT_ZOMBIES", "DICE",
    "DIE_FACES", "DIE_TOMB", "ERROR_CODES", "GAME", "GATES", "GATE_BIT", "GATE_NAMES", "LOCK_TOKEN",
    "NEIGHBOURS_MANY", "NEIGHBOURS_TWO", "PALETTE", "PATHS_BOTH_SIDES", "PATHS_TWO_PLAYER_SIDE",
    "PAWN_TOKENS", "PLAYERS_WIN", "PLAYER_COUNTS", "POSITION_FIELDS", "TOMB_COLOURS", "ZOMBIES_WIN",
    "ZOMBIE_COUNTS", "ZOMBIE_TOKEN", "ZONE_INDEX", "ZONE_NAMES", "ZombieKidzGame", "ZombieKidzMove",
    "ZombieKidzPosition", "square_arg",
]

#: Where each public name lives: loaded on first use, so that the registry, and a
#: record of another game, do not load this one.
_HOMES = {
    name: home
    for home, names in {
        "board": (
            "ALL_GATES_LOCKED CENTRE DEADLY DEFAULT_PLAYERS DEFAULT_ZOMBIES DICE DIE_FACES"
            " DIE_TOMB GATE_BIT GATE_NAMES GATES NEIGHBOURS_MANY NEIGHBOURS_TWO"
            " PATHS_BOTH_SIDES PATHS_TWO_PLAYER_SIDE PLAYER_COUNTS PLAYERS_WIN TOMB_COLOURS"
            " ZOMBIE_COUNTS ZOMBIES_WIN ZONE_INDEX ZONE_NAMES square_arg"
        ),
        "codes": "ERROR_CODES",
        "describe": "LOCK_TOKEN PALETTE PAWN_TOKENS ZOMBIE_TOKEN",
        "game": "ZombieKidzGame",
        "moves": "ZombieKidzMove",
        "position": "ZombieKidzPosition",
        "strings": "POSITION_FIELDS",
    }.items()
    for name in names.split()
}


def _game() -> object:
    from notation.games.zombie_kidz.game import ZombieKidzGame

    return ZombieKidzGame()


__getattr__ = lazy_exports(__name__, _HOMES, {"GAME": _game})
