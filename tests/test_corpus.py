"""Accuracy on real pages: the corpus of public academic pages before and after real edits.

Runs the real pipeline over every site and version (see ``corpus_eval``), prints recall and
precision per site, and holds the totals to the floors below. Skips where the corpus is
absent (it sits beside the checkout in CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_eval import CORPUS, format_misses, format_table, score_corpus, total

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS} (set WATCHER_CORPUS)")

#: Floors measured on the corpus; raise them as extractors improve, never lower them silently.
RECALL_FLOOR = 0.97
PRECISION_FLOOR = 0.98
#: Known: see the printed list of FALSE rows; each is a place where the extractors fall short.
FALSE_REMOVALS_CEILING = 1


def test_corpus_accuracy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = score_corpus(tmp_path)
    with capsys.disabled():
        print("\n" + format_table(results) + "\n" + format_misses(results))
    overall = total(results)
    assert overall.recall >= RECALL_FLOOR
    assert overall.precision >= PRECISION_FLOOR
    false_removals = [f for p in overall.pairs for f in p.false if f[0] == "removed"]
    assert len(false_removals) <= FALSE_REMOVALS_CEILING, f"removals the truth does not list: {false_removals}"
