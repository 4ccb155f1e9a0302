"""The legal slip: an earlier move, copied wrong but still legal, that broke a line later.

A transcriber's worst slip is the one the rules accept (``f5-f3`` for ``f5-f4``): the
record breaks many moves later, where the wrong square first matters, and a guess made
there is a guess at a symptom.  :func:`find_slips` looks back from the break: for the
broken move and each earlier move of the line, the legal moves one slip away from what
was written (the kinds of :func:`notation.checking.every_defect.ranked_moves`: a character
substituted, dropped, added or two swapped, another mark, another die face, another
Cave class), and keeps those after which every later move of the line plays, to its
end, and the rules agree with the result.  Each found is a :class:`Slip`; the search
says how far back it looked (:class:`SlipSearch`).

Every candidate is played forward from its position and taken back (``push``/``pop``),
and stops at the first later move that fails: what the search lists always lets the
whole line play.  It looks at every earlier move unless the line is so long that its
``budget`` of moves played runs out first; it then says where it stopped, and lists
only what it checked.

>>> from notation.games import get_game
>>> game = get_game("cave")
>>> moves = ["b1", "b5", "b1-a1", "b5-b4", "c1-c2", "b4-c4"]  # b1-a1 was b1-c1
>>> search = find_slips(game, game.new_position(), moves, "*")
>>> search.broken  # the first move that does not play: c1-c2, the fifth
4
>>> [(slip.turn, slip.written, slip.meant, slip.later) for slip in search.slips]
[(3, 'b1-a1', 'b1-c1', 3)]
>>> search.earliest, search.complete  # it looked back to the first move
(0, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError
from notation.games.base import Game, Position

__all__ = [
    "LOOK_COST",
    "MAX_PUSHES",
    "MIN_PUSHES",
    "PUSHES_PER_MOVE",
    "Slip",
    "SlipSearch",
    "distance",
    "find_slips",
    "likely_moves",
    "neighbours",
    "plays_to_the_end",
    "ranked_moves",
    "search_budget",
]

#: The search's budget, in moves played per move of the line (and at least
#: :data:`MIN_PUSHES`, at most :data:`MAX_PUSHES`): enough to look at every earlier
#: move of a line of a few hundred moves many times over; only a line of thousands
#: stops it short (a second or two of moves played, whatever the record's length).
PUSHES_PER_MOVE: Final = 1000
MIN_PUSHES: Final = 20_000
MAX_PUSHES: Final = 1_000_000
#: What looking for the moves one slip away at one move of the line costs, in moves
#: played (:func:`ranked_moves` makes the position's legal moves, and the texts one
#: slip from what was written): counted against the budget too.
LOOK_COST: Final = 40


def search_budget(moves: int) -> int:
    """How many moves the slip searches of a line (or record) of ``moves`` moves may
    play: :data:`PUSHES_PER_MOVE` each, within :data:`MIN_PUSHES` and
    :data:`MAX_PUSHES`."""
    return min(MAX_PUSHES, max(MIN_PUSHES, PUSHES_PER_MOVE * moves))


# -- the moves one slip away from a text -----------------------------------------------

#: Per game: what a move's text is, marks left out and forms made one (lower case).
#: Two spellings of the same move "but for its marks" have the same form.
_TINKERTOWN_X = re.compile(r"x(?=[a-h][1-8])")
_CAVE_CLASS = re.compile(r"[kzs](?=[a-d][1-5])")
_KIDZ_LONG = re.compile(r"^([a-z]):[a-c][1-3]-")


def _tinkertown_form(text: str) -> str:
    return _TINKERTOWN_X.sub("-", text).rstrip("x")


def _cave_form(text: str) -> str:
    return _CAVE_CLASS.sub("", text)


def _kidz_form(text: str) -> str:
    return _KIDZ_LONG.sub(r"\1:", text.rstrip("xl"))


_FORMS: Final[Mapping[str, Callable[[str], str]]] = MappingProxyType({
    "tinkertown": _tinkertown_form,  # the capture mark x, before or after the square
    "cave": _cave_form,  # the class letters K, Z, S of the pieces that fight
    "zombie-kidz": _kidz_form,  # the marks x and L; the pawn's zone in the long form
})


def _same(text: str) -> str:
    return text


def distance(a: str, b: str) -> int:
    """Edits from ``a`` to ``b``: characters substituted, dropped or added, and swaps of
    two adjacent characters (the optimal string alignment distance)."""
    if a == b:
        return 0
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before[j - 2] + 1)
            current[j] = best
        before, row = row, current
    return row[-1]


#: The form of each legal move's text met, per game (legal moves repeat from position
#: to position).  Bounded: it starts again when full.
_KNOWN_FORMS: dict[str, dict[str, str]] = {}
_KNOWN_FORMS_LIMIT = 20_000


def neighbours(text: str, letters: Iterable[str]) -> set[str]:
    """Every text at most one slip from ``text`` (:func:`distance` 1 or 0) made of
    ``text``'s characters and ``letters``: one substituted, dropped, added or two
    adjacent ones swapped."""
    letters = set(letters) | set(text)
    found = {text}
    for at in range(len(text) + 1):
        head, tail = text[:at], text[at:]
        found.update(head + letter + tail for letter in letters)  # added
        if tail:
            rest = tail[1:]
            found.add(head + rest)  # dropped
            found.update(head + letter + rest for letter in letters)  # substituted
            if rest:
                found.add(head + rest[0] + tail[0] + rest[1:])  # swapped
    return found


def likely_moves(game: Game[Any], position: Position[Any], text: str) -> list[str]:
    """The legal moves at ``position`` most likely meant by ``text`` (a move the rules
    refuse there, or cannot read), in their canonical spelling: every candidate of the
    best rank (see :func:`ranked_moves`), so a clear best is the only one listed."""
    ranked = ranked_moves(game, position, text)
    return [spelt for rank, spelt in ranked if rank == ranked[0][0]] if ranked else []


def ranked_moves(
    game: Game[Any], position: Position[Any], text: str
) -> list[tuple[tuple[int, int], str]]:
    """The legal moves at ``position`` that ``text`` may be a slip for, each with its
    rank (lower is likelier), best first, in their canonical spelling.

    A legal move is a candidate if it is ``text`` but for its marks (Tinkertown's
    capture mark ``x``, Zombie Kidz's ``x`` and ``L`` and its long form, Cave's class
    letters): rank ``(0, edits)``; or one slip away, one character substituted,
    dropped or added, or two adjacent ones swapped: rank ``(1, edits)`` (``edits``:
    how many such edits from what was written; letter case never counts).
    """
    if len(text) > 2 * game.max_move_length:
        # No move is a slip or two from it, and comparing would cost its length for
        # every legal move (seconds for a token of 20,000 characters).
        return []
    form = _FORMS.get(game.name, _same)
    written = text.casefold()
    shape = form(written)
    ranked: dict[str, tuple[int, int]] = {}
    legal = [(spelt, spelt.casefold()) for spelt in map(str, position.legal_moves())]
    letters = {letter for _, folded in legal for letter in folded}
    # The texts one slip from what was written (and from its form), made once: a legal
    # move is one of them or not, told by a look-up.
    near, near_form = neighbours(written, letters), neighbours(shape, letters)
    forms = _KNOWN_FORMS.setdefault(game.name, {})
    for spelt, folded in legal:
        folded_form = forms.get(folded)
        if folded_form is None:
            if len(forms) >= _KNOWN_FORMS_LIMIT:
                forms.clear()
            folded_form = forms[folded] = form(folded)
        if folded_form == shape:
            kind = 0
        elif folded in near or folded_form in near_form:
            kind = 1  # one slip away (the distance only for these)
        else:
            continue
        rank = (kind, distance(written, folded))
        if spelt not in ranked or rank < ranked[spelt]:
            ranked[spelt] = rank
    return sorted((rank, spelt) for spelt, rank in ranked.items())


# -- the slip that lets the rest of a line play ----------------------------------------


@dataclass(frozen=True, slots=True)
class Slip:
    """A move of a line that, written otherwise by one slip, lets the rest of the line
    play: ``index`` is its place in the line (0 for the first move), ``turn`` its turn,
    ``written`` the move as the record has it, ``meant`` the move that plays instead
    (canonical spelling), ``rank`` how likely the slip is (lower is likelier: see
    :func:`ranked_moves`) and ``later`` how many later moves of the line then play
    (all of them, for a slip of :attr:`SlipSearch.slips`)."""

    index: int
    turn: int
    written: str
    meant: str
    rank: tuple[int, int]
    later: int


@dataclass(frozen=True, slots=True)
class SlipSearch:
    """What :func:`find_slips` found: ``slips``, likeliest first; ``broken``, the index
    of the first move of the line that does not play (the line's length where the moves
    play but the result is not the rules'; ``None`` for a line that plays); and
    ``earliest``, the earliest index it looked at (0: back to the line's first move),
    ``complete`` saying whether it looked at every move it could; ``spent``, how many
    moves it played; ``further``, the changes after which the line plays as far as
    its break or past it, but not to its end (each a :class:`Slip` whose ``later``
    counts the moves that then play), furthest first: where a line holds two slips,
    one of them."""

    slips: tuple[Slip, ...]
    broken: int | None
    earliest: int
    complete: bool
    spent: int = 0
    further: tuple[Slip, ...] = ()


def _move(game: Game[Any], text: str) -> Any:
    """``text`` read as a move of ``game`` (the game's memo first)."""
    move = game.parsed_unchecked(text)
    return game.parse(text) if move is None else move


def _agrees(position: Position[Any], result: str | None) -> bool:
    """Whether the rules at ``position`` (a line's end) agree with ``result``, as a
    check has them agree: where they end the game, with that result (a record may end
    unfinished, or resigned, with any result its game has).  ``None`` (no result
    written, or a variation's end) agrees with any end."""
    if result is None:
        return True
    outcome = position.outcome()
    return outcome is None or outcome == result


def _parsed(game: Game[Any], text: str) -> Any:
    """``text`` read as a move of ``game``, or ``None`` where it reads as none."""
    try:
        return _move(game, text)
    except MoveSyntaxError:
        return None


def _replayed(position: Position[Any], moves: Sequence[Any], start: int) -> int:
    """Push ``moves[start:]`` (move objects; ``None`` for a text that reads as no move)
    on ``position`` in turn, as far as they go: how many were pushed.  The search's
    inner loop: most of its time is here."""
    push = position.push
    pushed = 0
    for move in moves[start:] if start else moves:
        if move is None:
            break
        try:
            push(move)
        except IllegalMoveError:
            break
        pushed += 1
    return pushed


def plays_to_the_end(
    game: Game[Any], position: Position[Any], moves: Sequence[str], result: str | None
) -> bool:
    """Whether ``moves`` all play in turn from ``position`` (left as it was) and the
    rules then agree with ``result`` (where they end the game, it is their result;
    ``None``: any end will do)."""
    played = _replayed(position, [_parsed(game, text) for text in moves], 0)
    try:
        return played == len(moves) and _agrees(position, result)
    finally:
        for _ in range(played):
            position.pop()


def find_slips(
    game: Game[Any],
    start: Position[Any],
    moves: Sequence[str],
    result: str | None,
    *,
    fixed: Mapping[int, str] | None = None,
    limit: int = 3,
    budget: int | None = None,
) -> SlipSearch:
    """The slips of ``moves`` (a line's move texts, played from ``start``, which is left
    as it was) after which the whole line plays and the rules agree with ``result``
    (``None``: any end, a variation's).

    ``fixed`` maps indexes of ``moves`` to the texts played there instead (slips found
    already: a second one is looked for with them in place; those moves are not looked
    at again).  At most ``limit`` slips, likeliest first: by rank, then nearest to the
    break.  ``budget``: how many moves the search may play (default
    :func:`search_budget` of the line's length); it stops, incomplete, where that
    runs out.
    """
    if limit < 1:
        raise MisuseError(f"limit must be at least 1, not {limit!r}")
    texts = list(moves)
    for index, text in (fixed or {}).items():
        if not 0 <= index < len(texts):
            raise MisuseError(f"fixed move {index} is not in a line of {len(texts)} moves")
        texts[index] = text
    position = start.copy()
    moves_of = [_parsed(game, text) for text in texts]  # read once: replayed many times
    played = _replayed(position, moves_of, 0)
    if played == len(texts) and _agrees(position, result):
        return SlipSearch((), None, len(texts), True)
    spent = 0
    allowed = budget if budget is not None else search_budget(len(texts))
    found: list[Slip] = []
    further: list[Slip] = []
    earliest = played + 1
    # From the break back to the first move: position is before texts[index].
    for index in range(min(played, len(texts) - 1), -1, -1):
        if index < played:
            position.pop()
        if spent > allowed:
            break
        earliest = index
        if fixed and index in fixed:
            continue
        spent += LOOK_COST
        written = texts[index]
        rest = len(texts) - index - 1
        # The move written, where it is legal, is no slip of itself in another spelling.
        same = str(position.canonical(_move(game, written))) if index < played else None
        for rank, meant in ranked_moves(game, position, written):
            if meant == same or meant.casefold() == written.casefold():
                continue
            position.push(_move(game, meant))
            went = _replayed(position, moves_of, index + 1)
            spent += went + 1
            if went == rest and _agrees(position, result):
                found.append(Slip(index, position.turn - went, written, meant, rank, went))
            elif index + went >= played - 1:  # as far as the break, or past it: one of two?
                further.append(Slip(index, position.turn - went, written, meant, rank, went))
            for _ in range(went + 1):
                position.pop()
    found.sort(key=lambda slip: (slip.rank, -slip.index))
    further.sort(key=lambda slip: (-(slip.index + slip.later), slip.rank, -slip.index))
    return SlipSearch(
        tuple(found[:limit]), played, earliest, earliest == 0, spent, tuple(further)
    )
