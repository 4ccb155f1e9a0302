"""Cave position strings: docs/cave.md, "Position strings".

Six fields separated by single spaces, ``board reserves removed passes mover turn``::

    d2:r??,b3:rK@9,c4:b??,a5:bZ@14 1/0 S@5Z@14/S@5S@9K@20 0 r 30

:func:`position_string` writes one; :func:`read_position` reads one back, refusing a
malformed string or a position no legal game reaches with a message that names the
field.  Reading checks the fields in the order they are written, then the position
as a whole, so that a string with several defects is always refused for the same one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeVar

from notation.errors import TagValueError
from notation.games.base import DRAW
from notation.games.cave.board import (
    BLACK,
    CLASS_NAMES,
    CLASS_OF,
    CLASS_PLURALS,
    LETTER_ORDER,
    LETTERS,
    LIMIT,
    MAX_TEAM,
    PIECE_SIDE,
    PIECES_PER_SIDE,
    RED,
    SIDE_CODES,
    SIDE_NAMES,
    SQUARE_INDEX,
    SQUARES,
    side_pieces,
)

if TYPE_CHECKING:
    from notation.games.cave.rules import CaveRules

P = TypeVar("P", bound="CaveRules")

__all__ = ["POSITION_FIELDS", "position_string", "read_position"]

POSITION_FIELDS = ("board", "reserves", "removed", "passes", "mover", "turn")

# A piece as a position string describes it: (class, or -1 if never shown; turn of
# the reveal, or 0 if not given).
_Member = tuple[int, int]
# A unit of the board field: (square, side, members bottom to top).
_Unit = tuple[int, int, list[_Member]]

# Numbers have at most 9 digits: int() refuses strings of thousands of digits with a
# ValueError, which must not escape from a hostile Position tag.
_MEMBER_RE = re.compile(r"\?|[KZS](?:@[1-9][0-9]{0,8})?")
_MEMBERS_RE = re.compile(r"(?:\?|[KZS](?:@[1-9][0-9]{0,8})?)+")
_UNIT_RE = re.compile(r"([a-z][0-9]+):([rb])(.*)")
_RESERVES_RE = re.compile(r"([0-6])/([0-6])")
_COUNT_RE = re.compile(r"0|[1-9][0-9]{0,8}")
#: Removed pieces are written revealed first, by turn, then K, Z, S.
_LETTER_RANK = {c: i for i, c in enumerate(LETTER_ORDER)}


# -- writing ------------------------------------------------------------------


def position_string(position: CaveRules) -> str:
    """The position as one line: board, reserves, removed, passes, mover, turn."""
    reserve = position._reserve
    turn = position.turn
    placed: set[int] = set().union(*position._board)
    return " ".join(
        (
            _board_field(position),
            f"{reserve[RED]}/{reserve[BLACK]}",
            "/".join(_removed_field(position, side, placed) for side in (RED, BLACK)),
            str(position._passes),
            SIDE_CODES[turn & 1],
            str(turn),
        )
    )


def _board_field(position: CaveRules) -> str:
    """Each occupied square, in board order: ``b3:rK@9?`` (side, then pieces bottom up)."""
    units = [
        f"{SQUARES[sq]}:{SIDE_CODES[PIECE_SIDE[stack[0]]]}{_members_text(position, stack)}"
        for sq, stack in enumerate(position._board)
        if stack
    ]
    return ",".join(units) or "-"


def _removed_field(position: CaveRules, side: int, placed: set[int]) -> str:
    """The pieces of ``side`` that entered and are not ``placed`` on the board."""
    entered = side_pieces(side)[: PIECES_PER_SIDE - position._reserve[side]]
    gone = [pid for pid in entered if pid not in placed]
    gone.sort(key=lambda pid: _removed_key(position, pid))
    return _members_text(position, gone) or "-"


def _removed_key(position: CaveRules, pid: int) -> tuple[int, int, int]:
    c = position._identity[pid]
    return (1, 0, 0) if c < 0 else (0, position._shown_at[pid], _LETTER_RANK[c])


def _members_text(position: CaveRules, pids: tuple[int, ...] | list[int]) -> str:
    """Pieces as written: ``?`` if never shown, else the letter and ``@turn`` if known."""
    identity, shown_at = position._identity, position._shown_at
    texts: list[str] = []
    for pid in pids:
        c, turn = identity[pid], shown_at[pid]
        texts.append("?" if c < 0 else f"{LETTERS[c]}@{turn}" if turn else LETTERS[c])
    return "".join(texts)


# -- reading: each field --------------------------------------------------------


def _bad(reason: str) -> TagValueError:
    return TagValueError("Position", f"bad Cave position: {reason}")


def _read_turn(text: str) -> int:
    if not _COUNT_RE.fullmatch(text):
        raise _bad(f"turn: {text!r} is not a number of turns played (0, 1, 2, ...)")
    return int(text)


def _read_mover(text: str, turn: int) -> None:
    """The side to move, which must fit the turn: Red plays the odd turns."""
    if text not in ("r", "b"):
        raise _bad(f"mover: {text!r} is not r (Red) or b (Black)")
    mover = SIDE_CODES.index(text)
    if mover != turn & 1:
        raise _bad(
            f"mover: after {turn} turns {SIDE_NAMES[turn & 1]} is to move, not "
            f"{SIDE_NAMES[mover]} (Red plays turns 1, 3, 5, ...)"
        )


def _read_reserves(text: str) -> list[int]:
    found = _RESERVES_RE.fullmatch(text)
    if found is None:
        raise _bad(
            f"reserves: {text!r} is not Red's and Black's reserves as two counts 0-6, e.g. 4/3"
        )
    return [int(found[1]), int(found[2])]


def _read_members(text: str, where: str) -> list[_Member]:
    if not _MEMBERS_RE.fullmatch(text):
        raise _bad(
            f"{where}: {text!r} is not a list of pieces "
            "(each ? for an unrevealed piece, or K, Z, S with an optional @turn, e.g. ?Z@7)"
        )
    return [
        (-1, 0) if token == "?" else (CLASS_OF[token[0]], int(token[2:] or 0))
        for token in _MEMBER_RE.findall(text)
    ]


def _read_board(text: str) -> list[_Unit]:
    """The board field: (square, side, members bottom to top) per unit, by square."""
    if text == "-":
        return []
    units: list[_Unit] = []
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


def _read_removed(text: str) -> list[list[_Member]]:
    parts = text.split("/")
    if len(parts) != 2:
        raise _bad(
            f"removed: {text!r} is not Red's and Black's removed pieces "
            "separated by / (- for none), e.g. ?S@9/-"
        )
    return [
        [] if part == "-" else _read_members(part, f"removed ({SIDE_NAMES[side]})")
        for side, part in enumerate(parts)
    ]


def _read_passes(text: str) -> int:
    if not _COUNT_RE.fullmatch(text):
        raise _bad(f"passes: {text!r} is not a count of passes in a row (0, 1 or 2)")
    return int(text)


# -- reading: could legal play reach it? ------------------------------------------


def _check_material(side: int, on_board: int, reserve: int, removed: int, turn: int) -> None:
    """Each side has exactly 6 pieces, and entered no more than it has played turns."""
    name = SIDE_NAMES[side]
    total = on_board + reserve + removed
    if total != PIECES_PER_SIDE:
        raise _bad(
            f"{name} has {total} pieces ({on_board} on the board, {reserve} "
            f"in reserve, {removed} removed); each side has {PIECES_PER_SIDE}"
        )
    entered = PIECES_PER_SIDE - reserve
    played = (turn + 1 - side) // 2
    if entered > played:
        raise _bad(
            f"reserves: {entered} of {name}'s pieces have entered, but {name} has played "
            f"only {played} of the {turn} turns (an entry takes a turn)"
        )


def _check_reveals(side: int, members: list[_Member], turn: int) -> None:
    """No reveal later than the turn, one reveal per side and turn, at most 1 K, 2 Z, 3 S."""
    name = SIDE_NAMES[side]
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
    for c in LETTER_ORDER:
        if counts[c] > LIMIT[c]:
            what = CLASS_PLURALS[c] if counts[c] > 1 else CLASS_NAMES[c]
            raise _bad(f"{name} shows {counts[c]} {what}; each side has 1 K, 2 Z, 3 S")


def _check_survivors(on_board: list[int], reserve: list[int]) -> None:
    """A side with nothing left lost a fight, whose winner is still on the board."""
    out = [reserve[side] + on_board[side] == 0 for side in (RED, BLACK)]
    if out[RED] and out[BLACK]:
        raise _bad("board: neither side has a piece left; a fight always leaves its winner")
    for side in (RED, BLACK):
        if out[side] and not on_board[1 - side]:
            loser, other = SIDE_NAMES[side], SIDE_NAMES[1 - side]
            raise _bad(
                f"board: {loser} has no piece left and {other} none on the board; the "
                f"fight that removed {loser}'s last piece left its winner there"
            )


def _check_passes(position: CaveRules, passes: int, turn: int) -> None:
    """The passes fit the board: each passer had no action, and the game was not over."""
    if not passes:
        return
    if position._result is not None:
        raise _bad(f"passes: {passes}, but the game was already over (no move follows the end)")
    if passes > 2:
        raise _bad(f"passes: {passes}, but two passes in a row end the game")
    if passes > turn:
        raise _bad(f"passes: {passes} in a row, but only {turn} turns have been played")
    for k in range(passes):
        passer = (turn - 1 - k) & 1
        if position._has_action(passer):
            raise _bad(
                f"passes: {passes} in a row, but {SIDE_NAMES[passer]} has a legal action "
                "here, so it could not have passed (a side passes only when it has none)"
            )


# -- reading: the whole string -----------------------------------------------------


def read_position(cls: type[P], text: str) -> P:
    """The position ``text`` describes, as an instance of ``cls``.

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
    turn = _read_turn(turn_text)
    _read_mover(mover_text, turn)
    reserve = _read_reserves(reserves_text)
    units = _read_board(board_text)
    removed = _read_removed(removed_text)
    passes = _read_passes(passes_text)

    on_board = [0, 0]
    for _, side, members in units:
        on_board[side] += len(members)
    for side in (RED, BLACK):
        _check_material(side, on_board[side], reserve[side], len(removed[side]), turn)
        on_side = [member for _, s, members in units if s == side for member in members]
        _check_reveals(side, on_side + removed[side], turn)
    _check_survivors(on_board, reserve)

    position = cls()
    position._base = turn
    position._reserve = reserve
    position._on_board = on_board
    _place_pieces(position, units, removed)
    # docs/cave.md, "End of the game and results": the same rule as after a move.
    position._check_end()
    _check_passes(position, passes, turn)
    position._passes = passes
    if passes >= 2:  # two passes in a row end the game drawn (no position allows them)
        position._result = DRAW
        position._ended_at = turn
    return position


def _place_pieces(position: CaveRules, units: list[_Unit], removed: list[list[_Member]]) -> None:
    """Give the pieces their ids: per side, those on the board in board order, bottom
    to top, then the removed ones in the order written (docs/cave.md, "Position strings")."""
    next_id = [0, PIECES_PER_SIDE]

    def place(side: int, members: list[_Member]) -> tuple[int, ...]:
        ids = tuple(range(next_id[side], next_id[side] + len(members)))
        next_id[side] += len(members)
        for pid, (c, shown_at) in zip(ids, members, strict=True):
            if c >= 0:
                position._reveal(pid, c, shown_at)
        return ids

    for sq, side, members in units:
        position._board[sq] = place(side, members)
    for side in (RED, BLACK):
        place(side, removed[side])
