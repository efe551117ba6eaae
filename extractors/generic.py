"""The generic reading: any HTML, markdown or plain-text page, read by the shared reading.

Claims: every page (priority 0), so any source gives something useful; site families claim
the pages whose templates they know and patch or replace this reading.

Reads with ``extractors.reading`` (sections, repeated records, field readers for papers,
people, news, awards and roles, the owner's own positions) and adds what the page's metadata
says (schema.org JSON-LD, Highwire ``citation_*`` tags, COinS: ``extractors.meta``).

``records_from_html`` and ``records_from_markdown`` are the whole-document readings that
other extractors call for the parts of a page their template does not cover.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.base import Case, Extractor
from extractors.meta import records_from_tree
from watcher.records import Document, Record, record_fields
from watcher.text import clean_text, normalise_key

if TYPE_CHECKING:
    from extractors.reading import ListReport

__all__ = [
    "GenericExtractor",
    "is_text_document",
    "node_text",
    "records_from_html",
    "records_from_markdown",
]

_HTML_START = re.compile(r"<(?:html|body|div|p|h[1-6]|ul|table|head|!doctype)\b", re.I)
_HTML_CLOSE = re.compile(r"</(?:p|div|li|h\d|td)>", re.I)


def is_text_document(doc: Document) -> bool:
    """Markdown or plain text rather than HTML (by content type, front matter or the absence of tags)."""
    ctype = doc.content_type.lower()
    if "markdown" in ctype or ctype.startswith("text/plain") or ctype.startswith("text/x-"):
        return True
    head = doc.text[:2000].lstrip("\ufeff \t\r\n")
    if head.startswith("---"):
        return True
    if "html" in ctype:
        return not _HTML_START.search(head) and (
            "<" not in doc.text[:20000] or not _HTML_CLOSE.search(doc.text[:20000])
        )
    return True


def node_text(node: LexborNode | None) -> str:
    """A node's text, its pieces joined by spaces and cleaned ("" for no node)."""
    return clean_text(node.text(deep=True, separator=" ")) if node is not None else ""


# ------------------------------------------------------------------ whole documents


def records_from_markdown(text: str, plain: bool = False) -> list[Record]:
    """Everything the shared reading finds in a markdown (or, with ``plain``, plain-text) document."""
    from extractors.reading import read_markdown, read_plain_text

    return (read_plain_text(text) if plain else read_markdown(text)).records


def records_from_html(text: str) -> list[Record]:
    """Everything the shared reading finds in an HTML page: its metadata and its lists."""
    from extractors.reading import read_html

    parsed = LexborHTMLParser(text)
    return _merge(records_from_tree(parsed), read_html(parsed).records)


# ------------------------------------------------------------------ the extractor


class GenericExtractor(Extractor):
    """Any page, read by the shared reading: sections, repeated records, entries read by kind."""

    name = "generic"
    priority = 0

    def detect(self, doc: Document) -> str | None:
        return "fallback for any page"

    def parse(self, doc: Document) -> list[Record]:
        return self._read(doc)[0]

    def explain(self, doc: Document) -> list[ListReport]:
        return self._read(doc)[1]

    @staticmethod
    def _read(doc: Document) -> tuple[list[Record], list[ListReport]]:
        from extractors.reading import read_html, read_markdown, read_plain_text

        if doc.is_bundle:
            records: list[Record] = []
            lists: list[ListReport] = []
            for path, text in sorted(doc.files.items()):
                if path.endswith((".md", ".markdown", ".txt")):
                    reading = read_plain_text(text) if path.endswith(".txt") else read_markdown(text)
                    records.extend(reading.records)
                    lists.extend(report.located(path) for report in reading.lists)
            return records, lists
        if not doc.text.strip():
            return [], []
        if is_text_document(doc):
            plain = doc.content_type.lower().startswith("text/plain") and not doc.text.lstrip().startswith("---")
            reading = read_plain_text(doc.text) if plain else read_markdown(doc.text)
            return reading.records, reading.lists
        parsed = LexborHTMLParser(doc.text)
        reading = read_html(parsed)
        return _merge(records_from_tree(parsed), reading.records), reading.lists


def _merge(first: list[Record], second: list[Record]) -> list[Record]:
    """The page's metadata records (``first``: COinS, schema.org), each with the fields it leaves
    empty filled from the page's own reading of the same item, then the page's other records."""
    first_labels = [(r.kind, _label(r)) for r in first]
    second_labels = [(r.kind, _label(r)) for r in second]
    by_label = dict(zip(second_labels, second, strict=True))
    filled = [_filled(r, by_label.get(label)) for r, label in zip(first, first_labels, strict=True)]
    taken = {*first_labels, *(r.key for r in first)}
    return filled + [
        r for r, label in zip(second, second_labels, strict=True) if r.key not in taken and label not in taken
    ]


def _label(record: Record) -> str:
    return normalise_key(getattr(record, "title", None) or getattr(record, "name", None) or record.key)


def _filled(record: Record, other: Record | None) -> Record:
    """``record`` with its empty fields taken from ``other`` (the same item read another way)."""
    if other is None:
        return record
    empty = {name: value for name, value in record_fields(other).items() if value and not getattr(record, name)}
    return dataclasses.replace(record, **empty) if empty else record


CASES = (
    Case(
        fixture="generic/quarto_listing.html",
        url="https://obyrne.example.net/publications.html",
        notes="a site generator's listing page: cards of title, journal line, description, date and authors; "
        "the date is not the venue",
    ),
    Case(
        fixture="generic/home_sections.html",
        url="https://coastal-robotics.example.org/",
        notes="generator home page of <section> blocks: only the Latest News stream is read, its dated posts "
        "told by their titles, without the section's subtitle, the reading time or the 'see all' link; the undated "
        "bullets under 'Research Highlights' are not news",
    ),
    Case(
        fixture="generic/plain_homepage.html",
        url="https://people.example.edu/~mrivera/",
        notes="hand-written personal page: header position, news with bracketed dates, table publications, awards",
    ),
    Case(
        fixture="generic/lab_group.html",
        url="https://vision-lab.example.edu/",
        notes="lab page: people by role heading (list rows and name cards), alumni with their next step, "
        "dated news and publication rows; footer and navigation are not items",
    ),
    Case(
        fixture="generic/cv_tables.html",
        url="https://ivarga.example.org/cv/",
        notes="CV page: appointments and education as year | position tables, grants and honours led by "
        "'2023:' or '2021 –', a biography naming the position with its field",
    ),
    Case(
        fixture="generic/cv_page.md",
        url="https://example.org/about.md",
        content_type="text/markdown",
        notes="markdown CV: setext and ATX headings, dated role lines, numbered papers, news, awards, students",
    ),
)
