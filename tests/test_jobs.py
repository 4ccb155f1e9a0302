"""``notation check --jobs N``: the same output as ``--jobs 1``, whatever the parts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.collections import batch
from notation.collections.generate import generate_records
from notation.reader import read_file
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"

#: Records between which the reader must not be cut: a record that is only a comment or
#: a malformed tag goes on past a blank line and a tag line.
TRICKY = """\
{a record that is only a comment}

[Game "cave"]

1. b1 b5 *

; another comment, alone

[Game "cave"]
[Event "the tag above belongs to the comment's record"]

1. b1 b5 *

[not a tag

[Game "cave"]

1. b1 b5 2. b1-b2 *

[Game "cave"]

1. b1 b5 { a comment over

[a blank line: a new record, even inside a comment

[Game "cave"]

1. b1 b5 1-0 {a comment after the result}

[Game "cave"]

1. b1 b5 (1... c5 *

[Game "cave"]

1. b1 b5 2. b1-b2 b5-b4 3. b2-b1 *
"""


def generated(game: str, count: int, seed: int) -> str:
    return "".join(write_records(generate_records(game, count, seed)))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Valid and broken records of every game, mixed, with a broken record deep inside."""
    parts = [
        generated("tinkertown", 12, 1),
        (RECORDS / "tinkertown" / "broken.ugn").read_text(encoding="utf-8"),
        generated("cave", 15, 2),
        TRICKY,
        (RECORDS / "cave" / "broken.ugn").read_text(encoding="utf-8"),
        generated("zombie-kidz", 40, 3),
        (RECORDS / "zombie-kidz" / "broken.ugn").read_text(encoding="utf-8"),
        generated("tinkertown", 8, 4),
        (CONFORMANCE / "tinkertown-invalid.txt").read_text(encoding="utf-8"),
        generated("cave", 10, 5),
        '[Game "cave"]\n[Event "deep"]\n\n1. b1 b5 2. b1-b3 *\n',
        generated("zombie-kidz", 10, 6),
    ]
    path = tmp_path_factory.mktemp("jobs") / "mixed.txt"
    path.write_text("\n".join(part.rstrip("\n") + "\n" for part in parts), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_the_corpus_is_cut_in_many_parts(corpus: Path, small_parts: None) -> None:
    units = list(batch._units([str(corpus)], batch._part_size(0, 2)))
    assert len(units) > 20
    assert all(isinstance(unit, batch._Unit) for unit in units)


@pytest.mark.parametrize("options", [[], ["-v"], ["--format", "json"], ["--strict"]])
def test_jobs_2_writes_what_jobs_1_writes(
    corpus: Path, small_parts: None, options: list[str]
) -> None:
    one = run("--jobs", "1", *options, str(corpus))
    two = run("--jobs", "2", *options, str(corpus))
    assert one[0] == two[0] == 1
    assert one[1] == two[1]
    assert one[1].count("\n") > 50


def test_several_files_and_a_folder(corpus: Path, small_parts: None, tmp_path: Path) -> None:
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "a.txt").write_text(generated("cave", 3, 9), encoding="utf-8")
    (folder / "b.pgn").write_text(TRICKY, encoding="utf-8")
    files = [str(corpus), str(folder), str(RECORDS / "cave" / "examples.ugn"), str(corpus)]
    for options in ([], ["--format", "json"]):
        one = run("--jobs", "1", *options, *files)
        two = run("--jobs", "2", *options, *files)
        assert one == two
    assert one[0] == 1
    assert '"file": "' + str(folder / "b.pgn") + '", "record": 1,' in one[1]


def test_valid_input_exits_0_with_any_number_of_jobs(small_parts: None, tmp_path: Path) -> None:
    path = tmp_path / "valid.txt"
    path.write_text(generated("tinkertown", 20, 7) + generated("cave", 20, 8), encoding="utf-8")
    outputs = {run("--jobs", str(jobs), str(path)) for jobs in (1, 2, 3)}
    assert outputs == {(0, "40 records in 1 file: 40 valid, 0 broken\n")}


def test_a_broken_record_deep_in_a_file_keeps_its_line_and_number(
    corpus: Path, small_parts: None
) -> None:
    text = corpus.read_text(encoding="utf-8")
    line = text[: text.index('[Event "deep"]')].count("\n") + 3  # its movetext
    number = sum(1 for _ in read_file(corpus)) - 10  # ten records follow it
    code, out = run("--jobs", "2", str(corpus))
    expected = f"{corpus}:{line}:13: record {number}, turn 3 (b1-b3): "
    assert code == 1 and any(row.startswith(expected) for row in out.splitlines())


def test_every_cut_is_where_the_reader_starts_a_record(corpus: Path) -> None:
    starts = {record.first_line for record in read_file(corpus)}
    data = corpus.read_bytes()
    cuts = list(batch._cuts(str(corpus), 1))
    assert len(cuts) > 100
    for offset, line in cuts:
        assert line in starts
        assert data[:offset].count(b"\n") + 1 == line
    # Never between the records of TRICKY that go on past a blank line and a tag line.
    tricky_start = data.index(b"{a record that is only a comment}")
    tricky = {data[:offset].count(b"\n") - data[:tricky_start].count(b"\n") for offset, _ in
              cuts if tricky_start <= offset < tricky_start + len(TRICKY)}
    lines = TRICKY.splitlines()
    # (Not after a line with a comment either: where the reader would start a record
    # too, as after "{ a comment over", the cutter does not look further.)
    assert {lines[i] for i in tricky} == {'[Game "cave"]', "[not a tag"}
    assert not any(lines[i - 2].startswith(("{", ";", "[not")) for i in tricky)


def test_carriage_returns_alone_stop_the_cutting(tmp_path: Path) -> None:
    path = tmp_path / "old-mac.txt"
    text = generated("cave", 30, 3)
    half = len(text) // 2
    path.write_bytes((text[:half] + text[half:].replace("\n", "\r")).encode("utf-8"))
    cuts = list(batch._cuts(str(path), 1))
    assert cuts and all(offset <= half for offset, _ in cuts)
    crlf = tmp_path / "windows.txt"
    crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    assert len(list(batch._cuts(str(crlf), 1))) == 29


def _group(pgid: int) -> list[int]:
    """The processes of a process group (Linux: from /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                # pid (comm) state ppid pgrp ...: comm may hold spaces, so after its ")".
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[2]) == pgid:
                members.append(int(entry.name))
    return members


def _checking(pid: int) -> bool:
    """Whether the process is a worker at work: it ignores SIGINT (a worker does, once
    started) and has used some CPU time (it got a task, so the pool is up)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    ignored = int(next(ln for ln in status.splitlines() if ln.startswith("SigIgn:")).split()[1], 16)
    cpu_ticks = int(stat[11]) + int(stat[12])  # utime and stime, fields 14 and 15
    return bool(ignored & (1 << (signal.SIGINT - 1))) and cpu_ticks > 0


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    """Poll ``condition`` until it holds; fail after a deadline generous for any machine."""
    deadline = time.monotonic() + 600
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.02)  # a poll of the condition, not a wait for it to be true


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_the_workers_with_exit_130(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(generated("tinkertown", 30, 1) * 400, encoding="utf-8")  # many seconds
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", "check", "--jobs", "2", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a process group, as a terminal makes one
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        # Ctrl-C as on a terminal, even when this suite runs where SIGINT is ignored (a
        # background job): Python then ignores it too, and never raises KeyboardInterrupt.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Ctrl-C once the check runs: both workers at work (they ignore SIGINT, leaving it
    # to the main process, which stops them).
    _wait_for(
        lambda: process.poll() is not None
        or sum(_checking(pid) for pid in _group(process.pid) if pid != process.pid) >= 2,
        "the workers",
    )
    assert process.poll() is None, "finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: every process of the group
    out, err = process.communicate(timeout=600)
    assert process.returncode == 130
    assert b"Traceback" not in err and err.strip() == b"interrupted"
    assert out == b""
    _wait_for(lambda: not _group(process.pid), "the workers to stop")  # none left behind


def _idle(pid: int) -> bool:
    """Whether the process is a worker that checked and now waits (asleep, for more)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return _checking(pid) and stat[0] == "S"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_ctrl_c_with_idle_workers_exits_130(tmp_path: Path) -> None:
    """The main process reads standard input, which stays open and empty, before a big
    file: the workers check the parts handed to them, then wait.  Ctrl-C then must not
    hang on them (multiprocessing.Pool's terminate() could, on a lock an idle worker
    holds)."""
    path = tmp_path / "long.txt"
    path.write_text(generated("tinkertown", 30, 1) * 40, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", "check", "--jobs", "2", "-", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    _wait_for(
        lambda: process.poll() is not None
        or sum(_idle(pid) for pid in _group(process.pid) if pid != process.pid) >= 2,
        "idle workers",
    )
    assert process.poll() is None, "finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Traceback" not in err and err.strip() == b"interrupted"
    assert out == b""
    _wait_for(lambda: not _group(process.pid), "the workers to stop")


def test_a_file_not_in_utf8_cut_in_parts_gets_one_warning(
    small_parts: None, tmp_path: Path
) -> None:
    """Each part decodes as the whole file does, and the warning comes once, not once
    per part that has a line in Windows-1252."""
    path = tmp_path / "latin1.txt"
    record = '[Game "cave"]\n[White "Jos\xe9"]\n\n1. b1 b5 *\n\n'
    path.write_bytes((generated("cave", 10, 7) + record * 200).encode("latin-1"))
    assert len(list(batch._cuts(str(path), batch._MIN_PART))) > 2
    results = {}
    for jobs in ("1", "3"):
        result = CliRunner().invoke(cli, ["check", "--jobs", jobs, "-v", str(path)])
        assert result.exit_code == 0
        results[jobs] = result
        assert result.stderr == f"warning: {path} is not UTF-8; read as Windows-1252\n"
    assert results["1"].stdout == results["3"].stdout
    assert results["1"].stdout.endswith("210 records in 1 file: 210 valid, 0 broken\n")


# -- tally_paths: what `check` without -v asks for ----------------------------------


def _expanded(items: list[batch.Verdict | int]) -> tuple[int, list[batch.Verdict]]:
    """The number of records and the broken ones' verdicts of a tally."""
    total, broken = 0, []
    for item in items:
        if isinstance(item, int):
            assert item > 0, "a run of valid records is never empty"
            total += item
        else:
            assert item.error is not None, "only broken records get a verdict"
            total += 1
            broken.append(item)
    return total, broken


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("strict", [False, True])
def test_tally_paths_counts_what_check_paths_gives(
    corpus: Path, small_parts: None, tmp_path: Path, jobs: int, strict: bool
) -> None:
    second = tmp_path / "second.txt"
    second.write_text(generated("cave", 30, 9) + TRICKY, encoding="utf-8")
    lines = TRICKY.splitlines(keepends=True)
    sources = [corpus, batch.TextSource("<text>", lines), second, corpus]
    verdicts = list(batch.check_paths(sources, jobs=1, strict=strict))
    tally = list(batch.tally_paths(sources, jobs=jobs, strict=strict))
    total, broken = _expanded(tally)
    assert total == len(verdicts)
    assert broken == [verdict for verdict in verdicts if verdict.error is not None]
    assert total - 100 > len(broken) > 10
    assert len(tally) < len(broken) + 100  # the valid ones come counted in runs


def test_tally_makes_no_verdict_here_for_a_valid_record(
    corpus: Path, small_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The point of tally_paths: with workers, this process unpacks the verdicts of
    broken records only (docs/performance.md, "--jobs")."""
    unpacked: list[object] = []
    unpack = batch._unpack

    def counted(values: tuple[object, ...], offset: int) -> batch.Verdict:
        unpacked.append(values)
        return unpack(values, offset)

    monkeypatch.setattr(batch, "_unpack", counted)
    total, broken = _expanded(list(batch.tally_paths([corpus], jobs=2)))
    assert len(unpacked) == len(broken) < total
    unpacked.clear()
    assert len(list(batch.check_paths([corpus], jobs=2))) == total == len(unpacked)


def test_parts_for_workers_get_smaller_towards_the_end(corpus: Path, small_parts: None) -> None:
    units = list(batch._units([str(corpus)], batch._MIN_PART, share=2 * batch._SHARE))
    assert all(isinstance(unit, batch._Unit) for unit in units)
    sizes = [unit.size for unit in units if isinstance(unit, batch._Unit)]
    assert len(sizes) > 10
    assert sum(sizes) == corpus.stat().st_size
    # The first parts are about a share of the file; the last ones about the least part
    # (a part ends at the first record start after its size, so a little more).
    assert sizes[0] > corpus.stat().st_size // (2 * batch._SHARE)
    assert max(sizes[-4:]) < sizes[0] / 4
    assert min(sizes[:-1]) >= batch._MIN_PART
    # Parts follow each other: each starts where the one before ended, line and byte.
    starts = [unit.start for unit in units if isinstance(unit, batch._Unit)]
    assert starts == [sum(sizes[:index]) for index in range(len(sizes))]
