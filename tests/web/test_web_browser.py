"""The web view in a real browser: headless Chromium (Debian's `chromium`, which .ci/run
installs when it is missing) driven by Playwright, against the app served by uvicorn on a
free loopback port.  The README's test command installs Chromium when it is missing
(tests/install-system-deps.sh); without it these tests fail and say how to get it.

Screenshots of every page go to $MEMFOLD_SCREENSHOTS when it is set (docs/screenshots/ is
made that way: `MEMFOLD_SCREENSHOTS=docs/screenshots pytest tests/web/test_web_browser.py`),
else to a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from memfold import Memory
from memfold.web.app import create_app
from system_support import missing
from web_corpus import NOW, Planted, plant

TOKEN = "browser-test-token"
PAGES = {  # screenshot name -> path
    "search": "/search?q=Peter",
    "timeline": "/timeline?since=2025-11-01&day=2025-11-25",
    "entity": "/entity?name=Peter",
    "opinions": "/opinions?entity=Peter",
    "lifecycle": "/lifecycle",
    "health": "/health",
    "fact": "/fact/mallory1",
    "file": "/file?path=memory%2F2025-11-20.md#L4",
}


@dataclass
class Site:
    root: Path
    ids: Planted
    base: str
    requests: list[str]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        missing("the browser tests need Chromium")
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("browser") / "ws"
    Memory.init(root)
    ids = plant(root)
    app = create_app(lambda: Memory.open(root, now=NOW), token=TOKEN)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield Site(root, ids, f"http://127.0.0.1:{sock.getsockname()[1]}", [])
    server.should_exit = True
    thread.join(timeout=30)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium())
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def context(browser: Browser, site: Site) -> Iterator[BrowserContext]:
    """One signed-in browser; every request it makes is recorded in `site.requests`."""
    opened = browser.new_context(viewport={"width": 1100, "height": 900})
    opened.on("request", lambda request: site.requests.append(request.url))
    page = opened.new_page()
    page.goto(f"{site.base}/search?token={TOKEN}")
    assert page.url == f"{site.base}/search"  # the token is gone from the address
    page.close()
    yield opened
    opened.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield opened
    assert dialogs == [], "a page opened a dialog"
    opened.close()


def shots_dir(tmp_path: Path) -> Path:
    target = Path(os.environ.get("MEMFOLD_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def test_screenshots_of_every_page_and_no_request_leaves_the_app(
        page: Page, site: Site, tmp_path: Path) -> None:
    target = shots_dir(tmp_path)
    for name, path in PAGES.items():
        response = page.goto(site.base + path)
        assert response is not None and response.status == 200, path
        page.screenshot(path=str(target / f"{name}.png"), full_page=True)
    phone = page.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 800})
    for name in PAGES:
        phone.goto(site.base + PAGES[name])
        wide = phone.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= 390, f"{name} is {wide}px wide on a 390px phone"
    phone.goto(site.base + PAGES["search"])
    phone.screenshot(path=str(target / "search-phone.png"), full_page=True)
    phone.close()
    hosts = {urlsplit(url).netloc for url in site.requests if not url.startswith("data:")}
    assert hosts == {urlsplit(site.base).netloc}
    assert sorted((target).glob("*.png")) and len(site.requests) > len(PAGES)


def test_search_finds_a_planted_fact_and_its_citation_opens_its_line(page: Page,
                                                                   site: Site) -> None:
    page.goto(f"{site.base}/timeline")
    page.keyboard.press("/")  # the shortcut leads to the search page, then to its box
    page.wait_for_url("**/search")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("where does Peter live now")
    page.keyboard.press("Enter")
    page.wait_for_url("**/search?q=*")
    first = page.locator("li.fact").first
    assert first.get_attribute("data-id") == site.ids.berlin
    assert first.locator(".content").inner_text() == "Moved to Berlin."
    assert first.locator(".badge").inner_text() == "active"
    assert first.locator(".why").inner_text()  # why it matched
    first.locator("a.cite").focus()
    page.keyboard.press("Enter")  # keyboard only, as a reader would
    page.wait_for_url("**/file?path=memory%2F2025-11-25.md#L4")
    target = page.locator("ol.source li:target")
    assert target.count() == 1
    assert target.locator(".ln").inner_text() == "4"
    assert "Moved to Berlin. ^berlin01" in target.inner_text()


def test_the_timeline_has_one_bar_group_per_day_with_the_right_counts(page: Page,
                                                                     site: Site) -> None:
    page.goto(f"{site.base}/timeline?since=2025-11-01&until=2025-11-30")
    groups = page.locator("svg.bars g.day")
    assert groups.count() == 25  # Nov 1 .. Nov 25, days without facts included
    drawn = {}
    for i in range(groups.count()):
        group = groups.nth(i)
        bars = group.locator("rect.bar")
        counts = {bars.nth(j).get_attribute("data-kind"): int(bars.nth(j).get_attribute(
            "data-count") or 0) for j in range(bars.count())}
        assert sum(counts.values()) == int(group.get_attribute("data-total") or 0)
        if counts:
            drawn[group.get_attribute("data-day")] = counts
    with Memory.open(site.root, now=NOW) as memory:
        expected = {d.day.isoformat(): d.counts for d in memory.views.timeline(
            since="2025-11-01", until="2025-11-30").days}
    assert drawn == expected
    assert drawn["2025-11-20"] == {"world": 2, "opinion": 1}
    page.locator('svg.bars g.day[data-day="2025-11-20"] rect.bar').first.click()
    page.wait_for_url("**day=2025-11-20")
    assert page.locator("#day-title").inner_text() == "Thursday, November 20, 2025"
    assert page.locator(".day-view li.fact").count() == 3
    assert "- W @Peter: Lives in Vienna. ^vienna01" in page.locator("#log-L4").inner_text()


def test_an_opinion_plot_has_one_point_per_confidence_event(page: Page, site: Site) -> None:
    page.goto(f"{site.base}/opinions")
    with Memory.open(site.root, now=NOW) as memory:
        events = [e for e in memory.history(site.ids.walks) if e.event == "confidence"]
    walks = page.locator(f'article.opinion[data-id="{site.ids.walks}"]')
    points = walks.locator("svg.plot circle.point")
    assert points.count() == len(events) == 3
    assert [float(points.nth(i).get_attribute("data-c") or 0) for i in range(3)] == [
        e.data["c"] for e in events]
    assert walks.locator("svg.plot circle.start").count() == 1  # written with c=0.6
    assert walks.locator("table.steps tbody tr").count() == 3
    assert walks.locator("a.evidence.for").first.inner_text() == \
        "Went on long walks outside all weekend."
    tea = page.locator(f'article.opinion[data-id="{site.ids.tea}"]')
    assert tea.locator("circle.point").count() == 0


def test_an_entity_page_draws_its_supersede_chain_with_judge_and_reason(page: Page,
                                                                      site: Site) -> None:
    page.goto(f"{site.base}/entity")
    page.get_by_role("link", name="@Peter").click()
    page.wait_for_url("**/entity?name=Peter")
    [edge] = page.locator("svg.graph g.edge").all()
    assert (edge.get_attribute("data-old"), edge.get_attribute("data-new"),
            edge.get_attribute("data-judge")) == (site.ids.vienna, site.ids.berlin, "rules")
    assert page.locator("table.edges td").nth(3).inner_text() == \
        "location: 'Vienna' became 'Berlin'"
    nodes = page.locator("svg.graph g.node")
    assert sorted(n.get_attribute("data-id") or "" for n in nodes.all()) == sorted(
        [site.ids.vienna, site.ids.berlin])
    assert page.locator('svg.graph g.node.s-superseded').get_attribute("data-id") == \
        site.ids.vienna
    facts = page.locator('section[aria-labelledby="facts-title"] li.fact')
    days = [f.locator(".day").inner_text() for f in facts.all()]
    assert days == sorted(days, reverse=True)  # newest first
    page.locator(f'svg.graph g.node[data-id="{site.ids.berlin}"] rect').click()
    page.wait_for_url(f"**/fact/{site.ids.berlin}")


def recalled(site: Site, query: str) -> list[str]:
    with Memory.open(site.root, now=NOW) as memory:
        return [h.fact.id for h in memory.recall(query).hits]


def test_supersede_and_restore_from_the_page_change_what_recall_returns(page: Page,
                                                                      site: Site) -> None:
    with Memory.open(site.root, now=NOW) as memory:
        memory.retain(["B @Quinn: Planted tomatoes in the garden. ^quinn001",
                       "B @Quinn: Harvested the garden tomatoes. ^quinn002"], date="2025-11-28")
    assert {"quinn001", "quinn002"} <= set(recalled(site, "tomatoes"))
    page.goto(f"{site.base}/fact/quinn001")
    form = page.locator("form", has=page.locator('input[name="old"]'))
    form.locator('input[name="new"]').fill("quinn002")
    form.locator('input[name="reason"]').fill("the harvest came after")
    form.locator("button").click()
    page.wait_for_load_state()
    assert page.locator(".flash.ok").inner_text() == "quinn001 superseded by quinn002"
    assert "quinn001" not in recalled(site, "tomatoes")
    page.goto(f"{site.base}/search?q=tomatoes")
    assert "1 matching fact is superseded" in page.locator(".hint").inner_text()
    page.goto(f"{site.base}/lifecycle")
    row = page.locator('section.superseded li.fact[data-id="quinn001"] + div.row-actions')
    row.get_by_role("button", name="Restore").click()
    page.wait_for_load_state()
    assert page.locator(".flash.ok").inner_text() == "quinn001 restored"
    assert "quinn001" in recalled(site, "tomatoes")
    assert page.locator('section.superseded li.fact[data-id="quinn001"]').count() == 0


def test_a_stale_note_form_is_refused(page: Page, site: Site) -> None:
    page.goto(f"{site.base}/fact/{site.ids.tea}")
    page.locator("#note-text").fill("typed in the browser")
    with Memory.open(site.root, now=NOW) as memory:  # meanwhile, an agent notes it
        memory.note(site.ids.tea, "noted by an agent", rev=0)
    with page.expect_response(lambda r: r.url.endswith("/act/note")) as answer:
        page.get_by_role("button", name="Save note").click()
    assert answer.value.status == 409
    assert page.locator(".error").inner_text() == "stale (current revision 1)"
    with Memory.open(site.root, now=NOW) as memory:
        hit = memory.get(site.ids.tea, use=False)
    assert (hit.note, hit.rev) == ("noted by an agent", 1)


def test_script_and_bidi_text_render_inert_and_flagged(page: Page, site: Site) -> None:
    for path in ("/search?q=ledger", f"/fact/{site.ids.hostile}",
                 "/timeline?since=1y&day=2025-11-25", "/entity?name=Mallory"):
        page.goto(site.base + path)
        fact = page.locator(f'li.fact[data-id="{site.ids.hostile}"]').first
        assert fact.locator(".content").inner_text() == \
            "Pays to <script>window.__pwned = 1</script> a⟦U+202E⟧b ledger."
        assert fact.locator(".flag").inner_text() == "hidden: bidi"
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("document.scripts.length") == 1  # app.js, nothing else
        assert "\u202e" not in page.content()
