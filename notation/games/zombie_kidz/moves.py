"""Turns: the move type, its text, reading it, and its data.

docs/zombie-kidz.md, "Writing a turn": a turn is one token, the die letter, then
the pawn's step if it moves, then the optional marks ``x`` (zombies eliminated)
and ``L`` (gate locked)::

    Y   W   Rx   K:b2-b1   K:b1   G:b2-c2x   W:a2-a1L
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from notation.errors import MisuseError, MoveSyntaxError
from notation.games.base import foreign_move, move_repr
from notation.games.grammar import GameTransformer
from notation.games.zombie_kidz.board import DICE, DIE_FACES, NEIGHBOURS_TWO, ZONE_INDEX, ZONE_NAMES

if TYPE_CHECKING:
    from lark import Token as LarkToken
    from lark.exceptions import UnexpectedInput

    from notation.games.grammar import GameParser


@dataclass(frozen=True, slots=True, repr=False)
class ZombieKidzMove:
    """One turn: the die roll, the pawn's step (if any) and the marks written.

    ``target`` is ``None`` when the pawn stays.  ``origin`` is the from-zone of the
    long form (checked against the pawn when played); ``None`` in the short form.
    The two forms are kept apart so that a record is written back as it was read;
    :meth:`ZombieKidzPosition.legal_moves` gives the long form, which is canonical.
    ``eliminated`` and ``locked`` are the marks ``x`` and ``L`` as written: a
    mark must fit the turn, a missing mark is accepted.
    """

    die: str
    origin: int | None = None
    target: int | None = None
    eliminated: bool = False
    locked: bool = False

    def __post_init__(self) -> None:
        """Refuse fields that name nothing (MisuseError), once, when the move is made:
        parsed moves are memoised and legal moves prebuilt, so push() checks nothing."""
        if type(self.die) is not str or self.die not in DIE_FACES:
            raise MisuseError(
                f"ZombieKidzMove.die is {self.die!r}: a die letter R, Y, G, K, B or W"
            )
        for field, zone in (("origin", self.origin), ("target", self.target)):
            if zone is not None and (type(zone) is not int or not 0 <= zone < len(ZONE_NAMES)):
                raise MisuseError(
                    f"ZombieKidzMove.{field} is {zone!r}: a zone is an int 0-8 "
                    "(a1 = 0, b2 = 4, c3 = 8) or None"
                )
        if self.origin is not None and self.target is None:
            raise MisuseError(
                f"ZombieKidzMove.origin is {ZONE_NAMES[self.origin]} without a target: "
                "a pawn that stays has neither"
            )
        for field, mark in (("eliminated", self.eliminated), ("locked", self.locked)):
            if type(mark) is not bool:
                raise MisuseError(f"ZombieKidzMove.{field} is {mark!r}: True or False")

    def __str__(self) -> str:
        text = self.die
        if self.target is not None:
            text += ":"
            if self.origin is not None:
                text += ZONE_NAMES[self.origin] + "-"
            text += ZONE_NAMES[self.target]
        if self.eliminated:
            text += "x"
        if self.locked:
            text += "L"
        return text

    __repr__ = move_repr

    @property
    def colour(self) -> str:
        """The colour of the die face rolled ("red" for ``R``, "white" for ``W``)."""
        return DIE_FACES[self.die][0]


def not_a_move(move: object) -> MisuseError:
    """The error for an object handed to the game as a move that is none of its moves."""
    return foreign_move(move, "Zombie Kidz", "a ZombieKidzMove")


# Every turn a board allows, made once, by (die, the pawn's zone, the zone it ends on,
# x, L): the same zone twice is a stay (the die alone); a step is in the long form.
TURNS: Final[Mapping[tuple[str, int, int, bool, bool], ZombieKidzMove]] = {
    (die, origin, target, x, lock): ZombieKidzMove(
        die, None if target == origin else origin, None if target == origin else target, x, lock
    )
    for die in DICE
    for origin in range(len(ZONE_NAMES))
    for target in (origin, *sorted(NEIGHBOURS_TWO[origin]))
    for x in (False, True)
    for lock in (False, True)
}


# -- reading a turn ------------------------------------------------------------

_FORMS = (
    "a turn is a die letter (R Y G K B W), then ':' and a step if the pawn moves "
    "(K:b2-b1, or K:b1), then the marks x, L or xL (G:b2-c2x)"
)


class ZombieKidzMoveBuilder(GameTransformer[ZombieKidzMove]):
    """Makes the turn while the token is parsed; the grammar fixes the token's shape,
    this names what is wrong with a well-shaped one ("Q is not a die letter").

    A plain class (Lark calls its methods by the rules' names), so that reading a turn
    imports no Lark: :func:`notation.games.grammar.build_parser`."""

    def step(self, children: list[LarkToken]) -> tuple[str, ...]:
        """The zones after the die (``:b2``, ``:b1-b2``), as written; :meth:`start` checks them."""
        return tuple(str(c) for c in children)

    def start(self, children: list[object]) -> ZombieKidzMove:
        """The whole token (``R``, ``R:b2x``, ``Y:b1-b2L``): a :class:`ZombieKidzMove`, or
        ``MoveSyntaxError`` naming a die letter or zone the game does not have."""
        die = str(children[0]).upper()
        if die not in DIE_FACES:
            raise MoveSyntaxError(
                f"{die} is not a die letter (R red, Y yellow, G green, K black, B blue, W white)",
                "zombie-kidz-not-a-die",
            )
        # The die is checked first, then the zones, whatever their order in the token.
        zones: tuple[int, ...] = ()
        marks = ""
        for child in children[1:]:
            if isinstance(child, tuple):
                zones = tuple(_zone(name) for name in child)
            else:
                marks = str(child).lower()
        origin, target = zones if len(zones) == 2 else (None, zones[0] if zones else None)
        return ZombieKidzMove(die, origin, target, "x" in marks, "l" in marks)


def read_move(parser: GameParser[ZombieKidzMove], text: str) -> ZombieKidzMove:
    """The turn ``text`` writes (docs/zombie-kidz.md, "Writing a turn"), in any case;
    MoveSyntaxError, saying what is wrong, for a token that is none."""
    try:
        return parser.parse(text)
    except MoveSyntaxError:
        raise  # the transformer's: a well-shaped token naming what the game lacks
    except Exception as exc:
        # Lark is imported for a token the grammar cannot read, not before.
        from lark.exceptions import UnexpectedInput

        if not isinstance(exc, UnexpectedInput):
            raise
        raise _syntax_error(text, exc) from None


def _syntax_error(text: str, exc: UnexpectedInput) -> MoveSyntaxError:
    """The error for ``text``, which the grammar could not read (``exc``): what is wrong,
    in a sentence, and the code of the case (:mod:`.codes`)."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if text.count("-") > 1:
        return MoveSyntaxError(
            f"{text!r} names more than two zones; a pawn takes one step a turn",
            "zombie-kidz-too-many-zones",
        )
    if len(text) > 1 and text[0].isalpha() and text[1].isdigit():
        return MoveSyntaxError(
            f"{text!r} starts with a zone, not a die letter: {_FORMS}", "zombie-kidz-die-missing"
        )
    if isinstance(exc, UnexpectedCharacters):
        return MoveSyntaxError(
            f"{exc.char!r} cannot stand at character {exc.column} of {text!r}: {_FORMS}",
            "zombie-kidz-move-malformed",
        )
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        return MoveSyntaxError(f"{text!r} stops short: {_FORMS}", "zombie-kidz-move-incomplete")
    if isinstance(exc, UnexpectedToken):
        return MoveSyntaxError(
            f"{str(exc.token)!r} cannot stand at character {exc.column} of {text!r}: {_FORMS}",
            "zombie-kidz-move-malformed",
        )
    return MoveSyntaxError(f"{text!r} cannot be read: {_FORMS}", "zombie-kidz-move-malformed")


def _zone(name: str) -> int:
    zone = ZONE_INDEX.get(name.lower())
    if zone is None:
        raise MoveSyntaxError(
            f"{name} is not a zone (the zones are a1 to c3)", "zombie-kidz-not-a-zone"
        )
    return zone


# -- a turn as data ------------------------------------------------------------


def move_to_dict(move: ZombieKidzMove) -> dict[str, Any]:
    """A turn as data: see docs/zombie-kidz.md, "Data for programs"."""
    if not isinstance(move, ZombieKidzMove):
        raise not_a_move(move)
    tomb = DIE_FACES[move.die][1]
    form = "stay" if move.target is None else "short" if move.origin is None else "long"
    # The JSON keys "from"/"to" are the documented format, whatever the fields are called.
    return {
        "type": "turn",
        "die": move.die,
        "colour": move.colour,
        "tomb": tomb,
        "from": None if move.origin is None else ZONE_NAMES[move.origin],
        "to": None if move.target is None else ZONE_NAMES[move.target],
        "form": form,
        "x": move.eliminated,
        "L": move.locked,
    }
