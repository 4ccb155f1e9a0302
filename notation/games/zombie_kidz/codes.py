"""The codes of Zombie Kidz's own errors: one per rule a turn breaks, and one per case
of a token the grammar cannot read (docs/errors.md, "Error codes").

Each is the second argument of the ``IllegalMoveError`` or ``MoveSyntaxError`` raised
for it, and the ``code`` of the error a check reports.  Codes are stable: a new case
gets a new code, and a code never changes its meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType({
    # turns that cannot be read (syntax)
    "zombie-kidz-not-a-die": "a die letter the die does not have (Q)",
    "zombie-kidz-not-a-zone": "a zone off the 3x3 board (d1)",
    "zombie-kidz-too-many-zones": "a step through more than two zones (K:b2-b1-a1)",
    "zombie-kidz-die-missing": "a turn that starts with a zone, not a die letter",
    "zombie-kidz-move-incomplete": "a turn cut short (K:b2-)",
    "zombie-kidz-move-malformed": "a character where the notation allows none (K:b2-b1xx)",
    # turns the rules forbid (illegal)
    "zombie-kidz-game-over": "a turn after the rules ended the game",
    "zombie-kidz-wrong-origin": "a long form naming a zone the pawn is not on",
    "zombie-kidz-step-stays": "a step onto the zone the pawn is on",
    "zombie-kidz-not-a-step": "a step to a zone no path leads to",
    "zombie-kidz-two-player-path": "a diagonal step with 3 or 4 players",
    "zombie-kidz-zone-closed": "a step onto a zone with 3 or more zombies",
    "zombie-kidz-no-elimination": "an x mark where no zombie is eliminated",
    "zombie-kidz-no-lock": "an L mark where no gate is locked",
    "zombie-kidz-losing-roll": "a step or a mark after a roll that loses the game",
})
