"""The rules of Zombie Kidz: the position, and what a turn does to it.

docs/zombie-kidz.md, "A turn": the roll, the step, then clearing and locking,
which happen by themselves; "Results": everybody wins or loses together.  A
position is a few lists and ints changed in place by :meth:`ZombieKidzRules.push`
and restored by :meth:`ZombieKidzRules.pop` from one :class:`ZombieKidzUndo` per turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, Self

from notation.errors import IllegalMoveError, MisuseError
from notation.games.base import Position
from notation.games.zombie_kidz.board import (
    ALL_GATES_LOCKED,
    CENTRE,
    DEADLY,
    DEFAULT_PLAYERS,
    DEFAULT_ZOMBIES,
    DICE,
    DIE_TOMB,
    GATE_BIT,
    GATE_NAMES,
    GATES,
    NEIGHBOURS_MANY,
    NEIGHBOURS_TWO,
    PLAYER_COUNTS,
    PLAYERS_WIN,
    STEPS_MANY,
    STEPS_TWO,
    ZOMBIE_COUNTS,
    ZOMBIES_WIN,
    ZONE_INDEX,
    ZONE_NAMES,
    square_arg,
    zone_list,
)
from notation.games.zombie_kidz.moves import TURNS, ZombieKidzMove, not_a_move
from notation.games.zombie_kidz.words import (
    ALL_GATES_ARE_LOCKED,
    NO_ZOMBIE_LEFT,
    RESERVE_EMPTY,
    caught,
)

if TYPE_CHECKING:
    from fractions import Fraction


class ZombieKidzUndo(NamedTuple):
    """The layout of what :meth:`ZombieKidzRules.push` keeps to undo one turn (one
    entry per turn played, in the position's history): push keeps a plain tuple, so
    read an entry with ``ZombieKidzUndo._make(entry)``."""

    #: The turn as pushed.
    move: ZombieKidzMove
    #: The tomb the roll filled, or -1 (white, or a losing roll with the reserve empty).
    tomb: int
    #: The pawn's zone before the turn.
    origin: int
    #: Zombies eliminated on the zone the pawn ended on.
    cleared: int
    #: The gate bit the turn locked, or 0.
    lock: int



# The tuple's constructor is made outside this module, where "ZombieKidzMove" names nothing: its
# type, for tools that read the annotations (the API reference).
ZombieKidzUndo.__new__.__annotations__["move"] = ZombieKidzMove
#: A history entry as push makes it: the fields of :class:`ZombieKidzUndo`.
_Entry = tuple[ZombieKidzMove, int, int, int, int]


#: Zombies per zone at the start: one on each gate (copied into every new position).
_START_ZOMBIES: list[int] = [1 if z in GATES else 0 for z in range(len(ZONE_NAMES))]


#: The player and zombie counts a game may have (a set: a position is made per record).
_PLAYERS: Final = frozenset(PLAYER_COUNTS.values())
_ZOMBIES: Final = frozenset(ZOMBIE_COUNTS.values())


class ZombieKidzRules(Position[ZombieKidzMove]):
    """A game in progress: zombies per zone, pawns, locks, reserve, turn; the rules only.

    The game hands out positions of the subclass
    :class:`notation.games.zombie_kidz.position.ZombieKidzPosition`, which describes
    them too (position strings, diagram, facts, board view).
    """

    #: ``position.game`` looks the game up by this name (base.Position.game).
    game_name: ClassVar[str | None] = "zombie-kidz"

    __slots__ = (
        "_end",
        "_history",
        "_locked",
        "_neighbours",
        "_pawn_count",
        "_pawns",
        "_players",
        "_reserve",
        "_steps",
        "_total",
        "_turn",
        "_zombies",
    )

    def __init__(self, players: int = DEFAULT_PLAYERS, zombies: int = DEFAULT_ZOMBIES) -> None:
        # docs/zombie-kidz.md, "Setting up".
        if type(players) is not int or players not in _PLAYERS:
            raise MisuseError(f"Zombie Kidz is played by 2 to 4 players, not {players!r}")
        if type(zombies) is not int or zombies not in _ZOMBIES:
            raise MisuseError(f"Zombie Kidz is played with 8 or 7 zombies, not {zombies!r}")
        self._players = players
        self._total = zombies
        # Two players use the side of the board with the diagonals.
        two_player_side = players == 2
        self._neighbours = NEIGHBOURS_TWO if two_player_side else NEIGHBOURS_MANY
        self._steps = STEPS_TWO if two_player_side else STEPS_MANY
        # One zombie on each gate, the rest in the reserve; every pawn on b2.
        self._zombies = _START_ZOMBIES.copy()
        self._reserve = zombies - len(GATES)
        self._pawns = [CENTRE] * players
        # Pawns per zone, kept with _pawns: the rules ask "is a pawn on this zone?".
        self._pawn_count = [0] * len(ZONE_NAMES)
        self._pawn_count[CENTRE] = players
        # Locked gates, as a set of GATE_BIT bits.
        self._locked = 0
        self._turn = 0
        # (result, turn, why) once the rules have ended the game.
        self._end: tuple[str, int, str] | None = None
        self._history: list[_Entry] = []

    def _load(
        self,
        zombies: list[int],
        pawns: list[int],
        locked: int,
        turn: int,
        end: tuple[str, int, str] | None,
    ) -> None:
        """Put a position in place (a copy, a position string read), with no history;
        the reserve is whatever the board leaves of the total."""
        self._zombies = zombies
        self._reserve = self._total - sum(zombies)
        self._pawns = pawns
        self._pawn_count = [0] * len(ZONE_NAMES)
        for zone in pawns:
            self._pawn_count[zone] += 1
        self._locked = locked
        self._turn = turn
        self._end = end

    # -- what the position holds ---------------------------------------------------
    @property
    def turn(self) -> int:
        return self._turn

    @property
    def round_size(self) -> int:
        return self._players

    @property
    def mover(self) -> str:
        return f"player {self._turn % self._players + 1}"

    @property
    def players(self) -> int:
        """How many players play (one pawn each)."""
        return self._players

    @property
    def zombie_total(self) -> int:
        """Zombies in the game: 8, or 7 in the harder game."""
        return self._total

    @property
    def reserve(self) -> int:
        """Zombies off the board, waiting for a roll to bring them on (docs/zombie-kidz.md)."""
        return self._reserve

    def zombies_on(self, zone: int | str) -> int:
        """Zombies on ``zone``, a name ("b2") or an index 0-8 like every zone here."""
        return self._zombies[square_arg(zone)]

    def pawn_zone(self, player: int) -> str:
        """Where player ``player`` (1 to :attr:`players`) stands; MisuseError for another."""
        if type(player) is not int or not 1 <= player <= self._players:
            raise MisuseError(
                f"{player!r} is not a player of this game: players are 1 to {self._players}"
            )
        return ZONE_NAMES[self._pawns[player - 1]]

    def is_locked(self, gate: int | str) -> bool:
        """Whether ``gate`` (a zone name or index) is locked; always False for a tomb."""
        return bool(self._locked & GATE_BIT[square_arg(gate)])

    @property
    def locked_gates(self) -> tuple[str, ...]:
        """The names of the gates locked so far, in board order."""
        return tuple(g for g in GATE_NAMES if self._locked & GATE_BIT[ZONE_INDEX[g]])

    def outcome(self) -> str | None:
        return None if self._end is None else self._end[0]

    @property
    def end_reason(self) -> str | None:
        """Why the rules ended the game, in words, or ``None`` while it goes on."""
        return None if self._end is None else self._end[2]

    # -- the rules of a turn: docs/zombie-kidz.md, "A turn" ------------------------
    def _roll_loses(self, tomb: int) -> str | None:
        """Why a coloured roll, which brings a zombie to ``tomb``, loses the game, or None.

        docs/zombie-kidz.md, "A turn", 1. Roll: the zombie comes from the reserve;
        everybody loses if it is empty, or if a pawn then stands among 3 zombies.
        (White brings no zombie: callers ask only about colours.)
        """
        if self._reserve == 0:
            return RESERVE_EMPTY
        held = self._zombies[tomb] + 1
        if held >= DEADLY and self._pawn_count[tomb]:
            return caught(self._pawns, tomb, held)
        return None

    def _gate_locked(self, origin: int, target: int) -> int:
        """The gate bit the mover locks by ending the turn on ``target``, or 0.

        docs/zombie-kidz.md, "A turn", 4. Lock: a gate not yet locked, with another
        pawn on it too, is locked without a choice.
        """
        bit = GATE_BIT[target]
        if bit and not self._locked & bit and self._pawn_count[target] - (target == origin):
            return bit
        return 0

    def push(self, move: ZombieKidzMove) -> None:
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it.

        MisuseError (position unchanged) for an object that is not a ZombieKidzMove.
        """
        # The one check of a move's type; its fields were checked when it was made.
        if type(move) is not ZombieKidzMove:
            raise not_a_move(move)
        if self._end is not None:
            result, at_turn, why = self._end
            winners = "players" if result == PLAYERS_WIN else "zombies"
            raise IllegalMoveError(
                f"the game is over: the {winners} won at turn {at_turn} ({why})",
                "zombie-kidz-game-over",
            )
        tomb = DIE_TOMB[move.die]
        player = self._turn % self._players
        origin = self._pawns[player]

        # 1. Roll.  _roll_loses's test, inline; it says why.
        zombies = self._zombies
        if tomb >= 0 and (
            self._reserve == 0 or (zombies[tomb] + 1 >= DEADLY and self._pawn_count[tomb])
        ):
            lost = self._roll_loses(tomb)
            assert lost is not None
            self._lose_at_roll(move, tomb, origin, lost)
            return

        # 2. Step (or stay).
        target = move.target
        if target is None:
            target = origin
        elif (
            (move.origin is not None and move.origin != origin)
            or target == origin
            or target not in self._neighbours[origin]
        ):
            self._check_path(move, origin, target)  # raises the error that applies
        # A zone with 3 or more zombies, counting the one just placed, is closed to pawns.
        cleared = zombies[target] + (target == tomb)
        if cleared >= DEADLY:
            raise IllegalMoveError(
                f"{ZONE_NAMES[target]} holds {cleared} zombies; no pawn may enter",
                "zombie-kidz-zone-closed",
            )

        # 3. Clear: the zombies on the mover's zone go back to the reserve; 4. Lock.
        # Both happen by themselves; the marks written must fit.
        # _gate_locked(origin, target), inline.
        lock = GATE_BIT[target]
        if lock and (self._locked & lock or not self._pawn_count[target] - (target == origin)):
            lock = 0
        if move.eliminated and not cleared:
            raise IllegalMoveError(
                f"no zombie is eliminated on {ZONE_NAMES[target]} (0 zombies there): remove the x",
                "zombie-kidz-no-elimination",
            )
        if move.locked and not lock:
            raise IllegalMoveError(
                self._why_no_lock(target) + ": remove the L", "zombie-kidz-no-lock"
            )

        if tomb >= 0:
            zombies[tomb] += 1
            self._reserve -= 1
        if target != origin:
            self._pawns[player] = target
            self._pawn_count[origin] -= 1
            self._pawn_count[target] += 1
        if cleared:
            zombies[target] = 0
            self._reserve += cleared
        self._locked |= lock
        self._turn += 1
        self._history.append((move, tomb, origin, cleared, lock))

        # docs/zombie-kidz.md, "Results": everybody wins when no zombie is left on
        # the board, or when all four gates are locked.
        if cleared and self._reserve == self._total:
            self._end = (PLAYERS_WIN, self._turn, NO_ZOMBIE_LEFT)
        elif lock and self._locked == ALL_GATES_LOCKED:
            self._end = (PLAYERS_WIN, self._turn, ALL_GATES_ARE_LOCKED)

    def _lose_at_roll(self, move: ZombieKidzMove, tomb: int, origin: int, lost: str) -> None:
        """Play a roll that loses: the die letter alone, the zombie placed if the
        reserve has one, and the game over."""
        if move.target is not None or move.eliminated or move.locked:
            raise IllegalMoveError(
                f"{lost}: the zombies win at this roll, "
                f"so the turn is the die letter alone ({move.die})",
                "zombie-kidz-losing-roll",
            )
        if self._reserve:
            self._zombies[tomb] += 1
            self._reserve -= 1
        else:
            tomb = -1
        self._turn += 1
        self._history.append((move, tomb, origin, 0, 0))
        self._end = (ZOMBIES_WIN, self._turn, lost)

    def pop(self) -> ZombieKidzMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
        move, tomb, origin, cleared, lock = self._history.pop()
        self._turn -= 1
        self._end = None
        player = self._turn % self._players
        target = self._pawns[player]
        self._locked &= ~lock
        if cleared:
            self._zombies[target] = cleared
            self._reserve -= cleared
        if target != origin:
            self._pawns[player] = origin
            self._pawn_count[target] -= 1
            self._pawn_count[origin] += 1
        if tomb >= 0:
            self._zombies[tomb] -= 1
            self._reserve += 1
        return move

    def legal_moves(self) -> list[ZombieKidzMove]:
        """Every legal turn, for every face of the die (R Y G K B W), marks exact."""
        if self._end is not None:
            return []
        moves: list[ZombieKidzMove] = []
        for die, tomb in DIE_TOMB.items():
            moves.extend(self._turns_after_roll(die, tomb))
        return moves

    def legal_moves_for_roll(self, die: str) -> list[ZombieKidzMove]:
        """Every legal turn once ``die`` is rolled: staying first, then each step.

        Each move is in the canonical long form with exactly the marks that apply.
        A roll that loses has one turn: the die letter alone.
        """
        tomb = DIE_TOMB.get(die.upper()) if isinstance(die, str) else None
        if tomb is None:
            raise MisuseError(f"{die!r} is not a die letter (R Y G K B W)")
        if self._end is not None:
            return []
        return self._turns_after_roll(die.upper(), tomb)

    def _turns_after_roll(self, die: str, tomb: int) -> list[ZombieKidzMove]:
        """The legal turns once ``die`` (which fills ``tomb``, or -1) is rolled, in a
        game that goes on: the rules of push(), in its order, without the messages
        (tests/test_game_contract.py checks that the two agree on every position)."""
        origin = self._pawns[self._turn % self._players]
        # 1. Roll.
        if tomb >= 0 and self._roll_loses(tomb) is not None:
            return [TURNS[die, origin, origin, False, False]]
        moves: list[ZombieKidzMove] = []
        zombies = self._zombies
        for target in (origin, *self._steps[origin]):
            # 2. Step: a closed zone is left out.  The pawn's own zone never is one:
            # a pawn among 3 or more zombies loses at the roll.
            cleared = zombies[target] + (target == tomb)
            if cleared < DEADLY:
                # 3. Clear and 4. Lock: the marks that apply.
                lock = GATE_BIT[target] and self._gate_locked(origin, target)
                moves.append(TURNS[die, origin, target, cleared > 0, lock > 0])
        return moves

    def canonical(self, move: ZombieKidzMove) -> ZombieKidzMove:
        """The canonical form of a legal ``move`` here: long form, exact marks."""
        # push() raises the rules' error, code and all, for an illegal move.
        self.push(move)
        self.pop()
        for candidate in self.legal_moves_for_roll(move.die):
            if candidate.target == move.target:
                return candidate
        raise AssertionError("a legal move has a canonical form")  # pragma: no cover

    def last_move_canonical(self) -> ZombieKidzMove:
        """The last turn pushed as :meth:`canonical` wrote it before the push: the long
        form with the marks that applied, from what the history kept of it (the
        zones the pawn left and reached, whether zombies were cleared, the lock)."""
        if not self._history:
            raise MisuseError("last_move_canonical() with no move pushed on this position")
        last = ZombieKidzUndo._make(self._history[-1])
        target = self._pawns[(self._turn - 1) % self._players]
        return TURNS[last.move.die, last.origin, target, last.cleared > 0, last.lock > 0]

    def copy(self) -> Self:
        other = type(self)(self._players, self._total)
        other._load(self._zombies.copy(), self._pawns.copy(), self._locked, self._turn, self._end)
        other._history = self._history.copy()
        return other

    # -- why a turn is illegal -----------------------------------------------------
    def _check_path(self, move: ZombieKidzMove, origin: int, target: int) -> None:
        """Raise IllegalMoveError unless a path leads from the mover's zone ``origin``
        to ``target``: docs/zombie-kidz.md, "A turn", 2. Step, and "Writing a turn"."""
        if move.origin is not None and move.origin != origin:
            raise IllegalMoveError(
                f"{self.mover} is on {ZONE_NAMES[origin]}, not {ZONE_NAMES[move.origin]}",
                "zombie-kidz-wrong-origin",
            )
        if target == origin:
            raise IllegalMoveError(
                f"{self.mover} is on {ZONE_NAMES[origin]} already: "
                f"to stay, write the die letter alone ({move.die})",
                "zombie-kidz-step-stays",
            )
        if target not in self._neighbours[origin]:
            raise self._no_path(origin, target)

    def _no_path(self, origin: int, target: int) -> IllegalMoveError:
        """The error for a step from ``origin`` to ``target``, which no path joins here."""
        step = f"{ZONE_NAMES[origin]}-{ZONE_NAMES[target]}"
        if target in NEIGHBOURS_TWO[origin]:
            return IllegalMoveError(
                f"{step} is a path only on the 2-player side", "zombie-kidz-two-player-path"
            )
        why = (
            "gates never touch the centre; "
            if CENTRE in (origin, target) and GATES & {origin, target}
            else ""
        )
        return IllegalMoveError(
            f"{step} is not one step: {why}the paths from {ZONE_NAMES[origin]} "
            f"lead to {zone_list(self._steps[origin])}",
            "zombie-kidz-not-a-step",
        )

    def _why_no_lock(self, target: int) -> str:
        name = ZONE_NAMES[target]
        if not GATE_BIT[target]:
            return f"{name} is a tomb, not a gate, so nothing is locked"
        if self._locked & GATE_BIT[target]:
            return f"{name} was locked before this turn"
        return f"no other pawn is on {name}, so it is not locked"

    # -- the roll as a chance step (notation.play) -----------------------------------
    def chance_outcomes(self) -> list[tuple[str, Fraction]] | None:
        """The roll before the next turn: each face of the fair die (R Y G K B W) with
        probability 1/6 (docs/zombie-kidz.md, "A turn", 1. Roll); ``None`` once the
        game is over."""
        if self._end is not None:
            return None
        from fractions import Fraction  # only the engines ask: a check never imports it

        one_in_six = Fraction(1, len(DICE))
        return [(die, one_in_six) for die in DICE]

    def legal_moves_after(self, outcome: str) -> list[ZombieKidzMove]:
        """The legal turns once the die shows ``outcome`` (a die letter, any case): those
        of :meth:`legal_moves` that carry that letter, as :meth:`legal_moves_for_roll`
        gives them."""
        return self.legal_moves_for_roll(outcome)
