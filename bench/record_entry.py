"""How fast the record editor answers while a game is entered: ``candidates()`` on the
largest move lists met in random games, and one move played (undo journal included).

    python bench/record_entry.py [--games 200] [--runs 50]

Prints milliseconds per call (median and worst of ``--runs``) for each game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import notation
from notation.editing.editor import RecordEditor


def largest_position(game: str, games: int, seed: int) -> tuple[list[str], int]:
    """The moves to the position with the most legal moves met in ``games`` random games."""
    rng = random.Random(seed)
    best: tuple[list[str], int] = ([], 0)
    for _ in range(games):
        position = notation.get_game(game).new_position()
        moves: list[str] = []
        while position.outcome() is None and len(moves) < 400:
            legal = position.legal_moves()
            if not legal:
                break
            if len(legal) > best[1]:
                best = (list(moves), len(legal))
            move = rng.choice(legal)
            position.push(move)
            moves.append(str(move))
    return best


def timed(call: object, runs: int) -> tuple[float, float, float]:
    """Milliseconds of ``call``: median and worst of ``runs`` calls, after a first call
    (also returned) that fills the caches a position's first look fills."""
    assert callable(call)
    start = time.perf_counter()
    call()
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times), first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':12s} {'moves':>6s} {'candidates ms (first)':>28s} {'prefix ms':>14s} "
          f"{'play ms':>14s}")
    for game in ("cave", "tinkertown", "zombie-kidz"):
        measure(game, args.games, args.runs, args.seed)
    print()
    print("key to screen, notation record at 80x24 (headless), processor ms per key: "
          "median (worst)")
    for game in ("cave", "tinkertown", "zombie-kidz"):
        print(f"{game:12s} {screen(game, args.games, args.seed)}")


def screen(game: str, games: int, seed: int) -> str:
    """Processor milliseconds from a key to the screen redrawn (Textual's pilot waits for
    both; its idle waits are not counted), at the position with the largest move list:
    a letter typed, and Enter playing a move (then undone)."""
    import asyncio
    import os
    import tempfile

    from notation.editing.recordfile import RecordFile
    from notation.tui.record_app import RecordApp

    moves, _ = largest_position(game, games, seed)
    folder = tempfile.mkdtemp()
    kept = RecordFile.open(os.path.join(folder, "bench.txt"), game=game, defaults=False)
    for text in moves:
        kept.editor.play(text)
    app = RecordApp(kept)
    typed: list[float] = []
    entered: list[float] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(20):
                move = kept.editor.candidates()[0].text
                start = time.process_time()
                await pilot.press(move[0])
                typed.append((time.process_time() - start) * 1000)
                await pilot.press(*move[1:])
                start = time.process_time()
                await pilot.press("enter")
                entered.append((time.process_time() - start) * 1000)
                await pilot.press("ctrl+z")

    asyncio.run(run())
    kept.discard_journal()
    print("   letters:", " ".join(f"{t:.0f}" for t in typed))
    return (
        f"a letter {statistics.median(typed):6.2f} ({max(typed):6.2f})   "
        f"Enter {statistics.median(entered):6.2f} ({max(entered):6.2f})"
    )


def measure(game: str, games: int, runs: int, seed: int) -> None:
    """Print the figures of ``game``."""
    moves, size = largest_position(game, games, seed)
    editor = RecordEditor.new(game, defaults=False)
    for text in moves:
        editor.play(text)
    every = timed(editor.candidates, runs)
    first = editor.candidates()[0].text
    prefix = timed(lambda: editor.candidates(first[:1]), runs)

    def play_and_undo() -> None:
        editor.play(first)
        editor.undo()

    played = timed(play_and_undo, runs)
    print(
        f"{game:12s} {size:6d} {every[0]:9.2f} (max {every[1]:5.2f}) ({every[2]:6.2f}) "
        f"{prefix[0]:6.2f} ({prefix[1]:5.2f}) {played[0]:6.2f} ({played[1]:5.2f})"
    )


if __name__ == "__main__":
    main()
