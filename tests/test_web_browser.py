"""The dashboard in a real browser: Playwright driving the system's Chromium over loopback.

Every page opens without a console error (a CSP violation is one), a filter works, a link
leads to a person, and the hostile items show as text with nothing executed. Screenshots
(desktop and phone) are saved under the test's tmp path; ``docs/make_screenshots.py`` makes
the README's.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_data import HOSTILE_LINK, HOSTILE_NEWS, HOSTILE_TITLE, seed_dashboard, serve_in_thread

from watcher.store.db import Database

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]' installs it)"
)
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run does it in CI)"
)

#: (file name, path) of every page the browser opens and photographs.
PAGES = [
    ("whats-new", "/"),
    ("sources", "/sources"),
    ("source", "/source/jane-home"),
    ("person", "/person/Jane%20Doe"),
    ("deliveries", "/deliveries"),
    ("hostile", "/source/hostile"),
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = Database(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'watcher.db'}")
    db.ensure_schema()
    seed_dashboard(db)
    with serve_in_thread(db) as url:
        yield url
    db.dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Watched:
    """A page with its console errors, uncaught exceptions and dialogs recorded."""

    def __init__(self, browser: Any, viewport: dict[str, int] | None = None) -> None:
        self.page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900})
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda msg: msg.type == "error" and self.problems.append(msg.text))
        self.page.on("pageerror", lambda exc: self.problems.append(str(exc)))
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()


def test_every_page_opens_cleanly_and_is_photographed(browser: Any, base_url: str, tmp_path: Path) -> None:
    shots = tmp_path / "screenshots"
    shots.mkdir()
    for viewport, suffix in ((None, ""), (PHONE, "-phone")):
        watched = Watched(browser, viewport)
        for name, path in PAGES:
            response = watched.page.goto(base_url + path)
            assert response is not None and response.status == 200, path
            assert watched.page.locator("h1").count() == 1
            watched.page.screenshot(path=str(shots / f"{name}{suffix}.png"), full_page=True)
        if viewport is PHONE:  # nothing wider than a phone's screen but tables that scroll
            width = watched.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the page is {width}px wide on a phone"
        watched.page.close()
        assert watched.problems == [] and watched.dialogs == []
    assert sorted(p.name for p in shots.iterdir()) == sorted(
        f"{name}{suffix}.png" for name, _ in PAGES for suffix in ("", "-phone")
    )


def test_a_filter_then_a_link_to_a_person(browser: Any, base_url: str) -> None:
    watched = Watched(browser)
    page = watched.page
    page.goto(base_url + "/")
    assert not page.locator("select[name=kind]").is_visible()  # folded away until asked for
    page.click("details.more summary")
    page.select_option("select[name=kind]", "paper")
    page.fill("input[name=since]", "30d")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**/?*kind=paper*")
    badges = page.locator("li.change .badge").all_inner_texts()
    assert badges and {b.lower() for b in badges} == {"paper"}
    page.click("section.day h3 a:text-is('Jane Doe')")
    page.wait_for_url("**/person/Jane%20Doe")
    assert page.locator("h1").inner_text().startswith("Jane Doe")
    assert "Associate Professor" in page.locator("main").inner_text()
    assert watched.problems == [] and watched.dialogs == []


def test_hostile_items_show_as_text_and_nothing_runs(browser: Any, base_url: str) -> None:
    watched = Watched(browser)
    page = watched.page
    for path in ("/source/hostile", "/", "/person/Mallory"):
        page.goto(base_url + path)
        text = page.locator("main").inner_text()
        assert HOSTILE_TITLE in text and HOSTILE_NEWS in text and "49" not in text
        assert page.evaluate("document.scripts.length") == 0
        assert page.locator("main img").count() == 0
        hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
        assert not [h for h in hrefs if not h.startswith(("http://", "https://"))], hrefs
    assert HOSTILE_LINK not in page.content()
    assert watched.problems == [] and watched.dialogs == []
