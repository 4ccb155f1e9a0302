"""Loading the Lark grammars of games.

The grammars of this package's games sit in the top-level ``grammar/`` folder of a
source checkout; a wheel ships them as ``notation/grammar/``.  A game kept elsewhere
names its grammar file by its path.  Each parser is built once per process (LALR, the
game's transformer applied while parsing, so no parse tree is kept).

The first process to build a game's parser also writes, in :func:`cache_dir` under
``grammars/``, the parser as Lark's standalone generator makes it (one Python module,
``NAME-DIGEST.standalone.py``) and that module compiled (``.standalone.code``); the
next processes run it and never import Lark.  The digest is of the grammar, the
options, Lark's version and Python's.  A token the standalone parser cannot read is
read again by Lark, so that the error is Lark's own (``lark.exceptions.UnexpectedInput``
and its kin).  Lark's own cache (``NAME-DIGEST.lark-cache``) serves whenever Lark is
imported after all.  A cache that cannot be written, or a damaged file there, only
costs the time of the build.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from notation.files.savefile import replace_file

if TYPE_CHECKING:
    from pathlib import Path  # at run time only where a Path is returned (start-up)

    from lark import Lark, Transformer
    from lark.exceptions import UnexpectedInput

__all__ = [
    "GameParser",
    "GameTransformer",
    "build_parser",
    "cache_dir",
    "grammar_path",
    "grammar_text",
]

# Folders as text, not pathlib's paths: the checks of start-up need no pathlib.
# This module is notation/games/grammar.py; the grammars are beside the package.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
_CANDIDATES = (
    os.path.join(_PACKAGE_DIR, "grammar"),
    os.path.join(os.path.dirname(_PACKAGE_DIR), "grammar"),
)

T = TypeVar("T")

#: The options of every parser (the standalone module is made with them too).
_OPTIONS: dict[str, Any] = {"parser": "lalr", "maybe_placeholders": False}
#: The version of the standalone files: changed whenever what is written changes.
_FORMAT = "notation-standalone 2"


def grammar_path(name: str | Path) -> Path:
    """Where a grammar is: ``grammar/NAME.lark`` wherever this installation keeps it
    for a name (``"cave"``), or the file itself for a path; ``FileNotFoundError`` if none.
    """
    if not isinstance(name, str):
        _grammar_file(name)
        return name
    from pathlib import Path

    return Path(_grammar_file(name))


def _grammar_file(name: str | Path) -> str:
    """:func:`grammar_path`, as text."""
    if not isinstance(name, str):
        if os.path.isfile(name):
            return os.fspath(name)
        raise FileNotFoundError(f"grammar {name} not found")
    for folder in _CANDIDATES:
        path = os.path.join(folder, f"{name}.lark")
        if os.path.isfile(path):
            return path
    searched = ", ".join(_CANDIDATES)
    raise FileNotFoundError(f"grammar {name}.lark not found (looked in {searched})")


@cache
def grammar_text(name: str | Path) -> str:
    """The text of the grammar :func:`grammar_path` finds for ``name``."""
    with open(_grammar_file(name), encoding="utf-8") as handle:
        return handle.read()


class GameTransformer(Generic[T]):
    """The base of a transformer that needs no Lark: what :func:`build_parser` applies
    while it parses, making a ``T`` (the value of the start rule) of a token.

    As with a ``lark.Transformer``, a method named after a rule gets the list of the
    rule's children (tokens, and the values of the rules below) and returns the rule's
    value; a method named after a terminal gets each token of it.  This class has no
    method of its own, so subclassing it imports nothing.
    """

    __slots__ = ()


class GameParser(Generic[T]):
    """The parser :func:`build_parser` makes: :meth:`parse` returns what its transformer
    makes of a token (a ``T``), or raises Lark's exceptions for a token it cannot read.
    It parses with the cached standalone module if any, else with Lark (:attr:`lark`).
    """

    __slots__ = ("_fast", "_fast_error", "_grammar", "_lark", "_transformer")

    def __init__(
        self,
        grammar: str | Path,
        transformer: object,
        fast: Any = None,
        fast_error: type[Exception] | None = None,
    ) -> None:
        self._grammar = grammar
        self._transformer = transformer
        # The standalone parser and the base class of its own exceptions, if loaded.
        self._fast = fast
        self._fast_error: type[Exception] = fast_error or _NeverRaised
        self._lark: Lark | None = None

    def parse(
        self,
        text: str,
        start: str | None = None,
        on_error: Callable[[UnexpectedInput], bool] | None = None,
    ) -> T:
        """The transformer's value for ``text``; Lark's exceptions for text it cannot read
        (``lark.exceptions.UnexpectedInput`` and its kin), and whatever the transformer
        raises."""
        fast = self._fast
        if fast is not None and on_error is None:
            try:
                return cast(T, fast.parse(text, start))
            except self._fast_error:
                pass  # the standalone module's copy of an error: Lark's own below
        # Outside the handler, so that Lark's exception carries no copy as its context.
        return cast(T, self.lark.parse(text, start, on_error))

    @property
    def lark(self) -> Lark:
        """The parser as Lark itself builds it (from Lark's cache when it can): imports
        Lark, on first use."""
        if self._lark is None:
            self._lark = _lark_parser(self._grammar, self._transformer)
        return self._lark


class _NeverRaised(Exception):
    """The class of the errors :meth:`GameParser.parse` leaves to Lark when it has no
    standalone parser (none is ever raised)."""


def build_parser(
    grammar: str | Path, transformer: GameTransformer[T] | Transformer[Any, T]
) -> GameParser[T]:
    """An LALR parser for a grammar that returns what ``transformer`` makes.

    ``grammar`` is a name (``"cave"``: ``grammar/cave.lark`` of this package) or the
    path of a ``.lark`` file.  ``transformer`` is a :class:`GameTransformer` (any object
    whose methods are named after the grammar's rules will do), or a
    ``lark.Transformer``, which keeps Lark's parser.  Callers keep the result.

    A transformer's methods, named after the rules of Cave's grammar, make a value of
    each move token: here, the squares it names:

    >>> class Squares(GameTransformer[list[str]]):
    ...     def enter(self, children):
    ...         return [str(children[0])]
    ...     def step(self, children):
    ...         return [str(child) for child in children]
    >>> parser = build_parser("cave", Squares())
    >>> parser.parse("b1"), parser.parse("b1-b2")
    (['b1'], ['b1', 'b2'])
    >>> parser.parse("b1-")
    Traceback (most recent call last):
    ...
    lark.exceptions.UnexpectedToken: Unexpected token Token('$END', '') at line 1, column 3.
    Expected one of: ...
    """
    text = grammar_text(grammar)
    if _is_lark_object(transformer):  # Lark is imported already: its parser, from its cache
        parser: GameParser[T] = GameParser(grammar, transformer)
        parser.lark  # noqa: B018  # built now: a broken grammar fails here, not later
        return parser
    place = _standalone_place(grammar, text)
    if place is not None:
        fast = _load_standalone(place, transformer)
        if fast is not None:
            return GameParser(grammar, transformer, *fast)
    parser = GameParser(grammar, transformer)
    built = parser.lark
    if place is not None:
        _write_standalone(place, built, transformer)
    return parser


def cache_dir() -> Path:
    """The user's cache directory of the toolkit: ``$NOTATION_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/undead-notation``, else ``~/.cache/undead-notation`` (where
    :mod:`notation.games.zombie_kidz.solve` keeps solved tables too)."""
    from pathlib import Path

    return Path(_cache_dir())


def _cache_dir() -> str:
    """:func:`cache_dir`, as text; ``RuntimeError`` if it is under a home directory
    that cannot be found (as ``Path.home()``)."""
    explicit = os.environ.get("NOTATION_CACHE_DIR")
    if explicit:
        return explicit
    xdg = os.environ.get("XDG_CACHE_HOME")
    if not xdg:
        home = os.path.expanduser("~")
        if home.startswith("~"):
            raise RuntimeError("Could not determine home directory.")
        xdg = os.path.join(home, ".cache")
    return os.path.join(xdg, "undead-notation")


def _stem(grammar: str | Path) -> str:
    """The name of a grammar (``Path(grammar).stem``)."""
    return os.path.splitext(os.path.basename(os.fspath(grammar)))[0]


# -- Lark's parser ------------------------------------------------------------------


def _is_lark_object(value: object) -> bool:
    """Whether ``value`` is an instance of a class of Lark's (a ``lark.Transformer``)."""
    if "lark" not in sys.modules:
        return False  # then no class of Lark's exists yet
    return any(
        (klass.__module__ or "").partition(".")[0] == "lark" for klass in type(value).__mro__
    )


def _lark_parser(grammar: str | Path, transformer: object) -> Lark:
    """The parser of ``grammar`` as Lark builds it, its tables in Lark's cache."""
    from lark import Lark

    text = grammar_text(grammar)
    return Lark(
        text,
        transformer=cast("Transformer[Any, Any]", transformer),
        cache=_cache_file(grammar, text) or False,
        **_OPTIONS,
    )


def _grammars_folder() -> str | None:
    """The folder of cached parsers, made if need be; ``None`` if it cannot be made."""
    try:
        folder = os.path.join(_cache_dir(), "grammars")
        os.makedirs(folder, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home directory
        return None
    return folder


def _cache_file(grammar: str | Path, text: str) -> str | None:
    """Where Lark keeps the tables of ``grammar`` (a file per grammar text); ``None`` if
    the folder cannot be made."""
    import hashlib  # here: the standalone parser needs no digest of this kind

    folder = _grammars_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"{_stem(grammar)}-{digest}.lark-cache")


# -- the standalone parser ----------------------------------------------------------


class _Place:
    """Where the standalone parser of a grammar is kept, and the key it is kept under."""

    __slots__ = ("code", "key", "name", "source")

    def __init__(self, folder: str, name: str, key: bytes, digest: int) -> None:
        stem = f"{name}-{digest:08x}.standalone"
        self.name = name
        self.key = key
        self.source = os.path.join(folder, f"{stem}.py")
        self.code = os.path.join(folder, f"{stem}.code")


def _standalone_place(grammar: str | Path, text: str) -> _Place | None:
    """Where the standalone parser of ``grammar`` (whose text is ``text``) is kept (the
    folder is made when it is written), or ``None`` without a cache folder, or without
    Lark to make one."""
    from importlib.util import MAGIC_NUMBER  # imported at start-up anyway
    from zlib import crc32

    version = _lark_version()
    if version is None:
        return None
    try:
        folder = os.path.join(_cache_dir(), "grammars")
    except RuntimeError:  # no home directory
        return None
    # Everything the module depends on; it is written at the head of the compiled file
    # and compared when read, so the digest of the name only has to tell files apart.
    key = "\n".join(
        (
            _FORMAT,
            f"lark {version}",
            f"python {sys.version} {sys.implementation.cache_tag} {MAGIC_NUMBER.hex()}",
            f"options {sorted(_OPTIONS.items())!r}",
            text,
        )
    ).encode("utf-8")
    return _Place(folder, _stem(grammar), key, crc32(key))


@cache
def _lark_version() -> str | None:
    """The version of the Lark that ``import lark`` would load, read from its
    ``__init__.py`` without importing it (``None`` if there is no Lark)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("lark")
        if spec is None or spec.origin is None:
            return None
        with open(spec.origin, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, ImportError, ValueError):
        return None
    for line in lines:  # __version__ = "1.3.1", or __version__: str = "1.3.1"
        name, equals, value = line.partition("=")
        if equals and name.split(":")[0].strip() == "__version__":
            return value.strip().strip("'\"") or None
    return None


def _load_standalone(place: _Place, transformer: object) -> tuple[Any, type[Exception]] | None:
    """The standalone parser kept at ``place`` with ``transformer`` applied, and the base
    class of the exceptions of its module; ``None`` if there is none, or none that
    serves (damaged, truncated, of another Python: it is made anew then)."""
    import marshal
    from importlib.util import MAGIC_NUMBER

    try:
        with open(place.code, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    head = _code_head(place.key, MAGIC_NUMBER)
    if not data.startswith(head):
        return None
    body = memoryview(data)[len(head) :]
    try:
        from zlib import crc32

        if len(body) < 4 or crc32(body[4:]) != int.from_bytes(body[:4], "big"):
            return None  # damaged: never run code that is not what was written
        code = marshal.loads(body[4:])
        if not isinstance(code, types.CodeType):
            return None
        return _run_standalone(place, code, transformer)
    except Exception:  # whatever it is, Lark serves instead
        return None


def _run_standalone(
    place: _Place, code: types.CodeType, transformer: object
) -> tuple[Any, type[Exception]]:
    """Run the standalone module's ``code`` in a module of its own (not in
    ``sys.modules``, so that it clashes with nothing) and build its parser."""
    name = f"notation.games.grammar.<standalone {place.name}>"
    module = types.ModuleType(name)
    module.__file__ = place.source
    # Known by its name while it runs only: dataclasses look up the module of a class
    # whose annotations are text (see _lean).
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)  # the module this toolkit wrote
    finally:
        del sys.modules[name]
    parser = module.Lark_StandAlone(transformer=transformer)
    error = module.LarkError
    if not (isinstance(error, type) and issubclass(error, Exception)):
        raise TypeError("the standalone module has no LarkError")
    return parser, error


def _code_head(key: bytes, magic: bytes) -> bytes:
    """What a compiled standalone module starts with: Python's bytecode magic number,
    the length of the key and the key (then the checksum and the code)."""
    return magic + len(key).to_bytes(8, "big") + key


def _write_standalone(place: _Place, built: Lark, transformer: object) -> None:
    """Make the standalone module of the parser Lark ``built``, and keep it at ``place``
    with its compiled code, if it runs; nothing is kept if any of that fails."""
    import marshal
    from importlib.util import MAGIC_NUMBER
    from zlib import crc32

    folder = _grammars_folder()
    if folder is None or not os.access(folder, os.W_OK | os.X_OK):
        return  # a folder that cannot be written: not worth making the module
    try:
        source = _standalone_source(built)
    except Exception:  # no standalone module: Lark's cache serves
        return
    for text in (_lean(source), source):  # as written if the lean one fails to run
        try:
            # Not under this module's own ``from __future__`` imports: as written.
            code = compile(text, place.source, "exec", dont_inherit=True)
            _run_standalone(place, code, transformer)  # it runs, or it is not kept
        except Exception:
            continue
        break
    else:
        return
    try:
        payload = marshal.dumps(code)
        compiled = _code_head(place.key, MAGIC_NUMBER) + crc32(payload).to_bytes(4, "big") + payload
        replace_file(place.source, text.encode("utf-8"))
        replace_file(place.code, compiled)
    except Exception:  # no standalone module: Lark's cache serves
        return


def _standalone_source(built: Lark) -> str:
    """The text of the standalone module Lark's generator makes of the parser ``built``
    (its tables without the transformer, which is given when the module is run)."""
    import io

    from lark.tools.standalone import gen_standalone

    class Tables:
        """``built`` as the generator sees it: its tables and options, without the
        transformer or the cache file (given anew, or unused, when it runs)."""

        def memo_serialize(self, types_to_memoize: list[Any]) -> tuple[Any, Any]:
            data, memo = built.memo_serialize(types_to_memoize)
            options = dict(data["options"])
            options.update(transformer=None, cache=False)
            return {**data, "options": options}, memo

    out = io.StringIO()
    gen_standalone(Tables(), out=out)  # type: ignore[no-untyped-call]
    return out.getvalue()


#: What the standalone module need not do as notation runs it: import logging for a
#: logger that stays silent, import what decompresses compressed tables (these are not).
#: Each text is replaced only where found exactly once; the module is run before it is
#: kept, so a Lark whose text differs is run as written.
_LEAN = (
    (
        "import logging\n",
        "class logging:  # notation: a stand-in, as Lark's logger stays silent\n"
        "    CRITICAL = 50\n"
        "    Logger = None\n"
        "    def getLogger(name): return _Silent()\n"
        "    def StreamHandler(): return None\n"
        "    getLogger = staticmethod(getLogger)\n"
        "    StreamHandler = staticmethod(StreamHandler)\n"
        "class _Silent:\n"
        "    def _nothing(self, *args, **kwargs): return None\n"
        "    addHandler = setLevel = debug = info = warning = error = _nothing\n"
        "    exception = critical = log = _nothing\n",
    ),
    ("\nimport pickle, zlib, base64\n", "\n"),
)


def _lean(source: str) -> str:
    """``source`` with the texts of :data:`_LEAN` replaced where they are found, and its
    annotations kept as text."""
    for old, new in _LEAN:
        if source.count(old) == 1:
            source = source.replace(old, new)
    return "from __future__ import annotations\n" + source
