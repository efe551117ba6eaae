"""Checking on several cores: shards by host, forked processes, their outcomes and failures."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from contextlib import ExitStack
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from servers import Page, StaticSite, serve

from watcher.cli import main
from watcher.errors import WatcherError
from watcher.shards import fork_shards, gather_shards, host_of, split_by_host

HOSTS = 4
PAGES_PER_HOST = 3
#: The fetcher's default gap between requests to one host, and the slack of a loaded machine.
GAP, TOLERANCE = 0.5, 0.05


def test_hosts_stay_whole_and_shards_are_balanced() -> None:
    sources = [(i, f"https://h{i % 5}.example.org/p{i}") for i in range(50)]
    sources += [(100, "github:ada/ada.github.io"), (101, "github:bo/site"), (102, "/home/ada/papers.bib")]
    shards = split_by_host(sources, 3)
    assert sorted(i for shard in shards for i in shard) == sorted(i for i, _ in sources)
    urls = dict(sources)
    for host in {host_of(url) for url in urls.values()}:
        holding = [n for n, shard in enumerate(shards) if any(host_of(urls[i]) == host for i in shard)]
        assert len(holding) == 1, host
    assert max(map(len, shards)) - min(map(len, shards)) <= 10  # a host (10 pages) is the unit
    assert host_of("github:ada/x") == host_of("github:bo/y") == "github"
    assert host_of("HTTPS://H1.Example.org:8443/a") == "h1.example.org:8443"
    assert split_by_host(sources[:3], 8) == [[0], [1], [2]]


def _work(plan: dict[int, str]) -> Callable[[list[int], Callable[[Any], None]], None]:
    """A shard's work: send each id, then behave as ``plan`` says for the shard's first id."""

    def work(ids: list[int], send: Callable[[Any], None]) -> None:
        how = plan.get(ids[0], "ok")
        for source_id in ids:
            if how == "die" and source_id == ids[-1]:
                os._exit(3)  # as if killed: no goodbye
            send({"id": source_id})
        if how == "raise":
            raise WatcherError("database is locked")

    return work


async def test_outcomes_of_every_shard_come_back() -> None:
    shards = [[1, 2, 3], [4, 5], [6]]
    seen: list[Any] = []
    children = fork_shards(shards, _work({}))
    outcomes = await gather_shards(children, seen.append)
    assert sorted(o["id"] for o in outcomes) == [1, 2, 3, 4, 5, 6]
    assert seen == outcomes
    assert all(child.process.exitcode == 0 for child in children)


async def test_a_failed_or_dead_process_is_reported_after_the_others_finish() -> None:
    shards = [[1, 2, 3], [4, 5], [6, 7, 8, 9]]
    children = fork_shards(shards, _work({4: "raise", 6: "die"}))
    seen: list[Any] = []
    with pytest.raises(WatcherError) as failure:
        await gather_shards(children, seen.append)
    message = str(failure.value)
    assert "0 of 2 sources not checked (database is locked)" in message
    assert "1 of 4 sources not checked (it stopped with exit code 3)" in message
    assert sorted(o["id"] for o in seen) == [1, 2, 3, 4, 5, 6, 7, 8]


async def test_many_outcomes_do_not_block_on_a_full_pipe() -> None:
    # Far more than a pipe buffer holds: the parent must read while the children write.
    shards = [list(range(start, start + 3000)) for start in (0, 3000)]
    outcomes = await asyncio.wait_for(gather_shards(fork_shards(shards, _work({})), lambda _o: None), 30)
    assert len(outcomes) == 6000


def _page(host: int, page: int, extra: str = "") -> Page:
    body = (
        f"# Person {host}-{page}\n\n## Publications\n\n{extra}"
        f"* **Lattice Study {host}-{page}**. Ada Quill. *CVPR 2025*.\n"
        f"* **Harbor Fields {host}-{page}**. Ada Quill, Bo Reed. *ICCV 2023*.\n"
    )
    return Page(body, content_type="text/markdown; charset=utf-8")


def _watcher(db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    # A process of its own, as a user runs it: forking the test process (with its server
    # threads) would not be.
    env = {**os.environ, "WATCHER_DATABASE_URL": db_url}
    env.pop("WATCHER_CONFIG", None)
    code = "import sys; from watcher.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_check_in_two_processes_reads_each_page_once_and_keeps_each_hosts_gap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url = f"sqlite:///{tmp_path / 'w.db'}"
    monkeypatch.setenv("WATCHER_DATABASE_URL", db_url)
    monkeypatch.delenv("WATCHER_CONFIG", raising=False)
    sites = [StaticSite({f"/p{p}.md": _page(h, p) for p in range(PAGES_PER_HOST)}) for h in range(HOSTS)]
    with ExitStack() as stack:
        bases = [stack.enter_context(serve(site.app())) for site in sites]
        for h, base in enumerate(bases):
            for p in range(PAGES_PER_HOST):
                assert main(["add", f"{base}/p{p}.md", "--name", f"person-{h}-{p}", "--no-probe"]) == 0
        capsys.readouterr()

        first = _watcher(db_url, "check", "--jobs", "2")
        assert first.returncode == 0, first.stderr
        assert "checked 12 sources: 12 baseline" in first.stdout, first.stdout
        names = [line.split()[1].rstrip(":") for line in first.stdout.splitlines() if line.startswith("baseline ")]
        assert names == [f"person-{h}-{p}" for h in range(HOSTS) for p in range(PAGES_PER_HOST)]  # as listed
        for site in sites:
            assert all(site.count(f"/p{p}.md") == 1 for p in range(PAGES_PER_HOST))
            starts = sorted(t for p in range(PAGES_PER_HOST) for t in site.times(f"/p{p}.md"))
            # One process holds all of a host's sources, so its gap holds as in one process.
            assert min(b - a for a, b in pairwise(starts)) >= GAP - TOLERANCE

        for h, site in enumerate(sites):
            site.set("/p0.md", _page(h, 0, extra=f"* **Quartz Caustics {h}**. Ada Quill. *CVPR 2027*.\n"))
        second = _watcher(db_url, "check", "--jobs", "2")
        assert second.returncode == 0, second.stderr

    diff = _watcher(db_url, "diff", "--format", "json")
    changes = json.loads(diff.stdout)
    assert sorted((c["source"], c["change"], c["item"]["title"]) for c in changes) == [
        (f"person-{h}-0", "added", f"Quartz Caustics {h}") for h in range(HOSTS)
    ]
