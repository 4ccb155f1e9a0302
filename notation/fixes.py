"""The edits that a defect's own words propose: what ``notation check`` already says to
write instead ("did you mean e1-f1?", "write c2xc1", "add * ...", "write it without
spaces: 1-0", "did you mean 'cave'?"), as replacements of the record's text, for an
editor's quick fixes.

A :class:`~notation.errors.Defect` carries its hint in its message only, so the hints
are read from the messages here, each form as the checker writes it; a hint this module
does not know proposes nothing (the message still says it).  Every edit stays on one
line: the line the defect points at, or the tag line a hint names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from notation.document import check_text
from notation.errors import Defect
from notation.locate import SEPARATORS, tag_value_span, token_span

__all__ = ["Fix", "fix_holds", "fixes_for"]

#: "did you mean e7,a6?", "did you mean b4-b3 or b4-b5? (no telling which...)",
#: "did you mean d2,b5?)" (a hint in brackets), "did you mean 'cave'?" (a game).
_MEANT = re.compile(r"did you mean ('?)([^\s?']+(?:, [^\s?']+)*(?: or [^\s?']+)?)\1\?")
#: "write c2xc1: ...", "write b1: letters in the wrong case (B1)".
_WRITE = re.compile(r"^write (\S+): ")
#: "write 2. before c5: ..."
_NUMBER = re.compile(r"^write (\d+\.(?:\.\.)?) before ")
#: "(a space after the comma cuts the turn in two: write c6,h4 without spaces)"
#: (not "write it without spaces: 1-0", a result's hint: _RESULT_SPACED)
_SPACED = re.compile(r"write (\S+,\S+) without spaces")
#: "'1 - 0' is not a result; write it without spaces: 1-0"
_RESULT_SPACED = re.compile(r"write it without spaces: (\S+)$")
#: "add * (or the result) after the last move", "add 1-0 after the last move (the
#: Result tag's)"; not "add the result after ..." (the rules and the tag disagree: no
#: one result checks).
_ADD_RESULT = re.compile(r"; add (1-0|0-1|1/2-1/2|\*) (?:\(or the result\) )?after the last move")
#: "1/2 is not a result; a draw is written 1/2-1/2"
_DRAW = re.compile(r"a draw is written (\S+)$")
#: "move number 3. is wrong: turn 3 is the first turn of round 2, numbered 2."
_RENUMBER = re.compile(r"^move number (\S+) is wrong: .*, numbered (\d+\.(?:\.\.)?)$")
#: "the rules ended the game at turn 25 with 0-1 (...); the record says 1-0"
_OUTCOME = re.compile(r"^the rules ended the game at turn \d+ with (\S+) .*; the record says ")
#: "[game ...] at line 1 is not [Game ...]"; "[result ...] is not [Result ...]" (check
#: --strict, at the tag's line)
_TAG_CASE = re.compile(r"\[(\S+) \.\.\.\](?: at line (\d+))? is not \[(\S+) \.\.\.\]")


@dataclass(frozen=True, slots=True)
class Fix:
    """One quick fix: its ``title``, and the replacement of ``line`` (from 1) from column
    ``start`` to column ``end`` (one past the last; equal for an insertion) by ``text``."""

    title: str
    line: int
    start: int
    end: int
    text: str


def fixes_for(defect: Defect, line_text: Callable[[int], str]) -> list[Fix]:
    """The quick fixes ``defect``'s message proposes; ``line_text(n)`` is the text of line
    ``n`` (from 1) of the file, without its line end (``""`` past the end)."""
    text = line_text(defect.line)
    message = defect.message
    start, end = token_span(text, defect)
    found: list[Fix] = []
    meant = _MEANT.search(message)
    if meant is not None:
        quoted, listed = meant.group(1), meant.group(2)
        choices = re.split(r", | or ", listed)
        if quoted:
            found += _game_fixes(defect, text, choices)
        else:
            span_end = _slip_end(text, start, end, message)
            found += [
                Fix(f"Replace with {choice}", defect.line, start, span_end, choice)
                for choice in choices
            ]
    for make in (_written, _numbered, _result_fixes, _renumbered):
        fix = make(defect, text, start, end)
        if fix is not None and fix not in found:
            found.append(fix)
    tag = _TAG_CASE.search(message)
    if tag is not None:
        fix = _tag_case_fix(tag, defect.line, line_text)
        if fix is not None:
            found.append(fix)
    return found


def fix_holds(
    fix: Fix, defect: Defect, lines: Sequence[str], first_line: int,
    default_game: str | None = None,
) -> bool:
    """Whether ``fix`` (of ``defect``) makes no new defect: ``lines`` are the records
    around it (each line ending in ``\\n``, the first being line ``first_line``, from 1,
    of the file), checked as ``check --all`` checks them before and after the fix.  It
    holds when every defect found after was found before too (by its code), and an error
    it is for (not a strict-form issue) is one fewer.  A fix that reaches outside
    ``lines`` does not hold."""
    at = fix.line - first_line
    if not 0 <= at < len(lines):
        return False
    before = _codes(lines, first_line, default_game)
    text = lines[at]
    fixed = [*lines]
    fixed[at] = text[: fix.start - 1] + fix.text + text[fix.end - 1 :]
    after = _codes(fixed, first_line, default_game)
    if not after <= before:
        return False
    # A strict-form issue is no error of check --all: its own count is not there to see.
    return defect.code not in before or after[defect.code] < before[defect.code]


def _codes(lines: Sequence[str], first_line: int, default_game: str | None) -> Counter[str]:
    """The codes of the defects ``check --all`` finds in ``lines``, each with its count."""
    return Counter(d.code for d in check_text(list(lines), first_line, default_game).defects)


def _word_end(text: str, at: int) -> int:
    """The column one past the word of movetext starting at column ``at``."""
    index = at - 1
    while index < len(text) and text[index] not in SEPARATORS and not text[index].isspace():
        index += 1
    return index + 1


def _slip_end(text: str, start: int, end: int, message: str) -> int:
    """Where a did-you-mean replacement ends: the move, or, for a two-square turn cut in
    two (``c6, h4``, ``d2;b5``), the second square too."""
    if "the ';' right after" in message and text[end - 1 : end] == ";":
        return _word_end(text, end + 1)
    if "a space after the comma" in message:
        after = end
        while after - 1 < len(text) and text[after - 1].isspace():
            after += 1
        return _word_end(text, after)
    return end


def _game_fixes(defect: Defect, text: str, choices: list[str]) -> list[Fix]:
    """The nearest game's name, written in the ``Game`` tag the defect points at."""
    span = tag_value_span(text)
    if span is None or defect.code != "game-unknown":
        return []
    return [Fix(f"Write the game {name}", defect.line, *span, name) for name in choices]


def _written(defect: Defect, text: str, start: int, end: int) -> Fix | None:
    """``write c2xc1: ...`` (a strict spelling, letter case) and ``write c6,h4 without
    spaces``."""
    spaced = _SPACED.search(defect.message)
    if spaced is not None:
        wanted = spaced.group(1)
        stop = _slip_end(text, start, end, "a space after the comma")
        return Fix(f"Write {wanted}", defect.line, start, stop, wanted)
    written = _WRITE.match(defect.message)
    if written is None or _NUMBER.match(defect.message) or not defect.move:
        return None
    wanted = written.group(1)
    return Fix(f"Write {wanted}", defect.line, start, end, wanted)


def _numbered(defect: Defect, text: str, start: int, end: int) -> Fix | None:
    """``write 2. before c5``: the move number inserted before the move."""
    number = _NUMBER.match(defect.message)
    if number is None:
        return None
    wanted = number.group(1)
    return Fix(f"Insert {wanted}", defect.line, start, start, f"{wanted} ")


def _renumbered(defect: Defect, text: str, start: int, end: int) -> Fix | None:
    """``move number 3. is wrong: ..., numbered 2.``: the number written right."""
    found = _RENUMBER.match(defect.message)
    if found is None or text[start - 1 : end - 1] != found.group(1):
        return None
    wanted = found.group(2)
    return Fix(f"Number it {wanted}", defect.line, start, end, wanted)


def _result_fixes(defect: Defect, text: str, start: int, end: int) -> Fix | None:
    """A missing result (added), a result written with spaces or ``1/2``, and a result
    that is not the rules' (replaced)."""
    code, message = defect.code, defect.message
    added = _ADD_RESULT.search(message)
    if code == "result-missing" and added is not None:
        wanted = added.group(1)
        before = text[: defect.column - 1]
        spacer = "" if not before or before[-1:].isspace() else " "
        return Fix(
            f"Add the result {wanted}", defect.line, defect.column, defect.column,
            f"{spacer}{wanted}",
        )
    for pattern in (_RESULT_SPACED, _DRAW):
        found = pattern.search(message)
        if found is not None and code in ("result-spaced", "result-draw-spelling"):
            return Fix(f"Write {found.group(1)}", defect.line, start, end, found.group(1))
    outcome = _OUTCOME.match(message)
    if outcome is not None and code == "result-contradicts-rules":
        wanted = outcome.group(1)
        return Fix(f"Write the rules' result {wanted}", defect.line, start, end, wanted)
    return None


def _tag_case_fix(
    found: re.Match[str], at: int, line_text: Callable[[int], str]
) -> Fix | None:
    """``[game ...] at line 1 is not [Game ...]``: the tag's name in its right case (the
    tag at line ``at``, the defect's, when the message names no line)."""
    written, wanted = found.group(1), found.group(3)
    line = int(found.group(2)) if found.group(2) else at
    text = line_text(line)
    at = text.find(f"[{written}")
    if at < 0:
        return None
    start = at + 2
    return Fix(f"Rename the tag {written} to {wanted}", line, start, start + len(written), wanted)
