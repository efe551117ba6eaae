"""One site, several pages: an item that moves from one page of a site to another is not news.

Academic sites spread their items over pages: a working paper moves from "Preprints" to
"Publications" when it appears in a journal; a lab moves a student from its people page to an
alumni page. Each page is a source of its own and each check diffs one page, so on its own a
move reads as a removal on one page and an addition on the other.

After a run of checks, ``reconcile_moves`` pairs the removals and additions the run recorded on
pages of one site, by the diff's rules (identity, then fuzzy labels; ``watcher.diff.pair_items``).
A pair that changed nothing a reader cares about is a move, and both changes are dropped; one
that did (a preprint that gained its journal, a student now alumni) becomes one *modified*
change on the page the item moved to. A removal of an item another page of the site still
shows is dropped too: the item has not left the site. Notifications not yet sent follow: the dropped changes
leave their pending deliveries, and a delivery left with nothing to say is dropped too.

A site is the sources of one person or lab (a source's label), else the pages of one web host
(one user directory of it, for ``/~user/`` pages).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from watcher.diff import StoredItem, pair_items
from watcher.records import record_from_fields
from watcher.store.models import Change, Delivery, DeliveryChange, Item, Source

__all__ = ["reconcile_moves", "site_of"]


def site_of(url: str, label: str | None = None) -> str:
    """The site a source belongs to: its person or lab when it has one, else its web host (and
    user directory); a repository or a file is a site of its own."""
    if label:
        return f"label:{label}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return url
    first = parts.path.strip("/").split("/", 1)[0]
    return f"{parts.hostname}/{first}" if first.startswith("~") else (parts.hostname or url)


def reconcile_moves(session: Session, source_ids: Sequence[int], since: datetime) -> int:
    """Merge the removals and additions recorded since ``since`` on sources of one site that are
    one item moving between pages; the number of changes dropped. Never commits."""
    changes = session.scalars(
        select(Change)
        .where(Change.source_id.in_(source_ids), Change.detected_at >= since, Change.change.in_(("added", "removed")))
        .order_by(Change.id)
    ).all()
    if not changes:
        return 0
    site_by_source = {
        s.id: site_of(s.url, s.label) for s in session.scalars(select(Source).where(Source.id.in_(source_ids)))
    }
    site_sources: dict[str, list[int]] = {}
    for source_id, site in site_by_source.items():
        site_sources.setdefault(site, []).append(source_id)
    by_site: dict[str, list[Change]] = {}
    for change in changes:
        by_site.setdefault(site_by_source[change.source_id], []).append(change)
    dropped: list[Change] = []
    for site, group in by_site.items():
        if len({c.source_id for c in group}) > 1:
            dropped.extend(_merge_moves(group))
        merged = {id(c) for c in dropped}
        left = [c for c in group if c.change == "removed" and id(c) not in merged]
        if left and len(site_sources[site]) > 1:
            dropped.extend(_still_on_site(session, left, site_sources[site]))
    if not dropped:
        return 0
    _forget(session, dropped)
    return len(dropped)


def _merge_moves(changes: list[Change]) -> list[Change]:
    """Pair a site's removals with its additions on other pages; turn each pair into one modified
    change (or nothing); the changes to drop."""
    dropped: list[Change] = []
    for kind in {c.kind for c in changes}:
        removed = [c for c in changes if c.kind == kind and c.change == "removed"]
        added = [c for c in changes if c.kind == kind and c.change == "added"]
        if not removed or not added:
            continue
        olds = [_stored(c, c.before) for c in removed]
        news = [_stored(c, c.after) for c in added]
        for i, j, delta in pair_items(olds, news):
            gone, arrived = removed[i], added[j]
            if gone.source_id == arrived.source_id:
                continue  # one page's own diff already decided about these two
            dropped.append(gone)
            if delta:
                arrived.change = "modified"
                arrived.before = gone.before
                arrived.delta = delta
            else:
                dropped.append(arrived)
    return dropped


def _still_on_site(session: Session, removed: list[Change], site: list[int]) -> list[Change]:
    """Removals of items another page of the site still shows (a paper gone from "Recent" but
    on "All publications"): the item has not left the site, so nothing is reported."""
    dropped: list[Change] = []
    for kind in {c.kind for c in removed}:
        gone = [c for c in removed if c.kind == kind]
        held = session.scalars(
            select(Item).where(
                Item.source_id.in_(site),
                Item.kind == kind,
                Item.removed_at.is_(None),
                Item.source_id.not_in({c.source_id for c in gone}),
            )
        ).all()
        if not held:
            continue
        olds = [_stored(c, c.before) for c in gone]
        news = [StoredItem(kind=i.kind, key=i.key, fields=dict(i.fields)) for i in held]
        dropped.extend(gone[i] for i, _j, _delta in pair_items(olds, news))
    return dropped


def _stored(change: Change, fields: dict | None) -> StoredItem:
    record = record_from_fields(change.kind, fields or {})
    return StoredItem(kind=change.kind, key=record.key, fields=dict(fields or {}))


def _forget(session: Session, dropped: list[Change]) -> None:
    """Delete the dropped changes, and pending deliveries left with none."""
    ids = [c.id for c in dropped]
    pending = session.scalars(
        select(Delivery.id)
        .join(DeliveryChange, DeliveryChange.delivery_id == Delivery.id)
        .where(DeliveryChange.change_id.in_(ids), Delivery.status == "pending")
    ).all()
    session.execute(delete(DeliveryChange).where(DeliveryChange.change_id.in_(ids)))
    session.execute(delete(Change).where(Change.id.in_(ids)))
    session.flush()
    for delivery_id in set(pending):
        links = select(DeliveryChange.change_id).where(DeliveryChange.delivery_id == delivery_id)
        if session.scalar(links.limit(1)) is None:
            session.execute(delete(Delivery).where(Delivery.id == delivery_id))
