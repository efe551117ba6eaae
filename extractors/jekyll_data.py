"""Custom Jekyll sites that keep their content in data files, collections and posts.

Claims: ``github:`` repository bundles with content in data files under ``_data/`` (or
anywhere, next to Jekyll posts). Detection looks only at file names and at the shape of the
data, never at site names.

Reads, by general rules:

- **data files** (``_data/*.yml`` and every other content data file, and ``.bib``
  bibliographies beside them) through the shared data reader (:mod:`extractors.data`):
  people lists → :class:`~watcher.records.Member` (alumni get "Alumni (degree, year; job)" so
  a student who graduates is the same member, modified), publication lists →
  :class:`~watcher.records.Paper`, and news, awards and roles lists alike. Links and photos
  are left out of people on purpose: they churn without news.
- **collections** named for a kind (``_people/``, ``_members/``, ``_team/``, ``_alumni/``,
  ``_publications/``, ``_papers/``, ``_awards/``): each file's front matter is one entry of
  that list, read by the data reader like any data list.
- **news posts**: ``_posts/**`` (and ``_news/**``) files → :class:`~watcher.records.NewsItem`
  with the date from the front matter or the ``YYYY-MM-DD-`` file name, and the post title
  (else the first words of the body) as text.

- **pages**: the site's own pages, Markdown or HTML with front matter (``index.md``,
  ``news.md``, ``publications.html``, ``_pages/*``), Liquid left out, read by the shared
  reading for news, papers and awards, kind by kind where the data files, collections and
  posts have none ("## News" bullets on the home page).

``news_from_post`` and ``first_per_name`` are shared with the al-folio
extractor.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from extractors.base import Case, Extractor, with_shared_reading
from extractors.data import DataReading, bundle_kinds, first_per_key, read_data, read_data_files, with_role_labels
from extractors.markdown import (
    front_matter_text,
    is_unpublished,
    markdown_to_text,
    parse_front_matter,
    without_liquid,
)
from extractors.reading import ListReport
from watcher.records import Document, Member, NewsItem, Record
from watcher.text import parse_date

__all__ = [
    "CASES",
    "JekyllDataExtractor",
    "collection_records",
    "first_per_name",
    "markdown_to_text",
    "news_from_post",
]

_POST_PATH = re.compile(r"^_(?:posts|news)/(?:.+/)?(?P<name>[^/]+)\.(?:md|markdown|html)$")
_POST_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-")
_COLLECTION_PATH = re.compile(
    r"^_(?P<name>people|members|team|alumni|publications|papers|awards)/(?:.+/)?[^/]+\.(?:md|markdown)$"
)


def news_from_post(path: str, text: str, *, prefer_body: bool = False) -> NewsItem | None:
    """A dated post as a news item: its title (or, if asked or untitled, its body) and its date."""
    meta, body = parse_front_matter(text)
    if is_unpublished(meta):
        return None
    date_value = meta.get("date")
    iso = _iso_date(date_value)
    name = path.rsplit("/", 1)[-1]
    if iso is None and (m := _POST_DATE.match(name)):
        iso = parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    title = markdown_to_text(front_matter_text(meta.get("title"))).replace("\n", " ")
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
    text = front_matter_text(value)
    if m := re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})", text):
        return parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    return parse_date(text)


def first_per_name(members: Iterable[Member]) -> list[Member]:
    """The first member of each name (a person listed in two data files counts once)."""
    seen: dict[str, Member] = {}
    for member in members:
        seen.setdefault(member.key, member)
    return list(seen.values())


class JekyllDataExtractor(Extractor):
    """A Jekyll repository whose people, publications and news live in data files and posts."""

    name = "jekyll-data"
    priority = 55
    # Data files are wanted by the data extractor; these are Jekyll's own folders.
    source_paths = (r"^_posts/.+\.(?:md|markdown|html)$", _COLLECTION_PATH.pattern)

    def wants_path(self, path: str) -> bool:
        return super().wants_path(path) or _page_match(path) is not None

    def detect(self, doc: Document) -> str | None:
        if not doc.is_bundle or not _is_jekyll(doc.files):
            return None
        found = bundle_kinds(doc.files)
        if found:
            return f"Jekyll data files with {', '.join(sorted(found))}"
        # No content data file: a site whose people and news are collections and posts.
        collections = sorted({m["name"] for p in doc.files if (m := _COLLECTION_PATH.match(p))})
        if collections or any(_POST_PATH.match(p) for p in doc.files):
            return f"Jekyll collections ({', '.join(['posts', *collections])})"
        return None

    def parse(self, doc: Document) -> list[Record]:
        return self._read(doc)[0]

    def explain(self, doc: Document) -> list[ListReport]:
        return self._read(doc)[1].lists

    @staticmethod
    def _read(doc: Document) -> tuple[list[Record], DataReading]:
        if not doc.is_bundle:
            return [], DataReading()
        reading = read_data_files(doc.files)
        reading.records.extend(with_role_labels(collection_records(doc.files), reading.role_labels))
        files = with_person_names(doc.files, reading.person_names)
        news = [
            item
            for path in sorted(files)
            if _POST_PATH.match(path) and (item := news_from_post(path, files[path])) is not None
        ]
        data_members = [r for r in reading.records if isinstance(r, Member)]
        others = with_shared_reading([*reading.records, *news], page_records(files))
        others = [r for r in others if not isinstance(r, Member)]
        return first_per_key([*others, *data_members]), reading


_PAGE_PATH = re.compile(r"^(?:_pages/)?(?P<name>[\w-]+)\.(?P<type>md|markdown|html?)$")
_NOT_PAGES = frozenset({"readme", "license", "changelog", "contributing", "code_of_conduct", "404"})
#: What a page's prose and lists tell reliably beside data files; roles and people read from a
#: lab's welcome text would be guesses, but a page named for the group's people lists them.
_PAGE_KINDS = frozenset({"news", "paper", "award"})
_PEOPLE_PAGE = re.compile(r"(?:our |the )?(?:people|members?|team|group|lab members|alumni|students)", re.I)


def page_records(files: Mapping[str, str]) -> list[Record]:
    """News, papers and awards the site's own pages list, Markdown or HTML (Liquid tags left out)."""
    from extractors.generic import records_from_html, records_from_markdown

    records: list[Record] = []
    for path in sorted(files):
        if (match := _page_match(path)) is None:
            continue
        meta, body = parse_front_matter(files[path])
        if match["type"].startswith("htm"):
            if not meta:
                continue  # a page Jekyll does not render: a verification file, a copied export
            read = records_from_html(without_liquid(body))
        else:
            read = records_from_markdown(without_liquid(body))
        kinds = _PAGE_KINDS | {"member"} if _lists_people(match["name"], meta) else _PAGE_KINDS
        records.extend(r for r in read if r.kind in kinds)
    return records


def _lists_people(name: str, meta: Mapping[str, Any]) -> bool:
    """A page named for the group's people: ``people.md``, ``_pages/group.md``, or titled "Team"."""
    title = front_matter_text(meta.get("title")).strip()
    return bool(_PEOPLE_PAGE.fullmatch(name) or _PEOPLE_PAGE.fullmatch(title))


#: A lab theme's tag for a member in a post or page: ``{% person awadell %}``, the person's id in
#: the people data file.
_PERSON_TAG = re.compile(r"\{%-?\s*person\s+([\w.-]+)\s*-?%\}")


def with_person_names(files: Mapping[str, str], names: Mapping[str, str]) -> dict[str, str]:
    """The site's files with each person tag replaced by the name the people file gives that id
    (``DataReading.person_names``); dropped with the rest of the Liquid, the names would vanish
    from the news."""
    if not names:
        return dict(files)
    return {
        path: _PERSON_TAG.sub(lambda m: names.get(m.group(1), m.group(0)), text) if "person" in text else text
        for path, text in files.items()
    }


def _page_match(path: str) -> re.Match[str] | None:
    """A page of the site (``index.md``, ``_pages/news.md``, ``publications.html``), not its
    README, licence or error page."""
    match = _PAGE_PATH.match(path)
    return match if match is not None and match["name"].lower() not in _NOT_PAGES else None


def _is_jekyll(files: Mapping[str, str]) -> bool:
    return "_config.yml" in files or any(path.startswith(("_data/", "_posts/")) for path in files)


def collection_records(files: Mapping[str, str], name_of: Callable[[str], str | None] | None = None) -> list[Record]:
    """Records of collections named for a kind (``name_of`` gives a path's collection, or None):
    each file's front matter is one entry of its collection's list, read by the data reader."""
    by_collection: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(files):
        if (name := (name_of or _collection_name)(path)) is not None:
            meta, _body = parse_front_matter(files[path])
            if meta and not is_unpublished(meta):
                by_collection.setdefault(name, []).append(meta)
    return [r for name, metas in by_collection.items() for r in read_data(metas, f"_{name}/", name).records]


def _collection_name(path: str) -> str | None:
    return m["name"] if (m := _COLLECTION_PATH.match(path)) else None


CASES: Sequence[Case] = (
    Case(
        fixture="jekyll_data/lab",
        url="github:example-lab/example-lab.github.io",
        notes="people.yml with role codes and alumni, groups.yml nested groups, publications.yml, _posts/news",
    ),
    Case(
        fixture="jekyll_data/home_news",
        url="github:quill-lab/quill-lab.github.io",
        notes="people in _data, news only as dated bullets under the home page's News heading",
    ),
    Case(
        fixture="jekyll_data/html_pages",
        url="github:tern-lab/tern-lab.github.io",
        notes="people in _data; news and papers hand-written in HTML pages with front matter and Liquid",
    ),
    Case(
        fixture="jekyll_data/person_tags",
        url="github:sandbar-lab/sandbar-lab.github.io",
        notes="people keyed by id; a post that names them with {% person id %} tags reads their names",
    ),
    Case(
        fixture="jekyll_data/scholar_team",
        url="github:reach-lab/reach-lab.github.io",
        notes="no content data file: a _team collection (alumni with where they went), _posts news and a "
        "jekyll-scholar bibliography outside _bibliography/; the plugin alone does not make it al-folio",
    ),
)
