"""The ``>>>`` examples of the package's docstrings run, and say what they show.

Each module of :data:`MODULES` is run with :mod:`doctest`: every example must pass,
and there must be at least one (a module listed here whose examples went away is
caught).  To add a module's examples, add its name to :data:`MODULES`; a module with
``>>>`` examples that is not listed fails :func:`test_every_module_with_examples_is_listed`.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "notation"

#: The modules whose docstrings hold ``>>>`` examples, by their dotted names.
MODULES = (
    "notation.render.terminal_colours",
    "notation.collections.cutting",
    "notation.collections.scanning",
    "notation.editing.changes",
    "notation.editing.clocks",
    "notation.editing.move_entry",
    "notation.editing.new_record",
    "notation.formats.convert",
    "notation.editing.editor",
    "notation.errors",
    "notation.games.cave.position",
    "notation.games.tinkertown.position",
    "notation.games.zombie_kidz.position",
    "notation.collections.index",
    "notation.formats.jsonwriter",
    "notation.editing.mends",
    "notation.checking.move_fix",
    "notation.editing.recordfile",
    "notation.record",
    "notation.record_bounds",
    "notation.lastchange",
    "notation.replay",
    "notation.files.savefile",
    "notation.checking.slips",
    "notation.stepper",
    "notation.files.textfile",
    "notation.verdict",
    "notation.visitor",
    "notation.writer",
    "notation",
    "notation.checking.every_defect",
    "notation.checking.canonical_form",
    "notation.formats.annotate",
    "notation.collections.generate",
    "notation.collections.referee",
    "notation.games",
    "notation.editing.completions",
    "notation.editing.places",
    "notation.editing.buffer",
    "notation.editing.fix_holds",
    "notation.games.view",
    "notation.games.grammar",
    "notation.files.console",
    "notation.render.plain_text",
)

#: A line of a docstring that starts an example.
_EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS, report=True, verbose=False
    )
    assert attempted > 0, f"{name} has no >>> examples: take it off MODULES"
    assert failures == 0, f"{failures} of {attempted} examples of {name} failed (see above)"


def test_every_module_with_examples_is_listed() -> None:
    found = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in PACKAGE.rglob("*.py")
        if _EXAMPLE.search(path.read_text(encoding="utf-8"))
    }
    assert sorted(found - set(MODULES)) == []
