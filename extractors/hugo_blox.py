"""Hugo Blox (formerly Wowchemy, formerly Hugo Academic).

Claims:
  * rendered pages: a ``generator`` meta tag naming Wowchemy / Hugo Blox, or their
    markup (``pub-list-item``, ``view-list-item``, ``experience-card``);
  * repository bundles (``github:owner/repo``) with ``content/authors/``,
    ``content/publication/``, ``content/home/`` or ``config/_default/``;
  * a single author profile or publication page (front matter with ``superuser`` /
    ``organizations`` / ``publication_types``).

Reads:
  * ``content/publication(s)/*/index.md`` front matter (title, authors, publication,
    date, doi, links) -> Paper; ``cite.bib`` when the page has no title;
  * ``content/authors/*/_index.md``: the site owner's (``superuser``) ``role`` with
    ``organizations`` -> Role; ``work`` / ``experience`` blocks -> Role; ``awards`` -> Award;
    the biography's sentences -> Role / Award (the prose reader shared with academicpages);
    every other profile listed in ``user_groups`` (a lab's people widget) -> Member, the group
    giving the role where the profile states none and "Alumni" making an alumnus;
  * ``content/home/*.md`` and ``content/_index.md`` experience and accomplishments
    blocks -> Role / Award;
  * ``content/post/*`` -> NewsItem (date, title);
  * rendered HTML: publication list items (citation, list and compact views), the
    experience timeline, post lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from extractors.academicpages import bio_records, new_bio_records, strip_markdown
from extractors.base import THIN_READING, Case, Extractor, with_shared_reading
from extractors.bibtex import bibtex_entries
from extractors.data import load_data, member_from_fields
from extractors.generic import node_text, records_from_markdown
from extractors.markdown import front_matter_text, is_unpublished, parse_front_matter
from extractors.reading.people import singular
from extractors.reading.roles import dedupe_roles
from extractors.reading.vocabulary import ALUMNI_WORDS, heading_kind
from watcher.records import Award, Document, Member, NewsItem, Paper, Record, Role
from watcher.text import (
    clean_text,
    clean_title,
    find_arxiv,
    find_doi,
    normalise_key,
    parse_date,
    parse_year,
    split_authors,
)

__all__ = ["HugoBloxExtractor"]

_BUNDLE_MARKERS = re.compile(r"^(?:content/(?:authors|publications?|home)/|config/_default/)")
_PUBLICATION = re.compile(
    r"^content/publications?/([^/]+)/(?:index|_index)\.md$|^content/publications?/([^/_][^/]*)\.md$"
)
_AUTHOR = re.compile(r"^content/authors/([^/]+)/_index\.md$")
#: The newer schema's profile, a data file of its own: ``data/authors/me.yaml`` (``is_owner: true``).
_DATA_AUTHOR = re.compile(r"^data/authors/[^/]+\.ya?ml$")
_POST = re.compile(r"^content/(?:post|posts|news|blog)/(?:([^/]+)/index\.md|([^/_][^/]*)\.md)$")
_HOME = re.compile(r"^content/(?:home/[^/]+\.md|_index\.md)$")


def _date(value: Any) -> str | None:
    """Front-matter dates come as strings, dates or datetimes; keep the ISO day."""
    text = front_matter_text(value)
    return parse_date(text[:10]) if re.match(r"\d{4}-\d{2}-\d{2}", text) else parse_date(text)


# ---------------------------------------------------------------- publications


def publication_paper(meta: Mapping[str, Any], names: Mapping[str, str], bib: str = "") -> Paper | None:
    """A Paper from a publication page's front matter (``cite.bib`` fills in a missing title)."""
    entry = _bib_entry(bib) if bib else {}
    title = clean_title(front_matter_text(meta.get("title")) or entry.get("title"))
    if not title:
        return None
    authors = meta.get("authors")
    names_list = (
        [names.get(front_matter_text(a), front_matter_text(a)) for a in authors] if isinstance(authors, list) else []
    )
    if not names_list and entry.get("author"):
        names_list = [_bib_name(n) for n in re.split(r"\s+and\s+", entry["author"])]
    venue = (
        strip_markdown(front_matter_text(meta.get("publication")))
        or entry.get("journal")
        or entry.get("booktitle")
        or ""
    )
    venue = re.sub(r"^In\s+", "", clean_text(venue)).strip(" .,")
    venue = venue or strip_markdown(front_matter_text(meta.get("publication_short")))
    links = _links(meta)
    doi = find_doi(front_matter_text(meta.get("doi"))) or next((d for d in map(find_doi, links) if d), None)
    doi = doi or find_doi(entry.get("doi"))
    arxiv = next((a for a in map(find_arxiv, links) if a), None) or find_arxiv(front_matter_text(meta.get("arxiv")))
    return Paper(
        title=title,
        authors=tuple(n for n in (clean_text(n) for n in names_list) if n),
        venue=venue or None,
        year=parse_year(front_matter_text(meta.get("date"))[:4]) or parse_year(entry.get("year")),
        url=next(iter(links), None),
        doi=doi,
        arxiv=arxiv,
    )


def _links(meta: Mapping[str, Any]) -> list[str]:
    """The page's outbound links: url_pdf / url_* fields, then the ``links`` list."""
    found = [
        front_matter_text(meta.get(k)) for k in ("url_pdf", "url_preprint", "url_source", "url_code") if meta.get(k)
    ]
    for link in meta.get("links") or ():
        if isinstance(link, Mapping) and link.get("url"):
            found.append(front_matter_text(link.get("url")))
    hugo_url = front_matter_text(meta.get("url"))
    return [u for u in ([hugo_url] if hugo_url.startswith("http") else []) + found if u]


def _bib_entry(bib: str) -> dict[str, str]:
    """The first entry of a ``cite.bib``, its values without braces; empty if it has none that reads."""
    entry = next(bibtex_entries(bib), {})
    return {k: clean_text(v.replace("{", "").replace("}", "")) for k, v in entry.items()}


def _bib_name(name: str) -> str:
    last, _, first = clean_text(name).partition(", ")
    return f"{first} {last}".strip() if first else last


# ---------------------------------------------------------------- author profiles and widgets


def author_records(meta: Mapping[str, Any], body: str) -> list[Record]:
    """The profile's stated role, its work/award blocks, and its biography's positions and honours."""
    records: list[Record] = []
    role = clean_title(strip_markdown(front_matter_text(meta.get("role"))))
    organizations = [o for o in meta.get("organizations") or () if isinstance(o, Mapping)]
    if role:
        organization = front_matter_text(organizations[0].get("name")) if organizations else None
        records.append(Role(title=role, organization=organization or None))
    for key in ("work", "experience"):
        records.extend(experience_roles(meta.get(key)))
    records.extend(award_items(meta.get("awards")))
    records += new_bio_records(bio_records(body), records)
    return records + _listed_awards(body, records)


def _listed_awards(body: str, found: Sequence[Record]) -> list[Record]:
    """Honours the profile's body lists under a heading or bold label ("**Selected honours**", then
    a bullet list), as the shared reader reads them; the prose's own honours are already in ``found``."""
    if not _BULLET_LINE.search(body):
        return []
    told = {normalise_key(r.title) for r in found if isinstance(r, Award)}
    return [r for r in records_from_markdown(body) if isinstance(r, Award) and normalise_key(r.title) not in told]


_BULLET_LINE = re.compile(r"^\s*[-*+]\s+\S", re.M)


def experience_roles(items: Any) -> Iterator[Role]:
    """Experience entries: title/position, company/organization, date_start, date_end."""
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, Mapping):
            continue
        title = clean_title(strip_markdown(front_matter_text(item.get("title") or item.get("position"))))
        company = item.get("company") or item.get("company_name") or item.get("organization")
        organization = strip_markdown(front_matter_text(company))
        if title:
            yield Role(
                title=title,
                organization=organization or None,
                start=_date(item.get("date_start")),
                end=_date(item.get("date_end")),
            )


def award_items(items: Any) -> Iterator[Award]:
    """Award and accomplishment entries: title, awarder/organization, date."""
    for item in items if isinstance(items, list) else ():
        if not isinstance(item, Mapping):
            continue
        title = clean_title(strip_markdown(front_matter_text(item.get("title") or item.get("name"))))
        organization = strip_markdown(front_matter_text(item.get("awarder") or item.get("organization")))
        year = parse_year(front_matter_text(item.get("date") or item.get("date_start") or item.get("year")))
        if title:
            yield Award(title=title, organization=organization or None, year=year)


def home_records(meta: Mapping[str, Any]) -> list[Record]:
    """Widget pages (``content/home/experience.md``) and block lists (``sections:`` in ``content/_index.md``)."""
    records: list[Record] = []
    blocks: list[tuple[str, Any]] = [(front_matter_text(meta.get("widget")), meta)]
    for section in meta.get("sections") or ():
        if isinstance(section, Mapping):
            content = section.get("content")
            blocks.append((front_matter_text(section.get("block")), content if isinstance(content, Mapping) else {}))
    for kind, content in blocks:
        if not isinstance(content, Mapping):
            continue
        if "experience" in kind or (kind == "" and content.get("experience")):
            records.extend(experience_roles(content.get("experience") or content.get("items")))
        elif "accomplishment" in kind or "award" in kind:
            records.extend(award_items(content.get("item") or content.get("items")))
    return records


def markdown_blocks(meta: Mapping[str, Any]) -> str:
    """The markdown a landing page's markdown blocks write in their front matter (``sections`` with
    ``block = "markdown"`` and ``content.text``: a "News" block of dated bullets), each under its title."""
    parts = []
    for section in meta.get("sections") or ():
        if not isinstance(section, Mapping) or "markdown" not in front_matter_text(section.get("block")):
            continue  # a collection's text introduces its list ("filter the publications"); it lists nothing
        content = section.get("content")
        text = content.get("text") if isinstance(content, Mapping) else None
        if isinstance(text, str) and text.strip():
            title = front_matter_text(content.get("title")) or front_matter_text(section.get("id"))
            parts.append(f"## {title}\n\n{text}" if title else text)
    return "\n\n".join(parts)


def post_news(meta: Mapping[str, Any], url: str | None) -> NewsItem | None:
    if is_unpublished(meta):
        return None
    title = clean_title(strip_markdown(front_matter_text(meta.get("title"))))
    return NewsItem(text=title, date=_date(meta.get("date")), url=url) if title else None


# ---------------------------------------------------------------- bundles


def _author_names(files: Mapping[str, str]) -> dict[str, str]:
    """Author slugs (``admin``) to the names their profiles give, for publication author lists."""
    names: dict[str, str] = {}
    for path, text in files.items():
        if match := _AUTHOR.match(path):
            meta, _ = parse_front_matter(text)
            name = front_matter_text(meta.get("name") or meta.get("title"))
            if name:
                names[match.group(1)] = re.sub(r",\s*(?:Ph\.?D|PhD|MD|MSc|MA)\.?$", "", name)
    return names


def profile_member(meta: Mapping[str, Any]) -> Member | None:
    """A lab member's profile: listed in a people widget's ``user_groups`` ("Grad Students",
    "Alumni"), with the ``role`` it states."""
    groups = [front_matter_text(g) for g in meta.get("user_groups") or () if front_matter_text(g)]
    if not groups or meta.get("superuser") is True:
        return None  # a co-author's profile, kept for author links; the owner's roles are read as theirs
    name = front_matter_text(meta.get("name") or meta.get("title"))
    person = {"name": name, "role": strip_markdown(front_matter_text(meta.get("role")))}
    return member_from_fields(person, singular(groups[0]), alumni=any(ALUMNI_WORDS.search(g) for g in groups))


def _data_author_records(path: str, text: str, files: Mapping[str, str]) -> list[Record]:
    """The owner's profile in the newer schema: ``role``, ``affiliations``, ``work``, ``awards``, ``bio``."""
    meta = load_data(path, text)
    if not isinstance(meta, Mapping):
        return []
    if meta.get("is_owner") is not True and len([p for p in files if _DATA_AUTHOR.match(p)]) != 1:
        return []
    profile = {**meta, "organizations": meta.get("organizations") or meta.get("affiliations") or []}
    return author_records(profile, front_matter_text(meta.get("bio")))


def parse_bundle(files: Mapping[str, str]) -> list[Record]:
    names = _author_names(files)
    records: list[Record] = []
    for path in sorted(files):
        text = files[path]
        if _AUTHOR.match(path):
            meta, body = parse_front_matter(text)
            if meta.get("superuser") is True or len([p for p in files if _AUTHOR.match(p)]) == 1:
                records.extend(author_records(meta, body))
            if (member := profile_member(meta)) is not None:
                records.append(member)
                records.extend(award_items(meta.get("awards")))  # a student's poster award is the lab's news too
        elif _DATA_AUTHOR.match(path):
            records.extend(_data_author_records(path, text, files))
        elif _HOME.match(path):
            meta, body = parse_front_matter(text)
            blocks = markdown_blocks(meta)
            own = home_records(meta) + (records_from_markdown(blocks) if blocks else [])
            # A widget whose items are written in its body (a table of dated news, a list)
            # rather than in its front matter is read by the shared reading.
            thin = len(own) < THIN_READING and body.strip()
            records.extend(with_shared_reading(own, records_from_markdown(text)) if thin else own)
    for path in sorted(files):
        if match := _PUBLICATION.match(path):
            folder = path.rsplit("/", 1)[0]
            meta, _ = parse_front_matter(files[path])
            paper = publication_paper(meta, names, files.get(f"{folder}/cite.bib", "") if match.group(1) else "")
            if paper is not None:
                records.append(paper)
        elif match := _POST.match(path):
            slug = match.group(1) or (match.group(2) or "").removesuffix(".md")
            news = post_news(parse_front_matter(files[path])[0], f"/{path.split('/')[1]}/{slug}/")
            if news is not None:
                records.append(news)
    # The biography may restate a post the landing page's experience block lists.
    return dedupe_roles(records)


# ---------------------------------------------------------------- rendered HTML


def rendered_records(html: str) -> list[Record]:
    """Publication and post list items (whichever view) and the experience timeline."""
    tree = LexborHTMLParser(html)
    records: list[Record] = []
    for item in tree.css(".pub-list-item, .view-list-item, .view-compact, .view-card"):
        href = _title_link(item) or ""
        if re.search(r"/(?:event|talk)s?/", href):
            continue  # a talk the theme lists beside the posts: not the site's news, nor a paper
        is_post = re.search(r"/(?:post|blog|news)s?/", href) is not None
        record = _rendered_post(item) if is_post else _rendered_paper(item)
        if record is not None:
            records.append(record)
    records.extend(_rendered_experience(tree))
    return records


def _first(item: LexborNode, *selectors: str) -> LexborNode | None:
    """The first node matching the earliest selector that matches at all."""
    for selector in selectors:
        node = item.css_first(selector)
        if node is not None:
            return node
    return None


def _title_link(item: LexborNode) -> str | None:
    link = _first(item, ".article-title a", "h3 a", "a")
    return link.attributes.get("href") if link is not None else None


def _rendered_paper(item: LexborNode) -> Paper | None:
    title_node = _first(item, ".article-title a", "h3 a", ".article-title") or _citation_title(item)
    if title_node is None and item.css_first(".pub-icon") is not None:
        title_node = item.css_first("a")
    title = clean_title(node_text(title_node))
    if not title:
        return None
    author_nodes = item.css(".article-metadata span:not(.middot-divider):not(.article-date):not(.pub-publication)")
    authors = tuple(t for t in (node_text(n) for n in author_nodes if n.css_first("span") is None) if t)
    if not authors:
        authors = split_authors(node_text(item.css_first(".article-metadata div, .li-cite-author")))
    venue = node_text(item.css_first(".pub-publication")) or node_text(item.css_first("em"))
    year = parse_year(node_text(item.css_first(".article-date"))) or parse_year(
        re.search(r"\((\d{4})\)", node_text(item)).group(1) if re.search(r"\((\d{4})\)", node_text(item)) else None
    )
    hrefs = [a.attributes.get("href") or "" for a in item.css("a")]
    return Paper(
        title=title,
        authors=authors,
        venue=clean_title(venue) or None,
        year=year,
        url=(title_node.attributes.get("href") if title_node is not None and title_node.tag == "a" else None),
        doi=next((d for d in map(find_doi, hrefs) if d), None),
        arxiv=next((a for a in map(find_arxiv, hrefs) if a), None),
    )


def _citation_title(item: LexborNode) -> LexborNode | None:
    """In the citation view the title is the link to the publication page."""
    for link in item.css("a"):
        if "/publication" in (link.attributes.get("href") or ""):
            return link
    return None


def _rendered_post(item: LexborNode) -> NewsItem | None:
    title = clean_title(node_text(_first(item, ".article-title", "h3", "a")))
    if not title:
        return None
    date_text = node_text(item.css_first(".article-date"))
    date = parse_date(date_text) or parse_date(re.sub(r"^(?:Last updated on|Published on)\s*", "", date_text))
    return NewsItem(text=title, date=date, url=_title_link(item))


_EXP_DATE = re.compile(r"[A-Z][a-z]{2,8}\.?\s+\d{4}|\d{4}-\d{2}(?:-\d{2})?|\d{4}|Present|Now|Current")


def _rendered_experience(tree: LexborHTMLParser) -> Iterable[Role]:
    for card in tree.css(".card-body"):
        if card.css_first(".exp-title") is None or _under_awards(card):
            continue
        title = clean_title(node_text(card.css_first(".exp-title")))
        organization = node_text(card.css_first(".exp-company"))
        meta = node_text(card.css_first(".exp-meta"))
        dates = _EXP_DATE.findall(meta)
        start = parse_date(dates[0]) if dates else None
        end = parse_date(dates[1]) if len(dates) > 1 else None
        if title:
            yield Role(title=title, organization=organization or None, start=start, end=end)


def _under_awards(card: LexborNode) -> bool:
    """A card of the accomplishments block ("Awards & Grants"), set out as the experience block's are."""
    section = card.parent
    while section is not None and section.tag != "section":
        section = section.parent
    heading = section.css_first("h1, h2") if section is not None else None
    return heading is not None and heading_kind(node_text(heading)) == "award"


# ---------------------------------------------------------------- the extractor

_MARKUP_CLASSES = ("pub-list-item", "view-list-item", "experience-card")
_MARKUP_CLASS = re.compile(rf"class=\"[^\"]*\b(?:{'|'.join(_MARKUP_CLASSES)})\b")
_GENERATOR = re.compile(r"<meta[^>]+name=[\"']generator[\"'][^>]+content=[\"']([^\"']+)", re.I)


class HugoBloxExtractor(Extractor):
    """Hugo Blox / Wowchemy / Hugo Academic sites: rendered pages, repository sources, single pages."""

    name = "hugo-blox"
    priority = 70
    shared_fallback = True
    url_patterns = (r"/content/(?:authors|publications?|home)/",)
    source_paths = (
        r"^content/authors/[^/]+/_index\.md$",
        r"^data/authors/[^/]+\.ya?ml$",
        r"^content/publications?/[^/]+/(?:index\.md|cite\.bib)$",
        r"^content/home/[^/]+\.md$",
        r"^content/_index\.md$",
        r"^content/(?:post|posts|news|blog)/[^/]+(?:/index)?\.md$",
    )

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle:
            marked = next((p for p in doc.files if _BUNDLE_MARKERS.match(p)), None)
            return f"bundle: {marked.split('/')[0]}/{marked.split('/')[1]}/" if marked else None
        head = doc.text[:200_000]
        if head.lstrip("\ufeff \n").startswith("---"):
            meta, _ = parse_front_matter(head)
            if "superuser" in meta or ("organizations" in meta and "role" in meta) or "publication_types" in meta:
                return "front matter: Hugo Blox author or publication keys"
            return None
        generator = _GENERATOR.search(head)
        if generator and re.search(r"wowchemy|hugo blox|academic", generator.group(1), re.I):
            return f"generator meta tag: {generator.group(1)}"
        # the class names are plain substrings: test for them before the attribute regex scans every class
        if any(name in head for name in _MARKUP_CLASSES) and _MARKUP_CLASS.search(head):
            return "Hugo Blox markup"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle:
            return parse_bundle(doc.files)
        if not doc.text.strip():
            return []
        if doc.text.lstrip("\ufeff \n").startswith("---"):
            meta, body = parse_front_matter(doc.text)
            if "publication_types" in meta or "publication" in meta:
                paper = publication_paper(meta, {})
                return [paper] if paper else []
            return author_records(meta, body) + home_records(meta)
        return rendered_records(doc.text)

    def shares_every_reading(self, doc: Document) -> bool:
        # A built page's widgets change with the theme's version: the shared reader gives the kinds the
        # theme's own fields found nothing of (a news widget, an awards list).
        return not doc.is_bundle and not doc.text.lstrip("\ufeff \n").startswith("---")

    def better_source(self, doc: Document) -> str | None:
        if doc.is_bundle:
            return None
        match = re.match(r"https?://([A-Za-z0-9\-]+)\.github\.io(?:/|$)", doc.url)
        if match:
            return f"github:{match.group(1)}/{match.group(1)}.github.io"
        feed = re.search(r"<link[^>]+type=[\"']application/rss\+xml[\"'][^>]+href=[\"']([^\"']+)", doc.text or "")
        return feed.group(1) if feed else None


CASES = (
    Case(
        fixture="hugo_blox/site",
        url="github:rkowal/academic-site",
        claims=("https://example.org/content/authors/admin/_index.md",),
        rejects=("https://example.org/authors/", "github:rkowal/academic-site"),
    ),
    Case(
        fixture="hugo_blox/lab_site",
        url="github:kelp-lab/kelp-lab.github.io",
        notes="a lab on the theme: each profile in a people widget's user_groups is a member (the group "
        "gives the role where the profile states none; 'Alumni' makes an alumnus); a co-author's profile "
        "without groups is not",
    ),
    Case(fixture="hugo_blox/publications.html", url="https://rkowal.example.org/publication/"),
    Case(fixture="hugo_blox/home.html", url="https://rkowal.example.org/"),
)
