"""One request to an index API, with its etiquette and its errors made readable."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from watcher.apis import ApiFetch
from watcher.errors import FetchError
from watcher.fetch import Fetcher, FetchResult

__all__ = ["api_get", "fetch_record", "json_object", "validators_of"]


async def api_get(
    fetcher: Fetcher,
    url: str,
    *,
    what: str,
    gap: float,
    accept: str,
    state: Mapping[str, Any] | None = None,
    params: Mapping[str, str] | None = None,
) -> FetchResult:
    """GET an API URL politely (``gap`` seconds between requests to its host at least); a 4xx is a
    ``FetchError`` naming ``what`` was asked. ``state`` holds the validators of the last answer."""
    import httpx

    full = str(httpx.URL(url, params=params)) if params else url
    state = state or {}
    result = await fetcher.fetch(
        full,
        etag=state.get("etag"),
        last_modified=state.get("last_modified"),
        obey_robots=False,  # a documented API, not pages crawled
        accept=accept,
        raise_for_status=False,
        min_gap=gap,
    )
    if result.status == 404:
        raise FetchError(full, f"{what} not found (404)", retryable=False, status=404)
    if result.status >= 400:
        detail = " ".join(result.text[:200].split()) or "no details"
        raise FetchError(full, f"{what}: the API answered {result.status}: {detail}", retryable=False,
                         status=result.status)  # fmt: skip
    return result


async def fetch_record(
    fetcher: Fetcher,
    url: str,
    *,
    what: str,
    gap: float,
    accept: str,
    state: Mapping[str, Any],
    file: str,
    check: Callable[[FetchResult, str], object] | None = None,
) -> ApiFetch:
    """A record that is one document (DBLP, ORCID, the arXiv author feed), asked conditionally:
    a 304 is "not modified"; ``check`` refuses a broken answer before anything is stored."""
    result = await api_get(fetcher, url, what=what, gap=gap, accept=accept, state=state)
    if result.not_modified:
        return ApiFetch(files={}, state=dict(state), not_modified=True)
    if check is not None:
        check(result, what)
    return ApiFetch(files={file: result.text}, state=validators_of(result), not_modified=False)


def validators_of(result: FetchResult) -> dict[str, Any]:
    """What to send next time so that an unchanged record answers 304."""
    return {"etag": result.etag, "last_modified": result.last_modified}


def json_object(result: FetchResult, what: str) -> dict[str, Any]:
    """The answer as a JSON object; anything else is a clear, retryable ``FetchError``."""
    try:
        document = json.loads(result.text)
    except ValueError as exc:
        raise FetchError(result.url, f"{what} answered with invalid JSON: {exc}", retryable=True) from exc
    if not isinstance(document, dict):
        raise FetchError(result.url, f"{what} answered with unexpected JSON (not an object)", retryable=True)
    return document
