"""An Atom feed of recorded changes (RFC 4287), built with feedgen.

Each entry's id is a ``tag:`` URI made from the change id, so a feed reader never shows
the same change twice however often the feed is rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from feedgen.feed import FeedGenerator
from sqlalchemy import select
from sqlalchemy.orm import Session

from watcher.notify.render import render_change_html, safe_link
from watcher.report import change_sentence, change_to_json
from watcher.store.models import Change, Source

__all__ = ["TAG_AUTHORITY", "build_atom_feed", "change_entry_id", "feed_id_for", "recent_changes"]

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
        entry.author({"name": source.label or source.name})
        entry.category(term=change.kind)
        if href := _entry_link(obj):
            entry.link(href=href, rel="alternate")
        entry.content(render_change_html(obj), type="html")
    return gen.atom_str(pretty=True)


def recent_changes(
    session: Session, *, source: str | None = None, person: str | None = None, limit: int = 200
) -> list[tuple[Change, Source]]:
    """The newest ``limit`` changes, of one source (by name) or one person/lab (by label)."""
    stmt = select(Change, Source).join(Source, Source.id == Change.source_id)
    if source is not None:
        stmt = stmt.where(Source.name == source)
    if person is not None:
        stmt = stmt.where(Source.label == person)
    stmt = stmt.order_by(Change.detected_at.desc(), Change.id.desc()).limit(limit)
    return [(c, s) for c, s in session.execute(stmt).all()]
