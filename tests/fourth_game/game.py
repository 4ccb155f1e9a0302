"""Grave Nim: the rules, the moves, the positions and their pictures.

Three graves, a, b and c, hold 3, 4 and 5 zombies.  The two players take turns
laying zombies to rest: any number (at least one) from one grave.  Whoever lays the
last zombie to rest wins.  A move is written as the grave and the count: ``b2``.

A position string is the zombies per grave and the turns played: ``3/2/5 1``; the
player to move follows from the turns (the first player moves on even turns).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Self

from lark import Token as LarkToken
from lark import Transformer
from lark.exceptions import LarkError

from notation.errors import IllegalMoveError, MisuseError, MoveSyntaxError, TagValueError
from notation.games.base import Game, Position
from notation.games.grammar import GameParser, build_parser
from notation.games.view import BoardView, Cell, Token

GRAVES = ("a", "b", "c")
START = (3, 4, 5)
#: The most zombies a grave holds, and a move lays to rest: one digit each.
MOST = 9
SIDES = ("First", "Second")
ZOMBIE = Token("zombie", "Z")
PALETTE = MappingProxyType({"grave": "#8d7b68", "zombie": "#7cb342", "mark": "#e0a100"})
#: The codes of the game's own errors (docs/errors.md, "Error codes"), kept with the game
#: as every game keeps them.  A token the grammar cannot read names no case of its own:
#: it carries the default code, ``move-syntax``.
ERROR_CODES: Mapping[str, str] = MappingProxyType(
    {
        "grave-nim-game-over": "a move after every zombie is at rest",
        "grave-nim-too-many": "more zombies laid to rest than the grave holds",
    }
)
_POSITION = re.compile(r"([0-9])/([0-9])/([0-9]) (0|[1-9][0-9]{0,5})")


@dataclass(frozen=True, slots=True)
class Take:
    """Lay ``count`` zombies of grave ``grave`` (0 for a, 1 for b, 2 for c) to rest."""

    grave: int
    count: int

    def __post_init__(self) -> None:
        if type(self.grave) is not int or not 0 <= self.grave < len(GRAVES):
            raise MisuseError(f"Take.grave is {self.grave!r}; expected 0 to {len(GRAVES) - 1}")
        if type(self.count) is not int or not 1 <= self.count <= MOST:
            raise MisuseError(f"Take.count is {self.count!r}; expected 1 to {MOST}")

    def __str__(self) -> str:
        return f"{GRAVES[self.grave]}{self.count}"


class _MoveBuilder(Transformer[LarkToken, Take]):
    """Builds the move while the LALR parser reads (no tree is kept)."""

    def start(self, children: list[LarkToken]) -> Take:
        grave, count = children
        return Take(GRAVES.index(grave.lower()), int(count))


def _take(move: object) -> Take:
    if not isinstance(move, Take):
        raise MisuseError(f"{move!r} is not a Grave Nim move")
    return move


class GraveNimPosition(Position[Take]):
    """Zombies per grave, the turns played and the moves pushed."""

    def __init__(self, graves: tuple[int, ...] = START, turn: int = 0) -> None:
        self._graves = list(graves)
        self._turn = turn
        self._history: list[Take] = []

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def mover(self) -> str:
        return SIDES[self._turn % 2]

    def push(self, move: Take) -> None:
        take = _take(move)
        if self.outcome() is not None:
            raise IllegalMoveError(
                "the game is over: every zombie is at rest", "grave-nim-game-over"
            )
        left = self._graves[take.grave]
        if take.count > left:
            raise IllegalMoveError(
                f"grave {GRAVES[take.grave]} holds {left} zombies; {take} lays {take.count} "
                "to rest",
                "grave-nim-too-many",
            )
        self._graves[take.grave] = left - take.count
        self._turn += 1
        self._history.append(take)

    def pop(self) -> Take:
        if not self._history:
            raise MisuseError("no move to take back")
        take = self._history.pop()
        self._graves[take.grave] += take.count
        self._turn -= 1
        return take

    def canonical(self, move: Take) -> Take:
        return _take(move)  # every move has one spelling; a non-move is still refused

    def legal_moves(self) -> list[Take]:
        return [
            Take(grave, count)
            for grave, left in enumerate(self._graves)
            for count in range(1, left + 1)
        ]

    def outcome(self) -> str | None:
        if any(self._graves):
            return None
        # Whoever laid the last zombie to rest wins: the first player plays odd turns.
        return "1-0" if self._turn % 2 else "0-1"

    def copy(self) -> Self:
        clone = type(self)(tuple(self._graves), self._turn)
        clone._history = list(self._history)
        return clone

    def position_string(self) -> str:
        return "/".join(map(str, self._graves)) + f" {self._turn}"

    def last_move_facts(self) -> dict[str, Any]:
        if not self._history:
            return {}
        take = self._history[-1]
        return {"grave": GRAVES[take.grave], "count": take.count, "left": self._graves[take.grave]}

    def annotations(self) -> list[tuple[str, str]]:
        return [("left", "/".join(map(str, self._graves)))]

    def diagram(self) -> str:
        lines = [
            f"{name}1 {'Z' * left:<{MOST}} ({left})"
            for name, left in zip(GRAVES, self._graves, strict=True)
        ]
        return "\n".join([*lines, f"{self.mover} to move" if self.outcome() is None else "over"])

    def board_view(self) -> BoardView:
        # The default token layout, a pile per cell: what the renderers must not guess
        # from a board of three cells.
        cells = {
            f"{name}1": Cell(f"{name}1", "grave", (ZOMBIE,) * left, str(left))
            for name, left in zip(GRAVES, self._graves, strict=True)
        }
        last = self._history[-1] if self._history else None
        return BoardView(
            files=GRAVES,
            ranks=("1",),
            cells=cells,
            palette=PALETTE,
            marks=() if last is None else (f"{GRAVES[last.grave]}1",),
            facts=(("To move", self.mover), ("Zombies left", str(sum(self._graves)))),
            caption="start" if last is None else f"{last}: {last.count} laid to rest",
        )


class GraveNimGame(Game[Take]):
    """Grave Nim: the name, the move notation and the starting position."""

    name: ClassVar[str] = "grave-nim"
    aliases: ClassVar[tuple[str, ...]] = ("gravenim",)
    title: ClassVar[str] = "Grave Nim"
    player_tags: ClassVar[tuple[str, ...]] = SIDES
    result_names: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"1-0": "the first player wins", "0-1": "the second player wins"}
    )
    annotation_keys: ClassVar[frozenset[str]] = frozenset({"left"})
    error_codes: ClassVar[Mapping[str, str]] = ERROR_CODES

    def __init__(self) -> None:
        super().__init__()
        # A grammar kept beside this file, not in the package's grammar/ folder.
        self._parser: GameParser[Take] = build_parser(
            Path(__file__).with_name("grave_nim.lark"), _MoveBuilder()
        )

    def parse_move(self, text: str) -> Take:
        try:
            return self._parser.parse(text)
        except LarkError:
            raise MoveSyntaxError(
                f"{text!r} is not a Grave Nim move (a grave a-c and a count 1-9: b2)"
            ) from None

    def new_position(self, tags: Mapping[str, str] | None = None) -> GraveNimPosition:
        if tags and "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        return GraveNimPosition()

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> GraveNimPosition:
        if not isinstance(text, str):
            raise MisuseError(f"{text!r} is not a position string")
        found = _POSITION.fullmatch(text)
        if found is None:
            raise TagValueError(
                "Position", f"bad Grave Nim position {text!r}: zombies per grave and turns, 3/2/5 1"
            )
        *graves, turn = (int(part) for part in found.groups())
        if not any(graves) and not turn:
            raise TagValueError("Position", "every grave is empty before the first turn")
        return GraveNimPosition(tuple(graves), turn)

    def move_to_dict(self, move: Take) -> dict[str, Any]:
        take = _take(move)
        return {"type": "take", "grave": GRAVES[take.grave], "count": take.count}


GAME = GraveNimGame()
