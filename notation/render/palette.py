"""Colours that read: WCAG contrast, the ink for text on a fill, and the page themes.

Text on a game's fill is written in whichever of :data:`INK` and white contrasts more
(:func:`ink_on`), and a fill on which neither reaches WCAG AA (4.5:1) is nudged towards
black or white, 5% at a time, until the better ink does (:func:`readable`: a red
``#d63a2f`` becomes ``#ca372c``).  Exact integer steps on ``#rrggbb``, done the same way
by ``viewer.js``.  :data:`THEMES`: the colours around the board, light and dark.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from typing import Final

__all__ = [
    "AA",
    "INK",
    "THEMES",
    "WHITE",
    "contrast",
    "ink_on",
    "luminance",
    "readable",
]

#: WCAG 2 AA: the least contrast for normal text.
AA: Final = 4.5
#: The dark ink of text and strokes (a warm near-black).
INK: Final = "#2b2622"
WHITE: Final = "#ffffff"

_RGB = re.compile("#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")
#: How far :func:`readable` moves a fill at each step, towards black or white.
_STEPS: Final = 20


def _channels(colour: str) -> tuple[int, int, int] | None:
    found = _RGB.fullmatch(colour)
    if found is None:
        return None
    r, g, b = (int(part, 16) for part in found.groups())
    return r, g, b


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The WCAG relative luminance of ``#rrggbb`` (0 black, 1 white); 0 for anything else."""
    rgb = _channels(colour)
    if rgb is None:
        return 0.0
    r, g, b = rgb
    return 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours, from 1 to 21."""
    la, lb = luminance(a), luminance(b)
    light, dark = max(la, lb), min(la, lb)
    return (light + 0.05) / (dark + 0.05)


@functools.lru_cache(maxsize=1024)
def ink_on(fill: str) -> str:
    """:data:`INK` or white, whichever contrasts more with ``fill`` (INK for a fill
    that is not ``#rrggbb``, which cannot be measured)."""
    if _channels(fill) is None:
        return INK
    return INK if contrast(fill, INK) >= contrast(fill, WHITE) else WHITE


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


@functools.lru_cache(maxsize=1024)
def readable(fill: str, ratio: float = AA) -> str:
    """``fill``, or the nearest colour towards black or white on which its ink
    (:func:`ink_on`) reaches ``ratio``; a fill already readable, or not
    ``#rrggbb``, is returned as it is."""
    rgb = _channels(fill)
    if rgb is None:
        return fill
    ink = ink_on(fill)
    if contrast(fill, ink) >= ratio:
        return fill
    # Away from the ink: darker under white text, lighter under dark text.  Channels
    # are rounded half up (floor(x + 0.5)), as JavaScript's Math.round does.
    towards = 0 if ink == WHITE else 255
    for step in range(1, _STEPS + 1):
        t = step / _STEPS
        moved = tuple(math.floor(c + (towards - c) * t + 0.5) for c in rgb)
        candidate = _hex((moved[0], moved[1], moved[2]))
        if contrast(candidate, ink) >= ratio:
            return candidate
    return _hex((towards, towards, towards))  # not reached: black or white always reads


#: The colours around the board, for the page and the picture, in both themes:
#: ``paper`` the picture's background, ``ink`` its main text, ``muted`` coordinates
#: and facts, ``page`` the page behind it, ``panel`` the boxes of the move list and
#: comments, ``line`` their borders, ``accent`` the current move's background (with
#: ``accent-ink`` on it), ``mark`` the last move's outline and arrow, ``link`` a
#: link's text, ``bad`` errors (on ``bad-bg``).
THEMES: Final[Mapping[str, Mapping[str, str]]] = {
    "light": {
        "page": "#f1ede4",
        "paper": "#fbf8f1",
        "panel": "#fbf8f1",
        "ink": INK,
        "muted": "#5f574e",
        "line": "#cfc6b6",
        "accent": "#f2c14e",
        "accent-ink": "#1a1613",
        "mark": "#e0a100",
        "link": "#2457a6",
        "bad": "#a3221b",
        "bad-bg": "#fbe9e7",
    },
    "dark": {
        "page": "#16171a",
        "paper": "#22242a",
        "panel": "#1d1f24",
        "ink": "#ece7dd",
        "muted": "#b5ada1",
        "line": "#454851",
        "accent": "#f2c14e",
        "accent-ink": "#1a1613",
        "mark": "#ffc233",
        "link": "#8ab4f8",
        "bad": "#ff8a80",
        "bad-bg": "#3a1f1d",
    },
}
