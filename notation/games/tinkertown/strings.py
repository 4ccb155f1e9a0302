"""Position strings: writing and reading them (docs/tinkertown.md, "Position strings").

Five fields separated by spaces: the board (rank 8 first, ranks separated by
``/``), the side to move, the stage, the last placements and the turns played::

    4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0

Reading is strict: every refusal is a ``TagValueError("Position", reason)`` whose
reason names the field and says what is wrong, and positions no game reaches are
refused too.  The functions read and fill a position through its package-internal
attributes; :class:`~notation.games.tinkertown.position.TinkertownPosition` delegates
to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import groupby
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from notation.errors import TagValueError
from notation.games.tinkertown.board import (
    CHAPEL,
    COLOURS,
    GRAVES,
    MOVEMENT,
    NEIGHBOURS,
    OFF_BOARD,
    RED,
    RESURRECTION,
    SIDE_NAMES,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    WHITE,
    not_a_grave,
    plural,
    zombies,
)

if TYPE_CHECKING:
    from notation.games.tinkertown.rules import TinkertownRules

#: What the board field describes, rank 8 first, each rank left to right: the
#: graves and the chapel (the corners outside the cemetery are left out).
ROWS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sq for sq in range(SIZE * rank, SIZE * rank + SIZE) if sq not in OFF_BOARD)
    for rank in range(SIZE - 1, -1, -1)
)
#: One item of a rank: a count of empty graves, a tombstone, a chapel square or a
#: stack (bottom to top, its top zombie in capitals).
_ITEM = re.compile(r"[1-8]|\+|#|[wr]*[WR]")
_PLACEMENTS = re.compile(r"([a-h][1-8]|-),([a-h][1-8]|-)")
_TURNS = re.compile(r"0|[1-9][0-9]{0,8}")
_EXAMPLE = "4/6/8/3##3/3##3/8/6/4 w resurrection -,- 0"


def _bad(reason: str) -> TagValueError:
    return TagValueError("Position", f"bad position string: {reason}")


# -- writing -----------------------------------------------------------------------


def write(position: TinkertownRules) -> str:
    """``position`` as its position string."""
    board = "/".join(_write_rank(position, row) for row in ROWS)
    last = ",".join(SQUARE_NAMES[sq] if sq >= 0 else "-" for sq in position._last)
    side = COLOURS[position._to_move]
    return f"{board} {side} {position.stage} {last} {position.turn}"


def _write_rank(position: TinkertownRules, row: tuple[int, ...]) -> str:
    """One rank: each run of empty graves as its length, every other square as its item."""
    items = (_item(position, sq) for sq in row)
    return "".join(
        str(len(list(run))) if empty else "".join(run)
        for empty, run in groupby(items, key=lambda item: not item)
    )


def _item(position: TinkertownRules, sq: int) -> str:
    """The item of ``sq`` in the board field ("" for an empty grave)."""
    if sq in CHAPEL:
        return "#"
    if position._tomb[sq]:
        return "+"
    stack = position._stacks[sq]
    # The capital ends the stack and shows who controls the group.
    return stack[:-1] + stack[-1].upper() if stack else ""


# -- reading -----------------------------------------------------------------------


def read(position: TinkertownRules, text: str) -> None:
    """Put the position ``text`` describes on ``position``, a new, empty one.

    ``TagValueError("Position", reason)`` if the string is malformed or describes a
    position no game reaches.
    """
    fields = text.split()
    if len(fields) != 5:
        raise _bad(
            f"{len(fields)} fields; a position string has 5, separated by spaces: "
            "board, side to move, stage, last placements, turns played "
            f"(e.g. {_EXAMPLE})"
        )
    board, side, stage, placements, turns = fields
    _read_board(position, board)
    position._to_move = _read_side(side)
    position._movement = _read_stage(stage) == MOVEMENT
    position._last[:] = _read_placements(placements)
    position._base = _read_turns(turns, position._to_move)
    if not position._movement:
        _check_resurrection(position)
    elif not any(position._stacks) and not any(position._tomb):
        raise _bad(
            "the movement stage in an empty cemetery: zombies only leave the board "
            "in a capture, which leaves a tombstone"
        )


def _read_side(text: str) -> int:
    if text not in ("w", "r"):
        raise _bad(f"side to move {text!r}: w (White) or r (Red)")
    return COLOURS.index(text)


def _read_stage(text: str) -> str:
    if text not in (RESURRECTION, MOVEMENT):
        raise _bad(f"stage {text!r}: resurrection or movement")
    return text


def _read_placements(text: str) -> list[int]:
    """White's and Red's most recent placement (-1 for none)."""
    match = _PLACEMENTS.fullmatch(text)
    if match is None:
        raise _bad(
            f"last placements {text!r}: White's and Red's most recent "
            "placement, each a square or -, separated by a comma (d3,c2)"
        )
    last = [-1, -1]
    for side, name in enumerate(match.groups()):
        if name != "-":
            sq = SQUARE_INDEX[name]
            why = not_a_grave(sq)
            if why:
                raise _bad(f"last placements {text!r}: {why}")
            last[side] = sq
    return last


def _read_turns(text: str, side: int) -> int:
    """The turns played, which must fit the side to move."""
    if _TURNS.fullmatch(text) is None:
        raise _bad(f"turns played {text!r}: a number without leading zeros (0 at the start)")
    turns = int(text)
    if turns % 2 != side:
        raise _bad(
            f"side to move {COLOURS[side]} after {plural(turns, 'turn')}: "
            "White moves after an even number of turns, Red after an odd one"
        )
    return turns


# -- the board field ----------------------------------------------------------------


def _read_board(position: TinkertownRules, board: str) -> None:
    ranks = board.split("/")
    if len(ranks) != SIZE:
        raise _bad(f"the board has {len(ranks)} ranks; it has 8, rank 8 first, separated by /")
    for rank, row, text in zip(range(SIZE, 0, -1), ROWS, ranks, strict=True):
        _read_rank(position, f"rank {rank} {text!r}", row, text)


def _read_rank(position: TinkertownRules, where: str, row: tuple[int, ...], text: str) -> None:
    """Put one rank, ``text``, on the squares of ``row``; ``where`` names it in messages."""
    at = 0  # how many squares of the row the items so far describe
    after_count = False
    for item in _items(text, where):
        count = int(item) if item.isdigit() else 1
        if item.isdigit() and after_count:
            raise _bad(f"{where}: two counts of empty graves in a row")
        after_count = item.isdigit()
        if at + count > len(row):
            raise _bad(f"{where} describes more than its {_rank_size(row)}")
        for sq in row[at : at + count]:
            _put_item(position, where, item, sq)
        at += count
    if at != len(row):
        raise _bad(f"{where} describes {at} of its {_rank_size(row)}")


def _items(text: str, where: str) -> Iterator[str]:
    """The items of one rank, in order."""
    i = 0
    while i < len(text):
        match = _ITEM.match(text, i)
        if match is None:
            raise _bad(
                f"{where}: unexpected {text[i]!r}; a rank is digits 1-8 for empty "
                "graves, + for a tombstone, # for the chapel and stacks of w and r "
                "bottom to top, the top one a capital (wwR)"
            )
        yield match.group()
        i = match.end()


def _rank_size(row: tuple[int, ...]) -> str:
    """What a rank describes, in words: "8 squares (a-h with the chapel (##) in d and e)"."""
    span = f"{SQUARE_NAMES[row[0]][0]}-{SQUARE_NAMES[row[-1]][0]}"
    chapel = " with the chapel (##) in d and e" if row[3] in CHAPEL else ""
    return f"{len(row)} squares ({span}{chapel})"


def _put_item(position: TinkertownRules, where: str, item: str, sq: int) -> None:
    """Put ``item`` (not a count: a count leaves its graves empty) on ``sq``."""
    if (item == "#") != (sq in CHAPEL):
        if item == "#":
            raise _bad(
                f"{where}: # stands for {SQUARE_NAMES[sq]}, a grave; "
                "the chapel is d and e of ranks 4 and 5"
            )
        raise _bad(f"{where}: {SQUARE_NAMES[sq]} is the chapel, written #")
    if item == "+":
        position._bury(sq)
    elif not item.isdigit() and item != "#":
        position._set(sq, item.lower())


# -- positions no game reaches ------------------------------------------------------


def _check_resurrection(position: TinkertownRules) -> None:
    """Refuse a resurrection-stage position that no game reaches (docs/tinkertown.md,
    "Position strings" and "The resurrection stage")."""
    _check_single_zombies(position)
    _check_zombie_counts(position)
    _check_last_placements(position)
    if position._base:
        _check_last_is_alone(position)


def _check_single_zombies(position: TinkertownRules) -> None:
    """No tombstone (they come from captures) and one zombie a grave at most."""
    for sq in GRAVES:
        if position._tomb[sq]:
            raise _bad(
                f"a tombstone on {SQUARE_NAMES[sq]} in the resurrection stage; "
                "tombstones come from captures in the movement stage"
            )
        height = len(position._stacks[sq])
        if height > 1:
            raise _bad(
                f"{SQUARE_NAMES[sq]} holds {height} zombies in the "
                "resurrection stage, where a grave holds one at most"
            )


def _turns_of(turn: int) -> tuple[int, int]:
    """The turns White and Red have played after ``turn`` turns (White plays first)."""
    return (turn + 1) // 2, turn // 2


def _check_zombie_counts(position: TinkertownRules) -> None:
    """White places one zombie on its first turn, then two a turn, as Red does."""
    turn = position._base
    white_turns, red_turns = _turns_of(turn)
    expected = (max(0, 2 * white_turns - 1), 2 * red_turns)
    for side in (WHITE, RED):
        have = position.zombie_count(side)
        if have != expected[side]:
            raise _bad(
                f"{SIDE_NAMES[side]} has {zombies(have)} on the board; after {turn} "
                f"turns of the resurrection stage it has {expected[side]}"
            )


def _check_last_placements(position: TinkertownRules) -> None:
    """A side's last placement is there once it has placed, and holds its zombie."""
    turn = position._base
    for side, turns_played in zip((WHITE, RED), _turns_of(turn), strict=True):
        name = SIDE_NAMES[side]
        sq = position._last[side]
        if sq < 0 and turns_played:
            raise _bad(f"{name}'s last placement is missing after {turn} turns; write its square")
        if sq >= 0 and not turns_played:
            raise _bad(
                f"{name}'s last placement {SQUARE_NAMES[sq]}: {name} has not placed yet; write -"
            )
        if sq >= 0 and position._stacks[sq] != COLOURS[side]:
            raise _bad(f"{name}'s last placement {SQUARE_NAMES[sq]} holds no {name.lower()} zombie")


def _check_last_is_alone(position: TinkertownRules) -> None:
    """The last placement of the side that just played was White's opening or a (b):
    made next to empty graves only, and nothing has been placed since."""
    side = 1 - position._to_move
    last = position._last[side]
    busy = next((n for n in NEIGHBOURS[last] if position._stacks[n]), -1)
    if busy >= 0:
        raise _bad(
            f"{SIDE_NAMES[side]}'s last placement {SQUARE_NAMES[last]} has an "
            f"occupied neighbour ({SQUARE_NAMES[busy]}); it was made next to empty "
            "graves only, and nothing has been placed since"
        )


# -- the words of the board view's legend ------------------------------------------

#: What the marks of a Tinkertown picture mean, for every renderer's legend: the
#: board view's ``legend`` (keys as ``BoardView.legend`` says: roles, ``role:label``
#: tokens, ``stack:`` samples, ``note``).
BOARD_LEGEND: Final[Mapping[str, str]] = MappingProxyType(
    {
        "grave": "a grave",
        "over": "a grave whose group stands above capacity",
        "chapel": "the chapel (no zombie ever stands there)",
        "tombstone": "a tombstone: the grave is closed",
        "white:W": "a white zombie",
        "red:R": "a red zombie",
        "stack:WRW": "a stack, bottom to top",
        "note": "the grave's capacity (zombies it holds before a capture)",
        "note:3": "the grave's capacity (zombies it holds before a capture)",
    }
)
