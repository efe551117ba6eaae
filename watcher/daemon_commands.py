"""The ``watcher daemon`` and ``watcher status`` commands.

Daemon settings come from the command line, else from the config file's ``daemon:``
section, else the defaults::

    daemon: {tick: 5s, lease: 10m, max_parallel: 32, grace: 30s, metrics_port: 9464, feed_port: 8465}
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import click

from watcher.config import parse_duration
from watcher.errors import ConfigError

__all__ = ["DaemonOptions", "daemon_options", "register_commands"]

_DAEMON_KEYS = {
    "tick", "lease", "max_parallel", "grace", "metrics_port", "metrics_address", "feed_port", "feed_address",
    "log_format",
}  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class DaemonOptions:
    tick: timedelta = timedelta(seconds=5)
    lease: timedelta = timedelta(minutes=10)
    max_parallel: int = 32
    grace: timedelta = timedelta(seconds=30)
    metrics_port: int | None = None
    metrics_address: str = "127.0.0.1"
    feed_port: int | None = None
    feed_address: str = "127.0.0.1"
    log_format: str = "logfmt"


def _positive_int(value: Any, key: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"daemon.{key}: expected a whole number, got {value!r}") from exc
    if number < 1:
        raise ConfigError(f"daemon.{key}: must be at least 1, got {number}")
    return number


def daemon_options(section: Mapping[str, Any] | None, overrides: Mapping[str, Any]) -> DaemonOptions:
    """Merge the config's ``daemon:`` section with command-line values (None means not given)."""
    raw = dict(section or {})
    unknown = sorted(set(raw) - _DAEMON_KEYS)
    if unknown:
        raise ConfigError(f"daemon: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_DAEMON_KEYS))})")
    raw.update({k: v for k, v in overrides.items() if v is not None})
    defaults = DaemonOptions()
    log_format = str(raw.get("log_format", defaults.log_format))
    if log_format not in {"logfmt", "json"}:
        raise ConfigError(f"daemon.log_format: use logfmt or json, not {log_format!r}")
    return DaemonOptions(
        tick=parse_duration(raw["tick"]) if "tick" in raw else defaults.tick,
        lease=parse_duration(raw["lease"]) if "lease" in raw else defaults.lease,
        max_parallel=_positive_int(raw["max_parallel"], "max_parallel") if "max_parallel" in raw else 32,
        grace=parse_duration(raw["grace"]) if "grace" in raw else defaults.grace,
        metrics_port=_positive_int(raw["metrics_port"], "metrics_port") if "metrics_port" in raw else None,
        metrics_address=str(raw.get("metrics_address", defaults.metrics_address)),
        feed_port=_positive_int(raw["feed_port"], "feed_port") if "feed_port" in raw else None,
        feed_address=str(raw.get("feed_address", defaults.feed_address)),
        log_format=log_format,
    )


def _configure_logging(style: str) -> None:
    from watcher.daemon import LineFormatter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(LineFormatter(style))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    # APScheduler logs every job run at INFO: one line per tick would drown the check lines.
    for noisy in ("apscheduler", "httpx", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


@click.command()
@click.option("--tick", help="How often to look for due sources, e.g. 5s (default 5s).")
@click.option("--lease", help="How long a claimed source stays reserved, e.g. 10m (default 10m).")
@click.option("--max-parallel", type=int, help="Checks running at once in this daemon (default 32).")
@click.option("--grace", help="On SIGTERM, how long in-flight checks may finish (default 30s).")
@click.option("--owner", help="Name of this daemon in leases and `watcher status` (default host:pid:random).")
@click.option("--metrics-port", type=int, help="Serve Prometheus metrics on this port (needs watcher[metrics]).")
@click.option("--metrics-address", help="Address for the metrics endpoint (default 127.0.0.1).")
@click.option("--feed-port", type=int, help="Serve the Atom feeds (/feed.atom, /feed/source/NAME.atom) on this port.")
@click.option("--feed-address", help="Address for the feeds (default 127.0.0.1).")
@click.option("--web", "web", is_flag=True, help="Serve the dashboard, API and feeds (as `watcher serve`).")
@click.option("--web-host", help="Address of the dashboard (default: web.host of the config, else 127.0.0.1).")
@click.option("--web-port", type=int, help="Port of the dashboard (default: web.port of the config, else 8465).")
@click.option("--log-format", type=click.Choice(["logfmt", "json"]), help="Log line format (default logfmt).")
@click.pass_obj
def daemon(
    app: Any, owner: str | None, web: bool, web_host: str | None, web_port: int | None, **values: Any
) -> None:
    """Check due sources on schedule until stopped (SIGTERM/SIGINT stop cleanly, SIGHUP reloads the config)."""
    from watcher.daemon import run_daemon, start_metrics

    config = app.config
    options = daemon_options(config.extra.get("daemon") if config else None, values)
    web_options = None
    if web:
        from watcher.web.settings import web_settings

        # Checked before anything starts: an unsafe address is one error line, not a half-started daemon.
        web_options = web_settings(config, host=web_host, port=web_port)
    _configure_logging(options.log_format)
    metrics = start_metrics(options.metrics_port, options.metrics_address)
    try:
        asyncio.run(
            run_daemon(
                app.db,
                config.path if config else None,
                app.services_factory,
                owner=owner,
                tick=options.tick,
                lease=options.lease,
                max_parallel=options.max_parallel,
                grace=options.grace,
                now=app.now,
                metrics=metrics,
                feeds=(options.feed_address, options.feed_port) if options.feed_port else None,
                web=web_options,
            )
        )
    finally:
        if metrics is not None:
            metrics.close()


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_obj
def status(app: Any, fmt: str) -> None:
    """Sources due, failing and suspect, leases held, deliveries pending."""
    from watcher.status import collect_status, render_status, status_to_json

    report = collect_status(app.db, app.now())
    if fmt == "json":
        click.echo(json.dumps(status_to_json(report), indent=2, ensure_ascii=False))
        return
    for line in render_status(report):
        click.echo(line)


def register_commands(cli_group: click.Group) -> None:
    """Add ``daemon`` and ``status`` to the ``watcher`` command group."""
    cli_group.add_command(daemon)
    cli_group.add_command(status)
