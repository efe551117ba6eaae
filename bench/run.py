"""End-to-end benchmark: watcher against urlwatch on synthetic academic pages over loopback.

Usage::

    python bench/run.py [--pages 2000] [--hosts 1000] [--skip-urlwatch] [--profile]

Generates ``--pages`` pages (``bench/pages.py``), serves them from one server process
(``bench/server.py``) on ``--hosts`` loopback addresses, and measures three phases for each
tool, each tool run as its own process (wall time, CPU seconds, peak RSS and PSS of its process tree):

* ``cold``: the first check of every page (watcher records a baseline);
* ``unchanged``: a re-check with nothing changed (conditional GETs answer 304);
* ``edits``: a re-check after 5% of pages got a real edit and another 5% a noise-only edit.

Alarm precision and recall are per page: a page is alarmed when the tool reported a change
on it; the truth is the set of really edited pages. urlwatch 2.29 is installed into
``bench/.venv-urlwatch`` on first use. Results go to ``bench/results/<timestamp>/``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH))

from pages import TEMPLATES, PageModel, generate_models, noise_edit, real_edit, render  # noqa: E402

from watcher.sources import add_source  # noqa: E402
from watcher.store.db import Database, utcnow  # noqa: E402

URLWATCH_VENV = BENCH / ".venv-urlwatch"
URLWATCH_VERSION = "2.29"
PHASES = ("cold", "unchanged", "edits")


@dataclass(frozen=True)
class Measure:
    tool: str
    phase: str
    pages: int
    wall: float
    cpu: float
    peak_rss_mb: float
    peak_pss_mb: float
    alarmed: frozenset[str]
    errors: int = 0


def run_measured(command: list[str], stdout: Path) -> tuple[float, float, float, float, int]:
    """Run ``command`` to completion: wall seconds, CPU seconds, peak RSS and PSS (MB), exit code.

    CPU is the process's and its children's (``wait4``). Memory is the whole process tree's,
    sampled every 50 ms: the peak of the summed RSS (shared pages counted in every process that
    maps them, so an upper bound for a tool that forks) and of the summed PSS (shared pages split
    between the processes that share them: the memory the tool really occupies). A peak shorter
    than the sampling interval can be missed.
    """
    started = time.perf_counter()
    with stdout.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        peaks = [0.0, 0.0]
        done = threading.Event()
        sampler = threading.Thread(target=_sample_tree_memory, args=(proc.pid, peaks, done), daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        done.set()
        sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    # Not ``ru_maxrss``: a child's high-water mark includes the pages it shared with this
    # process between fork and exec, which here hold every generated page.
    return wall, usage.ru_utime + usage.ru_stime, peaks[0] / 2**20, peaks[1] / 2**20, proc.returncode


def _sample_tree_memory(pid: int, peaks: list[float], done: threading.Event) -> None:
    """Every 50 ms: the summed RSS and PSS of ``pid`` and its descendants (listed anew every 0.5 s)."""
    import psutil

    try:
        root = psutil.Process(pid)
    except psutil.Error:
        return
    tree: list[psutil.Process] = [root]
    listed = 0.0
    # Sampling costs the runner about 1 ms per process: a small share of a core at this rate.
    while not done.wait(0.05):
        now = time.monotonic()
        rss = pss = 0
        try:
            if now - listed > 0.5:
                tree, listed = [root, *root.children(recursive=True)], now
            for process in tree:
                rss += process.memory_info().rss
                with open(f"/proc/{process.pid}/smaps_rollup") as rollup:
                    pss += next(int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:"))
        except (psutil.Error, OSError, StopIteration):
            listed = 0.0  # a process ended: list the tree again
            continue
        peaks[0] = max(peaks[0], rss)
        peaks[1] = max(peaks[1], pss)


# -- the site --------------------------------------------------------------------------


def host_names(count: int) -> list[str]:
    return [f"127.10.{i // 250}.{i % 250 + 1}" for i in range(count)]


def page_path(index: int) -> str:
    return f"p{index}.html"


def write_pages(site: Path, hosts: list[str], models: list[PageModel], which: range | list[int]) -> None:
    for index in which:
        host_dir = site / hosts[index % len(hosts)]
        host_dir.mkdir(parents=True, exist_ok=True)
        (host_dir / page_path(index)).write_bytes(render(models[index]))


class Server:
    """The page server subprocess: started once, told to reload after edits."""

    def __init__(self, site: Path, hosts: list[str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(BENCH / "server.py"), str(site), "0", *hosts], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("port "):
            raise RuntimeError(f"page server did not start: {line!r}")
        self.port = int(line.split()[1])

    def reload(self) -> None:
        assert self.proc.stdout is not None
        self.proc.send_signal(signal.SIGHUP)
        if self.proc.stdout.readline().strip() != "reloaded":
            raise RuntimeError("page server did not reload")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def apply_edits(models: list[PageModel], seed: int) -> tuple[list[int], list[int]]:
    """Edit 5% of pages for real and another 5% with noise only; return both index lists."""
    rng = random.Random(seed + 1)
    share = max(1, len(models) // 20)
    chosen = rng.sample(range(len(models)), 2 * share)
    real, noise = sorted(chosen[:share]), sorted(chosen[share:])
    for index in real:
        models[index] = real_edit(models[index], rng)
    for index in noise:
        models[index] = noise_edit(models[index], rng)
    return real, noise


# -- watcher ---------------------------------------------------------------------------


def compile_watcher() -> None:
    """Byte-compile watcher's own modules, as installing it from a wheel does (pip compiles
    what it installs, as it did urlwatch's). Run from a checkout where PYTHONDONTWRITEBYTECODE
    is set, each process would otherwise compile them from source: 0.3 s of every phase."""
    for package in ("watcher", "extractors"):
        compileall.compile_dir(REPO / package, quiet=1)


def prepare_watcher(db_path: Path, urls: list[str]) -> str:
    url = f"sqlite:///{db_path}"
    db = Database(url)
    db.ensure_schema()
    with db.session() as session:
        for index, page_url in enumerate(urls):
            add_source(session, page_url, now=utcnow(), name=f"p{index}")
    db.dispose()
    return url


def run_watcher(phase: str, db_url: str, out: Path, profile: bool, jobs: int | None) -> Measure:
    result = out / f"watcher-{phase}.json"
    command = [sys.executable, str(BENCH / "watcher_check.py"), db_url, str(result)]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    if profile:
        command += ["--profile", str(out / f"watcher-{phase}.prof")]
    wall, cpu, rss, pss, code = run_measured(command, out / f"watcher-{phase}.log")
    if code != 0:
        raise RuntimeError(f"watcher phase {phase} failed; see {out / f'watcher-{phase}.log'}")
    outcomes = json.loads(result.read_text())["outcomes"]
    alarmed = frozenset(o["url"] for o in outcomes if o["changes"])
    errors = sum(o["status"] == "error" for o in outcomes)
    return Measure("watcher", phase, len(outcomes), wall, cpu, rss, pss, alarmed, errors)


# -- urlwatch --------------------------------------------------------------------------


def ensure_urlwatch() -> Path:
    binary = URLWATCH_VENV / "bin" / "urlwatch"
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", str(URLWATCH_VENV)], check=True)
        pip = [str(URLWATCH_VENV / "bin" / "pip"), "install", "-q", f"urlwatch=={URLWATCH_VERSION}"]
        subprocess.run(pip, check=True)
    return binary


def prepare_urlwatch(out: Path, urls: list[str]) -> list[str]:
    """Files for urlwatch: one url job per page, text report to stdout only."""
    directory = out / "urlwatch"
    directory.mkdir()
    (directory / "urls.yaml").write_text("---\n".join(f"url: {url}\n" for url in urls))
    (directory / "urlwatch.yaml").write_text("report:\n  stdout:\n    enabled: true\n    color: false\n")
    return [
        "--urls", str(directory / "urls.yaml"),
        "--config", str(directory / "urlwatch.yaml"),
        "--cache", str(directory / "cache.db"),
        "--hooks", str(directory / "hooks.py"),
    ]  # fmt: skip


def run_urlwatch(phase: str, binary: Path, arguments: list[str], out: Path, pages: int) -> Measure:
    log = out / f"urlwatch-{phase}.log"
    wall, cpu, rss, pss, code = run_measured([str(binary), *arguments], log)
    if code != 0:
        raise RuntimeError(f"urlwatch phase {phase} failed; see {log}")
    report = log.read_text(errors="replace")
    alarmed = frozenset(re.findall(r"^CHANGED: (\S+)", report, re.MULTILINE))
    errors = len(set(re.findall(r"^ERROR: (\S+)", report, re.MULTILINE)))
    return Measure("urlwatch", phase, pages, wall, cpu, rss, pss, alarmed, errors)


# -- the table -------------------------------------------------------------------------


def precision_recall(alarmed: frozenset[str], truth: frozenset[str]) -> tuple[float, float]:
    hits = len(alarmed & truth)
    precision = hits / len(alarmed) if alarmed else (1.0 if not truth else 0.0)
    recall = hits / len(truth) if truth else 1.0
    return precision, recall


def table(measures: list[Measure], truth: frozenset[str]) -> str:
    lines = [
        f"{'phase':<10} {'tool':<9} {'pages/s':>8} {'wall s':>7} {'CPU s':>7} {'RSS MB':>7} {'PSS MB':>7} "
        f"{'alarms':>6} {'prec':>5} {'recall':>6} {'errors':>6}"
    ]
    by_key = {(m.tool, m.phase): m for m in measures}
    for phase in PHASES:
        for tool in ("watcher", "urlwatch"):
            m = by_key.get((tool, phase))
            if m is None:
                continue
            precision, recall = precision_recall(m.alarmed, truth if phase == "edits" else frozenset())
            lines.append(
                f"{phase:<10} {tool:<9} {m.pages / m.wall:>8.0f} {m.wall:>7.2f} {m.cpu:>7.2f} {m.peak_rss_mb:>7.0f} "
                f"{m.peak_pss_mb:>7.0f} "
                f"{len(m.alarmed):>6} {precision:>5.2f} {recall:>6.2f} {m.errors:>6}"
            )
        w, u = by_key.get(("watcher", phase)), by_key.get(("urlwatch", phase))
        if w and u:
            lines.append(
                f"{phase:<10} {'ratio w/u':<9} {(w.pages / w.wall) / (u.pages / u.wall):>7.1f}x "
                f"{'':>7} {w.cpu / u.cpu:>6.2f}x {w.peak_rss_mb / u.peak_rss_mb:>6.2f}x "
                f"{w.peak_pss_mb / u.peak_pss_mb:>6.2f}x"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--templates",
        default=",".join(TEMPLATES),
        help="page templates, in turn (default all five; before lab pages: barron,alfolio,academicpages,plain)",
    )
    parser.add_argument("--skip-urlwatch", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile each watcher phase into the results")
    parser.add_argument("--jobs", type=int, help="watcher's processes (default 1, as `watcher check`)")
    parser.add_argument(
        "--phases", default=",".join(PHASES), help="comma-separated phases to run, in order (cold is needed first)"
    )
    parser.add_argument("--out", type=Path, default=BENCH / "results" / time.strftime("%Y%m%d-%H%M%S"))
    args = parser.parse_args()

    out: Path = args.out
    out.mkdir(parents=True)
    compile_watcher()
    hosts = host_names(args.hosts)
    models = generate_models(args.pages, args.seed, tuple(args.templates.split(",")))
    site = out / "site"
    write_pages(site, hosts, models, range(len(models)))
    sizes = [len(render(m)) for m in models[:200]]
    print(f"{args.pages} pages on {args.hosts} hosts, mean {sum(sizes) / len(sizes) / 1024:.0f} KB; results in {out}")

    server = Server(site, hosts)
    try:
        urls = [f"http://{hosts[i % len(hosts)]}:{server.port}/{page_path(i)}" for i in range(args.pages)]
        db_url = prepare_watcher(out / "watcher.db", urls)
        urlwatch = None if args.skip_urlwatch else (ensure_urlwatch(), prepare_urlwatch(out, urls))
        measures: list[Measure] = []
        truth: frozenset[str] = frozenset()
        for phase in [p for p in PHASES if p in args.phases.split(",")]:
            if phase == "edits":
                real, noise = apply_edits(models, args.seed)
                write_pages(site, hosts, models, real + noise)
                server.reload()
                truth = frozenset(urls[i] for i in real)
            measures.append(run_watcher(phase, db_url, out, args.profile, args.jobs))
            print(f"  watcher {phase}: {measures[-1].wall:.2f} s", flush=True)
            if urlwatch is not None:
                measures.append(run_urlwatch(phase, urlwatch[0], urlwatch[1], out, args.pages))
                print(f"  urlwatch {phase}: {measures[-1].wall:.2f} s", flush=True)
    finally:
        server.stop()
    report = table(measures, truth)
    (out / "table.txt").write_text(report + "\n")
    print(report)


if __name__ == "__main__":
    main()
