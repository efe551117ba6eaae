"""The dashboard and JSON API over HTTP, on SQLite and PostgreSQL: pages, filters, keyset
paging, 404s, the token, write actions and CSRF, hostile items, the daemon and the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from pg import fresh_postgres_database
from starlette.testclient import TestClient
from web_data import HOSTILE_NEWS, NOW, seed_dashboard

from watcher.cli import main
from watcher.errors import ConfigError
from watcher.store.db import Database
from watcher.store.models import Change, Delivery, Source
from watcher.web.app import create_app, serve_web
from watcher.web.settings import WebSettings, web_settings

TOKEN = "correct horse battery staple"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """One seeded database per backend, shared by the read-only tests of this module."""
    if request.param == "sqlite":
        urls: Any = iter([f"sqlite:///{tmp_path_factory.mktemp('web') / 'watcher.db'}"])
        manager = None
    else:
        manager = fresh_postgres_database()
        urls = iter([manager.__enter__()])
    db = Database(next(urls))
    db.ensure_schema()
    seed_dashboard(db)
    yield db
    db.dispose()
    if manager is not None:
        manager.__exit__(None, None, None)


@pytest.fixture
def client(seeded: Database) -> TestClient:
    return TestClient(create_app(seeded, WebSettings(), now=lambda: NOW))


def _text(html: str) -> str:
    """The page's visible text, roughly: tags dropped, entities kept as they are."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


PAGES = ["/", "/sources", "/source/jane-home", f"/source/{quote('dblp:12/3456', safe='')}", "/person/Jane%20Doe",
         "/person/Vision%20Lab", "/deliveries", "/login"]  # fmt: skip


@pytest.mark.parametrize("path", PAGES)
def test_every_page_answers_with_strict_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "script-src 'none'" in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "<script" not in response.text and " style=" not in response.text  # nothing the CSP would block


def test_whats_new_groups_by_day_then_person_in_the_words_of_watcher_diff(client: TestClient) -> None:
    html = client.get("/").text
    days = re.findall(r'<h2><time datetime="([\d-]+)">', html)
    assert days == sorted(days, reverse=True) and len(days) == len(set(days))
    assert days[0] == "2026-11-20"  # the hostile source's changes, five hours before NOW
    # The same sentence as `watcher diff`, the title emphasised instead of starred.
    assert "Jane Doe posted a new paper: <em>Sparse attention for long documents, part 11</em> (NeurIPS 2024)" in html
    assert "Jane Doe updated paper <em>Sparse attention for long documents, part 3</em>" in html
    assert "&#39;Sparse atention for long documents, part 3&#39; → &#39;Sparse attention" in html
    assert "Vision Lab no longer lists member: Old Student, MSc" in html
    day = html[html.index('datetime="2026-11-18"'):]
    assert '<h3><a href="/person/Vision%20Lab">Vision Lab</a></h3>' in day[: day.index("</section>")]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("kind=member", {("vision-lab", "member", "added"), ("vision-lab", "member", "removed"),
                         ("hostile", "member", "added")}),
        ("change=removed", {("vision-lab", "member", "removed")}),
        ("source=vision-lab&change=added", {("vision-lab", "member", "added")}),
        ("person=Jane+Doe&kind=news", {("jane-home", "news", "added")}),
        ("tag=lab", {("vision-lab", "member", "added"), ("vision-lab", "member", "removed")}),
        ("since=2d&kind=paper", {("hostile", "paper", "added")}),
        ("since=2026-11-15&until=2026-11-19&kind=paper", {("jane-home", "paper", "modified")}),
        ("q=ATENTION", {("jane-home", "paper", "modified")}),
        ("q=moves+to+the+new", {("jane-home", "news", "added")}),
        ("q=100%25", set()),
    ],
)
def test_filters_narrow_the_page_and_the_api_alike(client: TestClient, query: str, expected: set[Any]) -> None:
    found = client.get(f"/api/v1/changes?{query}&limit=500").json()["changes"]
    assert {(c["source"], c["kind"], c["change"]) for c in found} == expected
    html = client.get(f"/?{query}").text
    assert html.count('<li class="change ') == len(found)


def test_the_page_pages_with_an_older_link_keeping_the_filters(client: TestClient) -> None:
    seen: list[str] = []
    url: str | None = "/?kind=paper&limit=4"
    while url:
        html = client.get(url).text
        seen += re.findall(r'<span class="sentence">(.*?)</span>', html)
        older = re.search(r'<a rel="next" href="([^"]+)">Older', html)
        url = older[1].replace("&amp;", "&") if older else None
        if url:
            assert "kind=paper" in url and "limit=4" in url
    assert len(seen) == 14 == len(set(seen))  # twelve added, one modified, one hostile


def test_api_changes_are_the_objects_of_watcher_diff(seeded: Database, client: TestClient, capsys: Any) -> None:
    body = client.get("/api/v1/changes?limit=500").json()
    assert body["next"] is None
    assert main(["--db", seeded.url, "diff", "--since", "2000-01-01", "--format", "json"]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    assert body["changes"] == list(reversed(from_cli))  # the same objects, newest first


def test_api_cursor_pages_are_stable_when_changes_arrive(database: Database) -> None:
    seed_dashboard(database)
    client = TestClient(create_app(database, WebSettings(), now=lambda: NOW))
    first = client.get("/api/v1/changes?limit=7").json()
    with database.session() as session:  # a check records a change between two pages
        source = session.query(Source).filter_by(name="vision-lab").one()
        session.add(Change(source_id=source.id, kind="news", change="added", detected_at=NOW + timedelta(hours=1),
                           after={"date": None, "text": "late news", "url": None}))  # fmt: skip
    pages, cursor = [first["changes"]], first["next"]
    while cursor:
        body = client.get(f"/api/v1/changes?limit=7&cursor={cursor}").json()
        pages.append(body["changes"])
        cursor = body["next"]
    listed = [c for page in pages for c in page]
    assert [len(p) for p in pages] == [7, 7, 6]
    assert len({json.dumps(c, sort_keys=True) for c in listed}) == 20  # none twice, none skipped
    times = [c["detected_at"] for c in listed]
    assert times == sorted(times, reverse=True)
    assert client.get("/api/v1/changes?limit=1").json()["changes"][0]["item"]["text"] == "late news"


def test_search_uses_the_text_index_which_follows_new_edited_and_deleted_changes(database: Database) -> None:
    from sqlalchemy import delete, text, update

    from watcher.web.queries import text_search

    seed_dashboard(database)
    with database.session() as session:
        assert text_search(session) in {"fts", "trigram"}
        if database.engine.dialect.name == "postgresql":
            assert session.execute(text("SELECT 1 FROM pg_indexes WHERE indexname = 'ix_change_search'")).first()
    client = TestClient(create_app(database, WebSettings(), now=lambda: NOW))

    def found(q: str) -> list[str]:
        return [c["source"] for c in client.get("/api/v1/changes", params={"q": q, "limit": 500}).json()["changes"]]

    assert found("old student") == ["vision-lab"]  # a removed member: its text is in `before`
    with database.session() as session:
        tenure = {"date": None, "text": "Tenure granted", "url": None}
        session.execute(update(Change).where(Change.kind == "news").values(after=tenure))
        session.execute(delete(Source).where(Source.name == "vision-lab"))
    assert found("old student") == []  # gone with its source
    assert sorted(found("tenure GRANTED")) == ["hostile", "jane-home"]
    assert found("moves to the new") == []
    assert len(found("Sp")) == 13  # too short for trigrams, so every change is read: Jane's papers


@pytest.mark.parametrize(
    ("query", "message"),
    [("kind=papers", "kind is one of"), ("change=new", "change is one of"), ("limit=0", "limit is"),
     ("limit=9999", "limit is"), ("cursor=bm90IGEgY3Vyc29y", "not a cursor"), ("since=yesterday", "not a time")],
)  # fmt: skip
def test_api_says_what_is_wrong_with_a_parameter(client: TestClient, query: str, message: str) -> None:
    response = client.get(f"/api/v1/changes?{query}")
    assert response.status_code == 400 and message in response.json()["error"]
    assert client.get(f"/?{query}").status_code == 400


def test_api_sources_with_health_counts_and_paging(client: TestClient) -> None:
    names, cursor = [], None
    while True:
        body = client.get("/api/v1/sources?limit=4" + (f"&cursor={cursor}" if cursor else "")).json()
        assert body["total"] == 6
        names += [s["name"] for s in body["sources"]]
        cursor = body["next"]
        if cursor is None:
            break
    assert names == sorted(names) and len(names) == 6
    failing = client.get("/api/v1/sources?status=failing").json()["sources"]
    assert [(s["name"], s["status"], s["reason"]) for s in failing] == [
        ("old-page", "failing", "HTTP 503 Service Unavailable")
    ]
    (suspect,) = client.get("/api/v1/sources?status=suspect").json()["sources"]
    assert suspect["name"] == "redesigned" and "41" in suspect["reason"]
    (home,) = client.get("/api/v1/sources?q=jane-home").json()["sources"]
    assert home["items_by_kind"] == {"paper": 12, "role": 1, "award": 1, "news": 1} and home["person"] == "Jane Doe"


def test_api_source_is_watcher_show_json(seeded: Database, client: TestClient, capsys: Any) -> None:
    for name in ("jane-home", "dblp:12/3456"):
        body = client.get(f"/api/v1/sources/{quote(name, safe='')}").json()
        assert main(["--db", seeded.url, "show", name, "--format", "json"]) == 0
        assert body == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "path", ["/source/nope", "/person/Nobody", "/api/v1/sources/nope", "/api/v1/nothing", "/feed/source/nope.atom",
             "/nowhere"],
)  # fmt: skip
def test_unknown_names_are_404(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert "error" in response.json()


def test_openapi_describes_exactly_the_api_routes(client: TestClient) -> None:
    document = client.get("/api/v1/openapi.json").json()
    assert document["openapi"] == "3.1.0"
    routes = {r.path.replace("{name:path}", "{name}") for r in client.app.routes if r.path.startswith("/api/")}
    assert set(document["paths"]) == routes
    params = {p["name"] for p in document["paths"]["/api/v1/changes"]["get"]["parameters"]}
    assert {"since", "kind", "change", "source", "person", "limit", "cursor"} <= params


def test_feeds_are_served_by_the_same_app(client: TestClient) -> None:
    response = client.get("/feed.atom")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/atom+xml")
    assert client.get("/feed.atom", headers={"If-None-Match": response.headers["etag"]}).status_code == 304
    assert b"<entry>" in client.get("/feed/source/jane-home.atom").content
    assert client.get("/feed/person/Vision%20Lab.atom").status_code == 200


@pytest.mark.parametrize("path", ["/", "/source/hostile", "/person/Mallory", "/?q=script", "/api/v1/changes"])
def test_hostile_items_show_as_text_and_nothing_runs(client: TestClient, path: str) -> None:
    response = client.get(path)
    html, lowered = response.text, response.text.lower()
    if path.startswith("/api/"):  # data, never a page: the reader escapes it
        assert response.headers["content-type"] == "application/json"
        assert response.headers["x-content-type-options"] == "nosniff"
        titles = [c["item"].get("title") or c["item"].get("text") for c in response.json()["changes"]]
        assert HOSTILE_NEWS in titles
        return
    assert "<script" not in lowered and "<img" not in lowered and "<svg onload" not in lowered
    assert 'href="javascript:' not in lowered and 'href="data:' not in lowered
    assert "49" not in _text(html)  # {{ 7*7 }} is not evaluated
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    if path != "/?q=script":
        assert "{{ 7*7 }}" in html and "{% raw %}" in html and "${7*7}" in html


def test_sources_page_sorts_filters_and_shows_health(client: TestClient) -> None:
    html = client.get("/sources?sort=failures&dir=desc").text
    rows = re.findall(r'<tr>\s*<td><a href="/source/([^"]+)">', html)
    assert rows[0] == "old-page" and len(rows) == 6
    assert "HTTP 503 Service Unavailable" in html and "the page yields 2 items" in html
    assert html.count('<svg class="spark"') == 6
    assert re.findall(r'<tr>\s*<td><a href="/source/([^"]+)">', client.get("/sources?status=suspect").text) == [
        "redesigned"
    ]
    assert client.get("/sources?sort=colour").status_code == 400


def test_source_and_person_pages_show_what_is_known_and_the_history(client: TestClient) -> None:
    html = client.get("/source/jane-home").text
    assert "alfolio" in html and "al-folio page markers" in html  # the extractor and why
    assert "Associate Professor" in html and "2024-07" in html and "Best Paper Award" in html
    assert 'href="https://doi.org/10.5555/jd.0"' in html and 'href="https://arxiv.org/abs/2601.10000"' in html
    assert html.count('<svg class="chart"') == 2 and html.count('class="k-paper"') >= 7  # charts have bars
    person = client.get("/person/Jane%20Doe").text
    assert "jane-home" in person and "dblp:12/3456" in person and "Sparse attention" in person
    assert 'href="/?person=Jane%20Doe"' in person


def test_deliveries_lists_pending_and_failed_with_attempts(client: TestClient) -> None:
    text = _text(client.get("/deliveries").text)
    assert "webhook" in text and "connection refused" in text and "&lt;b&gt;550&lt;/b&gt;" in text
    assert "k-sent" not in text and text.count("me@example.org") == 1  # the sent one is not listed


# -- the token --------------------------------------------------------------------------------


def test_with_a_token_every_request_needs_it(seeded: Database) -> None:
    client = TestClient(create_app(seeded, WebSettings(token=TOKEN), now=lambda: NOW), follow_redirects=False)
    page = client.get("/sources")
    assert page.status_code == 401 and 'name="token"' in page.text and 'value="/sources"' in page.text
    api = client.get("/api/v1/changes")
    assert api.status_code == 401 and api.json()["error"] == "unauthorised"
    assert client.get("/api/v1/changes", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/feed.atom").status_code == 401
    assert client.get("/api/v1/changes", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert client.get("/static/style.css").status_code == 200

    assert client.post("/login", data={"token": "guess", "next": "/"}).status_code == 401
    signed = client.post("/login", data={"token": TOKEN, "next": "https://evil.example/"})
    assert signed.status_code == 303 and signed.headers["location"] == "/"  # never off-site
    cookie = signed.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower() and TOKEN not in cookie
    assert client.get("/sources").status_code == 200  # the cookie now
    assert client.get("/api/v1/changes").status_code == 200
    client.post("/logout")
    assert client.get("/sources").status_code == 401


def test_settings_refuse_an_open_address_without_a_token() -> None:
    with pytest.raises(ConfigError, match=r"refusing to serve on 0\.0\.0\.0 without a token"):
        web_settings(None, host="0.0.0.0", environ={})
    assert web_settings(None, host="0.0.0.0", environ={"WATCHER_WEB_TOKEN": TOKEN}).token == TOKEN
    assert web_settings(None, host="::1", environ={}).token is None
    with pytest.raises(ConfigError, match="write actions need a token"):
        web_settings(None, allow_writes=True, environ={})
    from watcher.config import parse_config

    config = parse_config({"web": {"token_env": "LAB_DASH_TOKEN", "allow_writes": True, "port": 9000}})
    with pytest.raises(ConfigError, match="LAB_DASH_TOKEN, which is not set"):
        web_settings(config, environ={})
    settings = web_settings(config, environ={"LAB_DASH_TOKEN": TOKEN})
    assert (settings.token, settings.allow_writes, settings.port) == (TOKEN, True, 9000)


@pytest.mark.parametrize("command", ["serve", "daemon --web --web-host"])
def test_the_cli_refuses_to_listen_off_loopback_without_a_token(tmp_path: Path, command: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WATCHER_WEB_TOKEN"}
    args = [sys.executable, "-m", "watcher", "--db", f"sqlite:///{tmp_path / 'w.db'}", *command.split()]
    args += ["0.0.0.0"] if command.endswith("host") else ["--host", "0.0.0.0"]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "watcher: error: refusing to serve on 0.0.0.0 without a token: set WATCHER_WEB_TOKEN (or name another "
        "variable with web.token_env), or serve on 127.0.0.1"
    ]


# -- write actions ----------------------------------------------------------------------------


def _source_row(db: Database, name: str) -> Source:
    with db.session() as session:
        return session.query(Source).filter_by(name=name).one()


def test_write_actions_are_off_by_default(database: Database) -> None:
    seed_dashboard(database)
    client = TestClient(create_app(database, WebSettings(), now=lambda: NOW))
    assert 'action="/actions/pause"' not in client.get("/source/jane-home").text
    response = client.post("/actions/pause", data={"name": "jane-home", "csrf": ""})
    assert response.status_code == 403 and "write actions are off" in response.text
    assert _source_row(database, "jane-home").paused is False


def test_write_actions_with_the_token_and_a_csrf_token(database: Database) -> None:
    seed_dashboard(database)
    app = create_app(database, WebSettings(token=TOKEN, allow_writes=True), now=lambda: NOW)
    client = TestClient(app, follow_redirects=False, headers={"Authorization": f"Bearer {TOKEN}"})
    page = client.get("/source/jane-home").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)[1]  # type: ignore[index]

    refused = client.post("/actions/pause", data={"name": "jane-home"})
    assert refused.status_code == 403 and "CSRF" in refused.text
    assert client.post("/actions/pause", data={"name": "jane-home", "csrf": "0" * 64}).status_code == 403
    other_site = client.post("/actions/pause", data={"name": "jane-home", "csrf": csrf},
                             headers={"Origin": "https://evil.example"})  # fmt: skip
    assert other_site.status_code == 403
    assert _source_row(database, "jane-home").paused is False

    done = client.post("/actions/pause", data={"name": "jane-home", "csrf": csrf})
    assert done.status_code == 303 and done.headers["location"] == "/source/jane-home?note=paused"
    assert _source_row(database, "jane-home").paused is True
    assert "Paused: not checked until resumed." in client.get(done.headers["location"]).text
    client.post("/actions/resume", data={"name": "jane-home", "csrf": csrf})
    assert _source_row(database, "jane-home").paused is False
    client.post("/actions/check", data={"name": "old-page", "csrf": csrf})
    assert _source_row(database, "old-page").next_due_at == NOW

    added = client.post("/actions/add", data={"location": "https://new.example.org/", "name": "newcomer",
                                              "every": "6h", "label": "New Person", "csrf": csrf})  # fmt: skip
    assert added.status_code == 303 and _source_row(database, "newcomer").every_seconds == 6 * 3600
    duplicate = client.post("/actions/add", data={"location": "https://new.example.org/", "csrf": csrf})
    assert duplicate.status_code == 400 and "exists already" in duplicate.text
    client.post("/actions/remove", data={"name": "newcomer", "csrf": csrf})
    assert _source_row(database, "newcomer").active is False

    with database.session() as session:
        failed_id = session.query(Delivery).filter_by(status="failed").one().id
    assert client.post("/actions/retry", data={"id": str(failed_id), "csrf": csrf}).status_code == 303
    with database.session() as session:
        assert session.get(Delivery, failed_id).status == "pending"


# -- real servers on loopback -----------------------------------------------------------------


async def test_serve_web_answers_over_loopback(database: Database) -> None:
    seed_dashboard(database)
    async with serve_web(database, WebSettings(port=0), now=lambda: NOW) as port, httpx.AsyncClient() as http:
        page = await http.get(f"http://127.0.0.1:{port}/person/Jane%20Doe")
        api = await http.get(f"http://127.0.0.1:{port}/api/v1/changes", params={"kind": "role"})
    assert page.status_code == 200 and "Associate Professor" in page.text
    assert [c["item"]["title"] for c in api.json()["changes"]] == ["Associate Professor"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_the_daemon_serves_the_dashboard_and_the_feeds(database: Database) -> None:
    from watcher.daemon import run_daemon
    from watcher.fetch import FetchSettings
    from watcher.pipeline import open_services

    seed_dashboard(database)
    with database.session() as session:  # nothing due: the daemon only serves
        for source in session.query(Source):
            source.next_due_at = NOW + timedelta(days=3650)
    port, stop = _free_port(), asyncio.Event()
    answers: dict[str, httpx.Response] = {}

    async def visit() -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            for _ in range(200):
                try:
                    answers["page"] = await http.get("/sources")
                    break
                except httpx.ConnectError:
                    await asyncio.sleep(0.05)
            answers["feed"] = await http.get("/feed/source/jane-home.atom")
            answers["api"] = await http.get("/api/v1/sources/vision-lab")
        stop.set()

    visitor = asyncio.create_task(visit())
    await asyncio.wait_for(
        run_daemon(
            database, None, lambda: open_services(database, None, notifiers=(), settings=FetchSettings(host_delay=0)),
            tick=timedelta(seconds=0.2), lease=timedelta(seconds=30), stop_event=stop,
            web=WebSettings(port=port),
        ),
        timeout=30,
    )  # fmt: skip
    await visitor
    assert answers["page"].status_code == 200 and "old-page" in answers["page"].text
    assert answers["feed"].status_code == 200 and b"<entry>" in answers["feed"].content
    assert [i["name"] for i in answers["api"].json()["items"]] == ["Ann Lee", "Raj Patel"]
