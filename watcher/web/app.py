"""The dashboard's application (Starlette) and its server (uvicorn), for ``watcher serve`` and
``watcher daemon --web``. The Atom feeds are served by the same app, at the daemon's paths."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from watcher.errors import ConfigError
from watcher.notify.feed import FeedScope, feed_with_etag, not_found_text
from watcher.store.db import Database, utcnow
from watcher.web import api, pages
from watcher.web.auth import AuthMiddleware, SecurityHeadersMiddleware, csrf_token
from watcher.web.rendering import page
from watcher.web.settings import WebSettings

__all__ = ["create_app", "serve_web"]

STATIC_DIR = Path(__file__).resolve().parent / "static"


async def _feed(request: Request, scope: FeedScope) -> Response:
    state = request.app.state
    built = await run_in_threadpool(feed_with_etag, state.db, scope, now=state.now())
    if built is None:
        return PlainTextResponse(not_found_text(scope), status_code=404)
    xml, etag = built
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers={"ETag": etag})
    return Response(xml, media_type="application/atom+xml; charset=utf-8", headers={"ETag": etag})


async def _all_feed(request: Request) -> Response:
    return await _feed(request, FeedScope())


async def _source_feed(request: Request) -> Response:
    return await _feed(request, FeedScope(source=request.path_params["name"]))


async def _person_feed(request: Request) -> Response:
    return await _feed(request, FeedScope(person=request.path_params["label"]))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    return page(request, "error.html", status_code=exc.status_code, title="Error", message=exc.detail)


def create_app(db: Database, settings: WebSettings, *, now: Callable[[], datetime] = utcnow) -> Starlette:
    """The whole dashboard over ``db``: pages, API, feeds and the stylesheet."""
    routes = [
        *pages.routes(),
        *api.routes(),
        Route("/feed.atom", _all_feed),
        Route("/feed/source/{name}.atom", _source_feed),
        Route("/feed/person/{label}.atom", _person_feed),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeadersMiddleware),
            Middleware(AuthMiddleware, token=settings.token, login_page=pages.login_page),
        ],
        exception_handlers={HTTPException: _http_error},
    )
    app.state.db, app.state.settings, app.state.now = db, settings, now
    app.state.csrf = csrf_token(settings.token) if settings.token else ""
    return app


class _QuietServer(uvicorn.Server):
    """A uvicorn server that leaves the signals to its host (the daemon handles SIGTERM itself)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Inherited by each connection: a response's head and body leave at once, instead of the
    # body waiting for a keep-alive client's delayed ACK (40 ms a request otherwise).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot serve the dashboard on {host}:{port}: {exc.strerror}") from exc
    sock.listen(128)
    sock.setblocking(False)
    return sock


@contextlib.asynccontextmanager
async def serve_web(
    db: Database, settings: WebSettings, *, now: Callable[[], datetime] = utcnow
) -> AsyncIterator[int]:
    """Serve the dashboard while the context is open; yields the port (``settings.port`` 0: a free one)."""
    sock = _bind(settings.host, settings.port)
    config = uvicorn.Config(
        create_app(db, settings, now=now), log_level="warning", access_log=False, lifespan="off", server_header=False
    )
    server = _QuietServer(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise ConfigError("the dashboard server stopped at start")
            await asyncio.sleep(0.01)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await task
        sock.close()
