"""Tinkertown Cemetery (Christian Freeling, Mindsports).

docs/tinkertown.md explains the rules, the notation and the rulings that are
ours.  The package, as every game's: ``board``, ``moves``, ``rules``, ``strings``,
``describe``, ``position``, ``codes`` and ``game``; and the engine: ``search``
(alpha-beta, Zobrist keys, the evaluation), ``analysis`` (move assessment) and
``players`` (bots for :func:`notation.play`).  Every public name of the rules is
importable from here; the engine's from its modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.games import lazy_exports

if TYPE_CHECKING:
    from notation.games.tinkertown.board import (
        CHAPEL,
        COLOURS,
        FILES,
        GRAVES,
        IS_GRAVE,
        MOVEMENT,
        NEIGHBOURS,
        OFF_BOARD,
        PATH_OF_GRAVES,
        PATHS,
        RAYS,
        RED,
        RESURRECTION,
        SIDE_NAMES,
        SIZE,
        SQUARE_NAMES,
        WHITE,
        parse_square,
        square_arg,
    )
    from notation.games.tinkertown.codes import ERROR_CODES
    from notation.games.tinkertown.describe import PALETTE
    from notation.games.tinkertown.game import TinkertownGame
    from notation.games.tinkertown.moves import Drop, Move, Resurrection, TinkertownMove
    from notation.games.tinkertown.position import TinkertownPosition

    GAME: TinkertownGame

#: The names the game answers to, its own first (``GAME.name``, then its aliases):
#: the registry finds the game by them without loading it (see :mod:`notation.games`).
NAMES = ("tinkertown", "tinkertown-cemetery", "cemetery")

__all__ = [
    "CHAPEL", "COLOURS", "ERROR_CODES", "FILES", "GAME", "GRAVES", "IS_GRAVE", "MOVEMENT",
    "NEIGHBOURS", "OFF_BOARD", "PALETTE", "PATHS", "PATH_OF_GRAVES", "RAYS", "RED", "RESURRECTION",
    "SIDE_NAMES", "SIZE", "SQUARE_NAMES", "WHITE", "Drop", "Move", "Resurrection", "TinkertownGame",
    "TinkertownMove", "TinkertownPosition", "parse_square", "square_arg",
]

#: Where each public name lives: loaded on first use, so that the registry, and a
#: record of another game, do not load this one.
_HOMES = {
    name: home
    for home, names in {
        "board": (
            "CHAPEL COLOURS FILES GRAVES IS_GRAVE MOVEMENT NEIGHBOURS OFF_BOARD"
            " PATH_OF_GRAVES PATHS RAYS RED RESURRECTION SIDE_NAMES SIZE SQUARE_NAMES WHITE"
            " parse_square square_arg"
        ),
        "codes": "ERROR_CODES",
        "describe": "PALETTE",
        "game": "TinkertownGame",
        "moves": "Drop Move Resurrection TinkertownMove",
        "position": "TinkertownPosition",
    }.items()
    for name in names.split()
}


def _game() -> object:
    from notation.games.tinkertown.game import TinkertownGame

    return TinkertownGame()


__getattr__ = lazy_exports(__name__, _HOMES, {"GAME": _game})
