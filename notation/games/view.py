"""What a position looks like, as data: the bridge between games and renderers.

A game describes a position as a :class:`BoardView`: a grid of cells, each with a
background role and the tokens standing on it (bottom to top), paths to draw
between cells, the squares the last move touched, and a few labelled facts.  It
also says which colour each role has.  The renderers (terminal, SVG, HTML) draw
any ``BoardView`` and know no game, so a new game gets all of them by
describing its positions this way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from notation.errors import MisuseError

#: How the tokens of one cell stand (:attr:`BoardView.token_layout`).
TokenLayout = Literal["pile", "spread"]
#: A cell holds one stack whose order matters: tokens are drawn bottom to top.
PILE: TokenLayout = "pile"
#: A cell is a zone where separate figures meet: tokens stand side by side.
SPREAD: TokenLayout = "spread"

#: The default of :attr:`BoardView.legend`: no words of the game's own, a read-only
#: mapping shared by every view (through a factory: a dataclass refuses it as default).
NO_WORDS: Mapping[str, str] = MappingProxyType({})


def _no_words() -> Mapping[str, str]:
    return NO_WORDS

#: The keys of :attr:`BoardView.legend` that are not roles: corner notes, piles of
#: several tokens, paths.  A role is never one of these and never holds ``:``.
NOTE_KEY = "note"
STACK_KEY = "stack"
PATH_KEY = "path"


@dataclass(frozen=True, slots=True)
class Token:
    """Something standing on a cell: a zombie, a piece, a pawn, a lock...

    ``role`` picks its colour from the view's palette; ``label`` is the short text
    drawn on it and used alone where there is no colour ("W", "R", "K", "?", "1").
    """

    role: str
    label: str = ""


@dataclass(frozen=True, slots=True)
class Cell:
    """One square or zone of the board.

    ``role`` is its background ("grave", "chapel", "tombstone", "gate", ...); a cell
    whose role is ``"off"`` is not part of the board and is left blank.  ``tokens``
    stand bottom to top.  ``note`` is a small text for the corner (a capacity, a count).
    ``detail`` says more about the cell in words, for a tooltip or a side panel (what a
    hidden piece may be, with its odds); ``""`` for nothing more than the cell shows.
    """

    square: str
    role: str
    tokens: tuple[Token, ...] = ()
    note: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class BoardView:
    """A position, ready to be drawn.

    After Red's piece moved from b1 to c1, Cave's view has that piece on c1 (its class
    not shown yet), the move's squares marked, and the move in words:

    >>> import notation
    >>> record = notation.Record.from_moves("cave", ["b1", "b5", "b1-c1"])
    >>> view = record.end_position().board_view()
    >>> view.files, view.ranks
    (('a', 'b', 'c', 'd'), ('1', '2', '3', '4', '5'))
    >>> view.cell("c1").role, view.cell("c1").tokens
    ('home-red', (Token(role='red', label='r?'),))
    >>> view.cell("e9").role  # no such square: off the board
    'off'
    >>> view.marks, view.caption
    (('b1', 'c1'), "b1-c1: Red's piece moved to c1")
    >>> view.facts[0]
    ('To move', 'Black')
    """

    #: Column labels left to right and row labels bottom to top.
    files: tuple[str, ...]
    ranks: tuple[str, ...]
    #: Every cell by square name ("a1"); squares missing here are drawn as "off".
    cells: Mapping[str, Cell]
    #: Role -> colour ("#rrggbb"), for backgrounds and tokens alike.
    palette: Mapping[str, str]
    #: Pairs of squares joined by a path (drawn as lines; Zombie Kidz).
    links: tuple[tuple[str, str], ...] = ()
    #: Squares the last move touched, in order (from, to; or just to).
    marks: tuple[str, ...] = ()
    #: Labelled facts shown beside the board: ("To move", "Red"), ("Stage", "movement").
    facts: tuple[tuple[str, str], ...] = ()
    #: A line under the board: the last move and what it did.
    caption: str = ""
    #: How the tokens of a cell stand: :data:`PILE` (one stack, bottom to top: a
    #: Tinkertown or Cave square) or :data:`SPREAD` (separate figures side by side: a
    #: Zombie Kidz zone).  The same for every position of a game.
    token_layout: TokenLayout = PILE
    #: The game's own words for what its pictures show, for the legends of every
    #: renderer, which fall back on the role names for anything left out (the mapping
    #: may be empty or partial).  One shared mapping for every position of a game.
    #: Keys, in the order the terminal lists them:
    #:
    #: - a role, of cells or of tokens: ``"grave"``, ``"home-red"``, ``"red"``: what the
    #:   colour stands for ("Red's home row (Red enters here)", "a Red piece");
    #: - ``"<role>:<label>"``: a token of that role carrying that label, e.g.
    #:   ``"red:r?"``: "a Red piece never shown";
    #: - ``"note"``: what the corner notes say, in general; ``"note:<text>"``: one
    #:   particular note, e.g. ``"note:=Z"``: "a team of 2 fights as a zombie" (with
    #:   the very words of ``"note"``, it only gives the terminal's legend a sample);
    #: - ``"stack:<labels>"``: an example of several tokens on one cell, labels
    #:   bottom to top separated by spaces, e.g. ``"stack:r? rZ"``: "a team, bottom to top";
    #: - ``"path"``: what a path between two cells is.
    #:
    #: Roles never contain ``:`` and are never ``note``, ``stack`` or ``path``.
    legend: Mapping[str, str] = field(default_factory=_no_words)
    #: Cells as wide as any the game can show (its tallest team, its longest note), the
    #: same for every position: a terminal viewer sizes every cell for them too, so that
    #: its board keeps its size from move to move whatever the pieces (empty: the
    #: cells in view are the measure).  Never drawn; not in :meth:`to_dict`.
    widest: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        if self.token_layout not in (PILE, SPREAD):
            raise MisuseError(
                f"BoardView.token_layout is {self.token_layout!r}; "
                f"expected {PILE!r} or {SPREAD!r}"
            )

    def cell(self, square: str) -> Cell:
        """The cell on ``square``; an ``off`` cell for a square the board does not have."""
        found = self.cells.get(square)
        return found if found is not None else Cell(square, "off")

    def rows(self) -> list[list[Cell]]:
        """Cells row by row, top row first, left to right."""
        return [[self.cell(f + r) for f in self.files] for r in reversed(self.ranks)]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (the HTML viewer draws from it)."""
        return {
            "files": list(self.files),
            "ranks": list(self.ranks),
            "cells": {
                name: {
                    "role": c.role,
                    "tokens": [[t.role, t.label] for t in c.tokens],
                    "note": c.note,
                    **({"detail": c.detail} if c.detail else {}),
                }
                for name, c in self.cells.items()
            },
            "palette": dict(self.palette),
            "links": [list(link) for link in self.links],
            "marks": list(self.marks),
            "facts": [list(f) for f in self.facts],
            "caption": self.caption,
            # Each only when not the default (both are the same for every position).
            **({} if self.token_layout == PILE else {"token_layout": self.token_layout}),
            **({"legend": dict(self.legend)} if self.legend else {}),
        }


@dataclass(frozen=True, slots=True)
class Assessment:
    """An engine's opinion on a move (see ``Game.assess_move``), written by ``annotate
    --analyze`` as a ``[%analysis ...]`` command and, for a glyph, the move's suffix."""

    #: "??", "?", "!" or "" (no verdict on the move, only ``values``).
    glyph: str
    #: Why, in words, naming the move that matters ("allows g3-g5x, which wins").
    reason: str
    #: More machine commands for the move's comment, as (key, value) pairs: for example
    #: ``("winprob", "0.62 0.58")``.  Keys are the game's (``Game.annotation_keys``).
    values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Analysis:
    """An engine's view of a position (``Game.analyse``; ``notation analyze``): ``value``
    is for the side to move, in ``unit``: ``"probability"`` (of winning, from 0 to 1) or
    ``"score"`` (a search's evaluation; ``WIN`` and ``-WIN`` are won and lost).
    """

    value: float
    unit: str
    #: The best line found, in canonical move text, the best move first (empty when the
    #: game is over or the mover has no choice worth naming).
    best_line: tuple[str, ...]
    #: Whether ``value`` is exact (a solved position, a search to the end), not an estimate.
    exact: bool
    #: Plies searched, or ``None`` for an exact solution from a table.
    depth: int | None = None
    #: Positions the engine looked at, for the figures.
    nodes: int = 0
    #: Other facts in words, as (name, value) pairs: the probabilities of a Cave piece's
    #: identities, the value of each roll...
    notes: tuple[tuple[str, str], ...] = ()


#: A search score that means "won" (``Analysis.value``, unit ``"score"``).
WIN = 1_000_000.0
