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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from lark import Token, Transformer

from notation.errors import IllegalMoveError, MoveSyntaxError
from notation.games.base import DRAW, WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser

__all__ = [
    "GAME",
    "Attack",
    "CaveGame",
    "CaveMove",
    "CavePosition",
    "Enter",
    "Pass",
    "Step",
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


def square_name(index: int) -> str:
    return SQUARES[index]


def square_index(name: str) -> int:
    """The index of a square name such as ``"b2"`` (any case); ``KeyError`` if none."""
    return SQUARE_INDEX[name.lower()]


def _article(c: int) -> str:
    return f"a {CLASS_NAMES[c]}" if c != KNIGHT else "a black knight"


# -- moves ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enter:
    """A piece from the reserve onto an empty square of the mover's home row."""

    square: int

    def __str__(self) -> str:
        return SQUARES[self.square]


@dataclass(frozen=True, slots=True)
class Step:
    """A piece or team one square orthogonally: onto an empty square, or joining."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{SQUARES[self.source]}-{SQUARES[self.target]}"


@dataclass(frozen=True, slots=True)
class Attack:
    """A diagonal attack.  ``attacker``/``defender``: class letter of a single piece, or None."""

    source: int
    target: int
    attacker: str | None = None
    defender: str | None = None

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

    # -- protocol ------------------------------------------------------------
    @property
    def turn(self) -> int:
        return len(self._history)

    @property
    def mover(self) -> str:
        return SIDE_NAMES[len(self._history) & 1]

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
        return other

    def push(self, move: CaveMove) -> None:
        if self._result is not None:
            raise IllegalMoveError(self._over_message())
        side = len(self._history) & 1
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
            raise IllegalMoveError(f"{move!r} is not a Cave move")

    def pop(self) -> CaveMove:
        move, passes, first, second, revealed, flag = self._history.pop()
        self._passes = passes
        self._result = None
        self._ended_at = 0
        side = len(self._history) & 1
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
        side = len(self._history) & 1
        board = self._board
        moves: list[CaveMove] = []
        if self._reserve[side]:
            moves.extend(Enter(sq) for sq in HOME_ROW_ORDER[side] if not board[sq])
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
                    moves.append(Step(src, dst))
            a_options = self._letter_options(stack, own_letters)
            for dst in DIAGONAL[src]:
                other = board[dst]
                if not other or PIECE_SIDE[other[0]] == side:
                    continue
                d_options = self._letter_options(other, letters)
                moves.extend(Attack(src, dst, a, d) for a in a_options for d in d_options)
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
                f"{LETTERS[self._identity[p]]} at turn {self._shown_at[p]}"
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
        """The piece ids on a square (empty tuple if empty; 2 or 3 ids for a team)."""
        return self._board[self._square_arg(square)]

    def side_of(self, piece: int) -> str:
        return SIDE_NAMES[PIECE_SIDE[piece]]

    def revealed(self, piece: int) -> tuple[str, int] | None:
        """The identity letter a piece was shown with and the turn, or None."""
        c = self._identity[piece]
        return None if c < 0 else (LETTERS[c], self._shown_at[piece])

    def possible_identities(self, square_or_piece: str | int) -> frozenset[str]:
        """Identity letters a piece may have, given every reveal of the record so far.

        A piece is a piece id (int, 0-5 Red, 6-11 Black) or the name of the square
        holding it.  For a square holding a team this is the union over its
        pieces.  A revealed piece has exactly its letter; any other piece may be
        any class its side has not shown all of (the count is exact: a side owns
        6 pieces, so a side whose reveals fit 1K 2Z 3S can always deal the rest).
        """
        if isinstance(square_or_piece, str):
            stack = self._board[self._square_arg(square_or_piece)]
            if not stack:
                raise ValueError(f"{square_or_piece.lower()} is empty")
            result: frozenset[str] = frozenset()
            for pid in stack:
                result |= self._piece_possibilities(pid)
            return result
        if not 0 <= square_or_piece < 2 * PIECES_PER_SIDE:
            raise ValueError(f"no piece {square_or_piece} (ids are 0-11)")
        return self._piece_possibilities(square_or_piece)

    # -- helpers -----------------------------------------------------------------
    def _square_arg(self, square: str | int) -> int:
        if isinstance(square, int):
            return square
        index = SQUARE_INDEX.get(square.lower())
        if index is None:
            raise ValueError(f"{square} is not a square of the Cave board (a1-d5)")
        return index

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
        self._ended_at = len(self._history)

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
                    f"{_article(known)} at turn {self._shown_at[pid]}, write {LETTERS[known]}{name}"
                )
            raise IllegalMoveError(
                f"a single piece fights as its identity: write K{name}, Z{name} or S{name}"
            )
        c = CLASS_OF[letter]
        if known >= 0:
            if known != c:
                raise IllegalMoveError(
                    f"the piece on {name} was shown as {_article(known)} at turn "
                    f"{self._shown_at[pid]}, so it is not {_article(c)}"
                )
            return c
        side = PIECE_SIDE[pid]
        if self._shown[side * 3 + c] >= LIMIT[c]:
            turns = [self._shown_at[p] for p in self._side_pieces(side) if self._identity[p] == c]
            turns.sort()
            owner = SIDE_NAMES[side]
            if LIMIT[c] == 1:
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
        turn = len(self._history) + 1
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
            self._ended_at = len(self._history)


# -- the game ---------------------------------------------------------------


class CaveGame(Game[CaveMove]):
    name: ClassVar[str] = "cave"
    title: ClassVar[str] = "Cave"
    player_tags: ClassVar[tuple[str, ...]] = ("Red", "Black")
    result_names: ClassVar[Mapping[str, str]] = {
        WIN_FIRST: "Red wins",
        WIN_SECOND: "Black wins",
        DRAW: "draw",
    }

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
        # Cave has no setup tags: every game starts from the empty board.
        return CavePosition()

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
