"""The library's answers in the protocol's shapes: ranges in the client's units,
diagnostics, completion items, hovers, symbols, text edits and quick fixes."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from notation.editing.buffer import Finding, RecordSummary, Replacement
from notation.editing.completions import Offer
from notation.editing.places import token_span
from notation.errors import Fix, printable
from notation.lsp.units import Units
from notation.record import MoveNode

__all__ = [
    "SOURCE",
    "completion_item",
    "diagnostic",
    "finding_range",
    "fix_action",
    "fix_range",
    "markdown_block",
    "node_range",
    "point",
    "shown",
    "shown_lines",
    "span_range",
    "symbol",
    "text_edit",
]

#: The ``source`` of every diagnostic.
SOURCE = "notation"

_HINT = types.DiagnosticSeverity.Hint
_ERROR = types.DiagnosticSeverity.Error

_KINDS = {
    "move": types.CompletionItemKind.Value,
    "face": types.CompletionItemKind.EnumMember,
    "tag": types.CompletionItemKind.Property,
    "game": types.CompletionItemKind.Module,
}


def shown(text: str) -> str:
    """``text`` as the client may be sent it: characters that cannot be printed (a NUL,
    an escape, a lone surrogate of a file that was not UTF-8) escaped, as in messages."""
    return text if text.isprintable() else printable(text)


def shown_lines(text: str) -> str:
    """``text`` of several lines as the client may be sent it: as :func:`shown`, its line
    ends kept."""
    return "\n".join(shown(line) for line in text.split("\n"))


def markdown_block(text: str) -> str:
    """``text`` as a Markdown code block, fenced with more backticks than it holds in a
    row (a comment of the record may hold some)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{shown_lines(text).rstrip(chr(10))}\n{fence}"


def point(lines: Sequence[str], line: int, column: int, units: Units) -> types.Position:
    """The position before ``column`` of ``line`` (both from 1, column in code points)."""
    index = min(max(line - 1, 0), len(lines) - 1)
    text = lines[index] if lines else ""
    return types.Position(index, units.from_points(text, column - 1))


def span_range(
    lines: Sequence[str], line: int, start: int, end: int, units: Units
) -> types.Range:
    """The range of columns ``start`` to ``end`` (one past the last) of ``line``."""
    return types.Range(point(lines, line, start, units), point(lines, line, end, units))


def node_range(lines: Sequence[str], node: MoveNode, units: Units) -> types.Range:
    """The range of a move's token as written (suffix included)."""
    return span_range(lines, node.line, node.column, node.column + len(node.written), units)


def finding_range(lines: Sequence[str], finding: Finding, units: Units) -> types.Range:
    """The range of the token a defect names (:func:`notation.editing.places.token_span`)."""
    defect = finding.defect
    index = defect.line - 1
    text = lines[index] if 0 <= index < len(lines) else ""
    start, end = token_span(text, defect)
    return span_range(lines, defect.line, start, end, units)


def diagnostic(
    lines: Sequence[str],
    finding: Finding,
    units: Units,
    related: types.Location | None = None,
    uri: str | None = None,
) -> types.Diagnostic:
    """A defect as a diagnostic: an error (a hint for a strict-form issue) at the range of
    its token, its message (after its turn, for a move's), its code, and as related
    information: where it blames the move that last changed a square (``related``),
    that move; with the document's ``uri``, each fix it has on another line (a slip found
    turns before the defect), at its range, with its title."""
    defect = finding.defect
    message = defect.message
    if defect.turn is not None:
        message = f"turn {defect.turn}: {message}"
    information = []
    change = defect.last_changed
    if related is not None and change is not None:
        information.append(
            types.DiagnosticRelatedInformation(
                related, shown(f"{change.square} was last changed here, at turn {change.turn}")
            )
        )
    if uri is not None:
        information += [
            types.DiagnosticRelatedInformation(
                types.Location(uri, fix_range(lines, fix, units)), shown(fix.title)
            )
            for fix in defect.fixes if fix.line != defect.line
        ]
    return types.Diagnostic(
        range=finding_range(lines, finding, units),
        message=shown(message),
        severity=_HINT if finding.strict else _ERROR,
        code=defect.code,
        source=SOURCE,
        related_information=information or None,
    )


def fix_range(lines: Sequence[str], fix: Fix, units: Units) -> types.Range:
    """The range of the text a fix replaces."""
    return span_range(lines, fix.line, fix.start, fix.end, units)


def completion_item(offer: Offer, edit_range: types.Range, order: int) -> types.CompletionItem:
    """An offer as a completion item that replaces ``edit_range`` (what is typed of it),
    sorted as offered."""
    return types.CompletionItem(
        label=shown(offer.text),
        kind=_KINDS[offer.kind],
        detail=shown(offer.description) or None,
        sort_text=f"{order:06d}",
        filter_text=shown(offer.text),
        text_edit=types.TextEdit(edit_range, shown(offer.text)),
    )


def symbol(
    lines: Sequence[str], summary: RecordSummary, number: int, players: Sequence[str],
    units: Units,
) -> types.DocumentSymbol:
    """A record as a document symbol: its event (or its number), players and result."""
    event = summary.tag("Event")
    name = f"{number}. {event}" if event else f"record {number}"
    names = [summary.tag(tag) for tag in players]
    who = " - ".join(n for n in names if n)
    result = summary.result or "no result"
    detail = f"{who}  {result}" if who else result
    if summary.game:
        detail = f"{detail}  ({summary.game})"
    last = min(summary.last_line, len(lines))
    whole = types.Range(
        point(lines, summary.first_line, 1, units),
        point(lines, last, len(lines[last - 1]) + 1 if lines else 1, units),
    )
    first = types.Range(whole.start, point(lines, summary.first_line, 10**9, units))
    return types.DocumentSymbol(
        name=shown(name),
        kind=types.SymbolKind.Event,
        range=whole,
        selection_range=first,
        detail=shown(detail),
    )


def text_edit(lines: Sequence[str], replacement: Replacement, units: Units) -> types.TextEdit:
    """A replacement of whole lines as a text edit."""
    start = types.Position(replacement.start, 0)
    if replacement.end < len(lines):
        end = types.Position(replacement.end, 0)
    else:
        last = len(lines) - 1
        end = types.Position(last, units.from_points(lines[last], len(lines[last])))
    return types.TextEdit(types.Range(start, end), replacement.text)


def fix_action(
    uri: str, lines: Sequence[str], fix: Fix, diagnostic: types.Diagnostic, units: Units,
    preferred: bool,
) -> types.CodeAction:
    """A quick fix as a code action that edits the document."""
    edits = [types.TextEdit(fix_range(lines, made, units), shown(made.replacement))
             for made in fix.edits()]
    return types.CodeAction(
        title=shown(fix.title),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: edits}),
        is_preferred=preferred or None,
    )
