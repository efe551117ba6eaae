"""Record the expected output of extractor cases, for a person to review.

    python -m extractors.record            # (re)write every case's .expected.json
    python -m extractors.record alfolio    # only one extractor's cases

Review the written files with ``git diff`` before committing them: the test suite then
holds every extractor to exactly that output.
"""

from __future__ import annotations

import json
import sys

from extractors.cases import all_cases, expected_path, run_case


def main(argv: list[str]) -> int:
    only = set(argv)
    for extractor, case in all_cases():
        if only and extractor.name not in only:
            continue
        items = run_case(extractor, case)
        path = expected_path(case)
        path.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{extractor.name}: {case.fixture} -> {len(items)} items")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
