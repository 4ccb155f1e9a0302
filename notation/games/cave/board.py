"""The Cave board and material as tables computed once at import.

docs/cave.md, "Board and material": twenty squares, files a-d by ranks 1-5, named
like chess squares and kept as indices 0-19 (a1 = 0, b1 = 1, ... d5 = 19); Red's
home row is rank 1, Black's rank 5; each side owns 1 black knight, 2 zombies and
3 skeletons.
"""

from __future__ import annotations

from collections.abc import Mapping

from notation.errors import MisuseError
from notation.games.base import DRAW, WIN_FIRST, WIN_SECOND, index_arg

# -- squares ------------------------------------------------------------------

FILES = "abcd"
RANKS = 5
SQUARES: tuple[str, ...] = tuple(f"{f}{r}" for r in range(1, RANKS + 1) for f in FILES)
SQUARE_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(SQUARES)}
N_SQUARES = len(SQUARES)


def _neighbours(sq: int, deltas: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    f, r = sq % 4, sq // 4
    return tuple(
        (r + dr) * 4 + f + df for df, dr in deltas if 0 <= f + df < 4 and 0 <= r + dr < RANKS
    )


#: The squares one step up, right, down or left (where moves and joins go).
ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(s, ((0, 1), (1, 0), (0, -1), (-1, 0))) for s in range(N_SQUARES)
)
#: The squares one step diagonally (where attacks go).
DIAGONAL: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(s, ((1, 1), (1, -1), (-1, -1), (-1, 1))) for s in range(N_SQUARES)
)

#: The values of :data:`RELATION`: two squares that are not neighbours, orthogonal
#: neighbours, diagonal neighbours, the same square.
FAR, ORTH, DIAG, SAME = 0, 1, 2, 3
#: RELATION[a * 20 + b]: how square b lies from square a (for the messages of a move
#: or an attack between squares that are not neighbours the right way).
RELATION: tuple[int, ...] = tuple(
    SAME if a == b else ORTH if b in ORTHOGONAL[a] else DIAG if b in DIAGONAL[a] else FAR
    for a in range(N_SQUARES)
    for b in range(N_SQUARES)
)


def square_name(index: int) -> str:
    """The name of square ``index`` (0-19, a1 = 0, d5 = 19); ``MisuseError`` if none."""
    return SQUARES[square_arg(index)]


def square_index(name: str) -> int:
    """The index of a square name such as ``"b2"`` (any case); ``MisuseError`` if none."""
    if not isinstance(name, str):
        raise MisuseError(f"{name!r} is not a square name (a1-d5)")
    return square_arg(name)


def square_arg(square: int | str) -> int:
    """The index of ``square``, given as an index 0-19 (a1 = 0, b1 = 1, d5 = 19) or a name.

    Every accessor that takes a square reads it with this: an int always means a
    square, and names are accepted alike.  ``MisuseError`` for anything else.
    """
    return index_arg(
        square, SQUARE_INDEX, N_SQUARES,
        "is not a square of the Cave board: give its name (a1-d5) "
        f"or its index 0-{N_SQUARES - 1} (a1 = 0, b1 = 1, d5 = {N_SQUARES - 1})",
    )


# -- sides --------------------------------------------------------------------

RED, BLACK = 0, 1
SIDE_NAMES = ("Red", "Black")
#: Side codes in position strings and token labels, and side keys in JSON data.
SIDE_CODES = "rb"
SIDE_KEYS = ("red", "black")
HOME_RANK = (1, RANKS)
HOME_ROW: tuple[frozenset[int], ...] = tuple(
    frozenset(SQUARE_INDEX[f"{f}{rank}"] for f in FILES) for rank in HOME_RANK
)
HOME_ROW_ORDER: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(row)) for row in HOME_ROW)
#: docs/cave.md, "End of the game and results".
RESULT_NAMES: Mapping[str, str] = {WIN_FIRST: "Red wins", WIN_SECOND: "Black wins", DRAW: "draw"}

# -- pieces -------------------------------------------------------------------

PIECES_PER_SIDE = 6
#: Side of each piece id: docs/cave.md, "What the record reveals" (ids 0-5 are Red's,
#: 6-11 Black's, in the order they enter).
PIECE_SIDE: tuple[int, ...] = (RED,) * PIECES_PER_SIDE + (BLACK,) * PIECES_PER_SIDE


def side_pieces(side: int) -> range:
    """The piece ids of ``side``, in the order they enter."""
    return range(side * PIECES_PER_SIDE, (side + 1) * PIECES_PER_SIDE)


def piece_arg(piece: int) -> int:
    """``piece`` checked: a piece id 0-11 (0-5 Red's, 6-11 Black's); MisuseError if not."""
    if type(piece) is int and 0 <= piece < 2 * PIECES_PER_SIDE:
        return piece
    raise MisuseError(
        f"{piece!r} is not a piece id: 0-{PIECES_PER_SIDE - 1} are Red's, "
        f"{PIECES_PER_SIDE}-{2 * PIECES_PER_SIDE - 1} Black's, in the order they enter "
        "(pieces_at(square) gives the ids on a square)"
    )


# Classes, weakest first, so that docs/cave.md, "Combat" ("the attacker wins when its
# class is at least the defender's") is a comparison of numbers.
SKELETON, ZOMBIE, KNIGHT = 0, 1, 2
LETTERS = "SZK"
CLASS_OF: Mapping[str, int] = {letter: c for c, letter in enumerate(LETTERS)}
CLASS_NAMES = ("skeleton", "zombie", "black knight")
CLASS_PLURALS = ("skeletons", "zombies", "black knights")
#: How many pieces of each class a side owns (S, Z, K).
LIMIT = (3, 2, 1)
#: docs/cave.md, "Combat": the class a team fights as, by size; a single piece
#: (size 1) fights as itself.
TEAM_CLASS: Mapping[int, int] = {2: ZOMBIE, 3: KNIGHT}


def unit_class(size: int, letter: str | None) -> int:
    """The class a unit of ``size`` pieces fights as: docs/cave.md, "Combat".

    A single piece fights as what it is (``letter``, which a legal attack writes for
    it); a team as its size says, whatever its members are.
    """
    if size > 1:
        return TEAM_CLASS[size]
    assert letter is not None
    return CLASS_OF[letter]


#: docs/cave.md, "A turn" (Join): a team has 2 or 3 pieces.
MAX_TEAM = 3
#: Letter orders offered for a piece of unknown identity, strongest first.
LETTER_ORDER = (KNIGHT, ZOMBIE, SKELETON)


def article(c: int) -> str:
    """Class ``c`` with its article, for messages: "a zombie", "a black knight"."""
    return f"a {CLASS_NAMES[c]}"
