"""Sections: the page cut by its headings, with its records and loose lines placed in them.

Headings are ``h1``-``h6`` outside records, and lines that stand as headings: a short line
that is all bold ("**Awards**"), or a short title line ending in a colon ("Selected papers:").
A heading's section holds what follows it until a heading of the same or a higher level, or
until the sectioning element (``section``, ``article``, ``aside``, ``main``) it sits in ends.
Class and id words of the elements around a record that name a kind ("publications",
"news") are kept as landmarks, for pages whose lists carry no heading.

Small sections in a row whose headings are record titles (a person's name over their role, a
paper's title over its authors) are records themselves: ``Section.is_card``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from extractors.reading.names import is_name_with_degrees, is_person_name
from extractors.reading.records import Group, is_header_row, is_heading_line
from extractors.reading.tree import ANCHOR_MARKS, SIDEBAR, Box, Line
from extractors.reading.vocabulary import (
    heading_kind,
    hint_kind,
    is_intro_heading,
    is_unlisted_heading,
    is_year_heading,
)

__all__ = ["Placed", "Section", "announced_kind", "segment"]

#: Elements that end the scope of the headings inside them.
_SECTIONING = frozenset({"section", "article", "aside", SIDEBAR, "main", "body", "header"})
_PSEUDO_LEVEL = 6.5
#: The level of the page's title, above its ``h1``.
_PAGE_LEVEL = 0.5


@dataclass(slots=True, eq=False)
class Placed:
    """One thing in a section: a record box of a group, or a loose line in the box that holds it."""

    box: Box
    group: Group | None = None
    line: Line | None = None
    #: Kinds named by the class/id words of the elements around it, innermost first.
    landmarks: tuple[str, ...] = ()


@dataclass(slots=True, eq=False)
class Section:
    heading: str
    level: float
    parent: Section | None = None
    items: list[Placed] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    #: The heading's own box (to tell where it stands), None for the page top and pseudo-headings.
    heading_box: Box | None = None
    #: The section the page's title heads: all the page but its sidebars.
    page: bool = False
    #: What the tree keeps of a sidebar that is furniture: no part of the page's introduction.
    sidebar: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        names: list[str] = []
        section: Section | None = self
        while section is not None:
            if section.heading:
                names.append(section.heading)
            section = section.parent
        return tuple(reversed(names))

    def walk(self) -> Iterator[Section]:
        stack: list[Section] = [self]
        while stack:
            section = stack.pop()
            yield section
            stack.extend(reversed(section.children))

    @property
    def size(self) -> int:
        """Characters of text in the section, its subsections included."""
        total = 0
        for section in self.walk():
            for item in section.items:
                total += len(item.line.text) if item.line is not None else item.box.size
        return total

    def is_card(self) -> bool:
        """Whether this section is one record: a title-like heading over a small body."""
        if self.children or not self.heading or is_year_heading(self.heading):
            return False
        if announced_kind(self.heading) and not self._named_like_its_siblings():
            # "PhD Students" names a group; "Hollis Grant" a person among cards headed by other people's names.
            return False
        if is_unlisted_heading(self.heading) or is_intro_heading(self.heading):
            return False  # "Teaching", "References", "About me": a part of the page, not one record
        if len(self.heading.split()) < 2:
            return False  # "Active", "Completed", "Selected": a group's label; a title or a name is longer
        records = [item for item in self.items if item.group is not None]
        if len({id(item.group) for item in records}) > 1:
            return False
        if len(records) >= 3 and all(_opens_with_a_name(item.box.text) for item in records):
            return False  # "Mountain Water Lab" over "Ana Lima, PhD student (2024–)", …: a list of people
        # A person's section holds their biography, which runs longer than a card's few lines.
        return self.size <= (_BIO_CARD_SIZE if is_person_name(self.heading) else _CARD_SIZE)

    def _named_like_its_siblings(self) -> bool:
        """A person's name among two or more sibling sections headed by people's names alone."""
        if self.parent is None or not is_person_name(self.heading):
            return False
        named = sum(
            1
            for other in self.parent.children
            if other is not self and other.heading and is_person_name(other.heading) and not heading_kind(other.heading)
        )
        return named >= 2


def announced_kind(heading: str) -> str | None:
    """The kind of item a section's heading announces; a person's name with their degrees
    ("Philippa Rowntree, PhD", "Jane Doe, Ph.D.") heads a person or their page, not a list of PhDs."""
    kind = heading_kind(heading)
    return None if kind is None or is_name_with_degrees(heading) else kind


_CARD_SIZE = 600
_BIO_CARD_SIZE = 3000
_NAME_END = re.compile(r"\s*(?:[,(;|]|\s[-–—]\s)")


def _opens_with_a_name(text: str) -> bool:
    """Whether an entry starts with a person's name ("Ana Lima, PhD student (2024–)")."""
    return is_person_name(_NAME_END.split(text, maxsplit=1)[0])


def segment(top: Box, records: dict[int, Group], page_heading: str = "") -> Section:
    """The page's section tree: records and loose lines placed under their headings.
    ``page_heading`` heads the whole page (the part of its title that names a kind of item)."""
    root = Section("", 0)
    current = root
    if page_heading:
        current = Section(page_heading, _PAGE_LEVEL, root, page=True)
        root.children.append(current)
    landmarks: list[str] = []
    # Work items: a box to visit, a line to place, or a marker that closes a box's scope.
    stack: list[tuple[str, object, object]] = [("box", top, None)]
    while stack:
        what, thing, extra = stack.pop()
        if what == "close":
            if thing is not None:
                current = thing  # type: ignore[assignment]
            del landmarks[extra:]  # type: ignore[misc]
            continue
        if what == "line":
            line, holder = thing, extra
            current = _place_line(current, line, holder, landmarks)  # type: ignore[arg-type]
            continue
        box: Box = thing  # type: ignore[assignment]
        group = records.get(id(box))
        if group is not None:
            current.items.append(Placed(box, group, landmarks=tuple(reversed(landmarks))))
            continue
        if box.tag == "tr" and is_header_row(box):
            continue  # column names: a table's caption may come from them (below), never an item
        if box.level:
            text = box.text.strip(ANCHOR_MARKS)
            if text:
                current = _open(current, text, box.level, box)
            continue
        caption = _table_caption(box) if box.tag == "table" else ""
        sectioning = (box.tag in _SECTIONING and not _heads_its_section(box)) or bool(caption)
        kind = hint_kind(box.hint) if box.hint else None
        if sectioning or kind:
            # When the box ends, its headings' scope ends (sectioning elements) and its landmark.
            stack.append(("close", current if sectioning else None, len(landmarks)))
            if kind:
                landmarks.append(kind)
        if caption:
            current = _open(current, caption, _PSEUDO_LEVEL, None)
        if box.tag in ("aside", SIDEBAR):
            # A sidebar stands beside the page's sections, under none of their headings nor its title;
            # the widgets kept of a sidebar that is furniture are no part of the page's introduction.
            current = Section("", _PAGE_LEVEL, root, sidebar=box.tag == SIDEBAR)
            root.children.append(current)
        for child in reversed(box.children):
            if type(child) is Box:
                stack.append(("box", child, None))
            else:
                stack.append(("line", child, box))
    return root


def _heads_its_section(box: Box) -> bool:
    """A ``<header>`` inside a ``<section>`` or ``<article>`` introduces that section: its heading
    ("Experience") heads the section's entries after it, not only the header itself, also where a
    wrapper it opens stands between them (``<section><div class="container"><header>``). A page's own
    header (its owner's name over a tagline) still heads nothing beyond it."""
    if box.tag != "header":
        return False
    node = box
    while node.parent is not None and node.parent.tag == "div" and node.parent.children[:1] == [node]:
        node = node.parent  # a wrapper the header opens
    return node.parent is not None and node.parent.tag in ("section", "article")


def _table_caption(table: Box) -> str:
    """What a table says it lists: its ``caption``, or the first cell of its header row when that
    names a kind of item ("Graduate Students | Years in group | Topic")."""
    for box in table.walk():
        if box.tag == "caption" and box.text:
            return box.text
        if box.tag == "tr":
            if is_header_row(box) and heading_kind((first := box.boxes()[0]).text):
                return first.text
            return ""
    return ""


def _open(current: Section, heading: str, level: float, box: Box | None) -> Section:
    parent = current
    while parent.parent is not None and parent.level >= level:
        parent = parent.parent
    section = Section(heading, level, parent, heading_box=box)
    parent.children.append(section)
    return section


def _place_line(current: Section, line: Line, holder: Box, landmarks: list[str]) -> Section:
    if line.text and is_heading_line(line):
        return _open(current, line.text.rstrip(":").strip(), _PSEUDO_LEVEL, None)
    current.items.append(Placed(holder, None, line, tuple(reversed(landmarks))))
    return current
