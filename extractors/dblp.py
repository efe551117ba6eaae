"""DBLP person records (``dblp:PID``): the XML of ``https://dblp.org/pid/PID.xml``.

Claims: ``dblp:`` sources; documents whose root is ``<dblpperson>``.

Reads: every publication record (``<r>``: article, inproceedings, incollection, book, theses)
becomes a Paper: title (DBLP's closing full stop dropped), authors (without DBLP's homonym
numbers, "Jane Doe 0002"), venue (booktitle or journal; CoRR, DBLP's name for arXiv, as
"arXiv"), year, DOI and arXiv id from the electronic-edition links (an arXiv DOI is the arXiv
id), and the record's DBLP page as the link. Edited proceedings, home pages (``www``) and
withdrawn records are not the person's papers. Identifier beyond the fields: the DBLP key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from extractors.base import Case
from extractors.indexes import IndexExtractor, parse_xml, split_doi
from watcher.errors import ExtractionError
from watcher.records import Paper, Record
from watcher.text import clean_text, find_arxiv

__all__ = ["CASES", "DblpExtractor", "dblp_papers"]

_PUBLICATIONS = frozenset({"article", "inproceedings", "incollection", "book", "phdthesis", "mastersthesis"})
_HOMONYM_NUMBER = re.compile(r"\s+\d{4}$")
_RECORD_PAGE = "https://dblp.org/rec/"


def dblp_papers(text: str) -> tuple[list[Paper], list[Mapping[str, str]]]:
    """The papers of one DBLP person document and their DBLP keys, in the document's order."""
    root = parse_xml(text, "the DBLP record")
    if root.tag != "dblpperson":
        raise ExtractionError(f"not a DBLP person record (root element <{root.tag}>)")
    papers: list[Paper] = []
    keys: list[Mapping[str, str]] = []
    for wrapper in root.iterfind("r"):
        record = next(iter(wrapper), None)
        if record is None or record.tag not in _PUBLICATIONS or record.get("publtype") == "withdrawn":
            continue
        paper = _paper(record)
        if paper is not None:
            papers.append(paper)
            keys.append({"dblp": record.get("key")} if record.get("key") else {})
    return papers, keys


def _paper(record: Any) -> Paper | None:
    title = _text(record.find("title"))
    if not title:
        return None
    links = [clean_text(ee.text) for ee in record.iterfind("ee") if ee.text]
    doi = arxiv = None
    for link in links:
        found_doi, found_arxiv = split_doi(link) if "doi.org/" in link else (None, find_arxiv(link))
        doi, arxiv = doi or found_doi, arxiv or found_arxiv
    key = record.get("key")
    return Paper(
        title=title,
        authors=tuple(_HOMONYM_NUMBER.sub("", _text(a)) for a in record.iterfind("author")),
        venue=_venue(record),
        year=int(year) if (year := _text(record.find("year"))).isdigit() else None,
        url=f"{_RECORD_PAGE}{key}" if key else (links[0] if links else None),
        doi=doi,
        arxiv=arxiv or _eprint(record),
    )


def _venue(record: Any) -> str | None:
    venue = _text(record.find("booktitle")) or _text(record.find("journal"))
    if venue == "CoRR":
        return "arXiv"
    if record.tag in ("phdthesis", "mastersthesis"):
        school = _text(record.find("school"))
        kind = "PhD thesis" if record.tag == "phdthesis" else "Master's thesis"
        return f"{kind}, {school}" if school else kind
    return venue or None


def _eprint(record: Any) -> str | None:
    volume = _text(record.find("volume"))
    # CoRR records name the preprint in their volume: "abs/2605.01234".
    return volume.removeprefix("abs/") if _text(record.find("journal")) == "CoRR" and volume else None


def _text(element: Any) -> str:
    if element is None:
        return ""
    return clean_text("".join(element.itertext()))


class DblpExtractor(IndexExtractor):
    """DBLP person records (dblp:PID): papers with venue, year, DOI and arXiv links."""

    name = "dblp"
    url_patterns = (r"^dblp:",)
    markers = ("<dblpperson",)
    head = 500
    found = "a <dblpperson> document"

    def read_answer(self, text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
        papers, keys = dblp_papers(text)
        return list(papers), keys


CASES = (
    Case(
        fixture="dblp/person.xml",
        url="dblp:98/7654",
        content_type="application/xml",
        claims=("dblp:98/7654", "dblp:h/MarenHollis"),
        rejects=("https://dblp.org/pid/98/7654.html", "github:maren/maren.github.io"),
        notes="conference, journal and CoRR records, a thesis; edited proceedings, a home page and a "
        "withdrawn record left out; homonym numbers, HTML entities, an arXiv DOI read as the arXiv id",
    ),
)
