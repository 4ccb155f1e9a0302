"""The record tree: what the reader makes of one record, and what writers write.

A record keeps everything a file said, in order: its tags (unknown ones too),
every move as written (with its line and column), suffixes, glyphs, comments
and variations.  Moves are kept as *text*; turning them into typed moves is the
game's job (see :mod:`notation.replay`), so a record can be read, kept and
written again without knowing its game's rules.

The shape follows PGN's: a line is a list of :class:`MoveNode`; each node may
carry variations, which are alternative lines to *that* move (they start from the
position before it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from notation.errors import NotationError


@dataclass(slots=True)
class Comment:
    """A comment as written: ``{...}`` (``braced``) or ``; ...`` to the end of a line."""

    text: str
    line: int = 0
    column: int = 0
    braced: bool = True
    #: In a move's ``comments_before``: written after the move's number (``2. {c} b1``)
    #: rather than before it (``{c} 2. b1``).
    after_number: bool = False


@dataclass(slots=True)
class MoveNumber:
    """A move number written before a move: ``12.`` (dots=1) or ``12...`` (dots=3)."""

    number: int
    dots: int
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return f"{self.number}{'.' * self.dots}"


@dataclass(slots=True)
class Variation:
    """An alternative line, written ``( ... )`` after the move it replaces."""

    nodes: list[MoveNode] = field(default_factory=list)
    line: int = 0
    column: int = 0
    #: Comments after the last move of the variation (or all of them, if it has none).
    comments: list[Comment] = field(default_factory=list)
    #: Comments between the previous variation of the same move and this one.
    comments_before: list[Comment] = field(default_factory=list)


@dataclass(slots=True)
class MoveNode:
    """One turn as written in a record."""

    text: str
    line: int = 0
    column: int = 0
    suffix: str = ""
    nags: list[int] = field(default_factory=list)
    number: MoveNumber | None = None
    comments_before: list[Comment] = field(default_factory=list)
    comments_after: list[Comment] = field(default_factory=list)
    variations: list[Variation] = field(default_factory=list)

    @property
    def written(self) -> str:
        """The move as it stood in the file, suffix included."""
        return self.text + self.suffix


@dataclass(slots=True)
class Tag:
    name: str
    value: str
    line: int = 0
    column: int = 0


@dataclass(slots=True)
class Record:
    """One game record."""

    tags: list[Tag] = field(default_factory=list)
    moves: list[MoveNode] = field(default_factory=list)
    #: Comments after the main line's last move (or all of them, if there is no move).
    comments: list[Comment] = field(default_factory=list)
    result: str | None = None
    #: Comments after the result token (``* {c}``): still this record's.
    comments_after_result: list[Comment] = field(default_factory=list)
    result_line: int = 0
    result_column: int = 0
    #: 1-based position of the record in its source, and the source's name.
    index: int = 0
    source: str | None = None
    #: First and last non-blank line of the record in its source.
    first_line: int = 0
    last_line: int = 0
    #: The first defect of the container itself (brackets, tags, numbers, result), if any.
    #: When set, ``moves`` holds what was read before it.
    error: NotationError | None = None
    #: The record's text exactly as written (line ends included), when the reader was
    #: asked to keep it: from its first character to the end of its last non-blank
    #: line, or to where the next record starts on the same line.
    raw: str | None = None

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
        out: dict[str, str] = {}
        for tag in self.tags:
            out.setdefault(tag.name, tag.value)
        return out

    def mainline(self) -> Iterator[MoveNode]:
        """The main line's moves in order, variations left out."""
        return iter(self.moves)
