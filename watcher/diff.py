"""The diff stage: the stored items of a source against what its page shows now.

Items are compared by identity (their ``key``), never by position, so a reordered page
reports nothing. What is left unmatched on both sides is paired by fuzzy similarity
(rapidfuzz), so a fixed typo in a title, a paper that gains a DOI (its key moves from
``title:`` to ``doi:``) or a reworded news item of the same date is one item, not a removal
plus an addition; a paper reworded by its authors (the same first author and most of the
list, most of the title's words) is one paper where it is the only such pair. A matched item
is *modified* only when a field that a reader cares about changed in substance
(``MEANINGFUL_FIELDS``: a new venue, a new role; not a spelling fix, a preprint server
named, a name written more fully); everything else is a quiet refresh the pipeline stores
without telling anyone. An identifier that points at a paper of quite another title (an
entry reused, a link copied) does not make the two one paper.

The collapse guard: when an extraction suddenly yields nothing, far fewer items, would
remove most of what was there, or loses a whole kind it used to show (every news item of a
page that had several), the page is far more likely an error page, a redesign or a
template the extractor no longer reads than a researcher deleting their work. Then
``suspect`` says why and no change at all is reported (additions included: a redesign
that is read as new items would spam just as badly); the pipeline keeps the old items
and warns the operator. A rolling "latest news" list is not a collapse: items that leave
from the old end of a list while as many arrive at the new end (by date, or by position
beside items that stay) are removals the guard does not count. A page that stops showing whole
kinds of items while it shows at least a guard's worth of its others as before is not suspect:
those kinds are ``held`` (nothing of them told, their items kept) and the others are diffed.

The reformat guard: when one check would modify most items of a list in the same way (a
new citation style, a reformatted author list) or remove and re-add most of them under a
new rendering (a vanished item and a new one whose labels hold the same words), the page
was re-rendered, not edited. Then ``reformatted`` says so, those items are refreshed
silently (the stored items become the new rendering) and only items with no counterpart
before are reported as added.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from watcher.normalise import alike_stems, alike_titles, first_per_key, title_stems
from watcher.records import Record, record_fields
from watcher.text import (
    is_month_name,
    is_preprint_doi,
    is_preprint_server_venue,
    normalise_key,
    one_within_the_other,
)

if TYPE_CHECKING:
    import numpy as np

# numpy and rapidfuzz (14 MB) are imported by the functions that pair items: a first reading
# records its items without pairing, and a check of unchanged pages never diffs at all.

__all__ = [
    "MEANINGFUL_FIELDS",
    "DiffResult",
    "FieldRule",
    "ItemChange",
    "ItemRefresh",
    "StoredItem",
    "diff_items",
    "meaningful_delta",
    "pair_items",
]


@dataclass(frozen=True, kw_only=True)
class StoredItem:
    """What the database holds for one current item of a source."""

    kind: str
    key: str
    fields: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class ItemChange:
    """One reported change.

    ``key`` is the new key (the old one for *removed*); ``old_key`` is, for *modified*,
    the stored key the item replaces (it may equal ``key``). ``delta`` maps each
    meaningful field that changed to ``{"old": ..., "new": ...}``.
    """

    change: Literal["added", "removed", "modified"]
    kind: str
    key: str
    old_key: str | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    delta: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ItemRefresh:
    """A matched item whose stored key or fields should be updated without reporting a change.

    For instance a paper that gained a DOI link (``old_key`` ``title:…``, ``key`` ``doi:…``),
    or a news item whose wording only changed its punctuation.
    """

    kind: str
    key: str
    old_key: str
    fields: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class DiffResult:
    """The outcome of one diff.

    ``suspect`` is the reason when the extraction looks broken; then ``changes`` and
    ``refreshed`` are empty. ``reformatted`` is the reason when a list was re-rendered;
    its items are then in ``refreshed`` and only its new items in ``changes``.
    ``unchanged`` counts matched items with no reported change (refreshed ones included).
    """

    changes: tuple[ItemChange, ...]
    suspect: str | None
    unchanged: int
    refreshed: tuple[ItemRefresh, ...] = ()
    #: Why a list looks re-rendered ("reformatted: 38 of 41 papers changed format"), or None.
    reformatted: str | None = None
    #: Kinds whose items the page stopped showing while it shows its others as before (a home page
    #: whose people and papers moved to pages of their own): their stored items are held, not
    #: removed, and no change of them is told; ``changes`` tells the other kinds'.
    held: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class FieldRule:
    """When a difference in one field is worth reporting.

    Values are compared normalised (case, accents, punctuation and spacing ignored; author
    lists by surname and first initial, in any order). A value that disappears is never
    reported: pages drop details (a venue badge, a link) far more often than facts are
    retracted. ``appearing`` reports a value that appears where there was none (a venue
    for a preprint, an end date for a current role). ``typo_tolerant`` ignores edits of
    at most two letters inside words of five or more letters ("accpted" -> "accepted"), or of
    two letters or spaces in a text of 24 or more, and an article put in or left out; never a
    change of digits or of a short text's short words (ICCV -> ECCV stays a change).
    ``year_tolerant`` ignores a year added to or dropped from the text (a badge "ECCV"
    restyled as "ECCV 2024", a member's "since 2020" column); a year that changes into another, or a
    span's two years that appear ("PhD student (2019-2024)"), are still reported.
    ``companion`` reports a change only beside a change of another field.
    ``touch_up_tolerant`` ignores an edit that adds at most one word and drops at most three,
    numbers untouched ("won" -> "wins", ", Austin, Texas, US" -> ", Austin, Texas").
    ``quiet_preprint`` does not report a preprint server appearing as the value ("arXiv" for a
    paper listed without a venue): the listing said as much; nor one preprint label written as
    another ("PsyArXiv (preprint)" -> "PsyArXiv", "Working paper" -> "SSRN").
    ``span_tolerant`` ignores years dropped from the same words ("PhD (2016-2022)" restyled as
    "PhD (2022)"): no date is new; a year that appears ("2019-" -> "2019-2024") is reported.
    ``detail_tolerant`` ignores words put in that only qualify the same position: its field
    ("Assistant Professor" -> "Assistant Professor of Data Sciences", "PhD student in Biology")
    or an honour beside it ("Professor" -> "Professor, ACM Fellow"); words of a new position
    ("emeritus", "alumni", "now ...") are still news.
    ``fuller_tolerant`` ignores words put in or left out after or before all the old words (an award
    "— Computer Science", a grant's number), none saying where the award stands ("finalist", "declined").
    ``headline_tolerant`` ignores a news item's excerpt shown or left out under the same headline:
    one side's words, four or more, open the other's.
    ``coarser_tolerant`` ignores a date written less or more precisely ("2024-01-19" -> "2024-01",
    "2020" -> "2020-08"): it was no other day.
    ``locator_tolerant`` ignores a volume, issue, pages or article number put after the same words or
    left out ("Bioinformatics" -> "Bioinformatics 41(2):btaf051"): it locates the same publication.
    ``former_tolerant`` ignores a former member's note left out ("Alumni (M.Sc. 2018)" -> "Alumni",
    "Alumni (PhD 2025; now Research Scientist, X)" -> "Alumni (PhD 2025)"): they are as former as before.
    """

    appearing: bool = False
    typo_tolerant: bool = False
    year_tolerant: bool = False
    span_tolerant: bool = False
    companion: bool = False
    touch_up_tolerant: bool = False
    quiet_preprint: bool = False
    detail_tolerant: bool = False
    fuller_tolerant: bool = False
    former_tolerant: bool = False
    headline_tolerant: bool = False
    coarser_tolerant: bool = False
    locator_tolerant: bool = False


_CHANGE = FieldRule()
_APPEAR = FieldRule(appearing=True)
_TYPO = FieldRule(typo_tolerant=True)
_APPEAR_TYPO = FieldRule(appearing=True, typo_tolerant=True)
_POSITION = FieldRule(typo_tolerant=True, detail_tolerant=True)
_DATE = FieldRule(coarser_tolerant=True)

#: The fields of each kind whose change is reported as *modified*; other fields (urls,
#: DOIs, arXiv ids) are refreshed silently: a paper gaining a DOI link is not news.
MEANINGFUL_FIELDS: Mapping[str, Mapping[str, FieldRule]] = {
    # arXiv -> CVPR (venue) and 2023 -> 2024 (year) are the classic modified paper; a title
    # spelling fix is not news (the stored title is refreshed). An author list edit on its own
    # (a co-author added, a new citation style) is detail, refreshed silently; beside such a
    # change it is told too.
    "paper": {
        "title": _TYPO,
        "authors": FieldRule(companion=True),
        "venue": FieldRule(
            appearing=True, typo_tolerant=True, year_tolerant=True, quiet_preprint=True, locator_tolerant=True
        ),
        "year": _CHANGE,
    },
    # A promotion, a new organisation, a role that ends (an end date appears). A spelling fix is not.
    "role": {
        "title": _POSITION,
        "organization": FieldRule(appearing=True, typo_tolerant=True, fuller_tolerant=True),
        "start": _DATE,
        "end": FieldRule(appearing=True, coarser_tolerant=True),
    },
    # A reworded item; a corrected date. A touch-up (a place dropped, a tense, a typo) is not news.
    "news": {"text": FieldRule(touch_up_tolerant=True, headline_tolerant=True), "date": _DATE},
    # An award named more or less fully (its department, a grant number) is the same award; its giver
    # written anew (shown where none was, a proceedings' name for its acronym) is detail.
    "award": {
        "title": FieldRule(typo_tolerant=True, fuller_tolerant=True),
        "year": _CHANGE,
    },
    # PhD student -> Alumni. The person is the identity: a name written more fully ("David Lee" ->
    # "David A. Lee") is told only beside a new role; "Assitant Professor" corrected is not news.
    "member": {
        "name": FieldRule(companion=True),
        "role": FieldRule(appearing=True, span_tolerant=True, typo_tolerant=True, detail_tolerant=True,
                          year_tolerant=True, former_tolerant=True),
    },
}

#: Numbers, in digits or words: "Two papers" -> "Three papers" is news.
_DIGITS = re.compile(r"\d+|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b", re.I)

#: Minimum similarity (0-100, rapidfuzz) of two normalised labels to be one item.
TITLE_THRESHOLD = 90.0
#: Two news items of the same date are one reworded item from this text similarity on.
SAME_DATE_NEWS_THRESHOLD = 50.0
#: Two roles at one organisation are one (a promotion) from this title similarity on.
ROLE_TITLE_THRESHOLD = 50.0
#: News of another date is the same (re-dated) item only with nearly the same text.
REDATED_NEWS_THRESHOLD = 95.0
#: A role keeping its title may move to an organisation this similar (Google Research -> Google DeepMind).
ORGANISATION_THRESHOLD = 50.0
#: A vanished item and a new one are one item in a new rendering when the words of one's
#: label are (nearly) all in the other's (rapidfuzz token set ratio): "[3] Tide." -> "Tide. CVPR 2025".
RENDERING_THRESHOLD = 90.0
#: Labels shorter than this (normalised) are too little to recognise a re-rendered item by.
RENDERING_MIN_LABEL = 12
#: A list counts as re-rendered when a check would modify or re-add at least this many of
#: its items ...
REFORMAT_MIN_ITEMS = 5
#: ... and at least this share of the items it had.
REFORMAT_MIN_SHARE = 0.6


def diff_items(
    previous: Sequence[StoredItem],
    current: Sequence[Record],
    *,
    min_ratio: float = 0.5,
    min_items_for_guard: int = 4,
) -> DiffResult:
    """Compare the stored items of a source with the records its page shows now.

    ``current`` should be normalised (``watcher.normalise``). An empty ``previous`` (the
    first check) reports every current item as added. See the module docstring for the
    matching rules and the collapse and reformat guards.
    """
    old = first_per_key(_Entry(kind=p.kind, key=p.key, fields=p.fields) for p in previous)
    new = first_per_key(_Entry(kind=r.kind, key=r.key, fields=record_fields(r)) for r in current)
    pairs, lost, found = _match(old, new)
    deltas = _without_spans_newly_shown([(before, after, _delta_of(before, after)) for before, after in pairs])
    renderings = _pair_renderings(lost, found)
    renamings = _venue_renamings(deltas)
    reformats = _reformats(old, deltas, renderings, renamings)
    # Only a re-rendered list silences its loose pairs; elsewhere they stay removed and added.
    renderings = [(b, a) for b, a in renderings if b.kind in reformats]
    silenced = {id(b) for b, _ in renderings} | {id(a) for _, a in renderings}
    # An item a new layout files under another kind ("In the News" read as posts in one layout,
    # as news in the next) is the same item: neither removed nor added.
    silenced.update(id(e) for pair in _pair_across_kinds(lost, found) for e in pair)
    lost = [e for e in lost if id(e) not in silenced]
    found = [e for e in found if id(e) not in silenced]
    rotated = _rotated_out(old, new, lost, found)
    unexplained = [e for e in lost if id(e) not in rotated]
    reason = _collapse_reason(old, new, unexplained, min_ratio=min_ratio, min_items=min_items_for_guard)
    held: tuple[str, ...] = ()
    if reason is not None:
        held = _collapsed_kinds(old, new, unexplained, min_ratio=min_ratio, min_items=min_items_for_guard)
        if not held:
            return DiffResult(changes=(), suspect=reason, unchanged=0)
        old, new = [e for e in old if e.kind not in held], [e for e in new if e.kind not in held]
        deltas = [(b, a, d) for b, a, d in deltas if b.kind not in held]
        renderings = [(b, a) for b, a in renderings if b.kind not in held]
        lost = [e for e in lost if e.kind not in held]
        found = [e for e in found if e.kind not in held]
    # A list read anew in another layout tells neither its vanished items nor its new ones.
    read_anew = _read_anew(old, lost, found)
    reformats = {**reformats, **read_anew}
    found = [e for e in found if e.kind not in read_anew]
    # A re-rendered list's items with no counterpart are not told as removed: the new rendering
    # may read a few of them differently; its new items are told.
    lost = [e for e in lost if e.kind not in reformats and not _told_again_that_day(e, new)]
    # Changes read in page order: modified and added items where they now stand, then removals.
    position = {id(e): n for n, e in enumerate(new)}
    placed: list[tuple[int, ItemChange]] = []
    refreshed: list[ItemRefresh] = []
    unchanged = 0
    moved_on = _stages_moved_in_a_restyle(old, deltas, reformats)
    for before, after, delta in [*deltas, *((b, a, {}) for b, a in renderings)]:
        if delta and (before.kind not in reformats or id(before) in moved_on):
            placed.append((position[id(after)], _modified(before, after, delta)))
            continue
        unchanged += 1
        if before.key != after.key or before.fields != after.fields:
            refreshed.append(ItemRefresh(kind=after.kind, key=after.key, old_key=before.key, fields=after.fields))
    placed.extend((position[id(e)], ItemChange(change="added", kind=e.kind, key=e.key, after=e.fields)) for e in found)
    changes = [change for _, change in sorted(placed, key=lambda p: p[0])]
    changes.extend(ItemChange(change="removed", kind=e.kind, key=e.key, before=e.fields) for e in lost)
    return DiffResult(
        changes=tuple(changes),
        suspect=None,
        unchanged=unchanged,
        refreshed=tuple(refreshed),
        reformatted="; ".join(reformats.values()) or None,
        held=held,
    )


def _spanned_afresh(before: _Entry, after: _Entry, delta: Mapping[str, Any]) -> bool:
    """An undated post now shown with its start and its end."""
    return (
        before.kind == "role"
        and "end" in delta
        and not (before.fields.get("start") or before.fields.get("end"))
        and bool(after.fields.get("start"))
    )


def _without_spans_newly_shown(
    deltas: list[tuple[_Entry, _Entry, dict[str, Any]]],
) -> list[tuple[_Entry, _Entry, dict[str, Any]]]:
    """A new rendering that shows the spans of several undated posts at once ("Research Assistant" ->
    "Research Assistant, 2016-2018") ended none of them; one post dated afresh may be a move."""
    if sum(1 for before, after, delta in deltas if _spanned_afresh(before, after, delta)) < 2:
        return deltas
    return [
        (before, after, _without(delta, "end") if _spanned_afresh(before, after, delta) else delta)
        for before, after, delta in deltas
    ]


def _without(delta: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: value for key, value in delta.items() if key != name}


def pair_items(olds: Sequence[StoredItem], news: Sequence[StoredItem]) -> list[tuple[int, int, dict[str, Any]]]:
    """Which of ``olds`` are the same items as which of ``news``, by the diff's rules (identity,
    then fuzzy labels), with the meaningful delta of each pair: ``(old index, new index, delta)``.
    For items seen on two sources, such as a paper that moved from one page of a site to another."""
    old = [_Entry(kind=p.kind, key=p.key, fields=p.fields) for p in olds]
    new = [_Entry(kind=p.kind, key=p.key, fields=p.fields) for p in news]
    where_old = {id(e): i for i, e in enumerate(old)}
    where_new = {id(e): j for j, e in enumerate(new)}
    pairs, _lost, _found = _match(first_per_key(old), first_per_key(new))
    return [(where_old[id(b)], where_new[id(a)], _delta_of(b, a)) for b, a in pairs]


def _delta_of(before: _Entry, after: _Entry) -> dict[str, Any]:
    return {} if before.fields == after.fields else meaningful_delta(before.kind, before.fields, after.fields)


def meaningful_delta(kind: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The changes between two field sets of one item that ``MEANINGFUL_FIELDS`` reports.

    ``{"venue": {"old": "arXiv", "new": "CVPR 2026"}}``; empty when nothing meaningful changed.
    """
    rules = MEANINGFUL_FIELDS[kind]
    old_view = {name: _comparable(name, before.get(name)) for name in rules}
    new_view = {name: _comparable(name, after.get(name)) for name in rules}
    # Only fields that differ as values can differ for deepdiff; it compares just those (it
    # took milliseconds over a whole paper, its author list hashed for ``ignore_order``).
    differing = [name for name in rules if old_view[name] != new_view[name]]
    if not differing:
        return {}
    # Two plain values that differ are a change; a list (authors) may hold the same values in
    # another order, which deepdiff's ignore_order sees through.
    changed = {name for name in differing if not (_nested(old_view[name]) or _nested(new_view[name]))}
    if nested := [name for name in differing if name not in changed]:
        changed |= _deepdiff_changed(
            {name: old_view[name] for name in nested}, {name: new_view[name] for name in nested}
        )
    delta = {
        name: {"old": before.get(name), "new": after.get(name)}
        for name in rules
        if name in changed and _reportable(rules[name], old_view[name], new_view[name])
    }
    if kind == "paper" and "venue" in delta and _only_place_of_publication(before.get("venue"), after.get("venue")):
        del delta["venue"]
    if kind == "paper" and set(delta) == {"year"} and _unpublished(before) and _unpublished(after):
        del delta["year"]  # a preprint revised is dated anew: no news until it appears somewhere
    if kind == "role" and "end" in delta and _one_year_written_as_range(before, after):
        del delta["end"]
    if kind == "role" and _named_within(*_title_and_place(before), *_title_and_place(after)):
        # "Assistant Professor" of a department -> "... of Economics" there; "... and Department Chair" is news.
        if not _a_post_put_in(_title_and_place(before)[0], _title_and_place(after)[0]):
            delta.pop("title", None)
        delta.pop("organization", None)
    if all(rules[name].companion for name in delta):
        return {}
    return delta


#: A press named with its town, as author-date styles print a book's publisher: "Vienna: Böhlau".
_PLACE_OF_PUBLICATION = re.compile(r"^[A-Z][\w.'’-]*(?:[ -][A-Z][\w.'’-]*){0,2}:\s+(?P<press>\S.*)$")


def _only_place_of_publication(old: Any, new: Any) -> bool:
    """The same press with its town put before it, or taken away ("Böhlau" -> "Vienna: Böhlau")."""
    if not (isinstance(old, str) and isinstance(new, str)):
        return False
    for longer, shorter in ((new, old), (old, new)):
        if (match := _PLACE_OF_PUBLICATION.match(longer)) and normalise_key(match["press"]) == normalise_key(shorter):
            return True
    return False


#: A venue that says a paper is not yet published: a preprint, a working paper, a submission.
_UNPUBLISHED = re.compile(r"\b(?:preprint|working paper|discussion paper|submitted|under review|manuscript)\b", re.I)


def _unpublished(fields: Mapping[str, Any]) -> bool:
    venue = str(fields.get("venue") or "")
    return bool(venue) and (_UNPUBLISHED.search(venue) is not None or is_preprint_server_venue(venue))


def _one_year_written_as_range(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """A role of one year written "2017" and then "2017-2017": its end year appears, but it is the
    year the role was already given, so nothing has ended."""
    year = str(before.get("start") or "")[:4]
    return year.isdigit() and all(str(after.get(name) or "")[:4] == year for name in ("start", "end"))


def _nested(value: Any) -> bool:
    return isinstance(value, (list, tuple, dict, set))


def _deepdiff_changed(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """The top-level names whose values differ, ignoring the order of list values."""
    # Imported here: only a list field that differs needs deepdiff (0.16 s to import, numpy with it).
    from deepdiff import DeepDiff

    found = DeepDiff(old, new, ignore_order=True, view="tree")
    return {level.path(output_format="list")[0] for levels in found.values() for level in levels}


@dataclass(frozen=True, kw_only=True)
class _Entry:
    kind: str
    key: str
    fields: dict[str, Any]


def _match(old: list[_Entry], new: list[_Entry]) -> tuple[list[tuple[_Entry, _Entry]], list[_Entry], list[_Entry]]:
    """Pairs (before, after), then the unmatched old (removed) and new (added) entries."""
    new_by_id = {(e.kind, e.key): e for e in new}
    pairs = [
        (e, after)
        for e in old
        if (after := new_by_id.get((e.kind, e.key))) is not None and not _unlike_papers(e, after)
    ]
    matched = {(e.kind, e.key) for e, _ in pairs}
    lost = [e for e in old if (e.kind, e.key) not in matched]
    found = [e for e in new if (e.kind, e.key) not in matched]
    shared_links = _shared_values(old, "url") | _shared_values(new, "url")
    for kind in {e.kind for e in lost} & {e.kind for e in found}:
        olds = [e for e in lost if e.kind == kind]
        news = [e for e in found if e.kind == kind]
        scores = _score_papers(olds, news, shared_links) if kind == "paper" else _SCORERS[kind](olds, news)
        fuzzy = _pair_greedily(scores)
        pairs.extend((olds[i], news[j]) for i, j in fuzzy)
        paired_old = {id(olds[i]) for i, _ in fuzzy}
        paired_new = {id(news[j]) for _, j in fuzzy}
        lost = [e for e in lost if id(e) not in paired_old]
        found = [e for e in found if id(e) not in paired_new]
    return _pair_moved_position(*_reworded_bare(pairs, lost, found))


def _reworded_bare(
    pairs: list[tuple[_Entry, _Entry]], lost: list[_Entry], found: list[_Entry]
) -> tuple[list[tuple[_Entry, _Entry]], list[_Entry], list[_Entry]]:
    """The one bare working paper (a title and nothing to identify it by) that vanished, and the
    one bare paper that appeared, sharing a title word: the draft was retitled ("Private Sector
    Politicians" -> "Side Hustles: How Politicians' Outside Jobs …"), not dropped for another."""
    gone = [e for e in lost if _bare_paper(e)]
    came = [e for e in found if _bare_paper(e)]
    if len(gone) != 1 or len(came) != 1 or not _shares_a_title_word(gone[0], came[0]):
        return pairs, lost, found
    before, after = gone[0], came[0]
    return [*pairs, (before, after)], [e for e in lost if e is not before], [e for e in found if e is not after]


def _bare_paper(entry: _Entry) -> bool:
    fields = entry.fields
    return entry.kind == "paper" and not any(fields.get(k) for k in ("authors", "doi", "arxiv", "url"))


def _shares_a_title_word(before: _Entry, after: _Entry) -> bool:
    words = [title_stems(str(e.fields.get("title") or "")) for e in (before, after)]
    return bool(words[0] & words[1])


def _unlike_papers(before: _Entry, after: _Entry) -> bool:
    """One DOI or arXiv id on a paper of quite another title: the entry was reused for a new
    paper (its links copied), not retitled, unless all else about it stays (a revision retitled
    under its preprint's id keeps its year and its co-authors or venue)."""
    return (
        before.kind == "paper"
        and not before.key.startswith("title:")
        and not alike_titles(str(before.fields.get("title") or ""), str(after.fields.get("title") or ""))
        and not _same_setting(before.fields, after.fields)
    )


def _same_setting(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """The same year, and the same authors or the same venue, stated on both sides."""
    if not before.get("year") or before.get("year") != after.get("year"):
        return False
    return _same(before, after, "authors") or _same(before, after, "venue")


def _pair_moved_position(
    pairs: list[tuple[_Entry, _Entry]], lost: list[_Entry], found: list[_Entry]
) -> tuple[list[tuple[_Entry, _Entry]], list[_Entry], list[_Entry]]:
    """One current position gone and one new current position in its place is the person moving
    on ("PhD student, NUS" -> "Postdoctoral Scholar, UCSB"): one modified role, not two changes."""
    gone = [e for e in lost if _current_post(e)]
    came = [e for e in found if _current_post(e)]
    if len(gone) != 1 or len(came) != 1:
        return pairs, lost, found
    before, after = gone[0], came[0]
    if after.fields.get("start") and not before.fields.get("start"):
        return pairs, lost, found  # an undated line gone and a dated position new: the post is new
    return [*pairs, (before, after)], [e for e in lost if e is not before], [e for e in found if e is not after]


#: A degree earned, as an education list names it ("PhD", "MSc in Physics"), not a post held.
_DEGREE = re.compile(
    r"^(?:ph\.?\s?d|d\.?\s?phil|m\.?\s?sc?|b\.?\s?sc?|m\.?\s?a|b\.?\s?a|m\.?\s?phil|m\.?\s?eng|b\.?\s?eng|mba"
    r"|doctorate|master'?s|bachelor'?s)\.?(?:\s+(?:in|of)\s+.+)?$",
    re.I,
)


def _current_post(entry: _Entry) -> bool:
    title = str(entry.fields.get("title") or "")
    return entry.kind == "role" and not entry.fields.get("end") and not _DEGREE.match(title)


_Candidates = list[tuple[float, int, int]]


def _pair_greedily(candidates: _Candidates) -> list[tuple[int, int]]:
    """Best-scoring pairs first, each entry used once (ties: page order)."""
    used_old: set[int] = set()
    used_new: set[int] = set()
    chosen = []
    for _, i, j in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            chosen.append((i, j))
    return chosen


def _similarity(left: Sequence[str], right: Sequence[str], *, cutoff: float) -> np.ndarray:
    """Pairwise similarity of normalised strings: the better of plain and word-order-free ratio."""
    import numpy as np
    from rapidfuzz import fuzz, process

    plain = process.cdist(left, right, scorer=fuzz.ratio, score_cutoff=cutoff, dtype=np.float32)
    reordered = process.cdist(left, right, scorer=fuzz.token_sort_ratio, score_cutoff=cutoff, dtype=np.float32)
    return np.maximum(plain, reordered)


def _field_keys(entries: Sequence[_Entry], name: str) -> list[str]:
    return [normalise_key(e.fields.get(name)) for e in entries]


def _score_papers(
    olds: Sequence[_Entry], news: Sequence[_Entry], shared_links: frozenset[str] = frozenset()
) -> _Candidates:
    """Same DOI, arXiv id or title: the same paper; else titles at least 90 % alike.

    Two different DOIs (or arXiv ids) pair only under the very same title: a workshop and a journal
    version listed together keep their own entries (each pairs with itself first, by its id), but an
    entry whose DOI is replaced (a preprint's or an in-press one by the journal's) is the same work.
    """
    import numpy as np

    candidates: _Candidates = []
    sims = _similarity(_field_keys(olds, "title"), _field_keys(news, "title"), cutoff=TITLE_THRESHOLD)
    for i, j in zip(*np.nonzero(sims), strict=True):
        before, after = olds[i].fields, news[j].fields
        if _ids_conflict(before, after) and not _same_title(before, after):
            continue
        same_id = _same(before, after, "doi") or _same(before, after, "arxiv")
        candidates.append((200.0 if same_id else float(sims[i, j]), int(i), int(j)))
    matched = {(i, j) for _, i, j in candidates}
    for name in ("doi", "arxiv"):
        new_by_id: dict[str, list[int]] = {}
        for j, after in enumerate(news):
            if after.fields.get(name):
                new_by_id.setdefault(after.fields[name], []).append(j)
        for i, before in enumerate(olds):
            for j in new_by_id.get(before.fields.get(name) or "", ()):
                if (i, j) not in matched and not _unlike_papers(before, news[j]):
                    matched.add((i, j))
                    candidates.append((200.0, i, j))
    # A retitled paper keeps its link (its PDF, its page), unless the page gives that link to
    # several entries (a profile, the lab's page).
    new_by_url = {e.fields["url"]: j for j, e in enumerate(news) if e.fields.get("url")}
    for i, before in enumerate(olds):
        url = before.fields.get("url")
        j = new_by_url.get(url) if url and url not in shared_links else None
        if j is not None and (i, j) not in matched and not _conflict(before.fields, news[j].fields, "doi"):
            matched.add((i, j))
            candidates.append((TITLE_THRESHOLD, i, j))
    candidates.extend(_retitled(olds, news, matched))
    return candidates


#: Below any title, identifier or link match: a retitling only pairs what nothing else did.
RETITLE_SCORE = 60.0


def _retitled(olds: Sequence[_Entry], news: Sequence[_Entry], matched: set[tuple[int, int]]) -> _Candidates:
    """A paper reworded as it is revised or published ("Sparse maps of reefs" -> "Sparse reef
    maps from drone imagery") keeps most of its title words and its authors. Such a pair is one
    paper only where it is the one candidate of each side: two drafts of one group with similar
    titles are not guessed between."""
    if len(olds) * len(news) > _MAX_WORD_PAIRS:
        return []
    # Each entry's title words and authors once, not once per pair.
    old_works, new_works = [_work(e.fields) for e in olds], [_work(e.fields) for e in news]
    found = [
        (i, j)
        for i, j in itertools.product(range(len(olds)), range(len(news)))
        if (i, j) not in matched
        and not _ids_conflict(olds[i].fields, news[j].fields)
        and _same_work(old_works[i], new_works[j])
    ]
    per_old = Counter(i for i, _ in found)
    per_new = Counter(j for _, j in found)
    return [(RETITLE_SCORE, i, j) for i, j in found if per_old[i] == per_new[j] == 1]


#: A paper as ``_retitled`` compares it: its title's stems, its authors' signatures in order.
_Work = tuple[frozenset[str], tuple[str, ...]]


def _work(fields: Mapping[str, Any]) -> _Work:
    authors = tuple(_author_signature(a) for a in fields.get("authors") or ())
    return title_stems(str(fields.get("title") or "")), authors


def _same_work(before: _Work, after: _Work) -> bool:
    """Most title words and the same authors: the same first author and most of the shorter
    list (an author added or dropped in a revision keeps the paper's identity)."""
    (old_stems, old), (new_stems, new) = before, after
    if not old or not new or not alike_stems(old_stems, new_stems):
        return False
    return old[0] == new[0] and len(set(old) & set(new)) * 2 >= min(len(old), len(new)) + 1


def _shared_values(entries: Sequence[_Entry], name: str) -> frozenset[str]:
    """Values of a field that several entries hold."""
    counts = Counter(e.fields.get(name) for e in entries if e.fields.get(name))
    return frozenset(value for value, n in counts.items() if n > 1)


def _score_news(olds: Sequence[_Entry], news: Sequence[_Entry]) -> _Candidates:
    """A reworded item keeps its date: same date pairs (the only one of that date, or text 50 % alike).

    Different dates pair only with nearly the same text (95 %: a corrected date, a re-dated
    announcement); an undated item needs 90 %.
    Texts are compared within one date at a time, so a page of thousands of news stays cheap.
    """
    import numpy as np
    from rapidfuzz import fuzz, process

    old_texts, new_texts = _field_keys(olds, "text"), _field_keys(news, "text")
    old_by_date, new_by_date = _indices_by(olds, "date"), _indices_by(news, "date")
    candidates: _Candidates = []
    for date, rows in old_by_date.items():
        cols = new_by_date.get(date, [])
        if not date or not cols:
            continue
        sims = process.cdist([old_texts[i] for i in rows], [new_texts[j] for j in cols], scorer=fuzz.token_set_ratio)
        alone = len(rows) == 1 and len(cols) == 1
        accept = sims >= 0 if alone else sims >= SAME_DATE_NEWS_THRESHOLD
        candidates += [(float(sims[r, c]), rows[r], cols[c]) for r, c in zip(*np.nonzero(accept), strict=True)]
    dated_old = [i for i, e in enumerate(olds) if e.fields.get("date")]
    dated_new = [j for j, e in enumerate(news) if e.fields.get("date")]
    if dated_old and dated_new:
        # A re-dated announcement ("recruiting for Fall 2022" re-posted as "Fall 2023").
        old_dated_texts = [old_texts[i] for i in dated_old]
        sims = _similarity(old_dated_texts, [new_texts[j] for j in dated_new], cutoff=REDATED_NEWS_THRESHOLD)
        candidates += [
            (float(sims[r, c]), dated_old[r], dated_new[c])
            for r, c in zip(*np.nonzero(sims), strict=True)
            if olds[dated_old[r]].fields.get("date") != news[dated_new[c]].fields.get("date")
        ]
    undated_old, undated_new = old_by_date.get("", []), new_by_date.get("", [])
    if undated_old:
        sims = _similarity([old_texts[i] for i in undated_old], new_texts, cutoff=TITLE_THRESHOLD)
        candidates += [(float(sims[r, j]), undated_old[r], int(j)) for r, j in zip(*np.nonzero(sims), strict=True)]
    if undated_new:
        sims = _similarity(old_texts, [new_texts[j] for j in undated_new], cutoff=TITLE_THRESHOLD)
        candidates += [
            (float(sims[i, c]), int(i), undated_new[c])
            for i, c in zip(*np.nonzero(sims), strict=True)
            if olds[i].fields.get("date")  # undated on both sides was counted above
        ]
    return candidates


def _indices_by(entries: Sequence[_Entry], name: str) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for n, entry in enumerate(entries):
        groups.setdefault(entry.fields.get(name) or "", []).append(n)
    return groups


def _score_roles(olds: Sequence[_Entry], news: Sequence[_Entry]) -> _Candidates:
    """Same organisation (a promotion), or same title at a similar or newly named organisation.

    At one organisation, titles must be 50 % alike unless that role is the only one there on
    each side ("Senior Research Scientist" -> "Principal Scientist"). Otherwise title and
    organisation must both be 90 % alike (the title alone when neither names one).
    """
    import numpy as np

    old_titles, new_titles = _column(olds, "title", normalise_key), _column(news, "title", normalise_key)
    old_orgs, new_orgs = _column(olds, "organization", normalise_key), _column(news, "organization", normalise_key)
    title_sims = _similarity(old_titles, new_titles, cutoff=0)
    org_sims = _similarity(old_orgs, new_orgs, cutoff=0)
    no_org = (old_orgs == "")[:, None] | (new_orgs == "")[None, :]
    same_org = ~no_org & (old_orgs[:, None] == new_orgs[None, :])
    same_title = old_titles[:, None] == new_titles[None, :]
    alike = np.where(no_org & (old_orgs[:, None] == new_orgs[None, :]), title_sims, np.minimum(title_sims, org_sims))
    alone = (_counts(old_orgs) == 1)[:, None] & (_counts(new_orgs) == 1)[None, :]
    named_within = np.array(
        [[_named_within(t1, o1, t2, o2) for t2, o2 in zip(new_titles, new_orgs, strict=True)]
         for t1, o1 in zip(old_titles, old_orgs, strict=True)],
        dtype=bool,
    ).reshape(len(olds), len(news))
    scores = np.where(
        same_org | named_within,
        np.where(alone | named_within | (title_sims >= ROLE_TITLE_THRESHOLD), 100.0 + title_sims, -1.0),
        np.where(
            same_title & (no_org | (org_sims >= ORGANISATION_THRESHOLD)),
            100.0 + org_sims,
            np.where(alike >= TITLE_THRESHOLD, alike, -1.0),
        ),
    )
    return _candidates(scores)


def _named_within(title: str, organisation: str, other_title: str, other_organisation: str) -> bool:
    """One post named more and less fully: "Assistant Professor, Department of Economics at Tulane
    University" and "Assistant Professor of Economics, Tulane University" (normalised keys)."""
    return one_within_the_other(organisation, other_organisation) and _starts_alike(title, other_title)


def _a_post_put_in(old_title: str, new_title: str) -> bool:
    """Words of a position that one title has and the other lacks ("professor of geology" ->
    "professor of geology and department chair"): a post taken up or given up, keys normalised."""
    old_words, new_words = set(old_title.split()), set(new_title.split())
    return bool((old_words ^ new_words) & _POSITION_WORDS)


def _title_and_place(fields: Mapping[str, Any]) -> tuple[str, str]:
    return normalise_key(fields.get("title") or ""), normalise_key(fields.get("organization") or "")


def _starts_alike(one: str, other: str) -> bool:
    """One is the other or starts with it, word for word."""
    return bool(one and other) and (one == other or one.startswith(f"{other} ") or other.startswith(f"{one} "))


def _column(entries: Sequence[_Entry], name: str, clean: Callable[[Any], str] = str) -> np.ndarray:
    """One field of every entry as an array of strings ("" when absent), for pairwise masks."""
    import numpy as np

    return np.array([clean(e.fields.get(name)) if e.fields.get(name) else "" for e in entries], dtype=object)


def _counts(values: np.ndarray) -> np.ndarray:
    """How often each value occurs in its array."""
    import numpy as np

    counts = Counter(values.tolist())
    return np.array([counts[v] for v in values.tolist()])


def _candidates(scores: np.ndarray) -> _Candidates:
    """The pairs with a score (non-negative) as (score, old index, new index)."""
    import numpy as np

    rows, cols = np.nonzero(scores >= 0)
    return [(float(scores[i, j]), int(i), int(j)) for i, j in zip(rows, cols, strict=True)]


def _score_by_field(
    name: str, within: int, words_within: Callable[[str, str, int], bool] | None = None
) -> Callable[[Sequence[_Entry], Sequence[_Entry]], _Candidates]:
    """Pair by one field's similarity (an award's title, a member's name); a label whose words
    (``within`` or more) all stand in order in the other's is the same item with a detail
    added or dropped ("Ana Silva" / "Ana Maria Silva"; "Teaching Award" / "Teaching Award, CSE")."""
    words_within = words_within or _words_within

    def score(olds: Sequence[_Entry], news: Sequence[_Entry]) -> _Candidates:
        import numpy as np

        old_keys, new_keys = _field_keys(olds, name), _field_keys(news, name)
        sims = _similarity(old_keys, new_keys, cutoff=TITLE_THRESHOLD)
        if len(olds) * len(news) <= _MAX_WORD_PAIRS:
            for i, j in itertools.product(range(len(olds)), range(len(news))):
                if not sims[i, j] and words_within(old_keys[i], new_keys[j], within):
                    sims[i, j] = TITLE_THRESHOLD
        return [
            (float(sims[i, j]), int(i), int(j))
            for i, j in zip(*np.nonzero(sims), strict=True)
            if not _conflict(olds[i].fields, news[j].fields, "year")
        ]

    return score


#: Beyond this many (removed, added) pairs of one kind, only the similarity pairs them.
_MAX_WORD_PAIRS = 40_000


def _words_within(left: str, right: str, least: int) -> bool:
    """Whether the shorter label's words, at least ``least`` of them, all stand in order in the longer's."""
    short, long = sorted((left.split(), right.split()), key=len)
    if len(short) < least or len(short) == len(long):
        return False
    rest = iter(long)
    return all(word in rest for word in short)


def _name_within(left: str, right: str, least: int) -> bool:
    """Whether one name's words all stand in order in the other's, a given name also as its
    initial, the surname the same: "Jiankun Pu" / "J. Kian Pu", "Ana Silva" / "Ana M. Silva"."""
    short, long = sorted((left.split(), right.split()), key=len)
    if len(short) < least or short == long or short[-1] != long[-1]:
        return False
    rest = iter(long)
    return all(any(_same_name_word(word, other) for other in rest) for word in short)


def _same_name_word(word: str, other: str) -> bool:
    return word == other or (min(len(word), len(other)) == 1 and word[0] == other[0])


_SCORERS: Mapping[str, Callable[[Sequence[_Entry], Sequence[_Entry]], _Candidates]] = {
    "paper": _score_papers,
    "news": _score_news,
    "role": _score_roles,
    # The same award in another year is another award.
    "award": _score_by_field("title", within=3),
    "member": _score_by_field("name", within=2, words_within=_name_within),
}


def _same(before: Mapping[str, Any], after: Mapping[str, Any], name: str) -> bool:
    return bool(before.get(name)) and before.get(name) == after.get(name)


def _same_title(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    return bool(before.get("title")) and normalise_key(before["title"]) == normalise_key(after.get("title"))


def _published(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """A preprint's DOI (arXiv, bioRxiv, PsyArXiv …) followed by a publisher's: one work."""
    return is_preprint_doi(before.get("doi")) or is_preprint_doi(after.get("doi"))


def _conflict(before: Mapping[str, Any], after: Mapping[str, Any], name: str) -> bool:
    return bool(before.get(name)) and bool(after.get(name)) and before.get(name) != after.get(name)


def _ids_conflict(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Two DOIs (a preprint server's followed by a publisher's excepted) or two arXiv ids: two works."""
    return (_conflict(before, after, "doi") and not _published(before, after)) or _conflict(before, after, "arxiv")


_NOW_WORD = re.compile(r"\b(?:now|currently)\b:?|\bsince\b(?=\s+(?:19|20)\d\d)", re.I)
_STAGE_LINK = r"(?: (?:at|in|to|with|for|by)(?! press\b))?\b ?"
#: One stage of a paper in other words (keys as ``normalise_key`` gives them): a theme or a data schema that
#: writes "R&R" where the page wrote "revise and resubmit", or "to appear" for "forthcoming", moved no paper.
_STAGE_WORDINGS = (
    (re.compile(rf"\b(?:revise and resubmit|revise resubmit|r r|randr){_STAGE_LINK}"), "revise and resubmit "),
    (re.compile(rf"\b(?:to appear|forthcoming|in press){_STAGE_LINK}"), "forthcoming "),
    (re.compile(rf"\b(?:under review|in review|under submission|submitted){_STAGE_LINK}"), "under review "),
)


def _comparable(name: str, value: Any) -> Any:
    """A field value with its formatting removed."""
    if name == "authors":
        return [_author_signature(a) for a in value or ()]
    if name == "role" and isinstance(value, str):
        # "Alumni (Lecturer, X)" and "Alumni (now Lecturer, X)": one place, written with or without "now";
        # "PhD student (since 2021)" and "PhD student (2021)": one start.
        return normalise_key(_NOW_WORD.sub(" ", value)) or None
    if name == "venue" and isinstance(value, str):
        return _one_stage_wording(normalise_key(value)) or None
    if isinstance(value, str):
        return normalise_key(value) or None
    return value


_STAGE_TWICE = re.compile(r"\b(forthcoming|under review|revise and resubmit)(?: \1\b)+")


def _one_stage_wording(key: str) -> str:
    for wordings, stage in _STAGE_WORDINGS:
        key = wordings.sub(stage, key)
    # "(forthcoming), in press": one stage said twice
    return _STAGE_TWICE.sub(r"\1", key).strip()


def _author_signature(name: str) -> str:
    """Surname and first initial: "Siddharth S. Iyer", "S. Iyer" and "Iyer, Siddharth" agree."""
    if "," in name:
        surname, _, given = name.partition(",")
        surname_words, given_words = normalise_key(surname).split(), normalise_key(given).split()
    else:
        # The last word as written is the surname, hyphen and all ("Katharina Vlasić-Brenner").
        given, _, surname = name.strip().rpartition(" ")
        surname_words, given_words = normalise_key(surname).split(), normalise_key(given).split()
    initial = given_words[0][:1] if given_words else ""
    return f"{' '.join(surname_words)} {initial}".strip()


def _reportable(rule: FieldRule, old: Any, new: Any) -> bool:
    if _blank(new):
        return False
    if _blank(old):
        return rule.appearing and not (rule.quiet_preprint and is_preprint_server_venue(new))
    if not (isinstance(old, str) and isinstance(new, str)):
        return True
    return not (
        (rule.typo_tolerant and (_only_typos(old, new) or _only_spelled_out(old, new) or _only_spelled_out(new, old)))
        or (rule.year_tolerant and _only_a_year_added(old, new))
        or (rule.span_tolerant and _only_years_dropped(old, new))
        or (rule.touch_up_tolerant and _only_touched_up(old, new))
        or (rule.detail_tolerant and (_only_detail_added(old, new) or _only_detail_added(new, old)))
        or (rule.fuller_tolerant and _only_named_more_fully(old, new))
        or (rule.former_tolerant and (_former_note_left_out(old, new) or _same_destination(old, new)
                                      or _said_now_or_next(old, new)))
        or (rule.headline_tolerant and _same_headline(old, new))
        or (rule.coarser_tolerant and (_less_precise(old, new) or _less_precise(new, old)))
        or (rule.locator_tolerant and _only_locator_added(old, new))
        or (rule.quiet_preprint and (_one_preprint_label_for_another(old, new) or _review_left_unsaid(old, new)))
    )


def _review_left_unsaid(old: str, new: str) -> bool:
    """"Submitted. arXiv:2206.11986" -> "arXiv:2206.11986": the preprint as before, its submission
    no longer said (a stage that disappears is no news; one that changes is)."""
    return is_preprint_server_venue(new) and " ".join(old.replace("under review", " ").split()) == new


def _former_note_left_out(old: str, new: str) -> bool:
    """A former member's role that keeps its first words and leaves out the rest (keys as ``_comparable``
    gives them, "now" taken out): "alumni phd 2025 research scientist x" -> "alumni phd 2025"."""
    return old.startswith(f"{new} ") and any(new == w or new.startswith(f"{w} ") for w in _FORMER)


def _same_destination(old: str, new: str) -> bool:
    """A former member's note read as "former" on one side and as their time here on the other, both
    saying where they went ("phd 2025 economist at x" -> "alumni economist at x", keys as ``_comparable``
    gives them): no move."""
    for plain, former in ((old, new), (new, old)):
        word = next((w for w in _FORMER if former.startswith(f"{w} ")), None)
        gone = former[len(word) + 1 :] if word else ""
        if len(gone.split()) >= 3 and plain.endswith(f" {gone}"):
            return True
    return False


def _said_now_or_next(old: str, new: str) -> bool:
    """A former member's destination said as where they went next or where they are now, the rest
    alike (keys as ``_comparable`` gives them, "now" taken out: "alumni phd next scientist at x" ->
    "alumni phd scientist at x")."""
    return old != new and old.replace(" next ", " ") == new.replace(" next ", " ")


def _one_preprint_label_for_another(old: str, new: str) -> bool:
    """Both name only a preprint server or a draft's label, of the same years ("arXiv 2023" ->
    "CoRR 2024" is a new version)."""
    return (
        is_preprint_server_venue(old)
        and is_preprint_server_venue(new)
        and _years_and_words(old)[0] == _years_and_words(new)[0]
    )


#: A former member's state, as the normalised role says it.
_FORMER = frozenset({"alumni", "alumnus", "alumna", "former member", "past member", "former members", "past members"})


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == []


def _only_typos(old: str, new: str) -> bool:
    """Every changed word is a long word edited by at most two letters, digits untouched; an
    article put in or left out ("at University of X" -> "at the University of X") is no edit."""
    from rapidfuzz.distance import Levenshtein

    # In a long text, two letters or spaces ("Dta" -> "Data", "Anti Government" -> "Antigovernment").
    if (
        len(old) >= _TYPO_MIN_TEXT
        and _DIGITS.findall(old) == _DIGITS.findall(new)
        and Levenshtein.distance(old, new, score_cutoff=3) <= 2
    ):
        return True
    old_words, new_words = _without_articles(old), _without_articles(new)
    if len(old_words) != len(new_words):
        return False
    return all(
        a == b or (a.isalpha() and b.isalpha() and min(len(a), len(b)) >= 5 and Levenshtein.distance(a, b) <= 2)
        for a, b in zip(old_words, new_words, strict=True)
    )


_ARTICLES = frozenset({"a", "an", "the"})
#: Words an acronym skips: "Applied Physics and Applied Mathematics" is APAM.
_LINKING_WORDS = frozenset({"a", "an", "the", "of", "and", "for", "at", "in", "on", "de"})


def _only_spelled_out(short: str, long: str) -> bool:
    """The same words but for acronyms in ``short`` written out in ``long``: "PhD student in the
    APAM department" and "PhD student in the Department of Applied Physics and Applied
    Mathematics", "Postdoc at MIT" and "Postdoc at Massachusetts Institute of Technology"."""
    short_words, long_words = short.split(), long.split()
    missing = set(short_words) - set(long_words)
    acronyms = [w for w in missing if w.isalpha() and 2 <= len(w) <= 8]
    if not acronyms or len(acronyms) != len(missing):
        return False
    spelled: set[int] = set()
    for acronym in acronyms:
        run = _initials_run(long_words, acronym)
        if run is None:
            return False
        spelled.update(run)
    extra = {w for i, w in enumerate(long_words) if i not in spelled and w not in short_words}
    return extra <= _LINKING_WORDS


def _initials_run(words: list[str], acronym: str) -> range | None:
    """Where a run of ``words`` (linking words skipped) has the acronym's letters as initials."""
    for start in range(len(words)):
        letter, index = 0, start
        while index < len(words) and letter < len(acronym):
            word = words[index]
            if index > start and word in _LINKING_WORDS:
                index += 1
                continue
            if word[0] != acronym[letter]:
                break
            letter += 1
            index += 1
        if letter == len(acronym):
            return range(start, index)
    return None


#: A text this long is not made another by two letters.
_TYPO_MIN_TEXT = 24


def _without_articles(text: str) -> list[str]:
    return [word for word in text.split() if word not in _ARTICLES]


def _only_a_year_added(old: str, new: str) -> bool:
    """The same words, one side with one year, perhaps with its month ("AEJ: Micro (November 2013)"),
    and the other without (a span's two years are news); or the same year with its month written or
    left out ("Eur Respir J. 2023 Sep;62(3)" restyled as "Eur Respir J. 2023;62(3)")."""
    (old_years, old_words), (new_years, new_words) = _years_and_words(old), _years_and_words(new)
    if len(old_years) + len(new_years) != 1 and not (old_years == new_years and old_words != new_words):
        return False
    return [w for w in old_words if not is_month_name(w)] == [w for w in new_words if not is_month_name(w)]


def _years_and_words(text: str) -> tuple[list[str], list[str]]:
    """A normalised value's years, and its other words, each in order."""
    words = text.split()
    return [w for w in words if _is_year(w)], [w for w in words if not _is_year(w)]


def _only_touched_up(old: str, new: str) -> bool:
    """The same numbers, at most one word that was not there before and at most three dropped
    (a place left out, a tense): no new name, no new fact."""
    old_words, new_words = set(old.split()), set(new.split())
    return (
        _DIGITS.findall(old) == _DIGITS.findall(new)
        and len(new_words - old_words) <= 1
        and len(old_words - new_words) <= 3
        and len(new_words) >= 4
    )


#: Words that start a position's field: "Professor of X", "PhD student in Y".
_QUALIFIER_START = frozenset({"of", "in", "for"})
#: Words that make a new position of an old one, whatever else is put in.
_POSITION_WORDS = frozenset({
    "alumni", "alumnus", "alumna", "former", "emeritus", "emerita", "now", "graduated", "left", "retired",
    "student", "postdoc", "postdoctoral", "professor", "lecturer", "director", "chair", "head", "dean",
    "associate", "assistant", "senior", "principal", "visiting", "acting", "interim", "tenured", "candidate",
})
_PRIZE_WORDS = frozenset({"award", "prize", "medal"})
#: A noun that only says a group's member is one: "Undergraduate" and "Undergraduate Researcher".
_GENERIC_NOUNS = (["researcher"], ["student"], ["member"])
#: A fellow of these is the position itself ("Research Fellow"), not an honour beside one.
_FELLOW_POSITIONS = frozenset({"research", "postdoctoral", "teaching", "graduate", "junior", "senior", "visiting",
                               "clinical", "doctoral", "predoctoral", "postgraduate", "fellow"})
#: A degree's letters, as keys give them ("b s", "bsc", "m a", "ph d").
_DEGREE_LETTERS = (["b", "s"], ["b", "sc"], ["b", "a"], ["m", "s"], ["m", "sc"], ["m", "a"], ["ph", "d"], ["bs"],
                   ["bsc"], ["ba"], ["ms"], ["msc"], ["ma"], ["phd"], ["mph"], ["meng"], ["beng"])


def _opens_with_a_degree(words: list[str]) -> bool:
    return any(words[: len(letters)] == letters and len(words) > len(letters) for letters in _DEGREE_LETTERS)


def _only_detail_added(old: str, new: str) -> bool:
    """The old words all kept in order with one run of words put in that qualifies them: a field
    ("of Data Sciences") or an honour ("ACM Fellow"), no digits and no word of a new position."""
    old_words, new_words = old.split(), new.split()
    if not old_words or len(new_words) <= len(old_words):
        return False
    start = next((n for n, (a, b) in enumerate(zip(old_words, new_words, strict=False)) if a != b), len(old_words))
    inserted = new_words[start : start + len(new_words) - len(old_words)]
    if new_words[start + len(inserted) :] != old_words[start:]:
        return False
    if start == len(old_words) and inserted in _GENERIC_NOUNS:
        return True  # "Undergraduate" -> "Undergraduate Researcher": a group's name said of one of them
    if any(w in _POSITION_WORDS or any(ch.isdigit() for ch in w) for w in inserted):
        return False
    if inserted[0] in _QUALIFIER_START or _opens_with_a_degree(inserted):
        return len(inserted) >= 2  # "of Data Sciences"; "B.S. Biology", the programme they study in
    if len(inserted) > 5:
        return False
    if inserted[-1] == "fellow":  # "ACM Fellow", not "Fellow" or "Research Fellow"
        return len(inserted) >= 2 and inserted[-2] not in _FELLOW_POSITIONS
    return any(w in _PRIZE_WORDS for w in inserted)


#: Words that tell where an award stands: put in or left out, they are news.
_AWARD_STANDING = frozenset({
    "nominee", "nominated", "nomination", "finalist", "semifinalist", "shortlisted", "runner", "honorable",
    "honourable", "mention", "declined", "expired", "pending", "renewed", "withdrawn", "awarded",
})


def _only_named_more_fully(old: str, new: str) -> bool:
    """One's words are all the other's, at its start or its end, and the rest tells no standing; or
    the same words in another order ("Storm Section, Nordhaven Institute" -> "Nordhaven Institute,
    Storm Section")."""
    if old != new and sorted(old.split()) == sorted(new.split()):
        return True
    short, long = sorted((old.split(), new.split()), key=len)
    if len(short) < 2 or len(short) == len(long):
        return False
    if long[: len(short)] == short:
        rest = long[len(short) :]
    elif long[-len(short) :] == short:
        rest = long[: -len(short)]
    else:
        return False
    return not _AWARD_STANDING.intersection(rest)


#: Words that introduce a locator's numbers: "vol. 12, no. 3, pp. 4-9", "39(Suppl 1)", "art. e1002".
_LOCATOR_WORDS = frozenset({"vol", "volume", "no", "nr", "issue", "pp", "p", "pages", "suppl", "supplement", "art",
                            "article", "e", "s"})


def _only_locator_added(old: str, new: str) -> bool:
    """One's words open the other's, and the rest only locates the publication: numbers (an article
    number "btaf051" or "i312" too), the words that introduce them, and at most one year with them
    ("Cytometry A" -> "Cytometry A. 2021;99(9):893-899"); or the same words but for the ones that
    introduce numbers ("pp.", "vol.")."""
    if old != new and _without_locator_words(old) == _without_locator_words(new):
        return True  # "(CHL 2025), 44–53" -> "(CHL 2025), pp. 44–53": the same pages
    opened = _opened_by_shorter(old, new)
    if opened is None:
        return False
    short, rest = opened
    years = sum(_is_year(w) for w in rest)
    return (
        bool(short and rest)
        and years <= 1
        and len(rest) > years
        and all(w in _LOCATOR_WORDS or any(c.isdigit() for c in w) for w in rest)
    )


def _without_locator_words(text: str) -> list[str]:
    return [w for w in text.split() if w not in _LOCATOR_WORDS]


def _less_precise(old: str, new: str) -> bool:
    """The same date without its day, or its month ("2024 01 19" -> "2024 01", keys as ``_comparable`` gives them)."""
    return old.startswith(f"{new} ") and old.replace(" ", "").isdigit()


def _same_headline(old: str, new: str) -> bool:
    """One side's words, four or more, open the other's: a headline shown with its excerpt or without."""
    opened = _opened_by_shorter(old, new)
    return opened is not None and len(opened[0]) >= 4


def _opened_by_shorter(old: str, new: str) -> tuple[list[str], list[str]] | None:
    """The shorter side's words and the words the longer goes on with, where the longer opens with
    the shorter's words; None where it does not."""
    short, long = sorted((old.split(), new.split()), key=len)
    return (short, long[len(short) :]) if long[: len(short)] == short else None


def _only_years_dropped(old: str, new: str) -> bool:
    """The same words, the new side's years all on the old side and fewer of them."""
    (old_years, old_words), (new_years, new_words) = _years_and_words(old), _years_and_words(new)
    return old_words == new_words and len(new_years) < len(old_years) and set(new_years) <= set(old_years)


def _is_year(word: str) -> bool:
    return len(word) == 4 and word.isdigit() and word[:2] in {"19", "20"}


def _modified(before: _Entry, after: _Entry, delta: dict[str, Any]) -> ItemChange:
    return ItemChange(
        change="modified",
        kind=after.kind,
        key=after.key,
        old_key=before.key,
        before=before.fields,
        after=after.fields,
        delta=delta,
    )


def _collapse_reason(
    old: Sequence[_Entry], new: Sequence[_Entry], lost: Sequence[_Entry], *, min_ratio: float, min_items: int
) -> str | None:
    """Why this extraction looks broken, or None when it looks like the page's real content."""
    if old and not new:
        return f"the page yielded no items (it had {len(old)})"
    if len(old) < min_items:
        return None
    if len(new) < min_ratio * len(old):
        return f"the page yielded {len(new)} items, fewer than {min_ratio:.0%} of the previous {len(old)}"
    if len(lost) * 2 > len(old):
        return f"{len(lost)} of {len(old)} items would be removed"
    old_kinds, new_kinds = Counter(e.kind for e in old), Counter(e.kind for e in new)
    for kind, count in sorted(old_kinds.items()):
        if count >= min_items and not new_kinds[kind]:
            return f"all {count} {kind} items vanished"
    return None


def _collapsed_kinds(
    old: Sequence[_Entry], new: Sequence[_Entry], lost: Sequence[_Entry], *, min_ratio: float, min_items: int
) -> tuple[str, ...]:
    """The kinds a page stopped showing (all or most of their items gone) while it still shows its
    other kinds, at least ``min_items`` of them, as before; () when the page as a whole collapsed."""
    old_kinds, new_kinds = Counter(e.kind for e in old), Counter(e.kind for e in new)
    collapsed = tuple(sorted(k for k, n in old_kinds.items() if new_kinds[k] < min_ratio * n))
    if not collapsed:
        return ()
    rest_old = [e for e in old if e.kind not in collapsed]
    rest_new = [e for e in new if e.kind not in collapsed]
    rest_lost = [e for e in lost if e.kind not in collapsed]
    if len(rest_old) < min_items or _collapse_reason(
        rest_old, rest_new, rest_lost, min_ratio=min_ratio, min_items=min_items
    ):
        return ()
    return collapsed


def _label(entry: _Entry) -> str:
    """The words a person recognises an item by, normalised."""
    fields = entry.fields
    if entry.kind == "role":
        return normalise_key(f"{fields.get('title') or ''} {fields.get('organization') or ''}")
    return normalise_key(fields.get(_LABEL_FIELDS[entry.kind]))


_LABEL_FIELDS: Mapping[str, str] = {"paper": "title", "news": "text", "award": "title", "member": "name"}


def _pair_renderings(lost: Sequence[_Entry], found: Sequence[_Entry]) -> list[tuple[_Entry, _Entry]]:
    """Vanished and new items that are one item in another rendering: one label's words within the other's."""
    from rapidfuzz import fuzz

    pairs: list[tuple[_Entry, _Entry]] = []
    for kind in sorted({e.kind for e in lost} & {e.kind for e in found}):
        olds = [e for e in lost if e.kind == kind and len(_label(e)) >= RENDERING_MIN_LABEL]
        news = [e for e in found if e.kind == kind and len(_label(e)) >= RENDERING_MIN_LABEL]
        if not olds or not news:
            continue
        pairs.extend(_pair_labels(olds, news, fuzz.token_set_ratio, _may_be_one_item))
    return pairs


def _may_be_one_item(old: _Entry, new: _Entry) -> bool:
    return not _distinct_identities(old.fields, new.fields)


def _of_another_kind(old: _Entry, new: _Entry) -> bool:
    return old.kind != new.kind


def _pair_across_kinds(lost: Sequence[_Entry], found: Sequence[_Entry]) -> list[tuple[_Entry, _Entry]]:
    """Vanished and new items of different kinds whose labels are the same words, in any order."""
    from rapidfuzz import fuzz

    olds = [e for e in lost if len(_label(e)) >= RENDERING_MIN_LABEL]
    news = [e for e in found if len(_label(e)) >= RENDERING_MIN_LABEL]
    if not olds or not news or len({e.kind for e in olds} | {e.kind for e in news}) < 2:
        return []
    return _pair_labels(olds, news, fuzz.token_sort_ratio, _of_another_kind)


def _pair_labels(
    olds: Sequence[_Entry],
    news: Sequence[_Entry],
    scorer: Callable[..., float],
    allowed: Callable[[_Entry, _Entry], bool],
) -> list[tuple[_Entry, _Entry]]:
    """Old and new entries paired one to one, most alike labels first, each pair at least
    ``RENDERING_THRESHOLD`` alike by ``scorer`` and ``allowed``."""
    import numpy as np
    from rapidfuzz import process

    sims = process.cdist(
        [_label(e) for e in olds], [_label(e) for e in news], scorer=scorer,
        score_cutoff=RENDERING_THRESHOLD, dtype=np.float32,
    )  # fmt: skip
    candidates = [
        (float(sims[i, j]), int(i), int(j))
        for i, j in zip(*np.nonzero(sims), strict=True)
        if allowed(olds[i], news[j])
    ]
    return [(olds[i], news[j]) for i, j in _pair_greedily(candidates)]


def _distinct_identities(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Two DOIs, arXiv ids or dates that differ: two items, however alike their words."""
    return _ids_conflict(before, after) or _conflict(before, after, "date")


def _reformats(
    old: Sequence[_Entry],
    deltas: Sequence[tuple[_Entry, _Entry, dict[str, Any]]],
    renderings: Sequence[tuple[_Entry, _Entry]],
    renamings: Counter[tuple[str, str]],
) -> dict[str, str]:
    """The kinds whose list was re-rendered, each with the reason told to the operator.

    A list is re-rendered when most of its items changed the same field (a citation style
    moves every venue, an author format every author list) or were re-added under a new
    rendering; a few edits, or new items arriving, are not.
    """
    sizes = Counter(e.kind for e in old)
    changed_fields: dict[str, Counter[str]] = {}
    for before, _after, delta in deltas:
        changed_fields.setdefault(before.kind, Counter()).update(list(delta))
    readded = Counter(before.kind for before, _ in renderings)
    reasons = {}
    for kind in sorted(sizes):
        by_field = changed_fields.get(kind)
        affected = (by_field.most_common(1)[0][1] if by_field else 0) + readded[kind]
        if affected >= REFORMAT_MIN_ITEMS and affected >= REFORMAT_MIN_SHARE * sizes[kind]:
            reasons[kind] = f"reformatted: {affected} of {sizes[kind]} {_plural(kind)} changed format"
    renamed = sum(renamings.values())
    if "paper" not in reasons and renamed >= REFORMAT_MIN_ITEMS and renamed * 3 >= sizes["paper"]:
        reasons["paper"] = f"reformatted: {renamed} of {sizes['paper']} papers' venues named anew"
    return reasons


def _venue_renamings(deltas: Sequence[tuple[_Entry, _Entry, dict[str, Any]]]) -> Counter[tuple[str, str]]:
    """Published papers' venues written anew the same way as another's ("SIT 2025" -> "Proceedings
    of the 2025 Symposium on Interface Technology", and so for 2024), and how many: a list that names
    its venues in full now, not papers that moved. A preprint that gains its venue is left out."""
    renamings: Counter[tuple[str, str]] = Counter()
    for before, after, delta in deltas:
        old, new = before.fields.get("venue"), after.fields.get("venue")
        if before.kind == "paper" and "venue" in delta and old and new and _stage(old) is None and _stage(new) is None:
            renamings[_renaming(old, new)] += 1
    return Counter({renaming: n for renaming, n in renamings.items() if n >= 2})


def _renaming(old: Any, new: Any) -> tuple[str, str]:
    """An old and a new name, without their numbers (the years and volumes the renaming keeps)."""
    return _without_numbers(old), _without_numbers(new)


def _without_numbers(name: Any) -> str:
    return " ".join(w for w in normalise_key(str(name)).split() if not w.isdigit())


def _stages_moved_in_a_restyle(
    old: Sequence[_Entry], deltas: Sequence[tuple[_Entry, _Entry, dict[str, Any]]], reformats: Mapping[str, str]
) -> set[int]:
    """The papers of a re-rendered list whose stage moved ("To appear in VLDB 2020" -> "Proceedings
    of the VLDB Endowment, 2020"): a new citation style is no news, a paper published beside it is.
    When the stage moves on too many of them (more than a quarter), the new style leaves it out."""
    moved = [
        before
        for before, after, delta in deltas
        if before.kind == "paper" and before.kind in reformats and "venue" in delta
        and (stage := _stage(before.fields.get("venue"))) is not None and stage != _stage(after.fields.get("venue"))
    ]
    papers = sum(e.kind == "paper" for e in old)
    return {id(e) for e in moved} if len(moved) <= max(2, papers // 4) else set()


#: Where an unpublished paper stands, as ``_comparable`` words the venue.
_STAGE = re.compile(r"\b(?:forthcoming|under review|revise and resubmit|accepted|preprint|working paper|manuscript)\b")


def _stage(venue: Any) -> str | None:
    """A venue's stage ("forthcoming", "under review", "preprint"), or None for a published paper."""
    key = _comparable("venue", venue)
    if not isinstance(key, str):
        return None
    if match := _STAGE.search(key):
        return match.group()
    return "preprint" if is_preprint_server_venue(str(venue)) else None


def _told_again_that_day(gone: _Entry, new: Sequence[_Entry]) -> bool:
    """A news item that leaves a page still holding news of its very day: one announcement shown
    twice (a carousel's caption beside the dated list's line), the carousel moved on."""
    day = str(gone.fields.get("date") or "") if gone.kind == "news" else ""
    return len(day) == 10 and any(e.kind == "news" and e.fields.get("date") == day for e in new)


def _read_anew(old: Sequence[_Entry], lost: Sequence[_Entry], found: Sequence[_Entry]) -> dict[str, str]:
    """The kinds a new layout read anew: most of their items would vanish and about as many new ones
    arrive, none alike enough to pair. A page does not drop most of its roles, awards, members or
    papers and add as many others in one edit; a news list that rolls over does (``_rotated_out``)."""
    sizes, gone, came = (Counter(e.kind for e in entries) for entries in (old, lost, found))
    return {
        kind: f"read anew: {gone[kind]} of {sizes[kind]} {_plural(kind)} gave way to {came[kind]} others"
        for kind in sorted(sizes)
        if kind != "news"
        and gone[kind] >= REFORMAT_MIN_ITEMS
        and gone[kind] >= REFORMAT_MIN_SHARE * sizes[kind]
        and came[kind] * 2 >= gone[kind]
    }


def _plural(kind: str) -> str:
    return "news items" if kind == "news" else f"{kind}s"


#: The field that orders each kind in time, where it has one.
_TIME_FIELDS: Mapping[str, str] = {"news": "date", "paper": "year", "award": "year"}


def _rotated_out(
    old: Sequence[_Entry], new: Sequence[_Entry], lost: Sequence[_Entry], found: Sequence[_Entry]
) -> set[int]:
    """The lost entries that a rolling list ("latest news") let go as new ones arrived.

    A list rotates when what left is older than everything that arrived (by date), or when,
    beside items that stay, what left sits at one end of the old list and what arrived at the
    opposite end of the new one.
    """
    out: set[int] = set()
    for kind in {e.kind for e in lost} & {e.kind for e in found}:
        gone = [e for e in lost if e.kind == kind]
        came = [e for e in found if e.kind == kind]
        before = [e for e in old if e.kind == kind]
        after = [e for e in new if e.kind == kind]
        if _chronological(kind, gone, came) or _at_opposite_ends(before, after, gone, came):
            out.update(id(e) for e in gone)
    return out


def _chronological(kind: str, gone: Sequence[_Entry], came: Sequence[_Entry]) -> bool:
    name = _TIME_FIELDS.get(kind)
    if name is None:
        return False
    gone_times = [str(e.fields.get(name) or "") for e in gone]
    came_times = [str(e.fields.get(name) or "") for e in came]
    if not all(gone_times) or not all(came_times):
        return False
    return max(gone_times) <= min(came_times)


def _at_opposite_ends(
    before: Sequence[_Entry], after: Sequence[_Entry], gone: Sequence[_Entry], came: Sequence[_Entry]
) -> bool:
    if len(gone) >= len(before):  # nothing stayed: position alone proves nothing
        return False
    gone_ids, came_ids = {id(e) for e in gone}, {id(e) for e in came}
    left_head = {id(e) for e in before[: len(gone)]} == gone_ids
    left_tail = {id(e) for e in before[len(before) - len(gone) :]} == gone_ids
    arrived_head = {id(e) for e in after[: len(came)]} == came_ids
    arrived_tail = {id(e) for e in after[len(after) - len(came) :]} == came_ids
    return (left_tail and arrived_head) or (left_head and arrived_tail)
