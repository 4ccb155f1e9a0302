"""The game registry.

Every module in this package that defines ``GAME`` (an instance of
:class:`notation.games.base.Game`) is a game; so is every object published under
the ``notation.games`` entry-point group by another distribution.  Nothing here
names a game, so adding one is adding a module.

A game is loaded only when it is asked for (start-up time: ``notation check`` of a
Cave record loads Cave alone; see docs/performance.md).  A game package says which
names it answers to in ``NAMES`` (its name, then its aliases), so that a name finds
its package without loading any game; a game module without ``NAMES``, and the games
of other distributions, are loaded whenever a name is not one the packages declare,
and when every game is listed (:func:`all_games`).  A package's own names win over
another distribution's: no installed plugin can take ``cave`` from the Cave package.

The layer also holds what games share: :mod:`~notation.games.base` (the protocol a
game implements), :mod:`~notation.games.grammar` (loading the Lark grammars) and
:mod:`~notation.games.view` (what a position looks like, as data for renderers).  It
may import :mod:`notation.errors` and :mod:`notation.files`; the core above it (the
record, the reader, the replay) plugs its games in through this registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from notation import errors
from notation.errors import MisuseError, NotationException, misuse_unless
from notation.games import base
from notation.games.base import Game, Position

if TYPE_CHECKING:
    from importlib.metadata import EntryPoints

__all__ = [
    "Game",
    "UnknownGameError",
    "all_games",
    "canonical_name",
    "game_error_codes",
    "game_names",
    "game_of",
    "game_spellings",
    "get_game",
    "lazy_exports",
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


def entry_points(*, group: str) -> EntryPoints:
    """The entry points of ``group`` (:func:`importlib.metadata.entry_points`, imported
    only now: it costs more than a game's whole start-up)."""
    from importlib.metadata import entry_points as found

    return found(group=group)


@cache
def _declared() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The names each game package of this one declares (``NAMES``), by key: the module
    and the names, the game's own first.  Imports the packages, not their games."""
    table: dict[str, tuple[str, tuple[str, ...]]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base" or not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        names = getattr(module, "NAMES", None)
        if not isinstance(names, tuple) or not names:
            continue
        for spelling in names:
            table.setdefault(_key(spelling), (module.__name__, names))
    return table


@cache
def _package_game(module_name: str) -> Game[Any]:
    """The ``GAME`` of a game package that declares ``NAMES``, loaded now, checked to
    answer to exactly the names declared."""
    module = importlib.import_module(module_name)
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise MisuseError(f"{module_name} declares NAMES but has no GAME")
    declared = getattr(module, "NAMES", ())
    if (game.name, *game.aliases) != tuple(declared):
        raise MisuseError(
            f"{module_name}.NAMES is {declared!r}, but its game answers to "
            f"{(game.name, *game.aliases)!r}"
        )
    return game


@cache
def _registry() -> dict[str, Game[Any]]:
    """Every game, each loaded, by key: the packages' declared names first, then the
    other games by name (the first to claim a key keeps it)."""
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
    table: dict[str, Game[Any]] = {
        key: _package_game(module_name) for key, (module_name, _) in _declared().items()
    }
    for game in sorted(games, key=lambda g: g.name):
        for key in (game.name, *game.aliases):
            table.setdefault(_key(key), game)
    return table


def _key(name: str) -> str:
    misuse_unless(isinstance(name, str), "a game's name", "a str", name)
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def get_game(name: str) -> Game[Any]:
    """The game called ``name`` (its ``Game`` tag value or an alias, in any case).

    :class:`UnknownGameError` for a name no game answers to; ``MisuseError`` for a
    ``name`` that is not a str.

    A game answers to its name and its aliases, in any case:

    >>> game = get_game("Cemetery")
    >>> game.name, game.player_tags
    ('tinkertown', ('White', 'Red'))
    >>> get_game("chess")
    Traceback (most recent call last):
    ...
    notation.games.UnknownGameError: unknown game 'chess' (known games: ...)
    """
    key = _key(name)
    declared = _declared().get(key)
    if declared is not None:
        return _package_game(declared[0])
    try:
        return _registry()[key]
    except KeyError:
        raise UnknownGameError(name) from None


def canonical_name(name: str) -> str:
    """The name of the game called ``name`` (``tinkertown`` for ``Cemetery``), without
    loading it when its package declares the name; ``UnknownGameError`` as
    :func:`get_game` raises it."""
    declared = _declared().get(_key(name))
    if declared is not None:
        return declared[1][0]
    return get_game(name).name


def all_games() -> list[Game[Any]]:
    """Every registered game, once each, by name.

    The package's three games are always among them (an installed plugin adds its own):

    >>> names = [game.name for game in all_games()]
    >>> {"cave", "tinkertown", "zombie-kidz"} <= set(names), names == sorted(names)
    (True, True)
    """
    seen: dict[str, Game[Any]] = {}
    for game in _registry().values():
        seen.setdefault(game.name, game)
    return [seen[k] for k in sorted(seen)]


def game_of(position: Position[Any]) -> Game[Any]:
    """The registered game ``position`` belongs to (what :attr:`Position.game
    <notation.games.base.Position.game>` gives): the game its class's
    :attr:`~notation.games.base.Position.game_name` names, else the registered game
    whose ``new_position()`` is of its class (a game published by another distribution);
    :class:`~notation.errors.MisuseError` if none is."""
    name = type(position).game_name
    if name is not None:
        return get_game(name)
    for game in all_games():
        try:
            if type(game.new_position()) is type(position):
                return game
        except NotationException:
            continue  # a game that cannot start without tags is not this one
    raise MisuseError(
        f"no registered game makes {type(position).__name__} positions "
        "(set game_name on the position class)"
    )


def game_error_codes() -> dict[str, str]:
    """The codes of every registered game (:attr:`Game.error_codes
    <notation.games.base.Game.error_codes>`), each with its meaning: what
    :func:`notation.errors.all_codes` joins to the shared ones."""
    codes: dict[str, str] = {}
    for game in all_games():
        codes.update(game.error_codes)
    return codes


def _all_declared() -> bool:
    """Whether every game package here declares its names, and no other distribution
    publishes a game: then the names are known without loading a game."""
    modules = {module for module, _ in _declared().values()}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        if f"{__name__}.{info.name}" not in modules:
            return False
    return not list(entry_points(group="notation.games"))


def _spellings() -> list[tuple[str, ...]]:
    """The names of each game, its own first, sorted by it."""
    if _all_declared():
        return sorted({names for _, names in _declared().values()})
    return [(game.name, *game.aliases) for game in all_games()]


def game_names() -> list[str]:
    """The name of every registered game, sorted (aliases left out)."""
    return [names[0] for names in _spellings()]


def game_spellings() -> list[str]:
    """Every name and alias a game answers to, as ``notation games`` lists them."""
    return [spelling for names in _spellings() for spelling in names]


def nearest_game_name(name: str) -> str | None:
    """The name or alias nearest to a misspelt ``name`` (``"tinkertwn"``), if any is near.

    >>> nearest_game_name("tinkertwn"), nearest_game_name("chess")
    ('tinkertown', None)
    """
    import difflib

    spellings = {_key(spelling): spelling for spelling in game_spellings()}
    nearest = difflib.get_close_matches(_key(name), list(spellings), n=1)
    return spellings[nearest[0]] if nearest else None


def lazy_exports(
    module_name: str, homes: Mapping[str, str], made: Mapping[str, Callable[[], object]]
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of a game package whose names load on first use.

    ``homes``: each public name and the submodule (``"rules"``) it lives in, or a
    module named in full; ``made``: names computed on first use (``GAME``: made once,
    whichever thread asks first).  A name, once loaded, is kept in the package, so
    that the next use is a plain lookup.
    """
    import sys
    from _thread import RLock  # threading's own RLock, without importing threading

    lock = RLock()  # re-entrant: making GAME may read another lazy name

    def load(name: str) -> Any:
        if name not in made and name not in homes:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        module = sys.modules[module_name]
        with lock:
            if name in module.__dict__:  # loaded meanwhile by another thread
                return module.__dict__[name]
            if name in made:
                value = made[name]()
            else:
                where = homes[name]
                home = importlib.import_module(where if "." in where else f"{module_name}.{where}")
                value = getattr(home, name)
            setattr(module, name, value)
        return value

    return load


# The slots of the layers below, which may not import the registry (see notation.plug_in).
base.game_finder = game_of
errors.game_codes = game_error_codes
