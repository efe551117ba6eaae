"""Score watcher against the corpus of real page edits (``../shared/corpus``).

Each site's versions are served on loopback as the real thing would be: rendered pages by
URL, source sites behind an emulated GitHub (repos, trees with ETags, raw files). The real
pipeline checks v1 (baseline), then each later version, and the reported changes are
matched with the hand-checked truth of what changed.

Matching: a reported change matches a truth entry of the same change type (added /
removed / modified) and category (paper → papers, news → news, role and member → roles,
award → awards) when the item's words are found in the truth text (fuzzy, one to one).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from github_fake import FakeGitHub
from rapidfuzz import fuzz
from servers import serve
from sqlalchemy import func, select

from watcher.fetch import FetchSettings
from watcher.pipeline import check_source, open_services
from watcher.sources import add_source
from watcher.store.db import Database, utcnow
from watcher.store.models import Change, Snapshot
from watcher.text import normalise_key

__all__ = ["CORPUS", "PairScore", "SiteScore", "format_misses", "format_table", "score_corpus", "score_site", "total"]

CORPUS = Path(os.environ.get("WATCHER_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus")
RENDERED_KINDS = {"jonbarron-html", "plain-html", "lab-html", "rendered-html"}
CATEGORY = {"paper": "papers", "news": "news", "role": "roles", "member": "roles", "award": "awards"}
MATCH_THRESHOLD = 80.0


@dataclass
class PairScore:
    pair: str
    truth: list[tuple[str, str, str]]
    reported: list[tuple[str, str, str]]
    matched: list[tuple[tuple[str, str, str], tuple[str, str, str]]] = field(default_factory=list)

    @property
    def missed(self) -> list[tuple[str, str, str]]:
        hit = {id(t) for t, _ in self.matched}
        return [t for t in self.truth if id(t) not in hit]

    @property
    def false(self) -> list[tuple[str, str, str]]:
        hit = {id(r) for _, r in self.matched}
        return [r for r in self.reported if id(r) not in hit]

    @property
    def truth_found(self) -> int:
        return len(self.truth) - len(self.missed)

    @property
    def reported_right(self) -> int:
        return len(self.reported) - len(self.false)


@dataclass
class SiteScore:
    site: str
    pairs: list[PairScore]

    @property
    def truth(self) -> int:
        return sum(len(p.truth) for p in self.pairs)

    @property
    def reported(self) -> int:
        return sum(len(p.reported) for p in self.pairs)

    @property
    def found(self) -> int:
        """Truth entries that a reported change matches."""
        return sum(p.truth_found for p in self.pairs)

    @property
    def right(self) -> int:
        """Reported changes that the truth lists."""
        return sum(p.reported_right for p in self.pairs)

    @property
    def recall(self) -> float:
        return _ratio(self.found, self.truth)

    @property
    def precision(self) -> float:
        return _ratio(self.right, self.reported)


def _truth_entries(gt: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [
        (change, category, text)
        for change in ("added", "removed", "modified")
        for category, texts in gt.get(change, {}).items()
        for text in texts
    ]


def _label(kind: str, fields: Mapping[str, Any]) -> str:
    if kind == "paper":
        return str(fields.get("title") or "")
    if kind == "news":
        return str(fields.get("text") or "")
    if kind == "member":
        return str(fields.get("name") or "")
    if kind == "role":
        return " ".join(str(fields.get(k) or "") for k in ("title", "organization")).strip()
    return str(fields.get("title") or "")


_QUOTED = re.compile(r"'([^']{15,})'")


def _similarity(reported: str, truth: str) -> float:
    """How well a reported item's words fit a truth text; a truth text that quotes the
    page ("'recruiting PhD students for Fall 2022' -> ...") is also compared by its quotes."""
    a, b = normalise_key(reported), normalise_key(truth)
    if not a or not b:
        return 0.0
    score = max(fuzz.partial_ratio(a, b) if len(a) >= 8 else 0.0, fuzz.token_set_ratio(a, b))
    quotes = [normalise_key(q) for q in _QUOTED.findall(truth)]
    return max([score, *(fuzz.partial_ratio(q, a) for q in quotes if q)])


def match(truth: list[tuple[str, str, str]], reported: list[tuple[str, str, str]]) -> list[tuple[Any, Any]]:
    """Greedy one-to-one matching, best similarity first; then a truth entry that names several
    items ("collaborations (A at X; B at Y) removed") also covers the further changes it names."""
    scored = sorted(
        (
            (_similarity(r[2], t[2]), ti, ri)
            for ti, t in enumerate(truth)
            for ri, r in enumerate(reported)
            if t[0] == r[0] and t[1] == r[1]
        ),
        reverse=True,
    )
    used_t: set[int] = set()
    used_r: set[int] = set()
    pairs = []
    for score, ti, ri in scored:
        if score < MATCH_THRESHOLD or ti in used_t or ri in used_r:
            continue
        used_t.add(ti)
        used_r.add(ri)
        pairs.append((truth[ti], reported[ri]))
    for ri, r in enumerate(reported):
        if ri in used_r:
            continue
        for ti in used_t:
            t = truth[ti]
            if t[:2] == r[:2] and _names_in(r[2], t[2]):
                used_r.add(ri)
                pairs.append((t, r))
                break
    return pairs


def _names_in(reported: str, truth: str) -> bool:
    """Whether every word of a reported label appears in a truth text that lists several items."""
    words = set(normalise_key(reported).split())
    found = words & set(normalise_key(truth).split())
    return ";" in truth and len(found) >= 2 and len(found) >= 0.6 * len(words)


class RenderedSite:
    """One page (the site's rendered HTML) that switches between versions."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.body = b""

    def load(self, folder: Path) -> None:
        self.body = (folder / self.path).read_bytes()

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.page)
        return app

    async def page(self, _request: web.Request) -> web.Response:
        return web.Response(body=self.body, content_type="text/html")


@contextmanager
def _served(meta: Mapping[str, Any]) -> Iterator[tuple[Callable[[Path], None], str, dict[str, str]]]:
    """Serve a site on loopback: how to load a version folder, the source location, the env."""
    owner, repo = meta["repo"].rstrip("/").split("/")[-2:]
    if meta["template_kind"] in RENDERED_KINDS:
        site = RenderedSite(next(p for p in meta["content_paths"] if p.endswith(".html")))
        with serve(site.app()) as base:
            yield site.load, f"{base}/", {}
        return
    github = FakeGitHub(owner, repo, {}, default_branch=meta["branch"])

    def load(folder: Path) -> None:
        github.set_files(
            {
                str(p.relative_to(folder)): p.read_text(encoding="utf-8", errors="replace")
                for p in sorted(folder.rglob("*"))
                if p.is_file()
            }
        )

    with serve(github.api_app()) as api, serve(github.raw_app()) as raw:
        yield load, f"github:{owner}/{repo}", {"WATCHER_GITHUB_API": api, "WATCHER_GITHUB_RAW": raw}


def score_site(site_dir: Path, db_url: str) -> SiteScore:
    """Check every version of one corpus site with the real pipeline and score the changes."""
    meta = json.loads((site_dir / "meta.json").read_text(encoding="utf-8"))
    db = Database(db_url)
    db.ensure_schema()
    truth = {f"{g['from']}->{g['to']}": g for g in meta["ground_truth"]}
    scores: list[PairScore] = []
    try:
        with _served(meta) as (load, location, env):
            with db.session() as session:
                source_id = add_source(session, location, now=utcnow(), name=meta["site_id"]).id
            previous = None
            for version in meta["versions"]:
                load(site_dir / version["version"])
                reported = asyncio.run(_check(db, source_id, env))
                if previous is not None:
                    key = f"{previous}->{version['version']}"
                    pair = PairScore(key, _truth_entries(truth.get(key, {})), reported)
                    pair.matched = match(pair.truth, pair.reported)
                    scores.append(pair)
                previous = version["version"]
    finally:
        db.dispose()
    return SiteScore(meta["site_id"], scores)


async def _check(db: Database, source_id: int, env: Mapping[str, str]) -> list[tuple[str, str, str]]:
    settings = FetchSettings(host_delay=0.0, retries=0)
    environ = {**os.environ, **env}
    async with open_services(db, None, settings=settings, environ=environ, notifiers=()) as services:
        outcome = await check_source(services, source_id)
    if outcome.status == "error":
        raise RuntimeError(f"check failed: {outcome.error}")
    with db.session() as session:
        snapshot = session.scalar(select(func.max(Snapshot.id)).where(Snapshot.source_id == source_id))
        fresh = session.scalars(select(Change).where(Change.snapshot_id == snapshot).order_by(Change.id)).all()
        return [
            (c.change, CATEGORY[c.kind], _label(c.kind, c.after if c.change != "removed" else c.before or {}))
            for c in fresh
        ]


def score_corpus(workdir: Path, sites: list[str] | None = None) -> list[SiteScore]:
    results = []
    for site_dir in sorted(p for p in CORPUS.iterdir() if (p / "meta.json").exists()):
        if sites and site_dir.name not in sites:
            continue
        results.append(score_site(site_dir, f"sqlite:///{workdir / (site_dir.name + '.db')}"))
    return results


def total(results: list[SiteScore]) -> SiteScore:
    return SiteScore("TOTAL", [p for r in results for p in r.pairs])


def format_table(results: list[SiteScore]) -> str:
    lines = [f"{'site':<24} {'truth':>5} {'found':>5} {'reported':>8} {'right':>5} {'recall':>6} {'precision':>9}"]
    for r in [*results, total(results)]:
        lines.append(
            f"{r.site:<24} {r.truth:>5} {r.found:>5} {r.reported:>8} {r.right:>5} {r.recall:>6.3f} {r.precision:>9.3f}"
        )
    return "\n".join(lines)


def format_misses(results: list[SiteScore]) -> str:
    lines = []
    for r in results:
        for p in r.pairs:
            lines += [f"{r.site} {p.pair} MISSED   {t}" for t in p.missed]
            lines += [f"{r.site} {p.pair} FALSE    {f}" for f in p.false]
    return "\n".join(lines)


def _ratio(a: int, b: int) -> float:
    return a / b if b else 1.0
