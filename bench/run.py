"""Speed and memory of reading and checking records, side by side with python-chess.

One run, printed as it goes:

0. start-up: ``bench/startup.py`` (``notation check`` of a one-record file of each
   game against ``python -c "import chess.pgn"``, and the costliest imports);
1. a corpus per game, made by ``notation generate`` (seeded), of about ``--turns``
   turns, and, for each, a PGN corpus of random legal chess games (played by
   python-chess, seeded, to their end or 600 plies) with the same number of plies;
2. per game, in this process, the median of ``--runs`` runs of each, taken in turn:

   - *read*: the reader builds every record's tree and the game parses every move
     token of it (``game.parse``, memoised as in a check): all the text is understood,
     no rule is applied;
   - *read+check*: the reader and ``check_record`` on every record, which replays
     every move through the rules: what ``notation check`` does;
   - *python-chess*: ``chess.pgn.read_game`` until the end of its corpus (it parses
     every SAN move and plays it on a board, so it reads and checks legality);

   as turns (plies) per second of processor time (a machine shared with other work
   then changes the figures little), the ratio read+check / python-chess, and the
   peak of Python memory (tracemalloc) of one read+check and one python-chess read;
3. per game, whole processes (start-up included): ``notation check --jobs 1`` on the
   corpus and on the same games with comments, glyphs and variations added (every
   5th, 7th, 10th move), and a python-chess process reading its corpus: processor
   time, turns per second, peak resident memory and the ratio;
4. the other commands, one process each on each corpus (convert to each format,
   annotate, select, dedup, split, stats, html, and analyze of two positions):
   processor time, turns per second and peak resident memory;
5. ``notation check --jobs 1`` and ``--jobs 2`` on a file of ``--jobs-mb`` MB (the
   three corpora repeated): wall time, median of ``--runs`` runs, and the speed-up
   (which needs two idle cores: the load average is printed first);
6. every command a user reads records with (``check --jobs 1``, ``convert --to text``,
   ``convert --to json``, ``annotate``) on each game's records in every layout of
   ``bench/layouts.py`` (canonical, wrapped at 80 columns, one token per line, and
   with comments, glyphs, NAGs, variations, mixed case and lines of 24 to 255
   columns), after checking that each layout gets the same verdicts and converts to
   the same text: one process each, processor time, turns per second, the runs
   interleaved with a python-chess process on the game's chess corpus; then the
   worst layout of each command and its ratio to python-chess per core
   (``--no-layouts`` skips it, ``--layouts-only`` runs the corpora and this alone;
   ``bench/compare_old.py`` sets the same runs side by side with older code);
7. with ``--big-gb G`` (1 by default, 0 skips it): ``notation check --jobs 1`` and
   ``--jobs 2`` on a file of G GB made the same way in the temporary folder (deleted
   afterwards): wall time and peak memory, of the largest process (resident set) and
   of all of them together (proportional set size, sampled).

    python3 bench/run.py                  # the full run: about 15 minutes
    python3 bench/run.py --quick          # small corpora, no big file: under a minute
    python3 bench/run.py --turns 500000 --runs 7 --big-gb 0
    python3 bench/run.py --layouts-only --turns 100000 --runs 3

python-chess is the optional dependency ``bench`` (``pip install '.[bench]'``).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

try:
    import chess
    import chess.pgn
except ImportError:  # the comparison is skipped, with a word why
    chess = None  # type: ignore[assignment]

from layouts import LAYOUTS, PLAIN_LAYOUTS, lay_out, rich

from notation.games import game_names, get_game
from notation.reader import read_file, visit_records
from notation.replay import Replay, check_record
from notation.writer import write_record

NOTATION = [sys.executable, "-m", "notation"]
#: Players of the generated Zombie Kidz games (3 makes longer games than 2).
PLAYERS = {"zombie-kidz": 3}
#: Random chess games end by the rules or here (python-chess's own draws included).
CHESS_MAX_PLIES = 600


# -- corpora ------------------------------------------------------------------------


@dataclass
class Corpus:
    game: str
    path: Path
    records: int
    turns: int


def generate(game: str, count: int, path: Path, seed: int) -> None:
    command = [*NOTATION, "generate", "--game", game, "--games", str(count)]
    command += ["--seed", str(seed), "-o", str(path)]
    if game in PLAYERS:
        command += ["--players", str(PLAYERS[game])]
    subprocess.run(command, check=True)


def count_turns(path: Path) -> tuple[int, int]:
    records = turns = 0
    for record in read_file(path):
        records += 1
        turns += len(record.moves)
    return records, turns


def make_corpus(game: str, turns: int, folder: Path, seed: int) -> Corpus:
    """About ``turns`` turns of ``game``: a pilot run sizes the real one (the first games
    of a run are those of a shorter one with the same seed)."""
    pilot = folder / f"{game}-pilot.txt"
    generate(game, 50, pilot, seed)
    _, pilot_turns = count_turns(pilot)
    pilot.unlink()
    count = max(1, math.ceil(turns * 50 / max(pilot_turns, 1)))
    path = folder / f"{game}.txt"
    generate(game, count, path, seed)
    records, total = count_turns(path)
    return Corpus(game, path, records, total)


def random_chess_games(seed: int) -> Iterator[tuple[str, int]]:
    """Endless random legal chess games, as (PGN text, plies)."""
    assert chess is not None
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        board = chess.Board()
        while not board.is_game_over() and board.ply() < CHESS_MAX_PLIES:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "Random games"
        game.headers["Round"] = str(number)
        game.headers["White"] = "Random player 1"
        game.headers["Black"] = "Random player 2"
        yield str(game) + "\n\n", board.ply()


class ChessCorpora:
    """PGN files of random chess games; a longer one starts with a shorter one's games."""

    def __init__(self, folder: Path, seed: int) -> None:
        self.folder = folder
        self.games = random_chess_games(seed)
        self.texts: list[str] = []
        self.plies: list[int] = []

    def make(self, plies: int, name: str) -> tuple[Path, int, int]:
        """A file of whole games with at least ``plies`` plies: (path, games, plies)."""
        total = 0
        count = 0
        while total < plies:
            if count == len(self.texts):
                text, n = next(self.games)
                self.texts.append(text)
                self.plies.append(n)
            total += self.plies[count]
            count += 1
        path = self.folder / f"chess-{name}.pgn"
        path.write_text("".join(self.texts[:count]), encoding="utf-8")
        return path, count, total


# -- timing -------------------------------------------------------------------------


def cpu_time(fn: Callable[[], object]) -> float:
    """Processor time of one call: what this process spent, whatever else the machine
    runs (wall time would count the waits for a processor shared with others)."""
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def median_times(fns: Sequence[Callable[[], object]], runs: int) -> list[float]:
    """The median time of each function, runs taken in turn (a slower spell of the
    machine then touches all of them alike)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, measured in zip(fns, times, strict=True):
            measured.append(cpu_time(fn))
    return [statistics.median(measured) for measured in times]


def peak_python_memory(fn: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def read_only(corpus: Corpus) -> Callable[[], None]:
    parse = get_game(corpus.game).parse

    def run() -> None:
        for record in read_file(corpus.path):
            for node in record.moves:
                parse(node.text)

    return run


def read_and_check(corpus: Corpus) -> Callable[[], None]:
    """What ``notation check`` does: the streaming check (most moves never become nodes)."""

    def run() -> None:
        with corpus.path.open(encoding="utf-8", newline="") as handle:
            for verdict in visit_records(handle, Replay(), str(corpus.path)):
                if not verdict.ok:
                    raise SystemExit(f"a generated record is broken: {verdict.error}")

    return run


def tree_check(corpus: Corpus) -> Callable[[], None]:
    """The library's way with a record in hand: read the whole tree, then replay it."""

    def run() -> None:
        for record in read_file(corpus.path):
            verdict = check_record(record)
            if not verdict.ok:
                raise SystemExit(f"a generated record is broken: {verdict.error}")

    return run


def chess_read(path: Path) -> Callable[[], None]:
    assert chess is not None

    def run() -> None:
        with open(path, encoding="utf-8") as handle:
            while chess.pgn.read_game(handle) is not None:
                pass

    return run


# -- the command line, in subprocesses ----------------------------------------------


@dataclass
class Run:
    seconds: float
    cpu: float  # seconds of processor time, all processes of the run together
    largest_rss: int  # bytes: the largest process's resident set (the kernel's count)
    total: int  # bytes: all processes of the run together (PSS, sampled every 50 ms)
    stdout: bytes


def _tree_memory(root: int) -> int:
    """Memory of ``root`` and all its descendants, from /proc (0 elsewhere): the sum of
    their proportional set sizes (shared pages counted once in all), or of their
    resident sets where the kernel gives no PSS."""
    children: dict[int, list[int]] = {}
    try:
        entries = [int(e) for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return 0
    for pid in entries:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                ppid = int(f.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(pid)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += _process_memory(pid)
        todo.extend(children.get(pid, ()))
    return total


def _process_memory(pid: int) -> int:
    for name, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            with open(f"/proc/{pid}/{name}", encoding="ascii", errors="replace") as f:
                for line in f:
                    if line.startswith(key):
                        return int(line.split()[1]) * 1024
        except OSError:
            continue
    return 0


#: Runs a command and writes its peak resident memory (ru_maxrss) to the file named
#: first.  The command must not be a child of this process: Linux counts in a child's
#: peak the memory of the process it was forked from (this one holds the corpora), so
#: a small launcher forks it instead.
_LAUNCHER = """
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    out.write(f"{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}")
sys.exit(code)
"""


def run_check(args: list[str], out: Path) -> Run:
    """``notation check ARGS`` with stdout to ``out``: time and peak memory."""
    return run_process([*NOTATION, "check", *args], out)


def run_process(argv: list[str], out: Path, *, codes: tuple[int, ...] = (0, 1)) -> Run:
    """The command ``argv`` with stdout to ``out``: wall time, processor time and peak
    memory of it and its children."""
    peak_file = out.with_suffix(".peak")
    command = [sys.executable, "-c", _LAUNCHER, str(peak_file), *argv]
    with out.open("wb") as sink:
        start = time.perf_counter()
        launcher = subprocess.Popen(command, stdout=sink, stderr=subprocess.DEVNULL)
        peak_total = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak_total
            while not done.wait(0.05):
                memory = _tree_memory(launcher.pid) - _process_memory(launcher.pid)
                peak_total = max(peak_total, memory)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = launcher.wait()
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
    if code not in codes:
        raise SystemExit(f"{' '.join(argv)} failed ({code})")
    # ru_maxrss is in KiB on Linux (bytes on macOS).
    scale = 1 if sys.platform == "darwin" else 1024
    maxrss, cpu = peak_file.read_text().split()
    return Run(seconds, float(cpu), int(maxrss) * scale, peak_total, out.read_bytes())


def concatenate(corpora: list[Corpus], path: Path, size: int) -> int:
    """The corpora's records, repeated until the file holds ``size`` bytes; its records."""
    texts = [c.path.read_text(encoding="utf-8") for c in corpora]
    block = "".join(text if text.endswith("\n\n") else text + "\n" for text in texts)
    per_block = sum(c.records for c in corpora)
    data = block.encode("utf-8")
    written = records = 0
    with path.open("wb") as out:
        while written < size:
            out.write(data)
            written += len(data)
            records += per_block
    return records


def enrich(corpus: Corpus, folder: Path) -> Corpus:
    """The corpus with what real annotated records carry: a comment after every fifth
    move (with brackets and quotes in it), a glyph on every seventh, and a one-move
    variation on every tenth (the move itself, from the position before it: legal)."""
    path = folder / f"{corpus.game}-annotated.txt"
    with path.open("w", encoding="utf-8") as out:
        for i, record in enumerate(read_file(corpus.path)):
            for turn, node in enumerate(record.moves, 1):
                if turn % 5 == 0:
                    node.comment = f'turn {turn}: the usual [plan] with a "quote"'
                if turn % 7 == 0 and not node.suffix:
                    node.suffix = "!?"
                if turn % 10 == 0:
                    node.add_variation([node.text])
            out.write(("\n" if i else "") + write_record(record))
    return Corpus(f"{corpus.game}+notes", path, corpus.records, corpus.turns)


#: A whole python-chess process reading a PGN file: what ``notation check --jobs 1`` is
#: compared with (start-up included on both sides).
_CHESS_PROCESS = """
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8") as handle:
    while chess.pgn.read_game(handle) is not None:
        pass
"""


def chess_process(path: Path, out: Path) -> Run:
    return run_process([sys.executable, "-c", _CHESS_PROCESS, str(path)], out, codes=(0,))


def command_runs(corpus: Corpus, folder: Path) -> Iterator[tuple[str, Run]]:
    """The other commands on ``corpus``, one process each: (command line, run)."""
    name = str(corpus.path)
    out = folder / "command.out"
    split_to = folder / "split"
    commands = [
        ["check", "--jobs", "1", name],
        ["convert", "--to", "text", name],
        ["convert", "--to", "json", name],
        ["convert", "--to", "plain", name],
        ["annotate", name],
        ["select", "--valid", name],
        ["select", "--tag-match", "Round=7", name],
        ["dedup", name],
        ["split", "--every", "500", "-d", str(split_to), "--force", name],
        ["stats", "--jobs", "1", name],
        ["html", "--jobs", "1", name],
    ]
    for args in commands:
        run = run_process([*NOTATION, *args], out)
        shutil.rmtree(split_to, ignore_errors=True)
        shown = " ".join("FILE" if a == name else "DIR" if a == str(split_to) else a for a in args)
        yield shown, run
    first = next(iter(read_file(corpus.path)))
    for turn in (len(first.moves) // 3, 2 * len(first.moves) // 3):
        args = ["analyze", name, "--record", "1", "--turn", str(turn)]
        yield " ".join(a if a != name else "FILE" for a in args), run_process(
            [*NOTATION, *args], out, codes=(0, 1, 2)
        )


# -- layouts: the same records as users have them -----------------------------------

#: The commands measured on every layout: (name in the tables, arguments before FILE).
LAYOUT_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("check", ("check", "--jobs", "1")),
    ("convert text", ("convert", "--to", "text")),
    ("convert json", ("convert", "--to", "json")),
    ("annotate", ("annotate",)),
)


@dataclass(frozen=True, slots=True)
class LaidOut:
    """One game's corpus in one layout of ``bench/layouts.py``, as a ``.ugn`` file."""

    game: str
    layout: str
    path: Path
    turns: int


def canonical_corpus(corpus: Corpus, folder: Path) -> Path:
    """The corpus as ``convert --to text`` writes it: the canonical layout."""
    path = folder / f"{corpus.game}-canonical.ugn"
    with path.open("wb") as out:
        subprocess.run([*NOTATION, "convert", "--to", "text", str(corpus.path)],
                       stdout=out, check=True)
    return path


def lay_out_corpus(corpus: Corpus, folder: Path, seed: int) -> list[LaidOut]:
    """The corpus in every layout, the canonical one first."""
    canonical = canonical_corpus(corpus, folder)
    text = canonical.read_bytes().decode("utf-8")
    laid = [LaidOut(corpus.game, "canonical", canonical, corpus.turns)]
    for layout in LAYOUTS[1:]:
        path = folder / f"{corpus.game}-{layout}.ugn"
        path.write_bytes(lay_out(layout, text, seed).encode("utf-8"))
        laid.append(LaidOut(corpus.game, layout, path, corpus.turns))
    return laid


def _output(argv: list[str]) -> bytes:
    done = subprocess.run(argv, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode})")
    return done.stdout


def _verdicts(notation: Sequence[str], path: Path) -> list[dict[str, object]]:
    """Every record's verdict, as ``check -v --format json`` gives it, without the file."""
    lines = _output([*notation, "check", "-v", "--format", "json", str(path)]).splitlines()
    verdicts = [json.loads(line) for line in lines]
    for verdict in verdicts:
        verdict.pop("file", None)
    return verdicts


def verify_layouts(
    laid: Sequence[LaidOut], seed: int, folder: Path, notation: Sequence[str] = NOTATION
) -> None:
    """Stops the run unless every layout means what the canonical text means, as read
    by ``notation`` (this code or an older one): the same verdicts, record by record;
    ``convert --to text`` of a layout that adds nothing gives the same bytes as of the
    canonical text (for this code, the canonical text itself), and of the rich layout
    the same bytes as of that layout with every move in the canonical case."""
    canonical = laid[0]
    expected_verdicts = _verdicts(notation, canonical.path)
    expected_text = _output([*notation, "convert", "--to", "text", str(canonical.path)])
    if notation == NOTATION and expected_text != canonical.path.read_bytes():
        raise SystemExit(f"{canonical.game}: convert --to text changes canonical text")
    if not all(v.get("ok") for v in expected_verdicts):
        raise SystemExit(f"{canonical.game}: a generated record is broken")
    for each in laid:
        if _verdicts(notation, each.path) != expected_verdicts:
            raise SystemExit(f"{each.game} {each.layout}: verdicts differ from canonical")
        converted = _output([*notation, "convert", "--to", "text", str(each.path)])
        if each.layout in PLAIN_LAYOUTS:
            if converted != expected_text:
                raise SystemExit(f"{each.game} {each.layout}: converts to other text")
        elif each.layout == "rich":
            reference = folder / f"{each.game}-rich-reference.ugn"
            text = expected_text.decode("utf-8")
            reference.write_bytes(rich(text, seed, mixed_case=False).encode("utf-8"))
            wanted = _output([*notation, "convert", "--to", "text", str(reference)])
            reference.unlink()
            if converted != wanted:
                raise SystemExit(f"{each.game} rich: mixed case converts to other text")


def measure_layouts(
    laid: Sequence[LaidOut],
    sides: Mapping[str, Sequence[str]],
    chess_files: dict[str, tuple[Path, int, int]],
    runs: int,
    folder: Path,
) -> tuple[dict[tuple[str, str, str, str], list[Run]], dict[str, list[float]]]:
    """Every command of :data:`LAYOUT_COMMANDS` on every corpus of ``laid``, one process
    each, for each side (a name and how it runs ``notation``), ``runs`` times; a run
    takes them all in turn, the sides in alternate order, with a python-chess process on
    each game's chess corpus, so that a slow spell of the machine touches all alike.

    Returns the runs by (side, game, layout, command) and the processor times of the
    python-chess processes by game."""
    measured: dict[tuple[str, str, str, str], list[Run]] = {}
    chess_cpu: dict[str, list[float]] = {}
    names = list(sides)
    for number in range(runs):
        order = names if number % 2 == 0 else names[::-1]
        for each in laid:
            if each.layout == LAYOUTS[0] and each.game in chess_files:
                run = chess_process(chess_files[each.game][0], folder / "c.txt")
                chess_cpu.setdefault(each.game, []).append(run.cpu)
            for command, args in LAYOUT_COMMANDS:
                for side in order:
                    argv = [*sides[side], *args, str(each.path)]
                    run = run_process(argv, folder / "layout.out")
                    key = (side, each.game, each.layout, command)
                    measured.setdefault(key, []).append(run)
        print(f"  run {number + 1} of {runs} done", flush=True)
    return measured, chess_cpu


def median_cpu(runs: Sequence[Run]) -> float:
    return statistics.median(r.cpu for r in runs)


def print_layout_table(
    laid: Sequence[LaidOut],
    measured: dict[tuple[str, str, str, str], list[Run]],
    chess_cpu: dict[str, list[float]],
    chess_files: dict[str, tuple[Path, int, int]],
    side: str = "new",
) -> None:
    """Turns per second of processor time of every command on every layout, with the
    ratio to python-chess's plies per second (both one core), then each command's
    worst layout per game."""
    width = 17
    print(f"{'game':12} {'layout':12}" + "".join(f"{c:>{width}}" for c, _ in LAYOUT_COMMANDS))
    chess_rate: dict[str, float] = {}
    for game, times in chess_cpu.items():
        chess_rate[game] = chess_files[game][2] / statistics.median(times)

    def cell(each: LaidOut, command: str) -> tuple[float, str]:
        speed = each.turns / median_cpu(measured[side, each.game, each.layout, command])
        theirs = chess_rate.get(each.game)
        ratio = f" {speed / theirs:5.1f}x" if theirs else ""
        return speed, f"{rate(speed)}{ratio}"

    for each in laid:
        cells = [cell(each, command)[1] for command, _ in LAYOUT_COMMANDS]
        print(f"{each.game:12} {each.layout:12}" + "".join(f"{c:>{width}}" for c in cells))
    wide = 26
    print("the worst layout of each command: turns/s, ratio to python-chess per core")
    print(f"{'game':12}" + "".join(f"{c:>{wide}}" for c, _ in LAYOUT_COMMANDS))
    for game in dict.fromkeys(each.game for each in laid):
        line = f"{game:12}"
        for command, _ in LAYOUT_COMMANDS:
            worst = min((each for each in laid if each.game == game),
                        key=lambda each, c=command: cell(each, c)[0])
            line += f"{worst.layout + ' ' + cell(worst, command)[1]:>{wide}}"
        print(line)
    if chess_rate:
        print("python-chess: " + ", ".join(f"{g} {rate(r)} plies/s"
                                           for g, r in chess_rate.items()))


def layout_section(
    corpora: Sequence[Corpus],
    chess_files: dict[str, tuple[Path, int, int]],
    runs: int,
    seed: int,
    folder: Path,
) -> None:
    section(f"every layout: {', '.join(c for c, _ in LAYOUT_COMMANDS)} "
            f"(one process each, processor time, median of {runs} runs)")
    print(
        "layouts (bench/layouts.py): canonical = convert --to text; wrapped = 80 columns, "
        "a move number\nmay end a line; token-lines = one token per line; rich = comments, "
        "glyphs, NAGs, variations,\nescape lines, mixed case, lines of 24 to 255 columns. "
        "Cells: turns/s, and the ratio to\npython-chess's plies/s (read_game, a process "
        "of its own, in the same runs)"
    )
    laid = [each for corpus in corpora for each in lay_out_corpus(corpus, folder, seed)]
    for game in dict.fromkeys(each.game for each in laid):
        verify_layouts([each for each in laid if each.game == game], seed, folder)
    print("every layout checked: the same verdicts; converts to the same text", flush=True)
    measured, chess_cpu = measure_layouts(laid, {"new": NOTATION}, chess_files, runs, folder)
    print_layout_table(laid, measured, chess_cpu, chess_files)


# -- the report ---------------------------------------------------------------------


def mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def rate(n: float) -> str:
    return f"{n:,.0f}"


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--turns", type=int, default=200_000, help="turns per game corpus")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median)")
    parser.add_argument("--game", action="append", choices=game_names(), help="(repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs-mb", type=int, default=64, help="file size for --jobs timing")
    parser.add_argument(
        "--big-gb", type=float, default=None, help="size of the big file (0: skip; default 1)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="30,000 turns, 3 runs, 8 MB for --jobs, no big file"
    )
    parser.add_argument(
        "--no-layouts", dest="layouts", action="store_false",
        help="skip the commands on every layout of the records",
    )
    parser.add_argument(
        "--layouts-only", action="store_true",
        help="make the corpora and time the commands on every layout, nothing else",
    )
    args = parser.parse_args()
    if args.quick:
        args.turns, args.runs, args.jobs_mb = 30_000, 3, 8
    big_gb = args.big_gb if args.big_gb is not None else 0.0 if args.quick else 1.0
    games = args.game or game_names()

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {sys.platform}")
    if chess is None:
        print("python-chess is not installed (pip install '.[bench]'): no comparison")
    else:
        print(f"python-chess {chess.__version__}")

    with tempfile.TemporaryDirectory(prefix="notation-bench-") as tmp:
        folder = Path(tmp)
        # Every process of the run keeps compiled bytecode, as an installed package does
        # (an environment with PYTHONDONTWRITEBYTECODE would compile every module of
        # every process again: about 90 ms each).
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")

        if not args.layouts_only:
            section("start-up (bench/startup.py)")
            subprocess.run(
                [sys.executable, str(Path(__file__).with_name("startup.py")),
                 "--runs", str(max(args.runs * 2, 10)), "--top", "12"],
                check=True,
            )
        section("corpora (notation generate; python-chess random games, same plies)")
        corpora: list[Corpus] = []
        chess_files: dict[str, tuple[Path, int, int]] = {}
        chess_corpora = ChessCorpora(folder, args.seed) if chess is not None else None
        for game in games:
            corpus = make_corpus(game, args.turns, folder, args.seed)
            corpora.append(corpus)
            line = (
                f"{game:12} {corpus.records:6} records {corpus.turns:8} turns "
                f"{mb(corpus.path.stat().st_size):>9}"
            )
            if chess_corpora is not None:
                path, count, plies = chess_corpora.make(corpus.turns, game)
                chess_files[game] = (path, count, plies)
                line += f" | chess {count:5} games {plies:8} plies {mb(path.stat().st_size):>9}"
            print(line, flush=True)
        if args.layouts_only:
            layout_section(corpora, chess_files, args.runs, args.seed, folder)
            return

        section(f"in process, one core, median of {args.runs} runs (turns or plies per second)")
        print(
            "read = records and moves parsed; tree check = read_file and check_record "
            "(the whole tree\nbuilt, then replayed); read+check = visit_records with a Replay, "
            "what notation check does;\npython-chess = chess.pgn.read_game (SAN parsed, "
            "legality checked);\nprocessor time of this process, the four taken in turn; "
            "peak = tracemalloc"
        )
        header = (
            f"{'game':12} {'read':>10} {'tree check':>11} {'read+check':>11} "
            f"{'python-chess':>13} {'ratio':>6} {'peak ours':>10} {'peak chess':>11}"
        )
        print(header)
        for corpus in corpora:
            fns = [read_only(corpus), tree_check(corpus), read_and_check(corpus)]
            if corpus.game in chess_files:
                path, _, plies = chess_files[corpus.game]
                fns.append(chess_read(path))
            times = median_times(fns, args.runs)
            read, tree = corpus.turns / times[0], corpus.turns / times[1]
            check = corpus.turns / times[2]
            peak = peak_python_memory(read_and_check(corpus))
            line = f"{corpus.game:12} {rate(read):>10} {rate(tree):>11} {rate(check):>11}"
            if len(times) == 4:
                theirs = plies / times[3]
                chess_peak = peak_python_memory(chess_read(path))
                line += f" {rate(theirs):>13} {check / theirs:>5.1f}x {mb(peak):>10}"
                line += f" {mb(chess_peak):>11}"
            else:
                line += f" {'-':>13} {'-':>6} {mb(peak):>10}"
            print(line, flush=True)

        section("whole process, one core: notation check --jobs 1 and a python-chess process")
        print(
            "start-up included on both sides; processor time (user+sys) of the process, "
            f"median of {args.runs} runs;\n+notes: the same games with a comment every 5 "
            "moves, a glyph every 7, a variation every 10"
        )
        print(
            f"{'corpus':18} {'turns':>9} {'ours/s':>10} {'peak':>9} "
            f"{'chess/s':>10} {'peak':>9} {'ratio':>6}"
        )
        noted = [enrich(corpus, folder) for corpus in corpora]
        for corpus in [*corpora, *noted]:
            ours = [run_check(["--jobs", "1", str(corpus.path)], folder / "o.txt")
                    for _ in range(args.runs)]
            cpu = statistics.median(r.cpu for r in ours)
            line = (
                f"{corpus.game:18} {corpus.turns:9} {rate(corpus.turns / cpu):>10} "
                f"{mb(max(r.largest_rss for r in ours)):>9}"
            )
            game = corpus.game.removesuffix("+notes")
            if game in chess_files:
                path, _, plies = chess_files[game]
                chess_runs = [chess_process(path, folder / "c.txt") for _ in range(args.runs)]
                chess_cpu = statistics.median(r.cpu for r in chess_runs)
                ratio = (corpus.turns / cpu) / (plies / chess_cpu)
                line += (
                    f" {rate(plies / chess_cpu):>10} "
                    f"{mb(max(r.largest_rss for r in chess_runs)):>9} {ratio:>5.1f}x"
                )
            print(line, flush=True)

        section("the other commands, one process each (processor time, peak resident memory)")
        for corpus in corpora:
            print(f"{corpus.game}: {corpus.records} records, {corpus.turns} turns, "
                  f"{mb(corpus.path.stat().st_size)}")
            check_cpu = 0.0
            for shown, run in command_runs(corpus, folder):
                check_cpu = check_cpu or run.cpu  # the first command is check
                speed = f"{rate(corpus.turns / run.cpu):>10} turns/s"
                ratio = f"{run.cpu / check_cpu:5.2f}x check"
                if shown.startswith("analyze"):
                    speed, ratio = f"{'':>10} one position", ""
                print(f"  {shown:44} {run.cpu:7.2f} s {speed} {mb(run.largest_rss):>9} "
                      f"{ratio}", flush=True)

        section(f"notation check --jobs N on {args.jobs_mb} MB, median of {args.runs} runs")
        mid = folder / "jobs.txt"
        records = concatenate(corpora, mid, args.jobs_mb * 1_000_000)
        print(f"{mb(mid.stat().st_size)}, {records} records")
        print(f"load average before: {os.getloadavg()[0]:.2f} (wall times need idle cores)")
        runs: dict[int, list[Run]] = {1: [], 2: []}
        for _ in range(args.runs):
            for jobs in (1, 2):  # in turn, as above
                runs[jobs].append(run_check(["--jobs", str(jobs), str(mid)], folder / "o.txt"))
        seconds = {}
        for jobs in (1, 2):
            seconds[jobs] = statistics.median(r.seconds for r in runs[jobs])
            cpu = statistics.median(r.cpu for r in runs[jobs])
            print(
                f"--jobs {jobs}: {seconds[jobs]:6.2f} s, "
                f"{mid.stat().st_size / seconds[jobs] / 1e6:5.1f} MB/s, "
                f"processor time {cpu:6.2f} s", flush=True
            )
        same = all(r.stdout == runs[1][0].stdout for r in runs[1] + runs[2])
        print(
            f"speed-up --jobs 2 / --jobs 1: {seconds[1] / seconds[2]:.2f}x "
            f"(output {'identical' if same else 'DIFFERENT'})"
        )
        mid.unlink()

        if args.layouts:
            layout_section(corpora, chess_files, args.runs, args.seed, folder)

        if big_gb > 0:
            big_size = int(big_gb * 1e9)
            # The big file goes to the system's temporary folder too; it is deleted below.
            section(f"a {big_gb:g} GB file: notation check, peak memory")
            free = shutil.disk_usage(folder).free
            if free < big_size * 1.2:
                print(f"skipped: {mb(free)} free in {folder}")
                return
            big = folder / "big.txt"
            start = time.perf_counter()
            records = concatenate(corpora, big, big_size)
            print(
                f"{mb(big.stat().st_size)}, {records} records, "
                f"written in {time.perf_counter() - start:.0f} s", flush=True
            )
            try:
                for jobs in (1, 2):
                    run = run_check(["--jobs", str(jobs), str(big)], folder / "out.txt")
                    print(
                        f"--jobs {jobs}: {run.seconds:6.0f} s (processor {run.cpu:.0f} s), "
                        f"{big.stat().st_size / run.seconds / 1e6:5.1f} MB/s, peak memory "
                        f"{mb(run.largest_rss)} (largest process, resident), "
                        f"{mb(run.total)} (all processes, proportional)",
                        flush=True,
                    )
            finally:
                big.unlink()


if __name__ == "__main__":
    main()
