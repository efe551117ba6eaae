"""Entries: one record's worth of page, in the form every field reader takes.

An entry is built from a record box (a list item, a table row, a card), from one loose line,
or from a small section whose heading is the record's title (``Section.is_card``). It keeps
the visual lines, the inline spans (links, bold, italic, images, class-named fields), the
texts of elements whose class names a field, a heading inside it, and for a table row its
cells and the column names of the table's header row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from extractors.reading.records import is_header_row
from extractors.reading.sections import Section
from extractors.reading.tree import Box, Line, Span

__all__ = ["Entry", "entry_of_box", "entry_of_card", "entry_of_lines", "is_cited", "is_menu_item", "table_columns"]

_EMPTY: Mapping[str, str] = MappingProxyType({})  # shared by entries without fields


@dataclass(frozen=True, slots=True)
class Entry:
    lines: tuple[str, ...]
    spans: tuple[Span, ...] = ()
    #: Texts of the elements (and spans) whose class names a field: the first of each.
    fields: Mapping[str, str] = field(default_factory=dict)
    #: A heading inside the record: a card's title (a person's name, a paper's title).
    heading: str = ""
    #: A table row's cell texts, and the header names of their columns when the table has them.
    cells: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    photo: bool = False
    #: An item of a numbered list (``<ol>``, "[3]", "12.").
    numbered: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.lines)

    def spans_of(self, kind: str) -> list[Span]:
        return [span for span in self.spans if span.kind == kind]

    @property
    def links(self) -> list[Span]:
        return self.spans_of("link")


def entry_of_box(box: Box, columns: Sequence[str] = ()) -> Entry:
    """The entry of a record box: a list item, a table row, a card."""
    lines: list[str] = []
    spans: list[Span] = []
    fields: dict[str, str] = {}
    heading = ""
    photo = False
    for inner in box.walk():
        if inner is not box and inner.field and inner.field not in fields:
            text = inner.text
            if text:
                fields[inner.field] = text
        if inner.level and not heading:
            heading = inner.text
    for _holder, line in box.items():
        if line.text:
            lines.append(line.text)
        for span in line.spans:
            spans.append(span)
            if span.kind == "image":
                photo = True
            elif span.kind not in ("link", "bold", "italic") and span.text:
                fields.setdefault(span.kind, span.text)
    cells: tuple[str, ...] = ()
    if box.tag in ("tr", "dt-dd"):
        cells = tuple(cell.text for cell in box.boxes())
    return Entry(
        lines=tuple(lines),
        spans=tuple(spans),
        fields=MappingProxyType(fields) if fields else _EMPTY,
        heading=heading,
        cells=cells,
        columns=tuple(columns) if cells else (),
        photo=photo,
        numbered=box.tag == "li" and box.parent is not None and box.parent.tag == "ol",
    )


def entry_of_lines(lines: Sequence[Line]) -> Entry:
    spans = tuple(span for line in lines for span in line.spans)
    return Entry(
        lines=tuple(line.text for line in lines if line.text),
        spans=spans,
        photo=any(span.kind == "image" for span in spans),
    )


def entry_of_card(section: Section) -> Entry:
    """A small section as one record: its heading is the record's title."""
    inner = [entry_of_box(item.box) if item.line is None else entry_of_lines([item.line]) for item in section.items]
    fields: dict[str, str] = {}
    for entry in inner:
        for name, text in entry.fields.items():
            fields.setdefault(name, text)
    spans = tuple(span for entry in inner for span in entry.spans)
    return Entry(
        lines=(section.heading, *(line for entry in inner for line in entry.lines)),
        spans=spans,
        fields=MappingProxyType(fields) if fields else _EMPTY,
        heading=section.heading,
        photo=any(entry.photo for entry in inner),
    )


def table_columns(row: Box) -> tuple[str, ...]:
    """The header names of a table row's columns: the table's ``th`` row, if it has one."""
    table = row.parent
    while table is not None and table.tag not in ("table",):
        table = table.parent
    if table is None:
        return ()
    for box in table.walk():
        if box.tag == "tr":
            if is_header_row(box):
                return tuple(cell.text.lower() for cell in box.boxes())
            if box is not row:
                return ()  # the first row is not a header row
    return ()


#: What a citation carries and a news item or a person's card does not: a DOI or an arXiv id.
_CITATION_MARKS = re.compile(r"\bdoi:\s*10\.|\b10\.\d{4,9}/|arxiv:\s*\d{4}\.\d", re.I)
#: Several names in one field: "A. Lima, B. Chen", "Lima and Chen", "Lima & Chen".
_SEVERAL = re.compile(r",|\band\b|&")


def is_menu_item(entry: Entry, text: str | None = None) -> bool:
    """An entry that is one short link and nothing else: a menu item ("Curriculum vitae", "Staff")."""
    text = entry.text if text is None else text
    links = entry.links
    return len(links) == 1 and links[0].text == text and len(text.split()) <= 5


def is_cited(entry: Entry) -> bool:
    """Whether an entry is a citation by its marks: an author list in its own field (a post's byline
    names one author), a DOI or an arXiv id."""
    authors = entry.fields.get("authors", "")
    return bool(authors and _SEVERAL.search(authors)) or _CITATION_MARKS.search(entry.text) is not None
