"""Hugo Blox extractor: profile front matter shapes, widget blocks, odd bundles, detection and source hints."""

from __future__ import annotations

from extractors.hugo_blox import HugoBloxExtractor, author_records, home_records
from watcher.extract import choose_extractor
from watcher.records import Award, Document, NewsItem, Paper, Role

EXTRACTOR = HugoBloxExtractor()

PROFILE = """---
title: Lee Park
role: Research Scientist
organizations:
- name: Tidewater Institute
superuser: true
---

Lee Park is a Research Scientist at Tidewater Institute and a member of the [Reef Consortium](https://r.example.org).
Lee is the recipient of the 2020 Coral Prize from the Marine Society.
"""


def _bundle(files: dict[str, str]) -> Document:
    return Document(url="github:someone/site", files=files)


def test_profile_role_bio_positions_and_awards() -> None:
    records = EXTRACTOR.parse(_bundle({"content/authors/admin/_index.md": PROFILE}))
    assert records == [
        Role(title="Research Scientist", organization="Tidewater Institute"),
        Role(title="member", organization="Reef Consortium"),
        Award(title="Coral Prize", organization="Marine Society", year=2020),
    ]


def test_a_lab_member_s_profile_gives_the_member_and_the_awards_it_lists() -> None:
    student = """---
title: Mei Tan
role: PhD Student
user_groups:
  - Grad Students
awards:
  - title: Outstanding Student Poster Award, Aerosol Conference 2026
    date: '2026-03-27'
    awarder: Aerosol Conference
---
"""
    records = EXTRACTOR.parse(_bundle({"content/authors/admin/_index.md": PROFILE,
                                       "content/authors/mei-tan/_index.md": student}))
    assert [(r.title, r.year) for r in records if isinstance(r, Award)] == [
        ("Coral Prize", 2020), ("Outstanding Student Poster Award, Aerosol Conference 2026", 2026)
    ]


def test_honours_listed_in_the_profile_body_are_awards_dated_by_their_start() -> None:
    body = """Meera leads the Glia Laboratory at the Harbour Institute.

**Selected honours**

- Research Council Investigator Grant (Leadership 1), 2024–2028
- Gottschalk Medal, Academy of Science (2020)
"""
    awards = [(r.title, r.year) for r in author_records({"role": "Professor"}, body) if isinstance(r, Award)]
    assert awards == [("Research Council Investigator Grant (Leadership 1)", 2024), ("Gottschalk Medal", 2020)]


def test_sections_blocks_on_the_landing_page() -> None:
    meta = {
        "sections": [
            {"block": "resume-experience", "content": {"items": [
                {"title": "Engineer", "company": "Kite Co", "date_start": "2021-03-01", "date_end": None},
            ]}},
            {"block": "resume-awards", "content": {"items": [
                {"title": "Top Reviewer", "awarder": "ConfX", "date": "2023"},
            ]}},
            {"block": "markdown", "content": {"text": "Hello"}},
            "not a block",
        ]
    }
    assert home_records(meta) == [
        Role(title="Engineer", organization="Kite Co", start="2021-03-01", end=None),
        Award(title="Top Reviewer", organization="ConfX", year=2023),
    ]


def test_admin_slug_becomes_the_profile_name_in_author_lists() -> None:
    files = {
        "content/authors/admin/_index.md": "---\ntitle: Lee Park, PhD\nsuperuser: true\n---\n",
        "content/publication/reef/index.md": "---\ntitle: Reef Notes\nauthors: [admin, Sam Ode]\ndate: 2022-02-02\n"
        "publication: '*Reef Letters*'\n---\n",
    }
    papers = [r for r in EXTRACTOR.parse(_bundle(files)) if isinstance(r, Paper)]
    assert papers == [Paper(title="Reef Notes", authors=("Lee Park", "Sam Ode"), venue="Reef Letters", year=2022)]


def test_a_cite_bib_fills_in_what_the_front_matter_leaves_out() -> None:
    bib = """@string{tl = "Tide {Letters}"}
    @misc{draft}
    @article{tide, title = {{Tidal} Gates}, author = {Ode, Sam and Park, Lee}, journal = tl, month = mar, year = 2021
    }"""
    files = {
        "content/publication/tide/index.md": "---\ntitle: ''\n---\n",
        "content/publication/tide/cite.bib": bib,
    }
    papers = [r for r in EXTRACTOR.parse(_bundle(files)) if isinstance(r, Paper)]
    assert papers == [Paper(title="Tidal Gates", authors=("Sam Ode", "Lee Park"), venue="Tide Letters", year=2021)]


def test_odd_bundles_fail_softly() -> None:
    files = {
        "content/authors/admin/_index.md": "---\nrole: [1, 2\n---\nbody",
        "content/home/experience.md": "---\nwidget: experience\nexperience: not-a-list\n---\n",
        "content/publication/x/index.md": "---\ntitle: ''\n---\n",
        "content/publication/x/cite.bib": "@article{broken, title={Unclosed",
        "content/post/y/index.md": "---\ntitle: Draft thoughts\ndraft: true\n---\n",
        "content/post/z/index.md": "---\ntitle: Real post\ndate: not a date\n---\n",
    }
    records = EXTRACTOR.parse(_bundle(files))
    assert records == [NewsItem(text="Real post", date=None, url="/post/z/")]


def test_routing_prefers_the_template_over_the_fallback() -> None:
    generator = '<html><head><meta name="generator" content="Wowchemy 5.5.0 for Hugo">'
    page = Document(url="https://example.org/", text=generator)
    assert choose_extractor(page)[0].name == "hugo-blox"
    plain = Document(url="https://example.org/", text='<meta name="generator" content="Hugo 0.120">')
    assert EXTRACTOR.detect(plain) is None
    assert EXTRACTOR.detect(_bundle({"content/posts/a.md": "x", "hugo.toml": ""})) is None


def test_better_source() -> None:
    feed = '<link rel="alternate" type="application/rss+xml" href="https://lee.example.org/index.xml">'
    own_domain = Document(url="https://lee.example.org/", text=feed)
    assert EXTRACTOR.better_source(own_domain) == "https://lee.example.org/index.xml"
    pages = Document(url="https://leepark.github.io/", text="")
    assert EXTRACTOR.better_source(pages) == "github:leepark/leepark.github.io"


def test_a_markdown_block_of_a_toml_landing_page_gives_its_news_and_a_collection_s_intro_nothing() -> None:
    landing = '''+++
title = ""
type = "landing"

[[sections]]
  block = "markdown"
  id = "news"
  [sections.content]
    title = "News"
    text = """
- **Apr 2024** — Our rain-on-snow flood paper is out in *Hydrology & Earth Futures*!
- **Feb 2024** — Honored to receive the Early Career Faculty Award.
"""

[[sections]]
  block = "collection"
  [sections.content]
    title = "Recent Publications"
    text = "Quickly discover relevant content by [filtering publications](./publication/)."
+++
'''
    files = {"content/_index.md": landing, "content/authors/admin/_index.md": '+++\ntitle = "Lena Achterberg"\n+++\n'}
    records = HugoBloxExtractor().parse(Document(url="github:o/r", files=files))
    assert [(r.date, r.text) for r in records if isinstance(r, NewsItem)] == [
        ("2024-04", "Our rain-on-snow flood paper is out in Hydrology & Earth Futures!"),
        ("2024-02", "Honored to receive the Early Career Faculty Award."),
    ]
    assert not [r for r in records if isinstance(r, Paper)]


def test_a_built_page_s_widgets_the_theme_fields_miss_are_read_by_the_shared_reader() -> None:
    post = """<div class="media stream-item"><div class="media-body">
    <h3 class="article-title"><a href="/post/{slug}/">{title}</a></h3>
    <div class="article-style">{summary}</div>
    <div class="stream-meta article-metadata"><span class="article-date">{date}</span></div></div></div>"""
    posts = [("prl", "Valley paper accepted in PRL", "Our switching paper is accepted.", "Mar 14, 2025"),
             ("aps", "Invited talk at the APS Summit", "I will speak in Anaheim.", "Jan 30, 2025"),
             ("qe", "Passed my qualifying exam", "One step closer.", "Jul 1, 2024")]
    page = f"""<html><head><meta name="generator" content="Source Themes Academic 4.8.0"></head><body>
    <section id="news" class="home-section"><h1>Recent News</h1>
    {"".join(post.format(slug=s, title=t, summary=m, date=d) for s, t, m, d in posts)}</section>
    <section id="experience"><h1>Experience</h1>{"".join(
        f'<div class="card experience-card"><div class="card-body"><div class="exp-title">{t}</div>'
        f'<div class="exp-company">{o}</div><div class="exp-meta">{m}</div></div></div>'
        for t, o, m in [("PhD Candidate", "ETH Zurich", "Sep 2020 – Present"),
                        ("Research Assistant", "EPFL", "Jan 2019 – Aug 2020"),
                        ("Intern", "IBM Research", "Jun 2018 – Sep 2018")])}</section>
    <section id="accomplishments"><h1>Awards</h1><ul><li>2023 Best Poster Award, Swiss Nanoscience Meeting</li>
    <li>2022 Outstanding Teaching Assistant Award, ETH Zurich</li><li>2019 Excellence Scholarship, ETH Zurich</li>
    </ul></section></body></html>"""
    records = EXTRACTOR.read(Document(url="https://nk.example.org/", text=page))[0]
    # The theme's own fields give the timeline; the shared reader the news and the awards.
    assert [(r.title, r.organization) for r in records if isinstance(r, Role)][:3] == [
        ("PhD Candidate", "ETH Zurich"), ("Research Assistant", "EPFL"), ("Intern", "IBM Research")
    ]
    assert [(n.date, n.text) for n in records if isinstance(n, NewsItem)] == [
        ("2025-03-14", "Valley paper accepted in PRL"),
        ("2025-01-30", "Invited talk at the APS Summit"),
        ("2024-07-01", "Passed my qualifying exam"),
    ]
    assert [a.title for a in records if isinstance(a, Award)] == [
        "Best Poster Award", "Outstanding Teaching Assistant Award", "Excellence Scholarship"
    ]


def test_accomplishment_cards_set_out_as_experience_cards_are_awards_not_posts() -> None:
    card = ('<div class="card experience course"><div class="card-body"><div class="card-title exp-title">{}</div>'
            '<div class="exp-meta">{}</div></div></div>')
    page = f"""<html><head><meta name="generator" content="Wowchemy 5.7.0 for Hugo"></head><body>
    <section id="experience"><h1>Experience</h1>{card.format("Associate Professor", "2022 – Present")}</section>
    <section id="awards" class="home-section wg-accomplishments"><h1>Awards &amp; Grants</h1>
    {card.format("University Excellence in Doctoral Supervision Award", "2024")}
    {card.format("Global Hydrology Society Early Career Award", "2021")}</section></body></html>"""
    records = EXTRACTOR.read(Document(url="https://lab.example.org/", text=page))[0]
    assert [r.title for r in records if isinstance(r, Role)] == ["Associate Professor"]


def test_the_newer_schema_s_owner_profile_is_a_data_file() -> None:
    profile = """schema: hugoblox/author/v1
is_owner: true
name:
  display: Kaspar Reyes
role: Associate Professor of Mathematics
affiliations:
  - name: Felsmere University
bio: |
  Kaspar Reyes is a probabilist working on random graphs.
work:
  - position: Associate Professor of Mathematics
    company_name: Felsmere University
    date_start: '2025-07-01'
    date_end: ''
  - position: Assistant Professor of Mathematics
    company_name: Felsmere University
    date_start: '2022-07-01'
    date_end: '2025-06-30'
awards:
  - title: Rolfe Prize
    date: '2025-07-08'
    awarder: Northern Mathematical Society
"""
    files = {"data/authors/me.yaml": profile, "config/_default/hugo.yaml": "title: Kaspar Reyes\n",
             "content/_index.md": "---\ntitle: Home\n---\n"}
    records = HugoBloxExtractor().parse(Document(url="github:o/r", files=files))
    assert [(r.title, r.organization, r.start) for r in records if isinstance(r, Role)] == [
        ("Associate Professor of Mathematics", "Felsmere University", "2025-07-01"),
        ("Assistant Professor of Mathematics", "Felsmere University", "2022-07-01"),
    ]
    assert [(a.title, a.year) for a in records if isinstance(a, Award)] == [("Rolfe Prize", 2025)]


def test_a_built_page_s_talks_are_neither_news_nor_papers_beside_its_posts() -> None:
    item = ('<div class="media stream-item view-compact"><div class="media-body"><div class="section-subheading '
            'article-title"><a href="/{kind}/{slug}/">{title}</a></div><div class="article-style">{summary}</div>'
            '<div class="stream-meta article-metadata"><span class="article-date">{date}</span></div></div></div>')
    talks = [("talk", "dagstuhl-2026", "Counterexamples as Teachers", "A seminar talk.", "Feb 19, 2026"),
             ("event", "pldi-2025", "Learning Invariants the Hard Way", "A workshop keynote.", "Jun 16, 2025")]
    posts = [("post", "new-student", "Welcome to our new PhD student", "Ana joins the group.", "Sep 2, 2025")]
    page = f"""<html><head><meta name="generator" content="Wowchemy 5.7.0 for Hugo"></head><body>
    <section id="talks"><h1>Recent &amp; Upcoming Talks</h1>{"".join(item.format(kind=k, slug=s, title=t,
    summary=m, date=d) for k, s, t, m, d in talks)}</section>
    <section id="posts"><h1>News</h1>{"".join(item.format(kind=k, slug=s, title=t, summary=m, date=d)
    for k, s, t, m, d in posts)}</section></body></html>"""
    records = EXTRACTOR.read(Document(url="https://jd.example.org/", text=page))[0]
    assert [n.text for n in records if isinstance(n, NewsItem)] == ["Welcome to our new PhD student"]
    assert [p for p in records if isinstance(p, Paper)] == []
