"""The Cave position the game hands out: the rules, and what a position tells.

:class:`CavePosition` adds to the rules the position strings (:mod:`.strings`), the
descriptions (:mod:`.describe`) and the odds of hidden identities (:mod:`.infer`); the
game and the class itself make positions of this class::

    >>> from notation.games.cave import CavePosition
    >>> position = CavePosition.from_string("b1:r? 5/6 -/- 0 b 1")
    >>> position.piece_odds(0)["K"]
    Fraction(1, 6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from notation.errors import require_text
from notation.games.base import DescribedPosition
from notation.games.cave import rules
from notation.games.cave.moves import CaveMove

if TYPE_CHECKING:
    from notation.games.cave import infer

# Strings, descriptions and odds are imported where used: a check needs none of them.


class CavePosition(DescribedPosition[CaveMove], rules.CaveRules):
    """A Cave game in progress, as far as the record has revealed it: the rules'
    position, with its descriptions and odds.

    The descriptions are :mod:`.describe`'s.  :meth:`annotations`: ``reveal`` and
    ``possible`` after a fight, ``reserve`` after an entry; the keys of
    :meth:`last_move_facts` and the roles of :meth:`board_view` are in docs/cave.md.
    """

    __slots__ = ()
    _describe = "notation.games.cave.describe"

    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes (``TagValueError`` if none)."""
        from notation.games.cave import strings

        return strings.read_position(cls, require_text(text, "a position string"))

    def position_string(self) -> str:
        """The position as one line: docs/cave.md, "Position strings"."""
        from notation.games.cave import strings

        return strings.position_string(self)

    def identity_odds(self, square: str | int) -> tuple[infer.Odds, ...]:
        """The exact probability of each identity of every piece on ``square``, bottom to
        top (one mapping for a single piece, one per member of a team), given every
        reveal so far: :func:`.infer.square_odds` (docs/cave.md, "What can be known").

        Each mapping is ``{"K": p, "Z": q, "S": r}`` with fractions that sum to 1; a
        piece shown has its letter with probability 1.  ``MisuseError`` for an empty
        square.
        """
        from notation.games.cave import infer

        return infer.square_odds(self, square)

    def piece_odds(self, piece: int) -> infer.Odds:
        """:meth:`identity_odds` of piece ``piece`` (id 0-11, on the board or not)."""
        from notation.games.cave import infer

        return infer.piece_odds(self, piece)
