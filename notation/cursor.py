"""A place in a record's tree of moves, and the position there.

:class:`Cursor` is what a replay viewer (:class:`~notation.stepper.Stepper`, under
``notation show`` and ``notation replay``) and a recorder
(:class:`~notation.editing.editor.RecordEditor`, under ``notation record``) move through a
record: along a line, back, into a variation and out, to an :data:`Address`.  It plays
the record's moves on a position as it goes, and says why it stopped where a move
cannot be played (:attr:`Cursor.defect`); it knows no screen, no file and no edit.

Vocabulary: a *line* is the main line or a variation; the cursor stands after
``index`` moves of its line; the *last move* is the one just played
(``line[index - 1]``), the *next move* the one after the cursor.

An :data:`Address` is where a cursor stands, as numbers: ``(i,)`` after ``i`` moves of
the main line; ``(i, v, j)`` after ``j`` moves of variation ``v`` (from 1) of the main
line's move ``i`` (from 0); one level deeper, ``(i, v, i2, v2, j)``, and so on down.

Made from a record, its game and its start position, a cursor goes anywhere in the
tree: ``cursor.goto((1, 1, 2))`` plays the main line's first move and the first two of
the first variation of its second; ``cursor.leave_variation()`` then stands at
``(2,)``, after that second move; ``cursor.address_of(node)`` is where ``node`` is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from notation.errors import (
    Defect,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    require_number,
)
from notation.games.base import Game, Position
from notation.record import MoveNode, Record, Variation, route_to
from notation.replay import move_error

__all__ = ["Address", "Cursor", "Level"]

#: Where a cursor stands (see the module's docstring): ``(i,)``, ``(i, v, j)``...
Address = tuple[int, ...]


@dataclass(slots=True)
class Level:
    """One line of a cursor's path, from the main line down to the line it is in: the
    line's moves (``nodes``), how many of them are played (``index``), the turn of its
    first move, and for a variation, the variation and the move it replaces
    (``owner``; ``None`` both for the main line)."""

    nodes: list[MoveNode]
    index: int = 0
    variation: Variation | None = None
    owner: MoveNode | None = None
    first_turn: int = 1

    @property
    def number(self) -> int:
        """The variation's number (from 1) among its owner's, found by identity (an
        edit may have moved it); 0 for the main line."""
        if self.variation is None or self.owner is None:
            return 0
        return next((i for i, v in enumerate(self.owner.variations, 1) if v is self.variation), 0)


class Cursor:
    """A place in ``record``'s tree and the position there, made at the start of the
    main line.

    ``game`` reads the moves, which are played on a copy of ``start`` (the position
    before the record's first move: :func:`~notation.replay.start_position` of its
    tags); with ``canonical``, each move is played as the game writes it
    (:meth:`~notation.games.base.Position.canonical`: what an editor keeps), else as
    read.  The tree may change under the cursor (an editor's edits): :attr:`levels` is
    its path, public so that the one changing the tree keeps it in step.
    """

    def __init__(
        self,
        record: Record,
        game: Game[Any],
        start: Position[Any],
        *,
        canonical: bool = False,
    ) -> None:
        self.record = record
        self.game = game
        #: The position before the record's first move (never played on: a copy is).
        self.start = start
        self.canonical = canonical
        self.position: Position[Any] = start.copy()
        #: The lines from the main line down to the cursor's, the last the cursor's.
        self.levels: list[Level] = [Level(record.moves, 0, first_turn=start.turn + 1)]
        #: Why the next move cannot be played, after a step forward that failed
        #: (``None`` after any other step).
        self.defect: Defect | None = None

    # -- where it stands ---------------------------------------------------------
    @property
    def level(self) -> Level:
        """The cursor's line, as one of :attr:`levels` (the last)."""
        return self.levels[-1]

    @property
    def line(self) -> list[MoveNode]:
        """The moves of the cursor's line: the main line or a variation."""
        return self.levels[-1].nodes

    @property
    def index(self) -> int:
        """How many moves of the cursor's line are played (0 at its start)."""
        return self.levels[-1].index

    @property
    def depth(self) -> int:
        """0 on the main line, 1 in a variation, 2 in a variation of a variation..."""
        return len(self.levels) - 1

    @property
    def turn(self) -> int:
        """Turns played to the cursor, counted from the game's start."""
        return self.position.turn

    @property
    def address(self) -> Address:
        """Where the cursor is, as numbers (see the module's docstring)."""
        out: list[int] = []
        for level in self.levels:
            if level.variation is not None:
                out.append(level.number)
            out.append(level.index)
        return tuple(out)

    @property
    def last_node(self) -> MoveNode | None:
        """The move just played, or ``None`` at the start of the line."""
        level = self.levels[-1]
        return level.nodes[level.index - 1] if level.index else None

    @property
    def next_node(self) -> MoveNode | None:
        """The move after the cursor in its line, or ``None`` at the line's end."""
        level = self.levels[-1]
        return level.nodes[level.index] if level.index < len(level.nodes) else None

    @property
    def at_start(self) -> bool:
        """Whether no move of the cursor's line is played."""
        return self.levels[-1].index == 0

    @property
    def at_end(self) -> bool:
        """Whether every move of the cursor's line is played."""
        level = self.levels[-1]
        return level.index == len(level.nodes)

    # -- moving --------------------------------------------------------------------
    def forward(self, *, rewrite: bool = False) -> MoveNode | None:
        """Play the next move of the line and return its node; ``None`` at the line's
        end, or where the rules refuse it (nothing played, :attr:`defect` says why).
        ``rewrite``: the node's text becomes the move's as played (an editor that
        replays a line after a mended move writes each again)."""
        node = self.next_node
        if node is None:
            return None
        turn = self.position.turn + 1
        try:
            move = self.game.parse(node.text)
            if self.canonical:
                move = self.position.canonical(move)
            self.position.push(move)
        except (MoveSyntaxError, IllegalMoveError) as exc:
            record = self.record
            self.defect = move_error(node, exc, turn).located(
                file=record.source, record=record.index or None
            )
            return None
        if rewrite:
            node.text = str(move)
        self.levels[-1].index += 1
        self.defect = None
        return node

    def advance(self, move: Any) -> None:
        """Play ``move``, a legal move here, as the next move of the line: an editor's,
        which has just put its node there."""
        self.position.push(move)
        self.levels[-1].index += 1
        self.defect = None

    def back(self) -> MoveNode | None:
        """Take back the last move of the line and return its node; ``None`` at the
        line's start (where a variation stays entered: see :meth:`back_out`)."""
        level = self.levels[-1]
        if not level.index:
            return None
        self.position.pop()
        level.index -= 1
        self.defect = None
        return level.nodes[level.index]

    def enter_variation(self, number: int) -> bool:
        """Into variation ``number`` (from 1) of the next move, its first move played
        (unless the rules refuse it: :attr:`defect` then); False if there is none.
        ``MisuseError`` for a ``number`` that is not a whole number."""
        require_number(number, "the variation's number")
        node = self.next_node
        variations = node.variations if node is not None else []
        if not 1 <= number <= len(variations):
            return False
        self.step_into(variations[number - 1])
        self.forward()
        return True

    def step_into(self, variation: Variation) -> None:
        """Into ``variation``, one of the next move's, none of its moves played (an
        editor that has just made it); ``MisuseError`` for one that is not."""
        owner = self.next_node
        if owner is None or not any(v is variation for v in owner.variations):
            raise MisuseError(f"{variation!r} is not a variation of the next move")
        self.levels.append(Level(variation.nodes, 0, variation, owner, self.position.turn + 1))

    def back_out(self) -> bool:
        """Out of the variation the cursor is in, its moves taken back: the cursor just
        before the move it replaces.  False on the main line."""
        if len(self.levels) == 1:
            return False
        for _ in range(self.levels[-1].index):
            self.position.pop()
        self.levels.pop()
        self.defect = None
        return True

    def leave_variation(self) -> bool:
        """Out of the variation the cursor is in, to just after the move it replaces.
        False on the main line."""
        if not self.back_out():
            return False
        self.forward()
        return True

    def goto(self, address: Sequence[int]) -> bool:
        """To ``address`` (see :attr:`address`), the moves played from the start, or as
        far along it as the rules let the cursor go (False then, :attr:`defect` saying
        why).  ``MisuseError`` for an address that is not in the record (the cursor
        not moved)."""
        # bytes are a sequence of numbers too, but no address
        if isinstance(address, (str, bytes, bytearray)) or not isinstance(address, Iterable):
            raise MisuseError(f"an address is (index, variation, index, ...), not {address!r}")
        address = tuple(address)
        if not address or len(address) % 2 == 0 or not all(
            type(n) is int and n >= 0 for n in address
        ):
            raise MisuseError(f"an address is (index, variation, index, ...), not {address!r}")
        self._require_in_record(address)
        self.position = self.start.copy()
        self.levels = [Level(self.record.moves, 0, first_turn=self.start.turn + 1)]
        self.defect = None
        for depth in range(0, len(address), 2):
            level = self.levels[-1]
            while level.index < address[depth]:
                if self.forward() is None:
                    return False
            if depth + 1 < len(address):
                owner = level.nodes[level.index]
                self.step_into(owner.variations[address[depth + 1] - 1])
        return True

    def _require_in_record(self, address: Address) -> None:
        """``MisuseError`` unless the lines that ``address`` names are in the record."""
        nodes = self.record.moves
        for depth in range(0, len(address) - 1, 2):
            index, number = address[depth], address[depth + 1]
            if index >= len(nodes) or not 1 <= number <= len(nodes[index].variations):
                raise MisuseError(f"the address {address!r} is not in the record")
            nodes = nodes[index].variations[number - 1].nodes
        if address[-1] > len(nodes):
            raise MisuseError(f"the address {address!r} is not in the record")

    def goto_node(self, node: MoveNode) -> bool:
        """To just after ``node``, a move anywhere in the tree (found by identity), as
        :meth:`goto` goes; ``MisuseError`` if it is not in the record."""
        return self.goto(self.address_of(node))

    def address_of(self, node: MoveNode) -> Address:
        """The address just after ``node``; ``MisuseError`` if it is not in the record."""
        route = route_to(self.record.moves, node)
        if route is None:
            raise MisuseError(f"{node!r} is not a move of this record")
        branches, index = route
        out: list[int] = []
        for at, number in branches:
            out += [at, number]
        out.append(index + 1)
        return tuple(out)
