"""``notation show``: one position of a record, drawn on the terminal.

The pieces of the picture (header, position lines, the problem line) are built
here from a :class:`~notation.stepper.Stepper` and reused by ``notation replay``,
which draws the same things around its move list.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click
from rich.console import Group, RenderableType
from rich.text import Text

from notation.commands.common import game_option, select_record
from notation.errors import NotationError
from notation.record import Comment, MoveNode, Record
from notation.render.terminal import (
    asciify,
    board_renderable,
    emit,
    is_plain,
    make_console,
)
from notation.replay import resolve_game
from notation.stepper import Stepper, StepperError

#: What the standard numeric glyphs mean (PGN's first ones; others print as $N).
NAG_NAMES = {
    1: "good move",
    2: "poor move",
    3: "very good move",
    4: "very poor move",
    5: "speculative move",
    6: "questionable move",
    7: "forced move",
    8: "only move",
    9: "worst move",
}
SUFFIX_NAMES = {
    "!": "good move",
    "?": "poor move",
    "!!": "very good move",
    "??": "very poor move",
    "!?": "speculative move",
    "?!": "questionable move",
}

ERROR_STYLE = "bold red"


def _cleaner(ascii: bool) -> Callable[[str], str]:
    return asciify if ascii else _same


def _same(text: str) -> str:
    return text


def move_number(turn: int, round_size: int) -> str:
    """The move number written before ``turn``: ``12.`` for a round's first turn, else ``12...``."""
    index = turn - 1
    number = index // round_size + 1
    return f"{number}." if index % round_size == 0 else f"{number}..."


def open_stepper(record: Record, game: str | None) -> Stepper:
    """A stepper on ``record``; a record we cannot even start is an error for the user.

    No game (no ``Game`` tag, no ``--game``) is a usage error (exit 2); a start that
    the game refuses (a bad ``Players`` tag) makes the record broken (exit 1).
    """
    resolved = resolve_game(record, game)
    if isinstance(resolved, NotationError):
        raise click.UsageError(str(resolved.located(file=record.source, record=record.index)))
    try:
        return Stepper(record, resolved)
    except StepperError as exc:
        click.echo(f"error: {exc.error}", err=True)
        sys.exit(1)


def line_range(stepper: Stepper) -> tuple[int, int]:
    """The first and last turn a position of the current line can be after."""
    turns = stepper.line_turns()
    first = turns[0][0] - 1 if turns else stepper.turn
    return first, first + len(turns)


# -- the pieces of the picture ---------------------------------------------------------


def header(stepper: Stepper, ascii: bool = False) -> Text:
    """The record's tags that matter: game, event, site, date, round, players, result."""
    clean = _cleaner(ascii)
    record, game = stepper.record, stepper.game
    tags = record.tag_dict
    text = Text(clean(game.title), style="bold")
    if tags.get("Event"):
        text.append(clean(f" - {tags['Event']}"))
    where = [tags[name] for name in ("Site", "Date") if tags.get(name)]
    if tags.get("Round"):
        where.append(f"round {tags['Round']}")
    if where:
        text.append(clean(f" ({', '.join(where)})"))
    people = [(name, tags[name]) for name in game.player_tags if tags.get(name)]
    people.append(("Result", record.result or tags.get("Result") or "none"))
    text.append("\n")
    for i, (name, value) in enumerate(people):
        text.append("   " if i else "")
        text.append(clean(f"{name}: "), style="bold")
        text.append(clean(value))
    return text


def turn_line(stepper: Stepper, ascii: bool = False) -> Text:
    """The turn, the line it is on, and whose turn it is (or how the game ended)."""
    first, last = line_range(stepper)
    out = Text()
    out.append(f"Turn {stepper.turn}", style="bold")
    out.append(f" ({stepper.where()}, turns {first}-{last})   ")
    out.append_text(to_move(stepper, ascii))
    return out


def to_move(stepper: Stepper, ascii: bool = False) -> Text:
    """Who moves next, or the result the rules gave."""
    clean = _cleaner(ascii)
    position = stepper.position
    outcome = position.outcome()
    if outcome is None:
        return Text(clean(f"{position.mover} to move"))
    meaning = stepper.game.result_names.get(outcome, "")
    return Text(clean(f"Game over: {outcome}" + (f" ({meaning})" if meaning else "")))


def move_lines(stepper: Stepper, ascii: bool = False) -> Text:
    """The last move with its glyphs, the comments around it, the variations instead of it."""
    clean = _cleaner(ascii)
    lines: list[Text] = []
    node = stepper.last_node
    if node is not None:
        line = Text("Last move: ", style="bold")
        line.append(clean(f"turn {stepper.turn}, {_numbered(stepper, node)}"))
        glyphs = glyph_words(node)
        if glyphs:
            line.append(clean(f"   ({glyphs})"), style="italic")
        lines.append(line)
    for comment in comments_here(stepper):
        lines.append(Text(clean("{" + " ".join(comment.text.split()) + "}"), style="green"))
    variations = stepper.variations_here()
    if variations:
        number = move_number(stepper.turn, stepper.position.round_size)
        firsts = ", ".join(
            f"({i}) {number} {v.nodes[0].written}" if v.nodes else f"({i}) empty"
            for i, v in enumerate(variations, 1)
        )
        word = "variation" if len(variations) == 1 else "variations"
        line = Text(f"{len(variations)} {word} instead of this move: ", style="bold")
        line.append(clean(firsts))
        lines.append(line)
    return Text("\n").join(lines)


def _numbered(stepper: Stepper, node: MoveNode) -> str:
    return f"{move_number(stepper.turn, stepper.position.round_size)} {node.written}"


def glyph_words(node: MoveNode) -> str:
    """The suffix and numeric glyphs of a move, with what they mean."""
    words = []
    if node.suffix:
        words.append(f"{node.suffix} {SUFFIX_NAMES.get(node.suffix, '')}".strip())
    for nag in node.nags:
        name = NAG_NAMES.get(nag)
        words.append(f"${nag} {name}" if name else f"${nag}")
    return ", ".join(words)


def comments_here(stepper: Stepper) -> list[Comment]:
    """The comments about the current position: those around the last move.

    At the start of the main line, the record's opening comments; at its end,
    the comments written after the last move too.
    """
    node = stepper.last_node
    found: list[Comment] = []
    if node is None:
        following = stepper.next_node
        if following is not None and not stepper.depth:
            found.extend(following.comments_before)
    else:
        found.extend(node.comments_before)
        found.extend(node.comments_after)
    if stepper.at_end and not stepper.depth:
        found.extend(stepper.record.comments)
    return found


def problem_line(stepper: Stepper, ascii: bool = False) -> Text | None:
    """What is wrong: the move the replay could not play, else the record's first defect."""
    clean = _cleaner(ascii)
    error = stepper.error
    if error is not None:
        text = f"stopped at turn {error.turn} ({error.move}): {error.message}"
        where = f"line {error.line}, column {error.column}"
        return Text(clean(f"{text} ({where})"), style=ERROR_STYLE)
    verdict_error = stepper.verdict.error
    if verdict_error is not None:
        return Text(clean(f"the record is broken: {verdict_error}"), style=ERROR_STYLE)
    return None


def show_renderable(
    stepper: Stepper, *, width: int, ascii: bool = False, plain: bool = False
) -> RenderableType:
    """Everything ``notation show`` prints for the stepper's current position.

    ``plain``: for a console without colour (see :func:`board_renderable`).
    """
    parts: list[RenderableType] = [
        header(stepper, ascii),
        Text(),
        board_renderable(
            stepper.position.board_view(), width=width, ascii=ascii, plain=plain
        ),
        Text(),
        turn_line(stepper, ascii),
    ]
    moves = move_lines(stepper, ascii)
    if moves.plain:
        parts.append(moves)
    problem = problem_line(stepper, ascii)
    if problem is not None:
        parts.append(problem)
    return Group(*parts)


def go_to(stepper: Stepper, turn: int | None) -> None:
    """Step along the main line to the position after ``turn`` (None: its end).

    A turn outside the record is a usage error; a turn beyond a broken move stops
    at that move, with ``stepper.error`` saying why.
    """
    if turn is None:
        stepper.to_end()
        return
    first, last = line_range(stepper)
    if not first <= turn <= last:
        raise click.BadParameter(
            f"record {stepper.record.index} runs from turn {first} to turn {last}",
            param_hint="--turn",
        )
    stepper.goto_turn(turn)


def print_position(stepper: Stepper, *, ascii: bool, position_only: bool) -> None:
    """Print the stepper's position as ``show`` does, and exit 1 if the record is broken."""
    broken = not stepper.verdict.ok
    if position_only:
        click.echo(stepper.position.position_string())
        problem = problem_line(stepper, ascii=True)
        if problem is not None:
            click.echo(problem.plain, err=True)
    else:
        console = make_console()
        renderable = show_renderable(
            stepper, width=console.width, ascii=ascii, plain=is_plain(console)
        )
        emit(console, renderable)
    sys.exit(1 if broken else 0)


# -- the command -------------------------------------------------------------------


def record_options(func: Callable[..., None]) -> Callable[..., None]:
    """FILE, --record, --turn, --game and --ascii: what ``show`` and ``replay`` share."""
    decorators = [
        click.argument(
            "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True)
        ),
        click.option(
            "--record", "number", type=click.IntRange(min=1), default=1, show_default=True,
            help="Which record of FILE (1 is the first).",
        ),
        click.option(
            "--turn", type=click.IntRange(min=0), default=None,
            help="The position after this turn of the main line (0: the start).",
        ),
        game_option,
        click.option("--ascii", is_flag=True, help="Draw with ASCII characters only."),
    ]
    for decorate in reversed(decorators):
        func = decorate(func)
    return func


@click.command("show")
@record_options
@click.option(
    "--position", "position_only", is_flag=True,
    help="Print the position as a one-line position string instead of the board.",
)
def command(
    file: str, number: int, turn: int | None, game: str | None, ascii: bool,
    position_only: bool,
) -> None:
    """Print the position after a turn of a record: board, facts, last move.

    FILE is a record file or - for standard input.  Without --turn, the position
    at the end of the main line.  Colours on a terminal; plain text when piped or
    when NO_COLOR is set.  Exits 0 for a valid record, 1 for a broken one (after
    printing the position the replay reached and what stopped it), 2 for a usage
    error.
    """
    record = select_record(file, number)
    stepper = open_stepper(record, game)
    go_to(stepper, turn)
    print_position(stepper, ascii=ascii, position_only=position_only)
