"""Dashboard and API benchmark: latency of every page and API route on a large database.

Usage::

    python bench/bench_web.py [--sources 10000] [--items 1000000] [--changes 100000]
                              [--db sqlite|postgresql://…] [--requests 40]

It writes a database of ``--sources`` sources (three to a person's label, a tenth owned by a
``Person``, 2 % failing, 1 % suspect), ``--items`` current items spread over them (papers,
news, roles, awards, members in the proportions of real pages) and ``--changes`` changes over
two years, with bulk inserts (``executemany`` on SQLite, ``COPY`` on PostgreSQL). Then it
starts the real ``watcher serve`` in its own process and asks each route ``--requests``
times over loopback, one request at a time, with a different source, person, filter or page
each time, and prints p50 and p95 per route. Target: p95 under 200 ms everywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from sqlalchemy import text

from watcher.store.db import Database

NOW = datetime.now(UTC).replace(microsecond=0)
KIND_MIX = [("paper", 60), ("news", 20), ("role", 10), ("award", 5), ("member", 5)]
WORDS = [
    "sparse", "attention", "graph", "neural", "robust", "causal", "inference", "protein", "folding", "language",
    "models", "vision", "reinforcement", "learning", "bayesian", "optimisation", "federated", "privacy", "quantum",
]  # fmt: skip


def _fields(kind: str, rng: random.Random, n: int) -> dict[str, Any]:
    title = " ".join(rng.choice(WORDS) for _ in range(6)).capitalize() + f" {n}"
    if kind == "paper":
        year = rng.randint(2005, 2026)
        return {"title": title, "authors": ["A. Author", "B. Author", "C. Author"], "venue": f"Conf {year}",
                "year": year, "url": f"https://papers.example.org/{n}.pdf", "doi": f"10.5555/{n}", "arxiv": None}
    if kind == "news":
        return {"date": f"{rng.randint(2015, 2026)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}", "text": title,
                "url": None}
    if kind == "role":
        return {"title": "Professor", "organization": f"University {n % 500}", "start": "2019", "end": None}
    if kind == "award":
        return {"title": f"Award {title}", "organization": "Society", "year": rng.randint(2000, 2026)}
    return {"name": f"Member {n}", "role": "PhD student", "url": None}


def _kinds(count: int) -> list[str]:
    total = sum(w for _, w in KIND_MIX)
    kinds = [k for k, w in KIND_MIX for _ in range(count * w // total)]
    return kinds + ["paper"] * (count - len(kinds))


def _sqlite_time(when: datetime) -> str:
    """How SQLAlchemy stores a UTC timestamp in SQLite."""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


# -- the database ---------------------------------------------------------------------------


def _source_rows(n: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    for i in range(n):
        roll = rng.random()
        status, failures, error = "unchanged", 0, None
        if roll < 0.02:
            status, failures, error = "error", rng.randint(1, 6), "HTTP 503 Service Unavailable"
        elif roll < 0.03:
            status, error = "suspect", "the page yields 2 items where the last reading had 40"
        state = json.dumps({"extractor": "generic", "extractor_version": 1, "reason": "fallback"})
        yield (i + 1, f"src-{i:05d}", f"https://site{i}.example.org/", f"Person {i // 3}", "auto", 43200, True,
               json.dumps([f"t{i % 20}"]), False, True, False, NOW - timedelta(days=800),
               NOW + timedelta(minutes=rng.randint(1, 720)), NOW - timedelta(minutes=rng.randint(1, 720)),
               status, error, failures, state)  # fmt: skip


_SOURCE_COLUMNS = (
    "id, name, url, label, extractor, every_seconds, obey_robots, tags, from_config, active, paused, "
    "created_at, next_due_at, last_checked_at, last_status, last_error, failures, fetch_state"
)


def _item_rows(sources: int, items: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    per = items // sources
    kinds = _kinds(per)
    n = 0
    for s in range(1, sources + 1):
        for position, kind in enumerate(kinds):
            n += 1
            yield (n, s, kind, f"{kind}:{n}", json.dumps(_fields(kind, rng, n)), position,
                   NOW - timedelta(days=700), NOW)  # fmt: skip


def _change_rows(sources: int, items: int, changes: int, rng: random.Random) -> Iterator[tuple[Any, ...]]:
    per = items // sources
    kinds = _kinds(per)
    for c in range(1, changes + 1):
        s = rng.randint(1, sources)
        position = rng.randrange(per)
        item_id = (s - 1) * per + position + 1
        kind = kinds[position]
        after = _fields(kind, rng, item_id)
        what = rng.choices(["added", "modified", "removed"], [85, 10, 5])[0]
        before = json.dumps({**after, "title": "Old title"}) if what != "added" else None
        when = NOW - timedelta(seconds=rng.randint(0, 2 * 365 * 86400))
        yield (c, s, item_id, kind, what, before, json.dumps(after) if what != "removed" else None, when)


def _write_sqlite(db: Database, rows: dict[str, tuple[str, Iterator[tuple[Any, ...]]]]) -> None:
    raw = db.engine.raw_connection()
    try:
        cur = raw.cursor()
        cur.execute("PRAGMA synchronous=OFF")
        for table, (columns, values) in rows.items():
            marks = ", ".join("?" * len(columns.split(",")))
            batch: list[tuple[Any, ...]] = []
            for row in values:
                batch.append(tuple(_sqlite_time(v) if isinstance(v, datetime) else v for v in row))
                if len(batch) == 20000:
                    cur.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", batch)
                    batch.clear()
            if batch:
                cur.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", batch)
        raw.commit()
    finally:
        raw.close()


def _write_postgres(db: Database, rows: dict[str, tuple[str, Iterator[tuple[Any, ...]]]]) -> None:
    raw = db.engine.raw_connection()
    try:
        cur = raw.cursor()
        for table, (columns, values) in rows.items():
            with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row)
            if columns.startswith("id,"):
                cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        raw.commit()
        cur.execute("ANALYZE")
        raw.commit()
    finally:
        raw.close()


def build_database(url: str, sources: int, items: int, changes: int, seed: int = 7) -> Database:
    db = Database(url)
    db.ensure_schema()
    rng = random.Random(seed)
    people = sources // 30  # a tenth of the sources (three each) belong to a Person
    rows: dict[str, tuple[str, Iterator[tuple[Any, ...]]]] = {
        "source": (_SOURCE_COLUMNS, _source_rows(sources, rng)),
        "person": ("id, name, kind, from_config, created_at",
                   ((p + 1, f"Owner {p}", "person", False, NOW) for p in range(people))),
        "person_source": ("source_id, person_id", ((s + 1, s // 3 + 1) for s in range(people * 3))),
        "item": ("id, source_id, kind, key, fields, position, first_seen, last_seen",
                 _item_rows(sources, items, rng)),
        "change": ("id, source_id, item_id, kind, change, before, after, detected_at",
                   _change_rows(sources, items, changes, rng)),
        "delivery": ("id, channel, target, status, attempts, created_at, next_attempt_at, last_error, idempotency_key",
                     ((d + 1, "webhook", "https://hooks.example.org/", "failed" if d % 3 else "pending", d % 9,
                       NOW, NOW, "connection refused", f"key-{d}") for d in range(300))),
    }  # fmt: skip
    started = time.perf_counter()
    (_write_sqlite if db.is_sqlite else _write_postgres)(db, rows)
    print(f"wrote {sources:,} sources, {items:,} items, {changes:,} changes in {time.perf_counter() - started:.0f} s",
          file=sys.stderr)  # fmt: skip
    return db


# -- the measurement ------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def routes(sources: int, rng: random.Random, cursors: dict[str, str]) -> dict[str, Callable[[], str]]:
    """Each route's path maker: a different source, person, filter or page each time."""

    def src() -> str:
        return quote(f"src-{rng.randrange(sources):05d}", safe="")

    def person() -> str:  # a label; the first sources belong to Owners instead
        return quote(f"Person {rng.randrange(sources // 30, sources // 3)}", safe="")

    return {
        "/ (what's new)": lambda: "/",
        "/?kind=&since=": lambda: f"/?kind={rng.choice(KIND_MIX)[0]}&since={rng.randint(1, 90)}d",
        "/?person=": lambda: f"/?person={person()}",
        "/?tag=": lambda: f"/?tag=t{rng.randrange(20)}",
        "/?q= (search)": lambda: f"/?q={rng.choice(WORDS)}+{rng.choice(WORDS)}",
        "/?q= (no match: every change read)": lambda: f"/?q=zebrafish+{rng.randrange(1000)}",
        "/?cursor= (page 2+)": lambda: f"/?cursor={cursors['page']}",
        "/sources": lambda: f"/sources?page={rng.randint(1, max(sources // 100, 1))}",
        "/sources?sort=checked": lambda: "/sources?sort=checked&dir=desc",
        "/sources?status=failing": lambda: "/sources?status=failing",
        "/source/NAME": lambda: f"/source/{src()}",
        "/person/NAME (label)": lambda: f"/person/{person()}",
        "/person/NAME (person)": lambda: f"/person/{quote(f'Owner {rng.randrange(sources // 30)}', safe='')}",
        "/deliveries": lambda: "/deliveries",
        "/api/v1/changes": lambda: "/api/v1/changes",
        "/api/v1/changes?kind=&change=": lambda: f"/api/v1/changes?kind={rng.choice(KIND_MIX)[0]}&change=modified",
        "/api/v1/changes?source=": lambda: f"/api/v1/changes?source={src()}",
        "/api/v1/changes?cursor=": lambda: f"/api/v1/changes?cursor={cursors['api']}",
        "/api/v1/changes?since=&limit=500": lambda: f"/api/v1/changes?since={rng.randint(1, 30)}d&limit=500",
        "/api/v1/sources": lambda: "/api/v1/sources",
        "/api/v1/sources?cursor=": lambda: f"/api/v1/sources?cursor={cursors['sources']}",
        "/api/v1/sources/NAME": lambda: f"/api/v1/sources/{src()}",
        "/api/v1/openapi.json": lambda: "/api/v1/openapi.json",
        "/feed.atom": lambda: "/feed.atom",
    }


def _cursors(http: httpx.Client) -> dict[str, str]:
    """Cursors deep in the lists, to time a page far from the first."""
    body = http.get("/api/v1/changes?limit=500").json()
    for _ in range(5):
        body = http.get(f"/api/v1/changes?limit=500&cursor={body['next']}").json()
    sources = http.get("/api/v1/sources?limit=500").json()
    return {"api": body["next"], "page": body["next"], "sources": sources["next"]}


def measure(url: str, sources: int, requests: int) -> dict[str, tuple[float, float]]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "watcher", "--db", url, "serve", "--port", str(port)],
        env={k: v for k, v in os.environ.items() if k != "WATCHER_WEB_TOKEN"}, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        server.stderr.readline()  # "watcher dashboard on …": listening
        results = {}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
            rng = random.Random(11)
            cursors = _cursors(http)
            for name, make in routes(sources, rng, cursors).items():
                http.get(make())  # warm: the first request of a route loads its templates
                times = []
                for _ in range(requests):
                    path = make()
                    started = time.perf_counter()
                    response = http.get(path)
                    times.append((time.perf_counter() - started) * 1000)
                    if response.status_code != 200:
                        raise SystemExit(f"{path}: HTTP {response.status_code}: {response.text[:300]}")
                cuts = statistics.quantiles(times, n=20, method="inclusive")
                results[name] = (statistics.median(times), cuts[18])
        return results
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--changes", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--db", action="append", help="sqlite (a temporary file) or a PostgreSQL URL of an empty "
                        "database; repeat for both (default: sqlite, and $WATCHER_TEST_POSTGRES_URL when set)")
    parser.add_argument("--keep", type=Path, help="Keep the SQLite file here.")
    args = parser.parse_args()
    targets = args.db or ["sqlite"] + ([os.environ["WATCHER_TEST_POSTGRES_URL"]]
                                        if os.environ.get("WATCHER_TEST_POSTGRES_URL") else [])  # fmt: skip
    table: dict[str, dict[str, tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for target in targets:
            if target == "sqlite":
                path = args.keep or Path(tmp) / "bench.db"
                url, label = f"sqlite:///{path}", "SQLite"
            else:
                url, label = _fresh_postgres(target), "PostgreSQL"
            db = build_database(url, args.sources, args.items, args.changes)
            db.dispose()
            table[label] = measure(url, args.sources, args.requests)
            if target != "sqlite":
                _drop_postgres(url)
    labels = list(table)
    print(f"\n{args.sources:,} sources, {args.items:,} items, {args.changes:,} changes; "
          f"{args.requests} requests per route, one at a time, over loopback (ms)\n")  # fmt: skip
    header = "| route | " + " | ".join(f"{lb} p50 | {lb} p95" for lb in labels) + " |"
    print(header)
    print("|" + "---|" * (1 + 2 * len(labels)))
    worst = 0.0
    for route in table[labels[0]]:
        cells = []
        for lb in labels:
            p50, p95 = table[lb][route]
            worst = max(worst, p95)
            cells += [f"{p50:.1f}", f"{p95:.1f}"]
        print(f"| `{route}` | " + " | ".join(cells) + " |")
    print(f"\nworst p95: {worst:.1f} ms (target < 200 ms)")
    return 0


def _fresh_postgres(base: str) -> str:
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"watcher_bench_web_{os.getpid()}"
    admin = Database(url.set(database="postgres").render_as_string(hide_password=False))
    with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


def _drop_postgres(url: str) -> None:
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    admin = Database(parsed.set(database="postgres").render_as_string(hide_password=False))
    with admin.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
    admin.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
