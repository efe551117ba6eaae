"""Daemon throughput on PostgreSQL (1, 2 and 4 daemons) and a daemon's idle CPU and memory.

Usage::

    python bench/bench_daemon.py [--postgres URL] [--sources 1000] [--hosts 250] [--idle 60]

For each daemon count, a fresh database gets ``--sources`` BibTeX sources served on
``--hosts`` loopback addresses (127.0.x.y, so per-host politeness is not the limit);
the daemons start together and the clock runs from the first recorded check to the last.
Then one daemon with nothing due is watched for ``--idle`` seconds: CPU time and RSS come
from /proc. The PostgreSQL URL defaults to ``WATCHER_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import yaml
from aiohttp import web
from sqlalchemy import func, select, update
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from watcher.config import load_config  # noqa: E402
from watcher.daemon import sync_config  # noqa: E402
from watcher.store.db import Database, utcnow  # noqa: E402
from watcher.store.models import Source  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _bib(path: str) -> str:
    return "\n".join(
        f"@article{{k{i}, title={{Paper {i} on {path}}}, author={{Quill, Ada and Moss, Ben}}, "
        f"journal={{Coastal Computing}}, year={{{2020 + i}}}}}"
        for i in range(3)
    )


@contextmanager
def loopback_servers(hosts: list[str]) -> Iterator[dict[str, int]]:
    """One aiohttp app on many loopback addresses, in a background loop; yields host → port."""
    loop = asyncio.new_event_loop()
    ports: dict[str, int] = {}
    ready = threading.Event()

    async def page(request: web.Request) -> web.Response:
        if request.path == "/robots.txt":
            return web.Response(status=404)
        return web.Response(text=_bib(request.host + request.path), content_type="text/x-bibtex")

    async def start() -> web.AppRunner:
        app = web.Application()
        app.router.add_get("/{tail:.*}", page)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        for host in hosts:
            site = web.TCPSite(runner, host, 0)
            await site.start()
            ports[host] = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return runner

    def run() -> None:
        asyncio.set_event_loop(loop)
        runner = loop.run_until_complete(start())
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(30)
    try:
        yield ports
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


@contextmanager
def fresh_database(admin_url: str) -> Iterator[Database]:
    name = f"watcher_bench_{uuid.uuid4().hex[:8]}"
    admin = make_url(admin_url).set(drivername="postgresql")
    plain = admin.render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    db = Database(admin.set(database=name).render_as_string(hide_password=False))
    try:
        db.upgrade()
        yield db
    finally:
        db.dispose()
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def write_config(path: Path, ports: dict[str, int], sources: int) -> Path:
    hosts = list(ports)
    watch = []
    for i in range(sources):
        host = hosts[i % len(hosts)]
        watch.append({"name": f"s{i}", "url": f"http://{host}:{ports[host]}/p{i}.bib", "every": "1h"})
    path.write_text(yaml.safe_dump({"watch": watch}), encoding="utf-8")
    return path


def start_daemon(db: Database, config: Path, owner: str, log: Path, tick: str = "0.2s") -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable, "-m", "watcher", "--db", db.url, "--config", str(config), "daemon",
            "--owner", owner, "--tick", tick, "--max-parallel", "32",
        ],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )


def checked_times(db: Database) -> tuple[int, float | None, float | None]:
    with db.session() as session:
        checked = Source.last_checked_at
        count, first, last = session.execute(select(func.count(checked), func.min(checked), func.max(checked))).one()
    return int(count), first.timestamp() if first else None, last.timestamp() if last else None


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=60)


def _round_rate(db: Database, sources: int, since: float) -> float:
    """Sources per second from the first check after ``since`` to the moment all are checked."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        with db.session() as session:
            checked = Source.last_checked_at
            after = datetime.fromtimestamp(since, UTC)
            count, first, last = session.execute(
                select(func.count(checked), func.min(checked), func.max(checked)).where(checked > after)
            ).one()
        if count >= sources:
            return sources / max(last.timestamp() - first.timestamp(), 1e-6)
        time.sleep(0.2)
    raise SystemExit(f"only {count} of {sources} sources were checked")


def throughput(
    admin_url: str, ports: dict[str, int], sources: int, daemons: int, workdir: Path
) -> tuple[float, float]:
    """First reads (fetch, parse, store items) and re-checks of unchanged pages, per second."""
    with fresh_database(admin_url) as db:
        config = write_config(workdir / "watch.yaml", ports, sources)
        sync_config(db, load_config(config), utcnow())
        procs = [start_daemon(db, config, f"bench-{i}", workdir / f"d{daemons}-{i}.log") for i in range(daemons)]
        try:
            first_reads = _round_rate(db, sources, 0.0)
            time.sleep(1)
            again = time.time()
            with db.session() as session:
                session.execute(update(Source).values(next_due_at=None))
            rechecks = _round_rate(db, sources, again)
        finally:
            stop(procs)
        return first_reads, rechecks


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def proc_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def idle(admin_url: str, ports: dict[str, int], sources: int, seconds: float, workdir: Path) -> tuple[float, float]:
    """CPU percent and RSS (MiB) of one daemon (5 s tick) whose sources are all checked, nothing due."""
    with fresh_database(admin_url) as db:
        config = write_config(workdir / "watch.yaml", ports, sources)
        sync_config(db, load_config(config), utcnow())
        # The default tick: what an installed daemon costs while nothing is due.
        proc = start_daemon(db, config, "bench-idle", workdir / "idle.log", tick="5s")
        try:
            while checked_times(db)[0] < sources:
                time.sleep(0.2)
            time.sleep(3)  # let the last checks settle
            cpu0, t0 = proc_cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            cpu1, t1 = proc_cpu_seconds(proc.pid), time.monotonic()
            rss = proc_rss_mib(proc.pid)
        finally:
            stop([proc])
        return 100 * (cpu1 - cpu0) / (t1 - t0), rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default=os.environ.get("WATCHER_TEST_POSTGRES_URL"))
    parser.add_argument("--sources", type=int, default=1000)
    parser.add_argument("--hosts", type=int, default=250)
    parser.add_argument("--daemons", default="1,2,4")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle measurement (0: skip)")
    args = parser.parse_args()
    if not args.postgres:
        raise SystemExit("give --postgres URL or set WATCHER_TEST_POSTGRES_URL")
    hosts = [f"127.1.{i // 200}.{1 + i % 200}" for i in range(args.hosts)]
    print(f"{args.sources} sources on {args.hosts} loopback hosts, PostgreSQL, {os.cpu_count()} CPUs")
    with loopback_servers(hosts) as ports, tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for daemons in (int(n) for n in args.daemons.split(",")):
            first_reads, rechecks = throughput(args.postgres, ports, args.sources, daemons, workdir)
            print(
                f"  {daemons} daemon(s): {first_reads:7.1f} first reads/s, {rechecks:7.1f} re-checks/s (unchanged)"
            )
        if args.idle > 0:
            cpu, rss = idle(args.postgres, ports, min(args.sources, 200), args.idle, workdir)
            print(f"  idle daemon over {args.idle:g} s: {cpu:.2f} % of one CPU, RSS {rss:.0f} MiB")


if __name__ == "__main__":
    main()
