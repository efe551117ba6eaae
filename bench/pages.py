"""Synthetic academic pages for the end-to-end benchmark: invented people, five templates.

Each page is a ``PageModel`` (a person or lab, their papers, news and members, and the page's
noise: a "last updated" date, a visitor counter, whitespace and attribute-order variants)
rendered by one of five templates modelled on real academic sites: a Barron-style
``papertitle`` table, a rendered al-folio page (``ol.bibliography`` and a news table), an
academicpages-like publications archive, a hand-written HTML page with Publications and News
sections, and a lab's people page (member cards: photo, name heading, role line, grouped
under role headings) with its news.

Edits are applied to the model, never to the HTML, so a *real* edit (a new paper, a news
item, a venue change, a member's new role) and a *noise* edit (date, counter, whitespace,
attribute order) are known exactly: the truth for the alarm precision and recall.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

__all__ = ["TEMPLATES", "PageModel", "Paper", "generate_models", "noise_edit", "real_edit", "render"]

TEMPLATES = ("barron", "alfolio", "academicpages", "plain", "lab")
#: The groups of a lab's people page, in page order.
_GROUPS = ("Principal Investigator", "Postdocs", "PhD Students", "Master Students", "Alumni")

_FIRST = [
    "Ada",
    "Ben",
    "Cleo",
    "Dara",
    "Emil",
    "Fenna",
    "Gus",
    "Hana",
    "Ivo",
    "Jia",
    "Kai",
    "Lena",
    "Milo",
    "Nora",
    "Omar",
    "Pia",
    "Quin",
    "Rosa",
    "Soren",
    "Tali",
    "Uma",
    "Vik",
    "Wren",
    "Xia",
    "Yuri",
    "Zofia",
    "Arlo",
    "Bea",
    "Cyrus",
    "Dina",
    "Eero",
    "Farah",
    "Gideon",
    "Ines",
    "Jonah",
    "Kira",
    "Luca",
    "Mira",
    "Nico",
    "Odile",
]
_LAST = [
    "Quill",
    "Moss",
    "Reyes",
    "Oduya",
    "Feld",
    "Strand",
    "Park",
    "Lindqvist",
    "Osei",
    "Rivera",
    "Kowalski",
    "Marsh",
    "Thorne",
    "Vance",
    "Holm",
    "Ibarra",
    "Nakada",
    "Brandt",
    "Okafor",
    "Petrov",
    "Sato",
    "Varga",
    "Weller",
    "Young",
    "Zeller",
    "Abara",
    "Corbin",
    "Dalca",
    "Emery",
    "Fournier",
    "Galli",
    "Haddad",
]
_WORDS = [
    "sparse",
    "neural",
    "radiance",
    "fields",
    "learning",
    "robust",
    "adaptive",
    "graph",
    "temporal",
    "causal",
    "inference",
    "estimation",
    "transformers",
    "diffusion",
    "priors",
    "scalable",
    "efficient",
    "bayesian",
    "optimisation",
    "geometry",
    "meshes",
    "sonar",
    "mapping",
    "language",
    "models",
    "reasoning",
    "parsing",
    "lexicons",
    "retrieval",
    "contrastive",
    "representation",
    "federated",
    "privacy",
    "kernels",
    "stochastic",
    "gradients",
    "convex",
    "relaxation",
    "equivariant",
    "physics",
    "simulation",
    "tidal",
    "hydrology",
    "acoustic",
    "perception",
    "multi-robot",
    "planning",
    "reinforcement",
    "control",
    "uncertainty",
    "calibration",
    "benchmarks",
]
_VENUES = (
    "CVPR",
    "ICCV",
    "ECCV",
    "NeurIPS",
    "ICML",
    "ICLR",
    "ACL",
    "EMNLP",
    "SIGGRAPH",
    "AAAI",
    "IJCAI",
    "KDD",
    "WWW",
    "ICRA",
    "IROS",
    "RSS",
    "CHI",
    "UAI",
    "AISTATS",
    "TPAMI",
)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NEWS = (
    "Our paper {t} was accepted to {v} {y}.",
    "Gave an invited talk on {t} at the {v} workshop.",
    "Started a research visit at {o}.",
    "Received the {o} young researcher award.",
    "Served as area chair for {v} {y}.",
)
_ORGS = ("Northbridge University", "Halden University", "Lumen Labs", "Corvin Institute", "Lakeside University")


@dataclass(frozen=True)
class Paper:
    title: str
    authors: tuple[str, ...]
    venue: str
    year: int
    arxiv: str
    blurb: str


@dataclass(frozen=True)
class PageModel:
    """Everything a page shows; ``render`` turns it into HTML for its template."""

    template: str
    name: str
    org: str
    papers: tuple[Paper, ...]
    news: tuple[tuple[str, str], ...]
    updated: str
    visitors: int
    #: A lab's people: (name, group) in page order.
    members: tuple[tuple[str, str], ...] = ()
    #: Noise knobs: extra indentation, and attribute order flipped in the markup.
    indent: int = 0
    flip_attrs: bool = False


def _title(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(4, 8))
    head = " ".join(w.capitalize() for w in words[:2])
    return f"{head}: {' '.join(words[2:]).capitalize()}"


def _person(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"


def _paper(rng: random.Random, owner: str, year: int) -> Paper:
    coauthors = [_person(rng) for _ in range(rng.randint(1, 5))]
    coauthors.insert(rng.randint(0, len(coauthors)), owner)
    blurb = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(15, 40))).capitalize() + "."
    return Paper(
        title=_title(rng),
        authors=tuple(dict.fromkeys(coauthors)),
        venue=rng.choice(_VENUES),
        year=year,
        arxiv=f"{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(10000, 99999)}",
        blurb=blurb,
    )


def _news_item(rng: random.Random, year: int) -> tuple[str, str]:
    text = rng.choice(_NEWS).format(t=_title(rng), v=rng.choice(_VENUES), y=year, o=rng.choice(_ORGS))
    return f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, {year}", text


def _model(rng: random.Random, template: str) -> PageModel:
    name = _person(rng)
    papers = tuple(_paper(rng, name, 2026 - i // 4) for i in range(rng.randint(12, 55)))
    news = tuple(_news_item(rng, 2026 - i // 3) for i in range(rng.randint(4, 12)))
    members: tuple[tuple[str, str], ...] = ()
    if template == "lab":
        people = list(dict.fromkeys(_person(rng) for _ in range(rng.randint(10, 30))))
        members = ((people[0], _GROUPS[0]), *((p, rng.choice(_GROUPS[1:])) for p in people[1:]))
        members = tuple(sorted(members, key=lambda m: _GROUPS.index(m[1])))
    return PageModel(
        template=template,
        name=name,
        org=rng.choice(_ORGS),
        papers=papers,
        news=news,
        updated=f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, 2026",
        visitors=rng.randint(1000, 99999),
        members=members,
    )


def generate_models(count: int, seed: int = 1, templates: tuple[str, ...] = TEMPLATES) -> list[PageModel]:
    """``count`` pages, ``templates`` in turn, reproducible from ``seed``."""
    unknown = set(templates) - set(TEMPLATES)
    if unknown:
        raise ValueError(f"unknown templates: {', '.join(sorted(unknown))} (known: {', '.join(TEMPLATES)})")
    rng = random.Random(seed)
    return [_model(rng, templates[i % len(templates)]) for i in range(count)]


def real_edit(model: PageModel, rng: random.Random) -> PageModel:
    """A change a follower wants to hear about: a new paper, a news item, a venue change, or (on
    a lab's people page) a member who graduates or joins."""
    if model.template == "lab":
        return _lab_edit(model, rng)
    # academicpages archives list publications only: no news to add there.
    choice = rng.choice((0, 2) if model.template == "academicpages" else (0, 1, 2))
    if choice == 0:
        return replace(model, papers=(_paper(rng, model.name, 2026), *model.papers))
    if choice == 1:
        return replace(model, news=(_news_item(rng, 2026), *model.news))
    first, *rest = model.papers
    venue = rng.choice([v for v in _VENUES if v != first.venue])
    return replace(model, papers=(replace(first, venue=venue), *rest))


def _lab_edit(model: PageModel, rng: random.Random) -> PageModel:
    choice = rng.choice((0, 1, 2))
    if choice == 0:
        return replace(model, news=(_news_item(rng, 2026), *model.news))
    members = list(model.members)
    if choice == 1:
        members.append((_person(rng), rng.choice(_GROUPS[1:4])))
    else:  # someone moves on: a student graduates, a postdoc leaves
        current = [i for i, (_, group) in enumerate(members) if group not in (_GROUPS[0], _GROUPS[-1])]
        if not current:
            return replace(model, news=(_news_item(rng, 2026), *model.news))
        index = rng.choice(current)
        members[index] = (members[index][0], _GROUPS[-1])
    return replace(model, members=tuple(sorted(dict(members).items(), key=lambda m: _GROUPS.index(m[1]))))


def noise_edit(model: PageModel, rng: random.Random) -> PageModel:
    """A change nobody wants to hear about: dates, counters, whitespace, attribute order."""
    return replace(
        model,
        updated=f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, 2027",
        visitors=model.visitors + rng.randint(1, 500),
        indent=model.indent + rng.randint(1, 3),
        flip_attrs=not model.flip_attrs,
    )


# -- rendering ---------------------------------------------------------------------------

_e = html.escape


def _attrs(model: PageModel, *pairs: tuple[str, str]) -> str:
    ordered = reversed(pairs) if model.flip_attrs else pairs
    return " ".join(f'{key}="{value}"' for key, value in ordered)


def _authors_html(paper: Paper, owner: str) -> str:
    return ", ".join(f"<strong>{_e(a)}</strong>" if a == owner else _e(a) for a in paper.authors)


def _head(model: PageModel, title: str) -> str:
    css = "".join(
        f"<link {_attrs(model, ('rel', 'stylesheet'), ('href', f'/assets/css/{n}.css?v=3'))}>\n"
        for n in ("main", "bootstrap.min", "academicons", "fontawesome")
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{_e(title)}</title>\n'
        f'<meta name="author" content="{_e(model.name)}">\n{css}'
        "<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script>\n"
        "</head>\n"
    )


def _footer(model: PageModel) -> str:
    return (
        f"<footer><p {_attrs(model, ('class', 'footer'), ('style', 'text-align:right;font-size:small'))}>"
        f"Last updated: {model.updated}. Visitors: {model.visitors}</p></footer>\n</body>\n</html>\n"
    )


def _barron(model: PageModel) -> str:
    table = _attrs(model, ("style", "width:100%;max-width:800px;border:0px"), ("class", "papers"))
    rows = []
    for p in model.papers:
        rows.append(
            f"<tr>\n  <td {_attrs(model, ('style', 'padding:20px;width:25%'), ('class', 'thumb'))}>"
            f'<img src="images/{p.arxiv}.jpg" width="160"></td>\n'
            f'  <td style="padding:20px;width:75%;vertical-align:middle">\n'
            f'    <a href="https://arxiv.org/abs/{p.arxiv}"><span class="papertitle">{_e(p.title)}</span></a>\n'
            f"    <br>{_authors_html(p, model.name)}\n"
            f"    <br><em>{p.venue}</em>, {p.year}\n"
            f'    <br><a href="https://arxiv.org/abs/{p.arxiv}">arXiv</a> / '
            f'<a href="https://example.org/{p.arxiv}">project page</a>\n'
            f"    <p>{_e(p.blurb)}</p>\n  </td>\n</tr>"
        )
    news = "".join(f"<li><b>{d}</b>: {_e(t)}</li>\n" for d, t in model.news)
    return (
        _head(model, model.name)
        + f'<body>\n<table {table}>\n<tr><td><p style="text-align:center"><name>{_e(model.name)}</name></p>\n'
        f"<p>I am a research scientist at {_e(model.org)}.</p></td></tr>\n</table>\n"
        f"<table {table}><tr><td><h2>News</h2><ul>\n{news}</ul></td></tr></table>\n"
        f"<table {table}><tr><td><h2>Research</h2></td></tr></table>\n"
        f"<table {table}>\n" + "\n".join(rows) + "\n</table>\n" + _footer(model)
    )


def _alfolio(model: PageModel) -> str:
    news = "".join(f'<tr><th scope="row">{d}</th><td> {_e(t)} </td></tr>\n' for d, t in model.news)
    items = []
    for p in model.papers:
        authors = ",&nbsp;".join(f"<em>{_e(a)}</em>" if a == model.name else _e(a) for a in p.authors)
        items.append(
            f'<li><div class="row">\n<div class="col-sm-2 abbr"><abbr class="badge">{p.venue}</abbr></div>\n'
            f"<div {_attrs(model, ('id', 'k' + p.arxiv.replace('.', '')), ('class', 'col-sm-8'))}>\n"
            f'<div class="title">{_e(p.title)}</div>\n<div class="author">{authors}</div>\n'
            f'<div class="periodical"><em>In {p.venue}</em>, {p.year}</div>\n'
            f'<div class="links"><a href="http://arxiv.org/abs/{p.arxiv}" class="btn btn-sm z-depth-0" '
            'role="button">arXiv</a></div>\n'
            f'<div class="abstract hidden"><p>{_e(p.blurb)}</p></div>\n</div></div></li>'
        )
    return (
        _head(model, model.name) + '<body class="fixed-top-nav">\n<div class="container mt-5"><div class="post">\n'
        f'<header class="post-header"><h1 class="post-title"> {_e(model.name)} </h1>\n'
        f'<p class="desc">Researcher at {_e(model.org)}.</p></header>\n<article>\n'
        '<h2><a href="/news/" style="color: inherit;">news</a></h2>\n'
        '<div class="news"><div class="table-responsive"><table class="table table-sm table-borderless">\n'
        f"{news}</table></div></div>\n"
        '<h2><a href="/publications/" style="color: inherit;">selected publications</a></h2>\n'
        '<div class="publications">\n<ol class="bibliography">' + "\n".join(items) + "</ol></div>\n"
        "</article></div></div>\n" + _footer(model)
    )


def _academicpages(model: PageModel) -> str:
    items = []
    for p in model.papers:
        slug = p.arxiv.replace(".", "-")
        items.append(
            '<div class="list__item">\n<article class="archive__item" itemscope itemtype="http://schema.org/CreativeWork">\n'
            f"<h2 {_attrs(model, ('class', 'archive__item-title'), ('itemprop', 'headline'))}>\n"
            f'<a href="/publication/{p.year}-{slug}" rel="permalink">{_e(p.title)}</a>\n</h2>\n'
            f"<p>Published in <i>{p.venue}</i>, {p.year}</p>\n"
            f'<p class="archive__item-excerpt" itemprop="description">{_e(p.blurb)}</p>\n'
            f"<p>Recommended citation: {_e(', '.join(p.authors))} ({p.year}). {_e(p.title)}. <i>{p.venue}</i>.</p>\n"
            "</article>\n</div>"
        )
    return (
        _head(model, f"Publications - {model.name}")
        + '<body>\n<div class="masthead"><nav id="site-nav" class="greedy-nav"><ul class="visible-links">'
        f'<li class="masthead__menu-item"><a href="/">{_e(model.name)}</a></li>'
        '<li class="masthead__menu-item"><a href="/publications/">Publications</a></li></ul></nav></div>\n'
        '<div id="main" role="main">\n<div class="sidebar sticky"><div class="author__content">'
        f'<h3 class="author__name">{_e(model.name)}</h3><p class="author__bio">{_e(model.org)}</p></div></div>\n'
        '<div class="archive">\n<h1 class="page__title">Publications</h1>\n'
        + "\n".join(items)
        + "\n</div>\n</div>\n"
        + _footer(model)
    )


def _plain(model: PageModel) -> str:
    papers = "".join(
        f"<li><b>{_e(p.title)}</b>. {_e(', '.join(p.authors))}. <i>{p.venue} {p.year}</i>. "
        f'<a href="https://arxiv.org/abs/{p.arxiv}">arXiv</a><br><small>{_e(p.blurb)}</small></li>\n'
        for p in model.papers
    )
    news = "".join(f"<li>{d}: {_e(t)}</li>\n" for d, t in model.news)
    return (
        _head(model, model.name)
        + f"<body>\n<h1>{_e(model.name)}</h1>\n<p>I work at {_e(model.org)} on {_e(_WORDS[0])} things.</p>\n"
        f"<h2>News</h2>\n<ul>\n{news}</ul>\n<h2>Publications</h2>\n<ol>\n{papers}</ol>\n" + _footer(model)
    )


def _lab(model: PageModel) -> str:
    news = "".join(
        f'<div class="news-item"><span class="date">{d}</span><p>{_e(t)}</p></div>\n' for d, t in model.news[:8]
    )
    groups = []
    for group in _GROUPS:
        people = [name for name, in_group in model.members if in_group == group]
        if not people:
            continue
        cards = "".join(
            f"<div {_attrs(model, ('class', 'col-md-3 member-card'), ('data-group', group.lower()))}>"
            f'<img src="/images/people/{_e(name.lower().replace(" ", "_"))}.jpg" alt="{_e(name)}">'
            f"<h4>{_e(name)}</h4><p>{_e(group.rstrip('s') if group != 'Alumni' else 'Alumni')}</p></div>\n"
            for name in people
        )
        groups.append(f'<h3>{group}</h3>\n<div class="row">\n{cards}</div>\n')
    return (
        _head(model, f"People | {model.name} Lab")
        + f'<body>\n<nav class="navbar"><a href="/">{_e(model.name)} Lab</a> <a href="/people/">People</a></nav>\n'
        f'<div class="container">\n<h1>{_e(model.name)} Lab at {_e(model.org)}</h1>\n'
        f"<h2>Lab News</h2>\n{news}<h2>People</h2>\n" + "".join(groups) + "</div>\n" + _footer(model)
    )


_RENDERERS: dict[str, Callable[[PageModel], str]] = {
    "barron": _barron,
    "alfolio": _alfolio,
    "academicpages": _academicpages,
    "plain": _plain,
    "lab": _lab,
}


def render(model: PageModel) -> bytes:
    """The page's HTML; ``indent`` (noise) adds leading whitespace to every line."""
    text = _RENDERERS[model.template](model)
    if model.indent:
        pad = " " * model.indent
        text = "\n".join(pad + line for line in text.split("\n"))
    return text.encode("utf-8")
