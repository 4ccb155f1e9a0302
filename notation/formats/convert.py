"""Converting records between formats without losing anything.

Three output forms:

``text``
    The canonical record text: tags in a fixed order, then the movetext with
    normalised move numbers, moves in each game's canonical spelling, comments,
    glyphs and variations kept, lines under 80 columns.  Converting canonical
    text again gives the same bytes.
``plain``
    Tags and the main line only: no comments, glyphs, suffixes or variations.
``json``
    One JSON object per record (JSON Lines; schema in ``docs/record.schema.json``):
    the whole tree, each move as typed data with the facts it produced.  Reading
    it back (:func:`record_from_json`) and writing text gives the same bytes as
    converting to text directly.

A record that does not check is still converted as far as its syntax allows
(moves up to the defect in canonical form, the rest as written); a record the
reader could not read in full is passed on as it was written.  The caller is
told (``Converted.error``) so that nothing is dropped silently.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from notation.errors import (
    Defect,
    ErrorKind,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    display_path,
    misuse_unless,
    require_text_lines,
)
from notation.files.textfile import first_line_ahead
from notation.formats import jsontext
from notation.formats.jsonwriter import JSON_FORMAT_ID, JsonWriter, record_json_text
from notation.games.base import Game
from notation.reader import RESULTS, read_records, visit_records
from notation.record import Comment, MoveNode, Record, Tag, Variation
from notation.replay import Replay, Verdict, resolve_game
from notation.visitor import Skip, TreeBuilder, walk_record
from notation.writer import (
    MainLineWriter,
    MovetextWriter,
    UnwritableRecord,
    layout,
    movetext,
    record_text,
    tag_lines,
    unwritable,
    write_record,
    write_with_tags,
)

__all__ = [
    "FORMATS",
    "JSON_FORMAT_ID",
    "Converted",
    "NotARecord",
    "convert_record",
    "looks_like_json_records",
    "order_tags",
    "ordered_tags",
    "read_any_records",
    "read_json_records",
    "record_from_json",
    "record_to_json",
    "sniff_json",
    "verbatim",
    "write_plain",
]

FORMATS = ("text", "plain", "json")
#: Tags that come first, in this order, after ``Game`` and before the players.
STANDARD_TAGS = ("Event", "Site", "Date", "Round")


@dataclass(frozen=True, slots=True)
class Converted:
    """One converted record: the output text and the defect it has, if any."""

    text: str
    error: Defect | None
    #: True when the record did not check and was passed on exactly as written.
    verbatim: bool = False
    #: True when a record that did not check was rewritten all the same (``repair``).
    repaired: bool = False


def ordered_tags(record: Record, game: Game[Any]) -> list[Tag]:
    """Tags in canonical order: Game, Event, Site, Date, Round, the players, Result,
    then every other tag in its original order.  A missing Game tag is added.  The
    record is not changed: the list and the Game tag are new."""
    return order_tags(record.tags, game)


def order_tags(tags: list[Tag], game: Game[Any]) -> list[Tag]:
    """:func:`ordered_tags` of a record with these ``tags``."""
    names = (*STANDARD_TAGS, *game.player_tags, "Result")
    if "Game" in names or len(set(names)) < len(names):  # a game naming a tag twice
        return _ordered_tags_by_search(tags, game, names)
    # One pass: the first tag of each name (what the search below finds first, and
    # removes), then the head in order, then the rest as they stand.
    first: dict[str, int] = {}
    for index, tag in enumerate(tags):
        first.setdefault(tag.name, index)
    head = [Tag("Game", game.name)]  # also normalises the spelling ("Zombie_Kidz")
    taken = set()
    found = first.get("Game")
    if found is not None:
        taken.add(found)
    for name in names:
        found = first.get(name)
        if found is not None:
            head.append(tags[found])
            taken.add(found)
    if len(taken) == len(tags):
        return head
    return head + [tag for index, tag in enumerate(tags) if index not in taken]


def _ordered_tags_by_search(
    tags: list[Tag], game: Game[Any], names: tuple[str, ...]
) -> list[Tag]:
    """order_tags, the tags searched for name by name."""
    tags = list(tags)
    game_tag = next((tag for tag in tags if tag.name == "Game"), None)
    if game_tag is not None:
        tags.remove(game_tag)
    head = [Tag("Game", game.name)]
    for name in names:
        tag = next((t for t in tags if t.name == name), None)
        if tag is not None:
            head.append(tag)
            tags.remove(tag)
    return head + tags


class TextConversion(MovetextWriter):
    """The writer of a conversion to ``text``, under a replay (see :func:`converted`):
    for a record being repaired (``repair``), the numbering its tags give and the
    grammar's spelling of the moves after its defect (a replay spells those it played)."""

    to = "text"

    def __init__(self, default_game: str | None = None, repair: bool = False) -> None:
        super().__init__()
        self.default_game = default_game
        self.repair = repair
        self.game: Game[Any] | Defect | None = None

    def end_tags(self, record: Record) -> Skip | None:
        self.game = game = resolve_game(self.record, self.default_game)
        if self.repair and isinstance(game, Game):
            self.spell = functools.partial(_repaired_spelling, game)
            self.round_size, self.lines[0].turn = _layout(self.record, game)
        return None


class PlainConversion(TextConversion, MainLineWriter):
    """The writer of a conversion to ``plain``, under a replay (see :func:`converted`)."""

    to = "plain"


class JsonConversion(JsonWriter):
    """The writer of a conversion to ``json``, under a replay (see :func:`converted`)."""

    to = "json"

    def __init__(self, default_game: str | None = None, repair: bool = False) -> None:
        super().__init__(default_game, order_tags=order_tags)
        self.repair = repair

    def end_tags(self, record: Record) -> Skip | None:
        super().end_tags(record)
        game = self.game
        self.spell = (
            functools.partial(_repaired_spelling, game) if self.repair and game else None
        )
        return None


def _repaired_spelling(game: Game[Any], text: str) -> str:
    """A move after a repaired record's defect: the grammar's spelling, if it reads."""
    try:
        return str(game.parse(text))
    except MoveSyntaxError:
        return text


def conversion(to: str, default_game: str | None = None, *, repair: bool = False) -> Any:
    """The writer that converts records to ``to`` under a :class:`~notation.replay.Replay`:
    give it to the replay as its visitor, then :func:`converted` after each record."""
    if not isinstance(to, str) or to not in FORMATS:
        raise MisuseError(f"unknown format {to!r}; choose one of {', '.join(FORMATS)}")
    if to == "text":
        return TextConversion(default_game, repair)
    if to == "plain":
        return PlainConversion(default_game, repair)
    return JsonConversion(default_game, repair)


def converted(
    record: Record, verdict: Verdict, writer: Any, *, read: bool = False
) -> Converted:
    """The conversion of ``record``, just replayed with ``writer`` (:func:`conversion`)
    and judged ``verdict``.  ``read``: the record came from the reader, which makes only
    records that text can hold."""
    error, repair = verdict.error, writer.repair
    if error is not None and not repair and record.raw is not None:
        return verbatim(record.raw, writer.to, error)
    repaired = error is not None and repair
    if writer.to == "json":
        if error is not None and not repair and writer.game is not None:
            # Built in code or read from JSON, and broken: written as it is.
            again = JsonWriter(writer.default_game, canonical=False)
            walk_record(record, Replay(writer.default_game, again))
            return Converted(again.line(False, error), error)
        return Converted(writer.line(verdict.ok, error), error, repaired=repaired)
    game = writer.game
    if not isinstance(game, Game):
        try:
            return _convert_without_game(record, writer.to, error, repaired=repair)
        except UnwritableRecord:
            if error is None or record.raw is None:
                raise
            # What the reader made of text that is no record (an empty variation...):
            # passed on as it was written, as without repair.
            return verbatim(record.raw, writer.to, error)
    if error is not None and not repaired:
        # Built in code or read from JSON, and broken: written as it is, moves as
        # written (the replay spelt those it played).
        round_size, first_turn = _layout(record, game)
        if writer.to == "plain":
            return Converted(write_plain(record, round_size, first_turn), error)
        return Converted(write_with_tags(record, record.tags, round_size, first_turn), error)
    tags = ordered_tags(record, game)
    if not read:
        problem = unwritable(record, tags)
        if problem is not None:
            raise UnwritableRecord(problem)
    text = record_text(tag_lines([(tag.name, tag.value) for tag in tags]), movetext(writer.tokens))
    return Converted(text, error, repaired=repaired)


def convert_record(
    record: Record, to: str, default_game: str | None = None, *, repair: bool = False
) -> Converted:
    """Convert one record; the record itself is not changed.

    A record that checks comes out in canonical form.  One that does not comes out
    exactly as it was written (read it with ``keep_raw=True``), so that converting
    never changes a verdict; with ``repair`` it is rewritten in canonical form as far
    as it reads instead (``Converted.repaired``), which may change its verdict.

    Raises ``MisuseError`` for an unknown format and
    :class:`~notation.writer.UnwritableRecord` for a record built in code (or read
    from JSON) that text cannot hold.

    >>> import notation
    >>> record = notation.read_string('[Game "cave"]\\n\\n1.b1   b5 *\\n')[0]
    >>> print(convert_record(record, "text").text, end="")
    [Game "cave"]
    <BLANKLINE>
    1. b1 b5 *
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    writer = conversion(to, default_game, repair=repair)
    verdict = walk_record(record, Replay(default_game, writer))
    return converted(record, verdict, writer)


def convert_lines(
    lines: Iterable[str],
    source: str | None = None,
    to: str = "text",
    default_game: str | None = None,
    *,
    repair: bool = False,
) -> Iterator[Converted]:
    """:func:`convert_record` of every record of ``lines`` (record text), read and
    converted in one pass (the writer builds each record's tree as it writes)."""
    writer = conversion(to, default_game, repair=repair)
    replay = Replay(default_game, writer)
    for verdict in visit_records(lines, replay, source, keep_raw=True):
        yield converted(writer.record, verdict, writer, read=True)


def verbatim(raw: str, to: str, error: Defect) -> Converted:
    """A broken record passed on byte for byte (in a JSON object for ``json``), line
    ends included: a record that ended its file without a line end has none, and
    whoever writes the next record after it puts one there
    (:func:`notation.writer.record_separator`)."""
    if to == "json":
        obj = {"format": JSON_FORMAT_ID, "raw": raw, "ok": False, "error": error.to_dict()}
        return Converted(jsontext.dumps(obj) + "\n", error, verbatim=True)
    return Converted(raw, error, verbatim=True)


def _layout(record: Record, game: Game[Any] | None) -> tuple[int, int]:
    """(round size, turn of the first move) for writing the record's move numbers: the
    writer's :func:`~notation.writer.layout`, except that a record whose setup tags the
    game refuses (a broken one being repaired) is numbered as the game's default."""
    if game is None:
        return 2, 1
    try:
        return layout(record, game.name)
    except UnwritableRecord:
        position = game.new_position()
        return position.round_size, position.turn + 1


def _convert_without_game(
    record: Record, to: str, error: Defect | None, *, repaired: bool
) -> Converted:
    """A record whose game is unknown: the tree as read, moves as written."""
    if to == "json":
        line = record_json_text(record, None, ok=False, error=error)
        return Converted(line, error, repaired=repaired)
    text = write_record(record, 2, first_turn=1) if to == "text" else write_plain(record, 2, 1)
    return Converted(text, error, repaired=repaired)


def write_plain(
    record: Record, round_size: int | None = None, first_turn: int | None = None
) -> str:
    """Tags and the main line only, for simple tools."""
    bare = Record(
        tags=record.tags, moves=[MoveNode(node.text) for node in record.moves],
        result=record.result,
    )
    return write_record(bare, round_size, first_turn=first_turn)


# -- JSON --------------------------------------------------------------------------

def record_to_json(
    record: Record,
    game: Game[Any] | None,
    data: Mapping[int, tuple[int, dict[str, Any], dict[str, Any]]] | None = None,
    *,
    texts: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The record as a JSON-ready object: what ``convert --to json`` writes of it, read
    back (:func:`notation.formats.jsonwriter.record_json_text`).

    ``data`` maps ``id(node)`` to (turn, typed move, facts), as a replay collects
    them; moves without it (after a defect) carry only their text.  ``texts`` maps
    ``id(node)`` to the spelling to write instead of the node's text.
    """
    obj: dict[str, Any] = jsontext.loads(record_json_text(record, game, data, texts=texts))
    return obj


# Reading JSON checks what docs/record.schema.json says, by hand: the schema is the
# contract, and a JSON Schema library is not a dependency of the core.

_RECORD_KEYS = frozenset(
    {"format", "game", "tags", "moves", "comments", "comments_after_result", "result", "ok",
     "error"}
)
_VERBATIM_KEYS = frozenset({"format", "raw", "ok", "error"})
_NODE_KEYS = frozenset(
    {"turn", "text", "suffix", "nags", "move", "facts", "comments_before", "comments_after",
     "variations"}
)
_VARIATION_KEYS = frozenset({"comments_before", "moves", "comments"})
_COMMENT_KEYS = frozenset({"text", "braced", "after_number"})
_SUFFIXES = ("", "!", "?", "!!", "??", "!?", "?!")


def _keys(obj: dict[str, Any], allowed: frozenset[str], required: Iterable[str], what: str) -> None:
    missing = [key for key in required if key not in obj]
    if missing:
        raise ValueError(f"{what} lacks the key {missing[0]!r}")
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValueError(f"{what} has the unknown key {extra[0]!r}")


def _typed(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = (
            " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__
        )
        raise ValueError(f"{what}: {key!r} must be {_JSON_TYPES.get(names, names)}")
    return value


_JSON_TYPES = {"str": "a string", "list": "an array", "dict": "an object", "bool": "true or false",
               "int": "a whole number", "str or NoneType": "a string or null",
               "dict or NoneType": "an object or null"}


def _objects(obj: dict[str, Any], key: str, what: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = _typed(obj, key, list, what)
    for item in items:
        if not isinstance(item, dict):
            raise ValueError(f"{what}: each item of {key!r} must be an object")
    return items


def _comments_from_json(obj: dict[str, Any], key: str, what: str) -> list[Comment]:
    """The comments under ``key`` (none when the key is absent)."""
    if key not in obj:
        return []
    comments = []
    for c in _objects(obj, key, what):
        _keys(c, _COMMENT_KEYS, ("text", "braced"), "a comment")
        comments.append(
            Comment(
                _typed(c, "text", str, "a comment"),
                braced=_typed(c, "braced", bool, "a comment"),
                after_number=bool(_typed(c, "after_number", bool, "a comment"))
                if "after_number" in c
                else False,
            )
        )
    return comments


def record_from_json(obj: dict[str, Any]) -> Record:
    """The record a :func:`record_to_json` object describes (``raw`` ones are read as text).

    Raises ``ValueError`` for an object that does not follow ``docs/record.schema.json``
    and :class:`~notation.writer.UnwritableRecord` (a ``ValueError`` too) for one that
    holds what record text cannot (a newline in a tag value, a space in a move).
    """
    if obj.get("format") != JSON_FORMAT_ID:
        raise ValueError(f"not a {JSON_FORMAT_ID} object (format: {obj.get('format')!r})")
    if "raw" in obj:
        _keys(obj, _VERBATIM_KEYS, ("raw",), "a verbatim record")
        raw = _typed(obj, "raw", str, "a verbatim record")
        # Read as a record's text, not an input's: a byte-order mark that starts it
        # (a later record's, of a file saved with one) is skipped and kept in its raw.
        records = list(
            visit_records(
                io.StringIO(raw, newline=""), TreeBuilder(), keep_raw=True, strip_bom=False
            )
        )
        if len(records) != 1:
            raise ValueError("a raw JSON record must hold exactly one record")
        return records[0]
    _keys(obj, _RECORD_KEYS, ("tags", "moves"), "a record")
    result = obj.get("result")
    if result is not None and result not in RESULTS:
        raise ValueError(f"the result must be 1-0, 0-1, 1/2-1/2, * or null, not {result!r}")
    tags: list[Tag] = []
    for pair in _typed(obj, "tags", list, "a record"):
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(p) is str for p in pair)):
            raise ValueError(f"a tag is a pair of strings [name, value], not {pair!r}")
        tags.append(Tag(pair[0], pair[1]))
    record = Record(
        tags=tags,
        comments=_comments_from_json(obj, "comments", "a record"),
        comments_after_result=_comments_from_json(obj, "comments_after_result", "a record"),
        result=result,
    )
    # Lines still to read: the JSON moves, and the list of nodes they become.
    pending: list[tuple[list[dict[str, Any]], list[MoveNode]]] = [
        (_objects(obj, "moves", "a record"), record.moves)
    ]
    while pending:
        items, nodes = pending.pop()
        for item in items:
            _keys(item, _NODE_KEYS, ("text",), "a move")
            suffix = item.get("suffix", "")
            if suffix not in _SUFFIXES:
                raise ValueError(f"a move's suffix is one of ! ? !! ?? !? ?!, not {suffix!r}")
            nags = _typed(item, "nags", list, "a move") if "nags" in item else []
            if not all(type(n) is int and 0 <= n < 10**9 for n in nags):
                raise ValueError(f"glyphs are whole numbers from 0, not {nags!r}")
            node = MoveNode(
                _typed(item, "text", str, "a move"),
                suffix=suffix,
                nags=list(nags),
                comments_before=_comments_from_json(item, "comments_before", "a move"),
                comments_after=_comments_from_json(item, "comments_after", "a move"),
            )
            for v in _objects(item, "variations", "a move") if "variations" in item else []:
                _keys(v, _VARIATION_KEYS, ("moves",), "a variation")
                variation = Variation(
                    comments=_comments_from_json(v, "comments", "a variation"),
                    comments_before=_comments_from_json(v, "comments_before", "a variation"),
                )
                node.variations.append(variation)
                pending.append((_objects(v, "moves", "a variation"), variation.nodes))
            nodes.append(node)
    problem = unwritable(record)
    if problem is not None:
        raise UnwritableRecord(f"record text cannot hold this record: {problem}")
    return record


class NotARecord(NotationException, ValueError):
    """A line of JSON Lines input that is not a record object (read with
    ``errors="raise"``); the message names the source and the line."""


def read_json_records(
    lines: Iterable[str], source: str | None = None, *, errors: str = "record"
) -> Iterator[Record]:
    """Records from JSON Lines (one object per line; blank lines are skipped).

    A line that is not a record object does not stop the reading (``errors="record"``,
    the default): it becomes a record whose ``error`` says why (a syntax error at that
    line) and whose ``raw`` is the line itself, and the reading goes on, as the text
    reader does.  With ``errors="raise"`` it raises :class:`NotARecord` instead.

    A JSON object that is no record becomes a record that says so:

    >>> (record,) = read_json_records(['{"not": "a record"}\\n'])
    >>> record
    <Record 1: no game, no result, 0 turns, syntax error at 1:1>
    >>> print(record.error)
    <input>:1:1: not a notation-record/1 object (format: None)
    """
    require_text_lines(lines, "lines", "lines of text")
    count = 0
    for number, line in enumerate(lines, 1):
        if not isinstance(line, str):
            raise MisuseError(f"line {number} is a {type(line).__name__}, not text (decode it)")
        # A byte-order mark starting a line is skipped, as the record reader skips one
        # where a record begins: each line is a record (a later one after ``cat``).
        text = line.removeprefix("\ufeff")
        if number == 1:
            line = text  # the input's own mark, not part of its first record
        if not text.strip():
            continue
        count += 1
        try:
            record = _json_line(text)
        except ValueError as exc:
            if errors == "raise":
                where = display_path(source) if source else "<input>"
                raise NotARecord(f"{where}:{number}: {exc}") from None
            error = Defect(ErrorKind.SYNTAX, str(exc), number, 1, code="json-not-a-record")
            record = Record(raw=line, error=error)
            record.source = source
            record.first_line = record.last_line = number
        else:
            if record.raw is not None:
                # A record passed on as its raw text: lines and columns are those of
                # that text, so the place names the JSON line it stands in.
                record.source = f"{source or '<input>'} (raw text of JSON line {number})"
            else:
                record.source = source
                record.first_line = record.last_line = number
        record.index = count
        yield record


def _json_line(line: str) -> Record:
    try:
        obj = jsontext.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"this line is not JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits
        raise ValueError(f"this line is not JSON: {exc}") from None
    lone = jsontext.lone_surrogate(line)
    if lone is not None:
        # Refused here, where every command reads JSON Lines: such a string could be
        # neither written out again nor shown.
        code, at = lone
        raise ValueError(f"a lone surrogate \\u{ord(code):04x} is not text (column {at + 1})")
    if not isinstance(obj, dict):
        raise ValueError("this line is not a JSON object")
    try:
        return record_from_json(obj)
    except RecursionError:
        raise ValueError("this record nests too deeply") from None


def sniff_json(lines: Iterable[str]) -> tuple[bool, Iterator[str]]:
    """Whether ``lines`` are JSON Lines of records (by the first non-blank line), and
    the lines again, all of them, to read from the start."""
    first, again = first_line_ahead(lines)
    return first is not None and looks_like_json_records(first), again


def looks_like_json_records(first_line: str) -> bool:
    """Whether a source whose first non-blank line is ``first_line`` is JSON Lines of
    records (as ``convert --to json`` writes them) rather than record text.

    Decided by content: the line must parse as a JSON object naming our format.  Record
    text may start with ``{`` too (a comment), but never with a whole JSON object.
    """
    text = first_line.strip().removeprefix("\ufeff")
    if not text.startswith("{"):
        return False
    try:
        obj = jsontext.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict) and obj.get("format") == JSON_FORMAT_ID


def read_any_records(
    lines: Iterable[str],
    source: str | None = None,
    *,
    keep_raw: bool = False,
    json_errors: str = "record",
) -> Iterator[Record]:
    """Records from record text or JSON Lines, told apart by the first non-blank line
    (``json_errors`` is :func:`read_json_records`'s ``errors``).

    A record written as JSON reads back as the same record as its text:

    >>> text = '[Game "cave"]\\n\\n1. b1 {first} b5 2. b1-c1 *\\n'
    >>> (from_text,) = read_any_records(text.splitlines(keepends=True))
    >>> json_line = convert_record(from_text, "json").text
    >>> json_line[:30]
    '{"format": "notation-record/1"'
    >>> (from_json,) = read_any_records([json_line])
    >>> from_json == from_text, from_json.moves[0].comment
    (True, 'first')
    """
    require_text_lines(lines, "lines", "lines of text")
    is_json, rest = sniff_json(lines)
    if is_json:
        return read_json_records(rest, source, errors=json_errors)
    return read_records(rest, source, keep_raw=keep_raw)
