"""The pipeline: one source through fetch → snapshot → extract → normalise → diff → store → outbox.

This module alone wires the stages together. Each check ends as one of
``baseline`` (first reading, items recorded silently), ``changed`` (changes recorded),
``unchanged``, ``suspect`` (the extraction collapsed: nothing reported, operator warned;
a page that keeps its collapsed shape at the next check is diffed with that reading)
or ``error`` (fetch or extraction failed: recorded, retried later).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import importlib
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from extractors import version_of
from watcher.apis import ApiSettings, api_settings, is_api_spec
from watcher.budget import ReadSettings, bound_document
from watcher.errors import ExtractionError, FetchError, WatcherError
from watcher.fetch import Fetcher, FetchSettings, HostGate, decode_body
from watcher.records import Document, Record, record_fields
from watcher.shards import host_of
from watcher.sites import new_to_site, reconcile_moves
from watcher.snapshot import (
    Fetched,
    bundle_body,
    load_body,
    load_bundle,
    record_snapshot,
    snapshot_row,
    store_bodies,
)
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Item, PersonSource, RobotsTxt, Snapshot, Source

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from watcher.config import Config
    from watcher.diff import DiffResult
    from watcher.extract import Extraction

__all__ = [
    "CheckOutcome",
    "Services",
    "check_source",
    "check_sources",
    "freeze_startup_objects",
    "open_services",
    "read_document",
]

#: Consecutive failures after which the operator is told (once) that a source is failing.
ALERT_AFTER_FAILURES = 5
#: Sources under way in ``check_sources`` per slot of its ``concurrency``.
BACKLOG_PER_SLOT = 4
#: How long a fetched robots.txt is reused by later checks: RFC 9309 lets crawlers cache it
#: for up to 24 hours. A re-check of unchanged pages then costs one request per page, not
#: one more per host.
ROBOTS_REUSE = timedelta(hours=24)


def freeze_startup_objects() -> None:
    """Exempt every object allocated so far (mostly imported modules) from garbage collection.

    For a process that runs one batch of checks and exits (``watcher check``): otherwise each
    full collection walks the hundreds of thousands of objects the imports left behind, about
    a fifth of the CPU of a re-check of 2,000 unchanged pages.
    """
    gc.freeze()


@dataclass(kw_only=True)
class Services:
    """The collaborators a check needs, built once by the CLI or the daemon."""

    db: Database
    fetcher: Fetcher
    notifiers: Sequence[Any] = ()
    now: Callable[[], datetime] = utcnow
    github_api: str = "https://api.github.com"
    github_raw: str = "https://raw.githubusercontent.com"
    github_token: str | None = field(default=None, repr=False)
    #: Where the index APIs (dblp:, arxiv:, openalex:, orcid:) are, and how politely to ask them.
    apis: ApiSettings = field(default_factory=ApiSettings)
    #: Where pages are extracted: worker processes, so that the event loop keeps fetching
    #: while a page is parsed; ``None`` extracts in the event loop's thread.
    extract_pool: Executor | None = None
    #: One page's reading budget (the config's ``read:`` section): time limit and size caps.
    read: ReadSettings = field(default_factory=ReadSettings)


def fetch_settings(config: Config | None) -> FetchSettings:
    """The fetch settings of a config's ``fetch:`` section (the defaults where it sets none)."""
    return FetchSettings(**config.fetch) if config is not None else FetchSettings()


@asynccontextmanager
async def open_services(
    db: Database,
    config: Config | None = None,
    *,
    settings: FetchSettings | None = None,
    environ: Mapping[str, str] = os.environ,
    now: Callable[[], datetime] = utcnow,
    notifiers: Sequence[Any] | None = None,
    host_gate: HostGate | None = None,
    extract_workers: int = 0,
) -> AsyncIterator[Services]:
    """Build the shared HTTP client and notifiers; close them on exit.

    ``host_gate`` books the gaps between requests to one host; by default they are shared by
    every daemon on a PostgreSQL ``db`` (``watcher.hosts``) and kept in-process otherwise.
    ``extract_workers`` > 0 extracts pages in that many worker processes.
    """
    if notifiers is None:
        from watcher.notify import build_notifiers

        notifiers = build_notifiers(config.notify if config else (), environ)
    from watcher.github import github_endpoints_from_env

    api, raw, token = github_endpoints_from_env(environ)
    apis = api_settings(environ, config.extra.get("apis") if config else None)
    if host_gate is None:
        from watcher.hosts import shared_host_gate

        host_gate = shared_host_gate(db)
    pool = None
    if extract_workers > 0:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(extract_workers)
    try:
        async with Fetcher(settings or fetch_settings(config), host_gate=host_gate) as fetcher:
            yield Services(
                db=db,
                fetcher=fetcher,
                notifiers=notifiers,
                now=now,
                github_api=api,
                github_raw=raw,
                github_token=token,
                apis=apis,
                extract_pool=pool,
                read=ReadSettings.from_config(config.read if config else None),
            )
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


@dataclass(frozen=True, kw_only=True)
class CheckOutcome:
    source: str
    url: str
    status: str
    items: int = 0
    changes: int = 0
    error: str | None = None
    retryable: bool = False
    duration_ms: int = 0
    #: What the reading left out to stay within its budget ("read in part: ..."), when it did.
    warning: str | None = None


@dataclass(frozen=True)
class _SourceView:
    """The few fields of a source a check reads, detached from any session."""

    id: int
    name: str
    url: str
    extractor: str
    obey_robots: bool
    fetch_state: Mapping[str, Any]
    alerted: bool = False
    suspect: bool = False
    #: The person or lab that owns the source: its papers are matched across their sources.
    person_id: int | None = None


async def read_document(
    services: Services,
    url: str,
    *,
    fetch_state: Mapping[str, Any] | None = None,
    obey_robots: bool = True,
    previous_files: Mapping[str, str] | None = None,
) -> Fetched:
    """Fetch a page, a file or a repository, conditionally when validators are known."""
    state = fetch_state or {}
    if url.startswith("github:"):
        from watcher.extract import wanted_paths_signature, wanted_repository_path
        from watcher.github import fetch_repository, parse_repo_spec

        repo = await fetch_repository(
            services.fetcher,
            parse_repo_spec(url),
            wants_path=wanted_repository_path,
            state=state.get("github") or {},
            previous_files=previous_files or {},
            api_base=services.github_api,
            raw_base=services.github_raw,
            token=services.github_token,
            wants_signature=wanted_paths_signature(),
        )
        body = bundle_body(repo.files)
        return Fetched(
            url=url,
            status=304 if repo.not_modified else 200,
            body=body,
            text="",
            content_type="application/x-repository",
            files=repo.files,
            repo_state=repo.state,
            not_modified=repo.not_modified,
        )
    if _read_again(state):
        # A 304 would leave nothing to re-read: ask for the body so it is read anew.
        state = {}
    if is_api_spec(url):
        return await _read_index(services, url, state)
    result = await services.fetcher.fetch(
        url, etag=state.get("etag"), last_modified=state.get("last_modified"), obey_robots=obey_robots
    )
    return Fetched(
        url=result.url,
        status=result.status,
        body=result.body,
        text=result.text,
        content_type=result.content_type,
        etag=result.etag,
        last_modified=result.last_modified,
        not_modified=result.not_modified,
        elapsed_ms=result.elapsed_ms,
    )


async def _read_index(services: Services, url: str, state: Mapping[str, Any]) -> Fetched:
    """An index record (``dblp:``, ``arxiv:``, ``openalex:``, ``orcid:``) through its API, as a bundle."""
    from watcher.apis import fetch_api_source, parse_api_spec

    answer = await fetch_api_source(services.fetcher, parse_api_spec(url), state=state, settings=services.apis)
    return Fetched(
        url=url,
        status=304 if answer.not_modified else 200,
        body=b"" if answer.not_modified else bundle_body(answer.files),
        text="",
        content_type="application/x-index-record",
        files=answer.files,
        etag=answer.state.get("etag"),
        last_modified=answer.state.get("last_modified"),
        not_modified=answer.not_modified,
    )


def to_document(source_url: str, fetched: Fetched) -> Document:
    if fetched.files is not None:
        return Document(url=source_url, files=fetched.files, content_type=fetched.content_type)
    return Document(url=fetched.url, text=fetched.text, content_type=fetched.content_type)


async def check_source(services: Services, source_id: int) -> CheckOutcome:
    """Check one source now and record everything it found. Never raises for a bad page."""
    with services.db.session() as session:
        view = _load_views(session, [source_id]).get(source_id)
    if view is None:
        raise WatcherError(f"no source with id {source_id}")
    return await _check_view(services, view, None, None)


async def _check_view(
    services: Services, view: _SourceView, batch: _Batch | None, gate: asyncio.Semaphore | None
) -> CheckOutcome:
    """Fetch, and stop early for unchanged content (into ``batch`` when given), else extract and record.

    ``gate`` bounds the sources past their fetch; a source waiting for its host's turn holds
    no slot, so politeness delays on a few hosts do not idle the whole check.
    """
    started = time.perf_counter()
    try:
        fetched = await read_document(
            services,
            view.url,
            fetch_state=view.fetch_state,
            obey_robots=view.obey_robots,
            previous_files=_previous_files(services, view),
        )
        if gate is not None:
            async with gate:
                return await _process(services, view, fetched, batch, started)
        return await _process(services, view, fetched, batch, started)
    except FetchError as exc:
        return _record_failure(services, view, exc, started)


async def _process(
    services: Services, view: _SourceView, fetched: Fetched, batch: _Batch | None, started: float
) -> CheckOutcome:
    try:
        if _content_unchanged(view, fetched):
            if batch is not None and not (view.alerted or view.suspect):
                return batch.add_unchanged(view, fetched, started)
            return _record_unchanged(services, view, fetched, started)
        document = to_document(view.url, fetched)
        if services.extract_pool is None:
            if not _extraction_loaded():
                # The first page to read imports the extraction stack (about 0.3 s): in a thread,
                # so the event loop meanwhile sends the requests it has booked, on time.
                await asyncio.to_thread(_load_extraction)
            extraction, records = _extract(document, view.extractor, services.read)
        else:
            loop = asyncio.get_running_loop()
            extraction, records = await loop.run_in_executor(
                services.extract_pool, _extract, document, view.extractor, services.read
            )
    except (FetchError, ExtractionError) as exc:
        return _record_failure(services, view, exc, started)
    reading = _read_state(fetched, extraction, records)
    # A page read in part is written on its own, its note with it.
    if batch is not None and not (view.alerted or view.suspect or extraction.notes):
        if not view.fetch_state and view.person_id is None:  # never read: a baseline
            return batch.add_first_reading(view, fetched, extraction, records, reading, started)
        if _same_reading(view.fetch_state, reading):
            return batch.add_same_reading(view, fetched, extraction, reading, started)
    with services.db.session() as session:
        return _apply_extraction(services, session, view, fetched, extraction, records, reading, started)


_EXTRACTION_MODULES = ("watcher.extract", "watcher.normalise", "watcher.diff")


def _extraction_loaded() -> bool:
    return all(name in sys.modules for name in _EXTRACTION_MODULES)


def _load_extraction() -> None:
    # watcher.extract builds the registry, which imports every extractor.
    for name in _EXTRACTION_MODULES:
        importlib.import_module(name)


def _extract(document: Document, extractor: str, budget: ReadSettings) -> tuple[Extraction, list[Record]]:
    """Extract and normalise one page (in a worker process when there is a pool), within its budget."""
    # Imported on the first page to read: a re-check answered by 304s never needs the extractors.
    from watcher.budget import read_within
    from watcher.normalise import normalise_records

    extraction = read_within(document, extractor, budget)
    return extraction, normalise_records(extraction.records)


async def check_sources(
    services: Services,
    source_ids: Sequence[int],
    *,
    concurrency: int = 64,
    on_done: Callable[[CheckOutcome], Awaitable[None] | None] | None = None,
) -> list[CheckOutcome]:
    """Check many sources concurrently (politeness per host is the fetcher's job).

    Requests in flight are bounded by the fetcher (``FetchSettings.max_concurrency``);
    ``concurrency`` bounds the sources being read and recorded after their fetch.

    The sources are read in one query, and the readings that report nothing (the many "not
    modified" answers of a re-check, the first readings of new sources) are recorded in
    batches rather than one transaction each: on SQLite that was most of their cost.
    """
    gate = asyncio.Semaphore(concurrency)
    started = services.now()
    with services.db.session() as session:
        views = _load_views(session, source_ids)
        services.fetcher.reuse_robots(_fresh_robots(session, services.now()))
    batch = _Batch(services)

    async def one(source_id: int) -> CheckOutcome:
        view = views.get(source_id)
        if view is None:
            outcome = await check_source(services, source_id)  # raises: no such source
        else:
            outcome = await _check_view(services, view, batch, gate)
        if batch.full:
            batch.flush()
        if on_done is not None:
            maybe = on_done(outcome)
            if maybe is not None:
                await maybe
        return outcome

    # Sources under way (fetching, fetched and waiting for a slot, or being recorded) are
    # bounded by a pool of workers, each taking the next source when done with one: without a
    # bound, pages fetched faster than they are extracted pile up in memory, and a task per
    # source (10,000 waiting tasks) was work for the garbage collector at every collection.
    positions = iter(_spread_by_host(source_ids, views))
    done: list[tuple[int, CheckOutcome]] = []

    async def worker() -> None:
        for position in positions:
            done.append((position, await one(source_ids[position])))

    try:
        await asyncio.gather(*(worker() for _ in range(min(len(source_ids), BACKLOG_PER_SLOT * concurrency))))
    finally:
        batch.flush()
        _keep_robots(services)
    if any(outcome.changes for _, outcome in done) and len(source_ids) > 1:
        with services.db.session() as session:
            reconcile_moves(session, source_ids, started)
    # Back in the order asked for.
    return [outcome for _, outcome in sorted(done, key=lambda pair: pair[0])]


def _spread_by_host(source_ids: Sequence[int], views: Mapping[int, _SourceView]) -> list[int]:
    """Positions in ``source_ids`` in the order to start them: each host's first source, then each
    host's second, and so on.

    A host's next request waits a gap after the one before; started side by side, a host's
    sources would hold the sources-under-way slots while they wait (a watch list often lists
    a lab's pages together).
    """
    by_host: dict[str, list[int]] = {}
    for position, source_id in enumerate(source_ids):
        view = views.get(source_id)
        by_host.setdefault(host_of(view.url) if view is not None else "", []).append(position)
    return [position for turn in zip_longest(*by_host.values()) for position in turn if position is not None]


class _Batch:
    """Readings waiting to be written together, rather than one transaction each.

    Three kinds of reading need no look at what is stored and report nothing: a 304 (a snapshot
    row and a source update), a source's first reading (its body, snapshot, items and state),
    and a new body that reads exactly as the stored items (its body, snapshot and state). On
    SQLite the per-page transaction was most of the cost of each. A process that dies before
    a flush loses these rows only: those sources are simply read again next time.
    """

    #: Pages per transaction: large enough to amortise the commit, small enough to lose little.
    SIZE = 256
    #: First readings per transaction: each holds its body and items in memory until written.
    READINGS = 64

    def __init__(self, services: Services) -> None:
        self.services = services
        self.snapshots: list[dict[str, Any]] = []
        self.unchanged_sources: list[dict[str, Any]] = []
        self.read_sources: list[dict[str, Any]] = []
        self.bodies: dict[str, bytes] = {}
        self.items: list[dict[str, Any]] = []

    @property
    def full(self) -> bool:
        return len(self.snapshots) >= self.SIZE or len(self.read_sources) >= self.READINGS

    def add_unchanged(self, view: _SourceView, fetched: Fetched, started: float) -> CheckOutcome:
        now = self.services.now()
        duration = _elapsed_ms(started)
        self.snapshots.append(
            snapshot_row(view.id, fetched_at=now, outcome="unchanged", fetched=fetched, duration_ms=duration)
        )
        source = {"id": view.id, "last_checked_at": now, "last_status": "unchanged", "last_error": None, "failures": 0}
        if fetched.not_modified:
            self.unchanged_sources.append(source)
        else:  # the same body again, from a server that does not answer 304: keep its new validators
            self.read_sources.append({**source, "fetch_state": {**view.fetch_state, **fetched.validators()}})
        items = view.fetch_state.get("items", 0)
        return CheckOutcome(source=view.name, url=view.url, status="unchanged", items=items, duration_ms=duration)

    def add_first_reading(
        self,
        view: _SourceView,
        fetched: Fetched,
        extraction: Extraction,
        records: Sequence[Record],
        reading: Mapping[str, Any],
        started: float,
    ) -> CheckOutcome:
        """A baseline: the items of a source never read before, recorded silently."""
        now = self.services.now()
        self._add_reading(view, fetched, extraction, "baseline", reading, now, started)
        self.items.extend(_first_item_rows(view.id, records, now))
        return CheckOutcome(
            source=view.name, url=view.url, status="baseline", items=len(records), duration_ms=_elapsed_ms(started)
        )

    def add_same_reading(
        self, view: _SourceView, fetched: Fetched, extraction: Extraction, reading: Mapping[str, Any], started: float
    ) -> CheckOutcome:
        """A new body that reads exactly as the stored items (a date, a counter, markup): its
        body and validators are kept, its items are not touched."""
        self._add_reading(view, fetched, extraction, "unchanged", reading, self.services.now(), started)
        return CheckOutcome(
            source=view.name, url=view.url, status="unchanged", items=reading["items"], duration_ms=_elapsed_ms(started)
        )

    def _add_reading(
        self,
        view: _SourceView,
        fetched: Fetched,
        extraction: Extraction,
        outcome: str,
        reading: Mapping[str, Any],
        now: datetime,
        started: float,
    ) -> None:
        row = _read_snapshot_row(view.id, fetched, extraction, outcome, reading["items"], started, now)
        if row["content_hash"]:
            self.bodies[row["content_hash"]] = fetched.body
        self.snapshots.append(row)
        self.read_sources.append(
            {"id": view.id, "last_checked_at": now, "last_status": outcome, "last_error": None, "failures": 0,
             "fetch_state": {**view.fetch_state, **reading}}
        )  # fmt: skip

    def flush(self) -> None:
        if not self.snapshots:
            return
        snapshots, bodies, items = self.snapshots, self.bodies, self.items
        sources = [rows for rows in (self.unchanged_sources, self.read_sources) if rows]
        self.snapshots, self.bodies, self.items = [], {}, []
        self.unchanged_sources, self.read_sources = [], []
        with self.services.db.session() as session:
            store_bodies(session, bodies)
            session.execute(insert(Snapshot.__table__), snapshots)
            if items:
                session.execute(insert(Item.__table__), items)
            # Two statements: the ORM's bulk update by primary key wants one set of columns each.
            for rows in sources:
                session.execute(update(Source), rows)


def _fresh_robots(session: Session, now: datetime) -> dict[str, str | None]:
    """The robots.txt bodies fetched less than ``ROBOTS_REUSE`` ago, by origin."""
    rows = session.execute(select(RobotsTxt.origin, RobotsTxt.body).where(RobotsTxt.fetched_at > now - ROBOTS_REUSE))
    return {origin: body for origin, body in rows}


def _keep_robots(services: Services) -> None:
    """Store the robots.txt answers this check fetched, replacing older ones of the same origins."""
    fetched = services.fetcher.take_fetched_robots()
    if not fetched:
        return
    now = services.now()
    origins = list(fetched)
    with services.db.session() as session:
        # Chunks keep the IN list under SQLite's bound-parameter limit.
        for start in range(0, len(origins), 500):
            session.execute(delete(RobotsTxt).where(RobotsTxt.origin.in_(origins[start : start + 500])))
        session.execute(
            insert(RobotsTxt), [{"origin": origin, "fetched_at": now, "body": body} for origin, body in fetched.items()]
        )


def _load_views(session: Session, source_ids: Sequence[int]) -> dict[int, _SourceView]:
    views: dict[int, _SourceView] = {}
    wanted = list(dict.fromkeys(source_ids))
    # Chunks keep the IN list under SQLite's bound-parameter limit.
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        owners: dict[int, int] = {
            row.source_id: row.person_id
            for row in session.execute(
                select(PersonSource.source_id, PersonSource.person_id).where(PersonSource.source_id.in_(chunk))
            )
        }
        views.update(
            (s.id, _view_of(s, owners.get(s.id))) for s in session.scalars(select(Source).where(Source.id.in_(chunk)))
        )
    return views


def _view_of(source: Source, person_id: int | None = None) -> _SourceView:
    return _SourceView(
        id=source.id,
        name=source.name,
        url=source.url,
        extractor=source.extractor,
        obey_robots=source.obey_robots,
        fetch_state=dict(source.fetch_state or {}),
        alerted=source.alerted is not None,
        suspect=source.last_status == "suspect",
        person_id=person_id,
    )


def _previous_files(services: Services, view: _SourceView) -> dict[str, str]:
    """A repository's files as last stored, so only changed blobs are downloaded again."""
    if not view.url.startswith("github:") or not view.fetch_state.get("hash"):
        return {}
    with services.db.session() as session:
        return load_bundle(load_body(session, view.fetch_state["hash"]))


def _content_unchanged(view: _SourceView, fetched: Fetched) -> bool:
    """A 304, or the same bytes as last time read by the same extractor version, with nothing held."""
    state = view.fetch_state
    same = fetched.not_modified or (bool(fetched.body) and fetched.hash == state.get("hash"))
    return same and not _read_again(state)


def _read_again(state: Mapping[str, Any]) -> bool:
    """Whether unchanged content is read anew: a newer extractor re-reads it, so an upgrade takes
    effect without a page edit; a page that holds items it stopped showing lets them go."""
    return _extractor_outdated(state) or bool(state.get("held_kinds"))


def _extractor_outdated(state: Mapping[str, Any]) -> bool:
    """Whether the extractor that last read this source has a newer version now."""
    version = version_of(state.get("extractor") or "")
    return version is not None and version != state.get("extractor_version")


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _record_unchanged(services: Services, view: _SourceView, fetched: Fetched, started: float) -> CheckOutcome:
    now = services.now()
    with services.db.session() as session:
        source = session.get(Source, view.id)
        assert source is not None
        row = snapshot_row(
            source.id, fetched_at=now, outcome="unchanged", fetched=fetched, duration_ms=_elapsed_ms(started)
        )
        record_snapshot(session, row)
        if not fetched.not_modified:
            source.fetch_state = {**source.fetch_state, **fetched.validators()}
        # The same broken page as last time is still suspect, not healthy.
        status = "suspect" if source.last_status == "suspect" else "unchanged"
        _mark_success(services, session, source, status, now)
        items = source.fetch_state.get("items", 0)
    return CheckOutcome(
        source=view.name, url=view.url, status="unchanged", items=items, duration_ms=_elapsed_ms(started)
    )


def _record_failure(services: Services, view: _SourceView, exc: WatcherError, started: float) -> CheckOutcome:
    now = services.now()
    retryable = bool(getattr(exc, "retryable", False))
    with services.db.session() as session:
        source = session.get(Source, view.id)
        assert source is not None
        record_snapshot(
            session,
            snapshot_row(source.id, fetched_at=now, outcome="error", error=str(exc), duration_ms=_elapsed_ms(started)),
        )
        source.last_checked_at = now
        source.last_status = "error"
        source.last_error = str(exc)
        source.failures = (source.failures or 0) + 1
        if getattr(exc, "status", None) in _MISSING and "extractor" not in (source.fetch_state or {}):
            # A page of a site that does not exist yet: when it appears, what it brings is news.
            source.fetch_state = {**(source.fetch_state or {}), "missing_since": now.isoformat()}
        if source.failures >= ALERT_AFTER_FAILURES:
            _alert_operator(services, session, source, f"failing {source.failures} times: {exc}", now)
    return CheckOutcome(
        source=view.name,
        url=view.url,
        status="error",
        error=str(exc),
        retryable=retryable,
        duration_ms=_elapsed_ms(started),
    )


def _mark_success(services: Services, session: Session, source: Source, status: str, now: datetime) -> None:
    source.last_checked_at = now
    source.last_status = status
    source.failures = 0
    if status != "suspect":
        source.last_error = None
    if source.alerted and status != "suspect":
        from watcher.notify.outbox import clear_operator_alert

        clear_operator_alert(source)


def _alert_operator(services: Services, session: Session, source: Source, reason: str, now: datetime) -> None:
    if not services.notifiers:
        return
    from watcher.notify.outbox import enqueue_operator_alert

    enqueue_operator_alert(session, source, reason, now, services.notifiers)


def _tell_reformat(services: Services, session: Session, source: Source, reason: str, now: datetime) -> None:
    """Tell the operator once that a list was re-rendered (its new reading is already stored).

    Not an episode like a failing source: the source is healthy, so the next reformat is told too.
    """
    from watcher.notify.outbox import clear_operator_alert

    _alert_operator(services, session, source, reason, now)
    clear_operator_alert(source)


def _apply_extraction(
    services: Services,
    session: Session,
    view: _SourceView,
    fetched: Fetched,
    extraction: Extraction,
    records: Sequence[Record],
    reading: Mapping[str, Any],
    started: float,
) -> CheckOutcome:
    """Diff the new reading (``records``, and their ``_read_state``) against the stored items and
    record it all in one transaction."""
    # Imported here, with the rest of the extraction stack (see _load_extraction): a re-check
    # answered only by 304s never needs it. Its pairing imports numpy and rapidfuzz itself.
    from watcher.diff import DiffResult, StoredItem, diff_items
    from watcher.shown import (
        additions_to_check,
        keep_shown_items,
        removals_to_check,
        shown_text,
        without_read_anew,
        without_reader_differences,
    )

    now = services.now()
    source = session.get(Source, view.id)
    assert source is not None
    state = dict(source.fetch_state or {})
    if _same_reading(state, reading):
        # A new body that reads exactly as the stored items (a date, a counter, markup):
        # nothing to load, compare or rewrite.
        return _record_same_reading(services, session, source, fetched, extraction, reading, started, now)
    # A source never read before has no items to load (most of a first check's sources).
    rows = _load_items(session, source.id) if source.fetch_state else {}
    # In page order: the diff tells a rolling list (items leaving at one end) by position.
    previous = [
        StoredItem(kind=row.kind, key=row.key, fields=row.fields)
        for row in sorted(rows.values(), key=lambda row: row.position)
        if row.removed_at is None
    ]
    first_reading = "extractor" not in state
    # Items read by code that has changed since (an upgraded or retired extractor) are read
    # anew silently: the difference is the reader's, not the page's. A page that another
    # extractor claims now, its old one unchanged, was redesigned: its changes are diffed,
    # under the diff's guards for a list read anew. A repository's files are read anew.
    switched = state.get("extractor") != extraction.extractor
    rebaseline = (
        first_reading
        or version_of(state.get("extractor") or "") != state.get("extractor_version")
        or (switched and fetched.files is not None)
    )
    # A baseline over no stored items needs no pairing: every item would be "added" and none
    # of that is reported, and nothing stored means nothing can look collapsed.
    if rebaseline and not rows:
        result = DiffResult(changes=(), suspect=None, unchanged=0)
        if first_reading and "missing_since" in state:
            missing_since = datetime.fromisoformat(state["missing_since"])
            result = new_to_site(session, source, diff_items([], records), missing_since)
            rebaseline = not result.changes
            switched = False  # nothing was shown before to tell a reader's difference from
    else:
        result = diff_items(previous, records)
    settled = None
    if result.suspect and not first_reading:
        settled = _settled_reading(state, previous, records)
        if settled is None:
            return _record_suspect(services, session, source, fetched, extraction, records, result, started, now)
        result = settled
    kept: set[tuple[str, str]] = set()
    a_page = fetched.files is None
    check_removals = not rebaseline and removals_to_check(result, members=a_page)
    # The words the page shows now, read once for both checks that ask for them.
    shown_now = (
        shown_text(bound_document(to_document(view.url, fetched), services.read)[0])
        if check_removals or (not rebaseline and switched)
        else ""
    )
    if check_removals:
        result, kept = keep_shown_items(result, shown_now, members=a_page)
    held = _held_items(state, previous, result)
    kept |= held
    if not rebaseline and switched:
        result = without_reader_differences(result, _previous_shown(session, view.url, state, fetched), shown_now)
    elif not rebaseline and a_page and additions_to_check(result):
        result = without_read_anew(result, _previous_shown(session, view.url, state, fetched))
    status = "baseline" if rebaseline else ("changed" if result.changes else "unchanged")
    row = _read_snapshot_row(source.id, fetched, extraction, status, len(records), started, now)
    snapshot_id = record_snapshot(session, row, fetched)
    renames = {(c.kind, c.old_key): c.key for c in result.changes if c.old_key and c.old_key != c.key}
    renames.update({(r.kind, r.old_key): r.key for r in result.refreshed if r.old_key != r.key})
    if rebaseline and not rows:
        _insert_first_items(session, source, records, now)
        item_ids: dict[tuple[str, str], int] = {}
    else:
        item_ids = _sync_items(session, source.id, rows, records, renames, now, kept=kept)
    if view.person_id is not None:
        result = _reconcile_person(session, view, extraction, result, rebaseline, now)
        status = status if rebaseline else ("changed" if result.changes else "unchanged")
    changes: list[Change] = []
    if not rebaseline and result.changes:
        changes = _record_changes(session, source, snapshot_id, result, item_ids, rows, now)
        source.last_change_check_at = now
        if services.notifiers:
            from watcher.notify.outbox import enqueue_changes

            enqueue_changes(session, changes, services.notifiers, now)
    state.update(reading)
    state.pop("suspect_reading", None)
    state.pop("missing_since", None)
    if held:
        state["held_kinds"] = list(result.held)
    else:
        state.pop("held_kinds", None)
    if kept:
        # The stored items are more than this reading: the next reading must be diffed, even
        # the same one, to tell the kept items' removal once the page drops them.
        state.pop("reading", None)
    source.fetch_state = state
    _mark_success(services, session, source, status, now)
    source.last_error = _partial(extraction)
    if result.reformatted and not rebaseline:
        _tell_reformat(services, session, source, result.reformatted, now)
    if held:
        kinds = ", ".join(f"{kind}s" for kind in result.held)
        _tell_reformat(services, session, source, f"the page no longer shows its {kinds}: kept as they were", now)
    if settled is not None:
        _tell_reformat(services, session, source, _SETTLED, now)
    return CheckOutcome(
        source=view.name,
        url=view.url,
        status=status,
        items=len(records),
        changes=len(changes),
        warning=_partial(extraction),
        duration_ms=_elapsed_ms(started),
    )


def _previous_shown(session: Session, url: str, state: Mapping[str, Any], fetched: Fetched) -> str:
    """The words the page showed at its last reading (``shown_text``), or nothing if its body is gone."""
    from watcher.shown import shown_text

    body = load_body(session, state.get("hash"))
    if not body:
        return ""
    text = decode_body(body, fetched.content_type)
    return shown_text(Document(url=url, text=text, content_type=fetched.content_type))


def _reconcile_person(
    session: Session, view: _SourceView, extraction: Extraction, result: DiffResult, rebaseline: bool, now: datetime
) -> DiffResult:
    """The source's changes as its person sees them: a paper already listed on another of their
    sources is not new (``watcher.works``)."""
    from watcher.works import reconcile_papers

    assert view.person_id is not None
    seen = reconcile_papers(session, person_id=view.person_id, source_id=view.id, extraction=extraction,
                            result=result, report=not rebaseline, now=now)  # fmt: skip
    assert seen is not None
    return seen


def _read_snapshot_row(
    source_id: int,
    fetched: Fetched,
    extraction: Extraction,
    outcome: str,
    item_count: int,
    started: float,
    now: datetime,
    *,
    error: str | None = None,
) -> dict[str, Any]:
    """The snapshot row of a page that was read (it names the body, which its writer keeps)."""
    return snapshot_row(
        source_id,
        fetched_at=now,
        outcome=outcome,
        fetched=fetched,
        store=True,
        extractor=extraction.extractor,
        extractor_version=extraction.version,
        item_count=item_count,
        error=error if error is not None else _partial(extraction),
        duration_ms=_elapsed_ms(started),
    )


def _partial(extraction: Extraction) -> str | None:
    """What a reading left out to stay within its budget, or None when it read the whole page."""
    return "; ".join(extraction.notes) or None


def _same_reading(state: Mapping[str, Any], new_state: Mapping[str, Any]) -> bool:
    """Whether a new reading (its ``_read_state``) is exactly the stored items, by the same extractor version."""
    return "reading" in state and all(
        state.get(name) == new_state[name] for name in ("reading", "extractor", "extractor_version")
    )


def _record_same_reading(
    services: Services,
    session: Session,
    source: Source,
    fetched: Fetched,
    extraction: Extraction,
    reading: Mapping[str, Any],
    started: float,
    now: datetime,
) -> CheckOutcome:
    row = _read_snapshot_row(source.id, fetched, extraction, "unchanged", reading["items"], started, now)
    record_snapshot(session, row, fetched)
    source.fetch_state = {k: v for k, v in {**source.fetch_state, **reading}.items() if k != "suspect_reading"}
    _mark_success(services, session, source, "unchanged", now)
    source.last_error = _partial(extraction)
    return CheckOutcome(
        source=source.name, url=source.url, status="unchanged", items=reading["items"],
        warning=_partial(extraction), duration_ms=_elapsed_ms(started),
    )  # fmt: skip


#: The most items of a suspect reading kept for the next check to compare with.
_SUSPECT_KEPT = 2000
#: Statuses that say a page does not exist (yet), as opposed to failing to serve it.
_MISSING = (404, 410)
_SETTLED = "settled: the page kept the shape of its last suspect reading; its earlier items are no longer watched"


def _held_items(state: Mapping[str, Any], previous: Sequence[Any], result: DiffResult) -> set[tuple[str, str]]:
    """The stored items of the kinds ``result`` holds (the page stopped showing them while it shows its
    others as before), to keep as they are; none when the page held those kinds at its last check
    too: read twice so, it has let them go (its people moved to a page of their own), silently."""
    if not result.held or set(result.held) <= set(state.get("held_kinds", ())):
        return set()
    return {(item.kind, item.key) for item in previous if item.kind in result.held}


def _settled_reading(state: Mapping[str, Any], previous: Sequence[Any], records: Sequence[Record]) -> Any:
    """The diff to tell when a page that collapsed has kept its new shape (a split site's home page
    that now holds a few of its items): read twice so, still showing part of what it showed before,
    it is diffed with its last suspect reading, and the items it let go are no longer watched. A page
    that shows none of its items (an error page, a hosting notice) stays suspect. None: not settled."""
    from watcher.diff import StoredItem, diff_items, pair_items

    last = state.get("suspect_reading")
    if not last:
        return None
    before = [StoredItem(kind=kind, key=key, fields=fields) for kind, key, fields in last]
    current = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in records]
    if not pair_items(list(previous), current):
        return None  # nothing of the page as it was: broken, not redesigned
    result = diff_items(before, records)
    return None if result.suspect else result


def _record_suspect(
    services: Services,
    session: Session,
    source: Source,
    fetched: Fetched,
    extraction: Extraction,
    records: Sequence[Record],
    result: DiffResult,
    started: float,
    now: datetime,
) -> CheckOutcome:
    """Keep the stored items as they are; keep the body for a person to look at."""
    suspect = result.suspect
    row = _read_snapshot_row(source.id, fetched, extraction, "suspect", len(records), started, now, error=suspect)
    record_snapshot(session, row, fetched)
    source.last_checked_at = now
    source.last_status = "suspect"
    source.last_error = result.suspect
    # Remember the suspect body's hash so an unchanged broken page is not re-read each time,
    # but not the extractor: the next good reading is then compared with the stored items.
    state = dict(source.fetch_state or {})
    state.update(fetched.validators())
    state["hash"] = fetched.hash
    # What the page read as, for the next check to tell whether it has kept that shape (``_settled_reading``).
    state["suspect_reading"] = [[r.kind, r.key, record_fields(r)] for r in records[:_SUSPECT_KEPT]]
    source.fetch_state = state
    if source.alerted != "suspect":
        _alert_operator(services, session, source, f"suspect extraction: {result.suspect}", now)
    return CheckOutcome(
        source=source.name, url=source.url, status="suspect", items=len(records), error=result.suspect,
        duration_ms=_elapsed_ms(started),
    )


def _insert_first_items(session: Session, source: Source, records: Sequence[Record], now: datetime) -> None:
    """A source's first items in one bulk insert (no ORM objects: nothing refers to them yet)."""
    rows = _first_item_rows(source.id, records, now)
    if rows:
        # The table, not the mapped class: the ORM's bulk path costs more than the insert itself.
        session.execute(insert(Item.__table__), rows)


def _first_item_rows(source_id: int, records: Sequence[Record], now: datetime) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for position, record in enumerate(records):
        # A repeated key keeps its last reading, as _sync_items does.
        rows[(record.kind, record.key)] = _new_item_row(source_id, record, record_fields(record), position, now)
    return list(rows.values())


def _new_item_row(
    source_id: int, record: Record, fields: dict[str, Any], position: int, now: datetime
) -> dict[str, Any]:
    """The columns of an item seen for the first time."""
    return {
        "source_id": source_id, "kind": record.kind, "key": record.key, "fields": fields,
        "position": position, "first_seen": now, "last_seen": now,
    }  # fmt: skip


def _read_state(fetched: Fetched, extraction: Extraction, records: Sequence[Record]) -> dict[str, Any]:
    """What a source remembers of the reading it just stored: validators, body hash, extractor."""
    return {
        **fetched.validators(),
        "hash": fetched.hash,
        "extractor": extraction.extractor,
        "extractor_version": extraction.version,
        # Why the extractor was chosen: the dashboard shows it.
        "reason": extraction.reason,
        "items": len(records),
        "reading": reading_digest(records),
    }


def reading_digest(records: Sequence[Record]) -> str:
    """A fingerprint of a reading: its items, every field of each (as the records' own repr
    shows them), in page order.

    The stored items are this reading exactly, so a later page with the same fingerprint
    needs no diff. (The repr costs half of a JSON encoding of the same fields.)
    """
    return hashlib.blake2b(repr(list(records)).encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class _StoredRow:
    """One stored item as a check reads it: plain values, not an ORM object (loading and
    flushing ORM objects was most of the cost of recording a changed page)."""

    id: int
    kind: str
    key: str
    fields: dict[str, Any]
    position: int
    removed_at: datetime | None


def _load_items(session: Session, source_id: int) -> dict[tuple[str, str], _StoredRow]:
    table = Item.__table__
    query = select(table.c.id, table.c.kind, table.c.key, table.c.fields, table.c.position, table.c.removed_at)
    return {
        (row.kind, row.key): _StoredRow(row.id, row.kind, row.key, row.fields, row.position, row.removed_at)
        for row in session.execute(query.where(table.c.source_id == source_id))
    }


def _sync_items(
    session: Session,
    source_id: int,
    rows: dict[tuple[str, str], _StoredRow],
    records: Sequence[Record],
    renames: Mapping[tuple[str, str], str],
    now: datetime,
    *,
    kept: Collection[tuple[str, str]] = (),
) -> dict[tuple[str, str], int]:
    """Make the stored current items equal to ``records``: the item id of each record's key.
    Items in ``kept`` (kind, key) stay current though unread: the page still shows them.

    Rows of renamed items keep their id. Written as a few executemany statements: new rows,
    rows whose fields, key, position or removal differ, and a ``last_seen`` for the rest.
    """
    renamed: set[int] = set()
    for (kind, old_key), new_key in renames.items():
        row = rows.get((kind, old_key))
        if row is not None and (kind, new_key) not in rows:
            rows[(kind, new_key)] = replace(rows.pop((kind, old_key)), key=new_key)
            renamed.add(row.id)
    current: dict[tuple[str, str], int] = {}
    new_rows: dict[tuple[str, str], dict[str, Any]] = {}
    updated: dict[int, dict[str, Any]] = {}
    moved: dict[int, dict[str, Any]] = {}
    seen: list[int] = []
    for position, record in enumerate(records):
        ident = (record.kind, record.key)
        fields = record_fields(record)
        row = rows.get(ident)
        if row is None:
            # A repeated key keeps its last reading.
            new_rows[ident] = _new_item_row(source_id, record, fields, position, now)
            continue
        if row.id in updated or row.id in moved or row.fields != fields or row.removed_at is not None or (
            row.id in renamed
        ):
            moved.pop(row.id, None)
            updated[row.id] = {"b_id": row.id, "b_key": row.key, "b_fields": fields, "b_position": position}
        elif row.position != position:
            # A new item above shifts the rest: their fields stay, only the position is written.
            moved[row.id] = {"b_id": row.id, "b_position": position}
        else:
            seen.append(row.id)
        current[ident] = row.id
    # Renamed rows take their new keys before new rows are written: a new item may take the key
    # a renamed one gave up (a DOI that moved from one entry to another).
    _update_items(session, list(updated.values()), now)
    _move_items(session, list(moved.values()), now)
    current.update(_insert_items(session, list(new_rows.values())))
    table = Item.__table__
    # Chunks keep the IN lists under SQLite's bound-parameter limit.
    for start in range(0, len(seen), 500):
        session.execute(update(table).where(table.c.id.in_(seen[start : start + 500])).values(last_seen=now))
    gone = [
        row.id for ident, row in rows.items() if ident not in current and ident not in kept and row.removed_at is None
    ]
    for start in range(0, len(gone), 500):
        session.execute(update(table).where(table.c.id.in_(gone[start : start + 500])).values(removed_at=now))
    return current


def _move_items(session: Session, values: list[dict[str, Any]], now: datetime) -> None:
    if not values:
        return
    table = Item.__table__
    statement = update(table).where(table.c.id == bindparam("b_id"))
    session.execute(statement.values(position=bindparam("b_position"), last_seen=now), values)


def _insert_items(session: Session, values: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    if not values:
        return {}
    table = Item.__table__
    inserted = session.execute(insert(table).returning(table.c.id, table.c.kind, table.c.key), values)
    return {(row.kind, row.key): row.id for row in inserted}


def _update_items(session: Session, values: list[dict[str, Any]], now: datetime) -> None:
    if not values:
        return
    table = Item.__table__
    statement = (
        update(table)
        .where(table.c.id == bindparam("b_id"))
        .values(
            key=bindparam("b_key"),
            fields=bindparam("b_fields", type_=table.c.fields.type),
            position=bindparam("b_position"),
            removed_at=None,
            last_seen=now,
        )
    )
    session.execute(statement, values)


def _record_changes(
    session: Session,
    source: Source,
    snapshot_id: int,
    result: DiffResult,
    item_ids: Mapping[tuple[str, str], int],
    rows: Mapping[tuple[str, str], _StoredRow],
    now: datetime,
) -> list[Change]:
    changes = []
    for change in result.changes:
        ident = (change.kind, change.key)
        item_id = item_ids.get(ident) or (rows[ident].id if ident in rows else None)
        changes.append(
            Change(
                source_id=source.id,
                item_id=item_id,
                snapshot_id=snapshot_id,
                kind=change.kind,
                change=change.change,
                before=change.before,
                after=change.after,
                delta=change.delta,
                detected_at=now,
                ids=getattr(change, "ids", None),  # a person's paper: its ids across their sources
            )
        )
    session.add_all(changes)
    session.flush()
    return changes
