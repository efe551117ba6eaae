"""An emulated GitHub for tests: the repos and trees endpoints of the REST API and the raw
host, serving one repository's files (``api_app`` and ``raw_app``, to run with ``servers.serve``)."""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass

from aiohttp import web
from multidict import CIMultiDict

__all__ = ["FakeGitHub", "Request", "git_blob_sha"]


def git_blob_sha(text: str) -> str:
    """The sha GitHub gives a file's blob."""
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Request:
    path: str
    headers: CIMultiDict[str]


class FakeGitHub:
    """The repos, trees and raw endpoints GitHub serves, over one repository's files."""

    def __init__(self, owner: str, repo: str, files: dict[str, str], default_branch: str = "main") -> None:
        self.owner, self.repo, self.default_branch = owner, repo, default_branch
        self.branches = {default_branch: dict(files)}
        self.rate_limited = False
        self.requests: list[Request] = []
        self._lock = threading.Lock()

    def api_requests(self, kind: str) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path.startswith("/repos/") and (kind in r.path)]

    def raw_paths(self) -> list[str]:
        with self._lock:
            return [r.path for r in self.requests if not r.path.startswith("/repos/")]

    def set_files(self, files: dict[str, str]) -> None:
        """Replace the default branch's files (a new commit)."""
        self.branches[self.default_branch] = dict(files)

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()

    def api_app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/repos/{owner}/{repo}", self._repo)
        app.router.add_get("/repos/{owner}/{repo}/git/trees/{branch}", self._tree)
        return app

    def raw_app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/{owner}/{repo}/{branch}/{path:.+}", self._raw)
        return app

    def _record(self, request: web.Request) -> None:
        with self._lock:
            self.requests.append(Request(request.path, CIMultiDict(request.headers)))

    def _refuse(self, request: web.Request) -> web.Response | None:
        if self.rate_limited:
            headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1900000000"}
            return web.json_response({"message": "API rate limit exceeded"}, status=403, headers=headers)
        if (request.match_info["owner"], request.match_info["repo"]) != (self.owner, self.repo):
            return web.json_response({"message": "Not Found"}, status=404)
        return None

    async def _repo(self, request: web.Request) -> web.Response:
        self._record(request)
        refused = self._refuse(request)
        return refused or web.json_response(
            {"full_name": f"{self.owner}/{self.repo}", "default_branch": self.default_branch}
        )

    async def _tree(self, request: web.Request) -> web.Response:
        self._record(request)
        refused = self._refuse(request)
        if refused:
            return refused
        files = self.branches.get(request.match_info["branch"])
        if files is None or request.query.get("recursive") != "1":
            return web.json_response({"message": "Not Found"}, status=404)
        folders = sorted({path.rsplit("/", 1)[0] for path in files if "/" in path})
        entries = [{"path": folder, "type": "tree", "sha": "0" * 40, "mode": "040000"} for folder in folders]
        entries += [
            {"path": path, "type": "blob", "sha": git_blob_sha(text), "mode": "100644", "size": len(text)}
            for path, text in sorted(files.items())
        ]
        body = json.dumps({"sha": "t" * 40, "tree": entries, "truncated": False})
        etag = f'W/"{hashlib.sha256(body.encode()).hexdigest()[:20]}"'
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(text=body, content_type="application/json", headers={"ETag": etag})

    async def _raw(self, request: web.Request) -> web.Response:
        self._record(request)
        files = self.branches.get(request.match_info["branch"], {})
        text = files.get(request.match_info["path"])
        if text is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(text=text, content_type="text/plain", charset="utf-8")
