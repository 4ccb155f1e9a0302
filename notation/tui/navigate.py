"""Moving through a record by address: what a click on a move or a search needs.

A :class:`Navigator` wraps a stepper and goes to any :data:`~notation.cursor.Address`
(the stepper's, as :mod:`notation.cursor` counts them).  ``(n,)`` is the position after
``n`` moves of the main line; entering variation ``k`` of the main line's move ``j``
(0-based) and playing ``n`` of its moves is ``(j, k, n)``; one more level,
``(j, k, j2, k2, n)``.  The tree is walked with a stack of its own: variations nest
deeper than recursion allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from notation.cursor import Address
from notation.errors import MisuseError
from notation.record import Comment, MoveNode, Record
from notation.stepper import Stepper

__all__ = ["Address", "Navigator", "NodeAt", "nodes_in_order", "search"]


@dataclass(frozen=True, slots=True)
class NodeAt:
    """A move of the record tree, where it stands."""

    node: MoveNode
    #: The position after the move.
    address: Address
    turn: int
    #: 0 on the main line, 1 in a variation of it...
    depth: int
    #: Whether it is the first move of its line.
    first: bool
    #: Comments that belong to no move but follow this one (the end of its line).
    trailing: tuple[Comment, ...] = ()


def nodes_in_order(record: Record, first_turn: int = 1) -> Iterator[NodeAt]:
    """Every move of the record in the order of its text: a move, then its variations
    (each whole, nested ones within), then the next move."""
    # A frame: the nodes of a line, the address prefix of its moves, the turn of its
    # first move, its depth, the index of the next node to give, comments at its end.
    stack: list[tuple[list[MoveNode], Address, int, int, int, tuple[Comment, ...]]] = [
        (record.moves, (), first_turn, 0, 0, tuple(record.comments))
    ]
    while stack:
        nodes, prefix, turn, depth, index, trailing = stack.pop()
        if index >= len(nodes):
            continue
        node = nodes[index]
        last = index == len(nodes) - 1
        stack.append((nodes, prefix, turn, depth, index + 1, trailing))
        # The variations come out before the next move: pushed after it, in reverse.
        for number in range(len(node.variations), 0, -1):
            variation = node.variations[number - 1]
            stack.append(
                (
                    variation.nodes, (*prefix, index, number), turn + index, depth + 1, 0,
                    tuple(variation.comments),
                )
            )
        yield NodeAt(
            node, (*prefix, index + 1), turn + index, depth, index == 0,
            trailing if last else (),
        )


def _matches(found: NodeAt, words: str) -> bool:
    node = found.node
    if words in node.written.lower():
        return True
    comments = (*node.comments_before, *node.comments_after, *found.trailing)
    return any(words in comment.text.lower() for comment in comments)


def search(
    record: Record, query: str, after: Address, first_turn: int = 1, *, backward: bool = False
) -> NodeAt | None:
    """The first move after ``after`` (in the order of the text, around to the start)
    whose text or comments hold ``query`` (case ignored); ``backward``: the first
    before it (around to the end), as ``N`` finds in less and vim."""
    words = " ".join(query.split()).lower()
    if not words:
        return None
    nodes = list(nodes_in_order(record, first_turn))
    here = next((i for i, found in enumerate(nodes) if found.address == after), -1)
    if backward and here < 0:  # before the first move: the last one is the one before
        here = len(nodes)
    step = -1 if backward else 1
    for i in range(1, len(nodes) + 1):
        found = nodes[(here + step * i) % len(nodes)]
        if _matches(found, words):
            return found
    return None


class Navigator:
    """A stepper and the address of its position, for the replay app's keys, clicks and
    searches: steps of several moves, and :meth:`goto` that says where it cannot go
    instead of raising.  The address is the stepper's own (:attr:`Stepper.address`)."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper = stepper

    @property
    def address(self) -> Address:
        """Where the stepper is."""
        return self.stepper.cursor.address

    def forward(self, count: int = 1) -> int:
        """Up to ``count`` moves forward on the line; how many were played."""
        return _repeat(self.stepper.forward, count)

    def back(self, count: int = 1) -> int:
        """Up to ``count`` moves back on the line; how many were taken back."""
        return _repeat(self.stepper.back, count)

    def to_index(self, index: int) -> bool:
        """To the position after ``index`` moves of the line (as far as the line goes)."""
        while self.stepper.cursor.index > index and self.stepper.back():
            pass
        while self.stepper.cursor.index < index and self.stepper.forward():
            pass
        return self.stepper.cursor.index == index

    def enter(self, number: int = 1) -> bool:
        """Into variation ``number`` of the last move (see :meth:`Stepper.enter_variation`)."""
        return self.stepper.enter_variation(number)

    def leave(self) -> bool:
        """Out of the variation, after the move it replaces."""
        return self.stepper.leave_variation()

    def goto(self, address: Address) -> bool:
        """To ``address``; False if the record has no such place (the stepper not moved)
        or a broken move stands in the way (the stepper before it)."""
        try:
            return self.stepper.goto(address)
        except MisuseError:
            return False


def _repeat(step: Callable[[], object], count: int) -> int:
    done = 0
    while done < count and step():
        done += 1
    return done
