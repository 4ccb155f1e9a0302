"""Every defect of a record (``notation check --all``), and what each depends on.

A check (:class:`~notation.replay.Replay`) stops at a record's first defect.  With
``--all`` the record is looked at again once it is found broken (valid records cost
only the copy of their text the reader keeps):

- the container: each syntax error the reader can read past (a stray ``}`` or ``)``,
  a malformed tag line, move number or glyph, a result written ``1 - 0``) is blanked
  out of the record's text and the text read again, until the reader finds no more or
  one it cannot read past (an unclosed ``{``, a missing result...);
- the moves: every line, main line and variations, is replayed.  A wrong move number is
  reported and the line goes on.  At a move the rules refuse or cannot read, the legal
  moves there are searched for the one likely meant (:func:`likely_moves`), which the
  moves after it must confirm (they play after it, all of them, or all but a second
  slip among them, itself a move one character off); if one is the clear best, the
  message names it ("did you mean e7,a6?") and the line goes on as if it had been
  written, every later defect of that line saying so ("assuming e7,a6 at turn 12");
  otherwise that line stops there.  Its variations, and the lines after it, are still
  checked.

For a rules defect that depends on what stands on a square, :func:`with_last_change`
names the turn that last changed that square, found by taking moves back from the
position of the defect (every check does this, only once a defect is found).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from notation.errors import (
    Assumption,
    Defect,
    ErrorKind,
    IllegalMoveError,
    MoveSyntaxError,
    TagValueError,
)
from notation.games.base import Game, Position
from notation.lastchange import with_last_change
from notation.movefix import move_fix
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
from notation.strict import StrictJudge, strict_replay

__all__ = [
    "MAX_DEFECTS",
    "EveryDefect",
    "all_errors",
    "check_replay",
    "likely_moves",
    "ranked_moves",
]

#: At most this many defects are reported for one record (a hostile record can hold a
#: million stray brackets; each costs a reading of the record).
MAX_DEFECTS: Final = 200

# -- the move likely meant -----------------------------------------------------------

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


#: How many of the moves after a slip are tried with each candidate: a candidate is
#: taken only if they all play after it, or all but a second slip, which the same number
#: of moves after it confirm in turn (see :meth:`_Moves._meant`).
LOOK_AHEAD: Final = 4


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

    __slots__ = ("assumed", "before", "dead", "held", "index", "main", "nodes", "pushed",
                 "variations")

    def __init__(self, nodes: list[MoveNode], assumed: tuple[Assumption, ...], main: bool):
        self.nodes = nodes
        self.index = 0
        self.assumed = assumed  # the assumptions this line was played under so far
        self.main = main
        self.dead = False
        self.pushed = 0
        self.held: Any = None  # the move taken back for the variations of the last node
        self.variations: list[Any] = []  # those variations not yet played
        self.before: tuple[Assumption, ...] = ()  # the assumptions before that node


class _Found:
    """The defects of one record, with what each was found under."""

    def __init__(self) -> None:
        self.items: list[Defect] = []

    def add(self, defect: Defect, assumed: tuple[Assumption, ...] = ()) -> None:
        if len(self.items) >= MAX_DEFECTS:
            return
        if assumed:
            shown = ", ".join(f"{a.assumed} at turn {a.turn}" for a in assumed)
            defect = replace(
                defect, message=f"{defect.message} (assuming {shown})", assumed=assumed
            )
        self.items.append(defect)

    @property
    def full(self) -> bool:
        return len(self.items) >= MAX_DEFECTS


def _strict_visitor(default_game: str | None) -> StrictJudge:
    """The strict check's visitor (notation.strict), told the moves one by one."""
    return StrictJudge(default_game)


class _Moves:
    """Every line of a record tree replayed, each defect found and the line gone on."""

    def __init__(
        self, game: Game[Any], position: Position[Any], found: _Found, strict: Any
    ) -> None:
        self.game = game
        self.position = position
        self.found = found
        self.strict = strict
        self.size = position.round_size
        #: The position at the main line's end (None: it was not played to its end).
        self.final: Position[Any] | None = None
        self.main_assumed: tuple[Assumption, ...] = ()

    def run(self, moves: list[MoveNode]) -> None:
        position = self.position
        stack = [_Line(moves, (), True)]
        while stack and not self.found.full:
            line = stack[-1]
            if line.variations:
                variation = line.variations.pop(0)
                if self.strict is not None:
                    for comment in variation.comments_before:
                        self.strict.visit_comment(comment)
                    self.strict.begin_variation(variation.line, variation.column)
                stack.append(_Line(variation.nodes, line.before, False))
                continue
            if line.held is not None:
                position.push(line.held)
                line.pushed += 1
                line.held = None
            if line.dead or line.index >= len(line.nodes):
                stack.pop()
                if line.main:
                    if not line.dead:
                        self.final = position.copy()
                    self.main_assumed = line.assumed
                elif self.strict is not None and stack:
                    self.strict.end_variation()
                for _ in range(line.pushed):
                    position.pop()
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
        elif strict is not None:
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
                line.held = position.pop()
                line.pushed -= 1

    def _failed(
        self, line: _Line, node: MoveNode, exc: Exception, turn: int,
        before: tuple[Assumption, ...],
    ) -> Any:
        """``node`` cannot be played: report it, and play the move likely meant instead
        (returned), or end the line (``None``)."""
        position, game = self.position, self.game
        defect = move_error(node, exc, turn)
        if isinstance(exc, IllegalMoveError):
            defect = with_last_change(game, position, defect, node.text)
        following = line.nodes[line.index] if line.index < len(line.nodes) else None
        meant: list[str] = []
        joined = False
        if following is not None and node.text.endswith(","):
            hint = comma_hint(node, following)
            if hint:
                defect = replace(defect, message=defect.message + hint)
                whole = f"{node.text}{following.text}"
                if (
                    following.number is None
                    and not node.variations
                    and not isinstance(_played(game, position, whole), Exception)
                ):
                    position.pop()
                    meant, joined = [str(position.canonical(game.parse(whole)))], True
        if not meant:
            meant = self._meant(line, ranked_moves(game, position, node.text))
        if len(meant) == 1:
            fix = move_fix(node, meant[0], turn, through=following if joined else None)
            self.found.add(replace(defect, message=f"{defect.message}; did you mean {meant[0]}?",
                                   fixes=(fix, *defect.fixes)), before)
            move = game.parse(meant[0])
            position.push(move)
            line.assumed = (*before, Assumption(turn, node.written, meant[0]))
            if joined:
                line.index += 1  # the second square was read as the next move
            return move
        rest = "" if following is None else "; the rest of this line is not checked"
        if meant:
            listed = ", ".join(meant[:-1]) + f" or {meant[-1]}" if len(meant) <= 4 else ""
            if listed:
                rest = f"; did you mean {listed}? (no telling which{rest})"
                rest = rest.replace("(no telling which; ", "(no telling which: ")
                fixes = tuple(move_fix(node, choice, turn) for choice in meant)
                defect = replace(defect, fixes=(*fixes, *defect.fixes))
        self.found.add(replace(defect, message=defect.message + rest), before)
        line.dead = True
        return None


    def _meant(self, line: _Line, ranked: list[tuple[tuple[int, int], str]]) -> list[str]:
        """The candidates of the best rank (as :func:`ranked_moves` ranks them) among
        those after which the next moves of ``line`` (:data:`LOOK_AHEAD` at most, fewer
        where the line ends) all play; none if no candidate lets them.

        Where none does, a second slip may stand among those moves (two typos a few
        turns apart): a candidate is then taken if they play but for one, which plays
        as a move it is likely a slip for, and the moves after that one play too (see
        :meth:`_confirmed`); the slip is reported in its own turn.  Not where some
        legal move, a candidate or not, lets the next moves all play as written: the
        move written is then a worse slip than one character, not one of two."""
        position, game = self.position, self.game
        for slips in (0, 1):
            if slips and any(self._confirmed(line.nodes, line.index, 0, move)
                             for move in position.legal_moves()):
                return []
            scored = [
                (rank, spelt) for rank, spelt in ranked
                if self._confirmed(line.nodes, line.index, slips, game.parse(spelt))
            ]
            if scored:
                best = min(score for score, _ in scored)
                return sorted(spelt for score, spelt in scored if score == best)
        return []

    def _confirmed(self, nodes: list[MoveNode], at: int, slips: int, move: Any) -> bool:
        """Whether, ``move`` played, the moves of ``nodes`` from ``at`` on
        (:data:`LOOK_AHEAD` of them at most) play as written, but for at most ``slips``
        of them, each played as one of the moves it is likely a slip for
        (:func:`ranked_moves`) and followed by :data:`LOOK_AHEAD` more that play in
        turn.  The position is left as it was."""
        position, game = self.position, self.game
        position.push(move)
        played = 0
        try:
            for node in nodes[at : at + LOOK_AHEAD]:
                if not isinstance(_played(game, position, node.text), Exception):
                    played += 1
                    continue
                return slips > 0 and any(
                    self._confirmed(nodes, at + played + 1, slips - 1, game.parse(spelt))
                    for _, spelt in ranked_moves(game, position, node.text)
                )
            return True
        finally:
            for _ in range(played + 1):
                position.pop()


def _played(game: Game[Any], position: Position[Any], text: str) -> Any:
    """The move ``text`` read and pushed on ``position``; or the exception why not."""
    try:
        move = game.parse(text)
        position.push(move)
    except (MoveSyntaxError, IllegalMoveError) as exc:
        return exc
    return move


def _defects(record: Record, default_game: str | None, strict: bool) -> list[Defect] | None:
    """Every defect of ``record`` (see the module), in file order, each located; ``None``
    where the record cannot be looked at again (its text did not read again the same)."""
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
        d.shifted(shift).located(file=record.source, record=record.index)
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
    moves = _Moves(game, position, found, _strict_visitor(default_game) if strict else None)
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
    if error is not None:
        found.add(error, moves.main_assumed if error.code == "result-contradicts-rules" else ())


def all_errors(
    record: Record, verdict: Verdict, default_game: str | None, *, strict: bool = False
) -> Verdict:
    """``verdict`` (of ``record``, by a check) with every defect of the record in
    :attr:`~notation.replay.Verdict.errors`, the first of them its ``error``.  Where the
    record cannot be looked at again, ``errors`` holds the verdict's error alone."""
    first = verdict.error
    if first is None:
        return replace(verdict, errors=())
    found = _defects(record, default_game, strict)
    if not found:
        return replace(verdict, errors=(first,))
    head = found[0]
    if (head.line, head.column, head.code, head.turn) != (
        first.line, first.column, first.code, first.turn
    ):
        return replace(verdict, errors=(first,))
    # The first defect as the check says it (its hints), and what --all adds to it (the
    # moves it names after "did you mean": their fixes are the ones with a turn).
    moves = tuple(fix for fix in head.fixes if fix.turn is not None)
    head = replace(head, message=_merged(first.message, head.message),
                   last_changed=first.last_changed or head.last_changed,
                   fixes=(*moves, *first.fixes))
    return replace(verdict, error=head, errors=(head, *found[1:]))


def _merged(first: str, found: str) -> str:
    """The first defect's message as the check gave it (``first``), with what ``--all``
    adds at its end (``found`` is the same defect found again: the did-you-mean, or
    that the rest of the line is not checked)."""
    for marker in ("; did you mean ", "; the rest of this line is not checked"):
        at = found.rfind(marker)
        if at >= 0:
            return first + found[at:]
    return first


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
    ``keep_raw=True``)."""
    if not every:
        return strict_replay(default_game) if strict else Replay(default_game)
    judges: list[Judge] = [StrictJudge(default_game)] if strict else []
    judges.append(EveryDefect(default_game, strict=strict))
    return Replay(default_game, judges=judges)
