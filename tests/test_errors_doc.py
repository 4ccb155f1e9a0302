"""docs/errors.md tells the truth: each example record gives the error shown under it,
kind and code included, and its tables of codes list exactly the codes there are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.errors import CODES, all_codes
from notation.games import all_games

DOC = Path(__file__).resolve().parent.parent / "docs" / "errors.md"
TEXT = DOC.read_text(encoding="utf-8")
# A record block ("record", or "record strict" for check --strict), a blank line, and the
# block of what `notation check game.txt` prints first, marked with the error's kind and
# code ("error illegal cave-team-too-big").
EXAMPLE = re.compile(
    r"```record( strict)?\n(.*?)```\n\n```error (\w+) ([a-z0-9-]+)\n(.*?)\n```\n", re.S
)
EXAMPLES = EXAMPLE.findall(TEXT)
# A row of a table of codes: | `code` | kind | what it means |
ROW = re.compile(r"^\| `([^`]+)` \| (\w+) \| (.*) \|$", re.M)
ROWS = ROW.findall(TEXT)
# A record copied with a slip ("slipped"), a blank line, and the lines `notation check
# --all game.txt` prints for it before its summary ("all").
SLIPPED = re.compile(r"```slipped\n(.*?)```\n\n```all\n(.*?)\n```\n", re.S)
SLIPPED_EXAMPLES = SLIPPED.findall(TEXT)

#: Codes of a game with no example on the page, each for a reason given on the page.
NO_EXAMPLE = {
    # No straight line between two graves crosses a square outside the cemetery:
    # test_leaving_the_cemetery_cannot_be_written checks that it stays so.
    "tinkertown-leaves-cemetery",
}


def test_the_page_has_its_examples() -> None:
    # Every record block is followed by its error block (none is left unchecked).
    assert len(EXAMPLES) == TEXT.count("```record")
    assert len(EXAMPLES) > 150
    assert {kind for _, _, kind, _, _ in EXAMPLES} == {"syntax", "illegal", "result"}


@pytest.mark.parametrize(
    ("strict", "record", "kind", "code", "line"),
    EXAMPLES,
    ids=[f"{i}-{line.split(': ')[-1][:40]}" for i, (*_, line) in enumerate(EXAMPLES, 1)],
)
def test_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strict: str, record: str, kind: str,
    code: str, line: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("game.txt").write_text(record, encoding="utf-8")
    options = ["--strict"] if strict else []
    text = CliRunner().invoke(cli, ["check", *options, "game.txt"])
    assert text.exit_code == 1
    assert text.output.splitlines()[0] == line
    as_json = CliRunner().invoke(cli, ["check", *options, "--format", "json", "game.txt"])
    error = json.loads(as_json.output.splitlines()[0])["error"]
    assert (error["kind"], error["code"]) == (kind, code)
    if strict:  # a strict example is valid without --strict
        assert CliRunner().invoke(cli, ["check", "game.txt"]).exit_code == 0


@pytest.mark.parametrize(("record", "lines"), SLIPPED_EXAMPLES)
def test_slipped_example(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: str, lines: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("game.txt").write_text(record, encoding="utf-8")
    text = CliRunner().invoke(cli, ["check", "--all", "game.txt"])
    assert text.exit_code == 1
    assert text.output.splitlines()[:-1] == lines.splitlines()


def test_the_page_shows_the_slips_found() -> None:
    assert len(SLIPPED_EXAMPLES) == TEXT.count("```slipped") >= 3


def test_the_tables_list_every_code_once_with_its_meaning() -> None:
    listed = [code for code, _, _ in ROWS]
    assert len(listed) == len(set(listed)), "a code listed twice"
    assert {code: meaning for code, _, meaning in ROWS} == all_codes()


def test_each_game_has_its_own_table() -> None:
    # The table under a game's heading holds exactly that game's codes.
    for game in all_games():
        start = TEXT.index(f"### {game.title}\n", TEXT.index("## Error codes"))
        end = TEXT.find("\n#", start + 1)
        assert {code for code, _, _ in ROW.findall(TEXT[start:end])} == set(game.error_codes)


def test_the_tables_give_each_code_the_kind_of_its_examples() -> None:
    kinds = {code: kind for code, kind, _ in ROWS}
    for _, _, kind, code, _ in EXAMPLES:
        assert kinds[code] == kind, code
    for kind in ("syntax", "illegal", "result"):  # a code-less error carries its kind
        assert kinds[kind] == kind


def test_every_code_of_a_game_has_an_example() -> None:
    shown = {code for *_, code, _ in EXAMPLES}
    for game in all_games():
        missing = set(game.error_codes) - shown
        assert missing == NO_EXAMPLE & set(game.error_codes), (game.name, sorted(missing))
    assert all_codes().keys() >= NO_EXAMPLE


def test_every_shared_code_has_an_example_but_the_defaults() -> None:
    shown = {code for *_, code, _ in EXAMPLES}
    # No game of the package gives the exceptions' defaults (tests/test_error_codes.py
    # shows them with the test game), and the kinds are for errors without a code.
    # A JSON line is no record text (tests/test_error_codes.py shows json-not-a-record).
    unshown = {"move-syntax", "move-illegal", "syntax", "illegal", "result", "json-not-a-record"}
    assert set(CODES) - shown == unshown


def test_leaving_the_cemetery_cannot_be_written() -> None:
    # Why tinkertown-leaves-cemetery has no example: every straight line from a grave
    # to a grave stays inside the cemetery.
    from notation.games.tinkertown.board import IS_GRAVE, OFF_BOARD, PATHS

    for index, path in enumerate(PATHS):
        origin, target = divmod(index, 64)
        if path is not None and IS_GRAVE[origin] and IS_GRAVE[target]:
            assert not OFF_BOARD & set(path)
