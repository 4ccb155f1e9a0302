"""The text of a position of a record, as rich renderables from a
:class:`~notation.stepper.Stepper`: what ``notation show`` prints (header, board, turn,
last move, problem), and the pieces ``notation replay`` draws around its move list.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from notation.record import Comment, MoveNode
from notation.render.terminal import board_renderable, cleaner
from notation.stepper import Stepper
from notation.visitor import move_label

__all__ = [
    "ERROR_STYLE",
    "NAG_NAMES",
    "SUFFIX_NAMES",
    "comments_here",
    "glyph_words",
    "header",
    "line_range",
    "move_lines",
    "move_number",
    "problem_line",
    "show_renderable",
    "to_move",
    "turn_line",
    "variation_list",
]

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


def move_number(turn: int, round_size: int) -> str:
    """The move number written before ``turn``: ``12.`` for a round's first turn, else ``12...``."""
    return move_label(turn, round_size, resumes=True)


def line_range(stepper: Stepper) -> tuple[int, int]:
    """The first and last turn a position of the current line can be after."""
    turns = stepper.line_turns()
    first = turns[0][0] - 1 if turns else stepper.cursor.turn
    return first, first + len(turns)


# -- the pieces of the picture ---------------------------------------------------------


def header(stepper: Stepper, ascii: bool = False) -> Text:
    """The record's tags that matter: game, event, site, date, round, players, result."""
    clean = cleaner(ascii)
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
    out.append(f"Turn {stepper.cursor.turn}", style="bold")
    out.append(f" ({stepper.where()}, turns {first}-{last})   ")
    out.append_text(to_move(stepper, ascii))
    return out


def to_move(stepper: Stepper, ascii: bool = False) -> Text:
    """Who moves next, or the result the rules gave."""
    clean = cleaner(ascii)
    position = stepper.cursor.position
    outcome = position.outcome()
    if outcome is None:
        return Text(clean(f"{position.mover} to move"))
    meaning = stepper.game.result_names.get(outcome, "")
    return Text(clean(f"Game over: {outcome}" + (f" ({meaning})" if meaning else "")))


def move_lines(stepper: Stepper, ascii: bool = False) -> Text:
    """The last move with its glyphs, the comments around it, the variations instead of it."""
    clean = cleaner(ascii)
    lines: list[Text] = []
    node = stepper.cursor.last_node
    if node is not None:
        line = Text("Last move: ", style="bold")
        number = move_number(stepper.cursor.turn, stepper.cursor.position.round_size)
        line.append(clean(f"turn {stepper.cursor.turn}, {number} {node.written}"))
        glyphs = glyph_words(node)
        if glyphs:
            line.append(clean(f"   ({glyphs})"), style="italic")
        lines.append(line)
    for comment in comments_here(stepper):
        lines.append(Text(clean("{" + " ".join(comment.text.split()) + "}"), style="green"))
    variations = stepper.variations_here()
    if variations:
        word = "variation" if len(variations) == 1 else "variations"
        line = Text(f"{len(variations)} {word} instead of this move: ", style="bold")
        line.append(clean(variation_list(stepper)))
        lines.append(line)
    return Text("\n").join(lines)


def variation_list(stepper: Stepper) -> str:
    """The variations instead of the last move, each by its first move: ``(1) 12. b5,
    (2) empty``."""
    number = move_number(stepper.cursor.turn, stepper.cursor.position.round_size)
    return ", ".join(
        f"({i}) {number} {v.nodes[0].written}" if v.nodes else f"({i}) empty"
        for i, v in enumerate(stepper.variations_here(), 1)
    )


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
    node = stepper.cursor.last_node
    found: list[Comment] = []
    if node is None:
        following = stepper.cursor.next_node
        if following is not None and not stepper.cursor.depth:
            found.extend(following.comments_before)
    else:
        found.extend(node.comments_before)
        found.extend(node.comments_after)
    if stepper.cursor.at_end and not stepper.cursor.depth:
        found.extend(stepper.record.comments)
    return found


def problem_line(stepper: Stepper, ascii: bool = False) -> Text | None:
    """What is wrong: the move the replay could not play, else the record's first defect."""
    clean = cleaner(ascii)
    error = stepper.cursor.defect
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
    """Everything ``notation show`` prints for the stepper's current position
    (``plain``: for a console without colour)."""
    parts: list[RenderableType] = [
        header(stepper, ascii),
        Text(),
        board_renderable(
            stepper.cursor.position.board_view(), width=width, ascii=ascii, plain=plain
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
