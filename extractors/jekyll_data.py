"""Custom Jekyll/Hugo sites that keep their content in data files and posts.

Claims: ``github:`` repository bundles with data lists under ``_data/`` (``.yml``,
``.yaml``, ``.json``) that hold people or publications, and/or news posts under
``_posts/``. Detection looks only at file names and at the shape of the data, never
at site names.

Reads, by general rules:

- a **people list**: a list (top level, or nested under group keys such as
  ``cics: {members: [...]}``) of mappings that have a ``name`` and no paper fields →
  :class:`~watcher.records.Member`. The role is the person's stated position
  (``position``/``role``/``title``/``status``), else the list's own name (file name or
  group key). Alumni (a list or role naming alumni, or ``current: false``) get
  "Alumni (degree, year; job)" so a student who graduates is the same member, modified.
  Links and photos are left out on purpose: they churn without news.
- a **publications list**: mappings with a ``title`` and ``authors``/``venue``/``year``
  → :class:`~watcher.records.Paper`.
- **news posts**: ``_posts/**`` files → :class:`~watcher.records.NewsItem` with the date
  from the front matter or the ``YYYY-MM-DD-`` file name, and the post title (else the
  first words of the body) as text.

The helpers here (``front_matter``, ``markdown_to_text``, ``members_from_data``,
``member_from_entry``, ``papers_from_data``) are shared with the al-folio extractor.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import frontmatter
import yaml
from selectolax.lexbor import LexborHTMLParser

from extractors.base import Case, Extractor
from watcher.records import Document, Member, NewsItem, Paper, Record
from watcher.text import clean_text, find_arxiv, find_doi, parse_date, parse_year, split_authors

__all__ = [
    "CASES",
    "JekyllDataExtractor",
    "first_per_name",
    "front_matter",
    "load_data",
    "markdown_to_text",
    "member_from_entry",
    "members_from_data",
    "news_from_post",
    "papers_from_data",
]

_DATA_PATH = re.compile(r"^_data/(?:.+/)?(?P<stem>[^/]+)\.(?:ya?ml|json)$")
_POST_PATH = re.compile(r"^_posts/(?:.+/)?(?P<name>[^/]+)\.(?:md|markdown|html)$")
_POST_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-")
_STATED_ROLE_FIELDS = ("position", "role", "title", "status", "type")
_PAPER_FIELDS = frozenset({"authors", "author", "venue", "journal", "booktitle", "conference", "doi"})
_PERSON_HINTS = frozenset(
    {"position", "role", "status", "category", "email", "website", "url", "image", "pic", "photo", "degree",
     "graduated", "firstjob", "nowat", "current", "year", "twitter", "scholar", "github", "description"}
)
_ALUMNI = re.compile(r"\b(?:alum\w*|former|past)\b", re.I)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LIQUID = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_KRAMDOWN_ATTR = re.compile(r"{:[^}]*}")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_EMOJI_CODE = re.compile(r":[a-z0-9_+\-]+:")
_MD_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*", re.M)


def front_matter(text: str) -> tuple[dict[str, Any], str]:
    """A markdown file's YAML front matter and body; ({}, text) when there is none or it is broken."""
    try:
        post = frontmatter.loads(text)
    except Exception:  # malformed YAML: read the file as plain body
        return {}, text
    meta = post.metadata if isinstance(post.metadata, dict) else {}
    return dict(meta), post.content


def markdown_to_text(body: str) -> str:
    """Markdown/HTML/Liquid as plain text; line and paragraph breaks survive as newlines."""
    text = _HTML_COMMENT.sub(" ", body)
    text = _LIQUID.sub(" ", text)
    text = _KRAMDOWN_ATTR.sub("", text)
    text = _MD_IMAGE.sub(" ", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = re.sub(r"<br\s*/?>|</p>|</div>|</li>|</h\d>", "\n", text, flags=re.I)
    if "<" in text:
        text = _html_text(text)
    text = _EMOJI_CODE.sub("", text)
    # These two regexes have no literal prefix to scan for, so test for their marker characters first.
    if "*" in text or "_" in text:
        text = _MD_EMPHASIS.sub(r"\2", text)
    if "#" in text:
        text = _HEADING.sub("", text)
    lines = (clean_text(line) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _html_text(fragment: str) -> str:
    # Keep newlines: selectolax's text() keeps text nodes verbatim, so tags vanish and breaks stay.
    tree = LexborHTMLParser(f"<body>{fragment}</body>")
    body = tree.body
    return body.text(deep=True, separator="") if body is not None else fragment


def load_data(path: str, text: str) -> Any:
    """A data file's content (YAML or JSON), or None when it does not parse."""
    try:
        return json.loads(text) if path.endswith(".json") else yaml.safe_load(text)
    except Exception:  # a broken data file yields nothing rather than failing the source
        return None


def _humanise(label: str) -> str:
    label = clean_text(re.sub(r"[_\-]+", " ", label))
    return label[:1].upper() + label[1:] if label else label


def _text_value(value: Any) -> str:
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return markdown_to_text(str(value)).replace("\n", " ")
    return ""


def _groups(data: Any, label: str) -> Iterator[tuple[str, list[Mapping[str, Any]]]]:
    """Every list of mappings in a data structure, with the label of the key it sits under."""
    if isinstance(data, list):
        entries = [e for e in data if isinstance(e, Mapping)]
        if entries:
            yield label, entries
        return
    if isinstance(data, Mapping):
        for key, value in data.items():
            # "members"/"list"/"items" are containers, not categories: keep the outer label
            inner = label if str(key).lower() in {"members", "people", "list", "items", "entries"} else str(key)
            yield from _groups(value, inner)


def _is_person(entry: Mapping[str, Any]) -> bool:
    return bool(_text_value(entry.get("name"))) and not (_PAPER_FIELDS & entry.keys())


def _is_paper(entry: Mapping[str, Any]) -> bool:
    return bool(_text_value(entry.get("title"))) and bool(_PAPER_FIELDS & entry.keys() or "year" in entry)


def members_from_data(data: Any, label: str) -> list[Member]:
    """People in a data file: lists whose entries have a name (most of them also person fields)."""
    members: list[Member] = []
    for group, entries in _groups(data, label):
        people = [e for e in entries if _is_person(e)]
        hinted = [e for e in people if _PERSON_HINTS & e.keys()]
        if not people or len(people) * 2 < len(entries) or len(hinted) * 2 < len(people):
            continue
        members.extend(m for e in people if (m := member_from_entry(e, _humanise(group))) is not None)
    return members


def member_from_entry(entry: Mapping[str, Any], category: str | None) -> Member | None:
    """One person: name, and role = stated position or the list they are in; alumni with their details."""
    name = _text_value(entry.get("name"))
    if not name:
        return None
    stated = next((t for f in _STATED_ROLE_FIELDS if (t := _text_value(entry.get(f)))), "")
    category = _humanise(_text_value(entry.get("category"))) or category or ""
    alumni = entry.get("current") is False or bool(_ALUMNI.search(f"{category} {stated}"))
    if not alumni:
        return Member(name=name, role=stated or category or None)
    base = stated if _ALUMNI.search(stated) else "Alumni"
    details = _alumni_details(entry, skip=base)
    return Member(name=name, role=f"{base} ({details})" if details else base)


def _alumni_details(entry: Mapping[str, Any], skip: str) -> str:
    degree = next((t for f in ("degree", "graduated", "purpose") if (t := _text_value(entry.get(f)))), "")
    year = _text_value(entry.get("year"))
    if year and year not in degree:
        degree = f"{degree} {year}".strip()
    jobs = [t for f in ("position", "firstjob", "job") if (t := _text_value(entry.get(f))) and t != skip]
    if now := _text_value(entry.get("nowat")):
        jobs.append(f"now {now}")
    if nxt := _text_value(entry.get("nextjob")):
        jobs.append(f"next {nxt}")
    return "; ".join(p for p in (degree, *jobs) if p)


def papers_from_data(data: Any) -> list[Paper]:
    """Publications in a data file: entries with a title and authors/venue/year."""
    papers: list[Paper] = []
    for _group, entries in _groups(data, ""):
        candidates = [e for e in entries if _is_paper(e)]
        if not candidates or len(candidates) * 2 < len(entries):
            continue
        papers.extend(_paper_from_entry(e) for e in candidates)
    return papers


def _paper_from_entry(entry: Mapping[str, Any]) -> Paper:
    authors_value = entry.get("authors") or entry.get("author")
    if isinstance(authors_value, list):
        authors = tuple(t for a in authors_value if (t := _text_value(a)))
    else:
        authors = split_authors(_text_value(authors_value))
    links = [t for f in ("url", "doi", "arxiv", "link", "html", "paper") if (t := _text_value(entry.get(f)))]
    venue = next((t for f in ("venue", "journal", "booktitle", "conference") if (t := _text_value(entry.get(f)))), None)
    return Paper(
        title=_text_value(entry.get("title")),
        authors=authors,
        venue=venue,
        year=parse_year(_text_value(entry.get("year"))),
        url=_text_value(entry.get("url")) or None,
        doi=next((d for link in links if (d := find_doi(link))), None),
        arxiv=next((a for link in (*links, venue or "") if (a := find_arxiv(link))), None),
    )


def news_from_post(path: str, text: str, *, prefer_body: bool = False) -> NewsItem | None:
    """A dated post as a news item: its title (or, if asked or untitled, its body) and its date."""
    meta, body = front_matter(text)
    date_value = meta.get("date")
    iso = _iso_date(date_value)
    name = path.rsplit("/", 1)[-1]
    if iso is None and (m := _POST_DATE.match(name)):
        iso = parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    title = _text_value(meta.get("title"))
    body_text = markdown_to_text(body).replace("\n", " ")
    words = body_text if prefer_body or not title else title
    if not words:
        words = title or body_text
    return NewsItem(text=words, date=iso) if words else None


def _iso_date(value: Any) -> str | None:
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = _text_value(value)
    if m := re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})", text):
        return parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    return parse_date(text)


def data_files(files: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """(path, file stem, text) of every ``_data`` file, in path order."""
    for path in sorted(files):
        if m := _DATA_PATH.match(path):
            yield path, m["stem"], files[path]


def records_from_data(files: Mapping[str, str]) -> tuple[list[Member], list[Paper]]:
    """People and publications from every data file; a person listed twice keeps the first listing."""
    members: list[Member] = []
    papers: list[Paper] = []
    for path, stem, text in data_files(files):
        data = load_data(path, text)
        members.extend(members_from_data(data, stem))
        papers.extend(papers_from_data(data))
    return first_per_name(members), papers


def first_per_name(members: Iterable[Member]) -> list[Member]:
    """The first member of each name (a person listed in two data files counts once)."""
    seen: dict[str, Member] = {}
    for member in members:
        seen.setdefault(member.key, member)
    return list(seen.values())


class JekyllDataExtractor(Extractor):
    """A Jekyll/Hugo repository whose people, publications and news live in data files and posts."""

    name = "jekyll-data"
    priority = 55
    source_paths = (r"^_data/(?:.+/)?[^/]+\.(?:ya?ml|json)$", r"^_posts/.+\.(?:md|markdown|html)$")

    def detect(self, doc: Document) -> str | None:
        if not doc.is_bundle:
            return None
        found = _content_kinds(doc.files)
        return f"data files with {', '.join(sorted(found))}" if found else None

    def parse(self, doc: Document) -> list[Record]:
        if not doc.is_bundle:
            return []
        members, papers = records_from_data(doc.files)
        news = [
            item
            for path in sorted(doc.files)
            if _POST_PATH.match(path) and (item := news_from_post(path, doc.files[path])) is not None
        ]
        return [*papers, *news, *members]


def _content_kinds(files: Mapping[str, str]) -> set[str]:
    kinds: set[str] = set()
    if any(_POST_PATH.match(p) for p in files):
        kinds.add("posts")
    for path, _stem, text in data_files(files):
        if kinds >= {"people", "publications"}:
            break
        if not re.search(r"^\s*-?\s*(?:name|title)\s*:|\"(?:name|title)\"\s*:", text, re.M):
            continue  # cheap check before parsing
        data = load_data(path, text)
        if members_from_data(data, "x"):
            kinds.add("people")
        if papers_from_data(data):
            kinds.add("publications")
    return kinds if kinds & {"people", "publications"} else set()


CASES: Sequence[Case] = (
    Case(
        fixture="jekyll_data/lab",
        url="github:example-lab/example-lab.github.io",
        notes="people.yml with role codes and alumni, groups.yml nested groups, publications.yml, _posts/news",
    ),
)
