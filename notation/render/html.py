"""A self-contained HTML viewer for records: one file, no network, works from ``file://``.

The page holds the records as JSON (:func:`record_data`): for each record its
tags, its start position as :meth:`notation.view.BoardView.to_dict`, and its
tree of moves, every node with the position after it as what changed from the
position before it (:func:`view_delta`): a move changes a few cells, so a
300-turn game stays a few hundred kilobytes where whole views would take
megabytes.  The page's script (``viewer.js``,
inlined) draws a position the way :mod:`notation.render.svg` does and follows
the model of :class:`notation.stepper.Stepper`: a stack of lines (the main line,
then each variation entered), moving forward and back, entering a variation of
the last move in its place and leaving it again.

Positions are computed here, by the game's own engine, so the script needs no
rules; a move that cannot be played is kept with its error and ends its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from notation import jsontext
from notation.errors import Defect
from notation.games.base import Position
from notation.record import Comment, MoveNode, Record, Variation
from notation.replay import ReplayVisitor, replay_tree
from notation.stepper import Stepper, StepperError

__all__ = ["NAG_GLYPHS", "RecordPage", "page_html", "record_data", "view_delta"]

#: The usual meaning of the first glyphs, as the symbols readers know.
NAG_GLYPHS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞"}

_PLACEHOLDER = re.compile(r"/\*(TITLE|CSS|DATA|JS)\*/")


@dataclass(frozen=True, slots=True)
class RecordPage:
    """One record made ready for the page, and whether the rules found it sound."""

    data: dict[str, Any]
    error: Defect | None


def _comments(comments: Iterable[Comment]) -> list[str]:
    return [" ".join(c.text.split()) for c in comments if c.text.strip()]


def view_delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one view dict to the next: the fields that differ, and of
    ``cells`` only the cells that differ (``None`` for a cell that went away)."""
    delta: dict[str, Any] = {}
    for key, value in after.items():
        if key != "cells":
            if before.get(key) != value:
                delta[key] = value
            continue
        old = before.get("cells", {})
        cells: dict[str, Any] = {sq: c for sq, c in value.items() if old.get(sq) != c}
        cells.update((sq, None) for sq in old if sq not in value)
        if cells:
            delta["cells"] = cells
    return delta


class _Line:
    """A line being built: its items, and the views before and after its last move."""

    __slots__ = ("before_last", "out", "previous")

    def __init__(self, previous: dict[str, Any]) -> None:
        self.out: list[dict[str, Any]] = []
        self.previous = previous  # the view after the line's last move so far
        self.before_last = previous  # the view before it: where its variations start


class _Builder(ReplayVisitor):
    """Builds the page's tree of moves from one replay of the record (which goes on
    past a move that cannot be played: that move ends its line only)."""

    def __init__(self, record: Record, start: dict[str, Any]) -> None:
        self.record = record
        self.lines = [_Line(start)]

    @staticmethod
    def _item(node: MoveNode, turn: int) -> dict[str, Any]:
        return {
            "text": node.text,
            "suffix": node.suffix,
            "nags": node.nags,
            "before": _comments(node.comments_before),
            "after": _comments(node.comments_after),
            "turn": turn,
            "variations": [],
        }

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        line = self.lines[-1]
        item = self._item(node, position.turn)
        view = position.board_view().to_dict()
        # Each node keeps only what its move changed (see view_delta).
        item["view"] = view_delta(line.previous, view)
        line.out.append(item)
        line.before_last, line.previous = line.previous, view

    def move_error(self, node: MoveNode, error: Defect) -> None:
        item = self._item(node, error.turn or 0)
        item["error"] = str(error.located(file=self.record.source, record=self.record.index))
        self.lines[-1].out.append(item)

    def begin_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        parent = self.lines[-1]
        # A variation replaces the parent's last move: it starts from the view before it
        # (the parent's last view, when that move could not be played).
        failed = "error" in parent.out[-1]
        inner = _Line(parent.previous if failed else parent.before_last)
        parent.out[-1]["variations"].append(
            {
                "moves": inner.out,
                "before": _comments(variation.comments_before),
                "after": _comments(variation.comments),
            }
        )
        self.lines.append(inner)

    def end_variation(
        self, variation: Variation, node: MoveNode, position: Position[Any]
    ) -> None:
        self.lines.pop()


def record_data(record: Record, default_game: str | None = None) -> RecordPage:
    """``record`` as the page's JSON: tags, start view, tree of moves with their views."""
    data: dict[str, Any] = {
        "index": record.index,
        "source": record.source,
        "tags": [[t.name, t.value] for t in record.tags],
        "result": record.result,
        "after": _comments(record.comments),
    }
    try:
        stepper = Stepper(record, default_game=default_game)
    except StepperError as exc:
        data.update(game=None, error=str(exc.error), fatal=True, moves=[])
        return RecordPage(data, exc.error)
    start = stepper.position.board_view().to_dict()
    builder = _Builder(record, start)
    replay_tree(
        record.moves, stepper.game, stepper.position, builder,
        stop_at_error=False, check_numbers=False,
    )
    moves = builder.lines[0].out
    error = stepper.verdict.error
    data.update(
        game=stepper.game.name,
        title=stepper.game.title,
        roundSize=stepper.position.round_size,
        startTurn=stepper.start_turn,
        start=start,
        moves=moves,
        error=None if error is None else str(error),
        fatal=False,
    )
    return RecordPage(data, error)


def _asset(name: str) -> str:
    return resources.files("notation.render").joinpath(name).read_text(encoding="utf-8")


def _script_json(value: Any) -> str:
    """JSON that cannot end its <script> element: <, > and & are written as escapes."""
    text = jsontext.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def page_html(records: list[dict[str, Any]], title: str) -> str:
    """The whole page for records made by :func:`record_data`."""
    payload = {"records": records, "glyphs": {str(k): v for k, v in NAG_GLYPHS.items()}}
    parts = {
        "TITLE": _escape(title),
        "CSS": _asset("viewer.css"),
        "DATA": _script_json(payload),
        "JS": _asset("viewer.js"),
    }
    # One pass, so that a record's text that happens to spell a placeholder stays text.
    return _PLACEHOLDER.sub(lambda m: parts[m[1]], _asset("viewer.html"))
