"""The generic reader on odd inputs and on the seed pages (when the shared seeds are present)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from extractors.generic import (
    GenericExtractor,
    parse_award_line,
    parse_news_line,
    parse_paper_entry,
    parse_role_line,
    read_bio_roles,
    read_markdown_sections,
)
from watcher.extract import extract_records
from watcher.records import Document, Role

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seed pages not present on this machine")


def _seed(prefix: str) -> Document:
    path = next(SEEDS.glob(f"{prefix}_*.txt"))
    text = path.read_text(encoding="utf-8")
    return Document(
        url=path.as_uri(), text=text, content_type="text/markdown" if text.startswith("---") else "text/plain"
    )


# The seeds as a user adds them: routed to the extractor that claims them (cv, al-folio,
# academicpages), with the counts of items a person reads in them (shared/seeds/README.md).


@needs_seeds
def test_seed_002_positions_and_papers() -> None:
    counts = Counter(r.kind for r in extract_records(_seed("002")).records)
    assert counts["role"] == 8 and counts["paper"] == 5


@needs_seeds
def test_seed_003_biography_roles_and_awards() -> None:
    records = extract_records(_seed("003")).records
    counts = Counter(r.kind for r in records)
    assert counts["role"] == 3 and counts["award"] == 4
    assert {getattr(r, "start", None) for r in records if r.kind == "role"} == {"2024", "2022", "2020"}


@needs_seeds
def test_seed_004_experiences_and_projects() -> None:
    counts = Counter(r.kind for r in extract_records(_seed("004")).records)
    assert counts["role"] == 8 and counts["paper"] == 7


def test_role_line_shapes() -> None:
    role = parse_role_line("* 2023/06 - Present Principal Research Scientist, **Acme Labs**.")
    assert role is not None and (role.title, role.organization, role.start, role.end) == (
        "Principal Research Scientist",
        "Acme Labs",
        "2023-06",
        None,
    )
    role = parse_role_line("Orbital, Research Scientist, 2020-2021")
    assert role is not None and (role.title, role.organization, role.start, role.end) == (
        "Research Scientist",
        "Orbital",
        "2020",
        "2021",
    )
    role = parse_role_line("Research Intern, Quillon (2020)")
    assert role is not None and (role.title, role.organization, role.start) == ("Research Intern", "Quillon", "2020")
    assert parse_role_line("I enjoy hiking in the mountains with friends and family every weekend.") is None


def test_news_dates_in_many_formats() -> None:
    assert parse_news_line("[Sept 2025] Joined the board.").date == "2025-09"  # type: ignore[union-attr]
    assert parse_news_line("**2026-02-10**: Paper accepted.").date == "2026-02-10"  # type: ignore[union-attr]
    assert parse_news_line("Jan 5, 2024 - Talk at a workshop").date == "2024-01-05"  # type: ignore[union-attr]
    assert parse_news_line("No date here at all") is None


def test_award_and_paper_lines() -> None:
    award = parse_award_line("[Open Science Prize](https://x.example/), Example Society, 2021: for tools")
    assert award is not None and (award.title, award.organization, award.year) == (
        "Open Science Prize",
        "Example Society",
        2021,
    )
    paper = parse_paper_entry("[2] Sparse Things at Scale. ICML 2021. https://arxiv.org/abs/2102.03161")
    assert paper is not None and paper.title == "Sparse Things at Scale" and paper.arxiv == "2102.03161"
    assert paper.year == 2021 and paper.venue == "ICML"


def test_biography_sentences() -> None:
    roles = read_bio_roles(
        "Since 2024, I have been leading the Data Team at Acme Corp, where I build things. "
        "I received my Ph.D. from Example University in 2020."
    )
    assert [(r.title, r.organization, r.start) for r in roles] == [("Data Team Lead", "Acme Corp", "2024")]


def test_noise_and_odd_inputs_give_no_items() -> None:
    extractor = GenericExtractor()
    for text in ("", "<html><body><p>Last updated: May 2026</p></body></html>", "<<<>>>", "---\n---\n", "# \n\n*"):
        assert extractor.parse(Document(url="https://x.example/", text=text)) == []


def test_markdown_subheadings_inherit_the_section_kind() -> None:
    sections = read_markdown_sections("## Publications\n### 2025\n- A Paper Title Here. *Venue 2025*.\n")
    assert [s.kind for s in sections] == ["paper", "paper"]


def test_a_role_named_in_the_bio_and_in_a_dated_list_is_kept_once_with_its_dates() -> None:
    text = (
        "# Mara Lind\n\nI am a research engineer at Northwind AI.\n\n## Experience\n"
        "* 2024/03 - Present Research Engineer, **Northwind AI**\n"
        "* 2019/09 - 2024/02 PhD Student, **Corvin University**\n"
    )
    doc = Document(url="file:///m.md", text=text, content_type="text/markdown")
    roles = [r for r in GenericExtractor().parse(doc) if isinstance(r, Role)]
    assert [(r.title, r.organization, r.start) for r in roles] == [
        ("Research Engineer", "Northwind AI", "2024-03"),
        ("PhD Student", "Corvin University", "2019-09"),
    ]


def test_plain_text_list_item_continues_only_mid_sentence() -> None:
    text = (
        "Research\n"
        "\n"
        "- Sparse dictionaries for the features behind\n"
        "hallucinated answers, with Ben Ode.\n"
        "- Routing rules for mixture-of-experts layers.\n"
        "Since then, I have moved to robotics.\n"
        "- Posts on Optimal Transport\n"
        "https://example.org/posts/ot\n"
    )
    entries = [e for section in read_markdown_sections(text, plain=True) for e in section.entries]
    assert [(" ".join(e.lines), e.bullet) for e in entries] == [
        ("Sparse dictionaries for the features behind hallucinated answers, with Ben Ode.", True),
        ("Routing rules for mixture-of-experts layers.", True),
        ("Since then, I have moved to robotics.", False),
        ("Posts on Optimal Transport https://example.org/posts/ot", True),
    ]
