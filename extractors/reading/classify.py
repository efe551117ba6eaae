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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from extractors.reading.awards import read_award
from extractors.reading.context import Context, Reading
from extractors.reading.entries import Entry
from extractors.reading.news import read_news
from extractors.reading.papers import read_paper
from extractors.reading.people import read_member
from extractors.reading.roles import read_role
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
#: Share of a list's entries that must read as a kind for the list to be that kind.
_SHAPE_SHARE = 0.6
_ANNOUNCED_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class Decision:
    """What a list was read as, and why (for ``watcher extract --explain``)."""

    kind: str | None
    why: str
    records: tuple[Record, ...]


def read_list(entries: Sequence[Entry], context: Context, *, min_shape_entries: int = 2) -> Decision:
    """Read a list's entries as the kind its heading announces, else as the kind its shape shows."""
    if not entries:
        return Decision(None, "no entries", ())
    count = len(entries)
    announced = context.kind
    if announced is not None:
        readings = _read_all(announced, entries, context, _ANNOUNCED[announced], 1)
        if readings is not None and len(readings) >= max(1, _ANNOUNCED_SHARE * count):
            return Decision(
                announced,
                f"the heading announces {announced}; {len(readings)} of {count} entries read as {announced}",
                tuple(r.record for r in readings),
            )
    best: tuple[float, str, list[Reading]] | None = None
    need = max(min_shape_entries, math.ceil(_SHAPE_SHARE * count))
    for kind in READERS:
        if kind == announced:
            continue
        readings = _read_all(kind, entries, context, _SHAPE[kind], need)
        if readings is None:
            continue
        share = len(readings) / count
        if best is None or share > best[0]:
            best = (share, kind, readings)
            if share == 1.0:
                break
            need = max(need, len(readings) + 1)  # another kind must fit more entries to win
    if best is not None:
        share, kind, readings = best
        lead = f"the heading announces {announced}, but " if announced else ""
        return Decision(
            kind,
            f"{lead}{len(readings)} of {count} entries have the shape of {kind}",
            tuple(r.record for r in readings),
        )
    why = f"the heading announces {announced}, but too few entries read so" if announced else "no kind fits"
    return Decision(None, why, ())


def _read_all(kind: str, entries: Sequence[Entry], context: Context, bar: float, need: int) -> list[Reading] | None:
    """The entries that read as ``kind`` at ``bar``; None as soon as fewer than ``need`` can."""
    reader = READERS[kind]
    readings = []
    misses_allowed = len(entries) - need
    for entry in entries:
        reading = reader(entry, context)
        if reading is not None and reading.score >= bar:
            readings.append(reading)
        else:
            misses_allowed -= 1
            if misses_allowed < 0:
                return None
    return readings if len(readings) >= need else None
