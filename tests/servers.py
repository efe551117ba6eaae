"""Real HTTP servers on loopback for tests.

``serve(app)`` runs an ``aiohttp.web`` application on 127.0.0.1 (or any 127.x.y.z) with an
ephemeral port, inside a background thread with its own event loop, so the same server works
from synchronous tests (the CLI through ``CliRunner``) and from async tests alike::

    with serve(app) as base_url:          # "http://127.0.0.1:54321"
        ...

``StaticSite`` is a ready-made app: it serves a dict of ``path -> Page`` that a test can swap
between versions, answers conditional GETs (ETag / Last-Modified) like a real static host, and
records the time of every request per path::

    site = StaticSite({"/": Page("<h1>v1</h1>")})
    with serve(site.app()) as base_url:
        ...
        site.set("/", Page("<h1>v2</h1>"))
        assert site.count("/") == 2

Handlers run on the server thread's loop: keep shared counters inside the handler's closure or
guard them with a lock when the test thread reads them while requests are in flight.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import formatdate

from aiohttp import web
from multidict import CIMultiDict

__all__ = ["Page", "StaticSite", "serve"]

_START_TIMEOUT = 10.0


@contextmanager
def serve(app: web.Application, *, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run ``app`` on ``host`` (any loopback address) in a background thread; yield its base URL.

    ``port=0`` picks a free port. The server and its loop stop when the block exits, even if
    the test failed; requests still in flight are cancelled.
    """
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
    ready = threading.Event()
    bound: list[str] = []
    errors: list[BaseException] = []

    async def start() -> None:
        await runner.setup()
        site = web.TCPSite(runner, host, port, reuse_address=True)
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        bound.append(f"http://{bound_host}:{bound_port}")

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(start())
        except BaseException as exc:  # reported to the test thread below
            errors.append(exc)
            ready.set()
            return
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    thread = threading.Thread(target=run, name=f"test-server-{host}", daemon=True)
    thread.start()
    if not ready.wait(_START_TIMEOUT):
        raise RuntimeError(f"test server on {host} did not start within {_START_TIMEOUT} s")
    if errors:
        thread.join()
        loop.close()
        raise RuntimeError(f"test server on {host}:{port} could not start: {errors[0]}") from errors[0]
    try:
        yield bound[0]
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_START_TIMEOUT)


@dataclass(frozen=True)
class Page:
    """One resource of a ``StaticSite``: its body, type, status and extra headers."""

    body: str | bytes
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    def payload(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass(frozen=True)
class _Served:
    page: Page
    etag: str
    last_modified: str


class StaticSite:
    """A swappable set of pages served with ETag and Last-Modified, recording every request.

    Missing paths answer 404. ``conditional=False`` turns off validators (no ETag, no
    Last-Modified, never 304), like a host that always sends the full page.
    """

    def __init__(self, pages: Mapping[str, Page | str] | None = None, *, conditional: bool = True) -> None:
        self.conditional = conditional
        self._lock = threading.Lock()
        self._pages: dict[str, _Served] = {}
        self._requests: dict[str, list[float]] = {}
        self._headers: list[tuple[str, Mapping[str, str]]] = []
        self.replace(pages or {})

    # -- changing the site -------------------------------------------------------------
    def set(self, path: str, page: Page | str) -> None:
        """Add or replace one page (a plain string is an HTML page)."""
        served = self._served(page)
        with self._lock:
            self._pages[path] = served

    def remove(self, path: str) -> None:
        with self._lock:
            self._pages.pop(path, None)

    def replace(self, pages: Mapping[str, Page | str]) -> None:
        """Swap the whole site for a new version."""
        new = {path: self._served(page) for path, page in pages.items()}
        with self._lock:
            self._pages = new

    # -- what was asked ------------------------------------------------------------------
    def count(self, path: str) -> int:
        """How many requests reached ``path`` (404s included)."""
        with self._lock:
            return len(self._requests.get(path, []))

    def times(self, path: str) -> list[float]:
        """``time.monotonic()`` of each request to ``path``, in arrival order."""
        with self._lock:
            return list(self._requests.get(path, []))

    def request_headers(self, path: str) -> list[Mapping[str, str]]:
        """The headers of each request to ``path`` (case-insensitive mappings), in arrival order."""
        with self._lock:
            return [headers for p, headers in self._headers if p == path]

    @property
    def total_requests(self) -> int:
        with self._lock:
            return sum(len(times) for times in self._requests.values())

    def reset_counts(self) -> None:
        with self._lock:
            self._requests.clear()
            self._headers.clear()

    # -- serving -------------------------------------------------------------------------
    def app(self) -> web.Application:
        """A fresh ``aiohttp.web`` application serving this site (pass it to ``serve``)."""
        app = web.Application()
        app.router.add_route("GET", "/{tail:.*}", self._handle)
        return app

    @staticmethod
    def _served(page: Page | str) -> _Served:
        page = Page(page) if isinstance(page, str) else page
        digest = hashlib.sha256(page.payload()).hexdigest()[:16]
        return _Served(page=page, etag=f'"{digest}"', last_modified=formatdate(time.time(), usegmt=True))

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        with self._lock:
            self._requests.setdefault(path, []).append(time.monotonic())
            self._headers.append((path, CIMultiDict(request.headers)))
            served = self._pages.get(path)
        if served is None:
            return web.Response(status=404, text="not found", content_type="text/plain")
        page = served.page
        headers = dict(page.headers)
        headers["Content-Type"] = page.content_type
        if self.conditional and page.status == 200:
            headers["ETag"] = served.etag
            headers["Last-Modified"] = served.last_modified
            if self._is_fresh(request, served):
                return web.Response(status=304, headers={"ETag": served.etag})
        return web.Response(status=page.status, body=page.payload(), headers=headers)

    @staticmethod
    def _is_fresh(request: web.Request, served: _Served) -> bool:
        if_none_match = request.headers.get("If-None-Match")
        if if_none_match is not None:
            return served.etag in {tag.strip() for tag in if_none_match.split(",")}
        return request.headers.get("If-Modified-Since") == served.last_modified
