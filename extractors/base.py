"""The extractor contract.

An extractor is a small declarative unit: a ``name``, a ``version`` (kept in the registry;
bump it when its output changes, so stored snapshots say which reading produced them), the URL patterns
it claims, an optional cheap content check ``detect``, and a pure ``parse``: no I/O,
no clock, no config. The registry in ``extractors/__init__.py`` lists them all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from watcher.records import Document, Record

if TYPE_CHECKING:
    from extractors.reading import ListReport

__all__ = ["THIN_READING", "Case", "Extractor", "with_shared_reading"]


class Extractor:
    """Base class of every extractor. Subclasses set the class attributes and ``parse``."""

    name: ClassVar[str]
    #: Regular expressions matched against the document URL (``re.search``).
    url_patterns: ClassVar[Sequence[str]] = ()
    #: Repository paths (regular expressions) a ``github:`` source must fetch for this
    #: template; empty for extractors that only read single pages.
    source_paths: ClassVar[Sequence[str]] = ()
    #: Higher wins when several extractors detect the same document.
    priority: ClassVar[int] = 50
    #: A site family that reads single pages by their template: where its own reading of a
    #: page finds almost nothing, the shared reading is asked too (``with_shared_reading``).
    shared_fallback: ClassVar[bool] = False
    #: Kinds every page the family claims lists (a paper-row template's papers): a reading
    #: without any of them missed the page's structure (a restyled theme), so the shared
    #: reading is asked too.
    expected_kinds: ClassVar[frozenset[str]] = frozenset()
    #: Kinds a template of hand-written pages leaves to each author's markup (news, honours): where
    #: its own reading found none of one, the shared reading is asked for that kind.
    fills_missing_kinds: ClassVar[frozenset[str]] = frozenset()

    @property
    def version(self) -> int:
        """Kept in the registry table (``extractors/__init__.py``) beside the name, so a re-check
        can compare versions without importing the extractor."""
        from extractors import VERSIONS

        return VERSIONS[self.name]

    def claims_url(self, url: str) -> bool:
        return any(re.search(p, url) for p in self.url_patterns)

    def claims(self, doc: Document) -> bool:
        """Whether ``doc``'s address is this extractor's (``url_patterns``), whatever it holds."""
        return self.claims_url(doc.url)

    def detect(self, doc: Document) -> str | None:
        """Why this extractor fits ``doc`` (a short reason), or None. Must be cheap."""
        return None

    def parse(self, doc: Document) -> list[Record]:
        raise NotImplementedError

    def explain(self, doc: Document) -> list[ListReport]:
        """How the page was read, list by list (where, what it was read as, why), for
        ``watcher extract --explain``; empty for extractors that read fixed template fields."""
        return []

    def read(self, doc: Document) -> tuple[list[Record], tuple[Mapping[str, str], ...]]:
        """The records and, aligned with them, identifiers beyond their fields (a DBLP key, an
        OpenAlex work id, an arXiv version) for matching one paper across a person's sources.

        Pages have none (an empty tuple); the index extractors override this and ``parse``
        returns its records.
        """
        records = self.parse(doc)
        if self.shared_fallback and not doc.is_bundle:
            thin = len(records) < THIN_READING
            always = self.shares_every_reading(doc)
            missed = self.expected_kinds and not any(r.kind in self.expected_kinds for r in records)
            unread = self.fills_missing_kinds - {r.kind for r in records}
            if unread:
                unread &= headed_kinds(doc.text)  # only a kind the page heads a section with is worth a second read
            weighed = {r.kind for r in records} if self.weighs_its_reading(doc) else set()
            if thin or always or missed or unread or weighed:
                from extractors.generic import GenericExtractor

                shared = GenericExtractor().parse(doc)
                if not (thin or always or missed):
                    shared = [r for r in shared if r.kind in unread | weighed]
                # A reading with a few items of each kind keeps them: only the kinds it missed are taken,
                # and, where it is weighed, the kinds the shared reading finds far more of.
                records = with_shared_reading(records, shared, only_missing=not (thin or always or weighed))
        return records, ()

    def shares_every_reading(self, doc: Document) -> bool:
        """Whether the shared reading joins this family's reading of ``doc`` however much that found
        (a built page whose widgets change with the theme's version); by default only a thin one."""
        return False

    def weighs_its_reading(self, doc: Document) -> bool:
        """Whether this family's reading of ``doc`` is weighed against the shared one kind by kind
        (a claim made on looser signs); a kind the shared reading finds far more of is taken from it."""
        return False

    def better_source(self, doc: Document) -> str | None:
        """A URL that holds this page's content in a cleaner form (a ``papers.bib``, a
        ``github:owner/repo``), for ``watcher add`` to suggest; None when there is none."""
        return None

    def wants_path(self, path: str) -> bool:
        """Whether a repository file at ``path`` is content this extractor reads."""
        return any(re.search(p, path) for p in self.source_paths)


_HEADING_ELEMENT = re.compile(r"<(h[1-6]|heading)\b[^>]*>(.{1,200}?)</\1\s*>", re.I | re.S)


def headed_kinds(html: str) -> set[str]:
    """The kinds the page's heading elements announce ("News", "Honors"), by a scan of its markup."""
    from extractors.reading.vocabulary import heading_kind
    from watcher.text import clean_text, without_tags

    kinds = set()
    for match in _HEADING_ELEMENT.finditer(html):
        if kind := heading_kind(clean_text(without_tags(match.group(2)))):
            kinds.add(kind)
    return kinds


#: Fewer records than this from a family's own reading of a page: its template's structures
#: were not there (a publications page that is a plain nested list under a theme the family
#: knows), so the shared reading is asked. Only thin readings pay for the second read.
THIN_READING = 3


def with_shared_reading(own: Sequence[Record], shared: Sequence[Record], *, only_missing: bool = False) -> list[Record]:
    """A family's own reading, kind by kind replaced by the shared reading where that found
    the kind and the family did not, or (unless ``only_missing``) found far more of it (2 papers against 17)."""
    own_counts = Counter(record.kind for record in own)
    shared_counts = Counter(record.kind for record in shared)
    taken = {
        kind
        for kind, n in shared_counts.items()
        if not own_counts[kind]
        or (not only_missing and (n >= 2 * own_counts[kind] + 3 or _fuller(kind, shared, own)))
    }
    return [r for r in own if r.kind not in taken] + [r for r in shared if r.kind in taken]


#: The fields that say more about an item than its label: a paper's venue, year and authors.
_DETAILS = {"paper": ("venue", "year", "authors"), "news": ("date",), "member": ("role",),
            "role": ("organization", "start"), "award": ("year",)}  # fmt: skip


def _fuller(kind: str, shared: Sequence[Record], own: Sequence[Record]) -> bool:
    """Whether the shared reading finds at least as many items of a kind and tells far more about
    them (30 papers with their venues and years against 22 bare titles), or tells for most of them a
    detail the other tells for none (every paper's year, where a table's year column was missed)."""
    mine = [r for r in own if r.kind == kind]
    theirs = [r for r in shared if r.kind == kind]
    if len(theirs) < len(mine) or not theirs:
        return False
    details = _DETAILS.get(kind, ())
    if sum(_told_of(theirs, name) for name in details) >= 1.5 * sum(_told_of(mine, name) for name in details) + 2:
        return True
    return any(_told_of(mine, name) == 0 and 2 * _told_of(theirs, name) > len(theirs) for name in details)


def _told_of(records: Sequence[Record], name: str) -> int:
    """How many of ``records`` tell their ``name`` field."""
    return sum(1 for r in records if getattr(r, name, None))


@dataclass(frozen=True, kw_only=True)
class Case:
    """One recorded test case of an extractor, kept beside it.

    ``fixture`` is a file (or, for bundles, a folder) under ``extractors/fixtures/``;
    the expected items live in ``<fixture>.expected.json``, written by
    ``python -m extractors.record`` and reviewed by a person.
    """

    fixture: str
    url: str
    content_type: str = "text/html"
    #: URLs this extractor must claim/detect, and ones it must leave alone.
    claims: tuple[str, ...] = ()
    rejects: tuple[str, ...] = ()
    notes: str = field(default="")
