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
shows is dropped too: the item has not left the site. An item added on several pages in one
run is told once, and one added to a page while another page of the site already showed it
alike (a paper long on "Publications" now also on the home page) is not told at all. A post the
home page's biography changes into while the CV adds it as a line of its own (a promotion) is
told by the CV: the new post added, the old one ended.
Notifications not yet sent follow: the dropped changes leave their pending deliveries, and a
delivery left with nothing to say is dropped too.

A page that appears on a site (missing when last checked) is usually the site splitting a page:
the people of a one-page lab move to ``people.html``, a CV's papers to ``research.html``. Where
three in four of a kind of item on the new page were already on the site, its others are new
(``new_to_site``); otherwise its first reading is a baseline, as for any page first read.

A site is the sources of one person or lab (a source's label), else the pages of one web host
(one user directory of it, for ``/~user/`` pages); another port is another server.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import ColumnElement, delete, select, true
from sqlalchemy.orm import Session

from watcher.diff import REFORMAT_MIN_ITEMS, REFORMAT_MIN_SHARE, DiffResult, StoredItem, pair_items
from watcher.records import record_from_fields
from watcher.store.models import Change, Delivery, DeliveryChange, Item, Source

__all__ = ["new_to_site", "reconcile_moves", "site_of"]


def site_of(url: str, label: str | None = None) -> str:
    """The site a source belongs to: its person or lab when it has one, else its web host (and
    user directory); a repository or a file is a site of its own."""
    if label:
        return f"label:{label}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return url
    first = parts.path.strip("/").split("/", 1)[0]
    host = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname
    return f"{host}/{first}" if first.startswith("~") else (host or url)


def new_to_site(session: Session, source: Source, first: DiffResult, since: datetime) -> DiffResult:
    """Of ``first`` (every item of a page that appeared since ``since``, as added), the additions
    new to its site: none of a kind unless three in four of that kind on the page were on another
    page of the site then, and of those, the items no page showed (added) or showed otherwise (modified)."""
    site = site_of(source.url, source.label)
    others = [
        s.id for s in session.scalars(select(Source).where(Source.id != source.id, Source.active.is_(True)))
        if site_of(s.url, s.label) == site
    ]
    if not others:
        return DiffResult(changes=(), suspect=None, unchanged=0)
    held = session.scalars(
        select(Item).where(
            Item.source_id.in_(others), Item.first_seen < since, Item.removed_at.is_(None) | (Item.removed_at >= since)
        )
    ).all()
    new = []
    for kind in {c.kind for c in first.changes}:
        # A bare line the page brings (the site's name, a wiki's "Recent Changes") neither counts nor is told.
        arrived = [c for c in first.changes if c.kind == kind and _marked_as_its_kind(c.after or {}, kind)]
        there = [item for item in held if item.kind == kind]
        pairs = pair_items(
            [StoredItem(kind=kind, key=item.key, fields=dict(item.fields)) for item in there],
            [StoredItem(kind=kind, key=c.key, fields=dict(c.after or {})) for c in arrived],
        )
        if 4 * len(pairs) < 3 * len(arrived):
            # Not three in four known to the site: a page of its own, or a split whose new style
            # reads its items otherwise (a bibliography restyled as it moves). Silent, as a baseline.
            continue
        known = {j for _i, j, _delta in pairs}
        new.extend(c for j, c in enumerate(arrived) if j not in known)
        # An item that came with a change (a student now alumni) is modified; most of them changed
        # alike is the new page's style (a bibliography restyled as it moved), not news.
        changed = [(i, j, delta) for i, j, delta in pairs if delta]
        if len(changed) < REFORMAT_MIN_ITEMS or len(changed) < REFORMAT_MIN_SHARE * len(pairs):
            new.extend(
                replace(arrived[j], change="modified", before=dict(there[i].fields), delta=delta)
                for i, j, delta in changed
            )
    return DiffResult(changes=tuple(new), suspect=None, unchanged=len(first.changes) - len(new))


def _marked_as_its_kind(fields: dict, kind: str) -> bool:
    """An item a new page brings with the marks of its kind: a paper its authors, year or identifier,
    a news item its date. A bare line (the site's name, a wiki's "Recent Changes") is no news."""
    if kind == "paper":
        return any(fields.get(name) for name in ("authors", "year", "doi", "arxiv"))
    if kind == "news":
        return bool(fields.get("date"))
    return True


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
        if len(site_sources[site]) < 2:
            continue
        merged = {id(c) for c in dropped}
        arrived = [c for c in group if c.change == "added" and id(c) not in merged]
        echoes = _echoes(arrived)
        dropped.extend(echoes)
        echoed = {id(c) for c in echoes}
        new = [c for c in arrived if id(c) not in echoed]
        if new:
            already = {id(c) for c in _already_on_site(session, new, site_sources[site], since)}
            dropped.extend(c for c in new if id(c) in already)
            posts = [c for c in new if c.kind == "role" and id(c) not in already]
            if posts:
                dropped.extend(_echoed_modifications(session, site_sources[site], since, posts))
        left = [c for c in group if c.change == "removed" and id(c) not in merged]
        if left:
            dropped.extend(_still_on_site(session, left, _reading_sources(session, site_sources[site])))
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


def _echoes(added: list[Change]) -> list[Change]:
    """Additions of one item on several pages of the site in one run (a news item on the home
    page's "latest" list and on the news page): the first page's is told, the others dropped."""
    dropped: list[Change] = []
    for kind in {c.kind for c in added}:
        told: list[StoredItem] = []
        for source_id in dict.fromkeys(c.source_id for c in added if c.kind == kind):
            page = [c for c in added if c.kind == kind and c.source_id == source_id]
            stored = [_stored(c, c.after) for c in page]
            echoed = {j for _i, j, _delta in pair_items(told, stored)} if told else set()
            dropped.extend(page[j] for j in sorted(echoed))
            told.extend(item for j, item in enumerate(stored) if j not in echoed)
    return dropped


def _already_on_site(session: Session, added: list[Change], site: list[int], since: datetime) -> list[Change]:
    """Additions of items another page of the site showed before this run (a paper long on
    "Publications" now also under "Selected papers" on the home page): nothing new to tell. A post
    that took its state in this run (the home page's, now the CV's new one) showed it only now."""
    changed_now = select(Change.item_id).where(
        Change.source_id.in_(site), Change.kind == "role", Change.change == "modified", Change.detected_at >= since,
        Change.item_id.is_not(None),
    )
    held = (Item.first_seen < since) & Item.id.not_in(changed_now)
    return _held_elsewhere(session, added, site, lambda c: c.after, held, same_state=True)


def _echoed_modifications(session: Session, site: list[int], since: datetime, posts: list[Change]) -> list[Change]:
    """Posts modified into a state that one of ``posts`` (added on another page of the site in this
    run) holds: a biography's post now "Professor" where the CV adds its "Professor" line beside the
    old one, ended. The CV's addition tells it, with its dates. A paper's new venue stays one
    modified paper."""
    modified = session.scalars(
        select(Change)
        .where(Change.source_id.in_(site), Change.kind == "role", Change.detected_at >= since,
               Change.change == "modified")
        .order_by(Change.id)
    ).all()
    dropped: list[Change] = []
    for source_id in dict.fromkeys(c.source_id for c in modified):
        told = [_stored(c, c.after) for c in posts if c.source_id != source_id]
        if told:
            page = [c for c in modified if c.source_id == source_id]
            dropped.extend(page[i] for i, _j, _delta in pair_items([_stored(c, c.after) for c in page], told))
    return dropped


def _reading_sources(session: Session, site: list[int]) -> list[int]:
    """The site's sources whose stored items are what they show: not one read as suspect (a page
    that lost its list keeps its last items stored, but no longer shows them; nor one that holds
    the kinds of items it stopped showing)."""
    sources = session.scalars(select(Source).where(Source.id.in_(site))).all()
    showing = {s.id for s in sources if s.last_status != "suspect" and not (s.fetch_state or {}).get("held_kinds")}
    return [source_id for source_id in site if source_id in showing]


def _still_on_site(session: Session, removed: list[Change], site: list[int]) -> list[Change]:
    """Removals of items another page of the site still shows (a paper gone from "Recent" but
    on "All publications"): the item has not left the site, so nothing is reported."""
    return _held_elsewhere(session, removed, site, lambda c: c.before, true())


def _held_elsewhere(
    session: Session,
    changes: list[Change],
    site: list[int],
    state: Callable[[Change], dict | None],
    held_since: ColumnElement[bool],
    *,
    same_state: bool = False,
) -> list[Change]:
    """The changes whose item (in the ``state`` the change gives it) another page of the site
    holds now, among items that match ``held_since``; with ``same_state``, only where that page
    shows it alike (a journal version of a conference paper, same title, is another paper)."""
    dropped: list[Change] = []
    for kind in {c.kind for c in changes}:
        held = [
            (item.source_id, StoredItem(kind=item.kind, key=item.key, fields=dict(item.fields)))
            for item in session.scalars(
                select(Item).where(Item.source_id.in_(site), Item.kind == kind, Item.removed_at.is_(None), held_since)
            )
        ]
        # Each page against the others: the news page may lose its oldest items in the run in which
        # the home page's "latest" list lets go of items the news page still shows.
        for source_id in dict.fromkeys(c.source_id for c in changes if c.kind == kind):
            elsewhere = [stored for holder, stored in held if holder != source_id]
            if not elsewhere:
                continue
            mine = [c for c in changes if c.kind == kind and c.source_id == source_id]
            olds = [_stored(c, state(c)) for c in mine]
            dropped.extend(mine[i] for i, _j, delta in pair_items(olds, elsewhere) if not (same_state and delta))
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
