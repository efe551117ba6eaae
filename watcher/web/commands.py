"""The ``watcher serve`` command."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import click

from watcher.web.settings import web_settings

__all__ = ["register_commands"]


@click.command()
@click.option("--host", help="Address to listen on (default 127.0.0.1; another needs a token).")
@click.option("--port", type=int, help="Port to listen on (default 8465).")
@click.option("--allow-writes", is_flag=True, default=None, help="Turn on adding, removing, pausing and checking "
              "sources and retrying deliveries from the pages (needs a token).")
@click.pass_obj
def serve(app: Any, host: str | None, port: int | None, allow_writes: bool | None) -> None:
    """Serve the dashboard and the JSON API (and the Atom feeds) until stopped."""
    settings = web_settings(app.config, host=host, port=port, allow_writes=allow_writes)
    asyncio.run(_serve(app, settings))


async def _serve(app: Any, settings: Any) -> None:
    from watcher.web.app import serve_web

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with serve_web(app.db, settings, now=app.now) as port:
        shown = settings.host if ":" not in settings.host else f"[{settings.host}]"
        click.echo(f"watcher dashboard on http://{shown}:{port}/ (Ctrl-C stops)", err=True)
        await stop.wait()


def register_commands(cli_group: click.Group) -> None:
    cli_group.add_command(serve)
