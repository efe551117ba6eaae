"""What a field reader knows besides the entry itself, and what it gives back."""

from __future__ import annotations

import re
from dataclasses import dataclass

from watcher.records import Record
from watcher.text import AsciiFolded

__all__ = [
    "LINK_WORDS", "Context", "Reading", "is_counted_label", "is_link_row", "is_noise", "is_placeholder", "is_prose",
]


@dataclass(frozen=True, slots=True)
class Context:
    """Where an entry stands: the headings above it and what they say."""

    #: Headings from the top of the page to the entry's section.
    path: tuple[str, ...] = ()
    #: The kind the headings (or landmarks) announce, if any.
    kind: str | None = None
    #: The nearest heading below the one that announced the kind ("PhD Students" under
    #: "People", "2024" under "News"), or the announcing heading itself.
    group: str = ""
    #: A date given by a heading above the entry ("2024", "May 2024").
    date: str | None = None
    #: Whether a heading above the entry names former members ("Alumni", "Past members").
    alumni: bool = False
    #: Whether the kind was announced only loosely ("Highlights" for news, or only by the page's
    #: title): an entry must show the kind's own mark (a news item its date, an award its word
    #: or year).
    loose: bool = False
    #: Whether the nearest heading names things that are not reported ("Teaching", "Talks").
    unlisted: bool = False


@dataclass(frozen=True, slots=True)
class Reading:
    """A record read from an entry, and how much the entry looked like that kind (0 to 1)."""

    record: Record
    score: float
    #: Records the entry states beside its own: the award a member's card names.
    extra: tuple[Record, ...] = ()

    @classmethod
    def of(cls, record: Record, score: float, extra: tuple[Record, ...] = ()) -> Reading:
        """A reading with its score kept to 0-1 and rounded (sums of tenths are not exact)."""
        return cls(record, round(min(max(score, 0.0), 1.0), 2), extra)


#: Labels of links beside a record, never a title: "PDF", "[Code]", "Project page".
_LINK_LABELS = (
    r"pdf|paper|arxiv|code|github|project(?: page| website)?|website|webpage|page|video|slides"
    r"|poster|bibtex|bib|doi|supp\w*|talk|demo|blog|data(?:set)?|abstract|html|link|press|media|colab|model"
    r"|post|doc|tutorial|openreview|proceedings|acm|ieee|springer|preprint|journal|publisher|published version"
    r"|full text|read more|more|details|cite|citation|ssrn|nber|repec|pubmed|pmc|pmid|google scholar|scholar"
    r"|homepage|home page|personal website|cv|email|twitter|linkedin|x|download|online|appendix|replication"
    r"|bluesky|mastodon|orcid|researchgate|semantic scholar|dblp|ads|inspire|instagram|youtube|facebook|threads"
    r"|replication files|slides and video|draft|latest draft|latest version|current draft|ungated|\d+"
)
LINK_WORDS = AsciiFolded.of(rf"^(?:\[?\s*)?(?:{_LINK_LABELS})(?:\s*\]?)?$")
#: Buttons side by side with no separator between their labels: "Download CV Google Scholar".
_LINK_RUN = AsciiFolded.of(rf"^(?:(?:{_LINK_LABELS})\s+){{1,4}}(?:{_LINK_LABELS})$")
_NOISE = re.compile(
    r"last (?:updated|modified|update|reviewed)|updated on|next review|review due|visitor count"
    # A counter ("Visitors: 12,345", "You are visitor no. 123"), not a post's word ("our visitor Mateus").
    r"|\bvisitors?\s*(?:[:#]|no\b|number\b|since\b)|^\W*visitors?\W*[\d,.]+\W*$"
    r"|page views|hits since|you are visitor|^page \d+ of \d+$"
    r"|^\W*(?:hits|views|reads|read \d+ times)\s*:?\s*[\d,.]*\W*$"
    r"|copyright|©|all rights reserved|powered by|built with|theme by|hosted (?:on|by)|back to top"
    r"|skip to (?:main )?content|\b\d+ min(?:ute)?s? read\b|cookies?\b|template (?:by|from)"
    r"|website (?:template|design)|page generated|generated (?:by|with|on)\b"
    # A wiki's print footer: the page's own address ("Retrieved from "https://…oldid=1881"").
    r"|^retrieved from\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:I|we|my|our|me|us)\b")


#: A blog's lines about a post rather than in it: "Posted in News | Leave a comment".
_POST_META = re.compile(
    r"^(?:posted (?:in|by|on)\b|filed under\b|tagged\b|categories:|leave a (?:comment|reply)|\d+ comments?$"
    r"|no comments$)",
    re.I,
)


#: A filter's or an archive's label with its count: "Bayesian (9)", "March 2025 (3)", "All (20)", and as a
#: blog's sidebar sets it, the count on its own: "research 5", "January 2026 1".
_COUNTED_LABEL = re.compile(
    r"^[^()\d]{1,40}?(?:\s(?:19|20)\d\d)?(?:\s*\((?!(?:19|20)\d\d\))\d{1,4}\)|\s+(?!(?:19|20)\d\d$)\d{1,4})$"
)


def is_noise(line: str) -> bool:
    """Page furniture: update stamps, counters, copyright, credits, a blog post's byline."""
    return len(line) < 200 and (_NOISE.search(line) is not None or _POST_META.match(line.strip()) is not None)


#: What an empty list says in place of its entries: "none at the moment", "Coming soon", "TBA".
_PLACEHOLDER = re.compile(
    r"^\W*(?:none|nothing(?: (?:here|to report))?|no (?:\w+ )?(?:papers?|publications?|preprints?|news|items?|entries"
    r"|updates?|members?|awards?)|n/?a|tba|tbd|to be (?:announced|added|updated|determined|confirmed)|coming soon"
    r"|more (?:to come|soon)|stay tuned|under construction|watch this space)"
    r"(?:\s+(?:yet|so far|for now|currently|right now|at (?:the|this) (?:moment|time)))?\W*$",
    re.I,
)


def is_placeholder(text: str) -> bool:
    """What a list shows while it has nothing to list ("none at the moment", "Coming soon!"): no item.
    When the first real entry replaces it, that entry is the news, not the placeholder's leaving."""
    return len(text) <= 40 and _PLACEHOLDER.match(text.strip()) is not None


_LINK_ROW_SEPARATOR = re.compile(r"\s*[·•|/]\s*")


_LINK_RUN_LENGTH = 80


def is_link_row(line: str) -> bool:
    """A line of two or more link labels and their separators: "Google Scholar · GitHub · Bluesky",
    or buttons side by side ("Download CV Google Scholar")."""
    pieces = [piece for piece in _LINK_ROW_SEPARATOR.split(line.strip()) if piece]
    if len(pieces) == 1:
        return len(line) <= _LINK_RUN_LENGTH and _LINK_RUN.match(line.strip())
    return len(pieces) >= 2 and all(LINK_WORDS.match(piece) for piece in pieces)


def is_counted_label(line: str) -> bool:
    """A category filter's or a blog archive's entry: a label and how many items it holds. No paper
    nor news item ("Outstanding Reviewer (3)" may well be an award held three times)."""
    return len(line.split()) <= 5 and _COUNTED_LABEL.match(line.strip()) is not None


def is_prose(text: str, words: int = 30) -> bool:
    """A passage written in the first person and longer than ``words`` words."""
    return len(text.split()) > words and _FIRST_PERSON.search(text) is not None
