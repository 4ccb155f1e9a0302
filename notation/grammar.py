"""Loading the Lark grammars of ``grammar/``.

In a source checkout (and an editable install) the grammars sit in the
top-level ``grammar/`` folder; a wheel ships them as ``notation/grammar/``.
Each parser is built once per process (LALR, with the game's transformer
applied while parsing, so no parse tree is kept).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Transformer

_PACKAGE_DIR = Path(__file__).resolve().parent
_CANDIDATES = (_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")


def grammar_path(name: str) -> Path:
    """The file ``grammar/NAME.lark`` wherever this installation keeps it."""
    for folder in _CANDIDATES:
        path = folder / f"{name}.lark"
        if path.is_file():
            return path
    searched = ", ".join(str(c) for c in _CANDIDATES)
    raise FileNotFoundError(f"grammar {name}.lark not found (looked in {searched})")


@cache
def grammar_text(name: str) -> str:
    return grammar_path(name).read_text(encoding="utf-8")


def build_parser(name: str, transformer: Transformer[object, object]) -> Lark:
    """An LALR parser for ``grammar/NAME.lark`` that returns transformed values.

    Callers keep the result (one parser per game and process).
    """
    return Lark(
        grammar_text(name),
        parser="lalr",
        transformer=transformer,
        maybe_placeholders=False,
    )
