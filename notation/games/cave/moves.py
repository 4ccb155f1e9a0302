"""Cave moves: the four actions of docs/cave.md, "A turn", and their notation.

Canonical notation ("Move notation"; input is case-insensitive, written as below):

* ``b1``       enter a piece from the reserve on an empty square of the home row;
* ``b1-b2``    move a piece or team one square orthogonally, or join one's own;
* ``Zb2xSc3``  attack diagonally; an upper-case class letter K, Z or S stands
  before every single piece's square, and none before a team's;
* ``--``       pass (only when no other action is legal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from notation.errors import MisuseError, MoveSyntaxError
from notation.games.base import foreign_move, move_repr, square_field_check
from notation.games.cave.board import (
    CLASS_OF,
    DIAGONAL,
    LETTERS,
    N_SQUARES,
    ORTHOGONAL,
    SQUARE_INDEX,
    SQUARES,
)
from notation.games.grammar import GameTransformer

if TYPE_CHECKING:
    from lark import Token

#: The forms a move token takes, for the message of a token that has none of them.
SYNTAX_FORMS = "forms: b1, b1-b2, Zb2xSc3, --"

#: Refuse a hand-built move whose field is not a square index (MisuseError).
_check_square_field = square_field_check(N_SQUARES, "a1 = 0, b1 = 1, d5 = 19")


def _check_letter_field(field: str, letter: object) -> None:
    """Refuse a class letter that is not K, Z, S or None (a team's) (MisuseError)."""
    if letter is not None and (type(letter) is not str or letter not in CLASS_OF):
        raise MisuseError(
            f"Attack.{field} is {letter!r}: a class letter K, Z or S, or None for a team"
        )


def not_a_move(move: object) -> MisuseError:
    """The error for an object handed to the game as a move that is none of its moves."""
    return foreign_move(move, "Cave", "Enter, Step, Attack or Pass")


@dataclass(frozen=True, slots=True, repr=False)
class Enter:
    """A piece from the reserve onto an empty square of the mover's home row."""

    square: int

    def __post_init__(self) -> None:
        _check_square_field(self, "square", self.square)

    def __str__(self) -> str:
        return SQUARES[self.square]

    __repr__ = move_repr


@dataclass(frozen=True, slots=True, repr=False)
class Step:
    """A piece or team one square orthogonally: onto an empty square, or joining."""

    origin: int
    target: int

    def __post_init__(self) -> None:
        _check_square_field(self, "origin", self.origin)
        _check_square_field(self, "target", self.target)

    def __str__(self) -> str:
        return f"{SQUARES[self.origin]}-{SQUARES[self.target]}"

    __repr__ = move_repr


@dataclass(frozen=True, slots=True, repr=False)
class Attack:
    """A diagonal attack.  ``attacker``/``defender``: class letter of a single piece, or None."""

    origin: int
    target: int
    attacker: str | None = None
    defender: str | None = None

    def __post_init__(self) -> None:
        _check_square_field(self, "origin", self.origin)
        _check_square_field(self, "target", self.target)
        _check_letter_field("attacker", self.attacker)
        _check_letter_field("defender", self.defender)

    def __str__(self) -> str:
        return (
            f"{self.attacker or ''}{SQUARES[self.origin]}x"
            f"{self.defender or ''}{SQUARES[self.target]}"
        )

    __repr__ = move_repr


@dataclass(frozen=True, slots=True, repr=False)
class Pass:
    """No legal action: the turn passes."""

    def __str__(self) -> str:
        return "--"

    __repr__ = move_repr


CaveMove = Enter | Step | Attack | Pass
#: The move types, for exact type checks (a subclass is no Cave move).
MOVE_TYPES = (Enter, Step, Attack, Pass)

# Every entry, step and attack the board allows, made once: legal_moves() hands out
# these shared immutable objects rather than making (and checking) new ones each time.
ENTERS: tuple[Enter, ...] = tuple(Enter(sq) for sq in range(N_SQUARES))
STEPS: dict[tuple[int, int], Step] = {
    (origin, target): Step(origin, target)
    for origin in range(N_SQUARES)
    for target in ORTHOGONAL[origin]
}
ATTACKS: dict[tuple[int, int, str | None, str | None], Attack] = {
    (origin, target, a, d): Attack(origin, target, a, d)
    for origin in range(N_SQUARES)
    for target in DIAGONAL[origin]
    for a in (None, *LETTERS)
    for d in (None, *LETTERS)
}


def move_to_dict(move: CaveMove) -> dict[str, Any]:
    """``move`` as data: docs/cave.md, "Moves and facts as data" (keys from/to kept)."""
    if isinstance(move, Enter):
        return {"type": "enter", "square": SQUARES[move.square]}
    if isinstance(move, Step):
        return {"type": "step", "from": SQUARES[move.origin], "to": SQUARES[move.target]}
    if isinstance(move, Attack):
        return {
            "type": "attack",
            "from": SQUARES[move.origin],
            "to": SQUARES[move.target],
            "attacker": move.attacker,
            "defender": move.defender,
        }
    if not isinstance(move, Pass):
        raise not_a_move(move)
    return {"type": "pass"}


# -- reading move tokens (grammar/cave.lark) ------------------------------------


def _square(token: Token) -> int:
    name = str(token).lower()
    index = SQUARE_INDEX.get(name)
    if index is None:
        raise MoveSyntaxError(
            f"{name} is not a square of the Cave board (a1-d5)", "cave-not-a-square"
        )
    return index


class CaveMoveBuilder(GameTransformer["CaveMove"]):
    """Builds move objects while the LALR parser reads (no tree is kept).

    A plain class (Lark calls its methods by the rules' names), so that reading a move
    imports no Lark: :func:`notation.games.grammar.build_parser`."""

    def enter(self, items: list[Token]) -> Enter:
        """The ``enter`` rule, a square alone (``b1``): an :class:`Enter`."""
        return Enter(_square(items[0]))

    def step(self, items: list[Token]) -> Step:
        """The ``step`` rule (``b1-b2``): a :class:`Step` from the first square to the second."""
        return Step(_square(items[0]), _square(items[1]))

    def fighter(self, items: list[Token]) -> tuple[str | None, int]:
        """One side of an attack (``Kb2``, ``b2``): its class letter upper-cased, or ``None``
        when not written, and its square."""
        if len(items) == 2:
            return str(items[0]).upper(), _square(items[1])
        return None, _square(items[0])

    def attack(self, items: list[tuple[str | None, int]]) -> Attack:
        """The ``attack`` rule (``Kb2xZb3``): an :class:`Attack` by the first fighter on the
        second."""
        (a_letter, origin), (d_letter, target) = items
        return Attack(origin, target, a_letter, d_letter)

    def pass_(self, items: list[Token]) -> Pass:
        """The ``pass_`` rule (``--``): a :class:`Pass`."""
        return Pass()
