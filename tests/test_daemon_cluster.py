"""Several daemon processes on one PostgreSQL: each due check runs once, a killed daemon's work moves on.

200 sources (BibTeX files) live on loopback servers spread over 50 addresses in
127.0.0.0/8, so per-host politeness is not what limits the run; every source is due every
few seconds. The servers count the hits on each page; a webhook receiver counts
deliveries by their ``webhook-id``.
"""

from __future__ import annotations

import base64
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from aiohttp import web
from pg import fresh_postgres_database
from servers import serve
from sqlalchemy import func, select

from watcher.config import load_config
from watcher.daemon import sync_config
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Item, Snapshot, Source

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

POSTGRES_URL = os.environ.get("WATCHER_TEST_POSTGRES_URL")
REPO = Path(__file__).resolve().parent.parent
HOSTS = [f"127.0.{10 + i // 25}.{1 + i % 25}" for i in range(50)]
PAGES_PER_HOST = 4
INTERVAL = 4.0
LEASE = "3s"
SECRET = "whsec_" + base64.b64encode(b"cluster-test-secret-0123456789").decode()


def _bib(name: str, extra: bool) -> str:
    titles = [f"Shoreline notes of {name}", f"Dune grass survey by {name}"]
    if extra:
        titles.append(f"A new tide table from {name}")
    return "\n".join(
        f"@article{{k{i}, title={{{t}}}, author={{Quill, Ada}}, journal={{Coastal Computing}}, year={{2025}}}}"
        for i, t in enumerate(titles)
    )


@dataclass
class Pages:
    """Every page of every host: content version, an optional delay, and the monotonic time of each hit."""

    slow: set[str] = field(default_factory=set)
    changed: set[str] = field(default_factory=set)
    hits: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self, host: str) -> web.Application:
        async def page(request: web.Request) -> web.Response:
            key = f"{host}{request.path}"
            with self.lock:
                self.hits.setdefault(key, []).append(time.monotonic())
                slow, extra = key in self.slow, key in self.changed
            if slow:
                await _sleep(1.0)
            # Validators as a static host sends them: an unchanged page costs a 304.
            etag = f'"{key}-{int(extra)}"'
            if request.headers.get("If-None-Match") == etag:
                return web.Response(status=304, headers={"ETag": etag})
            return web.Response(text=_bib(key, extra), content_type="text/x-bibtex", headers={"ETag": etag})

        async def robots(_request: web.Request) -> web.Response:
            return web.Response(status=404)

        app = web.Application()
        app.router.add_get("/robots.txt", robots)
        app.router.add_get("/{name}.bib", page)
        return app

    def times(self, key: str) -> list[float]:
        with self.lock:
            return list(self.hits.get(key, []))


async def _sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


@dataclass
class Receiver:
    ids: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self) -> web.Application:
        async def hook(request: web.Request) -> web.Response:
            await request.read()
            with self.lock:
                self.ids.append(request.headers["webhook-id"])
            return web.Response(status=204)

        app = web.Application()
        app.router.add_post("/hook", hook)
        return app


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_postgres_database() as url:
        yield url


@dataclass
class Cluster:
    db: Database
    config: Path
    pages: Pages
    receiver: Receiver
    logs: Path
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, owner: str) -> None:
        log = (self.logs / f"{owner}.log").open("wb")
        self.procs[owner] = subprocess.Popen(
            [
                sys.executable, "-m", "watcher", "--db", self.db.url, "--config", str(self.config), "daemon",
                "--owner", owner, "--tick", "0.2s", "--lease", LEASE, "--grace", "5s",
            ],
            cwd=REPO, stdout=log, stderr=log, env={**os.environ, "WH_SECRET": SECRET},
        )

    def stop_all(self) -> dict[str, int]:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        return {owner: proc.wait(timeout=20) for owner, proc in self.procs.items()}

    def kill_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    def wait_started(self, timeout: float = 60) -> None:
        """Until every daemon has logged its start (imports and config sync take a while on a busy machine)."""
        deadline = time.monotonic() + timeout
        for owner, proc in self.procs.items():
            log = self.logs / f"{owner}.log"
            while "event=daemon-started" not in log.read_text():
                assert proc.poll() is None, f"{owner} exited: {log.read_text()[-2000:]}"
                assert time.monotonic() < deadline, f"{owner} did not start"
                time.sleep(0.05)

    def wait_all_checked(self, timeout: float = 90) -> None:
        """Until every source has had its first check."""
        deadline = time.monotonic() + timeout
        while True:
            with self.db.session() as session:
                left = session.scalar(select(func.count()).where(Source.last_checked_at.is_(None)))
            if not left:
                return
            assert time.monotonic() < deadline, f"{left} sources never checked"
            time.sleep(0.1)

    def checks_by(self, owner: str) -> int:
        return (self.logs / f"{owner}.log").read_text().count("event=check ")

    def leases_of(self, owner: str) -> dict[int, float]:
        """Source id → lease expiry (as ``time.monotonic``) of the leases ``owner`` holds now."""
        wall, mono = utcnow(), time.monotonic()
        with self.db.session() as session:
            rows = session.execute(
                select(Source.id, Source.lease_expires_at).where(Source.lease_owner == owner)
            ).all()
        return {sid: mono + (expires - wall).total_seconds() for sid, expires in rows}


@pytest.fixture
def cluster(postgres_url: str, tmp_path: Path) -> Iterator[Cluster]:
    pages, receiver = Pages(), Receiver()
    with ExitStack() as stack:
        bases = [stack.enter_context(serve(pages.app(host), host=host)) for host in HOSTS]
        hook = stack.enter_context(serve(receiver.app()))
        watch = [
            {"name": f"{base.split('//')[1]}-p{n}", "url": f"{base}/p{n}.bib", "every": f"{INTERVAL}s"}
            for base in bases
            for n in range(PAGES_PER_HOST)
        ]
        config = tmp_path / "watch.yaml"
        notify = [{"type": "webhook", "url": f"{hook}/hook", "secret_env": "WH_SECRET"}]
        config.write_text(yaml.safe_dump({"watch": watch, "notify": notify}), encoding="utf-8")
        db = Database(postgres_url)
        db.upgrade()
        sync_config(db, load_config(config), utcnow())
        state = Cluster(db=db, config=config, pages=pages, receiver=receiver, logs=tmp_path)
        try:
            yield state
        finally:
            state.kill_all()
            db.dispose()


def _page_key(url: str) -> str:
    """``host/file`` as the servers record hits (without the port)."""
    return url.split("//", 1)[1].split(":", 1)[0] + "/" + url.rsplit("/", 1)[1]


def _page_keys(db: Database) -> dict[int, str]:
    with db.session() as session:
        return {sid: _page_key(url) for sid, url in session.execute(select(Source.id, Source.url)).all()}


def _assert_polite_rhythm(pages: Pages, keys: dict[int, str], *, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Every page was read at least twice, and never twice within one interval."""
    for sid, key in keys.items():
        times = pages.times(key)
        assert len(times) >= 2, f"{key} read {len(times)} times"
        if sid in skip:
            continue
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert min(gaps) >= INTERVAL - 0.05, f"{key} read twice within {min(gaps):.2f}s"


def _assert_each_change_once(db: Database, changed: set[int]) -> None:
    with db.session() as session:
        rows = session.execute(select(Change.source_id, Change.change, Item.key).join(Item)).all()
    counts = Counter(rows)
    assert all(n == 1 for n in counts.values()), [r for r, n in counts.items() if n > 1]
    assert {sid for sid, change, _key in rows if change == "added"} == changed
    assert len(rows) == len(changed)


def test_two_daemons_share_the_work_each_page_once_per_interval(cluster: Cluster) -> None:
    keys = _page_keys(cluster.db)
    changed = {sid for sid in sorted(keys)[::10]}
    cluster.start("alpha")
    cluster.start("beta")
    cluster.wait_started()
    cluster.wait_all_checked()
    with cluster.pages.lock:
        cluster.pages.changed.update(keys[sid] for sid in changed)
    time.sleep(2 * INTERVAL + 1.5)
    assert cluster.stop_all() == {"alpha": 0, "beta": 0}
    _assert_polite_rhythm(cluster.pages, keys)
    assert cluster.checks_by("alpha") > 50 and cluster.checks_by("beta") > 50  # both took a share
    with cluster.db.session() as session:
        snapshots = dict(session.execute(select(Snapshot.source_id, func.count()).group_by(Snapshot.source_id)).all())
        assert session.scalar(select(func.count()).where(Source.lease_owner.is_not(None))) == 0
    # Every fetch the servers saw was recorded once (a clean stop finishes what it started).
    assert {sid: len(cluster.pages.times(key)) for sid, key in keys.items()} == snapshots
    _assert_each_change_once(cluster.db, changed)
    ids = cluster.receiver.ids
    assert ids and len(ids) == len(set(ids))


def test_four_daemons_and_a_killed_one_whose_sources_move_on(cluster: Cluster) -> None:
    keys = _page_keys(cluster.db)
    slow = {sid for sid in sorted(keys)[3::5]}  # a fifth of the pages take a second to answer
    changed = {sid for sid in sorted(keys)[::10]}
    with cluster.pages.lock:
        cluster.pages.slow.update(keys[sid] for sid in slow)
    owners = ["d1", "d2", "d3", "victim"]
    for owner in owners:
        cluster.start(owner)
    cluster.wait_started()
    cluster.wait_all_checked()
    with cluster.pages.lock:
        cluster.pages.changed.update(keys[sid] for sid in changed)
    # Kill the victim while it holds leases (slow checks keep some in flight).
    deadline = time.monotonic() + 15
    held: dict[int, float] = {}
    while not held and time.monotonic() < deadline:
        held = cluster.leases_of("victim")
        if not held:
            time.sleep(0.02)
    assert held, "the victim never held a lease"
    killed_at = time.monotonic()
    cluster.procs["victim"].kill()
    cluster.procs["victim"].wait()
    held = cluster.leases_of("victim")  # including any claimed between the look and the kill
    time.sleep(2 * INTERVAL)
    assert cluster.stop_all() == {"d1": 0, "d2": 0, "d3": 0, "victim": -signal.SIGKILL}
    for sid, expires in held.items():
        after = [t for t in cluster.pages.times(keys[sid]) if t > killed_at]
        assert after, f"source {sid} was never checked again after the kill"
        # Nobody touched it while the lease held; someone did soon after it expired: within
        # 3 s (a tick, the host gap and a slow page's answer, with room for a loaded machine).
        assert expires - 0.1 <= after[0] <= expires + 3.0, (after[0] - killed_at, expires - killed_at)
    _assert_polite_rhythm(cluster.pages, keys, skip=set(held))
    assert all(cluster.checks_by(owner) > 20 for owner in owners[:3])
    _assert_each_change_once(cluster.db, changed)
    ids = cluster.receiver.ids
    assert ids and len(ids) == len(set(ids))
