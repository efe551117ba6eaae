"""The Atom feed: valid structure, stable ids, escaped content; ``watcher feed`` writes it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner
from notify_support import T0, Clock, add_change, add_source, make_db, paper

from watcher.config import Config
from watcher.notify.commands import register_commands
from watcher.notify.feed import build_atom_feed, change_entry_id, recent_changes
from watcher.store.db import Database

NS = {"a": "http://www.w3.org/2005/Atom"}


@pytest.fixture
def db(tmp_path: Path) -> Database:
    db = make_db(tmp_path)
    with db.session() as s:
        jane = add_source(s, "jane", label="Jane Doe")
        lab = add_source(s, "xlab", label="Lab X")
        add_change(s, jane, "paper", paper("<b>Bold</b> Widgets", url="javascript:alert(1)"), at=T0)
        add_change(s, jane, "news", {"text": "New grant", "url": "https://jane.example.org/n"},
                   at=T0 + timedelta(hours=1))
        add_change(s, lab, "member", {"name": "Cy Lark", "role": "PhD student"}, at=T0 + timedelta(hours=2))
    return db


def parse(xml: bytes) -> ET.Element:
    root = ET.fromstring(xml)
    assert root.tag == "{http://www.w3.org/2005/Atom}feed"
    for required in ("id", "title", "updated", "author/a:name"):
        assert root.find(f"a:{required}", NS) is not None, required
    return root


def test_feed_is_valid_atom_with_stable_entry_ids(db: Database) -> None:
    with db.session() as s:
        pairs = recent_changes(s)
        xml = build_atom_feed(pairs, title="watcher: all", feed_id="tag:watcher.invalid,2026:feed/all")
        again = build_atom_feed(recent_changes(s), title="watcher: all", feed_id="tag:watcher.invalid,2026:feed/all")
        expected_ids = [change_entry_id(c) for c, _ in pairs]
    root = parse(xml)
    assert root.findtext("a:id", namespaces=NS) == "tag:watcher.invalid,2026:feed/all"
    assert root.findtext("a:updated", namespaces=NS).startswith("2026-11-20T11:30:00")
    entries = root.findall("a:entry", NS)
    assert [e.findtext("a:id", namespaces=NS) for e in entries] == expected_ids  # newest first
    assert all(i.startswith("tag:watcher.invalid,2026:change/") for i in expected_ids)
    assert xml == again
    for entry in entries:
        for required in ("id", "title", "updated", "content"):
            assert entry.find(f"a:{required}", NS) is not None
    member, news, bad_paper = entries
    # A change reads as news about its person or lab (the label, no person owning the source).
    assert member.findtext("a:title", namespaces=NS) == "Lab X has a new member: Cy Lark, PhD student"
    assert news.find("a:link", NS).get("href") == "https://jane.example.org/n"
    # A javascript: item link is not used; the entry links to the source page instead.
    assert bad_paper.find("a:link", NS).get("href") == "https://jane.example.org/"
    content = bad_paper.find("a:content", NS)
    assert content.get("type") == "html"
    assert "&lt;b&gt;Bold&lt;/b&gt; Widgets" in content.text and "javascript" not in content.text
    assert bad_paper.findtext("a:author/a:name", namespaces=NS) == "Jane Doe"


def test_feed_command_writes_a_file_per_source_or_person(db: Database, tmp_path: Path) -> None:
    @click.group()
    def cli() -> None:
        pass

    register_commands(cli)
    obj = SimpleNamespace(db=db, config=Config(), now=Clock(T0 + timedelta(days=1)))
    out = tmp_path / "jane.xml"
    result = CliRunner().invoke(cli, ["feed", "--source", "jane", "--output", str(out)], obj=obj)
    assert result.exit_code == 0, result.output
    root = parse(out.read_bytes())
    assert len(root.findall("a:entry", NS)) == 2
    assert root.find("a:link", NS).get("href") == "https://jane.example.org/"

    result = CliRunner().invoke(cli, ["feed", "--person", "Lab X"], obj=obj)
    assert result.exit_code == 0
    assert len(parse(result.stdout_bytes).findall("a:entry", NS)) == 1

    result = CliRunner().invoke(cli, ["feed", "--source", "nobody"], obj=obj)
    root = parse(result.stdout_bytes)
    assert root.findall("a:entry", NS) == []
    assert root.findtext("a:updated", namespaces=NS).startswith("2026-11-21T09:30:00")


async def test_feeds_are_served_over_http_with_etags(db: Database) -> None:
    import httpx

    from watcher.notify.feed import serve_feeds

    async with serve_feeds(db, "127.0.0.1", 0, lambda: T0 + timedelta(days=1)) as port, httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}"
    ) as client:
        everything = await client.get("/feed.atom")
        jane = await client.get("/feed/source/jane.atom")
        lab = await client.get("/feed/person/Lab X.atom")
        again = await client.get("/feed.atom", headers={"If-None-Match": everything.headers["ETag"]})
        typo = await client.get("/feed/source/jnae.atom")
        person_typo = await client.get("/feed/person/Lab Y.atom")
    assert everything.status_code == 200
    assert everything.headers["Content-Type"].startswith("application/atom+xml")
    assert len(parse(everything.content).findall("a:entry", NS)) == 3
    assert len(parse(jane.content).findall("a:entry", NS)) == 2
    assert [e.findtext("a:title", namespaces=NS) for e in parse(lab.content).findall("a:entry", NS)] == [
        e.findtext("a:title", namespaces=NS)
        for e in parse(everything.content).findall("a:entry", NS)
        if "Cy Lark" in (e.findtext("a:title", namespaces=NS) or "")
    ]
    assert again.status_code == 304 and not again.content
    assert typo.status_code == 404 and "jnae" in typo.text
    assert person_typo.status_code == 404 and "Lab Y" in person_typo.text


async def test_a_taken_feed_port_is_a_clear_error(db: Database) -> None:
    from watcher.errors import ConfigError
    from watcher.notify.feed import serve_feeds

    async with serve_feeds(db, "127.0.0.1", 0, lambda: T0) as port:
        with pytest.raises(ConfigError, match=f"cannot serve feeds on 127.0.0.1:{port}"):
            async with serve_feeds(db, "127.0.0.1", port, lambda: T0):
                pass
