"""The generic fallback: reads any HTML, markdown or plain-text page by its sections.

Claims: every page (priority 0), so any source gives something useful; site families
patch or replace its reading.

Reads:
  * sections by headings: HTML ``h1``-``h4`` (and a bold line that names a section),
    markdown ``#`` / setext ``===`` headings, bold lines, and short stand-alone lines of
    plain text; a section's kind comes from its heading words (Publications/Papers/
    Preprints/Projects -> papers, News/Updates -> news, Experience/Positions/Education ->
    roles, Awards/Honors -> awards, People/Members/Students/Alumni -> members); a
    sub-heading without a kind ("2024", "Conference papers") inherits its parent's;
  * entries in a section: list items, table rows, repeated blocks (``div.publication``),
    else paragraphs or ``<br>``-separated lines; each entry is read by the section's
    kind: papers (title = the template's title element / quoted / linked / bold title or
    the first sentence; authors; venue and year; DOI and arXiv ids from every link),
    news (a leading date in many formats + text), roles (``2023/06 - Present Title, **Org**``,
    ``Org, Title, 2020-2021``, ``Title, Org (2020)``), awards (title, organisation, year),
    members (name, with the group heading as role);
  * the page's own positions from its header ("Research Scientist" / "Acme Labs" under the
    name) and biography sentences ("Since 2024, I have been leading the X Team at Y",
    "I joined Y in 2022 as a Systems Researcher", "I am a PhD student at Z");
  * papers, roles and events from schema.org JSON-LD, Highwire ``citation_*`` tags and
    COinS (``extractors.meta``).

Noise that never becomes an item: scripts, styles, ``nav``/``header``/``footer``, "last
updated" lines, visitor counters, copyright lines, bare social links.

The reusable pieces (``read_markdown_sections``, ``read_html_sections``,
``parse_role_line``, ``parse_paper_entry``, ``parse_news_line``, ``parse_award_line``,
``parse_member_line``, ``read_bio_roles``, ``records_from_sections``) let family
extractors start from this reading and patch it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.base import Case, Extractor
from extractors.meta import records_from_tree
from watcher.records import Award, Document, Member, NewsItem, Paper, Record, Role
from watcher.text import (
    AsciiFolded,
    clean_text,
    clean_title,
    find_arxiv,
    find_doi,
    parse_date,
    parse_year,
    split_authors,
)

if TYPE_CHECKING:
    from extractors.reading import ListReport

_WORD_CHARS = re.compile(r"\W+")

__all__ = [
    "Entry",
    "GenericExtractor",
    "Link",
    "Section",
    "classify_heading",
    "is_noise",
    "is_text_document",
    "node_text",
    "parse_award_line",
    "parse_member_line",
    "parse_news_line",
    "parse_paper_entry",
    "parse_role_line",
    "read_bio_roles",
    "read_header_roles",
    "read_html_sections",
    "read_markdown_sections",
    "records_from_html",
    "records_from_markdown",
    "records_from_sections",
    "strip_front_matter",
]


# ------------------------------------------------------------------ the reading's shape


@dataclass(frozen=True, slots=True)
class Link:
    text: str
    href: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One item-sized piece of a section: a list item, a table row, a block or a line.

    ``lines`` are its visual lines (markup removed); ``emphasis`` the bold/italic
    spans in order; ``title`` the text the template marks as a title, if any.
    """

    lines: tuple[str, ...]
    emphasis: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    title: str | None = None
    bullet: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the entries under it; ``kind`` is a record kind or None."""

    heading: str
    level: int
    kind: str | None
    entries: tuple[Entry, ...]


# ------------------------------------------------------------------ section kinds

_KIND_WORDS: tuple[tuple[str, str], ...] = (
    ("news", r"news|updates?|announcements?|what'?s new|latest|recent (?:news|updates|activities)"),
    ("award", r"awards?|honou?rs?|fellowships?|prizes?|scholarships?|grants? and awards|recognitions?"),
    (
        "paper",
        r"publications?|papers?|preprints?|manuscripts?|articles?|research outputs?|projects?|theses|thesis"
        r"|books?|book chapters?|proceedings|journals?|conferences?|talks and papers|bibliography",
    ),
    (
        "role",
        r"experiences?|positions?|employment|appointments?|education|career|work history|internships?"
        r"|affiliations?|professional|academic positions?",
    ),
    (
        "member",
        r"people|members?|students?|team|alumni|postdocs?|collaborators?|interns?|advisees|mentees|group"
        r"|researchers|staff|visitors",
    ),
)
_KIND_PATTERNS = tuple((kind, re.compile(rf"\b(?:{words})\b", re.I)) for kind, words in _KIND_WORDS)
_BIO_HEADING = re.compile(r"^(?:about(?: me)?|bio(?:graphy)?|short bio|introduction|welcome|home|profile)$", re.I)


def classify_heading(heading: str) -> str | None:
    """The record kind a section heading announces ("Selected Publications" -> "paper")."""
    text = clean_text(heading).strip(" :#*")
    if not text or len(text) > 60:
        return None
    for kind, pattern in _KIND_PATTERNS:
        if pattern.search(text):
            return kind
    return None


# ------------------------------------------------------------------ noise


@dataclass(frozen=True, slots=True)
class _Guarded:
    """A case-insensitive word pattern behind a cheap substring test.

    Long ``re.I`` alternations cost tens of microseconds per line. In ASCII text such a
    pattern can only match where one of ``hints`` (lower case) occurs, so most lines are
    answered by ``in`` alone; other text always runs the pattern (Unicode case folding is
    not ``str.lower``).
    """

    pattern: re.Pattern[str]
    hints: tuple[str, ...]

    def search(self, text: str) -> re.Match[str] | None:
        if text.isascii() and not any(map(text.lower().__contains__, self.hints)):
            return None
        return self.pattern.search(text)


_NOISE_PATTERN = re.compile(
    r"last (?:updated|modified|update)|updated on|visitors?\b|visitor count|page views|hits since|you are visitor"
    r"|copyright|©|\(c\) \d{4}|all rights reserved|powered by|built with|theme by|hosted (?:on|by)"
    r"|back to top|skip to (?:main )?content|cookie",
    re.I,
)
_NOISE = _Guarded(
    _NOISE_PATTERN,
    (
        "last ",
        "updated on",
        "visitor",
        "page views",
        "hits since",
        "copyright",
        "(c) ",
        "all rights reserved",
        "powered by",
        "built with",
        "theme by",
        "hosted ",
        "back to top",
        "skip to ",
        "cookie",
    ),
)
_SOCIAL = AsciiFolded.of(
    r"^(?:[\W_]*(?:twitter|x|github|gitlab|linkedin|google scholar|scholar|orcid|email|e-mail|mail|cv|resume"
    r"|bluesky|mastodon|facebook|instagram|youtube|dblp|researchgate|semantic scholar|blog|rss|home|contact)"
    r"[\W_]*)+$"
)


def is_noise(line: str) -> bool:
    """Whether a line is page furniture (update stamps, counters, copyright, social links)."""
    return (len(line) < 160 and _NOISE.search(line) is not None) or _SOCIAL.match(line)


# ------------------------------------------------------------------ markdown / plain text

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n.*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_BULLET = re.compile(r"^(\s*)(?:[*+\-•·▪◦‣]|\d{1,3}[.)]|\[\d{1,3}\])\s+(.*)$")
_BULLET_MARK = re.compile(r"^\s*(?:[*+\-•·▪◦‣]|\d{1,3}[.)]|\[\d{1,3}\])\s+")
_BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)([^*_]{1,80})(?:\*\*|__)\s*:?\s*$")
_MD_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
_HTML_LINK = re.compile(r"<a\s[^>]*?href\s*=\s*[\"']([^\"']*)[\"'][^>]*>(.*?)</a\s*>", re.I | re.S)
_ENDS_SENTENCE = re.compile(r"[.!?:]\s*$")
_BARE_URL = re.compile(r"(?<![(\"'=])\bhttps?://[^\s<>()\[\]]+[^\s<>()\[\].,;:!?'\"]")
_MD_EMPH = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])([*_])(?=\S)([^*_\n]+?)(?<=\S)\3(?![\w*])")
_HTML_EMPH = re.compile(r"<(b|strong|em|i)\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_TAG = re.compile(r"<[^>]+>")
_CODE = re.compile(r"`([^`]*)`")


def strip_front_matter(text: str) -> str:
    """The text without a leading YAML front-matter block."""
    match = _FRONT_MATTER.match(text)
    return text[match.end() :] if match else text


_HTML_START = re.compile(r"<(?:html|body|div|p|h[1-6]|ul|table|head|!doctype)\b", re.I)
_HTML_CLOSE = re.compile(r"</(?:p|div|li|h\d|td)>", re.I)


def is_text_document(doc: Document) -> bool:
    """Markdown or plain text rather than HTML (by content type, front matter or the absence of tags)."""
    ctype = doc.content_type.lower()
    if "markdown" in ctype or ctype.startswith("text/plain") or ctype.startswith("text/x-"):
        return True
    head = doc.text[:2000].lstrip("\ufeff \t\r\n")
    if head.startswith("---"):
        return True
    if "html" in ctype:
        return not _HTML_START.search(head) and (
            "<" not in doc.text[:20000] or not _HTML_CLOSE.search(doc.text[:20000])
        )
    return True


_SHORT_BRACKETS = re.compile(r"\[([^\[\]]{0,60})\]")


def _inline(text: str) -> tuple[str, tuple[str, ...], tuple[Link, ...]]:
    """Plain text, emphasised spans and links of one markdown/plain line (inline HTML too)."""
    links: list[Link] = []
    emphasis: list[str] = []
    if "<" in text:
        for match in _HTML_EMPH.finditer(text):
            emphasis.append(clean_text(_TAG.sub("", match.group(2))))
        text = _HTML_LINK.sub(lambda m: _keep_link(links, _TAG.sub("", m.group(2)), m.group(1)), text)
        text = _TAG.sub(" ", text)
    if "](" in text:
        text = _MD_LINK.sub(lambda m: _keep_link(links, m.group(1), m.group(2)), text)
    if "http" in text:
        for match in _BARE_URL.finditer(text):
            links.append(Link(text="", href=match.group(0)))
    if "[" in text:
        text = _SHORT_BRACKETS.sub(r" \1 ", text)  # "[[Talk](url)]" leaves "[Talk]"
    if "*" in text or "_" in text:
        for match in _MD_EMPH.finditer(text):
            emphasis.append(clean_text(match.group(2) or match.group(4)))
        text = _MD_EMPH.sub(lambda m: m.group(2) or m.group(4), text)
    if "`" in text:
        text = _CODE.sub(r"\1", text)
    return clean_text(text.replace("\\", "")), tuple(e for e in emphasis if e), tuple(links)


def _keep_link(links: list[Link], label: str, href: str) -> str:
    label = clean_text(label)
    inner = _MD_LINK.match(label)  # an image inside a link: keep the outer target
    if inner and label.startswith("!"):
        label = ""
    links.append(Link(text=label.strip("[]"), href=href))
    return label


@dataclass(slots=True)
class _Block:
    """A markdown entry being assembled."""

    raw: list[str]
    bullet: bool
    indent: int


def read_markdown_sections(text: str, plain: bool = False) -> list[Section]:
    """Sections of a markdown (or plain-text) document: headings, then list items and paragraphs.

    A list item keeps its indented continuation and nested items; a paragraph keeps its
    lines. In ``plain`` text, a short stand-alone line ("Experience") is a heading and each
    line is its own entry (a bare URL line joins the entry above it).
    """
    text = _COMMENT.sub("", strip_front_matter(text)).replace("\r\n", "\n").replace("\t", "    ")
    lines = text.split("\n")
    sections: list[Section] = []
    heading, level = "", 0
    blocks: list[_Block] = []
    stack: list[tuple[int, str | None]] = []

    def close_section() -> None:
        kind = classify_heading(heading)
        while stack and stack[-1][0] >= level:
            stack.pop()
        if kind is None and stack and heading and not _BIO_HEADING.match(heading.strip(" :")):
            kind = stack[-1][1]
        if heading:
            stack.append((level, kind))
        entries = tuple(e for b in blocks for e in _block_entries(b, plain))
        if heading or entries:
            sections.append(Section(heading=heading, level=level, kind=kind, entries=entries))

    count = len(lines)
    i = 0
    while i < count:
        line = lines[i]
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < count else ""
        new_heading: tuple[str, int] | None = None
        if m := _ATX.match(line):
            new_heading = (m.group(2), len(m.group(1)))
        elif stripped and not _BULLET.match(line) and _SETEXT.match(nxt) and not line.startswith("    "):
            if nxt.strip().startswith("=") or len(stripped) < 80:
                new_heading = (stripped, 1 if nxt.strip().startswith("=") else 2)
                i += 1
        elif (m := _BOLD_LINE.match(line)) and classify_heading(m.group(1)):
            new_heading = (m.group(1), 5)
        elif plain and _is_plain_heading(stripped, lines[i - 1] if i else "", nxt, i):
            new_heading = (stripped, 3)
        if new_heading is not None:
            close_section()
            heading, level = _inline(new_heading[0])[0], new_heading[1]
            blocks = []
            i += 1
            continue
        _add_markdown_line(blocks, line, plain)
        i += 1
    close_section()
    return sections


_PLAIN_HEADING = re.compile(r"^[A-Z][\w&/'’\- ]{1,60}$")


_DIGIT = re.compile(r"\d")


def _is_plain_heading(line: str, before: str, after: str, index: int) -> bool:
    """A short title-like line standing alone (blank lines around it, or the first line)."""
    if not line or not _PLAIN_HEADING.match(line) or _DIGIT.search(line):
        return False
    if len(line.split()) > 5 or line.lower().startswith(("http", "www")):
        return False
    alone = (index == 0 or not before.strip()) and not after.strip()
    return alone or (index == 0 and classify_heading(line) is not None)


def _add_markdown_line(blocks: list[_Block], line: str, plain: bool) -> None:
    stripped = line.strip()
    current = blocks[-1] if blocks else None
    if not stripped:
        if current is not None:
            current.raw.append("")
        return
    indent = len(line) - len(line.lstrip(" "))
    bullet = _BULLET.match(line)
    # An indented line, or an unindented one straight after the item's text, continues the item.
    if current is not None and current.bullet and (
        indent > current.indent or (not bullet and _continues_item(current.raw[-1], stripped, plain))
    ):
        current.raw.append(line)
        return
    if bullet:
        blocks.append(_Block(raw=[bullet.group(2)], bullet=True, indent=indent))
        return
    if current is not None and not current.bullet and current.raw[-1]:
        current.raw.append(stripped)
        return
    blocks.append(_Block(raw=[stripped], bullet=False, indent=indent))


def _continues_item(last: str, line: str, plain: bool) -> bool:
    """Whether an unindented ``line`` right after a list item's ``last`` line belongs to the item.

    In plain text, where every line is its own entry, only when the item was cut mid-sentence
    (hard-wrapped) or the line is a bare URL: after an item that ends its sentence, it is prose
    of its own.
    """
    if not last:
        return False
    return not plain or not _ENDS_SENTENCE.search(last) or bool(_BARE_URL.fullmatch(line))


def _block_entries(block: _Block, plain: bool) -> list[Entry]:
    raw = [r for r in block.raw if r.strip()]
    if not raw:
        return []
    if not block.bullet and plain:
        groups: list[list[str]] = []
        for r in raw:
            if groups and _BARE_URL.fullmatch(r.strip()):
                groups[-1].append(r)
            else:
                groups.append([r])
        return [_entry_from_lines(g, False) for g in groups]
    return [_entry_from_lines(raw, block.bullet)]


def _entry_from_lines(raw: Sequence[str], bullet: bool) -> Entry:
    lines: list[str] = []
    emphasis: list[str] = []
    links: list[Link] = []
    for r in raw:
        nested = _BULLET.match(r)
        text, emph, lnk = _inline(nested.group(2) if nested else r)
        if text:
            lines.append(text)
        emphasis.extend(emph)
        links.extend(lnk)
    return Entry(lines=tuple(lines), emphasis=tuple(emphasis), links=tuple(links), bullet=bullet)


# ------------------------------------------------------------------ HTML

_SKIP_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "nav",
        "footer",
        "header",
        "template",
        "svg",
        "button",
        "form",
        "select",
        "iframe",
        "head",
        "title",
        "-comment",
        "object",
        "canvas",
        "video",
        "audio",
        "math",
    }
)
_HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4}
_BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "li",
        "tr",
        "td",
        "th",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "section",
        "article",
        "blockquote",
        "pre",
        "main",
        "aside",
        "figure",
        "figcaption",
        "center",
        "address",
        "h5",
        "h6",
        "details",
        "summary",
        "caption",
        "papertitle-block",
    }
)
_CONTAINER_TAGS = frozenset({"ul", "ol", "table", "tbody", "thead", "tfoot", "dl", "main", "section"})
_EMPH_TAGS = frozenset({"b", "strong", "em", "i", "papertitle", "cite", "u"})
_ENTRY_CLASS = re.compile(r"pub|paper|entry|item|card|news|post|person|member|bib|citation|award|ref\b", re.I)
_TITLE_CLASS = re.compile(r"(?:^|[\s_-])(?:paper)?title\b|pub-?title|paper-?title", re.I)


@dataclass(slots=True)
class _Element:
    sig: str
    tag: str
    start: int
    end: int
    sec_start: int
    sec_end: int
    children: list[int]
    entry_class: bool


@dataclass(slots=True)
class _Mark:
    line: int
    kind: str  # "em", "title" or "link"
    text: str
    href: str = ""


class _HtmlWalker:
    """One pass over the DOM: visual lines, headings, block elements and inline marks."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.frags: list[str] = []
        self.marks: list[_Mark] = []
        self.headings: list[tuple[str, int, int]] = []  # text, level, first line
        self.elements: list[_Element] = []
        self.tops: list[int] = []
        # A page repeats a handful of class attributes hundreds of times: classify each once.
        self.class_kinds: dict[str, tuple[bool, bool]] = {}

    def class_kind(self, cls: str) -> tuple[bool, bool]:
        """Whether a class attribute marks a title, and whether it marks an entry."""
        kind = self.class_kinds.get(cls)
        if kind is None:
            kind = self.class_kinds[cls] = (bool(_TITLE_CLASS.search(cls)), bool(_ENTRY_CLASS.search(cls)))
        return kind

    def walk(self, node: LexborNode, parent: int | None) -> None:
        frags = self.frags
        child = node.child
        while child is not None:
            tag = child.tag
            if tag == "-text":
                text = child.text_content
                if text:
                    frags.append(text)
            elif tag in _SKIP_TAGS:
                pass
            elif tag in _HEADING_TAGS:
                self.heading(node_text(child), _HEADING_TAGS[tag])
            elif tag == "br":
                self.newline()
            elif tag in _BLOCK_TAGS:
                self.block(child, tag, parent)
            else:
                self.inline(child, tag, parent)
            child = child.next

    def inline(self, node: LexborNode, tag: str, parent: int | None) -> None:
        # Most inline elements (<a>, <b>, <i>) hold one text node: its text is the element's
        # text, and there is nothing below it to walk.
        only = node.child
        raw = only.text_content if only is not None and only.next is None and only.tag == "-text" else None
        if tag == "a":
            href = node.attributes.get("href") or ""
            text = clean_text(node.text(deep=True) if raw is None else raw)
            if href and not href.startswith(("#", "javascript:", "mailto:")):
                self.marks.append(_Mark(len(self.lines), "link", text, href))
        elif tag in _EMPH_TAGS:
            text = clean_text(node.text(deep=True) if raw is None else raw)
            if text:
                self.marks.append(_Mark(len(self.lines), "title" if tag == "papertitle" else "em", text))
        elif tag in ("span", "font") and (cls := node.attributes.get("class")) and self.class_kind(cls)[0]:
            self.marks.append(_Mark(len(self.lines), "title", clean_text(node.text(deep=True) if raw is None else raw)))
        if raw is None:
            self.walk(node, parent)
        elif raw:
            self.frags.append(raw)

    def block(self, node: LexborNode, tag: str, parent: int | None) -> None:
        self.newline()
        cls = node.attributes.get("class") or "" if tag in ("div", "li", "p", "tr", "section", "article") else ""
        is_title, is_entry = self.class_kind(cls) if cls else (False, False)
        if is_title:
            self.marks.append(_Mark(len(self.lines), "title", clean_text(node.text(deep=True))))
        index = len(self.elements)
        sec = len(self.headings)
        element = _Element(
            sig=f"{tag}.{cls}",
            tag=tag,
            start=len(self.lines),
            end=0,
            sec_start=sec,
            sec_end=sec,
            children=[],
            entry_class=is_entry,
        )
        self.elements.append(element)
        if parent is None:
            self.tops.append(index)
        else:
            self.elements[parent].children.append(index)
        self.walk(node, index)
        self.newline()
        element.end = len(self.lines)
        element.sec_end = len(self.headings)

    def newline(self) -> None:
        if not self.frags:
            return
        text = clean_text("".join(self.frags))
        self.frags.clear()
        if not text:
            return
        line = len(self.lines)
        marks = self.marks
        # A bold line that names a section ("<p><b>Publications</b></p>") is a heading.
        last = marks[-1] if marks else None
        is_bold_line = last is not None and last.line == line and last.kind == "em" and last.text == text
        if is_bold_line and len(text) < 50 and classify_heading(text):
            marks.pop()
            self.headings.append((text.strip(" :"), 5, line))
            return
        self.lines.append(text)

    def heading(self, text: str, level: int) -> None:
        self.newline()
        if text:
            self.headings.append((text, level, len(self.lines)))


def node_text(node: LexborNode | None) -> str:
    """A node's text, its pieces joined by spaces and cleaned ("" for no node)."""
    return clean_text(node.text(deep=True, separator=" ")) if node is not None else ""


def read_html_sections(tree: LexborHTMLParser) -> list[Section]:
    """Sections of a parsed HTML page: headings, then entries found by the page's structure."""
    root = tree.body or tree.root
    if root is None:
        return []
    walker = _HtmlWalker()
    walker.walk(root, None)
    walker.newline()
    lines, elements = walker.lines, walker.elements
    bounds = [(text, level, first) for text, level, first in walker.headings]
    starts = [0] + [first for _, _, first in bounds]
    ends = [first for _, _, first in bounds] + [len(lines)]
    parents = {child: i for i, e in enumerate(elements) for child in e.children}
    tops_by_section: dict[int, list[int]] = {}
    for index, element in enumerate(elements):
        if element.sec_start != element.sec_end or element.end <= element.start:
            continue
        parent = parents.get(index)
        # A top element of its section: its parent (if any) crosses a heading.
        if parent is None or elements[parent].sec_start != elements[parent].sec_end:
            tops_by_section.setdefault(element.sec_start, []).append(index)
    marks_by_line: dict[int, list[_Mark]] = {}
    for mark in walker.marks:
        marks_by_line.setdefault(mark.line, []).append(mark)
    sections: list[Section] = []
    stack: list[tuple[int, str | None]] = []
    for number in range(len(starts)):
        heading, level = ("", 0) if number == 0 else bounds[number - 1][:2]
        ranges = _section_ranges(elements, tops_by_section.get(number, []), starts[number], ends[number])
        entries = tuple(_html_entry(lines, marks_by_line, lo, hi) for lo, hi in ranges)
        kind = classify_heading(heading)
        while stack and stack[-1][0] >= level:
            stack.pop()
        if kind is None and stack and heading and not _BIO_HEADING.match(heading):
            kind = stack[-1][1]
        if heading:
            stack.append((level, kind))
        if heading or entries:
            sections.append(Section(heading=heading, level=level, kind=kind, entries=entries))
    return sections


def _section_ranges(elements: list[_Element], tops: list[int], lo: int, hi: int) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    pos = lo
    for index in tops:
        element = elements[index]
        ranges.extend((line, line + 1) for line in range(pos, element.start))
        ranges.extend(_split(elements, index))
        pos = max(pos, element.end)
    ranges.extend((line, line + 1) for line in range(pos, hi))
    return ranges


def _split(elements: list[_Element], index: int) -> list[tuple[int, int]]:
    """Entry line ranges inside one element: descend through wrappers and lists to the repeated unit."""
    element = elements[index]
    kids = [k for k in element.children if elements[k].end > elements[k].start]
    if not kids or (element.entry_class and element.tag not in _CONTAINER_TAGS):
        return [(element.start, element.end)]
    size = element.end - element.start
    if element.tag in ("li", "tr") and size <= 15:
        return [(element.start, element.end)]
    descend = element.tag in _CONTAINER_TAGS or len(kids) == 1
    if not descend:
        counts: dict[str, int] = {}
        for k in kids:
            counts[elements[k].sig] = counts.get(elements[k].sig, 0) + elements[k].end - elements[k].start
        sig, covered = max(counts.items(), key=lambda kv: kv[1])
        repeated = sum(1 for k in kids if elements[k].sig == sig) >= 2
        descend = repeated and covered >= 0.7 * size
    if not descend:
        return [(element.start, element.end)]
    ranges: list[tuple[int, int]] = []
    pos = element.start
    for k in kids:
        kid = elements[k]
        ranges.extend((line, line + 1) for line in range(pos, kid.start))
        if element.tag in _CONTAINER_TAGS or len(kids) == 1 or kid.tag in _CONTAINER_TAGS:
            ranges.extend(_split(elements, k))
        else:
            ranges.append((kid.start, kid.end))
        pos = max(pos, kid.end)
    ranges.extend((line, line + 1) for line in range(pos, element.end))
    return ranges


def _html_entry(lines: list[str], marks_by_line: dict[int, list[_Mark]], lo: int, hi: int) -> Entry:
    emphasis: list[str] = []
    links: list[Link] = []
    title: str | None = None
    for line in range(lo, hi):
        for mark in marks_by_line.get(line, ()):
            if mark.kind == "link":
                links.append(Link(text=mark.text, href=mark.href))
            elif mark.kind == "title":
                title = title or mark.text or None
            else:
                emphasis.append(mark.text)
    return Entry(lines=tuple(lines[lo:hi]), emphasis=tuple(emphasis), links=tuple(links), title=title)


# ------------------------------------------------------------------ dates

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = (
    rf"(?:{_MONTH}\s*\d{{1,2}}(?:st|nd|rd|th)?,?\s*\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s*\d{{4}}"
    rf"|{_MONTH},?\s*\d{{4}}|\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{4}}[-/.]\d{{1,2}}|\d{{1,2}}[-/.]\d{{4}}"
    rf"|(?:spring|summer|fall|autumn|winter)\s+\d{{4}}|\d{{4}})"
)
_OPEN_END = r"present|now|current|today|ongoing|date|\.\.\.|"
_RANGE = re.compile(
    rf"(?P<start>{_DATE})\s*(?:-{{1,2}}|–|—|~|to|until|till)\s*(?P<end>{_DATE}|{_OPEN_END})(?![\w/-])", re.I
)
_SINGLE_YEAR = re.compile(
    rf"(?:\(\s*(?P<p>{_DATE})\s*\)|(?:since|from|in)\s+(?P<s>{_DATE})|,\s*(?P<c>{_DATE})\s*$)", re.I
)
_LEADING_DATE = re.compile(rf"^\s*[\[(*_]*\s*(?P<date>{_DATE})\s*[\])*_]*\s*(?:[:\-–—|]\s*|\s)(?P<rest>.+)$", re.I)
_SEASON = re.compile(r"^(spring|summer|fall|autumn|winter)\s+(\d{4})$", re.I)
_DMY = re.compile(r"^(\d{1,2})[./](\d{1,2})[./](\d{4})$")


_SEPT = re.compile(r"(?i)\b(sept)\b")


def _date(text: str | None) -> str | None:
    """An ISO date for a page's date text (adds seasons and day.month.year to ``parse_date``)."""
    if not text:
        return None
    text = clean_text(text).strip("[]()*_ .:")
    if m := _SEASON.match(text):
        return m.group(2)
    if m := _DMY.match(text):
        return parse_date(f"{m.group(3)}-{m.group(2)}-{m.group(1)}")
    return parse_date(_SEPT.sub("sep", text)) or (str(parse_year(text)) if parse_year(text) else None)


# ------------------------------------------------------------------ roles

_ROLE_WORDS = re.compile(
    r"\b(?:professor|prof\.|scientist|engineer|researcher|research (?:staff|associate|assistant|fellow)|intern"
    r"|student|postdoc\w*|post-doc\w*|fellow|lecturer|instructor|director|manager|lead(?:er)?|head|chair"
    r"|founder|co-founder|cto|ceo|vp|president|principal|consultant|advisor|adviser|member of|scholar"
    r"|candidate|developer|analyst|architect|assistant|associate|visiting|staff|tech lead|officer|editor"
    r"|ph\.?\s?d\.?|m\.?\s?sc?\.?|b\.?\s?sc?\.?|b\.?\s?eng\.?|m\.?\s?eng\.?|bachelor|master|doctor\w*|mba|undergraduate)\b",
    re.I,
)
_EDU_WORDS = re.compile(
    r"\b(?:ph\.?\s?d|m\.?\s?sc?\b|b\.?\s?sc?\b|b\.?\s?eng|m\.?\s?eng|bachelor|master|doctor|mba|degree)", re.I
)


_WEB_ADDRESS = re.compile(r"\s*\((?:[\w-]+\.)+[a-z]{2,}\)")
_NEXT_SENTENCE = re.compile(r"[a-z]{3,}[.!?]\s+[A-Z][a-z]+\s+\w+\s+\w+")


def parse_role_line(line: str, emphasis: Sequence[str] = ()) -> Role | None:
    """A position from one line: "2023/06 - Present Title, **Org**", "Org, Title, 2020-2021",
    "Title, Org (2020)", "Title at Org". None for prose or a line without a title."""
    line = _BULLET_MARK.sub("", line)
    text, emph, _links = _inline(line) if ("*" in line or "](" in line or "<" in line) else (clean_text(line), (), ())
    emphasis = tuple(emphasis) or emph
    if not text or len(text) > 200 or is_noise(text):
        return None
    start = end = None
    rest = text
    if m := _RANGE.search(text):
        start, end = _date(m.group("start")), _date(m.group("end"))
        rest = (text[: m.start()] + " " + text[m.end() :]).strip()
    elif m := _SINGLE_YEAR.search(text):
        start = _date(m.group("p") or m.group("s") or m.group("c"))
        rest = (text[: m.start()] + " " + text[m.end() :]).strip()
    rest = _WEB_ADDRESS.sub("", rest)  # "(www.example.com)"
    rest = rest.strip(" ,;:.-–—|()")
    if not rest or len(rest.split()) > 16 or _NEXT_SENTENCE.search(rest):
        return None
    title, organization = _split_title_org(rest, emphasis)
    if not title:
        return None
    if start is None and end is None and not _ROLE_WORDS.search(title):
        return None
    return Role(title=title, organization=organization, start=start, end=end)


_TRAILING_AT = re.compile(r"\s+(?:at|@|in|with)$")
_LEADING_AS = re.compile(r"^(?:as|,)\s+")
_TITLE_AT_ORG = re.compile(r"^(?P<t>.+?)\s+(?:at|@)\s+(?P<o>.+)$")
_ROLE_PARTS = re.compile(r"\s*(?:,|;|\s[|–—-]\s|\s·\s)\s*")


def _split_title_org(rest: str, emphasis: Sequence[str]) -> tuple[str, str | None]:
    for emph in emphasis:
        emph = clean_text(emph).strip(" ,.")
        if not emph or emph not in rest or emph == rest or _ROLE_WORDS.search(emph):
            continue
        index = rest.index(emph)
        before = rest[:index].strip(" ,;:-–—|@")
        before = _TRAILING_AT.sub("", before)
        after = rest[index + len(emph) :].strip(" ,;:.-–—|")
        if before and (_ROLE_WORDS.search(before) or not _ROLE_WORDS.search(after)):
            return clean_title(before), clean_title(f"{emph} {after}" if after else emph)
        if after:
            return clean_title(_LEADING_AS.sub("", after)), clean_title(f"{before} {emph}".strip())
    if m := _TITLE_AT_ORG.match(rest):
        return clean_title(m.group("t")), clean_title(m.group("o"))
    parts = [p.strip() for p in _ROLE_PARTS.split(rest) if p.strip()]
    if len(parts) < 2:
        return clean_title(rest), None
    for i, part in enumerate(parts):
        if _ROLE_WORDS.search(part):
            others = [p for j, p in enumerate(parts) if j != i]
            return clean_title(part), clean_title(", ".join(others)) or None
    return clean_title(parts[0]), clean_title(", ".join(parts[1:])) or None


_ORG_WORDS = re.compile(
    r"\b(?:university|universit\w+|institute|college|school|lab|laboratory|labs|research|inc|ltd|corp\w*"
    r"|company|group|center|centre|academy|foundation|department|dept|ai|team)\b",
    re.I,
)


def _looks_like_org(text: str) -> bool:
    return bool(_ORG_WORDS.search(text))


# ------------------------------------------------------------------ biography sentences

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(\[])")
_ORG_END = (
    r"(?=\s*(?:,\s*(?:where|and|working|under|advised|supervised|focusing|with|since|from|in\s+\d)|[;.!?(]"
    r"|\s+(?:where|working|under|advised|supervised|focusing|since|from|in\s+\d{4}|for\s|with\s|as\s"
    r"|,?\s*beginning))|\s*$)"
)
_BIO_PATTERNS = (
    re.compile(
        rf"\bsince (?P<year>\d{{4}}),? I (?:have been|am|'ve been) "
        rf"(?P<verb>leading|heading|directing|running|managing|co-leading)\s+"
        rf"(?:the\s+)?(?P<team>[^,.;]+?)\s+at\s+(?P<org>.+?){_ORG_END}",
        re.I,
    ),
    re.compile(r"\bI (?:joined|moved to) (?:the\s+)?(?P<org>.+?) in (?P<year>\d{4}) as an? (?P<title>[^,.;()]+)", re.I),
    re.compile(
        rf"\bI (?:joined|moved to) (?:the\s+)?(?P<org>.+?) as an? (?P<title>[^,.;]+?)"
        rf"(?: in (?P<year>\d{{4}}))?{_ORG_END}",
        re.I,
    ),
    re.compile(
        rf"\b(?:I am|I'm|I work as|I serve as|I currently serve as|I was|currently,? I am|is|was)\s+"
        rf"(?:currently\s+|now\s+)?"
        rf"(?:an?|the)\s+(?P<title>[^,;]{{2,80}}?)\s+(?:at|in|with|of)\s+(?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}",
        re.I,
    ),
    re.compile(rf"\bas an? (?P<title>[^,.;]{{2,60}}?) at (?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}", re.I),
)
_DEGREE_SENTENCE = re.compile(r"\b(?:received|obtained|earned|graduated|hold|completed|degree)\b", re.I)
_SINCE = re.compile(r"\b(?:since|in|beginning in|starting in|from)\s+(\d{4})\b", re.I)


def read_bio_roles(text: str) -> list[Role]:
    """Positions named in biography sentences ("I joined X in 2022 as a Systems Researcher")."""
    roles: list[Role] = []
    for sentence in _SENTENCE_SPLIT.split(clean_text(text)):
        if _DEGREE_SENTENCE.search(sentence) or len(sentence) > 400:
            continue
        for pattern in _BIO_PATTERNS:
            match = pattern.search(sentence)
            if not match:
                continue
            role = _bio_role(match, sentence)
            if role is not None:
                roles.append(role)
                break
    return roles


_LEADING_THE = re.compile(r"^the\s+", re.I)


def _bio_role(match: re.Match[str], sentence: str) -> Role | None:
    groups = match.groupdict()
    team = groups.get("team")
    title = f"{clean_title(team)} Lead" if team else clean_title(groups.get("title") or "")
    if not title or not _ROLE_WORDS.search(title) or len(title.split()) > 8 or ". " in title:
        return None
    organization = clean_title(_LEADING_THE.sub("", groups.get("org") or "")) or None
    if organization and (len(organization.split()) > 14 or not organization[:1].isupper()):
        return None
    year = groups.get("year")
    if not year and (m := _SINCE.search(sentence[match.start() :])):
        year = m.group(1)
    title = title[:1].upper() + title[1:]
    return Role(title=title, organization=organization, start=year)


_HEADER_SKIP = re.compile(
    r"@|\[at\]|\(at\)|\bemail\b|\bphone\b|\btel\b|\bfax\b|\boffice\b|\broom\b|\d{3}[- ]\d{4}", re.I
)


_SENTENCE_END = re.compile(r"[.!?]$")
_DEGREE_END = re.compile(r"\b(?:d|h|c)\.$", re.I)
_SUB_UNIT = re.compile(r"\bdep(?:artmen)?t\b|\bschool of\b|\bfaculty\b", re.I)
_STATE_CODE = re.compile(r",\s*[A-Z]{2}\b")
_PLACE_OR_NUMBER = re.compile(r"^[\w .'-]+,\s*[A-Z]{2}\b|^\d")


def read_header_roles(lines: Sequence[str]) -> list[Role]:
    """The page owner's position from its header lines: a short title line, then the organisation."""
    roles: list[Role] = []
    for i, line in enumerate(lines[:12]):
        if len(line.split()) > 7 or not _ROLE_WORDS.search(line) or _HEADER_SKIP.search(line):
            continue
        if _SENTENCE_END.search(line) and not _DEGREE_END.search(line):
            continue
        after = [x for x in lines[i + 1 : i + 4] if not _HEADER_SKIP.search(x) and len(x.split()) <= 8]
        organization = None
        if ", " in line and not _ROLE_WORDS.search(line.split(", ", 1)[1]):
            line, organization = line.split(", ", 1)
        elif after and not _ROLE_WORDS.search(after[0]):
            organization = after[0]
            if _SUB_UNIT.search(organization) and len(after) > 1:
                organization = (
                    after[1] if _looks_like_org(after[1]) or not _STATE_CODE.search(after[1]) else organization
                )
        if organization and _PLACE_OR_NUMBER.search(organization):
            organization = None
        roles.append(Role(title=clean_title(line), organization=clean_title(organization) or None))
        break
    return roles


# ------------------------------------------------------------------ papers

_LINK_WORDS = AsciiFolded.of(
    r"^(?:\[?\s*)?(?:pdf|paper|arxiv|code|github|project(?: page| website)?|website|webpage|page|video|slides|poster"
    r"|bibtex|bib|doi|supp\w*|talk|demo|blog|data(?:set)?|abstract|html|link|press|media|colab|model|post|doc"
    r"|tutorial|openreview|proceedings|acm|ieee|springer|google ai blog|\d+)(?:\s*\]?)?$"
)
_QUOTED = re.compile(r"[\"“”]([^\"“”]{8,300})[\"“”]")
# The full stop first and the exceptions as look-behinds after it: the engine then jumps from
# one "." to the next instead of trying seven look-behinds at every position.
_SENTENCES = re.compile(
    r"\.(?<![A-Z]\.)(?<!\bet al\.)(?<!\bvs\.)(?<!\b[Ee]d\.)(?<!\b[Ee]ds\.)(?<!\bVol\.)(?<!\bNo\.)"
    r"\s+(?=[A-Z0-9\[(“\"]|with\b|in\b)"
)
_VENUE_PREFIX = re.compile(
    r"^(?:[Ii]n|[Aa]t|[Tt]o appear in|[Aa]ccepted (?:to|at|by)|[Pp]ublished in|[Pp]roceedings of)[:\s]+(?=[A-Z0-9])"
)
_NUMBER_PREFIX = re.compile(r"^\s*(?:\[\d+\]|\d+[.)])\s*")


_URL_TEXT = re.compile(r"https?://\S+")


def parse_paper_entry(entry: Entry | str, links: Sequence[Link] = ()) -> Paper | None:
    """A paper from one entry: title (template title, quoted, linked, bold, or the first sentence),
    authors, venue, year, and DOI/arXiv ids from every link. None when no title stands out."""
    if isinstance(entry, str):
        text, emph, found = _inline(_NUMBER_PREFIX.sub("", _BULLET_MARK.sub("", entry)))
        entry = Entry(lines=(text,), emphasis=emph, links=tuple(links) or found)
    lines = [_NUMBER_PREFIX.sub("", line) for line in entry.lines if not is_noise(line)]
    if not lines:
        return None
    full = " ".join(lines)
    title = _paper_title(entry, lines, full)
    if not title or len(title) < 4 or len(title.split()) > 40:
        return None
    rest = full.replace(title, " ", 1) if title in full else " ".join(lines[1:])
    authors, venue = _authors_and_venue(lines, title, rest)
    year = parse_year(_URL_TEXT.sub("", rest))
    doi = arxiv = url = None
    for link in entry.links:
        doi = doi or find_doi(link.href)
        arxiv = arxiv or find_arxiv(link.href)
    doi = doi or find_doi(rest)
    arxiv = arxiv or find_arxiv(rest)
    url = _paper_url(entry.links, title)
    for link in entry.links:
        if m := _SHORT_VENUE.match(link.text):
            short = int(m.group(2))
            venue, year = m.group(1), year or (2000 + short if short < 70 else 1900 + short)
            break
    return Paper(title=clean_title(title), authors=authors, venue=venue, year=year, url=url, doi=doi, arxiv=arxiv)


_SHORT_VENUE = re.compile(r"^\[?([A-Z][A-Za-z&\-]{1,12})\s*['’](\d\d)\]?$")


_BEFORE_URL = re.compile(r"\s+https?://")


def _paper_title(entry: Entry, lines: Sequence[str], full: str) -> str | None:
    if entry.title:
        return entry.title
    if ('"' in full or "“" in full or "”" in full) and (m := _QUOTED.search(full)):
        return m.group(1)
    person_links: list[str] = []
    for link in entry.links:
        label = link.text.strip()
        if (
            len(label.split()) >= 3
            and not _LINK_WORDS.match(label)
            and label in full
            and not _looks_like_authors(label)
        ):
            if _PERSON.match(label) and len(label.split()) <= 4:
                person_links.append(label)  # more likely a co-author's home page than a title
                continue
            return label
    for emph in entry.emphasis:
        if len(emph.split()) >= 2 and not _looks_like_authors(emph) and not _is_venue(emph) and emph in full:
            return emph
    if person_links and len(entry.links) == 1:
        return person_links[0]
    first = lines[0]
    sentences = [s.strip() for s in _SENTENCES.split(first) if s.strip()]
    if len(sentences) > 1 and _looks_like_authors(sentences[0]):
        return sentences[1]
    if len(lines) > 1 and len(sentences) == 1 and _looks_like_authors(lines[0]) and not _looks_like_authors(lines[1]):
        return _SENTENCES.split(lines[1])[0]
    candidate = sentences[0] if sentences else first
    candidate = _BEFORE_URL.split(candidate)[0]
    return candidate if len(candidate.split()) >= 2 else None


_NAME = r"(?:[A-Z][\w'’\-]*\.?|[A-Z]\.)(?:\s+(?:[A-Z][\w'’\-]*\.?|[A-Z]\.|van|von|de|der|da|di|le|la|del))*\*?"
_AUTHOR_LIST = re.compile(rf"^\s*{_NAME}(?:\s*(?:,|;|\band\b|&)\s*(?:and\s+)?{_NAME})+(?:,?\s*et al\.?)?\s*$")


_AUTHOR_MARKS = re.compile(r"[*†‡§¶✝#\d]+")
_ASCII_AUTHOR_MARKS = b"*#0123456789"  # the marks ASCII text can hold


def _looks_like_authors(text: str) -> bool:
    if not text.isascii():
        text = _AUTHOR_MARKS.sub("", text)
    else:  # bytes.translate deletes the marks many times faster than the pattern finds them
        unmarked = text.encode("ascii").translate(None, _ASCII_AUTHOR_MARKS)
        if len(unmarked) != len(text):
            text = unmarked.decode("ascii")
    text = text.strip(" .,")
    if not text or len(text) > 600:
        return False
    if "," not in text and " and " not in text and "&" not in text:
        return False
    return bool(_AUTHOR_LIST.match(text))


_VENUE_WORDS = AsciiFolded.of(
    r"\b(?:conference|proceedings|journal|transactions|workshop|symposium|arxiv|preprint|letters|review"
    r"|neurips|nips|icml|iclr|cvpr|iccv|eccv|acl|emnlp|naacl|aaai|ijcai|siggraph|chi|kdd|www|sigir|icra|iros"
    r"|corl|rss|mlsys|osdi|sosp|nsdi|vldb|sigmod|tpami|jmlr|nature|science|cell)\b"
)


def _is_venue(text: str) -> bool:
    words = len(text.split())
    # The word counts first: a longer title needs neither the year nor the venue-word search.
    return words <= 12 and (words <= 4 or parse_year(text) is not None) and _VENUE_WORDS.search(text)


# Reads as r"\s+/\s+|\s*\|\s*|(?<=[a-z0-9)\]])\.\s+": every match starts with one of "\s|.", and a
# pattern that starts with that set lets the engine skip to those characters instead of trying
# three alternatives at every position.
_CITATION_PARTS = re.compile(r"[\s|.](?:(?<=\s)\s*(?:/\s+|\|\s*)|(?<=\|)\s*|(?<=[a-z0-9)\]]\.)\s+)")
_SENTENCE_DOT_AFTER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789)]")


def _citation_parts(line: str) -> list[str]:
    """``_CITATION_PARTS.split(line)``; without "/" and "|" only its full stops can separate, and
    they are found by a character search instead of the pattern tried at every space."""
    if "/" in line or "|" in line:
        return _CITATION_PARTS.split(line)
    parts: list[str] = []
    start = 0
    size = len(line)
    dot = line.find(".")
    while dot >= 0:
        end = dot + 1
        while end < size and line[end].isspace():  # str.isspace() is exactly the pattern's \s
            end += 1
        if end > dot + 1 and dot > 0 and line[dot - 1] in _SENTENCE_DOT_AFTER:
            parts.append(line[start:dot])
            start = end
        dot = line.find(".", end)
    parts.append(line[start:])
    return parts


_BRACKETED_YEAR = re.compile(r"[\[(]?\b(?:19|20)\d\d\b[\])]?")
_PRESENTATION = re.compile(r"\b(?:spotlight|oral|poster|highlight)(?: presentation)?\b", re.I)


def _authors_and_venue(lines: Sequence[str], title: str, rest: str) -> tuple[tuple[str, ...], str | None]:
    authors: tuple[str, ...] = ()
    venue: str | None = None
    for line in lines:
        line = line.replace(title, " ", 1) if title in line else line
        for part in _citation_parts(line):
            segment = part.strip(" .,")
            if not segment:
                continue
            prefix = _VENUE_PREFIX.match(segment) if segment[0] in "IiAaTtPp" else None  # "In", "At", "To appear"...
            bare = segment[prefix.end() :].strip(" .,") if prefix else segment
            if not authors and _looks_like_authors(bare):
                authors = split_authors(bare)
                continue
            if venue is None and (
                parse_year(bare) is not None or prefix or _VENUE_WORDS.search(bare)
            ):
                if _LINK_WORDS.match(bare) or bare.lower().startswith(("http", "with ")) or len(bare.split()) > 12:
                    continue
                cleaned = _URL_TEXT.sub("", bare)
                cleaned = _BRACKETED_YEAR.sub("", cleaned)
                cleaned = _PRESENTATION.sub("", cleaned)
                cleaned = clean_text(cleaned.replace('"', " ").replace("“", " ").replace("”", " "))
                cleaned = cleaned.strip(" ,.;:()[]-–—")
                if cleaned and not _LINK_WORDS.match(cleaned):
                    venue = cleaned
            if authors and venue is not None:
                break  # the abstract and links below cannot change either any more
        else:
            continue
        break
    return authors, venue


_PAPER_LINK_LABEL = AsciiFolded.of(r"^\[?\s*(?:pdf|paper|arxiv|doi)")
_PAPER_HOST = re.compile(r"arxiv\.org|doi\.org|\.pdf$|openreview\.net|aclanthology|dl\.acm\.org")


def _paper_url(links: Sequence[Link], title: str) -> str | None:
    clean = clean_title(title)
    for link in links:
        label = link.text
        # clean_title never lengthens ASCII text: a shorter label ("PDF") cannot equal the title.
        if not label or (len(label) < len(clean) and label.isascii()):
            continue
        if clean_title(label) == clean and link.href.startswith("http"):
            return link.href
    for link in links:
        if link.href.startswith(("http", "/")) and _PAPER_LINK_LABEL.match(link.text or "pdf"):
            return link.href
    for link in links:
        if _PAPER_HOST.search(link.href):
            return link.href
    return None


# ------------------------------------------------------------------ news, awards, members

_NEWS_URL_SKIP = re.compile(r"twitter\.com|x\.com", re.I)


def parse_news_line(line: str, links: Sequence[Link] = ()) -> NewsItem | None:
    """A news item from a line with a leading date ("[Feb 2026] text", "2024-05-01: text",
    "**Sep 2024** text"). None without a date and a sentence."""
    text, _emph, found = _inline(line) if ("*" in line or "](" in line or "<" in line) else (clean_text(line), (), ())
    links = tuple(links) or found
    if not text or is_noise(text):
        return None
    match = _LEADING_DATE.match(text)
    if not match:
        return None
    date = _date(match.group("date"))
    rest = clean_text(match.group("rest")).strip(" :-–—|")
    if not date or len(rest) < 3:
        return None
    url = next(
        (link.href for link in links if link.href.startswith("http") and not _NEWS_URL_SKIP.search(link.href)), None
    )
    return NewsItem(text=rest, date=date, url=url)


_AWARD_REASON = re.compile(r"(?<=\d{4})\s*[:–—]\s+|\s+[–—]\s+|:\s+(?=for\b|awarded\b|given\b)")
_LEADING_YEAR = re.compile(r"^\s*(?:\(?(?:19|20)\d\d\)?)\s*[:,\-–—]?\s*")
_TRAILING_YEAR = re.compile(r"[,(\s]*\b(?:19|20)\d\d\b\)?[.,]?\s*$")
_COMMA = re.compile(r",\s+")
_YEAR_WORD = re.compile(r"\b(?:19|20)\d\d\b")


def parse_award_line(line: str, links: Sequence[Link] = ()) -> Award | None:
    """An award from "Title, Organisation, 2025: why" / "Organisation, [Title](link), 2023" / "Title 2017"."""
    text, _emph, found = _inline(line) if ("*" in line or "](" in line or "<" in line) else (clean_text(line), (), ())
    links = tuple(links) or found
    if not text or is_noise(text) or len(text) > 300:
        return None
    year = parse_year(text)
    main = _AWARD_REASON.split(text, maxsplit=1)[0]
    main = _LEADING_YEAR.sub("", main)
    main = _TRAILING_YEAR.sub("", main).strip(" ,.;")
    if not main:
        return None
    parts = [p.strip() for p in _COMMA.split(main) if p.strip()]
    title, organization = parts[0], (", ".join(parts[1:]) or None)
    label = next((lk.text for lk in links if lk.text and lk.text in main and len(lk.text.split()) >= 2), None)
    if label and label != title and label in main:
        organization = ", ".join(p for p in parts if label not in p) or None
        title = label
    if organization and (parse_year(organization) or len(organization.split()) > 8):
        organization = _YEAR_WORD.sub("", organization).strip(" ,") or None
    return Award(title=clean_title(title), organization=clean_title(organization) or None, year=year)


_PERSON = re.compile(
    r"^[A-Z][\w'’.\-]*(?:\s+(?:\(\w[^)]*\)|[A-Z][\w'’.\-]*|van|von|de|der|da|di|del|bin|al-\w+)){1,4}$"
)


_NAME_TAIL = re.compile(r"\s*[,(|–—:]\s*|\s+-\s+")


def parse_member_line(line: str, role: str | None = None, links: Sequence[Link] = ()) -> Member | None:
    """A person from "Name, affiliation (note)" or "Name - PhD student"; the role is the line's
    own position words, else the group heading given."""
    text, _emph, found = _inline(line) if ("*" in line or "](" in line or "<" in line) else (clean_text(line), (), ())
    links = tuple(links) or found
    if not text or is_noise(text):
        return None
    parts = _NAME_TAIL.split(text, maxsplit=1)
    name, tail = parts[0], (parts[1] if len(parts) > 1 else "")
    name = clean_text(name).strip(" .")
    if not _PERSON.match(name) or len(name) > 50 or _ROLE_WORDS.search(name) or _ORG_WORDS.search(name):
        return None
    stated = clean_text(tail).strip(" ()")
    if stated and _ROLE_WORDS.search(stated) and len(stated.split()) <= 10:
        role = f"{role} ({stated})" if role and stated.lower().startswith(("now", "then", "next")) else stated
    url = next((lk.href for lk in links if lk.text and lk.text.strip() in name), None)
    return Member(name=name, role=clean_text(role) or None, url=url)


# ------------------------------------------------------------------ sections -> records


def records_from_sections(sections: Iterable[Section]) -> list[Record]:
    """Read every section by its kind; the intro sections give the owner's roles."""
    records: list[Record] = []
    seen_kind = False
    for section in sections:
        if section.kind is None:
            if not seen_kind or _BIO_HEADING.match(section.heading.strip(" :")):
                records.extend(_intro_roles(section))
            continue
        seen_kind = True
        records.extend(_read_section(section))
    return _dedupe_roles(records)


def _intro_roles(section: Section) -> list[Record]:
    lines = [line for entry in section.entries for line in entry.lines]
    roles: list[Record] = list(read_header_roles([line for line in lines if not is_noise(line)]))
    for entry in section.entries:
        roles.extend(read_bio_roles(entry.text))
    return roles


def _dedupe_roles(records: list[Record]) -> list[Record]:
    """Drop a role that repeats another (the header and the biography often name the same one);
    of the two, the one with more detail (dates, organisation) is kept, in the first one's place."""
    out: list[Record] = []
    roles: dict[int, Role] = {}  # the roles kept, by their position in ``out``
    for record in records:
        if isinstance(record, Role):
            twin = next((i for i, role in roles.items() if _same_role(role, record)), None)
            if twin is not None:
                if _role_detail(record) > _role_detail(roles[twin]):
                    out[twin] = roles[twin] = record
                continue
            roles[len(out)] = record
        out.append(record)
    return out


def _same_role(k: Role, record: Role) -> bool:
    return (
        _WORD_CHARS.sub("", k.title.lower()) == _WORD_CHARS.sub("", record.title.lower())
        and (k.start == record.start or not k.start or not record.start)
        and (
            k.organization == record.organization
            or not k.organization
            or not record.organization
            or (k.start is None and record.start is None)
        )
    )


def _role_detail(role: Role) -> int:
    return sum(1 for value in (role.organization, role.start, role.end) if value)


def _read_section(section: Section) -> list[Record]:
    records: list[Record] = []
    for entry in section.entries:
        if not entry.lines:
            continue
        if section.kind == "paper":
            if len(entry.lines) == 1 and (is_noise(entry.lines[0]) or len(entry.lines[0].split()) < 3):
                continue
            if not entry.title and (
                (not entry.links and _is_prose(entry.text)) or _INSTRUCTION.search(entry.text)
            ):
                continue
            paper = parse_paper_entry(entry)
            if paper is not None:
                records.append(paper)
        elif section.kind == "role":
            records.extend(_roles_of(entry))
        else:
            for line in _entry_lines(entry):
                record = _read_line(section, line, entry)
                if record is not None:
                    records.append(record)
    return _drop_undated_roles(records) if section.kind == "role" else records


def _entry_lines(entry: Entry) -> Sequence[str]:
    """A bullet is one item (its lines joined); other entries are read line by line."""
    return (
        (entry.lines[0],)
        if entry.bullet and len(entry.lines) > 1 and len(entry.lines[0]) > 20
        else ((entry.text,) if entry.bullet else entry.lines)
    )


def _read_line(section: Section, line: str, entry: Entry) -> Record | None:
    links = [lk for lk in entry.links if not lk.text or lk.text in line]
    if section.kind == "news":
        news = parse_news_line(line, links)
        if news is None and entry.bullet and not is_noise(line) and len(line.split()) >= 4:
            return NewsItem(text=line, date=None, url=links[0].href if links else None)
        return news
    if section.kind == "award":
        return parse_award_line(line, links)
    if section.kind == "member":
        return parse_member_line(line, section.heading, links)
    return None


def _roles_of(entry: Entry) -> list[Record]:
    first = parse_role_line(entry.lines[0], entry.emphasis)
    if first is None and len(entry.lines) > 1 and len(entry.lines[0].split()) <= 8:
        first = parse_role_line(" ".join(entry.lines[:2]), entry.emphasis)
    if first is not None and not (first.start is None and _looks_like_citation(entry)):
        return [first]
    if _looks_like_citation(entry):
        paper = parse_paper_entry(entry)
        return [paper] if paper is not None else []
    return []


def _looks_like_citation(entry: Entry) -> bool:
    """A numbered or bulleted line naming a venue, a year or an arXiv/DOI link (papers inside a CV)."""
    text = entry.lines[0]
    if len(text.split()) < 4 or _is_prose(text):
        return False
    has_ref = any(find_arxiv(lk.href) or find_doi(lk.href) for lk in entry.links) or _VENUE_WORDS.search(text)
    return entry.bullet and (has_ref or (parse_year(text) is not None and bool(_SENTENCES.search(text))))


def _drop_undated_roles(records: list[Record]) -> list[Record]:
    """When a page dates its positions, an undated "role" line is a description, not a position."""
    roles = [r for r in records if isinstance(r, Role)]
    if sum(1 for r in roles if r.start or r.end) < 2:
        return records
    return [r for r in records if not isinstance(r, Role) or r.start or r.end]


_INSTRUCTION = _Guarded(
    re.compile(
        r"\b(?:full list|complete list|please (?:see|visit|refer)|click here|see (?:my|also) |can be found"
        r"|listed (?:on|at))",
        re.I,
    ),
    ("full list", "complete list", "please ", "click here", "see ", "can be found", "listed "),
)


# Reads as r"\b(?:I|we|my|our)\b"; the word-start test follows each first letter, so the engine can
# skip to those letters.
_FIRST_PERSON = re.compile(r"(?:I(?<!\wI)|w(?<!\ww)e|m(?<!\wm)y|o(?<!\wo)ur)\b")


def _is_prose(text: str) -> bool:
    return len(text.split()) > 30 and bool(_FIRST_PERSON.search(text))


# ------------------------------------------------------------------ whole documents


def records_from_markdown(text: str, plain: bool = False) -> list[Record]:
    """Everything the shared reading finds in a markdown (or, with ``plain``, plain-text) document."""
    from extractors.reading import read_markdown, read_plain_text

    return (read_plain_text(text) if plain else read_markdown(text)).records


def records_from_html(text: str) -> list[Record]:
    """Everything the shared reading finds in an HTML page: its metadata and its lists."""
    from extractors.reading import read_html

    parsed = LexborHTMLParser(text)
    return _merge(records_from_tree(parsed), read_html(parsed).records)


# ------------------------------------------------------------------ the extractor


class GenericExtractor(Extractor):
    """Any page, read by the shared reading: sections, repeated records, entries read by kind."""

    name = "generic"
    priority = 0

    def detect(self, doc: Document) -> str | None:
        return "fallback for any page"

    def parse(self, doc: Document) -> list[Record]:
        return self._read(doc)[0]

    def explain(self, doc: Document) -> list[ListReport]:
        return self._read(doc)[1]

    @staticmethod
    def _read(doc: Document) -> tuple[list[Record], list[ListReport]]:
        from extractors.reading import read_html, read_markdown, read_plain_text

        if doc.is_bundle:
            records: list[Record] = []
            lists: list[ListReport] = []
            for path, text in sorted(doc.files.items()):
                if path.endswith((".md", ".markdown", ".txt")):
                    reading = read_plain_text(text) if path.endswith(".txt") else read_markdown(text)
                    records.extend(reading.records)
                    lists.extend(report.located(path) for report in reading.lists)
            return records, lists
        if not doc.text.strip():
            return [], []
        if is_text_document(doc):
            plain = doc.content_type.lower().startswith("text/plain") and not doc.text.lstrip().startswith("---")
            reading = read_plain_text(doc.text) if plain else read_markdown(doc.text)
            return reading.records, reading.lists
        parsed = LexborHTMLParser(doc.text)
        reading = read_html(parsed)
        return _merge(records_from_tree(parsed), reading.records), reading.lists


def _merge(first: list[Record], second: list[Record]) -> list[Record]:
    keys = {r.key for r in first}
    return first + [r for r in second if r.key not in keys]


CASES = (
    Case(
        fixture="generic/plain_homepage.html",
        url="https://people.example.edu/~mrivera/",
        notes="hand-written personal page: header position, news with bracketed dates, table publications, awards",
    ),
    Case(
        fixture="generic/lab_group.html",
        url="https://vision-lab.example.edu/",
        notes="lab page: people by role heading (list rows and name cards), alumni with their next step, "
        "dated news and publication rows; footer and navigation are not items",
    ),
    Case(
        fixture="generic/cv_page.md",
        url="https://example.org/about.md",
        content_type="text/markdown",
        notes="markdown CV: setext and ATX headings, dated role lines, numbered papers, news, awards, students",
    ),
)
