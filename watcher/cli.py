"""The ``watcher`` command line: the external contract in DESIGN.md.

Every command exits non-zero with a one-line error on bad input; ``--debug`` shows the
traceback instead.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import click
import platformdirs
from sqlalchemy import func, select

from watcher import __version__
from watcher.config import Config, load_config, parse_duration
from watcher.errors import ConfigError, WatcherError
from watcher.records import record_fields
from watcher.report import change_sentence, change_to_json, item_fields
from watcher.sources import add_source, find_sources, remove_source, sync_sources
from watcher.store.db import Database, default_database_url, utcnow
from watcher.store.models import Change, Item, Snapshot, Source

__all__ = ["AppContext", "cli", "main"]


@dataclass
class AppContext:
    """What every command needs, built lazily from the global options."""

    db_url: str | None
    config_path: str | None
    debug: bool = False
    now: Callable[[], datetime] = utcnow
    _config: Config | None = field(default=None, init=False)
    _config_loaded: bool = field(default=False, init=False)
    _db: Database | None = field(default=None, init=False)

    @property
    def config(self) -> Config | None:
        if not self._config_loaded:
            self._config_loaded = True
            path = self.config_path or _default_config_path()
            self._config = load_config(path) if path else None
        return self._config

    @property
    def db(self) -> Database:
        if self._db is None:
            url = self.db_url or os.environ.get("WATCHER_DATABASE_URL")
            url = url or (self.config.database if self.config else None) or default_database_url()
            self._db = Database(url)
            self._db.ensure_schema()
        return self._db

    def services_factory(self, **kwargs: Any) -> Any:
        from watcher.pipeline import open_services

        return open_services(self.db, self.config, now=self.now, **kwargs)


def _default_config_path() -> str | None:
    """``$WATCHER_CONFIG``, else ``config.yaml`` in the user's config directory when it exists."""
    if env := os.environ.get("WATCHER_CONFIG"):
        return env
    path = Path(platformdirs.user_config_dir("watcher")) / "config.yaml"
    return str(path) if path.exists() else None


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


def _format_option() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)


#: Commands that live beside their stage, by module. They are imported only when one of them is
#: invoked or listed: the notify commands alone pull in jinja2, feedgen and apprise (about 0.1 s).
_OPTIONAL_COMMANDS: dict[str, tuple[str, ...]] = {
    "watcher.notify.commands": ("notify", "deliveries", "feed"),
    "watcher.daemon_commands": ("daemon", "status"),
    "watcher.web.commands": ("serve",),
}


class _LazyGroup(click.Group):
    """The main group: optional commands are registered on first use, not at import."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        for module in _OPTIONAL_COMMANDS:
            self._register(module)
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            for module, names in _OPTIONAL_COMMANDS.items():
                if cmd_name in names:
                    self._register(module)
        return super().get_command(ctx, cmd_name)

    def _register(self, module: str) -> None:
        if all(name in self.commands for name in _OPTIONAL_COMMANDS[module]):
            return
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            return
        mod.register_commands(self)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="Database URL (env WATCHER_DATABASE_URL; default: SQLite in the user data dir).",
)
@click.option("--config", "config_path", metavar="PATH", help="Config file (env WATCHER_CONFIG).")
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.version_option(__version__, prog_name="watcher")
@click.pass_context
def cli(ctx: click.Context, db_url: str | None, config_path: str | None, debug: bool) -> None:
    """Follow researchers' and labs' pages and report, item by item, what is new."""
    ctx.obj = AppContext(db_url=db_url, config_path=config_path, debug=debug)


# -- the watch list ----------------------------------------------------------------------


@cli.command()
@click.argument("location")
@click.option("--name", help="A short name (default: from the URL).")
@click.option("--extractor", default="auto", show_default=True, help="Extractor name, or auto.")
@click.option("--every", default=None, help="Check interval, e.g. 6h, 1d (default: config defaults, else 12h).")
@click.option("--label", help="Person or lab the source belongs to.")
@click.option("--no-robots", is_flag=True, help="Do not obey robots.txt for this source.")
@click.option("--no-probe", is_flag=True, help="Do not fetch the page to suggest a cleaner source.")
@click.pass_obj
def add(app: AppContext, location: str, name: str | None, extractor: str, every: str | None, label: str | None,
        no_robots: bool, no_probe: bool) -> None:
    """Watch a page URL, a github:OWNER/REPO[@BRANCH] repository, a file, or an index record:
    dblp:PID, arxiv:"Full Name", arxiv:ORCID, openalex:A…, orcid:0000-0000-0000-0000."""
    from extractors import known_name

    if extractor != "auto" and known_name(extractor) is None:
        raise ConfigError(f"unknown extractor {extractor!r} (see `watcher extractors`)")
    interval = parse_duration(every) if every else (app.config.every if app.config else timedelta(hours=12))
    with app.db.session() as session:
        source = add_source(
            session, location, now=app.now(), name=name, extractor=extractor, every=interval, label=label,
            obey_robots=not no_robots,
        )
        click.echo(f"added {source.name}: {source.url} (every {_duration_text(source.every_seconds)})")
        url = source.url
    if not no_probe and url.startswith(("http://", "https://")):
        tip = asyncio.run(_suggest_better_source(app, url))
        if tip:
            click.echo(tip)


async def _suggest_better_source(app: AppContext, url: str) -> str | None:
    """Read the page once: which extractor fits, and whether a cleaner source exists.

    Best effort: a page that cannot be read now is checked later anyway.
    """
    from watcher.extract import choose_extractor
    from watcher.fetch import FetchSettings
    from watcher.pipeline import open_services, read_document, to_document

    settings = FetchSettings(deadline=15.0, retries=0)
    try:
        async with open_services(None, None, settings=settings, notifiers=()) as services:  # type: ignore[arg-type]
            doc = to_document(url, await read_document(services, url))
        extractor, _reason = choose_extractor(doc)
    except WatcherError as exc:
        return f"note: could not read the page now ({exc}); it will be checked later"
    better = extractor.better_source(doc)
    if better and better != url:
        return f"tip: this is a {extractor.name} site; its source {better} gives cleaner items: watcher add {better}"
    return f"read as {extractor.name}"


@cli.command("list")
@_format_option()
@click.pass_obj
def list_sources(app: AppContext, fmt: str) -> None:
    """The watched sources, their last check and their health."""
    with app.db.session() as session:
        sources = find_sources(session)
        rows = [_source_summary(session, s) for s in sources]
    if fmt == "json":
        _echo_json(rows)
        return
    if not rows:
        click.echo("no sources yet: `watcher add URL`")
        return
    for row in rows:
        status = row["last_status"] or "never checked"
        if row["failures"]:
            status += f" ({row['failures']} failures: {row['last_error']})"
        click.echo(f"{row['name']:<28} {row['items']:>4} items  {status:<12} {row['url']}")


def _source_summary(session: Any, source: Source) -> dict[str, Any]:
    items = session.scalar(
        select(func.count()).select_from(Item).where(Item.source_id == source.id, Item.removed_at.is_(None))
    )
    return {
        "name": source.name,
        "url": source.url,
        "extractor": source.extractor,
        "every": _duration_text(source.every_seconds),
        "items": items,
        "last_checked_at": source.last_checked_at.isoformat() if source.last_checked_at else None,
        "last_status": source.last_status,
        "last_error": source.last_error,
        "failures": source.failures,
        "next_due_at": source.next_due_at.isoformat() if source.next_due_at else None,
    }


def _duration_text(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0 and seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


@cli.command()
@click.argument("ref")
@click.pass_obj
def remove(app: AppContext, ref: str) -> None:
    """Stop watching a source (by NAME or URL); its history is kept."""
    with app.db.session() as session:
        source = remove_source(session, ref)
        click.echo(f"removed {source.name}")


@cli.command()
@click.pass_obj
def sync(app: AppContext) -> None:
    """Load the config file's watch list into the database (add, update, remove)."""
    if app.config is None:
        raise ConfigError("no config file: pass --config PATH or set WATCHER_CONFIG")
    with app.db.session() as session:
        report = sync_sources(session, app.config, app.now())
    click.echo(f"synced: {len(report.added)} added, {len(report.updated)} updated, {len(report.removed)} removed")
    for verb, names in (("added", report.added), ("updated", report.updated), ("removed", report.removed)):
        for name in names:
            click.echo(f"  {verb} {name}")
    people_added, people_updated, people_removed = report.people
    if people_added or people_updated or people_removed:
        click.echo(f"people: {len(people_added)} added, {len(people_updated)} updated, {len(people_removed)} removed")


# -- checking ----------------------------------------------------------------------------


@cli.command()
@click.argument("refs", nargs=-1)
@click.option(
    "--concurrency", default=64, show_default=True, help="Sources read and recorded at once (per process)."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes checking at once, sources split by host (for long lists on many cores).",
)
@click.pass_obj
def check(app: AppContext, refs: Sequence[str], concurrency: int, jobs: int) -> None:
    """Fetch, extract and diff now (all sources when none are named)."""
    from watcher.shards import start_shards

    with app.db.session() as session:
        found = find_sources(session, refs)
        sources = [(s.id, s.url) for s in found]
        rank = {s.name: index for index, s in enumerate(found)}
    if not sources:
        click.echo("no sources to check: `watcher add URL` first")
        return
    from watcher.pipeline import freeze_startup_objects

    freeze_startup_objects()
    # Forked before any event loop or thread exists; the first shard is checked here.
    own, children = start_shards(app.db, app.services_factory, sources, jobs, concurrency)
    outcomes, delivered, failure = asyncio.run(_run_checks(app, own, len(sources), concurrency, children))
    _print_check_summary(app, sorted(outcomes, key=lambda o: rank.get(o.source, len(rank))))
    if delivered:
        click.echo(delivered)
    if failure is not None:
        raise failure


async def _run_checks(
    app: AppContext, ids: list[int], total: int, concurrency: int, children: Sequence[Any]
) -> tuple[list[Any], str, WatcherError | None]:
    """Check ``ids`` here and collect the children's outcomes, with one progress bar for all."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from watcher.shards import check_with_shards

    async with app.services_factory() as services:
        console = Console(stderr=True)
        progress = Progress(
            TextColumn("checking"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            transient=True,
            disable=not console.is_terminal,
            console=console,
        )
        with progress:
            task = progress.add_task("", total=total)

            def advance(outcome: Any) -> None:
                progress.update(task, advance=1, description=outcome.source)

            outcomes, failure = await check_with_shards(
                services, ids, children, concurrency=concurrency, on_done=advance
            )
        delivered = ""
        if services.notifiers:
            delivered = _delivery_summary(await deliver_all(app.db, services.notifiers, app.now))
    return outcomes, delivered, failure


async def deliver_all(db: Database, notifiers: Sequence[Any], now: Callable[[], datetime]) -> list[Any]:
    """Send every delivery that is due now, batch after batch (failures wait for their retry)."""
    from watcher.notify.outbox import dispatch_pending

    reports = []
    while True:
        report = await dispatch_pending(db, notifiers, now)
        reports.append(report)
        if report.attempted < 100:
            return reports


def _delivery_summary(reports: Sequence[Any]) -> str:
    sent = sum(r.sent for r in reports)
    retrying = sum(r.retrying for r in reports)
    failed = sum(r.failed for r in reports)
    if not (sent or retrying or failed):
        return ""
    line = f"notifications: {sent} sent"
    if retrying:
        line += f", {retrying} to retry (`watcher deliveries`)"
    if failed:
        line += f", {failed} failed"
    return line


def _print_check_summary(app: AppContext, outcomes: Sequence[Any]) -> None:
    counts = Counter(o.status for o in outcomes)
    for outcome in outcomes:
        if outcome.status == "error":
            click.echo(f"error   {outcome.source}: {outcome.error}", err=True)
        elif outcome.status == "suspect":
            click.echo(f"suspect {outcome.source}: {outcome.error} (nothing reported)", err=True)
        elif outcome.status == "baseline":
            click.echo(f"baseline {outcome.source}: {outcome.items} items recorded (`watcher show {outcome.source}`)")
        if outcome.warning:  # a page too big for the reading budget, read in part
            click.echo(f"note    {outcome.source}: {outcome.warning}", err=True)
    changed = [o.source for o in outcomes if o.changes]
    # Read back rather than counted from the outcomes: moves between a site's pages were merged.
    reported = _changes_json(app, changed, since=None) if changed else []
    for obj in reported:
        click.echo(change_sentence(obj))
    n_changes = len(reported)
    parts = [f"{counts[s]} {s}" for s in ("changed", "baseline", "unchanged", "suspect", "error") if counts[s]]
    click.echo(f"checked {len(outcomes)} sources: {', '.join(parts)}; {n_changes} changes")


# -- reading results -----------------------------------------------------------------------


def _parse_since(text: str, now: datetime) -> datetime:
    try:
        return now - parse_duration(text)
    except ConfigError:
        pass
    try:
        when = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ConfigError(f"--since takes an ISO date/time or a duration like 7d, not {text!r}") from exc
    return when if when.tzinfo else when.astimezone()


def _changes_json(
    app: AppContext, refs: Sequence[str], since: datetime | None, person: str | None = None
) -> list[dict[str, Any]]:
    with app.db.session() as session:
        if person is not None:
            from watcher.people import sources_of_person

            owned = sources_of_person(session, person)
            names = {s.name for s in owned}
            if unknown := [ref for ref in refs if ref not in names and not any(ref == s.url for s in owned)]:
                raise ConfigError(f"{unknown[0]!r} is not a source of {person}")
            found = [s for s in owned if not refs or s.name in refs or s.url in refs]
        else:
            found = find_sources(session, refs, include_inactive=bool(refs))
        sources = {s.id: s for s in found}
        query = select(Change).where(Change.source_id.in_(sources)).order_by(Change.detected_at, Change.id)
        if since is not None:
            query = query.where(Change.detected_at >= since)
        else:
            latest = (
                select(func.max(Snapshot.id)).where(Snapshot.source_id.in_(sources)).group_by(Snapshot.source_id)
            )
            query = query.where(Change.snapshot_id.in_(latest))
        return [change_to_json(c, sources[c.source_id]) for c in session.scalars(query)]


@cli.command()
@click.argument("refs", nargs=-1)
@click.option("--since", help="An ISO date/time or a duration like 7d (default: each source's latest check).")
@click.option("--person", metavar="NAME", help="Only the changes of this person's or lab's sources.")
@_format_option()
@click.pass_obj
def diff(app: AppContext, refs: Sequence[str], since: str | None, person: str | None, fmt: str) -> None:
    """The changes recorded."""
    when = _parse_since(since, app.now()) if since else None
    changes = _changes_json(app, refs, when, person)
    if fmt == "json":
        _echo_json(changes)
        return
    if not changes:
        click.echo("no changes" + (f" since {when.isoformat(timespec='minutes')}" if when else " in the latest checks"))
    for obj in changes:
        click.echo(f"{obj['detected_at'][:16]}  {change_sentence(obj)}")


@cli.command()
@click.argument("ref", required=False)
@click.option("--person", metavar="NAME", help="A person's or lab's items across all their sources.")
@_format_option()
@click.pass_obj
def show(app: AppContext, ref: str | None, person: str | None, fmt: str) -> None:
    """The current items of a source (or of a person across their sources)."""
    if person is not None or ref is None:
        if person is None or ref is not None:
            raise ConfigError("name a source, or a person with --person NAME")
        _show_person(app, person, fmt)
        return
    with app.db.session() as session:
        (source,) = find_sources(session, [ref], include_inactive=True)
        current = select(Item).where(Item.source_id == source.id, Item.removed_at.is_(None))
        rows = session.scalars(current.order_by(Item.kind, Item.position)).all()
        items = [{"kind": row.kind, **item_fields(row.kind, row.fields)} for row in rows]
        extractor = (source.fetch_state or {}).get("extractor") or source.extractor
        name, url = source.name, source.url
    if fmt == "json":
        _echo_json({"source": name, "url": url, "extractor": extractor, "items": items})
        return
    _print_items(f"{name} ({url}) read by {extractor}", items)


def _show_person(app: AppContext, name: str, fmt: str) -> None:
    from watcher.people import person_view

    with app.db.session() as session:
        view = person_view(session, name)
    if fmt == "json":
        _echo_json(view)
        return
    sources = ", ".join(s["name"] for s in view["sources"])
    _print_items(f"{view['person']} ({view['kind']}): {sources}", view["items"], with_sources=True)
    for heading, titles in (("Only on their pages, in no index yet", view["only_on_pages"]),
                            ("In an index, missing from their pages", view["only_in_indexes"])):  # fmt: skip
        if titles:
            click.echo(f"\n{heading} ({len(titles)})")
            for title in titles:
                click.echo(f"  - {title}")


#: Headings of a source's current items (change reports say "New papers" instead).
ITEM_HEADINGS = {"paper": "Papers", "role": "Roles", "news": "News", "award": "Awards", "member": "People"}


def _print_items(header: str, items: Sequence[dict[str, Any]], *, with_sources: bool = False) -> None:
    from watcher.report import describe_item

    click.echo(header)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_kind.setdefault(item["kind"], []).append(item)
    if not items:
        click.echo("  (no items)")
    for kind, group in by_kind.items():
        click.echo(f"\n{ITEM_HEADINGS.get(kind, kind)} ({len(group)})")
        for item in group:
            line = f"  - {describe_item(kind, item)}"
            if with_sources:
                ids = ", ".join(f"{k} {v}" for k, v in (item.get("ids") or {}).items() if k in ("doi", "arxiv", "dblp"))
                line += f"  [{', '.join(item['sources'])}]" + (f" ({ids})" if ids else "")
            click.echo(line)


@cli.command()
@click.argument("location")
@click.option("--extractor", default="auto", show_default=True)
@click.option("--explain", is_flag=True, help="Also say how the page was read: each list, its kind and why.")
@_format_option()
@click.pass_obj
def extract(app: AppContext, location: str, extractor: str, explain: bool, fmt: str) -> None:
    """What an extractor reads from a URL, file, folder or github: repository (nothing is stored)."""
    from watcher.budget import ReadSettings, read_within
    from watcher.normalise import normalise_records

    doc = asyncio.run(_read_for_extract(app, location))
    config = app.config if app.config_path else None
    settings = ReadSettings.from_config(config.read if config else None)
    extraction = read_within(doc, extractor, settings, explain=explain)
    records = normalise_records(extraction.records)
    items = [{"kind": r.kind, **record_fields(r)} for r in records]
    if fmt == "json":
        output: dict[str, Any] = {
            "url": location, "extractor": extraction.extractor, "reason": extraction.reason, "items": items
        }
        if extraction.notes:
            output["notes"] = list(extraction.notes)
        if explain:
            output["explain"] = [dataclasses.asdict(report) for report in extraction.lists]
        _echo_json(output)
        return
    for note in extraction.notes:
        click.echo(f"note: {note}", err=True)
    _print_items(f"{location} read by {extraction.extractor} ({extraction.reason})", items)
    if explain:
        _print_explanation(extraction.lists)


def _print_explanation(lists: Sequence[Any]) -> None:
    click.echo("\nHow the page was read")
    if not lists:
        click.echo("  (this extractor reads fixed template fields; it has no lists to explain)")
    for report in lists:
        kind = f"{report.records} {report.kind}" if report.kind else "nothing"
        click.echo(f"  - {report.where}: {report.made_of} -> {kind} ({report.why})")


async def _read_for_extract(app: AppContext, location: str) -> Any:
    from watcher.pipeline import open_services, read_document, to_document
    from watcher.records import Document
    from watcher.sources import canonical_location

    path = Path(location).expanduser()
    if path.is_dir():
        return Document.from_folder(path, path.resolve().as_uri())
    url = canonical_location(location)
    # No database is needed to read a page: build the services without one.
    async with open_services(None, app.config if app.config_path else None, notifiers=()) as services:  # type: ignore[arg-type]
        fetched = await read_document(services, url)
    return to_document(url, fetched)


# -- people ---------------------------------------------------------------------------------


@cli.group()
def person() -> None:
    """People and labs: their sources read together, each paper reported once."""


@person.command("add")
@click.argument("name")
@click.argument("sources", nargs=-1)
@click.option("--lab", is_flag=True, help="A lab rather than a person.")
@click.option("--every", default=None, help="Check interval of sources this adds, e.g. 1d (default: 12h).")
@click.pass_obj
def person_add(app: AppContext, name: str, sources: Sequence[str], lab: bool, every: str | None) -> None:
    """Add a person (or give one more sources): watch names, URLs or source strings such as
    dblp:PID, arxiv:"Full Name", openalex:A…, orcid:0000-0000-0000-0000."""
    from watcher.people import add_person

    interval = parse_duration(every) if every else (app.config.every if app.config else timedelta(hours=12))
    with app.db.session() as session:
        found = add_person(session, name, sources, now=app.now(), kind="lab" if lab else "person", every=interval)
        owned = sorted(s.name for s in found.sources)
        click.echo(f"{found.name} ({found.kind}): {len(owned)} sources" + (f": {', '.join(owned)}" if owned else ""))


@person.command("list")
@_format_option()
@click.pass_obj
def person_list(app: AppContext, fmt: str) -> None:
    """The people and labs, their sources and how many papers they have."""
    from watcher.people import list_people

    with app.db.session() as session:
        rows = list_people(session)
    if fmt == "json":
        _echo_json(rows)
        return
    if not rows:
        click.echo("no people yet: `watcher person add NAME SOURCE...` or `people:` in the config")
    for row in rows:
        click.echo(f"{row['name']:<28} {row['kind']:<6} {row['papers']:>4} papers  {', '.join(row['sources'])}")


@person.command("show")
@click.argument("name")
@_format_option()
@click.pass_obj
def person_show(app: AppContext, name: str, fmt: str) -> None:
    """A person's items across their sources (as `watcher show --person NAME`)."""
    _show_person(app, name, fmt)


@cli.command("extractors")
def list_extractors() -> None:
    """The registered extractors, most specific first."""
    from extractors import REGISTRY

    for extractor in sorted(REGISTRY, key=lambda e: -e.priority):
        doc = (type(extractor).__doc__ or "").strip().splitlines()
        click.echo(f"{extractor.name:<16} v{extractor.version}  {doc[0] if doc else ''}")


# -- database and demo --------------------------------------------------------------------


@cli.group()
def db() -> None:
    """Database maintenance."""


@db.command("upgrade")
@click.pass_obj
def db_upgrade(app: AppContext) -> None:
    """Apply the database migrations (also done automatically on first use)."""
    database = app.db
    database.upgrade()
    click.echo(f"database {database.display_url} is up to date")


@cli.command()
@click.option("--keep", type=click.Path(file_okay=False), help="Keep the demo database in this folder.")
def demo(keep: str | None) -> None:
    """Run watcher offline on bundled example pages and print the change report."""
    from watcher.demo import run_demo

    run_demo(Path(keep) if keep else None, echo=click.echo)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: one-line errors, non-zero exit codes."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="watcher", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except WatcherError as exc:
        if debug:
            raise
        click.echo(f"watcher: error: {exc}", err=True)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
