"""What a Cave position tells a person: the diagram, the facts of the last move,
annotations, the board view and its caption (docs/cave.md, "Moves and facts as data",
"Annotations", "Board view").

Everything is computed on demand from the board and the last undo record, so push
and pop stay lean.  What a hidden piece may be comes from the position's one place
for it (``CavePosition._hidden_letters``).
"""

# No "from __future__ import annotations": annotations() is one of the functions here.
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from notation.games.cave.board import (
    BLACK,
    CLASS_NAMES,
    FILES,
    HOME_ROW,
    LETTER_ORDER,
    LETTERS,
    LIMIT,
    N_SQUARES,
    PIECE_SIDE,
    RANKS,
    RED,
    RESULT_NAMES,
    SIDE_CODES,
    SIDE_KEYS,
    SIDE_NAMES,
    SQUARES,
    TEAM_CLASS,
    article,
    side_pieces,
    unit_class,
)
from notation.games.cave.moves import Attack, Enter, Step
from notation.view import BoardView, Cell
from notation.view import Token as ViewToken

if TYPE_CHECKING:
    from notation.games.cave.rules import CavePosition

#: Background roles by square (home rows tinted per side), and every role's colour.
SQUARE_ROLE: tuple[str, ...] = tuple(
    "home-red" if i in HOME_ROW[RED] else "home-black" if i in HOME_ROW[BLACK] else "square"
    for i in range(N_SQUARES)
)
#: The cell of each square while it is empty (cells are immutable, so shared).
_EMPTY_CELLS: tuple[Cell, ...] = tuple(
    Cell(SQUARES[sq], SQUARE_ROLE[sq]) for sq in range(N_SQUARES)
)
PALETTE: Mapping[str, str] = {
    "square": "#5b6068",
    "home-red": "#6d5052",
    "home-black": "#43464e",
    "red": "#d9463e",
    "black": "#141418",
}


def _piece_text(position: "CavePosition", pid: int) -> str:
    """A piece's letter if it was shown, else ``?``."""
    c = position._identity[pid]
    return LETTERS[c] if c >= 0 else "?"


def diagram(position: "CavePosition") -> str:
    """A plain-text picture of the board, reserves, reveals and the side to move."""
    board = position._board
    lines = [("   " + "".join(f"{f:<7}" for f in FILES)).rstrip()]
    for rank in range(RANKS, 0, -1):
        cells = []
        for f in range(4):
            stack = board[(rank - 1) * 4 + f]
            if not stack:
                cells.append(".")
                continue
            known = "".join(_piece_text(position, p) for p in stack)
            cells.append(f"{'RB'[PIECE_SIDE[stack[0]]]}[{known}]")
        lines.append(f"{rank}  " + "".join(f"{c:<7}" for c in cells).rstrip())
    lines.append("R[?] Red piece, B[Z?] Black team of 2 with one piece shown as a zombie")
    reserve, on_board = position._reserve, position._on_board
    lines.append(
        f"Reserves: Red {reserve[RED]}, Black {reserve[BLACK]}; "
        f"on the board: Red {on_board[RED]}, Black {on_board[BLACK]}"
    )
    identity = position._identity
    for side in (RED, BLACK):
        shown = [
            f"{LETTERS[identity[p]]} {position._when(p)}"
            for p in sorted(side_pieces(side), key=position._shown_at.__getitem__)
            if identity[p] >= 0
        ]
        lines.append(f"{SIDE_NAMES[side]} has shown: {', '.join(shown) or 'nothing'}")
    if position._result is not None:
        lines.append(position._over_message())
    else:
        lines.append(f"{position.mover} to move (turn {position.turn + 1})")
    return "\n".join(lines)


# -- the last move ------------------------------------------------------------------


def _revealed(position: "CavePosition") -> list[tuple[str, str]]:
    """The pieces the last move (an attack) showed for the first time: (square it
    fought on, letter), attacker first."""
    move, _, first, _, revealed, _ = position._history[-1]
    assert isinstance(move, Attack)
    return [
        (
            SQUARES[move.origin if pid == first[0] else move.target],
            LETTERS[position._identity[pid]],
        )
        for pid in revealed
    ]


def last_move_facts(position: "CavePosition") -> dict[str, Any]:
    """What the last move did (``{}`` before any move); keys in docs/cave.md."""
    if not position._history:
        return {}
    move, _, first, second, _, won = position._history[-1]
    side = (position.turn - 1) & 1
    facts: dict[str, Any] = {"side": SIDE_KEYS[side]}
    if isinstance(move, Enter):
        facts["reserve_left"] = position._reserve[side]
    elif isinstance(move, Step):
        facts["join"] = bool(second)
        facts["team_size"] = len(first) + len(second)
    elif isinstance(move, Attack):
        loser = second if won else first
        facts.update(
            attacker_class=LETTERS[unit_class(len(first), move.attacker)],
            attacker_size=len(first),
            defender_class=LETTERS[unit_class(len(second), move.defender)],
            defender_size=len(second),
            winner="attacker" if won else "defender",
            removed={"side": SIDE_KEYS[PIECE_SIDE[loser[0]]], "count": len(loser)},
            revealed=dict(_revealed(position)),
        )
    else:
        facts["passes"] = position._passes
    if position._result is not None:
        facts["outcome"] = position._result
    return facts


def annotations(position: "CavePosition") -> list[tuple[str, str]]:
    """``reveal`` and ``possible`` after a fight, ``reserve`` after an entry."""
    if not position._history:
        return []
    move = position._history[-1][0]
    notes: list[tuple[str, str]] = []
    if isinstance(move, Attack):
        revealed = _revealed(position)
        if revealed:
            notes.append(("reveal", " ".join(f"{sq}:{letter}" for sq, letter in revealed)))
        narrowed = [
            f"{SQUARES[sq]}:{''.join(letters)}"
            for sq, letters in _hidden_squares(position)
            if len(letters) < len(LETTERS)
        ]
        if narrowed:
            notes.append(("possible", " ".join(narrowed)))
    elif isinstance(move, Enter):
        reserve = position._reserve
        notes.append(("reserve", f"R{reserve[RED]} B{reserve[BLACK]}"))
    return notes


def _hidden_squares(position: "CavePosition") -> list[tuple[int, tuple[str, ...]]]:
    """Each square holding a piece never shown, with the letters such a piece may be."""
    board = position._board
    identity = position._identity
    return [
        (sq, position._hidden_letters(PIECE_SIDE[board[sq][0]]))
        for sq in range(N_SQUARES)
        if any(identity[p] < 0 for p in board[sq])
    ]


# -- the board view -------------------------------------------------------------------


def board_view(position: "CavePosition") -> BoardView:
    """The position as data for the renderers: docs/cave.md, "Board view"."""
    return BoardView(
        files=tuple(FILES),
        ranks=tuple(str(r) for r in range(1, RANKS + 1)),
        cells={
            SQUARES[sq]: _unit_cell(position, sq, stack) if stack else _EMPTY_CELLS[sq]
            for sq, stack in enumerate(position._board)
        },
        palette=PALETTE,
        marks=_marks(position),
        facts=_view_facts(position),
        caption=caption(position),
    )


def _unit_cell(position: "CavePosition", sq: int, stack: tuple[int, ...]) -> Cell:
    """A square with a token per piece, bottom to top, and the note in its corner."""
    identity = position._identity
    side = PIECE_SIDE[stack[0]]
    code = SIDE_CODES[side]
    tokens = tuple(
        ViewToken(SIDE_KEYS[side], code + (LETTERS[identity[p]] if identity[p] >= 0 else "?"))
        for p in stack
    )
    if len(stack) > 1:
        note = "=" + LETTERS[TEAM_CLASS[len(stack)]]
    elif identity[stack[0]] < 0:
        note = "".join(position._hidden_letters(side))
    else:
        note = ""
    return Cell(SQUARES[sq], SQUARE_ROLE[sq], tokens, note)


def _marks(position: "CavePosition") -> tuple[str, ...]:
    if not position._history:
        return ()
    move = position._history[-1][0]
    if isinstance(move, Enter):
        return (SQUARES[move.square],)
    if isinstance(move, Step | Attack):
        return (SQUARES[move.origin], SQUARES[move.target])
    return ()


def _view_facts(position: "CavePosition") -> tuple[tuple[str, str], ...]:
    facts: list[tuple[str, str]] = []
    result = position._result
    if result is None:
        facts.append(("To move", position.mover))
        facts.append(("Next turn", str(position.turn + 1)))
    else:
        facts.append(("Result", f"{result} ({RESULT_NAMES[result]})"))
    reserve = position._reserve
    facts.append(("Reserves", f"Red {reserve[RED]}, Black {reserve[BLACK]}"))
    for side in (RED, BLACK):
        shown = ", ".join(
            f"{LETTERS[c]} {position._shown[side * 3 + c]}/{LIMIT[c]}" for c in LETTER_ORDER
        )
        facts.append((f"{SIDE_NAMES[side]} revealed", shown))
    if position._passes:
        facts.append(("Passes in a row", str(position._passes)))
    return tuple(facts)


def _unit_words(position: "CavePosition", stack: tuple[int, ...], c: int | None = None) -> str:
    """ "Red's zombie", "Black's piece", "Red's team of 2 (fighting as a zombie)"."""
    owner = SIDE_NAMES[PIECE_SIDE[stack[0]]]
    if len(stack) > 1:
        team = f"{owner}'s team of {len(stack)}"
        return team if c is None else f"{team} (fighting as {article(c)})"
    known = position._identity[stack[0]] if c is None else c
    return f"{owner}'s {CLASS_NAMES[known]}" if known >= 0 else f"{owner}'s piece"


def caption(position: "CavePosition") -> str:
    """The last move and what it did: ``Zb2xSc3: Red's zombie beat Black's skeleton and
    took c3``, with ``; Red wins`` when it ended the game."""
    if not position._history:
        return ""
    move, _, first, second, _, won = position._history[-1]
    side = (position.turn - 1) & 1
    if isinstance(move, Enter):
        text = (
            f"{SIDE_NAMES[side]} entered a piece on {SQUARES[move.square]} "
            f"({position._reserve[side]} left in reserve)"
        )
    elif isinstance(move, Step):
        where = SQUARES[move.target]
        if second:
            text = (
                f"{_unit_words(position, first)} joined {_unit_words(position, second)} on "
                f"{where}, making a team of {len(first) + len(second)}"
            )
        else:
            text = f"{_unit_words(position, first)} moved to {where}"
    elif isinstance(move, Attack):
        attacker = _unit_words(position, first, unit_class(len(first), move.attacker))
        defender = _unit_words(position, second, unit_class(len(second), move.defender))
        where = SQUARES[move.target]
        if won:
            text = f"{attacker} beat {defender} and took {where}"
        else:
            text = f"{attacker} lost to {defender} on {where}"
    else:
        text = f"{SIDE_NAMES[side]} had no action and passed"
    if position._result is not None:
        text += f"; {RESULT_NAMES[position._result]}"
    return f"{move}: {text}"
