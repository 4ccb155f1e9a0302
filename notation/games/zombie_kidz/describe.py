"""What a Zombie Kidz position tells a person: words, diagram, board view, facts.

Module functions taking the position; the position's methods delegate to them.
The words the rules and the position strings share (how many zombies, who stands
where, why a game ended) are in :mod:`.words`, which the rules import without this.
"""

# No "from __future__ import annotations": it would clash with annotations() below.
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from notation.games.view import SPREAD, BoardView, Cell, Token
from notation.games.zombie_kidz.board import (
    GATE_BIT,
    GATES,
    PATHS_BOTH_SIDES,
    PATHS_TWO_PLAYER_SIDE,
    PLAYERS_WIN,
    TOMB_COLOURS,
    ZONE_NAMES,
    side_name,
)
from notation.games.zombie_kidz.moves import TURNS
from notation.games.zombie_kidz.rules import ZombieKidzUndo
from notation.games.zombie_kidz.words import RESULT_NAMES, zombies_text

if TYPE_CHECKING:
    from notation.games.zombie_kidz.rules import ZombieKidzRules


# -- the diagram ---------------------------------------------------------------


def diagram(position: "ZombieKidzRules") -> str:
    """The board as text, rank 3 first: docs/zombie-kidz.md, "An example"."""
    width = 14
    rule = "   +" + "+".join(["-" * width] * 3) + "+"
    lines = ["    " + "".join(f"{f:^{width + 1}}" for f in "abc").rstrip(), rule]
    for rank in (3, 2, 1):
        top: list[str] = []
        bottom: list[str] = []
        for file in range(3):
            zone = file + 3 * (rank - 1)
            kind = "gate" if zone in GATES else TOMB_COLOURS[ZONE_NAMES[zone]]
            top.append(f" {kind} Z{position._zombies[zone]}".ljust(width))
            marks = [f"P{p + 1}" for p, z in enumerate(position._pawns) if z == zone]
            if position._locked & GATE_BIT[zone]:
                marks.append("locked")
            bottom.append(f" {' '.join(marks)}".ljust(width))
        lines.append(f"{rank}  |" + "|".join(top) + "|")
        lines.append("   |" + "|".join(bottom) + "|")
        lines.append(rule)
    lines.append(
        f"Z = zombies, P1-P{position.players} = pawns; "
        f"reserve {position.reserve} of {position.zombie_total}; "
        f"locked {len(position.locked_gates)} of 4; {side_name(position.players)}"
    )
    if position._end is None:
        lines.append(f"turn {position.turn + 1}: {position.mover} to roll")
    else:
        result, at_turn, why = position._end
        lines.append(f"game over at turn {at_turn}: {RESULT_NAMES[result]} ({why}) {result}")
    return "\n".join(lines)


# -- the last turn -------------------------------------------------------------


def last_move_facts(position: "ZombieKidzRules") -> dict[str, Any]:
    """What the last turn did: see docs/zombie-kidz.md, "Data for programs"."""
    if not position._history:
        return {}
    last = ZombieKidzUndo._make(position._history[-1])
    tomb, lock = last.tomb, last.lock
    player = (position._turn - 1) % position._players
    target = position._pawns[player]
    facts: dict[str, Any] = {
        "player": player + 1,
        "die": last.move.die,
        "placed_on": ZONE_NAMES[tomb] if tomb >= 0 else None,
        "moved_to": ZONE_NAMES[target] if target != last.origin else None,
        "zone": ZONE_NAMES[target],
        "eliminated": last.cleared,
        "locked": ZONE_NAMES[lock.bit_length() - 1] if lock else None,
    }
    if position._end is not None:
        facts["outcome"] = position._end[0]
        facts["end_reason"] = position._end[2]
    return facts


def annotations(position: "ZombieKidzRules") -> list[tuple[str, str]]:
    """``zombies`` (zone:count, or -), ``reserve``, and ``locks`` when a gate is locked:
    docs/zombie-kidz.md, "Annotations".

    Asked after every turn of ``annotate``: the pairs are made once each, by the
    zombies on the zones, the reserve and the locks (see ``_NOTES``)."""
    key = (*position._zombies, position._reserve, position._locked)
    notes = _NOTES.get(key)
    if notes is None:
        zones = [f"{ZONE_NAMES[z]}:{n}" for z, n in enumerate(position._zombies) if n]
        notes = (("zombies", " ".join(zones) or "-"), ("reserve", str(position._reserve)))
        if position._locked:
            notes += (("locks", " ".join(position.locked_gates)),)
        if len(_NOTES) >= NOTES_CACHE_SIZE:
            _NOTES.clear()
        _NOTES[key] = notes
    return list(notes)


#: The annotations by (zombies on each zone, reserve, the lock bits): a few thousand
#: in a corpus.  Bounded against hostile input.
_NOTES: dict[tuple[int, ...], tuple[tuple[str, str], ...]] = {}
NOTES_CACHE_SIZE: Final = 20_000


# -- the board view ------------------------------------------------------------

#: The roles of board_view() and their colours: tombs in their own colours, gates
#: in pale stone (a darker slate once locked, still far lighter than the black tomb:
#: the two differ by more than 3:1 on a dark page too), zombies pale green, a brass
#: lock, and four pawn colours that stand out on every tomb.
PALETTE: Final[Mapping[str, str]] = MappingProxyType(
    {
        # The plain cell first: the terminal marks every other role with a symbol of
        # its own, in this order (notation.render.terminal.role_symbols).
        "gate": "#cfd8dc",
        "tomb-red": "#c62828",
        "tomb-yellow": "#f2b630",
        "tomb-green": "#2e7d32",
        "tomb-black": "#303030",
        "tomb-blue": "#1e5fb4",
        "gate-locked": "#7e919c",
        "zombie": "#b5e08a",
        "lock": "#ffca28",
        "pawn-1": "#ffffff",
        "pawn-2": "#ff7ac6",
        "pawn-3": "#8ee8ff",
        "pawn-4": "#ff9e40",
    }
)
#: What the marks of a Zombie Kidz picture mean, for every renderer's legend (the
#: keys are those of ``BoardView.legend``).
BOARD_LEGEND: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tomb-red": "the red tomb",
        "tomb-yellow": "the yellow tomb",
        "tomb-green": "the green tomb",
        "tomb-black": "the black tomb",
        "tomb-blue": "the blue tomb",
        "gate": "a gate",
        "gate-locked": "a locked gate",
        "zombie:Z": "a zombie",
        "lock:L": "a lock: the gate is locked",
        "pawn-1:1": "player 1's pawn",
        "pawn-2:2": "player 2's pawn",
        "pawn-3:3": "player 3's pawn",
        "pawn-4:4": "player 4's pawn",
        "note": "the zombies on the zone",
        "note:2": "the zombies on the zone",
        "path": "a path between zones",
    }
)
ZOMBIE_TOKEN: Final[Token] = Token("zombie", "Z")
LOCK_TOKEN: Final[Token] = Token("lock", "L")
PAWN_TOKENS: Final[tuple[Token, ...]] = tuple(Token(f"pawn-{p}", str(p)) for p in range(1, 5))


def board_view(position: "ZombieKidzRules") -> BoardView:
    """The board for the renderers: see docs/zombie-kidz.md, "Board views"."""
    players = position.players
    links = PATHS_BOTH_SIDES + (PATHS_TWO_PLAYER_SIDE if players == 2 else ())
    unused = {f"pawn-{p}" for p in range(players + 1, 5)}
    palette = {role: colour for role, colour in PALETTE.items() if role not in unused}
    return BoardView(
        files=("a", "b", "c"),
        ranks=("1", "2", "3"),
        cells=MappingProxyType(
            {name: _cell(position, zone) for zone, name in enumerate(ZONE_NAMES)}
        ),
        palette=MappingProxyType(palette),
        links=links,
        marks=_last_marks(position),
        facts=_facts(position),
        caption=caption(position),
        # Zones where separate figures meet: pawns, zombies and a lock stand side by side.
        token_layout=SPREAD,
        legend=BOARD_LEGEND,
    )


def _cell(position: "ZombieKidzRules", zone: int) -> Cell:
    """A zone's cell: its role, then (bottom to top) a lock, its zombies, its pawns."""
    name = ZONE_NAMES[zone]
    tokens: list[Token] = []
    if zone in GATES:
        locked = bool(position._locked & GATE_BIT[zone])
        role = "gate-locked" if locked else "gate"
        if locked:
            tokens.append(LOCK_TOKEN)
    else:
        role = "tomb-" + TOMB_COLOURS[name]
    count = position._zombies[zone]
    tokens.extend([ZOMBIE_TOKEN] * count)
    tokens.extend(PAWN_TOKENS[p] for p, z in enumerate(position._pawns) if z == zone)
    return Cell(name, role, tuple(tokens), str(count) if count else "")


def _last_marks(position: "ZombieKidzRules") -> tuple[str, ...]:
    """The placement tomb (unless the pawn's zones name it), then from and to, or the
    zone the pawn stayed on."""
    if not position._history:
        return ()
    last = ZombieKidzUndo._make(position._history[-1])
    tomb, origin = last.tomb, last.origin
    target = position._pawns[(position.turn - 1) % position.players]
    zones = (origin,) if target == origin else (origin, target)
    placed = (tomb,) if tomb >= 0 and tomb not in zones else ()
    return tuple(ZONE_NAMES[z] for z in placed + zones)


def _facts(position: "ZombieKidzRules") -> tuple[tuple[str, str], ...]:
    if position._end is None:
        status = ("To move", position.mover)
    else:
        result, _, why = position._end
        status = ("Result", f"{result}, {RESULT_NAMES[result]} ({why})")
    reserve, total = position.reserve, position.zombie_total
    locks = position.locked_gates
    return (
        status,
        ("Turns played", str(position.turn)),
        ("Reserve", f"{reserve} of {total}"),
        ("Board side", side_name(position.players)),
        ("Locks", f"{', '.join(locks) if locks else 'none'} ({len(locks)} of 4)"),
        ("Zombies on the board", str(total - reserve)),
    )


def caption(position: "ZombieKidzRules") -> str:
    """The last turn in the canonical form and what it did, in words."""
    if not position._history:
        return ""
    last = ZombieKidzUndo._make(position._history[-1])
    move, origin, cleared, lock = last.move, last.origin, last.cleared, last.lock
    player = (position._turn - 1) % position._players
    target = position._pawns[player]
    if last.tomb >= 0:
        roll = f"{move.colour} tomb +1"
    elif move.die == "W":
        roll = "white, no zombie"
    else:
        roll = f"{move.colour}, no zombie left to place"
    text = f"{TURNS[move.die, origin, target, cleared > 0, lock > 0]}: {roll}"
    end = position._end
    if end is None or end[0] == PLAYERS_WIN:
        step = (
            f"moved to {ZONE_NAMES[target]}"
            if target != origin
            else f"stayed on {ZONE_NAMES[origin]}"
        )
        text += f", player {player + 1} {step}"
        if cleared:
            text += f" and eliminated {zombies_text(cleared)}"
        if lock:
            text += f" and locked {ZONE_NAMES[target]}"
    if end is not None:
        text += f"; {RESULT_NAMES[end[0]]}: {end[2]}"
    return text
