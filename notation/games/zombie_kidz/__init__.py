"""Zombie Kidz (Annick Lobet, Le Scorpion Masque, 2013): a cooperative game with a die.

Notation and our rulings: docs/zombie-kidz.md.  The package, one file per concern:

- ``board``: the zones, tombs, gates, paths of both sides and the die, as tables;
- ``moves``: :class:`ZombieKidzMove`, its text, reading it and its data;
- ``rules``: :class:`ZombieKidzPosition`, what a turn does and when the game ends;
- ``strings``: position strings, written and read;
- ``describe``: diagram, board view, facts, captions and the words they share;
- ``codes``: the codes of its errors, one per rule a turn breaks;
- ``game``: :class:`ZombieKidzGame`, and here ``GAME``, the registered instance.

Every public name of the former module ``notation/games/zombie_kidz.py`` is
importable from here.
"""

from __future__ import annotations

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
from notation.games.zombie_kidz.rules import ZombieKidzPosition
from notation.games.zombie_kidz.strings import POSITION_FIELDS

#: The name square_arg() had before the game became a package.
zone_arg = square_arg

GAME = ZombieKidzGame()

__all__ = [
    "ALL_GATES_LOCKED",
    "CENTRE",
    "DEADLY",
    "DEFAULT_PLAYERS",
    "DEFAULT_ZOMBIES",
    "DICE",
    "DIE_FACES",
    "DIE_TOMB",
    "ERROR_CODES",
    "GAME",
    "GATES",
    "GATE_BIT",
    "GATE_NAMES",
    "LOCK_TOKEN",
    "NEIGHBOURS_MANY",
    "NEIGHBOURS_TWO",
    "PALETTE",
    "PATHS_BOTH_SIDES",
    "PATHS_TWO_PLAYER_SIDE",
    "PAWN_TOKENS",
    "PLAYERS_WIN",
    "PLAYER_COUNTS",
    "POSITION_FIELDS",
    "TOMB_COLOURS",
    "ZOMBIES_WIN",
    "ZOMBIE_COUNTS",
    "ZOMBIE_TOKEN",
    "ZONE_INDEX",
    "ZONE_NAMES",
    "ZombieKidzGame",
    "ZombieKidzMove",
    "ZombieKidzPosition",
    "square_arg",
    "zone_arg",
]
