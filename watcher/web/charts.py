"""Charts as inline SVG drawn on the server: no script, no style attributes (the CSP allows
neither), every label escaped. Colours come from the stylesheet by class (``k-paper`` …)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from watcher.records import KINDS

__all__ = ["bar_chart", "sparkline", "stacked_bar_chart"]

_WIDTH, _HEIGHT, _LEFT, _BOTTOM, _TOP = 640, 200, 32, 36, 12


def _svg(body: str, label: str, width: int = _WIDTH, height: int = _HEIGHT, css: str = "chart") -> Markup:
    return Markup(
        f'<svg class="{css}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>{body}</svg>'
    )


def _axes(top: int, labels: Sequence[str], step: float) -> str:
    parts = [
        f'<line class="axis" x1="{_LEFT}" y1="{_HEIGHT - _BOTTOM}" x2="{_WIDTH}" y2="{_HEIGHT - _BOTTOM}"/>',
        f'<text class="tick" x="{_LEFT - 4}" y="{_TOP + 4}" text-anchor="end">{top}</text>',
        f'<text class="tick" x="{_LEFT - 4}" y="{_HEIGHT - _BOTTOM}" text-anchor="end">0</text>',
    ]
    # At most about twelve labels fit under the bars.
    every = max(1, round(len(labels) / 12))
    for i, label in enumerate(labels):
        if i % every == 0:
            x = _LEFT + step * (i + 0.5)
            y = _HEIGHT - _BOTTOM + 14
            parts.append(f'<text class="tick" x="{x:.1f}" y="{y}" text-anchor="middle">{escape(label)}</text>')
    return "".join(parts)


def stacked_bar_chart(series: Mapping[str, Counter[str]], label: str) -> Markup:
    """One bar per key (a month), stacked by kind, with a legend of the kinds present."""
    if not series:
        return Markup('<p class="empty">nothing recorded yet</p>')
    keys = list(series)
    top = max(sum(c.values()) for c in series.values()) or 1
    step = (_WIDTH - _LEFT) / len(keys)
    plot = _HEIGHT - _BOTTOM - _TOP
    bars = []
    for i, key in enumerate(keys):
        y = float(_HEIGHT - _BOTTOM)
        for kind in KINDS:
            n = series[key].get(kind, 0)
            if not n:
                continue
            h = plot * n / top
            y -= h
            bars.append(
                f'<rect class="k-{kind}" x="{_LEFT + step * i + step * 0.1:.1f}" y="{y:.1f}" '
                f'width="{step * 0.8:.1f}" height="{h:.1f}"><title>{escape(key)}: {n} {kind}</title></rect>'
            )
    kinds = [k for k in KINDS if any(c.get(k) for c in series.values())]
    legend = "".join(
        f'<rect class="k-{kind}" x="{_LEFT + 90 * i}" y="{_HEIGHT - 14}" width="10" height="10"/>'
        f'<text class="tick" x="{_LEFT + 90 * i + 14}" y="{_HEIGHT - 5}">{kind}</text>'
        for i, kind in enumerate(kinds)
    )
    return _svg(_axes(top, keys, step) + "".join(bars) + legend, label)


def bar_chart(values: Mapping[str, int], label: str) -> Markup:
    """One bar per key (a year)."""
    if not values:
        return Markup('<p class="empty">nothing recorded yet</p>')
    keys = list(values)
    top = max(values.values()) or 1
    step = (_WIDTH - _LEFT) / len(keys)
    plot = _HEIGHT - _BOTTOM - _TOP
    bars = "".join(
        f'<rect class="k-paper" x="{_LEFT + step * i + step * 0.1:.1f}" y="{_HEIGHT - _BOTTOM - plot * n / top:.1f}" '
        f'width="{step * 0.8:.1f}" height="{plot * n / top:.1f}"><title>{escape(key)}: {n}</title></rect>'
        for i, (key, n) in enumerate(values.items())
    )
    return _svg(_axes(top, keys, step) + bars, label)


def sparkline(values: Sequence[int], label: str) -> Markup:
    """A small line of counts (changes per week), for a table cell."""
    width, height = 96, 20
    top = max(values, default=0) or 1
    step = width / max(len(values) - 1, 1)
    points = " ".join(f"{i * step:.1f},{height - 2 - (height - 4) * v / top:.1f}" for i, v in enumerate(values))
    return _svg(f'<polyline class="spark" points="{points}"/>', label, width, height, css="spark")
