"""arXiv preprints (``arxiv:"Full Name"``, ``arxiv:ORCID``): the API's Atom answers.

Claims: ``arxiv:`` sources; Atom documents with arXiv entries (``arxiv.org/abs/`` ids).

Reads: each entry becomes a Paper: title and authors, the arXiv id (without its version), the
year of its first version (or of its journal reference), the venue "arXiv" or, once the
authors give one, the journal reference, the DOI the authors added, and the abstract page as
the link. Identifiers beyond the fields: the latest version ("v2") and the categories, primary
first. An entry repeated on two pages (new submissions shift a newest-first query) is one
paper; arXiv's error feed is an ``ExtractionError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from extractors.base import Case
from extractors.indexes import IndexExtractor, parse_xml, split_doi
from watcher.errors import ExtractionError
from watcher.records import Document, Paper, Record
from watcher.text import clean_text, parse_year

__all__ = ["CASES", "ArxivExtractor", "arxiv_papers"]

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_ABS_ID = re.compile(r"arxiv\.org/abs/(?P<id>.+?)(?P<version>v\d+)?$")


def arxiv_papers(text: str) -> tuple[list[Paper], list[Mapping[str, str]]]:
    """The preprints of one Atom answer, with their version and categories."""
    root = parse_xml(text, "the arXiv answer")
    if root.tag != f"{_ATOM}feed":
        raise ExtractionError(f"not an Atom feed (root element <{root.tag}>)")
    papers: list[Paper] = []
    extra: list[Mapping[str, str]] = []
    for entry in root.iterfind(f"{_ATOM}entry"):
        entry_id = _text(entry, f"{_ATOM}id")
        if "/api/errors" in entry_id:
            raise ExtractionError(f"arXiv answered with an error: {_text(entry, f'{_ATOM}summary')}")
        match = _ABS_ID.search(entry_id)
        title = _text(entry, f"{_ATOM}title")
        if match is None or not title:
            continue
        papers.append(_paper(entry, match["id"], title))
        extra.append(_identifiers(entry, match["version"]))
    return papers, extra


def _paper(entry: Any, arxiv_id: str, title: str) -> Paper:
    journal = _text(entry, f"{_ARXIV}journal_ref")
    doi, _ = split_doi(_text(entry, f"{_ARXIV}doi"))
    return Paper(
        title=title,
        authors=tuple(_text(author, f"{_ATOM}name") for author in entry.iterfind(f"{_ATOM}author")),
        venue=journal or "arXiv",
        year=parse_year(journal) or parse_year(_text(entry, f"{_ATOM}published")[:4]),
        url=f"https://arxiv.org/abs/{arxiv_id}",
        doi=doi,
        arxiv=arxiv_id,
    )


def _identifiers(entry: Any, version: str | None) -> dict[str, str]:
    primary = entry.find(f"{_ARXIV}primary_category")
    terms = [primary.get("term")] if primary is not None and primary.get("term") else []
    terms += [c.get("term") for c in entry.iterfind(f"{_ATOM}category") if c.get("term") and c.get("term") not in terms]
    ids = {"arxiv_version": version} if version else {}
    if terms:
        ids["arxiv_categories"] = " ".join(terms)
    return ids


def _text(element: Any, tag: str) -> str:
    found = element.find(tag)
    return clean_text("".join(found.itertext())) if found is not None else ""


class ArxivExtractor(IndexExtractor):
    """arXiv preprints (arxiv:"Full Name", arxiv:ORCID): arXiv id, version, categories."""

    name = "arxiv"
    url_patterns = (r"^arxiv:",)
    markers = ("<feed", "http://arxiv.org/schemas/atom")
    found = "an arXiv Atom feed"

    def read_answer(self, text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
        papers, extra = arxiv_papers(text)
        return list(papers), extra

    def read(self, doc: Document) -> tuple[list[Record], tuple[Mapping[str, str], ...]]:
        # An entry repeated on two pages (new submissions shift a newest-first query) is one paper.
        records, extra = super().read(doc)
        first = {getattr(r, "arxiv", None): i for i, r in reversed(list(enumerate(records)))}
        keep = [i for i, r in enumerate(records) if first[getattr(r, "arxiv", None)] == i]
        return [records[i] for i in keep], tuple(extra[i] for i in keep)


CASES = (
    Case(
        fixture="arxiv/query",
        url='arxiv:"Maren Hollis"',
        content_type="application/x-arxiv",
        claims=('arxiv:"Maren Hollis"', "arxiv:0000-0003-4412-7790"),
        rejects=("https://arxiv.org/abs/2603.04417", "dblp:98/7654"),
        notes="two pages of a newest-first query, an entry repeated across them, a journal reference "
        "and a DOI the authors added, an old-style id, versions and categories",
    ),
    Case(
        fixture="arxiv/empty.atom",
        url='arxiv:"Ottilie Nobody"',
        content_type="application/atom+xml",
        notes="no results: an empty feed",
    ),
)
