"""Shared pieces of the index extractors (``dblp``, ``arxiv``, ``openalex``, ``orcid``).

Their documents are the API answers ``watcher.apis`` fetched, as a bundle of files (one per
request, named in request order), or one answer given as a page (``watcher extract FILE``).
"""

from __future__ import annotations

import html.entities
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from extractors.base import Extractor
from watcher.errors import ExtractionError
from watcher.records import Document, Record
from watcher.text import find_arxiv, find_doi

__all__ = ["IndexExtractor", "api_texts", "arxiv_doi", "parse_xml", "split_doi"]


# XML knows five named entities; DBLP's records may use HTML's (its DTD declares them).
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
#: arXiv's own DOIs (DataCite) name the preprint, not a publication.
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)


def api_texts(doc: Document) -> list[str]:
    """The answers of one fetch in request order (a bundle's files sorted by name), or the page's text;
    an empty one holds nothing to read."""
    texts = [doc.files[name] for name in sorted(doc.files)] if doc.is_bundle else [doc.text]
    return [text for text in texts if text.strip()]


def parse_xml(text: str, what: str) -> Any:
    """An XML answer as an lxml element tree; never resolves entities or reaches the network."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)
    try:
        # The text is decoded already: its declaration's encoding no longer applies.
        body = _numeric_entities(_DECLARATION.sub("", text, count=1))
        return etree.fromstring(body.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        raise ExtractionError(f"{what} is not well-formed XML: {exc}") from exc


def _numeric_entities(text: str) -> str:
    if "&" not in text:
        return text

    def numeric(match: re.Match[str]) -> str:
        name = match[1]
        code = html.entities.name2codepoint.get(name)
        return match[0] if name in _XML_ENTITIES or code is None else f"&#{code};"

    return _NAMED_ENTITY.sub(numeric, text)


def arxiv_doi(doi: str | None) -> str | None:
    """The arXiv id that an arXiv DOI (10.48550/arXiv.…) names, else None."""
    match = _ARXIV_DOI.match(doi or "")
    return match[1] if match else None


def split_doi(text: str | None) -> tuple[str | None, str | None]:
    """``(doi, arxiv)`` from a DOI or a DOI link: an arXiv DOI is the preprint's arXiv id."""
    doi = find_doi(text)
    arxiv = arxiv_doi(doi)
    return (None, arxiv) if arxiv else (doi, find_arxiv(text))



class IndexExtractor(Extractor):
    """An extractor of one API's answers: each answer read by ``read_answer``, in request order."""

    priority = 90
    #: Strings that, all found near the start of the first answer, say it is this API's.
    markers: ClassVar[Sequence[str]] = ()
    #: How far into the first answer the markers are looked for.
    head: ClassVar[int] = 2000
    #: What ``detect`` says when the markers are found.
    found: ClassVar[str] = ""

    def read_answer(self, text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
        raise NotImplementedError

    def detect(self, doc: Document) -> str | None:
        texts = api_texts(doc)
        start = texts[0][: self.head] if texts else ""
        return self.found if self.markers and all(marker in start for marker in self.markers) else None

    def read(self, doc: Document) -> tuple[list[Record], tuple[Mapping[str, str], ...]]:
        records: list[Record] = []
        ids: list[Mapping[str, str]] = []
        for text in api_texts(doc):
            found, found_ids = self.read_answer(text)
            records.extend(found)
            ids.extend(found_ids)
        return records, tuple(ids)

    def parse(self, doc: Document) -> list[Record]:
        return self.read(doc)[0]
