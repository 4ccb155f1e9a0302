"""The rules of Cave: :class:`CaveRules`, a game as far as the record has revealed it.

Each side owns six face-down pieces whose identities nobody knows until they fight,
so the engine knows only what a record has revealed: the class letters written in
attacks.  It tracks every piece as an individual (ids 0-5 are Red's, 6-11 Black's,
given in the order the pieces enter), remembers the identity and turn of each
reveal, and refuses a record that contradicts itself.

The methods below follow docs/cave.md: the four actions ("A turn"), the fight
("Combat"), what the record must show and what a hidden piece may still be ("What
the record reveals"), and the end ("End of the game and results").  The modules
that describe a position read it here; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, NamedTuple, Self

from notation.errors import IllegalMoveError, MisuseError
from notation.games.base import (
    DRAW,
    WIN_FIRST,
    WIN_SECOND,
    Position,
)
from notation.games.cave.board import (
    BLACK,
    CLASS_NAMES,
    CLASS_OF,
    CLASS_PLURALS,
    DIAG,
    DIAGONAL,
    HOME_RANK,
    HOME_ROW,
    HOME_ROW_ORDER,
    LETTER_ORDER,
    LETTERS,
    LIMIT,
    MAX_TEAM,
    N_SQUARES,
    ORTH,
    ORTHOGONAL,
    PIECE_SIDE,
    PIECES_PER_SIDE,
    RED,
    RELATION,
    SAME,
    SIDE_NAMES,
    SQUARES,
    TEAM_CLASS,
    article,
    piece_arg,
    side_pieces,
    square_arg,
    unit_class,
)
from notation.games.cave.moves import (
    ATTACKS,
    ENTERS,
    MOVE_TYPES,
    STEPS,
    Attack,
    CaveMove,
    Enter,
    Pass,
    Step,
    not_a_move,
)

#: docs/cave.md, "Combat": ATTACKER_WINS[attacker][defender], by class (S, Z, K).
#: The attacker wins when its class is at least the defender's: ties go to it.
ATTACKER_WINS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(a >= d for d in range(3)) for a in range(3)
)


class CaveUndo(NamedTuple):
    """The layout of what :meth:`CaveRules.push` keeps to undo one move (one entry
    per move pushed, in the position's history): push keeps a plain tuple, so read an
    entry with ``CaveUndo._make(entry)``."""

    #: The move as pushed.
    move: CaveMove
    #: The count of consecutive passes before it.
    passes: int
    #: The two stacks it changed, as they were: origin and target of a step or an
    #: attack (empty for an entry and a pass).
    first: tuple[int, ...]
    second: tuple[int, ...]
    #: The pieces it revealed (an attack's single pieces never shown before).
    revealed: tuple[int, ...]
    #: For an attack, 1 if the attacker won, else 0.
    won: int



# The tuple's constructor is made outside this module, where "CaveMove" names nothing: its
# type, for tools that read the annotations (the API reference).
CaveUndo.__new__.__annotations__["move"] = CaveMove
#: A history entry as push makes it: the fields of :class:`CaveUndo`.
_Entry = tuple[CaveMove, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]

_EMPTY: tuple[int, ...] = ()


class CaveRules(Position[CaveMove]):
    """A Cave game in progress, as far as the record has revealed it: the rules.

    The game hands out positions of the subclass
    :class:`notation.games.cave.position.CavePosition`, which describes them too
    (position strings, diagram, facts, annotations, board view, odds).
    """

    #: ``position.game`` looks the game up by this name (base.Position.game).
    game_name: ClassVar[str | None] = "cave"

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
        #: Revealed class of each piece id, -1 while unknown, and the turn of the reveal
        #: (0 if a position string left it out).
        self._identity = [-1] * (2 * PIECES_PER_SIDE)
        self._shown_at = [0] * (2 * PIECES_PER_SIDE)
        #: _shown[side * 3 + class]: distinct pieces of that side shown with that class.
        self._shown = [0] * 6
        self._passes = 0
        self._result: str | None = None
        self._ended_at = 0
        self._history: list[_Entry] = []
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
            if type(move) not in MOVE_TYPES:
                raise not_a_move(move)
            raise IllegalMoveError(self._over_message(), "cave-game-over")
        side = (self._base + len(self._history)) & 1
        # Exact types only (pop() dispatches the same way): a subclass is refused too.
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
            raise not_a_move(move)

    def pop(self) -> CaveMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
        move, passes, first, second, revealed, won = self._history.pop()
        self._passes = passes
        self._result = None
        self._ended_at = 0
        side = (self._base + len(self._history)) & 1
        kind = type(move)
        board = self._board
        if kind is Step:
            assert isinstance(move, Step)
            board[move.origin] = first
            board[move.target] = second
        elif kind is Attack:
            assert isinstance(move, Attack)
            board[move.origin] = first
            board[move.target] = second
            if won:
                self._on_board[1 - side] += len(second)
            else:
                self._on_board[side] += len(first)
            for pid in revealed:
                self._unreveal(pid)
        elif kind is Enter:
            assert isinstance(move, Enter)
            board[move.square] = _EMPTY
            self._reserve[side] += 1
            self._on_board[side] -= 1
        return move

    def legal_moves(self) -> list[CaveMove]:
        if self._result is not None:
            return []
        # docs/cave.md, "A turn" (Pass): a pass only when no other action is legal.
        return list(self._actions((self._base + len(self._history)) & 1)) or [Pass()]

    def canonical(self, move: CaveMove) -> CaveMove:
        """``move`` itself (its spelling never depends on the position); MisuseError
        for an object that is not a Cave move."""
        if type(move) not in MOVE_TYPES:
            raise not_a_move(move)
        return move

    def last_move_canonical(self) -> CaveMove:
        """The last move pushed, itself (:meth:`canonical` never changes a move)."""
        if not self._history:
            raise MisuseError("last_move_canonical() with no move pushed on this position")
        return CaveUndo._make(self._history[-1]).move

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
        return SIDE_NAMES[PIECE_SIDE[piece_arg(piece)]]

    def revealed(self, piece: int) -> tuple[str, int] | None:
        """The identity letter a piece (id 0-11) was shown with and the turn, or None."""
        piece = piece_arg(piece)
        c = self._identity[piece]
        return None if c < 0 else (LETTERS[c], self._shown_at[piece])

    def possible_identities(self, square: str | int) -> frozenset[str]:
        """Identity letters the piece on ``square`` may have, given every reveal so far.

        ``square`` is a name ("b2") or an index 0-19, as everywhere: an int is never
        a piece id here (:meth:`piece_identities` takes one).  For a square holding
        a team this is the union over its pieces; ``MisuseError`` for an empty
        square.  See :meth:`_hidden_letters` for why the answer is exact.
        """
        sq = square_arg(square)
        stack = self._board[sq]
        if not stack:
            raise MisuseError(f"{SQUARES[sq]} is empty: no piece to name the identities of")
        result: frozenset[str] = frozenset()
        for pid in stack:
            result |= self._piece_letters(pid)
        return result

    def piece_identities(self, piece: int) -> frozenset[str]:
        """Identity letters piece ``piece`` (id 0-11, on the board or not) may have."""
        return self._piece_letters(piece_arg(piece))

    # -- docs/cave.md, "A turn": the four actions ---------------------------------
    def _actions(self, side: int) -> Iterator[CaveMove]:
        """Every action of ``side`` but the pass: entries, moves and joins, attacks.

        An attack comes once per combination of letters that fits what is known
        (:meth:`_letters_to_write`).
        """
        board = self._board
        if self._reserve[side]:
            yield from (ENTERS[sq] for sq in HOME_ROW_ORDER[side] if not board[sq])
        own_letters = self._hidden_letters(side)
        enemy_letters = self._hidden_letters(1 - side)
        for origin in range(N_SQUARES):
            stack = board[origin]
            if not stack or PIECE_SIDE[stack[0]] != side:
                continue
            size = len(stack)
            for target in ORTHOGONAL[origin]:
                other = board[target]
                # Move onto an empty square, or join an own unit into a team of at most 3.
                if not other or (PIECE_SIDE[other[0]] == side and size + len(other) <= MAX_TEAM):
                    yield STEPS[origin, target]
            attacker_letters = self._letters_to_write(stack, own_letters)
            for target in DIAGONAL[origin]:
                other = board[target]
                if other and PIECE_SIDE[other[0]] != side:
                    defender_letters = self._letters_to_write(other, enemy_letters)
                    for a in attacker_letters:
                        for d in defender_letters:
                            yield ATTACKS[origin, target, a, d]

    def _has_action(self, side: int) -> bool:
        """Whether ``side`` has an action other than the pass."""
        return next(self._actions(side), None) is not None

    def _push_enter(self, move: Enter, side: int) -> None:
        """Enter (docs/cave.md, "A turn"): a piece from the reserve, still hidden, onto
        an empty square of the mover's home row."""
        sq = move.square
        if not self._reserve[side]:
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]}'s reserve is empty "
                f"(all {PIECES_PER_SIDE} pieces have entered)",
                "cave-reserve-empty",
            )
        if sq not in HOME_ROW[side]:
            raise IllegalMoveError(
                f"{SQUARES[sq]} is not on {SIDE_NAMES[side]}'s home row (rank {HOME_RANK[side]})",
                "cave-not-home-row",
            )
        if self._board[sq]:
            raise IllegalMoveError(
                f"{SQUARES[sq]} holds {self._unit_text(sq)}; a piece enters on an empty square",
                "cave-enter-occupied",
            )
        # Pieces get their ids in the order they enter ("What the record reveals").
        pid = side * PIECES_PER_SIDE + PIECES_PER_SIDE - self._reserve[side]
        self._board[sq] = (pid,)
        self._reserve[side] -= 1
        self._on_board[side] += 1
        self._history.append((move, self._passes, _EMPTY, _EMPTY, _EMPTY, 0))
        self._passes = 0
        self._check_end()

    def _push_step(self, move: Step, side: int) -> None:
        """Move and Join: one square orthogonally, onto an empty square or an own unit.

        docs/cave.md, "A turn": teams never split (the whole stack goes), and a team
        has at most 3 pieces.
        """
        origin, target = move.origin, move.target
        stack = self._own_unit(origin, side)
        relation = RELATION[origin * N_SQUARES + target]
        if relation != ORTH:
            what = {DIAG: "is diagonal", SAME: "stays on its square"}.get(
                relation, "is not between neighbouring squares"
            )
            raise IllegalMoveError(
                f"{move} {what}: a move goes one square orthogonally", "cave-move-not-orthogonal"
            )
        other = self._board[target]
        if other:
            if PIECE_SIDE[other[0]] != side:
                raise IllegalMoveError(
                    f"{SQUARES[target]} holds {self._unit_text(target)}: a move goes onto an "
                    "empty square or joins one's own pieces (attacks go diagonally)",
                    "cave-move-onto-enemy",
                )
            if len(stack) + len(other) > MAX_TEAM:
                raise IllegalMoveError(self._team_too_big(origin, target), "cave-team-too-big")
        self._board[origin] = _EMPTY
        self._board[target] = other + stack
        self._history.append((move, self._passes, stack, other, _EMPTY, 0))
        self._passes = 0

    def _team_too_big(self, origin: int, target: int) -> str:
        size, other = len(self._board[origin]), len(self._board[target])
        if other == MAX_TEAM:
            return f"a team of 3 on {SQUARES[target]} cannot take another piece"
        if size == MAX_TEAM:
            return f"a team of 3 on {SQUARES[origin]} cannot join another piece"
        return (
            f"{SQUARES[origin]} and {SQUARES[target]} hold {size} pieces each: a team has at most 3"
        )

    def _push_attack(self, move: Attack, side: int) -> None:
        """Attack: an own unit against an enemy unit one square diagonally ("Combat").

        The loser leaves the board, the whole team if it was a team; a winning
        attacker moves onto the defender's square.  Every single piece that fought
        is turned face up ("What the record reveals").
        """
        origin, target = move.origin, move.target
        board = self._board
        attacker = self._own_unit(origin, side)
        defender = board[target]
        relation = RELATION[origin * N_SQUARES + target]
        if relation != DIAG:
            what = {ORTH: "is orthogonal", SAME: "stays on its square"}.get(
                relation, "is not between neighbouring squares"
            )
            raise IllegalMoveError(
                f"{move} {what}: an attack goes one square diagonally", "cave-attack-not-diagonal"
            )
        if not defender:
            raise IllegalMoveError(
                f"{SQUARES[target]} is empty: an attack needs an enemy there", "cave-attack-empty"
            )
        if PIECE_SIDE[defender[0]] == side:
            raise IllegalMoveError(
                f"{SQUARES[target]} holds {self._unit_text(target)}, not an enemy",
                "cave-attack-own",
            )
        a_class = self._fighting_class(attacker, move.attacker, origin)
        d_class = self._fighting_class(defender, move.defender, target)
        turn = self._base + len(self._history) + 1
        revealed: list[int] = []
        for stack, c in ((attacker, a_class), (defender, d_class)):
            if len(stack) == 1 and self._identity[stack[0]] < 0:
                self._reveal(stack[0], c, turn)
                revealed.append(stack[0])
        won = ATTACKER_WINS[a_class][d_class]
        board[origin] = _EMPTY
        if won:
            board[target] = attacker
            self._on_board[1 - side] -= len(defender)
        else:
            self._on_board[side] -= len(attacker)
        self._history.append((move, self._passes, attacker, defender, tuple(revealed), int(won)))
        self._passes = 0
        self._check_end()

    def _push_pass(self, move: CaveMove, side: int) -> None:
        """Pass: only with no other action (docs/cave.md, "A turn"); two in a row end
        the game drawn ("End of the game and results")."""
        if self._has_action(side):
            example = self.legal_moves()[0]
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]} has a legal action (e.g. {example}): "
                "a side passes only when it has none",
                "cave-pass-not-allowed",
            )
        self._history.append((move, self._passes, _EMPTY, _EMPTY, _EMPTY, 0))
        self._passes += 1
        if self._passes >= 2:
            self._result = DRAW
            self._ended_at = self._base + len(self._history)

    def _own_unit(self, sq: int, side: int) -> tuple[int, ...]:
        """The stack on ``sq`` if the mover owns it; else the reason it cannot act."""
        stack = self._board[sq]
        if not stack:
            raise IllegalMoveError(f"{SQUARES[sq]} is empty", "cave-empty-square")
        if PIECE_SIDE[stack[0]] != side:
            raise IllegalMoveError(
                f"{SQUARES[sq]} holds {self._unit_text(sq)}; {SIDE_NAMES[side]} is to move",
                "cave-not-own-unit",
            )
        return stack

    def _unit_text(self, sq: int) -> str:
        """The unit on ``sq`` as messages name it: "Red's piece", "Black's team of 2"."""
        stack = self._board[sq]
        owner = SIDE_NAMES[PIECE_SIDE[stack[0]]]
        return f"{owner}'s piece" if len(stack) == 1 else f"{owner}'s team of {len(stack)}"

    # -- docs/cave.md, "Combat" and "What the record reveals" ----------------------
    def _fighting_class(self, stack: tuple[int, ...], letter: str | None, sq: int) -> int:
        """The class a unit fights as, once the letter written for it is checked.

        A team shows nothing, so no letter stands before its square; a single piece
        must be written with its identity, one that fits every reveal so far.
        """
        name = SQUARES[sq]
        if len(stack) > 1:
            if letter is not None:
                raise IllegalMoveError(
                    f"{name} holds a team of {len(stack)}, which fights as "
                    f"{article(TEAM_CLASS[len(stack)])} and shows no identity: write {name} "
                    "without a class letter",
                    "cave-team-letter",
                )
        else:
            self._check_identity(stack[0], letter, name)
        return unit_class(len(stack), letter)

    # -- docs/cave.md, "What the record reveals": hidden identities --------------

    def _hidden_letters(self, side: int) -> tuple[str, ...]:
        """What a piece of ``side`` never shown may be, strongest first.

        Every class the side has not shown in full.  This is exact: a side has
        exactly six pieces, so if its reveals fit 1 K, 2 Z, 3 S the pieces not
        shown can always take the rest.
        """
        shown = self._shown
        return tuple(LETTERS[c] for c in LETTER_ORDER if shown[side * 3 + c] < LIMIT[c])

    def _piece_letters(self, pid: int) -> frozenset[str]:
        """What piece ``pid`` may be: its own letter once shown, else the side's hidden letters."""
        c = self._identity[pid]
        if c >= 0:
            return frozenset(LETTERS[c])
        return frozenset(self._hidden_letters(PIECE_SIDE[pid]))

    def _letters_to_write(
        self, stack: tuple[int, ...], hidden: tuple[str, ...]
    ) -> tuple[str | None, ...]:
        """The letters an attack may write for a unit: none for a team, a shown piece's
        own, or any of ``hidden`` (its side's :meth:`_hidden_letters`) for a piece never shown."""
        if len(stack) > 1:
            return (None,)
        c = self._identity[stack[0]]
        return (LETTERS[c],) if c >= 0 else hidden

    def _check_identity(self, pid: int, letter: str | None, name: str) -> None:
        """Refuse a letter for the single piece ``pid`` (on square ``name``) that is
        missing, contradicts its own reveal, or shows more of a class than its side owns."""
        known = self._identity[pid]
        if letter is None:
            if known >= 0:
                raise IllegalMoveError(
                    f"a single piece fights as its identity: the piece on {name} was shown as "
                    f"{article(known)} {self._when(pid)}, write {LETTERS[known]}{name}",
                    "cave-letter-missing",
                )
            raise IllegalMoveError(
                f"a single piece fights as its identity: write K{name}, Z{name} or S{name}",
                "cave-letter-missing",
            )
        c = CLASS_OF[letter]
        if known >= 0:
            if known != c:
                raise IllegalMoveError(
                    f"the piece on {name} was shown as {article(known)} {self._when(pid)}, "
                    f"so it is not {article(c)}",
                    "cave-letter-contradicts",
                )
            return
        side = PIECE_SIDE[pid]
        if self._shown[side * 3 + c] >= LIMIT[c]:
            raise IllegalMoveError(
                f"{SIDE_NAMES[side]} has already shown {self._shown_in_full(side, c)}; the "
                f"piece on {name} cannot be {article(c)} too (each side has 1 K, 2 Z, 3 S)",
                "cave-class-exhausted",
            )

    def _shown_in_full(self, side: int, c: int) -> str:
        """Which pieces of class ``c`` ``side`` has shown, and when, for messages."""
        turns = sorted(self._shown_at[p] for p in side_pieces(side) if self._identity[p] == c)
        what = f"its {CLASS_NAMES[c]}" if LIMIT[c] == 1 else f"its {LIMIT[c]} {CLASS_PLURALS[c]}"
        if turns[0] == 0:  # a reveal from before a position string: turn not kept
            return f"{what} earlier"
        if LIMIT[c] == 1:
            return f"{what} at turn {turns[0]}"
        listed = ", ".join(str(t) for t in turns[:-1]) + f" and {turns[-1]}"
        return f"{what} (turns {listed})"

    def _reveal(self, pid: int, c: int, turn: int) -> None:
        """Piece ``pid`` is shown as class ``c`` at ``turn`` (0: a turn not known)."""
        self._identity[pid] = c
        self._shown_at[pid] = turn
        self._shown[PIECE_SIDE[pid] * 3 + c] += 1

    def _unreveal(self, pid: int) -> None:
        self._shown[PIECE_SIDE[pid] * 3 + self._identity[pid]] -= 1
        self._identity[pid] = -1
        self._shown_at[pid] = 0

    def _when(self, pid: int) -> str:
        """When a revealed piece was shown: "at turn 17", or "earlier" if not known."""
        turn = self._shown_at[pid]
        return f"at turn {turn}" if turn else "earlier"

    # -- docs/cave.md, "End of the game and results" -------------------------------
    def _check_end(self) -> None:
        """Whether the action just played ended the game.

        A side wins when the opponent has nothing left, on the board or in reserve,
        while the winner still has a piece on the board; both sides empty is a draw.
        """
        reserve, on_board = self._reserve, self._on_board
        red_out = reserve[RED] + on_board[RED] == 0
        black_out = reserve[BLACK] + on_board[BLACK] == 0
        if red_out and black_out:
            self._result = DRAW
        elif black_out and on_board[RED]:
            self._result = WIN_FIRST
        elif red_out and on_board[BLACK]:
            self._result = WIN_SECOND
        else:
            return
        self._ended_at = self._base + len(self._history)

    def _over_message(self) -> str:
        """Why no move follows: "the game is over: Black won at turn 36"."""
        if self._result == DRAW:
            how = "two passes in a row" if self._passes >= 2 else "no pieces left"
            return f"the game is over: drawn at turn {self._ended_at} ({how})"
        winner = "Red" if self._result == WIN_FIRST else "Black"
        return f"the game is over: {winner} won at turn {self._ended_at}"
