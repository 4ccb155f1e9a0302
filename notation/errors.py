"""Errors as values.

Everything that can be wrong with a record ends up as a :class:`Defect`:
an immutable value with a kind, a location and a sentence.  The exceptions in
this module are how the lower layers (a game's move parser, a position) report a
problem to the layer that knows the location; they never reach a user.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class ErrorKind(StrEnum):
    """What sort of defect a record has: the `kind` of docs/record-format.md, "Turns,
    and where an error points"."""

    SYNTAX = "syntax"  # the text cannot be read: malformed token, bad number, brackets
    ILLEGAL = "illegal"  # well formed, but the rules forbid it
    RESULT = "result"  # the result token contradicts the rules, the tag or the game


@dataclass(frozen=True, slots=True)
class Defect:
    """One defect, with everything a user needs to find it."""

    kind: ErrorKind
    message: str
    line: int
    column: int
    turn: int | None = None
    move: str | None = None
    file: str | None = None
    record: int | None = None
    #: A stable, machine-readable name of the case (``"number-wrong"``, see :data:`CODES`),
    #: so that a program can sort broken records without matching message text; an
    #: error made without one gets its kind (``"syntax"``, ``"illegal"``, ``"result"``).
    code: str = ""

    def __post_init__(self) -> None:
        if not self.code:
            # frozen: the default is set the way dataclasses set fields themselves
            object.__setattr__(self, "code", str(self.kind))

    def located(self, *, file: str | None, record: int | None) -> Defect:
        """The same error, placed in a file and a record."""
        return replace(self, file=file, record=record)

    def __str__(self) -> str:
        where = f"{self.file or '<input>'}:{self.line}:{self.column}"
        parts = []
        if self.record is not None:
            parts.append(f"record {self.record}")
        if self.turn is not None:
            move = f" ({_printable(_cut(self.move))})" if self.move else ""
            parts.append(f"turn {self.turn}{move}")
        prefix = ", ".join(parts)
        return _printable(f"{where}: {prefix + ': ' if prefix else ''}{self.message}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (``check --json``); the verdict around it gives file and record."""
        return {
            "kind": str(self.kind),
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "move": self.move,
            "message": self.message,
        }


#: The first name of this value: it is not an exception, and nobody could catch
#: it, so it became :class:`Defect`.  Kept so that old imports go on working.
NotationError = Defect


#: Every code the reader and the replay give, and what it means.  Codes are stable: a
#: new case gets a new code, and a code never changes its meaning.
CODES: dict[str, str] = {
    # the reader (ErrorKind.SYNTAX)
    "comment-unclosed": "a '{' comment never closed with '}'",
    "comment-unopened": "a '}' with no '{' before it",
    "variation-unclosed": "a '(' variation never closed with ')'",
    "variation-unopened": "a ')' with no '(' before it",
    "variation-orphan": "a '(' with no move before it to be an alternative to",
    "tag-malformed": 'a line in the tags that is not [Name "value"]',
    "result-missing": "a record with no result token",
    "result-in-variation": "a result token inside an open variation",
    "result-spaced": "a result written with spaces (1 - 0)",
    "result-draw-spelling": "a draw written 1/2 or 0.5, not 1/2-1/2",
    "number-malformed": "a move number that is neither 12. nor 12...",
    "number-too-long": "a move number with too many digits",
    "glyph-orphan": "a $N glyph with no move before it",
    "glyph-too-long": "a $N glyph with too many digits",
    # the replay: tags, numbers, results (ErrorKind.SYNTAX unless said)
    "game-missing": "no Game tag and no default game",
    "game-unknown": "a Game tag (or default game) that names no known game",
    "tag-value": "a tag value the game cannot accept ([Players \"9\"], a bad Position)",
    "result-tag-value": "a Result tag that is not 1-0, 0-1, 1/2-1/2 or *",
    "number-wrong": "a move number that does not match its turn",
    "result-not-in-game": "(result) a result the game does not have (a draw)",
    "result-contradicts-tag": "(result) a result token other than the Result tag",
    "result-contradicts-rules": "(result) a result other than the one the rules ended with",
    # moves: the default codes of the exceptions a game raises
    "move-syntax": "a move token the game's grammar cannot read",
    "move-illegal": "(illegal) a well-formed move the rules forbid",
}


#: How much of a move a message quotes: a hostile file can hold a token of megabytes.
SHOWN_MOVE = 40


def _cut(text: str) -> str:
    if len(text) <= SHOWN_MOVE:
        return text
    return f"{text[:SHOWN_MOVE]}... ({len(text)} characters)"


def _printable(text: str) -> str:
    """``text`` with control and other invisible characters escaped (``\\x00``, ``\\x1b``).

    A record's bytes end up in messages printed on a terminal: a NUL or an escape
    sequence must show as what it is, not act on the terminal.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class NotationException(Exception):
    """Base of the exceptions the library raises for bad input."""

    #: The :attr:`Defect.code` an error made from this exception carries.  A class
    #: attribute, so that raising costs nothing more (legality tests raise often).
    code: str | None = None


class MoveSyntaxError(NotationException):
    """A move token that the game's grammar cannot read (raised by ``Game.parse_move``)."""

    code = "move-syntax"


class IllegalMoveError(NotationException):
    """A well-formed move that the rules forbid in this position.

    The message states the facts of the position, e.g.
    ``"h5 holds 1 zombie; a move of 2 needs 2"``.  Well formed means that every
    field names something the game has (a square of the board, a die face): a
    move whose fields name nothing is a :class:`MisuseError` instead, since no
    record can hold it.
    """

    code = "move-illegal"


class MisuseError(NotationException, ValueError):
    """The library was called with an argument it cannot use.

    A programming error of the caller, never a defect of a record: a square that
    is not on the board (``position.stack(64)``, ``position.stack("z9")``), a
    player or side that does not exist, an object that is not a move of this game
    (another game's move, a string, ``None``), a move built by hand whose fields
    are out of range (``Drop(-1)``: refused when it is made), or ``pop()`` with no
    move to take back.  The message says which argument and what was expected; the
    position is left as it was.  A ``ValueError`` too, so that code catching that
    for a bad argument goes on working.
    """


class TagValueError(NotationException):
    """A tag whose value the game cannot accept (``[Players "9"]``)."""

    code = "tag-value"

    def __init__(self, tag: str, message: str) -> None:
        super().__init__(message)
        self.tag = tag
