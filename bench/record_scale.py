#!/usr/bin/env python3
"""What opening and saving one record of a big file costs (notation.editing.recordfile), beside
``notation check --jobs 1`` of the same file::

    python3 bench/record_scale.py --mb 50

A file of about ``--mb`` MB is made of generated records of the three games (seeded),
then, each in a process of its own: ``RecordFile.open`` of its middle record, one edit
(a comment) and ``save``; and ``notation check --jobs 1`` of the file.  It prints the
wall time and the peak resident memory of each, and the ratio of the two times (the
goal: open and save under a quarter of the check, in under 200 MB).  Figures only: no
assertion.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EDIT = textwrap.dedent(
    """
    import resource, sys, time
    from notation.editing.recordfile import RecordFile
    path, number = sys.argv[1], int(sys.argv[2])
    start = time.perf_counter()
    kept = RecordFile.open(path, number)
    opened = time.perf_counter()
    kept.editor.set_comment("checked at the club")
    kept.save()
    kept.close()
    saved = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{opened - start:.2f} {saved - opened:.2f} {peak:.0f}")
    """
)


def make_file(path: Path, megabytes: float) -> int:
    """A file of about ``megabytes`` MB of generated records; their number."""
    from notation.collections.generate import generate_records
    from notation.writer import write_records

    chunk = "".join(
        "".join(write_records([r for r, _ in generate_records(game, 40, 7)]))
        for game in ("cave", "tinkertown", "zombie-kidz")
    )
    per_chunk = 120
    copies = max(1, int(megabytes * 2**20 / len(chunk.encode())))
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(copies):
            handle.write(chunk)
    return copies * per_chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=50)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="record-scale-") as folder:
        path = Path(folder, "big.txt")
        count = make_file(path, options.mb)
        size = path.stat().st_size / 2**20
        print(f"file: {size:.1f} MB, {count} records; record {count // 2} edited")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", EDIT, str(path), str(count // 2)],
            capture_output=True, text=True, env=env, check=True,
        )
        opened, saved, peak = done.stdout.split()
        print(f"RecordFile: open {opened} s, edit and save {saved} s, peak {peak} MB")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "notation", "check", "--jobs", "1", str(path)],
            capture_output=True, env=env, check=False,
        )
        check = time.perf_counter() - start
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"notation check --jobs 1: {check:.2f} s (largest child so far {children:.0f} MB)")
        print(f"open+save / check: {(float(opened) + float(saved)) / check:.3f}")


if __name__ == "__main__":
    main()
