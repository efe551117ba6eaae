"""Hand-written personal research pages: Jon Barron's template and pages built like it.

Claims: single HTML pages (never repository bundles) that list papers as rows of a title,
an author line and a venue line. Jon Barron's template (``papertitle`` tags or the
``papertitle`` class, its credit link) is recognised by those markers; any other
hand-written page by a "Publications"/"Papers" heading over rows that carry years.

Reads the page as a stream of *lines* (text between ``<br>`` and block boundaries, HTML
comments, scripts and hidden elements dropped), grouped into sections by their headings:

- papers: a title line (``papertitle``, an element whose class names a title, or a whole
  line in ``<b>``/``<strong>``) followed by an author line (names, often the owner's in
  bold), a venue line (usually an ``<em>`` with the year) and link lines (arXiv, PDF,
  project, code). One-line entries (``Authors. <b>Title</b>. <i>Venue</i>, 2024``) too.
  Sections about teaching, service, talks, students, blog posts and the like are skipped.
- roles: the header block before the first section: a position line and an organisation
  line under the name ("Principal Scientist" / "Example Research"), and biography
  sentences ("I'm a research scientist at X", "From 2021 to 2023, I was ... at X",
  "I work on ... at X").
- news: dated lines (``[Feb 2026] ...``, ``2026-02-03: ...``) under a "News" heading.
- awards: lines under an "Awards"/"Honors" heading.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from extractors.base import Case, Extractor
from extractors.reading.owner import read_bio_roles
from watcher.records import Award, Document, NewsItem, Paper, Record, Role
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, parse_date, parse_year, split_authors

__all__ = [
    "BarronExtractor",
    "Line",
    "Section",
    "page_lines",
    "read_awards",
    "read_news",
    "read_papers",
    "read_roles",
    "sections_of",
]

_BLOCK = frozenset(
    {
        "p",
        "div",
        "tr",
        "td",
        "th",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "section",
        "article",
        "header",
        "footer",
        "nav",
        "blockquote",
        "hr",
        "heading",
        "main",
        "aside",
        "figure",
        "figcaption",
        "form",
        "center",
        "pre",
    }
)
_HEADING_LEVEL = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6, "heading": 2}
_VOID = frozenset(
    {
        "br",
        "hr",
        "img",
        "input",
        "meta",
        "link",
        "source",
        "wbr",
        "area",
        "col",
        "embed",
        "param",
        "track",
    }
)
_SKIPPED = ("script", "style", "noscript", "template", "iframe", "video", "audio", "svg", "button", "select")
# A tag and the text after it, or text after a "<" that opens no tag (the "<" is dropped).
_TOKEN = re.compile(r"<(/?)([a-zA-Z][\w-]*)([^>]*)>([^<]*)|([^<]+)", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_HIDDEN = re.compile(r"""display\s*:\s*none|visibility\s*:\s*hidden|\bhidden\b""", re.I)
_STYLE = re.compile(r"""\b(?:style\s*=\s*(?:"[^"]*"|'[^']*')|hidden(?:\s|$|=))""", re.I)


class Segment(NamedTuple):
    """A run of text with the markers of the elements around it that opened on its line."""

    text: str
    markers: frozenset[str]
    href: str | None = None


# Segment(text, markers, href) without a Python-level call: a page has hundreds.
_new_tuple = tuple.__new__


@dataclass(frozen=True, slots=True)
class Line:
    """One visual line of the page: its segments, text and heading level (0 for body text)."""

    segments: tuple[Segment, ...]
    heading: int = 0
    #: The line's clean text; worked out from the segments unless the reader passes it.
    text: str = field(default="", compare=False)
    #: Every marker on the line, so most tests for a marker need not look at the segments.
    present: frozenset[str] = field(default=frozenset(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", clean_text("".join(s.text for s in self.segments)))
        object.__setattr__(self, "present", _markers_of(self.segments))

    def marked(self, *markers: str) -> str:
        """The text of the segments carrying any of ``markers``."""
        if self.present.isdisjoint(markers):
            return ""
        return clean_text("".join([s.text for s in self.segments if not s.markers.isdisjoint(markers)]))

    def has(self, *markers: str) -> bool:
        return not self.present.isdisjoint(markers)

    def links(self) -> list[tuple[str, str]]:
        """(href, link text) of every link on the line, in order."""
        linked = [(s.href, s.text) for s in self.segments if s.href is not None]
        if len(linked) <= 1:  # most lines
            return [(href, clean_text(text)) for href, text in linked]
        found: dict[str, list[str]] = {}
        for href, text in linked:
            found.setdefault(href, []).append(text)
        return [(href, clean_text("".join(parts))) for href, parts in found.items()]


def _markers_of(segments: Sequence[Segment]) -> frozenset[str]:
    if len(segments) == 1:
        return segments[0].markers
    return frozenset().union(*[s.markers for s in segments])


# Line's generated __init__ sets each field through the frozen class's checks; the reader,
# which makes every line of a page, sets the slots directly.
_SET_SEGMENTS = Line.segments.__set__  # type: ignore[attr-defined]
_SET_HEADING = Line.heading.__set__  # type: ignore[attr-defined]
_SET_TEXT = Line.text.__set__  # type: ignore[attr-defined]
_SET_PRESENT = Line.present.__set__  # type: ignore[attr-defined]
_new_object = object.__new__


def _new_line(segments: tuple[Segment, ...], heading: int, text: str) -> Line:
    """``Line(segments, heading, text)`` for a non-empty clean ``text``."""
    line = _new_object(Line)
    _SET_SEGMENTS(line, segments)
    _SET_HEADING(line, heading)
    _SET_TEXT(line, text)
    _SET_PRESENT(line, segments[0].markers if len(segments) == 1 else frozenset().union(*[s.markers for s in segments]))
    return line


@dataclass(frozen=True, slots=True)
class Section:
    """The lines under one heading (``title`` is empty for the lines before any heading)."""

    title: str
    lines: tuple[Line, ...] = field(default=())


# ---------------------------------------------------------------------------------------
# Reading a page into lines


def page_lines(text: str) -> list[Line]:
    """The visible lines of an HTML page, in reading order."""
    if not text.strip():
        return []
    tree = LexborHTMLParser(text)
    # Each stripped tag is a walk over the whole tree; a tag absent from the source has nothing to strip.
    lowered = text.lower()
    present = [tag for tag in _SKIPPED if f"<{tag}" in lowered]
    if present:
        tree.strip_tags(present)
    body = tree.body
    if body is None:
        return []
    # Comments are not content; the parser serialises them back, so drop them here.
    return _build_lines(_COMMENT.sub("", body.html or ""))


# What an opening tag means to the line reader, worked out once per distinct tag text:
# (lower-case tag, starts a line, heading level, has no content, hidden, markers, link).
_TagInfo = tuple[str, bool, int, bool, bool, frozenset[str], "str | None"]
_NO_MARKERS: frozenset[str] = frozenset()


def _build_lines(body_html: str) -> list[Line]:
    """Walks the serialised body once; a line ends at ``<br>`` and at block boundaries.

    One flat loop over the tokens (no method call per token): this walk is most of the
    time a page takes. Each token is a tag with the text after it, so the loop turns half
    as often. Open elements are kept as tuples
    ``(tag, markers, line, href, hidden, heading level, markers of the line so far)``.
    """
    lines: list[Line] = []
    pending: list[Segment] = []  # the current line's segments
    texts: list[str] = []  # and their texts
    add, add_text = pending.append, texts.append
    # At the bottom, a stand-in for the page that never closes and opened on no line.
    stack: list[tuple[str, frozenset[str], int, str | None, bool, int, frozenset[str]]] = [
        ("", _NO_MARKERS, -1, None, False, 0, _NO_MARKERS)
    ]
    heading = 0
    skipping = 0
    headings_open = 0
    line_no = 0  # len(lines), kept up to date after each flush
    one_offs: dict[tuple[str, str], _TagInfo] = {}  # tags of this page only (a paper's link comes twice)
    for closing, raw_tag, attrs, text, loose in _TOKEN.findall(body_html):
        if not raw_tag:
            text = loose  # text after a "<" that opens no tag
        elif closing:
            tag = raw_tag.lower()
            if stack[-1][0] == tag:  # the usual case: the innermost element closes
                _, _, _, _, hidden, level, _ = stack.pop()
                skipping -= hidden
                headings_open -= level > 0
            else:
                for i in range(len(stack) - 1, -1, -1):
                    if stack[i][0] == tag:
                        for o in stack[i:]:
                            skipping -= o[4]
                            headings_open -= o[5] > 0
                        del stack[i:]
                        break
            if tag in _BLOCK:
                if pending:
                    line_no = _end_line(lines, pending, texts, heading, line_no)
                heading = _open_heading(stack) if headings_open else 0
        else:
            info = _TAG_INFOS.get((raw_tag, attrs)) or one_offs.get((raw_tag, attrs))
            if info is None:
                info = _tag_info_cached(raw_tag, attrs, one_offs)
            tag, breaks, level, empty, hidden, markers, link = info
            if breaks:
                if pending:
                    line_no = _end_line(lines, pending, texts, heading, line_no)
                heading = _open_heading(stack) if headings_open else 0
            if level and not skipping:
                heading = heading or level
            if not empty:
                skipping += hidden
                headings_open += level > 0
                parent = stack[-1]
                # Every element carries the link it sits in, so text finds it at the top.
                href = link if tag == "a" else parent[3]
                on_line = parent[6] | markers if parent[2] == line_no else markers
                stack.append((tag, markers, line_no, href, hidden, level, on_line))
        if text and not skipping:
            if "&" in text:
                text = html.unescape(text)
                if not text:
                    continue
            top = stack[-1]
            # Elements opened since the line began sit on top of the stack.
            add(_new_tuple(Segment, (text, top[6] if top[2] == line_no else _NO_MARKERS, top[3])))
            add_text(text)
    if pending and (len(texts) > 1 or not texts[0].isspace()):
        _flush_line(lines, pending, texts, heading)
    return lines


def _end_line(lines: list[Line], pending: list[Segment], texts: list[str], heading: int, line_no: int) -> int:
    """End the line being built at a block boundary; the new line number. Blank space between
    blocks is no line."""
    if len(texts) > 1 or not texts[0].isspace():
        _flush_line(lines, pending, texts, heading)
        line_no = len(lines)
    pending.clear()
    texts.clear()
    return line_no


def _flush_line(lines: list[Line], pending: list[Segment], texts: list[str], heading: int) -> None:
    """Ends the line of ``pending`` segments; the caller has left out blank space between blocks."""
    text = clean_text("".join(texts))
    if text:
        lines.append(_new_line(tuple(pending), heading, text))


def _open_heading(stack: Sequence[tuple[str, frozenset[str], int, str | None, bool, int, frozenset[str]]]) -> int:
    """Elements still open continue on the next line, but their markers stay with the
    line where they opened (a <td class="x"> does not mark every line inside it)."""
    return next((o[5] for o in stack if o[5]), 0)


# Pages of one site (and of one template) repeat their tags, so the readings are kept across pages;
# not those of links and images, whose addresses make them one-offs.
_TAG_INFOS: dict[tuple[str, str], _TagInfo] = {}
_TAG_INFOS_LIMIT = 4096


def _tag_info_cached(raw_tag: str, attrs: str, one_offs: dict[tuple[str, str], _TagInfo]) -> _TagInfo:
    info = _tag_info(raw_tag, attrs)
    if "href" in attrs or "src" in attrs:
        one_offs[(raw_tag, attrs)] = info
    else:
        if len(_TAG_INFOS) >= _TAG_INFOS_LIMIT:
            _TAG_INFOS.clear()
        _TAG_INFOS[(raw_tag, attrs)] = info
    return info


def _tag_info(raw_tag: str, attrs: str) -> _TagInfo:
    tag = raw_tag.lower()
    if not attrs:
        block, level = tag in _BLOCK or tag == "br", _HEADING_LEVEL.get(tag, 0)
        return (tag, block, level, tag in _VOID, tag in {"nav", "footer"}, frozenset([tag]), None)
    # The attribute patterns ignore case; for ASCII text a plain substring test rules them out.
    lowered = attrs.lower() if attrs.isascii() else None
    hidden = (lowered is None or "style" in lowered or "hidden" in lowered) and _is_hidden(attrs)
    classed = lowered is None or "class" in lowered
    return (
        tag,
        tag in _BLOCK or tag == "br",
        _HEADING_LEVEL.get(tag, 0),
        tag in _VOID or attrs.rstrip().endswith("/"),
        tag in {"nav", "footer"} or hidden,
        _markers(tag, attrs) if classed else frozenset([tag]),
        _href(attrs) if tag == "a" else None,
    )


def _markers(tag: str, attrs: str) -> frozenset[str]:
    classes = (_attr(_CLASS, attrs) or "").lower().split()
    return frozenset([tag, *(f".{c}" for c in classes)])


def _href(attrs: str) -> str | None:
    # The parser writes a link with no other attribute as ` href="..."` (quotes inside escaped).
    if attrs.startswith(' href="') and attrs.endswith('"') and attrs.count('"') == 2:
        return html.unescape(attrs[7:-1]).strip()
    return _attr(_HREF, attrs)


def _attr(pattern: re.Pattern[str], attrs: str) -> str | None:
    match = pattern.search(attrs)
    if not match:
        return None
    double, single, bare = match.groups()
    value = double if double is not None else single if single is not None else bare
    return html.unescape(value).strip()


def _is_hidden(attrs: str) -> bool:
    return any(_HIDDEN.search(m.group(0)) for m in _STYLE.finditer(attrs))


# ---------------------------------------------------------------------------------------
# Sections

_SECTION_WORDS = re.compile(
    r"^(?:selected |recent |all |my |other |featured |full )?(?:news|updates|announcements|publications?|papers|"
    r"preprints|research|projects|teaching|service|services|talks|awards?|honou?rs|awards and honou?rs|"
    r"miscellanea|misc|blog|students|collaborators|interns|mentees|media|press|experience|positions|education|"
    r"biography|bio|about|about me|contact|thesis|patents|workshops|journal papers|conference papers|"
    r"journal articles|conference proceedings|books|people|members|alumni|team)\b",
    re.I,
)
_SKIP_FOR_PAPERS = re.compile(
    r"news|updates|announce|teaching|service|talks?\b|award|honou?r|miscellan|misc\b|blog|student|collaborator|"
    r"intern|mentee|media|press|organi[sz]ation|committee|review|contact|music|hobb|my name|experience|"
    r"education|course|people|members|alumni|team|sponsor|funding|gallery|photo|links",
    re.I,
)


def sections_of(lines: Sequence[Line], owner: str = "") -> list[Section]:
    """Lines grouped under their headings. A heading that only repeats the owner's name (the
    page title) does not start a section; a short bold line naming a usual section does."""
    result: list[Section] = []
    title, current = "", []
    owner_key = _fold(owner)
    for line in lines:
        text = line.text
        if _is_heading(line) and _fold(text) != owner_key and line.heading != 1:
            result.append(Section(title, tuple(current)))
            title, current = text, []
        else:
            current.append(line)
    result.append(Section(title, tuple(current)))
    return [s for s in result if s.title or s.lines]


def _is_heading(line: Line) -> bool:
    if line.heading:
        return True
    text = line.text.strip(" :")
    # Cheapest test first (it fails at the first word of most lines); the bold text is only
    # read for a short line naming a section.
    if not _SECTION_WORDS.match(text) or len(text.split()) > 4:
        return False
    return line.marked("b", "strong").strip(" :") == text


_NON_WORDS = re.compile(r"\W+")


def _fold(text: str) -> str:
    return _NON_WORDS.sub(" ", text.casefold()).strip()


# ---------------------------------------------------------------------------------------
# Papers

_LINK_WORDS = re.compile(
    r"^\W*(?:arxiv|paper|pdf|project(?: page| website| site)?|page|code|github|video|youtube|website|webpage|"
    r"bibtex|bib|slides|poster|supp(?:lementary|l)?(?: material)?|talk|data(?:set)?|demo|doi|publisher|"
    r"official|abstract|html|colab|blog(?: post)?|press|journal|proceedings|openreview|link|model|models|"
    r"benchmark|thesis|tweet|twitter|media|coverage|huggingface|spotlight video|results|full text|preprint|"
    r"dissertation talk|fast forward|annotations|tar|official version|camera ready|workshop|site|repo)\W*$",
    re.I,
)
# The classes that name a title: ".title", ".paper-title", ".pub_title", ".articletitle", ...
_TITLE_CLASSES = frozenset(
    f".{kind}{sep}title" for kind in ("", "paper", "pub", "publication", "article", "entry") for sep in ("", "-", "_")
)
_EXPLICIT_TITLE = ("papertitle", ".papertitle")
_BOLD = ("b", "strong")
_TITLE_MARKERS = _TITLE_CLASSES.union(_EXPLICIT_TITLE, _BOLD)  # a title line carries one of them
_ASCII_DIGIT = re.compile(r"[0-9]")
_NAME_WORD = r"(?:[A-ZÀ-ÞĀ-ſ][\w'’.\-]*|[a-z]{1,3}|d'\w+|\w\.|[A-Z]\.[A-Z]\.?)"
# Every word a name word, in one pass: no name word holds white space, so the words are the runs between.
_NAME_WORDS = re.compile(rf"\s*{_NAME_WORD}(?:\s+{_NAME_WORD})*\s*")
_YEAR_RE = re.compile(r"(?<!\d)(?:19[5-9]\d|20\d\d)(?!\d)")
_MARKS = "*†‡§¶✝#^"
_NO_MARKS = str.maketrans({c: " " for c in _MARKS})
_DROP_MARKS = str.maketrans({c: None for c in _MARKS})
_WRAPPED = re.compile(r"(?:,|\band)\s*$")
_CONTRIBUTION_NOTE = re.compile(r"\((?:equal contribution|\*[^)]*|joint first[^)]*)\)", re.I)
_ET_AL = re.compile(r"\bet al\b\.?")
_VENUE_LEAD = re.compile(r"^(?:in|to appear in|published in)\s*[:\-]?\s+", re.I)
_EMPTY_BRACKETS = re.compile(r"\[\s*\]|\(\s*\)")
_SEPARATORS = ("/", "|", "·", "•")
# Linear: one start per run of separators, and no white space that two repetitions could share.
_TRAILING_SEPARATORS = re.compile(r"(?<![\s/|·•])(?:\s*[/|·•])+\s*$")
_LABEL_SPLIT = re.compile(r"[\s/|·•,\[\]()]+")
_BEST_LINK = (re.compile(r"project|page|website", re.I), re.compile(r"paper|pdf|arxiv", re.I))
_VENUE_TAIL = re.compile(r"\s*[\[(]?\b(?:pdf|arxiv|code|project page|bibtex|slides|video)\b", re.I)


class _Entry(NamedTuple):
    title: str
    start: int
    title_href: str | None


def read_papers(lines: Sequence[Line]) -> list[Paper]:
    """Paper rows in ``lines`` (one section's lines): multi-line and one-line entries."""
    papers: list[Paper] = []
    authors: dict[int, bool] = {}  # _author_like by line index, asked for by both passes
    # The name caches serve one section; kept longer, they would only remember pages read before.
    _split_names.cache_clear()
    _name_like.cache_clear()
    titles = [_title_at(lines, i, authors) for i in range(len(lines))]
    i = 0
    while i < len(lines):
        entry = titles[i]
        if entry is None:
            one_line = _one_line_paper(lines[i])
            if one_line is not None:
                papers.append(one_line)
            i += 1
            continue
        paper, i = _read_entry(lines, titles, entry, authors)
        papers.append(paper)
    return papers


def _title_at(lines: Sequence[Line], i: int, authors: dict[int, bool]) -> _Entry | None:
    line = lines[i]
    text = line.text
    if line.heading or not text:
        return None
    # Every marker on the line at once, so the texts below are only gathered when present.
    present = line.present
    if present.isdisjoint(_TITLE_MARKERS):
        return None
    explicit = "" if present.isdisjoint(_EXPLICIT_TITLE) else line.marked(*_EXPLICIT_TITLE)
    if explicit:
        return _Entry(explicit, i, _href_of(line, *_EXPLICIT_TITLE))
    # The line's own test first: it is cheaper and fails far more often than the author test.
    title = _classed_or_bold_title(line, present)
    if title is None or i + 1 >= len(lines) or not _author_like_at(lines, i + 1, authors):
        return None
    return _Entry(title, i, _first_href(line))


def _classed_or_bold_title(line: Line, present: frozenset[str]) -> str | None:
    """``present``: every marker on the line."""
    if not present.isdisjoint(_TITLE_CLASSES):
        classed = clean_text("".join([s.text for s in line.segments if not s.markers.isdisjoint(_TITLE_CLASSES)]))
        if classed and _title_like(classed):
            return classed
    if present.isdisjoint(_BOLD):
        return None
    bold = line.marked(*_BOLD)
    if bold and _covers(bold, line.text) and _title_like(bold):
        return bold
    return None


def _author_like_at(lines: Sequence[Line], i: int, authors: dict[int, bool]) -> bool:
    found = authors.get(i)
    if found is None:
        found = authors[i] = _author_like(lines[i])
    return found


def _read_entry(
    lines: Sequence[Line], titles: Sequence[_Entry | None], entry: _Entry, author_lines: dict[int, bool]
) -> tuple[Paper, int]:
    j = entry.start + 1
    authors: tuple[str, ...] = ()
    venue: str | None = None
    if j < len(lines) and titles[j] is None and _author_like_at(lines, j, author_lines):
        authors = _authors_of(lines[j])
        j += 1
        # A long author list wrapped with <br>: the line before ends with a comma or "and".
        while j < len(lines) and _wrapped(lines[j - 1].text) and _names_ok(lines[j].text):
            authors += _authors_of(lines[j])
            j += 1
    links: list[tuple[str, str]] = list(lines[entry.start].links())
    while j < len(lines) and not lines[j].heading and titles[j] is None and j - entry.start <= 6:
        line = lines[j]
        stripped = _strip_link_words(line)  # read once for the venue and link-line tests
        if venue is None and _venue_like(line, stripped):
            venue = _venue_text(line, stripped)
        elif not _link_line(line, stripped):
            break
        links.extend(line.links())
        j += 1
    # The paper's identifiers come from its title link and its labelled links, not from links in its text.
    labelled = [h for h, t in links if h == entry.title_href or _LINK_WORDS.match(t)]
    paper = Paper(
        title=clean_title(entry.title),
        authors=authors,
        venue=venue,
        year=parse_year(venue),
        url=entry.title_href or _best_link(links),
        doi=_first(find_doi(h) for h in labelled),
        arxiv=_first(find_arxiv(h) for h in labelled),
    )
    return paper, max(j, entry.start + 1)


def _wrapped(text: str) -> bool:
    # The pattern scans the whole line; a line it matches ends with either word.
    return text.rstrip().endswith((",", "and")) and _WRAPPED.search(text) is not None


def _has_year(text: str) -> bool:
    # The pattern tries its look-behind at every character; a year starts with "19" or "20".
    return ("19" in text or "20" in text) and _YEAR_RE.search(text) is not None


def _title_like(text: str) -> bool:
    text = clean_text(text)
    words = text.split()
    if len(text) < 10 or len(words) < 3 or text.endswith(":"):
        return False
    if _LINK_WORDS.match(text) or parse_date(text.strip("[]()")):
        return False
    return sum(ch.isalpha() for ch in text) >= len(text) * 0.6


def _covers(part: str, whole: str) -> bool:
    return len(part) >= 0.85 * len(whole.rstrip(" .,:"))


def _author_like(line: Line) -> bool:
    if line.heading:
        return False
    if line.has(".author", ".authors"):
        return True
    names = _split_names(line.text)
    if not names or len(line.text) > 600:
        return False
    good = sum(_name_like(n) for n in names)
    if len(names) == 1:
        return good == 1 and line.marked("b", "strong", "u") == clean_text(line.text).strip(" ,")
    return good >= max(2, len(names) - 1) and good >= 0.8 * len(names)


# Author lines are read twice (is it one? whose names?) and names recur in a section: both are
# cached while read_papers reads one.
@functools.lru_cache(maxsize=4096)
def _split_names(text: str) -> tuple[str, ...]:
    if "(" in text:
        text = _CONTRIBUTION_NOTE.sub("", text)
    text = text.translate(_NO_MARKS)
    if "et al" in text:
        text = _ET_AL.sub("", text)
    return split_authors(text.strip(" ,."))


@functools.lru_cache(maxsize=4096)
def _name_like(name: str) -> bool:
    words = name.split()
    if not 1 <= len(words) <= 6 or len(name) > 45 or _has_digit(name):
        return False
    return bool(words[0][:1].isupper()) and _NAME_WORDS.fullmatch(name) is not None


def _has_digit(text: str) -> bool:
    if text.isascii():
        return _ASCII_DIGIT.search(text) is not None
    return any(ch.isdigit() for ch in text)


def _authors_of(line: Line) -> tuple[str, ...]:
    spans = [clean_text(s.text) for s in line.segments if ".author" in s.markers] if ".author" in line.present else []
    if spans:
        return tuple(n for n in (clean_text(x.translate(_DROP_MARKS)) for x in spans) if n)
    return tuple(n.strip() for n in _split_names(line.text) if n.strip())


def _venue_like(line: Line, stripped: str | None = None) -> bool:
    """``stripped``: the line's ``_strip_link_words``, when the caller has it already."""
    if line.has(".venue", ".pub-venue", ".journal", ".conference"):
        return True
    text = _strip_link_words(line) if stripped is None else stripped
    if not text or len(text) > 200:
        return False
    return _has_year(text) or line.has("em", "i")


def _venue_text(line: Line, stripped: str | None = None) -> str | None:
    classed = line.marked(".venue", ".pub-venue", ".journal", ".conference")  # clean already
    text = classed or (_strip_link_words(line) if stripped is None else stripped)
    text = _VENUE_LEAD.sub("", text)
    return clean_text(text.strip(" .,;/|-")) or None


def _strip_link_words(line: Line) -> str:
    """The line's text without its link labels ("[PDF]", "project page / code")."""
    segments = line.segments
    if all(s.href is None for s in segments):
        text = line.text  # the clean text of all its segments
    else:
        text = clean_text("".join([s.text for s in segments if s.href is None or not _link_label(s.text)]))
    if "[" in text or "(" in text:
        return clean_text(_TRAILING_SEPARATORS.sub("", _EMPTY_BRACKETS.sub(" ", text)))
    # The text is clean, so trailing separators end it.
    if text.endswith(_SEPARATORS):
        return clean_text(_TRAILING_SEPARATORS.sub("", text))
    return text


def _link_label(text: str) -> bool:
    return _LINK_WORDS.match(clean_text(text)) is not None


def _link_line(line: Line, stripped: str | None = None) -> bool:
    """A line of link labels: "[Paper (pdf)(official)] [Bibtex]", "project page / code"."""
    if not clean_text("".join([s.text for s in line.segments if s.href is not None])):
        return False
    words = _LABEL_SPLIT.split(_strip_link_words(line) if stripped is None else stripped)
    rest = "".join([w for w in words if w and not _LINK_WORDS.match(w)])
    return len(rest) <= 3


def _href_of(line: Line, *markers: str) -> str | None:
    for seg in line.segments:
        if seg.href and not seg.markers.isdisjoint(markers):
            return seg.href
    return _first_href(line)


def _first_href(line: Line) -> str | None:
    return next((s.href for s in line.segments if s.href and not s.href.startswith("#")), None)


def _best_link(links: Sequence[tuple[str, str]]) -> str | None:
    """The project page, else the paper itself, among an entry's labelled links."""
    for pattern in _BEST_LINK:
        for href, text in links:
            if pattern.search(text) and not href.startswith(("#", "mailto:", "javascript:")):
                return href
    return None


def _first(values: Iterator[str | None]) -> str | None:
    return next((v for v in values if v), None)


_QUOTED = re.compile(r"[\"“](?P<title>[^\"”]{10,300}?)[,.]?[\"”]")


def _one_line_paper(line: Line) -> Paper | None:
    """``Authors. <b>Title</b>. <i>Venue</i>, 2024. [pdf]`` or ``Authors, "Title," Venue 2024``."""
    text = line.text
    if line.heading or len(text) > 800 or not _has_year(text):
        return None
    title = line.marked("b", "strong", ".title", ".papertitle")
    if title and len(title) > 0.7 * len(text):
        return None  # a bare bold line is a heading or a title handled elsewhere
    if not (title and _title_like(title)):
        quoted = _QUOTED.search(text)
        if not quoted:
            return None
        title = quoted.group("title")
    head, _, tail = text.partition(title)
    venue_part = line.marked("em", "i", ".venue")
    candidates = [p.strip(' .,;:"“”') for p in (head, tail.split(venue_part)[0] if venue_part else "")]
    names = next((_split_names(c) for c in candidates if c and _names_ok(c)), ())
    if not names:
        return None
    venue = None
    if venue_part:
        venue = _venue_text(Line(tuple(s for s in line.segments if s.markers & {"em", "i", ".venue"})))
    venue = venue or clean_text(tail.strip(' .,;:"“”')) or None
    if venue and len(venue) > 200:
        venue = None
    links = line.links()
    return Paper(
        title=clean_title(title),
        authors=names,
        venue=_venue_only(venue),
        year=parse_year(venue_part) or parse_year(tail) or parse_year(text),
        url=_best_link(links) or next((h for h, t in links if clean_text(t) == clean_text(title)), None),
        doi=_first(find_doi(h) for h, _ in links),
        arxiv=_first(find_arxiv(h) for h, _ in links),
    )


def _names_ok(text: str) -> bool:
    names = _split_names(text)
    return bool(names) and sum(_name_like(n) for n in names) >= max(1, 0.8 * len(names))


def _venue_only(venue: str | None) -> str | None:
    if not venue:
        return None
    head = _VENUE_TAIL.split(venue)[0]
    return clean_text(head.strip(" .,;[(")) or None


# ---------------------------------------------------------------------------------------
# News and awards

_DATE_HEAD = re.compile(
    r"^\s*(?:[\[(]\s*)?(?P<date>(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[-/.]\d{4}|"
    r"[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\s+[A-Z][a-z]{2,8}\.?,?\s+\d{4}|"
    r"[A-Z][a-z]{2,8}\.?,?\s+\d{4}|\d{4}))\s*(?:[\])]\s*)?(?:[:\-–—|]\s*)?(?P<text>.*)$",
    re.S,
)


def read_news(lines: Sequence[Line]) -> list[NewsItem]:
    """Dated lines of a news section; an undated line continues the item before it."""
    items: list[NewsItem] = []
    for line in lines:
        text = line.text
        match = _DATE_HEAD.match(text)
        date = parse_date(match.group("date")) if match else None
        if match and date and match.group("text").strip():
            url = next((h for h, _ in line.links()), None)
            items.append(NewsItem(text=match.group("text"), date=date, url=url))
        elif items and not _link_line(line) and not _noise(text):
            last = items[-1]
            items[-1] = NewsItem(text=f"{last.text} {text}", date=last.date, url=last.url)
    return items


def read_awards(lines: Sequence[Line]) -> list[Award]:
    """One award per line: its text without the trailing year, and the year; a year alone on its line (a
    table's year column) dates the award on the line after it."""
    awards: list[Award] = []
    year_alone: int | None = None
    for line in lines:
        text = line.text
        if _noise(text) or _link_line(line):
            continue
        if _YEAR_RE.fullmatch(text.strip()):
            year_alone = parse_year(text)
            continue
        title = _without_trailing_year(text).strip(" ,.;-–")
        if title:
            awards.append(Award(title=title, year=parse_year(text) or year_alone))
        year_alone = None
    return awards


_SEPARATE_YEAR = re.compile(r"\s*(?:,\s*|\(\s*)(?:19|20)\d\d\s*\)?\s*$")
_WORD_YEAR = re.compile(r"(?<!\S)(\S+)\s+(?:19|20)\d\d\s*$")


def _without_trailing_year(text: str) -> str:
    """ "Best Paper, 2024" and "Example Fellowship 2017" lose the year; "ECCV 2022" keeps it."""
    text = _SEPARATE_YEAR.sub("", text)
    match = _WORD_YEAR.search(text)
    if match and not match.group(1).isupper():
        text = text[: match.start(0) + len(match.group(1))]
    return text


_NOISE = re.compile(
    r"last (?:updated|modified)|visitors?\b|copyright|©|all rights reserved|template|website design|"
    r"source code|stole|steal this|powered by|hosted on|^more\b|see all|older news",
    re.I,
)


def _noise(text: str) -> bool:
    return not text or bool(_NOISE.search(text))


# ---------------------------------------------------------------------------------------
# Roles

_JOB = (
    r"professor|scientist|researcher|engineer|student|postdoc|post-doc|postdoctoral|fellow|lecturer|director|"
    r"intern|candidate|head|lead|manager|founder|co-founder|member|chair|principal investigator|investigator|"
    r"faculty|instructor|scholar|staff|developer|designer|analyst|consultant|cto|ceo|advisor|associate|"
    r"assistant|visiting|resident|officer|architect|phd|ph\.d\."
)
_JOB_RE = re.compile(rf"\b(?:{_JOB})s?\b", re.I)
_ORG = r"(?P<org>(?:[A-Z0-9][\w&.'’\-]*)(?:\s+(?:[A-Z0-9][\w&.'’\-]*|of|and|the|for|de|du|&))*)"
_TITLE = r"(?P<title>[\w.\-’' ]{2,80}?)"
_ROLE_SENTENCES = (
    re.compile(rf"\bI(?:'m|’m| am)(?: currently| now| also)? (?:a|an|the) {_TITLE} (?:at|with) {_ORG}"),
    re.compile(
        rf"(?:\b[Ff]rom (?P<start>\d{{4}}) (?:to|until|-|–) (?P<end>\d{{4}}),? )?"
        rf"\bI was (?:a|an|the) {_TITLE} (?:at|with) {_ORG}"
    ),
    re.compile(rf"\bI (?:recently )?joined {_ORG} as (?:a|an|the) {_TITLE}(?=[,.;]|\s+(?:in|at|where|and)\b|$)"),
    re.compile(rf"\bas (?:a|an) {_TITLE} at {_ORG}"),
)
_WORK_AT = re.compile(rf"\bI (?:currently |now )?work(?: [^.;]*?)? at {_ORG}")
_WORK_WITH = re.compile(r"\b(?:work|worked|working|collaborate|collaborated|collaborating) with\s+")
_PERSON = r"[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*){1,3}"
_PEOPLE_AT = re.compile(
    rf"(?P<people>{_PERSON}(?:(?:,\s*(?:and\s+)?|\s+and\s+){_PERSON})*)\s+at\s+{_ORG.replace('|and|', '|')}"
)
_SENTENCE_END = re.compile(r"(?:(?<=\w\w)|(?<=[)\]]))[.!?]\s+(?=[A-Z])")
_ORG_STOP = re.compile(r"\s+(?:in|where|and|on|working|since|for|with|as|from|during|under)\b.*$")


def read_roles(lines: Sequence[Line]) -> list[Role]:
    """Roles stated in a page's header block: position/organisation lines and bio sentences."""
    roles = _header_position(lines)
    for line in lines:
        for sentence in _SENTENCE_END.split(line.text):
            roles.extend(_sentence_roles(sentence))
    if not roles:
        # Wordings the template's own patterns miss ("I'm a fifth-year PhD student in the X Group
        # at Y, where …"): the shared reader of biographies.
        roles = read_bio_roles(" ".join(line.text for line in lines))
    return roles


def _header_position(lines: Sequence[Line]) -> list[Role]:
    """A short job-title line followed by a short organisation line, as in a letterhead."""
    for i, line in enumerate(lines[:-1]):
        text = line.text
        # A menu's "Staff" is where the site goes; an organisation may well be a link.
        if _short_label(text) and _JOB_RE.search(text) and not _a_menu_item(line):
            org = lines[i + 1].text
            if _short_label(org) and not _JOB_RE.search(org) and "@" not in org and " at " not in org:
                return [Role(title=text, organization=org)]
    return []


def _a_menu_item(line: Line) -> bool:
    """A line that is one link and nothing else."""
    links = line.links()
    return len(links) == 1 and links[0][1] == line.text


_NOT_A_LABEL = re.compile(r"\bI\b|[.!?]\s|:|https?:|@|\d{3,}")
_PAST_LEAD = re.compile(r"\s*(?:previously|before that|formerly|earlier)\b", re.I)


def _short_label(text: str) -> bool:
    words = text.split()
    return 1 <= len(words) <= 7 and not _NOT_A_LABEL.search(text)


def _sentence_roles(sentence: str) -> Iterator[Role]:
    past = bool(_PAST_LEAD.match(sentence))
    for pattern in _ROLE_SENTENCES:
        for match in pattern.finditer(sentence):
            title = clean_text(match.group("title"))
            org = _clean_org(match.group("org"))
            if not org or not _JOB_RE.search(title) or len(title.split()) > 7:
                continue
            groups = match.groupdict()
            is_past = past or " was " in match.group(0) or match.group(0).startswith("as ")
            yield Role(
                title=title[:1].upper() + title[1:],
                organization=org,
                start=groups.get("start"),
                end=groups.get("end") or ("past" if is_past and not groups.get("start") else None),
            )
    yield from _collaborations(sentence, past)
    for match in _WORK_AT.finditer(sentence):
        org = _clean_org(match.group("org"))
        if org:
            yield Role(title="Works", organization=org)


def _collaborations(sentence: str, past: bool) -> Iterator[Role]:
    """ "I worked with A and B at X and C at Y": a stay at X (with A and B) and one at Y."""
    start = _WORK_WITH.search(sentence)
    if start is None:
        return
    verb = start.group(0).split()[0].lower()
    for match in _PEOPLE_AT.finditer(sentence, start.end()):
        org = _clean_org(match.group("org"))
        people = clean_text(match.group("people"))
        if org and all(_name_like(n) for n in split_authors(people)):
            is_past = past or verb == "worked"
            yield Role(title=f"Worked with {people}", organization=org, end="past" if is_past else None)


def _clean_org(org: str) -> str:
    org = _ORG_STOP.sub("", org)
    return org.strip(" .,;:'’")


# ---------------------------------------------------------------------------------------
# The extractor

_PAPERTITLE = re.compile(r"<papertitle\b|class\s*=\s*[\"'][^\"']*\bpapertitle\b", re.I)
_CREDIT = re.compile(r"jonbarron(?:_website|\.github\.io/website)|leonidk/new_website", re.I)
_PUB_HEADING = re.compile(
    r"<(?:h[1-4]|heading|b|strong)\b[^>]*>\s*(?:<[^>]+>\s*)*(?:selected\s+|recent\s+)?(?:publications|papers)\b",
    re.I,
)
# A bold title closed by a line break, or an element classed as a paper's author/venue.
_ROW_MARK_SOURCE = r"</(?:b|strong)>\s*<br|class\s*=\s*[\"'](?:[^\"']*\s)?(?:author|authors|venue)[\"'\s]"
_ROW_MARK = re.compile(_ROW_MARK_SOURCE, re.I)
# On lower-cased ASCII text the case-sensitive pattern finds the same marks, faster.
_ROW_MARK_LOWER = re.compile(_ROW_MARK_SOURCE)
# Every row mark holds one of these (lower case), each mark its own occurrence.
_ROW_MARK_WORDS = ("</b", "</strong", "author", "venue")
_TITLE_TAG = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_TITLE_SEPARATOR = re.compile(r"\s[-|–—:]\s")
_AUTHOR_META = re.compile(r"<meta\s+name=[\"']author[\"']\s+content=[\"']([^\"']+)", re.I)


_ROWS_UNDER_A_HEADING = "hand-written page with a publications heading over paper rows"


class BarronExtractor(Extractor):
    """Jon Barron's template and other hand-written personal pages of paper rows."""

    name = "barron"
    priority = 50
    shared_fallback = True
    expected_kinds = frozenset({"paper"})
    fills_missing_kinds = frozenset({"news", "award"})
    url_patterns = ()

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle or "html" not in doc.content_type:
            return None
        head = doc.text[:400_000]
        # The patterns ignore case and scan the whole page; most pages lack the words they need,
        # which a substring test on the folded page rules out first.
        if "papertitle" in head and _PAPERTITLE.search(head):  # the template's own spelling: no folding
            return "papertitle rows (Jon Barron's template)"
        folded = _folded(head)
        if "papertitle" in folded and _PAPERTITLE.search(head):
            return "papertitle rows (Jon Barron's template)"
        if ("jonbarron" in folded or "leonidk/new_website" in folded) and _CREDIT.search(head):
            return "credit link of Jon Barron's template"
        # Three rows or more: a page with one or two papers is left to the generic reading.
        if ("publications" in folded or "papers" in folded) and _PUB_HEADING.search(head) and _has_rows(head, folded):
            return _ROWS_UNDER_A_HEADING
        return None

    def weighs_its_reading(self, doc: Document) -> bool:
        # The template's rows are read by their own markers. A page claimed only for bold rows under
        # a publications heading may set out other things so (a CV's appointments in bold).
        return self.detect(doc) == _ROWS_UNDER_A_HEADING

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle or not doc.text.strip():
            return []
        owner = _owner_name(doc.text)
        sections = sections_of(page_lines(doc.text), owner)
        records: list[Record] = []
        for index, section in enumerate(sections):
            kind = _section_kind(section.title)
            if index == 0 or kind == "about":
                records.extend(read_roles(section.lines))
            if kind == "news":
                records.extend(read_news(section.lines))
            elif kind == "awards":
                records.extend(read_awards(section.lines))
            elif kind in {"papers", "about"} or (kind == "other" and not _SKIP_FOR_PAPERS.search(section.title)):
                records.extend(read_papers(section.lines))
        return records


def _folded(text: str) -> str:
    """``text`` lower-cased so that a word a case-ignoring pattern matches is a substring of it."""
    lowered = text.lower()
    if text.isascii():
        return lowered
    # Case-ignoring patterns also match "ı", "ſ" and "İ" to i, s and i; lower() keeps the first
    # two and writes the last as "i" and a combining dot.
    return lowered.replace("ı", "i").replace("ſ", "s").replace("\u0307", "")


def _has_rows(head: str, folded: str) -> bool:
    """Whether ``head`` holds three row marks or more."""
    if sum(folded.count(word) for word in _ROW_MARK_WORDS) < 3:
        return False
    marks = _ROW_MARK_LOWER.finditer(folded) if head.isascii() else _ROW_MARK.finditer(head)
    return sum(1 for _ in itertools.islice(marks, 3)) == 3


_KIND_WORDS = (
    ("news", re.compile(r"\bnews\b|updates|announcements", re.I)),
    ("awards", re.compile(r"award|honou?r|prizes", re.I)),
    ("about", re.compile(r"^(?:about|bio|biography)\b", re.I)),
    ("papers", re.compile(r"publication|paper|preprint|research|thesis|journal|conference", re.I)),
)


def _section_kind(title: str) -> str:
    if not title:
        return "about"
    return next((kind for kind, pattern in _KIND_WORDS if pattern.search(title)), "other")


def _owner_name(text: str) -> str:
    meta = _AUTHOR_META.search(text[:20_000])
    if meta:
        return clean_text(html.unescape(meta.group(1)))
    title = _TITLE_TAG.search(text[:20_000])
    return clean_text(_TITLE_SEPARATOR.split(html.unescape(title.group(1)))[0]) if title else ""


CASES = (
    Case(
        fixture="barron/template.html",
        url="https://ada-quill.example.org/",
        notes="Barron template: papertitle spans, header bio with current and past roles, "
        "a paper listed twice (selected and all), a hidden row and a commented-out row.",
    ),
    Case(
        fixture="barron/plain.html",
        url="https://www.example.edu/~bnorth/",
        notes="Plain personal page: letterhead position lines, dated news, bold titles, "
        "'In VENUE, YEAR.' lines, awards, teaching and student lists that are not papers.",
    ),
    Case(
        fixture="barron/classed.html",
        url="https://cmarsh.example.net/",
        notes="Class-marked rows (div.title, span.author, span.venue) and one-line entries.",
    ),
)
