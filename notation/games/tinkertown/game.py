"""The game object: names, the move notation, positions and assessment.

The shared layers (reader, replay, writers, CLI) talk to Tinkertown Cemetery
through this :class:`~notation.games.base.Game` subclass only.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from lark.exceptions import LarkError

from notation.games.base import Game, Position, require_text
from notation.games.tinkertown import analysis, moves
from notation.games.tinkertown.codes import ERROR_CODES
from notation.games.tinkertown.moves import MoveBuilder, TinkertownMove, syntax_error
from notation.games.tinkertown.rules import TinkertownPosition
from notation.grammar import GameParser, build_parser
from notation.view import Assessment


class TinkertownGame(Game[TinkertownMove]):
    """Tinkertown Cemetery: moves, notation and the starting position."""

    name = "tinkertown"
    aliases = ("tinkertown-cemetery", "cemetery")
    title = "Tinkertown Cemetery"
    player_tags = ("White", "Red")
    # docs/tinkertown.md, "The end": there are no draws.
    result_names = MappingProxyType({"1-0": "White wins", "0-1": "Red wins"})

    #: The codes of the errors its moves get (:mod:`.codes`).
    error_codes = ERROR_CODES
    #: The keys of :meth:`TinkertownPosition.annotations`.
    annotation_keys = frozenset({"capture", "stage", "over", "control"})
    can_assess = True

    def __init__(self) -> None:
        super().__init__()
        self._parser: GameParser[TinkertownMove] | None = None

    def parse_move(self, text: str) -> TinkertownMove:
        """Read one move token (any letter case); MoveSyntaxError if malformed."""
        parser = self._parser
        if parser is None:
            parser = self._parser = build_parser("tinkertown", MoveBuilder())
        try:
            move = parser.parse(text.strip().lower())
        except LarkError:
            raise syntax_error(text.strip()) from None
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> TinkertownPosition:
        """The empty cemetery, White to place; or the position of a ``Position`` tag.

        No other tag changes the start.
        """
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return TinkertownPosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> TinkertownPosition:
        """The position a position string describes (no other tag changes it)."""
        return TinkertownPosition.from_string(require_text(text, "a position string"))

    def move_to_dict(self, move: TinkertownMove) -> dict[str, Any]:
        """``{"type": "drop", "square": "h3", "marked": True}``, ``{"type":
        "resurrection", "a": "d2", "b": "b5", ...}`` or ``{"type": "move", "from":
        "h5", "to": "h3", ...}``; ``marked`` is the capture mark as written."""
        return moves.move_to_dict(move)

    def spelling_reasons(self, written: TinkertownMove, canonical: TinkertownMove) -> list[str]:
        """What the canonical move adds to the one written (docs/tinkertown.md,
        "Notation": the capture mark is optional on input, and canonical on a capture)."""
        if canonical.marked and not written.marked:
            return ["this move captures (missing capture mark)"]
        return []

    def assess_move(
        self, position: Position[TinkertownMove], move: TinkertownMove
    ) -> Assessment | None:
        """``??``, ``?`` or ``!`` for a move of the movement stage (see the base class).

        Exact and cheap: a side loses at once only when it is left with one group
        or none (:meth:`TinkertownPosition.winning_move`), so most moves cost one
        push and pop.  ``position`` is left as it was.
        """
        if not isinstance(position, TinkertownPosition):
            return None
        return analysis.assess_move(position, move)
