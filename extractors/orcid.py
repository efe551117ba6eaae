"""ORCID public records (``orcid:ID``): the JSON of the v3.0 ``/record`` endpoint.

Claims: ``orcid:`` sources; JSON documents with an ``orcid-identifier`` and an
``activities-summary``.

Reads: works become Papers (each group's preferred summary: title, year, journal title as the
venue, DOI and arXiv id from the external ids, the link); employments and educations become
Roles (the role title, or the department, at the organisation, with start and end dates);
distinctions become Awards (title, organisation, year). Identifier beyond the fields: the
work's ORCID path (``ID/work/PUT-CODE``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from extractors.base import Case
from extractors.indexes import IndexExtractor, split_doi
from watcher.errors import ExtractionError
from watcher.records import Award, Paper, Record, Role
from watcher.text import clean_text, find_arxiv

__all__ = ["CASES", "OrcidExtractor", "orcid_records"]


def orcid_records(text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
    """The works, roles and awards of one ORCID record, works with their ORCID paths."""
    try:
        record = json.loads(text)
    except ValueError as exc:
        raise ExtractionError(f"the ORCID record is not JSON: {exc}") from exc
    if not isinstance(record, dict) or "activities-summary" not in record:
        raise ExtractionError("not an ORCID record (no 'activities-summary')")
    activities = _mapping(record.get("activities-summary"))
    records: list[Record] = []
    ids: list[Mapping[str, str]] = []
    for summary in _work_summaries(activities):
        paper = _paper(summary)
        if paper is not None:
            records.append(paper)
            path = str(summary.get("path") or "").strip("/")
            ids.append({"orcid": path} if path else {})
    for section, default_title in (("employments", "Employment"), ("educations", "Education")):
        for summary in _affiliations(activities, section):
            records.append(_role(summary, default_title))
            ids.append({})
    for summary in _affiliations(activities, "distinctions"):
        if award := _award(summary):
            records.append(award)
            ids.append({})
    return records, ids


def _work_summaries(activities: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for group in _mapping(activities.get("works")).get("group") or ():
        summaries = [s for s in _mapping(group).get("work-summary") or () if isinstance(s, dict)]
        if summaries:
            # ORCID lists a group's versions with the preferred one first.
            yield summaries[0]


def _affiliations(activities: Mapping[str, Any], section: str) -> Iterator[Mapping[str, Any]]:
    summary_key = section.removesuffix("s") + "-summary"
    for group in _mapping(activities.get(section)).get("affiliation-group") or ():
        for entry in _mapping(group).get("summaries") or ():
            summary = _mapping(_mapping(entry).get(summary_key))
            if summary:
                yield summary


def _paper(summary: Mapping[str, Any]) -> Paper | None:
    title = clean_text(_value(_mapping(summary.get("title")).get("title")))
    if not title:
        return None
    doi = arxiv = None
    for external in _mapping(summary.get("external-ids")).get("external-id") or ():
        external = _mapping(external)
        if external.get("external-id-relationship") not in (None, "self"):
            continue  # an ISSN or the proceedings' DOI names what the work is part of
        kind, value = str(external.get("external-id-type") or "").lower(), str(external.get("external-id-value") or "")
        if kind == "doi":
            found_doi, found_arxiv = split_doi(value)
            doi, arxiv = doi or found_doi, arxiv or found_arxiv
        elif kind == "arxiv":
            arxiv = arxiv or find_arxiv(f"arXiv:{value.removeprefix('arXiv:')}")
    return Paper(
        title=title,
        venue=clean_text(_value(summary.get("journal-title"))) or None,
        year=_year(summary.get("publication-date")),
        url=_value(summary.get("url")) or None,
        doi=doi,
        arxiv=arxiv,
    )


def _role(summary: Mapping[str, Any], default_title: str) -> Role:
    organization = clean_text(_mapping(summary.get("organization")).get("name")) or None
    department = clean_text(summary.get("department-name")) or None
    title = clean_text(summary.get("role-title")) or department or default_title
    if department and title != department and organization:
        organization = f"{department}, {organization}"
    return Role(title=title, organization=organization, start=_date(summary.get("start-date")),
                end=_date(summary.get("end-date")))  # fmt: skip


def _award(summary: Mapping[str, Any]) -> Award | None:
    title = clean_text(summary.get("role-title"))
    if not title:
        return None
    organization = clean_text(_mapping(summary.get("organization")).get("name")) or None
    return Award(title=title, organization=organization, year=_year(summary.get("start-date")))


def _date(value: Any) -> str | None:
    """ORCID's fuzzy date (year, month, day; each may be missing) as YYYY, YYYY-MM or YYYY-MM-DD."""
    date = _mapping(value)
    parts = [_value(date.get(name)) for name in ("year", "month", "day")]
    if not parts[0]:
        return None
    known = [parts[0]] + [p.zfill(2) for p in parts[1:2] if p] + ([parts[2].zfill(2)] if parts[1] and parts[2] else [])
    return "-".join(known)


def _year(value: Any) -> int | None:
    year = _value(_mapping(value).get("year"))
    return int(year) if year.isdigit() else None


def _value(wrapped: Any) -> str:
    """ORCID wraps most scalars as ``{"value": …}``."""
    return str(_mapping(wrapped).get("value") or "") if isinstance(wrapped, dict) else ""


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


class OrcidExtractor(IndexExtractor):
    """ORCID records (orcid:ID): works, employments and educations as roles, distinctions as awards."""

    name = "orcid"
    url_patterns = (r"^orcid:",)
    markers = ('"orcid-identifier"',)
    head = 1000
    found = "an ORCID record"

    def read_answer(self, text: str) -> tuple[list[Record], list[Mapping[str, str]]]:
        return orcid_records(text)


CASES = (
    Case(
        fixture="orcid/record.json",
        url="orcid:0000-0003-4412-7790",
        content_type="application/vnd.orcid+json",
        claims=("orcid:0000-0003-4412-7790",),
        rejects=("https://orcid.org/0000-0003-4412-7790", "openalex:A5019283746"),
        notes="works in groups (the preferred version, DOI and arXiv ids, an ISSN left out), two "
        "employments (one current), an education, a distinction; fuzzy dates",
    ),
)
