"""The keys of ``notation replay``, in one table: the app's bindings, its footer, its
help screen and the documentation (docs/viewing.md) all come from :data:`KEYS`.

They are the keys of the HTML viewer (``notation html``): arrows, Home/End, PgUp/PgDn
by ten, ``g`` go to a turn, ``/`` search, ``[``/``]`` or ``p`` previous/next record,
Down/Up into and out of a variation, ``?`` help, ``q`` quit; and ``l`` for the record
list, which the page shows as a menu.  One difference: here ``n``/``N`` go to the
next/previous match of the last search, as in less and vim (the search line closes
on Enter), where the page's search box stays open for Enter to find the next match
and ``n`` is the next record.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KEYS", "Key", "key_table_markdown"]


@dataclass(frozen=True, slots=True)
class Key:
    """One line of the key table."""

    #: Textual's names of the keys, comma-separated, as a binding takes them.
    names: str
    #: How people write them ("Right", "PgDn", "[ or p").
    shown: str
    #: The app's action (``action_<name>`` on the app), with its arguments if any.
    action: str
    #: What it does, for the help and the docs.
    does: str
    #: The word in the footer (empty: not in the footer, which is one line).
    footer: str = ""
    #: How the footer shows the key (Unicode and ASCII).
    glyph: str = ""
    ascii_glyph: str = ""


KEYS: tuple[Key, ...] = (
    Key("right", "Right", "next_move", "next move", "next", "\u2192", "->"),
    Key("left", "Left", "previous_move", "previous move", "back", "\u2190", "<-"),
    Key("home", "Home", "line_start", "start of the line"),
    Key("end", "End", "line_end", "end of the line (or the move that breaks it)"),
    Key("pagedown", "PgDn", "next_move(10)", "ten moves forward"),
    Key("pageup", "PgUp", "previous_move(10)", "ten moves back"),
    Key(
        "down", "Down", "enter_variation(1)", "into the first variation of the last move",
        "variation", "\u2193\u2191", "Dn/Up",
    ),
    Key("1,2,3,4,5,6,7,8,9", "1 to 9", "enter_variation", "into variation N of the last move"),
    Key("up", "Up", "leave_variation", "out of the variation, after the move it replaces"),
    Key("g", "g", "goto_turn", "go to a turn of the line: type it, then Enter", "turn", "g", "g"),
    Key(
        "slash", "/", "search",
        "search a move or a comment: type it, then Enter",
        "search", "/", "/",
    ),
    Key("n", "n", "search_next", "the next match of the last search, as in less and vim"),
    Key("N", "N", "search_previous", "the previous match of the last search"),
    Key(
        "right_square_bracket", "]", "next_record",
        "next record (of the list: a filter is cleared once a record is opened)",
        "record", "] [", "] [",
    ),
    Key("left_square_bracket,p", "[ or p", "previous_record", "previous record"),
    Key(
        "l", "l", "records",
        "the record list: type to filter, Up/Down, Enter to open, Esc to close",
        "list", "l", "l",
    ),
    Key(
        "escape", "Esc", "escape",
        "close the prompt, the list or the help; else out of the variation",
    ),
    Key(
        "question_mark", "?", "help", "help: these keys, the legend, the record's tags",
        "help", "?", "?",
    ),
    Key("q", "q", "quit", "quit", "quit", "q", "q"),
)

#: What the mouse does, after the keys in the help and the docs.
MOUSE = (
    ("click a move", "go to the position after it"),
    ("click a square", "its full stack and note, under Square"),
    ("click a record", "open it"),
)


def key_table_markdown() -> str:
    """The key table as docs/viewing.md has it (a test keeps the two the same)."""
    lines = ["| key | does |", "|---|---|"]
    for key in KEYS:
        shown = " or ".join(
            " to ".join(f"`{name}`" for name in part.split(" to "))
            for part in key.shown.split(" or ")
        )
        lines.append(f"| {shown} | {key.does} |")
    for what, does in MOUSE:
        lines.append(f"| mouse: {what} | {does} |")
    return "\n".join(lines) + "\n"
