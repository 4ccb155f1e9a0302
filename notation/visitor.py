"""The one way through a record: :class:`RecordVisitor`, driven from text or from a tree.

A visitor is told what a record holds, in file order, one complete event at a time,
and makes something of it:

- the reader drives it from text (:func:`notation.reader.visit_records`): no record
  tree is built unless the visitor builds it;
- :func:`walk_record` drives it from a record tree in memory.

Building the tree is one visitor (:class:`TreeBuilder`, what
:func:`notation.reader.read_records` uses); checking is another (the replay of
:mod:`notation.replay`, which plays each move and tells a :class:`ReplayVisitor` the
position); writing, converting and annotating are visitors too.

The events of one record, in order (python-chess's ``BaseVisitor`` is the model)::

    begin_record(record)                 # where it stands: index, source, first line
    visit_tag(name, value, line, column) # each tag, as written
    end_tags(record)                     # return SKIP to be told no move (end_record follows)
        visit_move(text, suffix, number, line, column)
        visit_glyph(glyph, line, column) # "$3", or a suffix written apart ("!")
        visit_comment(comment)
        begin_variation(line, column)    # an alternative to the last move, from before it
            visit_move(...) ...
        end_variation()
        visit_result(result, line, column)
    end_record(record) -> result         # result, defect (record.error), raw text

Every event is complete when it arrives: what belongs to a move later in the text
(a glyph, a comment after it, its variations) is an event of its own.  Where a
comment belongs (after the move before it, or before the move after it) follows from
the events around it as :class:`TreeBuilder` places it.

>>> from notation.reader import read_string
>>> class Moves(RecordVisitor[list[str]]):
...     def begin_record(self, record):
...         self.texts = []
...     def visit_move(self, text, suffix, number, line, column):
...         self.texts.append(text)
...     def end_record(self, record):
...         return self.texts
>>> record = read_string('[Game "cave"]\\n\\n1. a1-b1 {ok} (1. a1-a2) 1... e5-d5 *\\n')[0]
>>> walk_record(record, Moves())
['a1-b1', 'a1-a2', 'e5-d5']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, TypeVar

from notation.record import Comment, MoveNode, MoveNumber, Record, Tag, Variation

if TYPE_CHECKING:
    from notation.errors import Defect

__all__ = [
    "DIGITS",
    "SKIP",
    "RecordVisitor",
    "ReplayVisitor",
    "Skip",
    "TagSeen",
    "TreeBuilder",
    "TreeBuildingVisitor",
    "TurnCounter",
    "expected_number",
    "iter_nodes",
    "move_label",
    "nodes_in_order",
    "walk_moves",
    "walk_record",
]

#: What a visit of one record makes.
T = TypeVar("T")
#: The characters a move number starts with (a move never does).
DIGITS: Final = "0123456789"


class Skip:
    """The type of :data:`SKIP`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SKIP"


#: Returned by :meth:`RecordVisitor.end_tags`: leave this record's moves unvisited.
SKIP: Final = Skip()


class TagSeen(NamedTuple):
    """A tag as a visitor that builds no tree keeps it (:meth:`RecordVisitor.visit_tag`):
    name, value, line, column; it reads like a :class:`~notation.record.Tag`."""

    name: str
    value: str
    line: int
    column: int


class RecordVisitor(Generic[T]):
    """The events of each record, in file order; each does nothing unless overridden.

    Subclass it and override what you need; :meth:`end_record` gives the visit's
    result (``None`` by default).  One visitor object serves every record of a read:
    :meth:`begin_record` is where its per-record state starts.
    """

    def begin_record(self, record: Record) -> None:
        """A record starts: ``record`` knows its index, source and first line."""

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        """A tag, ``[name "value"]`` (the value unescaped), at ``line``, ``column``."""

    def end_tags(self, record: Record) -> Skip | None:
        """The record's tags are all told; its moves come next.  Return :data:`SKIP` to
        be told none of them (only :meth:`end_record` follows): the reader then reads
        the movetext only as far as finding the record's end needs (its comments and
        result), so ``record.error`` names no defect of its moves."""
        return None

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        """A move: its text, the suffix written on it (``!``, ``?!``... or ``""``), the
        move number written before it (or ``None``), and where it stands."""

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        """A glyph of the last move: a numeric glyph (``$3``), or a suffix written apart
        from it (``h5-h3 !``), which the move had not."""

    def visit_comment(self, comment: Comment) -> None:
        """A comment.  It follows the move before it when it comes right after that
        move (its glyphs between), and precedes what comes next otherwise: after a
        move number (``comment.after_number``), a variation, another such comment, or
        where a line of play starts (see :class:`TreeBuilder`)."""

    def begin_variation(self, line: int, column: int) -> None:
        """A variation opens at ``line``, ``column``: an alternative to the last move."""

    def end_variation(self) -> None:
        """The variation opened last closes."""

    def visit_result(self, result: str, line: int, column: int) -> None:
        """The result token (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``)."""

    def end_record(self, record: Record) -> T:
        """The record is read: its result, defect (``record.error``) and, when kept, its
        text (``record.raw``) are there.  Returns what the visit made."""
        return None  # type: ignore[return-value]  # a visitor that makes nothing


class ReplayVisitor(RecordVisitor[T]):
    """A visitor under a replay (:class:`notation.replay.Replay`): the record's events,
    and for the moves the game's position.  The position is one object, played on
    throughout: read it during the call, copy it to keep it."""

    def visit_start(self, position: Any) -> None:
        """The record's moves are played from ``position`` (after :meth:`end_tags`)."""

    def after_move(self, move: Any, position: Any) -> None:
        """The move just told (:meth:`visit_move`) is ``move``, played: ``position`` is
        the one after it (``position.pop()`` and ``push(move)`` give the one before)."""

    def move_error(self, error: Defect) -> None:
        """The move just told cannot be played (a replay that goes on past errors):
        its line ends there; its variations are still played."""


class _Open:
    """A line of play being built: its nodes, its last node, and whether that node has
    variations yet (a comment then precedes what follows)."""

    __slots__ = ("branched", "last", "node", "nodes", "opened", "variation")

    def __init__(
        self, nodes: list[MoveNode], variation: Variation | None, node: MoveNode | None
    ) -> None:
        self.nodes = nodes
        self.variation = variation
        self.node = node  # the move the variation is an alternative to
        self.last: MoveNode | None = None
        self.branched = False
        self.opened = 0  # variations of the last node opened (a tree walked)


class TreeBuildingVisitor(ReplayVisitor[T]):
    """A visitor that builds the record tree as it is told the events: the tree is
    :attr:`record`, complete once :meth:`finish` has been called (at ``end_record``).
    The record is a new one: the record the events are told of (the reader's, or a
    tree being walked) gives it its place, result, defect and text.

    Told the walk of a tree (:func:`walk_record` of a record that has tags, moves or
    comments), it takes that tree as it is: :attr:`record` is the record walked, and
    :meth:`node_made` is told each of its nodes in turn.

    :class:`TreeBuilder` is this visitor alone.  A subclass that writes as it reads
    (:class:`notation.writer.MovetextWriter`) is told each node in :meth:`node_made`,
    and calls these methods first where it overrides them."""

    __slots__ = ("adopted", "building", "closed", "record", "shared_texts", "waiting")

    #: Move texts shared by the nodes that spell them (a game has few distinct moves),
    #: at most this many.
    SHARED_TEXTS: Final = 4096

    def __init__(self) -> None:
        self.shared_texts: dict[str, str] = {}
        self.record = Record()
        self.building: list[_Open] = []
        self.waiting: list[Comment] = []  # comments waiting for what comes next
        self.closed = False  # the result is told: comments follow it
        # The nodes of a tree being walked, in the order the walk tells them.
        self.adopted: Iterator[MoveNode] | None = None

    def begin_record(self, record: Record) -> None:
        self.waiting = []
        self.closed = False
        if record.tags or record.moves or record.comments or record.comments_after_result:
            self.adopted = nodes_in_order(record.moves)  # a tree walked: taken as it is
            self.record = record
            self.building = [_Open(record.moves, None, None)]
            return
        self.adopted = None
        built = Record(index=record.index, source=record.source, first_line=record.first_line)
        self.record = built
        self.building = [_Open(built.moves, None, None)]

    def shared(self, text: str) -> str:
        """The one string kept for the move text ``text`` (kept on its first look-up,
        unless :attr:`SHARED_TEXTS` are)."""
        texts = self.shared_texts
        kept = texts.get(text)
        if kept is None:
            kept = text
            if len(texts) < self.SHARED_TEXTS:
                texts[text] = text
        return kept

    def visit_tag(self, name: str, value: str, line: int, column: int) -> None:
        if self.adopted is None:
            self.record.tags.append(Tag(name, value, line, column))

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        if self.adopted is not None:
            current = self.building[-1]
            current.last = next(self.adopted)
            current.branched = False
            current.opened = 0
            self.node_made(current.last)
            return
        node = MoveNode(self.shared(text), line, column, suffix, number=number)
        if self.waiting:
            node.comments_before = self.waiting
            self.waiting = []
        current = self.building[-1]
        current.nodes.append(node)
        current.last = node
        current.branched = False
        self.node_made(node)

    def node_made(self, node: MoveNode) -> None:
        """``node``, the move just told, is in the tree (a writer starts writing it
        here); in a tree walked, the walked tree's node."""

    def visit_glyph(self, glyph: str, line: int, column: int) -> None:
        last = self.building[-1].last
        if last is not None and self.adopted is None:
            if glyph[:1] == "$":
                last.nags.append(int(glyph[1:]))
            else:
                last.suffix = glyph

    def visit_comment(self, comment: Comment) -> None:
        if self.adopted is not None:
            return
        if self.closed:
            self.record.comments_after_result.append(comment)
            return
        current = self.building[-1]
        last = current.last
        if last is not None and not (current.branched or self.waiting or comment.after_number):
            last.comments_after.append(comment)
        else:
            self.waiting.append(comment)

    def begin_variation(self, line: int, column: int) -> None:
        current = self.building[-1]
        node = current.last
        if node is None:
            return  # the reader tells no variation without a move before it
        if self.adopted is not None:
            variation = node.variations[current.opened]
            current.opened += 1
            current.branched = True
            self.building.append(_Open(variation.nodes, variation, node))
            return
        variation = Variation(line=line, column=column)
        if self.waiting:
            if current.branched:
                variation.comments_before = self.waiting
            else:
                node.comments_after.extend(self.waiting)
            self.waiting = []
        node.variations.append(variation)
        current.branched = True
        self.building.append(_Open(variation.nodes, variation, node))

    def end_variation(self) -> None:
        if self.adopted is None:
            self._place_waiting()
        if len(self.building) > 1:
            self.building.pop()

    def visit_result(self, result: str, line: int, column: int) -> None:
        if self.adopted is None:
            self._place_waiting()
        self.closed = True

    def finish(self, record: Record) -> Record:
        """The tree of ``record``, whose events are all told: :attr:`record` with the
        place, result, defect and text of ``record``."""
        self._place_waiting()
        self.building = []
        built = self.record
        if self.adopted is not None:
            self.adopted = None
            return built
        built.result = record.result
        built.result_line, built.result_column = record.result_line, record.result_column
        built.last_line = record.last_line
        built.error = record.error
        built.raw = record.raw
        # The reader keeps the comments after a defect of the container with its
        # record, untold.
        built.comments.extend(record.comments)
        return built

    def _place_waiting(self) -> None:
        """The comments waiting go where the line stands: after the result, after the
        line's last move, at the end of its variation, or to the record."""
        pending = self.waiting
        if not pending:
            return
        self.waiting = []
        if self.closed:
            self.record.comments_after_result.extend(pending)
            return
        current = self.building[-1]
        if current.last is not None and not current.branched:
            current.last.comments_after.extend(pending)
        elif current.variation is not None:
            current.variation.comments.extend(pending)
        else:
            self.record.comments.extend(pending)


class TreeBuilder(TreeBuildingVisitor[Record]):
    """The visitor that builds the record tree: ``end_record`` gives the whole
    :class:`~notation.record.Record`, every move a node in its line."""

    __slots__ = ()

    def end_record(self, record: Record) -> Record:
        return self.finish(record)


def walk_record(record: Record, visitor: RecordVisitor[T]) -> T:
    """Tell ``visitor`` what ``record`` holds, as the reader would from its text, and
    return what :meth:`RecordVisitor.end_record` makes.  One explicit stack: variations
    nest to any depth.

    ``MisuseError`` unless ``record`` is a Record and ``visitor`` a RecordVisitor.

    A visitor whose :meth:`~RecordVisitor.end_tags` returns :data:`SKIP` is told no move,
    as a reader of headers wants:

    >>> import notation
    >>> class Headers(RecordVisitor[tuple[dict[str, str], int]]):
    ...     def begin_record(self, record):
    ...         self.tags, self.moves = {}, 0
    ...     def visit_tag(self, name, value, line, column):
    ...         self.tags[name] = value
    ...     def end_tags(self, record):
    ...         return SKIP
    ...     def visit_move(self, text, suffix, number, line, column):
    ...         self.moves += 1
    ...     def end_record(self, record):
    ...         return self.tags, self.moves
    >>> record = notation.Record.from_moves("cave", ["b1", "b5"], tags={"Red": "Ann"})
    >>> walk_record(record, Headers())
    ({'Game': 'cave', 'Red': 'Ann', 'Result': '*'}, 0)
    """
    from notation.errors import misuse_unless

    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(isinstance(visitor, RecordVisitor), "visitor", "a RecordVisitor", visitor)
    visitor.begin_record(record)
    for tag in record.tags:
        visitor.visit_tag(tag.name, tag.value, tag.line, tag.column)
    if visitor.end_tags(record) is not SKIP:
        walk_moves(record.moves, visitor)
        for comment in record.comments:
            visitor.visit_comment(comment)
        if record.result is not None:
            visitor.visit_result(record.result, record.result_line, record.result_column)
        for comment in record.comments_after_result:
            visitor.visit_comment(comment)
    return visitor.end_record(record)


def walk_moves(moves: list[MoveNode], visitor: RecordVisitor[Any]) -> None:
    """The move events of :func:`walk_record` for the line ``moves`` and every variation
    under it, without the record's own events."""
    for _ in nodes_in_order(moves, visitor):
        pass  # the walk tells the events as it goes


def nodes_in_order(
    moves: list[MoveNode], visitor: RecordVisitor[Any] | None = None
) -> Iterator[MoveNode]:
    """Every node under ``moves`` in file order: the order in which a walk tells their
    moves (a visitor that keeps something per move pairs it with its node by this
    order).  With ``visitor``, the walk's events are told as the nodes are yielded:
    each node once its move is told."""
    # Each entry: a line's nodes, the index of its next node (-1: the variation is
    # not open yet), and its variation (None for the outermost line).
    stack: list[tuple[list[MoveNode], list[int], Variation | None]] = [(moves, [0], None)]
    while stack:
        nodes, at, variation = stack[-1]
        index = at[0]
        if index < 0:
            if visitor is not None and variation is not None:
                for comment in variation.comments_before:
                    visitor.visit_comment(comment)
                visitor.begin_variation(variation.line, variation.column)
            at[0] = index = 0
        if index == len(nodes):
            stack.pop()
            if variation is not None and visitor is not None:
                for comment in variation.comments:
                    visitor.visit_comment(comment)
                visitor.end_variation()
            continue
        node = nodes[index]
        at[0] = index + 1
        if visitor is None:
            yield node
            if node.has_variations:
                stack.extend((v.nodes, [-1], v) for v in reversed(node.variations))
            continue
        if node.is_bare:
            visitor.visit_move(node.text, node.suffix, node.number, node.line, node.column)
            yield node
            continue
        for comment in node.comments_before:
            visitor.visit_comment(comment)
        visitor.visit_move(node.text, node.suffix, node.number, node.line, node.column)
        yield node
        for nag in node.nags:
            visitor.visit_glyph(f"${nag}", node.line, node.column)
        for comment in node.comments_after:
            visitor.visit_comment(comment)
        # Its variations, the first on top: each opened when it is reached.
        stack.extend((v.nodes, [-1], v) for v in reversed(node.variations))


def iter_nodes(moves: list[MoveNode]) -> Iterator[MoveNode]:
    """Every node under ``moves``, variations included, each once (lines in no
    particular order: for work that looks at nodes one by one)."""
    stack = [moves]
    while stack:
        for node in stack.pop():
            yield node
            if node.has_variations:
                stack.extend(v.nodes for v in node.variations)


# -- move numbers --------------------------------------------------------------------


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


class TurnCounter:
    """The turn of each move of a visit, and why its line starts or resumes there.

    A visitor that writes or numbers moves keeps one and tells it the move and
    variation events it gets: :meth:`move` returns ``(turn, resumes)``, ``resumes``
    being :data:`STARTS`, :data:`AFTER_COMMENT`, :data:`AFTER_VARIATION` or ``None``
    where the line simply goes on.

    >>> counter = TurnCounter(first_turn=1)
    >>> counter.move(MoveNode("a1-b1"))
    (1, 'a line of play starts here')
    >>> counter.move(MoveNode("e5-d5"))
    (2, None)
    """

    __slots__ = ("lines",)

    def __init__(self, first_turn: int = 1) -> None:
        # Per open line: the turn of its next move and its last move (None: none yet).
        self.lines: list[list[Any]] = [[first_turn, None]]

    def move(self, node: MoveNode) -> tuple[int, str | None]:
        """The turn of ``node`` and why the text numbers it even within a round."""
        line = self.lines[-1]
        turn, previous = line
        if previous is None:
            resumes: str | None = STARTS
        elif node.comments_before or previous.comments_after:
            resumes = AFTER_COMMENT
        elif previous.has_variations:
            resumes = AFTER_VARIATION
        else:
            resumes = None
        line[0] = turn + 1
        line[1] = node
        return turn, resumes

    def begin_variation(self) -> int:
        """A variation of the last move opens: returns the turn of its first move."""
        turn: int = self.lines[-1][0] - 1
        self.lines.append([turn, None])
        return turn

    def end_variation(self) -> None:
        """The variation closes."""
        self.lines.pop()
