"""``orcid:ID``: the public record (``/v3.0/ID/record``), one JSON document with the summaries of
works, employments, educations and distinctions.

ORCID's public API allows 24 requests a second per client; the Fetcher's host gap is wider.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from watcher.apis.calls import api_get, json_object, validators_of

if TYPE_CHECKING:
    from watcher.apis import ApiFetch, ApiSettings, ApiSpec
    from watcher.fetch import Fetcher

__all__ = ["RECORD_FILE", "fetch_record"]

RECORD_FILE = "record.json"


async def fetch_record(
    fetcher: Fetcher, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    from watcher.apis import ApiFetch

    what = f"ORCID record {spec.ident}"
    result = await api_get(
        fetcher,
        f"{settings.base('orcid')}/v3.0/{spec.ident}/record",
        what=what,
        gap=settings.gaps["orcid"],
        accept="application/vnd.orcid+json, application/json;q=0.9",
        state=state,
    )
    if result.not_modified:
        return ApiFetch(files={}, state=dict(state), not_modified=True)
    json_object(result, what)  # a broken body is an error here, before anything is stored
    return ApiFetch(files={RECORD_FILE: result.text}, state=validators_of(result), not_modified=False)
