"""Reading a news item from an entry: its date, its text, its link.

The date is where the page puts it: an element whose class names a date, a table cell under a
"Date" column, a definition term, the entry's heading, the start of its first line in any of
the styles ``dates`` knows ("[05/24]", "2023.9:", "Feb 2026:", "25 April 2026 —"), a date in
brackets at its end, or a heading above the entry ("2024", "May 2024").
"""

from __future__ import annotations

import re

from extractors.reading.context import LINK_WORDS, Context, Reading, is_counted_label, is_noise
from extractors.reading.dates import find_date, leading_date, parse_date_text
from extractors.reading.entries import Entry, is_cited
from extractors.reading.names import author_prefix, is_person_name
from watcher.records import NewsItem
from watcher.text import clean_text

__all__ = ["read_news"]

_TRAILING_DATE = re.compile(r"\s*[(\[]([^()\[\]]{4,30})[)\]]\s*\.?$")
_READ_MORE = re.compile(r"\s*(?:read more|more|details|\.\.\.|…|→|»)\s*$", re.I)
_DATE_COLUMN = re.compile(r"\b(?:date|when|time|year|month)\b", re.I)
#: A line that points to where more news is kept: "Older news are archived on my CV page", "See all news".
_POINTER = re.compile(
    r"^(?:(?:see|view|read|browse)\s+)?(?:all|older|more|past|previous|earlier)\s+(?:news|posts|updates|announcements)"
    r"(?:\s+(?:are|is|can be)\s+(?:archived|found|listed|kept)\b|\s*(?:[.:→»>]|\.\.\.|…|$)|\s+(?:on|at|in|here)\b)"
    r"|^(?:see|view|browse|show)\s+(?:all|more)\W*$"  # a news list's "See all" link
    # "See the news archive for lab updates", "Visit our news page".
    r"|^(?:see|visit|read|browse|check)\s+(?:the|our|my)\s+(?:news|blog|posts?|updates)\s+(?:archive|page)\b",
    re.I,
)
#: A date with its day or month, not a bare year: a line that is only a year is rarely a post's date.
_FULL_DATE = re.compile(r"\d{1,2}\b.*\b(?:19|20)\d\d|[A-Za-z]{3,9}\.?\s+(?:19|20)\d\d|(?:19|20)\d\d[-/.]\d")
_SKIP_URL = re.compile(r"twitter\.com|x\.com|facebook\.com|linkedin\.com", re.I)


def read_news(entry: Entry, context: Context) -> Reading | None:
    """The news item an entry is, or None when it has no words to say."""
    date, lines = _date_and_lines(entry)
    from_context = False
    if date is None and context.date:
        date, from_context = context.date, True
    if date is None and context.loose:
        return None
    kept = [line for line in lines if not (is_noise(line) or is_counted_label(line) or LINK_WORDS.match(line))]
    if kept and _POINTER.search(kept[0]):
        return None  # "Older news are archived on my CV page": where more news is, not news
    # A post with a title over its summary is told by its title ("Welcome Mateo!"), as its list shows it.
    title = _post_title(entry, kept)
    text = clean_text(title or " ".join(kept))
    text = _READ_MORE.sub("", text).strip(" :-–—|")
    if len(text.split()) < 2 or len(text) > 1500:
        return None
    url = next((s.href for s in entry.links if s.href.startswith("http") and not _SKIP_URL.search(s.href)), None)
    score = 0.2
    if date and not from_context:
        score = 0.65
    elif date:
        score = 0.35
    score += 0.15 if len(text.split()) >= 4 or title else 0.0  # a sentence, or a post's title over its summary
    score += 0.1 if url else 0.0
    if context.kind != "news" and (is_cited(entry) or _opens_with_cited_authors(kept, date, context)):
        score -= 0.4  # a dated citation, unless the heading announces news
    return Reading.of(NewsItem(text=text, date=date, url=url), score)


#: An initial as citations write them: "A.", or "AL" after a surname ("Okoro D, Ferreira AL").
_INITIAL = re.compile(r"\b[A-Z]\.|\b[A-Z]{1,3}\b(?=[,.]|\s*$)")


def _opens_with_cited_authors(lines: list[str], date: str | None, context: Context) -> bool:
    """A citation by its shape: dated by a bare year (or by any date under a heading of papers: "Apr 2025 ·
    Lind A, Roe B. Title. Journal."), and opening with authors written with their initials ("Gallagher,
    A. & Lind, I. Lysogeny in a fjord. …"). News names people by their names."""
    if not lines or not date or (len(date) != 4 and context.kind != "paper"):
        return False
    cut = author_prefix(lines[0])
    return cut > 0 and _INITIAL.search(lines[0][:cut]) is not None


def _post_title(entry: Entry, lines: list[str]) -> str | None:
    """The title a post's entry sets over its summary (a heading or a title field, then more
    lines), or None when the entry is one sentence of news."""
    if len(lines) < 2:
        return None
    # A title field may hold the subtitle too ("article-title-wrapper"): the first candidate that is a line of its own.
    candidates = (entry.fields.get("title"), entry.heading, _marked_first_line(entry, lines))
    title = next((t for t in candidates if t and t in lines[:3]), None)
    if not title or len(title.split()) < 2 or title == lines[-1]:
        return None
    # Over the title, at most a category chip or two ("Lab life"); not a sentence of the post.
    above = lines[: lines.index(title)]
    return title if all(len(line.split()) <= 3 for line in above) else None


def _byline_date(line: str) -> str | None:
    """The date of a line that is a date alone, or an author's name and a date."""
    if len(line.split()) <= 4 and (date := parse_date_text(line)):
        return date
    found = find_date(line)
    if found is None:
        return None
    date, start, end = found
    rest = _READING_TIME.sub(" ", f"{line[:start]} {line[end:]}").strip(" ·|•,-–—")
    rest = _BYLINE_WORDS.sub("", rest).strip(" ·|•,-–—")
    return date if not rest or is_person_name(rest) else None


#: What a blog's byline says around its date: "Posted on … in news", "Published … by Jane Doe".
_BYLINE_WORDS = re.compile(
    r"^(?:posted|published|updated|written)(?:\s+on)?\b|\bin\s+[\w-]+(?:\s*,\s*[\w-]+){0,3}$|^by\b|\s+by\b", re.I
)


def _field_date(named: str) -> str | None:
    """The date an element named for it holds, with what themes print beside it ("Posted on
    September 8, 2025")."""
    if date := parse_date_text(named):
        return date
    found = find_date(named) if len(named.split()) <= 10 else None
    return found[0] if found else None


def _marked_first_line(entry: Entry, lines: list[str]) -> str | None:
    """A first line that is all one link or all bold, the post's title as blog lists set it."""
    first = lines[0] if lines else ""
    return first if first and any(s.kind in ("link", "bold") and s.text == first for s in entry.spans) else None


def _date_and_lines(entry: Entry) -> tuple[str | None, list[str]]:
    lines = list(entry.lines)
    named = entry.fields.get("date")
    if named and (date := _field_date(named)):
        return date, _without(lines, named)
    if entry.cells and len(entry.cells) >= 2:
        found = _date_cell(entry)
        if found is not None:
            index, date = found
            return date, [cell for i, cell in enumerate(entry.cells) if i != index]
    if entry.heading and (date := parse_date_text(entry.heading)):
        return date, _without(lines, entry.heading)
    for index, line in enumerate(lines[:4]):
        # A blog's byline: "Posted on March 3, 2025", "Published: 2025-03-03 by Jane".
        if (byline := _BYLINE.match(line)) and (date := parse_date_text(byline.group("date"))):
            return date, [*lines[:index], *lines[index + 1 :]]
    for index, line in enumerate(lines[1:4], start=1):
        # A post's date on a line of its own under its title ("March 04, 2024"), or with its author
        # ("Seo-yeon Baek March 04, 2024"): the post's byline.
        if len(line.split()) <= 8 and _FULL_DATE.search(line) and (date := _byline_date(line)):
            return date, [*lines[:index], *lines[index + 1 :]]
    if lines:
        if lead := leading_date(lines[0]):
            return lead[0], [lead[1], *lines[1:]]
        if len(lines) > 1 and (date := parse_date_text(lines[0])):
            return date, lines[1:]
        last = lines[-1]
        if m := _TRAILING_DATE.search(last):
            date = parse_date_text(m.group(1))
            if date:
                return date, [*lines[:-1], last[: m.start()]]
        if len(lines) > 1 and (date := _post_meta_date(last)):
            return date, lines[:-1]
    return None, lines


#: How long a post takes to read, as blog themes print it beside its date: "3 min read", "One min read".
_READING_TIME = re.compile(r"\b(?:\d+|an?|one|two|three|four|five)\s*min(?:ute)?s?(?:\s+read)?\b", re.I)
#: What a post's meta line says besides its date: "· 3 min read · Jane Doe".
_META_MARK = re.compile(rf"{_READING_TIME.pattern}|[·•|]", re.I)


def _post_meta_date(line: str) -> str | None:
    """The date of a post's closing meta line ("January 15, 2024 · 1 min · Elin Lindqvist", or the
    date alone), as blog themes set it under the title and summary."""
    if len(line) > 80:
        return None
    if lead := leading_date(line):
        date, rest = lead
        return date if len(rest.split()) <= 8 and _META_MARK.search(line) else None
    return parse_date_text(line) if len(line.split()) <= 4 else None


_BYLINE = re.compile(r"^(?:posted|published)(?:\s+on)?\s*:?\s*(?P<date>[^|]{6,40}?)(?:\s+by\s+.{1,60})?$", re.I)


def _date_cell(entry: Entry) -> tuple[int, str] | None:
    for index, cell in enumerate(entry.cells):
        column = entry.columns[index] if index < len(entry.columns) else ""
        if (not entry.columns or _DATE_COLUMN.search(column)) and (date := parse_date_text(cell)):
            return index, date
    return None


def _without(lines: list[str], text: str) -> list[str]:
    out = []
    removed = False
    for line in lines:
        if not removed and text in line:
            line = line.replace(text, " ", 1).strip(" :-–—|")
            removed = True
        if line:
            out.append(line)
    return out
