"""One walk of the record tree, and the arithmetic of move numbers.

Every layer that goes through a record's moves without playing them (the writer,
the JSON export, strict numbering, comment stripping, canonical spellings) uses
:func:`walk_tree` with a :class:`TreeVisitor`, or :func:`iter_nodes` when the order of
lines does not matter.  The walk keeps its own stack, so variations nest to any
depth, far below what recursion allows.  Playing the moves is
:mod:`notation.replay`'s job, on the same order of events.

Events come in file order: a move (with its turn, and whether the canonical text
writes ``N...`` before it), then the variations of that move, each one
``begin_variation``, its moves, ``end_variation``.
"""

from __future__ import annotations

from collections.abc import Iterator

from notation.errors import misuse_unless, require_number
from notation.record import Comment, MoveNode, Record, Variation

__all__ = [
    "TreeVisitor",
    "all_comment_lists",
    "expected_number",
    "iter_nodes",
    "move_label",
    "walk_tree",
]


def expected_number(turn: int, round_size: int) -> tuple[int, bool]:
    """The move number of ``turn`` (1 for the game's first turn) and whether the turn is
    the first of its round: ``N.`` goes before such a turn, ``N...`` before a later one."""
    index = turn - 1
    return index // round_size + 1, index % round_size == 0


def move_label(turn: int, round_size: int, resumes: bool) -> str:
    """The move number the canonical text writes before ``turn``: ``"12."`` before the
    first turn of a round, ``"12..."`` before a later turn where the line starts or
    resumes (after a comment or a variation), else nothing."""
    number, first = expected_number(turn, round_size)
    if first:
        return f"{number}."
    return f"{number}..." if resumes else ""


#: Why the canonical text writes ``N...`` before a move that is not a round's first.
STARTS = "a line of play starts here"
AFTER_COMMENT = "the line resumes after a comment"
AFTER_VARIATION = "the line resumes after a variation"


class TreeVisitor:
    """Hooks for :func:`walk_tree`; each does nothing unless overridden."""

    def visit_move(self, node: MoveNode, turn: int, resumes: str | None) -> None:
        """A move, at ``turn``.  ``resumes`` says why the line starts or resumes here
        (:data:`STARTS`, :data:`AFTER_COMMENT`, :data:`AFTER_VARIATION`), or is None
        where it simply goes on."""

    def begin_variation(self, variation: Variation, node: MoveNode, turn: int) -> None:
        """A variation of ``node`` opens; its first move is at ``turn`` (``node``'s)."""

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        """The variation of ``node`` closes."""


class _Line:
    """A line being walked: its nodes, where we are, and the variation being entered."""

    __slots__ = ("first_turn", "index", "nodes", "variation", "variation_index")

    def __init__(
        self, nodes: list[MoveNode], first_turn: int, variation: Variation | None
    ) -> None:
        self.nodes = nodes
        self.first_turn = first_turn
        self.variation = variation
        self.index = 0
        self.variation_index = -1  # >= 0 while the variations of nodes[index] are walked


def walk_tree(moves: list[MoveNode], visitor: TreeVisitor, first_turn: int = 1) -> None:
    """Call ``visitor``'s hooks for every move and variation under ``moves``, in file
    order; ``first_turn`` is the turn of the first move (above 1 from a Position).

    ``MisuseError`` unless ``moves`` is a list of moves (``record.moves``), ``visitor``
    a :class:`TreeVisitor` and ``first_turn`` a whole number.
    """
    misuse_unless(isinstance(moves, list), "moves", "a list of moves (record.moves)", moves)
    misuse_unless(isinstance(visitor, TreeVisitor), "visitor", "a TreeVisitor", visitor)
    require_number(first_turn, "first_turn")
    stack = [_Line(moves, first_turn, None)]
    while stack:
        line = stack[-1]
        if line.variation_index >= 0:
            node = line.nodes[line.index]
            if line.variation_index < len(node.variations):
                variation = node.variations[line.variation_index]
                line.variation_index += 1
                turn = line.first_turn + line.index
                visitor.begin_variation(variation, node, turn)
                stack.append(_Line(variation.nodes, turn, variation))
                continue
            line.variation_index = -1
            line.index += 1
            continue
        if line.index == len(line.nodes):
            stack.pop()
            if line.variation is not None:
                parent = stack[-1]
                visitor.end_variation(line.variation, parent.nodes[parent.index])
            continue
        # A run of moves up to the next one with variations, in one loop (profiled:
        # the writer walks every record it writes).
        nodes, index, count, first = line.nodes, line.index, len(line.nodes), line.first_turn
        visit = visitor.visit_move
        while index < count:
            node = nodes[index]
            # Why the canonical text numbers this move even within a round, if it does.
            if index == 0:
                resumes: str | None = STARTS
            else:
                previous = nodes[index - 1]
                if node.comments_before or previous.comments_after:
                    resumes = AFTER_COMMENT
                elif previous.variations:
                    resumes = AFTER_VARIATION
                else:
                    resumes = None
            visit(node, first + index, resumes)
            if node.variations:
                line.variation_index = 0
                break
            index += 1
        line.index = index


def iter_nodes(moves: list[MoveNode]) -> Iterator[MoveNode]:
    """Every node under ``moves``, variations included, each once (lines in no
    particular order: for work that looks at nodes one by one)."""
    stack = [moves]
    while stack:
        for node in stack.pop():
            yield node
            if node.variations:
                stack.extend(v.nodes for v in node.variations)


def all_comment_lists(record: Record) -> Iterator[list[Comment]]:
    """Every list of comments of the record (to read or to change in place)."""
    yield record.comments
    yield record.comments_after_result
    for node in iter_nodes(record.moves):
        yield node.comments_before
        yield node.comments_after
        for variation in node.variations:
            yield variation.comments_before
            yield variation.comments
