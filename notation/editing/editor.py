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
>>> editor.undo(), editor.cursor.address
(True, (2,))
>>> editor.redo(), editor.cursor.address
(True, (3,))
>>> print(editor.text(), end="")
[Game "cave"]
[Result "*"]
<BLANKLINE>
1. b1 b5 2. b1-b2 *
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from notation.cursor import Address, Cursor
from notation.editing.changes import Change
from notation.editing.clocks import (
    CLOCK_COMMAND,
    clock_seconds,
    clock_text,
    parse_clock,
    require_clock,
    set_clock_comment,
)
from notation.editing.move_entry import Candidate, EditError, MoveEntry
from notation.editing.new_record import new_record
from notation.errors import (
    Defect,
    IllegalMoveError,
    MisuseError,
    MoveSyntaxError,
    NotationException,
    misuse_unless,
    require_encodable,
    require_flag,
    require_sequence,
    require_text,
)
from notation.games.base import Game, Position
from notation.reader import RESULTS
from notation.record import Comment, MoveNode, Record, Tag, Variation, split_suffix
from notation.replay import (
    Verdict,
    check_record,
    resolve_game,
    start_position,
)
from notation.writer import unwritable, write_record

__all__ = ["Candidate", "EditError", "MendResult", "MoveEntry", "RecordEditor"]

#: Glyphs written after a move (its suffix), and the numeric glyphs they stand for.
GLYPHS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: How :meth:`RecordEditor.play` treats a move that differs from the next one there.
How = Literal["variation", "replace", "main"]

#: Edits kept for undo: far more than a game has moves, and a bound all the same.
UNDO_LIMIT = 10_000

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
        require_clock(clock)
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
        self._undo: list[Change] = []
        self._redo: list[Change] = []
        self._change: Change | None = None  # the edit being made
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
        record = new_record(game, tags, players=players, date=date, defaults=defaults)
        require_clock(clock)
        return cls(record, clock=clock)

    # -- where the cursor is --------------------------------------------------
    @property
    def record(self) -> Record:
        """The record being edited (its tree changes in place as it is edited)."""
        return self._cursor.record

    @property
    def cursor(self) -> Cursor:
        """Where the editor stands: the line, the moves played of it, the position there
        (``editor.cursor.position``), its :data:`~notation.cursor.Address`, and why the
        next move cannot be played, if it cannot (``editor.cursor.defect``)."""
        return self._cursor

    @property
    def first_turn(self) -> int:
        """The turn of the record's first move (1, or after a ``Position`` tag's turns)."""
        return self._cursor.start.turn + 1

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
        node = self._cursor.next_node
        return list(_variations(node)) if node is not None else []

    # -- moving the cursor (no edit) ------------------------------------------
    def forward(self) -> MoveNode | None:
        """Play the next move of the line and return it; ``None`` at the line's end or
        where the rules refuse it (:attr:`defect` says why)."""
        return self._cursor.forward()

    def back(self) -> bool:
        """Take back the last move of the line; at a variation's start, leave it (the
        cursor before the move it replaces).  False at the start of the main line."""
        self._cursor.defect = None
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
        return self.roll is None and self._cursor.position.chance_outcomes() is not None

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
        change = Change(self._cursor.address, f"the roll {face}" if face else "the roll cleared")
        change.roll = (self.roll, face)
        self.roll = face
        self._undo.append(change)
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()
        self.version += 1

    def roll_faces(self) -> list[str]:
        """The faces the chance step before the next turn can show (``[]`` if none)."""
        return self.entry().roll_faces()

    def entry(self) -> MoveEntry:
        """What a move typed at the cursor is (:class:`MoveEntry`: the position there,
        the roll given): the legal moves, the moves a prefix may start, the move a text
        means.  Made anew for each question, as the cursor and the roll move."""
        return MoveEntry(self.game, self._cursor.position, self.roll)

    def face_of(self, text: str) -> str | None:
        """The die face of the whole turn ``text`` (``K:b2-b1`` -> ``"K"``), if it is a
        legal turn here for that face, whatever face is given; ``None`` otherwise (no
        chance step, a turn with no face written, one the rules refuse)."""
        return self.entry().face_of(text)

    def legal_moves(self) -> list[Any]:
        """The legal moves at the cursor (those the roll allows, once it is given)."""
        return self.entry().legal_moves()

    def candidates(self, prefix: str = "") -> list[Candidate]:
        """The legal moves at the cursor whose text starts with ``prefix`` (letters in
        any case), each with what it would do: :meth:`MoveEntry.candidates`."""
        return self.entry().candidates(prefix)

    def resolve(self, text: str) -> Any:
        """The canonical move that ``text`` (any spelling the notation accepts) is at the
        cursor; ``EditError`` saying why there is none (:meth:`MoveEntry.resolve`)."""
        return self.entry().resolve(text)

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
        following = self._cursor.next_node
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
                seconds = clock_seconds(self.clock(), "the clock's value")
                set_clock_comment(node, clock_text(seconds))  # a new node: nothing to keep

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
        was, roll = self._cursor.address, self.roll
        self.goto((*after[:-1], after[-1] - 1))
        if self._cursor.address == was:
            self.roll = roll  # the next move mended: the die given is still its turn's
        if self._cursor.next_node is not node:
            defect = self._cursor.defect
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
        if not self._cursor.depth:
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
            commands = [c for c in kept if CLOCK_COMMAND.fullmatch(c.text)] if not before else []
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
        node = self._cursor.last_node
        if node is None:
            node = self._cursor.next_node
            return node, node is not None
        return node, before

    def comment(self, *, before: bool = False) -> str:
        """The comment :meth:`set_comment` sets, as it stands (clock left out)."""
        require_flag(before, "before")
        node, before = self._commented(before)
        if node is None:
            return " ".join(c.text for c in self.record.comments)
        comments = node.comments_before if before else node.comments_after
        return " ".join(c.text for c in comments if not CLOCK_COMMAND.fullmatch(c.text))

    def toggle_glyph(self, glyph: str | int) -> None:
        """Put ``glyph`` on the last move, or take it off if it has it: a move glyph
        (``"!"``, ``"?"``, ``"!!"``, ``"??"``, ``"!?"``, ``"?!"``, the move's suffix, one
        at a time) or any other numeric glyph (``$N``).  ``EditError`` with no move."""
        misuse_unless(type(glyph) in (str, int), "glyph", "one of ! ? !! ?? !? ?! or $N", glyph)
        node = self._cursor.last_node
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
            text = parse_clock(value)
            if text is None:
                raise EditError(f"a clock is written h:mm:ss (or m:ss), not {value!r}",
                                code="editor-clock")
        else:
            text = clock_text(clock_seconds(value, "value", ", a text h:mm:ss or None"))
        node = self._cursor.last_node
        if node is None:
            raise EditError("there is no move here to time", code="editor-no-move")
        def edit() -> None:
            self._touch(node, "comments_after")
            set_clock_comment(node, text)

        self._edit(edit, what=f"the clock after {node.text}")

    def clock_of(self, node: MoveNode | None = None) -> str | None:
        """The clock written after ``node`` (default: the last move), ``h:mm:ss``."""
        misuse_unless(node is None or isinstance(node, MoveNode), "node", "a MoveNode or None",
                      node)
        node = node if node is not None else self._cursor.last_node
        if node is None:
            return None
        for comment in node.comments_after:
            if CLOCK_COMMAND.fullmatch(comment.text):
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
        return self._step(self._undo, self._redo, undoing=True)

    def redo(self) -> bool:
        """Redo the last edit undone; False if none."""
        return self._step(self._redo, self._undo, undoing=False)

    def _step(self, source: list[Change], target: list[Change], *, undoing: bool) -> bool:
        """Revert the last change of ``source`` (undo's list or redo's) and keep it on
        ``target`` (the other), where reverting it again makes it once more."""
        if not source:
            return False
        change = source.pop()
        if change.roll is not None:
            target.append(self._roll_back(change, change.roll[0 if undoing else 1]))
            return True
        target.append(change.revert(self._cursor.address))
        self._reopen(change)
        return True

    def _roll_back(self, change: Change, face: str | None) -> Change:
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
            self._cursor.position.check(move)  # MisuseError for what is no move of this game

    def _start_position(self, record: Record) -> Position[Any]:
        try:
            return start_position(self.game, record.tag_dict)
        except NotationException as exc:
            raise MisuseError(f"the record cannot be edited: {exc}") from None

    def _main_line_outcome(self) -> str | None:
        if self._cursor.depth == 0 and self._cursor.index == len(self.record.moves):
            return self._cursor.position.outcome()  # at the main line's end: nothing to replay
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
        self._change = Change(self._cursor.address, what)
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
            made.revert(self._cursor.address)
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

    def _reopen(self, change: Change) -> None:
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
        address = self._cursor.address

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
