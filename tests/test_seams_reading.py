"""Reading compressed and huge input (issue 27, items 4, 10 and 11).

A cut-short zstd file is damaged, as a cut-short gzip, bzip2 or xz file is; compressed
data on standard input is known by its first bytes, as a compressed file is; and no
input takes memory without bound: a line longer than :data:`notation.files.textfile.MAX_LINE`
ends the command with a clean error naming the file, the line and the limit (exit 2),
and blank lines, however many, before the first record or between records, are not
held.  The memory cases run in a process of their own under a bound on its address
space (1 GiB, far above what reading needs, far below what holding those inputs took):
what is asserted is the clean ending, never a size or a time.
"""

from __future__ import annotations

import gzip
import io
import os
import resource
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.files.textfile import MAX_LINE, open_binary
from notation.reader import read_file
from tests.test_compressed import COMPRESSORS as BY_SUFFIX
from tests.test_compressed import _zstd

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "records" / "cave" / "examples.ugn"
RECORDS = EXAMPLES.read_text().count('[Game "')
#: The address space the memory cases run in: a line over the bound, and blank lines
#: (which took 16 bytes and more each; a run of the command on a small file fits in 160
#: MiB).
MEMORY_BOUND = 1 << 30
BLANK_LINES_BOUND = 256 << 20


#: Each compression by the name its messages give it.
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = dict(
    zip(("gzip", "bzip2", "xz", "zstd"), BY_SUFFIX.values(), strict=True)
)
#: The commands that read every record of their input, and how each is asked to.
READERS = {
    "check": ("check",),
    "stats": ("stats",),
    "select": ("select",),
    "convert": ("convert", "--to", "json"),
}


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout_bytes.decode(), result.stderr_bytes.decode()


# -- item 4: a cut-short zstd file is damaged -------------------------------------------


@pytest.mark.parametrize("command", list(READERS))
@pytest.mark.parametrize("cut", ["half", "header", "last-byte"])
def test_a_cut_short_zstd_file_is_damaged(tmp_path: Path, command: str, cut: str) -> None:
    packed = _zstd(EXAMPLES.read_bytes())
    end = {"half": len(packed) // 2, "header": 5, "last-byte": len(packed) - 1}[cut]
    path = tmp_path / "games.txt.zst"
    path.write_bytes(packed[:end])
    code, _, err = run(*READERS[command], str(path))
    assert code == 2, err
    assert "the zstd data is damaged or cut short" in err and str(path) in err
    assert "Traceback" not in err


def test_a_cut_short_zstd_file_is_damaged_with_jobs_and_in_the_library(tmp_path: Path) -> None:
    path = tmp_path / "games.txt.zst"
    path.write_bytes(_zstd(EXAMPLES.read_bytes())[:-3])
    code, _, err = run("check", "--jobs", "2", str(path))
    assert code == 2 and "zstd data is damaged or cut short" in err
    with pytest.raises(OSError, match="zstd data is damaged or cut short"), open_binary(path) as f:
        f.read()


def test_every_frame_of_a_zstd_file_is_read(tmp_path: Path) -> None:
    # zstd files made of several frames (zstd -B, pzstd, files joined with cat).
    text = EXAMPLES.read_bytes()
    half = text.index(b'[Game "', 100)
    path = tmp_path / "games.txt.zst"
    path.write_bytes(_zstd(text[:half]) + _zstd(text[half:]))
    with open_binary(path) as handle:
        assert handle.read() == text
    code, out, _ = run("check", str(path))
    assert code == 0 and f"{RECORDS} records in 1 file: {RECORDS} valid" in out
    path.write_bytes(_zstd(text[:half]) + _zstd(text[half:])[:-2])
    assert run("check", str(path))[0] == 2


# -- item 11: compressed standard input --------------------------------------------------


@pytest.mark.parametrize("kind", list(COMPRESSORS))
def test_compressed_standard_input_reads_as_the_file_does(tmp_path: Path, kind: str) -> None:
    data = EXAMPLES.read_bytes()
    packed = COMPRESSORS[kind](data)
    for args in (("check", "-v"), ("stats",), ("select",), ("convert", "--to", "text")):
        code, out, err = run(*args, "-", stdin=packed)
        assert (code, out) == run(*args, "-", stdin=data)[:2], (args, err)
        assert "not UTF-8" not in err
    code, out, _ = run("show", "-", "--record", "2", stdin=packed)
    assert (code, out) == run("show", "-", "--record", "2", stdin=data)[:2]
    assert code == 0


def test_compressed_standard_input_through_a_pipe() -> None:
    process = subprocess.run(
        [sys.executable, "-m", "notation", "check", "-"],
        input=gzip.compress(EXAMPLES.read_bytes()), capture_output=True, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.returncode == 0, process.stderr
    assert f"{RECORDS} records in 1 file: {RECORDS} valid" in process.stdout.decode()
    assert process.stderr == b""


def test_cut_short_compressed_standard_input_is_damaged() -> None:
    for kind in ("gzip", "zstd"):
        code, _, err = run("check", "-", stdin=COMPRESSORS[kind](EXAMPLES.read_bytes())[:-4])
        assert code == 2, err
        assert f"{kind} data is damaged or cut short" in err and "<stdin>" in err


def test_the_docs_agree_on_compressed_input() -> None:
    cli_md = (ROOT / "docs" / "cli.md").read_text()
    collections_md = (ROOT / "docs" / "collections.md").read_text()
    assert "Compressed files are not read" not in cli_md
    for page in (cli_md, collections_md):
        assert "standard input" in page and "first bytes" in page
    assert "notation check - < games.txt.gz" in cli_md


# -- item 10: memory has a bound ---------------------------------------------------------


def bounded(*args: str, stdin: Path | None = None, bound: int = MEMORY_BOUND) -> tuple[int, str]:
    """``python -m notation ARGS`` (or ``python -c`` for ``-c``) in a process whose
    address space is bounded by ``bound``: its exit code and standard error."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (bound, bound))

    python = [sys.executable] if args[0] == "-c" else [sys.executable, "-m", "notation"]
    command = [*python, *args]
    with open(stdin or os.devnull, "rb") as given:
        process = subprocess.run(
            command, stdin=given, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=limit, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    return process.returncode, process.stderr.decode(errors="replace")


def _chunks(total: int, piece: bytes) -> Iterator[bytes]:
    block = piece * ((1 << 20) // len(piece))
    for _ in range(total // len(block)):
        yield block


def _gzip_of(total: int, piece: bytes) -> bytes:
    squeeze = zlib.compressobj(1, zlib.DEFLATED, 31)  # 31: the gzip container
    out = io.BytesIO()
    for block in _chunks(total, piece):
        out.write(squeeze.compress(block))
    out.write(squeeze.flush())
    return out.getvalue()


@pytest.fixture(scope="module")
def long_line(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two records, then one line just over the limit, then a record."""
    path = tmp_path_factory.mktemp("long") / "long.txt"
    head = EXAMPLES.read_bytes().split(b'\n\n[Game "')[0] + b"\n\n"
    with path.open("wb") as out:
        out.write(head + head)
        out.write(b"{" + b"x" * MAX_LINE + b"}\n")
        out.write(head)
    return path


def long_line_number(path: Path) -> int:
    with path.open("rb") as handle:
        return 1 + handle.read(2 * len(EXAMPLES.read_bytes())).split(b"{x")[0].count(b"\n")


@pytest.mark.parametrize(
    "args",
    [("check",), ("check", "--jobs", "2"), ("stats",), ("select",), ("convert", "--to", "json"),
     ("show", "--record", "3"), ("check", "-")],
    ids=["check", "check-jobs", "stats", "select", "convert", "show", "stdin"],
)
def test_a_line_over_the_limit_is_a_clean_error(long_line: Path, args: tuple[str, ...]) -> None:
    stdin = long_line if args[-1] == "-" else None
    code, err = bounded(*args, *(() if stdin else (str(long_line),)), stdin=stdin)
    name = "<stdin>" if stdin else str(long_line)
    assert code == 2, err
    assert "Traceback" not in err and "MemoryError" not in err
    assert name in err and f"line {long_line_number(long_line)}" in err
    assert "64 MiB" in err


def test_the_library_refuses_a_line_over_the_limit(long_line: Path) -> None:
    code, err = bounded(
        "-c",
        "import sys\nfrom notation.reader import read_file\n"
        "try:\n    list(read_file(sys.argv[1]))\n"
        "except OSError as exc:\n    print(exc.filename, exc.strerror, file=sys.stderr)\n"
        "    sys.exit(3)\n",
        str(long_line),
    )
    assert code == 3, err
    assert str(long_line) in err and f"line {long_line_number(long_line)}" in err


@pytest.mark.parametrize("args", [("check",), ("select",), ("show",)])
def test_an_endless_line_of_zeros_is_a_clean_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    bomb = tmp_path / "zeros.txt.gz"
    bomb.write_bytes(_gzip_of(MAX_LINE + (8 << 20), b"\0"))
    code, err = bounded(*args, str(bomb))
    assert code == 2, err
    assert "Traceback" not in err and "line 1 " in err and str(bomb) in err


@pytest.mark.parametrize("args", [("check",), ("annotate",), ("dedup",)])
def test_a_record_too_big_to_hold_is_a_clean_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    # Found by the fuzz campaign: one record of millions of short tag lines ran out of
    # memory inside the decompressor, which called the gzip data damaged.
    bomb = tmp_path / "tags.txt.gz"
    bomb.write_bytes(_gzip_of(256 << 20, b'[Event "x"]\n'))
    code, err = bounded(*args, str(bomb), bound=256 << 20)
    assert code == 2, err
    assert "Traceback" not in err and "out of memory" in err and "damaged" not in err


def test_the_endless_device_is_a_clean_error(tmp_path: Path) -> None:
    zero = tmp_path / "zero"
    os.mknod(zero, 0o600 | 0o020000, os.makedev(1, 5))  # a character device like /dev/zero
    code, err = bounded("check", str(zero))
    assert code == 2, err
    assert "Traceback" not in err and "line 1 " in err


@pytest.fixture(scope="module")
def blank_lines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """16 Mi blank lines before the first record, and 24 Mi between two records."""
    path = tmp_path_factory.mktemp("blank") / "blank.txt"
    with path.open("wb") as out:
        for block in _chunks(16 << 20, b"\n"):
            out.write(block)
        out.write(EXAMPLES.read_bytes())
        for block in _chunks(24 << 20, b"\n"):
            out.write(block)
        out.write(EXAMPLES.read_bytes())
    return path


@pytest.mark.parametrize("args", [("check",), ("select", "-q")], ids=["check", "select"])
def test_blank_lines_are_not_held(blank_lines: Path, args: tuple[str, ...]) -> None:
    code, err = bounded(*args, str(blank_lines), bound=BLANK_LINES_BOUND)
    assert (code, err) == (0, "")


def test_blank_lines_on_standard_input_are_not_held(blank_lines: Path) -> None:
    assert bounded("check", "-", stdin=blank_lines, bound=BLANK_LINES_BOUND) == (0, "")


def test_the_line_numbers_after_blank_lines_stay_right(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_bytes(b"\n\r\n  \r\n\t\n" + b'[Game "cave"]\n\n1. zz *\n')
    (record,) = read_file(path)
    assert record.first_line == 5
    code, out, _ = run("check", str(path))
    assert code == 1 and f"{path}:7:4:" in out


#: The blank lines of a run in the files of :func:`blank_runs`: holding them (90 bytes
#: and more each) goes far over ONE_RECORD_BOUND, and they are read in a few seconds.
BLANK_RUN = 3 << 19
#: The address space of a reader of one record (one on a small file fits in 48 MiB).
ONE_RECORD_BOUND = 128 << 20


@pytest.fixture(scope="module")
def blank_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A run of blank lines before the example records, between two copies of them, and
    after them: each in a file of its own, by where the run is."""
    folder = tmp_path_factory.mktemp("runs")
    run, records = b"\n" * BLANK_RUN, EXAMPLES.read_bytes()
    layouts = {"first": [run, records], "between": [records, run, records],
               "last": [records, run]}
    paths = {}
    for where, parts in layouts.items():
        paths[where] = folder / f"{where}.txt"
        paths[where].write_bytes(b"".join(parts))
    return paths


#: Each reader of one record, the file it reads (by where its run of blank lines is),
#: and the record it reads: the one the run follows or precedes, so that the run is
#: read with it.  ``{path}`` stands for the file.
ONE_RECORD_READERS = {
    "show-first": ("first", ("show", "{path}", "--record", "1")),
    "show-between": ("between", ("show", "{path}", "--record", str(RECORDS), "--turn", "3")),
    "show-stdin": ("first", ("show", "-", "--record", "2")),
    "record_at-last": ("last", (
        "-c",
        "import sys\nfrom notation.collections.index import record_at\n"
        "record = record_at(sys.argv[1], int(sys.argv[2]))\n"
        "sys.exit(0 if (record.index, record.error) == (int(sys.argv[2]), None) else 3)\n",
        "{path}", str(RECORDS),
    )),
}


@pytest.mark.parametrize("reader", list(ONE_RECORD_READERS))
def test_blank_lines_are_not_held_by_the_readers_of_one_record(
    blank_runs: dict[str, Path], reader: str
) -> None:
    where, args = ONE_RECORD_READERS[reader]
    path = blank_runs[where]
    stdin = path if "-" in args else None
    code, err = bounded(*(arg.format(path=path) for arg in args), stdin=stdin,
                        bound=ONE_RECORD_BOUND)
    assert (code, err) == (0, "")


def test_blank_lines_are_not_held_through_an_index(
    tmp_path: Path, blank_runs: dict[str, Path]
) -> None:
    path = tmp_path / "between.txt"
    path.write_bytes(blank_runs["between"].read_bytes())
    assert bounded("index", str(path), bound=ONE_RECORD_BOUND) == (0, "")
    assert (tmp_path / "between.txt.idx").is_file()
    code, err = bounded("show", str(path), "--record", str(RECORDS), bound=ONE_RECORD_BOUND)
    assert (code, err) == (0, "")


def test_records_after_blank_runs_keep_their_numbers_and_lines(tmp_path: Path) -> None:
    from notation.collections.index import build_index, find_record, read_headers, record_at

    run = b"\n" * 1000 + b"  \r\n" * 1000 + b"\t\n\n" * 500
    path = tmp_path / "runs.txt"
    path.write_bytes(run + EXAMPLES.read_bytes() + run + EXAMPLES.read_bytes() + run)
    whole = list(read_file(path))
    assert len(whole) == 2 * RECORDS
    with path.open("rb") as stream:
        headers = list(read_headers(stream))
    assert [(h.number, h.line) for h in headers] == [(r.index, r.first_line) for r in whole]
    lines = path.read_bytes().splitlines(keepends=True)
    assert all(lines[h.line - 1] == path.read_bytes()[h.offset :].splitlines(True)[0]
               for h in headers)
    index = build_index(path)
    for record in whole:
        with path.open("rb") as stream:
            found = [record_at(path, record.index), index.read(path, record.index),
                     find_record(stream, record.index)]
        for one in found:
            assert (one.index, one.first_line, one.last_line, one.error) == (
                record.index, record.first_line, record.last_line, record.error,
            )
