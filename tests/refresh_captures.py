"""Rewrite the command captures in docs/viewing.md and README.md.

Each fenced block whose first line is `$ notation show ARGS` gets the output of
that command, as tests/test_show.py expects; each block whose first line is
`$ notation annotate ARGS | sed -n A,Bp` gets those lines of that command's output,
as tests/test_docs.py expects.  Run from the repository root after a
change to what `show` prints:  python3 tests/refresh_captures.py
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from notation.cli import cli

SHOWN = re.compile(r"^```\n\$ notation show ([^\n]*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
ANNOTATED = re.compile(
    r"^```\n\$ notation annotate ([^|\n]*) \| sed -n (\d+),(\d+)p\n(.*?)^```",
    re.MULTILINE | re.DOTALL,
)


def annotate_lines(args: str, first: int, last: int) -> str:
    """Lines first..last (1-based) of `notation annotate ARGS`."""
    result = CliRunner().invoke(cli, ["annotate", *shlex.split(args)])
    lines = result.stdout.splitlines(keepends=True)
    return "".join(lines[first - 1 : last])


def refresh(path: Path) -> int:
    text = path.read_text(encoding="utf-8")

    def run(match: re.Match[str]) -> str:
        args = match.group(1)
        result = CliRunner().invoke(cli, ["show", *shlex.split(args)])
        return f"```\n$ notation show {args}\n{result.stdout}```"

    def annotate(match: re.Match[str]) -> str:
        args, first, last = match.group(1), int(match.group(2)), int(match.group(3))
        excerpt = annotate_lines(args, first, last)
        return f"```\n$ notation annotate {args} | sed -n {first},{last}p\n{excerpt}```"

    new, count = SHOWN.subn(run, text)
    new, more = ANNOTATED.subn(annotate, new)
    path.write_text(new, encoding="utf-8")
    return count + more


if __name__ == "__main__":
    for name in ("docs/viewing.md", "README.md"):
        print(f"{name}: {refresh(Path(name))} captures")
