#!/usr/bin/env python3
"""A fault campaign over the recorder's file and journal (notation.editing.recordfile): does a
record being entered survive every fault, and does nothing else in its file change?

    python3 bench/record_faults.py --seconds 120 --seed 1

Families, run in turn until the time is spent (``--families`` picks some, by letter):

k  kill -9 at a random moment: a child process opens a file of records (a record of
   it, or a new one), makes edits (moves, comments) and saves now and then, printing
   each edit once it is made; it is killed with SIGKILL at a random moment, mid-edit or
   mid-save.  Then the file is opened again (the journal restores what it holds), saved,
   and checked: the record holds every edit acknowledged before the kill (or later
   ones), every other byte of the file is as it was, no record is there twice, and no
   temporary file is left;
f  a full disk (a 64 KB tmpfs, filled; root only): edits in memory, the journal's
   problem said, the save refused, ``save_as`` elsewhere keeps every edit;
r  a read-only folder (a tmpfs remounted read-only; root only): likewise;
t  two sessions: a child holds the file, a second open in another process must be
   refused at once, and the first session's journal must be untouched;
h  hostile journals (a FIFO, a link to /dev/zero, a dangling link, huge and endless
   numbers, deep nesting, record numbers out of range, not UTF-8), each opened in a
   child under a time and memory limit: refused with a RecordFileError, no traceback,
   no hang, nothing written through a link.

It prints, per family, the runs made and what went wrong; the two numbers that must
be 0 are *edits lost* and *bytes changed outside the record edited*.  No timing is
asserted: the figures are for reading.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import notation  # noqa: E402
from notation.collections.generate import generate_records  # noqa: E402
from notation.editing.editor import RecordEditor  # noqa: E402
from notation.editing.recordfile import (  # noqa: E402
    FileBusyError,
    RecordFile,
    RecordFileError,
    journal_path,
)
from notation.writer import write_records  # noqa: E402

#: The child of family k: edits (from argv, as JSON) made one by one, each
#: acknowledged on stdout once made (journaled), a save after every few.
CHILD = textwrap.dedent(
    """
    import json, sys
    from notation.editing.recordfile import RecordFile
    path, record, edits, save_every = json.loads(sys.argv[1])
    kept = RecordFile.open(path, record, game="cave", defaults=False)
    print("ready", flush=True)
    for number, (kind, value) in enumerate(edits, 1):
        if kind == "play":
            kept.editor.play(value)
        else:
            kept.editor.set_comment(value)
        print("edit", number, flush=True)
        if number % save_every == 0:
            kept.save()
            print("saved", number, flush=True)
    sys.stdin.read()
    """
)


def games_text(count: int, seed: int) -> str:
    records = [record for record, _ in generate_records("cave", count, seed, max_turns=14)]
    return "".join(write_records(records))


def edits_for(base: RecordEditor, rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` edits that can be made in turn on ``base`` (moves while the game goes
    on, else comments)."""
    edits: list[tuple[str, str]] = []
    for number in range(count):
        moves = base.candidates("")
        if moves and rng.random() < 0.8:
            edits.append(("play", rng.choice(moves).text))
        else:
            edits.append(("comment", f"note {number} {rng.randrange(10**6)}"))
        kind, value = edits[-1]
        base.play(value) if kind == "play" else base.set_comment(value)
    return edits


def texts_after(start: RecordEditor, edits: list[tuple[str, str]]) -> list[str]:
    """The record's text after 0, 1, 2... of ``edits``."""
    texts = [start.text()]
    for kind, value in edits:
        start.play(value) if kind == "play" else start.set_comment(value)
        texts.append(start.text())
    return texts


def record_span(text: str, number: int) -> tuple[int, int]:
    """Where record ``number`` (from 1) of ``text`` starts and ends in it."""
    at = 0
    for index, record in enumerate(notation.read_records(text.splitlines(True), keep_raw=True), 1):
        raw = record.raw or ""
        start = text.find(raw, at)
        if index == number:
            return start, start + len(raw)
        at = start + len(raw)
    raise ValueError(f"no record {number}")


def common(a: bytes, b: bytes) -> int:
    """How many bytes ``a`` and ``b`` start with alike."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def outside_changes(before: bytes, after: bytes, record: int | None) -> int:
    """The bytes of ``before`` outside record ``record`` (all of it for a new record)
    that ``after`` does not keep where they were: before it, and after it."""
    if record is None:
        return len(before.rstrip(b"\n")) - min(common(before, after), len(before.rstrip(b"\n")))
    text = before.decode("utf-8")
    start, end = record_span(text, record)
    prefix, suffix = text[:start].encode(), text[end:].encode()
    lost = max(0, len(prefix) - common(before, after))
    lost += max(0, len(suffix) - common(before[::-1], after[::-1]))
    return lost


def family_kill(rng: random.Random, folder: Path, stats: Counter[str]) -> None:
    path = folder / f"kill{stats['k runs']}.txt"
    count = rng.choice([3, 30, 300])
    path.write_text(games_text(count, rng.randrange(1000)), encoding="utf-8")
    before = path.read_bytes()
    record = rng.choice([None, 1, count // 2 + 1, count])

    def editor() -> RecordEditor:
        if record is None:
            return RecordEditor.new("cave", defaults=False)
        return RecordEditor(list(notation.read_file(path))[record - 1])

    edits = edits_for(editor(), rng, rng.randrange(1, 25))
    texts = texts_after(editor(), edits)
    save_every = rng.choice([1, 3, 7, 1000])
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps([str(path), record, edits, save_every])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert child.stdout is not None
    if child.stdout.readline().strip() != "ready":
        stats["k child failed"] += 1
        child.kill()
        child.wait()
        return
    acknowledged = [0]

    def listen() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("edit ") and line.endswith("\n"):  # not cut by the kill
                acknowledged[0] = int(line.split()[1])

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(10 ** rng.uniform(-3.5, 0.3))  # from the first edit to after the last
    child.send_signal(signal.SIGKILL)
    child.wait()
    listener.join()
    done = acknowledged[0]
    stats["k runs"] += 1
    stats["k edits acknowledged"] += done
    stats["k killed after the last edit"] += done == len(edits)
    target = record
    if record is None and len(list(notation.read_file(path))) == count + 1:
        target = count + 1  # saved already: the new record is the file's last
    try:
        kept = RecordFile.open(path, target, game="cave", defaults=False)
    except RecordFileError as exc:
        stats["k reopen refused"] += 1
        print("  reopen refused:", exc)
        return
    with kept:
        stats["k leftovers removed"] += len(kept.removed_leftovers)
        stats["k journals restored"] += kept.restored is not None
        if kept.editor.text() not in texts[done:]:
            stats["edits lost"] += 1
            print(f"  edits lost: {done} acknowledged, the record holds another text")
        kept.save()
    after = path.read_bytes()
    stats["bytes changed outside the record"] += outside_changes(before, after, record)
    if len(list(notation.read_file(path))) != count + (record is None):
        stats["k records added or lost"] += 1
    stats["k files left beside"] += sum(n.startswith(f".{path.name}") for n in os.listdir(folder))
    path.unlink()


@contextlib.contextmanager
def tmpfs(folder: Path, size: str):  # type: ignore[no-untyped-def]
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, check=False)
    if done.returncode:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def family_disk(rng: random.Random, folder: Path, stats: Counter[str], kind: str) -> None:
    key = kind[0]
    with tmpfs(folder / f"{kind}{stats[key + ' runs']}", "64k") as disk:
        if disk is None:
            stats[f"{key} skipped (no mount)"] += 1
            return
        path = disk / "games.txt"
        path.write_text(games_text(3, rng.randrange(1000)), encoding="utf-8")
        before = path.read_bytes()
        if kind == "read-only":
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        else:
            with (disk / "filler").open("wb", buffering=0) as handle:
                for size in (4096, 1):
                    with contextlib.suppress(OSError):
                        while True:
                            handle.write(b"x" * size)
        stats[f"{key} runs"] += 1
        record = rng.choice([None, 1, 3])
        kept = RecordFile.open(path, record, game="cave", defaults=False)
        edits_for(kept.editor, rng, rng.randrange(1, 10))  # made in memory, unjournaled
        expected = kept.editor.text()
        stats[f"{key} problem said"] += kept.journal_problem is not None
        try:
            kept.save()
        except OSError:
            stats[f"{key} save refused (OSError)"] += 1
        elsewhere = folder / f"elsewhere-{kind}-{stats[key + ' runs']}.txt"
        kept.save_as(elsewhere)
        kept.close()
        if elsewhere.read_text(encoding="utf-8") != expected:
            stats["edits lost"] += 1
        stats["bytes changed outside the record"] += sum(
            x != y for x, y in zip(before, path.read_bytes(), strict=False)
        ) + abs(len(before) - len(path.read_bytes()))


HOLDER = textwrap.dedent(
    """
    import sys
    from notation.editing.recordfile import RecordFile
    kept = RecordFile.open(sys.argv[1], 1)
    kept.editor.set_comment("the first session's")
    print("holding", flush=True)
    sys.stdin.read()
    """
)


def family_two(rng: random.Random, folder: Path, stats: Counter[str]) -> None:
    path = folder / f"two{stats['t runs']}.txt"
    path.write_text(games_text(2, rng.randrange(1000)), encoding="utf-8")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    holder.stdout.readline()
    journal = Path(journal_path(path))
    held = journal.read_bytes()
    stats["t runs"] += 1
    try:
        RecordFile.open(path, 2).close()
        stats["t second session let in"] += 1
    except FileBusyError:
        stats["t second session refused"] += 1
    if journal.read_bytes() != held:
        stats["edits lost"] += 1
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with RecordFile.open(path) as kept:  # the crashed holder's journal comes back
        if kept.editor.comment() != "the first session's":
            stats["edits lost"] += 1
        kept.discard_journal()


OPENER = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
    from notation.editing.recordfile import RecordFile, RecordFileError
    try:
        RecordFile.open(sys.argv[1], 1).close()
        print("opened")
    except RecordFileError as exc:
        print("refused")
    """
)


def hostile_journals(path: Path) -> list[tuple[str, object]]:
    base = {"journal": "notation-journal 1", "file": str(path), "record": 1, "digest": None,
            "address": [1], "written": "", "text": '[Game "cave"]\n\n1. b1 *\n'}
    whole = json.dumps(base)
    out: list[tuple[str, object]] = [
        (f"address {n}", whole.replace('"address": [1]', f'"address": [{n}]'))
        for n in ("1e400", "Infinity", "NaN", "-1", "9" * 5000, "1.5")
    ]
    out += [(f"record {n}", whole.replace('"record": 1', f'"record": {n}'))
            for n in ("0", "-1", "99", "true", '"1"')]
    out += [("nested", "[" * 200_000), ("not UTF-8", b"\xff\xfe{}"), ("fifo", "fifo"),
            ("/dev/zero", "link:/dev/zero"), ("dangling", "link:nowhere"),
            ("empty", ""), ("huge", " " * (20 * 2**20))]
    return out


def family_hostile(rng: random.Random, folder: Path, stats: Counter[str]) -> None:
    for name, content in hostile_journals(folder / "hostile.txt"):
        path = folder / "hostile.txt"
        path.write_text(games_text(2, rng.randrange(1000)), encoding="utf-8")
        before = path.read_bytes()
        journal = Path(journal_path(path))
        with contextlib.suppress(FileNotFoundError):
            journal.unlink()
        if content == "fifo":
            os.mkfifo(journal)
        elif isinstance(content, str) and content.startswith("link:"):
            journal.symlink_to(folder / content[5:] if content[5:6] != "/" else content[5:])
        else:
            journal.write_bytes(content if isinstance(content, bytes) else str(content).encode())
        stats["h runs"] += 1
        try:
            done = subprocess.run([sys.executable, "-c", OPENER, str(path)], cwd=ROOT,
                                  capture_output=True, text=True, timeout=30, check=False)
        except subprocess.TimeoutExpired:
            stats["h hung"] += 1
            continue
        if "Traceback" in done.stderr:
            stats["h tracebacks"] += 1
            print(f"  {name}: {done.stderr.strip().splitlines()[-1]}")
        stats[f"h {done.stdout.strip() or 'nothing said'}"] += 1
        if (folder / "nowhere").exists():
            stats["h written through a link"] += 1
            (folder / "nowhere").unlink()
        stats["bytes changed outside the record"] += path.read_bytes() != before
        journal.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--families", default="kfrth")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    stats: Counter[str] = Counter({"edits lost": 0, "bytes changed outside the record": 0})
    end = time.monotonic() + options.seconds
    with tempfile.TemporaryDirectory(prefix="record-faults-") as name:
        folder = Path(name)
        while time.monotonic() < end:
            for letter in options.families:
                if time.monotonic() >= end:
                    break
                if letter == "k":
                    for _ in range(5):
                        family_kill(rng, folder, stats)
                elif letter in "fr":
                    family_disk(rng, folder, stats, "full" if letter == "f" else "read-only")
                elif letter == "t":
                    family_two(rng, folder, stats)
                elif letter == "h" and not stats["h runs"]:
                    family_hostile(rng, folder, stats)
    width = max(len(key) for key in stats)
    for key in sorted(stats):
        print(f"{key:<{width}}  {stats[key]}")


if __name__ == "__main__":
    main()
