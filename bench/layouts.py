"""The same records laid out as users have them: what ``bench/run.py`` reads besides the
canonical text.

Each layout is a pure function from canonical record text (what ``notation generate``
and ``notation convert --to text`` write) to the same records laid out otherwise,
seeded, tags untouched:

- ``canonical``: the text as given;
- ``wrapped``: movetext wrapped at 80 columns, every token a word of its own, as PGN
  exporters wrap: a move number may end a line and its move start the next;
- ``token-lines``: one token per line (move numbers, moves, brackets, results);
- ``rich``: what annotated files hold: ``{...}`` comments across lines (brackets,
  quotes and letters beyond ASCII in them), ``;`` comments, escape lines (``%``),
  glyphs (``!``, ``?!``...), NAGs (``$1``), variations that re-play the main line's
  moves from the same position (so legal; some nested), ``N...`` where the main line
  resumes, moves in mixed case (the move notation is case-insensitive), and each line
  of a random width from 24 to 255 columns.

None changes what a record means: every layout gets the same verdicts as the canonical
text, and ``wrapped`` and ``token-lines`` convert back (``convert --to text``) to the
canonical bytes (``bench/run.py`` checks both before it times anything;
``tests/test_bench_layouts.py`` checks them on every game).

    from layouts import LAYOUTS, lay_out
    text = lay_out("rich", canonical_text, seed=1)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: The layouts, in the order they are reported.
LAYOUTS = ("canonical", "wrapped", "token-lines", "rich")
#: Layouts that add nothing to the records: they convert back to the canonical bytes.
PLAIN_LAYOUTS = ("canonical", "wrapped", "token-lines")

WRAP_COLUMNS = 80
RICH_WIDTHS = (24, 255)

_NUMBER = re.compile(r"\d+\.(?:\.\.)?\Z")
_NAG = re.compile(r"\$\d+\Z")
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
_SUFFIXES = ("!", "?", "!!", "??", "!?", "?!")
_COMMENTS = (
    "the usual [plan] with a \"quote\" in it",
    "better was the other square (see the variation below)",
    "Mina thought for a long time here; the clock said 4:12",
    "a quiet move, but the graveyard fills up fast — note the corner",
    "no braces in here, but brackets ( ) and [ ] are fine",
    "Ü, é, ß and ✓ are letters too",
    "1-0 was on the cards here, 12... e4 would have lost at once",
)
_LINE_COMMENTS = (
    "; a comment to the end of the line (with brackets) and {braces}",
    "; the critical moment",
    ";no space after the semicolon",
)
_ESCAPES = ("% an escape line, ignored by readers", "%")


# -- reading canonical text into blocks and tokens ----------------------------------


def _blocks(text: str) -> Iterator[tuple[str, str]]:
    """The text cut at blank lines: ("tags" or "moves", block), separators kept as
    ("gap", text) so that joining every block gives the text back."""
    for part in re.split(r"(\n\s*\n)", text):
        if not part:
            continue
        if part.strip() == "":
            yield "gap", part
        elif part.lstrip("\ufeff").startswith("["):
            yield "tags", part
        else:
            yield "moves", part


def tokens(movetext: str) -> list[str]:
    """The tokens of a block of movetext: words, ``(``, ``)``, whole ``{...}`` comments,
    ``;`` comments (without their line end) and escape lines (``%...``)."""
    found: list[str] = []
    i, n = 0, len(movetext)
    at_line_start = True
    while i < n:
        c = movetext[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if c.isspace():
            at_line_start = False
            i += 1
            continue
        if c == "%" and at_line_start:
            end = movetext.find("\n", i)
            end = n if end < 0 else end
        elif c == "{":
            end = movetext.find("}", i)
            end = n if end < 0 else end + 1
        elif c == ";":
            end = movetext.find("\n", i)
            end = n if end < 0 else end
        elif c in "()":
            end = i + 1
        else:
            end = i
            while end < n and not movetext[end].isspace() and movetext[end] not in "(){};":
                end += 1
        found.append(movetext[i:end])
        at_line_start = False
        i = end
    return found


def _is_move(token: str) -> bool:
    return not (
        token in "()"
        or token[0] in "{;%$"
        or token in _RESULTS
        or _NUMBER.match(token) is not None
    )


# -- writing tokens as lines --------------------------------------------------------


def _words(toks: list[str]) -> list[str]:
    """Tokens as the words of a line: ``(`` joined to what follows, ``)`` to what
    precedes, as PGN writes them."""
    words: list[str] = []
    opening = ""
    for token in toks:
        if token == "(":
            opening += "("
        elif token == ")" and words and not opening and not _ends_line(words[-1]):
            words[-1] += ")"
        else:
            words.append(opening + token)
            opening = ""
    if opening:
        words.append(opening)
    return words


def _ends_line(word: str) -> bool:
    """A ``;`` comment or an escape line: nothing may follow it on its line."""
    return word.lstrip("(").startswith((";", "%"))


def _fill(words: list[str], width: Callable[[], int]) -> str:
    """Words filled into lines greedily, each line as wide as ``width()`` says (a word
    longer than that has a line of its own); escape lines start a line."""
    lines: list[str] = []
    line = ""
    limit = width()
    for word in words:
        if word.startswith("%") and line:
            lines.append(line)
            line, limit = "", width()
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line, limit = "", width()
        line = f"{line} {word}" if line else word
        if _ends_line(word):
            lines.append(line)
            line, limit = "", width()
    if line:
        lines.append(line)
    return "\n".join(lines)


def _relayout_movetext(movetext: str, layout: Callable[[list[str]], str]) -> str:
    """The block laid out anew, its trailing line end (if any) kept."""
    body = movetext.rstrip("\n")
    return layout(tokens(body)) + movetext[len(body):]


def _apply(text: str, layout: Callable[[list[str]], str]) -> str:
    return "".join(
        _relayout_movetext(block, layout) if kind == "moves" else block
        for kind, block in _blocks(text)
    )


def wrapped(text: str, seed: int = 0) -> str:
    """Movetext wrapped at 80 columns, a move number a word of its own."""
    del seed  # the same for every seed
    return _apply(text, lambda toks: _fill(_words(toks), lambda: WRAP_COLUMNS))


def token_lines(text: str, seed: int = 0) -> str:
    """One token per line."""
    del seed
    return _apply(text, lambda toks: "\n".join(toks))


# -- the rich layout ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Numbering:
    """The move numbers of a record's main line, as its canonical text writes them:
    turn ``t`` (0 is the first turn written) is the game's turn ``t + offset``, and a
    round has ``per_round`` turns.  ``written`` is false where the text has no numbers
    (then none are added either)."""

    per_round: int
    offset: int
    written: bool = True

    def number(self, turn: int) -> list[str]:
        """The move number before the main line's turn ``turn``: ``N.`` or ``N...``."""
        if not self.written:
            return []
        round_, place = divmod(turn + self.offset, self.per_round)
        return [f"{round_ + 1}." if place == 0 else f"{round_ + 1}..."]

    def starts_round(self, turn: int) -> bool:
        return (turn + self.offset) % self.per_round == 0


def _numbering(toks: list[str]) -> _Numbering:
    """The numbering of the main line, from its numbers: two ``N.`` give the turns of a
    round; with fewer, a round is taken longer than the record (the numbers are then
    right whatever the true length), placed by the one ``N.`` or ``N...`` there is."""
    full: list[tuple[int, int]] = []
    later: list[tuple[int, int]] = []
    turn = 0
    for depth, token in _with_depth(toks):
        if depth:
            continue
        if _NUMBER.match(token):
            (later if token.endswith("...") else full).append((int(token.split(".")[0]), turn))
        elif _is_move(token):
            turn += 1
    long_round = turn + 2
    if len(full) >= 2 and full[1][0] > full[0][0]:
        (first, at), (second, then) = full[:2]
        per_round = (then - at) // (second - first)
        return _Numbering(per_round, (first - 1) * per_round - at)
    if full:
        first, at = full[0]
        return _Numbering(long_round, (first - 1) * long_round - at)
    if later:
        first, at = later[0]
        return _Numbering(long_round, (first - 1) * long_round + 1 - at)
    return _Numbering(1, 0, written=False)


def _mixed_case(rng: random.Random | None) -> Callable[[str], str]:
    """Half the moves in mixed case, a letter at a time (``rng``), or none (``None``).
    The case never changes a move's length, so the lines break at the same places."""

    def recase(move: str) -> str:
        if rng is None or rng.random() < 0.5:
            return move
        return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in move)

    return recase


def _variation(
    moves: list[str],
    turn: int,
    numbering: _Numbering,
    rng: random.Random,
    case: Callable[[str], str],
) -> list[str]:
    """A variation replacing the main line's move ``turn``: the next one to three main
    line moves played again (legal, being the same moves from the same position), its
    first move sometimes with a variation of its own, nested the same way."""
    count = min(rng.randint(1, 3), len(moves) - turn)
    out = ["(", *numbering.number(turn), case(moves[turn])]
    nested = count > 1 and rng.random() < 0.3
    if nested:
        out += ["(", *numbering.number(turn), case(moves[turn]), ")"]
    for later in range(turn + 1, turn + count):
        if nested or numbering.starts_round(later):
            out += numbering.number(later)
            nested = False
        out.append(case(moves[later]))
    return [*out, ")"]


def _annotated(
    toks: list[str], rng: random.Random, case: Callable[[str], str]
) -> list[str]:
    """The tokens with comments, glyphs, NAGs, variations and escape lines added after
    main line moves, and ``N...`` where the main line resumes after them."""
    numbering = _numbering(toks)
    moves = [t for depth, t in _with_depth(toks) if depth == 0 and _is_move(t)]
    out: list[str] = []
    turn = -1
    depth = 0
    resume = False
    for i, token in enumerate(toks):
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        if depth == 0 and _is_move(token):
            turn += 1
            if resume and not (out and _NUMBER.match(out[-1])):
                out += numbering.number(turn)
            resume = False
            if rng.random() < 1 / 8 and not token.endswith(("!", "?")):
                token += rng.choice(_SUFFIXES)
            out.append(case(token))
            following = toks[i + 1] if i + 1 < len(toks) else ""
            if following.startswith("$"):
                continue  # its own NAGs come first; nothing is added to it
            added = _additions(moves, turn, numbering, rng, case)
            out += added
            resume = bool(added)
            continue
        out.append(token)
        if _NUMBER.match(token) or token in _RESULTS:
            resume = False
    return out


def _additions(
    moves: list[str],
    turn: int,
    numbering: _Numbering,
    rng: random.Random,
    case: Callable[[str], str],
) -> list[str]:
    """What is added after the main line's move ``turn``: at random, none or some."""
    added: list[str] = []
    if rng.random() < 1 / 8:
        added.append(f"${rng.randint(1, 255)}")
    if rng.random() < 1 / 6:
        added.append("{" + rng.choice(_COMMENTS) + "}")
    if rng.random() < 1 / 12:
        added += _variation(moves, turn, numbering, rng, case)
    if rng.random() < 1 / 20:
        added.append(rng.choice(_LINE_COMMENTS))
    if rng.random() < 1 / 40:
        added.append(rng.choice(_ESCAPES))
    return added


def _with_depth(toks: list[str]) -> Iterator[tuple[int, str]]:
    depth = 0
    for token in toks:
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            yield depth + 1, token
            continue
        yield depth, token


def _comment_words(words: list[str]) -> list[str]:
    """``{...}`` comments cut into their words, so that lines break inside them."""
    out: list[str] = []
    for word in words:
        if word.startswith("{") and word.endswith("}") and "\n" not in word:
            out += word.split(" ")
        else:
            out.append(word)
    return out


def rich(text: str, seed: int = 0, *, mixed_case: bool = True) -> str:
    """Comments, glyphs, NAGs, variations, escape lines, mixed case and lines of 24 to
    255 columns (see the module's docstring); the same seed gives the same text.

    With ``mixed_case=False``, the same text with every move as canonical text spells
    it: both must convert to the same bytes (the case of a move means nothing)."""
    rng = random.Random(seed)
    case = _mixed_case(random.Random(f"case {seed}") if mixed_case else None)

    def layout(toks: list[str]) -> str:
        words = _comment_words(_words(_annotated(toks, rng, case)))
        return _fill(words, lambda: rng.randint(*RICH_WIDTHS))

    return _apply(text, layout)


def canonical(text: str, seed: int = 0) -> str:
    """The text as given."""
    del seed
    return text


_LAYOUT_FUNCTIONS: dict[str, Callable[[str, int], str]] = {
    "canonical": canonical,
    "wrapped": wrapped,
    "token-lines": token_lines,
    "rich": rich,
}


def lay_out(layout: str, text: str, seed: int = 0) -> str:
    """Canonical record text in the layout named (one of :data:`LAYOUTS`)."""
    return _LAYOUT_FUNCTIONS[layout](text, seed)
