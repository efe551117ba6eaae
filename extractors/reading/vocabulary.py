"""The words pages use to name their sections, and the kind of item each announces.

Shared by the section pass (headings, landmarks such as ``<section id="publications">``) and
the classifier. Every entry is a word a person would recognise on any academic site.
"""

from __future__ import annotations

import re

from watcher.text import clean_text

__all__ = [
    "ALUMNI_WORDS",
    "KIND_OF_WORDS",
    "heading_kind",
    "hint_kind",
    "is_funding_lead",
    "is_intro_heading",
    "is_loose_news_heading",
    "is_unlisted_heading",
    "is_year_heading",
]

#: (kind, words): the first kind whose words a heading holds wins.
KIND_OF_WORDS: tuple[tuple[str, str], ...] = (
    ("news", r"news|updates?|announcements?|what'?s new|latest|recent(?: news| updates| activities| events|$)"
     r"|happenings|highlights|blog posts?|(?:recent |latest )?posts"),
    ("award", r"awards?|honou?rs?|fellowships?|prizes?|scholarships?|grants?|recognitions?|distinctions?"
     r"|achievements?|funding|(?:research|current|pending|completed|past|grant) support"),
    ("paper", r"publications?|papers?|preprints?|manuscripts?|drafts?|articles?|research outputs?|theses|thesis"
     r"|books?|book chapters?|chapters|proceedings|journals?|conferences?|bibliography|working papers?"
     r"|work in progress|works? in progress|selected works?|submitted|under review|in press|patents?"
     r"|dissertations?|reports?|peer[- ]reviewed|refereed|forthcoming|accepted|pubs"
     # The humanities' words for their lists: "Edited volumes", "Essays", "Public history and other writing".
     r"|volumes?|monographs?|essays|writings|(?:other|public|selected|popular) writing|book reviews?"
     r"|(?:encyclopa?edia|dictionary|handbook|reference) entries"),
    ("role", r"experiences?|positions?|academic posts|posts held|employment|appointments?|education|qualifications"
     r"|career|work history"
     r"|internships?|affiliations?|professional|academic positions?|work|jobs?|training|background|degrees?|cv"),
    ("member", r"people|members?|students?|team|alumni|alumnae|postdocs?|post-?doctoral|collaborators?|interns?"
     r"|advisees|mentees|researchers|staff|visitors|faculty|principal investigators?|\bpis?\b|scientists"
     r"|engineers|undergrad\w*|graduates?|ph\.?\s?d\.?s?|masters?|doctoral|lab manager|director|former"
     r"|past|fellows|our lab|affiliates|scholars|trainees|technicians?|associates|assistants|visiting"
     r"|who we are|investigators?|advisors|our group|the team|the group"),
)
#: Words that say a person has left the group: "Alumni", "Former members", "Past students",
#: "Previous visitors", "Graduated"; in a heading, a group name, a data field or a card's label.
ALUMNI_WORDS = re.compile(r"\b(?:alum\w*|former|past|previous|graduated)\b", re.I)
#: Words that name news and nothing else; "Highlights", "Latest" or "Events" head research
#: summaries and intro bullets as often as dated updates.
_NEWS_PROPER = re.compile(r"\b(?:news|updates?|announcements?|what'?s new)\b", re.I)
_KIND_PATTERN = re.compile(
    "|".join(rf"(?P<{kind}>\b(?:{words})\b)" for kind, words in KIND_OF_WORDS), re.I
)
#: Where a heading's head noun phrase ends: "Publications by students" is about publications.
_QUALIFIER = re.compile(r"\s(?:by|of|from|for|with|in|at|on|about|to)\s", re.I)
_INTRO = re.compile(r"^(?:about(?: me| us)?|bio(?:graphy)?|short bio|introduction|welcome|home|profile|overview"
                    r"|hi!?|hello!?)$", re.I)
_YEARISH = re.compile(r"^(?:(?:19|20)\d\d(?:\s*[-–—/]\s*(?:(?:19|20)?\d\d|present))?|(?:before|pre-?|earlier)"
                      r"\s*(?:19|20)\d\d|older|earlier|past|archive"
                      # A cohort: "Class of 2026", "Cohort 2024", "2023 intake", "Entering class of 2025".
                      r"|(?:(?:the |entering |graduating |incoming )?class|cohort|intake|batch|entering)(?: of)?"
                      r"\s*[-:]?\s*(?:19|20)\d\d|(?:19|20)\d\d (?:cohort|class|intake|batch))$", re.I)
_HINT_WORDS = re.compile(r"[a-z]+")
#: Class and id words are terser and shared with page chrome ("btn-group", "list-group"): only
#: words that name content count.
_HINT_PATTERNS = tuple(
    (kind, re.compile(rf"\b(?:{words})\b"))
    for kind, words in (
        ("news", r"news|updates|announcements"),
        ("award", r"awards?|honou?rs|prizes"),
        ("paper", r"publications?|papers|pubs?|bibliography|preprints"),
        ("role", r"experiences?|employment|positions|education"),
        ("member", r"people|members?|team|alumni|students|persons?"),
    )
)


#: A line that leads into a list of what pays for the work: "I am supported by", "Our research is
#: funded by:", "With funding from".
_FUNDING_LEAD = re.compile(
    r"\b(?:(?:supported|funded|sponsored|financed) by|(?:funding|support) (?:from|by|provided by))\s*:?$", re.I
)


def is_funding_lead(line: str) -> bool:
    """A short line that ends by leading into the grants that follow ("I am supported by")."""
    text = clean_text(line).strip(" #*")
    return len(text.split()) <= 8 and _FUNDING_LEAD.search(text) is not None


def heading_kind(heading: str) -> str | None:
    """The kind of item a heading announces ("Selected Publications" -> "paper"), or None."""
    text = clean_text(heading).strip(" :#*")
    if " / " in text and len(text.split()) > 8:
        # A bilingual heading ("Articles avec comité de lecture / Refereed Journal Articles"): its halves agree.
        kinds = {heading_kind(half) for half in text.split(" / ", 1)} - {None}
        return kinds.pop() if len(kinds) == 1 else None
    if not text or len(text) > 60 or len(text.split()) > 8:
        return None
    if is_funding_lead(text):
        return "award"  # before "work" in "This work is funded by" names positions
    if _CONTINUATION.match(text):
        return None  # "More articles …", "Older posts": more of the list above, of its kind
    if _IN_THE_NEWS.search(text):
        return None  # "In the News", "Our Lab in the News": what the press wrote, not the site's news
    head = _head_phrase(text)
    if _names_unlisted_things(head):
        return None  # "Past Talks", "Conference Presentations": the kind word only qualifies them
    # The last kind word of the head phrase names it: "Student Awards" are awards, "Research
    # Assistants" people.
    kind = None
    for match in _KIND_PATTERN.finditer(head):
        kind = match.lastgroup
    if kind is None and head != text and _CONTAINER_HEAD.search(head):
        for match in _KIND_PATTERN.finditer(text):
            kind = match.lastgroup
    return kind


#: A blog's heading over the links to its earlier posts, whatever it calls them.
_CONTINUATION = re.compile(
    r"^(?:more|older|earlier|other|further|previous)\s+(?:articles|posts|entries|items|stories)\b", re.I
)
#: Head nouns that hold a list named after them ("List of Publications", "A selection of papers"); a
#: field's name does not ("Sociology of Work" names no positions).
_CONTAINER_HEAD = re.compile(
    r"\b(?:list|lists|listing|overview|index|archive|archives|selection|collection|summary|catalogue|catalog|table"
    r"|record|compilation|roster|directory|gallery)$",
    re.I,
)


def _head_phrase(text: str) -> str:
    """The heading up to its first qualifier, unless a kind's own words run across it ("Work in
    Progress", "Papers in Press")."""
    cut = _QUALIFIER.search(text)
    if cut is None:
        return text
    if any(m.start() < cut.start() < m.end() for m in _KIND_PATTERN.finditer(text)):
        return text
    return text[: cut.start()]


#: Sections that list things watcher does not report: courses, talks, service, referees.
_UNLISTED = re.compile(
    r"\b(?:teaching|courses?|service|talks?|presentations?|seminars?|events?|lectures|references|referees|contact|projects?"
    r"|skills|outreach|volunteer(?:ing)?|software|code|datasets?|media|press|coverage|reviewing|refereeing|editorial"
    # A site builder's log of its own edits ("Recent site activity", "Recent changes").
    r"|activity|recent changes"
    # Writing for newspapers: opinion pieces are not the owner's papers.
    r"|op-?eds?|opinion pieces|opinion|commentary|commentaries|columns|policy writing"
    r"|in the news"
    # Meetings the owner ran: "Conferences organized", "Workshops co-organised".
    r"|(?:co-?)?organi[sz]ed|organi[sz]ing)\b",
    re.I,
)
#: Press coverage, as sites head it.
_IN_THE_NEWS = re.compile(r"\bin the news$", re.I)


#: Headings that join two lists ("Awards and Talks") name both.
_JOINED = re.compile(r"\s(?:and|&)\s|[,/+]")


def _names_unlisted_things(head: str) -> bool:
    """A head phrase whose last word names things watcher does not report, all of it one phrase."""
    words = head.split()
    if not words or _UNLISTED.fullmatch(words[-1]) is None or _JOINED.search(head) is not None:
        return False
    # A kind's own phrase that ends in such a word names that kind: "In Press" is a paper's stage.
    return not any(match.end() == len(head) for match in _KIND_PATTERN.finditer(head))


def is_unlisted_heading(heading: str) -> bool:
    """A heading over things that are not items to report ("Teaching", "Invited Talks",
    "Professional Service", "References"), and that names no kind of item."""
    text = clean_text(heading).strip(" :#*")
    return len(text.split()) <= 6 and _UNLISTED.search(text) is not None and heading_kind(text) is None


def is_loose_news_heading(heading: str) -> bool:
    """A heading that announces news only loosely ("Highlights", "Recent Events"): its entries
    are news when they are dated."""
    return heading_kind(heading) == "news" and _NEWS_PROPER.search(heading) is None


def hint_kind(hint: str) -> str | None:
    """The kind a class or id names ("publications", "news-list", "people-grid"), or None."""
    if not hint:
        return None
    words = " ".join(_HINT_WORDS.findall(hint))
    for kind, pattern in _HINT_PATTERNS:
        if pattern.search(words):
            return kind
    return None


def is_intro_heading(heading: str) -> bool:
    return bool(_INTRO.match(clean_text(heading).strip(" :#*!")))


#: The words of a heading that is a date and nothing else: "April 2025", "2025.04 — April 2025", "Spring 2024".
_DATE_WORDS = re.compile(
    r"(?:19|20)\d\d|\d{1,2}|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|spring|summer|autumn|fall|winter|[\s.,/:–—-]",
    re.I,
)


def is_year_heading(heading: str) -> bool:
    """A heading that groups items by time ("2024", "2019-2021", "Older", "April 2025")."""
    text = clean_text(heading).strip(" :#*")
    return bool(_YEARISH.match(text)) or (
        len(text) <= 40 and re.search(r"(?:19|20)\d\d", text) is not None and not _DATE_WORDS.sub("", text)
    )
