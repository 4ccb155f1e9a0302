"""Cave (Fernando Lafuente): a hidden-identity mini-wargame on a 4x5 board.

Each side owns six face-down pieces (1 black knight, 2 zombies, 3 skeletons)
whose identities nobody knows until they fight.  The engine therefore knows
only what a record has revealed: the class letters written in attacks.  It
tracks every piece as an individual (ids 0-5 are Red's, 6-11 Black's, given in
the order the pieces enter), remembers the identity and turn of each reveal,
and rejects a record that contradicts itself.

Canonical notation (case-insensitive on input, written as below):

* ``b1``       enter a piece from the reserve on an empty square of the home row;
* ``b1-b2``    move a piece or team one square orthogonally, or join one's own;
* ``Zb2xSc3``  attack diagonally; an upper-case class letter K, Z or S stands
  before every single piece's square, and none before a team's;
* ``--``       pass (only when no other action is legal).

The rules are data: board geometry, class order, team classes and the combat
table are module-level tuples computed once at import.

A position also describes itself for the shared layers, all computed on demand
from the board and the last undo record (push and pop stay as lean as before):
``position_string()`` (read back by :func:`read_position`), ``last_move_facts()``,
``annotations()`` and ``board_view()``; ``docs/cave.md`` documents each format.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from lark import Token, Transformer

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games.base import DRAW, WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser
from notation.view import BoardView, Cell
from notation.view import Token as ViewToken

__all__ = [
    "GAME",
    "Attack",
    "CaveGame",
    "CaveMove",
    "CavePosition",
    "Enter",
    "Pass",
    "Step",
    "square_arg",
    "square_index",
    "square_name",
]

# -- geometry ---------------------------------------------------------------

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


ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(s, ((0, 1), (1, 0), (0, -1), (-1, 0))) for s in range(N_SQUARES)
)
DIAGONAL: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(s, ((1, 1), (1, -1), (-1, -1), (-1, 1))) for s in range(N_SQUARES)
)

# RELATION[a * 20 + b]: how square b lies from square a.
_FAR, _ORTH, _DIAG, _SAME = 0, 1, 2, 3
RELATION: tuple[int, ...] = tuple(
    _SAME if a == b else _ORTH if b in ORTHOGONAL[a] else _DIAG if b in DIAGONAL[a] else _FAR
    for a in range(N_SQUARES)
    for b in range(N_SQUARES)
)

# -- sides and material -----------------------------------------------------

RED, BLACK = 0, 1
SIDE_NAMES = ("Red", "Black")
HOME_RANK = (1, RANKS)
HOME_ROW: tuple[frozenset[int], ...] = tuple(
    frozenset(SQUARE_INDEX[f"{f}{rank}"] for f in FILES) for rank in HOME_RANK
)
HOME_ROW_ORDER: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(row)) for row in HOME_ROW)
PIECES_PER_SIDE = 6
#: Side of each piece id.
PIECE_SIDE: tuple[int, ...] = (RED,) * PIECES_PER_SIDE + (BLACK,) * PIECES_PER_SIDE

# Classes, weakest first, so that "attacker wins iff class >= defender's".
SKELETON, ZOMBIE, KNIGHT = 0, 1, 2
LETTERS = "SZK"
CLASS_OF: Mapping[str, int] = {letter: c for c, letter in enumerate(LETTERS)}
CLASS_NAMES = ("skeleton", "zombie", "black knight")
CLASS_PLURALS = ("skeletons", "zombies", "black knights")
#: How many pieces of each class a side owns (S, Z, K).
LIMIT = (3, 2, 1)
#: The class a team fights as, by size; a single piece (size 1) fights as itself.
TEAM_CLASS: Mapping[int, int] = {2: ZOMBIE, 3: KNIGHT}
MAX_TEAM = 3
#: ATTACKER_WINS[attacker][defender]: ties go to the attacker (both rule tables agree).
ATTACKER_WINS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(a >= d for d in range(3)) for a in range(3)
)
#: Letter orders offered for a piece of unknown identity, strongest first.
_LETTER_ORDER = (KNIGHT, ZOMBIE, SKELETON)
#: Rank of each class in that order (for sorting K before Z before S).
_LETTER_RANK = {c: i for i, c in enumerate(_LETTER_ORDER)}
RESULT_NAMES: Mapping[str, str] = {WIN_FIRST: "Red wins", WIN_SECOND: "Black wins", DRAW: "draw"}

# -- describing positions: position strings, facts, views --------------------

#: Side codes in position strings and token labels, and side keys in JSON data.
SIDE_CODES = "rb"
SIDE_KEYS = ("red", "black")
POSITION_FIELDS = ("board", "reserves", "removed", "passes", "mover", "turn")
# Numbers have at most 9 digits: int() refuses strings of thousands of digits with a
# ValueError, which must not escape from a hostile Position tag.
_MEMBER_RE = re.compile(r"\?|[KZS](?:@[1-9][0-9]{0,8})?")
_MEMBERS_RE = re.compile(r"(?:\?|[KZS](?:@[1-9][0-9]{0,8})?)+")
_UNIT_RE = re.compile(r"([a-z][0-9]+):([rb])(.*)")
_RESERVES_RE = re.compile(r"([0-6])/([0-6])")
_COUNT_RE = re.compile(r"0|[1-9][0-9]{0,8}")
#: Background roles by square (home rows tinted per side), and every role's colour.
SQUARE_ROLE: tuple[str, ...] = tuple(
    "home-red" if i in HOME_ROW[RED] else "home-black" if i in HOME_ROW[BLACK] else "square"
    for i in range(N_SQUARES)
)
PALETTE: Mapping[str, str] = {
    "square": "#5b6068",
    "home-red": "#6d5052",
    "home-black": "#43464e",
    "red": "#d9463e",
    "black": "#141418",
}


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
    # bool is an int to Python, but True is no square anyone means.
    if isinstance(square, int) and not isinstance(square, bool):
        if 0 <= square < N_SQUARES:
            return square
    elif isinstance(square, str):
        index = SQUARE_INDEX.get(square.strip().lower())
        if index is not None:
            return index
    raise MisuseError(
        f"{square!r} is not a square of the Cave board: give its name (a1-d5) "
        f"or its index 0-{N_SQUARES - 1} (a1 = 0, b1 = 1, d5 = {N_SQUARES - 1})"
    )


def _piece_arg(piece: int) -> int:
    """``piece`` checked: a piece id 0-11 (0-5 Red's, 6-11 Black's); MisuseError if not."""
    if type(piece) is int and 0 <= piece < 2 * PIECES_PER_SIDE:
        return piece
    raise MisuseError(
        f"{piece!r} is not a piece id: 0-{PIECES_PER_SIDE - 1} are Red's, "
        f"{PIECES_PER_SIDE}-{2 * PIECES_PER_SIDE - 1} Black's, in the order they enter "
        "(pieces_at(square) gives the ids on a square)"
    )


def _check_square_field(move: object, field: str, value: object) -> None:
    """Refuse a hand-built move whose ``field`` is not a square index (MisuseError).

    Run once when a move is made, never when it is pushed: parsed moves are
    memoised and legal_moves() hands out prebuilt ones, so push stays unchecked.
    """
    if type(value) is not int or not 0 <= value < N_SQUARES:
        raise MisuseError(
            f"{type(move).__name__}.{field} is {value!r}: a square is an int 0-{N_SQUARES - 1} "
            "(a1 = 0, b1 = 1, d5 = 19); GAME.parse() reads a move from its text"
        )


def _not_a_move(move: object) -> MisuseError:
    return MisuseError(
        f"{move!r} is not a Cave move (Enter, Step, Attack or Pass; "
        "GAME.parse() reads one from its text)"
    )


def _article(c: int) -> str:
    return f"a {CLASS_NAMES[c]}" if c != KNIGHT else "a black knight"


# -- moves ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enter:
    """A piece from the reserve onto an empty square of the mover's home row."""

    square: int

    def __post_init__(self) -> None:
        _check_square_field(self, "square", self.square)

    def __str__(self) -> str:
        return SQUARES[self.square]


@dataclass(frozen=True, slots=True)
class Step:
    """A piece or team one square orthogonally: onto an empty square, or joining."""

    source: int
    target: int

    def __post_init__(self) -> None:
        _check_square_field(self, "source", self.source)
        _check_square_field(self, "target", self.target)

    def __str__(self) -> str:
        return f"{SQUARES[self.source]}-{SQUARES[self.target]}"


@dataclass(frozen=True, slots=True)
class Attack:
    """A diagonal attack.  ``attacker``/``defender``: class letter of a single piece, or None."""

    source: int
    target: int
    attacker: str | None = None
    defender: str | None = None

    def __post_init__(self) -> None:
        _check_square_field(self, "source", self.source)
        _check_square_field(self, "target", self.target)
        for field, letter in (("attacker", self.attacker), ("defender", self.defender)):
            if letter is not None and (type(letter) is not str or letter not in CLASS_OF):
                raise MisuseError(
                    f"Attack.{field} is {letter!r}: a class letter K, Z or S, or None for a team"
                )

    def __str__(self) -> str:
        return (
            f"{self.attacker or ''}{SQUARES[self.source]}x"
            f"{self.defender or ''}{SQUARES[self.target]}"
        )


@dataclass(frozen=True, slots=True)
class Pass:
    """No legal action: the turn passes."""

    def __str__(self) -> str:
        return "--"


CaveMove = Enter | Step | Attack | Pass

# Every entry, step and attack the board allows, made once: legal_moves() hands out
# these shared immutable objects rather than making (and checking) new ones each time.
_ENTERS: tuple[Enter, ...] = tuple(Enter(sq) for sq in range(N_SQUARES))
_STEPS: dict[tuple[int, int], Step] = {
    (src, dst): Step(src, dst) for src in range(N_SQUARES) for dst in ORTHOGONAL[src]
}
_ATTACKS: dict[tuple[int, int, str | None, str | None], Attack] = {
    (src, dst, a, d): Attack(src, dst, a, d)
    for src in range(N_SQUARES)
    for dst in DIAGONAL[src]
    for a in (None, *LETTERS)
    for d in (None, *LETTERS)
}

# -- parsing ----------------------------------------------------------------


def _square(token: Token) -> int:
    name = str(token).lower()
    index = SQUARE_INDEX.get(name)
    if index is None:
        raise MoveSyntaxError(f"{name} is not a square of the Cave board (a1-d5)")
    return index


class _MoveBuilder(Transformer[object, object]):
    """Builds move objects while the LALR parser reads (no tree is kept)."""

    def enter(self, items: list[Token]) -> Enter:
        return Enter(_square(items[0]))

    def step(self, items: list[Token]) -> Step:
        return Step(_square(items[0]), _square(items[1]))

    def fighter(self, items: list[Token]) -> tuple[str | None, int]:
        if len(items) == 2:
            return str(items[0]).upper(), _square(items[1])
        return None, _square(items[0])

    def attack(self, items: list[tuple[str | None, int]]) -> Attack:
        (a_letter, source), (d_letter, target) = items
        return Attack(source, target, a_letter, d_letter)

    def pass_(self, items: list[Token]) -> Pass:
        return Pass()


# -- positions --------------------------------------------------------------

# One undo record per pushed move: the move, the consecutive-pass count before
# it, the two stacks it changed (as they were), the pieces it revealed, and a
# flag (for attacks: 1 if the attacker won).
_Undo = tuple[CaveMove, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]

_EMPTY: tuple[int, ...] = ()


class CavePosition(Position[CaveMove]):
    """A Cave game in progress, as far as the record has revealed it."""

    __slots__ = (
        "_base",
        "_board",
        "_ended_at",
        "_history",
        "_identity",
        "_on_board",
        "_passes",
        "_reserve",
        "_result",
        "_shown",
        "_shown_at",
    )

    def __init__(self) -> None:
        #: Piece ids on each square (empty tuple: empty square); a team is 2 or 3 ids.
        self._board: list[tuple[int, ...]] = [_EMPTY] * N_SQUARES
        self._reserve = [PIECES_PER_SIDE, PIECES_PER_SIDE]
        self._on_board = [0, 0]
        #: Revealed class of each piece id, -1 while unknown, and the turn of the reveal.
        self._identity = [-1] * (2 * PIECES_PER_SIDE)
        self._shown_at = [0] * (2 * PIECES_PER_SIDE)
        #: _shown[side * 3 + class]: distinct pieces of that side shown with that class.
        self._shown = [0] * 6
        self._passes = 0
        self._result: str | None = None
        self._ended_at = 0
        self._history: list[_Undo] = []
        #: Turns played before the history starts (a position read from a string).
        self._base = 0

    # -- protocol ------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._base + len(self._history)

    @property
    def mover(self) -> str:
        return SIDE_NAMES[(self._base + len(self._history)) & 1]

    def outcome(self) -> str | None:
        return self._result

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other._board = self._board.copy()
        other._reserve = self._reserve.copy()
        other._on_board = self._on_board.copy()
        other._identity = self._identity.copy()
        other._shown_at = self._shown_at.copy()
        other._shown = self._shown.copy()
        other._passes = self._passes
        other._result = self._result
        other._ended_at = self._ended_at
        other._history = self._history.copy()
        other._base = self._base
        return other

    def push(self, move: CaveMove) -> None:
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it.

        MisuseError (position unchanged) for an object that is not a Cave move.
        """
        if self._result is not None:
            if type(move) not in (Enter, Step, Attack, Pass):
                raise _not_a_move(move)
            raise IllegalMoveError(self._over_message())
        side = (self._base + len(self._history)) & 1
        kind = type(move)
        if kind is Step:
            assert isinstance(move, Step)
            self._push_step(move, side)
        elif kind is Attack:
            assert isinstance(move, Attack)
            self._push_attack(move, side)
        elif kind is Enter:
            assert isinstance(move, Enter)
            self._push_enter(move, side)
        elif kind is Pass:
            self._push_pass(move, side)
        else:
            # Exact types only (pop() dispatches the same way): a subclass is refused too.
            raise _not_a_move(move)

    def pop(self) -> CaveMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
        move, passes, first, second, revealed, flag = self._history.pop()
        self._passes = passes
        self._result = None
        self._ended_at = 0
        side = (self._base + len(self._history)) & 1
        kind = type(move)
        board = self._board
        if kind is Step:
            assert isinstance(move, Step)
            board[move.source] = first
            board[move.target] = second
        elif kind is Attack:
            assert isinstance(move, Attack)
            board[move.source] = first
            board[move.target] = second
            if flag:
                self._on_board[1 - side] += len(second)
            else:
                self._on_board[side] += len(first)
            for pid in revealed:
                self._shown[PIECE_SIDE[pid] * 3 + self._identity[pid]] -= 1
                self._identity[pid] = -1
                self._shown_at[pid] = 0
        elif kind is Enter:
            assert isinstance(move, Enter)
            board[move.square] = _EMPTY
            self._reserve[side] += 1
            self._on_board[side] -= 1
        return move

    def legal_moves(self) -> list[CaveMove]:
        if self._result is not None:
            return []
        side = (self._base + len(self._history)) & 1
        board = self._board
        moves: list[CaveMove] = []
        if self._reserve[side]:
            moves.extend(_ENTERS[sq] for sq in HOME_ROW_ORDER[side] if not board[sq])
        letters = self._unshown_letters(1 - side)
        own_letters = self._unshown_letters(side)
        for src in range(N_SQUARES):
            stack = board[src]
            if not stack or PIECE_SIDE[stack[0]] != side:
                continue
            size = len(stack)
            for dst in ORTHOGONAL[src]:
                other = board[dst]
                if not other or (PIECE_SIDE[other[0]] == side and size + len(other) <= MAX_TEAM):
                    moves.append(_STEPS[src, dst])
            a_options = self._letter_options(stack, own_letters)
            for dst in DIAGONAL[src]:
                other = board[dst]
                if not other or PIECE_SIDE[other[0]] == side:
                    continue
                d_options = self._letter_options(other, letters)
                moves.extend(_ATTACKS[src, dst, a, d] for a in a_options for d in d_options)
        if not moves:
            moves.append(Pass())
        return moves

    def diagram(self) -> str:
        board = self._board
        lines = [("   " + "".join(f"{f:<7}" for f in FILES)).rstrip()]
        for rank in range(RANKS, 0, -1):
            cells = []
            for f in range(4):
                stack = board[(rank - 1) * 4 + f]
                if not stack:
                    cells.append(".")
                    continue
                known = "".join(
                    LETTERS[self._identity[p]] if self._identity[p] >= 0 else "?" for p in stack
                )
                cells.append(f"{'RB'[PIECE_SIDE[stack[0]]]}[{known}]")
            lines.append(f"{rank}  " + "".join(f"{c:<7}" for c in cells).rstrip())
        lines.append("R[?] Red piece, B[Z?] Black team of 2 with one piece shown as a zombie")
        lines.append(
            f"Reserves: Red {self._reserve[RED]}, Black {self._reserve[BLACK]}; "
            f"on the board: Red {self._on_board[RED]}, Black {self._on_board[BLACK]}"
        )
        for side in (RED, BLACK):
            shown = [
                f"{LETTERS[self._identity[p]]} {self._when(p)}"
                for p in sorted(self._side_pieces(side), key=self._shown_at.__getitem__)
                if self._identity[p] >= 0
            ]
            lines.append(f"{SIDE_NAMES[side]} has shown: {', '.join(shown) or 'nothing'}")
        if self._result is not None:
            lines.append(self._over_message())
        else:
            lines.append(f"{self.mover} to move (turn {self.turn + 1})")
        return "\n".join(lines)

    # -- public extras ---------------------------------------------------------
    @property
    def reserves(self) -> tuple[int, int]:
        """Pieces each side (Red, Black) still has in reserve."""
        return self._reserve[RED], self._reserve[BLACK]

    def pieces_at(self, square: str | int) -> tuple[int, ...]:
        """The piece ids on a square (empty tuple if empty; 2 or 3 ids for a team).

        Like every accessor here, ``square`` is a name ("b2") or an index 0-19.
        """
        return self._board[square_arg(square)]

    def side_of(self, piece: int) -> str:
        """ "Red" or "Black", the owner of piece id ``piece`` (0-11)."""
        return SIDE_NAMES[PIECE_SIDE[_piece_arg(piece)]]

    def revealed(self, piece: int) -> tuple[str, int] | None:
        """The identity letter a piece (id 0-11) was shown with and the turn, or None."""
        piece = _piece_arg(piece)
        c = self._identity[piece]
        return None if c < 0 else (LETTERS[c], self._shown_at[piece])

    def possible_identities(self, square: str | int) -> frozenset[str]:
        """Identity letters the piece on ``square`` may have, given every reveal so far.

        ``square`` is a name ("b2") or an index 0-19, as everywhere: an int is never
        a piece id here (:meth:`piece_identities` takes one).  For a square holding
        a team this is the union over its pieces; ``MisuseError`` for an empty
        square.  A revealed piece has exactly its letter; any other piece may be
        any class its side has not shown all of (the count is exact: a side owns
        6 pieces, so a side whose reveals fit 1K 2Z 3S can always deal the rest).
        """
        sq = square_arg(square)
        stack = self._board[sq]
        if not stack:
            raise MisuseError(f"{SQUARES[sq]} is empty: no piece to name the identities of")
        result: frozenset[str] = frozenset()
        for pid in stack:
            result |= self._piece_possibilities(pid)
        return result

    def piece_identities(self, piece: int) -> frozenset[str]:
        """Identity letters piece ``piece`` (id 0-11, on the board or not) may have."""
        return self._piece_possibilities(_piece_arg(piece))

    def canonical(self, move: CaveMove) -> CaveMove:
        """``move`` itself (its spelling never depends on the position); MisuseError
        for an object that is not a Cave move."""
        if type(move) not in (Enter, Step, Attack, Pass):
            raise _not_a_move(move)
        return move

    # -- describing the position (position strings, facts, annotations, views) ---
    def position_string(self) -> str:
        """The position as one line: board, reserves, removed, passes, mover, turn.

        See ``docs/cave.md`` ("Position strings"); :func:`read_position` reads it back.
        """
        board = self._board
        units: list[str] = []
        placed: set[int] = set()
        for sq in range(N_SQUARES):
            stack = board[sq]
            if stack:
                placed.update(stack)
                members = "".join(map(self._member_text, stack))
                units.append(f"{SQUARES[sq]}:{SIDE_CODES[PIECE_SIDE[stack[0]]]}{members}")
        removed: list[str] = []
        for side in (RED, BLACK):
            first = side * PIECES_PER_SIDE
            entered = range(first, first + PIECES_PER_SIDE - self._reserve[side])
            gone = sorted((p for p in entered if p not in placed), key=self._removed_key)
            removed.append("".join(map(self._member_text, gone)) or "-")
        turn = self.turn
        return " ".join(
            (
                ",".join(units) or "-",
                f"{self._reserve[RED]}/{self._reserve[BLACK]}",
                "/".join(removed),
                str(self._passes),
                SIDE_CODES[turn & 1],
                str(turn),
            )
        )

    def last_move_facts(self) -> dict[str, Any]:
        """What the last move did (``{}`` before any move); keys in ``docs/cave.md``."""
        if not self._history:
            return {}
        move, _, first, second, revealed, won = self._history[-1]
        side = (self.turn - 1) & 1
        facts: dict[str, Any] = {"side": SIDE_KEYS[side]}
        if isinstance(move, Enter):
            facts["reserve_left"] = self._reserve[side]
        elif isinstance(move, Step):
            facts["join"] = bool(second)
            facts["team_size"] = len(first) + len(second)
        elif isinstance(move, Attack):
            loser = second if won else first
            facts.update(
                attacker_class=LETTERS[_unit_class(first, move.attacker)],
                attacker_size=len(first),
                defender_class=LETTERS[_unit_class(second, move.defender)],
                defender_size=len(second),
                winner="attacker" if won else "defender",
                removed={"side": SIDE_KEYS[PIECE_SIDE[loser[0]]], "count": len(loser)},
                revealed={
                    SQUARES[move.source if pid == first[0] else move.target]: LETTERS[
                        self._identity[pid]
                    ]
                    for pid in revealed
                },
            )
        else:
            facts["passes"] = self._passes
        if self._result is not None:
            facts["outcome"] = self._result
        return facts

    def annotations(self) -> list[tuple[str, str]]:
        """``reveal`` and ``possible`` after a fight, ``reserve`` after an entry."""
        if not self._history:
            return []
        move, _, first, _, revealed, _ = self._history[-1]
        notes: list[tuple[str, str]] = []
        if isinstance(move, Attack):
            if revealed:
                notes.append(
                    (
                        "reveal",
                        " ".join(
                            f"{SQUARES[move.source if pid == first[0] else move.target]}:"
                            f"{LETTERS[self._identity[pid]]}"
                            for pid in revealed
                        ),
                    )
                )
            narrowed = [
                f"{SQUARES[sq]}:{''.join(letters)}"
                for sq, letters in self._hidden_possibilities()
                if len(letters) < len(LETTERS)
            ]
            if narrowed:
                notes.append(("possible", " ".join(narrowed)))
        elif isinstance(move, Enter):
            notes.append(("reserve", f"R{self._reserve[RED]} B{self._reserve[BLACK]}"))
        return notes

    def board_view(self) -> BoardView:
        board = self._board
        identity = self._identity
        cells: dict[str, Cell] = {}
        for sq in range(N_SQUARES):
            stack = board[sq]
            name = SQUARES[sq]
            if not stack:
                cells[name] = Cell(name, SQUARE_ROLE[sq])
                continue
            side = PIECE_SIDE[stack[0]]
            code = SIDE_CODES[side]
            tokens = tuple(
                ViewToken(
                    SIDE_KEYS[side], code + (LETTERS[identity[p]] if identity[p] >= 0 else "?")
                )
                for p in stack
            )
            if len(stack) > 1:
                note = "=" + LETTERS[TEAM_CLASS[len(stack)]]
            elif identity[stack[0]] < 0:
                note = "".join(self._unshown_letters(side))
            else:
                note = ""
            cells[name] = Cell(name, SQUARE_ROLE[sq], tokens, note)
        return BoardView(
            files=tuple(FILES),
            ranks=tuple(str(r) for r in range(1, RANKS + 1)),
            cells=cells,
            palette=PALETTE,
            marks=self._marks(),
            facts=self._view_facts(),
            caption=self._caption(),
        )

    def _member_text(self, pid: int) -> str:
        c = self._identity[pid]
        if c < 0:
            return "?"
        turn = self._shown_at[pid]
        return f"{LETTERS[c]}@{turn}" if turn else LETTERS[c]

    def _removed_key(self, pid: int) -> tuple[int, int, int]:
        c = self._identity[pid]
        return (1, 0, 0) if c < 0 else (0, self._shown_at[pid], _LETTER_RANK[c])

    def _hidden_possibilities(self) -> list[tuple[int, tuple[str, ...]]]:
        """Each square holding an unrevealed piece, with the letters such a piece may be."""
        board = self._board
        identity = self._identity
        return [
            (sq, self._unshown_letters(PIECE_SIDE[board[sq][0]]))
            for sq in range(N_SQUARES)
            if any(identity[p] < 0 for p in board[sq])
        ]

    def _marks(self) -> tuple[str, ...]:
        if not self._history:
            return ()
        move = self._history[-1][0]
        if isinstance(move, Enter):
            return (SQUARES[move.square],)
        if isinstance(move, Step | Attack):
            return (SQUARES[move.source], SQUARES[move.target])
        return ()

    def _view_facts(self) -> tuple[tuple[str, str], ...]:
        facts: list[tuple[str, str]] = []
        if self._result is None:
            facts.append(("To move", self.mover))
            facts.append(("Next turn", str(self.turn + 1)))
        else:
            facts.append(("Result", f"{self._result} ({RESULT_NAMES[self._result]})"))
        facts.append(("Reserves", f"Red {self._reserve[RED]}, Black {self._reserve[BLACK]}"))
        for side in (RED, BLACK):
            shown = ", ".join(
                f"{LETTERS[c]} {self._shown[side * 3 + c]}/{LIMIT[c]}" for c in _LETTER_ORDER
            )
            facts.append((f"{SIDE_NAMES[side]} revealed", shown))
        if self._passes:
            facts.append(("Passes in a row", str(self._passes)))
        return tuple(facts)

    def _unit_words(self, stack: tuple[int, ...], c: int | None = None) -> str:
        """ "Red's zombie", "Black's piece", "Red's team of 2 (fighting as a zombie)"."""
        owner = SIDE_NAMES[PIECE_SIDE[stack[0]]]
        if len(stack) > 1:
            team = f"{owner}'s team of {len(stack)}"
            return team if c is None else f"{team} (fighting as {_article(c)})"
        known = self._identity[stack[0]] if c is None else c
        return f"{owner}'s {CLASS_NAMES[known]}" if known >= 0 else f"{owner}'s piece"

    def _caption(self) -> str:
        if not self._history:
            return ""
        move, _, first, second, _, won = self._history[-1]
        side = (self.turn - 1) & 1
        if isinstance(move, Enter):
            text = (
                f"{SIDE_NAMES[side]} entered a piece on {SQUARES[move.square]} "
                f"({self._reserve[side]} left in reserve)"
            )
        elif isinstance(move, Step):
            where = SQUARES[move.target]
            if second:
                text = (
                    f"{self._unit_words(first)} joined {self._unit_words(second)} on {where}, "
                    f"making a team of {len(first) + len(second)}"
                )
            else:
                text = f"{self._unit_words(first)} moved to {where}"
        elif isinstance(move, Attack):
            attacker = self._unit_words(first, _unit_class(first, move.attacker))
            defender = self._unit_words(second, _unit_class(second, move.defender))
            where = SQUARES[move.target]
            if won:
                text = f"{attacker} beat {defender} and took {where}"
            else:
                text = f"{attacker} lost to {defender} on {where}"
        else:
            text = f"{SIDE_NAMES[side]} had no action and passed"
        if self._result is not None:
            text += f"; {RESULT_NAMES[self._result]}"
        return f"{move}: {text}"

    # -- helpers -----------------------------------------------------------------
    def _when(self, pid: int) -> str:
        """When a revealed piece was shown: "at turn 17", or "earlier" if not known."""
        turn = self._shown_at[pid]
        return f"at turn {turn}" if turn else "earlier"

    def _piece_possibilities(self, pid: int) -> frozenset[str]:
        c = self._identity[pid]
        if c >= 0:
            return frozenset(LETTERS[c])
        return frozenset(self._unshown_letters(PIECE_SIDE[pid]))

    def _unshown_letters(self, side: int) -> tuple[str, ...]:
        shown = self._shown
        return tuple(LETTERS[c] for c in _LETTER_ORDER if shown[side * 3 + c] < LIMIT[c])

    def _letter_options(
        self, stack: tuple[int, ...], unshown: tuple[str, ...]
    ) -> tuple[str | None, ...]:
        if len(stack) > 1:
            return (None,)
        c = self._identity[stack[0]]
        return (LETTERS[c],) if c >= 0 else unshown

    @staticmethod
    def _side_pieces(side: int) -> range:
        return range(side * PIECES_PER_SIDE, (side + 1) * PIECES_PER_SIDE)

    def _describe(self, sq: int) -> str:
        stack = self._board[sq]
        owner = SIDE_NAMES[PIECE_SIDE[stack[0]]]
        return f"{owner}'s piece" if len(stack) == 1 else f"{owner}'s team of {len(stack)}"

    def _over_message(self) -> str:
        if self._result == DRAW:
            how = "two passes in a row" if self._passes >= 2 else "no pieces left"
            return f"the game is over: drawn at turn {self._ended_at} ({how})"
        winner = "Red" if self._result == WIN_FIRST else "Black"
        return f"the game is over: {winner} won at turn {self._ended_at}"

    def _own_unit(self, sq: int, side: int) -> tuple[int, ...]:
        """The stack on ``sq`` if the mover owns it; else the reason it cannot act."""
        stack = self._board[sq]
        if not stack:
            raise IllegalMoveError(f"{SQUARES[sq]} is empty")
        if PIECE_SIDE[stack[0]] != side:
            raise IllegalMoveError(
                f"{SQUARES[sq]} holds {self._describe(sq)}; {SIDE_NAMES[side]} is to move"
            )
        return stack

    def _check_end(self, side: int) -> None:
        """Whether the action just played (by ``side``) ended the game."""
        reserve, on_board = self._reserve, self._on_board
        out = (reserve[RED] + on_board[RED] == 0, reserve[BLACK] + on_board[BLACK] == 0)
        if out[RED] and out[BLACK]:
            self._result = DRAW
        elif out[BLACK] and on_board[RED]:
            self._result = WIN_FIRST
        elif out[RED] and on_board[BLACK]:
            self._result = WIN_SECOND
        else:
            return
        self._ended_at = self._base + len(self._history)

    # -- the four actions --------------------------------------------------------
    def _push_enter(self, move: Enter, side: int) -> None:
        sq = move.square
        if not self._reserve[side]:
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]}'s reserve is empty (all {PIECES_PER_SIDE} pieces have entered)"
            )
        if sq not in HOME_ROW[side]:
            raise IllegalMoveError(
                f"{SQUARES[sq]} is not on {SIDE_NAMES[side]}'s home row (rank {HOME_RANK[side]})"
            )
        if self._board[sq]:
            raise IllegalMoveError(
                f"{SQUARES[sq]} holds {self._describe(sq)}; a piece enters on an empty square"
            )
        pid = side * PIECES_PER_SIDE + PIECES_PER_SIDE - self._reserve[side]
        self._board[sq] = (pid,)
        self._reserve[side] -= 1
        self._on_board[side] += 1
        self._history.append((move, self._passes, _EMPTY, _EMPTY, _EMPTY, 0))
        self._passes = 0
        self._check_end(side)

    def _push_step(self, move: Step, side: int) -> None:
        src, dst = move.source, move.target
        stack = self._own_unit(src, side)
        relation = RELATION[src * N_SQUARES + dst]
        if relation != _ORTH:
            what = {_DIAG: "is diagonal", _SAME: "stays on its square"}.get(
                relation, "is not between neighbouring squares"
            )
            raise IllegalMoveError(f"{move} {what}: a move goes one square orthogonally")
        other = self._board[dst]
        if other:
            if PIECE_SIDE[other[0]] != side:
                raise IllegalMoveError(
                    f"{SQUARES[dst]} holds {self._describe(dst)}: a move goes onto an empty "
                    "square or joins one's own pieces (attacks go diagonally)"
                )
            if len(stack) + len(other) > MAX_TEAM:
                if len(other) == MAX_TEAM:
                    reason = f"a team of 3 on {SQUARES[dst]} cannot take another piece"
                elif len(stack) == MAX_TEAM:
                    reason = f"a team of 3 on {SQUARES[src]} cannot join another piece"
                else:
                    reason = (
                        f"{SQUARES[src]} and {SQUARES[dst]} hold {len(stack)} pieces each: "
                        "a team has at most 3"
                    )
                raise IllegalMoveError(reason)
        self._board[src] = _EMPTY
        self._board[dst] = other + stack
        self._history.append((move, self._passes, stack, other, _EMPTY, 0))
        self._passes = 0

    def _fighting_class(self, stack: tuple[int, ...], letter: str | None, sq: int) -> int:
        """The class a unit fights as, checking the letter written for it."""
        size = len(stack)
        name = SQUARES[sq]
        if size > 1:
            if letter is not None:
                raise IllegalMoveError(
                    f"{name} holds a team of {size}, which fights as "
                    f"{_article(TEAM_CLASS[size])} and shows no identity: write {name} "
                    "without a class letter"
                )
            return TEAM_CLASS[size]
        pid = stack[0]
        known = self._identity[pid]
        if letter is None:
            if known >= 0:
                raise IllegalMoveError(
                    f"a single piece fights as its identity: the piece on {name} was shown as "
                    f"{_article(known)} {self._when(pid)}, write {LETTERS[known]}{name}"
                )
            raise IllegalMoveError(
                f"a single piece fights as its identity: write K{name}, Z{name} or S{name}"
            )
        c = CLASS_OF[letter]
        if known >= 0:
            if known != c:
                raise IllegalMoveError(
                    f"the piece on {name} was shown as {_article(known)} {self._when(pid)}, "
                    f"so it is not {_article(c)}"
                )
            return c
        side = PIECE_SIDE[pid]
        if self._shown[side * 3 + c] >= LIMIT[c]:
            turns = [self._shown_at[p] for p in self._side_pieces(side) if self._identity[p] == c]
            turns.sort()
            owner = SIDE_NAMES[side]
            if turns[0] == 0:  # a reveal from before a position string: turn not kept
                shown = (
                    f"its {CLASS_NAMES[c]}"
                    if LIMIT[c] == 1
                    else f"its {LIMIT[c]} {CLASS_PLURALS[c]}"
                )
                shown += " earlier"
            elif LIMIT[c] == 1:
                shown = f"its {CLASS_NAMES[c]} at turn {turns[0]}"
            else:
                listed = ", ".join(str(t) for t in turns[:-1]) + f" and {turns[-1]}"
                shown = f"its {LIMIT[c]} {CLASS_PLURALS[c]} (turns {listed})"
            raise IllegalMoveError(
                f"{owner} has already shown {shown}; the piece on {name} cannot be "
                f"{_article(c)} too (each side has 1 K, 2 Z, 3 S)"
            )
        return c

    def _push_attack(self, move: Attack, side: int) -> None:
        src, dst = move.source, move.target
        board = self._board
        attacker = self._own_unit(src, side)
        defender = board[dst]
        relation = RELATION[src * N_SQUARES + dst]
        if relation != _DIAG:
            what = {_ORTH: "is orthogonal", _SAME: "stays on its square"}.get(
                relation, "is not between neighbouring squares"
            )
            raise IllegalMoveError(f"{move} {what}: an attack goes one square diagonally")
        if not defender:
            raise IllegalMoveError(f"{SQUARES[dst]} is empty: an attack needs an enemy there")
        if PIECE_SIDE[defender[0]] == side:
            raise IllegalMoveError(f"{SQUARES[dst]} holds {self._describe(dst)}, not an enemy")
        a_class = self._fighting_class(attacker, move.attacker, src)
        d_class = self._fighting_class(defender, move.defender, dst)
        turn = self._base + len(self._history) + 1
        revealed: list[int] = []
        for stack, c in ((attacker, a_class), (defender, d_class)):
            if len(stack) == 1 and self._identity[stack[0]] < 0:
                pid = stack[0]
                self._identity[pid] = c
                self._shown_at[pid] = turn
                self._shown[PIECE_SIDE[pid] * 3 + c] += 1
                revealed.append(pid)
        won = ATTACKER_WINS[a_class][d_class]
        board[src] = _EMPTY
        if won:
            board[dst] = attacker
            self._on_board[1 - side] -= len(defender)
        else:
            self._on_board[side] -= len(attacker)
        self._history.append((move, self._passes, attacker, defender, tuple(revealed), int(won)))
        self._passes = 0
        self._check_end(side)

    def _has_action(self, side: int) -> bool:
        board = self._board
        if self._reserve[side] and any(not board[sq] for sq in HOME_ROW_ORDER[side]):
            return True
        for src in range(N_SQUARES):
            stack = board[src]
            if not stack or PIECE_SIDE[stack[0]] != side:
                continue
            for dst in ORTHOGONAL[src]:
                other = board[dst]
                if not other or (
                    PIECE_SIDE[other[0]] == side and len(stack) + len(other) <= MAX_TEAM
                ):
                    return True
            for dst in DIAGONAL[src]:
                other = board[dst]
                if other and PIECE_SIDE[other[0]] != side:
                    return True
        return False

    def _push_pass(self, move: CaveMove, side: int) -> None:
        if self._has_action(side):
            example = self.legal_moves()[0]
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]} has a legal action (e.g. {example}): "
                "a side passes only when it has none"
            )
        self._history.append((move, self._passes, _EMPTY, _EMPTY, _EMPTY, 0))
        self._passes += 1
        if self._passes >= 2:
            self._result = DRAW
            self._ended_at = self._base + len(self._history)


# -- reading position strings -------------------------------------------------


def _unit_class(stack: tuple[int, ...], letter: str | None) -> int:
    """The class a unit fought as in a legal attack (its letter, or its team size)."""
    if len(stack) > 1:
        return TEAM_CLASS[len(stack)]
    assert letter is not None
    return CLASS_OF[letter]


def _bad(reason: str) -> TagValueError:
    return TagValueError("Position", f"bad Cave position: {reason}")


# A piece as a position string describes it: (class or -1 if unrevealed, turn of the
# reveal or 0 if not given).
_Member = tuple[int, int]


def _read_members(text: str, where: str) -> list[_Member]:
    if not _MEMBERS_RE.fullmatch(text):
        raise _bad(
            f"{where}: {text!r} is not a list of pieces "
            "(each ? for an unrevealed piece, or K, Z, S with an optional @turn, e.g. ?Z@7)"
        )
    members: list[_Member] = []
    for found in _MEMBER_RE.finditer(text):
        token = found.group()
        if token == "?":
            members.append((-1, 0))
        else:
            members.append((CLASS_OF[token[0]], int(token[2:]) if len(token) > 1 else 0))
    return members


def _read_board(text: str) -> list[tuple[int, int, list[_Member]]]:
    """The board field: (square, side, members bottom to top) per unit, by square."""
    if text == "-":
        return []
    units: list[tuple[int, int, list[_Member]]] = []
    seen: set[int] = set()
    for part in text.split(","):
        found = _UNIT_RE.fullmatch(part)
        if found is None:
            raise _bad(
                f"board: {part!r} is not a unit (square:side and its pieces bottom to top, "
                "e.g. b3:rK@6?; units separated by commas, - for an empty board)"
            )
        name = found[1]
        sq = SQUARE_INDEX.get(name)
        if sq is None:
            raise _bad(f"board: {name} is not a square of the Cave board (a1-d5)")
        if sq in seen:
            raise _bad(f"board: {name} is listed twice")
        seen.add(sq)
        members = _read_members(found[3], f"board: {name}")
        if len(members) > MAX_TEAM:
            raise _bad(f"board: {name} holds {len(members)} pieces; a team has at most 3")
        units.append((sq, SIDE_CODES.index(found[2]), members))
    units.sort(key=lambda unit: unit[0])
    return units


def read_position(text: str) -> CavePosition:
    """The position a :meth:`CavePosition.position_string` describes.

    Raises ``TagValueError("Position", reason)`` for a malformed string or an
    impossible position; the reason names the field.
    """
    fields = text.split()
    if len(fields) != len(POSITION_FIELDS):
        raise _bad(
            f"a position has {len(POSITION_FIELDS)} fields separated by spaces "
            f"({', '.join(POSITION_FIELDS)}); {text!r} has {len(fields)}"
        )
    board_text, reserves_text, removed_text, passes_text, mover_text, turn_text = fields
    if not _COUNT_RE.fullmatch(turn_text):
        raise _bad(f"turn: {turn_text!r} is not a number of turns played (0, 1, 2, ...)")
    turn = int(turn_text)
    if mover_text not in ("r", "b"):
        raise _bad(f"mover: {mover_text!r} is not r (Red) or b (Black)")
    mover = SIDE_CODES.index(mover_text)
    if mover != turn & 1:
        raise _bad(
            f"mover: after {turn} turns {SIDE_NAMES[turn & 1]} is to move, not "
            f"{SIDE_NAMES[mover]} (Red plays turns 1, 3, 5, ...)"
        )
    found = _RESERVES_RE.fullmatch(reserves_text)
    if found is None:
        raise _bad(
            f"reserves: {reserves_text!r} is not Red's and Black's reserves "
            "as two counts 0-6, e.g. 4/3"
        )
    reserve = [int(found[1]), int(found[2])]
    units = _read_board(board_text)
    parts = removed_text.split("/")
    if len(parts) != 2:
        raise _bad(
            f"removed: {removed_text!r} is not Red's and Black's removed pieces "
            "separated by / (- for none), e.g. ?S@9/-"
        )
    removed = [
        [] if part == "-" else _read_members(part, f"removed ({SIDE_NAMES[side]})")
        for side, part in enumerate(parts)
    ]
    if not _COUNT_RE.fullmatch(passes_text):
        raise _bad(f"passes: {passes_text!r} is not a count of passes in a row (0, 1 or 2)")
    passes = int(passes_text)

    # -- is it a position legal play can reach? ----------------------------------
    on_board = [0, 0]
    for _, side, members in units:
        on_board[side] += len(members)
    for side in (RED, BLACK):
        name = SIDE_NAMES[side]
        total = on_board[side] + reserve[side] + len(removed[side])
        if total != PIECES_PER_SIDE:
            raise _bad(
                f"{name} has {total} pieces ({on_board[side]} on the board, {reserve[side]} "
                f"in reserve, {len(removed[side])} removed); each side has {PIECES_PER_SIDE}"
            )
        entered = PIECES_PER_SIDE - reserve[side]
        played = (turn + 1 - side) // 2
        if entered > played:
            raise _bad(
                f"reserves: {entered} of {name}'s pieces have entered, but {name} has played "
                f"only {played} of the {turn} turns (an entry takes a turn)"
            )
        members = [m for _, s, ms in units if s == side for m in ms] + removed[side]
        reveal_turns: set[int] = set()
        counts = [0, 0, 0]
        for c, shown_at in members:
            if c < 0:
                continue
            counts[c] += 1
            if shown_at > turn:
                raise _bad(
                    f"{name}'s {LETTERS[c]}@{shown_at} was shown at turn {shown_at}, "
                    f"but only {turn} turns have been played"
                )
            if shown_at in reveal_turns:
                raise _bad(
                    f"{name} has two pieces shown at turn {shown_at}; "
                    "a fight shows at most one piece of each side"
                )
            if shown_at:
                reveal_turns.add(shown_at)
        for c in _LETTER_ORDER:
            if counts[c] > LIMIT[c]:
                what = CLASS_PLURALS[c] if counts[c] > 1 else CLASS_NAMES[c]
                raise _bad(f"{name} shows {counts[c]} {what}; each side has 1 K, 2 Z, 3 S")
    out = [reserve[side] + on_board[side] == 0 for side in (RED, BLACK)]
    result: str | None = None
    if out[RED] and out[BLACK]:
        raise _bad("board: neither side has a piece left; a fight always leaves its winner")
    for side in (RED, BLACK):
        if out[side]:
            other = SIDE_NAMES[1 - side]
            if not on_board[1 - side]:
                raise _bad(
                    f"board: {SIDE_NAMES[side]} has no piece left and {other} none on the "
                    f"board; the fight that removed {SIDE_NAMES[side]}'s last piece left "
                    "its winner there"
                )
            result = WIN_SECOND if side == RED else WIN_FIRST

    # -- build it: ids by square (bottom to top), then the removed pieces ---------
    pos = CavePosition()
    pos._base = turn
    pos._reserve = reserve
    pos._on_board = on_board
    next_id = [0, PIECES_PER_SIDE]

    def place(side: int, members: list[_Member]) -> tuple[int, ...]:
        ids: list[int] = []
        for c, shown_at in members:
            pid = next_id[side]
            next_id[side] += 1
            if c >= 0:
                pos._identity[pid] = c
                pos._shown_at[pid] = shown_at
                pos._shown[side * 3 + c] += 1
            ids.append(pid)
        return tuple(ids)

    for sq, side, members in units:
        pos._board[sq] = place(side, members)
    for side in (RED, BLACK):
        place(side, removed[side])

    if passes:
        if result is not None:
            raise _bad(f"passes: {passes}, but the game was already over (no move follows the end)")
        if passes > 2:
            raise _bad(f"passes: {passes}, but two passes in a row end the game")
        if passes > turn:
            raise _bad(f"passes: {passes} in a row, but only {turn} turns have been played")
        for k in range(passes):
            passer = (turn - 1 - k) & 1
            if pos._has_action(passer):
                raise _bad(
                    f"passes: {passes} in a row, but {SIDE_NAMES[passer]} has a legal action "
                    "here, so it could not have passed (a side passes only when it has none)"
                )
        if passes >= 2:
            result = DRAW
    pos._passes = passes
    pos._result = result
    pos._ended_at = turn if result is not None else 0
    return pos


# -- the game ---------------------------------------------------------------


class CaveGame(Game[CaveMove]):
    name: ClassVar[str] = "cave"
    title: ClassVar[str] = "Cave"
    player_tags: ClassVar[tuple[str, ...]] = ("Red", "Black")
    result_names: ClassVar[Mapping[str, str]] = RESULT_NAMES
    annotation_keys: ClassVar[frozenset[str]] = frozenset({"reveal", "possible", "reserve"})

    def __init__(self) -> None:
        super().__init__()
        self._parser = build_parser("cave", _MoveBuilder())

    def parse_move(self, text: str) -> CaveMove:
        try:
            move = self._parser.parse(text)
        except MoveSyntaxError:
            raise
        except Exception as exc:  # lark's UnexpectedInput family, with parser internals
            raise MoveSyntaxError(
                f"{text!r} is not a Cave move (forms: b1, b1-b2, Zb2xSc3, --)"
            ) from exc
        assert isinstance(move, Enter | Step | Attack | Pass)
        return move

    def new_position(self, tags: Mapping[str, str] | None = None) -> CavePosition:
        """The empty board, or the position of a ``Position`` tag.

        Cave has no other setup tag: every other game starts from the empty board.
        """
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return CavePosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> CavePosition:
        # Cave has no setup tags, so the string alone says everything.
        return read_position(text)

    def move_to_dict(self, move: CaveMove) -> dict[str, Any]:
        if isinstance(move, Enter):
            return {"type": "enter", "square": SQUARES[move.square]}
        if isinstance(move, Step):
            return {"type": "step", "from": SQUARES[move.source], "to": SQUARES[move.target]}
        if isinstance(move, Attack):
            return {
                "type": "attack",
                "from": SQUARES[move.source],
                "to": SQUARES[move.target],
                "attacker": move.attacker,
                "defender": move.defender,
            }
        if not isinstance(move, Pass):
            raise _not_a_move(move)
        return {"type": "pass"}

    def random_playout(
        self, position: Position[CaveMove], rng: random.Random, max_turns: int
    ) -> Sequence[CaveMove]:
        """Random legal play with hidden identities dealt by ``rng``.

        Each side's 1 K, 2 Z, 3 S are shuffled and given to its pieces in the
        order they enter (pieces the position has already revealed keep their
        identity); attacks are written with the true letters, so the record is
        always consistent.
        """
        assert isinstance(position, CavePosition)
        truth = self._deal(position, rng)
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

    @staticmethod
    def _deal(position: CavePosition, rng: random.Random) -> list[int]:
        truth = list(position._identity)
        for side in (RED, BLACK):
            deck = [c for c in range(3) for _ in range(LIMIT[c])]
            pieces = position._side_pieces(side)
            for pid in pieces:
                if truth[pid] >= 0:
                    deck.remove(truth[pid])
            rng.shuffle(deck)
            for pid in pieces:
                if truth[pid] < 0:
                    truth[pid] = deck.pop()
        return truth


def _is_true(move: CaveMove, board: list[tuple[int, ...]], truth: list[int]) -> bool:
    assert isinstance(move, Attack)
    for letter, sq in ((move.attacker, move.source), (move.defender, move.target)):
        if letter is not None and CLASS_OF[letter] != truth[board[sq][0]]:
            return False
    return True


GAME = CaveGame()
