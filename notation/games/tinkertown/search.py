"""The search: alpha-beta (negamax) with iterative deepening and a transposition table.

docs/tinkertown.md, "The search engine", says what is searched and how (principal
variation search, Zobrist keys kept from the rules' history entries, move ordering,
the evaluation and its weights, the exact rule at the leaves), the defaults and the
limits.

Scores are ints for the side to move: :data:`CONTROL` (100) is one group; a win in
``n`` plies is ``WIN_SCORE - n``, a loss ``-(WIN_SCORE - n)``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

from notation.errors import MisuseError
from notation.games.tinkertown.board import (
    COLOURS,
    GRAVES,
    NEIGHBOURS,
    RED,
    SIZE,
    WHITE,
)
from notation.games.tinkertown.moves import DROPS, MOVES_ALONG, Resurrection, TinkertownMove
from notation.games.tinkertown.rules import TinkertownUndo
from notation.games.view import WIN, Analysis

if TYPE_CHECKING:
    from notation.games.tinkertown.rules import TinkertownRules

__all__ = [
    "ANALYSE_DEPTH",
    "ANALYSE_SECONDS",
    "CONTROL",
    "LATENT",
    "MAX_DEPTH",
    "PLACE",
    "PROVEN",
    "RUN",
    "RUN_CAP",
    "TEMPO",
    "WIN_SCORE",
    "SearchResult",
    "Searcher",
    "analyse",
    "evaluate",
    "key_after_push",
    "material",
    "score_to_value",
    "search",
    "square_value",
    "zobrist_key",
]

# -- scores ------------------------------------------------------------------------

#: A won position, for the side to move; a win in n plies scores ``WIN_SCORE - n``.
WIN_SCORE: Final = int(WIN)
#: Scores at or beyond this, either sign, are proven wins or losses, not estimates.
PROVEN: Final = WIN_SCORE - 10_000
#: One group controlled (the unit of the evaluation: a score of 100 is one group).
CONTROL: Final = 100
#: Each zombie of the controller's colour right under the top one, up to
#: :data:`RUN_CAP`: the group can split that many times and stay its owner's.
RUN: Final = 12
RUN_CAP: Final = 3
#: A zombie of the other colour right under a group's top run: a group its owner
#: gets back when the group on it moves away.
LATENT: Final = 10
#: Per neighbouring grave of the grave a group stands on (2 to 4): where it can go,
#: and its capacity before tombstones.
PLACE: Final = 2
#: What having the move is worth: a side to move can always cover a group of the
#: other's (an entry on a one-coloured group never captures), a swing of two groups.
TEMPO: Final = 100

#: The default depth (plies) and time (seconds) of :func:`analyse` when given neither.
ANALYSE_DEPTH: Final = 5
ANALYSE_SECONDS: Final = 10.0
#: The deepest iteration a time-bounded search without a depth goes to.
MAX_DEPTH: Final = 64

# Transposition-table entry flags.
_EXACT, _LOWER, _UPPER = 0, 1, 2
# The table is emptied when it grows past this many positions (a bound on memory:
# an entry is a few hundred bytes in Python).
_TT_LIMIT = 400_000
_INFINITY = WIN_SCORE + 1
# The clock is read once every this many nodes counted (a few milliseconds' worth).
_CLOCK_EVERY = 2000


# -- the evaluation ----------------------------------------------------------------


def _square_value(sq: int, stack: str) -> int:
    """The evaluation's term for ``stack`` on grave ``sq``, from White's side."""
    if not stack:
        return 0
    top = stack[-1]
    run = len(stack) - len(stack.rstrip(top))
    value = CONTROL + RUN * min(run - 1, RUN_CAP) + PLACE * len(NEIGHBOURS[sq])
    value = value if top == "w" else -value
    if run < len(stack):
        # The zombie under the top run is the other colour's: a latent group.
        value += LATENT if top == "r" else -LATENT
    return value


_K = TypeVar("_K")
_V = TypeVar("_V")


class _SquareMemo(dict[_K, _V]):
    """One grave's memo of ``build(square, key)``: ``memo[key]`` builds the value the
    first time it is asked for (a plain subscript after that)."""

    __slots__ = ("build", "square")

    def __init__(self, square: int, build: Callable[[int, _K], _V]) -> None:
        super().__init__()
        self.square, self.build = square, build

    def __missing__(self, key: _K) -> _V:
        value = self[key] = self.build(self.square, key)
        return value


#: Each grave's memo of :func:`_square_value`, by stack.
_VALUES: Final = tuple(_SquareMemo(sq, _square_value) for sq in range(SIZE * SIZE))


def square_value(sq: int, stack: str) -> int:
    """The evaluation's term for ``stack`` (bottom to top) on grave ``sq``, from White's
    side: ``CONTROL + RUN * min(run - 1, RUN_CAP) + PLACE * neighbours``, for the
    controller, where ``run`` is how many zombies of the top colour lie on top; and
    ``LATENT`` for the other side when its zombie lies right under that run."""
    return _VALUES[sq][stack]


def material(position: TinkertownRules) -> int:
    """The sum of :func:`square_value` over the graves: the evaluation from White's
    side, without the tempo (the search keeps it up to date move by move)."""
    stacks = position._stacks
    return sum(square_value(sq, stacks[sq]) for sq in GRAVES)


def evaluate(position: TinkertownRules) -> int:
    """The static evaluation for the side to move: :func:`material` from its side plus
    :data:`TEMPO`; a proven score when the game is over or the opponent (in the
    movement stage) controls one group or none and so loses at once."""
    side = position._to_move
    if position._winner >= 0:
        return WIN_SCORE if position._winner == side else -WIN_SCORE
    if position._movement and position._controlled[1 - side] <= 1:
        return WIN_SCORE - 1
    mat = material(position)
    return (mat if side == WHITE else -mat) + TEMPO


# -- Zobrist keys ------------------------------------------------------------------

def _number(*parts: int) -> int:
    """The 64-bit random number of a key field: a hash of its name, so the same in every
    process, and any of them made when first needed (stack heights are unbounded: an
    entry on one's own group never captures)."""
    text = ",".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=b"tinkertown").digest())


# A stack's key is the XOR of one number per (grave, height, colour) of its zombies,
# kept per grave as the stacks seen need them.
_LEVELS: Final[tuple[list[tuple[int, int]], ...]] = tuple([] for _ in range(SIZE * SIZE))
_TOMB_KEYS: Final[tuple[int, ...]] = tuple(_number(1, sq) for sq in range(SIZE * SIZE))
_RED_KEY: Final = _number(2)
_MOVEMENT_KEY: Final = _number(3)
# Last placements: index sq + 1, so that -1 (none) is index 0, whose key is 0.
_LAST_KEYS: Final[tuple[tuple[int, ...], ...]] = tuple(
    (0, *(_number(4, side, sq) for sq in range(SIZE * SIZE))) for side in (WHITE, RED)
)


def _stack_key(sq: int, stack: str) -> int:
    """The key of ``stack`` on ``sq`` (0 for no stack)."""
    levels = _LEVELS[sq]
    while len(levels) < len(stack):
        height = len(levels)
        levels.append((_number(0, sq, height, WHITE), _number(0, sq, height, RED)))
    key = 0
    for height, zombie in enumerate(stack):
        key ^= levels[height][zombie == "r"]
    return key


#: Each grave's memo of :func:`_stack_key`, by stack.
_STACK_KEYS: Final = tuple(_SquareMemo(sq, _stack_key) for sq in range(SIZE * SIZE))


def zobrist_key(position: TinkertownRules) -> int:
    """The 64-bit Zobrist key of ``position``, computed from scratch: its stacks,
    tombstones, side to move, stage and last placements (not its turn count, which
    changes nothing that can be played)."""
    key = 0
    stacks, tomb = position._stacks, position._tomb
    for sq in GRAVES:
        if stacks[sq]:
            key ^= _STACK_KEYS[sq][stacks[sq]]
        if tomb[sq]:
            key ^= _TOMB_KEYS[sq]
    if position._to_move == RED:
        key ^= _RED_KEY
    if position._movement:
        key ^= _MOVEMENT_KEY
    key ^= _LAST_KEYS[WHITE][position._last[WHITE] + 1]
    key ^= _LAST_KEYS[RED][position._last[RED] + 1]
    return key


def key_after_push(position: TinkertownRules, key: int) -> int:
    """The key of ``position`` just after a push, from ``key``, the key before it.

    The rules' history entry of the push names every grave it changed (with the
    stack before), the grave that got a tombstone, and the stage and last placements
    before; the position holds what they are now.  So the key follows any move
    without the rules knowing keys exist, and their push and pop cost the same.
    """
    entry = TinkertownUndo._make(position._history[-1])
    stacks = position._stacks
    keys = _STACK_KEYS
    key ^= _RED_KEY
    for sq, old in entry.changes:
        at = keys[sq]
        key ^= at[old] ^ at[stacks[sq]]
    tomb = entry.tomb
    if tomb >= 0:
        key ^= _TOMB_KEYS[tomb]
    if entry.movement != position._movement:
        key ^= _MOVEMENT_KEY
    last = position._last
    last_white, last_red = entry.last_white, entry.last_red
    if last_white != last[WHITE]:
        key ^= _LAST_KEYS[WHITE][last_white + 1] ^ _LAST_KEYS[WHITE][last[WHITE] + 1]
    if last_red != last[RED]:
        key ^= _LAST_KEYS[RED][last_red + 1] ^ _LAST_KEYS[RED][last[RED] + 1]
    return key


# -- the search --------------------------------------------------------------------


#: The resurrection turns with (a) on one grave: ``_PAIRS[a][b]`` is the turn a,b, made
#: on first asking and shared after (the search lists them over and over).
_PAIRS: Final = tuple(_SquareMemo(a, Resurrection) for a in range(SIZE * SIZE))


class _Timeout(Exception):
    """The time budget ran out in the middle of an iteration."""


# A child as a node generates it: its one-ply value for the mover, the move, and the
# material (White's side) after it.
_Child = tuple[int, TinkertownMove, int]


def _value(child: _Child) -> int:
    return child[0]


def _to_table(score: int, ply: int) -> int:
    """A score found ``ply`` plies from the root as the table keeps it: a win or loss
    counted from the node, not the root, so that it holds wherever the node recurs.
    ``_to_table(stored, -ply)`` is the inverse: the stored score from the root again."""
    if score >= PROVEN:
        return score + ply
    if score <= -PROVEN:
        return score - ply
    return score


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found, for the side to move of the position searched."""

    #: The score (ints: :data:`CONTROL` is one group; ``WIN_SCORE - n`` a win in n plies).
    score: int
    #: The best line, the best move first, in canonical move objects.
    line: tuple[TinkertownMove, ...]
    #: The depth of the last iteration completed (plies).
    depth: int
    #: Positions looked at: nodes searched plus children scored at the last ply.
    nodes: int
    #: Seconds the search took.
    seconds: float

    @property
    def exact(self) -> bool:
        """Whether :attr:`score` is a proven win or loss."""
        return abs(self.score) >= PROVEN


class Searcher:
    """One search's state: its own copy of the position, the Zobrist key and material
    kept up to date as it plays moves, the transposition table and the counters.

    ``position`` itself is never changed.  A searcher may run several searches (the
    table carries over, which is what iterative deepening and the assessment of a
    move after the search of its position want).
    """

    def __init__(self, position: TinkertownRules) -> None:
        self.position = position.copy()
        #: The Zobrist key and the material of :attr:`position`, kept by push and pop.
        self.key = zobrist_key(self.position)
        self.material = material(self.position)
        self._saved: list[tuple[int, int]] = []
        #: Transposition table: key -> (depth, score, flag, best move).
        self.table: dict[int, tuple[int, int, int, TinkertownMove | None]] = {}
        #: Positions looked at since the searcher was made: the nodes searched and the
        #: children scored at the last ply (which are not played).
        self.nodes = 0
        #: Nodes searched (played, or the root) since the searcher was made.
        self.visited = 0
        self._deadline = 0.0
        self._next_check = 0
        self._pv: list[list[TinkertownMove]] = [[] for _ in range(MAX_DEPTH + 2)]

    # -- playing moves, with the key and the material following ----------------------
    def push(self, move: TinkertownMove) -> None:
        """Play ``move`` (a legal move) on :attr:`position`, updating key and material."""
        position = self.position
        stacks = position._stacks
        position.push(move)  # an illegal move raises here, and nothing has changed
        self._saved.append((self.key, self.material))
        mat = self.material
        for sq, old in TinkertownUndo._make(position._history[-1]).changes:
            mat += square_value(sq, stacks[sq]) - square_value(sq, old)
        self.material = mat
        self.key = key_after_push(position, self.key)

    def pop(self) -> TinkertownMove:
        """Take back the last move :meth:`push` played; key and material as before it."""
        self.key, self.material = self._saved.pop()
        return self.position.pop()

    # -- children ---------------------------------------------------------------------
    def children(self, ply: int, cutoff: int = _INFINITY) -> list[_Child]:
        """Every legal move here with its one-ply value for the mover and the material
        after it, in generation order (entries first); generation stops after the
        first child whose value reaches ``cutoff``.

        The value of a child is exact when the move wins at once (``WIN_SCORE - ply -
        1``) or leaves the mover one group or none, so that the opponent wins at
        once (``-(WIN_SCORE - ply - 2)``); else it is the evaluation after the move
        from the mover's side (material minus the opponent's tempo).
        """
        position = self.position
        if not position._movement:
            return self._resurrection_children(cutoff)
        stacks, tomb, capacity = position._stacks, position._tomb, position._capacity
        side = position._to_move
        colour = COLOURS[side]
        sign = 1 if side == WHITE else -1
        mine, theirs = position._controlled[side], position._controlled[1 - side]
        mat = self.material
        values = _VALUES
        win = WIN_SCORE - ply - 1
        loss = -(WIN_SCORE - ply - 2)
        out: list[_Child] = []
        append = out.append
        # Entries first: covering one of the opponent's groups is the usual best move,
        # and a cut-off at the last ply comes sooner the sooner it is met.
        for sq in GRAVES:
            if tomb[sq]:
                continue
            before = stacks[sq]
            m, t = mine, theirs
            if before:
                if before[-1] == colour:
                    m -= 1
                else:
                    t -= 1
                landed = before + colour
                # docs/tinkertown.md, "Capture", the entry exception: the colours
                # that count are those of the group entered on.
                captured = len(landed) > capacity[sq] and "w" in before and "r" in before
            else:
                landed = colour
                captured = False
            memo = values[sq]
            change = -memo[before]
            if not captured:
                m += 1
                change += memo[landed]
            child_mat = mat + change
            if t == 0:
                value = win
            elif m <= 1:
                value = loss
            else:
                value = sign * child_mat - TEMPO
            append((value, DROPS[sq][captured], child_mat))
            if value >= cutoff:
                return out
        for origin in GRAVES:
            group = stacks[origin]
            if not group or group[-1] != colour:
                continue
            height = len(group)
            at_origin = values[origin]
            origin_value = at_origin[group]
            for ray in MOVES_ALONG[origin]:
                for k, (target, pair) in enumerate(ray, 1):
                    if k > height or tomb[target]:
                        break
                    rest = group[:-k]
                    before = stacks[target]
                    landed = before + group[-k:]
                    captured = len(landed) > capacity[target] and "w" in landed and "r" in landed
                    m, t = mine - 1, theirs
                    if rest:
                        if rest[-1] == colour:
                            m += 1
                        else:
                            t += 1
                    if before:
                        if before[-1] == colour:
                            m -= 1
                        else:
                            t -= 1
                    at_target = values[target]
                    change = at_origin[rest] - origin_value - at_target[before]
                    if not captured:
                        m += 1
                        change += at_target[landed]
                    child_mat = mat + change
                    if t == 0:
                        value = win
                    elif m <= 1:
                        value = loss
                    else:
                        value = sign * child_mat - TEMPO
                    append((value, pair[captured], child_mat))
                    if value >= cutoff:
                        return out
        return out

    def _resurrection_children(self, cutoff: int) -> list[_Child]:
        """The children of a resurrection-stage position: each placement adds a group
        of the mover's on an empty grave; nobody can win or lose yet.

        The moves are those of the rules' ``legal_moves()``, in its order, found from
        the graves with empty neighbourhoods, listed once: placement (b) may go on a
        grave whose neighbours are all empty once (a) is on the board, which is a grave
        of that kind now that is neither (a) nor next to it.
        """
        position = self.position
        side = position._to_move
        colour = COLOURS[side]
        sign = 1 if side == WHITE else -1
        mat = self.material
        out: list[_Child] = []
        stacks = position._stacks
        last = position._last[1 - side]
        if position._last[WHITE] < 0:
            # White's opening placement: any grave.
            places: list[tuple[TinkertownMove, int]] = [
                (DROPS[sq][0], square_value(sq, colour)) for sq in GRAVES
            ]
        else:
            free = [
                sq for sq in GRAVES if not stacks[sq] and not any(stacks[n] for n in NEIGHBOURS[sq])
            ]
            places = []
            for a in NEIGHBOURS[last]:
                if stacks[a]:
                    continue
                near = NEIGHBOURS[a]
                value_a = square_value(a, colour)
                pairs = _PAIRS[a]
                seconds = [b for b in free if b != a and b not in near]
                if seconds:
                    places.extend((pairs[b], value_a + square_value(b, colour)) for b in seconds)
                else:
                    places.append((DROPS[a][0], value_a))
        for move, change in places:
            value = sign * (mat + change) - TEMPO
            out.append((value, move, mat + change))
            if value >= cutoff:
                break
        return out

    # -- negamax ------------------------------------------------------------------------
    def _node(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The negamax score of :attr:`position` (not over) for its side to move, searched
        ``depth`` plies deep within the window (alpha, beta); fail-soft."""
        self.nodes += 1
        self.visited += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + _CLOCK_EVERY
            if self._deadline and time.perf_counter() > self._deadline:
                raise _Timeout
        pv = self._pv
        pv[ply] = []
        if depth <= 1:
            # The last ply: the children's one-ply values are their scores.
            children = self.children(ply, beta)
            self.nodes += len(children)
            top = max(children, key=_value)
            pv[ply] = [top[1]]
            return top[0]
        key = self.key
        table = self.table
        entry = table.get(key)
        hint: TinkertownMove | None = None
        if entry is not None:
            stored_depth, stored, flag, hint = entry
            # Only a null-window node takes a cut-off from the table: a node on the
            # principal variation searches on, so that its line is complete.
            if stored_depth >= depth and beta - alpha == 1:
                score = _to_table(stored, -ply)
                if (
                    flag == _EXACT
                    or (flag == _LOWER and score >= beta)
                    or (flag == _UPPER and score <= alpha)
                ):
                    return score
        children = self.children(ply, WIN_SCORE - ply - 1)
        children.sort(key=_value, reverse=True)
        if hint is not None:
            for index, child in enumerate(children):
                if child[1] == hint:
                    if index:
                        del children[index]
                        children.insert(0, child)
                    break
        best = -_INFINITY
        best_move: TinkertownMove | None = None
        start_alpha = alpha
        position = self.position
        saved = self._saved
        first = True
        for value, move, child_mat in children:
            if value >= PROVEN or value <= -PROVEN:
                # A win at once, or a move after which the opponent wins at once:
                # exact already, nothing to search.
                score = value
                line: list[TinkertownMove] = []
                if value <= -PROVEN:
                    first = False
            else:
                saved.append((key, self.material))
                position.push(move)
                # A node at the last ply looks nothing up in the table: its key is
                # not worth computing (the saved one comes back with the pop).
                if depth > 2:
                    self.key = key_after_push(position, key)
                self.material = child_mat
                try:
                    if first:
                        score = -self._node(depth - 1, -beta, -alpha, ply + 1)
                    else:
                        score = -self._node(depth - 1, -alpha - 1, -alpha, ply + 1)
                        if alpha < score < beta:
                            score = -self._node(depth - 1, -beta, -alpha, ply + 1)
                finally:
                    self.key, self.material = saved.pop()
                    position.pop()
                line = pv[ply + 1]
                first = False
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    pv[ply] = [move, *line]
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        if len(table) >= _TT_LIMIT:
            table.clear()
        table[key] = (depth, _to_table(best, ply), flag, best_move)
        return best

    # -- searches ---------------------------------------------------------------------
    def search(
        self,
        depth: int | None = None,
        seconds: float | None = None,
        *,
        progress: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Iterative deepening from depth 1 to ``depth`` (:data:`MAX_DEPTH` if None), for at
        most ``seconds`` (no limit if None; depth 1 always completes); ``progress``
        is called after each iteration.  Stops early on a proven win or loss.

        The result is the last iteration completed.  The position must not be over.
        """
        if self.position._winner >= 0:
            raise MisuseError("the game is over: there is nothing to search")
        limit = MAX_DEPTH if depth is None else min(depth, MAX_DEPTH)
        started = time.perf_counter()
        self._deadline = 0.0
        result: SearchResult | None = None
        for iteration in range(1, limit + 1):
            if iteration > 1 and seconds is not None:
                self._deadline = started + seconds
            try:
                score = self._node(iteration, -_INFINITY, _INFINITY, 0)
            except _Timeout:
                break
            line = tuple(self._pv[0])
            result = SearchResult(
                score, line, iteration, self.nodes, time.perf_counter() - started
            )
            if progress is not None:
                progress(result)
            if abs(score) >= PROVEN:
                break
        self._deadline = 0.0
        assert result is not None  # depth 1 has no deadline
        return result

    def score_of(self, move: TinkertownMove, depth: int) -> tuple[int, tuple[TinkertownMove, ...]]:
        """The score of ``move`` (a legal move, canonical) for the side to move here,
        searched ``depth`` plies deep in all (the move included), and the line after
        it (the best reply first)."""
        found = next((child for child in self.children(0) if child[1] == move), None)
        if found is None:
            raise MisuseError(f"{move} is not a legal move here")
        value, _, child_mat = found
        if value >= PROVEN or value <= -PROVEN or depth <= 1:
            return value, ()
        self._push_child(move, child_mat)
        try:
            score = -self._node(depth - 1, -_INFINITY, _INFINITY, 1)
            line = tuple(self._pv[1])
        finally:
            self.pop()
        return score, line

    def another_reaches(self, move: TinkertownMove, depth: int, threshold: int) -> bool:
        """Whether a legal move other than ``move`` scores above ``threshold`` at
        ``depth`` plies (null-window searches, stopping at the first that does)."""
        children = self.children(0)
        children.sort(key=_value, reverse=True)
        for value, child, child_mat in children:
            if child == move:
                continue
            if value >= PROVEN or value <= -PROVEN or depth <= 1:
                score = value
            else:
                self._push_child(child, child_mat)
                try:
                    score = -self._node(depth - 1, -threshold - 1, -threshold, 1)
                finally:
                    self.pop()
            if score > threshold:
                return True
        return False

    def _push_child(self, move: TinkertownMove, child_mat: int) -> None:
        """Play ``move`` with the material :meth:`children` gave it (no recount)."""
        position = self.position
        self._saved.append((self.key, self.material))
        position.push(move)
        self.key = key_after_push(position, self.key)
        self.material = child_mat


# -- entry points ------------------------------------------------------------------


def search(
    position: TinkertownRules, depth: int | None = None, seconds: float | None = None
) -> SearchResult:
    """Search ``position`` (left as it is) to ``depth`` plies and/or for ``seconds``;
    see :meth:`Searcher.search`."""
    return Searcher(position).search(depth, seconds)


def score_to_value(score: int) -> float:
    """A score as :attr:`Analysis.value <notation.games.view.Analysis.value>`: in groups (a
    score of 100 is 1.0), or ``WIN - n`` / ``-(WIN - n)`` for a win or loss in n plies."""
    if score >= PROVEN:
        return WIN - (WIN_SCORE - score)
    if score <= -PROVEN:
        return -(WIN - (WIN_SCORE + score))
    return score / CONTROL


def _budget(depth: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """The depth and time of an analysis: both defaults when neither is given; a
    depth alone has no time limit, a time alone no depth limit."""
    if depth is not None and (type(depth) is not int or depth < 1):
        raise MisuseError(f"depth is a whole number of plies >= 1, not {depth!r}")
    if seconds is not None and (
        not isinstance(seconds, int | float) or isinstance(seconds, bool) or not seconds > 0
    ):
        raise MisuseError(f"seconds is a positive number, not {seconds!r}")
    if depth is None and seconds is None:
        return ANALYSE_DEPTH, ANALYSE_SECONDS
    return depth, seconds


def analyse(
    position: TinkertownRules, depth: int | None = None, seconds: float | None = None
) -> Analysis:
    """The engine's view of ``position`` (left as it is) as an :class:`Analysis`: the
    score for the side to move (``unit="score"``, in groups), the best line in
    canonical move text, and whether the score is proven.

    Without ``depth`` and ``seconds``: :data:`ANALYSE_DEPTH` plies, at most
    :data:`ANALYSE_SECONDS` seconds.  A game that is over is lost for the side to move.
    """
    depth, seconds = _budget(depth, seconds)
    if position._winner >= 0:
        lost = position._winner != position._to_move
        return Analysis(-WIN if lost else WIN, "score", (), True, 0, 0)
    found = search(position, depth, seconds)
    return Analysis(
        score_to_value(found.score),
        "score",
        tuple(str(move) for move in _complete(position, found.line)),
        found.exact,
        found.depth,
        found.nodes,
    )


def _complete(
    position: TinkertownRules, line: tuple[TinkertownMove, ...]
) -> tuple[TinkertownMove, ...]:
    """``line`` with the win at once that follows it, when it stops one move short (the
    search proves such a loss without playing the winning entry)."""
    after = position.copy()
    for move in line:
        after.push(move)
    if after._winner >= 0:
        return line
    win = after.winning_move()
    return line if win is None else (*line, win)
