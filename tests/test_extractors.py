"""Every extractor's recorded cases: the fixture parses to exactly the reviewed output,
and routing picks the extractor for the URLs it must claim and not for the ones it rejects."""

from __future__ import annotations

import json

import pytest

from extractors.base import Case, Extractor
from extractors.cases import all_cases, case_document, expected_path, run_case
from watcher.extract import choose_extractor
from watcher.records import Document

CASES = list(all_cases())


def _id(pair: tuple[Extractor, Case]) -> str:
    return f"{pair[0].name}:{pair[1].fixture}"


@pytest.mark.parametrize("pair", CASES, ids=[_id(p) for p in CASES])
def test_case_output_matches_recorded(pair: tuple[Extractor, Case]) -> None:
    extractor, case = pair
    expected = json.loads(expected_path(case).read_text(encoding="utf-8"))
    assert run_case(extractor, case) == expected


@pytest.mark.parametrize("pair", CASES, ids=[_id(p) for p in CASES])
def test_auto_routing_picks_the_extractor(pair: tuple[Extractor, Case]) -> None:
    extractor, case = pair
    chosen, _reason = choose_extractor(case_document(case))
    assert chosen.name == extractor.name


@pytest.mark.parametrize("pair", [p for p in CASES if p[1].claims or p[1].rejects], ids=_id)
def test_url_claims(pair: tuple[Extractor, Case]) -> None:
    extractor, case = pair
    for url in case.claims:
        assert extractor.claims_url(url), url
    for url in case.rejects:
        assert not extractor.claims_url(url), url


def test_every_extractor_has_cases() -> None:
    names = {e.name for e, _ in CASES}
    from extractors import REGISTRY

    missing = [e.name for e in REGISTRY if e.name not in names]
    assert not missing, f"extractors without recorded cases: {missing}"


def test_empty_document_gives_no_records() -> None:
    from extractors import REGISTRY

    for extractor in REGISTRY:
        assert extractor.parse(Document(url="https://example.org/", text="")) == []


def test_registry_versions_are_the_extractors_versions() -> None:
    from extractors import REGISTRY, VERSIONS, by_name, version_of

    assert [e.name for e in REGISTRY] == list(VERSIONS)
    for extractor in REGISTRY:
        assert extractor.version == VERSIONS[extractor.name] == version_of(extractor.name)
        assert by_name(extractor.name) is extractor
    assert version_of("no-such-extractor") is None and by_name("no-such-extractor") is None


def test_a_recheck_does_not_import_the_extractors() -> None:
    # The 304 path compares versions only: importing every extractor was a fifth of its start-up.
    import subprocess
    import sys

    code = (
        "import sys, watcher.pipeline, watcher.cli\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('extractors.') and m != 'extractors.base')\n"
        "print(','.join(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_a_weighed_reading_of_bare_titles_gives_way_to_a_shared_one_that_tells_their_venues() -> None:
    from extractors.base import with_shared_reading
    from watcher.records import Paper

    bare = [Paper(title=f"Sea-ice study number {n}") for n in range(22)]
    told = [Paper(title=f"Sea-ice study number {n}", venue="Journal of Climate", year=2024) for n in range(30)]
    assert with_shared_reading(bare, told) == told
    # As many titles told as fully stay the family's own.
    full = [Paper(title=f"Sea-ice study number {n}", venue="J. Climate", year=2024) for n in range(22)]
    assert with_shared_reading(full, told) == full


def test_a_weighed_reading_that_misses_every_year_gives_way_to_one_that_tells_them() -> None:
    from extractors.base import with_shared_reading
    from watcher.records import Paper

    authors = ("Ana Nwosu", "Tomas Lind")
    undated = [Paper(title=f"Legged robot study {n}", venue="IRAC", authors=authors) for n in range(30)]
    dated = [Paper(title=f"Legged robot study {n}", venue="IRAC", authors=authors, year=2025) for n in range(30)]
    assert with_shared_reading(undated, dated) == dated
    # A detail told of a few is no reason.
    few = [*dated[:5], *undated[5:]]
    assert with_shared_reading(undated, few) == undated


def test_a_thin_family_reading_takes_the_shared_reading_kind_by_kind() -> None:
    from extractors.base import with_shared_reading
    from watcher.records import NewsItem, Paper, Role

    own = [Role(title="Postdoc", organization="Tidewater University"), Paper(title="Kelp forest carbon budgets")]
    shared = [
        Role(title="Postdoc"),
        *(Paper(title=f"Kelp study {n}", year=2020 + n) for n in range(5)),
        NewsItem(date="2026-05-01", text="Our kelp paper is out"),
    ]
    merged = with_shared_reading(own, shared)
    # Its own role stays (it read one); papers and news come from the shared reading (1 against 5; none).
    assert [r.kind for r in merged].count("paper") == 5
    assert own[0] in merged and Role(title="Postdoc") not in merged
    assert any(isinstance(r, NewsItem) for r in merged)
