#!/usr/bin/env python3
"""A fuzz campaign against the installed ``notation`` command, for a wall-clock budget.

It runs the command (``--notation PATH``, default ``notation`` on PATH) in subprocesses,
over eight families of hostile input, and prints how many runs each family made, how
many failures of each kind it met, and the time spent::

    python3 bench/fuzz_campaign.py --minutes 60 --seed 1 --out /tmp/findings \\
        --notation /tmp/fuzzbase/.venv/bin/notation

Families (``--families`` picks some, by letter):

a  mutated records (characters, bytes and tokens deleted, inserted, duplicated and
   swapped; brackets, quotes, NULs, odd Unicode, long runs, deep nesting, CR/CRLF/LF
   mixes) through check, convert (and back), annotate, select, dedup, split, stats,
   show, html and diagram, with round-trip oracles;
b  truncation of plain and compressed files (gzip, bzip2, xz, zstd) at random offsets;
c  hostile JSON Lines (wrong types, huge numbers, deep nesting, lone surrogates,
   missing and duplicate keys);
d  compressed bombs and endless input under a memory limit (RLIMIT_AS, --memory-mb);
e  SIGKILL at a random moment of a write (-o, annotate --in-place, split), then the
   original, leftover files and a rerun are checked;
f  special outputs: -o to a FIFO and to character devices made with mknod in a
   temporary folder (never a real device), symlinks for -o and --in-place;
g  file names that are not UTF-8;
h  library misuse: public functions and methods of ``notation`` called with None,
   bytes, numbers and wrong objects (by the Python beside the command, or --python).

The oracle of every run: no Python traceback, exit code 0, 1 or 2 (3 for convert
stopped by a JSON line, as docs/cli.md says), no MemoryError, output in UTF-8, and the
family's own promises (round trips keep verdicts, select/dedup/split keep records
byte for byte, an interrupted write leaves the original as it was).

Each failure is saved under ``--out`` (default ``./fuzz-findings``), one folder per
signature (the exception and its last frame in the package, or the oracle that
failed), holding a few examples: ``cmd.sh`` (run it inside the folder, with
``NOTATION=path`` if the command is not on PATH), the input files, ``stderr.txt``
and ``note.txt``; ``summary.json`` holds the counts.  A run that takes longer than
``--timeout`` seconds is killed with its process group, and the campaign always
stops after ``--minutes``.  Stdlib only: the zst cases use ``zstandard`` if this
Python has it, else the Python beside the command (it has it with the ``zstd`` extra).
"""

from __future__ import annotations

import argparse
import bz2
import contextlib
import gzip
import importlib
import json
import lzma
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
TRACEBACK = "Traceback (most recent call last)"
FAMILIES = {
    "a": "mutated records",
    "b": "truncation",
    "c": "hostile JSON Lines",
    "d": "bombs and endless input (memory limit)",
    "e": "SIGKILL during writes",
    "f": "special outputs (FIFO, devices, symlinks)",
    "g": "non-UTF-8 file names",
    "h": "library misuse",
}
#: How often each family is picked, against the others (the cheap ones more often).
WEIGHTS = {"a": 10, "b": 4, "c": 4, "d": 1, "e": 1.5, "f": 1.5, "g": 1, "h": 1}
GAMES = ("tinkertown", "cave", "zombie-kidz")


def _zstd() -> Any:
    """The zstandard module, or None: the zst cases need it."""
    try:
        return importlib.import_module("zstandard")
    except ImportError:
        return None


ZSTD = _zstd()
#: Without zstandard here, the Python beside the command (the zstd extra) compresses:
#: the command line that does it, set by :func:`main` when that Python has it.
ZSTD_PIPE: list[str] = []
_ZSTD_SCRIPT = (
    "import sys, zstandard; "
    "zstandard.ZstdCompressor(level=1).copy_stream(sys.stdin.buffer, sys.stdout.buffer)"
)


def _zstd_pipe(python: str) -> list[str]:
    """The command that compresses standard input with zstd by ``python``, or []."""
    try:
        found = subprocess.run([python, "-c", "import zstandard"], capture_output=True,
                               timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        found = False
    return [python, "-c", _ZSTD_SCRIPT] if found else []


def has_zstd() -> bool:
    return ZSTD is not None or bool(ZSTD_PIPE)

# -- running a command -----------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one run of the command did."""

    argv: tuple[str, ...]
    rc: int | None  # None: killed by the driver (timeout or a planned SIGKILL)
    stdout: bytes
    stderr: bytes
    seconds: float

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")


def _limit_memory(megabytes: int) -> Callable[[], None]:
    def apply() -> None:
        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return apply


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class Runner:
    """Runs the command with a timeout, and kills its whole process group after."""

    def __init__(self, notation: str, timeout: float, memory_mb: int, work: Path) -> None:
        self.notation = notation
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.work = work
        self.deadline = float("inf")

    def budget(self, timeout: float | None) -> float:
        left = self.deadline - time.monotonic() + 5
        return max(1.0, min(timeout or self.timeout, left))

    def start(
        self, args: Sequence[str], *, stdin: bytes | Path | int | None = None,
        memory: bool = False, cwd: Path | None = None, prefix: Sequence[str] | None = None,
    ) -> tuple[subprocess.Popen[bytes], Path, Path]:
        """Start a run; its stdout and stderr go to files, read by :meth:`finish`."""
        out = self.work / "run.stdout"
        err = self.work / "run.stderr"
        argv = [*(prefix if prefix is not None else [self.notation]), *args]
        handle: Any
        if isinstance(stdin, bytes):
            feed = self.work / "run.stdin"
            feed.write_bytes(stdin)
            handle = feed.open("rb")
        elif isinstance(stdin, Path):
            handle = stdin.open("rb")
        elif isinstance(stdin, int):
            handle = stdin
        else:
            handle = subprocess.DEVNULL
        with out.open("wb") as o, err.open("wb") as e:
            env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONFAULTHANDLER": "1"}
            proc = subprocess.Popen(
                argv, stdin=handle, stdout=o, stderr=e, cwd=cwd or self.work,
                start_new_session=True, env=env,
                preexec_fn=_limit_memory(self.memory_mb) if memory else None,
            )
        if hasattr(handle, "close"):
            handle.close()
        return proc, out, err

    def finish(
        self, proc: subprocess.Popen[bytes], out: Path, err: Path, started: float,
        timeout: float | None = None, killed: bool = False,
    ) -> Outcome:
        try:
            rc: int | None = proc.wait(self.budget(timeout))
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
            rc = None
        _kill_group(proc.pid)  # workers left behind by the command, if any
        if killed:
            rc = None
        return Outcome(tuple(map(str, proc.args)) if isinstance(proc.args, list) else (),
                       rc, _head(out), _head(err), time.monotonic() - started)

    def run(
        self, args: Sequence[str], *, stdin: bytes | Path | int | None = None,
        memory: bool = False, timeout: float | None = None, cwd: Path | None = None,
        prefix: Sequence[str] | None = None,
    ) -> Outcome:
        started = time.monotonic()
        proc, out, err = self.start(args, stdin=stdin, memory=memory, cwd=cwd, prefix=prefix)
        return self.finish(proc, out, err, started, timeout)


def _head(path: Path, limit: int = 64 << 20) -> bytes:
    with path.open("rb") as f:
        return f.read(limit)


# -- findings --------------------------------------------------------------------------


@dataclass
class Findings:
    """Failures, one count per signature, a few examples of each saved to a folder."""

    out: Path
    keep: int = 3
    counts: Counter[str] = field(default_factory=Counter)
    families: dict[str, set[str]] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)
    smallest: dict[str, int] = field(default_factory=dict)

    def add(
        self, family: str, signature: str, argv: Sequence[str], files: dict[str, bytes],
        stderr: bytes, note: str = "", work: Path | None = None, stdin: str | None = None,
    ) -> None:
        self.counts[signature] += 1
        self.families.setdefault(signature, set()).add(family)
        size = sum(len(v) for v in files.values())
        n = self.counts[signature]
        if n <= self.keep:
            name = str(n)
        elif size < self.smallest.get(signature, 1 << 62):
            name = "smallest"
        else:
            return
        self.smallest[signature] = min(size, self.smallest.get(signature, 1 << 62))
        where = self.out / _slug(signature) / name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        for fname, data in files.items():
            target = where / fname
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        shown = [_relative(a, work) for a in argv]
        line = shlex.join(shown)
        if shown and shown[0] != "python3":
            line = '"${NOTATION:-notation}" ' + shlex.join(shown[1:])
        if stdin:
            line += f" < {shlex.quote(stdin)}"
        (where / "cmd.sh").write_text(f"# {signature}\n{line}\n", encoding="utf-8",
                                      errors="surrogateescape")
        (where / "stderr.txt").write_bytes(stderr[-20000:])
        (where / "note.txt").write_text(f"family {family}: {FAMILIES[family]}\n{note}\n",
                                        encoding="utf-8", errors="backslashreplace")
        self.first.setdefault(signature, str(where))

    def save(self, runs: Counter[str], seconds: float, seed: int) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        data = {
            "seed": seed, "seconds": round(seconds, 1), "runs": dict(runs),
            "failures": {s: {"count": c, "families": sorted(self.families[s]),
                             "example": self.first.get(s)}
                         for s, c in self.counts.most_common()},
        }
        (self.out / "summary.json").write_text(json.dumps(data, indent=1) + "\n")


def _slug(signature: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", signature)[:120].strip("_")


def _relative(arg: str, work: Path | None) -> str:
    if work is not None and str(work) in arg:
        return arg.replace(str(work) + "/", "").replace(str(work), ".")
    return arg


def traceback_signature(stderr: str) -> str | None:
    """``Exception @ notation/module.py:function`` for the last traceback in stderr."""
    if TRACEBACK not in stderr:
        return None
    tail = stderr[stderr.rindex(TRACEBACK):]
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', tail)
    ours = [(f, fn) for f, fn in frames if "/notation/" in f]
    exc = "?"
    for line in reversed(tail.splitlines()):
        match = re.match(r"([A-Za-z_][\w.]*)(:|$)", line)
        if match and not line.startswith(" "):
            exc = match.group(1).rsplit(".", 1)[-1]
            break
    where = ""
    if ours:
        path, fn = ours[-1]
        where = f" @ notation/{path.rsplit('/notation/', 1)[1]}:{fn}"
    elif frames:
        where = f" @ {Path(frames[-1][0]).name}:{frames[-1][1]}"
    return f"traceback {exc}{where}"


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- seeds and mutations ---------------------------------------------------------------

ODD = (
    "(", ")", "{", "}", "[", "]", '"', "\\", ";", ".", "...", "!", "?", "!!", "$", "$12",
    "*", "-", "x", "X", ",", ":", "/", "1-0", "0-1", "1/2-1/2", "12.", "3...", " ", "\t",
    "\n", "\n\n", "\r", "\r\n", "\x00", "\x1b[2J", "\ufeff", "\u00e9", "\u200b", "\u2028",
    "\u0085", "\U0001f9df", "\udcff", "\ud800", '\n[Game "cave"]\n', '[Result "1-0"]',
    "{[%diagram 3]", "[%", '[G', '\n[G\n', "\x0c", "\x1a", "\u202e", "\uff19", "\u216b", "\u0301",
    '[Position "', '[Players "9"]\n', "$999999999999", "99999999999999999999.",
)


@dataclass(frozen=True)
class Seed:
    """One record's text and the game its file is of."""

    text: str
    game: str | None


def load_seeds(records: Path) -> list[Seed]:
    found: list[Seed] = []
    for path in sorted(records.glob("*/*.ugn")):
        game = next((g for g in GAMES if g in path.parent.name), None)
        text = path.read_text(encoding="utf-8")
        for chunk in re.split(r"\n\s*\n(?=\[)", text):
            if chunk.strip():
                found.append(Seed(chunk.rstrip("\n") + "\n", game))
    return found


def _span(rng: random.Random, text: str, longest: int = 40) -> tuple[int, int]:
    start = rng.randint(0, len(text))
    return start, min(len(text), start + rng.randint(0, longest))


def _random_text(rng: random.Random) -> str:
    alphabet = "abcdefgh12345678-x.:()[]{} \n\"RWZKS?!$%\\"
    return "".join(rng.choice(alphabet) if rng.random() < 0.8 else chr(rng.randint(0, 0x2FFF))
                   for _ in range(rng.randint(1, 8)))


def mutate(rng: random.Random, text: str) -> str:
    """One random change of ``text``."""
    op = rng.randrange(12)
    if op == 0:  # delete a span
        i, j = _span(rng, text)
        return text[:i] + text[j:]
    if op == 1:  # insert an odd piece
        i = rng.randint(0, len(text))
        piece = rng.choice(ODD) if rng.random() < 0.7 else _random_text(rng)
        return text[:i] + piece + text[i:]
    if op == 2:  # duplicate a span
        i, j = _span(rng, text)
        return text[:j] + text[i:j] + text[j:]
    if op == 3:  # swap two spans
        i, j = _span(rng, text, 20)
        k, m = _span(rng, text, 20)
        return text[:i] + text[k:m] + text[j:k] + text[i:j] + text[m:] if j <= k else text
    if op == 4:  # letter case
        i, j = _span(rng, text, 200)
        change = rng.choice((str.upper, str.lower, str.swapcase))
        return text[:i] + change(text[i:j]) + text[j:]
    if op == 5:  # a long run
        i = rng.randint(0, len(text))
        piece = rng.choice(("9", "!", "(", ")", "{", "}", "a", "x", "-", ".", "(1. d3 ", "[%a ",
                            "\n", " ", "\x00", "$1", "[", '"'))
        return text[:i] + piece * rng.choice((2, 50, 1200, 5000, rng.randint(2, 20000))) + text[i:]
    if op == 6:  # deep nesting after a token
        tokens = [m for m in re.finditer(r"[^\s(){};]+", text) if not m.group().endswith(".")]
        if not tokens:
            return text
        token = rng.choice(tokens)
        depth = rng.choice((3, 100, 1200, 5000))
        nested = f"({token.group()} " * depth + ")" * rng.choice((depth, depth - 1, 0))
        return text[: token.end()] + " " + nested + text[token.end():]
    if op == 7:  # a token deleted, doubled or swapped
        parts = re.split(r"(\s+)", text)
        words = list(range(0, len(parts), 2))
        if len(words) < 2:
            return text
        a, b = rng.choice(words), rng.choice(words)
        kind = rng.randrange(3)
        if kind == 0:
            parts[a] = ""
        elif kind == 1:
            parts[a] = parts[a] + " " + parts[a]
        else:
            parts[a], parts[b] = parts[b], parts[a]
        return "".join(parts)
    if op == 8:  # line ends
        lines = text.split("\n")
        choice = rng.randrange(4)
        if choice == 0:
            return "\r\n".join(lines)
        if choice == 1:
            return "\r".join(lines)
        return "".join(line + rng.choice(("\n", "\r\n", "\r")) for line in lines)
    if op == 9:  # a character replaced
        if not text:
            return text
        i = rng.randrange(len(text))
        return text[:i] + rng.choice((*ODD, _random_text(rng))) + text[i + 1:]
    if op == 10:  # a byte order mark, NULs, trailing text
        return rng.choice(("\ufeff" + text, text.replace(" ", "\x00", 1), text + "garbage",
                           text.rstrip("\n"), text + "\n" * rng.randint(1, 50)))
    # a tag's value changed
    tags = list(re.finditer(r'\[(\w+) "([^"\n]*)"\]', text))
    if not tags:
        return text
    tag = rng.choice(tags)
    value = rng.choice(("", "9", "-1", "0", "99999999999999999999", "x" * 300, "\u00e9",
                        "cave", "tinkertown", "zombie-kidz", "1-0", "*", "2025.13.40",
                        "1/2-1/2", "8", "\\", "a\"b"))
    return text[: tag.start(2)] + value + text[tag.end(2):]


def mutated_bytes(rng: random.Random, seeds: Sequence[Seed]) -> tuple[bytes, str | None]:
    """One to three mutated records, as the bytes of a file, and the first one's game."""
    picked = [rng.choice(seeds) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
    texts = []
    for seed in picked:
        text = seed.text
        for _ in range(rng.choice((1, 1, 2, 3, 4))):
            text = mutate(rng, text)
        texts.append(text)
    data = "\n".join(texts).encode("utf-8", "surrogatepass")
    if rng.random() < 0.08:  # damage at the byte level: bytes that are not UTF-8
        buf = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(buf))
            buf[at:at] = bytes([rng.choice((0x80, 0xFF, 0xC3, 0xE2, 0xF0, 0xED, 0x00))])
        data = bytes(buf)
    return data, picked[0].game


# -- the campaign ----------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One record's verdict from ``check --format json``."""

    ok: bool
    result: Any
    turns: Any


class Campaign:
    """The families, the shared checks, and the loop that runs them until the budget."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.rng = random.Random(args.seed)
        self.seed = args.seed
        self.work = Path(tempfile.mkdtemp(prefix="fuzz-campaign-"))
        self.runner = Runner(args.notation, args.timeout, args.memory_mb, self.work)
        self.findings = Findings(Path(args.out))
        self.runs: Counter[str] = Counter()
        self.records = Path(args.records)
        self.seeds = load_seeds(self.records)
        self.python = args.python or _python_beside(args.notation)
        self.bomb_mb = args.bomb_mb
        self.family = "a"
        self.cache: dict[str, Any] = {}
        self.verbose = args.verbose

    # -- shared checks -------------------------------------------------------------------

    def fresh(self) -> Path:
        """An empty folder for one case."""
        case = self.work / "case"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir()
        return case

    def fail(self, signature: str, outcome: Outcome | None, files: dict[str, bytes],
             note: str = "", stdin: str | None = None, argv: Sequence[str] = ()) -> None:
        if self.verbose:
            print(f"  [{self.family}] {signature}", file=sys.stderr)
        self.findings.add(
            self.family, signature, outcome.argv if outcome else argv, files,
            outcome.stderr if outcome else b"", note, self.work / "case", stdin,
        )

    def run(self, args: Sequence[str], files: dict[str, bytes], *, stdin: bytes | None = None,
            stdin_path: Path | None = None, memory: bool = False, utf8: bool = True,
            codes: tuple[int, ...] = (0, 1, 2), timeout: float | None = None,
            count: bool = True) -> Outcome | None:
        """Run the command, apply the oracle every run has, and give the outcome (None: it
        failed, and the failure is recorded)."""
        if count:
            self.runs[self.family] += 1
        outcome = self.runner.run(args, stdin=stdin if stdin is not None else stdin_path,
                                  memory=memory, timeout=timeout, cwd=self.work / "case")
        name = args[0] if args else "?"
        saved = dict(files)
        if stdin is not None:
            saved["stdin.bin"] = stdin
        where = "stdin.bin" if stdin is not None else (str(stdin_path) if stdin_path else None)
        signature = self.basic(outcome, name, utf8)
        if signature:
            self.fail(signature, outcome, saved, stdin=where)
            return None
        if outcome.rc not in codes:
            self.fail(f"exit {outcome.rc} [{name}]", outcome, saved, stdin=where)
            return None
        return outcome

    @staticmethod
    def basic(outcome: Outcome, name: str, utf8: bool) -> str | None:
        err = outcome.err
        found = traceback_signature(err)
        if found:
            return found
        if outcome.rc is None:
            return f"timeout [{name}]"
        if "MemoryError" in err:
            return f"MemoryError without traceback [{name}]"
        if outcome.rc < 0:
            return f"killed by signal {-outcome.rc} [{name}]"
        if outcome.rc not in (0, 1, 2, 3):
            return f"exit {outcome.rc} [{name}]"
        if utf8 and not _is_utf8(outcome.stdout):
            return f"stdout not UTF-8 [{name}]"
        if not _is_utf8(outcome.stderr):
            return f"stderr not UTF-8 [{name}]"
        return None

    def verdicts(self, path: str, game: str | None, files: dict[str, bytes]) -> list[Verdict]:
        args = ["check", "--format", "json", "-j", "1", *(["--game", game] if game else []), path]
        outcome = self.run(args, files)
        if outcome is None:
            return []
        found = []
        for line in outcome.stdout.decode("utf-8", "replace").splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                self.fail("check --format json: a line that is not JSON", outcome, files)
                return []
            if isinstance(item, dict) and "ok" in item:
                found.append(Verdict(bool(item["ok"]), item.get("result"), item.get("turns")))
        return found

    # -- a: mutated records --------------------------------------------------------------

    def family_a(self) -> None:
        rng = self.rng
        data, game = mutated_bytes(rng, self.seeds)
        case = self.fresh()
        src = case / "in.txt"
        src.write_bytes(data)
        files = {"in.txt": data}
        g = ["--game", game] if game and rng.random() < 0.5 else []
        utf8_in = _is_utf8(data)
        pick = rng.randrange(14)
        if pick == 0:
            opts = rng.choice(([], ["--format", "json"], ["--strict", "-v"], ["-v"]))
            self.run(["check", *opts, *g, "in.txt"], files)
        elif pick == 1:
            self.run(["check", *g, "-"], {}, stdin=data)
        elif pick in (2, 3):
            self.round_trip(g, files)
        elif pick == 4:
            self.annotate(g, files)
        elif pick in (5, 6):
            self.collections(g, files, utf8_in)
        elif pick == 7:
            to = rng.choice(("text", "plain", "json"))
            self.run(["convert", "--to", to, *g, "-"], {}, stdin=data)
        elif pick == 8:
            self.run(["stats", *rng.choice(([], ["--format", "json"])), *g, "in.txt"], files)
        elif pick in (9, 10):
            opts = rng.choice((["--turn", str(rng.randint(0, 80))], ["--position"], ["--ascii"],
                               ["--record", str(rng.randint(1, 3))], []))
            self.run(["show", *opts, *g, "in.txt"], files)
        elif pick == 11:
            out = self.run(["html", *g, "-o", "out.html", "in.txt"], files)
            if out is not None and out.rc == 0:
                page = (case / "out.html").read_bytes()
                if not _is_utf8(page):
                    self.fail("html page not UTF-8", out, files)
        else:
            turn = ["--turn", str(rng.randint(0, 60))] if rng.random() < 0.5 else []
            out = self.run(["diagram", *turn, *g, "-o", "out.svg", "in.txt"], files)
            if out is not None and out.rc == 0:
                self.check_svg((case / "out.svg").read_bytes(), out, files)

    def check_svg(self, svg: bytes, outcome: Outcome, files: dict[str, bytes]) -> None:
        try:
            ElementTree.fromstring(svg)
        except ElementTree.ParseError as exc:
            self.fail("diagram: SVG not well-formed XML", outcome, files, note=str(exc))

    def round_trip(self, g: list[str], files: dict[str, bytes]) -> None:
        """Verdicts kept by convert (text, json, plain); text a fixed point; json back to
        text gives the same text."""
        case = self.work / "case"
        game = g[1] if g else None
        before = self.verdicts("in.txt", game, files)
        to = self.rng.choice(("text", "json", "plain"))
        out = self.run(["convert", "--to", to, *g, "-o", f"conv.{to}", "in.txt"], files)
        if out is None or out.rc == 2 or not (case / f"conv.{to}").exists():
            return
        converted = (case / f"conv.{to}").read_bytes()
        if not _is_utf8(converted):
            self.fail(f"convert --to {to}: output not UTF-8", out, files)
            return
        after = self.verdicts(f"conv.{to}", game, {**files, f"conv.{to}": converted})
        if before and after:
            if len(before) != len(after):
                self.fail(f"convert --to {to} changes the number of records", out, files,
                          note=f"{len(before)} before, {len(after)} after")
            else:
                for i, (b, a) in enumerate(zip(before, after, strict=True), 1):
                    lost = b.ok and not a.ok
                    gained = to != "plain" and a.ok and not b.ok
                    if lost or gained:
                        what = "valid record broken" if lost else "broken record made valid"
                        self.fail(f"convert --to {to}: {what}", out, files,
                                  note=f"record {i}: before {b}, after {a}")
                        break
        if to == "plain":
            return
        again = self.run(["convert", "--to", "text", *g, f"conv.{to}"],
                         {**files, f"conv.{to}": converted})
        if again is None:
            return
        if to == "text" and again.stdout != converted:
            self.fail("convert --to text is not a fixed point", again,
                      {**files, "conv.text": converted})
        if to == "json":
            direct = self.run(["convert", "--to", "text", *g, "in.txt"], files, count=False)
            if direct is not None and direct.stdout != again.stdout:
                self.fail("convert json then text differs from text", again,
                          {**files, "conv.json": converted})

    def annotate(self, g: list[str], files: dict[str, bytes]) -> None:
        rng = self.rng
        opts = [*(["--diagrams", str(rng.randint(0, 3))] if rng.random() < 0.3 else []),
                *(["--analyze"] if rng.random() < 0.3 else [])]
        out = self.run(["annotate", *opts, *g, "-o", "ann.txt", "in.txt"], files)
        case = self.work / "case"
        if out is None or out.rc != 0 or not (case / "ann.txt").exists():
            return
        annotated = (case / "ann.txt").read_bytes()
        again = self.run(["annotate", *opts, *g, "ann.txt"], {**files, "ann.txt": annotated})
        if again is not None and again.rc == 0 and again.stdout != annotated:
            self.fail("annotate is not idempotent", again, {**files, "ann.txt": annotated})

    def collections(self, g: list[str], files: dict[str, bytes], utf8_in: bool) -> None:
        """split --every 1 cuts the records; select, dedup and split keep them byte for
        byte, and their counts agree with check's."""
        case = self.work / "case"
        data = files["in.txt"]
        game = g[1] if g else None
        split = self.run(["split", "--every", "1", "-q", "-p", "{n:04}.txt", "-d", "parts",
                          *g, "in.txt"], files, utf8=utf8_in)
        if split is None or split.rc != 0:
            return
        parts = [p.read_bytes() for p in sorted((case / "parts").glob("*.txt"))]
        leftovers = [p.name for p in (case / "parts").iterdir() if p.suffix != ".txt"]
        if leftovers:
            self.fail("split leaves extra files", split, files, note=" ".join(leftovers))
        why = _composed(parts, data) if utf8_in else None  # else read as Windows-1252
        if why:
            self.fail("split parts are not the input's records byte for byte", split, files,
                      note=why)
        everything = self.run(["select", "-q", *g, "in.txt"], files, utf8=utf8_in)
        if everything is None:
            return
        why = _composed(parts, everything.stdout)
        if why:
            self.fail("select of all is not the input's records byte for byte", everything,
                      files, note=why)
        verdicts = self.verdicts("in.txt", game, files)
        if len(verdicts) != len(parts):
            self.fail("split and check count records differently", split, files,
                      note=f"{len(parts)} parts, {len(verdicts)} verdicts")
            return
        which = self.rng.choice(("--valid", "--broken"))
        chosen = self.run(["select", which, "-q", *g, "in.txt"], files, utf8=utf8_in)
        if chosen is None:
            return
        want = [p for p, v in zip(parts, verdicts, strict=True) if v.ok == (which == "--valid")]
        why = _composed(want, chosen.stdout)
        if why:
            self.fail(f"select {which} differs from check's verdicts", chosen, files, note=why)
        dedup = self.run(["dedup", "-q", "-d", "dups.txt", *g, "in.txt"], files, utf8=utf8_in)
        if dedup is None:
            return
        kept, dups = dedup.stdout, _read(case / "dups.txt")
        why = _consume(parts, kept, dups)
        if why is not None:
            self.fail("dedup output is not the input records byte for byte", dedup, files,
                      note=why)
        broken = {p.strip() for p, v in zip(parts, verdicts, strict=True) if not v.ok}
        lost = [b for b in broken if b not in kept]
        if lost:
            self.fail("dedup drops a broken record with a text of its own", dedup, files,
                      note=lost[0][:400].decode("utf-8", "replace"))

    # -- b: truncation -------------------------------------------------------------------

    def bases(self) -> list[tuple[str, bytes, str | None]]:
        """The files that family b cuts: examples, a collection, JSON Lines."""
        if "bases" not in self.cache:
            found: list[tuple[str, bytes, str | None]] = []
            for path in sorted(self.records.glob("*/*.ugn")):
                game = next((g for g in GAMES if g in path.parent.name), None)
                found.append((path.parent.name + "-" + path.name, path.read_bytes(), game))
            case = self.fresh()
            for name, data, game in list(found[:]):
                if "examples" in name:
                    (case / "x.txt").write_bytes(data)
                    out = self.runner.run(["convert", "--to", "json", "x.txt"], cwd=case)
                    if out.rc == 0:
                        found.append((Path(name).with_suffix(".jsonl").name, out.stdout, game))
            self.cache["bases"] = found
        bases: list[tuple[str, bytes, str | None]] = self.cache["bases"]
        return bases

    def family_b(self) -> None:
        rng = self.rng
        name, data, game = rng.choice(self.bases())
        kind = rng.choice(("plain", "plain", "gz", "bz2", "xz", "zst" if has_zstd() else "gz"))
        packed = compress(kind, data)
        suffix = "" if kind == "plain" else "." + kind
        cut = rng.randint(0, len(packed)) if rng.random() < 0.8 else len(packed) - rng.randint(
            0, min(len(packed), 12))
        piece = packed[:cut]
        case = self.fresh()
        fname = name + suffix
        (case / fname).write_bytes(piece)
        files = {fname: piece}
        cmd = rng.choice((["check", "--format", "json", "-j", "1"], ["check"], ["stats"],
                          ["select", "--count"], ["convert", "--to", "json"],
                          ["select", "--valid", "-q"]))
        from_stdin = rng.random() < 0.15
        args = [*cmd, *(["--game", game] if game else []), "-" if from_stdin else fname]
        out = self.run(args, {} if from_stdin else files, stdin=piece if from_stdin else None,
                       utf8=_is_utf8(piece) or cmd[0] != "select",
                       codes=(0, 1, 2, 3) if cmd[0] == "convert" else (0, 1, 2))
        if out is None:
            return
        if kind != "plain" and 12 <= cut < len(packed):
            said = out.err.lower()
            if out.rc == 0 or ("damaged" not in said and "cut short" not in said):
                self.fail(f"cut-short {kind} read without a 'damaged or cut short' error"
                          f" (exit {out.rc})" + (" [stdin]" if from_stdin else ""), out,
                          files, note=f"{name}: {cut} of {len(packed)} bytes",
                          stdin="stdin.bin" if from_stdin else None)
        if kind == "plain" and cmd[:3] == ["check", "--format", "json"] and not from_stdin:
            self.truncated_verdicts(name, data, cut, out, files)

    def truncated_verdicts(self, name: str, data: bytes, cut: int, out: Outcome,
                           files: dict[str, bytes]) -> None:
        """The records wholly before the cut keep their verdicts."""
        key = "full:" + name
        if key not in self.cache:
            self.cache[key] = _json_verdicts(self.runner.run(
                [*out.argv[1:-1], "full.txt"], cwd=_write(self.work / "full", data)).stdout)
        full: list[tuple[Any, ...]] = self.cache[key]
        ends = [m.start() for m in re.finditer(rb"\n\s*\n(?=\[)", data)]
        whole = sum(1 for e in ends if e + 1 <= cut)
        got = _json_verdicts(out.stdout)
        if got[:whole] != full[:whole]:
            self.fail("truncation changes the verdict of a record before the cut", out, files,
                      note=f"{whole} whole records; full {full[:whole]} got {got[:whole]}")

    # -- c: hostile JSON Lines -------------------------------------------------------------

    def json_lines(self) -> list[str]:
        return [line for name, data, _ in self.bases() if name.endswith(".jsonl")
                for line in data.decode().splitlines() if line.strip()]

    def family_c(self) -> None:
        rng = self.rng
        lines = self.json_lines()
        out_lines = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            out_lines.append(hostile_json(rng, rng.choice(lines)))
        data = ("\n".join(out_lines) + rng.choice(("\n", "", "\r\n"))).encode(
            "utf-8", "surrogatepass")
        case = self.fresh()
        (case / "in.jsonl").write_bytes(data)
        files = {"in.jsonl": data}
        cmd = rng.choice((
            ["convert", "--to", "text"], ["convert", "--to", "plain"], ["convert", "--to", "json"],
            ["convert", "--from", "json", "--to", "text"], ["check"], ["check", "--format", "json"],
            ["show"], ["html", "-o", "out.html"], ["stats"], ["stats", "--format", "json"],
            ["select", "--valid"], ["dedup"], ["annotate"], ["diagram", "-o", "out.svg"],
        ))
        # exit 3: a conversion stopped by a JSON line that is no record (docs/cli.md)
        out = self.run([*cmd, "in.jsonl"], files,
                       codes=(0, 1, 2, 3) if cmd[0] == "convert" else (0, 1, 2))
        if out is not None and cmd[0] == "html" and (case / "out.html").exists() and not (
                _is_utf8((case / "out.html").read_bytes())):
            self.fail("html page not UTF-8", out, files)

    # -- d: bombs and endless input ------------------------------------------------------

    def bomb(self, name: str) -> Path:
        """A compressed bomb or a big file, made once."""
        path = self.findings.out / "bombs" / name  # kept: the findings name them
        if path.exists():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        mb = self.bomb_mb
        stem, _, kind = name.partition(".")
        chunk = {
            "zeros": b"\x00" * (1 << 20), "blank": b"\n" * (1 << 20), "line": b"a" * (1 << 20),
            "comment": b"x " * (1 << 19), "crs": b"\r" * (1 << 20),
            "tags": b'[Event "x"]\n' * ((1 << 20) // 12),
        }[stem]
        head = {"comment": b'[Game "cave"]\n\n1. b1 {', "tags": b'[Game "cave"]\n'}.get(stem, b"")
        total = mb if kind else 64
        if kind == "bz2":
            total = min(mb, 256)  # bzip2 is slow to make
        write_stream(path, kind, head, chunk, total)
        return path

    def family_d(self) -> None:
        rng = self.rng
        case = self.fresh()
        kinds = ["gz", "xz", "bz2", *(["zst"] if has_zstd() else [])]
        source = rng.choice(("bomb", "bomb", "plain", "devzero", "devzero-stdin", "stream"))
        cmd = rng.choice((["check"], ["check", "--format", "json"], ["stats"],
                          ["convert", "--to", "json"], ["select", "--count"], ["dedup"],
                          ["show"], ["html", "-o", "out.html"], ["annotate"],
                          ["split", "--every", "5", "-d", "parts"], ["index"]))
        files: dict[str, bytes] = {}
        stdin_path: Path | None = None
        note = ""
        if source == "bomb":
            stem = rng.choice(("zeros", "blank", "line", "comment", "crs", "tags"))
            path = self.bomb(f"{stem}.{rng.choice(kinds)}")
            target = str(path)
            note = f"{path}: {path.stat().st_size} bytes, {self.bomb_mb} MB inside " \
                   "(bench/fuzz_campaign.py's write_stream makes it)"
        elif source == "plain":
            path = self.bomb(rng.choice(("blank", "line", "crs", "tags")))
            target = str(path)
            note = f"{path.name}: {path.stat().st_size} bytes"
        elif source == "devzero":
            if cmd[0] in ("annotate", "index"):
                cmd = ["check"]  # never ask a command to write next to a real device
            target = "/dev/zero"
        elif source == "devzero-stdin":
            if cmd[0] in ("show", "index"):
                cmd = ["check"]
            target = "-"
            stdin_path = Path("/dev/zero")
        else:
            if cmd[0] in ("show", "index"):
                cmd = ["check"]
            target = "-"
            stem = rng.choice(("blank", "line", "crs"))
            path = self.bomb(stem)
            stdin_path = path
            note = f"standard input: {path.name}, {path.stat().st_size} bytes"
        if cmd[0] in ("annotate", "index") and target != "-":
            # write next to a copy, never next to the bomb kept for later runs
            link = case / Path(target).name
            shutil.copyfile(target, link)
            target = link.name
        self.runs["d"] += 1
        outcome = self.runner.run([*cmd, target], stdin=stdin_path,
                                  memory=True, timeout=max(self.runner.timeout, 120), cwd=case)
        signature = self.basic(outcome, cmd[0], utf8=False)
        if signature and source.startswith("devzero") and signature.startswith("timeout"):
            signature += " (/dev/zero never ends)"
        if signature:
            self.fail(f"{signature} (memory limit {self.runner.memory_mb} MB)", outcome, files,
                      note=note, stdin=str(stdin_path) if stdin_path else None)

    # -- e: SIGKILL during writes ---------------------------------------------------------

    def big(self) -> bytes:
        """A collection of a few hundred generated games, made once."""
        if "big" not in self.cache:
            parts = []
            for game in GAMES:
                out = self.runner.run(["generate", "--game", game, "--games", "60", "--seed",
                                       str(self.seed)], timeout=300)
                parts.append(out.stdout)
            broken = (self.records / "cave" / "broken.ugn").read_bytes()
            self.cache["big"] = b"\n".join([*parts, broken])
        big: bytes = self.cache["big"]
        return big

    KILLED = (
        ("convert", "--to", "text", "-o", "OUT", "IN"),
        ("convert", "--to", "json", "-o", "OUT", "IN"),
        ("annotate", "-o", "OUT", "IN"),
        ("annotate", "--in-place", "COPY"),
        ("select", "--valid", "-q", "-o", "OUT", "IN"),
        ("dedup", "-q", "-o", "OUT", "-d", "DUPS", "IN"),
        ("html", "-o", "OUT", "IN"),
        ("split", "--every", "40", "-q", "-d", "PARTS", "IN"),
        ("split", "--every", "40", "--force", "-q", "-d", "PARTS", "IN"),
        ("index", "COPY"),
    )

    def family_e(self) -> None:
        rng = self.rng
        data = self.big()
        template = rng.choice(self.KILLED)
        ref = self.reference(template, data)
        if ref is None:
            return
        seconds, want = ref
        case = self.fresh()
        self.setup_write_case(case, data)
        args = [{"IN": "in.txt", "OUT": "out.txt", "COPY": "copy.txt", "DUPS": "dups.txt",
                 "PARTS": "parts"}.get(a, a) for a in template]
        self.runs["e"] += 1
        started = time.monotonic()
        proc, o, e = self.runner.start(args, cwd=case)
        delay = rng.uniform(0.0, seconds * 1.1)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(delay)
        finished = proc.poll() is not None
        _kill_group(proc.pid)
        outcome = self.runner.finish(proc, o, e, started, killed=not finished)
        note = f"SIGKILL after {delay:.2f}s of about {seconds:.2f}s"
        files = {"in.txt": data}
        if finished:
            signature = self.basic(outcome, args[0], utf8=True)
            if signature:
                self.fail(signature, outcome, files, note=note)
                return
        if (case / "in.txt").read_bytes() != data:
            self.fail(f"SIGKILL: input changed [{args[0]}]", outcome, files, note=note)
        state = snapshot(case)
        for rel, content in state.items():
            expected = want.get(rel)
            base = Path(rel).name
            if rel == "in.txt" or expected == content or rel.endswith(".idx"):
                continue  # (an index holds its file's time of change: checked by the rerun)
            if rel in ("out.txt", "dups.txt") and content == b"old output\n":
                continue
            if rel == "copy.txt" and content == data:
                continue
            if expected is not None or (rel.startswith("parts/") and not base.startswith(".")):
                self.fail(f"SIGKILL leaves a partial output [{' '.join(template[:2])}]",
                          outcome, files, note=f"{note}; {rel}: {len(content)} bytes")
                continue
            if base.startswith(".") or base.endswith(".tmp"):
                # A hidden temporary file is what SIGKILL leaves of an atomic write: a note,
                # not a defect, unless a later run reads it (checked below).
                pattern = re.sub(r"[A-Za-z0-9_]{6,}", "*", base)
                self.fail(f"NOTE SIGKILL leaves a hidden temporary file {pattern} [{args[0]}]",
                          outcome, files, note=f"{note}; {rel}")
            else:
                self.fail(f"SIGKILL leaves a stray file [{args[0]}]", outcome, files,
                          note=f"{note}; {rel}")
        folder = self.run(["check", "--format", "json", "-j", "1", "."], files, count=False)
        if folder is not None:
            # a JSON line's verdict names "out.txt (raw text of JSON line 3)"
            named = {str(item[0]).split(" (", 1)[0].removeprefix("./")
                     for item in _json_files(folder.stdout)}
            extra = {n for n in named if n not in ("in.txt", "copy.txt", "out.txt", "dups.txt")
                     and not re.fullmatch(r"parts/[^./][^/]*\.txt", n)}
            if extra:
                self.fail(f"after SIGKILL a folder check reads a leftover [{args[0]}]", folder,
                          files, note=f"{note}; {sorted(extra)}")
        # what later runs do: the same command again gives the reference result, and a
        # check of the folder reads only the records it should
        again = self.run(args, files, count=False)
        if again is None:
            return
        if args[0] == "split" and "--force" not in args and any(
                k.startswith("parts/") and not Path(k).name.startswith(".")
                for k in snapshot(case)) and again.rc == 2:
            return  # split without --force refuses the parts already there: right
        # an index records its file's time of change: its bytes differ from run to run
        after = {k: v for k, v in snapshot(case).items()
                 if not Path(k).name.startswith(".") and not k.endswith(".idx")}
        wanted = {k: v for k, v in want.items()
                  if not Path(k).name.startswith(".") and not k.endswith(".idx")}
        if after != wanted:
            diff = sorted(set(after.items()) ^ set(wanted.items()))
            self.fail(f"after SIGKILL a rerun gives another result [{' '.join(template[:2])}]",
                      again, files, note=f"{note}; differing: {[k for k, _ in diff][:6]}")

    def setup_write_case(self, case: Path, data: bytes) -> None:
        (case / "in.txt").write_bytes(data)
        (case / "copy.txt").write_bytes(data)
        (case / "out.txt").write_bytes(b"old output\n")
        (case / "dups.txt").write_bytes(b"old output\n")

    def reference(self, template: tuple[str, ...], data: bytes
                  ) -> tuple[float, dict[str, bytes]] | None:
        key = "ref:" + " ".join(template)
        if key not in self.cache:
            case = self.fresh()
            self.setup_write_case(case, data)
            args = [{"IN": "in.txt", "OUT": "out.txt", "COPY": "copy.txt", "DUPS": "dups.txt",
                     "PARTS": "parts"}.get(a, a) for a in template]
            outcome = self.runner.run(args, cwd=case, timeout=300)
            if outcome.rc not in (0, 1):
                self.fail(f"reference run failed [{template[0]}]", outcome, {"in.txt": data})
                self.cache[key] = None
            else:
                self.cache[key] = (outcome.seconds, snapshot(case))
        ref: tuple[float, dict[str, bytes]] | None = self.cache[key]
        return ref

    # -- f: special outputs ---------------------------------------------------------------

    WRITERS = (
        ("html", "-o", "OUT", "IN"),
        ("convert", "--to", "json", "-o", "OUT", "IN"),
        ("convert", "--to", "text", "-o", "OUT", "IN"),
        ("annotate", "-o", "OUT", "IN"),
        ("select", "-q", "-o", "OUT", "IN"),
        ("dedup", "-q", "-o", "OUT", "IN"),
        ("dedup", "-q", "-d", "OUT", "IN"),
        ("diagram", "--format", "svg", "-o", "OUT", "IN"),
        ("generate", "--game", "cave", "--games", "3", "-o", "OUT"),
    )

    def family_f(self) -> None:
        rng = self.rng
        case = self.fresh()
        seed = rng.choice(self.seeds)
        data = ("\n".join(s.text for s in (seed, rng.choice(self.seeds)))).encode()
        if seed.game:
            data = f'[Game "{seed.game}"]\n'.encode() + data if b"[Game" not in data else data
        (case / "in.txt").write_bytes(data)
        files = {"in.txt": data}
        kind = rng.choice(("fifo", "null", "full", "zero", "symlink", "inplace-link",
                           "dangling", "stdout-link"))
        if kind == "inplace-link":
            self.in_place_link(case, data, files)
            return
        template = rng.choice(self.WRITERS)
        ref_args = [{"OUT": "ref.out", "IN": "in.txt"}.get(a, a) for a in template]
        ref = self.runner.run(ref_args, cwd=case)
        want = _read(case / "ref.out")
        args = [{"OUT": "target", "IN": "in.txt"}.get(a, a) for a in template]
        target = case / "target"
        if kind == "fifo":
            os.mkfifo(target)
            self.to_fifo(args, target, want, ref, files)
            return
        if kind in ("null", "full", "zero"):
            minor = {"null": 3, "full": 7, "zero": 5}[kind]
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
            out = self.run(args, files, codes=(0, 1, 2) if kind == "full" else (0, 1))
            mode = os.lstat(target).st_mode
            if not stat.S_ISCHR(mode):
                self.fail(f"-o to a character device replaces it [{args[0]}]", out, files,
                          note=f"a device like /dev/{kind} (made by mknod in a temporary folder)"
                          " became a regular file", argv=args)
            elif kind == "full" and out is not None and out.rc == 0 and want:
                # (with nothing to write, as dedup -d without duplicates, nothing fails)
                self.fail(f"-o to a full device says nothing [{args[0]}]", out, files)
            return
        if kind in ("symlink", "dangling"):
            real = case / "real.out"
            if kind == "symlink":
                real.write_bytes(b"old output\n")
            target.symlink_to("real.out")
            out = self.run(args, files, codes=(0, 1, 2))
            if out is None:
                return
            if not target.is_symlink():
                self.fail(f"-o to a symlink replaces the link by a file [{args[0]}]", out, files,
                          note=f"{kind} link target -> real.out")
            return
        # a link to this process's standard output
        target.symlink_to("/proc/self/fd/1")
        out = self.run(args, files, codes=(0, 1))
        if out is None:
            return
        if not target.is_symlink():
            self.fail(f"-o to a link to /proc/self/fd/1 replaces the link [{args[0]}]", out,
                      files)
        elif out.rc == ref.rc and want and out.stdout != want and args[0] != "generate":
            self.fail(f"-o to /proc/self/fd/1 writes other bytes [{args[0]}]", out, files)

    def to_fifo(self, args: list[str], fifo: Path, want: bytes, ref: Outcome,
                files: dict[str, bytes]) -> None:
        self.runs["f"] += 1
        started = time.monotonic()
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        got = bytearray()
        proc, o, e = self.runner.start(args, cwd=fifo.parent)
        try:
            while True:
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    chunk = None
                if chunk:
                    got += chunk
                    continue
                if proc.poll() is not None:
                    with contextlib.suppress(BlockingIOError):
                        while chunk := os.read(fd, 1 << 16):
                            got += chunk
                    break
                if time.monotonic() - started > self.runner.budget(None):
                    break
                time.sleep(0.005)
        finally:
            os.close(fd)
        outcome = self.runner.finish(proc, o, e, started)
        signature = self.basic(outcome, args[0], utf8=True)
        if signature:
            self.fail(signature + " (-o FIFO)", outcome, files)
            return
        if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
            self.fail(f"-o to a FIFO replaces it [{args[0]}]", outcome, files)
        elif outcome.rc == ref.rc and bytes(got) != want and args[0] != "generate":
            self.fail(f"-o to a FIFO: the reader gets other bytes [{args[0]}]", outcome, files,
                      note=f"{len(got)} bytes read, {len(want)} wanted")

    def in_place_link(self, case: Path, data: bytes, files: dict[str, bytes]) -> None:
        (case / "ref.txt").write_bytes(data)
        ref = self.runner.run(["annotate", "ref.txt"], cwd=case)
        (case / "target.txt").write_bytes(data)
        (case / "link.txt").symlink_to("target.txt")
        out = self.run(["annotate", "--in-place", "link.txt"], files)
        if out is None or out.rc not in (0, 1):
            return
        link = case / "link.txt"
        if not link.is_symlink():
            self.fail("annotate --in-place replaces a symlink by a file", out, files)
        elif (case / "target.txt").read_bytes() != ref.stdout:
            self.fail("annotate --in-place through a symlink: the target is not annotated",
                      out, files)

    # -- g: file names that are not UTF-8 -------------------------------------------------

    def family_g(self) -> None:
        rng = self.rng
        case = self.fresh()
        data, game = mutated_bytes(rng, self.seeds) if rng.random() < 0.5 else (
            rng.choice(self.seeds).text.encode(), None)
        raw = rng.choice((b"r\xe9cord-\xff.txt", b"\xff\xfe.txt", b"a\x1b[2J\xc3.txt",
                          b"\xed\xa0\x80.txt", b"caf\xc3\xa9 \x80.pgn"))
        name = os.fsdecode(raw)
        (case / name).write_bytes(data)
        files = {"in.txt": data}
        g = ["--game", game] if game else []
        cmd = rng.choice((
            ["check", "-v"], ["check", "--format", "json"], ["convert", "--to", "json"],
            ["convert", "--to", "text"], ["html", "-o", "out.html"], ["show"],
            ["diagram", "-o", "out.svg"], ["select", "--valid"], ["stats"],
            ["stats", "--format", "json"], ["split", "--every", "1", "-d", "parts"],
            ["annotate", "--in-place"], ["index"], ["dedup"], ["check", "--format", "json", "."],
            ["html", "-o", os.fsdecode(b"\xff.html")], ["select", "--to", "json"],
        ))
        args = [*cmd, *g] + ([] if cmd[-1] == "." else [name])
        out = self.run(args, files, utf8=cmd[0] != "select" or "--to" in cmd or _is_utf8(data),
                       codes=(0, 1, 2))
        note = f"the file's name is the bytes {raw!r}; its content is in.txt"
        if out is None:
            return
        for written in case.rglob("*"):
            if written.suffix in (".html", ".svg") and not _is_utf8(written.read_bytes()):
                self.fail(f"{cmd[0]}: output file not UTF-8", out, files, note=note)

    # -- h: library misuse ----------------------------------------------------------------

    def family_h(self) -> None:
        case = self.fresh()
        seed = self.rng.randrange(1 << 30)
        calls = 60
        script = case / "misuse.py"
        script.write_text(MISUSE)
        outcome = self.runner.run(
            [str(script), str(seed), str(calls), str(self.records)], cwd=case, memory=True,
            prefix=[self.python],
        )
        lines = outcome.stdout.decode("utf-8", "replace").splitlines()
        done = next((int(x.split()[1]) for x in lines if x.startswith("CALLS ")), 0)
        self.runs["h"] += max(1, done)
        if outcome.rc != 0 or not any(x.startswith("CALLS ") for x in lines):
            sig = traceback_signature(outcome.err) or f"misuse driver exit {outcome.rc}"
            last = [x for x in lines if x.startswith("CALL ")][-1:]
            self.fail(f"lib: {sig}", outcome, {}, note="last call: " + " ".join(last),
                      argv=["python3", "misuse.py", str(seed), str(calls), str(self.records)])
            return
        for line in lines:
            if not line.startswith("BAD "):
                continue
            item = json.loads(line[4:])
            signature = f"lib: {item['exc']} from {item['fn']} @ {item['frame']}"
            files = {"repro.py": (MISUSE_SETUP.replace("RECORDS", repr(str(self.records)))
                                  + item["call"] + "\n").encode()}
            self.fail(signature, None, files, note=f"{item['call']}\n-> {item['msg']}",
                      argv=["python3", "repro.py"])

    # -- the loop -------------------------------------------------------------------------

    def loop(self, minutes: float, families: str) -> float:
        start = time.monotonic()
        self.runner.deadline = start + minutes * 60
        table = {k: getattr(self, f"family_{k}") for k in families}
        weights = [WEIGHTS[k] for k in families]
        last = start
        while time.monotonic() < self.runner.deadline:
            self.family = self.rng.choices(list(table), weights)[0]
            try:
                table[self.family]()
            except Exception as exc:  # the driver's own trouble: say it, go on
                self.fail(f"driver error {type(exc).__name__} (family {self.family})", None, {},
                          note=repr(exc), argv=["fuzz_campaign.py"])
            if time.monotonic() - last > 60:
                last = time.monotonic()
                print(f"{(last - start) / 60:5.1f} min  runs {sum(self.runs.values()):6d}  "
                      f"failures {sum(self.findings.counts.values()):5d}  "
                      f"signatures {len(self.findings.counts)}", file=sys.stderr, flush=True)
        return time.monotonic() - start

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)


def _python_beside(notation: str) -> str:
    found = shutil.which(notation)
    if found:
        beside = Path(found).parent / "python"
        if beside.exists():
            return str(beside)
        first = Path(found).read_bytes()[:200].split(b"\n", 1)[0]
        if first.startswith(b"#!"):
            return first[2:].decode().strip()
    return sys.executable


def _read(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b""


def _write(folder: Path, data: bytes) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "full.txt").write_bytes(data)
    return folder


def _json_verdicts(stdout: bytes) -> list[tuple[Any, ...]]:
    found = []
    for line in stdout.decode("utf-8", "replace").splitlines():
        with contextlib.suppress(ValueError):
            item = json.loads(line)
            if isinstance(item, dict) and "ok" in item:
                found.append((item["ok"], item.get("result"), item.get("turns"),
                              json.dumps(item.get("error"), sort_keys=True)))
    return found


_BETWEEN = b" \t\r\n\f"


_BOM = b"\xef\xbb\xbf"


def _skip(whole: bytes, at: int) -> int:
    """Past the whitespace and byte-order marks from ``at``: a record written after a
    mark in the middle of a file keeps it, and where it stands in an output (at its
    start or before the record) depends on how the output was cut."""
    while True:
        if whole.startswith(_BOM, at):
            at += len(_BOM)
        elif at < len(whole) and whole[at] in _BETWEEN:
            at += 1
        else:
            return at


def _core(piece: bytes) -> bytes:
    """A record's text without the whitespace and byte-order marks around it."""
    return piece[_skip(piece, 0):].rstrip(_BETWEEN)


def _composed(pieces: list[bytes], whole: bytes) -> str | None:
    """None if ``whole`` is ``pieces`` in order, byte for byte, with only whitespace
    between them (and a byte-order mark before); else why not."""
    at = 0
    for i, piece in enumerate(pieces, 1):
        at = _skip(whole, at)
        core = _core(piece)
        if not whole.startswith(core, at):
            return f"record {i} is not there as written (at byte {at})"
        at += len(core)
    if _skip(whole, at) != len(whole):
        return f"bytes after the last record, at {at}"
    return None


def _json_files(stdout: bytes) -> list[tuple[Any, ...]]:
    found = []
    for line in stdout.decode("utf-8", "replace").splitlines():
        with contextlib.suppress(ValueError):
            item = json.loads(line)
            if isinstance(item, dict) and "file" in item:
                found.append((item["file"],))
    return found


def _consume(parts: list[bytes], kept: bytes, dups: bytes) -> str | None:
    """None if ``kept`` and ``dups`` share out the records ``parts`` in order, each byte
    for byte; else why not."""
    at_kept = at_dups = 0
    for i, part in enumerate(parts, 1):
        core = _core(part)
        at_kept, at_dups = _skip(kept, at_kept), _skip(dups, at_dups)
        if kept.startswith(core, at_kept):
            at_kept += len(core)
        elif dups.startswith(core, at_dups):
            at_dups += len(core)
        else:
            return f"record {i} is in neither output as written"
    if _skip(kept, at_kept) != len(kept) or _skip(dups, at_dups) != len(dups):
        return "bytes in the outputs that are no record of the input"
    return None


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name: content)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def compress(kind: str, data: bytes) -> bytes:
    if kind == "gz":
        return gzip.compress(data, mtime=0)
    if kind == "bz2":
        return bz2.compress(data)
    if kind == "xz":
        return lzma.compress(data)
    if kind == "zst" and ZSTD is None:
        return subprocess.run(ZSTD_PIPE, input=data, capture_output=True, check=True,
                              timeout=600).stdout
    if kind == "zst":
        compressed: bytes = ZSTD.ZstdCompressor().compress(data)
        return compressed
    return data


def write_stream(path: Path, kind: str, head: bytes, chunk: bytes, megabytes: int) -> None:
    """Write ``head`` then ``chunk`` (a megabyte) ``megabytes`` times, compressed by
    ``kind`` (gz, bz2, xz, zst; empty: plain)."""
    packer: Any
    if kind == "zst" and ZSTD is None:
        with path.open("wb") as f:
            proc = subprocess.Popen(ZSTD_PIPE, stdin=subprocess.PIPE, stdout=f)
            assert proc.stdin is not None
            proc.stdin.write(head)
            for _ in range(megabytes):
                proc.stdin.write(chunk)
            proc.stdin.close()
            proc.wait(600)
        return
    if kind == "gz":
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    elif kind == "bz2":
        packer = bz2.BZ2Compressor(1)
    elif kind == "xz":
        packer = lzma.LZMACompressor(preset=0)
    elif kind == "zst":
        packer = ZSTD.ZstdCompressor(level=1).compressobj()
    else:
        packer = None
    with path.open("wb") as f:
        for i in range(megabytes + 1):
            piece = head if i == 0 else chunk
            f.write(packer.compress(piece) if packer else piece)
        if packer:
            f.write(packer.flush())


def hostile_json(rng: random.Random, line: str) -> str:
    """A JSON Lines record made hostile: a value of the wrong type, huge or deep, a key
    missing, repeated or unknown, a lone surrogate, or a line that is no object."""
    if rng.random() < 0.08:
        return rng.choice(("null", "[]", "1", '"text"', "{}", "[" * 100000, "{" * 5000,
                           "NaN", "1e999999", '{"a": 1e999999}', "\ufeff{}", "{\"format\":",
                           "\x00", line[: rng.randint(0, len(line))]))
    obj = json.loads(line)
    values: list[Any] = [
        None, True, False, 0, -1, 1.5, 10**400, -(10**30), 1e308, float("nan"), float("inf"),
        "", "\udc00", "\ud800x", "x" * 100000, "é\x00", [], {}, [None], {"": None},
        [[]] * 3, "1. b1 *", "\u2028", {"text": "\udcff"}, ["\udc80"], "DEEP",
    ]
    for _ in range(rng.randint(1, 3)):
        parent, key = _random_place(rng, obj)
        if parent is None:
            break
        action = rng.randrange(6)
        if action == 0 and isinstance(parent, dict):
            parent.pop(key, None)
        elif action == 1:
            depth = rng.choice((50, 1000, 100000))
            nested: Any = []
            for _ in range(min(depth, 500)):
                nested = [nested]
            parent[key] = nested if depth <= 500 else "DEEP"
        elif action == 2 and isinstance(parent, dict):
            parent[rng.choice(("extra", "", "\udc00", "text", "format"))] = rng.choice(values)
        elif action == 3 and isinstance(parent[key], str):
            value = parent[key]
            i = rng.randint(0, len(value))
            parent[key] = value[:i] + rng.choice(ODD) + value[i:]
        else:
            parent[key] = rng.choice(values)
    text = json.dumps(obj, allow_nan=True)
    text = text.replace('"DEEP"', "[" * 100000 + "]" * 100000)
    if rng.random() < 0.15 and text.startswith("{") and len(text) > 2:
        first = re.match(r'\{("[^"]*"): ', text)
        if first:  # a duplicate key, with another value
            text = "{" + first.group(1) + ": " + json.dumps(rng.choice(values[:10])) + ", " + \
                text[1:]
    if rng.random() < 0.05:
        text = text.replace("\\u", "\\u" if rng.random() < 0.5 else "\\x", 1)
    return text


def _random_place(rng: random.Random, obj: Any) -> tuple[Any, Any]:
    """A container in ``obj`` and a key of it, picked at random depth."""
    parent: Any = None
    key: Any = None
    here = obj
    for _ in range(rng.randint(1, 6)):
        if isinstance(here, dict) and here:
            parent, key = here, rng.choice(list(here))
        elif isinstance(here, list) and here:
            parent, key = here, rng.randrange(len(here))
        else:
            break
        here = parent[key]
        if rng.random() < 0.4:
            break
    return parent, key


# -- the library misuse script (run by the Python that has the package) -----------------

MISUSE_SETUP = textwrap.dedent("""\
    import io, random, pathlib
    import notation
    from notation.formats.annotate import AnnotateOptions
    RECS = pathlib.Path(RECORDS)
    """)

MISUSE = textwrap.dedent('''\
    """Call the public functions and methods of notation with hostile arguments; print
    BAD <json> for each exception that is not documented, then CALLS <n>."""
    import inspect, io, itertools, json, os, pathlib, random, sys, traceback
    import notation
    from notation.errors import NotationException

    # The report goes to a copy of standard output far from the numbers the calls are given:
    # read_file(1) would read and close fd 1 itself.
    OUT = os.fdopen(os.dup2(1, 250), "w", buffering=1)
    rng = random.Random(int(sys.argv[1]))
    count = int(sys.argv[2])
    RECS = pathlib.Path(sys.argv[3])
    pathlib.Path("empty.txt").write_text("")
    pathlib.Path("folder").mkdir(exist_ok=True)

    def fresh():
        """Objects to call methods on and to pass, made anew for each call."""
        env = {"notation": notation, "io": io, "random": random, "RECS": RECS,
               "pathlib": pathlib}
        exec("from notation.formats.annotate import AnnotateOptions", env)
        setup = [
            ("rec", "next(iter(notation.read_file(RECS / 'cave' / 'examples.ugn')))"),
            ("broken", "next(iter(notation.read_file(RECS / 'tinkertown' / 'broken.ugn')))"),
            ("game", "notation.get_game(random.choice(['cave', 'tinkertown', 'zombie-kidz']))"),
            ("pos", "game.new_position()"),
            ("move", "pos.legal_moves()[0]"),
            ("step", "notation.Stepper(rec)"),
            ("verdict", "notation.check_record(rec)"),
        ]
        for name, expr in setup:
            env[name] = eval(expr, env)
        return env, setup

    VALUES = [
        "None", "b'1. b1 *\\\\n'", "0", "-1", "10**30", "1.5", "float('nan')", "''", "'zz'",
        "'\\\\x00'", "'\\\\udc00'", "[]", "{}", "object()", "()", "True", "notation",
        "rec", "broken", "game", "pos", "move", "step", "verdict", "'cave'", "'tinkertown'",
        "str(RECS / 'cave' / 'examples.ugn')", "'/nonexistent/x.txt'", "'folder'",
        "'empty.txt'", "io.StringIO('1. b1 *\\\\n')", "io.BytesIO(b'1. b1 *\\\\n')",
        "iter([1, 2])", "['1. b1 *']", "[None]", "[b'x']", "random.Random(1)",
        "AnnotateOptions()", "'json'", "'text'", "{'Game': None}", "[('Game', 1)]",
        "'x' * 100000", "-10**30", "2**63", "'e4'", "'b1'", "'a1-a2'", "[move]",
        "[notation.random_bot]", "[notation.random_bot, None]", "lambda *a: None",
    ]
    OS_OK = {"read_file", "read_headers", "check_paths", "Record.from_file"}
    # Documented as taking a str without a check, for the reading loop's speed.
    UNCHECKED = {"parsed_unchecked"}

    def targets(env):
        found = []
        for name in notation.__all__:
            value = getattr(notation, name)
            # classes are dataclasses and enums that take what they are given; Stepper
            # does work when made
            if callable(value) and (not isinstance(value, type) or name == "Stepper"):
                found.append((name, "notation." + name))
        for obj in ("rec", "game", "pos", "step", "verdict"):
            for attr in dir(env[obj]):
                if attr.startswith("_") or attr in UNCHECKED:
                    continue
                with_value = getattr(env[obj], attr, None)
                if callable(with_value):
                    found.append((obj + "." + attr, obj + "." + attr))
        found.append(("Record.from_moves", "notation.Record.from_moves"))
        return found

    calls = 0
    for _ in range(count):
        env, setup = fresh()
        label, expr = rng.choice(targets(env))
        fn = eval(expr, env)
        if "." in label and label.split(".")[0] in env:
            owner = env[label.split(".")[0]]
            label = type(owner).__name__ + "." + label.split(".", 1)[1]
        sig = None
        try:
            sig = inspect.signature(fn)
            params = [p for p in sig.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                      and not p.name.startswith("_")]
            required = sum(1 for p in params if p.default is p.empty)
        except (TypeError, ValueError):
            params, required = [], 0
        n = rng.randint(required, max(required, len(params)))
        exprs = [rng.choice(VALUES) for _ in range(n)]
        args = [eval(e, env) for e in exprs]
        call = f"{expr}({', '.join(exprs)})"
        prelude = "; ".join(f"{name} = {e}" for name, e in setup
                            if any(name in other for other in (call, *[x for _, x in setup])))
        print("CALL " + call.encode("ascii", "backslashreplace").decode(), file=OUT)
        calls += 1
        try:
            if sig is not None:
                sig.bind(*args)
        except (TypeError, NameError):
            continue
        try:
            result = fn(*args)
            if hasattr(result, "__next__") or inspect.isgenerator(result):
                list(itertools.islice(result, 200))
        except NotationException:
            continue
        except OSError:
            if label.split(".")[-1] in OS_OK or label in OS_OK:
                continue
            bad = sys.exc_info()[1]
        except RecursionError as exc:
            bad = exc
        except Exception as exc:
            bad = exc
        else:
            continue
        frames = traceback.extract_tb(bad.__traceback__)
        ours = [f for f in frames if "/notation/" in f.filename]
        frame = ours[-1] if ours else frames[-1]
        where = frame.filename.rsplit("/notation/", 1)[-1] if ours else "<the call>"
        print("BAD " + json.dumps({
            "fn": label, "exc": type(bad).__name__, "frame": f"{where}:{frame.name}",
            "msg": str(bad)[:300], "call": (prelude + "; " if prelude else "") + call,
        }, ensure_ascii=True), file=OUT)
    print(f"CALLS {calls}", file=OUT)
    ''')


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0] if __doc__ else None,
        epilog=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--notation", default="notation",
                        help="the command to fuzz (default: notation on PATH)")
    parser.add_argument("--minutes", type=float, default=10.0,
                        help="wall-clock budget of the campaign (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", default="fuzz-findings",
                        help="folder for the findings and summary.json (default ./fuzz-findings)")
    parser.add_argument("--families", default="".join(FAMILIES),
                        help="which families, by letter (default: abcdefgh)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds before a run is killed (default 60; 120 at least for d)")
    parser.add_argument("--memory-mb", type=int, default=1024,
                        help="address-space limit of the memory cases, family d (default 1024)")
    parser.add_argument("--bomb-mb", type=int, default=1024,
                        help="megabytes inside a compressed bomb (default 1024)")
    parser.add_argument("--records", default=str(ROOT / "records"),
                        help="the folder of seed records (default: the checkout's records/)")
    parser.add_argument("--python", default=None,
                        help="the Python that has the package, for family h "
                             "(default: the one beside --notation)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print each failure as it is found")
    args = parser.parse_args(argv)
    unknown = set(args.families) - set(FAMILIES)
    if unknown or not args.families:
        parser.error(f"unknown families: {''.join(sorted(unknown))} (choose from abcdefgh)")
    if shutil.which(args.notation) is None:
        parser.error(f"{args.notation}: no such command")
    campaign = Campaign(args)
    if ZSTD is None:
        ZSTD_PIPE[:] = _zstd_pipe(campaign.python)
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        campaign.runner.deadline = 0  # stop after the run under way
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    print(f"fuzzing {args.notation} for {args.minutes} min, seed {args.seed}, families "
          f"{args.families}; findings in {args.out}", file=sys.stderr, flush=True)
    try:
        seconds = campaign.loop(args.minutes, args.families)
    except KeyboardInterrupt:
        seconds = float("nan")
    finally:
        campaign.close()
    campaign.findings.save(campaign.runs, seconds, args.seed)
    report(campaign, seconds)
    return 0


def report(campaign: Campaign, seconds: float) -> None:
    runs = campaign.runs
    print(f"time: {seconds / 60:.1f} min ({seconds:.0f} s)")
    print(f"runs: {sum(runs.values())}")
    for key, name in FAMILIES.items():
        if key in runs:
            print(f"  {key} {name:45} {runs[key]:7d}")
    counts = campaign.findings.counts
    print(f"failures: {sum(counts.values())} in {len(counts)} signatures")
    for signature, count in counts.most_common():
        fams = "".join(sorted(campaign.findings.families[signature]))
        print(f"  {count:6d}  [{fams}] {signature}")
        print(f"          {campaign.findings.first.get(signature, '')}")


if __name__ == "__main__":
    sys.exit(main())
