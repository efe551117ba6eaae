"""al-folio reading beyond the recorded cases: biography positions, awards, detection, better source."""

from __future__ import annotations

import pytest

from extractors.alfolio import AlfolioExtractor, read_awards, read_positions
from watcher.records import Award, Document, Role


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


def test_detection_of_sources_pages_and_rendered_html() -> None:
    extractor = AlfolioExtractor()
    assert extractor.detect(Document(url="github:o/r", files={"_news/a.md": "---\n---\nhi"}))
    assert extractor.detect(Document(url="github:o/r", files={"_config.yml": "scholar:\n  style: apa\n"}))
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
