"""Statistics over collections of records: results, lengths, first moves, players, Elo.

A :class:`Summary` is built record by record (:meth:`Summary.add`), and summaries of
shards merge (:meth:`Summary.merge`) into the one a single pass would have made, Elo
ratings included (computed at the end, from the rated games in input order).  Memory:
counters per distinct value, and 9 bytes per rated game.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from notation.errors import Defect, NotationException
from notation.games.base import Game
from notation.record import Record
from notation.replay import Verdict, check_record, resolve_game

__all__ = [
    "ELO_K",
    "ELO_START",
    "GameSummary",
    "PlayerScore",
    "Summary",
    "merge_all",
    "summarise",
]

#: Elo as AbstractPlay's basic rater computes it: everyone starts at 1200, and each
#: game moves both players by K = 30 times the difference between the score and the
#: expected score 1 / (1 + 10^((Rb - Ra) / 400)).
ELO_START = 1200.0
ELO_K = 30.0


@dataclass(slots=True)
class PlayerScore:
    """One player's games (of one game), from the player tags of decided records."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def points(self) -> float:
        """Wins count 1, draws 1/2."""
        return self.wins + self.draws / 2

    def merge(self, other: PlayerScore) -> None:
        """Add ``other``'s games to these."""
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws


@dataclass(slots=True)
class GameSummary:
    """What the records of one game say, together."""

    records: int = 0
    broken: int = 0
    #: Valid records by variant (``"2 players, 8 zombies"``; ``""`` for a game with one
    #: setup) and result token.
    results: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Main-line turns of valid records (how many records had each length).
    lengths: Counter[int] = field(default_factory=Counter)
    #: The first move of valid records, in canonical spelling.
    first_moves: Counter[str] = field(default_factory=Counter)
    players: dict[str, PlayerScore] = field(default_factory=dict)
    #: Broken records by the code of their error (docs/errors.md).
    errors: Counter[str] = field(default_factory=Counter)
    #: Rated games in input order: the two players (numbers into ``names``) and the
    #: first player's score doubled (2 win, 1 draw, 0 loss).
    _pairs: MutableSequence[int] = field(default_factory=lambda: array("i"), repr=False)
    _scores: MutableSequence[int] = field(default_factory=lambda: array("b"), repr=False)
    names: list[str] = field(default_factory=list)
    _ids: dict[str, int] = field(default_factory=dict, repr=False)

    def _id(self, name: str) -> int:
        found = self._ids.get(name)
        if found is None:
            found = self._ids[name] = len(self.names)
            self.names.append(name)
        return found

    def add_rated(self, first: str, second: str, score2: int) -> None:
        """Remember a decided two-player game for Elo (``score2``: first's score x 2)."""
        self._pairs.append(self._id(first))
        self._pairs.append(self._id(second))
        self._scores.append(score2)

    def merge(self, other: GameSummary) -> None:
        """Add ``other``'s records, which come after these, to this summary."""
        self.records += other.records
        self.broken += other.broken
        self.results.update(other.results)
        self.lengths.update(other.lengths)
        self.first_moves.update(other.first_moves)
        self.errors.update(other.errors)
        for name, score in other.players.items():
            self.players.setdefault(name, PlayerScore()).merge(score)
        for i in range(len(other._scores)):
            self._pairs.append(self._id(other.names[other._pairs[2 * i]]))
            self._pairs.append(self._id(other.names[other._pairs[2 * i + 1]]))
        self._scores.extend(other._scores)

    def elo(self) -> dict[str, float]:
        """Elo ratings from the rated games in order (see :data:`ELO_K`)."""
        ratings = [ELO_START] * len(self.names)
        for i, score2 in enumerate(self._scores):
            a, b = self._pairs[2 * i], self._pairs[2 * i + 1]
            expected = 1 / (1 + math.pow(10, (ratings[b] - ratings[a]) / 400))
            change = ELO_K * (score2 / 2 - expected)
            ratings[a] += change
            ratings[b] -= change
        return dict(zip(self.names, ratings, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (``stats --format json``)."""
        elo = self.elo()
        return {
            "records": self.records,
            "broken": self.broken,
            "results": [
                {"variant": variant, "result": result, "count": count}
                for (variant, result), count in sorted(self.results.items())
            ],
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "first_moves": dict(self.first_moves.most_common()),
            "errors": dict(sorted(self.errors.items())),
            "players": {
                name: {
                    "games": s.games,
                    "wins": s.wins,
                    "losses": s.losses,
                    "draws": s.draws,
                    "points": s.points,
                    **({"elo": round(elo[name], 1)} if name in elo else {}),
                }
                for name, s in sorted(self.players.items())
            },
        }


@dataclass(slots=True)
class Summary:
    """Statistics of a collection of records, by game (see the module's docstring)."""

    records: int = 0
    #: Records whose game is unknown or missing (no statistics of a game apply).
    no_game: int = 0
    games: dict[str, GameSummary] = field(default_factory=dict)

    def add(self, record: Record, default_game: str | None = None) -> Verdict:
        """Count one record (checked here); returns its verdict."""
        self.records += 1
        verdict = check_record(record, default_game)
        game = resolve_game(record, default_game)
        if isinstance(game, Defect):
            self.no_game += 1
            return verdict
        summary = self.games.setdefault(game.name, GameSummary())
        summary.records += 1
        if verdict.error is not None:
            summary.broken += 1
            summary.errors[verdict.error.code] += 1
            return verdict
        result = record.result or "*"
        summary.results[(_variant(game, record), result)] += 1
        summary.lengths[len(record.moves)] += 1
        if record.moves:
            summary.first_moves[_canonical(game, record.moves[0].text)] += 1
        _score_players(game, record, result, summary)
        return verdict

    def merge(self, other: Summary) -> Summary:
        """Add ``other``'s counts to this summary (``other`` comes after); returns self."""
        self.records += other.records
        self.no_game += other.no_game
        for name, summary in other.games.items():
            self.games.setdefault(name, GameSummary()).merge(summary)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form (``stats --format json``)."""
        return {
            "records": self.records,
            "no_game": self.no_game,
            "games": {name: s.to_dict() for name, s in sorted(self.games.items())},
        }


def summarise(records: Iterable[Record], default_game: str | None = None) -> Summary:
    """The :class:`Summary` of ``records`` (streamed)."""
    summary = Summary()
    for record in records:
        summary.add(record, default_game)
    return summary


def merge_all(summaries: Iterable[Summary]) -> Summary:
    """One summary of several, merged in the order given (the order of their shards)."""
    total = Summary()
    for summary in summaries:
        total.merge(summary)
    return total


def _variant(game: Game[Any], record: Record) -> str:
    """The setup a record was played with, in words (:meth:`Game.variant`)."""
    try:
        return game.variant(record.tag_dict)
    except NotationException:  # a valid record's tags are accepted; be safe all the same
        return ""


def _canonical(game: Game[Any], text: str) -> str:
    """The move ``text`` in the game's own spelling, or the text itself if it is no move."""
    try:
        return str(game.parse(text))
    except NotationException:  # a valid record's move parses; keep the text if not
        return text


def _score_players(game: Game[Any], record: Record, result: str, summary: GameSummary) -> None:
    """Per-player scores, and Elo for two-player games, from a decided result."""
    if result == "*" or len(game.player_tags) != 2:
        return
    first, second = (record.tag(tag) or "" for tag in game.player_tags)
    if not first or not second or first in "?-" or second in "?-":
        return  # an unnamed player cannot be rated
    score2 = {"1-0": 2, "0-1": 0, "1/2-1/2": 1}.get(result)
    if score2 is None:
        return
    for name, own in ((first, score2), (second, 2 - score2)):
        player = summary.players.setdefault(name, PlayerScore())
        player.games += 1
        if own == 2:
            player.wins += 1
        elif own == 0:
            player.losses += 1
        else:
            player.draws += 1
    if first != second:  # self-play moves no rating (as AbstractPlay skips it)
        summary.add_rated(first, second, score2)

