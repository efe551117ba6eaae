"""BibTeX reading beyond the recorded cases: odd input fails softly, names and ids come out clean."""

from __future__ import annotations

import logging

import pytest

from extractors.bibtex import BibtexExtractor, bibtex_entries, bibtex_names, latex_to_text, parse_bibtex, read_bibtex
from watcher.diff import StoredItem, diff_items
from watcher.records import Award, Document, record_fields


def test_garbage_and_empty_text_give_no_papers() -> None:
    assert parse_bibtex("") == []
    assert parse_bibtex("not bibtex at all { } @@@ }}}") == []
    assert parse_bibtex("@article{x, title = {Unclosed") == []


def test_a_broken_entry_does_not_hide_the_others() -> None:
    text = (
        "@article{a, title={First Paper}, year={2020}}\n"
        "@article{b, title = {Broken, author = {X, Y},\n"
        "@article{c, title={Third Paper}, year={2022}}\n"
    )
    titles = [p.title for p in parse_bibtex(text)]
    assert "First Paper" in titles and "Third Paper" in titles


def test_duplicate_keys_are_both_read() -> None:
    text = "@misc{k, title={One}}\n@misc{k, title={Two}}\n"
    assert [p.title for p in parse_bibtex(text)] == ["One", "Two"]


def test_macros_strings_and_joins_are_resolved_in_file_order() -> None:
    text = """@string{icml = "Proc. ICML"}
    @inproceedings{a, title = "Cat " # {Dog}, booktitle = icml # " 2020", year = 2020, month = oct # {~5}}
    @string{icml = "ICML"}
    @inproceedings{b, title = {Later}, booktitle = icml, month = sept}"""
    assert [(p.title, p.venue, p.year) for p in parse_bibtex(text)] == [
        ("Cat Dog", "Proc. ICML 2020", 2020), ("Later", "ICML", None)
    ]
    assert [e["month"] for e in bibtex_entries(text)] == ["October~5", "sept"]  # a macro nobody defined: its name


def test_an_entry_counts_where_it_opens_a_line_or_follows_one_and_a_broken_one_is_skipped() -> None:
    text = """\ufeff% @article{hidden, title={Commented Out}}
    @article{a, title={First Title}, title={Second Title}}  @misc{b, title={Same Line}}
    @comment{x} @misc{c, title={Swallowed By The Comment}}
    @ misc {d, title={Spaced Out}}
    @misc{e}
    @misc{f, title={Junk} after, year=2020}"""
    assert [p.title for p in parse_bibtex(text)] == ["First Title", "Same Line", "Spaced Out"]


def test_the_parser_s_warnings_on_malformed_blocks_are_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert [p.title for p in parse_bibtex("@article{a, title {x}}\n@article{b, title={Fine}}")] == ["Fine"]
    assert not caplog.records


def test_names_in_every_bibtex_form() -> None:
    assert bibtex_names("Doe, Jane and John {van Dam} and others") == ("Jane Doe", "John van Dam")
    assert bibtex_names("Lee*, Kim and Park†, Min") == ("Kim Lee", "Min Park")


def test_latex_is_turned_into_text() -> None:
    assert latex_to_text(r"{\"U}ber \textbf{Fast} {G}raphs \& Trees") == "Über Fast Graphs & Trees"


def test_rare_latex_is_read_as_text_and_a_bare_percent_or_ampersand_stays_text() -> None:
    assert latex_to_text(r"$k$-means for $\alpha$-shapes in \LaTeX") == "k-means for α-shapes in LaTeX"
    assert latex_to_text(r"50% less \& leaner in \textsuperscript{th} R&D \ldots") == "50% less & leaner in th R&D …"
    assert latex_to_text(r"\url{https://example.org/a_b}") == "https://example.org/a_b"


def test_arxiv_from_eprint_but_not_from_other_archives() -> None:
    arxiv = parse_bibtex("@misc{a, title={A}, eprint={2401.00001}, archivePrefix={arXiv}}")[0]
    other = parse_bibtex("@misc{b, title={B}, eprint={hal-0001}, archivePrefix={HAL}}")[0]
    assert arxiv.arxiv == "2401.00001"
    assert other.arxiv is None


def test_venue_falls_back_to_abbr_and_doi_comes_from_links() -> None:
    paper = parse_bibtex("@misc{a, title={A}, abbr={CoRL}, html={https://doi.org/10.1234/ABC.5}}")[0]
    assert paper.venue == "CoRL"
    assert paper.doi == "10.1234/abc.5"


def test_detection() -> None:
    extractor = BibtexExtractor()
    assert extractor.detect(Document(url="https://x.org/a", text="% refs\n@article{a, title={A}}"))
    assert extractor.detect(Document(url="https://x.org/a", text="<html>@article{</html>")) is None
    assert extractor.detect(Document(url="github:o/r", files={"a.bib": "", "README.md": ""})) is None
    assert extractor.claims_url("https://x.org/papers.bib")


def test_an_entry_s_award_field_is_an_award_given_by_its_venue_and_a_presentation_badge_is_not() -> None:
    text = """@inproceedings{a, title={Quiet Rooms}, booktitle={ICML}, year={2024},
      award_name={Outstanding Paper}, award={This paper received the Outstanding Paper Award at ICML 2024.}}
    @inproceedings{b, title={Loud Rooms}, booktitle={CHI}, year={2023},
      award={This paper received the Best Paper Honorable Mention at CHI 2023.}}
    @inproceedings{c, title={Dim Rooms}, booktitle={NeurIPS}, year={2022}, award_name={Spotlight}}"""
    papers, awards = read_bibtex(text)
    assert [p.title for p in papers] == ["Quiet Rooms", "Loud Rooms", "Dim Rooms"]
    assert awards == [
        Award(title="Outstanding Paper", organization="ICML", year=2024),
        Award(title="Best Paper Honorable Mention", organization="CHI", year=2023),
    ]


def test_where_a_paper_stands_is_part_of_its_venue_and_its_going_to_press_is_told() -> None:
    entry = "@article{{a, title={{Tactile Estimation}}, author={{Achterberg, Lena}}, journal={{IEEE Trans X}}, {}}}"
    upcoming = read_bibtex(entry.format("year={2025}, note={to appear}"))[0]
    pending = read_bibtex(entry.format("year={2025}, pubstate={inpress}"))[0]
    noted = read_bibtex(entry.format("year={2025}, note={Equal contribution}"))[0]
    printed = read_bibtex(entry.format("year={2025}, volume={9}, pages={1120--1134}"))[0]
    assert [p.venue for p in (*upcoming, *pending, *noted, *printed)] == [
        "IEEE Trans X, to appear", "IEEE Trans X, in press", "IEEE Trans X", "IEEE Trans X"
    ]
    change = diff_items([StoredItem(kind="paper", key=upcoming[0].key, fields=record_fields(upcoming[0]))], printed)
    assert [(c.change, c.delta) for c in change.changes] == [
        ("modified", {"venue": {"old": "IEEE Trans X, to appear", "new": "IEEE Trans X"}})
    ]
