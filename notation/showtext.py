"""The text ``notation show`` prints for a position of a record, as a string: what an
editor shows on hovering over a move (the position after it), with the facts of that
move as the game gives them (``Position.last_move_facts``).

The picture is the command's own (:func:`notation.render.show_text.show_renderable` on a
plain console of :data:`notation.render.terminal.PLAIN_WIDTH` columns), so it is what
``notation show FILE --record N --turn T | cat`` prints, whatever the terminal, its
width or the locale.
"""

from __future__ import annotations

import io
from typing import Any

from notation.errors import NotationException
from notation.record import MoveNode, Record
from notation.render.show_text import show_renderable
from notation.render.terminal import PLAIN_WIDTH, emit, make_console
from notation.stepper import Stepper

__all__ = ["facts_text", "position_after", "stepper_text"]


def stepper_text(stepper: Stepper, *, width: int = PLAIN_WIDTH, ascii: bool = False) -> str:
    """What ``notation show`` prints, piped, for the stepper's position."""
    out = io.StringIO()
    console = make_console(out, width=width, plain=True)
    emit(console, show_renderable(stepper, width=width, ascii=ascii, plain=True))
    return out.getvalue()


def facts_text(facts: dict[str, Any]) -> str:
    """A move's facts (``Position.last_move_facts``) as lines ``key: value``, the empty and
    false ones left out."""
    lines = []
    for key, value in facts.items():
        if value in (None, False, "", {}, []):
            continue
        shown = value
        if isinstance(value, dict):
            shown = ", ".join(f"{k} {v}" for k, v in value.items())
        lines.append(f"{key.replace('_', ' ')}: {shown}")
    return "\n".join(lines)


def position_after(
    record: Record, node: MoveNode | None, default_game: str | None = None
) -> tuple[str, str] | None:
    """The position after ``node`` (None: the record's start), as ``notation show`` draws
    it, and the facts of ``node``'s move; where a move on the way cannot be played, the
    position before it, with why (the picture ends with the reason).  None for a record
    whose game cannot start (no game, a bad setup tag)."""
    try:
        stepper = Stepper(record, default_game=default_game)
    except NotationException:
        return None
    facts = ""
    if node is not None and stepper.goto_node(node):
        facts = facts_text(stepper.position.last_move_facts())
    return stepper_text(stepper), facts
