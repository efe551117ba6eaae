"""People and labs: one person across their homepage and index records, one report per paper,
the APIs' etiquette across many people, and the person entity in storage and on the CLI."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from index_fake import FakeIndexes, Work, check, indexes_env, serve_indexes
from servers import Page, StaticSite
from sqlalchemy import select

from watcher.cli import main
from watcher.config import parse_config
from watcher.errors import ConfigError
from watcher.people import add_person, person_view, sync_people
from watcher.sources import add_source, sync_sources
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Person, PersonSource, Source, WorkItem
from watcher.store.models import Work as WorkRow

OLD = [
    Work(title="Sable: Shadow-Aware Inverse Lighting", year=2022, venue="ECCV", doi="10.5555/eccv.2022.11",
         dblp_key="conf/eccv/DoeW22"),
    Work(title="Tessellate: Learning Mesh Topology from Sketches", year=2024, venue="CVPR",
         doi="10.5555/cvpr.2024.22", dblp_key="conf/cvpr/DoeH24"),
]  # fmt: skip
PREPRINT_ONLY = Work(title="Lantern: Light Transport Priors", year=2025, arxiv="2502.00777")
NEW_PREPRINT = Work(title="Quartz: Crystal Caustics in the Wild", year=2026, arxiv="2609.01234",
                    authors=("Jane Doe", "Ada Quill"))  # fmt: skip
NEW_PUBLISHED = Work(title="Quartz: Crystal Caustics in the Wild", year=2026, venue="NeurIPS",
                     doi="10.5555/nips.2026.33", dblp_key="conf/nips/DoeQ26",
                     authors=("Jane Doe", "Ada Quill"))  # fmt: skip


def homepage(*extra: str) -> str:
    rows = [*extra,
            "* **Tessellate: Learning Mesh Topology from Sketches**. Jane Doe, Omar Haddad. *CVPR 2024*.",
            "* **Sable: Shadow-Aware Inverse Lighting**. Jane Doe, Lin Wu. *ECCV 2022*.",
            "* **Prism: Dispersion-Aware Rendering of Glass**. Jane Doe. *Under review*."]  # fmt: skip
    return "# Jane Doe\n\nI am a professor at Northbridge University.\n\n## Publications\n\n" + "\n".join(rows) + "\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def world(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, static_site: tuple[StaticSite, str]
) -> Iterator[tuple[FakeIndexes, StaticSite]]:
    """Jane Doe's homepage, DBLP record and arXiv query, in a config file the CLI reads."""
    site, base = static_site
    site.set("/jane", Page(homepage(), content_type="text/markdown"))
    indexes = FakeIndexes()
    indexes.works["12/3456"] = list(OLD)
    indexes.works["Jane Doe"] = [PREPRINT_ONLY]
    with serve_indexes(indexes) as bases:
        for name, value in indexes_env(bases).items():
            monkeypatch.setenv(name, value)
        config = tmp_path / "watcher.yaml"
        config.write_text(
            "fetch: {host_delay: 0, retries: 0}\n"
            f"watch:\n  - {{name: jane-home, url: '{base}/jane'}}\n"
            "people:\n  - {name: Jane Doe, sources: [jane-home, 'dblp:12/3456', 'arxiv:\"Jane Doe\"']}\n"
        )
        monkeypatch.setenv("WATCHER_DATABASE_URL", f"sqlite:///{tmp_path / 'w.db'}")
        monkeypatch.setenv("WATCHER_CONFIG", str(config))
        yield indexes, site


def test_a_new_paper_seen_on_three_sources_is_one_added_and_one_modified(
    world: tuple[FakeIndexes, StaticSite], capsys: pytest.CaptureFixture[str]
) -> None:
    indexes, site = world
    code, out, _ = run(capsys, "sync")
    assert code == 0 and "people: 1 added" in out
    code, out, _ = run(capsys, "check")
    assert code == 0 and "3 baseline" in out and "0 changes" in out

    # 1. The preprint appears on arXiv: the person's first sight of it.
    indexes.works["Jane Doe"] = [NEW_PREPRINT, PREPRINT_ONLY]
    code, out, _ = run(capsys, "check")
    assert "Jane Doe posted a new paper: *Quartz: Crystal Caustics in the Wild*" in out
    # 2. Then on the homepage, still a preprint: known already, nothing to report.
    quartz = "* **Quartz: Crystal Caustics in the Wild**. Jane Doe, Ada Quill. *arXiv 2026*."
    site.set("/jane", Page(homepage(quartz), content_type="text/markdown"))
    code, out, _ = run(capsys, "check")
    assert "0 changes" in out
    # 3. Then in DBLP, published with a DOI: one modified change, the preprint got a venue.
    indexes.works["12/3456"] = [NEW_PUBLISHED, *OLD]
    code, out, _ = run(capsys, "check")
    assert "1 changes" in out

    code, out, _ = run(capsys, "diff", "--since", "30d", "--person", "Jane Doe", "--format", "json")
    changes = json.loads(out)
    assert [(c["kind"], c["change"], c["source"]) for c in changes] == [
        ("paper", "added", 'arxiv:"Jane Doe"'),
        ("paper", "modified", "dblp:12/3456"),
    ]
    added, modified = changes
    assert added["person"] == modified["person"] == "Jane Doe"
    assert added["item"]["venue"] == "arXiv" and added["ids"]["arxiv"] == "2609.01234"
    assert modified["before"]["venue"] in ("arXiv", "arXiv 2026") and modified["item"]["venue"] == "NeurIPS"
    assert modified["item"]["doi"] == "10.5555/nips.2026.33" and modified["item"]["arxiv"] == "2609.01234"
    assert modified["ids"]["dblp"] == "conf/nips/DoeQ26" and modified["ids"]["arxiv"] == "2609.01234"
    # Every contract field is still there.
    for change in changes:
        assert {"source", "url", "kind", "change", "item", "detected_at"} <= set(change)

    code, out, _ = run(capsys, "show", "--person", "Jane Doe", "--format", "json")
    view = json.loads(out)
    (quartz_item,) = [i for i in view["items"] if i["kind"] == "paper" and i["title"].startswith("Quartz")]
    assert quartz_item["venue"] == "NeurIPS" and quartz_item["doi"] == "10.5555/nips.2026.33"
    assert sorted(quartz_item["sources"]) == sorted(["jane-home", "dblp:12/3456", 'arxiv:"Jane Doe"'])
    assert {"doi", "arxiv", "dblp"} <= set(quartz_item["ids"])
    # The homepage's paper under review is in no index; the arXiv-only preprint not on the homepage.
    assert view["only_on_pages"] == ["Prism: Dispersion-Aware Rendering of Glass"]
    assert view["only_in_indexes"] == ["Lantern: Light Transport Priors"]
    assert len([i for i in view["items"] if i["kind"] == "paper"]) == 5

    code, out, _ = run(capsys, "show", "--person", "Jane Doe")
    assert "Only on their pages, in no index yet (1)" in out and "[jane-home, dblp:12/3456" in out


def test_a_paper_removed_from_one_source_but_listed_on_another_is_not_reported(
    world: tuple[FakeIndexes, StaticSite], capsys: pytest.CaptureFixture[str]
) -> None:
    indexes, site = world
    run(capsys, "sync")
    run(capsys, "check")
    # The homepage drops Sable; DBLP still lists it: nothing to tell. Then DBLP drops it too.
    sable = "* **Sable: Shadow-Aware Inverse Lighting**. Jane Doe, Lin Wu. *ECCV 2022*.\n"
    site.set("/jane", Page(homepage().replace(sable, ""), content_type="text/markdown"))
    _code, out, _ = run(capsys, "check")
    assert "0 changes" in out
    indexes.works["12/3456"] = [OLD[1]]
    _code, out, _ = run(capsys, "check")
    assert "Jane Doe no longer lists paper: *Sable: Shadow-Aware Inverse Lighting*" in out


def test_the_arxiv_and_dblp_gaps_hold_across_many_people(database: Database) -> None:
    indexes = FakeIndexes()
    people = [f"Person {letter}" for letter in "ABC"]
    with database.session() as session:
        for number, name in enumerate(people):
            indexes.works[name] = [Work(title=f"Paper of {name}", year=2026, arxiv=f"2601.0000{number}")]
            indexes.works[f"10/{number}"] = [Work(title=f"Paper of {name}", year=2026, venue="ICML")]
            indexes.works[f"11/{number}"] = [Work(title=f"Second paper of {name}", year=2025, venue="ICLR")]
            add_person(session, name, [f'arxiv:"{name}"', f"dblp:10/{number}", f"dblp:11/{number}"], now=utcnow())
        ids = list(session.scalars(select(Source.id)))
    with serve_indexes(indexes) as bases:
        outcomes = check(database, bases, ids, etiquette=True)
    assert [o.status for o in outcomes] == ["baseline"] * 9
    arxiv, dblp = indexes.times("arxiv"), indexes.times("dblp")
    assert len(arxiv) == 3 and len(dblp) == 6
    assert min(b - a for a, b in itertools.pairwise(arxiv)) >= 2.95
    assert min(b - a for a, b in itertools.pairwise(dblp)) >= 0.95


def test_a_429_pauses_the_whole_api_host(database: Database) -> None:
    indexes = FakeIndexes()
    with database.session() as session:
        for number in range(3):
            indexes.works[f"10/{number}"] = [Work(title=f"Paper {number}", year=2026, venue="ICML")]
            add_source(session, f"dblp:10/{number}", now=utcnow())
        ids = list(session.scalars(select(Source.id)))
    indexes.refuse("dblp", web.Response(status=429, text="too many", headers={"Retry-After": "1"}))
    with serve_indexes(indexes) as bases:
        outcomes = check(database, bases, ids, retries=1)  # no gap: only the pause spaces them
    assert [o.status for o in outcomes] == ["baseline"] * 3
    refused, *later = indexes.times("dblp")
    # Two requests to a host may be under way at once: the one sent beside the refused one was
    # on its way already; every request started after the answer waited out the Retry-After.
    in_flight = [when for when in later if when - refused < 0.95]
    assert len(later) == 3 and len(in_flight) <= 1 and all(when - refused < 0.2 for when in in_flight)


def test_people_are_stored_and_synced(database: Database) -> None:
    now = utcnow()
    config = parse_config({
        "watch": [{"name": "jane-home", "url": "https://jane.example.org/"}],
        "people": [{"name": "Jane Doe", "sources": ["jane-home", "dblp:12/3456", "orcid:0000-0002-1825-0097"]},
                   {"name": "Kestrel Lab", "kind": "lab", "sources": ["https://kestrel.example.org/people"]}],
    })  # fmt: skip
    with database.session() as session:
        report = sync_sources(session, config, now)
        assert report.people == (("Jane Doe", "Kestrel Lab"), (), ())
    with database.session() as session:
        jane = session.scalars(select(Person).where(Person.name == "Jane Doe")).one()
        assert sorted(s.url for s in jane.sources) == ["dblp:12/3456", "https://jane.example.org/",
                                                       "orcid:0000-0002-1825-0097"]  # fmt: skip
        assert all(s.active and s.person_name == "Jane Doe" for s in jane.sources)
        lab = session.scalars(select(Person).where(Person.name == "Kestrel Lab")).one()
        assert lab.kind == "lab"
    # The ORCID record leaves the list, and the lab leaves the file: its source stays, unowned.
    config = parse_config({
        "watch": [{"name": "jane-home", "url": "https://jane.example.org/"}],
        "people": [{"name": "Jane Doe", "sources": ["jane-home", "dblp:12/3456"]}],
    })  # fmt: skip
    with database.session() as session:
        report = sync_sources(session, config, now)
        assert report.people == ((), ("Jane Doe",), ("Kestrel Lab",))
        assert "orcid:0000-0002-1825-0097" in report.removed and "kestrel.example.org/people" in report.removed
    with database.session() as session:
        assert session.scalars(select(Person.name)).all() == ["Jane Doe"]
        assert len(session.scalars(select(PersonSource)).all()) == 2


def test_a_source_has_one_person(database: Database) -> None:
    with database.session() as session:
        add_person(session, "Jane Doe", ["dblp:12/3456"], now=utcnow())
        with pytest.raises(ConfigError, match="belongs to Jane Doe already"):
            add_person(session, "John Roe", ["dblp:12/3456"], now=utcnow())


def test_a_label_still_names_its_person(database: Database) -> None:
    with database.session() as session:
        add_source(session, "https://lab.example.org/", now=utcnow(), name="lab", label="Kestrel Lab")
    with database.session() as session:
        view = person_view(session, "Kestrel Lab")
        assert view["kind"] == "label" and [s["name"] for s in view["sources"]] == ["lab"]
        with pytest.raises(ConfigError, match="no person or label"):
            person_view(session, "Nobody")


def test_downgrade_keeps_sources_items_and_changes(database: Database) -> None:
    with database.session() as session:
        source = add_source(session, "https://jane.example.org/", now=utcnow(), name="jane")
        session.add(Change(source_id=source.id, kind="paper", change="added", after={"title": "T"},
                           detected_at=utcnow(), ids={"doi": "10.5555/x"}))  # fmt: skip
        add_person(session, "Jane Doe", ["jane"], now=utcnow())
    database.downgrade("0003")
    assert not {"person", "person_source", "work", "work_item"} & set(database.table_names())
    with database.session() as session:
        assert session.scalars(select(Source.name)).all() == ["jane"]
    database.upgrade()
    with database.session() as session:
        assert [c.after for c in session.scalars(select(Change))] == [{"title": "T"}]


def test_sync_people_reports_unknown_names_clearly(database: Database) -> None:
    config = parse_config({"people": [{"name": "Jane Doe", "sources": ["no-such-watch"]}]})
    with database.session() as session, pytest.raises(ConfigError, match="'no-such-watch' is neither a watch name"):
        sync_people(session, config, utcnow())


def test_person_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WATCHER_DATABASE_URL", f"sqlite:///{tmp_path / 'w.db'}")
    monkeypatch.delenv("WATCHER_CONFIG", raising=False)
    code, out, _ = run(capsys, "person", "add", "Jane Doe", "dblp:12/3456", "https://jane.example.org/")
    assert code == 0 and "Jane Doe (person): 2 sources" in out
    code, out, _ = run(capsys, "person", "add", "Kestrel Lab", "--lab", "orcid:0000-0002-1825-0097")
    assert code == 0
    code, out, _ = run(capsys, "person", "list", "--format", "json")
    assert [(p["name"], p["kind"], len(p["sources"])) for p in json.loads(out)] == [
        ("Jane Doe", "person", 2), ("Kestrel Lab", "lab", 1)]  # fmt: skip
    code, out, _ = run(capsys, "person", "show", "Jane Doe")
    assert code == 0 and "Jane Doe (person): dblp:12/3456, jane.example.org" in out
    code, _, err = run(capsys, "person", "add", "John Roe", "dblp:nonsense pid")
    assert code == 1 and "bad DBLP source" in err
    code, _, err = run(capsys, "show", "--person", "Nobody")
    assert code == 1 and "no person or label 'Nobody'" in err
    code, _, err = run(capsys, "diff", "--person", "Nobody")
    assert code == 1 and "no person or label" in err


def test_works_are_stored_on_both_databases(database: Database) -> None:
    indexes = FakeIndexes()
    indexes.works["12/3456"] = [*OLD, NEW_PUBLISHED]
    indexes.works["Jane Doe"] = [NEW_PREPRINT]
    with database.session() as session:
        add_person(session, "Jane Doe", ["dblp:12/3456", 'arxiv:"Jane Doe"'], now=utcnow())
        ids = list(session.scalars(select(Source.id)))
    with serve_indexes(indexes) as bases:
        check(database, bases, ids)
    with database.session() as session:
        works = session.scalars(select(WorkRow)).all()
        assert len(works) == 3 and len(session.scalars(select(WorkItem)).all()) == 4
        (quartz,) = [w for w in works if w.fields["title"].startswith("Quartz")]
        assert quartz.fields["venue"] == "NeurIPS" and quartz.ids["arxiv"] == "2609.01234"


def test_feeds_of_a_person_hold_their_sources_changes(database: Database) -> None:
    from watcher.notify.feed import FeedScope, recent_changes

    with database.session() as session:
        home = add_source(session, "https://jane.example.org/", now=utcnow(), name="jane")
        other = add_source(session, "https://lab.example.org/", now=utcnow(), name="lab", label="Kestrel Lab")
        add_person(session, "Jane Doe", ["jane"], now=utcnow())
        for source in (home, other):
            session.add(Change(source_id=source.id, kind="news", change="added", after={"text": source.name},
                               detected_at=utcnow()))  # fmt: skip
    with database.session() as session:
        assert [s.name for _, s in recent_changes(session, person="Jane Doe")] == ["jane"]
        assert [s.name for _, s in recent_changes(session, person="Kestrel Lab")] == ["lab"]
        assert FeedScope(person="Jane Doe").exists(session) and FeedScope(person="Kestrel Lab").exists(session)
        assert not FeedScope(person="Nobody").exists(session)
