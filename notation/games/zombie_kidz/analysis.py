"""Win probabilities for ``notation analyze`` and ``annotate --analyze``.

docs/zombie-kidz.md, "Solving the game".  A position's value is the probability
that the team wins from it under best play, before the next roll.  Where a solved
table (:mod:`.solve`) holds the position, the value is exact (to the solve's
tolerance); else a search of a few turns looks ahead, takes table values where it
meets them and, at its horizon, an estimate from the position's locks and reserve
(:data:`LEAF_ESTIMATES`, the mean exact value of the states with the same counts).
A value from such a search is labelled an estimate.

A turn's loss is the value of the best turn its roll allowed minus the value of the
turn played: ``?`` from :data:`MISTAKE`, ``??`` from :data:`BLUNDER`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from notation.games.view import Analysis, Assessment
from notation.games.zombie_kidz.board import DICE, DIE_FACES, PLAYERS_WIN
from notation.games.zombie_kidz.moves import ZombieKidzMove
from notation.games.zombie_kidz.rules import ZombieKidzRules
from notation.games.zombie_kidz.solve import (
    WIN,
    Table,
    Variant,
    decode_key,
    roll_results,
    state_key,
    table_for,
)

__all__ = [
    "BLUNDER",
    "DEFAULT_DEPTH",
    "DEFAULT_SECONDS",
    "LEAF_ESTIMATES",
    "MISTAKE",
    "TIE",
    "Evaluator",
    "analyse",
    "assess_move",
    "evaluator",
]

#: A turn that loses at least this much probability of winning, against the best
#: turn its roll allowed, is a mistake (``?``) ...
MISTAKE: Final = 0.02
#: ... and at least this much a blunder (``??``).
BLUNDER: Final = 0.10
#: Values closer than this are equal: the tables' tolerance (and their storage step).
TIE: Final = 1e-8
#: Turns a search looks ahead where no table holds the position.
DEFAULT_DEPTH: Final = 2
#: The most time ``analyse`` gives a search (it deepens one turn at a time).
DEFAULT_SECONDS: Final = 2.0
#: Variants solved on first use when numpy is there (a few minutes, once: the table
#: goes to the cache).  4 players take too long for an unasked pause:
#: ``python -m notation.games.zombie_kidz.solve 4 8`` solves them on purpose.
_SOLVE_ON_FIRST_USE: Final = frozenset({3})

#: The estimate at a search's horizon: for each variant (players, zombies) and number
#: of gates locked, the mean exact value of the reachable states with each number of
#: zombies in the reserve (bench/zombie_kidz_solve.py prints them from the tables).
LEAF_ESTIMATES: Final[Mapping[tuple[int, int], tuple[tuple[float, ...], ...]]] = (
    MappingProxyType({
        (2, 8): (
            (0.016, 0.149, 0.304, 0.507, 0.714, 0.871, 0.96, 0.991, 0.5),
            (0.022, 0.188, 0.357, 0.559, 0.752, 0.895, 0.97, 0.994, 0.5),
            (0.039, 0.32, 0.539, 0.736, 0.878, 0.957, 0.991, 0.999, 0.5),
            (0.081, 0.598, 0.84, 0.956, 0.992, 0.999, 1.0, 1.0, 0.5),
        ),
        (2, 7): (
            (0.03, 0.259, 0.462, 0.679, 0.852, 0.952, 0.989, 0.5),
            (0.028, 0.245, 0.449, 0.671, 0.852, 0.955, 0.991, 0.5),
            (0.041, 0.335, 0.559, 0.763, 0.907, 0.977, 0.997, 0.5),
            (0.088, 0.64, 0.871, 0.966, 0.993, 0.999, 1.0, 0.5),
        ),
        (3, 8): (
            (0.011, 0.1, 0.22, 0.385, 0.564, 0.72, 0.833, 0.909, 0.5),
            (0.017, 0.149, 0.3, 0.482, 0.662, 0.806, 0.899, 0.951, 0.5),
            (0.03, 0.25, 0.457, 0.657, 0.812, 0.91, 0.963, 0.987, 0.5),
            (0.067, 0.495, 0.746, 0.891, 0.956, 0.98, 0.991, 0.998, 0.5),
        ),
        (3, 7): (
            (0.018, 0.162, 0.318, 0.503, 0.675, 0.805, 0.894, 0.5),
            (0.02, 0.178, 0.348, 0.542, 0.717, 0.843, 0.918, 0.5),
            (0.032, 0.268, 0.482, 0.686, 0.84, 0.931, 0.973, 0.5),
            (0.071, 0.523, 0.773, 0.906, 0.964, 0.987, 0.997, 0.5),
        ),
        (4, 8): (
            (0.016, 0.144, 0.289, 0.463, 0.631, 0.768, 0.864, 0.927, 0.5),
            (0.024, 0.204, 0.382, 0.569, 0.731, 0.848, 0.922, 0.964, 0.5),
            (0.039, 0.312, 0.537, 0.728, 0.855, 0.926, 0.965, 0.988, 0.5),
            (0.071, 0.508, 0.743, 0.872, 0.933, 0.96, 0.978, 0.994, 0.5),
        ),
        (4, 7): (
            (0.022, 0.195, 0.363, 0.546, 0.706, 0.825, 0.905, 0.5),
            (0.027, 0.227, 0.415, 0.607, 0.766, 0.875, 0.939, 0.5),
            (0.041, 0.329, 0.556, 0.746, 0.872, 0.944, 0.98, 0.5),
            (0.075, 0.538, 0.77, 0.889, 0.945, 0.974, 0.993, 0.5),
        ),
    })
)


def _leaf(key: int, variant: Variant) -> float:
    """The horizon estimate of ``key``: :data:`LEAF_ESTIMATES`, or a plain guess for a
    count it has no figure for."""
    zombies, _, locks = decode_key(key, variant.players)
    reserve = variant.zombies - sum(zombies)
    locked = bin(locks).count("1")
    rows = LEAF_ESTIMATES.get((variant.players, variant.zombies))
    if rows is not None and locked < len(rows) and reserve < len(rows[locked]):
        return rows[locked][reserve]
    # More zombies in the reserve and more gates locked: further from losing.
    return min(1.0, 0.5 + 0.05 * reserve + 0.1 * locked)


class Evaluator:
    """The values of one variant's states: from its table where it has one, else a
    search ``depth`` turns deep.  Results are remembered for the evaluator's life."""

    def __init__(self, variant: Variant, table: Table | None) -> None:
        self.variant = variant
        self.table = table
        # (key, depth) -> (value, exact): an estimate depends on the depth it was searched
        # to, and nothing else, so that the same question always gets the same answer.
        self._memo: dict[tuple[int, int], tuple[float, bool]] = {}
        #: States searched so far (figures for ``Analysis.nodes``).
        self.nodes = 0

    def value(self, key: int, depth: int = DEFAULT_DEPTH) -> tuple[float, bool]:
        """The value of the canonical ``key`` and whether it is exact."""
        if self.table is not None:
            found = self.table.value(key)
            if found is not None:
                return found, True
        if depth <= 0:
            return _leaf(key, self.variant), False
        known = self._memo.get((key, depth))
        if known is not None:
            return known
        self.nodes += 1
        total = 0.0
        exact = True
        for turns in roll_results(key, self.variant):
            if turns is None:
                continue  # the roll loses: it adds nothing
            best = 0.0
            for _, result in turns:
                if result == WIN:
                    value, sure = 1.0, True
                else:
                    value, sure = self.value(result, depth - 1)
                # One estimate among the options makes the best of them an estimate.
                exact = exact and sure
                best = max(best, value)
            total += best
        value = total / len(DICE)
        self._memo[key, depth] = (value, exact)
        return value, exact

    def position_value(
        self, position: ZombieKidzRules, depth: int = DEFAULT_DEPTH
    ) -> tuple[float, bool]:
        """The value of ``position`` (1 or 0 once the game is over) and whether it is exact."""
        outcome = position.outcome()
        if outcome is not None:
            return (1.0 if outcome == PLAYERS_WIN else 0.0), True
        return self.value(state_key(position), depth)

    def roll_values(
        self, position: ZombieKidzRules, die: str, depth: int = DEFAULT_DEPTH
    ) -> list[tuple[ZombieKidzMove, float, bool]]:
        """Each turn ``die`` allows, with the value of the position after it, best first.

        Turns whose values differ by less than :data:`TIE` are ordered by progress: a
        turn that wins, then one that locks a gate, then the one that clears the most
        zombies, then the order of ``legal_moves_after``.  Without this, best play can
        wait for ever: with two players the start and many positions are worth 1, and
        staying put keeps that 1 as surely as winning does.  ``position`` is left as it was."""
        rated: list[tuple[ZombieKidzMove, float, bool, tuple[int, ...]]] = []
        for index, move in enumerate(position.legal_moves_after(die)):
            position.push(move)
            try:
                value, exact = self.position_value(position, depth - 1)
                won = position.outcome() == PLAYERS_WIN
                cleared = int(position.last_move_facts().get("eliminated", 0))
            finally:
                position.pop()
            rated.append((move, value, exact, (-won, -move.locked, -cleared, index)))
        top = max(value for _, value, _, _ in rated)

        def rank(item: tuple[ZombieKidzMove, float, bool, tuple[int, ...]]) -> tuple[float, ...]:
            if item[1] >= top - TIE:
                return (0.0, *item[3])
            return (1.0, -item[1], item[3][-1])

        rated.sort(key=rank)
        return [(move, value, exact) for move, value, exact, _ in rated]


_EVALUATORS: dict[Variant, Evaluator] = {}


def evaluator(position: ZombieKidzRules) -> Evaluator:
    """The evaluator of ``position``'s variant, made once per process: with the shipped
    or cached table, or (3 players, numpy installed) a table solved now and cached."""
    variant = Variant(position.players, position.zombie_total)
    found = _EVALUATORS.get(variant)
    if found is None:
        compute = variant.players in _SOLVE_ON_FIRST_USE and not os.environ.get(
            "NOTATION_NO_SOLVE"
        )
        try:
            table = table_for(variant, compute=compute)
        except ImportError:
            table = table_for(variant)  # no numpy: a search, labelled as an estimate
        found = _EVALUATORS[variant] = Evaluator(variant, table)
    return found


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _number(value: float) -> str:
    return f"{value:.4f}"


def assess_move(position: ZombieKidzRules, move: ZombieKidzMove) -> Assessment | None:
    """The team's chance of winning before the roll and after ``move`` (the ``winprob``
    value, ``estimate`` added when it is not exact), and ``?``/``??`` with the best turn
    of the same roll when ``move`` loses :data:`MISTAKE`/:data:`BLUNDER` or more.

    None once the game is over or for a move that is not legal here.  ``position`` is
    left as it was."""
    if position.outcome() is not None or position.check(move) is not None:
        return None
    rating = evaluator(position)
    before, exact = rating.position_value(position)
    played = position.canonical(move)
    rated = rating.roll_values(position, played.die)
    after = next(value for m, value, _ in rated if m == played)
    exact = exact and all(sure for _, _, sure in rated)
    best_move, best, _ = rated[0]
    winprob = f"{_number(before)} {_number(after)}" + ("" if exact else " estimate")
    values = (("winprob", winprob),)
    loss = best - after
    glyph = "??" if loss >= BLUNDER else "?" if loss >= MISTAKE else ""
    if not glyph:
        return Assessment("", "", values)
    reason = f"{best_move} keeps {_percent(best)} to win; {played} leaves {_percent(after)}"
    return Assessment(glyph, reason, values)


def analyse(
    position: ZombieKidzRules, *, depth: int | None = None, seconds: float | None = None
) -> Analysis:
    """The team's chance of winning before the roll, and as notes each face's best turn
    and the chance after it.  Exact from a table; else a search ``depth`` turns deep
    (default: deepening from :data:`DEFAULT_DEPTH` while ``seconds``, default
    :data:`DEFAULT_SECONDS`, allow).  ``best_line`` stays empty: no turn is best before
    the roll is known.  ``position`` is left as it was."""
    rating = evaluator(position)
    outcome = position.outcome()
    if outcome is not None:
        value = 1.0 if outcome == PLAYERS_WIN else 0.0
        return Analysis(value, "probability", (), True, None, 0, (("result", outcome),))
    nodes_before = rating.nodes
    began = time.perf_counter()
    budget = DEFAULT_SECONDS if seconds is None else seconds
    searched = depth if depth is not None else DEFAULT_DEPTH
    value, exact = rating.position_value(position, searched)
    # Deepen while time allows, unless a depth was asked for or the value is exact: each
    # turn deeper costs some 30 times the last, so a thirtieth of the budget is the limit.
    while depth is None and not exact and time.perf_counter() - began < budget / 30:
        searched += 1
        value, exact = rating.position_value(position, searched)
    notes: list[tuple[str, str]] = []
    for die in DICE:
        rated = rating.roll_values(position, die, searched)
        name = f"{die} ({DIE_FACES[die][0]})"
        move, best, _ = rated[0]
        if len(rated) == 1 and _loses(position, move):
            notes.append((name, f"{move}: the zombies win at this roll"))
        else:
            notes.append((name, f"{move}, {_percent(best)} to win after it"))
    table = rating.table
    if exact and table is not None:
        solved = f"exact: {len(table):,} states solved, tolerance {table.tolerance:g}"
        notes.append(("method", solved))
        return Analysis(value, "probability", (), True, None, len(table), tuple(notes))
    notes.append(("method", f"estimate: a search {searched} turns deep, no solved table"))
    return Analysis(
        value, "probability", (), exact, searched, rating.nodes - nodes_before, tuple(notes)
    )


def _loses(position: ZombieKidzRules, move: ZombieKidzMove) -> bool:
    """Whether ``move`` ends the game in the zombies' favour (a roll that loses)."""
    position.push(move)
    try:
        return position.outcome() not in (None, PLAYERS_WIN)
    finally:
        position.pop()
