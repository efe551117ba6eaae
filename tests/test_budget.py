"""The reading budget: big and hostile pages are read in part within their size, and no page
reads for longer than its time limit."""

from __future__ import annotations

import re
import time

import pytest

from watcher.budget import MAX_DEPTH, ReadSettings, bound_document, check_deadline, read_within, reading_deadline
from watcher.errors import ExtractionError, ReadingTimeout
from watcher.extract import extract_records
from watcher.records import Document, Paper

HEAD = "<html><head><title>Ada Quill</title></head><body><h1>Ada Quill</h1><h2>Publications</h2><ul>"
PAPERS = "".join(
    f"<li><b>Lattice Fields {n}: Sparse Radiance Grids for Dunes</b>. Ada Quill, Tomas Reyes. <i>CVPR 2025</i>.</li>"
    for n in range(5)
)


def html(body: str) -> Document:
    return Document(url="https://quill.example.org/", text=body, content_type="text/html")


def titles(records: object) -> list[str]:
    return [r.title for r in records if isinstance(r, Paper)]  # type: ignore[attr-defined]


def test_a_page_within_the_budget_is_read_whole() -> None:
    doc = html(HEAD + PAPERS + "</ul><script>var x = 1;</script></body></html>")
    assert bound_document(doc, ReadSettings()) == (doc, ())


def test_a_page_of_a_million_tiny_elements_is_read_in_part() -> None:
    page = HEAD + PAPERS + "</ul><div>" + "<span>x</span>" * 700_000 + "</div></body></html>"
    extraction = read_within(html(page), "auto", ReadSettings())
    assert len(titles(extraction.records)) == 5
    (note,) = extraction.notes
    assert note.startswith("read in part: the first ") and f"of {len(page):,} characters" in note


def test_scripts_styles_and_comments_are_dropped_before_the_page_is_cut() -> None:
    noise = "<script>" + "<b>" * 500 + "</script><style>p{}</style><!-- " + "<i>" * 500 + " -->"
    page = HEAD + noise + PAPERS + "</ul></body></html>"
    bounded, notes = bound_document(html(page), ReadSettings(max_elements=200))
    assert notes == () and bounded.text == HEAD + PAPERS + "</ul></body></html>"
    # A script left open runs to the end of the page, as a browser reads it.
    bounded, _ = bound_document(html(HEAD + PAPERS + "<SCRIPT>" + "<b>" * 500), ReadSettings(max_elements=200))
    assert bounded.text == HEAD + PAPERS


def test_markup_is_cut_at_a_tags_start() -> None:
    page = HEAD + PAPERS + "</ul>" + "<p>Talk at the dune meeting</p>" * 100
    bounded, (note,) = bound_document(html(page), ReadSettings(max_elements=60))
    assert bounded.text.count("<") == 59 and page.startswith(bounded.text) and page[len(bounded.text)] == "<"
    assert "read in part" in note


def test_nesting_past_the_depth_cap_is_left_out() -> None:
    levels = MAX_DEPTH * 3
    page = HEAD + PAPERS + "</ul>" + "<div>a" * levels + "</div>" * levels + "</body></html>"
    bounded, (note,) = bound_document(html(page), ReadSettings())
    assert bounded.text.count("<div>") == MAX_DEPTH and "read in part" in note
    # Elements whose end tag may be left out do not count as nesting.
    flat = HEAD + "<li>a" * (MAX_DEPTH * 3) + "</ul></body></html>"
    assert bound_document(html(flat), ReadSettings())[1] == ()


def test_text_is_cut_at_a_lines_end() -> None:
    text = "# Ada Quill\n\n## News\n\n" + "".join(f"* 2025-01-{n % 28 + 1:02d}: seminar {n}\n" for n in range(500))
    doc = Document(url="file:///news.md", text=text, content_type="text/markdown")
    bounded, (note,) = bound_document(doc, ReadSettings(max_lines=100))
    assert bounded.text.count("\n") == 100 and bounded.text.endswith("\n") and text.startswith(bounded.text)
    bounded, _ = bound_document(doc, ReadSettings(max_chars=1000))
    assert len(bounded.text) <= 1000 and bounded.text.endswith("\n")
    assert note.startswith("read in part")


def test_a_bundles_files_are_each_cut() -> None:
    files = {"_pages/about.md": "# Ada\n" * 50, "_pages/cv.md": "# CV\n"}
    doc = Document(url="github:ada/ada.github.io", files=files, content_type="application/x-repository")
    bounded, notes = bound_document(doc, ReadSettings(max_lines=10))
    assert bounded.files["_pages/cv.md"] == "# CV\n" and bounded.files["_pages/about.md"].count("\n") == 10
    assert len(notes) == 1 and notes[0].startswith("_pages/about.md: read in part")


def test_the_cooperative_deadline_stops_a_reading_loop() -> None:
    started = time.monotonic()
    with pytest.raises(ReadingTimeout), reading_deadline(0.2):
        while True:
            check_deadline()
    assert time.monotonic() - started < 0.5
    check_deadline()  # no deadline outside


def test_the_backstop_interrupts_code_that_never_checks() -> None:
    # A pattern that backtracks exponentially: only the timer can stop it.
    started = time.monotonic()
    with pytest.raises(ReadingTimeout), reading_deadline(0.2):
        re.match(r"(a+)+$", "a" * 64 + "b")
    assert time.monotonic() - started < 2.0


def test_a_reading_past_its_time_is_an_extraction_error() -> None:
    page = HEAD + PAPERS + "</ul>" + "<p>Talk at the dune meeting in Bremen</p>" * 20_000 + "</body></html>"
    with pytest.raises(ExtractionError, match="longer than"):
        read_within(html(page), "generic", ReadSettings(seconds=0.05))
    # The same page within a sane budget reads.
    read = titles(read_within(html(page), "generic", ReadSettings()).records)
    assert len([title for title in read if title.startswith("Lattice Fields")]) == 5


SURNAMES = ["García", "Okafor", "Lindqvist", "Nakamura", "O'Brien", "van der Berg", "Ødegård", "Kowalczyk", "Mbeki"]


def apa_entry(authors: int) -> tuple[str, list[str]]:
    names = [f"{SURNAMES[n % len(SURNAMES)]}{'' if n < len(SURNAMES) else n}, {chr(65 + n % 26)}. {chr(66 + n % 24)}."
             for n in range(authors - 1)]  # fmt: skip
    names.append("Lastauthor, D. E.")
    entry = f"{', '.join(names[:-1])}, & {names[-1]} (2022). A census of coastal dunes. Journal of Sand, 3(2), 1–10."
    return entry, names


@pytest.mark.parametrize("authors", [3, 200])
def test_an_apa_entry_with_a_long_author_list_reads_whole(authors: int) -> None:
    entry, names = apa_entry(authors)
    doc = Document(url="file:///publications.md", text=f"# Ada Quill\n\n## Publications\n\n* {entry}\n",
                   content_type="text/markdown")  # fmt: skip
    (paper,) = extract_records(doc, "generic").records
    assert isinstance(paper, Paper)
    assert (paper.title, paper.year) == ("A census of coastal dunes", 2022)
    assert list(paper.authors) == names


# Patterns rewritten to run in linear time read what they read before.


def test_author_separators_split_as_before() -> None:
    from extractors.reading.names import _SEPARATORS

    text = "Taylor, J. E.,  & Sereno, S. C.; Fiebach and  Wu et al."
    pieces = ["Taylor", "J. E.", "", "Sereno", "S. C.", "Fiebach", "Wu et al."]
    assert _SEPARATORS.split(text) == pieces


def test_name_suffixes_go_as_before() -> None:
    from extractors.reading.names import _SUFFIXES

    assert [_SUFFIXES.sub("", name) for name in ("Ana Silva, Ph.D.", "Rui Costa  Jr.", "Ana Silva , MSc", "Iiris")] == [
        "Ana Silva", "Rui Costa", "Ana Silva ", "Iiris",
    ]  # fmt: skip


def test_leading_dates_and_ranges_read_as_before() -> None:
    from extractors.barron import _DATE_HEAD, _TRAILING_SEPARATORS, _WORD_YEAR
    from extractors.cv import _TRAILING_RANGE
    from extractors.reading.dates import leading_date

    head = _DATE_HEAD.match("[ Jan 2024 ] : Paper accepted")
    assert head is not None and (head["date"], head["text"]) == ("Jan 2024", "Paper accepted")
    assert leading_date("( 2024-03-05 ) — Talk at the dune meeting") == ("2024-03-05", "Talk at the dune meeting")
    row = _TRAILING_RANGE.match("Lumen Labs, Bremen (2019 – 2023)")
    assert row is not None and (row["org"], row["start"], row["end"]) == ("Lumen Labs, Bremen", "2019", "2023")
    assert _TRAILING_SEPARATORS.sub("", "Tide: Depth / PDF | ") == "Tide: Depth / PDF"
    word = _WORD_YEAR.search("Best Paper Award 2024")
    assert word is not None and word[1] == "Award"
