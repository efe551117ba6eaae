"""The command line end to end: real pages on loopback, a SQLite file, the JSON contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from servers import Page, StaticSite

from watcher.cli import main

PAGE_V1 = """# Lin Wu

I am a PhD student at Northbridge University.

## Publications

* **Sable: Shadow-Aware Inverse Lighting**. Lin Wu, Ada Quill. *ECCV 2022*.
* **Murmur: Acoustic Fields for Room Geometry**. Lin Wu. *ICCV 2023*.
* **Tessellate: Learning Mesh Topology from Sketches**. Lin Wu, Omar Haddad. *CVPR 2024*.

## News

* 2026-09-01: Started my internship at Meridian AI.
* 2026-06-15: Passed my qualifying exam.
"""

PAGE_V2 = PAGE_V1.replace(
    "## News\n\n", "## News\n\n* 2026-11-10: Our paper Quartz was accepted at CVPR 2027.\n"
).replace(
    "## Publications\n\n",
    "## Publications\n\n* **Quartz: Crystal Caustics in the Wild**. Lin Wu, Ada Quill. *CVPR 2027*.\n",
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("WATCHER_DATABASE_URL", f"sqlite:///{tmp_path / 'w.db'}")
    monkeypatch.delenv("WATCHER_CONFIG", raising=False)
    return str(tmp_path)


def test_add_check_diff_show(
    cli_env: str, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    site.set("/lin", Page(PAGE_V1, content_type="text/markdown"))
    code, out, _ = run(capsys, "add", f"{base}/lin", "--name", "Lin Wu")
    assert code == 0
    assert "read as" in out
    code, out, _ = run(capsys, "check")
    assert code == 0
    assert "baseline Lin Wu" in out
    code, out, _ = run(capsys, "diff", "--format", "json")
    assert json.loads(out) == []

    site.set("/lin", Page(PAGE_V2, content_type="text/markdown"))
    code, out, _ = run(capsys, "check", "Lin Wu")
    assert code == 0
    assert "Lin Wu posted a new paper: *Quartz: Crystal Caustics in the Wild* (CVPR 2027)" in out
    code, out, _ = run(capsys, "diff", "--format", "json")
    changes = json.loads(out)
    assert {(c["kind"], c["change"]) for c in changes} == {("paper", "added"), ("news", "added")}
    paper = next(c for c in changes if c["kind"] == "paper")
    assert paper["source"] == "Lin Wu"
    assert paper["url"] == f"{base}/lin"
    assert set(paper["item"]) == {"title", "authors", "venue", "year", "url", "doi", "arxiv"}
    assert paper["item"]["authors"] == ["Lin Wu", "Ada Quill"]
    assert paper["item"]["year"] == 2027
    assert "before" not in paper
    news = next(c for c in changes if c["kind"] == "news")
    assert news["item"]["date"] == "2026-11-10"

    code, out, _ = run(capsys, "show", "Lin Wu", "--format", "json")
    shown = json.loads(out)
    assert shown["source"] == "Lin Wu"
    assert sum(1 for i in shown["items"] if i["kind"] == "paper") == 4

    code, out, _ = run(capsys, "diff", "--since", "1d")
    assert "Quartz" in out
    code, out, _ = run(capsys, "list", "--format", "json")
    assert json.loads(out)[0]["last_status"] == "changed"


def test_extract_prints_items_without_storing(
    cli_env: str, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    site.set("/lin", Page(PAGE_V1, content_type="text/markdown"))
    code, out, _ = run(capsys, "extract", f"{base}/lin", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["url"] == f"{base}/lin"
    assert data["extractor"]
    assert {i["kind"] for i in data["items"]} >= {"paper", "news"}
    assert not Path(cli_env, "w.db").exists()


def test_extract_explains_how_the_page_was_read(
    cli_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "lin.md"
    page.write_text(PAGE_V1, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(page), "--explain")
    assert code == 0
    assert "How the page was read" in out
    assert "Lin Wu > Publications: 3 × li -> 3 paper (the heading announces paper" in out
    code, out, _ = run(capsys, "extract", str(page), "--explain", "--format", "json")
    lists = json.loads(out)["explain"]
    news = next(report for report in lists if report["where"].endswith("News"))
    assert (news["kind"], news["entries"], news["records"]) == ("news", 2, 2)
    assert "announces news" in news["why"]


def test_extract_reads_a_local_file(cli_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "lin.md"
    page.write_text(PAGE_V1, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(page))
    assert code == 0
    assert "Tessellate: Learning Mesh Topology from Sketches" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "ftp://example.org/x"), "unsupported scheme"),
        (("add", "/no/such/file.bib"), "no such file"),
        (("add", "https://example.org/", "--every", "often"), "not a duration"),
        (("add", "https://example.org/", "--extractor", "nope"), "unknown extractor"),
        (("remove", "nobody"), "no source named"),
        (("show", "nobody"), "no source named"),
        (("diff", "--since", "yesterday-ish"), "--since"),
        (("--db", "mysql://x@y/z", "list"), "unsupported database"),
        (("--config", "/no/such/config.yaml", "sync"), "cannot read config"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(
    cli_env: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out


def test_config_typo_is_reported_with_its_place(
    cli_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("watch:\n  - {name: a, url: https://example.org/, evry: 6h}\n", encoding="utf-8")
    code, _, err = run(capsys, "--config", str(config), "sync")
    assert code != 0
    assert "watch[0]: unknown key 'evry'" in err


def test_sync_adds_updates_and_removes(cli_env: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "defaults: {every: 6h}\nwatch:\n  - {name: a, url: https://a.example.org/}\n"
        "  - {name: b, url: https://b.example.org/, every: 1d}\n",
        encoding="utf-8",
    )
    assert "2 added" in run(capsys, "--config", str(config), "sync")[1]
    config.write_text("watch:\n  - {name: a, url: https://a.example.org/, every: 2h}\n", encoding="utf-8")
    out = run(capsys, "--config", str(config), "sync")[1]
    assert "1 updated, 1 removed" in out
    listed = json.loads(run(capsys, "list", "--format", "json")[1])
    assert [(s["name"], s["every"]) for s in listed] == [("a", "2h")]


def test_duplicate_add_is_refused(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "add", "https://example.org/", "--name", "x")[0] == 0
    code, _, err = run(capsys, "add", "https://example.org/")
    assert code != 0
    assert "exists already" in err
    assert run(capsys, "remove", "x")[0] == 0
    assert run(capsys, "add", "https://example.org/", "--name", "x")[0] == 0


def test_demo_runs_offline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--keep", str(tmp_path / "demo"))
    assert code == 0
    assert "Ada Quill posted a new paper: *Prism: Dispersion-Aware Inverse Rendering of Glass Objects*" in out
    assert "Lattice Fields" in out  # arXiv -> NeurIPS 2026 is a modified paper
    assert "Last updated" not in out


def test_check_delivers_changes_to_a_signed_webhook(
    cli_env: str, tmp_path: Path, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from notify_support import SECRET, Receiver
    from servers import serve

    site, base = static_site
    site.set("/lin", Page(PAGE_V1, content_type="text/markdown"))
    receiver = Receiver(script=[500])
    with serve(receiver.app()) as hook_base:
        monkeypatch.setenv("HOOK_SECRET", SECRET)
        config = tmp_path / "config.yaml"
        config.write_text(
            f"notify:\n  - {{type: webhook, url: '{hook_base}/hook', secret_env: HOOK_SECRET}}\n"
            f"watch:\n  - {{name: lin, url: '{base}/lin'}}\n",
            encoding="utf-8",
        )
        assert run(capsys, "--config", str(config), "sync")[0] == 0
        assert run(capsys, "--config", str(config), "check")[0] == 0
        assert receiver.hits == []  # the baseline is not news
        site.set("/lin", Page(PAGE_V2, content_type="text/markdown"))
        code, out, _ = run(capsys, "--config", str(config), "check")
        assert code == 0
        assert "1 to retry" in out  # the receiver's first answer is a 500
        code, out, _ = run(capsys, "--config", str(config), "deliveries", "--retry", "1", "--send")
        assert code == 0
    assert len(receiver.hits) == 2
    assert all(hit.error is None for hit in receiver.hits)
    assert receiver.ids()[0] == receiver.ids()[1]
    payload = json.loads(receiver.hits[-1].body)
    assert payload["type"] == "changes"
    assert {(c["kind"], c["change"]) for c in payload["changes"]} == {("paper", "added"), ("news", "added")}


def test_a_page_over_the_reading_budget_is_read_in_part_and_says_so(
    cli_env: str, static_site: tuple[StaticSite, str], capsys: pytest.CaptureFixture[str]
) -> None:
    site, base = static_site
    site.set("/lin", Page(PAGE_V1 + "\n" + "* [PDF](#)\n" * 500, content_type="text/markdown"))
    config = Path(cli_env) / "watcher.yaml"
    config.write_text("read:\n  max_lines: 100\n")
    code, out, err = run(capsys, "--config", str(config), "extract", f"{base}/lin", "--format", "json")
    assert code == 0
    reading = json.loads(out)
    assert reading["notes"][0].startswith("read in part: the first ")
    assert any(item.get("title") == "Murmur: Acoustic Fields for Room Geometry" for item in reading["items"])
    assert run(capsys, "--config", str(config), "add", f"{base}/lin", "--name", "Lin Wu")[0] == 0
    code, out, err = run(capsys, "--config", str(config), "check")
    assert code == 0 and "note    Lin Wu: read in part: the first " in err
    # Within the default budget the page is read whole, with no note.
    code, out, _ = run(capsys, "extract", f"{base}/lin", "--format", "json")
    assert "notes" not in json.loads(out)
