"""Notifications: the outbox, the channels (email, webhook, Apprise) and the Atom feed.

``NOTIFIERS`` is the frozen registry of channel types, built from the ``Notifier``
subclasses when this package is imported; ``build_notifiers`` turns the config's
``notify:`` list into notifiers, refusing bad entries with a ``ConfigError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from watcher.config import ChannelConfig
from watcher.errors import ConfigError
from watcher.notify.apprise import AppriseNotifier
from watcher.notify.base import Message, Notifier, Routing
from watcher.notify.email import EmailNotifier
from watcher.notify.outbox import (
    DispatchHooks,
    DispatchReport,
    backoff_delay,
    clear_operator_alert,
    dispatch_pending,
    enqueue_changes,
    enqueue_operator_alert,
)
from watcher.notify.webhook import WebhookNotifier

__all__ = [
    "NOTIFIERS",
    "AppriseNotifier",
    "DispatchHooks",
    "DispatchReport",
    "EmailNotifier",
    "Message",
    "Notifier",
    "Routing",
    "WebhookNotifier",
    "backoff_delay",
    "build_notifiers",
    "clear_operator_alert",
    "dispatch_pending",
    "enqueue_changes",
    "enqueue_operator_alert",
]

NOTIFIERS: Mapping[str, type[Notifier]] = MappingProxyType({cls.type: cls for cls in Notifier.__subclasses__()})


def _default_names(channels: Sequence[ChannelConfig]) -> list[str]:
    """The type when it is used once, else ``type-1``, ``type-2``, … in file order."""
    totals = Counter(c.type for c in channels)
    seen: Counter[str] = Counter()
    names = []
    for channel in channels:
        seen[channel.type] += 1
        names.append(channel.type if totals[channel.type] == 1 else f"{channel.type}-{seen[channel.type]}")
    return names


def build_notifiers(
    channels: Sequence[ChannelConfig],
    environ: Mapping[str, str],
    *,
    registry: Mapping[str, type[Notifier]] = NOTIFIERS,
) -> list[Notifier]:
    """One notifier per configured channel; ``ConfigError`` for an unknown type or bad options."""
    notifiers: list[Notifier] = []
    for index, (channel, default_name) in enumerate(zip(channels, _default_names(channels), strict=True)):
        cls = registry.get(channel.type)
        if cls is None:
            raise ConfigError(
                f"notify[{index}]: unknown channel type {channel.type!r} (known: {', '.join(sorted(registry))})"
            )
        notifiers.append(cls.from_config(channel, environ, default_name=default_name))
    names = [n.name for n in notifiers]
    if dup := next((n for n in names if names.count(n) > 1), None):
        raise ConfigError(f"notify: the channel name {dup!r} is used twice (set distinct 'name's)")
    return notifiers
