"""The record reader: PGN-like text in, a :class:`~notation.visitor.RecordVisitor` driven.

The reader knows the container (tags, move numbers, comments, glyphs, suffixes,
variations, result tokens) and no game: moves stay text.  It reads line by line and
tells a visitor each record's events as it reads them (:func:`visit_records`): a
:class:`~notation.visitor.TreeBuilder` makes :class:`~notation.record.Record` trees of
them (:func:`read_records`), a :class:`~notation.replay.Replay` a verdict with no tree.
Each record is done as soon as it is complete, so a file of a million records is read
holding one record at a time.

A record ends at its result token (comments that follow it still belong to it),
where a line starting with ``[`` follows a blank line, or at the end of the
input.  The first defect of the container (an unclosed ``{``, a ``)`` without
``(``, a malformed tag, a missing result...) is kept in ``Record.error``; the
tree then holds what was read before it, and the reader carries on with the
next record.

One tokenizer reads the movetext, whatever its layout (:meth:`_Reader._movetext`:
words between white space, brackets apart, a word of several tokens cut by one
regular expression); move tokens, the only part with a real grammar, go to the games'
Lark parsers.  Where a record begins and ends (its tag lines, the rule that begins
the next record, its result token) is :mod:`notation.record_bounds`, whose
:class:`~notation.record_bounds.SureStarts` is the one detector of where records
begin for every reader that cuts a file (``--jobs``, the index, the language server's
document); it and :func:`~notation.record_bounds.record_starts` are importable from
here too.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from notation.errors import Defect, ErrorKind, Fix
from notation.record import Comment, MoveNumber, Record
from notation.record_bounds import (
    ADD_ANY_RESULT,
    RESULTS,
    TAG_ESCAPE,
    TAG_LINE,
    SureStarts,
    added_result_fixes,
    begins_record,
    known_tag_pair,
    new_tag_pair,
    no_result_message,
    record_starts,
    result_slip,
)
from notation.visitor import DIGITS, SKIP, RecordVisitor, TreeBuilder

if TYPE_CHECKING:  # pathlib costs 3 ms of start-up (docs/performance.md)
    from pathlib import Path

__all__ = [
    "ADD_ANY_RESULT",
    "RESULTS",
    "SureStarts",
    "read_file",
    "read_records",
    "read_string",
    "record_starts",
    "visit_records",
]

_RESULT_SET = frozenset(RESULTS)
#: What a visitor makes of a record.
T = TypeVar("T")
SUFFIXES = frozenset({"!", "?", "!!", "??", "!?", "?!"})

#: The one tokenizer of movetext: every token of a line, whatever the layout, in one
#: pass.  A comment is one token (to the line's end when its "}" is not on the line);
#: a word is any run of what no other token starts (moves, results, stray glyphs).
_TOKEN = re.compile(
    r"""
     \{[^}]*\}?          # a comment, closed on this line or not
    |;.*                # a comment to the end of the line
    |[()}]              # variations; a "}" that no "{" opened
    |\$\d+              # a numeric glyph
    |\d+\.+             # a move number (and wrong ones: 12.., 12....)
    |[^\s(){};]+        # a word: a move, a result, a suffix written apart
    """,
    re.VERBOSE,
)
#: The first characters of the tokens that are not moves (a move starts with none).
_NOT_MOVE_START = "{;()}$*0123456789!?"
#: What str.isspace() takes for white space, one character at a time (a test holds the
#: list to Python's own).
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: What a line of a record whose moves are skipped must hold to matter to the reading:
#: a comment mark, or a result token (each holds one of these).
_ENDS_OR_COMMENTS = re.compile(r"[{};*]|-[01]|/2")
#: The move numbers read (``"12."``: (12, 1)), well-formed: a file has a few hundred,
#: each read many times.  Bounded against hostile input.
_NUMBER_TEXTS: dict[str, tuple[int, int]] = {}
_NUMBER_TEXTS_LIMIT = 4096
#: The words of a line of movetext: runs of what is not white space, and brackets,
#: braces and semicolons, each a word of its own (see _Reader._movetext).
_WORDS = re.compile(r"[^\s(){};]+|[(){};]").findall
#: What makes a line's words other than its runs of what is not white space.
_NOT_WHITE_APART = re.compile(r"[(){};]")


def read_records(
    lines: Iterable[str],
    source: str | None = None,
    *,
    keep_raw: bool = False,
    first_line: int = 1,
) -> Iterator[Record]:
    """Yield the records of ``lines`` (any iterable of text lines, e.g. an open file).

    With ``keep_raw`` each record also keeps its lines as written (``Record.raw``), so
    that a record the reader could not read in full can still be passed on intact.
    ``first_line`` is the number of the first line: a part of a file that starts with
    a record (``notation check --jobs`` reads big files in parts) keeps its line numbers.
    ``MisuseError`` for ``lines`` that are a str, bytes or no iterable at all.
    """
    return visit_records(lines, TreeBuilder(), source, keep_raw=keep_raw, first_line=first_line)


def visit_records(
    lines: Iterable[str],
    visitor: RecordVisitor[T],
    source: str | None = None,
    *,
    keep_raw: bool = False,
    first_line: int = 1,
    strip_bom: bool = True,
) -> Iterator[T]:
    """Read the records of ``lines`` with ``visitor`` (see :mod:`notation.visitor`) and
    yield what it makes of each (:meth:`~notation.visitor.RecordVisitor.end_record`).

    No record tree is built unless the visitor builds it: :func:`read_records` is this
    with a :class:`~notation.visitor.TreeBuilder`.  ``keep_raw`` and ``first_line`` as
    for :func:`read_records`; ``strip_bom`` false keeps a byte-order mark starting the
    first line (for lines that are not the start of their text).
    """
    from notation.errors import misuse_unless, require_text_lines

    require_text_lines(lines, "lines", "lines of text (read_string reads a str)")
    misuse_unless(isinstance(visitor, RecordVisitor), "visitor", "a RecordVisitor", visitor)
    return _Reader(source, visitor, keep_raw).run(lines, first_line, strip_bom=strip_bom)


def read_string(text: str, source: str | None = None) -> list[Record]:
    """Every record in ``text`` (``\r\n`` and ``\r`` end lines too, as in a file).

    ``MisuseError`` for a ``text`` that is not a str (bytes: decode them first)."""
    from notation.errors import misuse_unless

    misuse_unless(isinstance(text, str), "text", "a str (decode bytes first)", text)
    return list(read_records(io.StringIO(text, newline=None), source))


def read_file(path: str | Path, *, keep_raw: bool = False) -> Iterator[Record]:
    """Stream the records of the file at ``path``.

    The file is UTF-8; one that is not is read anyway, its lines that are not UTF-8
    as Windows-1252, with a :class:`notation.files.textfile.NotUTF8Warning` (never silently
    mangled: see :mod:`notation.files.textfile`).  ``MisuseError`` for a ``path`` that is not
    a str or a ``pathlib.Path`` (an int would be taken as a file descriptor), the
    ``OSError`` of a file that cannot be read (:class:`notation.files.textfile.LineTooLong` for
    a line over :data:`notation.files.textfile.MAX_LINE` bytes).  A compressed file (gzip,
    bzip2, xz, zstd) is read decompressed, as every command reads it.
    """
    from notation.errors import require_path

    require_path(path)
    # Imported here: this function is the reader's only door to files.
    import warnings

    from notation.files.textfile import NotUTF8Warning, decoded_lines, not_utf8_message, open_binary

    name = str(path)

    def warn() -> None:
        warnings.warn(NotUTF8Warning(not_utf8_message(name)), stacklevel=2)

    def lines() -> Iterator[str]:
        with open_binary(path) as handle:
            yield from decoded_lines(handle, warn)

    return read_records(lines(), name, keep_raw=keep_raw)


#: Digits a move number or a glyph may have: enough for any game, and far below the
#: thousands at which int() raises ValueError.
_MAX_DIGITS = 9


def _shown(text: str, *, quote: bool = True, limit: int = 30) -> str:
    """``text`` for a message, cut short when long (a hostile token can be megabytes)."""
    show = repr if quote else str
    if len(text) <= limit:
        return show(text)
    return f"{show(text[:limit])}... ({len(text)} characters)"


#: What :func:`_without_bom` reads of lines that have none.
_NO_LINE = object()


def _without_bom(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` with a byte-order mark at the start of the first one removed.

    Editors on Windows start UTF-8 files with one; left in, it would hide the first tag.
    """
    it = iter(lines)
    first: object = next(it, _NO_LINE)
    if first is _NO_LINE:
        return it
    if not isinstance(first, str):  # the first line tells lines of text from others
        from notation.errors import misuse

        misuse("line 1", "text", first)
    return itertools.chain((first.removeprefix("\ufeff"),), it)



def _ignore(*_args: object) -> None:
    """What the reader calls for a move event of a record whose moves are skipped."""


#: What the reader knows of a line's last move (what a glyph after it may do).
_NO_MOVE, _MOVE, _MOVE_WITH_SUFFIX = 0, 1, 2


class _Reader:
    """The reading loop: lines in, a visitor's events out (see :func:`visit_records`)."""

    def __init__(
        self, source: str | None, visitor: RecordVisitor[Any], keep_raw: bool = False
    ) -> None:
        self.source = source
        self.visitor = visitor
        self.keep_raw = keep_raw
        # The visitor's move events for the current record (no-ops when it skips them),
        # bound once its tags are read (moves_begun).
        self.moves_begun = False
        self.skipping = False  # the visitor skips the current record's moves
        self.on_move: Callable[[str, str, MoveNumber | None, int, int], None] = _ignore
        self.on_glyph: Callable[[str, int, int], None] = _ignore
        self.on_comment: Callable[[Comment], None] = _ignore
        self.on_begin_variation: Callable[[int, int], None] = _ignore
        self.on_end_variation: Callable[[], None] = _ignore
        self.on_result: Callable[[str, int, int], None] = _ignore
        self.count = 0
        self.record: Record | None = None
        # The current record's text as written (with keep_raw): whole lines with their
        # own line ends, the first and last possibly cut where a record starts mid-line.
        self.raw_parts: list[str] = []
        # Where in the current line the current record's text starts (not 0 when a
        # record starts after another's result on the same line).
        self.raw_offset = 0
        # Escape lines read before the next record starts: kept with it, not lost.
        self.raw_before: list[str] = []
        # The blank lines read last (with keep_raw), as runs of one text: raw_parts
        # gets them when a line of the record follows, and a record that ends drops
        # them, so that millions of blank lines between records are never held.
        self.raw_blanks: list[tuple[str, int]] = []
        # The record's last non-blank line (cut where the next record starts, if on
        # the same line): a missing result is reported just past its end.
        self.end_text = ""
        self.line_text = ""
        # The current record has a tag line that is not one (its tags lack it): it has
        # a header all the same, which a blank line and a line starting with "[" end.
        self.malformed_tag = False
        self.has_tags = False
        self._reset_movetext()

    # -- state --------------------------------------------------------------
    def _reset_movetext(self) -> None:
        self.in_movetext = False
        self.closed = False  # the result token has been read
        self.failed = False  # a container error was found: ignore moves until the end
        # The moves flow: in the movetext, before the result, nothing wrong so far.
        self.flowing = False
        # The open line of play's last move (_NO_MOVE, _MOVE...), those of the lines
        # around it, and where each open variation was opened.
        self.last = _NO_MOVE
        self.outer: list[int] = []
        self.opened: list[tuple[int, int]] = []
        self.pending_number: MoveNumber | None = None
        # An open {...} comment: start line, start column, text so far.
        self.comment_start: tuple[int, int] | None = None
        self.comment_parts: list[str] = []
        # Comments read before the record's moves begin: told after its tags are.
        self.early_comments: list[Comment] = []
        # The comments after the main line's last move: where a swallowed result is.
        self.tail: list[Comment] = []

    def _start(self, lineno: int) -> Record:
        self.count += 1
        record = Record(index=self.count, source=self.source, first_line=lineno)
        self.raw_parts, self.raw_before = self.raw_before, []
        self.end_text = ""
        self.record = record
        self.malformed_tag = False
        self.has_tags = False
        self._reset_movetext()
        self.moves_begun = False
        self.visitor.begin_record(record)
        return record

    def _begin_moves(self, record: Record) -> None:
        """The record's header is read: ask the visitor whether it wants the moves."""
        self.moves_begun = True
        visitor = self.visitor
        self.skipping = visitor.end_tags(record) is SKIP
        if self.skipping:
            self.on_move = self.on_glyph = self.on_comment = _ignore
            self.on_begin_variation = self.on_end_variation = self.on_result = _ignore
        else:
            self.on_move = visitor.visit_move
            self.on_glyph = visitor.visit_glyph
            self.on_comment = visitor.visit_comment
            self.on_begin_variation = visitor.begin_variation
            self.on_end_variation = visitor.end_variation
            self.on_result = visitor.visit_result
            early, self.early_comments = self.early_comments, []
            for comment in early:
                self.on_comment(comment)

    def _fail(
        self, message: str, line: int, column: int, code: str, fixes: tuple[Fix, ...] = ()
    ) -> None:
        record = self.record
        assert record is not None
        if record.error is None:
            record.error = Defect(ErrorKind.SYNTAX, message, line, column, code=code,
                                  fixes=fixes)
        self.failed = True
        self.flowing = False

    def _finish(self) -> Record | None:
        """Close the current record (reporting what was left open) and return it."""
        record = self.record
        if record is None:
            return None
        self.record = None
        if self.keep_raw:
            self.raw_blanks = []  # blank lines between records belong to neither
            parts = self.raw_parts
            while parts and not parts[-1].strip():
                parts.pop()  # blank lines between records belong to neither
            record.raw = "".join(parts)
            self.raw_parts = []
        last = record.last_line or record.first_line
        if self.comment_start is not None:
            line, col = self.comment_start
            self._fail_on(record, "the comment opened here is never closed with '}'", line, col,
                          "comment-unclosed")
            self._comment(record, Comment("\n".join(self.comment_parts).strip(), line, col))
        if not self.closed:
            # Both stand just past the record's last token: an earlier defect on the
            # same line comes first in file order, and wins.
            line, col = last, len(self.end_text.rstrip()) + 1
            if self.opened and record.error is None:
                opened_line, opened_col = self.opened[-1]
                where = f" (opened at line {opened_line}, column {opened_col})"
                self._fail_on(record, f"a variation is never closed with ')'{where}", line, col,
                              "variation-unclosed")
            if record.error is None:
                message = no_result_message(self.tail)
                fixes = added_result_fixes(message, line, col, self.end_text.rstrip())
                self._fail_on(record, message, line, col, "result-missing", fixes)
        if not self.moves_begun:
            self._begin_moves(record)
        return record

    @staticmethod
    def _fail_on(
        record: Record, message: str, line: int, column: int, code: str,
        fixes: tuple[Fix, ...] = (),
    ) -> None:
        if record.error is None:
            record.error = Defect(ErrorKind.SYNTAX, message, line, column, code=code,
                                  fixes=fixes)

    def _comment(self, record: Record, comment: Comment) -> None:
        """A comment read: told the visitor (once its moves begin), or, after a defect
        of the container, kept with the record."""
        if self.closed:
            pass  # after the result: told as it is
        elif self.failed:
            record.comments.append(comment)
            return
        else:
            comment.after_number = self.pending_number is not None
            if not self.opened:
                self.tail.append(comment)
        if self.moves_begun:
            self.on_comment(comment)
        else:
            self.early_comments.append(comment)

    # -- the line loop ------------------------------------------------------
    def run(
        self, lines: Iterable[str], first_line: int = 1, *, strip_bom: bool = True
    ) -> Iterator[Any]:
        """What the visitor makes of each record of ``lines``; a byte-order mark
        starting the first line is dropped, unless ``strip_bom`` is false (``lines``
        are not the input's start)."""
        try:
            yield from self._records(lines, first_line, strip_bom)
        except MemoryError:
            # A record too big to hold (millions of tag lines): let it go before the
            # error goes up, or the error's traceback keeps it, and handling the
            # error finds no memory either (CPython then retries its handler forever).
            self._forget_record()
            raise

    def _forget_record(self) -> None:
        """Empty what the current record holds, in place (its lists have other holders)."""
        record = self.record
        if record is not None:
            record.tags.clear()
            record.moves.clear()
            record.comments.clear()
        for texts in (self.raw_parts, self.raw_before, self.comment_parts):
            texts.clear()
        self.raw_blanks.clear()
        self.early_comments.clear()
        self.tail = []

    def _records(self, lines: Iterable[str], first_line: int, strip_bom: bool) -> Iterator[Any]:
        prev_blank = True
        lineno = 0
        keep_raw = self.keep_raw
        known_tag = known_tag_pair
        on_tag = self.visitor.visit_tag
        # The current record's self.raw_parts (with keep_raw), bound where a header
        # starts: its tag lines go straight to it.
        raw_parts: list[str] = []
        # Reading a header, tag line after tag line (most lines of a file of short
        # games): the usual tag line goes straight to the visitor, and its line is the
        # record's last (tag_line, tag_raw: told the record when another line comes).
        header = False
        tag_line, tag_raw = 0, ""
        for lineno, raw in enumerate(_without_bom(lines) if strip_bom else lines, first_line):
            if header:
                pair = known_tag(raw)
                if pair is None:
                    pair = new_tag_pair(raw)  # a tag line not seen before (its round...)
                if pair is not None:
                    on_tag(pair[0], pair[1], lineno, 1)
                    if keep_raw:
                        raw_parts.append(raw)
                    tag_line, tag_raw = lineno, raw
                    continue
                header = False
                self._header_read(tag_line, tag_raw)
            written = raw  # the line as written, for Record.raw: a skipped mark kept
            first = raw[:1]
            if first == "\ufeff":
                raw = self._bom_skipped(raw, prev_blank)
                first = raw[:1]
            if first == "%":
                # An escape line, ignored wherever it stands (docs/record-format.md), even
                # inside a comment; it does not separate records either.
                if keep_raw:
                    self._keep_blanks()
                    (self.raw_parts if self.record is not None else self.raw_before).append(
                        written
                    )
                continue
            line = raw.rstrip("\r\n")
            if not line or (first in WHITE_SPACE and line.isspace()):
                if self.comment_start is not None:
                    self.comment_parts.append("")
                if keep_raw and self.record is not None:
                    blanks = self.raw_blanks
                    if blanks and blanks[-1][0] == raw:
                        blanks[-1] = (raw, blanks[-1][1] + 1)
                    else:
                        blanks.append((raw, 1))
                prev_blank = True
                continue
            starts_tag = first == "[" or (first in WHITE_SPACE and line.lstrip()[0] == "[")
            record = self.record
            if (
                record is not None
                and starts_tag
                # a cheap test first: without any of these, a tag line continues a header
                and (prev_blank or self.in_movetext or self.closed)
                and self._starts_record(line, prev_blank)
            ):
                finished = self._finish()
                if finished is not None:
                    yield self.visitor.end_record(finished)
                record = None
            prev_blank = False
            if record is None:
                record = self._start(lineno)
            if keep_raw:
                self._keep_blanks()
                self.raw_parts.append(written)
                # Offsets in the line count from past a skipped mark, kept in the text.
                self.raw_offset = len(raw) - len(written)
            self.end_text = line
            record.last_line = lineno
            pos = 0
            if self.comment_start is not None:
                end = line.find("}")
                if end < 0:
                    # Inner lines keep their indentation (diagrams, verse); only the
                    # comment as a whole is trimmed.
                    self.comment_parts.append(line.rstrip())
                    continue
                self.comment_parts.append(line[:end].rstrip())
                cline, ccol = self.comment_start
                self.comment_start = None
                text = "\n".join(self.comment_parts).strip()
                self.comment_parts = []
                self._comment(record, Comment(text, cline, ccol))
                pos = end + 1
            elif starts_tag and not self.in_movetext and not self.closed:
                self._tag(line, lineno, raw)
                header = raw[:1] == "["  # not after a skipped mark: the record's raw text
                raw_parts, tag_line, tag_raw = self.raw_parts, lineno, raw
                continue
            elif self.skipping and self.flowing and _ENDS_OR_COMMENTS.search(line) is None:
                continue  # moves skipped: a line without a comment or a result is nothing
            start = self._movetext(record, line, lineno, pos)
            while start >= 0:
                # Anything but a comment after the result token starts the next record,
                # which owns the rest of the line (its text, with keep_raw).
                self.end_text = line[:start]
                tail = ""
                if keep_raw:
                    # The last part is this line from raw_offset on (an earlier record
                    # may have taken its start already).
                    whole = self.raw_parts.pop()
                    cut = start - self.raw_offset
                    self.raw_parts.append(whole[:cut].rstrip())
                    tail = whole[cut:]
                    self.raw_offset = start
                finished = self._finish()
                if finished is not None:
                    yield self.visitor.end_record(finished)
                record = self._start(lineno)
                record.last_line = lineno
                self.end_text = line
                if keep_raw:
                    self.raw_parts.append(tail)
                start = self._movetext(record, line, lineno, start)
        if header:
            self._header_read(tag_line, tag_raw)
        finished = self._finish()
        if finished is not None:
            yield self.visitor.end_record(finished)

    def _header_read(self, line: int, raw: str) -> None:
        """The tag lines read straight into the current record end at ``line``."""
        record = self.record
        assert record is not None
        record.last_line = line
        self.end_text = raw
        self.raw_offset = 0

    def _bom_skipped(self, raw: str, prev_blank: bool) -> str:
        """``raw`` (which starts with a byte-order mark) without the mark where the reader
        skips one: before an escape line after blank lines, and before a line that
        begins a record (``cat`` of files saved with a mark puts one there), as at the
        start of the input.  Anywhere else the mark is kept: a token like any other."""
        rest = raw[1:]
        first = rest[:1]
        if first == "%":
            return rest if prev_blank else raw
        if first != "[":
            return raw
        if self.record is None:  # the input's first record (lines not the input's start)
            return rest if prev_blank else raw
        line = rest.rstrip("\r\n")
        return rest if self._starts_record(line, prev_blank) else raw

    def _keep_blanks(self) -> None:
        """The blank lines read last belong to the record, a line of it follows them."""
        if self.raw_blanks:
            self.raw_parts.append("".join(text * count for text, count in self.raw_blanks))
            self.raw_blanks = []

    def _starts_record(self, line: str, prev_blank: bool) -> bool:
        """Whether a line starting with '[' begins the next record."""
        return begins_record(
            line,
            prev_blank,
            in_comment=self.comment_start is not None,
            after_moves=self.in_movetext or self.closed,
            has_tags=self.malformed_tag or self.has_tags,
        )

    def _tag(self, line: str, lineno: int, key: str | None = None) -> None:
        """The tag line ``line`` (without its line end); ``key``, the line as read, is
        what the cache of tag lines keeps its pair under (``line`` by default: see
        :func:`~notation.record_bounds.new_tag_pair`)."""
        key = line if key is None else key
        pair = known_tag_pair(key)
        if pair is None:
            pair = new_tag_pair(key)  # the usual line, which TAG_LINE reads the same
        self.has_tags = True
        if pair is not None:
            self.visitor.visit_tag(pair[0], pair[1], lineno, 1)
            return
        match = TAG_LINE.match(line)
        column = line.index("[") + 1
        if match is None:
            self._fail_on(
                self.record,  # type: ignore[arg-type]  # a tag line is in a record
                'a tag is written [Name "value"]; this line is not one', lineno, column,
                "tag-malformed",
            )
            self.has_tags = False
            self.malformed_tag = True
            return
        name, value = match.groups()
        if "\\" in value:
            value = TAG_ESCAPE.sub(r"\1", value)
        self.visitor.visit_tag(name, value, lineno, column)

    # -- movetext -----------------------------------------------------------
    def _enter_moves(self, record: Record) -> None:
        """The record's first token of movetext (not a comment) is read."""
        self.in_movetext = True
        self.flowing = not (self.closed or self.failed)
        if not self.moves_begun:
            self._begin_moves(record)

    def _movetext(self, record: Record, line: str, lineno: int, pos: int) -> int:
        """Read the tokens of ``line`` from ``pos``: -1, or where the next record starts
        on it (a token after the result that is not a comment).

        The one tokenizer: white space separates tokens, and so do brackets, braces and
        semicolons, which are tokens of their own (:data:`_APART`); a word that holds
        more than one token (``12.b1``, ``$3x``) is cut by :data:`_TOKEN`.  A line break
        is white space like any other: the tokens do not depend on where lines break.
        """
        find = line.find
        tail = self.tail
        not_move_start, numbers, move_number = _NOT_MOVE_START, _NUMBER_TEXTS, MoveNumber
        while True:  # once, and again after each comment closed on the line
            rest = line[pos:] if pos else line
            if _NOT_WHITE_APART.search(rest) is None:
                words = rest.split()
                # One space between words (most lines): where each starts is counted.
                spaced = " ".join(words) == rest
            else:
                words = _WORDS(rest)  # brackets, braces and semicolons apart
                spaced = False
            on_move, flowing, number, last = (
                self.on_move, self.flowing, self.pending_number, self.last
            )
            at = pos
            for word in words:
                if not spaced:
                    at = find(word, at)
                if flowing and word[0] not in not_move_start and word[-1] not in "!?.":
                    # The usual token: a move, without a suffix, in the flow of moves.
                    on_move(word, "", number, lineno, at + 1)
                    number = None
                    last = 1  # _MOVE
                    if tail and not self.opened:
                        tail.clear()  # comments before the main line's last move
                    at += len(word) + spaced
                    continue
                first = word[0]
                if flowing and first in DIGITS:
                    known = numbers.get(word)
                    if known is not None:  # a move number read before
                        number = move_number(known[0], known[1], lineno, at + 1)
                        at += len(word) + spaced
                        continue
                self.pending_number, self.last = number, last
                if first == "{":
                    end = find("}", at)
                    if end < 0:
                        self.comment_start = (lineno, at + 1)
                        self.comment_parts = [line[at + 1 :].strip()]
                        return -1
                    self._comment(record, Comment(line[at + 1 : end].strip(), lineno, at + 1))
                    pos = end + 1
                    break  # the rest of the line, after the comment
                if first == ";":
                    self._comment(
                        record, Comment(line[at + 1 :].strip(), lineno, at + 1, braced=False)
                    )
                    return -1
                if self.closed:
                    return at
                if not self.in_movetext:
                    self._enter_moves(record)
                known = numbers.get(word) if self.flowing else None
                if known is not None:  # the first number of the record's moves
                    self.pending_number = move_number(known[0], known[1], lineno, at + 1)
                elif word in _RESULT_SET:
                    self._result(word, lineno, at + 1)
                else:
                    self.line_text = line  # for hints that look ahead on the line
                    self._word_or_more(record, word, lineno, at)
                on_move, flowing, number, last = (
                    self.on_move, self.flowing, self.pending_number, self.last
                )
                at += len(word) + spaced
            else:
                self.pending_number, self.last = number, last
                return -1

    def _word_or_more(self, record: Record, word: str, lineno: int, at: int) -> None:
        """A word of movetext (white space and brackets around it) at ``at`` that is no
        plain move: the tokens it holds (:data:`_TOKEN`: ``12.b1`` is a number and a
        move, ``$3x`` a glyph and a word)."""
        for match in _TOKEN.finditer(word):
            token = match.group()
            self._token(record, token, token[0], lineno, at + match.start() + 1)

    def _token(self, record: Record, token: str, first: str, lineno: int, col: int) -> None:
        """A token of movetext other than a comment and a plain move."""
        if first in DIGITS or first.isdecimal():  # \d: any decimal digit, as _TOKEN's
            if token in RESULTS:
                self._result(token, lineno, col)
            elif self.failed:
                pass
            elif token[-1] == "." and token.rstrip(".").isdecimal():
                self._number(token, lineno, col)
            else:
                self._word(token, lineno, col)
        elif token == "*":
            self._result(token, lineno, col)
        elif self.failed:
            pass
        elif first == "(":
            self._open(lineno, col)
        elif first == ")":
            self._close(lineno, col)
        elif first == "}":
            self._fail("a '}' without an opening '{'", lineno, col, "comment-unopened")
        elif first == "$" and len(token) > 1 and token[1] in DIGITS:
            self._nag(token, lineno, col)
        else:
            self._word(token, lineno, col)

    def _result(self, text: str, lineno: int, col: int) -> None:
        record = self.record
        assert record is not None
        if not self.failed and self.opened:
            opened_line, opened_col = self.opened[-1]
            self._fail(
                f"a result token cannot stand inside a variation; the variation "
                f"opened at line {opened_line}, column {opened_col} is never closed",
                lineno,
                col,
                "result-in-variation",
            )
        record.result = text
        record.result_line = lineno
        record.result_column = col
        self.on_result(text, lineno, col)
        self.closed = True
        self.flowing = False

    def _word(self, text: str, lineno: int, col: int) -> None:
        if text[0] in "01":
            slip = result_slip(text, self.line_text, lineno, col)
            if slip is not None:
                self._fail(*slip)
                return
        suffix = ""
        # rstrip, not a regular expression: "[!?]+$" searched in a long run of "!" that
        # does not end the token takes quadratic time.
        bare = text.rstrip("!?")
        if len(bare) < len(text) and text[len(bare) :] in SUFFIXES:
            suffix = text[len(bare) :]
            text = bare
        if not text:
            # A glyph standing alone ("h5-h3 !") belongs to the move before it.
            if self.last == _MOVE and self.pending_number is None:
                self.last = _MOVE_WITH_SUFFIX
                self.on_glyph(suffix, lineno, col)
                return
            text = suffix
            suffix = ""
        number = self.pending_number
        self.pending_number = None
        self.on_move(text, suffix, number, lineno, col)
        self.last = _MOVE_WITH_SUFFIX if suffix else _MOVE
        if not self.opened:
            self.tail = []

    def _number(self, text: str, lineno: int, col: int) -> None:
        digits = text.rstrip(".")
        dots = len(text) - len(digits)
        if dots not in (1, 3):
            self._fail(
                f"a move number is written 12. or 12...; {_shown(text)} is neither", lineno, col,
                "number-malformed",
            )
            return
        if len(digits) > _MAX_DIGITS:  # int() refuses thousands of digits; no game is that long
            self._fail(f"the move number {_shown(text)} has too many digits", lineno, col,
                       "number-too-long")
            return
        self.pending_number = MoveNumber(int(digits), dots, lineno, col)
        if len(_NUMBER_TEXTS) >= _NUMBER_TEXTS_LIMIT:
            _NUMBER_TEXTS.clear()
        _NUMBER_TEXTS[text] = (self.pending_number.number, dots)

    def _nag(self, text: str, lineno: int, col: int) -> None:
        if self.last == _NO_MOVE or self.pending_number is not None:
            glyph = _shown(text, quote=False)
            self._fail(f"the glyph {glyph} has no move before it", lineno, col, "glyph-orphan")
            return
        if len(text) > 1 + _MAX_DIGITS:
            self._fail(f"the glyph {_shown(text, quote=False)} has too many digits", lineno, col,
                       "glyph-too-long")
            return
        self.on_glyph(text, lineno, col)

    def _open(self, lineno: int, col: int) -> None:
        if self.last == _NO_MOVE:
            self._fail("a variation '(' must follow the move it is an alternative to", lineno, col,
                       "variation-orphan")
            return
        self.pending_number = None  # "12. (" : a number with no move is meaningless
        self.outer.append(self.last)
        self.opened.append((lineno, col))
        self.last = _NO_MOVE
        self.on_begin_variation(lineno, col)

    def _close(self, lineno: int, col: int) -> None:
        if not self.opened:
            self._fail("a ')' without an opening '('", lineno, col, "variation-unopened")
            return
        self.pending_number = None
        self.opened.pop()
        self.last = self.outer.pop()
        self.on_end_variation()
