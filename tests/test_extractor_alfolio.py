"""al-folio reading beyond the recorded cases: biography positions, awards, detection, better source."""

from __future__ import annotations

import pytest

from extractors.alfolio import AlfolioExtractor, read_awards, read_positions
from watcher.diff import StoredItem, diff_items
from watcher.records import Award, Document, Member, Role, record_fields


@pytest.mark.parametrize(
    ("sentence", "role"),
    [
        ("I am an Assistant Professor at Hillcrest University, where I lead the Sea Lab.",
         Role(title="Assistant Professor", organization="Hillcrest University")),
        ("I am currently part of the Vision Team at Acme.", Role(title="Vision Team", organization="Acme")),
        ("Since 2022, I have been a Staff Scientist at Acme Research.",
         Role(title="Staff Scientist", organization="Acme Research", start="2022")),
        ("I have been a Ph.D. student since 2021 in the School of Physics at Hillcrest.",
         Role(title="Ph.D. student", organization="School of Physics at Hillcrest", start="2021")),
        ("I previously worked with Acme's Graphics Research Team for a year.",
         Role(title="Graphics Research Team", organization="Acme", end="past")),
        ("I will soon join Hillcrest University.", Role(title="Incoming", organization="Hillcrest University")),
        ("I am a PhD candidate supervised by Prof. Jane Roe and Bo Chen at the University of Lyon.",
         Role(title="PhD candidate", organization="University of Lyon")),
        ("Research Engineer at Acme, Jan 2019 - Mar 2021", Role(title="Research Engineer", organization="Acme",
                                                                start="2019-01", end="2021-03")),
    ],
)
def test_position_sentences(sentence: str, role: Role) -> None:
    assert read_positions(sentence) == [role]


@pytest.mark.parametrize(
    "sentence",
    [
        "My research interests lie in robot learning and team coordination at scale.",
        "I am interested in multi-agent systems with human teams.",
        "I aim to build intelligent embodied agents.",
        "I received my bachelor degree in 2021 from Hillcrest University.",
        "Dr. J. Smith is a Professor at Acme.",
    ],
)
def test_research_interest_and_other_prose_is_not_a_position(sentence: str) -> None:
    assert read_positions(sentence) == []


def test_rewritten_interest_sentence_leaves_positions_unchanged() -> None:
    before = read_positions("I am a Research Scientist at Acme. My research focuses on tactile sensing.")
    after = read_positions("I am a Research Scientist at Acme. My recent research is on data flywheels for robots.")
    assert before == after


def test_abbreviations_do_not_split_sentences() -> None:
    roles = read_positions("I am a Ph.D. candidate at Hillcrest U., supervised by Dr. P. Q. Smith.")
    assert roles == [Role(title="Ph.D. candidate", organization="Hillcrest U")]


def test_awards_section_items_and_nothing_else() -> None:
    body = (
        "Intro.\n\n## Honors and Awards\n- Best Paper, ICRA, 2024: for X\n- Rising Star (2022)\n\n"
        "## Teaching\n- CS 101"
    )
    assert read_awards(body) == [
        Award(title="Best Paper", organization="ICRA", year=2024),
        Award(title="Rising Star", organization=None, year=2022),
    ]
    # A lab's funding list is its grants; the thanks above it is not one.
    funding = "### Funding\nWe are grateful for support from:\n- ERC Consolidator Grant ROOTGUARD (2025–2030)\n"
    assert read_awards(funding) == [Award(title="ERC Consolidator Grant ROOTGUARD", organization=None, year=2025)]


def test_detection_of_sources_pages_and_rendered_html() -> None:
    extractor = AlfolioExtractor()
    assert extractor.detect(Document(url="github:o/r", files={"_news/a.md": "---\n---\nhi"}))
    config = "news_limit: 5\nscholar:\n  style: apa\n"
    assert extractor.detect(Document(url="github:o/r", files={"_config.yml": config}))
    # jekyll-scholar is a plugin many other Jekyll sites use: alone it is not the theme.
    assert extractor.detect(Document(url="github:o/r", files={"_config.yml": "scholar:\n  style: apa\n"})) is None
    assert extractor.detect(Document(url="github:o/r", files={"_pages/about.md": "---\nlayout: single\n---"})) is None
    about = "---\nlayout: about\nnews: true\nselected_papers: true\n---\nHello"
    assert extractor.detect(Document(url="file:///x.md", text=about, content_type="text/markdown"))
    plain = "<html><body><div class='news'>x</div></body></html>"
    assert extractor.detect(Document(url="https://x.org/", text=plain)) is None


def test_better_source_for_a_github_io_home_page() -> None:
    extractor = AlfolioExtractor()
    assert extractor.better_source(Document(url="https://jdoe.github.io/", text="")) == "github:jdoe/jdoe.github.io"
    assert extractor.better_source(Document(url="https://example.org/~jdoe/", text="")) is None


def test_news_item_text_is_the_body_for_inline_items_and_the_title_otherwise() -> None:
    files = {
        "_news/a.md": "---\ndate: 2025-01-02\ninline: true\n---\nWe won a **grant**! :tada:",
        "_news/b.md": "---\ndate: 2025-02-03\ninline: false\ntitle: Long post\n---\nMany words.",
        "_news/c.md": "not front matter at all",
    }
    news = [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=files)) if r.kind == "news"]
    assert [(n.date, n.text) for n in news[:2]] == [("2025-01-02", "We won a grant!"), ("2025-02-03", "Long post")]


def test_odd_documents_fail_softly() -> None:
    extractor = AlfolioExtractor()
    assert extractor.parse(Document(url="https://x.org/", text="<html><ol class='bibliography'><li>")) == []
    bundle = Document(url="github:o/r", files={"_bibliography/papers.bib": "@@@", "_people/x.md": "---\n: [\n---"})
    assert extractor.parse(bundle) == []


_CV_YML = """\
- title: General Information
  type: map
  contents:
    - name: Current Position
      value: {current}
- title: Experience
  type: time_table
  contents:
    - title: {current}
      institution: Hillcrest University, Lyon, France
      year: 2021 -
    - title: Software Engineer
      institution: Acme Systems
      year: 2015 - 2021
- title: Honors and Awards
  type: time_table
  contents:
    - year: 2019
      items:
        - Graduate Student of the Year Award
"""


def _bundle(bio: str, current: str) -> Document:
    about = f"---\nlayout: about\npermalink: /\nsubtitle: Runtime verification\nprofile:\n  align: right\n---\n{bio}\n"
    return Document(
        url="github:o/o.github.io",
        files={
            "_pages/about.md": about,
            "_data/cv.yml": _CV_YML.format(current=current),
            "_news/a.md": "---\ndate: 2025-01-02\ninline: true\n---\nWe won a grant!",
        },
    )


def test_cv_data_states_the_positions_and_awards_and_a_reworded_biography_changes_nothing() -> None:
    before = AlfolioExtractor().parse(
        _bundle("I am currently a Ph.D. Researcher at Hillcrest University, since 2021.", "Ph.D. Researcher")
    )
    assert [r for r in before if isinstance(r, Role | Award)] == [
        Role(title="Ph.D. Researcher", organization="Hillcrest University, Lyon, France", start="2021"),
        Role(title="Software Engineer", organization="Acme Systems", start="2015", end="2021"),
        Award(title="Graduate Student of the Year Award", year=2019),
    ]
    # The biography is rewritten; the CV is not: nothing is news.
    after = AlfolioExtractor().parse(
        _bundle("Before research, I spent six years building software. I work on runtime verification.",
                "Ph.D. Researcher")
    )
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in before]
    assert diff_items(stored, after).changes == ()


def test_the_biography_states_positions_when_the_cv_data_has_none() -> None:
    files = {"_pages/about.md": "---\nlayout: about\npermalink: /\nprofile:\n  align: right\n---\n"
                                "I am an Assistant Professor at Hillcrest University.\n",
             "_data/cv.yml": "- title: Languages\n  type: list\n  contents:\n    - English\n",
             "_news/a.md": "---\ndate: 2025-01-02\n---\nHello."}
    roles = [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=files)) if r.kind == "role"]
    assert roles == [Role(title="Assistant Professor", organization="Hillcrest University")]


def test_a_group_page_written_by_hand_lists_the_members_when_no_data_file_does() -> None:
    group = """---
layout: page
permalink: /group/
title: group
---

We are a small group working on tactile sensing.

### Current Members

**PhD Students**

* [Rohan Bhatt](https://rb.example.io/) (2021&ndash;) &mdash; learning from tactile sequences
* Teresa Okonjo (2022&ndash;), co-advised with [Prof. Wen Liao](#) &mdash; tactile simulation

### Alumni

* Yuhan Chen (MS 2023) &rarr; PhD student at University of Vestland
"""
    files = {"_pages/about.md": "---\npermalink: /\n---\nI am a professor.\n", "_pages/group.md": group,
             "_news/a.md": "---\ndate: 2024-01-02\ninline: true\n---\nHello.\n"}
    members = [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=files)) if r.kind == "member"]
    assert [(m.name, m.role) for m in members] == [
        ("Rohan Bhatt", "PhD Student"), ("Teresa Okonjo", "PhD Student"),
        ("Yuhan Chen", "Alumni (now PhD student at University of Vestland)"),
    ]
    # A page that is not about the people (a project description naming students) lists no members.
    files["_pages/group.md"] = group.replace("title: group", "title: projects").replace("permalink: /group/", "")
    renamed = {("_pages/projects.md" if p == "_pages/group.md" else p): t for p, t in files.items()}
    assert not [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=renamed)) if r.kind == "member"]


def test_a_profiles_page_lists_its_people_in_front_matter_and_its_alumni_in_its_body() -> None:
    people = """---
layout: profiles
title: people
profiles:
  - align: right
    image: people/ines.jpg
    name: Ines Varga
    position: Professor &amp; Principal Investigator
  - align: left
    image: people/tom.jpg
    name: Tomas Hart
    position: PhD Student
---
## Alumni
- **Dr. Lucia Farrant** (PhD 2025) — now Postdoctoral Fellow, Brightmoor Institute
"""
    files = {"_pages/people.md": people, "_bibliography/papers.bib": "@article{a, title={Folding}, year={2024}}",
             "_config.yml": "scholar:\n  style: apa\n"}
    members = [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=files)) if isinstance(r, Member)]
    assert [(m.name, m.role) for m in members] == [
        ("Ines Varga", "Professor & Principal Investigator"), ("Tomas Hart", "PhD Student"),
        ("Lucia Farrant", "Alumni (now Postdoctoral Fellow, Brightmoor Institute)"),
    ]


def test_a_people_page_s_members_and_alumni_lists_in_front_matter_are_its_people() -> None:
    people = """---
layout: page
title: people
members:
  - name: "Ines Varga"
    role: Associate Professor & PI
    group: pi
  - name: "Tomas Hart"
    role: PhD Student
    group: phd
alumni:
  - name: "Lucia Farrant"
    degree: PhD 2025
    now: Research Scientist, Polaris Vision
---
{% for m in page.members %}{{ m.name }}{% endfor %}
"""
    files = {"_pages/people.md": people, "_bibliography/papers.bib": "@article{a, title={Folding}, year={2024}}",
             "_config.yml": "scholar:\n  style: apa\n"}
    members = [r for r in AlfolioExtractor().parse(Document(url="github:o/r", files=files)) if isinstance(r, Member)]
    assert [m.name for m in members] == ["Ines Varga", "Tomas Hart", "Lucia Farrant"]
    assert members[1].role == "PhD Student" and "Polaris Vision" in (members[2].role or "")
