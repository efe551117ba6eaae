"""Reading a position from an entry: title, organisation, start, end.

"2023/06 – Present  Research Scientist, **Acme Labs**", "Acme Labs, Research Scientist,
2020–2021", "Research Scientist at Acme Labs (2020)", a table row with its date cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from extractors.reading.context import Context, Reading, is_noise
from extractors.reading.dates import SEASONS, find_range, only_a_span, only_a_when, parse_date_text
from extractors.reading.entries import Entry
from extractors.reading.names import is_person_name
from extractors.reading.people import ROLE_WORDS
from watcher.records import Record, Role
from watcher.text import clean_text, clean_title, normalise_key, one_within_the_other

__all__ = [
    "EDUCATION_WORDS",
    "ORG_WORDS",
    "PIECE_SEPARATOR",
    "dedupe_roles",
    "drop_undated_roles",
    "parse_role_line",
    "read_role",
    "same_place",
]

ORG_WORDS = re.compile(
    r"\b(?:university|universit\w+|institute|college|school|lab|laboratory|labs|research|inc|ltd|corp\w*"
    r"|company|group|center|centre|academy|foundation|department|dept|ai|team|hospital|clinic|council"
    r"|agency|bank|observatory|museum|society|ministry|google|microsoft|meta|amazon|apple|ibm|nvidia)\b",
    re.I,
)
EDUCATION_WORDS = re.compile(
    r"\b(?:ph\.?\s?d|m\.?\s?sc?\b|b\.?\s?sc?\b|b\.?\s?eng|m\.?\s?eng|bachelor|master|doctor|mba|degree|b\.?a\.?\b"
    r"|m\.?a\.?\b|diploma|habilitation)",
    re.I,
)
_SINGLE = re.compile(
    r"(?:\(\s*(?P<p>[^()]{4,30}?)\s*\)|(?:since|from|in)\s+(?P<s>[A-Za-z]{0,9}\.?\s?(?:19|20)\d\d)"
    r"|,\s*(?P<c>[A-Za-z]{0,9}\.?\s?(?:19|20)\d\d)\s*$"
    # A year (or season) in a column of its own before the position: "2019 , PhD in Astrophysics,
    # X", "Summer 2023: Research Intern", "2013 – PhD, X", "2013 PhD, X" (the year in its own span).
    rf"|^(?P<l>(?:(?:{SEASONS})\s+)?(?:19|20)\d\d)(?:\s*[,:–—-]\s|\s+(?=[A-Z])))",
    re.I,
)
_WEB_ADDRESS = re.compile(r"\s*\((?:[\w-]+\.)+[a-z]{2,}\)")
#: How long a post lasted, as CV themes and professional profiles set it beside the dates
#: ("· 4 years 8 months", "(2 yrs, 7 mos)"): counted from the dates, it names nothing.
_UNIT = r"\d+\s*(?:years?|yrs?|months?|mos?|weeks?|wks?|days?)\b"
_DURATION = re.compile(rf"[\s·•|,(-]*{_UNIT}(?:[\s,]*(?:and\s+)?{_UNIT})*\)?", re.I)
#: A duty told as a verb and its object ("Lead the Seabird Lab", "Supervised 3 PhD students"): a
#: detail under a post, not a post ("Head of the Lab" and "Lead Engineer" are posts; "Building a
#: Startup" is what someone did for a time).
_DUTY = re.compile(r"^[A-Z][a-z]+(?<!ing)\s+(?:the|a|an|our|my|their|two|three|\d+)\s", re.U)
_NEXT_SENTENCE = re.compile(r"[a-z]{3,}[.!?]\s+[A-Z][a-z]+\s+\w+\s+\w+")
_TRAILING_AT = re.compile(r"\s+(?:at|@|in|with)$")
_LEADING_AS = re.compile(r"^(?:as|,)\s+")
_LEADING_AT = re.compile(r"^(?:at|@|in|with)\s+", re.I)
_TITLE_AT_ORG = re.compile(r"^(?P<t>.+?)\s+(?:at|@)\s+(?P<o>.+)$")
_ROLE_PARTS = re.compile(r"\s*(?:,|;|\s[|–—-]\s|\s·\s)\s*")


def read_role(entry: Entry, context: Context) -> Reading | None:
    """The position an entry states, or None."""
    bold = tuple(s.text for s in entry.spans if s.kind in ("bold", "italic"))
    lines = [line for line in entry.lines if not is_noise(line)]
    if len(lines) > 1 and not entry.cells and is_person_name(lines[0]):
        lines = lines[1:]  # a page's masthead: its owner's name over the post they hold
    if lines and len(pieces := PIECE_SEPARATOR.split(lines[0], maxsplit=1)) == 2 and only_a_when(pieces[0]):
        if len(lines) == 1:
            return None  # "2020 – 2022 · Berkeley, CA" alone: when and where, no post
        lines = [pieces[0], *lines[1:]]  # "Summer 2025 · London, UK" over "Google DeepMind — Research Intern"
    if not lines:
        return None
    role = _stated_role(entry, lines, bold)
    if role is None or only_a_when(role.title):
        return None  # "Summer 2025" over "London, UK": when and where, no post
    # "Consultant (2025–Present)" over "Sony Interactive Entertainment": the title line, then where; or
    # the dates on a line of their own, the title, then where ("Jan 2026 – Present", "Lecturer", "X · Town").
    place_at = 2 if len(lines) > 2 and clean_title(lines[1]) == role.title and only_a_span(lines[0]) else 1
    if role.organization is None and (role.start or role.end) and len(lines) > place_at and _names_a_place(
        place := PIECE_SEPARATOR.split(lines[place_at], maxsplit=1)[0]
    ):
        role = replace(role, organization=clean_text(place))
    elif _only_a_place(role) and (post := next((line for line in lines[1:3] if _names_a_post(line)), None)):
        # "Quillmark Labs", "2022 – Present", "Research Scientist": where and when, then the post.
        role = replace(role, title=clean_title(post), organization=role.title)
    score = 0.3 + (0.35 if role.start or role.end else 0.0) + (0.2 if ROLE_WORDS.search(role.title) else 0.0)
    score += 0.1 if role.organization else 0.0
    return Reading.of(role, score)


def _stated_role(entry: Entry, lines: Sequence[str], bold: Sequence[str]) -> Role | None:
    """The post an entry states: by its named fields, by its table's columns, else by its lines."""
    if (role := _role_by_fields(entry)) is not None:
        return role
    if entry.cells and len(entry.cells) >= 2:
        return _role_by_columns(entry, lines) or parse_role_line(" , ".join(entry.cells), bold)
    role = parse_role_line(lines[0], bold)
    if (role is None or (role.start is None and len(lines) > 1)) and len(lines[0].split()) <= 10:
        joined = parse_role_line(" ".join(lines[:2]), bold)
        role = joined if joined is not None and (role is None or joined.start) else role
    return role


#: Header names of a table of posts: "Period | Position | Institution".
_POST_COLUMN = re.compile(r"\b(?:position|post|title|role|appointment|job|rank)s?\b", re.I)
_PLACE_COLUMN = re.compile(
    r"\b(?:institution|organi[sz]ation|employer|place|university|department|affiliation|company|where)s?\b", re.I
)
_WHEN_COLUMN = re.compile(r"\b(?:period|dates?|years?|when|from|tenure)\b", re.I)


def _role_by_fields(entry: Entry) -> Role | None:
    """A card whose classes name its post and its place or dates (``.position``, ``.company``,
    ``.date``), as résumé themes set a job: read by those fields. A person's card (it names a
    ``name``) is a member's, not a post of the page's owner."""
    fields = entry.fields
    title = clean_text(fields.get("role"))
    if not title or "name" in fields or len(title.split()) > 16 or _DUTY.match(title):
        return None
    role = _post(title, fields.get("affiliation"), clean_text(fields.get("date")))
    return role if role.organization or role.start or role.end else None


def _role_by_columns(entry: Entry, lines: Sequence[str]) -> Role | None:
    """A table row whose header names its post's column and its place's or dates' column: each
    cell read by its first line, since a cell may set a detail under it ("Postdoctoral
    Researcher<br><small>Project: …</small>")."""
    cells: dict[str, str] = {}
    for column, cell in zip(entry.columns, entry.cells, strict=False):
        head = next((line for line in lines if cell.startswith(line)), cell)
        for name, words in (("title", _POST_COLUMN), ("organization", _PLACE_COLUMN), ("when", _WHEN_COLUMN)):
            if name not in cells and words.search(column):
                cells[name] = clean_text(head)
                break
    title = cells.get("title")
    if not title or len(title.split()) > 16 or not (cells.get("organization") or cells.get("when")):
        return None
    return _post(title, cells.get("organization"), cells.get("when", ""))


def _post(title: str, organization: str | None, when: str) -> Role:
    """A post from its title, place and dates as fields or columns give them ("Jul 2024 - Present")."""
    found = find_range(when)
    start, end = (found[0], found[1]) if found else (parse_date_text(when), None)
    return Role(title=clean_title(title), organization=clean_title(organization) or None, start=start, end=end)


def _only_a_place(role: Role) -> bool:
    """A dated line that named where, not what: "Quillmark Labs, 2022 – Present"."""
    return (
        role.organization is None
        and bool(role.start or role.end)
        and not ROLE_WORDS.search(role.title)
        and not EDUCATION_WORDS.search(role.title)
    )


def _names_a_post(line: str) -> bool:
    """A short line that names a post or a degree, with no date of its own."""
    return (
        _names_a_place(line)
        and bool(ROLE_WORDS.search(line) or EDUCATION_WORDS.search(line))
    )


#: What parts a line's pieces: a place's town after a middle dot ("University of X · Madison, Wisconsin").
PIECE_SEPARATOR = re.compile(r"\s+[·•|]\s+")


def _names_a_place(line: str) -> bool:
    """A short line that can be an organisation: a few words, no sentence, no label, no date."""
    words = line.split()
    return (
        0 < len(words) <= 8
        and ":" not in line
        and not line.rstrip().endswith(".")
        and find_range(line) is None
        and parse_date_text(line) is None
        and not is_noise(line)
    )


def parse_role_line(line: str, emphasis: Sequence[str] = ()) -> Role | None:
    """A position from one line; None for prose or a line without a title."""
    text = clean_text(line)
    if not text or len(text) > 200 or is_noise(text):
        return None
    start = end = None
    rest = text
    if found := find_range(text):
        start, end, lo, hi = found
        rest = f"{text[:lo]} {text[hi:]}".strip()
    else:
        # The first of the places a lone date may stand that holds one: "PhD (Epidemiology) (2013)".
        for m in _SINGLE.finditer(text):
            raw = m.group("p") or m.group("s") or m.group("c") or m.group("l")
            start = parse_date_text(raw) if raw else None
            if start is not None:
                rest = f"{text[: m.start()]} {text[m.end() :]}".strip()
                break
    rest = _WEB_ADDRESS.sub("", rest)
    if start is not None or end is not None:
        rest = _DURATION.sub("", rest)
    rest = rest.strip(" ,;:.-–—|()")
    if not rest or len(rest.split()) > 16 or _NEXT_SENTENCE.search(rest):
        return None
    title, organization = _split_title_org(rest, emphasis)
    if not title or _DUTY.match(title):
        return None
    if start is None and end is None and not ROLE_WORDS.search(title):
        return None
    return Role(title=title, organization=organization, start=start, end=end)


def _split_title_org(rest: str, emphasis: Sequence[str]) -> tuple[str, str | None]:
    for emph in emphasis:
        emph = clean_text(emph).strip(" ,.")
        if not emph or emph not in rest or emph == rest:
            continue
        if ROLE_WORDS.search(emph):
            if rest.startswith(emph) and (after := rest[len(emph) :].strip(" ,;:.-–—|")):
                # "**Specialty Registrar, Hepatology**, Wessmoor Deanery": the post set in bold, then where.
                return clean_title(emph), clean_title(_TRAILING_AT.sub("", _LEADING_AT.sub("", after)))
            continue
        index = rest.index(emph)
        before = _TRAILING_AT.sub("", rest[:index].strip(" ,;:-–—|@"))
        after = rest[index + len(emph) :].strip(" ,;:.-–—|")
        if before and (ROLE_WORDS.search(before) or not ROLE_WORDS.search(after)):
            return clean_title(before), clean_title(f"{emph} {after}" if after else emph)
        if after:
            return clean_title(_LEADING_AS.sub("", after)), clean_title(f"{before} {emph}".strip())
    if m := _TITLE_AT_ORG.match(rest):
        return clean_title(m.group("t")), clean_title(m.group("o"))
    parts = [p.strip() for p in _ROLE_PARTS.split(rest) if p.strip()]
    if len(parts) < 2:
        return clean_title(rest), None
    for i, part in enumerate(parts):
        if ROLE_WORDS.search(part):
            others = [p for j, p in enumerate(parts) if j != i]
            return clean_title(part), clean_title(", ".join(others)) or None
    return clean_title(parts[0]), clean_title(", ".join(parts[1:])) or None


def dedupe_roles(records: list[Record]) -> list[Record]:
    """Drop a role that repeats another (a biography names the position a dated list gives too);
    of the two, the one with more detail (dates, organisation), else the longer title, is kept, in the
    first one's place."""
    out: list[Record] = []
    roles: dict[int, Role] = {}  # the roles kept, by their position in ``out``
    for record in records:
        if isinstance(record, Role):
            twin = next((i for i, role in roles.items() if _same_role(role, record)), None)
            if twin is not None:
                if (_detail(record), len(record.title)) > (_detail(roles[twin]), len(roles[twin].title)):
                    out[twin] = roles[twin] = record  # more detail, else the title written whole
                continue
            roles[len(out)] = record
        out.append(record)
    return out


def _same_role(first: Role, second: Role) -> bool:
    if _restates(first, second) or _restates(second, first) or _named_twice(first, second):
        return True
    if _split_at_its_preposition(first, second) or _split_at_its_preposition(second, first):
        return True
    return (
        _title_key(first.title) == _title_key(second.title)
        and (first.start == second.start or not first.start or not second.start)
        and (same_place(first.organization, second.organization) or not first.organization or not second.organization)
    )


def same_place(first: str | None, second: str | None) -> bool:
    """One organisation named more or less fully: "X Institute" and "X Institute in Berlin"."""
    return one_within_the_other(normalise_key(first), normalise_key(second))


_UNIT_AFTER_TITLE = re.compile(r"^\s*(?:in|of|at)\s+(?:the\s+)?", re.I)


#: Words before a title that say when the post is held, not what it is: "Incoming Assistant Professor",
#: "Fifth-year PhD candidate".
_WHEN_HELD = re.compile(
    r"^(?:incoming|future|new|current|newly appointed"
    r"|(?:first|second|third|fourth|fifth|sixth|seventh|final|last|\d+(?:st|nd|rd|th))[- ]year)\s+",
    re.I,
)


#: Tenure written beside a rank: "(tenure track)", "Tenure-Track", "with tenure", "(tenured)".
_TENURE = re.compile(r"\(?\b(?:with\s+)?tenure(?:d|[- ]track)?\b\)?", re.I)


def _title_key(title: str) -> str:
    """A title as two readings of one post compare it: "Ph.D. Candidate" and "PhD candidate" agree,
    "Incoming Assistant Professor" is the Assistant Professor to come, and "Tenure-track Assistant
    Professor" the "Assistant Professor (tenure track)"."""
    return normalise_key(_TENURE.sub(" ", _WHEN_HELD.sub("", title.replace(".", ""))))


def _restates(prose: Role, dated: Role) -> bool:
    """An undated role from a sentence that restates a dated one: "Associate Professor in the Division
    of Cardiology" (at the University of X) beside "Associate Professor, Division of Cardiology, …, University of X"."""
    if prose.start or prose.end or not (dated.start or dated.end) or not dated.organization:
        return False
    title, place = normalise_key(dated.title), normalise_key(dated.organization)
    head = normalise_key(prose.title)
    if not head.startswith(title + " "):
        return False
    unit = _UNIT_AFTER_TITLE.sub("", prose.title[len(dated.title):]).strip()
    return bool(unit) and normalise_key(unit) in place


_FIELD_AFTER_TITLE = re.compile(r"\s+(?:of|in)\s+(?:the\s+)?(?P<field>.+)$", re.I)


def _named_twice(first: Role, second: Role) -> bool:
    """One post named twice, once undated: the header's "Assistant Professor of Economics, Westbrook
    University" and the biography's "Assistant Professor in the Department of Economics at
    Westbrook University", or the header's post beside the dated list's current entry for it. The titles are
    one, or one is the other with the field the other's organisation names; one organisation is the
    other or holds it."""
    if first.end or second.end or (first.start and second.start):
        return False  # two dated posts, or a post that has ended beside the one a header names
    here, there = _place_key(first.organization), _place_key(second.organization)
    # "ETH Zurich" and "Department of Physics at ETH Zurich in the Laboratory for X": one place.
    if not (here and there and (f" {here} " in f" {there} " or f" {there} " in f" {here} ")):
        return False
    titles = sorted((_title_key(first.title), _title_key(second.title)), key=len)
    if titles[0] == titles[1] or titles[1].startswith(titles[0] + " and ") or titles[1].endswith(" and " + titles[0]):
        return True  # "Postdoctoral researcher" and "Postdoctoral researcher and Humboldt fellow", at one place
    pairs = ((first, second), (second, first))
    return any(_with_its_field(one, other, same_place=here == there) for one, other in pairs)


_PLACE_LINKS = frozenset({"at", "the"})


def _place_key(organization: str | None) -> str:
    """An organisation as two readings of one post compare it: "Department of X at the University of Y"
    and "Department of X, University of Y" agree."""
    return " ".join(w for w in normalise_key(organization).split() if w not in _PLACE_LINKS)


def _with_its_field(titled: Role, other: Role, *, same_place: bool = False) -> bool:
    """``titled`` is ``other``'s title followed by a field: the one ``other``'s organisation names, or
    any where both name one place ("Assistant Professor of Chemistry" and "Assistant Professor", X)."""
    match = _FIELD_AFTER_TITLE.search(titled.title)
    return bool(
        match
        and _title_key(titled.title[: match.start()]) == _title_key(other.title)
        and (same_place or f" {normalise_key(match['field'])} " in f" {normalise_key(other.organization)} ")
    )


_FILLERS = frozenset({"of", "for", "in", "at", "the", "and", "on"})


def _split_at_its_preposition(undated: Role, other: Role) -> bool:
    """An undated role whose title and place together are the other's title: "Associate Chair" at
    "Graduate Studies" is "Associate Chair for Graduate Studies", read apart at its "for"."""
    if undated.start or undated.end or not undated.organization:
        return False
    return _content_words(f"{undated.title} {undated.organization}") == _content_words(other.title)


def _content_words(text: str) -> list[str]:
    return [word for word in normalise_key(text).split() if word not in _FILLERS]


def _detail(role: Role) -> int:
    return sum(1 for value in (role.organization, role.start, role.end) if value)


def drop_undated_roles(records: Sequence[Record]) -> list[Record]:
    """When a list dates its positions, an undated "role" line in it is a description of one
    ("Team Leader, led 11 engineers"), not a position of its own."""
    roles = [r for r in records if isinstance(r, Role)]
    if sum(1 for r in roles if r.start or r.end) < 2:
        return list(records)
    return [r for r in records if not isinstance(r, Role) or r.start or r.end]
