"""What stands at a line and column of a record's text: the move there, the line of play
that leads to it, the token a defect names, and where a cursor is (in a tag, or in the
moves, and at which point of which line of play).

Lines and columns count from 1, as the reader's do (a tab is one column, and so is any
character).  Nothing here knows a game's rules: the reader says where things are
(:func:`cursor_at` reads the record again with a mark at the cursor, so that comments,
variations and move numbers are told apart exactly as a check tells them), and the
replay's own functions say which position a line of play reaches.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from notation.errors import Defect, NotationException
from notation.reader import read_records
from notation.record import MoveNode, Record, route_to
from notation.replay import resolve_game, start_position
from notation.visitor import nodes_in_order

__all__ = [
    "MARK",
    "MoveCursor",
    "TagCursor",
    "address_before",
    "changed_by",
    "cursor_at",
    "first_turn",
    "line_of_play",
    "node_at",
    "tag_value_span",
    "token_span",
    "walk",
]

#: What :func:`cursor_at` writes at the cursor to find it again in a record tree: no
#: separator, no white space, no suffix or digit, nothing a record holds.
MARK = "\ue000\ue001\ue002"

#: What ends a word of movetext besides white space (as the reader cuts tokens).
SEPARATORS = frozenset("(){};")

#: The start of a tag line up to a cursor in its name: ``[Eve``.
_TAG_NAME = re.compile(r"\s*\[\s*([A-Za-z0-9_+#=:.-]*)$")
#: The start of a tag line up to a cursor in its value: ``[Game "ca``.
_TAG_VALUE = re.compile(r'\s*\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:.-]*)\s+"((?:[^"\\]|\\.)*)$')
#: A tag line, its value found: ``[Name "value"]``.
_TAG_LINE = re.compile(r'\s*\[\s*[A-Za-z0-9_][A-Za-z0-9_+#=:.-]*\s+"((?:[^"\\]|\\.)*)"\s*\]')
#: A result written with spaces, as the reader finds one (``1 - 0``).
_SPACED_RESULT = re.compile(r"(1/2|1|0)\s*-\s*(1/2|1|0)")


#: Every move under a record's main line, in the order the text writes them: the
#: visitor's :func:`~notation.visitor.nodes_in_order`, under the name it had here.
walk = nodes_in_order


def node_at(record: Record, line: int, column: int) -> MoveNode | None:
    """The move of ``record`` whose token (suffix included) holds ``column`` of ``line``,
    or ends just before it; None if no move does.

    Column 16 of line 3 is in Black's alternative first move, inside the variation;
    :func:`line_of_play` gives the moves that lead to it, with their turns:

    >>> import notation
    >>> (record,) = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 (1... c5) 2. b1-c1 *\\n')
    >>> node = node_at(record, 3, 16)
    >>> node, node_at(record, 3, 1)
    (<MoveNode 1... c5>, None)
    >>> line_of_play(record, node, first_turn(record))
    [(1, <MoveNode 1. b1>), (2, <MoveNode 1... c5>)]
    """
    touching: MoveNode | None = None
    for node in nodes_in_order(record.moves):
        if node.line != line or node.column > column:
            continue
        end = node.column + len(node.written)
        if column < end:
            return node
        if column == end and touching is None:
            touching = node
    return touching


def address_before(record: Record, node: MoveNode) -> tuple[int, ...] | None:
    """Where a cursor stands just before ``node``, as :attr:`notation.editing.editor.RecordEditor.
    address` says it (``(i,)``: after ``i`` moves of the main line; ``(i, v, j)``: after
    ``j`` moves of variation ``v`` of the main line's move ``i``...); None for a node not
    in ``record``."""
    route = route_to(record.moves, node)
    if route is None:
        return None
    branches, index = route
    out: list[int] = []
    for at, number in branches:
        out += [at, number]
    out.append(index)
    return tuple(out)


def first_turn(record: Record, default_game: str | None = None) -> int | None:
    """The turn of the record's first move (1, or one after a ``Position`` tag's turns);
    None if the record names no game it can start (``notation check`` says why)."""
    game = resolve_game(record, default_game)
    if isinstance(game, Defect):
        return None
    try:
        return start_position(game, record.tag_dict).turn + 1
    except NotationException:
        return None


def line_of_play(record: Record, node: MoveNode, first: int) -> list[tuple[int, MoveNode]]:
    """The moves played to reach the position after ``node``, ``node`` last, each with its
    turn (``first`` is the turn of the record's first move, :func:`first_turn`): the main
    line, then each variation entered on the way.  Empty for a node not in ``record``."""
    route = route_to(record.moves, node)
    if route is None:
        return []
    branches, index = route
    out: list[tuple[int, MoveNode]] = []
    nodes, turn = record.moves, first
    for at, number in branches:
        out.extend((turn + k, nodes[k]) for k in range(at))
        turn += at
        nodes = nodes[at].variations[number - 1].nodes
    out.extend((turn + k, nodes[k]) for k in range(index + 1))
    return out


def changed_by(record: Record, defect: Defect, default_game: str | None = None) -> MoveNode | None:
    """The move that a rules defect blames (:attr:`~notation.errors.Defect.last_changed`:
    the turn that last changed the square it depends on), on the line of play of the move
    the defect is about; None where the defect blames none."""
    change = defect.last_changed
    if change is None:
        return None
    node = node_at(record, defect.line, defect.column)
    first = first_turn(record, default_game)
    if node is None or first is None:
        return None
    for turn, played in line_of_play(record, node, first):
        if turn == change.turn and played is not node:
            return played
    return None


def token_span(text: str, defect: Defect) -> tuple[int, int]:
    """The columns (first, and one past the last) of what ``defect`` names on its line,
    whose text (without its line end) is ``text``: the move it is about, the tag line,
    the bracket, the result or number token there; an empty span where it points past
    the last token (a missing result)."""
    at = max(defect.column, 1)
    rest = text[at - 1 :]
    move = defect.move
    if move and rest.startswith(move):
        return at, at + len(move)
    if not rest:
        return at, at
    if rest[0] == "[" and rest.rstrip().endswith("]"):
        return at, at + len(rest.rstrip())
    if rest[0] in SEPARATORS or rest[0] == "[":
        return at, at + 1
    spaced = _SPACED_RESULT.match(rest)
    if spaced is not None and defect.code == "result-spaced":
        return at, at + spaced.end()
    length = 0
    while length < len(rest) and rest[length] not in SEPARATORS and not rest[length].isspace():
        length += 1
    return at, at + length


def tag_value_span(text: str) -> tuple[int, int] | None:
    """The columns (first, and one past the last) of the value of the tag line ``text``
    (between its quotes), or None if ``text`` is no tag line."""
    found = _TAG_LINE.match(text)
    if found is None:
        return None
    return found.start(1) + 1, found.end(1) + 1


@dataclass(frozen=True, slots=True)
class MoveCursor:
    """A cursor among the moves of a record: ``record`` is the record read again with
    :data:`MARK` at the cursor (the move being typed, ``prefix``, ends with it),
    ``address`` where the move being typed would be played
    (:meth:`notation.editing.editor.RecordEditor.goto`), ``column`` where ``prefix`` starts."""

    record: Record
    address: tuple[int, ...]
    prefix: str
    column: int


@dataclass(frozen=True, slots=True)
class TagCursor:
    """A cursor in a tag line being typed: in its name (``value`` false; ``name`` is what
    is typed of it) or in its value (``name`` is the tag's name, ``prefix`` what is typed
    of the value); ``column`` is where what is typed starts."""

    name: str
    value: bool
    prefix: str
    column: int


def cursor_at(
    lines: Sequence[str], first_line: int, line: int, column: int
) -> MoveCursor | TagCursor | None:
    """Where a cursor before ``column`` of ``line`` is, in ``lines`` (whole records, each
    line ending in ``\\n`` or not; the first is line ``first_line``): in a tag line being
    typed, among the moves (the record read again with :data:`MARK` there), or in neither
    (a comment, an escape line, a tag line's end, after the result: None).

    A cursor after ``b1-c`` on line 3 is in a move being typed, Red's second (the third
    turn: after 2 moves of the main line):

    >>> lines = ['[Game "cave"]\\n', '\\n', '1. b1 b5 2. b1-c *\\n']
    >>> cursor = cursor_at(lines, 1, 3, 17)
    >>> cursor.prefix, cursor.address, cursor.column
    ('b1-c', (2,), 13)
    >>> cursor_at(lines, 1, 1, 4)
    TagCursor(name='Ga', value=False, prefix='Ga', column=2)
    """
    index = line - first_line
    if not 0 <= index < len(lines):
        return None
    text = lines[index].rstrip("\r\n")
    before = text[: max(column - 1, 0)]
    if text.lstrip().startswith("["):
        return _tag_cursor(before)
    if text.startswith("%"):
        return None
    marked = f"{before}{MARK} {text[len(before):]}\n"
    reading = [*lines[:index], marked, *lines[index + 1 :]]
    for record in read_records([_ended(item) for item in reading], first_line=first_line):
        for node in nodes_in_order(record.moves):
            if node.text.endswith(MARK):
                address = address_before(record, node)
                if address is None:  # pragma: no cover - walk finds nodes of the record
                    return None
                typed = node.text[: -len(MARK)]
                return MoveCursor(record, address, typed, len(before) + 1 - len(typed))
    return None


def _ended(line: str) -> str:
    return line if line.endswith("\n") else f"{line}\n"


def _tag_cursor(before: str) -> TagCursor | None:
    named = _TAG_NAME.match(before)
    if named is not None:
        return TagCursor(named.group(1), False, named.group(1), named.start(1) + 1)
    valued = _TAG_VALUE.match(before)
    if valued is not None:
        return TagCursor(valued.group(1), True, valued.group(2), valued.start(2) + 1)
    return None
