"""The documentation's example records are real: each one checks as the docs say.

Every fenced block in docs/*.md and README.md whose first line is a ``[Game "..."]``
tag is a record example and must be valid; blocks marked ``record`` are broken records
on purpose (docs/errors.md), which tests/test_errors_doc.py checks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notation.reader import read_string
from notation.replay import check_record

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _examples() -> list[tuple[str, str]]:
    out = []
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for info, block in FENCE.findall(path.read_text(encoding="utf-8")):
            # "record" and "slipped" blocks are broken on purpose (test_errors_doc.py).
            if block.startswith('[Game "') and not info.startswith(("record", "slipped")):
                out.append((path.name, block))
    return out


EXAMPLES = _examples()


def test_the_docs_have_record_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(("doc", "text"), EXAMPLES, ids=[d for d, _ in EXAMPLES])
def test_record_example_is_valid(doc: str, text: str) -> None:
    records = read_string(text, source=doc)
    assert records
    for record in records:
        verdict = check_record(record)
        assert verdict.ok, verdict.error


PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _python_examples() -> list[tuple[str, str]]:
    out = []
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for block in PYTHON.findall(path.read_text(encoding="utf-8")):
            out.append((path.name, block))
    return out


PYTHON_EXAMPLES = _python_examples()


def test_the_library_doc_has_runnable_examples() -> None:
    assert sum(doc == "library.md" for doc, _ in PYTHON_EXAMPLES) >= 8


@pytest.mark.parametrize(
    ("doc", "code"), PYTHON_EXAMPLES, ids=[f"{d}-{i}" for i, (d, _) in enumerate(PYTHON_EXAMPLES)]
)
def test_python_example_runs(
    doc: str, code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, f"{doc} example", "exec"), {"__name__": "__doc_example__"})
    capsys.readouterr()


def _annotated_excerpts() -> list[tuple[str, str, int, int, str]]:
    from refresh_captures import ANNOTATED

    out = []
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for args, first, last, text in ANNOTATED.findall(path.read_text(encoding="utf-8")):
            out.append((path.name, args, int(first), int(last), text))
    return out


EXCERPTS = _annotated_excerpts()


def test_the_readme_shows_an_annotated_excerpt_per_game() -> None:
    shown = {args.split("/")[1] for doc, args, *_ in EXCERPTS if doc == "README.md"}
    assert shown == {"tinkertown", "cave", "zombie-kidz"}


@pytest.mark.parametrize(
    ("doc", "args", "first", "last", "text"), EXCERPTS, ids=[e[1] for e in EXCERPTS]
)
def test_annotated_excerpts_are_what_annotate_writes(
    doc: str, args: str, first: int, last: int, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refresh_captures import annotate_lines

    monkeypatch.chdir(ROOT)
    assert annotate_lines(args, first, last) == text, (
        f"{doc}: run python3 tests/refresh_captures.py to refresh `notation annotate {args}`"
    )
