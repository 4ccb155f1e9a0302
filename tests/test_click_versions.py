"""The commands work with every click the package accepts (``click>=8.1``).

``click.Choice`` is a generic class only from click 8.2, ``click.Path`` only from 8.5;
a ``class X(click.Path[str])`` at run time is a TypeError on an older click, which made
every command that takes a file end in a traceback.  Here the subscription is made to
fail as an old click makes it fail, and the commands must still run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OLD_CLICK = """
import sys
import click


def not_generic(cls, item):
    raise TypeError(f"{cls} is not a generic class")


for name in ("Path", "Choice"):
    setattr(getattr(click, name), "__class_getitem__", classmethod(not_generic))
sys.argv = ["notation", *sys.argv[1:]]
from notation.cli import main

main()
"""


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", OLD_CLICK, *args], input=stdin, capture_output=True,
        text=True, cwd=ROOT, timeout=120,
    )


def test_convert_and_show_run_on_a_click_whose_types_are_not_generic() -> None:
    examples = ROOT / "records" / "tinkertown" / "examples.ugn"
    converted = run("convert", "--to", "text", str(examples))
    assert converted.returncode == 0, converted.stderr
    assert converted.stdout.startswith('[Game "tinkertown"]')
    shown = run("show", "-", "--record", "2", stdin=examples.read_text(encoding="utf-8"))
    assert shown.returncode == 0, shown.stderr
    assert "Traceback" not in shown.stderr
    assert "Example 2" in shown.stdout
    games = run("check", "--game", "Cemetery", str(examples))
    assert games.returncode == 0, games.stderr
