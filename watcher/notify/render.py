"""How a message reads to a person: subject line, plain text and HTML from Jinja2 templates.

Everything that came from a page is untrusted. The HTML environment autoescapes, and a
link is only made from an ``http``/``https`` URL (``safe_link``), so a ``<script>`` title
shows as text and a ``javascript:`` link stays inert.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from watcher.notify.base import Message
from watcher.records import KINDS
from watcher.report import KIND_HEADINGS

__all__ = [
    "ChangeView",
    "KindSection",
    "SourceGroup",
    "arxiv_link",
    "doi_link",
    "group_changes",
    "render_change_html",
    "render_html",
    "render_text",
    "safe_link",
    "subject_line",
]

# A constant: templates are read once; autoescape for .html only (the .txt part is plain text).
TEMPLATES = Environment(
    loader=PackageLoader("watcher.notify", "templates"),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)

_VERBS = {"added": "new", "removed": "removed", "modified": "updated"}
_MAX_AUTHORS = 8
_MAX_SUBJECT_NAMES = 3
_NOUNS = {
    ("paper", True): ("new paper", "new papers"),
    ("paper", False): ("paper update", "paper updates"),
    ("role", True): ("role change", "role changes"),
    ("role", False): ("role change", "role changes"),
    ("news", True): ("news item", "news items"),
    ("news", False): ("news update", "news updates"),
    ("award", True): ("new award", "new awards"),
    ("award", False): ("award update", "award updates"),
    ("member", True): ("new member", "new members"),
    ("member", False): ("member change", "member changes"),
}


def safe_link(url: Any) -> str | None:
    """``url`` when it is an absolute http(s) URL, else None (never an active link)."""
    if not isinstance(url, str):
        return None
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return None
    if any(ch in url for ch in "\r\n\t\x00 "):
        return None
    return url


@dataclass(frozen=True)
class ChangeView:
    """One change ready for a template: what happened, a title, an optional safe link."""

    verb: str
    title: str
    link: str | None
    details: tuple[str, ...]
    diffs: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class KindSection:
    heading: str
    changes: tuple[ChangeView, ...]


@dataclass(frozen=True)
class SourceGroup:
    name: str
    label: str
    link: str | None
    sections: tuple[KindSection, ...]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _item_link(kind: str, item: Mapping[str, Any]) -> str | None:
    if link := safe_link(item.get("url")):
        return link
    if kind == "paper" and item.get("doi"):
        return doi_link(item["doi"])
    if kind == "paper" and item.get("arxiv"):
        return arxiv_link(item["arxiv"])
    return None


def doi_link(doi: Any) -> str:
    """The resolver URL of a DOI, quoted so that page text cannot leave the path."""
    return f"https://doi.org/{quote(str(doi), safe='/:;()._-')}"


def arxiv_link(arxiv: Any) -> str:
    """The abstract page of an arXiv id, quoted as ``doi_link`` is."""
    return f"https://arxiv.org/abs/{quote(str(arxiv), safe='/._-')}"


def _item_title(kind: str, item: Mapping[str, Any]) -> str:
    field_name = {"paper": "title", "role": "title", "news": "text", "award": "title", "member": "name"}[kind]
    return _text(item.get(field_name)) or "(untitled)"


def _item_details(kind: str, item: Mapping[str, Any]) -> tuple[str, ...]:
    if kind == "paper":
        authors = [str(a) for a in item.get("authors") or ()]
        shown = ", ".join(authors[:_MAX_AUTHORS]) + (" et al." if len(authors) > _MAX_AUTHORS else "")
        venue = " ".join(_text(item.get(k)) for k in ("venue", "year") if item.get(k))
        parts = [shown, venue]
    elif kind == "role":
        span = " – ".join(_text(item.get(k)) for k in ("start", "end") if item.get(k))
        parts = [_text(item.get("organization")), span]
    elif kind == "news":
        parts = [_text(item.get("date"))]
    elif kind == "award":
        parts = [_text(item.get("organization")), _text(item.get("year"))]
    else:
        parts = [_text(item.get("role"))]
    return tuple(p for p in parts if p)


def _change_view(obj: Mapping[str, Any]) -> ChangeView:
    kind, item = obj["kind"], obj.get("item") or {}
    before = obj.get("before") or {}
    diffs = tuple(
        (name, _text(before.get(name)) or "(none)", _text(value) or "(none)")
        for name, value in item.items()
        if obj["change"] == "modified" and before.get(name) != value
    )
    return ChangeView(
        verb=_VERBS.get(obj["change"], obj["change"]),
        title=_item_title(kind, item),
        link=_item_link(kind, item),
        details=_item_details(kind, item),
        diffs=diffs,
    )


def group_changes(changes: Iterable[Mapping[str, Any]], labels: Mapping[str, str]) -> tuple[SourceGroup, ...]:
    """Changes grouped by source (person/lab), then by kind in the order of ``KINDS``."""
    by_source: dict[str, list[Mapping[str, Any]]] = {}
    urls: dict[str, Any] = {}
    for obj in changes:
        by_source.setdefault(obj["source"], []).append(obj)
        urls.setdefault(obj["source"], obj.get("url"))
    groups = []
    for name, objs in by_source.items():
        sections = tuple(
            KindSection(
                heading=KIND_HEADINGS.get(kind, kind),
                changes=tuple(_change_view(o) for o in objs if o["kind"] == kind),
            )
            for kind in KINDS
            if any(o["kind"] == kind for o in objs)
        )
        groups.append(
            SourceGroup(name=name, label=labels.get(name) or name, link=safe_link(urls[name]), sections=sections)
        )
    return tuple(groups)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def subject_line(message: Message) -> str:
    """``watcher: 3 new papers, 1 role change — Jane Doe, Lab X`` (one line, no header injection)."""
    payload = message.payload or {}
    if message.type == "alert":
        return _one_line(f"watcher alert: {payload.get('source')} is {payload.get('reason')}")
    if message.type == "test":
        return "watcher: test message"
    counts = Counter((c["kind"], c["change"] == "added") for c in message.changes)
    phrases = []
    for kind in KINDS:
        for added in (True, False):
            if n := counts.get((kind, added)):
                singular, plural = _NOUNS[(kind, added)]
                phrases.append(f"{n} {singular if n == 1 else plural}")
    names = list(dict.fromkeys(message.label_of(c["source"]) for c in message.changes))
    shown = ", ".join(names[:_MAX_SUBJECT_NAMES])
    if len(names) > _MAX_SUBJECT_NAMES:
        shown += f" and {len(names) - _MAX_SUBJECT_NAMES} more"
    prefix = "watcher digest" if payload.get("type") == "digest" else "watcher"
    return _one_line(f"{prefix}: {', '.join(phrases) or 'no changes'} — {shown}")[:250]


def _context(message: Message) -> dict[str, Any]:
    return {
        "message": message,
        "subject": subject_line(message),
        "groups": group_changes(message.changes, message.labels),
        "payload": dict(message.payload or {}),
        "kind": message.type,
    }


def render_text(message: Message) -> str:
    """The plain-text body."""
    return TEMPLATES.get_template("email.txt").render(_context(message))


def render_html(message: Message) -> str:
    """The HTML body (autoescaped; links only to http(s) URLs)."""
    return TEMPLATES.get_template("email.html").render(_context(message))


def render_change_html(obj: Mapping[str, Any]) -> str:
    """One change as an HTML fragment (an Atom entry's content)."""
    return TEMPLATES.get_template("change.html").render(change=_change_view(obj), source=obj["source"])
