"""``openalex:A…``: the author's works, cursor-paged (``/works?filter=author.id:A…&cursor=*``).

Only the fields the extractor reads are asked for (``select``), 200 works a page. The user's
key (``api_key``) or contact address (``mailto``, the "polite pool") goes with every request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from watcher.apis import ApiFetch
from watcher.apis.calls import api_get, json_object
from watcher.errors import FetchError

if TYPE_CHECKING:
    from watcher.apis import ApiSettings, ApiSpec
    from watcher.fetch import Fetcher

__all__ = ["MAX_PAGES", "PER_PAGE", "fetch_works", "page_file"]

PER_PAGE = 200
#: 10,000 works: more is not one person's record.
MAX_PAGES = 50
SELECT = "id,doi,title,display_name,publication_year,ids,primary_location,best_oa_location,authorships,type"


def page_file(number: int) -> str:
    return f"works-{number:03d}.json"


async def fetch_works(
    fetcher: Fetcher, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    what = f"OpenAlex works of {spec.ident}"
    params = {"filter": f"author.id:{spec.ident}", "select": SELECT, "per-page": str(PER_PAGE),
              "sort": "publication_date:desc"}  # fmt: skip
    if settings.openalex_key:
        params["api_key"] = settings.openalex_key
    if settings.openalex_mailto:
        params["mailto"] = settings.openalex_mailto
    files: dict[str, str] = {}
    cursor: str | None = "*"
    while cursor:
        if len(files) >= MAX_PAGES:
            raise FetchError(spec.ident, f"{what}: more than {MAX_PAGES * PER_PAGE} works", retryable=False)
        result = await api_get(
            fetcher, f"{settings.base('openalex')}/works", what=what, gap=settings.gaps["openalex"],
            accept="application/json", params={**params, "cursor": cursor},
        )  # fmt: skip
        page = json_object(result, what)
        results = page.get("results")
        if not isinstance(results, list):
            raise FetchError(result.url, f"{what}: the answer has no 'results' list", retryable=True)
        files[page_file(len(files) + 1)] = result.text
        next_cursor = (page.get("meta") or {}).get("next_cursor")
        # The last page may still name a cursor; an empty page ends the list.
        cursor = next_cursor if results and isinstance(next_cursor, str) else None
    return ApiFetch(files=files, state={}, not_modified=False)
