"""Grave Nim, a tiny fourth game kept under tests/ and not registered in the package.

It proves what docs/library.md ('The game protocol, and adding a game') promises: a
game written outside ``notation/``, with a grammar file of its own, gets every command
and passes tests/test_game_contract.py with no change to shared code.  The tests
publish it as another distribution would, through the ``notation.games`` entry points.
"""

from .game import GAME, GraveNimGame, GraveNimPosition, Take

__all__ = ["GAME", "GraveNimGame", "GraveNimPosition", "Take"]
