"""The cost of reading one big or hostile page (not a test: prints seconds and peak memory).

    python bench/bench_reading.py            # every shape below, each in a fresh process
    python bench/bench_reading.py --shape flat --megabytes 9

Each shape is generated, written to a temporary file and read by ``watcher extract FILE`` in
a subprocess; the table gives its wall time and peak RSS (``ru_maxrss`` of the child), the
figures the reading budget promises to stay under (5 s, 300 MB for a 10 MB page).

* ``flat``: a publication page padded with about 1.2 million tiny ``<span>`` elements (9 MB).
* ``blocks``: about 1.1 million tiny paragraphs (9 MB).
* ``deep``: elements nested a hundred thousand levels deep.
* ``table``: a 100,000-row table.
* ``line``: one 9 MB line of text with no markup.
* ``apa``: one APA entry with 200 authors, read 200 times in process (the timing of the
  citation reader alone).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAD = "<html><head><title>Ada Quill</title></head><body><h1>Ada Quill</h1><h2>Publications</h2><ul>"
PAPER = "<li><b>Lattice Fields {n}: Sparse Radiance Grids</b>. Ada Quill, Tomas Reyes. <i>CVPR 2025</i>.</li>"


def flat(size: int) -> str:
    papers = "".join(PAPER.format(n=n) for n in range(20))
    cell = "<span>x</span>"
    return HEAD + papers + "</ul><div>" + cell * (size // len(cell)) + "</div></body></html>"


def blocks(size: int) -> str:
    cell = "<p>x</p>"
    return HEAD + PAPER.format(n=1) + "</ul><div>" + cell * (size // len(cell)) + "</div></body></html>"


def deep(size: int) -> str:
    levels = min(size // 11, 100_000)
    return HEAD + PAPER.format(n=1) + "</ul>" + "<div>a" * levels + "</div>" * levels + "</body></html>"


def table(size: int) -> str:
    row = "<tr><td>2025</td><td>Talk {n} at the coastal meeting</td><td>Bremen</td></tr>"
    rows = "".join(row.format(n=n) for n in range(min(100_000, size // len(row))))
    return HEAD + "</ul><h2>Talks</h2><table>" + rows + "</table></body></html>"


def line(size: int) -> str:
    return "Ada Quill. " + "word " * (size // 5)


SHAPES = {"flat": flat, "blocks": blocks, "deep": deep, "table": table, "line": line}


SURNAMES = ["García", "Okafor", "Lindqvist", "Nakamura", "O'Brien", "van der Berg", "Ødegård", "Kowalczyk", "Mbeki"]


def apa_entry(authors: int) -> str:
    """An APA reference: "Surname, A. B., ... & Lastauthor, D. E. (2022). Title. Journal, 3(2), 1–10."."""
    names = ", ".join(
        f"{SURNAMES[n % len(SURNAMES)]}{n}, {chr(65 + n % 26)}. {chr(66 + n % 24)}." for n in range(authors - 1)
    )
    return f"{names}, & Lastauthor, D. E. (2022). A census of coastal dunes. Journal of Sand, 3(2), 1–10."


def apa_page(authors: int) -> str:
    return f"# Ada Quill\n\n## Publications\n\n* {apa_entry(authors)}\n"


def time_apa(authors: int = 200, repeat: int = 20) -> float:
    """Seconds to read a page of one APA entry with ``authors`` authors (the best of ``repeat`` reads)."""
    from watcher.extract import extract_records
    from watcher.records import Document

    doc = Document(url="file:///publications.md", text=apa_page(authors), content_type="text/markdown")
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        extract_records(doc, "generic")
        best = min(best, time.perf_counter() - started)
    return best


def measure(shape: str, megabytes: float) -> tuple[float, float, int]:
    """Seconds, peak MB and exit code of ``watcher extract`` on one generated page."""
    text = SHAPES[shape](int(megabytes * 1_000_000))
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as out:
        out.write(text)
    try:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "watcher", "extract", out.name, "--format", "json"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - started
        return elapsed, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
    finally:
        Path(out.name).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", choices=[*SHAPES, "apa", "all"], default="all")
    parser.add_argument("--megabytes", type=float, default=9.0)
    args = parser.parse_args()
    shapes = list(SHAPES) if args.shape == "all" else [args.shape] if args.shape != "apa" else []
    for shape in shapes:
        seconds, peak, code = measure(shape, args.megabytes)
        print(f"{shape:6} {args.megabytes:5.1f} MB  {seconds:6.2f} s  peak RSS {peak:7.0f} MB  exit {code}")
    if args.shape in ("apa", "all"):
        print(f"apa    200 authors  {time_apa() * 1000:7.2f} ms per entry")


if __name__ == "__main__":
    main()
