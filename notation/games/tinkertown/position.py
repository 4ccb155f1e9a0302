"""The Tinkertown position the game hands out: the rules, and what a position tells.

:class:`TinkertownPosition` adds to the rules the position strings (:mod:`.strings`)
and the descriptions (:mod:`.describe`); the game, :meth:`~TinkertownPosition.setup`
and :meth:`~TinkertownPosition.from_string` make positions of this class::

    >>> from notation.games.tinkertown import TinkertownPosition
    >>> TinkertownPosition().position_string()
    '4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0'
"""

from __future__ import annotations

from typing import Self

from notation.errors import require_text
from notation.games.base import DescribedPosition
from notation.games.tinkertown import rules
from notation.games.tinkertown.moves import TinkertownMove

# The position strings and the descriptions are imported where they are used: a check
# needs neither, and starts without them.


class TinkertownPosition(DescribedPosition[TinkertownMove], rules.TinkertownRules):
    """A game of Tinkertown Cemetery in progress: the rules' position, with its
    descriptions.

    The descriptions are :mod:`.describe`'s.  :meth:`diagram` has rank 8 at the top and
    shows a stack bottom to top (``wr``: a red zombie on a white one); ``.`` is an empty
    grave, ``+`` a tombstone, ``#`` the chapel, blank off the board; its last line says
    whose turn it is and the stage.  The keys of :meth:`last_move_facts` and
    :meth:`annotations` and the roles of :meth:`board_view`: docs/tinkertown.md, "Moves
    as data, and what a move did", "Annotations" and "Board views".
    """

    __slots__ = ()
    _describe = "notation.games.tinkertown.describe"

    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes.

        ``TagValueError("Position", reason)`` if the string is malformed or the
        position impossible; the reason names the part that is wrong.
        """
        from notation.games.tinkertown import strings

        pos = cls()
        strings.read(pos, require_text(text, "a position string"))
        pos._settle()
        return pos

    def position_string(self) -> str:
        """This position as one line (docs/tinkertown.md, "Position strings").

        ``board side stage placements turns``, e.g. the start is
        ``4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0``.
        """
        from notation.games.tinkertown import strings

        return strings.write(self)
