"""The JSON API under ``/api/v1/``: the same change objects as ``watcher diff --format json``,
the sources, one source's items as ``watcher show --format json``, and its OpenAPI document."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from watcher import __version__
from watcher.errors import ConfigError
from watcher.records import KINDS
from watcher.web.pages import change_filter
from watcher.web.queries import (
    CHANGE_TYPES,
    MAX_LIMIT,
    SourceFilter,
    changes_page,
    source_detail,
    source_items,
    source_rows,
)

__all__ = ["OPENAPI", "routes"]


def _problem(message: str, status_code: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status_code)


def _params(request: Request, *names: str) -> dict[str, str | None]:
    return {name: (request.query_params.get(name) or "").strip() or None for name in names}


def _limit(request: Request, default: int, maximum: int) -> int:
    raw = request.query_params.get("limit") or str(default)
    if not raw.isdigit() or not 1 <= int(raw) <= maximum:
        raise ConfigError(f"limit is a whole number from 1 to {maximum}, not {raw!r}")
    return int(raw)


def changes(request: Request) -> JSONResponse:
    params = _params(request, "since", "kind", "change", "source", "person", "tag", "until", "q", "cursor")
    try:
        filt = change_filter(params, request.app.state.now(), limit=_limit(request, 50, MAX_LIMIT),
                             cursor=params["cursor"])  # fmt: skip
        with request.app.state.db.session() as session:
            found, next_cursor = changes_page(session, filt)
    except ConfigError as exc:
        return _problem(str(exc), 400)
    return JSONResponse({"changes": found, "next": next_cursor})


def _name_cursor(name: str) -> str:
    return base64.urlsafe_b64encode(name.encode()).decode().rstrip("=")


def _name_after(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise ConfigError(f"not a cursor from this server: {cursor!r}") from exc


def sources(request: Request) -> JSONResponse:
    params = _params(request, "status", "q", "cursor")
    try:
        limit = _limit(request, 100, 1000)
        after = _name_after(params["cursor"]) if params["cursor"] else None
        # One more than asked: whether it exists says whether there is a next page.
        filt = SourceFilter(status=params["status"], q=params["q"], limit=limit + 1, after=after)
        with request.app.state.db.session() as session:
            rows, total = source_rows(session, filt, request.app.state.now())
            listed = [row.to_json() for row in rows[:limit]]
    except ConfigError as exc:
        return _problem(str(exc), 400)
    next_cursor = _name_cursor(listed[-1]["name"]) if len(rows) > limit else None
    return JSONResponse({"sources": listed, "total": total, "next": next_cursor})


def one_source(request: Request) -> JSONResponse:
    name = request.path_params["name"]
    with request.app.state.db.session() as session:
        source = source_detail(session, name)
        if source is None:
            return _problem(f"no source named {name!r}", 404)
        items = source_items(session, source)
        extractor = (source.fetch_state or {}).get("extractor") or source.extractor
        return JSONResponse({"source": source.name, "url": source.url, "extractor": extractor, "items": items})


def openapi(request: Request) -> JSONResponse:
    return JSONResponse(OPENAPI)


def _query(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string"}}  # fmt: skip


_ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_ERROR = {"description": "A bad parameter", "content": _ERROR_BODY}
_NULLABLE_TEXT = {"type": ["string", "null"]}

#: The OpenAPI 3.1 document of the routes above (a test checks it lists exactly them).
OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "watcher", "version": __version__,
             "description": "What watcher has recorded: changes, sources and their current items."},
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                       "description": "Needed when the server has a token (WATCHER_WEB_TOKEN)."}},
        "schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
            "Change": {
                "type": "object",
                "description": "One change, exactly as `watcher diff --format json` prints it.",
                "required": ["source", "url", "kind", "change", "item", "detected_at", "person"],
                "properties": {
                    "source": {"type": "string"}, "url": {"type": "string"},
                    "kind": {"enum": list(KINDS)}, "change": {"enum": list(CHANGE_TYPES)},
                    "item": {"type": "object"}, "before": {"type": "object"},
                    "detected_at": {"type": "string", "format": "date-time"}, "person": _NULLABLE_TEXT,
                    "ids": {"type": "object"},
                },
            },
            "Source": {
                "type": "object",
                "required": ["name", "url", "status", "items"],
                "properties": {
                    "name": {"type": "string"}, "url": {"type": "string"}, "person": _NULLABLE_TEXT,
                    "tags": {"type": "array", "items": {"type": "string"}}, "extractor": {"type": "string"},
                    "status": {"enum": ["ok", "failing", "suspect", "paused", "removed", "new"]},
                    "reason": _NULLABLE_TEXT, "items": {"type": "integer"},
                    "items_by_kind": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "last_checked_at": _NULLABLE_TEXT, "last_status": _NULLABLE_TEXT, "next_due_at": _NULLABLE_TEXT,
                    "failures": {"type": "integer"}, "active": {"type": "boolean"}, "paused": {"type": "boolean"},
                },
            },
        },
    },
    "security": [{}, {"bearer": []}],
    "paths": {
        "/api/v1/changes": {"get": {
            "summary": "Recorded changes, newest first, a page at a time",
            "parameters": [
                _query("since", "An ISO date/time or a duration back from now, like 7d"),
                _query("until", "An ISO date/time or a duration back from now"),
                _query("kind", "Only this kind", {"enum": list(KINDS)}),
                _query("change", "Only this change", {"enum": list(CHANGE_TYPES)}),
                _query("source", "Only this source (by name)"),
                _query("person", "Only this person's or lab's sources (a person's name or a label)"),
                _query("tag", "Only sources with this tag"),
                _query("q", "Only changes whose item text contains this"),
                _query("limit", "Changes per page", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                                                      "default": 50}),
                _query("cursor", "The `next` of the previous page (opaque)"),
            ],
            "responses": {
                "200": {"description": "A page of changes", "content": {"application/json": {"schema": {
                    "type": "object", "required": ["changes", "next"],
                    "properties": {"changes": {"type": "array", "items": {"$ref": "#/components/schemas/Change"}},
                                   "next": _NULLABLE_TEXT}}}}},
                "400": _ERROR,
            },
        }},
        "/api/v1/sources": {"get": {
            "summary": "The sources by name, with their health and item counts, a page at a time",
            "parameters": [
                _query("status", "Only sources in this state",
                       {"enum": ["ok", "failing", "suspect", "paused", "removed"]}),
                _query("q", "Only sources whose name, URL or label contains this"),
                _query("limit", "Sources per page", {"type": "integer", "minimum": 1, "maximum": 1000,
                                                      "default": 100}),
                _query("cursor", "The `next` of the previous page (opaque)"),
            ],
            "responses": {
                "200": {"description": "A page of sources", "content": {"application/json": {"schema": {
                    "type": "object", "required": ["sources", "total", "next"],
                    "properties": {"sources": {"type": "array", "items": {"$ref": "#/components/schemas/Source"}},
                                   "total": {"type": "integer"}, "next": _NULLABLE_TEXT}}}}},
                "400": _ERROR,
            },
        }},
        "/api/v1/sources/{name}": {"get": {
            "summary": "A source's current items, as `watcher show --format json` prints them",
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "The source and its items", "content": {"application/json": {"schema": {
                    "type": "object", "required": ["source", "url", "extractor", "items"],
                    "properties": {"source": {"type": "string"}, "url": {"type": "string"},
                                   "extractor": {"type": "string"},
                                   "items": {"type": "array", "items": {"type": "object"}}}}}}},
                "404": {"description": "No source has this name", "content": _ERROR_BODY},
            },
        }},
        "/api/v1/openapi.json": {"get": {
            "summary": "This document",
            "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}},
        }},
    },
}  # fmt: skip


def routes() -> list[Route]:
    return [
        Route("/api/v1/changes", changes),
        Route("/api/v1/sources", sources),
        Route("/api/v1/sources/{name:path}", one_source),
        Route("/api/v1/openapi.json", openapi),
    ]
