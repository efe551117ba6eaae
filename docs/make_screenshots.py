"""Screenshots of the dashboard for the README: the tests' example history, served on loopback,
photographed by the system's Chromium through Playwright.

    python docs/make_screenshots.py            # writes docs/screenshots/*.png
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sqlalchemy import delete  # noqa: E402
from web_data import seed_dashboard, serve_in_thread  # noqa: E402

from watcher.store.db import Database  # noqa: E402
from watcher.store.models import Source  # noqa: E402

#: (file, path, viewport): what the README shows.
SHOTS = [
    ("whats-new.png", "/", {"width": 1100, "height": 900}),
    ("source.png", "/source/jane-home", {"width": 1100, "height": 1400}),
    ("sources.png", "/sources", {"width": 1100, "height": 560}),
    ("whats-new-phone.png", "/", {"width": 390, "height": 844}),
]


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    out = ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'watcher.db'}")
        db.ensure_schema()
        seed_dashboard(db)
        with db.session() as session:  # the tests' hostile source is no picture for a README
            session.execute(delete(Source).where(Source.name == "hostile"))
        with serve_in_thread(db) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, path, viewport in SHOTS:
                page = browser.new_page(viewport=viewport)
                page.goto(base + path)
                page.screenshot(path=str(out / name))  # the first screen, as a person sees it
                page.close()
                print(out / name)
            browser.close()
        db.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
