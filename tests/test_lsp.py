"""``notation lsp`` through a real client: pytest-lsp starts the server as a process of
its own (``python -m notation lsp``) and talks to it over standard input and output.

One server serves the whole module (each test opens documents of its own, under its
own names).  Nothing is timed: a test waits for the diagnostics of the version it sent
(a condition, with a generous guard against a hang), never for a while.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the lsp extra (pygls) is not installed")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp is not installed")

from click.testing import CliRunner  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features  # noqa: E402

from notation.cli import cli  # noqa: E402
from notation.editing.editor import RecordEditor  # noqa: E402
from notation.games import get_game  # noqa: E402
from notation.reader import read_string  # noqa: E402
from notation.render.plain_text import HOVER_WIDTH, position_brief  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parent.parent
ERRORS_DOC = ROOT / "docs" / "errors.md"
#: A guard against a hang (a server that stopped answering), never a measure of speed.
GUARD = 300
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS

CAVE = '[Game "cave"]\n[Event "Club night"]\n[Red "Mina"]\n[Black "Igor"]\n\n1. b1 b5 2. b1-b2 *\n'


def make_client() -> LanguageClient:
    """pytest-lsp's client, which also keeps the last diagnostics published for each
    document, with their version, and wakes whoever waits for them."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    default = features[PUBLISH]
    published: dict[str, types.PublishDiagnosticsParams] = {}
    changed = asyncio.Event()

    def on_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        default(client, params)
        published[params.uri] = params
        changed.set()

    features[PUBLISH] = on_publish
    register_lsp_features(client, features)
    client.published = published  # type: ignore[attr-defined]
    client.changed = changed  # type: ignore[attr-defined]
    return client


ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
ENV.pop("COLUMNS", None)


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "notation", "lsp"],
        client_factory=make_client,
        server_env=ENV,
    ),
)
async def client(lsp_client: LanguageClient) -> Any:
    capabilities = client_capabilities("neovim")
    # Positions in UTF-16 units, the protocol's default (what VS Code and most clients use).
    assert capabilities.general is not None
    capabilities.general.position_encodings = [types.PositionEncodingKind.Utf16]
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf16
    yield
    await lsp_client.shutdown_session()


_names = itertools.count(1)


def new_uri() -> str:
    return f"file:///lsp-test/doc{next(_names)}.txt"


async def published(
    client: LanguageClient,
    uri: str,
    version: int | None,
    condition: Callable[[list[types.Diagnostic]], bool] = lambda found: True,
) -> list[types.Diagnostic]:
    """The diagnostics of ``uri`` at ``version`` once they meet ``condition``."""
    seen: dict[str, types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    changed: asyncio.Event = client.changed  # type: ignore[attr-defined]
    while True:
        params = seen.get(uri)
        if params is not None and params.version == version:
            found = list(params.diagnostics)
            if condition(found):
                return found
        changed.clear()
        await asyncio.wait_for(changed.wait(), GUARD)


async def open_doc(
    client: LanguageClient, text: str, uri: str | None = None,
    condition: Callable[[list[types.Diagnostic]], bool] = lambda found: True,
) -> tuple[str, list[types.Diagnostic]]:
    uri = uri or new_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "notation", 1, text))
    )
    return uri, await published(client, uri, 1, condition)


def close_doc(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri))
    )


async def change(
    client: LanguageClient, uri: str, version: int,
    changes: list[types.TextDocumentContentChangeEvent],
    condition: Callable[[list[types.Diagnostic]], bool] = lambda found: True,
) -> list[types.Diagnostic]:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version), changes
    ))
    return await published(client, uri, version, condition)


def edit(line: int, char: int, end_line: int, end_char: int, text: str) -> Any:
    return types.TextDocumentContentChangePartial(
        types.Range(types.Position(line, char), types.Position(end_line, end_char)), text
    )


def position_of(text: str, needle: str, after: bool = True, nth: int = 0) -> types.Position:
    """The position just after (or at) the ``nth`` occurrence of ``needle`` in ``text``,
    in UTF-16 units."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    if after:
        at += len(needle)
    before = text[:at]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return types.Position(line, len(column.encode("utf-16-le")) // 2)


async def complete(client: LanguageClient, uri: str, position: types.Position) -> list[Any]:
    result = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), position
    ))
    assert result is not None
    return list(result.items if isinstance(result, types.CompletionList) else result)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with ``edits`` (non-overlapping, UTF-16 ranges) made."""
    lines = text.split("\n")

    def offset(position: types.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        head = sum(len(line) + 1 for line in lines[: position.line])
        units = lines[position.line].encode("utf-16-le")[: position.character * 2]
        return head + len(units.decode("utf-16-le"))

    for item in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        text = text[: offset(item.range.start)] + item.new_text + text[offset(item.range.end) :]
        lines = text.split("\n")
    return text


def no_errors_logged(client: LanguageClient) -> None:
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert not errors, errors


# -- diagnostics: every error code of docs/errors.md at its place ------------------------

#: A record block, then the first line `notation check game.txt` prints, with its kind
#: and code (as tests/test_errors_doc.py reads them).
EXAMPLE = re.compile(
    r"```record( strict)?\n(.*?)```\n\n```error (\w+) ([a-z0-9-]+)\n(.*?)\n```\n", re.S
)
EXAMPLES = EXAMPLE.findall(ERRORS_DOC.read_text(encoding="utf-8"))
WHERE = re.compile(r"game\.txt:(\d+):(\d+): record 1(?:, turn (\d+) \((.*?)\))?: (.*)$")


async def test_every_code_has_an_example() -> None:
    assert len(EXAMPLES) > 150


async def test_each_error_of_errors_md_at_its_token(client: LanguageClient) -> None:
    # All the examples of the page, opened at once: each gets its own diagnostics.
    opened = []
    for strict, record, _kind, code, line in EXAMPLES:
        uri = new_uri()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "notation", 1, record))
        )
        opened.append((uri, strict, record, code, line))
    for uri, strict, record, code, line in opened:
        found = await published(client, uri, 1)
        match = WHERE.match(line)
        assert match is not None, line
        row, column = int(match.group(1)) - 1, int(match.group(2)) - 1
        turn, move, message = match.group(3), match.group(4), match.group(5)
        at = [d for d in found if d.code == code and d.range.start == types.Position(row, column)]
        assert at, (line, [(d.code, d.range.start, d.message) for d in found])
        diagnostic = at[0]
        severity = types.DiagnosticSeverity.Hint if strict else types.DiagnosticSeverity.Error
        assert diagnostic.severity == severity
        assert message.split("; did you mean")[0] in diagnostic.message
        if turn is not None:
            assert diagnostic.message.startswith(f"turn {turn}: ")
        if turn is not None and record.split("\n")[row][column:].startswith(move):
            # A move's diagnostic covers the move as written.
            assert diagnostic.range.end == types.Position(row, column + len(move)), line
        assert diagnostic.source == "notation"
        close_doc(client, uri)
    no_errors_logged(client)


async def test_last_change_is_related_information_and_definition(client: LanguageClient) -> None:
    text = '[Game "tinkertown"]\n\n1. d3 d2,b5 2. d3 *\n'
    uri, found = await open_doc(client, text)
    (diagnostic,) = [d for d in found if d.code == "tinkertown-occupied"]
    blamed = types.Range(types.Position(2, 3), types.Position(2, 5))  # 1. d3
    assert diagnostic.related_information is not None
    (related,) = diagnostic.related_information
    assert (related.location.uri, related.location.range) == (uri, blamed)
    assert "last changed" in related.message
    target = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), diagnostic.range.start
    ))
    assert isinstance(target, types.Location) and target.range == blamed
    close_doc(client, uri)


async def test_a_fix_on_another_line_is_related_information(client: LanguageClient) -> None:
    """A defect whose fix mends another line (the tag that sets the game up, its name in
    the wrong case) points at it, with the fix's title; the quick fix that edits it is
    offered at the defect and at that line."""
    text = '[Game "zombie-kidz"]\n[players "3"]\n\n1. R G B 2. R *\n'
    uri, found = await open_doc(client, text)
    (diagnostic,) = [d for d in found if d.code == "number-wrong"]
    tag = types.Range(types.Position(1, 1), types.Position(1, 8))  # players
    assert diagnostic.related_information is not None
    (related,) = diagnostic.related_information
    assert (related.location.uri, related.location.range) == (uri, tag)
    assert related.message == "Rename the tag players to Players"
    for where in (diagnostic.range, tag):
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), where, types.CodeActionContext(found)
        ))
        edits = [(edit.range, edit.new_text) for action in actions or []
                 if isinstance(action, types.CodeAction) and action.edit and action.edit.changes
                 for edit in action.edit.changes[uri]]
        assert (tag, "Players") in edits, where
    close_doc(client, uri)


async def test_diagnostics_clear_when_fixed(client: LanguageClient) -> None:
    text = '[Game "cave"]\n\n1. b1 b5 2. b1-b3 *\n'
    uri, found = await open_doc(client, text)
    assert [d.code for d in found] == ["cave-move-not-orthogonal"]
    start = position_of(text, "b1-b3", after=False)
    fixed = await change(client, uri, 2, [edit(start.line, start.character + 4, start.line,
                                                start.character + 5, "2")])
    assert fixed == []
    broken = await change(client, uri, 3, [edit(2, 0, 2, 0, "}")])
    assert [d.code for d in broken] == ["comment-unopened"]
    close_doc(client, uri)


async def test_strict_issues_are_hints_beside_errors(client: LanguageClient) -> None:
    text = '[Game "cave"]\n\n1. B1 b5 b1-b2 b5-b9 *\n'
    uri, found = await open_doc(client, text)
    kinds = {(d.code, d.severity) for d in found}
    assert ("strict-letter-case", types.DiagnosticSeverity.Hint) in kinds
    assert ("strict-number-missing", types.DiagnosticSeverity.Hint) in kinds
    assert any(d.severity == types.DiagnosticSeverity.Error for d in found)
    close_doc(client, uri)


async def test_every_record_of_a_file_has_its_diagnostics(client: LanguageClient) -> None:
    path = ROOT / "records" / "cave" / "broken.ugn"
    text = path.read_text(encoding="utf-8")
    uri, found = await open_doc(client, text)
    errors = [d for d in found if d.severity == types.DiagnosticSeverity.Error]
    runner = CliRunner().invoke(cli, ["check", "--all", "--format", "json", str(path)])
    expected = [
        (e["line"] - 1, e["column"] - 1, e["code"])
        for line in runner.output.splitlines()
        for e in json.loads(line)["errors"]
    ]
    assert [(d.range.start.line, d.range.start.character, d.code) for d in errors] == expected
    close_doc(client, uri)


# -- completion ------------------------------------------------------------------------


def legal_texts(game: str, moves: list[str], tags: dict[str, str] | None = None) -> list[str]:
    """The canonical texts of the legal moves after ``moves``, by the library alone."""
    position = get_game(game).new_position(tags)
    for move in moves:
        position.push_text(move)
    return [str(move) for move in position.legal_moves()]


@pytest.mark.parametrize(
    ("game", "text", "cursor", "moves"),
    [
        ("tinkertown", "1. d3 d2,b5 2. ", "2. ", ["d3", "d2,b5"]),
        ("tinkertown", "1. d3 d2,b5 2. c5,f2 (2. ", "(2. ", ["d3", "d2,b5"]),
        ("cave", "1. b1 b5 2. b1-b2 ", "b1-b2 ", ["b1", "b5", "b1-b2"]),
        ("cave", "1. b1 b5 (1... ", "(1... ", ["b1"]),
        ("zombie-kidz", "1. G:b2-c2x ", "c2x ", ["G:b2-c2x"]),
        ("zombie-kidz", "1. G:b2-c2x R (1... ", "(1... ", ["G:b2-c2x"]),
    ],
    ids=["tinkertown", "tinkertown-variation", "cave", "cave-variation", "zombie-kidz",
         "zombie-kidz-variation"],
)
async def test_completion_is_the_legal_moves_there(
    client: LanguageClient, game: str, text: str, cursor: str, moves: list[str]
) -> None:
    document = f'[Game "{game}"]\n\n{text}*\n'
    uri, _ = await open_doc(client, document)
    items = await complete(client, uri, position_of(document, cursor))
    offered = [item.label for item in items if item.kind == types.CompletionItemKind.Value]
    assert offered == legal_texts(game, moves)
    if game == "zombie-kidz":  # the die faces first, then the moves
        faces = [item.label for item in items if item.kind == types.CompletionItemKind.EnumMember]
        assert faces == ["R", "Y", "G", "K", "B", "W"]
        assert items[: len(faces)] == [i for i in items if i.label in faces and i.kind ==
                                       types.CompletionItemKind.EnumMember]
    # The detail is what the record editor says the move does.
    editor = RecordEditor.new(game, defaults=False)
    for move in moves:
        editor.play(move)
    described = {c.text: c.description for c in editor.candidates("")}
    assert {i.label: i.detail for i in items if i.kind == types.CompletionItemKind.Value} == (
        described
    )
    close_doc(client, uri)


async def test_completion_of_a_second_placement_and_a_prefix(client: LanguageClient) -> None:
    document = '[Game "tinkertown"]\n\n1. d3 d2, *\n'
    uri, _ = await open_doc(client, document)
    items = await complete(client, uri, position_of(document, "d2,"))
    assert [i.label for i in items] == [m for m in legal_texts("tinkertown", ["d3"])
                                        if m.startswith("d2,")]
    first = items[0].text_edit
    assert isinstance(first, types.TextEdit)
    assert first.range == types.Range(types.Position(2, 6), types.Position(2, 9))  # "d2,"
    close_doc(client, uri)


async def test_completion_of_tags_and_game_names(client: LanguageClient) -> None:
    document = '[Game "zombie-kidz"]\n[Pl\n\n1. G *\n'
    uri, _ = await open_doc(client, document)
    items = await complete(client, uri, position_of(document, "[Pl"))
    labels = [i.label for i in items]
    assert labels[:4] == ["Player1", "Player2", "Player3", "Player4"] and "Players" in labels
    assert all(i.kind == types.CompletionItemKind.Property and i.detail for i in items)
    values = await complete(client, uri, position_of(document, '[Game "'))
    assert [i.label for i in values] == ["cave", "tinkertown", "zombie-kidz"]
    close_doc(client, uri)


async def test_no_completion_in_a_comment(client: LanguageClient) -> None:
    document = '[Game "cave"]\n\n1. b1 {a comment } b5 *\n'
    uri, _ = await open_doc(client, document)
    assert await complete(client, uri, position_of(document, "{a com")) == []
    close_doc(client, uri)


# -- hover, formatting, symbols, code actions --------------------------------------------


async def test_hover_fits_an_editors_window_and_names_the_file(client: LanguageClient) -> None:
    """The position after the move, drawn for a hover (library: position_brief): no
    line wider than HOVER_WIDTH (an 80-column editor), a modest height, the move's facts
    in one paragraph; a broken record's message names the document's file."""
    path = ROOT / "records" / "cave" / "examples.ugn"
    text = path.read_text(encoding="utf-8")
    uri, _ = await open_doc(client, text)
    records = read_string(text)
    node = records[0].moves[5]
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(node.line - 1, node.column)
    ))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    value = hover.contents.value
    brief = position_brief(records[0], node)
    assert brief is not None
    assert value.startswith("```text\n" + brief[0] + "```")  # the picture, exactly
    block = brief[0].splitlines()
    assert max(len(line) for line in block) <= HOVER_WIDTH <= 76
    assert len(block) <= 24
    assert "Sc4xKb3: Black's skeleton lost to Red's black knight on b3" in block
    assert value.endswith("side: black; attacker class: S; attacker size: 1; defender class: "
                          "K; defender size: 1; winner: defender; removed: side black, count "
                          "1; revealed: c4 S, b3 K")
    tag = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(0, 2)
    ))
    assert tag is not None and "the game the record is of" in str(tag.contents)
    close_doc(client, uri)
    # A broken record: the message under the picture names the file, not <input>.
    broken = '[Game "cave"]\n\n1. b1 b5 2. b1-b2\n'
    uri = "file:///lsp-test/my%20games.txt"
    await open_doc(client, broken, uri)
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), types.Position(2, 13)
    ))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    value = hover.contents.value
    assert "<input>" not in value
    assert "the record is broken: /lsp-test/my games.txt:3:18: record 1:" in value
    close_doc(client, uri)


@pytest.mark.parametrize("game", ["tinkertown", "cave", "zombie-kidz"])
async def test_formatting_is_convert_to_text(
    client: LanguageClient, game: str, tmp_path: Path
) -> None:
    source = (ROOT / "records" / game / "examples.ugn").read_text(encoding="utf-8")
    broken = (ROOT / "records" / game / "broken.ugn").read_text(encoding="utf-8")
    # Untidy: numbers run together, spaces doubled, blank lines added, a broken record.
    text = source.replace("1. ", "1.").replace(" ", "  ", 40).replace("\n\n", "\n\n\n", 3)
    text += "\n" + broken.split("\n\n[", 1)[0] + "\n"
    uri, _ = await open_doc(client, text)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), types.FormattingOptions(tab_size=4, insert_spaces=True)
    ))
    assert edits
    path = tmp_path / "games.txt"
    path.write_text(text, encoding="utf-8")
    wanted = CliRunner().invoke(cli, ["convert", "--to", "text", str(path)]).stdout
    assert apply_edits(text, edits) == wanted
    close_doc(client, uri)


async def test_symbols_one_per_record(client: LanguageClient) -> None:
    text = CAVE + "\n" + CAVE.replace("Club night", "Cup").replace("Mina", "Lucy")
    uri, _ = await open_doc(client, text)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    assert [(s.name, s.detail) for s in symbols] == [  # type: ignore[union-attr]
        ("1. Club night", "Mina - Igor  *  (cave)"), ("2. Cup", "Lucy - Igor  *  (cave)")
    ]
    assert [s.range.start.line for s in symbols] == [0, 7]  # type: ignore[union-attr]
    close_doc(client, uri)


async def test_code_actions_apply_the_checkers_hints(client: LanguageClient) -> None:
    cases = {
        '[Game "cave"]\n\n1. b1 b5 2. b1-b3 b5-b4 3. b2-b3 *\n': "b1-b2",  # did you mean
        '[Game "cavee"]\n\n1. b1 b5 *\n': "cave",  # the nearest game
        '[Game "cave"]\n\n1. b1 b5\n': "*",  # a missing result
        '[Game "cave"]\n[Result "1-0"]\n\n1. b1 b5\n': "1-0",  # the Result tag's
        '[Game "cave"]\n\n1. b1 b5 1 - 0\n': "1-0",  # a result with spaces
        '[Game "cave"]\n\n1. b1 B5 *\n': "b5",  # strict: letter case
    }
    for text, wanted in cases.items():
        uri, found = await open_doc(client, text)
        assert found, text
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri),
            types.Range(types.Position(0, 0), types.Position(3, 0)),
            types.CodeActionContext(found),
        ))
        assert actions, text
        chosen = [a for a in actions if isinstance(a, types.CodeAction) and a.edit
                  and wanted in a.edit.changes[uri][0].new_text]  # type: ignore[index]
        assert chosen, (text, actions)
        fixed = apply_edits(text, chosen[0].edit.changes[uri])  # type: ignore[union-attr,index]
        after = await change(client, uri, 2, [types.TextDocumentContentChangeWholeDocument(fixed)])
        assert all(d.code != found[0].code or d.range != found[0].range for d in after), fixed
        # and made no other error (a strict hint may stay: 1. b1 B5 has two)
        assert all(d.severity == types.DiagnosticSeverity.Hint for d in after), (fixed, after)
        close_doc(client, uri)


# -- documents of every kind -------------------------------------------------------------


async def test_a_document_changed_by_incremental_edits(
    client: LanguageClient, tmp_path: Path
) -> None:
    # UTF-16 ranges: an emoji (two units) before the moves edited.
    text = '[Game "cave"]\n\n{😀 a start} 1. b1 b5 2. b1-b2 *\n'
    uri, found = await open_doc(client, text)
    assert found == []
    version = 1

    async def changed(*changes: Any) -> list[types.Diagnostic]:
        nonlocal version, text
        version += 1
        for item in changes:  # one after the other, as the protocol says
            text = apply_edits(text, [types.TextEdit(item.range, item.text)])
        return await change(client, uri, version, list(changes))

    start = position_of(text, "b1-b2")
    broken = await changed(edit(start.line, start.character, start.line, start.character, "x"))
    assert [d.code for d in broken] == ["cave-move-malformed"]
    assert broken[0].range.start == position_of(text, "b1-b2", after=False)
    # Several changes in one notification, across lines: an escape line, a blank line.
    line = start.line
    again = await changed(
        edit(line, start.character, line, start.character + 1, ""),
        edit(line + 1, 0, line + 1, 0, "\n"),
        edit(line, 0, line, 0, "% an escape line\n"),
    )
    assert again == []
    at = position_of(text, "1. b1 b5")
    final = await changed(edit(at.line, at.character, at.line, at.character,
                               " (1... a5 2. b1-c1 c5 3. c1-c3)"))
    assert [d.code for d in final] == ["cave-move-not-orthogonal"]
    # The same text opened afresh has the same diagnostics.
    fresh_uri, fresh = await open_doc(client, text)
    assert [(d.code, d.range) for d in fresh] == [(d.code, d.range) for d in final]
    close_doc(client, fresh_uri)
    # Mended, the record checks: its canonical text is that of the text we kept.
    at = position_of(text, "c1-c3", after=False)
    assert await changed(edit(at.line, at.character + 4, at.line, at.character + 5, "2")) == []
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), types.FormattingOptions(tab_size=4, insert_spaces=True)
    ))
    path = tmp_path / "kept.txt"
    path.write_text(text, encoding="utf-8")
    wanted = CliRunner().invoke(cli, ["convert", "--to", "text", str(path)]).stdout
    assert edits and apply_edits(text, list(edits)) == wanted
    close_doc(client, uri)


def _hostile() -> Iterator[tuple[str, str]]:
    """The hostile inputs of tests/test_hostile.py, as an editor would hand them over
    (decoded: bytes that are not UTF-8 as the lone surrogates Python gives them)."""
    yield "empty", ""
    yield "blank", "\n\n  \n"
    yield "binary", bytes(range(256)).decode("latin-1") * 40
    yield "not-utf8", b'[Game "cave"]\n[Black "Jos\xe9"]\n\n1. b1 {caf\xe9} b\xff5 *\n'.decode(
        "utf-8", "surrogateescape")
    yield "windows-1252", b'[Game "cave"]\n[Event "\x93Open\x94 \x80\x81"]\n\n1. b1 b5 *\n'.decode(
        "cp1252", "replace")
    yield "nul", '[Game "cave"]\n\n1. b1 {a NUL \x00 in a comment} b5\x00 *\n'
    yield "bom", "\ufeff" + CAVE
    yield "crlf", CAVE.replace("\n", "\r\n")
    yield "cr", CAVE.replace("\n", "\r")
    yield "form-feed", CAVE.replace(" b5", "\x0c b5\u2028")
    yield "tabs", CAVE.replace(" ", "\t")
    yield "escape-lines", "%\n%x\n" + CAVE + "%\n"
    yield "long-token", '[Game "tinkertown"]\n\n1. d3 ' + "d" * 200_000 + " *\n"
    yield "exclamations", '[Game "tinkertown"]\n\n1. d3 ' + "!" * 100_000 + "x *\n"
    yield "long-number", '[Game "tinkertown"]\n\n1. d3 ' + "9" * 100_000 + ". *\n"
    yield "long-glyph", '[Game "tinkertown"]\n\n1. d3 $' + "9" * 100_000 + " *\n"
    yield "machine-commands", '[Game "cave"]\n\n1. b1 {' + "[%a " * 50_000 + "} b5 *\n"
    yield "deep", '[Game "tinkertown"]\n\n1. d3 ' + "(1. d3 " * 5_000 + ")" * 5_000 + " *\n"
    yield "deep-unclosed", "1. d3 " + "(1. d3 " * 5_000 + "*\n"
    yield "unclosed-comment", CAVE + '\n[Game "cave"]\n\n1. b1 b5 {never closed\n' + "b1-b2\n" * 500
    yield "stray-brackets", CAVE.replace("1. b1", ") } ( 1. b1 )") + ")" * 300
    yield "no-game", "1. b1 b5 *\n"
    yield "bad-tags", '[Game "cave"\n[Players "9"]\n[Position "zzz"]\n\n1. b1 *\n'
    yield "tag-only", '[Game "tinkertown"]\n'
    yield "results-only", "* 1-0 0-1 1/2-1/2 1/2 1 - 0\n" * 20
    for path in sorted((ROOT / "records").glob("*/broken.ugn")):
        yield f"broken-{path.parent.name}", path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "tests" / "data" / "conformance").glob("*-invalid.txt")):
        yield path.stem, path.read_text(encoding="utf-8")


HOSTILE = list(_hostile())


async def test_the_hostile_corpus_through_every_feature(client: LanguageClient) -> None:
    for _name, text in HOSTILE:
        uri, _ = await open_doc(client, text)
        document = types.TextDocumentIdentifier(uri)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        spots = {(0, 0), (len(lines) - 1, 0), (len(lines) + 3, 5), (0, 10**6)}
        spots |= {(i, c) for i in range(min(len(lines), 4)) for c in (1, 5, 12)}
        for line, character in sorted(spots):
            where = types.Position(line, character)
            await client.text_document_completion_async(types.CompletionParams(document, where))
            await client.text_document_hover_async(types.HoverParams(document, where))
            await client.text_document_definition_async(types.DefinitionParams(document, where))
        await client.text_document_document_symbol_async(types.DocumentSymbolParams(document))
        await client.text_document_formatting_async(types.DocumentFormattingParams(
            document, types.FormattingOptions(tab_size=4, insert_spaces=True)
        ))
        await client.text_document_code_action_async(types.CodeActionParams(
            document, types.Range(types.Position(0, 0), types.Position(len(lines), 0)),
            types.CodeActionContext([]),
        ))
        # Edits that cut the text anywhere, ranges past its end included.
        await change(client, uri, 2, [edit(0, 3, 2, 1, "(}{"), edit(10**6, 0, 10**6, 0, "\n1.")])
        close_doc(client, uri)
        no_errors_logged(client)
    # Still answering.
    uri, found = await open_doc(client, '[Game "cave"]\n\n1. b1 b5 2. b1-c2 *\n')
    assert [d.code for d in found] == ["cave-move-not-orthogonal"]
    close_doc(client, uri)


async def test_a_document_that_was_not_utf8(client: LanguageClient) -> None:
    raw = b'[Game "cave"]\n[Black "Jos\xe9"]\n\n1. b1 b\xff5 *\n'
    text = raw.decode("utf-8", "surrogateescape")
    uri, found = await open_doc(client, text)
    (diagnostic,) = found
    assert diagnostic.range.start == types.Position(3, 6)
    assert "\\udcff" in diagnostic.message  # the byte shown, never sent as it is
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None and "Jos\\udce9" in symbols[0].detail  # type: ignore[union-attr,operator]
    close_doc(client, uri)


async def test_an_empty_file(client: LanguageClient) -> None:
    uri, found = await open_doc(client, "")
    assert found == []
    document = types.TextDocumentIdentifier(uri)
    assert await complete(client, uri, types.Position(0, 0)) == []
    assert await client.text_document_hover_async(
        types.HoverParams(document, types.Position(0, 0))) is None
    assert not await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(document))
    assert not await client.text_document_formatting_async(types.DocumentFormattingParams(
        document, types.FormattingOptions(tab_size=4, insert_spaces=True)))
    # Typing a record into it.
    typed = await change(client, uri, 2, [edit(0, 0, 0, 0, '[Game "cave"]\n\n1. b1 b5 2. b')])
    assert [d.code for d in typed] == ["cave-move-malformed", "result-missing"]
    items = await complete(client, uri, types.Position(2, 13))
    assert [i.label for i in items] == [m for m in legal_texts("cave", ["b1", "b5"])
                                        if m.startswith("b")]
    close_doc(client, uri)


async def test_a_10_mb_file(client: LanguageClient) -> None:
    record = (ROOT / "records" / "tinkertown" / "examples.ugn").read_text(encoding="utf-8")
    copies = 10_500_000 // len(record) + 1
    text = (record.rstrip("\n") + "\n\n") * copies + '[Game "cave"]\n\n1. b1 b5 2. b1-b3 *\n'
    assert len(text) > 10_000_000
    uri, found = await open_doc(client, text, condition=lambda found: bool(found))
    last = text.count("\n") - 1
    assert [(d.code, d.range.start.line) for d in found
            if d.severity == types.DiagnosticSeverity.Error] == [
        ("cave-move-not-orthogonal", last)]
    # An edit in the middle: that record is read and checked again, and said broken.
    middle = text.count("\n", 0, len(text) // 2) + 1
    broken = await change(client, uri, 2, [edit(middle, 0, middle, 0, "}")],
                          condition=lambda found: len(found) >= 2)
    assert {d.range.start.line for d in broken if d.code == "comment-unopened"} == {middle}
    items = await complete(client, uri, types.Position(last, 12))
    assert [i.label for i in items] == legal_texts("cave", ["b1", "b5"])
    close_doc(client, uri)


async def test_the_game_of_records_without_a_game_tag_is_a_setting(client: LanguageClient) -> None:
    text = "1. b1 b5 2. b1-b2 *\n"
    uri, found = await open_doc(client, text)
    assert [d.code for d in found] == ["game-missing"]
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams({"notation": {"game": "cave"}})
    )
    assert await published(client, uri, 1, lambda found: found == []) == []
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams({"notation": {"game": ""}})
    )
    assert [d.code for d in await published(client, uri, 1, bool)] == ["game-missing"]
    close_doc(client, uri)
    no_errors_logged(client)


@pytest.mark.parametrize(
    "data",
    [b"", b"garbage\n", b"Content-Length: 5\r\n\r\n{{{{{",
     b'Content-Length: 30\r\n\r\n{"jsonrpc": "2.0", "id": 1}   '],
    ids=["nothing", "garbage", "not-json", "no-method"],
)
async def test_what_is_not_the_protocol_ends_quietly(data: bytes) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "notation", "lsp"], input=data, env=ENV,
                          capture_output=True, timeout=GUARD, check=False)
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr, done.stderr
