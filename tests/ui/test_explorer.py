"""Strata's explorer (/ui) in headless Chromium, as a person uses it: a chat history and a short book ingested
over HTTP, then search, a click on a hit, a click on a fact's line, the time slider and the story clock.

The run saves the screenshots docs/browse.md shows (docs/img/explorer-*.png).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from strata.graph.keys import create_key

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
IMG = REPO / "docs" / "img"
CHAT = REPO / "docs" / "samples" / "chat_sessions.json"
BOOK = """THE STORY OF ANN

CHAPTER I

Ann Archer lived in Bath with her aunt. "I shall never leave Bath," said Ann Archer to Bob Baker.

CHAPTER II

Bob Baker died in the winter. Ann Archer moved to York.

CHAPTER III

Ann Archer married Carl Conway. Ann Archer moved to Leeds.
"""


def wait_for(check: Callable[[], object], what: str, timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # noqa: BLE001 - the page is still changing under the check
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def idle(driver) -> None:
    time.sleep(0.15)  # let a click's requests start before waiting for them to end
    wait_for(lambda: driver.execute_script("return document.body.dataset.busy") == "false", "the page to settle")


def drawn(driver) -> dict[str, object]:
    """What the graph shows: node labels inside the visible canvas, and edges as (source, label, target)."""
    return driver.execute_script("""
        const cy = window.explorer.cy, w = cy.width(), h = cy.height();
        const visible = cy.nodes().filter(n => { const p = n.renderedPosition();
                                                 return p.x >= 0 && p.y >= 0 && p.x <= w && p.y <= h; });
        return {nodes: visible.map(n => n.data('label')),
                edges: cy.edges().map(e => [e.source().data('label'), e.data('label'), e.target().data('label')])};
    """)


def click_edge(driver, source: str, label: str) -> None:
    """A real mouse click on the middle of the line drawn for a fact."""
    x, y = driver.execute_script("""
        const e = window.explorer.cy.edges().filter(e => e.source().data('label') === arguments[0]
                                                         && e.data('label') === arguments[1])[0];
        const p = e.renderedMidpoint(); return [p.x, p.y];""", source, label)
    canvas = driver.find_element(By.ID, "graph")
    size = canvas.size
    ActionChains(driver).move_to_element_with_offset(canvas, int(x - size["width"] / 2),
                                                     int(y - size["height"] / 2)).click().perform()


def slide_to(driver, index: int) -> None:
    slider = driver.find_element(By.ID, "slider")
    slider.send_keys(Keys.HOME)
    for _ in range(index - int(slider.get_attribute("min"))):
        slider.send_keys(Keys.ARROW_RIGHT)
    idle(driver)


@pytest.fixture
def demo_group(live_api, graph, group_id) -> tuple[str, str]:
    key = create_key(graph, [group_id], "rw", name="explorer-test")
    h = {"Authorization": f"Bearer {key.token}"}
    with httpx.Client(base_url=live_api, headers=h, timeout=120) as http:
        for name, fmt, body in (("chat_sessions.json", "sessions-json", CHAT.read_bytes()),
                                ("ann.txt", "book", BOOK.encode())):
            up = http.post(f"/v1/groups/{group_id}/sources", data={"format": fmt, "name": name},
                           files={"file": (name, body, "application/octet-stream")})
            assert up.status_code == 202 and up.json()["done"] == up.json()["total"], up.text
    yield group_id, key.token
    graph.query("MATCH (k:ApiKey {id: $id}) DETACH DELETE k", id=key.key.id)


def test_explorer_search_provenance_and_time_slider(live_api, chromium, demo_group) -> None:
    group, token = demo_group
    driver = chromium
    driver.get(f"{live_api}/ui/#key={token}&group={group}")
    wait_for(lambda: driver.execute_script("return window.explorer && window.explorer.state.days.length"),
             "the group's clock")
    idle(driver)
    assert "key=" not in driver.current_url  # the key left the address bar

    driver.find_element(By.ID, "q").send_keys("Where does Maya live?", Keys.ENTER)
    hits = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#hits li"), "search hits")
    maya = next(h for h in hits if h.get_attribute("data-kind") in ("fact", "entity") and "Maya" in h.text)
    maya.click()
    idle(driver)
    now = drawn(driver)
    assert "Maya" in now["nodes"] and "Berlin" in now["nodes"]
    assert ["Maya", "lives_in", "Berlin"] in now["edges"]
    assert ["Maya", "lives_in", "Lisbon"] not in now["edges"]  # ended in June 2024

    click_edge(driver, "Maya", "lives_in")
    idle(driver)
    panel = driver.find_element(By.ID, "provenance")
    assert panel.is_displayed()
    assert "Berlin" in driver.find_element(By.ID, "fact-sentence").text
    source = driver.find_element(By.CSS_SELECTOR, "#fact-sources li")
    assert "I live in Berlin now" in source.find_element(By.TAG_NAME, "blockquote").text
    assert "Maya" in source.text and "2024-06-03" in source.text
    IMG.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(IMG / "explorer-provenance.png"))

    days = driver.execute_script("return window.explorer.state.days")
    before_move = max(i for i, d in enumerate(days) if d < "2024-06-03")
    slide_to(driver, before_move)
    assert driver.find_element(By.ID, "as-of").text == f"as of {days[before_move]}"
    then = drawn(driver)
    assert ["Maya", "lives_in", "Lisbon"] in then["edges"]
    assert ["Maya", "lives_in", "Berlin"] not in then["edges"]
    assert "did not hold" in driver.find_element(By.ID, "fact-meta").text  # the Berlin fact, on that day
    hits_then = driver.find_element(By.ID, "hits").text
    assert "Berlin now" not in hits_then  # search was asked again as of that day
    driver.save_screenshot(str(IMG / "explorer-as-of.png"))

    # Back to now; clicking a node shows the entity's timeline: both homes, the first one ended.
    driver.find_element(By.ID, "now").click()
    idle(driver)
    assert driver.find_element(By.ID, "as-of").text == "now"
    assert ["Maya", "lives_in", "Berlin"] in drawn(driver)["edges"]
    driver.execute_script("window.explorer.cy.nodes().filter(n => n.data('label') === 'Maya').emit('tap')")
    idle(driver)
    timeline = driver.find_elements(By.CSS_SELECTOR, "#timeline li")
    lines = [li.text for li in timeline]
    assert any("Lisbon" in t for t in lines) and any("Berlin" in t for t in lines)
    assert "ended" in next(li for li in timeline if "Lisbon" in li.text).get_attribute("class")


def test_explorer_story_clock(live_api, chromium, demo_group) -> None:
    group, token = demo_group
    driver = chromium
    driver.get(f"{live_api}/ui/#key={token}&group={group}")
    wait_for(lambda: driver.execute_script("return window.explorer && window.explorer.state.books.length"),
             "the group's books")
    Select(driver.find_element(By.ID, "book")).select_by_visible_text("story: ann.txt")
    idle(driver)
    driver.find_element(By.ID, "q").send_keys("Ann Archer", Keys.ENTER)
    hits = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#hits li[data-kind=entity]"), "entity hits")
    next(h for h in hits if "Ann Archer" in h.text).click()
    idle(driver)
    assert ["Ann Archer", "lives_in", "Leeds"] in drawn(driver)["edges"]
    slide_to(driver, 1)
    assert driver.find_element(By.ID, "as-of").text == "through chapter 1"
    edges = drawn(driver)["edges"]
    assert ["Ann Archer", "lives_in", "Bath"] in edges and ["Ann Archer", "lives_in", "Leeds"] not in edges
    driver.save_screenshot(str(IMG / "explorer-story.png"))


def test_explorer_asks_for_a_key(live_api, chromium, demo_group) -> None:
    group, _ = demo_group
    driver = chromium
    driver.get(f"{live_api}/ui/#group={group}&key=not-a-key")
    dialog = wait_for(lambda: driver.find_element(By.ID, "key-dialog").get_attribute("open") is not None
                      and driver.find_element(By.ID, "key-dialog"), "the key prompt")
    assert dialog.is_displayed()
    assert driver.find_element(By.ID, "status").text  # says why
