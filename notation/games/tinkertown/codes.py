"""The codes of Tinkertown Cemetery's own errors: one per rule a move breaks, and one
per case of a token the grammar cannot read (docs/errors.md, "Error codes").

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
    "tinkertown-not-a-square": "a square off the 8x8 board (i9)",
    "tinkertown-commas": "a resurrection turn with more than one comma (d2,,b5)",
    "tinkertown-capture-marks": "a move with two capture marks (e2xe1x)",
    "tinkertown-move-malformed": "a token that is no square, pair of placements or move",
    # any stage (illegal)
    "tinkertown-game-over": "a move after the rules ended the game",
    "tinkertown-chapel": "a placement, entry or move that names a square of the chapel",
    "tinkertown-off-board": "a placement, entry or move that names a square outside the cemetery",
    # the resurrection stage (illegal)
    "tinkertown-opening-pair": "two placements on White's first turn, which is one",
    "tinkertown-occupied": "a placement on a grave that holds a zombie",
    "tinkertown-not-next-to-last": "placement (a) not next to the opponent's last placement",
    "tinkertown-no-grave-for-b": "two placements where no grave is left for (b) after (a)",
    "tinkertown-neighbour-occupied": "placement (b) on a grave with an occupied neighbour",
    "tinkertown-second-placement-missing": "a single placement while a grave for (b) remains",
    "tinkertown-placement-capture-mark": "a capture mark on a placement",
    "tinkertown-movement-not-started": "a group moved during the resurrection stage",
    # the movement stage (illegal)
    "tinkertown-resurrection-over": "two placements after the resurrection stage ended",
    "tinkertown-no-group": "a move from an empty grave",
    "tinkertown-not-controlled": "a move of a group whose top zombie is the opponent's",
    "tinkertown-not-straight": "a move that does not go along a rank or a file",
    "tinkertown-move-stays": "a move to the grave it starts from",
    "tinkertown-too-few-zombies": "a move of k graves from a group of fewer than k zombies",
    "tinkertown-tombstone": "a move from or onto a tombstone, or an entry onto one",
    "tinkertown-crosses-tombstone": "a move over a tombstone",
    "tinkertown-crosses-chapel": "a move over the chapel",
    "tinkertown-leaves-cemetery": "a move over a square outside the cemetery",
    "tinkertown-no-capture": "a capture mark on an action that captures nothing",
    "tinkertown-entry-no-capture": "a capture mark on an entry onto a one-coloured group",
})
