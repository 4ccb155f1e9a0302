"""The positions of a record as SVG pictures, its last move drawn as an arrow.

:func:`position_svg` replays a record to a turn and draws the position reached
(:func:`notation.render.svg.board_svg`); :func:`draw_position` does it for a
:class:`~notation.stepper.Stepper` where it stands.  :func:`move_ends` and
:func:`last_move_arrow` say where the arrow of a move goes, for the pictures here and
for the HTML viewer's.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from notation.errors import NotationException
from notation.games.base import Game, Position
from notation.record import Record
from notation.render.svg import DEFAULT_SIZE, board_svg
from notation.stepper import Stepper

__all__ = [
    "PositionPicture",
    "draw_position",
    "last_move_arrow",
    "move_arrow",
    "move_ends",
    "position_svg",
]


# -- the last move as an arrow ----------------------------------------------------


def move_ends(game: Game[Any], move: Any, before: Position[Any] | None) -> tuple[str, str] | None:
    """(from, to) of ``move`` when it takes something from one square to another;
    None for an entry, a placement, a pass or a move that stays.

    The game says where a move goes in its JSON form (``"from"`` and ``"to"``, see
    ``Game.move_to_dict``); a short form that leaves ``from`` out is made canonical
    in ``before``, the position the move is played in.
    """
    try:
        data = game.move_to_dict(move)
        if data.get("from") is None and "from" in data and before is not None:
            data = game.move_to_dict(before.canonical(move))
    except NotationException:
        return None
    start, end = data.get("from"), data.get("to")
    if isinstance(start, str) and isinstance(end, str) and start != end:
        return start, end
    return None


def move_arrow(
    game: Game[Any], move: Any, before: Position[Any] | None, marks: Collection[str]
) -> tuple[str, str] | None:
    """The last move's arrow: :func:`move_ends`, when both are among ``marks`` (the
    squares the view says the move touched)."""
    ends = move_ends(game, move, before)
    if ends is not None and ends[0] in marks and ends[1] in marks:
        return ends
    return None


def last_move_arrow(stepper: Stepper, marks: Collection[str]) -> tuple[str, str] | None:
    """:func:`move_arrow` of the move that made ``stepper``'s position (None at a start)."""
    if stepper.cursor.position.turn <= stepper.start_turn or stepper.cursor.last_node is None:
        return None
    position = stepper.cursor.position
    move = position.pop()
    try:
        return move_arrow(stepper.game, move, position, marks)
    finally:
        position.push(move)


# -- a record's position --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PositionPicture:
    """What :func:`draw_position` reached: the picture, the turn, and any defect."""

    svg: str
    turn: int
    #: Whether the position drawn is the one asked for (False: a defect stopped the replay).
    reached: bool
    #: The record's first defect (``str`` of a :class:`notation.errors.Defect`).
    error: str | None


def draw_position(
    record: Record,
    game: str | None = None,
    turn: int | None = None,
    *,
    size: float = DEFAULT_SIZE,
    legend: bool = True,
) -> PositionPicture:
    """Replay ``record``'s main line to ``turn`` (default: its end) and draw it.

    ``game`` names the game of a record without a ``Game`` tag; ``legend`` adds
    what each mark means.  A broken record is drawn as far as it goes.  Raises
    :class:`notation.stepper.StepperError` when the record cannot be replayed at
    all (unknown game, bad setup tag).
    """
    stepper = Stepper(record, default_game=game)
    if turn is None:
        stepper.to_end()
        reached = stepper.cursor.defect is None
    else:
        reached = stepper.goto_turn(turn)
    error = stepper.cursor.defect or stepper.verdict.error
    view = stepper.cursor.position.board_view()
    return PositionPicture(
        svg=board_svg(
            view, size=size, title=_title(record, stepper.cursor.turn),
            arrow=last_move_arrow(stepper, view.marks), legend=legend,
        ),
        turn=stepper.cursor.turn,
        reached=reached,
        error=None if error is None else str(error),
    )


def position_svg(
    record: Record, game: str | None = None, turn: int | None = None, *,
    size: float = DEFAULT_SIZE, legend: bool = True,
) -> str:
    """The SVG of the position after ``turn`` of ``record``'s main line (default: the end).

    See :func:`draw_position`, which also says whether a defect stopped the replay.
    """
    return draw_position(record, game, turn, size=size, legend=legend).svg


def _title(record: Record, turn: int) -> str:
    event = record.tag("Event") or f"Record {record.index}"
    return f"{event}, after turn {turn}"
