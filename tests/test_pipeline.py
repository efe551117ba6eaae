"""One source through the whole pipeline, over real HTTP on loopback, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from servers import Page, StaticSite
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from watcher.fetch import FetchSettings
from watcher.pipeline import CheckOutcome, check_source, check_sources, open_services
from watcher.sources import add_source
from watcher.store.db import Database
from watcher.store.models import Change, Item, Snapshot, Source

PAPERS = [
    ("Lattice Fields: Sparse Radiance Grids for Real-Time View Synthesis", "Ada Quill, Tomas Reyes", "arXiv 2026"),
    ("Glint: Specular Highlights from Casual Phone Captures", "Mina Oduya, Ada Quill", "SIGGRAPH Asia 2025"),
    ("Tide: Temporal Depth from Event Cameras", "Ada Quill, Jonas Feld", "CVPR 2025"),
    ("Murmur: Acoustic Fields for Room Geometry", "Ada Quill", "ICCV 2023"),
    ("Sable: Shadow-Aware Inverse Lighting", "Ada Quill, Lin Wu", "ECCV 2022"),
]


def page(papers: list[tuple[str, str, str]], *, footer: str = "Last updated: October 2, 2026") -> str:
    rows = "\n".join(f"* **{t}**. {a}. *{v}*." for t, a, v in papers)
    return f"# Ada Quill\n\nI am a research scientist at Lumen Labs.\n\n## Publications\n\n{rows}\n\n{footer}\n"


class Clock:
    """An injected clock that tests move by hand."""

    def __init__(self) -> None:
        self.value = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.value

    def tick(self, **delta: float) -> None:
        self.value += timedelta(**delta)


def run_check(
    database: Database,
    source_id: int,
    clock: Callable[[], datetime],
    *,
    config: Any = None,
    notifiers: Sequence[Any] = (),
) -> CheckOutcome:
    async def go() -> CheckOutcome:
        settings = FetchSettings(host_delay=0.0, retries=0, deadline=5.0)
        async with open_services(database, config, settings=settings, now=clock, notifiers=notifiers) as services:
            return await check_source(services, source_id)

    return asyncio.run(go())


def add_ada(database: Database, base: str, clock: Clock) -> int:
    """The source watching the test site's home page."""
    with database.session() as session:
        return add_source(session, f"{base}/", now=clock(), name="ada").id


@pytest.fixture
def watched(database: Database, static_site: tuple[StaticSite, str]) -> tuple[Database, StaticSite, int, Clock]:
    site, base = static_site
    site.set("/", Page(page(PAPERS), content_type="text/markdown"))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    return database, site, source_id, clock


def current_papers(session: Session) -> int:
    query = select(func.count()).select_from(Item).where(Item.removed_at.is_(None), Item.kind == "paper")
    return session.scalar(query) or 0


def changes_of(database: Database) -> list[tuple[str, str, str]]:
    with database.session() as session:
        rows = session.scalars(select(Change).order_by(Change.id)).all()
        return [(c.kind, c.change, (c.after or c.before or {}).get("title", "")) for c in rows]


def run_checks(database: Database, source_ids: list[int], clock: Callable[[], datetime]) -> list[CheckOutcome]:
    async def go() -> list[CheckOutcome]:
        settings = FetchSettings(host_delay=0.0, retries=0, deadline=5.0)
        async with open_services(database, None, settings=settings, now=clock, notifiers=()) as services:
            return await check_sources(services, source_ids)

    return asyncio.run(go())


def test_first_check_is_a_silent_baseline(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, _site, source_id, clock = watched
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "baseline"
    assert changes_of(database) == []
    with database.session() as session:
        titles = session.scalars(select(Item.fields).where(Item.kind == "paper")).all()
        assert sorted(t["title"] for t in titles) == sorted(p[0] for p in PAPERS)


def test_first_readings_written_together_match_a_single_check(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    # check_sources writes first readings in batches; check_source writes each on its own.
    database, site, source_id, clock = watched
    site.set("/twin", Page(page(PAPERS), content_type="text/markdown"))
    with database.session() as session:
        base = session.get(Source, source_id).url
        twin_id = add_source(session, f"{base}twin", now=clock(), name="twin").id
    run_check(database, source_id, clock)
    assert [o.status for o in run_checks(database, [twin_id], clock)] == ["baseline"]
    assert stored(database, twin_id) == stored(database, source_id)
    assert [row[0] for row in stored(database, twin_id)[-1]] == ["role"] + ["paper"] * len(PAPERS)
    clock.tick(hours=1)
    assert [o.status for o in run_checks(database, [source_id, twin_id], clock)] == ["unchanged", "unchanged"]


@pytest.mark.parametrize("conditional", [True, False], ids=["304", "no-304"])
def test_rereadings_that_report_nothing_written_together_match_a_single_check(
    watched: tuple[Database, StaticSite, int, Clock], conditional: bool
) -> None:
    # check_sources also batches the same body again (a 304, or a server that never answers
    # one) and a new body that reads as before (a new date); check_source writes each alone.
    database, site, source_id, clock = watched
    site.conditional = conditional
    site.set("/twin", Page(page(PAPERS), content_type="text/markdown"))
    with database.session() as session:
        base = session.get(Source, source_id).url
        twin_id = add_source(session, f"{base}twin", now=clock(), name="twin").id
    run_check(database, source_id, clock)
    run_checks(database, [twin_id], clock)
    for footer in (None, "Last updated: November 20, 2026"):
        if footer is not None:
            for path in ("/", "/twin"):
                site.set(path, Page(page(PAPERS, footer=footer), content_type="text/markdown"))
        clock.tick(hours=1)
        assert run_check(database, source_id, clock).status == "unchanged"
        assert [o.status for o in run_checks(database, [twin_id], clock)] == ["unchanged"]
        assert stored(database, twin_id) == stored(database, source_id)
    with database.session() as session:
        outcomes = session.scalars(select(Snapshot.outcome).where(Snapshot.source_id == twin_id)).all()
    assert outcomes == ["baseline", "unchanged", "unchanged"]
    assert changes_of(database) == []


def stored(database: Database, sid: int) -> tuple[object, ...]:
    """What a check left of a source: its state (validators aside), newest snapshot and items."""
    with database.session() as session:
        source = session.get(Source, sid)
        state = {k: v for k, v in source.fetch_state.items() if k not in ("etag", "last_modified")}
        snapshot = session.scalars(
            select(Snapshot).where(Snapshot.source_id == sid).order_by(Snapshot.id.desc()).limit(1)
        ).one()
        items = session.execute(
            select(Item.kind, Item.key, Item.fields, Item.position, Item.first_seen, Item.last_seen, Item.removed_at)
            .where(Item.source_id == sid)
            .order_by(Item.position)
        ).all()
        return (
            state, source.last_status, source.last_checked_at, source.failures, source.last_error,
            (snapshot.outcome, snapshot.status, snapshot.content_hash, snapshot.extractor, snapshot.item_count),
            [tuple(row) for row in items],
        )  # fmt: skip


def test_unchanged_page_costs_a_conditional_get(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    clock.tick(hours=6)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "unchanged"
    headers = site.request_headers("/")
    assert "If-None-Match" in headers[-1] or "If-Modified-Since" in headers[-1]
    with database.session() as session:
        outcomes = session.scalars(select(Snapshot.outcome).order_by(Snapshot.id)).all()
        assert outcomes == ["baseline", "unchanged"]
        # The body is stored once, with the baseline.
        assert session.scalars(select(Snapshot.content_hash).where(Snapshot.outcome == "unchanged")).all() == [None]


def test_new_paper_and_venue_change_are_reported(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    edited = [("Prism: Dispersion-Aware Inverse Rendering", "Ada Quill", "arXiv 2026")]
    edited += [(PAPERS[0][0], PAPERS[0][1], "NeurIPS 2026"), *PAPERS[1:]]
    site.set("/", Page(page(edited, footer="Last updated: November 19, 2026"), content_type="text/markdown"))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "changed"
    assert sorted(changes_of(database)) == [
        ("paper", "added", "Prism: Dispersion-Aware Inverse Rendering"),
        ("paper", "modified", PAPERS[0][0]),
    ]
    with database.session() as session:
        modified = session.scalars(select(Change).where(Change.change == "modified")).one()
        assert modified.before["venue"] != modified.after["venue"]
        assert modified.after["year"] == 2026


def test_noise_only_edits_report_nothing(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    reordered = list(reversed(PAPERS))
    noisy = page(reordered, footer="Last updated: December 24, 2026 · 18,321 visitors").replace("\n\n", "\n\n\n")
    site.set("/", Page(noisy, content_type="text/markdown"))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "unchanged"
    assert changes_of(database) == []


def test_a_body_that_reads_as_the_stored_items_skips_the_diff(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    baseline_time = clock()
    site.set("/", Page(page(PAPERS, footer="Last updated: December 24, 2026"), content_type="text/markdown"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "unchanged"
    with database.session() as session:
        source = session.get(Source, source_id)
        latest = session.scalars(select(Snapshot).order_by(Snapshot.id.desc()).limit(1)).one()
        # The new body is kept and remembered, so the next identical body is a plain "unchanged";
        # the items were not rewritten.
        assert latest.content_hash == source.fetch_state["hash"] and latest.outcome == "unchanged"
        assert {item.last_seen for item in session.scalars(select(Item))} == {baseline_time}
    # A broken page, then the old reading again: healthy and silent, nothing removed or added.
    site.set("/", Page("<html><body><h1>Site under maintenance</h1></body></html>"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "suspect"
    site.set("/", Page(page(PAPERS, footer="Last updated: January 3, 2027"), content_type="text/markdown"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "unchanged"
    assert changes_of(database) == []
    with database.session() as session:
        source = session.get(Source, source_id)
        assert (source.last_status, source.last_error) == ("unchanged", None)
        assert current_papers(session) == len(PAPERS)


def test_collapsed_page_is_suspect_and_removes_nothing(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    site.set("/", Page("<html><body><h1>Site under maintenance</h1></body></html>"))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "suspect"
    assert changes_of(database) == []
    with database.session() as session:
        assert current_papers(session) == len(PAPERS)
        assert session.get(Source, source_id).last_status == "suspect"
    # The same broken page again: still suspect, still nothing reported.
    clock.tick(hours=12)
    run_check(database, source_id, clock)
    with database.session() as session:
        source = session.get(Source, source_id)
        assert (source.last_status, source.last_error is not None) == ("suspect", True)
    # When the page comes back with one real addition, exactly that is reported.
    back = page([("Quartz: Crystal Caustics", "Ada Quill", "CVPR 2027"), *PAPERS])
    site.set("/", Page(back, content_type="text/markdown"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "changed"
    assert changes_of(database) == [("paper", "added", "Quartz: Crystal Caustics")]


def test_a_page_that_keeps_its_collapsed_shape_is_diffed_with_its_last_suspect_reading(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    # The site is split: the home page keeps one paper, the rest move to a page of their own.
    site.set("/", Page(page(PAPERS[:1]), content_type="text/markdown"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "suspect"
    # Next time the home page has kept that shape, and its one paper was published.
    published = (PAPERS[0][0], PAPERS[0][1], "CVPR 2026")
    site.set("/", Page(page([published]), content_type="text/markdown"))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert (outcome.status, outcome.changes) == ("changed", 1)
    assert changes_of(database) == [("paper", "modified", PAPERS[0][0])]
    with database.session() as session:
        assert current_papers(session) == 1  # the papers it let go are no longer watched, and none was told
        assert session.get(Source, source_id).last_status != "suspect"


def lab_home(news: list[tuple[str, str]], people: list[tuple[str, str]]) -> str:
    posts = "".join(f"<li><b>{day}</b> – {text}</li>" for day, text in news)
    members = "".join(f"<li><b>{name}</b>, {role}</li>" for name, role in people)
    people_part = f"<h2>People</h2><ul>{members}</ul>" if people else ""
    return f"<html><body><h1>Tide Lab</h1><h2>News</h2><ul>{posts}</ul>{people_part}</body></html>"


def test_a_home_page_whose_people_move_away_tells_its_news_and_lets_its_people_go_quietly(
    database: Database, static_site: tuple[StaticSite, str]
) -> None:
    site, base = static_site
    news = [(f"2026-0{n}-02", f"Lab retreat number {n} at the coast station") for n in range(5, 0, -1)]
    people = [(f"Ana Lima {n}", "PhD student") for n in ("Abreu", "Borges", "Costa", "Dias", "Esteves", "Faria")]
    site.set("/", Page(lab_home(news, people)))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    run_check(database, source_id, clock)
    # The people move to a page of their own as a new post goes up.
    posted = [("2026-07-01", "Our paper on tidal mixing is out in Estuaries"), *news]
    site.set("/", Page(lab_home(posted, [])))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "changed"

    def told() -> list[tuple[str, str]]:
        with database.session() as session:
            return [(c.kind, c.change) for c in session.scalars(select(Change).order_by(Change.id))]

    def members() -> int:
        query = select(func.count()).select_from(Item).where(Item.removed_at.is_(None), Item.kind == "member")
        with database.session() as session:
            return session.scalar(query) or 0

    assert told() == [("news", "added")] and members() == len(people)  # held, not removed
    # Read so again, the page has let them go: no longer watched here, and no removal told.
    clock.tick(hours=12)
    run_check(database, source_id, clock)
    assert told() == [("news", "added")] and members() == 0


def test_an_error_page_seen_twice_stays_suspect(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    for notice in ("Site under maintenance", "This account has been suspended by the host"):
        site.set("/", Page(f"<html><body><h1>{notice}</h1><p>Please come back later.</p></body></html>"))
        clock.tick(hours=12)
        assert run_check(database, source_id, clock).status == "suspect"
    assert changes_of(database) == []
    with database.session() as session:
        assert current_papers(session) == len(PAPERS)


def test_real_removal_is_reported(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    site.set("/", Page(page(PAPERS[:-1]), content_type="text/markdown"))
    clock.tick(hours=12)
    run_check(database, source_id, clock)
    assert changes_of(database) == [("paper", "removed", PAPERS[-1][0])]
    with database.session() as session:
        removed = session.scalars(select(Item).where(Item.removed_at.is_not(None))).one()
        assert removed.fields["title"] == PAPERS[-1][0]


def test_a_paper_the_page_still_shows_is_not_removed_until_its_title_leaves_the_page(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    # The entry leaves the list, but its title still stands on the page, in prose the reader
    # does not take for a list entry: the reading lost the paper, the page did not.
    title = PAPERS[-1][0]
    prose = f"We are revising {title} after a careful review of its lighting model and will post it again."
    site.set("/", Page(page(PAPERS[:-1], footer=prose), content_type="text/markdown"))
    clock.tick(hours=12)
    run_check(database, source_id, clock)
    assert changes_of(database) == []
    with database.session() as session:
        assert current_papers(session) == len(PAPERS)
    site.set("/", Page(page(PAPERS[:-1]), content_type="text/markdown"))
    clock.tick(hours=12)
    run_check(database, source_id, clock)
    assert changes_of(database) == [("paper", "removed", title)]


def test_server_error_is_recorded_and_keeps_items(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    site.set("/", Page("oops", status=500))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "error"
    assert outcome.retryable
    assert "500" in (outcome.error or "")
    with database.session() as session:
        source = session.get(Source, source_id)
        assert source.failures == 1
        assert source.last_status == "error"
        assert current_papers(session) == len(PAPERS)
    assert changes_of(database) == []
    # Recovery resets the failure count and reports nothing (the page did not change).
    site.set("/", Page(page(PAPERS), content_type="text/markdown"))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "unchanged"
    with database.session() as session:
        assert session.get(Source, source_id).failures == 0


def test_robots_txt_is_reused_by_later_checks_for_a_day(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    site.set("/robots.txt", Page("User-agent: *\nDisallow: /private/\n", content_type="text/plain"))
    with database.session() as session:
        base = session.get_one(Source, source_id).url.rstrip("/")
        private_id = add_source(session, f"{base}/private/page", now=clock(), name="hidden").id
    first = run_checks(database, [source_id, private_id], clock)
    assert [o.status for o in first] == ["baseline", "error"]
    assert site.count("/robots.txt") == 1
    clock.tick(hours=23)
    second = run_checks(database, [source_id, private_id], clock)
    # The kept rules still apply: the page is checked, the disallowed path is not fetched.
    assert [o.status for o in second] == ["unchanged", "error"]
    assert "robots.txt" in (second[1].error or "")
    assert site.count("/robots.txt") == 1
    assert site.count("/private/page") == 0
    clock.tick(hours=2)
    run_checks(database, [source_id], clock)
    assert site.count("/robots.txt") == 2


def test_unavailable_robots_txt_is_asked_again(watched: tuple[Database, StaticSite, int, Clock]) -> None:
    database, site, source_id, clock = watched
    site.set("/robots.txt", Page("down", status=503, content_type="text/plain"))
    run_checks(database, [source_id], clock)
    run_checks(database, [source_id], clock)
    assert site.count("/robots.txt") == 2


def test_extraction_in_a_worker_process_records_the_same_items(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched

    async def go() -> list[CheckOutcome]:
        settings = FetchSettings(host_delay=0.0, retries=0, deadline=5.0)
        async with open_services(database, None, settings=settings, now=clock, notifiers=(), extract_workers=1) as s:
            return await check_sources(s, [source_id])

    assert [o.status for o in asyncio.run(go())] == ["baseline"]
    with database.session() as session:
        assert current_papers(session) == len(PAPERS)
    site.set("/", Page(page([("Quill: A New Paper on Ink", "Ada Quill", "NeurIPS 2026"), *PAPERS]),
                       content_type="text/markdown"))
    clock.tick(hours=1)
    assert [(o.status, o.changes) for o in asyncio.run(go())] == [("changed", 1)]
    assert changes_of(database) == [("paper", "added", "Quill: A New Paper on Ink")]


def test_an_upgraded_extractor_rereads_an_unchanged_page_silently(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    with database.session() as session:
        source = session.get(Source, source_id)
        # As if the page had last been read by an older version of its extractor.
        source.fetch_state = {**source.fetch_state, "extractor_version": -1}
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock)
    assert "If-None-Match" not in site.request_headers("/")[-1]  # a 304 would leave nothing to read
    assert outcome.status == "baseline"
    assert changes_of(database) == []
    with database.session() as session:
        assert session.get(Source, source_id).fetch_state["extractor_version"] != -1
        assert current_papers(session) == len(PAPERS)
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).status == "unchanged"


def barron_rows(papers: list[tuple[str, str, str]]) -> str:
    """Papers as Jon Barron's template sets them (its extractor claims the page)."""
    rows = "".join(
        f'<tr><td><a href="p{n}.pdf"><span class="papertitle">{t}</span></a><br>{a}<br><em>{v}</em></td></tr>'
        for n, (t, a, v) in enumerate(papers)
    )
    return f"<html><body><h1>Ada Quill</h1><table><tr><td><h2>Research</h2></td></tr>{rows}</table></body></html>"


def plain_list(papers: list[tuple[str, str, str]]) -> str:
    rows = "".join(f'<li><a href="p{n}.pdf">{t}</a>. {a}. <i>{v}</i>.</li>' for n, (t, a, v) in enumerate(papers))
    return f"<html><body><h1>Ada Quill</h1><h2>Publications</h2><ul>{rows}</ul></body></html>"


def test_a_redesign_another_extractor_claims_reports_the_page_s_changes_not_the_readers_differences(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    site.set("/", Page(barron_rows(PAPERS)))
    assert run_check(database, source_id, clock).status == "baseline"
    # The new layout is read by the generic reader, which also reads a venue the template's
    # reader missed ("ICCV 2023" under a lone author): that was on the page before, not news.
    fresh = ("Quill Ink: Pen Strokes as Radiance Fields", "Ada Quill", "NeurIPS 2026")
    site.set("/", Page(plain_list([*PAPERS, fresh])))
    clock.tick(hours=1)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "changed"
    assert changes_of(database) == [("paper", "added", fresh[0])]


def test_stored_items_follow_the_page_after_an_insert_an_edit_and_a_removal(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    database, site, source_id, clock = watched
    run_check(database, source_id, clock)
    new = ("Quartz: Crystal Caustics in the Wild", "Ada Quill", "CVPR 2027")
    edited = (PAPERS[0][0], PAPERS[0][1], "NeurIPS 2026")
    site.set("/", Page(page([new, edited, *PAPERS[1:4]]), content_type="text/markdown"))
    clock.tick(hours=6)
    assert run_check(database, source_id, clock).changes == 3
    with database.session() as session:
        rows = session.scalars(select(Item).where(Item.kind == "paper").order_by(Item.position)).all()
        current = [r for r in rows if r.removed_at is None]
        assert [r.fields["title"] for r in current] == [new[0], *(p[0] for p in PAPERS[:4])]
        assert current[1].fields["venue"] == "NeurIPS"
        assert all(r.last_seen == clock() for r in current)
        [gone] = [r for r in rows if r.removed_at is not None]
        assert gone.fields["title"] == PAPERS[4][0] and gone.removed_at == clock()


def test_a_doi_that_moves_to_a_new_entry_is_stored_under_it_in_the_same_check(
    watched: tuple[Database, StaticSite, int, Clock],
) -> None:
    # The first entry's DOI link was a copy of the next paper's: the page fixes it by moving the
    # DOI to the new entry. The old item gives up the key in the check that a new item takes it.
    database, site, source_id, clock = watched
    doi = "https://doi.org/10.5555/quartz.7"
    first = (PAPERS[0][0], PAPERS[0][1], f"{PAPERS[0][2]}. {doi}")
    site.set("/", Page(page([first, *PAPERS[1:]]), content_type="text/markdown"))
    run_check(database, source_id, clock)
    new = ("Quartz: Crystal Caustics in the Wild", "Ada Quill", f"CVPR 2027. {doi}")
    site.set("/", Page(page([new, *PAPERS]), content_type="text/markdown"))
    clock.tick(hours=6)
    outcome = run_check(database, source_id, clock)
    assert outcome.status == "changed"
    assert changes_of(database) == [("paper", "added", new[0])]
    with database.session() as session:
        keys = session.scalars(select(Item.key).where(Item.kind == "paper", Item.removed_at.is_(None))).all()
        assert "doi:10.5555/quartz.7" in keys and len(keys) == len(PAPERS) + 1


def test_sources_start_spread_over_their_hosts() -> None:
    # A lab's pages listed together would otherwise wait out their host's gap side by side,
    # holding the slots of the sources under way.
    from watcher.pipeline import _SourceView, _spread_by_host

    urls = ["https://lab.example/a", "https://lab.example/b", "https://lab.example/c", "https://ada.example/",
            "https://bo.example/x", "https://bo.example/y"]  # fmt: skip
    views = {
        i: _SourceView(id=i, name=f"s{i}", url=url, extractor="auto", obey_robots=True, fetch_state={})
        for i, url in enumerate(urls, start=10)
    }
    order = _spread_by_host(list(views), views)
    assert [urls[p] for p in order] == [urls[0], urls[3], urls[4], urls[1], urls[5], urls[2]]
    assert _spread_by_host([10, 10, 99], views) == [0, 2, 1]  # repeats and unknown ids keep their place


LAB_PAPERS = [
    ("Lattice Fields: Sparse Radiance Grids", "Ada Quill and Tomas Reyes", "CVPR", 2025),
    ("Glint: Specular Highlights from Phone Captures", "Mina Oduya and Ada Quill", "SIGGRAPH Asia", 2024),
    ("Tide: Temporal Depth from Event Cameras", "Ada Quill and Jonas Feld", "ICCV", 2023),
    ("Murmur: Acoustic Fields for Room Geometry", "Ada Quill", "ECCV", 2022),
    ("Sable: Shadow-Aware Inverse Lighting", "Ada Quill and Lin Wu", "NeurIPS", 2021),
    ("Cinder: Thermal Views of Night Scenes", "Kofi Brandt and Ada Quill", "WACV", 2020),
]


def bold_style(papers: list[tuple[str, str, str, int]]) -> str:
    rows = "\n".join(f"<li><b>{t}</b>. {a}. <i>{v} {y}</i>.</li>" for t, a, v, y in papers)
    return f"<html><body><h1>Ada Quill</h1><h2>Publications</h2><ul>{rows}</ul></body></html>"


def ieee_style(papers: list[tuple[str, str, str, int]]) -> str:
    rows = "\n".join(
        f'<li>[{n}] {a}, "{t}," in <i>Proc. of the {v} Conference</i>, {y}.</li>'
        for n, (t, a, v, y) in enumerate(papers, 1)
    )
    return f"<html><body><h1>Ada Quill</h1><h2>Publications</h2><ul>{rows}</ul></body></html>"


def test_a_restyled_publication_list_is_recorded_silently_with_one_operator_alert(
    database: Database, static_site: tuple[StaticSite, str]
) -> None:
    from watcher.config import ChannelConfig
    from watcher.notify import build_notifiers
    from watcher.store.models import Delivery

    site, base = static_site
    site.set("/", Page(bold_style(LAB_PAPERS)))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    channel = ChannelConfig(type="webhook", options={"url": "http://127.0.0.1:9/hook", "secret_env": "WH_SECRET"})
    notifiers = build_notifiers([channel], {"WH_SECRET": "whsec_" + "MDEyMzQ1Njc4OWFiY2RlZg=="})

    def check() -> CheckOutcome:
        clock.tick(hours=12)
        return run_check(database, source_id, clock, notifiers=notifiers)

    def alerts() -> list[str]:
        with database.session() as session:
            return [d.payload["reason"] for d in session.scalars(select(Delivery)) if d.payload]

    assert check().status == "baseline"
    site.set("/", Page(ieee_style(LAB_PAPERS)))
    assert check().changes == 0
    assert changes_of(database) == []
    assert alerts() == ["reformatted: 6 of 6 papers changed format"]
    with database.session() as session:
        venues = {i.fields["venue"] for i in session.scalars(select(Item).where(Item.removed_at.is_(None)))}
        assert all("Conference" in v for v in venues) and current_papers(session) == 6
    # The next check diffs against the new rendering: one real new paper, exactly that.
    new_paper = ("Quartz: Crystal Caustics in the Wild", "Ada Quill and Lin Wu", "CVPR", 2026)
    site.set("/", Page(ieee_style([new_paper, *LAB_PAPERS])))
    outcome = check()
    assert (outcome.status, outcome.changes) == ("changed", 1)
    assert changes_of(database) == [("paper", "added", new_paper[0])]
    assert len(alerts()) == 1


PEOPLE_IN_PROSE = """<html><body><h1>Soil Microbes Lab</h1><h2>People</h2>
<p>The lab is led by Professor Ines Varga. Current members are Tomas Reyes (postdoc), Mina Oduya and Lin Wu
(PhD students), and Jonas Feld (MSc student), with help from many undergraduates.</p></body></html>"""


def people_cards(people: Sequence[tuple[str, str]]) -> str:
    cards = "".join(f'<div class="card"><img src="p.jpg"><h3>{n}</h3><p>{r}</p></div>' for n, r in people)
    return f'<html><body><h1>Soil Microbes Lab</h1><h2>People</h2><div class="grid">{cards}</div></body></html>'


def test_a_people_list_the_reader_learns_to_see_adds_only_the_people_new_on_the_page(
    database: Database, static_site: tuple[StaticSite, str]
) -> None:
    """A redesign turns names in prose into cards: the people were on the page before, so they are
    read anew, not added; only the one person the page did not name before is news."""
    from watcher.config import ChannelConfig
    from watcher.notify import build_notifiers
    from watcher.store.models import Delivery

    site, base = static_site
    site.set("/", Page(PEOPLE_IN_PROSE))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    channel = ChannelConfig(type="webhook", options={"url": "http://127.0.0.1:9/hook", "secret_env": "WH_SECRET"})
    notifiers = build_notifiers([channel], {"WH_SECRET": "whsec_" + "MDEyMzQ1Njc4OWFiY2RlZg=="})
    run_check(database, source_id, clock, notifiers=notifiers)
    people = [("Ines Varga", "Principal Investigator"), ("Tomas Reyes", "Postdoctoral Researcher"),
              ("Mina Oduya", "PhD Student"), ("Lin Wu", "PhD Student"), ("Jonas Feld", "MSc Student")]
    site.set("/", Page(people_cards([*people, ("Aiko Brandt", "PhD Student")])))
    clock.tick(hours=12)
    outcome = run_check(database, source_id, clock, notifiers=notifiers)
    assert outcome.changes == 1
    with database.session() as session:
        told = [(c.kind, c.change, (c.after or {}).get("name")) for c in session.scalars(select(Change))]
        assert told == [("member", "added", "Aiko Brandt")]
        members = session.scalars(select(Item).where(Item.kind == "member", Item.removed_at.is_(None))).all()
        assert len(members) == 6  # stored all the same: the next edit is diffed against them
        payloads = [d.payload or {} for d in session.scalars(select(Delivery))]
        alerts = [p["reason"] for p in payloads if p.get("reason")]
        assert alerts == ["read anew: 5 members already on the page last time"]
        source = session.get(Source, source_id)
        assert source is not None and source.last_status == "changed"
    # The next real change is told as usual.
    site.set("/", Page(people_cards([*people[:-1], ("Jonas Feld", "Alumni"), ("Aiko Brandt", "PhD Student")])))
    clock.tick(hours=12)
    assert run_check(database, source_id, clock).changes == 1


def check_with(database: Database, source_id: int, clock: Clock, config: object) -> CheckOutcome:
    clock.tick(hours=12)
    return run_check(database, source_id, clock, config=config)


def test_a_page_over_the_size_budget_is_read_in_part_and_says_so(
    database: Database, static_site: tuple[StaticSite, str]
) -> None:
    from watcher.config import parse_config

    site, base = static_site
    padding = "<div>" + "<span>x</span>" * 400 + "</div>"
    site.set("/", Page(bold_style(LAB_PAPERS).replace("</ul>", "</ul>" + padding)))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    outcome = check_with(database, source_id, clock, parse_config({"read": {"max_elements": 200}}))
    assert outcome.status == "baseline" and outcome.items == len(LAB_PAPERS)
    assert outcome.warning is not None and outcome.warning.startswith("read in part: the first ")
    with database.session() as session:
        assert session.get(Source, source_id).last_error == outcome.warning
        assert session.scalars(select(Snapshot.error).order_by(Snapshot.id.desc())).first() == outcome.warning
    # Read whole again (a bigger budget): the warning goes.
    site.set("/", Page(bold_style(LAB_PAPERS)))
    assert check_with(database, source_id, clock, None).warning is None
    with database.session() as session:
        assert session.get(Source, source_id).last_error is None


def test_a_page_that_reads_past_its_time_limit_fails_that_check_and_keeps_the_items(
    database: Database, static_site: tuple[StaticSite, str]
) -> None:
    from watcher.config import parse_config

    site, base = static_site
    site.set("/", Page(bold_style(LAB_PAPERS)))
    clock = Clock()
    source_id = add_ada(database, base, clock)
    assert check_with(database, source_id, clock, None).status == "baseline"
    talks = "<h2>Talks</h2>" + "<p>Talk at the dune meeting in Bremen</p>" * 20_000
    site.set("/", Page(bold_style(LAB_PAPERS).replace("</ul>", "</ul>" + talks)))
    outcome = check_with(database, source_id, clock, parse_config({"read": {"seconds": 0.05}}))
    assert outcome.status == "error" and "longer than" in (outcome.error or "")
    assert changes_of(database) == []
    with database.session() as session:
        assert current_papers(session) == len(LAB_PAPERS)
        assert session.get(Source, source_id).last_status == "error"
