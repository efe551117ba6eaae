"""``watcher demo``: the whole product, offline, on bundled example pages.

Serves invented people's pages on loopback, checks them once (the baseline), switches to
their next version (a new paper, a venue change, a new job, a student who graduated,
plus noise: a new "last updated" date and visitor count), checks again, and prints the
change report.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from watcher.fetch import FetchSettings
from watcher.pipeline import check_sources, open_services
from watcher.report import change_sentence, change_to_json
from watcher.sources import add_source
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Source

__all__ = ["run_demo"]

PAGES = Path(__file__).resolve().parent
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".md": "text/markdown; charset=utf-8"}
DEMO_SOURCES = {"ada.html": "Ada Quill", "kestrel-lab.html": "Kestrel Robotics Lab", "jun-park.md": "Jun Park"}


class _DemoSite:
    """A tiny web server whose pages switch from v1 to v2 on demand."""

    def __init__(self) -> None:
        self.version = "v1"
        self.app = web.Application()
        self.app.router.add_get("/{name}", self.page)
        self.app.router.add_get("/robots.txt", self.robots)

    async def robots(self, _request: web.Request) -> web.Response:
        return web.Response(text="User-agent: *\nAllow: /\n")

    async def page(self, request: web.Request) -> web.Response:
        path = PAGES / self.version / request.match_info["name"]
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), headers={"Content-Type": CONTENT_TYPES[path.suffix]})


async def _demo(workdir: Path, echo: Callable[[str], None]) -> None:
    site = _DemoSite()
    runner = web.AppRunner(site.app, access_log=None)
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", 0)
    await tcp.start()
    port = runner.addresses[0][1]
    db = Database(f"sqlite:///{workdir / 'demo.db'}")
    db.ensure_schema()
    try:
        with db.session() as session:
            ids = [
                add_source(session, f"http://127.0.0.1:{port}/{page}", now=utcnow(), name=name).id
                for page, name in DEMO_SOURCES.items()
            ]
        settings = FetchSettings(host_delay=0.0, per_host_limit=4)
        async with open_services(db, None, settings=settings, notifiers=()) as services:
            echo(f"Serving {len(ids)} example pages on http://127.0.0.1:{port}/ (database: {workdir / 'demo.db'})")
            echo("\n1. First check: every item is recorded as the baseline, nothing is reported.")
            for outcome in await check_sources(services, ids):
                echo(f"   {outcome.source}: {outcome.status}, {outcome.items} items")
            site.version = "v2"
            echo("\n2. The pages change (new papers, a new job, a graduation, a new 'last updated' date).")
            echo("   Second check:")
            for outcome in await check_sources(services, ids):
                echo(f"   {outcome.source}: {outcome.status}, {outcome.changes} changes")
        echo("\n3. What watcher reports (`watcher diff`):\n")
        with db.session() as session:
            sources = {s.id: s for s in session.query(Source)}
            for change in session.query(Change).order_by(Change.source_id, Change.id):
                echo("   " + change_sentence(change_to_json(change, sources[change.source_id])))
        echo(f"\nTry: watcher --db sqlite:///{workdir / 'demo.db'} diff --since 1d --format json")
    finally:
        db.dispose()
        await runner.cleanup()


def run_demo(keep: Path | None = None, *, echo: Callable[[str], None] = print) -> None:
    """Run the demo; with ``keep`` the database stays in that folder for further commands."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / "demo.db").unlink(missing_ok=True)
        asyncio.run(_demo(keep, echo))
        return
    with tempfile.TemporaryDirectory(prefix="watcher-demo-") as tmp:
        asyncio.run(_demo(Path(tmp), echo))
