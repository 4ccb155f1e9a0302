"""What a Cave position tells a person: the diagram, the facts of the last move,
annotations, the board view and its caption (docs/cave.md, "Moves and facts as data",
"Annotations", "Board view").

Everything is computed on demand from the board and the last undo record, so push
and pop stay lean.  What a hidden piece may be comes from the position's one place
for it (``CaveRules._hidden_letters``), and the odds of each identity from
:mod:`notation.games.cave.infer`: the board view shows them as facts (one line per
side: every piece a side has never shown has the same odds) and in each cell's
``detail`` (docs/cave.md, "What can be known").
"""

# No "from __future__ import annotations": annotations() is one of the functions here.
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from notation.games.cave.board import (
    BLACK,
    CLASS_NAMES,
    FILES,
    HOME_ROW,
    LETTER_ORDER,
    LETTERS,
    LIMIT,
    MAX_TEAM,
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
from notation.games.cave.infer import odds_text, side_odds
from notation.games.cave.moves import Attack, Enter, Step
from notation.games.cave.rules import CaveUndo
from notation.games.view import BoardView, Cell
from notation.games.view import Token as ViewToken

if TYPE_CHECKING:
    from notation.games.cave.rules import CaveRules

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
_NOTE_WORDS = (
    "what a hidden piece may still be: K black knight, Z zombie, S skeleton (the odds "
    "are in the facts); or how a team fights"
)
#: What the marks of a Cave picture mean, for every renderer's legend (the keys are
#: those of ``BoardView.legend``).  K is the black knight, Z a zombie, S a skeleton.
BOARD_LEGEND: Mapping[str, str] = MappingProxyType({
    "square": "a square",
    "home-red": "Red's home row (Red enters here)",
    "home-black": "Black's home row (Black enters here)",
    "red": "Red's pieces: ? until a fight shows K, Z or S",
    "black": "Black's pieces: ? until a fight shows K, Z or S",
    "red:r?": "a Red piece never shown",
    "black:b?": "a Black piece never shown",
    "black:bK": "a Black piece shown in a fight as the black knight (bZ a zombie, bS a skeleton)",
    "stack:r? rZ": "a team, bottom to top",
    "note": _NOTE_WORDS,
    "note:KZS": _NOTE_WORDS,
    "note:=Z": "a team of 2 fights as a zombie",
    "note:=K": "a team of 3 fights as the black knight",
})


def _piece_text(position: "CaveRules", pid: int) -> str:
    """A piece's letter if it was shown, else ``?``."""
    c = position._identity[pid]
    return LETTERS[c] if c >= 0 else "?"


def diagram(position: "CaveRules") -> str:
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


def _revealed(position: "CaveRules") -> list[tuple[str, str]]:
    """The pieces the last move (an attack) showed for the first time: (square it
    fought on, letter), attacker first."""
    last = CaveUndo._make(position._history[-1])
    move, first = last.move, last.first
    assert isinstance(move, Attack)
    return [
        (
            SQUARES[move.origin if pid == first[0] else move.target],
            LETTERS[position._identity[pid]],
        )
        for pid in last.revealed
    ]


def last_move_facts(position: "CaveRules") -> dict[str, Any]:
    """What the last move did (``{}`` before any move); keys in docs/cave.md."""
    if not position._history:
        return {}
    last = CaveUndo._make(position._history[-1])
    move, first, second, won = last.move, last.first, last.second, last.won
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


def annotations(position: "CaveRules") -> list[tuple[str, str]]:
    """``reveal`` and ``possible`` after a fight, ``reserve`` after an entry."""
    if not position._history:
        return []
    move = CaveUndo._make(position._history[-1]).move
    notes: list[tuple[str, str]] = []
    if isinstance(move, Attack):
        revealed = _revealed(position)
        if revealed:
            notes.append(("reveal", " ".join(f"{sq}:{letter}" for sq, letter in revealed)))
        narrowed = _narrowed_squares(position)
        if narrowed:
            notes.append(("possible", " ".join(narrowed)))
    elif isinstance(move, Enter):
        reserve = position._reserve
        notes.append(("reserve", f"R{reserve[RED]} B{reserve[BLACK]}"))
    return notes


def _narrowed_squares(position: "CaveRules") -> list[str]:
    """``square:letters`` for each square holding a piece never shown that cannot be
    every class any more, with the letters it may be."""
    hidden = (position._hidden_letters(RED), position._hidden_letters(BLACK))
    narrow = (len(hidden[RED]) < len(LETTERS), len(hidden[BLACK]) < len(LETTERS))
    if not (narrow[RED] or narrow[BLACK]):
        return []
    identity = position._identity
    narrowed = []
    for sq, stack in enumerate(position._board):
        if (
            stack
            and narrow[side := PIECE_SIDE[stack[0]]]
            and any(identity[p] < 0 for p in stack)
        ):
            narrowed.append(f"{SQUARES[sq]}:{''.join(hidden[side])}")
    return narrowed


# -- the board view -------------------------------------------------------------------


def board_view(position: "CaveRules") -> BoardView:
    """The position as data for the renderers: docs/cave.md, "Board view"."""
    identity = position._identity
    # Every piece a side has never shown has the same odds: their text, per side.
    odds = _odds_texts(position)
    cells: dict[str, Cell] = {}
    # How many pieces each side has never shown on the board, for the facts.
    count = [0, 0]
    for sq, stack in enumerate(position._board):
        name = SQUARES[sq]
        if not stack:
            cells[name] = _EMPTY_CELLS[sq]
            continue
        hidden = 0
        for pid in stack:
            if identity[pid] < 0:
                hidden += 1
        side = PIECE_SIDE[stack[0]]
        cells[name] = _unit_cell(position, sq, stack, hidden, odds[side])
        count[side] += hidden
    return BoardView(
        files=tuple(FILES),
        ranks=tuple(str(r) for r in range(1, RANKS + 1)),
        cells=cells,
        palette=PALETTE,
        marks=_marks(position),
        facts=_view_facts(position, _odds_facts(position, odds, count)),
        caption=caption(position),
        legend=BOARD_LEGEND,
        widest=WIDEST_CELLS,
    )


#: The widest cells a position can have: a team of MAX_TEAM pieces never shown (every
#: label two letters, so spaced), and a hidden piece whose note lists every letter.
WIDEST_CELLS: tuple[Cell, ...] = (
    Cell(
        SQUARES[0], SQUARE_ROLE[0],
        tuple(ViewToken(SIDE_KEYS[RED], SIDE_CODES[RED] + "?") for _ in range(MAX_TEAM)),
        "=" + LETTERS[TEAM_CLASS[MAX_TEAM]],
    ),
    Cell(
        SQUARES[0], SQUARE_ROLE[0], (ViewToken(SIDE_KEYS[RED], SIDE_CODES[RED] + "?"),),
        LETTERS,
    ),
)


#: Cells of squares holding pieces (frozen, so views share them), by (square, side,
#: the pieces' classes, the note's letters, odds).  Bounded.
_CELLS: dict[tuple[int, int, tuple[int, ...], tuple[str, ...] | None, str], Cell] = {}
CELL_CACHE_SIZE = 20_000


def _unit_cell(
    position: "CaveRules", sq: int, stack: tuple[int, ...], hidden: int, odds: str
) -> Cell:
    """A square with a token per piece, bottom to top, the note in its corner, and the
    odds of its ``hidden`` pieces (never shown: their side's ``odds``, in words) as
    its detail; from the cache of cells when it holds it."""
    identity = position._identity
    side = PIECE_SIDE[stack[0]]
    classes = tuple([identity[p] for p in stack])
    letters = position._hidden_letters(side) if hidden and len(stack) == 1 else None
    key = (sq, side, classes, letters, odds)
    cell = _CELLS.get(key)
    if cell is None:
        cell = _make_unit_cell(position, sq, stack, hidden, odds)
        if len(_CELLS) >= CELL_CACHE_SIZE:
            _CELLS.clear()
        _CELLS[key] = cell
    return cell


def _make_unit_cell(
    position: "CaveRules", sq: int, stack: tuple[int, ...], hidden: int, odds: str
) -> Cell:
    identity = position._identity
    side = PIECE_SIDE[stack[0]]
    code = SIDE_CODES[side]
    tokens = tuple(
        ViewToken(SIDE_KEYS[side], code + (LETTERS[identity[p]] if identity[p] >= 0 else "?"))
        for p in stack
    )
    if len(stack) > 1:
        note = "=" + LETTERS[TEAM_CLASS[len(stack)]]
    elif hidden:
        note = "".join(position._hidden_letters(side))
    else:
        note = ""
    detail = _detail(odds, len(stack), hidden) if hidden or len(stack) > 1 else ""
    return Cell(SQUARES[sq], SQUARE_ROLE[sq], tokens, note, detail)


# Words made once and kept (a few hundred at most): the odds by what the sides have
# shown (the six counts of ``_shown``), and the details of cells.
_ODDS_TEXTS: dict[tuple[int, ...], tuple[str, str]] = {}
_DETAILS: dict[tuple[str, int, int], str] = {}


def _odds_texts(position: "CaveRules") -> tuple[str, str]:
    """The odds of a piece Red, Black has never shown, in words ("" for a side that
    has shown all six)."""
    key = tuple(position._shown)
    found = _ODDS_TEXTS.get(key)
    if found is None:
        found = _ODDS_TEXTS[key] = (
            odds_text(side_odds(position, RED)), odds_text(side_odds(position, BLACK))
        )
    return found


def _detail(odds: str, size: int, hidden: int) -> str:
    """A cell's detail: the ``odds`` of what its ``hidden`` pieces are, and how a team
    of ``size`` fights."""
    key = (odds, size, hidden)
    found = _DETAILS.get(key)
    if found is None:
        parts = []
        if size > 1:
            parts.append(f"a team of {size}, fighting as {article(TEAM_CLASS[size])}")
        if hidden:
            what = "never shown" if size == 1 else f"{hidden} of its pieces never shown"
            each = " each" if hidden > 1 else ""
            parts.append(f"{what}: {odds}{each}")
        found = _DETAILS[key] = "; ".join(parts)
    return found


def _marks(position: "CaveRules") -> tuple[str, ...]:
    if not position._history:
        return ()
    move = CaveUndo._make(position._history[-1]).move
    if isinstance(move, Enter):
        return (SQUARES[move.square],)
    if isinstance(move, Step | Attack):
        return (SQUARES[move.origin], SQUARES[move.target])
    return ()


def _view_facts(
    position: "CaveRules", odds_facts: list[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
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
    facts.extend(odds_facts)
    if position._passes:
        facts.append(("Passes in a row", str(position._passes)))
    return tuple(facts)


def _odds_facts(
    position: "CaveRules", odds: tuple[str, str], count: list[int]
) -> list[tuple[str, str]]:
    """For each side with pieces never shown, on the board (``count`` of them) or in
    reserve: their ``odds``, the same for all of them, and how many they are, e.g.
    ``("Red hidden", "K 1/6, Z 1/3, S 1/2 each (5 pieces)")``.

    Not where they are: the board shows them (``r?``, ``b?``) and each cell's detail
    gives its odds.  So the fact changes only when a piece is shown or a hidden piece
    removed, which keeps the HTML page small (a move writes only the facts it changed).
    """
    facts: list[tuple[str, str]] = []
    for side in (RED, BLACK):
        # Pieces in reserve have never fought.
        total = count[side] + position._reserve[side]
        if total:
            text = odds[side]
            facts.append((
                f"{SIDE_NAMES[side]} hidden",
                f"{text} each ({total} pieces)" if total > 1 else f"{text} (1 piece)",
            ))
    return facts


def _unit_words(position: "CaveRules", stack: tuple[int, ...], c: int | None = None) -> str:
    """ "Red's zombie", "Black's piece", "Red's team of 2 (fighting as a zombie)"."""
    owner = SIDE_NAMES[PIECE_SIDE[stack[0]]]
    if len(stack) > 1:
        team = f"{owner}'s team of {len(stack)}"
        return team if c is None else f"{team} (fighting as {article(c)})"
    known = position._identity[stack[0]] if c is None else c
    return f"{owner}'s {CLASS_NAMES[known]}" if known >= 0 else f"{owner}'s piece"


def caption(position: "CaveRules") -> str:
    """The last move and what it did: ``Zb2xSc3: Red's zombie beat Black's skeleton and
    took c3``, with ``; Red wins`` when it ended the game."""
    if not position._history:
        return ""
    last = CaveUndo._make(position._history[-1])
    move, first, second, won = last.move, last.first, last.second, last.won
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
