"""The extract stage: pick an extractor for a document and run it.

Routing: a named extractor runs as asked; ``auto`` asks every registered extractor
whether it claims the URL or detects the content, and the highest priority wins. The
reason is kept, so ``watcher extract`` can say which extractor ran and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors import ALIASES, REGISTRY, VERSIONS, Extractor
from watcher.errors import ConfigError, ExtractionError
from watcher.records import Document, Record

if TYPE_CHECKING:
    from extractors.reading import ListReport

__all__ = ["Extraction", "choose_extractor", "extract_records", "wanted_repository_path"]


@dataclass(frozen=True, kw_only=True)
class Extraction:
    extractor: str
    version: int
    reason: str
    records: tuple[Record, ...]
    #: Identifiers beyond the records' fields, aligned with ``records`` (index extractors
    #: only; empty for pages): see ``Extractor.read``.
    ids: tuple[Mapping[str, str], ...] = ()
    #: How the page was read, list by list, when asked for (``explain=True``).
    lists: tuple[ListReport, ...] = ()
    #: What the reading left out to stay within its budget ("read in part: ..."), set by ``watcher.budget``.
    notes: tuple[str, ...] = ()


def choose_extractor(
    doc: Document, name: str = "auto", registry: Sequence[Extractor] = REGISTRY
) -> tuple[Extractor, str]:
    """The extractor for ``doc`` and why it was chosen."""
    if name != "auto":
        name = ALIASES.get(name, name)
        for extractor in registry:
            if extractor.name == name:
                return extractor, "chosen by name"
        known = ", ".join(sorted(e.name for e in registry))
        raise ConfigError(f"unknown extractor {name!r} (known: auto, {known})")
    best: tuple[int, Extractor, str] | None = None
    for extractor in registry:
        reason = extractor.detect(doc)
        if reason is None and extractor.claims(doc):
            reason = "URL pattern"
        if reason is not None and (best is None or extractor.priority > best[0]):
            best = (extractor.priority, extractor, reason)
    if best is None:
        raise ExtractionError(f"no extractor reads {doc.url}")
    return best[1], best[2]


def extract_records(
    doc: Document, name: str = "auto", registry: Sequence[Extractor] = REGISTRY, *, explain: bool = False
) -> Extraction:
    """Run the chosen extractor (and, with ``explain``, say how it read the page); a crash inside
    it becomes an ``ExtractionError``."""
    extractor, reason = choose_extractor(doc, name, registry)
    try:
        records, ids = extractor.read(doc)
        lists = extractor.explain(doc) if explain else []
    except ExtractionError:
        raise
    except Exception as exc:  # an extractor bug must not take the whole check down
        raise ExtractionError(f"{extractor.name} failed on {doc.url}: {exc!r}") from exc
    return Extraction(
        extractor=extractor.name,
        version=extractor.version,
        reason=reason,
        records=tuple(records),
        ids=tuple(ids),
        lists=tuple(lists),
    )


def wanted_repository_path(path: str, registry: Sequence[Extractor] = REGISTRY) -> bool:
    """Whether any source extractor reads the repository file at ``path``."""
    return any(extractor.wants_path(path) for extractor in registry)


def wanted_paths_signature() -> str:
    """Names ``wanted_repository_path`` as it stands: the registry's version table (a change in
    which files an extractor reads is a change in its reading, and moves its version)."""
    return ",".join(f"{name}:{version}" for name, version in sorted(VERSIONS.items()))
