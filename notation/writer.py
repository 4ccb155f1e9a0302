"""Writing a record tree back as text, in the canonical form the reader reads.

Canonical form: tags one per line, a blank line, then movetext wrapped at 79
columns; a move number ``N.`` before the first turn of each round and ``N...``
where a line resumes inside a round (after a comment, a variation, or at the
start of a variation); moves as the record holds them, with their suffixes,
glyphs, comments and variations, in order.  Move *text* is written as stored:
to normalise the moves themselves, the caller rewrites ``MoveNode.text`` with
the game's canonical ``str(move)`` first (see :func:`canonicalise`).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress
from typing import Any

from notation.errors import MoveSyntaxError
from notation.games.base import Game
from notation.record import Comment, MoveNode, Record, Variation

__all__ = ["canonicalise", "write_record", "write_records"]

WIDTH = 79


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_tokens(comments: Iterable[Comment], out: list[str]) -> None:
    for comment in comments:
        text = comment.text
        if comment.braced and "}" not in text:
            out.append("{" + text + "}" if text else "{}")
        else:
            # A "; ..." comment runs to the end of its line, so it forces a line break.
            for part in text.split("\n"):
                out.append("; " + part if part else ";")
                out.append("\n")


class _Open:
    """A line being written: the main line or a variation (``None`` for the main line)."""

    __slots__ = ("first_turn", "index", "need_number", "nodes", "var_index", "variation")

    def __init__(
        self, nodes: list[MoveNode], first_turn: int, variation: Variation | None
    ) -> None:
        self.nodes = nodes
        self.first_turn = first_turn
        self.variation = variation
        self.index = 0
        self.need_number = True  # the start of a line always carries a number
        self.var_index = -1  # >= 0 while the variations of nodes[index] are written


class _MovetextWriter:
    def __init__(self, round_size: int) -> None:
        self.round_size = round_size
        self.tokens: list[str] = []

    def line(self, nodes: list[MoveNode], first_turn: int) -> None:
        """Write a line and its variations, depth first with an explicit stack: variations
        nest to any depth, far below what recursion allows."""
        tokens = self.tokens
        stack = [_Open(nodes, first_turn, None)]
        while stack:
            line = stack[-1]
            if line.var_index >= 0:
                node = line.nodes[line.index]
                if line.var_index < len(node.variations):
                    variation = node.variations[line.var_index]
                    line.var_index += 1
                    _comment_tokens(variation.comments_before, tokens)
                    tokens.append("(")
                    stack.append(_Open(variation.nodes, line.first_turn + line.index, variation))
                    continue
                line.var_index = -1
                line.index += 1
                continue
            if line.index == len(line.nodes):
                stack.pop()
                if line.variation is not None:
                    _comment_tokens(line.variation.comments, tokens)
                    tokens.append(")")
                    stack[-1].need_number = True
                continue
            node = line.nodes[line.index]
            turn = line.first_turn + line.index
            if node.comments_before:
                _comment_tokens(node.comments_before, tokens)
                line.need_number = True
            index = turn - 1
            number = index // self.round_size + 1
            if index % self.round_size == 0:
                tokens.append(f"{number}.")
            elif line.need_number:
                tokens.append(f"{number}...")
            tokens.append(node.text + node.suffix)
            tokens.extend(f"${nag}" for nag in node.nags)
            line.need_number = False
            if node.comments_after:
                _comment_tokens(node.comments_after, tokens)
                line.need_number = True
            line.var_index = 0

    def _units(self) -> list[str]:
        """Tokens with brackets glued on: "(12..." and "g3)" wrap as one."""
        units: list[str] = []
        opening = ""
        for token in self.tokens:
            if token == "(":
                opening += "("
            elif token == ")" and units and units[-1] != "\n" and not opening:
                units[-1] += ")"
            else:
                units.append(opening + token if token != "\n" else token)
                if token != "\n":
                    opening = ""
        if opening:
            units.append(opening)
        return units

    def text(self, width: int) -> str:
        lines: list[str] = []
        current = ""
        for token in self._units():
            if token == "\n":
                lines.append(current)
                current = ""
                continue
            if not current:
                current = token
            elif len(current) + 1 + len(token) > width:
                lines.append(current)
                current = token
            else:
                current += " " + token
        if current:
            lines.append(current)
        return "\n".join(lines)


def write_record(
    record: Record, round_size: int = 2, width: int = WIDTH, first_turn: int = 1
) -> str:
    """The record as canonical text (ending with a newline).

    ``first_turn`` is the turn of the first move (above 1 for a record that starts
    from a ``Position`` tag); move numbers follow from it and ``round_size``.
    """
    parts = [f'[{tag.name} "{_escape(tag.value)}"]' for tag in record.tags]
    writer = _MovetextWriter(round_size)
    writer.line(record.moves, first_turn)
    _comment_tokens(record.comments, writer.tokens)
    writer.tokens.append(record.result or "*")
    movetext = writer.text(width)
    if parts:
        return "\n".join(parts) + "\n\n" + movetext + "\n"
    return movetext + "\n"


def write_records(records: Iterable[tuple[Record, int]], width: int = WIDTH) -> Iterable[str]:
    """Records (each with its round size) as text, separated by blank lines."""
    for i, (record, round_size) in enumerate(records):
        yield ("\n" if i else "") + write_record(record, round_size, width)


def canonicalise(record: Record, game: Game[Any]) -> None:
    """Rewrite every move's text in the game's canonical notation, in place.

    Moves the game cannot read are left as they are.
    """
    stack = [record.moves]
    while stack:
        nodes = stack.pop()
        for node in nodes:
            # A move the game cannot read keeps its text: no data is lost.
            with suppress(MoveSyntaxError):
                node.text = str(game.parse(node.text))
            stack.extend(v.nodes for v in node.variations)
