"""Long CV / experience pages, and profile About texts, exported as plain text or markdown.

Claims: text documents (``text/plain``, markdown) whose lines are mostly positions: at
least three lines ending (or starting) with a date range ("Acme Labs Mar. 2024 - Sep. 2024",
"Meta, Research Scientist, 2020-2021"), or a page of ``Advisor:`` / ``Contributions:`` blocks;
and a profile's "About" text exported alone (its first line "About", "Bio", ...).

Reads:
  * one block per position: the organisation line with its date range, the next line as the
    title (a trailing place "Sydney, Australia" removed), an optional ``Advisor:`` line;
    a title line followed by ``Advisor:`` without dates is a position too -> Role;
  * the projects and papers named under a position (a line followed by ``Motivation:``, or
    "a paper titled "X"") -> Paper;
  * otherwise (an "experience" page of positions with numbered papers, a profile "About"
    text) the generic section reading: dated role lines, ``[1] Title. Venue Year`` papers,
    biography sentences;
  * in a profile "About" text, each listed point (a research direction, a blog series,
    "- Blogs on Triton Programming") -> undated NewsItem, so that a new one is reported.
    Link hints of exported pages ("(opens in new tab)") are dropped from them.
"""

from __future__ import annotations

import re

from extractors.base import Case, Extractor
from extractors.generic import is_text_document
from extractors.reading import read_tree
from extractors.reading.tree import Box, tree_from_markdown, tree_from_plain_text
from watcher.records import Document, NewsItem, Paper, Record, Role
from watcher.text import clean_text, clean_title, parse_date, parse_year

__all__ = ["CvExtractor", "read_about_points", "read_cv_blocks"]

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WHEN = rf"(?:{_MONTH}\s*\d{{4}}|\d{{4}}[/.-]\d{{1,2}}|\d{{4}})"
_TRAILING_RANGE = re.compile(
    # The organisation ends before the separators, which are taken whole: linear time.
    rf"^(?P<org>.*?[^\s,(])[\s,(]++(?P<start>{_WHEN})\s*(?:-|–|—|to)\s*(?P<end>{_WHEN}|present|now|current)\)?\s*$",
    re.I,
)
_LEADING_RANGE = re.compile(rf"^(?P<start>{_WHEN})\s*(?:-|–|—|to)\s*(?P<end>{_WHEN}|present|now|current)\b", re.I)
_ADVISOR = re.compile(r"^(?:advisor|advisors|supervisor|mentor|manager)s?\s*:", re.I)
_MOTIVATION = re.compile(r"^(?:motivation|abstract|summary|goal)\s*:", re.I)
_LABEL = re.compile(r"^[\w &/-]{2,40}:\s*$")
_PLACE = re.compile(r"\s+[A-Z][a-z]+(?:\s[A-Z][a-z]+)?,\s*[A-Z][A-Za-z]+(?:\s[A-Z][a-z]+)?$")
_ROLE_WORD = re.compile(
    r"\b(?:intern|scholar|student|researcher|associate|assistant|engineer|scientist|fellow|professor|lead|manager"
    r"|director|developer|postdoc|consultant|analyst|architect)\b",
    re.I,
)
_ABOUT_HEADINGS = frozenset({"about", "about me", "biography", "bio"})
_LINK_HINT = re.compile(r"\s*\(opens? in (?:a )?new (?:tab|window)\)", re.I)
_PAPER_TITLED = re.compile(r"paper titled\s*[\"“”]([^\"“”]{8,300})[\"“”]", re.I)


def _when(text: str | None) -> str | None:
    if not text or text.lower() in {"present", "now", "current"}:
        return None
    return parse_date(re.sub(r"(?i)\bsept\b", "sep", text.replace(".", " "))) or (
        str(parse_year(text)) if parse_year(text) else None
    )


def read_cv_blocks(text: str) -> list[Record]:
    """Positions and their projects from a CV written one block per position."""
    lines = [clean_text(line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    records: list[Record] = []
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        header = _TRAILING_RANGE.match(line)
        if header and len(line.split()) <= 16 and not line.endswith("."):
            title = _title_of(nxt) if nxt and not _ADVISOR.match(nxt) and not _LABEL.match(nxt) else ""
            organization = clean_title(header.group("org"))
            if not title or len(title.split()) > 10 or title.endswith("."):
                title = organization
            records.append(
                Role(
                    title=title,
                    organization=organization if organization != title else None,
                    start=_when(header.group("start")),
                    end=_when(header.group("end")),
                )
            )
            continue
        if (
            _ADVISOR.match(nxt)
            and not _TRAILING_RANGE.match(lines[i - 1] if i else "")
            and not _TRAILING_RANGE.match(line)
        ):
            if len(line.split()) <= 12 and not line.endswith("."):
                records.append(Role(title=_title_of(line)))
            continue
        if _MOTIVATION.match(nxt) and len(line.split()) <= 30:
            records.append(Paper(title=clean_title(re.sub(r"\s+-\s+Undergraduate Thesis$", "", line))))
            continue
        if m := _PAPER_TITLED.search(line):
            records.append(Paper(title=clean_title(m.group(1))))
    return _unique(records)


def _title_of(line: str) -> str:
    """The position title of a "Title Place" line: up to its last position word, else without the place."""
    words = list(_ROLE_WORD.finditer(line))
    if words:
        return clean_title(line[: words[-1].end()])
    return clean_title(_PLACE.sub("", line)) or clean_title(line)


def _unique(records: list[Record]) -> list[Record]:
    seen: set[tuple[str, str]] = set()
    out: list[Record] = []
    for record in records:
        key = (record.kind, record.key + str(getattr(record, "start", "")))
        if key not in seen:
            seen.add(key)
            out.append(record)
    return out


def _cv_block_count(text: str) -> int:
    lines = [clean_text(line) for line in text.splitlines()[:400]]
    dated = sum(1 for line in lines if _TRAILING_RANGE.match(line) and len(line.split()) <= 16)
    advisors = sum(1 for line in lines if _ADVISOR.match(line))
    return dated + advisors


class CvExtractor(Extractor):
    """Plain-text or markdown CVs (positions, with their projects and papers) and profile About texts."""

    name = "cv"
    priority = 40
    url_patterns = (r"/(?:cv|resume|experience)(?:\.(?:txt|md))?/?$",)

    def claims(self, doc: Document) -> bool:
        # An HTML page at /cv/ is the page readers': only a text CV is read here by its address.
        return self.claims_url(doc.url) and _is_text(doc)

    def detect(self, doc: Document) -> str | None:
        if not doc.text or not _is_text(doc):
            return None
        if _cv_block_count(doc.text) >= 3:
            return "text page of dated position blocks"
        if _is_about_profile(doc.text):
            return "text profile About section"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle or not doc.text.strip():
            return []
        text = doc.text
        if sum(1 for line in text.splitlines() if _ADVISOR.match(clean_text(line))) >= 2:
            return read_cv_blocks(text)
        plain = not text.lstrip().startswith("---") and "markdown" not in doc.content_type
        tree = tree_from_plain_text(text) if plain else tree_from_markdown(text)
        records = read_tree(tree).records
        if _is_about_profile(text):
            return records + read_about_points(tree)
        if not records:
            records = read_cv_blocks(text)
        return records


def _is_text(doc: Document) -> bool:
    return not doc.is_bundle and is_text_document(doc)


def _is_about_profile(text: str) -> bool:
    """A profile's "About" text exported on its own: an About heading, then prose and lists."""
    head = text.lstrip()
    return not head.startswith("---") and head.split("\n", 1)[0].strip().lower() in _ABOUT_HEADINGS


def read_about_points(tree: Box) -> list[Record]:
    """The listed points of an About text (research directions, blog series) as undated news.

    Such a page has no dated items; what its owner adds to it over time are these points.
    A point of three words or fewer is a label, not news.
    """
    points: list[Record] = []
    for box in tree.walk():
        if box.tag == "li":
            text = clean_text(_LINK_HINT.sub("", box.text))
            if len(text.split()) > 3:
                points.append(NewsItem(text=text))
    return points


CASES = (
    Case(
        fixture="cv/positions.txt",
        url="https://example.org/cv.txt",
        content_type="text/plain",
        claims=("https://example.org/cv.txt", "https://example.org/resume/"),
        rejects=("https://example.org/publications.html",),
        notes="one block per position: org + dates, title + place, advisor, projects with motivation",
    ),
    Case(
        fixture="cv/industry.txt",
        url="https://example.org/industry.txt",
        content_type="text/plain",
        notes="experience page: 'Org, Title, years' lines with numbered papers beneath",
    ),
    Case(
        fixture="cv/about.txt",
        url="https://example.org/people/ada-quill/about.txt",
        content_type="text/plain",
        notes="a profile's About text exported alone: prose, research directions and blog series as lists",
    ),
)
