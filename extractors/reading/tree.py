"""The page as a tree of blocks and lines: what every later pass of the reading works on.

HTML, markdown (rendered to HTML first) and plain text all become the same shape: a
``Box`` per block element (``div``, ``li``, ``tr``, ``h2`` …) whose children are boxes and
``Line`` objects, one per visual line of inline text (a ``<br>`` or a block boundary ends a
line). Inline markup survives as ``Span`` objects on the line: links with their targets, bold
and italic text, images' alt text, and text whose class names a field ("title", "authors",
"venue", "date", "name", "role" …). Furniture (scripts, navigation, footers, hidden text) is
left out.

The walk is iterative, so a page nested a million levels deep cannot exhaust the stack, and it
stops adding text past ``MAX_TEXT`` characters: a page that large is read as far as that.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.reading.names import is_person_name
from extractors.reading.vocabulary import heading_kind
from watcher.budget import check_deadline
from watcher.text import clean_text

__all__ = [
    "ANCHOR_MARKS",
    "MAX_TEXT",
    "SIDEBAR",
    "Box",
    "Line",
    "Span",
    "field_of",
    "measure",
    "page_title",
    "tree_from_html",
    "tree_from_markdown",
    "tree_from_plain_text",
]

#: Characters of text read from one page; past this the rest of the page is not read.
MAX_TEXT = 2_000_000


@dataclass(slots=True)
class Span:
    """Inline markup on a line: ``kind`` is "link", "bold", "italic", "image" or a field name."""

    kind: str
    text: str
    href: str = ""


@dataclass(slots=True)
class Line:
    text: str
    spans: list[Span] = field(default_factory=list)

    def in_bold(self, text: str | None = None) -> bool:
        """Whether bold spans cover (nearly) all of the line, or of ``text``, the line trimmed."""
        return sum(len(span.text) for span in self.spans if span.kind == "bold") >= 0.9 * len(
            self.text if text is None else text
        )


@dataclass(slots=True, eq=False)
class Box:
    """A block element: its tag, its class and id words, and its children in page order."""

    tag: str
    hint: str = ""
    children: list[Box | Line] = field(default_factory=list)
    #: 1-6 for a heading element, else 0.
    level: int = 0
    #: The field its class names ("title", "authors" …), or "".
    field: str = ""
    #: Characters of text in the box and everything below it (set by ``measure``).
    size: int = 0
    parent: Box | None = None

    def walk(self) -> Iterator[Box]:
        """This box and every box below it, in page order."""
        stack: list[Box] = [self]
        while stack:
            box = stack.pop()
            yield box
            stack.extend(reversed([c for c in box.children if type(c) is Box]))

    def lines(self) -> Iterator[Line]:
        """Every line in the box, in page order."""
        for _box, line in self.items():
            yield line

    def items(self) -> Iterator[tuple[Box, Line]]:
        """Every line in the box with the box that holds it, in page order."""
        stack: list[tuple[Box, int]] = [(self, 0)]
        while stack:
            box, index = stack.pop()
            children = box.children
            while index < len(children):
                child = children[index]
                index += 1
                if type(child) is Line:
                    yield box, child
                else:
                    stack.append((box, index))
                    stack.append((child, 0))  # type: ignore[arg-type]
                    break

    def boxes(self) -> list[Box]:
        return [c for c in self.children if type(c) is Box]

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines() if line.text)


#: Longer than this, a heading element is a whole entry set in heading type, not a heading.
MAX_HEADING = 160


def measure(top: Box) -> Box:
    """Fill in every box's ``size`` (children before parents) and ``parent``; a heading element
    that holds a whole entry (a long citation, a list) is read as an ordinary block."""
    for box in reversed(list(top.walk())):
        total = 0
        for child in box.children:
            if type(child) is Line:
                total += len(child.text) + 1
            else:
                child.parent = box  # type: ignore[union-attr]
                total += child.size  # type: ignore[union-attr]
        box.size = total
        if box.level and (total > MAX_HEADING or _holds_an_entry(box)):
            box.level = 0
    return top


# ------------------------------------------------------------------ fields named by classes

#: Class or id words that name what an element holds, in the words templates use for it.
#: Field names as pages in other languages write them too: Spanish and Portuguese, French, German, Italian.
_FIELD_WORDS: tuple[tuple[str, str], ...] = (
    ("authors", r"authors?|byline|creators?|autor(?:es)?|auteurs?|autoren|autori"),
    ("venue", r"venue|journal|conference|booktitle|publisher|periodical|publication-?venue|pub-?venue|source"
     r"|revista|revue|zeitschrift|rivista"),
    ("date", r"date|time|datetime|pubdate|created|when|posted|published|year|day|fecha|datum"),
    ("name", r"name|fullname|person-?name|member-?name|people-?name|nombre|nome"),
    ("role", r"role|position|job|jobtitle|designation|occupation|status|subtitle"),
    # A member's degree is their role only where no post is stated beside it.
    ("degree", r"degree"),
    ("affiliation", r"affiliations?|institution|organi[sz]ation|org|company|employer|university"),
    ("title", r"\w*title|ttl|headline|heading|t[ií]tulo|titre|titel|titolo"),
    ("abstract", r"abstract|summary|tldr|teaser|excerpt|description|desc|bio|biography|details?"),
    ("links", r"links?|buttons?|btns?|badges?|actions?|tags?|icons?|social"),
)
_FIELD_TOKEN = re.compile(
    "|".join(f"(?P<{name}>^(?:{words})$)" for name, words in _FIELD_WORDS), re.I
)
_HINT_SPLIT = re.compile(r"[\s_\-:]+")
#: Class words of text a reader never sees (screen-reader labels, hidden toggles).
_HIDDEN = frozenset({"hidden", "d-none", "sr-only", "visually-hidden", "screen-reader-text", "hide",
                     "element-invisible", "visuallyhidden", "invisible", "elementor-screen-only"})
#: The endings of screen-reader-only classes that design systems prefix with their own names.
_SCREEN_READER = ("-visually-hidden", "-sr-only", "-screen-reader-text", "-visuallyhidden")
#: Page furniture written as ``div``s rather than ``nav``/``footer``: landmark roles, and the
#: names themes give their footers, menus, widget sidebars and tag chips.
_FURNITURE_ROLES = frozenset({"navigation", "contentinfo", "search", "dialog", "alertdialog"})
_FURNITURE = frozenset({
    "footer", "site-footer", "page-footer", "widget-area", "navbar", "breadcrumb", "breadcrumbs", "nav", "navigation",
    # WordPress page builders' header and footer templates.
    "elementor-location-footer", "elementor-location-header",
    "site-nav", "topnav", "sidenav", "menu", "menu-item", "menu-category", "layout-menu",
    # A post's category and tag chips: what the post is filed under, not what it says.
    "categories", "listing-categories", "tags", "post-tags", "tag-list",
    # A dialog a button opens ("Cite" with its Copy and Download buttons).
    "modal",
    # A wiki's "[edit]" link beside each heading.
    "mw-editsection", "editsection",
})


def field_of(hint: str) -> str:
    """The field a class/id attribute names ("pub-title" -> "title"; "" when none).

    The last word that names a field wins: "paper-authors" is authors, "author-title" a title.
    """
    found = ""
    if "--name-" in hint:
        hint = hint.replace("--name-", "")  # Drupal's "field--name-field-destination": the field is "destination"
    for token in _HINT_SPLIT.split(hint):
        if token and (m := _FIELD_TOKEN.match(token)):
            found = m.lastgroup or found
    return found


# ------------------------------------------------------------------ HTML

_SKIP = frozenset(
    {
        "script", "style", "template", "svg", "head", "title", "iframe", "object", "canvas",
        "video", "audio", "math", "select", "button", "nav", "footer", "-comment", "input", "textarea",
        "option", "map", "link", "meta",
    }
)
#: Jon Barron's widely copied template heads its sections with a made-up ``<heading>`` element.
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6, "heading": 2}
_SUMMARY_LEVEL = 4
_BLOCKS = frozenset(
    {
        "p", "div", "li", "tr", "td", "th", "ul", "ol", "dl", "dt", "dd", "table", "tbody", "thead", "tfoot",
        "section", "article", "blockquote", "pre", "main", "aside", "figure", "figcaption", "center", "address",
        "details", "summary", "caption", "header", "hgroup", "fieldset", "legend", "form", "body", "html", "hr",
        "footer",
        "menu", "dir", "listing", "papertitle-block",
    }
)
_BOLD = frozenset({"b", "strong"})
#: Inline elements a browser shows apart from a sibling element written right before them.
_SEPARATE_INLINE = frozenset({"a", "span", "button", "label"})
_RUNNING_TEXT = frozenset(
    {"p", "li", "td", "th", "dd", "dt", "span", "a", "b", "strong", "i", "em", "cite", "small", "sup", "font", "label",
     "h1", "h2", "h3", "h4", "h5", "h6"}
)
_LIST_TAGS = frozenset({"ul", "ol", "dl", "table"})
_PARAGRAPH_TAGS = frozenset({"p", "div"})
_ITALIC = frozenset({"i", "em", "cite", "var", "dfn"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|[6-9]00)", re.I)
_ITALIC_STYLE = re.compile(r"font-style\s*:\s*italic", re.I)
_EXIT = object()
#: A space after an inline element a browser draws as a box of its own (a badge).
_GAP = object()


#: Permalink marks generators put beside headings ("Publications #", "News ¶").
ANCHOR_MARKS = " #¶§🔗⚓"


def _holds_an_entry(heading: Box) -> bool:
    """A heading element wrapping a list, or paragraphs of more than one line: an entry set in
    heading type. Its text alone in a wrapper (a site builder's ``<h2><div><span>News``), or beside
    an anchor's block and its permalink mark, is a heading."""
    blocks = [c for c in heading.children if type(c) is Box]
    if any(b.tag in _LIST_TAGS for b in blocks):
        return True
    worded = sum(1 for line in heading.lines() if line.text.strip(ANCHOR_MARKS))
    return any(b.tag in _PARAGRAPH_TAGS for b in blocks) and worded > 1


def _styled(style: str) -> str:
    """The mark an inline style sets: "bold" (``font-weight: 700``), "italic", or ""."""
    if _BOLD_STYLE.search(style):
        return "bold"
    return "italic" if _ITALIC_STYLE.search(style) else ""


#: Utility classes that set bold or italics (Tailwind ``font-bold``, Bootstrap ``fw-semibold``, ``fst-italic``).
_BOLD_CLASSES = frozenset({"font-bold", "font-semibold", "font-extrabold", "font-black", "fw-bold", "fw-semibold",
                           "fw-bolder", "font-weight-bold", "bold", "strong", "text-bold"})
_ITALIC_CLASSES = frozenset({"italic", "fst-italic", "font-italic", "text-italic"})


def _class_style(cls: str | None) -> str:
    """The mark a utility class sets: "bold", "italic", or ""."""
    if not cls or ("bold" not in cls and "italic" not in cls and "strong" not in cls):
        return ""  # most classes set neither
    words = set(cls.lower().split())
    if words & _BOLD_CLASSES:
        return "bold"
    return "italic" if words & _ITALIC_CLASSES else ""


#: The most characters of a block marked bold by its class that read as one bold span (a card's title).
_STYLED_BLOCK = 200


#: Bullets typed into the text where a list would draw them (site builders, plain editors).
_TYPED_BULLETS = "•◦▪▫▸►●○■□➤➢"


class _Builder:
    """One walk over a lexbor tree, gathering inline text into lines of the open block."""

    __slots__ = ("frags", "read", "spans", "tab_labels")

    def __init__(self) -> None:
        self.frags: list[str] = []
        self.spans: list[Span] = []
        self.read = 0
        self.tab_labels: dict[str, str] = {}

    def flush(self, box: Box) -> None:
        text = clean_text("".join(self.frags)) if self.frags else ""
        if text and text[0] in _TYPED_BULLETS:
            text = text.lstrip(_TYPED_BULLETS + " ")  # "• 2023 – Explorer Grant": a bullet typed as text
        self.frags.clear()
        if text:
            self.read += len(text)
            box.children.append(Line(text, self.spans[:]))
        elif any(span.kind == "image" for span in self.spans):
            box.children.append(Line("", self.spans[:]))  # a photo alone on its line still tells
        self.spans.clear()

    def build(self, root: LexborNode) -> Box:
        top = Box("body")
        stack: list[object] = [(root, top, True)]
        steps = 0
        while stack:
            steps += 1
            if not steps % 4096:
                check_deadline()
            item = stack.pop()
            if item is _EXIT:
                box = stack.pop()
                self.flush(box)  # type: ignore[arg-type]
                continue
            if item is _GAP:
                self.frags.append(" ")
                continue
            node, box, is_root = item  # type: ignore[misc]
            if is_root:
                self._push_children(stack, node, box)
                continue
            self._visit(stack, node, box)
            if self.read > MAX_TEXT:
                break
        self.flush(top)
        return top

    @staticmethod
    def _push_children(stack: list[object], node: LexborNode, box: Box) -> None:
        kids = []
        child = node.child
        while child is not None:
            kids.append(child)
            child = child.next
        for kid in reversed(kids):
            stack.append((kid, box, False))

    def _visit(self, stack: list[object], node: LexborNode, box: Box) -> None:
        tag = node.tag
        if tag == "-text":
            text = node.text_content
            if text:
                self.frags.append(text)
            return
        if (
            tag in _SKIP
            and not (tag == "footer" and _in_article(node))
            and not (tag == "button" and _heads(node))
            and not (tag == "nav" and _lists_latest_posts(node.parent))
        ):
            return
        if tag == "details" and _folds_extras(node):
            return  # "<details><summary>Abstract</summary>…": folded away, part of the entry above
        if tag == "noscript":
            # Inside running text it holds what a script would write there ("Found. Comput.
            # Math. 26", a co-author's name); elsewhere, tracking pixels and "enable JavaScript".
            parent = node.parent
            if parent is not None and parent.tag in _RUNNING_TEXT:
                self._push_children(stack, node, box)
            return
        attrs = node.attributes if tag != "br" else {}
        if attrs and _is_hidden(attrs) and not (tag == "section" and _shown_by_its_menu(node, attrs)):
            widgets = node.css(_LATEST_POSTS_SELECTOR) if not _out_of_sight(attrs) else []
            if widgets:
                # A sidebar is furniture but for its list of the latest posts: dated news the site tells,
                # in a sidebar of its own, under none of the page's headings (a "Books" page's title).
                self.flush(box)
                sidebar = Box(SIDEBAR, "", [], 0, "")
                box.children.append(sidebar)
                stack.append(sidebar)
                stack.append(_EXIT)
                for widget in reversed(widgets):
                    stack.append((widget, sidebar, False))
            return
        if attrs and tag == "span" and _column_label(node, attrs):
            return
        if tag == "time" and (day := _full_date_for(node, attrs)):
            self.frags.append(f" {day} ")  # "08-30" under a "2024" heading: the element knows the year
            return
        if tag == "br":
            self.flush(box)
            return
        if tag == "img":
            alt = clean_text(attrs.get("alt") or "")
            self.spans.append(Span("image", alt, attrs.get("src") or ""))
            return
        # A fold's summary names what it holds ("<details><summary>Former members</summary><table>…").
        level = _HEADINGS.get(tag, 0) or (_SUMMARY_LEVEL if tag == "summary" else 0)
        if level or tag in _BLOCKS:
            self.flush(box)
            hint = _hint(attrs)
            child = Box(tag, hint, [], level, field_of(hint) if hint else "")
            if hint and (kind := _class_style(attrs.get("class"))):
                text = clean_text(node.text(deep=True, separator=" "))
                if 0 < len(text) <= _STYLED_BLOCK:
                    self.spans.append(Span(kind, text))  # ``<div class="font-bold">Title</div>``
            box.children.append(child)
            if self.tab_labels and (
                label := self.tab_labels.get(attrs.get("aria-labelledby") or "")
                or self.tab_labels.get(f"#{attrs.get('id') or ''}")
            ):
                child.children.append(Box("h2", "", [Line(label)], 2))  # the tab's label heads its panel
            stack.append(child)
            stack.append(_EXIT)
            self._push_children(stack, node, child)
            return
        if tag in _SEPARATE_INLINE and self.frags and not self.frags[-1][-1:].isspace():
            previous = node.prev
            if previous is not None and (previous.tag != "-text" or _is_badge(attrs)):
                # Minified pages write links and badges back to back ("<a>Home</a><a>People</a>",
                # "Title<span class="badge">Preprint</span>"); a browser shows them apart.
                self.frags.append(" ")
        self._inline(node, tag, attrs)
        if attrs and _is_badge(attrs):
            # "<span class="badge">Conference</span>Knitted sensors": drawn as its own box, apart
            # from the text after it; kept as a badge so a title can be read without it.
            self.spans.append(Span("badge", clean_text(node.text(deep=True, separator=" "))))
            stack.append(_GAP)
        self._push_children(stack, node, box)

    def _inline(self, node: LexborNode, tag: str, attrs: dict[str, str | None]) -> None:
        kind = ""
        href = ""
        if tag == "a":
            href = attrs.get("href") or ""
            if href.startswith(("javascript:", "#")):
                href = ""
            kind = "link"
        elif tag in _BOLD:
            kind = "bold"
        elif tag in _ITALIC:
            kind = "italic"
        elif tag == "span" and attrs:
            # Site builders set bold and italics as inline styles, utility frameworks as classes.
            kind = _styled(attrs.get("style") or "") or _class_style(attrs.get("class"))
        hint = _hint(attrs) if attrs else ""
        named = field_of(hint) if hint else ""
        if tag == "papertitle":
            named = "title"
        if not kind and not named:
            return
        # A sub- or superscript is part of its word ("R<sub>200</sub>" is "R200"), as in the line.
        children = list(node.iter())
        joined = any(child.tag in _SCRIPTS for child in children)
        separator = "" if joined else " "
        if any(child.attributes and _is_hidden(child.attributes) for child in children):
            # "PubMed<span class="sr-only"> record 123</span>": the span says what the reader sees.
            text = clean_text(separator.join(
                child.text(deep=True) for child in node.iter(include_text=True)
                if not (child.tag != "-text" and child.attributes and _is_hidden(child.attributes))
            ))
        else:
            text = clean_text(node.text(deep=True, separator=separator))
        if not text and not href:
            return  # an empty anchor (<a name="awards"></a>) marks a place; it links nowhere
        if kind:
            self.spans.append(Span(kind, text, href))
        if named:
            self.spans.append(Span(named, text))


_SCRIPTS = frozenset({"sub", "sup"})
_BADGE_WORDS = frozenset({"badge", "label", "pill", "chip", "tag"})


def _is_badge(attrs: dict[str, str | None]) -> bool:
    """A badge set beside text (Bootstrap's ``badge``, ``label``; a ``chip``): drawn as its own box."""
    cls = attrs.get("class") if attrs else None
    return bool(cls) and any(word in _BADGE_WORDS for word in cls.lower().split())  # type: ignore[union-attr]


_EXTRAS = re.compile(r"^(?:show |view )?(?:abstract|bibtex|bib|cite|citation|summary|more|details)\b", re.I)


def _folds_extras(details: LexborNode) -> bool:
    """Whether a ``details`` folds away a paper's abstract or BibTeX (its summary says so)."""
    summary = details.css_first("summary")
    return summary is not None and _EXTRAS.match(clean_text(summary.text())) is not None


def _heads(button: LexborNode) -> bool:
    """Whether a ``button`` is a section's heading, as accordions and collapsibles write them: inside a
    heading (``<h2><button>Awards</button></h2>``) or around one (``<button><h4>Earlier News</h4></button>``)."""
    parent = button.parent
    return (parent is not None and parent.tag in _HEADINGS) or button.css_first("h1, h2, h3, h4, h5, h6") is not None


def _in_article(node: LexborNode) -> bool:
    """Whether a ``footer`` closes a post (an ``article``: its date and byline), not the page."""
    parent = node.parent
    while parent is not None and parent.tag not in ("body", "html"):
        if parent.tag == "article":
            return True
        parent = parent.parent
    return False


#: A CSS-module hash after a class name: "tags_jXut", "Footer_links__3xY9a" (Docusaurus, Next.js).
_MODULE_HASH = re.compile(r"_{1,2}(?=[A-Za-z0-9-]{4,8}$)(?=[^_]*[A-Z0-9])[A-Za-z0-9-]{4,8}$")


def _class_words(cls: str) -> Iterator[str]:
    """The words of a class attribute, lower-cased, each without a CSS-module hash."""
    for word in cls.split():
        yield (_MODULE_HASH.sub("", word) if "_" in word else word).lower()  # most class words have no hash


def _hint(attrs: dict[str, str | None]) -> str:
    cls = attrs.get("class") or ""
    ident = attrs.get("id") or ""
    return f"{cls} {ident}".strip().lower() if ident else cls.lower()


def _column_label(node: LexborNode, attrs: dict[str, str | None]) -> bool:
    """A responsive table's column name repeated at the start of each cell for small screens
    (``<td><span class="…-responsive__heading">Name </span>Dr Ana Lima</td>``)."""
    parent = node.parent
    if parent is None or parent.tag != "td" or not attrs.get("class"):
        return False
    if not any(word.endswith(("heading", "label")) for word in _class_words(attrs.get("class") or "")):
        return False
    before = node.prev
    while before is not None and before.tag == "-text" and not (before.text_content or "").strip():
        before = before.prev
    return before is None and node.next is not None


#: A blog's "latest posts" widget, as WordPress and themes of other generators name it: its post
#: titles and dates are news, though it stands in a sidebar.
_LATEST_POSTS = ("widget_recent_entries", "wp-block-latest-posts", "recent-posts", "latest-posts", "recent-news",
                 "latest-news")
_LATEST_POSTS_SELECTOR = ", ".join(f".{name}" for name in _LATEST_POSTS)
#: The tag of the box that holds what is kept of a sidebar that is furniture (its latest posts).
SIDEBAR = "sidebar"


def _lists_latest_posts(node: LexborNode | None) -> bool:
    cls = node.attributes.get("class") if node is not None and node.attributes else None
    return bool(cls) and any(word in _LATEST_POSTS for word in _class_words(cls))  # type: ignore[arg-type]


def _is_hidden(attrs: dict[str, str | None]) -> bool:
    """Whether an element is not read: hidden from readers, or page furniture."""
    return _out_of_sight(attrs) or _is_furniture(attrs)


def _out_of_sight(attrs: dict[str, str | None]) -> bool:
    """Hidden from readers' eyes: ``aria-hidden``, ``hidden``, ``display:none``, a screen-reader class."""
    if attrs.get("aria-hidden") == "true" or ("hidden" in attrs and not _folded_panel(attrs)):
        return True
    cls = attrs.get("class")
    # A design system prefixes its screen-reader class: "nhsuk-u-visually-hidden", "usa-sr-only".
    if cls and any(w in _HIDDEN or w.endswith(_SCREEN_READER) for w in _class_words(cls)):
        return True
    style = attrs.get("style")
    return bool(style) and "display:none" in style.replace(" ", "").lower() and not _folded_panel(attrs)  # type: ignore[union-attr]


def _is_furniture(attrs: dict[str, str | None]) -> bool:
    """Page furniture: menus, footers, sidebars, a cookie banner, a post's author card."""
    element_id = (attrs.get("id") or "").lower()
    if (attrs.get("role") or "").lower() in _FURNITURE_ROLES or element_id in _FURNITURE:
        return True
    if "cookie" in element_id or "cookie" in (attrs.get("class") or "").lower():
        return True  # a cookie banner ("cookie-banner", "nhsuk-cookie-banner", "CookieConsent")
    if attrs.get("itemprop") == "author" and "itemscope" in attrs:
        return True  # a post's author card (schema.org Person): who wrote it, not a member list
    cls = attrs.get("class")
    # A site builder's "create your own website" banner, a newsletter's sign-up box.
    return bool(cls) and any(w in _FURNITURE or "signup" in _PART.split(w) for w in _class_words(cls))  # type: ignore[arg-type]


#: Where a class word parts its words: "weebly-footer-signup-container__text".
_PART = re.compile(r"[-_]+")
_ISO_DAY = re.compile(r"^(?:19|20)\d\d-[01]\d-[0-3]\d")
_YEAR_WRITTEN = re.compile(r"\b(?:19|20)\d\d\b|'\d\d\b")


def _full_date_for(node: LexborNode, attrs: dict[str, str | None]) -> str | None:
    """The day a ``<time>`` element's ``datetime`` holds, where its text leaves out the year ("08-30", "Aug 30")."""
    stamp = _ISO_DAY.match(attrs.get("datetime") or "")
    if stamp is None or _YEAR_WRITTEN.search(node.text(deep=True)):
        return None
    return stamp.group(0)


def _shown_by_its_menu(section: LexborNode, attrs: dict[str, str | None]) -> bool:
    """A page section a one-page builder hides until its menu shows it (``<section style="display:
    none">`` headed "Publications"): content, unlike a hidden block that heads nothing."""
    if "hidden" in attrs or attrs.get("aria-hidden") == "true":
        return False
    heading = section.css_first("h1, h2, h3")
    return heading is not None and heading_kind(clean_text(heading.text())) is not None


def _folded_panel(attrs: dict[str, str | None]) -> bool:
    """A panel a button opens (an accordion's or a tab's, labelled by its control): folded, not gone."""
    return bool(attrs.get("aria-labelledby")) or (attrs.get("role") or "").lower() in ("region", "tabpanel")


def page_title(parsed: LexborHTMLParser) -> str:
    """The document's ``<title>``, "" when it has none."""
    node = parsed.css_first("head > title") or parsed.css_first("title")
    return clean_text(node.text()) if node is not None else ""


def tree_from_html(html: str | LexborHTMLParser) -> Box:
    """The page tree of an HTML document (or of an already parsed one)."""
    parsed = LexborHTMLParser(html) if isinstance(html, str) else html
    root = parsed.body or parsed.root
    if root is None:
        return Box("body")
    builder = _Builder()
    if not isinstance(html, str) or _TAB_ROLE.search(html):
        builder.tab_labels = _tab_labels(parsed)  # a page with no tabs is not searched for them
    return measure(_name_subtitles(_class_headings(_nest_sublists(builder.build(root)))))


_TAB_ROLE = re.compile(r"role\s*=\s*[\"']?tab\b")


def _tab_labels(parsed: LexborHTMLParser) -> dict[str, str]:
    """The label of each tab ("Current Members", "Talks") by its id, and by "#" and the id of the panel
    it shows (``aria-controls``, ``data-target``, ``href="#talks"``): a tab panel is headed by it."""
    labels = {}
    for tab in parsed.css('[role="tab"]'):
        text = clean_text(tab.text(deep=True, separator=" "))
        if not text or len(text) > MAX_HEADING:
            continue
        if ident := tab.attributes.get("id"):
            labels[ident] = text
        for name in _TAB_TARGETS:
            if target := (tab.attributes.get(name) or "").lstrip("#"):
                labels[f"#{target}"] = text
    return labels


#: The attributes in which a tab names the panel it shows.
_TAB_TARGETS = ("aria-controls", "data-target", "data-bs-target", "data-tab", "href")


#: Class words of a block that heads a box of the page: Bootstrap's card and panel headers,
#: WordPress widget titles, themes' section titles.
_HEADER_CLASS = re.compile(r"\b(?:card|panel|widget|section|block|box|sidebar)[-_]?(?:header|heading|title)\b")


def _class_headings(top: Box) -> Box:
    """A block whose class says it heads a box ("card-header", "widget-title") and that holds one
    short line ("Honors & Awards", "Contact") is a heading, as an ``h5`` would be: its box's lines
    stand under it, and the next box's under its own."""
    for box in top.walk():
        if box.level or not box.hint or not _HEADER_CLASS.search(box.hint) or len(box.children) != 1:
            continue
        line = box.children[0]
        if type(line) is Line and line.text and len(line.text) <= 60 and len(line.text.split()) <= 8:
            box.level = 5
    return top


#: The most text a person's card holds (name, role, a short biography, links).
_CARD_TEXT = 1500


def _name_subtitles(top: Box) -> Box:
    """A smaller heading right under a heading that is a person's name ("<h4>Daniela Okafor</h4>
    <h6>Professor, Mechanical Engineering</h6>") is the person's role, a line of their card, not a
    section of its own."""
    for box in top.walk():
        previous: Box | None = None
        small: bool | None = None  # whether the box is card-sized, measured once when first needed
        for child in box.children:
            if type(child) is not Box:
                previous = None
                continue
            if (
                previous is not None
                and previous.level
                and child.level > previous.level
                and len(child.text.split()) <= 12
                and is_person_name(previous.text)
                and not heading_kind(child.text)
            ):
                if small is None:
                    small = len(box.text) <= _CARD_TEXT  # a card, not a home page under its owner's name
                if small:
                    child.level = 0
            previous = child
    return top


def _nest_sublists(top: Box) -> Box:
    """A list written straight inside a list after an item (``<ul><li>Title</li><ul><li>Org</li>
    </ul></ul>``, common in hand-written pages) is that item's sub-list, as browsers indent it."""
    for box in top.walk():
        if box.tag not in ("ul", "ol"):
            continue
        kept: list[Box | Line] = []
        for child in box.children:
            last = kept[-1] if kept else None
            if type(child) is Box and child.tag in ("ul", "ol") and type(last) is Box and last.tag == "li":
                last.children.append(child)
            else:
                kept.append(child)
        box.children = kept
    return top


# ------------------------------------------------------------------ markdown and plain text

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n.*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_LIQUID = re.compile(r"{%-?[^%]*-?%}|{{-?[^}]*-?}}")
_KRAMDOWN_ATTRIBUTES = re.compile(r"{:[^}\n]*}")


def strip_front_matter(text: str) -> str:
    match = _FRONT_MATTER.match(text)
    return text[match.end() :] if match else text


def tree_from_markdown(text: str) -> Box:
    """The page tree of a markdown document: rendered to HTML (inline HTML kept), then read as HTML.

    Front matter, Liquid tags and kramdown attribute lists are template code, not text.
    """
    body = strip_front_matter(text)
    if "{" in body:
        body = _KRAMDOWN_ATTRIBUTES.sub("", _LIQUID.sub("", body))
    return tree_from_html(f"<body>{_markdown().render(body)}</body>")


@functools.cache
def _markdown() -> Any:
    """The markdown renderer, built once (building it costs more than rendering a page)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table")


_PLAIN_HEADING = re.compile(r"^[A-Z][\w&/'’ -]{1,60}:?$")
_BULLET = re.compile(r"^(\s*)([*+\-•·▪◦‣]|\d{1,3}[.)]|\[\d{1,3}\])\s+(.*)$")
_BARE_URL = re.compile(r"https?://[^\s<>()\[\]]+[^\s<>()\[\].,;:!?'\"]")
_TEXT_LINK = re.compile(r"\[([^\[\]]{1,200})\]\(\s*<?([^)\s>]*)>?\s*\)")
_ENDS_SENTENCE = re.compile(r"[.!?:]\s*$")


def tree_from_plain_text(text: str) -> Box:
    """The page tree of plain text.

    Blank-line separated paragraphs whose lines are each a line; a short title-like line standing
    alone is a heading; bulleted or numbered lines are list items, continued by indented lines, by
    a line that finishes a sentence the item broke off (hard wrapping), and by a bare URL.
    """
    return measure(_PlainText().read(text))


class _PlainText:
    """The state of reading plain text line by line."""

    def __init__(self) -> None:
        self.top = Box("body")
        self.block: Box | None = None  # the open paragraph or list
        self.item: Box | None = None  # the open list item
        self.item_indent = 0

    def read(self, text: str) -> Box:
        lines = text.replace("\r\n", "\n").replace("\t", "    ").split("\n")
        blank_before = True
        first = True
        for index, raw in enumerate(lines):
            stripped = raw.strip()
            if not stripped:
                blank_before = True
                continue
            after = lines[index + 1].strip() if index + 1 < len(lines) else ""
            # A heading stands alone, or opens the document ("About", then the text).
            if (first or (blank_before and not after)) and _is_plain_heading(stripped):
                self.close()
                self.top.children.append(Box("h3", "", [_line(stripped.rstrip(":"))], 3))
                blank_before = first = False
                continue
            elif bullet := _BULLET.match(raw):
                self.open_item(bullet.group(3), len(bullet.group(1)), numbered=bullet.group(2)[-1] in ".)]")
            elif self.item is not None and self.continues_item(raw, stripped, blank_before):
                self.extend(self.item, stripped)
            else:
                self.add_line(stripped, new_paragraph=blank_before)
            blank_before = first = False
        return self.top

    def close(self) -> None:
        self.block = self.item = None

    def open_item(self, text: str, indent: int, numbered: bool) -> None:
        tag = "ol" if numbered else "ul"
        if self.block is None or self.block.tag != tag:
            self.block = Box(tag)
            self.top.children.append(self.block)
        if self.item is not None and indent > self.item_indent:
            self.item.children.append(_line(text))  # a nested item stays with its parent
            return
        self.item = Box("li", "", [_line(text)])
        self.item_indent = indent
        self.block.children.append(self.item)

    def continues_item(self, raw: str, stripped: str, blank_before: bool) -> bool:
        indent = len(raw) - len(raw.lstrip(" "))
        if indent > self.item_indent:
            return True
        if blank_before:
            return False
        last = self.item.children[-1] if self.item is not None and self.item.children else None
        broken_off = isinstance(last, Line) and not _ENDS_SENTENCE.search(last.text)
        return broken_off or bool(_BARE_URL.fullmatch(stripped))

    def extend(self, box: Box, text: str) -> None:
        last = box.children[-1]
        if isinstance(last, Line):
            addition = _line(text)
            last.text = f"{last.text} {addition.text}".strip()
            last.spans.extend(addition.spans)
        else:
            box.children.append(_line(text))

    def add_line(self, text: str, *, new_paragraph: bool) -> None:
        self.item = None
        if self.block is None or self.block.tag != "p" or new_paragraph:
            self.block = Box("p")
            self.top.children.append(self.block)
        if _BARE_URL.fullmatch(text) and self.block.children:
            self.extend(self.block, text)  # a link on its own line belongs to the line above
        else:
            self.block.children.append(_line(text))


def _line(text: str) -> Line:
    """A plain-text line with its links: markdown-style ``[label](url)`` and bare URLs."""
    spans: list[Span] = []
    if "](" in text:
        text = _TEXT_LINK.sub(lambda m: spans.append(Span("link", m.group(1), m.group(2))) or m.group(1), text)
    if "http" in text:
        spans.extend(Span("link", "", m.group(0)) for m in _BARE_URL.finditer(text))
    return Line(clean_text(text), spans)


def _is_plain_heading(line: str) -> bool:
    return bool(_PLAIN_HEADING.match(line)) and len(line.split()) <= 5 and not any(ch.isdigit() for ch in line)
