"""Fetch stage: one polite, bounded HTTP GET (or a local file read) per source.

A ``Fetcher`` owns one shared httpx transport and, per host, a concurrency limit and a
minimum gap between request starts; both are shared by every call on that ``Fetcher``. It reads
robots.txt once per origin (or takes the body an earlier check kept, ``reuse_robots``), sends
conditional GETs, follows a bounded number of redirects (each hop passes the robots check and
its host's limits), caps the *decoded* body, and retries only transient failures (connection
errors, timeouts, 5xx, 429) with exponential backoff, honouring ``Retry-After``. Every failure
is a ``FetchError`` with a one-line message and ``retryable``.

``file://`` URLs and plain paths are read from disk and answered in the same ``FetchResult``
shape, with a content hash as ETag so an unchanged file is "not modified".
"""

from __future__ import annotations

import asyncio
import codecs
import hashlib
import logging
import mimetypes
import random
import re
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from email.utils import parsedate_to_datetime
from pathlib import Path
from types import TracebackType
from typing import Protocol
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import httpx
from protego import Protego

from watcher import __version__
from watcher.errors import ConfigError, FetchError

__all__ = [
    "DEFAULT_USER_AGENT",
    "FetchResult",
    "FetchSettings",
    "Fetcher",
    "HostGate",
    "LocalHostGate",
    "decode_body",
]

log = logging.getLogger(__name__)

DEFAULT_USER_AGENT = f"watcher/{__version__} (+https://github.com/watcher-project/watcher)"
DEFAULT_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,"
    "text/markdown;q=0.8,application/x-bibtex;q=0.8,application/json;q=0.8,*/*;q=0.5"
)

#: Only what ``_Inflater`` decodes with a bounded output.
_ACCEPT_ENCODING = "gzip, deflate"
#: RFC 9309 lets crawlers stop parsing robots.txt after 500 KiB.
_ROBOTS_MAX_BYTES = 500 * 1024
_META_SNIFF_BYTES = 2048

_TEXT_TYPES = frozenset(
    {
        "application/xhtml+xml",
        "application/x-bibtex",
        "application/json",
        "application/xml",
        "application/atom+xml",
        "application/rss+xml",
        "application/yaml",
        "application/x-yaml",
    }
)
#: A generic binary type is accepted for these file names (hosts often serve .bib that way).
_TEXT_EXTENSIONS = {
    ".bib": "application/x-bibtex",
    ".bibtex": "application/x-bibtex",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".yml": "text/yaml",
    ".yaml": "text/yaml",
    ".json": "application/json",
    ".txt": "text/plain",
}
_GENERIC_BINARY_TYPES = frozenset({"application/octet-stream", "binary/octet-stream"})
_LOCAL_TYPES = {**_TEXT_EXTENSIONS, ".html": "text/html", ".htm": "text/html", ".xml": "application/xml"}

#: WHATWG: these labels mean windows-1252 on the web.
_WINDOWS_1252_ALIASES = frozenset({"latin_1", "ascii", "iso8859_1"})
_META_CHARSET = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.IGNORECASE)
#: An IDNA-encoded host name or an IP address; httpx lets e.g. spaces through as %20.
_HOST = re.compile(rb"[A-Za-z0-9._\-]+|[0-9A-Fa-f:.]+")
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))

_STATUS_WORDS = {401: "unauthorised", 403: "forbidden", 404: "not found", 410: "gone"}


@dataclass(frozen=True, kw_only=True)
class FetchSettings:
    """How politely and how far the fetcher goes. Durations are seconds, sizes bytes."""

    user_agent: str = DEFAULT_USER_AGENT
    connect_timeout: float = 10.0
    read_timeout: float = 10.0
    #: Wall-clock limit for one exchange (headers and whole body), so a server dripping a
    #: byte a second cannot hold a check; waiting for the host's turn is not counted.
    deadline: float = 30.0
    #: Cap on the decoded body: a gzip bomb stops as soon as it decodes past this.
    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 5
    per_host_limit: int = 2
    #: Minimum gap between the starts of two requests to the same host; robots.txt's
    #: Crawl-delay raises it for that host.
    host_delay: float = 0.5
    max_crawl_delay: float = 60.0
    retries: int = 3
    backoff_base: float = 0.5
    backoff_max: float = 30.0
    #: A server's Retry-After is honoured up to this many seconds.
    retry_after_cap: float = 60.0
    max_concurrency: int = 64

    def __post_init__(self) -> None:
        positive = ("connect_timeout", "read_timeout", "deadline", "max_bytes", "per_host_limit", "max_concurrency")
        for name in positive:
            if getattr(self, name) <= 0:
                raise ConfigError(f"fetch setting {name} must be positive, got {getattr(self, name)!r}")
        not_negative = ("max_redirects", "host_delay", "max_crawl_delay", "retries", "backoff_base", "retry_after_cap")
        for name in not_negative:
            if getattr(self, name) < 0:
                raise ConfigError(f"fetch setting {name} must not be negative, got {getattr(self, name)!r}")


@dataclass(frozen=True, kw_only=True)
class FetchResult:
    """One fetched document. On 304 ``not_modified`` is true and ``text``/``body`` are empty."""

    url: str
    status: int
    text: str
    content_type: str
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    body: bytes = b""
    #: Time of the exchange that answered (redirects included), not of queueing or retries.
    elapsed_ms: float = 0.0
    #: Response headers, names in lower case.
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class _Options:
    """Per-call options, carried through retries and redirect hops."""

    headers: Mapping[str, str]
    obey_robots: bool
    raise_for_status: bool
    check_content_type: bool = True
    max_bytes: int
    etag: str | None = None
    last_modified: str | None = None
    #: The caller's minimum gap between requests to this host (an API's published etiquette).
    min_gap: float = 0.0
    #: A retry after the wait a server asked for: the host's pause is already served.
    after_pause: bool = False


class _Transient(Exception):
    """A failure worth retrying; carries the error to raise when retries run out."""

    def __init__(self, error: FetchError, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


class HostGate(Protocol):
    """Per-host politeness beyond one ``Fetcher``: gaps between request starts, and request slots.

    ``LocalHostGate`` keeps the gaps within one process; ``watcher.hosts.DatabaseHostGate``
    keeps gaps and slots across every daemon on one PostgreSQL database.
    """

    async def reserve(self, host: str, gap: float) -> float:
        """Book the next start for ``host``, ``gap`` seconds before the one after; return the seconds to wait for it."""
        ...

    def slot(self, host: str, limit: int) -> AbstractAsyncContextManager[object]:
        """Hold one of ``host``'s ``limit`` request slots while the block runs (the Fetcher holds its own too)."""
        ...

    async def aclose(self) -> None:
        """Let go of what the gate holds (connections, slots); the Fetcher calls it on close."""
        ...


class LocalHostGate:
    """The in-process ``HostGate``: next start times per host on a monotonic ``clock``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next_start: dict[str, float] = {}

    async def reserve(self, host: str, gap: float) -> float:
        now = self._clock()
        start = max(now, self._next_start.get(host, float("-inf")))
        self._next_start[host] = start + gap
        return start - now

    def slot(self, host: str, limit: int) -> AbstractAsyncContextManager[object]:
        # The Fetcher's own per-host semaphore is the limit within one process.
        return nullcontext()

    async def aclose(self) -> None:
        return None


class _HostGate:
    """Per-host politeness: at most ``limit`` requests in flight; ``gap`` between starts (booked by a ``HostGate``)."""

    def __init__(self, limit: int, gap: float) -> None:
        self.slots = asyncio.Semaphore(limit)
        self.gap = gap
        #: When this process last started a request to the host (the Fetcher's clock).
        self.last_start = float("-inf")
        #: No request starts before this (the Fetcher's clock): the host answered 429 or 503
        #: with a Retry-After, which asks for a pause, not only a later retry of one request.
        self.paused_until = float("-inf")


class Fetcher:
    """The fetch stage: ``async with Fetcher(settings) as fetcher: await fetcher.fetch(url)``.

    ``transport`` replaces the HTTP transport (default: ``httpx_aiohttp.AiohttpTransport`` when
    installed, it is about three times faster than httpx's own; else httpx's). ``host_gate``
    books the gaps between requests to one host and may hold host-wide request slots (default:
    a ``LocalHostGate`` on ``clock``, so within this process only); the Fetcher closes it. ``clock``,
    ``sleep`` and ``wall_clock`` are injectable for tests.
    """

    def __init__(
        self,
        settings: FetchSettings | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        wall_clock: Callable[[], float] = time.time,
        host_gate: HostGate | None = None,
    ) -> None:
        self.settings = settings or FetchSettings()
        self._host_gate = host_gate or LocalHostGate(clock)
        self._transport = transport
        self._clock = clock
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._http: httpx.AsyncBaseTransport | None = None
        self._default_headers = httpx.Headers(
            {"User-Agent": self.settings.user_agent, "Accept-Encoding": _ACCEPT_ENCODING}
        )
        self._request_extensions = {
            "timeout": httpx.Timeout(
                connect=self.settings.connect_timeout,
                read=self.settings.read_timeout,
                write=self.settings.read_timeout,
                pool=None,
            ).as_dict()
        }
        self._overall = asyncio.Semaphore(self.settings.max_concurrency)
        self._gates: dict[str, _HostGate] = {}
        self._robots: dict[str, Protego | None] = {}
        self._robots_locks: dict[str, asyncio.Lock] = {}
        #: robots.txt bodies from earlier checks (origin -> body; None: no rules) and the
        #: definitive answers fetched here, which the caller may keep for later checks.
        self._known_robots: dict[str, str | None] = {}
        self._fetched_robots: dict[str, str | None] = {}

    async def __aenter__(self) -> Fetcher:
        # Requests go to the transport itself, not through an ``httpx.AsyncClient``: this
        # fetcher follows redirects itself and keeps no cookies between fetches, and the
        # client's layer cost a third of a 304's CPU and left each response in a reference
        # cycle (response <-> its stream) for the garbage collector. Nothing is taken from
        # the environment (proxies, .netrc): what is sent where depends on the settings alone.
        self._http = self._transport or _default_transport(self.settings)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the transport and its connections, and the host gate."""
        if self._http is not None:
            await self._http.aclose()
            self._http = None
        await self._host_gate.aclose()

    # -- public ------------------------------------------------------------------------
    def reuse_robots(self, bodies: Mapping[str, str | None]) -> None:
        """Use these robots.txt bodies (origin -> text; ``None``: no rules) instead of fetching them.

        The caller answers for their freshness: the pipeline keeps them a day, as RFC 9309 allows.
        """
        self._known_robots.update(bodies)

    def take_fetched_robots(self) -> dict[str, str | None]:
        """The robots.txt answers fetched since the last call that may be reused: 2xx bodies, 4xx as ``None``.

        Unreachable origins, 429 and 5xx are left out, so the next check asks again.
        """
        fetched, self._fetched_robots = self._fetched_robots, {}
        return fetched

    async def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        obey_robots: bool = True,
        accept: str | None = None,
        headers: Mapping[str, str] | None = None,
        raise_for_status: bool = True,
        min_gap: float = 0.0,
    ) -> FetchResult:
        """GET ``url`` (or read a ``file://`` URL / local path), conditionally when validators are given.

        ``etag``/``last_modified`` are the validators of the previous answer: an unchanged page
        answers 304 and the result has ``not_modified=True``. ``obey_robots=False`` is the
        per-source opt-out of robots.txt. ``headers`` are added to (and override) the defaults.
        ``raise_for_status=False`` returns 4xx answers (except 429) as results instead of
        raising, for API callers that read error bodies; 5xx and 429 are still retried.
        ``min_gap`` raises the gap between request starts to this host to at least that many
        seconds, for this request and every later one (an API's published rate limit).
        Raises ``FetchError`` on every failure.
        """
        local = _local_path(url)
        if local is not None:
            return await self._read_local(url, local, etag=etag)
        target = self._parse_http_url(url)
        request_headers = {"Accept": accept or DEFAULT_ACCEPT}
        if etag:
            request_headers["If-None-Match"] = etag
        if last_modified:
            request_headers["If-Modified-Since"] = last_modified
        request_headers.update(headers or {})
        options = _Options(
            headers=request_headers,
            obey_robots=obey_robots,
            raise_for_status=raise_for_status,
            max_bytes=self.settings.max_bytes,
            etag=etag,
            last_modified=last_modified,
            min_gap=min_gap,
        )
        return await self._fetch_with_retries(url, target, options)

    # -- retries and redirects -----------------------------------------------------------
    async def _fetch_with_retries(self, url: str, target: httpx.URL, options: _Options) -> FetchResult:
        attempt = 0
        while True:
            try:
                return await self._follow_redirects(url, target, options)
            except _Transient as transient:
                if attempt >= self.settings.retries:
                    raise transient.error from transient.__cause__
                wait = self._retry_wait(attempt, transient.retry_after)
                attempt += 1
                log.debug("retrying %s in %.2f s (attempt %d): %s", url, wait, attempt, transient.error)
                await self._sleep(wait)
                options = replace(options, after_pause=transient.retry_after is not None)

    def _retry_wait(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.settings.retry_after_cap)
        backoff = min(self.settings.backoff_base * 2**attempt, self.settings.backoff_max)
        # Jitter spreads the retries of many sources that failed together.
        return backoff * random.uniform(0.75, 1.0)

    async def _follow_redirects(self, url: str, target: httpx.URL, options: _Options) -> FetchResult:
        headers = httpx.Headers(self._default_headers)
        headers.update(options.headers)
        request = httpx.Request("GET", target, headers=headers, extensions=self._request_extensions)
        # Cookies set along a redirect chain go with its next hops (a site's "cookie check"
        # sends a visitor back to the page it came from, now with the cookie) and no further:
        # each fetch starts without cookies. A loop is the same URL asked with the same cookies.
        cookies = httpx.Cookies()
        visited = [(str(request.url), None)]
        exchange_seconds = 0.0
        for _hop in range(self.settings.max_redirects + 1):
            if options.obey_robots:
                await self._check_robots(url, request.url)
            outcome, seconds = await self._exchange(url, request, options)
            exchange_seconds += seconds
            if isinstance(outcome, FetchResult):
                return replace(outcome, elapsed_ms=exchange_seconds * 1000)
            request = _redirect_request(url, outcome, cookies)
            hop = (str(request.url), request.headers.get("Cookie"))
            if hop in visited:
                chain = " -> ".join(seen for seen, _ in [*visited[visited.index(hop) :], hop])
                raise FetchError(url, f"redirect loop: {chain}", retryable=False)
            visited.append(hop)
        raise FetchError(
            url,
            f"too many redirects (more than {self.settings.max_redirects}), last to {visited[-1][0]}",
            retryable=False,
        )

    # -- one exchange --------------------------------------------------------------------
    async def _exchange(
        self, url: str, request: httpx.Request, options: _Options
    ) -> tuple[FetchResult | httpx.Response, float]:
        """Send one request within its host's limits: the result or the redirect to follow, and its duration."""
        host = _host_key(request.url)
        gate = self._gate(host)
        gate.gap = max(gate.gap, options.min_gap)
        async with gate.slots, self._host_gate.slot(host, self.settings.per_host_limit):
            pause = gate.paused_until - self._clock()
            if pause > 0 and not options.after_pause:
                await self._sleep(pause)
            wait = await self._host_gate.reserve(host, gate.gap)
            if wait > 0:  # most requests need no wait: no extra turn of the event loop for them
                await self._sleep(wait)
            # A start that came late (the event loop was busy reading a page) must not crowd the
            # next one, booked a gap after the late one's booked time.
            since_last = self._clock() - gate.last_start
            if since_last < gate.gap:
                await self._sleep(gate.gap - since_last)
            gate.last_start = self._clock()
            async with self._overall:
                started = self._clock()
                try:
                    outcome = await self._send_within_deadline(url, request, options)
                except _Transient as transient:
                    if transient.retry_after is not None:
                        pause_end = self._clock() + min(transient.retry_after, self.settings.retry_after_cap)
                        gate.paused_until = max(gate.paused_until, pause_end)
                    raise
                return outcome, self._clock() - started

    async def _send_within_deadline(
        self, url: str, request: httpx.Request, options: _Options
    ) -> FetchResult | httpx.Response:
        http = self._require_transport()
        where = str(request.url)
        try:
            async with asyncio.timeout(self.settings.deadline):
                response = await http.handle_async_request(request)
                response.request = request
                try:
                    return await self._read_response(url, response, options)
                finally:
                    await response.aclose()
        except TimeoutError as exc:
            message = f"no complete answer from {where} within the {self.settings.deadline:g} s deadline"
            raise _Transient(FetchError(url, message, retryable=True)) from exc
        except httpx.TimeoutException as exc:
            if _is_real_timeout(exc):
                message = f"timed out ({_timeout_kind(exc)}) talking to {where}"
            else:
                message = f"could not connect to or read from {request.url.host}: {_one_line(exc)}"
            raise _Transient(FetchError(url, message, retryable=True)) from exc
        except httpx.UnsupportedProtocol as exc:
            raise FetchError(url, f"invalid URL {where}: {exc}", retryable=False) from exc
        except httpx.DecodingError as exc:
            raise FetchError(url, f"could not decode the body from {where}: {exc}", retryable=False) from exc
        except httpx.TransportError as exc:
            message = f"could not connect to or read from {request.url.host}: {_one_line(exc)}"
            raise _Transient(FetchError(url, message, retryable=True)) from exc

    async def _read_response(
        self, url: str, response: httpx.Response, options: _Options
    ) -> FetchResult | httpx.Response:
        status = response.status_code
        final_url = str(response.url)
        if response.has_redirect_location:
            return response
        if status == 304:
            return self._not_modified(final_url, response, options)
        if status == 429 or status >= 500:
            retry_after = _parse_retry_after(response.headers.get("Retry-After"), self._wall_clock())
            reason = "too many requests (429)" if status == 429 else f"server error ({status})"
            raise _Transient(FetchError(url, f"{reason} from {final_url}", retryable=True, status=status), retry_after)
        if status == 408:
            raise _Transient(FetchError(url, f"request timeout (408) from {final_url}", retryable=True, status=status))
        if status >= 400 and options.raise_for_status:
            word = _STATUS_WORDS.get(status, "client error")
            raise FetchError(url, f"{word} ({status}) at {final_url}", retryable=False, status=status)
        if status < 200 or 300 <= status < 400:
            raise FetchError(url, f"unexpected status {status} from {final_url}", retryable=False, status=status)
        mime = _mime(response.headers.get("Content-Type"))
        if status < 300 and options.check_content_type:
            mime = _checked_content_type(url, mime, response.url.path)
        body = await _read_capped(url, response, options.max_bytes)
        return FetchResult(
            url=final_url,
            status=status,
            text=decode_body(body, response.headers.get("Content-Type")),
            content_type=mime,
            etag=response.headers.get("ETag"),
            last_modified=response.headers.get("Last-Modified"),
            body=body,
            headers=dict(response.headers),
        )

    @staticmethod
    def _not_modified(final_url: str, response: httpx.Response, options: _Options) -> FetchResult:
        # A 304 may omit validators; the ones we sent still describe the unchanged document.
        return FetchResult(
            url=final_url,
            status=304,
            text="",
            content_type=_mime(response.headers.get("Content-Type")),
            etag=response.headers.get("ETag") or options.etag,
            last_modified=response.headers.get("Last-Modified") or options.last_modified,
            not_modified=True,
            headers=dict(response.headers),
        )

    # -- politeness ----------------------------------------------------------------------
    def _gate(self, host: str) -> _HostGate:
        """The politeness state of ``host`` (a ``_host_key``)."""
        gate = self._gates.get(host)
        if gate is None:
            gate = self._gates[host] = _HostGate(self.settings.per_host_limit, self.settings.host_delay)
        return gate

    async def _check_robots(self, url: str, target: httpx.URL) -> None:
        rules = await self._robots_for(target)
        if rules is not None and not rules.can_fetch(str(target), self.settings.user_agent):
            raise FetchError(
                url,
                f"disallowed by {_origin(target)}/robots.txt for {target}; "
                "set `robots: false` on this source to opt out",
                retryable=False,
            )

    async def _robots_for(self, target: httpx.URL) -> Protego | None:
        """The origin's parsed robots.txt, fetched once per origin (``None``: allow all)."""
        origin = _origin(target)
        lock = self._robots_locks.setdefault(origin, asyncio.Lock())
        async with lock:
            if origin not in self._robots:
                if origin in self._known_robots:
                    rules = _parse_robots(origin, self._known_robots[origin])
                else:
                    rules = await self._load_robots(origin)
                self._robots[origin] = rules
                if self._apply_crawl_delay(target, rules):
                    # The robots.txt request was booked under the old gap: book the new one after
                    # it, so the page requests waiting on this lock start a whole delay apart.
                    await self._host_gate.reserve(_host_key(target), self._gate(_host_key(target)).gap)
            return self._robots[origin]

    async def _load_robots(self, origin: str) -> Protego | None:
        """Fetch and parse robots.txt once, without retries.

        A 4xx robots.txt means no rules (RFC 9309). A 5xx or an unreachable one would mean
        "disallow all" to a crawler; watcher makes a handful of requests per site and the page
        fetch that follows reports the outage itself, so it also allows rather than blocks.
        """
        robots_url = f"{origin}/robots.txt"
        options = _Options(
            headers={"Accept": "text/plain,*/*;q=0.5"},
            obey_robots=False,
            raise_for_status=False,
            check_content_type=False,
            max_bytes=_ROBOTS_MAX_BYTES,
        )
        try:
            result = await self._follow_redirects(robots_url, httpx.URL(robots_url), options)
        except (FetchError, _Transient) as exc:
            log.debug("robots.txt of %s unavailable, allowing all: %s", origin, exc)
            return None
        if 400 <= result.status < 500:
            self._fetched_robots[origin] = None
        if not 200 <= result.status < 300:
            return None
        self._fetched_robots[origin] = result.text
        return _parse_robots(origin, result.text)

    def _apply_crawl_delay(self, target: httpx.URL, rules: Protego | None) -> bool:
        """Raise the host's gap to its Crawl-delay; whether it grew."""
        delay = rules.crawl_delay(self.settings.user_agent) if rules is not None else None
        if not delay:
            return False
        gate = self._gate(_host_key(target))
        before = gate.gap
        gate.gap = max(gate.gap, min(float(delay), self.settings.max_crawl_delay))
        return gate.gap > before

    # -- local files ---------------------------------------------------------------------
    async def _read_local(self, url: str, path: Path, *, etag: str | None) -> FetchResult:
        started = self._clock()
        mime = _LOCAL_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "text/plain"
        mime = _checked_content_type(url, mime, path.name)
        try:
            data = await asyncio.to_thread(_read_file_capped, path, self.settings.max_bytes)
        except FileNotFoundError as exc:
            raise FetchError(url, f"file not found: {path}", retryable=False) from exc
        except OSError as exc:
            raise FetchError(url, f"cannot read file {path}: {exc.strerror or exc}", retryable=False) from exc
        if data is None:
            raise FetchError(url, f"file larger than {self.settings.max_bytes} bytes: {path}", retryable=False)
        digest = f'"sha256-{hashlib.sha256(data).hexdigest()}"'
        unchanged = etag == digest
        return FetchResult(
            url=path.resolve().as_uri(),
            status=304 if unchanged else 200,
            text="" if unchanged else decode_body(data, None),
            content_type=mime,
            etag=digest,
            not_modified=unchanged,
            body=b"" if unchanged else data,
            elapsed_ms=(self._clock() - started) * 1000,
        )

    # -- helpers -------------------------------------------------------------------------
    def _require_transport(self) -> httpx.AsyncBaseTransport:
        if self._http is None:
            raise RuntimeError("Fetcher used outside `async with Fetcher(...)`")
        return self._http

    @staticmethod
    def _parse_http_url(url: str) -> httpx.URL:
        try:
            target = httpx.URL(url)
        except httpx.InvalidURL as exc:
            raise FetchError(url, f"invalid URL: {exc}", retryable=False) from exc
        if target.scheme not in ("http", "https"):
            raise FetchError(url, f"invalid URL: unsupported scheme {target.scheme!r}", retryable=False)
        if not target.host:
            raise FetchError(url, "invalid URL: no host", retryable=False)
        if not _HOST.fullmatch(target.raw_host):
            raise FetchError(url, f"invalid URL: bad host name {target.host!r}", retryable=False)
        return target


def decode_body(body: bytes, content_type: str | None) -> str:
    """Decode a document the way a browser would, never raising on bad bytes.

    Order: a byte-order mark (it wins over the header, as in browsers), the Content-Type
    charset, a ``<meta charset>`` / http-equiv in the first 2 KB, then UTF-8 if the bytes are
    valid UTF-8, else windows-1252 (a superset of latin-1 that old pages really use). A header
    saying UTF-8 over bytes that are not gives way to the page's own meta charset.
    """
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return body.decode(encoding, errors="replace")
    own = _charset_from_meta(body[:_META_SNIFF_BYTES])
    declared = _charset_from_content_type(content_type) or own
    if declared == "utf-8" and own not in (None, "utf-8"):
        # A server that calls every page UTF-8 (static hosts do) serves an old page written in
        # its own charset (a Word export in windows-1252): bytes that are no UTF-8 follow the page.
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            return body.decode(own, errors="replace")
    if declared:
        return body.decode(declared, errors="replace")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace")


def _normalise_charset(label: str | bytes | None) -> str | None:
    """A Python codec name for a charset label, or ``None`` if unknown."""
    if not label:
        return None
    text = label.decode("ascii", errors="ignore") if isinstance(label, bytes) else label
    try:
        name = codecs.lookup(text.strip().strip("\"'")).name
    except LookupError:
        return None
    return "cp1252" if name.replace("-", "_") in _WINDOWS_1252_ALIASES else name


def _charset_from_content_type(content_type: str | None) -> str | None:
    if not content_type:
        return None
    for param in content_type.split(";")[1:]:
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset":
            return _normalise_charset(value)
    return None


def _charset_from_meta(head: bytes) -> str | None:
    match = _META_CHARSET.search(head)
    name = _normalise_charset(match[1]) if match else None
    # A page read as bytes cannot really be UTF-16 if its meta tag was readable as ASCII.
    return "utf-8" if name and name.startswith("utf_16") else name


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _checked_content_type(url: str, mime: str, path: str) -> str:
    """The document's type if watcher can read it; a textual guess for generic binary types."""
    if not mime or mime.startswith("text/") or mime in _TEXT_TYPES or mime.endswith(("+xml", "+json")):
        return mime
    if mime in _GENERIC_BINARY_TYPES:
        for extension, guessed in _TEXT_EXTENSIONS.items():
            if path.lower().endswith(extension):
                return guessed
    raise FetchError(url, f"unsupported content type {mime!r} (watcher reads text documents only)", retryable=False)


async def _read_capped(url: str, response: httpx.Response, max_bytes: int) -> bytes:
    """Read and decode the body, stopping as soon as the decoded size passes ``max_bytes``.

    Decompression is ours, not httpx's, so that it is bounded too: httpx inflates a whole
    network chunk at once, and 64 KB of a gzip bomb is 64 MB of zeros.
    """
    too_large = f"body larger than {max_bytes} bytes from {response.url}"
    encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
    declared = response.headers.get("Content-Length", "")
    if encoding == "identity" and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(url, too_large, retryable=False)
    inflater = _Inflater.for_encoding(url, encoding)
    chunks: list[bytes] = []
    size = 0
    async for raw in response.aiter_raw():
        chunk = inflater.inflate(url, raw, max_bytes - size + 1)
        size += len(chunk)
        if size > max_bytes:
            raise FetchError(url, too_large, retryable=False)
        chunks.append(chunk)
    return b"".join(chunks)


class _Inflater:
    """Bounded decoding of one Content-Encoding (identity, gzip or deflate)."""

    def __init__(self, decompressor: zlib._Decompress | None, *, deflate: bool = False) -> None:
        self._decompressor = decompressor
        # "deflate" is zlib-wrapped by the standard but raw in some servers: try both, as httpx does.
        self._raw_deflate_fallback = deflate

    @classmethod
    def for_encoding(cls, url: str, encoding: str) -> _Inflater:
        if encoding in ("identity", ""):
            return cls(None)
        if encoding in ("gzip", "x-gzip"):
            return cls(zlib.decompressobj(16 + zlib.MAX_WBITS))
        if encoding == "deflate":
            return cls(zlib.decompressobj(), deflate=True)
        raise FetchError(url, f"unsupported content encoding {encoding!r}", retryable=False)

    def inflate(self, url: str, data: bytes, limit: int) -> bytes:
        """Decode ``data``, producing at most ``limit`` bytes (more input is then moot)."""
        if self._decompressor is None:
            return data
        try:
            out = self._decompressor.decompress(data, limit)
        except zlib.error as exc:
            if not self._raw_deflate_fallback:
                raise FetchError(url, f"could not decode the compressed body: {exc}", retryable=False) from exc
            self._decompressor = zlib.decompressobj(-zlib.MAX_WBITS)
            self._raw_deflate_fallback = False
            return self.inflate(url, data, limit)
        self._raw_deflate_fallback = False
        return out


def _read_file_capped(path: Path, max_bytes: int) -> bytes | None:
    with path.open("rb") as handle:
        data = handle.read(max_bytes + 1)
    return None if len(data) > max_bytes else data


def _local_path(url: str) -> Path | None:
    """The path a ``file://`` URL or a plain path names; ``None`` for anything with another scheme."""
    parts = urlsplit(url)
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise FetchError(url, f"invalid URL: file URL on another host {parts.netloc!r}", retryable=False)
        return Path(url2pathname(unquote(parts.path)))
    if "://" in url or parts.scheme in ("http", "https"):
        return None
    return Path(url).expanduser()


def _parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now)


def _redirect_request(url: str, response: httpx.Response, cookies: httpx.Cookies) -> httpx.Request:
    """The GET a redirect asks for, by the rules of httpx's client.

    A relative or host-less Location is resolved against the request and keeps its fragment;
    a change of origin drops Authorization (except http -> https on the same host) and sets
    Host anew; the cookies the chain has set so far are sent.
    """
    request = response.request
    try:
        target = httpx.URL(response.headers["Location"])
    except httpx.InvalidURL as exc:
        raise FetchError(url, f"bad redirect from {request.url}: {exc}", retryable=False) from exc
    if target.scheme and not target.host:
        target = target.copy_with(host=request.url.host)
    if target.is_relative_url:
        target = request.url.join(target)
    if request.url.fragment and not target.fragment:
        target = target.copy_with(fragment=request.url.fragment)
    headers = httpx.Headers(request.headers)
    headers.pop("Cookie", None)
    if _origin(target) != _origin(request.url):
        upgrade = request.url.scheme == "http" and target.scheme == "https" and request.url.host == target.host
        if not upgrade:
            headers.pop("Authorization", None)
        headers.pop("Host", None)
    cookies.extract_cookies(response)
    redirected = httpx.Request("GET", target, headers=headers, extensions=request.extensions)
    cookies.set_cookie_header(redirected)
    return redirected


def _host_key(url: httpx.URL) -> str:
    # Politeness is per server: host and port (two local test servers are two hosts).
    return f"{url.host}:{url.port or ''}"


def _parse_robots(origin: str, body: str | None) -> Protego | None:
    if body is None:
        return None
    try:
        return Protego.parse(body)
    except Exception as exc:  # a broken robots.txt is a site bug; do not let it block fetches
        log.debug("robots.txt of %s unparsable, allowing all: %s", origin, exc)
        return None


def _origin(url: httpx.URL) -> str:
    port = f":{url.port}" if url.port else ""
    return f"{url.scheme}://{url.raw_host.decode('ascii')}{port}"


def _is_real_timeout(exc: httpx.TimeoutException) -> bool:
    # httpx_aiohttp maps every aiohttp connection error, a refused connection included, to
    # ConnectTimeout; its cause tells whether time really ran out.
    cause = exc.__cause__
    return cause is None or isinstance(cause, TimeoutError)


def _timeout_kind(exc: httpx.TimeoutException) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return "connect"
    if isinstance(exc, httpx.ReadTimeout):
        return "read"
    return "waiting for the server"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _default_transport(settings: FetchSettings) -> httpx.AsyncBaseTransport:
    limits = httpx.Limits(max_connections=settings.max_concurrency, max_keepalive_connections=settings.max_concurrency)
    try:
        from httpx_aiohttp import AiohttpTransport
    except ImportError:
        return httpx.AsyncHTTPTransport(limits=limits)
    return AiohttpTransport(limits=limits)
