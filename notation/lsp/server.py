"""The language server: editor events in, library calls, protocol answers out.

:func:`create_server` makes it (pygls's :class:`~pygls.lsp.server.LanguageServer`, with
one handler per feature), :func:`serve` runs it on standard input and output.  Each
handler catches its own failures: it logs them (standard error and the client's log)
and answers what it can (nothing, an empty list), so that no input stops the server.
The state, and the diagnostics made as the documents change, are
:mod:`notation.lsp.state`'s.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, TypeVar, cast

from lsprotocol import types

from notation.editing.buffer import RecordDocument
from notation.editing.completions import offers_at, tag_meaning
from notation.editing.fix_holds import fix_holds
from notation.editing.places import TagCursor, cursor_at, node_at, token_span
from notation.errors import Fix
from notation.games import get_game
from notation.lsp.answers import (
    completion_item,
    diagnostic,
    finding_range,
    fix_action,
    markdown_block,
    node_range,
    shown,
    span_range,
    symbol,
    text_edit,
)
from notation.lsp.documents import OpenDocument, apply_changes
from notation.lsp.state import LOG, NotationProtocol, NotationServer
from notation.lsp.transport import MAX_MESSAGE, BoundedInput, Output
from notation.render.plain_text import position_brief

__all__ = ["create_server", "guarded", "serve"]

#: Characters after which an editor asks for completion without being told.
TRIGGERS = [",", ":", "-", '"']

F = TypeVar("F", bound=Callable[..., Any])


def guarded(where: str, fallback: object = None) -> Callable[[F], F]:
    """A handler that logs its own failure and answers ``fallback`` instead."""

    def wrap(handler: F) -> F:
        @functools.wraps(handler)
        def run(server: NotationServer, params: Any) -> Any:
            try:
                return handler(server, params)
            except Exception:
                server.report(where)
                return fallback

        return cast(F, run)

    return wrap


def create_server(default_game: str | None = None) -> NotationServer:
    """The language server, every feature registered (``default_game``: the game of
    records without a ``Game`` tag, until a setting names another)."""
    server = NotationServer(default_game)
    _documents(server)
    _requests(server)
    return server


def _settings_game(settings: object) -> object:
    """The game a client's settings name: ``{"notation": {"game": ...}}`` or ``{"game":
    ...}``; ``...`` (Ellipsis) when they name none."""
    if isinstance(settings, dict):
        inner = settings.get("notation", settings)
        if isinstance(inner, dict) and "game" in inner:
            return inner["game"]
    return ...


def _documents(server: NotationServer) -> None:
    """The handlers of the documents' life: start-up settings, open, change, close."""

    @server.feature(types.INITIALIZE)
    @guarded("initialize", None)
    def initialize(ls: NotationServer, params: types.InitializeParams) -> None:
        game = _settings_game(params.initialization_options)
        if game is not ...:
            ls.set_game(game)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded("configuration", None)
    def configuration(ls: NotationServer, params: types.DidChangeConfigurationParams) -> None:
        game = _settings_game(params.settings)
        if game is not ...:
            ls.set_game(game)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded("opening a document", None)
    def did_open(ls: NotationServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        document = RecordDocument(item.text, default_game=ls.default_game)
        opened = OpenDocument(item.uri, item.version, document)
        ls.documents[item.uri] = opened
        ls.diagnose(opened)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded("a change", None)
    def did_change(ls: NotationServer, params: types.DidChangeTextDocumentParams) -> None:
        opened = ls.documents.get(params.text_document.uri)
        if opened is None:
            return
        try:
            apply_changes(opened.document, params.content_changes, ls.units)
        finally:
            opened.version = params.text_document.version
            ls.diagnose(opened)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded("closing a document", None)
    def did_close(ls: NotationServer, params: types.DidCloseTextDocumentParams) -> None:
        opened = ls.documents.pop(params.text_document.uri, None)
        if opened is not None and opened.task is not None:
            opened.task.cancel()
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(params.text_document.uri, [])
        )


def _requests(server: NotationServer) -> None:
    """The handlers of the requests: completion, hover, formatting, code actions, symbols,
    definition."""

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=TRIGGERS)
    )
    @guarded("completion", None)
    def completion(
        ls: NotationServer, params: types.CompletionParams
    ) -> types.CompletionList | None:
        place = ls.place(params.text_document.uri, params.position)
        if place is None:
            return None
        opened, line, column = place
        document = opened.document
        chunk = document.chunk_at(line - 1)
        cursor = cursor_at(chunk.lines, chunk.start + 1, line, column)
        if cursor is None:
            return types.CompletionList(is_incomplete=False, items=[])
        record = cursor.record if not isinstance(cursor, TagCursor) else document.record_at(
            line - 1
        )
        offers = offers_at(cursor, ls.game_of(record))
        edit_range = span_range(document.lines, line, cursor.column, column, ls.units)
        items = [completion_item(offer, edit_range, n) for n, offer in enumerate(offers)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded("hover", None)
    def hover(ls: NotationServer, params: types.HoverParams) -> types.Hover | None:
        place = ls.place(params.text_document.uri, params.position)
        if place is None:
            return None
        opened, line, column = place
        document = opened.document
        record = document.record_at(line - 1)
        if record is None:
            return None
        for tag in record.tags:
            if tag.line == line:
                meaning = tag_meaning(tag.name, ls.game_of(record))
                if meaning is None:
                    return None
                return types.Hover(types.MarkupContent(
                    types.MarkupKind.Markdown, shown(f"**{tag.name}**: {meaning}")
                ))
        node = node_at(record, line, column)
        if node is None:
            return None
        record.source = opened.name  # what a message of the picture names: this file
        drawn = position_brief(record, node, ls.default_game)
        if drawn is None:
            return None
        board, facts = drawn
        text = markdown_block(board)
        if facts:  # one paragraph, which the editor wraps: a hover is short
            text += "\n\n" + shown("; ".join(facts.splitlines()))
        return types.Hover(
            types.MarkupContent(types.MarkupKind.Markdown, text),
            node_range(document.lines, node, ls.units),
        )

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @guarded("formatting", None)
    def formatting(
        ls: NotationServer, params: types.DocumentFormattingParams
    ) -> list[types.TextEdit] | None:
        opened = ls.documents.get(params.text_document.uri)
        if opened is None:
            return None
        document = opened.document
        return [text_edit(document.lines, r, ls.units) for r in document.canonical()]

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @guarded("code actions", None)
    def code_action(
        ls: NotationServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        opened = ls.documents.get(params.text_document.uri)
        if opened is None:
            return None
        document = opened.document
        first, last = params.range.start.line, params.range.end.line
        for chunk in document.chunks:
            if chunk.start <= last and chunk.end > first:
                document.check_chunk(chunk)
        actions: list[types.CodeAction] = []
        lines, units = document.lines, ls.units
        for finding in document.findings():
            defect = finding.defect
            where = finding_range(lines, finding, units)
            # At the defect, or at the line a fix of it mends (an earlier slip).
            fixed_here = any(first + 1 <= fix.line <= last + 1 for fix in defect.fixes)
            if (where.end.line < first or where.start.line > last) and not fixed_here:
                continue
            chunk = document.chunk_at(defect.line - 1)
            fixes = [
                fix for fix in _distinct(defect.fixes)
                if fix_holds(fix, defect, chunk.lines, chunk.start + 1, document.default_game)
            ]
            made = diagnostic(lines, finding, units)
            actions += [
                fix_action(opened.uri, lines, fix, made, units, len(fixes) == 1)
                for fix in fixes
            ]
        return actions

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded("symbols", None)
    def symbols(
        ls: NotationServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | None:
        opened = ls.documents.get(params.text_document.uri)
        if opened is None:
            return None
        document = opened.document
        out = []
        for number, summary in enumerate(document.records(), 1):
            out.append(symbol(document.lines, summary, number, _players(summary.game), ls.units))
        return out

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded("definition", None)
    def definition(ls: NotationServer, params: types.DefinitionParams) -> types.Location | None:
        place = ls.place(params.text_document.uri, params.position)
        if place is None:
            return None
        opened, line, column = place
        document = opened.document
        document.check_chunk(document.chunk_at(line - 1))
        for finding in document.findings():
            defect = finding.defect
            if defect.line != line or defect.last_changed is None:
                continue
            start, end = token_span(opened.line_text(line), defect)
            if start <= column <= end:
                return ls.blamed(opened, finding)
        return None


def _distinct(fixes: tuple[Fix, ...]) -> list[Fix]:
    """``fixes`` less those that make the same edit as one before them (``c6, h4``: the
    move meant, and the hint to write it without a space, are one edit)."""
    seen: set[tuple[int, int, int, str]] = set()
    out = []
    for fix in fixes:
        edit = (fix.line, fix.start, fix.end, fix.replacement)
        if edit not in seen:
            seen.add(edit)
            out.append(fix)
    return out


@functools.cache
def _players(game: str | None) -> tuple[str, ...]:
    """The tags that name a game's players (none for an unknown game)."""
    if game is None:
        return ()
    try:
        return tuple(get_game(game).player_tags)
    except Exception:
        return ()


def _one_line(record: logging.LogRecord) -> bool:
    """pygls's errors (a message from the client that is not JSON...) in one line, the
    reason after the message, without a traceback: the editor's log is read by people."""
    if not record.name.startswith("pygls"):
        return True
    message = record.getMessage()
    raised = record.exc_info[1] if record.exc_info else None
    error = None if raised is None else str(raised)
    if "Traceback (most recent call last)" in message:  # pygls writes some in the text
        lines = [line for line in message.splitlines() if line.strip()]
        message, error = lines[0], lines[-1].strip()
    if error is not None:
        record.msg, record.args = f"{message}: {error}", ()
        record.exc_info = record.exc_text = None
    return True


def serve(default_game: str | None = None, *, max_message: int = MAX_MESSAGE) -> None:
    """Run the language server on standard input and output until the client ends it,
    then exit with the protocol's code: 0 after ``shutdown`` and ``exit`` (or at the end
    of the input), 1 for ``exit`` without ``shutdown`` or a client that stopped reading.

    The protocol has standard output to itself: the server writes to a copy of it, and
    anything else printed goes to standard error (the editor's log), never into the
    protocol's stream.  A message over ``max_message`` bytes is refused (one line on
    standard error) and the server goes on (:mod:`notation.lsp.transport`)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(message)s")
    logging.getLogger("pygls").setLevel(logging.ERROR)
    for handler in logging.getLogger().handlers:
        handler.addFilter(_one_line)
    sys.stdout.flush()
    output = Output(os.dup(sys.stdout.fileno()))
    sys.stdout = sys.stderr
    server = create_server(default_game)
    messages = BoundedInput(sys.stdin.buffer, _refused, max_message)
    server.start_io(cast(BinaryIO, messages), cast(BinaryIO, output))
    protocol = server.protocol
    sys.exit(protocol.exit_code if isinstance(protocol, NotationProtocol) else 0)


def _refused(what: str) -> None:
    """Say on standard error (the editor's log) what the transport refused."""
    LOG.warning("notation lsp: refused %s", what)
