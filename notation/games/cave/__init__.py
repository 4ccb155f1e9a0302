"""Cave (Fernando Lafuente): a hidden-identity mini-wargame on a 4x5 board.

Each side owns six face-down pieces (1 black knight, 2 zombies, 3 skeletons) whose
identities nobody knows until they fight; docs/cave.md gives the rules, the notation
and every format.  The package:

* :mod:`.board`: squares, neighbours, sides and material, as tables made once;
* :mod:`.moves`: ``Enter``, ``Step``, ``Attack``, ``Pass``, their text and grammar glue;
* :mod:`.rules`: the position's rules, every rule in one place;
* :mod:`.strings`: position strings, written and read;
* :mod:`.describe`: diagram, facts of the last move, annotations, board view;
* :mod:`.position`: :class:`CavePosition`, the rules' position with its strings,
  descriptions and odds: the class of the positions the game makes;
* :mod:`.codes`: the codes of its errors, one per rule a move breaks;
* :mod:`.hidden`: the identities as a referee deals and holds them;
* :mod:`.infer`: what a record lets anyone know: each hidden piece's exact odds;
* :mod:`.engine`: players that reason with those odds, move assessment, analysis;
* :mod:`.game`: :class:`CaveGame`, what the shared layers talk to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.games import lazy_exports

if TYPE_CHECKING:
    from notation.games.base import DRAW, WIN_FIRST, WIN_SECOND
    from notation.games.cave.board import (
        BLACK,
        CLASS_NAMES,
        CLASS_OF,
        CLASS_PLURALS,
        DIAGONAL,
        FILES,
        HOME_RANK,
        HOME_ROW,
        HOME_ROW_ORDER,
        KNIGHT,
        LETTERS,
        LIMIT,
        MAX_TEAM,
        N_SQUARES,
        ORTHOGONAL,
        PIECE_SIDE,
        PIECES_PER_SIDE,
        RANKS,
        RED,
        RELATION,
        RESULT_NAMES,
        SIDE_CODES,
        SIDE_KEYS,
        SIDE_NAMES,
        SKELETON,
        SQUARE_INDEX,
        SQUARES,
        TEAM_CLASS,
        ZOMBIE,
        square_arg,
        square_index,
        square_name,
    )
    from notation.games.cave.codes import ERROR_CODES
    from notation.games.cave.describe import PALETTE, SQUARE_ROLE
    from notation.games.cave.game import CaveGame, read_position
    from notation.games.cave.moves import Attack, CaveMove, Enter, Pass, Step
    from notation.games.cave.position import CavePosition
    from notation.games.cave.rules import ATTACKER_WINS
    from notation.games.cave.strings import POSITION_FIELDS

    GAME: CaveGame

#: The names the game answers to, its own first (``GAME.name``, then its aliases):
#: the registry finds the game by them without loading it (see :mod:`notation.games`).
NAMES = ("cave",)

__all__ = [
    "ATTACKER_WINS", "BLACK", "CLASS_NAMES", "CLASS_OF", "CLASS_PLURALS", "DIAGONAL", "DRAW",
    "ERROR_CODES", "FILES", "GAME", "HOME_RANK", "HOME_ROW", "HOME_ROW_ORDER", "KNIGHT", "LETTERS",
    "LIMIT", "MAX_TEAM", "N_SQUARES", "ORTHOGONAL", "PALETTE", "PIECES_PER_SIDE", "PIECE_SIDE",
    "POSITION_FIELDS", "RANKS", "RED", "RELATION", "RESULT_NAMES", "SIDE_CODES", "SIDE_KEYS",
    "SIDE_NAMES", "SKELETON", "SQUARES", "SQUARE_INDEX", "SQUARE_ROLE", "TEAM_CLASS", "WIN_FIRST",
    "WIN_SECOND", "ZOMBIE", "Attack", "CaveGame", "CaveMove", "CavePosition", "Enter", "Pass",
    "Step", "read_position", "square_arg", "square_index", "square_name",
]

#: Where each public name lives: loaded on first use, so that the registry, and a
#: record of another game, do not load this one.
_HOMES = {
    name: home
    for home, names in {
        "notation.games.base": "DRAW WIN_FIRST WIN_SECOND",
        "board": (
            "BLACK CLASS_NAMES CLASS_OF CLASS_PLURALS DIAGONAL FILES HOME_RANK HOME_ROW"
            " HOME_ROW_ORDER KNIGHT LETTERS LIMIT MAX_TEAM N_SQUARES ORTHOGONAL PIECE_SIDE"
            " PIECES_PER_SIDE RANKS RED RELATION RESULT_NAMES SIDE_CODES SIDE_KEYS SIDE_NAMES"
            " SKELETON SQUARE_INDEX SQUARES TEAM_CLASS ZOMBIE square_arg square_index"
            " square_name"
        ),
        "codes": "ERROR_CODES",
        "describe": "PALETTE SQUARE_ROLE",
        "game": "CaveGame read_position",
        "moves": "Attack CaveMove Enter Pass Step",
        "rules": "ATTACKER_WINS",
        "position": "CavePosition",
        "strings": "POSITION_FIELDS",
    }.items()
    for name in names.split()
}


def _game() -> object:
    from notation.games.cave.game import CaveGame

    return CaveGame()


__getattr__ = lazy_exports(__name__, _HOMES, {"GAME": _game})
