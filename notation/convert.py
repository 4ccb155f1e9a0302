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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from notation import jsontext
from notation.errors import NotationError, TagValueError
from notation.games.base import Game, Position
from notation.reader import RESULTS, read_records
from notation.record import Comment, MoveNode, Record, Tag, Variation
from notation.replay import ReplayVisitor, check_record, resolve_game, start_position
from notation.writer import canonicalise, write_record

__all__ = [
    "FORMATS",
    "JSON_FORMAT_ID",
    "Converted",
    "convert_record",
    "ordered_tags",
    "read_json_records",
    "record_from_json",
    "record_to_json",
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
    error: NotationError | None
    #: True when the record could not be read in full and was passed on as written.
    verbatim: bool = False


def ordered_tags(record: Record, game: Game[Any]) -> list[Tag]:
    """Tags in canonical order: Game, Event, Site, Date, Round, the players, Result,
    then every other tag in its original order.  A missing Game tag is added."""
    tags = list(record.tags)
    game_tag = record.find_tag("Game")
    if game_tag is not None:
        tags.remove(game_tag)
    head = [Tag("Game", game.name)]  # also normalises the spelling ("Zombie_Kidz")
    for name in (*STANDARD_TAGS, *game.player_tags, "Result"):
        tag = next((t for t in tags if t.name == name), None)
        if tag is not None:
            head.append(tag)
            tags.remove(tag)
    return head + tags


class _CanonicalMoves(ReplayVisitor):
    """Rewrites each legal move in the position's canonical spelling."""

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        node.text = str(position.canonical(move))


class _MoveData(ReplayVisitor):
    """Collects, per node, the turn, the typed move and the facts it produced."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.data: dict[int, tuple[int, dict[str, Any], dict[str, Any]]] = {}

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        self.data[id(node)] = (
            position.turn,
            self.game.move_to_dict(move),
            position.last_move_facts(),
        )


def _layout(record: Record, game: Game[Any] | None) -> tuple[int, int]:
    """(round size, turn of the first move) for writing the record's move numbers."""
    if game is None:
        return 2, 1
    try:
        position = start_position(game, record.tag_dict)
    except TagValueError:
        return 2, 1
    return position.round_size, position.turn + 1


def convert_record(
    record: Record, to: str, default_game: str | None = None
) -> Converted:
    """Convert one record (read with ``keep_raw=True`` to pass broken ones on intact)."""
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}; choose one of {', '.join(FORMATS)}")
    game = resolve_game(record, default_game)
    if isinstance(game, NotationError) or record.error is not None:
        verdict = check_record(record, default_game)
        if record.raw is not None:
            raw = "\n".join(record.raw) + "\n"
            if to == "json":
                raw = jsontext.dumps(
                    {
                        "format": JSON_FORMAT_ID,
                        "raw": raw,
                        "ok": False,
                        "error": verdict.error.to_dict() if verdict.error else None,
                    }
                ) + "\n"
            return Converted(raw, verdict.error, verbatim=True)
        if isinstance(game, NotationError):
            return _convert_without_game(record, to, verdict.error)
    canonicalise(record, game)  # spelling first: also reaches moves after a defect
    verdict = check_record(record, default_game, _CanonicalMoves())
    record.tags = ordered_tags(record, game)
    round_size, first_turn = _layout(record, game)
    if to == "text":
        return Converted(write_record(record, round_size, first_turn=first_turn), verdict.error)
    if to == "plain":
        return Converted(write_plain(record, round_size, first_turn), verdict.error)
    collector = _MoveData(game)
    check_record(record, default_game, collector)
    obj = record_to_json(record, game, collector.data)
    obj["ok"] = verdict.ok
    obj["error"] = verdict.error.to_dict() if verdict.error else None
    return Converted(jsontext.dumps(obj) + "\n", verdict.error)


def _convert_without_game(record: Record, to: str, error: NotationError | None) -> Converted:
    """A record whose game is unknown: the tree as read, moves as written."""
    if to == "text":
        return Converted(write_record(record), error)
    if to == "plain":
        return Converted(write_plain(record), error)
    obj = record_to_json(record, None)
    obj["ok"] = False
    obj["error"] = error.to_dict() if error else None
    return Converted(jsontext.dumps(obj) + "\n", error)


def write_plain(record: Record, round_size: int = 2, first_turn: int = 1) -> str:
    """Tags and the main line only, for simple tools."""
    bare = Record(
        tags=record.tags,
        moves=[MoveNode(node.text) for node in record.moves],
        result=record.result,
    )
    return write_record(bare, round_size, first_turn=first_turn)


# -- JSON --------------------------------------------------------------------------

def _comments_to_json(comments: list[Comment]) -> list[dict[str, Any]]:
    return [{"text": c.text, "braced": c.braced} for c in comments]


def record_to_json(
    record: Record,
    game: Game[Any] | None,
    data: dict[int, tuple[int, dict[str, Any], dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The record as a JSON-ready object.

    ``data`` maps ``id(node)`` to (turn, typed move, facts), as a replay collects
    them; moves without it (after a defect) carry only their text.  Built with an
    explicit stack: variations nest deeper than recursion allows.
    """
    data = data or {}
    _, first_turn = _layout(record, game)
    moves: list[dict[str, Any]] = []
    # Lines still to fill: their nodes, the turn of the first, and the list to fill.
    pending: list[tuple[list[MoveNode], int, list[dict[str, Any]]]] = [
        (record.moves, first_turn, moves)
    ]
    while pending:
        nodes, first, out = pending.pop()
        for turn, node in enumerate(nodes, first):
            variations: list[dict[str, Any]] = []
            for v in node.variations:
                line: list[dict[str, Any]] = []
                variations.append(
                    {
                        "comments_before": _comments_to_json(v.comments_before),
                        "moves": line,
                        "comments": _comments_to_json(v.comments),
                    }
                )
                pending.append((v.nodes, turn, line))
            known = data.get(id(node))
            out.append(
                {
                    "turn": known[0] if known else turn,
                    "text": node.text,
                    "suffix": node.suffix,
                    "nags": list(node.nags),
                    "move": known[1] if known else None,
                    "facts": known[2] if known else None,
                    "comments_before": _comments_to_json(node.comments_before),
                    "comments_after": _comments_to_json(node.comments_after),
                    "variations": variations,
                }
            )
    return {
        "format": JSON_FORMAT_ID,
        "game": game.name if game is not None else None,
        "tags": [[t.name, t.value] for t in record.tags],
        "moves": moves,
        "comments": _comments_to_json(record.comments),
        "result": record.result,
    }


def _items(obj: dict[str, Any], key: str) -> list[Any]:
    value = obj.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"{key!r} must be a list, not {type(value).__name__}")
    return value


def _objects(obj: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = _items(obj, key)
    for item in items:
        if not isinstance(item, dict):
            raise ValueError(f"each item of {key!r} must be an object, not {type(item).__name__}")
    return items


def _comments_from_json(obj: dict[str, Any], key: str) -> list[Comment]:
    return [
        Comment(str(c["text"]), braced=bool(c.get("braced", True))) for c in _objects(obj, key)
    ]


def record_from_json(obj: dict[str, Any]) -> Record:
    """The record a :func:`record_to_json` object describes (``raw`` ones are read as text).

    Raises ``ValueError`` (``KeyError`` for a missing ``text``) for an object that does
    not describe a record.
    """
    if "raw" in obj:
        records = list(read_records(io.StringIO(str(obj["raw"])), keep_raw=True))
        if len(records) != 1:
            raise ValueError("a raw JSON record must hold exactly one record")
        return records[0]
    if obj.get("format") != JSON_FORMAT_ID:
        raise ValueError(f"not a {JSON_FORMAT_ID} object (format: {obj.get('format')!r})")
    result = obj.get("result")
    if result is not None and result not in RESULTS:
        raise ValueError(f"the result must be 1-0, 0-1, 1/2-1/2, * or null, not {result!r}")
    tags: list[Tag] = []
    for pair in _items(obj, "tags"):
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"a tag is a pair [name, value], not {pair!r}")
        tags.append(Tag(str(pair[0]), str(pair[1])))
    record = Record(tags=tags, comments=_comments_from_json(obj, "comments"), result=result)
    # Lines still to read: the JSON moves, and the list of nodes they become.
    pending: list[tuple[list[dict[str, Any]], list[MoveNode]]] = [
        (_objects(obj, "moves"), record.moves)
    ]
    while pending:
        items, nodes = pending.pop()
        for item in items:
            nags = _items(item, "nags")
            if not all(type(n) is int for n in nags):
                raise ValueError(f"glyphs are whole numbers, not {nags!r}")
            node = MoveNode(
                str(item["text"]),
                suffix=str(item.get("suffix", "")),
                nags=nags,
                comments_before=_comments_from_json(item, "comments_before"),
                comments_after=_comments_from_json(item, "comments_after"),
            )
            for v in _objects(item, "variations"):
                variation = Variation(
                    comments=_comments_from_json(v, "comments"),
                    comments_before=_comments_from_json(v, "comments_before"),
                )
                node.variations.append(variation)
                pending.append((_objects(v, "moves"), variation.nodes))
            nodes.append(node)
    return record


def read_json_records(lines: Iterable[str], source: str | None = None) -> Iterator[Record]:
    """Records from JSON Lines (one object per line; blank lines are skipped).

    Raises ``ValueError`` naming the line for a line that is not a record object.
    """
    count = 0
    for number, line in enumerate(lines, 1):
        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark, as the record reader skips
        if not line.strip():
            continue
        count += 1
        try:
            obj = jsontext.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{source or '<input>'}:{number}: not JSON: {exc.msg}") from None
        except ValueError as exc:  # a number of thousands of digits
            raise ValueError(f"{source or '<input>'}:{number}: not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise ValueError(f"{source or '<input>'}:{number}: not a JSON object")
        try:
            record = record_from_json(obj)
        except KeyError as exc:
            raise ValueError(f"{source or '<input>'}:{number}: the key {exc} is missing") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source or '<input>'}:{number}: {exc}") from None
        record.source = source
        record.index = count
        record.first_line = record.last_line = number
        yield record

