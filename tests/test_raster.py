"""PNG pictures and GIF games (``notation diagram --format png|gif``), and the one-line
advice when the ``png`` extra is not installed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from notation.cli import cli
from notation.render import raster

RECORDS = Path(__file__).resolve().parent.parent / "records"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

needs_extra = pytest.mark.skipif(
    not raster.available(),
    reason="the png extra is not installed (pip install '.[png]': resvg-py and Pillow)",
)


def run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(cli, ["diagram", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout_bytes, result.stderr


def test_without_the_extra_png_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = raster._module
    monkeypatch.setattr(
        raster, "_module", lambda name: None if name == "resvg_py" else real(name)
    )
    path = str(RECORDS / "cave" / "examples.ugn")
    for args in (("--format", "png"), ("--format", "gif"), ("-o", "x.png")):
        code, stdout, stderr = run(path, *args)
        assert code == 2 and stdout == b""
        assert stderr.count("\n") == 1  # one line
        assert "pip install 'undead-notation[png]'" in stderr and "resvg-py" in stderr
    code, stdout, _ = run(path)  # SVG needs nothing
    assert code == 0 and stdout.startswith(b"<svg")


@needs_extra
def test_png_of_a_position(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "pos.png"
    code, _, _ = run(str(RECORDS / "cave" / "examples.ugn"), "--turn", "9", "-o", str(out))
    assert code == 0
    data = out.read_bytes()
    assert data.startswith(PNG_MAGIC)
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.width > 300 and picture.height > picture.width
        # The picture has its own light paper, drawn, not transparent.
        assert picture.convert("RGB").getpixel((3, picture.height // 2)) == (0xFB, 0xF8, 0xF1)
    path = str(RECORDS / "cave" / "examples.ugn")
    code, stdout, _ = run(path, "--format", "png", "--size", "200")
    assert code == 0 and stdout.startswith(PNG_MAGIC) and len(stdout) < len(data)


@needs_extra
def test_gif_of_a_game_has_a_frame_per_turn(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "game.gif"
    path = str(RECORDS / "zombie-kidz" / "examples.ugn")
    code, _, _ = run(path, "--size", "150", "--turn", "6", "--delay", "300", "-o", str(out))
    assert code == 0
    with Image.open(out) as gif:
        assert gif.n_frames == 7  # the start, then turns 1 to 6
        assert gif.info["duration"] == 300 and gif.info["loop"] == 0
    code, _, err = run(path, "--format", "gif", "--turn", "500", "-o", str(out))
    assert code == 2 and "ends at turn" in err


@needs_extra
def test_gif_of_a_broken_record_stops_at_its_bad_move(tmp_path: Path) -> None:
    from PIL import Image

    out = tmp_path / "broken.gif"
    code, _, err = run(str(RECORDS / "tinkertown" / "broken.ugn"), "--size", "120", "-o", str(out))
    assert code == 1 and "c9 is not a square" in err and "after turn 33" in err
    with Image.open(out) as gif:
        assert gif.n_frames == 34


@needs_extra
def test_frames_of_different_heights_make_one_size() -> None:
    from PIL import Image

    from notation.games.view import BoardView, Cell
    from notation.render.svg import board_svg

    view = BoardView(files=("a",), ranks=("1",), cells={"a1": Cell("a1", "x")}, palette={})
    short = board_svg(view, size=100)
    tall = board_svg(BoardView(
        files=("a",), ranks=("1",), cells={"a1": Cell("a1", "x")}, palette={},
        caption="a caption that wraps over several lines of the picture " * 3,
    ), size=100)
    with Image.open(io.BytesIO(raster.gif_frames([short, tall], delay=100))) as gif:
        assert gif.n_frames == 2
        sizes = set()
        for index in range(2):
            gif.seek(index)
            sizes.add(gif.size)
        assert len(sizes) == 1
    with pytest.raises(ValueError, match="at least one frame"):
        raster.gif_frames([])
