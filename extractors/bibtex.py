"""BibTeX files as a first-class source.

Claims: URLs ending in ``.bib``; documents served as BibTeX (``application/x-bibtex``,
``text/x-bibtex``) or whose text opens with a ``@type{`` entry; repository bundles that
hold only ``.bib`` files.

Reads: every entry with a title becomes a :class:`~watcher.records.Paper`: the title
with braces and LaTeX accents turned into plain Unicode, authors turned from
"Last, First and ..." into "First Last", the venue from ``journal``/``booktitle``/...
(or al-folio's ``abbr``), the year, a URL, the DOI, and the arXiv id (from ``eprint``,
an ``arxiv`` field, or any link or venue that names one). An ``award_name`` / ``award``
field (al-folio shows it on the entry) is an :class:`~watcher.records.Award` given by the
paper's venue. ``@string``/``@comment`` blocks are not papers; a malformed entry is
skipped, never fatal.

``read_bibtex(text)`` is the reusable core (the al-folio and data extractors call it for
``_bibliography/papers.bib``); ``parse_bibtex(text)`` gives only its papers.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from extractors.base import Case, Extractor
from extractors.reading.awards import paper_award
from extractors.reading.papers import publication_status, with_status
from watcher.records import Award, Document, Paper, Record
from watcher.text import clean_text, clean_title, find_arxiv, find_doi, parse_year

if TYPE_CHECKING:
    from bibtexparser.model import Block, Field
    from pylatexenc.latex2text import LatexNodes2Text

__all__ = [
    "CASES", "BibtexExtractor", "bibtex_entries", "bibtex_names", "latex_to_text", "parse_bibtex", "read_bibtex"
]

_ENTRY_START = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.M)
_FIRST_ENTRY = re.compile(r"\A(?:\s|%[^\n]*\n)*@\s*[A-Za-z]+\s*[{(]")
_LATEX_COMMAND_WITH_ARG = re.compile(
    r"\\(?:textbf|textit|textrm|textsc|textsf|texttt|emph|mathrm|mathbf|mbox|text)\s*\{([^{}]*)\}"
)
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\s*")
_LATEX_ESCAPE = re.compile(r"\\([&%$#_{}~])")
_COMBINING = {
    "`": "\u0300", "'": "\u0301", "^": "\u0302", "~": "\u0303", "=": "\u0304", "u": "\u0306", ".": "\u0307",
    '"': "\u0308", "r": "\u030a", "H": "\u030b", "v": "\u030c", "c": "\u0327", "k": "\u0328",
}
_ACCENT = re.compile(r"\{?\\(?P<accent>[`'^~=.\"]|[uvHrck](?=[\s{]))\s*\{?\s*(?P<letter>\\[ij]|[A-Za-z])\s*\}?\}?")
_LETTERS = {"ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "l": "ł",
            "L": "Ł", "i": "ı"}
_LETTER_COMMAND = re.compile(r"\\(?P<name>ss|aa|AA|ae|AE|oe|OE|o|O|l|L|i)(?![A-Za-z])\s*")
_OTHER_LATEX = re.compile(r"\\[A-Za-z]{2,}|\$")
_LATEX_TEXT_MARKS = re.compile(r"(?<!\\)[%&]")
_AUTHOR_MARKS = "*†‡§¶#"
_VENUE_FIELDS = ("journal", "booktitle", "school", "institution", "howpublished", "publisher", "organization")
_URL_FIELDS = ("url", "html", "website", "pdf")
_BIB_PATH = re.compile(r"(?:^|/)[^/]+\.bib$")
#: An entry start spaced out (``@ misc{``, ``@misc\n{``), tidied for the parser, which wants ``@misc{``.
_LOOSE_START = re.compile(r"^([ \t]*)@\s*([A-Za-z]+)\s*(?=[{(])", re.M)
#: BibTeX's predefined macros (``month = jan``).
_MONTHS = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
    "jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
}  # fmt: skip
_VALUE_PIECE = re.compile(r'\s*(?:(?P<open>[{"])|(?P<word>[\w:-]+))', re.A)  # a number or a macro's name
_VALUE_JOIN = re.compile(r"\s*#")
_BRACES = re.compile(r"(?<!\\)[{}]")  # the parser's own rule: a brace after a backslash is text
_BRACES_AND_QUOTE = re.compile(r'(?<!\\)[{}"]')

# Malformed blocks are common on the web, and skipped: the parser's warning for each is noise.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


def parse_bibtex(text: str) -> list[Paper]:
    """Every titled entry of a BibTeX text as a Paper, in file order; bad entries are skipped."""
    return read_bibtex(text)[0]


def read_bibtex(text: str) -> tuple[list[Paper], list[Award]]:
    """The papers of a BibTeX text, and the awards its entries give them (``award_name`` /
    ``award`` fields, as the al-folio theme shows them on a paper's entry)."""
    papers: list[Paper] = []
    awards: list[Award] = []
    for entry in bibtex_entries(text):
        if (paper := _paper_from_entry(entry)) is None:
            continue
        papers.append(paper)
        fields = {k.lower(): v for k, v in entry.items() if isinstance(v, str)}
        stated = next((latex_to_text(fields[k]) for k in ("award_name", "award") if fields.get(k)), None)
        if stated and (award := paper_award(stated, paper)) is not None:
            awards.append(award)
    return papers, awards


def latex_to_text(value: str | None) -> str:
    """LaTeX-flavoured BibTeX text as plain Unicode: accents decoded, markup and braces dropped."""
    if not value:
        return ""
    for _ in range(3):  # nested markup: \textbf{\emph{x}}
        value = _LATEX_COMMAND_WITH_ARG.sub(r"\1", value)
    value = _decode_accents(value)
    if _OTHER_LATEX.search(value):  # a full LaTeX reader is slow (~0.5 ms a call): rare cases only
        value = _read_latex(value)
    value = _LATEX_ESCAPE.sub(r"\1", value)
    value = _LATEX_COMMAND.sub("", value).replace("~", " ").replace("--", "–")
    return clean_text(value.replace("{", "").replace("}", ""))


def _decode_accents(value: str) -> str:
    """The common accent commands (\\'e, \\"{o}, \\c{c}, \\ss, \\o ...) as Unicode, without a table walk."""
    value = _ACCENT.sub(lambda m: _base_letter(m["letter"]) + _COMBINING[m["accent"]], value)
    value = _LETTER_COMMAND.sub(lambda m: _LETTERS[m["name"]], value)
    return unicodedata.normalize("NFC", value)


def _base_letter(letter: str) -> str:
    return {"\\i": "i", "\\j": "j"}.get(letter, letter)


def _read_latex(value: str) -> str:
    """Math, symbols and other commands as text; the text as it is if the LaTeX cannot be read."""
    # A bare % or & in a BibTeX field is text, not LaTeX's comment or column mark.
    with contextlib.suppress(Exception):
        return _latex_reader().latex_to_text(_LATEX_TEXT_MARKS.sub(r"\\\g<0>", value))
    return value


@functools.cache
def _latex_reader() -> LatexNodes2Text:
    # Imported on the first rare value. \LaTeX and \TeX are names, not markup to drop; a \url is its address.
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    context = get_default_latex_context_db()
    names = [MacroTextSpec("LaTeX", "LaTeX"), MacroTextSpec("TeX", "TeX"), MacroTextSpec("url", "%(1)s")]
    context.add_context_category("names", macros=names, prepend=True)
    return LatexNodes2Text(latex_context=context)


def bibtex_names(value: str | None) -> tuple[str, ...]:
    """A BibTeX name list ("Last, First and First Last and others") as "First Last" names."""
    text = latex_to_text(value)
    if not text:
        return ()
    names = []
    for part in re.split(r"\s+and\s+", text):
        for name in _names_in_part(part.strip(" ,")):
            if name and name.lower() not in {"others", "et al", "et al."}:
                names.append(name)
    return tuple(names)


def _names_in_part(part: str) -> list[str]:
    """One BibTeX name, or (a common mistake) several "First Last" names joined by commas."""
    pieces = [p.strip() for p in part.split(",") if p.strip()]
    if len(pieces) >= 2 and all(" " in p and not p[0].islower() for p in pieces):
        return [_first_last(p) for p in pieces]
    return [_first_last(part)]


def _first_last(name: str) -> str:
    pieces = [p.strip().strip(_AUTHOR_MARKS).strip() for p in name.split(",")]
    pieces = [p for p in pieces if p]
    if len(pieces) == 2:  # "Last, First"
        return clean_text(f"{pieces[1]} {pieces[0]}")
    if len(pieces) == 3:  # "Last, Jr., First"
        return clean_text(f"{pieces[2]} {pieces[0]} {pieces[1]}")
    return clean_text(" ".join(w.strip(_AUTHOR_MARKS) for w in name.split()))


def bibtex_entries(text: str) -> Iterator[dict[str, str]]:
    """The fields of each entry of a BibTeX text by lower-case name, in file order; bad entries are skipped."""
    text = text.removeprefix("\ufeff")  # a byte-order mark would hide the first entry's ``@``
    if not _ENTRY_START.search(text):
        return  # no entry at all: nothing to import or parse
    try:
        yield from _load(text)
        return
    except Exception:  # the parser skips malformed blocks itself: this is for its own internal errors
        pass
    starts = [m.start() for m in _ENTRY_START.finditer(text)] + [len(text)]
    for begin, end in itertools.pairwise(starts):
        try:
            yield from _load(text[begin:end])
        except Exception:
            continue


def _load(text: str) -> list[dict[str, str]]:
    """Every well-formed entry, with ``@string`` and month macros and ``#`` joins resolved as BibTeX does."""
    # Imported on the first BibTeX read: most pages never need it.
    import bibtexparser
    from bibtexparser.model import Entry, String

    text = _LOOSE_START.sub(r"\1@\2", text)
    library = bibtexparser.parse_string(text, parse_stack=[])  # values kept raw: resolved below, in file order
    strings = dict(_MONTHS)
    entries: list[dict[str, str]] = []
    for block in _blocks_at_line_starts(text, library.blocks):
        if isinstance(block, String) and (value := _field_value(block.value, strings)) is not None:
            strings[block.key.lower()] = value
        elif isinstance(block, Entry) and (fields := _entry_fields(block.fields, strings)):
            entries.append(fields)  # an entry without fields (``@misc{key}``) is a citation, not a paper
    return entries


def _blocks_at_line_starts(text: str, blocks: Iterable[Block]) -> Iterator[Block]:
    """The entries and ``@string``s whose ``@`` starts a line or follows the block before: an ``@type{`` in the
    middle of a line (an entry commented out with ``%``), or after a broken block on its line, is text."""
    from bibtexparser import model

    source = "\n" + text  # the parser's own copy: a block's raw text is a slice of it
    seen = follows = 0
    for block in blocks:
        if isinstance(block, model.ImplicitComment) or not block.raw or (at := source.find(block.raw, seen)) < 0:
            continue
        seen = at + 1
        if source[max(source.rfind("\n", 0, at) + 1, follows) : at].strip():
            continue
        if isinstance(block, model.DuplicateBlockKeyBlock | model.DuplicateFieldKeyBlock):
            block = block.ignore_error_block  # a repeated key or field name: read as BibTeX reads it
        if isinstance(block, model.Entry | model.String | model.Preamble):
            follows = at + len(block.raw)
        if isinstance(block, model.Entry | model.String):
            yield block


def _entry_fields(fields: Iterable[Field], strings: Mapping[str, str]) -> dict[str, str] | None:
    """An entry's field values by lower-case name (the first of a repeated name wins); None if a value is malformed."""
    values: dict[str, str] = {}
    for field in fields:
        if (value := _field_value(field.value, strings)) is None:
            return None
        values.setdefault(field.key.lower(), value)
    return values


def _field_value(raw: str, strings: Mapping[str, str]) -> str | None:
    """A raw value as text: ``{...}``, ``"..."``, a number or a macro, or such pieces joined by ``#``; None if it is
    none of these. A macro nobody defined stays its name."""
    pieces = []
    at = 0
    while (piece := _VALUE_PIECE.match(raw, at)) is not None:
        if word := piece["word"]:
            pieces.append(strings.get(word.lower(), word))
            at = piece.end()
        elif (end := _closing(raw, piece.end(), piece["open"])) is not None:
            pieces.append(raw[piece.end() : end])
            at = end + 1
        else:
            return None
        if (join := _VALUE_JOIN.match(raw, at)) is None:
            return "".join(pieces) if not raw[at:].strip() else None
        at = join.end()
    return None


def _closing(raw: str, start: int, opening: str) -> int | None:
    """Where the ``{`` or ``"`` opened before ``start`` closes (braces nest, a quote in braces is text), if it does."""
    closing = "}" if opening == "{" else '"'
    depth = 0
    for mark in (_BRACES if opening == "{" else _BRACES_AND_QUOTE).finditer(raw, start):
        if mark[0] == "{":
            depth += 1
        elif mark[0] == "}" and depth:
            depth -= 1
        elif not depth:
            return mark.start() if mark[0] == closing else None
    return None


def _paper_from_entry(entry: Mapping[str, str]) -> Paper | None:
    fields = {k.lower(): v for k, v in entry.items() if isinstance(v, str)}
    title = clean_title(latex_to_text(fields.get("title")))
    if not title:
        return None
    links = [latex_to_text(fields.get(name)) for name in _URL_FIELDS if fields.get(name)]
    venue = _venue(fields)
    return Paper(
        title=title,
        authors=bibtex_names(fields.get("author") or fields.get("editor")),
        venue=venue,
        year=parse_year(fields.get("year")) or parse_year(fields.get("date")),
        url=links[0] if links else None,
        doi=_doi(fields, links),
        arxiv=_arxiv(fields, links, venue),
    )


#: biblatex's ``pubstate`` keys, as a page would write them.
_PUBSTATE = {"inpress": "in press", "inpreparation": "in preparation", "submitted": "submitted",
             "forthcoming": "forthcoming", "prepublished": "preprint"}


def _venue(fields: Mapping[str, str]) -> str | None:
    """The venue, with where the paper stands when a field says it ("to appear" in ``note``,
    biblatex's ``pubstate = {forthcoming}``): its going to press is news."""
    venue = next((value for name in (*_VENUE_FIELDS, "abbr") if (value := latex_to_text(fields.get(name)))), None)
    stated = (latex_to_text(fields.get(name)) for name in ("pubstate", "note", "status"))
    status = next((found for text in stated if (found := publication_status(_PUBSTATE.get(text, text)))), None)
    return with_status(venue, status) if venue else status


def _doi(fields: Mapping[str, str], links: list[str]) -> str | None:
    raw = clean_text(fields.get("doi")).lower()
    if raw:
        return find_doi(raw) or raw
    return next((doi for link in links if (doi := find_doi(link))), None)


def _arxiv(fields: Mapping[str, str], links: list[str], venue: str | None) -> str | None:
    eprint = clean_text(fields.get("eprint"))
    prefix = clean_text(fields.get("archiveprefix") or fields.get("eprinttype")).lower()
    if eprint and (prefix in {"", "arxiv"}) and (found := find_arxiv(f"arXiv:{eprint}")):
        return found
    if arxiv := clean_text(fields.get("arxiv")):
        return find_arxiv(f"arXiv:{arxiv}") or find_arxiv(arxiv) or arxiv
    return next((found for text in (*links, venue) if (found := find_arxiv(text))), None)


class BibtexExtractor(Extractor):
    """A ``.bib`` file (or a bundle of them) read entry by entry."""

    name = "bibtex"
    priority = 60
    url_patterns = (r"\.bib(?:$|[?#])",)
    source_paths = (r"(?:^|/)[^/]+\.bib$",)

    def detect(self, doc: Document) -> str | None:
        if doc.is_bundle:
            if all(_BIB_PATH.search(path) for path in doc.files):
                return "bundle of .bib files"
            return None
        if "bibtex" in doc.content_type.lower():
            return f"content type {doc.content_type}"
        if _FIRST_ENTRY.match(doc.text[:2000]):
            return "text opens with a BibTeX entry"
        return None

    def parse(self, doc: Document) -> list[Record]:
        if doc.is_bundle:
            texts = [text for path, text in sorted(doc.files.items()) if _BIB_PATH.search(path)]
        else:
            texts = [doc.text]
        return [record for text in texts for read in read_bibtex(text) for record in read]


CASES = (
    Case(
        fixture="bibtex/papers.bib",
        url="https://example.org/~rivera/papers.bib",
        content_type="text/plain",
        claims=("https://example.org/papers.bib", "https://raw.example.org/u/site/main/refs.bib?raw=1"),
        rejects=("https://example.org/papers.html", "https://example.org/bibliography/"),
        notes="LaTeX accents, Last-First names, eprint/arXiv, DOI from url, a malformed entry skipped",
    ),
    Case(
        fixture="bibtex/bundle",
        url="github:example/refs",
        notes="a repository holding only .bib files",
    ),
)
