"""Every defect of a record (``notation check --all``), and what each depends on.

A check (:class:`~notation.replay.Replay`) stops at a record's first defect.  With
``--all`` the record is looked at again once it is found broken (valid records cost
only the copy of their text the reader keeps):

- the container: each syntax error the reader can read past (a stray ``}`` or ``)``,
  a malformed tag line, move number or glyph, a result written ``1 - 0``) is blanked
  out of the record's text and the text read again, until the reader finds no more or
  one it cannot read past (an unclosed ``{``, a missing result...);
- the moves: every line, main line and variations, is replayed.  A wrong move number is
  reported and the line goes on.  Where a line breaks (a move the rules refuse or
  cannot read, or a result they contradict), the slip that caused it is looked for
  (:func:`~notation.checking.slips.find_slips`): at that move and at every move before it, the
  legal moves one slip away from what is written, kept only if every later move of
  the line then plays and the rules agree with the result.  One found is named ("did
  you mean e7,a6?" at the broken move; "turn 25 (13. f5-f3) was probably f5-f4" before
  it), with its :class:`~notation.errors.Fix`, and the line goes on as if it had been
  written, every later defect of that line saying so ("assuming e7,a6 at turn 12").
  Where none is, two are looked for (a change after which the line plays further, and
  one more from there); where nothing works, the message says how far back the search
  looked and that line stops there.  Its variations, and the lines after it, are still
  checked.

For a rules defect that depends on what stands on a square, :func:`with_last_change`
names the turn that last changed that square, found by taking moves back from the
position of the defect (every check does this, only once a defect is found).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from notation.checking.canonical_form import StrictJudge, strict_replay
from notation.checking.move_fix import move_fix
from notation.checking.slips import (
    Slip,
    SlipSearch,
    distance,
    find_slips,
    likely_moves,
    neighbours,
    plays_to_the_end,
    ranked_moves,
    search_budget,
)
from notation.errors import (
    Assumption,
    Defect,
    ErrorKind,
    Fix,
    IllegalMoveError,
    MoveSyntaxError,
    TagValueError,
)
from notation.games.base import Game, Position
from notation.lastchange import with_last_change
from notation.reader import RESULTS, read_records
from notation.record import MoveNode, Record
from notation.replay import (
    Judge,
    Replay,
    Verdict,
    comma_hint,
    move_error,
    number_error,
    resolve_game,
    result_error,
    start_position,
    tag_error,
)
from notation.visitor import expected_number

__all__ = [
    "MAX_DEFECTS",
    "EveryDefect",
    "all_errors",
    "check_replay",
    "distance",
    "likely_moves",
    "neighbours",
    "ranked_moves",
]

#: At most this many defects are reported for one record (a hostile record can hold a
#: million stray brackets; each costs a reading of the record).
MAX_DEFECTS: Final = 200

#: At most this many slips are named for one broken move, the likeliest; where more let
#: the rest of the line play, the message counts them.
MAX_SLIPS_TOLD: Final = 4

#: At most this many slips found for one broken move are kept as its fixes (Zombie
#: Kidz's die faces can give a dozen: each of a few turns rolled otherwise).
SLIPS_KEPT: Final = 20

#: Where no one slip lets a broken line play: how many of the changes after which it
#: plays furthest are each tried with one more slip (a search of the line each).
PAIRS_TRIED: Final = 8

# -- the container: syntax errors read past -------------------------------------------

#: The reader's errors it can read past once the offending text is blanked out, and
#: how much text that is, found at the error's place.
_BLANKED: Final[Mapping[str, re.Pattern[str]]] = MappingProxyType({
    "comment-unopened": re.compile(r"\}"),
    "variation-unopened": re.compile(r"\)"),
    "number-malformed": re.compile(r"\d+\.+"),
    "number-too-long": re.compile(r"\d+\.+"),
    "glyph-orphan": re.compile(r"\$\d+"),
    "glyph-too-long": re.compile(r"\$\d+"),
})


#: A result written with spaces around its dash ("1 - 0"), as the reader finds it.
_SPACED = re.compile(r"(1/2|1|0)\s*-\s*(1/2|1|0)(?=[\s(){};]|$)")


def _read(lines: list[str], first_line: int = 1) -> Record | None:
    """The one record of ``lines``, the first numbered ``first_line`` (``None`` if they
    do not read as one)."""
    text = io.StringIO("".join(lines), newline="")
    records = list(read_records(text, keep_raw=False, first_line=first_line))
    return records[0] if len(records) == 1 else None


def _repaired(lines: list[str], error: Defect, first_line: int) -> list[str] | None:
    """``lines`` (the first numbered ``first_line``) with the text of ``error`` blanked
    out, so that the reader reads past it; ``None`` where it cannot."""
    index = error.line - first_line
    if not 0 <= index < len(lines):
        return None
    line = lines[index]
    start = error.column - 1
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if error.code == "tag-malformed":
        # An escape line: ignored wherever it stands, and the line count is kept.
        patched = "%" + " " * max(0, len(body) - 1)
    elif error.code == "result-spaced":
        match = _SPACED.match(body, start)
        if match is None:
            return None
        written = f"{match.group(1)}-{match.group(2)}"
        patched = body[:start] + written.ljust(len(match.group())) + body[match.end() :]
    else:
        pattern = _BLANKED.get(error.code)
        match = None if pattern is None else pattern.match(body, start)
        if match is None:
            return None
        patched = body[:start] + " " * (match.end() - start) + body[match.end() :]
    copy = list(lines)
    copy[index] = patched + ending
    return copy


def _container(record: Record) -> tuple[Record, list[Defect], int] | None:
    """The record read again from its text with each syntax error the reader can read
    past blanked out: the last reading, the reader's errors (in the text's own line
    numbers) and what to add to those to get the file's; ``None`` where the record's
    text does not read again as it did (a record that starts after another's result on
    the same line)."""
    raw = record.raw
    if raw is None:
        return None
    lines = io.StringIO(raw, newline="").readlines()
    tree = _read(lines)
    if tree is None:
        return None
    # The text's first line is the file's line `start` (escape lines before the record
    # are in its text): read again so numbered, messages name the file's lines too.
    start = 1 + record.first_line - tree.first_line
    if start != 1:
        tree = _read(lines, start)
        if tree is None:
            return None
    if tree.error != record.error or tree.first_line != record.first_line:
        return None
    found: list[Defect] = []
    while tree.error is not None and len(found) < MAX_DEFECTS:
        error = tree.error
        found.append(error)
        patched = _repaired(lines, error, start)
        if patched is None:
            break
        next_tree = _read(patched, start)
        if next_tree is None:
            break
        later = next_tree.error
        if later is not None and (later.line, later.column) <= (error.line, error.column):
            break  # no further on: keep what was read
        lines, tree = patched, next_tree
    return tree, found, 0


# -- the moves: every line replayed ----------------------------------------------------


class _Line:
    """A line being replayed: its nodes, where it is, the moves it pushed."""

    __slots__ = ("assumed", "base", "before", "dead", "held", "index", "main", "nodes",
                 "pushed", "variations")

    def __init__(
        self, nodes: list[MoveNode], assumed: tuple[Assumption, ...], main: bool, base: int
    ):
        self.nodes = nodes
        self.index = 0
        self.assumed = assumed  # the assumptions this line was played under so far
        self.main = main
        self.base = base  # how many moves of the path are those of the lines before it
        self.dead = False
        self.pushed = 0
        # The move taken back for the variations of the last node, with its place in
        # the path.
        self.held: tuple[Any, tuple[MoveNode, str]] | None = None
        self.variations: list[Any] = []  # those variations not yet played
        self.before: tuple[Assumption, ...] = ()  # the assumptions before that node


class _Found:
    """The defects of one record, with what each was found under, and what ``--all``
    added to each message (its hint), kept apart so that the first defect can be told
    with the words of a plain check and this hint."""

    def __init__(self) -> None:
        self.items: list[Defect] = []
        self.hints: dict[int, str] = {}  # the index of a defect of items: its hint

    def add(
        self, defect: Defect, assumed: tuple[Assumption, ...] = (), hint: str = "",
        fixes: tuple[Fix, ...] = (),
    ) -> None:
        if len(self.items) >= MAX_DEFECTS:
            return
        if hint or fixes:
            defect = replace(defect, message=defect.message + hint,
                             fixes=(*fixes, *defect.fixes))
            self.hints[len(self.items)] = hint
        if assumed:
            shown = ", ".join(f"{a.assumed} at turn {a.turn}" for a in assumed)
            defect = replace(
                defect, message=f"{defect.message} (assuming {shown})", assumed=assumed
            )
        self.items.append(defect)

    def hint_of(self, defect: Defect) -> str:
        """What ``--all`` added to the message of ``defect`` (one of :attr:`items`)."""
        for index, item in enumerate(self.items):
            if item is defect:
                return self.hints.get(index, "")
        return ""

    @property
    def full(self) -> bool:
        return len(self.items) >= MAX_DEFECTS


def _strict_visitor(default_game: str | None) -> StrictJudge:
    """The strict check's visitor (notation.checking.canonical_form), told the moves one by one."""
    return StrictJudge(default_game)


@dataclass(frozen=True, slots=True)
class _Broken:
    """A line broken at ``node`` (turn ``turn``), as the slip search sees it: the
    ``defect`` found, the ``result`` the line must reach (``None``: any), the ``texts``
    of the line's moves from the record's start with their ``nodes``, and ``at``, the
    broken move's place among them."""

    line: _Line
    node: MoveNode
    turn: int
    before: tuple[Assumption, ...]
    defect: Defect
    result: str | None
    texts: list[str]
    nodes: list[MoveNode]
    at: int


class _Moves:
    """Every line of a record tree replayed, each defect found and the line gone on.

    Where a line breaks, the slip that lets the whole rest of it play is looked for
    (:func:`~notation.checking.slips.find_slips`): at the broken move, and at every move before
    it.  A move is named as meant only when it does; the line then goes on as if it
    had been written.  Where none does, the message says how far back the search
    looked, and the line stops there."""

    def __init__(
        self, game: Game[Any], position: Position[Any], found: _Found, strict: Any,
        result: str | None, budget: int,
    ) -> None:
        self.game = game
        self.position = position
        self.start = position.copy()
        self.found = found
        self.strict = strict
        self.size = position.round_size
        #: The result the main line must reach (None: none is written).
        self.result = result
        #: Moves the slip searches of this record may still play.
        self.budget = budget
        #: The moves on the position, each with its node and the text played for it.
        self.path: list[tuple[MoveNode, str]] = []
        #: The position at the main line's end (None: it was not played to its end),
        #: and the path that led there.
        self.final: Position[Any] | None = None
        self.final_path: list[tuple[MoveNode, str]] = []
        self.main_assumed: tuple[Assumption, ...] = ()
        self._searched: dict[tuple[tuple[str, ...], str | None], SlipSearch] = {}

    # -- the position and its path, kept together -------------------------------------
    def _push(self, move: Any, node: MoveNode, text: str) -> None:
        self.position.push(move)
        self.path.append((node, text))

    def _pop(self) -> tuple[Any, tuple[MoveNode, str]]:
        return self.position.pop(), self.path.pop()

    def run(self, moves: list[MoveNode]) -> None:
        stack = [_Line(moves, (), True, 0)]
        while stack and not self.found.full:
            line = stack[-1]
            if line.variations:
                variation = line.variations.pop(0)
                if self.strict is not None:
                    for comment in variation.comments_before:
                        self.strict.visit_comment(comment)
                    self.strict.begin_variation(variation.line, variation.column)
                stack.append(_Line(variation.nodes, line.before, False, len(self.path)))
                continue
            if line.held is not None:
                move, (node, text) = line.held
                self._push(move, node, text)
                line.pushed += 1
                line.held = None
            if line.dead or line.index >= len(line.nodes):
                stack.pop()
                if line.main:
                    if not line.dead:
                        self.final = self.position.copy()
                        self.final_path = list(self.path)
                    self.main_assumed = line.assumed
                elif self.strict is not None and stack:
                    self.strict.end_variation()
                for _ in range(line.pushed):
                    self._pop()
                continue
            self._step(line)

    def _step(self, line: _Line) -> None:
        """Play the next node of ``line`` (and note its variations)."""
        position, game = self.position, self.game
        node = line.nodes[line.index]
        line.index += 1
        before = line.assumed
        turn = position.turn + 1
        strict = self.strict
        if strict is not None:
            for comment in node.comments_before if node.has_comments_before else ():
                strict.visit_comment(comment)
            strict.visit_move(node.text, node.suffix, node.number, node.line, node.column)
        if node.number is not None:
            wrong = number_error(node, turn, self.size)
            if wrong is not None:
                self.found.add(wrong, before)
        move = _played(game, position, node.text)
        if isinstance(move, Exception):
            move = self._failed(line, node, move, turn, before)
        else:
            self.path.append((node, node.text))
            if strict is not None:
                strict.after_move(move, position)
                problem = strict.problem
                if problem is not None:
                    strict.problem = None
                    self.found.add(problem, before)
        if strict is not None and node.has_comments_after:
            for comment in node.comments_after:
                strict.visit_comment(comment)
        if move is not None:
            line.pushed += 1
        if node.variations:
            line.variations = list(node.variations)
            line.before = before
            if move is not None:
                line.held = self._pop()
                line.pushed -= 1

    # -- a line broken: the slip that lets the rest play --------------------------------
    def _search(
        self, texts: list[str], result: str | None, fixed: dict[int, str] | None = None
    ) -> SlipSearch:
        """:func:`find_slips` of the line ``texts`` (from the record's start), within what
        is left of the record's budget; a line searched already is not searched again."""
        key = (tuple(fixed.get(i, t) for i, t in enumerate(texts)) if fixed else tuple(texts),
               result)
        known = self._searched.get(key)
        if known is not None:
            return known
        search = find_slips(self.game, self.start, texts, result, fixed=fixed,
                            limit=SLIPS_KEPT, budget=max(self.budget, 0))
        self.budget -= search.spent
        self._searched[key] = search
        return search

    def _failed(
        self, line: _Line, node: MoveNode, exc: Exception, turn: int,
        before: tuple[Assumption, ...],
    ) -> Any:
        """``node`` cannot be played: report it, with the slip that lets the rest of the
        line play, and play on as if it had been written (the move played at ``node``
        is returned); or end the line (``None``)."""
        position, game = self.position, self.game
        defect = move_error(node, exc, turn)
        if isinstance(exc, IllegalMoveError):
            defect = with_last_change(game, position, defect, node.text)
        rest_nodes = line.nodes[line.index :]
        result = self.result if line.main else None
        joined = self._joined(node, rest_nodes, result)
        if joined is not None:
            defect = replace(defect, message=defect.message + joined[0])
            meant = joined[1]
            fix = move_fix(node, meant, turn, len(rest_nodes) - 1, through=rest_nodes[0])
            self.found.add(defect, before, f"; did you mean {meant}?", (fix,))
            move = game.parse(meant)
            self._push(move, node, meant)
            line.assumed = (*before, Assumption(turn, node.written, meant))
            line.index += 1  # the second square was read as the next move
            return move
        broken = _Broken(
            line, node, turn, before, defect, result,
            texts=[*(text for _, text in self.path), node.text, *(n.text for n in rest_nodes)],
            nodes=[*(n for n, _ in self.path), node, *rest_nodes],
            at=len(self.path),
        )
        search = self._search(broken.texts, result)
        slips = _told(search.slips, broken.at)
        if slips:
            return self._one_slip(broken, slips, len(search.slips) >= SLIPS_KEPT)
        paired = self._pair(search, broken.texts, result)
        if paired is not None:
            return self._two_slips(broken, *paired)
        first = position.turn - broken.at + 1 + search.earliest
        span = f"turn {turn}" if first >= turn else f"turns {first} to {turn}"
        hint = f"; no one slip in {span} lets the rest of this line play"
        if not search.complete:
            hint += " (the search looked no further back: the cause may lie earlier)"
        else:
            hint += " (the cause may be two slips or more)"
        if rest_nodes:
            hint += "; the rest of this line is not checked"
        self.found.add(defect, before, hint)
        line.dead = True
        return None

    def _one_slip(self, broken: _Broken, slips: list[Slip], kept_all: bool) -> Any:
        """Tell the slips after which the whole line plays (the four likeliest, the
        others counted), and go on with the first; ``kept_all``: the search kept as
        many as it keeps, there may be more."""
        line, before = broken.line, broken.before
        more = len(slips) - MAX_SLIPS_TOLD
        if more > 0 and broken.at == len(broken.texts) - 1:
            # The last move, and many legal moves one slip away: any would do, and
            # nothing tells which.
            self.found.add(broken.defect, before)
            line.dead = True
            return None
        extra = ""
        if more > 0:  # the likeliest are told; the others are counted
            slips = slips[:MAX_SLIPS_TOLD]
            counted = f"{more} or more" if kept_all else str(more)
            extra = f" ({counted} other change{'s' if more > 1 else ''} of one slip would do too)"
        nodes = broken.nodes
        hint = self._slips_said(slips, nodes, broken.at, broken.result, line.main) + extra
        fixes = tuple(_slip_fix(nodes[s.index], s.meant, s.turn, s.later, broken.turn)
                      for s in slips)
        self.found.add(broken.defect, before, hint, fixes)
        return self._assume(line, broken.node, slips[:1], broken.at, before)

    def _two_slips(self, broken: _Broken, one: Slip, other: Slip) -> Any:
        """Tell two slips that together let the whole line play (``one`` lets it play
        further than the break, or as far), and go on with what is needed here.

        Where ``one`` lets the broken move play alone, it is told, and ``other`` where
        the line breaks again; where it does not, ``other`` lies before the broken move
        too, and both are told, and made, together (:attr:`Fix.also`)."""
        line, at, nodes, texts = broken.line, broken.at, broken.nodes, broken.texts
        alone = one.index + one.later >= at
        told = sorted((one,) if alone else (one, other), key=lambda slip: slip.index)
        said = [f"did you mean {slip.meant}?" if slip.index == at else
                f"{self._label(slip.turn, nodes[slip.index].written)} was "
                f"{'probably ' if not k else ''}{slip.meant}"
                for k, slip in enumerate(told)]
        ending = _ending(broken.result, line.main)
        if alone and one.index == at:
            hint = f"; {said[0]}"
        elif alone:
            hint = (f"; {said[0]}: with it and one more slip, at turn {other.turn}, all "
                    f"{len(texts) - one.index - 1} later moves play{ending}")
        else:
            hint = (f"; {' and '.join(said)}: with both, all "
                    f"{len(texts) - told[0].index - 1} later moves play{ending}")
        made = [_slip_fix(nodes[s.index], s.meant, s.turn,
                          s.later if alone else len(texts) - s.index - 1, broken.turn)
                for s in told]
        fix = replace(made[0], also=tuple(made[1:]))  # both or neither
        self.found.add(broken.defect, broken.before, hint, (fix,))
        return self._assume(line, broken.node, told, at, broken.before)

    def result_slips(self) -> tuple[str, tuple[Fix, ...]]:
        """For a main line that plays to its end but not to its result: the words for
        the slips after which it does, and their fixes (nothing where none does)."""
        texts = [text for _, text in self.final_path]
        search = self._search(texts, self.result)
        if not search.slips:
            return "", ()
        nodes = [node for node, _ in self.final_path]
        hint = self._slips_said(search.slips, nodes, len(texts), self.result, True)
        fixes = tuple(_slip_fix(nodes[s.index], s.meant, s.turn, s.later, 0)
                      for s in search.slips)
        return hint, fixes

    def _joined(
        self, node: MoveNode, rest: list[MoveNode], result: str | None
    ) -> tuple[str, str] | None:
        """A two-square turn cut in two by a space after its comma (``c6, h4``): the
        hint and the turn as meant, if the turn joined plays and so does the rest of the
        line after it."""
        following = rest[0] if rest else None
        if following is None or not node.text.endswith(",") or following.number is not None:
            return None
        said = comma_hint(node, following)
        if not said or node.variations:
            return None
        game, position = self.game, self.position
        whole = f"{node.text}{following.text}"
        move = _played(game, position, whole)
        if isinstance(move, Exception):
            return None
        meant = str(position.canonical(move))
        plays = plays_to_the_end(game, position, [n.text for n in rest[1:]], result)
        position.pop()
        if not plays:
            return None
        return said, meant

    def _pair(
        self, search: SlipSearch, texts: list[str], result: str | None
    ) -> tuple[Slip, Slip] | None:
        """Two slips: a change after which the line plays past its break (the furthest
        first, of :attr:`SlipSearch.further`) that, with one more slip anywhere else in
        the line, lets all of it play; that change and the other slip."""
        for first in search.further[:PAIRS_TRIED]:
            other = self._search(texts, result, {first.index: first.meant})
            if other.slips:
                return first, other.slips[0]
        return None

    def _label(self, turn: int, written: str) -> str:
        """``turn 25 (13. f5-f3)``."""
        number, first = expected_number(turn, self.size)
        return f"turn {turn} ({number}{'.' if first else '...'} {written})"

    def _slips_said(
        self, slips: Sequence[Slip], nodes: list[MoveNode], at: int, result: str | None,
        main: bool,
    ) -> str:
        """The words for ``slips`` found for the move broken at ``at``: "did you mean"
        for one at the broken move, "turn 25 (13. f5-f3) was probably f5-f4" for one
        before it, with the evidence: how many later moves then play."""
        here = [slip.meant for slip in slips if slip.index == at]
        if len(here) == len(slips):
            if len(here) == 1:
                return f"; did you mean {here[0]}?"
            if len({slip.rank for slip in slips}) == 1:
                return f"; did you mean {' or '.join(here)}? (no telling which)"
            return f"; did you mean {here[0]}? (or else {' or '.join(here[1:])})"
        # One phrase per move, its slips together, in the order of the likeliest.
        meant: dict[int, list[str]] = {}
        for slip in slips:
            meant.setdefault(slip.index, []).append(slip.meant)
        said: list[str] = []
        for index, moves in meant.items():
            listed = " or ".join(moves)
            if index == at:
                said.append(f"did you mean {listed}?")
                continue
            turn = slips[0].turn - slips[0].index + index
            label = self._label(turn, nodes[index].written)
            said.append(f"{label} {'was' if said else 'was probably'} {listed}")
        if len(slips) == 1:
            evidence = f": with it, all {slips[0].later} later moves play"
        else:
            evidence = ": with any one of these, all later moves play"
        return "; " + " or ".join(said) + evidence + _ending(result, main)

    def _assume(
        self, line: _Line, node: MoveNode, slips: Sequence[Slip], at: int,
        before: tuple[Assumption, ...],
    ) -> Any:
        """Go on as if ``slips`` (at ``at``, the broken move's place in the path, or
        before it) had been written: the move now played for ``node`` is returned, or
        ``None`` where a slip lies before this line's own moves (a variation's: the line
        stops there)."""
        game = self.game
        if any(slip.index < line.base for slip in slips):
            line.dead = True
            return None
        meant = {slip.index: slip.meant for slip in slips}
        lowest = min(meant)
        taken = [self._pop() for _ in range(at - lowest)]
        for index, (_, (earlier, text)) in enumerate(reversed(taken), lowest):
            played = meant.get(index, text)
            self._push(game.parse(played), earlier, played)
        text = meant.get(at, node.text)
        move = game.parse(text)
        self._push(move, node, text)
        written = {index: earlier.written for index, (_, (earlier, _)) in
                   enumerate(reversed(taken), lowest)}
        written[at] = node.written
        line.assumed = (*before, *(Assumption(slip.turn, written[slip.index], slip.meant)
                                   for slip in sorted(slips, key=lambda slip: slip.index)))
        return move


def _slip_fix(node: MoveNode, meant: str, turn: int, later: int, at: int) -> Fix:
    """The fix of a slip found for the line broken at turn ``at``: at that turn, the
    move written over; at an earlier one, the same, titled with its turn."""
    fix = move_fix(node, meant, turn, later)
    return fix if turn == at else replace(fix, title=f"Mend turn {turn} to {meant}")


def _told(slips: tuple[Slip, ...], at: int) -> list[Slip]:
    """Of the ``slips`` found for a line broken at ``at``, those a message names: at the
    broken move, the likeliest (of the best rank); before it, every one."""
    here = [slip.rank for slip in slips if slip.index == at]
    return [slip for slip in slips if slip.index != at or slip.rank == min(here)]


def _ending(result: str | None, main: bool) -> str:
    """What the evidence of a slip says of the line's end: the game ends as written."""
    if not main:
        return " to the end of this line"
    if result is None:
        return ""
    if result == "*":
        return " and the game is unfinished, as * says"
    return f" and the game ends {result} as written"


def _played(game: Game[Any], position: Position[Any], text: str) -> Any:
    """The move ``text`` read and pushed on ``position``; or the exception why not."""
    try:
        move = game.parse(text)
        position.push(move)
    except (MoveSyntaxError, IllegalMoveError) as exc:
        return exc
    return move


def _defects(
    record: Record, default_game: str | None, strict: bool
) -> list[tuple[Defect, str]] | None:
    """Every defect of ``record`` (see the module), in file order, each located and with
    what ``--all`` added to its message; ``None`` where the record cannot be looked at
    again (its text did not read again the same)."""
    found = _Found()
    if record.moves or record.raw is None:  # a tree (JSON Lines, a record in memory)
        tree, shift = record, 0
        if record.error is not None:
            found.add(record.error)
    else:
        again = _container(record)
        if again is None:
            return None
        tree, container, shift = again
        for defect in container:
            found.add(defect)
    game = resolve_game(tree, default_game)
    if isinstance(game, Defect):
        found.add(game)
    else:
        _rules(tree, game, default_game, strict, found)
    ordered = sorted(found.items, key=lambda d: (d.line, d.column))
    return [
        (d.shifted(shift).located(file=record.source, record=record.index), found.hint_of(d))
        for d in ordered
    ]


def _rules(
    tree: Record, game: Game[Any], default_game: str | None, strict: bool, found: _Found
) -> None:
    """The defects of ``tree``'s tags, moves and result, added to ``found``."""
    tags = tree.tag_dict
    tagged = tags.get("Result")
    if tagged is not None and tagged not in RESULTS:
        error = tag_error(tree.find_tag("Result"))
        if error is not None:
            found.add(error)
        tagged = None
    try:
        position = start_position(game, tags)
    except TagValueError as exc:
        tag = tree.find_tag(exc.tag)
        line, col = (tag.line, tag.column) if tag else (tree.first_line, 1)
        found.add(Defect(ErrorKind.SYNTAX, str(exc), line, col, code=exc.code or ""))
        return
    result = tree.result if tree.result in RESULTS else None
    moves = _Moves(game, position, found, _strict_visitor(default_game) if strict else None,
                   result, search_budget(_count(tree.moves)))
    if moves.strict is not None:
        moves.strict.begin_record(tree)
        for tag in tree.tags:
            moves.strict.visit_tag(tag.name, tag.value, tag.line, tag.column)
        moves.strict.end_tags(tree)
        for defect in moves.strict.tag_cases:  # each tag at its line, before the moves
            found.add(defect)
        moves.strict.problem = None
    moves.run(tree.moves)
    if found.full:
        return
    final = moves.final
    outcome = final.outcome() if final is not None else None
    error = result_error(tree, tagged, game, outcome, final)
    if error is None:
        return
    if error.code != "result-contradicts-rules" or final is None:
        found.add(error)
        return
    hint, fixes = moves.result_slips()
    found.add(error, moves.main_assumed, hint, fixes)


def _count(moves: list[MoveNode]) -> int:
    """How many moves the tree under ``moves`` holds, variations included."""
    count, stack = 0, [moves]
    while stack:
        nodes = stack.pop()
        count += len(nodes)
        stack.extend(v.nodes for node in nodes if node.has_variations for v in node.variations)
    return count


def all_errors(
    record: Record, verdict: Verdict, default_game: str | None, *, strict: bool = False
) -> Verdict:
    """``verdict`` (of ``record``, by a check) with every defect of the record in
    :attr:`~notation.replay.Verdict.errors`, the first of them its ``error``.  Where the
    record cannot be looked at again, ``errors`` holds the verdict's error alone.

    A check stops at a wrong move number; read with ``keep_raw=True``, the record is
    looked at again and a later move off the board is found too, with its fix:

    >>> import io
    >>> from notation.reader import read_records
    >>> from notation.replay import check_record
    >>> text = '[Game "cave"]\\n\\n1. b1 b5 3. b1-c1 b5-b4 3. c1-c0 *\\n'
    >>> record = next(read_records(io.StringIO(text), keep_raw=True))
    >>> verdict = all_errors(record, check_record(record), None)
    >>> [(defect.turn, defect.code) for defect in verdict.errors]
    [(3, 'number-wrong'), (5, 'cave-not-a-square')]
    >>> verdict.errors[1].fixes[0].title
    'Replace with c1-c2'
    """
    first = verdict.error
    if first is None:
        return replace(verdict, errors=())
    found = _defects(record, default_game, strict)
    if not found:
        return replace(verdict, errors=(first,))
    head, hint = found[0]
    if (head.line, head.column, head.code, head.turn) != (
        first.line, first.column, first.code, first.turn
    ):
        return replace(verdict, errors=(first,))
    # The first defect as the check says it (its hints), and what --all adds to it.
    # Its fixes: the moves --all names (those with a turn), then the plain check's own.
    moves = tuple(fix for fix in head.fixes if fix.turn is not None)
    head = replace(head, message=first.message + hint,
                   last_changed=first.last_changed or head.last_changed,
                   fixes=(*moves, *(fix for fix in first.fixes if fix not in moves)))
    return replace(verdict, error=head, errors=(head, *(defect for defect, _ in found[1:])))


class EveryDefect(Judge):
    """The mode of ``check --all``: the verdict lists every defect of its record (see
    :func:`all_errors`).  Read the records with ``keep_raw=True``: a broken record is
    read again from its text."""

    def __init__(self, default_game: str | None = None, *, strict: bool = False) -> None:
        self.default_game = default_game
        self.strict = strict

    def judged(self, record: Record, verdict: Verdict) -> Verdict:
        return all_errors(record, verdict, self.default_game, strict=self.strict)


def check_replay(
    default_game: str | None = None, *, strict: bool = False, every: bool = False
) -> Replay:
    """The replay of ``notation check`` with its options: ``strict`` (``--strict``: the
    canonical form too) and ``every`` (``--all``: every defect, the records read with
    ``keep_raw=True``).

    ``notation check --all`` from the library: every record of a text checked, each
    verdict with every defect of its record:

    >>> from notation.reader import visit_records
    >>> text = '[Game "cave"]\\n\\n1. b1 } b5 2. b1-b0 *\\n'
    >>> replay = check_replay(every=True)
    >>> (verdict,) = visit_records(text.splitlines(keepends=True), replay, keep_raw=True)
    >>> for defect in verdict.errors:
    ...     print(defect.line, defect.column, defect.code)
    3 7 comment-unopened
    3 15 cave-not-a-square
    """
    if not every:
        return strict_replay(default_game) if strict else Replay(default_game)
    judges: list[Judge] = [StrictJudge(default_game)] if strict else []
    judges.append(EveryDefect(default_game, strict=strict))
    return Replay(default_game, judges=judges)
