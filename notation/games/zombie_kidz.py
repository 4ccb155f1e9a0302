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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Self, cast

from lark import Lark, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from notation.errors import IllegalMoveError, MoveSyntaxError, TagValueError
from notation.games.base import WIN_FIRST, WIN_SECOND, Game, Position
from notation.grammar import build_parser

if TYPE_CHECKING:
    from lark import Token

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


def _zone_list(zones: Sequence[int]) -> str:
    names = [ZONE_NAMES[z] for z in sorted(zones)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _zombies(n: int) -> str:
    return f"{n} zombie" if n == 1 else f"{n} zombies"


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

    def step(self, children: list[Token]) -> tuple[str, ...]:
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


# -- positions -----------------------------------------------------------------


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
        if players not in PLAYER_COUNTS.values():
            raise ValueError(f"Zombie Kidz is played by 2 to 4 players, not {players}")
        if zombies not in ZOMBIE_COUNTS.values():
            raise ValueError(f"Zombie Kidz is played with 8 or 7 zombies, not {zombies}")
        self._players = players
        self._total = zombies
        two_player_side = players == 2
        self._neighbours = NEIGHBOURS_TWO if two_player_side else NEIGHBOURS_MANY
        self._steps = _STEPS_TWO if two_player_side else _STEPS_MANY
        # Setup: one zombie on each gate, the rest in the reserve; every pawn on b2.
        self._zombies = [1 if z in GATES else 0 for z in range(9)]
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

    def zombies_on(self, zone: str) -> int:
        return self._zombies[_zone(zone)]

    def pawn_zone(self, player: int) -> str:
        """Where player ``player`` (1-based) stands."""
        return ZONE_NAMES[self._pawns[player - 1]]

    def is_locked(self, gate: str) -> bool:
        return bool(self._locked & GATE_BIT[_zone(gate)])

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
        if self._end is not None:
            return []
        die = die.upper()
        tomb = DIE_TOMB.get(die)
        if tomb is None:
            raise ValueError(f"{die!r} is not a die letter (R Y G K B W)")
        zombies = self._zombies
        here = self._pawns[self._turn % self._players]
        if tomb >= 0 and (
            self._reserve == 0 or (zombies[tomb] + 1 >= DEADLY and self._pawn_count[tomb])
        ):
            return [ZombieKidzMove(die)]
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
                moves.append(ZombieKidzMove(die, None, None, count > 0, lock))
            else:
                moves.append(ZombieKidzMove(die, here, dest, count > 0, lock))
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
        step = f"{ZONE_NAMES[here]}-{ZONE_NAMES[dest]}"
        if dest not in self._neighbours[here]:
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
        players = [str(p + 1) for p, z in enumerate(self._pawns) if z == zone]
        if len(players) == 1:
            return f"player {players[0]} stands"
        return f"players {', '.join(players[:-1])} and {players[-1]} stand"

    def _why_no_lock(self, dest: int) -> str:
        name = ZONE_NAMES[dest]
        if not GATE_BIT[dest]:
            return f"{name} is a tomb, not a gate, so nothing is locked"
        if self._locked & GATE_BIT[dest]:
            return f"{name} was locked before this turn"
        return f"no other pawn is on {name}, so it is not locked"


# -- the game ------------------------------------------------------------------


class ZombieKidzGame(Game[ZombieKidzMove]):
    name = "zombie-kidz"
    aliases = ("zombiekidz",)
    title = "Zombie Kidz"
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
        tags = tags or {}
        players = DEFAULT_PLAYERS
        if "Players" in tags:
            value = tags["Players"]
            if value not in PLAYER_COUNTS:
                raise TagValueError(
                    "Players", f"Zombie Kidz is played by 2, 3 or 4 players, not {value!r}"
                )
            players = PLAYER_COUNTS[value]
        zombies = DEFAULT_ZOMBIES
        if "Zombies" in tags:
            value = tags["Zombies"]
            if value not in ZOMBIE_COUNTS:
                raise TagValueError(
                    "Zombies",
                    f"Zombie Kidz is played with 8 zombies, or 7 in the harder game, not {value!r}",
                )
            zombies = ZOMBIE_COUNTS[value]
        return ZombieKidzPosition(players, zombies)

    def setup_tags(self, players: int | None = None) -> list[tuple[str, str]]:
        if players is None:
            players = DEFAULT_PLAYERS
        if str(players) not in PLAYER_COUNTS:
            raise TagValueError(
                "Players", f"Zombie Kidz is played by 2, 3 or 4 players, not {players}"
            )
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
