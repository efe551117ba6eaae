"""Shared reader of the metadata pages embed for machines, into records.

Not an extractor itself: the generic fallback and site families start from it.

Reads:
  * schema.org JSON-LD (``<script type="application/ld+json">``, ``@graph`` included):
    ScholarlyArticle / Article / CreativeWork / Book / Thesis -> Paper (name or headline,
    author names, isPartOf / publisher / inLanguage-free venue, datePublished year, url,
    DOI and arXiv ids from identifier / sameAs / url); Person -> Role (jobTitle with
    affiliation or worksFor) and Award (award); Event -> NewsItem (startDate, name, url);
  * Highwire Press ``citation_*`` meta tags (one paper per page: title, authors, journal or
    conference title, date, DOI, arXiv id, abstract/PDF URL);
  * COinS (``span.Z3988`` OpenURL context objects).

Everything fails softly: malformed JSON or a missing field gives fewer records, never an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import parse_qs

from selectolax.lexbor import LexborHTMLParser

from watcher.records import Award, NewsItem, Paper, Record, Role
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, parse_date, parse_year

__all__ = ["citation_meta_paper", "coins_papers", "json_ld_records", "records_from_html", "records_from_tree"]

_ARTICLE_TYPES = frozenset(
    {
        "scholarlyarticle",
        "article",
        "creativework",
        "book",
        "thesis",
        "report",
        "techarticle",
        "chapter",
        "publicationissue",
        "medicalscholarlyarticle",
        "presentationdigitaldocument",
    }
)
_EVENT_TYPES = frozenset({"event", "educationevent", "socialevent", "businessevent"})


def records_from_html(html: str) -> list[Record]:
    """Records from a page's JSON-LD, citation meta tags and COinS."""
    return records_from_tree(LexborHTMLParser(html)) if html else []


def records_from_tree(tree: LexborHTMLParser) -> list[Record]:
    """Like ``records_from_html`` on an already parsed page (no second parse)."""
    records: list[Record] = []
    for node in tree.css('script[type="application/ld+json"]'):
        records.extend(json_ld_records(node.text(deep=True)))
    metas: dict[str, list[str]] = {}
    for node in tree.css('meta[name^="citation_"], meta[property^="citation_"]'):
        attrs = node.attributes
        name = (attrs.get("name") or attrs.get("property") or "").lower()
        content = attrs.get("content")
        if content:
            metas.setdefault(name, []).append(content)
    paper = citation_meta_paper(metas)
    if paper is not None:
        records.append(paper)
    records.extend(coins_papers(n.attributes.get("title") or "" for n in tree.css("span.Z3988")))
    return records


def citation_meta_paper(metas: Mapping[str, list[str]]) -> Paper | None:
    """The paper described by Highwire ``citation_*`` tags, or None without a title."""
    title = clean_title(_first(metas, "citation_title"))
    if not title:
        return None
    authors: list[str] = []
    for value in metas.get("citation_author", []) + metas.get("citation_authors", []):
        authors.extend(_author_names(value))
    venue = _first(
        metas,
        "citation_journal_title",
        "citation_conference_title",
        "citation_inbook_title",
        "citation_dissertation_institution",
        "citation_technical_report_institution",
        "citation_publisher",
    )
    date = _first(metas, "citation_publication_date", "citation_date", "citation_online_date", "citation_year")
    doi = find_doi(_first(metas, "citation_doi"))
    arxiv = find_arxiv(_first(metas, "citation_arxiv_id") and f"arXiv:{_first(metas, 'citation_arxiv_id')}")
    url = _first(metas, "citation_abstract_html_url", "citation_public_url", "citation_pdf_url") or None
    arxiv = arxiv or find_arxiv(url)
    return Paper(
        title=title,
        authors=tuple(authors),
        venue=clean_text(venue) or None,
        year=parse_year(date),
        url=url,
        doi=doi,
        arxiv=arxiv,
    )


def _first(metas: Mapping[str, list[str]], *names: str) -> str:
    for name in names:
        values = metas.get(name)
        if values and values[0].strip():
            return values[0].strip()
    return ""


def _author_names(value: str) -> list[str]:
    """One citation_author value; "Last, First" becomes "First Last"; ";" separates several."""
    names = []
    for part in value.split(";"):
        part = clean_text(part)
        if part.count(",") == 1:
            last, first = (p.strip() for p in part.split(","))
            part = f"{first} {last}".strip()
        if part:
            names.append(part)
    return names


# ------------------------------------------------------------------ JSON-LD


def json_ld_records(text: str) -> list[Record]:
    """Records from one JSON-LD block (an object, a list, or an ``@graph``)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        return []
    records: list[Record] = []
    for node in _nodes(data):
        types = {t.lower() for t in _as_list(node.get("@type")) if isinstance(t, str)}
        if types & _ARTICLE_TYPES:
            paper = _ld_paper(node)
            if paper is not None:
                records.append(paper)
        elif "person" in types:
            records.extend(_ld_person(node))
        elif types & _EVENT_TYPES:
            news = _ld_event(node)
            if news is not None:
                records.append(news)
    return records


def _nodes(data: Any) -> Iterator[Mapping[str, Any]]:
    for item in _as_list(data):
        if not isinstance(item, Mapping):
            continue
        if "@graph" in item:
            yield from _nodes(item["@graph"])
        if "@type" in item:
            yield item
        main = item.get("mainEntity")
        if isinstance(main, Mapping | list):
            yield from _nodes(main)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _name(value: Any) -> str:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Mapping):
        return clean_text(str(value.get("name") or ""))
    return ""


def _ld_paper(node: Mapping[str, Any]) -> Paper | None:
    title = clean_title(_name(node.get("name")) or _name(node.get("headline")))
    if not title:
        return None
    authors = tuple(n for n in (_name(a) for a in _as_list(node.get("author"))) if n)
    venue = next(
        (n for n in (_name(v) for v in _as_list(node.get("isPartOf")) + _as_list(node.get("publisher"))) if n), None
    )
    ids = [
        str(x.get("value") or x.get("@id") or "") if isinstance(x, Mapping) else str(x)
        for x in _as_list(node.get("identifier")) + _as_list(node.get("sameAs")) + _as_list(node.get("url"))
    ]
    ids = [i for i in ids if i] + [str(node.get("@id") or "")]
    doi = next((d for d in map(find_doi, ids) if d), None)
    arxiv = next((a for a in map(find_arxiv, ids) if a), None)
    url = next((str(u) for u in _as_list(node.get("url")) if isinstance(u, str)), None)
    date = node.get("datePublished") or node.get("dateCreated")
    return Paper(
        title=title,
        authors=authors,
        venue=venue,
        year=parse_year(str(date) if date else None),
        url=url,
        doi=doi,
        arxiv=arxiv,
    )


def _ld_person(node: Mapping[str, Any]) -> list[Record]:
    records: list[Record] = []
    orgs = [n for n in (_name(o) for o in _as_list(node.get("worksFor")) + _as_list(node.get("affiliation"))) if n]
    for title in (_name(t) for t in _as_list(node.get("jobTitle"))):
        if title:
            records.append(Role(title=clean_title(title), organization=orgs[0] if orgs else None))
    for award in (_name(a) for a in _as_list(node.get("award"))):
        if award:
            records.append(Award(title=clean_title(award), year=parse_year(award)))
    return records


def _ld_event(node: Mapping[str, Any]) -> NewsItem | None:
    name = _name(node.get("name"))
    if not name:
        return None
    start = node.get("startDate")
    date = parse_date(str(start)[:10]) if start else None
    url = node.get("url") if isinstance(node.get("url"), str) else None
    return NewsItem(text=name, date=date, url=url)


# ------------------------------------------------------------------ COinS


def coins_papers(contexts: Iterable[str]) -> list[Paper]:
    """Papers from COinS ``title`` attributes (URL-encoded OpenURL key/value pairs)."""
    papers: list[Paper] = []
    for context in contexts:
        fields = parse_qs(context.replace("&amp;", "&"))
        title = clean_title(_coins(fields, "rft.atitle", "rft.title", "rft.btitle"))
        if not title:
            continue
        authors: list[str] = list(fields.get("rft.au", []))
        if not authors and (last := _coins(fields, "rft.aulast")):
            authors = [f"{_coins(fields, 'rft.aufirst')} {last}".strip()]
        ids = fields.get("rft_id", [])
        doi = next((d for d in map(find_doi, ids) if d), None)
        arxiv = next((a for a in map(find_arxiv, ids) if a), None)
        url = next((i for i in ids if i.startswith("http")), None)
        venue = _coins(fields, "rft.jtitle", "rft.stitle", "rft.btitle" if _coins(fields, "rft.atitle") else "")
        papers.append(
            Paper(
                title=title,
                authors=tuple(clean_text(a) for a in authors if a.strip()),
                venue=clean_text(venue) or None,
                year=parse_year(_coins(fields, "rft.date")),
                url=url,
                doi=doi,
                arxiv=arxiv,
            )
        )
    return papers


def _coins(fields: Mapping[str, list[str]], *keys: str) -> str:
    for key in keys:
        if key and fields.get(key):
            return fields[key][0]
    return ""
