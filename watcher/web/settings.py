"""What the dashboard runs with: address, token and write actions, from the command line, the
config's ``web:`` section and the environment, checked before anything listens."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass

from watcher.config import Config, WebConfig
from watcher.errors import ConfigError

__all__ = ["DEFAULT_TOKEN_ENV", "WebSettings", "is_loopback", "web_settings"]

#: Where the token is read from when the config names no variable of its own.
DEFAULT_TOKEN_ENV = "WATCHER_WEB_TOKEN"


@dataclass(frozen=True, kw_only=True)
class WebSettings:
    host: str = "127.0.0.1"
    port: int = 8465
    #: Every request must carry it when set (a bearer header or the login cookie).
    token: str | None = None
    allow_writes: bool = False

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _token(web: WebConfig, environ: Mapping[str, str]) -> str | None:
    name = web.token_env or DEFAULT_TOKEN_ENV
    token = environ.get(name, "").strip()
    if web.token_env and not token:
        raise ConfigError(f"web.token_env names {name}, which is not set (or empty) in the environment")
    return token or None


def web_settings(
    config: Config | None,
    *,
    host: str | None = None,
    port: int | None = None,
    allow_writes: bool | None = None,
    environ: Mapping[str, str] | None = None,
) -> WebSettings:
    """The settings to serve with; command-line values (not None) win over the config.

    Refuses (``ConfigError``) an address off loopback without a token, and write actions
    without a token: a page that can remove sources must not be open to whoever reaches it.
    """
    web = config.web if config else WebConfig()
    settings = WebSettings(
        host=host if host is not None else web.host,
        port=port if port is not None else web.port,
        token=_token(web, os.environ if environ is None else environ),
        allow_writes=allow_writes if allow_writes is not None else web.allow_writes,
    )
    if not 0 <= settings.port <= 65535:
        raise ConfigError(f"not a port: {settings.port}")
    if settings.token is None and not is_loopback(settings.host):
        raise ConfigError(
            f"refusing to serve on {settings.host} without a token: set {web.token_env or DEFAULT_TOKEN_ENV} "
            f"(or name another variable with web.token_env), or serve on 127.0.0.1"
        )
    if settings.token is None and settings.allow_writes:
        raise ConfigError(
            f"write actions need a token: set {web.token_env or DEFAULT_TOKEN_ENV} (or web.token_env), "
            f"or serve read-only"
        )
    return settings
