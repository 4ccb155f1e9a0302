"""docs/errors.md tells the truth: each example record gives the error shown under it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli

DOC = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
# A record block ("record", or "record strict" for check --strict), a blank line, and the
# block of what `notation check game.txt` prints first, marked with the error's kind.
EXAMPLE = re.compile(r"```record( strict)?\n(.*?)```\n\n```error (\w+)\n(.*?)\n```\n", re.S)
EXAMPLES = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))


def test_the_page_has_its_examples() -> None:
    # Every record block is followed by its error block (none is left unchecked).
    assert len(EXAMPLES) == DOC.read_text(encoding="utf-8").count("```record")
    assert len(EXAMPLES) > 150
    assert {kind for _, _, kind, _ in EXAMPLES} == {"syntax", "illegal", "result"}


@pytest.mark.parametrize(
    ("strict", "record", "kind", "line"),
    EXAMPLES,
    ids=[f"{i}-{line.split(': ')[-1][:40]}" for i, (_, _, _, line) in enumerate(EXAMPLES, 1)],
)
def test_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strict: str, record: str, kind: str,
    line: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("game.txt").write_text(record, encoding="utf-8")
    options = ["--strict"] if strict else []
    text = CliRunner().invoke(cli, ["check", *options, "game.txt"])
    assert text.exit_code == 1
    assert text.output.splitlines()[0] == line
    as_json = CliRunner().invoke(cli, ["check", *options, "--format", "json", "game.txt"])
    assert json.loads(as_json.output.splitlines()[0])["error"]["kind"] == kind
    if strict:  # a strict example is valid without --strict
        assert CliRunner().invoke(cli, ["check", "game.txt"]).exit_code == 0
