"""Records copied with slips that the rules accept: generated games of each game, one or
two moves replaced by a legal move one slip away (``notation.checking.slips.ranked_moves``), as a
transcriber might copy a scoresheet.  Used by ``bench/slip_rates.py`` and
``bench/slip_cost.py``, and by ``tests/test_slip_search.py``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.checking.slips import plays_to_the_end, ranked_moves
from notation.errors import Fix
from notation.games import get_game


@dataclass(frozen=True)
class SlippedGame:
    """A game as played (``moves``, canonical texts) and as copied (``written``), which
    differs at the indexes of ``slips`` (index: the move written there)."""

    game: str
    moves: tuple[str, ...]
    written: tuple[str, ...]
    slips: dict[int, str]
    result: str

    def text(self) -> str:
        """The copied record, as a file holds it: tags, numbered moves, the result."""
        game = get_game(self.game)
        size = game.new_position().round_size
        tokens: list[str] = []
        for index, move in enumerate(self.written):
            if index % size == 0:
                tokens.append(f"{index // size + 1}.")
            tokens.append(move)
        tokens.append(self.result)
        lines, line = [], ""
        for token in tokens:
            if line and len(line) + 1 + len(token) > 79:
                lines.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        lines.append(line)
        head = f'[Game "{self.game}"]\n[Result "{self.result}"]\n\n'
        return head + "\n".join(lines) + "\n"


def _played(name: str, rng: random.Random, min_turns: int, max_turns: int) -> list[str]:
    """The canonical moves of a random game of ``name`` of at least ``min_turns`` turns
    (fewer where the game cannot last so long after a few tries)."""
    game = get_game(name)
    longest: list[str] = []
    for _ in range(20):
        played = game.random_playout(game.new_position(), rng, max_turns)
        position = game.new_position()
        moves: list[str] = []
        for move in played:
            moves.append(str(position.canonical(move)))
            position.push(move)
        if len(moves) > len(longest):
            longest = moves
        if len(moves) >= min_turns:
            break
    return longest


def _slip_at(name: str, moves: list[str], index: int, rng: random.Random) -> str | None:
    """A legal move one slip away from ``moves[index]``, at the position it was played
    in; ``None`` where there is none."""
    game = get_game(name)
    position = game.new_position()
    for text in moves[:index]:
        position.push(game.parse(text))
    others = [meant for _, meant in ranked_moves(game, position, moves[index])
              if meant.casefold() != moves[index].casefold()]
    return rng.choice(others) if others else None


def slipped_games(
    name: str, seed: int, count: int, *, slips: int = 1, min_turns: int = 0,
    max_turns: int = 300,
) -> Iterator[SlippedGame]:
    """``count`` records of ``name`` copied with ``slips`` slips each, every one broken by
    them (a copy that still plays to its result shows nothing to find, and is not
    given)."""
    rng = random.Random(seed)
    game = get_game(name)
    made = 0
    while made < count:
        moves = _played(name, rng, min_turns, max_turns)
        if len(moves) < 2 * slips + 2:
            continue
        position = game.new_position()
        for text in moves:
            position.push(game.parse(text))
        result = position.outcome() or "*"
        for _attempt in range(10):
            indexes = sorted(rng.sample(range(len(moves) - 1), slips))
            written = list(moves)
            for index in indexes:
                slip = _slip_at(name, moves, index, rng)
                if slip is None:
                    break
                written[index] = slip
            else:
                if plays_to_the_end(game, game.new_position(), written, result):
                    continue  # the copy plays: nothing shows the slips
                yield SlippedGame(name, tuple(moves), tuple(written),
                                  {i: written[i] for i in indexes}, result)
                made += 1
                break


def with_fixes(text: str, fixes: list[Fix]) -> str:
    """``text`` with ``fixes`` made (each on its own line and columns of ``text``)."""
    lines = text.split("\n")
    made = [edit for fix in fixes for edit in fix.edits()]
    for fix in sorted(made, key=lambda fix: (fix.line, fix.start), reverse=True):
        lines[fix.line - 1] = fix.applied(lines[fix.line - 1])
    return "\n".join(lines)
