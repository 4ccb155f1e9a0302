"""The Tinkertown position the game hands out: the rules, and what a position tells.

:class:`TinkertownPosition` adds to the rules the position strings (:mod:`.strings`)
and the descriptions (:mod:`.describe`); the game, :meth:`~TinkertownPosition.setup`
and :meth:`~TinkertownPosition.from_string` make positions of this class::

    >>> from notation.games.tinkertown import TinkertownPosition
    >>> TinkertownPosition().position_string()
    '4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from notation.errors import require_text
from notation.games.tinkertown import rules

if TYPE_CHECKING:
    from notation.view import BoardView

# The position strings and the descriptions are imported where they are used: a check
# needs neither, and starts without them.


class TinkertownPosition(rules.TinkertownPosition):
    """A game of Tinkertown Cemetery in progress: the rules' position, with its
    descriptions."""

    __slots__ = ()

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

    def diagram(self) -> str:
        """The board as text, rank 8 at the top.

        A stack is shown bottom to top (``wr``: a red zombie on a white one);
        ``.`` an empty grave, ``+`` a tombstone, ``#`` the chapel, blank
        off the board.  The last line says whose turn it is and the stage.
        """
        import notation.games.tinkertown.describe as describe  # no importlib call: called per move

        return describe.diagram(self)

    def last_move_facts(self) -> dict[str, Any]:
        """What the last move did (docs/tinkertown.md, "Moves as data, and what a move
        did"); ``{}`` before any.

        Keys: ``action`` ("placement", "resurrection", "move" or "entry"),
        ``side`` ("White"/"Red", who played it), ``zombies`` (how many it moved or
        placed), ``captured``, ``removed`` ({"white": n, "red": m}, only when it
        captured), ``tombstone`` (the square, or None), ``above_capacity`` (it left
        its destination two-coloured above capacity), ``stage_over`` (it ended the
        resurrection stage), ``winner`` ("White"/"Red" if it won, else None).
        """
        import notation.games.tinkertown.describe as describe  # no importlib call: called per move

        return describe.last_move_facts(self)

    def annotations(self) -> list[tuple[str, str]]:
        """Facts for ``[%key value]`` comments (docs/tinkertown.md, "Annotations").

        ``capture`` ("h3 2w 1r": where, and the white and red zombies that left;
        only after a capture), ``stage`` ("movement"; only after the placement that
        ended the resurrection stage), ``over`` (the graves whose two-coloured
        group stands above capacity; only when there are any) and ``control``
        ("W5 R4", the groups each side controls; movement stage only).
        """
        import notation.games.tinkertown.describe as describe  # no importlib call: called per move

        return describe.annotations(self)

    def board_view(self) -> BoardView:
        """The position for the renderers (docs/tinkertown.md, "Board views").

        Roles: ``off`` (the 12 corner squares), ``chapel``, ``grave``, ``over`` (a
        grave whose two-coloured group stands above capacity), ``tombstone``;
        tokens ``white`` ("W") and ``red`` ("R"), bottom to top.  A grave's note
        is its capacity.
        """
        import notation.games.tinkertown.describe as describe  # no importlib call: called per move

        return describe.board_view(self)
