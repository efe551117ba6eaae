"""Webhooks signed per the Standard Webhooks specification.

Options::

    type: webhook
    url: https://example.org/hook
    secret_env: WATCHER_WEBHOOK_SECRET   # whsec_<base64>, or plain base64
    timeout: 10                          # seconds, for the whole request

The body is ``{"type": "changes", "changes": [...]}`` (alerts: ``{"type": "alert", ...}``).
``webhook-id`` is the delivery's idempotency key, the same on every retry, so a receiver
deduplicates; delivery is at-least-once. Only a 2xx answer counts as delivered: a redirect,
a 404 or a timeout is a failure that the outbox retries.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from datetime import datetime

import httpx
from standardwebhooks import Webhook

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify.base import Message, Notifier, Routing, parse_routing, secret_from_env
from watcher.notify.render import safe_link
from watcher.store.db import utcnow

__all__ = ["WebhookNotifier", "signed_request"]

USER_AGENT = "watcher-webhook/1"


def _check_secret(secret: str, where: str) -> str:
    raw = secret.removeprefix("whsec_")
    try:
        decoded = base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ConfigError(f"{where}: the webhook secret must be 'whsec_' followed by base64") from exc
    if len(decoded) < 16:
        raise ConfigError(f"{where}: the webhook secret is too short (use at least 16 random bytes)")
    return secret


def signed_request(message: Message, secret: str, timestamp: datetime) -> tuple[bytes, dict[str, str]]:
    """The exact body bytes and the Standard Webhooks headers for ``message``."""
    body = json.dumps(message.json_body(), ensure_ascii=False, separators=(",", ":"))
    msg_id = message.idempotency_key
    headers = {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(timestamp.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id, timestamp, body),
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }
    return body.encode("utf-8"), headers


class WebhookNotifier(Notifier):
    """POSTs signed JSON to one URL."""

    type = "webhook"
    options = frozenset({"url", "secret_env", "timeout"})
    required = frozenset({"url", "secret_env"})

    def __init__(
        self,
        *,
        name: str,
        routing: Routing,
        url: str,
        secret: str,
        timeout: float = 10.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        super().__init__(name=name, routing=routing)
        self.url = url
        self.secret = secret
        self.timeout = timeout
        # The signature timestamp is wall-clock time: receivers reject stale ones.
        self.clock = clock

    @property
    def target(self) -> str:
        return self.url

    @classmethod
    def from_config(
        cls, channel: ChannelConfig, environ: Mapping[str, str], *, default_name: str | None = None
    ) -> WebhookNotifier:
        name, options = cls.checked_options(channel, default_name)
        where = cls.where(name)
        url = safe_link(str(options["url"]))
        if url is None:
            raise ConfigError(f"{where}: 'url' must be an http:// or https:// URL, got {options['url']!r}")
        secret = secret_from_env(options, "secret_env", environ, where)
        assert secret is not None  # required option, checked above
        try:
            timeout = float(options.get("timeout") or 10)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: 'timeout' must be a number of seconds") from exc
        return cls(
            name=name, routing=parse_routing(options, where), url=url, secret=_check_secret(secret, where),
            timeout=timeout,
        )

    async def send(self, message: Message) -> None:
        body, headers = signed_request(message, self.secret, self.clock())
        try:
            async with httpx.AsyncClient(timeout=httpx.Timeout(self.timeout), follow_redirects=False) as client:
                response = await client.post(self.url, content=body, headers=headers)
        except httpx.TimeoutException as exc:
            raise NotifyError(f"{self.name}: {self.url} timed out after {self.timeout:g}s", retryable=True) from exc
        except httpx.HTTPError as exc:
            raise NotifyError(f"{self.name}: {self.url}: {type(exc).__name__}: {exc}", retryable=True) from exc
        if not response.is_success:
            raise NotifyError(f"{self.name}: {self.url} answered HTTP {response.status_code}", retryable=True)
