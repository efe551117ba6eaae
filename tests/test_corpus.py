"""Accuracy on real pages: the corpus of public academic pages before and after real edits.

Checks every site and version through the command line (see ``corpus_eval``), prints the
figures per site, per template kind and per half of the corpus, and holds the totals to the
floors below. Skips where the corpus is absent (it sits beside the checkout in CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from corpus_eval import CORPUS, format_kinds, format_misses, format_table, score_corpus, total

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS} (set WATCHER_CORPUS)")

#: Floors measured on the whole corpus; raise them as reading improves, never lower them.
ADDED_RECALL_FLOOR = 0.96
RECALL_FLOOR = 0.93
PRECISION_FLOOR = 0.978
#: Removals the truth does not list (the worst kind of false report), at most.
FALSE_REMOVALS_CEILING = 3
#: Reports on pairs whose truth lists nothing, at most.
NOISE_REPORTS_CEILING = 0


def test_corpus_accuracy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = score_corpus(tmp_path, jobs=min(2, os.cpu_count() or 1))
    with capsys.disabled():
        print("\n" + format_table(results) + "\n\n" + format_kinds(results) + "\n\n" + format_misses(results))
    overall = total(results)
    assert overall.added_recall >= ADDED_RECALL_FLOOR
    assert overall.recall >= RECALL_FLOOR
    assert overall.precision >= PRECISION_FLOOR
    assert overall.false_removals <= FALSE_REMOVALS_CEILING
    assert overall.noise_reports <= NOISE_REPORTS_CEILING
