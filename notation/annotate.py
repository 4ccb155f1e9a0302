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
from dataclasses import dataclass
from typing import Any

from notation.convert import (
    Converted,
    canonical_text,
    convert_record,
    verbatim,
)
from notation.games.base import Game, Position
from notation.record import Comment, MoveNode, Record
from notation.replay import ReplayVisitor, check_record, resolve_game
from notation.view import Assessment
from notation.walk import all_comment_lists

__all__ = ["AnnotateOptions", "annotate_record", "strip_machine_commands", "termination"]

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
#: thousand pairs over and over (profiled: after every move), and hands out the same
#: tuple each time where it can.  Bounded against hostile input.  (The comments
#: themselves are not kept: a Tinkertown corpus combines its pairs in a third as many
#: ways as it has moves, and keeping those took 71 MB at 600k turns.)
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


def joined_commands(pairs: list[tuple[str, str]]) -> tuple[str, tuple[str, ...]]:
    """The text of the comment of a move's annotations ``pairs`` (not empty), and the
    keys in it."""
    names: set[str] = set()
    return " ".join(_commands(pairs, names)), tuple(names)


def comment_text(pairs: list[tuple[str, str]]) -> str | None:
    """The text of the comment of a move's annotations ``pairs`` (``joined_commands(
    pairs)[0]``), None for no pairs: asked after every move of a plain record."""
    if not pairs:
        return None
    try:  # every command met before (nearly always): looked up in one pass
        return " ".join(map(_COMMANDS.__getitem__, pairs))
    except (KeyError, TypeError):  # one new, or pairs that are not tuples
        return " ".join(_commands(pairs, set()))


class _Annotator(ReplayVisitor):
    def __init__(self, game: Game[Any], options: AnnotateOptions) -> None:
        self.game = game
        self.options = options
        self.keys: set[str] = set(TOOL_KEYS)
        #: The comments this run added (kept by strip_machine_commands): a list, made
        #: a set of ids only when there is something to strip.
        self.added: list[Comment] = []
        self._assessment: Assessment | None = None
        #: The canonical spelling of each move, by ``id(node)``, for writing (what
        #: CanonicalSpellings collects, here in the same call: one visitor, no
        #: Visitors in between, for a hook called after every move).
        self.texts: dict[int, str] = {}
        #: Whether a move replayed had comments (or variations, whose comments it
        #: does not see) before this run added its own: if none had, and the record
        #: has none of its own, there is no old command to strip (profiled: the walk
        #: of every comment list, each holding the comment just added).
        self.had_comments = False
        #: (round size, turn of the first move), as CanonicalSpellings.layout.
        self.layout: tuple[int, int] | None = None

    @property
    def needs_before_move(self) -> bool:
        """Only an analysis looks at the position before a move."""
        return self.options.analyze and self.game.can_assess

    def before_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        self._assessment = None
        if self.options.analyze and self.game.can_assess:
            self._assessment = self.game.assess_move(position, move)

    def after_move(self, node: MoveNode, move: Any, position: Position[Any]) -> None:
        self.texts[id(node)] = str(position.last_move_canonical())
        if self.layout is None:
            self.layout = (position.round_size, position.turn)
        # The slots, not the properties, which would make three empty lists a move.
        if node._comments_before or node._comments_after or node._variations:
            self.had_comments = True
        assessment = self._assessment
        if assessment is None:  # the common case: the game's annotations only
            pairs = position.annotations()
            if pairs:
                joined = joined_commands(pairs)
                self.keys.update(joined[1])
                comment = Comment(joined[0])
                self.added.append(comment)
                after = node._comments_after
                if after is None:  # the slot: no empty list made just to append to
                    node._comments_after = [comment]
                else:
                    after.append(comment)
        else:
            commands = _commands(position.annotations(), self.keys)
            if assessment.glyph or assessment.reason:
                verdict = f"{assessment.glyph} {assessment.reason}".strip()
                commands.append(_command("analysis", verdict))
            self.keys.update(key for key, _ in assessment.values)
            commands.extend(_command(key, value) for key, value in assessment.values)
            if assessment.glyph and not node.suffix:
                node.suffix = assessment.glyph
            if commands:
                self._add(node, " ".join(commands))
        every = self.options.diagrams
        if every and position.turn % every == 0:
            diagram = position.diagram().replace("{", "(").replace("}", ")")
            self._add(node, f"[%diagram {position.turn}]\n{diagram}")

    def _add(self, node: MoveNode, text: str) -> None:
        comment = Comment(text)
        self.added.append(comment)
        node.comments_after.append(comment)


def strip_machine_commands(
    record: Record, keys: set[str] | frozenset[str], keep: set[int] | None = None
) -> None:
    """Remove ``[%key ...]`` commands of these keys from every comment (except the
    comments whose ids are in ``keep``); comments left empty go, and so do whole
    ``[%diagram]`` comments."""
    keep = keep or set()
    for comments in all_comment_lists(record):
        if not comments:
            continue  # most lists (profiled: five a move)
        kept: list[Comment] = []
        for comment in comments:
            if id(comment) in keep:
                kept.append(comment)
                continue
            text = comment.text
            if "diagram" in keys and text.startswith("[%diagram"):
                continue
            stripped = _COMMAND.sub(
                lambda m: "" if m.group(1) in keys else m.group(0), text
            )
            if stripped != text:
                stripped = re.sub(r"[ \t]{2,}", " ", stripped).strip()
                if not stripped:
                    continue
                comment.text = stripped
            kept.append(comment)
        comments[:] = kept


def annotate_record(
    record: Record, options: AnnotateOptions | None = None, default_game: str | None = None
) -> Converted:
    """The record annotated, as canonical text; or, if it does not check, exactly as it
    was written (with the error, so the caller can say so).

    The record's tree is annotated in place (comments, suffixes, the Termination tag)
    when it checks; a record that does not check is left as it is.
    """
    options = options or AnnotateOptions()
    game = resolve_game(record, default_game)
    if not isinstance(game, Game):
        return convert_record(record, "text", default_game)
    if record.raw is None:
        # Without its text a broken record is written from its tree, which the
        # annotator must not have touched: check it first.
        verdict = check_record(record, default_game)
        if verdict.error is not None:
            return convert_record(record, "text", default_game)
    annotator = _Annotator(game, options)  # it collects the spellings to write, too
    verdict = check_record(record, default_game, annotator)
    if verdict.error is not None:
        assert record.raw is not None
        return verbatim(record.raw, "text", verdict.error)
    if annotator.had_comments or record.comments or record.comments_after_result:
        keys = annotator.keys | game.annotation_keys
        strip_machine_commands(record, keys, {id(c) for c in annotator.added})
    record.set_tag("Termination", termination(record.result, verdict.outcome))
    return Converted(canonical_text(record, game, annotator.texts, annotator.layout), None)
