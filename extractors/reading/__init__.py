"""The shared reading of a page, in small passes every extractor can call.

::

    tree (blocks and lines) -> records (repeated siblings) -> sections (headings, landmarks)
        -> lists (entries of one group in one section) -> classify (heading words + entry shape)
        -> field readers (papers, people, news, awards, roles) -> records

``read_html``, ``read_markdown`` and ``read_plain_text`` run them all and return a ``Reading``:
the records, and a report of every list found (where, what it was read as, why, how many
records) for ``watcher extract --explain``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from selectolax.lexbor import LexborHTMLParser

from extractors.reading.awards import awards_in_prose
from extractors.reading.classify import READERS, Decision, read_list
from extractors.reading.context import Context, is_noise
from extractors.reading.dates import parse_date_text
from extractors.reading.entries import Entry, entry_of_box, entry_of_card, entry_of_lines, is_menu_item, table_columns
from extractors.reading.names import is_person_name
from extractors.reading.owner import read_bio_roles, read_header_roles, read_tagline_roles, without_advisers
from extractors.reading.records import Group, find_groups
from extractors.reading.roles import ORG_WORDS, dedupe_roles
from extractors.reading.sections import Placed, Section, announced_kind, segment
from extractors.reading.tree import (
    Box,
    Line,
    page_title,
    tree_from_html,
    tree_from_markdown,
    tree_from_plain_text,
)
from extractors.reading.vocabulary import (
    ALUMNI_WORDS,
    heading_kind,
    is_funding_lead,
    is_intro_heading,
    is_loose_news_heading,
    is_unlisted_heading,
    is_year_heading,
)
from watcher.records import NewsItem, Paper, Record, Role

__all__ = ["ListReport", "Reading", "read_html", "read_markdown", "read_plain_text", "read_tree"]


@dataclass(frozen=True, slots=True)
class ListReport:
    """One list of the page: where it stands, what it is made of, what it was read as and why."""

    where: str
    made_of: str
    entries: int
    kind: str | None
    why: str
    records: int

    def located(self, prefix: str) -> ListReport:
        """The same report for a page inside a bundle (``prefix``: its path)."""
        return replace(self, where=f"{prefix}: {self.where}")


@dataclass(slots=True)
class Reading:
    records: list[Record] = field(default_factory=list)
    lists: list[ListReport] = field(default_factory=list)


def read_html(html: str | LexborHTMLParser) -> Reading:
    parsed = LexborHTMLParser(html) if isinstance(html, str) else html
    return read_tree(tree_from_html(parsed), page_title(parsed))


def read_markdown(text: str) -> Reading:
    return read_tree(tree_from_markdown(text))


def read_plain_text(text: str) -> Reading:
    return read_tree(tree_from_plain_text(text))


def read_tree(top: Box, title: str = "") -> Reading:
    """Every pass over a page tree; ``title`` is the document's title, which may name what the
    whole page lists ("Publications | Jane Doe")."""
    groups = find_groups(top)
    root = segment(top, groups, _title_kind_part(title))
    reading = Reading()
    intro: list[str] = []
    seen_kind = False
    sections = list(root.walk())
    news_lists: list[_NewsList] = []
    # Every list is read first: whether a lone line is a stray needs its whole section's lists.
    read = {id(section): _read_lists(section) for section in sections}
    solid = _solid_counts(sections, read)
    for section in sections:
        kind = _announced(section)
        if kind is not None:
            seen_kind = True
        # A section of things not reported ("Teaching", "Talks") tells no post of the owner's either.
        in_intro = (
            kind is None
            and (not seen_kind or is_intro_heading(section.heading))
            and not _under_unlisted(section)
            and not _in_sidebar(section)
        )
        if in_intro and section.heading and not section.page:
            intro.append(section.heading)
        for made_of, entries, decision in read[id(section)]:
            if _stray(decision, solid[id(section)]):
                decision = Decision(None, f"stray lines beside a list of {decision.kind}", ())
            if decision.kind == "news":
                decision = _one_language(decision, news_lists, kind is not None, reading)
            reading.records.extend(decision.records)
            if in_intro and decision.kind is None:
                # A menu's items ("Staff", "Publications") are where the site goes, not its owner's post.
                intro.extend(line for entry in entries if not _a_menu_link(entry) for line in entry.lines)
            reading.lists.append(
                ListReport(
                    where=" > ".join(section.path) or "(top of the page)",
                    made_of=made_of,
                    entries=len(entries),
                    kind=decision.kind,
                    why=decision.why,
                    records=len(decision.records),
                )
            )
    lines = [without_advisers(line) for line in intro if not is_noise(line)]
    owner = read_header_roles(lines[:12]) + read_tagline_roles(lines)
    bio = [role for line in intro for role in read_bio_roles(line)]
    reading.records.extend(award for line in intro for award in awards_in_prose(line))
    owner += [role for role in bio if role.organization]
    if not owner and not any(isinstance(r, Role) for r in reading.records):
        # "I'm a PhD student interested in …" names no place: it is the owner's role only
        # where nothing else on the page states one.
        owner += bio
    reading.records[:0] = owner
    reading.records = dedupe_roles(reading.records)
    return reading


_Read = tuple[str, list[Entry], Decision]


def _read_lists(section: Section) -> list[_Read]:
    """Each list of a section read as one kind, or a line each where its blocks read better so."""
    decisions: list[_Read] = []
    for made_of, entries, context, blocks in _lists(section):
        decision = read_list(entries, context)
        if blocks:
            split = _split_blocks(entries, blocks, decision.kind, context)
            if split is not None:
                split_decision = read_list(split, context)
                if len(split_decision.records) > len(decision.records):
                    decision, entries, made_of = split_decision, split, f"{made_of}, some a line each"
        decisions.append((made_of, entries, decision))
    return decisions


def _is_solid(record: Record) -> bool:
    """A record with the marks of its kind: a dated news item; a paper with authors, year, DOI or arXiv id
    (a place after a comma reads as a venue: "Centre for X, University of Y"). A lone line without them
    beside a list of such records is the list's subtitle, a link or the site's name."""
    if isinstance(record, NewsItem):
        return record.date is not None
    if isinstance(record, Paper):
        return bool(record.authors or record.year or record.doi or record.arxiv)
    return True


def _stray(decision: Decision, solid: Counter[str]) -> bool:
    """One or two weak records of a kind in a section that holds a list of solid ones."""
    return (
        decision.kind is not None
        and len(decision.records) <= 2
        and solid[decision.kind] >= 2
        and not any(_is_solid(record) for record in decision.records)
    )


def _solid_counts(sections: list[Section], read: dict[int, list[_Read]]) -> dict[int, Counter[str]]:
    """Per section, the solid records of each kind in it and in its subsections."""
    counts: dict[int, Counter[str]] = {}
    for section in reversed(sections):  # subsections first
        count = Counter(r.kind for _, _, d in read[id(section)] for r in d.records if _is_solid(r))
        for child in section.children:
            count.update(counts[id(child)])
        counts[id(section)] = count
    return counts


#: Share of lines that must read as items for a block of lines to be read a line each.
_LINE_SHARE = 0.8
#: The score a line needs to count as an item of its own.
_LINE_BAR = 0.6
_TITLE_PARTS = re.compile(r"\s+[|–—·:-]\s+|\s*[|·]\s*")


def _title_kind_part(title: str) -> str:
    """The part of a page title that names a kind of item ("Preprints" of "Jane Doe | Preprints"),
    but not a person's name with their degrees ("Jane Doe, MD, PhD")."""
    parts = [
        part for part in _TITLE_PARTS.split(title) if heading_kind(part) and not is_person_name(part.split(",")[0])
    ]
    if not parts:
        # A page of things not reported ("Teaching | Jane Doe", "Talks"): its lists are not items either.
        parts = [part for part in _TITLE_PARTS.split(title) if is_unlisted_heading(part)]
    return parts[0] if len(parts) == 1 else ""


# ------------------------------------------------------------------ lists of a section


def _lists(section: Section) -> Iterator[tuple[str, list[Entry], Context, list[list[Line]]]]:
    """The lists of one section: its groups of records, its runs of loose lines, its cards."""
    if section.is_card() and section.parent is not None and _card_run(section.parent, section):
        return  # read as one entry of its parent's list of cards
    context = _context(section)
    labels = _labels(section.items)
    by_group: dict[int, tuple[Group, list[Placed]]] = {}
    lines: list[Line] = []
    holder: Box | None = None
    order: list[tuple[str, object]] = []
    for item in section.items:
        if item.line is not None and id(item.line) in labels:
            continue
        if item.group is not None:
            key = id(item.group)
            if key not in by_group:
                by_group[key] = (item.group, [])
                order.append(("group", key))
            by_group[key][1].append(item)
        elif item.line is not None:
            if holder is not item.box and lines:
                order.append(("lines", lines))
                lines = []
            holder = item.box
            lines.append(item.line)
    if lines:
        order.append(("lines", lines))
    if is_funding_lead(section.heading):
        # A line leading into grants heads only the list right under it, not the prose after it.
        order = [next((part for part in order if part[0] == "group"), ("lines", []))]
    for what, value in order:
        if what == "group":
            group, placed = by_group[value]  # type: ignore[index]
            entries = [_entry(item, labels.get(id(item))) for item in placed]
            blocks = [_text_lines(item.box) for item in placed]
            yield f"{len(entries)} × {group.signature}", entries, _with_landmarks(context, placed), blocks
        else:
            block: list[Line] = value  # type: ignore[assignment]
            if context.kind == "member":
                block = [person for line in block for person in _people_in_a_run(line)]
            entries = [entry_of_lines([line]) for line in block if line.text]
            if entries:
                yield f"{len(entries)} line{'s' if len(entries) > 1 else ''}", entries, context, []
    cards = [child for child in section.children if child.is_card() and _card_run(section, child)]
    if cards:
        plural = "s" if len(cards) > 1 else ""
        yield f"{len(cards)} headed block{plural}", [entry_of_card(card) for card in cards], context, []


#: One person of a run written as a sentence: "Freja Lund (PhD 2024, now Designer at B&O)".
_PERSON_WITH_NOTE = re.compile(r"^(?:and\s+)?(?P<name>[^()]{3,60}?)\s*\((?P<note>[^()]{2,200})\)\s*\.?$")


def _people_in_a_run(line: Line) -> list[Line]:
    """A paragraph of people written one after another, each with a note in brackets ("Freja Lund (PhD
    2024, now at X), Ahmed Farouk (Postdoc 2020–2023, …), …"): a line each; else the line itself."""
    text = line.text
    if text.count("(") < 3:
        return [line]
    pieces, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char in ",;" and depth == 0:
            pieces.append(text[start:index].strip())
            start = index + 1
    pieces.append(text[start:].strip())
    people = [m for piece in pieces if (m := _PERSON_WITH_NOTE.match(piece)) and is_person_name(m["name"])]
    if len(people) < 3 or len(people) < 0.8 * len(pieces):
        return [line]
    return [Line(f"{m['name']} ({m['note']})") for m in people]


def _split_blocks(
    entries: list[Entry], blocks: list[list[Line]], kind: str | None, context: Context
) -> list[Entry] | None:
    """The list with each block of several lines of text (a paragraph broken by ``<br>``, a
    plain-text paragraph) read a line each where nearly all its lines read as items on their own
    ("2024: news" lines; but not a paper's title, authors and venue lines); None if none is."""
    if not any(len(block) >= 2 for block in blocks):
        return None
    if kind is None:
        lines = [entry_of_lines([line]) for block in blocks for line in block] or entries
        kind = read_list(lines, context).kind
        if kind is None:
            return None
    split: list[Entry] = []
    changed = False
    for entry, block in zip(entries, blocks, strict=True):
        if len(block) >= 2:
            singles = [entry_of_lines([line]) for line in block]
            if _reads_each(singles, kind, context):
                split.extend(singles)
                changed = True
                continue
        split.append(entry)
    return split if changed else None


_LABEL_LINE = re.compile(r"^\W{0,2}\w[\w &,-]{0,40}:\W{0,2}$")


def _reads_each(singles: list[Entry], kind: str, context: Context) -> bool:
    """Whether nearly every line reads clearly as an item of ``kind`` on its own."""
    reader = READERS[kind]
    # A label over the lines ("Book chapters:") is no item and no miss.
    singles = [single for single in singles if not _LABEL_LINE.match(single.text)]
    need = max(2, math.ceil(_LINE_SHARE * len(singles)))
    misses_left = len(singles) - need
    for single in singles:
        reading = reader(single, context)
        if reading is None or reading.score < _LINE_BAR:
            misses_left -= 1
            if misses_left < 0:
                return False  # a paper's authors line: the block is one item, no need to read on
    return True


def _text_lines(box: Box) -> list[Line]:
    """The lines of a block made of lines of text only (no blocks inside, or a single one such
    as a row's only cell); [] otherwise."""
    while len(box.children) == 1 and type(box.children[0]) is Box:
        box = box.children[0]
    if any(type(child) is not Line for child in box.children):
        return []
    return [child for child in box.children if child.text]  # type: ignore[union-attr]


def _entry(item: Placed, label: Line | None = None) -> Entry:
    columns = table_columns(item.box) if item.box.tag == "tr" else ()
    entry = entry_of_box(item.box, columns)
    if label is None:
        return entry
    return dataclasses.replace(entry, lines=(label.text, *entry.lines), spans=(*label.spans, *entry.spans))


def _labels(items: list[Placed]) -> dict[int, Line]:
    """Short loose lines that each stand right before a record of one group, as its label: a
    date above each news paragraph ("17/12/2021" then ``<p>We welcome …</p>``). Keyed both ways:
    the line's id (so it is not read again on its own) and the record's."""
    pairs: list[tuple[Line, Placed]] = []
    for before, item in itertools.pairwise(items):
        line = before.line
        if (
            item.group is not None
            and line is not None
            and line.text
            and before.box is item.group.parent
            and len(line.text.split()) <= 6
        ):
            pairs.append((line, item))
    groups = {id(item.group) for _, item in pairs}
    labels: dict[int, Line] = {}
    for group in groups:
        members = [pair for pair in pairs if id(pair[1].group) == group]
        if len(members) >= 2:
            for line, item in members:
                labels[id(line)] = line
                labels[id(item)] = line
    return labels


def _card_run(parent: Section, section: Section) -> bool:
    """Whether ``section`` is one of a run of cards: two or more small sibling sections with
    title-like headings, or a single one whose heading is a person's name."""
    siblings = parent.children
    cards = [child for child in siblings if child.is_card()]
    return len(cards) >= 2 or (len(cards) == 1 and is_person_name(section.heading))


def _with_landmarks(context: Context, placed: list[Placed]) -> Context:
    if context.kind is not None:
        return context
    landmark = next((kinds[0] for kinds in (p.landmarks for p in placed) if kinds), None)
    if landmark is None:
        return context
    return Context(context.path, landmark, context.group, context.date, context.alumni, context.loose,
                   context.unlisted)


def _announced(section: Section) -> str | None:
    """The kind the section's own heading, or the nearest heading above it, announces."""
    current: Section | None = section
    while current is not None:
        if current.heading and (kind := announced_kind(current.heading)):
            return kind
        current = current.parent
    return None


@dataclass(slots=True)
class _NewsList:
    """A news list read so far: its dates in order, its records, whether a heading announced it, and
    the index of its report in the reading's lists."""

    dates: tuple[str | None, ...]
    records: tuple[Record, ...]
    announced: bool
    report: int


def _one_language(decision: Decision, seen: list[_NewsList], announced: bool, reading: Reading) -> Decision:
    """A bilingual page gives each post once per language: two news lists of the same dates in the
    same order are one. The list a heading announces is read ("News" beside "Noticias", which only
    its shape told); else the first. ``reading`` loses the records of the list that gives way."""
    dates = tuple(getattr(record, "date", None) for record in decision.records)
    twin = next((other for other in seen if len(dates) >= 2 and other.dates == dates), None)
    if twin is None or (announced and not twin.announced):
        if twin is not None:
            dropped = {id(record) for record in twin.records}
            reading.records[:] = [record for record in reading.records if id(record) not in dropped]
            report = reading.lists[twin.report]
            reading.lists[twin.report] = replace(report, kind=None, why=_TRANSLATED, records=0)
            seen.remove(twin)
        seen.append(_NewsList(dates, decision.records, announced, len(reading.lists)))
        return decision
    return Decision(None, _TRANSLATED, ())


_TRANSLATED = "the same news as another list of the page, in another language"


def _a_menu_link(entry: Entry) -> bool:
    """A menu's item; not the owner's institution linked to its own site under their post
    ("Assistant Professor" over a link to "University of X")."""
    if not is_menu_item(entry):
        return False
    href = entry.links[0].href or ""
    return not (href.startswith(("http://", "https://")) and ORG_WORDS.search(entry.text))


def _in_sidebar(section: Section) -> bool:
    current: Section | None = section
    while current is not None and not current.sidebar:
        current = current.parent
    return current is not None


def _under_unlisted(section: Section) -> bool:
    """Whether the nearest heading that says anything names things not reported ("Teaching")."""
    current: Section | None = section
    while current is not None:
        if current.heading:
            if announced_kind(current.heading):
                return False
            if is_unlisted_heading(current.heading):
                return True
        current = current.parent
    return False


def _context(section: Section) -> Context:
    kind = None
    group = ""
    date = None
    alumni = False
    loose = False
    current: Section | None = section
    while current is not None:
        heading = current.heading
        if heading:
            found = announced_kind(heading)
            if kind is None and found is None and (is_unlisted_heading(heading) or is_intro_heading(heading)):
                return Context(section.path, None, heading, date, alumni, unlisted=True)
            if kind is not None and found != kind:
                break
            # Past the heading that names the kind, only headings of the same kind still speak:
            # "Lab Alumni" above "Undergraduate Students" makes them alumni.
            if not alumni and ALUMNI_WORDS.search(heading):
                alumni = True
            if kind is None:
                if date is None:
                    date = parse_date_text(heading)
                if not group and not is_year_heading(heading):
                    group = heading
                kind = found
                # The page's title names what the page lists less surely than a heading on it does.
                # A line leading into grants ("I am supported by") names no award as surely.
                loose = found is not None and (
                    is_loose_news_heading(heading) or is_funding_lead(heading) or current.page
                )
        current = current.parent
    return Context(section.path, kind, group, date, alumni, loose)

