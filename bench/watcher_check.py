"""One benchmark phase for watcher: check every source once, as ``watcher check`` does.

Usage (run as its own process by ``bench/run.py``, which measures its CPU and peak RSS)::

    python bench/watcher_check.py DB_URL OUT_JSON [--profile OUT.prof] [--workers N]

Default fetch settings (per-host limit 2, default host delay) and the CLI's concurrency.
Writes ``{"seconds": ..., "outcomes": [{"url", "status", "changes"}, ...]}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from watcher.fetch import FetchSettings
from watcher.pipeline import check_sources, freeze_startup_objects, open_services
from watcher.store.db import Database
from watcher.store.models import Source


async def check_all(db: Database, workers: int) -> list[dict[str, object]]:
    with db.session() as session:
        ids = list(session.scalars(select(Source.id).where(Source.active.is_(True)).order_by(Source.id)))
    async with open_services(db, None, settings=FetchSettings(), notifiers=(), extract_workers=workers) as services:
        outcomes = await check_sources(services, ids)
    return [{"url": o.url, "status": o.status, "changes": o.changes, "error": o.error} for o in outcomes]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("out", type=Path)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--workers", type=int, default=0, help="extraction worker processes (0: in the event loop)")
    args = parser.parse_args()
    db = Database(args.db)
    freeze_startup_objects()  # as `watcher check` does
    started = time.perf_counter()
    if args.profile:
        import cProfile

        with cProfile.Profile() as profile:
            outcomes = asyncio.run(check_all(db, args.workers))
        profile.dump_stats(args.profile)
    else:
        outcomes = asyncio.run(check_all(db, args.workers))
    seconds = time.perf_counter() - started
    args.out.write_text(json.dumps({"seconds": seconds, "outcomes": outcomes}))


if __name__ == "__main__":
    main()
