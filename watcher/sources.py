"""The watch list in the database: add, find, remove, and sync from the config file."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from watcher.apis import API_KINDS, is_api_spec, parse_api_spec
from watcher.config import Config, WatchEntry
from watcher.errors import ConfigError
from watcher.store.models import Source

__all__ = [
    "SyncReport",
    "add_source",
    "canonical_location",
    "find_sources",
    "remove_source",
    "sync_sources",
]

_GITHUB = re.compile(r"^github:[\w.-]+/[\w.-]+(@[\w./-]+)?$")


def canonical_location(location: str) -> str:
    """Check and canonicalise what a user gives as a source: URL, ``github:`` spec or file."""
    location = location.strip()
    if is_api_spec(location):
        return str(parse_api_spec(location))
    if location.startswith("github:"):
        if not _GITHUB.match(location):
            raise ConfigError(f"not a repository spec: {location!r} (use github:OWNER/REPO[@BRANCH])")
        return location
    parts = urlsplit(location)
    if parts.scheme in {"http", "https"}:
        if not parts.netloc:
            raise ConfigError(f"not a URL: {location!r}")
        return location
    if parts.scheme == "file":
        return location
    if parts.scheme and len(parts.scheme) > 1:
        raise ConfigError(
            f"unsupported scheme {parts.scheme!r} in {location!r} "
            "(use http(s)://, github:, dblp:, arxiv:, openalex:, orcid: or a file)"
        )
    path = Path(location).expanduser().resolve()
    if not path.exists():
        raise ConfigError(f"no such file: {location} (give an http(s) URL, github:OWNER/REPO or an existing file)")
    return path.as_uri()


def default_name(location: str) -> str:
    """A readable name for a source when the user gives none."""
    if location.split(":", 1)[0] in API_KINDS:
        return location  # the canonical source string reads well as it is
    if location.startswith("github:"):
        return location.removeprefix("github:").split("@")[0]
    parts = urlsplit(location)
    if parts.scheme == "file":
        return Path(parts.path).stem
    path = parts.path.strip("/")
    return f"{parts.netloc}/{path}" if path else parts.netloc


def add_source(
    session: Session,
    location: str,
    *,
    now: datetime,
    name: str | None = None,
    extractor: str = "auto",
    every: timedelta = timedelta(hours=12),
    cron: str | None = None,
    timezone: str | None = None,
    obey_robots: bool = True,
    label: str | None = None,
    tags: Sequence[str] = (),
    from_config: bool = False,
) -> Source:
    """Add a source (or re-activate a removed one with the same URL); names are unique."""
    url = canonical_location(location)
    name = name or default_name(url)
    existing = session.scalars(select(Source).where(or_(Source.url == url, Source.name == name))).all()
    for source in existing:
        if source.active:
            which = "URL" if source.url == url else "name"
            raise ConfigError(f"a source with this {which} exists already: {source.name} ({source.url})")
    source = existing[0] if existing else Source(url=url, name=name, created_at=now, fetch_state={})
    source.url, source.name = url, name
    source.extractor = extractor
    source.every_seconds = int(every.total_seconds())
    source.cron, source.timezone = cron, timezone
    source.obey_robots = obey_robots
    source.label, source.tags = label, list(tags)
    source.from_config = from_config
    source.active = True
    source.next_due_at = None  # due at once
    if not existing:
        session.add(source)
    session.flush()
    return source


def find_sources(session: Session, refs: Sequence[str] = (), *, include_inactive: bool = False) -> list[Source]:
    """Sources named by NAME or URL (all active ones when ``refs`` is empty)."""
    query = select(Source).order_by(Source.name)
    if not include_inactive:
        query = query.where(Source.active.is_(True))
    if not refs:
        return list(session.scalars(query))
    found: list[Source] = []
    for ref in refs:
        candidates = {ref}
        with contextlib.suppress(ConfigError):
            candidates.add(canonical_location(ref))
        source = session.scalars(query.where(or_(Source.name.in_(candidates), Source.url.in_(candidates)))).first()
        if source is None:
            raise ConfigError(f"no source named {ref!r} (see `watcher list`)")
        found.append(source)
    return found


def remove_source(session: Session, ref: str) -> Source:
    """Stop checking a source; its items and changes stay in the history."""
    (source,) = find_sources(session, [ref])
    source.active = False
    source.lease_owner = source.lease_expires_at = None
    return source


@dataclass(frozen=True)
class SyncReport:
    added: tuple[str, ...]
    updated: tuple[str, ...]
    removed: tuple[str, ...]
    #: People and labs added, updated and removed (``watcher.people.sync_people``).
    people: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] = ((), (), ())


def _apply_entry(source: Source, entry: WatchEntry) -> bool:
    """Copy a watch entry's settings onto a source; True when anything changed."""
    wanted = {
        "extractor": entry.extractor,
        "every_seconds": int(entry.every.total_seconds()),
        "cron": entry.cron,
        "timezone": entry.timezone,
        "obey_robots": entry.obey_robots,
        "label": entry.label,
        "tags": list(entry.tags),
        "active": True,
        "from_config": True,
    }
    changed = False
    for attr, value in wanted.items():
        if getattr(source, attr) != value:
            setattr(source, attr, value)
            changed = True
    return changed


def sync_sources(session: Session, config: Config, now: datetime) -> SyncReport:
    """Make the database's config-managed sources match the config's watch list.

    Entries are matched by name, then by URL; sources added by hand (``watcher add``)
    are left alone; entries gone from the file are deactivated, their history kept. The
    ``people:`` list is synced too, and the sources its people name stay active.
    """
    added: list[str] = []
    updated: list[str] = []
    seen: set[int] = set()
    for entry in config.watch:
        url = canonical_location(entry.url)
        source = session.scalars(select(Source).where(Source.name == entry.name)).first()
        source = source or session.scalars(select(Source).where(Source.url == url)).first()
        if source is None:
            source = add_source(
                session, url, now=now, name=entry.name, extractor=entry.extractor, every=entry.every,
                cron=entry.cron, timezone=entry.timezone, obey_robots=entry.obey_robots,
                label=entry.label, tags=entry.tags, from_config=True,
            )
            added.append(entry.name)
        else:
            was_active = source.active
            moved = source.url != url or source.name != entry.name
            source.url, source.name = url, entry.name
            if _apply_entry(source, entry) or moved:
                updated.append(entry.name)
            if not was_active:
                source.next_due_at = None
        seen.add(source.id)
    from watcher.people import sync_people

    people = sync_people(session, config, now)
    seen |= people.source_ids  # a person's sources named by source string have no watch entry
    removed: list[str] = []
    for source in session.scalars(select(Source).where(Source.from_config.is_(True), Source.active.is_(True))):
        if source.id not in seen:
            source.active = False
            removed.append(source.name)
    session.flush()
    return SyncReport(tuple(added), tuple(updated), tuple(removed), (people.added, people.updated, people.removed))
