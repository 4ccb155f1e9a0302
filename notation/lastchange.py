"""The turn that last changed the square a rules defect depends on.

Every check names it once it finds such a defect (a grave that holds too few zombies,
a Cave square with a hidden piece shown earlier, a Zombie Kidz zone full of zombies):
moves are taken back, on a copy of the position of the defect, until the square is
seen otherwise (its background, or what stands on it, as the board view shows them).
Nothing of it runs while a record checks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from notation.errors import Defect, LastChange, MisuseError, NotationException
from notation.visitor import expected_number

if TYPE_CHECKING:
    from notation.games.base import Game, Position

__all__ = ["ROLL_CODES", "SQUARE_OF_CODE", "last_change", "with_last_change"]

# -- the square a rules defect depends on --------------------------------------------

#: The rules defects that depend on what stands on a square, by code: which of the
#: squares the message names is that square (0: the first, -1: the last).  A code not
#: here depends on no square's contents (a square off the board, a move that is not
#: straight, the stage of the game), or on the whole board.
SQUARE_OF_CODE: Final[Mapping[str, int]] = MappingProxyType({
    # Tinkertown Cemetery
    "tinkertown-occupied": 0,  # "d3 is occupied"
    "tinkertown-not-next-to-last": -1,  # "... next to Red's last placement f5"
    "tinkertown-neighbour-occupied": -1,  # "b5 has an occupied neighbour (c5)"
    "tinkertown-tombstone": 0,  # "a3 holds a tombstone"
    "tinkertown-no-group": 0,  # "g7 is empty: no group to move"
    "tinkertown-not-controlled": 0,  # "the top zombie on g7 is Red's"
    "tinkertown-too-few-zombies": 0,  # "g7 holds 1 zombie; a move of 2 needs 2"
    "tinkertown-crosses-tombstone": -1,  # "h5-h3 crosses a tombstone at h4"
    "tinkertown-no-capture": 0,  # "no capture on h3 (...)"
    "tinkertown-entry-no-capture": 0,  # "no capture on h3: an entry onto ..."
    # Cave (a hidden piece: a reveal changes its square too)
    "cave-enter-occupied": 0,
    "cave-move-onto-enemy": 0,
    "cave-team-too-big": -1,
    "cave-attack-empty": 0,
    "cave-attack-own": 0,
    "cave-empty-square": 0,
    "cave-not-own-unit": 0,
    "cave-team-letter": 0,
    "cave-letter-missing": 0,
    "cave-letter-contradicts": 0,
    "cave-class-exhausted": 0,
    # Zombie Kidz (a roll changes the tomb it puts a zombie on)
    "zombie-kidz-zone-closed": 0,  # "b1 holds 3 zombies; no pawn may enter"
    "zombie-kidz-no-elimination": 0,
    "zombie-kidz-no-lock": 0,
    "zombie-kidz-wrong-origin": 0,  # "player 1 is on b2, not b1"
    "zombie-kidz-step-stays": 0,
})

#: The defects that depend on how many zombies a zone holds (Zombie Kidz), which the
#: broken turn's own roll may have changed: their message says so.
ROLL_CODES: Final = frozenset({"zombie-kidz-zone-closed", "zombie-kidz-no-elimination"})

#: Words of a message that may be squares (kept if the board has a cell of that name).
_SQUARE_WORD = re.compile(r"(?<![A-Za-z0-9])[a-z]{1,2}[0-9]{1,2}(?![A-Za-z0-9])")


def _roll(game: Game[Any], position: Position[Any], text: str, square: str) -> str:
    """For a turn ``text`` that starts with a roll (a move with a ``die``: Zombie Kidz),
    its die letter if the roll alone changes ``square`` (puts a zombie there), else
    ``""``: the roll is played alone, the pawn staying, on a copy of ``position``."""
    try:
        die = str(getattr(game.parse(text), "die", "") or "")
        if not die:
            return ""
        probe = position.copy()
        before = _cell_state(probe, square)
        probe.push(game.parse(die))
    except (NotationException, MisuseError):
        return ""
    return die if _cell_state(probe, square) != before else ""


def _cell_state(position: Position[Any], square: str) -> object:
    cell = position.board_view().cells.get(square)
    return None if cell is None else (cell.role, cell.tokens)


def last_change(position: Position[Any], square: str) -> tuple[int, Any] | None:
    """The turn that last changed ``square`` (its background or what stands on it)
    along the moves ``position`` was played with, and that turn's move; ``None`` if no
    move of them did.  ``position`` is left as it is (moves are taken back on a copy).

    After three turns of Tinkertown Cemetery, Red's pair at turn 2 last changed d2; no
    move touched a1:

    >>> import notation
    >>> position = notation.Record.from_moves("tinkertown", ["d3", "d2,b5", "c5,f2"]).end_position()
    >>> last_change(position, "d2")
    (2, Resurrection('d2,b5'))
    >>> last_change(position, "a1") is None
    True
    """
    probe = position.copy()
    now = _cell_state(probe, square)
    while True:
        turn = probe.turn
        try:
            move = probe.pop()
        except MisuseError:  # back at the start (or at a Position tag's position)
            return None
        if _cell_state(probe, square) != now:
            return turn, move


def with_last_change(
    game: Game[Any], position: Position[Any], defect: Defect, text: str
) -> Defect:
    """``defect`` (of the move ``text``, refused at ``position``) with the turn that last
    changed the square it depends on (:data:`SQUARE_OF_CODE`), in its message and as
    :attr:`~notation.errors.Defect.last_changed`; as it is for a defect that depends on
    no square, or on one no move changed.

    A check calls it for every rules defect, so a verdict's defect names that turn:

    >>> import notation
    >>> record = notation.read_string('[Game "tinkertown"]\\n\\n1. d3 d2,b5 2. d3,f2 *\\n')[0]
    >>> defect = notation.check_record(record).error
    >>> defect.message
    'd3 is occupied; d3 was last changed at turn 1: 1. d3'
    >>> defect.last_changed
    LastChange(square='d3', turn=1, move='d3', roll='')
    """
    index = SQUARE_OF_CODE.get(defect.code)
    if index is None or defect.last_changed is not None:
        return defect
    cells = position.board_view().cells
    named = [word for word in _SQUARE_WORD.findall(defect.message) if word in cells]
    if not named:
        return defect
    square = named[index]
    found = last_change(position, square)
    roll = _roll(game, position, text, square) if defect.code in ROLL_CODES else ""
    if found is None:
        if not roll:
            return defect
        message = f"; {square} gets a zombie from this turn's roll ({roll})"
        return replace(defect, message=defect.message + message)
    turn, move = found
    number, first = expected_number(turn, position.round_size)
    label = f"{number}{'.' if first else '...'} {move}"
    said = f"{square} was last changed at turn {turn}: {label}"
    if roll:
        said = f"{square} also gets a zombie from this turn's roll ({roll}); before it, {said}"
    change = LastChange(square, turn, str(move), roll)
    return replace(defect, message=f"{defect.message}; {said}", last_changed=change)
