"""Reading an award from an entry: title, organisation, year.

"2024 Early Career Award, Society for Marine Ecology", "Best Paper Award, CVPR 2023",
"NSF CAREER Award (2022)", "Fellow of the Royal Society, 2020: for …".
"""

from __future__ import annotations

import re

from extractors.reading.context import Context, Reading, is_noise, is_prose
from extractors.reading.dates import find_range, parse_date_text
from extractors.reading.entries import Entry
from extractors.reading.names import is_person_name
from watcher.records import Award, Paper
from watcher.text import clean_text, clean_title, parse_year

__all__ = ["AWARD_WORDS", "awards_in_prose", "paper_award", "parse_award_line", "read_award"]

AWARD_WORDS = re.compile(
    r"\b(?:award(?:ed|ee)?s?|prizes?|medals?|honou?rs?|honou?rable mention|fellows?(?:hip)?s?|scholarships?"
    r"|grants?|distinction|recognition|winner|won|finalist|best (?:paper|student|poster|demo)|career"
    r"|laureate|nominee|nominated|runner[- ]up|outstanding|excellence|distinguished|young investigator"
    r"|early career|travel grant|stipend|endowed|chair)\b",
    re.I,
)
_REASON = re.compile(r"(?<=\d{4})\s*[:–—]\s+|\s+[–—]\s+|:\s+(?=for\b|awarded\b|given\b)")
#: A leading year or span: "2023:", "(2021-25)", "2021 – 2025 —"; "2022 — 51 Pegasi b Fellowship" keeps its 51.
_LEADING_YEAR = re.compile(
    r"^\s*[(\[]?(?:19|20)\d\d(?:[./]\d{1,2}(?!\d))?(?:\s*[-–—/]\s*(?:19|20)\d\d|[-–—/](?:19|20)?\d\d)?[)\]]?"
    r"\s*[:,\-–—.]?\s*"
)
_TRAILING_YEAR = re.compile(r"[,(\s]*\b(?:19|20)\d\d\b(?:\s*[-–—/]\s*(?:19|20)?\d\d)?\)?[.,]?\s*$")
_COMMA = re.compile(r",\s+")
#: The most characters of a card's line that gives only its award's year ("2024", "March 2024").
_YEAR_LINE = 20
_QUOTED_PROJECT = re.compile(r"[“\"]([^”\"]{10,200})[”\"]")
_HONOURED = re.compile(r"^for\s+[“\"*_]", re.I)
_FOR_END = re.compile(r"\bfor\s*$", re.I)
#: A few capitalised words after a dash, naming who gave an award ("– CVPR 2023"), not a reason.
_GIVER = re.compile(r"^(?!For\b)[A-Z][\w&.'-]*(?:\s+(?:[A-Z0-9][\w&.'-]*|of|the|and|for|on|in)){0,6}\.?$")
_YEAR_WORD = re.compile(r"\b(?:19|20)\d\d\b")
_THANKS = re.compile(
    r"\b(?:we|our|this work|this research|the lab)\b.{0,80}\b(?:acknowledge|grateful|thank|thanks|supported by"
    r"|funded by|support from)\b"
    # An acknowledgement of country: "X acknowledges the Traditional Owners of the land on which we work".
    r"|\backnowledges?\b.{0,60}\btraditional (?:owners|custodians)\b",
    re.I,
)
#: How to reach someone, not what they won: an address, "Contact:", "Bookings:", "Phone:".
_CONTACT = re.compile(r"\S@\S|^\s*(?:contact|bookings?|enquiries|inquiries|phone|tel|e-?mail|address|office)\b", re.I)
_TRAILING_BRACKET = re.compile(r"\s*\(([^()]{3,60})\)\s*$")
_COPYRIGHT = re.compile(r"copyright|©|all rights reserved", re.I)
_ONLY_HEADING_WORDS = re.compile(
    r"(?:(?:awards?|honou?rs?|prizes?|fellowships?|grants?|distinctions?|recognitions?)(?:\s*(?:&|and|,)\s*)?)+",
    re.I,
)


def read_award(entry: Entry, context: Context) -> Reading | None:
    lines = [line for line in entry.lines if not is_noise(line)]
    if not lines or any(_COPYRIGHT.search(line) for line in entry.lines):
        return None  # nothing but furniture, or a page's footer (its address, its copyright)
    if all(len(line) <= _YEAR_LINE * 2 and _only_a_date(line) for line in lines):
        return None  # "Last updated" over its date: the label is furniture, and so is the date
    line, dated = _award_cells(entry) if entry.cells else (lines[0], "")
    if not entry.cells and len(lines) > 1 and _only_a_date(lines[0]):
        line = f"{lines[0]} {lines[1]}"  # a row of a CV: its year in a column of its own, then the honour
    if entry.heading and not entry.cells and entry.heading in lines and AWARD_WORDS.search(entry.heading):
        line = entry.heading  # a card titled by its award, its year and recipient on lines of their own
    if _THANKS.search(line) or _CONTACT.search(line):
        return None  # "We gratefully acknowledge support from …", "Contact: Dr. X": not an honour
    award = parse_award_line(line, [s.text for s in entry.links])
    if award is None or _ONLY_HEADING_WORDS.fullmatch(award.title):
        return None  # "Awards", "Honors & Awards": a heading or a menu link, not an award
    if dated:  # a column of its own dates the award, not a number inside its name ("CER-2021C2-23817")
        award = Award(title=award.title, organization=award.organization, year=_start_year(dated) or award.year)
    if award.year is None and line is entry.heading:
        year = next((y for other in lines if (y := parse_year(other)) and len(other) <= _YEAR_LINE), None)
        award = Award(title=award.title, organization=award.organization, year=year)
    if award.year is None and context.date:
        award = Award(title=award.title, organization=award.organization, year=parse_year(context.date))
    named = AWARD_WORDS.search(line) is not None
    if context.loose and not named and award.year is None:
        return None
    score = 0.3 + (0.35 if named else 0.0) + (0.2 if award.year else 0.0)
    if is_prose(line, 25):
        score -= 0.3
    return Reading.of(award, score)


#: Header names of a column that says who received an award, not what it is.
_RECIPIENT_COLUMN = re.compile(r"^(?:recipients?|awardees?|winners?|names?|students?|members?|who|honou?rees?)$")


#: A grant's cell that says the holder's part in it, not what it is or who gave it.
_HOLDER_PART = re.compile(r"^(?:principal investigator|(?:co-?)?(?:investigator|applicant|pi|i)|lead applicant)$", re.I)


def _award_cells(entry: Entry) -> tuple[str, str]:
    """A table row's or a definition's cells that tell the award (its year, name, giver), parted as one
    line parts them, without the recipient's column or the holder's part; and the cells that only date it."""
    cells = [
        cell
        for index, cell in enumerate(entry.cells)
        if not is_noise(cell)
        and not (index < len(entry.columns) and _RECIPIENT_COLUMN.match(entry.columns[index].strip(" :")))
        and not _HOLDER_PART.match(cell.strip(" .()"))
    ]
    dates = {cell for cell in cells if _only_a_date(cell)}
    return ", ".join(c for c in cells if c not in dates), " ".join(c for c in cells if c in dates)


def _start_year(text: str) -> int | None:
    """The year a text dates an award by: a grant held over years by its start ("Investigator Grant, 2024–2028")."""
    held = find_range(text)
    return parse_year(held[0]) if held else parse_year(text)


def _only_a_date(text: str) -> bool:
    """A date or a span of dates and nothing else: "2022", "Jan 2023 - Dec 2026", "2012–"."""
    text = text.strip(" ,.;()")
    if parse_date_text(text) is not None:
        return True
    span = find_range(text)
    return span is not None and span[2] == 0 and span[3] >= len(text.rstrip(" -–—"))


def parse_award_line(line: str, link_texts: list[str] | tuple[str, ...] = ()) -> Award | None:
    """An award from one line; None for an empty or overlong one."""
    text = clean_text(line)
    if not text or len(text) > 300:
        return None
    year = _start_year(text)
    # A leading year is the award's ("2023: X Award"); a year then a colon later starts the reason.
    pieces = _REASON.split(_LEADING_YEAR.sub("", text), maxsplit=1)
    main = pieces[0]
    recipient, _, award = main.partition(", ")
    if len(pieces) == 2 and is_person_name(main) and AWARD_WORDS.search(pieces[1]):
        main = pieces[1]  # "Priya Raman – NSF Graduate Fellowship": the recipient, then the award
    elif award and is_person_name(recipient) and AWARD_WORDS.search(award):
        main = award  # "2024 — Amara Chen, Cascadia Graduate Fellowship"
    elif len(pieces) == 2 and is_person_name(pieces[1]):
        pass  # "ERC Consolidator Grant – Katharina Vossberg": who received it, not who gave it
    elif len(pieces) == 2 and _GIVER.match(pieces[1]):
        main = f"{main}, {pieces[1]}"  # "Best Paper Award – CVPR 2023": who gave it, not why
    if (bracket := _TRAILING_BRACKET.search(main)) and is_person_name(bracket.group(1)):
        main = main[: bracket.start()]  # "… Fellowship, Heising-Simons Foundation (Ana Ortúzar)": who received it
    main = _TRAILING_YEAR.sub("", main).strip(" ,.;")
    if not main:
        return None
    # "…, for “Ice Roads and Winter Credit”": what the award honoured, neither its name nor its giver.
    parts = [p.strip() for p in _COMMA.split(main) if p.strip() and not _HONOURED.match(p.strip())] or [main]
    title, organization = parts[0], (", ".join(parts[1:]) or None)
    quoted = _QUOTED_PROJECT.search(main)
    if quoted and not AWARD_WORDS.search(main[: quoted.start()]) and not _FOR_END.search(main[: quoted.start()]):
        # A grant named by its sponsor, then its project in quotes ("National Institutes of Health,
        # NIGMS, R35 GM155408, “Radical Approaches to …”"): the project names the grant.
        title, organization = quoted.group(1).strip(" ,."), main[: quoted.start()].strip(" ,;") or None
    label = next((t for t in link_texts if t and t in main and len(t.split()) >= 2), None)
    if label and label != title:
        organization = ", ".join(p for p in parts if label not in p) or None
        title = label
    if organization and (parse_year(organization) or len(organization.split()) > 8):
        organization = _YEAR_WORD.sub("", organization).strip(" ,") or None
    if title.count("(") > title.count(")"):
        title += ")"  # "Best Paper Award (ICRA 2024)" without its year
    if (bracket := _TRAILING_BRACKET.search(title)) and is_person_name(bracket.group(1)):
        title = title[: bracket.start()]  # "Dissertation Award (Julia Neumann)": who received it
    title = _ARTICLE.sub("", title)  # "a Sloan Research Fellowship" in a list after "supported by"
    return Award(title=clean_title(title), organization=clean_title(organization) or None, year=year)


_ARTICLE = re.compile(r"^(?:a|an|the)\s+(?=\S)")
#: How a paper's award note opens: "This paper received the Best Paper Award at X".
_RECEIVED = re.compile(
    r"^(?:this (?:paper|work|article)\s+)?(?:received|won|was awarded|got)\s+(?:the\s+|an?\s+)?", re.I
)
_AT = re.compile(r"\s+(?:at|from|in)\s+.*$")


def paper_award(text: object, paper: Paper) -> Award | None:
    """The award a publication list gives a paper in a field of its entry (``award: Best Paper
    Award``), given by where the paper appeared; None for a flag (``award: true``) or a note
    that names no award."""
    if not isinstance(text, str):
        return None
    words = clean_text(text).strip(" .!")
    stated = _RECEIVED.sub("", words)
    title = clean_title(_AT.sub("", stated) if stated != words else stated)
    if not title or len(title.split()) > 12 or not AWARD_WORDS.search(title):
        return None  # "Oral", "Spotlight": how the paper was presented, not an honour
    return Award(title=title, organization=paper.venue, year=paper.year)


#: A biography's sentence listing honours: "Her honours include the X Prize (2010), the Y Award
#: (2019) and the Z Medal (2026)." The list runs to the sentence's end (a stop before a space and a
#: capital, or the text's end).
_HONOURS_INCLUDE = re.compile(
    r"\b(?:honou?rs|awards|prizes|distinctions|recognitions)(?:\s+(?:and|&)\s+(?:awards|honou?rs|prizes))?"
    r"\s+(?:include[sd]?|have included)\s+(?P<list>.{5,400}?)(?:\.(?=\s+[A-Z]|\s*$)|$)",
    re.I,
)
_LIST_PARTS = re.compile(r",\s+(?:and\s+)?|\s+and\s+(?=the\b|an?\b|[A-Z])")


def awards_in_prose(text: str) -> list[Award]:
    """The honours a biography lists in one sentence, each named (and dated) as on a list's line."""
    awards = []
    for found in _HONOURS_INCLUDE.finditer(text):
        for part in _LIST_PARTS.split(found["list"]):
            part = re.sub(r"^(?:the|an?)\s+", "", part.strip())
            if AWARD_WORDS.search(part) and (award := parse_award_line(part)) is not None:
                awards.append(award)
    return awards

