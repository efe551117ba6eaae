"""Content kept in data files (JSON, YAML, TOML), read item by item.

Claims ``github:`` repositories whose content lives in data files anywhere in the tree
(``data/people.json``, ``src/data/publications.yaml``, ``content/talks.toml``,
``public/home.json``), and pages served as JSON (by content type, or a body that is a JSON
object or array). Nothing here knows a site: objects become records by their field names and
by where they sit.

How a file is read, top down:

- A list under a key (or in a file, or a folder) whose name names a kind ("publications",
  "papers", "news", "members", "people", "team", "awards", "experience", "education": the
  shared section vocabulary) holds that kind; any other list is read by the shape of its
  entries, and most of them must agree.
- An entry that holds a list of records and is no record itself is a group
  (``{"type": "PhD Students", "members": [...]}``, ``{"year": 2024, "papers": [...]}``): its
  label is the role of the people in it (alumni when it names past or former members) and its
  year the papers' year.
- An object of objects keyed by ids (``jdoe: {name: ..., role: ...}``) is a list of them.
- A lone object is one record when its key, file or folder names its kind (one publication
  per file under ``publications/``).

Fields are matched by name, compared without case or punctuation (``display_name``,
``authorLine``): papers (title + authors/venue/journal/booktitle/conference/doi/arxiv, year or
date, links), people (name + role/position/title/type/group/status; ``alumni: true`` or
``current: false``, or a group naming alumni, give an alumni role, with "now ..." from
now/current_position/next fields), news (date + text/title/content/headline/body; markup
reduced to plain text), awards (award/honor/prize/fellowship/grant + year/organisation) and
roles (title/position + organisation/institution + start/end).

Not content: configuration and package files (``NOT_CONTENT``), and data files that are
templates (front matter or Liquid tags: Jekyll renders them, they are not data). A malformed
file raises an :class:`~watcher.errors.ExtractionError` that names it (the site's own build
fails on it too), so a typo never reads as every item of that file removed. A file is read
up to ``MAX_ENTRIES`` entries; past that it is cut short, and ``explain`` says so.
"""

from __future__ import annotations

import html
import json
import logging
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

import yaml

from extractors.base import Case, Extractor
from extractors.bibtex import read_bibtex
from extractors.markdown import front_matter_text, markdown_to_text
from extractors.reading import ListReport
from extractors.reading.awards import paper_award, parse_award_line
from extractors.reading.dates import day_first_where_written, find_range, leading_date, parse_date_text
from extractors.reading.names import clean_person_name, is_degree_list, is_person_name, looks_like_authors
from extractors.reading.papers import author_names, is_venue, publication_status, with_status
from extractors.reading.people import GENERIC_GROUP, ROLE_WORDS, is_sentence
from extractors.reading.roles import ORG_WORDS
from extractors.reading.vocabulary import ALUMNI_WORDS, heading_kind, is_unlisted_heading
from watcher.errors import ExtractionError
from watcher.records import Award, Document, Member, NewsItem, Paper, Record, Role
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, parse_date, parse_year, split_authors

__all__ = [
    "CASES",
    "MAX_ENTRIES",
    "NOT_CONTENT",
    "DataExtractor",
    "DataReading",
    "authors_of",
    "bundle_kinds",
    "first_per_key",
    "is_data_path",
    "load_data",
    "member_from_fields",
    "read_data",
    "read_data_files",
]

log = logging.getLogger(__name__)

#: Entries read from one file at most: a data file that large is a dump, not a page.
MAX_ENTRIES = 5000
#: Nesting followed at most (a site's data is a few levels deep).
_MAX_DEPTH = 12

_DATA_FILE = re.compile(r"\.(?:json|ya?ml|toml)$", re.I)
_BIB_FILE = re.compile(r"\.bib$", re.I)
#: Data files that are configuration, packaging or tooling, never a site's content (matched
#: against the whole path, case-insensitively).
NOT_CONTENT: tuple[str, ...] = (
    r"(?:^|/)\.",  # hidden files and folders: .github/, .eslintrc.json, .travis.yml
    # dependencies, themes, templates and build output
    r"(?:^|/)(?:node_modules|vendor|bower_components|themes|exampleSite|_site|_includes|_layouts|layouts"
    r"|archetypes)/",
    r"(?:^|/)(?:i18n|locales?)/",  # translations of the interface
    r"(?:^|/)(?:package|package-lock|composer|bower|manifest|tsconfig[^/]*|jsconfig[^/]*|vercel|netlify"
    r"|firebase|renovate|angular|app|now|deno|lerna|nx|turbo|components)\.json$",
    r"(?:^|/)(?:netlify|pyproject|cargo|theme|wrangler|samconfig|rustfmt|ruff)\.toml$",
    r"(?:^|/)_config[^/]*\.ya?ml$",  # Jekyll site configuration
    r"^(?:config|hugo)\.(?:toml|ya?ml|json)$|^config/",  # Hugo site configuration
    r"(?:^|/)(?:docker-compose[^/]*|mkdocs|environment|codecov|readthedocs|dependabot|pubspec|pnpm-workspace"
    r"|staticman|citation)\.ya?ml$",
    r"(?:^|/)[^/]*[-.]lock\.(?:json|ya?ml|toml)$",  # lock files
    r"(?:^|/)[^/]*\.(?:schema|min)\.json$",
)
_NOT_CONTENT = re.compile("|".join(NOT_CONTENT), re.I)
_TEMPLATE = re.compile(r"{%|{{|\A\ufeff?---\s*$", re.M)
# libyaml's loader is ~10x faster than the pure-Python one; both are safe loaders.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_KEY_CHARS = re.compile(r"[^a-z0-9]")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_BARE_ALUMNI = frozenset({"alum", "alumni", "alumnus", "alumna", "alumnae", "former", "past"})
_NAME_NOTE = re.compile(r"^(?P<name>[^()]+?)\s*[(\[](?P<note>[^()\[\]]{2,80})[)\]]\s*$")
_ARXIV_ID = re.compile(r"^\d{4}\.\d{4,5}(?:v\d+)?$")


def _key(name: Any) -> str:
    """A field name as compared: lower case, letters and digits only ("display_name" -> "displayname")."""
    return _KEY_CHARS.sub("", str(name).lower())


# ------------------------------------------------------------------ field names, by part

#: "headline" is schema.org's name for an article's title.
_TITLE = ("title", "papertitle", "articletitle", "headline")
#: In order: where the work appeared before who published it (a chapter's book before its press).
_VENUE = ("venue", "journal", "journaltitle", "booktitle", "book", "conference", "proceedings", "containertitle",
          "container", "in", "publication", "publishedin", "journalname", "conferencename", "venuename", "series",
          "publisher", "pubinfo", "repository")
_YEAR_FIELDS = ("year", "pubyear", "yr")
#: Who wrote a work, besides any "author…" field: a byline, Zotero's and Dublin Core's creators.
#: ("by" may name an award's giver as well as a work's authors: it is neither.)
_AUTHOR_FIELDS = ("byline", "creators", "creator")
#: A day written as ISO dates are, whatever field holds it.
_ISO_DAY = re.compile(r"^(?:19|20)\d\d-[01]\d-[0-3]\d(?:[T ][\d:.]+Z?)?$")
_STATUS = ("status", "pubstatus", "publicationstatus", "state", "note", "notes", "details", "info", "comment")
_DATE = ("date", "time", "when", "published", "posted", "pubdate", "datepublished", "day", "issued", "datetime",
         "releasedate")
_LINK = ("url", "link", "links", "href", "paperurl", "html", "pdf", "paper", "pdfurl", "website", "doi", "arxiv")
_NAME = ("name", "displayname", "fullname", "personname")
_GIVEN = ("firstname", "givenname", "given", "first")
_FAMILY = ("lastname", "familyname", "family", "last", "surname")
_MEMBER_ROLE = ("role", "position", "title", "type", "status", "designation", "rank", "jobtitle", "occupation")
#: A person's one-line description ("Postdoctoral Researcher, Mechanical Engineering"): part of
#: their role when it is a short line, not a biography.
_PERSON_LINE = ("bio", "affiliation", "department", "dept", "subtitle", "tagline")
#: The list a person is filed under, when the entry says it itself ("category: phd-students").
_MEMBER_GROUP = ("category", "group")
_ALUMNI_FLAGS = ("alumni", "alum", "alumnus", "alumna", "former", "past")
#: Fields that sort people into current and past ("type: alumni", "status: former").
_MEMBERSHIP = ("type", "status", "membership", "state")
_CURRENT_FLAGS = ("current", "active", "iscurrent")
_NOW = ("now", "nowat", "current", "currentposition", "currentrole", "currentaffiliation", "currently", "placement",
        "destination", "movedto")
_NEXT = ("next", "nextjob", "nextposition")
#: Fields only a former member has: where they went ("now: Assistant Professor, X").
_LEFT_FOR = ("now", "nowat", "placement", "destination", "movedto", *_NEXT)
_ALUMNI_DEGREE = ("degree", "graduated", "purpose")
_FIRST_JOB = ("firstjob", "job")
#: Fields that describe a person rather than name a role: never read as the role.
_PERSON_PROSE = frozenset({"bio", "biography", "about", "description", "summary", "interests", "research",
                           "researchinterests", "email", "mail", "image", "photo", "pic", "avatar", "portrait"})
#: Numbered fields ("education1") and a person's history are not their role in the group.
_NOT_ROLE_FIELD = re.compile(r"\d|education|degree|purpose|graduated|award|honou?r|interest|thesis")
_NOT_ROLE_KEYS = _PERSON_PROSE | {*_NAME, *_MEMBER_GROUP, *_NOW, *_NEXT, *_FIRST_JOB, *_PERSON_LINE}
_PERSON_HINTS = frozenset(
    {"position", "role", "status", "category", "email", "website", "url", "image", "pic", "photo", "degree",
     "graduated", "firstjob", "nowat", "current", "year", "twitter", "scholar", "github", "description", "bio",
     "avatar", "portrait", "homepage", "webpage", "linkedin", "orcid", "title", "type", "group", "alumni", "alum"}
)
#: The most words a news item's title has: longer, it is the item's text itself.
_HEADLINE_WORDS = 16
_NEWS_TEXT = ("headline", "text", "news", "message", "title", "content", "body", "summary", "description",
              "details", "html", "markdown")
#: What names an award in a list of them when no field says "award": its title, its name, "what".
_AWARD_NAME = ("title", "name", "what")
_AWARD = ("award", "honor", "honour", "prize", "fellowship", "grant", "scholarship", "distinction")
_ORG = ("organization", "organisation", "org", "institution", "institute", "company", "employer", "school",
        "university", "affiliation", "awarder", "awardedby", "issuer", "sponsor", "agency", "funder", "place")
_POSITION = ("title", "position", "role", "jobtitle", "degree", "studytype")
_START = ("start", "startdate", "from", "begin", "since", "startyear", "datestart")
_END = ("end", "enddate", "to", "until", "endyear", "dateend")
_PERIOD = ("dates", "years", "period", "duration", "date", "when", "time", "year")
#: List fields that belong to the record holding them (its authors, links, pictures), never groups.
_OWN_LISTS = re.compile(r"^(?:author|editor|link|tag|keyword|image|photo|media|file|resource|button|social|icon"
                        r"|contact|education|interest|topic|label|categor|pub(?:lication)?names"
                        # A record's own notes, whatever their lines hold ("- Advisor: Prof. X" is a map in YAML).
                        r"|description|detail|note|highlight|bullet|responsibilit|summary)")
_FIELD_WRAPPERS = ("attributes", "fields", "properties")
_GROUP_LABEL = ("type", "name", "title", "group", "category", "label", "heading", "section", "role", "status")
#: Keys that hold a list without naming what is in it: the outer label stays.
_CONTAINER_KEYS = frozenset({"members", "people", "list", "items", "entries", "data", "records", "content",
                             "children", "values"})
#: Kinds a key may announce but that a data file rarely means as such ("projects" are not papers).
_NOT_ANNOUNCING = frozenset({"project", "projects", "events", "event", "highlights", "background",
                             "professional", "training", "cv", "reports", "director", "latest"})


#: CV lists whose entries have a "name" but are not the people of a group (JSON Resume and kin).
_NOT_PEOPLE = frozenset({"references", "referees", "skills", "languages", "interests", "projects", "certificates",
                         "certifications", "tools", "software", "courses", "teaching"})


def _announced(name: str) -> str | None:
    """The kind a key, file stem or folder names ("publications" -> paper, "team_members" -> member)."""
    words = clean_text(re.sub(r"[_\-.]+|(?<=[a-z])(?=[A-Z])", " ", name))
    if not words or words.lower() in _NOT_ANNOUNCING or words[:1].isdigit():
        return None
    return heading_kind(words)


#: Group keys that are initials, written as people write them: "pi" -> "PI", "phd" -> "PhD".
_INITIALS = {"pi": "PI", "pis": "PIs", "phd": "PhD", "phds": "PhDs", "ms": "MS", "msc": "MSc", "ra": "RA", "ras": "RAs"}


def _humanise(label: str) -> str:
    label = clean_text(re.sub(r"[_\-]+", " ", label))
    if initials := _INITIALS.get(label.lower()):
        return initials
    return label[:1].upper() + label[1:] if label else label


# ------------------------------------------------------------------ loading


def is_data_path(path: str) -> bool:
    """Whether a repository file is a data file that may hold content (not configuration)."""
    return bool(_DATA_FILE.search(path)) and not _NOT_CONTENT.search(path)


def load_data(path: str, text: str) -> Any:
    """A data file's content; None for a template that only looks like data (front matter or
    Liquid tags, and not parseable). A malformed file raises ``ExtractionError`` naming the file
    and the place."""
    try:
        return in_one_language(_parse(path, text))
    except ExtractionError:
        if _TEMPLATE.search(text):
            return None
        raise


#: Language codes a bilingual site keys its texts by ({"en": "Professor", "ja": "教授"}).
_LANGUAGE = re.compile(
    r"^(?:en|fr|de|es|pt|it|nl|ja|zh|ko|ru|sv|da|no|nb|nn|fi|is|pl|cs|sk|sl|hr|sr|bg|tr|ar|he|el|hu|ro|ca|eu|gl"
    r"|cy|ga|uk|vi|th|hi|fa|ms|et|lv|lt)(?:[-_][a-z]{2,4})?$",
    re.I,
)


def in_one_language(node: Any) -> Any:
    """Data with each text a bilingual site keys by language told once, in English where it is given
    (else in the first language): ``{"en": "Professor", "ja": "教授"}`` is "Professor", an entry
    ``{date: …, fr: "…", en: "…"}`` has the English as its ``text``, and ``nameEn`` / ``nameJa`` are
    one ``name``. Two languages at least: a lone ``es`` key may be anything."""
    return _in_one_language(node, {}, 0)


#: How deep a data file is walked for bilingual texts; deeper values are left as they are.
_LANGUAGE_DEPTH = 40


def _in_one_language(node: Any, done: dict[int, Any], depth: int) -> Any:
    # A YAML alias repeats one object many times: it is rewritten once (``done``), not once per use.
    if not isinstance(node, list | Mapping) or depth > _LANGUAGE_DEPTH:
        return node
    if id(node) in done:
        return done[id(node)]
    if isinstance(node, list):
        done[id(node)] = result = [_in_one_language(item, done, depth + 1) for item in node]
        return result
    done[id(node)] = result = _one_language_entry(
        {name: _in_one_language(value, done, depth + 1) for name, value in node.items()}
    )
    return result


def _one_language_entry(node: dict[Any, Any]) -> Any:
    """One object with its texts by language told once (see ``in_one_language``)."""
    by_field: dict[str, list[tuple[str, str]]] = {}
    for name, value in node.items():
        if isinstance(name, str) and isinstance(value, str) and (split := _field_and_language(name)):
            by_field.setdefault(split[0], []).append((split[1], name))
    for base, named in by_field.items():
        if len(named) < 2:
            continue
        chosen = node[next((name for language, name in named if language.startswith("en")), named[0][1])]
        if not base and len(named) == len(node):
            return chosen
        node = {name: value for name, value in node.items() if name not in {n for _, n in named}}
        node.setdefault(base or "text", chosen)
    return node


#: A field named with its language: "nameEn", "name_ja", "title-fr".
_LANGUAGE_SUFFIX = re.compile(r"^(?P<field>[A-Za-z]+?)(?:[_-](?P<code>[a-z]{2})|(?P<camel>[A-Z][a-z]))$")


def _field_and_language(name: str) -> tuple[str, str] | None:
    """The field a key names and its language ("" and "en" for "en"; "name" and "en" for "nameEn")."""
    if _LANGUAGE.match(name):
        return "", name.lower()
    if (split := _LANGUAGE_SUFFIX.match(name)) and _LANGUAGE.match(code := (split["code"] or split["camel"]).lower()):
        return split["field"], code
    return None


def _parse(path: str, text: str) -> Any:
    lowered = path.lower()
    try:
        if lowered.endswith(".json"):
            return json.loads(text)
        if lowered.endswith(".toml"):
            return tomllib.loads(text)
        return yaml.load(text, Loader=_YAML_LOADER)
    except json.JSONDecodeError as exc:
        raise ExtractionError(f"{path}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ExtractionError(f"{path}: malformed TOML: {exc}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc
        raise ExtractionError(f"{path}: malformed YAML{where}: {problem}") from exc
    except ValueError as exc:  # YAML with an impossible date (2024-13-01)
        raise ExtractionError(f"{path}: malformed YAML: {exc}") from exc


# ------------------------------------------------------------------ field access


class _Fields:
    """One object's fields by their compared names, with readers for each kind of value."""

    __slots__ = ("by_key", "raw")

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.by_key: dict[str, Any] = {}
        for name, value in raw.items():
            self.by_key.setdefault(_key(name), value)
        # Headless CMSs wrap an entry's fields in one object ({"id": 7, "attributes": {...}}).
        for wrapper in _FIELD_WRAPPERS:
            if isinstance(inner := self.by_key.get(wrapper), Mapping):
                for name, value in inner.items():
                    self.by_key.setdefault(_key(name), value)

    def has(self, names: Iterable[str]) -> bool:
        return any(_present(self.by_key.get(n)) for n in names)

    def value(self, names: Iterable[str]) -> Any:
        return next((v for n in names if _present(v := self.by_key.get(n))), None)

    def text(self, names: Iterable[str], *, words: int = 0) -> str:
        """The first of ``names`` that holds text (markup reduced to one line); ``words``: at most
        that many words (longer values are prose, skipped)."""
        for name in names:
            text = _text(self.by_key.get(name))
            if text and (not words or len(text.split()) <= words):
                return text
        return ""

    def when(self) -> Any:
        """A date field's value, else the value of any field that is a date (``on: 2024-08-19``)."""
        named = self.value(_DATE)
        if named is not None:
            return named
        return next(
            (v for v in self.by_key.values() if isinstance(v, date) or (isinstance(v, str) and _ISO_DAY.match(v))),
            None,
        )

    def news_text(self) -> str:
        """A text field's words, else the longest sentence-like value (``blurb: "Ana joins the lab …"``)."""
        if text := self.text(_NEWS_TEXT):
            return text
        prose = [t for v in self.by_key.values() if isinstance(v, str) and len((t := _text(v)).split()) >= 4]
        return max((t for t in prose if not _looks_like_link(t)), key=len, default="")

    def authors(self) -> tuple[str, ...]:
        value = next(
            (v for k, v in self.by_key.items() if (k.startswith("author") or k in _AUTHOR_FIELDS) and _present(v)),
            None,
        )
        return authors_of(value)

    def name(self) -> str:
        for key in _NAME:
            # "Ana Lima<br>Hills High<br>Since 2022": the name is the first line, the rest is about them.
            if isinstance(raw := self.by_key.get(key), str) and (lines := _LINE_BREAK.split(raw, maxsplit=1))[1:]:
                return _text(lines[0])
        if name := self.text(_NAME, words=12):
            return name
        parts = self
        if isinstance(nested := self.value(_NAME), Mapping):
            parts = _Fields(nested)  # "name": {"first": "Ana", "last": "Lima"}
        given, family = parts.text(_GIVEN, words=4), parts.text(_FAMILY, words=4)
        return f"{given} {family}" if given and family else ""

    def links(self) -> list[str]:
        """Links from the link fields first, then any other field whose value is a web address."""
        named = [link for name in _LINK for link in _strings(self.by_key.get(name)) if _looks_like_link(link)]
        other = [
            value.strip()
            for key, value in self.by_key.items()
            if key not in _LINK and isinstance(value, str) and value.strip().startswith(("http://", "https://"))
        ]
        return named + other


def _present(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != {}


_LINE_BREAK = re.compile(r"<br\s*/?>", re.I)


def _text(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date | int | float):
        return str(value)
    if isinstance(value, str):
        text = markdown_to_text(value).replace("\n", " ")
        return clean_text(html.unescape(text)) if "&" in text else text
    if isinstance(value, list) and value and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(t for v in value if (t := _text(v)))
    return ""


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a value (a link may be a string, a list, or an object of links)."""
    if isinstance(value, str):
        yield value.strip()
    elif isinstance(value, Mapping):
        for inner in value.values():
            yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


def _looks_like_link(text: str) -> bool:
    return text.startswith(("http://", "https://", "/", "10.")) or bool(_ARXIV_ID.match(text))


_WITH_COAUTHORS = re.compile(r"^\s*\(?(?:joint\s+)?with\s+", re.I)


def authors_of(value: Any) -> tuple[str, ...]:
    """The authors a field holds: a list of names or of person objects, or one text ("A, B and C")."""
    if isinstance(value, list):
        names: list[str] = []
        for item in value:
            name = _Fields(item).name() if isinstance(item, Mapping) else _text(item)
            if name:
                names.append(clean_person_name(name) or name)
        return tuple(names)
    text = _WITH_COAUTHORS.sub("", _text(value))  # "with Jonah Meyers": the owner's coauthors
    if not text:
        return ()
    return author_names(text) if looks_like_authors(text) else split_authors(text)


def _iso_date(value: Any) -> str | None:
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = _text(value)
    if not text:
        return None
    return parse_date_text(text) or parse_date(text)


# ------------------------------------------------------------------ records


def _paper(fields: _Fields, scope: _Scope) -> Paper | None:
    # In a list of papers, a "name" is the title ("Quiet Rooms" reads like a person's name too).
    title = clean_title(fields.text(_TITLE) or fields.text(("name",)))
    if not title:
        return None
    links = fields.links()
    venue = (
        _venue_named(fields) or _named_venue(fields) or _venue_of_links(fields) or _venue_as_location(fields) or None
    )
    # Where the paper stands ("status: In press", "year: forthcoming") belongs with the venue:
    # "In press" -> "2026" is the news.
    status = next((s for name in (*_STATUS, *_YEAR_FIELDS) if (s := publication_status(fields.text((name,))))), None)
    if status:
        venue = with_status(venue, status) if venue else status
    year = (
        parse_year(fields.text(_YEAR_FIELDS))
        or parse_year((_iso_date(fields.value(_DATE)) or "")[:4])
        or scope.year
        or _year_in(venue)
    )
    doi = find_doi(fields.text(("doi",))) or next((d for link in links if (d := find_doi(link))), None)
    arxiv_field = fields.text(("arxiv", "arxivid", "eprint"))
    arxiv = (
        (find_arxiv(f"arXiv:{arxiv_field}") or find_arxiv(arxiv_field) if arxiv_field else None)
        or next((a for link in links if (a := find_arxiv(link))), None)
        or find_arxiv(venue)
    )
    url = next((link for link in links if link.startswith("http")), None)
    authors = fields.authors()
    if not (authors or venue or year or doi or arxiv or url):
        return None  # {"key": "book", "title": "Monographs"}: a group's label, not a work
    return Paper(title=title, authors=authors, venue=venue, year=year, url=url, doi=doi, arxiv=arxiv)


#: A paper's note reads as an award only when it names one ("Outstanding Student Paper Award, AMLV 2025").
_PAPER_AWARD = ("award", "awards", "awardname", "honor", "honour", "prize", "note", "notes")


def _paper_awards(fields: _Fields, paper: Record) -> list[Award]:
    """The awards a publication list gives a paper in a field of its own ("award": "Best Paper",
    "awards": ["Best Paper Award"])."""
    if not isinstance(paper, Paper):
        return []
    for name in _PAPER_AWARD:
        value = fields.by_key.get(name)
        if isinstance(value, str):
            return [award] if (award := paper_award(fields.text((name,), words=20), paper)) else []
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return [award for v in value if (award := paper_award(clean_text(v), paper))]
    return []


#: The parts of a venue written as an object ({"short": "ICAS '25", "full": "Proceedings of ..."}), fullest first.
_VENUE_PARTS = ("full", "fullname", "long", "name", "title", "text", "short", "abbr", "abbreviation", "acronym")


def _venue_named(fields: _Fields) -> str:
    """The first venue field that names a place of publication, not a web address (a dataset's
    ``repository: Zenodo`` is where it appeared; ``repository: https://github.com/…`` is a link)."""
    named = (fields.text((name,), words=40) for name in _VENUE)
    return next((text for text in named if text and not _looks_like_link(text)), "")


def _venue_as_location(fields: _Fields) -> str:
    """Where a paper appeared, kept as its "location" ("To appear in VLDB 2020", "SODA 2020"); a
    city alone ("Vienna, Austria") is where a talk was given, not a venue."""
    location = fields.text(("location",), words=40)
    return location if location and (is_venue(location) or _year_in(location)) else ""


def _named_venue(fields: _Fields) -> str:
    """A venue written as an object of its names: its full name, else its short one."""
    value = fields.value(_VENUE)
    return _Fields(value).text(_VENUE_PARTS, words=40) if isinstance(value, Mapping) else ""


def _venue_of_links(fields: _Fields) -> str:
    """A link object's label that names where the paper appeared (``link: {url, display: "ECAI 2024"}``)."""
    for name in ("link", "links"):
        value = fields.by_key.get(name)
        if isinstance(value, Mapping):
            for inner in value.values():
                text = _text(inner) if isinstance(inner, str) and not _looks_like_link(inner.strip()) else ""
                if text and (is_venue(text) or _YEAR.search(text)):
                    return text
    return ""


def _year_in(text: str | None) -> int | None:
    match = _YEAR.search(text or "")
    return int(match.group()) if match else None


def member_from_fields(raw: Mapping[str, Any], group: str = "", *, alumni: bool = False) -> Member | None:
    """One person: the name, and as role what the entry states, else the group it is listed under.

    Alumni (listed under a group naming them, flagged ``alumni: true`` / ``current: false``, or
    with a role that says so) get "Alumni (degree, year; job; now ...)", so a student who
    graduates is the same member, modified.
    """
    fields = _Fields(raw)
    name, note = _split_name(fields.name())
    if not name or (ORG_WORDS.search(name) and not is_person_name(name)):
        return None  # the lab or its department ({"lab": {"name": "X Lab", "institution": ...}}), not a person
    stated = _stated_role(fields, note)
    code = ""
    if _ROLE_CODE.fullmatch(stated) and (label := _labelled_role(fields)):
        # "role: phd" picks the section a theme lists a person in; "position: PhD Student" says it.
        code, stated = stated, label
    group = _humanise(fields.text(_MEMBER_GROUP, words=8)) or group
    group = "" if GENERIC_GROUP.match(group) else group
    labels = " ".join([group, stated, code, *(fields.text((name,), words=3) for name in _MEMBERSHIP)])
    alumni = (
        alumni
        or any(fields.by_key.get(flag) is True for flag in _ALUMNI_FLAGS)
        or any(fields.by_key.get(flag) is False for flag in _CURRENT_FLAGS)
        or bool(ALUMNI_WORDS.search(labels))
        or bool(fields.text(_LEFT_FOR, words=20))
    )
    line = _person_line(fields, stated)
    if not alumni:
        role = stated or _studied_degree(fields) or group
        if line:
            role = f"{role} ({line})" if role else line
        return Member(name=name, role=role or None)
    # "Former Postdoc" and "alumni-phd" say more than "Alumni"; a bare code ("alum") says no more.
    base = stated if ALUMNI_WORDS.search(stated) and stated.lower() not in _BARE_ALUMNI else "Alumni"
    held = "" if ALUMNI_WORDS.search(stated) else stated  # the position they held here
    details = "; ".join(p for p in (_alumni_details(fields, held, skip=base), line) if p)
    return Member(name=name, role=f"{base} ({details})" if details else base)


#: A degree a current student is reading for, as a data file names it: "degree: PhD", "program: Honours".
_DEGREE_SOUGHT = re.compile(
    r"(?:ph\.?\s?d|doctoral|m\.?\s?sc|m\.?\s?s|m\.?\s?a|masters?|m\.?\s?phil|m\.?\s?res|honou?rs|b\.?\s?sc"
    r"|b\.?\s?a|undergraduate|bachelor'?s?)\.?",
    re.I,
)


def _studied_degree(fields: _Fields) -> str:
    """A current member's role read from the degree they study for ("degree: PhD" -> "PhD student")."""
    degree = fields.text(("degree", "program", "programme"), words=3)
    return f"{degree} student" if degree and _DEGREE_SOUGHT.fullmatch(degree) else ""


def _split_name(raw: str) -> tuple[str, str]:
    """A name and the role written beside it in brackets ("Jane Doe (MSc Student)")."""
    if not raw:
        return "", ""
    note = ""
    if (match := _NAME_NOTE.match(raw)) and ROLE_WORDS.search(match["note"]) and not is_degree_list(match["note"]):
        raw, note = match["name"], clean_text(match["note"])
    return clean_person_name(raw) or clean_text(raw), note


def _person_line(fields: _Fields, stated: str) -> str:
    line = fields.text(_PERSON_LINE, words=12)
    return "" if not line or line == stated or is_sentence(line) else line


#: A theme's code for a section of people: "pi", "phd", "alumni-ms", "postdoc".
_ROLE_CODE = re.compile(r"[a-z][a-z0-9_-]{0,15}")


def _labelled_role(fields: _Fields) -> str:
    """The first role field written for readers (capitals or several words), not as a code."""
    for name in _MEMBER_ROLE:
        text = fields.text((name,), words=14)
        if text and not _ROLE_CODE.fullmatch(text):
            return text
    return ""


def _stated_role(fields: _Fields, note: str) -> str:
    if stated := fields.text(_MEMBER_ROLE, words=14) or note:
        # A section's code ("role: pi") is read in its place; the rank is the role then, not beside it.
        return stated if _ROLE_CODE.fullmatch(stated) else _with_rank(fields, stated)
    # No role field: a short field that holds a role word ("info: PhD Student").
    for key, value in fields.by_key.items():
        if key in _NOT_ROLE_KEYS or not isinstance(value, str):
            continue
        if _NOT_ROLE_FIELD.search(key):
            continue
        text = _text(value)
        if text and len(text.split()) <= 8 and ROLE_WORDS.search(text) and not _looks_like_link(text):
            return text
    return ""


#: An academic rank, which a person's entry may state beside their part in the lab.
_RANK = re.compile(r"\b(?:professor|lecturer|reader|instructor|scientist|researcher|fellow|engineer)\b", re.I)
_RANK_FIELDS = ("position", "title", "rank", "designation", "jobtitle")


def _with_rank(fields: _Fields, stated: str) -> str:
    """The role with the rank a second field states ("role: Principal Investigator", "position:
    Professor"): a promotion changes the rank field only, and is news."""
    for name in _RANK_FIELDS:
        rank = fields.text((name,), words=8)
        if rank and rank != stated and rank not in stated and _RANK.search(rank) and not _RANK.search(stated):
            return f"{rank}, {stated}"
    return stated


def _alumni_details(fields: _Fields, held: str, skip: str) -> str:
    degree = fields.text(_ALUMNI_DEGREE, words=12)
    year = fields.text(("year",))
    if year and year not in degree:
        degree = f"{degree} {year}".strip()
    jobs = [t for t in (held, *(fields.text((f,), words=16) for f in _FIRST_JOB)) if t and t != skip]
    if now := fields.text(_NOW, words=20):
        jobs.append(f"now {now}")
    elif now := _said_now(fields):
        jobs = [*(job for job in jobs if not _SAID_NOW.match(job)), now]  # said once, as "now ..."
    if nxt := fields.text(_NEXT, words=20):
        jobs.append(f"next {nxt}")
    return "; ".join(dict.fromkeys(p for p in (degree, *jobs) if p))


_SAID_NOW = re.compile(r"^(?:now|currently)\b\s*:?\s*(?:(?:an?|at|as|with)\s+)?(?P<job>.{2,120})$", re.I)


def _said_now(fields: _Fields) -> str:
    """Where an alumnus went, written in a free field ("info: now Research Scientist at X")."""
    for key, value in fields.by_key.items():
        if key not in _NOT_ROLE_KEYS and isinstance(value, str) and (said := _SAID_NOW.match(_text(value))):
            return f"now {said.group('job').strip(' .')}"
    return ""


def _news(fields: _Fields, scope: _Scope) -> NewsItem | None:
    text = fields.news_text()
    if not text:
        return None
    if headline := fields.text(("title",), words=_HEADLINE_WORDS):
        text = headline  # {"title": "Welcome Tobias!", "text": "Tobias joins …"}: told by its title, as posts are
    when = _iso_date(fields.when())
    if when is None and (year := fields.text(("year",))):
        month = fields.text(("month",))
        when = parse_date_text(f"{month} {year}".strip()) or parse_date_text(year)
    url = next((link for link in fields.links() if link.startswith("http")), None)
    return NewsItem(text=text, date=when, url=url)


def _award(fields: _Fields, scope: _Scope) -> Award | None:
    title = clean_title(fields.text(_AWARD) or fields.text(_AWARD_NAME))
    if not title:
        return None
    when = _iso_date(fields.value(_DATE)) or _iso_date(fields.value(_START)) or ""
    year = parse_year(fields.text(_YEAR_FIELDS)) or parse_year(when[:4]) or _year_in(fields.text(_PERIOD))
    return Award(title=title, organization=fields.text(_ORG, words=20) or None, year=year or scope.year)


_OPEN_START = re.compile(r"^(?:since|from)\s+|[\s\-–—]+$", re.I)


def _role(fields: _Fields, scope: _Scope) -> Role | None:
    title = clean_title(fields.text(_POSITION, words=20))
    if not title:
        return None
    start, end = _iso_date(fields.value(_START)), _iso_date(fields.value(_END))
    if start is None and end is None and (period := fields.text(_PERIOD)):
        if found := find_range(period):
            start, end = found[0], found[1]
        else:  # "2020 - " and "since 2020": a start with the end left open
            start = _iso_date(_OPEN_START.sub("", period))
    organization = fields.text(_ORG, words=20) or _non_person_name(fields, words=12)
    return Role(title=title, organization=organization or None, start=start, end=end)


def _non_person_name(fields: _Fields, words: int = 0) -> str:
    """A "name" that is not a person's: a place of work ({"name": "Acme Labs", "position": ...})."""
    name = fields.text(("name",), words=words)
    return name if name and not is_person_name(name) else ""


def _shape(fields: _Fields) -> str | None:
    """The kind an object's fields make, whatever list it is in."""
    if _key_value_pair(fields.raw):
        return None  # {"name": "Location", "value": "Lyon"}: a labelled value, not a record
    name = fields.name()
    titled = fields.has(_TITLE) or (name and not is_person_name(name))
    if titled and (fields.authors() or fields.has(_VENUE) or fields.has(("doi", "arxiv", "arxivid", "eprint"))):
        return "paper"
    if (
        fields.has(_POSITION)
        and fields.has((*_START, *_END, *_PERIOD))
        and (fields.has(_ORG) or (name and not is_person_name(name)))
    ):
        return "role"  # a position held: {"position": ..., "company": ..., "startDate": ...}
    if fields.has(_AWARD) and not name:
        return "award"
    if name and not fields.has(_VENUE) and not fields.authors():
        return "member"
    if fields.when() is not None and fields.news_text():
        return "news"
    return None


def _key_value_pair(raw: Mapping[str, Any]) -> bool:
    keys = {_key(k) for k in raw}
    return len(keys) == 2 and keys & {"name", "label", "key", "field"} != set() and keys & {"value", "text"} != set()


def _fits(kind: str, fields: _Fields) -> bool:
    """Whether an object in a list announced as ``kind`` has that kind's one mandatory part."""
    if kind == "paper":
        return fields.has(_TITLE) or (fields.has(("name",)) and not is_person_name(fields.text(("name",))))
    if kind == "member":
        return bool(fields.name())
    if kind == "news":
        return bool(fields.news_text())
    if kind == "award":
        return fields.has((*_AWARD, *_AWARD_NAME))
    if kind == "role":
        return fields.has(_POSITION)
    return False


_READERS = {"paper": _paper, "news": _news, "award": _award, "role": _role}


# ------------------------------------------------------------------ walking a file


@dataclass(frozen=True, slots=True)
class _Scope:
    """Where an object sits: the label and kind its keys announce, alumni, the group's year."""

    where: str
    label: str = ""
    announced: str | None = None
    alumni: bool = False
    year: int | None = None

    def under(self, key: str) -> _Scope:
        inner = str(key)
        container = _key(inner) in _CONTAINER_KEYS
        return replace(
            self,
            where=f"{self.where}.{inner}" if self.where else inner,
            label=self.label if container else _humanise(inner),
            announced=_announced(inner) or self.announced,
            alumni=self.alumni or bool(ALUMNI_WORDS.search(inner)),
        )


@dataclass(slots=True)
class DataReading:
    """What data files hold: the records, each list read (for ``--explain``), and whether a file
    was cut short at ``MAX_ENTRIES``."""

    records: list[Record] = field(default_factory=list)
    lists: list[ListReport] = field(default_factory=list)
    truncated: list[str] = field(default_factory=list)
    #: Role codes and the words a theme shows for them ({"phd": "PhD Student"}), from a file of labels.
    role_labels: dict[str, str] = field(default_factory=dict)
    #: People's names by the ids a people file keys them by ({"awadell": "Alex Wadell"}).
    person_names: dict[str, str] = field(default_factory=dict)


class _Walker:
    def __init__(self, reading: DataReading) -> None:
        self.reading = reading
        self.budget = MAX_ENTRIES

    def walk(self, node: Any, scope: _Scope, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            return
        if self.budget <= 0:
            self.reading.truncated.append(scope.where)
            return
        if isinstance(node, list):
            self.read_list(node, scope, depth)
        elif isinstance(node, Mapping):
            # Every object counts against the bound, so YAML aliases that nest one object many
            # times over cannot make the walk explode.
            self.budget -= 1
            if _keyed_collection(node, scope):
                self.read_list(list(node.values()), scope, depth)
            elif scope.announced and not _nested_records(node) and _fits(scope.announced, _Fields(node)):
                self.read_list([node], scope, depth)  # one record on its own (a file per paper)
            else:
                for key, value in node.items():
                    if isinstance(value, list | Mapping):
                        self.walk(value, scope.under(str(key)), depth + 1)

    def read_list(self, items: list[Any], scope: _Scope, depth: int) -> None:
        objects = [item for item in items if isinstance(item, Mapping)]
        if not objects:
            self.read_strings([item for item in items if isinstance(item, str)], scope)
            return
        records: list[_Fields] = []
        for item in objects:
            if self.budget <= 0:
                self.reading.truncated.append(scope.where)
                break
            self.budget -= 1
            fields = _Fields(item)
            if (strings := _string_lists(item, scope)) is not None:
                self.read_group(item, fields, strings, scope, depth)  # {year: 2019, items: [...]}
            elif (groups := _group_lists(item, fields)) is not None:
                self.read_group(item, fields, groups, scope, depth)
            else:
                records.append(fields)
        kind, why = _list_kind(records, scope)
        if kind is None:
            if records:
                self.report(scope, records, None, why, 0)
            return
        # "02/09/2024" is 2 September in a list whose dates put the day first where it shows ("15/03/2024").
        with day_first_where_written(_short_values(records)):
            read = [(fields, r) for fields in records if (r := _read(kind, fields, scope)) is not None]
        found = [record for _, record in read]
        if kind == "paper":
            found += [award for fields, paper in read for award in _paper_awards(fields, paper)]
        if kind == "member":
            found += [award for fields, _ in read for award in _member_awards(fields)]
        self.reading.records.extend(found)
        self.report(scope, records, kind, why, len(found))

    def read_group(
        self, item: Mapping[str, Any], fields: _Fields, groups: list[str], scope: _Scope, depth: int
    ) -> None:
        # The label that names a kind wins ({"title": "Experience", "type": "time_table"}).
        labels = [text for name in _GROUP_LABEL if (text := fields.text((name,), words=8))]
        label = next((text for text in labels if _announced(text)), labels[0] if labels else "")
        year = parse_year(fields.text(_YEAR_FIELDS))
        inner = scope
        if label:
            inner = replace(
                scope,
                label=label,
                announced=_announced(label) or scope.announced,
                alumni=scope.alumni or bool(ALUMNI_WORDS.search(label)),
            )
        if year:
            inner = replace(inner, year=year)
        for key in groups:
            self.walk(item[key], inner.under(key), depth + 1)

    def read_strings(self, texts: list[str], scope: _Scope) -> None:
        """A list of plain strings under a key that names people, news or awards."""
        if not texts or scope.announced not in ("member", "news", "award"):
            return
        found: list[Record] = []
        for text in texts[: self.budget]:
            self.budget -= 1
            if scope.announced == "member":
                member = member_from_fields({"name": text}, scope.label, alumni=scope.alumni)
                if member is not None and is_person_name(member.name):
                    found.append(member)
            elif scope.announced == "award":
                if title := clean_title(_text(text)):
                    found.append(Award(title=title, year=scope.year or parse_year(title)))
            elif (plain := _text(text)) and (news := _dated_line(plain)) is not None:
                found.append(news)
        if found:
            self.reading.records.extend(found)
            self.report(scope, [], scope.announced, f"key names {scope.announced}", len(found), len(texts))

    def report(
        self, scope: _Scope, records: list[_Fields], kind: str | None, why: str, count: int, size: int = 0
    ) -> None:
        fields = Counter(k for r in records for k in r.raw)
        common = ", ".join(str(k) for k, _ in fields.most_common(4))
        made_of = f"objects with {common}" if common else "strings"
        self.reading.lists.append(
            ListReport(where=scope.where or "(top)", made_of=made_of, entries=size or len(records), kind=kind,
                       why=why, records=count)
        )


def _short_values(records: list[_Fields]) -> Iterator[str]:
    """The short texts of a list's records: where their dates are written."""
    return (v for f in records for v in f.by_key.values() if isinstance(v, str) and len(v) <= 40)


def _read(kind: str, fields: _Fields, scope: _Scope) -> Record | None:
    if kind == "member":
        return member_from_fields(fields.raw, scope.label, alumni=scope.alumni)
    return _READERS[kind](fields, scope)


#: A person's own list of honours, kept in their entry ({"name": ..., "awards": ["X Prize (2025)"]}).
_HONOURS_FIELDS = frozenset({"awards", "honors", "honours", "prizes", "fellowships", "distinctions"})


def _member_awards(fields: _Fields) -> list[Award]:
    """The honours a member's entry lists, each as an award of its own."""
    awards: list[Award] = []
    for name, value in fields.raw.items():
        if _key(name) not in _HONOURS_FIELDS:
            continue
        lines = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        awards += [award for line in lines if isinstance(line, str) and (award := parse_award_line(_text(line)))]
    return awards


def _dated_line(text: str) -> NewsItem | None:
    found = leading_date(text)
    return NewsItem(text=found[1], date=found[0]) if found and found[1] else None


def _list_kind(records: list[_Fields], scope: _Scope) -> tuple[str | None, str]:
    """What a list holds: the kind its key names when most entries fit it, else the kind most
    entries' fields make (people only when their names are people's names)."""
    if not records:
        return None, "empty"
    if not scope.announced and is_unlisted_heading(_humanise(scope.where.rsplit(".", 1)[-1])):
        return None, "key names things not reported"  # a CV's "volunteer" or "service" list: no positions
    half = len(records) / 2
    if scope.announced and sum(_fits(scope.announced, r) for r in records) >= half:
        return scope.announced, f"key names {scope.announced}"
    shapes = Counter(_shape(r) for r in records)
    kind, count = shapes.most_common(1)[0]
    if kind is None or count < half:
        return None, "entries share no record shape"
    if kind == "member":
        if _key(scope.where.rsplit(".", 1)[-1]) in _NOT_PEOPLE:
            return None, "a CV's list of other things"
        named = [r for r in records if r.name()]
        people = sum(is_person_name(_split_name(r.name())[0]) for r in named)
        hinted = sum(bool(_PERSON_HINTS & r.by_key.keys()) for r in named)
        if people < len(named) / 2 and hinted < len(named) / 2:
            return None, "names that are not people's"
    return kind, f"entries' fields make {kind}s"


def _group_lists(item: Mapping[str, Any], fields: _Fields) -> list[str] | None:
    """The keys of an entry that hold lists of records, when the entry is a group of them
    rather than a record itself (a person's own education list leaves the person a person)."""
    keys = [
        str(key)
        for key, value in item.items()
        if not _OWN_LISTS.match(_key(key))
        and (_has_objects(value) or (isinstance(value, Mapping) and _many_objects(value)))
    ]
    if not keys:
        return None
    name = fields.name()
    if name and is_person_name(_split_name(name)[0]):
        return None
    if _shape(fields) == "paper":
        return None
    return keys


def _string_lists(item: Mapping[str, Any], scope: _Scope) -> list[str] | None:
    """The keys of an entry that lists plain strings under a list key ("items"), in a list that
    names awards, news or people: the entry groups them (by year, say)."""
    if scope.announced not in ("award", "news", "member"):
        return None
    keys = [
        str(key)
        for key, value in item.items()
        if _key(key) in _CONTAINER_KEYS and isinstance(value, list) and value and all(isinstance(v, str) for v in value)
    ]
    return keys or None


def _has_objects(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(v, Mapping) for v in value)


def _many_objects(value: Mapping[str, Any]) -> bool:
    return len(value) >= 2 and sum(isinstance(v, Mapping) for v in value.values()) * 3 >= 2 * len(value)


def _nested_records(node: Mapping[str, Any]) -> bool:
    return any(_has_objects(v) and not _OWN_LISTS.match(_key(k)) for k, v in node.items())


def _keyed_collection(node: Mapping[str, Any], scope: _Scope) -> bool:
    """An object of objects keyed by ids, each one record (``jdoe: {name: ..., role: ...}``)."""
    if not _many_objects(node) or _nested_records(node):
        return False  # beside a list of records ({lab: {...}, meta: {...}, members: [...]}) it is a file's parts
    objects = [_Fields(v) for v in node.values() if isinstance(v, Mapping)]
    if any(_nested_records(f.raw) for f in objects):
        return False
    fitting = sum(1 for f in objects if (scope.announced and _fits(scope.announced, f)) or _shape(f))
    return fitting * 2 >= len(objects)


# ------------------------------------------------------------------ files and documents


def read_data(data: Any, where: str, label: str = "", folders: Sequence[str] = ()) -> DataReading:
    """The records one parsed data file holds. ``label``: the file's stem, which names the kind
    of a list at its top ("publications.json"); ``folders``: the folders it sits in, nearest
    last, which may name it instead ("publications/2024-paper.yml")."""
    reading = DataReading()
    announced = _announced(label) if label else None
    for folder in reversed(folders):
        if announced:
            break
        announced = _announced(folder)
    scope = _Scope(
        where=where,
        label=_humanise(label),
        announced=announced,
        alumni=bool(ALUMNI_WORDS.search(label)),
    )
    _Walker(reading).walk(data, scope)
    if reading.truncated:
        log.warning("%s: read the first %d entries only", where, MAX_ENTRIES)
        reading.lists.append(
            ListReport(where=where, made_of="a file too large", entries=MAX_ENTRIES, kind=None,
                       why=f"cut short after {MAX_ENTRIES} entries", records=0)
        )
    return reading


def read_data_files(files: Mapping[str, str]) -> DataReading:
    """Every record of the content data files among ``files`` (in path order), and the papers of
    the BibTeX bibliographies beside them (a site's publication data); one record per identity
    (a person listed in two files counts once, as first listed)."""
    total = DataReading()
    parsed: list[tuple[str, Any]] = []
    for path in sorted(files):
        if _BIB_FILE.search(path) and not _NOT_CONTENT.search(path):
            total.records.extend(record for read in read_bibtex(files[path]) for record in read)
            continue
        if not is_data_path(path):
            continue
        data = load_data(path, files[path])
        if data is None:
            continue
        parsed.append((path, data))
        *folders, name = path.split("/")
        reading = read_data(data, path, _DATA_FILE.sub("", name), folders)
        total.records.extend(reading.records)
        total.lists.extend(reading.lists)
        total.truncated.extend(reading.truncated)
    if not any(isinstance(r, Role) for r in total.records):
        # No list of positions: the owner's profile says the one they hold now.
        for path, data in parsed:
            if (found := owner_role(data)) is not None:
                where, role = found
                total.records.insert(0, role)
                total.lists.append(ListReport(where=f"{path}:{where}", made_of="a person's profile", entries=1,
                                              kind="role", why="a person's name beside a position", records=1))
                break
    for path, data in parsed:
        total.role_labels.update(code_labels(data))
        if _PEOPLE_FILE.search(path):
            total.person_names.update(names_by_id(data))
    total.records = first_per_key(with_role_labels(total.records, total.role_labels))
    return total


def front_matter_people(meta: Mapping[str, Any], path: str) -> list[Member]:
    """The people a page lists in its front matter under a key that names them ("members:",
    "people:", "team:", al-folio's "profiles:"), read as a data file's lists are."""
    lists = {
        key: value
        for key, value in meta.items()
        if isinstance(key, str) and isinstance(value, list) and (key == "profiles" or _announced(key) == "member")
    }
    return [r for r in read_data(lists, path).records if isinstance(r, Member)] if lists else []


#: A people file whose entries are keyed by the ids posts name them by (``{% person id %}``).
_PEOPLE_FILE = re.compile(r"^_data/(?:people|members|team)\.ya?ml$")


def names_by_id(data: Any) -> dict[str, str]:
    """People's names by the keys a people file lists them under (``awadell: {display_name: …}``)."""
    if not isinstance(data, Mapping):
        return {}
    return {
        str(key): front_matter_text(name)
        for key, person in data.items()
        if isinstance(person, Mapping) and (name := person.get("display_name") or person.get("name"))
    }


_LABEL_KEYS = ("description", "label", "name", "title")
_CODE = re.compile(r"[a-z][a-z0-9_-]{0,30}")


def code_labels(data: Any) -> dict[str, str]:
    """A theme's labels for its codes: a mapping of three or more short codes each to an object
    naming it (``phd: {icon: …, description: PhD Student}``)."""
    if not isinstance(data, Mapping) or len(data) < 3:
        return {}
    labels: dict[str, str] = {}
    for code, value in data.items():
        if not isinstance(code, str) or not _CODE.fullmatch(code) or not isinstance(value, Mapping):
            return {}
        label = next((v for k in _LABEL_KEYS if isinstance(v := value.get(k), str) and v.strip()), None)
        if label is not None:
            labels[code] = clean_text(label)
    return labels if len(labels) >= 3 else {}


def with_role_labels(records: list[Record], labels: Mapping[str, str]) -> list[Record]:
    """Members whose role is a theme's code ("phd", "Alumni (phd; X)") with the code's label instead."""
    if not labels:
        return records
    codes = "|".join(re.escape(code) for code in sorted(labels, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w-])({codes})(?![\w-])")
    return [
        Member(name=r.name, role=pattern.sub(lambda m: labels[m.group(1)], r.role), url=r.url)
        if isinstance(r, Member) and r.role else r
        for r in records
    ]


#: Keys under which a site keeps its owner's profile ({"profile": {"name": ..., "position": ...}}).
_PROFILE_KEYS = frozenset({"profile", "about", "basics", "author", "person", "me", "owner", "personal",
                           "personalinfo", "info", "bio", "header", "hero", "intro"})
_PROFILE_POSITION = ("position", "jobtitle", "currentposition", "title", "role", "label", "designation",
                     "occupation")


def owner_role(data: Any) -> tuple[str, Role] | None:
    """The position a site's owner holds, from a profile object at the file's top or under a
    profile key: a person's name beside a position ("position: PhD Candidate", "affiliation: X")."""
    if not isinstance(data, Mapping):
        return None
    candidates = [("(top)", data)]
    candidates += [(str(k), v) for k, v in data.items() if _key(str(k)) in _PROFILE_KEYS and isinstance(v, Mapping)]
    for where, node in candidates:
        fields = _Fields(node)
        name = _split_name(fields.name())[0]
        title = clean_title(fields.text(_PROFILE_POSITION, words=12))
        if name and is_person_name(name) and title and ROLE_WORDS.search(title):
            return where, Role(title=title, organization=fields.text(_ORG, words=20) or None)
    return None


def first_per_key(records: Iterable[Record]) -> list[Record]:
    """The first record of each identity (kind and key), in order."""
    seen: dict[tuple[str, str], Record] = {}
    for record in records:
        seen.setdefault((record.kind, record.key), record)
    return list(seen.values())


def _content_files(files: Mapping[str, str]) -> Iterator[str]:
    return (path for path in sorted(files) if is_data_path(path))


def _json_page(doc: Document) -> bool:
    """A page served as JSON: by its content type, or a body that is a JSON object or array."""
    if doc.is_bundle:
        return False
    head = doc.text.lstrip()[:1]
    return "json" in doc.content_type.lower() or (head in ("{", "[") and _parses(doc.text))


def _parses(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict | list)
    except ValueError:
        return False


def _page_path(doc: Document) -> str:
    """A name for a page's body as a data file: its URL's last part, with a data extension."""
    name = doc.url.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return name if _DATA_FILE.search(name) else f"{name or 'page'}.json"


#: A dated post beside the data (a Hugo or Eleventy site's news): ``content/news/2024-10-07-x.md``,
#: or an Astro content collection's ``src/content/news/x.md``.
_POST = re.compile(r"^(?:src/content|content|src)/(?:news|posts?|blog)/(?:[^/]+/)*[^/_][^/]*\.mdx?$")
#: A content collection: one Markdown file per entry in a folder named for its kind, the entry in
#: its front matter (``src/content/people/jdoe.md`` with ``name:`` and ``role:``).
_COLLECTION = re.compile(r"^(?:src/content|content|src)/(?P<name>[^/_][^/]*)/(?:[^/]+/)?[^/_][^/]*\.mdx?$")


def _collection_of(path: str) -> str | None:
    """The collection a content file is an entry of (news has its own reader: ``_POST``)."""
    match = _COLLECTION.match(path)
    if match is None or _POST.match(path):
        return None
    return match["name"] if _announced(match["name"]) in ("member", "paper", "award", "role") else None


def _posts(files: Mapping[str, str]) -> list[NewsItem]:
    """The news posts kept beside a site's data files, one item each (its date and title)."""
    from extractors.jekyll_data import news_from_post  # jekyll_data reads data files with this module

    return [item for path in sorted(files) if _POST.match(path) and (item := news_from_post(path, files[path]))]


class DataExtractor(Extractor):
    """A repository (or a page) whose content is JSON, YAML or TOML data."""

    name = "data"
    priority = 54
    url_patterns = (r"\.(?:json|ya?ml|toml)(?:$|[?#])",)

    def wants_path(self, path: str) -> bool:
        return is_data_path(path) or _POST.match(path) is not None or _collection_of(path) is not None

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle:
            kinds = bundle_kinds(doc.files)
            if kinds:
                return f"data files with {', '.join(sorted(kinds))}"
            collections = sorted({name for path in doc.files if (name := _collection_of(path))})
            return f"content collections ({', '.join(collections)})" if collections else None
        if _json_page(doc):
            return f"a JSON page ({doc.content_type})"
        return None

    def parse(self, doc: Document) -> list[Record]:
        return self._read(doc).records

    def explain(self, doc: Document) -> list[ListReport]:
        return self._read(doc).lists

    @staticmethod
    def _read(doc: Document) -> DataReading:
        if doc.is_bundle:
            from extractors.jekyll_data import collection_records

            reading = read_data_files(doc.files)
            reading.records.extend(_posts(doc.files))
            reading.records.extend(collection_records(doc.files, _collection_of))
            reading.records = first_per_key(reading.records)
            return reading
        if not doc.text.strip():
            return DataReading()
        return read_data_files({_page_path(doc): doc.text})


def bundle_kinds(files: Mapping[str, str]) -> set[str]:
    """The kinds of record the first content data file of a bundle holds (empty: none holds any).
    A malformed file whose name names a kind counts (reading it then says what is wrong with
    it); any other is passed over. Detection stops at the first such file: it runs on every
    repository checked, and the reading proper reads them all."""
    for path in _content_files(files):
        *folders, name = path.split("/")
        stem = _DATA_FILE.sub("", name)
        try:
            data = load_data(path, files[path])
        except ExtractionError:
            if kind := _announced(stem):
                return {kind}
            continue
        if data is not None and (kinds := {r.kind for r in read_data(data, path, stem, folders).records}):
            return kinds
    return set()


CASES: Sequence[Case] = (
    Case(
        fixture="data/lab_site",
        url="github:example-lab/website",
        notes="client-rendered lab site: src/data JSON with people in current/past groups, publications "
        "grouped by year (a paper's award field an award, a false one nothing), news with HTML; a TOML "
        "awards file; config and package files ignored",
    ),
    Case(
        fixture="data/astro_collections",
        url="github:ferro-lab/ferro-lab.github.io",
        notes="an Astro site: people as one Markdown file each under src/content/people (front matter "
        "name, role, alumni status and where they went), news as .md/.mdx entries, publications in YAML",
    ),
    Case(
        fixture="data/hugo_toml",
        url="github:okoro-group/okoro-group.github.io",
        notes="a Hugo site (not Hugo Blox) with TOML data tables and news as dated posts beside them "
        "(TOML or YAML front matter); the section's _index.md is not a post",
    ),
    Case(
        fixture="data/people.json",
        url="https://lab.example.org/api/people.json",
        content_type="application/json",
        claims=("https://example.org/data/news.json", "https://example.org/site/people.yaml?v=2"),
        rejects=("https://example.org/people.html", "https://example.org/jsonld/"),
        notes="a JSON page: people keyed by id, alumni flags and next positions, a CV of roles",
    ),
)
