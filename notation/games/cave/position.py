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

from typing import TYPE_CHECKING, Any, Self

from notation.errors import require_text
from notation.games.cave import rules

if TYPE_CHECKING:
    from notation.games.cave import infer
    from notation.view import BoardView

# Strings, descriptions and odds are imported where used: a check needs none of them.


class CavePosition(rules.CavePosition):
    """A Cave game in progress, as far as the record has revealed it: the rules'
    position, with its descriptions and odds."""

    __slots__ = ()

    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes (``TagValueError`` if none)."""
        from notation.games.cave import strings

        return strings.read_position(cls, require_text(text, "a position string"))

    def position_string(self) -> str:
        """The position as one line: docs/cave.md, "Position strings"."""
        from notation.games.cave import strings

        return strings.position_string(self)

    def diagram(self) -> str:
        import notation.games.cave.describe as describe  # no importlib call: called per move

        return describe.diagram(self)

    def last_move_facts(self) -> dict[str, Any]:
        """What the last move did (``{}`` before any move); keys in docs/cave.md."""
        import notation.games.cave.describe as describe  # no importlib call: called per move

        return describe.last_move_facts(self)

    def annotations(self) -> list[tuple[str, str]]:
        """``reveal`` and ``possible`` after a fight, ``reserve`` after an entry."""
        import notation.games.cave.describe as describe  # no importlib call: called per move

        return describe.annotations(self)

    def board_view(self) -> BoardView:
        import notation.games.cave.describe as describe  # no importlib call: called per move

        return describe.board_view(self)

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
