"""Removals the page contradicts: an item whose title the page still shows was read amiss, not removed.

A paper, a news item or an award leaves a page with its words. When a check would report one
as removed while the page (or, for a repository, one of its files) still holds its full title
or text, the reading lost it, not the page: an entry merged with its neighbour, a list the
reader no longer recognises, a title set in a new way. "Removed" is the report users trust
least when it is wrong, so such an item is kept as stored and nothing is told; if the page
really drops it later, that check reports the removal.

Only labels long enough to be the item's own are looked for (a four-word title, a six-word
news text). A current position is looked for by its title of two words or more and its
organisation, both: a biography reworded ("a PhD student at X" -> "a PhD student advised by Y.
I work at X") still names it, while one the owner has left is gone from the page or replaced,
which the diff pairs as a move. A member is looked for by their full name on a page, where a
redesign that moves people into a table or a sidebar the reader does not follow still shows
them. A repository is left to the diff: its files keep every author list and news post that
names a member long after the person's entry is gone.

A page that another extractor claims now (a redesign) is read by other code than last time,
and the two readers see the same entries a little differently. There every change is looked
for: an item added, or modified to values, that the page already showed last time, and an item
removed that it still shows, is the readers' difference, not the page's.

Additions get the mirror check. When a check would report several items of one kind as added
whose words the page already showed last time (a redesign turned a people list the reader
could not follow into cards it can), the page did not gain them: the reader learned to see
them. Those items are stored silently and the operator is told once, as for a reformat. A
lone addition is left alone, since a news line may name a paper or a person before the list does.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from watcher.diff import DiffResult, ItemChange
from watcher.records import Document
from watcher.text import normalise_key, without_html_comments

__all__ = [
    "additions_to_check",
    "keep_shown_items",
    "removals_to_check",
    "shown_text",
    "without_read_anew",
    "without_reader_differences",
]

#: The field that holds each kind's words, and how many words make it the item's own.
_LABELS = {"paper": ("title", 4), "award": ("title", 4), "news": ("text", 6)}
#: For additions, a member's full name is theirs too: their entry is what a redesign re-renders; and
#: a post's title of three words or more ("PhD in Atmospheric Science" of an education list read anew).
_ADDED_LABELS = {**_LABELS, "member": ("name", 2), "role": ("title", 3)}
#: How many additions of one kind, already shown before, make a list read anew.
_READ_ANEW = 3
_UNSHOWN = ["script", "style", "template"]


def shown_text(document: Document) -> str:
    """The words a page shows (every file's, for a repository), as one normalised string padded by
    spaces, so that a label is found only as whole words."""
    if document.files:
        text = "\n".join(without_html_comments(body) for body in document.files.values())
    elif "html" in document.content_type or document.text.lstrip()[:1] == "<":
        tree = LexborHTMLParser(document.text)
        tree.strip_tags(_UNSHOWN)
        text = tree.body.text(separator=" ") if tree.body is not None else ""
    else:
        text = document.text
    # BibTeX guards capitals with braces: "{B}ayesian" is "Bayesian" on the page.
    return f" {normalise_key(text.replace('{', '').replace('}', ''))} "


def _removed_labels(change: ItemChange, *, members: bool) -> list[str]:
    """The phrases a page would still show if the removed item, as it was stored, had not left it;
    a member's name only where ``members`` says names tell."""
    if change.kind == "role":
        return _current_position_words(change.before or {})
    label = _own_words(change.kind, change.before, _ADDED_LABELS if members else _LABELS)
    return [label] if label else []


def _current_position_words(fields: Mapping[str, Any]) -> list[str]:
    """A current position's title, if it is two words or more ("Professor" alone is in any
    biography), and its organisation."""
    title = normalise_key(str(fields.get("title") or ""))
    if fields.get("end") or len(title.split()) < 2:
        return []
    organisation = normalise_key(str(fields.get("organization") or ""))
    return [title, organisation] if organisation else [title]


def _added_label(change: ItemChange) -> str | None:
    """An added item's own words, as it is read now."""
    return _own_words(change.kind, change.after, _ADDED_LABELS)


def _own_words(kind: str, fields: Mapping[str, Any] | None, labels: Mapping[str, tuple[str, int]]) -> str | None:
    """The normalised words of an item's labelling field, when there are enough to be its own."""
    field, words = labels.get(kind, ("", 0))
    label = normalise_key(str((fields or {}).get(field) or "")) if field else ""
    return label if len(label.split()) >= words > 0 else None


def removals_to_check(result: DiffResult, *, members: bool) -> bool:
    """Whether ``result`` reports a removal this module would look for on the page; members'
    too when ``members`` (a page, not a repository)."""
    return any(c.change == "removed" and _removed_labels(c, members=members) for c in result.changes)


def keep_shown_items(result: DiffResult, shown: str, *, members: bool) -> tuple[DiffResult, set[tuple[str, str]]]:
    """``result`` without the removals of items whose label ``shown`` (``shown_text``) still holds,
    and the (kind, key) of those items, to keep as stored; members' names are looked for when
    ``members`` (a page, not a repository)."""
    kept: set[tuple[str, str]] = set()
    changes: list[ItemChange] = []
    for change in result.changes:
        labels = _removed_labels(change, members=members) if change.change == "removed" else []
        if labels and all(f" {label} " in shown for label in labels):
            kept.add((change.kind, change.key))
        else:
            changes.append(change)
    if not kept:
        return result, kept
    return dataclasses.replace(result, changes=tuple(changes), unchanged=result.unchanged + len(kept)), kept


def additions_to_check(result: DiffResult) -> bool:
    """Whether ``result`` adds enough items of one kind to look for them on the previous page."""
    counts = Counter(c.kind for c in result.changes if c.change == "added" and _added_label(c))
    return any(n >= _READ_ANEW for n in counts.values())


def without_read_anew(result: DiffResult, shown_before: str) -> DiffResult:
    """``result`` without the additions that the previous page (``shown_before``, its
    ``shown_text``) already showed, when at least ``_READ_ANEW`` of one kind did: a list read anew.
    Its ``reformatted`` says so, for the operator."""
    shown = [
        c for c in result.changes
        if c.change == "added" and (label := _added_label(c)) and f" {label} " in shown_before
    ]
    counts = Counter(c.kind for c in shown)
    dropped = {id(c) for c in shown if counts[c.kind] >= _READ_ANEW}
    if not dropped:
        return result
    reasons = [f"read anew: {n} {kind}s already on the page last time" for kind, n in counts.items() if n >= _READ_ANEW]
    return dataclasses.replace(
        result,
        changes=tuple(c for c in result.changes if id(c) not in dropped),
        unchanged=result.unchanged + len(dropped),
        reformatted="; ".join(filter(None, [result.reformatted, *reasons])),
    )


def without_reader_differences(result: DiffResult, shown_before: str, shown_now: str) -> DiffResult:
    """``result`` without the changes that another reader's view explains (see the module's
    docstring): additions and new values ``shown_before`` held, removals ``shown_now`` holds."""
    kept = [c for c in result.changes if not _a_reader_difference(c, shown_before, shown_now)]
    if len(kept) == len(result.changes):
        return result
    return dataclasses.replace(
        result, changes=tuple(kept), unchanged=result.unchanged + len(result.changes) - len(kept)
    )


def _a_reader_difference(change: ItemChange, shown_before: str, shown_now: str) -> bool:
    if change.change == "modified":
        # A lone number (a role's end year) is on most pages anyway: it vouches for nothing.
        values = [_words(delta.get("new")) for delta in (change.delta or {}).values()]
        return all(value and not value.isdigit() and f" {value} " in shown_before for value in values)
    fields = change.after if change.change == "added" else change.before
    shown = shown_before if change.change == "added" else shown_now
    label = _own_words(change.kind, fields, _ANY_LABEL)  # already normalised
    return bool(label) and f" {label} " in shown


#: An item's own words, however few: across readers, the same page is asked about.
_ANY_LABEL = {"paper": ("title", 2), "award": ("title", 2), "news": ("text", 2), "member": ("name", 2),
              "role": ("title", 2)}  # fmt: skip


def _words(value: Any) -> str:
    """A field value's normalised words (a list's, joined)."""
    if isinstance(value, (list, tuple)):
        value = " ".join(map(str, value))
    return normalise_key(str(value)) if value not in (None, "") else ""
