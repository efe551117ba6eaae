"""OpenAlex works (``openalex:A…``): the JSON pages of ``/works?filter=author.id:A…``.

Claims: ``openalex:`` sources; JSON answers whose results carry ``https://openalex.org/W`` ids.

Reads: each work becomes a Paper: title, authors (in authorship order), year, DOI (an arXiv
DOI is the arXiv id), venue (the primary location's source; arXiv's repository entry as
"arXiv"), the arXiv id from an arXiv landing page, and the open-access link (else the landing
page, else the work's OpenAlex page). Identifier beyond the fields: the OpenAlex work id.
A page that is not OpenAlex's JSON is an ``ExtractionError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from extractors.base import Case
from extractors.indexes import IndexExtractor, split_doi
from watcher.errors import ExtractionError
from watcher.records import Paper, Record
from watcher.text import clean_text, find_arxiv

__all__ = ["CASES", "OpenAlexExtractor", "openalex_papers"]

_WORK_PREFIX = "https://openalex.org/"
#: Works that are parts of a publication rather than one (covers, tables of contents).
_NOT_PAPERS = frozenset({"paratext", "erratum", "retraction"})


def openalex_papers(text: str) -> tuple[list[Paper], list[Mapping[str, str]]]:
    """The works of one page of results, with their OpenAlex ids."""
    try:
        page = json.loads(text)
    except ValueError as exc:
        raise ExtractionError(f"the OpenAlex answer is not JSON: {exc}") from exc
    results = page.get("results") if isinstance(page, dict) else None
    if not isinstance(results, list):
        raise ExtractionError("the OpenAlex answer has no 'results' list")
    papers: list[Paper] = []
    ids: list[Mapping[str, str]] = []
    for work in results:
        if not isinstance(work, dict) or work.get("type") in _NOT_PAPERS:
            continue
        paper = _paper(work)
        if paper is not None:
            papers.append(paper)
            work_id = str(work.get("id") or "").removeprefix(_WORK_PREFIX)
            ids.append({"openalex": work_id} if work_id else {})
    return papers, ids


def _paper(work: Mapping[str, Any]) -> Paper | None:
    title = clean_text(work.get("display_name") or work.get("title"))
    if not title:
        return None
    primary = _mapping(work.get("primary_location"))
    best = _mapping(work.get("best_oa_location"))
    doi, arxiv = split_doi(work.get("doi"))
    landing = [str(loc.get("landing_page_url") or "") for loc in (primary, best)]
    arxiv = arxiv or next((found for url in landing if (found := find_arxiv(url))), None)
    year = work.get("publication_year")
    return Paper(
        title=title,
        authors=tuple(
            clean_text(_mapping(a.get("author")).get("display_name"))
            for a in work.get("authorships") or ()
            if isinstance(a, dict) and _mapping(a.get("author")).get("display_name")
        ),
        venue=_venue(primary),
        year=year if isinstance(year, int) else None,
        url=best.get("pdf_url") or best.get("landing_page_url") or primary.get("landing_page_url") or work.get("id"),
        doi=doi,
        arxiv=arxiv,
    )


def _venue(location: Mapping[str, Any]) -> str | None:
    source = _mapping(location.get("source"))
    name = clean_text(source.get("display_name"))
    if name.lower().startswith("arxiv"):  # "arXiv (Cornell University)", a repository
        return "arXiv"
    return name or None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


class OpenAlexExtractor(IndexExtractor):
    """OpenAlex works (openalex:A…): DOI, venue, year, open-access link."""

    name = "openalex"
    url_patterns = (r"^openalex:",)
    markers = ('"results"', '"https://openalex.org/W')
    head = 3000
    found = "OpenAlex works"

    def read_answer(self, text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
        papers, ids = openalex_papers(text)
        return list(papers), ids


CASES = (
    Case(
        fixture="openalex/works",
        url="openalex:A5019283746",
        content_type="application/x-openalex",
        claims=("openalex:A5019283746",),
        rejects=("https://openalex.org/A5019283746", "orcid:0000-0003-4412-7790"),
        notes="two cursor pages; a conference paper with an open-access PDF, its arXiv preprint "
        "(an arXiv DOI), a journal article, a paratext left out",
    ),
)
