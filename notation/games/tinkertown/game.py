"""The game object: names, the move notation, positions and assessment.

The shared layers (reader, replay, writers, CLI) talk to Tinkertown Cemetery
through this :class:`~notation.games.base.Game` subclass only.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from notation.errors import MisuseError, misuse_unless, require_tags, require_text
from notation.games.base import Game, Position
from notation.games.grammar import GameParser, build_parser
from notation.games.tinkertown import moves
from notation.games.tinkertown.codes import ERROR_CODES
from notation.games.tinkertown.moves import (
    Drop,
    Move,
    Resurrection,
    TinkertownMove,
    TinkertownMoveBuilder,
    syntax_error,
)
from notation.games.tinkertown.position import TinkertownPosition

if TYPE_CHECKING:  # only named in annotations: a check never imports the views
    from notation.games.view import Analysis, Assessment


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
    #: The keys of :meth:`TinkertownPosition.annotations`, and ``eval``, the score
    #: :meth:`assess_move` gives each move.
    annotation_keys = frozenset({"capture", "stage", "over", "control", "eval"})
    can_assess = True
    can_analyse = True

    def __init__(self) -> None:
        super().__init__()
        self._parser: GameParser[TinkertownMove] | None = None

    def parse_move(self, text: str) -> TinkertownMove:
        """Read one move token (any letter case); MoveSyntaxError if malformed."""
        require_text(text, "a move token")
        parser = self._parser
        if parser is None:
            parser = self._parser = build_parser("tinkertown", TinkertownMoveBuilder())
        try:
            move = parser.parse(text.strip().lower())
        except Exception as exc:
            # Lark is imported for a token the grammar cannot read, not before.
            from lark.exceptions import LarkError

            if not isinstance(exc, LarkError):
                raise
            raise syntax_error(text.strip()) from None
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> TinkertownPosition:
        """The empty cemetery, White to place; or the position of a ``Position`` tag.

        No other tag changes the start.
        """
        require_tags(tags)
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return TinkertownPosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> TinkertownPosition:
        """The position a position string describes (no other tag changes it)."""
        require_tags(tags)
        return TinkertownPosition.from_string(require_text(text, "a position string"))

    def move_to_dict(self, move: TinkertownMove) -> dict[str, Any]:
        """``{"type": "drop", "square": "h3", "marked": True}``, ``{"type":
        "resurrection", "a": "d2", "b": "b5", ...}`` or ``{"type": "move", "from":
        "h5", "to": "h3", ...}``; ``marked`` is the capture mark as written."""
        return moves.move_to_dict(move)

    def spelling_reasons(self, written: TinkertownMove, canonical: TinkertownMove) -> list[str]:
        """What the canonical move adds to the one written (docs/tinkertown.md,
        "Notation": the capture mark is optional on input, and canonical on a capture)."""
        for what, move in (("written", written), ("canonical", canonical)):
            ok = isinstance(move, (Drop, Resurrection, Move))
            misuse_unless(ok, what, "a Tinkertown move", move)
        if canonical.marked and not written.marked:
            return ["this move captures (missing capture mark)"]
        return []

    def assess_move(
        self, position: Position[TinkertownMove], move: TinkertownMove
    ) -> Assessment | None:
        """``??``, ``?`` or ``!`` for a move of the movement stage, with its score as
        ``eval`` (see the base class): the search at
        :data:`~notation.games.tinkertown.analysis.ASSESS_DEPTH` plies, margins
        :data:`~notation.games.tinkertown.analysis.MISTAKE` and
        :data:`~notation.games.tinkertown.analysis.BLUNDER` (docs/tinkertown.md,
        "Move assessment").  ``position`` is left as it was.
        """
        if not isinstance(position, TinkertownPosition):
            return None
        from notation.games.tinkertown import analysis  # the engine: not to check

        return analysis.assess_move(position, move)

    def analyse(
        self,
        position: Position[TinkertownMove],
        *,
        depth: int | None = None,
        seconds: float | None = None,
    ) -> Analysis:
        """The search's score of ``position`` for the side to move (``unit="score"``, in
        groups; ``WIN - n`` a win in n plies) and its best line (docs/tinkertown.md,
        "The search engine").  Without ``depth`` and ``seconds``:
        :data:`~notation.games.tinkertown.search.ANALYSE_DEPTH` plies, at most
        :data:`~notation.games.tinkertown.search.ANALYSE_SECONDS` seconds; a depth alone
        has no time limit, a time alone no depth limit.  ``position`` is left as it was.
        """
        # Imported here, as the assessment does: only an analysis needs the engine.
        from notation.games.tinkertown import search

        if not isinstance(position, TinkertownPosition):
            raise MisuseError(
                f"{position!r} is not a Tinkertown position (GAME.new_position() makes one)"
            )
        return search.analyse(position, depth, seconds)
