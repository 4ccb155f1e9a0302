"""Rewrite the `$ notation show ...` captures in docs/viewing.md and README.md.

Each fenced block whose first line is `$ notation show ARGS` gets the output of
that command, as tests/test_show.py expects.  Run from the repository root after a
change to what `show` prints:  python3 tests/refresh_captures.py
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from notation.cli import cli

SHOWN = re.compile(r"^```\n\$ notation show ([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def refresh(path: Path) -> int:
    text = path.read_text(encoding="utf-8")

    def run(match: re.Match[str]) -> str:
        args = match.group(1)
        result = CliRunner().invoke(cli, ["show", *shlex.split(args)])
        return f"```\n$ notation show {args}\n{result.stdout}```"

    new, count = SHOWN.subn(run, text)
    path.write_text(new, encoding="utf-8")
    return count


if __name__ == "__main__":
    for name in ("docs/viewing.md", "README.md"):
        print(f"{name}: {refresh(Path(name))} captures")
