"""The notifier contract: a message, a channel's routing rules, and the option checks they share.

A channel in the config file is a mapping with a ``type`` (``email``, ``webhook``,
``apprise``), the options its notifier needs, and routing options every channel accepts:

``name``
    the channel's name in the outbox (defaults to the type, numbered when repeated);
    keep it stable, pending deliveries refer to it.
``sources`` / ``tags``
    only changes of these watches (by name) or of watches with one of these tags.
``kinds``
    only these kinds of items (``paper``, ``role``, ``news``, ``award``, ``member``).
``only``
    ``added`` (or a list of ``added``/``removed``/``modified``): only these changes.
``digest``
    ``immediate`` (default), ``daily`` or ``weekly``; ``digest_at: "08:00"`` and
    ``timezone: Europe/Paris`` set when a digest goes out (weekly: on Mondays).
``operator``
    ``true`` marks the channels that receive operator alerts (failing or suspect
    sources); when no channel is marked, every channel receives them.
``give_up_after``
    how long a failing delivery is retried before it is marked ``failed`` (``3d`` by
    default; a duration like ``12h`` or ``7d``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from watcher.config import ChannelConfig, parse_duration
from watcher.errors import ConfigError
from watcher.records import KINDS
from watcher.store.models import Change, Source

__all__ = [
    "COMMON_OPTIONS",
    "DIGEST_MODES",
    "Message",
    "Notifier",
    "Routing",
    "check_options",
    "option_list",
    "parse_routing",
    "secret_from_env",
]

DIGEST_MODES = ("immediate", "daily", "weekly")
#: How long a failing delivery is retried by default.
GIVE_UP_AFTER = timedelta(days=3)
CHANGE_TYPES = ("added", "removed", "modified")
COMMON_OPTIONS = frozenset(
    {"name", "sources", "tags", "kinds", "only", "digest", "digest_at", "timezone", "operator", "give_up_after"}
)


@dataclass(frozen=True, kw_only=True)
class Message:
    """What one delivery carries to a channel.

    ``changes`` are diff JSON objects (``watcher.report.change_to_json``); ``labels`` maps
    a source name to its person/lab label for display. ``payload`` is set for messages
    that are not plain change lists: ``{"type": "alert", ...}``, ``{"type": "test", ...}``,
    or ``{"type": "digest", "period": "daily"}`` for a digest of changes.
    """

    idempotency_key: str
    delivery_id: int | None = None
    changes: tuple[dict[str, Any], ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict)
    payload: Mapping[str, Any] | None = None

    @property
    def type(self) -> str:
        """``changes`` (digests included), ``alert`` or ``test``."""
        kind = (self.payload or {}).get("type", "changes")
        return "changes" if kind == "digest" else str(kind)

    def json_body(self) -> dict[str, Any]:
        """The JSON document a machine receiver gets (the webhook body)."""
        if self.type == "changes":
            return {"type": "changes", "changes": list(self.changes)}
        return dict(self.payload or {})

    def label_of(self, source_name: str) -> str:
        return self.labels.get(source_name) or source_name


@dataclass(frozen=True, kw_only=True)
class Routing:
    """Which changes a channel receives, and when (immediately or as a digest)."""

    sources: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()
    changes: frozenset[str] = frozenset()
    digest: str = "immediate"
    digest_at: time = time(8, 0)
    timezone: str = "UTC"
    operator: bool = False
    #: Retry a failing delivery this long (from its creation, or a digest's due time).
    give_up_after: timedelta = GIVE_UP_AFTER

    def accepts(self, change: Change, source: Source) -> bool:
        """Whether ``change`` of ``source`` goes to this channel (empty filters accept all)."""
        if (self.sources or self.tags) and not (
            source.name in self.sources or self.tags.intersection(source.tags or ())
        ):
            return False
        if self.kinds and change.kind not in self.kinds:
            return False
        return not (self.changes and change.change not in self.changes)

    @property
    def is_digest(self) -> bool:
        return self.digest != "immediate"

    def next_digest_time(self, now: datetime) -> datetime:
        """The next time (strictly after ``now``) this channel's digest goes out."""
        zone = ZoneInfo(self.timezone)
        local = now.astimezone(zone)
        at = datetime.combine(local.date(), self.digest_at, tzinfo=zone)
        if self.digest == "weekly":
            at -= timedelta(days=local.weekday())
            step = timedelta(days=7)
        else:
            step = timedelta(days=1)
        while at <= local:
            at += step
        return at.astimezone(now.tzinfo)


class Notifier(ABC):
    """A delivery channel, built from one config entry and registered by its ``type``.

    Subclasses set ``type`` and ``options`` (their own option keys, the common routing
    keys are added), implement ``from_config`` and ``send``. ``send`` raises ``NotifyError``
    with ``retryable`` telling the dispatcher whether to try again later.
    """

    type: ClassVar[str]
    options: ClassVar[frozenset[str]] = frozenset()
    required: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *, name: str, routing: Routing) -> None:
        self.name = name
        self.routing = routing

    @property
    @abstractmethod
    def target(self) -> str:
        """Where messages go, without secrets (recorded on each delivery, shown to the user)."""

    @classmethod
    @abstractmethod
    def from_config(
        cls, channel: ChannelConfig, environ: Mapping[str, str], *, default_name: str | None = None
    ) -> Notifier:
        """Validate ``channel.options`` and build the notifier; ``ConfigError`` when invalid."""

    @abstractmethod
    async def send(self, message: Message) -> None:
        """Deliver ``message`` once; raise ``NotifyError`` when it was not accepted."""

    @classmethod
    def where(cls, name: str | None) -> str:
        return f"notify[{name or cls.type}]"

    @classmethod
    def checked_options(cls, channel: ChannelConfig, default_name: str | None) -> tuple[str, Mapping[str, Any]]:
        """The channel's name and options after the unknown/missing key checks."""
        options = channel.options
        name = str(options.get("name") or default_name or cls.type)
        check_options(options, cls.options | COMMON_OPTIONS, cls.required, cls.where(name))
        return name, options

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} → {self.target}>"


def check_options(options: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str], where: str) -> None:
    """Refuse unknown keys and missing required ones, naming the channel."""
    allowed = set(allowed)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown option {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    missing = sorted(key for key in required if options.get(key) in (None, "", [], {}))
    if missing:
        raise ConfigError(f"{where}: {missing[0]!r} is required")


def option_list(value: Any, key: str, where: str) -> tuple[str, ...]:
    """A string or a list of strings, as a tuple."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return tuple(str(v) for v in value)
    raise ConfigError(f"{where}: {key!r} must be a string or a list of strings")


def secret_from_env(options: Mapping[str, Any], key: str, environ: Mapping[str, str], where: str) -> str | None:
    """The secret named by the env-var option ``key`` (secrets never live in the file)."""
    var = options.get(key)
    if not var:
        return None
    value = environ.get(str(var))
    if not value:
        raise ConfigError(f"{where}: the environment variable {var!r} named by {key!r} is not set")
    return value


def _parse_time(value: Any, where: str) -> time:
    try:
        return time.fromisoformat(str(value))
    except ValueError as exc:
        raise ConfigError(f"{where}: 'digest_at' must be a time like 08:00, got {value!r}") from exc


def parse_routing(options: Mapping[str, Any], where: str) -> Routing:
    """The common routing options of a channel."""
    kinds = option_list(options.get("kinds"), "kinds", where)
    if bad := [k for k in kinds if k not in KINDS]:
        raise ConfigError(f"{where}: unknown kind {bad[0]!r} in 'kinds' (known: {', '.join(KINDS)})")
    only = option_list(options.get("only"), "only", where)
    if bad := [c for c in only if c not in CHANGE_TYPES]:
        raise ConfigError(f"{where}: 'only' must be one of {', '.join(CHANGE_TYPES)}, got {bad[0]!r}")
    digest = str(options.get("digest") or "immediate")
    if digest not in DIGEST_MODES:
        raise ConfigError(f"{where}: 'digest' must be one of {', '.join(DIGEST_MODES)}, got {digest!r}")
    zone = str(options.get("timezone") or "UTC")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"{where}: unknown timezone {zone!r}") from exc
    operator = options.get("operator", False)
    if not isinstance(operator, bool):
        raise ConfigError(f"{where}: 'operator' must be true or false")
    try:
        give_up_after = parse_duration(options["give_up_after"]) if "give_up_after" in options else GIVE_UP_AFTER
    except ConfigError as exc:
        raise ConfigError(f"{where}: 'give_up_after': {exc}") from exc
    return Routing(
        give_up_after=give_up_after,
        sources=frozenset(option_list(options.get("sources"), "sources", where)),
        tags=frozenset(option_list(options.get("tags"), "tags", where)),
        kinds=frozenset(kinds),
        changes=frozenset(only),
        digest=digest,
        digest_at=_parse_time(options.get("digest_at") or "08:00", where),
        timezone=zone,
        operator=operator,
    )
