"""The Zombie Kidz position the game hands out: the rules, and what a position tells.

:class:`ZombieKidzPosition` adds to the rules the position strings (:mod:`.strings`)
and the descriptions (:mod:`.describe`); the game and the class itself make positions
of this class::

    >>> from notation.games.zombie_kidz import ZombieKidzPosition
    >>> position = ZombieKidzPosition(players=2)
    >>> position.position_string()
    '101/000/101 b2,b2 - 4/8 2 1 0'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from notation.errors import require_text
from notation.games.zombie_kidz import rules

if TYPE_CHECKING:
    from notation.view import BoardView

# The position strings and the descriptions are imported where they are used: a check
# needs neither, and starts without them.


class ZombieKidzPosition(rules.ZombieKidzPosition):
    """A game of Zombie Kidz in progress: the rules' position, with its descriptions."""

    __slots__ = ()

    def position_string(self) -> str:
        """The position as one line (docs/zombie-kidz.md, "Position strings").

        ``101/000/101 b2,b2 - 4/8 2 1 0`` is the start with two players and 8 zombies.
        """
        from notation.games.zombie_kidz import strings

        return strings.position_string(self)

    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes.

        Raises ``TagValueError("Position", reason)`` for a malformed string, and for
        one that no game can reach (the reason names the field or the fact).
        """
        from notation.games.zombie_kidz import strings

        return strings.read_position(cls, require_text(text, "a position string"))

    def diagram(self) -> str:
        import notation.games.zombie_kidz.describe as describe  # no importlib call: called per move

        return describe.diagram(self)

    def last_move_facts(self) -> dict[str, Any]:
        """What the last turn did: see docs/zombie-kidz.md, "Data for programs"."""
        import notation.games.zombie_kidz.describe as describe  # no importlib call: called per move

        return describe.last_move_facts(self)

    def annotations(self) -> list[tuple[str, str]]:
        """``zombies`` (zone:count, or -), ``reserve``, and ``locks`` when a gate is locked."""
        import notation.games.zombie_kidz.describe as describe  # no importlib call: called per move

        return describe.annotations(self)

    def board_view(self) -> BoardView:
        """The board for the renderers: see docs/zombie-kidz.md, "Board views"."""
        import notation.games.zombie_kidz.describe as describe  # no importlib call: called per move

        return describe.board_view(self)
