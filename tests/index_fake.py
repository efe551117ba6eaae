"""Emulated index APIs for tests: DBLP, arXiv, OpenAlex and ORCID on one loopback app each.

Each serves what a test puts in it, in the API's own response format (DBLP person XML, arXiv
Atom with OpenSearch totals, OpenAlex works JSON with cursor paging, ORCID v3.0 record JSON),
answers conditional GETs where the real API may (DBLP, ORCID, the arXiv author feed), and
records the time of every request. ``refuse`` queues answers to give first (a 429 with a
Retry-After, a broken body).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape

from aiohttp import web
from servers import serve

from watcher.fetch import FetchSettings
from watcher.pipeline import CheckOutcome, check_sources, open_services
from watcher.store.db import Database

__all__ = ["FakeIndexes", "Work", "check", "indexes_env", "serve_indexes"]


@dataclass(frozen=True)
class Work:
    """One paper as the indexes know it."""

    title: str
    year: int
    authors: tuple[str, ...] = ("Jane Doe",)
    venue: str | None = None  # None: a preprint
    doi: str | None = None
    arxiv: str | None = None
    dblp_key: str | None = None


@dataclass
class _Api:
    name: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    times: list[tuple[float, str]] = field(default_factory=list)
    queued: list[web.Response] = field(default_factory=list)

    def record(self, request: web.Request) -> web.Response | None:
        with self.lock:
            self.times.append((time.monotonic(), request.path_qs))
            return self.queued.pop(0) if self.queued else None


class FakeIndexes:
    """The four APIs over one shared set of people: ``works[key]`` per DBLP pid, arXiv name or
    ORCID iD, OpenAlex author id."""

    #: Entries per arXiv page and works per OpenAlex page, small so that tests see paging.
    page_size = 2

    def __init__(self) -> None:
        self.works: dict[str, list[Work]] = {}
        self.roles: dict[str, list[dict[str, Any]]] = {}
        self.apis = {name: _Api(name) for name in ("dblp", "arxiv", "openalex", "orcid")}

    # -- what tests do ---------------------------------------------------------------------
    def refuse(self, api: str, response: web.Response) -> None:
        """Answer the next request to ``api`` with ``response`` (then as usual)."""
        with self.apis[api].lock:
            self.apis[api].queued.append(response)

    def times(self, api: str) -> list[float]:
        with self.apis[api].lock:
            return [when for when, _ in self.apis[api].times]

    def paths(self, api: str) -> list[str]:
        with self.apis[api].lock:
            return [path for _, path in self.apis[api].times]

    def clear(self) -> None:
        for api in self.apis.values():
            with api.lock:
                api.times.clear()

    # -- the apps --------------------------------------------------------------------------
    def app(self, api: str) -> web.Application:
        app = web.Application()
        routes = {
            "dblp": ("/pid/{pid:.+}.xml", self._dblp),
            "arxiv": ("/api/query", self._arxiv_query),
            "openalex": ("/works", self._openalex),
            "orcid": ("/v3.0/{orcid}/record", self._orcid),
        }
        path, handler = routes[api]
        app.router.add_get(path, self._guarded(api, handler))
        if api == "arxiv":
            app.router.add_get("/a/{orcid}.atom2", self._guarded(api, self._arxiv_feed))
        return app

    def _guarded(self, api: str, handler: Any) -> Any:
        async def handle(request: web.Request) -> web.StreamResponse:
            return self.apis[api].record(request) or await handler(request)

        return handle

    async def _dblp(self, request: web.Request) -> web.Response:
        pid = request.match_info["pid"]
        if pid not in self.works:
            return web.Response(status=404, text="not found")
        return _conditional(request, dblp_person(pid, self.works[pid]), "application/xml")

    async def _arxiv_query(self, request: web.Request) -> web.Response:
        query = request.query.get("search_query", "")
        name = query.removeprefix("au:").strip('"')
        works = sorted(self.works.get(name, []), key=lambda w: w.arxiv or "", reverse=True)
        works = [w for w in works if w.arxiv]
        start = int(request.query.get("start", "0"))
        page = works[start : start + min(self.page_size, int(request.query.get("max_results", "10")))]
        return web.Response(text=arxiv_feed(page, total=len(works), start=start), content_type="application/atom+xml")

    async def _arxiv_feed(self, request: web.Request) -> web.Response:
        works = [w for w in self.works.get(request.match_info["orcid"], []) if w.arxiv]
        return _conditional(request, arxiv_feed(works, total=len(works), start=0), "application/atom+xml")

    async def _openalex(self, request: web.Request) -> web.Response:
        author = request.query.get("filter", "").removeprefix("author.id:")
        works = self.works.get(author, [])
        cursor = request.query.get("cursor", "*")
        start = 0 if cursor == "*" else int(cursor.removeprefix("c"))
        page = works[start : start + self.page_size]
        more = start + self.page_size < len(works)
        body = openalex_page(page, count=len(works), next_cursor=f"c{start + self.page_size}" if more else None)
        return web.Response(text=body, content_type="application/json")

    async def _orcid(self, request: web.Request) -> web.Response:
        orcid = request.match_info["orcid"]
        if orcid not in self.works:
            return web.json_response({"response-code": 404, "developer-message": "not found"}, status=404)
        body = orcid_record(orcid, self.works[orcid], self.roles.get(orcid, []))
        return _conditional(request, body, "application/vnd.orcid+json")


def _digits(text: str) -> str:
    """A stable number for a title (a record key, a work id)."""
    return str(int(hashlib.sha256(text.encode()).hexdigest()[:8], 16))


def _conditional(request: web.Request, body: str, content_type: str) -> web.Response:
    etag = f'"{hashlib.sha256(body.encode()).hexdigest()[:16]}"'
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers={"ETag": etag})
    return web.Response(text=body, headers={"ETag": etag, "Content-Type": f"{content_type}; charset=utf-8"})


@contextmanager
def serve_indexes(fake: FakeIndexes) -> Iterator[dict[str, str]]:
    """Serve the four APIs, each on its own loopback address; yields their base URLs by API."""
    with ExitStack() as stack:
        hosts = {"dblp": "127.0.0.11", "arxiv": "127.0.0.12", "openalex": "127.0.0.13", "orcid": "127.0.0.14"}
        yield {api: stack.enter_context(serve(fake.app(api), host=host)) for api, host in hosts.items()}


def check(
    database: Database,
    bases: dict[str, str],
    ids: list[int],
    *,
    etiquette: bool = False,
    retries: int = 0,
    **apis: Any,
) -> list[CheckOutcome]:
    """One ``watcher check`` of ``ids`` against the served APIs: without the APIs' gaps between
    requests (tests of other things need not wait for them) unless ``etiquette``; ``apis``
    replaces ``ApiSettings`` fields."""

    async def go() -> list[CheckOutcome]:
        settings = FetchSettings(host_delay=0.0, retries=retries, deadline=10.0)
        environ = indexes_env(bases)
        async with open_services(database, None, settings=settings, environ=environ, notifiers=()) as services:
            if not etiquette:
                apis.setdefault("gaps", dict.fromkeys(("dblp", "arxiv", "openalex", "orcid"), 0.0))
            services.apis = replace(services.apis, **apis)
            return await check_sources(services, ids)

    return asyncio.run(go())


def indexes_env(bases: dict[str, str]) -> dict[str, str]:
    """The environment that points watcher at the served APIs."""
    names = {"dblp": "WATCHER_DBLP_URL", "arxiv": "WATCHER_ARXIV_API", "openalex": "WATCHER_OPENALEX_API",
             "orcid": "WATCHER_ORCID_API"}  # fmt: skip
    return {names[api]: base for api, base in bases.items()}


# -- the response formats ----------------------------------------------------------------------


def dblp_person(pid: str, works: Sequence[Work]) -> str:
    records = []
    for work in works:
        key = work.dblp_key or f"conf/x/{_digits(work.title)}"
        informal = work.venue is None
        tag = "article" if informal else "inproceedings"
        venue = "<journal>CoRR</journal>" if informal else f"<booktitle>{escape(work.venue or '')}</booktitle>"
        links = [f"https://doi.org/{work.doi}"] if work.doi else []
        if informal and work.arxiv:
            links.append(f"https://doi.org/10.48550/arXiv.{work.arxiv}")
        volume = f"<volume>abs/{work.arxiv}</volume>" if informal and work.arxiv else ""
        authors = "".join(f'<author pid="{pid}">{escape(a)}</author>' for a in work.authors)
        ees = "".join(f'<ee type="oa">{escape(link)}</ee>' for link in links)
        publtype = ' publtype="informal"' if informal else ""
        records.append(
            f'<r><{tag} key="{key}" mdate="2026-11-01"{publtype}>'
            f"{authors}<title>{escape(work.title)}.</title><year>{work.year}</year>{volume}{venue}{ees}</{tag}></r>"
        )
    return (
        '<?xml version="1.0" encoding="US-ASCII"?>\n'
        f'<dblpperson name="Jane Doe" pid="{pid}" n="{len(works)}">'
        f'<person key="homepages/{pid}" mdate="2026-01-01"><author pid="{pid}">Jane Doe</author></person>'
        + "\n".join(records)
        + "</dblpperson>\n"
    )


def arxiv_feed(works: Sequence[Work], *, total: int, start: int) -> str:
    entries = []
    for work in works:
        journal = (
            f'<arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">{escape(work.venue)}</arxiv:journal_ref>'
            if work.venue else ""
        )  # fmt: skip
        authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in work.authors)
        entries.append(
            f"<entry><id>http://arxiv.org/abs/{work.arxiv}v1</id><updated>{work.year}-05-01T00:00:00Z</updated>"
            f"<published>{work.year}-05-01T00:00:00Z</published><title>{escape(work.title)}</title>"
            f"<summary>An abstract.</summary>{authors}{journal}"
            f'<link href="http://arxiv.org/abs/{work.arxiv}v1" rel="alternate" type="text/html"/>'
            '<arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" '
            'scheme="http://arxiv.org/schemas/atom"/><category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
            "</entry>"
        )
    opensearch = 'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f'<title type="html">ArXiv Query</title><id>http://arxiv.org/api/q</id><updated>{time.strftime("%Y-%m-%d")}'
        f"T00:00:00-05:00</updated><opensearch:totalResults {opensearch}>{total}</opensearch:totalResults>"
        f"<opensearch:startIndex {opensearch}>{start}</opensearch:startIndex>"
        + "".join(entries)
        + "</feed>\n"
    )


def openalex_page(works: Sequence[Work], *, count: int, next_cursor: str | None) -> str:
    results = []
    for work in works:
        doi = work.doi or (f"10.48550/arxiv.{work.arxiv}" if work.arxiv and not work.venue else None)
        source = {"display_name": work.venue or "arXiv (Cornell University)", "type": "conference"}
        landing = f"https://doi.org/{work.doi}" if work.doi else f"http://arxiv.org/abs/{work.arxiv}"
        location = {"is_oa": True, "landing_page_url": landing, "pdf_url": None, "source": source}
        results.append({
            "id": f"https://openalex.org/W{_digits(work.title)}", "doi": f"https://doi.org/{doi}" if doi else None,
            "title": work.title, "display_name": work.title, "publication_year": work.year, "type": "article",
            "ids": {}, "primary_location": location, "best_oa_location": location,
            "authorships": [{"author": {"id": None, "display_name": a}} for a in work.authors],
        })  # fmt: skip
    meta = {"count": count, "db_response_time_ms": int(time.monotonic()) % 50, "page": None, "per_page": len(works),
            "next_cursor": next_cursor, "groups_count": None}  # fmt: skip
    return json.dumps({"meta": meta, "results": results, "group_by": []})


def orcid_record(orcid: str, works: Sequence[Work], roles: Sequence[dict[str, Any]]) -> str:
    groups = []
    for number, work in enumerate(works):
        values = [("doi", work.doi), ("arxiv", f"arXiv:{work.arxiv}" if work.arxiv else None)]
        ids = [
            {"external-id-type": kind, "external-id-value": value, "external-id-relationship": "self"}
            for kind, value in values
            if value
        ]
        summary = {
            "put-code": 1000 + number,
            "title": {"title": {"value": work.title}},
            "external-ids": {"external-id": ids},
            "publication-date": {"year": {"value": str(work.year)}, "month": None, "day": None},
            "journal-title": {"value": work.venue} if work.venue else None,
            "path": f"/{orcid}/work/{1000 + number}",
        }
        groups.append({"external-ids": {"external-id": ids}, "work-summary": [summary]})
    employments = [
        {"summaries": [{"employment-summary": {"role-title": r["title"], "organization": {"name": r["organization"]},
                                               "start-date": {"year": {"value": r["start"]}}, "end-date": None}}]}
        for r in roles
    ]  # fmt: skip
    return json.dumps({
        "orcid-identifier": {"uri": f"https://orcid.org/{orcid}", "path": orcid, "host": "orcid.org"},
        "activities-summary": {"works": {"group": groups}, "employments": {"affiliation-group": employments},
                               "educations": {"affiliation-group": []}, "distinctions": {"affiliation-group": []}},
    })  # fmt: skip
