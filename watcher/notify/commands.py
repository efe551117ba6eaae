"""The notification commands: ``watcher notify test``, ``watcher deliveries``, ``watcher feed``.

``register_commands(cli)`` adds them to the main click group. They read the database,
the config and the clock from ``ctx.obj`` (attributes ``db``, ``config``, ``now``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from watcher.errors import NotifyError, WatcherError
from watcher.notify import build_notifiers
from watcher.notify.base import Message, Notifier
from watcher.notify.outbox import dispatch_pending, list_deliveries, new_idempotency_key, retry_delivery

__all__ = ["ChannelResult", "register_commands", "send_test_messages"]


@dataclass(frozen=True)
class ChannelResult:
    channel: str
    target: str
    error: str | None


async def send_test_messages(notifiers: Sequence[Notifier], now: datetime) -> list[ChannelResult]:
    """Send one test message through every channel at once; the error text per channel, if any."""

    async def one(notifier: Notifier) -> ChannelResult:
        message = Message(
            idempotency_key=new_idempotency_key(),
            payload={
                "type": "test",
                "channel": notifier.name,
                "message": f"watcher test message to channel {notifier.name!r}, sent {now:%Y-%m-%d %H:%M} UTC.",
                "sent_at": now.isoformat(),
            },
        )
        try:
            await notifier.send(message)
        except NotifyError as exc:
            return ChannelResult(notifier.name, notifier.target, str(exc))
        return ChannelResult(notifier.name, notifier.target, None)

    return list(await asyncio.gather(*(one(n) for n in notifiers)))


def _notifiers(obj: Any) -> list[Notifier]:
    try:
        return build_notifiers(obj.config.notify, os.environ)
    except WatcherError as exc:
        raise click.ClickException(str(exc)) from exc


@click.group("notify")
def notify_group() -> None:
    """Notification channels."""


@notify_group.command("test")
@click.option("--channel", "channels", multiple=True, help="Only this channel (by name); repeatable.")
@click.pass_obj
def notify_test(obj: Any, channels: tuple[str, ...]) -> None:
    """Send a test message through each configured channel and report which failed and why."""
    notifiers = _notifiers(obj)
    if channels:
        unknown = sorted(set(channels) - {n.name for n in notifiers})
        if unknown:
            have = ", ".join(n.name for n in notifiers)
            raise click.ClickException(f"no channel named {unknown[0]!r} (have: {have})")
        notifiers = [n for n in notifiers if n.name in channels]
    if not notifiers:
        raise click.ClickException("no notification channels configured (add a 'notify:' list to the config)")
    results = asyncio.run(send_test_messages(notifiers, obj.now()))
    for result in results:
        status = "OK" if result.error is None else f"FAILED: {result.error}"
        click.echo(f"{result.channel} ({result.target}): {status}")
    failed = [r for r in results if r.error is not None]
    if failed:
        click.echo(f"{len(failed)} of {len(results)} channels failed", err=True)
        sys.exit(1)


def _when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S") if value else "-"


@click.command("deliveries")
@click.option("--all", "show_all", is_flag=True, help="Include sent deliveries.")
@click.option("--retry", "retry_ids", type=int, multiple=True, help="Queue this failed delivery again; repeatable.")
@click.option("--send", is_flag=True, help="Send the due deliveries now.")
@click.option("--limit", type=click.IntRange(min=1), default=200, show_default=True)
@click.pass_obj
def deliveries_command(obj: Any, show_all: bool, retry_ids: tuple[int, ...], send: bool, limit: int) -> None:
    """List pending and failed deliveries (id, channel, status, attempts, next try, last error)."""
    db, now = obj.db, obj.now
    if retry_ids:
        with db.session() as session:
            for delivery_id in retry_ids:
                if retry_delivery(session, delivery_id, now()) is None:
                    raise click.ClickException(f"no unsent delivery with id {delivery_id}")
        click.echo(f"queued again: {', '.join(map(str, retry_ids))}")
    if send:
        report = asyncio.run(dispatch_pending(db, _notifiers(obj), now, limit=limit))
        click.echo(f"sent {report.sent}, retrying {report.retrying}, failed {report.failed}")
        for error in report.errors:
            click.echo(f"  #{error.delivery_id} {error.channel}: {error.error}", err=True)
    statuses = ("pending", "failed", "sent") if show_all else ("pending", "failed")
    with db.session() as session:
        rows = list_deliveries(session, statuses, limit=limit)
        lines = [
            (str(d.id), d.channel, d.status, str(d.attempts),
             _when(d.next_attempt_at if d.status == "pending" else d.sent_at),
             " ".join((d.last_error or "").split())[:120])
            for d in rows
        ]
    if not lines:
        click.echo("no pending or failed deliveries" if not show_all else "no deliveries")
        return
    header = ("ID", "CHANNEL", "STATUS", "ATTEMPTS", "NEXT TRY / SENT", "LAST ERROR")
    widths = [max(len(r[i]) for r in [header, *lines]) for i in range(5)]
    for row in [header, *lines]:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row[:5], widths, strict=True)) + "  " + row[5])


@click.command("feed")
@click.option("--source", "source_name", metavar="NAME", help="Only the changes of this watch.")
@click.option("--person", metavar="NAME", help="Only the changes of this person's or lab's sources (or label).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write here (default: stdout).")
@click.option("--link", metavar="URL", help="The feed's alternate link (e.g. where it is published).")
@click.option("--limit", type=click.IntRange(min=1), default=200, show_default=True)
@click.pass_obj
def feed_command(
    obj: Any, source_name: str | None, person: str | None, output: Path | None, link: str | None, limit: int
) -> None:
    """Write an Atom feed of the recorded changes (all, one source, or one person)."""
    if source_name and person:
        raise click.ClickException("use --source or --person, not both")
    from watcher.notify.feed import FeedScope, feed_document

    with obj.db.session() as session:
        xml, count = feed_document(
            session, FeedScope(source=source_name, person=person), now=obj.now(), link=link, limit=limit
        )
    if output is None:
        click.echo(xml.decode("utf-8"), nl=False)
        return
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_bytes(xml)
    tmp.replace(output)  # readers of a served feed never see half a file
    click.echo(f"wrote {count} entries to {output}", err=True)


def register_commands(cli: click.Group) -> None:
    """Add ``notify``, ``deliveries`` and ``feed`` to the main command group."""
    cli.add_command(notify_group)
    cli.add_command(deliveries_command)
    cli.add_command(feed_command)
