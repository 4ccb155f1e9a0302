"""Grave Nim published as another distribution would publish it: through the
``notation.games`` entry points that the registry reads.  The tests that need the
fourth game registered use :func:`published` and leave the registry as it was."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import notation.games as registry
from notation.games import Game

from .game import GAME


class _EntryPoint:
    """An entry point of the ``notation.games`` group, as an installed distribution has."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def load(self) -> Game[Any]:
        return self.game


@contextmanager
def published() -> Iterator[Game[Any]]:
    """Grave Nim registered while the block runs, and forgotten afterwards."""

    def entry_points(*, group: str) -> list[Any]:
        found: list[Any] = list(importlib.metadata.entry_points(group=group))
        return [*found, _EntryPoint(GAME)] if group == "notation.games" else found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "entry_points", entry_points)
        registry._registry.cache_clear()
        try:
            yield GAME
        finally:
            registry._registry.cache_clear()
