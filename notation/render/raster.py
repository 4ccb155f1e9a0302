"""Pictures as PNG and games as animated GIF, from the SVG of :mod:`notation.render.svg`.

Optional: the ``png`` extra (``pip install 'undead-notation[png]'``) brings
resvg-py, which renders SVG with resvg (a Rust library inside the wheel: no
system library, no browser), and Pillow, which assembles the frames of a GIF.
Without it, :func:`require` raises :class:`RasterUnavailable`, whose message
says how to install it.

Text is drawn with the fonts of the system (the picture asks for DejaVu Sans,
then Verdana, Arial, any sans-serif): without any font installed, a PNG has no
text, which the SVG would have.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from notation.errors import NotationException
from notation.record import Record
from notation.render.record_svg import last_move_arrow
from notation.render.svg import DEFAULT_SIZE, board_svg
from notation.stepper import Stepper

__all__ = [
    "INSTALL_HINT",
    "RasterUnavailable",
    "available",
    "gif_frames",
    "record_gif",
    "require",
    "svg_to_png",
]

INSTALL_HINT = "pip install 'undead-notation[png]'"
#: How long each frame of a GIF stays, in milliseconds, unless told otherwise.
DEFAULT_DELAY = 800


class RasterUnavailable(NotationException, RuntimeError):
    """PNG or GIF asked for without the ``png`` extra installed."""


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def available() -> bool:
    """Whether PNG and GIF output can be made here (the ``png`` extra is installed)."""
    return _module("resvg_py") is not None and _module("PIL.Image") is not None


def require() -> tuple[Any, Any]:
    """(resvg_py, PIL.Image), or :class:`RasterUnavailable` saying how to install them."""
    resvg, image = _module("resvg_py"), _module("PIL.Image")
    if resvg is None or image is None:
        missing = " and ".join(
            name for name, found in (("resvg-py", resvg), ("Pillow", image)) if found is None
        )
        raise RasterUnavailable(f"PNG and GIF need {missing}, in the png extra: {INSTALL_HINT}")
    return resvg, image


def svg_to_png(svg: str, *, zoom: float = 1.0) -> bytes:
    """``svg`` as PNG bytes, ``zoom`` times its own size (2 for a sharp picture on a
    high-density screen)."""
    resvg, _ = require()
    return bytes(resvg.svg_to_bytes(svg_string=svg, zoom=zoom))


def gif_frames(svgs: Iterable[str], *, delay: int = DEFAULT_DELAY, zoom: float = 1.0) -> bytes:
    """An animated GIF, one frame per SVG, each shown ``delay`` ms, looping; frames of
    different heights (a caption of more lines) are put on the size of the largest,
    their top left corners together, on the picture's paper colour.  The frames are
    held as RGB while they are made: about 1 MB each at the default size."""
    _, image = require()
    pictures: list[Any] = []
    for svg in svgs:
        with image.open(io.BytesIO(svg_to_png(svg, zoom=zoom))) as picture:
            pictures.append(picture.convert("RGB"))
    if not pictures:
        raise ValueError("a GIF needs at least one frame")
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    paper = pictures[0].getpixel((pictures[0].width // 2, 1))
    # One palette for every frame, so the GIF stores of each only the box that changed;
    # sampled all through the game, so a colour that shows up late has its own entry.
    sample = pictures[:: max(1, len(pictures) // 8)] + pictures[-1:]
    sheet = image.new("RGB", (width, height * len(sample)), paper)
    for index, picture in enumerate(sample):
        sheet.paste(picture, (0, index * height))
    palette = sheet.quantize(colors=255)
    sized = [
        _canvas(image, p, width, height, paper).quantize(palette=palette, dither=0)
        for p in pictures
    ]
    out = io.BytesIO()
    sized[0].save(
        out, format="GIF", save_all=True, append_images=sized[1:], duration=delay, loop=0,
        optimize=False, disposal=1,
    )
    return out.getvalue()


def _canvas(image: Any, picture: Any, width: int, height: int, paper: Any) -> Any:
    """``picture`` on a ``width`` x ``height`` canvas of ``paper``, at its top left."""
    if picture.size == (width, height):
        return picture
    canvas = image.new("RGB", (width, height), paper)
    canvas.paste(picture, (0, 0))
    return canvas


def record_gif(
    record: Record,
    game: str | None = None,
    turn: int | None = None,
    *,
    size: float = DEFAULT_SIZE,
    delay: int = DEFAULT_DELAY,
) -> tuple[bytes, Stepper]:
    """A GIF of ``record``'s main line, one frame per turn from its start to ``turn``
    (default: its end, or its first bad move), each with the last move drawn and its
    caption; and the stepper, where the frames stopped (its ``error`` says why, for a
    broken record)."""
    stepper = Stepper(record, default_game=game)
    event = record.tag("Event") or f"Record {record.index}"

    def frames() -> Iterable[str]:
        while True:
            view = stepper.cursor.position.board_view()
            yield board_svg(
                view, size=size, facts=False, title=f"{event}, after turn {stepper.cursor.turn}",
                arrow=last_move_arrow(stepper, view.marks),
            )
            if (turn is not None and stepper.cursor.turn >= turn) or not stepper.forward():
                return

    return gif_frames(frames(), delay=delay), stepper
