"""Who may read and write: the token, the login cookie, CSRF tokens, and the security headers.

With a token configured every request needs it: ``Authorization: Bearer TOKEN`` (the API, the
feeds, scripts) or the login cookie (pages). The cookie holds an HMAC of the token, not the
token; a CSRF token for the write forms is another HMAC of it. Every comparison is
``hmac.compare_digest``.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "COOKIE_NAME",
    "AuthMiddleware",
    "SecurityHeadersMiddleware",
    "csrf_token",
    "session_cookie_value",
    "token_matches",
]

COOKIE_NAME = "watcher_session"

#: Scripts come from nowhere; styles and images only from this server (charts are inline SVG
#: drawn with attributes, not style attributes).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

#: Paths open without a token: the login form and the stylesheet it uses.
_OPEN_PATHS = ("/login", "/static/")


def _mac(token: str, purpose: str) -> str:
    return hmac.new(token.encode(), f"watcher-web:{purpose}".encode(), hashlib.sha256).hexdigest()


def token_matches(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def session_cookie_value(token: str) -> str:
    """The login cookie's value: proves the token was given without holding it."""
    return _mac(token, "session")


def csrf_token(token: str) -> str:
    """The hidden field of every write form (a cross-site page cannot read it)."""
    return _mac(token, "csrf")


def _bearer(headers: Headers) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def is_authorised(request: Request, token: str) -> bool:
    if token_matches(_bearer(request.headers), token):
        return True
    cookie = request.cookies.get(COOKIE_NAME)
    return cookie is not None and hmac.compare_digest(cookie.encode(), session_cookie_value(token).encode())


class AuthMiddleware:
    """Answers 401 to any request without the token (or the cookie), except the login page."""

    def __init__(self, app: ASGIApp, *, token: str | None, login_page: Any) -> None:
        self.app, self.token, self.login_page = app, token, login_page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None or scope["path"].startswith(_OPEN_PATHS):
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        if is_authorised(request, self.token):
            await self.app(scope, receive, send)
            return
        response: Response
        if scope["path"].startswith("/api/"):
            response = JSONResponse(
                {"error": "unauthorised", "detail": "send Authorization: Bearer TOKEN"},
                status_code=401, headers={"WWW-Authenticate": 'Bearer realm="watcher"'},
            )
        else:
            response = self.login_page(request, status_code=401)
        await response(scope, receive, send)


class SecurityHeadersMiddleware:
    """Adds the strict CSP and its companions to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
