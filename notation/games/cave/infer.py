"""What a Cave record lets anyone know of the hidden pieces: exact identity probabilities.

docs/cave.md, "What can be known".  The deal is uniform: each side's 1 K, 2 Z, 3 S
go to its six pieces in random order, the two sides independently.  A record
reveals identities only through the letters its attacks write for single pieces:
nothing else in it depends on the deal (a team fights as its size says, the moves
and entries are the players' choices, and the players know no more than the record
does, since nobody sees a piece before it fights, not even its owner).  So a deal
is *consistent* with a record exactly when it gives every revealed piece its shown
letter, and the probability that a piece has an identity is

    (deals consistent with the record in which the piece has it)
    / (deals consistent with the record).

The two sides' deals are independent and each side's factor depends only on what
that side has shown, so the count is a product of multinomial coefficients: with
``k``, ``z``, ``s`` the classes a side has not shown and ``n = k + z + s`` the
pieces it has not shown, ``n! / (k! z! s!)`` of its deals fit, and a piece not
shown is, say, the knight in ``(n - 1)! / ((k - 1)! z! s!)`` of them: probability
``k / n``.  Every piece a side has not shown, on the board, in a team, in the
reserve or already removed, has the same probabilities: they are exchangeable.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import factorial
from types import MappingProxyType
from typing import TYPE_CHECKING

from notation.errors import MisuseError
from notation.games.cave.board import (
    BLACK,
    CLASS_OF,
    LETTER_ORDER,
    LETTERS,
    LIMIT,
    PIECE_SIDE,
    RED,
    SIDE_NAMES,
    SQUARES,
    piece_arg,
    square_arg,
)

if TYPE_CHECKING:
    from notation.games.cave.hidden import CaveDeal
    from notation.games.cave.rules import CaveRules

__all__ = [
    "Odds",
    "annotation_value",
    "cell_notes",
    "consistent_deals",
    "deals_with",
    "hidden_odds",
    "odds_lines",
    "odds_text",
    "piece_odds",
    "sample_deal",
    "side_odds",
    "square_odds",
]

#: The probability of each identity letter, strongest first: ``{"K": 1/6, "Z": 1/3,
#: "S": 1/2}``.  Every letter is a key, impossible ones with 0; the values sum to 1.
Odds = Mapping[str, Fraction]

# Letters strongest first, as the engine offers them (K, Z, S).
_ORDER_LETTERS: tuple[str, ...] = tuple(LETTERS[c] for c in LETTER_ORDER)


def _multinomial(counts: tuple[int, ...]) -> int:
    """Ways to give ``counts[c]`` pieces class ``c``: ``n! / prod(counts[c]!)``."""
    ways = factorial(sum(counts))
    for count in counts:
        ways //= factorial(count)
    return ways


def _unshown(position: CaveRules, side: int) -> tuple[int, int, int]:
    """How many of each class (S, Z, K) ``side`` has not shown."""
    shown = position._shown[side * 3 : side * 3 + 3]
    return LIMIT[0] - shown[0], LIMIT[1] - shown[1], LIMIT[2] - shown[2]


# The ids of the odds mappings this module shares (made once, kept for good), and
# their texts (odds_text).
_SHARED: set[int] = set()
_TEXTS: dict[tuple[int, bool], str] = {}


@cache
def _side_odds(unshown: tuple[int, int, int]) -> Odds:
    """The odds of a piece never shown, for a side that has not shown ``unshown`` (S,
    Z, K): the ratio of deal counts, ``k / n`` for the knight (see the module's
    docstring).  At most 4 * 3 * 2 states exist, all cached."""
    total = sum(unshown) or 1
    shared = MappingProxyType({LETTERS[c]: Fraction(unshown[c], total) for c in LETTER_ORDER})
    _SHARED.add(id(shared))
    return shared


# A revealed piece is certain of its letter; one mapping per letter, shared.
_CERTAIN: dict[int, Odds] = {
    c: MappingProxyType({letter: Fraction(int(LETTERS[c] == letter)) for letter in _ORDER_LETTERS})
    for c in range(3)
}
_NONE: Odds = MappingProxyType({})
_SHARED.update(id(odds) for odds in _CERTAIN.values())


def _side_arg(side: str | int) -> int:
    """A side given as ``0``/``1`` (Red, Black) or its name, any case."""
    if isinstance(side, str):
        names = {name.lower(): i for i, name in enumerate(SIDE_NAMES)}
        found = names.get(side.strip().lower())
        if found is not None:
            return found
    elif type(side) is int and side in (RED, BLACK):
        return side
    raise MisuseError(f"{side!r} is not a Cave side: give 'Red' or 'Black' (or 0, 1)")


def consistent_deals(position: CaveRules) -> int:
    """How many deals fit everything ``position`` has revealed, out of the 3600 (60 per
    side) a game can start with: the denominator of every probability here."""
    return _multinomial(_unshown(position, RED)) * _multinomial(_unshown(position, BLACK))


def deals_with(position: CaveRules, piece: int, letter: str) -> int:
    """How many deals consistent with ``position`` give piece ``piece`` (id 0-11, on the
    board, in reserve or removed) the identity ``letter`` (K, Z or S): the numerator."""
    pid = piece_arg(piece)
    c = CLASS_OF.get(letter) if isinstance(letter, str) else None
    if c is None:
        raise MisuseError(f"{letter!r} is not a Cave identity letter (K, Z or S)")
    side = PIECE_SIDE[pid]
    other = _multinomial(_unshown(position, 1 - side))
    known = position._identity[pid]
    if known >= 0:
        return consistent_deals(position) if known == c else 0
    unshown = list(_unshown(position, side))
    if not unshown[c]:
        return 0
    unshown[c] -= 1
    return _multinomial(tuple(unshown)) * other


def side_odds(position: CaveRules, side: str | int) -> Odds:
    """The odds of each identity for a piece ``side`` ("Red", "Black", or 0, 1) has never
    shown; every such piece has the same.  Empty when the side has shown all six."""
    unshown = _unshown(position, _side_arg(side))
    return _side_odds(unshown) if any(unshown) else _NONE


def piece_odds(position: CaveRules, piece: int) -> Odds:
    """The odds of each identity of piece ``piece`` (id 0-11: ids 0-5 Red's, 6-11
    Black's, in the order they enter; on the board, in reserve or removed).

    A piece shown has its letter with probability 1; a piece never shown has its
    side's :func:`side_odds` (which may also be certain, once the side's other
    reveals leave one class).
    """
    pid = piece_arg(piece)
    known = position._identity[pid]
    if known >= 0:
        return _CERTAIN[known]
    return _side_odds(_unshown(position, PIECE_SIDE[pid]))


def square_odds(position: CaveRules, square: str | int) -> tuple[Odds, ...]:
    """The odds of each piece on ``square`` (a name such as ``"b3"`` or an index 0-19),
    bottom to top: one for a single piece, two or three for a team.

    ``MisuseError`` for an empty square.
    """
    sq = square_arg(square)
    stack = position._board[sq]
    if not stack:
        raise MisuseError(f"{SQUARES[sq]} is empty: no piece to give the odds of")
    return tuple(piece_odds(position, pid) for pid in stack)


def hidden_odds(position: CaveRules) -> list[tuple[str, int, Odds]]:
    """Where pieces never shown are, how many, and the odds of each: ``(where, count,
    odds)``, where is a square name (a single piece, or the hidden members of a team,
    which all share one answer) in board order, then ``"Red reserve"`` and ``"Black
    reserve"`` for the pieces that have not entered."""
    identity = position._identity
    # One answer per side, looked up once: every hidden piece of a side shares it.
    odds = (side_odds(position, RED), side_odds(position, BLACK))
    found: list[tuple[str, int, Odds]] = []
    for sq, stack in enumerate(position._board):
        if stack:
            hidden = sum(1 for pid in stack if identity[pid] < 0)
            if hidden:
                found.append((SQUARES[sq], hidden, odds[PIECE_SIDE[stack[0]]]))
    for side in (RED, BLACK):
        reserve = position._reserve[side]
        if reserve:
            # Pieces in reserve have not fought, so none of them is shown.
            found.append((f"{SIDE_NAMES[side]} reserve", reserve, odds[side]))
    return found


def odds_text(odds: Odds, *, compact: bool = False) -> str:
    """The odds in words, strongest letter first, impossible letters left out: ``"K 1/6,
    Z 1/3, S 1/2"``, ``"S 1"`` for a certainty; ``compact``: ``"K1/6,Z1/3,S1/2"``
    (the form of the ``identities`` annotation)."""
    # The odds this module hands out are a few shared mappings that live as long as
    # the program, so their texts are kept by identity.
    key = (id(odds), compact)
    text = _TEXTS.get(key)
    if text is None:
        parts = [
            (f"{letter}{p}" if compact else f"{letter} {p}")
            for letter in _ORDER_LETTERS
            if (p := odds.get(letter, 0))
        ]
        text = ("," if compact else ", ").join(parts)
        if id(odds) in _SHARED:
            _TEXTS[key] = text
    return text


def odds_lines(position: CaveRules) -> list[tuple[str, str]]:
    """Every piece never shown, as ``(where, odds in words)`` pairs for people and for
    ``Analysis.notes``: ``("b3", "K 1/6, Z 1/3, S 1/2")``, ``("c4, team of 2 (1
    hidden)", ...)``, ``("Red reserve (4)", ...)``.  Empty when every piece is shown."""
    lines: list[tuple[str, str]] = []
    for where, count, odds in hidden_odds(position):
        if where.endswith("reserve"):
            label = f"{where} ({count})"
        else:
            size = len(position._board[square_arg(where)])
            if size == 1:
                label = where
            else:
                label = f"{where}, team of {size}" + ("" if count == size else f" ({count} hidden)")
        lines.append((label, odds_text(odds)))
    return lines


def annotation_value(position: CaveRules) -> str:
    """The value of the ``identities`` annotation: every square holding a piece never
    shown with its odds, then each reserve, space separated:
    ``b3:K1/5,Z2/5,S2/5 c4:Z1/2,S1/2 reserve-red:K1/5,Z2/5,S2/5``; ``""`` when every
    piece is shown.  No brackets or braces, as annotations require."""
    parts: list[str] = []
    for where, _, odds in hidden_odds(position):
        if where.endswith("reserve"):
            where = "reserve-" + where.split()[0].lower()
        parts.append(f"{where}:{odds_text(odds, compact=True)}")
    return " ".join(parts)


def cell_notes(position: CaveRules) -> dict[str, str]:
    """A short note per square holding a piece never shown, for a board view's cell:
    ``{"b3": "K1/6 Z1/3 S1/2"}`` (for a team, the odds of each hidden member)."""
    return {
        where: odds_text(odds, compact=True).replace(",", " ")
        for where, _, odds in hidden_odds(position)
        if not where.endswith("reserve")
    }


def sample_deal(position: CaveRules, rng: random.Random) -> CaveDeal:
    """A deal drawn uniformly among those consistent with ``position``, with ``rng``:
    ``GAME.deal(rng, position)``, which keeps every revealed letter and shuffles the
    rest (so each consistent deal is equally likely, as the counts here assume)."""
    # Imported here: hidden imports the rules, which import this module.
    from notation.games.cave.hidden import CaveDeal, deal_classes

    return CaveDeal(deal_classes(position, rng))

