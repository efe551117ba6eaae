"""The benchmark's static host: one process serving pages on many loopback addresses.

Usage (started by ``bench/run.py``)::

    python bench/server.py PAGES_DIR PORT HOST [HOST ...]

Serves ``PAGES_DIR/<host>/<name>.html`` as ``http://<host>:<port>/<name>.html`` on every
given 127.x.y.z address, all on one port (``0``: a free one), which it prints as ``port N`` once listening. Like
GitHub Pages it sends ETag and Last-Modified and answers a conditional GET with 304;
``/robots.txt`` is 404. SIGHUP re-reads the directory (the benchmark edits pages between
phases) and prints ``reloaded``.

A raw ``asyncio.Protocol`` rather than aiohttp: a thousand listening sockets in one aiohttp
app work, but aiohttp spends about three times the CPU per request, CPU that the watcher
and urlwatch processes being measured then lack on a two-core machine.
"""

from __future__ import annotations

import asyncio
import hashlib
import signal
import socket
import sys
from email.utils import formatdate
from pathlib import Path

_NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found"


class Site:
    """The pages in memory, with their precomputed 200 headers and validators."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pages: dict[tuple[str, str], tuple[bytes, bytes, bytes]] = {}
        self.reload()

    def reload(self) -> None:
        pages: dict[tuple[str, str], tuple[bytes, bytes, bytes]] = {}
        modified = formatdate(usegmt=True)
        for path in self.root.glob("*/*.html"):
            body = path.read_bytes()
            etag = f'"{hashlib.sha1(body).hexdigest()[:16]}"'
            old = self.pages.get((path.parent.name, "/" + path.name))
            if old is not None and old[2] == etag.encode():
                pages[(path.parent.name, "/" + path.name)] = old
                continue
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"ETag: {etag}\r\nLast-Modified: {modified}\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode()
            not_modified = f"HTTP/1.1 304 Not Modified\r\nETag: {etag}\r\n\r\n".encode()
            pages[(path.parent.name, "/" + path.name)] = (head + body, not_modified, etag.encode())
        self.pages = pages


class Http(asyncio.Protocol):
    """Keep-alive HTTP/1.1 GETs: request line and headers only, no bodies, no pipelining needed."""

    def __init__(self, site: Site, host: str) -> None:
        self.site = site
        self.host = host
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while b"\r\n\r\n" in self.buffer:
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            assert self.transport is not None
            self.transport.write(self.answer(head))

    def answer(self, head: bytes) -> bytes:
        lines = head.split(b"\r\n")
        path = lines[0].split(b" ")[1].decode("latin-1")
        page = self.site.pages.get((self.host, path))
        if page is None:
            return _NOT_FOUND
        full, not_modified, etag = page
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"if-none-match" and etag in value:
                return not_modified
        return full


async def main(root: Path, port: int, hosts: list[str]) -> None:
    site = Site(root)
    loop = asyncio.get_running_loop()
    if not port:
        probe = socket.socket()
        probe.bind((hosts[0], 0))
        port = probe.getsockname()[1]
        probe.close()
    servers = []
    for host in hosts:
        servers.append(
            await loop.create_server(lambda host=host: Http(site, host), host, port, backlog=512, reuse_address=True)
        )

    def reload() -> None:
        site.reload()
        print("reloaded", flush=True)

    loop.add_signal_handler(signal.SIGHUP, reload)
    print(f"port {port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]))
