"""Loading and running the test cases that each extractor module keeps in ``CASES``."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from extractors import REGISTRY
from extractors.base import Case, Extractor
from watcher.records import Document, record_fields

FIXTURES = Path(__file__).resolve().parent / "fixtures"

__all__ = ["FIXTURES", "all_cases", "case_document", "expected_path", "run_case"]


def all_cases() -> Iterator[tuple[Extractor, Case]]:
    for extractor in REGISTRY:
        module = importlib.import_module(type(extractor).__module__)
        for case in getattr(module, "CASES", ()):
            yield extractor, case


def case_document(case: Case) -> Document:
    """A fixture file is one page; a fixture folder is a repository bundle."""
    path = FIXTURES / case.fixture
    if path.is_dir():
        return Document.from_folder(path, case.url, skip=lambda p: p.name.endswith(".expected.json"))
    return Document(url=case.url, text=path.read_text(encoding="utf-8"), content_type=case.content_type)


def expected_path(case: Case) -> Path:
    path = FIXTURES / case.fixture
    return path.with_name(path.name + ".expected.json")


def run_case(extractor: Extractor, case: Case) -> list[dict[str, Any]]:
    from watcher.normalise import normalise_records

    records = normalise_records(extractor.read(case_document(case))[0])
    return [{"kind": r.kind, **record_fields(r)} for r in records]
