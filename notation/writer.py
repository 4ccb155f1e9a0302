"""Writing a record tree back as text, in the canonical form the reader reads.

Canonical form: tags one per line, a blank line, then movetext wrapped at 79
columns; a move number ``N.`` before the first turn of each round and ``N...``
where a line resumes inside a round (after a comment, a variation, or at the
start of a variation); moves as the record holds them, with their suffixes,
glyphs, comments and variations, in order.  Move *text* is written as stored by
:func:`write_record`; under a :class:`~notation.replay.Replay`, :class:`MovetextWriter`
writes each move the replay played in the game's canonical spelling.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import Any

from notation.errors import (
    NotationException,
    TagValueError,
    misuse_unless,
    require_number,
    require_sequence,
)
from notation.games.base import Game
from notation.record import Comment, MoveNode, Record, Tag
from notation.visitor import TreeBuildingVisitor, walk_record

__all__ = [
    "MainLineWriter",
    "MovetextWriter",
    "UnwritableRecord",
    "comment_tokens",
    "layout",
    "movetext",
    "record_separator",
    "record_text",
    "tag_lines",
    "unwritable",
    "write_record",
    "write_records",
]

WIDTH = 79


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def comment_tokens(comments: Iterable[Comment], out: list[str]) -> None:
    """The tokens of ``comments``, added to ``out``: ``{...}``, or ``; ...`` and a line
    break (a ``;`` comment runs to the end of its line)."""
    for comment in comments:
        text = comment.text
        if comment.braced and "}" not in text:
            out.append("{" + text + "}" if text else "{}")
        else:
            # A "; ..." comment runs to the end of its line, so it forces a line break.
            for part in text.split("\n"):
                out.append("; " + part if part else ";")
                out.append("\n")


class _Line:
    """A line being written: its tokens so far, the turn of its next move, and its last
    move, whose tokens wait until the line moves on (a glyph may still follow it, after
    its variations), with the tokens of those variations."""

    __slots__ = ("label", "notes", "out", "pending", "resumes", "suffix", "text", "turn",
                 "variations")

    def __init__(self, turn: int, out: list[str]) -> None:
        self.out = out
        self.turn = turn
        self.resumes = True  # the next move starts or resumes the line: N... before it
        self.pending: MoveNode | None = None
        self.text = ""  # the pending move's spelling, its label, and what it gets more
        self.label = ""
        self.suffix = ""
        self.notes: list[Comment] = []
        self.variations: list[list[str]] = []  # the tokens of its variations


class MovetextWriter(TreeBuildingVisitor[list[str]]):
    """The tokens of a record's movetext, from its events (see :mod:`notation.visitor`):
    driven by :func:`~notation.visitor.walk_record` from a tree, or by a replay from
    text, where each move is written in its canonical spelling.  :meth:`end_record`
    gives the tokens, result and comments after it included; :func:`movetext` wraps
    them.

    ``round_size`` and ``first_turn`` number the moves (a replay tells them, from the
    start position); ``spell`` spells a move no replay played (by default: as
    written).  A subclass may add comments after a move's own (``line.notes`` of the
    line being written) and choose which comments are written (:meth:`kept`).

    >>> from notation.reader import read_string
    >>> from notation.visitor import walk_record
    >>> record = read_string('[Game "cave"]\\n\\n1. b1 {first} b5 $1 2. b1-c1 *\\n')[0]
    >>> walk_record(record, MovetextWriter())
    ['1. b1', '{first}', '1... b5', '$1', '2. b1-c1', '*']
    """

    def __init__(
        self,
        round_size: int = 2,
        first_turn: int = 1,
        spell: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__()
        self.round_size = round_size
        self.first_turn = first_turn
        self.spell = spell
        self.begin_record(Record())

    def begin_record(self, record: Record) -> None:
        super().begin_record(record)
        self.tokens: list[str] = []
        self.lines = [_Line(self.first_turn, self.tokens)]

    def kept(self, comments: list[Comment]) -> list[Comment]:
        """The comments of ``comments`` to write (all of them)."""
        return comments

    def visit_start(self, position: Any) -> None:
        self.round_size = position.round_size
        self.lines[0].turn = position.turn + 1

    def _label(self, turn: int, resumes: bool) -> str:
        index, size = turn - 1, self.round_size
        if not index % size:
            return f"{index // size + 1}."
        return f"{index // size + 1}..." if resumes else ""

    def node_made(self, node: MoveNode) -> None:
        """Start writing ``node``, the move just told (its tokens wait until its line
        moves on: what follows it may still be its own)."""
        line = self.lines[-1]
        if line.pending is not None:
            self._flush(line)
        before = self.kept(node.comments_before) if node.has_comments_before else _NO_COMMENTS
        line.label = self._label(line.turn, line.resumes or bool(before))
        line.turn += 1
        line.resumes = False
        if before:
            comment_tokens([c for c in before if not c.after_number], line.out)
        line.pending = node
        line.text = node.text if self.spell is None else self.spell(node.text)

    def after_move(self, move: Any, position: Any) -> None:
        line = self.lines[-1]
        if line.pending is not None:
            line.text = str(position.last_move_canonical())

    def _flush(self, line: _Line) -> None:
        """The tokens of ``line``'s pending move, now that the line moves on."""
        node = line.pending
        assert node is not None
        line.pending = None
        tokens = line.out
        label = line.label
        move = line.text + (node.suffix or line.suffix)
        line.suffix = ""
        after_number = (
            [c for c in self.kept(node.comments_before) if c.after_number]
            if node.has_comments_before
            else _NO_COMMENTS
        )
        if label and after_number:
            # The number is glued to the comment after it, never left alone.
            glued: list[str] = []
            comment_tokens(after_number, glued)
            glued[0] = f"{label} {glued[0]}"
            tokens.extend(glued)
            tokens.append(move)
        elif label:
            # One token: a line break never leaves a number alone at a line's end.
            tokens.append(f"{label} {move}")
        else:
            tokens.append(move)
        if not node.is_bare:
            if node.nags:
                tokens.extend(f"${nag}" for nag in node.nags)
            if node.has_comments_after:
                after = self.kept(node.comments_after)
                if after:
                    comment_tokens(after, tokens)
                    line.resumes = True
        if line.notes:
            comment_tokens(line.notes, tokens)
            line.notes = []
            line.resumes = True
        if line.variations:
            for variation in line.variations:
                tokens.extend(variation)
            line.variations = []

    def begin_variation(self, line: int, column: int) -> None:
        super().begin_variation(line, column)
        variation = self.building[-1].variation
        assert variation is not None
        parent = self.lines[-1]
        parent.resumes = True  # the line resumes after the variation
        out: list[str] = []
        comment_tokens(self.kept(variation.comments_before), out)
        out.append("(")
        parent.variations.append(out)
        self.lines.append(_Line(parent.turn - 1, out))

    def end_variation(self) -> None:
        variation = self.building[-1].variation
        super().end_variation()
        assert variation is not None
        line = self.lines.pop()
        if line.pending is not None:
            self._flush(line)
        comment_tokens(self.kept(variation.comments), line.out)
        line.out.append(")")

    def end_record(self, record: Record) -> list[str]:
        built = self.finish(record)
        line = self.lines[0]
        if line.pending is not None:
            self._flush(line)
        tokens = self.tokens
        comment_tokens(self.kept(built.comments), tokens)
        tokens.append(record.result or "*")
        comment_tokens(self.kept(built.comments_after_result), tokens)
        return tokens


class MainLineWriter(MovetextWriter):
    """:class:`MovetextWriter` of the main line's moves alone: no suffix, glyph, comment
    or variation (the ``plain`` form, for simple tools)."""

    def node_made(self, node: MoveNode) -> None:
        if len(self.lines) > 1:
            return
        line = self.lines[0]
        if line.pending is not None:
            self._flush(line)
        line.label = self._label(line.turn, line.resumes)
        line.turn += 1
        line.resumes = False
        line.pending = node
        line.text = node.text if self.spell is None else self.spell(node.text)

    def after_move(self, move: Any, position: Any) -> None:
        if len(self.lines) == 1:
            super().after_move(move, position)

    def _flush(self, line: _Line) -> None:
        line.pending = None
        label = line.label
        line.out.append(f"{label} {line.text}" if label else line.text)

    def begin_variation(self, line: int, column: int) -> None:
        TreeBuildingVisitor.begin_variation(self, line, column)
        self.lines.append(_Line(0, []))

    def end_variation(self) -> None:
        TreeBuildingVisitor.end_variation(self)
        self.lines.pop()

    def end_record(self, record: Record) -> list[str]:
        self.finish(record)
        line = self.lines[0]
        if line.pending is not None:
            self._flush(line)
        self.tokens.append(record.result or "*")
        return self.tokens


_NO_COMMENTS: list[Comment] = []
#: Tokens that movetext() glues or breaks lines at (and an empty one, which it treats
#: as no token at all): without them a movetext's units are its tokens.
_UNITS = frozenset({"(", ")", "\n", ""})


def movetext(tokens: list[str], width: int = 79) -> str:
    """The movetext of ``tokens`` (:class:`MovetextWriter`'s), wrapped at ``width``: a
    ``(`` glued to the token after it and a ``)`` to the one before, a ``"\\n"`` token a
    forced line break (after a ``;`` comment)."""
    if _UNITS.isdisjoint(tokens):
        return _wrap(tokens, width)
    units: list[str] = []
    opening = ""
    for token in tokens:
        if token == "(":
            opening += "("
        elif token == ")" and units and units[-1] != "\n" and not opening:
            units[-1] += ")"
        else:
            units.append(opening + token if token != "\n" else token)
            if token != "\n":
                opening = ""
    if opening:
        units.append(opening)
    lines: list[str] = []
    current = ""
    for token in units:
        if token == "\n":
            lines.append(current)
            current = ""
            continue
        if not current:
            current = token
        elif len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current += " " + token
    if current:
        lines.append(current)
    return "\n".join(lines)


def _wrap(tokens: list[str], width: int) -> str:
    """:func:`movetext` of tokens that are their own units (none in _UNITS): each line
    filled with as many tokens as fit in ``width``, a token wider than that on a line of
    its own."""
    lines: list[str] = []
    line: list[str] = []
    length = -1  # of the line's tokens, one space apart, less the space before the first
    for token in tokens:
        size = len(token)
        if line and length + 1 + size > width:
            lines.append(" ".join(line))
            line = [token]
            length = size
        else:
            line.append(token)
            length += 1 + size
    if line:
        lines.append(" ".join(line))
    return "\n".join(lines)


class UnwritableRecord(NotationException, ValueError):
    """A record that record text cannot hold as it is (built in code, or read from JSON):
    written, it would read back as another record.  The message says what and where."""


_TAG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:.-]*\Z")
#: What a move's text may not be: it must read back as one move token.
_NOT_A_MOVE = re.compile(
    r"""\A(?:
        .*[\s(){};]          # white space and brackets separate tokens
       |[\[%]              # "[" may start a record, "%" an escape line
       |\$                  # a glyph
       |\d+\.              # a move number
       |(?:1-0|0-1|1/2-1/2|\*)\Z
       |(?:1/2|0\.5|1|0|1-|0-|1/2-)\Z  # read as a result written wrongly
       |.*[!?]\Z            # a suffix would be split off
    )""",
    re.VERBOSE | re.DOTALL,
)
_SUFFIXES = frozenset({"", "!", "?", "!!", "??", "!?", "?!"})
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})


#: Move texts already found writable: records repeat a few hundred tokens, and the
#: writer checks every record it writes.  Bounded against hostile input.
_GOOD_MOVES: set[str] = set()
_GOOD_MOVES_LIMIT = 100_000


def unwritable(record: Record, tags: list[Tag] | None = None) -> str | None:
    """Why record text cannot hold ``record`` as it is (with ``tags`` in place of its
    own, if given), or None when it can.

    Records the reader made always can; records built in code or read from JSON may
    hold what text cannot (a newline in a tag value, a space in a move).
    """
    return _unwritable(record, record.tags if tags is None else tags)


def _unwritable(record: Record, tags: list[Tag]) -> str | None:
    """:func:`unwritable` of ``record`` with ``tags`` in place of its own."""
    for tag in tags:
        if not _TAG_NAME.match(tag.name):
            return f"the tag name {tag.name!r} is not a name a tag line can hold"
        if "\n" in tag.value or "\r" in tag.value:
            return f"the value of the tag {tag.name} holds a line break"
    if record.result is not None and record.result not in _RESULTS:
        return f"{record.result!r} is not a result (1-0, 0-1, 1/2-1/2 or *)"
    good = _GOOD_MOVES
    # One walk of the tree: a move's problem comes first, wherever it is; then the
    # record's comments, then the moves' comments in the order of the walk.
    comment_problem: str | None = None
    stack = [record.moves]
    while stack:
        for node in stack.pop():
            text = node.text
            if text not in good:
                if not text or _NOT_A_MOVE.match(text):
                    return f"the move {text!r} cannot be written as one move token"
                if len(good) >= _GOOD_MOVES_LIMIT:
                    good.clear()
                good.add(text)
            if node.suffix not in _SUFFIXES:
                return f"the suffix {node.suffix!r} of {node.text} is not one of ! ? !! ?? !? ?!"
            if node.is_bare:
                continue
            nags = node.nags
            if nags and any(type(nag) is not int or nag < 0 for nag in nags):
                return f"the glyphs of {node.text} must be whole numbers >= 0"
            variations = node.variations
            if variations and any(not variation.nodes for variation in variations):
                return f"a variation of {node.text} has no move"
            before, after = node.comments_before, node.comments_after
            if comment_problem is None and (before or after or variations):
                if after and not before and len(after) == 1:  # an annotated move's
                    comment_problem = _unwritable_comment(after[0])
                else:
                    comment_problem = _unwritable_comments(before, after)
                for variation in variations:
                    if comment_problem is not None:
                        break
                    comment_problem = _unwritable_comments(
                        variation.comments_before, variation.comments
                    )
            if variations:
                stack.extend(v.nodes for v in variations)
    return (
        _unwritable_comments(record.comments, record.comments_after_result)
        or comment_problem
    )


def _unwritable_comments(*lists: list[Comment]) -> str | None:
    """Why text cannot hold the first comment of ``lists`` that it cannot hold, if any."""
    for comments in lists:
        for comment in comments:
            problem = _unwritable_comment(comment)
            if problem is not None:
                return problem
    return None


def _unwritable_comment(comment: Comment) -> str | None:
    text = comment.text
    if (
        comment.braced
        and "\n" not in text
        and "\r" not in text
        and "}" not in text
        and text == text.strip()
    ):
        return None  # one line, as nearly every comment is: nothing below applies
    if "\r" in text:
        return f"the comment {_cut(text)!r} holds a carriage return (a line end)"
    if comment.braced:
        if "}" in text:
            return f"the comment {_cut(text)!r} holds a '}}', which would close it"
        lines = text.split("\n")
        # The reader trims a comment, and the right of each of its lines.
        if text != text.strip() or any(line != line.rstrip() for line in lines):
            return f"the comment {_cut(text)!r} starts or ends with white space"
        if any(line[:1] == "%" for line in lines[1:]):
            return f"a line of the comment {_cut(text)!r} starts with '%' (an escape line)"
        if any(not a.strip() and b[:1] == "[" for a, b in itertools.pairwise(lines)):
            return f"the comment {_cut(text)!r} has a '[' line after a blank one (a new record)"
        return None
    if "\n" in text or text != text.strip():
        return f"the ';' comment {_cut(text)!r} holds a line break or starts or ends with a space"
    return None


def _cut(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def layout(record: Record, default_game: str | None = None) -> tuple[int, int]:
    """(round size, turn of the first move) for numbering the record's moves.

    Taken from the record's game and its own tags (``Players``, ``Position``); raises
    :class:`UnwritableRecord` when they cannot say (an unknown game with such tags, a
    tag value the game refuses).
    """
    # Imported here: the replay layer sits beside the writer, and most writes pass
    # their layout in.
    from notation.replay import resolve_game, start_position

    game = resolve_game(record, default_game)
    if isinstance(game, Game):
        try:
            position = start_position(game, record.tag_dict)
        except TagValueError as exc:
            raise UnwritableRecord(
                f"cannot number the moves: {exc} (tag {exc.tag})"
            ) from None
        return position.round_size, position.turn + 1
    if record.find_tag("Players") is not None or record.find_tag("Position") is not None:
        raise UnwritableRecord(
            "cannot number the moves: the record's game is unknown, and its Players or "
            "Position tag means nothing without it"
        )
    return 2, 1


def write_record(
    record: Record,
    round_size: int | None = None,
    width: int = WIDTH,
    first_turn: int | None = None,
    *,
    default_game: str | None = None,
) -> str:
    """The record as canonical text (ending with a newline).

    Move numbers follow the record's own layout (its game, ``Players`` and ``Position``
    tags) unless ``round_size`` is given (``first_turn`` is then 1 unless given too).

    Raises :class:`UnwritableRecord` for a record that text cannot hold as it is
    (which the reader never makes).

    A record read as it was typed comes back in canonical text: one space between
    tokens, numbers before the first player's moves, and comments kept:

    >>> import notation
    >>> record = notation.read_string('[Game "cave"]\\n\\n1.b1   b5 {a quiet start}2.b1-c1 *\\n')[0]
    >>> print(write_record(record), end="")
    [Game "cave"]
    <BLANKLINE>
    1. b1 b5 {a quiet start} 2. b1-c1 *

    ``width`` wraps the moves' lines; ``round_size`` numbers them as if each round held
    that many turns:

    >>> print(write_record(record, width=12), end="")
    [Game "cave"]
    <BLANKLINE>
    1. b1 b5
    {a quiet start}
    2. b1-c1 *
    >>> print(write_record(record, round_size=1), end="")
    [Game "cave"]
    <BLANKLINE>
    1. b1 2. b5 {a quiet start} 3. b1-c1 *
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    require_number(width, "width")
    for what, number in (("round_size", round_size), ("first_turn", first_turn)):
        if number is not None:
            require_number(number, what)
    if round_size is None:
        problem = unwritable(record)
        if problem is not None:
            raise UnwritableRecord(problem)
        round_size, first = layout(record, default_game)
        first_turn = first if first_turn is None else first_turn
        return _write(record, record.tags, round_size, first_turn, width)
    if first_turn is None:
        first_turn = 1
    return write_with_tags(record, record.tags, round_size, first_turn, width)


def write_with_tags(
    record: Record,
    tags: list[Tag],
    round_size: int,
    first_turn: int,
    width: int = WIDTH,
) -> str:
    """:func:`write_record` of ``record`` with ``tags`` in place of its own, the record
    itself unchanged.  Raises :class:`UnwritableRecord` as write_record does, for that
    record."""
    problem = _unwritable(record, tags)
    if problem is not None:
        raise UnwritableRecord(problem)
    return _write(record, tags, round_size, first_turn, width)


def _write(record: Record, tags: list[Tag], round_size: int, first_turn: int, width: int) -> str:
    """The text of a record found writable."""
    tokens = walk_record(record, MovetextWriter(round_size, first_turn))
    return record_text(tag_lines([(tag.name, tag.value) for tag in tags]), movetext(tokens, width))


def record_text(lines: list[str], moves: str) -> str:
    """A record's text: its tag ``lines``, a blank line, its movetext ``moves``."""
    if lines:
        return "\n".join(lines) + "\n\n" + moves + "\n"
    return moves + "\n"


def tag_lines(tags: Iterable[tuple[str, str]]) -> list[str]:
    """The tag lines of (name, value) pairs, as the writer writes them."""
    parts = []
    for name, value in tags:
        if "\\" in value or '"' in value:  # _escape only where it changes something
            value = _escape(value)
        parts.append(f'[{name} "{value}"]')
    return parts


def write_records(
    records: Iterable[Record | tuple[Record, int]], width: int = WIDTH
) -> Iterable[str]:
    """Records as text, separated by blank lines.

    Each is numbered by its own layout (its tags say it); a pair (record, round size),
    as :func:`notation.collections.generate.generate_records` yields them, stands for its record.

    >>> from notation.record import Record
    >>> games = [Record.from_moves("cave", ["b1"]), Record.from_moves("cave", ["a1"])]
    >>> print("".join(write_records(games)), end="")
    [Game "cave"]
    [Result "*"]
    <BLANKLINE>
    1. b1 *
    <BLANKLINE>
    [Game "cave"]
    [Result "*"]
    <BLANKLINE>
    1. a1 *
    """
    require_sequence(records, "records", "records")
    for i, item in enumerate(records):
        record = item[0] if isinstance(item, tuple) else item
        yield ("\n" if i else "") + write_record(record, width=width)


def record_separator(text: str) -> str:
    r"""What goes between the text of one record, ``text``, and the next record's: the
    end of its last line (if it has none: a record that ended a file without a final
    line end), then a blank line, both in the line end its lines end with last.

    A record passed on as written keeps its bytes so: after a lone ``\r`` a ``\n``
    would make a ``\r\n`` of it (and the blank line would be lost with it).
    """
    if text.endswith("\n"):  # nearly every record: no search
        return "\r\n" if text.endswith("\r\n") else "\n"
    if text.endswith("\r"):
        return "\r"
    cr, lf = text.rfind("\r"), text.rfind("\n")
    if cr > lf:
        end = "\r"
    elif lf >= 0 and cr == lf - 1:
        end = "\r\n"
    else:
        end = "\n"
    return end + end

