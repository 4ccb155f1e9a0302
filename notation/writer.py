"""Writing a record tree back as text, in the canonical form the reader reads.

Canonical form: tags one per line, a blank line, then movetext wrapped at 79
columns; a move number ``N.`` before the first turn of each round and ``N...``
where a line resumes inside a round (after a comment, a variation, or at the
start of a variation); moves as the record holds them, with their suffixes,
glyphs, comments and variations, in order.  Move *text* is written as stored:
to normalise the moves themselves, the caller rewrites ``MoveNode.text`` with
the game's canonical ``str(move)`` first (see :func:`canonicalise`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from contextlib import suppress
from typing import Any

from notation.errors import (
    MoveSyntaxError,
    NotationException,
    TagValueError,
    misuse_unless,
    require_number,
    require_sequence,
)
from notation.games.base import Game
from notation.record import Comment, MoveNode, Record, Tag, Variation
from notation.walk import TreeVisitor, iter_nodes, walk_tree

__all__ = [
    "UnwritableRecord",
    "canonicalise",
    "layout",
    "record_separator",
    "unwritable",
    "write_main_line",
    "write_record",
    "write_records",
]

WIDTH = 79


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_tokens(comments: Iterable[Comment], out: list[str]) -> None:
    for comment in comments:
        text = comment.text
        if comment.braced and "}" not in text:
            out.append("{" + text + "}" if text else "{}")
        else:
            # A "; ..." comment runs to the end of its line, so it forces a line break.
            for part in text.split("\n"):
                out.append("; " + part if part else ";")
                out.append("\n")


class _MovetextWriter(TreeVisitor):
    """Collects the movetext's tokens from a walk of the tree (see :mod:`notation.walk`)."""

    def __init__(self, round_size: int, texts: Mapping[int, str] | None = None) -> None:
        self.round_size = round_size
        self.texts = texts or {}
        self.tokens: list[str] = []

    def visit_move(self, node: MoveNode, turn: int, resumes: str | None) -> None:
        # Called for every move written (profiled): what most moves lack (comments,
        # glyphs) is tested before any call, and move_label() is inline.
        tokens = self.tokens
        after_number: list[Comment] = []
        if node.comments_before:
            _comment_tokens([c for c in node.comments_before if not c.after_number], tokens)
            after_number = [c for c in node.comments_before if c.after_number]
        index, size = turn - 1, self.round_size
        if not index % size:
            label = f"{index // size + 1}."
        elif resumes is not None:
            label = f"{index // size + 1}..."
        else:
            label = ""
        move = self.texts.get(id(node), node.text) + node.suffix
        if label and after_number:
            # The number is glued to the comment after it, never left alone.
            glued: list[str] = []
            _comment_tokens(after_number, glued)
            glued[0] = f"{label} {glued[0]}"
            tokens.extend(glued)
            tokens.append(move)
        elif label:
            # One token: a line break never leaves a number alone at a line's end.
            tokens.append(f"{label} {move}")
        else:
            tokens.append(move)
        if node.nags:
            tokens.extend(f"${nag}" for nag in node.nags)
        after = node.comments_after
        if after:
            # One braced comment (an annotated move's): _comment_tokens, inline.
            if len(after) == 1 and after[0].braced and "}" not in (text := after[0].text):
                tokens.append("{" + text + "}" if text else "{}")
            else:
                _comment_tokens(after, tokens)

    def begin_variation(self, variation: Variation, node: MoveNode, turn: int) -> None:
        _comment_tokens(variation.comments_before, self.tokens)
        self.tokens.append("(")

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        _comment_tokens(variation.comments, self.tokens)
        self.tokens.append(")")

    def _units(self) -> list[str]:
        """Tokens with brackets glued on: "(12..." and "g3)" wrap as one."""
        units: list[str] = []
        opening = ""
        for token in self.tokens:
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
        return units

    def text(self, width: int) -> str:
        lines: list[str] = []
        current = ""
        for token in self._units():
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


_NO_TEXTS: Mapping[int, str] = {}
#: Tokens that _MovetextWriter._units glues or breaks lines at (and an empty one,
#: which its text() treats as no token at all): without them a movetext's units are
#: its tokens, and _wrap lays them out.
_UNITS = frozenset({"(", ")", "\n", ""})


def _main_line_tokens(
    nodes: list[MoveNode], round_size: int, first_turn: int, texts: Mapping[int, str]
) -> list[str] | None:
    """The tokens _MovetextWriter makes of a line whose moves have no comment before
    them, no glyph and no variation, and at most one braced comment after them (a
    record as read from plain text, or as annotated): the same tokens, without the
    walk and its hooks (profiled: the writer was most of ``convert``).  None for any
    other line."""
    moves: list[str] = []
    notes: list[str | None] = []
    get = texts.get
    for node in nodes:
        # The slots, not the properties, which would make empty lists.
        if node._comments_before or node._nags or node._variations:
            return None
        moves.append(get(id(node), node.text) + node.suffix)
        after = node._comments_after
        if after:
            if len(after) > 1:
                return None
            comment = after[0]
            if not comment.braced or "}" in comment.text:
                return None
            notes.append(comment.text)
        else:
            notes.append(None)
    return _line_tokens(moves, notes, round_size, first_turn)


def _line_tokens(
    moves: list[str], notes: list[str | None] | None, round_size: int, first_turn: int
) -> list[str]:
    """The tokens of a line of ``moves`` (texts, the first at turn ``first_turn``),
    each followed by the braced comment of the same place in ``notes`` if any
    (``None``: none): numbered as _MovetextWriter numbers them."""
    tokens: list[str] = []
    append = tokens.append
    index = first_turn - 1
    resumes = True  # the line starts here
    for place, move in enumerate(moves):
        if not index % round_size:
            append(f"{index // round_size + 1}. {move}")
        elif resumes:
            append(f"{index // round_size + 1}... {move}")
        else:
            append(move)
        note = notes[place] if notes is not None else None
        if note is None:
            resumes = False
        else:
            append("{" + note + "}" if note else "{}")
            resumes = True  # after a comment
        index += 1
    return tokens


def _wrap(tokens: list[str], width: int) -> str:
    """_MovetextWriter.text for tokens that are their own units (none in _UNITS):
    each line filled with as many tokens as fit in ``width``, a token wider than that
    on a line of its own; the lines joined once rather than grown token by token."""
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
#: writer checks every record it writes (profiled).  Bounded against hostile input.
_GOOD_MOVES: set[str] = set()
_GOOD_MOVES_LIMIT = 100_000


def unwritable(record: Record) -> str | None:
    """Why record text cannot hold ``record`` as it is, or None when it can.

    Records the reader made always can; records built in code or read from JSON may
    hold what text cannot (a newline in a tag value, a space in a move).
    """
    return _unwritable(record, record.tags)


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
    # One walk of the tree (profiled: annotated records hold a comment per move).  A
    # move's problem comes first, wherever it is; then the record's comments, then
    # the moves' comments in the order of the walk, as all_comment_lists gives them.
    # The walk is iter_nodes' own, inline, in the same order; it reads the nodes'
    # slots rather than their properties, which would make four empty lists for
    # nearly every move (profiled: half of this function).
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
            nags = node._nags
            if nags and any(type(nag) is not int or nag < 0 for nag in nags):
                return f"the glyphs of {node.text} must be whole numbers >= 0"
            variations = node._variations
            if variations and any(not variation.nodes for variation in variations):
                return f"a variation of {node.text} has no move"
            before, after = node._comments_before, node._comments_after
            if comment_problem is None and (before or after or variations):
                if after and not before and len(after) == 1:  # an annotated move's
                    comment_problem = _unwritable_comment(after[0])
                else:
                    comment_problem = _unwritable_comments(before or _NONE, after or _NONE)
                for variation in variations or _NONE:
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


#: An empty list for a node's list not made yet (read only, never changed).
_NONE: list[Any] = []


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
    texts: Mapping[int, str] | None = None,
    default_game: str | None = None,
) -> str:
    """The record as canonical text (ending with a newline).

    Move numbers follow the record's own layout (its game, ``Players`` and ``Position``
    tags) unless ``round_size`` is given (``first_turn`` is then 1 unless given too).
    ``texts`` maps ``id(node)`` to the spelling to write for that move instead of its text (the
    converter's canonical spellings), so that the record itself is not changed.

    Raises :class:`UnwritableRecord` for a record that text cannot hold as it is
    (which the reader never makes).
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
        return _write(record, record.tags, round_size, first_turn, texts, width)
    if first_turn is None:
        first_turn = 1
    return write_with_tags(record, record.tags, round_size, first_turn, texts, width)


def write_with_tags(
    record: Record,
    tags: list[Tag],
    round_size: int,
    first_turn: int,
    texts: Mapping[int, str] | None = None,
    width: int = WIDTH,
) -> str:
    """:func:`write_record` of ``record`` with ``tags`` in place of its own: what the
    converter writes (tags in canonical order) without a copy of the record made for it
    (profiled: ``dataclasses.replace`` per record).  Raises :class:`UnwritableRecord`
    as write_record does, for that record."""
    problem = _unwritable(record, tags)
    if problem is not None:
        raise UnwritableRecord(problem)
    return _write(record, tags, round_size, first_turn, texts, width)


def _write(
    record: Record,
    tags: list[Tag],
    round_size: int,
    first_turn: int,
    texts: Mapping[int, str] | None,
    width: int,
) -> str:
    """The text of a record found writable."""
    parts = _tag_lines([(tag.name, tag.value) for tag in tags])
    tokens = _main_line_tokens(record.moves, round_size, first_turn, texts or _NO_TEXTS)
    if tokens is None:  # comments before moves, glyphs, variations: the whole walk
        writer = _MovetextWriter(round_size, texts)
        walk_tree(record.moves, writer, first_turn)
        tokens = writer.tokens
    _comment_tokens(record.comments, tokens)
    tokens.append(record.result or "*")
    _comment_tokens(record.comments_after_result, tokens)
    if _UNITS.isdisjoint(tokens):
        movetext = _wrap(tokens, width)
    else:  # brackets to glue, forced line breaks
        writer = _MovetextWriter(round_size, texts)
        writer.tokens = tokens
        movetext = writer.text(width)
    return _record_text(parts, movetext)


def _record_text(tag_lines: list[str], movetext: str) -> str:
    if tag_lines:
        return "\n".join(tag_lines) + "\n\n" + movetext + "\n"
    return movetext + "\n"


def _tag_lines(tags: Iterable[tuple[str, str]]) -> list[str]:
    parts = []
    for name, value in tags:
        if "\\" in value or '"' in value:  # _escape only where it changes something
            value = _escape(value)
        parts.append(f'[{name} "{value}"]')
    return parts


def write_main_line(
    tag_lines: list[str],
    moves: list[str],
    notes: list[str | None] | None,
    result: str,
    round_size: int,
    first_turn: int,
    width: int = WIDTH,
) -> str:
    """What :func:`write_with_tags` writes of a record with these ``tag_lines`` (each
    ``[Name "value"]`` as it writes them) whose only line holds ``moves`` (texts, the
    first at turn ``first_turn``), each followed by the braced comment of the same
    place in ``notes`` if any (``None``: none), and no other comment: the streaming
    convert and annotate (:mod:`notation.streamconvert`) write records so without a
    tree.  The caller makes sure that text can hold it all (tag lines as the reader
    reads them, moves as they read back, notes of one line without ``}``)."""
    tokens = _line_tokens(moves, notes, round_size, first_turn)
    tokens.append(result)
    return _record_text(tag_lines, _wrap(tokens, width))


def write_records(
    records: Iterable[Record | tuple[Record, int]], width: int = WIDTH
) -> Iterable[str]:
    """Records as text, separated by blank lines.

    Each is numbered by its own layout (its tags say it); a pair (record, round size),
    as :func:`notation.generate.generate_records` yields them, stands for its record.
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


def canonicalise(record: Record, game: Game[Any]) -> None:
    """Rewrite every move's text in the game's canonical notation, in place.

    Moves the game cannot read are left as they are.
    """
    for node in iter_nodes(record.moves):
        # A move the game cannot read keeps its text: no data is lost.
        with suppress(MoveSyntaxError):
            node.text = str(game.parse(node.text))
