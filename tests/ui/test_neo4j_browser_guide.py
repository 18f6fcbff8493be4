"""Neo4j Browser on the local server with Strata's style and guide, as a person uses them: connect, `:style` and
`:play` from the API, set the parameters, run the guide's "now" query, and look at what is drawn.

The server here may predate the settings services/neo4j.py writes (it takes them at its next restart), so the
style is applied by hand with `:style <url>`; the post-connect path is covered by the config unit test. URLs
name `localhost`, which every Neo4j's default remote-content allowlist holds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from strata.schema.neo4j_browser import style_rules
from tests.support.browser_guide import write_sample_group

pytestmark = pytest.mark.integration
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "neo4j-browser-guide.png"
SLIDES = ["Strata in Neo4j Browser", "Parameters", "Facts about an entity now", "An entity as of a date",
          "An entity's timeline", "What a person said", "Facts from a source", "Who interacts with whom"]
WAIT_S = 60


def _wait(driver, what, timeout: float = WAIT_S):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.2).until(lambda d: what(d))
    except TimeoutException:
        driver.save_screenshot(str(Path(tempfile.gettempdir()) / "neo4j-browser-guide-failure.png"))
        raise


def _frame(driver, command: str):
    """The newest frame that ran `command` (frames stack newest first)."""
    for frame in driver.find_elements(By.CSS_SELECTOR, "[data-testid='frame']"):
        shown = frame.find_elements(By.CSS_SELECTOR, "[data-testid='frameCommand']")
        if shown and shown[0].text.strip().replace("\n", " ").startswith(command[:60]):
            return frame
    return None


def _run(driver, command: str):
    editor = driver.find_element(By.CSS_SELECTOR, "[data-testid='activeEditor'] textarea")
    editor.send_keys(command)
    editor.send_keys(Keys.ENTER)
    return _wait(driver, lambda d: _frame(d, command))


def _slide_title(frame) -> str:
    return frame.find_element(By.CSS_SELECTOR, "[data-testid='carousel'] h3").text.strip()


@pytest.fixture
def browser(chromium, settings):
    bolt = urlsplit(settings.neo4j_uri).port or 7687
    chromium.get(f"http://127.0.0.1:{settings.neo4j_http_port}/browser/"
                 f"?connectURL=neo4j://127.0.0.1:{bolt}&preselectAuthMethod=NO_AUTH")
    # Connected: the editor's prompt names the database.
    _wait(chromium, lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid='activeEditor']").text.startswith("neo4j$"))
    yield chromium
    chromium.set_window_size(1280, 860)


def test_guide_plays_and_its_now_query_draws_the_styled_graph(browser, live_api, graph, group_id) -> None:
    write_sample_group(graph, group_id)
    api = live_api.replace("127.0.0.1", "localhost")

    style = _run(browser, f":style {api}/browser/style.grass")
    _wait(browser, lambda d: "node.Person" in style.text and "{predicate}" in style.text)
    _run(browser, f":params {{group: '{group_id}', name: 'Maya', date: '2024-03-01', source: 'chat_sessions.json'}}")

    guide = _run(browser, f":play {api}/browser/guide")
    _wait(browser, lambda d: guide.find_elements(By.CSS_SELECTOR, "[data-testid='carousel'] h3"))
    titles = []
    for k, title in enumerate(SLIDES):
        _wait(browser, lambda d, t=title: _slide_title(guide) == t)
        titles.append(_slide_title(guide))
        runnable = guide.find_elements(By.CSS_SELECTOR, "[data-testid='carousel'] pre.runnable")
        assert runnable, title
        # Browser turned each block into a runnable one: a play icon before the query.
        assert all(pre.find_elements(By.CSS_SELECTOR, "i.fa-play-circle-o") for pre in runnable), title
        assert f"{k + 1} / {len(SLIDES)}" in guide.text
        if k < len(SLIDES) - 1:
            guide.find_element(By.CSS_SELECTOR, "[data-testid='nextSlide']").click()
    assert titles == SLIDES
    for _ in range(len(SLIDES) - 3):  # back to "Facts about an entity now"
        guide.find_element(By.CSS_SELECTOR, "[data-testid='previousSlide']").click()
    _wait(browser, lambda d: _slide_title(guide) == "Facts about an entity now")

    query = guide.find_element(By.CSS_SELECTOR, "[data-testid='carousel'] pre.runnable")
    assert "$group" in query.text and "$name" in query.text
    query.find_element(By.CSS_SELECTOR, "i.fa-play-circle-o").click()  # runs it in a new frame
    result = _wait(browser, lambda d: _frame(d, query.text.strip().split("\n")[0]))
    _wait(browser, lambda d: len(result.find_elements(By.CSS_SELECTOR, "g.node")) >= 4)

    nodes = {}
    for node in result.find_elements(By.CSS_SELECTOR, "g.node"):
        caption = " ".join(t.text for t in node.find_elements(By.CSS_SELECTOR, "text.caption")).strip()
        nodes[caption] = node.find_element(By.CSS_SELECTOR, "circle.b-outline").get_attribute("fill")
    rules = style_rules()
    # Captions are the entities' names; Maya now lives in Berlin, her Lisbon years are over.
    assert {"Maya", "Berlin", "Sofia"} <= set(nodes), nodes
    assert "Lisbon" not in nodes
    assert nodes["Maya"].upper() == rules["node.Person"]["color"]
    assert nodes["Berlin"].upper() == rules["node.Place"]["color"]
    captions = {t.text for t in result.find_elements(By.CSS_SELECTOR, "g.relationship text")}
    assert "lives_in" in captions, captions

    browser.set_window_size(1280, 1400)
    browser.execute_script("window.scrollTo(0, 0)")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))
