"""The reading budget: what reading one page may cost the extract stage, in size and in time.

Size. A page is cut before it is parsed, so that a 10 MB page of a million tiny elements
costs what a large real page costs: in markup, scripts, styles and comments are dropped
(they are never read), then the rest is cut at ``max_chars`` characters and at
``max_elements`` tags, at the start of a tag; in text (markdown, plain text, BibTeX, a
repository's files) at ``max_chars`` characters and ``max_lines`` lines, at the end of a
line. The page is then read as far as it goes, and the extraction's ``notes`` say what was
left out, so the check records "read in part" instead of failing.

Time. ``reading_deadline`` gives one page ``seconds`` of reading. The reading's loops call
``check_deadline``, which raises ``ReadingTimeout`` once the time is up (the cooperative
deadline); in a main thread a timer (SIGALRM) a little later interrupts whatever still runs,
a regular expression included (the backstop). ``ReadingTimeout`` is an ``ExtractionError``:
the pipeline records that source's check as failed and goes on with the next.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from watcher.errors import ConfigError, ReadingTimeout
from watcher.records import Document

if TYPE_CHECKING:
    from watcher.extract import Extraction

__all__ = ["ReadSettings", "bound_document", "check_deadline", "read_within", "reading_deadline"]

#: How long after the cooperative deadline the backstop timer interrupts a reading.
BACKSTOP_GRACE = 0.5


@dataclass(frozen=True, kw_only=True)
class ReadSettings:
    """The config's ``read:`` section: the budget of one page's reading."""

    #: Seconds one page may take to read.
    seconds: float = 5.0
    #: Characters of a page (markup or text) that are read; the rest is left out. A megabyte of
    #: dense citations (long author lists) takes the reading about 2.5 s; the longest real
    #: publication pages we know are a fifth of it.
    max_chars: int = 1_000_000
    #: Tags of a markup page that are read (five times those of the longest page we know).
    max_elements: int = 25_000
    #: Lines of a text page that are read.
    max_lines: int = 30_000

    def __post_init__(self) -> None:
        for name in ("seconds", "max_chars", "max_elements", "max_lines"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ConfigError(f"read setting {name} must be a positive number, got {value!r}")

    @classmethod
    def from_config(cls, section: Mapping[str, Any] | None) -> ReadSettings:
        return cls(**(section or {}))


def read_within(doc: Document, name: str, settings: ReadSettings, *, explain: bool = False) -> Extraction:
    """``extract_records`` on ``doc`` cut to the budget's size, within its time; what was cut is in ``notes``."""
    from watcher.extract import extract_records

    bounded, notes = bound_document(doc, settings)
    with reading_deadline(settings.seconds):
        extraction = extract_records(bounded, name, explain=explain)
    return replace(extraction, notes=notes) if notes else extraction


# ------------------------------------------------------------------ size


def bound_document(doc: Document, settings: ReadSettings) -> tuple[Document, tuple[str, ...]]:
    """``doc`` cut to the budget, and a note for each part that was cut."""
    if doc.files:
        files: dict[str, str] = {}
        notes: list[str] = []
        for path, text in doc.files.items():
            files[path], note = _bound(text, _is_markup_path(path), settings)
            if note:
                notes.append(f"{path}: {note}")
        changed = any(files[path] is not text for path, text in doc.files.items())
        return (replace(doc, files=files) if changed else doc), tuple(notes)
    text, note = _bound(doc.text, _is_markup(doc), settings)
    return (doc if text is doc.text else replace(doc, text=text)), (note,) if note else ()


def _is_markup(doc: Document) -> bool:
    kind = doc.content_type.lower()
    return "html" in kind or "xml" in kind


def _is_markup_path(path: str) -> bool:
    return path.lower().endswith((".html", ".htm", ".xml"))


def _bound(text: str, markup: bool, settings: ReadSettings) -> tuple[str, str | None]:
    if markup:
        tags = text.count("<")
        if len(text) <= settings.max_chars and tags <= settings.max_elements and _too_deep(text, tags) is None:
            return text, None
        return _bound_markup(text, settings)
    if len(text) <= settings.max_chars and text.count("\n") < settings.max_lines:
        return text, None
    return _bound_text(text, settings)


def _bound_markup(text: str, settings: ReadSettings) -> tuple[str, str | None]:
    kept = _without_unread_markup(text)
    elements = kept.count("<")
    cut = len(kept)
    if cut > settings.max_chars:
        cut = max(kept.rfind("<", 0, settings.max_chars), 0) or settings.max_chars
    if elements > settings.max_elements:
        cut = min(cut, _nth(kept, "<", settings.max_elements))
    if (deep := _too_deep(kept[:cut], elements)) is not None:
        cut = deep
    if cut >= len(kept):
        return kept, None
    return kept[:cut], f"read in part: the first {cut:,} of {len(text):,} characters of markup ({elements:,} tags)"


def _bound_text(text: str, settings: ReadSettings) -> tuple[str, str]:
    cut = min(len(text), settings.max_chars)
    lines = text.count("\n", 0, cut)
    if lines >= settings.max_lines:
        cut = _nth(text, "\n", settings.max_lines) + 1
    elif cut < len(text):
        cut = text.rfind("\n", 0, cut) + 1 or cut
    return text[:cut], f"read in part: the first {cut:,} of {len(text):,} characters"


def _nth(text: str, needle: str, count: int) -> int:
    """Where the ``count``-th (1-based) ``needle`` starts; len(text) when there are fewer."""
    at = -1
    for _ in range(count):
        at = text.find(needle, at + 1)
        if at < 0:
            return len(text)
    return at


#: Nesting past which markup is cut: parsing costs the square of the depth (60,000 nested
#: ``div`` took 3 s to parse), and no real page nests a hundredth of this.
MAX_DEPTH = 4_000
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*>")
#: Elements that never hold others (void) or whose end tag may be left out: they do not deepen a page.
_FLAT = frozenset((
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param",
    "keygen", "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup", "rt", "rp",
    "colgroup", "caption", "html", "head", "body",
))  # fmt: skip


def _too_deep(text: str, tags: int) -> int | None:
    """Where ``text``'s tags first nest deeper than ``MAX_DEPTH`` (at that tag's start), or None.

    Counted from the tags as written (a page that never closes its ``div`` counts as deep).
    """
    if tags <= MAX_DEPTH:
        return None
    depth = 0
    for match in _TAG.finditer(text):
        name = match[2].lower()
        if name in _FLAT or match[0].endswith("/>"):
            continue
        if match[1]:
            depth = max(depth - 1, 0)
            continue
        depth += 1
        if depth > MAX_DEPTH:
            return match.start()
    return None


#: Elements whose content a reading never reads, with how each ends.
_UNREAD = (("<script", "</script>"), ("<style", "</style>"), ("<!--", "-->"), ("<svg", "</svg>"))


def _without_unread_markup(text: str) -> str:
    """``text`` without scripts, styles, comments and inline SVG, in one linear pass.

    An element left open runs to the end of the page, as a browser reads it.
    """
    lower = text.lower()
    parts: list[str] = []
    at = 0
    while True:
        starts = [(found, end) for start, end in _UNREAD if (found := lower.find(start, at)) >= 0]
        if not starts:
            break
        begin, end = min(starts)
        parts.append(text[at:begin])
        close = lower.find(end, begin)
        if close < 0:
            at = len(text)
            break
        at = close + len(end)
    parts.append(text[at:])
    return "".join(parts)


# ------------------------------------------------------------------ time

#: The monotonic time at which the reading under way must stop (None: no deadline).
_DEADLINE: ContextVar[float | None] = ContextVar("watcher_reading_deadline", default=None)


class _Overtime(BaseException):
    """Raised inside a reading past its deadline: not an ``Exception``, so that an extractor's
    ``except Exception`` around a parser cannot swallow it; ``reading_deadline`` turns it into
    ``ReadingTimeout``."""


def check_deadline() -> None:
    """Stop the reading under way when it is past its deadline (cheap: call it in loops)."""
    limit = _DEADLINE.get()
    if limit is not None and time.monotonic() > limit:
        raise _Overtime


@contextmanager
def reading_deadline(seconds: float) -> Iterator[None]:
    """Give the reading inside ``seconds`` (an earlier deadline already set stays); past them it
    raises ``ReadingTimeout``."""
    limit = time.monotonic() + seconds
    outer = _DEADLINE.get()
    token = _DEADLINE.set(limit if outer is None else min(outer, limit))
    disarm = _arm_backstop(seconds + BACKSTOP_GRACE)
    try:
        yield
    except _Overtime:
        message = f"reading the page took longer than its time limit ({seconds:g} s); it was stopped"
        raise ReadingTimeout(message) from None
    finally:
        disarm()
        _DEADLINE.reset(token)


def _arm_backstop(seconds: float) -> Any:
    """A SIGALRM timer that interrupts the reading; a no-op where signals cannot be used
    (a thread other than the main one, a platform without ``setitimer``, a timer already set)."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        return lambda: None

    def interrupt(signum: int, frame: Any) -> None:
        raise _Overtime

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)

    def disarm() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

    return disarm
