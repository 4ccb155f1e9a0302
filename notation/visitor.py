"""The one way through a record: :class:`RecordVisitor`, driven from text or from a tree.

A visitor is told what a record holds, in file order, and makes something of it:

- the reader drives it from text (:func:`notation.reader.visit_records`): the record
  is never built unless the visitor builds it;
- :func:`walk_record` drives it from a record tree in memory.

Building the tree is one visitor (:class:`TreeBuilder`, what
:func:`notation.reader.read_records` uses); checking is another (the replay in
:mod:`notation.replay`, which plays each move and passes the move and the position on
to an inner visitor); writing, converting, annotating, strict numbering and the HTML
viewer are visitors too.

The events of one record, in order::

    begin_record(record)            # the record's place: index, source, first line
    begin_moves(record)             # its tags are read: return SKIP to skip its moves
        visit_move(node)            # a move (its number and comments before it known)
        begin_variation(var, node)  # an alternative to node, from the position before it
            visit_move(...) ...
        end_variation(var, node)
    end_record(record) -> result    # everything read: result, comments, error, raw text

A node is handed over as soon as its move is read, so its glyphs, its comments after
and its variations are not there yet: they are added to the same object as the reader
reads them, and are all there at the next event.  A move followed on the same line by
another move can get nothing more; the reader hands those over as runs
(:meth:`RecordVisitor.visit_moves`), whose moves go to
:meth:`RecordVisitor.visit_plain_move` (text and place, no node) unless the visitor
plays the run itself; a visitor that needs no node (a check) takes them as they are,
and otherwise the node is made.

A visitor that runs under a replay also gets :meth:`~RecordVisitor.after_move` (and
:meth:`~RecordVisitor.before_move`, :meth:`~RecordVisitor.move_error`) with the
game's move and position.

>>> from notation.reader import read_string
>>> class Moves(RecordVisitor[list[str]]):
...     def begin_record(self, record):
...         self.texts = []
...     def visit_move(self, node):
...         self.texts.append(node.text)
...     def end_record(self, record):
...         return self.texts
>>> record = read_string('[Game "cave"]\\n\\n1. a1-b1 {ok} (1. a1-a2) 1... e5-d5 *\\n')[0]
>>> walk_record(record, Moves())
['a1-b1', 'a1-a2', 'e5-d5']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from notation.record import MoveNode, MoveNumber, Record, Variation

if TYPE_CHECKING:
    from notation.errors import Defect

__all__ = [
    "DIGITS",
    "SKIP",
    "RecordVisitor",
    "Skip",
    "TreeBuilder",
    "TurnCounter",
    "expected_number",
    "iter_nodes",
    "move_label",
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


#: Returned by :meth:`RecordVisitor.begin_moves`: leave this record's moves unvisited.
SKIP: Final = Skip()


class RecordVisitor(Generic[T]):
    """Hooks called for each record, in file order; each does nothing unless overridden.

    Subclass it and override what you need; :meth:`end_record` gives the visit's
    result (``None`` by default).  One visitor object serves every record of a read:
    :meth:`begin_record` is where its per-record state starts.
    """

    def begin_record(self, record: Record) -> None:
        """A record starts: ``record`` knows its index, source and first line; its tags,
        moves and result follow."""

    def begin_moves(self, record: Record) -> Skip | None:
        """The record's tags are all in ``record.tags``; its moves come next.  Return
        :data:`SKIP` to be told none of them (only :meth:`end_record` follows)."""
        return None

    def visit_move(self, node: MoveNode) -> None:
        """A move: its text, place, number and comments before it are known; its
        suffix, glyphs, comments after and variations are added as they are read."""

    def visit_plain_move(
        self, text: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        """A move that nothing follows but the next move: no suffix, glyph, comment or
        variation.  By default it becomes a node for :meth:`visit_move`."""
        self.visit_move(MoveNode(text, line, column, number=number))

    def visit_moves(self, tokens: list[str], start: int, stop: int, line: int, column: int) -> None:
        """A run of plain moves: ``tokens[start:stop]``, on ``line`` from ``column``, one
        space apart, move numbers (``12.`` or ``12...``) and moves, the last a move;
        each move is followed on the line by another move.  By default each move goes
        to :meth:`visit_plain_move`, with the number written before it."""
        number: MoveNumber | None = None
        for index in range(start, stop):
            text = tokens[index]
            if text[0] in DIGITS:
                number = MoveNumber.read(text, line, column)
            else:
                self.visit_plain_move(text, number, line, column)
                number = None
            column += len(text) + 1

    def begin_variation(self, variation: Variation, node: MoveNode) -> None:
        """A variation of ``node`` opens (it is already in ``node.variations``)."""

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        """The variation of ``node`` closes."""

    def end_record(self, record: Record) -> T:
        """The record is read: its result, comments, defect (``record.error``) and, when
        kept, its text (``record.raw``) are there.  Returns what the visit made."""
        return None  # type: ignore[return-value]  # a visitor that makes nothing

    @property
    def takes_plain_moves(self) -> bool:
        """Whether this visitor takes :meth:`visit_plain_move` as it is (by default:
        whether its class overrides it).  Under a replay, such a visitor gets
        :meth:`after_plain_move` for each, and no node is made for it."""
        return type(self).visit_plain_move is not RecordVisitor.visit_plain_move

    @property
    def needs_nodes(self) -> bool:
        """Whether this visitor needs the node of every move (by default it does).  One
        that does not (a check) may be told every move of a line of text as a plain
        move, its last too, and the nodes that :meth:`begin_variation` and
        :meth:`end_variation` get are then the reader's own, not handed over before."""
        return True

    def held_node(self, node: MoveNode) -> None:
        """For a visitor that needs no nodes: the node of a line's last move, told in a
        run, that something follows (a glyph, a comment, a variation), as the reader
        made it when that came."""

    # -- under a replay (notation.replay.Replay) ---------------------------------------
    def visit_start(self, position: Any) -> None:
        """Under a replay: the record's moves are played from ``position`` (after
        :meth:`begin_moves`; the same object is played on throughout)."""

    @property
    def needs_before_move(self) -> bool:
        """Whether a replay must call :meth:`before_move` (it costs a move taken back
        and played again): by default, whether the class overrides it."""
        return type(self).before_move is not RecordVisitor.before_move

    def before_move(self, node: MoveNode, move: Any, position: Any) -> None:
        """Under a replay: ``node``'s move is legal; ``position`` is the one before it."""

    def after_move(self, node: MoveNode, move: Any, position: Any) -> None:
        """Under a replay: ``node``'s move was played; ``position`` is the one after it."""

    def after_plain_move(self, text: str, move: Any, position: Any) -> None:
        """Under a replay, for a visitor that :attr:`takes_plain_moves`: the plain move
        ``text`` was played; ``position`` is the one after it."""

    def move_error(self, node: MoveNode, error: Defect) -> None:
        """Under a replay that goes on past errors: ``node``'s move cannot be played
        (its line ends there; its variations are still played)."""


class TreeBuilder(RecordVisitor[Record]):
    """The visitor that builds the record tree: ``end_record`` gives the whole
    :class:`~notation.record.Record`, every move a node in its line."""

    __slots__ = ("lines", "texts")

    #: Move texts shared by the nodes that spell them (a game has few distinct moves),
    #: at most this many.
    SHARED_TEXTS: Final = 4096

    def __init__(self) -> None:
        self.lines: list[list[MoveNode]] = []
        self.texts: dict[str, str] = {}

    def begin_record(self, record: Record) -> None:
        self.lines = [record.moves]

    def shared(self, text: str) -> str:
        """The one string kept for the move text ``text`` (kept on its first look-up,
        unless :attr:`SHARED_TEXTS` are)."""
        texts = self.texts
        kept = texts.get(text)
        if kept is None:
            kept = text
            if len(texts) < self.SHARED_TEXTS:
                texts[text] = text
        return kept

    def visit_move(self, node: MoveNode) -> None:
        node.text = self.shared(node.text)
        self.lines[-1].append(node)

    def visit_plain_move(
        self, text: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.lines[-1].append(MoveNode(self.shared(text), line, column, number=number))

    def begin_variation(self, variation: Variation, node: MoveNode) -> None:
        self.lines.append(variation.nodes)

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        self.lines.pop()

    def end_record(self, record: Record) -> Record:
        self.lines = []
        return record


class _Line:
    """A line being walked: its nodes, the next one, and the variation it is."""

    __slots__ = ("index", "nodes", "variation", "variations_done")

    def __init__(self, nodes: list[MoveNode], variation: Variation | None) -> None:
        self.nodes = nodes
        self.variation = variation
        self.index = 0
        # How many variations of nodes[index - 1] were walked (-1: none to walk).
        self.variations_done = -1


def walk_record(record: Record, visitor: RecordVisitor[T]) -> T:
    """Tell ``visitor`` what ``record`` holds, as the reader would from its text, and
    return what :meth:`RecordVisitor.end_record` makes.  One explicit stack: variations
    nest to any depth.

    ``MisuseError`` unless ``record`` is a Record and ``visitor`` a RecordVisitor.
    """
    from notation.errors import misuse_unless

    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    misuse_unless(isinstance(visitor, RecordVisitor), "visitor", "a RecordVisitor", visitor)
    visitor.begin_record(record)
    if visitor.begin_moves(record) is not SKIP:
        walk_moves(record.moves, visitor)
    return visitor.end_record(record)


def walk_moves(moves: list[MoveNode], visitor: RecordVisitor[Any]) -> None:
    """The move events of :func:`walk_record` for the line ``moves`` and every variation
    under it, without the record's own events."""
    stack = [_Line(moves, None)]
    visit = visitor.visit_move
    while stack:
        line = stack[-1]
        nodes = line.nodes
        if line.variations_done >= 0:
            node = nodes[line.index - 1]
            variations = node.variations
            if line.variations_done < len(variations):
                variation = variations[line.variations_done]
                line.variations_done += 1
                visitor.begin_variation(variation, node)
                stack.append(_Line(variation.nodes, variation))
                continue
            line.variations_done = -1
        index, count = line.index, len(nodes)
        while index < count:
            node = nodes[index]
            index += 1
            visit(node)
            if node.has_variations:
                line.variations_done = 0
                break
        line.index = index
        if line.variations_done < 0 and index == count:
            stack.pop()
            if line.variation is not None:
                parent = stack[-1]
                visitor.end_variation(line.variation, parent.nodes[parent.index - 1])


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
