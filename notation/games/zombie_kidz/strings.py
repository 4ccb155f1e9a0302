"""Position strings: writing and reading (docs/zombie-kidz.md, "Position strings").

``101/000/101 b2,b2 - 4/8 2 1 0`` is the start of a 2-player game with 8 zombies.
Reading checks each of the seven fields alone, then the fields together against
what the rules make impossible, in the order the docs list those checks; every
error is ``TagValueError("Position", reason)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

from notation.errors import TagValueError
from notation.games.zombie_kidz.board import (
    ALL_GATES_LOCKED,
    CENTRE,
    DEADLY,
    GATE_BIT,
    GATES,
    PLAYER_COUNTS,
    PLAYERS_WIN,
    ZOMBIE_COUNTS,
    ZOMBIES_WIN,
    ZONE_INDEX,
    ZONE_NAMES,
    zone_list,
)
from notation.games.zombie_kidz.words import (
    ALL_GATES_ARE_LOCKED,
    NO_ZOMBIE_LEFT,
    RESERVE_EMPTY,
    caught,
    standing,
    turns_text,
    zombies_text,
)

if TYPE_CHECKING:
    from notation.games.zombie_kidz.rules import ZombieKidzRules

P = TypeVar("P", bound="ZombieKidzRules")

#: The fields of a position string, for messages: see docs/zombie-kidz.md,
#: "Position strings".
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
_GATES_ARE = "the gates are a1, c1, a3 and c3"


def _bad(reason: str) -> TagValueError:
    """The error for a Position tag this game cannot read or reach."""
    return TagValueError("Position", reason)


# -- writing -------------------------------------------------------------------


def position_string(position: ZombieKidzRules) -> str:
    """The position as one line: the seven fields, separated by spaces."""
    zombies = position._zombies
    grid = "/".join(
        "".join(str(zombies[file + 3 * rank]) for file in range(3)) for rank in (2, 1, 0)
    )
    pawns = ",".join(ZONE_NAMES[z] for z in position._pawns)
    locks = ",".join(position.locked_gates) or "-"
    end = position._end
    to_move = str(position.turn % position.players + 1) if end is None else end[0]
    return (
        f"{grid} {pawns} {locks} {position.reserve}/{position.zombie_total} "
        f"{position.players} {to_move} {position.turn}"
    )


# -- reading: each field alone -------------------------------------------------


@dataclass(slots=True)
class _Fields:
    """What the seven fields of a position string say, each read alone."""

    zombies: list[int]
    pawns: list[int]
    locked: int
    reserve: int
    total: int
    players: int
    result: str | None
    turn: int
    #: Zombies on the board, and pawns per zone: what the checks ask most.
    board: int
    pawn_count: list[int]


def read_position(cls: type[P], text: str) -> P:
    """The position ``text`` describes, as an instance of ``cls``."""
    fields = _read_fields(text)
    why = _check_reachable(fields)
    position = cls(fields.players, fields.total)
    end = None if fields.result is None else (fields.result, fields.turn, why)
    position._load(fields.zombies, fields.pawns, fields.locked, fields.turn, end)
    return position


def _read_fields(text: str) -> _Fields:
    parts = text.split()
    if len(parts) != 7:
        raise _bad(f"a Zombie Kidz position has 7 fields, not {len(parts)}: {POSITION_FIELDS}")
    grid, pawn_field, lock_field, reserve_field, player_field, mover_field, turn_field = parts
    zombies = _read_grid(grid)
    players = _read_players(player_field)
    pawns = _read_pawns(pawn_field, players)
    locked = _read_locks(lock_field)
    reserve, total = _read_reserve(reserve_field)
    turn = _read_turn(turn_field)
    result = _read_to_move(mover_field, turn, players)
    pawn_count = [0] * len(ZONE_NAMES)
    for zone in pawns:
        pawn_count[zone] += 1
    return _Fields(
        zombies, pawns, locked, reserve, total, players, result, turn, sum(zombies), pawn_count
    )


def _read_grid(field: str) -> list[int]:
    """Zombies per zone (by zone index) from three ranks of digits, rank 3 first."""
    if not _GRID.fullmatch(field):
        raise _bad(
            f"the zombies field {field!r} is not three ranks of three digits, "
            "rank 3 first (101/000/101 at the start)"
        )
    rows = field.split("/")
    return [int(rows[2 - zone // 3][zone % 3]) for zone in range(len(ZONE_NAMES))]


def _read_players(field: str) -> int:
    if field not in PLAYER_COUNTS:
        raise _bad(f"the players field {field!r} is not 2, 3 or 4")
    return PLAYER_COUNTS[field]


def _read_pawns(field: str, players: int) -> list[int]:
    pawns: list[int] = []
    for name in field.split(","):
        zone = ZONE_INDEX.get(name.lower())
        if zone is None:
            raise _bad(f"{name!r} in the pawns field is not a zone (the zones are a1 to c3)")
        pawns.append(zone)
    if len(pawns) != players:
        raise _bad(
            f"the pawns field places {len(pawns)} pawn{'s' if len(pawns) > 1 else ''}, "
            f"but the players field says {players} players"
        )
    return pawns


def _read_locks(field: str) -> int:
    """The locked gates as GATE_BIT bits: each a gate, each named once."""
    locked = 0
    if field == "-":
        return locked
    for name in field.split(","):
        zone = ZONE_INDEX.get(name.lower())
        if zone is None:
            raise _bad(f"{name!r} in the locks field is not a zone ({_GATES_ARE})")
        if zone not in GATES:
            raise _bad(
                f"{ZONE_NAMES[zone]} in the locks field is a tomb, not a gate ({_GATES_ARE})"
            )
        if locked & GATE_BIT[zone]:
            raise _bad(f"{ZONE_NAMES[zone]} is named twice in the locks field")
        locked |= GATE_BIT[zone]
    return locked


def _read_reserve(field: str) -> tuple[int, int]:
    """(reserve, total) from ``reserve/total``."""
    match = _RESERVE.fullmatch(field)
    if match is None:
        raise _bad(f"the reserve field {field!r} is not reserve/total (4/8 at the start)")
    reserve, total = int(match[1]), int(match[2])
    if total not in ZOMBIE_COUNTS.values():
        raise _bad(
            f"the zombie total {total} (reserve field {field}) is not 8, or 7 in the harder game"
        )
    return reserve, total


def _read_turn(field: str) -> int:
    if not _NUMBER.fullmatch(field):
        raise _bad(f"the turn field {field!r} is not the number of turns played (0 at the start)")
    return int(field)


def _read_to_move(field: str, turn: int, players: int) -> str | None:
    """The result of a finished game, or None: then the field must name the player
    the turns played make the mover."""
    if field in (PLAYERS_WIN, ZOMBIES_WIN):
        return field
    if field not in ("1", "2", "3", "4"):
        raise _bad(
            f"the to-move field {field!r} is neither a player (1 to {players}) "
            "nor the result (1-0, 0-1) of a finished game"
        )
    expected = turn % players + 1
    if int(field) != expected:
        raise _bad(
            f"the to-move field says player {field}, but after {turns_text(turn)} "
            f"of {players} players player {expected} is to move"
        )
    return None


# -- reading: the fields together ----------------------------------------------


def _check_reachable(fields: _Fields) -> str:
    """Raise for a position the rules make impossible; the reason the game ended
    ("" while it goes on)."""
    _check_count(fields)
    _check_gates(fields)
    _check_turns_so_far(fields)
    why = _why_over(fields)
    if fields.result != ZOMBIES_WIN:
        _check_movers_zones(fields)
    return why


def _check_count(fields: _Fields) -> None:
    """The board and the reserve make the total."""
    board, reserve, total = fields.board, fields.reserve, fields.total
    if board > total:
        raise _bad(f"the board holds {zombies_text(board)}, more than the total of {total}")
    if board + reserve != total:
        raise _bad(
            f"the board holds {board} zombies and the reserve {reserve}, "
            f"which makes {board + reserve}, not the total of {total}"
        )


def _check_gates(fields: _Fields) -> None:
    """No roll brings a zombie to a gate, a pawn clears a gate as it arrives, and a
    second pawn locks it (docs/zombie-kidz.md, "A turn")."""
    pawns, locked = fields.pawns, fields.locked
    for gate in sorted(GATES):
        name, held, bit = ZONE_NAMES[gate], fields.zombies[gate], GATE_BIT[gate]
        on_gate = fields.pawn_count[gate]
        if held > 1:
            raise _bad(
                f"gate {name} holds {held} zombies; no roll puts a zombie on a gate, "
                "so a gate holds 1 at most"
            )
        if held and locked & bit:
            raise _bad(f"gate {name} is locked but holds a zombie; locking clears a gate")
        if held and on_gate:
            raise _bad(
                f"{standing(pawns, gate)} on gate {name}, which holds a zombie; "
                "a pawn clears a gate as it arrives"
            )
        if on_gate >= 2 and not locked & bit:
            raise _bad(
                f"{standing(pawns, gate)} on gate {name}, which is not locked; "
                "a gate is locked when a second pawn reaches it"
            )


def _check_turns_so_far(fields: _Fields) -> None:
    """One zombie at most per roll; a player who has had no turn still stands on b2."""
    turn = fields.turn
    on_tombs = fields.board - sum(fields.zombies[g] for g in GATES)
    if on_tombs > turn:
        raise _bad(
            f"the tombs hold {zombies_text(on_tombs)} after {turns_text(turn)}; "
            "a roll brings one zombie at most"
        )
    for player in range(turn, fields.players):
        if fields.pawns[player] != CENTRE:
            raise _bad(
                f"player {player + 1} has had no turn yet ({turns_text(turn)}), so stands "
                f"on b2, not {ZONE_NAMES[fields.pawns[player]]}"
            )


def _why_over(fields: _Fields) -> str:
    """Check the to-move field against how the game stands (docs/zombie-kidz.md,
    "Results"); the reason the game ended, "" while it goes on."""
    zombies, pawns = fields.zombies, fields.pawns
    full = [z for z, n in enumerate(fields.pawn_count) if n and zombies[z] >= DEADLY]
    if len(full) > 1:
        raise _bad(
            f"pawns stand among 3 or more zombies on {zone_list(full)}; the game ends at the first"
        )
    lost = caught(pawns, full[0], zombies[full[0]]) if full else ""
    all_locked = fields.locked == ALL_GATES_LOCKED
    if fields.board == 0 and all_locked:
        raise _bad(
            "the board is empty and all four gates are locked; "
            "the game ends at the first of the two"
        )
    if fields.result is None:
        _check_going_on(fields, lost, all_locked)
        return ""
    if fields.turn == 0:
        raise _bad(f"the to-move field says the game is over ({fields.result}) before any turn")
    if fields.result == PLAYERS_WIN:
        return _why_players_won(fields, lost, all_locked)
    return _why_zombies_won(fields, lost, all_locked)


def _check_going_on(fields: _Fields, lost: str, all_locked: bool) -> None:
    if lost:
        raise _bad(f"{lost}: the zombies have won, so the to-move field is 0-1")
    if fields.board == 0:
        raise _bad("no zombie is on the board: the players have won, so the to-move field is 1-0")
    if all_locked:
        raise _bad("all four gates are locked: the players have won, so the to-move field is 1-0")


def _why_players_won(fields: _Fields, lost: str, all_locked: bool) -> str:
    if lost:
        raise _bad(f"{lost}, yet the to-move field says the players won (1-0)")
    if fields.board and not all_locked:
        raise _bad(
            "the to-move field says the players won (1-0), but zombies are on the "
            "board and not all four gates are locked"
        )
    return NO_ZOMBIE_LEFT if fields.board == 0 else ALL_GATES_ARE_LOCKED


def _why_zombies_won(fields: _Fields, lost: str, all_locked: bool) -> str:
    """Why the zombies won: a pawn among 3 zombies, or an empty reserve."""
    if all_locked:
        raise _bad("the to-move field says the zombies won (0-1), but all four gates are locked")
    if lost:
        return lost
    if fields.reserve == 0:
        return RESERVE_EMPTY
    raise _bad(
        "the to-move field says the zombies won (0-1), but the reserve is not empty "
        "and no pawn stands among 3 or more zombies"
    )


def _check_movers_zones(fields: _Fields) -> None:
    """A pawn's zone is empty at the end of its turn (cleared, or locked and so
    empty); since then each roll has brought one zombie at most."""
    turn, players, zombies = fields.turn, fields.players, fields.zombies
    for ago in range(1, min(players, turn) + 1):
        player = (turn - ago) % players
        zone = fields.pawns[player]
        if zombies[zone] > ago - 1:
            raise _bad(
                f"player {player + 1} stands on {ZONE_NAMES[zone]} with "
                f"{zombies_text(zombies[zone])}, but that zone was empty after its "
                f"turn {turn - ago + 1} and {_rolls_since(ago - 1)} come since"
            )


def _rolls_since(rolls: int) -> str:
    if rolls == 0:
        return "no roll has"
    if rolls == 1:
        return "only 1 roll has"
    return f"only {rolls} rolls have"
