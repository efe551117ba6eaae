"""The YAML config file: database, defaults, notification channels and the watch list.

Parsing is strict: an unknown key or a bad value is a ``ConfigError`` naming the key and
its place, so a typo never silently drops a watch or a notification channel.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml

from watcher.errors import ConfigError

__all__ = ["ChannelConfig", "Config", "PersonEntry", "WatchEntry", "WebConfig", "load_config", "parse_duration"]

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d|w)", re.I)
_UNIT_SECONDS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str | int | float) -> timedelta:
    """``"6h"``, ``"90m"``, ``"1d12h"``, ``"7d"`` or seconds as a number."""
    if isinstance(text, int | float):
        return timedelta(seconds=float(text))
    raw = str(text).strip()
    pos, total = 0, 0.0
    for match in _DURATION.finditer(raw):
        if raw[pos : match.start()].strip():
            break
        total += float(match[1]) * _UNIT_SECONDS[match[2].lower()]
        pos = match.end()
    if pos == 0 or raw[pos:].strip() or total <= 0:
        raise ConfigError(f"not a duration: {text!r} (use e.g. 30m, 6h, 7d)")
    return timedelta(seconds=total)


@dataclass(frozen=True, kw_only=True)
class WatchEntry:
    name: str
    url: str
    extractor: str = "auto"
    every: timedelta = timedelta(hours=12)
    cron: str | None = None
    timezone: str | None = None
    obey_robots: bool = True
    label: str | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PersonEntry:
    """A person or lab of the ``people:`` list and the sources it owns: watch names or source
    strings (URLs, ``github:``, ``dblp:``, ``arxiv:``, ``openalex:``, ``orcid:``)."""

    name: str
    kind: str = "person"
    sources: tuple[str, ...] = ()
    #: How often the sources this entry adds (source strings not in the watch list) are checked.
    every: timedelta = timedelta(hours=12)


@dataclass(frozen=True, kw_only=True)
class ChannelConfig:
    """One notification channel; ``options`` holds the type-specific keys as written."""

    type: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class WebConfig:
    """The ``web:`` section: where the dashboard listens, which environment variable holds its
    token (never the token itself), and whether its write actions are on."""

    host: str = "127.0.0.1"
    port: int = 8465
    token_env: str | None = None
    allow_writes: bool = False


@dataclass(frozen=True, kw_only=True)
class Config:
    path: Path | None = None
    database: str | None = None
    every: timedelta = timedelta(hours=12)
    notify: tuple[ChannelConfig, ...] = ()
    watch: tuple[WatchEntry, ...] = ()
    people: tuple[PersonEntry, ...] = ()
    #: The ``fetch:`` section: ``FetchSettings`` fields (politeness, timeouts, caps) as written.
    fetch: Mapping[str, Any] = field(default_factory=dict)
    #: The ``read:`` section: ``watcher.budget.ReadSettings`` fields (one page's time and size budget).
    read: Mapping[str, Any] = field(default_factory=dict)
    web: WebConfig = field(default_factory=WebConfig)
    #: Top-level keys other stages own (e.g. ``daemon:``), passed through unparsed.
    extra: Mapping[str, Any] = field(default_factory=dict)


_TOP_KEYS = {"database", "defaults", "fetch", "read", "notify", "watch", "people", "apis", "daemon", "operator", "web"}
#: The fetch settings a config may set (``watcher.fetch.FetchSettings`` checks their values).
FETCH_KEYS = {
    "user_agent", "connect_timeout", "read_timeout", "deadline", "max_bytes", "max_redirects",
    "per_host_limit", "host_delay", "max_crawl_delay", "retries", "retry_after_cap", "max_concurrency",
}
#: The reading budget a config may set (``watcher.budget.ReadSettings`` checks their values).
READ_KEYS = {"seconds", "max_chars", "max_elements", "max_lines"}
_WATCH_KEYS = {"name", "url", "extractor", "every", "cron", "timezone", "robots", "label", "tags"}
_PERSON_KEYS = {"name", "kind", "sources", "every"}
_PERSON_KINDS = ("person", "lab")
#: ``apis:`` settings per API (secrets are named by an environment variable, never written here).
_API_KEYS = {"openalex": {"mailto", "api_key_env"}}
_WEB_KEYS = {"host", "port", "token_env", "allow_writes"}
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _require_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected a mapping, got {type(value).__name__}")
    return value


def _check_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _parse_watch(raw: Any, index: int, default_every: timedelta) -> WatchEntry:
    where = f"watch[{index}]"
    data = _require_mapping(raw, where)
    _check_keys(data, _WATCH_KEYS, where)
    if not data.get("url"):
        raise ConfigError(f"{where}: 'url' is required")
    url = str(data["url"])
    name = str(data.get("name") or url)
    tags = data.get("tags") or ()
    if isinstance(tags, str):
        tags = (tags,)
    return WatchEntry(
        name=name,
        url=url,
        extractor=str(data.get("extractor") or "auto"),
        every=parse_duration(data["every"]) if data.get("every") else default_every,
        cron=data.get("cron"),
        timezone=data.get("timezone"),
        obey_robots=bool(data.get("robots", True)),
        label=data.get("label"),
        tags=tuple(str(t) for t in tags),
    )


def _parse_person(raw: Any, index: int, default_every: timedelta) -> PersonEntry:
    where = f"people[{index}]"
    data = _require_mapping(raw, where)
    _check_keys(data, _PERSON_KEYS, where)
    name = str(data.get("name") or "").strip()
    if not name:
        raise ConfigError(f"{where}: 'name' is required")
    kind = str(data.get("kind") or "person")
    if kind not in _PERSON_KINDS:
        raise ConfigError(f"{where}: 'kind' is person or lab, not {kind!r}")
    sources = data.get("sources") or ()
    if isinstance(sources, str) or not all(isinstance(s, str) and s.strip() for s in sources):
        raise ConfigError(f"{where}: 'sources' is a list of watch names or source strings")
    return PersonEntry(
        name=name,
        kind=kind,
        sources=tuple(s.strip() for s in sources),
        every=parse_duration(data["every"]) if data.get("every") else default_every,
    )


def _parse_apis(raw: Any) -> dict[str, Any]:
    apis = _require_mapping(raw, "apis")
    _check_keys(apis, set(_API_KEYS), "apis")
    for api, allowed in _API_KEYS.items():
        settings = _require_mapping(apis.get(api) or {}, f"apis.{api}")
        _check_keys(settings, allowed, f"apis.{api}")
        for key, value in settings.items():
            if not isinstance(value, str):
                raise ConfigError(f"apis.{api}.{key}: expected text, got {value!r}")
    return dict(apis)


def _parse_fetch(raw: Any) -> dict[str, Any]:
    fetch = _require_mapping(raw, "fetch")
    _check_keys(fetch, FETCH_KEYS, "fetch")
    for key, value in fetch.items():
        wanted = str if key == "user_agent" else (int, float)
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise ConfigError(f"fetch.{key}: expected {'text' if wanted is str else 'a number'}, got {value!r}")
    return dict(fetch)


def _parse_read(raw: Any) -> dict[str, Any]:
    read = _require_mapping(raw, "read")
    _check_keys(read, READ_KEYS, "read")
    for key, value in read.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"read.{key}: expected a positive number, got {value!r}")
    return dict(read)


def _parse_web(raw: Any) -> WebConfig:
    web = _require_mapping(raw, "web")
    _check_keys(web, _WEB_KEYS, "web")
    defaults = WebConfig()
    host = web.get("host", defaults.host)
    if not isinstance(host, str) or not host.strip():
        raise ConfigError(f"web.host: expected an address such as 127.0.0.1, got {host!r}")
    port = web.get("port", defaults.port)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise ConfigError(f"web.port: expected a port number from 1 to 65535, got {port!r}")
    token_env = web.get("token_env")
    if token_env is not None and (not isinstance(token_env, str) or not _ENV_NAME.fullmatch(token_env)):
        raise ConfigError(f"web.token_env: expected the name of an environment variable, got {token_env!r}")
    allow_writes = web.get("allow_writes", False)
    if not isinstance(allow_writes, bool):
        raise ConfigError(f"web.allow_writes: expected true or false, got {allow_writes!r}")
    return WebConfig(host=host.strip(), port=port, token_env=token_env, allow_writes=allow_writes)


def parse_config(data: Any, path: Path | None = None) -> Config:
    """Validate a loaded YAML document into a ``Config``."""
    if data is None:
        data = {}
    data = _require_mapping(data, str(path or "config"))
    _check_keys(data, _TOP_KEYS, str(path or "config"))
    defaults = _require_mapping(data.get("defaults") or {}, "defaults")
    _check_keys(defaults, {"every"}, "defaults")
    every = parse_duration(defaults.get("every", "12h"))
    notify = []
    for i, raw in enumerate(data.get("notify") or []):
        channel = _require_mapping(raw, f"notify[{i}]")
        if not channel.get("type"):
            raise ConfigError(f"notify[{i}]: 'type' is required (email, webhook, apprise)")
        options = {k: v for k, v in channel.items() if k != "type"}
        notify.append(ChannelConfig(type=str(channel["type"]), options=options))
    fetch = _parse_fetch(data.get("fetch") or {})
    read = _parse_read(data.get("read") or {})
    watch = [_parse_watch(raw, i, every) for i, raw in enumerate(data.get("watch") or [])]
    names = [w.name for w in watch]
    if dup := next((n for n in names if names.count(n) > 1), None):
        raise ConfigError(f"watch: the name {dup!r} is used twice")
    people = [_parse_person(raw, i, every) for i, raw in enumerate(data.get("people") or [])]
    person_names = [p.name for p in people]
    if dup := next((n for n in person_names if person_names.count(n) > 1), None):
        raise ConfigError(f"people: the name {dup!r} is used twice")
    extra = {k: data[k] for k in ("daemon", "operator") if k in data}
    if data.get("apis"):
        extra["apis"] = _parse_apis(data["apis"])
    return Config(
        path=path,
        database=data.get("database"),
        every=every,
        notify=tuple(notify),
        watch=tuple(watch),
        people=tuple(people),
        fetch=dict(fetch),
        read=read,
        web=_parse_web(data.get("web") or {}),
        extra=extra,
    )


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate the YAML file at ``path``."""
    file = Path(path).expanduser()
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {file}: {exc.strerror}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise ConfigError(f"config {file} is not valid YAML{where}") from exc
    return parse_config(data, file)
