"""Start-up stays lean: what ``notation check`` of a one-record file imports.

``notation check`` of a short file is mostly start-up (docs/performance.md,
"Start-up"; bench/startup.py measures it).  Nothing here is timed: each test runs the
command in a process of its own, its output to a pipe, and looks at the modules it
imported (``sys.modules``), so that a module-level import that brings back a heavy
dependency fails here, whatever the machine's speed.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from notation.games import get_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"cave": "cave", "tinkertown": "tinkertown", "zombie-kidz": "zombie_kidz"}

#: Run in the child: the command as the ``notation`` script runs it, then the names
#: of the modules it imported, one a line, into the file named by argv[1].
PROBE = """
import sys
out, args = sys.argv[1], sys.argv[2:]
sys.argv = ["notation", *args]
from notation.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w", encoding="utf-8") as handle:
    handle.write("\\n".join(sorted(sys.modules)))
sys.exit(code)
"""

#: Never needed to check a valid record to a pipe: output styling, workers, the user
#: interfaces, numerics, the renderers, the statistics, plugins' metadata.
NEVER = (
    "rich",
    "multiprocessing",
    "concurrent.futures",
    "textual",
    "numpy",
    "notation.render",
    "notation.tui",
    "notation.collections.stats",
    "notation.checking.canonical_form",
    "notation.formats.annotate",
    "importlib.metadata",
    "email",
)


#: Never imported by a plain ``notation check FILE`` (the fast path of notation.cli.main).
FAST_PATH_NEVER = ("click", "notation.commands", "notation.formats.convert")


def _run(tmp_path: Path, *args: str, cache: Path | None = None) -> tuple[set[str], str, str]:
    """The modules ``notation ARGS`` imported, its standard output and error."""
    listing = tmp_path / "modules.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env["NOTATION_CACHE_DIR"] = str(cache if cache is not None else tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    modules = set(listing.read_text(encoding="utf-8").split("\n")) if listing.exists() else set()
    assert done.returncode in (0, 1), done.stderr
    return modules, done.stdout, done.stderr


def _imported(modules: set[str], name: str) -> bool:
    return name in modules or any(module.startswith(f"{name}.") for module in modules)


@pytest.fixture(scope="module")
def one_record_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first record of each game's examples, a file each."""
    folder = tmp_path_factory.mktemp("one-record")
    files: dict[str, Path] = {}
    for game, package in GAMES.items():
        out = folder / f"{package}.txt"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "notation",
                "select",
                "--records",
                "1",
                "-q",
                "-o",
                str(out),
                str(ROOT / "records" / game / "examples.ugn"),
            ],
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
        files[game] = out
    return files


@pytest.mark.parametrize("game", list(GAMES))
def test_check_of_one_record_imports_its_game_alone(
    game: str, one_record_files: dict[str, Path], tmp_path: Path
) -> None:
    modules, out, err = _run(tmp_path, "check", str(one_record_files[game]))
    assert out == "1 record in 1 file: 1 valid, 0 broken\n"
    assert err == ""
    heavy = [name for name in NEVER if _imported(modules, name)]
    assert not heavy, f"`notation check` imported {heavy}"
    # A plain check takes the fast path of notation.cli.main: no click, no command
    # modules, and no converters for a file that is not JSON Lines.
    slow = [name for name in FAST_PATH_NEVER if _imported(modules, name)]
    assert not slow, f"`notation check` imported {slow}"
    # The record's game is loaded; of the others, only the package (its NAMES).
    assert f"notation.games.{GAMES[game]}.rules" in modules
    for other in set(GAMES.values()) - {GAMES[game]}:
        loaded = sorted(m for m in modules if m.startswith(f"notation.games.{other}."))
        assert not loaded, f"a {game} record loaded {loaded}"
    # Checking needs no engine, no search, no solver, no dealer of the game.
    engines = {"engine", "hidden", "search", "players", "solve", "analysis"}
    loaded = sorted(
        m for m in modules if m.startswith("notation.games.") and m.split(".")[-1] in engines
    )
    assert not loaded, f"a {game} check loaded {loaded}"


def test_version_loads_no_command_and_no_game(tmp_path: Path) -> None:
    modules, out, _ = _run(tmp_path, "--version")
    assert out.startswith("notation, version ")
    for name in (
        "notation.commands.check",
        "notation.games",
        "notation.collections.batch",
        "lark",
        "notation.reader",
        "importlib.metadata",
        "rich",
    ):
        assert not _imported(modules, name), f"`notation --version` imported {name}"


def test_import_notation_loads_nothing_of_its_own() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, notation; print('\\n'.join(m for m in sys.modules if 'notation' in m "
            "or m in ('click', 'lark', 'rich')))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.split() == ["notation"]


def test_the_compiled_grammar_is_cached_and_reused(
    one_record_files: dict[str, Path], tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    _run(tmp_path, "check", str(one_record_files["tinkertown"]), cache=cache)
    kept = list((cache / "grammars").glob("tinkertown-*.lark-cache"))
    assert len(kept) == 1
    before = kept[0].stat().st_mtime_ns
    _, out, err = _run(tmp_path, "check", str(one_record_files["tinkertown"]), cache=cache)
    assert (out, err) == ("1 record in 1 file: 1 valid, 0 broken\n", "")
    assert kept[0].stat().st_mtime_ns == before  # read, not written again


@pytest.mark.parametrize("damage", ["unwritable", "damaged"])
def test_a_cache_that_cannot_serve_only_costs_time(
    damage: str, one_record_files: dict[str, Path], tmp_path: Path
) -> None:
    if damage == "unwritable":  # a cache folder that cannot be made: under a file
        (tmp_path / "file").write_text("")
        cache = tmp_path / "file" / "cache"
    else:
        cache = tmp_path / "cache"
        _run(tmp_path, "check", str(one_record_files["cave"]), cache=cache)
        for kept in (cache / "grammars").glob("*.lark-cache"):
            kept.write_bytes(b"damaged\n" + os.urandom(64))
    _, out, err = _run(tmp_path, "check", str(one_record_files["cave"]), cache=cache)
    assert (out, err) == ("1 record in 1 file: 1 valid, 0 broken\n", "")


@pytest.mark.parametrize("package", sorted(GAMES.values()))
def test_a_game_package_declares_the_names_its_game_answers_to(package: str) -> None:
    # The registry finds a game by NAMES without loading it, then checks them.
    module = importlib.import_module(f"notation.games.{package}")
    game = module.GAME
    assert (game.name, *game.aliases) == module.NAMES
    for name in module.NAMES:
        assert get_game(name) is game


def test_a_game_option_loads_no_game_that_no_record_plays(
    one_record_files: dict[str, Path], tmp_path: Path
) -> None:
    # --game is for records without a Game tag: this one has its own.
    modules, out, _ = _run(tmp_path, "check", "--game", "Cave", str(one_record_files["tinkertown"]))
    assert out == "1 record in 1 file: 1 valid, 0 broken\n"
    assert not [m for m in modules if m.startswith("notation.games.cave.")]
    assert not [name for name in FAST_PATH_NEVER if _imported(modules, name)]


def test_a_check_the_fast_path_leaves_to_click_still_works(
    one_record_files: dict[str, Path], tmp_path: Path
) -> None:
    # "--" is not read by the fast path: click reads that command line.
    modules, out, _ = _run(tmp_path, "check", "--", str(one_record_files["cave"]))
    assert out == "1 record in 1 file: 1 valid, 0 broken\n"
    assert _imported(modules, "click") and _imported(modules, "notation.commands.check")
