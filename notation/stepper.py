"""Stepping through one record, move by move, in and out of variations.

:class:`Stepper` is the state of a replay viewer with no screen: where we are in the
record tree, the position there, and the defect that stops us, if any.

Vocabulary: a *line* is the main line or a variation; ``index`` counts the moves
of the current line that have been played; the *last move* is the one just
played (``line[index - 1]``) and the *next move* the one about to be played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    TagValueError,
    misuse_unless,
    require_number,
)
from notation.games.base import Game, Position
from notation.record import MoveNode, Record, Variation, route_to
from notation.replay import Verdict, check_record, move_error, resolve_game, start_position

__all__ = ["Stepper", "StepperError"]


class StepperError(NotationException):
    """The record cannot be replayed at all (unknown game, bad setup tag)."""

    def __init__(self, error: Defect) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(slots=True)
class _Level:
    nodes: list[MoveNode]
    index: int
    #: The variation this level replays (None for the main line) and its number.
    variation: Variation | None = None
    number: int = 0
    #: The turn of the line's first move.
    first_turn: int = 1


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
    ...     print(stepper.turn, node.written)
    1 b1
    2 b5
    3 c1
    >>> stepper.error.message  # why the next move, 2... b5, was not played
    "b5 holds Black's piece; a piece enters on an empty square"
    >>> stepper.goto_turn(2), stepper.variations_here()
    (True, [<Variation of 1 move from c5>])
    >>> stepper.enter_variation(1), stepper.where(), stepper.last_node.written
    (True, 'variation 1 at turn 2', 'c5')
    >>> stepper.leave_variation(), stepper.where(), stepper.last_node.written
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
            self.position: Position[Any] = start_position(resolved, record.tag_dict)
        except TagValueError as exc:
            tag = record.find_tag(exc.tag)
            error = Defect(
                ErrorKind.SYNTAX, str(exc), tag.line if tag else record.first_line,
                tag.column if tag else 1, file=record.source, record=record.index,
                code=exc.code or "",
            )
            raise StepperError(error) from None
        self.start_turn = self.position.turn
        self._levels = [_Level(record.moves, 0, first_turn=self.start_turn + 1)]
        #: Why the last step forward could not be made (None after any successful step).
        self.error: Defect | None = None

    # -- where we are ---------------------------------------------------------
    @property
    def line(self) -> list[MoveNode]:
        """The moves of the line being stepped through: the main line or a variation."""
        return self._levels[-1].nodes

    @property
    def index(self) -> int:
        """How many moves of the current line are played (0 at its start)."""
        return self._levels[-1].index

    @property
    def depth(self) -> int:
        """0 on the main line, 1 inside a variation, 2 inside one of its variations..."""
        return len(self._levels) - 1

    @property
    def turn(self) -> int:
        """Turns played to reach the current position."""
        return self.position.turn

    @property
    def last_node(self) -> MoveNode | None:
        """The move played last on the current line, or ``None`` at its start."""
        level = self._levels[-1]
        return level.nodes[level.index - 1] if level.index else None

    @property
    def next_node(self) -> MoveNode | None:
        """The move :meth:`forward` would play, or ``None`` at the end of the line."""
        level = self._levels[-1]
        return level.nodes[level.index] if level.index < len(level.nodes) else None

    @property
    def at_start(self) -> bool:
        """Whether no move of the current line is played."""
        return self.index == 0

    @property
    def at_end(self) -> bool:
        """Whether every move of the current line is played."""
        return self.index == len(self.line)

    def line_turns(self) -> list[tuple[int, MoveNode]]:
        """The moves of the current line with their turns, for a move list."""
        first = self._levels[-1].first_turn
        return [(first + i, node) for i, node in enumerate(self.line)]

    def where(self) -> str:
        """The current line in words: "main line" or "variation 2 at turn 31"."""
        if not self.depth:
            return "main line"
        parts = [
            f"variation {level.number} at turn {level.first_turn}" for level in self._levels[1:]
        ]
        return ", in ".join(reversed(parts))

    def variations_here(self) -> list[Variation]:
        """The alternatives to the last move (what :meth:`enter_variation` can enter)."""
        node = self.last_node
        return list(node.variations) if node is not None else []

    # -- moving -----------------------------------------------------------------
    def forward(self) -> MoveNode | None:
        """Play the next move of the line and return its node; ``None`` at the end of the
        line or at a broken move (:attr:`error` says why).

        A node is always true, so ``while node := stepper.forward():`` steps through a
        line, and ``if stepper.forward():`` asks whether a move was played.
        """
        level = self._levels[-1]
        if level.index >= len(level.nodes):
            return None
        node = level.nodes[level.index]
        turn = self.position.turn + 1
        try:
            move = self.game.parse(node.text)
            self.position.push(move)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            error = move_error(node, exc, turn)
            self.error = error.located(file=self.record.source, record=self.record.index)
            return None
        level.index += 1
        self.error = None
        return node

    def back(self) -> MoveNode | None:
        """Take back the last move of the line and return its node; ``None`` at the
        line's start."""
        level = self._levels[-1]
        if level.index == 0:
            return None
        self.position.pop()
        level.index -= 1
        self.error = None
        return level.nodes[level.index]

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
        while self.position.turn > turn and self.back():
            pass
        while self.position.turn < turn and self.forward():
            pass
        return self.position.turn == turn

    def goto_node(self, node: MoveNode) -> bool:
        """Go to the position after ``node``, a move anywhere in the record's tree, along
        the main line and into each variation on the way (``node.board()`` of
        python-chess).  ``MisuseError`` for a node not in this record; False when a move
        on the way cannot be played (the stepper stands before it, :attr:`error` says why).
        """
        route = route_to(self.record.moves, node)
        if route is None:
            raise MisuseError(f"{node!r} is not a move of this record")
        branches, index = route
        while self.leave_variation():
            pass
        self.error = None
        for at, number in branches:
            if not self._goto_index(at + 1) or not self.enter_variation(number):
                return False
            if self.error is not None:  # the variation's first move is broken
                return False
        return self._goto_index(index + 1)

    def _goto_index(self, index: int) -> bool:
        """Back or forward on the current line until ``index`` of its moves are played;
        False at a broken move."""
        while self.index > index:
            self.back()
        while self.index < index:
            if self.forward() is None:
                return False
        return True

    def enter_variation(self, number: int = 1) -> bool:
        """Replace the last move by the first move of its variation ``number`` (1-based);
        False if there is none, ``MisuseError`` for a ``number`` that is not a whole
        number."""
        require_number(number, "the variation's number")
        variations = self.variations_here()
        if not 1 <= number <= len(variations):
            return False
        level = self._levels[-1]
        turn = self.position.turn  # the turn of the move being replaced
        self.position.pop()
        level.index -= 1
        variation = variations[number - 1]
        self._levels.append(_Level(variation.nodes, 0, variation, number, first_turn=turn))
        self.forward()
        return True

    def leave_variation(self) -> bool:
        """Back to the line the variation belongs to, after the move it replaces."""
        if not self.depth:
            return False
        level = self._levels.pop()
        for _ in range(level.index):
            self.position.pop()
        self.error = None
        parent = self._levels[-1]
        replaced = parent.nodes[parent.index]
        self.position.push(self.game.parse(replaced.text))  # it was legal when we left it
        parent.index += 1
        return True

