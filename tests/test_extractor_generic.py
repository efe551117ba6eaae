"""The generic extractor on odd inputs and on the seed pages (when the shared seeds are present)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from extractors.generic import GenericExtractor
from watcher.extract import extract_records
from watcher.records import Document, Paper, Role

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


def test_noise_and_odd_inputs_give_no_items() -> None:
    extractor = GenericExtractor()
    for text in ("", "<html><body><p>Last updated: May 2026</p></body></html>", "<<<>>>", "---\n---\n", "# \n\n*"):
        assert extractor.parse(Document(url="https://x.example/", text=text)) == []


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


def test_a_repository_bundle_reads_its_markdown_pages() -> None:
    doc = Document(
        url="github:ex/site",
        files={"people.md": "## Students\n- Jane Doe\n- John Roe\n", "_config.yml": "title: x\n"},
        content_type="application/x-repository",
    )
    extraction = extract_records(doc, "generic", explain=True)
    assert [(r.kind, getattr(r, "name", "")) for r in extraction.records] == [
        ("member", "Jane Doe"),
        ("member", "John Roe"),
    ]
    assert extraction.lists[0].where == "people.md: Students"


def test_embedded_citation_metadata_takes_the_fields_it_lacks_from_the_page() -> None:
    from extractors.generic import records_from_html

    entry = """<div class="biblio-entry"><span class="biblio-title"><a href="/n/{0}">{1}</a></span> {2} ({3}).
    <i>{4}</i>, 12(3), 45-60.<span class="Z3988" title="ctx_ver=Z39.88-2004&amp;rft.atitle={5}&amp;rft.aulast={6}
    &amp;rft.date={3}"></span></div>"""
    html = "<h2>Publications</h2>" + entry.format(
        1, "Low-cost optical sensors for tidal flats", "Nwosu, A., and Brandt, K.", 2025, "Estuarine Science",
        "Low-cost+optical+sensors+for+tidal+flats", "Nwosu",
    ) + entry.format(
        2, "Tidal asymmetry in small estuaries", "Brandt, K.", 2024, "Coastal Dynamics",
        "Tidal+asymmetry+in+small+estuaries", "Brandt",
    )
    papers = [r for r in records_from_html(html) if isinstance(r, Paper)]
    assert [(p.title, p.venue, p.year) for p in papers] == [
        ("Low-cost optical sensors for tidal flats", "Estuarine Science", 2025),
        ("Tidal asymmetry in small estuaries", "Coastal Dynamics", 2024),
    ]
