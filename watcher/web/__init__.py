"""The web dashboard and JSON API: ``watcher serve`` and ``watcher daemon --web``.

* ``settings``: address, token and write actions, checked before anything listens;
* ``auth``: the token, the login cookie, CSRF tokens, the security headers;
* ``queries``: what the pages and the API read (bounded queries, keyset pages);
* ``pages``, ``api``: the routes; ``charts``: inline SVG; ``rendering``: the templates;
* ``app``: the Starlette application and its uvicorn server.
"""

from watcher.web.settings import WebSettings, web_settings

__all__ = ["WebSettings", "web_settings"]
