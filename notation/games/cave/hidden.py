"""Cave's hidden identities, as a referee holds them (docs/cave.md, "For programmers").

Each side's six pieces are 1 K, 2 Z and 3 S, face down: nobody, not even their
owner, knows which is which until a fight turns them up.  A :class:`CaveRules`
knows only what the record has revealed; a :class:`CaveDeal` knows the rest, and
the referee (:func:`notation.play.play`) uses it to write every attack with the
true letters of the pieces that fight.  A player's view is the position alone: what
the record has shown, which :meth:`CaveRules.possible_identities` narrows down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from notation.errors import MisuseError
from notation.games.base import Deal, Position
from notation.games.cave.board import BLACK, LETTERS, LIMIT, RED, SQUARES, piece_arg, side_pieces
from notation.games.cave.moves import ATTACKS, Attack, CaveMove
from notation.games.cave.rules import CaveRules


def deal_classes(position: CaveRules, rng: random.Random) -> list[int]:
    """The true class (0 S, 1 Z, 2 K) of every piece id 0-11, dealt with ``rng``.

    A piece ``position`` has revealed keeps its class; each side's other classes
    (what is left of 1 K, 2 Z, 3 S) are shuffled and given to its other pieces in
    id order, that is the order they enter (docs/cave.md, "Generated games").
    """
    truth = list(position._identity)
    for side in (RED, BLACK):
        deck = [c for c in range(3) for _ in range(LIMIT[c])]
        pieces = side_pieces(side)
        for pid in pieces:
            if truth[pid] >= 0:
                deck.remove(truth[pid])
        rng.shuffle(deck)
        for pid in pieces:
            if truth[pid] < 0:
                truth[pid] = deck.pop()
    return truth


class CaveDeal(Deal[CaveMove]):
    """Every piece's true identity in one Cave game: the referee's secret.

    :meth:`view_for` tells a player nothing of it (the rules hide a piece from its
    owner too); :meth:`settle` writes an attack with the true letters, which is how
    a fight reveals them.
    """

    def __init__(self, classes: Sequence[int]) -> None:
        """A deal of these classes, one per piece id 0-11 (0 S, 1 Z, 2 K), each side
        1 K, 2 Z, 3 S (``MisuseError`` otherwise); ``GAME.deal(rng)`` makes one at random."""
        truth = list(classes)
        for side in (RED, BLACK):
            got = sorted(truth[p] for p in side_pieces(side)) if len(truth) == 12 else []
            if got != [c for c in range(3) for _ in range(LIMIT[c])]:
                raise MisuseError(
                    f"a Cave deal gives 12 pieces, each side 3 S, 2 Z and 1 K (0, 1, 2), "
                    f"not {classes!r}"
                )
        self._truth = truth

    def identity(self, piece: int) -> str:
        """The true letter (K, Z or S) of piece id ``piece`` (0-11): for the referee and
        for tests, never for a bot."""
        return LETTERS[self._truth[piece_arg(piece)]]

    def view_for(self, position: Position[CaveMove], player: int) -> Position[CaveMove]:
        """``position`` alone, copied: docs/cave.md, "nobody, not even their owner, knows
        which monster is which until it fights", so every player knows what the record
        has revealed and no more (``possible_identities`` says what a piece may be)."""
        return position.view_for(player)

    def settle(self, position: Position[CaveMove], move: CaveMove) -> CaveMove:
        """``move`` with every single piece of an attack written with its true letter (a
        team's square keeps none); other moves as chosen.  The letters a player wrote
        were a guess at best: the fight shows the truth."""
        if type(move) is not Attack:
            return move
        assert isinstance(move, Attack)
        if not isinstance(position, CaveRules):
            raise MisuseError(f"a Cave deal settles moves in a CavePosition, not {position!r}")
        letters = []
        for square in (move.origin, move.target):
            stack = position.pieces_at(square)
            if not stack:
                raise MisuseError(f"{move}: {SQUARES[square]} is empty, so nothing fights there")
            letters.append(LETTERS[self._truth[stack[0]]] if len(stack) == 1 else None)
        return ATTACKS[move.origin, move.target, letters[0], letters[1]]
