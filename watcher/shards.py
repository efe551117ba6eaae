"""Checking a long watch list on several cores (``watcher check --jobs N``).

One event loop does all of a check's work on one core. With ``--jobs N`` the list is split
into N shards by host and one process is forked per extra shard, after the imports, so the
processes share the parent's memory pages; each checks its shard with its own fetcher and
database connections, and the parent checks the first shard itself while it collects the
others' outcomes. One process is the default: on a two-core machine two processes were only
1.0–1.4 times as fast (the page server and the database writes share the cores) and used
1.5–1.9 times the memory (each imports the extractors it needs on its own).

Every host's sources stay in one shard, so the per-host limit, the gap between requests and
robots.txt hold exactly as in one process. Each source's reading is committed by the process
that checked it, so a process that dies loses nothing recorded; its unchecked sources are
checked next time.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import urlsplit

from watcher.apis import API_KINDS
from watcher.errors import WatcherError
from watcher.store.db import Database

__all__ = [
    "ShardProcess",
    "check_with_shards",
    "fork_shards",
    "gather_shards",
    "host_of",
    "shard_work",
    "split_by_host",
    "start_shards",
]

def host_of(url: str) -> str:
    """The politeness key of a source: its host and port (``github:`` sources share GitHub's, and
    each index API's sources its host's)."""
    if url.startswith("github:"):
        return "github"
    kind = url.split(":", 1)[0]
    if kind in API_KINDS:
        return kind  # one API host each, whoever the source names
    parts = urlsplit(url)
    return parts.netloc.lower() if parts.scheme in {"http", "https"} else "local"


def split_by_host(sources: Sequence[tuple[int, str]], jobs: int) -> list[list[int]]:
    """Source ids (given with their URLs) in at most ``jobs`` shards of about equal size, a host in one shard."""
    by_host: dict[str, list[int]] = {}
    for source_id, url in sources:
        by_host.setdefault(host_of(url), []).append(source_id)
    shards: list[list[int]] = [[] for _ in range(max(1, jobs))]
    # Largest hosts first, each to the smallest shard so far.
    for ids in sorted(by_host.values(), key=len, reverse=True):
        min(shards, key=len).extend(ids)
    return [shard for shard in shards if shard]


@dataclass
class ShardProcess:
    """A forked process checking one shard, and the pipe its outcomes come back on."""

    process: Any
    pipe: Connection
    size: int
    received: int = 0
    error: str | None = None
    done: bool = False


#: What a child runs: check these source ids, handing each outcome to the callback.
ShardWork = Callable[[list[int], Callable[[Any], None]], None]


def start_shards(
    db: Database, services_factory: Callable[[], Any], sources: Sequence[tuple[int, str]], jobs: int, concurrency: int
) -> tuple[list[int], list[ShardProcess]]:
    """Split ``sources`` (ids with their URLs) into ``jobs`` shards by host and fork a process for
    each shard but the first: the first shard's ids, for the caller to check, and the processes.

    Call before any event loop or thread starts.
    """
    own, *others = split_by_host(sources, jobs) or [[]]
    children = fork_shards(others, shard_work(db, services_factory, concurrency)) if others else []
    return own, children


async def check_with_shards(
    services: Any,
    ids: list[int],
    children: Sequence[ShardProcess],
    *,
    concurrency: int,
    on_done: Callable[[Any], None] | None = None,
) -> tuple[list[Any], WatcherError | None]:
    """Check ``ids`` here while collecting the children's outcomes; all outcomes, and the failure
    of a child (see ``gather_shards``) if one failed."""
    from watcher.pipeline import check_sources

    failure: WatcherError | None = None

    async def collect() -> list[Any]:
        nonlocal failure
        try:
            return await gather_shards(children, on_done or (lambda _outcome: None))
        except WatcherError as exc:
            failure = exc
            return []

    # Both at once: a child blocks once its pipe is full of unread outcomes.
    mine, theirs = await asyncio.gather(
        check_sources(services, ids, concurrency=concurrency, on_done=on_done), collect()
    )
    return [*mine, *theirs], failure


def shard_work(db: Database, services_factory: Callable[[], Any], concurrency: int) -> ShardWork:
    """What a forked process runs: ``check_sources`` over its shard with services of its own."""

    def work(ids: list[int], send: Callable[[Any], None]) -> None:
        from watcher.pipeline import check_sources

        # The parent's pooled connections are not this process's to use (or close).
        db.engine.dispose(close=False)

        async def run() -> None:
            async with services_factory() as services:
                await check_sources(services, ids, concurrency=concurrency, on_done=send)

        asyncio.run(run())

    return work


def fork_shards(shards: Sequence[list[int]], work: ShardWork) -> list[ShardProcess]:
    """Fork one process per shard running ``work``; call before any event loop or thread starts."""
    context = multiprocessing.get_context("fork")
    children = []
    for shard in shards:
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_child_main, args=(work, shard, writer), daemon=True)
        process.start()
        writer.close()
        children.append(ShardProcess(process=process, pipe=reader, size=len(shard)))
    return children


def _child_main(work: ShardWork, shard: list[int], pipe: Connection) -> None:
    try:
        work(shard, lambda outcome: pipe.send(("outcome", outcome)))
    except BaseException as exc:  # reported to the parent, which prints it
        pipe.send(("error", f"{type(exc).__name__}: {exc}" if not isinstance(exc, WatcherError) else str(exc)))
        raise SystemExit(1) from None
    else:
        pipe.send(("done", None))
    finally:
        pipe.close()


async def gather_shards(children: Sequence[ShardProcess], on_done: Callable[[Any], None]) -> list[Any]:
    """Collect the children's outcomes as they come (``on_done`` for each); raise when one failed.

    Raises ``WatcherError`` after every child has ended if any of them failed or died: the
    outcomes it sent were recorded, the rest of its shard is checked next time.
    """
    loop = asyncio.get_running_loop()
    outcomes: list[Any] = []
    finished = asyncio.Event()
    open_children = set(range(len(children)))

    def readable(index: int) -> None:
        child = children[index]
        try:
            while child.pipe.poll():
                kind, value = child.pipe.recv()
                if kind == "outcome":
                    child.received += 1
                    outcomes.append(value)
                    on_done(value)
                elif kind == "error":
                    child.error = value
                else:
                    child.done = True
        except (EOFError, OSError):
            pass
        else:
            if not child.done and child.error is None:
                return
        loop.remove_reader(child.pipe.fileno())
        open_children.discard(index)
        if not open_children:
            finished.set()

    for index, child in enumerate(children):
        loop.add_reader(child.pipe.fileno(), readable, index)
    if children:
        await finished.wait()
    failures = []
    for child in children:
        await asyncio.to_thread(child.process.join)
        child.pipe.close()
        if not child.done:
            reason = child.error or f"it stopped with exit code {child.process.exitcode}"
            failures.append(f"{child.size - child.received} of {child.size} sources not checked ({reason})")
    if failures:
        raise WatcherError("a check process failed: " + "; ".join(failures) + "; they are checked next time")
    return outcomes
