"""Fuzzing the extractors: generated and mutated pages through every registered extractor.

    python bench/fuzz.py                     # 10,000 pages, seed 0, two processes
    python bench/fuzz.py --count 200 --seed 7 --jobs 1
    python bench/fuzz.py --show 1234         # print page 1234 of the seed, to reproduce a failure

Each page is academic-like: a publication list in one of the common citation styles (APA,
MLA, Chicago, IEEE, Vancouver, Harvard, BibTeX), with news, roles and members around it, as
HTML, markdown, plain text, a BibTeX file or a repository bundle; author lists up to 500 names,
"et al.", names in many scripts. Some pages are hostile on purpose (deep nesting, huge tables,
unclosed tags, binary junk, giant single lines, thousands of repeated elements), and most are
then mutated (slices cut, repeated or shuffled, junk and tags inserted, the page truncated).

Each page is read by every extractor in ``extractors.REGISTRY`` (``watcher.budget.read_within``
around ``watcher.extract.extract_records``, the product's path). A failure is any exception
other than a clean ``ExtractionError``; a reading over the time budget is one that took longer
than ``ReadSettings.seconds`` or was stopped by it. The run prints a summary and exits 1 on any
failure or reading over the budget. Pages depend only on ``--seed`` and their number.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from watcher.records import Document

FIRST = ["Ana", "Tomas", "Mina", "Jonas", "Lin", "Kofi", "Zoë", "Łukasz", "Søren", "Aiyana", "Chidi", "Mei",
         "Nguyễn Văn", "Olúwáṣeun", "José María", "Ingrid", "Ravi", "Fatima", "Yuki", "Анна", "Дмитрий", "Θεόδωρος"]
LAST = ["Quill", "Reyes", "Oduya", "Feld", "Wu", "Brandt", "Müller", "Ñúñez", "Ødegård", "O'Neil", "van der Berg",
        "al-Farsi", "Nakamura", "Kowalczyk", "Okafor", "Lindqvist", "王", "김", "Иванова", "Παπαδόπουλος",
        "Smith-Jones"]
WORDS = ["sparse", "radiance", "fields", "learning", "tidal", "sediment", "graph", "neural", "robust", "causal",
         "inference", "quantum", "dune", "protein", "folding", "acoustic", "estuary", "bayesian", "model", "dynamics"]
VENUES = ["CVPR", "NeurIPS", "Nature", "Journal of Coastal Research", "Proc. ICML", "Phys. Rev. Lett.", "arXiv",
          "ACM SIGGRAPH Asia", "IEEE Trans. Pattern Anal. Mach. Intell.", "bioRxiv", "Science Advances"]
BIG_PAGE_SHARE = 0.003


@dataclass
class Paper:
    title: str
    authors: list[tuple[str, str]]
    venue: str
    year: int
    et_al: bool
    doi: str | None


def _paper(rng: random.Random) -> Paper:
    many = rng.random() < 0.05
    count = rng.randint(30, 500) if many else rng.randint(1, 8)
    authors = [(rng.choice(FIRST), rng.choice(LAST)) for _ in range(count)]
    words = rng.sample(WORDS, rng.randint(2, 8))
    title = " ".join(words).capitalize() + rng.choice(["", ": a study", "?", " (extended)", " — part II"])
    doi = f"10.{rng.randint(1000, 9999)}/x{rng.randint(1, 10**6)}" if rng.random() < 0.3 else None
    return Paper(title, authors, rng.choice(VENUES), rng.randint(1950, 2027), rng.random() < 0.15, doi)


def _initials(first: str) -> str:
    return " ".join(f"{part[0]}." for part in first.split())


def _names(p: Paper, render: Callable[[str, str], str], sep: str, last_sep: str, limit: int = 10**6) -> str:
    names = [render(f, s) for f, s in p.authors[:limit]]
    if p.et_al or len(p.authors) > limit:
        return sep.join(names) + sep.rstrip() + " et al."
    return names[0] if len(names) == 1 else sep.join(names[:-1]) + last_sep + names[-1]


def apa(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{s}, {_initials(f)}", ", ", ", & ")
    doi = f" https://doi.org/{p.doi}" if p.doi else ""
    return f"{authors} ({p.year}). {p.title}. {p.venue}, {n % 40}({n % 12}), {n}–{n + 9}.{doi}"


def mla(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{s}, {f}", ", ", ", and ", limit=3)
    return f'{authors}. "{p.title}." {p.venue}, vol. {n % 40}, no. {n % 9}, {p.year}, pp. {n}-{n + 12}.'


def chicago(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{f} {s}", ", ", ", and ")
    return f'{authors}. {p.year}. "{p.title}." {p.venue} {n % 40} ({n % 9}): {n}–{n + 5}.'


def ieee(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{_initials(f)} {s}", ", ", ", and ", limit=6)
    return f'[{n}] {authors}, "{p.title}," in Proc. {p.venue}, {p.year}, pp. {n}–{n + 8}.'


def vancouver(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{s} {''.join(w[0] for w in f.split())}", ", ", ", ", limit=6)
    return f"{n}. {authors}. {p.title}. {p.venue}. {p.year};{n % 40}({n % 9}):{n}-{n + 3}."


def harvard(p: Paper, n: int) -> str:
    authors = _names(p, lambda f, s: f"{s}, {_initials(f)}", ", ", " and ")
    return f"{authors} {p.year}, '{p.title}', {p.venue}, vol. {n % 40}, pp. {n}-{n + 7}."


def bibtex(p: Paper, n: int) -> str:
    authors = " and ".join(f"{s}, {f}" for f, s in p.authors) + (" and others" if p.et_al else "")
    doi = f",\n  doi = {{{p.doi}}}" if p.doi else ""
    return (f"@article{{{p.authors[0][1].lower()}{p.year}{n},\n  title = {{{p.title}}},\n  author = {{{authors}}},\n"
            f"  journal = {{{p.venue}}},\n  year = {{{p.year}}}{doi}\n}}")  # fmt: skip


STYLES: dict[str, Callable[[Paper, int], str]] = {
    "apa": apa, "mla": mla, "chicago": chicago, "ieee": ieee, "vancouver": vancouver, "harvard": harvard,
    "bibtex": bibtex,
}  # fmt: skip


def _news(rng: random.Random) -> str:
    return f"{rng.randint(2015, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}: " + " ".join(
        rng.sample(WORDS, 5)
    )


def _member(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}, {rng.choice(['PhD student', 'Postdoc', 'Alumni', 'Professor'])}"


@dataclass
class Page:
    number: int
    shape: str
    doc: Document
    notes: list[str] = field(default_factory=list)


def _entries(rng: random.Random, count: int) -> list[str]:
    style = rng.choice(list(STYLES))
    return [STYLES[style](_paper(rng), n + 1) for n in range(count)]


def _html(rng: random.Random, entries: list[str], hostile: list[str]) -> str:
    wrap = rng.choice(["ul", "ol", "table", "div", "p-br", "bibliography"])
    if wrap in ("ul", "ol"):
        body = f"<{wrap}>" + "".join(f"<li>{e}</li>" for e in entries) + f"</{wrap}>"
    elif wrap == "table":
        body = "<table>" + "".join(f"<tr><td>{n}</td><td>{e}</td></tr>" for n, e in enumerate(entries)) + "</table>"
    elif wrap == "div":
        body = "".join(f'<div class="paper"><span class="title">{e}</span></div>' for e in entries)
    elif wrap == "bibliography":
        body = "".join(f'<li><div class="entry">{e}</div></li>' for e in entries)
        body = f'<ol class="bibliography">{body}</ol>'
    else:
        body = "<p>" + "<br>".join(entries) + "</p>"
    news = "<h2>News</h2><ul>" + "".join(f"<li>{_news(rng)}</li>" for _ in range(rng.randint(0, 8))) + "</ul>"
    people = "<h2>Members</h2><ul>" + "".join(f"<li>{_member(rng)}</li>" for _ in range(rng.randint(0, 8))) + "</ul>"
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    head = f"<html><head><title>{name}</title><meta name='citation_title' content='{rng.choice(WORDS)}'></head>"
    page = f"{head}<body><h1>{name}</h1><p>I am an assistant professor at the University of Somewhere.</p>"
    page += f"{news}<h2>Publications</h2>{body}{people}</body></html>"
    return _hostile_html(rng, page, hostile)


def _hostile_html(rng: random.Random, page: str, hostile: list[str]) -> str:
    if "deep" in hostile:
        depth = rng.choice([100, 1000, 20_000])
        page = page.replace("<h2>Publications</h2>", "<div>" * depth + "<h2>Publications</h2>", 1)
    if "table" in hostile:
        rows = "".join(f"<tr><td>{n}</td><td>{_news(rng)}</td></tr>" for n in range(rng.choice([2000, 20_000])))
        page = page.replace("</body>", f"<table>{rows}</table></body>")
    if "unclosed" in hostile:
        page = page.replace("</li>", "").replace("</div>", "").replace("</td>", "")
    if "repeated" in hostile:
        page = page.replace("</body>", "<li><a href='#'>[PDF]</a> <b>x</b></li>" * rng.choice([500, 5000]))
    if "line" in hostile:
        page = page.replace("<h2>News</h2>", "<p>" + "word " * rng.choice([20_000, 200_000]) + "</p><h2>News</h2>")
    return page


def _markdown(rng: random.Random, entries: list[str], hostile: list[str]) -> str:
    bullet = rng.choice(["* ", "- ", "1. ", ""])
    text = f"# {rng.choice(FIRST)} {rng.choice(LAST)}\n\n## News\n\n"
    text += "".join(f"- {_news(rng)}\n" for _ in range(rng.randint(0, 6)))
    text += "\n## Publications\n\n" + "".join(f"{bullet}{e}\n\n" for e in entries)
    if rng.random() < 0.3:
        text = "---\ntitle: Publications\nlayout: page\n---\n" + text
    if "line" in hostile:
        text += "x" * rng.choice([50_000, 500_000]) + "\n"
    if "repeated" in hostile:
        text += "- [PDF](#)\n" * rng.choice([500, 5000])
    return text


def _bundle(rng: random.Random, entries: list[str]) -> dict[str, str]:
    files = {"_pages/about.md": _markdown(rng, entries[: len(entries) // 2], []),
             "_bibliography/papers.bib": "\n\n".join(bibtex(_paper(rng), n) for n in range(rng.randint(0, 10)))}
    yaml_items = "".join(f"- title: \"{_paper(rng).title}\"\n  year: {rng.randint(1990, 2027)}\n" for _ in range(5))
    files["_data/publications.yml"] = yaml_items if rng.random() < 0.8 else "- title: [unclosed\n  : :"
    files["_posts/2024-01-02-news.md"] = f"---\ntitle: {rng.choice(WORDS)}\n---\n{_news(rng)}\n"
    return files  # fmt: skip


def _junk(rng: random.Random, size: int) -> str:
    return bytes(rng.getrandbits(8) for _ in range(size)).decode("latin-1")


MUTATIONS = ("cut", "repeat", "junk", "tag", "truncate", "shuffle", "nul")


def mutate(rng: random.Random, text: str) -> str:
    """One random edit of a page's text."""
    if not text:
        return _junk(rng, rng.randint(1, 200))
    kind = rng.choice(MUTATIONS)
    a = rng.randrange(len(text))
    b = min(len(text), a + rng.randint(1, 2000))
    if kind == "cut":
        return text[:a] + text[b:]
    if kind == "repeat":
        return text[:b] + text[a:b] * rng.randint(2, 50) + text[b:]
    if kind == "junk":
        return text[:a] + _junk(rng, rng.randint(1, 500)) + text[a:]
    if kind == "tag":
        tag = rng.choice(["<div>", "<li>", "</ul>", "<table><tr><td>", "<h2>", "<b>", "<!--", "<script>", "<a href='",
                          "]]>", "{%", "@article{", "---\n", "<svg>", "&amp;&#x26;&#0;"])  # fmt: skip
        return text[:a] + tag * rng.randint(1, 20) + text[a:]
    if kind == "truncate":
        return text[:a]
    if kind == "shuffle":
        lines = text.split("\n")
        rng.shuffle(lines)
        return "\n".join(lines)
    return text[:a] + "\x00" + text[a:]


def make_page(seed: int, number: int) -> Page:
    """Page ``number`` of a run with ``seed``: the same page every time."""
    rng = random.Random(f"{seed}:{number}")
    big = rng.random() < BIG_PAGE_SHARE
    count = rng.randint(200, 20_000) if big else rng.randint(0, 25)
    hostile = [h for h in ("deep", "table", "unclosed", "repeated", "line") if rng.random() < (0.3 if big else 0.02)]
    entries = _entries(rng, count)
    form = rng.choices(["html", "markdown", "text", "bibtex", "bundle", "junk"], weights=[50, 20, 8, 10, 7, 5])[0]
    url = rng.choice(["https://ana.example.org/", "https://ana.github.io/publications/", "https://lab.example.edu/",
                      "file:///tmp/papers.bib", "https://dblp.org/pid/12/3456.html"])  # fmt: skip
    if form == "bundle":
        files = _bundle(rng, entries)
        files = {path: mutate(rng, text) if rng.random() < 0.3 else text for path, text in files.items()}
        doc = Document(url="github:ana/ana.github.io", files=files, content_type="application/x-repository")
        return Page(number, "bundle", doc, hostile)
    if form == "html":
        text, ctype = _html(rng, entries, hostile), "text/html"
    elif form == "markdown":
        text, ctype = _markdown(rng, entries, hostile), "text/markdown"
    elif form == "text":
        text, ctype = "\n".join(entries), "text/plain"
    elif form == "bibtex":
        text, ctype = "\n\n".join(bibtex(_paper(rng), n) for n in range(count)), "application/x-bibtex"
    else:
        text, ctype = _junk(rng, rng.choice([100, 10_000, 1_000_000 if big else 50_000])), rng.choice(
            ["text/html", "text/plain", "application/octet-stream"]
        )
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
        text = mutate(rng, text)
    return Page(number, f"{form}{'+' + '+'.join(hostile) if hostile else ''}", Document(url=url, text=text,
                content_type=ctype), hostile)  # fmt: skip


@dataclass
class Outcome:
    number: int
    shape: str
    size: int
    seconds: float
    slowest: tuple[float, str]
    failures: list[str]
    over_budget: list[str]


def read_page(seed: int, number: int) -> Outcome:
    """Read one page with every extractor; what went wrong."""
    from extractors import REGISTRY
    from watcher.budget import ReadSettings, read_within
    from watcher.errors import ExtractionError, ReadingTimeout

    page = make_page(seed, number)
    settings = ReadSettings()
    size = len(page.doc.text) + sum(len(t) for t in page.doc.files.values())
    failures: list[str] = []
    over: list[str] = []
    slowest = (0.0, "")
    started = time.perf_counter()
    for extractor in REGISTRY:
        began = time.perf_counter()
        try:
            read_within(page.doc, extractor.name, settings)
        except ReadingTimeout:
            over.append(f"{extractor.name}: stopped by the time limit")
        except ExtractionError:
            pass
        except Exception:  # the fuzzer's whole point: any other exception is a bug
            failures.append(f"{extractor.name}: {traceback.format_exc(limit=-3)}")
        took = time.perf_counter() - began
        if took > settings.seconds and not any(o.startswith(extractor.name) for o in over):
            over.append(f"{extractor.name}: {took:.2f} s")
        slowest = max(slowest, (took, extractor.name))
    return Outcome(number, page.shape, size, time.perf_counter() - started, slowest, failures, over)


def run(seed: int, count: int, jobs: int) -> Iterator[Outcome]:
    if jobs <= 1:
        for number in range(count):
            yield read_page(seed, number)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(read_page, [seed] * count, range(count), chunksize=16)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=None, help="print page SHOW of the seed and exit")
    args = parser.parse_args(argv)
    if args.show is not None:
        page = make_page(args.seed, args.show)
        print(f"# {page.shape} {page.doc.content_type} {page.doc.url}", file=sys.stderr)
        print(page.doc.text or "\n".join(f"== {p}\n{t}" for p, t in page.doc.files.items()))
        return 0
    started = time.perf_counter()
    pages = failed = over = 0
    slowest: Outcome | None = None
    for outcome in run(args.seed, args.count, args.jobs):
        pages += 1
        if outcome.failures or outcome.over_budget:
            failed += bool(outcome.failures)
            over += bool(outcome.over_budget)
            print(f"page {outcome.number} ({outcome.shape}, {outcome.size:,} chars):")
            for line in outcome.failures + outcome.over_budget:
                print("  " + line.rstrip().replace("\n", "\n  "))
        if slowest is None or outcome.slowest[0] > slowest.slowest[0]:
            slowest = outcome
    elapsed = time.perf_counter() - started
    print(f"{pages:,} pages (seed {args.seed}) through every extractor in {elapsed:.1f} s")
    if slowest is not None:
        print(f"slowest reading: page {slowest.number} ({slowest.shape}, {slowest.size:,} chars) by "
              f"{slowest.slowest[1]} in {slowest.slowest[0]:.2f} s")  # fmt: skip
    print(f"pages with an exception: {failed}; pages over the time budget: {over}")
    return 1 if failed or over else 0


if __name__ == "__main__":
    sys.exit(main())
