"""Helpers for the notification tests: a database with sources and changes, a clock,
a webhook receiver that verifies Standard Webhooks signatures, and an SMTP sink."""

from __future__ import annotations

import asyncio
import base64
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiohttp import web
from aiosmtpd.controller import Controller
from standardwebhooks import Webhook

from watcher.store.db import Database
from watcher.store.models import Change, Source

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
T0 = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


@dataclass
class Clock:
    """An injected clock the test moves by hand."""

    now: datetime = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


def make_db(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'w.db'}")
    db.ensure_schema()
    return db


def add_source(session: Any, name: str, *, label: str | None = None, tags: tuple[str, ...] = ()) -> Source:
    source = Source(
        name=name, url=f"https://{name}.example.org/", label=label, tags=list(tags), created_at=T0, fetch_state={}
    )
    session.add(source)
    session.flush()
    return source


def paper(title: str, **extra: Any) -> dict[str, Any]:
    return {"title": title, "authors": ["Ada Quill", "Bo Reed"], "venue": "NeurIPS", "year": 2026, **extra}


def add_change(
    session: Any,
    source: Source,
    kind: str,
    fields: dict[str, Any],
    *,
    change: str = "added",
    before: dict[str, Any] | None = None,
    at: datetime = T0,
) -> Change:
    row = Change(
        source_id=source.id,
        kind=kind,
        change=change,
        after=None if change == "removed" else fields,
        before=fields if change == "removed" else before,
        detected_at=at,
    )
    session.add(row)
    session.flush()
    return row


@dataclass
class Hit:
    headers: dict[str, str]
    body: bytes
    verified: Any = None
    error: str | None = None


@dataclass
class Receiver:
    """A webhook endpoint: answers each request with the next scripted behaviour.

    A behaviour is an HTTP status or ``("sleep", seconds)``; after the script, 200.
    Every request is verified with the Standard Webhooks library and recorded.
    """

    script: list[Any] = field(default_factory=list)
    secret: str = SECRET
    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self) -> web.Application:
        async def hook(request: web.Request) -> web.Response:
            body = await request.read()
            hit = Hit(headers=dict(request.headers), body=body)
            try:
                hit.verified = Webhook(self.secret).verify(body, dict(request.headers))
            except Exception as exc:  # recorded; the test asserts there is none
                hit.error = f"{type(exc).__name__}: {exc}"
            with self.lock:
                self.hits.append(hit)
                step = self.script.pop(0) if self.script else 200
            if isinstance(step, tuple) and step[0] == "sleep":
                await asyncio.sleep(step[1])
                return web.Response(status=200)
            return web.Response(status=step, text="ok" if step < 300 else "no")

        async def redirect(request: web.Request) -> web.Response:
            raise web.HTTPFound("/hook")

        app = web.Application()
        app.router.add_post("/hook", hook)
        app.router.add_post("/redirect", redirect)
        return app

    def ids(self) -> list[str]:
        with self.lock:
            return [h.headers.get("webhook-id", "") for h in self.hits]


class _Sink:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        self.messages.append(message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_server(**controller_kwargs: Any) -> Iterator[tuple[_Sink, int]]:
    """A real aiosmtpd server on loopback; yields the sink (received messages) and the port."""
    sink = _Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port, **controller_kwargs)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Wait (blocking) until ``predicate()`` holds."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()
