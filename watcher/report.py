"""How a recorded change reads: the diff JSON contract and one-line text summaries.

``change_to_json`` is the one place that builds the external JSON object of a change;
``watcher diff --format json``, webhooks and feeds all use it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from watcher.records import KINDS, paper_ids
from watcher.store.models import Change, Source

__all__ = ["KIND_HEADINGS", "change_sentence", "change_to_json", "describe_item", "item_fields"]

KIND_HEADINGS = {
    "paper": "New papers",
    "role": "Role changes",
    "news": "News",
    "award": "Awards",
    "member": "People",
}


def item_fields(kind: str, fields: dict[str, Any] | None) -> dict[str, Any]:
    """The contract's fields of a kind, absent ones null, nothing else."""
    fields = fields or {}
    return {f.name: fields.get(f.name) for f in dataclasses.fields(KINDS[kind])}


def change_to_json(change: Change, source: Source) -> dict[str, Any]:
    """One change as the JSON object of the external contract.

    Beside the contract's fields: ``person``, the person or lab the source belongs to (its
    label when no person owns it; null when neither), and for papers ``ids``, the identifiers
    found across the person's sources (DOI, arXiv id, DBLP key, OpenAlex id …), or those of the
    item itself for a source without a person.
    """
    current = change.after if change.change != "removed" else change.before
    obj: dict[str, Any] = {
        "source": source.name,
        "url": source.url,
        "kind": change.kind,
        "change": change.change,
        "item": item_fields(change.kind, current),
    }
    if change.change == "modified":
        obj["before"] = item_fields(change.kind, change.before)
    obj["detected_at"] = change.detected_at.isoformat()
    obj["person"] = source.person_name
    if change.kind == "paper":
        obj["ids"] = dict(change.ids) if change.ids else paper_ids(current or {})
    return obj


def describe_item(kind: str, fields: dict[str, Any]) -> str:
    """One item as a short phrase: "*Title* (NeurIPS 2026)", "Postdoc at MIT (2024-06 – )"."""
    if kind == "paper":
        venue = " ".join(str(p) for p in (fields.get("venue"), fields.get("year")) if p)
        if venue and str(fields.get("year") or "") in str(fields.get("venue") or "") and fields.get("year"):
            venue = str(fields.get("venue"))
        return f"*{fields.get('title')}*" + (f" ({venue})" if venue else "")
    if kind == "role":
        org = f" at {fields['organization']}" if fields.get("organization") else ""
        span = " – ".join(str(p) for p in (fields.get("start"), fields.get("end")) if p)
        return f"{fields.get('title')}{org}" + (f" ({span})" if span else "")
    if kind == "news":
        return (f"[{fields['date']}] " if fields.get("date") else "") + str(fields.get("text"))
    if kind == "award":
        return str(fields.get("title")) + (f" ({fields['year']})" if fields.get("year") else "")
    return str(fields.get("name")) + (f", {fields['role']}" if fields.get("role") else "")


_VERBS = {
    ("paper", "added"): "posted a new paper",
    ("role", "added"): "has a new role",
    ("news", "added"): "posted news",
    ("award", "added"): "received an award",
    ("member", "added"): "has a new member",
}


def change_sentence(change: dict[str, Any]) -> str:
    """A human sentence for one change JSON object.

    "Jane Doe posted a new paper: *Title* (NeurIPS 2026)".
    """
    who = change.get("person") or change["source"]
    kind, what = change["kind"], change["change"]
    item = change["item"]
    if what == "added":
        return f"{who} {_VERBS[(kind, what)]}: {describe_item(kind, item)}"
    if what == "removed":
        return f"{who} no longer lists {kind}: {describe_item(kind, item)}"
    before = change.get("before") or {}
    diffs = [f"{k}: {before.get(k)!r} → {v!r}" for k, v in item.items() if before.get(k) != v]
    return f"{who} updated {kind} {describe_item(kind, item)} ({'; '.join(diffs)})"
