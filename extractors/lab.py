"""Hand-written lab and group pages: people by role, lab news, lab publications.

Claims: single HTML pages with at least two people headings (Faculty / Principal
Investigator, Postdocs, PhD Students, Masters, Undergraduates, Alumni, ...). Detection is
a cheap scan of the page's headings, never the site's name.

Reads the page with the line reader of ``extractors.barron``:

- members: under each people heading, one ``Member`` per person: the name is the
  person's link or bold text, else the text before the first separator ("Jane Roe, PhD
  student"); the role is the group they are listed under ("PhD student"), and for alumni
  the stated next step: "Alumni (now Assistant Professor at X)". Card layouts, where a
  person's name is a small heading with their details below it, read the same way.
- news: dated lines under a "News" heading.
- papers: paper rows under a "Publications"/"Papers" heading (the barron rules).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractors.barron import Line, page_lines, read_news, read_papers, sections_of
from extractors.base import Case, Extractor
from watcher.records import Document, Member, Record
from watcher.text import AsciiFolded, clean_text

__all__ = ["LabExtractor", "read_members"]

#: People headings and the role their members get (first match wins).
_ROLE_HEADINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), role)
    for pattern, role in (
        (r"alumn|former|past members", "Alumni"),
        (r"principal investigator|\bpis?\b|director|faculty|professor|lab head|group leader", "Principal Investigator"),
        (r"post-?doc", "Postdoc"),
        (r"ph\.?\s?d|doctoral|graduate students|grad students", "PhD student"),
        (r"master|m\.?sc|\bms\b", "Masters student"),
        (r"undergrad|bachelor|b\.?sc", "Undergraduate"),
        (r"research (?:staff|scientists|engineers)|staff|engineers|scientists", "Staff"),
        (r"visit", "Visitor"),
        (r"intern", "Intern"),
    )
)
# All of the patterns above at once (they are written in lower case): most headings (paper titles)
# match none, and one pass over lower-cased ASCII text says so several times faster.
_ANY_ROLE_HEADING = AsciiFolded.of("|".join(pattern.pattern for pattern, _ in _ROLE_HEADINGS))
_PEOPLE_WORDS = re.compile(r"^(?:our |the |lab |group )?(?:people|members|team|current members|lab members)\b", re.I)
_NEWS_HEADING = re.compile(r"\bnews\b|updates|announcements", re.I)
_PAPERS_HEADING = re.compile(r"publication|papers|preprints", re.I)
_HEADING_HTML = re.compile(r"<(h[1-4])\b[^>]*>(.*?)</\1>", re.I | re.S)
_TAGS = re.compile(r"<[^>]+>")
_NOW = re.compile(r"\b(?:now|currently|next)\b[\s:]*(?P<now>[^)]+)", re.I)
_SEPARATOR = re.compile(r"\s*(?:,|\(|\s[-–—|]\s|:)\s*")
_NAME_WORD = re.compile(r"^(?:[A-ZÀ-ÞĀ-ſ][\w'’.\-]*|van|von|de|der|da|di|du|la|le|bin|al|[A-Z]\.)$")


class LabExtractor(Extractor):
    """A lab's own hand-written page: its people, news and publications."""

    name = "lab"
    priority = 55

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle or "html" not in doc.content_type:
            return None
        headings = {_role_of(_TAGS.sub(" ", m.group(2))) for m in _HEADING_HTML.finditer(doc.text[:400_000])}
        headings.discard(None)
        if len(headings) >= 2:
            return "people headings (" + ", ".join(sorted(h for h in headings if h)) + ")"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle or not doc.text.strip():
            return []
        records: list[Record] = []
        role: str | None = None
        for section in sections_of(page_lines(doc.text)):
            heading_role = _role_of(section.title)
            if heading_role is not None:
                role = heading_role
                records.extend(read_members(section.lines, role))
            elif role is not None and _name_like(section.title):
                # A person's card: their name as a small heading, details below.
                records.append(_card_member(section.title, section.lines, role))
            elif _NEWS_HEADING.search(section.title):
                role = None
                records.extend(read_news(section.lines))
            elif _PAPERS_HEADING.search(section.title):
                role = None
                records.extend(read_papers(section.lines))
            elif not _PEOPLE_WORDS.match(section.title):
                role = None
        return records


def read_members(lines: Sequence[Line], role: str) -> list[Member]:
    """One member per line that starts with a person's name, listed under ``role``."""
    members: list[Member] = []
    for line in lines:
        name, url, rest = _name_of(line)
        if name is None:
            continue
        members.append(Member(name=name, role=_with_next_step(role, rest), url=url))
    return members


def _card_member(name: str, lines: Sequence[Line], role: str) -> Member:
    details = " ".join(line.text for line in lines[:3])
    return Member(name=clean_text(name), role=_with_next_step(role, details))


def _name_of(line: Line) -> tuple[str | None, str | None, str]:
    """The person's name, their link, and the rest of the line."""
    text = line.text
    for seg in line.segments:
        candidate = clean_text(seg.text)
        if candidate and (seg.href is not None or seg.markers & {"b", "strong"}):
            if text.startswith(candidate) and _name_like(candidate):
                href = seg.href if seg.href and not seg.href.startswith("mailto:") else None
                return candidate, href, text[len(candidate) :]
            break
    head = _SEPARATOR.split(text, maxsplit=1)[0]
    if _name_like(head):
        return head, None, text[len(head) :]
    return None, None, ""


def _name_like(text: str) -> bool:
    words = clean_text(text).split()
    if not 2 <= len(words) <= 5 or len(text) > 50 or any(ch.isdigit() for ch in text):
        return False
    return all(_NAME_WORD.match(w) for w in words) and _role_of(text) is None


def _with_next_step(role: str, rest: str) -> str:
    """Alumni keep where they went: "Alumni (now Assistant Professor at X)"."""
    match = _NOW.search(rest)
    if role == "Alumni" and match:
        return f"Alumni (now {clean_text(match.group('now')).strip(' .,;')})"
    return role


def _role_of(heading: str) -> str | None:
    text = clean_text(heading)
    if not text or len(text.split()) > 6:
        return None
    if not _ANY_ROLE_HEADING.search(text):
        return None
    return next((role for pattern, role in _ROLE_HEADINGS if pattern.search(text)), None)


CASES = (
    Case(
        fixture="lab/group.html",
        url="https://vision-lab.example.edu/",
        notes="People by role heading (list rows and name cards), alumni with their next step, "
        "dated news and publication rows; footer and navigation are not items.",
    ),
)
