"""Where a record begins and ends in the text: its tag lines and its result token.

A record's header is its tag lines, ``[Name "value"]`` (:data:`TAG_LINE`); a line
starting with ``[`` after a blank line, or a well-formed tag line after movetext,
begins the next record (:func:`begins_record`, the reader's rule).  Whoever cuts a
text where records begin (``check --jobs``, the index, the language server's
document) asks :class:`SureStarts`, a line at a time, or :func:`record_starts`:

>>> lines = ['[Game "cave"]\\n', '\\n', '1. b1 *\\n', '\\n', '[Game "cave"]\\n']
>>> list(record_starts(lines))
[4]

A record ends at its result token, one of :data:`RESULTS`.  A result written the
usual wrong ways reads as a move the game cannot make sense of; :func:`result_slip`
says so instead, and :func:`no_result_message` says what is missing when there is
none (with :func:`added_result_fixes`, its fix):

>>> result_slip("1/2", "1. b1 1/2", 1, 7)[0]
'1/2 is not a result; a draw is written 1/2-1/2'

:mod:`notation.reader` reads with these.  Nothing here keeps a state but a bounded
cache of the tag lines read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from notation.errors import Fix
from notation.record import Comment

__all__ = [
    "ADD_ANY_RESULT",
    "RESULTS",
    "TAG_ESCAPE",
    "TAG_LINE",
    "SureStarts",
    "added_result_fixes",
    "begins_record",
    "known_tag_pair",
    "new_tag_pair",
    "no_result_message",
    "record_starts",
    "result_slip",
]

#: The result tokens, one of which ends a record.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


# -- tag lines -----------------------------------------------------------------------------

# The value is [^"\\]*(?:\\.[^"\\]*)*, not (?:[^"\\]|\\.)*: the same strings, matched
# without an alternation per character.
#: A tag line, ``[Name "value"]``, with spaces and escapes in its value (``\"``,
#: ``\\``: :data:`TAG_ESCAPE`).
TAG_LINE = re.compile(
    r'\s*\[\s*([A-Za-z0-9_][A-Za-z0-9_+#=:.-]*)\s+"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]\s*$'
)
#: [Name "value"] alone, no space nor escape: most tag lines.
_PLAIN_TAG = re.compile(r'\[([A-Za-z0-9_][A-Za-z0-9_+#=:.-]*) "([^"\\]*)"\]')
#: An escape in a tag's value (``\"``, ``\\``): ``TAG_ESCAPE.sub(r"\1", value)`` reads it.
TAG_ESCAPE = re.compile(r"\\(.)")

#: The (name, value) of the plain tag lines read, by the line: the records of a file
#: repeat most of theirs (event, players, setup).  Bounded against hostile input.
_TAG_PAIRS: dict[str, tuple[str, str]] = {}
_TAG_PAIRS_LIMIT = 4096


def new_tag_pair(raw: str) -> tuple[str, str] | None:
    """The (name, value) of ``raw`` if it is the usual tag line (:data:`_PLAIN_TAG`, its
    line end aside), kept in :data:`_TAG_PAIRS` under ``raw``; else None."""
    plain = _PLAIN_TAG.fullmatch(raw.rstrip("\r\n"))
    if plain is None:
        return None
    if len(_TAG_PAIRS) >= _TAG_PAIRS_LIMIT:
        _TAG_PAIRS.clear()
    pair = _TAG_PAIRS[raw] = (plain[1], plain[2])
    return pair


#: The (name, value) of a tag line read before (``raw``, its line end kept), or None: a
#: dict's own lookup, which the reader binds once and calls on every line of a header.
known_tag_pair: Callable[[str], tuple[str, str] | None] = _TAG_PAIRS.get


# -- where records begin -------------------------------------------------------------------


def record_starts(lines: Iterable[str]) -> Iterator[int]:
    """The indices of the lines at which a record surely begins, in ``lines`` taken from
    anywhere in a text: the reader begins a record there whatever it read before.

    ``notation check --jobs`` cuts big files at such lines (:mod:`notation.collections.batch`), so
    that each part reads as it does within the whole.  The rule is the reader's own
    (:func:`begins_record`), asked for every state the reader may be in: a line with a
    token and no ``{``, ``}`` or ``;``, not starting with ``[``, leaves it in the movetext
    or inside a comment, whatever came before, and in both a line starting with ``[``
    after blank lines begins a record.  Some starts are not found (after a comment, or
    a header), never one that is not.  Escape and blank lines are told as the reader
    tells them (:func:`~notation.reader.visit_records`).
    """
    starts = SureStarts()
    for index, raw in enumerate(lines):
        if starts.feed(raw):
            yield index


class SureStarts:
    """The one record-start detector: :func:`record_starts`, a line at a time, for every
    reader of the record text that cuts it where records begin (``check --jobs``, the
    index, the file of ``notation record``, the language server's document):
    ``feed(line)`` says whether the reader begins a record at ``line``, sure of it from
    the lines fed since this object was made.

    Made with ``from_start`` (the lines fed start the text, or with ``begun``, start a
    record), it follows what the reader knows (an open comment, a record begun) and
    finds every record that a line starting with ``[`` after a blank line begins,
    after a comment too; without it, only the starts that hold whatever came before.
    """

    __slots__ = ("begun", "blank", "from_start", "in_comment", "moves", "movetext")

    def __init__(self, from_start: bool = False, *, begun: bool = False) -> None:
        from notation.errors import misuse_unless

        misuse_unless(type(from_start) is bool, "from_start", "a bool", from_start)
        misuse_unless(type(begun) is bool, "begun", "a bool", begun)
        # A blank line came after the last line with a token (the reader begins as if
        # after one; this only matters to skip_bom, as moves is false until a token).
        self.blank = True
        self.moves = False  # the last line with a token held moves (see record_starts)
        self.from_start = from_start
        # With from_start, what the reader knows: a record begun (a tag, a move, a
        # result), inside an open comment, in the record's movetext.
        self.begun = begun
        self.in_comment = False
        self.movetext = False

    def feed(self, raw: str) -> bool:
        """Whether a record surely begins at the line ``raw`` (line end kept or not)."""
        if type(raw) is not str:
            from notation.errors import misuse

            misuse("a line", "a str", raw)
        if raw[:1] == "\ufeff":
            raw = self.skip_bom(raw)
        if raw[:1] == "%":
            return False  # an escape line: ignored, blank lines around it and all
        return self.feed_stripped(raw, raw.strip())

    def skip_bom(self, raw: str) -> str:
        """``raw`` without the byte-order mark it starts with, as :meth:`feed` reads it
        (call it first, for a line starting with one): the reader skips the mark before
        an escape line after blank lines, and where the line after it begins a record
        (as :func:`~notation.reader.visit_records` does).  Before any line starting with ``[`` it is
        skipped here: a line read as a tag line only makes fewer starts sure."""
        rest = raw[1:]
        if rest[:1] == "[" or (rest[:1] == "%" and self.blank):
            return rest
        return raw

    def feed_stripped(self, raw: str, stripped: str) -> bool:
        """:meth:`feed` for a line that is not an escape line, and ``raw.strip()``."""
        if not stripped:
            self.blank = True
            return False
        bracket = stripped[0] == "["
        begins = bracket and (
            (self.from_start and self._begins_known())
            or (
                self.moves
                and all(
                    begins_record(
                        raw.rstrip("\r\n"), self.blank, in_comment=in_comment,
                        after_moves=True, has_tags=False,
                    )
                    for in_comment in (False, True)
                )
            )
        )
        if self.from_start:
            self._follow(stripped, bracket, begins)
        self.moves = not bracket and _COMMENT_MARKS.search(stripped) is None
        self.blank = False
        return begins

    def _begins_known(self) -> bool:
        """Whether the reader, in the state followed, begins a record at a line starting
        with ``[`` after a blank line: in a record begun, or in an open comment.  (At a
        well-formed tag line right after movetext it does too: those starts are left to
        the other rule, which finds them after a line of moves.)"""
        return self.blank and (self.begun or self.in_comment)

    def _follow(self, stripped: str, bracket: bool, begins: bool) -> None:
        """What the reader knows after the line ``stripped`` (a record begun, an open
        comment, movetext), as it reads the line."""
        if begins:
            self.begun, self.in_comment, self.movetext = True, False, False
            return
        rest = stripped
        if self.in_comment:
            end = rest.find("}")
            if end < 0:
                return
            self.in_comment = False
            rest = rest[end + 1 :]
        elif bracket and not self.movetext:
            self.begun = True  # a tag line (or one that is not one): the record's header
            return
        while rest:
            mark = _COMMENT_MARKS.search(rest)
            if (rest if mark is None else rest[: mark.start()]).strip():
                self.begun = self.movetext = True  # a token: a move, a number, a result
            if mark is None or mark.group() == ";":
                return
            if mark.group() == "}":  # a "}" that no "{" opened: a token too
                self.begun = self.movetext = True
                rest = rest[mark.end() :]
                continue
            end = rest.find("}", mark.end())
            if end < 0:
                self.in_comment = True
                return
            rest = rest[end + 1 :]


_COMMENT_MARKS = re.compile(r"[{};]")


def begins_record(
    line: str, prev_blank: bool, *, in_comment: bool, after_moves: bool, has_tags: bool
) -> bool:
    """Where a record begins: whether ``line``, starting with ``[``, ends the current
    record and begins the next, after a blank line or not (``prev_blank``), inside an
    open comment, after the record's first move or its result (``after_moves``), or in
    its header (with tag lines read, well-formed or not, or none: a comment before the
    tags, which the tags after a blank line then join)."""
    if in_comment:
        return prev_blank  # inside a comment only the blank-line rule applies
    if after_moves:
        # After movetext a well-formed tag starts a new record even without the blank
        # line: the previous record has simply lost its result token.
        return prev_blank or TAG_LINE.match(line) is not None
    return prev_blank and has_tags


# -- the result token ----------------------------------------------------------------------

#: A result with spaces around its dash ("1 - 0"), as some tools write it.
_SPACED_RESULT = re.compile(r"(1/2|1|0)\s*-\s*(1/2|1|0)(?=[\s(){};]|$)")
_RESULT_AT_END = re.compile(r"(?:^|\s)(1-0|0-1|1/2-1/2|\*)\s*$")


#: How a missing result's message ends when the text tells no more: any result will do
#: (the replay names one when the game's rules or the Result tag do).
ADD_ANY_RESULT = "add * (or the result) after the last move"


def no_result_message(comments: list[Comment]) -> str:
    """What to say of a record without a result token, with a hint for the usual slip: a
    ``;`` comment (of ``comments``, those after the main line's last move) that
    swallowed the rest of the line, result included."""
    message = "the record has no result token (1-0, 0-1, 1/2-1/2 or *)"
    for comment in comments:
        match = _RESULT_AT_END.search(comment.text)
        if not comment.braced and match is not None:
            return (
                f"{message}; the {match.group(1)} at the end of line {comment.line} is "
                f"inside the ';' comment that starts at column {comment.column} (a ';' "
                f"comments out the rest of its line)"
            )
    return f"{message}; {ADD_ANY_RESULT}"


def added_result_fixes(message: str, line: int, column: int, before: str) -> tuple[Fix, ...]:
    """The fix of a missing result whose message ends :data:`ADD_ANY_RESULT`: ``*``
    written at ``column`` of ``line``, after ``before`` (the line's text up to there,
    a space put between); none for another message, or after a tag line, which can
    have nothing after it."""
    if not message.endswith(ADD_ANY_RESULT) or before.lstrip().startswith("["):
        return ()
    spacer = " " if before and not before[-1].isspace() else ""
    return (Fix("Add the result *", line, column, column, f"{spacer}*"),)


def result_slip(
    text: str, line: str, lineno: int, col: int
) -> tuple[str, int, int, str, tuple[Fix, ...]] | None:
    """A result written the usual wrong ways (``1/2``, ``1 - 0``), which would otherwise
    read as a move the game cannot make sense of: the word ``text`` at column ``col`` of
    ``line`` (line number ``lineno``).  What the reader reports of it (its message,
    line, column, code and fixes), or None for a word that is no such result."""
    if text in ("1", "0", "1/2", "1-", "0-", "1/2-"):
        spaced = _SPACED_RESULT.match(line, col - 1)
        written = f"{spaced.group(1)}-{spaced.group(2)}" if spaced is not None else ""
        # "1 - 1" is no result written with spaces: its hint would be no fix.
        if spaced is not None and written in RESULTS and any(
            c.isspace() for c in spaced.group()
        ):
            return (
                f"{spaced.group()!r} is not a result; write it without spaces: {written}",
                lineno,
                col,
                "result-spaced",
                (Fix(f"Write {written}", lineno, col, col + len(spaced.group()), written),),
            )
    if text in ("1/2", "0.5"):
        draw = "1/2-1/2"
        return (f"{text} is not a result; a draw is written {draw}", lineno, col,
                "result-draw-spelling",
                (Fix(f"Write {draw}", lineno, col, col + len(text), draw),))
    return None
