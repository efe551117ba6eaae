"""academicpages extractor: the seed about page, odd markdown, dated lines, detection and source hints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors.academicpages import (
    AcademicPagesExtractor,
    bio_records,
    citation_authors,
    markdown_sections,
    parse_role_line,
    publication_paper,
    read_sections,
    take_dates,
)
from extractors.base import THIN_READING
from watcher.extract import choose_extractor
from watcher.records import Award, Document, NewsItem, Paper, Role

SEED = Path("/work/shared/seeds/004_50cfe966801e3d1e.txt")
EXTRACTOR = AcademicPagesExtractor()


def _news_of(markdown: str) -> list[NewsItem]:
    """The news items a page's typed sections give."""
    return [r for r in read_sections(markdown_sections(markdown))[0] if isinstance(r, NewsItem)]


def _markdown(text: str) -> Document:
    return Document(url="https://example.org/_pages/about.md", text=text, content_type="text/markdown")


@pytest.mark.skipif(not SEED.exists(), reason=f"seed page {SEED} is not present on this machine")
def test_seed_about_page_gives_eight_experiences_and_seven_projects() -> None:
    doc = _markdown(SEED.read_text(encoding="utf-8"))
    chosen, _reason = choose_extractor(doc)
    assert chosen.name == "academicpages"
    records = EXTRACTOR.parse(doc)
    roles = [r for r in records if isinstance(r, Role)]
    projects = [r for r in records if isinstance(r, Paper)]
    assert len(roles) == 8
    assert all(r.start and r.organization for r in roles)
    assert sum(r.end is None for r in roles) == 1  # only the current position is open
    assert len(projects) == 7


def test_a_position_line_with_entities_and_a_supervisor_note_is_read() -> None:
    line = ("**Postdoctoral Researcher**, Mesoscale Group, Ashgrove Center for Research &mdash; Sep 2023&ndash;present "
            "(supervisor: Dr. Mateus Ruiz)")
    assert parse_role_line(line) == Role(title="Postdoctoral Researcher", organization="Mesoscale Group, Ashgrove "
                                         "Center for Research", start="2023-09", end=None)


def test_role_line_shapes() -> None:
    assert parse_role_line("* 2023/06 - Present Principal Scientist, **Acme Labs**.".lstrip("* ")) == Role(
        title="Principal Scientist", organization="Acme Labs", start="2023-06", end=None
    )
    assert parse_role_line("Lecturer, Hill College, 2012-2015") == Role(
        title="Lecturer", organization="Hill College", start="2012", end="2015"
    )
    assert parse_role_line("Sep 2020 – Mar 2022: Data Scientist at Brightwave") == Role(
        title="Data Scientist", organization="Brightwave", start="2020-09", end="2022-03"
    )
    # The theme's default CV dates lines by season.
    assert parse_role_line("Fall 2025 – present: Postdoctoral Scholar, Calder Institute") == Role(
        title="Postdoctoral Scholar", organization="Calder Institute", start="2025-09", end=None
    )
    # A range may end in two digits, or be open: a historian's CV writes "2016–17" and "2023–".
    assert parse_role_line("Early Career Fellow, Institute of Maritime History, London, 2016–17") == Role(
        title="Early Career Fellow", organization="Institute of Maritime History, London", start="2016", end="2017"
    )
    assert parse_role_line("Senior Lecturer in History, University of Lorn, 2023–") == Role(
        title="Senior Lecturer in History", organization="University of Lorn", start="2023", end=None
    )
    # A year set in bold before a dash: the dash is no part of the title.
    assert parse_role_line("**2022–2025** — Assistant Professor, School of Nursing, Calder Valley University") == Role(
        title="Assistant Professor", organization="School of Nursing, Calder Valley University", start="2022",
        end="2025"
    )
    # an undated line (a skill, a note) is not a position
    assert parse_role_line("Python, R, Matlab") is None


def test_a_news_date_set_in_bold_leaves_no_markup_behind() -> None:
    body = "## News\n* **Sep 2025**: I started a postdoc at [Calder](https://x.example.org).\n"
    body += "* **[Aug 2025]** Defended!\n"
    news = _news_of(body)
    assert [(n.date, n.text, n.url) for n in news] == [
        ("2025-09", "I started a postdoc at Calder.", "https://x.example.org"),
        ("2025-08", "Defended!", None),
    ]


def test_a_news_line_dated_to_the_day_keeps_its_date_out_of_its_text() -> None:
    body = "News\n======\n* *October 2, 2025* — I received the **Early Investigator Award**.\n"
    body += "* **05 Sep 2023**: I was inducted as a Fellow of the Academy.\n"
    news = _news_of(body)
    assert [(n.date, n.text) for n in news] == [
        ("2025-10-02", "I received the Early Investigator Award."),
        ("2023-09-05", "I was inducted as a Fellow of the Academy."),
    ]


def test_a_news_line_is_dated_by_its_leading_date_and_a_news_table_is_read() -> None:
    body = "## News\n* **May 2025**: Awarded the dissertation fellowship for 2025–26.\n"
    news = _news_of(body)
    assert [(n.date, n.text) for n in news] == [("2025-05", "Awarded the dissertation fellowship for 2025–26.")]
    table = "News\n======\n| | |\n|:--|:--|\n| May 2025 | Awarded the dissertation fellowship for 2025–26. |\n"
    table += "| Apr 2025 | Started three new projects on air quality alerts. |\n"
    news = _news_of(table)
    assert [(n.date, n.text) for n in news] == [
        ("2025-05", "Awarded the dissertation fellowship for 2025–26."),
        ("2025-04", "Started three new projects on air quality alerts."),
    ]


def test_a_word_before_a_year_is_not_a_month() -> None:
    dated = take_dates("Engineer, Northwind Institute, 2019")
    assert (dated.text, dated.start) == ("Engineer, Northwind Institute", "2019")


def test_bio_sentences_give_positions_and_honours_not_descriptions() -> None:
    text = (
        "Ana Ruiz is an Assistant Professor in the Department of Botany at Pine University. "
        "She is a leading expert on mosses, and the co-founder of the [Moss Atlas (MA)](https://x.org). "
        "Dr. Ruiz is a past Greenleaf Foundation Fellow (2016) and the recipient of the 2021 Lichen Medal "
        "from the Bryology Society. Her work has been featured in the press."
    )
    records = bio_records(text)
    assert Role(title="Assistant Professor", organization="Department of Botany") in records
    assert Role(title="co-founder", organization="Moss Atlas") in records
    assert Award(title="Greenleaf Foundation Fellow", organization=None, year=2016) in records
    assert Award(title="Lichen Medal", organization="Bryology Society", year=2021) in records
    assert len(records) == 4
    assert [r for r in bio_records(text, roles=False) if isinstance(r, Role)] == []


def test_apa_citation_authors() -> None:
    assert citation_authors("Doe, J. A., Roe, B., &amp; Poe, C. (2020). A title. Venue.") == (
        "J. A. Doe",
        "B. Roe",
        "C. Poe",
    )
    assert citation_authors("Doe J., B. Roe. (2021). A title.") == ("J. Doe", "B. Roe")
    assert citation_authors("no year here") == ()
    # The owner set in bold in a Vancouver-style citation is a name like the others.
    assert citation_authors("Lund T, <b>Okafor M</b> (2025). A title.") == ("T. Lund", "M. Okafor")


def test_a_status_only_the_citation_states_stays_with_the_venue() -> None:
    citation = 'Lund T, <b>Okafor M</b> (2025). "Tidal mixing." <i>Estuarine Letters</i>. In Press. <a>Preprint</a>'
    paper = publication_paper({"title": "Tidal mixing", "venue": "Estuarine Letters", "citation": citation})
    assert paper is not None and paper.venue == "Estuarine Letters, In Press"
    published = citation.replace("In Press.", "12:e0042-25.")
    paper = publication_paper({"title": "Tidal mixing", "venue": "Estuarine Letters", "citation": published})
    assert paper is not None and paper.venue == "Estuarine Letters"


def test_a_citation_that_does_not_name_its_paper_is_where_it_stands() -> None:
    # Co-authors in the venue field and the journal in the citation, as many such sites keep them.
    meta = {"title": "Aspherical forms", "venue": "with M. Osei", "citation": "Submitted. arXiv:2109.09196"}
    paper = publication_paper(meta)
    assert paper is not None
    assert (paper.venue, paper.authors, paper.arxiv) == ("Submitted. arXiv:2109.09196", ("M. Osei",), "2109.09196")
    paper = publication_paper({**meta, "citation": "Math. Z. 309 (2025), no. 3"})
    assert paper is not None and (paper.venue, paper.authors) == ("Math. Z. 309 (2025), no. 3", ("M. Osei",))


def test_dated_list_wins_over_biography_roles() -> None:
    page = (
        "---\npermalink: /\nauthor_profile: true\n---\n\nI am a Research Scientist at Example Corp.\n\n"
        "Experience\n======\n* 2020 - Present Research Scientist, **Example Corp**\n"
    )
    records = EXTRACTOR.parse(_markdown(page))
    assert records == [Role(title="Research Scientist", organization="Example Corp", start="2020", end=None)]


def test_a_cv_position_written_with_character_references_takes_its_place_from_the_first_sub_item() -> None:
    cv = """Work experience
======
* 2024 &ndash; present: Assistant Professor
  * Department of Civil Engineering, University of Cascadia
  * Director, Mountain Water Lab

* 2021 &ndash; 2024: Postdoctoral Research Associate
  * Supervisor: Dr. Hanne Berg
"""
    records, _ = read_sections(markdown_sections(cv))
    assert records == [
        Role(title="Assistant Professor", organization="Department of Civil Engineering, University of Cascadia",
             start="2024", end=None),
        Role(title="Postdoctoral Research Associate", organization=None, start="2021", end="2024"),
    ]


def test_odd_markdown_fails_softly() -> None:
    odd = [
        "---\nauthor_profile: true\ntitle: [unclosed\n---\nExperience\n===\n* \n* 2020\n",
        "---\npermalink: /\nauthor_profile: true\n---\n",
        "Awards\n======\n*  \n* **\n",
        "---\nauthor_profile: true\n---\nNews\n====\n* 2024/13: a bad month\n",
    ]
    for text in odd:
        records = EXTRACTOR.parse(_markdown(text))
        assert all(isinstance(r, (Role, Award, NewsItem, Paper)) for r in records)


def test_bundle_with_broken_publication_front_matter() -> None:
    files = {
        "_publications/ok.md": "---\ntitle: 'A Paper.'\ndate: 2022-01-01\nvenue: 'J. Tests'\n---\n",
        "_publications/bad.md": "---\ntitle: [oops\n---\n",
        "_publications/none.md": "no front matter at all",
    }
    doc = Document(url="github:someone/site", files=files)
    assert EXTRACTOR.detect(doc)
    assert EXTRACTOR.parse(doc) == [Paper(title="A Paper", venue="J. Tests", year=2022)]


def test_detection_is_by_content_not_site_name() -> None:
    assert EXTRACTOR.detect(Document(url="https://example.org/", text="<html><p>hello</p></html>")) is None
    assert EXTRACTOR.detect(_markdown("---\nlayout: post\n---\nhi")) is None
    plain_repo = Document(url="github:a/b", files={"README.md": "x", "_config.yml": "author: me\n"})
    assert EXTRACTOR.detect(plain_repo) is None


def test_better_source_for_github_pages() -> None:
    page = Document(url="https://janedoe.github.io/publications/", text="<div class='archive__item'></div>")
    assert EXTRACTOR.better_source(page) == "github:janedoe/janedoe.github.io"
    assert EXTRACTOR.better_source(Document(url="https://example.org/", text="x")) is None


def test_archive_items_that_are_posts_are_news_not_papers() -> None:
    from extractors.academicpages import rendered_records

    item = """<article class="archive__item"><h2 class="archive__item-title"><a href="{0}">{1}</a></h2>
    <p class="page__meta"><time datetime="{2}">x</time></p></article>"""
    html = "<div class='page__content'>" + item.format(
        "/news/2025/06/09/herrera/", "Congratulations, Dr. Tomás Herrera!", "2025-06-09"
    ) + item.format("/2025/05/20/field-season/", "Field season starts", "2025-05-20") + item.format(
        "/publication/2024-kelp", "Kelp forests in warm years", "2024-03-01"
    ) + "</div>"
    assert [(r.kind, getattr(r, "date", None)) for r in rendered_records(html)] == [
        ("news", "2025-06-09"), ("news", "2025-05-20"), ("paper", None)
    ]


def test_a_well_read_about_page_still_gives_the_news_only_the_shared_reading_knows(tmp_path: Path) -> None:
    """The biography gives three positions, so the page is no thin reading; its news, dated bold
    lines under year headings, is still read, and the pointer to older news is not an item."""
    about = """---
permalink: /
title: "About me"
author_profile: true
---

I am an Associate Professor of History at the [University of Lorn](https://lorn.example), a fellow at
the [Centre for Baltic Studies](https://cbs.example) and a Research Affiliate of the [Hanse Institute](https://hi.example).
I am also an Associate Editor of the Journal of Baltic Studies.

## Recent news

### 2025

- **May 2025** — I have been promoted to Associate Professor. Many thanks to my colleagues!
- **Feb 2025** — "Salt and Silver in Riga" has been accepted at *Urban History*.

### 2024

- **Nov 2024** — I received the Book Prize of the Baltic History Society for *Merchants of the Vistula*.

Older news are archived on my [CV page](/cv/).
"""
    records = EXTRACTOR.parse(Document(url="github:okafor/okafor.github.io", files={"_pages/about.md": about}))
    news = [r for r in records if isinstance(r, NewsItem)]
    assert [n.date for n in news] == ["2025-05", "2025-02", "2024-11"]
    assert len([r for r in records if isinstance(r, Role)]) >= THIN_READING


def test_lists_the_theme_keeps_in_data_files_are_read_where_no_page_gives_the_kind() -> None:
    files = {
        "_config.yml": "title: Amara Lindgren-Obi\nauthor:\n  name: Amara Lindgren-Obi\nrepository: a/a.github.io\n",
        "_pages/about.md": "---\npermalink: /\nauthor_profile: true\n---\nI am a PhD candidate in economics.\n",
        "_data/publications.yml": (
            "- title: Mobile Money and Risk Sharing among Traders\n  category: published\n"
            "  authors: with Jonah Meyers\n  venue: Journal of Development Microeconomics\n  year: 2023\n"
            "- title: Minimum Wage Spillovers in Segmented Markets\n  category: working\n"
            "  status: Revise & Resubmit, Quarterly Review of Economic Studies\n  year: 2024\n"
        ),
        "_data/awards.yml": "- year: '2024'\n  name: Research Grant\n  org: Foundation for Labor Studies\n",
        "_data/navigation.yml": "main:\n  - title: Research\n    url: /research/\n",
    }
    records = EXTRACTOR.parse(Document(url="github:a/a.github.io", files=files))
    assert [(p.title, p.authors, p.venue) for p in records if isinstance(p, Paper)] == [
        ("Mobile Money and Risk Sharing among Traders", ("Jonah Meyers",), "Journal of Development Microeconomics"),
        ("Minimum Wage Spillovers in Segmented Markets", (), "Revise & Resubmit, Quarterly Review of Economic Studies"),
    ]
    assert [(a.title, a.year) for a in records if isinstance(a, Award)] == [("Research Grant", 2024)]


def test_a_cv_kept_as_a_json_resume_gives_the_positions_and_the_biography_adds_none() -> None:
    work = [
        {"company": "Dunmore State University", "position": "Graduate Research Assistant", "startDate": "2021-08"},
        {"company": "Harlow Policy Lab", "position": "Research Intern", "startDate": "2024-06", "endDate": "2024-08"},
    ]
    files = {
        "_config.yml": "author:\n  name: Tomas Ferreira-Quist\nrepository: t/t.github.io\n",
        "_pages/about.md": "---\npermalink: /\nauthor_profile: true\n---\nI am a Ph.D. candidate in economics at "
        "Dunmore State University.\n",
        "_pages/cv-json.md": "---\nlayout: cv-layout\ntitle: CV\npermalink: /cv/\n---\n",
        "_data/cv.json": json.dumps({"basics": {"name": "Tomas Ferreira-Quist"}, "work": work}),
    }
    records = EXTRACTOR.parse(Document(url="github:t/t.github.io", files=files))
    assert [(r.title, r.organization, r.start) for r in records if isinstance(r, Role)] == [
        ("Graduate Research Assistant", "Dunmore State University", "2021-08"),
        ("Research Intern", "Harlow Policy Lab", "2024-06"),
    ]


@pytest.mark.parametrize(("menu_title", "news"), [("News", True), ("Blog Posts", False)])
def test_posts_are_news_where_the_menu_names_their_archive_news(menu_title: str, news: bool) -> None:
    post = "---\ntitle: 'Welcome {who}'\ndate: 2025-09-0{n}\ntags:\n  - people\n---\n\nWe welcome **{who}**.\n"
    files = {
        "_config.yml": "author:\n  name: Soil Lab\nrepository: soil/soil.github.io\n",
        "_pages/about.md": "---\npermalink: /\nauthor_profile: true\n---\nWe study soil microbes.\n",
        "_data/navigation.yml": f"main:\n  - title: People\n    url: /people/\n  - title: {menu_title}\n"
        "    url: /year-archive/\n",
        **{f"_posts/2025-09-0{n}-welcome.md": post.format(who=who, n=n) for n, who in ((1, "Tavita"), (2, "Jonah"))},
    }
    records = EXTRACTOR.parse(Document(url="github:soil/soil.github.io", files=files))
    told = [(r.date, r.text) for r in records if isinstance(r, NewsItem)]
    assert told == ([("2025-09-01", "Welcome Tavita"), ("2025-09-02", "Welcome Jonah")] if news else [])


def test_an_archive_item_whose_excerpt_is_its_citation_gives_authors_and_journal() -> None:
    from extractors.academicpages import rendered_records

    item = """<div class="list__item"><article class="archive__item">
    <h2 class="archive__item-title"><a href="/publications/{slug}/">{title}</a></h2>
    <p class="page__meta"><time datetime="2023-04-01T00:00:00+00:00">April 1, 2023</time></p>
    <p class="archive__item-excerpt">Okafor, C.; <strong>Lind, N.</strong> {cited}</p></article></div>"""

    def page(cited: str) -> str:
        return "<h2>2023</h2>" + item.format(slug="solvation", title="Learned solvation energies", cited=cited)

    (before,) = rendered_records(page("<i>ChemRxiv</i> <b>2023</b>, preprint, DOI: 10.26434/chemrxiv-2023-8k2lq."))
    (after,) = rendered_records(page("<i>J. Chem. Theory Comput.</i> <b>2023</b>, <i>19</i>, 8123–8136."))
    assert (before.authors, before.venue, before.year) == (("Okafor, C.", "Lind, N."), "ChemRxiv", 2023)
    assert (after.authors, after.venue) == (("Okafor, C.", "Lind, N."), "J. Chem. Theory Comput")


def test_cv_sections_set_as_markdown_tables_are_read_by_their_columns() -> None:
    cv = """## Education

| Degree | Institution | Year |
|---|---|---|
| Ph.D. in Economics | Boston University | 2024 |

## Academic positions

| Dates | Position | Organisation |
|---|---|---|
| 2024–present | Assistant Professor of Economics | Universidad Carlos III de Madrid |
| 2019–2024 | Teaching Fellow | Department of Economics, Boston University |

## Honors and grants

| Year | Award |
|---|---|
| 2024 | Outstanding Teaching Fellow Award, Boston University |
"""
    records, has_positions = read_sections(markdown_sections(cv))
    assert has_positions
    assert [(r.title, r.organization, r.start, r.end) for r in records if isinstance(r, Role)] == [
        ("Assistant Professor of Economics", "Universidad Carlos III de Madrid", "2024", None),
        ("Teaching Fellow", "Department of Economics, Boston University", "2019", "2024"),
    ]
    assert [(a.title, a.year) for a in records if isinstance(a, Award)] == [("Outstanding Teaching Fellow Award", 2024)]


def test_a_biography_that_restates_the_profile_s_post_in_its_own_words_adds_no_role() -> None:
    from extractors.academicpages import bio_records, new_bio_records, strip_markdown

    bio = "Ana Lima is a **3rd-year Ph.D. student** at [Alder University][alder], jointly advised by [Bo Roe][]"
    assert strip_markdown(bio) == "Ana Lima is a 3rd-year Ph.D. student at Alder University, jointly advised by Bo Roe"
    profile = [Role(title="PhD Student", organization="Alder University")]
    assert new_bio_records(bio_records(bio), profile) == []
    # A post at another place is the biography's own.
    other = bio_records("She is also a visiting researcher at the Lund Institute.")
    assert [(r.title, r.organization) for r in new_bio_records(other, profile)] == [
        ("visiting researcher", "Lund Institute")
    ]
