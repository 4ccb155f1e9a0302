"""The rules: a position of Tinkertown Cemetery, what may be played, and what it does.

Each rule of docs/tinkertown.md is written once, here, and cites its section.  A
position keeps one string per square for its stack, bottom to top, ``"w"`` for a
white zombie and ``"r"`` for a red one, so moving the top k zombies is a slice and
"does this group hold both colours" is two ``in`` tests.  The modules that
describe a position read it here; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, NamedTuple, Self

from notation.errors import (
    IllegalMoveError,
    MisuseError,
    misuse_unless,
    require_sequence,
)
from notation.games.base import (
    WIN_FIRST,
    WIN_SECOND,
    Position,
)
from notation.games.tinkertown.board import (
    B_GROUPS,
    CHAPEL,
    COLOURS,
    GRAVES,
    IS_GRAVE,
    MOVEMENT,
    NEIGHBOURS,
    OFF_BOARD,
    PATH_BITS,
    PATH_OF_GRAVES,
    PATHS,
    RED,
    RESURRECTION,
    SIDE_NAMES,
    SIZE,
    SQUARE_NAMES,
    WHITE,
    not_a_grave,
    parse_square,
    side_arg,
    square_arg,
    zombies,
)
from notation.games.tinkertown.moves import (
    DROPS,
    MOVES_ALONG,
    Drop,
    Move,
    Resurrection,
    TinkertownMove,
    not_a_move,
    with_mark,
)


def captures(landed: str, capacity: int, entered_onto: str | None = None) -> bool:
    """Whether the group ``landed``, on a grave of ``capacity`` where an action just
    ended, is captured; ``entered_onto`` is the group an entry was put on (None for
    a move).

    docs/tinkertown.md, "Capture": the group is captured when it holds both colours
    and is taller than the grave's capacity; by the entry exception, an entry onto
    a group that was one colour before never captures, so for an entry the colours
    looked at are those of the group it was put on.  A group for which this holds
    with no action just ended (``captures(stack, capacity)``) is one that "stands
    above capacity": the next action that lands on it captures it.
    """
    group = landed if entered_onto is None else entered_onto
    return len(landed) > capacity and "w" in group and "r" in group


class TinkertownUndo(NamedTuple):
    """The layout of one entry of a position's history, made by every push: all that
    :meth:`TinkertownRules.pop` needs to restore the position exactly.  Push keeps a
    plain tuple, so read an entry with ``TinkertownUndo._make(entry)``."""

    #: The move as pushed.
    move: TinkertownMove
    #: The (square, stack before) pairs the move changed; for an action of the movement
    #: stage the last pair is the grave where it ended.
    changes: tuple[tuple[int, str], ...]
    #: The square that got a tombstone (the move captured), or -1.
    tomb: int
    #: Whether the movement stage had begun before the move.
    movement: bool
    #: White's and Red's last placements before the move (-1: none).
    last_white: int
    last_red: int



# The tuple's constructor is made outside this module, where "TinkertownMove" names nothing: its
# type, for tools that read the annotations (the API reference).
TinkertownUndo.__new__.__annotations__["move"] = TinkertownMove
#: A history entry as push makes it: the fields of :class:`TinkertownUndo`.
_Entry = tuple[TinkertownMove, tuple[tuple[int, str], ...], int, bool, int, int]


class TinkertownRules(Position[TinkertownMove]):
    """A game of Tinkertown Cemetery in progress (mutable, with push/pop): the rules.

    The game hands out positions of the subclass
    :class:`notation.games.tinkertown.position.TinkertownPosition`, which describes
    them too (position strings, diagram, facts, annotations, board view).
    """

    #: ``position.game`` looks the game up by this name (base.Position.game).
    game_name: ClassVar[str | None] = "tinkertown"

    __slots__ = (
        "_base",
        "_capacity",
        "_controlled",
        "_history",
        "_last",
        "_movement",
        "_over",
        "_over_undo",
        "_stacks",
        "_to_move",
        "_tomb",
        "_tombs",
        "_win_turn",
        "_winner",
    )

    def __init__(self) -> None:
        self._stacks: list[str] = [""] * (SIZE * SIZE)
        self._tomb: list[bool] = [False] * (SIZE * SIZE)
        # The same as a bit set (bit sq), for the path test of every move.
        self._tombs = 0
        # docs/tinkertown.md, "The cemetery": a grave's capacity is the number of its
        # neighbours without a tombstone; kept up to date as tombstones come and go.
        # Meaningless (and never read) on a tombstone.
        self._capacity: list[int] = [len(n) for n in NEIGHBOURS]
        # Groups each side controls (top zombie of its colour): the win test.
        self._controlled: list[int] = [0, 0]
        # Each side's most recent placement in the resurrection stage (-1: none).
        self._last: list[int] = [-1, -1]
        self._movement = False
        self._to_move = WHITE
        self._winner = -1
        self._win_turn = 0
        # Turns played before the first move of the history (a position read from
        # a position string starts there).
        self._base = 0
        self._history: list[_Entry] = []
        # The graves whose group stands above capacity (over_capacity()), in square
        # order, or None: not kept until first asked for, then kept by every action.
        # _over_undo holds (len(history), the value before) for each push that changed it.
        self._over: tuple[int, ...] | None = None
        self._over_undo: list[tuple[int, tuple[int, ...] | None]] = []

    # -- positions made without play ------------------------------------------------
    @classmethod
    def setup(
        cls,
        stacks: Mapping[str, str],
        tombstones: Iterable[str] = (),
        to_move: int = WHITE,
        turn: int | None = None,
    ) -> Self:
        """A position of the movement stage, for puzzles, diagrams and tests.

        ``stacks`` maps square names to stacks written bottom to top ("wr": a
        red zombie on a white one); ``tombstones`` names graves with a
        tombstone.  ``turn`` is the number of turns played before (White
        moves after an even number); by default 0 with White to move and 1
        with Red.  If the side to move controls no group, the other side has
        already won.  ``ValueError`` if a square is not a grave, a stack has a
        letter other than w and r, a tombstone shares its grave with zombies,
        or ``turn`` does not fit the side to move
        (a :class:`MisuseError`, which is a ``ValueError``).
        """
        misuse_unless(isinstance(stacks, Mapping), "stacks", "a mapping of squares", stacks)
        require_sequence(tombstones, "tombstones", "square names")
        if type(to_move) is not int or to_move not in (WHITE, RED):
            raise MisuseError(f"to_move is WHITE (0) or RED (1), not {to_move!r}")
        if turn is None:
            turn = to_move
        if type(turn) is not int or turn < 0 or turn % 2 != to_move:
            raise MisuseError(
                f"turn {turn} does not fit {SIDE_NAMES[to_move]} to move: White moves "
                "after an even number of turns, Red after an odd one"
            )
        pos = cls()
        pos._movement = True
        pos._to_move = to_move
        pos._base = turn
        groups: dict[int, str] = {}
        for name, stack in stacks.items():
            sq = _grave_arg(name)
            groups[sq] = stack.lower()
            if groups[sq].strip(COLOURS):
                raise MisuseError(f"stack {stack!r} on {name}: only w and r are zombies")
        for name in tombstones:
            sq = _grave_arg(name)
            if groups.get(sq):
                raise MisuseError(f"{name} holds zombies and a tombstone")
            if not pos._tomb[sq]:
                pos._bury(sq)
        for sq, group in groups.items():
            pos._set(sq, group)
        pos._settle()
        return pos

    def _settle(self) -> None:
        """Derive the outcome of a position made without play (setup, strings).

        docs/tinkertown.md, "Position strings": in the movement stage the side to
        move controls a group unless the last action left it none, and that action
        won: so a side to move without a group has lost.
        """
        side = self._to_move
        if self._movement and not self._controlled[side]:
            self._winner = 1 - side
            self._win_turn = self.turn

    # -- the protocol ---------------------------------------------------------------
    @property
    def turn(self) -> int:
        """How many turns have been played (0 at the start)."""
        return self._base + len(self._history)

    @property
    def mover(self) -> str:
        """The side to move, "White" or "Red"."""
        return SIDE_NAMES[self._to_move]

    def outcome(self) -> str | None:
        """``1-0`` or ``0-1`` once a side has won, else None (docs/tinkertown.md,
        "The end": there are no draws)."""
        if self._winner < 0:
            return None
        return WIN_FIRST if self._winner == WHITE else WIN_SECOND

    def push(self, move: TinkertownMove) -> None:
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it.

        MisuseError (position unchanged) for an object that is not a Tinkertown move.
        """
        if self._winner >= 0:
            if not isinstance(move, Drop | Resurrection | Move):
                raise not_a_move(move)
            raise IllegalMoveError(
                f"the game is over: {SIDE_NAMES[self._winner]} won at turn {self._win_turn}",
                "tinkertown-game-over",
            )
        # docs/tinkertown.md, "Notation": a move in the wrong shape for the stage is
        # illegal, not malformed.
        if self._movement:
            if isinstance(move, Move):
                self._push_move(move)
            elif isinstance(move, Drop):
                self._push_entry(move)
            else:
                # The type is checked only here, off the path of every legal move.
                if not isinstance(move, Resurrection):
                    raise not_a_move(move)
                raise IllegalMoveError(
                    "the resurrection stage is over: a turn is one move or one entry, "
                    f"{self.mover} to move",
                    "tinkertown-resurrection-over",
                )
        elif isinstance(move, Resurrection):
            self._push_pair(move)
        elif isinstance(move, Drop):
            self._push_single(move)
        else:
            if not isinstance(move, Move):
                raise not_a_move(move)
            raise IllegalMoveError(
                f"the resurrection stage is on: {self.mover} places zombies; "
                "groups move only in the movement stage",
                "tinkertown-movement-not-started",
            )

    def pop(self) -> TinkertownMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
        history = self._history
        undo = self._over_undo
        if undo and undo[-1][0] == len(history):  # the last push changed _over
            self._over = undo.pop()[1]
        move, changes, tomb, movement, last_white, last_red = history.pop()
        if tomb >= 0:
            self._tomb[tomb] = False
            self._tombs &= ~(1 << tomb)
            capacity = self._capacity
            for n in NEIGHBOURS[tomb]:
                capacity[n] += 1
        for sq, stack in changes:
            self._set(sq, stack)
        self._movement = movement
        self._last[0] = last_white
        self._last[1] = last_red
        self._winner = -1
        self._to_move ^= 1
        return move

    def legal_moves(self) -> list[TinkertownMove]:
        """Every legal move, canonical: a capture carries its mark, nothing else does."""
        if self._winner >= 0:
            return []
        if self._movement:
            return self._movement_moves()
        return self._resurrection_moves()

    def canonical(self, move: TinkertownMove) -> TinkertownMove:
        """``move`` as legal_moves() writes it: the capture mark exactly when it captures
        (docs/tinkertown.md, "Notation": the mark is optional but checked).

        A move that is illegal here (whatever its mark) comes back unchanged;
        MisuseError for an object that is not a Tinkertown move.
        """
        plain = with_mark(move, False)
        try:
            self.push(plain)
        except IllegalMoveError:
            return move
        captured = TinkertownUndo._make(self._history[-1]).tomb >= 0
        self.pop()
        if move.marked and not captured:
            return move
        return with_mark(plain, captured)

    def last_move_canonical(self) -> TinkertownMove:
        """The last move pushed as :meth:`canonical` wrote it before the push: the
        capture mark exactly when it captured (the history says whether it did)."""
        if not self._history:
            raise MisuseError("last_move_canonical() with no move pushed on this position")
        entry = TinkertownUndo._make(self._history[-1])
        move = entry.move
        captured = entry.tomb >= 0
        if move.marked is captured:  # written as canonical (nearly always): itself
            return move
        return with_mark(move, captured)

    def copy(self) -> Self:
        """An independent copy, history included."""
        other = self.__class__.__new__(self.__class__)
        other._stacks = self._stacks.copy()
        other._tomb = self._tomb.copy()
        other._tombs = self._tombs
        other._capacity = self._capacity.copy()
        other._controlled = self._controlled.copy()
        other._last = self._last.copy()
        other._movement = self._movement
        other._to_move = self._to_move
        other._winner = self._winner
        other._win_turn = self._win_turn
        other._base = self._base
        other._history = self._history.copy()
        other._over = self._over
        other._over_undo = self._over_undo.copy()
        return other

    def winning_move(self) -> TinkertownMove | None:
        """A move that wins at once for the side to move, or None (movement stage).

        docs/tinkertown.md, "Move assessment": only an opponent with one group or
        none can lose at once, and then an entry wins: on that last group (covered or
        captured), or anywhere if there is none.
        """
        if not self._movement or self._winner >= 0:
            return None
        mover = self._to_move
        count = self._controlled[1 - mover]
        if count > 1:
            return None
        stacks, tomb, capacity = self._stacks, self._tomb, self._capacity
        for sq in GRAVES:
            if tomb[sq]:
                continue
            before = stacks[sq]
            if count and (not before or before[-1] != COLOURS[1 - mover]):
                continue
            return DROPS[sq][captures(before + COLOURS[mover], capacity[sq], before)]
        return None

    # -- read-only accessors for renderers and tools --------------------------------
    @property
    def stage(self) -> str:
        """``"resurrection"`` or ``"movement"``."""
        return MOVEMENT if self._movement else RESURRECTION

    @property
    def side_to_move(self) -> int:
        """WHITE (0) or RED (1); :attr:`mover` is the same as a word."""
        return self._to_move

    @property
    def winner(self) -> int | None:
        """WHITE or RED once the game is won, else None."""
        return None if self._winner < 0 else self._winner

    def stack(self, square: int | str) -> str:
        """The zombies on ``square``, bottom to top ("w" white, "r" red; "" none).

        Like every accessor here, ``square`` is an index 0-63 or a name ("h5").
        """
        return self._stacks[square_arg(square)]

    def groups(self) -> dict[int, str]:
        """Every occupied grave and its stack (bottom to top), in square order."""
        return {sq: st for sq, st in enumerate(self._stacks) if st}

    def controller(self, square: int | str) -> int | None:
        """WHITE or RED, the side whose zombie tops the group on ``square``; None if empty.

        docs/tinkertown.md, "Zombies, groups, tombstones": whoever owns the top
        zombie controls the group.
        """
        st = self._stacks[square_arg(square)]
        return None if not st else COLOURS.index(st[-1])

    def is_tombstone(self, square: int | str) -> bool:
        """Whether a tombstone stands on ``square``."""
        return self._tomb[square_arg(square)]

    @property
    def tombstones(self) -> frozenset[int]:
        """The squares that carry a tombstone."""
        return frozenset(sq for sq in GRAVES if self._tomb[sq])

    def capacity(self, square: int | str) -> int:
        """Graves next to ``square`` without a tombstone; 0 for a non-grave or a tombstone."""
        square = square_arg(square)
        if not IS_GRAVE[square] or self._tomb[square]:
            return 0
        return self._capacity[square]

    def zombie_count(self, side: int) -> int:
        """How many zombies of ``side`` (WHITE or RED) are on the board."""
        colour = COLOURS[side_arg(side)]
        return sum(st.count(colour) for st in self._stacks)

    def group_count(self, side: int) -> int:
        """How many groups ``side`` controls."""
        return self._controlled[side_arg(side)]

    def last_placement(self, side: int) -> int | None:
        """``side``'s most recent placement of the resurrection stage, or None."""
        sq = self._last[side_arg(side)]
        return None if sq < 0 else sq

    @property
    def move_stack(self) -> list[TinkertownMove]:
        """The moves played so far, first to last (a new list)."""
        return [TinkertownUndo._make(entry).move for entry in self._history]

    def over_capacity(self) -> list[int]:
        """Graves whose group holds both colours and stands above capacity, in square order.

        Such a group waits to be captured by the next action that lands on it
        (docs/tinkertown.md, "Capture": the entry exception and new tombstones
        leave them).
        """
        return list(self._over_squares())

    def _over_squares(self) -> tuple[int, ...]:
        """:meth:`over_capacity` as a tuple, the same object while the answer is the
        same (for the annotations, which key their text by it)."""
        over = self._over
        if over is None:  # the first question: from now on pushes keep the answer
            stacks, capacity = self._stacks, self._capacity
            over = self._over = tuple(sq for sq in GRAVES if captures(stacks[sq], capacity[sq]))
            # Popped past this point, the answer is not known any more.
            self._over_undo.append((len(self._history), None))
        return over

    # -- the resurrection stage (docs/tinkertown.md, "The resurrection stage") -----
    def _b_candidates(self) -> list[int]:
        """Empty graves whose neighbours are all empty: where (b) may go now."""
        stacks = self._stacks
        return [
            sq for sq in GRAVES if not stacks[sq] and not any(stacks[n] for n in NEIGHBOURS[sq])
        ]

    def _has_b_candidate(self) -> bool:
        """Whether :meth:`_b_candidates` has any, found without listing them all (a
        check of every resurrection turn, profiled)."""
        stacks = self._stacks
        for group in B_GROUPS:
            for sq in group:
                if stacks[sq]:
                    break
            else:
                return True
        return False

    def _check_a(self, sq: int) -> None:
        """Refuse ``sq`` as placement (a) (or White's opening placement): (a) goes on an
        empty grave next to the opponent's most recent placement."""
        if not IS_GRAVE[sq]:
            raise _no_grave(sq)
        if self._stacks[sq]:
            raise IllegalMoveError(f"{SQUARE_NAMES[sq]} is occupied", "tinkertown-occupied")
        side = self._to_move
        last = self._last[1 - side]
        if last >= 0 and sq not in NEIGHBOURS[last]:
            raise IllegalMoveError(
                f"{SQUARE_NAMES[sq]} is not next to {SIDE_NAMES[1 - side]}'s last placement "
                f"{SQUARE_NAMES[last]}",
                "tinkertown-not-next-to-last",
            )

    def _check_b(self, a: int, b: int) -> None:
        """Refuse ``b`` as placement (b) after (a) on ``a``: (b) goes on an empty grave
        all of whose neighbours are empty, decided with (a) on the board (ruling)."""
        stacks = self._stacks
        stacks[a] = "x"
        try:
            if not IS_GRAVE[b]:
                raise _no_grave(b)
            if not self._has_b_candidate():
                raise IllegalMoveError(
                    f"no grave has all its neighbours empty after {SQUARE_NAMES[a]}: "
                    f"the turn is the single placement {SQUARE_NAMES[a]}, "
                    "which ends the resurrection stage",
                    "tinkertown-no-grave-for-b",
                )
            if stacks[b]:
                raise IllegalMoveError(f"{SQUARE_NAMES[b]} is occupied", "tinkertown-occupied")
            busy = next((n for n in NEIGHBOURS[b] if stacks[n]), -1)
            if busy >= 0:
                raise IllegalMoveError(
                    f"{SQUARE_NAMES[b]} has an occupied neighbour ({SQUARE_NAMES[busy]})",
                    "tinkertown-neighbour-occupied",
                )
        finally:
            stacks[a] = ""

    def _b_after(self, a: int) -> list[int]:
        """Where (b) may go once (a) is on ``a`` (ruling: decided with (a) on the board)."""
        stacks = self._stacks
        stacks[a] = "x"
        candidates = self._b_candidates()
        stacks[a] = ""
        return candidates

    def _push_single(self, move: Drop) -> None:
        sq = move.square
        self._check_a(sq)
        opening = self._last[WHITE] < 0
        # docs/tinkertown.md, "The resurrection stage", 3: after the opening the
        # single placement is (a) alone, allowed only when (b) is impossible.
        if not opening:
            self._stacks[sq] = "x"
            possible = self._has_b_candidate()
            self._stacks[sq] = ""
            if possible:
                raise IllegalMoveError(
                    f"a grave for (b) remains after {SQUARE_NAMES[sq]} "
                    f"(e.g. {SQUARE_NAMES[self._b_after(sq)[0]]}): the turn is two placements",
                    "tinkertown-second-placement-missing",
                )
        self._place(move, (sq,))
        # After the opening the single placement ends the stage; the other side,
        # next by plain alternation, moves first.
        self._movement = not opening

    def _push_pair(self, move: Resurrection) -> None:
        # docs/tinkertown.md, "The resurrection stage", 1 and 2: White's first turn
        # is one placement; then (a), then (b).
        if self._last[WHITE] < 0:
            raise IllegalMoveError("White's first turn is one placement", "tinkertown-opening-pair")
        self._check_a(move.a)
        self._check_b(move.a, move.b)
        self._place(move, (move.a, move.b))

    def _place(self, move: Drop | Resurrection, squares: tuple[int, ...]) -> None:
        """Put one zombie of the side to move on each of ``squares`` (empty graves,
        checked), the last of them its most recent placement."""
        # docs/tinkertown.md, "Notation": an x on a resurrection placement is illegal.
        if move.marked:
            raise IllegalMoveError(
                "a placement never captures: remove the x", "tinkertown-placement-capture-mark"
            )
        side = self._to_move
        last = self._last
        changes = tuple([(sq, "") for sq in squares])
        self._history.append((move, changes, -1, False, last[0], last[1]))
        for sq in squares:
            self._set(sq, COLOURS[side])
        last[side] = squares[-1]
        self._to_move ^= 1

    def _resurrection_moves(self) -> list[TinkertownMove]:
        if self._last[WHITE] < 0:
            return [DROPS[sq][0] for sq in GRAVES]
        moves: list[TinkertownMove] = []
        for a in NEIGHBOURS[self._last[1 - self._to_move]]:
            if self._stacks[a]:
                continue
            candidates = self._b_after(a)
            if candidates:
                moves.extend(Resurrection(a, b) for b in candidates)
            else:
                moves.append(DROPS[a][0])
        return moves

    # -- the movement stage (docs/tinkertown.md, "The movement stage") -------------
    def _push_move(self, move: Move) -> None:
        """Move: the top k zombies of a group the mover controls travel exactly k
        graves in a straight line, over graves without a tombstone."""
        origin, target = move.origin, move.target
        if not (IS_GRAVE[origin] and IS_GRAVE[target]):
            raise _no_grave(target if IS_GRAVE[origin] else origin)
        stacks, tomb = self._stacks, self._tomb
        side = self._to_move
        if tomb[origin]:
            raise IllegalMoveError(
                f"{SQUARE_NAMES[origin]} holds a tombstone", "tinkertown-tombstone"
            )
        group = stacks[origin]
        if not group:
            raise IllegalMoveError(
                f"{SQUARE_NAMES[origin]} is empty: no group to move", "tinkertown-no-group"
            )
        if group[-1] != COLOURS[side]:
            raise IllegalMoveError(
                f"the top zombie on {SQUARE_NAMES[origin]} is {SIDE_NAMES[1 - side]}'s "
                f"({SIDE_NAMES[side]} to move)",
                "tinkertown-not-controlled",
            )
        index = origin * 64 + target
        path = PATHS[index]
        if path is None:
            if origin == target:
                raise IllegalMoveError(
                    f"{move}: a move must leave its grave", "tinkertown-move-stays"
                )
            raise IllegalMoveError(
                f"{move}: {SQUARE_NAMES[target]} is not in a straight orthogonal line "
                f"from {SQUARE_NAMES[origin]}",
                "tinkertown-not-straight",
            )
        k = len(path)
        if k > len(group):
            raise IllegalMoveError(
                f"{SQUARE_NAMES[origin]} holds {zombies(len(group))}; a move of {k} needs {k}",
                "tinkertown-too-few-zombies",
            )
        # The squares are checked in order only when one is not a plain grave (the
        # table says which paths have none) or holds a tombstone: the first one wrong
        # is the message.  Ruling: the chapel and the squares outside the cemetery
        # block a move exactly like a tombstone.
        if not PATH_OF_GRAVES[index] or self._tombs & PATH_BITS[index]:
            for sq in path:
                if sq in CHAPEL:
                    raise IllegalMoveError(
                        f"{move} crosses the chapel at {SQUARE_NAMES[sq]}",
                        "tinkertown-crosses-chapel",
                    )
                if sq in OFF_BOARD:
                    raise IllegalMoveError(
                        f"{move} leaves the cemetery at {SQUARE_NAMES[sq]}",
                        "tinkertown-leaves-cemetery",
                    )
                if tomb[sq]:
                    if sq == target:
                        raise IllegalMoveError(
                            f"{SQUARE_NAMES[target]} holds a tombstone", "tinkertown-tombstone"
                        )
                    raise IllegalMoveError(
                        f"{move} crosses a tombstone at {SQUARE_NAMES[sq]}",
                        "tinkertown-crosses-tombstone",
                    )
        self._land(move, target, group[-k:], origin)

    def _push_entry(self, move: Drop) -> None:
        """Enter: one zombie of the mover's colour on any grave without a tombstone."""
        sq = move.square
        if not IS_GRAVE[sq]:
            raise _no_grave(sq)
        if self._tomb[sq]:
            raise IllegalMoveError(f"{SQUARE_NAMES[sq]} holds a tombstone", "tinkertown-tombstone")
        self._land(move, sq, COLOURS[self._to_move], -1)

    def _land(self, move: Move | Drop, square: int, arriving: str, origin: int) -> None:
        """The end of every action of the movement stage: ``arriving`` (the zombies,
        bottom to top) land on ``square``, from the group on ``origin`` (-1 for an
        entry); the capture, then the end of the game."""
        stacks = self._stacks
        before = stacks[square]
        landed = before + arriving
        entry = origin < 0
        capture = captures(landed, self._capacity[square], before if entry else None)
        if move.marked and not capture:
            raise self._no_capture(square, before, landed, entry)
        side = self._to_move
        last = self._last
        controlled = self._controlled
        # What _set does for both squares, inline: the origin's top zombie is the
        # mover's; what stays on it and what lands (or nothing) change who controls a group.
        if entry:
            changes: tuple[tuple[int, str], ...] = ((square, before),)
        else:
            group = stacks[origin]
            changes = ((origin, group), (square, before))
            rest = group[: -len(arriving)]
            stacks[origin] = rest
            controlled[side] -= 1
            if rest:
                controlled[rest[-1] == "r"] += 1
        self._history.append((move, changes, square if capture else -1, True, last[0], last[1]))
        if before:
            controlled[before[-1] == "r"] -= 1
        if capture:
            # docs/tinkertown.md, "Capture": the whole group leaves the board and a
            # tombstone is put on the grave.
            stacks[square] = ""
            self._bury(square)
        else:
            stacks[square] = landed
            controlled[side] += 1  # landed ends with the mover's zombie
        self._to_move = 1 - side
        over = self._over
        if over is not None:  # kept (see __init__): only these actions change it
            if capture:  # the group goes, and the tombstone lowers its neighbours' capacity
                self._track_over(over, (square, origin, *NEIGHBOURS[square]))
            elif entry:  # the exception can leave the group above capacity
                if captures(landed, self._capacity[square]):
                    self._track_over(over, (square,))
            elif origin in over:  # what stays behind may not be above capacity any more
                self._track_over(over, (origin,))
        # docs/tinkertown.md, "The end": after every action, if the mover's opponent
        # controls no group, the mover has won (even if its own last group vanished).
        if not controlled[1 - side]:
            self._winner = side
            self._win_turn = self._base + len(self._history)

    def _track_over(self, over: tuple[int, ...], squares: tuple[int, ...]) -> None:
        """Bring ``_over`` (``over`` before the action) up to date after an action
        that changed the graves ``squares`` (or their capacity; -1 for none): the
        others keep their answer."""
        stacks, capacity = self._stacks, self._capacity
        now = set(over).difference(squares)
        now.update(sq for sq in squares if sq >= 0 and captures(stacks[sq], capacity[sq]))
        if len(now) != len(over) or not now.issuperset(over):
            self._over_undo.append((len(self._history), over))
            self._over = tuple(sorted(now))

    def _no_capture(self, sq: int, before: str, landed: str, entry: bool) -> IllegalMoveError:
        """The error for a capture mark on an action landing on ``sq`` that captures nothing."""
        if entry and before and before.count(before[0]) == len(before):
            return IllegalMoveError(
                f"no capture on {SQUARE_NAMES[sq]}: an entry onto a one-coloured group "
                "never captures; remove the x",
                "tinkertown-entry-no-capture",
            )
        colours = "both colours" if "w" in landed and "r" in landed else "one colour"
        return IllegalMoveError(
            f"no capture on {SQUARE_NAMES[sq]} ({zombies(len(landed))}, {colours}, "
            f"capacity {self._capacity[sq]}): remove the x",
            "tinkertown-no-capture",
        )

    def _movement_moves(self) -> list[TinkertownMove]:
        stacks, tomb, capacity = self._stacks, self._tomb, self._capacity
        colour = COLOURS[self._to_move]
        moves: list[TinkertownMove] = []
        for origin in GRAVES:
            group = stacks[origin]
            if not group or group[-1] != colour:
                continue
            height = len(group)
            for ray in MOVES_ALONG[origin]:
                for k, (target, move) in enumerate(ray, 1):
                    if k > height or tomb[target]:
                        break
                    landed = stacks[target] + group[-k:]
                    moves.append(move[captures(landed, capacity[target])])
        for sq in GRAVES:
            if not tomb[sq]:
                before = stacks[sq]
                moves.append(DROPS[sq][captures(before + colour, capacity[sq], before)])
        return moves

    # -- bookkeeping ------------------------------------------------------------------
    def _set(self, sq: int, stack: str) -> None:
        """Put ``stack`` on ``sq``, keeping the count of controlled groups right."""
        stacks = self._stacks
        old = stacks[sq]
        if old:
            self._controlled[old[-1] == "r"] -= 1
        if stack:
            self._controlled[stack[-1] == "r"] += 1
        stacks[sq] = stack

    def _bury(self, sq: int) -> None:
        """A tombstone on ``sq``: the neighbours lose one capacity, and nothing else
        happens (docs/tinkertown.md, "Capture": no chain reaction)."""
        self._tomb[sq] = True
        self._tombs |= 1 << sq
        capacity = self._capacity
        for n in NEIGHBOURS[sq]:
            capacity[n] -= 1


def _no_grave(sq: int) -> IllegalMoveError:
    """The error for a zombie placed, entered or moved on ``sq``, which is no grave."""
    return IllegalMoveError(
        not_a_grave(sq) or f"{SQUARE_NAMES[sq]} is not a grave",
        "tinkertown-chapel" if sq in CHAPEL else "tinkertown-off-board",
    )


def _grave_arg(name: str) -> int:
    """The grave called ``name``; MisuseError if it is no square or no grave."""
    sq = parse_square(name)
    why = not_a_grave(sq)
    if why:
        raise MisuseError(why)
    return sq
