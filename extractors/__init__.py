"""Site-specific extractors plus the generic fallback.

``REGISTRY`` is the frozen list of extractors, most specific first. Adding a site
family means adding one module here (with its fixtures and cases) and one line to
``_TABLE`` below, which also holds each extractor's version: bump it when the
extractor's output changes, so stored readings are redone with the new one.

The modules are imported on first use of ``REGISTRY``: a re-check answered by 304s only
needs the versions, and importing every extractor (their patterns, YAML and BibTeX
parsers) was a fifth of its start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from extractors.base import Case, Extractor

if TYPE_CHECKING:
    REGISTRY: tuple[Extractor, ...]

__all__ = ["ALIASES", "REGISTRY", "Case", "Extractor", "by_name", "known_name", "version_of"]

#: (name, "module:Class", version), most specific first.
_TABLE: tuple[tuple[str, str, int], ...] = (
    ("dblp", "extractors.dblp:DblpExtractor", 1),
    ("arxiv", "extractors.arxiv:ArxivExtractor", 1),
    ("openalex", "extractors.openalex:OpenAlexExtractor", 1),
    ("orcid", "extractors.orcid:OrcidExtractor", 1),
    ("academicpages", "extractors.academicpages:AcademicPagesExtractor", 16),
    ("hugo-blox", "extractors.hugo_blox:HugoBloxExtractor", 16),
    ("alfolio", "extractors.alfolio:AlfolioExtractor", 17),
    ("bibtex", "extractors.bibtex:BibtexExtractor", 3),
    ("jekyll-data", "extractors.jekyll_data:JekyllDataExtractor", 17),
    ("data", "extractors.data:DataExtractor", 16),
    ("barron", "extractors.barron:BarronExtractor", 13),
    ("profile", "extractors.profile:ProfileExtractor", 16),
    ("cv", "extractors.cv:CvExtractor", 17),
    ("generic", "extractors.generic:GenericExtractor", 19),
)

VERSIONS: Mapping[str, int] = MappingProxyType({name: version for name, _, version in _TABLE})
#: Names of retired extractors and the one that reads their pages now, so a source configured
#: with the old name keeps working. 2026-11: lab pages are read by the shared reading (generic).
ALIASES: Mapping[str, str] = MappingProxyType({"lab": "generic"})

_loaded: dict[str, Extractor] = {}


def version_of(name: str) -> int | None:
    """The current version of the extractor called ``name`` (None: no such extractor), without importing it."""
    return VERSIONS.get(name)


def known_name(name: str) -> str | None:
    """The registered extractor a name (or a retired name) stands for; None for an unknown one."""
    name = ALIASES.get(name, name)
    return name if name in VERSIONS else None


def by_name(name: str) -> Extractor | None:
    if name not in VERSIONS:
        return None
    _load_all()
    return _loaded[name]


def _load_all() -> tuple[Extractor, ...]:
    if not _loaded:
        for name, where, _ in _TABLE:
            module, cls = where.split(":")
            extractor = getattr(importlib.import_module(module), cls)()
            if extractor.name != name:
                raise RuntimeError(f"{where} is named {extractor.name!r}, registered as {name!r}")
            _loaded[name] = extractor
    return tuple(_loaded.values())


def __getattr__(attribute: str) -> Any:
    # PEP 562: ``REGISTRY`` is built on first access.
    if attribute == "REGISTRY":
        registry = _load_all()
        globals()["REGISTRY"] = registry
        return registry
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
