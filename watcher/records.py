"""Typed records: what an extractor reads from a page, and what the diff compares.

Every record is a frozen, keyword-only dataclass with a ``kind`` and a stable ``key``,
so items are compared by identity, never by their position on the page.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any, ClassVar, TypeAlias

from watcher.text import normalise_key

__all__ = [
    "KINDS",
    "Award",
    "Document",
    "Member",
    "NewsItem",
    "Paper",
    "Record",
    "Role",
    "paper_ids",
    "record_from_fields",
]

_DBLP_RECORD = re.compile(r"dblp\.(?:org|uni-trier\.de)/rec/(?:bibtex/|html/|xml/)?(.+?)(?:\.html|\.xml|\.bib)?$")


@dataclass(frozen=True, kw_only=True, slots=True)
class Paper:
    kind: ClassVar[str] = "paper"
    title: str
    authors: tuple[str, ...] = ()
    venue: str | None = None
    year: int | None = None
    url: str | None = None
    doi: str | None = None
    arxiv: str | None = None

    @property
    def key(self) -> str:
        """DOI, else arXiv id, else the normalised title."""
        if self.doi:
            return f"doi:{self.doi.lower()}"
        if self.arxiv:
            return f"arxiv:{self.arxiv}"
        return f"title:{normalise_key(self.title)}"

    @property
    def label(self) -> str:
        return self.title


@dataclass(frozen=True, kw_only=True, slots=True)
class Role:
    kind: ClassVar[str] = "role"
    title: str
    organization: str | None = None
    start: str | None = None
    end: str | None = None

    @property
    def key(self) -> str:
        """Title and organisation, plus the start year: two internships at one lab in
        different summers are two roles. A start date that appears later is matched by
        the diff (same title and organisation), not reported as a new role."""
        year = (self.start or "")[:4]
        return f"{normalise_key(self.title)}|{normalise_key(self.organization)}|{year if year.isdigit() else ''}"

    @property
    def label(self) -> str:
        return ", ".join(p for p in (self.title, self.organization) if p)


@dataclass(frozen=True, kw_only=True, slots=True)
class NewsItem:
    kind: ClassVar[str] = "news"
    text: str
    date: str | None = None
    url: str | None = None

    @property
    def key(self) -> str:
        return f"{self.date or ''}|{normalise_key(self.text)}"

    @property
    def label(self) -> str:
        return f"{self.date}: {self.text}" if self.date else self.text


@dataclass(frozen=True, kw_only=True, slots=True)
class Award:
    kind: ClassVar[str] = "award"
    title: str
    organization: str | None = None
    year: int | None = None

    @property
    def key(self) -> str:
        return f"{normalise_key(self.title)}|{self.year or ''}"

    @property
    def label(self) -> str:
        return f"{self.title} ({self.year})" if self.year else self.title


@dataclass(frozen=True, kw_only=True, slots=True)
class Member:
    kind: ClassVar[str] = "member"
    name: str
    role: str | None = None
    url: str | None = None

    @property
    def key(self) -> str:
        return normalise_key(self.name)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.role})" if self.role else self.name


Record: TypeAlias = Paper | Role | NewsItem | Award | Member

KINDS: Mapping[str, type[Record]] = {cls.kind: cls for cls in (Paper, Role, NewsItem, Award, Member)}
#: Each record class's field names, read once: ``dataclasses.fields`` on every call was most
#: of the cost of ``record_fields``.
_FIELD_NAMES: Mapping[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclass_fields(cls)) for cls in KINDS.values()
}


def record_fields(record: Record) -> dict[str, Any]:
    """The record's fields as JSON-ready values (tuples become lists)."""
    # Not dataclasses.asdict: its recursive deep copy is ten times slower, and the values are flat.
    names = _FIELD_NAMES.get(type(record)) or tuple(f.name for f in dataclass_fields(record))
    fields: dict[str, Any] = {}
    for name in names:
        value = getattr(record, name)
        fields[name] = list(value) if isinstance(value, tuple) else value
    return fields


def record_from_fields(kind: str, fields: Mapping[str, Any]) -> Record:
    """Rebuild a record from stored JSON fields (unknown keys are ignored)."""
    cls = KINDS[kind]
    names = {f.name for f in dataclasses.fields(cls)}
    known = {k: v for k, v in fields.items() if k in names}
    if "authors" in known:
        known["authors"] = tuple(known["authors"] or ())
    return cls(**known)


def paper_ids(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The identifiers a paper's own fields hold: DOI, arXiv id, and the DBLP key of a DBLP link."""
    ids: dict[str, Any] = {}
    if fields.get("doi"):
        ids["doi"] = str(fields["doi"]).lower()
    if fields.get("arxiv"):
        ids["arxiv"] = fields["arxiv"]
    match = _DBLP_RECORD.search(str(fields.get("url") or ""))
    if match:
        ids["dblp"] = match[1]
    return ids


@dataclass(frozen=True, kw_only=True, slots=True)
class Document:
    """What an extractor reads: one fetched page or file, or a bundle of repository files.

    ``files`` maps repository paths to their text for ``github:`` sources (and is empty
    for a single page); ``text`` is then empty.
    """

    url: str
    text: str = ""
    content_type: str = "text/html"
    files: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_bundle(self) -> bool:
        return bool(self.files)

    @classmethod
    def from_folder(cls, folder: Path, url: str, *, skip: Callable[[Path], bool] = lambda _path: False) -> Document:
        """A bundle of the text files under ``folder`` (a checked-out site), hidden ones left out."""
        files = {
            str(p.relative_to(folder)): p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(folder.rglob("*"))
            if p.is_file() and not skip(p) and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        }
        return cls(url=url, files=files, content_type="application/x-repository")
