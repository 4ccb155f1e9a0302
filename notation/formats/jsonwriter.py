"""The JSON Lines text of a record, written as its events arrive: :class:`JsonWriter`.

One JSON object per record (schema in ``docs/record.schema.json``): its game, its tags,
every move of its tree as ``{"turn", "text", "suffix", "nags", "move", "facts",
"comments_before", "comments_after", "variations"}``, its comments and its result.
A move the game played carries its typed data (``Game.move_to_dict``) and the facts
it produced (``Position.last_move_facts``); one no replay played carries ``null``.

The text is put together from its parts' JSON texts, in the bytes
``json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))`` gives for the object.

>>> from notation.reader import visit_records
>>> from notation.replay import Replay
>>> writer = JsonWriter()
>>> text = '[Game "cave"]\\n\\n1. b1 {in} b5 *\\n'
>>> verdict = next(visit_records(text.splitlines(True), Replay(None, writer)))
>>> line = writer.line(verdict.ok, None)
>>> line[:60]
'{"format": "notation-record/1", "game": "cave", "tags": [["G'
>>> import json
>>> [(move["text"], move["comments_after"]) for move in json.loads(line)["moves"]]
[('b1', [{'text': 'in', 'braced': True}]), ('b5', [])]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from notation.errors import Defect
from notation.games.base import Game
from notation.record import Comment, MoveNode, Record, Tag
from notation.replay import resolve_game
from notation.visitor import Skip, TreeBuildingVisitor, walk_record
from notation.writer import UnwritableRecord, layout

__all__ = ["ENCODER", "JSON_FORMAT_ID", "JsonWriter", "record_json_text"]

#: The ``format`` of every record object.
JSON_FORMAT_ID: Final = "notation-record/1"

#: The encoder of the values the writer does not put together itself (a move's data, its
#: facts, a defect's dict): ``jsontext.dumps``'s text, without the circular reference test.
ENCODER: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(", ", ": "))
_encode = ENCODER.encode
_encode_string: Callable[[str], str] = json.encoder.encode_basestring  # ENCODER's, for a str
_int_text = int.__repr__

#: What follows the facts of a move without glyph, comment or variation.
_BARE_END: Final = ', "comments_before": [], "comments_after": [], "variations": []}'

# JSON texts kept, at most _CACHE_LIMIT of each: a corpus repeats a few thousand moves
# and a few hundred kinds of facts.
_CACHE_LIMIT: Final = 50_000
_PLAYED_JSON: dict[int, tuple[Any, Any, str, str, str]] = {}
_FACTS_JSON: dict[Hashable, str] = {}


def _played_json(game: Game[Any] | None, move: Any, canonical: Any) -> tuple[Any, ...]:
    """``move`` and its ``canonical`` spelling (a game shares its moves, and those:
    nearly always the move itself), the spelling's JSON, the move's typed data's
    (``game.move_to_dict(move)``), and what :func:`_bare_middle` makes of the two.
    Kept by ``id(move)``, the entry holding the move so that its id is not reused."""
    found = _PLAYED_JSON.get(id(move))
    if found is None or found[0] is not move or found[1] is not canonical:
        if found is not None and found[0] is move:
            data = found[3]
        else:
            assert game is not None  # a replay plays only a record of a known game
            data = _encode(game.move_to_dict(move))
        spelled = _encode_string(str(canonical))
        found = (move, canonical, spelled, data, _bare_middle(spelled, data))
        if len(_PLAYED_JSON) >= _CACHE_LIMIT:
            _PLAYED_JSON.clear()
        _PLAYED_JSON[id(move)] = found
    return found


def _facts_json(facts: dict[str, Any]) -> str:
    """The JSON text of a move's facts, kept by their keys, values and the values' types
    (``1`` and ``True`` are equal otherwise), a capture's counts likewise."""
    values = tuple(facts.values())
    types = tuple(map(type, values))
    if dict in types:
        values = tuple([
            (tuple(v), tuple(v.values()), tuple(map(type, v.values()))) if type(v) is dict else v
            for v in values
        ])
    key = (tuple(facts), values, types)
    try:
        found = _FACTS_JSON.get(key)
    except TypeError:  # an array, or objects nested deeper
        return _encode(facts)
    if found is None:
        if len(_FACTS_JSON) >= _CACHE_LIMIT:
            _FACTS_JSON.clear()
        found = _FACTS_JSON[key] = _encode(facts)
    return found


def _bare_middle(spelled: str, data: str) -> str:
    """The JSON between the turn and the facts of a move without suffix or glyph."""
    return f', "text": {spelled}, "suffix": "", "nags": [], "move": {data}, "facts": '


def _json(value: Any) -> str:
    """The JSON text of a str, an int or a bool (anything, in a record built in code)."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is int:
        return _int_text(value)
    return ("false", "true")[value] if kind is bool else _encode(value)


def _comments_json(comments: list[Comment]) -> str:
    """``[{"text", "braced"[, "after_number"]}, ...]``."""
    return "[" + ", ".join([
        f'{{"text": {_json(comment.text)}, "braced": {_json(comment.braced)}'
        + (', "after_number": true}' if comment.after_number else "}")
        for comment in comments
    ]) + "]"


def _node_head(node: MoveNode, turn: Any, text: str, data: str, facts: str) -> str:
    """A move's JSON up to its variations' array (not opened)."""
    bare = node.is_bare
    return (
        f'{{"turn": {_json(turn)}, "text": {text}, "suffix": {_json(node.suffix)}, '
        f'"nags": {"[]" if bare or not node.nags else _encode(list(node.nags))}, '
        f'"move": {data}, "facts": {facts}, "comments_before": '
        f'{_comments_json(node.comments_before) if node.has_comments_before else "[]"}, '
        f'"comments_after": '
        f'{_comments_json(node.comments_after) if node.has_comments_after else "[]"}, '
        '"variations": '
    )


#: A move's turn and the JSON texts of its spelling, typed data and facts.
_Texts = tuple[Any, str, str, str]


class _Line:
    """A line being written (the main line or a variation)."""

    __slots__ = ("held", "started", "turn")

    def __init__(self, turn: int) -> None:
        self.turn = turn  # of its next move, counted from the record's first move (0)
        self.started = False  # a move is written: the next one needs a separator
        #: The line's last move while its variations are written (a glyph may still
        #: follow them): its place in the writer's parts, its node and its texts.
        self.held: tuple[int, MoveNode, _Texts] | None = None


class JsonWriter(TreeBuildingVisitor[str]):
    """The JSON text of each record visited, put together as its events arrive.

    Under a :class:`~notation.replay.Replay` (from text, :func:`notation.reader.visit_records`,
    or from a tree, :func:`~notation.visitor.walk_record`), each move played carries its
    turn, typed data and facts, in its canonical spelling
    (``str(position.last_move_canonical())``; as written with ``canonical=False``).  A
    move no replay played carries its turn, ``null`` data and facts, and its text (or
    ``spell(text)``, when the attribute is set).  :meth:`end_record` gives the record's
    object; :meth:`line` the JSON line of the record visited last, with its verdict.

    ``default_game``: the game of a record without a ``Game`` tag; ``order_tags``: the tags
    in the order to write them, from the record's tags and its game, for example
    :func:`notation.formats.convert.order_tags` (by default the record's order).
    """

    def __init__(self, default_game: str | None = None, *, canonical: bool = True,
                 order_tags: Callable[[list[Tag], Game[Any]], list[Tag]] | None = None) -> None:
        super().__init__()
        self.default_game, self.canonical, self.order_tags = default_game, canonical, order_tags
        self.spell: Callable[[str], str] | None = None
        self.resolve = True  # False: ``game`` is every record's, not found from its tags
        self.game: Game[Any] | None = None
        #: By ``id(node)``, for a tree written as it is (:func:`record_json_text`): the
        #: spelling of a move, and its (turn, typed move, facts).
        self.texts: Mapping[int, str] = {}
        self.data: Mapping[int, tuple[int, Any, Any]] = {}
        self.text = ""
        self.begin_record(Record())

    def begin_record(self, record: Record) -> None:
        super().begin_record(record)
        self.parts: list[str] = []
        self.line_ = _Line(0)
        self.lines = [self.line_]
        self.first_turn: int | None = None  # of the record's first move, when known
        #: The move read last, whose JSON waits for what may follow it (a node, or a
        #: plain move's text), and its texts once played.
        self.pending: MoveNode | None = None
        self.played: _Texts | None = None

    def end_tags(self, record: Record) -> Skip | None:
        if self.resolve:
            found = resolve_game(self.record, self.default_game)
            self.game = found if isinstance(found, Game) else None
        return None

    def visit_start(self, position: Any) -> None:
        self.first_turn = position.turn + 1

    def _first_turn(self) -> int:
        """The turn of the first move, as the writer numbers the record's moves (the
        game's default where its setup tags are refused)."""
        game, record = self.game, self.record
        if self.first_turn is None:
            self.first_turn = 1
            if game is not None:
                try:
                    self.first_turn = layout(record, game.name)[1]
                except UnwritableRecord:
                    self.first_turn = game.new_position().turn + 1
        return self.first_turn

    def node_made(self, pending: MoveNode) -> None:
        """A move of the open line: the one before it is complete."""
        if self.pending is not None:
            self._flush()
        line = self.line_
        if line.held is not None:
            self._release(line)
        if line.started:
            self.parts.append(", ")
        else:
            line.started = True
        self.pending = pending
        line.turn += 1
        self.played = None

    def after_move(self, move: Any, position: Any) -> None:
        node = self.pending
        if node is not None:
            if self.canonical:
                played = _played_json(self.game, move, position.last_move_canonical())
                spelled, data = played[2], played[3]
            else:
                spelled, data = _json(node.text), _played_json(self.game, move, move)[3]
            facts = _facts_json(position.last_move_facts())
            self.played = (position.turn, spelled, data, facts)

    def _texts(self, pending: MoveNode) -> _Texts:
        """The pending move's turn and texts, played or not."""
        if self.played is not None:
            return self.played
        text = self.texts.get(id(pending))
        if text is None:
            text = pending.text
            if self.spell is not None:
                text = self.spell(text)
        known = self.data.get(id(pending))
        if known is not None:
            return known[0], _json(text), _encode(known[1]), _facts_json(known[2])
        turn = self._first_turn() + self.line_.turn - 1  # the pending move is the line's last
        return turn, _json(text), "null", "null"

    def _flush(self) -> None:
        """The pending move, now that nothing more is added to it."""
        pending = self.pending
        assert pending is not None
        self.pending = None
        turn, text, data, facts = self._texts(pending)
        if pending.is_bare and not pending.suffix:
            middle = _bare_middle(text, data)
            self.parts.append(f'{{"turn": {_json(turn)}{middle}{facts}{_BARE_END}')
        else:
            self.parts.append(_node_head(pending, turn, text, data, facts) + "[]}")

    def _release(self, line: _Line) -> None:
        """The line's held move and its variations are all written: its own text."""
        assert line.held is not None
        slot, node, texts = line.held
        self.parts[slot] = _node_head(node, *texts) + "["
        self.parts.append("]}")
        line.held = None

    def begin_variation(self, line: int, column: int) -> None:
        super().begin_variation(line, column)
        variation = self.building[-1].variation
        assert variation is not None
        pending, parts = self.pending, self.parts
        if pending is not None:  # its first variation: the node is held
            self.line_.held = (len(parts), pending, self._texts(pending))
            self.pending = None
            parts.append("")
        else:
            parts.append(", ")
        parts.append(f'{{"comments_before": {_comments_json(variation.comments_before)}, '
                     '"moves": [')
        self.line_ = _Line(self.line_.turn - 1)
        self.lines.append(self.line_)

    def _end_line(self) -> None:
        """The open line is complete: the line around it, if any, is open again."""
        if self.pending is not None:
            self._flush()
        if self.line_.held is not None:
            self._release(self.line_)
        if len(self.lines) > 1:
            self.lines.pop()
            self.line_ = self.lines[-1]

    def end_variation(self) -> None:
        variation = self.building[-1].variation
        super().end_variation()
        assert variation is not None
        self._end_line()
        self.parts.append('], "comments": ' + _comments_json(variation.comments) + "}")

    def end_record(self, record: Record) -> str:
        """The record's JSON object, without ``ok`` and ``error``."""
        while len(self.lines) > 1:  # variations a broken record left open
            self._end_line()
            self.parts.append('], "comments": []}')
        self._end_line()
        record = self.finish(record)
        game, tags, result = self.game, record.tags, record.result
        if game is not None and self.order_tags is not None:
            tags = self.order_tags(tags, game)
        name = None if game is None else game.name
        after = record.comments_after_result
        self.text = "".join([
            f'{{"format": "{JSON_FORMAT_ID}", "game": {_json(name)}, "tags": [',
            ", ".join([f"[{_json(tag.name)}, {_json(tag.value)}]" for tag in tags]),
            '], "moves": [',
            *self.parts,
            f'], "comments": {_comments_json(record.comments)}, "result": {_json(result)}',
            f', "comments_after_result": {_comments_json(after)}' if after else "",
        ])
        self.parts = []
        return self.text + "}"

    def line(self, ok: bool, error: dict[str, Any] | Defect | None) -> str:
        """The JSON line (ending ``"\\n"``) of the record visited last, with its verdict:
        ``ok``, and ``error`` (a :class:`~notation.errors.Defect` or its ``to_dict()``,
        or None)."""
        if isinstance(error, Defect):
            error = error.to_dict()
        verdict = ', "ok": true, "error": ' if ok else ', "ok": false, "error": '
        return "".join((self.text, verdict, _encode(error), "}\n"))


def record_json_text(
    record: Record, game: Game[Any] | None, data: Mapping[int, tuple[int, Any, Any]] | None = None,
    *, texts: Mapping[int, str] | None = None, ok: bool | None = None,
    error: dict[str, Any] | Defect | None = None,
) -> str:
    """The JSON text of ``record``'s tree as it is, its game ``game`` (None: none).

    ``data`` maps ``id(node)`` to (turn, typed move, facts) for the moves that have them
    (others carry ``null``); ``texts`` maps ``id(node)`` to the spelling to write
    instead of the node's text.  Without ``ok``: the object alone (no verdict, no line
    end); with it, the whole JSON line with ``ok`` and ``error``.
    """
    writer = JsonWriter()
    writer.resolve, writer.game, writer.texts, writer.data = False, game, texts or {}, data or {}
    text = walk_record(record, writer)
    return text if ok is None else writer.line(ok, error)
