"""People and labs: who owns which sources, from the config's ``people:`` list or ``watcher person``.

A person (or lab) owns sources, named by watch name or by source string (a URL, ``github:``,
``dblp:``, ``arxiv:``, ``openalex:``, ``orcid:``); a source string nobody watches yet becomes
a source of its own. A source has at most one owner. A source's free-text ``label`` still
names its person when no person owns it, so ``--person NAME`` finds either.

``person_view`` is what ``watcher show --person`` prints: the person's items across their
sources, each paper once with the identifiers found and the sources that list it, and the
papers only the person's pages list (not yet in any index) or only the indexes list
(missing from their pages).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, and_, delete, func, or_, select
from sqlalchemy.orm import Session

from watcher.config import Config
from watcher.errors import ConfigError
from watcher.records import paper_ids
from watcher.report import item_fields
from watcher.sources import add_source, canonical_location, find_sources
from watcher.store.models import Item, Person, PersonSource, Source, Work, WorkItem

__all__ = [
    "PeopleSync",
    "add_person",
    "list_people",
    "person_source_ids",
    "person_view",
    "sources_of_person",
    "sync_people",
]


def add_person(
    session: Session,
    name: str,
    refs: Sequence[str] = (),
    *,
    now: datetime,
    kind: str = "person",
    every: timedelta = timedelta(hours=12),
    from_config: bool = False,
) -> Person:
    """Create the person (or find it) and give it the sources ``refs`` name, watching new ones."""
    name = " ".join(name.split())
    if not name:
        raise ConfigError("a person needs a name")
    if kind not in ("person", "lab"):
        raise ConfigError(f"a person's kind is person or lab, not {kind!r}")
    person = session.scalars(select(Person).where(Person.name == name)).first()
    if person is None:
        person = Person(name=name, kind=kind, from_config=from_config, created_at=now)
        session.add(person)
        session.flush()
    for ref in refs:
        _attach(session, person, _source_for(session, ref, now=now, every=every, from_config=from_config), now)
    return person


def list_people(session: Session) -> list[dict[str, Any]]:
    """Every person and lab with their sources' names."""
    rows = []
    for person in session.scalars(select(Person).order_by(Person.name)):
        works = session.scalar(select(func.count()).select_from(Work).where(Work.person_id == person.id))
        rows.append({"name": person.name, "kind": person.kind, "sources": sorted(s.name for s in person.sources),
                     "papers": works or 0})  # fmt: skip
    return rows


def person_source_ids(name: str) -> Select[tuple[int]]:
    """The ids of a person's or lab's sources: those it owns, or those labelled with the name
    that no person owns."""
    owned = select(PersonSource.source_id).join(Person, Person.id == PersonSource.person_id)
    return select(Source.id).where(
        or_(Source.id.in_(owned.where(Person.name == name)), and_(Source.label == name, Source.id.not_in(owned)))
    )


def sources_of_person(session: Session, name: str, *, include_inactive: bool = True) -> list[Source]:
    """The sources of the person or lab called ``name``: those it owns, or, for a name no person
    has, the sources labelled with it that no person owns."""
    person = session.scalars(select(Person).where(Person.name == name)).first()
    if person is not None:
        sources = list(person.sources)
    else:
        owned = select(PersonSource.source_id)
        sources = list(session.scalars(select(Source).where(Source.label == name, Source.id.not_in(owned))))
        if not sources:
            raise ConfigError(f"no person or label {name!r} (see `watcher person list`)")
    return sorted((s for s in sources if include_inactive or s.active), key=lambda s: s.name)


@dataclass(frozen=True)
class PeopleSync:
    added: tuple[str, ...]
    updated: tuple[str, ...]
    removed: tuple[str, ...]
    #: Every source a config person owns (they stay active although no watch entry names them).
    source_ids: frozenset[int]


def sync_people(session: Session, config: Config, now: datetime) -> PeopleSync:
    """Make the config-managed people match the config's ``people:`` list.

    Watch names resolve to the watch list's sources; other source strings become sources of
    their own (config-managed). People gone from the file are removed with their works; their
    sources stay, unowned.
    """
    added: list[str] = []
    updated: list[str] = []
    claimed: set[int] = set()
    for entry in config.people:
        person = session.scalars(select(Person).where(Person.name == entry.name)).first()
        before = None if person is None else (person.kind, sorted(s.id for s in person.sources))
        person = add_person(session, entry.name, now=now, kind=entry.kind, from_config=True)
        person.kind, person.from_config = entry.kind, True
        wanted = [_source_for(session, ref, now=now, every=entry.every, from_config=True) for ref in entry.sources]
        for source in person.sources:
            if source.id not in {s.id for s in wanted}:
                _detach(session, person, source)
        for source in wanted:
            _attach(session, person, source, now)
        claimed.update(s.id for s in wanted)
        after = (person.kind, sorted(s.id for s in wanted))
        if before is None:
            added.append(entry.name)
        elif before != after:
            updated.append(entry.name)
    names = {entry.name for entry in config.people}
    removed = []
    for person in session.scalars(select(Person).where(Person.from_config.is_(True))).all():
        if person.name not in names:
            removed.append(person.name)
            session.delete(person)
    session.flush()
    return PeopleSync(tuple(added), tuple(updated), tuple(removed), frozenset(claimed))


def person_view(session: Session, name: str) -> dict[str, Any]:
    """A person's items across their sources (see the module docstring)."""
    from watcher.works import is_index_location

    sources = sources_of_person(session, name)
    person = session.scalars(select(Person).where(Person.name == name)).first()
    by_id = {s.id: s for s in sources}
    rows = session.execute(
        select(Item.id, Item.source_id, Item.kind, Item.key, Item.fields, WorkItem.work_id)
        .outerjoin(WorkItem, WorkItem.item_id == Item.id)
        .where(Item.source_id.in_(by_id), Item.removed_at.is_(None))
        .order_by(Item.kind, Item.source_id, Item.position)
    ).all()
    works = {w.id: w for w in session.scalars(select(Work).where(Work.person_id == person.id))} if person else {}
    groups: dict[tuple[str, Any], dict[str, Any]] = {}
    for row in rows:
        # A paper is its work (one entry across the sources); anything else its kind and key.
        ident = ("work", row.work_id) if row.work_id in works else (row.kind, row.key)
        group = groups.get(ident)
        if group is None:
            work = works.get(row.work_id)
            fields = work.fields if work is not None and ident[0] == "work" else row.fields
            group = groups[ident] = {"kind": row.kind, **item_fields(row.kind, fields), "sources": []}
            if row.kind == "paper":
                group["ids"] = dict(work.ids) if work is not None and ident[0] == "work" else paper_ids(row.fields)
        source = by_id[row.source_id]
        if source.name not in group["sources"]:
            group["sources"].append(source.name)
    items = list(groups.values())
    index_names = {s.name for s in sources if is_index_location(s.url)}
    has_pages, has_indexes = len(index_names) < len(sources), bool(index_names)
    papers = [item for item in items if item["kind"] == "paper"]
    return {
        "person": person.name if person else name,
        "kind": person.kind if person else "label",
        "sources": [{"name": s.name, "url": s.url, "active": s.active} for s in sources],
        "items": items,
        "only_on_pages": [p["title"] for p in papers if has_indexes and not index_names & set(p["sources"])],
        "only_in_indexes": [p["title"] for p in papers if has_pages and set(p["sources"]) <= index_names],
    }


# -- owning sources ----------------------------------------------------------------------------


def _source_for(session: Session, ref: str, *, now: datetime, every: timedelta, from_config: bool) -> Source:
    """The source ``ref`` names (a watch name, a URL, a source string), watched anew if needed."""
    with contextlib.suppress(ConfigError):
        (found,) = find_sources(session, [ref], include_inactive=True)
        if not found.active:
            found.active, found.next_due_at = True, None
        return found
    try:
        location = canonical_location(ref)
    except ConfigError as exc:
        raise ConfigError(f"{ref!r} is neither a watch name nor a source string: {exc}") from exc
    existing = session.scalars(select(Source).where(Source.url == location)).first()
    if existing is not None:
        existing.active = True
        return existing
    return add_source(session, location, now=now, every=every, from_config=from_config)


def _attach(session: Session, person: Person, source: Source, now: datetime) -> None:
    owners = select(PersonSource.person_id).where(PersonSource.source_id == source.id)
    owner = session.scalars(select(Person).where(Person.id.in_(owners))).first()
    if owner is not None and owner.id != person.id:
        raise ConfigError(f"source {source.name} belongs to {owner.name} already; a source has one person")
    if owner is None:
        session.add(PersonSource(source_id=source.id, person_id=person.id))
        session.flush()
        session.expire(person, ["sources"])
        session.expire(source, ["person"])
        from watcher.works import adopt_source

        # Its papers are known already: linked to the person's works silently, so that another
        # source listing one of them later does not report it as new.
        adopt_source(session, person.id, source.id, now)


def _detach(session: Session, person: Person, source: Source) -> None:
    session.execute(
        delete(PersonSource).where(PersonSource.person_id == person.id, PersonSource.source_id == source.id)
    )
    items = select(Item.id).where(Item.source_id == source.id)
    session.execute(delete(WorkItem).where(WorkItem.item_id.in_(items)))
    session.expire(person, ["sources"])
    session.expire(source, ["person"])
