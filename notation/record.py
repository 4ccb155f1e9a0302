"""The record tree: what the reader makes of one record, and what writers write.

A record keeps everything a file said, in order: its tags (unknown ones too),
every move as written (with its line and column), suffixes, glyphs, comments
and variations.  Moves are kept as *text*; turning them into typed moves is the
game's job (see :mod:`notation.replay`), so a record can be read, kept and
written again without knowing its game's rules.

The shape follows PGN's: a line is a list of :class:`MoveNode`; each node may
carry variations, which are alternative lines to *that* move (they start from the
position before it).

Records compare by what they say, not by where or how it was written: ``==`` looks at
the tags, the moves (text, suffix, glyphs), comments, variations and the result, and
ignores every line and column, the move numbers and comment brackets as written, a
record's index, source, lines, kept text (``raw``) and read defect (``error``).  A
record read from a file equals the same record built in code
(:meth:`Record.from_moves`).

This module knows no game, and imports neither the games nor the replay, which sit
above it: the methods that need one (:meth:`Record.from_moves`, :meth:`Record.game`,
:meth:`Record.end_position`...) call the play layer (:mod:`notation.replay`),
imported on their first call.

Reading a record gives its tree: the main line's nodes, a comment after a move, and
a variation (an alternative to the move it follows) with nodes of its own:

>>> import notation
>>> record = notation.read_string('[Game "cave"]\\n\\n1. b1 {first} b5 (1... b4) 2. b1-c1 *\\n')[0]
>>> record
<Record 1: cave, *, 3 turns>
>>> record.moves
[<MoveNode 1. b1>, <MoveNode b5 (1 variation)>, <MoveNode 2. b1-c1>]
>>> record.moves[0].comment
'first'
>>> record.moves[1].variations[0].nodes
[<MoveNode 1... b4>]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from notation import plug_in
from notation.errors import Defect, MisuseError, NotationException, printable

if TYPE_CHECKING:
    from notation.games.base import Game, Position

#: A game's move type (as in :mod:`notation.games.base`).
M = TypeVar("M", bound=Hashable)

#: The suffixes a move may carry (as the reader splits them off: ``h5-h3!``).
_SUFFIXES = frozenset({"!", "?", "!!", "??", "!?", "?!"})


def split_suffix(text: str) -> tuple[str, str]:
    """``text`` as (move, suffix), the way the reader splits a token: ``"h5-h3!"`` gives
    ``("h5-h3", "!")``; a text with no suffix comes back with ``""``.

    >>> split_suffix("h5-h3!"), split_suffix("Zb2xSc3?!"), split_suffix("b1")
    (('h5-h3', '!'), ('Zb2xSc3', '?!'), ('b1', ''))
    """
    # rstrip, not a regular expression: see the reader (a long run of "!" is quadratic).
    bare = text.rstrip("!?")
    if bare and len(bare) < len(text) and text[len(bare) :] in _SUFFIXES:
        return bare, text[len(bare) :]
    return text, ""


def _short(text: str, limit: int = 30) -> str:
    """``text`` cut for a repr (a hostile tag value can hold megabytes), made printable."""
    return printable(text if len(text) <= limit else text[:limit] + "...")


@dataclass(slots=True)
class Comment:
    """A comment as written: ``{...}`` (``braced``) or ``; ...`` to the end of a line."""

    text: str
    # Where and how it was written: not compared (see the module's docstring).
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    braced: bool = field(default=True, compare=False)
    #: In a move's ``comments_before``: written after the move's number (``2. {c} b1``)
    #: rather than before it (``{c} 2. b1``).
    after_number: bool = field(default=False, compare=False)


@dataclass(slots=True)
class MoveNumber:
    """A move number written before a move: ``12.`` (dots=1) or ``12...`` (dots=3)."""

    number: int
    dots: int
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.number}{'.' * self.dots}"

    @classmethod
    def read(cls, text: str, line: int = 0, column: int = 0) -> MoveNumber:
        """The number a well-formed ``text`` (``12.``, ``12...``) writes, placed at
        ``line``, ``column``."""
        digits = text.rstrip(".")
        return cls(int(digits), len(text) - len(digits), line, column)


@dataclass(slots=True, repr=False)
class Variation:
    """An alternative line, written ``( ... )`` after the move it replaces."""

    nodes: list[MoveNode] = field(default_factory=list)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    #: Comments after the last move of the variation (or all of them, if it has none).
    comments: list[Comment] = field(default_factory=list)
    #: Comments between the previous variation of the same move and this one.
    comments_before: list[Comment] = field(default_factory=list)

    def __repr__(self) -> str:
        first = f" from {_short(self.nodes[0].written)}" if self.nodes else ""
        return f"<Variation of {_count(len(self.nodes), 'move')}{first}>"


#: The default of a node's lists: ``None`` in the slot beneath, until the list is asked
#: for (see :class:`MoveNode`).  ``Any``: the fields are typed as the lists they give.
_MADE_WHEN_ASKED: Any = None

#: What a list not made yet compares as (never handed out, never changed).
_NO_ITEMS: list[Any] = []


@dataclass(slots=True, repr=False, eq=False, init=False)
class MoveNode:
    """One turn as written in a record.

    ``nags``, ``comments_before``, ``comments_after`` and ``variations`` are lists of
    the node's own, to read and change in place (``node.nags.append(3)``) or replace.
    Almost every move has none of them, so a node makes each list only when it is
    first asked for: until then its slot holds ``None`` (``_nags``, ``_variations``...:
    the package's walks read those, to make no list for a move that has nothing).

    A node built in code holds its move as text; a comment and a variation are added
    to it in place (nothing is checked: a node knows no game):

    >>> node = MoveNode("b5")
    >>> node.is_bare
    True
    >>> node.comment = "a quiet reply"
    >>> node.add_variation(["b4"])
    <Variation of 1 move from b4>
    >>> node, node.comment, node.is_bare
    (<MoveNode b5 (1 variation)>, 'a quiet reply', False)
    """

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    suffix: str = ""
    nags: list[int] = _MADE_WHEN_ASKED
    #: The move number written before the move, if one was: layout, which the writer
    #: redoes, so not compared.
    number: MoveNumber | None = field(default=None, compare=False)
    comments_before: list[Comment] = _MADE_WHEN_ASKED
    comments_after: list[Comment] = _MADE_WHEN_ASKED
    variations: list[Variation] = _MADE_WHEN_ASKED

    if TYPE_CHECKING:
        # The slots beneath the four lists, None until a list is made (see
        # _lists_made_when_asked below, which names them so).
        _nags: list[int] | None = None
        _comments_before: list[Comment] | None = None
        _comments_after: list[Comment] | None = None
        _variations: list[Variation] | None = None

    def __init__(
        self,
        text: str,
        line: int = 0,
        column: int = 0,
        suffix: str = "",
        nags: list[int] | None = None,
        number: MoveNumber | None = None,
        comments_before: list[Comment] | None = None,
        comments_after: list[Comment] | None = None,
        variations: list[Variation] | None = None,
    ) -> None:
        # The lists given are kept as they are (the node shares them, as it always did).
        self.text = text
        self.line = line
        self.column = column
        self.suffix = suffix
        self._nags = nags
        self.number = number
        self._comments_before = comments_before
        self._comments_after = comments_after
        self._variations = variations

    def __eq__(self, other: object) -> bool:
        # What the dataclass's own == compared, with a list not made yet as an empty one
        # (and without making it).
        if other.__class__ is not self.__class__ or not isinstance(other, MoveNode):
            return NotImplemented
        return _compared(self) == _compared(other)

    @property
    def written(self) -> str:
        """The move as it stood in the file, suffix included."""
        return self.text + self.suffix

    @property
    def has_variations(self) -> bool:
        """Whether the node has variations (asked without making an empty list)."""
        return bool(self._variations)

    @property
    def has_comments_before(self) -> bool:
        """Whether the node has comments before it (asked without making a list)."""
        return bool(self._comments_before)

    @property
    def has_comments_after(self) -> bool:
        """Whether the node has comments after it (asked without making a list)."""
        return bool(self._comments_after)

    @property
    def is_bare(self) -> bool:
        """Whether the node has no glyph, comment or variation (nothing but its move,
        suffix and number), asked without making a list."""
        return not (
            self._nags or self._comments_before or self._comments_after or self._variations
        )

    @property
    def comment(self) -> str:
        """The text of the comments after the move, joined by a space (``""`` if none),
        as python-chess's ``node.comment``.

        Setting it replaces them with one ``{...}`` comment, trimmed as the reader trims
        one (none for ``""``): ``record.moves[1].comment = "the usual reply"``.
        ``MisuseError`` for a value that is not a str.
        """
        return " ".join(comment.text for comment in self._comments_after or ())

    @comment.setter
    def comment(self, text: str) -> None:
        if type(text) is not str:
            raise MisuseError(f"a comment is a str, not {type(text).__name__}")
        text = text.strip()
        self.comments_after = [Comment(text)] if text else []

    def add_variation(self, moves: Iterable[object]) -> Variation:
        """Add an alternative line to this move (it starts from the position before it)
        and return it.

        ``moves`` are texts (a suffix is split off: ``"h5-h3!"``), typed moves (their
        ``str()`` is written) or :class:`MoveNode` objects (kept as they are).  A node
        knows no game, so nothing is checked here: :meth:`Record.add_variation` checks
        the moves against the rules and writes them in canonical text.
        ``MisuseError`` for no move at all (a variation holds at least one).
        """
        nodes = [_node(item) for item in moves]
        if not nodes:
            raise MisuseError("a variation holds at least one move; none was given")
        variation = Variation(nodes)
        self.variations.append(variation)
        return variation

    def __repr__(self) -> str:
        number = f"{self.number} " if self.number is not None else ""
        variations = self._variations
        more = f" ({_count(len(variations), 'variation')})" if variations else ""
        return f"<MoveNode {number}{_short(self.written)}{more}>"


def _node(item: object) -> MoveNode:
    """A node for a text (suffix split off), a typed move (its text) or a node."""
    if isinstance(item, MoveNode):
        return item
    if isinstance(item, str):
        text, suffix = split_suffix(item)
        return MoveNode(text, suffix=suffix)
    return MoveNode(str(item))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _compared(node: MoveNode) -> tuple[object, ...]:
    """What ``==`` compares of a node: the dataclass's fields compared, in their order."""
    nags, before = node._nags, node._comments_before
    after, variations = node._comments_after, node._variations
    return (
        node.text,
        node.suffix,
        _NO_ITEMS if nags is None else nags,
        _NO_ITEMS if before is None else before,
        _NO_ITEMS if after is None else after,
        _NO_ITEMS if variations is None else variations,
    )


def _nags(node: MoveNode) -> list[int]:
    """The ``$N`` glyphs after the move."""
    items = node._nags
    if items is None:
        items = node._nags = []
    return items


def _comments_before(node: MoveNode) -> list[Comment]:
    """The comments before the move (and its number)."""
    items = node._comments_before
    if items is None:
        items = node._comments_before = []
    return items


def _comments_after(node: MoveNode) -> list[Comment]:
    """The comments after the move (see :attr:`MoveNode.comment`)."""
    items = node._comments_after
    if items is None:
        items = node._comments_after = []
    return items


def _variations(node: MoveNode) -> list[Variation]:
    """The alternative lines to the move, in file order."""
    items = node._variations
    if items is None:
        items = node._variations = []
    return items


def _lists_made_when_asked(cls: type[MoveNode]) -> None:
    """Make each of a node's lists when it is first asked for: the slot the dataclass
    made for ``name`` is renamed ``_name`` (``None`` until the list is made), and
    ``name`` becomes a property that reads it, making the list if need be.  The
    dataclass's fields, ``__slots__`` and ``__match_args__`` stay as they were, and so
    do pickling, ``copy`` and ``dataclasses.replace`` (which read the properties)."""
    for get in (_nags, _comments_before, _comments_after, _variations):
        name = get.__name__.lstrip("_")
        slot = cls.__dict__[name]  # the member descriptor of the slot
        setattr(cls, get.__name__, slot)
        setattr(cls, name, property(get, slot.__set__, doc=get.__doc__))


_lists_made_when_asked(MoveNode)


def route_to(moves: list[MoveNode], target: MoveNode) -> tuple[list[tuple[int, int]], int] | None:
    """How to reach ``target`` (found by identity) from the start of the main line
    ``moves``: the variations to enter, each as (index in its line of the move it
    replaces, its number from 1), and the index of ``target`` in its own line; ``None``
    if it is nowhere in the tree."""
    stack: list[tuple[list[MoveNode], list[tuple[int, int]]]] = [(moves, [])]
    while stack:  # no recursion: variations nest as deep as a file says
        nodes, branches = stack.pop()
        for index, node in enumerate(nodes):
            if node is target:
                return branches, index
            for number, variation in enumerate(node.variations, 1):
                stack.append((variation.nodes, [*branches, (index, number)]))
    return None


@dataclass(slots=True)
class Tag:
    """A tag pair, ``[Name "value"]``."""

    name: str
    value: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True, repr=False)
class Record:
    """One game record.

    Read from text (:func:`notation.read_file`), or built in code: from the moves of a
    game (:meth:`from_moves`), or node by node.  ``==`` compares what records say, not
    where they were written (see the module's docstring).

    Built from a game's moves, each move is checked and kept as a node of the main
    line; the tags name the game, the players given and the result:

    >>> record = Record.from_moves("tinkertown", ["d3", "d2,b5", "c5,f2"], tags={"White": "Mina"})
    >>> record
    <Record: tinkertown, Mina, *, 3 turns>
    >>> record.tag_dict
    {'Game': 'tinkertown', 'White': 'Mina', 'Result': '*'}
    >>> [node.text for node in record.mainline()]
    ['d3', 'd2,b5', 'c5,f2']

    A variation added to a turn of the main line is checked against the rules too,
    from the position before that turn's move:

    >>> record.add_variation(2, ["c3,g6"])
    <Variation of 1 move from c3,g6>
    >>> record.add_variation(3, ["d3,f2"])
    Traceback (most recent call last):
    ...
    notation.errors.IllegalMoveError: turn 3 (d3,f2): d3 is occupied
    """

    tags: list[Tag] = field(default_factory=list)
    moves: list[MoveNode] = field(default_factory=list)
    #: Comments after the main line's last move (or all of them, if there is no move).
    comments: list[Comment] = field(default_factory=list)
    result: str | None = None
    #: Comments after the result token (``* {c}``): still this record's.
    comments_after_result: list[Comment] = field(default_factory=list)
    # Where the record was written, and what reading it found: not compared (see the
    # module's docstring).
    result_line: int = field(default=0, compare=False)
    result_column: int = field(default=0, compare=False)
    #: 1-based position of the record in its source, and the source's name.
    index: int = field(default=0, compare=False)
    source: str | None = field(default=None, compare=False)
    #: First and last non-blank line of the record in its source.
    first_line: int = field(default=0, compare=False)
    last_line: int = field(default=0, compare=False)
    #: The first defect of the container itself (brackets, tags, numbers, result), if any.
    #: When set, ``moves`` holds what was read before it.
    error: Defect | None = field(default=None, compare=False)
    #: The record's text exactly as written (line ends included), when the reader was
    #: asked to keep it: from its first character to the end of its last non-blank
    #: line, or to where the next record starts on the same line.
    raw: str | None = field(default=None, compare=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (tag names are case-sensitive)."""
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return default

    def find_tag(self, name: str) -> Tag | None:
        """The first :class:`Tag` called ``name`` (with its line and column), or ``None``."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def set_tag(self, name: str, value: str) -> None:
        """Change a tag in place, or add it at the end."""
        existing = self.find_tag(name)
        if existing is None:
            self.tags.append(Tag(name, value))
        else:
            existing.value = value

    @property
    def tag_dict(self) -> dict[str, str]:
        """Tags as a dict (the first of repeated names wins)."""
        tags = self.tags
        out = {tag.name: tag.value for tag in tags}
        if len(out) < len(tags):  # a name repeated: its first value, not its last
            out = {}
            for tag in tags:
                out.setdefault(tag.name, tag.value)
        return out

    def mainline(self) -> Iterator[MoveNode]:
        """The main line's moves in order, variations left out."""
        return iter(self.moves)

    # -- building and replaying (game-aware: the play layer's _PlayOperations) --
    @classmethod
    def from_moves(
        cls,
        game: Game[M] | str,
        moves: Iterable[M | str] = (),
        tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        result: str | None = None,
    ) -> Record:
        """A record of ``moves`` played in ``game`` (a :class:`Game` or its name).

        ``moves`` are typed moves or their texts (a suffix is kept: ``"h5-h3!"``), played
        in turn from the start, or from the position of a ``Position`` tag.  Each is
        checked and written in its canonical text, ``str(position.canonical(move))``.
        The tags are ``Game`` (the game's name), then ``tags`` in their order (players'
        names, ``Players``, ``Position``...), then ``Result``.  ``result`` defaults to
        the result the rules reached, else ``*``.

        Raises ``IllegalMoveError`` or ``MoveSyntaxError`` naming the turn of a move
        that cannot be played (``turn 3 (c3-c1): ...``), ``UnknownGameError``,
        ``TagValueError`` for a tag the game cannot accept, and ``MisuseError`` for a
        result that is not one, or contradicts the rules or the ``Result`` tag given.
        """
        return play_operations().record_from_moves(game, moves, tags, result)

    def game(self, default: str | None = None) -> Game[Any]:
        """The game of the record's ``Game`` tag (``default``, a game's name, if it has
        none); ``UnknownGameError`` for a name no game has, or no name at all."""
        return play_operations().record_game(self, default)

    def start_position(self, default_game: str | None = None) -> Position[Any]:
        """The position the record starts from: its ``Position`` tag's, else the game's
        start (with the record's setup tags).  ``TagValueError`` for a tag value the game
        cannot accept; ``UnknownGameError`` as for :meth:`game`."""
        return play_operations().start_position(self.game(default_game), self.tag_dict)

    def end_position(self, default_game: str | None = None) -> Position[Any]:
        """The position after the main line's last move (variations are not played:
        :func:`notation.check_record` judges the whole record).

        ``MoveSyntaxError`` or ``IllegalMoveError`` for a main-line move that cannot be
        played, with the message a check gives (file, line, column, turn and move),
        besides the errors of :meth:`start_position`.
        """
        position = self.start_position(default_game)
        play_operations().replay_line(self, self.game(default_game), position, self.moves)
        return position

    def add_variation(self, at: int | MoveNode, moves: Iterable[object]) -> Variation:
        """Add an alternative line to a move and return it: the move of the main line at
        turn ``at`` (turns count from the game's start, as in a verdict), or the node
        ``at`` anywhere in the tree.

        Unlike :meth:`MoveNode.add_variation`, the moves (texts or typed moves) are
        played from the position before that move: each is checked and written in
        canonical text, and ``IllegalMoveError`` or ``MoveSyntaxError`` names the turn
        of one that cannot be played.  ``MisuseError`` for a turn with no move of the
        main line, a node not in this record, or no moves.
        """
        return play_operations().add_checked_variation(self, at, moves)

    def __repr__(self) -> str:
        where = "Record"
        if self.index:
            where += f" {self.index}"
        if self.source is not None:
            where += f" of {_short(self.source, 40)}"
        game = self.tag("Game")
        parts = [_short(game) if game is not None else "no game"]
        players = self._player_names()
        if players:
            parts.append(players)
        parts.append(self.result if self.result is not None else "no result")
        parts.append(_count(len(self.moves), "turn"))
        if self.error is not None:
            parts.append(f"{self.error.kind} error at {self.error.line}:{self.error.column}")
        return f"<{where}: {', '.join(parts)}>"

    def _player_names(self) -> str:
        """The players' names, ``"Mina - Igor"``, from the tags the game names them in."""
        try:
            tags = self.game().player_tags
        except NotationException:  # no game, or an unknown one: no player tags known
            return ""
        names = [_short(name) for name in (self.tag(tag) for tag in tags) if name is not None]
        return " - ".join(names)


class _PlayOperations(Protocol):
    """The play layer, :mod:`notation.replay`: the functions that :class:`Record`'s
    game-aware methods call."""

    def record_from_moves(
        self,
        game: Game[M] | str,
        moves: Iterable[M | str],
        tags: Mapping[str, str] | Iterable[tuple[str, str]],
        result: str | None,
    ) -> Record: ...

    def record_game(self, record: Record, default: str | None) -> Game[Any]: ...

    def start_position(self, game: Game[Any], tags: Mapping[str, str]) -> Position[Any]: ...

    def replay_line(
        self, record: Record, game: Game[Any], position: Position[Any], nodes: Iterable[MoveNode]
    ) -> None: ...

    def add_checked_variation(
        self, record: Record, at: int | MoveNode, moves: Iterable[object]
    ) -> Variation: ...


#: A slot (see :func:`notation.plug_in`), filled by :mod:`notation.replay`.
play_layer: _PlayOperations | None = None


def play_operations() -> _PlayOperations:
    """The play layer, imported first if it has not been yet."""
    if play_layer is None:
        plug_in("play")
    return cast("_PlayOperations", play_layer)
