"""Make the screenshots of `notation replay` in docs/img: each game at 80x24 and 160x50.

Run from the repository root after a change to the terminal app:

    python docs/make_terminal_shots.py

It writes docs/img/replay-<game>-80x24.svg and docs/img/replay-<game>-160x50.svg,
Textual's own SVG screenshots of the app run headless (no terminal needed).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy

from notation.tui.shots import make_app, screenshot  # noqa: E402

#: Per game: the record file, the record and the turn shown (a position with
#: something on the board: stacks, a hidden piece and a team, zombies and pawns).
SHOTS = {
    "tinkertown": ("records/tinkertown/examples.ugn", 2, 57),
    "cave": ("records/cave/examples.ugn", 1, 20),
    "zombie-kidz": ("records/zombie-kidz/examples.ugn", 2, 12),
}
SIZES = ((80, 24), (160, 50))


def main() -> None:
    folder = ROOT / "docs" / "img"
    folder.mkdir(parents=True, exist_ok=True)
    for game, (path, record, turn) in SHOTS.items():
        for width, height in SIZES:
            app = make_app(Path(path), record=record, turn=turn)
            svg = screenshot(app, (width, height), title=f"notation replay {path}")
            target = folder / f"replay-{game}-{width}x{height}.svg"
            target.write_text(svg, encoding="utf-8")
            print(f"{target.relative_to(ROOT)}: {len(svg)} bytes")


if __name__ == "__main__":
    import os

    os.chdir(ROOT)  # the record paths above are relative to the repository
    main()
