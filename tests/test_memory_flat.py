"""Memory stays flat: the commands that go through a collection write what they have
as they go, and hold no list of verdicts, records or output to the end.

Nothing here measures memory (docs/performance.md, "Memory", has the figures); each
test checks the structure that keeps it flat: the first output comes before the end of
the input, whose records keep coming through a pipe until it does.  A command that held
its output (to sort it, to count first) would read all of its input first.  And the
record tree shares what it safely can (a move's text), not what it must not (a node's
lists, which the library lets users change in place), and makes those lists only when
they are asked for: most moves have none.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.collections import batch, workers
from notation.collections.batch import TextSource, check_paths
from notation.reader import read_string
from notation.record import Comment, MoveNode
from notation.visitor import TreeBuilder

ROOT = Path(__file__).resolve().parent.parent
#: A short Cave record of the plain shape (the streaming check's fast path), and one
#: with a comment and a glyph (the reader's path).
PLAIN = b'[Game "cave"]\n\n1. b1 a5 2. b1-b2 b5 *\n\n'
COMMENTED = b'[Game "cave"]\n\n1. b1 {in} a5 $1 2. b1-b2 b5 *\n\n'
#: Records fed at most: far more than the pipes and the buffers on the way hold
#: (64 kB, 8 kB), so that output held to the end shows as all of them written first.
MOST = 20_000


def records_written_before_first_line(
    args: tuple[str, ...], record: bytes, exit_code: int = 0
) -> tuple[int, bytes]:
    """``notation ARGS`` with ``record`` fed again and again to its standard input (a
    pipe), up to :data:`MOST` times, until the first line of its standard output comes:
    how many records had been written then, and the first line.  Standard input is
    closed then, and the command must end well (``exit_code``, no traceback)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "notation", *args, "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    stdin = process.stdin
    got = threading.Event()
    written = 0

    def feed() -> None:
        nonlocal written
        try:
            while written < MOST and not got.is_set():
                stdin.write(record)
                stdin.flush()
                written += 1
        except BrokenPipeError:  # pragma: no cover - the command ended early
            pass
        finally:
            with contextlib.suppress(BrokenPipeError):
                stdin.close()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        first = process.stdout.readline()
        at_first = written
        got.set()
        feeder.join(60)
        process.stdout.read()
        error = process.stderr.read()
        code = process.wait(120)
    finally:
        got.set()
        if process.poll() is None:  # pragma: no cover - only when a check above failed
            process.kill()
            process.wait()
    assert code == exit_code
    assert b"Traceback" not in error and b"Exception" not in error, error
    return at_first, first


@pytest.mark.parametrize("record", [PLAIN, COMMENTED], ids=["plain", "commented"])
@pytest.mark.parametrize(
    "args",
    [
        ("check", "--format", "json"),
        ("check", "-v"),
        ("check", "--format", "json", "--jobs", "2"),
        ("check", "--strict", "--format", "json"),
        ("convert", "--to", "json"),
        ("convert", "--to", "text"),
        ("annotate",),
        ("select", "--valid"),
    ],
    ids=lambda args: " ".join(args),
)
def test_the_first_output_comes_before_the_end_of_the_input(
    args: tuple[str, ...], record: bytes
) -> None:
    if "--strict" in args and record is COMMENTED:
        pytest.skip("the strict check refuses the comment: the plain record is enough")
    written, first = records_written_before_first_line(args, record)
    assert first  # a line of output...
    assert written < MOST  # ...before the input was all written


def test_check_text_without_v_writes_only_broken_records_as_they_come() -> None:
    # Without -v, the valid records write nothing until the summary: a broken record
    # every so often still shows as it comes.
    broken = b'[Game "cave"]\n\n1. b1 b1 *\n\n'
    written, first = records_written_before_first_line(("check",), PLAIN * 9 + broken, 1)
    assert b"record 10" in first
    assert written < MOST


# -- in process: the checker takes its input as it goes -------------------------------


def _counted_lines(record: str, times: int, taken: list[int]) -> Iterator[str]:
    for _ in range(times):
        for line in record.splitlines(keepends=True):
            taken[0] += 1
            yield line


@pytest.mark.parametrize("strict", [False, True])
def test_check_paths_reads_standard_input_as_it_goes(strict: bool) -> None:
    taken = [0]
    source = TextSource("<stdin>", _counted_lines(PLAIN.decode(), 10_000, taken))
    verdicts = check_paths([source], jobs=1, strict=strict)
    first = next(verdicts)
    assert first.ok and first.record == 1
    assert taken[0] < 1_000
    assert sum(1 for _ in verdicts) == 9_999


def test_check_paths_with_workers_hands_out_a_few_parts_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file of many parts: the first verdict comes when a few parts were handed out,
    # not all of them (verdicts waiting their turn stay few).
    path = tmp_path / "big.txt"
    path.write_bytes(PLAIN * 110_000)  # 4.4 MB: parts of 250 kB
    made: list[Any] = []
    units = batch._units

    def counted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for unit in units(*args, **kwargs):
            made.append(unit)
            yield unit

    monkeypatch.setattr(batch, "_units", counted)
    verdicts = check_paths([path], jobs=2)
    try:
        first = next(verdicts)
        assert first.ok and first.record == 1
        handed = len(made)
        assert sum(1 for _ in verdicts) == 109_999
    finally:
        verdicts.close()
    assert len(made) > 12  # the file was cut in many parts...
    assert handed <= 2 * workers.AHEAD + 1  # ...and only a few were taken for the first


# -- the record tree: what it shares, and what it must not -----------------------------


def test_nodes_that_spell_the_same_move_share_its_text() -> None:
    # A record tree holds one string per distinct move of a file, not one per turn.
    text = "[Game \"cave\"]\n\n1. b1 a5 2. b1-b2 b5 3. b2-b1 b5-a5 4. b1-b2 a5-b5 *\n"
    (one,) = read_string(text)
    (two,) = read_string(text.replace("1. b1 a5", "1. b1 {c} a5!"))  # the reader's slow path
    for record in (one, two):
        assert record.moves[2].text == record.moves[6].text == "b1-b2"
        assert record.moves[2].text is record.moves[6].text
        assert record.moves[5].text is not record.moves[7].text  # b5-a5, a5-b5
    assert two.moves[1].text == "a5" and two.moves[1].suffix == "!"


def test_shared_texts_are_bounded_whatever_the_input() -> None:
    builder = TreeBuilder()
    for number in range(TreeBuilder.SHARED_TEXTS + 100):
        word = f"m{number}"
        assert builder.shared(word) is word
        again = f"m{number}"  # equal, another string
        assert builder.shared(again) is (word if number < TreeBuilder.SHARED_TEXTS else again)
    assert len(builder.shared_texts) == TreeBuilder.SHARED_TEXTS


def test_each_node_has_lists_of_its_own() -> None:
    # docs/library.md: a node's nags, comments and variations are lists to change in
    # place, so empty ones cannot be shared between nodes to save memory.
    (record,) = read_string("1. b1 a5 2. b1-b2 *\n")
    first, second, _ = record.moves
    first.nags.append(1)
    first.comments_after.append(Comment("mine"))
    first.add_variation(["c1"])
    assert second.nags == [] and second.comments_after == [] and second.variations == []
    assert MoveNode("b1").nags is not MoveNode("b1").nags


_LISTS = ("nags", "comments_before", "comments_after", "variations")


def _made(node: MoveNode) -> dict[str, object]:
    """The lists ``node`` has made (its slots beneath the properties), by name."""
    made = {name: getattr(node, f"_{name}") for name in _LISTS}
    return {name: items for name, items in made.items() if items is not None}


@pytest.mark.parametrize("spaced", [True, False], ids=["spaced", "tokenized"])
def test_a_node_makes_its_lists_only_when_asked(spaced: bool) -> None:
    # Most moves have no glyph, comment nor variation: the reader makes no list for
    # them, and neither does comparing nodes; a list is made when it is first read
    # (the public name), and is then the node's own.  Both of the reader's paths.
    gap = " " if spaced else "  "
    text = f"1. b1{gap}a5 $1 2. {{before}} b1-b2 (2. c1) b5 {{after}} 3. b2-b1 *\n"
    (record,) = read_string(text)
    b1, a5, b1_b2, b5, b2_b1 = record.moves
    assert _made(b1) == {} and _made(b2_b1) == {}
    assert _made(a5) == {"nags": [1]}
    assert set(_made(b1_b2)) == {"comments_before", "variations"}
    assert _made(b1_b2.variations[0].nodes[0]) == {}
    assert set(_made(b5)) == {"comments_after"}
    assert b1 == MoveNode("b1") and _made(b1) == {}
    assert b1.variations == [] and _made(b1) == {"variations": []}
    assert b1.variations is b1.variations
