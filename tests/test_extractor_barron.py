"""Edge cases of the barron extractor beyond its recorded fixtures."""

from __future__ import annotations

from extractors.barron import BarronExtractor, page_lines, read_awards
from watcher.diff import StoredItem, diff_items
from watcher.normalise import normalise_records
from watcher.records import Document, Paper, Role, record_fields

ROW = """<html><body><p class="name">Ida Vance</p><p>{bio}</p><h2>Research</h2><table>
<tr><td><span class="papertitle">{title}</span><br>
<strong>Ida Vance</strong>, <a href="https://example.org/p">Per Holm</a><br>
<em>{venue}</em>, {year}<br>
<a href="https://arxiv.org/abs/2401.01234">arXiv</a>
<p>A description that is <a href="https://arxiv.org/abs/1999.99999">not</a> the paper.</p></td></tr>
</table><p>Last updated May 2024.</p></body></html>"""


def _parse(text: str) -> list:
    return normalise_records(BarronExtractor().parse(Document(url="https://ida.example.org/", text=text)))


def _page(**values: object) -> str:
    fields = {
        "bio": "I'm a research scientist at Example Labs.",
        "title": "Light Transport in Fog Banks",
        "venue": "arXiv",
        "year": 2024,
    }
    return ROW.format(**{**fields, **values})


def test_venue_change_is_one_modified_paper() -> None:
    before = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in _parse(_page())]
    after = _parse(_page(venue="CVPR", year=2025))
    result = diff_items(before, after)
    assert [(c.change, c.kind) for c in result.changes] == [("modified", "paper")]
    assert result.changes[0].delta is not None and set(result.changes[0].delta) >= {"venue", "year"}


def test_arxiv_comes_from_the_entry_links_not_the_description() -> None:
    papers = [r for r in _parse(_page()) if isinstance(r, Paper)]
    assert [p.arxiv for p in papers] == ["2401.01234"]


def test_new_employer_in_bio_is_a_role_change() -> None:
    roles = [r for r in _parse(_page(bio="I'm a research scientist at Other Labs in Oslo.")) if isinstance(r, Role)]
    assert roles == [Role(title="Research scientist", organization="Other Labs")]


def test_a_student_s_biography_the_template_patterns_miss_is_read_by_the_shared_reader() -> None:
    bio = "I'm a fifth-year PhD student in the Visual Computing Group at Halverson University, where I'm advised by X."
    roles = [r for r in _parse(_page(bio=bio)) if isinstance(r, Role)]
    assert [(r.title, r.organization) for r in roles] == [
        ("Fifth-year PhD student", "Visual Computing Group at Halverson University")
    ]


def test_comments_and_hidden_rows_are_not_content() -> None:
    text = _page().replace(
        "<table>",
        '<table><!-- <tr><td><span class="papertitle">Ghost Paper Draft</span>'
        '</td></tr> --><tr hidden><td><span class="papertitle">Hidden Paper Row</span></td></tr>',
    )
    titles = [r.title for r in _parse(text) if isinstance(r, Paper)]
    assert titles == ["Light Transport in Fog Banks"]


def test_odd_input_fails_softly() -> None:
    for text in (
        "",
        "   ",
        "<html>",
        "<p>unclosed <b>bold <a href='x'>link",
        "<table><tr><td><br><br></table>",
        '<span class="papertitle"></span><br><br>',
    ):
        assert isinstance(BarronExtractor().parse(Document(url="https://x.example/", text=text)), list)
    assert page_lines("") == []


def test_bundles_and_non_html_are_not_detected() -> None:
    extractor = BarronExtractor()
    assert extractor.detect(Document(url="github:a/b", files={"index.html": _page()})) is None
    assert extractor.detect(Document(url="https://x.example/a.bib", text=_page(), content_type="text/x-bibtex")) is None
    assert extractor.detect(Document(url="https://x.example/", text=_page())) is not None


def test_a_restyled_page_with_the_template_s_credit_but_no_paper_rows_has_its_papers_read() -> None:
    card = """<article class="pub-card"><img src="t{n}.jpg"><div class="pub-body">
    <h3 class="pub-title">{title}</h3><p class="pub-authors"><b>Ida Vance</b>, Per Holm, Rui Sato</p>
    <p class="pub-venue"><em>CVPR</em> 202{n}</p></div></article>"""
    titles = ["Light Transport in Fog Banks", "Sparse Voxels for Moving Water", "Relighting Glaciers at Dusk"]
    page = f"""<html><body><header><h1>Ida Vance</h1></header>
    <section><h2>Awards</h2><ul><li>Rising Star Award, 2024</li><li>Best Reviewer, 2023</li>
    <li>Graduate Fellowship, 2022</li></ul></section>
    <section><h2>Publications</h2><div class="pub-grid">
    {"".join(card.format(n=n, title=t) for n, t in enumerate(titles))}</div></section>
    <footer>Template from <a href="https://github.com/jonbarron/jonbarron_website">here</a>.</footer></body></html>"""
    records, _ids = BarronExtractor().read(Document(url="https://ida.example.org/", text=page))
    # The template's own reading finds the awards but no paper rows: the shared reading adds the papers,
    # and the kinds the template did read are kept as it read them.
    assert [r.title for r in records if isinstance(r, Paper)] == titles
    assert [r.kind for r in records].count("award") == 3


def test_a_news_table_the_template_s_reading_misses_is_read_and_its_made_up_headings_head_sections() -> None:
    news = "".join(
        f'<tr><td class="news-date">{when}</td><td>{what}</td></tr>'
        for when, what in (("Nov 2025", "Honored to receive the Dissertation Award!"),
                           ("Aug 2025", "Joined Example Labs in Zurich as a Research Scientist."))
    )
    page = ROW.format(bio="I'm a research scientist at Example Labs.", title="Light Transport in Fog Banks",
                      venue="CVPR", year=2025)
    page = page.replace("<h2>Research</h2>", f'<h2>News</h2><table class="news-table">{news}</table><h2>Research</h2>')
    page = page.replace("</table><p>Last updated", """</table>
    <table><tr><td><heading>Honors</heading><ul><li>Graduate Fellowship, 2023</li><li>Best Reviewer, 2024</li></ul>
    </td></tr></table>
    <table><tr><td><heading>Service</heading><ul><li>Student volunteer, CVPR 2022</li></ul></td></tr></table>
    <table><tr><td><heading>Teaching</heading></td></tr><tr><td><a href="c.html">CS 484: Computer Vision</a><br>
    Teaching Assistant, Fall 2022</td></tr></table><p>Last updated""")
    records, _ids = BarronExtractor().read(Document(url="https://ida.example.org/", text=page))
    # The template's own reading has the paper and the post; the shared reading adds the news it missed,
    # and reads the service and teaching lists under their <heading> elements as nothing to report.
    assert [(r.kind, r.date) for r in records if r.kind == "news"] == [("news", "2025-11"), ("news", "2025-08")]
    assert [r.title for r in records if isinstance(r, Paper)] == ["Light Transport in Fog Banks"]
    assert [r.title for r in records if isinstance(r, Role)] == ["Research scientist"]
    assert [r.kind for r in records].count("award") == 2


def test_an_awards_table_with_a_year_column_dates_each_award() -> None:
    lines = page_lines("<h2>Awards</h2><table><tr><td>2025</td><td>Fellow of the Statistical Society</td></tr>"
                       "<tr><td>2023</td><td>Early Career Research Award</td></tr></table>")
    assert [(a.title, a.year) for a in read_awards(lines[1:])] == [
        ("Fellow of the Statistical Society", 2025), ("Early Career Research Award", 2023)
    ]


def test_a_cv_claimed_for_bold_rows_under_a_publications_heading_has_its_appointments_and_papers_read() -> None:
    # Bold posts over their places look like paper rows over author lines; the papers are a numbered
    # list of plain Vancouver references, which the template's reading does not see.
    unit = "School of Nursing, Midwifery and Health Systems, Larchmont University, Dublin"
    ward = "Heart Failure Service, St Aidan's University Hospital, Dublin"
    posts = "".join(
        f"<TR><TD>{years}<TD><B>{post}</B><BR>{place}\n"
        for years, post, place in [
            ("2020 &ndash; present", "Associate Professor in Cardiovascular Nursing", unit),
            ("2016 &ndash; 2020", "Lecturer in Nursing", unit),
            ("2012 &ndash; 2016", "Clinical Nurse Specialist (Heart Failure)", ward),
            ("2009 &ndash; 2012", "Staff Nurse, Coronary Care Unit", ward),
        ]
    )
    papers = "".join(
        f"<LI>Breen R, Ola T, Marsh K. Nurse-led follow-up after heart failure admission, part {n}. "
        f"Eur J Cardiovasc Nurs. {2010 + n};{n}(2):10-20. doi:10.5555/ejcn.{2010 + n}.{n}\n"
        for n in range(1, 13)
    )
    html = (
        "<HTML><BODY><H1>Dr Roisin Breen</H1><P>RGN, MSc, PhD<BR>School of Nursing, Larchmont University"
        "<H2>CURRENT APPOINTMENTS</H2><TABLE>" + posts + "</TABLE><H2>HONOURS AND AWARDS</H2><TABLE>"
        "<TR><TD>2021<TD>President's Award for Research Impact, Larchmont University"
        "<TR><TD>2019<TD>Best Abstract Award, Cardiovascular Nursing Conference</TABLE>"
        "<H2>PUBLICATIONS</H2><H3>Peer-reviewed journal articles</H3><OL>" + papers + "</OL></BODY></HTML>"
    )
    doc = Document(url="https://staff.example.edu/rbreen/cv.html", text=html)
    extractor = BarronExtractor()
    assert extractor.detect(doc) == "hand-written page with a publications heading over paper rows"
    records = normalise_records(extractor.read(doc)[0])
    assert [r.title for r in records if isinstance(r, Role)][-4:] == [
        "Associate Professor in Cardiovascular Nursing",
        "Lecturer in Nursing",
        "Clinical Nurse Specialist (Heart Failure)",
        "Staff Nurse, Coronary Care Unit",
    ]
    assert [r.title for r in records if isinstance(r, Paper)] == [
        f"Nurse-led follow-up after heart failure admission, part {n}" for n in range(1, 13)
    ]
