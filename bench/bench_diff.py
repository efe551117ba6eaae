"""How fast normalise + diff run on a large random source (not a test: prints items/s).

    python bench/bench_diff.py [ITEMS] [EDITED_FRACTION]

Builds ITEMS papers, news, roles and members, then a next version of the page in which
EDITED_FRACTION of them are edited (title typos, venue changes, reworded news, role
changes), a few are added and removed, and the order is shuffled; it times the diff of
the stored first version against the normalised second one.
"""

from __future__ import annotations

import random
import string
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from watcher.diff import StoredItem, diff_items
from watcher.normalise import normalise_records
from watcher.records import Member, NewsItem, Paper, Record, Role, record_fields

WORDS = (
    "neural",
    "sparse",
    "fields",
    "adaptive",
    "learning",
    "robust",
    "graph",
    "inference",
    "tidal",
    "coastal",
    "sediment",
    "transport",
    "model",
    "diffusion",
    "scalable",
    "efficient",
    "latent",
    "dynamics",
    "estimation",
    "control",
    "stochastic",
    "bayesian",
    "optimal",
    "distributed",
)


def random_title(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(5, 10))) + f" {rng.randint(1, 10**6)}"


def random_record(rng: random.Random, n: int) -> Record:
    pick = rng.random()
    if pick < 0.7:
        authors = tuple(f"{rng.choice(string.ascii_uppercase)}. Author{rng.randint(1, 500)}" for _ in range(4))
        return Paper(title=random_title(rng), authors=authors, venue="arXiv", year=2025)
    if pick < 0.85:
        return NewsItem(
            date=f"20{rng.randint(10, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            text=f"{random_title(rng)} accepted",
        )
    if pick < 0.95:
        return Member(name=f"Person {n} {rng.choice(WORDS)}", role="PhD student")
    return Role(title=random_title(rng), organization=f"Institute {n}")


def edit(rng: random.Random, record: Record) -> Record:
    if isinstance(record, Paper):
        if rng.random() < 0.5:
            chars = list(record.title)
            spot = rng.randrange(len(chars) - 8)
            chars[spot], chars[spot + 1] = chars[spot + 1], chars[spot]
            return replace(record, title="".join(chars))
        return replace(record, venue="CVPR 2026", year=2026)
    if isinstance(record, NewsItem):
        return replace(record, text=record.text + " Congratulations to the team!")
    if isinstance(record, Member):
        return replace(record, role="Alumni")
    return replace(record, end="2026")


def next_version(rng: random.Random, records: list[Record], fraction: float) -> list[Record]:
    edited = [edit(rng, r) if rng.random() < fraction else r for r in records]
    kept = [r for r in edited if rng.random() > 0.01]
    kept += [random_record(rng, len(records) + n) for n in range(len(records) // 100)]
    rng.shuffle(kept)
    return kept


def timed(action: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    fraction = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
    rng = random.Random(7)
    first = normalise_records([random_record(rng, n) for n in range(count)])
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in first]
    raw_second = next_version(rng, first, fraction)
    second = normalise_records(raw_second)

    normalise_s = timed(lambda: normalise_records(raw_second))
    diff_s = timed(lambda: diff_items(stored, second))
    result = diff_items(stored, second)
    summary = Counter(c.change for c in result.changes)
    print(f"items: {len(stored)} -> {len(second)}, edited fraction {fraction:.0%}")
    print(
        f"changes: {dict(summary)}, unchanged {result.unchanged}, refreshed {len(result.refreshed)}, "
        f"suspect {result.suspect!r}"
    )
    print(f"normalise: {normalise_s * 1000:.1f} ms ({len(raw_second) / normalise_s:,.0f} items/s)")
    print(f"diff:      {diff_s * 1000:.1f} ms ({len(second) / diff_s:,.0f} items/s)")


if __name__ == "__main__":
    main()
