"""The snapshot stage: record what each fetch brought, and stop early when nothing changed.

Bodies are stored zlib-compressed, once per distinct content hash, so a page that flips
between two versions costs two bodies, and an unchanged page costs a small row.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from watcher.store.models import Body, Snapshot

__all__ = [
    "Fetched",
    "bundle_body",
    "content_hash",
    "latest_extracted_snapshot",
    "load_body",
    "load_bundle",
    "record_snapshot",
    "snapshot_row",
]


#: zlib level for stored bodies: on the benchmark's pages level 1 takes half of level 6's
#: CPU for bodies a tenth larger (21 % of the page against 19 %).
BODY_COMPRESSION = 1


def content_hash(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def bundle_body(files: Mapping[str, str]) -> bytes:
    """A repository bundle as one canonical body (sorted JSON), so it hashes stably."""
    return json.dumps(dict(sorted(files.items())), ensure_ascii=False, separators=(",", ":")).encode()


def load_bundle(body: bytes) -> dict[str, str]:
    return json.loads(body.decode()) if body else {}


@dataclass(frozen=True, kw_only=True)
class Fetched:
    """What the fetch stage hands on, for a page or a repository alike."""

    url: str
    status: int | None
    body: bytes
    text: str
    content_type: str
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    files: Mapping[str, str] | None = None
    #: A repository's tree ETag and blob shas, handed back on its next check.
    repo_state: Mapping[str, Any] | None = None
    elapsed_ms: int = 0

    def validators(self) -> dict[str, Any]:
        """What the next check sends to make an unchanged source cheap."""
        state: dict[str, Any] = {"etag": self.etag, "last_modified": self.last_modified}
        if self.repo_state is not None:
            state["github"] = dict(self.repo_state)
        return state

    @cached_property
    def hash(self) -> str:
        # Asked for several times per page (unchanged?, the snapshot, the source's state):
        # hashed once.
        return content_hash(self.body)


def store_body(session: Session, body: bytes, digest: str) -> None:
    """Keep a body once per hash (a second source with the same page reuses it)."""
    store_bodies(session, {digest: body})


def store_bodies(session: Session, bodies: Mapping[str, bytes]) -> None:
    """Keep bodies (hash -> body) once per hash, in one statement.

    An INSERT that skips a hash already stored, rather than a SELECT first: cheaper, and two
    daemons storing the same page at once cannot collide.
    """
    if not bodies:
        return
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    rows = [
        {"hash": digest, "size": len(body), "data": zlib.compress(body, BODY_COMPRESSION)}
        for digest, body in bodies.items()
    ]
    session.execute(insert(Body.__table__).on_conflict_do_nothing(index_elements=["hash"]), rows)


def load_body(session: Session, digest: str | None) -> bytes:
    if not digest:
        return b""
    row = session.get(Body, digest)
    return zlib.decompress(row.data) if row else b""


def snapshot_row(
    source_id: int,
    *,
    fetched_at: datetime,
    outcome: str,
    fetched: Fetched | None = None,
    store: bool = False,
    error: str | None = None,
    extractor: str | None = None,
    extractor_version: int | None = None,
    item_count: int | None = None,
    duration_ms: int | None = None,
) -> dict[str, Any]:
    """The columns of one snapshot row. With ``store`` it names the body's hash, and whoever
    writes the row keeps the body too (``store_body``)."""
    digest = fetched.hash if store and fetched is not None and fetched.body else None
    return {
        "source_id": source_id,
        "fetched_at": fetched_at,
        "status": fetched.status if fetched else None,
        "etag": fetched.etag if fetched else None,
        "last_modified": fetched.last_modified if fetched else None,
        "content_hash": digest,
        "extractor": extractor,
        "extractor_version": extractor_version,
        "item_count": item_count,
        "outcome": outcome,
        "error": error,
        "duration_ms": duration_ms,
    }


def record_snapshot(session: Session, row: Mapping[str, Any], fetched: Fetched | None = None) -> int:
    """Add a ``snapshot_row`` and return its id, keeping the body of ``fetched`` when the row names it.

    Written at once through the table (no ORM object to flush): a check writes one per page.
    """
    if row["content_hash"] and fetched is not None:
        store_body(session, fetched.body, row["content_hash"])
    result = session.execute(insert(Snapshot.__table__), row)
    return int(result.inserted_primary_key[0])


def latest_extracted_snapshot(session: Session, source_id: int) -> Snapshot | None:
    """The last snapshot whose items were read (baseline, changed, unchanged content or suspect)."""
    query = (
        select(Snapshot)
        .where(Snapshot.source_id == source_id, Snapshot.extractor.is_not(None))
        .order_by(Snapshot.fetched_at.desc(), Snapshot.id.desc())
        .limit(1)
    )
    return session.scalars(query).first()
