"""Shared readers of markdown sources: YAML, front matter and front-matter values.

Not an extractor itself: the source-repository families (academicpages, Hugo Blox)
read their pages' front matter through these, so a value is read the same way in each.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from watcher.text import clean_text

__all__ = ["front_matter_text", "load_yaml", "parse_front_matter"]

# libyaml's loader is ~10x faster than the pure-Python one; both are safe loaders.
_YAML_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FRONT_MATTER = re.compile(r"\A\ufeff?\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def load_yaml(text: str) -> Any:
    """YAML as data (None when malformed): front matter and ``_config.yml`` are often hand-edited."""
    try:
        return yaml.load(text, Loader=_YAML_LOADER)
    except (yaml.YAMLError, ValueError):  # ValueError: an impossible date such as 2024-13-01
        return None


def parse_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """A markdown file's YAML front matter (empty when absent or malformed) and its body."""
    match = _FRONT_MATTER.match(text or "")
    if not match:
        return {}, text or ""
    data = load_yaml(match.group(1))
    return (data if isinstance(data, dict) else {}), text[match.end() :]


def front_matter_text(value: Any) -> str:
    """A front-matter value as clean text (dates and numbers included; lists joined)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(front_matter_text(v) for v in value)
    return clean_text(str(value).replace("\ufeff", ""))
