"""Dates as pages write them, to ISO: "25 April 2026", "Feb 2026", "2023.9", "[05/24]",
"17/12/2021", "Sep. 2, 2024", "14. October 2024", "Mon, 14 Oct 2024", "2024年10月14日",
"Spring 2024", "2019 – present".

Every pattern here is anchored or bounded and free of nested quantifiers, so matching takes
time linear in the text, whatever the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date

__all__ = ["DATE", "SEASONS", "DateRange", "century_year", "day_first_where_written", "find_date", "find_range",
           "full_end_year", "leading_date", "only_a_span", "only_a_when", "parse_date_text"]

_MONTH_NAMES = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    # French, German and Spanish names, as lab pages in those countries write them ("9 décembre 2024").
    r"|janv(?:ier)?|f[ée]vr(?:ier)?|mars|avr(?:il)?|mai|juin|juil(?:let)?|ao[ûu]t|octobre|novembre|d[ée]c(?:embre)?"
    r"|januar|februar|m[äa]rz|juni|juli|oktober|okt|dezember|dez"
    r"|enero|febrero|marzo|abril|mayo|junio|julio|agosto|sept?iembre|octubre|noviembre|diciembre"
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
            ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
            ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ),
        start=1,
    )
    for name in names
} | {
    name: number
    for number, names in enumerate(
        (
            ("janv", "janvier", "januar", "enero"), ("fevr", "févr", "février", "fevrier", "februar", "febrero"),
            ("mars", "märz", "marz", "marzo"), ("avr", "avril", "abril"), ("mai", "mayo"),
            ("juin", "juni", "junio"), ("juil", "juillet", "juli", "julio"), ("août", "aout", "agosto"),
            ("septiembre", "setiembre"), ("octobre", "oktober", "okt", "octubre"), ("novembre", "noviembre"),
            ("déc", "décembre", "decembre", "dezember", "dez", "diciembre"),
        ),
        start=1,
    )
    for name in names
}
_SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
#: The seasons pages date by ("Fall 2025"), as a regex alternation in lower case.
SEASONS = "|".join(_SEASONS)
_ORD = r"(?:st|nd|rd|th)?"
#: A weekday before a date: "Mon, 14 Oct 2024", "Monday, October 14, 2024".
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?,?\s+)?"
#: One date in any of the written forms; named groups say which parts it has.
DATE = (
    rf"(?:(?P<y1>\d{{4}})[-/.](?P<m1>\d{{1,2}})[-/.](?P<d1>\d{{1,2}})"
    rf"|(?P<a2>\d{{1,2}})(?P<s2>[-/.])(?P<b2>\d{{1,2}})[-/.](?P<y2>\d{{4}})"
    rf"|{_WEEKDAY}(?P<mon3>{_MONTH_NAMES})\.?\s+(?P<d3>\d{{1,2}}){_ORD},?\s+(?P<y3>\d{{4}})"
    rf"|{_WEEKDAY}(?P<d4>\d{{1,2}})(?:st|nd|rd|th|er|\.)?[\s-]+(?P<mon4>{_MONTH_NAMES})\.?,?[\s-]+(?P<y4>\d{{4}})"
    rf"|(?P<y11>\d{{4}})\s?年\s?(?P<m11>\d{{1,2}})\s?月(?:\s?(?P<d11>\d{{1,2}})\s?日)?"
    rf"|(?P<mon5>{_MONTH_NAMES})\.?\s*[-,]?\s*(?:(?P<y5>\d{{4}})|['’](?P<yy5>\d{{2}}))(?!\d)"
    rf"|(?P<season>{SEASONS})\s+(?P<y6>\d{{4}})"
    rf"|(?P<y7>\d{{4}})[-/.](?P<m7>\d{{1,2}})(?![\d.])"
    rf"|(?P<m8>\d{{1,2}})[-/.](?P<y8>\d{{4}})"
    rf"|(?P<m9>\d{{1,2}})/(?P<y9>\d{{2}})(?=\s*[\])：:|]|\s+[-–—])"
    rf"|(?P<y10>(?:19|20)\d\d)(?!\d))"
)
_DATE = re.compile(DATE, re.I)
_LEADING = re.compile(
    rf"\s*(?:[\[(【*_]+\s*)?(?:{DATE})\s*(?:[\])】*_]+\s*)?(?:[:：\-–—|•·>]+\s*|,\s+|\s|$)", re.I
)
_OPEN_END = r"present|now|current|today|ongoing|date|\.\.\."
_RANGE = re.compile(
    rf"(?P<start>{DATE.replace('?P<', '?P<s_')})\s*(?:-{{1,2}}|–|—|~|to|until|till)\s*"
    rf"(?:(?P<end>{DATE.replace('?P<', '?P<e_')}|{_OPEN_END}|(?P<e_yy>\d\d))(?![\w/-])|(?=\s*(?:$|[|,])))",
    re.I,
)


_DAY_FIRST: ContextVar[bool] = ContextVar("day_first", default=False)
_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,2})[-/.](\d{1,2})[-/.](?:19|20)\d\d(?!\d)")


@contextmanager
def day_first_where_written(texts: Iterable[str]) -> Iterator[None]:
    """Read "07/06/2021" as 7 June within texts (one list's) whose numeric dates put the day
    first where it shows ("17/12/2021") and never the month first ("12/17/2021")."""
    day_first = month_first = False
    for text in texts:
        if "/" not in text and "." not in text and "-" not in text:
            continue
        for match in _NUMERIC_DATE.finditer(text):
            first, second = int(match.group(1)), int(match.group(2))
            day_first = day_first or first > 12
            month_first = month_first or second > 12
    token = _DAY_FIRST.set(day_first and not month_first)
    try:
        yield
    finally:
        _DAY_FIRST.reset(token)


def _iso(year: int, month: int | None = None, day: int | None = None) -> str | None:
    if not 1900 <= year <= 2100:
        return None
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return None
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _from_groups(groups: dict[str, str | None], prefix: str = "") -> str | None:
    def get(name: str) -> str | None:
        return groups.get(prefix + name)

    if y := get("y1"):
        return _iso(int(y), int(get("m1") or 0), int(get("d1") or 0))
    if y := get("y2"):
        a, b = int(get("a2") or 0), int(get("b2") or 0)
        # Day first when the first number cannot be a month ("17/12/2021"), when the list it stands
        # in writes its dates so ("07/06/2021" beside "17/12/2021"), or when dots part it ("10.02.2025",
        # as Europe writes dates); month first otherwise.
        day_first = _DAY_FIRST.get() or get("s2") == "."
        day, month = (a, b) if a > 12 or (b <= 12 and day_first) else (b, a)
        return _iso(int(y), month, day)
    if y := get("y3"):
        return _iso(int(y), _MONTHS.get((get("mon3") or "").lower()), int(get("d3") or 0))
    if y := get("y4"):
        return _iso(int(y), _MONTHS.get((get("mon4") or "").lower()), int(get("d4") or 0))
    if (y := get("y5")) or (y := get("yy5")):
        year = int(y) if len(y) == 4 else 2000 + int(y)
        return _iso(year, _MONTHS.get((get("mon5") or "").lower()))
    if y := get("y11"):
        return _iso(int(y), int(get("m11") or 0), int(get("d11") or 0) or None)
    if y := get("y6"):
        return _iso(int(y), _SEASONS[(get("season") or "").lower()])
    if y := get("y7"):
        return _iso(int(y), int(get("m7") or 0))
    if y := get("y8"):
        return _iso(int(y), int(get("m8") or 0))
    if y := get("y9"):
        return _iso(2000 + int(y), int(get("m9") or 0))
    if y := get("y10"):
        return _iso(int(y))
    return None


_BRACKETED_MONTH = re.compile(r"\s*[\[(]\s*(?P<m>\d{1,2})/(?P<y>\d\d)\s*[\])]\s*")


#: The weekday a listing prints before a date ``DATE``'s numeric forms do not take ("Tue, 01/28/2025").
_LEADING_WEEKDAY = re.compile(rf"^{_WEEKDAY}", re.I)
_CLOCK = re.compile(r"\s*(?:[-–—,@|]|\bat\b)?\s*\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?$", re.I)


def century_year(two_digits: int) -> int:
    """The year a two-digit year stands for on an academic page: "25" is 2025, "98" is 1998."""
    return 2000 + two_digits if two_digits < 70 else 1900 + two_digits


#: A day with a two-digit year, as blogs print it ("3/20/25"): read only where it is the whole text.
_SHORT_YEAR_DAY = re.compile(r"(\d{1,2}/\d{1,2}/)(\d\d)")


def parse_date_text(text: str) -> str | None:
    """The ISO date (``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``) a short text is, or None."""
    if (bracketed := _BRACKETED_MONTH.fullmatch(text)) and 1 <= int(bracketed["m"]) <= 12:
        return f"20{bracketed['y']}-{int(bracketed['m']):02d}"  # "[05/24]" alone in its cell
    text = text.strip(" []()*_.:,")
    if short := _SHORT_YEAR_DAY.fullmatch(text):
        text = f"{short[1]}{century_year(int(short[2]))}"  # "3/20/25", alone in its field
    match = _DATE.fullmatch(text)
    if match is None and (bare := _CLOCK.sub("", _LEADING_WEEKDAY.sub("", text, count=1), count=1)) != text:
        match = _DATE.fullmatch(bare.strip(" ,"))  # "Tue, 01/28/2025 - 09:00", as CMS listings print a post's time
    return _from_groups(match.groupdict()) if match else None


def leading_date(text: str) -> tuple[str, str] | None:
    """(ISO date, the rest) when a text starts with a date ("[Feb 2026] We won …"), else None."""
    if not text or not (text[0].isdigit() or text[0] in "[(【*_ " or text[0].isalpha()):
        return None
    match = _LEADING.match(text)
    if not match:
        return None
    iso = _from_groups(match.groupdict())
    if iso is None:
        return None
    return iso, text[match.end() :].strip(" :：-–—|•·")


class DateRange(tuple[str | None, str | None, int, int]):
    """(start, end, where it starts, where it ends) of a date range in a text."""

    __slots__ = ()


def find_range(text: str) -> DateRange | None:
    """The first date range in a text ("2019 – present", "Sep 2020 - Jun 2022"), or None.
    An open end ("present", or nothing after the dash: "2025–") gives ``end`` None."""
    match = _RANGE.search(text)
    if not match:
        return None
    groups = match.groupdict()
    start = _from_groups(groups, "s_")
    end_text = (match.group("end") or "").lower()
    end = None if re.fullmatch(_OPEN_END, end_text) else _from_groups(groups, "e_")
    if start is None:
        return None
    if groups.get("e_yy"):
        end = full_end_year(start, groups["e_yy"]) if groups.get("s_y10") else None
        if end is None:
            return None
    return DateRange((start, end, match.start(), match.end()))


def only_a_span(text: str) -> bool:
    """A span of dates and nothing else: "2019–2026", "Jan 2026 – Present"."""
    span = find_range(text)
    return span is not None and not text[: span[2]].strip() and not text[span[3] :].strip(" .,;")


def only_a_when(text: str) -> bool:
    """A date or a span of dates, and nothing else: "February 2026", "2019–2026"."""
    return parse_date_text(text.strip()) is not None or only_a_span(text)


def full_end_year(start: str, last_two: str) -> str | None:
    """A range's end written by its last two digits ("2016–17"), in the start's century; None
    when that year would not come after the start."""
    year = int(start[:2]) * 100 + int(last_two)
    return str(year) if year > int(start[:4]) else None


def find_date(text: str) -> tuple[str, int, int] | None:
    """The first date anywhere in a text, with where it stands."""
    for match in _DATE.finditer(text):
        iso = _from_groups(match.groupdict())
        if iso is not None:
            return iso, match.start(), match.end()
    return None
