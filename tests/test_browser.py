"""The HTML viewer in a real headless Chromium, driven by selenium.

Needs selenium (the test extras) and the system's Chromium with its driver
(``apt-get install chromium chromium-driver``; ``.ci/run`` installs them).  The
tests skip, saying which is missing, where they are not there.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.reader import read_file, read_string
from notation.render.html import page_html, record_data
from notation.render.svg import board_svg
from notation.stepper import Stepper
from notation.view import BoardView, Cell, Token

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install '.[test]')"
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
CONFORMANCE = Path(__file__).resolve().parent / "data" / "conformance"

DRIVER = shutil.which("chromedriver")
BROWSER = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
if DRIVER is None:
    pytest.skip(
        "no chromedriver on PATH: install the system's chromium-driver package "
        "(apt-get install chromium chromium-driver; .ci/run does it)",
        allow_module_level=True,
    )
if BROWSER is None:
    pytest.skip(
        "no chromium on PATH: install the system's chromium package "
        "(apt-get install chromium chromium-driver; .ci/run does it)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--window-size=1280,900",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def open_page(browser: Any, tmp_path: Path, records: list[Any], default: str | None = None) -> Any:
    path = tmp_path / "viewer.html"
    path.write_text(
        page_html([record_data(r, default).data for r in records], "test"), encoding="utf-8"
    )
    browser.get(path.as_uri())
    return browser.find_element(By.TAG_NAME, "body")


def board(browser: Any) -> Any:
    return browser.find_element(By.ID, "board")


def turn(browser: Any) -> int:
    return int(board(browser).get_attribute("data-turn"))


def text(browser: Any, element_id: str) -> str:
    return str(browser.find_element(By.ID, element_id).text)


def press(body: Any, *keys: str) -> None:
    for key in keys:
        body.send_keys(key)


def drawn_tokens(browser: Any) -> dict[str, list[str]]:
    """Square -> the roles of the tokens the page draws there, bottom to top."""
    out: dict[str, list[str]] = {}
    for stack in browser.find_elements(By.CSS_SELECTOR, "#board g.stack"):
        tokens = stack.find_elements(By.CSS_SELECTOR, "g.token")
        out[stack.get_attribute("data-square")] = [t.get_attribute("data-role") for t in tokens]
    return out


def view_tokens(view: BoardView) -> dict[str, list[str]]:
    return {sq: [t.role for t in c.tokens] for sq, c in view.cells.items() if c.tokens}


def test_keys_and_clicks_step_through_a_record(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "examples.txt")))
    body = open_page(browser, tmp_path, [record])
    stepper = Stepper(record)
    assert turn(browser) == 0 and text(browser, "current-move") == "start"
    assert drawn_tokens(browser) == {}

    press(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    stepper.goto_turn(3)
    assert turn(browser) == 3
    assert text(browser, "current-move") == record.moves[2].written
    assert drawn_tokens(browser) == view_tokens(stepper.position.board_view())
    marks = browser.find_elements(By.CSS_SELECTOR, "#board rect.mark")
    assert {m.get_attribute("data-square") for m in marks} == set(
        stepper.position.board_view().marks
    )
    current = browser.find_element(By.CSS_SELECTOR, "#moves button.current")
    assert current.get_attribute("data-index") == "3"

    press(body, Keys.END)
    assert turn(browser) == len(record.moves)
    press(body, Keys.HOME)
    assert turn(browser) == 0
    press(body, Keys.ARROW_LEFT)  # nothing before the start
    assert turn(browser) == 0

    browser.find_element(By.CSS_SELECTOR, "#moves button[data-index='21']").click()
    stepper.goto_turn(21)
    assert turn(browser) == 21
    assert text(browser, "current-move") == record.moves[20].written
    assert drawn_tokens(browser) == view_tokens(stepper.position.board_view())
    (comment,) = record.moves[20].comments_after
    assert " ".join(comment.text.split()) in text(browser, "comments")

    shot = tmp_path / "viewer.png"
    browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    print(f"screenshot of the viewer: {shot}")


def test_variations_are_entered_and_left(browser: Any, tmp_path: Path) -> None:
    path = CONFORMANCE / "tinkertown-valid.txt"
    record = next(r for r in read_file(path) if any(n.variations for n in r.moves))
    body = open_page(browser, tmp_path, [record], "tinkertown")
    index, node = next((i, n) for i, n in enumerate(record.moves, 1) if n.variations)
    browser.find_element(By.CSS_SELECTOR, f"#moves button[data-index='{index}']").click()
    assert turn(browser) == index
    options = browser.find_elements(By.CSS_SELECTOR, "#variations button")
    assert len(options) == len(node.variations)

    press(body, Keys.ARROW_DOWN)
    assert board(browser).get_attribute("data-depth") == "1"
    assert turn(browser) == index  # the variation's move replaces turn `index`
    assert text(browser, "current-move") == node.variations[0].nodes[0].written
    assert f"variation 1 at turn {index}" in text(browser, "where")
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves button.move")
    assert len(moves) == len(node.variations[0].nodes)

    press(body, Keys.ESCAPE)
    assert board(browser).get_attribute("data-depth") == "0"
    assert turn(browser) == index and text(browser, "current-move") == node.written
    assert "main line" in text(browser, "where")

    options = browser.find_elements(By.CSS_SELECTOR, "#variations button")
    options[-1].click()
    assert board(browser).get_attribute("data-depth") == "1"
    assert f"variation {len(options)} at turn {index}" in text(browser, "where")
    browser.find_element(By.ID, "btn-leave").click()
    assert board(browser).get_attribute("data-depth") == "0"


def test_a_broken_record_stops_at_its_bad_move(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "broken.txt")))
    body = open_page(browser, tmp_path, [record])
    assert "c9 is not a square" in text(browser, "record-error")
    press(body, Keys.END)
    assert turn(browser) == 33
    assert "c9 is not a square" in text(browser, "move-error")
    press(body, Keys.ARROW_LEFT)
    assert turn(browser) == 32 and not browser.find_element(By.ID, "move-error").is_displayed()


def test_a_record_without_a_game_shows_its_error_only(browser: Any, tmp_path: Path) -> None:
    records = read_string("b1 c5 *\n\n" + '[Game "cave"]\n\nb1 c5 *\n')
    body = open_page(browser, tmp_path, records)
    assert "no Game tag" in text(browser, "record-error")
    assert board(browser).get_attribute("data-turn") == ""
    press(body, Keys.ARROW_RIGHT)
    assert board(browser).get_attribute("data-turn") == ""
    assert browser.find_element(By.ID, "btn-next").get_attribute("disabled") is not None
    Select(browser.find_element(By.ID, "record-select")).select_by_index(1)
    body.click()
    press(body, Keys.ARROW_RIGHT)
    assert turn(browser) == 1 and not browser.find_element(By.ID, "record-error").is_displayed()


def test_the_record_chooser_switches_records(browser: Any, tmp_path: Path) -> None:
    records = list(read_file(RECORDS / "zombie-kidz" / "examples.txt"))
    body = open_page(browser, tmp_path, records)
    press(body, Keys.END)
    assert turn(browser) == len(records[0].moves)
    Select(browser.find_element(By.ID, "record-select")).select_by_index(1)
    assert board(browser).get_attribute("data-record") == "2" and turn(browser) == 0
    assert text(browser, "title").startswith(records[1].tag("Event") or "")
    body.click()
    press(body, Keys.END)
    assert turn(browser) == len(records[1].moves)


def sample_views() -> list[BoardView]:
    views = []
    for game in ("tinkertown", "cave", "zombie-kidz"):
        stepper = Stepper(next(iter(read_file(RECORDS / game / "examples.txt"))))
        stepper.goto_turn(14)
        views.append(stepper.position.board_view())
    w, r = Token("white", "W"), Token("red", "R")
    views.append(BoardView(
        files=("a", "b", "c", "d"), ranks=("1", "2", "3", "4"),
        cells={"b2": Cell("b2", "g", (w, r) * 9, "<2>"), "a1": Cell("a1", "off")},
        palette={"g": "#123", "white": "#f4f4f0"},
        marks=("b2", "b2", "z9"), facts=(("Ünïcode ✓", 'a "quoted" & <b>'),),
        caption="a caption long enough to wrap over several lines " * 3
        + "\n second\r\nthird\ttab\u00a0nbsp\x1cfs \U0001f9df zombie",
    ))
    return views


def test_the_page_draws_what_notation_diagram_draws(browser: Any, tmp_path: Path) -> None:
    open_page(browser, tmp_path, read_string('[Game "cave"]\n\nb1 *\n'))
    for view in sample_views():
        for size, title in ((480, "t & <t>"), (333.3, "other")):
            drawn = browser.execute_script(
                "return window.notationViewer.drawBoard(arguments[0], "
                "{size: arguments[1], title: arguments[2]});",
                view.to_dict(), size, title,
            )
            assert drawn == board_svg(view, size=size, title=title)
