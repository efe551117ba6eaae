"""The dashboard's pages: what's new, sources, one source, one person, deliveries, login, and
the write actions (only when turned on, behind the token and a CSRF token).

Endpoints are plain functions: Starlette runs them in its thread pool, beside the event loop,
so a slow query never stalls the daemon sharing the loop.
"""

from __future__ import annotations

import hmac
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from watcher.config import parse_duration
from watcher.errors import ConfigError
from watcher.notify.outbox import retry_delivery
from watcher.people import person_view, sources_of_person
from watcher.records import KINDS
from watcher.sources import add_source, find_sources, remove_source
from watcher.store.models import Source
from watcher.web.auth import COOKIE_NAME, session_cookie_value, token_matches
from watcher.web.charts import bar_chart, sparkline, stacked_bar_chart
from watcher.web.queries import (
    CHANGE_TYPES,
    SOURCE_SORTS,
    ChangeFilter,
    SourceFilter,
    changes_page,
    delivery_rows,
    monthly_changes,
    parse_when,
    recent_snapshots,
    source_detail,
    source_items,
    source_rows,
    source_status,
    timeline,
)
from watcher.web.rendering import page

__all__ = ["login_page", "routes"]

#: Headings of current items by kind.
ITEM_HEADINGS = {"paper": "Papers", "role": "Roles", "news": "News", "award": "Awards", "member": "Members"}
#: What a finished write action says on the page it returns to (never text from the request).
NOTES = {
    "added": "Source added: it is checked on the daemon's next tick.",
    "removed": "Source removed: it is no longer checked; its history is kept.",
    "paused": "Paused: not checked until resumed.",
    "resumed": "Resumed: checked on the daemon's next tick.",
    "queued": "Queued: the daemon checks it on its next tick.",
    "retried": "The delivery is queued again.",
}


def _db(request: Request) -> Any:
    return request.app.state.db


def _now(request: Request) -> Any:
    return request.app.state.now()


def _error(request: Request, message: str, status_code: int) -> Response:
    return page(request, "error.html", status_code=status_code, message=message, title="Error")


def _param(request: Request, name: str) -> str | None:
    value = request.query_params.get(name, "").strip()
    return value or None


# -- what's new --------------------------------------------------------------------------------

_FILTER_KEYS = ("kind", "change", "source", "person", "tag", "since", "until", "q")


def change_filter(
    params: dict[str, str | None], now: Any, *, limit: int = 50, cursor: str | None = None
) -> ChangeFilter:
    """A ``ChangeFilter`` from query parameters (shared by the page and the API)."""
    return ChangeFilter(
        kind=params.get("kind"),
        change=params.get("change"),
        source=params.get("source"),
        person=params.get("person"),
        tag=params.get("tag"),
        since=parse_when(params["since"], now) if params.get("since") else None,
        until=parse_when(params["until"], now) if params.get("until") else None,
        q=params.get("q"),
        limit=limit,
        cursor=cursor,
    )


def _grouped(changes: list[dict[str, Any]]) -> list[tuple[str, list[tuple[dict[str, Any], list[dict[str, Any]]]]]]:
    """Changes by day, then by person (or source when it has none), in the order given."""
    days: dict[str, dict[tuple[str, str], list[dict[str, Any]]]] = {}
    for obj in changes:
        who = ("person", obj["person"]) if obj.get("person") else ("source", obj["source"])
        days.setdefault(obj["detected_at"][:10], {}).setdefault(who, []).append(obj)
    return [
        (day, [({"type": who[0], "name": who[1]}, objs) for who, objs in groups.items()])
        for day, groups in days.items()
    ]


def whats_new(request: Request) -> Response:
    params = {key: _param(request, key) for key in _FILTER_KEYS}
    try:
        limit = int(_param(request, "limit") or 50)
        if limit > 200:
            raise ConfigError("a page shows at most 200 changes")
        filt = change_filter(params, _now(request), limit=limit, cursor=_param(request, "cursor"))
        with _db(request).session() as session:
            changes, next_cursor = changes_page(session, filt)
    except (ConfigError, ValueError) as exc:
        return _error(request, str(exc), 400)
    kept = {k: v for k, v in {**params, "limit": _param(request, "limit")}.items() if v}
    return page(
        request, "whats_new.html", title="What's new", params=params, kinds=KINDS, change_types=CHANGE_TYPES,
        days=_grouped(changes), count=len(changes),
        older=f"/?{urlencode({**kept, 'cursor': next_cursor})}" if next_cursor else None,
        newest=f"/?{urlencode(kept)}" if filt.cursor else None,
    )  # fmt: skip


# -- sources ----------------------------------------------------------------------------------


def sources(request: Request) -> Response:
    try:
        page_number = max(int(_param(request, "page") or 1), 1)
        sort = _param(request, "sort") or "name"
        filt = SourceFilter(
            status=_param(request, "status"), q=_param(request, "q"), sort=sort,
            descending=_param(request, "dir") == "desc", offset=(page_number - 1) * 100, limit=100,
        )  # fmt: skip
        with _db(request).session() as session:
            rows, total = source_rows(session, filt, _now(request))
    except (ConfigError, ValueError) as exc:
        return _error(request, str(exc), 400)
    base = {k: v for k, v in {"status": filt.status, "q": filt.q}.items() if v}

    def sort_link(key: str) -> str:
        descending = key == filt.sort and not filt.descending
        return "/sources?" + urlencode({**base, "sort": key, "dir": "desc" if descending else "asc"})

    paging = {**base, "sort": filt.sort, "dir": "desc" if filt.descending else "asc"}
    return page(
        request, "sources.html", title="Sources", rows=rows, total=total, filt=filt,
        sort_links={key: sort_link(key) for key in SOURCE_SORTS},
        sparks={row.source.id: sparkline(row.weekly, f"changes per week, last {len(row.weekly)} weeks")
                for row in rows},
        previous=f"/sources?{urlencode({**paging, 'page': page_number - 1})}" if page_number > 1 else None,
        following=f"/sources?{urlencode({**paging, 'page': page_number + 1})}" if filt.offset + len(rows) < total
        else None,
        note=NOTES.get(_param(request, "note") or ""),
    )  # fmt: skip


def _by_kind(items: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        groups[item["kind"]].append(item)
    return [(ITEM_HEADINGS[kind], groups[kind]) for kind in KINDS if groups.get(kind)]


def _papers_per_year(items: list[dict[str, Any]]) -> dict[str, int]:
    years = Counter(str(i["year"]) for i in items if i["kind"] == "paper" and str(i.get("year") or "").isdigit())
    if not years:
        return {}
    first, last = int(min(years)), int(max(years))
    return {str(y): years.get(str(y), 0) for y in range(first, last + 1)}


def _source_facts(source: Source) -> dict[str, Any]:
    status, reason = source_status(source)
    state = source.fetch_state or {}
    return {
        "source": source, "status": status, "reason": reason,
        "extractor": state.get("extractor") or source.extractor,
        "extractor_version": state.get("extractor_version"),
        "extractor_reason": state.get("reason") or (
            f"set to {source.extractor} for this source" if source.extractor != "auto" else None
        ),
    }  # fmt: skip


def source_page(request: Request) -> Response:
    name = request.path_params["name"]
    with _db(request).session() as session:
        source = source_detail(session, name)
        if source is None:
            return _error(request, f"no source named {name!r}", 404)
        items = source_items(session, source)
        months = monthly_changes(session, [source.id])
        history = timeline(session, [source.id])
        checks = recent_snapshots(session, source.id)
        facts = _source_facts(source)
    return page(
        request, "source.html", title=source.name, **facts, groups=_by_kind(items), history=history, checks=checks,
        monthly=stacked_bar_chart(months, f"changes per month of {source.name}, by kind"),
        yearly=bar_chart(_papers_per_year(items), f"papers per year listed by {source.name}"),
        note=NOTES.get(_param(request, "note") or ""),
    )  # fmt: skip


def person_page(request: Request) -> Response:
    name = request.path_params["name"]
    with _db(request).session() as session:
        try:
            view = person_view(session, name)
            owned = sources_of_person(session, name)
        except ConfigError:
            return _error(request, f"no person or label {name!r}", 404)
        ids = [s.id for s in owned]
        months = monthly_changes(session, ids)
        history = timeline(session, ids)
        facts = [_source_facts(s) for s in owned]
    return page(
        request, "person.html", title=view["person"], view=view, sources=facts, groups=_by_kind(view["items"]),
        history=history, monthly=stacked_bar_chart(months, f"changes per month of {view['person']}, by kind"),
        yearly=bar_chart(_papers_per_year(view["items"]), f"papers per year of {view['person']}"),
    )  # fmt: skip


def deliveries(request: Request) -> Response:
    with _db(request).session() as session:
        rows = delivery_rows(session)
    note = NOTES.get(_param(request, "note") or "")
    return page(request, "deliveries.html", title="Deliveries", rows=rows, note=note)


# -- login ------------------------------------------------------------------------------------


def _local_path(target: str | None) -> str:
    """Where to go after signing in: a path on this server only."""
    if not target or not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        return "/"
    return target


def login_page(request: Request, *, status_code: int = 200, failed: bool = False) -> Response:
    target = request.query_params.get("next") or (request.url.path if request.url.path != "/login" else "/")
    return page(request, "login.html", status_code=status_code, title="Sign in", target=_local_path(target),
                failed=failed)  # fmt: skip


async def login(request: Request) -> Response:
    token = request.app.state.settings.token
    if request.method == "GET":
        return login_page(request)
    form = await request.form()
    if token is None or not token_matches(str(form.get("token") or ""), token):
        return login_page(request, status_code=401, failed=True)
    response = RedirectResponse(_local_path(str(form.get("next") or "/")), status_code=303)
    response.set_cookie(
        COOKIE_NAME, session_cookie_value(token), httponly=True, samesite="strict",
        secure=request.url.scheme == "https", max_age=30 * 86400,
    )  # fmt: skip
    return response


async def logout(request: Request) -> Response:
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE_NAME)
    return response


# -- write actions ----------------------------------------------------------------------------


async def _write_form(request: Request) -> dict[str, str] | Response:
    """The form of a write action, or the answer refusing it (writes off, bad CSRF token, other origin)."""
    state = request.app.state
    if not state.settings.allow_writes:
        return _error(request, "write actions are off: start with --allow-writes (or web: {allow_writes: true})", 403)
    origin = request.headers.get("origin")
    if origin and origin != f"{request.url.scheme}://{request.url.netloc}":
        return _error(request, "this form was sent from another site", 403)
    form = {k: str(v) for k, v in (await request.form()).items()}
    if not hmac.compare_digest(form.get("csrf", "").encode(), state.csrf.encode()):
        return _error(request, "the form's CSRF token is missing or wrong: reload the page and try again", 403)
    return form


def _to_source(name: str, note: str) -> RedirectResponse:
    return RedirectResponse(f"/source/{quote(name, safe='')}?note={note}", status_code=303)


async def action(request: Request) -> Response:
    form = await _write_form(request)
    if isinstance(form, Response):
        return form
    verb = request.path_params["verb"]
    try:
        return await _run_action(request, verb, form)
    except (ConfigError, ValueError) as exc:
        return _error(request, str(exc), 400)


async def _run_action(request: Request, verb: str, form: dict[str, str]) -> Response:
    from starlette.concurrency import run_in_threadpool

    db, now = _db(request), _now(request)

    def run() -> Response:
        with db.session() as session:
            if verb == "retry":
                if retry_delivery(session, int(form.get("id", "0")), now) is None:
                    raise ConfigError("no such delivery waiting to be sent")
                return RedirectResponse("/deliveries?note=retried", status_code=303)
            if verb == "add":
                every = parse_duration(form["every"]) if form.get("every") else timedelta(hours=12)
                added = add_source(session, form.get("location", "").strip(), now=now, name=form.get("name") or None,
                                   every=every, label=form.get("label") or None)  # fmt: skip
                return _to_source(added.name, "added")
            name = form.get("name", "")
            if verb == "remove":
                remove_source(session, name)
                return RedirectResponse("/sources?note=removed", status_code=303)
            (source,) = find_sources(session, [name])
            if verb == "pause":
                source.paused = True
            elif verb == "resume":
                source.paused = False
            else:  # check now: due at once; the daemon's next tick claims it
                source.next_due_at = now
            return _to_source(source.name, {"pause": "paused", "resume": "resumed", "check": "queued"}[verb])

    return await run_in_threadpool(run)


def routes() -> list[Route]:
    return [
        Route("/", whats_new),
        Route("/sources", sources),
        Route("/source/{name:path}", source_page),
        Route("/person/{name:path}", person_page),
        Route("/deliveries", deliveries),
        Route("/login", login, methods=["GET", "POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/actions/{verb:str}", action, methods=["POST"]),
    ]
