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

import io
import json
from collections.abc import Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

from notation import jsontext
from notation.errors import (
    Defect,
    ErrorKind,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    display_path,
    require_text_lines,
)
from notation.games.base import Game, Position
from notation.reader import RESULTS, _Reader, read_records
from notation.record import Comment, MoveNode, Record, Tag, Variation
from notation.replay import ReplayVisitor, check_record, resolve_game
from notation.textio import first_line_ahead
from notation.walk import TreeVisitor, iter_nodes, walk_tree
from notation.writer import (
    UnwritableRecord,
    layout,
    unwritable,
    write_record,
    write_with_tags,
)

__all__ = [
    "FORMATS",
    "JSON_FORMAT_ID",
    "CanonicalSpellings",
    "Converted",
    "NotARecord",
    "canonical_text",
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
JSON_FORMAT_ID = "notation-record/1"
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
    # removes), then the head in order, then the rest as they stand (profiled: a
    # search of the tags per name, per record).
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


class CanonicalSpellings(ReplayVisitor):
    """Collects, per node, the canonical spelling of each legal move and (for JSON) the
    turn, the typed move and the facts it produced: one replay serves both.

    All of it is asked after the move is played (``last_move_canonical``), so the
    replay never takes a move back for this visitor."""

    def __init__(self, game: Game[Any], with_data: bool) -> None:
        self.game = game
        self.with_data = with_data
        self.texts: dict[int, str] = {}
        #: (turn, the move as written, facts) by ``id(node)``: the move is made typed
        #: data (``move_to_dict``) only when it is asked for, :attr:`data`; the JSON
        #: writer takes the text of each move's data from a cache by the move instead.
        self.moves: dict[int, tuple[int, Any, dict[str, Any]]] = {}
        #: (round size, turn of the first move) of the record, as the replay found
        #: them at its first move (the main line's first): what layout() would make a
        #: new start position to learn.  None until a move was played.
        self.layout: tuple[int, int] | None = None

    @property
    def data(self) -> dict[int, tuple[int, dict[str, Any], dict[str, Any]]]:
        """(turn, typed move, facts) by ``id(node)``, as :func:`record_to_json` takes them."""
        to_dict = self.game.move_to_dict
        return {
            key: (turn, to_dict(move), facts) for key, (turn, move, facts) in self.moves.items()
        }

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        key = id(node)
        self.texts[key] = str(position.last_move_canonical())
        if self.layout is None:
            self.layout = (position.round_size, position.turn)
        if self.with_data:
            self.moves[key] = (position.turn, move, position.last_move_facts())


def convert_record(
    record: Record, to: str, default_game: str | None = None, *, repair: bool = False
) -> Converted:
    """Convert one record; the record itself is not changed.

    A record that checks comes out in canonical form.  One that does not comes out
    exactly as it was written (read it with ``keep_raw=True``), so that converting
    never changes a verdict; with ``repair`` it is rewritten in canonical form as far
    as it reads instead (``Converted.repaired``), which may change its verdict.

    Raises ``ValueError`` for an unknown format and
    :class:`~notation.writer.UnwritableRecord` for a record built in code (or read
    from JSON) that text cannot hold.
    """
    if not isinstance(to, str) or to not in FORMATS:
        raise MisuseError(f"unknown format {to!r}; choose one of {', '.join(FORMATS)}")
    game = resolve_game(record, default_game)
    collector = CanonicalSpellings(game, to == "json") if isinstance(game, Game) else None
    verdict = check_record(record, default_game, collector)
    if verdict.error is not None and not repair and record.raw is not None:
        return verbatim(record.raw, to, verdict.error)
    if collector is None or not isinstance(game, Game):
        return _convert_without_game(record, to, verdict.error, repaired=repair)
    texts = collector.texts
    repaired = verdict.error is not None and repair
    if repaired:
        texts = _spellings(record, game, texts)
        tags = ordered_tags(record, game)
    elif verdict.error is not None:  # built in code or read from JSON: as it is
        texts, tags = {}, record.tags
    else:
        tags = ordered_tags(record, game)
    # The record with its tags in order is made only where it is needed: text is
    # written with the tags given instead (profiled: dataclasses.replace per record).
    view = record if tags is record.tags or to == "text" else replace(record, tags=tags)
    # The replay's layout is the start position's, which is what _layout() would
    # find again (the view's tags are the record's, the Game tag's spelling aside),
    # for a record that checked; a broken one is numbered as _layout() says.
    known = collector.layout if verdict.error is None else None
    if known is not None:
        round_size, first_turn = known
    else:
        round_size, first_turn = _layout(
            view if view.tags is tags else replace(record, tags=tags), game
        )
    if to == "text":
        text = write_with_tags(record, tags, round_size, first_turn, texts)
    elif to == "plain":
        text = write_plain(view, round_size, first_turn, texts=texts)
    else:
        line = _json_text(view, game, collector.moves, texts) if verdict.ok else None
        if line is None:
            obj = record_to_json(view, game, collector.data, texts=texts)
            obj["ok"] = verdict.ok
            obj["error"] = verdict.error.to_dict() if verdict.error else None
            line = _dumps(obj) + "\n"
        text = line
    return Converted(text, verdict.error, repaired=repaired)


#: ``jsontext.dumps``'s encoder, without the test for circular references: a record's
#: JSON is a tree that record_to_json has just built (5% of the encoding, profiled).
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(", ", ": "))


def _dumps(obj: dict[str, Any]) -> str:
    """``jsontext.dumps(obj)``, the same text, for an object made by record_to_json."""
    try:
        return _ENCODER.encode(obj)
    except RecursionError:  # variations nested deeper than the C encoder goes
        return jsontext.dumps(obj)


_encode_string = json.encoder.encode_basestring  # the C function the encoder uses

#: The JSON text of a move's typed data, by the move object: parsed moves are shared
#: objects (one per token), so a corpus repeats a few thousand; the entry keeps its
#: move, so that an id is not reused while it is in the cache.  And of a move's
#: facts, by their keys, values and the types of the values (``1`` and ``true`` are
#: equal otherwise): a few hundred kinds.  Facts holding an object (a capture's
#: ``removed``) are keyed by its keys, values and types too.  Both bounded.
_MOVE_JSON: dict[int, tuple[Any, str]] = {}
_FACTS_JSON: dict[tuple[tuple[str, ...], tuple[Any, ...], tuple[type, ...]], str] = {}
_JSON_CACHE_LIMIT = 50_000


def _move_json(game: Game[Any], move: Any) -> str:
    found = _MOVE_JSON.get(id(move))
    if found is not None and found[0] is move:
        return found[1]
    text = _ENCODER.encode(game.move_to_dict(move))
    if len(_MOVE_JSON) >= _JSON_CACHE_LIMIT:
        _MOVE_JSON.clear()
    _MOVE_JSON[id(move)] = (move, text)
    return text


def _facts_json(facts: dict[str, Any]) -> str:
    values = tuple(facts.values())
    types = tuple(map(type, values))
    if dict in types:  # a capture's counts: keyed by their keys, values and types too
        values = tuple(
            [
                (tuple(v), tuple(v.values()), tuple(map(type, v.values())))
                if type(v) is dict
                else v
                for v in values
            ]
        )
    key = (tuple(facts), values, types)
    try:
        found = _FACTS_JSON.get(key)
    except TypeError:  # an array, or objects nested deeper
        return _ENCODER.encode(facts)
    if found is None:
        found = _ENCODER.encode(facts)
        if len(_FACTS_JSON) >= _JSON_CACHE_LIMIT:
            _FACTS_JSON.clear()
        _FACTS_JSON[key] = found
    return found


def _json_text(
    record: Record,
    game: Game[Any],
    moves: Mapping[int, tuple[int, Any, dict[str, Any]]],
    texts: Mapping[int, str],
) -> str | None:
    """The JSON line of a record that checked, ``ok`` and ``error`` included: the text
    ``_dumps`` makes of :func:`record_to_json`'s object, byte for byte, put together from
    the texts of its parts (JSON text is the concatenation of its members' texts), with
    the moves' typed data and facts taken from caches.  ``moves`` are
    :attr:`CanonicalSpellings.moves`.

    None, for the general way, when the main line has a variation (nesting) or a move
    the replay did not reach.  Profiled on Tinkertown (199 MB of JSON for 4.1 MB of
    records): encoding the whole object was a third of ``convert --to json``.
    """
    encode = _ENCODER.encode
    encode_string = _encode_string
    move_cache = _MOVE_JSON
    parts: list[str] = []
    append = parts.append
    get_move, get_text = moves.get, texts.get
    for node in record.moves:
        key = id(node)
        known = get_move(key)
        # The nodes' slots, not their properties, which would make four empty lists
        # for nearly every move (profiled).
        if known is None or node._variations:
            return None
        turn, move, facts = known
        text = encode_string(get_text(key, node.text))
        cached = move_cache.get(id(move))  # _move_json, inline
        move_json = cached[1] if cached is not None and cached[0] is move else _move_json(
            game, move
        )
        facts_json = _facts_json(facts)
        nags, before, after = node._nags, node._comments_before, node._comments_after
        if node.suffix or nags or before or after:
            append(
                f'{{"turn": {int.__repr__(turn)}, "text": {text}, '
                f'"suffix": {encode_string(node.suffix)}, "nags": {encode(list(nags or ()))}, '
                f'"move": {move_json}, "facts": {facts_json}, '
                f'"comments_before": {encode(_comments_to_json(before)) if before else "[]"}, '
                f'"comments_after": {encode(_comments_to_json(after)) if after else "[]"}, '
                '"variations": []}'
            )
        else:
            append(plain_move_json(int.__repr__(turn), text, move_json, facts_json))
    return json_line(
        game,
        [(tag.name, tag.value) for tag in record.tags],
        parts,
        record.comments,
        record.result,
        record.comments_after_result,
    )


#: The JSON of a move without suffix, glyph, comment or variation after its turn
#: (``'{"turn": 7'`` comes first), from the texts of its text, typed data and facts.
plain_move_tail = (
    ', "text": {}, "suffix": "", "nags": [], "move": {}, "facts": {}, '
    '"comments_before": [], "comments_after": [], "variations": []}}'
).format


def plain_move_json(turn: str, text: str, move_json: str, facts_json: str) -> str:
    """The JSON of a move without suffix, glyph, comment or variation, from the texts
    of its turn, its text, its typed data and its facts."""
    return '{"turn": ' + turn + plain_move_tail(text, move_json, facts_json)


def json_line(
    game: Game[Any],
    tags: list[tuple[str, str]],
    moves: list[str],
    comments: list[Comment],
    result: str | None,
    comments_after_result: list[Comment],
) -> str:
    """The JSON line of a record that checked, from the texts of its moves: what
    :func:`_dumps` makes of :func:`record_to_json`'s object, ``ok`` and ``error``
    included (see :func:`_json_text`); ``tags`` are (name, value)."""
    encode_string = _encode_string
    pairs = [f"[{encode_string(name)}, {encode_string(value)}]" for name, value in tags]
    return json_line_of_pairs(game, pairs, moves, comments, result, comments_after_result)


def json_line_of_pairs(
    game: Game[Any],
    pairs: list[str],
    moves: list[str],
    comments: list[Comment],
    result: str | None,
    comments_after_result: list[Comment],
) -> str:
    """:func:`json_line`, from the JSON texts of the tags' [name, value] pairs."""
    encode, encode_string = _ENCODER.encode, _encode_string
    line = (
        f'{{"format": {encode_string(JSON_FORMAT_ID)}, "game": {encode_string(game.name)}, '
        f'"tags": [{", ".join(pairs)}], "moves": [{", ".join(moves)}], '
        f'"comments": {encode(_comments_to_json(comments)) if comments else "[]"}, '
        f'"result": {encode(result)}'
    )
    if comments_after_result:
        line += f', "comments_after_result": {encode(_comments_to_json(comments_after_result))}'
    return line + ', "ok": true, "error": null}\n'


def canonical_text(
    record: Record,
    game: Game[Any],
    texts: Mapping[int, str],
    known_layout: tuple[int, int] | None = None,
) -> str:
    """``record`` as canonical text: tags in canonical order, each move in the spelling
    ``texts`` gives for its node (``id(node)``), numbered by the record's layout
    (``known_layout``, when the caller's replay found it: see CanonicalSpellings)."""
    round_size, first_turn = known_layout or _layout(record, game)
    return write_with_tags(record, ordered_tags(record, game), round_size, first_turn, texts)


def verbatim(raw: str, to: str, error: Defect) -> Converted:
    """A broken record passed on byte for byte (in a JSON object for ``json``), line
    ends included: a record that ended its file without a line end has none, and
    whoever writes the next record after it puts one there
    (:func:`notation.writer.record_separator`)."""
    if to == "json":
        obj = {"format": JSON_FORMAT_ID, "raw": raw, "ok": False, "error": error.to_dict()}
        return Converted(jsontext.dumps(obj) + "\n", error, verbatim=True)
    return Converted(raw, error, verbatim=True)


def _spellings(record: Record, game: Game[Any], legal: dict[int, str]) -> dict[int, str]:
    """Canonical spellings for a broken record being repaired: the replay's for the
    moves it reached, the grammar's for the moves after the defect that still parse."""
    texts = dict(legal)
    for node in iter_nodes(record.moves):
        if id(node) not in texts:
            with suppress(MoveSyntaxError):
                texts[id(node)] = str(game.parse(node.text))
    return texts


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
        obj = record_to_json(record, None)
        obj["ok"] = False
        obj["error"] = error.to_dict() if error else None
        return Converted(jsontext.dumps(obj) + "\n", error, repaired=repaired)
    text = write_record(record, 2, first_turn=1) if to == "text" else write_plain(record, 2, 1)
    return Converted(text, error, repaired=repaired)


def write_plain(
    record: Record,
    round_size: int | None = None,
    first_turn: int | None = None,
    *,
    texts: Mapping[int, str] | None = None,
) -> str:
    """Tags and the main line only, for simple tools."""
    texts = texts or {}
    bare = Record(
        tags=record.tags,
        moves=[MoveNode(texts.get(id(node), node.text)) for node in record.moves],
        result=record.result,
    )
    return write_record(bare, round_size, first_turn=first_turn)


# -- JSON --------------------------------------------------------------------------

def _comments_to_json(comments: list[Comment]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in comments:
        item: dict[str, Any] = {"text": c.text, "braced": c.braced}
        if c.after_number:
            item["after_number"] = True
        out.append(item)
    return out


class _JsonMoves(TreeVisitor):
    """Builds the JSON ``moves`` of a record from a walk of its tree."""

    def __init__(
        self, data: Mapping[int, tuple[int, dict[str, Any], dict[str, Any]]],
        texts: Mapping[int, str],
    ) -> None:
        self.data = data
        self.texts = texts
        #: The lines being filled: the main line's moves, then each open variation's.
        self.lines: list[list[dict[str, Any]]] = [[]]

    def visit_move(self, node: MoveNode, turn: int, resumes: str | None) -> None:
        key = id(node)
        known = self.data.get(key)
        before, after = node.comments_before, node.comments_after
        self.lines[-1].append(
            {
                "turn": known[0] if known else turn,
                "text": self.texts.get(key, node.text),
                "suffix": node.suffix,
                "nags": list(node.nags),
                "move": known[1] if known else None,
                "facts": known[2] if known else None,
                # Most moves have no comment: no call for them (profiled).
                "comments_before": _comments_to_json(before) if before else [],
                "comments_after": _comments_to_json(after) if after else [],
                "variations": [],
            }
        )

    def begin_variation(self, variation: Variation, node: MoveNode, turn: int) -> None:
        moves: list[dict[str, Any]] = []
        self.lines[-1][-1]["variations"].append(
            {
                "comments_before": _comments_to_json(variation.comments_before),
                "moves": moves,
                "comments": _comments_to_json(variation.comments),
            }
        )
        self.lines.append(moves)

    def end_variation(self, variation: Variation, node: MoveNode) -> None:
        self.lines.pop()


def record_to_json(
    record: Record,
    game: Game[Any] | None,
    data: Mapping[int, tuple[int, dict[str, Any], dict[str, Any]]] | None = None,
    *,
    texts: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The record as a JSON-ready object.

    ``data`` maps ``id(node)`` to (turn, typed move, facts), as a replay collects
    them; moves without it (after a defect) carry only their text.  ``texts`` maps
    ``id(node)`` to the spelling to write instead of the node's text.  Built with an
    explicit stack: variations nest deeper than recursion allows.
    """
    exporter = _JsonMoves(data or {}, texts or {})
    _, first_turn = _layout(record, game)
    walk_tree(record.moves, exporter, first_turn)
    moves = exporter.lines[0]
    obj: dict[str, Any] = {
        "format": JSON_FORMAT_ID,
        "game": game.name if game is not None else None,
        "tags": [[t.name, t.value] for t in record.tags],
        "moves": moves,
        "comments": _comments_to_json(record.comments),
        "result": record.result,
    }
    if record.comments_after_result:
        obj["comments_after_result"] = _comments_to_json(record.comments_after_result)
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
        reader = _Reader(None, keep_raw=True)
        records = list(reader.run(io.StringIO(raw, newline=""), strip_bom=False))
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
    (``json_errors`` is :func:`read_json_records`'s ``errors``)."""
    require_text_lines(lines, "lines", "lines of text")
    is_json, rest = sniff_json(lines)
    if is_json:
        return read_json_records(rest, source, errors=json_errors)
    return read_records(rest, source, keep_raw=keep_raw)
