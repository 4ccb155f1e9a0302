"""The language server's state: the open documents, the settings, and the diagnostics,
made in a task per document, a slice of work at a time, so that the server answers
requests while a big file is checked: the chunks whose text changed
(:mod:`notation.editing.buffer`) are checked, the errors published, then the strict-form
hints (a check that costs more) are added and published again.

:mod:`notation.lsp.server` registers the handlers of the editor's requests on it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method

from notation import __version__
from notation.editing.buffer import Finding, RecordDocument
from notation.editing.completions import warm_up
from notation.editing.places import changed_by
from notation.games import get_game
from notation.lsp.answers import diagnostic, node_range
from notation.lsp.documents import OpenDocument
from notation.lsp.units import Units
from notation.record import Record

__all__ = ["NotationProtocol", "NotationServer", "sliced"]

LOG = logging.getLogger("notation.lsp")

#: Work done between two looks at the editor's messages, in seconds, and the pause
#: then (a real one: pygls reads a message in several steps, each a turn of the loop,
#: which a mere yield would give the next slice of work between).
SLICE = 0.01
PAUSE = 0.001
#: Chunks whose strict check is made before the first publication (more: published
#: first without their hints, which follow).
QUICK_STRICT = 16


class NotationProtocol(LanguageServerProtocol):
    """pygls's protocol, without its own copy of each open document: the server keeps
    each as a :class:`~notation.editing.buffer.RecordDocument`, whose edits cost the lines they
    change, not the whole text (a file of 10 MB is edited as fast as one of 10 kB).

    After ``shutdown`` a request is answered with an ``InvalidRequest`` error, as the
    protocol asks (pygls would leave it unanswered), and ``exit`` notes the exit code the
    protocol gives: 0 after ``shutdown``, 1 without (:attr:`exit_code`, which
    :func:`~notation.lsp.server.serve` exits with: pygls's own is lost on the way)."""

    #: The process's exit code, as the ``exit`` notification (if any) made it.
    exit_code = 0

    def handle_message(self, message: Any) -> None:
        """Handle ``message`` as pygls does, but for ``exit`` and requests after
        ``shutdown`` (see the class)."""
        method = getattr(message, "method", None)
        if method == types.EXIT:
            self.exit_code = 0 if self.is_shut_down else 1
        elif self.is_shut_down and isinstance(message, RPCRequest):
            refusal = JsonRpcInvalidRequest(
                f"the server is shut down: {method} is not answered (only exit is)"
            )
            self._send_response(message.id, None, refusal.to_response_error())
            return
        super().handle_message(message)

    @property
    def is_shut_down(self) -> bool:
        """Whether the client has asked the server to shut down."""
        return bool(getattr(self, "_shutdown", False))

    def _handed(self, method: str, params: object) -> Iterator[Any]:
        """The server's own handler of ``method``, given ``params`` (pygls's form)."""
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Iterator[Any]:
        """Hand the opened document to the server's handler."""
        yield from self._handed(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Iterator[Any]:
        """Hand the document's changes to the server's handler."""
        yield from self._handed(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Iterator[Any]:
        """Hand the closed document to the server's handler."""
        yield from self._handed(types.TEXT_DOCUMENT_DID_CLOSE, params)


class NotationServer(LanguageServer):
    """The server's state: the open documents, the game of records without a ``Game``
    tag, and the client's way of counting characters."""

    def __init__(self, default_game: str | None = None) -> None:
        super().__init__(
            "notation", __version__, protocol_cls=NotationProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.documents: dict[str, OpenDocument] = {}
        self.default_game = default_game
        self.tasks: set[asyncio.Task[None]] = set()
        self.warmed: set[str] = set()

    @property
    def units(self) -> Units:
        """How the client counts characters in positions (agreed at start-up)."""
        capabilities = getattr(self.protocol, "server_capabilities", None)
        encoding = getattr(capabilities, "position_encoding", None)
        return Units(str(getattr(encoding, "value", encoding or "utf-16")))

    @property
    def related_information(self) -> bool:
        """Whether the client takes related information in diagnostics."""
        try:
            publish = self.client_capabilities.text_document.publish_diagnostics  # type: ignore[union-attr]
        except AttributeError:
            return False
        return bool(publish and publish.related_information)

    def set_game(self, name: object) -> None:
        """Make ``name`` (a setting's value: a game's name, or empty) the game of records
        without a ``Game`` tag, and check every document again."""
        game = name if isinstance(name, str) and name.strip() else None
        if game is not None:
            try:
                game = get_game(game).name
            except Exception:  # an unknown name: kept, and every such record says so
                game = game.strip()
        self.default_game = game
        for opened in self.documents.values():
            opened.document.default_game = game
            self.diagnose(opened)

    def report(self, where: str) -> None:
        """Log the failure being handled: the traceback on standard error, one line in
        the client's log."""
        LOG.exception("notation lsp: %s failed", where)
        error = sys.exc_info()[1]
        try:
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Error, f"notation lsp: {where} failed: {error!r}"[:500]
            ))
        except Exception:  # the client is gone: standard error has it
            LOG.debug("could not log to the client", exc_info=True)

    # -- diagnostics ---------------------------------------------------------------------
    def diagnose(self, opened: OpenDocument) -> None:
        """Start the diagnostics of ``opened`` (the work under way for it is dropped)."""
        if opened.task is not None and not opened.task.done():
            opened.task.cancel()
        task = asyncio.get_running_loop().create_task(self._diagnose(opened))
        opened.task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _diagnose(self, opened: OpenDocument) -> None:
        try:
            document = opened.document
            await sliced(document.unchecked(), document.check_chunk)
            pending = document.unchecked_strict()
            if len(pending) > QUICK_STRICT:
                self.publish(opened)
            if not opened.warmed:
                opened.warmed = True
                self.warm(document)
            await sliced(pending, document.check_strict)
            self.publish(opened)
            # What was kept (every chunk's check) lives long: out of the collector's way,
            # so that a full collection does not hold up a keystroke's answer (50 ms for a
            # file of 2,000 records).  Refcounting still frees it when it goes.  The
            # collection first sees only what is not frozen yet (since the last pass), and
            # frees the cycles left by the requests in between (a completion leaves some),
            # which once frozen would never be freed.
            gc.collect()
            gc.freeze()
        except asyncio.CancelledError:
            raise
        except Exception:
            self.report("diagnostics")

    def warm(self, document: RecordDocument) -> None:
        """Make the first completion in a record of each game of ``document`` as quick as
        the next (:func:`notation.editing.completions.warm_up`), once per game."""
        games = {summary.game for summary in document.records() if summary.game}
        for game in sorted(games - self.warmed):
            self.warmed.add(game)
            warm_up(game)

    def publish(self, opened: OpenDocument) -> None:
        """Send the diagnostics of everything found in ``opened`` so far."""
        document = opened.document
        lines, units = document.lines, self.units
        related = self.related_information
        diagnostics = []
        uri = opened.uri if related else None
        for finding in document.findings():
            location = self.blamed(opened, finding) if related else None
            diagnostics.append(diagnostic(lines, finding, units, location, uri))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(opened.uri, diagnostics, opened.version)
        )

    def blamed(self, opened: OpenDocument, finding: Finding) -> types.Location | None:
        """Where the move is that last changed the square a defect depends on."""
        defect = finding.defect
        if defect.last_changed is None:
            return None
        document = opened.document
        record = document.record_at(defect.line - 1)
        node = changed_by(record, defect, document.default_game) if record else None
        if node is None:
            return None
        return types.Location(opened.uri, node_range(document.lines, node, self.units))

    # -- where a request points ----------------------------------------------------------
    def place(
        self, uri: str, position: types.Position
    ) -> tuple[OpenDocument, int, int] | None:
        """The document, line and column (both from 1, in code points) of ``position``."""
        opened = self.documents.get(uri)
        if opened is None:
            return None
        lines = opened.document.lines
        if position.line >= len(lines):
            return None
        column = self.units.to_points(lines[position.line], position.character) + 1
        return opened, position.line + 1, column

    def game_of(self, record: Record | None) -> str | None:
        """The game of ``record``: its ``Game`` tag, else the default game."""
        named = record.tag("Game") if record is not None else None
        return named if named else self.default_game


async def sliced(chunks: list[Any], work: Callable[[Any], object]) -> None:
    """``work`` on each chunk, looking at the editor's messages every :data:`SLICE`."""
    until = time.monotonic() + SLICE
    for chunk in chunks:
        work(chunk)
        if time.monotonic() > until:
            await asyncio.sleep(PAUSE)
            until = time.monotonic() + SLICE


