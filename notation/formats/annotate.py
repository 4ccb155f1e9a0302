"""Writing what the engine knows into a record.

After every move (variations included) a comment of machine commands is added,
``{[%key value] [%key value]}``, the convention chess tools use for clock times
and evaluations; the keys are the game's (``Position.annotations``).  Also:

- a ``Termination`` tag: ``rules`` (the rules ended the game), ``resignation``
  (a decisive result the rules did not reach), ``agreement`` (a draw they did not
  reach), ``unfinished`` (``*``);
- with ``diagrams=N``, a text diagram after every N-th turn, in a comment that
  starts with ``[%diagram T]``;
- with ``analyze``, the game's first opinion on each move (``Game.assess_move``):
  the glyph goes into the move's suffix where the record has none, and the reason
  into an ``[%analysis ...]`` command.

Annotating replaces the machine commands of an earlier run and keeps everything
else, human comments included, so annotating twice gives the same text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from notation.errors import Defect, misuse_unless
from notation.formats.convert import (
    Converted,
    convert_record,
    ordered_tags,
    read_json_records,
    sniff_json,
    verbatim,
)
from notation.games.base import Game, Position
from notation.games.view import Assessment
from notation.reader import visit_records
from notation.record import Comment, Record
from notation.replay import Replay, Verdict, resolve_game
from notation.visitor import Skip, walk_record
from notation.writer import (
    MovetextWriter,
    UnwritableRecord,
    movetext,
    record_text,
    tag_lines,
    unwritable,
)

__all__ = [
    "AnnotateOptions",
    "AnnotatingWriter",
    "annotate_lines",
    "annotate_record",
    "annotated",
    "stripped_comments",
    "termination",
]

#: Commands this module writes itself, whatever the game.
TOOL_KEYS = frozenset({"diagram", "analysis"})
# A value stops at "[" as well as "]": else every unclosed "[%a" of a long comment
# would scan to the end of its line, quadratic time in all.
_COMMAND = re.compile(r"\[%([A-Za-z][\w-]*)(?:[ \t]+[^\[\]\n]*)?\]")


@dataclass(frozen=True, slots=True)
class AnnotateOptions:
    #: Add a text diagram after every N-th turn (0: none).
    diagrams: int = 0
    #: Ask the game for its opinion of every move (``??``, ``?``, ``!``).
    analyze: bool = False


def termination(result: str | None, outcome: str | None) -> str:
    """How the game ended, for the ``Termination`` tag."""
    if outcome is not None:
        return "rules"
    if result in ("1-0", "0-1"):
        return "resignation"
    if result == "1/2-1/2":
        return "agreement"
    return "unfinished"


def _command(key: str, value: str) -> str:
    # The game promises values without brackets or braces; a newline would end a
    # ";" comment, so it is folded too.
    value = " ".join(value.split())
    return f"[%{key} {value}]" if value else f"[%{key}]"


#: Commands already written, by their (key, value) pair: a game repeats a few
#: thousand pairs over and over, and hands out the same tuple each time where it can.
#: Bounded against hostile input.  (The comments themselves are not kept: a game
#: combines its pairs in nearly as many ways as it has moves.)
_COMMANDS: dict[tuple[str, str], str] = {}
_COMMANDS_LIMIT = 20_000


def _new_command(pair: tuple[str, str]) -> str:
    key, value = pair
    command = _command(key, value)
    if len(_COMMANDS) >= _COMMANDS_LIMIT:
        _COMMANDS.clear()
    _COMMANDS[key, value] = command
    return command


def _commands(pairs: list[tuple[str, str]], keys: set[str]) -> list[str]:
    """The commands of ``pairs``, each as :func:`_command` writes it; their keys are
    added to ``keys``."""
    get = _COMMANDS.get
    commands = []
    for pair in pairs:
        command = get(pair) if type(pair) is tuple else None
        commands.append(command or _new_command(pair))
        keys.add(pair[0])
    return commands


def comment_text(pairs: list[tuple[str, str]]) -> str | None:
    """The text of the comment of a move's annotations ``pairs``, each as
    :func:`_command` writes it; None for no pairs."""
    if not pairs:
        return None
    try:  # every command met before (nearly always): looked up in one pass
        return " ".join(map(_COMMANDS.__getitem__, pairs))
    except (KeyError, TypeError):  # one new, or pairs that are not tuples
        return " ".join(_commands(pairs, set()))


class AnnotatingWriter(MovetextWriter):
    """The writer of an annotated record, under a :class:`~notation.replay.Replay`: the
    canonical text of each move, then its annotations (and, with the options, its
    diagram and the game's opinion of it) as a comment after its own comments, from
    which the machine commands of an earlier run are taken out.  The record is not
    changed; :func:`annotated` makes the text after each record."""

    def __init__(self, options: AnnotateOptions | None = None, default_game: str | None = None):
        super().__init__()
        misuse_unless(
            options is None or isinstance(options, AnnotateOptions),
            "options", "an AnnotateOptions or None", options,
        )
        misuse_unless(
            default_game is None or isinstance(default_game, str),
            "default_game", "a game's name or None", default_game,
        )
        self.options = options or AnnotateOptions()
        self.default_game = default_game
        self.game: Game[Any] | None = None
        #: The keys of the machine commands taken out of the record's own comments.
        self.keys: set[str] = set(TOOL_KEYS)
        self.assessment: Assessment | None = None
        self.glyph = ""  # the glyph of the game's opinion of the move just played

    def begin_record(self, record: Record) -> None:
        super().begin_record(record)
        # The record as the reader fills it: its error is set as soon as it is read
        # wrong.  A broken record is written back as it was, so that from then on the
        # game's opinion of a move (a search, or solving a table) is asked for nothing.
        self.reading = record
        self.broken = False

    def move_error(self, error: Defect) -> None:
        self.broken = True
        super().move_error(error)

    def end_tags(self, record: Record) -> Skip | None:
        game = resolve_game(self.record, self.default_game)
        self.game = game if isinstance(game, Game) else None
        self.keys = set(TOOL_KEYS) | (self.game.annotation_keys if self.game else set())
        return None

    def kept(self, comments: list[Comment]) -> list[Comment]:
        """``comments`` without the machine commands of an earlier run."""
        if not comments:
            return comments
        return stripped_comments(comments, self.keys)

    def after_move(self, move: Any, position: Position[Any]) -> None:
        self.assessment = None
        game = self.game
        if (
            self.options.analyze and game is not None and game.can_assess
            and not self.broken and self.reading.error is None
        ):
            # The game's opinion of the move, from the position before it.
            position.pop()
            self.assessment = game.assess_move(position, move)
            position.push(move)
        super().after_move(move, position)
        line = self.lines[-1]
        node = line.pending
        suffix = node.suffix if node is not None else ""
        line.notes = self._notes(position, suffix)
        if self.glyph and not suffix:
            line.suffix = self.glyph  # the game's opinion, where the record has no suffix

    def _notes(self, position: Position[Any], suffix: str) -> list[Comment]:
        """The comments annotating the move just played."""
        notes: list[Comment] = []
        self.glyph = ""
        assessment = self.assessment
        if assessment is None:  # the common case: the game's annotations only
            text = comment_text(position.annotations())
            if text is not None:
                notes.append(Comment(text))
        else:
            self.assessment = None
            commands = _commands(position.annotations(), set())
            if assessment.glyph or assessment.reason:
                verdict = f"{assessment.glyph} {assessment.reason}".strip()
                commands.append(_command("analysis", verdict))
            commands.extend(_command(key, value) for key, value in assessment.values)
            self.glyph = assessment.glyph
            if commands:
                notes.append(Comment(" ".join(commands)))
        every = self.options.diagrams
        if every and position.turn % every == 0:
            diagram = position.diagram().replace("{", "(").replace("}", ")")
            notes.append(Comment(f"[%diagram {position.turn}]\n{diagram}"))
        return notes



def annotated(record: Record, verdict: Verdict, writer: AnnotatingWriter, *, read: bool = False
              ) -> Converted:
    """The annotated text of ``record``, just replayed with ``writer`` and judged
    ``verdict``; or, if it does not check, the record as it was written.  ``read``: the
    record came from the reader (text can hold it)."""
    error, game = verdict.error, writer.game
    if error is not None or game is None:
        if record.raw is not None and error is not None:
            return verbatim(record.raw, "text", error)
        return convert_record(record, "text", writer.default_game)
    record.set_tag("Termination", termination(record.result, verdict.outcome))
    tags = ordered_tags(record, game)
    if not read:
        problem = unwritable(record, tags)
        if problem is not None:
            raise UnwritableRecord(problem)
    lines = tag_lines([(tag.name, tag.value) for tag in tags])
    return Converted(record_text(lines, movetext(writer.tokens)), None)


def stripped_comments(comments: list[Comment], keys: set[str] | frozenset[str]) -> list[Comment]:
    """``comments`` without ``[%key ...]`` commands of these ``keys`` (new comments
    where one changes; the list itself is not changed): comments left empty go, and so
    do whole ``[%diagram]`` comments."""
    kept: list[Comment] = []
    for comment in comments:
        text = comment.text
        if "[%" not in text:
            kept.append(comment)
            continue
        if "diagram" in keys and text.startswith("[%diagram"):
            continue
        stripped = _COMMAND.sub(lambda m: "" if m.group(1) in keys else m.group(0), text)
        if stripped != text:
            stripped = re.sub(r"[ \t]{2,}", " ", stripped).strip()
            if not stripped:
                continue
            comment = replace(comment, text=stripped)
        kept.append(comment)
    return kept


def annotate_record(
    record: Record, options: AnnotateOptions | None = None, default_game: str | None = None
) -> Converted:
    """The record annotated, as canonical text; or, if it does not check, exactly as it
    was written (with the error, so the caller can say so).  The record's tags get
    the ``Termination`` tag when it checks; nothing else of it is changed.

    Cave's annotations are the reserves left after a move that changes them, and an
    unfinished game (``*``) gets ``[Termination "unfinished"]``:

    >>> import notation
    >>> (record,) = notation.read_string('[Game "cave"]\\n\\n1. b1 b5 2. b1-c1 *\\n')
    >>> print(annotate_record(record).text, end="")
    [Game "cave"]
    [Termination "unfinished"]
    <BLANKLINE>
    1. b1 {[%reserve R5 B6]} 1... b5 {[%reserve R5 B5]} 2. b1-c1 *
    """
    misuse_unless(isinstance(record, Record), "record", "a notation.Record", record)
    writer = AnnotatingWriter(options, default_game)
    verdict = walk_record(record, Replay(default_game, writer))
    return annotated(record, verdict, writer)


def annotate_lines(
    lines: Iterable[str],
    source: str | None = None,
    options: AnnotateOptions | None = None,
    default_game: str | None = None,
) -> Iterator[Converted]:
    """:func:`annotate_record` of each record of ``lines`` (record text or JSON Lines,
    told apart by content): record text read and annotated in one pass."""
    is_json, rest = sniff_json(lines)
    if is_json:
        for record in read_json_records(rest, source, errors="record"):
            yield annotate_record(record, options, default_game)
        return
    writer = AnnotatingWriter(options, default_game)
    for verdict in visit_records(rest, Replay(default_game, writer), source, keep_raw=True):
        assert writer.record is not None
        yield annotated(writer.record, verdict, writer, read=True)
