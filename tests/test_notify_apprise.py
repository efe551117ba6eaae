"""Apprise channels against a real loopback peer (Apprise's ``json://`` service)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from notify_support import T0, Clock, add_change, add_source, free_port, make_db, paper
from servers import serve

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify import build_notifiers
from watcher.notify.base import Message
from watcher.notify.outbox import dispatch_pending, enqueue_changes


class JsonSink:
    """Records the JSON bodies Apprise posts; answers ``status``."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.bodies: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def app(self) -> web.Application:
        async def receive(request: web.Request) -> web.Response:
            body = await request.json()
            with self.lock:
                self.bodies.append(body)
            return web.Response(status=self.status)

        app = web.Application()
        app.router.add_post("/notify", receive)
        return app


def apprise_channel(url: str, **options: Any) -> list:
    return build_notifiers([ChannelConfig(type="apprise", options={"urls": [url], **options})], {})


def test_changes_reach_an_apprise_json_endpoint(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    sink = JsonSink()
    with serve(sink.app()) as url:
        channels = apprise_channel(url.replace("http://", "json://") + "/notify")
        assert channels[0].target == "apprise:json"
        with db.session() as s:
            jane = add_source(s, "jane", label="Jane Doe")
            enqueue_changes(s, [add_change(s, jane, "paper", paper("Quiet Widgets"))], channels, T0)
        report = asyncio.run(dispatch_pending(db, channels, Clock()))
    assert report.sent == 1, report.errors
    [body] = sink.bodies
    assert body["title"] == "watcher: 1 new paper — Jane Doe"
    assert "New papers" in body["message"] and "Quiet Widgets" in body["message"]


def test_a_refusing_apprise_endpoint_is_a_retryable_failure() -> None:
    sink = JsonSink(status=500)
    with serve(sink.app()) as url:
        [notifier] = apprise_channel(url.replace("http://", "json://") + "/notify")
        with pytest.raises(NotifyError) as info:
            asyncio.run(notifier.send(Message(idempotency_key="msg_a", payload={"type": "test", "message": "hi"})))
    assert info.value.retryable and len(sink.bodies) == 1


def test_unreachable_apprise_endpoint_fails() -> None:
    [notifier] = apprise_channel(f"json://127.0.0.1:{free_port()}/notify", timeout=5)
    with pytest.raises(NotifyError):
        asyncio.run(notifier.send(Message(idempotency_key="msg_b", payload={"type": "test", "message": "hi"})))


def test_bad_apprise_urls_are_refused() -> None:
    with pytest.raises(ConfigError, match="Apprise does not accept the nosuchservice:// URL"):
        apprise_channel("nosuchservice://whatever")
    with pytest.raises(ConfigError, match="'urls' is required"):
        build_notifiers([ChannelConfig(type="apprise", options={})], {})


def test_missing_apprise_extra_is_a_clear_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "apprise", None)  # as if the 'chat' extra were not installed
    with pytest.raises(ConfigError, match=r"pip install 'watcher\[chat\]'"):
        apprise_channel("json://127.0.0.1/notify")
