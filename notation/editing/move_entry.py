"""What a move typed at a cursor is: the legal moves there, the moves a prefix may
start, and the one move a text means, or why there is none.

:class:`MoveEntry` answers for one position (and the die face given, in Zombie Kidz);
:class:`~notation.editing.editor.RecordEditor` asks one made at its cursor
(:meth:`~notation.editing.editor.RecordEditor.entry`), and so can any program that
takes moves as typed text.

>>> from notation.editing.move_entry import MoveEntry
>>> from notation.games import get_game
>>> cave = get_game("cave")
>>> entry = MoveEntry(cave, cave.new_position())
>>> [c.text for c in entry.candidates("b")]
['b1']
>>> str(entry.resolve("B1"))
'b1'
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MoveSyntaxError,
    NotationException,
    misuse_unless,
    require_text,
)
from notation.games.base import Game, Position
from notation.lastchange import with_last_change
from notation.record import split_suffix

__all__ = ["Candidate", "EditError", "MoveEntry"]


class EditError(NotationException, ValueError):
    """An edit the rules or the record refuse: the reason in words, and the moves meant
    if the text could be one of several (``choices``: a Cave attack written without
    the classes that fought, ``b3xc4`` for ``Kb3xc4``, ``Zb3xc4`` or ``Sb3xc4``)."""

    def __init__(self, message: str, choices: Sequence[str] = (), code: str = "") -> None:
        super().__init__(message)
        self.choices = list(choices)
        self.code = code or None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A legal move at the cursor: its canonical ``text``, the ``move`` object, and what
    it would do in words (``"Red placed zombies on f4 and c1"``)."""

    text: str
    move: Any
    description: str


class MoveEntry:
    """The moves that may be typed at ``position`` of ``game``, with the die face
    ``roll`` given (or ``None``): what :class:`~notation.editing.editor.RecordEditor`
    asks at its cursor.  The position is played on and taken back while a question is
    answered, and left as it was."""

    __slots__ = ("game", "position", "roll")

    def __init__(self, game: Game[Any], position: Position[Any], roll: str | None = None) -> None:
        misuse_unless(isinstance(game, Game), "game", "a notation.Game", game)
        misuse_unless(isinstance(position, Position), "position", "a Position of the game",
                      position)
        misuse_unless(roll is None or isinstance(roll, str), "roll", "a die face (str) or None",
                      roll)
        self.game = game
        self.position = position
        self.roll = roll

    def roll_faces(self) -> list[str]:
        """The faces the chance step before the next turn can show (``[]`` if none)."""
        outcomes = self.position.chance_outcomes()
        return [face for face, _ in outcomes] if outcomes else []

    def face_of(self, text: str) -> str | None:
        """The die face of the whole turn ``text`` (``K:b2-b1`` -> ``"K"``), if it is a
        legal turn here for that face, whatever face is given; ``None`` otherwise (no
        chance step, a turn with no face written, one the rules refuse)."""
        require_text(text, "text")
        faces = self.roll_faces()
        if not faces:
            return None
        try:
            move = self.position.canonical(self.game.parse(split_suffix(text.strip())[0]))
        except (MoveSyntaxError, IllegalMoveError):
            return None
        position = self.position
        return next((face for face in faces if move in position.legal_moves_after(face)), None)

    def legal_moves(self) -> list[Any]:
        """The legal moves at the cursor (those the roll allows, once it is given)."""
        if self.roll is not None:
            return self.position.legal_moves_after(self.roll)
        return self.position.legal_moves()

    def candidates(self, prefix: str = "") -> list[Candidate]:
        """The legal moves at the cursor whose text starts with ``prefix`` (letters in
        any case), each with what it would do, in the game's own order, a move written
        exactly ``prefix`` first.  Where none starts so, the moves that ``prefix`` is
        with letters left out (``b3xc4`` offers ``Kb3xc4``, ``Zb3xc4``, ``Sb3xc4``: the
        classes the pieces can still be)."""
        misuse_unless(isinstance(prefix, str), "prefix", "a str", prefix)
        wanted = prefix.strip().lower()
        moves = [(str(move), move) for move in self.legal_moves()]
        found = [(text, move) for text, move in moves if text.lower().startswith(wanted)]
        if not found and wanted and self.roll is not None:
            # The die is given: what follows its face is enough (b2-c2x for G:b2-c2x).
            found = [(text, move) for text, move in moves
                     if self._after_roll(text).lower().startswith(wanted)]
        if not found and wanted:
            found = [(text, move) for text, move in moves if _with_letters_left_out(text, wanted)]
        if not found and wanted:
            found = self._spelled(prefix.strip())
        found.sort(
            key=lambda pair: wanted not in (pair[0].lower(), self._after_roll(pair[0]).lower())
        )
        return [Candidate(text, move, self._describe(move, text)) for text, move in found]

    def _after_roll(self, text: str) -> str:
        """``text`` without the die face given and what separates it from the rest
        (``G:b2-c2x`` -> ``b2-c2x``); ``text`` itself when no roll is given."""
        # Any game's way of joining a face to its move: the punctuation after it.
        roll = self.roll
        if roll is None or not text.lower().startswith(roll.lower()):
            return text
        return text[len(roll):].lstrip(string.punctuation + " ")

    def _refusal(self, exc: IllegalMoveError, text: str) -> str:
        """Why the rules refuse the move ``text`` here, with the turn that last changed
        the square it depends on, as ``notation check`` names it."""
        defect = Defect(ErrorKind.ILLEGAL, str(exc), 0, 0, code=exc.code or "")
        return with_last_change(self.game, self.position, defect, text).message

    def _with_roll(self, text: str) -> str | None:
        """``text`` after the die face given, joined to it as the game's turns join it
        (``b2-a2`` -> ``B:b2-a2``); ``None`` with no roll given, or no turn of that face
        that joins a step to it."""
        joiner = self._face_joiner()
        return None if joiner is None or self.roll is None else self.roll + joiner + text

    def _face_joiner(self) -> str | None:
        """What joins the die face given to the step of a turn (``":"`` in ``B:b2-a2``);
        ``None`` with no roll given, or no turn of that face that joins a step to it."""
        roll = self.roll
        if roll is None:
            return None
        for move in self.legal_moves():
            written = str(move)
            rest = written[len(roll):]
            joiner = rest[: len(rest) - len(rest.lstrip(string.punctuation + " "))]
            if written.startswith(roll) and joiner:
                return joiner
        return None

    def _parse_turn(self, text: str) -> Any:
        """The move ``text`` is (:meth:`Game.parse`); once the die's face is given, what
        follows it is enough, in any spelling the notation accepts for it (``a2``,
        ``b2-a2`` or ``b2-a2x`` for ``B:b2-a2x``).  ``MoveSyntaxError`` if neither reads:
        of ``text`` as written if it is a whole turn (it holds what joins a face to its
        step, ``:``), else of what it is after the face given (``b2-x9``: x9 is no
        zone)."""
        try:
            return self.game.parse(text)
        except MoveSyntaxError as error_as_written:
            joined = self._with_roll(text)
            if joined is None:
                raise
            try:
                return self.game.parse(joined)
            except MoveSyntaxError as error_after_face:
                if (self._face_joiner() or "") in text:
                    raise error_as_written from None  # a whole turn, face and all
                # What follows the face: what is wrong with it (b2-x9: x9 is no zone),
                # not that it has no face, which the roll gives.
                raise error_after_face from None

    def _spelled(self, text: str) -> list[tuple[str, Any]]:
        """The legal move ``text`` is in a spelling of its own (``B:a2`` or, the die
        given, ``a2`` for ``B:b2-a2x``), as (its text, it); ``[]`` if none."""
        try:
            move = self.position.canonical(self._parse_turn(text))
        except (MoveSyntaxError, IllegalMoveError):
            return []
        return [(str(move), move)] if move in self.legal_moves() else []

    def _describe(self, move: Any, text: str) -> str:
        position = self.position
        position.push(move)
        try:
            caption = position.caption()
        except Exception:  # a description must never break entry
            caption = ""
        finally:
            position.pop()
        head = f"{text}: "
        at = caption.find(head)
        return caption[at + len(head):] if at >= 0 else caption

    def resolve(self, text: str) -> Any:
        """The canonical move that ``text`` (any spelling the notation accepts) is at the
        cursor; ``EditError`` saying why there is none, with the moves meant as
        ``choices`` where ``text`` could be several."""
        misuse_unless(isinstance(text, str), "a move", "a str (its text) or a move", text)
        written = text.strip()
        if not written:
            raise EditError("no move was given", code="editor-empty")
        reason: str | None
        try:
            move = self._parse_turn(written)
        except MoveSyntaxError as exc:
            reason, code = str(exc), exc.code or "move-syntax"
        else:
            try:
                canonical = self.position.canonical(move)
                self.position.push(canonical)  # as Position.check, keeping the code
            except IllegalMoveError as exc:
                reason, code = self._refusal(exc, str(move)), exc.code or "move-illegal"
            else:
                self.position.pop()
                reason = None
            if reason is None:
                if self.roll is not None and canonical not in self.legal_moves():
                    raise EditError(
                        f"the die shows {self.roll}: {written} is not one of its moves",
                        [c.text for c in self.candidates(self.roll)], "editor-roll",
                    )
                return canonical
        found = self.candidates(written)
        spelled = written.lower()
        same = [c for c in found if spelled in (c.text.lower(), self._after_roll(c.text).lower())]
        if len(same) == 1:
            return same[0].move  # a spelling only the case of its letters keeps apart
        choices = [c.text for c in found]
        hint = f"; did you mean {_either(choices)}?" if choices else ""
        raise EditError(f"{written}: {reason}{hint}", choices, code)


def _either(choices: list[str]) -> str:
    if len(choices) == 1:
        return choices[0]
    shown = choices[:8]
    more = f" (and {len(choices) - 8} more)" if len(choices) > 8 else ""
    return ", ".join(shown[:-1]) + f" or {shown[-1]}" + more


def _with_letters_left_out(text: str, wanted: str) -> bool:
    """Whether ``wanted`` (lower case) is the start of ``text`` with some of its capital
    letters (Cave's classes) left out."""
    lowered = text.lower()
    i = 0
    for char, low in zip(text, lowered, strict=True):
        if i == len(wanted):
            return True
        if wanted[i] == low:
            i += 1
        elif not char.isupper():
            return False
    return i == len(wanted)


