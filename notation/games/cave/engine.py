"""Playing Cave with the identity probabilities: bots, move assessment, analysis.

docs/cave.md, "Players and analysis".  Nobody knows a hidden piece, not even its
owner, so both players know exactly what the record shows and the same
probabilities (:mod:`.infer`).  A fight is then a chance event whose odds everyone
knows, and three players use them: :func:`greedy_bot`, :class:`ExpectimaxPlayer`
(sound: no player in its search knows more than the record) and
:class:`DeterminisedPlayer` (which suffers from *strategy fusion*: inside a sampled
deal the opponent "knows" identities nobody knows; kept for comparison).

Each sees only its view (the position, which holds what the record has revealed);
none ever reads the referee's deal.  :func:`analyse` (``notation analyze``) and
:func:`assess_move` (``notation annotate --analyze``) are built on the same pieces.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from notation.errors import IllegalMoveError, MisuseError
from notation.games.base import DRAW, WIN_FIRST, WIN_SECOND, Position
from notation.games.cave import infer
from notation.games.cave.board import (
    CLASS_OF,
    LETTERS,
    PIECE_SIDE,
    PIECES_PER_SIDE,
    SIDE_NAMES,
    SQUARES,
    TEAM_CLASS,
)
from notation.games.cave.hidden import deal_classes
from notation.games.cave.moves import ATTACKS, Attack, CaveMove
from notation.games.cave.rules import ATTACKER_WINS, CaveRules
from notation.games.view import Analysis, Assessment

__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_SECONDS",
    "DeterminisedPlayer",
    "ExpectimaxPlayer",
    "actions",
    "analyse",
    "assess_move",
    "evaluate",
    "fight_odds",
    "greedy_bot",
    "win_chance",
]

#: Plies :func:`analyse` and :class:`ExpectimaxPlayer` search by default (a fight's
#: chance node is no ply), and the time :func:`analyse` takes at most by default.
DEFAULT_DEPTH = 2
DEFAULT_SECONDS = 2.0

#: A won position, for the side it is won for (far above any material count).
WON = 1000.0
#: What a unit is worth on top of its pieces, by the class it fights as (S, Z, K):
#: a piece counts 1 wherever it is, since a side loses when it has none left, and a
#: stronger unit wins more fights.  A knight (or a team of 3, which fights as one)
#: always wins its attacks and loses only to a knight's.
CLASS_BONUS: tuple[float, float, float] = (0.0, 0.5, 1.5)
#: What a unit is worth per rank it has advanced from its home row: the small push
#: forward without which a search with nothing to win in its horizon shuffles.
ADVANCE = 0.03
# What a team is worth: its pieces and the bonus of the class it fights as.
_TEAM_BONUS = {size: size + CLASS_BONUS[c] for size, c in TEAM_CLASS.items()}
#: ADVANCED[side][square]: ranks from the side's home row.
ADVANCED: tuple[tuple[int, ...], ...] = (
    tuple(sq // 4 for sq in range(20)),
    tuple(4 - sq // 4 for sq in range(20)),
)

_RESULT_SIDE = {WIN_FIRST: 0, WIN_SECOND: 1}


# -- the odds of one fight ------------------------------------------------------------


def _letter_odds(position: CaveRules, square: int) -> list[tuple[str | None, Fraction]]:
    """The letters a fight may show for the unit on ``square``, with their probabilities:
    ``None`` for a team (it shows nothing), the letter of a piece already shown, else
    every letter a hidden piece may have."""
    stack = position._board[square]
    if len(stack) > 1:
        return [(None, Fraction(1))]
    odds = infer.piece_odds(position, stack[0])
    return [(letter, p) for letter, p in odds.items() if p]


def fight_odds(position: CaveRules, origin: int, target: int) -> list[tuple[Attack, Fraction]]:
    """Every way the attack from ``origin`` on ``target`` (square indices) may be written,
    that is may turn out, with its exact probability given the record so far.

    The two units belong to different sides, whose deals are independent, so each
    probability is the product of the two pieces' odds (:func:`.infer.piece_odds`).
    """
    return [
        (ATTACKS[origin, target, a, d], pa * pd)
        for a, pa in _letter_odds(position, origin)
        for d, pd in _letter_odds(position, target)
    ]


@cache
def _hidden_floats(unshown: tuple[int, int, int]) -> tuple[tuple[str, float], ...]:
    """The letters a piece never shown may have, with float odds, for the search."""
    n = sum(unshown)
    return tuple((LETTERS[c], unshown[c] / n) for c in (2, 1, 0) if unshown[c])


_TEAM_LETTERS: tuple[tuple[None, float]] = ((None, 1.0),)
_SHOWN_LETTERS = tuple(((LETTERS[c], 1.0),) for c in range(3))


def _fight_floats(position: CaveRules, origin: int, target: int) -> list[tuple[Attack, float]]:
    """:func:`fight_odds` in floats, as the search wants them."""
    sides: list[tuple[tuple[str | None, float], ...]] = []
    identity = position._identity
    for sq in (origin, target):
        stack = position._board[sq]
        if len(stack) > 1:
            sides.append(_TEAM_LETTERS)
        elif identity[stack[0]] >= 0:
            sides.append(_SHOWN_LETTERS[identity[stack[0]]])
        else:
            sides.append(_hidden_floats(infer._unshown(position, PIECE_SIDE[stack[0]])))
    return [
        (ATTACKS[origin, target, a, d], pa * pd) for a, pa in sides[0] for d, pd in sides[1]
    ]


def win_chance(position: CaveRules, origin: int, target: int) -> Fraction:
    """The exact probability that the attack from ``origin`` on ``target`` wins."""
    size_a, size_d = len(position._board[origin]), len(position._board[target])
    return sum(
        (
            p
            for move, p in fight_odds(position, origin, target)
            if ATTACKER_WINS[_class(size_a, move.attacker)][_class(size_d, move.defender)]
        ),
        Fraction(0),
    )


def _class(size: int, letter: str | None) -> int:
    """The class a unit fights as (a fight's letters name every single piece)."""
    return TEAM_CLASS[size] if size > 1 or letter is None else CLASS_OF[letter]


# -- what the search looks at ----------------------------------------------------------


def actions(position: CaveRules) -> list[CaveMove]:
    """The distinct choices of the side to move: every entry, step and join, each attack
    once (its letters are the fight's business, not the player's), or the pass."""
    seen: set[tuple[int, int]] = set()
    found: list[CaveMove] = []
    for move in position.legal_moves():
        if type(move) is Attack:
            assert isinstance(move, Attack)
            key = (move.origin, move.target)
            if key in seen:
                continue
            seen.add(key)
        found.append(move)
    return found


@cache
def _mean_bonus(unshown: tuple[int, int, int]) -> float:
    """The expected class bonus of a piece never shown, for a side with these classes
    (S, Z, K) not shown."""
    n = sum(unshown)
    return sum(unshown[c] * CLASS_BONUS[c] for c in range(3)) / n if n else 0.0


def _balance(position: CaveRules, side: int, bonus: Sequence[float]) -> float:
    """What ``side`` has minus what its opponent has: a point per piece (board and
    reserve), each unit's class bonus and its advance; ``bonus[piece]`` is a single
    piece's class bonus (expected over its odds, or as a sampled deal has it)."""
    value = 0.0
    team_bonus = _TEAM_BONUS
    advanced = ADVANCED
    for sq, stack in enumerate(position._board):
        if stack:
            owner = PIECE_SIDE[stack[0]]
            size = len(stack)
            worth = (1.0 + bonus[stack[0]] if size == 1 else team_bonus[size]) + (
                ADVANCE * advanced[owner][sq]
            )
            value += worth if owner == side else -worth
    for owner in (side, 1 - side):
        reserve = position._reserve[owner]
        first = owner * PIECES_PER_SIDE + PIECES_PER_SIDE - reserve
        # The pieces in reserve are the side's next ids, entering as single pieces.
        worth = sum(1.0 + bonus[pid] for pid in range(first, first + reserve))
        value += worth if owner == side else -worth
    return value


def _terminal(position: CaveRules, side: int, sooner: int = 0) -> float | None:
    """The value of a finished game for ``side``, else None.

    ``sooner``: the plies a search had still to go when the game ended, added to a
    win and taken from a loss, so that a search takes the quickest win and puts off
    a loss; without it, a won position where the win can wait is played on and on.
    """
    result = position._result
    if result is None:
        return None
    if result == DRAW:
        return 0.0
    return WON + sooner if _RESULT_SIDE[result] == side else -WON - sooner


def evaluate(position: CaveRules, side: int | None = None) -> float:
    """The static value of ``position`` for ``side`` (0 Red, 1 Black; the side to move by
    default): its material minus the opponent's, each piece 1 plus its unit's class
    bonus (expected over the identity odds for a hidden single piece), or ±1000
    once the game is won or lost (0 drawn)."""
    if side is None:
        side = position.turn & 1
    done = _terminal(position, side)
    if done is not None:
        return done
    return _balance(position, side, _expected_bonus(position))


def _expected_bonus(position: CaveRules) -> list[float]:
    """Each piece's class bonus, expected over its odds (exact for a piece shown)."""
    identity = position._identity
    hidden = (
        _mean_bonus(infer._unshown(position, 0)),
        _mean_bonus(infer._unshown(position, 1)),
    )
    return [
        CLASS_BONUS[identity[pid]] if identity[pid] >= 0 else hidden[PIECE_SIDE[pid]]
        for pid in range(2 * PIECES_PER_SIDE)
    ]


# -- expectimax on the record's positions -------------------------------------------


class _Timeout(Exception):
    """The search ran out of its time; the last finished depth stands."""


class _Expectimax:
    """A depth-limited expectimax (negamax form) over public positions: the players
    choose, and a fight's outcome is drawn with the exact odds of :func:`fight_odds`."""

    def __init__(self, deadline: float | None = None) -> None:
        self.nodes = 0
        self.deadline = deadline

    def value(self, position: CaveRules, depth: int) -> float:
        """The value for the side to move, searching ``depth`` plies then one more for
        the attacks of the side to move (the quiescence that stops a horizon from
        hiding a fight that is on)."""
        self.nodes += 1
        # The clock is read every 256 nodes: reading it costs more than a node.
        deadline = self.deadline
        if deadline is not None and not self.nodes & 255 and time.perf_counter() > deadline:
            raise _Timeout
        side = position.turn & 1
        done = _terminal(position, side, max(depth, 0))
        if done is not None:
            return done
        if depth <= 0:
            return self.quiet(position, side)
        return max(self.move_value(position, move, depth) for move in actions(position))

    def quiet(self, position: CaveRules, side: int) -> float:
        """The static value, or the best expected static value after one of the
        mover's attacks if that is better (the mover may also not attack)."""
        best = evaluate(position, side)
        for move in actions(position):
            if type(move) is Attack:
                assert isinstance(move, Attack)
                value = 0.0
                for settled, p in _fight_floats(position, move.origin, move.target):
                    position.push(settled)
                    value += p * evaluate(position, side)
                    position.pop()
                best = max(best, value)
        return best

    def move_value(self, position: CaveRules, move: CaveMove, depth: int) -> float:
        """The expected value of ``move`` for the side that plays it."""
        if type(move) is not Attack:
            position.push(move)
            try:
                return -self.value(position, depth - 1)
            finally:
                position.pop()
        assert isinstance(move, Attack)
        total = 0.0
        for settled, p in _fight_floats(position, move.origin, move.target):
            position.push(settled)
            try:
                total += p * -self.value(position, depth - 1)
            finally:
                position.pop()
        return total


def _root_values(
    position: CaveRules, depth: int, deadline: float | None = None
) -> tuple[list[tuple[CaveMove, float]], int]:
    """Each action of the side to move with its expectimax value, and the nodes seen."""
    search = _Expectimax(deadline)
    values = [(move, search.move_value(position, move, depth)) for move in actions(position)]
    return values, search.nodes


def _pick(values: Sequence[tuple[CaveMove, float]], rng: random.Random) -> CaveMove:
    """The best move, a random one among those within a hair of the best."""
    best = max(value for _, value in values)
    return rng.choice([move for move, value in values if value >= best - 1e-9])


# -- the players --------------------------------------------------------------------


def _view(view: Position[CaveMove]) -> CaveRules:
    """The view a Cave bot is given, which must be a Cave position."""
    if not isinstance(view, CaveRules):
        raise MisuseError(f"a Cave bot plays Cave positions, not {view!r}")
    return view


def _attack_gain(position: CaveRules, move: Attack) -> float:
    """Pieces the attack is expected to take minus pieces it is expected to lose."""
    board = position._board
    p = float(win_chance(position, move.origin, move.target))
    return p * len(board[move.target]) - (1 - p) * len(board[move.origin])


def greedy_bot(
    view: Position[CaveMove], legal_moves: Sequence[CaveMove], rng: random.Random
) -> CaveMove:
    """A bot for :func:`notation.play` that looks one move ahead: the attack with the
    best expected material (pieces taken minus pieces lost, with the exact odds) if
    one gains, else a move or entry at random.  It sees only ``view``."""
    position = _view(view)
    attacks = [m for m in actions(position) if type(m) is Attack]
    if attacks:
        gains = [(m, _attack_gain(position, m)) for m in attacks if isinstance(m, Attack)]
        best = max(gain for _, gain in gains)
        if best > 0:
            return rng.choice([m for m, gain in gains if gain >= best - 1e-9])
    quiet = [m for m in legal_moves if type(m) is not Attack]
    return rng.choice(quiet or list(legal_moves))


class ExpectimaxPlayer:
    """A bot for :func:`notation.play` that reasons with the exact identity odds: an
    expectimax search ``depth`` plies deep, every fight a chance node.

    It sees only its view; ``rng`` breaks ties between equally good moves.
    """

    def __init__(self, depth: int = DEFAULT_DEPTH, name: str = "") -> None:
        """A player searching ``depth`` plies (1 or more); ``name`` for the record."""
        self.depth = max(1, depth)
        self.name = name or f"expectimax depth {self.depth}"

    def choose(
        self, view: Position[CaveMove], legal_moves: Sequence[CaveMove], rng: random.Random
    ) -> CaveMove:
        """The move with the best expected value (its letters are the referee's)."""
        position = _view(view)
        choices = actions(position)
        if len(choices) == 1:
            return choices[0]
        values, _ = _root_values(position, self.depth)
        return _pick(values, rng)


class DeterminisedPlayer:
    """A bot for :func:`notation.play` that samples ``deals`` deals consistent with its
    view (:func:`.infer.sample_deal`), searches each to ``depth`` plies as a game of
    perfect information (alpha-beta, fights settled by the sampled identities), and
    plays the move whose mean value is best.

    It sees only its view; the deals it samples are its own guesses, drawn with its
    ``rng``, never the referee's.
    """

    def __init__(self, deals: int = 8, depth: int = DEFAULT_DEPTH, name: str = "") -> None:
        """A player over ``deals`` sampled deals, ``depth`` plies each; ``name`` for the record."""
        self.deals = max(1, deals)
        self.depth = max(1, depth)
        self.name = name or f"determinised {self.deals} deals depth {self.depth}"

    def choose(
        self, view: Position[CaveMove], legal_moves: Sequence[CaveMove], rng: random.Random
    ) -> CaveMove:
        """The move with the best mean value over the sampled deals."""
        position = _view(view)  # the bot's own copy: pushed and popped, left as it was
        choices = actions(position)
        if len(choices) == 1:
            return choices[0]
        totals = [0.0] * len(choices)
        for _ in range(self.deals):
            search = _Determinised(deal_classes(position, rng))
            for i, move in enumerate(choices):
                totals[i] += search.move_value(position, move, self.depth, -3 * WON, 3 * WON)
        return _pick(list(zip(choices, totals, strict=True)), rng)


class _Determinised:
    """Alpha-beta (negamax) on one sampled deal: every identity known, so a fight has
    one outcome, the one its dealt letters give."""

    def __init__(self, truth: list[int]) -> None:
        self.truth = truth
        self.bonus = [CLASS_BONUS[c] for c in truth]

    def settle(self, position: CaveRules, move: Attack) -> Attack:
        """``move`` written with the sampled letters of its single pieces."""
        board, truth = position._board, self.truth
        letters = [
            LETTERS[truth[stack[0]]] if len(stack) == 1 else None
            for stack in (board[move.origin], board[move.target])
        ]
        return ATTACKS[move.origin, move.target, letters[0], letters[1]]

    def evaluate(self, position: CaveRules, side: int, sooner: int = 0) -> float:
        """:func:`evaluate` with every identity as the sampled deal has it."""
        done = _terminal(position, side, sooner)
        if done is not None:
            return done
        return _balance(position, side, self.bonus)

    def value(self, position: CaveRules, depth: int, alpha: float, beta: float) -> float:
        """The value for the side to move within the window ``alpha``-``beta``."""
        side = position.turn & 1
        if depth <= 0 or position._result is not None:
            best = self.evaluate(position, side, max(depth, 0))
            if depth > 0 or position._result is not None:
                return best
            # Quiescence, as in the expectimax: the mover may take one fight now.
            for move in actions(position):
                if type(move) is Attack:
                    assert isinstance(move, Attack)
                    position.push(self.settle(position, move))
                    best = max(best, -self.evaluate(position, 1 - side))
                    position.pop()
            return best
        best = -3 * WON
        for move in actions(position):
            best = max(best, self.move_value(position, move, depth, alpha, beta))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    def move_value(
        self, position: CaveRules, move: CaveMove, depth: int, alpha: float, beta: float
    ) -> float:
        """The value of ``move`` for the side that plays it."""
        played = self.settle(position, move) if isinstance(move, Attack) else move
        position.push(played)
        try:
            return -self.value(position, depth - 1, -beta, -alpha)
        finally:
            position.pop()


# -- analysis (notation analyze) and assessment (notation annotate --analyze) ----------


def _spelled(position: CaveRules, move: CaveMove) -> CaveMove:
    """An attack written with its most likely letters (a hidden piece's letters are the
    fight's to show; the record needs some); other moves as they are."""
    if not isinstance(move, Attack):
        return move
    outcomes = fight_odds(position, move.origin, move.target)
    return max(outcomes, key=lambda pair: pair[1])[0]


def _playout(position: CaveRules, rng: random.Random, max_turns: int) -> str | None:
    """Play greedy against greedy from ``position`` (pushed on it) with a deal drawn
    consistently with it; the outcome, or None if the game is still on at the end."""
    truth = deal_classes(position, rng)
    settle = _Determinised(truth).settle
    for _ in range(max_turns):
        if position._result is not None:
            break
        legal = position.legal_moves()
        move = greedy_bot(position, legal, rng)
        position.push(settle(position, move) if isinstance(move, Attack) else move)
    return position._result


def _seed(position: CaveRules) -> int:
    """A seed that depends on the position only, so that an analysis is repeatable."""
    return sum((i + 1) * ord(ch) for i, ch in enumerate(position.position_string()))


def analyse(
    position: CaveRules,
    *,
    depth: int | None = None,
    seconds: float | None = None,
    playouts: int = 200,
) -> Analysis:
    """The engine's view of ``position`` (``GAME.analyse``; ``notation analyze``).

    The best move is the expectimax search's (:class:`ExpectimaxPlayer`), deepened
    one ply at a time up to ``depth`` (default :data:`DEFAULT_DEPTH`) while the
    time lasts.  The value, the mover's probability of winning, is estimated by
    ``playouts`` games played from the best move on, greedy against greedy (draws
    count half), each with a deal drawn consistently with the record, in what is left
    of ``seconds`` (default :data:`DEFAULT_SECONDS`).  The notes give every hidden
    piece's exact identity odds, and the odds of the best move's fight.  The
    position is left as it was; the same position gives the same answer when the
    time is not what stops the playouts.
    """
    mover = position.turn & 1
    notes = tuple(infer.odds_lines(position))
    result = position._result
    if result is not None:
        value = 0.5 if result == DRAW else float(_RESULT_SIDE[result] == mover)
        return Analysis(value, "probability", (), True, 0, 0, notes)
    start = time.perf_counter()
    budget = DEFAULT_SECONDS if seconds is None else max(0.0, seconds)
    deadline = start + budget
    most = DEFAULT_DEPTH if depth is None else max(1, depth)
    work = position.copy()
    rng = random.Random(_seed(position))
    values: list[tuple[CaveMove, float]] = []
    nodes, reached = 0, 0
    for d in range(1, most + 1):
        try:
            # The first depth always finishes: without it there is no move to name.
            found, seen = _root_values(work, d, deadline if d > 1 else None)
        except _Timeout:
            break
        values, reached = found, d
        nodes += seen
        if time.perf_counter() > deadline:
            break
    best = _pick(values, rng)
    # Playouts: at least one, so that there is an estimate however short the time.
    wins = 0.0
    played = 0
    while played < max(1, playouts) and (not played or time.perf_counter() < deadline):
        game = work.copy()
        if isinstance(best, Attack):
            outcomes = fight_odds(game, best.origin, best.target)
            settled = rng.choices(
                [move for move, _ in outcomes], [float(p) for _, p in outcomes]
            )[0]
            game.push(settled)
        else:
            game.push(best)
        outcome = _playout(game, rng, 400)
        nodes += game.turn - work.turn
        played += 1
        if outcome is None or outcome == DRAW:
            wins += 0.5
        elif _RESULT_SIDE[outcome] == mover:
            wins += 1
    spelled = _spelled(work, best)
    extra: list[tuple[str, str]] = []
    if isinstance(best, Attack):
        chance = win_chance(work, best.origin, best.target)
        fight = f"{SQUARES[best.origin]} wins with probability {chance}"
        extra.append(("best move's fight", fight))
    extra.append(("playouts", f"{played} games, greedy play after the best move"))
    return Analysis(
        wins / played, "probability", (str(spelled),), False, reached, nodes, (*notes, *extra)
    )


def assess_move(position: CaveRules, move: CaveMove) -> Assessment | None:
    """What ``annotate --analyze`` writes for ``move`` (before it is played).

    An attack gets the exact probability that it wins, as the ``analysis`` reason,
    and ``??`` if it cannot win while another action exists.  After every attack
    the ``identities`` value gives the exact odds of every piece still never shown
    (:func:`.infer.annotation_value`), in the position after the move, as the
    ``possible`` annotation does.  Other moves get nothing (None).  ``position`` is
    left as it was.
    """
    if position._result is not None or not isinstance(move, Attack):
        return None
    board = position._board
    attacker, defender = board[move.origin], board[move.target]
    if not attacker or not defender or PIECE_SIDE[attacker[0]] == PIECE_SIDE[defender[0]]:
        return None
    if PIECE_SIDE[attacker[0]] != position.turn & 1:
        return None
    chance = win_chance(position, move.origin, move.target)
    try:
        position.push(move)
    except IllegalMoveError:
        return None
    try:
        value = infer.annotation_value(position)
    finally:
        position.pop()
    glyph = ""
    who = f"{SIDE_NAMES[PIECE_SIDE[attacker[0]]]}'s attack from {SQUARES[move.origin]}"
    if chance == 0:
        reason = f"{who} cannot win this fight"
        if any(not isinstance(m, Attack) or win_chance(position, m.origin, m.target)
               for m in actions(position)):
            glyph = "??"
    else:
        reason = f"{who} wins with probability {chance}"
    values = (("identities", value),) if value else ()
    return Assessment(glyph, reason, values)

