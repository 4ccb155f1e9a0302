"""The game registry.

Every module in this package that defines ``GAME`` (an instance of
:class:`notation.games.base.Game`) is a game; so is every object published under
the ``notation.games`` entry-point group by another distribution.  Nothing here
names a game, so adding one is adding a module.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from notation.errors import NotationException
from notation.games.base import Game

__all__ = [
    "Game",
    "UnknownGameError",
    "all_games",
    "game_names",
    "game_spellings",
    "get_game",
    "nearest_game_name",
]


class UnknownGameError(NotationException, LookupError):
    """No game is called ``name``; ``suggestion`` is the nearest spelling, if one is near."""

    def __init__(self, name: str) -> None:
        known = ", ".join(game_names())
        self.name = name
        self.suggestion = nearest_game_name(name)
        hint = f"; did you mean {self.suggestion!r}?" if self.suggestion else ""
        super().__init__(f"unknown game {name!r} (known games: {known}){hint}")


@cache
def _registry() -> dict[str, Game[Any]]:
    games: list[Game[Any]] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games.append(game)
    for ep in entry_points(group="notation.games"):
        game = ep.load()
        if isinstance(game, Game):
            games.append(game)
    table: dict[str, Game[Any]] = {}
    for game in sorted(games, key=lambda g: g.name):
        for key in (game.name, *game.aliases):
            table.setdefault(_key(key), game)
    return table


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (its ``Game`` tag value or an alias)."""
    try:
        return _registry()[_key(name)]
    except KeyError:
        raise UnknownGameError(name) from None


def all_games() -> list[Game[Any]]:
    """Every registered game, once each, by name."""
    seen: dict[str, Game[Any]] = {}
    for game in _registry().values():
        seen.setdefault(game.name, game)
    return [seen[k] for k in sorted(seen)]


def game_names() -> list[str]:
    """The name of every registered game, sorted (aliases left out)."""
    return [g.name for g in all_games()]


def game_spellings() -> list[str]:
    """Every name and alias a game answers to, as ``notation games`` lists them."""
    return [spelling for game in all_games() for spelling in (game.name, *game.aliases)]


def nearest_game_name(name: str) -> str | None:
    """The name or alias nearest to a misspelt ``name`` (``"tinkertwn"``), if any is near."""
    spellings = {_key(spelling): spelling for spelling in game_spellings()}
    nearest = difflib.get_close_matches(_key(name), list(spellings), n=1)
    return spellings[nearest[0]] if nearest else None
