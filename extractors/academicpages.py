"""academicpages (the minimal-mistakes Jekyll template for academics).

Claims:
  * rendered pages: minimal-mistakes markup (``archive__item`` publication/talk items,
    ``page__content`` with CV sections);
  * repository bundles (``github:owner/repo``) holding ``_publications/*.md`` or an
    academicpages ``_pages/about.md`` with its ``_config.yml``;
  * a single markdown page whose front matter has the template's keys
    (``author_profile: true``, ``permalink: /``).

Reads:
  * ``_publications/*.md`` front matter (title, venue, date, paperurl, citation) -> Paper;
  * markdown pages (``_pages/about.md``, ``_pages/cv.md``) by section: experience/work
    lists of dated lines (``* 2023/06 - Present Title, **Org**``) -> Role, awards/honours
    -> Award, projects (a bold name with paper links) -> Paper, news -> NewsItem;
    without a dated position list, the biography's sentences ("is an Assistant
    Professor at X", "recipient of the Y Award") -> Role / Award;
  * rendered HTML: ``.archive__item`` (title, "Published in" venue and date, citation)
    -> Paper, or -> NewsItem on a talks page; CV headings with lists as above.

The markdown and biography readers here are shared with the Hugo Blox extractor.
"""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.base import THIN_READING, Case, Extractor
from extractors.data import authors_of, read_data_files
from extractors.generic import node_text, records_from_markdown
from extractors.jekyll_data import collection_records, news_from_post
from extractors.markdown import front_matter_text, load_yaml, parse_front_matter, without_liquid
from extractors.reading.context import Context
from extractors.reading.dates import SEASONS, century_year, full_end_year, leading_date, parse_date_text
from extractors.reading.entries import entry_of_box
from extractors.reading.papers import author_names, read_paper, status_stated, with_status
from extractors.reading.roles import dedupe_roles, same_place
from extractors.reading.tree import tree_from_html
from extractors.reading.vocabulary import heading_kind
from watcher.records import Award, Document, NewsItem, Paper, Record, Role
from watcher.text import (
    clean_text,
    clean_title,
    find_arxiv,
    find_doi,
    normalise_key,
    parse_date,
    parse_year,
    without_tags,
)

__all__ = [
    "AcademicPagesExtractor",
    "Section",
    "bio_records",
    "load_yaml",
    "markdown_sections",
    "new_bio_records",
    "parse_front_matter",
    "parse_role_line",
    "read_sections",
    "strip_markdown",
]

# ---------------------------------------------------------------- markdown basics

#: A reference-style link, "[Min-Yen Kan][kan]" or "[Kan][]", whose target is defined elsewhere.
_REFERENCE_LINK = re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
_BULLET = re.compile(r"^(\s*)(?:[*+\-]|\d+[.)])\s+(.*)$")
_ATX = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")


def strip_markdown(text: str) -> str:
    """Plain text of a markdown fragment: links become their text; emphasis, HTML and templating go."""
    text = without_liquid(text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _REFERENCE_LINK.sub(r"\1", text)
    text = without_tags(text)
    for _ in range(2):  # nested emphasis (**_x_**)
        text = _EMPHASIS.sub(r"\2", text)
    return clean_text(text.replace("\\", ""))


def link_targets(text: str) -> list[tuple[str, str]]:
    """Every markdown link in ``text`` as (label, url), plus bare HTML hrefs."""
    found = [(strip_markdown(label), url) for label, url in _LINK.findall(text)]
    found += [("", url) for url in re.findall(r"href=[\"']([^\"']+)", text)]
    return found


@dataclass(frozen=True, kw_only=True)
class Section:
    """A markdown section: its heading (empty before the first one) and its body lines."""

    heading: str
    lines: tuple[str, ...]


def markdown_sections(body: str) -> list[Section]:
    """Split a markdown body at ATX (``## X``) and setext (``X`` over ``====``) headings; character
    references ("2021 &ndash; 2024") are read as the characters they stand for."""
    lines = html.unescape(body).splitlines()
    sections: list[Section] = []
    heading, current = "", []
    index = 0
    while index < len(lines):
        line = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        atx = _ATX.match(line)
        setext = line.strip() and not _BULLET.match(line) and _SETEXT.match(following)
        if atx or setext:
            sections.append(Section(heading=heading, lines=tuple(current)))
            heading = strip_markdown(atx.group(1) if atx else line)
            current = []
            index += 1 if atx else 2
            continue
        current.append(line)
        index += 1
    sections.append(Section(heading=heading, lines=tuple(current)))
    return [s for s in sections if s.heading or any(line.strip() for line in s.lines)]


@dataclass(frozen=True, kw_only=True)
class ListItem:
    """A top-level list item: its first line(s) and the indented block below it."""

    head: str
    body: str


def list_items(lines: Sequence[str]) -> list[ListItem]:
    """Top-level bullets of a section, each with its continuation and nested lines."""
    items: list[ListItem] = []
    base: int | None = None
    head: list[str] = []
    body: list[str] = []
    in_body = False

    def flush() -> None:
        if head:
            items.append(ListItem(head=" ".join(head), body="\n".join(body)))

    for line in lines:
        bullet = _BULLET.match(line.expandtabs(4))
        indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
        if bullet and (base is None or indent <= base):
            flush()
            base = len(bullet.group(1))
            head, body, in_body = [bullet.group(2)], [], False
        elif head and line.strip():
            if not in_body and indent > (base or 0) and not bullet:
                head.append(line.strip())
            else:
                in_body = True
                body.append(line)
        elif head:
            in_body = True
    flush()
    return items


def paragraphs(lines: Sequence[str]) -> list[str]:
    """Prose paragraphs of a section (list items, HTML blocks and templating left out)."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        stripped = line.strip()
        if not stripped or _BULLET.match(line) or stripped.startswith(("<", "{%", "|")):
            blocks.append([])
            continue
        blocks[-1].append(stripped)
    return [" ".join(b) for b in blocks if b]


# ---------------------------------------------------------------- dated lines -> roles

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]{0,6}\.?"
_SEASON = "(?:" + "|".join(season.capitalize() for season in SEASONS.split("|")) + ")"
_DATE_WORD = rf"(?:\d{{4}}[/.\-]\d{{1,2}}|\d{{1,2}}[/.\-]\d{{4}}|(?:{_MONTH}|{_SEASON}),?\s+\d{{4}}|\d{{4}})"
_END_WORD = rf"(?:{_DATE_WORD}|[Pp]resent|[Nn]ow|[Cc]urrent|[Tt]oday|[Oo]ngoing)"
#: A range's end may be a year's last two digits ("2016–17") or nothing, for an open range ("2023–").
_RANGE = re.compile(
    rf"(?P<start>{_DATE_WORD})\s*(?:-{{1,2}}|–|—|to|until)\s*(?:(?P<end>{_END_WORD}|\d\d(?!\d))|(?=\s*(?:$|[,;)|])))"
)
_SINCE = re.compile(rf"(?:since|from)\s+(?P<start>{_DATE_WORD})", re.I)
_SINGLE = re.compile(rf"(?P<start>{_DATE_WORD})")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__|<b>(.+?)</b>|<strong>(.+?)</strong>")


@dataclass(frozen=True, kw_only=True)
class DatedText:
    """A line with its date or date range taken out."""

    text: str
    start: str | None
    end: str | None
    dated: bool


def take_dates(line: str) -> DatedText:
    """Find a leading or trailing date range ("2023/06 - Present", "2017-2020", "2016") and remove it;
    a leading one first ("**May 2025**: Awarded the fellowship for 2025–26": May 2025 is the date)."""
    for leading, pattern in itertools.product((True, False), (_RANGE, _SINCE, _SINGLE)):
        match = _find_edge_date(pattern, line, leading=leading)
        if match is None:
            continue
        start = _line_date(match.group("start"))
        end_text = match.groupdict().get("end")
        if end_text and len(end_text) == 2 and start:
            end_text = full_end_year(start, end_text)
        end = _line_date(end_text) if end_text else (start if pattern is _SINGLE else None)
        before, after = line[: match.start()], line[match.end() :]
        if leading and before.strip():
            # "**2026** — Associate Professor": the date's markup, opened before it, closes after it.
            before, after = "", re.sub(r"^[*_\])]+", "", after)
        rest = (before + " " + after).strip()
        rest = re.sub(r"^[\s:;,|–—\-]+|[\s:;,|–—\-(]+$", "", rest)
        rest = re.sub(r"\(\s*\)", "", rest)
        return DatedText(text=rest, start=start, end=end, dated=True)
    return DatedText(text=line, start=None, end=None, dated=False)


def _line_date(text: str) -> str | None:
    """A CV line's date, a season's included ("Fall 2020": the default CV of the theme writes so)."""
    return parse_date(text) or parse_date_text(text)


def _find_edge_date(pattern: re.Pattern[str], line: str, *, leading: bool) -> re.Match[str] | None:
    """A date match at the start (``leading``) or the end of the line (dates inside a title are not dates)."""
    for match in pattern.finditer(line):
        if leading and not re.sub(r"[\s*_\[(:|]", "", line[: match.start()]):
            return match
        if not leading and not re.sub(r"[\s*_\]).:;|]", "", line[match.end():]):
            return match
    return None


#: A labelled note closing a position's line: "(supervisor: Dr. Mateus Ruiz)", "(advisor: X)".
_TRAILING_NOTE = re.compile(r"\s*\((?:co-?)?(?:supervisor|advisor|adviser|mentor|host|pi)s?\s*:[^()]*\)\s*$", re.I)


def parse_role_line(line: str) -> Role | None:
    """``2023/06 - Present Principal Scientist, **Org**`` or ``Title, Org, 2017-2020`` as a Role.

    The organisation is the bold part (with what follows it), else what follows the
    first comma (or " at "). Lines without a date are not positions (skills, notes).
    """
    # Entities as a Markdown page may write them ("&mdash;"), and a note after the dates
    # ("(supervisor: Dr. X)"): neither is the post.
    dated = take_dates(_TRAILING_NOTE.sub("", html.unescape(line)))
    if not dated.dated or not dated.text:
        return None
    text = dated.text
    bold = _BOLD.search(text)
    if bold and strip_markdown(text[: bold.start()]).strip(" ,;|-–—"):
        title = strip_markdown(text[: bold.start()])
        organization = strip_markdown(text[bold.start():])
    else:
        plain = strip_markdown(text)
        title, organization = _split_title_org(plain)
    title = clean_title(title.strip(" ,;|-–—"))
    if not title or len(title) > 160:
        return None
    return Role(title=title, organization=_clean_org(organization), start=dated.start, end=dated.end)


def _split_title_org(plain: str) -> tuple[str, str]:
    for separator in (", ", " at ", " @ ", " | ", " – ", " — ", " - "):
        if separator in plain:
            title, organization = plain.split(separator, 1)
            return title, organization
    return plain, ""


def _clean_org(text: str | None) -> str | None:
    """An organisation without trailing punctuation or a restated acronym ("Lab (PL)")."""
    text = clean_text(text)
    text = re.sub(r"\s*\(([A-Z][A-Za-z&\-]{1,9})\)", "", text)
    text = re.sub(r"^(?:the|The)\s+", "", text)
    text = text.strip(" ,;.|-–—")
    return text or None


# ---------------------------------------------------------------- biography sentences

# Nouns that name a position. A title is up to five words ending in one of them.
_ROLE_NOUNS = (
    "professor|lecturer|instructor|scientist|researcher|engineer|postdoc|student|candidate|"
    "director|founder|co-founder|cofounder|faculty|editor|affiliate|advisor|adviser|member|"
    "chair|head|lead|manager|intern|associate|dean|officer|consultant|analyst|president|"
    "investigator|architect|developer|fellow|scholar"
)
# Only these fellows/scholars are positions; other fellows are honours (awards).
_POSITION_FELLOW = re.compile(
    r"\b(?:postdoctoral|post-doctoral|research|teaching|visiting|senior)\s+(?:fellow|scholar)$", re.I
)
_AWARD_NOUNS = r"award|prize|medal|fellowship|scholarship|fellow|honou?r|grant|distinction"
# Lower-case words that may open a title ("senior faculty", "managing editor").
_TITLE_WORDS = (
    "senior|junior|assistant|associate|adjunct|full|visiting|managing|founding|principal|chief|"
    "staff|research|postdoctoral|post-doctoral|post|doctorate|doctoral|graduate|phd|ph.d.|"
    "executive|deputy|technical|tech|team|program|software|data|lead|affiliated|co|"
    "undergraduate|master's|masters|summer|head|clinical|tenured|tenure-track|distinguished"
)
# A title word: capitalised ("Assistant", "Founders’") or one of the lower-case title words.
_TITLE_WORD = rf"(?:[A-Z][\w.'’&\-]*|(?i:{_TITLE_WORDS}|past|former))"
_ARTICLE_TITLE = re.compile(
    rf"(?:^|\b(?:[Aa]n?|[Tt]he|as)\s+)(?P<title>(?:{_TITLE_WORD}\s+){{0,6}}?(?i:(?:co-)?(?:{_ROLE_NOUNS})))"
    rf"\s+(?:in|at|of|for|with|to)\s+(?P<org>.+)$",
)
# An honour named on its own: "a past Society Founders’ Fellow (2018)", "the Best Paper Award of X".
_HONOUR = re.compile(
    rf"(?:^|\b(?:[Aa]n?|[Tt]he)\s+)(?P<title>{_TITLE_WORD}\s+(?:(?:{_TITLE_WORD}|of|for|in|on|and|the|&)\s+){{0,9}}?"
    rf"(?i:{_AWARD_NOUNS})|(?i:{_AWARD_NOUNS}))"
    rf"(?P<when>\s*\([^)]*\d{{4}}[^)]*\))?(?:\s+(?:of|from|by)\s+(?P<org>.+))?$",
)
_RECIPIENT = re.compile(
    rf"\b(?:recipient|winner|awardee)\s+of\s+(?:the\s+|an?\s+)?(?P<title>.+?\b(?:{_AWARD_NOUNS})s?\b)"
    r"(?:\s+(?:from|by|of)\s+(?:the\s+)?(?P<org>.+))?$",
    re.I,
)
_AWARDED = re.compile(
    rf"\b(?:received|won|was awarded|awarded|earned)\s+(?:the\s+|an?\s+)?(?P<title>.+?\b(?:{_AWARD_NOUNS})s?\b)"
    r"(?:\s+(?:from|by|of)\s+(?:the\s+)?(?P<org>.+))?$",
    re.I,
)
_ABBREVIATIONS = re.compile(r"\b(Dr|Mr|Mrs|Ms|Prof|St|Jr|Sr|Inc|Ltd|Co|vs|e\.g|i\.e|etc|[A-Z])\.")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(\[])")
_CLAUSE = re.compile(r"\s*;\s*|,\s+(?:and\s+|as well as\s+)?(?=(?:an?|the)\s)|,\s+and\s+|\s+and\s+(?=(?:an?|the)\s)")
_ORG_END = re.compile(
    r",|;|\s+(?:where|which|who|since|from|including|with a|with an|and (?=[a-z])|at (?=[a-z])|in (?=[a-z])|"
    r"at the|at (?=[A-Z])|to (?=[a-z]))\s*|\s+\((?!\s*[A-Z][A-Za-z&\-]{1,9}\))",
)
_YEAR_IN_PARENS = re.compile(r"\s*\((?:[^()]*?)(19\d\d|20\d\d)(?:[^()]*)\)")


def bio_records(text: str, *, roles: bool = True) -> list[Record]:
    """Positions and honours a biography states in prose.

    Each sentence is cut into clauses ("X is an Assistant Professor at Y, a managing
    editor of Z, and senior faculty of W"); a clause yields a Role when a title ending
    in a position noun is followed by "of/at/for/in" and an organisation, and an Award
    when it names a prize or an honorary fellowship. ``roles=False`` keeps only awards
    (for pages whose dated position list is authoritative).
    """
    records: list[Record] = []
    for sentence in _sentences(strip_markdown(text)):
        for clause in _CLAUSE.split(sentence):
            record = _clause_record(clause.strip(" .;:"))
            if record is None or (isinstance(record, Role) and not roles):
                continue
            records.append(record)
    return records


def _sentences(text: str) -> list[str]:
    protected = _ABBREVIATIONS.sub(lambda m: m.group(1) + "\u2024", text)
    return [s.replace("\u2024", ".").strip() for s in _SENTENCE.split(protected) if s.strip()]


def _clause_record(clause: str) -> Record | None:
    for pattern in (_RECIPIENT, _AWARDED):
        if match := pattern.search(clause):
            return _award(match.group("title"), match.group("org"), clause)
    honour = _HONOUR.search(clause)
    if honour and not _POSITION_FELLOW.search(honour.group("title")):
        return _award(honour.group("title"), honour.group("org"), clause)
    match = _ARTICLE_TITLE.search(clause)
    if match is None:
        return None
    title = _strip_leading_lower(match.group("title"), keep=_TITLE_WORDS)
    title = re.sub(r"^(?:past|former)\s+", "", title, flags=re.I)
    organization = _ORG_END.split(match.group("org"), maxsplit=1)[0]
    if re.search(r"fellow$", title, re.I) and not _POSITION_FELLOW.search(title):
        return _award(title, organization, clause)
    if not title or not re.search(r"[A-Z]", organization or ""):
        return None
    return Role(title=clean_title(title), organization=_clean_org(organization))


def _award(title: str, organization: str | None, clause: str) -> Award | None:
    year = parse_year(title) or parse_year(clause)
    title = _YEAR_IN_PARENS.sub("", title)
    title = re.sub(r"^(?:19|20)\d\d(?:[/\-]\d{2,4})?\s+", "", clean_text(title))
    title = _strip_leading_lower(title, keep="doctoral|postdoctoral|graduate|senior|junior|research|best")
    if organization:
        organization = _YEAR_IN_PARENS.sub("", organization)
        organization = _ORG_END.split(organization, maxsplit=1)[0]
    title = clean_title(title)
    return Award(title=title, organization=_clean_org(organization), year=year) if title else None


def _strip_leading_lower(title: str, *, keep: str) -> str:
    """Drop opening lower-case words that are not part of a title ("past", "former", "leading")."""
    words = clean_text(title).split(" ")
    while len(words) > 1 and words[0][:1].islower() and not re.fullmatch(keep, words[0], re.I):
        words.pop(0)
    return " ".join(words)


# ---------------------------------------------------------------- sections -> records

_ROLE_HEADINGS = re.compile(
    r"experience|employment|positions?|appointments?|work|career|professional|affiliations?", re.I
)
_AWARD_HEADINGS = re.compile(r"awards?|honou?rs?|fellowships?|prizes?|recognition|grants?", re.I)
_PROJECT_HEADINGS = re.compile(r"projects?", re.I)
_NEWS_HEADINGS = re.compile(r"news|updates|announcements", re.I)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_SKIPPED_HEADINGS = re.compile(r"education|skills|languages|teaching|service|talks|contact", re.I)
_VENUE_LABEL = re.compile(r"^([A-Za-z][A-Za-z&\-. ]{1,30}?)\s*['’]?\s*((?:19|20)?\d\d)$")


#: The kinds a CV section set as a table is read for, by its heading.
_TABLE_KINDS = (("award", _AWARD_HEADINGS), ("role", _ROLE_HEADINGS), ("news", _NEWS_HEADINGS))


def read_sections(sections: Iterable[Section]) -> tuple[list[Record], bool]:
    """Records of the typed sections of a markdown page, and whether it had a dated position list."""
    records: list[Record] = []
    has_positions = False
    for section in sections:
        heading = section.heading
        if not heading or _SKIPPED_HEADINGS.search(heading):
            continue
        items = list_items(section.lines)
        if not items and any(_TABLE_ROW.match(line) for line in section.lines):
            # A CV section set as a Markdown table ("| Dates | Position | Organisation |"): the
            # shared reader reads tables by their columns.
            kind = next((k for k, words in _TABLE_KINDS if words.search(heading)), "")
            table = records_from_markdown(f"## {heading}\n\n" + "\n".join(section.lines)) if kind else []
            records.extend(r for r in table if r.kind == kind)
            has_positions = has_positions or any(r.kind == "role" for r in table)
            continue
        if _AWARD_HEADINGS.search(heading):
            records.extend(a for a in (_award_line(i.head) for i in items) if a)
        elif _ROLE_HEADINGS.search(heading):
            roles = [r for r in (_role_item(i) for i in items) if r]
            has_positions = has_positions or bool(roles)
            records.extend(roles)
        elif _PROJECT_HEADINGS.search(heading):
            records.extend(p for p in (_project(i) for i in items) if p)
        elif _NEWS_HEADINGS.search(heading):
            records.extend(n for n in (_news_line(i.head) for i in items) if n)
    return records, has_positions


#: A sub-item that labels a detail of a position ("Supervisor: Prof. X", "Duties included: ...").
_DETAIL_LABEL = re.compile(r"^[\w ]{2,30}:")


def _role_item(item: ListItem) -> Role | None:
    """A dated position line; with no organisation on it, its first sub-item names one, as the
    theme's CV does ("* Summer 2015: Research Assistant" over "  * Github University")."""
    role = parse_role_line(item.head)
    if role is None or role.organization:
        return role
    first = next((line.strip() for line in item.body.splitlines() if line.strip()), "")
    place = strip_markdown(bullet.group(2)) if (bullet := _BULLET.match(first)) else ""
    if not place or _DETAIL_LABEL.match(place) or len(place.split()) > 14 or place.endswith("."):
        return role
    return dataclasses.replace(role, organization=_clean_org(place))


def _award_line(line: str) -> Award | None:
    dated = take_dates(line)
    text = strip_markdown(dated.text)
    title, organization = _split_title_org(text) if ", " in text else (text, "")
    title = clean_title(title)
    if not title:
        return None
    year = parse_year(dated.start) if dated.dated else parse_year(line)
    return Award(title=title, organization=_clean_org(organization), year=year)


def _news_line(line: str) -> NewsItem | None:
    # Markup first: a date set in bold ("**Sep 2025**:") would leave its asterisks behind.
    plain = strip_markdown(line)
    if lead := leading_date(plain):  # a day's date too: "October 2, 2025 — …", "02 Oct 2025: …"
        date, text = lead
    else:
        dated = take_dates(plain)
        date, text = (dated.start if dated.dated else None), dated.text
    text = text.strip(" :-–—[]")
    if not text:
        return None
    links = link_targets(line)
    return NewsItem(text=text, date=date, url=links[0][1] if links else None)


def _project(item: ListItem) -> Paper | None:
    """A project: its name (the bold head), and the first venue-like link ("VLDB'23") as venue and year."""
    title = clean_title(strip_markdown(item.head))
    if not title:
        return None
    links = link_targets(item.head + "\n" + item.body)
    venue: str | None = None
    year: int | None = None
    url = links[0][1] if links else None
    for label, href in links:
        match = _VENUE_LABEL.match(label)
        if match and not re.search(r"talk|post|doc|tutorial|video|slides|code|blog", label, re.I):
            venue, year, url = match.group(1).strip(), _full_year(match.group(2)), href
            break
    arxiv = next((a for a in (find_arxiv(h) for _l, h in links) if a), None)
    doi = next((d for d in (find_doi(h) for _l, h in links) if d), None)
    return Paper(title=title, venue=venue, year=year, url=url, doi=doi, arxiv=arxiv)


def _full_year(text: str) -> int | None:
    value = int(text)
    return value if value >= 1900 else century_year(value)


# ---------------------------------------------------------------- publications

_CITATION_AUTHORS = re.compile(r"^(?P<authors>.+?)\s*\(\s*(?:19|20)\d\d[a-z]?\s*\)")
_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.?\s*-?){1,4}$")


def citation_authors(citation: str) -> tuple[str, ...]:
    """Author names from an APA-like citation ("Doe, J. A., Roe, B., & Poe, C. (2020). Title.")."""
    match = _CITATION_AUTHORS.match(strip_markdown(citation.replace("&amp;", "&")))
    if not match:
        return ()
    parts = [p.strip() for p in re.split(r",\s*|\s+&\s+|\s+and\s+", match.group("authors")) if p.strip()]
    names: list[str] = []
    for part in parts:
        part = part.lstrip("& ").strip()
        inverted = re.fullmatch(r"([A-Z][\w'’\-]+)\s+((?:[A-Z]\.?\s*){1,3})", part)
        if _INITIALS.match(part) and names and " " not in names[-1]:
            names[-1] = f"{part} {names[-1]}"
        elif inverted:
            initials = " ".join(f"{c}." for c in re.sub(r"[^A-Z]", "", inverted.group(2)))
            names.append(f"{initials} {inverted.group(1)}")
        elif part:
            names.append(part.rstrip("."))
    return tuple(n for n in names if n and n.lower() not in {"et al", "et al."})


def publication_paper(meta: Mapping[str, Any]) -> Paper | None:
    """A Paper from a ``_publications/*.md`` front matter."""
    title = clean_title(front_matter_text(meta.get("title")))
    if not title:
        return None
    citation = front_matter_text(meta.get("citation"))
    url = front_matter_text(meta.get("paperurl")) or front_matter_text(meta.get("url")) or None
    doi = find_doi(front_matter_text(meta.get("doi"))) or find_doi(url) or find_doi(citation)
    venue = strip_markdown(front_matter_text(meta.get("venue")))
    co_authors: tuple[str, ...] = ()
    if with_names := re.match(r"(?i)with\s+", venue):  # "with M. Bustamante": co-authors set where the venue goes
        venue, co_authors = "", author_names(venue[with_names.end() :])
    cites_the_paper = _holds_title(citation, title)
    cited = strip_markdown(citation)
    return Paper(
        title=title,
        authors=(citation_authors(citation) if cites_the_paper else ())
        or authors_of(meta.get("authors") or meta.get("author"))
        or co_authors,
        venue=_venue(venue or ("" if cites_the_paper else cited.strip()), cited),
        year=parse_year(front_matter_text(meta.get("date"))) or parse_year(front_matter_text(meta.get("year"))),
        url=url,
        doi=doi,
        arxiv=find_arxiv(url) or find_arxiv(citation),
    )


def _holds_title(citation: str, title: str) -> bool:
    """Whether a citation names its paper. One that does not ("Submitted. arXiv:2109.06981",
    "Trans. Amer. Math. Soc. 377 (2024)") says only where the paper stands: it is the venue,
    and names no authors."""
    words = re.findall(r"\w+", title.lower())
    return bool(words) and re.search(r"\W+".join(words), citation.lower()) is not None


def _venue(venue: str, citation: str) -> str | None:
    """The venue field, with the status only the citation states ("*Journal of X*. In press."):
    "In press" -> published is the news."""
    status = status_stated(citation)
    if not venue or not status or status.lower() in venue.lower():
        return venue or None
    return with_status(venue, status)


# ---------------------------------------------------------------- rendered HTML


def rendered_records(html: str) -> list[Record]:
    """Archive items (publications or talks) and CV sections of a rendered minimal-mistakes page."""
    tree = LexborHTMLParser(html)
    records: list[Record] = []
    for item in tree.css(".archive__item"):
        link = item.css_first(".archive__item-title a")
        href = (link.attributes.get("href") if link is not None else None) or ""
        # Talks and posts (news, a blog: dated addresses) are told as news, the rest as publications.
        record = _archive_talk(item) if _NEWS_ADDRESS.search(href) else _archive_paper(item)
        if record is not None:
            records.append(record)
    content = tree.css_first(".page__content")
    if content is not None and not records:
        records.extend(_rendered_sections(content))
    return records


_NEWS_ADDRESS = re.compile(r"/(?:talks?|news|posts?|blog)/|/(?:19|20)\d\d/\d\d/")


def _item_date(item: LexborNode) -> str | None:
    time = item.css_first("time")
    if time is None:
        return None
    stamp = time.attributes.get("datetime") or ""
    return parse_date(stamp[:10]) if stamp else parse_date(node_text(time))


def _archive_paper(item: LexborNode) -> Paper | None:
    title_node = item.css_first(".archive__item-title")
    title = clean_title(node_text(title_node))
    if not title:
        return None
    link = title_node.css_first("a") if title_node is not None else None
    hrefs = [a.attributes.get("href") or "" for a in item.css("a")]
    venue: str | None = None
    year = parse_year(_item_date(item))
    citation = ""
    for paragraph in item.css("p"):
        text = node_text(paragraph)
        if text.lower().startswith("published in"):
            emphasis = paragraph.css_first("i, em")
            venue = node_text(emphasis) or re.sub(r"(?i)^published in\s*", "", text).split(",")[0]
            year = parse_year(text) or year
        elif text.lower().startswith("recommended citation"):
            citation = re.sub(r"(?i)^recommended citation:\s*", "", text)
    paper = Paper(
        title=title,
        authors=citation_authors(citation),
        venue=clean_text(venue) or None,
        year=year,
        url=(link.attributes.get("href") if link is not None else None) or None,
        doi=next((d for d in map(find_doi, [*hrefs, citation]) if d), None),
        arxiv=next((a for a in map(find_arxiv, hrefs) if a), None),
    )
    if venue is None and not citation:
        return _with_excerpt_citation(paper, item)
    return paper


def _with_excerpt_citation(paper: Paper, item: LexborNode) -> Paper:
    """An item whose excerpt is its citation ("Okafor, C.; **Adeyemi, N.** *ChemRxiv* **2023**, preprint"),
    not a "Published in" line: the shared reader reads the item's authors, venue and year."""
    entry = entry_of_box(tree_from_html(item.html or ""))
    reading = read_paper(entry, Context(kind="paper"))
    cited = reading.record if reading is not None else None
    if not isinstance(cited, Paper) or cited.title != paper.title:
        return paper
    return dataclasses.replace(
        paper,
        authors=paper.authors or cited.authors,
        venue=cited.venue,
        year=paper.year or cited.year,
        doi=paper.doi or cited.doi,
        arxiv=paper.arxiv or cited.arxiv,
    )


_TALK_LINE = re.compile(
    r"^(?:[A-Za-z\- ]{0,40}\s)?(?:talk|tutorial|keynote|presentation|seminar|lecture|poster)\s+at\s+", re.I
)


def _archive_talk(item: LexborNode) -> NewsItem | None:
    """A talk: its date, and "Title, Venue" as the news text."""
    link = item.css_first(".archive__item-title a")
    title = clean_title(node_text(item.css_first(".archive__item-title")))
    if not title:
        return None
    venue = next(
        (_TALK_LINE.sub("", node_text(p)) for p in item.css("p") if _TALK_LINE.match(node_text(p))), ""
    )
    text = f"{title}, {venue}" if venue else title
    return NewsItem(
        text=text, date=_item_date(item), url=(link.attributes.get("href") if link is not None else None) or None
    )


def _rendered_sections(content: LexborNode) -> Iterator[Record]:
    """A rendered CV: each h1/h2 heading with the list that follows it."""
    heading = ""
    for node in content.iter():
        if node.tag in {"h1", "h2", "h3"}:
            heading = node_text(node)
        elif node.tag == "ul" and heading:
            lines = tuple("* " + (li.html or "") for li in node.iter() if li.tag == "li")
            cleaned = tuple(_html_li_to_markdown(line) for line in lines)
            records, _ = read_sections([Section(heading=heading, lines=cleaned)])
            yield from records


def _html_li_to_markdown(line: str) -> str:
    """Keep bold organisation markers and links; drop nested lists and other tags."""
    line = re.sub(r"<ul.*", "", line, flags=re.S)
    line = re.sub(r"</?(?:strong|b)>", "**", line)
    line = re.sub(r"<a\s[^>]*href=[\"']([^\"']+)[\"'][^>]*>(.*?)</a>", r"[\2](\1)", line, flags=re.S)
    return clean_text(without_tags(line))


# ---------------------------------------------------------------- the extractor


#: minimal-mistakes class names a rendered page carries
_MARKUP_CLASSES = ("archive__item", "page__content", "masthead__menu-item")
_MARKUP_CLASS = re.compile(rf"class=\"[^\"]*\b(?:{'|'.join(_MARKUP_CLASSES)})\b")


class AcademicPagesExtractor(Extractor):
    """academicpages / minimal-mistakes sites: rendered pages, repository sources, single markdown pages."""

    name = "academicpages"
    priority = 70
    shared_fallback = True
    url_patterns = (r"^github:[^/]+/academicpages", r"/_pages/(?:about|cv)\.md$", r"/_publications/[^/]+\.md$")
    source_paths = (r"^_publications/[^/]+\.md$", r"^_pages/(?:about|cv|resume)\.md$", r"^_config\.yml$")

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle:
            return _detect_bundle(doc.files)
        text = doc.text[:200_000]
        if "markdown" in doc.content_type or doc.url.endswith(".md") or text.lstrip().startswith("---"):
            meta, _ = parse_front_matter(text)
            if meta.get("author_profile") is True or meta.get("collection") == "publications":
                return "front matter: academicpages page keys"
            return None
        # the class names are plain substrings: test for them before the attribute regex scans every class
        if any(name in text for name in _MARKUP_CLASSES) and _MARKUP_CLASS.search(text):
            return "minimal-mistakes markup"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle:
            return _parse_bundle(doc.files)
        if not doc.text.strip():
            return []
        if doc.text.lstrip("\ufeff \n").startswith("---") or "markdown" in doc.content_type:
            return _parse_markdown_pages([doc.text])
        return rendered_records(doc.text)

    def wants_path(self, path: str) -> bool:
        return super().wants_path(path) or _kind_collection(path) is not None or _kind_page(path)

    def better_source(self, doc: Document) -> str | None:
        if doc.is_bundle:
            return None
        match = re.match(r"https?://([A-Za-z0-9\-]+)\.github\.io(?:/|$)", doc.url)
        return f"github:{match.group(1)}/{match.group(1)}.github.io" if match else None


def _detect_bundle(files: Mapping[str, str]) -> str | None:
    if any(p.startswith("_publications/") and p.endswith(".md") for p in files):
        return "bundle: _publications/ collection"
    about = files.get("_pages/about.md")
    config = files.get("_config.yml", "")
    if about is not None and re.search(r"^author\s*:", config, re.M) and re.search(r"^repository\s*:", config, re.M):
        return "bundle: _pages/about.md with academicpages _config.yml"
    if about is not None and parse_front_matter(about)[0].get("author_profile") is True:
        return "bundle: _pages/about.md with author_profile"
    return None


def _parse_bundle(files: Mapping[str, str]) -> list[Record]:
    pages = [files[p] for p in ("_pages/about.md", "_pages/cv.md", "_pages/resume.md") if p in files]
    records = _parse_markdown_pages(pages)
    # A page this reader reads (almost) nothing of (a CV written as HTML lists), and the other
    # pages named for a kind of item ("_pages/awards.md"), are read by the shared reading.
    thin = [text for text in pages if len(_parse_markdown_pages([text])) < THIN_READING]
    full = [text for text in pages if text not in thin]
    thin += [files[path] for path in sorted(files) if _kind_page(path)]
    for text in thin:
        records.extend(records_from_markdown(text))
    tagline = config_tagline_role(files.get("_config.yml", ""))
    if tagline is not None:
        records.append(tagline)
    records.extend(collection_records(files, _kind_collection))
    records.extend(_news_posts(files))
    for path in sorted(files):
        if path.startswith("_publications/") and path.endswith(".md"):
            meta, _ = parse_front_matter(files[path])
            paper = publication_paper(meta)
            if paper is not None:
                records.append(paper)
    # The theme's sites keep lists in ``_data/`` too ("publications.yml", "awards.yml", a JSON Resume
    # "cv.json"), rendered by Liquid in a page: each kind no page or collection gave comes from there,
    # and dated positions there stand over the post a biography sums up.
    data = read_data_files({path: text for path, text in files.items() if path.startswith("_data/")}).records
    if _dated_positions(data) and not _dated_positions(records):
        records = [record for record in records if not isinstance(record, Role)]
    found = {record.kind for record in records}
    records.extend(record for record in data if record.kind not in found)
    # A page this reader reads well may still hold a kind it does not know the shape of (news
    # under "### 2024" with "**May 2024** — …" lines): the shared reading adds the kinds no file gave.
    found = {record.kind for record in records}
    if not found >= _SHARED_KINDS:
        for text in full:
            records.extend(record for record in records_from_markdown(text) if record.kind not in found)
    return dedupe_roles(records)


def _dated_positions(records: Iterable[Record]) -> bool:
    return any(isinstance(record, Role) and record.start for record in records)


#: The kinds the shared reading gives: when the bundle has them all, a well-read page needs no second reading.
_SHARED_KINDS = frozenset({"news", "paper", "award", "role", "member"})


def _news_posts(files: Mapping[str, str]) -> list[NewsItem]:
    """Posts filed as news (``categories: news``, ``tags: [announcement]``): the theme's posts are
    a blog, but a site that files some of them as news lists its news there."""
    items = []
    all_news = _posts_menu_named_news(files.get("_data/navigation.yml", ""))
    for path in sorted(files):
        if path.startswith("_posts/") and path.endswith((".md", ".markdown")):
            meta, _body = parse_front_matter(files[path])
            filed = " ".join(front_matter_text(meta.get(key)) for key in ("categories", "category", "tags", "type"))
            if (all_news or _NEWS_FILING.search(filed)) and (item := news_from_post(path, files[path])) is not None:
                items.append(item)
    return items


_NEWS_FILING = re.compile(r"\b(?:news|announcements?|updates?)\b", re.I)
#: Where the theme lists its posts: the archive a site's menu may call "News".
_POSTS_ARCHIVES = frozenset({"/year-archive/", "/posts/", "/blog/"})


def _posts_menu_named_news(navigation: str) -> bool:
    """Whether the site's menu names its posts' archive "News" (or "Updates"): then every post is news."""
    menu = load_yaml(navigation) if navigation else None
    entries = menu.get("main") if isinstance(menu, dict) else None
    return any(
        isinstance(entry, dict)
        and _NEWS_FILING.search(str(entry.get("title", "")))
        and str(entry.get("url", "")).rstrip("/") + "/" in _POSTS_ARCHIVES
        for entry in entries or []
    )


_COLLECTION_FILE = re.compile(r"^_(?P<name>[a-z][\w-]*)/[^/]+\.md$")
_PAGE_FILE = re.compile(r"^_pages/(?P<name>[\w-]+)\.md$")
#: Collections that are not items of their own (pages, posts, layouts) or are read elsewhere.
_NOT_COLLECTIONS = frozenset({"pages", "posts", "drafts", "publications", "includes", "layouts", "site", "data"})


def _kind_collection(path: str) -> str | None:
    """The collection of a file when its name announces awards, news, positions or people: a site's
    own collections beside ``_publications`` ("_awards/x.md" -> "awards", "_members/x.md")."""
    match = _COLLECTION_FILE.match(path)
    if match is None or match.group("name") in _NOT_COLLECTIONS:
        return None
    return match.group("name") if _named_kind(match.group("name")) in ("award", "news", "role", "member") else None


def _kind_page(path: str) -> bool:
    match = _PAGE_FILE.match(path)
    return match is not None and match.group("name") not in ("about", "cv", "resume") and bool(
        _named_kind(match.group("name"))
    )


def _named_kind(name: str) -> str | None:
    """The kind a file or folder name announces, its dashes and underscores read as spaces."""
    return heading_kind(name.replace("-", " ").replace("_", " "))


def config_tagline_role(config: str) -> Role | None:
    """The sidebar tagline (``author: bio:``) as the current position when it reads "Title at/@ Org"."""
    data = load_yaml(config) if config else None
    author = data.get("author") if isinstance(data, dict) else None
    bio = front_matter_text(author.get("bio")) if isinstance(author, dict) else ""
    match = re.fullmatch(r"(?P<title>[^,@|]{2,60}?)\s+(?:at|@)\s*(?P<org>[^,@|]{2,80})", bio)
    if match is None or len(match.group("title").split()) > 6:
        return None
    return Role(title=clean_title(match.group("title")), organization=_clean_org(match.group("org")))


def _parse_markdown_pages(texts: Sequence[str]) -> list[Record]:
    """Typed sections of every page first; biography prose only adds roles no list gave."""
    records: list[Record] = []
    prose: list[str] = []
    has_positions = False
    for text in texts:
        _meta, body = parse_front_matter(text)
        sections = markdown_sections(body)
        found, positions = read_sections(sections)
        records.extend(found)
        has_positions = has_positions or positions
        prose += [p for s in sections if not s.heading for p in paragraphs(s.lines)]
    return records + new_bio_records(bio_records("\n\n".join(prose), roles=not has_positions), records)


def new_bio_records(bio: Iterable[Record], known: Sequence[Record]) -> list[Record]:
    """The biography's records less the roles it restates: a title a stated role starts with, or an
    undated post at the place of a stated current one ("a 4th-year PhD student at X" beside the
    profile's "Ph.D. Student", X)."""
    roles = [r for r in known if isinstance(r, Role)]
    titles = [normalise_key(r.title) for r in roles]
    places = [r.organization for r in roles if r.organization and not r.end]
    kept = []
    for record in bio:
        if isinstance(record, Role):
            if any(t.startswith(normalise_key(record.title)) for t in titles):
                continue
            if not record.start and any(same_place(record.organization, place) for place in places):
                continue
        kept.append(record)
    return kept


CASES = (
    Case(
        fixture="academicpages/about_experiences.md",
        url="https://example.org/_pages/about.md",
        content_type="text/markdown",
        claims=("https://example.org/_pages/about.md",),
        rejects=("https://example.org/about/", "https://janedoe.github.io/"),
    ),
    Case(
        fixture="academicpages/site",
        url="github:janedoe/janedoe.github.io",
        claims=("github:janedoe/academicpages.github.io",),
        rejects=("github:janedoe/notes",),
    ),
    Case(
        fixture="academicpages/site_collections",
        url="github:tibarra/tibarra.github.io",
        notes="a CV page written as HTML lists (each item's sub-list a sibling of it) read by the shared "
        "reading; an _awards collection's files as awards; the talks collection is not read",
    ),
    Case(
        fixture="academicpages/lab_site",
        url="github:harbor-lab/harbor-lab.github.io",
        notes="a lab on the theme: the _members collection as people (a role code gives way to the position "
        "written out, 'role: alumni' makes an alumnus), publication authors from an authors key, and only "
        "the posts filed as news",
    ),
    Case(fixture="academicpages/publications.html", url="https://janedoe.github.io/publications/"),
    Case(
        fixture="academicpages/publications_nested.html",
        url="https://mokonkwo.github.io/publications/",
        notes="a theme page with no archive items: publications as a nested list (title, then authors and "
        "venue as sub-items) are read by the shared reading; the intro line is not a paper",
    ),
    Case(fixture="academicpages/talks.html", url="https://janedoe.github.io/talks/"),
    Case(fixture="academicpages/cv.html", url="https://janedoe.github.io/cv/"),
)
