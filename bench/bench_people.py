"""People benchmark: many people, each with three index sources, checked on loopback.

Usage::

    python bench/bench_people.py [--people 1000] [--works 30] [--db sqlite|postgresql://…]

Each person has a DBLP record, an arXiv author query and an OpenAlex author (3,000 sources
for 1,000 people), served in their real response formats by the tests' emulated APIs
(``tests/index_fake.py``) from a separate process. Their records overlap as real ones do: a
paper is in DBLP with its DOI, on arXiv as a preprint and in OpenAlex twice (preprint and
publication). Phases, each one ``check_sources`` over every source:

* ``cold``: first check, every source a baseline, every paper linked to its person's works;
* ``unchanged``: nothing changed (DBLP answers 304; arXiv and OpenAlex send the same bodies);
* ``edits``: a tenth of the people post a new preprint on arXiv (one *added* each), another
  tenth see an arXiv preprint published in DBLP (one *modified* each).

The same phases run again with the sources owned by no person, so the difference is the cost
of the cross-source matching; its own time is also measured inside the process
(``reconcile_papers``), per person. The APIs' politeness gaps (arXiv 3 s, DBLP 1 s) are off
and 16 requests may be in flight per API host: the figures are watcher's own cost, not the
APIs' etiquette, which bounds a real check of 1,000 people to at least 1,000 s of DBLP and
3,000 s of arXiv requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH.parent / "tests"))

from index_fake import FakeIndexes, Work  # noqa: E402

KINDS = ("dblp", "arxiv", "openalex")


def person_works(number: int, works: int, version: int) -> dict[str, list[Work]]:
    """One person's records by API key: DBLP pid, arXiv name, OpenAlex id."""
    name = f"Person {number:05d}"
    published = [
        Work(title=f"Study {i} of topic {number} on sparse fields", year=2010 + i % 16, authors=(name, "Ada Quill"),
             venue=f"Venue {i % 7}", doi=f"10.5555/p{number}.{i}", arxiv=f"{2001 + i % 24:04d}.{number:05d}")
        for i in range(works)
    ]  # fmt: skip
    preprint = Work(title=f"Preprint of topic {number} on light", year=2026, authors=(name,),
                    arxiv=f"2610.{number:05d}")  # fmt: skip
    dblp, arxiv = list(published), [replace(w, venue=None, doi=None) for w in published] + [preprint]
    if version == 2 and number % 10 == 0:  # a new preprint appears on arXiv
        new = Work(title=f"New idea {number} on caustics", year=2026, authors=(name,), arxiv=f"2611.{number:05d}")
        arxiv.insert(0, new)
    if version == 2 and number % 10 == 1:  # the preprint is published: DBLP lists it with a DOI
        dblp.insert(0, replace(preprint, venue="NeurIPS", doi=f"10.5555/nips.{number}"))
    openalex = [w for p in published[: works // 2] for w in (p, replace(p, venue=None, doi=None))]
    return {f"{number}/1": dblp, name: arxiv, f"A5{number:09d}": openalex}


def serve(people: int, works: int, ready: Any, bases_out: Any, switch: Any) -> None:
    """The server process: the four emulated APIs over every person's records."""
    from index_fake import serve_indexes

    fake = FakeIndexes()
    fake.page_size = 200
    for number in range(people):
        fake.works.update(person_works(number, works, 1))
    with serve_indexes(fake) as bases:
        bases_out.update(bases)
        ready.set()
        switch.wait()
        for number in range(people):
            fake.works.update(person_works(number, works, 2))
        ready.set()
        time.sleep(10**6)


def setup(db_url: str, people: int, owned: bool) -> list[int]:
    from sqlalchemy import select

    from watcher.people import add_person
    from watcher.sources import add_source
    from watcher.store.db import Database, utcnow
    from watcher.store.models import Source

    db = Database(db_url)
    db.ensure_schema()
    now = utcnow()
    with db.session() as session:
        for number in range(people):
            specs = [f"dblp:{number}/1", f'arxiv:"Person {number:05d}"', f"openalex:A5{number:09d}"]
            if owned:
                add_person(session, f"Person {number:05d}", specs, now=now)
            else:
                for spec in specs:
                    add_source(session, spec, now=now)
        return list(session.scalars(select(Source.id).order_by(Source.id)))


def check_phase(db_url: str, bases: dict[str, str], ids: list[int]) -> dict[str, Any]:
    from index_fake import indexes_env

    import watcher.works
    from watcher.fetch import FetchSettings
    from watcher.pipeline import check_sources, open_services
    from watcher.store.db import Database

    spent = {"seconds": 0.0, "cpu": 0.0, "calls": 0}
    original = watcher.works.reconcile_papers

    def timed(*args: Any, **kwargs: Any) -> Any:
        # Wall and CPU: on a shared machine the wall time also counts the waits for a core.
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent["seconds"] += time.perf_counter() - started
            spent["cpu"] += time.process_time() - cpu
            spent["calls"] += 1

    watcher.works.reconcile_papers = timed

    async def go() -> list[Any]:
        settings = FetchSettings(host_delay=0.0, per_host_limit=16, retries=0, deadline=60.0)
        async with open_services(Database(db_url), None, settings=settings, environ=indexes_env(bases),
                                 notifiers=()) as services:  # fmt: skip
            services.apis = replace(services.apis, gaps=dict.fromkeys(("dblp", "arxiv", "openalex", "orcid"), 0.0))
            return await check_sources(services, ids)

    cpu = time.process_time()
    started = time.perf_counter()
    outcomes = asyncio.run(go())
    wall = time.perf_counter() - started
    watcher.works.reconcile_papers = original
    return {
        "wall": wall,
        "cpu": time.process_time() - cpu,
        "checks_per_s": len(ids) / wall,
        "statuses": dict(Counter(o.status for o in outcomes)),
        "changes": sum(o.changes for o in outcomes),
        "matching_s": spent["seconds"],
        "matching_cpu_s": spent["cpu"],
        "matching_calls": spent["calls"],
    }


def changes_by_kind(db_url: str) -> dict[str, int]:
    from sqlalchemy import func, select

    from watcher.store.db import Database
    from watcher.store.models import Change

    with Database(db_url).session() as session:
        return {f"{k} {c}": n for k, c, n in session.execute(
            select(Change.kind, Change.change, func.count()).group_by(Change.kind, Change.change))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--works", type=int, default=30, help="published papers per person")
    parser.add_argument("--db", default="sqlite", help="sqlite (a temporary file) or a PostgreSQL URL per run: "
                        "two empty databases are needed, given as URL1,URL2")  # fmt: skip
    parser.add_argument("--plain-first", action="store_true", help="run the sources without people first")
    args = parser.parse_args()
    results: dict[str, Any] = {"people": args.people, "sources": args.people * len(KINDS), "works": args.works}
    with tempfile.TemporaryDirectory() as tmp:
        urls = ([f"sqlite:///{tmp}/owned.db", f"sqlite:///{tmp}/plain.db"] if args.db == "sqlite"
                else args.db.split(","))  # fmt: skip
        runs = list(zip((True, False), urls, strict=True))
        for owned, db_url in reversed(runs) if args.plain_first else runs:
            context = multiprocessing.get_context("fork")
            ready, switch, manager = context.Event(), context.Event(), context.Manager()
            bases = manager.dict()
            server = context.Process(target=serve, args=(args.people, args.works, ready, bases, switch), daemon=True)
            server.start()
            try:
                ready.wait(120)
                ready.clear()
                started = time.perf_counter()
                ids = setup(db_url, args.people, owned)
                label = "people" if owned else "no people"
                results[f"{label} setup_s"] = time.perf_counter() - started
                for phase in ("cold", "unchanged", "edits"):
                    if phase == "edits":
                        switch.set()
                        ready.wait(120)
                    results[f"{label} {phase}"] = figures = check_phase(db_url, dict(bases), ids)
                    print(f"{label:>9} {phase:<9} {figures['checks_per_s']:7.0f} checks/s  "
                          f"wall {figures['wall']:6.1f} s  cpu {figures['cpu']:6.1f} s  "
                          f"changes {figures['changes']:4d}  matching "
                          f"{figures['matching_s']:5.2f} s ({figures['matching_cpu_s']:5.2f} s CPU) in "
                          f"{figures['matching_calls']} readings", flush=True)
                results[f"{label} changes"] = changes_by_kind(db_url)
            finally:
                server.kill()
                manager.shutdown()
    people_cold, plain_cold = results["people cold"], results["no people cold"]
    edited = args.people // 5  # a tenth with a new preprint, a tenth with a publication
    results["matching_cpu_ms_per_person_cold"] = 1000 * people_cold["matching_cpu_s"] / args.people
    results["matching_cpu_ms_per_person_edits"] = 1000 * results["people edits"]["matching_cpu_s"] / edited
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({k: v for k, v in results.items() if "changes" in k or "per_person" in k}, indent=1))
    print(f"cold with people / without: {people_cold['cpu']:.1f} / {plain_cold['cpu']:.1f} s CPU")


if __name__ == "__main__":
    main()
