"""The package's layers hold: no import cycle, no private name across modules.

Read from the source with :mod:`ast` (nothing is imported).  Every import counts: at
the top of a module, inside a function (deferred) and under ``if TYPE_CHECKING:``,
relative or absolute, ``import a.b`` (which runs ``a`` too) and ``from a import b``
where ``b`` is a submodule; a deferred import still ties two modules together for a
reader.  The definitions are those of ``../shared/tools/imports.py``:

* the shared layer is every module outside a game's package (``notation/games/<game>/``);
* a cycle is a strongly connected group of modules of the import graph; the one
  accepted edge is :data:`ALLOWED_EDGES`, the deferred import that draws a position
  in a notebook (``Position._repr_svg_``), as python-chess keeps ``chess -> chess.svg``;
* a private name is ``_x`` (not a dunder): no module imports one from another module
  of the package, and no shared module reads one on another module's object
  (``node._variations``), unless the file itself defines that name (its own
  functions, classes, attributes it sets), or it is a named tuple's ``_replace``,
  ``_asdict``, ``_fields`` or ``_make``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "notation"
NAME = PACKAGE.name

#: The deferred imports that may close a cycle: (importer, imported).
ALLOWED_EDGES = frozenset({("notation.games.base", "notation.render.svg")})

#: The attributes of a named tuple whose names start with ``_`` and are public.
NAMED_TUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make"})



@dataclass(frozen=True)
class Module:
    """One module of the package, as its source says."""

    name: str
    path: Path
    is_package: bool
    tree: ast.Module = field(compare=False)

    @property
    def game(self) -> str | None:
        """The game package the module belongs to, or None for the shared layer."""
        parts = self.path.relative_to(PACKAGE).parts
        return parts[1] if len(parts) > 2 and parts[0] == "games" else None


@cache
def modules() -> dict[str, Module]:
    """Every module of the package, by its dotted name."""
    found: dict[str, Module] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found[name] = Module(name, path, is_package, tree)
    return found


def resolved(module: Module, level: int, name: str | None) -> str:
    """The absolute name of ``from {'.' * level}{name} import ...`` in ``module``."""
    if level == 0:
        return name or ""
    parts = module.name.split(".")
    if not module.is_package:
        parts.pop()
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, *([name] if name else [])])


def owner(name: str) -> str:
    """The module of the package that ``name`` is or lies in (``""`` for none)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


@dataclass(frozen=True)
class Import:
    """One import statement: where, what it names, and whether it runs in a function."""

    module: str
    line: int
    base: str
    names: tuple[str, ...]
    targets: tuple[str, ...]
    functions: tuple[str, ...]  # the functions it sits in, outermost first


def imports_of(module: Module) -> list[Import]:
    """Every import statement of ``module``, wherever it stands."""
    found: list[Import] = []

    def visit(node: ast.AST, functions: tuple[str, ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions = (*functions, node.name)
        if isinstance(node, ast.Import):
            targets = tuple(alias.name for alias in node.names)
            found.append(Import(module.name, node.lineno, "", (), targets, functions))
        elif isinstance(node, ast.ImportFrom):
            base = resolved(module, node.level, node.module)
            names = tuple(alias.name for alias in node.names)
            targets = (base, *(f"{base}.{name}" for name in names))
            found.append(Import(module.name, node.lineno, base, names, targets, functions))
        for child in ast.iter_child_nodes(node):
            visit(child, functions)

    visit(module.tree, ())
    return found


def edges_of(module: Module) -> set[str]:
    """The modules of the package that the imports of ``module`` run: each module named
    and the packages above it (``import a.b.c`` runs ``a`` and ``a.b`` too), but
    ``module`` itself and its own packages (already running)."""
    known = modules()
    edges: set[str] = set()
    for statement in imports_of(module):
        for target in statement.targets:
            parts = owner(target).split(".")
            for i in range(1, len(parts) + 1):
                ran = ".".join(parts[:i])
                if ran in known and ran != module.name and not module.name.startswith(ran + "."):
                    edges.add(ran)
    return edges


@cache
def graph() -> dict[str, frozenset[str]]:
    """The import graph of the package, the allowed edges left out."""
    edges = {name: edges_of(module) for name, module in modules().items()}
    for importer, imported in ALLOWED_EDGES:
        edges[importer].discard(imported)
    return {name: frozenset(targets) for name, targets in edges.items()}


@cache
def cycles() -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan, without recursion)."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[tuple[str, ...]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            vertex, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[vertex] = min(low[vertex], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[vertex])
                if low[vertex] == index[vertex]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == vertex:
                            break
                    if len(group) > 1:
                        groups.append(tuple(sorted(group)))
    return sorted(groups)


def described(group: tuple[str, ...]) -> str:
    """A cycle as a message shows it: each module and the members it imports."""
    edges = graph()
    return "\n".join(
        f"{name} -> {', '.join(sorted(edges[name] & set(group)))}" for name in group
    )


def games() -> list[str]:
    """The game packages (``cave``...)."""
    return sorted({m.game for m in modules().values() if m.game is not None})


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


# -- (a) the shared layer: no cycle, but the one deferred edge -------------------------


def test_the_shared_layer_has_no_import_cycle() -> None:
    shared = [g for g in cycles() if any(modules()[m].game is None for m in g)]
    assert not shared, "import cycles through the shared layer:\n" + "\n\n".join(
        described(g) for g in shared
    )


def test_the_one_allowed_edge_is_the_deferred_import_of_repr_svg() -> None:
    # games.base -> render.svg: Position._repr_svg_ draws the board for a notebook, and
    # imports the renderer when it is called; no other import of base runs it.
    importer, imported = next(iter(ALLOWED_EDGES))
    assert len(ALLOWED_EDGES) == 1
    found = [
        statement
        for statement in imports_of(modules()[importer])
        if any(owner(target) == imported for target in statement.targets)
    ]
    assert [(s.base, s.names, s.functions) for s in found] == [
        (imported, ("board_svg",), ("_repr_svg_",))
    ]
    # the edge is needed: render.svg reaches games.base again (through Stepper, Record...)
    assert importer in reachable(imported)


def reachable(start: str) -> set[str]:
    """The modules that importing ``start`` may run, in the graph of :func:`graph`."""
    seen, todo = set(), [start]
    while todo:
        for successor in graph()[todo.pop()]:
            if successor not in seen:
                seen.add(successor)
                todo.append(successor)
    return seen


SEEN = """
from __future__ import annotations
from typing import TYPE_CHECKING
from . import board
from ..base import Game
import notation.render.svg
if TYPE_CHECKING:
    from notation.games.view import BoardView
def later():
    from notation import record
"""


def test_the_graph_sees_every_kind_of_import() -> None:
    # a module of the Cave package, as if it were written so: relative imports, a
    # submodule imported from its package, import a.b, TYPE_CHECKING, deferred.
    path = PACKAGE / "games" / "cave" / "seen.py"
    seen = Module("notation.games.cave.seen", path, False, ast.parse(SEEN))
    assert edges_of(seen) == {
        "notation.games.cave.board",
        "notation.games.base",
        "notation.render",
        "notation.render.svg",
        "notation.games.view",
        "notation.record",
    }
    assert seen.game == "cave"
    assert [s.functions for s in imports_of(seen)][-1] == ("later",)


# -- (b) each game package: no cycle inside ---------------------------------------------


@pytest.mark.parametrize("game", [game for game in games()])
def test_a_game_package_has_no_import_cycle(game: str) -> None:
    inside = [g for g in cycles() if all(modules()[m].game == game for m in g)]
    assert not inside, f"import cycles in the {game} package:\n" + "\n\n".join(
        described(g) for g in inside
    )


# -- (c) no private name imported from another module ----------------------------------


@pytest.mark.parametrize("name", [name for name in sorted(modules())])
def test_no_private_name_is_imported_from_another_module(name: str) -> None:
    found = [
        f"{modules()[name].path.relative_to(PACKAGE.parent)}:{s.line}: "
        f"from {s.base} import {alias}"
        for s in imports_of(modules()[name])
        if s.base.split(".")[0] == NAME
        for alias in s.names
        if is_private(alias)
    ]
    assert not found, "private names imported:\n" + "\n".join(found)


# -- (d) the shared layer reads no private attribute of another module's objects --------


def defined_in(tree: ast.Module) -> set[str]:
    """The names a file defines or spells itself: its functions and classes, the
    attributes it sets, every name it uses, its strings (``setattr(cls, "_x", ...)``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
    return names


def private_reads(module: Module) -> list[str]:
    """The reads ``obj._name`` of ``module`` on an object other than ``self`` or ``cls``
    whose ``_name`` the file does not define itself."""
    own = defined_in(module.tree) | NAMED_TUPLE_API
    return [
        f"{module.path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(module.tree)
        if isinstance(node, ast.Attribute)
        and is_private(node.attr)
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        and node.attr not in own
    ]


@pytest.mark.parametrize(
    "name",
    [name for name, m in sorted(modules().items()) if m.game is None],
)
def test_a_shared_module_reads_no_private_attribute_of_another(name: str) -> None:
    found = private_reads(modules()[name])
    assert not found, "private attributes read:\n" + "\n".join(found)


# -- (c) the layers of the tree: which folder may import which ------------------------

#: The layers, lowest first, each with the modules and packages it holds.  A module may
#: import its own layer and the layers under it, never one above.  The core is every
#: module at the top of the package but the facade (``notation``, which any module may
#: run: it is their package) and ``errors`` (under everything).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("errors", ("notation.errors",)),
    ("files", ("notation.files",)),
    ("games", ("notation.games",)),
    ("core", ()),
    ("formats", ("notation.formats",)),
    ("checking", ("notation.checking",)),
    ("collections", ("notation.collections",)),
    ("editing", ("notation.editing",)),
    ("render", ("notation.render",)),
    ("apps", ("notation.tui", "notation.lsp")),
    ("command line", ("notation.cli", "notation.commands", "notation.__main__")),
)
CORE = LAYERS.index(("core", ()))

#: The most modules the top of the package may hold (the core, the facade, errors).
TOP_MOST = 15


def layer_of(name: str) -> int | None:
    """The rank of the layer module ``name`` belongs to (None for the facade)."""
    if name == NAME:
        return None
    for rank, (_, members) in enumerate(LAYERS):
        if any(name == m or name.startswith(m + ".") for m in members):
            return rank
    return CORE if name.count(".") == 1 and not modules()[name].is_package else -1


def upward_imports() -> list[str]:
    """Every import of a module from a layer above its own, as a message line (but the
    edges of :data:`ALLOWED_EDGES`, and the packages they run on the way)."""
    allowed = {
        (importer, ".".join(imported.split(".")[:i]))
        for importer, imported in ALLOWED_EDGES
        for i in range(2, imported.count(".") + 2)
    }
    found = []
    for name, module in sorted(modules().items()):
        rank = layer_of(name)
        if rank is None:
            continue
        for imported in sorted(edges_of(module)):
            other = layer_of(imported)
            if other is not None and other > rank and (name, imported) not in allowed:
                found.append(f"{name} ({LAYERS[rank][0]}) imports {imported} ({LAYERS[other][0]})")
    return found


def test_every_module_belongs_to_a_layer() -> None:
    unplaced = [name for name in modules() if layer_of(name) == -1]
    assert not unplaced, f"add these to a layer of LAYERS: {unplaced}"


def test_each_layer_imports_only_the_layers_under_it() -> None:
    found = upward_imports()
    assert not found, "imports from a layer above:\n" + "\n".join(found)


def test_the_layer_rule_sees_an_upward_import(monkeypatch: pytest.MonkeyPatch) -> None:
    # the record (core) importing the editor (editing) is what the rule must refuse
    record = modules()["notation.record"]
    tree = ast.parse("from notation.editing.editor import RecordEditor\n")
    changed = dict(modules(), **{"notation.record": Module(record.name, record.path, False, tree)})
    monkeypatch.setattr(f"{__name__}.modules", lambda: changed)
    assert upward_imports() == [
        "notation.record (core) imports notation.editing (editing)",
        "notation.record (core) imports notation.editing.editor (editing)",
    ]


def test_every_sub_package_says_what_its_layer_is_and_may_import() -> None:
    packages = [m for name, m in modules().items() if m.is_package and name.count(".") == 1]
    assert len(packages) >= 7
    for package in packages:
        doc = ast.get_docstring(package.tree) or ""
        if package.name.startswith("notation.games."):
            continue
        assert len(doc.split()) >= 30, f"{package.name}: say what the layer is"
        assert "import" in doc, f"{package.name}: say what the layer may import"


def test_the_top_of_the_package_is_a_small_core() -> None:
    top = [p.name for p in PACKAGE.glob("*.py")]
    assert len(top) <= TOP_MOST, sorted(top)


# -- (d) names: no two public classes share one ----------------------------------------


def public_classes() -> dict[str, list[str]]:
    """Each public class name defined at the top of a module, with the modules defining it."""
    found: dict[str, list[str]] = {}
    for name, module in modules().items():
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(name)
    return found


def test_no_two_public_classes_share_a_name() -> None:
    shared = {name: where for name, where in public_classes().items() if len(where) > 1}
    assert not shared, shared


#: The most lines a module of the package may have: past it, a module holds more than
#: one thing to read.
MODULE_MOST_LINES = 900


def test_no_module_runs_past_the_most_lines() -> None:
    long = {
        name: n
        for name, module in modules().items()
        if (n := len(module.path.read_text(encoding="utf-8").splitlines())) > MODULE_MOST_LINES
    }
    assert not long, long
