"""An Atom feed of recorded changes (RFC 4287), built with feedgen, and its HTTP server.

Each entry's id is a ``tag:`` URI made from the change id, so a feed reader never shows
the same change twice however often the feed is rebuilt. ``watcher feed`` writes a feed
to a file; ``watcher daemon --feed-port`` serves them (``serve_feeds``):

* ``/feed.atom``: every change;
* ``/feed/source/NAME.atom``: one watch's changes;
* ``/feed/person/NAME.atom``: the changes of one person's or lab's sources (a person's name,
  or the label of sources no person owns).

Answers carry an ETag, so a feed reader polling an unchanged feed gets a 304.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

from feedgen.feed import FeedGenerator
from sqlalchemy import select
from sqlalchemy.orm import Session

from watcher.errors import ConfigError
from watcher.notify.render import render_change_html, safe_link
from watcher.people import person_source_ids
from watcher.report import change_sentence, change_to_json
from watcher.store.db import Database
from watcher.store.models import Change, Person, Source

__all__ = [
    "TAG_AUTHORITY",
    "FeedScope",
    "build_atom_feed",
    "change_entry_id",
    "feed_document",
    "feed_id_for",
    "feed_with_etag",
    "not_found_text",
    "recent_changes",
    "serve_feeds",
]

TAG_AUTHORITY = "watcher.invalid,2026"


def change_entry_id(change: Change) -> str:
    """The stable Atom id of a change."""
    return f"tag:{TAG_AUTHORITY}:change/{change.id}"


def feed_id_for(scope: str) -> str:
    """The Atom id of a feed: ``all``, ``source/NAME`` or ``person/LABEL``."""
    return f"tag:{TAG_AUTHORITY}:feed/{scope}"


def _entry_link(obj: dict) -> str | None:
    return safe_link(obj["item"].get("url")) or safe_link(obj.get("url"))


def build_atom_feed(
    changes_with_sources: Iterable[tuple[Change, Source]],
    *,
    title: str,
    feed_id: str,
    link: str | None = None,
    updated: datetime | None = None,
) -> bytes:
    """The Atom XML document: one entry per change, newest first as given.

    ``updated`` is the feed's own time when it has no entries (else the newest change's).
    Entry titles are the plain change sentences; contents are escaped HTML fragments.
    """
    pairs = list(changes_with_sources)
    gen = FeedGenerator()
    gen.id(feed_id)
    gen.title(title)
    gen.author({"name": "watcher"})
    gen.generator("watcher")
    if link := safe_link(link):
        gen.link(href=link, rel="alternate")
    newest = max((c.detected_at for c, _ in pairs), default=updated)
    if newest is None:
        raise ValueError("an empty feed needs 'updated'")
    gen.updated(newest)
    # feedgen prepends entries; add oldest first so the document lists newest first.
    for change, source in reversed(pairs):
        obj = change_to_json(change, source)
        entry = gen.add_entry()
        entry.id(change_entry_id(change))
        entry.title(change_sentence(obj))
        entry.updated(change.detected_at)
        entry.published(change.detected_at)
        entry.author({"name": source.person_name or source.name})
        entry.category(term=change.kind)
        if href := _entry_link(obj):
            entry.link(href=href, rel="alternate")
        entry.content(render_change_html(obj), type="html")
    return gen.atom_str(pretty=True)


def recent_changes(
    session: Session, *, source: str | None = None, person: str | None = None, limit: int = 200
) -> list[tuple[Change, Source]]:
    """The newest ``limit`` changes, of one source (by name) or one person/lab (by name, or by the
    label of sources no person owns)."""
    stmt = select(Change, Source).join(Source, Source.id == Change.source_id)
    if source is not None:
        stmt = stmt.where(Source.name == source)
    if person is not None:
        stmt = stmt.where(Source.id.in_(person_source_ids(person)))
    stmt = stmt.order_by(Change.detected_at.desc(), Change.id.desc()).limit(limit)
    return [(c, s) for c, s in session.execute(stmt).all()]


@dataclass(frozen=True)
class FeedScope:
    """Which changes a feed holds: all, one source (by name) or one person/lab (by label)."""

    source: str | None = None
    person: str | None = None

    @property
    def scope(self) -> str:
        if self.source:
            return f"source/{self.source}"
        return f"person/{self.person}" if self.person else "all"

    @property
    def title(self) -> str:
        return f"watcher: {self.source or self.person or 'all changes'}"

    def exists(self, session: Session) -> bool:
        """Whether the named source, person or label is known (a feed of a typo would stay empty forever)."""
        if self.source:
            query = select(Source.id).where(Source.name == self.source)
        elif self.person:
            person = select(Person.id).where(Person.name == self.person)
            query = select(Source.id).where(Source.label == self.person).union(person)
        else:  # the feed of everything
            return True
        return session.execute(query.limit(1)).first() is not None


def feed_document(
    session: Session, scope: FeedScope, *, now: datetime, link: str | None = None, limit: int = 200
) -> tuple[bytes, int]:
    """The Atom document of ``scope`` and its number of entries; a source's feed links to its page."""
    pairs = recent_changes(session, source=scope.source, person=scope.person, limit=limit)
    if link is None and scope.source and pairs:
        link = pairs[0][1].url
    xml = build_atom_feed(pairs, title=scope.title, feed_id=feed_id_for(scope.scope), link=link, updated=now)
    return xml, len(pairs)


def feed_with_etag(
    db: Database, scope: FeedScope, *, now: datetime, limit: int = 200
) -> tuple[bytes, str] | None:
    """The Atom document of ``scope`` and its ETag, or None when the source or person is unknown."""
    with db.session() as session:
        if not scope.exists(session):
            return None
        xml, _count = feed_document(session, scope, now=now, limit=limit)
    return xml, '"' + hashlib.sha256(xml).hexdigest()[:32] + '"'


def not_found_text(scope: FeedScope) -> str:
    how = "named" if scope.source else "labelled"
    return f"no watch {how} {scope.source or scope.person!r}\n"


@asynccontextmanager
async def serve_feeds(
    db: Database, address: str, port: int, now: Callable[[], datetime], *, limit: int = 200
) -> AsyncIterator[int]:
    """Serve the feeds on ``address:port`` (0: a free port) while the context is open; yields the port."""
    from aiohttp import web

    async def answer(request: web.Request, scope: FeedScope) -> web.Response:
        built = await asyncio.to_thread(feed_with_etag, db, scope, now=now(), limit=limit)
        if built is None:
            raise web.HTTPNotFound(text=not_found_text(scope))
        xml, etag = built
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(body=xml, content_type="application/atom+xml", charset="utf-8", headers={"ETag": etag})

    async def everything(request: web.Request) -> web.Response:
        return await answer(request, FeedScope())

    async def one_source(request: web.Request) -> web.Response:
        return await answer(request, FeedScope(source=request.match_info["name"]))

    async def one_person(request: web.Request) -> web.Response:
        return await answer(request, FeedScope(person=request.match_info["label"]))

    app = web.Application()
    app.router.add_get("/feed.atom", everything)
    app.router.add_get("/feed/source/{name}.atom", one_source)
    app.router.add_get("/feed/person/{label}.atom", one_person)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, address, port)
        try:
            await site.start()
        except OSError as exc:
            raise ConfigError(f"cannot serve feeds on {address}:{port}: {exc.strerror}") from exc
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()
