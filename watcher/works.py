"""A person's works: one paper across all of a person's sources, reported once.

Each paper item of a source a person owns is linked to one *work* of that person: found by
DOI, else arXiv id, else DBLP key, else normalised title with a compatible year (a year
apart at most: a preprint and its publication), else a title this similar (``FUZZY_TITLE``).
Two papers with different DOIs are never one work (a workshop and a journal version). A
work's fields are merged from every current item linked to it: titles and authors as the
person's own pages give them before the indexes, a published venue (and its year) over a
preprint's, identifiers from wherever they appear.

What a source's diff found becomes, for papers:

* *added*: reported once, by the first source that lists the paper; a later source that
  lists it only links and enriches it (DOI, arXiv id, venue, links), silently;
* *modified*: reported when the work's merged fields change in substance, and once when a
  preprint gains a venue or a DOI on any source ("arXiv -> NeurIPS 2026");
* *removed*: reported only when no source of the person lists the paper any more.

Other kinds go through unchanged. ``reconcile_papers`` is called from one place, the
pipeline's recording of a changed reading of a source that a person owns; sources without
a person never reach this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from watcher.diff import DiffResult, ItemChange, meaningful_delta
from watcher.records import Paper, paper_ids, record_fields
from watcher.store.models import Item, Person, PersonSource, Source, Work, WorkItem
from watcher.text import AsciiFolded, normalise_key

if TYPE_CHECKING:
    from watcher.extract import Extraction

__all__ = [
    "FUZZY_TITLE",
    "PaperChange",
    "adopt_source",
    "is_index_location",
    "is_preprint",
    "reconcile_papers",
]

#: Two titles this similar (rapidfuzz ratio of the normalised titles, 0-100) with compatible
#: years are one paper when no identifier decides.
FUZZY_TITLE = 92.0

_PREPRINT_VENUE = AsciiFolded.of(
    r"\b(arxiv|corr|preprint|biorxiv|medrxiv|chemrxiv|techrxiv|ssrn|submitted|under review|in review|"
    r"in preparation|working paper|manuscript)\b"
)
_INDEX_SCHEMES = ("dblp:", "arxiv:", "openalex:", "orcid:")
_PAPER_FIELDS = tuple(f.name for f in dataclass_fields(Paper))


@dataclass(frozen=True, kw_only=True)
class PaperChange(ItemChange):
    """A paper change as the person sees it, with the identifiers found across their sources."""

    ids: dict[str, Any] | None = None


def is_index_location(url: str) -> bool:
    """Whether a source is an index record (DBLP, arXiv, OpenAlex, ORCID) rather than a page."""
    return url.startswith(_INDEX_SCHEMES)


def is_preprint(fields: Mapping[str, Any]) -> bool:
    """A paper with neither a publication DOI nor a venue other than a preprint server's."""
    if _publication_doi(fields.get("doi")):
        return False
    venue = fields.get("venue")
    return not venue or _PREPRINT_VENUE.search(str(venue))


def adopt_source(session: Session, person_id: int, source_id: int, now: datetime) -> None:
    """Link the current papers of a source just given to a person, silently (they are known)."""
    reconcile_papers(session, person_id=person_id, source_id=source_id, extraction=None, result=None,
                     report=False, now=now)  # fmt: skip


def reconcile_papers(
    session: Session,
    *,
    person_id: int,
    source_id: int,
    extraction: Extraction | None,
    result: DiffResult | None,
    report: bool,
    now: datetime,
) -> DiffResult | None:
    """Link the source's current papers to the person's works and say what the person sees.

    Called after the source's items are stored. Returns ``result`` with its paper changes
    replaced by the person's (``PaperChange``), or, when ``report`` is false (a baseline),
    with none.
    """
    _lock_person(session, person_id)
    book = _WorkBook.load(session, person_id, source_id, now)
    book.link_unlinked(_extraction_ids(extraction))
    book.merge()
    changes = _person_changes(book, result) if report and result is not None else []
    book.save(session)
    if result is None:
        return None
    others = tuple(c for c in result.changes if c.kind != "paper")
    return replace(result, changes=others + tuple(changes) if report else others)


# -- the works of one person -----------------------------------------------------------------


@dataclass
class _Sighting:
    """One current paper item of one of the person's sources."""

    item_id: int
    source_id: int
    key: str
    fields: dict[str, Any]
    on_index: bool
    work_id: int | None
    ids: dict[str, Any] = field(default_factory=dict)


@dataclass
class _WorkState:
    id: int | None
    fields: dict[str, Any]
    ids: dict[str, Any]
    #: The fields stored before this reading (None: the work is new).
    before: dict[str, Any] | None
    stored_ids: dict[str, Any] = field(default_factory=dict)
    sightings: list[_Sighting] = field(default_factory=list)
    reported: bool = False

    @property
    def gained_publication(self) -> bool:
        return self.before is not None and is_preprint(self.before) and not is_preprint(self.fields)


class _WorkBook:
    """The person's works and current paper items, loaded once per reading."""

    def __init__(self, person_id: int, source_id: int, now: datetime) -> None:
        self.person_id = person_id
        self.source_id = source_id
        self.now = now
        self.works: dict[int, _WorkState] = {}
        self.new_works: list[_WorkState] = []
        self.sightings: list[_Sighting] = []
        self.new_links: list[tuple[_Sighting, _WorkState]] = []
        #: The works of this source's items by item key (removed ones too, for removals).
        self.work_of_key: dict[str, _WorkState] = {}
        self._index: dict[str, _WorkState] = {}
        #: Every work once, with its normalised title (the fuzzy match's choices).
        self._works: list[_WorkState] = []
        self._titles: list[str] = []

    @classmethod
    def load(cls, session: Session, person_id: int, source_id: int, now: datetime) -> _WorkBook:
        book = cls(person_id, source_id, now)
        for row in session.execute(select(Work.id, Work.fields, Work.ids).where(Work.person_id == person_id)):
            book.works[row.id] = _WorkState(id=row.id, fields=dict(row.fields), ids=dict(row.ids),
                                             before=dict(row.fields), stored_ids=dict(row.ids))  # fmt: skip
        sources = select(PersonSource.source_id).where(PersonSource.person_id == person_id)
        query = (
            select(Item.id, Item.source_id, Item.key, Item.fields, Item.removed_at, Source.url, WorkItem.work_id)
            .join(Source, Source.id == Item.source_id)
            .outerjoin(WorkItem, WorkItem.item_id == Item.id)
            .where(Item.source_id.in_(sources), Item.kind == "paper")
            .order_by(Item.source_id, Item.position)
        )
        for row in session.execute(query):
            work = book.works.get(row.work_id) if row.work_id is not None else None
            if row.removed_at is not None:
                if row.source_id == source_id and work is not None:
                    book.work_of_key.setdefault(row.key, work)
                continue
            sighting = _Sighting(item_id=row.id, source_id=row.source_id, key=row.key, fields=dict(row.fields),
                                 on_index=is_index_location(row.url), work_id=row.work_id)  # fmt: skip
            book.sightings.append(sighting)
            if work is not None:
                work.sightings.append(sighting)
                if row.source_id == source_id:
                    book.work_of_key[row.key] = work
        for work in book.works.values():
            book._remember(work)
        return book

    def link_unlinked(self, extraction_ids: Mapping[str, dict[str, Any]]) -> None:
        """Give every unlinked current paper of the source being read its work (found or new)."""
        for sighting in self.sightings:
            if sighting.source_id != self.source_id:
                continue
            sighting.ids = {**_lookup_ids(sighting.fields, extraction_ids), **paper_ids(sighting.fields)}
            if sighting.work_id is not None:
                continue
            work = self._find(sighting) or self._create(sighting)
            work.sightings.append(sighting)
            self.work_of_key[sighting.key] = work
            self.new_links.append((sighting, work))
            self._remember(work, sighting)

    def merge(self) -> None:
        """Recompute the fields and identifiers of every work this source's items belong to."""
        for work in {id(w): w for w in self.work_of_key.values()}.values():
            if work.sightings:
                work.fields = merge_fields(work.sightings)
            for sighting in work.sightings:
                for name, value in {**sighting.ids, **paper_ids(sighting.fields)}.items():
                    _add_id(work.ids, name, value)
            for name, value in paper_ids(work.fields).items():
                _add_id(work.ids, name, value)

    def save(self, session: Session) -> None:
        """Write new works, changed works and new links, a statement for each (not one per row)."""
        table = Work.__table__
        if self.new_works:
            rows = [{"person_id": self.person_id, "fields": w.fields, "ids": w.ids, "first_seen": self.now,
                     "last_seen": self.now} for w in self.new_works]  # fmt: skip
            statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
            for work, work_id in zip(self.new_works, session.scalars(statement, rows), strict=True):
                work.id = work_id
        touched = [w for w in {id(w): w for w in self.work_of_key.values()}.values() if w.before is not None]
        changed = [{"b_id": w.id, "b_fields": w.fields, "b_ids": w.ids} for w in touched
                   if w.fields != w.before or w.ids != w.stored_ids]  # fmt: skip
        if changed:
            statement = update(table).where(table.c.id == bindparam("b_id")).values(
                fields=bindparam("b_fields", type_=table.c.fields.type),
                ids=bindparam("b_ids", type_=table.c.ids.type),
                last_seen=self.now,
            )
            session.execute(statement, changed)
        if self.new_links:
            rows = [{"item_id": s.item_id, "work_id": w.id} for s, w in self.new_links]
            session.execute(insert(WorkItem.__table__), rows)

    # -- finding a work -------------------------------------------------------------------
    def _find(self, sighting: _Sighting) -> _WorkState | None:
        fields = sighting.fields
        for name in ("doi", "arxiv", "dblp"):
            for value in _values(sighting.ids.get(name)):
                work = self._index.get(f"{name}:{str(value).lower()}")
                if work is not None and _compatible(work.fields, fields):
                    return work
        title = normalise_key(fields.get("title"))
        work = self._index.get(f"title:{title}")
        if work is not None and _compatible(work.fields, fields) and _years_close(work.fields, fields):
            return work
        return self._fuzzy(title, fields)

    def _fuzzy(self, title: str, fields: Mapping[str, Any]) -> _WorkState | None:
        """The work whose title is most like ``title`` (rapidfuzz, over the person's works at once)."""
        if not title or not self._titles:
            return None
        from rapidfuzz import fuzz, process

        candidates = process.extract(title, self._titles, scorer=fuzz.ratio, score_cutoff=FUZZY_TITLE, limit=5)
        for _title, _score, position in candidates:  # best first
            work = self._works[position]
            if _years_close(work.fields, fields) and _compatible(work.fields, fields):
                return work
        return None

    def _create(self, sighting: _Sighting) -> _WorkState:
        work = _WorkState(id=None, fields=dict(sighting.fields), ids={}, before=None)
        self.new_works.append(work)
        return work

    def _remember(self, work: _WorkState, sighting: _Sighting | None = None) -> None:
        """Index a work under every identifier and title it is known by."""
        sources: Iterable[Mapping[str, Any]] = [work.ids, paper_ids(work.fields)]
        if sighting is not None:
            sources = [*sources, sighting.ids]
        for ids in sources:
            for name, value in ids.items():
                if name in ("doi", "arxiv", "dblp"):
                    for one in _values(value):
                        self._index.setdefault(f"{name}:{str(one).lower()}", work)
        titles = [work.fields.get("title")] + ([sighting.fields.get("title")] if sighting else [])
        for title in titles:
            key = normalise_key(title)
            if key and f"title:{key}" not in self._index:
                self._index[f"title:{key}"] = work
                self._works.append(work)
                self._titles.append(key)


def merge_fields(sightings: Sequence[_Sighting]) -> dict[str, Any]:
    """A work's fields from its items: pages before indexes (the person's own words first),
    earlier-listed first; a published venue and its year over a preprint's."""
    ordered = sorted(sightings, key=lambda s: (s.on_index, s.source_id, s.item_id))
    merged: dict[str, Any] = {}
    for sighting in ordered:
        for name, value in sighting.fields.items():
            if merged.get(name) in (None, "", []) and value not in (None, "", []):
                merged[name] = value
    published = next((s.fields for s in ordered if s.fields.get("venue") and not is_preprint(s.fields)), None)
    if published is not None:
        merged["venue"] = published["venue"]
        merged["year"] = published.get("year") or merged.get("year")
    doi = next((s.fields["doi"] for s in ordered if _publication_doi(s.fields.get("doi"))), None)
    if doi:
        merged["doi"] = doi
    return {name: merged.get(name) for name in _PAPER_FIELDS}


# -- what the person sees --------------------------------------------------------------------


def _person_changes(book: _WorkBook, result: DiffResult) -> list[PaperChange]:
    changes: list[PaperChange] = []
    for change in result.changes:
        work = book.work_of_key.get(change.key) if change.kind == "paper" else None
        if work is None or work.reported:
            continue
        seen = _person_change(change, work)
        if seen is not None:
            changes.append(seen)
            work.reported = True
    # A preprint that became a publication through a quiet refresh of an item (a DOI link that
    # appeared on a page) is still the one change the person wants to hear about.
    for key, work in book.work_of_key.items():
        if work.gained_publication and not work.reported and work.sightings:
            changes.append(_modified(key, work))
            work.reported = True
    return changes


def _person_change(change: ItemChange, work: _WorkState) -> PaperChange | None:
    """What one paper change of the source is to the person (None: nothing new to them)."""
    if change.change == "added":
        if work.before is None:  # no other source listed it
            return _change("added", change.key, work, after=work.fields)
        return _modified(change.key, work) if work.gained_publication else None
    if change.change == "modified":
        return _modified(change.key, work) if meaningful_delta("paper", work.before or {}, work.fields) else None
    if work.sightings:  # removed here, still listed on another of the person's sources
        return None
    return _change("removed", change.key, work, before=work.before or change.before)


def _modified(key: str, work: _WorkState) -> PaperChange:
    delta = meaningful_delta("paper", work.before or {}, work.fields) or {
        name: {"old": (work.before or {}).get(name), "new": work.fields.get(name)}
        for name in ("venue", "doi")
        if (work.before or {}).get(name) != work.fields.get(name)
    }
    return _change("modified", key, work, before=work.before, after=work.fields, delta=delta, old_key=key)


def _change(
    kind: str,
    key: str,
    work: _WorkState,
    *,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    delta: dict[str, Any] | None = None,
    old_key: str | None = None,
) -> PaperChange:
    return PaperChange(change=kind, kind="paper", key=key, old_key=old_key, before=before, after=after,  # type: ignore[arg-type]
                       delta=delta, ids=dict(work.ids))  # fmt: skip


# -- small helpers ---------------------------------------------------------------------------


def _lock_person(session: Session, person_id: int) -> None:
    """Serialise the readings of one person's sources (daemons sharing PostgreSQL; a no-op on SQLite,
    whose writers take the database lock)."""
    session.execute(select(Person.id).where(Person.id == person_id).with_for_update())


def _extraction_ids(extraction: Extraction | None) -> dict[str, dict[str, Any]]:
    """The identifiers an index extractor gave beside its records, by the aliases of each record."""
    if extraction is None or not extraction.ids:
        return {}
    from watcher.normalise import normalise_record

    found: dict[str, dict[str, Any]] = {}
    for raw, ids in zip(extraction.records, extraction.ids, strict=False):
        if not ids or not isinstance(raw, Paper):
            continue
        record = normalise_record(raw)
        if record is None:
            continue
        for alias in _aliases(record_fields(record)):
            found.setdefault(alias, {}).update(ids)
    return found


def _lookup_ids(fields: Mapping[str, Any], extraction_ids: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    ids: dict[str, Any] = {}
    for alias in _aliases(fields):
        ids.update(extraction_ids.get(alias, {}))
    return ids


def _aliases(fields: Mapping[str, Any]) -> list[str]:
    aliases = [f"doi:{str(fields['doi']).lower()}"] if fields.get("doi") else []
    if fields.get("arxiv"):
        aliases.append(f"arxiv:{fields['arxiv']}")
    if title := normalise_key(fields.get("title")):
        aliases.append(f"title:{title}|{fields.get('venue') or ''}")
    return aliases


def _add_id(ids: dict[str, Any], name: str, value: Any) -> None:
    current = _values(ids.get(name))
    if value in (None, "") or value in current:
        return
    ids[name] = value if not current else [*current, value]


def _values(value: Any) -> list[Any]:
    if value in (None, ""):
        return []
    return list(value) if isinstance(value, list) else [value]


def _publication_doi(doi: Any) -> bool:
    # arXiv's own DOIs (10.48550) name the preprint, not a publication.
    return bool(doi) and not str(doi).lower().startswith("10.48550/")


def _compatible(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Two different publication DOIs are two papers (a workshop and a journal version)."""
    a, b = first.get("doi"), second.get("doi")
    return not (_publication_doi(a) and _publication_doi(b) and str(a).lower() != str(b).lower())


def _years_close(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    a, b = first.get("year"), second.get("year")
    return not isinstance(a, int) or not isinstance(b, int) or abs(a - b) <= 1
