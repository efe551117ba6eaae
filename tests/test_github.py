"""Repository sources against an emulated GitHub (REST API and raw host) on loopback."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from github_fake import FakeGitHub
from servers import serve

from watcher.errors import ConfigError, FetchError
from watcher.fetch import Fetcher, FetchSettings
from watcher.github import (
    DEFAULT_API_BASE,
    DEFAULT_RAW_BASE,
    RepoSpec,
    fetch_repository,
    github_endpoints_from_env,
    is_repo_spec,
    parse_repo_spec,
)

SETTINGS = FetchSettings(host_delay=0.0, retries=0)

SITE_FILES = {
    "_config.yml": "title: Ada Quill\n",
    "_pages/about.md": "---\ntitle: about\n---\nAda Quill studies tides.\n",
    "_pages/news.md": "- 2025-03: Our tide paper is out.\n",
    "_bibliography/papers.bib": "@article{quill2025, title={Tides of Change}, year={2025}}\n",
    "assets/img/ada.png": "not really a png",
    "README.md": "A site.\n",
}


def wants_site_file(path: str) -> bool:
    return path.startswith(("_pages/", "_bibliography/")) and path.endswith((".md", ".bib"))


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, str, str]]:
    fake = FakeGitHub("adaquill", "adaquill.github.io", SITE_FILES)
    with serve(fake.api_app(), host="127.0.0.2") as api, serve(fake.raw_app(), host="127.0.0.3") as raw:
        yield fake, api, raw


async def _check(
    fake: FakeGitHub,
    api: str,
    raw: str,
    state: dict,
    files: dict[str, str],
    *,
    spec: str = "",
    token: str | None = None,
    wants: tuple[Callable[[str], bool], str] = (wants_site_file, ""),
):
    fake.clear()
    async with Fetcher(SETTINGS) as fetcher:
        return await fetch_repository(
            fetcher,
            parse_repo_spec(spec or f"github:{fake.owner}/{fake.repo}"),
            wants_path=wants[0],
            state=state,
            previous_files=files,
            api_base=api,
            raw_base=raw,
            token=token,
            wants_signature=wants[1],
        )


WANTED = sorted(path for path in SITE_FILES if wants_site_file(path))


async def test_first_fetch_downloads_wanted_files_only(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    result = await _check(fake, api, raw, {}, {})

    assert sorted(result.files) == WANTED
    assert result.files["_bibliography/papers.bib"] == SITE_FILES["_bibliography/papers.bib"]
    assert result.fetched == WANTED and result.not_modified is False
    assert sorted(fake.raw_paths()) == [f"/adaquill/adaquill.github.io/main/{p}" for p in WANTED]
    assert len(fake.api_requests("/git/trees/")) == 1
    assert json.loads(json.dumps(result.state)) == result.state
    assert result.state["branch"] == "main" and result.state["default_branch"] == "main"
    assert set(result.state["blobs"]) == set(WANTED)


async def test_unchanged_repository_costs_one_304(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {})
    second = await _check(fake, api, raw, first.state, first.files)

    assert second.not_modified is True and second.fetched == []
    assert second.files == first.files and second.state == first.state
    assert [r.path for r in fake.requests] == ["/repos/adaquill/adaquill.github.io/git/trees/main"]
    assert fake.requests[0].headers["If-None-Match"] == first.state["tree_etag"]


async def test_only_changed_blobs_are_downloaded_and_deleted_files_disappear(
    github: tuple[FakeGitHub, str, str],
) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {})
    files = fake.branches["main"]
    files["_pages/news.md"] += "- 2025-06: Ada joins the Harbour Lab.\n"
    files["_pages/teaching.md"] = "Oceanography 101\n"
    del files["_bibliography/papers.bib"]
    files["assets/img/ada.png"] = "a new photo"

    second = await _check(fake, api, raw, first.state, first.files)

    assert second.not_modified is False
    assert second.fetched == ["_pages/news.md", "_pages/teaching.md"]
    assert sorted(fake.raw_paths()) == [
        "/adaquill/adaquill.github.io/main/_pages/news.md",
        "/adaquill/adaquill.github.io/main/_pages/teaching.md",
    ]
    assert "_bibliography/papers.bib" not in second.files
    assert second.files["_pages/about.md"] == first.files["_pages/about.md"]
    assert second.files["_pages/news.md"].endswith("Harbour Lab.\n")
    assert second.state["tree_etag"] != first.state["tree_etag"]


async def test_tree_change_outside_wanted_files_is_not_modified(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {})
    fake.branches["main"]["assets/img/ada.png"] = "another photo"
    second = await _check(fake, api, raw, first.state, first.files)
    assert second.not_modified is True and fake.raw_paths() == []
    assert second.files == first.files and second.state["tree_etag"] != first.state["tree_etag"]


async def test_newly_wanted_files_are_fetched_though_the_tree_is_unchanged(
    github: tuple[FakeGitHub, str, str],
) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {}, wants=(wants_site_file, "pages:1"))
    assert "_config.yml" not in first.files

    def wants_config_too(path: str) -> bool:
        return wants_site_file(path) or path == "_config.yml"

    same = await _check(fake, api, raw, first.state, first.files, wants=(wants_config_too, "pages:1"))
    assert same.not_modified is True and "_config.yml" not in same.files  # the old signature: a 304
    second = await _check(fake, api, raw, first.state, first.files, wants=(wants_config_too, "pages:2"))
    assert second.fetched == ["_config.yml"] and second.files["_config.yml"] == SITE_FILES["_config.yml"]
    assert "If-None-Match" not in fake.requests[0].headers and second.state["wants"] == "pages:2"
    third = await _check(fake, api, raw, second.state, second.files, wants=(wants_config_too, "pages:2"))
    assert third.not_modified is True and third.files == second.files


async def test_missing_previous_text_is_fetched_again(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {})
    partial = {path: text for path, text in first.files.items() if path != "_pages/about.md"}
    second = await _check(fake, api, raw, first.state, partial)
    assert second.fetched == ["_pages/about.md"]
    assert second.files == first.files


async def test_explicit_branch_skips_the_repo_call(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    fake.branches["drafts"] = {"_pages/about.md": "Draft bio.\n"}
    result = await _check(fake, api, raw, {}, {}, spec=f"github:{fake.owner}/{fake.repo}@drafts")
    assert result.files == {"_pages/about.md": "Draft bio.\n"}
    assert fake.api_requests("/repos/adaquill/adaquill.github.io") == fake.api_requests("/git/trees/drafts")
    assert fake.raw_paths() == ["/adaquill/adaquill.github.io/drafts/_pages/about.md"]
    assert "default_branch" not in result.state


async def test_token_is_sent_as_bearer_header_and_never_stored(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    token = "ghp_exampletoken123"
    result = await _check(fake, api, raw, {}, {}, token=token)
    assert fake.requests and all(r.headers.get("Authorization") == f"Bearer {token}" for r in fake.requests)
    assert token not in json.dumps(result.state) and token not in repr(result)
    assert all(r.headers.get("X-GitHub-Api-Version") for r in fake.requests if r.path.startswith("/repos/"))


async def test_missing_repository_is_a_clear_error(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    with pytest.raises(FetchError, match=r"repository adaquill/nothing-here not found") as caught:
        await _check(fake, api, raw, {}, {}, spec="github:adaquill/nothing-here")
    assert caught.value.retryable is False and caught.value.status == 404
    assert "GITHUB_TOKEN" in str(caught.value)


async def test_missing_branch_is_a_clear_error(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    with pytest.raises(FetchError, match=r"or branch 'gone' not found"):
        await _check(fake, api, raw, {}, {}, spec=f"github:{fake.owner}/{fake.repo}@gone")


async def test_renamed_default_branch_is_found_again(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    first = await _check(fake, api, raw, {}, {})
    fake.branches = {"trunk": fake.branches.pop("main")}
    fake.default_branch = "trunk"
    second = await _check(fake, api, raw, first.state, first.files)
    assert second.state["branch"] == "trunk" and second.files == first.files
    assert sorted(second.fetched) == WANTED  # new branch: nothing known about it


async def test_rate_limit_is_a_retryable_error_with_reset_time(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    fake.rate_limited = True
    with pytest.raises(FetchError, match=r"rate limit exceeded until 2030-03-17 17:46 UTC; set GITHUB_TOKEN") as caught:
        await _check(fake, api, raw, {}, {})
    assert caught.value.retryable is True


async def test_too_many_wanted_files(github: tuple[FakeGitHub, str, str]) -> None:
    fake, api, raw = github
    async with Fetcher(SETTINGS) as fetcher:
        with pytest.raises(FetchError, match=r"3 wanted files, more than the limit of 2") as caught:
            await fetch_repository(
                fetcher,
                RepoSpec(fake.owner, fake.repo),
                wants_path=wants_site_file,
                state={},
                previous_files={},
                api_base=api,
                raw_base=raw,
                max_files=2,
            )
    assert caught.value.retryable is False and fake.raw_paths() == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("github:adaquill/adaquill.github.io", RepoSpec("adaquill", "adaquill.github.io")),
        ("github:Harbour-Lab/site@gh-pages", RepoSpec("Harbour-Lab", "site", "gh-pages")),
        ("  github:a/b.git@feature/news ", RepoSpec("a", "b", "feature/news")),
    ],
)
def test_parse_repo_spec(text: str, expected: RepoSpec) -> None:
    assert parse_repo_spec(text) == expected
    assert is_repo_spec(text)


@pytest.mark.parametrize(
    "text",
    [
        "https://github.com/a/b",
        "github:",
        "github:onlyowner",
        "github:/repo",
        "github:a/",
        "github:-bad/repo",
        "github:a/b c",
        "github:a/b@",
        "github:a/b@bad..branch",
        "github:a/b@has space",
    ],
)
def test_bad_repo_specs(text: str) -> None:
    with pytest.raises(ConfigError, match=r"github:OWNER/REPO|is not a|not a repository source"):
        parse_repo_spec(text)


def test_spec_round_trips_as_text() -> None:
    assert str(parse_repo_spec("github:a/b@dev")) == "github:a/b@dev"
    assert str(RepoSpec("a", "b")) == "github:a/b"


def test_endpoints_from_env() -> None:
    assert github_endpoints_from_env({}) == (DEFAULT_API_BASE, DEFAULT_RAW_BASE, None)
    env = {
        "WATCHER_GITHUB_API": "http://127.0.0.2:9/",
        "WATCHER_GITHUB_RAW": "http://127.0.0.3:9",
        "GITHUB_TOKEN": " t ",
    }
    assert github_endpoints_from_env(env) == ("http://127.0.0.2:9", "http://127.0.0.3:9", "t")
    assert github_endpoints_from_env({"GITHUB_TOKEN": ""})[2] is None
