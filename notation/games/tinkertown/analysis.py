"""Move assessment: ``??``, ``?`` and ``!`` from the search, and wins at once.

docs/tinkertown.md, "Move assessment (``annotate --analyze``)".  A move of the
movement stage is judged by the search (:mod:`.search`) at :data:`ASSESS_DEPTH`
plies: the score of the position (its best move) against the score of the move
played, both for the mover.  The margins are in groups (a score of 100 is one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from notation.errors import IllegalMoveError
from notation.games.tinkertown.board import MOVEMENT, SIDE_NAMES, WHITE
from notation.games.tinkertown.search import CONTROL, PROVEN, WIN_SCORE, Searcher
from notation.games.view import Assessment

if TYPE_CHECKING:
    from notation.games.tinkertown.moves import TinkertownMove
    from notation.games.tinkertown.rules import TinkertownRules

# The game imports this module only to assess a move: a check or a conversion never
# builds the search's tables.

__all__ = ["ASSESS_DEPTH", "BLUNDER", "MISTAKE", "assess_move", "eval_text", "winning_move"]

#: Plies the assessment searches (the move played counts as one).
ASSESS_DEPTH: Final = 3
#: A move that scores this much less than the best (one group is 100) is a mistake,
#: ``?``; a move that is the best by this much over every other is ``!``.
MISTAKE: Final = 250
#: A move that scores this much less than the best is a blunder, ``??``.
BLUNDER: Final = 500


def assess_move(
    position: TinkertownRules, move: TinkertownMove, depth: int = ASSESS_DEPTH
) -> Assessment | None:
    """``??``, ``?``, ``!`` or no glyph for ``move`` in ``position`` (movement stage), by a
    search ``depth`` plies deep, with the move's score for White as ``eval``; None
    in the resurrection stage, after the end, and for an illegal move.

    With ``best`` the score of the position and ``score`` that of the move, both for
    the mover: ``??`` when the move turns a position that is not lost into a proven
    loss, or ``best - score >= BLUNDER``; ``?`` when it misses a proven win, or
    ``best - score >= MISTAKE``; ``!`` when every other move scores at least
    ``MISTAKE`` less.  A move that wins or is a proven win is never ``?`` or ``??``;
    a move that wins at once gets no glyph.  ``position`` is left as it was.
    """
    if position.stage != MOVEMENT or position.outcome() is not None:
        return None
    try:
        played = position.canonical(move)
        position.push(played)
    except IllegalMoveError:
        return None
    side = position.side_to_move ^ 1
    won = position.winner == side
    position.pop()
    if won:
        return Assessment("", "", (("eval", eval_text(WIN_SCORE - 1, side)),))
    searcher = Searcher(position)
    found = searcher.search(depth)
    best_line = found.line
    score, reply_line = searcher.score_of(played, depth)
    # The move's own search may see further than the position's did (the table
    # differs): the move is then the best.
    best = max(found.score, score)
    values = (("eval", eval_text(score, side)),)
    other = SIDE_NAMES[1 - side]
    best_move = best_line[0] if best_line else played
    loss = best - score
    if score >= PROVEN:
        glyph, reason = "", ""
    elif score <= -PROVEN and best > -PROVEN:
        plies = WIN_SCORE + score - 1  # the plies after the move played
        reply = reply_line[0] if reply_line else _reply(position, played)
        if plies <= 1:
            glyph, reason = "??", f"allows {reply}, which wins for {other}"
        else:
            glyph, reason = "??", f"allows {reply}, and {other} wins in {plies} plies"
    elif best >= PROVEN:
        plies = WIN_SCORE - best
        when = "at once" if plies == 1 else f"in {plies} plies"
        glyph, reason = "?", f"misses {best_move}, which wins {when}"
    elif loss >= BLUNDER:
        glyph, reason = "??", _costs(loss, best_move, depth)
    elif loss >= MISTAKE:
        glyph, reason = "?", _costs(loss, best_move, depth)
    else:
        glyph, reason = "", ""
    if (
        not glyph
        and score >= best
        and not searcher.another_reaches(played, depth, score - MISTAKE)
        and len(searcher.children(0)) > 1  # a forced move is no find
    ):
        glyph, reason = "!", _only(searcher, played, score, depth)
    return Assessment(glyph, reason, values)


def _costs(loss: int, best_move: TinkertownMove, depth: int) -> str:
    return f"{best_move} scores {loss / CONTROL:.2f} groups more (depth {depth})"


def _only(searcher: Searcher, played: TinkertownMove, score: int, depth: int) -> str:
    """Why ``played`` is the only good move, in words."""
    if score >= PROVEN:
        return f"the only move that wins (in {WIN_SCORE - score} plies)"
    if not searcher.another_reaches(played, depth, -PROVEN):
        # Every other move is a proven loss; "at once" when each lets the opponent
        # win on the next ply (their one-ply values say so).
        at_once = -(WIN_SCORE - 2)
        others = [value for value, move, _ in searcher.children(0) if move != played]
        when = " at once" if all(value == at_once for value in others) else ""
        return f"the only move that does not lose{when}"
    return f"every other move scores {MISTAKE / CONTROL:.2f} groups less or worse (depth {depth})"


def _reply(position: TinkertownRules, played: TinkertownMove) -> TinkertownMove | str:
    """The opponent's win at once after ``played`` (which allows one)."""
    position.push(played)
    try:
        return winning_move(position) or "a win"
    finally:
        position.pop()


def eval_text(score: int, side: int) -> str:
    """The ``eval`` annotation of a move whose score is ``score`` for ``side``, who played
    it: the position after the move, for White, in groups (``+1.25``); or ``#n`` /
    ``#-n`` when White / Red wins in n more plies (``#0``: the move won)."""
    white = score if side == WHITE else -score
    if abs(white) >= PROVEN:
        plies = WIN_SCORE - abs(white) - 1
        return f"#{plies}" if white > 0 else f"#-{plies}"
    return f"{white / CONTROL:+.2f}"


def winning_move(position: TinkertownRules) -> TinkertownMove | None:
    """A move that wins at once for the side to move, or None (movement stage only):
    :meth:`TinkertownRules.winning_move <notation.games.tinkertown.rules.
    TinkertownRules.winning_move>`."""
    return position.winning_move()
