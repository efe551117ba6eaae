"""The normalise stage: cleaning fields, dropping empty records, merging duplicates."""

from __future__ import annotations

from watcher.normalise import merge_records, normalise_records
from watcher.records import Award, Member, NewsItem, Paper, Role


def test_paper_fields_are_cleaned() -> None:
    [paper] = normalise_records(
        [
            Paper(
                title='  "Sparse\u00a0Voxel   Fields."  ',
                authors=(" Mira  Okafor ", "", "Tomas Lind,"),
                venue=" ICLR\n2026 ",
                year="2026",  # type: ignore[arg-type]  # extractors sometimes pass the text
                doi="https://doi.org/10.5555/ABC.123",
                arxiv="arXiv:2601.01234v3",
            )
        ]
    )
    assert paper == Paper(
        title="Sparse Voxel Fields",
        authors=("Mira Okafor", "Tomas Lind"),
        venue="ICLR 2026",
        year=2026,
        doi="10.5555/abc.123",
        arxiv="2601.01234",
    )
    assert paper.key == "doi:10.5555/abc.123"


def test_identifiers_come_from_links_when_missing() -> None:
    [by_arxiv, by_doi] = normalise_records(
        [
            Paper(title="One", url="https://arxiv.org/abs/2602.04567v2"),
            Paper(title="Two", url="https://doi.org/10.1145/XYZ.9"),
        ]
    )
    assert by_arxiv.key == "arxiv:2602.04567"
    assert by_doi.key == "doi:10.1145/xyz.9"


def test_author_line_given_as_text_is_split() -> None:
    [paper] = normalise_records([Paper(title="T", authors="Ana Ruiz, Li Wei and Sam Hart")])  # type: ignore[arg-type]
    assert paper.authors == ("Ana Ruiz", "Li Wei", "Sam Hart")


def test_dates_become_iso_when_they_parse() -> None:
    news, role = normalise_records(
        [
            NewsItem(text=" Talk at  the workshop ", date="Sep 02, 2026"),
            Role(title="Postdoc", organization=" Kestrel  Institute ", start="10/2024", end="Present"),
        ]
    )
    assert news == NewsItem(text="Talk at the workshop", date="2026-09-02")
    assert role == Role(title="Postdoc", organization="Kestrel Institute", start="2024-10", end=None)
    [odd] = normalise_records([Role(title="Visiting student", start=" Spring  2026 ")])
    assert isinstance(odd, Role) and odd.start == "Spring 2026"


def test_records_without_primary_text_are_dropped() -> None:
    kept = normalise_records(
        [
            Paper(title="  "),
            NewsItem(text="\u200b", date="2026-01-01"),
            Member(name=""),
            Award(title="Best Paper", year=2025),
            Role(title=" "),
        ]
    )
    assert kept == [Award(title="Best Paper", year=2025)]


def test_duplicate_news_rows_merge_into_the_first_position() -> None:
    records = normalise_records(
        [
            NewsItem(date="Sep 11, 2025", text="Paper accepted to SIGGRAPH Asia 2025"),
            NewsItem(date="2025-08-01", text="Joined the lab"),
            NewsItem(date="2025-09-11", text="Paper accepted to  SIGGRAPH Asia 2025!", url="https://x.example/p"),
        ]
    )
    assert [r.key for r in records] == ["2025-09-11|paper accepted to siggraph asia 2025", "2025-08-01|joined the lab"]
    # The richer row wins and keeps its own wording; its link is kept.
    assert records[0] == NewsItem(
        date="2025-09-11", text="Paper accepted to SIGGRAPH Asia 2025!", url="https://x.example/p"
    )


def test_paper_listed_twice_merges_even_when_only_one_copy_has_a_doi() -> None:
    records = normalise_records(
        [
            Paper(title="Fast Things", venue="NeurIPS 2025", authors=("A B",)),
            Paper(title="Other"),
            Paper(title="Fast things.", doi="10.1/FAST", year=2025),
        ]
    )
    assert len(records) == 2
    merged = records[0]
    assert isinstance(merged, Paper)
    assert merged.doi == "10.1/fast" and merged.venue == "NeurIPS 2025" and merged.year == 2025
    assert merged.authors == ("A B",)


def test_same_title_with_different_dois_stays_two_papers() -> None:
    records = normalise_records(
        [Paper(title="Fast Things", doi="10.1/workshop"), Paper(title="Fast Things", doi="10.1/journal")]
    )
    assert [r.key for r in records] == ["doi:10.1/workshop", "doi:10.1/journal"]


def test_merge_prefers_the_record_with_more_fields() -> None:
    poor = Member(name="Ada Kim", url="https://ada.example")
    rich = Member(name="Ada Kim", role="PhD student", url="https://ada.example/me")
    assert merge_records(poor, rich) == rich
    assert merge_records(Member(name="Ada Kim", role="Alumni"), Member(name="Ada Kim", url="u")) == Member(
        name="Ada Kim", role="Alumni", url="u"
    )


def test_two_stints_of_one_role_stay_apart_but_an_undated_mention_merges() -> None:
    from watcher.records import Role

    records = normalise_records(
        [
            Role(title="Research Intern", organization="Lumen Labs", start="2014-05", end="2014-08"),
            Role(title="Research Intern", organization="Lumen Labs", start="2015-05", end="2015-08"),
            Role(title="Staff Scientist", organization="Lumen Labs"),
            Role(title="Staff Scientist", organization="Lumen Labs", start="2020-01"),
        ]
    )
    assert [(r.title, r.start) for r in records] == [
        ("Research Intern", "2014-05"),
        ("Research Intern", "2015-05"),
        ("Staff Scientist", "2020-01"),
    ]
    assert len({r.key for r in records}) == 3


def test_a_preprint_entry_kept_beside_its_published_version_stays_apart() -> None:
    preprint = Paper(title="Sparse Lexicons for Parsing", venue="arXiv preprint", year=2023)
    published = Paper(title="Sparse Lexicons for Parsing", venue="EMNLP 2024", year=2024, doi="10.1000/lex.2024")
    assert [p.venue for p in normalise_records([preprint, published])] == ["arXiv preprint", "EMNLP 2024"]
    # The same paper listed twice on one page, once with its DOI link, is one item.
    linked = Paper(title="Sparse Lexicons for Parsing", venue="EMNLP 2024", doi="10.1000/lex.2024")
    plain = Paper(title="Sparse Lexicons for Parsing", venue="EMNLP 2024", year=2024)
    (merged,) = normalise_records([plain, linked])
    assert (merged.doi, merged.year) == ("10.1000/lex.2024", 2024)


def test_an_identifier_two_unlike_titles_share_identifies_neither() -> None:
    # An entry copied with its links: two papers, told apart by title, each keeping its other details.
    records = normalise_records([
        Paper(title="Tidal Maps from Sparse Gauges", arxiv="2410.05939", venue="arXiv"),
        Paper(title="Reef Sound Classification with Small Models", arxiv="2410.05939", venue="ICASSP 2025"),
        Paper(title="Storm Surge Forecasts", doi="10.5555/surge.1"),
    ])
    assert [r.key for r in records] == [
        "title:tidal maps from sparse gauges",
        "title:reef sound classification with small models",
        "doi:10.5555/surge.1",
    ]
    assert records[1].venue == "ICASSP 2025"


def test_one_paper_listed_twice_with_its_identifier_is_still_one() -> None:
    records = normalise_records([
        Paper(title="Tidal Maps from Sparse Gauges", arxiv="2410.05939"),
        Paper(title="Tidal maps from sparse gauges.", arxiv="2410.05939", venue="ICML 2025"),
    ])
    assert len(records) == 1 and records[0].key == "arxiv:2410.05939" and records[0].venue == "ICML 2025"
