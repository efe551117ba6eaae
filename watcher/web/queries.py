"""What the dashboard and the API read from the database: changes by filter and keyset page,
sources with their health, one source or person, the outbox.

Every query is bounded (a page of changes, a page of sources, one source's items), so a
database of a million items answers as fast as a small one.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import String, and_, cast, func, literal_column, or_, select, text
from sqlalchemy.orm import Session, selectinload

from watcher.config import parse_duration
from watcher.errors import ConfigError
from watcher.people import person_source_ids
from watcher.records import KINDS
from watcher.report import change_to_json, item_fields
from watcher.store.models import Change, Delivery, DeliveryChange, Item, Snapshot, Source

__all__ = [
    "CHANGE_TYPES",
    "SOURCE_SORTS",
    "ChangeFilter",
    "SourceFilter",
    "changes_page",
    "decode_cursor",
    "delivery_rows",
    "encode_cursor",
    "monthly_changes",
    "parse_when",
    "search_condition",
    "source_detail",
    "source_items",
    "source_rows",
    "source_status",
    "text_search",
    "timeline",
]

CHANGE_TYPES = ("added", "removed", "modified")
MAX_LIMIT = 500


# -- changes ----------------------------------------------------------------------------------


def parse_when(text: str, now: datetime) -> datetime:
    """A duration back from now (``7d``) or an ISO date/time (UTC when it names no zone)."""
    try:
        return now - parse_duration(text)
    except ConfigError:
        pass
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise ConfigError(f"not a time: {text!r} (use an ISO date such as 2026-11-01, or a duration like 7d)") from exc
    return when if when.tzinfo else when.replace(tzinfo=now.tzinfo)


def encode_cursor(change: Change) -> str:
    """An opaque position after ``change`` in newest-first order: its time and id."""
    raw = f"{change.detected_at.isoformat()}|{change.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, _, ident = raw.partition("|")
        return datetime.fromisoformat(when), int(ident)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"not a cursor from this server: {cursor!r}") from exc


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@dataclass(frozen=True, kw_only=True)
class ChangeFilter:
    """Which changes to list; every field is optional. ``q`` searches the items' text."""

    kind: str | None = None
    change: str | None = None
    source: str | None = None
    person: str | None = None
    tag: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    q: str | None = None
    limit: int = 50
    cursor: str | None = None

    def __post_init__(self) -> None:
        if self.kind is not None and self.kind not in KINDS:
            raise ConfigError(f"kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.change is not None and self.change not in CHANGE_TYPES:
            raise ConfigError(f"change is one of {', '.join(CHANGE_TYPES)}, not {self.change!r}")
        if not 1 <= self.limit <= MAX_LIMIT:
            raise ConfigError(f"limit is from 1 to {MAX_LIMIT}, not {self.limit}")
        if self.cursor is not None:
            decode_cursor(self.cursor)

    def where(self, search: str = "scan", person_ids: Sequence[int] = ()) -> list[Any]:
        """The conditions; ``search`` is how the database searches text (``text_search``),
        ``person_ids`` the sources of ``person``, looked up first."""
        conditions: list[Any] = []
        if self.kind:
            conditions.append(Change.kind == self.kind)
        if self.change:
            conditions.append(Change.change == self.change)
        if self.source:
            conditions.append(Change.source_id == select(Source.id).where(Source.name == self.source).scalar_subquery())
        if self.person:
            # The ids themselves, not a subquery: the planner then reads those sources' changes
            # by their index instead of walking every change newest first (90 ms on PostgreSQL).
            conditions.append(Change.source_id.in_(person_ids))
        if self.tag:
            # Tags are a JSON list; its text holds each tag as a JSON string.
            tagged = cast(Source.tags, String).like(_like_pattern(json.dumps(self.tag)), escape="\\")
            conditions.append(Change.source_id.in_(select(Source.id).where(tagged)))
        if self.since:
            conditions.append(Change.detected_at >= self.since)
        if self.until:
            conditions.append(Change.detected_at < self.until)
        if self.q:
            conditions.append(search_condition(self.q, search))
        if self.cursor:
            when, ident = decode_cursor(self.cursor)
            conditions.append(or_(Change.detected_at < when, and_(Change.detected_at == when, Change.id < ident)))
        return conditions

    def page_after(self, cursor: str | None) -> ChangeFilter:
        return replace(self, cursor=cursor)


#: The text PostgreSQL's trigram index covers (migration 0006), written exactly as indexed.
_PG_SEARCH_TEXT = literal_column(
    "(coalesce(CAST(change.after AS TEXT), '') || ' ' || coalesce(CAST(change.before AS TEXT), ''))"
)


def text_search(session: Session) -> str:
    """How this database searches the changes' text: ``fts`` (SQLite's FTS5 trigram table),
    ``trigram`` (PostgreSQL: ILIKE, which pg_trgm's index serves when it exists) or ``scan``."""
    if session.get_bind().dialect.name == "postgresql":
        return "trigram"
    found = session.execute(text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'change_search'"))
    return "fts" if found.first() else "scan"


def search_condition(query: str, search: str) -> Any:
    """Changes whose item (before or after) contains ``query``, case-insensitively.

    The fields are stored as ASCII-escaped JSON text, so the query is escaped alike.
    """
    needle = json.dumps(query.strip())[1:-1]
    if search == "fts" and len(needle) >= 3:  # a trigram index needs three characters
        phrase = '"' + needle.replace('"', '""') + '"'
        matching = text("SELECT rowid FROM change_search WHERE change_search MATCH :phrase").bindparams(phrase=phrase)
        return Change.id.in_(matching)
    pattern = _like_pattern(needle)
    if search == "trigram":
        return _PG_SEARCH_TEXT.ilike(pattern, escape="\\")
    return or_(
        cast(Change.after, String).ilike(pattern, escape="\\"),
        cast(Change.before, String).ilike(pattern, escape="\\"),
    )


def changes_page(session: Session, filt: ChangeFilter) -> tuple[list[dict[str, Any]], str | None]:
    """One page of changes as diff JSON objects, newest first, and the cursor of the next page."""
    stmt = (
        select(Change, Source)
        .join(Source, Source.id == Change.source_id)
        .where(*filt.where(
            text_search(session) if filt.q else "scan",
            session.scalars(person_source_ids(filt.person)).all() if filt.person else (),
        ))
        .order_by(Change.detected_at.desc(), Change.id.desc())
        .limit(filt.limit + 1)
        .options(selectinload(Source.person))
    )
    rows = session.execute(stmt).all()
    more = len(rows) > filt.limit
    rows = rows[: filt.limit]
    changes = [change_to_json(change, source) for change, source in rows]
    return changes, encode_cursor(rows[-1][0]) if more else None


def timeline(session: Session, source_ids: Sequence[int], *, limit: int = 200) -> list[dict[str, Any]]:
    """The newest changes of some sources, as diff JSON objects."""
    if not source_ids:
        return []
    stmt = (
        select(Change, Source)
        .join(Source, Source.id == Change.source_id)
        .where(Change.source_id.in_(source_ids))
        .order_by(Change.detected_at.desc(), Change.id.desc())
        .limit(limit)
        .options(selectinload(Source.person))
    )
    return [change_to_json(change, source) for change, source in session.execute(stmt).all()]


def monthly_changes(session: Session, source_ids: Sequence[int]) -> dict[str, Counter[str]]:
    """Changes per month (``YYYY-MM``) by kind, of some sources."""
    months: dict[str, Counter[str]] = defaultdict(Counter)
    if source_ids:
        rows = session.execute(select(Change.detected_at, Change.kind).where(Change.source_id.in_(source_ids)))
        for when, kind in rows:
            months[f"{when.year:04d}-{when.month:02d}"][kind] += 1
    if not months:
        return {}
    # Every month from the first to the last, quiet ones too: the bars' spacing is time.
    year, month = map(int, min(months).split("-"))
    filled: dict[str, Counter[str]] = {}
    while (key := f"{year:04d}-{month:02d}") <= max(months):
        filled[key] = months.get(key, Counter())
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return filled


# -- sources ----------------------------------------------------------------------------------


def source_status(source: Source) -> tuple[str, str | None]:
    """A source's health in one word and why: ok, failing, suspect, paused, removed, new."""
    if not source.active:
        return "removed", None
    if source.paused:
        return "paused", None
    if source.failures or source.last_status == "error":
        return "failing", source.last_error
    if source.last_status == "suspect":
        return "suspect", source.last_error
    if source.last_checked_at is None:
        return "new", None
    return "ok", None


#: Sort keys of the sources table, and what each sorts by (a name breaks ties).
SOURCE_SORTS: dict[str, Any] = {
    "name": Source.name,
    "status": Source.last_status,
    "checked": Source.last_checked_at,
    "due": Source.next_due_at,
    "failures": Source.failures,
}
_STATUS_WHERE: dict[str, Any] = {
    "ok": and_(Source.active.is_(True), Source.paused.is_(False), Source.failures == 0,
               Source.last_status.not_in(["error", "suspect"])),
    "failing": and_(Source.active.is_(True), or_(Source.failures > 0, Source.last_status == "error")),
    "suspect": and_(Source.active.is_(True), Source.last_status == "suspect"),
    "paused": and_(Source.active.is_(True), Source.paused.is_(True)),
    "removed": Source.active.is_(False),
}  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class SourceFilter:
    status: str | None = None
    q: str | None = None
    sort: str = "name"
    descending: bool = False
    offset: int = 0
    limit: int = 100
    #: For keyset paging by name (the API): names after this one.
    after: str | None = None

    def __post_init__(self) -> None:
        if self.status is not None and self.status not in _STATUS_WHERE:
            raise ConfigError(f"status is one of {', '.join(_STATUS_WHERE)}, not {self.status!r}")
        if self.sort not in SOURCE_SORTS:
            raise ConfigError(f"sort is one of {', '.join(SOURCE_SORTS)}, not {self.sort!r}")
        if self.limit < 1 or self.offset < 0:
            raise ConfigError("a page holds at least one source and starts at 0 or later")


@dataclass(frozen=True, kw_only=True)
class SourceRow:
    """A source as the sources table and the API show it."""

    source: Source
    status: str
    reason: str | None
    counts: dict[str, int] = field(default_factory=dict)
    #: Changes per week, oldest first (the sparkline).
    weekly: list[int] = field(default_factory=list)

    @property
    def items(self) -> int:
        return sum(self.counts.values())

    def to_json(self) -> dict[str, Any]:
        s = self.source
        return {
            "name": s.name,
            "url": s.url,
            "person": s.person_name,
            "tags": list(s.tags or []),
            "extractor": (s.fetch_state or {}).get("extractor") or s.extractor,
            "status": self.status,
            "reason": self.reason,
            "items": self.items,
            "items_by_kind": dict(self.counts),
            "last_checked_at": _iso(s.last_checked_at),
            "last_status": s.last_status,
            "next_due_at": _iso(s.next_due_at),
            "failures": s.failures,
            "active": s.active,
            "paused": s.paused,
        }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def item_counts(session: Session, source_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    ids = list(source_ids)
    if ids:
        stmt = (
            select(Item.source_id, Item.kind, func.count())
            .where(Item.source_id.in_(ids), Item.removed_at.is_(None))
            .group_by(Item.source_id, Item.kind)
        )
        for source_id, kind, n in session.execute(stmt):
            counts[source_id][kind] = int(n)
    return counts


def weekly_changes(session: Session, source_ids: Iterable[int], now: datetime, weeks: int = 12) -> dict[int, list[int]]:
    """Changes per week over the last ``weeks`` weeks, per source."""
    ids = list(source_ids)
    start = now - timedelta(weeks=weeks)
    series = {i: [0] * weeks for i in ids}
    if ids:
        stmt = select(Change.source_id, Change.detected_at).where(
            Change.source_id.in_(ids), Change.detected_at >= start
        )
        for source_id, when in session.execute(stmt):
            week = min(int((when - start) / timedelta(weeks=1)), weeks - 1)
            series[source_id][week] += 1
    return series


def source_rows(session: Session, filt: SourceFilter, now: datetime) -> tuple[list[SourceRow], int]:
    """A page of sources with their counts and sparklines, and how many match in all."""
    where = [_STATUS_WHERE[filt.status]] if filt.status else []
    if filt.q:
        pattern = _like_pattern(filt.q.strip())
        where.append(or_(Source.name.ilike(pattern, escape="\\"), Source.url.ilike(pattern, escape="\\"),
                         Source.label.ilike(pattern, escape="\\")))  # fmt: skip
    total = int(session.scalar(select(func.count()).select_from(Source).where(*where)) or 0)
    if filt.after is not None:
        where.append(Source.name > filt.after)
    column = SOURCE_SORTS[filt.sort]
    order = column.desc().nulls_last() if filt.descending else column.asc().nulls_last()
    stmt = (
        select(Source).where(*where).order_by(order, Source.name).offset(filt.offset).limit(filt.limit)
        .options(selectinload(Source.person))
    )  # fmt: skip
    sources = list(session.scalars(stmt))
    counts = item_counts(session, (s.id for s in sources))
    weekly = weekly_changes(session, (s.id for s in sources), now)
    rows = []
    for s in sources:
        status, reason = source_status(s)
        rows.append(SourceRow(source=s, status=status, reason=reason, counts=counts.get(s.id, {}), weekly=weekly[s.id]))
    return rows, total


def source_items(session: Session, source: Source) -> list[dict[str, Any]]:
    """A source's current items as ``watcher show --format json`` lists them."""
    current = select(Item).where(Item.source_id == source.id, Item.removed_at.is_(None))
    rows = session.scalars(current.order_by(Item.kind, Item.position)).all()
    return [{"kind": row.kind, **item_fields(row.kind, row.fields)} for row in rows]


def source_detail(session: Session, name: str) -> Source | None:
    return session.scalars(select(Source).where(Source.name == name).options(selectinload(Source.person))).first()


def recent_snapshots(session: Session, source_id: int, limit: int = 10) -> list[Snapshot]:
    stmt = select(Snapshot).where(Snapshot.source_id == source_id).order_by(Snapshot.fetched_at.desc()).limit(limit)
    return list(session.scalars(stmt))


# -- deliveries -------------------------------------------------------------------------------


def delivery_rows(session: Session, limit: int = 200) -> list[tuple[Delivery, int]]:
    """Pending and failed deliveries, failed first then oldest first, with how many changes each carries."""
    stmt = (
        select(Delivery)
        .where(Delivery.status.in_(["pending", "failed"]))
        .order_by((Delivery.status == "failed").desc(), Delivery.id)
        .limit(limit)
    )
    deliveries = list(session.scalars(stmt))
    carried = dict(
        session.execute(
            select(DeliveryChange.delivery_id, func.count())
            .where(DeliveryChange.delivery_id.in_([d.id for d in deliveries]))
            .group_by(DeliveryChange.delivery_id)
        ).all()
    )
    return [(d, int(carried.get(d.id, 0))) for d in deliveries]
