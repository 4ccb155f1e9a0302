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
from notation.errors import ErrorKind, IllegalMoveError, MoveSyntaxError, NotationError
from notation.games.base import Game, Position
from notation.record import Comment, MoveNode, Record
from notation.stepper import Stepper, StepperError

__all__ = ["NAG_GLYPHS", "RecordPage", "page_html", "record_data", "view_delta"]

#: The usual meaning of the first glyphs, as the symbols readers know.
NAG_GLYPHS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞"}

_PLACEHOLDER = re.compile(r"/\*(TITLE|CSS|DATA|JS)\*/")


@dataclass(frozen=True, slots=True)
class RecordPage:
    """One record made ready for the page, and whether the rules found it sound."""

    data: dict[str, Any]
    error: NotationError | None


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


class _Open:
    """A line being built: its nodes, how far it got, and the view before the next node."""

    __slots__ = ("index", "item", "nodes", "out", "previous", "pushed")

    def __init__(self, nodes: list[MoveNode], previous: dict[str, Any]) -> None:
        self.nodes = nodes
        self.previous = previous
        self.index = 0
        self.pushed = 0
        self.out: list[dict[str, Any]] = []
        #: The node being built while its variations are (None between nodes).
        self.item: dict[str, Any] | None = None


class _Builder:
    """Walks a record's tree with the game's position, pushing and popping."""

    def __init__(self, record: Record, game: Game[Any], position: Position[Any]) -> None:
        self.record = record
        self.game = game
        self.position = position

    def view(self) -> dict[str, Any]:
        return self.position.board_view().to_dict()

    def line(self, nodes: list[MoveNode], before: dict[str, Any]) -> list[dict[str, Any]]:
        """The nodes of one line and of its variations; the position is left as it was found.

        ``before`` is the view of the position the line starts from: each node
        keeps only what its move changed (see :func:`view_delta`).  Depth first with
        an explicit stack, since variations nest deeper than recursion allows.
        """
        top = _Open(nodes, before)
        stack = [top]
        while stack:
            line = stack[-1]
            if line.item is not None:  # the variations of the node at line.index
                node = line.nodes[line.index]
                if len(line.item["variations"]) < len(node.variations):
                    variation = node.variations[len(line.item["variations"])]
                    inner = _Open(variation.nodes, line.previous)
                    line.item["variations"].append(
                        {
                            "moves": inner.out,
                            "before": _comments(variation.comments_before),
                            "after": _comments(variation.comments),
                        }
                    )
                    stack.append(inner)
                    continue
                self._play(line, node)
                continue
            if line.index < len(line.nodes):
                node = line.nodes[line.index]
                # A variation replaces this node, so it starts from the position before it.
                line.item = {
                    "text": node.text,
                    "suffix": node.suffix,
                    "nags": node.nags,
                    "before": _comments(node.comments_before),
                    "after": _comments(node.comments_after),
                    "turn": self.position.turn + 1,
                    "variations": [],
                }
                continue
            for _ in range(line.pushed):
                self.position.pop()
            stack.pop()
        return top.out

    def _play(self, line: _Open, node: MoveNode) -> None:
        """Play the line's current node (its variations done) and move on, or end the line."""
        item = line.item
        assert item is not None
        line.item = None
        line.out.append(item)
        error = self.play(node, item["turn"])
        if error is not None:
            item["error"] = str(error)
            line.index = len(line.nodes)  # a move that cannot be played ends its line
            return
        line.pushed += 1
        line.index += 1
        view = self.view()
        item["view"] = view_delta(line.previous, view)
        line.previous = view

    def play(self, node: MoveNode, turn: int) -> NotationError | None:
        try:
            self.position.push(self.game.parse(node.text))
        except MoveSyntaxError as exc:
            kind, message = ErrorKind.SYNTAX, str(exc)
        except IllegalMoveError as exc:
            kind, message = ErrorKind.ILLEGAL, str(exc)
        else:
            return None
        return NotationError(
            kind, message, node.line, node.column, turn, node.written,
            file=self.record.source, record=self.record.index,
        )


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
    builder = _Builder(record, stepper.game, stepper.position)
    start = builder.view()
    moves = builder.line(record.moves, start)
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
