"""``arxiv:"Full Name"`` and ``arxiv:ORCID``: a person's preprints as Atom.

A name is an author query on the API (``/api/query?search_query=au:"Full Name"``), newest
first, 200 entries a page until the total is read; an ORCID iD is the author feed of the
arXiv account that linked it (``/a/ORCID.atom2``), one document. arXiv's terms ask for no
more than one request every three seconds, for every client together: the Fetcher's gap for
the host (shared by daemons on one PostgreSQL database) keeps to it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from watcher.apis import ApiFetch
from watcher.apis.calls import api_get, fetch_record
from watcher.errors import FetchError

if TYPE_CHECKING:
    from watcher.apis import ApiSettings, ApiSpec
    from watcher.fetch import Fetcher, FetchResult

__all__ = ["FEED_FILE", "MAX_RESULTS", "PER_PAGE", "fetch_author", "page_file"]

PER_PAGE = 200
#: A name matching more preprints than this is many people: watch the ORCID feed instead.
MAX_RESULTS = 2000
FEED_FILE = "feed.atom"
_ACCEPT = "application/atom+xml, application/xml;q=0.9"
_TOTAL = re.compile(r"<opensearch:totalResults[^>]*>\s*(\d+)\s*<")
_ENTRY = re.compile(r"<entry[\s>]")
# The API reports a bad query as a feed with one entry whose id is an error URL.
_ERROR = re.compile(r"<id>\s*https?://arxiv\.org/api/errors[^<]*</id>.*?<summary>(.*?)</summary>", re.S)


def page_file(number: int) -> str:
    return f"query-{number:03d}.atom"


async def fetch_author(
    fetcher: Fetcher, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    base, gap = settings.base("arxiv"), settings.gaps["arxiv"]
    if spec.by_orcid:
        return await fetch_record(fetcher, f"{base}/a/{spec.ident}.atom2", what=f"arXiv author feed of {spec.ident}",
                                  gap=gap, accept=_ACCEPT, state=state, file=FEED_FILE, check=_check_feed)  # fmt: skip
    what = f'arXiv query au:"{spec.ident}"'
    files: dict[str, str] = {}
    start, total = 0, None
    while total is None or start < total:
        params = {"search_query": f'au:"{spec.ident}"', "sortBy": "submittedDate", "sortOrder": "descending",
                  "start": str(start), "max_results": str(PER_PAGE)}  # fmt: skip
        result = await api_get(fetcher, f"{base}/api/query", what=what, gap=gap, accept=_ACCEPT, params=params)
        entries = _check_feed(result, what)
        if total is None:
            total = _total_results(result, what)
            if total > MAX_RESULTS:
                raise FetchError(result.url, f"{what} finds {total} preprints, more than {MAX_RESULTS}: "
                                 "watch arxiv:ORCID or a fuller name instead", retryable=False)  # fmt: skip
        if entries == 0 and start < total:
            # The API sometimes answers a page empty for a while: an empty page inside the total
            # would read as papers removed.
            raise FetchError(result.url, f"{what}: an empty page at {start} of {total}; retrying later",
                             retryable=True)  # fmt: skip
        files[page_file(len(files) + 1)] = result.text
        start += entries
    return ApiFetch(files=files, state={}, not_modified=False)


def _check_feed(result: FetchResult, what: str) -> int:
    """The number of entries of an Atom answer; an error feed is a ``FetchError`` with arXiv's words."""
    if error := _ERROR.search(result.text):
        raise FetchError(result.url, f"{what}: arXiv says {' '.join(error[1].split())}", retryable=False)
    if "<feed" not in result.text:
        raise FetchError(result.url, f"{what}: the answer is not an Atom feed", retryable=True)
    return len(_ENTRY.findall(result.text))


def _total_results(result: FetchResult, what: str) -> int:
    match = _TOTAL.search(result.text)
    if match is None:
        raise FetchError(result.url, f"{what}: the answer has no opensearch:totalResults", retryable=True)
    return int(match[1])
