"""University / Elsevier Pure-style profile pages: people directories and research-output lists.

Claims: pages built by Pure (``<meta name="generator" content="Pure ...">``) or carrying its
markup (``rendering_researchoutput``, ``rendering_person``, ``list-result-item``), and
portal URLs (``/en/persons/``, ``/en/publications/``).

Reads:
  * research outputs: each ``.rendering_researchoutput`` -> Paper (``h3.title`` title,
    person links as authors, ``span.journal`` / ``span.event`` venue, ``span.date`` year,
    DOI and arXiv ids from every link);
  * people: each ``.rendering_person`` -> Member (name from ``h3.title``, role from the job
    title / ``.minor`` line);
  * the profile's own position (``.job-title`` with ``.organisation``) -> Role;
  * anything else through the shared reading and the page's metadata.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from extractors.base import Case, Extractor
from extractors.generic import node_text, records_from_html
from watcher.records import Document, Member, Paper, Record, Role
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, parse_year

__all__ = ["ProfileExtractor", "read_pure_outputs", "read_pure_people"]


def read_pure_outputs(tree: LexborHTMLParser) -> list[Record]:
    """Papers from Pure research-output renderings."""
    papers: list[Record] = []
    for item in tree.css(".rendering_researchoutput"):
        title = clean_title(node_text(item.css_first(".title")))
        if not title:
            continue
        authors = tuple(dict.fromkeys(node_text(a) for a in item.css("a.person, span.person") if node_text(a)))
        venue = node_text(item.css_first(".journal, .event, .host-publication, .book-title")) or None
        year = parse_year(node_text(item.css_first(".date")))
        hrefs = [a.attributes.get("href") or "" for a in item.css("a")]
        doi = next((d for d in map(find_doi, hrefs) if d), None) or find_doi(node_text(item.css_first(".doi")))
        arxiv = next((x for x in map(find_arxiv, hrefs) if x), None)
        link = item.css_first(".title a")
        url = link.attributes.get("href") if link is not None else None
        papers.append(
            Paper(
                title=title, authors=authors, venue=clean_title(venue) or None, year=year, url=url, doi=doi, arxiv=arxiv
            )
        )
    return papers


def read_pure_people(tree: LexborHTMLParser) -> list[Record]:
    """Members from Pure person renderings (a people directory)."""
    people: list[Record] = []
    for item in tree.css(".rendering_person"):
        name = clean_text(node_text(item.css_first(".title")))
        if not name:
            continue
        role = node_text(item.css_first(".job-title, .minor, .relations.organisations .job")) or None
        link = item.css_first(".title a")
        people.append(Member(name=name, role=role, url=link.attributes.get("href") if link is not None else None))
    return people


def _own_role(tree: LexborHTMLParser) -> list[Record]:
    header = tree.css_first(".person-details, .header.person-details")
    if header is None:
        return []
    title = node_text(header.css_first(".job-title"))
    if not title:
        return []
    organisation = node_text(header.css_first(".organisation, .organisations a")) or None
    return [Role(title=clean_title(title), organization=organisation)]


class ProfileExtractor(Extractor):
    """Pure-style research portals: profile pages, people directories and research-output lists."""

    name = "profile"
    priority = 60
    url_patterns = (r"/en/(?:persons|publications|researchers|organisations)/",)

    def detect(self, doc: Document) -> str | None:
        head = doc.text[:200000]
        if 'content="Pure' in head or "content='Pure" in head:
            return "Pure generator meta tag"
        if "rendering_researchoutput" in head or "rendering_person" in head:
            return "Pure rendering classes"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle or not doc.text.strip():
            return []
        tree = LexborHTMLParser(doc.text)
        specific = _own_role(tree) + read_pure_outputs(tree) + read_pure_people(tree)
        if specific:
            return specific
        return records_from_html(doc.text)


CASES = (
    Case(
        fixture="profile/pure_person.html",
        url="https://research.example.ac.uk/en/persons/ana-okafor",
        claims=("https://research.example.ac.uk/en/persons/ana-okafor", "https://portal.example.edu/en/publications/"),
        rejects=("https://ana-okafor.github.io/",),
        notes="Pure profile: position header, research outputs with DOIs, co-workers directory",
    ),
)
