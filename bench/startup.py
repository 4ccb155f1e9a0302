"""Start-up time of the command line, side by side with ``import chess.pgn``.

``notation check`` of a one-record file is almost all start-up: the interpreter,
the imports, the grammar of the record's game.  This script prints, for each
command, the median and the minimum of ``--runs`` runs (each a new process, started
with :mod:`subprocess`, its output to a pipe) in wall time and in processor time
(which a machine shared with other work changes less), each median divided by that
of ``python -c "import chess.pgn"``, and the load average; then the imports that
cost most in ``notation check`` of a one-record file (``python -X importtime``,
cumulative microseconds).

    python3 bench/startup.py              # 20 runs each
    python3 bench/startup.py --runs 50 --top 25
    python3 bench/startup.py --cold       # no cache of compiled grammars

The one-record files are the first record of each ``records/GAME/examples.ugn``
(``notation select --records 1``), in a temporary folder.  Every command runs with
Python's bytecode cache, as an installed package has it, kept in that folder
(``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE`` is dropped, or each run would
compile every module again), and with the cache of compiled grammars of a user who
ran the toolkit before (``NOTATION_CACHE_DIR`` in that folder, filled by the
warm-up run); ``--cold`` runs each command without that cache instead.
python-chess is the optional dependency ``bench``; without it that line is left
out.  Nothing is asserted: tests/test_startup_imports.py fails instead when a check
imports what it must not.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
#: The environment of every command run (see the module's docstring), set by main().
ENV: dict[str, str] = {}


def _notation_script() -> str | None:
    """The installed ``notation`` entry point beside this interpreter, if any."""
    beside = Path(PYTHON).parent / "notation"
    if beside.is_file():
        return str(beside)
    return shutil.which("notation")


def _cpu() -> float:
    """Processor time (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall times and processor times in seconds of ``runs`` runs of ``command`` (after
    one warm-up run).  Processor time moves less than wall time on a busy machine."""
    wall: list[float] = []
    cpu: list[float] = []
    for index in range(runs + 1):
        cpu_start = _cpu()
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False, cwd=ROOT, env=ENV)
        elapsed = time.perf_counter() - start
        if index:  # the first run only warms the caches
            wall.append(elapsed)
            cpu.append(_cpu() - cpu_start)
    return wall, cpu


def _one_record_files(folder: Path, script: list[str]) -> dict[str, Path]:
    """A file holding the first record of each game's examples, by game folder name."""
    made: dict[str, Path] = {}
    for examples in sorted(ROOT.glob("records/*/examples.ugn")):
        game = examples.parent.name
        out = folder / f"{game}.txt"
        subprocess.run(
            [*script, "select", "--records", "1", "-q", "-o", str(out), str(examples)],
            check=True,
            cwd=ROOT,
            env=ENV,
        )
        made[game] = out
    return made


def _has_chess() -> bool:
    probe = subprocess.run([PYTHON, "-c", "import chess.pgn"], capture_output=True, check=False)
    return probe.returncode == 0


def _importtime(command: list[str], top: int) -> list[tuple[int, int, str]]:
    """The ``top`` imports of ``command`` by cumulative time: (cumulative µs, self µs,
    module), as ``python -X importtime`` reports them (the lowest of three runs each)."""
    best: dict[str, tuple[int, int]] = {}
    for _ in range(3):
        done = subprocess.run(
            [PYTHON, "-X", "importtime", *command],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
            env=ENV,
        )
        for line in done.stderr.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            own, cumulative, name = line[len("import time:") :].split("|", 2)
            key = name.rstrip()
            entry = (int(cumulative), int(own))
            if key not in best or entry[0] < best[key][0]:
                best[key] = entry
    ranked = sorted(best.items(), key=lambda item: item[1][0], reverse=True)
    return [(cum, own, name) for name, (cum, own) in ranked[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command")
    parser.add_argument("--top", type=int, default=20, help="imports listed")
    parser.add_argument(
        "--cold", action="store_true", help="no cache of compiled grammars (a first run)"
    )
    args = parser.parse_args()

    script_path = _notation_script()
    script = [script_path] if script_path else [PYTHON, "-m", "notation"]
    print(f"python: {PYTHON} ({sys.version.split()[0]})")
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()}")
    print(f"runs: {args.runs} per command (after one warm-up run)")
    print()

    with tempfile.TemporaryDirectory(prefix="notation-startup-") as temp:
        ENV.update(os.environ)
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(temp, "pycache"))
        cache = Path(temp, "cache")
        if args.cold:  # a cache folder that cannot be made: under a file
            Path(temp, "file").touch()
            cache = Path(temp, "file", "cache")
        ENV["NOTATION_CACHE_DIR"] = str(cache)
        files = _one_record_files(Path(temp), script)
        commands: list[tuple[str, list[str]]] = [
            ("python -c pass", [PYTHON, "-c", "pass"]),
        ]
        chess = _has_chess()
        if chess:
            commands.append(('python -c "import chess.pgn"', [PYTHON, "-c", "import chess.pgn"]))
        commands.append(("python -c 'import notation'", [PYTHON, "-c", "import notation"]))
        commands.append(("notation --version", [*script, "--version"]))
        for game, path in files.items():
            commands.append((f"notation check {game} (1 record)", [*script, "check", str(path)]))
        for game, path in files.items():
            commands.append(
                (
                    f"python -m notation check {game}",
                    [PYTHON, "-m", "notation", "check", str(path)],
                )
            )

        reference: tuple[float, float] | None = None
        width = max(len(label) for label, _ in commands)
        print(f"{'':<{width}}  {'wall time, ms':^28}  {'processor time, ms':^28}")
        header = "   median      min  /chess.pgn"
        print(f"{'command':<{width}}  {header}  {header}")
        for label, command in commands:
            wall, cpu = _time(command, args.runs)
            medians = (statistics.median(wall), statistics.median(cpu))
            if label.startswith('python -c "import chess.pgn"'):
                reference = medians
            cells = []
            for median, times, ref in zip(
                medians, (wall, cpu), reference or (None, None), strict=True
            ):
                ratio = f"{median / ref:10.2f}" if ref else f"{'':>10}"
                cells.append(f"{median * 1000:9.1f} {min(times) * 1000:8.1f}  {ratio}")
            print(f"{label:<{width}}  {cells[0]}  {cells[1]}")
        print(f"\nload average after: {os.getloadavg()}")

        first = next(iter(files.values()))
        print(
            f"\npython -X importtime -m notation check {first.name}: "
            f"top {args.top} by cumulative time (µs, lowest of 3 runs)"
        )
        print(f"{'cumulative':>10}  {'self':>8}  module")
        for cumulative, own, name in _importtime(["-m", "notation", "check", str(first)], args.top):
            print(f"{cumulative:>10}  {own:>8}  {name}")


if __name__ == "__main__":
    main()
