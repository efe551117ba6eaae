"""The Pure profile reader on odd inputs."""

from __future__ import annotations

from extractors.profile import ProfileExtractor
from watcher.records import Document


def test_output_without_title_is_skipped() -> None:
    html = (
        '<meta name="generator" content="Pure 5"><div class="rendering_researchoutput">'
        '<span class="date">2024</span></div>'
    )
    doc = Document(url="https://p.example/en/publications/", text=html)
    assert ProfileExtractor().detect(doc) is not None
    assert ProfileExtractor().parse(doc) == []
