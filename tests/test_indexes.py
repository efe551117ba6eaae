"""Index sources (dblp:, arxiv:, openalex:, orcid:) through the whole pipeline, against emulated
APIs on loopback serving their real response formats, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aiohttp import web
from index_fake import FakeIndexes, Work, check, serve_indexes
from sqlalchemy import func, select

from watcher.apis import ApiSpec, api_settings, parse_api_spec
from watcher.errors import ConfigError
from watcher.report import change_to_json
from watcher.sources import add_source, canonical_location
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Item, Source

#: One source of each kind, by API: the source string and the key its works are served under.
SOURCES = {
    "dblp": ("dblp:12/3456", "12/3456"),
    "arxiv": ('arxiv:"Jane Doe"', "Jane Doe"),
    "arxiv-orcid": ("arxiv:0000-0002-1825-0097", "0000-0002-1825-0097"),
    "openalex": ("openalex:A5012345678", "A5012345678"),
    "orcid": ("orcid:0000-0002-1825-0097", "0000-0002-1825-0097"),
}
API_OF = {"arxiv-orcid": "arxiv"}

WORKS = [
    Work(title="Sparse Radiance Grids for Real-Time View Synthesis", year=2026, venue="CVPR 2026",
         doi="10.5555/cvpr.2026.101", arxiv="2601.00101"),
    Work(title="Glint: Specular Highlights from Casual Captures", year=2025, venue="SIGGRAPH Asia 2025",
         doi="10.5555/sa.2025.202", arxiv="2505.00202"),
    Work(title="Tide: Temporal Depth from Event Cameras", year=2025, venue="ICCV 2025",
         doi="10.5555/iccv.2025.303", arxiv="2503.00303"),
]  # fmt: skip
NEW = Work(title="Murmur: Acoustic Fields for Room Geometry", year=2026, venue="NeurIPS 2026",
           doi="10.5555/nips.2026.404", arxiv="2609.00404")  # fmt: skip


@pytest.fixture
def fake() -> Iterator[tuple[FakeIndexes, dict[str, str]]]:
    indexes = FakeIndexes()
    with serve_indexes(indexes) as bases:
        yield indexes, bases


def watch(database: Database, spec: str) -> int:
    with database.session() as session:
        return add_source(session, spec, now=utcnow()).id


def changes(database: Database) -> list[dict]:
    with database.session() as session:
        rows = session.execute(select(Change, Source).join(Source).order_by(Change.id)).all()
        return [change_to_json(c, s) for c, s in rows]


def current_items(database: Database, source_id: int) -> int:
    with database.session() as session:
        query = select(func.count()).select_from(Item).where(Item.source_id == source_id, Item.removed_at.is_(None))
        return session.scalar(query) or 0


@pytest.mark.parametrize("kind", list(SOURCES))
def test_first_check_is_a_baseline_and_a_new_work_is_reported_once(
    database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str
) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = list(WORKS)
    source_id = watch(database, spec)

    (first,) = check(database, bases, [source_id])
    assert (first.status, first.items) == ("baseline", len(WORKS))
    assert changes(database) == []

    indexes.works[key] = [NEW, *WORKS]
    (second,) = check(database, bases, [source_id])
    assert second.status == "changed"
    (change,) = changes(database)
    assert (change["change"], change["kind"], change["item"]["title"]) == ("added", "paper", NEW.title)
    assert change["person"] is None and {NEW.doi, NEW.arxiv} & set(change["ids"].values())

    (third,) = check(database, bases, [source_id])
    assert third.status == "unchanged" and len(changes(database)) == 1


@pytest.mark.parametrize("kind", ["arxiv", "openalex"])
def test_paged_apis_are_read_to_the_end(
    database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str
) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = [*WORKS, NEW]  # 4 works, 2 a page
    (outcome,) = check(database, bases, [watch(database, spec)])
    assert (outcome.status, outcome.items) == ("baseline", 4)
    assert len(indexes.paths(API_OF.get(kind, kind))) == 2
    if kind == "openalex":
        first, second = indexes.paths("openalex")
        assert "cursor=*" in first and "cursor=c2" in second and "filter=author.id:A5012345678" in first


@pytest.mark.parametrize("kind", ["dblp", "orcid", "arxiv-orcid"])
def test_unchanged_records_answer_304(database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = list(WORKS)
    source_id = watch(database, spec)
    check(database, bases, [source_id])
    (again,) = check(database, bases, [source_id])
    assert again.status == "unchanged" and again.items == len(WORKS)
    with database.session() as session:
        statuses = session.scalars(select(func.count()).select_from(Item).where(Item.source_id == source_id)).one()
    assert statuses == len(WORKS)


@pytest.mark.parametrize("kind", ["dblp", "arxiv", "openalex", "orcid"])
def test_429_with_retry_after_is_honoured(
    database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str
) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = list(WORKS)
    indexes.refuse(kind, web.Response(status=429, text="slow down", headers={"Retry-After": "1"}))
    (outcome,) = check(database, bases, [watch(database, spec)], retries=1)
    assert outcome.status == "baseline"
    refused, answered = indexes.times(kind)[:2]
    assert answered - refused >= 0.95


@pytest.mark.parametrize(
    ("kind", "broken"),
    [("dblp", "<dblpperson><r><article"), ("arxiv", "<feed xmlns='http://www.w3.org/2005/Atom'><entry>"),
     ("openalex", '{"meta": {"count": 3}, "results": [}'), ("orcid", '{"orcid-identifier": ')],
)  # fmt: skip
def test_a_malformed_body_is_a_clear_error_and_loses_nothing(
    database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str, broken: str
) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = list(WORKS)
    source_id = watch(database, spec)
    check(database, bases, [source_id])
    if kind == "arxiv":  # a page the paging can read, whose entries cannot be parsed
        broken = broken.replace("<entry>", "<opensearch:totalResults>3</opensearch:totalResults><entry>")
    indexes.refuse(kind, web.Response(text=broken, content_type="text/xml"))
    (outcome,) = check(database, bases, [source_id])
    assert outcome.status == "error"
    assert outcome.error and "\n" not in outcome.error
    assert any(word in outcome.error for word in ("XML", "JSON", "Atom", "feed")), outcome.error
    assert current_items(database, source_id) == len(WORKS) and changes(database) == []
    (recovered,) = check(database, bases, [source_id])
    assert recovered.status == "unchanged" and changes(database) == []


@pytest.mark.parametrize("kind", list(SOURCES))
def test_an_empty_record_is_an_empty_baseline_then_its_first_work_is_added(
    database: Database, fake: tuple[FakeIndexes, dict[str, str]], kind: str
) -> None:
    indexes, bases = fake
    spec, key = SOURCES[kind]
    indexes.works[key] = []
    source_id = watch(database, spec)
    (first,) = check(database, bases, [source_id])
    assert (first.status, first.items) == ("baseline", 0)
    indexes.works[key] = [NEW]
    check(database, bases, [source_id])
    assert [(c["change"], c["item"]["title"]) for c in changes(database)] == [("added", NEW.title)]


def test_unknown_records_are_clear_errors(database: Database, fake: tuple[FakeIndexes, dict[str, str]]) -> None:
    _indexes, bases = fake
    outcomes = check(database, bases, [watch(database, "dblp:99/9999"), watch(database, "orcid:0000-0001-0000-0009")])
    assert [o.status for o in outcomes] == ["error", "error"]
    assert "DBLP person 99/9999 not found" in (outcomes[0].error or "")
    assert "ORCID record 0000-0001-0000-0009 not found" in (outcomes[1].error or "")


def test_orcid_employments_are_roles() -> None:
    from extractors.cases import FIXTURES
    from extractors.orcid import orcid_records

    records, ids = orcid_records((FIXTURES / "orcid/record.json").read_text())
    kinds = [r.kind for r in records]
    assert kinds.count("paper") == 3 and kinds.count("role") == 3 and kinds.count("award") == 1
    assert ids[0] == {"orcid": "0000-0003-4412-7790/work/81234501"}


def test_source_strings_parse_and_canonicalise() -> None:
    assert parse_api_spec("dblp:10/1/JungHoAhn") == ApiSpec("dblp", "10/1/JungHoAhn")
    assert str(parse_api_spec('arxiv:"Jane   Doe"')) == 'arxiv:"Jane Doe"'
    assert parse_api_spec("arxiv:0000-0002-1825-0097").by_orcid
    assert canonical_location("openalex:a5012345678") == "openalex:A5012345678"
    assert canonical_location("orcid:https://orcid.org/0000-0002-1825-009x") == "orcid:0000-0002-1825-009X"
    for bad, message in (("dblp:", "expected dblp:PID"), ("orcid:1234", "expected orcid:"),
                         ("openalex:W123", "an author id"), ('arxiv:"1234"', "Full Name")):  # fmt: skip
        with pytest.raises(ConfigError, match=message):
            canonical_location(bad)


def test_openalex_sends_the_users_key_or_address() -> None:
    environ = {"WATCHER_OPENALEX_API": "http://127.0.0.1:1/", "OPENALEX_KEY": "k-123"}
    settings = api_settings(environ, {"openalex": {"mailto": "me@example.org", "api_key_env": "OPENALEX_KEY"}})
    assert settings.base("openalex") == "http://127.0.0.1:1"
    assert (settings.openalex_mailto, settings.openalex_key) == ("me@example.org", "k-123")
    assert "k-123" not in repr(settings)


def test_openalex_request_carries_mailto(database: Database, fake: tuple[FakeIndexes, dict[str, str]]) -> None:
    indexes, bases = fake
    indexes.works["A5012345678"] = list(WORKS)

    check(database, bases, [watch(database, "openalex:A5012345678")], openalex_mailto="me@example.org")
    assert all("mailto=me@example.org" in path for path in indexes.paths("openalex"))
