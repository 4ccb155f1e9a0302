"""Every public name of the ``notation`` package has a docstring.

The API reference (docs/build_api.py, pdoc) is built from the docstrings, so a public
name without one is a hole in the reference. Public means: a module's ``__all__`` where
it has one, else the classes and functions defined in the module whose names do not
start with ``_``; and the methods and properties of those classes whose names do not
start with ``_``. The docstring is looked up with ``inspect.getdoc``, as pdoc does, so
a method that overrides a documented base method needs none of its own.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import notation


def _modules() -> list[ModuleType]:
    """The package and every module under it, imported."""
    names = [notation.__name__]
    names += [
        info.name
        for info in pkgutil.walk_packages(notation.__path__, prefix=f"{notation.__name__}.")
        # __main__ runs the command line when imported: it defines no public name.
        if not info.name.endswith(".__main__")
    ]
    return [importlib.import_module(name) for name in sorted(names)]


def _public_members(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """The module's public classes and functions, by qualified name."""
    if hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and (inspect.isclass(value) or inspect.isfunction(value))
            # defined here, not imported from elsewhere (checked in its own module)
            and getattr(value, "__module__", None) == module.__name__
        ]
    for name in names:
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            yield f"{module.__name__}.{name}", value


def _public_methods(cls: type) -> Iterator[tuple[str, Any]]:
    """The methods and properties a class defines itself whose names are public."""
    for name, raw in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        if inspect.isfunction(raw) or isinstance(raw, property):
            # getattr on the class, so that getdoc finds an overridden base's docstring
            value = raw if isinstance(raw, property) else getattr(cls, name)
            yield f"{cls.__module__}.{cls.__qualname__}.{name}", value


def _doc(owner: type | None, name: str, value: Any) -> str | None:
    doc = inspect.getdoc(value)
    if doc or owner is None or not isinstance(value, property):
        return doc
    # inspect.getdoc does not look up an overridden property in the bases: do it here
    for base in owner.__mro__[1:]:
        inherited = vars(base).get(name)
        if isinstance(inherited, property) and inherited.__doc__:
            return inherited.__doc__
    return None


def public_names_without_docstring() -> list[str]:
    """Every public name of the package that has no docstring (modules included)."""
    missing: list[str] = []
    seen: set[int] = set()
    for module in _modules():
        if not inspect.getdoc(module):
            missing.append(module.__name__)
        for qualname, value in _public_members(module):
            if id(value) in seen:
                continue  # a name re-exported by another module's __all__
            seen.add(id(value))
            if not _doc(None, qualname, value):
                missing.append(qualname)
            if inspect.isclass(value):
                for method_name, method in _public_methods(value):
                    short = method_name.rsplit(".", 1)[1]
                    if not _doc(value, short, method):
                        missing.append(method_name)
    return sorted(set(missing))


def test_the_walk_finds_the_packages_public_names() -> None:
    # the check means something only if it sees the whole package, methods included
    names: set[str] = set()
    for module in _modules():
        for qualname, value in _public_members(module):
            names.add(qualname)
            if inspect.isclass(value):
                names.update(name for name, _ in _public_methods(value))
    assert "notation.reader.read_string" in names
    assert "notation.games.base.Position.push" in names
    assert "notation.games.cave.rules.CaveRules.push" in names
    assert "notation.errors.Defect.located" in names
    assert len(names) > 300


class _Base:
    def act(self) -> None:
        """Do the thing."""

    @property
    def size(self) -> int:
        """How big."""
        return 0


# At module level: inspect.getdoc finds a method's class from its qualified name, which
# it cannot do for a class defined inside a function.
class _Child(_Base):
    def act(self) -> None:
        pass

    @property
    def size(self) -> int:
        return 1

    def bare(self) -> None:
        pass


def test_an_override_inherits_its_base_docstring_and_a_bare_name_is_caught() -> None:
    found = {name.rsplit(".", 1)[1]: value for name, value in _public_methods(_Child)}
    assert _doc(_Child, "act", found["act"]) == "Do the thing."
    assert _doc(_Child, "size", found["size"]) == "How big."
    assert not _doc(_Child, "bare", found["bare"])


def test_every_public_name_has_a_docstring() -> None:
    missing = public_names_without_docstring()
    assert not missing, (
        f"{len(missing)} public names without a docstring:\n  " + "\n  ".join(missing)
    )


def textual_classes_made_public() -> list[str]:
    """Public names that are textual screens, apps or widgets.

    pdoc (docs/build_api.py) cannot render them: it reads the annotations they
    inherit from textual, which name typeshed-only modules, and the build fails.
    Such classes stay out of their module's ``__all__`` (their module documents them).
    """
    from textual.dom import DOMNode

    return sorted(
        qualname
        for module in _modules()
        for qualname, value in _public_members(module)
        if inspect.isclass(value) and issubclass(value, DOMNode)
    )


def test_no_textual_class_is_public() -> None:
    found = textual_classes_made_public()
    assert not found, f"take these out of their module's __all__ (pdoc fails on them): {found}"


def test_the_textual_rule_sees_a_public_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    from notation.tui import record_help

    monkeypatch.setattr(record_help, "__all__", [*record_help.__all__, "RecordHelp"])
    assert textual_classes_made_public() == ["notation.tui.record_help.RecordHelp"]
