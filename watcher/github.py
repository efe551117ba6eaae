"""Repository sources: ``github:OWNER/REPO[@BRANCH]`` read through the GitHub REST API.

One check costs one request when nothing changed: the recursive tree of the branch is asked
with ``If-None-Match`` and answers 304. When it changed, only the wanted files whose blob sha
changed (or that are new) are downloaded from the raw host; the others are carried over from
the previous check. All HTTP goes through the ``Fetcher``, so its politeness and limits apply.

The API and raw hosts are overridable (``WATCHER_GITHUB_API`` / ``WATCHER_GITHUB_RAW``) and a
token (``GITHUB_TOKEN``) raises the rate limit; the token is sent as a header and never
logged or stored.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from watcher.errors import ConfigError, FetchError
from watcher.fetch import Fetcher, FetchResult

__all__ = [
    "DEFAULT_API_BASE",
    "DEFAULT_RAW_BASE",
    "MAX_WANTED_FILES",
    "RepoFetch",
    "RepoSpec",
    "fetch_repository",
    "github_endpoints_from_env",
    "is_repo_spec",
    "parse_repo_spec",
]

DEFAULT_API_BASE = "https://api.github.com"
DEFAULT_RAW_BASE = "https://raw.githubusercontent.com"
MAX_WANTED_FILES = 2000
SCHEME = "github:"

_API_ACCEPT = "application/vnd.github+json"
_API_VERSION = "2022-11-28"
# GitHub's own rules: owners are alphanumerics and single hyphens; repositories add . and _.
_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
_REPO = re.compile(r"[A-Za-z0-9._-]{1,100}")
# git check-ref-format, the parts that matter in a spec: no spaces, control or special chars.
_BRANCH_FORBIDDEN = re.compile(r"[\x00-\x20~^:?*\[\\\x7f]|\.\.|@\{|//")


@dataclass(frozen=True)
class RepoSpec:
    """A parsed ``github:OWNER/REPO[@BRANCH]``; ``branch=None`` means the default branch."""

    owner: str
    repo: str
    branch: str | None = None

    def __str__(self) -> str:
        suffix = f"@{self.branch}" if self.branch else ""
        return f"{SCHEME}{self.owner}/{self.repo}{suffix}"


@dataclass(frozen=True)
class RepoFetch:
    """The wanted files of a repository after one check.

    ``files`` holds every wanted file (unchanged ones carried over); ``state`` is
    JSON-serialisable and goes back in on the next check; ``fetched`` lists the paths
    actually downloaded this time.
    """

    files: dict[str, str]
    state: dict[str, Any]
    not_modified: bool
    fetched: list[str] = field(default_factory=list)


def is_repo_spec(text: str) -> bool:
    """Whether a source string names a repository (``github:...``) rather than a URL or file."""
    return text.strip().lower().startswith(SCHEME)


def parse_repo_spec(spec: str) -> RepoSpec:
    """Parse ``github:OWNER/REPO[@BRANCH]``; ``ConfigError`` names what is wrong."""
    text = spec.strip()
    if not is_repo_spec(text):
        raise ConfigError(f"not a repository source: {spec!r} (expected github:OWNER/REPO[@BRANCH])")
    body = text[len(SCHEME) :]
    name, at, branch = body.partition("@")
    owner, slash, repo = name.partition("/")
    if not slash or not owner or not repo:
        raise ConfigError(f"bad repository source {spec!r}: expected github:OWNER/REPO[@BRANCH]")
    repo = repo.removesuffix(".git")
    if not _OWNER.fullmatch(owner):
        raise ConfigError(f"bad repository source {spec!r}: {owner!r} is not a GitHub owner name")
    if not _REPO.fullmatch(repo) or repo in (".", ".."):
        raise ConfigError(f"bad repository source {spec!r}: {repo!r} is not a repository name")
    if at and not _is_branch_name(branch):
        raise ConfigError(f"bad repository source {spec!r}: {branch!r} is not a branch name")
    return RepoSpec(owner=owner, repo=repo, branch=branch or None)


def github_endpoints_from_env(environ: Mapping[str, str]) -> tuple[str, str, str | None]:
    """``(api_base, raw_base, token)`` from ``WATCHER_GITHUB_API``, ``WATCHER_GITHUB_RAW``, ``GITHUB_TOKEN``."""
    api = (environ.get("WATCHER_GITHUB_API") or DEFAULT_API_BASE).rstrip("/")
    raw = (environ.get("WATCHER_GITHUB_RAW") or DEFAULT_RAW_BASE).rstrip("/")
    token = (environ.get("GITHUB_TOKEN") or "").strip() or None
    return api, raw, token


async def fetch_repository(
    fetcher: Fetcher,
    spec: RepoSpec,
    *,
    wants_path: Callable[[str], bool],
    state: Mapping[str, Any],
    previous_files: Mapping[str, str],
    api_base: str = DEFAULT_API_BASE,
    raw_base: str = DEFAULT_RAW_BASE,
    token: str | None = None,
    max_files: int = MAX_WANTED_FILES,
    wants_signature: str = "",
) -> RepoFetch:
    """Bring the wanted files of ``spec`` up to date, downloading only what changed.

    ``state`` and ``previous_files`` come from the previous check (empty the first time).
    ``wants_signature`` names the current ``wants_path``: when it differs from the previous
    check's, the tree is listed again even if unchanged, so that newly wanted paths are seen
    at once (files already held are not downloaded again).
    """
    api = _Api(fetcher, spec, api_base.rstrip("/"), token)
    cached_default = state.get("default_branch") if spec.branch is None else None
    branch = spec.branch or cached_default or await api.default_branch()
    same_branch = state.get("branch") == branch
    previous_blobs: dict[str, str] = dict(state.get("blobs") or {}) if same_branch else {}
    same_wants = state.get("wants", "") == wants_signature
    tree_etag = (
        state.get("tree_etag") if same_branch and same_wants and _has_all(previous_blobs, previous_files) else None
    )

    try:
        tree = await api.tree(branch, etag=tree_etag)
    except FetchError as exc:
        if exc.status != 404 or not cached_default:
            raise
        # The cached default branch may have been renamed: ask once more.
        branch = await api.default_branch()
        tree_etag, previous_blobs = None, {}
        tree = await api.tree(branch, etag=None)

    base_state: dict[str, Any] = {"branch": branch}
    if wants_signature:
        base_state["wants"] = wants_signature
    if spec.branch is None:
        base_state["default_branch"] = branch

    if tree.not_modified:
        blobs = {path: sha for path, sha in previous_blobs.items() if wants_path(path)}
        files = {path: previous_files[path] for path in blobs}
        return RepoFetch(files=files, state={**base_state, "tree_etag": tree_etag, "blobs": blobs}, not_modified=True)

    blobs = _wanted_blobs(spec, tree, wants_path, max_files)
    to_fetch = sorted(
        path for path, sha in blobs.items() if previous_blobs.get(path) != sha or path not in previous_files
    )
    downloaded = await _download(fetcher, spec, branch, to_fetch, raw_base.rstrip("/"), api.auth_headers)
    files = {path: downloaded[path] if path in downloaded else previous_files[path] for path in sorted(blobs)}
    unchanged = not to_fetch and set(blobs) == set(previous_blobs)
    return RepoFetch(
        files=files,
        state={**base_state, "tree_etag": tree.etag, "blobs": blobs},
        not_modified=unchanged,
        fetched=to_fetch,
    )


class _Api:
    """The two REST calls, with GitHub's headers and errors made readable."""

    def __init__(self, fetcher: Fetcher, spec: RepoSpec, api_base: str, token: str | None) -> None:
        self._fetcher = fetcher
        self._spec = spec
        self._base = api_base
        self.auth_headers = {"Authorization": f"Bearer {token}"} if token else {}

    async def default_branch(self) -> str:
        result = await self._get(f"/repos/{self._spec.owner}/{self._spec.repo}", etag=None)
        branch = _json(result).get("default_branch")
        if not isinstance(branch, str) or not branch:
            raise FetchError(result.url, f"GitHub did not name a default branch for {self._spec}", retryable=False)
        return branch

    async def tree(self, branch: str, *, etag: str | None) -> FetchResult:
        path = f"/repos/{self._spec.owner}/{self._spec.repo}/git/trees/{quote(branch, safe='')}?recursive=1"
        return await self._get(path, etag=etag, branch=branch)

    async def _get(self, path: str, *, etag: str | None, branch: str | None = None) -> FetchResult:
        headers = {"X-GitHub-Api-Version": _API_VERSION, **self.auth_headers}
        result = await self._fetcher.fetch(
            f"{self._base}{path}",
            etag=etag,
            obey_robots=False,  # a documented API, not pages crawled
            accept=_API_ACCEPT,
            headers=headers,
            raise_for_status=False,
        )
        if result.status >= 400:
            raise self._error(result, branch)
        return result

    def _error(self, result: FetchResult, branch: str | None) -> FetchError:
        spec, status = self._spec, result.status
        if status in (403, 429) and (result.headers.get("x-ratelimit-remaining") == "0" or "rate limit" in result.text):
            reset = _reset_time(result.headers.get("x-ratelimit-reset"))
            hint = "" if self.auth_headers else "; set GITHUB_TOKEN for a higher limit"
            return FetchError(result.url, f"GitHub API rate limit exceeded{reset}{hint}", retryable=True, status=status)
        if status == 404:
            what = f"repository {spec.owner}/{spec.repo}" + (f" or branch {branch!r}" if branch else "")
            hint = "" if self.auth_headers else " (if it is private, set GITHUB_TOKEN)"
            return FetchError(result.url, f"GitHub: {what} not found{hint}", retryable=False, status=status)
        if status == 401:
            return FetchError(result.url, "GitHub refused the token (401): check GITHUB_TOKEN", status=status)
        message = _api_message(result)
        return FetchError(result.url, f"GitHub API error {status}: {message}", retryable=False, status=status)


async def _download(
    fetcher: Fetcher,
    spec: RepoSpec,
    branch: str,
    paths: list[str],
    raw_base: str,
    headers: Mapping[str, str],
) -> dict[str, str]:
    """Download ``paths`` from the raw host concurrently (the Fetcher keeps it polite)."""

    async def one(path: str) -> str:
        url = f"{raw_base}/{spec.owner}/{spec.repo}/{quote(branch)}/{quote(path)}"
        return (await fetcher.fetch(url, obey_robots=False, accept="*/*", headers=headers)).text

    texts = await asyncio.gather(*(one(path) for path in paths))
    return dict(zip(paths, texts, strict=True))


def _wanted_blobs(
    spec: RepoSpec, tree: FetchResult, wants_path: Callable[[str], bool], max_files: int
) -> dict[str, str]:
    document = _json(tree)
    if document.get("truncated"):
        raise FetchError(
            tree.url, f"{spec} is too large for GitHub's tree listing (truncated); watch its pages instead"
        )
    entries = document.get("tree")
    if not isinstance(entries, list):
        raise FetchError(tree.url, "GitHub tree answer has no 'tree' list", retryable=False)
    blobs = {
        entry["path"]: entry["sha"]
        for entry in entries
        if isinstance(entry, dict)
        and entry.get("type") == "blob"
        and isinstance(entry.get("path"), str)
        and isinstance(entry.get("sha"), str)
        and wants_path(entry["path"])
    }
    if len(blobs) > max_files:
        raise FetchError(
            tree.url,
            f"{spec} has {len(blobs)} wanted files, more than the limit of {max_files}; "
            "watch a narrower source (a branch or the site's pages)",
            retryable=False,
        )
    return blobs


def _has_all(blobs: Mapping[str, str], files: Mapping[str, str]) -> bool:
    """Whether every recorded blob's text is at hand (else a 304 could not be answered)."""
    return all(path in files for path in blobs)


def _json(result: FetchResult) -> dict[str, Any]:
    try:
        document = json.loads(result.text)
    except ValueError as exc:
        raise FetchError(result.url, f"GitHub answered with invalid JSON: {exc}", retryable=True) from exc
    if not isinstance(document, dict):
        raise FetchError(result.url, "GitHub answered with unexpected JSON (not an object)", retryable=False)
    return document


def _api_message(result: FetchResult) -> str:
    try:
        message = json.loads(result.text).get("message")
    except (ValueError, AttributeError):
        message = None
    return str(message) if message else result.text[:200].strip() or "no details"


def _reset_time(value: str | None) -> str:
    if not value or not value.isdigit():
        return ""
    when = datetime.fromtimestamp(int(value), tz=UTC)
    return f" until {when:%Y-%m-%d %H:%M} UTC"


def _is_branch_name(branch: str) -> bool:
    return (
        bool(branch)
        and not _BRANCH_FORBIDDEN.search(branch)
        and not branch.startswith(("/", "-", "."))
        and not branch.endswith(("/", ".", ".lock"))
    )
