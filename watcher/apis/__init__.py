"""Index sources: a person's records in DBLP, arXiv, OpenAlex and ORCID, read through their public APIs.

Source strings, beside page URLs, files and ``github:`` repositories:

* ``dblp:PID``: the person's DBLP record (``https://dblp.org/pid/PID.xml``);
* ``arxiv:"Full Name"``: an author query on the arXiv API, newest first; ``arxiv:ORCID``: the
  arXiv author feed of the account that linked that ORCID iD;
* ``openalex:A…``: the works of an OpenAlex author, cursor-paged;
* ``orcid:0000-0000-0000-0000``: the public ORCID record (works, employments, educations,
  distinctions).

Each fetch returns the API's answers as a bundle of text files (one per request), which the
matching extractor in ``extractors/`` reads; the pipeline stores and compares it as it does a
repository's files. All HTTP goes through the ``Fetcher``, so its politeness, caps and errors
apply, with each API's published etiquette on top (``ApiSettings.gaps``). The base URLs are
overridable (``WATCHER_DBLP_URL``, ``WATCHER_ARXIV_API``, ``WATCHER_OPENALEX_API``,
``WATCHER_ORCID_API``) as ``WATCHER_GITHUB_API`` is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from watcher.errors import ConfigError

__all__ = [
    "API_KINDS",
    "ApiFetch",
    "ApiSettings",
    "ApiSpec",
    "api_settings",
    "fetch_api_source",
    "is_api_spec",
    "parse_api_spec",
]

API_KINDS = ("dblp", "arxiv", "openalex", "orcid")

_ORCID = re.compile(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]")
# DBLP person ids: "12/3456", "37/1234-2", "h/JaneDoe", "10/1/JungHoAhn" (slash-separated parts).
_DBLP_PID = re.compile(r"[A-Za-z0-9]+(?:/[A-Za-z0-9_=.\-]+)+")
_OPENALEX_AUTHOR = re.compile(r"A\d{4,12}")
#: An author name for the arXiv query: letters, spaces, dots, hyphens and apostrophes.
_NAME = re.compile(r"[^\W\d_][\w.' \-]{0,98}[\w.]")


@dataclass(frozen=True)
class ApiSpec:
    """A parsed index source: its API (``kind``) and whom it names there (``ident``)."""

    kind: str
    ident: str

    @property
    def by_orcid(self) -> bool:
        """An ``arxiv:`` source given as an ORCID iD (the author feed, not a name query)."""
        return self.kind == "arxiv" and _ORCID.fullmatch(self.ident) is not None

    def __str__(self) -> str:
        if self.kind == "arxiv" and not self.by_orcid:
            return f'arxiv:"{self.ident}"'
        return f"{self.kind}:{self.ident}"


def is_api_spec(text: str) -> bool:
    """Whether a source string names an index record (``dblp:``, ``arxiv:``, ``openalex:``, ``orcid:``)."""
    kind, colon, _ = text.strip().partition(":")
    return bool(colon) and kind.lower() in API_KINDS


def parse_api_spec(text: str) -> ApiSpec:
    """Parse an index source string; ``ConfigError`` says what is wrong and what is expected."""
    raw = text.strip()
    kind, _, rest = raw.partition(":")
    kind, ident = kind.lower(), rest.strip()
    if kind == "dblp":
        ident = ident.removeprefix("https://dblp.org/pid/").removesuffix(".xml").removesuffix(".html")
        if not _DBLP_PID.fullmatch(ident):
            raise ConfigError(f"bad DBLP source {text!r}: expected dblp:PID, e.g. dblp:12/3456")
    elif kind == "arxiv":
        ident = ident.strip('"').strip()
        if not (_ORCID.fullmatch(ident) or _NAME.fullmatch(ident)):
            raise ConfigError(f'bad arXiv source {text!r}: expected arxiv:"Full Name" or arxiv:ORCID')
        ident = " ".join(ident.split())
    elif kind == "openalex":
        ident = ident.removeprefix("https://openalex.org/").upper()
        if not _OPENALEX_AUTHOR.fullmatch(ident):
            raise ConfigError(f"bad OpenAlex source {text!r}: expected openalex:A… (an author id)")
    elif kind == "orcid":
        ident = ident.removeprefix("https://orcid.org/").upper()
        if not _ORCID.fullmatch(ident):
            raise ConfigError(f"bad ORCID source {text!r}: expected orcid:0000-0000-0000-0000")
    else:
        raise ConfigError(f"not an index source: {text!r} (use dblp:, arxiv:, openalex: or orcid:)")
    return ApiSpec(kind=kind, ident=ident)


#: Seconds between the starts of two requests to each API's host: arXiv asks for no more than
#: one request every three seconds, DBLP for a second between requests, OpenAlex allows ten
#: a second, ORCID's public API 24 (the Fetcher's own host gap applies when larger).
DEFAULT_GAPS: Mapping[str, float] = MappingProxyType({"dblp": 1.0, "arxiv": 3.0, "openalex": 0.1, "orcid": 1 / 24})


@dataclass(frozen=True, kw_only=True)
class ApiSettings:
    """Where each API is and how politely it is asked (built by ``api_settings``)."""

    dblp: str = "https://dblp.org"
    arxiv: str = "https://export.arxiv.org"
    openalex: str = "https://api.openalex.org"
    orcid: str = "https://pub.orcid.org"
    #: OpenAlex's "polite pool": a contact address sent with each request.
    openalex_mailto: str | None = None
    openalex_key: str | None = field(default=None, repr=False)
    gaps: Mapping[str, float] = field(default_factory=lambda: DEFAULT_GAPS)

    def base(self, kind: str) -> str:
        return str(getattr(self, kind)).rstrip("/")


_ENV_BASES = {
    "dblp": "WATCHER_DBLP_URL",
    "arxiv": "WATCHER_ARXIV_API",
    "openalex": "WATCHER_OPENALEX_API",
    "orcid": "WATCHER_ORCID_API",
}


def api_settings(environ: Mapping[str, str], apis: Mapping[str, Any] | None = None) -> ApiSettings:
    """The settings from the environment (base URLs) and the config's ``apis:`` section.

    ``apis: {openalex: {mailto: ADDRESS, api_key_env: NAME}}``: the key itself comes from the
    environment variable named there, never from the file.
    """
    bases = {kind: environ[name].rstrip("/") for kind, name in _ENV_BASES.items() if environ.get(name)}
    openalex = (apis or {}).get("openalex") or {}
    key_env = openalex.get("api_key_env")
    key = (environ.get(key_env) or "").strip() or None if key_env else None
    return ApiSettings(**bases, openalex_mailto=openalex.get("mailto") or None, openalex_key=key)


@dataclass(frozen=True)
class ApiFetch:
    """An index record after one check: the API's answers by request (``files``), the validators
    to send next time (``state``), and whether the API said nothing changed."""

    files: dict[str, str]
    state: dict[str, Any]
    not_modified: bool


async def fetch_api_source(
    fetcher: Any, spec: ApiSpec, *, state: Mapping[str, Any], settings: ApiSettings
) -> ApiFetch:
    """Read ``spec``'s record through its API (conditionally when the API gave validators)."""
    from watcher.apis import arxiv, dblp, openalex, orcid

    readers = {"dblp": dblp.fetch_person, "arxiv": arxiv.fetch_author, "openalex": openalex.fetch_works,
               "orcid": orcid.fetch_orcid_record}  # fmt: skip
    return await readers[spec.kind](fetcher, spec, state=state, settings=settings)
