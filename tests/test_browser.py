"""The HTML viewer in a real headless Chromium, driven by selenium: every key of the
key table (docs/viewing.md), clicks, deep links, autoplay, both themes, a phone's
width, and the same pictures as ``notation diagram``.

Needs selenium (the test extras) and the system's Chromium with its driver
(``apt-get install chromium chromium-driver``; ``.ci/run`` installs them).  The
tests skip, saying which is missing, where they are not there.  They wait for
conditions (``WebDriverWait``), never for a fixed time.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.games.view import BoardView, Cell, Token
from notation.reader import read_file, read_string
from notation.record import Record
from notation.render.html import page_html, record_data
from notation.render.record_svg import last_move_arrow
from notation.render.svg import board_svg
from notation.stepper import Stepper

webdriver = pytest.importorskip(
    "selenium.webdriver", reason="selenium is not installed (pip install '.[test]')"
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

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

#: A record with nested variations and comments: the keys that go in and out of them.
VARIATIONS = (
    '[Game "cave"]\n[Event "Variations"]\n\n'
    "1. b1 {start} c5 (1... d5 {deep} 2. b1-b2 (2. a1 {inner}) 2... d5-d4) (1... a5) "
    "2. b1-b2 c5-c4 3. a1 {the end} *\n"
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


def open_page(
    browser: Any, tmp_path: Path, records: list[Record], default: str | None = None,
    hash: str = "",
) -> Any:
    path = tmp_path / "viewer.html"
    path.write_text(
        page_html([record_data(r, default).data for r in records], "test"), encoding="utf-8"
    )
    browser.get("about:blank")  # a new document, even when only the hash differs
    browser.get(path.as_uri() + hash)
    wait(browser, lambda: board(browser).get_attribute("data-position") is not None)
    return browser.find_element(By.TAG_NAME, "body")


def wait(browser: Any, condition: Callable[[], object], seconds: float = 5) -> None:
    WebDriverWait(browser, seconds).until(lambda _: condition())


def board(browser: Any) -> Any:
    return browser.find_element(By.ID, "board")


def turn(browser: Any) -> int:
    return int(board(browser).get_attribute("data-turn"))


def attr(browser: Any, name: str) -> str:
    return str(board(browser).get_attribute(name))


def text(browser: Any, element_id: str) -> str:
    return str(browser.find_element(By.ID, element_id).text)


def press(body: Any, *keys: str) -> None:
    for key in keys:
        body.send_keys(key)


def keys_to_focus(browser: Any, *keys: str) -> None:
    """Keys to whatever has the focus (as a person types), not to a chosen element."""
    chain = ActionChains(browser)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def drawn_tokens(browser: Any) -> dict[str, list[str]]:
    """Square -> the roles of the tokens the page draws there, bottom to top."""
    out: dict[str, list[str]] = {}
    for stack in browser.find_elements(By.CSS_SELECTOR, "#board g.stack"):
        tokens = stack.find_elements(By.CSS_SELECTOR, "g.token")
        out[stack.get_attribute("data-square")] = [t.get_attribute("data-role") for t in tokens]
    return out


def view_tokens(view: BoardView) -> dict[str, list[str]]:
    return {sq: [t.role for t in c.tokens] for sq, c in view.cells.items() if c.tokens}


def test_stepping_keys_and_clicks(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "examples.ugn")))
    body = open_page(browser, tmp_path, [record])
    stepper = Stepper(record)
    assert turn(browser) == 0 and text(browser, "current-move") == "start"
    assert drawn_tokens(browser) == {}
    size = board(browser).find_element(By.TAG_NAME, "svg").get_attribute("viewBox")

    press(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # Right
    stepper.goto_turn(3)
    assert turn(browser) == 3
    assert text(browser, "current-move") == record.moves[2].written
    view = stepper.cursor.position.board_view()
    assert drawn_tokens(browser) == view_tokens(view)
    marks = browser.find_elements(By.CSS_SELECTOR, "#board rect.mark")
    assert {m.get_attribute("data-square") for m in marks} == set(view.marks)
    assert text(browser, "caption") == view.caption
    assert "Turns played" in text(browser, "facts")
    current = browser.find_element(By.CSS_SELECTOR, "#moves button.current")
    assert current.get_attribute("data-path") == "3"
    assert current.get_attribute("title") == view.caption  # the move's tooltip

    press(body, Keys.ARROW_LEFT)  # Left
    assert turn(browser) == 2
    press(body, Keys.PAGE_DOWN)  # PgDn: ten forward
    assert turn(browser) == 12
    press(body, Keys.PAGE_UP, Keys.PAGE_UP)  # PgUp: ten back, not past the start
    assert turn(browser) == 0
    press(body, Keys.END)  # End
    assert turn(browser) == len(record.moves)
    press(body, Keys.PAGE_DOWN)  # nothing after the end
    assert turn(browser) == len(record.moves)
    press(body, Keys.HOME)  # Home
    assert turn(browser) == 0
    press(body, Keys.ARROW_LEFT)  # nothing before the start
    assert turn(browser) == 0

    browser.find_element(By.CSS_SELECTOR, "#moves button[data-path='21']").click()
    stepper.goto_turn(21)
    assert turn(browser) == 21
    assert text(browser, "current-move") == record.moves[20].written
    assert drawn_tokens(browser) == view_tokens(stepper.cursor.position.board_view())
    (comment,) = record.moves[20].comments_after
    assert " ".join(comment.text.split()) in text(browser, "comments")
    # The picture keeps its size from one position to the next.
    assert board(browser).find_element(By.TAG_NAME, "svg").get_attribute("viewBox") == size
    for button in ("btn-next", "btn-next", "btn-prev"):
        browser.find_element(By.ID, button).click()
    assert turn(browser) == 22
    browser.find_element(By.ID, "btn-end").click()
    assert turn(browser) == len(record.moves)
    browser.find_element(By.ID, "btn-start").click()
    assert turn(browser) == 0


def test_the_last_move_is_drawn_as_an_arrow_or_a_ring(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "cave" / "examples.ugn")))
    body = open_page(browser, tmp_path, [record])
    stepper = Stepper(record)
    press(body, Keys.ARROW_RIGHT)  # b1: an entry
    assert browser.find_elements(By.CSS_SELECTOR, "#board g.ring[data-square='b1']")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board g.arrow")
    press(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # b1-b2: a move
    stepper.goto_turn(3)
    view = stepper.cursor.position.board_view()
    (arrow,) = browser.find_elements(By.CSS_SELECTOR, "#board g.arrow")
    expected = last_move_arrow(stepper, view.marks)
    assert (arrow.get_attribute("data-from"), arrow.get_attribute("data-to")) == expected
    items = browser.find_elements(By.CSS_SELECTOR, "#legend li")
    legend = {item.get_attribute("data-kind") for item in items}
    assert {"cell", "token", "note", "arrow", "ring", "outline"} <= legend


def test_variation_keys_and_the_inline_move_list(browser: Any, tmp_path: Path) -> None:
    body = open_page(browser, tmp_path, read_string(VARIATIONS))
    # The move list shows the variations inline, nested, in parentheses.
    moves = browser.find_element(By.ID, "moves")
    assert "(1... d5" in moves.text.replace("\n", " ")
    assert moves.find_elements(By.CSS_SELECTOR, ".line .line button[data-path='2/1:2/1:1']")

    press(body, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)  # after 1... c5, which has variations
    assert len(browser.find_elements(By.CSS_SELECTOR, "#variations button")) == 2
    press(body, Keys.ARROW_DOWN)  # Down: into the first variation
    assert attr(browser, "data-depth") == "1" and turn(browser) == 2
    assert text(browser, "current-move") == "d5" and "deep" in text(browser, "comments")
    assert "variation 1 at turn 2" in text(browser, "where")
    press(body, Keys.ARROW_RIGHT)  # 2. b1-b2, which has a variation of its own
    press(body, "1")  # 1 to 9: into variation N
    assert attr(browser, "data-depth") == "2" and text(browser, "current-move") == "a1"
    assert attr(browser, "data-path") == "2/1:2/1:1"
    assert "variation 1 at turn 3, in variation 1 at turn 2" in text(browser, "where")
    press(body, Keys.ARROW_UP)  # Up: out, after the move it replaces
    assert attr(browser, "data-depth") == "1" and text(browser, "current-move") == "b1-b2"
    press(body, Keys.ESCAPE)  # Esc: out too
    assert attr(browser, "data-depth") == "0" and text(browser, "current-move") == "c5"
    press(body, "2")  # the second variation
    assert attr(browser, "data-depth") == "1" and text(browser, "current-move") == "a5"
    press(body, "7")  # no seventh variation: nothing happens
    assert attr(browser, "data-path") == "2/2:1"
    browser.find_element(By.ID, "btn-leave").click()
    assert attr(browser, "data-depth") == "0"
    # A click on a move inside a variation goes there, through the variations.
    moves.find_element(By.CSS_SELECTOR, "button[data-path='2/1:2/1:1']").click()
    assert attr(browser, "data-depth") == "2" and text(browser, "current-move") == "a1"
    assert "inner" in text(browser, "comments")


def test_go_to_a_turn_and_search(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "examples.ugn")))
    body = open_page(browser, tmp_path, [record])
    press(body, "g")  # g: go to a turn
    prompt = browser.find_element(By.ID, "prompt-input")
    wait(browser, lambda: browser.switch_to.active_element == prompt)
    prompt.send_keys("40", Keys.ENTER)
    assert turn(browser) == 40
    assert not browser.find_element(By.ID, "prompt").is_displayed()
    press(body, "g")
    prompt.send_keys("9999", Keys.ENTER)
    assert "no turn 9999" in text(browser, "prompt-note") and turn(browser) == 40
    prompt.send_keys(Keys.ESCAPE)
    assert not browser.find_element(By.ID, "prompt").is_displayed()

    press(body, "/")  # /: search a move or a comment
    wait(browser, lambda: browser.switch_to.active_element == prompt)
    (comment,) = record.moves[20].comments_after
    word = comment.text.split()[-1].strip(".,;:")
    prompt.send_keys(word, Keys.ENTER)
    found = turn(browser)
    node = record.moves[found - 1]
    texts = [node.text] + [c.text for c in node.comments_before + node.comments_after]
    assert any(word.lower() in t.lower() for t in texts)
    assert "match" in text(browser, "prompt-note")
    prompt.send_keys("zzz-nothing", Keys.ENTER)
    assert "no move or comment" in text(browser, "prompt-note")
    prompt.send_keys(Keys.ESCAPE)


def test_record_keys_and_the_chooser(browser: Any, tmp_path: Path) -> None:
    records = list(read_file(RECORDS / "zombie-kidz" / "examples.ugn"))[:3]
    body = open_page(browser, tmp_path, records)
    assert attr(browser, "data-position") == "1"
    press(body, "]")  # ]: next record
    assert attr(browser, "data-position") == "2" and turn(browser) == 0
    press(body, "n")  # n: next record
    assert attr(browser, "data-position") == "3"
    press(body, "n")  # no fourth record
    assert attr(browser, "data-position") == "3"
    press(body, "[")  # [: previous record
    assert attr(browser, "data-position") == "2"
    press(body, "p")  # p: previous record
    assert attr(browser, "data-position") == "1"
    assert text(browser, "title").startswith(records[0].tag("Event") or "")
    press(body, "l")  # l: the record list
    select = browser.find_element(By.ID, "record-select")
    assert browser.switch_to.active_element == select
    Select(select).select_by_index(1)
    assert attr(browser, "data-position") == "2"
    # After choosing a record, the arrow keys step through its moves.
    keys_to_focus(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert turn(browser) == 2 and attr(browser, "data-position") == "2"
    keys_to_focus(browser, Keys.END)
    assert turn(browser) == len(records[1].moves)


def test_help_quit_and_autoplay(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "zombie-kidz" / "examples.ugn")))
    body = open_page(browser, tmp_path, [record])
    help_box = browser.find_element(By.ID, "help")
    press(body, "?")  # ?: help
    assert help_box.is_displayed() and "PgDn" in help_box.text
    keys_to_focus(browser, "q")  # q: closes the help
    assert not help_box.is_displayed()
    press(body, "q")  # and is harmless otherwise
    assert turn(browser) == 0
    press(body, "?")
    keys_to_focus(browser, Keys.ESCAPE)
    assert not help_box.is_displayed()
    press(body, "?", "?")
    assert not help_box.is_displayed()

    browser.find_element(By.ID, "play-speed").send_keys("0.5")
    press(body, Keys.SPACE)  # Space: autoplay
    wait(browser, lambda: turn(browser) >= 3)
    press(body, Keys.SPACE)  # pause
    stopped = turn(browser)
    assert browser.find_element(By.ID, "btn-play").get_attribute("aria-pressed") == "false"
    assert 3 <= stopped < len(record.moves)
    browser.find_element(By.ID, "btn-play").click()
    wait(browser, lambda: turn(browser) == len(record.moves), seconds=20)
    wait(browser, lambda: browser.find_element(By.ID, "btn-play").get_attribute(
        "aria-pressed") == "false")


def test_deep_links(browser: Any, tmp_path: Path) -> None:
    records = list(read_file(RECORDS / "cave" / "examples.ugn"))
    open_page(browser, tmp_path, records, hash="#record=3&turn=38")
    assert attr(browser, "data-position") == "3" and turn(browser) == 38
    assert browser.execute_script("return location.hash") == "#record=3&turn=38"
    body = browser.find_element(By.TAG_NAME, "body")
    press(body, Keys.ARROW_RIGHT)
    assert browser.execute_script("return location.hash") == "#record=3&turn=39"
    browser.execute_script("location.hash = '#record=2&turn=5'")
    wait(browser, lambda: attr(browser, "data-position") == "2" and turn(browser) == 5)
    # Into a variation, by its path; a link nobody can follow shows the start.
    open_page(browser, tmp_path, read_string(VARIATIONS), hash="#record=1&path=2/1:2/1:1")
    assert attr(browser, "data-depth") == "2" and text(browser, "current-move") == "a1"
    open_page(browser, tmp_path, read_string(VARIATIONS), hash="#record=9&turn=x&path=7")
    assert attr(browser, "data-position") == "1" and turn(browser) == 0


def test_a_broken_record_stops_at_its_bad_move(browser: Any, tmp_path: Path) -> None:
    record = next(iter(read_file(RECORDS / "tinkertown" / "broken.ugn")))
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
    press(body, "n")  # the record keys still work
    press(body, Keys.ARROW_RIGHT)
    assert turn(browser) == 1 and not browser.find_element(By.ID, "record-error").is_displayed()


def test_a_phone_and_the_dark_theme(browser: Any, tmp_path: Path) -> None:
    records = list(read_file(RECORDS / "tinkertown" / "examples.ugn"))
    long_tag = '[Source "' + "a-very-long-source-without-spaces-" * 8 + '"]\n'
    tagged = read_string('[Game "tinkertown"]\n' + long_tag + "\nd4x *\n")
    try:
        browser.set_window_size(400, 800)
        open_page(browser, tmp_path, [*records, *tagged])
        body = browser.find_element(By.TAG_NAME, "body")
        press(body, "]", "]", "]")
        # Nothing wider than the screen: long tag values wrap.
        width = browser.execute_script("return document.documentElement.scrollWidth")
        inner = browser.execute_script("return window.innerWidth")
        assert width <= inner
        svg = board(browser).find_element(By.TAG_NAME, "svg")
        assert svg.size["width"] <= inner
        browser.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
        )
        background = browser.execute_script(
            "return getComputedStyle(document.documentElement).backgroundColor"
        )
        assert background == "rgb(22, 23, 26)"
        paper = browser.execute_script(
            "return getComputedStyle(document.querySelector('#board .paper')).fill"
        )
        assert paper == "rgb(34, 36, 42)"
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        browser.set_window_size(1280, 900)


def sample_views() -> list[tuple[BoardView, tuple[str, str] | None]]:
    views = []
    for game in ("tinkertown", "cave", "zombie-kidz"):
        stepper = Stepper(next(iter(read_file(RECORDS / game / "examples.ugn"))))
        for turn_number in (1, 14):
            stepper.goto_turn(turn_number)
            view = stepper.cursor.position.board_view()
            views.append((view, last_move_arrow(stepper, view.marks)))
    w, r = Token("white", "W"), Token("red", "R")
    views.append((BoardView(
        files=("a", "b", "c", "d"), ranks=("1", "2", "3", "4"),
        cells={"b2": Cell("b2", "g", (w, r) * 9, "<2>"), "a1": Cell("a1", "off"),
               "c3": Cell("c3", "h", (Token("x", ""),))},
        palette={"g": "#123", "white": "#f4f4f0", "h": "#d9463e", "x": "#777777"},
        marks=("b2", "b2", "z9", "c3"), facts=(("Ünïcode ✓", 'a "quoted" & <b>'),),
        caption="a caption long enough to wrap over several lines " * 3
        + "\n second\r\nthird\ttab\u00a0nbsp\x1cfs \U0001f9df zombie",
    ), ("b2", "c3")))
    return views


def test_the_page_draws_what_notation_diagram_draws(browser: Any, tmp_path: Path) -> None:
    open_page(browser, tmp_path, read_string('[Game "cave"]\n\nb1 *\n'))
    for view, arrow in sample_views():
        for size, title, extra in (
            (480, "t & <t>", True), (333.3, "other", False),
        ):
            drawn = browser.execute_script(
                "return window.notationViewer.drawBoard(arguments[0], {size: arguments[1], "
                "title: arguments[2], facts: arguments[3], caption: arguments[3], "
                "arrow: arguments[4]});",
                view.to_dict(), size, title, extra, list(arrow) if arrow else None,
            )
            assert drawn == board_svg(
                view, size=size, title=title, facts=extra, caption=extra, arrow=arrow
            )
