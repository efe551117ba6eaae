"""A small dashboard's worth of recorded history, written straight into a database: a person
with two sources, a lab, a failing and a suspect source, a source whose items are hostile,
changes over several months, and deliveries waiting and given up."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from watcher.report import item_fields
from watcher.store.db import Database
from watcher.store.models import Change, Delivery, DeliveryChange, Item, Person, PersonSource, Snapshot, Source
from watcher.web.app import serve_web
from watcher.web.settings import WebSettings

__all__ = ["HOSTILE_LINK", "HOSTILE_NEWS", "HOSTILE_TITLE", "NOW", "Seeded", "seed_dashboard", "serve_in_thread"]

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
HOSTILE_TITLE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HOSTILE_LINK = "javascript:alert(3)"
HOSTILE_NEWS = "{{ 7*7 }} and {% raw %} and ${7*7}"


@dataclass(frozen=True)
class Seeded:
    #: Every change recorded, and the paper changes of the person's homepage.
    changes: int
    jane_home_papers: int


def _paper(i: int, **extra: Any) -> dict[str, Any]:
    return item_fields("paper", {
        "title": f"Sparse attention for long documents, part {i}", "authors": ["Jane Doe", "Ann Lee"],
        "venue": f"NeurIPS {2020 + i % 7}" if i % 2 else "ICML", "year": 2020 + i % 7, "url": f"https://jane.example.org/p{i}.pdf",
        "doi": f"10.5555/jd.{i}" if i % 3 == 0 else None, "arxiv": f"2601.{10000 + i}" if i % 4 == 0 else None,
        **extra,
    })  # fmt: skip


def _source(name: str, url: str, **fields: Any) -> Source:
    defaults: dict[str, Any] = {
        "created_at": NOW - timedelta(days=400), "last_checked_at": NOW - timedelta(hours=2),
        "next_due_at": NOW + timedelta(hours=10), "last_status": "unchanged", "fetch_state": {},
    }  # fmt: skip
    return Source(name=name, url=url, **{**defaults, **fields})


def _items(session: Any, source: Source, kinds_fields: list[tuple[str, dict[str, Any]]]) -> list[Item]:
    rows = [
        Item(source_id=source.id, kind=kind, key=f"{kind}:{i}", fields=fields, position=i,
             first_seen=NOW - timedelta(days=300), last_seen=NOW)
        for i, (kind, fields) in enumerate(kinds_fields)
    ]
    session.add_all(rows)
    session.flush()
    return rows


def _change(source: Source, item: Item | None, kind: str, what: str, when: datetime, after: dict[str, Any] | None,
            before: dict[str, Any] | None = None) -> Change:  # fmt: skip
    return Change(source_id=source.id, item_id=item.id if item else None, kind=kind, change=what,
                  before=before, after=after, detected_at=when)  # fmt: skip


def seed_dashboard(db: Database) -> Seeded:
    """Write the history; returns what tests count on."""
    with db.session() as session:
        jane = Person(name="Jane Doe", kind="person", created_at=NOW - timedelta(days=400))
        home = _source("jane-home", "https://jane.example.org/", tags=["nlp", "faculty"],
                       fetch_state={"extractor": "alfolio", "extractor_version": 3, "reason": "al-folio page markers"})
        dblp = _source("dblp:12/3456", "dblp:12/3456", fetch_state={"extractor": "dblp", "extractor_version": 1})
        lab = _source("vision-lab", "https://vision.example.edu/people/", label="Vision Lab", tags=["lab"])
        failing = _source("old-page", "https://old.example.com/~bob/", label="Bob Stone", failures=3,
                          last_status="error", last_error="HTTP 503 Service Unavailable")
        suspect = _source("redesigned", "https://redesign.example.net/", label="Carol King", last_status="suspect",
                          last_error="the page yields 2 items where the last reading had 41")
        hostile = _source("hostile", "https://evil.example/", label="Mallory")
        session.add_all([jane, home, dblp, lab, failing, suspect, hostile])
        session.flush()
        session.add_all([PersonSource(source_id=home.id, person_id=jane.id),
                         PersonSource(source_id=dblp.id, person_id=jane.id)])  # fmt: skip

        papers = _items(session, home, [("paper", _paper(i)) for i in range(12)] + [
            ("role", item_fields("role", {"title": "Associate Professor", "organization": "Example University",
                                          "start": "2024-07", "end": None})),
            ("award", item_fields("award", {"title": "Best Paper Award", "organization": "ACL", "year": 2025})),
            ("news", item_fields("news", {"date": "2026-11-02", "text": "Our lab moves to the new building.",
                                          "url": "https://jane.example.org/news/move"})),
        ])  # fmt: skip
        _items(session, dblp, [("paper", _paper(i)) for i in range(8)])
        members = _items(session, lab, [
            ("member", item_fields("member", {"name": "Ann Lee", "role": "PhD student", "url": "https://ann.example.org/"})),
            ("member", item_fields("member", {"name": "Raj Patel", "role": "Postdoc", "url": None})),
        ])  # fmt: skip
        bad = _items(session, hostile, [
            ("paper", item_fields("paper", {"title": HOSTILE_TITLE, "authors": ["<b>Eve</b>"], "venue": "<i>Conf</i>",
                                            "year": 2026, "url": HOSTILE_LINK})),
            ("news", item_fields("news", {"date": "2026-11-19", "text": HOSTILE_NEWS, "url": "JaVaScRiPt:alert(4)"})),
            ("member", item_fields("member", {"name": "<svg onload=alert(5)>", "url": "data:text/html,hi"})),
        ])  # fmt: skip

        changes: list[Change] = []
        # Jane's papers appear one a fortnight, newest last; one was retitled.
        for i, item in enumerate(papers[:12]):
            changes.append(_change(home, item, "paper", "added", NOW - timedelta(days=14 * (12 - i)), item.fields))
        changes.append(_change(home, papers[3], "paper", "modified", NOW - timedelta(days=3), papers[3].fields,
                               before={**papers[3].fields, "title": "Sparse atention for long documents, part 3"}))
        changes.append(_change(home, papers[12], "role", "added", NOW - timedelta(days=40), papers[12].fields))
        changes.append(_change(home, papers[14], "news", "added", NOW - timedelta(days=18), papers[14].fields))
        changes.append(_change(lab, members[0], "member", "added", NOW - timedelta(days=2), members[0].fields))
        changes.append(_change(lab, None, "member", "removed", NOW - timedelta(days=2, hours=1),
                               None, before=item_fields("member", {"name": "Old Student", "role": "MSc"})))
        for item in bad:
            changes.append(_change(hostile, item, item.kind, "added", NOW - timedelta(hours=5), item.fields))
        session.add_all(changes)
        session.add(Snapshot(source_id=home.id, fetched_at=NOW - timedelta(hours=2), status=200, outcome="unchanged",
                             extractor="alfolio", extractor_version=3, item_count=15, duration_ms=180))
        session.add(Snapshot(source_id=failing.id, fetched_at=NOW - timedelta(hours=2), status=503, outcome="error",
                             error="HTTP 503 Service Unavailable", duration_ms=90))
        session.flush()

        pending = Delivery(channel="webhook", target="https://hooks.example.org/watcher", status="pending",
                           attempts=2, created_at=NOW - timedelta(hours=3), next_attempt_at=NOW + timedelta(minutes=8),
                           last_error="connection refused", idempotency_key="k-pending")
        failed = Delivery(channel="email", target="me@example.org", status="failed", attempts=9,
                          created_at=NOW - timedelta(days=2), next_attempt_at=NOW - timedelta(days=1),
                          last_error="<b>550</b> mailbox unavailable", idempotency_key="k-failed")
        sent = Delivery(channel="email", target="me@example.org", status="sent", attempts=1, created_at=NOW,
                        next_attempt_at=NOW, sent_at=NOW, idempotency_key="k-sent")
        session.add_all([pending, failed, sent])
        session.flush()
        session.add_all([DeliveryChange(delivery_id=pending.id, change_id=c.id) for c in changes[:3]])
        session.add(DeliveryChange(delivery_id=failed.id, change_id=changes[-1].id))
        return Seeded(changes=len(changes), jane_home_papers=13)


@contextlib.contextmanager
def serve_in_thread(db: Database, settings: WebSettings | None = None) -> Iterator[str]:
    """The dashboard over ``db`` on a free loopback port, served from a thread: its base URL.

    For callers that cannot run an event loop themselves (a synchronous browser driver).
    """
    started: queue.Queue[int | BaseException] = queue.Queue()
    stop: list[asyncio.Event] = []
    loop = asyncio.new_event_loop()

    async def run() -> None:
        stop.append(asyncio.Event())
        try:
            async with serve_web(db, settings or WebSettings(port=0), now=lambda: NOW) as port:
                started.put(port)
                await stop[0].wait()
        except BaseException as exc:
            started.put(exc)
            raise

    thread = threading.Thread(target=loop.run_until_complete, args=(run(),), daemon=True)
    thread.start()
    port = started.get(timeout=30)
    if isinstance(port, BaseException):
        raise port
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(timeout=30)
        loop.close()
