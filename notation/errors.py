"""Errors as values.

Everything that can be wrong with a record ends up as a :class:`Defect`:
an immutable value with a kind, a location and a sentence.  The exceptions in
this module are how the lower layers (a game's move parser, a position) report a
problem to the layer that knows the location; they never reach a user.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from notation import plug_in

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


class ErrorKind(StrEnum):
    """What sort of defect a record has: the `kind` of docs/record-format.md, "Turns,
    and where an error points"."""

    SYNTAX = "syntax"  # the text cannot be read: malformed token, bad number, brackets
    ILLEGAL = "illegal"  # well formed, but the rules forbid it
    RESULT = "result"  # the result token contradicts the rules, the tag or the game


@dataclass(frozen=True, slots=True)
class LastChange:
    """The turn that last changed the square a rules defect depends on: what stands
    there (or, in Zombie Kidz, what a roll put there; in Cave, a hidden piece) was left
    by that turn.  ``turn`` counts as a defect's turn does; ``move`` is that turn's
    move as played; ``roll`` is the die letter of the broken turn itself when its roll
    also puts a zombie on the square (Zombie Kidz), else ``""``."""

    square: str
    turn: int
    move: str
    roll: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: ``{"square", "turn", "move"}`` (and ``"roll"`` if any)."""
        shown: dict[str, Any] = {"square": self.square, "turn": self.turn, "move": self.move}
        if self.roll:
            shown["roll"] = self.roll
        return shown


@dataclass(frozen=True, slots=True)
class Assumption:
    """A move of a line read as another, likely meant, so that ``check --all`` can go on
    checking the line: at ``turn``, ``written`` was taken as ``assumed``."""

    turn: int
    written: str
    assumed: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: ``{"turn", "written", "assumed"}``."""
        return {"turn": self.turn, "written": self.written, "assumed": self.assumed}


@dataclass(frozen=True, slots=True)
class Fix:
    """An edit that mends a defect, as a value: replace the text of ``line`` (from 1)
    from column ``start`` to column ``end`` (one past the last; equal for an insertion)
    by ``replacement``.  ``title`` says it in words ("Replace with f5-f4").  For a fix
    of a move, ``turn`` is that move's turn and ``later`` how many of the line's later
    moves play once it is made (every one: a move's fix is offered only then).

    A defect carries the fixes checked to work (:attr:`Defect.fixes`): an editor offers
    them as they are, and nothing reads them back out of a message.

    >>> fix = Fix("Replace with f5-f4", 30, 5, 10, "f5-f4", turn=25, later=111)
    >>> fix.applied("13. f5-f3 b2-c3")
    '13. f5-f4 b2-c3'
    >>> fix.to_dict()["replacement"], fix.to_dict()["later"]
    ('f5-f4', 111)
    """

    title: str
    line: int
    start: int
    end: int
    replacement: str
    turn: int | None = None
    later: int | None = None
    #: Edits to make together with this one, which mends nothing without them (two
    #: slips that a line needs both of: each is a fix of its own move).
    also: tuple[Fix, ...] = ()

    def applied(self, text: str) -> str:
        """``text``, the line the fix is for, with the fix made (not :attr:`also`)."""
        return text[: self.start - 1] + self.replacement + text[self.end - 1 :]

    def edits(self) -> tuple[Fix, ...]:
        """This edit and those to make with it (:attr:`also`), last in the text first:
        made in this order, each leaves the places of the others as they were."""
        return tuple(sorted((self, *self.also), key=lambda fix: (fix.line, fix.start),
                            reverse=True))

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: ``{"title", "line", "start", "end", "replacement"}``, and
        ``"turn"`` and ``"later"`` for the fix of a move, ``"also"`` where it has any."""
        shown: dict[str, Any] = {
            "title": self.title,
            "line": self.line,
            "start": self.start,
            "end": self.end,
            "replacement": self.replacement,
        }
        if self.turn is not None:
            shown["turn"] = self.turn
        if self.later is not None:
            shown["later"] = self.later
        if self.also:
            shown["also"] = [fix.to_dict() for fix in self.also]
        return shown


@dataclass(frozen=True, slots=True)
class Defect:
    """One defect, with everything a user needs to find it.

    A check gives the first defect of a record: where it is, the turn and move, a
    stable code and a sentence; ``str()`` puts them on one line, as ``notation check``
    prints it:

    >>> import notation
    >>> record = notation.read_string("1. b1 b5 2. b1-b0 *\\n")[0]
    >>> defect = notation.check_record(record, "cave").error
    >>> defect.line, defect.column, defect.turn, defect.move, defect.code
    (1, 13, 3, 'b1-b0', 'cave-not-a-square')
    >>> print(defect)
    <input>:1:13: record 1, turn 3 (b1-b0): b0 is not a square of the Cave board (a1-d5)
    >>> defect.to_dict()["kind"]
    'syntax'
    """

    kind: ErrorKind
    message: str
    line: int
    column: int
    turn: int | None = None
    move: str | None = None
    file: str | None = None
    record: int | None = None
    #: A stable, machine-readable name of the case (``"number-wrong"``,
    #: ``"cave-attack-not-diagonal"``; every one is in :func:`all_codes`), so that a
    #: program can sort broken records without matching message text; an error made
    #: without one gets its kind (``"syntax"``, ``"illegal"``, ``"result"``).
    code: str = ""
    #: For a rules defect that depends on what stands on a square: the turn that last
    #: changed it (also named in the message).
    last_changed: LastChange | None = None
    #: ``check --all``: the moves of the line before this defect read as other moves
    #: (also named in the message); empty where none was.
    assumed: tuple[Assumption, ...] = ()
    #: The edits that mend this defect, each checked to work (a move's fix lets every
    #: later move of its line play): likeliest first; empty where none is known.
    fixes: tuple[Fix, ...] = ()

    def __post_init__(self) -> None:
        if not self.code:
            # frozen: the default is set the way dataclasses set fields themselves
            object.__setattr__(self, "code", str(self.kind))

    def located(self, *, file: str | None, record: int | None) -> Defect:
        """The same error, placed in a file and a record."""
        return replace(self, file=file, record=record)

    def shifted(self, lines: int) -> Defect:
        """The same error ``lines`` lines further down (its fixes too): a record's
        defects placed in the file it was cut from."""
        if not lines:
            return self
        fixes = tuple(replace(fix, line=fix.line + lines) for fix in self.fixes)
        return replace(self, line=self.line + lines, fixes=fixes)

    def __str__(self) -> str:
        where = f"{display_path(self.file) if self.file else '<input>'}:{self.line}:{self.column}"
        parts = []
        if self.record is not None:
            parts.append(f"record {self.record}")
        if self.turn is not None:
            move = f" ({printable(cut(self.move))})" if self.move else ""
            parts.append(f"turn {self.turn}{move}")
        prefix = ", ".join(parts)
        return printable(f"{where}: {prefix + ': ' if prefix else ''}{self.message}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (``check --json``); the verdict around it gives file and
        record.  ``last_changed``, ``assumed`` and ``fixes`` are there only when they say
        something."""
        shown: dict[str, Any] = {
            "kind": str(self.kind),
            "code": self.code,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "move": self.move,
            "message": self.message,
        }
        if self.last_changed is not None:
            shown["last_changed"] = self.last_changed.to_dict()
        if self.assumed:
            shown["assumed"] = [assumption.to_dict() for assumption in self.assumed]
        if self.fixes:
            shown["fixes"] = [fix.to_dict() for fix in self.fixes]
        return shown


#: The first name of this value: it is not an exception, and nobody could catch
#: it, so it became :class:`Defect`.  Kept so that old imports go on working.
NotationError = Defect


#: Every code that is no game's own, and what it means: the reader's, the replay's, the
#: strict check's, and the defaults of the exceptions a game raises.  A game's own
#: codes (``"tinkertown-occupied"``) are in its package, as :attr:`Game.error_codes
#: <notation.games.base.Game.error_codes>`; :func:`all_codes` gives them all.  Codes
#: are stable: a new case gets a new code, and a code never changes its meaning.
CODES: dict[str, str] = {
    # the reader (ErrorKind.SYNTAX)
    "comment-unclosed": "a '{' comment never closed with '}'",
    "comment-unopened": "a '}' with no '{' before it",
    "variation-unclosed": "a '(' variation never closed with ')'",
    "variation-unopened": "a ')' with no '(' before it",
    "variation-orphan": "a '(' with no move before it to be an alternative to",
    "tag-malformed": 'a line in the tags that is not [Name "value"]',
    "result-missing": "a record with no result token",
    "result-in-variation": "a result token inside an open variation",
    "result-spaced": "a result written with spaces (1 - 0)",
    "result-draw-spelling": "a draw written 1/2 or 0.5, not 1/2-1/2",
    "number-malformed": "a move number that is neither 12. nor 12...",
    "number-too-long": "a move number with too many digits",
    "glyph-orphan": "a $N glyph with no move before it",
    "glyph-too-long": "a $N glyph with too many digits",
    # the replay: tags, numbers (ErrorKind.SYNTAX)
    "game-missing": "no Game tag and no default game",
    "game-unknown": "a Game tag (or default game) that names no known game",
    "tag-value": "a tag value the game cannot accept ([Players \"9\"], a bad Position)",
    "result-tag-value": "a Result tag that is not 1-0, 0-1, 1/2-1/2 or *",
    "number-wrong": "a move number that does not match its turn",
    # the replay: the result token (ErrorKind.RESULT)
    "result-not-in-game": "a result the game does not have (a draw)",
    "result-contradicts-tag": "a result token other than the Result tag",
    "result-contradicts-rules": "a result other than the one the rules ended with",
    # JSON Lines input (ErrorKind.SYNTAX)
    "json-not-a-record": "a line of JSON Lines input that is not a record object",
    # moves of any game (ErrorKind.SYNTAX)
    "move-too-long": "a token longer than any move of the game (a space missing?)",
    # moves: the default codes of the exceptions a game raises, for a game that names
    # no case of its own (MoveSyntaxError: ErrorKind.SYNTAX; IllegalMoveError: ILLEGAL)
    "move-syntax": "a move token the game's grammar cannot read",
    "move-illegal": "a well-formed move the rules forbid",
    # check --strict (ErrorKind.SYNTAX): what the canonical form adds
    "strict-number-missing": "no move number where the canonical form writes one",
    "strict-letter-case": "a move in the wrong letter case, and only that",
    "strict-spelling": "a move spelt otherwise than its canonical form (a mark left "
    "out, a short form, another spelling)",
    "strict-tag-case": "a tag the toolkit reads, its name in the wrong letter case",
    # an error made without a code of its own gets its kind as its code
    "syntax": "a syntax error with no code of its own",
    "illegal": "an illegal move with no code of its own",
    "result": "a wrong result with no code of its own",
}


#: A slot (see :func:`notation.plug_in`), filled by :mod:`notation.games`.
game_codes: Callable[[], Mapping[str, str]] | None = None


def all_codes() -> dict[str, str]:
    """Every code an error may carry, and what it means: :data:`CODES` and the codes of
    every registered game (:attr:`Game.error_codes <notation.games.base.Game.error_codes>`),
    sorted by code.  A game's codes start with its name and a hyphen."""
    if game_codes is None:
        plug_in("game codes")
    codes = {**CODES, **game_codes()} if game_codes else dict(CODES)
    return dict(sorted(codes.items()))


#: How much of a move a message quotes: a hostile file can hold a token of megabytes.
SHOWN_MOVE = 40


def cut(text: str) -> str:
    """``text`` as a message quotes it: whole if it has at most :data:`SHOWN_MOVE`
    characters, else their first :data:`SHOWN_MOVE` and the length
    (``"... (5000 characters)"``)."""
    if len(text) <= SHOWN_MOVE:
        return text
    return f"{text[:SHOWN_MOVE]}... ({len(text)} characters)"


def printable(text: str) -> str:
    """``text`` with control and other invisible characters escaped (``\\x00``, ``\\x1b``).

    A record's bytes end up in messages printed on a terminal: a NUL or an escape
    sequence must show as what it is, not act on the terminal.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)



def display_path(name: str) -> str:
    """A file name as every message shows it (standard error, JSON, web pages): text
    that any stream can write.

    Python hands over each byte of a name that is not UTF-8 as a lone surrogate
    (``b"caf\\xe9.txt"`` is ``"caf\\udce9.txt"``), which no UTF-8 stream can write:
    such a byte is shown as ``\\xNN`` (``caf\\xe9.txt``), other surrogates and
    invisible characters escaped as messages escape them (``\\ud800``, ``\\n``).
    A name that is plain text is returned as it is.
    """
    if name.isprintable():  # surrogates are not: the common case costs one test
        return name
    return "".join(
        f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else printable(c)
        for c in name
    )


class NotationException(Exception):
    """Base of the exceptions the library raises for bad input."""

    #: The :attr:`Defect.code` an error made from this exception carries.  A class
    #: attribute, so that raising costs nothing more (legality tests raise often);
    #: :class:`CodedException` reads it from the exception's arguments instead.
    code: str | None = None


class CodedException(NotationException):
    """An exception a game raises for a move, naming its case: :class:`MoveSyntaxError`
    and :class:`IllegalMoveError`.

    The code is the second argument: ``IllegalMoveError("d3 is occupied",
    "tinkertown-occupied")``; without one the class's :attr:`default_code` stands.
    Positional, and kept in ``args`` by Python's own exception constructor: legality
    tests raise often, and an ``__init__`` written in Python (what a ``code=`` keyword
    needs) would cost every refused ``push()`` a call.
    """

    #: The code when the raiser names none.
    default_code: ClassVar[str] = "move-illegal"

    if TYPE_CHECKING:  # the signature, for type checkers; Python's own stands at run time

        def __init__(self, message: str, code: str | None = None, /) -> None: ...

    def __str__(self) -> str:
        """The message alone (``args`` also holds the code)."""
        args = self.args
        return str(args[0]) if args else ""

    @property  # read from args: see the class's docstring
    def code(self) -> str:
        """The :attr:`Defect.code` an error made from this exception carries."""
        args = self.args
        if len(args) > 1 and args[1]:
            return str(args[1])
        return self.default_code

    @code.setter
    def code(self, value: str | None) -> None:
        self.args = (str(self), value)


class MoveSyntaxError(CodedException):
    """A move token that the game's grammar cannot read (raised by ``Game.parse_move``).

    ``MoveSyntaxError(message, code)``: a game that explains a case names it
    (``"zombie-kidz-not-a-die"``); ``"move-syntax"`` otherwise.
    """

    default_code: ClassVar[str] = "move-syntax"


class IllegalMoveError(CodedException):
    """A well-formed move that the rules forbid in this position.

    The message states the facts of the position, e.g.
    ``"h5 holds 1 zombie; a move of 2 needs 2"``, and the second argument names the
    rule broken (``"tinkertown-too-few-zombies"``; ``"move-illegal"`` when none is
    given).  Well formed means that every field names something the game has (a
    square of the board, a die face): a move whose fields name nothing is a
    :class:`MisuseError` instead, since no record can hold it.
    """

    default_code: ClassVar[str] = "move-illegal"


class MisuseError(NotationException, ValueError):
    """The library was called with an argument it cannot use.

    A programming error of the caller, never a defect of a record: a square that
    is not on the board (``position.stack(64)``, ``position.stack("z9")``), a
    player or side that does not exist, an object that is not a move of this game
    (another game's move, a string, ``None``), a move built by hand whose fields
    are out of range (``Drop(-1)``: refused when it is made), or ``pop()`` with no
    move to take back.  The message says which argument and what was expected; the
    position is left as it was.  A ``ValueError`` too, so that code catching that
    for a bad argument goes on working.
    """


class LongWorkNotice(UserWarning):
    """Issued just before work that takes long, once (Zombie Kidz with 3 players:
    its table of values is solved on first use, a minute or two, then kept in the
    cache folder).  The command line shows it as a line ``note: ...`` on standard
    error; a program may silence it with ``warnings.simplefilter("ignore",
    LongWorkNotice)``."""


def misuse_unless(ok: bool, what: str, expected: str, value: object) -> None:
    """Raise :class:`MisuseError` ``"{what} is {expected}, not {type}"`` unless ``ok``:
    how a public entry point refuses an argument of the wrong type or value."""
    if not ok:
        misuse(what, expected, value)


def misuse(what: str, expected: str, value: object) -> NoReturn:
    """Raise :class:`MisuseError` ``"{what} is {expected}, not {type}"``."""
    raise MisuseError(f"{what} is {expected}, not {printable(cut(_shown(value)))}")


def _shown(value: object) -> str:
    """A wrong argument as a message names it: its type, and its value if it is short."""
    if value is None:
        return "None"
    kind = type(value).__name__
    if isinstance(value, (bytes, str, int, float)):
        return f"{kind} {value!r}" if len(repr(value)) <= SHOWN_MOVE else kind
    return kind


def require_path(value: object, what: str = "path") -> None:
    """:class:`MisuseError` unless ``value`` is a path: a ``str`` or an ``os.PathLike``
    of one (not bytes, and not an int, which ``open`` would take as a file descriptor)
    that a file could have: no NUL, and no character the file system cannot write (a
    lone surrogate other than the ``"\\udc80"`` to ``"\\udcff"`` that stand for the
    bytes of a name that is not UTF-8)."""
    import os

    ok = isinstance(value, str) or (
        isinstance(value, os.PathLike) and isinstance(os.fspath(value), str)
    )
    misuse_unless(ok, what, "a path (a str or a pathlib.Path)", value)
    name: str = os.fspath(value)  # type: ignore[call-overload]  # a str, checked above
    try:
        ok = b"\x00" not in os.fsencode(name)
    except UnicodeEncodeError:  # a character no file name can hold, as a NUL
        ok = False
    expected = "a path a file can have (no NUL, nothing the file system cannot encode)"
    misuse_unless(ok, what, expected, value)


def require_sequence(value: object, what: str, of: str) -> None:
    """:class:`MisuseError` unless ``value`` is an iterable other than a str or bytes (a
    list, a tuple, a generator, an open file): ``of`` says of what, for the message."""
    from collections.abc import Iterable

    ok = isinstance(value, Iterable) and not isinstance(value, (str, bytes, bytearray))
    misuse_unless(ok, what, f"an iterable of {of}", value)


def require_text_lines(value: object, what: str, of: str) -> None:
    """:func:`require_sequence`, and :class:`MisuseError` for a binary stream too (its
    lines are bytes): what the readers of lines of text take."""
    import io

    require_sequence(value, what, of)
    binary = isinstance(value, (io.BufferedIOBase, io.RawIOBase))
    misuse_unless(not binary, what, f"{of} (a binary stream's are bytes)", value)


def require_number(value: object, what: str) -> None:
    """:class:`MisuseError` unless ``value`` is an int (a bool is no number anyone means)."""
    misuse_unless(
        isinstance(value, int) and not isinstance(value, bool), what, "a whole number", value
    )


def require_text(value: object, what: str) -> str:
    """``value`` if it is a str; else :class:`MisuseError` naming ``what`` (for the
    methods that take text from a program, not from a record)."""
    if type(value) is not str:
        misuse(what, "a str", value)
    return value


def require_tags(tags: object) -> None:
    """:class:`MisuseError` unless ``tags`` is a mapping of tag names to values or None:
    what a game's ``new_position`` and ``position_from_string`` take."""
    if tags is None or type(tags) is dict:  # what a replay hands over: no test needed
        return
    from collections.abc import Mapping

    misuse_unless(
        tags is None or isinstance(tags, Mapping), "tags", "a mapping of tag names to values",
        tags,
    )


def require_rng(rng: object) -> None:
    """:class:`MisuseError` unless ``rng`` is a ``random.Random`` (what deals and plays
    at random: a game's ``deal`` and ``random_playout``, a bot)."""
    import random

    misuse_unless(isinstance(rng, random.Random), "rng", "a random.Random", rng)


def require_flag(value: object, what: str) -> None:
    """:class:`MisuseError` unless ``value`` is True or False (not 1, "yes" or None,
    which would be taken as one by accident)."""
    misuse_unless(type(value) is bool, what, "True or False", value)


def require_encodable(value: object, what: str) -> str:
    """``value`` if it is a str that a file can hold (UTF-8 text: no lone surrogate such
    as ``"\\ud800"``), else :class:`MisuseError` naming ``what``: what text a program
    puts in a record (a comment, a tag, a player's name) must be, for it to be saved."""
    text = require_text(value, what)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        misuse(what, "a str a file can hold (no lone surrogate)", value)
    return text


class TagValueError(NotationException):
    """A tag whose value the game cannot accept (``[Players "9"]``)."""

    code = "tag-value"

    def __init__(self, tag: str, message: str) -> None:
        super().__init__(message)
        self.tag = tag
