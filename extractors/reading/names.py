"""People's names: is a text a person's name, and is a text a list of authors.

Both are decided word by word with plain string tests (no backtracking pattern), so an author
list of any length in any citation style (APA "Doe, J. A., Roe, B., & Poe, C.", Vancouver
"Doe JA, Roe B", IEEE "J. A. Doe, B. Roe, and C. Poe", "Jane Doe and John Roe", "et al.")
is checked in time linear in its length.

A name is two to five words, each capitalised, an initial or a particle ("van", "de"), with
no digits and none of the words that make job titles, fields and headings look like names
("Software Engineer", "Machine Learning", "Graduate Student").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from watcher.text import clean_text

__all__ = [
    "author_prefix",
    "clean_person_name",
    "is_degree_list",
    "is_person_name",
    "looks_like_authors",
    "split_author_list",
]

PARTICLES = frozenset(
    {"van", "von", "de", "der", "den", "da", "di", "del", "della", "dos", "das", "du", "le", "la", "bin", "binti",
     "al", "el", "ibn", "ter", "te", "y", "e", "zu", "af", "st", "st."}
)
#: Words that are never part of a person's name but often stand where names do.
NOT_NAME_WORDS = frozenset(
    {
        "student", "students", "engineer", "engineers", "scientist", "scientists", "professor", "professors",
        "researcher", "researchers", "postdoc", "postdocs", "postdoctoral", "fellow", "fellows", "fellowship",
        "intern", "interns", "director", "manager", "lead", "leader", "head", "chair", "member", "members", "alumni",
        "alumnus", "alumna", "alumnae", "graduate", "graduates", "undergraduate", "undergraduates", "candidate",
        "candidates", "assistant", "associate", "visiting", "visitor", "visitors", "staff", "faculty", "lecturer",
        "instructor", "principal", "investigator", "investigators", "coordinator", "administrator", "administrative",
        "technician", "technicians", "officer", "editor", "founder", "president", "advisor", "adviser", "mentor",
        "team", "group", "lab", "laboratory", "labs", "center", "centre", "institute", "university", "college",
        "school", "department", "dept", "program", "programme", "project", "projects", "research", "learning",
        "machine", "deep", "neural", "network", "networks", "data", "science", "sciences", "computer", "computing",
        "engineering", "software", "hardware", "systems", "system", "vision", "language", "languages", "robotics",
        "robot", "intelligence", "artificial", "biology", "chemistry", "physics", "mathematics", "statistics",
        "economics", "psychology", "medicine", "health", "analysis", "theory", "applied", "information", "security",
        "design", "human", "interaction", "interfaces", "graphics", "quantum", "energy", "climate", "ocean", "earth",
        "environmental", "materials", "mechanical", "electrical", "civil", "chemical", "bio", "bioinformatics",
        "publications", "publication", "papers", "paper", "news", "awards", "award", "honors", "honours", "people",
        "contact", "home", "about", "teaching", "talks", "service", "blog", "cv", "resume", "experience",
        "education", "positions", "position", "phd", "ph.d", "msc", "bsc", "ms", "ma", "ba", "master", "masters",
        "bachelor", "bachelors", "doctoral", "doctorate", "degree", "current", "former", "past", "present", "new",
        "selected", "recent", "upcoming", "all", "more", "other", "others", "and", "the", "of", "for", "in", "on",
        "at", "with", "to", "from", "by", "a", "an", "our", "my", "your", "their", "we", "i", "is", "are", "was",
        "were", "has", "have", "will", "this", "that", "these", "those", "welcome", "join", "open",
        "hiring", "opportunities", "prospective", "interests", "research-interests", "summer", "winter", "spring",
        "fall", "autumn", "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december", "inc", "ltd", "corp", "llc", "co", "company", "foundation", "society", "association",
        "council", "committee", "conference", "workshop", "journal", "proceedings", "symposium", "transactions",
        "letters", "review", "arxiv", "preprint", "google", "scholar", "github", "twitter", "linkedin", "email",
        "phone", "office", "address", "room", "building", "street", "road", "avenue",
        # Units named in other languages: "Dipartimento di Fisica", "Institut für Physik".
        "dipartimento", "departamento", "département", "departement", "institut", "instituto", "istituto",
        "università", "universität", "université", "universidad", "universidade", "universiteit", "facultad",
        "fakultät", "faculté", "laboratorio", "laboratoire", "zentrum", "escuela", "école",
        "scuola",
        # Buttons and menu labels of site themes: "Select Page", "Download CV", "View Profile" ("Page"
        # and "Hall" are surnames too); a wiki's "User Tools" and "Site Tools".
        "select", "download", "view", "profile", "menu", "toggle", "navigation", "tools",
        # Words frequent in titles of papers and rare in names: "Broadband Rollout and Rural Job
        # Search" is a title, though each half is two or three capitalised words.
        "search", "job", "jobs", "market", "markets", "rural", "urban", "policy", "policies", "growth", "effects",
        "effect", "evidence", "model", "models", "modeling", "modelling", "method", "methods", "approach",
        "framework", "towards", "toward", "using", "via", "based", "beyond", "under", "through", "during", "between",
        "among", "across", "against", "without", "within", "what", "when", "why", "how", "does", "can", "not",
        "labor", "labour", "wage", "wages", "tax", "taxes", "public", "social", "political", "politics", "economic",
        "economy", "financial", "finance", "monetary", "fiscal", "global", "national", "international",
        "government", "conflict", "migration", "immigration", "income", "inequality", "poverty", "risk",
        "uncertainty", "prices", "firms", "firm", "households", "household", "workers", "women", "children",
        "evolution", "dynamics", "structure", "structures", "control", "optimal", "optimization", "estimation",
        "inference", "prediction", "detection", "recognition", "generation", "representation", "representations",
        "efficient", "robust", "scalable", "adaptive", "distributed", "dynamic", "multi", "fast",
        "understanding", "learning-based", "training", "transfer", "reinforcement", "generative",
        "diffusion", "images", "image", "video", "videos", "text", "speech", "graph", "graphs", "signals", "signal",
        "cells", "cell", "protein", "proteins", "gene", "genes", "genome", "genomic", "cancer", "disease",
        "diseases", "clinical", "patients", "brain", "neurons", "species", "soil", "water", "carbon", "plant",
        "plants", "sediment", "ice", "solar", "stellar", "galaxy", "galaxies", "star", "stars",
        "planet", "planets", "spectral", "magnetic", "thermal", "optical", "electron", "surface", "fluid", "flow",
        "flows", "transport", "mixing", "waves", "turbulence", "access", "impact",
        "impacts", "role", "study", "studies", "survey", "trial", "experiment", "experiments",
        # Where a paper stands, written where authors stand: "Revise and Resubmit", "Under Review".
        "revise", "resubmit", "resubmitted", "revised", "revision", "revisions", "submitted", "accepted",
        "forthcoming", "manuscript", "draft", "progress", "conditionally", "stages",
    }
)
#: Titles and degrees written before a name, stacked as some countries write them ("Prof. Dr.-Ing.",
#: "M.Sc.", "Dipl.-Inf."): a student who graduates keeps their name.
_HONORIFICS = re.compile(
    r"^(?:(?:dr|prof|professor|mr|ms|mrs|miss|mx|sir|dame|(?:assoc|asst|assistant|associate)\.? prof|a/prof|e/prof)"
    r"\.?(?:-ing\.|\s?rer\. nat\.)?\s+"
    r"|(?:m\.\s?sc|b\.\s?sc|m\.\s?eng|b\.\s?eng|dipl\.-\w{2,5})\.?\s+)+",
    re.I,
)


def _dotted(*letters_of: str) -> str:
    """Degree abbreviations as written with or without full stops: "MPH", "M.P.H.", "Ph.D"."""
    return "|".join(r"\.?\s?".join(map(re.escape, letters)) + r"\.?" for letters in letters_of)


#: Degrees and generational suffixes after a name ("Jordan T. Abebe, MPH", "Ana Lima MD, PhD");
#: two letters that are also surnames ("Li Ma") go only after a comma.
_DEGREES = _dotted("phd", "md", "mph", "msc", "bsc", "mba", "dphil", "mphil", "mbbs", "mbchb", "drph", "pharmd",
                   "dvm", "frcp", "frcpc", "facp", "meng", "jr", "sr", "mrcp", "mrcs", "frcs", "frcr", "frca",
                   "fmedsci", "fracp", "mrcgp", "frcgp", "mrcpsych", "frcpsych", "facc", "fesc", "faha")
_SURNAME_LIKE_DEGREES = _dotted("ma", "ms", "ba", "bs", "rn", "jd", "dds", "pe", "peng", "cpa", "frs", "frsc", "faaas")
# A match starts at the comma or where the white space starts, never inside it: linear time.
_SUFFIXES = re.compile(
    rf"(?:(?:,|(?<!\s))\s+(?:{_DEGREES}|ii|iii|iv)|,\s+(?:{_SURNAME_LIKE_DEGREES}))+$", re.I
)
#: Degrees parted by commas or, as British and Commonwealth pages write them, by spaces ("MBBS MRCP").
_DEGREE_LIST = re.compile(
    rf"(?:{_DEGREES}|{_SURNAME_LIKE_DEGREES})(?:(?:\s*,\s*|\s+)(?:{_DEGREES}|{_SURNAME_LIKE_DEGREES}))*", re.I
)


#: A degree and its field, as a CV's education line names them: "Ph.D., Philosophy", "M.Sc. in Physics",
#: "Dr. rer. nat. (Physics)".
_DEGREE_IN_A_FIELD = re.compile(
    rf"(?:{_DEGREES}|{_SURNAME_LIKE_DEGREES}|dr\.?\s*rer\.?\s*nat|dr\.?\s*phil|diplom\S*|habilitation)\.?"
    r"(?![^\W\d_])(?:(?:\s*[,(]\s*|\s+in\s+)(?P<field>[^,;:()]{1,60})\)?)?",
    re.I,
)


def is_degree_in_a_field(text: str) -> bool:
    """Whether a text names only a degree and its field (no thesis: a thesis is a work)."""
    found = _DEGREE_IN_A_FIELD.fullmatch(text.strip(" .,"))
    return found is not None and not re.search(r"thesis|dissertation", found["field"] or "", re.I)


def is_degree_list(text: str) -> bool:
    """Whether a text is only degrees ("Ph.D., P.Eng.", "MD, MPH"): letters after a name, not a role."""
    return _DEGREE_LIST.fullmatch(text.strip(" ()[]")) is not None


_NICKNAME = re.compile(r"\s*[(（\"“][^)）\"”]{1,30}[)）\"”]")
_AUTHOR_MARKS = "*†‡§¶#✝∗⋆+^"


def is_name_with_degrees(text: str) -> bool:
    """A person's name followed by their degrees ("Philippa Rowntree, PhD", "Ana Lima (MD, PhD)")."""
    parts = _DEGREES_AFTER.split(text, maxsplit=1)
    return len(parts) == 2 and is_person_name(parts[0]) and is_degree_list(parts[1])


_DEGREES_AFTER = re.compile(r",\s*|\s+(?=\()")


def clean_person_name(text: str) -> str:
    """A name without honorifics, degree suffixes, nicknames in brackets or footnote marks."""
    text = clean_text(text).strip(" ,;:.-–—|")
    text = _HONORIFICS.sub("", text)
    text = _SUFFIXES.sub("", text)
    if "(" in text or "（" in text or '"' in text or "“" in text:
        text = _NICKNAME.sub("", text)
    return text.strip(" ,;:-–—|" + _AUTHOR_MARKS).strip()


#: Endings of abstract and plural nouns that titles are made of and names almost never end in:
#: "Misallocation", "Politicians", "Inequalities", "Fairness", "Partnerships".
_NOUN_ENDINGS = ("tion", "tions", "sion", "sions", "ians", "ity", "ities", "ness", "ism", "isms", "ology",
                 "ologies", "ships")


def _common_word(word: str) -> bool:
    """A word (of three letters or more) that makes titles and headings, never names."""
    word = word.lower().strip(".,")
    return len(word) > 2 and (word in NOT_NAME_WORDS or (len(word) > 6 and word.endswith(_NOUN_ENDINGS)))


def _name_word(word: str) -> bool:
    """One word of a name: capitalised ("Jane", "O'Neil", "Smith-Jones"), an initial ("J.",
    "J.-P."), or a particle."""
    if word.lower() in PARTICLES:
        return True
    stripped = word.rstrip(".,").strip(_AUTHOR_MARKS)
    if not stripped:
        return False
    first = stripped[0]
    if not first.isupper():
        return False
    if len(stripped) <= 3 and stripped.replace(".", "").replace("-", "").isupper():
        return True  # initials: "J", "J.", "JA", "J.-P"
    if stripped.endswith(("'", "’", "'s", "’s")):
        return False  # a possessive ("Politicians'", "Nature's") belongs to a title
    body = stripped.replace("-", "").replace("'", "").replace("’", "").replace(".", "")
    return body.isalpha()


def is_person_name(text: str, plain_words: int = 5) -> bool:
    """Whether a short text is a person's name (after ``clean_person_name``).

    ``plain_words``: the most words a name may have without an initial, a particle or a hyphen
    among them. Where a title is as likely as a name (a bold line in a citation), 3: "Entropy
    Models Without Hyperpriors" is a title, "Jane A. Doe" and "Gabriel dos Santos" are names.
    """
    name = clean_person_name(text)
    if not name or len(name) > 60 or any(ch.isdigit() for ch in name):
        return False
    words = name.replace(",", " ").split()
    if not 2 <= len(words) <= 5:
        return False
    if len(words) > plain_words and not any(_marked_name_word(word) for word in words):
        return False
    if not all(_name_word(word) for word in words):
        return False
    if any(_common_word(word) for word in words if word.lower() not in PARTICLES):
        return False
    # All-capital names ("JANE DOE") are fine; all-initial ones ("A. B.") are not names.
    return any(len(word.rstrip(".,")) > 2 for word in words) and _letters_only(name)


def _marked_name_word(word: str) -> bool:
    """An initial, a particle or a hyphenated name: words titles rarely have."""
    return word.lower() in PARTICLES or _is_initials(word) or ("-" in word.strip("-") and word[:1].isupper())


def _letters_only(text: str) -> bool:
    for ch in text:
        if ch.isalpha() or ch in " .,'’-":
            continue
        if unicodedata.category(ch).startswith("M"):  # combining accents
            continue
        return False
    return True


# ------------------------------------------------------------------ author lists

# A match starts at a separator or where white space starts, never inside a run of it: linear time.
_SEPARATORS = re.compile(r"(?:(?<!\s)\s+)?(?:;|,|&|\band\b|\bund\b|\bet\b(?!\s+al))\s*", re.I)
#: A surname-first list's last initials run on into the title: "M. E. Synthesis".
_INITIALS_THEN_TITLE = re.compile(r"^((?:[A-Z]\.\s?-?){1,3})\s*(?=[A-Z][a-z])")
_ET_AL = re.compile(r"\bet\.?\s*al\b\.?|\band (?:others|colleagues)\b", re.I)
_EQUAL = re.compile(r"\((?:equal contribution|co-first|\*|†)[^)]*\)", re.I)


def _author_token(token: str) -> bool:
    """One comma/and-separated piece of an author list: a name, or the initials of one
    ("Doe, J. A." splits into "Doe" and "J. A.")."""
    token = token.strip(" .:" + _AUTHOR_MARKS)
    if not token:
        return True
    if token.isdigit():
        return len(token) <= 2  # an affiliation mark ("Doe1,2"), not a year or a volume
    words = token.split()
    if len(words) > 5:
        return False
    if words[-1][-1].isdigit() and words[-1][0].isalpha():
        words[-1] = words[-1].rstrip("0123456789")  # "Doe1": an affiliation mark on the name
    for index, word in enumerate(words):
        if any(ch.isdigit() for ch in word) or not _name_word(word):
            return False
        if index < len(words) - 1 and word.endswith(".") and not _is_initials(word):
            return False  # "Quill. CVPR": a full stop ends the name, what follows is not it
    return not any(_common_word(word) for word in words if word.lower() not in PARTICLES)


def split_author_list(text: str) -> list[str]:
    """The pieces of an author list, separators dropped."""
    text = _EQUAL.sub("", _ET_AL.sub("", text))
    return [piece for piece in _SEPARATORS.split(text) if piece.strip(" ." + _AUTHOR_MARKS)]


def looks_like_authors(text: str) -> bool:
    """Whether a text is a list of people's names (two or more, or one name and "et al.")."""
    text = clean_text(text).strip(" .,;:")
    if not text or len(text) > 20_000:
        return False
    has_et_al = bool(_ET_AL.search(text))
    pieces = split_author_list(text)
    if not pieces or not all(_author_token(piece) for piece in pieces):
        return False
    names = [p for p in pieces if any(len(w.rstrip(".,")) > 2 for w in p.split())]
    return len(names) >= 2 or (len(names) == 1 and (has_et_al or len(pieces) >= 2))


#: A name as NLM (Vancouver) writes it: the surname, then the initials with no stops ("Mehta-Fitzgerald R").
_NLM_NAME = re.compile(r"[^\W\d][\w'’-]*(?: [^\W\d][\w'’-]*){0,2} [A-Z]{1,3}")
_NLM_THEN_TITLE = re.compile(rf"(?P<name>{_NLM_NAME.pattern})\.\s+\S")
#: One author named in full, then the year as a sentence of its own: "Marta Ruiz. 2019. Title."
_ONE_AUTHOR_THEN_YEAR = re.compile(r"(?P<name>[^\W\d][^.,;:()\d]{2,58}?)\.\s+(?:19|20)\d\d[a-z]?\.\s")


def author_prefix(text: str) -> int:
    """Where a citation's leading author list ends (0 when it does not start with one).

    The list ends at the first piece that is not a name: "Doe, J., & Roe, B. (2020). Title …"
    ends after "B."; "J. Doe, B. Roe. Title …" after "B. Roe."; "Doe J, Roe B. Title" after
    "Roe B.". One pass over the text.
    """
    if (alone := _ONE_AUTHOR_THEN_YEAR.match(text)) and is_person_name(alone["name"]):
        return alone.end("name") + 1  # "Marta Ruiz. 2019. Title.": one author, then the year (ACL, natbib)
    names = 0
    initials_first = False  # surname-first style ("Doe, J."): the list's last piece is initials
    nlm_style = True  # every name so far as NLM writes it ("Doe JA")
    pieces: list[tuple[str, int]] = []  # the names read, with where each starts
    position = 0
    lead = _ET_AL.search(text, 0, 80)
    if lead and _author_token(text[: lead.start()]) and text[: lead.start()].strip():
        return lead.end()  # "Buchanan et al. (2021)"
    for match in _SEPARATORS.finditer(text):
        piece = text[position : match.start()].strip()
        if piece:
            if names and (et_al := _ET_AL.match(piece)):
                return position + et_al.end()
            if len(piece) > 60 or not _author_token(piece):
                if initials_first and (end := _initials_into_title(pieces)):
                    return end
                break
            at = text.index(piece, position)
            if pieces and nlm_style and (nlm := _NLM_THEN_TITLE.match(piece)):
                return at + nlm.end("name") + 1  # "Cross N, Lind F. Racial and …": NLM's last name, then the title
            names += 1
            initials_first = initials_first or _is_initials(piece)
            nlm_style = nlm_style and _NLM_NAME.fullmatch(piece) is not None
            pieces.append((piece, at))
        position = match.end()
    else:
        if names and _author_token(text[position:]):
            return len(text)
    if not names:
        return 0
    if et_al := _ET_AL.match(text, position):
        return et_al.end()
    end = _last_name_end(text, position, initials_first)
    if end:
        return end
    # The list ended at a separator: "Doe, J., Roe, B., Learning to see …" (no full stop).
    return position if names >= 2 else 0


def _initials_into_title(pieces: Sequence[tuple[str, int]]) -> int:
    """Where a surname-first list ends whose last initials ran on into the title: "…; Calloway,
    M. E. Synthesis and Characterization of …" read "M. E. Synthesis" as a name before the title's
    next words stopped it. Only after a surname ("H. Yoon" after "Doe, J." is a name)."""
    if len(pieces) < 2 or _is_initials(pieces[-2][0]):
        return 0
    piece, start = pieces[-1]
    initials = _INITIALS_THEN_TITLE.match(piece)
    return start + initials.end(1) if initials else 0


def _is_initials(piece: str) -> bool:
    letters = piece.replace(".", "").replace("-", "").replace(" ", "")
    return bool(letters) and len(letters) <= 3 and letters.isupper()


def _last_name_end(text: str, start: int, initials_only: bool) -> int:
    """The end of the last author's name in the piece at ``start``, which runs on into the title
    ("B. Roe. Learning to see"): after its initials in surname-first lists, else after the first
    full word that ends with a full stop."""
    end = 0
    at = start
    last_word_end = 0
    for word in text[start:].split():
        at = text.index(word, at) + len(word)
        if not _name_word(word) or _common_word(word):
            if last_word_end and word[:1] == "(" and word[1:2].isdigit():
                return last_word_end  # "John Roe (2020) Title": the year follows the list
            break
        last_word_end = at
        if word.endswith("."):
            if _is_initials(word):
                end = at  # "D." and "D. E." end a surname-first name; keep going over initials
                continue
            return at
        if end and initials_only:
            break
    return end
