"""Making a record move by move: a record's tree, a cursor in it, and the position there.

:class:`RecordEditor` is what a recording program (``notation record``, an editor
plug-in, a script) holds while a game is entered: it plays moves at the cursor by their
text, offers the legal moves that start with what was typed (:meth:`~RecordEditor.
candidates`), mends an earlier move and replays the rest, keeps comments, glyphs,
clock times, tags and the result, and undoes and redoes every edit.  It knows no
screen and no file (:mod:`notation.editing.recordfile` saves it).

Vocabulary, as in :mod:`notation.cursor` (whose :class:`~notation.cursor.Cursor` the
editor moves, as :class:`~notation.stepper.Stepper` does): a *line* is the main line
or a variation, the cursor stands after ``index`` moves of its line; the *last move* is
the one just played, the *next move* the one after the cursor.  A cursor's
:attr:`~RecordEditor.address` is a tuple of numbers: ``(i,)`` after ``i`` moves of the
main line, ``(i, v, j)`` after ``j`` moves of variation ``v`` (from 1) of the main
line's move ``i`` (from 0), and so on down.

>>> from notation.editing.editor import RecordEditor
>>> editor = RecordEditor.new("cave", defaults=False)
>>> [c.text for c in editor.candidates("b")]
['b1']
>>> _ = editor.play("b1"); _ = editor.play("b5"); _ = editor.play("b1-b2")
>>> editor.undo(), editor.address
(True, (2,))
>>> editor.redo(), editor.address
(True, (3,))
>>> print(editor.text(), end="")
[Game "cave"]
[Result "*"]
<BLANKLINE>
1. b1 b5 2. b1-b2 *
"""

from __future__ import annotations

import datetime
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from notation.cursor import Address, Cursor
from notation.errors import (
    Defect,
    ErrorKind,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    TagValueError,
    misuse,
    misuse_unless,
    require_encodable,
    require_flag,
    require_sequence,
    require_text,
)
from notation.games import get_game
from notation.games.base import Game, Position
from notation.lastchange import with_last_change
from notation.reader import RESULTS
from notation.record import Comment, MoveNode, Record, Tag, Variation, split_suffix
from notation.replay import (
    Verdict,
    check_record,
    require_tag_pairs,
    resolve_game,
    start_position,
)
from notation.writer import unwritable, write_record

__all__ = ["Candidate", "EditError", "MendResult", "RecordEditor"]

#: Glyphs written after a move (its suffix), and the numeric glyphs they stand for.
GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: How :meth:`RecordEditor.play` treats a move that differs from the next one there.
How = Literal["variation", "replace", "main"]

#: A clock command in a comment, ``[%clk 1:02:03]``.
_CLOCK = re.compile(r"\[%clk [^\]]*\]")
_CLOCK_VALUE = re.compile(r"(\d{1,3}):([0-5]?\d):([0-5]\d)")

#: Edits kept for undo: far more than a game has moves, and a bound all the same.
UNDO_LIMIT = 10_000

#: Seconds a clock can show: ``[%clk h:mm:ss]`` is read back with at most 3 digits of hours.
CLOCK_LIMIT = 1000 * 3600


class EditError(NotationException, ValueError):
    """An edit the rules or the record refuse: the reason in words, and the moves meant
    if the text could be one of several (``choices``: a Cave attack written without
    the classes that fought, ``b3xc4`` for ``Kb3xc4``, ``Zb3xc4`` or ``Sb3xc4``)."""

    def __init__(self, message: str, choices: Sequence[str] = (), code: str = "") -> None:
        super().__init__(message)
        self.choices = list(choices)
        self.code = code or None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A legal move at the cursor: its canonical ``text``, the ``move`` object, and what
    it would do in words (``"Red placed zombies on f4 and c1"``)."""

    text: str
    move: Any
    description: str


@dataclass(frozen=True, slots=True)
class MendResult:
    """What :meth:`RecordEditor.mend` did: how many later moves of the line still stand
    (``kept``), and the first that the rules now refuse (``stopped``: its node and the
    defect), which stays in the record, the cursor before it."""

    kept: int
    stopped: MoveNode | None = None
    defect: Defect | None = None


class RecordEditor:
    """A record being entered or changed, with a cursor and the position there.

    Made from a :class:`~notation.record.Record` (``default_game`` for one without a
    ``Game`` tag), or by :meth:`new` for a game not begun.  The cursor starts at the
    end of the main line, or before its first move the rules refuse: :attr:`defect`
    then says why, and :meth:`mend` fixes it.  :class:`~notation.errors.MisuseError`
    for a record whose game or setup tags cannot be replayed at all.

    Every edit (a move played, mended or deleted, a variation promoted, a comment,
    glyph, clock, tag or result) can be undone (:meth:`undo`) and redone; each calls
    the functions in :attr:`listeners` afterwards (a journal writes it down there).
    Undo and redo put a new :attr:`record` in place: read it from the editor, do not
    keep it.  ``clock``, a function giving seconds (a stopwatch), stamps every move
    played with ``[%clk h:mm:ss]`` of its value when played.  An argument of the wrong
    type or value (``None`` for a text, ``float("inf")`` seconds, text with a lone
    surrogate, which no file can hold) is refused with ``MisuseError``, nothing changed.
    """

    def __init__(
        self,
        record: Record,
        *,
        default_game: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
        _require_clock(clock)
        game = resolve_game(record, default_game)
        if isinstance(game, Defect):
            raise MisuseError(f"the record cannot be edited: {game.message}")
        self.game: Game[Any] = game
        self.clock = clock
        self.listeners: list[Callable[[RecordEditor], None]] = []
        #: The die face rolled for the next turn (Zombie Kidz), if given: the moves offered
        #: and accepted are the ones it allows.
        self.roll: str | None = None
        #: Edits made (undo and redo count too).
        self.version = 0
        self._undo: list[_Change] = []
        self._redo: list[_Change] = []
        self._change: _Change | None = None  # the edit being made
        self._cursor = Cursor(record, game, self._start_position(record), canonical=True)
        # The result follows the rules (or "*") until one is set by hand.
        outcome = self._main_line_outcome()
        self._auto_result = record.result in (None, "*") or record.result == outcome
        self.to_end()

    @classmethod
    def new(
        cls,
        game: Game[Any] | str,
        tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        *,
        players: Sequence[str] = (),
        date: datetime.date | None = None,
        defaults: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> RecordEditor:
        """An editor of a new record of ``game`` (a :class:`Game` or its name).

        Its tags: ``Game``; with ``defaults``, ``Date`` (``date``, default today,
        written ``2026.12.02``) and a tag per player named (``players``, in turn order:
        ``White``/``Red``, ``Red``/``Black``, ``Player1``...; Zombie Kidz also gets
        ``Players``, their number); then ``tags`` in their order (a tag given there
        wins over a default); ``Result`` last, ``*`` until the game ends.
        """
        given, players = require_new_record(
            tags, players=players, date=date, defaults=defaults, clock=clock
        )
        resolved = game if isinstance(game, Game) else get_game(game)
        pairs: list[tuple[str, str]] = [("Game", resolved.name)]
        if defaults:
            day = date if date is not None else datetime.date.today()
            pairs.append(("Date", day.strftime("%Y.%m.%d")))
            if len(players) > len(resolved.player_tags):
                raise MisuseError(
                    f"{resolved.title} has at most {len(resolved.player_tags)} players, "
                    f"not {len(players)}"
                )
            pairs.extend(zip(resolved.player_tags, players, strict=False))
            if players:
                try:
                    pairs.extend(resolved.setup_tags(len(players)))
                except TagValueError as exc:  # a number of names the game has no setup for
                    raise MisuseError(f"players: {exc}") from None
        names = {name for name, _ in given}
        tags_out = [Tag(n, v) for n, v in pairs if n == "Game" or n not in names]
        tags_out += [Tag(n, v) for n, v in given if n not in ("Game", "Result")]
        result = next((v for n, v in given if n == "Result"), "*")
        tags_out.append(Tag("Result", result))
        return cls(Record(tags=tags_out, result=result), clock=clock)

    # -- where the cursor is --------------------------------------------------
    @property
    def record(self) -> Record:
        """The record being edited (its tree changes in place as it is edited)."""
        return self._cursor.record

    @property
    def position(self) -> Position[Any]:
        """The position at the cursor (the moves before it played)."""
        return self._cursor.position

    @property
    def defect(self) -> Defect | None:
        """Why the next move of the line cannot be played, if it cannot."""
        return self._cursor.defect

    @defect.setter
    def defect(self, defect: Defect | None) -> None:
        self._cursor.defect = defect

    @property
    def line(self) -> list[MoveNode]:
        """The moves of the cursor's line."""
        return self._cursor.line

    @property
    def index(self) -> int:
        """How many moves of the cursor's line are played."""
        return self._cursor.index

    @property
    def depth(self) -> int:
        """0 on the main line, 1 in a variation, 2 in a variation of a variation..."""
        return self._cursor.depth

    @property
    def address(self) -> Address:
        """Where the cursor is, as numbers (see the module's docstring)."""
        return self._cursor.address

    @property
    def last_node(self) -> MoveNode | None:
        """The move just played, if the cursor's line has one before the cursor."""
        return self._cursor.last_node

    @property
    def next_node(self) -> MoveNode | None:
        """The move after the cursor in its line, if there is one."""
        return self._cursor.next_node

    @property
    def first_turn(self) -> int:
        """The turn of the record's first move (1, or after a ``Position`` tag's turns)."""
        return self._cursor.start.turn + 1

    @property
    def turn(self) -> int:
        """Turns played to the cursor, counted from the game's start."""
        return self.position.turn

    @property
    def dirty(self) -> bool:
        """Whether the record differs from the one the editor was made with (an edit
        undone does not count, nor a roll given)."""
        return self.state is not None

    @property
    def state(self) -> object:
        """A token of the record's state: the same after an edit undone and redone,
        another after any other edit (a file keeps the one it saved)."""
        # A roll given changes no record: the edit before it stands for the state.
        return next((change for change in reversed(self._undo) if change.roll is None), None)

    def variations_here(self) -> list[Variation]:
        """The alternatives to the next move (variations of :attr:`next_node`)."""
        node = self.next_node
        return list(_variations(node)) if node is not None else []

    # -- moving the cursor (no edit) ------------------------------------------
    def forward(self) -> MoveNode | None:
        """Play the next move of the line and return it; ``None`` at the line's end or
        where the rules refuse it (:attr:`defect` says why)."""
        return self._cursor.forward()

    def back(self) -> bool:
        """Take back the last move of the line; at a variation's start, leave it (the
        cursor before the move it replaces).  False at the start of the main line."""
        self.defect = None
        self.roll = None
        return self._cursor.back() is not None or self._cursor.back_out()

    def to_start(self) -> None:
        """Go to the start of the main line."""
        self.goto((0,))

    def to_end(self) -> None:
        """Go forward to the end of the line (or its first move the rules refuse)."""
        while self.forward() is not None:
            pass

    def enter_variation(self, number: int) -> bool:
        """Enter variation ``number`` (from 1) of the next move and play its first move;
        False if there is none."""
        if not self._cursor.enter_variation(number):
            return False
        self.roll = None
        return True

    def leave_variation(self) -> bool:
        """Leave the variation the cursor is in, to just after the move it replaces;
        False on the main line."""
        return self._cursor.leave_variation()

    def goto(self, address: Sequence[int]) -> bool:
        """Put the cursor at ``address`` (see :attr:`address`), or as far along it as the
        rules let it go (False then, :attr:`defect` saying why).  ``MisuseError`` for an
        address that is not in the record (the cursor not moved)."""
        require_sequence(address, "address", "whole numbers (index, variation, index, ...)")
        reached = self._cursor.goto(address)
        self.roll = None
        return reached

    def goto_node(self, node: MoveNode) -> bool:
        """Put the cursor just after ``node`` (found by identity); ``MisuseError`` if it
        is not in the record."""
        return self.goto(self.address_of(node))

    def address_of(self, node: MoveNode) -> Address:
        """The address just after ``node``; ``MisuseError`` if it is not in the record."""
        return self._cursor.address_of(node)

    # -- what can be played ---------------------------------------------------
    @property
    def needs_roll(self) -> bool:
        """Whether the next turn starts with a chance step (Zombie Kidz's die) whose face
        is not given yet (:meth:`set_roll`)."""
        return self.roll is None and self.position.chance_outcomes() is not None

    def roll_faces(self) -> list[str]:
        """The faces the chance step before the next turn can show (``[]`` if none)."""
        outcomes = self.position.chance_outcomes()
        return [face for face, _ in outcomes] if outcomes else []

    def set_roll(self, face: str | None) -> None:
        """Give the die face rolled for the next turn (``None``: forget it); the moves
        offered and accepted are then those it allows.  ``EditError`` for a face the
        game does not have or a turn with no chance step.

        A face given (or forgotten) is undone and redone as an edit is, a mistyped face
        put right so, though it changes no record: the listeners are not called, and the
        record is no more :attr:`dirty` for it.  The turn played with it is one edit
        with it (undoing that turn does not give the face back)."""
        if face is None:
            self._set_roll(None)
            return
        require_text(face, "face")
        faces = self.roll_faces()
        if not faces:
            raise EditError("the next turn has no die roll", code="editor-no-roll")
        match = next((f for f in faces if f.lower() == str(face).strip().lower()), None)
        if match is None:
            raise EditError(
                f"the die has no face {face!r}; it shows {', '.join(faces)}",
                code="editor-no-such-face",
            )
        self._set_roll(match)

    def _set_roll(self, face: str | None) -> None:
        if face == self.roll:
            return
        change = _Change(self.address, f"the roll {face}" if face else "the roll cleared")
        change.roll = (self.roll, face)
        self.roll = face
        self._undo.append(change)
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()
        self.version += 1

    def face_of(self, text: str) -> str | None:
        """The die face of the whole turn ``text`` (``K:b2-b1`` -> ``"K"``), if it is a
        legal turn here for that face, whatever face is given; ``None`` otherwise (no
        chance step, a turn with no face written, one the rules refuse)."""
        require_text(text, "text")
        faces = self.roll_faces()
        if not faces:
            return None
        try:
            move = self.position.canonical(self.game.parse(split_suffix(text.strip())[0]))
        except (MoveSyntaxError, IllegalMoveError):
            return None
        position = self.position
        return next((face for face in faces if move in position.legal_moves_after(face)), None)

    def legal_moves(self) -> list[Any]:
        """The legal moves at the cursor (those the roll allows, once it is given)."""
        if self.roll is not None:
            return self.position.legal_moves_after(self.roll)
        return self.position.legal_moves()

    def candidates(self, prefix: str = "") -> list[Candidate]:
        """The legal moves at the cursor whose text starts with ``prefix`` (letters in
        any case), each with what it would do, in the game's own order, a move written
        exactly ``prefix`` first.  Where none starts so, the moves that ``prefix`` is
        with letters left out (``b3xc4`` offers ``Kb3xc4``, ``Zb3xc4``, ``Sb3xc4``: the
        classes the pieces can still be)."""
        misuse_unless(isinstance(prefix, str), "prefix", "a str", prefix)
        wanted = prefix.strip().lower()
        moves = [(str(move), move) for move in self.legal_moves()]
        found = [(text, move) for text, move in moves if text.lower().startswith(wanted)]
        if not found and wanted and self.roll is not None:
            # The die is given: what follows its face is enough (b2-c2x for G:b2-c2x).
            found = [(text, move) for text, move in moves
                     if self._after_roll(text).lower().startswith(wanted)]
        if not found and wanted:
            found = [(text, move) for text, move in moves if _with_letters_left_out(text, wanted)]
        if not found and wanted:
            found = self._spelled(prefix.strip())
        found.sort(
            key=lambda pair: wanted not in (pair[0].lower(), self._after_roll(pair[0]).lower())
        )
        return [Candidate(text, move, self._describe(move, text)) for text, move in found]

    def _after_roll(self, text: str) -> str:
        """``text`` without the die face given and what separates it from the rest
        (``G:b2-c2x`` -> ``b2-c2x``); ``text`` itself when no roll is given."""
        # Any game's way of joining a face to its move: the punctuation after it.
        roll = self.roll
        if roll is None or not text.lower().startswith(roll.lower()):
            return text
        return text[len(roll):].lstrip(string.punctuation + " ")

    def _refusal(self, exc: IllegalMoveError, text: str) -> str:
        """Why the rules refuse the move ``text`` here, with the turn that last changed
        the square it depends on, as ``notation check`` names it."""
        defect = Defect(ErrorKind.ILLEGAL, str(exc), 0, 0, code=exc.code or "")
        return with_last_change(self.game, self.position, defect, text).message

    def _with_roll(self, text: str) -> str | None:
        """``text`` after the die face given, joined to it as the game's turns join it
        (``b2-a2`` -> ``B:b2-a2``); ``None`` with no roll given, or no turn of that face
        that joins a step to it."""
        joiner = self._face_joiner()
        return None if joiner is None or self.roll is None else self.roll + joiner + text

    def _face_joiner(self) -> str | None:
        """What joins the die face given to the step of a turn (``":"`` in ``B:b2-a2``);
        ``None`` with no roll given, or no turn of that face that joins a step to it."""
        roll = self.roll
        if roll is None:
            return None
        for move in self.legal_moves():
            written = str(move)
            rest = written[len(roll):]
            joiner = rest[: len(rest) - len(rest.lstrip(string.punctuation + " "))]
            if written.startswith(roll) and joiner:
                return joiner
        return None

    def _parse_turn(self, text: str) -> Any:
        """The move ``text`` is (:meth:`Game.parse`); once the die's face is given, what
        follows it is enough, in any spelling the notation accepts for it (``a2``,
        ``b2-a2`` or ``b2-a2x`` for ``B:b2-a2x``).  ``MoveSyntaxError`` if neither reads:
        of ``text`` as written if it is a whole turn (it holds what joins a face to its
        step, ``:``), else of what it is after the face given (``b2-x9``: x9 is no
        zone)."""
        try:
            return self.game.parse(text)
        except MoveSyntaxError as error_as_written:
            joined = self._with_roll(text)
            if joined is None:
                raise
            try:
                return self.game.parse(joined)
            except MoveSyntaxError as error_after_face:
                if (self._face_joiner() or "") in text:
                    raise error_as_written from None  # a whole turn, face and all
                # What follows the face: what is wrong with it (b2-x9: x9 is no zone),
                # not that it has no face, which the roll gives.
                raise error_after_face from None

    def _spelled(self, text: str) -> list[tuple[str, Any]]:
        """The legal move ``text`` is in a spelling of its own (``B:a2`` or, the die
        given, ``a2`` for ``B:b2-a2x``), as (its text, it); ``[]`` if none."""
        try:
            move = self.position.canonical(self._parse_turn(text))
        except (MoveSyntaxError, IllegalMoveError):
            return []
        return [(str(move), move)] if move in self.legal_moves() else []

    def _describe(self, move: Any, text: str) -> str:
        position = self.position
        position.push(move)
        try:
            caption = position.caption()
        except Exception:  # a description must never break entry
            caption = ""
        finally:
            position.pop()
        head = f"{text}: "
        at = caption.find(head)
        return caption[at + len(head):] if at >= 0 else caption

    def resolve(self, text: str) -> Any:
        """The canonical move that ``text`` (any spelling the notation accepts) is at the
        cursor; ``EditError`` saying why there is none, with the moves meant as
        ``choices`` where ``text`` could be several."""
        misuse_unless(isinstance(text, str), "a move", "a str (its text) or a move", text)
        written = text.strip()
        if not written:
            raise EditError("no move was given", code="editor-empty")
        reason: str | None
        try:
            move = self._parse_turn(written)
        except MoveSyntaxError as exc:
            reason, code = str(exc), exc.code or "move-syntax"
        else:
            try:
                canonical = self.position.canonical(move)
                self.position.push(canonical)  # as Position.check, keeping the code
            except IllegalMoveError as exc:
                reason, code = self._refusal(exc, str(move)), exc.code or "move-illegal"
            else:
                self.position.pop()
                reason = None
            if reason is None:
                if self.roll is not None and canonical not in self.legal_moves():
                    raise EditError(
                        f"the die shows {self.roll}: {written} is not one of its moves",
                        [c.text for c in self.candidates(self.roll)], "editor-roll",
                    )
                return canonical
        found = self.candidates(written)
        spelled = written.lower()
        same = [c for c in found if spelled in (c.text.lower(), self._after_roll(c.text).lower())]
        if len(same) == 1:
            return same[0].move  # a spelling only the case of its letters keeps apart
        choices = [c.text for c in found]
        hint = f"; did you mean {_either(choices)}?" if choices else ""
        raise EditError(f"{written}: {reason}{hint}", choices, code)

    # -- edits ----------------------------------------------------------------
    def play(self, move: Any, *, how: How = "variation") -> MoveNode:
        """Play ``move`` (its text, a glyph after it kept: ``"h5-h3!"``, or a move
        object) at the cursor and return its node, the cursor after it.

        If it is the next move already (or the first of one of its variations), the
        cursor just goes there (a glyph written with it is put on it).  Otherwise it is
        added at the end of the line, or, where another move follows: as a new
        variation (``how="variation"``), in place of the rest of the line
        (``"replace"``), or as the new main line, the rest becoming its variation
        (``"main"``).  ``EditError`` if the rules refuse it.
        """
        misuse_unless(how in ("variation", "replace", "main"), "how",
                      "'variation', 'replace' or 'main'", how)
        self._require_move(move)
        suffix = ""
        if isinstance(move, str):
            bare, suffix = split_suffix(move.strip())
            canonical = self.resolve(bare)
        else:
            canonical = self.resolve(str(move))
        text = str(canonical)
        following = self.next_node
        existing: MoveNode | None = None
        if following is not None and following.text == text:
            self.forward()
            existing = following
        elif following is not None:
            for number, variation in enumerate(_variations(following), 1):
                if variation.nodes and variation.nodes[0].text == text:
                    self.enter_variation(number)
                    existing = variation.nodes[0]
                    break
        if existing is not None:
            if suffix and existing.suffix != suffix:
                self.toggle_glyph(suffix)  # the move is there: only its glyph is new
            return existing
        node = MoveNode(text, suffix=suffix)

        def edit() -> None:
            cursor = self._cursor
            level, after = cursor.level, cursor.next_node
            self._touch_list(level.nodes)
            if after is None:
                level.nodes.append(node)
            elif how == "replace":
                del level.nodes[level.index:]
                level.nodes.append(node)
            elif how == "main":
                rest = level.nodes[level.index:]
                del level.nodes[level.index:]
                level.nodes.append(node)
                _variations(node).append(Variation(rest))
                # The old next move's own variations are alternatives to the new one too.
                _variations(node).extend(_variations(rest[0]))
                self._touch(rest[0], "variations")
                rest[0].variations = []
            else:
                variation = Variation([node])
                self._touch_list(after.variations)
                after.variations.append(variation)
                cursor.step_into(variation)
            cursor.advance(canonical)
            self.roll = None
            if self.clock is not None:
                seconds = _seconds(self.clock(), "the clock's value")
                _set_clock(node, _clock_text(seconds))  # a new node: nothing to keep

        self._edit(edit, what=f"the move {text}")
        return node

    def mend(self, node: MoveNode, move: Any) -> MendResult:
        """Put ``move`` (a text or a move object) in place of ``node``, anywhere in the
        record, and replay the rest of its line: every later move still legal stays
        (written again in canonical text), and the first the rules refuse stops the
        replay.  It stays in the record, the cursor before it and :attr:`defect`
        saying why; with none, the cursor goes to the end of the line.
        ``EditError`` if the rules refuse ``move`` itself (nothing changed then).
        """
        misuse_unless(isinstance(node, MoveNode), "node", "a MoveNode of the record", node)
        self._require_move(move)
        after = self.address_of(node)
        was, roll = self.address, self.roll
        self.goto((*after[:-1], after[-1] - 1))
        if self.address == was:
            self.roll = roll  # the next move mended: the die given is still its turn's
        if self.next_node is not node:
            defect = self.defect
            self.goto(was)
            self.roll = roll  # the cursor back: its die too
            raise EditError(
                "the move cannot be mended before the moves ahead of it are: "
                + (defect.message if defect else "they cannot be played"),
                code="editor-mend-blocked",
            )
        try:
            if isinstance(move, str):
                bare, suffix = split_suffix(move.strip())
                canonical = self.resolve(bare)
            else:
                canonical, suffix = self.resolve(str(move)), ""
        except EditError:
            self.goto(was)
            self.roll = roll  # the cursor back: its die too
            raise
        result: list[MendResult] = []

        def edit() -> None:
            self._touch(node, "text")
            self._touch(node, "suffix")
            node.text = str(canonical)
            if suffix:
                node.suffix = suffix
            cursor = self._cursor
            cursor.advance(canonical)
            self.roll = None  # the turn is played
            kept = 0
            while (later := cursor.next_node) is not None:
                self._touch(later, "text")
                if cursor.forward(rewrite=True) is None:  # written again, canonical
                    result.append(MendResult(kept, later, cursor.defect))
                    return
                kept += 1
            result.append(MendResult(kept))

        self._edit(edit, what=f"the mend of {node.text} to {canonical}")
        return result[0]

    def delete_rest(self) -> int:
        """Delete the moves after the cursor in its line (at a variation's start: the
        variation, the cursor leaving it); returns how many moves went."""
        level = self._cursor.level
        if level.index == 0 and level.variation is not None:
            # A variation with no move cannot be written: the whole of it goes.
            return self._drop_variation()
        if level.index < len(level.nodes):
            count = len(level.nodes) - level.index

            def cut() -> None:
                self._touch_list(level.nodes)
                del level.nodes[level.index:]

            self._edit(cut, what=f"the deletion of {count} move{'s' if count != 1 else ''}")
            return count
        return 0

    def _drop_variation(self) -> int:
        """Delete the variation the cursor is at the start of, the cursor leaving it;
        returns how many moves it had."""
        level = self._cursor.level
        assert level.owner is not None
        owner, count = level.owner, len(level.nodes)

        def drop() -> None:
            number = level.number
            self._cursor.back_out()
            self._touch_list(owner.variations)
            del owner.variations[number - 1]

        self._edit(drop, what="the deletion of a variation")
        return count

    def promote(self) -> bool:
        """Make the variation the cursor is in the line it belongs to (its moves the
        main ones there, the old ones a variation); False on the main line."""
        if not self.depth:
            return False

        def edit() -> None:
            levels = self._cursor.levels
            level, parent = levels[-1], levels[-2]
            assert level.variation is not None and level.owner is not None
            owner, variation = level.owner, level.variation
            at = parent.index
            old = parent.nodes[at:]
            new = variation.nodes
            others = [v for v in _variations(owner) if v is not variation]
            self._touch(owner, "variations")
            owner.variations = []
            # What was said after the variation's last move now follows that move.
            self._touch_list(new[-1].comments_after)
            new[-1].comments_after.extend(variation.comments)
            self._touch_list(new[0].variations)
            new[0].variations[:0] = [Variation(old), *others]
            self._touch_list(parent.nodes)
            del parent.nodes[at:]
            parent.nodes.extend(new)
            # The cursor stays after the same moves, now the parent line's.
            levels.pop()
            parent.index += level.index

        self._edit(edit, what="the promotion of a variation")
        return True

    def set_comment(self, text: str, *, before: bool = False) -> None:
        """Set the comment after the last move (``before``: before it), keeping its
        clock; ``""`` removes it.  At the start of a line, the comment before its first
        move; in a record with no move, the record's comment."""
        text = require_encodable(text, "text").strip()
        require_flag(before, "before")
        owner, before = self._commented(before)

        def edit() -> None:
            if owner is None:
                self._touch_list(self.record.comments)
                self.record.comments[:] = [Comment(text)] if text else []
                return
            self._touch(owner, "comments_before" if before else "comments_after")
            kept = owner.comments_before if before else owner.comments_after
            commands = [c for c in kept if _CLOCK.fullmatch(c.text)] if not before else []
            new = [Comment(text)] if text else []
            if before:
                owner.comments_before = new
            else:
                owner.comments_after = new + commands

        where = (
            "on the record" if owner is None
            else f"{'before' if before else 'after'} {owner.text}"
        )
        self._edit(edit, text=True, what=f"the comment {where}")

    def _commented(self, before: bool) -> tuple[MoveNode | None, bool]:
        """The node a comment at the cursor goes with, and whether before it: the last
        move's; at a line's start the next move's, before it; with no move at all the
        record's (None)."""
        node = self.last_node
        if node is None:
            node = self.next_node
            return node, node is not None
        return node, before

    def comment(self, *, before: bool = False) -> str:
        """The comment :meth:`set_comment` sets, as it stands (clock left out)."""
        require_flag(before, "before")
        node, before = self._commented(before)
        if node is None:
            return " ".join(c.text for c in self.record.comments)
        comments = node.comments_before if before else node.comments_after
        return " ".join(c.text for c in comments if not _CLOCK.fullmatch(c.text))

    def toggle_glyph(self, glyph: str | int) -> None:
        """Put ``glyph`` on the last move, or take it off if it has it: a move glyph
        (``"!"``, ``"?"``, ``"!!"``, ``"??"``, ``"!?"``, ``"?!"``, the move's suffix, one
        at a time) or any other numeric glyph (``$N``).  ``EditError`` with no move."""
        misuse_unless(type(glyph) in (str, int), "glyph", "one of ! ? !! ?? !? ?! or $N", glyph)
        node = self.last_node
        if node is None:
            raise EditError("there is no move here to mark", code="editor-no-move")
        number = glyph[1:] if isinstance(glyph, str) and glyph.startswith("$") else ""
        if number.isascii() and number.isdigit():  # not "$²", a digit int() cannot read
            glyph = int(number)
        if isinstance(glyph, int) and glyph in GLYPHS.values():
            glyph = next(s for s, n in GLYPHS.items() if n == glyph)
        # What the move gets: its suffix toggled for a move glyph, its nags for another.
        suffix, nags = node.suffix, list(node.nags)
        if isinstance(glyph, str):
            misuse_unless(glyph in GLYPHS, "glyph", "one of ! ? !! ?? !? ?! or $N", glyph)
            suffix = "" if suffix == glyph else glyph
        else:
            misuse_unless(type(glyph) is int and 0 <= glyph <= 255, "glyph",
                          "a numeric glyph 0-255", glyph)
            nags = [n for n in nags if n != glyph] if glyph in nags else [*nags, glyph]

        def edit() -> None:
            self._touch(node, "suffix")
            self._touch_list(node.nags)
            node.suffix = suffix
            node.nags[:] = nags

        shown = glyph if isinstance(glyph, str) else f"${glyph}"
        self._edit(edit, what=f"the glyph {shown} on {node.text}")

    def set_clock(self, value: str | float | None) -> None:
        """The clock after the last move, ``[%clk h:mm:ss]``: a text ``h:mm:ss`` (``m:ss``
        too), seconds, or ``None`` to remove it.  ``EditError`` with no move or for a
        text that is no time."""
        if value is None:
            text = None
        elif isinstance(value, str):
            text = _parse_clock(value)
        else:
            text = _clock_text(_seconds(value, "value", ", a text h:mm:ss or None"))
        node = self.last_node
        if node is None:
            raise EditError("there is no move here to time", code="editor-no-move")
        def edit() -> None:
            self._touch(node, "comments_after")
            _set_clock(node, text)

        self._edit(edit, what=f"the clock after {node.text}")

    def clock_of(self, node: MoveNode | None = None) -> str | None:
        """The clock written after ``node`` (default: the last move), ``h:mm:ss``."""
        misuse_unless(node is None or isinstance(node, MoveNode), "node", "a MoveNode or None",
                      node)
        node = node if node is not None else self.last_node
        if node is None:
            return None
        for comment in node.comments_after:
            if _CLOCK.fullmatch(comment.text):
                return comment.text[6:-1].strip()
        return None

    def set_tag(self, name: str, value: str) -> None:
        """Set tag ``name`` (added at the end, before ``Result``).  ``Game`` cannot be
        changed, and ``Result`` is set by :meth:`set_result`; a tag the game reads
        (``Players``, ``Position``) must be one the game accepts (``EditError``)."""
        misuse_unless(isinstance(name, str) and bool(name.strip()), "name", "a tag name", name)
        require_encodable(name, "name")
        require_encodable(value, "value")
        name = name.strip()
        if name == "Game":
            raise EditError("the game of a record cannot change", code="editor-game")
        if name == "Result":
            self.set_result(value)
            return

        tags = [Tag(t.name, t.value, t.line, t.column) for t in self.record.tags]
        tag = next((t for t in tags if t.name == name), None)
        if tag is not None:
            tag.value = value
        else:
            at = next((i for i, t in enumerate(tags) if t.name == "Result"), len(tags))
            tags.insert(at, Tag(name, value))
        self._edit_setup(tags, what=f"the tag {name}")

    def remove_tag(self, name: str) -> bool:
        """Remove tag ``name`` (every one of that name); False if it has none.
        ``Game`` and ``Result`` stay (``EditError``)."""
        require_text(name, "name")
        if name in ("Game", "Result"):
            raise EditError(f"the {name} tag cannot be removed", code="editor-tag")
        if self.record.find_tag(name) is None:
            return False

        self._edit_setup([t for t in self.record.tags if t.name != name],
                         what=f"the removal of the tag {name}")
        return True

    def set_result(self, result: str) -> None:
        """The record's result (and ``Result`` tag): ``1-0``, ``0-1``, ``1/2-1/2``
        (resigned, agreed) or ``*``.  ``EditError`` for a result the game does not have,
        or one that contradicts the end the rules gave the main line."""
        require_text(result, "result")
        if result not in RESULTS:
            raise EditError(f"a result is 1-0, 0-1, 1/2-1/2 or *, not {result!r}",
                            code="editor-result")
        if not self.game.allows_result(result):
            raise EditError(f"{self.game.title} has no result {result} (it has no draws)",
                            code="editor-result")
        outcome = self._main_line_outcome()
        if outcome is not None and result != outcome:
            raise EditError(
                f"the rules ended the game with {outcome}; the result cannot be {result}",
                code="editor-result",
            )

        def edit() -> None:
            self._write_result(result)
            self._auto_result = result == "*"

        self._edit(edit, what=f"the result {result}")

    # -- undo and redo ----------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        """Whether there is an edit to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone edit to redo."""
        return bool(self._redo)

    @property
    def next_undo(self) -> str | None:
        """What :meth:`undo` would undo, in words (``"the comment after b1"``,
        ``"the roll K"``); ``None`` if nothing."""
        return self._undo[-1].what if self._undo else None

    @property
    def next_redo(self) -> str | None:
        """What :meth:`redo` would redo, in words; ``None`` if nothing."""
        return self._redo[-1].what if self._redo else None

    def undo(self) -> bool:
        """Undo the last edit (the cursor back where it was before it); False if none."""
        if not self._undo:
            return False
        change = self._undo.pop()
        if change.roll is not None:
            self._redo.append(self._roll_back(change, change.roll[0]))
            return True
        self._redo.append(change.revert(self))
        self._reopen(change)
        return True

    def redo(self) -> bool:
        """Redo the last edit undone; False if none."""
        if not self._redo:
            return False
        change = self._redo.pop()
        if change.roll is not None:
            self._undo.append(self._roll_back(change, change.roll[1]))
            return True
        self._undo.append(change.revert(self))
        self._reopen(change)
        return True

    def _roll_back(self, change: _Change, face: str | None) -> _Change:
        """Undo or redo a roll given: the cursor where it was given, the face ``face``."""
        self.goto(change.address)
        self.roll = face
        self.version += 1
        return change

    # -- the record as a whole --------------------------------------------------
    def text(self) -> str:
        """The record in canonical text (ending with a newline)."""
        return write_record(self.record)

    def check(self) -> Verdict:
        """The rules' verdict on the whole record (every line, the result)."""
        return check_record(self.record)

    # -- inside --------------------------------------------------------------
    def _require_move(self, move: object) -> None:
        """``MisuseError`` unless ``move`` is a text or a move object of the game."""
        if not isinstance(move, str):
            self.position.check(move)  # MisuseError for what is no move of this game

    def _start_position(self, record: Record) -> Position[Any]:
        try:
            return start_position(self.game, record.tag_dict)
        except NotationException as exc:
            raise MisuseError(f"the record cannot be edited: {exc}") from None

    def _main_line_outcome(self) -> str | None:
        if self.depth == 0 and self.index == len(self.record.moves):
            return self.position.outcome()  # at the main line's end: nothing to replay
        position = self._cursor.start.copy()
        for node in self.record.moves:
            try:
                position.push(position.canonical(self.game.parse(node.text)))
            except (MoveSyntaxError, IllegalMoveError):
                return None
        return position.outcome()

    def _write_result(self, result: str) -> None:
        record = self.record
        self._touch(record, "result")
        record.result = result
        tags = record.tags
        at = next((i for i, tag in enumerate(tags) if tag.name == "Result"), None)
        if at is not None or result != "*":
            self._touch_list(tags)
            if at is None:
                tags.append(Tag("Result", result))
            else:
                tags[at] = Tag("Result", result, tags[at].line, tags[at].column)

    def _touch(self, owner: object, name: str) -> None:
        """Keep what ``owner.name`` is before the edit in progress changes it."""
        assert self._change is not None
        self._change.attributes.append((owner, name, getattr(owner, name)))

    def _touch_list(self, items: list[Any]) -> None:
        """Keep what the list ``items`` holds before the edit in progress changes it."""
        assert self._change is not None
        if not any(kept is items for kept, _ in self._change.lists):
            self._change.lists.append((items, list(items)))

    def _edit(
        self, change: Callable[[], None], *, text: bool = False, what: str = "an edit"
    ) -> None:
        """Make one undoable edit: ``change`` changes the record (and the cursor), each
        attribute and list it changes :meth:`_touch`'ed first.  ``text``: the edit puts
        text of the user's in the record (a comment, a tag), which record text may not
        be able to hold (a ``}`` in a comment): refused then, with ``EditError``.
        ``what``: the edit in words (:attr:`next_undo`)."""
        self._change = _Change(self.address, what)
        self._touch(self, "_auto_result")
        try:
            change()
            problem = unwritable(self.record) if text else None
            if problem is not None:
                raise EditError(problem, code="editor-unwritable")
            if self._auto_result:
                outcome = self._main_line_outcome()
                result = outcome if outcome is not None else "*"
                if self.record.result != result:
                    self._write_result(result)
        except BaseException:
            made, self._change = self._change, None
            made.revert(self)
            self._reopen(made)
            raise
        if self.roll is None:
            # The turn is played (or the roll was forgotten): its roll is part of it.
            while self._undo and self._undo[-1].roll is not None:
                self._undo.pop()
        self._undo.append(self._change)
        self._change = None
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()
        self._changed()

    def _reopen(self, change: _Change) -> None:
        """After ``change`` was reverted: the cursor back where it was before it."""
        self.goto(change.target)
        self._changed()

    def _edit_setup(self, tags: list[Tag], *, what: str) -> None:
        """Give the record ``tags``, which may change the start position: refused
        (``EditError``, nothing changed) if the game cannot start from them."""
        try:
            start = start_position(self.game, {tag.name: tag.value for tag in reversed(tags)})
        except NotationException as exc:
            raise EditError(str(exc), code=getattr(exc, "code", None) or "tag-value") from None
        address = self.address

        def edit() -> None:
            self._touch_list(self.record.tags)
            self._touch(self._cursor, "start")
            self.record.tags[:] = tags
            self._cursor.start = start
            self.goto(address)  # the moves again, from the new start

        self._edit(edit, text=True, what=what)

    def _changed(self) -> None:
        self.version += 1
        for listener in list(self.listeners):
            listener(self)


def _variations(node: MoveNode | None) -> list[Variation]:
    return node.variations if node is not None else []


def require_new_record(
    tags: object,
    *,
    players: object = (),
    date: object = None,
    defaults: object = True,
    clock: object = None,
) -> tuple[list[tuple[str, str]], list[str]]:
    """The tags of a new record as ``(name, value)`` pairs and the players' names, as
    lists; ``MisuseError`` unless every argument is what :meth:`RecordEditor.new` takes
    (what :meth:`RecordFile.open <notation.editing.recordfile.RecordFile.open>` checks too)."""
    given = require_tag_pairs(tags)  # type: ignore[arg-type]  # checked there
    for name, value in given:
        require_encodable(name, "a tag's name")
        require_encodable(value, f"the value of the tag {name}")
    require_sequence(players, "players", "names (str)")
    names = [
        require_encodable(name, "a player's name")
        for name in players  # type: ignore[attr-defined]  # an iterable, checked above
    ]
    misuse_unless(date is None or isinstance(date, datetime.date), "date",
                  "a datetime.date or None", date)
    require_flag(defaults, "defaults")
    _require_clock(clock)
    return given, names


def _require_clock(clock: object) -> None:
    misuse_unless(clock is None or callable(clock), "clock", "a function giving seconds, or None",
                  clock)


def _seconds(value: object, what: str, or_else: str = "") -> float:
    """``value`` as the seconds of a clock, or ``MisuseError`` naming ``what``."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not 0 <= value < CLOCK_LIMIT:  # type: ignore[operator]  # a number
        misuse(what, f"seconds from 0 to 999:59:59{or_else}", value)
    return float(value)  # type: ignore[arg-type]  # a number, checked above


class _Change:
    """One edit, as what it changed held before the change: the attributes (owner,
    name, value) and the lists (the list, its items), and the cursor's address.
    :meth:`revert` puts them back and returns the change that undoes that."""

    __slots__ = ("address", "attributes", "lists", "roll", "target", "what")

    def __init__(self, address: tuple[int, ...], what: str) -> None:
        self.address = address
        self.what = what  # the edit in words
        #: A roll given (the face before, the face after) instead of a change of record.
        self.roll: tuple[str | None, str | None] | None = None
        self.target = address  # where the cursor goes once the change is reverted
        self.attributes: list[tuple[object, str, object]] = []
        self.lists: list[tuple[list[Any], list[Any]]] = []

    def revert(self, editor: RecordEditor) -> _Change:
        """Put back what the change holds, and hold what was there instead (so that
        reverting again redoes it); the cursor's address is swapped the same way."""
        address, self.address = self.address, editor.address
        # In the reverse order of the changes: an attribute changed twice gets its first value.
        attributes = []
        for owner, name, value in reversed(self.attributes):
            attributes.append((owner, name, getattr(owner, name)))
            setattr(owner, name, value)
        attributes.reverse()
        self.attributes = attributes
        lists = []
        for items, before in self.lists:
            lists.append((items, list(items)))
            items[:] = before
        self.lists = lists
        self.target = address
        return self


def _either(choices: list[str]) -> str:
    if len(choices) == 1:
        return choices[0]
    shown = choices[:8]
    more = f" (and {len(choices) - 8} more)" if len(choices) > 8 else ""
    return ", ".join(shown[:-1]) + f" or {shown[-1]}" + more


def _with_letters_left_out(text: str, wanted: str) -> bool:
    """Whether ``wanted`` (lower case) is the start of ``text`` with some of its capital
    letters (Cave's classes) left out."""
    lowered = text.lower()
    i = 0
    for char, low in zip(text, lowered, strict=True):
        if i == len(wanted):
            return True
        if wanted[i] == low:
            i += 1
        elif not char.isupper():
            return False
    return i == len(wanted)


def _clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _parse_clock(text: str) -> str:
    value = text.strip()
    if value.count(":") == 1:
        value = "0:" + value
    match = _CLOCK_VALUE.fullmatch(value)
    if match is None:
        raise EditError(f"a clock is written h:mm:ss (or m:ss), not {text!r}",
                        code="editor-clock")
    hours, minutes, seconds = (int(part) for part in match.groups())
    return f"{hours}:{minutes:02d}:{seconds:02d}"


def _set_clock(node: MoveNode, text: str | None) -> None:
    kept = [c for c in node.comments_after if not _CLOCK.fullmatch(c.text)]
    node.comments_after = kept + ([Comment(f"[%clk {text}]")] if text is not None else [])
