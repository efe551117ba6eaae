"""The one exception tree of watcher.

::

    WatcherError
    ├── ConfigError        bad config file, bad CLI argument, unknown extractor
    ├── FetchError         a page could not be fetched (has ``url`` and ``retryable``)
    ├── ExtractionError    an extractor could not read a document
    │   └── ReadingTimeout reading one page took longer than its time limit
    ├── StorageError       the database refused or is unreachable/locked
    └── NotifyError        a notification channel failed (has ``retryable``)

Third-party exceptions are wrapped at the stage boundary (``raise ... from exc``);
only the pipeline catches broadly, and it records each source's outcome.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ExtractionError",
    "FetchError",
    "NotifyError",
    "ReadingTimeout",
    "StorageError",
    "WatcherError",
]


class WatcherError(Exception):
    """Base class of every error watcher raises on purpose."""


class ConfigError(WatcherError):
    """The configuration or a command-line argument is invalid."""


class FetchError(WatcherError):
    """A document could not be fetched.

    ``retryable`` tells the scheduler whether trying again later can help
    (timeouts, 5xx, 429) or not (404, robots.txt disallow, body too large).
    """

    def __init__(self, url: str, message: str, *, retryable: bool = False, status: int | None = None) -> None:
        super().__init__(f"{url}: {message}")
        self.url = url
        self.retryable = retryable
        self.status = status


class ExtractionError(WatcherError):
    """An extractor could not read a document it was given."""


class ReadingTimeout(ExtractionError):
    """Reading one page took longer than its time limit (``watcher.budget``)."""


class StorageError(WatcherError):
    """The database could not be read or written."""


class NotifyError(WatcherError):
    """A notification could not be delivered."""

    def __init__(self, message: str, *, retryable: bool = True) -> None:
        super().__init__(message)
        self.retryable = retryable
