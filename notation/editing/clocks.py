"""Clock times in a record: the ``[%clk h:mm:ss]`` command a comment after a move
holds, read, written and checked.

>>> from notation.editing.clocks import clock_text, parse_clock
>>> clock_text(3723.9), parse_clock("2:05"), parse_clock("1:2:3")
('1:02:03', '0:02:05', None)
"""

from __future__ import annotations

import re

from notation.errors import misuse, misuse_unless
from notation.record import Comment, MoveNode

__all__ = ["CLOCK_COMMAND", "CLOCK_LIMIT", "clock_seconds", "clock_text", "parse_clock",
           "require_clock", "set_clock_comment"]

#: A clock command in a comment, ``[%clk 1:02:03]``.
CLOCK_COMMAND = re.compile(r"\[%clk [^\]]*\]")
_CLOCK_VALUE = re.compile(r"(\d{1,3}):([0-5]?\d):([0-5]\d)")

#: Seconds a clock can show: ``[%clk h:mm:ss]`` is read back with at most 3 digits of hours.
CLOCK_LIMIT = 1000 * 3600


def require_clock(clock: object) -> None:
    """``MisuseError`` unless ``clock`` is a function giving seconds (a stopwatch), or
    ``None``."""
    misuse_unless(clock is None or callable(clock), "clock", "a function giving seconds, or None",
                  clock)


def clock_seconds(value: object, what: str, or_else: str = "") -> float:
    """``value`` as the seconds of a clock, or ``MisuseError`` naming ``what``."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not 0 <= value < CLOCK_LIMIT:  # type: ignore[operator]  # a number
        misuse(what, f"seconds from 0 to 999:59:59{or_else}", value)
    return float(value)  # type: ignore[arg-type]  # a number, checked above


def clock_text(seconds: float) -> str:
    """``seconds`` as a clock shows them, ``h:mm:ss`` (whole seconds)."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def parse_clock(text: str) -> str | None:
    """The time ``text`` is (``h:mm:ss`` or ``m:ss``), written ``h:mm:ss``; ``None`` for
    a text that is no time."""
    value = text.strip()
    if value.count(":") == 1:
        value = "0:" + value
    match = _CLOCK_VALUE.fullmatch(value)
    if match is None:
        return None
    hours, minutes, seconds = (int(part) for part in match.groups())
    return f"{hours}:{minutes:02d}:{seconds:02d}"


def set_clock_comment(node: MoveNode, text: str | None) -> None:
    """Write the clock ``text`` after ``node`` in place of the one there (``None``: none),
    the node's other comments kept."""
    kept = [c for c in node.comments_after if not CLOCK_COMMAND.fullmatch(c.text)]
    node.comments_after = kept + ([Comment(f"[%clk {text}]")] if text is not None else [])
