"""The documents the editor has open: each a :class:`notation.editing.buffer.RecordDocument`,
kept in step with the editor's changes (whole texts or ranges, in the client's units)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from lsprotocol import types
from lsprotocol.types import (
    TextDocumentContentChangePartial,
    TextDocumentContentChangeWholeDocument,
)
from pygls.uris import to_fs_path

from notation.editing.buffer import RecordDocument
from notation.lsp.units import Units

__all__ = ["OpenDocument", "apply_changes"]


@dataclass(eq=False)
class OpenDocument:
    """One open document: its address, the version the editor gave it, the records, and
    the work under way on its diagnostics (a task, while one runs)."""

    uri: str
    version: int | None
    document: RecordDocument
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: The games of its records are made ready for completion (once).
    warmed: bool = False

    @property
    def name(self) -> str:
        """The document's file, as messages name it: its path for a ``file:`` address,
        else the address itself (an editor's unsaved buffer)."""
        return to_fs_path(self.uri) or self.uri

    def line_text(self, line: int) -> str:
        """The text of ``line`` (from 1), without its end; ``""`` past the last line."""
        lines = self.document.lines
        return lines[line - 1] if 1 <= line <= len(lines) else ""


def apply_changes(
    document: RecordDocument,
    changes: Sequence[TextDocumentContentChangePartial | TextDocumentContentChangeWholeDocument],
    units: Units,
) -> None:
    """Apply the editor's ``changes``, in order, to ``document``: a change with a range
    replaces that range, one without replaces the whole text."""
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            lines = document.lines
            start, end = change.range.start, change.range.end
            document.edit(
                (start.line, _points(lines, start, units)),
                (end.line, _points(lines, end, units)),
                change.text,
            )
        else:
            document.set_text(change.text)


def _points(lines: list[str], position: types.Position, units: Units) -> int:
    if position.line >= len(lines):
        return len(lines[-1]) + 1  # past the end: the end
    return units.to_points(lines[position.line], position.character)
