"""The page owner's own positions: the header under their name, and their biography.

"Research Scientist" / "Acme Labs" under the name at the top of a page; sentences such as
"Since 2024, I have been leading the X Team at Y", "I joined Y in 2022 as a Systems
Researcher", "I am a third-year PhD student at Z".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractors.reading.context import LINK_WORDS, is_link_row
from extractors.reading.dates import find_range
from extractors.reading.names import is_person_name
from extractors.reading.people import ROLE_WORDS as _ROLE_WORDS
from extractors.reading.roles import ORG_WORDS, PIECE_SEPARATOR
from extractors.reading.vocabulary import is_intro_heading
from watcher.records import Role
from watcher.text import clean_text, clean_title

__all__ = ["read_bio_roles", "read_header_roles", "read_tagline_roles", "without_advisers"]

_PERSON = r"(?:(?:Prof|Dr)\.?\s+)?[A-Z][\w.'’\-]*(?:\s+[A-Z][\w.'’\-]*){0,3}"
#: "advised by Prof. Jane Doe", "working with Jane Doe and Bo Chen": who, not where.
_ADVISERS = re.compile(
    rf",?\s+(?:\w+ly\s+)?(?:(?:co-?)?advised|supervised|mentored|hosted|working)\s+(?:by|with)\s+{_PERSON}"
    rf"(?:\s*(?:,|and|&)\s*{_PERSON})*",
)


def without_advisers(sentence: str) -> str:
    """A biography sentence without who advises the writer ("I am a PhD student advised by Jane
    Doe at X" -> "I am a PhD student at X"): the position and the place stand together again."""
    return _ADVISERS.sub("", sentence) if " by " in sentence or " with " in sentence else sentence


def _looks_like_org(text: str) -> bool:
    return bool(ORG_WORDS.search(text))


#: The head noun of a unit, not of a position: "Graduate Program in Biophysics", "Institute for X".
_UNIT_NOUNS = frozenset((
    "program", "programme", "institute", "center", "centre", "department", "school", "laboratory", "lab", "group",
    "division", "college", "university", "initiative", "consortium", "society", "academy", "council", "foundation",
    "hospital", "clinic", "museum", "faculty",
))
_HEAD_END = re.compile(r"\s+(?:in|of|for|on|at)\s+")


def _names_a_unit(text: str) -> bool:
    """Whether a line names a unit rather than a position: its head, before "in/of/for", ends in a
    unit's noun ("Graduate Program in Biophysics"; but "Director of the Center for X" is a position)."""
    words = _HEAD_END.split(text.split(", ", 1)[0], maxsplit=1)[0].split()  # "PhD Candidate, X Institute": a post
    return bool(words) and words[-1].lower().strip(".,;:") in _UNIT_NOUNS


# A full stop after a title or an initial ("Prof. Jane Doe", "J. Doe") ends no sentence.
_SENTENCE_SPLIT = re.compile(
    r"(?<=[.!?])(?<!\bProf\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bSt\.)(?<!\bMt\.)(?<!\b[A-Z]\.)\s+"
    r"(?=[A-Z\"“(\[])"
)
_ORG_END = (
    r"(?=\s*(?:,\s*(?:where|which|who|whose|and|working|under|(?:\w+ly\s+)?(?:advised|supervised)|focusing|with|since"
    r"|from|in\s+\d)"
    r"|[;!?(]"
    r"|(?<!\bSt)(?<!\bMt)\."  # "St. Andrews" goes on
    # "… at X and an Honorary Consultant at Y": a second position, not more of the place.
    r"|\s+and\s+(?:an?|the)\s+(?-i:[A-Z])"
    r"|\s+(?:where|working|under|advised|supervised|focusing|since|from|in\s+\d{4}|for\s+(?!(?-i:[A-Z]))|with\s|as\s"
    r"|,?\s*beginning))|\s*$)"
)
#: Joining a place, done or to come: "I joined X", "In July 2026, I will join X as …".
_JOINED = r"(?:joined|moved to|will join|will be joining|am joining|will move to)"
#: A date that opens the sentence dates the position it states: "From September 2024 I am also …".
_OPENING_DATE = re.compile(
    r"^(?:in|from|since|starting(?: in)?|beginning(?: in)?)\s+(?:(?:early|late|mid-?)?\s*[A-Za-z]+\s+)?"
    r"(?P<year>(?:19|20)\d\d)\b", re.I
)
#: The month, if any, before the year a post began: "in July 2027", "in early 2026".
_MONTH = r"(?:(?:early|late|mid-?)\s*|(?-i:[A-Z])[a-z]{2,8}\.?\s+)?"
#: A post held up to now: "I have been", "I have also been", "I've been".
_HAVE_BEEN = r"I have (?:also )?been|I've (?:also )?been"
_BIO_PATTERNS = (
    re.compile(
        rf"\bsince (?P<year>\d{{4}}),? I (?:have been|am|'ve been) "
        rf"(?P<verb>leading|heading|directing|running|managing|co-leading)\s+"
        rf"(?:the\s+)?(?P<team>[^,.;]+?)\s+at\s+(?P<org>.+?){_ORG_END}",
        re.I,
    ),
    re.compile(
        rf"\bI {_JOINED} (?:the\s+)?(?P<org>.+?) in {_MONTH}(?P<year>\d{{4}}) as an? (?P<title>[^,.;()]+)", re.I
    ),
    re.compile(
        rf"\bI {_JOINED} (?:the\s+)?(?P<org>.+?) as an? (?P<title>[^,.;]+?)"
        rf"(?: in {_MONTH}(?P<year>\d{{4}}))?{_ORG_END}",
        re.I,
    ),
    re.compile(
        rf"\b(?:I am|I'm|I work as|I serve as|I currently serve as|I was|I will be|I'll be|currently,? I am|is|was"
        rf"|{_HAVE_BEEN})\s+"
        rf"(?:(?:currently|now|also)\s+){{0,2}}"
        rf"(?:an?|the)\s+(?P<title>[^,;]{{2,80}}?)\s+(?P<link>at|in|with|of)\s+(?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}",
        re.I,
    ),
    # A rank needs no article: "I am Professor of History at X", "I am Associate Professor of Y at Z".
    re.compile(
        rf"\b(?:I am|I'm|I serve as|I currently serve as|I will be|I'll be|currently,? I am"
        rf"|{_HAVE_BEEN})\s+"
        rf"(?:(?:currently|now|also)\s+){{0,2}}"
        rf"(?P<rank>(?-i:(?:(?:Assistant|Associate|Full|Distinguished|Visiting|Research|Senior|Adjunct|Clinical"
        rf"|Principal|Emeritus)\s+)*(?:Professor|Lecturer|Reader|Chair|Director|Dean|Fellow|Scientist)))"
        rf"\s+(?P<link>at|in|with|of)\s+(?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}",
        re.I,
    ),
    re.compile(rf"\bas an? (?P<title>[^,.;]{{2,60}}?) at (?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}", re.I),
    # No organisation named: "I'm a PhD student interested in visual word recognition".
    re.compile(
        r"\b(?:I am|I'm|is)\s+(?:currently\s+|now\s+)?an?\s+(?P<title>[^,;.]{2,60}?)"
        r"(?=\s+(?:interested|working on|studying|researching|focusing|who|whose|based|and)\b|\s*[,;.]|\s*$)",
        re.I,
    ),
)
#: A degree written with full stops ("Ph.D. candidate"), read as one word: the stops do not end the title.
_DOTTED_DEGREE = re.compile(
    r"\b(?:Ph\.\s?D|M\.\s?Sc?|B\.\s?Sc?|M\.\s?A|B\.\s?A|M\.\s?Phil|M\.\s?Eng|J\.\s?D)\.(?=[\s,]|$)"
)
_DEGREE_SENTENCE = re.compile(r"\b(?:received|obtained|earned|graduated|hold|completed|degree)\b", re.I)
_SINCE = re.compile(r"\b(?:since|in|beginning in|starting in|from)\s+(\d{4})\b", re.I)


#: A post told as history ("Previously, I was …", "After that I spent a year as …"): without the years it
#: ended, a biography that tells more of its past would report it as a new post.
_PAST = re.compile(
    r"\b(?:was|were|I worked|I spent|previously|formerly|before (?:that|this|then|joining)|prior to"
    r"|after (?:that|this)|earlier|until)\b",
    re.I,
)


def read_bio_roles(text: str) -> list[Role]:
    """Positions named in biography sentences ("I joined X in 2022 as a Systems Researcher")."""
    roles: list[Role] = []
    for sentence in _SENTENCE_SPLIT.split(clean_text(text).replace("’", "'")):  # "I’m" as "I'm"
        if _DEGREE_SENTENCE.search(sentence) or len(sentence) > 400:
            continue
        sentence = _DOTTED_DEGREE.sub(lambda m: re.sub(r"[.\s]", "", m.group(0)), without_advisers(sentence))
        for pattern in _BIO_PATTERNS:
            match = pattern.search(sentence)
            if not match:
                continue
            role = _bio_role(match, sentence)
            if role is not None and not (role.end is None and _PAST.search(sentence, 0, match.end())):
                roles.append(role)
                roles.extend(_joined_roles(sentence[match.end() :]))
                break
    return roles


#: A second position joined to the first: "… at X (2022–2025) and a postdoc at Y (2020–2022)".
_AND_ANOTHER = re.compile(
    r"^\s*(?:\([^()]{0,40}\))?\s*,?\s*(?:and|as well as)\s+(?:also\s+)?(?:an?|the)\s+"
    rf"(?P<title>[^,;()]{{2,80}}?)\s+(?P<link>at|in|with|of)\s+(?:the\s+)?(?P<org>[A-Z].+?){_ORG_END}"
)


def _joined_roles(rest: str) -> list[Role]:
    roles = []
    while (match := _AND_ANOTHER.match(rest)) and (role := _bio_role(match, rest)) is not None:
        roles.append(role)
        rest = rest[match.end() :]
    return roles


_LEADING_THE = re.compile(r"^the\s+", re.I)
#: "Economics at Northfield University": a field of study, then the place.
_FIELD_THEN_PLACE = re.compile(r"(?P<field>[^,]{2,60}?)\s+at\s+(?:the\s+)?(?P<org>[A-Z].*)")
_FIELD_IN_UNIT = re.compile(r"(?P<field>.+?)\s+(?:in|at)\s+(?:the\s+)?(?P<unit>[A-Z].*)")


def _bio_role(match: re.Match[str], sentence: str) -> Role | None:
    groups = match.groupdict()
    team = groups.get("team")
    title = f"{clean_title(team)} Lead" if team else clean_title(groups.get("title") or groups.get("rank") or "")
    # A rank the pattern itself names ("Reader", "Chair") is a position without a role word.
    if not title or not (groups.get("rank") or _ROLE_WORDS.search(title)) or len(title.split()) > 8 or ". " in title:
        return None
    what, joined, post = title.rpartition(" and ")
    if joined and _ROLE_WORDS.search(post) and not _ROLE_WORDS.search(what):
        # "an infectious disease epidemiologist and Assistant Professor": what they do, then the post
        title = re.sub(r"^(?:an?|the)\s+", "", post, flags=re.I)
    organization = clean_title(_LEADING_THE.sub("", groups.get("org") or "")) or None
    place = _FIELD_THEN_PLACE.match(organization or "") if groups.get("link") in ("of", "in") else None
    if place and _looks_like_org(place["field"]) and (unit := _FIELD_IN_UNIT.match(place["field"])):
        # "Senior Lecturer in Victorian Literature in the School of English at X": the field, then the unit.
        if not _looks_like_org(unit["field"]):
            title, organization = f"{title} {groups['link']} {unit['field']}", f"{unit['unit']}, {place['org']}"
    elif place and not _looks_like_org(place["field"]):
        # "Assistant Professor of Economics at X": the field belongs to the title, X is the place.
        title, organization = f"{title} {groups['link']} {place['field']}", place["org"]
    elif (
        place is None
        and groups.get("link") in ("of", "in")
        and (unit := _FIELD_IN_UNIT.match(organization or ""))
        and not _names_a_unit(unit["field"])
        and _names_a_unit(unit["unit"])
    ):
        # "Director of Postgraduate Research in the School of English": the office, then its unit.
        title, organization = f"{title} {groups['link']} {unit['field']}", unit["unit"]
    if organization and (len(organization.split()) > 14 or not organization[:1].isupper()):
        return None
    year, end = groups.get("year"), None
    if not year and (span := _span_after(sentence[match.end() :])):
        year, end = span
    if not year and (opening := _OPENING_DATE.match(sentence)):
        year = opening["year"]
    if not year and (m := _SINCE.search(sentence[match.start() :])):
        year = m.group(1)
    title = title[:1].upper() + title[1:]
    return Role(title=title, organization=organization, start=year, end=end)


def _span_after(rest: str) -> tuple[str, str | None] | None:
    """The years set right after a position's place: "… at the Harlow Institute (2021–2023)"."""
    bracket = rest.lstrip()
    if not bracket.startswith("("):
        return None
    found = find_range(bracket[: bracket.find(")") + 1])
    if found is None or found[2] > 1:
        return None
    start, end = found[0], found[1]
    return (start, end) if start else None


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
        if (pieces := PIECE_SEPARATOR.split(line)) and len(pieces) > 1 and not is_link_row(line):
            line = f"{pieces[0]}, {pieces[1]}"  # "Associate Professor of X · University of Y": its place set apart
        # A short title, or a title with its place after a comma ("Associate Professor of X, University of Y").
        words = len(line.split())
        if words > 16 or len(line.split(", ", 1)[0].split()) > 7 or (words > 7 and ", " not in line):
            continue
        if not _ROLE_WORDS.search(line) or _HEADER_SKIP.search(line) or is_link_row(line) or LINK_WORDS.match(line):
            continue  # "Google Scholar · GitHub", an icon's "Scholar": role words, and the owner's links
        if _SENTENCE_END.search(line) and not _DEGREE_END.search(line):
            continue
        if is_person_name(line) or _names_a_unit(line) or _PLACE_OR_NUMBER.search(line):
            continue  # the owner's name with their degree ("Rosalind Achterberg, PhD"), a unit, a town ("Harlan, MA")

        # A header line may join the place to its address ("Dept. of X, Y College · Hall 207, …"); a
        # portrait's caption names the owner, no place; the heading of the page's first part ("Overview") none.
        after = [
            x
            for x in (PIECE_SEPARATOR.split(y, maxsplit=1)[0] for y in lines[i + 1 : i + 4])
            if not _HEADER_SKIP.search(x) and len(x.split()) <= 12 and not is_person_name(x) and not is_intro_heading(x)
        ]
        organization = None
        if ", " in line and not _ROLE_WORDS.search(line.split(", ", 1)[1]):
            line, organization = line.split(", ", 1)
        elif after and not _ROLE_WORDS.search(after[0]):
            organization = after[0]
            if _SUB_UNIT.search(organization) and len(after) > 1:
                organization = (
                    after[1]
                    if _looks_like_org(after[1])
                    or not (_STATE_CODE.search(after[1]) or _SENTENCE_END.search(after[1]))
                    else organization
                )
        if organization and _PLACE_OR_NUMBER.search(organization):
            organization = None
        roles.append(Role(title=clean_title(line), organization=clean_title(organization) or None))
        break
    return roles


_TAGLINE = re.compile(
    r"^(?P<title>[A-Z][^,;:()]{2,60}?)\s+(?P<link>at|for|@|in|of the)\s+(?:the\s+)?(?P<org>[A-Z][^;()]{2,80}?)\.?$"
)
_TAGLINE_VERB = re.compile(r"\b(?:I|I'm|my|we|is|was|am|are|were|has|have|been|will|received|joined)\b")


def read_tagline_roles(lines: Sequence[str]) -> list[Role]:
    """Positions the page header lists one per line: "Professor of Economics at X", "Associate
    Editor for Y", "Affiliate Researcher at the Z Institute"."""
    roles: list[Role] = []
    for line in lines[:30]:
        if len(line.split()) > 14 or _HEADER_SKIP.search(line) or _TAGLINE_VERB.search(line):
            continue
        match = _TAGLINE.match(line)
        if match is None or not _ROLE_WORDS.match(match.group("title")) or _names_a_unit(match.group("title")):
            continue
        if match.group("link") == "in" and not _looks_like_org(match.group("org")):
            continue  # "Research Fellow in Infectious Disease Epidemiology": a field, the place on the next line
        roles.append(Role(title=clean_title(match.group("title")), organization=clean_title(match.group("org"))))
    return roles
