"""One benchmark phase for watcher: check every source once, as ``watcher check`` does.

Usage (run as its own process by ``bench/run.py``, which measures its CPU and memory)::

    python bench/watcher_check.py DB_URL OUT_JSON [--profile OUT.prof] [--jobs N] [--workers N]

Default fetch settings (per-host limit 2, default host delay), the CLI's concurrency, and
its one process (``--jobs N`` splits the sources by host over N processes, as the CLI's
option does).
Writes ``{"seconds": ..., "outcomes": [{"url", "status", "changes"}, ...]}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from watcher.fetch import FetchSettings
from watcher.pipeline import Services, freeze_startup_objects, open_services
from watcher.shards import ShardProcess, check_with_shards, start_shards
from watcher.store.db import Database
from watcher.store.models import Source

CONCURRENCY = 64  # the CLI's default


async def check_all(
    factory: Any, ids: list[int], children: Sequence[ShardProcess]
) -> list[dict[str, object]]:
    async with factory() as services:
        outcomes, failure = await check_with_shards(services, ids, children, concurrency=CONCURRENCY)
    if failure is not None:
        raise failure
    return [{"url": o.url, "status": o.status, "changes": o.changes, "error": o.error} for o in outcomes]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("out", type=Path)
    parser.add_argument("--profile", type=Path, help="cProfile of this process (the first shard)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1, as watcher check)")
    parser.add_argument("--workers", type=int, default=0, help="extraction worker processes (0: in the event loop)")
    args = parser.parse_args()
    db = Database(args.db)
    with db.session() as session:
        sources = [(i, u) for i, u in session.execute(select(Source.id, Source.url).where(Source.active.is_(True)))]

    def factory() -> AbstractAsyncContextManager[Services]:
        return open_services(db, None, settings=FetchSettings(), notifiers=(), extract_workers=args.workers)

    freeze_startup_objects()  # as `watcher check` does
    started = time.perf_counter()
    own, children = start_shards(db, factory, sorted(sources), args.jobs, CONCURRENCY)
    if args.profile:
        import cProfile

        with cProfile.Profile() as profile:
            outcomes = asyncio.run(check_all(factory, own, children))
        profile.dump_stats(args.profile)
    else:
        outcomes = asyncio.run(check_all(factory, own, children))
    seconds = time.perf_counter() - started
    args.out.write_text(json.dumps({"seconds": seconds, "outcomes": outcomes}))


if __name__ == "__main__":
    main()
