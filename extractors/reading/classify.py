"""Deciding what a list holds: by the words of its heading, and by the shape of its entries.

A list is the entries of one group of repeated records, the loose lines of one block, or a run
of small sections, within one section. Each field reader says how much an entry looks like its
kind (``Reading.score``). A heading that announces a kind ("Publications", "PhD Students") lets
entries in that read at a low bar; without one, a kind is chosen only when most entries read
clearly as it (a list of names with photos and roles, of dated sentences, of citations). A list
nothing fits is not read: an item nobody can tell is there is better than a false report.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from extractors.reading.awards import read_award
from extractors.reading.context import Context, Reading, is_placeholder
from extractors.reading.dates import day_first_where_written
from extractors.reading.entries import Entry
from extractors.reading.news import read_news
from extractors.reading.papers import read_paper
from extractors.reading.people import read_member
from extractors.reading.roles import drop_undated_roles, read_role
from watcher.budget import check_deadline
from watcher.records import Record

__all__ = ["READERS", "Decision", "read_list"]

#: The readers, cheapest first: a list is tried against each until one fits all its entries.
READERS: Mapping[str, Callable[[Entry, Context], Reading | None]] = {
    "news": read_news,
    "member": read_member,
    "award": read_award,
    "role": read_role,
    "paper": read_paper,
}
#: The score an entry needs under a heading that announces its kind.
_ANNOUNCED = {"paper": 0.25, "news": 0.2, "member": 0.5, "award": 0.3, "role": 0.5}
#: The score an entry needs when only its shape speaks.
_SHAPE = {"paper": 0.7, "news": 0.8, "member": 0.8, "award": 0.85, "role": 0.85}
#: Announced kinds whose headings may name people too ("Research support", "Fellows"): a list that
#: reads wholly as people by its shape is people.
_PEOPLE_OVER = frozenset({"award"})
#: Share of a list's entries that must read as a kind for the list to be that kind.
_SHAPE_SHARE = 0.6
_ANNOUNCED_SHARE = 0.3
#: Kinds a section of another kind often holds too, and the score they need there: the papers
#: listed under each position of a CV's experience section.
_ALSO = {"role": ("paper", 0.5)}

#: (index of the entry in its list, what it read as)
_Read = tuple[int, Reading]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a list was read as, and why (for ``watcher extract --explain``)."""

    kind: str | None
    why: str
    records: tuple[Record, ...]


def read_list(entries: Sequence[Entry], context: Context, *, min_shape_entries: int = 2) -> Decision:
    """Read a list's entries as the kind its heading announces, else as the kind its shape shows."""
    entries = [entry for entry in entries if not is_placeholder(entry.text)]
    if not entries:
        return Decision(None, "no entries", ())
    if context.unlisted:
        return Decision(None, f"the heading ({context.group}) names things not reported", ())
    with day_first_where_written(text for entry in entries for text in _date_places(entry)):
        return _read_list(entries, context, min_shape_entries)


def _date_places(entry: Entry) -> Iterator[str]:
    """Where an entry writes its date: a date field, its heading, its first lines or cells."""
    yield from (text for text in (entry.fields.get("date"), entry.heading) if text)
    yield from entry.lines[:2]
    yield from entry.cells[:3]


def _read_list(entries: Sequence[Entry], context: Context, min_shape_entries: int) -> Decision:
    count = len(entries)
    announced = context.kind
    if announced in _PEOPLE_OVER and (people := _read_all("member", entries, context, _SHAPE["member"], count)):
        # Person cards under "Research support" or "Fellows": the people, whatever the heading's other sense.
        why = f"the heading announces {announced}, but all {count} entries are people"
        return Decision("member", why, _in_order(people))
    if announced is not None:
        found = _read_all(announced, entries, context, _ANNOUNCED[announced], 1) or []
        also = _also(announced, entries, context, {index for index, _ in found})
        if len(found) >= max(1, _ANNOUNCED_SHARE * count):
            why = f"the heading announces {announced}; {len(found)} of {count} entries read as {announced}"
            if also:
                why += f", {len(also)} as {_ALSO[announced][0]}"
            return Decision(announced, why, _in_order(found + also))
        if also and len(also) >= _ANNOUNCED_SHARE * count:
            other = _ALSO[announced][0]
            return Decision(other, f"under a {announced} heading, {len(also)} of {count} entries read as {other}",
                            _in_order(also))
    best: tuple[float, str, list[_Read]] | None = None
    need = max(min_shape_entries, math.ceil(_SHAPE_SHARE * count))
    for kind in READERS:
        if kind == announced:
            continue
        found = _read_all(kind, entries, context, _SHAPE[kind], need)
        if found is None:
            continue
        share = len(found) / count
        if best is None or share > best[0]:
            best = (share, kind, found)
            if share == 1.0:
                break
            need = max(need, len(found) + 1)  # another kind must fit more entries to win
    if best is not None:
        share, kind, found = best
        lead = f"the heading announces {announced}, but " if announced else ""
        return Decision(kind, f"{lead}{len(found)} of {count} entries have the shape of {kind}", _in_order(found))
    why = f"the heading announces {announced}, but too few entries read so" if announced else "no kind fits"
    return Decision(None, why, ())


def _read_all(kind: str, entries: Sequence[Entry], context: Context, bar: float, need: int) -> list[_Read] | None:
    """The entries that read as ``kind`` at ``bar``; None as soon as fewer than ``need`` can."""
    reader = READERS[kind]
    found: list[_Read] = []
    misses_allowed = len(entries) - need
    for index, entry in enumerate(entries):
        if not index % 256:
            check_deadline()
        reading = reader(entry, context)
        if reading is not None and reading.score >= bar:
            found.append((index, reading))
        else:
            misses_allowed -= 1
            if misses_allowed < 0:
                return None
    return found if len(found) >= need else None


def _also(announced: str, entries: Sequence[Entry], context: Context, taken: set[int]) -> list[_Read]:
    """Entries of a section that did not read as its kind but read clearly as the kind such a
    section often holds too."""
    if announced not in _ALSO:
        return []
    other, bar = _ALSO[announced]
    reader = READERS[other]
    found: list[_Read] = []
    for index, entry in enumerate(entries):
        if index in taken:
            continue
        reading = reader(entry, context)
        if reading is not None and reading.score >= bar:
            found.append((index, reading))
    return found


def _in_order(found: list[_Read]) -> tuple[Record, ...]:
    records = [record for _, reading in sorted(found, key=lambda pair: pair[0])
               for record in (reading.record, *reading.extra)]
    return tuple(drop_undated_roles(records))
