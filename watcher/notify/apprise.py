"""Chat and other services through Apprise URLs (Slack, Discord, Matrix, Telegram, ntfy, …).

Options::

    type: apprise
    urls: [ntfy://ntfy.sh/my-topic, "slack://T000/B000/XXXX"]
    timeout: 30

Apprise is an optional extra (``pip install 'watcher[chat]'``); the channel refuses to
load, with a clear message, when it is missing. URLs often hold tokens, so only their
scheme is shown as the delivery target.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Mapping
from typing import Any

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify.base import Message, Notifier, Routing, option_list, parse_routing
from watcher.notify.render import render_text, subject_line

__all__ = ["AppriseNotifier"]


def _apprise_module() -> Any:
    try:
        return importlib.import_module("apprise")
    except ImportError as exc:
        raise ConfigError(
            "notify: channel type 'apprise' needs the optional extra: pip install 'watcher[chat]'"
        ) from exc


class AppriseNotifier(Notifier):
    """Sends the plain-text rendering of a message to every Apprise URL of the channel."""

    type = "apprise"
    options = frozenset({"urls", "timeout"})
    required = frozenset({"urls"})

    def __init__(self, *, name: str, routing: Routing, urls: tuple[str, ...], timeout: float = 30.0) -> None:
        super().__init__(name=name, routing=routing)
        self.urls = urls
        self.timeout = timeout

    @property
    def target(self) -> str:
        return "apprise:" + ",".join(sorted({url.split("://", 1)[0] for url in self.urls}))

    @classmethod
    def from_config(
        cls, channel: ChannelConfig, environ: Mapping[str, str], *, default_name: str | None = None
    ) -> AppriseNotifier:
        name, options = cls.checked_options(channel, default_name)
        where = cls.where(name)
        apprise = _apprise_module()
        urls = option_list(options["urls"], "urls", where)
        for url in urls:
            if not apprise.Apprise().add(url):
                scheme = url.split("://", 1)[0]
                raise ConfigError(f"{where}: Apprise does not accept the {scheme}:// URL (check its form)")
        try:
            timeout = float(options.get("timeout") or 30)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: 'timeout' must be a number of seconds") from exc
        return cls(name=name, routing=parse_routing(options, where), urls=urls, timeout=timeout)

    async def send(self, message: Message) -> None:
        apprise = _apprise_module()
        client = apprise.Apprise()
        client.add(list(self.urls))
        notify_type = apprise.NotifyType.WARNING if message.type == "alert" else apprise.NotifyType.INFO
        try:
            result = await asyncio.wait_for(
                client.async_notify(body=render_text(message), title=subject_line(message), notify_type=notify_type),
                timeout=self.timeout,
            )
        except TimeoutError as exc:
            raise NotifyError(f"{self.name}: Apprise timed out after {self.timeout:g}s", retryable=True) from exc
        if not result:
            raise NotifyError(f"{self.name}: Apprise could not deliver to {self.target}", retryable=True)
