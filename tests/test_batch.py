"""``notation.collections.batch`` as a library: the verdicts of ``check_record``, in order, from one
process or several; and the thin CLI around it (no command imports another)."""

from __future__ import annotations

import ast
import io
import itertools
import multiprocessing
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.checking.canonical_form import check_record_strict
from notation.cli import cli
from notation.collections import batch
from notation.collections.batch import TextSource, check_paths, input_size
from notation.collections.generate import generate_records
from notation.files.textfile import NotUTF8Warning
from notation.reader import read_file, read_records, read_string, record_starts
from notation.replay import check_record
from notation.writer import write_records

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
COMMANDS = ROOT / "notation" / "commands"


def generated(game: str, count: int, seed: int) -> str:
    return "".join(write_records(generate_records(game, count, seed)))


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Valid and broken records of every game, in one file."""
    parts = [
        generated("cave", 30, 1),
        (RECORDS / "cave" / "broken.ugn").read_text(encoding="utf-8"),
        generated("zombie-kidz", 40, 2),
        (RECORDS / "tinkertown" / "broken.ugn").read_text(encoding="utf-8"),
        generated("tinkertown", 6, 3),
        (RECORDS / "zombie-kidz" / "broken.ugn").read_text(encoding="utf-8"),
        generated("cave", 20, 4),
    ]
    path = tmp_path_factory.mktemp("batch") / "mixed.txt"
    path.write_text("\n".join(part.rstrip("\n") + "\n" for part in parts), encoding="utf-8")
    return path


def no_workers_left() -> bool:
    return not [child for child in multiprocessing.active_children() if child.is_alive()]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("strict", [False, True])
def test_the_verdicts_are_check_records_in_input_order(
    mixed: Path, small_parts: None, jobs: int, strict: bool
) -> None:
    check = check_record_strict if strict else check_record
    expected = [check(record) for record in read_file(mixed)]
    assert len(expected) > 100 and any(not verdict.ok for verdict in expected)
    assert len(list(batch._units([str(mixed)], batch._part_size(0, jobs)))) > 10
    assert list(check_paths([mixed], jobs=jobs, strict=strict)) == expected
    assert no_workers_left()


def test_several_sources_are_numbered_each_from_1(mixed: Path, small_parts: None) -> None:
    other = RECORDS / "tinkertown" / "examples.ugn"
    text = generated("cave", 3, 9)
    inputs: list[str | Path | TextSource] = [
        str(mixed), other, TextSource("<text>", io.StringIO(text)), mixed
    ]
    expected = [
        *(check_record(record) for record in read_file(mixed)),
        *(check_record(record) for record in read_file(other)),
        *(check_record(record) for record in read_string(text, "<text>")),
        *(check_record(record) for record in read_file(mixed)),
    ]
    for jobs in (1, 2, None):
        # TextSource lines can be read once: a fresh one each time.
        inputs[2] = TextSource("<text>", io.StringIO(text))
        assert list(check_paths(inputs, jobs=jobs)) == expected


def test_the_default_game_is_for_records_without_a_game_tag(tmp_path: Path) -> None:
    path = tmp_path / "untagged.txt"
    path.write_text("1. b1 b5 2. b1-b2 *\n", encoding="utf-8")
    (verdict,) = check_paths([path], default_game="cave")
    assert verdict.ok and verdict.game == "cave" and verdict.source == str(path)
    (verdict,) = check_paths([path])
    assert not verdict.ok


def test_json_lines_read_as_records_and_are_never_cut(
    mixed: Path, small_parts: None, tmp_path: Path
) -> None:
    jsonl = tmp_path / "mixed.jsonl"
    converted = CliRunner().invoke(cli, ["convert", "--to", "json", str(mixed)])
    jsonl.write_text(converted.stdout, encoding="utf-8")
    units = list(batch._units([str(jsonl)], batch._MIN_PART))
    assert len(units) == 1 and units[0].whole
    one, two = (list(check_paths([jsonl], jobs=jobs)) for jobs in (1, 2))
    assert one == two and len(one) == sum(1 for _ in read_file(mixed))


def test_an_unreadable_file_raises_in_its_turn(mixed: Path, small_parts: None) -> None:
    missing = mixed.parent / "missing.txt"
    count = sum(1 for _ in read_file(mixed))
    for jobs in (1, 2):
        verdicts = check_paths([mixed, missing, mixed], jobs=jobs)
        assert len(list(itertools.islice(verdicts, count))) == count
        with pytest.raises(FileNotFoundError) as caught:
            next(verdicts)
        assert caught.value.filename == str(missing)
        assert no_workers_left()


def test_progress_counts_every_byte(mixed: Path, small_parts: None) -> None:
    done: list[int] = []
    for jobs in (1, 2):
        done.clear()
        verdicts = list(check_paths([mixed, mixed], jobs=jobs, on_progress=done.append))
        assert len(done) > 4 and sum(done) == 2 * mixed.stat().st_size == input_size([mixed] * 2)
        assert verdicts == list(check_paths([mixed, mixed]))


def test_a_file_not_in_utf8_is_reported_once(small_parts: None, tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    record = '[Game "cave"]\n[White "Jos\xe9"]\n\n1. b1 b5 *\n\n'
    path.write_bytes((generated("cave", 10, 7) + record * 200).encode("latin-1"))
    for jobs in (1, 2):
        told: list[str] = []
        verdicts = list(check_paths([path], jobs=jobs, on_not_utf8=told.append))
        assert told == [str(path)] and len(verdicts) == 210 and all(v.ok for v in verdicts)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(check_paths([path]))
    assert [type(w.message) for w in caught] == [NotUTF8Warning]


def test_stopping_early_ends_the_workers(mixed: Path, small_parts: None) -> None:
    verdicts = check_paths([mixed] * 4, jobs=2)
    next(verdicts)
    assert not no_workers_left()
    verdicts.close()
    assert no_workers_left()


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        check_paths([], jobs=0)


# -- where a big file is cut --------------------------------------------------------------

#: Lines of every kind that matters where a record may start.
LINE_KINDS = [
    "",
    "   ",
    '[Game "cave"]',
    '[Event "x"]',
    "[not a tag",
    "  [Event \"indented\"]",
    "1. b1 b5",
    "2. b1-b2 b5-b4 *",
    "*",
    "1-0",
    "{a comment}",
    "{ a comment over",
    "the end of it }",
    "; a comment",
    "1. b1 ; rest",
    "%escape",
    "  %not an escape",
    "(1... c5",
    ")",
    "\u00a0",
    "é b1",
]


def starts_of(text: str) -> set[int]:
    """The lines (0-based) where the reader begins a record in ``text``."""
    return {record.first_line - 1 for record in read_records(io.StringIO(text, newline=""))}


def test_record_starts_finds_only_where_the_reader_starts() -> None:
    """From any line on, every line found begins a record of the whole text."""
    rng = random.Random(14)
    found_any = 0
    for _ in range(3000):
        lines = [rng.choice(LINE_KINDS) for _ in range(rng.randrange(1, 14))]
        text = "".join(line + "\n" for line in lines)
        starts = starts_of(text)
        for begin in range(len(lines)):
            found = {begin + i for i in record_starts(line + "\n" for line in lines[begin:])}
            assert found <= starts, (lines, begin, found - starts)
            found_any += len(found)
    assert found_any > 500


def test_an_indented_escape_line_is_no_escape() -> None:
    """``  %x`` is a move to the reader, which begins a record there after a result;
    the byte-level cutter the batch had took it for an escape line, and cut at the
    next line although the reader does not begin a record there."""
    lines = ['[Game "cave"]', "", "1. b1 b5 *", "", "  %foo", "[bad"]
    text = "".join(line + "\n" for line in lines)
    assert starts_of(text) == {0, 4}
    assert list(record_starts(line + "\n" for line in lines)) == []


def test_cuts_are_where_record_starts_says(mixed: Path) -> None:
    data = mixed.read_bytes()
    starts = {record.first_line for record in read_file(mixed)}
    cuts = list(batch._cuts(str(mixed), 1))
    assert len(cuts) > 100
    for offset, line in cuts:
        assert line in starts and data[:offset].count(b"\n") + 1 == line


# -- a thin CLI -----------------------------------------------------------------------------


def imported_modules(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, at any depth of its code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "notation.commands" if node.level == 1 else node.module or ""
            module = f"{base}.{node.module}" if node.level == 1 and node.module else base
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def test_no_command_imports_another() -> None:
    """A command module parses options and calls the library; what several commands
    share is plumbing in ``commands.common`` (or a ``commands._name`` module), never
    another command."""
    commands = {
        path.stem for path in COMMANDS.glob("*.py") if not path.stem.startswith("_")
    } - {"common"}
    assert {"check", "show", "replay"} <= commands
    for path in sorted(COMMANDS.glob("*.py")):
        if path.stem == "__init__":
            continue
        others = commands - {path.stem}
        found = {
            module
            for module in imported_modules(path)
            if module.startswith("notation.commands.")
            and module.split(".")[2] in others
        }
        assert not found, f"{path.name} imports {sorted(found)}"


def test_the_default_number_of_processes_counts_only_free_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from notation.collections import workers
    monkeypatch.setattr(workers, "_cores", lambda: 4)
    big = workers.POOL_MIN_BYTES
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert workers.default_jobs(big) == 4
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (2.6, 0.0, 0.0))
    assert workers.default_jobs(big) == 1  # 1.4 cores free: two workers would crowd them
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (9.0, 0.0, 0.0))
    assert workers.default_jobs(big) == 1
    assert workers.default_jobs(big - 1) == 1  # a small input: one process whatever the load
