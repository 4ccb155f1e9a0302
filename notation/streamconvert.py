"""The streaming convert and annotate: record text in, converted text out, the plain
records without a tree.

:func:`~notation.convert.convert_record` and :func:`~notation.annotate.annotate_record`
take a record's tree, which the reader built in full, replay it, and write it.  A
record of the plain shape (tag lines, a blank line, moves and move numbers one space
apart, the result; see :class:`notation.streamcheck.PlainRecords`) needs none of that:
its moves are pushed as they are read, as ``notation check`` does, their canonical
spellings (and, for JSON, their data and facts; for annotate, their comments) kept
in lists, and the record written from the lists once its result is read.  Every
other record, and every record that does not check, goes to the reader and the tree
path, so that what comes out is byte for byte what the tree path makes of it:
tests/test_streamconvert.py holds the two paths to that on every bundled record,
generated and mutated ones, in every format.

What is written about a move is mostly the same text again (a corpus has a few
thousand distinct moves with their facts, and fewer comments), so it is kept by a
key the game gives cheaply: a move's JSON after its turn by the move, its spelling
and :meth:`~notation.games.base.Position.last_move_facts_key`; an annotation comment
by :meth:`~notation.games.base.Position.annotations_key`.  A game without keys (the
default) gets the same text the long way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

from notation.annotate import AnnotateOptions, annotate_record, comment_text, termination
from notation.convert import (
    FORMATS,
    Converted,
    _encode_string,
    _facts_json,
    _move_json,
    convert_record,
    json_line_of_pairs,
    order_tags,
    plain_move_tail,
    read_any_records,
    sniff_json,
)
from notation.games.base import Game, Position
from notation.reader import _Reader
from notation.record import Tag
from notation.streamcheck import PlainRecords
from notation.writer import write_main_line

__all__ = ["annotate_lines", "convert_lines"]


def convert_lines(
    lines: Iterable[str],
    source: str | None = None,
    to: str = "text",
    default_game: str | None = None,
) -> Iterator[Converted]:
    """``convert_record(record, to, default_game)`` for each record of
    ``read_records(lines, source, keep_raw=True)``: the same texts and errors, most
    records never made a tree.  ``ValueError`` for an unknown format."""
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}; choose one of {', '.join(FORMATS)}")
    return _Converter(source, default_game, to).run(iter(lines), 1)


def annotate_lines(
    lines: Iterable[str],
    source: str | None = None,
    options: AnnotateOptions | None = None,
    default_game: str | None = None,
) -> Iterator[Converted]:
    """``annotate_record(record, options, default_game)`` for each record that
    ``read_any_records(lines, source, keep_raw=True)`` reads (record text or JSON
    Lines, told apart by content): the same texts and errors.  Plain records are
    annotated without a tree, unless ``options`` ask for diagrams or an analysis."""
    options = options or AnnotateOptions()
    is_json, rest = sniff_json(lines)
    if is_json or options != AnnotateOptions():
        # JSON Lines, and the options the fast path has not learnt: every record by
        # the tree path.
        for record in read_any_records(rest, source, keep_raw=True):
            yield annotate_record(record, options, default_game)
        return
    yield from _Converter(source, default_game, "annotate").run(rest, 1)


#: The text of canonical moves, by the move object: a game hands out the same objects
#: for the same move (parsed ones are shared, one per token), a few thousand in a
#: corpus.  The entry keeps its move, so that an id is not reused while cached.
_SPELLINGS: dict[int, tuple[Any, str]] = {}
#: The order of a record's tags, by the game and the tags' names: see _ordered.
_ORDERS: dict[tuple[str, tuple[str, ...]], list[int]] = {}
_CACHE_LIMIT = 50_000


#: The JSON of a move after its turn (see plain_move_tail), by the ids of the move
#: pushed and of its canonical spelling and by the key of its facts
#: (``Position.last_move_facts_key``); the entry keeps the two objects.  A corpus
#: repeats a few thousand.
_TAILS: dict[tuple[int, int, Hashable], tuple[Any, Any, str]] = {}


def _tail(
    game: Game[Any], move: Any, spelling: Any, key: Hashable | None, facts: dict[str, Any]
) -> str:
    """The JSON of a move after its turn, kept in _TAILS by its ``key`` (None: not kept)."""
    text = plain_move_tail(
        _encode_string(str(spelling)), _move_json(game, move), _facts_json(facts)
    )
    if key is None:
        return text
    if len(_TAILS) >= _CACHE_LIMIT:
        _TAILS.clear()
    _TAILS[id(move), id(spelling), key] = (move, spelling, text)
    return text


#: ``_HEADS[t]``: the text before the rest of the JSON of the move of turn ``t``
#: but the first of its record: the separator and the turn.
_HEADS: list[str] = []
_HEADS_LIMIT = 10_000


def _moves_json(tails: list[str], first_turn: int) -> str:
    """The JSON texts of a record's moves, one after the other with their separators,
    from their ``tails`` (see _TAILS) and the turn of the first: joined once, without
    a text made for each move."""
    end = first_turn + len(tails)
    if end <= _HEADS_LIMIT:
        if end > len(_HEADS):
            _HEADS.extend(f', {{"turn": {turn}' for turn in range(len(_HEADS), _HEADS_LIMIT))
        heads = _HEADS[first_turn:end]
    else:  # turns past the table: a record from a late position
        heads = [f', {{"turn": {turn}' for turn in range(first_turn, end)]
    if not heads:
        return ""
    heads[0] = heads[0][2:]  # no separator before the first
    parts: list[str] = [""] * (2 * len(tails))
    parts[0::2] = heads
    parts[1::2] = tails
    return "".join(parts)


#: The comment annotate writes after a move (None: none), by the game and the key of
#: the annotations (``Position.annotations_key``); a game's cache starts again when
#: full.
_COMMENTS: dict[str, dict[Hashable, str | None]] = {}
_UNKNOWN: Any = object()


def _spelled(move: Any) -> str:
    """``str(move)``, from _SPELLINGS where it is kept, else kept there."""
    found = _SPELLINGS.get(id(move))
    if found is not None and found[0] is move:
        return found[1]
    text = str(move)
    if len(_SPELLINGS) >= _CACHE_LIMIT:
        _SPELLINGS.clear()
    _SPELLINGS[id(move)] = (move, text)
    return text


def _spellings(moves: list[Any]) -> list[str]:
    """The texts of canonical ``moves``, each from _SPELLINGS where it is kept (_spelled,
    with its look-up inline: a call for each move only for one not met before)."""
    get = _SPELLINGS.get
    return [
        found[1] if (found := get(id(move))) is not None and found[0] is move else _spelled(move)
        for move in moves
    ]


def _tag_lines(lines: list[str]) -> tuple[list[str], list[str]]:
    """The tag lines of a plain record (without their line ends) and the tags' names,
    from its ``lines`` as :meth:`PlainRecords._closed` has them.  Each matched the
    reader's pattern of a tag line as it was read, ``[Name "value"]`` with no quote or
    backslash in the value: as the writer writes it, and easily taken apart."""
    tag_lines, names = [], []
    for line in lines:
        if line[:1] != "[":
            break
        tag_lines.append(line.rstrip("\r\n"))
        names.append(line[1 : line.index(' "')])
    return tag_lines, names


def _json_line(game: Game[Any], lines: list[str], moves: str, result: str) -> str:
    """The JSON line of a plain record that checked, from its ``lines`` (see
    _tag_lines) and the JSON text of its ``moves``: each tag line read once, into
    its name and the JSON text of its [name, value] pair, and put between the texts
    that every record of the game with this result has around them (_JSON_ENDS)."""
    names, pairs = [], []
    get = _JSON_TAGS.get
    for line in lines:
        if line[:1] != "[":
            break
        found = get(line)
        if found is None:
            found = _json_tag(line)
        names.append(found[0])
        pairs.append(found[1])
    ends = _JSON_ENDS.get((game.name, result))
    if ends is None:
        ends = _json_ends(game, result)
    head, middle, tail = ends
    ordered = [pairs[i] for i in _order(names, game)]
    ordered.insert(0, head)
    return ", ".join(ordered) + middle + moves + tail


#: What json_line_of_pairs writes around a plain record's tags and moves, by the game
#: and the result: up to the Game tag's pair, between the last tag and the moves,
#: after the moves (profiled: a tenth of the time of short records, made for each).
_JSON_ENDS: dict[tuple[str, str], tuple[str, str, str]] = {}


def _json_ends(game: Game[Any], result: str) -> tuple[str, str, str]:
    # Made by json_line_of_pairs itself, with markers where the other tags and the
    # moves go, so that the two can never disagree.
    game_pair = f'["Game", {_encode_string(game.name)}]'  # what order_tags puts first
    line = json_line_of_pairs(game, [game_pair, "\x01"], ["\x00"], [], result, [])
    tags_end, moves_at = line.index("\x01"), line.index("\x00")
    ends = (line[: tags_end - 2], line[tags_end + 1 : moves_at], line[moves_at + 1 :])
    _JSON_ENDS[game.name, result] = ends  # a few: the games by the four results
    return ends


#: A tag line's name and the JSON text of its [name, value] pair, by the line as read:
#: the records of a file repeat most of their tag lines (the event, the players), and
#: those come back at once after the cache starts again; the others (a round, a
#: source) would only fill it, so it is small.
_JSON_TAGS: dict[str, tuple[str, str]] = {}
_JSON_TAGS_LIMIT = 4096


def _json_tag(line: str) -> tuple[str, str]:
    tag = line.rstrip("\r\n")
    space = tag.index(' "')
    name = tag[1:space]
    found = (name, f"[{_encode_string(name)}, {_encode_string(tag[space + 2 : -2])}]")
    if len(_JSON_TAGS) >= _JSON_TAGS_LIMIT:
        _JSON_TAGS.clear()
    _JSON_TAGS[line] = found
    return found


def _order(names: list[str], game: Game[Any]) -> list[int]:
    """:func:`~notation.convert.order_tags` of tags with these ``names``, as the places
    of the tags that follow the Game tag it puts first (the game's own name).  The
    order depends on the names alone, which the records of a file repeat, so it is
    found once per set of names (by ordering tags whose values are their places)."""
    key = (game.name, tuple(names))
    order = _ORDERS.get(key)
    if order is None:
        placed = order_tags([Tag(name, str(index)) for index, name in enumerate(names)], game)
        # The first is the Game tag order_tags makes (the game's name); the others are
        # the tags given.
        order = [int(tag.value) for tag in placed[1:]]
        if len(_ORDERS) >= _CACHE_LIMIT:
            _ORDERS.clear()
        _ORDERS[key] = order
    return order


class _Converter(PlainRecords[Converted]):
    """The fast path of :func:`convert_lines` (``to``: a format) and of
    :func:`annotate_lines` (``to``: "annotate", with the default options)."""

    def __init__(self, source: str | None, default_game: str | None, to: str) -> None:
        super().__init__(source, default_game)
        self.to = to
        #: What the moves of the record being read left: their canonical spellings
        #: (their JSON for "json"), and for annotate each one's comment or None.
        self.moves: list[str] = []
        self.notes: list[str | None] = []
        #: Whether the spellings of the record being read are asked for at its end
        #: (Position.last_moves_canonical) rather than after each push.
        self.spell_at_close = False

    def _begin(
        self, game: Game[Any], position: Position[Any]
    ) -> Callable[[Any], None] | None:
        moves: list[str] = []
        self.moves = moves
        add = moves.append
        canonical = position.last_move_canonical
        if self.to == "json":
            self.spell_at_close = False  # the JSON of a move wants its facts as pushed
            facts, facts_key = position.last_move_facts, position.last_move_facts_key
            get_tail = _TAILS.get

            def pushed(move: Any) -> None:
                # CanonicalSpellings and _json_text, for one move: all but its turn
                # from _TAILS, by the move, its spelling and the key of its facts.
                spelling = canonical()
                key = facts_key()
                # An entry keeps its two objects alive, so no other object has their
                # ids while it is kept: an entry found is theirs.
                found = None if key is None else get_tail((id(move), id(spelling), key))
                if found is None:
                    add(_tail(game, move, spelling, key, facts()))
                else:
                    add(found[2])  # the turns go in when the record is written (_moves_json)

            return pushed
        # The spellings: of the whole line once it is read, where the game can tell
        # them from its history (_closed), else after each push.
        self.spell_at_close = position.last_moves_canonical(0) is not None
        if self.to == "annotate":
            notes: list[str | None] = []
            self.notes = notes
            note = notes.append
            annotations, annotations_key = position.annotations, position.annotations_key
            comments = _COMMENTS.setdefault(game.name, {})
            get_comment = comments.get
            spell = None if self.spell_at_close else self._spell(canonical, add)

            def annotated(move: Any) -> None:
                # _Annotator.after_move, for a move without comments and no options:
                # the comment by the key of the annotations, where the game has one.
                if spell is not None:
                    spell(move)
                key = annotations_key()
                if key is None:
                    note(comment_text(annotations()))
                else:
                    comment = get_comment(key, _UNKNOWN)
                    if comment is _UNKNOWN:
                        if len(comments) >= _CACHE_LIMIT:
                            comments.clear()
                        comment = comments[key] = comment_text(annotations())
                    note(comment)

            return annotated
        return None if self.spell_at_close else self._spell(canonical, add)

    @staticmethod
    def _spell(canonical: Callable[[], Any], add: Callable[[str], None]) -> Callable[[Any], None]:
        """What to call after each push to add the text of its canonical spelling."""

        def spelled(move: Any) -> None:
            add(_spelled(canonical()))

        return spelled

    def _closed(
        self,
        game: Game[Any],
        lines: list[str],
        position: Position[Any],
        result: str,
        turns: int,
        outcome: str | None,
    ) -> Converted:
        if self.to == "json":
            moves = _moves_json(self.moves, position.turn - turns + 1)
            return Converted(_json_line(game, lines, moves, result), None)
        if self.spell_at_close:
            canonical = position.last_moves_canonical(turns)
            assert canonical is not None  # the game said so as the record began
            self.moves = _spellings(canonical)
        tag_lines, names = _tag_lines(lines)
        if self.to == "annotate":
            # record.set_tag("Termination", ...): the first one changed, or one added.
            ended = f'[Termination "{termination(result, outcome)}"]'
            if "Termination" in names:
                tag_lines[names.index("Termination")] = ended
            else:
                tag_lines.append(ended)
                names.append("Termination")
        ordered = [f'[Game "{game.name}"]', *[tag_lines[i] for i in _order(names, game)]]
        round_size, first_turn = position.round_size, position.turn - turns + 1
        notes = self.notes if self.to == "annotate" else None
        text = write_main_line(ordered, self.moves, notes, result, round_size, first_turn)
        return Converted(text, None)

    def _from_reader(
        self, lines: Iterator[str], start: int, strip_bom: bool
    ) -> Iterator[Converted]:
        reader = _Reader(self.source, True)
        reader.count = self.index
        if self.to == "annotate":
            for record in reader.run(lines, start, strip_bom=strip_bom):
                yield annotate_record(record, None, self.default_game)
        else:
            for record in reader.run(lines, start, strip_bom=strip_bom):
                yield convert_record(record, self.to, self.default_game)
        self.index = reader.count
