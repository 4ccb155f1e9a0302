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

from typing import Self

from notation.errors import require_text
from notation.games.base import DescribedPosition
from notation.games.zombie_kidz import rules
from notation.games.zombie_kidz.moves import ZombieKidzMove

# The position strings and the descriptions are imported where they are used: a check
# needs neither, and starts without them.


class ZombieKidzPosition(DescribedPosition[ZombieKidzMove], rules.ZombieKidzRules):
    """A game of Zombie Kidz in progress: the rules' position, with its descriptions.

    The descriptions are :mod:`.describe`'s.  :meth:`annotations`: ``zombies``
    (zone:count, or -), ``reserve``, and ``locks`` when a gate is locked; what
    :meth:`last_move_facts` and :meth:`board_view` hold: docs/zombie-kidz.md, "Data for
    programs" and "Board views".
    """

    __slots__ = ()
    _describe = "notation.games.zombie_kidz.describe"

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
