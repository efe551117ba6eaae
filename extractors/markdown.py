"""Shared readers of markdown sources: YAML, front matter, front-matter values and markup as text.

Not an extractor itself: the source-repository families (academicpages, Hugo Blox)
read their pages' front matter through these, so a value is read the same way in each.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

import frontmatter
import yaml
from selectolax.lexbor import LexborHTMLParser

from watcher.text import clean_text, without_html_comments

__all__ = [
    "front_matter_text", "is_unpublished", "load_yaml", "markdown_to_text", "parse_front_matter", "without_liquid"
]

# libyaml's loader is ~10x faster than the pure-Python one; both are safe loaders.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LIQUID = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_KRAMDOWN_ATTR = re.compile(r"{:[^}]*}")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_EMOJI_CODE = re.compile(r":[a-z0-9_+\-]+:")
_MD_EMPHASIS = re.compile(r"(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*", re.M)


def load_yaml(text: str) -> Any:
    """YAML as data (None when malformed): front matter and ``_config.yml`` are often hand-edited."""
    try:
        return yaml.load(text, Loader=_YAML_LOADER)
    except (yaml.YAMLError, ValueError):  # ValueError: an impossible date such as 2024-13-01
        return None


class _YamlFrontMatter(frontmatter.YAMLHandler):
    """YAML between ``---`` lines, read by the fast safe loader (None when malformed)."""

    def load(self, fm: str, **_: object) -> Any:
        return load_yaml(fm)


class _TomlFrontMatter(frontmatter.default_handlers.BaseHandler):
    """Hugo's TOML between ``+++`` lines, read by the standard library (None when malformed)."""

    FM_BOUNDARY = re.compile(r"^\+{3,}[ \t]*$", re.M)

    def load(self, fm: str, **_: object) -> Any:
        try:
            return tomllib.loads(fm)
        except tomllib.TOMLDecodeError:
            return None


_FRONT_MATTER_HANDLERS = [_YamlFrontMatter(), _TomlFrontMatter()]


def parse_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """A markdown file's front matter (YAML, or Hugo's TOML) and its body; ({}, text) when there is
    none or it is broken, so that nothing of a hand-edited file is lost."""
    text = (text or "").lstrip("\ufeff \t\r\n")
    handler = frontmatter.detect_format(text, _FRONT_MATTER_HANDLERS)
    if handler is None:
        return {}, text
    try:
        head, body = handler.split(text)
    except ValueError:  # an opening line with no closing one
        return {}, text
    data = handler.load(head) if head.strip() else {}  # Jekyll's empty "---" pair is common
    if not isinstance(data, dict):
        return {}, text
    return data, body.lstrip("\r\n")


def is_unpublished(meta: Mapping[str, Any]) -> bool:
    """A draft the site does not show: Jekyll's ``published: false``, Hugo's ``draft: true``."""
    return meta.get("published") is False or meta.get("draft") is True


def front_matter_text(value: Any) -> str:
    """A front-matter value as clean text (dates and numbers included; lists joined)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(front_matter_text(v) for v in value)
    return clean_text(str(value).replace("\ufeff", ""))


def without_liquid(text: str) -> str:
    """A page's text without its Liquid tags and outputs (``{% for %}``, ``{{ page.title }}``)."""
    return _LIQUID.sub(" ", text)


def markdown_to_text(body: str) -> str:
    """Markdown/HTML/Liquid as plain text; line and paragraph breaks survive as newlines."""
    text = without_html_comments(body)
    text = _LIQUID.sub(" ", text)
    text = _KRAMDOWN_ATTR.sub("", text)
    text = _MD_IMAGE.sub(" ", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = re.sub(r"<br\s*/?>|</p>|</div>|</li>|</h\d>", "\n", text, flags=re.I)
    if "<" in text:
        text = _html_text(text)
    text = _EMOJI_CODE.sub("", text)
    # These two regexes have no literal prefix to scan for, so test for their marker characters first.
    if "*" in text or "_" in text:
        text = _MD_EMPHASIS.sub(r"\2", text)
    if "#" in text:
        text = _HEADING.sub("", text)
    lines = (clean_text(line) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _html_text(fragment: str) -> str:
    # Keep newlines: selectolax's text() keeps text nodes verbatim, so tags vanish and breaks stay.
    tree = LexborHTMLParser(f"<body>{fragment}</body>")
    body = tree.body
    return body.text(deep=True, separator="") if body is not None else fragment
