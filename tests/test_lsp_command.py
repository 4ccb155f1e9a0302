"""``notation lsp`` is an extra: without pygls the command says how to install it and
exits 2, and nothing else of the toolkit (the library, ``check``, ``--help``, the
language server's own library modules) ever imports pygls.  Each case runs in a process
of its own, looking at the modules it imported (as tests/test_startup_imports.py does);
none needs pygls installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

#: The protocol's packages: never imported but by ``notation lsp``.
PROTOCOL = ("pygls", "lsprotocol", "cattrs", "notation.lsp")

#: Run in the child: pygls made impossible to import (as if not installed), then the
#: command line with the arguments given.
WITHOUT_PYGLS = """
import sys
sys.modules["pygls"] = None
sys.modules["lsprotocol"] = None
sys.argv = ["notation", *sys.argv[1:]]
from notation.cli import main
main()
"""

#: Run in the child: the code given, then the names of the modules imported, a line each.
PROBE = """
import sys
exec(sys.argv[1])
print("\\n".join(sorted(sys.modules)))
"""


def _run(code: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=ENV,
        input=stdin, timeout=120, check=False,
    )


def _imported(code: str) -> set[str]:
    done = _run(PROBE, code)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split("\n"))


def test_without_pygls_the_command_says_how_to_install_it() -> None:
    done = _run(WITHOUT_PYGLS, "lsp", stdin="")
    assert done.returncode == 2
    assert "pip install 'undead-notation[lsp]'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_command_is_listed_without_pygls() -> None:
    done = _run(WITHOUT_PYGLS, "--help")
    assert done.returncode == 0 and "lsp" in done.stdout
    done = _run(WITHOUT_PYGLS, "lsp", "--help")
    assert done.returncode == 0 and "language server" in done.stdout


@pytest.mark.parametrize(
    "code",
    [
        "import notation",
        "import notation.editing.buffer, notation.editing.places, "
        "notation.editing.completions, notation.editing.fix_holds, notation.render.plain_text",
        "import notation.commands.lsp",
    ],
    ids=["notation", "library", "command-module"],
)
def test_the_library_never_imports_pygls(code: str) -> None:
    imported = _imported(code)
    assert not {name for name in imported if name.split(".")[0] in PROTOCOL}
    assert not {name for name in imported if name.startswith("notation.lsp")}


def test_check_and_help_never_import_pygls(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Game "cave"]\n\n1. b1 b5 *\n', encoding="utf-8")
    for args in (["check", str(path)], ["check", "--all", str(path)], ["--help"]):
        code = (
            "import sys\nfrom notation.cli import main\n"
            f"sys.argv = ['notation', *{args!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
        )
        imported = _imported(code)
        assert not {n for n in imported if n.split(".")[0] in PROTOCOL or
                    n.startswith("notation.lsp")}, args
