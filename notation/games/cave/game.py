"""The Cave game: its names, its notation and its positions (docs/cave.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from notation.errors import (
    MisuseError,
    MoveSyntaxError,
    require_rng,
    require_tags,
    require_text,
)
from notation.games.base import Game, Position
from notation.games.cave.board import CLASS_OF, RESULT_NAMES
from notation.games.cave.codes import ERROR_CODES
from notation.games.cave.moves import (
    SYNTAX_FORMS,
    Attack,
    CaveMove,
    CaveMoveBuilder,
    move_to_dict,
)
from notation.games.cave.position import CavePosition
from notation.games.grammar import build_parser

if TYPE_CHECKING:
    import random

    from notation.games.cave.hidden import CaveDeal
    from notation.games.view import Analysis, Assessment

# The engine and the dealer are imported by the methods that use them: a check needs neither.


def read_position(text: str) -> CavePosition:
    """The position a :meth:`CavePosition.position_string` describes.

    ``GAME.position_from_string`` as a function: ``TagValueError("Position", reason)``
    for a malformed string or an impossible position; the reason names the field.
    """
    return CavePosition.from_string(text)


class CaveGame(Game[CaveMove]):
    """Cave (Fernando Lafuente): a hidden-identity war game on a 4x5 board."""

    name: ClassVar[str] = "cave"
    title: ClassVar[str] = "Cave"
    player_tags: ClassVar[tuple[str, ...]] = ("Red", "Black")
    result_names: ClassVar[Mapping[str, str]] = RESULT_NAMES
    annotation_keys: ClassVar[frozenset[str]] = frozenset(
        {"reveal", "possible", "reserve", "identities"}
    )
    #: ``annotate --analyze``: the odds of each fight, and every hidden piece's
    #: identity odds after it (:func:`.engine.assess_move`).
    can_assess: ClassVar[bool] = True
    #: ``notation analyze``: an expectimax search over the fights' exact odds
    #: (:func:`.engine.analyse`).
    can_analyse: ClassVar[bool] = True
    #: The codes of the errors its moves get (:mod:`.codes`).
    error_codes: ClassVar[Mapping[str, str]] = ERROR_CODES

    def __init__(self) -> None:
        super().__init__()
        self._parser = build_parser("cave", CaveMoveBuilder())

    def parse_move(self, text: str) -> CaveMove:
        require_text(text, "a move token")
        try:
            move = self._parser.parse(text)
        except MoveSyntaxError:
            raise
        except Exception as exc:  # lark's UnexpectedInput family, with parser internals
            raise MoveSyntaxError(
                f"{text!r} is not a Cave move ({SYNTAX_FORMS})", "cave-move-malformed"
            ) from exc
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> CavePosition:
        """The empty board, or the position of a ``Position`` tag.

        Cave has no other setup tag: every other game starts from the empty board.
        """
        require_tags(tags)
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return CavePosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> CavePosition:
        # Cave has no setup tags, so the string alone says everything.
        require_tags(tags)
        return CavePosition.from_string(require_text(text, "a position string"))

    def move_to_dict(self, move: CaveMove) -> dict[str, Any]:
        return move_to_dict(move)

    def random_playout(
        self, position: Position[CaveMove], rng: random.Random, max_turns: int
    ) -> Sequence[CaveMove]:
        """Random legal play with hidden identities dealt by ``rng``.

        docs/cave.md, "Generated games": each side's 1 K, 2 Z, 3 S are shuffled and
        given to its pieces in the order they enter (pieces the position has already
        revealed keep their identity); attacks are written with the true letters, so
        the record is always consistent.
        """
        from notation.games.cave.hidden import deal_classes

        self.check_playout(position, rng, max_turns)
        assert isinstance(position, CavePosition)  # check_playout made sure
        truth = deal_classes(position, rng)
        played: list[CaveMove] = []
        while position.outcome() is None and position.turn < max_turns:
            board = position._board
            moves = [
                m
                for m in position.legal_moves()
                if type(m) is not Attack or _is_true(m, board, truth)
            ]
            move = rng.choice(moves)
            position.push(move)
            played.append(move)
        return played

    def assess_move(self, position: Position[CaveMove], move: CaveMove) -> Assessment | None:
        """For an attack: the exact probability that it wins (``??`` if it cannot, while
        another action exists), and the ``identities`` value, every hidden piece's
        identity odds once it is played (docs/cave.md, "What can be known").  Other
        moves: None.  ``position`` is left as it was."""
        if not isinstance(position, CavePosition):
            return None
        from notation.games.cave import engine

        return engine.assess_move(position, move)

    def analyse(
        self,
        position: Position[CaveMove],
        *,
        depth: int | None = None,
        seconds: float | None = None,
    ) -> Analysis:
        """The mover's estimated probability of winning, the best move of an expectimax
        search ``depth`` plies deep (default 2) in at most ``seconds`` (default 2), and
        every hidden piece's exact identity odds as notes (docs/cave.md, "Players and
        analysis").  ``position`` is left as it was."""
        if not isinstance(position, CavePosition):
            raise MisuseError(f"Cave analyses a CavePosition, not {position!r}")
        from notation.games.cave import engine

        return engine.analyse(position, depth=depth, seconds=seconds)

    def deal(self, rng: random.Random, position: Position[CaveMove] | None = None) -> CaveDeal:
        """Deal every piece's identity with ``rng`` (docs/cave.md, "For programmers"): each
        side's 1 K, 2 Z, 3 S in random order, to its pieces in the order they enter;
        a piece ``position`` has already revealed keeps its letter."""
        require_rng(rng)
        if position is None:
            position = CavePosition()
        if not isinstance(position, CavePosition):
            raise MisuseError(f"a Cave deal is made for a CavePosition, not {position!r}")
        from notation.games.cave.hidden import CaveDeal, deal_classes

        return CaveDeal(deal_classes(position, rng))


def _is_true(move: CaveMove, board: list[tuple[int, ...]], truth: list[int]) -> bool:
    """Whether an attack writes each single piece with its true letter."""
    assert isinstance(move, Attack)
    for letter, sq in ((move.attacker, move.origin), (move.defender, move.target)):
        if letter is not None and CLASS_OF[letter] != truth[board[sq][0]]:
            return False
    return True
