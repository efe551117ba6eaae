"""The CV reader on the shared seed pages (when present) and routing of text CVs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from extractors.cases import FIXTURES
from extractors.cv import CvExtractor, read_cv_blocks
from watcher.diff import StoredItem, diff_items
from watcher.extract import choose_extractor
from watcher.normalise import normalise_records
from watcher.records import Document, Record, record_fields

# The shared seed pages sit beside the checkout (../shared/seeds), as the corpus does.
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"shared seed pages not present ({SEEDS})")


def _seed(prefix: str) -> Document:
    path = next(SEEDS.glob(f"{prefix}_*.txt"))
    return Document(url=path.as_uri(), text=path.read_text(encoding="utf-8"), content_type="text/plain")


@needs_seeds
def test_seed_002_routes_to_cv_with_positions_and_papers() -> None:
    doc = _seed("002")
    assert choose_extractor(doc)[0].name == "cv"
    counts = Counter(r.kind for r in CvExtractor().parse(doc))
    assert counts["role"] == 8 and counts["paper"] == 5


@needs_seeds
def test_seed_001_one_role_per_position_block() -> None:
    records = CvExtractor().parse(_seed("001"))
    roles = [r for r in records if r.kind == "role"]
    assert len(roles) >= 10
    assert any(r.title == "Research Intern" and r.start == "2024-03" for r in roles)


def test_undated_block_with_advisor_is_a_position() -> None:
    text = "Lab A Jan. 2020 - Feb. 2021\nEngineer Oslo, Norway\nAdvisor: X\nVisiting Student Rome, Italy\nAdvisor: Y\n"
    titles = [r.title for r in read_cv_blocks(text) if r.kind == "role"]
    assert titles == ["Engineer", "Visiting Student"]


@needs_seeds
def test_seed_000_about_text_gives_its_research_directions_and_blog_series() -> None:
    doc = _seed("000")
    assert choose_extractor(doc)[0].name == "cv"
    news = [r.text for r in CvExtractor().parse(doc) if r.kind == "news"]
    assert len(news) == 7
    assert "Blogs on Triton Programming" in news
    assert not any("new tab" in text for text in news)
    # The third direction ends its own line: the prose after it is not part of it.
    assert any(text.startswith("Provide theoretical guidelines") and text.endswith("models.") for text in news)


def _about(text: str) -> list[Record]:
    doc = Document(url="https://example.org/people/ada-quill/about.txt", text=text, content_type="text/plain")
    return normalise_records(CvExtractor().parse(doc))


def test_a_new_blog_series_on_an_about_text_is_one_added_item_and_a_dropped_link_hint_is_nothing() -> None:
    page = (FIXTURES / "cv" / "about.txt").read_text(encoding="utf-8")
    before = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in _about(page)]
    added = page + "- Posts on Numerical Linear Algebra (opens in new tab)\n"
    result = diff_items(before, _about(added))
    assert [(c.change, c.kind, c.after["text"]) for c in result.changes] == [
        ("added", "news", "Posts on Numerical Linear Algebra")
    ]
    reexported = page.replace(" (opens in new tab)", "")
    assert diff_items(before, _about(reexported)).changes == ()
