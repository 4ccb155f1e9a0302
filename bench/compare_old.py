"""The commands on every layout of the records, side by side with the code of an older
commit (by default 98cd13c, the last before the reader's two paths were merged).

    python3 bench/compare_old.py --turns 100000 --runs 3
    python3 bench/compare_old.py --quick
    python3 bench/compare_old.py --commit 98cd13c --old-python /path/to/venv/bin/python

It builds the older code in a temporary git worktree of this checkout and installs it
in a virtual environment of its own (``pip install`` of that worktree: an editable
install of this checkout would otherwise win over ``PYTHONPATH``); with
``--old-python``, that interpreter runs ``python -m notation`` as the older code
instead. Then, as ``bench/run.py`` does for the layouts:

1. a corpus per game (``notation generate``, seeded), in the canonical layout
   (``convert --to text``) and every other layout of ``bench/layouts.py``; both codes
   must give every layout the same verdicts and convert it to the same text, or the
   run stops;
2. ``check --jobs 1``, ``convert --to text``, ``convert --to json`` and ``annotate``,
   one process each, on every game and layout, by the new and the old code in turn
   (their order alternating from run to run), with a python-chess process on a chess
   corpus of as many plies: processor time of the child processes, median of
   ``--runs``;
3. the speed ratio, new over old (old time / new time: below 1, the new code is
   slower), per command, game and layout, whether both wrote the same bytes, and
   the worst layout of each command against python-chess for both codes.

The worktree and the environment are removed afterwards. The figures are printed,
never judged: the machine's other work makes them noisy (see docs/performance.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from run import (
    LAYOUT_COMMANDS,
    NOTATION,
    ChessCorpora,
    LaidOut,
    Run,
    lay_out_corpus,
    make_corpus,
    measure_layouts,
    median_cpu,
    print_layout_table,
    section,
    verify_layouts,
)

from notation.games import game_names

CHECKOUT = Path(__file__).resolve().parent.parent
#: The last commit before the reader's two paths were merged (issue 38).
BEFORE_THE_MERGE = "98cd13c"
#: python-chess is the optional dependency ``bench``: without it, no comparison with it.
HAVE_CHESS = importlib.util.find_spec("chess") is not None


def old_code(commit: str, folder: Path, python: str | None) -> list[str]:
    """How to run ``notation`` as of ``commit``: an interpreter given, or one of a
    virtual environment in ``folder`` where that commit is installed from a temporary
    worktree (removed once installed; the environment goes with ``folder``)."""
    if python is not None:
        return [python, "-m", "notation"]
    tree = folder / "old-tree"
    venv = folder / "old-venv"
    old_python = venv / "bin" / "python"
    subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "add", "--detach", "--quiet",
                    str(tree), commit], check=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print(f"installing {commit} in {venv} (a minute)", flush=True)
        subprocess.run([str(old_python), "-m", "pip", "install", "-q", str(tree)],
                       check=True, stderr=subprocess.DEVNULL)
    finally:  # the environment holds a copy: the worktree is not needed any more
        subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "remove", "--force",
                        str(tree)], check=False)
    return [str(old_python), "-m", "notation"]


def same_output(runs: dict[tuple[str, str, str, str], list[Run]], key: tuple[str, ...]) -> str:
    _, game, layout, command = key
    new = runs["new", game, layout, command][0].stdout
    old = runs["old", game, layout, command][0].stdout
    return "same" if new == old else "DIFFERENT"


def print_ratios(
    laid: Sequence[LaidOut], runs: dict[tuple[str, str, str, str], list[Run]], commit: str
) -> None:
    """New over old as a speed ratio, per command, game and layout, then each command's
    lowest ratio per game."""
    games = list(dict.fromkeys(each.game for each in laid))
    layouts = list(dict.fromkeys(each.layout for each in laid))

    def ratio(game: str, layout: str, command: str) -> float:
        return median_cpu(runs["old", game, layout, command]) / median_cpu(
            runs["new", game, layout, command]
        )

    for command, _ in LAYOUT_COMMANDS:
        print(f"\n{command}: speed of the new code over {commit} (old time / new time)")
        print(f"{'layout':14}" + "".join(f"{g:>14}" for g in games) + "   outputs")
        for layout in layouts:
            cells = "".join(f"{ratio(g, layout, command):>14.2f}" for g in games)
            outputs = {same_output(runs, ("", g, layout, command)) for g in games}
            print(f"{layout:14}{cells}   {', '.join(sorted(outputs))}")
        worst = "".join(
            f"{min(ratio(g, layout, command) for layout in layouts):>14.2f}" for g in games
        )
        print(f"{'lowest':14}{worst}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000, help="turns per game corpus")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the median)")
    parser.add_argument("--game", action="append", choices=game_names(), help="(repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commit", default=BEFORE_THE_MERGE, help="the older code's commit")
    parser.add_argument("--old-python", help="an interpreter where the older code is installed")
    parser.add_argument("--quick", action="store_true", help="10,000 turns, 1 run")
    args = parser.parse_args()
    if args.quick:
        args.turns, args.runs = 10_000, 1
    games = args.game or game_names()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {sys.platform}, "
          f"load average {os.getloadavg()[0]:.2f}")

    with tempfile.TemporaryDirectory(prefix="notation-compare-") as tmp:
        folder = Path(tmp)
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        sides = {"new": NOTATION, "old": old_code(args.commit, folder, args.old_python)}
        section("corpora and layouts")
        chess_corpora = ChessCorpora(folder, args.seed) if HAVE_CHESS else None
        chess_files: dict[str, tuple[Path, int, int]] = {}
        laid: list[LaidOut] = []
        for game in games:
            corpus = make_corpus(game, args.turns, folder, args.seed)
            print(f"{game:12} {corpus.records:6} records {corpus.turns:8} turns", flush=True)
            if chess_corpora is not None:
                chess_files[game] = chess_corpora.make(corpus.turns, game)
            game_laid = lay_out_corpus(corpus, folder, args.seed)
            for notation in sides.values():
                verify_layouts(game_laid, args.seed, folder, notation)
            laid += game_laid
        print("every layout checked by both codes: the same verdicts; converts to the "
              "same text", flush=True)

        section(f"new and {args.commit} in turn, median of {args.runs} runs")
        runs, chess_cpu = measure_layouts(laid, sides, chess_files, args.runs, folder)
        print_ratios(laid, runs, args.commit)
        for side, name in (("new", "the new code"), ("old", args.commit)):
            section(f"{name}: turns/s and the ratio to python-chess per core")
            print_layout_table(laid, runs, chess_cpu, chess_files, side)


if __name__ == "__main__":
    main()
