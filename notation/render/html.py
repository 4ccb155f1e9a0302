"""A self-contained HTML viewer for records: one file, no network, works from ``file://``.

The page holds the records as JSON, made here by the game's own engine so that the
page's script needs no rules, and kept small (docs/diagrams.md, "How the page is
made"): records come in *chunks*, each a script element the page parses only when one
of its records is shown, with tables its records share (cells, fact strings, *frames*:
what stays the same from one position to the next); a position is a *state* (a frame,
a cell id per square, marks, facts, caption, arrow), and a move keeps only what it
changed from the state before it.  The page's script (``viewer.js``) rebuilds the
states, draws them as :mod:`notation.render.svg` does, and steps through the tree as
:class:`notation.stepper.Stepper` does; a move that cannot be played ends its line.
"""

from __future__ import annotations

import copyreg
import dataclasses
import io
import itertools
import operator
import pickle
import re
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any, TextIO

from notation.collections.workers import (
    POOL_MIN_BYTES,
    collecting_less,
    default_jobs,
    map_in_order,
)
from notation.errors import Defect, display_path
from notation.formats import jsontext
from notation.games.base import Game, Position
from notation.games.view import SPREAD, BoardView, Cell, Token
from notation.record import Comment, MoveNode, MoveNumber, Record, Tag, Variation
from notation.render.legend import legend_entries
from notation.render.palette import THEMES
from notation.render.record_svg import move_ends
from notation.render.svg import pile_overflows
from notation.replay import replay_tree
from notation.stepper import Stepper, StepperError
from notation.visitor import ReplayVisitor, nodes_in_order

__all__ = [
    "CHUNK_RECORDS",
    "NAG_GLYPHS",
    "PagePart",
    "RecordPage",
    "as_chunk",
    "build_chunks",
    "chunk_data",
    "pack_records",
    "page_html",
    "record_data",
    "record_summary",
    "theme_css",
    "write_page",
]

#: The usual meaning of the first glyphs, as the symbols readers know.
NAG_GLYPHS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞"}
#: Records per chunk: enough for its tables to be shared, few enough to spread the
#: work over the workers and to keep a chunk's memory small.
CHUNK_RECORDS = 25

_PLACEHOLDER = re.compile(r"/\*(TITLE|CSS|CHUNKS|DATA|JS)\*/")
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


@dataclass(frozen=True, slots=True)
class RecordPage:
    """One record made ready for the page (``data``: a chunk of it alone, see
    :func:`chunk_data`), and its first defect."""

    data: dict[str, Any]
    error: Defect | None


@dataclass(frozen=True, slots=True)
class PagePart:
    """Records made ready for the page: their JSON, as the page embeds it, what the
    page's index says of each (:func:`record_summary`), and each record's first
    defect (None for a sound record), in order."""

    json: str
    summaries: list[dict[str, Any]]
    errors: list[Defect | None] = field(default_factory=list)

    @property
    def first_tags(self) -> list[tuple[str, str]]:
        """The first record's tags (for the page's title)."""
        tags = self.summaries[0]["tags"] if self.summaries else []
        return [(name, value) for name, value in tags]


def _comments(comments: Iterable[Comment]) -> list[str]:
    return [" ".join(c.text.split()) for c in comments if c.text.strip()]


def _add_comments(
    item: dict[str, Any], before: Iterable[Comment], after: Iterable[Comment]
) -> None:
    """The comments ``before`` and ``after`` into ``item`` (``b``, ``a``), if any."""
    for key, comments in (("b", before), ("a", after)):
        texts = _comments(comments)
        if texts:
            item[key] = texts


# -- the tables of a chunk -------------------------------------------------------------


class _Tables:
    """The cells, fact strings and frames of a chunk, each stored once and named by its
    place."""

    def __init__(self) -> None:
        self.cells: list[list[Any]] = []
        self.cell_ids: dict[tuple[str, tuple[Any, ...], str], int] = {}
        self.strings: list[str] = []
        self.string_ids: dict[str, int] = {}
        #: A fact (label, value) -> the ids of its label and value: a position's facts
        #: are mostly those of positions before it.
        self.fact_ids: dict[tuple[str, str], tuple[int, int]] = {}
        self.frames: list[dict[str, Any]] = []
        self.frame_ids: dict[tuple[Any, ...], int] = {}

    def cell(self, cell: Cell) -> int:
        key = (cell.role, cell.tokens, cell.note)
        found = self.cell_ids.get(key)
        if found is None:
            found = self.cell_ids[key] = len(self.cells)
            self.cells.append([cell.role, [[t.role, t.label] for t in cell.tokens], cell.note])
        return found

    def string(self, text: str) -> int:
        found = self.string_ids.get(text)
        if found is None:
            found = self.string_ids[text] = len(self.strings)
            self.strings.append(text)
        return found

    def facts(self, facts: Iterable[tuple[str, str]]) -> list[int]:
        """The string ids of ``facts``: label, value, label, value..."""
        out: list[int] = []
        get = self.fact_ids.get
        for fact in facts:
            ids = get(fact)
            if ids is None:
                label, value = fact
                ids = self.fact_ids[fact] = (self.string(label), self.string(value))
            out += ids
        return out

    def frame(self, view: BoardView, squares: tuple[str, ...]) -> int:
        key = (
            view.files, view.ranks, squares, tuple(view.palette.items()),
            view.links, view.token_layout,
        )
        found = self.frame_ids.get(key)
        if found is None:
            found = self.frame_ids[key] = len(self.frames)
            frame: dict[str, Any] = {
                "files": list(view.files),
                "ranks": list(view.ranks),
                "squares": list(squares),
                "palette": dict(view.palette),
                "links": [list(link) for link in view.links],
            }
            if view.token_layout != "pile":
                frame["token_layout"] = view.token_layout
            self.frames.append(frame)
        return found


@dataclass(slots=True)
class _State:
    """A position as the page keeps it, with the objects it came from (to compare the
    next view with, cheaply: a game usually hands out the same objects again)."""

    view: BoardView
    frame: int
    squares: tuple[str, ...]
    cells: list[Cell]
    ids: list[int]
    #: The facts as string ids: label, value, label, value...
    facts: list[int]


class _Recorder:
    """Turns board views into states and deltas, for one record."""

    def __init__(self, tables: _Tables) -> None:
        self.tables = tables
        self.used: set[int] = set()  # cell ids of the record: its legend
        self.frames: dict[int, BoardView] = {}  # a view of each frame used: the legend
        self.arrow = self.ring = self.marked = False

    def state(
        self, view: BoardView, before: _State | None, arrow: tuple[str, str] | None
    ) -> tuple[_State, dict[str, Any]]:
        """The state of ``view``, and what changed from ``before`` (everything when
        ``before`` is None or of another frame)."""
        squares = tuple(view.cells)
        frame = self.tables.frame(view, squares)
        self.frames.setdefault(frame, view)
        cells = list(view.cells.values())
        tables = self.tables
        out: dict[str, Any] = {}
        if before is None or frame != before.frame:
            ids = [tables.cell(c) for c in cells]
            self.used.update(ids)
            out["F"] = frame
            out["c"] = ids
        else:
            ids = before.ids
            changed: list[int] = []
            old = before.cells
            # A game that shares its cells between positions hands out the same object
            # for a square that did not change: only the others are compared.
            for i in itertools.compress(range(len(cells)), map(operator.is_not, cells, old)):
                cell, previous = cells[i], old[i]
                # Field by field: quicker than the dataclass's ==, which builds tuples.
                if (
                    cell.tokens == previous.tokens and cell.role == previous.role
                    and cell.note == previous.note
                ):
                    continue
                if not changed:
                    ids = list(ids)  # the state before keeps its own
                ids[i] = number = tables.cell(cell)
                self.used.add(number)
                changed += (i, number)
            if changed:
                out["c"] = changed
        facts = tables.facts(view.facts)
        same = before if before is not None and frame == before.frame else None
        if same is None or view.marks != same.view.marks:
            out["m"] = list(view.marks)
        if same is None or len(facts) != len(same.facts) or facts[::2] != same.facts[::2]:
            out["f"] = facts  # other labels: all of them
        elif facts != same.facts:
            # The same labels: the values that changed, as (place, value) pairs.
            out["g"] = [
                x for i in range(1, len(facts), 2) if facts[i] != same.facts[i]
                for x in (i, facts[i])
            ]
        if same is None or view.caption != same.view.caption:
            out["k"] = view.caption
        if arrow is not None:
            out["a"] = [view.marks.index(arrow[0]), view.marks.index(arrow[1])]
            self.arrow = True
        if view.marks:
            self.marked = True
        if set(view.marks) - set(arrow or ()):
            self.ring = True
        return _State(view, frame, squares, cells, ids, facts), out

    def legend(self) -> list[list[str]]:
        """The legend of every picture of the record: the cells it ever shows."""
        table = self.tables.cells
        used = {
            str(i): Cell(str(i), table[i][0], tuple(Token(r, lab) for r, lab in table[i][1]),
                         table[i][2])
            for i in sorted(self.used)
        }
        # The views of the frames with every cell the record shows, and marks if any
        # position has them.
        marks = ("",) if self.marked else ()
        views = [replace(view, cells=used, marks=marks) for view in self.frames.values()]
        spread = any(v.token_layout == SPREAD for v in views)
        more = not spread and any(
            pile_overflows(len(c.tokens)) for c in used.values() if c.role != "off"
        )
        entries = legend_entries(views, arrow=self.arrow, ring=self.ring, more=more)
        return [entry.to_list() for entry in entries]


# -- a record's tree of moves ------------------------------------------------------------


class _Line:
    """A line being built: its items, and the states before and after its last move."""

    __slots__ = ("before_last", "node", "out", "previous")

    def __init__(self, previous: _State) -> None:
        self.out: list[dict[str, Any]] = []
        self.node: MoveNode | None = None  # the move of the last item
        self.previous = previous  # the state after the line's last move so far
        self.before_last = previous  # the state before it: where its variations start


class _Builder(ReplayVisitor[None]):
    """Builds the page's tree of moves from one replay of the record (which goes on
    past a move that cannot be played: that move ends its line only)."""

    def __init__(self, record: Record, game: Game[Any], recorder: _Recorder, start: _State):
        self.record = record
        self.game = game
        self.recorder = recorder
        self.main = _Line(start)
        self.lines: list[_Line | None] = [self.main]  # None: a line not replayed
        # The record's nodes in the order the replay tells their moves; per open line,
        # its last node told and how many of that node's variations were opened.
        self.nodes = nodes_in_order(record.moves)
        self.told: list[list[Any]] = [[None, 0]]

    @staticmethod
    def _item(node: MoveNode) -> dict[str, Any]:
        # Only what a move has: most moves have no suffix, glyph, comment or variation.
        item: dict[str, Any] = {"t": node.text}
        if node.suffix:
            item["s"] = node.suffix
        if node.nags:
            item["n"] = list(node.nags)
        _add_comments(item, node.comments_before, node.comments_after)
        return item

    def visit_move(
        self, text: str, suffix: str, number: MoveNumber | None, line: int, column: int
    ) -> None:
        self.told[-1] = [next(self.nodes), 0]

    def after_move(self, move: Any, position: Position[Any]) -> None:
        node: MoveNode = self.told[-1][0]
        line = self.lines[-1]
        assert line is not None  # the replay plays no move of a line it does not replay
        item = self._item(node)
        view = position.board_view()
        # Where the move went, from its canonical form (a short form may leave out where
        # it came from): what the position before it would make of it, asked without
        # taking the move back (the replay plays each move once).
        ends = move_ends(self.game, position.last_move_canonical(), None)
        marks = view.marks
        arrow = ends if ends is not None and ends[0] in marks and ends[1] in marks else None
        state, delta = self.recorder.state(view, line.previous, arrow)
        item["d"] = delta
        line.out.append(item)
        line.node = node
        line.before_last, line.previous = line.previous, state

    def move_error(self, error: Defect) -> None:
        node: MoveNode = self.told[-1][0]
        item = self._item(node)
        item["e"] = str(error.located(file=self.record.source, record=self.record.index))
        line = self.lines[-1]
        assert line is not None
        line.out.append(item)
        line.node = node

    def begin_variation(self, line: int, column: int) -> None:
        told = self.told[-1]
        node: MoveNode = told[0]
        variation = node.variations[told[1]]
        told[1] += 1
        self.told.append([None, 0])
        parent = self.lines[-1]
        if parent is None or parent.node is not node:
            # A variation of a move after one that could not be played: not replayed.
            self.lines.append(None)
            return
        # A variation replaces the parent's last move: it starts from the state before
        # it (the parent's last state, when that move could not be played).
        failed = "e" in parent.out[-1]
        inner = _Line(parent.previous if failed else parent.before_last)
        entry: dict[str, Any] = {"m": inner.out}
        _add_comments(entry, variation.comments_before, variation.comments)
        parent.out[-1].setdefault("v", []).append(entry)
        self.lines.append(inner)

    def end_variation(self) -> None:
        self.told.pop()
        self.lines.pop()


def _record(record: Record, tables: _Tables, default_game: str | None) -> tuple[
    dict[str, Any], Defect | None
]:
    data: dict[str, Any] = {
        "index": record.index,
        "source": None if record.source is None else display_path(record.source),
        "tags": [[t.name, t.value] for t in record.tags],
        "result": record.result,
        "after": _comments(record.comments),
    }
    try:
        stepper = Stepper(record, default_game=default_game)
    except StepperError as exc:
        data.update(game=None, error=str(exc.error), fatal=True, moves=[])
        return data, exc.error
    recorder = _Recorder(tables)
    start, start_data = recorder.state(stepper.cursor.position.board_view(), None, None)
    builder = _Builder(record, stepper.game, recorder, start)
    replay_tree(
        record.moves, stepper.game, stepper.cursor.position, builder,
        stop_at_error=False, check_numbers=False,
    )
    error = stepper.verdict.error
    data.update(
        game=stepper.game.name,
        title=stepper.game.title,
        roundSize=stepper.cursor.position.round_size,
        startTurn=stepper.start_turn,
        start=start_data,
        moves=builder.main.out,
        legend=recorder.legend(),
        error=None if error is None else str(error),
        fatal=False,
    )
    return data, error


def chunk_data(
    records: Iterable[Record], default_game: str | None = None
) -> tuple[dict[str, Any], list[Defect | None]]:
    """A chunk of the page's data: ``records`` with the tables they share, and each
    record's first defect (None for a sound one)."""
    tables = _Tables()
    out: list[dict[str, Any]] = []
    errors: list[Defect | None] = []
    for record in records:
        data, error = _record(record, tables, default_game)
        out.append(data)
        errors.append(error)
    chunk = {"cells": tables.cells, "strings": tables.strings, "frames": tables.frames,
             "records": out}
    return chunk, errors


def record_data(record: Record, default_game: str | None = None) -> RecordPage:
    """``record`` as a chunk of its own (see :func:`chunk_data`), and its first defect."""
    chunk, errors = chunk_data([record], default_game)
    return RecordPage(chunk, errors[0])


#: What the page's index keeps of a record: enough for the record chooser, the
#: title and the error, without parsing the record's chunk.
_SUMMARY = ("index", "source", "tags", "game", "fatal", "error")


def record_summary(data: Mapping[str, Any]) -> dict[str, Any]:
    """The page index's entry for a record of a chunk (see :func:`chunk_data`)."""
    return {key: data.get(key) for key in _SUMMARY}


def _make_chunk(records: list[Record], default_game: str | None) -> PagePart:
    data, errors = chunk_data(records, default_game)
    return PagePart(_script_json(data), [record_summary(r) for r in data["records"]], errors)


def as_chunk(data: Mapping[str, Any]) -> PagePart:
    """A chunk made by :func:`chunk_data` (or a :class:`RecordPage`'s ``data``), ready
    for :func:`write_page`."""
    return PagePart(_script_json(data), [record_summary(r) for r in data["records"]])


# -- many records, in parallel --------------------------------------------------------------


def _groups(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    it = iter(records)
    return iter(lambda: list(itertools.islice(it, size)), [])


#: How the records of a chunk go to a worker: each class of the record tree as its
#: constructor and its fields' values (where those are all of its state), which pickle
#: does in C, not field by field in Python.
_REDUCERS: dict[type, Callable[[Any], Any]] = dict(copyreg.dispatch_table)


def _reducer(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    values = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))
    return lambda obj: (cls, values(obj))


for _cls in (Comment, MoveNumber, MoveNode, Variation, Tag, Record):
    _names = tuple(f.name for f in dataclasses.fields(_cls))
    if (
        len(_names) > 1
        and all(f.init for f in dataclasses.fields(_cls))
        and getattr(_cls, "__slots__", None) == _names
        and not hasattr(_cls, "__post_init__")
    ):
        _REDUCERS[_cls] = _reducer(_cls)


def pack_records(records: list[Record]) -> bytes:
    """``records`` pickled for a worker (:func:`pickle.loads` gives them back, equal
    field for field)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(records)
    return buffer.getvalue()


def _packed_chunk(work: tuple[bytes, str | None]) -> PagePart:
    """A chunk made in a worker, from :func:`pack_records`."""
    packed, default_game = work
    records: list[Record] = pickle.loads(packed)
    return _make_chunk(records, default_game)


def build_chunks(
    records: Iterable[Record],
    default_game: str | None = None,
    *,
    jobs: int | None = None,
    size: int = CHUNK_RECORDS,
) -> Generator[PagePart, None, None]:
    """The page's chunks for ``records``, in order, the same whatever ``jobs``
    (processes; None: one per free core; a single chunk is always made here).
    Streamed: a few chunks per worker at a time, the workers stopped however the
    iteration ends (:func:`notation.collections.workers.map_in_order`)."""
    groups = _groups(records, size)
    with collecting_less():
        first = next(groups, None)
        if first is None:
            return
        second = next(groups, None)
        # Two chunks are enough for workers: a chunk's work is a check of a far bigger file.
        workers = default_jobs(POOL_MIN_BYTES) if jobs is None else max(1, jobs)
        every = itertools.chain((first,), () if second is None else (second,), groups)
        if second is None or workers == 1:
            for group in every:
                yield _make_chunk(group, default_game)
            return
        work = ((pack_records(group), default_game) for group in every)
        yield from map_in_order(_packed_chunk, work, workers)


# -- the page -----------------------------------------------------------------------------


def _asset(name: str) -> str:
    return resources.files("notation.render").joinpath(name).read_text(encoding="utf-8")


def _script_json(value: Any) -> str:
    """JSON that cannot end its <script> element: <, > and & are written as escapes."""
    text = jsontext.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def theme_css(themes: Mapping[str, Mapping[str, str]] = THEMES) -> str:
    """The page's colours as CSS variables: the light theme, and the dark one where
    the system asks for it (``prefers-color-scheme``)."""

    def block(colours: Mapping[str, str]) -> str:
        return "".join(f"  --{name}: {value};\n" for name, value in colours.items())

    return (
        f":root {{\n  color-scheme: light dark;\n{block(themes['light'])}}}\n"
        f"@media (prefers-color-scheme: dark) {{\n:root {{\n{block(themes['dark'])}}}\n}}\n"
    )


def _compact(text: str, comment: str) -> str:
    """A script or style sheet without its indentation, blank lines and whole-line
    comments (``comment`` starts one)."""
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith(comment)) + "\n"


def _page_parts(title: str) -> tuple[str, str, str]:
    """The page before its chunks, between them and its index, and after the index."""
    parts = {
        "TITLE": _escape(title),
        "CSS": theme_css() + _compact(_CSS_COMMENT.sub("", _asset("viewer.css")), "/*"),
        "CHUNKS": "\0",
        "DATA": "\0",
        "JS": _compact(_asset("viewer.js"), "//"),
    }
    # One pass, so that a title that happens to spell a placeholder stays text.
    page = _PLACEHOLDER.sub(lambda m: parts[m[1]], _asset("viewer.html"))
    head, middle, tail = page.split("\0")
    return head, middle, tail


def write_page(out: TextIO, chunks: Iterable[PagePart], title: str) -> None:
    """Write the page to ``out``: each chunk in a ``<script type="application/json"
    class="notation-chunk">`` element of its own, as it comes, then the index of the
    records.  The page parses a chunk only when one of its records is shown, so
    that a page of thousands of records opens quickly and stays light."""
    head, middle, tail = _page_parts(title)
    out.write(head)
    index: list[dict[str, Any]] = []
    for number, chunk in enumerate(chunks):
        out.write('<script type="application/json" class="notation-chunk">')
        out.write(chunk.json)
        out.write("</script>\n")
        for at, summary in enumerate(chunk.summaries):
            index.append({**summary, "chunk": number, "at": at})
    out.write(middle)
    glyphs = {str(k): v for k, v in NAG_GLYPHS.items()}
    out.write(_script_json({"version": 3, "glyphs": glyphs, "records": index}))
    out.write(tail)


def page_html(chunks: Iterable[Mapping[str, Any] | PagePart], title: str) -> str:
    """The whole page for chunks made by :func:`chunk_data` or :func:`record_data`
    (their ``data``), or :class:`PagePart` s."""
    out = io.StringIO()
    write_page(out, (c if isinstance(c, PagePart) else as_chunk(c) for c in chunks), title)
    return out.getvalue()
