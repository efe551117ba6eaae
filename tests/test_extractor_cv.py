"""The CV reader on the shared seed pages (when present) and routing of text CVs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from extractors.cv import CvExtractor, read_cv_blocks
from watcher.extract import choose_extractor
from watcher.records import Document

SEEDS = Path("/work/shared/seeds")
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="shared seed pages not present on this machine")


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
