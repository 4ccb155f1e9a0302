"""Build the HTML API reference of the ``notation`` package from its docstrings.

    python docs/build_api.py [OUTPUT]     # default: docs/api/ (not committed)

Uses pdoc (in the ``dev`` extra: ``pip install -e '.[dev]'``). CI builds it into a
temporary folder on every run (.ci/run), so a docstring pdoc cannot render or a module
that fails to import stops the build instead of leaving a stale reference.
"""

from __future__ import annotations

import argparse
import pkgutil
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "docs" / "api"


def module_names() -> list[str]:
    """``notation`` and every public module under it.

    Listed one by one because pdoc follows a package's ``__all__`` for its submodules,
    and ``notation.__all__`` names the facade's functions and classes, not modules.
    """
    import notation

    names = ["notation"]
    for info in pkgutil.walk_packages(notation.__path__, prefix="notation."):
        # private modules (and __main__, which runs the command line) are left out
        if info.name in LEFT_OUT:
            continue
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


#: Modules pdoc cannot document, each with why (nothing of the library's API is here).
LEFT_OUT = {
    # The language server's classes subclass pygls's server and protocol, whose own
    # annotations name modules of pygls's optional extras (websockets): pdoc cannot
    # read the members they inherit.  What the server does is in notation.lsp's page.
    "notation.lsp.state",
}


def build(output: Path) -> None:
    """Write the reference into ``output``; any pdoc warning is an error."""
    import pdoc.doc
    import pdoc.render

    pdoc.render.configure(
        docformat="restructuredtext",  # the docstrings use ``code`` and :class:`X` roles
        footer_text="undead-notation",
        search=True,
    )
    with warnings.catch_warnings():
        # pdoc reports a module it cannot import or a docstring it cannot render as a
        # warning and goes on; a reference built in CI must not silently lose a page.
        warnings.simplefilter("error")
        # What pdoc.pdoc() does, with the module list given rather than walked: its
        # walk would repeat the modules of a package given alongside its parent.
        modules = {name: pdoc.doc.Module.from_name(name) for name in module_names()}
        for module in modules.values():
            page = output / f"{module.fullname.replace('.', '/')}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(pdoc.render.html_module(module, modules), encoding="utf-8")
        (output / "index.html").write_text(pdoc.render.html_index(modules), encoding="utf-8")
        (output / "search.js").write_text(pdoc.render.search_index(modules), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Build the reference into the folder given, or docs/api/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "output", nargs="?", type=Path, default=DEFAULT_OUTPUT,
        help="folder to write the HTML into (default: docs/api/)",
    )
    args = parser.parse_args(argv)
    build(args.output)
    print(f"API reference written to {args.output / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
