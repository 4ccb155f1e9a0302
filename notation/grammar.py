"""Loading the Lark grammars of games.

The grammars of the games in this package sit in the top-level ``grammar/`` folder
of a source checkout (and an editable install); a wheel ships them as
``notation/grammar/``.  A game kept elsewhere (another distribution, a test) names
its grammar file by its path instead.  Each parser is built once per process (LALR,
with the game's transformer applied while parsing, so no parse tree is kept).

Building an LALR parser from a grammar costs tens of milliseconds (Lark first reads
its own grammar of grammars), more than checking a short record: the tables Lark
computes are kept in the user's cache directory (:func:`cache_dir`, then
``grammars/``) and loaded from there by the next process, which then never reads a
grammar.  Lark keys each file by a digest of the grammar, the options, Lark's
version and Python's, and builds anew (rewriting the file) when one differs; a
cache directory that cannot be written only costs the time of the build
(docs/performance.md, "Start-up").
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput

__all__ = ["GameParser", "build_parser", "cache_dir", "grammar_path", "grammar_text"]

_PACKAGE_DIR = Path(__file__).resolve().parent
_CANDIDATES = (_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")

T = TypeVar("T")


def grammar_path(name: str | Path) -> Path:
    """Where a grammar is: ``grammar/NAME.lark`` wherever this installation keeps it
    for a name (``"cave"``), or the file itself for a path.

    ``FileNotFoundError`` if there is no such file.
    """
    if isinstance(name, Path):
        if name.is_file():
            return name
        raise FileNotFoundError(f"grammar {name} not found")
    for folder in _CANDIDATES:
        path = folder / f"{name}.lark"
        if path.is_file():
            return path
    searched = ", ".join(str(c) for c in _CANDIDATES)
    raise FileNotFoundError(f"grammar {name}.lark not found (looked in {searched})")


@cache
def grammar_text(name: str | Path) -> str:
    """The text of the grammar :func:`grammar_path` finds for ``name``."""
    return grammar_path(name).read_text(encoding="utf-8")


class GameParser(Lark, Generic[T]):
    """A Lark parser whose :meth:`parse` returns what its transformer makes (a ``T``).

    Lark types ``parse`` as returning a parse tree, which is what it returns without
    a transformer; with one applied while parsing (LALR), it returns the
    transformer's value for the start rule instead.  This class says so once, here,
    so that no game needs a cast or an ignore where it reads a move.
    """

    def parse(  # type: ignore[override]  # the value of the transformer, not a tree
        self,
        text: str,
        start: str | None = None,
        on_error: Callable[[UnexpectedInput], bool] | None = None,
    ) -> T:
        """The transformer's value for ``text``; Lark's exceptions for text it cannot read."""
        return cast(T, super().parse(text, start, on_error))


def build_parser(grammar: str | Path, transformer: Transformer[Any, T]) -> GameParser[T]:
    """An LALR parser for a grammar that returns what ``transformer`` makes.

    ``grammar`` is a name (``"cave"``: ``grammar/cave.lark`` of this package) or the
    path of a ``.lark`` file kept anywhere else.  Callers keep the result (one parser
    per game and process).
    """
    text = grammar_text(grammar)
    return GameParser(
        text,
        parser="lalr",
        transformer=transformer,
        maybe_placeholders=False,
        cache=_cache_file(grammar, text) or False,
    )


def cache_dir() -> Path:
    """The user's cache directory of the toolkit: ``$NOTATION_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/undead-notation``, else ``~/.cache/undead-notation`` (where
    :mod:`notation.games.zombie_kidz.solve` keeps solved tables too)."""
    explicit = os.environ.get("NOTATION_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "undead-notation"


def _cache_file(grammar: str | Path, text: str) -> str | None:
    """Where Lark keeps the tables of ``grammar`` (a file per grammar text, so that
    two grammars of one name, or two versions of one, do not overwrite each other);
    ``None`` if the folder cannot be made (no cache then, only a slower start)."""
    try:
        folder = cache_dir() / "grammars"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # read-only, no home directory (RuntimeError)
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return str(folder / f"{Path(grammar).stem}-{digest}.lark-cache")
