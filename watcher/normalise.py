"""The normalise stage: clean what an extractor read and merge the items a page shows twice.

``normalise_records`` is pure and cheap: it runs on every check of every source, so
it cleans each field with the shared functions of ``watcher.text`` once, and finds
duplicates through a dictionary of identity keys (no pairwise comparison).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields as dataclass_fields
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from watcher.records import Award, Member, NewsItem, Paper, Record, Role
from watcher.text import (
    clean_text,
    clean_title,
    find_arxiv,
    find_doi,
    normalise_key,
    parse_date,
    parse_year,
    split_authors,
)

__all__ = ["normalise_record", "normalise_records"]

_BARE_ARXIV = re.compile(r"(?:arxiv:\s*)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.I)


def normalise_records(records: Iterable[Record]) -> list[Record]:
    """Clean every record, drop those without their primary text, merge duplicates.

    Two records are duplicates when they share a key (the same news row shown twice);
    papers also when one has a DOI or arXiv id the other lacks but their titles agree
    (a paper listed under two headings, once with its DOI link). The merged record keeps
    the richer of the two (more non-empty fields) and takes missing fields from the other.
    The order of first occurrence is kept.
    """
    merged: list[Record] = []
    slot_of: dict[str, int] = {}
    for raw in records:
        record = normalise_record(raw)
        if record is None:
            continue
        aliases = _aliases(record)
        slot = _find_duplicate(record, aliases, merged, slot_of)
        if slot is None:
            slot = len(merged)
            merged.append(record)
        else:
            merged[slot] = merge_records(merged[slot], record)
            # The merged record may have gained an identifier neither copy had alone.
            aliases += _aliases(merged[slot])
        for alias in aliases:
            slot_of.setdefault(alias, slot)
    return first_per_key(_without_shared_identifiers(merged))


class _Identified(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def key(self) -> str: ...


_Item = TypeVar("_Item", bound=_Identified)


def first_per_key(items: Iterable[_Item]) -> list[_Item]:
    """One item per identity (kind and key), the first: entries kept apart that still share a key
    (a talk and a paper of one title, neither with an identifier) would otherwise be read as one
    item now in one form, now in the other."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for item in items:
        if (item.kind, item.key) not in seen:
            seen.add((item.kind, item.key))
            kept.append(item)
    return kept


def _without_shared_identifiers(records: list[Record]) -> list[Record]:
    """Papers of unlike titles that share a DOI or arXiv id (an entry copied with its links, a
    blog post listed under its paper's DOI) are told apart by their titles: an identifier that two
    papers of one page carry identifies neither."""
    holders = Counter(
        identifier for r in records if isinstance(r, Paper) for identifier in (r.doi, r.arxiv) if identifier
    )
    if all(count == 1 for count in holders.values()):
        return records
    return [
        replace(r, doi=None if holders[r.doi] > 1 else r.doi, arxiv=None if holders[r.arxiv] > 1 else r.arxiv)
        if isinstance(r, Paper) and (holders[r.doi] > 1 or holders[r.arxiv] > 1)
        else r
        for r in records
    ]


def normalise_record(record: Record) -> Record | None:
    """One record with clean fields, or None when its primary field (title, text, name) is empty."""
    cleaned = _CLEANERS[record.kind](record)
    return cleaned if _primary(cleaned) else None


def merge_records(first: Record, second: Record) -> Record:
    """The richer of two duplicates, completed with the other's non-empty fields."""
    richer, poorer = (second, first) if _filled(second) > _filled(first) else (first, second)
    missing = {
        f.name: getattr(poorer, f.name)
        for f in dataclass_fields(richer)
        if _empty(getattr(richer, f.name)) and not _empty(getattr(poorer, f.name))
    }
    return replace(richer, **missing) if missing else richer


def _clean_paper(paper: Paper) -> Paper:
    url = _clean_optional(paper.url)
    return _rebuilt(
        paper,
        Paper,
        title=clean_title(paper.title),
        authors=_clean_authors(paper.authors),
        venue=_clean_optional(paper.venue),
        year=parse_year(paper.year),
        url=url,
        # A DOI or arXiv link is as good an identifier as the field itself.
        doi=find_doi(paper.doi) or _bare_doi(paper.doi) or find_doi(url),
        arxiv=_clean_arxiv(paper.arxiv) or find_arxiv(url),
    )


def _clean_role(role: Role) -> Role:
    return _rebuilt(
        role,
        Role,
        title=clean_title(role.title),
        organization=_clean_optional(role.organization),
        start=_clean_date(role.start),
        end=_clean_date(role.end),
    )


def _clean_news(news: NewsItem) -> NewsItem:
    return _rebuilt(
        news, NewsItem, text=clean_text(news.text), date=_clean_date(news.date), url=_clean_optional(news.url)
    )


def _clean_award(award: Award) -> Award:
    return _rebuilt(
        award,
        Award,
        title=clean_title(award.title),
        organization=_clean_optional(award.organization),
        year=parse_year(award.year),
    )


def _clean_member(member: Member) -> Member:
    return _rebuilt(
        member, Member, name=clean_text(member.name), role=_clean_optional(member.role), url=_clean_optional(member.url)
    )


def _rebuilt(record: Any, cls: type[Any], **fields: Any) -> Any:
    """A ``cls`` with ``fields``; the record itself when cleaning changed none of them (most records
    arrive clean, and building a frozen dataclass costs more than comparing its fields)."""
    if type(record) is not cls:
        return cls(**fields)
    for name, value in fields.items():
        if getattr(record, name) != value:
            return cls(**fields)
    return record


_CLEANERS: Mapping[str, Callable[[Any], Record]] = {
    "paper": _clean_paper,
    "role": _clean_role,
    "news": _clean_news,
    "award": _clean_award,
    "member": _clean_member,
}


def _clean_optional(text: str | None) -> str | None:
    return clean_text(text) or None


def _clean_authors(authors: Iterable[str] | str | None) -> tuple[str, ...]:
    if isinstance(authors, str):
        return split_authors(authors)
    return tuple(filter(None, [clean_text(name).strip(" ,;") for name in authors or ()]))


def _clean_date(text: str | None) -> str | None:
    """ISO when the date parses; the cleaned text otherwise ("Spring 2026"); None for "present"."""
    cleaned = clean_text(text)
    return parse_date(cleaned) or (cleaned if cleaned.lower() not in _OPEN_ENDED else None) or None


_OPEN_ENDED = frozenset({"present", "now", "current", "today", "ongoing"})


def _bare_doi(text: str | None) -> str | None:
    cleaned = clean_text(text).lower()
    return cleaned or None


def _clean_arxiv(text: str | None) -> str | None:
    cleaned = clean_text(text)
    if not cleaned:
        return None
    match = _BARE_ARXIV.fullmatch(cleaned)
    return match.group(1) if match else find_arxiv(cleaned) or cleaned


def _primary(record: Record) -> str:
    return record.name if isinstance(record, Member) else record.text if isinstance(record, NewsItem) else record.title


def _empty(value: object) -> bool:
    return value is None or value == "" or value == ()


def _filled(record: Record) -> int:
    return sum(not _empty(getattr(record, f.name)) for f in dataclass_fields(record))


def _aliases(record: Record) -> tuple[str, ...]:
    """Every identity under which a duplicate of this record may appear."""
    if isinstance(record, Paper):
        names = [f"doi:{record.doi}" if record.doi else "", f"arxiv:{record.arxiv}" if record.arxiv else ""]
        names.append(f"title:{normalise_key(record.title)}")
        return tuple(f"paper {name}" for name in names if name)
    if isinstance(record, Role):
        # The same role mentioned without its dates (a tagline) and with them (a CV line).
        return (f"role {record.key}", f"role {normalise_key(record.title)}|{normalise_key(record.organization)}")
    return (f"{record.kind} {record.key}",)


def _find_duplicate(
    record: Record, aliases: tuple[str, ...], merged: list[Record], slot_of: Mapping[str, int]
) -> int | None:
    for alias in aliases:
        slot = slot_of.get(alias)
        if slot is not None and _compatible(merged[slot], record):
            return slot
    return None


#: Two titles sharing less than this share of the shorter one's words are two papers whatever
#: identifier they share: a retitled version keeps most of its words.
UNLIKE_TITLES = 0.5
_TITLE_FILLER = frozenset({"the", "and", "for", "with", "from", "via", "into", "its", "our", "are", "how", "what"})


def alike_titles(first: str, second: str) -> bool:
    """Whether two paper titles may be one paper's (a typo, a subtitle, a retitling that keeps
    most words), whatever identifiers say. Words are compared by their first four letters, so
    "Maps" and "Mapping" agree."""
    if first == second:
        return True  # most pairs asked about (one paper, read twice): no words to compare
    return alike_stems(title_stems(first), title_stems(second))


def alike_stems(a: frozenset[str], b: frozenset[str]) -> bool:
    """``alike_titles`` for titles already cut to their ``title_stems`` (to compare many pairs)."""
    if not a or not b:
        return True
    return len(a & b) >= UNLIKE_TITLES * min(len(a), len(b))


def title_stems(title: str) -> frozenset[str]:
    """A title's words as ``alike_titles`` compares them."""
    return frozenset(
        word[:4] for word in normalise_key(title).split() if len(word) >= 3 and word not in _TITLE_FILLER
    )


def _same_venue(first: Paper, second: Paper) -> bool:
    return not first.venue or not second.venue or normalise_key(first.venue) == normalise_key(second.venue)


def _compatible(first: Record, second: Record) -> bool:
    """Papers with the same title but different DOIs (a workshop and a journal version) stay
    apart, and so do roles with the same title at the same place in different years."""
    if isinstance(first, Paper) and isinstance(second, Paper):
        if not alike_titles(first.title, second.title):
            return False  # one DOI on two unlike titles: a copied link, not one paper
        if first.key != second.key and not _same_venue(first, second):
            # A preprint entry kept beside its published version is two entries.
            return False
        return all(not a or not b or a == b for a, b in ((first.doi, second.doi), (first.arxiv, second.arxiv)))
    if isinstance(first, Role) and isinstance(second, Role):
        return not first.start or not second.start or first.start[:4] == second.start[:4]
    return True
