"""Small shared cleaning functions: whitespace, titles, names, dates, identifiers.

Extractors and the normalise stage both use these, so a page's text is cleaned
the same way wherever it comes from.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

__all__ = [
    "AsciiFolded",
    "clean_text",
    "clean_title",
    "find_arxiv",
    "find_doi",
    "is_month_name",
    "is_preprint_doi",
    "normalise_key",
    "one_within_the_other",
    "parse_date",
    "parse_year",
    "split_authors",
    "without_html_comments",
]

_WORD = re.compile(r"\w+")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"'<>]+)", re.I)
_ARXIV_NEW = re.compile(r"(?:arxiv\.org/(?:abs|pdf|html)/|arxiv[:\s]\s*)(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
_ARXIV_OLD = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.I)
# The same two patterns in lower case, for lower-cased ASCII text: case-insensitive matching
# compares every character through case folding, and cannot skip ahead to "arxiv".
_ARXIV_NEW_LOWER = re.compile(r"arxiv(?:\.org/(?:abs|pdf|html)/|[:\s]\s*)(\d{4}\.\d{4,5})(?:v\d+)?")
_ARXIV_OLD_LOWER = re.compile(r"arxiv(?:\.org/(?:abs|pdf)/|:\s*)([a-z\-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?")
# Reads as r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)"; the no-digit-before test follows the first digit,
# so the engine can skip to a "1" or "2".
_YEAR = re.compile(r"(1(?<!\d1)9[5-9]\d|2(?<!\d2)0\d\d)(?!\d)")
_EMPHASIS = re.compile(r"[*_]{1,3}([^*_]+)[*_]{1,3}")
_BRACES = re.compile(r"^[{]+|[}]+$")
_AUTHOR_MARKS = re.compile(r"[*†‡§¶✝#]+")
# Reads as r"\s*;\s*|\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s+&\s+": every separator starts with a space,
# ";" or ","; a pattern that starts with that set lets the engine skip the letters of the names
# instead of trying four alternatives at each of them.
_AUTHOR_SEPARATOR = re.compile(
    r"[\s;,](?:(?<=\s)\s*;\s*|(?<=;)\s*|(?<=\s)\s*,\s*(?:and\s+|&\s*)?|(?<=,)\s*(?:and\s+|&\s*)?"
    r"|(?<=\s)\s*and\s+|(?<=\s)\s*&\s+)"
)
_TRAILING = " \t\r\n.,;:-–—|"
_QUOTES = "\"'“”‘’«»`"


@dataclass(frozen=True, slots=True)
class AsciiFolded:
    """A case-insensitive pattern of lower-case words that answers only whether it matches.

    ``re.I`` compares every character through case folding; ASCII text lower-cased once and
    matched case-sensitively gives the same answer several times faster. Other text keeps the
    ``re.I`` pattern (Unicode folds the Kelvin sign to "k", which ``str.lower`` does not).
    """

    folded: re.Pattern[str]
    pattern: re.Pattern[str]

    @classmethod
    def of(cls, pattern: str) -> AsciiFolded:
        return cls(re.compile(pattern), re.compile(pattern, re.I))

    def search(self, text: str) -> bool:
        if text.isascii():
            return self.folded.search(text.lower()) is not None
        return self.pattern.search(text) is not None

    def match(self, text: str) -> bool:
        if text.isascii():
            return self.folded.match(text.lower()) is not None
        return self.pattern.match(text) is not None


_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)


def without_html_comments(text: str) -> str:
    """``text`` with its HTML comments (``<!-- … -->``) each made one space: what no page shows."""
    return _HTML_COMMENT.sub(" ", text)


_HTML_TAG = re.compile(r"<[^>]*>")


def without_tags(text: str) -> str:
    """``text`` with each HTML tag made one space: the words of a markup fragment."""
    return _HTML_TAG.sub(" ", text)


def clean_text(text: str | None) -> str:
    """Collapse whitespace (including non-breaking spaces) and trim."""
    if not text:
        return ""
    if not text.isascii():  # ASCII (most text) is already NFC and has no odd spaces
        text = unicodedata.normalize("NFC", text).replace("\u00a0", " ").replace("\u200b", "")
    elif (
        # Most long texts arrive clean (the normalise stage cleans what extractors cleaned): a few
        # substring tests for str.split()'s whitespace cost less than splitting and joining them.
        len(text) > 40
        and "  " not in text
        and text[0] != " "
        and text[-1] != " "
        and "\n" not in text
        and "\t" not in text
        and "\r" not in text
        and "\x0b" not in text
        and "\x0c" not in text
        and "\x1c" not in text
        and "\x1d" not in text
        and "\x1e" not in text
        and "\x1f" not in text
    ):
        return text
    # str.split() splits on exactly the characters regex \s matches, and is several times faster.
    return " ".join(text.split())


def clean_title(text: str | None) -> str:
    """A title as a person would quote it: no surrounding quotes, markup or trailing punctuation."""
    text = clean_text(text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(r"\1", text)  # markdown emphasis
    text = text.strip(_QUOTES + " ")
    text = text.rstrip(_TRAILING).strip(_QUOTES + " ")
    if "{" in text or "}" in text:
        text = _BRACES.sub("", text)  # BibTeX protective braces
        text = text.replace("{", "").replace("}", "")
    return text.strip()


def normalise_key(text: str | None) -> str:
    """A comparison key: lower case, accents folded, only letters and digits, single spaces.

    "A Fast  Model: (v2)" and "a fast model v2" give the same key, so re-typesetting a
    title never changes an item's identity.
    """
    text = clean_text(text).casefold()
    if not text.isascii():  # only non-ASCII text can carry accents to fold
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    # The words joined by single spaces: the same as replacing each run of other characters
    # by a space and trimming, and cheaper.
    return " ".join(_WORD.findall(text))


def one_within_the_other(one: str, other: str) -> bool:
    """Two comparison keys (``normalise_key``) naming one thing more or less fully: one is the other, or
    begins or ends the other word for word ("x university" and "faculty of y x university", "x institute"
    and "x institute in berlin")."""
    if not (one and other):
        return False
    short, long = sorted((one, other), key=len)
    return short == long or long.endswith(f" {short}") or long.startswith(f"{short} ")


def split_authors(text: str | None) -> tuple[str, ...]:
    """Split an author line ("A, B, and C" / "A and B" / "A; B") into clean names."""
    text = clean_text(text)
    if not text:
        return ()
    if "*" in text or "#" in text or not text.isascii():  # the only marks ASCII text can hold
        text = _AUTHOR_MARKS.sub("", text)
    # Without ";", "&" and "and" only commas separate, and the spaces around them go with the strip below.
    parts = _AUTHOR_SEPARATOR.split(text) if ";" in text or "&" in text or "and" in text else text.split(",")
    names = [p.strip(" .") for p in parts]
    return tuple([n for n in names if n and n.lower() not in _NOT_NAMES])


_NOT_NAMES = frozenset({"et al", "others", "etc"})


def find_doi(text: str | None) -> str | None:
    """The first DOI in a text or link, lower-cased, without trailing punctuation."""
    if not text or "10." not in text:  # every DOI has it; most texts have none
        return None
    match = _DOI.search(text)
    return match.group(1).rstrip(".,;)").lower() if match else None


#: DOI prefixes of preprint servers and working-paper series: a work that has one of these and
#: later a publisher's DOI is the same work, published.
_PREPRINT_DOI = re.compile(
    r"^10\.(?:48550|31234|31219|31235|31222|31223|31224|31226|31230|31237|2139|21203|20944|36227|26434|22541)/"
    r"|^10\.1101/\d{4}\.\d{2}\.\d{2}\.|^10\.3386/w\d"
)


def is_preprint_doi(doi: str | None) -> bool:
    """Whether a DOI is a preprint server's (arXiv, bioRxiv, PsyArXiv/OSF, SSRN, NBER …)."""
    return bool(doi) and _PREPRINT_DOI.match(doi.lower()) is not None


#: A venue that only names a preprint server ("arXiv preprint arXiv:2106.10866", "PsyArXiv",
#: "bioRxiv 2024"): what is left once the server's names, its ids and years are taken out.
_PREPRINT_SERVER_WORDS = re.compile(
    r"\b(?:[a-z]*rxiv|corr|ssrn|osf|preprints?|e-?prints?|working papers?|abs|cs|math|stat|physics|q-bio|econ)\b"
    r"|\b\d{4}[.\s]\d{4,5}(?:v\d+)?\b|\b(?:19|20)\d\d\b|\s*['’]?\b\d\d\b|[^\w]+|_",  # "arXiv '25" too
    re.I,
)


def is_preprint_server_venue(venue: str | None) -> bool:
    """Whether a venue names nothing but a preprint server or an unpublished paper's label (a listed
    paper's venue appearing as "arXiv" or "Working paper" says no more than the listing did)."""
    if not venue:
        return False
    if _DRAFT_LABEL.fullmatch(venue.strip(" .()[]")):
        return True  # "Working paper", "Manuscript": a label a restyle puts on an unpublished paper
    if not re.search(r"rxiv|corr\b|ssrn|\bosf\b|preprint", venue, re.I):
        return False
    return not _PREPRINT_SERVER_WORDS.sub("", venue).strip()


_DRAFT_LABEL = re.compile(r"(?:working paper|manuscript|draft|mimeo|work in progress|preprint)s?", re.I)


def find_arxiv(text: str | None) -> str | None:
    """The first arXiv identifier in a text or link, without its version suffix."""
    if not text:
        return None
    if text.isascii():
        lowered = text.lower()
        if "arxiv" not in lowered:  # both patterns need it; most texts lack it
            return None
        match = _ARXIV_NEW_LOWER.search(lowered) or _ARXIV_OLD_LOWER.search(lowered)
        return text[match.start(1) : match.end(1)] if match else None  # the identifier as written
    match = _ARXIV_NEW.search(text) or _ARXIV_OLD.search(text)
    return match.group(1) if match else None


def parse_year(text: str | int | None) -> int | None:
    """The last plausible year in a text ("NeurIPS 2026" -> 2026)."""
    if isinstance(text, int):
        return text if 1950 <= text <= 2099 else None
    if not text:
        return None
    if not isinstance(text, str):  # as it always was (the pattern raises its TypeError)
        years = _YEAR.findall(text)
        return int(years[-1]) if years else None
    # The last match is wanted: try the pattern at each "19" / "20" from the end (found by a fast
    # substring search) instead of running it over the whole text. Matches cannot overlap (a year
    # is a whole run of digits), so the last place it matches is the last of findall's matches.
    at_19, at_20 = text.rfind("19"), text.rfind("20")
    while at_19 >= 0 or at_20 >= 0:
        if at_20 > at_19:
            start, at_20 = at_20, text.rfind("20", 0, at_20 + 1)
        else:
            start, at_19 = at_19, text.rfind("19", 0, at_19 + 1)
        if match := _YEAR.match(text, start):
            return int(match.group(1))
    return None


_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ]
    )
    for m in names
}


def is_month_name(word: str) -> bool:
    """Whether a lower-case word names a month ("nov", "november")."""
    return word in _MONTHS


def parse_date(text: str | None) -> str | None:
    """An ISO date (or ``YYYY-MM`` / ``YYYY``) for what a page writes as a date.

    Handles "Sep 02, 2026", "2 September 2026", "2026/10", "2026-10-02", "10/2026",
    "Present"/"now" (-> None) and plain years. Anything else gives None rather than a guess.
    """
    return _parse_clean_date(clean_text(text).strip("[]() .:"))


@lru_cache(maxsize=2048)  # pages repeat their dates ("2024", "Sep 2024") and the reading never changes
def _parse_clean_date(text: str) -> str | None:
    if not text or text.lower() in {"present", "now", "current", "today", "ongoing"}:
        return None
    if m := re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?", text):
        return _iso(int(m[1]), int(m[2]), int(m[3]))
    if m := re.fullmatch(r"(\d{4})[-/.](\d{1,2})", text):
        return _iso(int(m[1]), int(m[2]))
    if m := re.fullmatch(r"(\d{1,2})[-/.](\d{4})", text):
        return _iso(int(m[2]), int(m[1]))
    if m := re.fullmatch(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", text):
        month = _MONTHS.get(m[1].lower())
        return _iso(int(m[3]), month, int(m[2])) if month else None
    if m := re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})", text):
        month = _MONTHS.get(m[2].lower())
        return _iso(int(m[3]), month, int(m[1])) if month else None
    if m := re.fullmatch(r"([A-Za-z]+)\.?,?\s+(\d{4})", text):
        month = _MONTHS.get(m[1].lower())
        return _iso(int(m[2]), month) if month else None
    if m := re.fullmatch(r"(\d{4})", text):
        return m[1]
    return None


def _iso(year: int, month: int | None, day: int | None = None) -> str | None:
    try:
        if day is not None and month is not None:
            return date(year, month, day).isoformat()
        if month is not None and 1 <= month <= 12:
            return f"{year:04d}-{month:02d}"
    except ValueError:
        return None
    return None
