"""Stepping through one record, move by move, in and out of variations.

:class:`Stepper` is the state of a replay viewer with no screen: where we are in the
record tree, the position there, and the defect that stops us, if any.

Vocabulary: a *line* is the main line or a variation; ``index`` counts the moves
of the current line that have been played; the *last move* is the one just
played (``line[index - 1]``) and the *next move* the one about to be played.  Where
the stepper stands is a :class:`~notation.cursor.Cursor`'s place, the one a
:class:`~notation.editing.editor.RecordEditor` has too: its :attr:`~Stepper.address` is the
same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notation.cursor import Cursor
from notation.errors import (
    Defect,
    ErrorKind,
    NotationException,
    TagValueError,
    misuse_unless,
    require_number,
)
from notation.games.base import Game
from notation.record import MoveNode, Record, Variation
from notation.replay import Verdict, check_record, resolve_game, start_position

__all__ = ["Stepper", "StepperError"]


class StepperError(NotationException):
    """The record cannot be replayed at all (unknown game, bad setup tag)."""

    def __init__(self, error: Defect) -> None:
        super().__init__(str(error))
        self.error = error


class Stepper:
    """A position in a record's tree that moves forward, back, and into variations.

    Made from a record and, if it names no game (a ``Game`` tag), its ``game`` or
    ``default_game``; :class:`StepperError` if the record cannot be replayed at all.
    :attr:`verdict` is the rules' verdict on the record, :attr:`position` where the
    stepper stands.

    >>> import notation
    >>> (record,) = notation.read_string("1. b1 b5 (1... c5) 2. c1 b5 *")
    >>> stepper = notation.Stepper(record, default_game="cave")
    >>> while node := stepper.forward():
    ...     print(stepper.cursor.turn, node.written)
    1 b1
    2 b5
    3 c1
    >>> stepper.cursor.defect.message  # why the next move, 2... b5, was not played
    "b5 holds Black's piece; a piece enters on an empty square"
    >>> stepper.goto_turn(2), stepper.variations_here()
    (True, [<Variation of 1 move from c5>])
    >>> stepper.enter_variation(1), stepper.where(), stepper.cursor.last_node.written
    (True, 'variation 1 at turn 2', 'c5')
    >>> stepper.leave_variation(), stepper.where(), stepper.cursor.last_node.written
    (True, 'main line', 'b5')
    """

    def __init__(
        self, record: Record, game: Game[Any] | None = None, default_game: str | None = None
    ) -> None:
        misuse_unless(game is None or isinstance(game, Game), "game", "a notation.Game", game)
        self.record = record
        self.verdict: Verdict = check_record(record, game.name if game else default_game)
        resolved = game if game is not None else resolve_game(record, default_game)
        if isinstance(resolved, Defect):
            raise StepperError(resolved.located(file=record.source, record=record.index))
        self.game: Game[Any] = resolved
        try:
            position = start_position(resolved, record.tag_dict)
        except TagValueError as exc:
            tag = record.find_tag(exc.tag)
            error = Defect(
                ErrorKind.SYNTAX, str(exc), tag.line if tag else record.first_line,
                tag.column if tag else 1, file=record.source, record=record.index,
                code=exc.code or "",
            )
            raise StepperError(error) from None
        self.start_turn = position.turn
        self._cursor = Cursor(record, resolved, position)

    @property
    def cursor(self) -> Cursor:
        """Where the stepper stands: the line, the moves played of it, the position
        there (``stepper.cursor.position``), its :data:`~notation.cursor.Address`, and
        why the last step forward could not be made (``stepper.cursor.defect``)."""
        return self._cursor

    def line_turns(self) -> list[tuple[int, MoveNode]]:
        """The moves of the current line with their turns, for a move list."""
        first = self._cursor.level.first_turn
        return [(first + i, node) for i, node in enumerate(self._cursor.line)]

    def where(self) -> str:
        """The current line in words: "main line" or "variation 2 at turn 31"."""
        if not self._cursor.depth:
            return "main line"
        parts = [
            f"variation {level.number} at turn {level.first_turn}"
            for level in self._cursor.levels[1:]
        ]
        return ", in ".join(reversed(parts))

    def variations_here(self) -> list[Variation]:
        """The alternatives to the last move (what :meth:`enter_variation` can enter)."""
        node = self._cursor.last_node
        return list(node.variations) if node is not None else []

    # -- moving -----------------------------------------------------------------
    def forward(self) -> MoveNode | None:
        """Play the next move of the line and return its node; ``None`` at the end of the
        line or at a broken move (:attr:`error` says why).

        A node is always true, so ``while node := stepper.forward():`` steps through a
        line, and ``if stepper.forward():`` asks whether a move was played.
        """
        return self._cursor.forward()

    def back(self) -> MoveNode | None:
        """Take back the last move of the line and return its node; ``None`` at the
        line's start."""
        return self._cursor.back()

    def to_start(self) -> None:
        """Take back every move of the current line (staying in it)."""
        while self.back():
            pass

    def to_end(self) -> None:
        """Play the current line to its end, or to its first broken move."""
        while self.forward():
            pass

    def goto_turn(self, turn: int) -> bool:
        """Go to the position after ``turn`` within the current line (as far as it goes);
        ``MisuseError`` for a ``turn`` that is not a whole number."""
        require_number(turn, "turn")
        while self._cursor.position.turn > turn and self.back():
            pass
        while self._cursor.position.turn < turn and self.forward():
            pass
        return self._cursor.position.turn == turn

    def goto(self, address: Sequence[int]) -> bool:
        """Go to ``address`` (see :attr:`address`), along the main line and into each
        variation on the way; False when a move on the way cannot be played (the
        stepper stands before it, :attr:`error` says why).  ``MisuseError`` for an
        address that is not in the record (the stepper does not move)."""
        return self._cursor.goto(address)

    def goto_node(self, node: MoveNode) -> bool:
        """Go to the position after ``node``, a move anywhere in the record's tree, along
        the main line and into each variation on the way (``node.board()`` of
        python-chess).  ``MisuseError`` for a node not in this record; False when a move
        on the way cannot be played (the stepper stands before it, :attr:`error` says why).
        """
        return self._cursor.goto_node(node)

    def enter_variation(self, number: int = 1) -> bool:
        """Replace the last move by the first move of its variation ``number`` (1-based);
        False if there is none, ``MisuseError`` for a ``number`` that is not a whole
        number."""
        require_number(number, "the variation's number")
        if not 1 <= number <= len(self.variations_here()):
            return False
        self._cursor.back()
        return self._cursor.enter_variation(number)

    def leave_variation(self) -> bool:
        """Back to the line the variation belongs to, after the move it replaces."""
        return self._cursor.leave_variation()
