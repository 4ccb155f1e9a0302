"""The codes of Cave's own errors: one per rule a move breaks, and one per case of a
token the grammar cannot read (docs/errors.md, "Error codes").

Each is the second argument of the ``IllegalMoveError`` or ``MoveSyntaxError`` raised
for it, and the ``code`` of the error a check reports.  Codes are stable: a new case
gets a new code, and a code never changes its meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType({
    # moves that cannot be read (syntax)
    "cave-not-a-square": "a square off the 4x5 board (e1)",
    "cave-move-malformed": "a token that is no entry, move, attack or pass",
    # any action (illegal)
    "cave-game-over": "a move after the rules ended the game",
    "cave-empty-square": "a move or an attack from an empty square",
    "cave-not-own-unit": "a move or an attack of the opponent's piece or team",
    # entering (illegal)
    "cave-reserve-empty": "an entry when all six pieces of the side have entered",
    "cave-not-home-row": "an entry off the side's home row",
    "cave-enter-occupied": "an entry onto a square that holds a piece",
    # moving and joining (illegal)
    "cave-move-not-orthogonal": "a move or join that is not one square along a rank or file",
    "cave-move-onto-enemy": "a move onto the opponent's piece (attacks go diagonally)",
    "cave-team-too-big": "a join that would make a team of more than 3 pieces",
    # attacking (illegal)
    "cave-attack-not-diagonal": "an attack that is not one square diagonally",
    "cave-attack-empty": "an attack on an empty square",
    "cave-attack-own": "an attack on the side's own piece or team",
    "cave-letter-missing": "a single piece fighting without its class letter",
    "cave-team-letter": "a class letter written for a team, which shows none",
    "cave-letter-contradicts": "a class letter other than the one the piece was shown as",
    "cave-class-exhausted": "more pieces shown of a class than the side has (1 K, 2 Z, 3 S)",
    # passing (illegal)
    "cave-pass-not-allowed": "a pass while the side has another action",
})
