"""The daemon on one machine: SQLite guard, structured logs, options, status, and real runs.

Real runs use the real pipeline against a loopback site serving BibTeX files; processes
are started with ``python -m watcher`` where a signal or a second process matters.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import yaml
from aiohttp import web
from servers import Page, StaticSite, serve
from sqlalchemy import func, select

from watcher.daemon import CheckLine, LineFormatter, run_daemon, sqlite_daemon_lock, start_metrics
from watcher.daemon_commands import daemon_options
from watcher.errors import ConfigError, StorageError
from watcher.status import collect_status, render_status, status_to_json
from watcher.store.db import Database
from watcher.store.models import Delivery, Snapshot, Source

NOW = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parent.parent


def bib(*titles: str) -> Page:
    entries = "\n".join(
        f"@article{{k{i}, title={{{title}}}, author={{Quill, Ada and Moss, Ben}}, journal={{Coastal Computing}}, "
        f"year={{2024}}}}"
        for i, title in enumerate(titles)
    )
    return Page(entries, content_type="text/x-bibtex; charset=utf-8")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'watcher.db'}")
    database.upgrade()
    yield database
    database.dispose()


# -- the SQLite guard ------------------------------------------------------------------


def test_second_lock_on_the_same_sqlite_file_is_refused_with_a_clear_message(db: Database) -> None:
    with sqlite_daemon_lock(db) as lock_path:
        assert lock_path is not None and lock_path.name == "watcher.db.daemon.lock"
        refused = rf"another watcher daemon \(pid {os.getpid()}\).*one daemon"
        with pytest.raises(StorageError, match=refused), sqlite_daemon_lock(db):
            pass
    with sqlite_daemon_lock(db):  # released with the first holder
        pass


# -- logs and options ------------------------------------------------------------------


def _record(fields: dict[str, object]) -> logging.LogRecord:
    record = logging.LogRecord("watcher.daemon", logging.INFO, __file__, 1, "check", None, None)
    record.fields = fields
    return record


def test_check_lines_in_logfmt_and_json() -> None:
    line = CheckLine(source="ada quill", status="error", duration_ms=812, error='HTTP 503 "busy"')
    text = LineFormatter("logfmt").format(_record(line.fields()))
    assert 'event=check source="ada quill" status=error duration_ms=812 items=0 changes=0' in text
    assert text.endswith('error="HTTP 503 \\"busy\\""')
    assert text.startswith("ts=") and "level=info" in text and "\n" not in text
    data = json.loads(LineFormatter("json").format(_record(line.fields())))
    assert data["source"] == "ada quill" and data["duration_ms"] == 812 and data["error"] == 'HTTP 503 "busy"'
    ok = CheckLine(source="b", status="changed", duration_ms=3, items=12, changes=2).fields()
    assert "error" not in ok


def test_daemon_options_merge_config_and_command_line() -> None:
    options = daemon_options({"tick": "2s", "lease": "5m", "max_parallel": 8}, {"tick": "1s", "metrics_port": None})
    assert options.tick == timedelta(seconds=1)
    assert options.lease == timedelta(minutes=5)
    assert options.max_parallel == 8 and options.metrics_port is None
    with pytest.raises(ConfigError, match="unknown key 'ticks'"):
        daemon_options({"ticks": "2s"}, {})
    with pytest.raises(ConfigError, match="max_parallel"):
        daemon_options({"max_parallel": 0}, {})


# -- status ------------------------------------------------------------------------------


def test_status_reports_due_failing_suspect_leases_and_deliveries(db: Database) -> None:
    with db.session() as session:
        session.add_all(
            [
                Source(name="fresh", url="http://127.0.0.1/a.bib", created_at=NOW),
                Source(
                    name="broken", url="http://127.0.0.1/b.bib", created_at=NOW, failures=3,
                    last_error="http://127.0.0.1/b.bib: HTTP 503", last_checked_at=NOW,
                    next_due_at=NOW + timedelta(hours=4), last_status="error",
                ),
                Source(
                    name="odd", url="http://127.0.0.1/c.bib", created_at=NOW, last_status="suspect",
                    last_checked_at=NOW, next_due_at=NOW + timedelta(hours=1),
                ),
                Source(
                    name="busy", url="http://127.0.0.1/d.bib", created_at=NOW, lease_owner="host:12:ab",
                    lease_expires_at=NOW + timedelta(minutes=5),
                ),
                Source(name="gone", url="http://127.0.0.1/e.bib", created_at=NOW, active=False),
                Delivery(
                    channel="webhook", target="http://127.0.0.1/hook", created_at=NOW, next_attempt_at=NOW,
                    idempotency_key="k1",
                ),
                Delivery(
                    channel="webhook", target="http://127.0.0.1/hook", created_at=NOW, next_attempt_at=NOW,
                    idempotency_key="k2", status="failed",
                ),
            ]
        )
    report = collect_status(db, NOW)
    assert (report.sources_total, report.sources_active, report.due_now) == (5, 4, 1)
    assert [f.name for f in report.failing] == ["broken"]
    assert report.failing[0].next_try_at == NOW + timedelta(hours=4)
    assert report.suspect == ("odd",)
    assert [(h.owner, h.sources, h.expired) for h in report.leases] == [("host:12:ab", 1, False)]
    assert (report.deliveries_pending, report.deliveries_failed) == (1, 1)
    text = "\n".join(render_status(report))
    assert "broken: 3 failures, next try in 4h: http://127.0.0.1/b.bib: HTTP 503" in text
    assert "host:12:ab: 1 sources" in text
    data = json.loads(json.dumps(status_to_json(report)))
    assert data["failing"][0]["next_try_at"] == "2026-03-27T16:00:00+00:00"
    assert data["deliveries_pending"] == 1


# -- real runs ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_config(path: Path, base_url: str, count: int, every: str = "1h") -> Path:
    watch = [{"name": f"person-{i}", "url": f"{base_url}/p{i}.bib", "every": every} for i in range(count)]
    path.write_text(yaml.safe_dump({"watch": watch}), encoding="utf-8")
    return path


async def test_run_daemon_checks_due_sources_once_and_schedules_the_next(
    db: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from watcher.fetch import FetchSettings
    from watcher.pipeline import open_services

    site = StaticSite({f"/p{i}.bib": bib(f"Tidal lattice part {i}") for i in range(6)})
    with serve(site.app()) as base_url:
        config = _write_config(tmp_path / "watch.yaml", base_url, 6)
        stop = asyncio.Event()
        caplog.set_level(logging.INFO, logger="watcher.daemon")

        feed_port = _free_port()
        feed: list[httpx.Response] = []

        async def stop_when_checked() -> None:
            while len([r for r in caplog.records if r.getMessage() == "check"]) < 6:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.6)  # a few more ticks: nothing is due again for an hour
            async with httpx.AsyncClient() as client:
                feed.append(await client.get(f"http://127.0.0.1:{feed_port}/feed.atom"))
            stop.set()

        stopper = asyncio.create_task(stop_when_checked())
        metrics = start_metrics(_free_port())
        assert metrics is not None
        try:
            await asyncio.wait_for(
                run_daemon(
                    db, config, lambda: open_services(db, None, notifiers=(), settings=FetchSettings(host_delay=0)),
                    owner="t1", tick=timedelta(seconds=0.1), lease=timedelta(seconds=30), stop_event=stop,
                    metrics=metrics, feeds=("127.0.0.1", feed_port),
                ),
                timeout=20,
            )
            await stopper
            port = metrics.server.server_address[1]
            scraped = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
        finally:
            metrics.close()
    assert 'watcher_checks_total{status="baseline"} 6.0' in scraped
    # The feeds are served while the daemon runs (first readings are baselines: no entries yet).
    assert feed[0].status_code == 200 and b"<feed" in feed[0].content and b"<entry>" not in feed[0].content
    assert "watcher_check_duration_seconds_count 6.0" in scraped
    assert "watcher_sources_due " in scraped and "watcher_deliveries_pending 0.0" in scraped
    assert all(site.count(f"/p{i}.bib") == 1 for i in range(6))
    lines = [r.fields for r in caplog.records if r.getMessage() == "check"]  # type: ignore[attr-defined]
    assert sorted(line["source"] for line in lines) == [f"person-{i}" for i in range(6)]
    assert {line["status"] for line in lines} == {"baseline"}
    assert all(line["items"] == 1 for line in lines)
    with db.session() as session:
        sources = session.scalars(select(Source)).all()
        assert all(s.lease_owner is None and s.next_due_at is not None for s in sources)
        assert all(s.next_due_at >= s.last_checked_at + timedelta(hours=1) for s in sources)  # type: ignore[operator]


def _daemon_process(db_url: str, config: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "watcher", "--db", db_url, "--config", str(config), "daemon", *extra],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def _wait_for_line(proc: subprocess.Popen[str], needle: str, timeout: float = 15) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    assert proc.stderr is not None
    os.set_blocking(proc.stderr.fileno(), False)
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if line:
            seen.append(line)
            if needle in line:
                return seen
        elif proc.poll() is not None:
            break
        else:
            time.sleep(0.02)
    raise AssertionError(f"no {needle!r} from the daemon; it said: {''.join(seen)}")


def _slow_site(delays: dict[str, float]) -> tuple[web.Application, dict[str, int]]:
    """BibTeX pages ``/p<n>.bib``; a path in ``delays`` answers only after that many seconds."""
    hits: dict[str, int] = {}

    async def page(request: web.Request) -> web.Response:
        hits[request.path] = hits.get(request.path, 0) + 1
        await asyncio.sleep(delays.get(request.path, 0))
        return web.Response(body=bib(f"Gull census {request.path}").payload(), content_type="text/x-bibtex")

    async def no_robots(_request: web.Request) -> web.Response:
        return web.Response(status=404)

    app = web.Application()
    app.router.add_get("/robots.txt", no_robots)
    app.router.add_get("/{name}.bib", page)
    return app, hits


def test_second_daemon_on_sqlite_refuses_and_sigterm_waits_for_checks_in_flight(db: Database, tmp_path: Path) -> None:
    app, hits = _slow_site({"/p2.bib": 2.0})
    with serve(app) as base_url:
        config = _write_config(tmp_path / "watch.yaml", base_url, 3)
        first = _daemon_process(db.url, config, "--tick", "0.2s", "--owner", "first")
        try:
            _wait_for_line(first, "event=check")
            second = subprocess.run(
                [sys.executable, "-m", "watcher", "--db", db.url, "--config", str(config), "daemon"],
                cwd=REPO, capture_output=True, text=True, timeout=30,
            )
            assert second.returncode == 1
            assert "another watcher daemon" in second.stderr and "SQLite allows one daemon" in second.stderr
            # The slow check is in flight (its host's turn may come a little later).
            deadline = time.monotonic() + 10
            while hits.get("/p2.bib") is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert hits.get("/p2.bib") == 1
            first.send_signal(signal.SIGTERM)
            assert first.wait(timeout=15) == 0
        finally:
            if first.poll() is None:
                first.kill()
                first.wait()
    with db.session() as session:
        assert session.scalar(select(func.count()).where(Source.lease_owner.is_not(None))) == 0
        # The slow check was let finish: all three were recorded, and are scheduled ahead.
        assert session.scalar(select(func.count()).select_from(Snapshot)) == 3
        assert session.scalar(select(func.count()).where(Source.next_due_at.is_(None))) == 0


def test_sigterm_after_grace_releases_unfinished_checks_and_exits_promptly(db: Database, tmp_path: Path) -> None:
    app, hits = _slow_site({"/p0.bib": 30.0})
    with serve(app) as base_url:
        config = _write_config(tmp_path / "watch.yaml", base_url, 2)
        proc = _daemon_process(db.url, config, "--tick", "0.2s", "--grace", "0.5s", "--owner", "brief")
        try:
            _wait_for_line(proc, "event=check")  # p1 done, p0 hanging
            assert hits.get("/p0.bib") == 1
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 0
            assert time.monotonic() - started < 5
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    with db.session() as session:
        hanging = session.scalars(select(Source).where(Source.name == "person-0")).one()
        # Released, not finished: still due, so the next daemon checks it at once.
        assert hanging.lease_owner is None and hanging.next_due_at is None and hanging.last_checked_at is None


def test_sighup_reloads_the_watch_list(db: Database, tmp_path: Path) -> None:
    site = StaticSite({f"/p{i}.bib": bib(f"Dune survey {i}") for i in range(3)})
    with serve(site.app()) as base_url:
        config = _write_config(tmp_path / "watch.yaml", base_url, 2)
        proc = _daemon_process(db.url, config, "--tick", "0.2s")
        try:
            _wait_for_line(proc, "event=daemon-started")
            watch = yaml.safe_load(config.read_text())["watch"]
            watch = [watch[1], {"name": "person-2", "url": f"{base_url}/p2.bib", "every": "1h"}]
            config.write_text(yaml.safe_dump({"watch": watch}))
            proc.send_signal(signal.SIGHUP)
            _wait_for_line(proc, "event=config-synced")
            deadline = time.monotonic() + 10
            while site.count("/p2.bib") == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert site.count("/p2.bib") == 1
    with db.session() as session:
        active = dict(session.execute(select(Source.name, Source.active)).all())
    assert active == {"person-0": False, "person-1": True, "person-2": True}


async def test_one_fetcher_keeps_the_host_gap_across_all_of_a_daemons_checks(db: Database, tmp_path: Path) -> None:
    from watcher.fetch import FetchSettings
    from watcher.pipeline import open_services

    site = StaticSite({f"/p{i}.bib": bib(f"Lattice {i}") for i in range(8)})
    with serve(site.app()) as base_url:
        config = _write_config(tmp_path / "watch.yaml", base_url, 8)
        stop = asyncio.Event()

        async def stop_when_all_read() -> None:
            while sum(site.count(f"/p{i}.bib") for i in range(8)) < 8:
                await asyncio.sleep(0.05)
            stop.set()

        stopper = asyncio.create_task(stop_when_all_read())
        settings = FetchSettings(host_delay=0.3, per_host_limit=2)
        await asyncio.wait_for(
            run_daemon(
                db, config, lambda: open_services(db, None, notifiers=(), settings=settings),
                tick=timedelta(seconds=0.1), lease=timedelta(seconds=30), stop_event=stop,
            ),
            timeout=30,
        )
        await stopper
    times = sorted(t for i in range(8) for t in site.times(f"/p{i}.bib"))
    # Eight sources due at once, checked concurrently, yet one host sees one request per gap.
    assert len(times) == 8
    assert min(b - a for a, b in itertools.pairwise(times)) >= 0.3 - 0.02
