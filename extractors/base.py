"""The extractor contract.

An extractor is a small declarative unit: a ``name``, a ``version`` (kept in the registry;
bump it when its output changes, so stored snapshots say which reading produced them), the URL patterns
it claims, an optional cheap content check ``detect``, and a pure ``parse``: no I/O,
no clock, no config. The registry in ``extractors/__init__.py`` lists them all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from watcher.records import Document, Record

if TYPE_CHECKING:
    from extractors.reading import ListReport

__all__ = ["Case", "Extractor"]


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

    @property
    def version(self) -> int:
        """Kept in the registry table (``extractors/__init__.py``) beside the name, so a re-check
        can compare versions without importing the extractor."""
        from extractors import VERSIONS

        return VERSIONS[self.name]

    def claims_url(self, url: str) -> bool:
        return any(re.search(p, url) for p in self.url_patterns)

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
        return self.parse(doc), ()

    def better_source(self, doc: Document) -> str | None:
        """A URL that holds this page's content in a cleaner form (a ``papers.bib``, a
        ``github:owner/repo``), for ``watcher add`` to suggest; None when there is none."""
        return None

    def wants_path(self, path: str) -> bool:
        """Whether a repository file at ``path`` is content this extractor reads."""
        return any(re.search(p, path) for p in self.source_paths)


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
