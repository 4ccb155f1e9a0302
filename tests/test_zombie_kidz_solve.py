"""Zombie Kidz solved: the tables, the solvers, the rules on keys, and the analysis.

docs/zombie-kidz.md, "Solving the game".  Every test here uses the shipped 2-player
tables or small sub-games (the states reachable from a position with three gates
locked): no whole variant is solved.  The cache directory is a temporary folder.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys
import warnings
from array import array
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.errors import LongWorkNotice
from notation.formats.annotate import AnnotateOptions, annotate_record
from notation.games.zombie_kidz import GAME, ZombieKidzPosition, solve
from notation.games.zombie_kidz import analysis as zk_analysis
from notation.games.zombie_kidz.board import DICE, PLAYERS_WIN
from notation.games.zombie_kidz.solve import (
    SYMMETRIES,
    WIN,
    Table,
    Variant,
    canonical_key,
    decode_key,
    make_key,
    position_of,
    roll_results,
    start_key,
    state_key,
    table_for,
)
from notation.reader import read_string

ROOT = Path(__file__).resolve().parent.parent
TWO = Variant(2, 8)
HARD = Variant(2, 7)


@pytest.fixture(autouse=True)
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A cache directory of the test's own, no first-use solve, and nothing loaded
    before the test (tables and evaluators are remembered per process)."""
    monkeypatch.setenv("NOTATION_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("NOTATION_NO_SOLVE", "1")
    monkeypatch.setattr(solve, "_LOADED", {})
    monkeypatch.setattr(zk_analysis, "_EVALUATORS", {})
    return tmp_path / "cache"


def _random_positions(
    players: int, zombies: int, count: int, seed: int
) -> list[ZombieKidzPosition]:
    """Positions of random games (the game going on), one per game, at a random turn."""
    rng = random.Random(seed)
    found: list[ZombieKidzPosition] = []
    while len(found) < count:
        position = ZombieKidzPosition(players, zombies)
        stop = rng.randrange(1, 40)
        while position.outcome() is None and position.turn < stop:
            die = rng.choice(DICE)
            position.push(rng.choice(position.legal_moves_for_roll(die)))
        if position.outcome() is None:
            found.append(position)
    return found


# -- the encoding and the rules on keys ------------------------------------------------


def test_a_key_holds_the_position() -> None:
    zombies = [1, 0, 1, 2, 0, 0, 0, 3, 1]
    key = make_key(zombies, [3, 8, 4], 0b0101)
    assert decode_key(key, 3) == (zombies, [3, 8, 4], 0b0101)


def test_the_symmetries_are_those_of_the_board() -> None:
    assert len(set(SYMMETRIES)) == 8 and SYMMETRIES[0] == tuple(range(9))
    # Every image of a position has the same canonical key.
    position = _random_positions(3, 8, 1, seed=3)[0]
    key = state_key(position)
    zombies, pawns, locks = decode_key(key, 3)
    for perm in SYMMETRIES:
        moved = [0] * 9
        for zone, count in enumerate(zombies):
            moved[perm[zone]] = count
        gates = (0, 2, 6, 8)
        image_locks = sum(1 << gates.index(perm[g]) for i, g in enumerate(gates) if locks >> i & 1)
        image = make_key(moved, [perm[p] for p in pawns], image_locks)
        assert canonical_key(image, 3) == key


@pytest.mark.parametrize(("players", "zombies"), [(2, 8), (2, 7), (3, 8), (4, 7)])
def test_the_rules_on_keys_are_the_rules(players: int, zombies: int) -> None:
    """roll_results() gives, for every face, what push() does: the same wins and
    losses, the same positions after the turns.  (Its zones and faces are those of the
    key's image under a symmetry, so the faces are compared as a whole and the turns by
    what they lead to.)"""
    variant = Variant(players, zombies)
    lost = -9
    for position in _random_positions(players, zombies, 25, seed=players * 10 + zombies):
        expected = sorted(
            [lost] if turns is None else sorted(result for _, result in turns)
            for turns in roll_results(state_key(position), variant)
        )
        faces: list[list[int]] = []
        for die in DICE:
            got: list[int] = []
            for move in position.legal_moves_for_roll(die):
                position.push(move)
                outcome = position.outcome()
                got.append(
                    state_key(position) if outcome is None
                    else WIN if outcome == PLAYERS_WIN else lost
                )
                position.pop()
            faces.append(sorted(got))
        assert sorted(faces) == expected


def test_numpy_and_python_agree() -> None:
    np = pytest.importorskip("numpy")
    for variant in (TWO, Variant(3, 7), Variant(4, 8)):
        vector = solve._Vector(variant)
        keys = [state_key(p) for p in _random_positions(*variant, 30, seed=7)]
        fields = vector.fields(np.array(keys, dtype=np.int64))
        for face in range(len(DICE)):
            for option in range(vector.width):
                legal, won, after = vector.turns(fields, face, option)
                for i, key in enumerate(keys):
                    turns = roll_results(key, variant)[face] or []
                    expected = turns[option][1] if option < len(turns) else None
                    # roll_results() lists the legal turns only: compare by zone.
                    origin = decode_key(key, variant.players)[1][0]
                    zone = int(vector.targets[origin, option])
                    by_zone = dict(turns)
                    if zone in by_zone:
                        assert legal[i]
                        assert (WIN if won[i] else int(after[i])) == by_zone[zone]
                    else:
                        assert not legal[i], (key, face, option, expected)


def test_a_key_makes_a_position_that_reads_back() -> None:
    table = table_for(TWO)
    assert table is not None
    for key in random.Random(1).sample(list(table.keys), 50):
        position = position_of(key, TWO)
        assert state_key(position) == key
        again = GAME.position_from_string(position.position_string())
        assert state_key(again) == key


# -- tables ---------------------------------------------------------------------------


def test_the_two_player_tables_are_shipped() -> None:
    for variant in (TWO, HARD):
        table = table_for(variant)
        assert table is not None and table.variant == variant
        assert solve.shipped_path(variant).is_file()
        assert table.tolerance <= 1e-9
        start = table.value(start_key(variant))
        assert start is not None and start > 1 - 1e-8


def test_a_table_reads_back(tmp_path: Path) -> None:
    table = table_for(HARD)
    assert table is not None
    small = Table(HARD, table.keys[:1000], table.values[:1000], table.tolerance, 1.5)
    small.save(tmp_path / "t.zks")
    again = Table.load(tmp_path / "t.zks")
    assert list(again.keys) == list(small.keys) and again.variant == HARD
    assert max(abs(a - b) for a, b in zip(again.values, small.values, strict=True)) < 1e-9
    assert again.value(small.keys[10]) == again.values[10]
    assert again.value(small.keys[10] + 1) is None or small.keys[11] == small.keys[10] + 1
    with pytest.raises(ValueError, match="not a Zombie Kidz table"):
        Table.from_bytes(b"rubbish" * 10)


def test_the_cache_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NOTATION_CACHE_DIR", str(tmp_path / "a"))
    assert solve.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("NOTATION_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert solve.cache_dir() == tmp_path / "xdg" / "undead-notation"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert solve.cache_dir() == tmp_path / "home" / ".cache" / "undead-notation"


def test_a_cached_table_is_found_and_a_damaged_one_ignored(cache: Path) -> None:
    variant = Variant(3, 7)
    cache.mkdir(parents=True)
    path = cache / f"zombie-kidz-{variant.name}.zks"
    path.write_bytes(b"damaged")
    assert table_for(variant) is None
    solve._LOADED.clear()
    Table(variant, array("Q", [5]), array("d", [0.25]), 1e-10).save(path)
    found = table_for(variant)
    assert found is not None and found.value(5) == pytest.approx(0.25, abs=1e-9)


def test_a_solve_on_first_use_is_announced_then_cached(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The solve itself is stood in for (a whole 3-player variant takes minutes).
    variant = Variant(3, 7)
    solved: list[Variant] = []
    monkeypatch.setattr(solve, "_np", lambda: None)

    def stand_in(asked: Variant) -> Table:
        solved.append(asked)
        return Table(asked, array("Q", [5]), array("d", [0.25]), 1e-10)

    monkeypatch.setattr(solve, "solve_numpy", stand_in)
    with pytest.warns(LongWorkNotice, match="3 players, 7 zombies once: a minute or two"):
        assert table_for(variant, compute=True) is not None
    assert solved == [variant]
    assert (cache / f"zombie-kidz-{variant.name}.zks").is_file()
    solve._LOADED.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # found in the cache: no notice, no solve
        assert table_for(variant, compute=True) is not None
    assert solved == [variant]


def test_the_command_line_says_the_notice_as_a_note(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOTATION_NO_SOLVE")
    monkeypatch.setattr(solve, "_np", lambda: None)

    def no_numpy_after_all(asked: Variant) -> Table:
        raise ImportError("stand-in: the analysis falls back to its search")

    monkeypatch.setattr(solve, "solve_numpy", no_numpy_after_all)
    text = '[Game "zombie-kidz"]\n[Players "3"]\n\n1. R:b2-c2 *\n'
    result = CliRunner().invoke(cli, ["annotate", "--analyze", "-"], input=text)
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: solving Zombie Kidz with 3 players, 8 zombies once: a minute or two; the "
        f"table is then kept in {cache / 'zombie-kidz-3p8z.zks'}"
    ]
    assert "Warning" not in result.stderr


# -- solving ---------------------------------------------------------------------------


def _small_root(variant: Variant, table: Table) -> int:
    """A state with three gates locked and a middling value: few states follow it."""
    for key, value in zip(table.keys, table.values, strict=True):
        if bin(key >> 36 & 15).count("1") == 3 and 0.5 < value < 0.8:
            return int(key)
    raise AssertionError("no such state")  # pragma: no cover


def test_the_python_solver_agrees_with_the_table() -> None:
    table = table_for(HARD)
    assert table is not None
    root = _small_root(HARD, table)
    sub = solve.solve_python(HARD, root, limit=20_000)
    assert len(sub) < 20_000
    exact = [table.value(key) for key in sub.keys]
    assert None not in exact
    worst = max(abs(a - (b or 0.0)) for a, b in zip(sub.values, exact, strict=True))
    assert worst < 1e-8


def test_the_numpy_solver_agrees_with_the_python_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The numpy solver on a sub-game: its start moved to a state with three locks."""
    pytest.importorskip("numpy")
    table = table_for(HARD)
    assert table is not None
    root = _small_root(HARD, table)
    monkeypatch.setattr(solve, "start_key", lambda variant: root)
    fast = solve.solve_numpy(HARD)
    slow = solve.solve_python(HARD, root)
    assert list(fast.keys) == list(slow.keys)
    assert max(abs(a - b) for a, b in zip(fast.values, slow.values, strict=True)) < 1e-8


# -- the optimal policy played: the values are what happens --------------------------


def _play_best(position: ZombieKidzPosition, rng: random.Random, table: Table) -> bool:
    """Play to the end, every turn the best for its roll by ``table`` (near-ties broken
    by progress, as ``analyze`` names it); True if won."""
    rating = zk_analysis.Evaluator(Variant(position.players, position.zombie_total), table)
    while position.outcome() is None:
        rated = rating.roll_values(position, rng.choice(DICE))
        assert all(exact for _, _, exact in rated), "the table holds every state reached"
        position.push(rated[0][0])
    return position.outcome() == PLAYERS_WIN


def _within_interval(wins: int, games: int, value: float) -> bool:
    """Whether ``wins`` of ``games`` is within the 99.9% binomial interval (normal
    approximation, widened by one game) of a win probability ``value``."""
    spread = 3.29 * math.sqrt(value * (1 - value) / games) + 1 / games
    return abs(wins / games - value) <= spread


def test_best_play_wins_as_often_as_the_table_says() -> None:
    rng = random.Random(2024)
    table = table_for(TWO)
    assert table is not None
    # From the start: the value is 1, so every game is won.
    games = 60
    wins = sum(_play_best(ZombieKidzPosition(2, 8), rng, table) for _ in range(games))
    assert wins == games
    # From sampled positions with middling values.
    middling = [k for k, v in zip(table.keys, table.values, strict=True) if 0.3 < v < 0.85]
    for key in rng.sample(middling, 3):
        value = table.value(key)
        assert value is not None
        games = 150
        wins = sum(_play_best(position_of(key, TWO), rng, table) for _ in range(games))
        assert _within_interval(wins, games, value), (key, wins, games, value)


# -- analysis ----------------------------------------------------------------------------


def test_importing_and_checking_load_no_solver() -> None:
    code = (
        "import sys, notation\n"
        "from notation.games.zombie_kidz import GAME\n"
        "(record,) = notation.read_string('1. R:b2-a2 G 2. W *', )\n"
        "assert notation.check_record(record, 'zombie-kidz').ok\n"
        "zk = 'notation.games.zombie_kidz.'\n"
        "late = (zk + 'solve', zk + 'analysis', 'numpy')\n"
        "print(sorted(m for m in sys.modules if m in late))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


def test_assessing_a_turn() -> None:
    position = ZombieKidzPosition(2, 8)
    position.push_text("R:b2-a2")
    before = position.position_string()
    good = GAME.assess_move(position, GAME.parse("G:b2-c2x"))
    bad = GAME.assess_move(position, GAME.parse("G:a2"))
    assert position.position_string() == before
    assert good is not None and good.glyph == "" and good.values[0][0] == "winprob"
    assert bad is not None and bad.glyph == "?"
    assert bad.reason.startswith("G:b2-c2x keeps 100.0% to win; G:b2-a2 leaves 92.9%")
    assert bad.values == (("winprob", "1.0000 0.9288"),)
    # An illegal move, or a game that is over: no opinion.
    assert GAME.assess_move(position, GAME.parse("G:b2-c3")) is None


def test_annotating_a_game_with_analysis() -> None:
    text = (ROOT / "records" / "zombie-kidz" / "examples.ugn").read_text()
    records = read_string(text)
    options = AnnotateOptions(analyze=True)
    first = annotate_record(records[0], options).text
    assert "[%winprob 1.0000 1.0000]" in first
    assert "1... G:b2-a2?" in first and "Y:a2-a1L??" in first
    assert "[%analysis ?? Y:a2-b3x keeps 94.2% to win; Y:a2-a1L leaves 65.5%]" in first
    # Annotating again gives the same text.
    (again,) = read_string(first)
    assert annotate_record(again, options).text == first


def test_analysing_from_a_table() -> None:
    position = ZombieKidzPosition(2, 8)
    for text in ("R:b2-a2", "G:b2-a2", "K:a2-a1x"):
        position.push_text(text)
    analysis = GAME.analyse(position)
    assert analysis.exact and analysis.unit == "probability" and analysis.depth is None
    assert analysis.value == pytest.approx(0.9145, abs=1e-4)
    faces = dict(analysis.notes)
    assert faces["G (green)"].startswith("G:a2-b2x, 69.6%")
    # The value is the mean of the faces' best.
    evaluator = zk_analysis.evaluator(position)
    best = [evaluator.roll_values(position, die)[0][1] for die in DICE]
    assert analysis.value == pytest.approx(sum(best) / 6, abs=1e-9)


def test_analysing_without_a_table_is_an_estimate() -> None:
    position = ZombieKidzPosition(4, 8)
    analysis = GAME.analyse(position, depth=1)
    assert not analysis.exact and analysis.depth == 1 and 0 < analysis.value <= 1
    assert dict(analysis.notes)["method"].startswith("estimate")
    assessment = GAME.assess_move(position, GAME.parse("R:b2-b1"))
    assert assessment is not None and assessment.values[0][1].endswith(" estimate")


def test_the_end_of_a_game_is_certain() -> None:
    position = GAME.position_from_string("000/040/021 a2,c3 - 0/7 2 2 11")
    position.push_text("G")
    analysis = GAME.analyse(position)
    assert (analysis.value, analysis.exact, analysis.best_line) == (0.0, True, ())
    position.pop()
    analysis = GAME.analyse(position)
    notes = dict(analysis.notes)
    assert notes["G (green)"] == "G: the zombies win at this roll"
