"""Repeated records: sibling blocks of one shape are the entries of one list.

A publication list, a news list, a people grid and a table of awards look alike in one way:
the same element repeated under one parent (``li``, ``tr``, ``p``, ``div.card``, ``article``,
``dt``/``dd`` pairs). This pass finds those groups bottom-up and decides, for each repeated
element, whether it is one record or a container of records:

- a grid row whose cells are the cards is a container (the cards are the records);
- a group heading with its list ("PhD Students" + names, "2024" + papers) is a container;
- a paper whose title is followed by a short list of its parts (authors, venue) is one record.

Which kind of record a group holds is decided later (``classify``); this pass only says
where records are.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from extractors.reading.dates import leading_date, only_a_when, parse_date_text
from extractors.reading.names import is_person_name
from extractors.reading.tree import Box, Line
from extractors.reading.vocabulary import (
    heading_kind,
    is_funding_lead,
    is_intro_heading,
    is_unlisted_heading,
    is_year_heading,
)

__all__ = ["Group", "find_groups", "is_header_row", "is_heading_line", "signature"]

#: Elements that are list entries even when their list has only one.
_ITEM_TAGS = frozenset({"li", "tr", "dd", "dt-dd"})
#: Elements whose children are never one record each (their children are).
_WRAPPERS = frozenset({"ul", "ol", "table", "tbody", "thead", "tfoot", "dl", "menu"})
#: Table cells are fields of their row, never entries of their own (but for a grid of photo cards).
_CELLS = frozenset({"td", "th"})
#: Share of a block's text held by the records inside it above which it is a container.
CONTAINER_COVER = 0.6
#: Characters an element needs to be an entry.
_MIN_SIZE = 4
_DIGITS = re.compile(r"\d+")
_COLON_HEADING = re.compile(r"^[A-Z][\w&/'’ ,-]{1,50}:$")
_SENTENCE_END = re.compile(r"[.!?]$")
#: The most characters a photo card's caption holds (a name, a role, a year, an e-mail address).
_CAPTION_SIZE = 200
#: The most characters a cell holding only a date has ("September 28, 2025").
_DATE_CELL = 40


@dataclass(slots=True, eq=False)
class Group:
    """The records of one list: sibling boxes of one shape under ``parent``."""

    parent: Box
    signature: str
    members: list[Box] = field(default_factory=list)


def signature(box: Box) -> str:
    """A box's shape for grouping: its tag and first class word (digits dropped, so ``col-6`` and
    ``col-12`` are alike; ``odd``/``even`` striping does not split a list)."""
    if not box.hint or box.tag in ("li", "tr", "dd", "dt-dd", "p"):
        return box.tag
    first = box.hint.split(None, 1)[0]
    return f"{box.tag}.{_DIGITS.sub('', first)}"


def find_groups(top: Box) -> dict[int, Group]:
    """The record boxes of the page (by ``id``), each with its group."""
    _pair_definitions(top)
    _pair_dated_paragraphs(top)
    boxes = list(top.walk())
    repeated = _repeated_shapes(boxes)
    records: dict[int, Group] = {}
    covered: dict[int, int] = {}
    sections: dict[int, int] = {}
    held: dict[int, int] = {}  # how many records a box holds, at any depth
    for box in reversed(boxes):  # children before parents
        kids = [child for child in box.children if type(child) is Box]
        inner = sum(covered.get(id(child), 0) for child in kids)
        held[id(box)] = sum(held.get(id(child), 0) for child in kids)
        sections[id(box)] = _sections_in(box, sections)
        for group in _groups_of(box, covered, repeated, sections, held):
            for member in group.members:
                records[id(member)] = group
                inner += member.size - covered.get(id(member), 0)
            held[id(box)] += len(group.members)
        covered[id(box)] = inner
    return records


#: Boxes that are parts of a page as soon as one heading in them names a kind: a row that
#: heads a table's part, a ``<section>`` of a home page ("Latest News" beside "Highlights").
_PART_TAGS = frozenset({"tr", "section", "main", "aside"})


def _entries_of(box: Box) -> list[Box]:
    # A photo alone or a stray character is not an entry; a heading or its wrapper is a title.
    kids = box.children
    entries = []
    carded: set[str] | None = None
    for index, child in enumerate(kids):
        if type(child) is not Box or child.size < _MIN_SIZE or child.level:
            continue
        if _is_heading_wrapper(child):
            # A card that shows only its title is a card all the same beside cards of its shape that show more.
            if carded is None:
                carded = {signature(c) for c in kids if type(c) is Box and c.hint and not _is_heading_wrapper(c)}
            if not (child.hint and signature(child) in carded and _card_heading(child)):
                continue
        following = kids[index + 1] if index + 1 < len(kids) else None
        if not _is_bold_heading(child, following):
            entries.append(child)
    return entries


def _repeated_shapes(boxes: list[Box]) -> dict[tuple[str, str], int]:
    """(parent shape, child shape) pairs that repeat somewhere on the page, with the largest size of
    such a child: the last row of a grid may hold a single card, and it is a card all the same."""
    pairs: dict[tuple[str, str], int] = {}
    for box in boxes:
        sizes: dict[str, list[int]] = {}
        for child in _entries_of(box):
            sizes.setdefault(signature(child), []).append(child.size)
        for shape, found in sizes.items():
            if len(found) >= 2:
                key = (signature(box), shape)
                pairs[key] = max(pairs.get(key, 0), *found)
    return pairs


def _lone_card(box: Box, group: Group, repeated: dict[tuple[str, str], int]) -> bool:
    """A single child shaped like the repeated children of boxes shaped like its parent, and no
    larger than they are (a page's one content column is not a card)."""
    if group.signature == "p":
        return False  # a paragraph alone in its block is a part of what holds it (a post's text beside its date)
    largest = repeated.get((signature(box), group.signature))
    return largest is not None and group.members[0].size <= 2 * largest


@functools.lru_cache(maxsize=4096)
def _heads_a_part(text: str) -> bool:
    """A heading that names a part of the page: a kind of item ("Publications"; "Hollis Grant" heads a
    card, though a surname names an honour), an introduction, or things not reported ("Service")."""
    kind = heading_kind(text)
    if kind:
        return not is_person_name(text)
    return is_intro_heading(text) or is_unlisted_heading(text)


def _sections_in(box: Box, sections: dict[int, int]) -> int:
    """How many section headings a box holds: headings that name a kind of item ("Publications",
    "Students"); a card's heading (a person's name, a paper's title) is not one."""
    count = 0
    for child in box.children:
        if type(child) is not Box:
            continue
        if child.level:
            if _heads_a_part(child.text):
                count += 1
        else:
            count += sections.get(id(child), 0)
    return count


def _groups_of(
    box: Box,
    covered: dict[int, int],
    repeated: dict[tuple[str, str], int],
    sections: dict[int, int],
    held: dict[int, int],
) -> list[Group]:
    if box.tag == "dt-dd":
        return []  # a term and its descriptions (a role, then an office) are one entry
    by_shape: dict[str, Group] = {}
    entries = _entries_of(box)
    runs: dict[str, list[Box]] = {}
    for child in entries:
        runs.setdefault(signature(child), []).append(child)
    columns = _columns(runs.values())
    for child in entries:
        own = sections.get(id(child), 0)
        part = child.tag in _PART_TAGS or box.tag in ("body",) or id(child) in columns or _names_a_part(child)
        needed = 1 if part else 2
        titled = own == 1 and len(runs[signature(child)]) >= 2 and _headed_by_title(child)
        if own >= needed and not (titled and not _heading_over_records(child, covered, held)):
            # A block with sections of its own is a part of the page, not an entry; so is one that is
            # only a long heading over records ("Master's students & research assistants" over cards).
            continue
        by_shape.setdefault(signature(child), Group(box, signature(child))).members.append(child)
    groups = []
    for group in by_shape.values():
        if _parts_of_a_card(box, group, repeated) or _date_beside_text(group):
            continue
        if group.members[0].tag in _CELLS:
            if _cells_are_cards(box):
                groups.append(group)
            continue
        single_item = group.members[0].tag in _ITEM_TAGS and box.tag in _WRAPPERS | {"body", "div"}
        if len(group.members) < 2 and not single_item and not _lone_card(box, group, repeated):
            continue
        if group.members[0].tag in _WRAPPERS:
            continue
        records = [m for m in group.members if not _is_container(m, covered, held)]
        if len(records) * 2 < len(group.members):
            continue  # mostly containers: their records are the list entries
        # Mostly records: a sibling of the same shape with a short title over its one or two
        # parts is a record too ("Lecturer (2019-2024)" over its department), and so is one that
        # holds no more parts than its sibling records do (a post with a short teaser and its byline).
        kept = {id(m) for m in records}
        parts = max(2, *(held.get(id(m), 0) for m in records))
        records = [
            m for m in group.members
            if id(m) in kept or (_nested_entries(m) <= 2 and held.get(id(m), 0) <= parts and not _cells_are_cards(m))
        ]
        if group.members[0].tag == "tr":
            records = [r for r in records if not is_header_row(r)]
        group.members = records
        if records:
            groups.append(group)
    return groups


def _date_beside_text(group: Group) -> bool:
    """Columns of one row: a date or a span of dates alone, then what happened ("February 2026" | "Ana
    joins the lab", "2019–2026" | "Assistant Professor, X"), as a grid theme sets a news row or a CV's
    post. The row is the record, as a table's row is."""
    first, *rest = group.members
    return (
        bool(rest)
        and first.size <= _DATE_CELL
        and only_a_when(first.text)
        and all(parse_date_text(member.text) is None for member in rest)
    )


def _columns(runs: Iterable[list[Box]]) -> set[int]:
    """Sibling blocks of one shape that each open with a heading naming a different kind ("Latest
    News" beside "Honors"): columns of the page, though each holds one section only. Posts whose
    titles happen to name a kind do not all do so, nor each a different one."""
    found: set[int] = set()
    for run in runs:
        kinds = [heading_kind(heading.text) if (heading := _opening_heading(box)) else None for box in run]
        if len(run) >= 2 and all(kinds) and len(set(kinds)) == len(kinds):
            found.update(id(box) for box in run)
    return found


def _opening_heading(box: Box) -> Box | None:
    """The heading a block opens with, if it opens with one."""
    first = box.children[0] if box.children else None
    # Through a wrapper that holds only the heading ("<div class="panel-heading"><h3>…</h3></div>").
    while type(first) is Box and not first.level and len(first.children) == 1:
        first = first.children[0]
    return first if type(first) is Box and first.level else None


#: A title says more than a section's name does ("Publications", "PhD Students", "News 2024"): this many words.
_TITLE_WORDS = 4


def _is_a_title(text: str) -> bool:
    """A heading's text long enough to name a thing (a post, a paper), and no year a list is grouped by."""
    return len(text.split()) >= _TITLE_WORDS and not is_year_heading(text)


def _names_a_part(box: Box) -> bool:
    """A block that opens with a section's name ("About me", "Recent posts"): a part of the page (a
    sidebar's widget), not an entry titled by it."""
    heading = _opening_heading(box)
    return heading is not None and len(heading.text.split()) < _TITLE_WORDS and (
        heading_kind(heading.text) is not None or is_intro_heading(heading.text)
    )


def _headed_by_title(box: Box) -> bool:
    """A block that opens with its heading, one of a run of such blocks: a post titled "Three
    papers at ICASSP" among other posts is a post, though its title names a kind."""
    heading = _opening_heading(box)
    return heading is not None and _is_a_title(heading.text)


def _heading_over_records(box: Box, covered: dict[int, int], held: dict[int, int]) -> bool:
    """A block of two records or more whose own words are its heading's alone: a group of the page,
    where a post under its title says more than its title (a teaser beside a list)."""
    heading = _opening_heading(box)
    own = box.size - covered.get(id(box), 0)
    return heading is not None and held.get(id(box), 0) >= 2 and own <= heading.size + 10


def _cells_are_cards(row: Box) -> bool:
    """A table row laid out as a grid of person cards: two or more cells, each a photo with its
    caption (a name, a role), so each cell is a record, not a field of the row. The last row of
    such a grid may hold one card."""
    cards = _card_cells(row)
    if cards >= 2:
        return True
    if cards == 1 and row.parent is not None:
        rows = [r for r in row.parent.boxes() if r.tag == "tr"]
        index = next(i for i, r in enumerate(rows) if r is row)
        return index > 0 and _card_cells(rows[index - 1]) >= 2
    return False


def _card_cells(row: Box) -> int:
    """How many cells of a row are photo cards; 0 when a cell with words has no photo."""
    if row.tag != "tr":
        return 0
    cells = [cell for cell in row.boxes() if cell.tag in _CELLS and cell.size >= _MIN_SIZE]
    # A card's caption is a few lines; a cell with a paragraph beside a teaser image is not one.
    # Size first: a cell holding a whole nested table is walked for its photo only when small.
    return len(cells) if all(cell.size <= _CAPTION_SIZE and _has_photo(cell) for cell in cells) else 0


def _holds_text(box: Box) -> bool:
    return any(line.text.strip() for line in box.lines())


def _has_photo(box: Box) -> bool:
    return any(span.kind == "image" for line in box.lines() for span in line.spans)


#: A paragraph this long is an entry of its own, not a card's title or byline.
_WHOLE_ENTRY = 120


def _parts_of_a_card(box: Box, group: Group, repeated: dict[tuple[str, str], int]) -> bool:
    """The parts of one of a run of cards: blocks whose classes name different fields of it, or
    two or three paragraphs (a title over its citation, a name over a role). The card is the
    record; its parts are its lines. Dated paragraphs are news items of their own."""
    if not _in_a_run_of_cards(box, repeated):
        return False
    if _named_fields(group.members):
        return True  # a list item's title, authors, source and links set as paragraphs are its lines
    if group.signature != "p" or not 2 <= len(group.members) <= 3:
        return False
    if all(member.size >= _WHOLE_ENTRY for member in group.members):
        return False  # each a whole citation or story: a year's two papers, not a title over its line
    return not any(leading_date(line.text) for member in group.members for line in itertools.islice(member.lines(), 1))


def _in_a_run_of_cards(box: Box, repeated: dict[tuple[str, str], int]) -> bool:
    """Whether a box is one of a run of cards of one shape, or the only block with text inside one, a few
    wrappers deep (``<li class="card"><div class="content">…``): no deeper, or a deep page's
    chains of single blocks would each be walked from every link."""
    for _ in range(_CARD_WRAPPERS + 1):
        if box.parent is None:
            return False
        if (signature(box.parent), signature(box)) in repeated:
            return True
        # Beside the photo a card's content sits by (``<figure>`` then ``<div class="media-content">``).
        if sum(type(child) is Box and _holds_text(child) for child in box.parent.children) != 1:
            return False
        box = box.parent
    return False


#: How many single wrappers a card's parts may sit in.
_CARD_WRAPPERS = 5


def _named_fields(members: list[Box]) -> bool:
    """Siblings whose classes name different fields of one record ("views-field-title",
    "views-field-position"): the fields of a card, not entries of a list."""
    fields = [member.field for member in members if member.field]
    return len(fields) >= 2 and len(set(fields)) == len(fields)


def _is_container(box: Box, covered: dict[int, int], held: dict[int, int]) -> bool:
    inner = covered.get(id(box), 0)
    if inner < CONTAINER_COVER * box.size:
        return box.size > _LAYOUT_SIZE and _holds_headed_lines(box)
    # A record whose own words stand before a short list of its parts (a title, then authors and
    # venue as sub-items) is one record; a label before a list ("2024", "PhD Students") is a container,
    # and so is a block of a page that holds many records of its own (a section of citation cards).
    own = box.size - inner
    return own < 30 or _nested_entries(box) > 4 or held.get(id(box), 0) > 4


#: More text than one record holds: a cell of a layout table, a page's content column.
_LAYOUT_SIZE = 800
_LAYOUT_LINES = 12


def _holds_headed_lines(box: Box) -> bool:
    """Whether a block is a part of a page rather than one entry: many lines, some of them set
    as headings ("<b>What's New</b>" over dated lines, in a layout table's cell)."""
    lines = list(itertools.islice(box.lines(), 400))
    return len(lines) >= _LAYOUT_LINES and any(is_heading_line(line) for line in lines[1:])


def is_heading_line(line: Line) -> bool:
    """A short line standing as a heading: all of it bold, or a title ending in a colon."""
    text = line.text
    if len(text) > 60 or len(text.split()) > 8 or _SENTENCE_END.search(text):
        return False
    if is_funding_lead(text):
        return True  # "I am supported by", then the grants
    if line.in_bold() and not any(s.kind == "link" for s in line.spans):
        return True
    return bool(_COLON_HEADING.match(text)) and len(text.split()) <= 5


def _nested_entries(box: Box) -> int:
    return max((len(b.boxes()) for b in box.walk() if b.tag in ("ul", "ol", "tbody", "table")), default=0)


def _card_heading(box: Box) -> bool:
    """The heading a wrapper holds names a thing, not a part of the page ("Students", "2024")."""
    return _is_a_title(box.text) and not heading_kind(box.text)


def _is_heading_wrapper(box: Box) -> bool:
    """A block that holds nothing but a heading (``<div class="col"><h2>Students</h2></div>``)."""
    kids = box.children
    while len(kids) == 1 and type(kids[0]) is Box and not kids[0].level:
        kids = kids[0].children
    return len(kids) == 1 and type(kids[0]) is Box and kids[0].level > 0


def _is_bold_heading(box: Box, following: Box | Line | None) -> bool:
    """A paragraph that is one short bold line naming a group ("**PhD Students**", "**2024**")
    over the list that follows it: a heading written without a heading element. (A bold line
    inside a card, "**PhD Student**" under a name, heads nothing.)"""
    if box.tag not in ("p", "div") or len(box.children) != 1 or type(line := box.children[0]) is not Line:
        return False
    text = line.text.strip(" :")
    # A bilingual heading ("Prix et distinctions / Honours and Awards") is as long as its longer half.
    words = max(len(half.split()) for half in text.split(" / "))
    if type(following) is not Box or not text or words > 6 or any(s.kind == "link" for s in line.spans):
        return False
    kind = heading_kind(text)
    # Over a list; or over the paragraphs a site builder or a word processor makes of its entries,
    # set in capitals ("GRANTS, FELLOWSHIPS & HONORS") or naming a part of a CV ("Publications",
    # "Honours and Awards"). A bold post under a card's name ("PhD Student") heads no paragraphs.
    over_paragraphs = following.tag == "p" and (text.isupper() or kind not in (None, "member"))
    if not (following.tag in _WRAPPERS or over_paragraphs):
        return False
    return line.in_bold(text) and bool(kind or is_year_heading(text))


def is_header_row(row: Box) -> bool:
    """A table row of column names ("Year | Award | Recipient"): labels, not an entry. Hand-written
    tables often set them as the first row's bold cells ("<td><b>Name</b></td>")."""
    cells = row.boxes()
    if not cells:
        return False
    if all(cell.tag == "th" for cell in cells) or (row.parent is not None and row.parent.tag == "thead"):
        return True
    labels = [cell for cell in cells if cell.size]
    return len(labels) >= 2 and _first_row(row) and all(_bold_label(cell) for cell in labels)


def _first_row(row: Box) -> bool:
    return row.parent is not None and next((b for b in row.parent.boxes() if b.tag == "tr"), None) is row


#: Characters a column's name may hold ("Year of graduation"); a longer cell is no label, and is not walked.
_LABEL_SIZE = 80


def _bold_label(cell: Box) -> bool:
    if cell.size > _LABEL_SIZE:
        return False
    text = cell.text
    return len(text.split()) <= 4 and not any(ch.isdigit() for ch in text) and all(
        line.in_bold() for line in cell.lines() if line.text
    )


def _pair_dated_paragraphs(top: Box) -> None:
    """A run of paragraphs where a date stands alone over what happened ("March 2025" / "Alina defended
    her dissertation …"), as site builders set a news page: each date with the paragraphs after it is one
    entry, as a definition list's term with its descriptions."""
    for box in list(top.walk()):
        paragraphs = [c for c in box.children if type(c) is Box and c.tag == "p" and c.size >= _MIN_SIZE]
        if len(paragraphs) < 4:
            continue
        dated = [p for p in paragraphs if _date_alone(p)]
        if len(dated) < 2 or len(dated) * 2 > len(paragraphs) + 1:
            continue  # a date over each entry, not dates among dates
        box.children = _paired(box, lambda c: c.tag == "p" and _date_alone(c), lambda c: c.tag == "p")


def _date_alone(box: Box) -> bool:
    if box.size > 30:
        return False  # measured before the text is joined: most paragraphs are longer
    text = box.text.strip()
    return 0 < len(text) <= 30 and parse_date_text(text) is not None and not text.isdigit()


def _pair_definitions(top: Box) -> None:
    """Each ``dt`` with the ``dd`` elements after it becomes one ``dt-dd`` box: a definition list
    is a list of (term, description) entries ("2024" / news text, "Jane Doe" / "PhD student")."""
    for box in list(top.walk()):
        if box.tag != "dl" or not any(type(c) is Box and c.tag == "dt" for c in box.children):
            continue
        box.children = _paired(box, _opens_definition(_terms_over_entries(box)), lambda c: c.tag == "dd")


def _opens_definition(headings: set[int]) -> Callable[[Box], bool]:
    return lambda box: box.tag == "dt" and id(box) not in headings


#: A description this long is an entry of its own (a citation, a story), not a term's definition.
_ENTRY_SIZE = 60


def _terms_over_entries(dl: Box) -> set[int]:
    """The short terms over two or more long descriptions ("2025" over that year's papers): headings
    over entries, each description one of them, not one (term, description) entry each. One pass."""
    terms: set[int] = set()
    term: Box | None = None
    run: list[Box] = []
    for child in [*dl.children, None]:
        if type(child) is Box and child.tag == "dd":
            run.append(child)
            continue
        if term is not None and len(run) >= 2 and all(dd.size >= _ENTRY_SIZE for dd in run):
            terms.add(id(term))
        term = child if type(child) is Box and child.tag == "dt" and child.size <= 40 else None
        run = []
    return terms


def _paired(box: Box, opens: Callable[[Box], bool], continues: Callable[[Box], bool]) -> list[Box | Line]:
    """``box``'s children with each child that ``opens`` an entry joined to the children after it that
    ``continues`` it, in one ``dt-dd`` box (a term and its descriptions, a date and its story)."""
    paired: list[Box | Line] = []
    current: Box | None = None
    for child in box.children:
        if type(child) is Box and opens(child):
            current = Box("dt-dd", "", [child], size=child.size, parent=box)
            child.parent = current
            paired.append(current)
        elif type(child) is Box and current is not None and continues(child):
            current.children.append(child)
            child.parent = current
            current.size += child.size
        else:
            current = None
            paired.append(child)
    return paired
