"""Which regular expressions of the readers grow faster than linearly (not a test: prints suspects).

    python bench/regex_audit.py              # every module-level pattern of extractors/ and watcher/ (minutes)
    python bench/regex_audit.py --module extractors.reading.names

Each compiled pattern is run (``finditer``, ``match``, ``fullmatch``) on strings made by repeating
one short seed ("Aa, A. ", "  \\n", "(" ...) to about 1,000 and 4,000 characters, each with a few
endings that make the match fail. A pattern whose time grows more than eight times when the
input grows four times, past 20 ms, is printed with the seed that shows it; one stopped after
2 s prints 99 s. Patterns used only with ``match`` on short cleaned lines may show here and be
harmless; any that a page's text reaches must be linear.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import signal
import sys
import time

SEEDS = [
    "a", "A", "Aa", "Aaa ", "A. ", "a ", " ", ",", ", ", "A, ", "Aa, A. ", "Aa, A. B., ", "1", "2020 ", "(", "[",
    "<a", "<b>", "-", ".", "x.y", "and ", "at ", "of ", "Aa Aa, ", "é", "'", "Aa-Aa ", "a.", "1.", "A.", "Aa Aa ",
    "the ", "I ", "a,", "@", "a/", "//", "/ ", "http://a", "a b c ", "(a", "A A ", "\n", "  \n", "* ", "# ", "Aa. ",
    "aa, ", "A.B.", "Aa & Aa, ", "{", "\\", "%", "=", "--", "Jan 2020 ", "aa at Aa ", "I am a ", "as a ", "1-", "a:",
    "A: ", "(2020", "[1]", "Aaa, Aaa, ", "aA", "Aa Aa. ", "a_", ":",
]  # fmt: skip
ENDINGS = ("", "!", "\x00", "aa")


class _Stop(Exception):
    pass


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def cost(pattern: re.Pattern[str], text: str) -> float:
    started = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        for _ in pattern.finditer(text):
            pass
        pattern.match(text)
        pattern.fullmatch(text)
    except _Stop:
        return 99.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - started


def patterns(prefix: str) -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for package in ("extractors", "watcher"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if not info.name.startswith(prefix) or info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                values = value if isinstance(value, (tuple, list)) else (value,)
                for n, item in enumerate(values):
                    if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                        found[f"{info.name}.{name}" + (f"[{n}]" if len(values) > 1 else "")] = item
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", default="", help="only modules whose name starts with this")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _stop)
    found = patterns(args.module)
    print(f"{len(found)} patterns", file=sys.stderr)
    for where, pattern in sorted(found.items()):
        worst: tuple[float, float, str, str] | None = None
        for seed in SEEDS:
            for ending in ENDINGS:
                small = cost(pattern, seed * (1000 // len(seed) + 1) + ending)
                if small < 0.002:
                    continue
                big = cost(pattern, seed * (4000 // len(seed) + 1) + ending)
                if big > 0.02 and big / max(small, 1e-6) > 8 and (worst is None or big > worst[0]):
                    worst = (big, small, seed, ending)
        if worst is not None:
            big, small, seed, ending = worst
            print(f"{where}: {big:.3f} s at 4k chars ({small:.4f} s at 1k), seed {seed!r} + {ending!r}", flush=True)


if __name__ == "__main__":
    main()
