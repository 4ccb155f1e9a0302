"""Screenshots of the HTML viewer, one per game, on a desktop and on a phone.

    .venv/bin/python docs/make_html_shots.py [OUT_DIR]      (default: docs/img)

Writes ``html-<game>-desktop.png`` (1280 x 800) and ``html-<game>-phone.png``
(400 x 800) for each game, from the bundled example records, at a position
chosen to show the last move, comments and variations.  Needs selenium (the
test extras) and the system's Chromium with its driver (``apt-get install
chromium chromium-driver``).  The page is opened at a deep link
(``#record=N&turn=T``), as a reader following a link would see it.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notation.reader import read_file  # noqa: E402
from notation.render.html import page_html, record_data  # noqa: E402

#: (game, record, turn): the position each screenshot shows.
SHOTS = (
    ("tinkertown", 2, 57),
    ("cave", 3, 38),
    ("zombie-kidz", 1, 12),
)
#: Window sizes (CSS pixels): a desktop and a phone.
SIZES = {"desktop": (1280, 800), "phone": (400, 800)}


def _driver(width: int, height: int) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver")
    browser = next(
        (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))),
        None,
    )
    if driver_path is None or browser is None:
        raise SystemExit(
            "needs chromium and chromedriver (apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--hide-scrollbars", "--force-device-scale-factor=1", f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


def _at_turn(turn: int) -> Any:
    """A condition for WebDriverWait: the page shows the position after ``turn``."""
    from selenium.webdriver.common.by import By

    def check(driver: Any) -> bool:
        return bool(driver.find_element(By.ID, "board").get_attribute("data-turn") == str(turn))

    return check


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.support.ui import WebDriverWait

    with tempfile.TemporaryDirectory() as tmp:
        pages = {}
        for game, record, turn in SHOTS:
            records = list(read_file(ROOT / "records" / game / "examples.ugn"))
            page = Path(tmp) / f"{game}.html"
            page.write_text(
                page_html([record_data(r).data for r in records], f"{game} examples"),
                encoding="utf-8",
            )
            pages[game] = f"{page.as_uri()}#record={record}&turn={turn}"
        for kind, (width, height) in SIZES.items():
            driver = _driver(width, height)
            try:
                # The window's inner size is what the page sees: make it exact.
                driver.set_window_size(width, height)
                inner = driver.execute_script("return [window.innerWidth, window.innerHeight];")
                driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
                for game, _record, turn in SHOTS:
                    driver.get(pages[game])
                    WebDriverWait(driver, 10).until(_at_turn(turn))
                    target = out / f"html-{game}-{kind}.png"
                    driver.save_screenshot(str(target))
                    print(target)
            finally:
                driver.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
