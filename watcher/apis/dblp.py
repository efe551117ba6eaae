"""``dblp:PID``: the person's record, one XML document (``/pid/PID.xml``) with every publication.

DBLP asks for at least a second between requests and answers 429 with a Retry-After when
asked too often; the Fetcher honours both (the whole host pauses, not only the one request).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from watcher.apis.calls import fetch_record

if TYPE_CHECKING:
    from watcher.apis import ApiFetch, ApiSettings, ApiSpec
    from watcher.fetch import Fetcher

__all__ = ["PERSON_FILE", "fetch_person"]

#: The bundle's one file.
PERSON_FILE = "person.xml"


async def fetch_person(
    fetcher: Fetcher, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    return await fetch_record(
        fetcher,
        f"{settings.base('dblp')}/pid/{spec.ident}.xml",
        what=f"DBLP person {spec.ident}",
        gap=settings.gaps["dblp"],
        accept="application/xml",
        state=state,
        file=PERSON_FILE,
    )
