"""Typed SQLAlchemy 2 models: sources, snapshots and their bodies, items, changes, deliveries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

__all__ = [
    "Base",
    "Body",
    "Change",
    "Delivery",
    "DeliveryChange",
    "Host",
    "Item",
    "Person",
    "PersonSource",
    "Snapshot",
    "Source",
    "Work",
    "WorkItem",
    "is_modelled",
]

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: What the migrations build beside the models, for searching the changes' text (migration
#: 0006): SQLite's FTS5 table and its shadow tables, PostgreSQL's trigram index.
SEARCH_OBJECTS = frozenset({
    "change_search", "change_search_data", "change_search_idx", "change_search_docsize", "change_search_config",
    "ix_change_search",
})  # fmt: skip


def is_modelled(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """Alembic's ``include_object``: leave the search index out of model comparisons."""
    return name not in SEARCH_OBJECTS


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


intpk = Annotated[int, mapped_column(Integer, primary_key=True, autoincrement=True)]
timestamp = Annotated[datetime, mapped_column(UTCDateTime)]
json_dict = Annotated[dict[str, Any], mapped_column(JSON)]


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Person(Base):
    """A person or lab whose sources are read together: a paper seen on several of them is one
    paper, reported once (see ``watcher.works``)."""

    __tablename__ = "person"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(200), unique=True)
    #: person | lab
    kind: Mapped[str] = mapped_column(String(16), default="person")
    #: Whether the person came from the config's ``people:`` list (``watcher sync`` manages those).
    from_config: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[timestamp]

    sources: Mapped[list[Source]] = relationship(secondary="person_source", back_populates="person")


class PersonSource(Base):
    """Which person or lab owns a source (a source has at most one)."""

    __tablename__ = "person_source"

    source_id: Mapped[int] = mapped_column(ForeignKey("source.id", ondelete="CASCADE"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)


class Source(Base):
    """A watched page, file, repository or index record, and its scheduling state."""

    __tablename__ = "source"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(200), unique=True)
    url: Mapped[str] = mapped_column(String(2000), unique=True)
    #: Free text naming the person or lab, used as the person when no ``Person`` owns the source.
    label: Mapped[str | None] = mapped_column(String(200))
    extractor: Mapped[str] = mapped_column(String(64), default="auto")
    every_seconds: Mapped[int] = mapped_column(Integer, default=12 * 3600)
    cron: Mapped[str | None] = mapped_column(String(120))
    timezone: Mapped[str | None] = mapped_column(String(64))
    obey_robots: Mapped[bool] = mapped_column(default=True)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: Whether the source came from the config file (``watcher sync`` manages those).
    from_config: Mapped[bool] = mapped_column(default=False)
    #: False once removed: history is kept, checks stop.
    active: Mapped[bool] = mapped_column(default=True)
    #: Paused from the dashboard: still watched and listed, not checked until resumed.
    paused: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[timestamp]

    next_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    lease_owner: Mapped[str | None] = mapped_column(String(120))
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    last_checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: new | changed | unchanged | baseline | suspect | error
    last_status: Mapped[str | None] = mapped_column(String(32))
    last_error: Mapped[str | None] = mapped_column(Text)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    #: The check that last recorded changes; ``watcher diff`` shows its changes by default.
    last_change_check_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: HTTP validators and, for repositories, the tree etag and blob shas.
    fetch_state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Set once the operator was told this source is failing or suspect (alert once).
    alerted: Mapped[str | None] = mapped_column(String(32))

    items: Mapped[list[Item]] = relationship(back_populates="source", cascade="all, delete-orphan")
    person: Mapped[Person | None] = relationship(secondary="person_source", back_populates="sources")

    @property
    def person_name(self) -> str | None:
        """Whom the source is about: its person's name, else its label."""
        return self.person.name if self.person is not None else self.label


class Body(Base):
    """A compressed page body, stored once per distinct content hash."""

    __tablename__ = "body"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class RobotsTxt(Base):
    """An origin's robots.txt as last fetched, reused across checks for a day (RFC 9309 allows 24 h).

    ``body`` is ``None`` when the origin answered 4xx: no rules, everything allowed.
    """

    __tablename__ = "robots_txt"

    origin: Mapped[str] = mapped_column(String(300), primary_key=True)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)
    body: Mapped[str | None] = mapped_column(Text)


class Snapshot(Base):
    """One fetch of a source and what came of it."""

    __tablename__ = "snapshot"
    __table_args__ = (Index("ix_snapshot_source_fetched", "source_id", "fetched_at"),)

    id: Mapped[intpk]
    source_id: Mapped[int] = mapped_column(ForeignKey("source.id", ondelete="CASCADE"))
    fetched_at: Mapped[timestamp]
    status: Mapped[int | None] = mapped_column(Integer)
    etag: Mapped[str | None] = mapped_column(String(500))
    last_modified: Mapped[str | None] = mapped_column(String(100))
    content_hash: Mapped[str | None] = mapped_column(String(64), ForeignKey("body.hash"))
    extractor: Mapped[str | None] = mapped_column(String(64))
    extractor_version: Mapped[int | None] = mapped_column(Integer)
    item_count: Mapped[int | None] = mapped_column(Integer)
    #: new | changed | unchanged | baseline | suspect | error
    outcome: Mapped[str] = mapped_column(String(32))
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int | None] = mapped_column(Integer)


class Item(Base):
    """The current state of one item (paper, role, news, award, member) of a source."""

    __tablename__ = "item"
    __table_args__ = (UniqueConstraint("source_id", "kind", "key", name="uq_item_source_kind_key"),)

    id: Mapped[intpk]
    source_id: Mapped[int] = mapped_column(ForeignKey("source.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(1000))
    fields: Mapped[json_dict]
    position: Mapped[int] = mapped_column(Integer, default=0)
    first_seen: Mapped[timestamp]
    last_seen: Mapped[timestamp]
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    source: Mapped[Source] = relationship(back_populates="items")


class Change(Base):
    """One reported change of one item."""

    __tablename__ = "change"
    __table_args__ = (Index("ix_change_source_detected", "source_id", "detected_at"),)

    id: Mapped[intpk]
    source_id: Mapped[int] = mapped_column(ForeignKey("source.id", ondelete="CASCADE"))
    item_id: Mapped[int | None] = mapped_column(ForeignKey("item.id", ondelete="SET NULL"))
    snapshot_id: Mapped[int | None] = mapped_column(ForeignKey("snapshot.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(16))
    #: added | removed | modified
    change: Mapped[str] = mapped_column(String(16))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    delta: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    detected_at: Mapped[timestamp] = mapped_column(index=True)
    #: A paper's identifiers across its person's sources when it was reported (DOI, arXiv id,
    #: DBLP key, OpenAlex id …); null for other kinds and for sources without a person.
    ids: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class Work(Base):
    """One paper of a person as all their sources know it together.

    ``fields`` are the paper's fields merged across the sources (a published venue wins over a
    preprint's, identifiers are kept from wherever they appear); ``ids`` the identifiers found
    (``doi``, ``arxiv``, ``dblp``, ``openalex``, ``orcid``, ``arxiv_version`` …).
    """

    __tablename__ = "work"

    id: Mapped[intpk]
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    fields: Mapped[json_dict]
    ids: Mapped[json_dict]
    first_seen: Mapped[timestamp]
    last_seen: Mapped[timestamp]


class WorkItem(Base):
    """Which work a source's paper item is: a work has an item on each source that lists it."""

    __tablename__ = "work_item"

    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"), primary_key=True)
    work_id: Mapped[int] = mapped_column(ForeignKey("work.id", ondelete="CASCADE"), index=True)


class Delivery(Base):
    """The outbox: one message to send on one channel, written with the changes it carries."""

    __tablename__ = "delivery"
    __table_args__ = (Index("ix_delivery_status_next", "status", "next_attempt_at"),)

    id: Mapped[intpk]
    channel: Mapped[str] = mapped_column(String(64))
    target: Mapped[str] = mapped_column(String(2000))
    #: pending | sent | failed
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[timestamp]
    next_attempt_at: Mapped[timestamp]
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    idempotency_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: Extra payload for non-change messages (operator alerts, tests).
    payload: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    changes: Mapped[list[DeliveryChange]] = relationship(cascade="all, delete-orphan")


class DeliveryChange(Base):
    """Which changes a delivery carries."""

    __tablename__ = "delivery_change"

    delivery_id: Mapped[int] = mapped_column(ForeignKey("delivery.id", ondelete="CASCADE"), primary_key=True)
    change_id: Mapped[int] = mapped_column(ForeignKey("change.id", ondelete="CASCADE"), primary_key=True)


class Host(Base):
    """When the next request to a host may start, shared by every daemon on the database.

    ``name`` is the fetcher's host key (``host:port``); see ``watcher.hosts``.
    """

    __tablename__ = "host"

    name: Mapped[str] = mapped_column(String(300), primary_key=True)
    next_request_at: Mapped[timestamp]
