"""Moves: the three move types, their text, reading them, and their data.

docs/tinkertown.md, "Notation": every move is one token.  A single square is a
:class:`Drop` (White's opening placement, the placement that ends the
resurrection stage, or an entry); two squares and a comma a :class:`Resurrection`
turn; ``from-to`` a :class:`Move`.  The capture mark ``x`` is kept as written;
the rules check it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from notation.errors import MisuseError, MoveSyntaxError
from notation.games.base import foreign_move, move_repr, square_field_check
from notation.games.grammar import GameTransformer
from notation.games.tinkertown.board import GRAVES, RAYS, SIZE, SQUARE_INDEX, SQUARE_NAMES

if TYPE_CHECKING:
    from lark import Token

#: Refuse a hand-built move whose field is not a square index (MisuseError).
_check_square_field = square_field_check(SIZE * SIZE, "a1 = 0, h8 = 63")


def _check_mark_field(move: object, marked: object) -> None:
    if type(marked) is not bool:
        raise MisuseError(f"{type(move).__name__}.marked is {marked!r}: True or False")


def not_a_move(move: object) -> MisuseError:
    """The error for an object handed to the game as a move that is none of its moves."""
    return foreign_move(move, "Tinkertown", "Drop, Resurrection or Move")


@dataclass(frozen=True, slots=True, repr=False)
class Drop:
    """One zombie put on one grave.

    What it means depends on the stage: White's opening placement, the single
    placement that ends the resurrection stage, or an entry in the movement
    stage.  ``marked`` is the capture mark (``h3x``); only an entry can capture.
    """

    square: int
    marked: bool = False

    def __post_init__(self) -> None:
        _check_square_field(self, "square", self.square)
        _check_mark_field(self, self.marked)

    def __str__(self) -> str:
        return SQUARE_NAMES[self.square] + ("x" if self.marked else "")

    __repr__ = move_repr


@dataclass(frozen=True, slots=True, repr=False)
class Resurrection:
    """A resurrection turn of two placements: (a) ``a`` then (b) ``b`` (``d2,b5``).

    ``marked`` records a capture mark written after either square; the rules
    refuse it (a placement never captures), but it is well-formed.
    """

    a: int
    b: int
    marked: bool = False

    def __post_init__(self) -> None:
        _check_square_field(self, "a", self.a)
        _check_square_field(self, "b", self.b)
        _check_mark_field(self, self.marked)

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.a]},{SQUARE_NAMES[self.b]}" + ("x" if self.marked else "")

    __repr__ = move_repr


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    """The top k zombies of the group on ``origin`` moved to ``target``, k graves away.

    Canonical text: ``h5-h3``, or ``h5xh3`` with the capture mark.
    """

    origin: int
    target: int
    marked: bool = False

    def __post_init__(self) -> None:
        _check_square_field(self, "origin", self.origin)
        _check_square_field(self, "target", self.target)
        _check_mark_field(self, self.marked)

    def __str__(self) -> str:
        mark = "x" if self.marked else "-"
        return f"{SQUARE_NAMES[self.origin]}{mark}{SQUARE_NAMES[self.target]}"

    __repr__ = move_repr


TinkertownMove = Drop | Resurrection | Move

#: Every move the board geometry allows, with and without the mark, made once for
#: legal_moves() to hand out.
MOVES: Final[dict[tuple[int, int, bool], Move]] = {
    (origin, target, marked): Move(origin, target, marked)
    for origin in GRAVES
    for ray in RAYS[origin]
    for target in ray
    for marked in (False, True)
}
#: ``MOVES_ALONG[origin]``: for each ray of ``origin`` (board.RAYS), its targets,
#: nearest first, each with its move without and with the mark: the table
#: legal_moves() walks.
MOVES_ALONG: Final[tuple[tuple[tuple[tuple[int, tuple[Move, Move]], ...], ...], ...]] = tuple(
    tuple(
        tuple(
            (target, (MOVES[origin, target, False], MOVES[origin, target, True])) for target in ray
        )
        for ray in RAYS[origin]
    )
    for origin in range(SIZE * SIZE)
)
#: ``DROPS[sq][marked]``: the drop on every square, without and with the mark.
DROPS: Final[tuple[tuple[Drop, Drop], ...]] = tuple(
    (Drop(sq, False), Drop(sq, True)) for sq in range(SIZE * SIZE)
)


def with_mark(move: TinkertownMove, marked: bool) -> TinkertownMove:
    """``move`` with the capture mark set to ``marked`` (a shared object where one
    exists); a resurrection turn, which never captures, comes back unmarked.

    MisuseError for an object that is not a Tinkertown move.
    """
    if isinstance(move, Move):
        key = (move.origin, move.target, marked)
        return MOVES.get(key) or Move(*key)
    if isinstance(move, Drop):
        return DROPS[move.square][marked]
    if isinstance(move, Resurrection):
        return Resurrection(move.a, move.b) if move.marked else move
    raise not_a_move(move)


def squares_of(move: TinkertownMove) -> tuple[int, ...]:
    """The squares ``move`` names, in the order it writes them."""
    if isinstance(move, Move):
        return (move.origin, move.target)
    if isinstance(move, Drop):
        return (move.square,)
    return (move.a, move.b)


def move_to_dict(move: TinkertownMove) -> dict[str, Any]:
    """``{"type": "drop", "square": "h3", "marked": True}``, ``{"type":
    "resurrection", "a": "d2", "b": "b5", ...}`` or ``{"type": "move", "from":
    "h5", "to": "h3", ...}``; ``marked`` is the capture mark as written.

    The keys are a documented format (docs/tinkertown.md, "Moves as data").
    """
    if isinstance(move, Drop):
        return {"type": "drop", "square": SQUARE_NAMES[move.square], "marked": move.marked}
    if isinstance(move, Resurrection):
        return {
            "type": "resurrection",
            "a": SQUARE_NAMES[move.a],
            "b": SQUARE_NAMES[move.b],
            "marked": move.marked,
        }
    if not isinstance(move, Move):
        raise not_a_move(move)
    return {
        "type": "move",
        "from": SQUARE_NAMES[move.origin],
        "to": SQUARE_NAMES[move.target],
        "marked": move.marked,
    }


# -- reading a move token (grammar/tinkertown.lark) --------------------------------


class TinkertownMoveBuilder(GameTransformer[TinkertownMove]):
    """Builds typed moves while the LALR parser runs (no tree is kept).

    A plain class (Lark calls its methods by the rules' names), so that reading a move
    imports no Lark: :func:`notation.games.grammar.build_parser`."""

    def drop(self, children: list[Token]) -> Drop:
        """The ``drop`` rule (``d3``, ``h3x``): a :class:`Drop`, marked if written with ``x``."""
        return Drop(SQUARE_INDEX[children[0]], len(children) > 1)

    def pair(self, children: list[Token]) -> Resurrection:
        """The ``pair`` rule (``d2,b5``): a :class:`Resurrection`, marked if either square is."""
        squares = [SQUARE_INDEX[c] for c in children if c.type == "SQUARE"]
        return Resurrection(squares[0], squares[1], len(children) > 2)

    def move(self, children: list[Token]) -> Move:
        """The ``move`` rule (``h5-h3``, ``h5-h3x``): a :class:`Move`, marked if written so."""
        return Move(SQUARE_INDEX[children[0]], SQUARE_INDEX[children[1]], len(children) > 2)

    def move_x(self, children: list[Token]) -> Move:
        """The ``h5xh3`` spelling of the ``move`` rule: a marked :class:`Move`."""
        return Move(SQUARE_INDEX[children[0]], SQUARE_INDEX[children[2]], True)


_SQUARELIKE = re.compile(r"[a-z]\d+")


def syntax_error(text: str) -> MoveSyntaxError:
    """The error for ``text``, which is no Tinkertown move: a sentence saying why, and the
    code of the case (:mod:`.codes`)."""
    low = text.lower()
    for candidate in _SQUARELIKE.findall(low):
        if candidate not in SQUARE_INDEX:
            return MoveSyntaxError(
                f"{candidate} is not a square (files a-h, ranks 1-8)", "tinkertown-not-a-square"
            )
    if low.count(",") > 1:
        return MoveSyntaxError(
            f"{text} has {low.count(',')} commas; a resurrection turn is written d2,b5",
            "tinkertown-commas",
        )
    if re.fullmatch(r"[a-h][1-8]x[a-h][1-8]x", low):
        return MoveSyntaxError(
            f"{text} has two capture marks; write {low[:-1]} or {low[:2]}-{low[3:]}",
            "tinkertown-capture-marks",
        )
    return MoveSyntaxError(
        f"{text!r} is not a Tinkertown move: expected a square (d3, h3x), "
        "two placements (d2,b5) or a move (h5-h3, h5xh3, h5-h3x)",
        "tinkertown-move-malformed",
    )
