"""Jekyll al-folio sites, from their sources or their rendered pages.

Claims (by content, never by site name):

- a ``github:`` bundle with al-folio's files: ``_bibliography/*.bib``, ``_news/*.md``,
  or a ``_config.yml`` with the theme's keys (``news_scrollable``, ``news_limit``,
  ``enable_darkmode``, ``al-folio``);
- a single al-folio page source: markdown whose front matter has the about layout's
  keys (``selected_papers``, ``news``, ``profile``);
- a rendered al-folio page: at least two of ``ol.bibliography``, the ``news`` table,
  the theme's own assets (``dark_mode.js``, ``jekyll-pygments-themes``) or the name.

Reads from sources: ``_news/*.md`` (one item per file: front-matter ``date``; the body
for ``inline: true`` items, else the title), ``_bibliography/*.bib`` (via
:func:`extractors.bibtex.read_bibtex`; an entry's award field → Award), the CV data (``assets/json/resume.json``,
``_data/cv.yml``: positions and awards, preferred to the biography's), the home/about page
(positions stated in the biography → Role; ``## Awards``-style lists → Award; dated news
lines written into the page → NewsItem), and people: ``_people/**/*.md`` front matter and
``_data/*.yml`` people lists → Member (see ``extractors.jekyll_data``).

Reads from rendered HTML: the news table rows (date + text), ``ol.bibliography`` items
(``.title``, ``.author``, ``.periodical``, links → DOI/arXiv), the biography above them
and the header's subtitle (positions → Role).

Biography positions are read by sentence patterns ("I am a/an <title> at <org>",
"I am currently part of ...", "Since YEAR, I have been ...", "I joined <org> in YEAR as
...", "I previously worked with <org>'s <team>", "I completed my <degree> at <org>"). Only
sentences that state a position count; research-interest prose never becomes a role.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.base import Case, Extractor
from extractors.bibtex import read_bibtex
from extractors.data import front_matter_people, member_from_fields, read_data_files
from extractors.jekyll_data import first_per_name, markdown_to_text, news_from_post, page_records
from extractors.markdown import parse_front_matter, without_liquid
from extractors.reading.awards import paper_award, parse_award_line
from extractors.reading.owner import without_advisers
from watcher.records import Award, Document, Member, NewsItem, Paper, Record, Role
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, normalise_key, parse_date, parse_year

__all__ = ["CASES", "AlfolioExtractor", "read_awards", "read_positions"]

_NEWS_PATH = re.compile(r"^_news/.+\.(?:md|markdown|html)$")
_BIB_PATH = re.compile(r"^_bibliography/[^/]+\.bib$")
#: The CV the theme's CV page reads first (a JSON Resume), before ``_data/cv.yml``.
_RESUME_PATH = re.compile(r"^assets/json/resume\.json$")
_PEOPLE_PATH = re.compile(r"^_people/(?:(?P<dir>.+)/)?[^/]+\.md$")
_PAGE_PATH = re.compile(r"^_pages/(?P<stem>[^/]+)\.(?:md|markdown|html)$")
_HOME_STEMS = ("about", "home", "index")
#: The theme's own keys; ``scholar:`` / jekyll-scholar alone is a plugin many other sites use.
_CONFIG_MARKERS = re.compile(r"^\s*(?:news_scrollable:|news_limit:|enable_darkmode:)|al-folio", re.M)
_ABOUT_KEYS = frozenset({"selected_papers", "news", "profile", "social", "latest_posts"})
#: Rendered-page markers, each a set of literal strings (any one marks); the name is matched case-insensitively.
_HTML_MARKERS: tuple[tuple[str, ...], ...] = (
    ('<ol class="bibliography"',),
    ('<div class="news"',),
    ("dark_mode.js", "jekyll-pygments-themes", "/assets/js/common.js"),
)
_NAME_MARKER = re.compile(r"al-folio", re.I)
_GITHUB_IO = re.compile(r"^https?://(?P<user>[A-Za-z0-9-]+)\.github\.io(?:/|$)", re.I)

# --- biography positions -------------------------------------------------------------

_ROLE_NOUN = (
    r"(?:student|candidate|professor|researcher|scientist|engineer|fellow|postdoc\w*|lead|leader|director|"
    r"intern|member|head|manager|lecturer|founder|chair|developer|analyst|consultant|instructor|scholar|"
    r"team|group|lab|laboratory)s?"
)
# A title: up to six words ending in a role noun, with no preposition or verb inside.
_NOT_IN_TITLE = r"(?!(?:in|on|at|with|for|to|and|from|by|interested|passionate|excited)\b)"
_TITLE = rf"(?P<title>(?:{_NOT_IN_TITLE}[\w.&’'\-]+\s+){{0,6}}[\w.\-]*{_ROLE_NOUN})"
_ORG_END = (
    r"(?=\s*,\s*(?:where|who|which|supervised|advised|co-advised|under|working|and|with|funded|focusing|"
    r"contributing|since|from|starting|beginning|mentored|led|leading)\b"
    r"|\s+(?:supervised|advised|co-advised|under|since|from|starting|beginning|where|working|on|for|with|as|"
    r"and I|in (?:the )?(?:spring|summer|fall|autumn|winter|\d{4}))\b|\s*\(|\s*$)"
)
_ORG = rf"(?:the\s+)?(?P<org>[^;:]+?){_ORG_END}"
_YEAR = r"(?:19|20)\d\d"
_MONTH_YEAR = r"(?:[A-Z][a-z]{2,8}\.?\s+)?" + _YEAR
_SPAN = rf"(?P<start>{_MONTH_YEAR})\s*[-–—]+\s*(?P<end>{_MONTH_YEAR}|[Pp]resent|[Nn]ow)"


# Cues: text every pattern of a kind needs (same regex syntax and flags, so the same matches). Most
# sentences of a page (news, bibliography) have neither, and then no pattern is tried at all.
_FIRST_PERSON = re.compile(r"\bI(?:\s|'m)", re.I)  # in every "I ..." pattern
_AT = re.compile(r"\sat\s", re.I)  # in the headline pattern ("<title> at <org>, <span>")
_ANY_CUE = re.compile(rf"{_FIRST_PERSON.pattern}|{_AT.pattern}", re.I)


@dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    #: how the match becomes a role: title template, and fixed start/end when the form implies them
    title: str = "{title}"
    end: str | None = None
    #: a cue the regex cannot match without
    cue: re.Pattern[str] = _FIRST_PERSON


def _p(pattern: str, title: str = "{title}", end: str | None = None, cue: re.Pattern[str] = _FIRST_PERSON) -> _Pattern:
    return _Pattern(re.compile(pattern, re.I), title, end, cue)


_POSITION_PATTERNS: tuple[_Pattern, ...] = (
    # "Research Scientist at Example Labs, Aug 2020 - May 2024 (Expected)": a headline line
    _p(rf"^{_TITLE}\s+at\s+(?:the\s+)?(?P<org>[^,]+?),\s*{_SPAN}(?:\s*\(.*\))?$", cue=_AT),
    # "Since 2024, I have been leading the X Team at Org"
    _p(rf"\bsince\s+(?P<start>{_YEAR}),\s+I\s+have\s+been\s+(?:leading|heading)\s+(?:the\s+)?(?P<title>[^,]+?)\s+at\s+{_ORG}",
       title="{title} lead"),
    _p(rf"\bsince\s+(?P<start>{_YEAR}),\s+I\s+have\s+been\s+(?:a|an|the)\s+{_TITLE}\s+(?:at|in|with|of)\s+{_ORG}"),
    # "I have been a PhD student since 2021 in the School of X at Y"
    _p(rf"\bI\s+have\s+been\s+(?:a|an|the)\s+{_TITLE}\s+since\s+(?P<start>{_YEAR})\s+(?:at|in|with)\s+{_ORG}"),
    # "I am currently part of the X Team at Org" / "I am a final-year PhD candidate at Org"
    _p(rf"\bI(?:\s+am|'m)\s+(?:currently\s+|now\s+|still\s+)?(?:(?:a\s+)?part\s+of\s+|a\s+member\s+of\s+)?"
       rf"(?:(?:a|an|the)\s+)?{_TITLE}\s+(?:at|in|with|of)\s+{_ORG}"),
    # "I am excited to be working with Jane Roe at Org"
    _p(rf"\bI(?:\s+am|'m)\s+(?:currently\s+|now\s+)?(?:\w+\s+to\s+be\s+)?working\s+with\s+"
       rf"(?P<who>[A-Z][\w.\- ]+?)\s+at\s+{_ORG}",
       title="Working with {who}"),
    # "I am actively looking for research positions starting in Fall 2024"
    _p(r"\bI(?:\s+am|'m)\s+(?:\w+ly\s+)?(?P<what>(?:looking|seeking|searching)\s+for\s+[^.;]+)", title="{what}"),
    # "I will soon join Org" / "I am joining Org"
    _p(rf"\bI\s+(?:will\s+(?:soon\s+)?join|am\s+(?:about\s+to\s+join|joining))\s+{_ORG}", title="Incoming"),
    # "I joined the X Lab in 2022 as a Systems Researcher"
    _p(rf"\bI\s+joined\s+(?:the\s+)?(?P<org>[^,;]+?)\s+in\s+(?P<start>{_YEAR})\s+as\s+(?:a|an|the)\s+{_TITLE}"),
    _p(rf"\bI\s+joined\s+(?:the\s+)?(?P<org>[^,;]+?)\s+as\s+(?:a|an|the)\s+{_TITLE}(?:\s+in\s+(?P<start>{_YEAR}))?"),
    # "I previously worked with Org's X Team"
    _p(r"\bI\s+(?:previously|formerly)\s+worked\s+(?:with|at|for|in)\s+"
       rf"(?P<org>[A-Z][\w&.\- ]+?)['’]s\s+(?P<title>[\w&.\- ]+?{_ROLE_NOUN})\b", end="past"),
    # "Previously, I worked with Org as a Research Intern"
    _p(rf"\bI\s+(?:previously\s+|formerly\s+)?worked\s+(?:with|at|for|in)\s+(?:the\s+)?(?P<org>[^;]+?)\s+as\s+(?:a|an|the)\s+{_TITLE}",
       end="past"),
    # "I gained experience as a Research Intern at Org ... beginning in 2020" / "I have worked as a X at Org"
    _p(r"\bI\s+(?:have\s+)?(?:also\s+)?(?:[\w ]*?\s+)?(?:worked|interned|served|gained\s+[\w ]*?experience)"
       r"\s+as\s+(?:a|an|the)\s+"
       rf"{_TITLE}\s+(?:at|in|with|for)\s+{_ORG}(?:.*?\b(?:beginning|starting|from)\s+(?:in\s+)?(?P<start>{_YEAR}))?",
       end="past"),
    # "I completed my Ph.D (defense pending) at Org"
    _p(r"\bI\s+(?:have\s+)?completed\s+my\s+(?P<title>[\w.\- ]+?)\s*(?P<note>\([^)]*\))?\s+(?:at|from|in)\s+"
       + _ORG, title="{title}", end="completed {note}"),
)


def read_positions(text: str) -> list[Role]:
    """Positions stated in a biography (plain text, one paragraph or line per line)."""
    roles: dict[str, Role] = {}
    for line in text.splitlines():
        # A sentence's cues are in its line too, so a line without any holds no position.
        if not _ANY_CUE.search(line):
            continue
        for sentence in _line_sentences(line):
            role = _position_in(sentence)
            if role is not None:
                roles.setdefault(role.key, role)
    return list(roles.values())


def _position_in(sentence: str) -> Role | None:
    role = _stated_position(sentence)
    if role is None and (plain := without_advisers(sentence)) != sentence:
        role = _stated_position(plain)  # "a PhD student advised by Jane Doe at X"
    return role


def _stated_position(sentence: str) -> Role | None:
    cues = {cue for cue in (_FIRST_PERSON, _AT) if cue.search(sentence)}
    for pattern in _POSITION_PATTERNS:
        if pattern.cue not in cues:
            continue
        match = pattern.regex.search(sentence)
        if match is None:
            continue
        parts = {k: clean_text(v) for k, v in match.groupdict().items() if v}
        title = _clean_position_title(pattern.title.format_map(_Default(parts)))
        if not title:
            continue
        organization = _without_place(clean_title(parts.get("org", ""))) or None
        end = parts.get("end") or (pattern.end.format_map(_Default(parts)).strip() if pattern.end else None)
        return Role(title=title, organization=organization, start=_when(parts.get("start")), end=_when(end))
    return None


def _without_place(org: str) -> str:
    """An organisation without a trailing city ("Labs in Springfield", "Labs, Springfield" -> "Labs"),
    so the same employer written two ways keeps one identity."""
    trimmed = re.sub(r"(?:,\s*|\s+in\s+)[A-Z][\w.\-]+$", "", org)
    return trimmed if len(trimmed) >= 3 else org


class _Default(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def _clean_position_title(title: str) -> str:
    # "final year" stays in the title: "PhD student since 2021" -> "final year PhD student" is news.
    title = clean_text(title)
    title = re.sub(r"^(?:a|an|the)\s+", "", title, flags=re.I)
    return clean_title(title[:1].upper() + title[1:]) if title else ""


def _when(text: str | None) -> str | None:
    return (parse_date(text) or clean_text(text) or None) if text else None


_ABBREVIATION = re.compile(r"(?:\b(?:Dr|Prof|Mr|Ms|Mrs|St|Inc|Ltd|Jr|Sr|vs|etc|al|e\.g|i\.e|Ph|[A-Z])\.)$")


def _line_sentences(line: str) -> Iterator[str]:
    pieces = re.split(r"(?<=[.!?])\s+(?=[A-Z(\"“])", line)
    buffer = ""
    for piece in pieces:
        buffer = f"{buffer} {piece}".strip() if buffer else piece
        if not _ABBREVIATION.search(buffer):
            yield buffer.rstrip(" .!?")
            buffer = ""
    if buffer:
        yield buffer.rstrip(" .!?")


# --- awards ----------------------------------------------------------------------------

_AWARD_HEADING = re.compile(
    r"^\s{0,3}#{1,6}\s*(?:[^\n]*\b(?:awards?|honou?rs?|prizes?|fellowships?|distinctions?|grants?|funding)\b[^\n]*)$",
    re.I | re.M,
)
_ANY_HEADING = re.compile(r"^\s{0,3}#{1,6}\s", re.M)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<item>.+)$")


def read_awards(markdown: str) -> list[Award]:
    """Items of the list under an "Awards"/"Honors" heading of a markdown body."""
    awards: list[Award] = []
    for heading in _AWARD_HEADING.finditer(markdown):
        rest = markdown[heading.end():]
        stop = _ANY_HEADING.search(rest)
        for line in rest[: stop.start() if stop else len(rest)].splitlines():
            if (m := _LIST_ITEM.match(line)) and (award := parse_award_line(markdown_to_text(m["item"]))):
                awards.append(award)
    return awards


# --- the extractor ---------------------------------------------------------------------


class AlfolioExtractor(Extractor):
    """al-folio sources (a repository bundle or one page source) and rendered al-folio pages."""

    name = "alfolio"
    # Above the URL-claiming page families: al-folio's front-matter keys and file layout are specific.
    priority = 75
    shared_fallback = True
    source_paths = (
        r"^_pages/[^/]+\.(?:md|markdown|html)$",
        r"^_news/.+\.(?:md|markdown|html)$",
        r"^_bibliography/[^/]+\.bib$",
        r"^_people/.+\.md$",
        r"^_data/[^/]+\.(?:ya?ml|json)$",
        _RESUME_PATH.pattern,
        r"^_config\.yml$",
    )

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle:
            return _detect_bundle(doc.files)
        head = doc.text.lstrip()[:4000]
        if head.startswith("---"):
            meta, _ = parse_front_matter(doc.text)
            keys = _ABOUT_KEYS & meta.keys()
            if len(keys) >= 2:
                return f"al-folio page front matter ({', '.join(sorted(keys))})"
            return None
        hits = sum(any(marker in doc.text for marker in markers) for markers in _HTML_MARKERS)
        if hits == 0:  # the name alone is not enough
            return None
        hits += _has_name_marker(doc.text)
        return f"rendered al-folio markers: {hits}" if hits >= 2 else None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle:
            return _parse_bundle(doc.files)
        if doc.text.lstrip().startswith("---"):
            return _parse_page_source(doc.text)
        if not doc.text.strip():
            return []
        return _parse_rendered(doc.text, doc.url)

    def better_source(self, doc: Document) -> str | None:
        if doc.is_bundle or not (m := _GITHUB_IO.match(doc.url)):
            return None
        user = m["user"]
        return f"github:{user}/{user}.github.io"


def _has_name_marker(text: str) -> bool:
    # A case-insensitive regex scans slowly; any match lower-cases to "al-fol" ("I" may lower-case to two
    # characters, the letters before it to one), so a plain substring test rules most pages out first.
    return "al-fol" in text.lower() and _NAME_MARKER.search(text) is not None


def _detect_bundle(files: Mapping[str, str]) -> str | None:
    if any(_BIB_PATH.match(p) for p in files):
        return "al-folio _bibliography/"
    if any(_NEWS_PATH.match(p) for p in files):
        return "al-folio _news/"
    config = files.get("_config.yml", "")
    if config and _CONFIG_MARKERS.search(config):
        return "al-folio keys in _config.yml"
    return None


def _parse_bundle(files: Mapping[str, str]) -> list[Record]:
    bibliographies = [read_bibtex(files[path]) for path in sorted(files) if _BIB_PATH.match(path)]
    papers = [paper for read, _ in bibliographies for paper in read]
    paper_awards = [award for _, awarded in bibliographies for award in awarded]
    news = [
        item
        for path in sorted(files)
        if _NEWS_PATH.match(path) and (item := _news_item(path, files[path])) is not None
    ]
    home = _home_page(files)
    about: list[Record] = _parse_page_source(home) if home else []
    data = read_data_files({p: t for p, t in files.items() if p.startswith("_data/") or _RESUME_PATH.match(p)}).records
    data_members = [r for r in data if isinstance(r, Member)]
    # A CV's publication list repeats the bibliography's entries more briefly.
    listed = {normalise_key(p.title) for p in papers}
    data_papers = [r for r in data if isinstance(r, Paper) and normalise_key(r.title) not in listed]
    # A group page written by hand ("_pages/group.md": "**PhD Students**" over a list) where no
    # data file or collection lists the people.
    people = [*_people_collection(files), *data_members] or [
        *_profile_members(files),
        *(r for r in page_records(files) if isinstance(r, Member)),
    ]
    members = first_per_name(people)
    cv = _cv_over_bio(about, data)
    return [*papers, *data_papers, *news, *cv, *_not_in_cv(paper_awards, cv), *members]


def _not_in_cv(paper_awards: list[Award], cv: Sequence[Record]) -> list[Award]:
    """A paper's award that the CV lists too ("Best Paper Runner-up" in the bib, "Best Paper Runner-up,
    X Workshop at Y 2024" in ``resume.json``) is told once, as the CV writes it."""
    listed = [(normalise_key(r.title), r.year) for r in cv if isinstance(r, Award)]

    def in_cv(award: Award) -> bool:
        own = normalise_key(award.title)
        return any(title.startswith(own) and year in (award.year, None) for title, year in listed)

    return [award for award in paper_awards if not in_cv(award)]


def _cv_over_bio(about: list[Record], data: list[Record]) -> list[Record]:
    """Positions and awards from the CV data (``_data/cv.yml``, ``resume.json``) where it states them:
    its entries are structured, the biography's sentences are reworded freely. The biography fills
    in a kind the CV leaves out."""
    cv = [r for r in data if isinstance(r, Role | Award)]
    stated = {r.kind for r in cv}
    return [*cv, *(r for r in about if r.kind not in stated)]


def _news_item(path: str, text: str) -> NewsItem | None:
    meta, _body = parse_front_matter(text)
    return news_from_post(path, text, prefer_body=bool(meta.get("inline", True)))


def _home_page(files: Mapping[str, str]) -> str | None:
    """The page served at ``/`` (or else the about/home page)."""
    pages = {m["stem"]: path for path in sorted(files) if (m := _PAGE_PATH.match(path))}
    for path in pages.values():
        meta, _ = parse_front_matter(files[path])
        if str(meta.get("permalink", "")).strip() == "/":
            return files[path]
    return next((files[pages[stem]] for stem in _HOME_STEMS if stem in pages), None)


def _parse_page_source(text: str) -> list[Record]:
    meta, body = parse_front_matter(text)
    roles = read_positions(markdown_to_text(_without_awards(body)))
    subtitle = _subtitle_role(meta.get("subtitle"))
    if subtitle is not None and all(r.key != subtitle.key for r in roles):
        roles.append(subtitle)
    return [*roles, *read_awards(body), *_written_news(body)]


def _written_news(body: str) -> list[Record]:
    """News written into the page itself ("## News" and dated lines) rather than kept as
    ``_news/`` files: many sites on the theme list their updates this way."""
    from extractors.generic import records_from_markdown  # generic imports the site families

    return [r for r in records_from_markdown(without_liquid(body)) if isinstance(r, NewsItem)]


def _without_awards(body: str) -> str:
    """The biography without its award lists (an award line is not a position)."""
    for heading in _AWARD_HEADING.finditer(body):
        rest = body[heading.end():]
        stop = _ANY_HEADING.search(rest)
        return body[: heading.start()] + (rest[stop.start():] if stop else "")
    return body


def _subtitle_role(value: Any) -> Role | None:
    """A subtitle/description that states one position: "A PhD student at Example University"."""
    text = markdown_to_text(str(value)) if isinstance(value, str) else ""
    match = re.fullmatch(rf"(?:(?:a|an|the)\s+)?{_TITLE}\s+(?:at|in)\s+{_ORG}\.?", text.strip(" ."), re.I)
    if match is None:
        return None
    title = _clean_position_title(match["title"])
    return Role(title=title, organization=clean_title(match["org"]) or None) if title else None


def _profile_members(files: Mapping[str, str]) -> list[Member]:
    """The people a page lists in its front matter (the theme's ``profiles`` layout: ``profiles:
    [{name, position, image}]``; a lab's ``members:`` list), above what its body writes (an alumni list)."""
    members: list[Member] = []
    for path in sorted(files):
        if _PAGE_PATH.match(path):
            members += front_matter_people(parse_front_matter(files[path])[0], path)
    return members


def _people_collection(files: Mapping[str, str]) -> list[Member]:
    members: list[Member] = []
    for path in sorted(files):
        if not (m := _PEOPLE_PATH.match(path)):
            continue
        meta, _ = parse_front_matter(files[path])
        category = (m["dir"] or "").rsplit("/", 1)[-1].replace("_", " ").capitalize()
        if (member := member_from_fields(meta, category)) is not None:
            members.append(member)
    return members


# --- rendered pages --------------------------------------------------------------------


def _parse_rendered(html: str, url: str) -> list[Record]:
    tree = LexborHTMLParser(html)
    papers: list[Record] = []
    awards: list[Record] = []
    for li in tree.css("ol.bibliography > li"):
        if (paper := _rendered_paper(li, url)) is not None:
            papers.append(paper)
            awards.extend(_rendered_award(li, paper))
    # ".news tr", not ".news table tr": a descendant chain is slow over deeply nested tables, and rows are in tables.
    news = [n for row in tree.css(".news tr") if (n := _rendered_news(row)) is not None]
    return [*_rendered_roles(tree), *news, *papers, *awards]


def _rendered_award(item: LexborNode, paper: Paper) -> list[Award]:
    """The award the theme prints under an entry (``div.award``, the bib's ``award`` field, shown
    behind an "Awarded" button), given by where the paper appeared, as the source reading gives it."""
    node = item.css_first("div.award")
    award = paper_award(clean_text(node.text(separator=" ")), paper) if node is not None else None
    return [award] if award is not None else []


def _rendered_news(row: LexborNode) -> NewsItem | None:
    date_cell = row.css_first("th") or row.css_first("td")
    cells = row.css("td")
    text_cell = cells[-1] if cells else None
    if date_cell is None or text_cell is None or text_cell is date_cell:
        return None
    text = clean_text(text_cell.text(separator=" "))
    text = re.sub(r"\s+([,.!?;:)])", r"\1", text)
    return NewsItem(text=text, date=parse_date(clean_text(date_cell.text()))) if text else None


def _rendered_paper(item: LexborNode, base_url: str) -> Paper | None:
    title_node = item.css_first(".title")
    title = clean_title(title_node.text(separator=" ")) if title_node else ""
    if not title:
        return None
    author_node = item.css_first(".author")
    authors = _rendered_authors(author_node.text(separator=" ") if author_node else "")
    periodical = item.css_first(".periodical")
    venue_node = periodical.css_first("em") if periodical else None
    # al-folio writes "In <booktitle>" for proceedings
    venue = re.sub(r"^In\s+", "", clean_text(venue_node.text())) if venue_node else None
    hrefs = [a.attributes.get("href") or "" for a in item.css(".links a, .title a")]
    return Paper(
        title=title,
        authors=authors,
        venue=venue or None,
        year=parse_year(periodical.text()) if periodical else None,
        url=_paper_url(item),
        doi=next((d for h in hrefs if (d := find_doi(h))), None),
        arxiv=next((a for h in hrefs if (a := find_arxiv(h))), None),
    )


def _paper_url(item: LexborNode) -> str | None:
    for link in item.css(".links a"):
        label = clean_text(link.text()).lower()
        href = link.attributes.get("href") or ""
        if label in {"html", "website", "paper", "project"} and href.startswith("http"):
            return href
    return None


def _rendered_authors(text: str) -> tuple[str, ...]:
    text = clean_text(text.replace("\u00a0", " "))
    parts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text)
    names = (clean_text(p).strip("*†‡ ").strip() for p in parts)
    return tuple(n for n in names if n and n.lower() not in {"others", "et al", "et al."})


def _rendered_roles(tree: LexborHTMLParser) -> list[Role]:
    bio = tree.css_first("article .clearfix") or tree.css_first("article")
    text = ""
    if bio is not None:
        # Block elements end a line; inline markup does not split a sentence.
        text = markdown_to_text(_html_without_bibliography(bio))
    roles = read_positions(text)
    desc = tree.css_first(".post-header .desc")
    subtitle = _subtitle_role(clean_text(desc.text())) if desc is not None else None
    if subtitle is not None and all(r.key != subtitle.key for r in roles):
        roles.append(subtitle)
    return roles


def _html_without_bibliography(node: LexborNode) -> str:
    """A node's HTML without its paper lists: a bibliography never states the owner's position, and on
    a page without a ``.clearfix`` biography it is most of the ``<article>`` read in its place."""
    html = node.html or ""
    for bibliography in node.css("ol.bibliography"):
        if bibliography_html := bibliography.html:
            html = html.replace(bibliography_html, "\n", 1)
    return html


CASES: Sequence[Case] = (
    Case(
        fixture="alfolio/personal",
        url="github:jrivera/jrivera.github.io",
        notes="al-folio personal site sources: home page bio + awards, _news, papers.bib (an entry's "
        "award_name an award given by its journal)",
    ),
    Case(
        fixture="alfolio/lab",
        url="github:example-lab/al-folio",
        notes="al-folio lab: _people collection with current/alumni, _data people lists, news, bib",
    ),
    Case(
        fixture="alfolio/resume",
        url="github:cokoro/cokoro.github.io",
        notes="positions and awards from the JSON Resume the theme's CV page reads (assets/json/resume.json) "
        "rather than the biography; its publication already in papers.bib is read once, and so is the award "
        "the bib gives that paper and the CV lists too",
    ),
    Case(
        fixture="alfolio/about.md",
        url="https://raw.example.org/jrivera/site/main/_pages/about.md",
        content_type="text/markdown",
        notes="a single al-folio about.md with front matter; news written into the page as a dated list are read",
    ),
    Case(
        fixture="alfolio/rendered.html",
        url="https://mkowalski.github.io/",
        notes="rendered al-folio home page: bio, news table, selected publications (one with the award "
        "the theme prints under it)",
    ),
)
