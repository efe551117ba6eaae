"""Items moving between the pages of one site: one modified change, or nothing, never a removal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from servers import Page, StaticSite

from watcher.cli import main
from watcher.sites import site_of

PAGE = """<html><head><title>Ruth Amsel | {title}</title></head><body>
<h2>{title}</h2><ul>{items}</ul></body></html>"""


def _paper(title: str, venue: str) -> str:
    return f"<li><b>{title}</b>. Ruth Amsel, Paul Fenn. <i>{venue}</i>, 2025.</li>"


#: Published papers several tests list on the site's pages.
TIDES = _paper("Tidal Mixing in Narrow Estuaries", "Estuaries")
SALT = _paper("Salt Wedges under Drought", "Estuaries")
KELP = _paper("Kelp Forests in Warm Years", "Marine Ecology")


def _site(preprints: list[str], papers: list[str]) -> dict[str, Page | str]:
    return {
        "/preprints.html": PAGE.format(title="Working Papers", items="".join(preprints)),
        "/papers.html": PAGE.format(title="Publications", items="".join(papers)),
    }


def _watch_both_pages(capsys: pytest.CaptureFixture[str], base: str) -> None:
    """Add the site's two pages as sources and take their baseline."""
    for page in ("preprints.html", "papers.html"):
        _run(capsys, "add", f"{base}/{page}", "--no-probe")
    _run(capsys, "check")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WATCHER_DATABASE_URL", f"sqlite:///{tmp_path / 'w.db'}")
    config = tmp_path / "config.yaml"
    config.write_text("fetch: {host_delay: 0, retries: 0}\n", encoding="utf-8")
    monkeypatch.setenv("WATCHER_CONFIG", str(config))
    return tmp_path


def test_a_paper_that_moves_to_the_publications_page_with_its_journal_is_one_modified_change(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    tides = _paper("Tidal Mixing in Narrow Estuaries", "SSRN working paper")
    draft = _paper("Reef Acoustics at Night", "Working paper")
    salt = SALT
    site.replace(_site([tides, draft], [salt]))
    _watch_both_pages(capsys, base)
    published = _paper("Tidal Mixing in Narrow Estuaries", "Journal of Coastal Research")
    site.replace(_site([draft], [published, salt]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["kind"], c["url"].rsplit("/", 1)[-1]) for c in changes] == [
        ("modified", "paper", "papers.html")
    ]
    assert changes[0]["before"]["venue"] == "SSRN working paper"
    assert changes[0]["item"]["venue"] == "Journal of Coastal Research"


def test_a_paper_that_only_moves_between_pages_is_not_reported(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    tides, salt = TIDES, SALT
    draft = _paper("Kelp Forests in Warm Years", "Working paper")
    new = _paper("Reef Acoustics at Night", "Marine Ecology")
    site.replace(_site([tides, draft], [salt]))
    _watch_both_pages(capsys, base)
    site.replace(_site([draft, new], [tides, salt]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("added", "Reef Acoustics at Night")]


def test_a_paper_gone_from_one_page_but_still_on_another_is_not_removed(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    tides, salt, kelp = TIDES, SALT, KELP
    site.replace(_site([tides, salt], [tides, salt, kelp]))
    _watch_both_pages(capsys, base)
    # A "recent" page lets go of a paper the full list keeps, in the run in which the full list drops another.
    site.replace(_site([tides], [tides, salt]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("removed", "Kelp Forests in Warm Years")]
    # Gone from every page of the site, it is removed.
    site.replace(_site([tides], [tides]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("removed", "Salt Wedges under Drought")]


def test_a_new_paper_on_two_pages_is_told_once_and_one_long_on_the_site_not_at_all(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    tides, salt, kelp = TIDES, SALT, KELP
    # A "recent" page and the full list.
    site.replace(_site([tides], [tides, salt]))
    _watch_both_pages(capsys, base)
    site.replace(_site([kelp, tides], [kelp, tides, salt]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("added", "Kelp Forests in Warm Years")]
    # A paper the full list has shown all along, now on the recent page too: nothing new.
    site.replace(_site([kelp, tides, salt], [kelp, tides, salt]))
    _run(capsys, "check")
    assert json.loads(_run(capsys, "diff", "--since", "1m", "--format", "json")) == changes


HOME = """<html><head><title>Ruth Amsel</title></head><body><h1>Ruth Amsel</h1>
<p>I am {post} of Geology at Marrowby University. I study estuaries and the sediments they carry.</p>
<h2>Publications</h2><ul>{papers}</ul></body></html>"""
CV = """<html><head><title>Ruth Amsel | CV</title></head><body><h1>Curriculum Vitae</h1>
<h2>Appointments</h2><table>{rows}
<tr><td>2015&ndash;2021</td><td>Assistant Professor, Department of Geology, Marrowby University</td></tr>
<tr><td>2013&ndash;2015</td><td>Postdoctoral Fellow, Institute of Coastal Science</td></tr></table></body></html>"""


def test_a_promotion_the_cv_lists_is_its_new_post_and_the_old_one_ended_not_the_biography_s_edit(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    row = "<tr><td>{years}</td><td>{post}, Department of Geology, Marrowby University</td></tr>"
    site.replace({
        "/index.html": HOME.format(post="an Associate Professor", papers=TIDES + SALT),
        "/cv.html": CV.format(rows=row.format(years="2021&ndash;present", post="Associate Professor")),
    })
    for page in ("index.html", "cv.html"):
        _run(capsys, "add", f"{base}/{page}", "--no-probe")
    _run(capsys, "check")
    site.replace({
        "/index.html": HOME.format(post="a Professor", papers=TIDES + SALT),
        "/cv.html": CV.format(rows=row.format(years="2026&ndash;present", post="Professor")
                              + row.format(years="2021&ndash;2026", post="Associate Professor")),
    })
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    told = sorted((c["change"], c["item"]["title"], c["item"]["end"], c["url"].rsplit("/", 1)[-1]) for c in changes)
    assert told == [
        ("added", "Professor", None, "cv.html"),
        ("modified", "Associate Professor", "2026", "cv.html"),
    ]


def test_a_removal_is_told_though_a_page_that_lost_its_list_still_holds_the_item(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    draft = _paper("Reef Acoustics at Night", "Marine Ecology")
    site.replace(_site([TIDES, SALT, KELP, draft], [TIDES, SALT, KELP, draft]))
    _watch_both_pages(capsys, base)
    # The working papers page breaks (its list is gone: a suspect reading, its items kept) while
    # the publications page drops a paper: the paper has left the site.
    site.replace(_site([], [TIDES, SALT, KELP]))
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("removed", "Reef Acoustics at Night")]


DRAFT = _paper("Reef Acoustics at Night", "Marine Ecology")


def _watch_home_and_papers(capsys: pytest.CaptureFixture[str], base: str) -> None:
    """Watch a home page and a publications page the site does not have yet, and check once."""
    for page in ("index.html", "papers.html"):
        _run(capsys, "add", f"{base}/{page}", "--no-probe")
    _run(capsys, "check")


def test_a_page_split_off_the_home_page_tells_only_what_it_brings_new(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    home = PAGE.format(title="Research", items=TIDES + SALT + KELP)
    site.replace({"/index.html": home})
    _watch_home_and_papers(capsys, base)
    _run(capsys, "check")  # the publications page is still missing
    # The papers move to a page of their own, one new paper with them.
    # A bare line it brings too (the department's name over the list) is no paper to tell.
    site.replace({"/index.html": PAGE.format(title="Research", items=""), "/papers.html": PAGE.format(
        title="Publications", items="<li><b>Department of Marine Science, Tidewater University</b></li>"
        + DRAFT + TIDES + SALT + KELP)})
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"], c["url"].rsplit("/", 1)[-1]) for c in changes] == [
        ("added", "Reef Acoustics at Night", "papers.html")
    ]


def test_a_list_restyled_as_it_moves_to_a_page_of_its_own_tells_only_its_new_item(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    titles = ["Tidal Mixing in Narrow Estuaries", "Salt Wedges under Drought", "Kelp Forests in Warm Years",
              "Reef Acoustics at Night", "Mangrove Roots and Sediment Traps"]
    short = "".join(_paper(title, "Est. Coast. Res.") for title in titles)
    site.replace({"/index.html": PAGE.format(title="Research", items=short)})
    _watch_home_and_papers(capsys, base)
    # Each venue written in full on the new page: its style, not five papers published anew.
    full = "".join(_paper(title, "Estuarine and Coastal Research Letters") for title in titles)
    new = _paper("Seagrass Carbon in Cold Lagoons", "Estuarine and Coastal Research Letters")
    site.replace({"/index.html": PAGE.format(title="Research", items=""),
                  "/papers.html": PAGE.format(title="Publications", items=new + full)})
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert [(c["change"], c["item"]["title"]) for c in changes] == [("added", "Seagrass Carbon in Cold Lagoons")]


def test_a_page_that_appears_with_items_the_site_never_showed_is_a_baseline(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    # The home page shows one recent paper; the full list that appears later holds four.
    site.replace({"/index.html": PAGE.format(title="Research", items=TIDES)})
    _watch_home_and_papers(capsys, base)
    site.set("/papers.html", PAGE.format(title="Publications", items=DRAFT + TIDES + SALT + KELP))
    _run(capsys, "check")
    assert json.loads(_run(capsys, "diff", "--since", "1h", "--format", "json")) == []


LAB = """<html><head><title>Reef Lab</title></head><body>{research}
<h2>Members</h2><ul>{members}</ul>{alumni}</body></html>"""


def _member(name: str, role: str) -> str:
    return f"<li><b>{name}</b>, {role}</li>"


def test_a_people_page_split_off_a_lab_page_tells_who_joined_and_who_graduated(
    cli: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    team = _member("Ben Cole", "Postdoctoral researcher") + _member("Cara Diaz", "PhD student")
    team += _member("Eli Fox", "Research technician")
    research = "<h2>Research</h2><p>We study reefs.</p>"
    site.replace({"/index.html": LAB.format(research=research, members=_member("Ana Ruiz", "PhD student") + team,
                                            alumni="")})
    for page in ("index.html", "people.html"):
        _run(capsys, "add", f"{base}/{page}", "--no-probe")
    _run(capsys, "check")
    alumni = "<h2>Alumni</h2><ul>" + _member("Ana Ruiz", "PhD 2026, now at Coral University") + "</ul>"
    site.replace({
        "/index.html": f"<html><body>{research}</body></html>",
        "/people.html": LAB.format(research="", members=team + _member("Dan Eke", "MSc student"), alumni=alumni),
    })
    _run(capsys, "check")
    changes = json.loads(_run(capsys, "diff", "--format", "json"))
    assert sorted((c["change"], c["item"]["name"], c["url"].rsplit("/", 1)[-1]) for c in changes) == [
        ("added", "Dan Eke", "people.html"),
        ("modified", "Ana Ruiz", "people.html"),
    ]


@pytest.mark.parametrize(
    ("url", "label", "site"),
    [
        ("https://ruth.example.org/papers.html", None, "ruth.example.org"),
        ("https://uni.example.edu/~ruth/papers.html", None, "uni.example.edu/~ruth"),
        ("https://uni.example.edu/~paul/", None, "uni.example.edu/~paul"),
        ("https://uni.example.edu/people/", "Reef Lab", "label:Reef Lab"),
        ("github:ruth/site", None, "github:ruth/site"),
        ("http://127.0.0.1:8041/papers.html", None, "127.0.0.1:8041"),
    ],
)
def test_which_sources_make_one_site(url: str, label: str | None, site: str) -> None:
    assert site_of(url, label) == site
