"""The Zombie Kidz game: its names, tags, move reading and positions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from notation.errors import (
    MisuseError,
    TagValueError,
    misuse_unless,
    require_tags,
    require_text,
)
from notation.games.base import Game, Position
from notation.games.grammar import GameParser, build_parser
from notation.games.zombie_kidz import moves
from notation.games.zombie_kidz.board import (
    DEFAULT_PLAYERS,
    DEFAULT_ZOMBIES,
    DICE,
    PLAYER_COUNTS,
    ZOMBIE_COUNTS,
)
from notation.games.zombie_kidz.codes import ERROR_CODES
from notation.games.zombie_kidz.moves import ZombieKidzMove, ZombieKidzMoveBuilder
from notation.games.zombie_kidz.position import ZombieKidzPosition
from notation.games.zombie_kidz.words import RESULT_NAMES

if TYPE_CHECKING:
    import random

    from notation.games.view import Analysis, Assessment


def _players_tag(tags: Mapping[str, str]) -> int | None:
    value = tags.get("Players")
    if value is None:
        return None
    if value not in PLAYER_COUNTS:
        raise TagValueError("Players", f"Zombie Kidz is played by 2, 3 or 4 players, not {value!r}")
    return PLAYER_COUNTS[value]


def _zombies_tag(tags: Mapping[str, str]) -> int | None:
    value = tags.get("Zombies")
    if value is None:
        return None
    if value not in ZOMBIE_COUNTS:
        raise TagValueError(
            "Zombies",
            f"Zombie Kidz is played with 8 zombies, or 7 in the harder game, not {value!r}",
        )
    return ZOMBIE_COUNTS[value]


class ZombieKidzGame(Game[ZombieKidzMove]):
    """Zombie Kidz: docs/zombie-kidz.md."""

    name = "zombie-kidz"
    aliases = ("zombiekidz",)
    title = "Zombie Kidz"
    annotation_keys = frozenset({"zombies", "reserve", "locks", "winprob"})
    player_tags = ("Player1", "Player2", "Player3", "Player4")
    result_names = RESULT_NAMES
    #: The codes of the errors its turns get (:mod:`.codes`).
    error_codes = ERROR_CODES
    #: ``annotate --analyze``: the team's chance of winning before and after each turn,
    #: ``?``/``??`` for a turn that loses much of it (:func:`.analysis.assess_move`).
    can_assess = True
    #: ``notation analyze``: the exact chance of winning under best play, from a solved
    #: table (:mod:`.solve`), or a search's estimate (:func:`.analysis.analyse`).
    can_analyse = True

    def __init__(self) -> None:
        super().__init__()
        self._parser: GameParser[ZombieKidzMove] | None = None

    def parse_move(self, text: str) -> ZombieKidzMove:
        require_text(text, "a move token")
        if self._parser is None:
            self._parser = build_parser("zombie_kidz", ZombieKidzMoveBuilder())
        return moves.read_move(self._parser, text)

    def new_position(self, tags: Mapping[str, str] | None = None) -> ZombieKidzPosition:
        """The start for the ``Players`` and ``Zombies`` tags (2 and 8 by default), or
        the position of a ``Position`` tag, which those tags must then agree with."""
        require_tags(tags)
        tags = tags or {}
        if "Position" in tags:
            return self.position_from_string(tags["Position"], tags)
        players = _players_tag(tags)
        zombies = _zombies_tag(tags)
        return ZombieKidzPosition(
            DEFAULT_PLAYERS if players is None else players,
            DEFAULT_ZOMBIES if zombies is None else zombies,
        )

    def position_from_string(
        self, text: str, tags: Mapping[str, str] | None = None
    ) -> ZombieKidzPosition:
        """The position of a ``Position`` tag; ``Players`` and ``Zombies`` tags, when
        present, must agree with it."""
        require_tags(tags)
        tags = tags or {}
        players = _players_tag(tags)
        zombies = _zombies_tag(tags)
        position = ZombieKidzPosition.from_string(require_text(text, "a position string"))
        if players is not None and players != position.players:
            raise TagValueError(
                "Players",
                f"the Players tag says {players} but the Position tag has "
                f"{position.players} players",
            )
        if zombies is not None and zombies != position.zombie_total:
            raise TagValueError(
                "Zombies",
                f"the Zombies tag says {zombies} but the Position tag has "
                f"{position.zombie_total} zombies in all (reserve/total "
                f"{position.reserve}/{position.zombie_total})",
            )
        return position

    def move_to_dict(self, move: ZombieKidzMove) -> dict[str, Any]:
        """A turn as data: see docs/zombie-kidz.md, "Data for programs"."""
        return moves.move_to_dict(move)

    def spelling_reasons(self, written: ZombieKidzMove, canonical: ZombieKidzMove) -> list[str]:
        """What the canonical turn adds to the one written (docs/zombie-kidz.md,
        "Notation": the marks are optional on input, the long form is canonical)."""
        for what, move in (("written", written), ("canonical", canonical)):
            misuse_unless(isinstance(move, ZombieKidzMove), what, "a Zombie Kidz turn", move)
        reasons = []
        if canonical.eliminated and not written.eliminated:
            reasons.append("this turn eliminates zombies (missing mark x)")
        if canonical.locked and not written.locked:
            reasons.append("this turn locks a gate (missing mark L)")
        if written.origin is None and canonical.origin is not None:
            reasons.append("the long form names where the pawn comes from (short form)")
        return reasons

    def assess_move(
        self, position: Position[ZombieKidzMove], move: ZombieKidzMove
    ) -> Assessment | None:
        """The ``winprob`` value (before the roll, after the turn) and ``?``/``??`` with the
        best turn of the same roll for a turn that loses much (docs/zombie-kidz.md,
        "Solving the game").  ``position`` is left as it was."""
        if not isinstance(position, ZombieKidzPosition):
            return None
        # Imported here: check never loads the analysis, nor the solver and its tables.
        from notation.games.zombie_kidz import analysis

        return analysis.assess_move(position, move)

    def analyse(
        self,
        position: Position[ZombieKidzMove],
        *,
        depth: int | None = None,
        seconds: float | None = None,
    ) -> Analysis:
        """The team's chance of winning before the next roll, exact from a solved table or
        estimated by a search ``depth`` turns deep, and each face's best turn as notes
        (docs/zombie-kidz.md, "Solving the game").  ``position`` is left as it was."""
        if not isinstance(position, ZombieKidzPosition):
            raise MisuseError(f"Zombie Kidz analyses a ZombieKidzPosition, not {position!r}")
        from notation.games.zombie_kidz import analysis

        return analysis.analyse(position, depth=depth, seconds=seconds)

    def player_range(self) -> tuple[int, int]:
        return min(PLAYER_COUNTS.values()), max(PLAYER_COUNTS.values())

    def variant(self, tags: Mapping[str, str]) -> str:
        """Players and zombies (the harder game has 7): ``"3 players, 7 zombies"``."""
        position = self.new_position(tags)
        return f"{position.players} players, {position.zombie_total} zombies"

    def setup_tags(self, players: int | None = None) -> list[tuple[str, str]]:
        """``Players`` (2 by default); ``TagValueError`` for a count outside 2 to 4."""
        if players is None:
            players = DEFAULT_PLAYERS
        self.check_players(players)
        return [("Players", str(players))]

    def random_playout(
        self, position: Position[ZombieKidzMove], rng: random.Random, max_turns: int
    ) -> Sequence[ZombieKidzMove]:
        """Roll a fair die each turn, then pick one of the legal turns for that roll."""
        self.check_playout(position, rng, max_turns)
        assert isinstance(position, ZombieKidzPosition)  # check_playout made sure
        played: list[ZombieKidzMove] = []
        while position.outcome() is None and position.turn < max_turns:
            die = DICE[rng.randrange(len(DICE))]
            move = rng.choice(position.legal_moves_for_roll(die))
            position.push(move)
            played.append(move)
        return played
