"""The fetch stage against real HTTP servers on loopback."""

from __future__ import annotations

import asyncio
import itertools
import socket
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from email.utils import formatdate
from pathlib import Path

import httpx
import pytest
from aiohttp import web
from servers import Page, StaticSite, serve

from watcher.errors import ConfigError, FetchError
from watcher.fetch import DEFAULT_USER_AGENT, Fetcher, FetchSettings, decode_body

FAST = FetchSettings(host_delay=0.0, retries=0, backoff_base=0.01)


def _app(routes: dict[str, Callable[..., object]]) -> web.Application:
    app = web.Application()
    for path, handler in routes.items():
        app.router.add_get(path, handler)  # type: ignore[arg-type]
    return app


@pytest.fixture(params=["aiohttp", "httpx"])
def transport_factory(request: pytest.FixtureRequest) -> Callable[[], httpx.AsyncBaseTransport | None]:
    """Both transports the fetcher may run on: the default (aiohttp) and httpx's own."""
    if request.param == "httpx":
        return httpx.AsyncHTTPTransport
    return lambda: None


@pytest.fixture
def site() -> Iterator[tuple[StaticSite, str]]:
    static = StaticSite()
    with serve(static.app()) as base_url:
        yield static, base_url


# -- conditional GET -----------------------------------------------------------------------


async def test_200_then_304_with_etag(site: tuple[StaticSite, str], transport_factory: Callable) -> None:
    static, base = site
    static.set("/", Page("<h1>Ada Quill</h1>"))
    async with Fetcher(FAST, transport=transport_factory()) as fetcher:
        first = await fetcher.fetch(f"{base}/")
        second = await fetcher.fetch(f"{base}/", etag=first.etag)
        static.set("/", Page("<h1>Ada Quill, PhD</h1>"))
        third = await fetcher.fetch(f"{base}/", etag=first.etag)

    assert (first.status, first.text, first.content_type, first.not_modified) == (
        200,
        "<h1>Ada Quill</h1>",
        "text/html",
        False,
    )
    assert first.etag and first.last_modified and first.elapsed_ms > 0
    assert (second.status, second.not_modified, second.text, second.body) == (304, True, "", b"")
    assert second.etag == first.etag
    assert (third.status, third.text) == (200, "<h1>Ada Quill, PhD</h1>")
    assert static.request_headers("/")[1]["If-None-Match"] == first.etag


async def test_304_with_last_modified(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/pubs.html", Page("<ul><li>A paper</li></ul>"))
    async with Fetcher(FAST) as fetcher:
        first = await fetcher.fetch(f"{base}/pubs.html")
        second = await fetcher.fetch(f"{base}/pubs.html", last_modified=first.last_modified)

    assert second.not_modified and second.status == 304
    assert second.last_modified == first.last_modified
    assert static.request_headers("/pubs.html")[1]["If-Modified-Since"] == first.last_modified
    assert "If-None-Match" not in static.request_headers("/pubs.html")[1]


async def test_user_agent_accept_and_extra_headers_are_sent(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/api", Page('{"ok": true}', content_type="application/json"))
    async with Fetcher(FAST) as fetcher:
        result = await fetcher.fetch(f"{base}/api", accept="application/json", headers={"X-Probe": "1"})
    sent = static.request_headers("/api")[0]
    assert sent["User-Agent"] == DEFAULT_USER_AGENT
    assert "+https://" in DEFAULT_USER_AGENT
    assert sent["Accept"] == "application/json" and sent["X-Probe"] == "1"
    assert result.content_type == "application/json" and result.text == '{"ok": true}'


# -- redirects -----------------------------------------------------------------------------


async def test_redirects_are_followed_and_final_url_reported() -> None:
    async def hop_a(request: web.Request) -> web.Response:
        raise web.HTTPMovedPermanently("/b")

    async def hop_b(request: web.Request) -> web.Response:
        raise web.HTTPFound("/final")

    async def final(request: web.Request) -> web.Response:
        return web.Response(text="<p>here</p>", content_type="text/html")

    with serve(_app({"/a": hop_a, "/b": hop_b, "/final": final})) as base:
        async with Fetcher(FAST) as fetcher:
            result = await fetcher.fetch(f"{base}/a")
    assert result.url == f"{base}/final"
    assert result.text == "<p>here</p>"


async def test_redirect_loop_is_a_clear_error() -> None:
    async def ping(request: web.Request) -> web.Response:
        raise web.HTTPFound("/pong")

    async def pong(request: web.Request) -> web.Response:
        raise web.HTTPFound("/ping")

    with serve(_app({"/ping": ping, "/pong": pong})) as base:
        async with Fetcher(FAST) as fetcher:
            with pytest.raises(FetchError, match="redirect loop") as caught:
                await fetcher.fetch(f"{base}/ping")
    assert caught.value.retryable is False
    assert caught.value.url == f"{base}/ping"


async def test_too_many_redirects() -> None:
    async def step(request: web.Request) -> web.Response:
        raise web.HTTPFound(f"/step/{int(request.match_info['n']) + 1}")

    app = web.Application()
    app.router.add_get("/step/{n}", step)
    with serve(app) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=0, max_redirects=3)) as fetcher:
            with pytest.raises(FetchError, match=r"too many redirects \(more than 3\)"):
                await fetcher.fetch(f"{base}/step/0")


async def test_cookies_set_along_a_redirect_chain_go_with_it_and_no_further(
    transport_factory: Callable[[], httpx.AsyncBaseTransport | None],
) -> None:
    # A "cookie check": the page sends visitors without the cookie to a page that sets it.
    page_cookies: list[str | None] = []

    async def page(request: web.Request) -> web.Response:
        page_cookies.append(request.headers.get("Cookie"))
        if request.cookies.get("seen") != "1":
            raise web.HTTPFound("/check")
        return web.Response(text="<p>welcome</p>", content_type="text/html")

    async def check(request: web.Request) -> web.Response:
        response = web.HTTPFound("/page")
        response.set_cookie("seen", "1")
        raise response

    with serve(_app({"/page": page, "/check": check})) as base:
        async with Fetcher(FAST, transport=transport_factory()) as fetcher:
            first = await fetcher.fetch(f"{base}/page")
            second = await fetcher.fetch(f"{base}/page")
    assert first.text == second.text == "<p>welcome</p>"
    assert first.url == f"{base}/page"
    # Each fetch starts without cookies; within it, the cookie the redirect set is sent.
    assert page_cookies == [None, "seen=1", None, "seen=1"]


async def test_authorization_is_not_sent_to_another_origin_on_redirect(
    transport_factory: Callable[[], httpx.AsyncBaseTransport | None],
) -> None:
    seen: dict[str, str | None] = {}

    async def landing(request: web.Request) -> web.Response:
        seen[request.path] = request.headers.get("Authorization")
        return web.Response(text="ok", content_type="text/plain")

    with serve(_app({"/elsewhere": landing})) as other:

        async def away(request: web.Request) -> web.Response:
            raise web.HTTPFound(f"{other}/elsewhere")

        async def near(request: web.Request) -> web.Response:
            raise web.HTTPFound("/landing")

        with serve(_app({"/away": away, "/near": near, "/landing": landing})) as base:
            async with Fetcher(FAST, transport=transport_factory()) as fetcher:
                await fetcher.fetch(f"{base}/away", headers={"Authorization": "token secret"})
                await fetcher.fetch(f"{base}/near", headers={"Authorization": "token secret"})
    assert seen == {"/elsewhere": None, "/landing": "token secret"}


# -- size caps -----------------------------------------------------------------------------


async def test_body_over_the_cap_is_refused(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/big", Page("x" * 5000, content_type="text/plain"))
    static.set("/small", Page("x" * 900, content_type="text/plain"))
    async with Fetcher(FetchSettings(host_delay=0, retries=0, max_bytes=1000)) as fetcher:
        with pytest.raises(FetchError, match="body larger than 1000 bytes") as caught:
            await fetcher.fetch(f"{base}/big")
        assert len((await fetcher.fetch(f"{base}/small")).body) == 900
    assert caught.value.retryable is False


async def test_chunked_body_without_length_is_cut_at_the_cap() -> None:
    async def endless(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await response.prepare(request)
        for _ in range(2000):  # 2 MB if nobody hangs up
            await response.write(b"y" * 1024)
        return response

    with serve(_app({"/": endless})) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=0, max_bytes=64 * 1024)) as fetcher:
            with pytest.raises(FetchError, match="body larger than 65536 bytes"):
                await fetcher.fetch(f"{base}/")


def _gzip_of_zeros(size: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip framing
    block = bytes(1024 * 1024)
    parts = [compressor.compress(block) for _ in range(size // len(block))]
    parts.append(compressor.flush())
    return b"".join(parts)


async def test_gzip_bomb_stops_early_with_bounded_memory(transport_factory: Callable) -> None:
    bomb = _gzip_of_zeros(50 * 1024 * 1024)
    assert len(bomb) < 200 * 1024  # a few hundred kilobytes on the wire

    async def bomb_page(request: web.Request) -> web.Response:
        return web.Response(body=bomb, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})

    with serve(_app({"/": bomb_page})) as base:
        settings = FetchSettings(host_delay=0, retries=0, max_bytes=1024 * 1024)
        async with Fetcher(settings, transport=transport_factory()) as fetcher:
            tracemalloc.start()
            try:
                with pytest.raises(FetchError, match="body larger than 1048576 bytes"):
                    await fetcher.fetch(f"{base}/")
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
    # Decoding all 50 MB would need at least that much; the cap bounds it near 1 MB.
    assert peak < 8 * 1024 * 1024


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
async def test_compressed_pages_are_decoded(transport_factory: Callable, encoding: str) -> None:
    html = "<p>" + "Ada Quill, Grace Tern. " * 2000 + "</p>"
    wbits = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS, "raw-deflate": -zlib.MAX_WBITS}[encoding]
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    packed = compressor.compress(html.encode()) + compressor.flush()
    header = "gzip" if encoding == "gzip" else "deflate"

    async def page(request: web.Request) -> web.Response:
        return web.Response(body=packed, headers={"Content-Type": "text/html", "Content-Encoding": header})

    with serve(_app({"/": page})) as base:
        async with Fetcher(FAST, transport=transport_factory()) as fetcher:
            result = await fetcher.fetch(f"{base}/", obey_robots=False)
    assert result.text == html and len(packed) < len(html) // 10


# -- timeouts ------------------------------------------------------------------------------


async def test_read_timeout_is_retryable() -> None:
    async def stalls(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        await response.prepare(request)
        await response.write(b"<p>")
        await asyncio.sleep(3)
        return response

    with serve(_app({"/": stalls})) as base:
        settings = FetchSettings(host_delay=0, retries=0, read_timeout=0.3)
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            with pytest.raises(FetchError, match=r"timed out \(read\)") as caught:
                await fetcher.fetch(f"{base}/")
    assert caught.value.retryable is True
    assert time.monotonic() - started < 2


async def test_dripping_server_is_cut_by_the_total_deadline(transport_factory: Callable) -> None:
    async def drips(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await response.prepare(request)
        for _ in range(100):  # 20 s in all, each byte well within the read timeout
            await response.write(b".")
            await asyncio.sleep(0.2)
        return response

    with serve(_app({"/": drips})) as base:
        settings = FetchSettings(host_delay=0, retries=0, read_timeout=5, deadline=1.0)
        async with Fetcher(settings, transport=transport_factory()) as fetcher:
            started = time.monotonic()
            with pytest.raises(FetchError, match="within the 1 s deadline") as caught:
                await fetcher.fetch(f"{base}/")
    assert caught.value.retryable is True
    assert 0.9 < time.monotonic() - started < 2


# -- retries -------------------------------------------------------------------------------


def _flaky_app(
    failures: int, status: int, headers: dict[str, str] | None = None
) -> tuple[web.Application, list[float]]:
    """An app whose ``/`` fails ``failures`` times with ``status`` then answers; returns request times."""
    times: list[float] = []

    async def flaky(request: web.Request) -> web.Response:
        times.append(time.monotonic())
        if len(times) <= failures:
            return web.Response(status=status, text="busy", headers=headers)
        return web.Response(text="<p>ok</p>", content_type="text/html")

    return _app({"/": flaky}), times


async def test_503_is_retried_then_succeeds() -> None:
    app, times = _flaky_app(2, 503)
    with serve(app) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=3, backoff_base=0.05)) as fetcher:
            result = await fetcher.fetch(f"{base}/")
    assert result.status == 200 and result.text == "<p>ok</p>"
    assert len(times) == 3
    # Exponential backoff: the second wait is longer than the first (with jitter 0.75–1).
    assert times[1] - times[0] >= 0.035 and times[2] - times[1] >= 0.07


async def test_5xx_after_all_retries_is_retryable_error() -> None:
    app, times = _flaky_app(99, 502)
    with serve(app) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=2, backoff_base=0.01)) as fetcher:
            with pytest.raises(FetchError, match=r"server error \(502\)") as caught:
                await fetcher.fetch(f"{base}/")
    assert len(times) == 3
    assert caught.value.retryable is True and caught.value.status == 502


async def test_429_retry_after_seconds_is_honoured() -> None:
    app, times = _flaky_app(1, 429, {"Retry-After": "1"})
    with serve(app) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=2, backoff_base=0.01)) as fetcher:
            result = await fetcher.fetch(f"{base}/")
    assert result.status == 200
    assert 0.95 <= times[1] - times[0] < 2


async def test_retry_after_http_date_is_honoured_and_capped() -> None:
    now = 1_800_000_000.0
    waits: list[float] = []

    async def record_sleep(seconds: float) -> None:
        waits.append(seconds)

    in_30s = formatdate(now + 30, usegmt=True)
    app, _times = _flaky_app(2, 503, {"Retry-After": in_30s})
    app_long, _ = _flaky_app(1, 429, {"Retry-After": "86400"})
    with serve(app) as base, serve(app_long) as base_long:
        settings = FetchSettings(host_delay=0, retries=3, retry_after_cap=60)
        async with Fetcher(settings, sleep=record_sleep, wall_clock=lambda: now) as fetcher:
            await fetcher.fetch(f"{base}/")
            await fetcher.fetch(f"{base_long}/")
    retry_waits = [w for w in waits if w > 0]
    assert retry_waits == [30.0, 30.0, 60.0]


async def test_404_is_not_retried() -> None:
    app, times = _flaky_app(99, 404)
    with serve(app) as base:
        async with Fetcher(FetchSettings(host_delay=0, retries=3, backoff_base=0.01)) as fetcher:
            with pytest.raises(FetchError, match=r"not found \(404\)") as caught:
                await fetcher.fetch(f"{base}/")
    assert len(times) == 1
    assert caught.value.retryable is False and caught.value.status == 404


async def test_410_gone_is_not_retryable(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/old", Page("gone", status=410))
    async with Fetcher(FetchSettings(host_delay=0, retries=3)) as fetcher:
        with pytest.raises(FetchError, match=r"gone \(410\)") as caught:
            await fetcher.fetch(f"{base}/old")
    assert caught.value.retryable is False and static.count("/old") == 1


async def test_raise_for_status_false_returns_client_errors(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/api", Page('{"message": "Not Found"}', content_type="application/json", status=404))
    async with Fetcher(FAST) as fetcher:
        result = await fetcher.fetch(f"{base}/api", raise_for_status=False)
    assert result.status == 404 and '"Not Found"' in result.text


# -- robots.txt ----------------------------------------------------------------------------


async def test_robots_disallow_is_an_error_and_opt_out_works(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/robots.txt", Page("User-agent: *\nDisallow: /private/\n", content_type="text/plain"))
    static.set("/private/cv.html", Page("<p>cv</p>"))
    static.set("/public.html", Page("<p>hi</p>"))
    async with Fetcher(FAST) as fetcher:
        with pytest.raises(FetchError, match=r"robots\.txt.*robots: false") as caught:
            await fetcher.fetch(f"{base}/private/cv.html")
        assert (await fetcher.fetch(f"{base}/public.html")).text == "<p>hi</p>"
        opted_out = await fetcher.fetch(f"{base}/private/cv.html", obey_robots=False)
    assert caught.value.retryable is False
    assert opted_out.text == "<p>cv</p>"
    assert static.count("/private/cv.html") == 1  # only the opted-out request reached it
    assert static.count("/robots.txt") == 1  # read once per origin


async def test_robots_for_our_agent_only(site: tuple[StaticSite, str]) -> None:
    static, base = site
    robots = "User-agent: watcher\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    static.set("/robots.txt", Page(robots, content_type="text/plain"))
    static.set("/", Page("<p>home</p>"))
    async with Fetcher(FAST) as fetcher:
        with pytest.raises(FetchError, match=r"robots\.txt"):
            await fetcher.fetch(f"{base}/")


@pytest.mark.parametrize("robots_status", [404, 403, 500])
async def test_missing_or_broken_robots_allows(site: tuple[StaticSite, str], robots_status: int) -> None:
    static, base = site
    static.set("/robots.txt", Page("User-agent: *\nDisallow: /\n", content_type="text/plain", status=robots_status))
    static.set("/", Page("<p>home</p>"))
    async with Fetcher(FetchSettings(host_delay=0, retries=2, backoff_base=0.01)) as fetcher:
        assert (await fetcher.fetch(f"{base}/")).text == "<p>home</p>"
    assert static.count("/robots.txt") == 1  # robots.txt is never retried


async def test_unreachable_robots_allows() -> None:
    # A server that hangs up on robots.txt but serves the page.
    async def robots(request: web.Request) -> web.Response:
        assert request.transport is not None
        request.transport.close()
        return web.Response(text="")

    async def home(request: web.Request) -> web.Response:
        return web.Response(text="<p>home</p>", content_type="text/html")

    with serve(_app({"/robots.txt": robots, "/": home})) as base:
        async with Fetcher(FAST) as fetcher:
            assert (await fetcher.fetch(f"{base}/")).text == "<p>home</p>"


async def test_crawl_delay_spaces_requests(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/robots.txt", Page("User-agent: *\nCrawl-delay: 0.3\n", content_type="text/plain"))
    for n in range(3):
        static.set(f"/p{n}", Page(f"<p>{n}</p>"))
    async with Fetcher(FAST) as fetcher:
        await asyncio.gather(*(fetcher.fetch(f"{base}/p{n}") for n in range(3)))
    starts = sorted(static.times("/p0") + static.times("/p1") + static.times("/p2"))
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 0.25  # 0.3 s, less jitter in arrival times


# -- politeness ----------------------------------------------------------------------------


async def test_per_host_concurrency_limit() -> None:
    in_flight = 0
    peak = 0

    async def slow(request: web.Request) -> web.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.1)
        in_flight -= 1
        return web.Response(text="<p>ok</p>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{n}", slow)
    with serve(app) as base, serve(StaticSite({"/": "<p>other</p>"}).app()) as other:
        settings = FetchSettings(host_delay=0, retries=0, per_host_limit=2)
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            results = await asyncio.gather(
                *(fetcher.fetch(f"{base}/{n}", obey_robots=False) for n in range(8)),
                fetcher.fetch(f"{other}/", obey_robots=False),
            )
            elapsed = time.monotonic() - started
    assert len(results) == 9
    assert peak == 2  # never above the limit, and the limit is used
    assert elapsed >= 0.38  # 8 requests of 0.1 s, two at a time


async def test_min_gap_between_requests_to_one_host(site: tuple[StaticSite, str]) -> None:
    static, base = site
    for n in range(4):
        static.set(f"/{n}", Page(f"<p>{n}</p>"))
    settings = FetchSettings(host_delay=0.1, retries=0, per_host_limit=4)
    async with Fetcher(settings) as fetcher:
        await asyncio.gather(*(fetcher.fetch(f"{base}/{n}", obey_robots=False) for n in range(4)))
    starts = sorted(t for n in range(4) for t in static.times(f"/{n}"))
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(starts) == 4 and min(gaps) >= 0.07  # 0.1 s, less jitter in arrival times


async def test_a_callers_min_gap_holds_for_the_host_from_then_on(site: tuple[StaticSite, str]) -> None:
    # An API's published rate (arXiv: one request every 3 s) is the caller's minimum gap.
    static, base = site
    for n in range(3):
        static.set(f"/{n}", Page(f"<p>{n}</p>"))
    async with Fetcher(FetchSettings(host_delay=0.0, retries=0, per_host_limit=4)) as fetcher:
        await fetcher.fetch(f"{base}/0", obey_robots=False, min_gap=0.3)
        await asyncio.gather(*(fetcher.fetch(f"{base}/{n}", obey_robots=False) for n in (1, 2)))
    starts = sorted(t for n in range(3) for t in static.times(f"/{n}"))
    assert min(b - a for a, b in itertools.pairwise(starts)) >= 0.27


async def test_a_retry_after_pauses_every_request_to_the_host() -> None:
    times: dict[str, list[float]] = {"/a": [], "/b": []}

    async def answer(request: web.Request) -> web.Response:
        times[request.path].append(time.monotonic())
        if request.path == "/a" and len(times["/a"]) == 1:
            return web.Response(status=429, text="slow down", headers={"Retry-After": "1"})
        return web.Response(text="<p>ok</p>", content_type="text/html")

    with serve(_app({"/a": answer, "/b": answer})) as base:
        settings = FetchSettings(host_delay=0.0, retries=1, per_host_limit=1)
        async with Fetcher(settings) as fetcher:
            first = asyncio.ensure_future(fetcher.fetch(f"{base}/a", obey_robots=False))
            await asyncio.sleep(0.05)
            second = await fetcher.fetch(f"{base}/b", obey_robots=False)
            await first
    assert second.status == 200
    # /b was asked after the 429 to /a: it waited out the pause too, not only /a's retry.
    assert times["/b"][0] - times["/a"][0] >= 0.95 and times["/a"][1] - times["/a"][0] >= 0.95


async def test_hosts_are_not_slowed_by_each_other() -> None:
    first, second = StaticSite({"/": "<p>1</p>"}), StaticSite({"/": "<p>2</p>"})
    with serve(first.app(), host="127.0.0.2") as base1, serve(second.app(), host="127.0.0.3") as base2:
        settings = FetchSettings(host_delay=0.5, retries=0)
        async with Fetcher(settings) as fetcher:
            started = time.monotonic()
            await asyncio.gather(*(fetcher.fetch(f"{base}/", obey_robots=False) for base in (base1, base2) * 2))
            elapsed = time.monotonic() - started
    # Each host waits 0.5 s before its second request; a shared gap would take 1.5 s.
    assert 0.45 <= elapsed < 1.0
    assert first.count("/") == second.count("/") == 2


# -- decoding ------------------------------------------------------------------------------


async def test_latin1_page_without_charset(site: tuple[StaticSite, str]) -> None:
    static, base = site
    html = "<p>Prof. Zoë Müller — Café Ström</p>".replace("—", "-")
    static.set("/", Page(html.encode("latin-1"), content_type="text/html"))
    async with Fetcher(FAST) as fetcher:
        result = await fetcher.fetch(f"{base}/", obey_robots=False)
    assert result.text == html


async def test_meta_charset_and_http_equiv(site: tuple[StaticSite, str]) -> None:
    static, base = site
    name = "Łukasz Żółć"
    meta = f'<html><head><meta charset="iso-8859-2"></head><body>{name}</body></html>'
    equiv = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
        "</head><body>Иван Петров</body></html>"
    )
    static.set("/meta", Page(meta.encode("iso-8859-2"), content_type="text/html"))
    static.set("/equiv", Page(equiv.encode("cp1251"), content_type="text/html"))
    async with Fetcher(FAST) as fetcher:
        assert name in (await fetcher.fetch(f"{base}/meta", obey_robots=False)).text
        assert "Иван Петров" in (await fetcher.fetch(f"{base}/equiv", obey_robots=False)).text


def test_decode_body_order_and_bad_bytes() -> None:
    assert decode_body("é".encode(), "text/html; charset=UTF-8") == "é"
    assert decode_body("é".encode("latin-1"), 'text/html; charset="ISO-8859-1"') == "é"
    assert decode_body(b"\xef\xbb\xbfhello", "text/html; charset=latin-1") == "hello"  # BOM wins
    assert decode_body("naïve".encode("utf-16"), None) == "naïve"
    assert decode_body("ok ü".encode(), None) == "ok ü"
    assert decode_body(b"\x93quoted\x94", None) == "\u201cquoted\u201d"  # windows-1252 quotes
    assert decode_body(b"x\xff\xfe", "text/plain; charset=utf-8") == "x\ufffd\ufffd"
    assert decode_body(b"plain", "text/plain; charset=no-such-codec") == "plain"
    # A static host calls every page UTF-8; a Word export says windows-1252 itself, and its bytes agree.
    word = b'<meta http-equiv=Content-Type content="text/html; charset=windows-1252"><p>Prix H\xe9lo\xefse</p>'
    assert decode_body(word, "text/html; charset=utf-8").endswith("<p>Prix Héloïse</p>")
    assert decode_body(word.replace(b"\xe9", "é".encode()).replace(b"\xef", "ï".encode()),
                       "text/html; charset=utf-8").endswith("<p>Prix Héloïse</p>")


# -- content types -------------------------------------------------------------------------


async def test_binary_content_type_is_refused(site: tuple[StaticSite, str]) -> None:
    static, base = site
    static.set("/photo.png", Page(b"\x89PNG\r\n", content_type="image/png"))
    static.set("/cv.pdf", Page(b"%PDF-1.4", content_type="application/pdf"))
    static.set("/blob", Page(b"\x00\x01", content_type="application/octet-stream"))
    async with Fetcher(FAST) as fetcher:
        for path, mime in [
            ("/photo.png", "image/png"),
            ("/cv.pdf", "application/pdf"),
            ("/blob", "application/octet-stream"),
        ]:
            with pytest.raises(FetchError, match=f"unsupported content type '{mime}'") as caught:
                await fetcher.fetch(f"{base}{path}", obey_robots=False)
            assert caught.value.retryable is False


async def test_textual_files_served_as_octet_stream_are_read(site: tuple[StaticSite, str]) -> None:
    static, base = site
    bib = "@article{quill2024, title={Tides}}"
    static.set("/papers.bib", Page(bib, content_type="application/octet-stream"))
    static.set("/feed", Page("<feed/>", content_type="application/atom+xml"))
    async with Fetcher(FAST) as fetcher:
        result = await fetcher.fetch(f"{base}/papers.bib", obey_robots=False)
        feed = await fetcher.fetch(f"{base}/feed", obey_robots=False)
    assert (result.text, result.content_type) == (bib, "application/x-bibtex")
    assert feed.content_type == "application/atom+xml"


# -- connection failures and bad input ------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_connection_refused_is_retryable(transport_factory: Callable) -> None:
    port = _free_port()
    settings = FetchSettings(host_delay=0, retries=1, backoff_base=0.01)
    async with Fetcher(settings, transport=transport_factory()) as fetcher:
        with pytest.raises(FetchError, match="could not connect") as caught:
            await fetcher.fetch(f"http://127.0.0.1:{port}/")
    assert caught.value.retryable is True
    assert "timed out" not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://", "invalid URL"),
        ("ftp://example.org/x", "unsupported scheme"),
        ("http://exa mple.org/", "invalid URL"),
    ],
)
async def test_invalid_urls(url: str, message: str) -> None:
    async with Fetcher(FAST) as fetcher:
        with pytest.raises(FetchError, match=message) as caught:
            await fetcher.fetch(url)
    assert caught.value.retryable is False


def test_settings_are_validated() -> None:
    with pytest.raises(ConfigError, match="per_host_limit"):
        FetchSettings(per_host_limit=0)
    with pytest.raises(ConfigError, match="retries"):
        FetchSettings(retries=-1)


async def test_fetcher_outside_context_is_a_programming_error() -> None:
    with pytest.raises(RuntimeError, match="async with"):
        await Fetcher(FAST).fetch("http://127.0.0.1:1/")


# -- local files ---------------------------------------------------------------------------


async def test_local_files_and_file_urls(tmp_path: Path) -> None:
    bib = tmp_path / "my papers.bib"
    bib.write_text("@misc{a, title={Élan}}", encoding="utf-8")
    async with Fetcher(FAST) as fetcher:
        first = await fetcher.fetch(str(bib))
        again = await fetcher.fetch(bib.as_uri(), etag=first.etag)
        bib.write_text("@misc{a, title={Élan vital}}", encoding="utf-8")
        changed = await fetcher.fetch(bib.as_uri(), etag=first.etag)
        with pytest.raises(FetchError, match="file not found") as missing:
            await fetcher.fetch(str(tmp_path / "nope.md"))
    assert (first.status, first.text, first.content_type) == (200, "@misc{a, title={Élan}}", "application/x-bibtex")
    assert first.url == bib.as_uri()
    assert again.not_modified and again.text == ""
    assert changed.text.endswith("vital}}") and changed.etag != first.etag
    assert missing.value.retryable is False


async def test_local_file_size_cap_and_type(tmp_path: Path) -> None:
    big = tmp_path / "notes.md"
    big.write_text("#" * 2048)
    image = tmp_path / "face.png"
    image.write_bytes(b"\x89PNG")
    async with Fetcher(FetchSettings(max_bytes=1024)) as fetcher:
        with pytest.raises(FetchError, match="larger than 1024 bytes"):
            await fetcher.fetch(str(big))
        with pytest.raises(FetchError, match="unsupported content type 'image/png'"):
            await fetcher.fetch(str(image))
