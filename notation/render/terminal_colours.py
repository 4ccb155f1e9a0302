"""Colours on a terminal: which ink reads on a cell, and cell colours told apart.

:func:`ink_on` is black or white, whichever contrasts more with a background
(:func:`contrast_ratio`, WCAG's); :func:`terminal_palette` moves the cell colours of a
palette that a 256-colour terminal would draw the same until each is told apart.
:mod:`notation.render.terminal` draws boards with them.

>>> from notation.render.terminal_colours import contrast_ratio, ink_on
>>> round(contrast_ratio("#000000", "#ffffff"), 1), ink_on("#202020")
(21.0, '#ffffff')
"""

from __future__ import annotations

import colorsys
import functools
from collections.abc import Iterable, Iterator, Mapping

from rich.color import Color, ColorParseError, ColorSystem

from notation.render.palette import contrast

__all__ = ["BLACK_INK", "WHITE_INK", "contrast_ratio", "ink_on", "terminal_palette"]

BLACK_INK = "#000000"
WHITE_INK = "#ffffff"


def _rgb(colour: str) -> tuple[float, float, float] | None:
    """A colour as three numbers from 0 to 1 (None: not a colour rich knows)."""
    try:
        triplet = Color.parse(colour).get_truecolor()
    except ColorParseError:
        return None
    return triplet.red / 255, triplet.green / 255, triplet.blue / 255


@functools.lru_cache(maxsize=1024)
def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21; AA text needs 4.5)."""
    a, b = _rgb(first), _rgb(second)
    return 1.0 if a is None or b is None else contrast(_hex(a), _hex(b))


@functools.lru_cache(maxsize=1024)
def ink_on(background: str) -> str:
    """Black or white, whichever reads better on ``background``.

    One of the two always reaches 4.58:1 (the worst case is a background of
    luminance 0.18), so text in this ink passes WCAG AA on any colour.
    """
    if contrast_ratio(background, BLACK_INK) >= contrast_ratio(background, WHITE_INK):
        return BLACK_INK
    return WHITE_INK


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in rgb)


def _eight_bit(colour: str) -> str:
    """What a 256-colour terminal shows for ``colour``."""
    downgraded = Color.parse(colour).downgrade(ColorSystem.EIGHT_BIT)
    return downgraded.get_truecolor().hex


def _distance(first: str, second: str) -> float:
    """How far apart two colours look ("redmean", a cheap perceptual distance, 0-765)."""
    a, b = _rgb(first), _rgb(second)
    if a is None or b is None:
        return 0.0
    r1, g1, b1 = (c * 255 for c in a)
    r2, g2, b2 = (c * 255 for c in b)
    mean = (r1 + r2) / 2
    dr, dg, db = r1 - r2, g1 - g2, b1 - b2
    return float(
        ((2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db) ** 0.5
    )


#: Two cell colours closer than this (redmean) look the same on a board.
DISTINCT = 40.0


def _variants(colour: str) -> Iterator[str]:
    """``colour``, then ever more saturated, then lighter and darker versions of it."""
    rgb = _rgb(colour)
    if rgb is None:
        yield colour
        return
    hue, light, saturation = colorsys.rgb_to_hls(*rgb)
    yield colour
    for step in range(1, 9):
        yield _hex(colorsys.hls_to_rgb(hue, light, min(1.0, saturation + 0.08 * step)))
    for step in range(1, 5):
        for sign in (1, -1):
            shifted = min(1.0, max(0.0, light + sign * 0.07 * step))
            yield _hex(colorsys.hls_to_rgb(hue, shifted, saturation))


def terminal_palette(palette: Mapping[str, str], roles: Iterable[str]) -> dict[str, str]:
    """See :func:`_terminal_palette` (the same palette and roles give the same answer,
    so it is worked out once)."""
    return dict(_terminal_palette(tuple(palette.items()), tuple(roles)))


@functools.lru_cache(maxsize=64)
def _terminal_palette(
    items: tuple[tuple[str, str], ...], roles: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    return tuple(_told_apart(dict(items), roles).items())


def _told_apart(palette: Mapping[str, str], roles: Iterable[str]) -> dict[str, str]:
    """``palette`` with the cell colours of ``roles`` (commonest first) told apart: a
    role that looks like one taken before it (in true colour or in 256 colours) gets
    the first of its more saturated (or lighter, darker) variants that looks different."""
    out = dict(palette)
    taken: list[str] = []
    for role in roles:
        colour = palette.get(role)
        if not colour or _rgb(colour) is None:
            continue
        for candidate in _variants(colour):
            if all(
                _distance(candidate, other) >= DISTINCT
                and _distance(_eight_bit(candidate), _eight_bit(other)) >= DISTINCT
                for other in taken
            ):
                out[role] = candidate
                break
        taken.append(out[role])
    return out
