"""Score watcher against the corpus of real page edits (``../shared/corpus``), as its README says.

Each site's versions are served on loopback as the real thing would be: every ``.html`` /
``.htm`` page of a rendered site at its own path, watched as its own source; a source site
behind an emulated GitHub (repository, trees with ETags, raw files), watched as one
``github:`` source. The checks go through the command line a user types: ``watcher add``
for each source, then for each version ``watcher check`` and ``watcher diff --format json``.
v1 is the baseline; each later check's changes are matched with the hand-checked truth.

Matching (one to one, best first): a reported change matches a truth entry of the same
change (added / removed / modified) and category (paper -> papers, news -> news, role and
member -> roles, award -> awards) when the item's words fit the truth text. A change that
several pages of one site report counts once. A report that matches an ``optional`` item
of its category is neither right nor false. On a pair whose lists are all empty, every
report is false.

Run as a script for the figures per site and per template kind::

    python tests/corpus_eval.py                 # the whole corpus
    python tests/corpus_eval.py --half B        # the half of the corpus kept for measuring
    python tests/corpus_eval.py --site bmild --misses
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script: the helpers beside it

from github_fake import FakeGitHub
from rapidfuzz import fuzz
from servers import Page, StaticSite, serve

from watcher.text import normalise_key

__all__ = [
    "CORPUS",
    "PairScore",
    "SiteScore",
    "format_kinds",
    "format_misses",
    "format_table",
    "half_of",
    "score_corpus",
    "score_site",
    "total",
]

CORPUS = Path(os.environ.get("WATCHER_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus")
RENDERED_KINDS = {"jonbarron-html", "plain-html", "lab-html", "rendered-html"}
CATEGORY = {"paper": "papers", "news": "news", "role": "roles", "member": "roles", "award": "awards"}
CHANGES = ("added", "removed", "modified")
MATCH_THRESHOLD = 80.0

#: One reported or true change: (change, category, text).
Entry = tuple[str, str, str]


def half_of(site_id: str) -> str:
    """The fixed half of the corpus a site falls in: "A" (worked on) or "B" (kept for measuring)."""
    return "AB"[int(hashlib.sha256(site_id.encode()).hexdigest(), 16) % 2]


@dataclass
class PairScore:
    pair: str
    truth: list[Entry]
    reported: list[Entry]
    optional: list[Entry] = field(default_factory=list)
    matched: list[tuple[Entry, Entry]] = field(default_factory=list)
    excused: list[Entry] = field(default_factory=list)

    @property
    def noise_only(self) -> bool:
        return not self.truth

    @property
    def missed(self) -> list[Entry]:
        hit = {id(t) for t, _ in self.matched}
        return [t for t in self.truth if id(t) not in hit]

    @property
    def false(self) -> list[Entry]:
        hit = {id(r) for _, r in self.matched} | {id(r) for r in self.excused}
        return [r for r in self.reported if id(r) not in hit]

    @property
    def counted(self) -> int:
        """Reports that count for precision: all but those an optional item excuses."""
        return len(self.reported) - len(self.excused)


@dataclass
class SiteScore:
    site: str
    kind: str
    pairs: list[PairScore]

    def _sum(self, value: Callable[[PairScore], int]) -> int:
        return sum(value(p) for p in self.pairs)

    @property
    def truth(self) -> int:
        return self._sum(lambda p: len(p.truth))

    @property
    def found(self) -> int:
        return self._sum(lambda p: len(p.matched))

    @property
    def truth_added(self) -> int:
        return self._sum(lambda p: sum(t[0] == "added" for t in p.truth))

    @property
    def found_added(self) -> int:
        return self._sum(lambda p: sum(t[0] == "added" for t, _ in p.matched))

    @property
    def reported(self) -> int:
        return self._sum(lambda p: p.counted)

    @property
    def right(self) -> int:
        return self._sum(lambda p: len(p.matched))

    @property
    def false_removals(self) -> int:
        return self._sum(lambda p: sum(f[0] == "removed" for f in p.false))

    @property
    def noise_reports(self) -> int:
        """Reports on pairs whose truth lists nothing."""
        return self._sum(lambda p: len(p.false) if p.noise_only else 0)

    @property
    def recall(self) -> float:
        return _ratio(self.found, self.truth)

    @property
    def added_recall(self) -> float:
        return _ratio(self.found_added, self.truth_added)

    @property
    def precision(self) -> float:
        return _ratio(self.right, self.reported)


# ------------------------------------------------------------------ matching


def _truth_entries(lists: Mapping[str, Any], change: str) -> list[Entry]:
    return [(change, category, text) for category, texts in lists.items() for text in texts]


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


def _similarity(reported: str, truth: str) -> float:
    """How well a reported item's words fit a truth text."""
    a, b = normalise_key(reported), normalise_key(truth)
    if not a or not b:
        return 0.0
    return max(fuzz.partial_ratio(a, b) if len(a) >= 8 else 0.0, fuzz.token_set_ratio(a, b))


def match(truth: Sequence[Entry], reported: Sequence[Entry], *, any_change: bool = False) -> list[tuple[Entry, Entry]]:
    """Greedy one-to-one matching, best similarity first. ``any_change``: the change types need
    not agree (optional items name what may change, not how)."""
    scored = sorted(
        (
            (_similarity(r[2], t[2]), ti, ri)
            for ti, t in enumerate(truth)
            for ri, r in enumerate(reported)
            if t[1] == r[1] and (any_change or t[0] == r[0])
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
    return pairs


def score_pair(name: str, truth: Mapping[str, Any], reported: Sequence[Entry]) -> PairScore:
    entries = [e for change in CHANGES for e in _truth_entries(truth.get(change, {}), change)]
    optional = _truth_entries(truth.get("optional", {}), "optional")
    pair = PairScore(name, entries, _distinct(reported), optional)
    pair.matched = match(pair.truth, pair.reported)
    left = [r for r in pair.reported if id(r) not in {id(m) for _, m in pair.matched}]
    pair.excused = [r for _, r in match(optional, left, any_change=True)]
    return pair


def _distinct(reported: Sequence[Entry]) -> list[Entry]:
    """One entry per change, however many of the site's pages reported it."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for change, category, text in reported:
        key = (change, category, normalise_key(text))
        if key not in seen:
            seen.add(key)
            out.append((change, category, text))
    return out


# ------------------------------------------------------------------ serving a site


class _VersionedSite:
    """A rendered site whose pages switch between versions; a page a version lacks is a 404."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = list(paths)
        self.site = StaticSite()

    def load(self, folder: Path) -> None:
        self.site.replace(
            {f"/{path}": Page((folder / path).read_bytes()) for path in self.paths if (folder / path).is_file()}
        )


def _page_paths(meta: Mapping[str, Any]) -> list[str]:
    """Every page of a rendered site: each ``.html``/``.htm`` content path, in any version."""
    paths: list[str] = []
    for path in [*meta["content_paths"], *(f for v in meta["versions"] for f in v.get("files", ()))]:
        if path.endswith((".html", ".htm")) and path not in paths:
            paths.append(path)
    return paths


@contextlib.contextmanager
def _served(meta: Mapping[str, Any]) -> Iterator[tuple[Callable[[Path], None], list[str], dict[str, str]]]:
    """Serve a site on loopback: how to load a version folder, the sources to watch, the env."""
    owner, repo = meta["repo"].rstrip("/").split("/")[-2:]
    if meta["template_kind"] in RENDERED_KINDS:
        site = _VersionedSite(_page_paths(meta))
        with serve(site.site.app()) as base:
            yield site.load, [f"{base}/{path}" for path in site.paths], {}
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
        yield load, [f"github:{owner}/{repo}"], {"WATCHER_GITHUB_API": api, "WATCHER_GITHUB_RAW": raw}


# ------------------------------------------------------------------ checking through the CLI


#: Loopback pages need no politeness gap, and a failure should show, not be retried.
_CONFIG = "fetch: {host_delay: 0, retries: 0}\n"


def _watcher(workdir: Path, db_url: str, *args: str) -> str:
    """Run one ``watcher`` command in this process; its standard output, or an error."""
    from watcher.cli import main

    config = workdir / "corpus-config.yaml"
    if not config.exists():
        config.write_text(_CONFIG, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", db_url, "--config", str(config), *args])
    if code != 0:
        raise RuntimeError(f"watcher {' '.join(args)} exited {code}: {err.getvalue().strip()}")
    return out.getvalue()


@contextlib.contextmanager
def _environ(env: Mapping[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def score_site(site_dir: Path, workdir: Path) -> SiteScore:
    """Check every version of one corpus site through the CLI and score the changes."""
    meta = json.loads((site_dir / "meta.json").read_text(encoding="utf-8"))
    db_url = f"sqlite:///{workdir / (site_dir.name + '.db')}"
    truth = {f"{g['from']}->{g['to']}": g for g in meta["ground_truth"]}
    scores: list[PairScore] = []
    with _served(meta) as (load, locations, env), _environ(env):
        for location in locations:
            _watcher(workdir, db_url, "add", location, "--no-probe")
        previous = None
        for version in meta["versions"]:
            load(site_dir / version["version"])
            _watcher(workdir, db_url, "check")
            changes = json.loads(_watcher(workdir, db_url, "diff", "--format", "json"))
            if previous is not None:
                key = f"{previous}->{version['version']}"
                if dump := os.environ.get("CORPUS_EVAL_DUMP"):
                    (Path(dump) / f"{site_dir.name}.{key}.json").write_text(json.dumps(changes, indent=1))
                reported = [
                    (c["change"], CATEGORY[c["kind"]], _label(c["kind"], c["item"] or {})) for c in changes
                ]
                scores.append(score_pair(key, truth.get(key, {}), reported))
            previous = version["version"]
    return SiteScore(meta["site_id"], meta["template_kind"], scores)


def corpus_sites(sites: Sequence[str] = (), half: str | None = None) -> list[Path]:
    return [
        d
        for d in sorted(p for p in CORPUS.iterdir() if (p / "meta.json").exists())
        if (not sites or d.name in sites) and (half is None or half_of(d.name) == half)
    ]


def score_corpus(workdir: Path, sites: Sequence[str] = (), half: str | None = None, jobs: int = 1) -> list[SiteScore]:
    """Score the chosen sites, ``jobs`` of them at once (each in a process of its own)."""
    dirs = corpus_sites(sites, half)
    if jobs <= 1:
        return [score_site(d, workdir) for d in dirs]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(score_site, dirs, [workdir] * len(dirs)))


# ------------------------------------------------------------------ reporting


def total(results: Sequence[SiteScore], name: str = "TOTAL") -> SiteScore:
    return SiteScore(name, "", [p for r in results for p in r.pairs])


_HEADER = (
    f"{'':<28} {'truth':>5} {'found':>5} {'added':>7} {'report':>6} {'right':>5} "
    f"{'a-rec':>5} {'recall':>6} {'prec':>5} {'f-rem':>5} {'noise':>5}"
)


def _row(r: SiteScore) -> str:
    return (
        f"{r.site:<28} {r.truth:>5} {r.found:>5} {r.found_added:>3}/{r.truth_added:<3} {r.reported:>6} {r.right:>5} "
        f"{r.added_recall:>5.2f} {r.recall:>6.2f} {r.precision:>5.2f} {r.false_removals:>5} {r.noise_reports:>5}"
    )


def format_table(results: Sequence[SiteScore]) -> str:
    return "\n".join([_HEADER, *(_row(r) for r in [*results, total(results)])])


def format_kinds(results: Sequence[SiteScore]) -> str:
    kinds = sorted({r.kind for r in results})
    halves = [total([r for r in results if half_of(r.site) == h], f"half {h}") for h in "AB"]
    rows = [total([r for r in results if r.kind == k], k) for k in kinds]
    return "\n".join([_HEADER, *(_row(r) for r in [*rows, *halves, total(results)])])


def format_misses(results: Sequence[SiteScore]) -> str:
    lines = []
    for r in results:
        for p in r.pairs:
            lines += [f"{r.site} {p.pair} MISSED   {t}" for t in p.missed]
            lines += [f"{r.site} {p.pair} FALSE    {f}" for f in p.false]
    return "\n".join(lines)


def _ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def _main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="append", default=[], help="Only this site (repeatable).")
    parser.add_argument("--half", choices=["A", "B"], help="Only one half of the corpus (a fixed hash of the site).")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="Sites scored at once.")
    parser.add_argument("--misses", action="store_true", help="List each missed and false change.")
    parser.add_argument("--dump", type=Path, help="Write each pair's reported changes (JSON) to this folder.")
    args = parser.parse_args()
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        os.environ["CORPUS_EVAL_DUMP"] = str(args.dump.resolve())
    with tempfile.TemporaryDirectory() as tmp:
        results = score_corpus(Path(tmp), args.site, args.half, args.jobs)
    print(format_table(results))
    print()
    print(format_kinds(results))
    if args.misses:
        print()
        print(format_misses(results))


if __name__ == "__main__":
    _main()
