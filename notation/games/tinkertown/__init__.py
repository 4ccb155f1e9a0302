"""Tinkertown Cemetery (Christian Freeling, Mindsports).

docs/tinkertown.md explains the rules, the notation and the rulings that are
ours.  The package, as every game's: ``board`` (the cemetery as tables),
``moves`` (the move types, their text and reading them), ``rules`` (the
position: every rule, once), ``strings`` (position strings), ``describe``
(diagram, board view, facts, annotations, captions), ``search`` (the search
engine: alpha-beta, Zobrist keys, the evaluation), ``analysis`` (move assessment
by the search, wins at once), ``players`` (a search bot and a greedy bot for
:func:`notation.play`), ``codes`` (the codes of its errors) and ``game`` (the
:class:`~notation.games.base.Game` subclass).  Every public name of the rules is
importable from here; the engine's from its modules.
"""

from __future__ import annotations

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
from notation.games.tinkertown.rules import TinkertownPosition

__all__ = [
    "CHAPEL",
    "COLOURS",
    "ERROR_CODES",
    "FILES",
    "GAME",
    "GRAVES",
    "IS_GRAVE",
    "MOVEMENT",
    "NEIGHBOURS",
    "OFF_BOARD",
    "PALETTE",
    "PATHS",
    "PATH_OF_GRAVES",
    "RAYS",
    "RED",
    "RESURRECTION",
    "SIDE_NAMES",
    "SIZE",
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

GAME = TinkertownGame()
