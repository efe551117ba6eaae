"""``orcid:ID``: the public record (``/v3.0/ID/record``), one JSON document with the summaries of
works, employments, educations and distinctions.

ORCID's public API allows 24 requests a second per client; the Fetcher's host gap is wider.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from watcher.apis.calls import fetch_record, json_object

if TYPE_CHECKING:
    from watcher.apis import ApiFetch, ApiSettings, ApiSpec
    from watcher.fetch import Fetcher

__all__ = ["RECORD_FILE", "fetch_orcid_record"]

RECORD_FILE = "record.json"


async def fetch_orcid_record(
    fetcher: Fetcher, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    return await fetch_record(
        fetcher,
        f"{settings.base('orcid')}/v3.0/{spec.ident}/record",
        what=f"ORCID record {spec.ident}",
        gap=settings.gaps["orcid"],
        accept="application/vnd.orcid+json, application/json;q=0.9",
        state=state,
        file=RECORD_FILE,
        check=json_object,  # a broken body is an error here, before anything is stored
    )
