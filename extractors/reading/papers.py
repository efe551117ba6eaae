"""Reading a paper from an entry: title, authors, venue, year, DOI, arXiv id, link.

The title is the text the page sets apart for it, in this order: an element whose class names
a title, a heading inside the entry, a quoted text, a link or a bold span of several words that
is neither a list of names nor a venue, then the citation's own structure: after a leading
author list ("Doe, J., & Roe, B. (2022). Title. Venue."), or the first line or sentence when the
authors follow it ("Title. J. Doe, B. Roe. CVPR 2024."). Authors are the piece that is a list of
names; the venue is the piece that names a conference or journal, or the italic text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from extractors.reading.awards import paper_award
from extractors.reading.context import LINK_WORDS, Context, Reading, is_counted_label, is_noise, is_prose
from extractors.reading.dates import century_year, leading_date, parse_date_text
from extractors.reading.entries import Entry, is_menu_item
from extractors.reading.names import (
    author_prefix,
    is_degree_in_a_field,
    is_person_name,
    looks_like_authors,
    split_author_list,
)
from extractors.reading.tree import Span
from watcher.records import Paper
from watcher.text import AsciiFolded, clean_text, clean_title, find_arxiv, find_doi, parse_year

__all__ = ["author_names", "is_venue", "publication_status", "read_paper", "status_stated", "with_status"]

_QUOTED = re.compile(r"[\"“”«]([^\"“”«»]{8,300})[\"“”»]")
#: A title in single quotes (Harvard style: "Ellery, M. (2024) ‘Hanseatic credit’, *Past & Present*").
#: An apostrophe inside a word ("Bishop’s") does not close it; one character is read at a time.
_SINGLE_QUOTED = re.compile(r"(?:^|(?<=[\s(]))[‘']((?:[^‘’'\n]|[’'](?=[a-z])){4,300})[’'](?=[\s,.;:?!]|$)")
#: A chapter as the humanities cite it: its title in quotes, then "in" the book it stands in.
_CHAPTER = re.compile(
    r"^[\"“]([^\"“”]{2,300})[\"”],?\s+in\s+"
    # Unquoted, in Chicago's way: "Testimony. In Marta Quintero, ed., *The Oxford Handbook of …*"
    r"|^([^.\"“”]{2,300}?)\.\s+In:?\s+[A-Z][^()]{0,200}?,?\s+\(?(?:eds?|editors?)\b"
)
#: Where a citation's sentence ends (after any word but a capital's initial: "kākā.", "/s/."): before a
#: capital, "with", "in", a status, or a venue written in lower case ("arXiv:2506.11873", "bioRxiv", "eLife").
_SENTENCE_BREAK = re.compile(
    r"(?<![A-Z])(?<=[\w)\]?!”\"'/])(?<!\bSt)(?<!\bMt)[.?!]\s+(?=[A-Z0-9\[(“\"]|with\b|in\b|to appear\b"
    r"|(?:arXiv|bioRxiv|medRxiv|chemRxiv|eLife|iScience|npj|eprint|preprint)\b)"
)
_URL = re.compile(r"https?://\S+")
#: A DOI written out: its numbers ("10.1016/j.jaccao.2025.11.004") are no year of the paper's.
_DOI_NAME = re.compile(r"\b10\.\d{4,9}/\S+")
#: An alphabetic bibliography's label: its authors' initials and year ("SFK+24", "Ngu24").
_CITATION_KEY = re.compile(r"[A-Z][A-Za-z]{0,5}\+?\d{2,4}[a-z]?")
#: A reference's number or label: "[12]", "J3.", "(4)", and alpha-style keys ("[HBN25]", "[Knu84]", "[AB+19]").
_NUMBERING = re.compile(
    rf"^\s*(?:\[\s*[A-Za-z]?\d{{1,4}}\s*\]|\[\s*{_CITATION_KEY.pattern}\s*\]|\(?[A-Za-z]?\d{{1,4}}[.)]"
    # A venue's tag before the title: "[CCS '24]", "[USENIX Sec '24]", "[NeurIPS 2025]".
    r"|\[\s*[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2}\s+['’]?(?:19|20)?\d\d\s*\])\s*"
)
#: Where a paper stands, as pages write it before the journal: "Revise and resubmit at X".
_LEADING_STATUS_WORDS = (
    r"to appear|(?:conditionally )?accepted|forthcoming|under (?:review|revision|submission)"
    r"|submitted|resubmitted|revise (?:and|&) resubmit|r&r|in press"
)
#: A status right before an italic journal: "Revise and resubmit at *X*", "Under review at *X*",
#: "Second-round revise and resubmit, *X*".
_STATUS_BEFORE = re.compile(
    rf"(?P<status>(?:(?:second|third|final|2nd|3rd)[- ]round\s+)?(?:{_LEADING_STATUS_WORDS})"
    rf"(?: (?:at|in|to|for|with|by))?)[,:]?\s*$",
    re.I,
)
_VENUE_PREFIX = re.compile(
    r"^(?:in|at|published in|proceedings of|presented at|(?P<status>to appear (?:in|at)"
    r"|(?:conditionally )?accepted (?:to|at|by|in|for publication in)|forthcoming (?:in|at)"
    r"|under (?:review|revision|submission) (?:at|for|in|with)|submitted to|resubmitted to"
    r"|revise and resubmit (?:at|to|in)|r&r (?:at|in)|in press (?:at|in)))\b[:\s]*",
    re.I,
)
_YEAR_IN_PARENS = re.compile(
    r"^\s*[(\[]\s*(?:(?:19|20)\d\d[a-z]?|n\.\s?d\.|in press|forthcoming|in review|under review|submitted"
    r"|accepted|in preparation|to appear)[^)\]]{0,20}[)\]]\s*[.,:]?\s*",
    re.I,
)
VENUE_WORDS = AsciiFolded.of(
    # A journal named by a common word ("Science", "Cell Reports") names it only from its start.
    r"^(?:nature|science|cell|genome|bioinformatics)\b"
    r"|\b(?:conference|proceedings|journal|transactions|workshop|symposium|arxiv|preprint"
    r"|university press|working paper|discussion paper|technical report"
    r"|thesis|dissertation|neurips|nips|icml|iclr|cvpr|iccv|eccv|acl|emnlp|naacl|aaai|ijcai|siggraph|chi|kdd"
    r"|www|sigir|icra|iros|corl|rss|mlsys|osdi|sosp|nsdi|vldb|sigmod|tpami|jmlr|plos"
    r"|lancet|nejm|pnas|econometrica|biorxiv|medrxiv|ssrn|nber|ieee|acm|springer"
    r"|elsevier|wiley|in press|forthcoming|accepted|submitted|under review|to appear|vol|volume|pp|pages)\b"
)
#: Journal words that titles use as words too ("A Review of …", "Merger Review with Diversion Ratios",
#: "Press Freedom and …"): a venue's only where no sentence runs on from them.
_COMMON_VENUE_WORDS = r"review|letters|press|bulletin|quarterly|magazine|annals"
_COMMON_VENUE_WORD = AsciiFolded.of(rf"\b(?:{_COMMON_VENUE_WORDS})\b")
_RUNS_ON = re.compile(rf"^(?:A|An)\s|(?i:\b(?:{_COMMON_VENUE_WORDS}))\s+(?!of\b)[a-z]")
_PRESENTATION = re.compile(r"\b(?:spotlight|oral|poster|highlight)(?: presentation)?\b", re.I)
#: A few words and a month in brackets: a journal's short name and the issue that printed the paper.
_NAME_AND_MONTH = re.compile(r"^\S+(?:\s+\S+){0,3}\s*\((?P<date>[^()]{4,30})\)$")
_BRACKETED_YEAR = re.compile(r"[\[(]\s*(?:19|20)\d\d\s*[\])]")
_SHORT_VENUE = re.compile(r"^\[?([A-Z][A-Za-z&\-]{1,12})\s*['’](\d\d)\]?$")
_PAPER_HOST = re.compile(r"arxiv\.org|doi\.org|\.pdf(?:$|\?)|openreview\.net|aclanthology|dl\.acm\.org|ieeexplore"
                         r"|springer\.com|sciencedirect|biorxiv|medrxiv|ssrn\.com|nber\.org|pubmed|ncbi\.nlm", re.I)
_PAPER_LINK = AsciiFolded.of(r"^\[?\s*(?:pdf|paper|arxiv|doi|preprint|journal|publisher|published version|full text)")
#: A line's label saying that what follows is press about the work: "Media coverage: The Economist".
_PRESS_LABEL = r"(?:media|press|news)(?: coverage| mentions?)?\s*:"
_PRESS_LINE = re.compile(_PRESS_LABEL, re.I)
#: How a conference presented a paper: a mark beside its venue, not the venue.
_PRESENTED_AS = re.compile(r"(?:spotlight|oral|poster|highlight|lightning talk)(?: (?:presentation|paper|talk))?", re.I)
#: The most characters of a line under a paper that is a legend of its marks, not part of it.
_LEGEND_LINE = 60


def _a_legend(text: str) -> bool:
    """A legend of a list's marks or an instruction ("* equal contribution", "Lab members in bold")."""
    return _INSTRUCTION.search(text.lstrip(" *†‡§#")) is not None

_INSTRUCTION = re.compile(
    r"\b(?:full list|complete list|please (?:see|visit|refer|e-?mail|contact|write)|click here|see (?:my|also|the|our) "
    r"|can be found|listed (?:on|at)|for (?:a|the) (?:full|complete|up-to-date)|up-to-date list|more publications"
    r"|e-?mail me for|^\W{0,2}(?:all )?drafts? (?:are )?available (?:on|upon) request"
    # A legend of the list's marks: "Lab members are listed by name; Camille in bold", "* equal contribution".
    r"|(?:are|is|in|set in|shown in) (?:bold|underlined|italics?)\b|\bunderlined\b|\b(?:denotes?|indicates?) "
    r"(?:equal|corresponding|student|trainee|mentee)|^\W{0,2}(?:equal contribution|corresponding author)"
    r"|not yet peer[- ]reviewed)"
    r"|^" + _PRESS_LABEL,
    re.I,
)


def is_venue(text: str) -> bool:
    """Whether a short text names where a paper appeared ("NeurIPS 2024", "Nature Physics")."""
    words = len(text.split())
    if not (0 < words <= 14 and (words <= 5 or parse_year(text) is not None)):
        return False
    return VENUE_WORDS.search(text) or (_COMMON_VENUE_WORD.search(text) and _RUNS_ON.search(text) is None)


#: Where a paper stands before it is published, as pages write it after the journal.
_STATUS_WORDS = (
    r"forthcoming|to appear|in press|online first|early view|advance online publication|just accepted"
    r"|(?:epub|online) ahead of print|asap"
    r"|(?:conditionally )?accepted(?: in principle| for publication)?|under (?:review|revision)|in (?:review|revision)"
    r"|(?:minor |major )?revision requested|revise (?:and|&) resubmit|r&r|submitted|under contract|in production"
)
#: Where an unfinished paper stands: nowhere yet, so no venue.
_DRAFT_WORDS = r"(?:work )?in (?:progress|preparation)|draft|ongoing"
_DRAFT_STATE = re.compile(_DRAFT_WORDS, re.I)
#: "X, to appear", "*X* (forthcoming)", and Vancouver's "*X*. 2024;in press".
_STATUS = re.compile(rf"(?:(?<=[.,;:]\s)|(?<=[(;]))(?P<status>{_STATUS_WORDS})\b", re.I)
#: A status standing where the year goes in an author-date citation: "Doe, J., & Roe, B. (in press). Title.",
#: "Doe, Jane, and Bo Roe. Forthcoming. “Title.”" (ASA, Chicago).
_STATUS_FOR_YEAR = re.compile(rf"(?:(?<=\()|(?<=\.\s))(?P<status>{_STATUS_WORDS})\)?\.(?:\s|$)", re.I)
#: A stage set as a label before a citation: "Under review · ", "In press — ".
_STAGE_LABEL = re.compile(rf"^(?P<stage>{_STATUS_WORDS})(?:\s*[·•|:–—]\s+|\s*$)", re.I)
#: A status closing a piece ("Journal of X, to appear") or standing as its own ("Accepted in principle.").
_TRAILING_STATUS = re.compile(rf"(?:^|[,;:]\s*|\s\()\(?(?:{_STATUS_WORDS})\)?[.\s]*$", re.I)
#: A sentence of a citation that only says where the paper stands ("Epub ahead of print.").
_STATUS_SENTENCE = re.compile(rf"(?:{_STATUS_WORDS})\.?", re.I)


#: What follows a journal's name in a citation: its volume (a year is none: "*Organomet. React.*
#: **2024**, *43*" is ACS style), then the year in brackets or the pages.
_VOLUME_THEN = (
    r"(?:vol\.\s*)?(?!(?:19|20)\d\d\b)\d{1,4}\s*(?:\(\d{1,3}\)\s*|,\s*no\.\s*\d{1,4}\s*)?"
    r"(?:\((?:19|20)\d\d\)|,\s*[a-z]{0,5}\d)"  # an article number may open with letters: "5, ycaf031"
)
_JOURNAL_TAIL = re.compile(rf"^(?:[.,]?\s*|\s(?:[A-Z][a-z]{{0,8}}\.\s){{1,2}}){_VOLUME_THEN}")
#: The rest of an abbreviated name after a cut at its own full stop: "Stochastic Process" + ". Appl. 142".
_ABBREVIATION_TAIL = re.compile(rf"^\.\s(?:[A-Z][a-z]{{0,8}}\.\s){{1,2}}{_VOLUME_THEN}")
#: A draft's state set after its title with a dash ("… Inquiry — draft; comments welcome", "— in progress").
_DRAFT_AFTER_TITLE = re.compile(
    rf"\s+[—–]\s+[^—–]{{0,40}}\b(?:{_DRAFT_WORDS}|on request|comments welcome|under review|submitted)\b"
    r"[^—–]{0,40}$",
    re.I,
)
#: A link to a record of the paper, named by its identifier: "PMID: 33970115", "doi:10.1/x", "arXiv:2401.01234".
_ID_LABEL = re.compile(r"^\[?(?:pmid|pmcid|doi|arxiv|isbn|issn|hal|ssrn)\s*:?\s*[\w./-]+\]?$", re.I)
#: A book review listed by what it reviews: "Review of Ama Owusu, *Trust without Testimony* (…)".
_REVIEW_OF = re.compile(r"^(?:book )?review of\b", re.I)
#: A review described in brackets, as APA 7 writes it: "[Review of the book *Title*, by A. Author]". Alone it
#: names the reviewed work, as other styles give it ("Review of *Title*, by A. Author"); after a review's own
#: title it is a note on that title.
_REVIEW_NOTE = re.compile(
    r"\[Review of (?:the )?(?:(?:edited )?book|film|novel|monograph|exhibition|album|volume)?\s*"
    r"(?P<work>[^\[\]]{2,300}?),\s+(?:by|edited by|ed\. by|directed by)\s[^\[\]]{1,300}\]",
    re.I,
)
#: Co-authors a title field holds after the title ("… Fee Cap (with Kwame Mensah)"): its authors, not its words.
_WITH_AFTER_TITLE = re.compile(
    r"(?<=\S)\s*\((?:joint |co-?(?:authored|written) )?with\s+[^()]{3,200}\)\s*$", re.I
)
#: Co-authors said before the title, as mathematicians list them: "(with G. Ferrandi) A remark on …".
_WITH_BEFORE_TITLE = re.compile(r"^\s*\((?:joint )?with\s+[^()]{3,200}\)\s*", re.I)


def _before_abbreviated_journal(title: str, text: str) -> str:
    """A title that ran on into the journal its comma leads to, abbreviated or cited by its volume
    and year ("…, Rev. Mat. Iberoam. 27 (2011)" read as "…, Rev"; "…, Mathematika 50 (2003), 121-140"),
    or into its arXiv number ("…, arXiv:2502.06644"): the title ends at that comma."""
    start = text.find(title)
    if start < 0:
        return title
    for cut in (m.start() for m in re.finditer(", ", title)):
        if cut == 0 or len(title[cut + 2 :].split()) > 8:
            continue
        rest = text[start + cut + 2 :]
        if _ARXIV_NUMBER.match(rest) or _VOLUME_AND_YEAR.match(rest):
            return title[:cut]
        journal = _abbreviated_journal(rest[:120])
        if journal and rest.startswith(journal.split(",")[0]):
            return title[:cut]
    return title


#: What a mathematician's citation ends with after the title's comma: "arXiv:2502.06644", or a
#: journal by its volume and year ("Mathematika 50 (2003)").
_ARXIV_NUMBER = re.compile(r"arXiv:\s*\d{4}\.\d{4,5}(?:v\d+)?\s*\.?$", re.I)
_VOLUME_AND_YEAR = re.compile(r"[A-Z][\w.&' -]{1,60}?\s\d{1,4}\s?\((?:19|20)\d\d\)")


#: A status badge set right after a title ("… sediments <span class="badge">Preprint</span>"): not its words.
_BADGE_AFTER_TITLE = re.compile(
    r"(?<=[a-z0-9)])\s+(?:Preprint|PREPRINT|New!?|NEW|In [Pp]ress|Under [Rr]eview|Forthcoming)$"
)


def _is_journal(candidate: str, text: str) -> bool:
    """Whether a title candidate is the journal, by the volume that follows it in the citation. A
    short capitalised name may be an abbreviated journal cut at its own full stop; a title before
    the journal's full stop is not ("… in random media. *Ann. Probab.* **51**")."""
    if candidate not in text:
        return False
    tail = text.split(candidate, 1)[1]
    if _JOURNAL_TAIL.match(tail):
        return True
    words = candidate.split()
    return len(words) <= 3 and all(word[:1].isupper() for word in words) and bool(_ABBREVIATION_TAIL.match(tail))


_YEAR_NEXT = re.compile(r"^[\s,.]*(?:19|20)\d\d\b")


def _title_before_marked_journal(entry: Entry, text: str) -> tuple[str, str] | None:
    """The sentence that opens a citation and the journal set in bold or italics after it, before
    its year: "Title of the work.**Plant Cell Biology** 2023. doi: …"."""
    for span in entry.spans:
        if span.kind in ("bold", "italic") and span.text and span.text in text:
            head, tail = text.split(span.text, 1)
            head = head.strip()
            if _YEAR_NEXT.match(tail) and _closed_title(head) and not any(s.text in head for s in _marked(entry)):
                return head.rstrip("."), span.text
    return None


def _closed_title(head: str) -> bool:
    """A sentence of words, closed by its full stop, that no author list opens: a title before its journal."""
    return (
        head.endswith((".", "?", "!"))
        and ". " not in head  # one sentence: not a title and its authors
        and len(head.split()) >= 4
        and not looks_like_authors(head)
        and not _leading_authors(head)
    )


_INITIAL = re.compile(r"[A-Z]{1,2}\.?|(?:[A-Z]\.){2,3}")


def _italic_venue(text: str) -> bool:
    """Italics that name a journal or conference: set apart by the page, so longer names count
    ("Journal of Elections, Public Opinion and Parties"), but not an author set in italics."""
    if is_venue(text):
        return True
    if not any(ch.isalpha() for ch in text) or _a_legend(text) or _PRESENTED_AS.fullmatch(text.strip(" ()[].")):
        return False  # an italic volume ("*19*, 8123–8136"); a legend ("* equal contribution"); "Spotlight"
    # Journals often name no venue word ("Blood", "Political Analysis"); a name never is one.
    words = text.split()
    # "J. Catal.", "J. Phys. Chem. C", "J. Chem. Theory Comput.": abbreviations, the last one
    # perhaps a section's letter; a name's initials are one letter each.
    abbreviated = (
        all(w.endswith(".") or (w is words[-1] and len(w) == 1 and w.isupper()) for w in words)
        and any(len(word) > 3 for word in words)
    ) or (sum(w.endswith(".") for w in words) >= 2 and any(w.endswith(".") and len(w) > 3 for w in words))
    if len(words) <= 4 and any(_INITIAL.fullmatch(word) for word in words) and not abbreviated:
        return False  # "Chen B", "J. Doe": an author set in italics; "J. Catal." is a journal
    return len(words) <= 12 and not looks_like_authors(text)


def read_paper(entry: Entry, context: Context) -> Reading | None:
    """The paper an entry lists, or None when no title stands out."""
    numbered = entry.numbered or (bool(entry.lines) and _NUMBERING.match(entry.lines[0]) is not None)
    lines = [
        _NUMBERING.sub("", line)
        for n, line in enumerate(entry.lines)
        if not (
            is_noise(line)
            or is_counted_label(line)
            or _only_links(line, entry)
            or ((n or len(entry.lines) == 1) and _a_row_of_links(line, entry))
            or (n and len(line) <= _LEGEND_LINE and _a_legend(line))  # "* equal contribution" under it
        )
    ]
    lines = [line for line in lines if line]
    # A CV's row dates its entry in a cell of its own ("2026 | Doe, J. Title."), which reads as a number.
    dated_row = parse_year(entry.lines[0]) if entry.lines and _BARE_YEAR.fullmatch(entry.lines[0]) else None
    if len(lines) > 1 and _CITATION_KEY.fullmatch(lines[0]) and _leading_authors(lines[1]):
        numbered, lines = True, lines[1:]  # "SFK+24" over "Solheim I, Ferreira M, … Title.": a bibliography's label
    if lines and (lead := leading_date(lines[0])) and lead[1] and (len(lead[0]) > 4 or lead[0] in lead[1]):
        # "Apr 2025 · Lind A, Roe B. Title. Journal.": when it came out, then the citation; a year alone
        # only when the citation says it again ("2025 Title. In *Book*, 2025"): "1918 Influenza …" is a title.
        lines[0] = lead[1]
    stage = _STAGE_LABEL.match(lines[0]) if lines else None
    if stage:
        lines[0] = lines[0][stage.end() :]  # "Under review · Lind A. Title.": the stage set as a label
        lines = [line for line in lines if line]  # a stage in a cell of its own: "in press | Doe, J. Title."
    if not lines:
        return None
    text = " ".join(lines)
    if len(text) > 4000 or _INSTRUCTION.search(text[:300]) or is_menu_item(entry, text) or _aside(text):
        return None
    # A title closed before a marked journal names both: read once, for the title and the venue.
    bluebook = _bluebook(entry, text)
    before_journal = bluebook or _title_before_marked_journal(entry, text)
    title, marked = (bluebook[0], True) if bluebook else _title(entry, lines, text, before_journal)
    if not title:
        return None
    title = _DRAFT_AFTER_TITLE.sub("", _without_badges(title, entry))
    if "[" in title and (review := _REVIEW_NOTE.search(title)):
        title = title[: review.start()].strip() or review.group("work")
    # "Inquiry and Credence (with X)", "(with X) Inquiry and Credence": a title, no names.
    cowritten = _WITH_AFTER_TITLE.search(title) is not None or _WITH_BEFORE_TITLE.match(title) is not None
    title = clean_title(_BADGE_AFTER_TITLE.sub("", _WITH_AFTER_TITLE.sub("", _WITH_BEFORE_TITLE.sub("", title))))
    title = _before_abbreviated_journal(title, text)
    words = len(title.split())
    # A marked title's commas part words; a title written with its co-authors is one.
    # A quoted title closed by its own full stop ("“Small Cities, Big Rents.”") is no author list;
    # nor is one in curly single quotes (Harvard: "Ana Ruiz and Bo Chen, ‘Local Brokers and Party Switching’").
    quoted_whole = any(f"{title}{stop}{quote}" in text for stop in ".?!" for quote in "”\"") or f"‘{title}’" in text
    names = not (cowritten or quoted_whole or bluebook) and (
        _only_names(title) if marked else looks_like_authors(title)
    )
    if (words < 2 and not _CHAPTER.match(lines[0])) or words > 50 or names or is_link_label(title):
        return None
    if is_degree_in_a_field(title):
        return None  # "Ph.D., Philosophy", "Dr. rer. nat.": a CV's degree over its thesis, not a work
    if words <= 8 and (is_venue(title) or parse_date_text(_DATE_LABEL.sub("", title))):
        return None  # "CVPR, 2025" on a line of its own is where a paper appeared, not one; a date is when
    if (dated := _NAME_AND_MONTH.match(title)) and len(parse_date_text(dated["date"]) or "") > 4:
        return None  # "RAND (November 2020)" under a title: a journal's name and its issue, not a title
    if _is_journal(title, text) or _cited_journal(_BRACKETED_YEAR.sub("", title)):
        # "*Ann. Probab.* **51** (2023), 1021–1060", "Developmental Cell 60:2871–2886 (2025)": a journal
        # with its volume (the line under a title), not a title
        return None
    if is_prose(title, 25) or _HONOUR_LINE.match(text):
        return None  # "Winner, 2026 Marlowe Prize for the best article …": an honour under a paper
    rest = text.replace(title, " ", 1) if title in text else " ".join(line for line in lines if title not in line)
    authors = _authors(entry, lines, title, rest)
    venue = _venue(entry, lines, title, rest, authors, before_journal)
    if stage and venue and not status_stated(venue):
        venue = with_status(venue, stage["stage"])  # "In press · Doe, J. Title. *Journal*.": the journal, in press
    elif stage and not venue:
        venue = stage["stage"]
    if title in text and (tail := _ASTRO_AFTER.match(text, text.find(title) + len(title))):
        venue = tail["journal"]  # "… Title, MNRAS, 531, 2207": the journal before its volume and page
    elif title in text and (before := _YEAR_THEN_VENUE.search(text, 0, text.find(title))):
        venue = _VOLUME_PAGES.sub("", before["where"])  # "… 2024, A&A, 683, A45. *Title*"
    year = _year(entry, rest, context) or dated_row
    doi, arxiv = _identifiers(entry, rest)
    url = _url(entry.links, title)
    if venue is None:
        for link in entry.links:
            if m := _SHORT_VENUE.match(link.text):
                venue, year = m.group(1), year or century_year(int(m.group(2)))
                break
    if not marked and not (year or venue or doi or arxiv or authors) and is_person_name(title, 3):
        return None  # a name on its own line is a person, not a paper
    score = 0.25 + (0.15 if marked else 0.0)
    score += 0.3 if authors else 0.0
    score += 0.15 if year else 0.0
    score += 0.15 if venue else 0.0
    score += 0.2 if (doi or arxiv or _has_paper_link(entry)) else 0.0
    score += 0.1 if numbered else 0.0  # "[3] …", "12. …": a numbered list of references
    if is_prose(text, 60) and not authors:
        score -= 0.4
    paper = Paper(title=title, authors=authors, venue=venue, year=year, url=url, doi=doi, arxiv=arxiv)
    honour = _PAPER_HONOUR.search(rest)
    award = paper_award(honour.group("honour"), paper) if honour else None
    return Reading.of(paper, score, (award,) if award else ())


# ------------------------------------------------------------------ title


#: A line that tells an honour, not a paper: "Winner, 2026 Marlowe Prize …", "Recipient of the X Award".
_HONOUR_LINE = re.compile(
    r"^\W*(?:winner|won|recipient|awarded|shortlisted|finalist)\b[^.]{0,120}\b(?:prize|award|medal)s?\b", re.I
)
#: An honour set on a paper's entry, often as a badge: "🏆 Best Paper Award", "Best Student Paper
#: Award.", "Outstanding Paper Honorable Mention".
_PAPER_HONOUR = re.compile(
    r"(?P<honour>\b(?:best|outstanding|distinguished)\s+"
    r"(?:(?:graduate|student|young|short|long|demo|early[- ]career)\s+){0,2}"
    r"(?:paper|poster|demo|artifact|presentation|talk)\s+(?:award|prize)"
    r"(?:\s+(?:honou?rable mention|runner[- ]up|finalist|nominee))?)",
    re.I,
)


def _without_badges(title: str, entry: Entry) -> str:
    """A title without the badges set at its ends ("Conference", "Best Paper Award Finalist")."""
    for span in entry.spans:
        badge = span.text
        if span.kind != "badge" or not badge or badge == title:
            continue
        if title.startswith(badge):
            title = title[len(badge) :].lstrip(" :-–—|")
        elif title.endswith(badge):
            title = title[: -len(badge)].rstrip(" :-–—|")
    return title


def _title(
    entry: Entry, lines: Sequence[str], text: str, before_journal: tuple[str, str] | None
) -> tuple[str | None, bool]:
    """The title and whether the page marked it (class, heading, quotes, link, bold)."""
    for candidate in (entry.fields.get("title"), entry.heading):
        if candidate and _title_like(candidate, text, lines):
            return candidate, True
    if chapter := _CHAPTER.match(lines[0]):  # '"Credit", in A. Editor (ed.), *Book*': a short title
        return (chapter.group(1) or chapter.group(2)).strip(" ,."), True
    quoted = _QUOTED.search(text) if ('"' in text or "“" in text or "«" in text) else None
    if quoted is None and ("‘" in text or "'" in text):
        quoted = _SINGLE_QUOTED.search(text, 0, 1000)  # a title opens a citation, not its 10th line
    # A quoted title closed by its own full stop ("“Small Cities, Big Rents.”") is a title, whatever its words.
    if quoted and len(quoted.group(1).split()) >= 2 and (
        quoted.group(1).endswith((".", "?", "!"))
        or not _only_names(quoted.group(1))
        or _quoted_after_authors(quoted, lines[0])
    ):
        return quoted.group(1).strip(" ,."), True
    if (cut := _leading_authors(lines[0])) and not _opens_with_a_marked_title(entry, lines[0], cut):
        # A citation that starts with its authors: its title is what follows them and the year,
        # whatever the links after it say ("peer-reviewed article", "preprint").
        structural = _before_italic_venue(_citation_title(lines, text), entry)
        if structural and (after := _italic_title_after_venue(structural, entry, text, lines)):
            return after, True
        if structural and len(structural.split()) >= 2:
            return structural, any(structural in s.text or s.text in structural for s in _marked(entry))
    if before_journal:
        return before_journal[0], False
    # "Review of Ama Owusu, *Trust without Testimony* (…), *Journal*": the book reviewed, the first in italics.
    work = next((s.text for s in entry.spans if s.kind == "italic"), "") if _REVIEW_OF.match(lines[0]) else ""
    if len(work.split()) >= 2 and work in text:
        return work, True
    best: tuple[int, str] | None = None
    for order, span in enumerate(_marked(entry)):
        if _title_like(span.text, text, lines) and not _is_journal(clean_title(span.text), text):
            score = _candidate_score(span, order)
            if best is None or score > best[0]:
                best = (score, span.text)
    if best is not None:
        return best[1], True
    return _citation_title(lines, text), False


#: Where a paper appeared, written where a title goes: "A&A, 683, A45", "ApJL, in press".
#: A journal named in a few words ("MNRAS", "A&A", "J. Geophys. Res."), and its volume and page ("531, 2207").
#: A journal as geoscience and astronomy cite it: "MNRAS", "J. Geophys. Res.: Solid Earth".
_SHORT_JOURNAL = r"[A-Z][A-Za-z&.' :]{0,60}?"
#: "531, 2207", "683, A45", "131, 1-19": a volume and its first page, or its pages.
_VOLUME_AND_PAGE = r"\d{1,4},\s*[A-Z]?\d{1,6}(?:\s*[-–]\s*[A-Z]?\d{1,6})?"
_JOURNAL_THEN = rf"{_SHORT_JOURNAL},\s*(?:(?:vol\.\s*)?{_VOLUME_AND_PAGE}|(?:{_STATUS_WORDS}))"
_JOURNAL_AND_VOLUME = re.compile(rf"^{_JOURNAL_THEN}$", re.I)
#: The year and the journal (with its volume and page, or a status) right before a title set after them.
_YEAR_THEN_VENUE = re.compile(
    rf"\b(?:19|20)\d\d[a-z]?,\s*(?P<where>{_JOURNAL_THEN}"
    rf"|(?:{_LEADING_STATUS_WORDS})(?: to| at| in)? {_SHORT_JOURNAL})[.\s]*$",
    re.I,
)
_STAGE_ONLY = re.compile(rf"\b(?:{_STATUS_WORDS}|{_LEADING_STATUS_WORDS})\b", re.I)
_NAMED_BEYOND_STAGE = re.compile(r"[A-Z]")


def _italic_title_after_venue(structural: str, entry: Entry, text: str, lines: Sequence[str]) -> str | None:
    """The italic title set after the journal ("Doe, J. 2024, A&A, 683, A45. *Title*", "… 2024, submitted
    to MNRAS. *Title*"): where a citation names its journal before the title."""
    words = len(structural.split())
    # Named as a journal surely: with its volume and page, or its stage ("submitted to MNRAS"), or in a few
    # words; a title may hold a venue's word ("… small-group science discussion").
    staged = words <= 8 and _STAGE_ONLY.search(structural) is not None
    if not (_JOURNAL_AND_VOLUME.match(structural) or staged or (words <= 4 and is_venue(structural))):
        return None
    if not _NAMED_BEYOND_STAGE.search(_STAGE_ONLY.sub("", structural)):
        return None  # "Doe, J. To appear. Title. *Journal*": a stage alone names no journal
    start = text.find(structural) + len(structural)
    for span in entry.spans:
        if (
            span.kind == "italic"
            and len(span.text.split()) >= 3
            and text.find(span.text, start) >= start
            and _title_like(span.text, text, lines)
        ):
            return span.text
    return None


def _status_before_italic_journal(span: Span, entry: Entry) -> bool:
    """An italic status with the italic journal after it ("*Revise & Resubmit* at *J. Hum. Resour.*"):
    the journal is the venue, the status read before it."""
    if not _TRAILING_STATUS.fullmatch(span.text):
        return False
    later = entry.spans[entry.spans.index(span) + 1 :]
    return any(s.kind == "italic" and _italic_venue(s.text) and not _TRAILING_STATUS.fullmatch(s.text) for s in later)


def _only_names(quoted: str) -> bool:
    """Whether quoted words are people's names, each of them: quotes mark a title, and a title whose
    commas part common words ("Land Titling, Credit, and Female Entrepreneurship") is no author list."""
    return looks_like_authors(quoted) and all(is_person_name(piece) for piece in split_author_list(quoted))


def _quoted_after_authors(quoted: re.Match[str], first_line: str) -> bool:
    """Quoted words right after the author list a citation opens with are its title, even when they
    read like names ("Ana Ruiz and Bo Chen, ‘Local Brokers and Party Switching’")."""
    cut = _leading_authors(first_line)
    return bool(cut) and quoted.start() <= len(first_line) and not first_line[cut : quoted.start()].strip(" ,.:;(")


def _opens_with_a_marked_title(entry: Entry, line: str, cut: int) -> bool:
    """Whether what reads as a leading author list is the start of a bold or linked title that goes
    on past it ("**Mayors, Machines, and the Decline of Party Brands** (2022). *Journal* …")."""
    return any(line.startswith(span.text) and len(span.text) > cut for span in _marked(entry) if span.kind != "italic")


_MARK_WEIGHT = {"link": 6, "bold": 6, "italic": 4}
#: What a linked venue line holds and a title does not: identifiers, long numbers, a year closed by
#: citation punctuation ("Nature. 2021;7"). A year inside a title ("The 2019 Estallido") is words, and
#: so is the span a title studies ("Common Ownership in America 1980-2017").
_METADATA = re.compile(r"\b(?:pmid|pmcid|doi|issn|isbn|vol|pp|if)\b|\d{5,}|\b(?<![-–])\d{4}(?:\s*[.;:(]|$)|=", re.I)


def _candidate_score(span: Span, order: int) -> int:
    """How much a marked span looks like a title: bold and links over italics (often the venue),
    words over numbers (a linked "Journal. 2021. PMID: 123" is the venue), earlier over later."""
    score = _MARK_WEIGHT[span.kind] - min(order, 3)
    score += 2 if len(span.text.split()) >= 4 else 0
    score -= 6 if _METADATA.search(span.text) else 0
    return score


def _marked(entry: Entry) -> list[Span]:
    """Links, bold and italic spans of two words or more: where pages mark titles."""
    return [s for s in entry.spans if s.kind in _MARK_WEIGHT and len(s.text.split()) >= 2]


def _title_like(candidate: str, text: str, lines: Sequence[str]) -> bool:
    candidate = candidate.strip()
    words = len(candidate.split())
    if words < 2 or words > 50 or candidate not in text:
        return False
    if LINK_WORDS.match(candidate) or looks_like_authors(candidate) or is_person_name(candidate, 3):
        return False
    if is_link_label(candidate) or _PAPER_HONOUR.fullmatch(candidate.strip(" .!")) or _ID_LABEL.match(candidate):
        return False  # "**Best Student Paper Award**" after a citation: the paper's honour, not its title
    if words <= 12 and is_venue(candidate):
        return False
    if _IN_VOLUME.search(text, 0, text.find(candidate)):
        return False  # "In: *The Political Economy of X*, edited by …": the book a chapter is in
    # A bold or linked name inside the author line (the page owner, a co-author) is not the title,
    # nor a link in a line of press about the paper.
    return not any(
        candidate in line and line != candidate and (looks_like_authors(line) or _PRESS_LINE.match(line))
        for line in lines
    )


_IN_VOLUME = re.compile(r"(?:^|[.,;]\s*|\s)In:?\s*$")

#: Short labels of links to other forms of a paper or to talk about it: "[Published Version]",
#: "Replication files", "LSQ Blog", "The Hill Podcast", "Press coverage".
_LABEL_NOUN = re.compile(
    r"\b(?:version|blog|blog post|podcast|coverage|interview|op-?ed|column|press release|slides|video|recording|page"
    r"|repository|repo|replication (?:files|package|materials)|online appendix)$",
    re.I,
)


def is_link_label(text: str) -> bool:
    """A short label of a link beside a paper, in brackets or ending in what it links to."""
    text = text.strip()
    words = len(text.split())
    if text.startswith("[") and text.endswith("]") and words <= 4:
        return True
    return words <= 3 and _LABEL_NOUN.search(text) is not None


def _before_italic_venue(title: str | None, entry: Entry) -> str | None:
    """A title that ran on into the journal set in italics after its full stop ("… sediments.
    *mSystems*, 8(2)"): the title ends where the journal begins."""
    if not title:
        return title
    for span in entry.spans:
        if span.kind == "italic" and span.text and (cut := title.find(f". {span.text.strip()}")) > 0:
            return title[:cut]
    return title


#: The year set between the authors and the title as a sentence of its own (ecology's and
#: Chicago's author-date style: "Doe, J., and B. Roe. 2025. Title. *Journal* 583:152066.").
_BARE_YEAR_FIRST = re.compile(rf"^(?:(?:19|20)\d\d[a-z]?|(?:{_STATUS_WORDS}))[.,]\s+", re.I)
#: The journal, volume and page after an astronomy citation's title: "…, Title, MNRAS, 531, 2207".
_ASTRO_JOURNAL = rf",\s+(?P<journal>{_SHORT_JOURNAL}),\s*{_VOLUME_AND_PAGE}"
_ASTRO_AFTER = re.compile(_ASTRO_JOURNAL + r"\b")
_ASTRO_TAIL = re.compile(_ASTRO_JOURNAL + r"\.?$")
#: "(eds.)" after the authors of an edited book: "Doe, J. and Roe, B. (eds.) (2020) *Title*".
_EDITORS = re.compile(r"^\((?:eds?|editors?)\.?\)\s*", re.I)


#: One author's name closed by its year at the start of a citation: "Delacroix A (2021) Predicting …".
_LONE_AUTHOR_YEAR = re.compile(r"^([A-Z][^.,;:()]{2,40}?)\s+\((?:19|20)\d\d[a-z]?\)\.?\s+(?=[A-Z\"“‘])")
#: One author's name closed by a full stop at the start of a citation: "Signe Nyvoll. Firn aquifers …".
_LONE_AUTHOR = re.compile(r"^((?:[A-Z]\.\s?){0,3}[A-Z][^.,;:()]{2,40}?)\.\s+(?=[A-Z\"“‘])")


def _leading_authors(line: str) -> int:
    """Where the author list a citation opens with ends: several names, or one name and its full
    stop or its year ("Delacroix A (2021) Title")."""
    if cut := author_prefix(line):
        return cut
    lone = _LONE_AUTHOR.match(line) or _LONE_AUTHOR_YEAR.match(line)
    return lone.end() if lone and is_person_name(lone.group(1)) else 0


def _aside(text: str) -> bool:
    """A note set in brackets as a whole ("(Student co-authors are listed first.)"): said of the list, no entry."""
    return text.startswith("(") and text.endswith(")") and text.count("(") == 1


#: What follows a title in a law review citation (Bluebook): its volume, the journal abbreviated, its
#: first page (and a pinpoint), the year in brackets: ", 103 Va. L. Rev. 1389 (2017)".
_BLUEBOOK_TAIL = re.compile(
    r",\s+\d{1,4}\s+(?P<journal>[A-Z][A-Za-z.&'’ ]{1,60}?)\s+\d{1,5}(?:,\s*\d{1,5})?\s+\([^()]{0,30}(?:19|20)\d\d\)"
)


def _bluebook(entry: Entry, text: str) -> tuple[str, str] | None:
    """(title, journal) of a law review article cited in Bluebook style, its title in italics or
    quotes: "*Sovereign Debts, Sovereign Duties*, 103 Va. L. Rev. 1389 (2017)"."""
    for span in entry.spans:
        if span.kind not in ("italic", "quoted") or len(span.text.split()) < 2:
            continue
        at = text.find(span.text)
        if at >= 0 and (tail := _BLUEBOOK_TAIL.match(text, at + len(span.text))):
            return span.text.strip(" ,"), tail["journal"]
    return None


def _citation_title(lines: Sequence[str], text: str) -> str | None:
    """The title by the citation's structure, when nothing marks it."""
    first = lines[0]
    cut = _leading_authors(first)
    if cut:
        rest = _BARE_YEAR_FIRST.sub("", _YEAR_IN_PARENS.sub("", _EDITORS.sub("", first[cut:].lstrip(" .,:"))))
        if rest:
            sentence = _first_sentence(rest)
            return _ASTRO_TAIL.sub("", sentence) or sentence
        if len(lines) > 1:
            return _first_sentence(lines[1])
        return None
    if len(lines) > 1 and not looks_like_authors(first) and len(first.split()) >= 2:
        return _first_sentence(first) if len(first.split()) > 30 else first
    sentence = _first_sentence(first)
    return sentence if len(sentence.split()) >= 2 else None


def _first_sentence(text: str) -> str:
    parts = _SENTENCE_BREAK.split(text, maxsplit=1)
    return _URL.split(parts[0])[0].strip(" ,.;:")


# ------------------------------------------------------------------ the other fields


#: A full stop that ends a sentence: after a word that is no capital's initial ("kākā.", "/s/.",
#: "2024."), not "J."; nor a volume's or page's ("vol. 45").
_SENTENCE_END = re.compile(r"(?<![A-Z])(?<=[\w)\]/])(?<!\b[Vv]ol)(?<!\b[Nn]o)(?<!\bpp)(?<!\b[Aa]rt)\.\s+")
_PIECE_END = re.compile(rf"{_SENTENCE_END.pattern}|\s[|/·•]\s|\s+[-–—]\s+")


def _pieces(text: str, cut: re.Pattern[str] = _PIECE_END) -> list[str]:
    """A citation cut at its full stops (not an initial's), bars and dashes (or only where
    ``cut`` says), each piece without the punctuation around it."""
    return [piece for p in cut.split(text) if (piece := p.strip(" ,;:").lstrip(". "))]


_WITH = re.compile(
    r"\(\s*(?:joint )?with\s+([^()\[\]]{3,300})\)|\b(?:joint )?with\s+([^()\[\].;]{3,300})(?:[.;]|$)", re.I
)


def _authors(entry: Entry, lines: Sequence[str], title: str, rest: str) -> tuple[str, ...]:
    named = entry.fields.get("authors")
    if named and looks_like_authors(named):
        return author_names(named)
    # "(with Jane Doe and John Roe)": the co-authors of a page owner's own paper, on one line.
    if "with" in rest.lower():
        for line in lines:
            if co := _WITH.search(line):
                names = author_names(co.group(1) or co.group(2))
                if names and all(is_person_name(name) for name in names):
                    return names
    for index, raw in enumerate(lines):
        line = raw.replace(title, " ", 1).strip(" .,;:") if title in raw else raw
        if not line:
            continue
        # One name alone is an author where it opens the citation, before its title.
        opens = index == 0 and not raw.startswith(title)
        cut = _leading_authors(line) if opens else author_prefix(line)
        if cut:
            return author_names(line[: _before_italics(entry, line, cut)])
        for piece in _pieces(line):
            bare = _VENUE_PREFIX.sub("", piece)
            if looks_like_authors(bare):
                return author_names(bare)
    return ()


def _before_italics(entry: Entry, line: str, cut: int) -> int:
    """Where an author list ends at the latest: before an italic journal it ran into, as initials
    would ("Okafor, C.; Adeyemi, N. *J. Chem. Theory Comput.* 2023")."""
    for span in entry.spans:
        if span.kind == "italic" and len(span.text) > 2 and 0 < (start := line.find(span.text)) < cut:
            cut = start
    return cut


def author_names(text: str) -> tuple[str, ...]:
    """The authors of a list, each as written ("Doe, J." stays one name in surname-first lists)."""
    pieces = [p.strip(" *†‡§¶#,;") for p in split_author_list(text)]
    names: list[str] = []
    for piece in filter(None, pieces):
        if names and _is_initials(piece) and not _is_initials(names[-1]) and "," not in names[-1]:
            names[-1] = f"{names[-1]}, {piece}"  # "Doe", "J. A." -> "Doe, J. A."
        else:
            names.append(piece)
    return tuple(filter(None, map(_author_name, names)))


def _author_name(piece: str) -> str:
    """One author as written, marks dropped; the full stop of a trailing initial kept ("Doe, J.")."""
    dotted_initial = _is_initials(piece.rsplit(None, 1)[-1]) and ("," in piece or "." in piece[:-1])
    if piece.endswith(".") and not dotted_initial:
        piece = piece[:-1]  # the list's own full stop: "… Ostrova K."
    return piece.strip(" *†‡§¶#")  # a mark the full stop hid: "Park H†."


def _is_initials(piece: str) -> bool:
    letters = piece.replace(".", "").replace("-", "").replace(" ", "")
    return bool(letters) and len(letters) <= 3 and letters.isupper()


def _venue(
    entry: Entry,
    lines: Sequence[str],
    title: str,
    rest: str,
    authors: tuple[str, ...],
    before_journal: tuple[str, str] | None,
) -> str | None:
    named = entry.fields.get("venue")
    if named and named != title:
        return _clean_venue(named) or None
    if before_journal and before_journal[0] == title:
        return _clean_venue(before_journal[1]) or None
    for span in entry.spans:
        if (
            span.kind == "italic"
            and span.text != title
            and title not in span.text
            and span.text not in title  # a species or a word stressed in the title ("soil *Pseudomonas*")
            and _italic_venue(span.text)
            and not _status_before_italic_journal(span, entry)
        ):
            start = entry.text.find(span.text)
            end = start + len(span.text)
            if span.text.endswith(":") or entry.text[end : end + 1] == ":":
                continue  # "Abstract:", "Media coverage:": a label, not a venue
            venue = _clean_venue(span.text)
            if not venue or start < 0:
                return venue or None  # not found in the entry's text: no status around it to read
            return _with_status_around(venue, entry.text, start, end)
    if title in entry.text and (quoted := _AFTER_QUOTED_TITLE.match(entry.text, entry.text.find(title) + len(title))):
        # "“Title,” in Proc. IEEE ECCE, Cincinnati, OH, USA, 2017": IEEE sets the venue after the quote's
        # comma and ends it at the next one, before its place, volume or date; italics or none.
        venue = _clean_venue(quoted["venue"])
        if quoted["venue"].endswith(".") and _ABBREVIATED_END.search(venue):
            venue += "."  # "IEEE Trans. Coastal Eng.": an abbreviation keeps its stop
        if venue and not looks_like_authors(venue) and not LINK_WORDS.match(venue) and venue[:1].isupper():
            return _with_status_around(venue, entry.text, quoted.start("venue"), quoted.end("venue"))
    author_text = ", ".join(authors)
    for line in lines:
        if line != title and _PAPER_HONOUR.search(line) and not author_text:
            continue  # "Winner, Best Graduate Student Paper Prize, … Conference": an honour, not where it appeared
        opened_by_title = line.lstrip(" “\"'").startswith(title)
        line = _without_title(line, title)
        # "**Title**, Information, Communication & Society": the rest of the title's line after a comma names it.
        venue_after_title = opened_by_title and line.lstrip(" ”\"'").startswith(",")
        if authors and (cut := author_prefix(line.strip())) and _names_an_author(line.strip()[:cut], authors):
            line = _YEAR_IN_PARENS.sub("", line.strip()[cut:].lstrip(" .,:"))
        # A journal named by its volume and pages, whole: "SERIEs - Journal of the X 14, 417-433".
        if abbreviated := _abbreviated_journal(line):
            return abbreviated
        for sentence in _pieces(line, _SENTENCE_END):
            if _cited_journal(sentence):
                return _clean_venue(sentence) or None
        pieces = _pieces(line)
        for index, piece in enumerate(pieces):
            if _DRAFT_STATE.fullmatch(piece.strip(" —–-:;")):
                continue  # "— in progress", "in preparation": a draft's state, not an "In:" venue
            prefix = _VENUE_PREFIX.match(piece)
            bare = _without_place_words(piece, prefix)
            if not bare or looks_like_authors(bare) or bare in author_text or LINK_WORDS.match(bare):
                continue
            undated = _DATE_LABEL.sub("", bare)
            if parse_date_text(undated) or ((dated := leading_date(undated)) and looks_like_authors(dated[1])):
                continue  # "Feb 3, 2026", "Published: April 02, 2025": when, not where
            following = pieces[index + 1] if index + 1 < len(pieces) else ""
            own_status = _TRAILING_STATUS.search(bare)
            status = _TRAILING_STATUS.fullmatch(following) if own_status is None else None
            if (
                prefix
                or is_venue(bare)
                or (parse_year(bare) and len(bare.split()) <= 10)
                or _named_with_status(bare, own_status)
                or (own_status is not None and own_status.start() == 0)  # "Revise and Resubmit."
                or (status and _journal_name(bare.split()))  # "Blood. Accepted in principle."
                or (_YEAR_FIRST.match(following) and _journal_name(bare.split(), most=6))  # "Blood. 2021;137:1"
                or (venue_after_title and len(pieces) == 1 and _journal_name(bare.split()) and not _WITH.match(bare))
            ):
                venue = _clean_venue(bare)
                if venue and not LINK_WORDS.match(venue) and not _only_links(venue):
                    if status is None and own_status is None:
                        # NLM's "J Am Soc Nephrol. 2025 Aug 14. doi: …. Epub ahead of print.": its own sentence.
                        status = next((m for p in pieces[index + 1 :] if (m := _STATUS_SENTENCE.fullmatch(p))), None)
                    return with_status(venue, status.group(0) if status else None)
    under = _line_under_title(lines, title, author_text)
    return None if under and _PAPER_HONOUR.search(under) else under  # "Winner, Best Paper Prize, …": an honour


def _names_an_author(prefix: str, authors: Sequence[str]) -> bool:
    """Whether a line's leading names are the paper's authors (a journal named like two people,
    "Estuaries and Coasts", is where it appeared)."""
    words = set(_NAME_WORD.findall(prefix.lower()))
    return any(set(_NAME_WORD.findall(author.lower())) & words for author in authors)


_NAME_WORD = re.compile(r"\w{3,}")


def _without_title(line: str, title: str) -> str:
    """A citation line without its title, nor the co-authors said right after it ("*Title*, joint with
    A. Roe. Duke Math. J. 172"): what is left to name the venue."""
    if title not in line:
        return line
    head, _, tail = line.partition(title)
    said = tail.lstrip(" ,;:")
    if coauthors := _WITH.match(said):
        tail = said[coauthors.end() :]
    return f"{head} {tail}"


def _with_status_around(venue: str, text: str, start: int, end: int) -> str:
    """A venue with where the paper stands, written before the journal ("Revise and resubmit at X")
    or after it ("X, forthcoming")."""
    if before := _STATUS_BEFORE.search(text[max(start - 40, 0) : start]):
        return f"{before.group('status')} {venue}"
    status = _STATUS.search(text[max(end - 2, 0) : end + 40]) or _STATUS_FOR_YEAR.search(text)
    if status is None and (closing := _TRAILING_STATUS.search(text)):
        # "In *Book*, edited by X. London: Press, forthcoming.": the citation ends with its status.
        return with_status(venue, closing.group(0).strip(" ,;:().").strip())
    return with_status(venue, status.group("status") if status else None)


#: A venue that ends in an abbreviated word ("… Coastal Eng"), whose full stop is its own.
_ABBREVIATED_END = re.compile(r"\s[A-Z][a-z]{0,7}$")
#: The venue after a title quoted with its comma inside the quotes (IEEE): up to the next comma.
_AFTER_QUOTED_TITLE = re.compile(r"\s*,\s*[”\"]\s*(?:in\s+)?(?P<venue>[^,;“”\"]{2,120})")
#: A piece that opens with the year, as the one after a journal does: "2021", "2024;15:123".
_YEAR_FIRST = re.compile(r"^(?:19|20)\d\d(?:$|[;:(\s])")


def publication_status(text: str | None) -> str | None:
    """The status a short text is, when it is only one ("In press", "(accepted)", "Submitted."),
    or a status with the journal it stands at ("Revise and resubmit at American Sociological Review")."""
    if not text:
        return None
    text = text.strip()
    if len(text) <= 60 and _TRAILING_STATUS.match(text):
        return text.strip(" .,;:()")
    if len(text) <= 160 and (at := _STATUS_AT.match(text)) and at.group("journal")[:1].isupper():
        return text.strip(" .,;:()")
    return None


#: A status, then the journal it stands at: "Under review at X", "Submitted to X", "R&R at X",
#: "Revise and resubmit, *X*".
_STATUS_AT = re.compile(
    rf"(?:{_LEADING_STATUS_WORDS})(?:\s+(?:at|in|to|for|with)\s+|\s*,\s*)[*_]?(?P<journal>\S.*)", re.I
)


#: A label before a date: "Published: April 02, 2025", "Date: 2024-05-01".
_DATE_LABEL = re.compile(
    r"^(?:published|posted|date|dated|updated|presented|released|online|awarded|issued)(?:\s(?:on|in))?\s?:\s*", re.I
)


def status_stated(citation: str) -> str | None:
    """The status a whole citation states after its journal: "... *Journal of X*. In press." -> "In press"."""
    match = _STATUS.search(citation)
    return match.group(0) if match else None


def with_status(venue: str, status: str | None) -> str:
    """A venue with the status written after it: "Journal of X, accepted in principle"."""
    status = (status or "").strip(" .,;:()")
    return f"{venue}, {status}" if status else venue


def _named_with_status(piece: str, status: re.Match[str] | None) -> bool:
    """A name followed by a status (``status``, its match of ``_TRAILING_STATUS``): "Mathematics
    of Operations Research, to appear"."""
    if status is None or status.start() == 0:
        return False
    return _journal_name(piece[: status.start()].split())


def _journal_name(words: Sequence[str], most: int = 12) -> bool:
    """Words that could name a journal: a few, each capitalised (a capital inside counts: "eLife",
    "mBio", "iScience"), a filler ("of", "and") or a dash."""
    return 1 <= len(words) <= most and all(
        w[:1].isupper() or w[1:2].isupper() or w.lower() in _JOURNAL_FILLER or not w.isalnum() for w in words
    )


#: A journal as mathematics and physics cite it, by abbreviated words before its volume or
#: status: "Found. Comput. Math. 26 (2026)", "Phys. Rev. Lett. 120, 1", "Ann. of Math. (2) 190",
#: "SIAM J. Matrix Anal. Appl., to appear", "IEEE Trans. Coastal Eng., vol. 45".
_ABBREVIATED_JOURNAL = re.compile(
    r"(?<![\w.])(?P<name>(?:[A-Z]{2,6}\s)?(?:(?:[A-Z][a-z]{0,8}\.|[A-Z][a-z]+)\s(?:(?:of|and|&|de|in|on)\s)?){1,8}"
    r"(?:[A-Z][A-Za-z]+\b\.?|[A-Z]\b)?)"  # a section letter closes some names: "Phys. Rev. B", "J. Mater. Chem. A"
    rf"(?=\s*(?:\(?\d|,?\s*(?:[Vv]ol(?:ume)?\.?|[Nn]o\.)\s*\d|,\s*(?:19|20)\d\d\b|[,(]?\s*(?P<status>{_STATUS_WORDS})\b))"
)


#: The longest last word (its stop included) read as an abbreviation: "Catal.", "Comput.".
_SHORT_ABBREVIATION = 7


def _abbreviated_journal(line: str) -> str | None:
    for found in _ABBREVIATED_JOURNAL.finditer(line):
        words = found.group("name").split()
        # An abbreviation is followed by more of the name, or is a short last word before the volume
        # ("ACS Catal. 14", "New J. Chem. 42"); "Nature Cell Biology." ends a sentence.
        last = words[-1]
        short_last = (
            last.endswith(".")
            and 3 <= len(last) <= _SHORT_ABBREVIATION
            and found.group("status") is None
            and not _YEAR_FIRST.match(line[found.end() :].lstrip())  # NLM's "Kidney Int. 2024;105": its stop ends it
        )
        if any(len(w) >= 3 and w.endswith(".") for w in words[:-1]) or (len(words) >= 2 and short_last):
            name = found.group("name").strip()
            return with_status(_without_place_words(name, _VENUE_PREFIX.match(name)), found.group("status"))
    return None


#: Pages, or an article number after a comma or a volume's colon: "417-433", ", 105805", "35: e70104",
#: ", art. 108962", "42:msaf088".
_PAGES = re.compile(
    r"\d\s*[-–—]{1,2}\s*[a-z]?\d|[,:]\s*(?:art(?:icle|\.)?\s*)?[a-z]{0,5}(?!(?:19|20)\d\d\s*$)\d{3,}\s*$", re.I
)
_JOURNAL_FILLER = frozenset({"of", "and", "the", "in", "on", "for", "&", "de", "a"})


def _cited_journal(piece: str) -> bool:
    """A journal as citations name it, by its volume and pages: "Econometric Theory 42, 501–513",
    "Journal of Econometrics 242, 105805"."""
    piece = piece.rstrip(". ")
    tail = _VOLUME_PAGES.search(piece)
    if tail is None or not _PAGES.search(tail.group(0)) or leading_date(piece):
        return False
    words = piece[: tail.start()].split()
    return not any(ch.isdigit() for word in words for ch in word) and _journal_name(words, most=8)


def _line_under_title(lines: Sequence[str], title: str, author_text: str) -> str | None:
    """A card's line right under the title, when it is a short name (title, then journal, then
    date and authors: listing pages of site generators)."""
    if len(title.split()) < 4 or is_person_name(title):
        return None  # a name over a tagline is a person's card
    for index, line in enumerate(lines[:-1]):
        if line.strip() == title:
            below = lines[index + 1].strip()
            words = below.split()
            if (
                0 < len(words) <= 8
                and below[:1].isupper()
                and not below.endswith(".")
                and below not in author_text
                and not looks_like_authors(below)
                and leading_date(below) is None
                and not parse_date_text(_DATE_LABEL.sub("", below))
                and not _only_links(below)
                and not LINK_WORDS.match(below)
                and not _WITH.match(below)  # "With Jane Doe and Bo Roe": the co-authors
            ):
                return _clean_venue(below) or None
            return None
    return None


_TRAILING_YEAR = re.compile(r",?\s*(?:\((?:19|20)\d\d\)|(?:19|20)\d\d)\s*$")  # not "(ICSRA 2024)"'s year
#: A year that closes a venue line after a separator ("X 42, 1–9 · 2019"), not a page range's end.
_CLOSING_YEAR = re.compile(r"\s*[,·•|]\s*(?:\((?:19|20)\d\d\)|(?:19|20)\d\d)\s*$")
#: Volume, issue and pages after a venue: "92, 411-427", "vol. 5(2), pp. 1–10", "42: 501–513", "61, no. 2".
_VOLUME_PAGES = re.compile(
    r"[,\s]+(?:vol(?:ume)?\.?\s*)?\d{1,5}(?:\s*\(\s*[\w-]{1,9}\s*\)|,\s*no\.?\s*\d{1,4})?"
    r"(?:\s*[,:]\s*(?:pp?\.?\s*|art(?:icle|\.)?\s*)?[a-z]{0,5}\d{1,10}(?:\s*[-–—]{1,2}\s*[a-z]?\d{1,7})?)?\s*$",
    re.I,
)


#: A note on the owner's part set before a book's title: "(ed., with T. Brandt)", "(trans.)".
_CONTRIBUTION_NOTE = re.compile(r"^\((?:eds?\.|edited|co-?edited|with|trans\.|translated)[^()]*\)\s*", re.I)


#: The quotes a title stood in, left behind when the title was taken out of the line.
_EMPTY_QUOTES = re.compile(r"[‘“\"']\s*[’”\"']\s*[,.]?")


def _clean_venue(text: str) -> str:
    text = _CONTRIBUTION_NOTE.sub("", _EMPTY_QUOTES.sub(" ", _URL.sub("", text)).strip(" ."))
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1]  # "(Ashdown University Press, 2025)": the venue in brackets
    text = _BRACKETED_YEAR.sub("", text)
    # The year may close the line after the volume and pages ("X 42, 1990–2003 · 2019").
    text = _TRAILING_YEAR.sub("", _VOLUME_PAGES.sub("", _CLOSING_YEAR.sub("", text)))
    text = _PRESENTATION.sub("", text)
    text = clean_text(text.replace('"', " ").replace("“", " ").replace("”", " "))
    venue = _without_place_words(text, _VENUE_PREFIX.match(text)).strip(" ,.;:([]-–—")
    # A closing bracket stays when it closes one the venue opened: "Conference on X (ICSRA 2024)".
    return venue if venue.count("(") == venue.count(")") else venue.strip(" ,.;:()")


def _without_place_words(venue: str, prefix: re.Match[str] | None) -> str:
    """A venue without "In" or "Proceedings of" before it (``prefix``, its match of
    ``_VENUE_PREFIX``); a status before it ("Submitted to") stays: "Submitted to X" -> "X 2026"
    is the news."""
    return venue if prefix is None or prefix.group("status") else venue[prefix.end():]


_BARE_YEAR = re.compile(r"\s*(?:19|20)\d\d\s*")
_A_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _year(entry: Entry, rest: str, context: Context) -> int | None:
    named = entry.fields.get("date")
    if named and (year := parse_year(named)):
        return year
    # The year in brackets is the citation's ("(2019)"), not a page range after it ("1990–2003"),
    # and so is a year set in bold alone (ACS style: "*ACS Energy Lett.* **2024**, *9*, 1980–1989").
    bracketed = _BRACKETED_YEAR.search(rest)
    bold = next((s.text for s in entry.spans if s.kind == "bold" and _BARE_YEAR.fullmatch(s.text)), None)
    # A badge that dates the entry ("[27] 2025" over the title), not pages that read like years ("2011–2026").
    badge = next((s.text for s in entry.spans if s.kind == "badge" and len(_A_YEAR.findall(s.text)) == 1), None)
    year = parse_year(bracketed.group(0) if bracketed else bold or badge or _DOI_NAME.sub("", _URL.sub("", rest)))
    if year is None and context.date:
        year = parse_year(context.date)
    return year


def _identifiers(entry: Entry, rest: str) -> tuple[str | None, str | None]:
    doi = arxiv = None
    for link in entry.links:
        doi = doi or find_doi(link.href)
        arxiv = arxiv or find_arxiv(link.href)
    return doi or find_doi(rest), arxiv or find_arxiv(rest)


def _has_paper_link(entry: Entry) -> bool:
    return any(_PAPER_HOST.search(link.href) or _PAPER_LINK.match(link.text or "") for link in entry.links)


def _url(links: Sequence[Span], title: str) -> str | None:
    for link in links:
        if link.href.startswith("http") and clean_title(link.text) == title:
            return link.href
    for link in links:
        if link.href.startswith(("http", "/")) and _PAPER_LINK.match(link.text or ""):
            return link.href
    for link in links:
        if _PAPER_HOST.search(link.href):
            return link.href
    return None


def _only_links(line: str, entry: Entry | None = None) -> bool:
    """A line made of link labels only: "[PDF] [Code] [Video]"."""
    words = line.replace("[", " ").replace("]", " ").replace("|", " ").replace("/", " ").split()
    if not words or len(words) > 12:
        return False
    # "Paper Journal Appendix Replication Package": a row of labels, a word of two-word labels aside.
    labels = sum(1 for word in words if LINK_WORDS.match(word))
    return labels == len(words) or (labels >= 3 and labels >= len(words) - 1)


def _a_row_of_links(line: str, entry: Entry) -> bool:
    """A line of two or more short links and their separators alone, under a citation: "PubMed | Full text"."""
    shown = [s.text for s in entry.links if s.text and len(s.text.split()) <= 4 and s.text in line]
    if len(shown) < 2 or any(s.kind == "bold" and s.text in shown for s in entry.spans):
        return False  # a bold link is a title ("**Campaign Finance** | Publisher Version")
    for text in shown:
        line = line.replace(text, " ", 1)
    return not line.strip(" |/·•,;[]()–—-")
