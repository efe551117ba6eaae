"""Reading a person from an entry: name, role, link.

The name is the text the entry sets apart for it (a class named "name", a heading, a link, a
bold span, a photo's alt text, the first line, or the line's start before a separator), when it
is a person's name (``names.is_person_name``). The role is what the entry states (a class named
"role"/"position", the line after the name, the rest of the name's line) or else the group the
person is listed under ("PhD Students"). People listed under "Alumni" / "Former members" are
alumni: "Alumni (now Assistant Professor at X)" when the entry says where they went.
"""

from __future__ import annotations

import re

from extractors.reading.awards import awards_in_prose, parse_award_line
from extractors.reading.context import LINK_WORDS, Context, Reading, is_noise, is_prose
from extractors.reading.entries import Entry, is_cited
from extractors.reading.names import (
    author_prefix,
    clean_person_name,
    is_degree_list,
    is_person_name,
    split_author_list,
)
from extractors.reading.vocabulary import ALUMNI_WORDS
from watcher.records import Award, Member
from watcher.text import clean_text

__all__ = ["GENERIC_GROUP", "ROLE_WORDS", "is_sentence", "read_member", "singular"]

ROLE_WORDS = re.compile(
    r"\b(?:professor|prof\.|scientist|engineer|researcher|research (?:staff|associate|assistant|fellow)|intern"
    r"|student|postdoc\w*|post-doc\w*|fellow|lecturer|instructor|director|manager|lead(?:er)?|head|chair"
    r"|founder|co-founder|principal investigator|pi|consultant|advisor|adviser|scholar|candidate|developer"
    r"|analyst|assistant|associate|visiting|visitor|staff|technician|coordinator|administrator|officer|editor"
    r"|ph\.?\s?d\.?|m\.?\s?sc?\.?|b\.?\s?sc?\.?|m\.?\s?eng\.?|b\.?\s?eng\.?|m\.?\s?phil\.?|m\.?a\.?|b\.?a\.?"
    r"|bachelor|master'?s?|doctoral|doctor|mba|undergrad\w*|graduate|alumn\w*|member|affiliate|emeritus"
    r"|faculty|chief|senior|junior|first[- ]year|second[- ]year|third[- ]year|fourth[- ]year|fifth[- ]year"
    r"|rotation|rotating|volunteer|summer|high school|secretary"
    # Medicine's posts: "Specialty Registrar", "Attending Physician", "House Officer", "Chief Resident".
    r"|registrar|physician|surgeon|resident|residency|attending|clinician|nurse|pharmacist|psychiatrist"
    r"|radiologist|pathologist|an(?:a)?esthetist|hepatologist|cardiologist|oncologist|neurologist)\b",
    re.I,
)
_NAME_SEPARATOR = re.compile(r"\s*(?:,|\(|\||\s[-–—]\s|:|;)\s*")
_NEXT_STEP = re.compile(
    r"(?:\bnow\b|\bcurrently\b|\bcurrent(?:ly)? (?:position|role|affiliation)\b|\bnext\b|\bthen\b|→|->|➜|⇒)"
    # A bracket in where they went is part of it ("Parks Canada (Kejimkujik Park)"), as a table's cell has it.
    r"\s*(?:(?:at|as|is|with|an?)\b|:)?\s*:?\s*(?P<next>[^()\n]{2,120}(?:\([^()\n]{1,80}\))?)",
    re.I,
)
#: In an alumni list, what follows a dash after the years they were here is where they went:
#: "Keoni Kahananui (Ph.D. 2025) – Postdoctoral Scholar, Pacific Estuary Observatory".
_DASHED_NEXT = re.compile(r"\)\s*[–—]\s*(?P<next>[^()\n]{3,120})$")
# Each match starts where a word starts, never inside one: a long word costs linear time.
_EMAIL = re.compile(r"(?<!\S)(?:\S+@\S+|\S+\s*(?:\[at\]|\(at\)|\{at\})\s*\S+)", re.I)
GENERIC_GROUP = re.compile(
    r"^(?:our |the |lab |group |current )?(?:people|members?|team|lab members|group members|who we are"
    r"|meet the team|our team|current members|personnel)$",
    re.I,
)


def read_member(entry: Entry, context: Context) -> Reading | None:
    """The person an entry lists, or None when no name stands out."""
    if entry.lines and all(is_noise(line) for line in entry.lines):
        return None  # "Last modified … · Webmaster: G. Pohl": a footer names its webmaster, no member
    found = _name(entry)
    if found is None:
        return None
    name, line_index, tail = found
    columns = _columns(entry)
    stated = columns.get("role") or _stated_role(entry, name, line_index, tail)
    role = _role(stated, entry, context, columns)
    url = next(
        (s.href for s in entry.links if s.href and not s.href.startswith("mailto:") and name in clean_text(s.text)),
        None,
    )
    text = entry.text
    score = 0.5
    score += 0.2 if entry.photo else 0.0
    score += 0.2 if stated and ROLE_WORDS.search(stated) else 0.0
    score += 0.1 if (url or _EMAIL.search(text)) else 0.0
    score += 0.1 if len(text) <= 300 else 0.0
    if is_prose(text, 80) and not stated:
        score -= 0.3
    cites = _looks_like_citation(text, name) or (line_index >= 0 and _opens_an_author_list(entry.lines[line_index]))
    if cites or (context.kind != "member" and is_cited(entry)):
        score -= 0.5
    awards = _card_awards(entry, name, stated) + tuple(awards_in_prose(text))
    return Reading.of(Member(name=name, role=role or None, url=url), score, awards)


#: Words that name an honour and never a position ("Scholar", "Fellow" and "Chair" are both).
_HONOUR = re.compile(
    r"\b(?:awards?|prizes?|medals?|fellowships?|scholarships?|grants?|honou?rable mention"
    r"|best (?:paper|poster|student|thesis|talk|presentation))\b",
    re.I,
)


def _card_awards(entry: Entry, name: str, stated: str) -> tuple[Award, ...]:
    """Honours a member's card names on a short line of their own ("Best Student Poster Award, X 2024")."""
    awards = []
    for line in entry.lines[1:]:
        if len(line.split()) > 12 or name in line or (stated and stated in line) or not _HONOUR.search(line):
            continue
        if (award := parse_award_line(line)) is not None:
            awards.append(award)
    return tuple(awards)


def _name(entry: Entry) -> tuple[str, int, str] | None:
    """The name, the index of the line it stands on (-1: not on a line), and that line's rest.

    A linked or bold name that opens a line is the person's; one inside a line ("co-advised with
    *Prof. Wen Liao*") is theirs only when no line opens with a name."""
    marked = [s.text for s in entry.spans if s.kind in ("link", "bold")][:3]
    opening = [text for text in marked if any(line.startswith(text) for line in entry.lines[:4])]
    photo = [s.text for s in entry.spans if s.kind == "image"][:1]
    leading = [entry.fields.get("name"), entry.heading, *opening, *photo]
    return _named_by(leading, entry) or _line_head_name(entry) or _named_by(marked, entry)


def _named_by(candidates: list[str | None], entry: Entry) -> tuple[str, int, str] | None:
    for candidate in candidates:
        if candidate and is_person_name(candidate):
            name = clean_person_name(candidate)
            for index, line in enumerate(entry.lines[:4]):
                if line.startswith(candidate) or line.startswith(name):
                    return name, index, line[len(candidate) if line.startswith(candidate) else len(name) :]
            return name, -1, ""
    return None


#: The year an alumni timeline sets before a name: "2026 — Min-seo Jang (PhD) → Postdoc, X".
_YEAR_BEFORE_NAME = re.compile(r"^(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)?\d\d)?\s*[—–:|-]\s+")


def _line_head_name(entry: Entry) -> tuple[str, int, str] | None:
    for index, line in enumerate(entry.lines[:2]):
        if is_noise(line):
            continue
        line = _YEAR_BEFORE_NAME.sub("", line)
        head = _NAME_SEPARATOR.split(line, maxsplit=1)[0]
        if is_person_name(head):
            return clean_person_name(head), index, line[len(head) :]
        if index == 0 and is_person_name(line):
            return clean_person_name(line), index, ""
    return None


def _stated_role(entry: Entry, name: str, line_index: int, tail: str) -> str:
    """The role the entry itself states, if any."""
    for field in ("role", "title", "degree"):
        value = entry.fields.get(field, "")
        if value and clean_person_name(value) == name:
            continue  # the name with its degree ("Mei-Lin Zhou, PhD"), not a role
        text = _without_contacts(value.replace(name, " "))
        if text and not is_person_name(text) and len(text.split()) <= 14:
            return text
    tail = _without_contacts(_trimmed(tail))
    tail = "" if is_degree_list(tail) else _role_phrase(tail)  # "Tomáš Kadlec, Ph.D.": the letters after a name
    if tail:
        return tail
    after = entry.lines[line_index + 1 :] if line_index >= 0 else entry.lines
    for line in after[:2]:
        line = _without_contacts(line)
        if is_degree_list(line):
            continue  # the letters after the name ("MD PhD FRCP"), set apart under it
        if line and line != name and len(line.split()) <= 14 and ROLE_WORDS.search(line) and not is_sentence(line):
            return line
    return _biography_role(entry.lines[:4], name)


def _trimmed(tail: str) -> str:
    """What follows a name without the punctuation around it; a closing bracket stays where it
    closes one the role opened ("PhD student (2024–)")."""
    text = tail.strip(" ,;:|-–—").lstrip("(").strip(" ,;:|-–—")
    return text.rstrip(")").strip(" ,;:|-–—") if text.count(")") > text.count("(") else text


def _biography_role(lines: list[str], name: str) -> str:
    """The role a biography states of its person in its opening sentence, where the sentence
    names them by first name, surname or pronoun: "Manuel is a Postdoctoral Scientist at X"."""
    words = name.split()
    called = {words[0], words[-1], "He", "She", "They"}
    for line in lines:
        if clean_person_name(line) == name:
            continue  # the name with its degree ("Claire Ashworth, PhD"), not a sentence about them
        subject, _, rest = line.partition(" ")
        if subject in called or line.startswith(name + " "):
            role = _role_phrase(line[len(name) :] if line.startswith(name + " ") else rest)
            if role:
                return role
    return ""


#: "is a fourth-year PhD student working on …", "is Professor of Chemistry": the role a biography
#: sentence states (a title without its article is capitalised).
_BIO_ROLE = re.compile(
    r"^(?:is|was)\s+(?:currently\s+|now\s+)?(?:(?:an?|the)\s+|(?-i:(?=[A-Z])))(?P<role>[^,.;()]{2,80}?)"
    r"(?=\s+(?:working|who|whose|studying|researching|focusing|interested|advised|supervised|and\s+(?:is|works))\b"
    r"|\s*[,.;(]|\s*$)",
    re.I,
)
#: Where a role phrase ends: after a closing bracket ("PhD student (2024–)"), at a sentence's full
#: stop (not a dotted degree's: "Ph.D. student", "M.S. student") or a semicolon.
_PHRASE_END = re.compile(
    r"(?<=\))|(?<!\.[A-Za-z])\.\s|;"
    # A field of its own after the role, set inline beside it: "PhD Student Co-advisor: Prof. X".
    r"|\s+(?=(?:Co-?)?(?:advisor|adviser|supervisor|mentor|host|office|email|website|research|interests?)s?:\s)"
    r"|\s+(?=co-?advised\b|advised by\b|supervised by\b)",
    re.I,
)


def _role_phrase(tail: str) -> str:
    """The role in what follows a name: the whole of a short role line, the role a biography
    sentence states, or the role before a sentence goes on ("PhD candidate, models calving …")."""
    if not tail:
        return ""
    if bio := _BIO_ROLE.match(tail):
        role = bio.group("role").strip()
        return role if ROLE_WORDS.search(role) and len(role.split()) <= 14 else ""
    text = _PHRASE_END.split(tail, maxsplit=1)[0].strip(" ,")
    if text.count(")") > text.count("("):
        text = text.replace(")", "", 1).strip(" ,")  # "MS student) builds radars": the bracket the role stood in
    if len(text.split()) <= 14 and ROLE_WORDS.search(text) and not is_sentence(text):
        return text
    first = text.split(",", 1)[0].strip()
    if first != text and len(first.split()) <= 8 and ROLE_WORDS.search(first) and not is_sentence(first):
        return first
    return ""


#: A verb makes a line a sentence; "lead" is one only in lower case and not a post's ("Group Lead", "team lead").
_VERB = re.compile(r"\b(?:is|was|am|are|were|has|have|had|joined|received|obtained|works?|worked"
                   r"|(?<!group )(?<!team )(?<!project )(?-i:leads?)|studies|studied|focuses|interested)\b", re.I)


def is_sentence(line: str) -> bool:
    """A line of a biography ("Jane is a PhD student in …"), not a role."""
    return bool(_VERB.search(line)) or (line.endswith(".") and len(line.split()) > 6)


def _without_contacts(text: str) -> str:
    """A text without the addresses and the bracketed link labels set in it ("(website)", "[CV]")."""
    text = _BRACKETED.sub(lambda m: "" if _a_link_label(m.group(1)) else m.group(0), _EMAIL.sub("", text))
    return clean_text(text).strip(" ,;:|-–—")


def _a_link_label(text: str) -> bool:
    return not text.isdigit() and LINK_WORDS.match(text)


_BRACKETED = re.compile(r"\s*[(\[]\s*([^()\[\]]{1,30}?)\s*[)\]]")


def _role(stated: str, entry: Entry, context: Context, columns: dict[str, str]) -> str:
    group = "" if GENERIC_GROUP.match(context.group or "") else singular(clean_text(context.group))
    if context.alumni or _labelled_alumni(entry):
        step = (
            _where_they_went(columns.get("next", ""))
            or next(filter(None, map(_went_to, entry.lines)), None)
            or ((m := _DASHED_NEXT.search(entry.lines[0] if entry.lines else "")) and m.group("next"))
            or _last_cell_a_post(entry, stated)
        )
        if step:
            return f"Alumni (now {clean_text(step).strip(' .,;')})"
        return f"Alumni ({stated})" if stated and not ALUMNI_WORDS.search(stated) else "Alumni"
    if stated and group and _NEXT_STEP.match(stated):
        return f"{group} ({stated})"  # "Students (now Assistant Professor at X)"
    role = stated or group
    if role and columns.get("years"):
        return f"{role} ({columns['years']})"  # "Graduate Student (2019-2025)": when the years end, news
    return role


def _went_to(text: str) -> str | None:
    """Where a former member went, as a line says it after "now" or an arrow; None if it does not."""
    found = _NEXT_STEP.search(text)
    return found.group("next") if found else None


def _where_they_went(cell: str) -> str:
    """A "where they went" column's cell, past what it says first of their time here ("PhD 2024,
    now Scientist at X" under "Former position and current affiliation")."""
    return _went_to(cell) or cell


def _last_cell_a_post(entry: Entry, stated: str) -> str:
    """A former member's row without column names: its last cell, when it reads as a post and its place
    ("Dr. Ana Lima | PhD 2023 | Process Chemist, Adrel Pharma"), is where they went."""
    if len(entry.cells) < 3 or entry.columns:
        return ""
    last = clean_text(entry.cells[-1])
    if not last or last == stated or len(last.split()) > 14 or "," not in last or not last[0].isupper():
        return ""
    return "" if _DEGREE_WITH_YEAR.fullmatch(last) else last


_DEGREE_WITH_YEAR = re.compile(r"(?:ph\.?\s?d|m\.?\s?sc?|m\.?\s?a|b\.?\s?sc?|postdoc)\.?,?\s*(?:19|20)\d\d.*", re.I)


#: What a table's column holds, by the words of its header.
_COLUMN_WORDS = (
    ("next", re.compile(r"\b(?:now|current|after|next|destination|placement|where|went|first (?:position|job|"
                        r"employment|appointment)|subsequent)\b", re.I)),
    ("years", re.compile(r"\b(?:years?|time|period|dates?|when|since|tenure)\b", re.I)),
    ("role", re.compile(r"\b(?:role|position|title|status|program|degree)\b", re.I)),
)


def _columns(entry: Entry) -> dict[str, str]:
    """The cells of a table row that its header names: role, years, where they went."""
    found: dict[str, str] = {}
    for column, cell in zip(entry.columns, entry.cells, strict=False):
        for name, words in _COLUMN_WORDS:
            if name not in found and words.search(column) and cell and len(cell) <= 120:
                found[name] = clean_text(cell)
                break
    return found


def _labelled_alumni(entry: Entry) -> bool:
    """A card that carries its own group label saying the person has left ("Past lab member")."""
    return any(len(line.split()) <= 5 and ALUMNI_WORDS.search(line) for line in entry.lines)


_UNCHANGED_PLURALS = ("ss", "us", "is", "ics")


def singular(group: str) -> str:
    """A group heading as one member's role: "PhD Students" -> "PhD Student", "Postdocs" -> "Postdoc"."""
    head, _, last = group.rpartition(" ")
    lowered = last.lower()
    if lowered.endswith("ies") and len(last) > 4:
        last = last[:-3] + "y"
    elif lowered.endswith("s") and not lowered.endswith(_UNCHANGED_PLURALS) and len(last) > 3:
        last = last[:-1]
    return f"{head} {last}" if head else last


#: What follows a person's name where a biography, not a citation, opens: "Jane Doe is Professor of …".
_BIOGRAPHY_OPENING = re.compile(r"^,?\s+(?:is|was|joined|has been|holds|leads)\b")
_CITATION = re.compile(r"\b(?:19|20)\d\d\b.*\b(?:journal|proceedings|conference|vol\.|pp\.)", re.I)


def _looks_like_citation(text: str, name: str) -> bool:
    """A year then a journal's words, in a text that is no biography of ``name`` ("… received her
    D.Phil. in 2003 … Associate Editor of the Journal of X")."""
    if text.startswith(name) and _BIOGRAPHY_OPENING.match(text[len(name) :]):
        return False
    return len(text) > 80 and _CITATION.search(text) is not None


def _opens_an_author_list(line: str) -> bool:
    """A line that opens with two or more authors and goes on ("Diallo A, Keita B. *Trop Health Rep*
    2025;20:e87."): a paper card's citation, its first author no member."""
    cut = author_prefix(line)
    if cut == 0 or len(line[cut:].split()) < 2:
        return False
    # Two names with a surname each: "Ana Ferreyra, M.S." is one person and her degree, "Jack Pope, LDEO REU"
    # one person and their programme.
    pieces = split_author_list(line[:cut])
    return sum(any(_a_surname(word) for word in piece.split()) for piece in pieces) >= 2


def _a_surname(word: str) -> bool:
    return sum(c.isalpha() for c in word) > 2 and not word.isupper()
