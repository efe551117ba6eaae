"""Site-specific extractors plus the generic fallback.

``REGISTRY`` is the frozen list of extractors, most specific first. Adding a site
family means adding one module here (with its fixtures and cases) and one line below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from extractors.academicpages import AcademicPagesExtractor
from extractors.alfolio import AlfolioExtractor
from extractors.barron import BarronExtractor
from extractors.base import Case, Extractor
from extractors.bibtex import BibtexExtractor
from extractors.cv import CvExtractor
from extractors.generic import GenericExtractor
from extractors.hugo_blox import HugoBloxExtractor
from extractors.jekyll_data import JekyllDataExtractor
from extractors.lab import LabExtractor
from extractors.profile import ProfileExtractor

__all__ = ["REGISTRY", "Case", "Extractor", "by_name"]

REGISTRY: tuple[Extractor, ...] = (
    AcademicPagesExtractor(),
    HugoBloxExtractor(),
    AlfolioExtractor(),
    BibtexExtractor(),
    JekyllDataExtractor(),
    LabExtractor(),
    BarronExtractor(),
    ProfileExtractor(),
    CvExtractor(),
    GenericExtractor(),
)

_BY_NAME: Mapping[str, Extractor] = MappingProxyType({e.name: e for e in REGISTRY})


def by_name(name: str) -> Extractor | None:
    return _BY_NAME.get(name)
