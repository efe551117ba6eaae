"""Signed webhooks against a real receiver that verifies them with the Standard Webhooks library."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from notify_support import SECRET, T0, Clock, Receiver, add_change, add_source, make_db, paper
from servers import serve
from sqlalchemy import select

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify import WebhookNotifier, build_notifiers
from watcher.notify.base import Message
from watcher.notify.outbox import dispatch_pending, enqueue_changes
from watcher.store.models import Delivery


def webhook(url: str, environ: dict[str, str] | None = None, **options: Any) -> WebhookNotifier:
    channel = ChannelConfig(type="webhook", options={"url": url, "secret_env": "WH", **options})
    notifier = WebhookNotifier.from_config(channel, {"WH": SECRET} if environ is None else environ)
    return notifier


def test_retries_500_404_timeout_then_delivers_once_with_the_same_id(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver(script=[500, 404, ("sleep", 1.5), 200])
    with serve(receiver.app()) as url:
        channels = [webhook(f"{url}/hook", timeout=0.5)]
        with db.session() as s:
            jane = add_source(s, "jane", label="Jane Doe")
            changes = [
                add_change(s, jane, "paper", paper("Sparse Widgets", doi="10.1234/sw")),
                add_change(s, jane, "role", {"title": "Professor", "organization": "Uni"}),
            ]
            [delivery] = enqueue_changes(s, changes, channels, T0)
        clock = Clock()
        outcomes = []
        for _ in range(6):
            report = asyncio.run(dispatch_pending(db, channels, clock))
            outcomes.append((report.sent, report.retrying, report.failed))
            clock.advance(timedelta(hours=1))
    assert outcomes == [(0, 1, 0), (0, 1, 0), (0, 1, 0), (1, 0, 0), (0, 0, 0), (0, 0, 0)]
    assert [h.error for h in receiver.hits] == [None] * 4
    assert receiver.ids() == [delivery.idempotency_key] * 4
    body = receiver.hits[-1].verified
    assert body["type"] == "changes"
    assert [(c["source"], c["kind"], c["change"]) for c in body["changes"]] == [
        ("jane", "paper", "added"),
        ("jane", "role", "added"),
    ]
    assert body["changes"][0]["item"]["doi"] == "10.1234/sw"
    assert set(body["changes"][0]["item"]) == {"title", "authors", "venue", "year", "url", "doi", "arxiv"}
    headers = receiver.hits[-1].headers
    assert headers["Content-Type"] == "application/json"
    with db.session() as s:
        [row] = s.scalars(select(Delivery)).all()
        assert (row.status, row.attempts, row.last_error) == ("sent", 4, None)
        assert row.sent_at == T0 + timedelta(hours=3)


async def test_redirect_is_a_retryable_failure() -> None:
    receiver = Receiver()
    with serve(receiver.app()) as url:
        notifier = webhook(f"{url}/redirect")
        with pytest.raises(NotifyError) as info:
            await notifier.send(Message(idempotency_key="msg_x", payload={"type": "test", "message": "hi"}))
    assert info.value.retryable and "HTTP 302" in str(info.value)
    assert receiver.hits == []


async def test_unreachable_endpoint_is_a_retryable_failure() -> None:
    from notify_support import free_port

    notifier = webhook(f"http://127.0.0.1:{free_port()}/hook")
    with pytest.raises(NotifyError) as info:
        await notifier.send(Message(idempotency_key="msg_y"))
    assert info.value.retryable and "ConnectError" in str(info.value)


def test_signature_verifies_and_a_tampered_body_does_not() -> None:
    from standardwebhooks import Webhook, WebhookVerificationError

    from watcher.notify.webhook import signed_request
    from watcher.store.db import utcnow

    message = Message(idempotency_key="msg_1", changes=({"source": "jane", "kind": "paper"},))
    body, headers = signed_request(message, SECRET, utcnow())
    expected = {"type": "changes", "changes": [{"source": "jane", "kind": "paper"}]}
    assert Webhook(SECRET).verify(body, headers) == expected
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(body.replace(b"jane", b"john"), headers)


@pytest.mark.parametrize(
    ("options", "environ", "expected"),
    [
        ({"url": "http://x/hook", "secret_env": "WH"}, {}, "environment variable 'WH'"),
        ({"url": "http://x/hook", "secret_env": "WH"}, {"WH": "not base64 !"}, "whsec_"),
        ({"url": "http://x/hook", "secret_env": "WH"}, {"WH": "whsec_c2hvcnQ="}, "too short"),
        ({"url": "ftp://x/hook", "secret_env": "WH"}, {"WH": SECRET}, "http:// or https://"),
        ({"secret_env": "WH"}, {"WH": SECRET}, "'url' is required"),
        ({"url": "http://x/hook"}, {}, "'secret_env' is required"),
        ({"url": "http://x/hook", "secret_env": "WH", "secret": "x"}, {"WH": SECRET}, "unknown option 'secret'"),
        ({"url": "http://x/hook", "secret_env": "WH", "digest": "hourly"}, {"WH": SECRET}, "'digest' must be"),
        ({"url": "http://x/hook", "secret_env": "WH", "kinds": ["papers"]}, {"WH": SECRET}, "unknown kind"),
    ],
)
def test_bad_webhook_config_is_refused_clearly(options: dict, environ: dict, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        build_notifiers([ChannelConfig(type="webhook", options=options)], environ)


def test_plain_base64_secret_is_accepted() -> None:
    notifier = webhook("http://127.0.0.1/hook", {"WH": SECRET.removeprefix("whsec_")})
    assert notifier.target == "http://127.0.0.1/hook"
