"""The legal slip: ``check --all`` looks back from where a line breaks for the move copied
wrong, and names a move as meant only when the whole rest of the line then plays.

On generated games of each game (bench/slipped.py): one or two moves replaced by a
legal move one slip away.  Where each slip is the only change that lets the rest play,
the search names it; and every fix it offers keeps its promise: made, the record checks.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from notation.checking import every_defect as allcheck
from notation.checking import slips as slips_module
from notation.checking.every_defect import check_replay
from notation.checking.slips import find_slips
from notation.cli import cli
from notation.cli.check_report import SYMPTOM_NOTE
from notation.errors import MisuseError
from notation.games import get_game
from notation.reader import visit_records
from notation.replay import Verdict

ROOT = Path(__file__).resolve().parent.parent


def _bench(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


rates = _bench("slip_rates")
slipped = _bench("slipped")

#: Records per game and number of slips: enough for cases where each slip is the only
#: change that plays (Zombie Kidz's die faces leave many changes that play: few are).
CASES = {
    ("tinkertown", 1): 8, ("tinkertown", 2): 6,
    ("cave", 1): 14, ("cave", 2): 14,
    ("zombie-kidz", 1): 40, ("zombie-kidz", 2): 40,
}


def check(text: str, every: bool = True) -> Verdict:
    (verdict,) = visit_records(io.StringIO(text), check_replay(every=every), keep_raw=True)
    return verdict


@pytest.mark.parametrize(("game", "count"), sorted(CASES))
def test_a_slip_that_alone_lets_the_rest_play_is_found(game: str, count: int) -> None:
    alone = hits = 0
    for case in slipped.slipped_games(game, 7, CASES[game, count], slips=count):
        verdict = check(case.text())
        assert not verdict.ok
        if rates.sole(case):
            alone += 1
            hits += rates.found(case, rates.fixes_of(verdict))
    assert hits >= 0.95 * alone
    if count == 1:
        assert alone >= 2, "too few cases to tell"


@pytest.mark.parametrize(("game", "count"), sorted(CASES))
def test_every_fix_offered_lets_the_record_play(game: str, count: int) -> None:
    """A hint is a promise: the first fix of every defect, all made, give a record that
    checks; for one slip, any fix of the first defect alone does.  And a move is named
    as meant only with a fix (which these checks hold to its word)."""
    for case in slipped.slipped_games(game, 11, CASES[game, count] // 2, slips=count):
        text = case.text()
        verdict = check(text)
        for defect in verdict.errors:
            if "did you mean" in defect.message or "was probably" in defect.message:
                assert defect.fixes, defect.message
        assert rates.kept_promise(case, verdict)
        if count == 1 and len(verdict.errors) == 1:
            for fix in verdict.errors[0].fixes:
                assert check(slipped.with_fixes(text, [fix]), every=False).ok, fix


TINKERTOWN = '[Game "tinkertown"]\n\n'


def test_an_earlier_legal_slip_is_named_with_its_evidence() -> None:
    # b1-a1 at turn 3 was b1-c1: legal as written, it shows two turns later.
    text = '[Game "cave"]\n\n1. b1 b5 2. b1-a1 b5-b4 3. c1-c2 b4-c4 *\n'
    (defect,) = check(text).errors
    assert defect.message == (
        "c1 is empty; turn 3 (2. b1-a1) was probably b1-c1: with it, all 3 later moves "
        "play and the game is unfinished, as * says"
    )
    (fix,) = defect.fixes
    assert (fix.turn, fix.line, fix.start, fix.end, fix.replacement, fix.later) == (
        3, 3, 13, 18, "b1-c1", 3
    )
    assert check(slipped.with_fixes(text, [fix]), every=False).ok
    # A plain check names the symptom alone.
    assert check(text, every=False).error.message == "c1 is empty"  # type: ignore[union-attr]


def test_no_guess_where_no_one_slip_lets_the_rest_play() -> None:
    # d1,c1 for d7,c2 is two slips away: nothing one slip away lets the rest play.
    text = TINKERTOWN + "1. d3 d2,b5 2. c5,f2 e2,g5 3. f5,b3 d1,c1 4. c2,a6 *\n"
    verdict = check(text)
    (defect,) = verdict.errors
    assert "did you mean" not in defect.message and not defect.fixes
    assert defect.message.endswith(
        "; no one slip in turns 1 to 6 lets the rest of this line play (the cause may be "
        "two slips or more); the rest of this line is not checked"
    )


def test_a_search_cut_short_says_how_far_back_it_looked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allcheck, "search_budget", lambda moves: 0)
    text = TINKERTOWN + "1. d3 d2,b5 2. c5,f2 e2,g5 3. f5,b3 d1,c1 4. c2,a6 *\n"
    (defect,) = check(text).errors
    assert "; no one slip in turn" in defect.message
    assert "(the search looked no further back: the cause may lie earlier)" in defect.message


def test_the_search_itself() -> None:
    game = get_game("cave")
    moves = ["b1", "b5", "b1-a1", "b5-b4", "c1-c2", "b4-c4"]  # b1-a1 was b1-c1
    search = find_slips(game, game.new_position(), moves, "*")
    assert [(s.index, s.meant, s.later) for s in search.slips] == [(2, "b1-c1", 3)]
    assert (search.broken, search.earliest, search.complete) == (4, 0, True)
    # With the slip put right by hand, nothing is left to find.
    fixed = find_slips(game, game.new_position(), moves, "*", fixed={2: "b1-c1"})
    assert fixed.slips == () and fixed.broken is None
    # A budget spent stops the search where it is, and says so.
    short = find_slips(game, game.new_position(), moves, "*", budget=0)
    assert not short.complete and short.earliest > 0
    assert all(slip.index >= short.earliest for slip in short.slips)
    with pytest.raises(MisuseError):
        find_slips(game, game.new_position(), moves, "*", limit=0)
    with pytest.raises(MisuseError):
        find_slips(game, game.new_position(), moves, "*", fixed={9: "b1"})


def test_a_plain_check_says_that_all_looks_for_the_slip(tmp_path: Path) -> None:
    path = tmp_path / "slip.ugn"
    path.write_text('[Game "cave"]\n\n1. b1 b5 2. b1-a1 b5-b4 3. c1-c2 b4-c4 *\n')
    plain = CliRunner().invoke(cli, ["check", str(path)])
    assert plain.output.splitlines()[-2:] == [
        "1 record in 1 file: 0 valid, 1 broken", SYMPTOM_NOTE
    ]
    every = CliRunner().invoke(cli, ["check", "--all", str(path)])
    assert SYMPTOM_NOTE not in every.output and "was probably b1-c1" in every.output
    # Not for a record whose moves all play (a syntax error of the container).
    path.write_text('[Game "cave"]\n\n1. b1 b5 )\n')
    assert SYMPTOM_NOTE not in CliRunner().invoke(cli, ["check", str(path)]).output


def test_two_slips_both_needed_before_the_break_are_one_fix_with_its_also() -> None:
    # Generated Zombie Kidz games with two slips: where neither alone lets the broken
    # move play, the two are one fix, the second made with it (also).
    found = []
    for case in slipped.slipped_games("zombie-kidz", 1, 60, slips=2):
        verdict = check(case.text())
        found += [(case, fix, defect) for defect in verdict.errors for fix in defect.fixes
                  if fix.also]
    assert found
    for case, fix, defect in found:
        assert "with both, all" in defect.message
        assert check(slipped.with_fixes(case.text(), [fix]), every=False).ok
        for edit in fix.edits():  # made alone, neither edit mends the record
            alone = slipped.with_fixes(case.text(), [replace(edit, also=())])
            assert not check(alone, every=False).ok
        assert "also" in defect.to_dict()["fixes"][0]


def test_the_budget_bounds_the_search_of_a_long_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """However long the line, the searches of a record play at most MAX_PUSHES moves
    (each move looked at counting LOOK_COST): a long line broken at its end is searched
    back only so far, and the message says so."""
    assert slips_module.search_budget(10**9) == slips_module.MAX_PUSHES
    assert slips_module.search_budget(1) == slips_module.MIN_PUSHES
    monkeypatch.setattr(slips_module, "MAX_PUSHES", 5_000)
    monkeypatch.setattr(slips_module, "MIN_PUSHES", 0)
    case = next(slipped.slipped_games("cave", 5, 1, min_turns=150))
    moves = [*case.moves[:-1], "a1-a9"]  # the last move is no move of Cave
    text = slipped.SlippedGame("cave", tuple(moves), tuple(moves), {}, "*").text()
    (defect,) = check(text).errors
    assert "(the search looked no further back: the cause may lie earlier)" in defect.message
