"""Zombie Kidz (Annick Lobet, Le Scorpion Masque, 2013): a cooperative game with a die.

Rules: RULINGS.md section 3; notation and our rulings: docs/zombie-kidz.md.

A turn is one token: the die letter, then the pawn's step if it moves, then the
optional marks ``x`` (zombies eliminated) and ``L`` (gate locked)::

    Y   W   Rx   K:b2-b1   K:b1   G:b2-c2x   W:a2-a1L

The board is rules as data: zones are small ints (``file + 3 * rank``), the
paths of each side of the board are tuples of frozensets computed once at
import, the die is a table from letter to tomb.  A position is a few lists and
ints changed in place by :meth:`ZombieKidzPosition.push` and restored by
:meth:`ZombieKidzPosition.pop` from a small undo tuple.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Self, cast

from lark import Lark, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games.base import WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser
from notation.view import BoardView, Cell, Token

if TYPE_CHECKING:
    from lark import Token as LarkToken

# -- the board as data ---------------------------------------------------------

#: Zone names by index; index = file + 3 * rank (a1 = 0, b2 = 4, c3 = 8).
ZONE_NAMES: Final[tuple[str, ...]] = tuple(f"{f}{r}" for r in "123" for f in "abc")
ZONE_INDEX: Final[Mapping[str, int]] = MappingProxyType(
    {name: i for i, name in enumerate(ZONE_NAMES)}
)

#: The five tombs and their colours (the layout is a ruling: RULINGS.md 3).
TOMB_COLOURS: Final[Mapping[str, str]] = MappingProxyType(
    {"b2": "red", "b3": "yellow", "c2": "green", "b1": "black", "a2": "blue"}
)
GATE_NAMES: Final[tuple[str, ...]] = ("a1", "c1", "a3", "c3")
CENTRE: Final[int] = ZONE_INDEX["b2"]
GATES: Final[frozenset[int]] = frozenset(ZONE_INDEX[g] for g in GATE_NAMES)
GATE_BIT: Final[tuple[int, ...]] = tuple(1 << z if z in GATES else 0 for z in range(9))
ALL_GATES_LOCKED: Final[int] = sum(GATE_BIT)

#: Paths printed on both sides of the board: the centre to each edge tomb, and
#: each gate to its two neighbouring edge tombs.  No path joins a gate and the centre.
PATHS_BOTH_SIDES: Final[tuple[tuple[str, str], ...]] = (
    ("b2", "b1"), ("b2", "a2"), ("b2", "c2"), ("b2", "b3"),
    ("a1", "a2"), ("a1", "b1"), ("c1", "b1"), ("c1", "c2"),
    ("a3", "a2"), ("a3", "b3"), ("c3", "b3"), ("c3", "c2"),
)  # fmt: skip
#: The four diagonal paths of the 2-player side, between edge tombs sharing a corner.
PATHS_TWO_PLAYER_SIDE: Final[tuple[tuple[str, str], ...]] = (
    ("a2", "b3"), ("b3", "c2"), ("c2", "b1"), ("b1", "a2"),
)  # fmt: skip


def _neighbours(paths: Sequence[tuple[str, str]]) -> tuple[frozenset[int], ...]:
    table: list[set[int]] = [set() for _ in ZONE_NAMES]
    for one, other in paths:
        table[ZONE_INDEX[one]].add(ZONE_INDEX[other])
        table[ZONE_INDEX[other]].add(ZONE_INDEX[one])
    return tuple(frozenset(s) for s in table)


#: Neighbours of each zone on the side for 3 or 4 players and on the 2-player side.
NEIGHBOURS_MANY: Final[tuple[frozenset[int], ...]] = _neighbours(PATHS_BOTH_SIDES)
NEIGHBOURS_TWO: Final[tuple[frozenset[int], ...]] = _neighbours(
    PATHS_BOTH_SIDES + PATHS_TWO_PLAYER_SIDE
)
#: The same, sorted, for generating moves in a fixed order.
_STEPS_MANY: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(s)) for s in NEIGHBOURS_MANY)
_STEPS_TWO: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(sorted(s)) for s in NEIGHBOURS_TWO)

#: Die faces in the order legal moves are listed: letter -> (colour, tomb or None).
DIE_FACES: Final[Mapping[str, tuple[str, str | None]]] = MappingProxyType(
    {
        "R": ("red", "b2"),
        "Y": ("yellow", "b3"),
        "G": ("green", "c2"),
        "K": ("black", "b1"),
        "B": ("blue", "a2"),
        "W": ("white", None),
    }
)
DICE: Final[tuple[str, ...]] = tuple(DIE_FACES)
#: The tomb a face puts a zombie on, as a zone index; -1 for white (no zombie).
DIE_TOMB: Final[Mapping[str, int]] = MappingProxyType(
    {d: -1 if tomb is None else ZONE_INDEX[tomb] for d, (_, tomb) in DIE_FACES.items()}
)

#: A zone holding this many zombies is closed to pawns, and loses the game if a pawn is on it.
DEADLY: Final[int] = 3
PLAYER_COUNTS: Final[Mapping[str, int]] = MappingProxyType({"2": 2, "3": 3, "4": 4})
ZOMBIE_COUNTS: Final[Mapping[str, int]] = MappingProxyType({"8": 8, "7": 7})
DEFAULT_PLAYERS: Final[int] = 2
DEFAULT_ZOMBIES: Final[int] = 8

PLAYERS_WIN: Final[str] = WIN_FIRST
ZOMBIES_WIN: Final[str] = WIN_SECOND


# -- describing positions: the string, the view ------------------------------------

#: The position string of the start, per number of players and zombies: see
#: docs/zombie-kidz.md, "Position strings".
POSITION_FIELDS: Final[str] = (
    "zombies per zone (rank 3 first, e.g. 101/000/101), pawns (b2,b2), locked gates "
    "(- or a1,c3), reserve/total (4/8), players (2), to move (1, or 1-0/0-1 once over), "
    "turns played (0)"
)
_GRID = re.compile(r"[0-9]{3}/[0-9]{3}/[0-9]{3}")
# At most 9 digits: int() refuses thousands of them with a ValueError, which must not
# escape from a hostile Position tag.
_RESERVE = re.compile(r"([0-9]{1,9})/([0-9]{1,9})")
_NUMBER = re.compile(r"[0-9]{1,9}")

#: The roles of board_view() and their colours: tombs in their own colours, gates
#: in stone grey (dark slate once locked), zombies pale green, a brass lock, and
#: four pawn colours that stand out on every tomb.
PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tomb-red": "#c62828",
        "tomb-yellow": "#f2b630",
        "tomb-green": "#2e7d32",
        "tomb-black": "#303030",
        "tomb-blue": "#1e5fb4",
        "gate": "#b0bec5",
        "gate-locked": "#455a64",
        "zombie": "#b5e08a",
        "lock": "#ffca28",
        "pawn-1": "#ffffff",
        "pawn-2": "#ff7ac6",
        "pawn-3": "#8ee8ff",
        "pawn-4": "#ff9e40",
    }
)
ZOMBIE_TOKEN: Final[Token] = Token("zombie", "Z")
LOCK_TOKEN: Final[Token] = Token("lock", "L")
PAWN_TOKENS: Final[tuple[Token, ...]] = tuple(Token(f"pawn-{p}", str(p)) for p in range(1, 5))


def _zone_list(zones: Sequence[int]) -> str:
    names = [ZONE_NAMES[z] for z in sorted(zones)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _zombies(n: int) -> str:
    return f"{n} zombie" if n == 1 else f"{n} zombies"


def _turns(n: int) -> str:
    return f"{n} turn played" if n == 1 else f"{n} turns played"


def _standing(pawns: Sequence[int], zone: int) -> str:
    """Who stands on ``zone``: "player 2 stands", "players 1 and 3 stand"."""
    players = [str(p + 1) for p, z in enumerate(pawns) if z == zone]
    if len(players) == 1:
        return f"player {players[0]} stands"
    return f"players {', '.join(players[:-1])} and {players[-1]} stand"


_GATES_ARE = "the gates are a1, c1, a3 and c3"


def _bad(reason: str) -> TagValueError:
    """The error for a Position tag this game cannot read or reach."""
    return TagValueError("Position", reason)


# -- moves ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZombieKidzMove:
    """One turn: the die roll, the pawn's step (if any) and the marks written.

    ``dest`` is ``None`` when the pawn stays.  ``origin`` is the from-zone of the
    long form (checked against the pawn when played); ``None`` in the short form.
    The two forms are kept apart so that a record is written back as it was read;
    :meth:`ZombieKidzPosition.legal_moves` gives the long form, which is canonical.
    ``eliminated`` and ``locked`` are the marks ``x`` and ``L`` as written: a
    mark must fit the turn, a missing mark is accepted.
    """

    die: str
    origin: int | None = None
    dest: int | None = None
    eliminated: bool = False
    locked: bool = False

    def __post_init__(self) -> None:
        """Refuse fields that name nothing (MisuseError), once, when the move is made:
        parsed moves are memoised and legal moves prebuilt, so push() checks nothing."""
        if type(self.die) is not str or self.die not in DIE_FACES:
            raise MisuseError(
                f"ZombieKidzMove.die is {self.die!r}: a die letter R, Y, G, K, B or W"
            )
        for field, zone in (("origin", self.origin), ("dest", self.dest)):
            if zone is not None and (type(zone) is not int or not 0 <= zone < len(ZONE_NAMES)):
                raise MisuseError(
                    f"ZombieKidzMove.{field} is {zone!r}: a zone is an int 0-8 "
                    "(a1 = 0, b2 = 4, c3 = 8) or None"
                )
        if self.origin is not None and self.dest is None:
            raise MisuseError(
                f"ZombieKidzMove.origin is {ZONE_NAMES[self.origin]} without a dest: "
                "a pawn that stays has neither"
            )
        for field, mark in (("eliminated", self.eliminated), ("locked", self.locked)):
            if type(mark) is not bool:
                raise MisuseError(f"ZombieKidzMove.{field} is {mark!r}: True or False")

    def __str__(self) -> str:
        text = self.die
        if self.dest is not None:
            text += ":"
            if self.origin is not None:
                text += ZONE_NAMES[self.origin] + "-"
            text += ZONE_NAMES[self.dest]
        if self.eliminated:
            text += "x"
        if self.locked:
            text += "L"
        return text

    @property
    def colour(self) -> str:
        return DIE_FACES[self.die][0]


# -- the move parser -----------------------------------------------------------

_FORMS = (
    "a turn is a die letter (R Y G K B W), then ':' and a step if the pawn moves "
    "(K:b2-b1, or K:b1), then the marks x, L or xL (G:b2-c2x)"
)


class _MoveShape(Transformer[object, object]):
    """Turns the parse into the raw pieces ``(die, zones, marks)``; parse_move checks them."""

    def step(self, children: list[LarkToken]) -> tuple[str, ...]:
        return tuple(str(c) for c in children)

    def start(self, children: list[object]) -> tuple[str, tuple[str, ...], str]:
        die = str(children[0])
        zones: tuple[str, ...] = ()
        marks = ""
        for child in children[1:]:
            if isinstance(child, tuple):
                zones = tuple(str(z) for z in child)
            else:
                marks = str(child)
        return die, zones, marks


def _syntax_message(text: str, exc: UnexpectedInput) -> str:
    if text.count("-") > 1:
        return f"{text!r} names more than two zones; a pawn takes one step a turn"
    if len(text) > 1 and text[0].isalpha() and text[1].isdigit():
        return f"{text!r} starts with a zone, not a die letter: {_FORMS}"
    if isinstance(exc, UnexpectedCharacters):
        return f"{exc.char!r} cannot stand at character {exc.column} of {text!r}: {_FORMS}"
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        return f"{text!r} stops short: {_FORMS}"
    if isinstance(exc, UnexpectedToken):
        return f"{str(exc.token)!r} cannot stand at character {exc.column} of {text!r}: {_FORMS}"
    return f"{text!r} cannot be read: {_FORMS}"


def _zone(name: str) -> int:
    zone = ZONE_INDEX.get(name.lower())
    if zone is None:
        raise MoveSyntaxError(f"{name} is not a zone (the zones are a1 to c3)")
    return zone


def zone_arg(zone: int | str) -> int:
    """The index of ``zone``, given as an index 0-8 (a1 = 0, b2 = 4, c3 = 8) or a name.

    Every accessor that takes a zone reads it with this: an int always means a
    zone, and names are accepted alike.  ``MisuseError`` for anything else.
    """
    # bool is an int to Python, but True is no zone anyone means.
    if isinstance(zone, int) and not isinstance(zone, bool):
        if 0 <= zone < len(ZONE_NAMES):
            return zone
    elif isinstance(zone, str):
        index = ZONE_INDEX.get(zone.strip().lower())
        if index is not None:
            return index
    raise MisuseError(
        f"{zone!r} is not a zone: give its name (a1 to c3) or its index 0-8 "
        "(a1 = 0, b2 = 4, c3 = 8)"
    )


def _not_a_move(move: object) -> MisuseError:
    return MisuseError(
        f"{move!r} is not a Zombie Kidz move (a ZombieKidzMove; "
        "GAME.parse() reads one from its text)"
    )


# Every turn a board allows, made once: legal_moves_for_roll() hands out these shared
# immutable objects rather than making (and checking) new ones on every call.
_TURNS: Final[Mapping[tuple[str, int | None, int | None, bool, bool], ZombieKidzMove]] = {
    (die, origin, dest, x, lock): ZombieKidzMove(die, origin, dest, x, lock)
    for die in DICE
    for origin, dest in (
        (None, None),
        *((z, n) for z in range(len(ZONE_NAMES)) for n in sorted(NEIGHBOURS_TWO[z])),
    )
    for x in (False, True)
    for lock in (False, True)
}


# -- positions -----------------------------------------------------------------


#: Zombies per zone at the start: one on each gate (copied into every new position).
_START_ZOMBIES: list[int] = [1 if z in GATES else 0 for z in range(9)]


class ZombieKidzPosition(Position[ZombieKidzMove]):
    """A game in progress: zombies per zone, pawns, locks, reserve, turn."""

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
        if type(players) is not int or players not in PLAYER_COUNTS.values():
            raise MisuseError(f"Zombie Kidz is played by 2 to 4 players, not {players!r}")
        if type(zombies) is not int or zombies not in ZOMBIE_COUNTS.values():
            raise MisuseError(f"Zombie Kidz is played with 8 or 7 zombies, not {zombies!r}")
        self._players = players
        self._total = zombies
        two_player_side = players == 2
        self._neighbours = NEIGHBOURS_TWO if two_player_side else NEIGHBOURS_MANY
        self._steps = _STEPS_TWO if two_player_side else _STEPS_MANY
        # Setup: one zombie on each gate, the rest in the reserve; every pawn on b2.
        self._zombies = _START_ZOMBIES.copy()
        self._reserve = zombies - len(GATES)
        self._pawns = [CENTRE] * players
        self._pawn_count = [0] * 9
        self._pawn_count[CENTRE] = players
        self._locked = 0
        self._turn = 0
        # (result, turn, why) once the rules have ended the game.
        self._end: tuple[str, int, str] | None = None
        # Undo records: (move, tomb filled or -1, pawn's zone before, zombies eliminated,
        # gate bit locked or 0).
        self._history: list[tuple[ZombieKidzMove, int, int, int, int]] = []

    # -- the protocol ------------------------------------------------------------
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
        return self._players

    @property
    def zombie_total(self) -> int:
        """Zombies in the game: 8, or 7 in the harder game."""
        return self._total

    @property
    def reserve(self) -> int:
        return self._reserve

    def zombies_on(self, zone: int | str) -> int:
        """Zombies on ``zone``, a name ("b2") or an index 0-8 like every zone here."""
        return self._zombies[zone_arg(zone)]

    def pawn_zone(self, player: int) -> str:
        """Where player ``player`` (1 to :attr:`players`) stands; MisuseError for another."""
        if type(player) is not int or not 1 <= player <= self._players:
            raise MisuseError(
                f"{player!r} is not a player of this game: players are 1 to {self._players}"
            )
        return ZONE_NAMES[self._pawns[player - 1]]

    def is_locked(self, gate: int | str) -> bool:
        """Whether ``gate`` (a zone name or index) is locked; always False for a tomb."""
        return bool(self._locked & GATE_BIT[zone_arg(gate)])

    @property
    def locked_gates(self) -> tuple[str, ...]:
        return tuple(g for g in GATE_NAMES if self._locked & GATE_BIT[ZONE_INDEX[g]])

    def outcome(self) -> str | None:
        return None if self._end is None else self._end[0]

    @property
    def end_reason(self) -> str | None:
        """Why the rules ended the game, in words, or ``None`` while it goes on."""
        return None if self._end is None else self._end[2]

    def push(self, move: ZombieKidzMove) -> None:
        """Play ``move``; IllegalMoveError (position unchanged) if the rules forbid it.

        MisuseError (position unchanged) for an object that is not a ZombieKidzMove.
        """
        # The one check of a move's type; its fields were checked when it was made.
        if type(move) is not ZombieKidzMove:
            raise _not_a_move(move)
        if self._end is not None:
            result, turn, why = self._end
            winners = "players" if result == PLAYERS_WIN else "zombies"
            raise IllegalMoveError(f"the game is over: the {winners} won at turn {turn} ({why})")
        zombies = self._zombies
        die = move.die
        tomb = DIE_TOMB[die]
        mover = self._turn % self._players
        here = self._pawns[mover]

        # 1. The roll.
        if tomb >= 0:
            lost = None
            if self._reserve == 0:
                lost = "the reserve is empty"
            elif zombies[tomb] + 1 >= DEADLY and self._pawn_count[tomb]:
                held = _zombies(zombies[tomb] + 1)
                lost = f"{self._pawns_on(tomb)} on {ZONE_NAMES[tomb]}, which now holds {held}"
            if lost is not None:
                if move.dest is not None or move.eliminated or move.locked:
                    raise IllegalMoveError(
                        f"{lost}: the zombies win at this roll, "
                        f"so the turn is the die letter alone ({die})"
                    )
                if self._reserve:
                    zombies[tomb] += 1
                    self._reserve -= 1
                else:
                    tomb = -1
                self._turn += 1
                self._end = (ZOMBIES_WIN, self._turn, lost)
                self._history.append((move, tomb, here, 0, 0))
                return

        # 2. The step.
        dest = here
        if move.dest is not None:
            dest = move.dest
            self._check_step(move, here, dest, tomb)
        count = zombies[dest] + (dest == tomb)

        # 3. and 4. Elimination and locking happen by themselves; marks are checked.
        lock = 0
        bit = GATE_BIT[dest]
        if bit and not self._locked & bit and self._pawn_count[dest] + (dest != here) >= 2:
            lock = bit
        if move.eliminated and not count:
            raise IllegalMoveError(
                f"no zombie is eliminated on {ZONE_NAMES[dest]} (0 zombies there): remove the x"
            )
        if move.locked and not lock:
            raise IllegalMoveError(self._why_no_lock(dest) + ": remove the L")

        if tomb >= 0:
            zombies[tomb] += 1
            self._reserve -= 1
        if dest != here:
            self._pawns[mover] = dest
            self._pawn_count[here] -= 1
            self._pawn_count[dest] += 1
        if count:
            zombies[dest] = 0
            self._reserve += count
        self._locked |= lock
        self._turn += 1
        self._history.append((move, tomb, here, count, lock))
        if count and self._reserve == self._total:
            self._end = (PLAYERS_WIN, self._turn, "no zombie is left on the board")
        elif lock and self._locked == ALL_GATES_LOCKED:
            self._end = (PLAYERS_WIN, self._turn, "all 4 gates are locked")

    def pop(self) -> ZombieKidzMove:
        """Take back the last move and return it; MisuseError if none was pushed."""
        if not self._history:
            raise MisuseError("pop() with no move to take back: none was pushed on this position")
        move, tomb, here, count, lock = self._history.pop()
        self._turn -= 1
        self._end = None
        mover = self._turn % self._players
        dest = self._pawns[mover]
        self._locked &= ~lock
        if count:
            self._zombies[dest] = count
            self._reserve -= count
        if dest != here:
            self._pawns[mover] = here
            self._pawn_count[dest] -= 1
            self._pawn_count[here] += 1
        if tomb >= 0:
            self._zombies[tomb] -= 1
            self._reserve += 1
        return move

    def legal_moves(self) -> list[ZombieKidzMove]:
        """Every legal turn, for every face of the die (R Y G K B W), marks exact."""
        moves: list[ZombieKidzMove] = []
        for die in DICE:
            moves.extend(self.legal_moves_for_roll(die))
        return moves

    def legal_moves_for_roll(self, die: str) -> list[ZombieKidzMove]:
        """Every legal turn once ``die`` is rolled: staying first, then each step.

        Each move is in the canonical long form with exactly the marks that apply.
        A roll that loses has one turn: the die letter alone.
        """
        tomb = DIE_TOMB.get(die.upper()) if isinstance(die, str) else None
        if tomb is None:
            raise MisuseError(f"{die!r} is not a die letter (R Y G K B W)")
        die = die.upper()
        if self._end is not None:
            return []
        zombies = self._zombies
        here = self._pawns[self._turn % self._players]
        if tomb >= 0 and (
            self._reserve == 0 or (zombies[tomb] + 1 >= DEADLY and self._pawn_count[tomb])
        ):
            return [_TURNS[die, None, None, False, False]]
        moves: list[ZombieKidzMove] = []
        for dest in (here, *self._steps[here]):
            count = zombies[dest] + (dest == tomb)
            if dest != here and count >= DEADLY:
                continue
            bit = GATE_BIT[dest]
            lock = bool(
                bit and not self._locked & bit and self._pawn_count[dest] + (dest != here) >= 2
            )
            if dest == here:
                moves.append(_TURNS[die, None, None, count > 0, lock])
            else:
                moves.append(_TURNS[die, here, dest, count > 0, lock])
        return moves

    def canonical(self, move: ZombieKidzMove) -> ZombieKidzMove:
        """The canonical form of a legal ``move`` here: long form, exact marks."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        for candidate in self.legal_moves_for_roll(move.die):
            if candidate.dest == move.dest:
                return candidate
        raise AssertionError("a legal move has a canonical form")  # pragma: no cover

    def copy(self) -> Self:
        other = type(self)(self._players, self._total)
        other._zombies = self._zombies.copy()
        other._reserve = self._reserve
        other._pawns = self._pawns.copy()
        other._pawn_count = self._pawn_count.copy()
        other._locked = self._locked
        other._turn = self._turn
        other._end = self._end
        other._history = self._history.copy()
        return other

    def diagram(self) -> str:
        width = 14
        rule = "   +" + "+".join(["-" * width] * 3) + "+"
        lines = ["    " + "".join(f"{f:^{width + 1}}" for f in "abc").rstrip(), rule]
        for rank in (3, 2, 1):
            top: list[str] = []
            bottom: list[str] = []
            for file in range(3):
                zone = file + 3 * (rank - 1)
                name = ZONE_NAMES[zone]
                kind = "gate" if zone in GATES else TOMB_COLOURS[name]
                top.append(f" {kind} Z{self._zombies[zone]}".ljust(width))
                marks = [f"P{p + 1}" for p, z in enumerate(self._pawns) if z == zone]
                if self._locked & GATE_BIT[zone]:
                    marks.append("locked")
                bottom.append(f" {' '.join(marks)}".ljust(width))
            lines.append(f"{rank}  |" + "|".join(top) + "|")
            lines.append("   |" + "|".join(bottom) + "|")
            lines.append(rule)
        side = "2-player side" if self._players == 2 else "3-4 player side"
        lines.append(
            f"Z = zombies, P1-P{self._players} = pawns; reserve {self._reserve} of {self._total}; "
            f"locked {len(self.locked_gates)} of 4; {side}"
        )
        if self._end is None:
            lines.append(f"turn {self._turn + 1}: {self.mover} to roll")
        else:
            result, turn, why = self._end
            winners = "the players win" if result == PLAYERS_WIN else "the zombies win"
            lines.append(f"game over at turn {turn}: {winners} ({why}) {result}")
        return "\n".join(lines)

    # -- describing the position ---------------------------------------------------
    def position_string(self) -> str:
        """The position as one line (docs/zombie-kidz.md, "Position strings").

        ``101/000/101 b2,b2 - 4/8 2 1 0`` is the start with two players and 8 zombies.
        """
        zombies = self._zombies
        grid = "/".join(
            "".join(str(zombies[file + 3 * rank]) for file in range(3)) for rank in (2, 1, 0)
        )
        pawns = ",".join(ZONE_NAMES[z] for z in self._pawns)
        locks = ",".join(self.locked_gates) or "-"
        to_move = str(self._turn % self._players + 1) if self._end is None else self._end[0]
        return (
            f"{grid} {pawns} {locks} {self._reserve}/{self._total} "
            f"{self._players} {to_move} {self._turn}"
        )

    def last_move_facts(self) -> dict[str, Any]:
        """What the last turn did: see docs/zombie-kidz.md, "Data for programs"."""
        if not self._history:
            return {}
        move, tomb, here, count, lock = self._history[-1]
        mover = (self._turn - 1) % self._players
        there = self._pawns[mover]
        facts: dict[str, Any] = {
            "player": mover + 1,
            "die": move.die,
            "placed_on": ZONE_NAMES[tomb] if tomb >= 0 else None,
            "moved_to": ZONE_NAMES[there] if there != here else None,
            "zone": ZONE_NAMES[there],
            "eliminated": count,
            "locked": ZONE_NAMES[lock.bit_length() - 1] if lock else None,
        }
        if self._end is not None:
            facts["outcome"] = self._end[0]
            facts["end_reason"] = self._end[2]
        return facts

    def annotations(self) -> list[tuple[str, str]]:
        """``zombies`` (zone:count, or -), ``reserve``, and ``locks`` when a gate is locked."""
        zones = [f"{ZONE_NAMES[z]}:{n}" for z, n in enumerate(self._zombies) if n]
        notes = [("zombies", " ".join(zones) or "-"), ("reserve", str(self._reserve))]
        if self._locked:
            notes.append(("locks", " ".join(self.locked_gates)))
        return notes

    def board_view(self) -> BoardView:
        """The board for the renderers: see docs/zombie-kidz.md, "Board views"."""
        cells: dict[str, Cell] = {}
        for zone, name in enumerate(ZONE_NAMES):
            tokens: list[Token] = []
            locked = bool(self._locked & GATE_BIT[zone])
            if zone in GATES:
                role = "gate-locked" if locked else "gate"
                if locked:
                    tokens.append(LOCK_TOKEN)
            else:
                role = "tomb-" + TOMB_COLOURS[name]
            count = self._zombies[zone]
            tokens.extend([ZOMBIE_TOKEN] * count)
            tokens.extend(PAWN_TOKENS[p] for p, z in enumerate(self._pawns) if z == zone)
            cells[name] = Cell(name, role, tuple(tokens), str(count) if count else "")
        links = PATHS_BOTH_SIDES + (PATHS_TWO_PLAYER_SIDE if self._players == 2 else ())
        unused = {f"pawn-{p}" for p in range(self._players + 1, 5)}
        palette = {role: colour for role, colour in PALETTE.items() if role not in unused}
        return BoardView(
            files=("a", "b", "c"),
            ranks=("1", "2", "3"),
            cells=MappingProxyType(cells),
            palette=MappingProxyType(palette),
            links=links,
            marks=self._last_marks(),
            facts=self._facts(),
            caption=self._caption(),
        )

    def _last_marks(self) -> tuple[str, ...]:
        """The placement tomb (unless the pawn's zones name it), then from and to, or the
        zone the pawn stayed on."""
        if not self._history:
            return ()
        _, tomb, here, _, _ = self._history[-1]
        there = self._pawns[(self._turn - 1) % self._players]
        zones = (here,) if there == here else (here, there)
        placed = (tomb,) if tomb >= 0 and tomb not in zones else ()
        return tuple(ZONE_NAMES[z] for z in placed + zones)

    def _facts(self) -> tuple[tuple[str, str], ...]:
        if self._end is None:
            status = ("To move", self.mover)
        else:
            result, _, why = self._end
            status = ("Result", f"{result}, {self._winners(result)} ({why})")
        board = self._total - self._reserve
        locks = self.locked_gates
        return (
            status,
            ("Turns played", str(self._turn)),
            ("Reserve", f"{self._reserve} of {self._total}"),
            ("Board side", "2-player side" if self._players == 2 else "3-4 player side"),
            ("Locks", f"{', '.join(locks) if locks else 'none'} ({len(locks)} of 4)"),
            ("Zombies on the board", str(board)),
        )

    @staticmethod
    def _winners(result: str) -> str:
        return "the players win" if result == PLAYERS_WIN else "the zombies win"

    def _caption(self) -> str:
        """The last turn in the canonical form and what it did, in words."""
        if not self._history:
            return ""
        move, tomb, here, count, lock = self._history[-1]
        player = (self._turn - 1) % self._players
        there = self._pawns[player]
        canonical = ZombieKidzMove(
            move.die,
            here if there != here else None,
            there if there != here else None,
            count > 0,
            lock > 0,
        )
        if tomb >= 0:
            roll = f"{move.colour} tomb +1"
        elif move.die == "W":
            roll = "white, no zombie"
        else:
            roll = f"{move.colour}, no zombie left to place"
        text = f"{canonical}: {roll}"
        end = self._end
        if end is None or end[0] == PLAYERS_WIN:
            step = (
                f"moved to {ZONE_NAMES[there]}"
                if there != here
                else f"stayed on {ZONE_NAMES[here]}"
            )
            text += f", player {player + 1} {step}"
            if count:
                text += f" and eliminated {_zombies(count)}"
            if lock:
                text += f" and locked {ZONE_NAMES[there]}"
        if end is not None:
            text += f"; {self._winners(end[0])}: {end[2]}"
        return text

    # -- reading a position string -------------------------------------------------
    @classmethod
    def from_string(cls, text: str) -> Self:
        """The position a :meth:`position_string` describes.

        Raises ``TagValueError("Position", reason)`` for a malformed string, and for
        one that no game can reach (the reason names the field or the fact).
        """
        fields = text.split()
        if len(fields) != 7:
            raise _bad(f"a Zombie Kidz position has 7 fields, not {len(fields)}: {POSITION_FIELDS}")
        grid, pawn_field, lock_field, reserve_field, player_field, mover_field, turn_field = fields

        # Each field alone.
        if not _GRID.fullmatch(grid):
            raise _bad(
                f"the zombies field {grid!r} is not three ranks of three digits, "
                "rank 3 first (101/000/101 at the start)"
            )
        rows = grid.split("/")
        zombies = [int(rows[2 - zone // 3][zone % 3]) for zone in range(9)]
        if player_field not in PLAYER_COUNTS:
            raise _bad(f"the players field {player_field!r} is not 2, 3 or 4")
        players = PLAYER_COUNTS[player_field]
        pawns: list[int] = []
        for name in pawn_field.split(","):
            zone = ZONE_INDEX.get(name.lower())
            if zone is None:
                raise _bad(f"{name!r} in the pawns field is not a zone (the zones are a1 to c3)")
            pawns.append(zone)
        if len(pawns) != players:
            raise _bad(
                f"the pawns field places {len(pawns)} pawn{'s' if len(pawns) > 1 else ''}, "
                f"but the players field says {players} players"
            )
        locked = 0
        if lock_field != "-":
            for name in lock_field.split(","):
                zone = ZONE_INDEX.get(name.lower())
                if zone is None:
                    raise _bad(f"{name!r} in the locks field is not a zone ({_GATES_ARE})")
                if zone not in GATES:
                    raise _bad(
                        f"{ZONE_NAMES[zone]} in the locks field is a tomb, "
                        f"not a gate ({_GATES_ARE})"
                    )
                if locked & GATE_BIT[zone]:
                    raise _bad(f"{ZONE_NAMES[zone]} is named twice in the locks field")
                locked |= GATE_BIT[zone]
        match = _RESERVE.fullmatch(reserve_field)
        if match is None:
            raise _bad(
                f"the reserve field {reserve_field!r} is not reserve/total (4/8 at the start)"
            )
        reserve, total = int(match[1]), int(match[2])
        if total not in ZOMBIE_COUNTS.values():
            raise _bad(
                f"the zombie total {total} (reserve field {reserve_field}) is not 8, "
                "or 7 in the harder game"
            )
        if not _NUMBER.fullmatch(turn_field):
            raise _bad(
                f"the turn field {turn_field!r} is not the number of turns played (0 at the start)"
            )
        turn = int(turn_field)
        result: str | None = None
        if mover_field in (PLAYERS_WIN, ZOMBIES_WIN):
            result = mover_field
        elif mover_field in ("1", "2", "3", "4"):
            expected = turn % players + 1
            if int(mover_field) != expected:
                raise _bad(
                    f"the to-move field says player {mover_field}, but after {_turns(turn)} "
                    f"of {players} players player {expected} is to move"
                )
        else:
            raise _bad(
                f"the to-move field {mover_field!r} is neither a player (1 to {players}) "
                "nor the result (1-0, 0-1) of a finished game"
            )

        # The fields together: what the rules make impossible.
        board = sum(zombies)
        if board > total:
            raise _bad(f"the board holds {_zombies(board)}, more than the total of {total}")
        if board + reserve != total:
            raise _bad(
                f"the board holds {board} zombies and the reserve {reserve}, "
                f"which makes {board + reserve}, not the total of {total}"
            )
        pawn_count = [0] * 9
        for zone in pawns:
            pawn_count[zone] += 1
        for gate in sorted(GATES):
            name, held, bit = ZONE_NAMES[gate], zombies[gate], GATE_BIT[gate]
            if held > 1:
                raise _bad(
                    f"gate {name} holds {held} zombies; no roll puts a zombie on a gate, "
                    "so a gate holds 1 at most"
                )
            if held and locked & bit:
                raise _bad(f"gate {name} is locked but holds a zombie; locking clears a gate")
            if held and pawn_count[gate]:
                raise _bad(
                    f"{_standing(pawns, gate)} on gate {name}, which holds a zombie; "
                    "a pawn clears a gate as it arrives"
                )
            if pawn_count[gate] >= 2 and not locked & bit:
                raise _bad(
                    f"{_standing(pawns, gate)} on gate {name}, which is not locked; "
                    "a gate is locked when a second pawn reaches it"
                )
        on_tombs = board - sum(zombies[g] for g in GATES)
        if on_tombs > turn:
            raise _bad(
                f"the tombs hold {_zombies(on_tombs)} after {_turns(turn)}; "
                "a roll brings one zombie at most"
            )
        for player in range(turn, players):
            if pawns[player] != CENTRE:
                raise _bad(
                    f"player {player + 1} has had no turn yet ({_turns(turn)}), so stands "
                    f"on b2, not {ZONE_NAMES[pawns[player]]}"
                )
        full = [z for z in range(9) if pawn_count[z] and zombies[z] >= DEADLY]
        if len(full) > 1:
            raise _bad(
                f"pawns stand among 3 or more zombies on {_zone_list(full)}; "
                "the game ends at the first"
            )
        caught = (
            f"{_standing(pawns, full[0])} on {ZONE_NAMES[full[0]]}, "
            f"which now holds {_zombies(zombies[full[0]])}"
            if full
            else ""
        )
        all_locked = locked == ALL_GATES_LOCKED
        if board == 0 and all_locked:
            raise _bad(
                "the board is empty and all four gates are locked; "
                "the game ends at the first of the two"
            )
        why = ""
        if result is None:
            if caught:
                raise _bad(f"{caught}: the zombies have won, so the to-move field is 0-1")
            if board == 0:
                raise _bad(
                    "no zombie is on the board: the players have won, so the to-move field is 1-0"
                )
            if all_locked:
                raise _bad(
                    "all four gates are locked: the players have won, so the to-move field is 1-0"
                )
        elif turn == 0:
            raise _bad(f"the to-move field says the game is over ({result}) before any turn")
        elif result == PLAYERS_WIN:
            if caught:
                raise _bad(f"{caught}, yet the to-move field says the players won (1-0)")
            if board and not all_locked:
                raise _bad(
                    "the to-move field says the players won (1-0), but zombies are on the "
                    "board and not all four gates are locked"
                )
            why = "no zombie is left on the board" if board == 0 else "all 4 gates are locked"
        elif all_locked:
            raise _bad(
                "the to-move field says the zombies won (0-1), but all four gates are locked"
            )
        elif caught:
            why = caught
        elif reserve == 0:
            why = "the reserve is empty"
        else:
            raise _bad(
                "the to-move field says the zombies won (0-1), but the reserve is not empty "
                "and no pawn stands among 3 or more zombies"
            )
        if result != ZOMBIES_WIN:
            # A pawn's zone is empty at the end of its turn (cleared, or locked and so
            # empty); since then each roll has brought one zombie at most.
            for ago in range(1, min(players, turn) + 1):
                player = (turn - ago) % players
                zone = pawns[player]
                if zombies[zone] > ago - 1:
                    rolls = (
                        "no roll has"
                        if ago == 1
                        else "only 1 roll has"
                        if ago == 2
                        else f"only {ago - 1} rolls have"
                    )
                    raise _bad(
                        f"player {player + 1} stands on {ZONE_NAMES[zone]} with "
                        f"{_zombies(zombies[zone])}, but that zone was empty after its "
                        f"turn {turn - ago + 1} and {rolls} come since"
                    )

        position = cls(players, total)
        position._zombies = zombies
        position._reserve = reserve
        position._pawns = pawns
        position._pawn_count = pawn_count
        position._locked = locked
        position._turn = turn
        position._end = None if result is None else (result, turn, why)
        return position

    # -- messages ----------------------------------------------------------------
    def _check_step(self, move: ZombieKidzMove, here: int, dest: int, tomb: int) -> None:
        """Raise IllegalMoveError unless the mover may step from ``here`` to ``dest``."""
        origin = move.origin
        if origin is not None and origin != here:
            raise IllegalMoveError(
                f"{self.mover} is on {ZONE_NAMES[here]}, not {ZONE_NAMES[origin]}"
            )
        if dest == here:
            raise IllegalMoveError(
                f"{self.mover} is on {ZONE_NAMES[here]} already: "
                f"to stay, write the die letter alone ({move.die})"
            )
        if dest not in self._neighbours[here]:
            step = f"{ZONE_NAMES[here]}-{ZONE_NAMES[dest]}"
            if dest in NEIGHBOURS_TWO[here]:
                raise IllegalMoveError(f"{step} is a path only on the 2-player side")
            why = (
                "gates never touch the centre; "
                if CENTRE in (here, dest) and GATES & {here, dest}
                else ""
            )
            raise IllegalMoveError(
                f"{step} is not one step: {why}the paths from {ZONE_NAMES[here]} "
                f"lead to {_zone_list(self._steps[here])}"
            )
        count = self._zombies[dest] + (dest == tomb)
        if count >= DEADLY:
            raise IllegalMoveError(f"{ZONE_NAMES[dest]} holds {count} zombies; no pawn may enter")

    def _pawns_on(self, zone: int) -> str:
        return _standing(self._pawns, zone)

    def _why_no_lock(self, dest: int) -> str:
        name = ZONE_NAMES[dest]
        if not GATE_BIT[dest]:
            return f"{name} is a tomb, not a gate, so nothing is locked"
        if self._locked & GATE_BIT[dest]:
            return f"{name} was locked before this turn"
        return f"no other pawn is on {name}, so it is not locked"


# -- the game ------------------------------------------------------------------


def _players_tag(tags: Mapping[str, str]) -> int | None:
    value = tags.get("Players")
    if value is None:
        return None
    if value not in PLAYER_COUNTS:
        raise TagValueError("Players", f"Zombie Kidz is played by 2, 3 or 4 players, not {value!r}")
    return PLAYER_COUNTS[value]


def _zombies_tag(tags: Mapping[str, str]) -> int | None:
    value = tags.get("Zombies")
    if value is None:
        return None
    if value not in ZOMBIE_COUNTS:
        raise TagValueError(
            "Zombies",
            f"Zombie Kidz is played with 8 zombies, or 7 in the harder game, not {value!r}",
        )
    return ZOMBIE_COUNTS[value]


class ZombieKidzGame(Game[ZombieKidzMove]):
    name = "zombie-kidz"
    aliases = ("zombiekidz",)
    title = "Zombie Kidz"
    annotation_keys = frozenset({"zombies", "reserve", "locks"})
    player_tags = ("Player1", "Player2", "Player3", "Player4")
    result_names = MappingProxyType(
        {PLAYERS_WIN: "the players win", ZOMBIES_WIN: "the zombies win"}
    )

    def __init__(self) -> None:
        super().__init__()
        self._parser: Lark | None = None

    def parse_move(self, text: str) -> ZombieKidzMove:
        if self._parser is None:
            self._parser = build_parser("zombie_kidz", _MoveShape())
        try:
            shape = self._parser.parse(text)
        except UnexpectedInput as exc:
            raise MoveSyntaxError(_syntax_message(text, exc)) from None
        raw_die, zones, raw_marks = cast("tuple[str, tuple[str, ...], str]", shape)
        die = raw_die.upper()
        if die not in DIE_FACES:
            raise MoveSyntaxError(
                f"{die} is not a die letter (R red, Y yellow, G green, K black, B blue, W white)"
            )
        origin = dest = None
        if len(zones) == 2:
            origin, dest = _zone(zones[0]), _zone(zones[1])
        elif zones:
            dest = _zone(zones[0])
        marks = raw_marks.lower()
        return ZombieKidzMove(die, origin, dest, "x" in marks, "l" in marks)

    def new_position(self, tags: Mapping[str, str] | None = None) -> ZombieKidzPosition:
        """The start for the ``Players`` and ``Zombies`` tags (2 and 8 by default), or
        the position of a ``Position`` tag, which those tags must then agree with."""
        tags = tags or {}
        if "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        players = _players_tag(tags)
        zombies = _zombies_tag(tags)
        return ZombieKidzPosition(
            DEFAULT_PLAYERS if players is None else players,
            DEFAULT_ZOMBIES if zombies is None else zombies,
        )

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> ZombieKidzPosition:
        """The position of a ``Position`` tag; ``Players`` and ``Zombies`` tags, when
        present, must agree with it."""
        tags = tags or {}
        players = _players_tag(tags)
        zombies = _zombies_tag(tags)
        position = ZombieKidzPosition.from_string(text)
        if players is not None and players != position.players:
            raise TagValueError(
                "Players",
                f"the Players tag says {players} but the Position tag has "
                f"{position.players} players",
            )
        if zombies is not None and zombies != position.zombie_total:
            raise TagValueError(
                "Zombies",
                f"the Zombies tag says {zombies} but the Position tag has "
                f"{position.zombie_total} zombies in all (reserve/total "
                f"{position.reserve}/{position.zombie_total})",
            )
        return position

    def move_to_dict(self, move: ZombieKidzMove) -> dict[str, Any]:
        """A turn as data: see docs/zombie-kidz.md, "Data for programs"."""
        if not isinstance(move, ZombieKidzMove):
            raise _not_a_move(move)
        tomb = DIE_FACES[move.die][1]
        form = "stay" if move.dest is None else "short" if move.origin is None else "long"
        return {
            "type": "turn",
            "die": move.die,
            "colour": move.colour,
            "tomb": tomb,
            "from": None if move.origin is None else ZONE_NAMES[move.origin],
            "to": None if move.dest is None else ZONE_NAMES[move.dest],
            "form": form,
            "x": move.eliminated,
            "L": move.locked,
        }

    def player_range(self) -> tuple[int, int]:
        return min(PLAYER_COUNTS.values()), max(PLAYER_COUNTS.values())

    def setup_tags(self, players: int | None = None) -> list[tuple[str, str]]:
        """``Players`` (2 by default); ``TagValueError`` for a count outside 2 to 4."""
        if players is None:
            players = DEFAULT_PLAYERS
        self.check_players(players)
        return [("Players", str(players))]

    def random_playout(
        self, position: Position[ZombieKidzMove], rng: random.Random, max_turns: int
    ) -> Sequence[ZombieKidzMove]:
        """Roll a fair die each turn, then pick one of the legal turns for that roll."""
        if not isinstance(position, ZombieKidzPosition):
            raise TypeError("a Zombie Kidz playout needs a ZombieKidzPosition")
        played: list[ZombieKidzMove] = []
        while position.outcome() is None and position.turn < max_turns:
            die = DICE[rng.randrange(len(DICE))]
            move = rng.choice(position.legal_moves_for_roll(die))
            position.push(move)
            played.append(move)
        return played


GAME = ZombieKidzGame()
