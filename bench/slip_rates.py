#!/usr/bin/env python3
"""How often ``notation check --all`` finds a legal slip copied into a record, alone and
in pairs, on generated games of each game::

    python3 bench/slip_rates.py --games 40

Each record is a generated game with one move (or two) replaced by a legal move one
slip away (bench/slipped.py), so that it breaks some turns later.  For each, the
fixes ``check --all`` attaches to the record's defects are compared with the moves
replaced:

- found: every move replaced is among the fixes (its turn, the move as played);
- sole: the cases where each slip, the other put right, is the only change one slip
  away that lets the whole rest play (an exhaustive search says so); the issue's 95%
  is about these;
- kept promise: the first fix of every defect, all made, give a record that checks.

Figures only: no assertion (tests/test_slip_search.py holds the rates).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from slipped import SlippedGame, slipped_games, with_fixes

from notation.checking.every_defect import check_replay
from notation.checking.slips import find_slips
from notation.errors import Fix
from notation.games import get_game
from notation.reader import visit_records
from notation.replay import Verdict


def verdict_of(text: str, every: bool) -> Verdict:
    """The verdict of ``notation check`` (``--all`` with ``every``) of the one record."""
    (verdict,) = visit_records(io.StringIO(text), check_replay(every=every), keep_raw=True)
    return verdict


def fixes_of(verdict: Verdict) -> list[Fix]:
    """Every fix of every defect of ``verdict``, and the edits made with each."""
    return [edit for defect in verdict.errors or () for fix in defect.fixes
            for edit in fix.edits()]


def found(case: SlippedGame, fixes: list[Fix]) -> bool:
    """Whether every move replaced in ``case`` is among ``fixes``, as played."""
    named = {(fix.turn, fix.replacement) for fix in fixes}
    return all((index + 1, case.moves[index]) in named for index in case.slips)


def sole(case: SlippedGame) -> bool:
    """Whether each slip of ``case``, the others put right, is the only change one slip
    away after which the rest plays (an exhaustive search each)."""
    game = get_game(case.game)
    for index in case.slips:
        others = {other: case.moves[other] for other in case.slips if other != index}
        search = find_slips(game, game.new_position(), case.written, case.result,
                            fixed=others, limit=100, budget=10**9)
        if len(search.slips) != 1:
            return False
    return True


def kept_promise(case: SlippedGame, verdict: Verdict) -> bool:
    """Whether the first fix of every defect of ``verdict``, all made, give a record that
    checks (true where some defect has none: no promise was made)."""
    if any(not defect.fixes for defect in verdict.errors):
        return True
    fixed = with_fixes(case.text(), [defect.fixes[0] for defect in verdict.errors])
    return verdict_of(fixed, False).ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("tinkertown", "cave", "zombie-kidz"):
        for count in (1, 2):
            cases = hits = alone = alone_hits = kept = 0
            spent = 0.0
            for case in slipped_games(name, args.seed, args.games, slips=count):
                began = time.process_time()
                verdict = verdict_of(case.text(), True)
                spent += time.process_time() - began
                fixes = fixes_of(verdict)
                cases += 1
                hit = found(case, fixes)
                hits += hit
                kept += kept_promise(case, verdict)
                if sole(case):
                    alone += 1
                    alone_hits += hit
            sole_said = f"  sole {alone:3}: found {alone_hits / max(alone, 1):6.1%}"
            print(f"{name:12} {count} slip{'s' if count > 1 else ' '} {cases:3} records:"
                  f" found {hits / max(cases, 1):6.1%}{sole_said}"
                  f"  promises kept {kept}/{cases}  check --all {spent / max(cases, 1):.3f} s"
                  " per record")


if __name__ == "__main__":
    main()
