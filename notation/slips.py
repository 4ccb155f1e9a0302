"""The legal slip: an earlier move, copied wrong but still legal, that broke a line later.

A transcriber's worst slip is the one the rules accept (``f5-f3`` for ``f5-f4``): the
record breaks many moves later, where the wrong square first matters, and a guess made
there is a guess at a symptom.  :func:`find_slips` looks back from the break: for each
earlier move of the line, the legal moves one slip away from what was written (the
kinds of :func:`notation.allcheck.ranked_moves`: a character substituted, dropped,
added or two swapped, another mark, another die face, another Cave class), and keeps
those after which every later move of the line plays, to its end, and the rules agree
with the result.  Each found is a :class:`Slip`: the turn, what was written, what lets
the rest play, and how many later moves then play.

The search plays each candidate forward from its position and takes it back
(``push``/``pop``), and stops a candidate at the first later move that fails; it looks
at every earlier move, so that what it says is never a guess made for speed.

>>> from notation.games import get_game
>>> game = get_game("cave")
>>> moves = ["b1", "b5", "b1-c1", "b5-b4", "c1-c2", "b4-c4"]
>>> [slip.meant for slip in find_slips(game, game.new_position(), moves, "*")]
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from notation.allcheck import ranked_moves
from notation.errors import IllegalMoveError, MoveSyntaxError
from notation.games.base import Game, Position

__all__ = ["Slip", "find_slips", "plays_to_the_end"]


@dataclass(frozen=True, slots=True)
class Slip:
    """An earlier move that, written otherwise by one slip, lets the rest of its line
    play: ``index`` is its place in the line (0 for the first move), ``turn`` its turn,
    ``written`` the move as the record has it, ``meant`` the move that plays instead
    (canonical spelling), ``rank`` how likely the slip is (lower is likelier: see
    :func:`notation.allcheck.ranked_moves`) and ``later`` how many later moves play
    with it (all of them: a slip is kept only then)."""

    index: int
    turn: int
    written: str
    meant: str
    rank: tuple[int, int]
    later: int


def _move(game: Game[Any], text: str) -> Any:
    """``text`` read as a move of ``game`` (the game's memo first)."""
    move = game.parsed_unchecked(text)
    return game.parse(text) if move is None else move


def plays_to_the_end(
    game: Game[Any], position: Position[Any], moves: Sequence[str], result: str | None
) -> bool:
    """Whether ``moves`` all play in turn from ``position`` (left as it was) and the
    rules then agree with ``result``: the outcome they reach is ``result``, or they
    reach none and the result is ``*`` (or none is written)."""
    played = 0
    try:
        for text in moves:
            position.push(_move(game, text))
            played += 1
        outcome = position.outcome()
        return outcome == result if outcome is not None else result in (None, "*")
    except (MoveSyntaxError, IllegalMoveError):
        return False
    finally:
        for _ in range(played):
            position.pop()


def find_slips(
    game: Game[Any],
    start: Position[Any],
    moves: Sequence[str],
    result: str | None,
    *,
    limit: int = 3,
) -> list[Slip]:
    """The slips of ``moves`` (a line's move texts, played from ``start``, which is left
    as it was) after which the whole line plays and the rules agree with ``result``:
    at most ``limit``, likeliest first (by rank, then nearest to the line's end).  A
    line that plays as written has none."""
    position = start.copy()
    played = 0
    for text in moves:
        try:
            position.push(_move(game, text))
        except (MoveSyntaxError, IllegalMoveError):
            break
        played += 1
    if played == len(moves) and plays_to_the_end(game, position, [], result):
        return []  # the line plays, and its result agrees
    found: list[Slip] = []
    # From the break back to the first move: position is before moves[index].
    for index in range(min(played, len(moves) - 1), -1, -1):
        if index < played:
            position.pop()
        written = moves[index]
        rest = moves[index + 1 :]
        for rank, meant in ranked_moves(game, position, written):
            if meant.casefold() == written.casefold():
                continue
            position.push(_move(game, meant))
            plays = plays_to_the_end(game, position, rest, result)
            position.pop()
            if plays:
                found.append(Slip(index, position.turn + 1, written, meant, rank, len(rest)))
    found.sort(key=lambda slip: (slip.rank, -slip.index))
    return found[:limit]
