"""The page templates (Jinja2, autoescaped) and the helpers they use to show untrusted text."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from watcher.notify.render import arxiv_link, doi_link, safe_link
from watcher.report import change_sentence, describe_item

__all__ = ["TEMPLATES", "emphasised", "page"]

def emphasised(text: str, fields: dict[str, Any]) -> Markup:
    """Escaped text in which the item's ``*title*`` (the wording of ``watcher diff``) becomes <em>.

    Only the title itself is looked for: a ``*`` in a page's own text stays a ``*``.
    """
    title = fields.get("title")
    html = str(escape(text))
    if isinstance(title, str) and title:
        html = html.replace(f"*{escape(title)}*", f"<em>{escape(title)}</em>", 1)
    return Markup(html)


def _when(value: Any) -> str:
    if value is None:
        return "never"
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.strftime("%Y-%m-%d %H:%M")


def _path(value: Any) -> str:
    """A name as one URL path segment (names may hold slashes and spaces)."""
    return quote(str(value), safe="")


def _paper_links(item: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, URL) of a paper: its page, its DOI, its arXiv entry; only http(s) links."""
    links = []
    if url := safe_link(item.get("url")):
        links.append(("link", url))
    if doi := item.get("doi"):
        links.append(("doi", doi_link(doi)))
    if arxiv := item.get("arxiv"):
        links.append(("arXiv", arxiv_link(arxiv)))
    return links


TEMPLATES = Environment(
    loader=PackageLoader("watcher.web", "templates"),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
TEMPLATES.filters.update(
    sentence=lambda obj: emphasised(change_sentence(obj), obj["item"]),
    describe=lambda item: emphasised(describe_item(item["kind"], item), item),
    link=safe_link,
    when=_when,
    path=_path,
    paper_links=_paper_links,
)
TEMPLATES.globals.update(urlencode=urlencode)


def page(request: Request, template: str, *, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a page with what every page needs: the settings, the CSRF token, where we are."""
    state = request.app.state
    html = TEMPLATES.get_template(template).render(
        request_path=request.url.path,
        writes=state.settings.allow_writes,
        csrf=state.csrf,
        signed_in=state.settings.token is not None,
        **context,
    )
    return HTMLResponse(html, status_code=status_code)
