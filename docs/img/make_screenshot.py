"""Draw a terminal's text, with its colours, as a PNG: how docs/img/editor-*.png were
made from a real Neovim (docs/editors.md, "How the screenshots were made").

    tmux capture-pane -e -p -t SESSION > pane.ansi
    python docs/img/make_screenshot.py pane.ansi docs/img/editor-diagnostics.png

Reads the SGR escape sequences tmux writes (colours of 8, 256 and 24-bit, bold,
underline, reverse) and draws each character in its cell with DejaVu Sans Mono (or the
font given with --font).  Needs Pillow (the ``png`` extra).  Not part of the package.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
FOREGROUND = (229, 229, 229)
BACKGROUND = (28, 28, 28)
#: The 16 colours of the terminal (xterm's).
BASIC = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
    (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]
SGR = re.compile(r"\x1b\[([0-9;:]*)m")

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    fg: Colour | None = None
    bg: Colour | None = None
    bold: bool = False
    underline: bool = False
    reverse: bool = False


def palette(index: int) -> Colour:
    """Colour ``index`` of the 256."""
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[index // 36], steps[index // 6 % 6], steps[index % 6]
    grey = 8 + (index - 232) * 10
    return grey, grey, grey


def styled(style: Style, codes: list[int]) -> Style:
    """``style`` after the SGR parameters ``codes``."""
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            style = Style()
        elif code == 1:
            style = replace(style, bold=True)
        elif code == 22:
            style = replace(style, bold=False)
        elif code == 4:
            style = replace(style, underline=True)
        elif code == 24:
            style = replace(style, underline=False)
        elif code == 7:
            style = replace(style, reverse=True)
        elif code == 27:
            style = replace(style, reverse=False)
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style = replace(style, fg=BASIC[code - 30 if code < 90 else code - 82])
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style = replace(style, bg=BASIC[code - 40 if code < 100 else code - 92])
        elif code == 39:
            style = replace(style, fg=None)
        elif code == 49:
            style = replace(style, bg=None)
        elif code in (38, 48, 58) and i + 1 < len(codes):
            if codes[i + 1] == 2 and i + 4 < len(codes):
                colour: Colour = (codes[i + 2], codes[i + 3], codes[i + 4])
                i += 4
            elif codes[i + 1] == 5 and i + 2 < len(codes):
                colour = palette(codes[i + 2])
                i += 2
            else:
                break
            if code == 38:
                style = replace(style, fg=colour)
            elif code == 48:
                style = replace(style, bg=colour)
        i += 1
    return style


def cells(text: str) -> list[list[tuple[str, Style]]]:
    """The rows of the pane: each character with its style."""
    rows = []
    style = Style()
    for line in text.rstrip("\n").split("\n"):
        row: list[tuple[str, Style]] = []
        at = 0
        for match in SGR.finditer(line):
            row += [(char, style) for char in line[at : match.start()]]
            codes = [int(part) if part else 0 for part in re.split("[;:]", match.group(1))]
            style = styled(style, codes or [0])
            at = match.end()
        row += [(char, style) for char in line[at:]]
        rows.append(row)
    return rows


def draw(rows: list[list[tuple[str, Style]]], width: int, font_path: str, size: int) -> Image.Image:
    regular = ImageFont.truetype(font_path, size)
    bold = ImageFont.truetype(BOLD if font_path == FONT else font_path, size)
    box = regular.getbbox("M")
    cell_w = round(regular.getlength("M"))
    cell_h = round(size * 1.3)
    image = Image.new("RGB", (cell_w * width + 16, cell_h * len(rows) + 16), BACKGROUND)
    pen = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        for x, (char, style) in enumerate(row[:width]):
            fg, bg = style.fg or FOREGROUND, style.bg or BACKGROUND
            if style.reverse:
                fg, bg = bg, fg
            left, top = 8 + x * cell_w, 8 + y * cell_h
            if bg != BACKGROUND:
                pen.rectangle([left, top, left + cell_w - 1, top + cell_h - 1], fill=bg)
            if char != " ":
                pen.text((left, top + (cell_h - box[3]) // 2), char, fill=fg,
                         font=bold if style.bold else regular)
            if style.underline:
                pen.line([left, top + cell_h - 2, left + cell_w, top + cell_h - 2], fill=fg)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pane", type=Path, help="what tmux capture-pane -e -p wrote")
    parser.add_argument("png", type=Path)
    parser.add_argument("--width", type=int, default=0, help="columns (default: widest row)")
    parser.add_argument("--font", default=FONT)
    parser.add_argument("--size", type=int, default=15)
    args = parser.parse_args()
    rows = cells(args.pane.read_text(encoding="utf-8"))
    width = args.width or max(len(row) for row in rows)
    draw(rows, width, args.font, args.size).save(args.png, optimize=True)


if __name__ == "__main__":
    main()
