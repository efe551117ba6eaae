"""The shared reading (``extractors.reading``): its passes and field readers on invented pages."""

from __future__ import annotations

import time

import pytest

from extractors.reading import read_html, read_markdown
from extractors.reading.awards import parse_award_line
from extractors.reading.context import is_noise
from extractors.reading.dates import find_range, leading_date, parse_date_text
from extractors.reading.names import author_prefix, clean_person_name, is_person_name, looks_like_authors
from extractors.reading.roles import dedupe_roles
from extractors.reading.vocabulary import heading_kind, is_unlisted_heading
from watcher.diff import StoredItem, diff_items
from watcher.normalise import normalise_records
from watcher.records import Award, Member, NewsItem, Paper, Record, Role, record_fields


def _read(html: str) -> list[Record]:
    return normalise_records(read_html(html).records)


def _of(kind: type, records: list[Record]) -> list:
    return [r for r in records if isinstance(r, kind)]


# ------------------------------------------------------------------ people

PEOPLE = """<html><body><h1>Reef Lab</h1>
<h2>PhD Students</h2><ul>{students}</ul>
<h2>Alumni</h2><ul>{alumni}</ul>
<footer><p>Copyright 2025 Reef Lab. Last updated today.</p></footer></body></html>"""


def _members(students: str, alumni: str) -> list[Member]:
    return _of(Member, _read(PEOPLE.format(students=students, alumni=alumni)))


def test_a_student_who_graduates_is_one_modified_member() -> None:
    before = _members("<li><a href='https://x.example/kai'>Kai Moreno</a>, since 2020</li>", "")
    after = _members("", "<li><a href='https://x.example/kai'>Kai Moreno</a> (now Lecturer at Dune College)</li>")
    assert after == [
        Member(name="Kai Moreno", role="Alumni (now Lecturer at Dune College)", url="https://x.example/kai")
    ]
    result = diff_items([StoredItem(kind=m.kind, key=m.key, fields=record_fields(m)) for m in before], after)
    assert [(c.change, c.kind) for c in result.changes] == [("modified", "member")]


def test_a_table_whose_first_row_is_bold_labels_names_its_columns() -> None:
    # A hand-written table: its column names set as bold cells, not as <th>.
    html = ("<h2>Alumni</h2><table><tr><td><b>Name</b></td><td><b>Degree</b></td><td><b>First position</b></td></tr>"
            "<tr><td>Mira Solberg</td><td>PhD 2024</td><td>Engineer, Tidewater Power</td></tr>"
            "<tr><td>Jonas Kettle</td><td>MS 2019</td><td>Lecturer, Fenmore College</td></tr></table>")
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Mira Solberg", "Alumni (now Engineer, Tidewater Power)"),
        ("Jonas Kettle", "Alumni (now Lecturer, Fenmore College)"),
    ]
    # A first row of bold names is an entry, not labels: a row holds a name and its dates.
    html = ("<h2>Students</h2><table><tr><td><b>Mira Solberg</b></td><td>2021-2024</td></tr>"
            "<tr><td><b>Jonas Kettle</b></td><td>2019-2021</td></tr></table>")
    assert [m.name for m in _of(Member, _read(html))] == ["Mira Solberg", "Jonas Kettle"]


def test_a_folded_table_of_former_members_without_column_names() -> None:
    html = """<h2>Team</h2><ul><li><p class="font-semibold">Ana Ruiz</p><p>PhD Student</p></li>
    <li><p class="font-semibold">Bo Chen</p><p>Postdoc</p></li></ul>
    <details><summary>Former members</summary><table><tbody>
    <tr><td>Dr. Sipho Dlamini</td><td>PhD 2023</td><td>Process Chemist, Adrel Pharmaceuticals</td></tr>
    <tr><td>Dr. Owen Price</td><td>Postdoc 2020&ndash;2023</td><td>Assistant Professor, Dunmore University</td></tr>
    </tbody></table></details>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))][2:] == [
        ("Sipho Dlamini", "Alumni (now Process Chemist, Adrel Pharmaceuticals)"),
        ("Owen Price", "Alumni (now Assistant Professor, Dunmore University)"),
    ]


def test_lines_that_are_not_people_are_skipped() -> None:
    members = _members("<li>We are always looking for motivated students!</li><li>Ana Ruiz</li>", "")
    assert [m.name for m in members] == ["Ana Ruiz"]


@pytest.mark.parametrize(
    "text",
    ["Software Engineer", "Machine Learning", "Graduate Student", "Research Interests", "Private Sector Politicians",
     "Credit Guarantees and Misallocation"],
)
def test_job_titles_and_fields_are_not_names(text: str) -> None:
    assert not is_person_name(text)


@pytest.mark.parametrize(
    "text", ["Jane Doe", "Dr. Jane A. Doe, PhD", "Gabriel dos Santos Schmitz", "Liang (Leon) Wang"]
)
def test_names_in_their_usual_forms(text: str) -> None:
    assert is_person_name(text)


CARD_GRID = """<html><body><section class="people">
<div class="row"><div class="col-12"><h1>Meet the Team</h1></div>
<div class="col-12"><h2>Faculty</h2></div>
<div class="col-4 person"><img src="a.jpg" alt=""><h3><a href="/p/ines">Ines Vidal</a></h3><p>Professor</p></div>
<div class="col-12"><h2>Students</h2></div>
{cards}
</div></section></body></html>"""


def _card(name: str, role: str) -> str:
    return f'<div class="col-4 person"><img src="x.jpg"><h3><a href="/p/x">{name}</a></h3><p>{role}</p></div>'


def test_person_cards_under_group_headings() -> None:
    html = CARD_GRID.format(cards=_card("Tom Okafor", "PhD Student") + _card("Lea Brandt", "Master Student"))
    members = _of(Member, _read(html))
    assert [(m.name, m.role) for m in members] == [
        ("Ines Vidal", "Professor"),
        ("Tom Okafor", "PhD Student"),
        ("Lea Brandt", "Master Student"),
    ]


def test_a_cohort_heading_under_a_group_is_no_role() -> None:
    person = "<p><img src='{0}.jpg'><b>{1}</b><br></p><p>{1} studies {2} and likes long walks by the river.</p>"
    html = ("<h2>People</h2><h3>Undergraduate Students</h3><h4>Class of 2026</h4>"
            + person.format("a", "Rosa Lindqvist", "chemistry")
            + "<h4>Cohort 2028</h4>" + person.format("b", "Omar Haddad", "physics")
            + person.format("c", "Mei Tanaka", "biology"))
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Rosa Lindqvist", "Undergraduate Student"), ("Omar Haddad", "Undergraduate Student"),
        ("Mei Tanaka", "Undergraduate Student"),
    ]


def test_a_table_laid_out_as_a_grid_of_photo_cards_reads_every_card() -> None:
    cell = '<td><img src="{0}.jpg"><br><b>{1}</b><br>{2}</td>'
    rows = [[("a", "Yuki Sato", "Associate Professor"), ("b", "Mariko Ishida", "Assistant Professor")],
            [("c", "Lin Wei", "PhD Student"), ("d", "Hana Aoki", "Master's Student")],
            [("e", "Kenji Ogawa", "Postdoctoral Fellow")]]
    html = "<h2>Members</h2><table>{}</table>".format(
        "".join("<tr>" + "".join(cell.format(*person) for person in row) + "<td></td></tr>" for row in rows)
    )
    # A table of its own, its group named in a row above the cards.
    html += '<table><tr><td colspan="2"><b>Postdoctoral Fellows</b></td></tr><tr>{}{}</tr></table>'.format(
        cell.format("f", "Daniel Weber", "JSPS Fellow"), cell.format("g", "Ayaka Nomura", "Postdoctoral Fellow")
    )
    assert [m.name for m in _of(Member, _read(html))] == [
        "Yuki Sato", "Mariko Ishida", "Lin Wei", "Hana Aoki", "Kenji Ogawa", "Daniel Weber", "Ayaka Nomura"
    ]


def test_the_owner_s_name_with_a_degree_is_not_their_position() -> None:
    from extractors.reading.owner import read_header_roles

    assert read_header_roles(["Rosalind Achterberg, PhD", "Associate Professor of Cell Biology", "Harrow School"]) == [
        Role(title="Associate Professor of Cell Biology", organization="Harrow School")
    ]


def test_a_list_of_affiliated_units_is_not_the_owner_s_position() -> None:
    html = """<p>I am an Associate Professor in the Physics Department at the University of Nowhere.</p>
    <p>In addition to my appointment, I have the following affiliations:</p>
    <ul><li><a href="/a">Graduate Program in Biophysics</a></li><li><a href="/b">Institute for Soft Matter</a></li>
    <li><a href="/c">Center for Quantum Things (CQT)</a></li></ul><p>In my free time I play chess.</p>"""
    roles = _of(Role, _read(html))
    assert [r.title for r in roles] == ["Associate Professor"]


def test_a_line_leading_into_grants_heads_the_list_under_it_only() -> None:
    html = """<p>I am an Assistant Professor of Geology at Pine University.<br>
    My research is supported by
    <ul><li>the Pine University Faculty Fund</li><li>NSF CAREER grant 2291100, "Rivers Under Ice"</li>
    <li>a Sloan Research Fellowship</li></ul><br>In Spring 2025 I taught Glaciology (2025).</p>"""
    # The faculty fund names no award; the prose after the list is not part of it.
    assert [a.title for a in _of(Award, _read(html))] == ["NSF CAREER grant 2291100", "Sloan Research Fellowship"]


def test_posts_dated_in_their_own_footer_are_news_but_the_page_footer_is_not_read() -> None:
    post = """<article class="post"><header><h2>{title}</h2></header><p>{summary}</p>
    <footer><span title="{iso}">{date}</span>&nbsp;·&nbsp;2 min&nbsp;·&nbsp;Ruth Abebe</footer></article>"""
    posts = [
        ("Welcome Dr. Tomas Reyes", "Tomas joins us as a postdoctoral researcher after his PhD at Lund.",
         "2025-02-03", "February 3, 2025"),
        ("Grant from the Energy Agency", "Our project on grid storage will run for four years.",
         "2024-11-20", "November 20, 2024"),
        ("Best poster at PowerTech", "Sara won the best poster prize in Belgrade. Congratulations!",
         "2024-06-14", "June 14, 2024"),
    ]
    html = "<main>" + "".join(post.format(title=t, summary=s, iso=i, date=d) for t, s, i, d in posts) + "</main>"
    html += "<footer><p>Updated March 1, 2025 · Powered by Hugo</p></footer>"
    records = _read(html)
    assert [(n.date, n.text) for n in _of(NewsItem, records)] == [(i, t) for t, _s, i, _d in posts]
    assert _of(Role, records) == []  # a summary's "joins us as a postdoctoral researcher" is not the owner's


def test_a_title_that_is_the_owner_s_name_with_degrees_announces_no_people() -> None:
    html = """<html><head><title>Amara Obi, MBBS, MPH, PhD</title></head><body>
    <table><tr><td><img src="me.jpg"></td><td><h1>Amara Obi</h1><p>MBBS (Ibadan), PhD (Leeds)<br>
    Senior Lecturer, Department of Medicine</p></td></tr></table>
    <h2>About</h2><p>Dr. Amara Obi is a physician who leads the <a href="/c">Ikeja Heart Cohort</a>.</p>"""
    assert _of(Member, read_html(html).records) == []


def test_accordion_headings_head_their_panels_and_a_sidebar_is_under_none() -> None:
    html = """<main><h2 class="accordion-header"><button class="accordion-button" type="button">Awards and honours
    </button></h2><div class="accordion-collapse collapse"><div class="accordion-body"><ul>
    <li>2023 – Visiting Research Fellowship, Institute for Maritime History</li>
    <li>2019 – Book Prize of the Coastal History Society</li></ul></div></div>
    <button class="collapsible"><h4>Earlier News</h4></button><div class="content"><ul>
    <li>March 2022: Our edited volume is out with Brill.</li><li>May 2021: Welcome to our new PhD student.</li>
    </ul></div></main>
    <aside class="sidebar"><div class="box"><h2>Office hours</h2><p>Tuesdays 14:00–16:00.</p></div>
    <div class="box"><h2>Links</h2><ul><li><a href="/p">Research portal</a></li></ul></div></aside>
    <footer class="elementor-location-footer"><a class="social"><span class="elementor-screen-only">X-twitter</span></a>
    </footer>"""
    records = _read(html)
    assert [a.title for a in _of(Award, records)] == [
        "Visiting Research Fellowship", "Book Prize of the Coastal History Society"
    ]
    assert [n.date for n in _of(NewsItem, records)] == ["2022-03", "2021-05"]


def test_post_excerpts_dated_by_a_byline_under_their_linked_title_are_news() -> None:
    post = """<div class="post-excerpt-container"><div class="post-excerpt"><a href="/p/{n}"><img alt="{title}"></a>
    <div class="post-excerpt-text"><a href="/p/{n}">{title}</a><div class="post-info">
    <span data-tooltip="Author"><span>Seo-yeon Baek</span></span> <span><span>{date}</span></span></div>
    <p>{summary}</p></div></div></div>"""
    posts = [("Welcome Jun-seo and Amara!", "March 04, 2024", "Two new MS students join us."),
             ("Two papers accepted to ICSRA 2024", "January 29, 2024", "Congratulations to Da-eun and Ji-ho.")]
    html = "<html><head><title>News | Soft Matter Lab</title></head><body>" + "".join(
        post.format(n=i, title=t, date=d, summary=m) for i, (t, d, m) in enumerate(posts)
    ) + "</body></html>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2024-03-04", "Welcome Jun-seo and Amara!"), ("2024-01-29", "Two papers accepted to ICSRA 2024")
    ]


def test_minified_links_and_badges_stay_apart_and_hidden_headings_are_not_read() -> None:
    html = """<div><a href="/">Home</a><a href="/p">People</a><a href="/n">News</a></div>
    <h2 class="element-invisible">Search form</h2><h2>News</h2><ul>
    <li><span class="badge">Aug 2025</span><span>Tobias joins the lab as a PhD student.</span></li>
    <li><span class="badge">Jul 2025</span><span>Two papers accepted at IROS.</span></li></ul>"""
    assert [(r.kind, getattr(r, "date", None)) for r in _read(html)] == [("news", "2025-08"), ("news", "2025-07")]


def test_titles_and_degrees_before_a_name_are_not_the_name() -> None:
    html = """<h2>Team</h2><ul><li><b>M.Sc. Jonas Weber</b><br>Research Assistant</li>
    <li><b>Prof. Dr.-Ing. Katharina Vossberg</b><br>Chair</li>
    <li><b>Claire Ashworth, PhD</b><br>Principal Investigator</li>
    <li><b>A/Prof Rhiannon Kealy</b><br>Lab Director</li></ul>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Jonas Weber", "Research Assistant"),
        ("Katharina Vossberg", "Chair"),
        ("Claire Ashworth", "Principal Investigator"),
        ("Rhiannon Kealy", "Lab Director"),  # Australian "A/Prof": promoted to "Prof", the same person
    ]


def test_a_definition_list_term_with_two_descriptions_is_one_person() -> None:
    html = """<h2>Doctoral Researchers</h2><dl>
    <dt>M.Sc. Wang Li</dt><dd>Research Assistant (Edge AI)</dd><dd class="contact">Room 2.14</dd>
    <dt>Lea Hoffmann</dt><dd>Research Assistant (Sensing)</dd><dd class="contact">Room 2.15</dd></dl>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Wang Li", "Research Assistant (Edge AI)"),
        ("Lea Hoffmann", "Research Assistant (Sensing)"),
    ]


def test_an_education_line_s_year_is_its_date_however_it_is_set_apart() -> None:
    dash = "<h2>Education</h2><ul><li>2013 &ndash; PhD (Epidemiology), Harrow School of Medicine</li>"
    dash += "<li>2010 &ndash; MSc Epidemiology, Harrow School of Medicine</li></ul>"
    span = '<h2>Education</h2><ul><li><span class="dates">2013</span> PhD (Epidemiology), Harrow School of Medicine'
    span += '</li><li><span class="dates">2010</span> MSc Epidemiology, Harrow School of Medicine</li></ul>'
    expected = [
        Role(title="PhD (Epidemiology)", organization="Harrow School of Medicine", start="2013"),
        Role(title="MSc Epidemiology", organization="Harrow School of Medicine", start="2010"),
    ]
    assert _of(Role, _read(dash)) == expected
    assert _of(Role, _read(span)) == expected  # a restyle of the same lines reads the same


def test_where_an_alumnus_went_keeps_its_bracket_in_a_list_as_in_a_table() -> None:
    listed = """<h2>Alumni</h2><ul><li><strong>Chloé Gagnon</strong> (MSc, 2025) &mdash; now at Ecologist,
      Parks Canada (Kejimkujik Park)</li><li><strong>Ravi Menon</strong> (PhD, 2024) &mdash; now Postdoc,
      University of Bergen</li></ul>"""
    tabled = """<h2>Alumni</h2><table><tr><th>Name</th><th>Degree</th><th>Now</th></tr>
      <tr><td>Chloé Gagnon</td><td>MSc, 2025</td><td>Ecologist, Parks Canada (Kejimkujik Park)</td></tr>
      <tr><td>Ravi Menon</td><td>PhD, 2024</td><td>Postdoc, University of Bergen</td></tr></table>"""
    assert [m.role for m in _of(Member, _read(listed))] == [m.role for m in _of(Member, _read(tabled))] == [
        "Alumni (now Ecologist, Parks Canada (Kejimkujik Park))", "Alumni (now Postdoc, University of Bergen)"
    ]
    dashed = """<h2>Lab Alumni</h2><ul><li><strong>Dr. Keoni Kahananui</strong> (Ph.D. 2025) &ndash; Postdoctoral
      Scholar, Pacific Estuary Observatory</li><li>Jenny Tran (B.S. 2021) &mdash; Ph.D. student, Lowcountry
      University</li></ul>"""
    assert [m.role for m in _of(Member, _read(dashed))] == [
        "Alumni (now Postdoctoral Scholar, Pacific Estuary Observatory)",
        "Alumni (now Ph.D. student, Lowcountry University)",
    ]


def test_a_biography_sentence_restating_a_dated_position_is_that_position() -> None:
    html = """<h1>Amara Obi</h1><h2>About</h2><p>Dr. Amara Obi is a physician and epidemiologist. She is an
    Associate Professor in the Division of Cardiology at the University of Lorn and an Honorary Consultant
    Physician at Harbour Hospital.</p><h2>Positions</h2><ul>
    <li>2024&ndash;present: Associate Professor, Division of Cardiology, Department of Medicine, University of Lorn</li>
    <li>2019&ndash;2024: Senior Lecturer, Division of Cardiology, Dept. of Medicine, University of Lorn</li></ul>"""
    roles = _of(Role, _read(html))
    assert [(r.title, r.start) for r in roles if "Associate" in r.title] == [("Associate Professor", "2024")]
    # The second position of the sentence is not part of the first one's place.
    assert not any(r.organization and "Consultant" in r.organization for r in roles)


def test_a_post_named_in_the_header_and_again_in_the_biography_is_one_role() -> None:
    page = """<div id="header"><h1>Lena Okafor</h1><p>Assistant Professor of Economics<br>Westbrook University</p>
    </div><h2>About</h2><p>I am an Assistant Professor in the Department of Economics at Westbrook University.</p>"""
    assert [(r.title, r.organization) for r in _of(Role, _read(page))] == [
        ("Assistant Professor of Economics", "Westbrook University")
    ]
    # Two posts of one rank at one place are two posts, and a post that has ended elsewhere is not the current one.
    directors = [Role(title="Director of Graduate Studies", organization="Westbrook University"),
                 Role(title="Director", organization="Policy Lab, Westbrook University"),
                 Role(title="Assistant Professor", organization="Eastmoor University", start="2019", end="2021"),
                 Role(title="Assistant Professor", organization="Department of Economics, Westbrook University")]
    assert dedupe_roles(list(directors)) == directors
    # A title read apart at its preposition in a header is the dated post the list gives.
    split = [Role(title="Associate Chair", organization="Graduate Studies"),
             Role(title="Associate Chair for Graduate Studies", organization="Department of Chemistry", start="2025")]
    assert dedupe_roles(list(split)) == [split[1]]


def test_an_honour_on_a_line_of_a_member_s_card_is_an_award() -> None:
    card = '<div class="card"><img src="p.jpg"><h3>{name}</h3><p>{role}</p>{extra}</div>'
    html = "<h2>People</h2><div>" + "".join(card.format(name=n, role=r, extra=e) for n, r, e in [
        ("Sara Kowalczyk", "PhD Student", '<p class="award">Best Student Poster Award, QPhot 2024</p>'),
        ("Tomas Reyes", "Postdoctoral Fellow", "<p>Works on single-photon sources.</p>"),
        ("Lin Wu", "Research Scholar", ""),
    ]) + "</div>"
    records = _read(html)
    assert [m.name for m in _of(Member, records)] == ["Sara Kowalczyk", "Tomas Reyes", "Lin Wu"]
    # A "Fellow" or a "Scholar" is a position; the poster award is an honour.
    assert [(a.title, a.year) for a in _of(Award, records)] == [("Best Student Poster Award", 2024)]


def test_a_degree_after_a_card_s_name_is_not_the_role() -> None:
    html = """<h2>People</h2><div class="row">
    <div class="card"><img src="a.jpg"><h5 class="card-title">Mei-Lin Zhou, PhD</h5><p>Postdoctoral Researcher</p></div>
    <div class="card"><img src="b.jpg"><h5 class="card-title">Priya Raman</h5><p>PhD Candidate</p></div></div>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Mei-Lin Zhou", "Postdoctoral Researcher"),
        ("Priya Raman", "PhD Candidate"),
    ]


def test_letters_set_apart_under_a_card_s_name_are_not_the_role() -> None:
    card = ('<div class="person"><img src="{img}.jpg"><div><h3>{name}</h3><span class="letters">{letters}</span>'
            '<div class="desc"><p>{role}</p></div></div></div>')
    people = [("Professor Sigrid Halvorsen", "MD PhD FRCP", "Unit director and consultant cardiologist"),
              ("Dr Rui Okafor", "MBBS MRCP", "Clinical research fellow"),
              ("Aisha Karimi", "BSc MSc", "PhD student")]
    html = '<h2>Our people</h2><div class="people">' + "".join(
        card.format(img=i, name=n, letters=d, role=r) for i, (n, d, r) in enumerate(people)) + "</div>"
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Sigrid Halvorsen", "Unit director and consultant cardiologist"),
        ("Rui Okafor", "Clinical research fellow"),
        ("Aisha Karimi", "PhD student"),
    ]


def test_a_post_that_ends_in_lead_is_a_role_and_a_sentence_that_leads_is_not() -> None:
    html = """<h2>Current team</h2>
    <p><strong>Dr Helen Marsh</strong><br>Consultant Nephrologist and Group Lead</p>
    <p><strong>Samir Haddad</strong><br>Team Lead, Data Platform</p>
    <p><strong>Joanna Price</strong><br>Joanna leads the cohort study and the biobank.</p>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Helen Marsh", "Consultant Nephrologist and Group Lead"),
        ("Samir Haddad", "Team Lead, Data Platform"),
        ("Joanna Price", None),
    ]


def test_a_grid_whose_last_row_holds_one_card_reads_that_card_too() -> None:
    rows = "".join(
        f'<div class="row"><div class="col-6"><h4>{a}</h4><p><i>Postdoc</i></p></div>'
        f'<div class="col-6"><h4>{b}</h4><p><i>Postdoc</i></p></div></div>'
        for a, b in (("Ada Kerr", "Ben Lowe"), ("Cy Moss", "Dee Nash"))
    )
    rows += '<div class="row"><div class="col-6"><h4>Eve Orr</h4><p><i>Postdoc</i></p></div></div>'
    html = f"<html><body><h3>Alumni</h3>{rows}<div class='credits'>Site made with a theme</div></body></html>"
    members = _of(Member, _read(html))
    assert [m.name for m in members] == ["Ada Kerr", "Ben Lowe", "Cy Moss", "Dee Nash", "Eve Orr"]
    assert all(m.role == "Alumni (Postdoc)" for m in members)


def test_a_card_s_photo_and_content_set_side_by_side_a_few_wrappers_deep_are_one_person() -> None:
    def card(name: str, role: str) -> str:
        return (f'<div class="column is-4"><div class="card"><div class="card-content"><article class="media">'
                f'<figure class="media-left"><p class="image"><img src="p.jpg" alt="{name}"></p></figure>'
                f'<div class="media-content"><p class="title is-5">{name}</p><p class="subtitle is-6">{role}</p>'
                f'<p class="is-size-7">Coastal sensors, seagrass</p></div></article></div></div></div>')
    cards = card("Helen Brand", "Assistant Researcher") + card("Tomas Arago", "Research Scientist")
    cards += card("Rita Maes", "Lab Manager")
    html = f'<html><body><section><h2>Faculty</h2><div class="columns">{cards}</div></section></body></html>'
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Helen Brand", "Assistant Researcher"), ("Tomas Arago", "Research Scientist"), ("Rita Maes", "Lab Manager")
    ]


def _person_cards(people: list[tuple[str, str, str]], name_tag: str) -> str:
    """Cards of a clinical lab's people: the name with its degree, the post, the degree's subject and school."""
    return "".join(
        f'<div class="person card"><{name_tag} class="person-name">{name}, PhD</{name_tag}>'
        f'<div class="person-title">{post}</div><div class="person-degree">PhD, Immunology, {school}</div></div>'
        for name, post, school in people
    )


def test_a_person_s_post_wins_over_the_degree_their_card_states_beside_it() -> None:
    people = _person_cards([("Nnam Okafo", "Research Assistant Professor", "Lagos College of Medicine"),
                            ("Mari Hadda", "Staff Scientist", "Northgate University")], "p")
    html = f"<html><body><h2>Research Staff</h2>{people}</body></html>"
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Nnam Okafo", "Research Assistant Professor"), ("Mari Hadda", "Staff Scientist")
    ]


def test_where_a_former_member_went_ends_with_its_line() -> None:
    cards = _person_cards([("Kenji Mori", "Fellow, 2018–2021; now Attending, Harbor Hospital", "Hokuri U"),
                           ("Emeka Nwo", "Postdoctoral Fellow, 2019–2023; now Scientist, Veridian", "Enugu U")], "h3")
    html = f'<html><body><h2>Former Members</h2><div class="accordion-body">{cards}</div></body></html>'
    assert [m.role for m in _of(Member, _read(html))] == [
        "Alumni (now Attending, Harbor Hospital)", "Alumni (now Scientist, Veridian)"
    ]


def test_an_alumni_timeline_dated_before_each_name_reads_members_and_where_they_went() -> None:
    html = """<html><body><h2>Alumni</h2><ul class="timeline">
    <li>2026 — Min-seo Jan (PhD) → Postdoctoral Fellow, Lindau Institute for Quantum Optics</li>
    <li>2025 — Dong-hyun Se (PhD) → Research Scientist, Hanbit Semiconductor</li>
    <li>2024 — Priya Iye (Postdoc) → Assistant Professor, Institute of Photonics</li></ul></body></html>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Min-seo Jan", "Alumni (now Postdoctoral Fellow, Lindau Institute for Quantum Optics)"),
        ("Dong-hyun Se", "Alumni (now Research Scientist, Hanbit Semiconductor)"),
        ("Priya Iye", "Alumni (now Assistant Professor, Institute of Photonics)"),
    ]


@pytest.mark.parametrize("unit", ["Dipartimento di Fisica", "Institut für Physik", "Universidad de Almería"])
def test_a_unit_named_in_another_language_is_no_person(unit: str) -> None:
    assert not is_person_name(unit)


@pytest.mark.parametrize("label", ["User Tools", "Site Tools"])
def test_a_wiki_s_tool_menus_are_no_person(label: str) -> None:
    assert not is_person_name(label)


def test_a_table_of_alumni_reads_one_member_per_row() -> None:
    html = """<html><body><h2>Lab Alumni</h2><table>
    <tr><th>Name</th><th>Time in lab</th><th>Now</th></tr>
    <tr><td><b>Nora Quist</b></td><td>2019-2023</td><td>Scientist, Example Bio</td></tr>
    <tr><td><b>Omar Pell</b></td><td>2020-2022</td><td>Medical school</td></tr>
    </table></body></html>"""
    assert [m.name for m in _of(Member, _read(html))] == ["Nora Quist", "Omar Pell"]



def test_an_alumni_table_and_an_alumni_list_say_alike_where_a_member_went() -> None:
    cell = "PhD 2024, now Scientist at Kelpgen AS"
    table = f"""<html><body><h2>Alumni</h2><table>
    <tr><th>Name</th><th>Former position and current affiliation</th></tr>
    <tr><td>Nora Quist</td><td>{cell}</td></tr><tr><td>Omar Pell</td><td>MSc 2022, now at Tidewater</td></tr>
    </table></body></html>"""
    listed = f"""<html><body><h2>Alumni</h2><ul><li><b>Nora Quist</b> &mdash; {cell}</li>
    <li><b>Omar Pell</b> &mdash; MSc 2022, now at Tidewater</li></ul></body></html>"""
    assert [m.role for m in _of(Member, _read(table))] == [m.role for m in _of(Member, _read(listed))] == [
        "Alumni (now Scientist at Kelpgen AS)", "Alumni (now Tidewater)"
    ]


# ------------------------------------------------------------------ papers

def test_co_authors_said_after_the_title_are_not_part_of_an_abbreviated_journal() -> None:
    html = """<html><body><h2>Publications</h2><ol>
    <li>[18] <i>Serre weights for ramified unitary groups</i>, joint with Odile Marchetti. Duke Math. J.
    <b>172</b> (2023), 1&ndash;40. <a href="https://arxiv.org/abs/2207.03318">arXiv:2207.03318</a></li>
    <li>[17] <i>Tame inertia and crystalline lifts</i>, joint with Yuki Hoshida and Wen Li. J. Inst. Math. Jussieu
    <b>20</b> (2021), 1&ndash;38.</li></ol></body></html>"""
    assert [(p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Duke Math. J.", 2023), ("J. Inst. Math. Jussieu", 2021)
    ]


def test_an_agu_style_citation_ends_its_title_at_the_journal_before_volume_and_pages() -> None:
    html = """<html><body><h2>Publications</h2>
    <p>(Student co-authors are listed first where they led the work.)</p>
    <p>1. Sato, K., Wiecek, T.R., and Okafo, N.C. (2026), Frictional healing of clay-rich gouge at depth,
    Journal of Geophysical Research: Solid Earth, 131, 1-19.</p>
    <p>2. Wiecek, T.R., and Marchi, L. (2025), Fracture stratigraphy of a flysch formation, Geological
    Quarterly, 69, 112-139.</p>
    <p>3. Wiecek, T.R. (2024), Vein isotopes track fluid incursion during thrusting, Geofluids, 24, 1-17.</p>
    </body></html>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Frictional healing of clay-rich gouge at depth", "Journal of Geophysical Research: Solid Earth"),
        ("Fracture stratigraphy of a flysch formation", "Geological Quarterly"),
        ("Vein isotopes track fluid incursion during thrusting", "Geofluids"),
    ]


def test_a_journal_cited_with_its_volume_and_article_number_after_a_colon_is_the_venue() -> None:
    html = """<html><body><h2>Publications</h2><h3>2025</h3>
    <p><strong>Mthemba, Z.</strong>, <strong>Ngaro, A.</strong> (2025) Fine sediment thresholds for mussel
    recruitment. Aquatic Conservation: Marine and Freshwater Ecosystems 35: e70104.</p>
    <p><strong>Fraser, C.</strong>, <strong>Ngaro, A.</strong> (2025) Drift supply limits juvenile trout growth.
    Ecology 106: e70211.</p></body></html>"""
    assert [p.venue for p in _of(Paper, _read(html))] == [
        "Aquatic Conservation: Marine and Freshwater Ecosystems", "Ecology"
    ]


def test_a_year_set_before_a_citation_that_states_it_again_is_no_part_of_the_title() -> None:
    html = """<html><body><h2>Selected Publications</h2><ul>
    <li><span class="pub-year">2025</span> <strong>Credit Without Borders: Sephardic Firms in Recife</strong>. In
    Ines Cardim and Paul Whit (eds.), <em>The Portuguese Atlantic World</em>, Meridian Academic, 2025, pp. 140–166.</li>
    <li>1918 Influenza and the Port of Lisbon. In Ana Roe (ed.), <em>Epidemics at Sea</em>, Tagus Press, 2020.</li>
    </ul></body></html>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Credit Without Borders: Sephardic Firms in Recife", "1918 Influenza and the Port of Lisbon"
    ]


def test_a_year_term_over_several_citations_in_a_definition_list_heads_each_of_them() -> None:
    html = """<html><body><h2>Publications</h2><dl><dt><b>2025</b></dt>
    <dd>E. Yildiz, G. Belland, "Ultrafast sampling with a compact Cr:ZnS oscillator", <i>Optics Letters</i> <b>50</b>,
    4811-4814 (2025).</dd>
    <dd>L. Pace, G. Belland, "Broadband mid-infrared comb from a cascaded OPA", <i>Optica</i> <b>12</b>,
    891 (2025).</dd>
    <dt><b>2024</b></dt>
    <dd>L. Pace, "Methane isotopologue spectroscopy with combs", <i>Nature Photonics</i> <b>18</b>, 1-9 (2024).</dd>
    </dl></body></html>"""
    assert [(p.title, p.year) for p in _of(Paper, _read(html))] == [
        ("Ultrafast sampling with a compact Cr:ZnS oscillator", 2025),
        ("Broadband mid-infrared comb from a cascaded OPA", 2025),
        ("Methane isotopologue spectroscopy with combs", 2024),
    ]


def test_a_paper_box_dated_by_its_badge_names_a_journal_with_volume_and_article_number() -> None:
    def box(number: int, year: int, title: str, authors: str, venue: str) -> str:
        return (f'<article class="box pub"><div class="is-flex"><span class="tag is-dark">[{number}] {year}</span>'
                f'<a class="button" href="https://doi.org/10.1/x{number}">DOI</a></div>'
                f'<p><strong>{title}</strong></p><p>{authors}</p><p class="has-text-grey">{venue}</p></article>')
    html = "<html><body><h2>Publications</h2>{}</body></html>".format(
        box(9, 2022, "Sediment carbon provenance in lagoon meadows", "F. Nogueir, T. Aragon",
            "Estuaries and Coasts, vol. 45, pp. 2011–2026")
        + box(27, 2025, "Carbon burial rates across a salinity gradient", "B. Lourenz, H. Brand",
              "Estuarine, Coastal and Shelf Science, vol. 311, art. 108962")
        + box(28, 2023, "Grazer-mediated resilience of seagrass", "H. Odhiam", "Oikos, vol. 2023, art. e09811")
    )
    assert [(p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Estuaries and Coasts", 2022), ("Estuarine, Coastal and Shelf Science", 2025), ("Oikos", 2023)
    ]


def test_a_citation_line_whose_links_follow_a_middle_dot_names_its_journal_alone() -> None:
    html = """<html><body><h2>Publications</h2><div class="pub"><p><strong>Sediment carbon provenance in lagoon
    meadows</strong></p><p>Nogueir F, Aragon T</p><p><em>Estuaries and Coasts</em> 45: 2011–2026 (2022) ·
    <a href="https://doi.org/10.1/x">DOI</a></p></div><div class="pub"><p><strong>Grazer resilience of seagrass
    meadows</strong></p><p>Odhiam H</p><p><em>Oikos</em> 132: e09811 (2023) · <a href="https://doi.org/10.1/y">DOI</a>
    </p></div></body></html>"""
    assert [(p.venue, p.year) for p in _of(Paper, _read(html))] == [("Estuaries and Coasts", 2022), ("Oikos", 2023)]


def test_an_nlm_citation_ahead_of_print_keeps_its_stage_with_its_journal() -> None:
    html = """<html><body><h2>Publications</h2><div class="views-row"><p class="citation">Hadda M, Fuent D, Lind A.
    Complement deposition shapes macrophage polarization. J Am Soc Nephrol. 2025 Aug 14. doi: 10.1681/ASN.0000812.
    Epub ahead of print. PMID: 40807715.</p></div><div class="views-row"><p class="citation">Lind A, Okafo N.
    Tubular injury markers in IgA nephropathy. Kidney Int. 2024;105(2):301-312. doi: 10.1016/j.kint.2023.11.004.
    PMID: 38012345.</p></div></body></html>"""
    assert [p.venue for p in _of(Paper, _read(html))] == ["J Am Soc Nephrol, Epub ahead of print", "Kidney Int"]


def test_a_title_ending_in_a_word_with_accents_or_a_slash_ends_at_its_full_stop() -> None:
    html = """<html><body><h2>Papers</h2><ul>
    <li>Takere, H., Ferro, M. and Rawir, T. (2025). Prior elicitation for abundance models: a case study with kākā.
    Pacific Journal of Statistics, 41(1).</li>
    <li>Morimo, K., Ossan, V. &amp; Saez, P. (2024). Cross-dialect perception of aspirated /s/. Laboratory Phonology
    Reports 12: 1–19.</li></ul></body></html>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Prior elicitation for abundance models: a case study with kākā", "Cross-dialect perception of aspirated /s/"
    ]


def test_a_title_over_a_line_of_authors_and_a_journal_with_an_article_number_is_one_paper() -> None:
    items = "".join(
        f'<li><span class="uk-label">{label}</span> <a class="uk-text-bold" href="https://doi.org/10.1/{n}">{title}</a>'
        f'<br><span class="uk-text-meta">Aksoy Z, Okafo M. <em>{journal}</em> {locator} (2025)</span></li>'
        for n, (label, title, journal, locator) in enumerate([
            ("Dev. Cell", "Multiome profiling of the regenerating heart", "Developmental Cell", "60:2871–2886"),
            ("Mol. Biol. Evol.", "CTCF site loss reshapes domains in salmonids", "Molecular Biology and Evolution",
             "42:msaf088"),
            ("eLife", "Network rewiring during the evolution of placental mammals", "eLife", "11:e80117"),
        ])
    )
    html = f'<html><body><h2>Publications</h2><h3>2025</h3><ul class="uk-list">{items}</ul></body></html>'
    assert [p.venue for p in _of(Paper, _read(html))] == [
        "Developmental Cell", "Molecular Biology and Evolution", "eLife"
    ]


def test_a_cv_row_dated_or_staged_in_a_cell_of_its_own_dates_or_stages_its_paper() -> None:
    html = """<html><body><h2>Publications</h2><table class="cv">
    <tr><td class="yr">in press</td><td><b>Papada, E.</b> &amp; Vlacho, T. Tonal alignment in Cretan questions.
    <i>Laboratory Phonology</i>.</td></tr>
    <tr><td class="yr">2026</td><td><b>Papada, E.</b> Vowel reduction in Cretan Greek. <i>Journal of Greek
    Linguistics</i> 26(1), 1&ndash;28.</td></tr></table></body></html>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Tonal alignment in Cretan questions", "Laboratory Phonology, in press", None),
        ("Vowel reduction in Cretan Greek", "Journal of Greek Linguistics", 2026),
    ]


def test_a_law_review_article_cited_in_bluebook_style_is_titled_by_its_italics() -> None:
    html = """<html><body><h2>Articles</h2>
    <p><em>Sovereign Debts, Sovereign Duties</em>, 103 Va. L. Rev. 1389 (2017).</p>
    <p><em>The Nondelegation Mirage</em>, 98 N.Y.U. L. Rev. 1123, 1130 (2023).</p></body></html>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Sovereign Debts, Sovereign Duties", "Va. L. Rev", 2017), ("The Nondelegation Mirage", "N.Y.U. L. Rev", 2023)
    ]


def test_an_honour_told_on_a_line_under_an_article_is_no_article() -> None:
    html = """<html><body><h2>Articles</h2>
    <p>“Delegation Without Domination.” <em>Yale Law Journal</em> 131 (2022): 902–970.</p>
    <p><em>Winner, 2026 Marlowe Prize for the best article in public law theory, Association for Law</em></p>
    <p>“The Promissory State.” <em>Columbia Law Review</em> 120 (2020): 1457–1516.</p></body></html>"""
    assert [p.title for p in _of(Paper, _read(html))] == ["Delegation Without Domination", "The Promissory State"]


def test_the_site_s_name_over_a_bibliography_page_is_no_paper() -> None:
    html = """<html><head><title>Bibliography | Medicine and Commerce</title></head><body><header>
    <p><a href="https://uni.example.ac.uk/chm/">Centre for the History of Medicine</a>, University of Ashby</p>
    <h1>Medicine, Colonies and Commerce</h1></header><main><h2>Bibliography</h2><h3>Journal Articles</h3>
    <p>Morrow, Wei. “Quarantine and Credit in Bombay, 1870–1900.” <i>Medical History</i> 68, no. 2 (2024): 1–22.</p>
    <p>Okafo, Ada. “Cinchona Markets in Lagos.” <i>Social History of Medicine</i> 36, no. 1 (2023): 50–71.</p>
    </main></body></html>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Quarantine and Credit in Bombay, 1870–1900", "Cinchona Markets in Lagos"
    ]


def test_a_bold_owner_name_in_the_author_line_is_not_the_title() -> None:
    html = """<html><body><h2>Publications</h2><ul><li>
    <b>Ruth Amsel</b>, Paul Fenn. <a href="https://example.org/p.pdf">Tidal Mixing in Narrow Estuaries</a>.
    <i>Journal of Coastal Research</i>, 2023.</li></ul></body></html>"""
    (paper,) = _of(Paper, _read(html))
    assert paper.title == "Tidal Mixing in Narrow Estuaries"
    assert paper.authors == ("Ruth Amsel", "Paul Fenn")
    assert (paper.venue, paper.year) == ("Journal of Coastal Research", 2023)


def test_a_possessive_title_is_the_title_not_the_press_links_under_it() -> None:
    html = """<html><body><h3>Articles</h3><ul><li>
    <a href="papers/jobs.pdf"><strong>Legislators' Outside Earnings and Voting Behavior</strong></a>
    <a href="https://doi.org/10.5555/lj.7">Journal</a> <a href="papers/app.pdf">Appendix</a><br>
    <i>Legislative Studies Quarterly</i>. 2024.<br>
    Media Coverage: <a href="https://blog.example.org/p">LSQ Blog</a>,
    <a href="https://pod.example.org/e">The Hill Podcast</a>
    </li><li><a href="https://doi.org/10.5555/lj.8">[Published Version]</a> <i>Legislative Studies Quarterly</i>. 2023.
    </li></ul></body></html>"""
    (paper,) = _of(Paper, _read(html))
    assert paper.title == "Legislators' Outside Earnings and Voting Behavior"
    assert (paper.venue, paper.year) == ("Legislative Studies Quarterly", 2024)


def test_a_status_before_the_journal_stays_in_the_venue_and_a_cited_journal_is_read_whole() -> None:
    html = """<html><body><h2>Research</h2><br><br>
    <a href="wp/tides.pdf">Tidal forcing of estuarine exchange in narrow channels</a>. Under revision for
    <font color="#303060">Estuarine Science</font>. (with Ana Lima)
    <br><br><a href="pub/salt.pdf">Salt wedges under drought in small estuaries</a>.
    <font color="#303060">Annals - Journal of the Coastal Society</font> 42, 501–513. (with Bo Chen)
    <br><br><a href="pub/sill.pdf">Sill mixing over a decade of moorings</a>. <font>Ocean Letters</font> 7, 1-12.
    </body></html>"""
    venues = [p.venue for p in _of(Paper, _read(html))]
    assert venues == [
        "Under revision for Estuarine Science", "Annals - Journal of the Coastal Society", "Ocean Letters",
    ]


@pytest.mark.parametrize(
    ("citation", "title", "authors", "venue"),
    [
        (
            "Amsel, R. B., Fenn, P., & Ostrova, K. (2022). Salt wedges under drought. Estuaries, 45(2), 1-12.",
            "Salt wedges under drought",
            ("Amsel, R. B.", "Fenn, P.", "Ostrova, K."),
            "Estuaries",
        ),
        (
            "Amsel RB, Fenn P, Ostrova K. Salt wedges under drought. Estuaries. 2022;45:1-12.",
            "Salt wedges under drought",
            ("Amsel RB", "Fenn P", "Ostrova K"),
            "Estuaries",
        ),
        (
            'R. Amsel, P. Fenn, and K. Ostrova, "Salt wedges under drought," Estuaries, vol. 45, 2022.',
            "Salt wedges under drought",
            ("R. Amsel", "P. Fenn", "K. Ostrova"),
            "Estuaries",
        ),
        (
            "Amsel, R., Fenn, P. & Ostrova, K. Salt wedges under drought. Estuaries 45, 1–12 (2022).",
            "Salt wedges under drought",
            ("Amsel, R.", "Fenn, P.", "Ostrova, K."),
            "Estuaries",
        ),
        (
            'R. Amsel and K. Ostrova, "Salt wedges under drought," IEEE Trans. Coastal Eng., vol. 45, no. 3, '
            "pp. 1-12, 2022.",
            "Salt wedges under drought",
            ("R. Amsel", "K. Ostrova"),
            "IEEE Trans. Coastal Eng.",
        ),
        (
            'R. Amsel and K. Ostrova, "Salt wedges under drought," in Proc. Int. Conf. Coastal Eng., 2022, pp. 1-12.',
            "Salt wedges under drought",
            ("R. Amsel", "K. Ostrova"),
            "Proc. Int. Conf. Coastal Eng.",
        ),
        (
            "R. Amsel, K. Ostrova. <b>Salt wedges under drought</b>. arXiv:2206.01234, 2022. "
            "[<a href='/p.pdf'>pdf</a>]",
            "Salt wedges under drought",
            ("R. Amsel", "K. Ostrova"),
            "arXiv:2206.01234",
        ),
        (
            "Amsel, R., &amp; Ostrova, K. (2022). Salt wedges under drought. <em>bioRxiv</em>. "
            "<a href='https://doi.org/10.1101/2022.05.17.1'>https://doi.org/10.1101/2022.05.17.1</a>",
            "Salt wedges under drought",
            ("Amsel, R.", "Ostrova, K."),
            "bioRxiv",
        ),
    ],
    ids=["apa", "vancouver", "ieee", "nature", "ieee-abbreviated", "ieee-proceedings", "preprint",
         "apa-preprint"],
)
def test_citation_styles(citation: str, title: str, authors: tuple[str, ...], venue: str) -> None:
    second = citation.replace("Salt", "Fresh")
    html = f"<html><body><h2>Journal Articles</h2><ol><li>{citation}</li><li>{second}</li></ol>"
    paper = _of(Paper, _read(html))[0]
    assert (paper.title, paper.authors, paper.venue, paper.year) == (title, authors, venue, 2022)


def test_a_long_apa_author_list_is_read_in_linear_time() -> None:
    names = ", ".join(f"Surname{chr(65 + i % 26)}{i}, A. B." for i in range(200))
    citation = f"{names}, & Last, D. E. (2022). A very large collaboration. Journal of Things, 1, 2."
    started = time.perf_counter()
    cut = author_prefix(citation)
    assert looks_like_authors(citation[:cut])
    assert citation[cut:].startswith(" (2022)")
    assert time.perf_counter() - started < 0.5  # about a millisecond; generous for a loaded machine


# ------------------------------------------------------------------ news and dates

@pytest.mark.parametrize(
    ("line", "date", "rest"),
    [
        ("2023.9: We moved to a new building.", "2023-09", "We moved to a new building."),
        ("[05/24] Paper accepted at ICML.", "2024-05", "Paper accepted at ICML."),
        ("17/12/2021: We welcome a new student.", "2021-12-17", "We welcome a new student."),
        ("25 April 2026 — Keynote at the Reef Forum.", "2026-04-25", "Keynote at the Reef Forum."),
        ("Feb 2026: New grant from the sea council.", "2026-02", "New grant from the sea council."),
        ("**Sep. 2, 2024** Talk at the harbour.", "2024-09-02", "Talk at the harbour."),
        ("14. October 2024: Ana defended her thesis.", "2024-10-14", "Ana defended her thesis."),
        ("Mon, 14 Oct 2024 - Ana defended her thesis.", "2024-10-14", "Ana defended her thesis."),
        ("14-Oct-2024 Ana defended her thesis.", "2024-10-14", "Ana defended her thesis."),
        ("2024年10月14日 论文被接收", "2024-10-14", "论文被接收"),
        ("10.02.2025: Kofi joins the lab.", "2025-02-10", "Kofi joins the lab."),
        ("10/02/2025: Kofi joins the lab.", "2025-10-02", "Kofi joins the lab."),
    ],
)
def test_leading_dates_in_many_styles(line: str, date: str, rest: str) -> None:
    assert leading_date(line) == (date, rest)


def test_a_list_that_writes_the_day_first_reads_every_numeric_date_so() -> None:
    rows = ["17/12/2021", "07/06/2021", "12/05/2021"]
    html = "<html><body><h4>News</h4>" + "".join(
        f"{date}<p>We welcome a new student, number {n}, to the lab.</p>" for n, date in enumerate(rows)
    ) + "</body></html>"
    assert [n.date for n in _of(NewsItem, _read(html))] == ["2021-12-17", "2021-06-07", "2021-05-12"]
    # Where no date shows which comes first, the month does.
    html = html.replace("17/12/2021", "11/12/2021")
    assert [n.date for n in _of(NewsItem, _read(html))] == ["2021-11-12", "2021-07-06", "2021-12-05"]


def test_words_that_only_look_like_dates_are_not_dates() -> None:
    assert leading_date("May I ask a question?") is None
    assert leading_date("2 papers accepted") is None
    assert parse_date_text("Older") is None


def test_date_ranges() -> None:
    assert find_range("2019 – present: Professor")[:2] == ("2019", None)
    assert find_range("Sep 2020 - Jun 2022 Postdoc")[:2] == ("2020-09", "2022-06")
    assert find_range("Teaching Fellow, St Andrews, 2015–16")[:2] == ("2015", "2016")
    assert find_range("Visiting Fellow, 1998-99")[:2] == ("1998", "1999")
    assert find_range("2016-11 Talk at X") is None  # November 2016, not a range
    assert find_range("2025–")[:2] == ("2025", None)  # nothing after the dash: still held
    assert find_range("2019 - PhD student at X") is None  # the dash separates, it opens no range


def test_positions_dated_by_an_open_range_or_a_season_are_read() -> None:
    html = """<h2>Positions</h2><table>
    <tr><td>2025&ndash;</td><td>Assistant Professor of Economics, University of Westbrook</td></tr>
    <tr><td>2024&ndash;2025</td><td>Dissertation Fellow, Stanhope Institute</td></tr>
    <tr><td>Summer 2023</td><td>Research Intern, Bank of Eastport</td></tr></table>"""
    assert [(r.title, r.organization, r.start, r.end) for r in _of(Role, _read(html))] == [
        ("Assistant Professor of Economics", "University of Westbrook", "2025", None),
        ("Dissertation Fellow", "Stanhope Institute", "2024", "2025"),
        ("Research Intern", "Bank of Eastport", "2023-06", None),
    ]


def test_news_in_a_date_column_and_under_year_headings() -> None:
    html = """<html><body><h2>News</h2><table>
    <tr><th>Date</th><th>What</th></tr>
    <tr><td>2026-03-01</td><td>Our paper on tides won a best paper award.</td></tr>
    <tr><td>2026-01-15</td><td>Welcome to our new postdoc!</td></tr></table>
    <h2>Updates</h2><h3>2025</h3><ul><li>We moved to the new marine station.</li>
    <li>Two students defended their theses.</li></ul></body></html>"""
    news = _of(NewsItem, _read(html))
    assert [(n.date, n.text[:20]) for n in news] == [
        ("2026-03-01", "Our paper on tides w"),
        ("2026-01-15", "Welcome to our new p"),
        ("2025", "We moved to the new "),
        ("2025", "Two students defende"),
    ]


def test_a_month_and_short_year_in_brackets_alone_in_a_cell_dates_its_row() -> None:
    html = """<table><tr><td>[03/25]</td><td>Dr. Sato received the Young Investigator Award.</td></tr>
    <tr><td>[12/24]</td><td>Our paper on astrocytes was published in Cell Reports.</td></tr></table>"""
    assert [(n.date, n.text[:16]) for n in _of(NewsItem, _read(html))] == [
        ("2025-03", "Dr. Sato receive"),
        ("2024-12", "Our paper on ast"),
    ]
    assert parse_date_text("03/25") is None  # no brackets: a day of March as well as a month


# ------------------------------------------------------------------ awards


@pytest.mark.parametrize(
    ("line", "award"),
    [
        ("2023: Annie Jump Cannon Award, AAS", Award(title="Annie Jump Cannon Award", organization="AAS", year=2023)),
        ("2025.2: Young Investigator Award, Neuro Society",
         Award(title="Young Investigator Award", organization="Neuro Society", year=2025)),
        ("2025 Priya Raman – Graduate Research Fellowship", Award(title="Graduate Research Fellowship", year=2025)),
        ("Best Paper Award – CVPR 2023", Award(title="Best Paper Award", organization="CVPR", year=2023)),
        ("Best Paper Award – for work on harbour mapping", Award(title="Best Paper Award")),
        ("2024 — Amara Chen, Cascadia Graduate Fellowship", Award(title="Cascadia Graduate Fellowship", year=2024)),
        ("2023: ERC Consolidator Grant – Katharina Vossberg", Award(title="ERC Consolidator Grant", year=2023)),
        ("2023: Dissertation Award (Julia Neumann)", Award(title="Dissertation Award", year=2023)),
        ("Best Paper Award (ICRA 2024)", Award(title="Best Paper Award (ICRA)", year=2024)),
        ("National Science Foundation, CHE-2247316, “CAREER: Cobalt Hydride Catalysis,” PI, 2023–2028",
         Award(title="CAREER: Cobalt Hydride Catalysis", organization="National Science Foundation, CHE-2247316",
               year=2023)),
        ("CAREER: Cobalt Hydride Catalysis — National Science Foundation CHE-2247316; PI; 2023–2028",
         Award(title="CAREER: Cobalt Hydride Catalysis", year=2023)),
        ("2022 — 51 Pegasi b Fellowship, Heising-Simons Foundation (Ana Ortúzar)",
         Award(title="51 Pegasi b Fellowship", organization="Heising-Simons Foundation", year=2022)),
        ("2022 — FONDECYT Regular grant 1221234 (2022–2025) (Matías Errázuriz)",
         Award(title="FONDECYT Regular grant 1221234", year=2022)),
        ("2024 Prix Cormier-Lavoie, Société d’histoire du Nord, for “Ice Roads and Winter Credit”",
         Award(title="Prix Cormier-Lavoie", organization="Société d’histoire du Nord", year=2024)),
    ],
    ids=["year-colon", "year-month", "recipient-first", "giver-after-dash", "reason-after-dash",
         "recipient-comma", "recipient-after-dash", "recipient-in-brackets", "year-in-brackets",
         "grant-by-sponsor-then-project", "grant-by-project-then-sponsor", "number-after-year-dash",
         "recipient-after-years", "work-honoured-in-quotes"],
)
def test_award_lines(line: str, award: Award) -> None:
    assert parse_award_line(line) == award


def test_thanks_for_funding_is_not_an_award() -> None:
    html = """<h2>Funding</h2><p>We gratefully acknowledge support from the Sea Science Foundation.</p>
    <ul><li>Early Career Award, Sea Science Foundation, 2024</li><li>Tide Research Fellowship, 2023</li></ul>"""
    assert [a.title for a in _of(Award, _read(html))] == ["Early Career Award", "Tide Research Fellowship"]


def test_awards_in_one_cell_a_line_each_and_not_the_menu_or_footer_of_a_page_titled_awards() -> None:
    pages = ("home", "research", "members", "publications", "awards", "access")
    menu = "".join(f'<tr><td><a href="{p}.htm"><b>&gt; {p.title()}</b></a></td></tr>' for p in pages)
    html = f"""<html><head><title>Tanabe Lab - Awards</title></head><body><table>
    <tr><td colspan="2"><img src="header.jpg" alt="Laboratory of Synaptic Plasticity"></td></tr>
    <tr><td><table>{menu}</table></td>
    <td><table><tr><td><b>Awards</b></td></tr></table>
    <table><tr><td>2025.2: Young Investigator Award, Neuroscience Society (Yuki Sato)<br>
      2024.9: Best Poster Award, Annual Meeting of the Society (Kenji Ogawa)<br>
      2024.3: Research Excellence Prize (Yuki Sato)</td></tr></table></td></tr>
    <tr><td colspan="2">Laboratory of Synaptic Plasticity, Kitamura University<br>
      Copyright (C) 2006-2025 Tanabe Lab. All Rights Reserved.</td></tr></table></body></html>"""
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Young Investigator Award", 2025),
        ("Best Poster Award", 2024),
        ("Research Excellence Prize", 2024),
    ]


# ------------------------------------------------------------------ sections and routing

@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("Publications by Students", "paper"),
        ("Student Awards", "award"),
        ("Research Assistants", "member"),
        ("Honors & Awards", "award"),
        ("Recent News", "news"),
        ("Contact", None),
        ("Work in Progress", "paper"),
        ("Papers in Press", "paper"),
        ("Drafts (email for a copy)", "paper"),
        ("Recent posts", "news"),
        ("Academic posts", "role"),
        # Seminars to come are no news; news beside them are.
        ("Upcoming Events", None),
        ("News and Events", "news"),
        # A paper's stage is no press coverage.
        ("In Press", "paper"),
        ("In the Press", None),
        ("In the News", None),
        ("Conferences organized", None),
        ("Our Lab in the News", None),
        ("Awards in 2024", "award"),
        ("Current Research Support", "award"),
        # Talks and courses are not reported, whatever kind word qualifies them.
        ("Past Talks", None),
        ("Conference Presentations", None),
        ("Awards and Talks", "award"),
        # A kind word after "of" names the list only under a list's own noun; a field's name is no list.
        ("List of Publications", "paper"),
        ("Sociology of Work, Migration and Platforms", None),
        # The humanities' shorter writings are publications too; a blog's entries are not.
        ("Encyclopedia Entries", "paper"),
        ("Blog entries", None),
    ],
)
def test_a_heading_announces_the_kind_its_head_noun_names(heading: str, kind: str | None) -> None:
    assert heading_kind(heading) == kind


@pytest.mark.parametrize(
    "heading",
    ["Invited Talks", "Past Talks", "Recent site activity", "Recent changes", "Policy Writing", "Op-Eds",
     "In the Press", "Events", "Projects"],
)
def test_headings_over_what_is_not_reported(heading: str) -> None:
    assert is_unlisted_heading(heading)



def test_a_card_of_paragraphs_is_one_record_and_dated_paragraphs_are_items_of_their_own() -> None:
    papers = """<h2>Publications</h2><div class="list-group">{}</div>""".format("".join(
        f'<div class="list-group-item"><p><strong>{title}</strong></p>'
        f'<p class="small">Doe, J., &amp; Roe, R. ({year}). <em>{journal}</em>, 12(3), 45-67.</p></div>'
        for title, year, journal in [("Root pulses reshape nitrogen cycling", 2025, "New Phytologist"),
                                     ("Phage predation structures root communities", 2024, "Soil Biology")]
    ))
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(papers))] == [
        ("Root pulses reshape nitrogen cycling", "New Phytologist", 2025),
        ("Phage predation structures root communities", "Soil Biology", 2024),
    ]
    news = """<h2>News</h2>{}""".format("".join(
        f'<div class="month"><p>{a}</p><p>{b}</p></div>'
        for a, b in [("2025-03-02: Paper accepted at ICRA.", "2025-03-20: Ana joins as a postdoc."),
                     ("2025-02-11: New grant from the sea fund.", "2025-02-01: Lab retreat in the dunes.")]
    ))
    assert len(_of(NewsItem, _read(news))) == 4


def test_a_card_whose_fields_are_blocks_named_by_their_classes_is_one_record() -> None:
    row = """<div class="views-row"><div class="views-field views-field-title"><a href="/p/{0}">{1}</a></div>
    <div class="views-field views-field-field-position">{2}</div>
    <div class="views-field views-field-field-email">{0} [at] example.edu</div></div>"""
    html = "<h2>Graduate Students</h2><div class='view-content'>" + "".join(
        row.format(*person) for person in [("maya", "Maya Lindqvist", "PhD Candidate"),
                                           ("rohan", "Rohan Mehta", "PhD Student")]
    ) + "</div>"
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Maya Lindqvist", "PhD Candidate"),
        ("Rohan Mehta", "PhD Student"),
    ]


def test_columns_that_each_open_with_a_section_heading_are_parts_of_the_page() -> None:
    html = """<div class="row"><div class="col-md-8"><h2>Latest News</h2><ul>
    <li>Mar 2025: Our paper was accepted to CVPR 2025.</li><li>Feb 2025: Welcome Jane Roe, our new postdoc.</li></ul>
    <p>Older items are in the news archive, with press coverage.</p></div>
    <div class="col-md-4"><h2>Honors</h2><ul><li>2025: ICRA Best Paper Award</li><li>2024: NSF CAREER Award</li></ul>
    </div></div>"""
    records = _read(html)
    assert [n.date for n in _of(NewsItem, records)] == ["2025-03", "2025-02"]
    assert [a.title for a in _of(Award, records)] == ["ICRA Best Paper Award", "NSF CAREER Award"]


def test_a_list_item_of_a_title_paragraph_over_its_citation_is_one_paper() -> None:
    items = "".join(
        f'<li><p class="t">{title}</p><p class="c">Ulloa, M., Verbeke, S., et al. {year}, {journal}, 41, {page}'
        ' <span><a href="https://example.org/abs">ADS</a> · <a href="https://arxiv.org/abs/x">arXiv</a></span></p></li>'
        for title, year, journal, page in [("Cold streams feeding compact dwarf galaxies", 2025, "MNRAS", 812),
                                           ("A census of faint absorbers behind nearby groups", 2024, "ApJ", 77)]
    )
    papers = _of(Paper, _read(f"<h2>Refereed publications</h2><ol class='pubs'>{items}</ol>"))
    assert [(p.title, p.year) for p in papers] == [
        ("Cold streams feeding compact dwarf galaxies", 2025),
        ("A census of faint absorbers behind nearby groups", 2024),
    ]


@pytest.mark.parametrize("placeholder", ["none at the moment", "None yet.", "Coming soon!", "TBA", "No news so far"])
def test_what_an_empty_list_says_in_place_of_its_entries_is_no_item(placeholder: str) -> None:
    html = f"""<h2>Publications</h2><h3>Submitted</h3><ul><li>{placeholder}</li></ul>
    <h3>Published</h3><ul><li>Ulloa, M. (2024). Cold streams feeding compact dwarf galaxies. <i>MNRAS</i>, 41.</li></ul>
    <h2>News</h2><ul><li>{placeholder}</li></ul>"""
    assert [type(r).__name__ for r in _read(html)] == ["Paper"]


def test_a_title_quoted_after_its_authors_and_a_book_under_contract_read_as_titles() -> None:
    html = """<h2>Publications</h2><h3>Books</h3><ul>
    <li>Halloran, Edith. Under contract. <em>Ledgers of the Harbour: Credit and Kinship in Port Towns</em>.
    Leeds: Northgate University Press.</li></ul>
    <h3>Working papers</h3><ul>
    <li>Edith Halloran and Tomas Vidal, &lsquo;Harbour Masters and Toll Farming&rsquo;. In progress.</li>
    <li>Edith Halloran, &lsquo;Salt Duties in the Long Eighteenth Century&rsquo;. Under review.</li></ul>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Ledgers of the Harbour: Credit and Kinship in Port Towns",
        "Harbour Masters and Toll Farming",  # two words, "and", two words: quoted after its authors, a title
        "Salt Duties in the Long Eighteenth Century",
    ]


def test_a_row_of_the_owners_links_is_no_post() -> None:
    html = """<div class="side"><h1>Mirae Kwon</h1><p>jiyeon.kwon [at] example.org</p>
    <p><a href="https://scholar.example.org/u">Google Scholar</a> &middot; <a href="https://code.example.org/mk">GitHub</a>
    &middot; <a href="https://social.example.org/mk">Bluesky</a></p></div>
    <h2>Publications</h2>
    <ul><li>Kwon, M., &amp; Ode, T. (2024). Grid cells in sleep. <i>Neuron</i>, 12, 1-9.</li></ul>"""
    assert [r.title for r in _of(Role, _read(html))] == []


def test_buttons_side_by_side_are_no_post_and_a_name_with_degrees_heads_no_list_of_people() -> None:
    html = """<div class="row"><div class="col-md-4"><img src="me.jpg" alt="Lena Varga">
    <div class="d-grid"><a class="btn" href="cv.pdf">Download CV</a> <a class="btn" href="https://scholar.example.org/lv">
    Google Scholar</a></div><address>Hollis Hall 312<br>lvarga@example.edu</address></div>
    <div class="col-md-8"><h1>Lena Varga, Ph.D.</h1>
    <p class="lead">Associate Professor of Chemistry, Dunmore University</p>
    <section id="about"><p>Lena Varga is an Associate Professor in the Department of Chemistry at Dunmore University,
    where her group has studied catalysis since 2019.</p><p>She trained in Kestrel and Brasswick, and her group
    combines photoredox and electrochemical methods to make amines from simple feedstocks.</p></section>
    <section id="awards"><h2>Awards &amp; Fellowships</h2><ul><li><span class="badge">2025</span>
    <span>Sloan Research Fellowship</span></li><li><span class="badge">2024</span><span>NSF CAREER Award</span></li>
    </ul></section></div></div>"""
    records = _read(html)
    assert _of(Member, records) == []
    (post,) = _of(Role, records)  # the lead and the biography name one post
    assert post.title.startswith("Associate Professor") and "Dunmore University" in (post.organization or "")


def test_a_table_of_posts_is_read_by_its_header_s_columns() -> None:
    place = "Faculdade de Educação, Universidade Federal do Cerrado Norte (UFCN)"
    rows = [
        ("2024–present", "Professora Adjunta (Assistant Professor) of Science Education<br><small>Permanent faculty"
         " member of the graduate programme; Coordinator, Teaching Laboratory</small>"),
        ("2023–2024", "Postdoctoral Researcher<br><small>Project: *Lesson study in rural schools*</small>"),
    ]
    text = "## Academic and professional experience\n\n| Period | Position | Institution |\n|---|---|---|\n" + "".join(
        f"| {when} | {post} | {place} |\n" for when, post in rows
    )
    roles = [(r.title, r.organization, r.start, r.end) for r in read_markdown(text).records if isinstance(r, Role)]
    assert roles == [
        ("Professora Adjunta (Assistant Professor) of Science Education", place, "2024", None),
        ("Postdoctoral Researcher", place, "2023", "2024"),
    ]


def test_a_resume_theme_s_jobs_are_posts_under_their_section_s_header() -> None:
    jobs = "".join(
        f"""<section class="work-item"><header class="clear"><div class="position">{post}</div>
        <div class="company">Department of Mining Engineering, Ridgeline Polytechnic</div>
        <div class="date"><span class="startDate">{start}</span> <span class="endDate">- {end}</span></div></header>
        <div class="summary"><p>Research and teaching in rock mechanics and tunnel safety.</p></div></section>"""
        for post, start, end in [("Professor", "Jul 2024", "Present"), ("Associate Professor", "Aug 2018", "Jun 2024")]
    )
    html = f"""<div id="resume"><section id="basics"><header><h1>Tomasz Eberle</h1>
    <div class="label">Professor of Mining Engineering</div></header></section>
    <section class="section"><header><h2 class="section-title">Experience <span>(2)</span></h2></header>
    <section id="work">{jobs}</section></section></div>"""
    roles = [(r.title, r.organization, r.start, r.end) for r in _of(Role, _read(html))]
    place = "Department of Mining Engineering, Ridgeline Polytechnic"
    assert ("Professor", place, "2024-07", None) in roles
    assert ("Associate Professor", place, "2018-08", "2024-06") in roles
    assert not _of(NewsItem, _read(html))


def test_a_sidebar_s_latest_posts_are_news_and_the_rest_of_it_is_furniture() -> None:
    posts = "".join(
        f'<li><a href="https://example.org/{n}/">{text}</a> <span class="post-date">{day}</span></li>'
        for n, (text, day) in enumerate([("Dr Ines Amaro awarded her PhD", "22 July 2024"),
                                         ("The FOLLOW-UP trial reaches 500 participants", "6 May 2024")])
    )
    html = f"""<main><h1>Welcome</h1><p>We study kidney recovery after acute injury.</p></main>
    <div class="widget-area secondary" id="secondary"><aside class="widget widget_recent_entries">
    <h2 class="widget-title">Recent News</h2><nav aria-label="Recent News"><ul>{posts}</ul></nav></aside>
    <aside class="widget widget_archive"><h2 class="widget-title">Archives</h2>
    <ul><li><a href="/2024/07/">July 2024</a></li><li><a href="/2024/05/">May 2024</a></li></ul></aside></div>"""
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2024-07-22", "Dr Ines Amaro awarded her PhD"),
        ("2024-05-06", "The FOLLOW-UP trial reaches 500 participants"),
    ]


def test_a_footer_line_that_names_the_webmaster_under_the_former_members_is_no_member() -> None:
    html = """<html><body><h3>Former members</h3><dl>
    <dt>Dr. Yuko Tanaba</dt><dd>Postdoc 2022&ndash;2025, now Assistant Professor at Kansai Institute</dd>
    <dt>Jonas Weidner</dt><dd>Master 2024, now PhD student at TU Rhenbach</dd></dl>
    <hr><font size="-2">Last modified: 15 January 2026 &middot; Webmaster: <a href="mailto:p@x.example">G. Pohle</a>
    &middot; You are visitor no. 051302</font></body></html>"""
    assert [m.name for m in _of(Member, _read(html))] == ["Yuko Tanaba", "Jonas Weidner"]


def test_a_site_builder_s_sign_up_banner_under_the_members_is_not_read() -> None:
    html = """<html><body><h2>Alumni</h2><ul><li><strong>Ana Ruiz</strong>, MSc 2023, now at KARI</li>
    <li><strong>Bo Lind</strong>, PhD 2021, now at ILRI</li></ul>
    <div class="sitebuilder-footer-signup-container"><div class="sitebuilder-footer-signup-container__text">Create
    your own unique website with customizable templates.</div> <a href="https://builder.example.com/signup">Get
    Started</a></div></body></html>"""
    records = _read(html)
    assert [m.name for m in _of(Member, records)] == ["Ana Ruiz", "Bo Lind"]
    assert not _of(Paper, records)


def test_a_wiki_s_print_footer_under_the_prizes_is_no_prize() -> None:
    html = """<html><body><div class="mw-parser-output"><h2><span class="mw-headline">Prizes</span></h2><ul>
    <li>2024 Walter Prize of the Physical Society</li><li>2021 Early Career Medal, Quantum Matter Society</li></ul>
    <div class="printfooter">Retrieved from "<a href="https://wiki.example.org/index.php?title=L&amp;oldid=1881">
    https://wiki.example.org/index.php?title=L&amp;oldid=1881</a>"</div></div></body></html>"""
    assert [a.title for a in _of(Award, _read(html))] == ["Walter Prize of the Physical Society", "Early Career Medal"]


def test_a_news_list_s_see_all_link_and_an_acknowledgement_of_country_are_no_items() -> None:
    html = """<html><body><h2>News</h2><ul><li>12 March 2026: Our sepsis trial opened its third site.</li>
    <li>3 February 2026: Dr Lee joined the group as a postdoctoral fellow.</li><li><a href="/news">See all</a></li>
    <li>See the <a href="/news">news archive</a> for lab updates.</li></ul>
    <h2>Awards</h2><ul><li>2025 Research Excellence Award, Children's Health Foundation</li></ul>
    <p>Wattle Children's Hospital acknowledges the Traditional Owners of the land on which we work.</p>
    </body></html>"""
    records = _read(html)
    assert [n.date for n in _of(NewsItem, records)] == ["2026-03-12", "2026-02-03"]
    assert [a.title for a in _of(Award, records)] == ["Research Excellence Award"]


def test_widget_sidebars_and_footers_written_as_divs_are_not_read() -> None:
    html = """<title>News | Dune Lab</title><div id="content"><h1>News</h1>
    <div class="post"><h2>Two papers accepted at ICASSP 2025</h2><p>Posted on March 3, 2025</p></div>
    <div class="post"><h2>New grant on dune migration</h2><p>Posted on June 12, 2024</p></div></div>
    <div id="primary" class="widget-area" role="complementary"><ul>
      <li><h3>Archives</h3><ul><li><a href="/2025/03/">March 2025</a></li>
        <li><a href="/2024/06/">June 2024</a></li></ul></li>
      <li><h3>Recent Posts</h3><ul><li><a href="/a">Two papers accepted at ICASSP 2025</a></li></ul></li></ul></div>
    <div id="footer" role="contentinfo"><p>Dune Lab, updated June 2025</p><p>2025: Dune Lab Best Site Award</p></div>"""
    assert [(n.text, n.date) for n in _of(NewsItem, _read(html))] == [
        ("Two papers accepted at ICASSP 2025", "2025-03-03"),
        ("New grant on dune migration", "2024-06-12"),
    ]


def test_a_generator_s_menu_column_is_not_the_owner_s_position() -> None:
    html = """<table><tr><td id="layout-menu"><div class="menu-category">Jane Roe</div>
    <div class="menu-item"><a href="index.html">Home</a></div><div class="menu-category">Links</div>
    <div class="menu-item"><a href="https://scholar.example.org/">Google&nbsp;Scholar</a></div></td>
    <td id="layout-content"><h1>Teaching</h1><ul><li>CS 4820: Algorithms (Fall 2025)</li></ul></td></tr></table>"""
    assert _read(html) == []


def test_a_post_s_category_chips_are_not_its_text() -> None:
    post = """<div class="quarto-post"><h3 class="listing-title"><a href="{0}.html">{1}</a></h3>
    <div class="listing-categories"><div class="listing-category">people</div></div>
    <div class="listing-date">{2}</div></div>"""
    html = "<h1>News</h1>" + post.format("n1", "Congratulations Dr. Ana Lima!", "2025-06-05") + post.format(
        "n2", "Leilani wins the student poster prize", "2025-05-20")
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-06-05", "Congratulations Dr. Ana Lima!"),
        ("2025-05-20", "Leilani wins the student poster prize"),
    ]


def test_blog_posts_told_by_their_titles_though_a_title_names_a_kind() -> None:
    post = """<div class="post"><h2 class="entry-title"><a href="/{0}">{1}</a></h2>
    <div class="entry-meta">Posted on <span class="entry-date">{2}</span> by <a href="/a/rc">R. Castellanos</a></div>
    <div class="entry-content"><p>{3}</p></div>
    <div class="entry-utility">Posted in <a href="/c/news">News</a> | <a href="/{0}#r">Leave a comment</a></div>
    </div>"""
    html = "<h1>News</h1>" + post.format("kenji", "Kenji Mori joins the Speech Institute", "January 9, 2023",
                                         "Best of luck, Kenji!") + post.format(
        "icassp", "Three papers at ICASSP 2023", "February 20, 2023", "See you in Rhodes.")
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2023-01-09", "Kenji Mori joins the Speech Institute"),
        ("2023-02-20", "Three papers at ICASSP 2023"),
    ]
    assert not _of(Paper, _read(html))


def test_a_layout_table_around_the_whole_page_is_not_one_record() -> None:
    html = """<html><body><table><tr><td>
    <h2>News</h2><p>[Mar 2026] We launched the buoy array.<br>[Jan 2026] New student joined.</p>
    <h2>Publications</h2><ul><li><b>Buoy Arrays for Tidal Energy</b>, A. Kerr, B. Lowe. Ocean Eng. 2025.</li></ul>
    </td></tr></table></body></html>"""
    kinds = [r.kind for r in _read(html)]
    assert kinds.count("news") == 2 and kinds.count("paper") == 1


def test_markdown_pages_read_like_html() -> None:
    text = "---\ntitle: x\n---\n## News\n- **2026-02-10**: A paper was accepted.\n\n## Students\n- Jane Doe\n"
    records = normalise_records(read_markdown(text).records)
    assert [r.kind for r in records] == ["news", "member"]


def test_the_reading_explains_each_list() -> None:
    reading = read_html(PEOPLE.format(students="<li>Ana Ruiz</li><li>Bo Lind</li>", alumni=""))
    (students,) = [report for report in reading.lists if report.records]
    assert students.where == "Reef Lab > PhD Students"
    assert (students.kind, students.entries, students.records) == ("member", 2, 2)
    assert "announces member" in students.why


def test_members_listed_with_their_programme_s_acronym_are_no_author_list() -> None:
    html = """<html><body><h2>Group Members</h2><h3>Undergraduate Students</h3><ul>
    <li><p>Jack Pole, LDEO REU, Cornell University (Summer 2025)</p></li>
    <li><p>Tony Manrique, LEAP REU, Metropolitan State University (Summer 2024)</p></li>
    <li><p>Jia Martin, LDEO REU, Barnard College (Summer 2023)</p></li></ul></body></html>"""
    assert [m.name for m in _of(Member, _read(html))] == ["Jack Pole", "Tony Manrique", "Jia Martin"]


def test_a_one_page_template_s_cover_states_the_post_and_its_icon_labels_state_none() -> None:
    html = """<html><body><div id="header"><h1 id="title">Ama Dial</h1><p>Epidemiologist</p>
    <ul class="icons"><li><a href="https://scholar.example.org/"><span class="label">Scholar</span></a></li>
    <li><a href="mailto:a@x.example"><span class="label">Email</span></a></li></ul></div>
    <div id="main"><section id="top"><div class="container"><header><h2>Dr. <strong>Ama Dial</strong></h2>
    <p>Research Fellow in Infectious Disease Epidemiology<br>
    Department of Epidemiology and Population Health, Harlow Bay University</p></header></div></section>
    <section id="contact"><h2>Contact</h2><p>Grenfell Building, Room 4.12.</p></section></div></body></html>"""
    assert [(r.title, r.organization) for r in _of(Role, _read(html))] == [
        ("Research Fellow in Infectious Disease Epidemiology",
         "Department of Epidemiology and Population Health, Harlow Bay University")
    ]


def test_a_menu_s_items_are_where_the_site_goes_not_its_owner_s_post() -> None:
    html = """<html><head><title>Laboratory of Surface Catalysis</title></head><body><form id="form1">
<table class="header"><tr><td class="headerText"><span class="instName">Institute of Physical Chemistry</span><br />
<span class="labName">Laboratory of Surface Catalysis</span></td></tr>
<tr><td class="menuBar"><table id="ctl00_Menu1"><tr>
<td><table><tr><td><a href="Default.aspx">Home</a></td></tr></table></td>
<td><table><tr><td><a href="Staff.aspx">Staff</a></td></tr></table></td>
<td><table><tr><td><a href="Publications.aspx">Publications</a></td></tr></table></td>
<td><table><tr><td><a href="Contact.aspx">Contact</a></td></tr></table></td>
</tr></table></td></tr></table>
<h1>Publications</h1><h2>2025</h2>
<span id="lblPubs">Prochazka, L., Kadlec, T. and Hruby, P. (2025) Zeolite confinement effects in ethanol
dehydration. <i>Microporous Materials Today</i>, 12, 101-112.<br/>
Kadlec, T. and Dvorak, M. (2025) Single-atom platinum on ceria. <i>Journal of Surface Catalysis</i>, 44, 220-231.<br/>
Dvorak, M. (2024) CO2 hydrogenation over copper-zinc catalysts. <i>Catalysis Letters Moravia</i>, 9, 33-41.</span>
</form></body></html>"""
    records = _read(html)
    assert not _of(Role, records)
    assert len(_of(Paper, records)) == 3


def test_the_letters_after_a_member_s_name_are_no_role() -> None:
    html = """<html><body><h2>Staff</h2><table><tr>
    <td><div class="staffCard"><img src="t.jpg" alt=""/><span class="staffName">Ing. Tomas Kadle, Ph.D.</span><br/>
    <span class="staffPosition">Researcher</span></div></td>
    <td><div class="staffCard"><img src="k.jpg" alt=""/><span class="staffName">Mgr. Katerina Novot, Ph.D.</span><br/>
    <span class="staffPosition">Postdoctoral Researcher</span></div></td></tr></table></body></html>"""
    assert [m.role for m in _of(Member, _read(html))] == ["Researcher", "Postdoctoral Researcher"]


def test_a_section_s_header_inside_the_wrapper_it_opens_heads_the_section() -> None:
    reading = read_html("""<html><body><h1>Ama Dial</h1>
    <section id="awards"><div class="container"><header><h2>Awards &amp; Fellowships</h2></header>
    <ul><li>Young Investigator, West African Epidemiology Association (2025)</li>
    <li>Early Career Fellowship, Pan-African Health Research Trust (2023)</li></ul></div></section></body></html>""")
    (awards,) = [report for report in reading.lists if report.records]
    assert awards.where == "Ama Dial > Awards & Fellowships"


def test_paper_cards_of_a_picture_a_title_and_a_vancouver_citation_are_papers_not_people() -> None:
    cards = "".join(
        f'<div class="col-4"><article class="item"><a href="#" class="image fit"><img src="p{n}.jpg" alt=""></a>'
        f"<header><h3>{title}</h3></header><p>{authors}. <em>{journal}</em> 2025;{n}:e8{n}.</p></article></div>"
        for n, (title, authors, journal) in enumerate([
            ("Health worker density and malaria case management", "Dial A, Keit B, Marchi L", "Trop Health Rep"),
            ("Vaccine hesitancy among caregivers after an outbreak", "Mensa E, Dial A", "Vaccine Policy Rev"),
            ("Heat exposure and hospital admissions in Bamako", "Dial A, Traor S", "Planet Health Lett"),
        ], start=1)
    )
    records = _read(f"""<html><body><h1>Ama Dial</h1><section id="research"><div class="container">
    <header><h2>Research</h2></header><p>Selected publications.</p><div class="row">{cards}</div></div></section>
    </body></html>""")
    assert not _of(Member, records)
    assert [p.venue for p in _of(Paper, records)] == ["Trop Health Rep", "Vaccine Policy Rev", "Planet Health Lett"]


@pytest.mark.parametrize(
    ("sentence", "title", "organization"),
    [
        ("I'm a PhD student interested in how we read words so quickly.", "PhD student", None),
        ("Maria is a postdoc working on reef acoustics.", "Postdoc", None),
        ("I am a third-year PhD student at Lakeshore University.", "Third-year PhD student", "Lakeshore University"),
        ("This project is a collaboration with the city.", None, None),
        ("I am a PhD student advised by Prof. Ana Lima at Lakeshore University.", "PhD student",
         "Lakeshore University"),
        ("I am currently a postdoc working with Ana Lima and Bo Chen at Halcyon Labs.", "Postdoc", "Halcyon Labs"),
        ("I am a PhD student advised by Ana Lima and just started my third year.", "PhD student", None),
        ("I am an Assistant Professor of Economics at Northfield University.", "Assistant Professor of Economics",
         "Northfield University"),
        ("I am a PhD student in the Department of Physics at Lakeshore University.", "PhD student",
         "Department of Physics at Lakeshore University"),
        ("I am a postdoc at the Institute for Fiscal Studies, working with Ana Lima.", "Postdoc",
         "Institute for Fiscal Studies"),
        ("I am a research scientist at Halcyon Labs for the second year.", "Research scientist", "Halcyon Labs"),
        ("I am a Ph.D. candidate in Economics at Halvorsen University.", "PhD candidate in Economics",
         "Halvorsen University"),
        ("I am an M.Sc. student at St. Andrews University.", "MSc student", "St. Andrews University"),
        ("I am Professor of History at Calloway College.", "Professor of History", "Calloway College"),
        ("I am Associate Professor of Economics at Westbrook University.", "Associate Professor of Economics",
         "Westbrook University"),
        ("I am Reader in Victorian Literature in the School of English at the University of Lorn.",
         "Reader in Victorian Literature", "School of English, University of Lorn"),
        ("I am also an affiliated researcher at the Midwest Labor Policy Lab.", "Affiliated researcher",
         "Midwest Labor Policy Lab"),
        ("From September 2024 I am also Director of Postgraduate Research in the School of English.",
         "Director of Postgraduate Research", "School of English"),
        ("In July 2026, I will join the Department of Economics at Tulane University as an Assistant Professor.",
         "Assistant Professor", "Department of Economics at Tulane University"),
        ("I am an Associate Professor at the Harlan School of Economics, which I joined in July 2025.",
         "Associate Professor", "Harlan School of Economics"),
        ("I will join the Department of Economics at Kestrel University as an Assistant Professor in July 2027.",
         "Assistant Professor", "Department of Economics at Kestrel University"),
        ("I joined Harlow College in September 2022 as a Lecturer in History.", "Lecturer in History",
         "Harlow College"),
        ("Starting in Fall 2026, I will be an Associate Professor in the Department of Psychology at Halden "
         "University.", "Associate Professor", "Department of Psychology at Halden University"),
        ("I am a 4th-year PhD student at Alder University, jointly advised by Prof. Bo Roe and Prof. Ana Lima.",
         "4th-year PhD student", "Alder University"),
        ("Since August 2025 I have also been Director of the Centre for Diaspora Studies, which hosts seminars.",
         "Director", "Centre for Diaspora Studies"),
        ("I am an infectious disease epidemiologist and Assistant Professor in the Department of Epidemiology.",
         "Assistant Professor", "Department of Epidemiology"),
        ("I am a computational biologist and a PhD student at Lakeshore University.", "PhD student",
         "Lakeshore University"),
        ("I’m a PhD candidate at the Ardent Institute, advised by Dan Whit.", "PhD candidate", "Ardent Institute"),
    ],
)
def test_the_owner_role_in_a_biography_sentence(sentence: str, title: str | None, organization: str | None) -> None:
    from extractors.reading.owner import read_bio_roles

    roles = read_bio_roles(sentence)
    assert [(r.title, r.organization) for r in roles] == ([(title, organization)] if title else [])


def test_titles_in_single_quotes_and_a_book_s_editor_note_read_as_a_historian_writes_them() -> None:
    html = """<h2>Books</h2><ul>
    <li>(ed., with Tomas Brandt) <i>Merchants and Monasteries, 1100–1400</i> (Leiden: Brill, 2019).</li></ul>
    <h2>Articles and Chapters</h2><ul>
    <li>Ellery, M. (2024) ‘Hanseatic credit and the parish’, <i>Past &amp; Present</i>, 262(1), pp. 3–41.</li>
    <li>Ellery, M. and Brandt, T. (2021) 'The bishop's ledgers as devotional objects', in Karlsson, A. (ed.)
      <i>Material Faith</i>. Cambridge: Cambridge University Press, pp. 112–138.</li></ul>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Merchants and Monasteries, 1100–1400", "Leiden: Brill", 2019),
        ("Hanseatic credit and the parish", "Past & Present", 2024),
        ("The bishop's ledgers as devotional objects", "Material Faith", 2021),
    ]


@pytest.mark.parametrize(
    ("written", "name"),
    [("Jordan T. Abebe, MPH", "Jordan T. Abebe"), ("Dr. Ana Lima, M.D., Ph.D.", "Ana Lima"),
     ("Rui Costa MBChB", "Rui Costa"), ("Li Ma, MS", "Li Ma"), ("Li Ma", "Li Ma"), ("Wen Ba", "Wen Ba"),
     ("Miriam Kessler, Ph.D., P.E.", "Miriam Kessler"), ("Rui Okafor MBBS MRCP", "Rui Okafor")],
)
def test_a_member_s_degrees_after_the_name_are_not_part_of_it(written: str, name: str) -> None:
    assert clean_person_name(written) == name


@pytest.mark.parametrize(("text", "named"), [("Select Page", False), ("Download CV", False), ("View Profile", False),
                                             ("Jane Page", True), ("Ana Hall", True)])
def test_theme_buttons_are_not_people_and_surnames_that_are_words_still_are(text: str, named: bool) -> None:
    assert is_person_name(text) is named


def test_a_blog_list_with_author_cards_reading_times_and_tag_chips_is_news() -> None:
    post = """<article itemprop="blogPost"><header><h2 class="title_f1Hy"><a href="/blog/{slug}">{title}</a></h2>
      <div class="container_mt6G"><time datetime="{date}T00:00:00.000Z">{shown}</time> · One min read</div>
      <div class="avatar"><a href="/people"><img class="avatar__photo" src="/img/{slug}.jpg" alt="{author}"></a>
      <div class="avatar__intro" itemprop="author" itemscope><div class="avatar__name"><span itemprop="name">{author}
      </span></div><small itemprop="description">PhD Student</small></div></div></header>
      <div class="markdown"><p>{summary}</p></div><footer><b>Tags:</b><ul class="tags_jXut"><li class="tag_QGVx">
      <a href="/blog/tags/awards">awards</a></li></ul><a href="/blog/{slug}"><b>Read More</b></a></footer></article>"""
    posts = [
        ("welcome", "Welcome Noor!", "2024-01-29", "January 29, 2024", "Ana Lima", "Noor joins us to work on sonar."),
        ("award", "Best Paper Award at IMR 2024", "2023-10-15", "October 15, 2023", "Bo Chen", "Our paper won."),
        ("glacier", "Our quadruped goes to the glacier", "2023-08-01", "August 1, 2023", "Ana Lima", "A field trip."),
    ]
    html = "<main>" + "".join(post.format(slug=a, title=b, date=c, shown=d, author=e, summary=f)
                              for a, b, c, d, e, f in posts) + "</main>"
    records = _read(html)
    assert [(n.date, n.text) for n in _of(NewsItem, records)] == [(c, b) for _, b, c, *_ in posts]
    assert not _of(Member, records) and not _of(Award, records)


def test_a_bold_paragraph_over_a_list_heads_its_group_and_an_adviser_s_link_is_not_the_member() -> None:
    html = """<h3>Current Members</h3><p><strong>PhD Students</strong></p>
    <ul><li><a href="#">Rohan Bhatt</a> (2021–) — learning from tactile sequences</li>
    <li>Teresa Okonjo (2022–), co-advised with <a href="#">Prof. Wen Liao</a> — tactile simulation</li></ul>
    <p><strong>Master's Students</strong></p><ul><li>Priya Raghunathan (2024–)</li></ul>
    <h3>Staff</h3><div class="row">{cards}</div>"""
    card = '<div class="col"><img src="x.jpg"><h4>{name}</h4><p><strong>{role}</strong></p><p>{bio}</p></div>'
    cards = "".join(card.format(name=n, role=r, bio=b) for n, r, b in [
        ("Sofia Marchetti", "Lab Manager", "Keeps the drones flying."), ("Tariq Haddad", "Research Technician", "")])
    members = _of(Member, _read(html.format(cards=cards)))
    assert [(m.name, m.role) for m in members] == [
        ("Rohan Bhatt", "PhD Student"), ("Teresa Okonjo", "PhD Student"), ("Priya Raghunathan", "Master's Student"),
        ("Sofia Marchetti", "Lab Manager"), ("Tariq Haddad", "Research Technician"),
    ]


def test_a_card_header_heads_its_card_in_a_sidebar_beside_the_news() -> None:
    html = """<div class="row"><div class="col-lg-8"><h2>News</h2><ul class="list-unstyled">
      <li><span class="badge">Mar 2025</span> Owen McAllister defended his thesis. Congratulations!</li>
      <li><span class="badge">Jan 2025</span> Our paper on whole-arm grasping was accepted at ICRA.</li></ul></div>
    <div class="col-lg-4"><div class="card">
      <div class="card-header"><i class="fas fa-trophy"></i> Honors &amp; Awards</div><ul class="list-group">
      <li class="list-group-item">2024 &mdash; RSS Best Student Paper Award (Owen McAllister)</li>
      <li class="list-group-item">2023 &mdash; ONR Young Investigator Program Award</li></ul></div>
    <div class="card"><div class="card-header">Contact</div><ul class="list-group">
      <li class="list-group-item">Prof. Daniela Okafor</li><li class="list-group-item">Hartwell Hall 310</li></ul></div>
    </div></div>"""
    records = _read(html)
    assert [n.date for n in _of(NewsItem, records)] == ["2025-03", "2025-01"]
    assert [(a.title, a.year) for a in _of(Award, records)] == [
        ("RSS Best Student Paper Award", 2024), ("ONR Young Investigator Program Award", 2023)
    ]


def test_a_role_set_as_a_smaller_heading_under_a_person_s_name_is_their_role() -> None:
    html = """<h3>Principal Investigator</h3><div class="media"><img src="okafor.jpg" alt="Daniela Okafor">
      <div class="media-body"><h4>Daniela Okafor</h4><h6>Professor, Mechanical Engineering</h6>
      <p>Daniela directs the Adaptive Manipulation Lab. She joined Northbridge in 2017.</p></div></div>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Daniela Okafor", "Professor, Mechanical Engineering")
    ]


def test_a_layout_table_s_content_cell_is_a_part_of_the_page_not_one_record() -> None:
    news = "".join(f"20{y}.0{m} - Item {y}{m}: a student of the lab gave a talk at the spring meeting.<BR>\n"
                   for y in (22, 23, 24) for m in (1, 4, 7, 9))
    html = f"""<TABLE width="760"><TR><TD width="160"><FONT size="2"><A href="member.htm">Members</A><BR>
      <A href="paper.htm">Papers</A></FONT></TD><TD><FONT size="2"><B><FONT size="4">Welcome to the Lab</FONT></B><BR>
      We study the excited-state dynamics of polymers.<BR><BR><FONT size="3"><B>What's New</B></FONT><HR>
      {news}<BR><B>Contact</B><BR>Prof. Kenji Morimoto<BR>TEL: +81-76-555-2281<BR></FONT></TD></TR></TABLE>"""
    assert len(_of(NewsItem, _read(html))) == 12


def test_an_empty_anchor_before_a_bold_heading_leaves_it_a_heading() -> None:
    html = """<p>R3. K. Morimoto, "Time-resolved fluorescence", <i>Bunseki</i>, 2018, 455-461.<br><br>
      <a name="award"></a><font size="3"><b>Awards</b></font><hr>
      2024.03 Society Award, Japan Society of Polymer Photonics (K. Morimoto)<br>
      2023.09 Young Scientist Award, Japan Society of Polymer Photonics (S. Hamada)<br></p>"""
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Society Award", 2024), ("Young Scientist Award", 2023)
    ]


def test_a_heading_whose_text_a_site_builder_wraps_in_blocks_is_still_a_heading() -> None:
    heading = ('<h3 class="zfr3Q"><div class="GV3q8e"></div><div class="CjVfdc"><div class="PPhIP">'
               '<a href="#h.ba18" aria-label="Copy heading link"><svg></svg></a></div><span>{}</span></div></h3>')
    html = (heading.format("Honors") + '<ul><li><p><span>2024 &mdash; Redfern Graduate Research Fellowship '
            "(Kofi Mensah)</span></p></li><li><p><span>2023 &mdash; Early Career Faculty Award (Aurelia Vance)</span>"
            "</p></li></ul>")
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Redfern Graduate Research Fellowship", 2024), ("Early Career Faculty Award", 2023)
    ]


def test_an_author_date_citation_with_the_year_as_its_own_sentence_keeps_its_title() -> None:
    html = """<h2>Publications</h2><p>Kahananui, K.*, and <strong>M. Ashcombe-Reyes</strong>. 2025. Fiddler crab
      bioturbation under warming: a mesocosm test. <em>Journal of Experimental Marine Biology and Ecology</em>
      583:152066. <a href="https://doi.org/10.1/x">[DOI]</a></p><p>Brooks, D., H. Yoon, and M. Ashcombe-Reyes.
      2024b. Oyster reefs and denitrification. <em>Ecological Engineering</em> 210:107455.</p>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Fiddler crab bioturbation under warming: a mesocosm test",
         "Journal of Experimental Marine Biology and Ecology", 2025),
        ("Oyster reefs and denitrification", "Ecological Engineering", 2024),
    ]


def test_one_word_sub_headings_of_a_list_are_its_groups_not_its_entries() -> None:
    html = """<h2>Grants</h2><h3>Active</h3><ul class="grants"><li>R01 AI123456, NIAID, Carbapenem resistance
      in long-term care (PI), 2023&ndash;2028</li></ul><h3>Completed</h3><ul class="grants"><li>K23 AI098765,
      NIAID, Colonization dynamics (PI), 2017&ndash;2022</li></ul>"""
    titles = [a.title for a in _of(Award, _read(html))]
    assert len(titles) == 2 and not {"Active", "Completed"} & set(titles)


def test_a_status_set_before_the_italic_journal_with_a_comma_stays_with_the_venue() -> None:
    listing = """<h2>Working Papers</h2><div class="listing">{}</div>"""
    item = ('<div class="quarto-post"><h3 class="listing-title"><a href="./r/{slug}">{title}</a></h3>'
            '<div class="listing-subtitle"><a href="./r/{slug}">{status}, <em>{journal}</em></a></div></div>')
    papers = [("a", "Automation Exposure and Early Retirement", "Revise and resubmit", "Journal of Labor Dynamics"),
              ("b", "Payroll Tax Salience and Bunching", "Second-round revise and resubmit",
               "Journal of Fiscal Studies")]
    html = listing.format("".join(item.format(slug=a, title=b, status=c, journal=d) for a, b, c, d in papers))
    assert [p.venue for p in _of(Paper, _read(html))] == [
        "Revise and resubmit Journal of Labor Dynamics", "Second-round revise and resubmit Journal of Fiscal Studies"
    ]


def test_a_status_where_an_apa_citation_puts_its_year_stays_with_the_venue() -> None:
    html = """<h2>Publications</h2><ul><li><b>Marchetti, I.</b>, Oyelaran, T., &amp; Castellanos, R. (in press).
      Compound drought–heat events reduce groundwater recharge. <em>Groundwater Futures</em>.</li>
      <li>Lindgren, P., &amp; Weir, D. (2023). Benchmarking snow models on a common suite.
      <em>Geoscientific Model Practice, 16</em>, 3301–3322.</li></ul>"""
    assert [p.venue for p in _of(Paper, _read(html))] == [
        "Groundwater Futures, in press", "Geoscientific Model Practice"
    ]


def test_one_article_cited_in_harvard_and_in_chicago_style_reads_the_same() -> None:
    harvard = """<h2>Articles</h2><ul><li>Trevanion, I. (2014) &lsquo;Mrs Oliphant and the Post Office Savings
      Bank&rsquo;, <i>Notes and Queries</i>, 61(2), pp. 270&ndash;273.</li><li>Trevanion, I. and Achterberg, P.
      (eds.) (2020) <i>Reading the Railway: Mobility and Print Culture</i>. Edinburgh: Edinburgh University Press.
      </li></ul>"""
    chicago = """<h2>Articles</h2><ul><li>Trevanion, Isobel. &ldquo;Mrs Oliphant and the Post Office Savings
      Bank.&rdquo; <em>Notes and Queries</em> 61, no. 2 (2014): 270&ndash;73.</li><li>Trevanion, Isobel, and
      Piet Achterberg, eds. <em>Reading the Railway: Mobility and Print Culture</em>. Edinburgh: Edinburgh
      University Press, 2020.</li></ul>"""
    read = [[(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] for html in (harvard, chicago)]
    assert read[0] == read[1] == [
        ("Mrs Oliphant and the Post Office Savings Bank", "Notes and Queries", 2014),
        ("Reading the Railway: Mobility and Print Culture", "Edinburgh: Edinburgh University Press", 2020),
    ]


def test_an_honour_set_on_a_paper_s_entry_is_an_award_of_that_paper() -> None:
    html = """<h2>Publications</h2><ul><li>A. Mehra and <strong>M. Okonjo</strong>, &ldquo;Curriculum learning
      for scree descent,&rdquo; in <em>Proc. Int. Conf. on Intelligent Mobile Robots (IMR)</em>, 2024,
      pp. 1457&ndash;1464. [<a href="a.pdf">PDF</a>] <strong>&#127942; Best Paper Award</strong></li>
      <li>K. Ruiz and <strong>M. Okonjo</strong>, &ldquo;Tactile maps for field robots,&rdquo; in <em>Proc. IMR</em>,
      2023. <span class="badge">Oral</span></li></ul>"""
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == [
        "Curriculum learning for scree descent", "Tactile maps for field robots"
    ]
    assert [(a.title, a.year) for a in _of(Award, records)] == [("Best Paper Award", 2024)]


def test_a_list_of_people_under_the_group_s_own_name_is_read_as_members() -> None:
    page = """# Rafael Quintanilla

## Recent news

* **[May 2025]** Our snow drought paper is out.

Mountain Water Lab
------
* Ngozi Adeyemi, Ph.D. student (2024&ndash;)
* Tomasz Wierzbicki, Ph.D. student (2025&ndash;)
* Lucía Ferreyra, M.S. student (2025&ndash;)
"""
    members = [r for r in read_markdown(page).records if isinstance(r, Member)]
    assert [(m.name, m.role) for m in members] == [
        ("Ngozi Adeyemi", "Ph.D. student (2024–)"), ("Tomasz Wierzbicki", "Ph.D. student (2025–)"),
        ("Lucía Ferreyra", "M.S. student (2025–)"),
    ]


def test_a_cms_listing_s_created_field_with_weekday_and_time_dates_its_news() -> None:
    row = ('<div class="views-row"><div class="views-field views-field-created"><span class="field-content">'
           '<time datetime="2025-0{m}-28T09:00:00-05:00">Tue, 0{m}/28/2025 - 09:00</time></span></div>'
           '<div class="views-field views-field-title"><span class="field-content"><a href="/news/{m}">{text}</a>'
           "</span></div></div>")
    texts = ["Whitcombe promoted to full professor", "Lab receives a catalysis grant", "Farrow wins poster prize"]
    html = "<h2>News</h2><div>" + "".join(row.format(m=m, text=t) for m, t in enumerate(texts, 1)) + "</div>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-01-28", texts[0]), ("2025-02-28", texts[1]), ("2025-03-28", texts[2])
    ]


def test_acs_and_maths_citations_keep_their_titles_before_an_abbreviated_journal() -> None:
    html = """<h2>Publications</h2><ol><li>Whitcombe, E. R.; Farrow, J. T. Ligand-Controlled Hydroarylation of
      Alkenes. <em>Organomet. React.</em> <strong>2024</strong>, <em>43</em>, 2215&ndash;2226.</li><li>Lima, A.;
      Chen, B. Another paper on catalysis in water. <em>J. Catal.</em> <strong>2023</strong>, <em>12</em>, 1&ndash;9.
      </li><li>Doe, J. Brownian paths in random media. <em>Ann. Probab.</em> <b>51</b> (2023), 1021&ndash;1060.</li>
      </ol>"""
    html += """<ul><li>Moreau, C. Electrocatalysts are never what we made. <i>ACS Energy Lett.</i> <b>2024</b>,
      <i>9</i>, 1980&ndash;1989.</li></ul>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Ligand-Controlled Hydroarylation of Alkenes", "Organomet. React", 2024),
        ("Another paper on catalysis in water", "J. Catal", 2023),
        ("Brownian paths in random media", "Ann. Probab", 2023),
        ("Electrocatalysts are never what we made", "ACS Energy Lett", 2024),  # not the page "1989"
    ]
    # The last author's initials run on into a title that holds "and": the list ends at the initials.
    html = """<h2>Publications</h2><ol><li>Marsh, G. P.; Lindqvist, E.; <b>Calloway, M. E.</b> Synthesis and
      Characterization of an Iron Nitrosyl. <i>Inorg. Chem.</i> <b>2021</b>, <i>60</i>, 6601&ndash;6612.</li>
      <li>Marsh, G. P.; <b>Calloway, M. E.</b> Nitrosyl complexes revisited. <i>Inorg. Chem.</i> <b>2020</b>, <i>59</i>,
      11&ndash;19.</li></ol>"""
    assert [(p.title, p.authors) for p in _of(Paper, _read(html))] == [
        ("Synthesis and Characterization of an Iron Nitrosyl", ("Marsh, G. P.", "Lindqvist, E.", "Calloway, M. E.")),
        ("Nitrosyl complexes revisited", ("Marsh, G. P.", "Calloway, M. E.")),
    ]


def test_a_dated_media_object_is_one_news_item_though_the_page_repeats_its_paragraph_block_elsewhere() -> None:
    theme = '<div class="content"><p class="has-text-weight-semibold">{}</p><p class="is-size-7">{}</p></div>'
    item = ('<article class="media news-item"><div class="media-left"><span class="tag is-info">{date}</span></div>'
            '<div class="media-content"><div class="content"><p>{text}</p></div></div></article>')
    news = [("3 Sep 2025", "Welcome to Mariam Haddad, who starts her PhD with us."),
            ("1 Aug 2025", "Soo-ah received an Outstanding Paper Award at ACL 2025."),
            ("11 Jun 2025", "Ingrid is teaching at the ESSLLI 2025 summer school.")]
    html = ("<h2>Research themes</h2>" + theme.format("Word learning", "Cross-situational learning.")
            + theme.format("Multilingual input", "Code-switched speech to children.")
            + '<div class="column"><h2>Latest news</h2>' + "".join(item.format(date=d, text=t) for d, t in news)
            + "</div>")
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-09-03", news[0][1]), ("2025-08-01", news[1][1]), ("2025-06-11", news[2][1])
    ]


def test_wordpress_posts_dated_in_their_footer_byline_are_news() -> None:
    post = """<article class="post type-post hentry"><header class="entry-header"><h2 class="entry-title">
      <a href="https://lab.example.edu/{slug}/" rel="bookmark">{title}</a></h2></header><div class="entry-content">
      <p>{body}</p></div><footer class="entry-footer"><span class="byline"><span class="screen-reader-text">Author
      </span><span class="author vcard"><a class="url fn n" href="/author/mk/">Miriam Kessler</a></span></span>
      <span class="posted-on"><span class="screen-reader-text">Posted on </span><a href="/{slug}/"><time
      class="entry-date published" datetime="{iso}T08:55:31-06:00">{shown}</time></a></span><span class="cat-links">
      <a href="/category/news/" rel="category tag">Lab News</a></span></footer></article>"""
    posts = [("welcome", "Welcome to our new graduate students", "Hyun-woo Park joins us as an MS student.",
              "2025-09-08", "September 8, 2025"),
             ("fellowship", "Dana awarded a graduate fellowship", "Congratulations, Dana!", "2025-08-14",
              "August 14, 2025")]
    html = "<main>" + "".join(post.format(slug=a, title=b, body=c, iso=d, shown=e) for a, b, c, d, e in posts)
    records = _read(html + "</main>")
    assert [(n.date, n.text) for n in _of(NewsItem, records)] == [(d, b) for _, b, _, d, _ in posts]
    assert not _of(Role, records) and not _of(Member, records)


def test_an_acs_list_restyled_into_cards_reads_the_same_venues() -> None:
    listed = """<h2>Publications</h2><ul><li class="pub">Adebayo, O.; <b>Moreau, C.</b> Electrolyte cation effects on
      nitrate reduction. <i>Angew. Chem. Int. Ed.</i> <b>2025</b>, <i>64</i>, e202509931.</li><li class="pub">Ruiz, P.;
      <b>Moreau, C.</b> In situ X-ray absorption of cobalt sites. <i>J. Phys. Chem. C</i> <b>2024</b>, <i>128</i>,
      4410&ndash;4421.</li></ul>"""
    card = ('<div class="pub"><div class="pub__title">{}</div><div class="pub__authors">{}</div>'
            '<div class="pub__venue"><i>{}</i> {}</div></div>')
    cards = "<h2>Publications</h2>" + card.format(
        "Electrolyte cation effects on nitrate reduction", "Adebayo, O., Moreau, C.", "Angew. Chem. Int. Ed.",
        "64, e202509931 (2025)") + card.format(
        "In situ X-ray absorption of cobalt sites", "Ruiz, P., Moreau, C.", "J. Phys. Chem. C", "128, 4410–4421 (2024)")
    read = [[(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] for html in (listed, cards)]
    assert read[0] == read[1] == [
        ("Electrolyte cation effects on nitrate reduction", "Angew. Chem. Int. Ed", 2025),
        ("In situ X-ray absorption of cobalt sites", "J. Phys. Chem. C", 2024),
    ]


def test_apa_entries_with_a_status_for_their_year_are_papers_with_that_status() -> None:
    html = """<h2>Publications</h2><h3>Submitted / In Review</h3><ol><li><u>Greybull, T.</u>, &amp; <u>Kessler, M.</u>
      (in review). Beaver dam analogs increase hyporheic exchange in incised streams. <em>Ecohydrology</em>.</li>
      <li><u>Whitehorse, D.</u>, &amp; <u>Kessler, M.</u> (submitted). Wildfire-driven shifts in snowpack energy
      balance. <em>Journal of Hydrology</em>.</li></ol>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Beaver dam analogs increase hyporheic exchange in incised streams", "Ecohydrology, in review"),
        ("Wildfire-driven shifts in snowpack energy balance", "Journal of Hydrology, submitted"),
    ]


def test_a_legend_of_a_publication_list_s_marks_is_not_a_paper() -> None:
    html = """<h2>Publications</h2><p class="page-lead">Group members who are students or postdocs are listed by
      name; Camille in bold.</p><p>* denotes equal contribution</p><h3>Preprints</h3>
      <p class="pubnote">Not yet peer reviewed.</p><ul><li>Adebayo, O., &amp; Moreau, C. (2025). Pulsed
      electrolysis suppresses copper restructuring. <em>ChemRxiv</em>.</li></ul>"""
    assert [p.title for p in _of(Paper, _read(html))] == ["Pulsed electrolysis suppresses copper restructuring"]


def test_a_book_review_in_chicago_style_is_titled_by_the_book_not_the_journal() -> None:
    html = """<h2>Book Reviews</h2><p>Review of <i>Clouded Skies: Weather Writing in Britain, 1800&ndash;1900</i>, by
      Rukhsana Hamid. <i>Victorian Studies</i> 62, no. 1 (2020): 150&ndash;152.</p><p>Review of <i>Baltic Cities</i>,
      by J. Mark. <i>English Historical Review</i> 138, no. 4 (2023): 512&ndash;514.</p>"""
    papers = _of(Paper, _read(html))
    assert [p.venue for p in papers] == ["Victorian Studies", "English Historical Review"]
    assert not {"Victorian Studies", "English Historical Review"} & {p.title for p in papers}
    # The reviewed book's author first, its press after it: the book is still the first in italics.
    html = """<h2>Reviews</h2><ul><li>Review of Ama Owusu, <i>Trust without Testimony</i> (Harvard University Press,
      2024), <i>Notre Dame Philosophical Reviews</i>, 2025.08.14.</li><li>Review of Samir Haddad, <i>The Epistemology
      of Rumour</i> (Oxford University Press, 2022), <i>Mind</i> 132 (2023): 870&ndash;876.</li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Trust without Testimony", "Notre Dame Philosophical Reviews"), ("The Epistemology of Rumour", "Mind")
    ]


def test_a_list_item_whose_title_authors_source_and_links_are_paragraphs_is_one_paper() -> None:
    item = ('<li class="pub-item"><p class="pub-title">{}</p><p class="pub-authors">Kowalczyk M, El-Sayed A, Brennan A.'
            '</p><p class="pub-source"><span class="pub-journal">Cancer Res</span> 2025;85(2):301-317.</p>'
            '<p class="pub-links"><a href="https://doi.org/10.1/x">doi:10.1/x</a> · '
            '<a href="https://pubmed.ncbi.nlm.nih.gov/39487211/">PMID 39487211</a></p></li>')
    titles = ["A genome-wide CRISPR screen identifies a metabolic dependency",
              "Citrate transport as a therapeutic vulnerability in leukaemia"]
    html = "<h2>Publications</h2><ul>" + "".join(item.format(t) for t in titles) + "</ul>"
    papers = _of(Paper, _read(html))
    assert [(p.title, p.year) for p in papers] == [(t, 2025) for t in titles]
    assert all(p.authors == ("Kowalczyk M", "El-Sayed A", "Brennan A") for p in papers)


def test_italics_set_as_an_inline_style_mark_the_journal_and_a_bare_status_stays_with_it() -> None:
    cited = """<h2>Publications</h2><p><span>Ruiz, Renata, and Jordan Eckhart. Forthcoming. &ldquo;Algorithmic Tenant
      Screening and Racial Exclusion.&rdquo; <span style="font-style:italic;">Social Forces</span>.</span></p>
      <p><span>Ruiz, Renata. 2023. &ldquo;Eviction Filings and School Moves.&rdquo; <span style="font-style:italic;">
      City &amp; Community</span> 22(1):5&ndash;29.</span></p>"""
    assert [p.venue for p in _of(Paper, _read(cited))] == ["Social Forces, Forthcoming", "City & Community"]


def test_a_capitalised_bold_paragraph_heads_the_paragraphs_a_site_builder_makes_of_its_entries() -> None:
    para = '<p class="font_8"><span style="color:#2B2B2B;">{}</span></p>'
    html = ('<div class="comp">' + para.format("I study housing and urban inequality.")
            + '<p class="font_7"><span style="font-weight:bold;"><span style="color:#B5653A;">GRANTS, FELLOWSHIPS '
            '&amp; HONORS</span></span></p>' + para.format("2024 &nbsp; Best Article Award, Eastern Sociological "
            "Association") + para.format("2023 &nbsp; Dissertation Fellowship, Merriam Foundation") + "</div>")
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Best Article Award", 2024), ("Dissertation Fellowship", 2023)
    ]
    assert not _of(NewsItem, _read(html))


def test_the_years_set_after_a_biography_position_date_it() -> None:
    from extractors.reading.owner import read_bio_roles

    text = ("Previously, I was a postdoctoral fellow at the Harlow Institute (2021–2023). I am a lecturer at "
            "Calloway College (since 2024). I was a visiting scholar at Lund University (with Rosa Vidal).")
    text += " In Fall 2026 I will join the Robotics Institute as a postdoctoral fellow."
    assert [(r.title, r.organization, r.start, r.end) for r in read_bio_roles(text)] == [
        ("Postdoctoral fellow", "Harlow Institute", "2021", "2023"),
        ("Lecturer", "Calloway College", "2024", None),
        ("Postdoctoral fellow", "Robotics Institute", "2026", None),
    ]


def test_a_post_a_biography_tells_as_history_without_its_years_is_no_position() -> None:
    before = """<h1>Maya Lindqvist</h1><p>I am an Assistant Professor of Geophysics at Northfield University.</p>
    <p>I received my PhD from the University of Washington in 2019.</p><h2>Papers</h2>
    <ul><li>M. Lindqvist. Basal drag under fast glaciers. <i>Journal of Glaciology</i>, 2024.</li></ul>"""
    after = before.replace("in 2019.</p>", "in 2019. After that I was an NSF postdoctoral fellow at Stanford "
                           "University, and before joining Northfield I spent a year as a research scientist at the "
                           "Polar Institute. She was a visiting scholar at Lund University.</p>")
    roles = _of(Role, _read(after))
    assert [(r.title, r.organization) for r in roles] == [
        ("Assistant Professor of Geophysics", "Northfield University")
    ]
    assert roles == _of(Role, _read(before))


def test_positions_joined_in_one_biography_sentence_are_each_read() -> None:
    from extractors.reading.owner import read_bio_roles

    text = (
        "Before that I was a Marie Curie Fellow at the University of Alder (2022–2025) and a postdoc at "
        "the Institute for Number Theory in Calder (2020–2022). I am a Lecturer at Rowan College and an "
        "Honorary Fellow at the Museum of Science."
    )
    assert [(r.title, r.organization, r.start, r.end) for r in read_bio_roles(text)] == [
        ("Marie Curie Fellow", "University of Alder", "2022", "2025"),
        ("Postdoc", "Institute for Number Theory in Calder", "2020", "2022"),
        ("Lecturer", "Rowan College", None, None),
        ("Honorary Fellow", "Museum of Science", None, None),
    ]


def test_one_paragraph_per_person_gives_the_role_not_the_biography() -> None:
    html = """<h2>Graduate Students</h2>
    <p><strong>Tomasz Wojcik</strong> is a fourth-year PhD student working on subglacial hydrology.</p>
    <p><strong>Amara Nwosu</strong> (MSc student) builds radar instruments for drones.</p>
    <p><b>Li Wei</b>, PhD candidate, models calving fronts with machine learning.</p>
    <p><b>Ruth Hale</b> joined us in 2025. She likes long walks on glaciers.</p>"""
    members = _of(Member, _read(html))
    assert [(m.name, m.role) for m in members] == [
        ("Tomasz Wojcik", "fourth-year PhD student"),
        ("Amara Nwosu", "MSc student"),
        ("Li Wei", "PhD candidate"),
        ("Ruth Hale", "Graduate Student"),
    ]


def test_a_section_per_person_gives_the_role_its_biography_states() -> None:
    biography = " ".join(["She samples kelp forests along the coast and models how they recover after storms."] * 12)
    html = f"""<h1>Group Members</h1><h2>Postdocs</h2>
    <h3>Leon Brandt</h3><p>Leon is a Postdoctoral Fellow at the Harbour Institute.</p>
    <h3>Ines Moreau</h3><img src="ines.jpg" alt="ines">
    <p>Ines is a Postdoctoral Research Scientist at the Harbour Institute. {biography}</p>
    <h2>PhD Students</h2>
    <h3>Omar Haddad</h3><p>Omar is a PhD student in the Department of Ocean Sciences.</p>
    <h3>Yuki Sato</h3><p>She builds autonomous samplers. Yuki likes sailing.</p>"""
    members = _of(Member, _read(html))
    assert [(m.name, m.role) for m in members] == [
        ("Leon Brandt", "Postdoctoral Fellow at the Harbour Institute"),
        ("Ines Moreau", "Postdoctoral Research Scientist at the Harbour Institute"),
        ("Omar Haddad", "PhD student in the Department of Ocean Sciences"),
        ("Yuki Sato", "PhD Student"),
    ]


def test_a_book_title_with_years_is_the_title_not_the_link_to_its_publisher() -> None:
    html = """<h2>Books</h2><ul><li><i>Harbours of Credit: Marine Insurance and Empire, 1720&ndash;1815</i>
    (Ashdown University Press, 2025). <a href="https://press.example.org/h">Publisher page</a>.</li>
    <li><i>The Salt Ledger: Merchants and Credit</i> (Wrenfield University Press, 2019).</li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Harbours of Credit: Marine Insurance and Empire, 1720–1815", "Ashdown University Press"),
        ("The Salt Ledger: Merchants and Credit", "Wrenfield University Press"),
    ]


def test_a_linked_title_ending_in_the_years_it_studies_is_the_title_not_the_journal_below_it() -> None:
    html = """<h2>Publications</h2><ul>
    <li><a href="p/wages.pdf">Regional Wages in Portugal 1950-2010</a> (w/ Rita Lopes)<br>
    <em>AEJ: Applied (August 2024)</em> <a href="https://github.com/x">[Code]</a></li>
    <li><a href="p/ports.pdf">Port Congestion and Prices</a> (with Rita Lopes)<br>
    <em>Forthcoming at RAND</em></li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Regional Wages in Portugal 1950-2010", "AEJ: Applied (August 2024)"),
        ("Port Congestion and Prices", "Forthcoming at RAND"),
    ]


def test_an_alphabetic_bibliography_s_labels_lone_authors_and_bold_honours_leave_titles_alone() -> None:
    html = """<h1>Publications</h1><section><h2>2024</h2><dl class="citation">
    <dt class="label"><span class="brackets">SFK+24</span></dt><dd><p>Ingrid Solheim, Mateo Ferreira, Hanna Kowal,
    and Ruth Abbot. Sustaining research software in a university. <em>Computing in Science &amp; Engineering</em>,
    26(1):34&ndash;43, 2024.</p></dd>
    <dt class="label"><span class="brackets">HMS24</span></dt><dd><p>Leila Haddad, Arjun Mehta, and Ingrid Solheim.
    Mixed-precision Krylov solvers on GPUs. In <em>Proceedings of PASC '24</em>, 1&ndash;11. 2024.
    <strong>Best Student Paper Award</strong>.</p></dd>
    <dt class="label"><span class="brackets">Sol20</span></dt><dd><p>I. Solheim. Research software engineering as a
    career path. <em>Journal of Open Research Software</em>, 8(1):12, 2020.</p></dd></dl></section>"""
    records = _read(html)
    assert [(p.title, p.venue) for p in _of(Paper, records)] == [
        ("Sustaining research software in a university", "Computing in Science & Engineering"),
        ("Mixed-precision Krylov solvers on GPUs", "PASC '24"),
        ("Research software engineering as a career path", "Journal of Open Research Software"),
    ]
    assert [a.title for a in _of(Award, records)] == ["Best Student Paper Award"]


def test_titles_in_an_abbreviated_title_class_with_co_authors_and_one_word_chapters() -> None:
    html = """<h2>Articles</h2><ul>
    <li><span class="ttl">Deference, Autonomy, and the Expert Problem</span>. <i>No&ucirc;s</i>, vol. 57 (2023).</li>
    <li><span class="ttl">The Default Entitlement Revisited</span> (co-authored with Marcus Ellery).
    <i>Pacific Philosophical Quarterly</i>, vol. 97 (2016).</li></ul>
    <h2>Chapters</h2><ul>
    <li><span class="ttl">Testimony</span>. In Marta Quintero, ed., <i>The Oxford Handbook of Social Epistemology</i>.
    Oxford University Press (2024).</li>
    <li>Credulity. In Simon Feld (ed.), <i>The Routledge Handbook of Epistemic Vices</i>. Routledge (2019).</li></ul>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Deference, Autonomy, and the Expert Problem", "The Default Entitlement Revisited", "Testimony", "Credulity"
    ]


def test_person_cards_under_a_long_group_heading_and_under_research_support_are_people() -> None:
    card = """<article class="person-card"><img src="/p/{n}.webp" class="avatar"><div class="meta">
    <h3><a href="/people/{n}/">{name}</a></h3><span class="role">{role}</span></div></article>"""

    def group(heading: str, people: list[tuple[str, str]]) -> str:
        cards = "".join(card.format(n=n, name=name, role=role) for n, (name, role) in enumerate(people))
        return f'<section class="group"><h2>{heading}</h2><div class="grid">{cards}</div></section>'

    html = "<main><h1>People</h1>" + "".join([
        group("PhD students", [("Amelia Thornbury", "PhD Student (Year 1)"), ("Jonas Eklund", "PhD Student (Year 2)")]),
        group("Master’s students &amp; research assistants", [("Chloé Martin", "MSc Student"),
                                                              ("Daniel Baptiste", "MSc Student")]),
        group("Research support", [("Bjørn Aas", "Research Software Engineer"), ("Grace Mwangi", "Administrator")]),
    ]) + "</main>"
    records = _read(html)
    assert [(m.name, m.role) for m in _of(Member, records)] == [
        ("Amelia Thornbury", "PhD Student (Year 1)"), ("Jonas Eklund", "PhD Student (Year 2)"),
        ("Chloé Martin", "MSc Student"), ("Daniel Baptiste", "MSc Student"),
        ("Bjørn Aas", "Research Software Engineer"), ("Grace Mwangi", "Administrator"),
    ]
    assert _of(Award, records) == []


def test_a_lone_bold_author_before_the_year_and_a_pubmed_link_leave_the_title_alone() -> None:
    html = """<h2>Publications</h2><ol><li><strong>Delacroix A</strong> (2021) Predicting adaptation from standing
    variation: a review. <em>Trends in Adaptation Research</em>, 36(8), 702&ndash;714.
    [<a href="https://pubmed.ncbi.nlm.nih.gov/33970115/">PMID: 33970115</a>]</li>
    <li>Roe B, <strong>Delacroix A</strong> (2020) Clines in beak depth across an island chain.
    <em>Evolution Letters</em>, 4(2), 11&ndash;19. [<a href="https://pubmed.example/3397016/">PMID: 3397016</a>]
    </li></ol>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Predicting adaptation from standing variation: a review", "Trends in Adaptation Research"),
        ("Clines in beak depth across an island chain", "Evolution Letters"),
    ]


def test_a_venue_tag_before_the_title_and_a_long_venue_in_italics_leave_the_title_alone() -> None:
    html = """<h2>Selected Publications</h2><ul><li><b>[CCS '24]</b> Speculative Type Confusion in JIT Compilers.<br>
    <strong>Teo Aksoy</strong>, Rina Imamura.<br><i>ACM Conference on Computer and Communications Security (CCS
    2024)</i>, acceptance rate 16.9%.</li><li><b>[USENIX Sec '24]</b> Fuzzing Trusted Firmware with Snapshots.<br>
    <strong>Teo Aksoy</strong>, Lukas Brenner.<br><i>33rd USENIX Security Symposium (USENIX Security 2024)</i>.</li>
    </ul>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Speculative Type Confusion in JIT Compilers", "Fuzzing Trusted Firmware with Snapshots"
    ]


def test_a_word_in_italics_inside_the_title_is_not_the_venue() -> None:
    html = """<h2>Publications</h2><ul>
    <li><a href="x">Fluctuating selection in soil <em>Pseudomonas</em> populations</a><br>Herrera T, Doe J<br>
    <em>The ISME Journal</em> 18(1) (2024)</li>
    <li><a href="y">Root exudates and <em>Bacillus</em> swarming</a><br>Doe J<br>
    <em>Soil Biology</em> 2 (2023)</li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Fluctuating selection in soil Pseudomonas populations", "The ISME Journal"),
        ("Root exudates and Bacillus swarming", "Soil Biology"),
    ]


def test_a_status_written_where_authors_stand_is_not_an_author_list() -> None:
    html = """<h2>Work in Progress</h2><ul>
    <li><strong>The Political Marketplace of Enforcement</strong><br>Revise and Resubmit. With Ana Lima.</li>
    <li><strong>Cooperation between Parties</strong><br>Under Review.</li></ul>"""
    assert [(p.title, p.authors, p.venue) for p in _of(Paper, _read(html))] == [
        ("The Political Marketplace of Enforcement", ("Ana Lima",), "Revise and Resubmit"),  # "With Ana Lima"
        ("Cooperation between Parties", (), "Under Review"),
    ]


def test_teaching_talks_and_references_are_not_read_as_items() -> None:
    html = """<h1>Jane Roe</h1><p>I am an Assistant Professor of Economics at Westbrook University.</p>
    <h2>Publications</h2><ul><li>Jane Roe. <b>Trade Credit Chains and Firm Exit</b>. Journal of Finance, 2023.</li></ul>
    <h2>Teaching</h2>
    <p><b>University of Westbrook</b><br>ECON 312 Money and Banking (Undergraduate), Fall 2025</p>
    <p><b>Halvorsen University</b> (as Teaching Fellow)<br>Intermediate Macroeconomics, 2021&ndash;2023</p>
    <h2>Invited Talks</h2><ul><li>2025: Westbrook Finance Seminar</li><li>2024: Halvorsen Macro Lunch</li></ul>
    <h2>References</h2><p><b>Ana Lima</b>, Professor of Economics, Halvorsen University</p>"""
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == ["Trade Credit Chains and Firm Exit"]
    assert [(r.title, r.organization) for r in _of(Role, records)] == [
        ("Assistant Professor of Economics", "Westbrook University")
    ]
    assert not _of(Member, records) and not _of(NewsItem, records)


def test_press_about_a_paper_a_request_for_drafts_and_a_generator_footer_are_not_papers() -> None:
    html = """<h1>Work in Progress</h1><ul>
    <li><strong>Household Leverage and Regional Business Cycles</strong><br>With Omar Haddad.</li>
    <li><strong>Private Sector Politicians</strong><br>Early stages book manuscript.<br>
      Media coverage: <a href="https://news.example.org/mps">The Daily Ledger</a></li></ul>
    <p>Please email me for drafts!</p>
    <div id="footer">Page generated 2026-03-05 11:17:02 EST, by <a href="https://example.org/jemdoc">jemdoc+MathJax
    (v0.7.3)</a>.</div>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Household Leverage and Regional Business Cycles",
        "Private Sector Politicians",
    ]


def test_an_italic_journal_with_its_status_is_the_venue_and_a_row_of_links_is_not() -> None:
    html = """<h2>Publications</h2><ul>
    <li><strong>Do Voters Punish Absentee Legislators?</strong><br>
      <span><i><b>Journal of Legislative Politics and Public Opinion</b></i>. Forthcoming. With Ana Ruiz.</span><br>
      <span><a href="p1.pdf">Paper</a> <a href="https://doi.org/10.1/x">Journal</a> <a href="a.pdf">Appendix</a>
      <a href="https://osf.io/x">Replication Package</a></span></li>
    <li><strong>Outside Earnings of Members of Parliament</strong><br>
      <span><i>Comparative Political Studies</i>. 2023. With Ana Ruiz.</span><br>
      <span><a href="p2.pdf">Paper</a> <a href="https://osf.io/y">Replication Package</a></span></li>
    </ul>"""
    papers = _of(Paper, _read(html))
    assert [(p.title, p.venue) for p in papers] == [
        ("Do Voters Punish Absentee Legislators?", "Journal of Legislative Politics and Public Opinion, Forthcoming"),
        ("Outside Earnings of Members of Parliament", "Comparative Political Studies"),
    ]


def test_a_journal_line_with_a_bold_volume_is_the_venue_of_the_title_above_it() -> None:
    entry = """<li><b>{title}</b> (with K. Osei),<br>
    <i>{journal}</i> <b>{volume}</b> (2021), 305&ndash;341. [<a href="https://arxiv.org/abs/2005.0{volume}">arXiv</a>]</li>"""
    rows = [("Metastability of the zero-range process on a torus", "Stochastic Process. Appl.", "142"),
            ("Spectral gap of the interchange process on trees", "J. Stat. Phys.", "181"),
            ("Cutoff for the exclusion process on the circle", "Probab. Theory Related Fields", "189")]
    html = "<h2>Publications</h2><ul>" + "".join(entry.format(title=t, journal=j, volume=v) for t, j, v in rows)
    papers = _of(Paper, _read(html + "</ul>"))
    assert [p.title for p in papers] == [t for t, _j, _v in rows]
    assert all(p.venue and p.year == 2021 for p in papers)


def test_a_publication_list_restyled_from_apa_to_cards_reads_the_same() -> None:
    apa = """<h2>Publications</h2>
    <div class="pub"><p>Okafor, T., Lind, M.-A., &amp; <strong>Brun, A.</strong> (2023). Long-read surveys of sulfur
      guilds in tidal flats. <em>mSystems</em>, 8(2), e00871-22.</p><a href="https://doi.org/10.1/a">DOI</a></div>
    <div class="pub"><p><strong>Brun, A.</strong>, &amp; Lind, M.-A. (2019). Diel cycles of production in the Gulf
      of St. Lawrence. <em>Estuaries and Coasts</em>, 42, 1990–2003.</p><a href="https://doi.org/10.1/b">DOI</a></div>
    <div class="pub"><p>Sato, K., &amp; <strong>Brun, A.</strong> (2025). Ten years of coastal time series.
      <em>ISME Communications</em>, 5, ycaf031.</p><a href="https://doi.org/10.1/c">DOI</a></div>"""
    card = """<div class="fw-semibold">{title}<span class="badge ms-1">Preprint</span></div>
      <div class="small">{authors}</div><div class="small"><em>{journal}</em> {tail} &middot; {year}</div>"""
    cards = [
        ("Long-read surveys of sulfur guilds in tidal flats", "Okafor T, Lind M-A, Brun A", "mSystems",
         "8(2), e00871-22", 2023),
        ("Diel cycles of production in the Gulf of St. Lawrence", "Brun A, Lind M-A", "Estuaries and Coasts",
         "42, 1990–2003", 2019),
        ("Ten years of coastal time series", "Sato K, Brun A", "ISME Communications", "5, ycaf031", 2025),
    ]
    restyled = "<h2>Publications</h2><ul>" + "".join(
        "<li>" + card.format(title=t, authors=a, journal=j, tail=v, year=y) + "</li>" for t, a, j, v, y in cards
    ) + "</ul>"
    expected = [(t, j, y) for t, _a, j, _v, y in cards]
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(apa))] == expected
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(restyled))] == expected


def test_a_historian_s_lists_read_by_their_own_headings_and_citation_style() -> None:
    markdown = """Edited volumes
------
* (ed., with Jakub Nowak) *Borderlands of Belief: Coexistence in the Baltic, 1550–1700* (Leiden: Brill, 2020).

Book chapters
------
* "Credit", in Anne Roux (ed.), *A Cultural History of Money in the Early Modern Age* (London: Bloomsbury, 2022), 61–82.
* "Mennonite Networks in the Vistula Delta", in Ada Brun (ed.), *Borderlands of Belief* (Leiden: Brill, 2020), 101–20.

Public history and other writing
------
* "Why grain prices still matter", *History Today* 71, no. 3 (2021).
* "Fire insurance in Torun after 1629", *Urban History* (forthcoming).
"""
    papers = _of(Paper, normalise_records(read_markdown(markdown).records))
    assert [(p.title, p.venue) for p in papers] == [
        ("Borderlands of Belief: Coexistence in the Baltic, 1550–1700", papers[0].venue),
        ("Credit", "A Cultural History of Money in the Early Modern Age"),
        ("Mennonite Networks in the Vistula Delta", "Borderlands of Belief"),
        ("Why grain prices still matter", "History Today"),
        ("Fire insurance in Torun after 1629", "Urban History, forthcoming"),  # forthcoming -> published is news
    ]  # no heading ("Edited volumes") read as a title


def test_dated_citation_cards_in_a_page_section_are_papers() -> None:
    card = """<div class="citation-container"><div class="citation"><a href="https://doi.org/10.4156/{doi}"
      class="citation-image"><img src="a.png" alt="{title}"></a><div class="citation-text">
      <a href="https://doi.org/10.4156/{doi}" class="citation-title">{title}</a>
      <div class="citation-authors">Ji-ho Kang, Soo-ah Kwon, Seo-yeon Baek</div>
      <div class="citation-details"><span class="citation-publisher">Conf. on Soft Robotics (ICSRA {year})</span> ·
      <span class="citation-date">13 May {year}</span> · <span class="citation-id">doi:10.4156/{doi}</span>
      </div></div></div></div>"""
    rows = [("Soft gripper with liquid-metal sensors", "icsra.1", 2024),
            ("Origami modules for soft robots", "icsra.2", 2024), ("Hydrogel valves that heal", "icsra.3", 2023)]
    cards = "".join(card.format(title=t, doi=d, year=y) for t, d, y in rows)
    html = f"""<main><section class="background"><h1>Research</h1><p>Our publications, newest first.</p></section>
    <section class="background"><h2>All</h2><h3>2024</h3>{cards}</section></main>"""
    records = _read(html)
    assert [(p.title, p.venue, p.year) for p in _of(Paper, records)] == [
        (t, f"Conf. on Soft Robotics (ICSRA {y})", y) for t, _d, y in rows
    ]
    assert _of(NewsItem, records) == [] and _of(Member, records) == []


def test_an_abstract_folded_in_details_is_part_of_its_paper() -> None:
    entry = """<p><strong><a href="p.pdf">{title}</a></strong> (with Line Dahl)<br><em>{journal}</em>, 2023</p>
    <details><summary>Abstract</summary><p>{abstract}</p></details>"""
    rows = [("Remote Work Options and Gender Wage Gaps", "Labour Review",
             "Vacancies that offer remote work pay less on average, and the discount is larger for women."),
            ("Training Subsidies and Firm Productivity", "Journal of Applied Economics",
             "A size threshold in eligibility for subsidies shows modest productivity gains in manufacturing."),
            ("Severance Pay as Insurance", "Economic Letters",
             "Severance pay smooths consumption after displacement, more so for workers without savings.")]
    html = '<section><h2>Publications</h2>' + "".join(
        entry.format(title=t, journal=j, abstract=a) for t, j, a in rows
    ) + "</section>"
    assert [p.title for p in _of(Paper, _read(html))] == [t for t, _j, _a in rows]


def test_a_section_letter_closes_an_abbreviated_journal() -> None:
    html = """<h2>Publications</h2><ul>
    <li>Vogt, C., &amp; <strong>Brun, A.</strong> (2022). Single photons from a strained emitter. <em>Phys. Rev. B</em>
      105, 235302.</li>
    <li>Sato, K., &amp; Ito, M. (2021). Layered cathodes under strain. J. Mater. Chem. A 9, 1123.</li></ul>"""
    assert [p.venue for p in _of(Paper, _read(html))] == ["Phys. Rev. B", "J. Mater. Chem. A"]


def test_a_journal_abbreviated_in_its_last_word_only_is_named_before_its_volume() -> None:
    cited = ["ACS Catal. 14, 8812 (2024)", "New J. Chem. 42, 15322 (2018)"]
    html = "<h2>Publications</h2><ul>" + "".join(
        f"<li>T. Amari, J. Koh and H. Lund, &quot;Tunnelling in enzyme number {n} studied by isotope effects&quot;, "
        f"{where}.</li>" for n, where in enumerate(cited)) + "</ul>"
    assert [p.venue for p in _of(Paper, _read(html))] == ["ACS Catal.", "New J. Chem."]


def test_a_status_after_the_journal_and_an_abbreviated_journal_are_the_venue() -> None:
    html = """<h2>Papers</h2><ol>
    <li>M. Lind and T. Okafor. <b>Sums of squares for trace polynomials.</b>
      To appear in Foundations of Algebra.</li>
    <li>M. Lind, R. Haddad. <b>Moment problems with quantifiers.</b> Mathematics of Decision Research, to appear.</li>
    <li>M. Lind, J. Sato. <b>Matrix convex hulls of free sets.</b>
      Transactions on Matrix Analysis. Accepted in principle.</li>
    <li>M. Lind, J. Sato. <b>Determinantal representations in two variables.</b>
      Found. Appl. Algebra 26 (2026) 1381--1423.</li>
    <li>P. Strand, M. Lind. <b>Free spectrahedra and their shadows.</b> Phys. Rev. Lett. (accepted).</li>
    <li>M. Lind, <noscript>A. Brun</noscript>. <b>Positive maps of bounded rank.</b>
      <noscript>J. Oper. Geom. 12, 101</noscript> (2024)</li>
    </ol><noscript><p>Please enable JavaScript to view this page.</p></noscript>"""
    papers = _of(Paper, _read(html))
    assert [p.venue for p in papers] == [
        "To appear in Foundations of Algebra",
        "Mathematics of Decision Research, to appear",
        "Transactions on Matrix Analysis, Accepted in principle",
        "Found. Appl. Algebra",
        "Phys. Rev. Lett., accepted",
        "J. Oper. Geom.",
    ]
    # Text a script would write inside a citation is read from its <noscript>; a page-wide
    # <noscript> notice is not content.
    assert papers[-1].authors == ("M. Lind", "A. Brun")
    assert not any("JavaScript" in (p.title or "") for p in papers)


def test_an_author_in_italics_is_not_the_venue() -> None:
    html = """<h2>Publications</h2>
    <p><b>Screens that sensitise leukemia to T cell therapy</b><br>
    <em>Silva F<em>, Chen B</em>, Lee JB, He H</em><br><a href="">Blood. Accepted in Principle. IF=17.8</a></p>
    <p><b>Single cell maps of tumour progression in mice</b><br>
    <em>Chen S, Zhu G, Yang Y</em><br><a href="https://example.org/a">Nature Cell Biology. 2021. IF=20.1</a></p>"""
    venues = [p.venue for p in _of(Paper, _read(html))]
    assert venues == ["Blood, Accepted in Principle", "Nature Cell Biology"]


def test_a_paper_whose_status_gives_way_to_its_volume_is_one_modified_paper() -> None:
    entry = "<li>M. Lind, J. Sato. <b>Matrix convex hulls of free sets.</b> {where}</li>"
    other = "<li>M. Lind. <b>Stable inequalities, part {n}.</b> J. Convex Anal. {n} (2020) 1--9.</li>"
    others = "".join(other.format(n=n) for n in range(4))

    def page(where: str) -> list[Record]:
        return _read(f"<h2>Papers</h2><ol>{entry.format(where=where)}{others}</ol>")

    stored = page("Matrix Anal. Appl., to appear.")
    before = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in stored]
    changes = diff_items(before, page("Matrix Anal. Appl. 41 (2026) 3--30.")).changes
    assert [(c.change, c.after["venue"]) for c in changes] == [("modified", "Matrix Anal. Appl.")]


def test_a_working_paper_list_labels_status_and_co_authors_on_their_own_lines() -> None:
    html = """<h3>Working Papers</h3>
    <p><a href="jmp.pdf"><b>Moving for Work: Migration Frictions and Wage Growth</b></a> (Job Market Paper)<br>
    <i>Abstract:</i> I study how moving costs shape wage growth of young workers using linked data.</p>
    <p><a href="wp2.pdf"><b>Remote Jobs and the Geography of Hiring</b></a>, with Lee Chan<br>
    Revise and resubmit at <i>Journal of Labor Economics</i></p>"""
    papers = _of(Paper, _read(html))
    assert [(p.title, p.authors, p.venue) for p in papers] == [
        ("Moving for Work: Migration Frictions and Wage Growth", (), None),
        ("Remote Jobs and the Geography of Hiring", ("Lee Chan",), "Revise and resubmit at Journal of Labor Economics"),
    ]


def test_a_chapter_s_book_is_its_venue_and_a_title_in_common_words_is_not_a_list_of_names() -> None:
    html = """<h3>Articles and Chapters</h3><ul>
    <li><a href="a.pdf"><strong>Campaign Finance</strong></a> <a href="https://x.org/7">Publisher Version</a>
      <br>In: <i>The Political Economy of Lobbying: Channels of Influence</i>, edited by Karl Mause. 2024.</li>
    <li><a href="b.pdf"><b>Broadband Expansion and Rural Job Search</b></a>, with Ana Ruiz<br>
      <i>Journal of Regional Studies</i>. 2023.</li>
    </ul>"""
    papers = _of(Paper, _read(html))
    assert [(p.title, p.authors, p.venue) for p in papers] == [
        ("Campaign Finance", (), "The Political Economy of Lobbying: Channels of Influence"),
        ("Broadband Expansion and Rural Job Search", ("Ana Ruiz",), "Journal of Regional Studies"),
    ]


@pytest.mark.parametrize(
    ("text", "iso"),
    [("9 décembre 2024", "2024-12-09"), ("1er octobre 2025", "2025-10-01"), ("15. Oktober 2024", "2024-10-15"),
     ("März 2024", "2024-03"), ("12 mars 2025", "2025-03-12"), ("diciembre 2024", "2024-12")],
)
def test_dates_written_in_french_german_or_spanish(text: str, iso: str) -> None:
    assert parse_date_text(text) == iso


def test_a_news_row_set_as_a_date_column_beside_a_text_column_is_one_dated_item() -> None:
    row = '<div class="row"><div class="col-2"><p>{date}</p></div><div class="col-10"><p>{text}</p></div></div>'
    html = "<h2>News</h2>" + "".join(
        row.format(date=date, text=text)
        for date, text in [
            ("March 2026", "Ana's paper on river deltas is accepted at Nature Geoscience."),
            ("February 2026", "We welcome Tomas Berg, who joins as a postdoc."),
            ("January 2026", "The lab receives a seed grant.<br><br>Lena gives a talk at AGU."),
        ]
    )
    news = _of(NewsItem, _read(html))
    assert [(n.date, n.text[:20]) for n in news] == [
        ("2026-03", "Ana's paper on river"),
        ("2026-02", "We welcome Tomas Ber"),
        ("2026-01", "The lab receives a s"),
    ]


def test_an_awards_table_s_column_names_are_no_awards_and_its_recipient_is_not_in_the_title() -> None:
    html = """<h2>Awards</h2><table>
    <tr><th>Year</th><th>Award</th><th>Recipient</th></tr>
    <tr><td>2025</td><td>Graduate Research Fellowship, National Science Board</td><td>Priya Nair</td></tr>
    <tr><td>2024</td><td>Young Investigator Award</td><td>Marta Rivera</td></tr>
    <tr><td>2023</td><td>Best Poster Award, Conference on Metals in Biology</td><td>Kenji Ota</td></tr>
    </table>"""
    awards = _of(Award, _read(html))
    assert [(a.title, a.organization, a.year) for a in awards] == [
        ("Graduate Research Fellowship", "National Science Board", 2025),
        ("Young Investigator Award", None, 2024),
        ("Best Poster Award", "Conference on Metals in Biology", 2023),
    ]


def test_the_header_s_post_beside_its_dated_appointment_is_one_role_and_a_promotion_is_told_once() -> None:
    def page(header: str, rows: str) -> list[Record]:
        return _read(
            f"<h1>Dana Whitfield</h1><p>{header}<br>Department of Statistics<br>University of Eastmoor</p>"
            f"<h2>Appointments</h2><table>{rows}</table>"
        )

    row = "<tr><td>{years}</td><td>{title}, Department of Statistics, University of Eastmoor</td></tr>"
    postdoc = "<tr><td>2021&ndash;2023</td><td>Postdoctoral Fellow, Data Science Institute, Larch University</td></tr>"
    before = page("Assistant Professor", row.format(years="2023&ndash;present", title="Assistant Professor") + postdoc)
    roles = [(r.title, r.start) for r in _of(Role, before)]
    assert roles == [("Assistant Professor", "2023"), ("Postdoctoral Fellow", "2021")]
    after = page(
        "Associate Professor",
        row.format(years="2026&ndash;present", title="Associate Professor")
        + row.format(years="2023&ndash;2026", title="Assistant Professor")
        + postdoc,
    )
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in before]
    changes = diff_items(stored, after).changes
    assert [(c.change, (c.after or {}).get("title")) for c in changes] == [
        ("added", "Associate Professor"),
        ("modified", "Assistant Professor"),
    ]


def test_a_card_naming_where_and_when_above_the_post_reads_the_post_as_the_title() -> None:
    card = (
        '<div class="item"><div class="where"><h3>{place}</h3><span>{years}</span></div>'
        '<div class="position">{post}</div><p>Worked on coastal models.</p></div>'
    )
    jobs = [("Quillmark Labs", "2022 &ndash; Present", "Research Scientist"),
            ("University of Eastmoor", "2019 &ndash; 2022", "Postdoctoral Researcher")]
    roles = _of(Role, _read(
        "<h1>Noor Haddad</h1><h2>Work</h2>"
        + "".join(card.format(place=p, years=y, post=t) for p, y, t in jobs)
    ))  # fmt: skip
    assert [(r.title, r.organization, r.start) for r in roles] == [
        ("Research Scientist", "Quillmark Labs", "2022"),
        ("Postdoctoral Researcher", "University of Eastmoor", "2019"),
    ]


def test_a_word_processor_s_bold_paragraphs_head_the_paragraphs_of_a_cv_s_parts() -> None:
    # A document saved as a web page: every line a paragraph, the parts' names bold (small capitals
    # by style, not in capitals), some bilingual.
    def para(text: str, bold: bool = False) -> str:
        inner = f"<b><span>{text}</span></b>" if bold else f"<span>{text}</span>"
        return f"<p class=MsoNormal>{inner}</p>"

    articles = [
        f"Marchand, Élise. “Notaries and Widows in Port Towns, Part {n}.” <i>Atlantic History</i> {n} (2021): 1–20."
        for n in range(1, 4)
    ]
    html = "".join([
        para("Élise Marchand"), para("Publications", bold=True), para("Ouvrage dirigé / Edited Volume", bold=True),
        para("Marchand, Élise, ed. <i>Ledgers of the Garrison Town</i>. Rivière Press, 2020."),
        para("Articles avec comité de lecture / Refereed Journal Articles", bold=True), *map(para, articles),
        para("Prix et distinctions / Honours and Awards", bold=True),
        "<table><tr><td>2024</td><td>Prix Cormier-Lavoie, Société d’histoire du Nord</td></tr>"
        "<tr><td>2019</td><td>Doctoral Fellowship, History Research Council</td></tr></table>",
    ])
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == [
        "Ledgers of the Garrison Town", *(f"Notaries and Widows in Port Towns, Part {n}" for n in range(1, 4))
    ]
    assert [(a.title, a.year) for a in _of(Award, records)] == [
        ("Prix Cormier-Lavoie", 2024), ("Doctoral Fellowship", 2019)
    ]


def test_a_duty_told_under_a_post_is_no_post_of_its_own() -> None:
    roles = _of(Role, _read(
        "<h1>Ines Marlowe</h1><h2>Employment</h2><ul>"
        "<li>Lecturer in Quantitative Ecology, University of Thornbury, 2024&ndash;present</li>"
        "<li>Lead the Seabird Movement Lab (2 PhD students, 1 technician), 2024&ndash;present</li>"
        "<li>Supervised 3 MSc students, 2024&ndash;2025</li>"
        "<li>Head of the Tracking Unit, Marine Institute, 2021&ndash;2024</li>"
        "<li>Lead Engineer, Tidewater Instruments, 2018&ndash;2021</li></ul>"
    ))  # fmt: skip
    titles = [r.title for r in roles]
    assert titles == ["Lecturer in Quantitative Ecology", "Head of the Tracking Unit", "Lead Engineer"]


def test_how_long_a_post_lasted_beside_its_dates_is_neither_its_title_nor_its_place() -> None:
    roles = _of(Role, _read(
        "<h1>Noor Haddad</h1><h2>Work experience</h2><ul>"
        "<li><b>Research Scientist</b>, Quillmark Labs<br>Mar 2022 &ndash; Present &middot; 4 years 8 months</li>"
        "<li><b>Postdoctoral Researcher</b>, University of Eastmoor<br>Sep 2019 - Feb 2022 &middot; 2 yrs 6 mos</li>"
        "<li>Jan 2017 &ndash; Aug 2019 (2 years, 7 months, 19 days)</li>"
        "<li><b>Data Analyst</b>, Harbor Health, 2015 &ndash; 2016 (1 year)</li></ul>"
    ))  # fmt: skip
    assert [(r.title, r.organization, r.start) for r in roles] == [
        ("Research Scientist", "Quillmark Labs", "2022-03"),
        ("Postdoctoral Researcher", "University of Eastmoor", "2019-09"),
        ("Data Analyst", "Harbor Health", "2015"),
    ]


def test_a_vancouver_citation_in_press_after_its_year_is_published_when_its_volume_appears() -> None:
    entry = "<li>Ota K*, Brun A*, <b>Lind M</b><sup>&dagger;</sup>. Risk and censoring. <i>Biostatistics</i>. {tail}"
    other = "<li>Lind M, Sato K. Survival trees, part {n}. <i>Stat Med</i>. 2021;40({n}):1-9.</li>"

    def page(tail: str) -> list[Record]:
        others = "".join(other.format(n=n) for n in range(4))
        return _read(f"<h2>Publications</h2><ol>{entry.format(tail=tail)}{others}</ol>")

    stored = page("2024;in press.")
    paper = _of(Paper, stored)[0]
    assert (paper.authors, paper.venue) == (("Ota K", "Brun A", "Lind M"), "Biostatistics, in press")
    before = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in stored]
    changes = diff_items(before, page("2024;25(3):812-829.")).changes
    assert [(c.change, c.after["venue"]) for c in changes] == [("modified", "Biostatistics")]


def test_a_page_s_modified_date_in_its_title_block_is_not_a_paper() -> None:
    html = """<main><header class="quarto-title-block"><h1 class="title">Publications</h1>
    <div class="quarto-title-meta"><div class="quarto-title-meta-heading">Modified</div>
    <div class="quarto-title-meta-contents"><p class="date-modified">January 20, 2025</p></div></div></header>
    <h2>2025</h2><ol><li>Gallagher, A. &amp; <strong>Lind, I.</strong> Lysogeny in a fjord. <em>Environ. Microbiol.</em>
    <strong>17</strong>, e70012 (2025).</li><li>Eide, J. &amp; <strong>Lind, I.</strong> Viral shunts in winter.
    <em>ISME J.</em> <strong>19</strong>, 88 (2025).</li></ol></main>"""
    assert [p.title for p in _of(Paper, _read(html))] == ["Lysogeny in a fjord", "Viral shunts in winter"]


def test_headings_with_a_permalink_block_head_their_lists_and_bold_titles_are_read_whole() -> None:
    heading = """<h2 class="relative group">{text} <div id="{id}" class="anchor"></div><span class="absolute">
    <a href="#{id}" aria-label="Anchor">#</a></span></h2>"""
    entry = "<li><strong>{title}</strong> ({year}). With Ana Roe. <em>{journal}</em> {tail}. <a href='p'>PDF</a></li>"
    rows = [
        ("Mayors, Machines, and the Decline of Party Brands", 2022, "Latin American Politics", "64(2): 45–71"),
        ("Protest and Punishment: The 2019 Uprising and Vote Shares", 2022, "Electoral Studies", "78: 102491"),
        ("Term Limits and Candidate Entry", 2020, "Party Politics", "26(6): 741–753"),
    ]
    html = (
        heading.format(text="Peer-reviewed articles", id="articles")
        + "<ol>" + "".join(entry.format(title=t, year=y, journal=j, tail=v) for t, y, j, v in rows) + "</ol>"
        + heading.format(text="Working papers", id="wp")
        + "<ol><li><strong>Who Punishes Corruption?</strong> With Bo Roe.</li>"
        + "<li><strong>Broadband Expansion and Rural Turnout</strong> (2025). With Ana Prieto.</li></ol>"
    )
    papers = _of(Paper, _read(html))
    assert [(p.title, p.venue) for p in papers[:3]] == [(t, j) for t, _y, j, _v in rows]
    assert [p.title for p in papers[3:]] == ["Who Punishes Corruption?", "Broadband Expansion and Rural Turnout"]


def test_a_utility_class_that_sets_bold_marks_a_post_s_title_as_bold_type_does() -> None:
    card = """<a href="/posts/{n}/" class="min-w-full"><div class="border rounded"><div class="px-6 py-4">
    <div class="font-bold text-xl hover:underline">{title}</div>
    <div class="text-sm"><span title="Original content date">{date}</span><span>&middot;</span><span>1 min</span></div>
    <div class="py-1 prose">{summary}</div></div></div></a>"""
    posts = [
        ("Our article on local elections is out", "11 March 2024", "The article with Bo Roe is now published."),
        ("Best Paper Award from the section", "15 January 2024", "Ana Ruiz and I received the paper award."),
        ("Visiting the Kellogg Institute this fall", "27 May 2024", "I will spend the fall semester in Indiana."),
    ]
    html = "<h2>Recent</h2><section>" + "".join(
        card.format(n=n, title=t, date=d, summary=s) for n, (t, d, s) in enumerate(posts)
    ) + "</section>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2024-03-11", "Our article on local elections is out"),
        ("2024-01-15", "Best Paper Award from the section"),
        ("2024-05-27", "Visiting the Kellogg Institute this fall"),
    ]


def test_award_cards_titled_by_their_award_give_its_year_and_not_the_recipient() -> None:
    card = """<div class="col"><div class="card"><div class="card-body"><div class="small">{year}</div>
    <h3 class="card-title">{title}</h3><p class="card-text">{who}</p></div></div></div>"""
    rows = [
        (2024, "Excellence in Teaching Award", "Prof. Jihoon Baek"),
        (2023, "Best Paper Award Finalist in Medical Robotics, IEEE ICRA 2023", "Dohyun Kim"),
        (2022, "Best Doctoral Dissertation Award", "Yuna Kang"),
    ]
    html = '<h2>Honors &amp; Awards</h2><div class="row">' + "".join(
        card.format(year=y, title=t, who=w) for y, t, w in rows
    ) + "</div>"
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Excellence in Teaching Award", 2024),
        ("Best Paper Award Finalist in Medical Robotics", 2023),
        ("Best Doctoral Dissertation Award", 2022),
    ]


def test_a_type_badge_before_a_title_and_an_honour_badge_after_it_are_not_its_words() -> None:
    entry = """<li class="pub"><div class="pub-title fw-semibold">
    <span class="badge text-bg-success">{kind}</span>{title}{honour}</div>
    <div class="pub-authors">T. Jung and <strong>J. Baek</strong></div>
    <div class="pub-venue">in <em>Proc. IEEE Conf. Soft Robot.</em>, Singapore, {year}, pp. 88&ndash;93</div></li>"""
    honour = '<span class="badge text-bg-warning ms-1">Best Paper Award Finalist</span>'
    rows = [("Conference", "Knitted strain sensors for soft exosuits", honour, 2023),
            ("Journal", "Gait phase estimation on a microcontroller", "", 2022),
            ("Conference", "Cable routing for hip exosuits", "", 2021)]
    html = "<h2>Publications</h2><ul>" + "".join(
        entry.format(kind=k, title=t, honour=h, year=y) for k, t, h, y in rows
    ) + "</ul>"
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == [t for _k, t, _h, _y in rows]
    assert [(a.title, a.year) for a in _of(Award, records)] == [("Best Paper Award Finalist", 2023)]


def test_a_job_market_page_s_titles_statuses_and_prize_are_told_apart() -> None:
    card = """<div class="paper"><p class="ptitle"><a href="papers/{slug}.pdf">{title}</a>{co}</p>{status}
    <details><summary>Abstract</summary><p>We study households and their lenders in many villages.</p></details>
    <div class="plinks"><a href="papers/{slug}.pdf">Paper</a> <a href="slides/{slug}.pdf">Slides</a></div></div>"""
    prize = '<div class="status">Winner, Best Graduate Student Paper Prize, Midwest Development Conference 2025</div>'
    html = "<h2>Job Market Paper</h2>"
    html += card.format(slug="jmp", title="Mobile Money and Risk Sharing", co="", status=prize)
    html += "<h2>Working Papers</h2>" + card.format(
        slug="land", title="Land Titling, Credit, and Female Entrepreneurship",
        co=' <span class="coauthors">(with Priya Raman)</span>',
        status='<div class="status"><em>Revise &amp; Resubmit</em> at <em>Journal of Human Resources</em></div>',
    )
    html += """<h2>CV: Papers</h2><ol><li>"Seasonal Migration, Credit, and Child Health" (with Ibrahim Sule),
    <em>Revise &amp; Resubmit, Journal of Development Economics</em></li></ol>"""
    records = _read(html)
    assert [(p.title, p.authors, p.venue) for p in _of(Paper, records)] == [
        ("Mobile Money and Risk Sharing", (), None),
        ("Land Titling, Credit, and Female Entrepreneurship", ("Priya Raman",),
         "Revise & Resubmit at Journal of Human Resources"),
        ("Seasonal Migration, Credit, and Child Health", ("Ibrahim Sule",),
         "Revise & Resubmit, Journal of Development Economics"),
    ]
    assert [(a.title, a.year) for a in _of(Award, records)] == [("Best Graduate Student Paper Prize", 2025)]


def test_one_post_written_with_or_without_its_degree_s_dots_or_as_incoming_is_one_role() -> None:
    candidate = [Role(title="Ph.D. Candidate in Economics", organization="Northfield University"),
                 Role(title="PhD candidate in Economics", organization="Northfield University")]
    assert dedupe_roles(list(candidate)) == [candidate[0]]
    incoming = [Role(title="Incoming Assistant Professor of Economics", organization="University of Toronto"),
                Role(title="Assistant Professor", organization="Department of Economics at the University of Toronto",
                     start="2026")]
    assert dedupe_roles(list(incoming)) == [incoming[1]]
    # A biography's "at the" and a dated list's comma name one place; "Astronomer and X" is post X.
    told = [Role(title="Astrophysicist and Assistant Professor",
                  organization="Department of Physics at the University of Tarn"),
            Role(title="Assistant Professor", organization="Department of Physics, University of Tarn", start="2025")]
    assert dedupe_roles(list(told)) == [told[1]]


def test_a_chapter_s_citation_that_ends_with_its_status_keeps_it_with_the_book() -> None:
    entry = "<li>&ldquo;Kinship at a Distance.&rdquo; In <em>A History of the Family</em>, edited by Ana Quin{tail}"
    other = "<li>&ldquo;{title}.&rdquo; <em>Past and Present</em> {n} (2019): 10&ndash;40.</li>"
    titles = ["Letters Home from the Cape", "Emigrant Guides and Their Readers", "A Parish Register Abroad"]
    others = "".join(other.format(title=t, n=240 + n) for n, t in enumerate(titles))

    def page(tail: str) -> list[Record]:
        return _read(f"<h2>Chapters</h2><ul>{entry.format(tail=tail)}</li>{others}</ul>")

    stored = page(". London: Bloomsbury, forthcoming.")
    assert _of(Paper, stored)[0].venue == "A History of the Family, forthcoming"
    before = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in stored]
    changes = diff_items(before, page(", 87&ndash;104. London: Bloomsbury, 2025.")).changes
    assert [(c.change, c.after["venue"]) for c in changes] == [("modified", "A History of the Family")]


def test_a_bibliography_with_alpha_style_labels_reads_each_title() -> None:
    entry = """<div class="citation" role="doc-biblioentry"><span class="label"><span>[</span>{key}<span>]</span></span>
    <p>{authors}. {title}. <em>{journal}</em>, 18:144–150, 2025. <a href="https://doi.org/10.1/{key}">doi:10.1/{key}</a>.</p></div>"""
    rows = [("HBN25", "Ingrid Haugland, Lukas Brenner, and Signe Nyvoll", "A thermal switch in surging glaciers",
             "Nature Geoscience"),
            ("PN24", "Nikolai Petrov and Signe Nyvoll", "Level-set calving fronts at Kronebreen", "The Cryosphere"),
            ("Nyv21", "Signe Nyvoll", "Firn aquifers on a Svalbard ice cap", "Polar Research")]
    html = '<h1>Publications</h1><div role="list" class="citation-list">' + "".join(
        entry.format(key=k, authors=a, title=t, journal=j) for k, a, t, j in rows
    ) + "</div>"
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [(t, j) for _k, _a, t, j in rows]


def test_posts_dated_by_a_posted_on_byline_with_their_category_are_news() -> None:
    post = """<article><header><h2><a href="/{slug}.html">{title}</a></h2>
    <p>Posted on {date} in <a href="/category/{cat}.html">{cat}</a></p></header>
    <div><p>{summary}</p></div><div class="read-more"><a href="/{slug}.html">&raquo; continue reading</a></div>
    </article><hr />"""
    posts = [("ships", "Counting ships in the Review", "Mon 15 January 2024", "publications", "We count ships."),
             ("award", "Honourable mention for the Book Award", "Mon 04 December 2023", "news", "Thank you all!"),
             ("launch", "Book launch at the Humanities Institute", "Mon 14 November 2022", "news", "Join us.")]
    html = "".join(post.format(slug=s, title=t, date=d, cat=c, summary=m) for s, t, d, c, m in posts)
    html = f"<main>{html}</main>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2024-01-15", "Counting ships in the Review"),
        ("2023-12-04", "Honourable mention for the Book Award"),
        ("2022-11-14", "Book launch at the Humanities Institute"),
    ]


def test_folded_accordion_panels_are_read_and_a_tab_s_label_heads_its_panel() -> None:
    item = """<div class="cmp-accordion__item"><h4><button aria-controls="p{n}" aria-expanded="false">
    <span class="cmp-accordion__title">{name}, PhD &#8212; Postdoctoral Fellow, {years}</span></button></h4>
    <div id="p{n}" class="cmp-accordion__panel" role="region" aria-labelledby="b{n}" hidden>
    <p>Now: {now}</p></div></div>"""
    alumni = [("Eleanor Whit", "2021–2024", "Assistant Professor, University of Leeds"),
              ("Margot Lefe", "2019–2023", "Research Investigator, Institut Imagine"),
              ("Chidi Nwachu", "2017–2021", "Scientist, Genentech")]
    html = """<h2>People</h2><ol role="tablist"><li role="tab" id="t1">Current Members</li>
    <li role="tab" id="t2">Alumni</li></ol>
    <div role="tabpanel" aria-labelledby="t1"><h3>Postdoctoral Fellows</h3><ul><li>Ana Lima, Postdoctoral Fellow</li>
    <li>Bo Roe, Postdoctoral Fellow</li></ul></div>
    <div role="tabpanel" aria-labelledby="t2" hidden><h3>Postdoctoral Fellows</h3><div class="cmp-accordion">"""
    html += "".join(item.format(n=n, name=a, years=y, now=w) for n, (a, y, w) in enumerate(alumni)) + "</div></div>"
    members = _of(Member, _read(html))
    assert [(m.name, m.role) for m in members][2:] == [
        (name, f"Alumni (now {now})") for name, _years, now in alumni
    ]


def test_a_person_headed_by_name_and_degree_is_one_person_not_a_group() -> None:
    card = """<div class="media"><div class="media-left"><img class="media-object" src="{n}.jpg" alt="{name}"></div>
    <div class="media-body"><h4 class="media-heading">{name}{degree}</h4><p class="person-title">{role}</p>
    <p>{first} works on diffusion MRI and normative models of brain development across the lifespan.</p></div></div>"""
    people = {"Postdoctoral Fellows": [("Hye-jin Seo", ", PhD", "Postdoctoral Fellow"),
                                       ("Tobias Reinholt", ", PhD", "Postdoctoral Fellow")],
              "Graduate Students": [("Caleb Whitaker", "", "PhD Candidate"), ("Nkechi Amadi", "", "PhD Student")]}
    html = "<h1>People</h1>" + "".join(
        f'<h2 class="page-header">{group}</h2>' + "".join(
            card.format(n=n, name=name, degree=degree, role=role, first=name.split()[0])
            for n, (name, degree, role) in enumerate(members)
        )
        for group, members in people.items()
    )
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Hye-jin Seo", "Postdoctoral Fellow"), ("Tobias Reinholt", "Postdoctoral Fellow"),
        ("Caleb Whitaker", "PhD Candidate"), ("Nkechi Amadi", "PhD Student"),
    ]


def test_a_dialog_a_button_opens_is_no_part_of_the_news() -> None:
    html = """<h2>Recent News</h2><ul><li>Mar 2026 &mdash; Two papers accepted at the Ocean Sciences Meeting.</li>
    <li>Jan 2026 &mdash; Welcome to our new PhD student Ama Owusu!</li></ul>
    <div id="modal" class="modal fade" role="dialog"><div class="modal-dialog"><div class="modal-content">
    <div class="modal-header"><h5 class="modal-title">Cite</h5></div><div class="modal-body"><pre></pre></div>
    <div class="modal-footer"><a class="btn js-copy-cite" href="#">Copy</a> <a class="btn" href="#">Download</a>
    </div></div></div></div>"""
    assert [n.text for n in _of(NewsItem, _read(html))] == [
        "Two papers accepted at the Ocean Sciences Meeting.", "Welcome to our new PhD student Ama Owusu!"
    ]


def test_a_tab_that_names_its_panel_by_target_heads_it() -> None:
    html = """<nav role="tablist"><button role="tab" data-target="news">News</button>
    <button role="tab" data-target="talks">Talks</button></nav>
    <section id="news" class="panel" role="tabpanel"><ul>
    <li><span class="date">Nov 2024</span> Paper on tag collisions accepted at NDSS 2025.</li>
    <li><span class="date">Oct 2024</span> Rina presented our JIT paper at CCS 2024 in Salt Lake City.</li>
    </ul></section>
    <section id="talks" class="panel is-hidden" role="tabpanel"><ul>
    <li><span class="date">Oct 2024</span> &ldquo;Type confusion in JITs&rdquo;, Invited talk, Kestrel Colloquium</li>
    <li><span class="date">Mar 2024</span> &ldquo;Signing gadgets&rdquo;, Invited talk, Ruhr Seminar</li>
    </ul></section>"""
    assert [n.date for n in _of(NewsItem, _read(html))] == ["2024-11", "2024-10"]


def test_alumni_written_one_after_another_in_a_paragraph_are_each_a_member() -> None:
    def page(alumni: str) -> list[Member]:
        return _of(Member, _read(f"""<h2>People</h2><ul><li>Ida Thorsen, PhD Fellow</li>
        <li>Kasper Vind, Lab Engineer</li></ul><h2>Alumni</h2><p class="alumni">{alumni}</p>"""))

    alumni = page("Freja Lund (PhD 2024, now Design Researcher at B&amp;O), Ahmed Farouk (Postdoc 2020&ndash;2023, "
                  "now Assistant Professor at Aalto University), Line Holm (PhD 2023, now UX Researcher at LEGO).")
    assert [(m.name, m.role) for m in alumni][2:] == [
        ("Freja Lund", "Alumni (now Design Researcher at B&O)"),
        ("Ahmed Farouk", "Alumni (now Assistant Professor at Aalto University)"),
        ("Line Holm", "Alumni (now UX Researcher at LEGO)"),
    ]
    # A sentence about people is not a list of them.
    prose = page("Our alumni (about thirty so far) work in industry (mostly design) and academia (in Europe).")
    assert [m.name for m in prose] == ["Ida Thorsen", "Kasper Vind"]


def test_typed_bullets_are_no_words_and_a_contact_line_after_the_grants_is_no_award() -> None:
    html = """<h2><b>Funding &amp; recognition</b></h2><div><span style="font-size:small">
    <div style="margin-left:20px">&#8226; 2023 &#8211; Explorer Grant, National Geographic Society</div>
    <div style="margin-left:20px">&#8226; 2021&#8211;2025 &#8211; International Intermediate Fellowship</div>
    <div style="margin-left:20px">&#8226; 2020 &#8211; Ecologists in Africa Grant</div></span></div>
    <div>Contact: Dr. Wanjiru Gachanja</div><div>Station bookings: station@example.org</div>"""
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Explorer Grant", 2023), ("International Intermediate Fellowship", 2021), ("Ecologists in Africa Grant", 2020)
    ]


def test_a_work_in_progress_list_reads_titles_without_their_draft_state() -> None:
    html = """<h2>Work in progress</h2><ul>
    <li>Wondering Together: Joint Attention <span class="status">&mdash; draft; comments welcome</span></li>
    <li>Boredom as an Epistemic Emotion <span class="status">&mdash; in progress</span></li>
    <li>Attending to Absences <span class="status">&mdash; draft available on request</span></li>
    <li>Inquiry and Credence (with Daniel Achterberg) <span class="status">&mdash; in progress</span></li></ul>"""
    assert [(p.title, p.authors, p.venue) for p in _of(Paper, _read(html))] == [
        ("Wondering Together: Joint Attention", (), None),
        ("Boredom as an Epistemic Emotion", (), None),
        ("Attending to Absences", (), None),
        ("Inquiry and Credence", ("Daniel Achterberg",), None),
    ]


def test_a_biography_s_restatement_of_a_listed_post_is_that_post() -> None:
    listed = [Role(title="Assistant Professor", organization="Tohoku University", start="2021-04-01"),
              Role(title="Postdoctoral Researcher", organization="Haber Institute", start="2017", end="2021")]
    prose = [Role(title="Assistant Professor of Chemistry", organization="Tohoku University"),
             Role(title="postdoctoral researcher", organization="Haber Institute in Berlin")]
    assert dedupe_roles([*listed, *prose]) == listed
    # Another post at another place stays its own.
    other = Role(title="Postdoctoral Researcher", organization="Lund University")
    assert dedupe_roles([*listed, other]) == [*listed, other]


def test_a_cms_field_named_by_its_bem_modifier_is_not_a_name_field() -> None:
    row = """<div class="views-row"><div class="views-field views-field-title"><span>Dr {name}</span></div>
    <div class="field field--name-field-position field__item">PhD student ({years})</div>
    <div class="views-field"><span class="views-label">Now: </span>
    <div class="field field--name-field-destination field__item">{now}</div></div></div>"""
    rows = [("Grace Adjei", "2017–2021", "Biostatistician, GSK"), ("Martin Hale", "2016–2020", "Analyst, Aviva"),
            ("Eleanor Vance", "2018–2022", "Postdoctoral Fellow, ETH Zürich")]
    html = "<h2>Former members</h2><div class='view-content'>" + "".join(
        row.format(name=n, years=y, now=w) for n, y, w in rows
    ) + "</div>"
    assert [m.name for m in _of(Member, _read(html))] == [n for n, _y, _w in rows]


def test_the_header_s_post_and_the_biography_s_fuller_wording_of_it_are_one_role() -> None:
    roles = [Role(title="PhD Candidate in Physics", organization="ETH Zurich"),
             Role(title="PhD candidate", organization="Department of Physics at ETH Zurich in the Quantum Imaging Lab")]
    assert len(dedupe_roles(list(roles))) == 1
    fellow = [Role(title="Postdoctoral Researcher", organization="Max Planck Institute for Solid State Research"),
              Role(title="Postdoctoral researcher and Humboldt fellow", organization="Max Planck Institute for Solid "
                   "State Research in Stuttgart")]
    assert len(dedupe_roles(list(fellow))) == 1
    # A year of study says when the post is held: the header's and the biography's candidate are one.
    candidate = [Role(title="Ph.D. Candidate in Statistics", organization="Lakeshore University"),
                 Role(title="Fifth-year PhD candidate", organization="Dept. of Statistics at Lakeshore University")]
    assert len(dedupe_roles(list(candidate))) == 1


def test_an_astronomy_citation_reads_its_title_and_journal_apart_from_its_links_and_citation_count() -> None:
    entry = """<li><span class="au"><b>Rautenbach, T.</b>; Serra, P.; Loi, F.</span> {year},
    <span class="ti">{title}</span>, <span class="jo">{journal}</span>.
    <span class="lk">[<a href="https://ui.adsabs.harvard.edu/abs/x">ADS</a> | <a href="https://arxiv.org/abs/2501.0871{n}">arXiv:2501.0871{n}</a>]</span>
    <span class="cites">[{cites}]</span></li>"""
    rows = [(2025, "The HI-to-stellar mass relation in Fornax dwarfs", "MNRAS, 539, 1123", "MNRAS"),
            (2024, "Extended HI envelopes around low-mass galaxies", "A&amp;A, 684, A12", "A&A"),
            (2023, "A MeerKAT view of ram-pressure stripping", "ApJ, 948, 62", "ApJ")]

    def page(cites: int) -> list[Record]:
        items = "".join(
            entry.format(year=y, title=t, journal=j, n=n, cites=cites + n) for n, (y, t, j, _v) in enumerate(rows)
        )
        return _read(f"<h2>Refereed &mdash; first author</h2><ol>{items}</ol>")

    assert [(p.title, p.venue, p.year) for p in _of(Paper, page(3))] == [(t, v, y) for y, t, _j, v in rows]
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in page(3)]
    assert diff_items(stored, page(17)).changes == ()  # more citations are no news


def test_a_citation_that_names_its_journal_before_its_italic_title_reads_them_apart() -> None:
    html = """<h2>Submitted</h2><ol>
    <li><strong>Lindqvist, M.</strong>, Ortega, R. 2025, submitted to MNRAS. <em>Cold fronts in sloshing groups</em>
    [<a href="https://arxiv.org/abs/2503.01234">arXiv</a>]</li></ol>
    <h2>Refereed</h2><ol>
    <li>Ortega, R., <strong>Lindqvist, M.</strong>, et al. 2024, A&amp;A, 690, A211. <em>Entropy beyond R<sub>500</sub>
    in nearby groups</em> [<a href="https://ui.adsabs.harvard.edu/abs/x">ADS</a>]</li>
    <li><strong>Lindqvist, M.</strong> 2023, ApJL, in press. <em>A bright relic at the edge of a merging pair</em></li>
    </ol>"""
    assert [(p.title, p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Cold fronts in sloshing groups", "submitted to MNRAS", 2025),
        ("Entropy beyond R500 in nearby groups", "A&A", 2024),
        ("A bright relic at the edge of a merging pair", "ApJL, in press", 2023),
    ]


def test_a_category_filter_and_an_archive_s_counts_are_no_papers_or_news() -> None:
    cats = "".join(f'<div class="category">{c} <span class="category-count">({n})</span></div>'
                   for c, n in (("All", 12), ("Bayesian", 5), ("forecasting", 2), ("environment", 1)))
    months = "".join(f"<li><a href='/2025/{m}'>{m} 2025</a> ({n})</li>" for m, n in (("March", 3), ("April", 2)))
    html = f"""<h1>Publications</h1>
    <div class="sidebar"><h5>Categories</h5><div class="listing-category">{cats}</div></div>
    <ul><li>Ruiz, A., &amp; Berg, T. (2024). Nowcasting flu with sparse reports. <i>Epidemics</i>, 12, 44–51.</li>
    <li>Ruiz, A. (2023). Small-area estimates of rent burden. <i>Urban Studies</i>, 60, 1–19.</li></ul>
    <h2>News</h2><ul><li>March 4, 2025: Our nowcasting paper is out.</li>
    <li>April 2, 2025: Ana joins the group.</li></ul>
    <h3>Archives</h3><ul>{months}</ul>"""
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == [
        "Nowcasting flu with sparse reports", "Small-area estimates of rent burden"
    ]
    assert [n.date for n in _of(NewsItem, records)] == ["2025-03-04", "2025-04-02"]


def test_a_blog_sidebar_s_categories_counted_beside_their_names_are_no_papers() -> None:
    cats = "".join(f'<li><a href="/categories/{c}/">{c}</a><span class="count">{n}</span></li>'
                   for c, n in (("code", 2), ("news", 4), ("research", 5), ("talks", 4), ("travel", 2)))
    html = f"""<h1>Publications</h1><ul>
    <li>Ruiz, A., &amp; Berg, T. (2024). Nowcasting flu with sparse reports. <i>Epidemics</i>, 12, 44–51.</li>
    <li>Ruiz, A. (2023). Small-area estimates of rent burden. <i>Urban Studies</i>, 60, 1–19.</li></ul>
    <h3>Categories</h3><ul>{cats}</ul>"""
    assert [p.title for p in _of(Paper, _read(html))] == [
        "Nowcasting flu with sparse reports", "Small-area estimates of rent burden"
    ]


def test_paper_cards_with_co_authors_under_the_title_and_one_showing_only_its_title() -> None:
    def card(title: str, under: str = "") -> str:
        return (f'<div class="card paper-card"><div class="card-body"><h5 class="card-title"><a href="p.pdf">{title}'
                f'</a></h5>{under}<details class="abstract"><summary>Abstract</summary><p>We study it.</p></details>'
                "</div></div>")

    buttons = ('<div><a class="btn" href="jmp.pdf">Latest draft</a> <a class="btn" href="s.pdf">Slides</a> '
               '<a class="btn" href="a.pdf">Online appendix</a></div>')
    html = "<h2>Working Papers</h2>" + "".join([
        card("Borrowing Against the Harvest in Rural Malawi", buttons),
        card("Who Pays for Digital Credit? Fees and Screening",
             "<p class='card-subtitle'>With Ana Lopes and Tom Witt</p>"),
        card("Group Liability without Groups in Mobile Lending"),
        card("Remittances and the Timing of Migration", "<p class='card-subtitle'>With Yasmin Haddad</p><p>"
             "<span>Revise and Resubmit, <i>Journal of the European Economic Association</i></span></p>"),
    ])
    assert [(p.title, p.authors, p.venue) for p in _of(Paper, _read(html))] == [
        ("Borrowing Against the Harvest in Rural Malawi", (), None),
        ("Who Pays for Digital Credit? Fees and Screening", ("Ana Lopes", "Tom Witt"), None),
        ("Group Liability without Groups in Mobile Lending", (), None),
        ("Remittances and the Timing of Migration", ("Yasmin Haddad",),
         "Revise and Resubmit Journal of the European Economic Association"),
    ]


def test_a_made_up_heading_element_heads_its_section() -> None:
    html = """<table><tr><td><heading>Honors</heading><ul><li>Graduate Fellowship, 2023</li>
    <li>Outstanding Reviewer, CVPR 2024</li></ul></td></tr></table>
    <table><tr><td><heading>Teaching</heading></td></tr><tr><td><a href="c.html">CS 484: Computer Vision</a><br>
    Teaching Assistant, Fall 2022</td></tr><tr><td><a href="d.html">CS 210: Data Structures</a><br>
    Teaching Assistant, Fall 2021</td></tr></table>"""
    records = _read(html)
    assert [a.title for a in _of(Award, records)] == ["Graduate Fellowship", "Outstanding Reviewer"]
    assert _of(Role, records) == []


def test_a_clinician_s_profile_reads_posts_and_skips_the_cookie_banner_and_review_dates() -> None:
    html = """<div class="nhsuk-cookie-banner" id="cookiebanner"><h2>Cookies on our website</h2>
    <p>We've put some small files called cookies on your device to make our site work. We'd also like to use
    analytics cookies to see how the site is used, and we use this information to improve our site.</p></div>
    <h2>Appointments</h2><ul>
    <li><span>2016 &ndash; present</span> &mdash; <strong>Consultant Hepatologist</strong>, Fenmoor Hospital</li>
    <li><span>2007 &ndash; 2011</span> &mdash; <strong>Specialty Registrar, Hepatology</strong>, Wessmoor Deanery</li>
    </ul><h2>Qualifications</h2><ul><li>MB BChir, University of Harrowfield (2004)</li></ul>
    <h2>Awards</h2><ul><li>Harvey Lane Prize for Clinical Research, 2025</li></ul>
    <p>Page last reviewed: 14 January 2025</p><p>Next review due: 14 January 2026</p>"""
    records = _read(html)
    assert [(r.title, r.organization) for r in _of(Role, records)][:2] == [
        ("Consultant Hepatologist", "Fenmoor Hospital"), ("Specialty Registrar, Hepatology", "Wessmoor Deanery")
    ]
    assert _of(NewsItem, records) == []  # a degree with its year is no news
    assert [a.title for a in _of(Award, records)] == ["Harvey Lane Prize for Clinical Research"]
    assert _of(Paper, records) == []


def test_news_under_month_headings_are_items_of_their_own() -> None:
    month = """<section><h2>{head}<a class="headerlink" href="#x">&#182;</a></h2><ul>{items}</ul></section>"""
    item = "<li><p><strong>[{tag}]</strong> {text} <em>({day})</em></p></li>"
    html = "<h1>News</h1>" + "".join([
        month.format(head="2025.04 &mdash; April 2025", items=item.format(
            tag="people", text="Ines Roth joined the lab as a doctoral researcher.", day="2025-04-01")),
        month.format(head="2025.03 &mdash; March 2025", items=item.format(
            tag="award", text="Ole Berg won the best student paper award at NCCS.", day="2025-03-27") + item.format(
            tag="software", text="gridwork 3.2 released with a new solver.", day="2025-03-18")),
    ])
    assert [n.date for n in _of(NewsItem, _read(html))] == ["2025-04-01", "2025-03-27", "2025-03-18"]


def test_project_cards_are_neither_papers_nor_posts() -> None:
    card = """<article class="project"><a href="/projects/{slug}/"><h3 class="project__title">{title}</h3>
    <p class="project__desc">{desc}</p><footer><span class="project__years">{years}</span></footer></a></article>"""
    html = """<h2>Selected papers</h2><ul><li><b>Slow Dashboards: Ambient Energy Feedback with Older Adults</b>.
    Maren Lind, Petra Holm. <i>DIS 2025</i>.</li></ul><h2>Projects</h2><div class="projects">{}</div>""".format(
        card.format(slug="a", title="Slow Dashboards", desc="Ambient displays co-designed with ten households.",
                    years="2024&ndash;2025")
        + card.format(slug="b", title="Fix-it cafés", desc="Two years of fieldwork in repair cafés.",
                      years="2023&ndash;2025")
    )
    records = _read(html)
    assert [p.title for p in _of(Paper, records)] == ["Slow Dashboards: Ambient Energy Feedback with Older Adults"]
    assert _of(Role, records) == []


def test_an_archive_s_time_elements_give_the_year_their_text_leaves_out() -> None:
    post = """<article><header><div class="post-meta"><time datetime="{iso}T22:41:05-05:00">{shown}</time></div>
    <div class="post-title"><a href="/{iso}/"><span>{title}</span></a></div></header></article>"""
    html = '<div class="collection-year"><span class="collection-header">2025</span></div>' + "".join(
        post.format(iso=iso, shown=shown, title=title)
        for iso, shown, title in (("2025-02-27", "02-27", "Two papers accepted to CVPR 2025"),
                                  ("2025-01-05", "Jan 5", "Reading notes on pose-free view synthesis"))
    )
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-02-27", "Two papers accepted to CVPR 2025"), ("2025-01-05", "Reading notes on pose-free view synthesis")
    ]
    assert leading_date("2025-02-27") == ("2025-02-27", "")  # a date alone on its line is the whole date


def test_a_year_of_two_or_three_citation_paragraphs_is_that_many_papers() -> None:
    cite = ('<p class="citation">{a}, &amp; <strong>Okoro, A. N.</strong> ({y}). {t}. <em>{j}</em>. '
            '<a href="https://doi.org/10.1/{n}">https://doi.org/10.1/{n}</a></p>')
    years = {
        2025: [("Haddad, L., Lind, M.", "Ripple coupling between hippocampus and striatum predicts reward", "Neuron"),
               ("Cho, H., Abe, R.", "A miniscope pipeline for tracking granule cell ensembles over months", "bioRxiv")],
        2024: [("Lind, M., Raman, P.", "Offline reactivation of CA3 assemblies scales with learning load", "Neuron"),
               ("Ortiz, D.", "Somatostatin interneurons gate consolidation of overlapping spatial memories", "eLife"),
               ("Raman, P., Cho, H.", "Theta sequences in novel arenas form before the first lap is done", "eLife")],
    }
    html = "<h1>Publications</h1>" + "".join(
        f'<h2>{y}</h2><div class="pub-year">'
        + "".join(cite.format(a=a, y=y, t=t, j=j, n=n) for n, (a, t, j) in enumerate(items)) + "</div>"
        for y, items in years.items()
    )
    assert [p.title for p in _of(Paper, _read(html))] == [t for items in years.values() for _a, t, _j in items]


def test_a_site_builder_s_news_page_of_a_date_paragraph_over_each_story() -> None:
    stories = [("April 2025", "The field season is underway! Welcome to technicians Sasha and Rafa."),
               ("March 2025", "Alina defended her dissertation on willow recruitment. Congratulations!"),
               ("February 2025", "Wren received the Riparian Society Student Research Award.")]
    span = '<p class="font_8"><span><span>{}</span></span></p><p><span>&#8203;</span></p>'
    html = "<h2>Lab News</h2><div class='rich-text'>" + "".join(
        span.format(when) + span.format(what) for when, what in stories
    ) + "</div>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-04", stories[0][1]), ("2025-03", stories[1][1]), ("2025-02", stories[2][1])
    ]


def test_a_blog_sidebar_s_about_card_is_no_news_and_its_recent_posts_are_no_papers() -> None:
    sidebar = """<div class="sidebar"><div class="wp-block-group"><h2>About me</h2><p>Senior Lecturer in
    Education at Brackenridge. I research classroom talk and how teachers learn.</p></div>
    <div class="wp-block-group"><h2>Recent posts</h2><ul>
    <li><a href="/2025/04/seminar/">Join us: Dialogic Classrooms seminar, 14 May</a><time>April 10, 2025</time></li>
    <li><a href="/2025/03/article/">New article on peer feedback talk</a><time>March 24, 2025</time></li>
    </ul></div></div>"""
    publications = """<h1>Publications</h1><p>Crowther, N. (2024). Wait time and who gets to talk in Year 8
    science. <i>Research in Science Education</i>, 54, 1–19.</p>"""
    records = _read(publications + sidebar)
    assert [p.title for p in _of(Paper, records)] == ["Wait time and who gets to talk in Year 8 science"]
    assert not any("Brackenridge" in n.text for n in _of(NewsItem, records))  # a biography is no news


def test_a_teaching_page_tells_no_post_of_its_owner() -> None:
    html = """<html><head><title>Teaching &mdash; Cora Hale</title></head><body>
    <header><h1>Teaching</h1><p>Cora Hale, Associate Professor of Classics, Wrenfield College</p></header>
    <main><p>Courses I teach regularly:</p><ul><li>LATN 201 Intermediate Latin: Ovid</li>
    <li>LATN 450 Senior Seminar: Ovid in Exile</li><li>CLAS 240 Ancient Books</li></ul></main></body></html>"""
    assert [r for r in _read(html) if not isinstance(r, Role) or "Seminar" in r.title] == []


def test_a_header_s_place_joined_to_its_address_and_a_portrait_caption() -> None:
    html = """<header><h1>Cora Hale</h1><p class="position">Associate Professor of Classics</p>
    <p class="affil">Department of Classics, Wrenfield College &middot; Harrow Hall 207, 41 College St</p>
    <p><a href="mailto:ch@wrenfield.edu">ch@wrenfield.edu</a></p><img src="cora.jpg" alt="Cora Hale"></header>
    <h2>Books</h2><ul><li><i>Ovid's Readers</i>. Corran University Press, 2025.</li></ul>"""
    assert [(r.title, r.organization) for r in _of(Role, _read(html))] == [
        ("Associate Professor of Classics", "Department of Classics, Wrenfield College")
    ]


def test_a_site_header_s_tagline_sets_the_place_apart_with_a_dot() -> None:
    html = """<aside><header><h1 class="site-name">Amara Lind</h1>
    <h2 class="site-description">Associate Professor of Epidemiology &middot; Harwell School of Public Health</h2>
    <ol class="menu-social"><li><a href="https://github.com/al">GitHub</a></li></ol></header></aside>
    <main><h2>Publications</h2><ul><li><i>Heat and Emergency Visits</i>. Environ Health, 2024.</li></ul></main>"""
    assert [(r.title, r.organization) for r in _of(Role, _read(html))] == [
        ("Associate Professor of Epidemiology", "Harwell School of Public Health")
    ]
    # A post whose place names an institute and its university after a comma is still a post.
    html = html.replace("Associate Professor of Epidemiology &middot; Harwell School of Public Health",
                        "PhD Candidate &middot; Human-Computer Interaction Institute, Ardent University")
    assert [(r.title, r.organization) for r in _of(Role, _read(html))] == [
        ("PhD Candidate", "Human-Computer Interaction Institute, Ardent University")
    ]


def test_a_post_card_under_its_category_chip_is_told_by_its_title_not_its_subtitle() -> None:
    card = """<article><header class="article-header"><header class="article-category">
    <a href="/categories/{cat}/">{cat}</a></header><div class="article-title-wrapper">
    <h2 class="article-title"><a href="/p/{n}/">{title}</a></h2><h3 class="article-subtitle">{sub}</h3></div>
    <footer class="article-time"><time>{day}</time><time>2 minute read</time></footer></header></article>"""
    posts = [("awards", "Excellence in Mentoring Award", "Honored to receive this year's award.", "Oct 30, 2024"),
             ("papers", "Heat-wave paper published in EHP", "Our case-crossover study is out.", "Sep 16, 2024")]
    html = "<main><section class='article-list'>" + "".join(
        card.format(cat=c, n=n, title=t, sub=s, day=d) for n, (c, t, s, d) in enumerate(posts)
    ) + "</section></main>"
    assert [(n.text, n.date) for n in _of(NewsItem, _read(html))] == [
        ("Excellence in Mentoring Award", "2024-10-30"), ("Heat-wave paper published in EHP", "2024-09-16")
    ]


def test_a_one_page_builder_s_sections_its_menu_shows_are_read() -> None:
    html = """<section id="home-section" class="active"><h1>Tam Achter</h1>
    <p>Associate Professor of Sociology, University of Calder Bay</p></section>
    <section id="publications-section" class="inactive" style="display: none;"><h2>Publications</h2>
    <div><p>Achter, Tam. 2025. &ldquo;Doubling Up as Care: Housing and Kin Obligations.&rdquo; <em>Social Forces</em>
    103(3):1189&ndash;1214.</p><p>Achter, Tam. 2024. &ldquo;Counting the Uncounted: Informal Evictions.&rdquo;
    <em>Sociological Methods &amp; Research</em> 53(4):1802&ndash;1834.</p></div></section>
    <section id="recent-section" class="inactive" style="display: none;"><h2>Recent</h2>
    <div><p><strong>May 2025</strong> &mdash; My book is now forthcoming from Halloway Press.</p>
    <p><strong>Apr 2025</strong> &mdash; Honored to receive the Helen Voss Early Career Award.</p></div></section>
    <div class="modal" style="display:none"><p>Subscribe to my newsletter!</p></div>"""
    records = _read(html)
    assert [(r.title, r.organization) for r in _of(Role, records)] == [
        ("Associate Professor of Sociology", "University of Calder Bay")
    ]
    assert [p.title for p in _of(Paper, records)] == [
        "Doubling Up as Care: Housing and Kin Obligations", "Counting the Uncounted: Informal Evictions"
    ]
    assert [n.date for n in _of(NewsItem, records)] == ["2025-05", "2025-04"]


def test_citations_led_by_their_month_or_their_stage_under_a_year_are_papers() -> None:
    item = "<li><span><strong>{lead}</strong> &middot; {cite}</span></li>"
    html = "<h1>Publications</h1><h3>Under review</h3><ul>{}</ul><h3>2025</h3><ul>{}</ul>".format(
        item.format(lead="Under review", cite="Kowal M, Byrne R. Agency nurse use and patient experience."),
        item.format(lead="Apr 2025", cite="Byrne R, Brenn C. Safe staffing law and nurse burnout: a time series "
                    "analysis. Health Policy. 2025;153:105221.")
        + item.format(lead="Mar 2025", cite="Quinn D, Byrne R. Night-shift fatigue and medication errors: a "
                      "diary study. Int J Nurs Stud. 2025;160:104890."),
    )
    records = _read(html)
    assert [(p.title, p.venue) for p in _of(Paper, records)] == [
        ("Agency nurse use and patient experience", "Under review"),
        ("Safe staffing law and nurse burnout: a time series analysis", "Health Policy"),
        ("Night-shift fatigue and medication errors: a diary study", "Int J Nurs Stud"),
    ]
    assert _of(NewsItem, records) == []


def test_chapters_under_a_label_a_quoted_title_with_commas_and_a_title_naming_science() -> None:
    html = """<h2>Publications</h2><div><p><strong>Book chapters:</strong><br>
    Hale, Tam. 2023. &ldquo;Small Cities, Big Rents.&rdquo; Pp. 88&ndash;104 in <em>Urban Inequality</em>, edited by
    Cora Abel. Chicago: Lakeshore University Press.<br>
    Hale, Tam. 2021. &ldquo;Ethnography in Housing Court.&rdquo; Pp. 143&ndash;160 in <em>Field Methods</em>, edited
    by Dana Osei. London: Harrowgate Academic.<br>
    Hale, Tam, and Rafa Quint. 2020. &ldquo;Informal Landlords.&rdquo; Pp. 61&ndash;79 in <em>Tenancy
    Reconsidered</em>, edited by Ilse March. Boston: Clearwater Press.</p></div>
    <h2>Articles</h2><ul><li>Hale, T., &amp; Lund, M. (in press). Translanguaging in small-group science discussion.
    <em>Linguistics and Education</em>.</li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Small Cities, Big Rents", "Urban Inequality"),
        ("Ethnography in Housing Court", "Field Methods"),
        ("Informal Landlords", "Tenancy Reconsidered"),
        ("Translanguaging in small-group science discussion", "Linguistics and Education, in press"),
    ]


def test_panels_named_by_group_hold_each_their_people() -> None:
    person = """<div class="media"><div class="media-left"><img src="{0}.jpg" alt="{1}"></div>
    <div class="media-body"><h4 class="media-heading">{1}</h4><p><em>{2}</em></p>
    <p>{1} studies pollination networks after fire.</p></div></div>"""
    panel = ('<div class="panel panel-default"><div class="panel-heading"><h3 class="panel-title">{0}</h3></div>'
             '<div class="panel-body">{1}</div></div>')
    html = '<div class="page-header"><h1>People</h1></div><div class="row"><div class="col-md-10">' + "".join([
        panel.format("Principal Investigator", person.format("a", "Dr. Amara Quist", "Associate Professor")),
        panel.format("Postdoctoral Researchers", person.format("b", "Dr. Felipe Aranda", "Postdoctoral Researcher")
                     + person.format("c", "Dr. Ngozi Eze", "NSF Postdoctoral Fellow")),
        panel.format("Lab Manager", person.format("d", "Rebecca Thorn", "Lab Manager")),
    ]) + "</div></div>"
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Amara Quist", "Associate Professor"), ("Felipe Aranda", "Postdoctoral Researcher"),
        ("Ngozi Eze", "NSF Postdoctoral Fellow"), ("Rebecca Thorn", "Lab Manager"),
    ]


def test_a_stage_in_the_year_s_place_is_no_title() -> None:
    # A linguist's unified style: "Author. To appear. Title. *Journal*."
    html = """<h2>Journal articles</h2><ul>
    <li>Abeni, Tolu. To appear. Tone and focus in Kirundi questions. <em>Journal of Bantu Prosody</em>.</li>
    <li>Abeni, Tolu. 2024. Downstep in Luganda. <em>Phonology Review</em> 12(2). 145–189.</li></ul>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("Tone and focus in Kirundi questions", "Journal of Bantu Prosody, To appear"),
        ("Downstep in Luganda", "Phonology Review"),
    ]


def test_a_blog_grid_dated_with_short_years_under_category_chips_tells_posts_by_their_titles() -> None:
    post = """<article class="blog-basic-grid--container entry blog-item"><div class="blog-basic-grid--text">
    <div class="blog-meta-section"><span class="blog-meta-primary"><a href="/news?category={cat}">{cat}</a></span>
    <span class="blog-meta-secondary"><time class="blog-date">{date}</time></span></div>
    <h1 class="blog-title"><a href="/news/{slug}">{title}</a></h1>
    <div class="blog-excerpt"><p>{summary}</p></div><a class="blog-more-link" href="/news/{slug}">Read More</a>
    </div></article>"""
    posts = [("Lab life", "3/20/25", "welcome", "Welcome Naledi and Finn!", "Naledi joins as a fellow."),
             ("Papers", "2/14/25", "ripples", "Ageing and ripple coupling in Neuron", "Sofia's paper is out."),
             ("Awards", "12/15/23", "prize", "Hannah wins the poster prize", "Congratulations, Hannah!")]
    html = "<h1>News</h1><section class='blog-basic-grid'>" + "".join(
        post.format(cat=c, date=d, slug=s, title=t, summary=m) for c, d, s, t, m in posts
    ) + "</section>"
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [
        ("2025-03-20", "Welcome Naledi and Finn!"),
        ("2025-02-14", "Ageing and ripple coupling in Neuron"),
        ("2023-12-15", "Hannah wins the poster prize"),
    ]


def test_tenure_written_beside_a_rank_leaves_one_post() -> None:
    roles = [Role(title="Assistant Professor (tenure track)", organization="Saarland University"),
             Role(title="Tenure-track Assistant Professor",
                  organization="Department of Language Science and Technology at Saarland University")]
    assert len(dedupe_roles(list(roles))) == 1


def test_a_title_with_a_journal_word_in_a_sentence_and_a_journal_with_its_date_under_a_title() -> None:
    """An economist's list: the linked title, "(with …)", then the journal and when it printed
    the paper on its own line. "Review" inside a title's sentence is a word, not a journal."""
    entries = [
        ("Tariffs and Retail Prices in Small Towns", "Ann Lee", "AEJ: Economic Policy (November 2020)"),
        ("Best Practices for Demand Estimation with Nested Logit", "Omar Haddad", "RAND (November 2020)"),
        ("Merger Review with Diversion Ratios", "Kim Park", "Journal of Law and Economics (2019)"),
        ("A Review of Retail Scanner Data for Economists", "Ann Lee", "Annual Review of Economics (2018)"),
    ]
    html = "<h1>Pat Example</h1><h2>Publications</h2><ul>" + "".join(
        f'<li><a href="p{n}.pdf">{title}</a> (with {who})<br><em>{where}</em> '
        f'<a href="https://doi.org/10.1/{n}">[Journal version]</a> <a href="a{n}.pdf">[Appendix]</a></li>'
        for n, (title, who, where) in enumerate(entries)
    ) + "</ul>"
    papers = _of(Paper, _read(html))
    assert [p.title for p in papers] == [title for title, _who, _where in entries]
    assert [(p.venue or "").split(" (")[0] for p in papers] == [where.split(" (")[0] for _t, _w, where in entries]


def test_a_title_closed_by_its_full_stop_before_a_journal_in_bold_and_its_year() -> None:
    """A lab's numbered list: "12. Title.<strong>Journal</strong> 2024. doi: …" over its authors."""
    cites = [
        ("Root hairs sense soil compaction through calcium waves", "Frontiers in Plant Science-Root Biology",
         "2024.doi: 10.3389/fpls.2024.11", "Ayla Brandt, Noor Haddad, Ken Ito"),
        ("Peroxisome tethering in guard cells", "Plant Cell Reports, 43(2), 110-121. ", "2023.doi: 10.1007/s0029",
         "Noor Haddad, Ken Ito"),
        ("A light sheet atlas of leaf primordia", "Development", "2022. 149:e7. doi: 10.1242/dev.7", "Ken Ito"),
    ]
    html = "<h1>Publications</h1><dl>" + "".join(
        f"<dt>{12 - n}. {title}.<strong>{journal}</strong> {tail}</dt><dd>{authors}</dd>"
        for n, (title, journal, tail, authors) in enumerate(cites)
    ) + "</dl>"
    papers = _of(Paper, _read(html))
    assert [(p.title, p.venue, p.year) for p in papers] == [
        ("Root hairs sense soil compaction through calcium waves", "Frontiers in Plant Science-Root Biology", 2024),
        ("Peroxisome tethering in guard cells", "Plant Cell Reports", 2023),
        ("A light sheet atlas of leaf primordia", "Development", 2022),
    ]


def test_vancouver_citations_with_a_row_of_links_whose_labels_hide_words_for_screen_readers() -> None:
    """A hospital page's list: a citation paragraph, then "PubMed | Full text" links whose hidden
    words ("record 41877345") a design system's own class keeps from the screen."""
    cites = [
        ("Brennan A, Deshpande R, Halvorsen S", "Outcomes of a rapid-access pathway for myocarditis",
         "Eur Heart J. 2026 May;47(18):1720-31", "10.1093/ehj/ehag112", "nhsuk-u-visually-hidden"),
        ("Lindberg J, Halvorsen S", "Machine learning prediction of cardiotoxicity in early breast cancer",
         "JACC CardioOncol. 2026 Feb;8(1):44-56", "10.1016/j.jaccao.2025.11.004", "govuk-visually-hidden"),
    ]
    html = "<h1>Publications</h1><ul>" + "".join(
        f"<li><p>{who}. {title}. {where}. doi: {doi}. PMID: 4187734{n}.</p>"
        f'<p><a href="https://pubmed.ncbi.nlm.nih.gov/4187734{n}/">PubMed<span class="{hidden}"> record 4187734{n}'
        f'</span></a> | <a href="https://doi.org/{doi}">Full text</a></p></li>'
        for n, (who, title, where, doi, hidden) in enumerate(cites)
    ) + "</ul>"
    papers = _of(Paper, _read(html))
    assert [(p.title, p.year) for p in papers] == [(title, 2026) for _who, title, *_ in cites]


def test_a_responsive_table_s_column_names_repeated_in_its_cells_are_not_the_cells_words() -> None:
    rows = [("Dr Isabel Moreno", "Clinical Research Fellow", "2021–2024", "Consultant Cardiologist, La Paz, Madrid"),
            ("Dr Ben Ashworth", "PhD Student", "2019–2023", "Senior Scientist, AstraZeneca, Cambridge")]
    heads = ("Name", "Role in the group", "Years", "Current position")
    cell = '<td class="table__cell"><span class="table-responsive__heading">{} </span>{}</td>'
    html = (
        "<h2>Former team members</h2><table><thead><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr></thead>"
        + "".join("<tr>" + "".join(cell.format(h, v) for h, v in zip(heads, row, strict=True)) + "</tr>"
                  for row in rows) + "</table>"
    )
    assert [m.name for m in _of(Member, _read(html))] == ["Isabel Moreno", "Ben Ashworth"]



@pytest.mark.parametrize("line", ["Hits: 285", "Views: 1,204", "Read 120 times", "Page 1 of 2"])
def test_a_post_s_hit_counter_and_a_listing_s_page_counter_are_furniture(line: str) -> None:
    assert is_noise(line)
    assert not is_noise("Hits and misses of monetary policy")


def test_a_book_review_names_the_reviewed_book_in_apa_as_in_chicago() -> None:
    chicago = ("<li>Review of <i>Merchants of the Northern Seas</i>, by Ana Ruiz and Piet de Graaf. "
               "<i>Business History Review</i> 97, no. 1 (2023): 188–190.</li>"
               "<li>Review of <i>Coinage and Credit in Medieval Lübeck</i>, by Tomas Brandt. "
               "<i>Speculum</i> 96, no. 4 (2021): 1120–1122.</li>")
    apa = ("<li>Voss, C. (2023). [Review of the book <i>Merchants of the northern seas</i>, by A. Ruiz &amp; "
           "P. de Graaf]. <i>Business History Review, 97</i>(1), 188–190.</li>"
           "<li>Voss, C. (2021). Money and the soul [Review of the book <i>Coinage and credit in medieval "
           "Lübeck</i>, by T. Brandt]. <i>Speculum, 96</i>(4), 1120–1122.</li>")

    def page(entries: str) -> list[Record]:
        return _read(f"<h1>Clara Voss</h1><h2>Book reviews</h2><ul>{entries}</ul>")

    assert [(p.title, p.year) for p in _of(Paper, page(apa))] == [
        ("Merchants of the northern seas", 2023), ("Money and the soul", 2021)
    ]
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in page(chicago)]
    restyled = page(apa.replace("Money and the soul ", ""))
    assert diff_items(stored, restyled).changes == ()


def test_a_profile_s_definition_lists_give_each_grant_and_honour_by_its_term() -> None:
    html = """<main><section><h1>Dr Nadia Farrell</h1><p class="job-title">Senior Lecturer in Marine Ecology</p>
    <p class="department">School of Biological Sciences</p></section>
    <section><h2>Overview</h2><p>Nadia studies kelp forests under marine heatwaves.</p></section>
    <section><h2>Grants</h2><dl>
    <dt>Kelp forest resilience to marine heatwaves</dt><dd>Natural Environment Research Council</dd>
    <dd class="dates">Jan 2023 - Dec 2026</dd><dd>Principal Investigator</dd>
    <dt>Mapping coastal blue carbon with drones</dt><dd>Royal Society</dd><dd>2020 - 2022</dd><dd>Co-Investigator</dd>
    </dl></section>
    <section><h2>Awards and honours</h2><dl><dt>Early Career Research Prize</dt>
    <dd>British Ecological Society, 2022</dd></dl></section></main>"""
    records = _read(html)
    assert [(a.title, a.organization, a.year) for a in _of(Award, records)] == [
        ("Kelp forest resilience to marine heatwaves", "Natural Environment Research Council", 2023),
        ("Mapping coastal blue carbon with drones", "Royal Society", 2020),
        ("Early Career Research Prize", "British Ecological Society", 2022),
    ]
    # The heading of the page's first part is no place of work.
    assert [(r.title, r.organization) for r in _of(Role, records)] == [
        ("Senior Lecturer in Marine Ecology", "School of Biological Sciences")
    ]


def test_a_category_blog_reads_every_post_and_its_more_articles_list_as_news() -> None:
    post = ('<div class="blog-item"><div class="item-content"><div class="page-header"><h2><a href="/n/{n}">{title}</a>'
            '</h2></div><dl class="article-info"><dt>Details</dt><dd class="createdby">Written by: Ines Moreau</dd>'
            '<dd class="published"><time datetime="{date}">Published: {date}</time></dd><dd class="hits">Hits: 12</dd>'
            '</dl><p>{teaser}</p><p class="readmore"><a href="/n/{n}">Read more: {title}</a></p></div></div>')
    posts = [("2025-10-12", "Welcome to our new PhD student Arjun Patel", "Arjun joins us from Pune to work on fens."),
             ("2025-09-01", "Field season in Finnish Lapland completed", "Eight weeks of chamber measurements."),
             ("2025-04-20", "Lab retreat in the Vosges", "Talks and hiking.")]
    html = ('<main><h1>News</h1><div class="blog-items">'
            + "".join(post.format(n=n, date=d, title=t, teaser=s) for n, (d, t, s) in enumerate(posts))
            + '</div><div class="items-more"><h3>More Articles …</h3><ol><li><a href="/n/7">Seminar by Prof. Karin Ek '
              'on boreal carbon</a></li><li><a href="/n/8">Paper in Biogeosciences on diel cycles</a></li></ol></div>'
              '<p class="counter">Page 1 of 3</p></main>')
    records = _read(html)
    assert [(n.date, n.text) for n in _of(NewsItem, records)] == [
        ("2025-10-12", "Welcome to our new PhD student Arjun Patel"),
        ("2025-09-01", "Field season in Finnish Lapland completed"),
        ("2025-04-20", "Lab retreat in the Vosges"),
        (None, "Seminar by Prof. Karin Ek on boreal carbon"),
        (None, "Paper in Biogeosciences on diel cycles"),
    ]
    assert _of(Paper, records) == []


def test_an_ieee_reference_names_one_venue_with_or_without_italics() -> None:
    plain = ["A. Rahman and R. M. Ibarra, &ldquo;Capacitor lifetime in flying-capacitor inverters,&rdquo; IEEE J. "
             "Emerg. Sel. Topics Power Electron., early access, Dec. 2021, doi: 10.1109/JESTPE.2021.3135702.",
             "R. T. Kondapalli and R. M. Ibarra, &ldquo;Matrix transformer design for LLC converters,&rdquo; in Proc. "
             "IEEE ECCE, Cincinnati, OH, USA, 2017, pp. 1&ndash;8.",
             "R. M. Ibarra, K. Lam, and A. Thorsen, &ldquo;A switched-capacitor LED driver,&rdquo; in Proc. IEEE "
             "APEC, Washington, DC, USA, Feb. 2009, pp. 88&ndash;93."]
    italic = [entry.replace("&rdquo; in ", "&rdquo; in <i>").replace("&rdquo; IEEE", "&rdquo; <i>IEEE")
              .replace(", Cincinnati", "</i>, Cincinnati").replace(", Washington", "</i>, Washington")
              .replace("Electron., early", "Electron.</i>, early") for entry in plain]

    def page(entries: list[str]) -> list[Record]:
        return _read("<h2>Publications</h2><ol>" + "".join(f"<li>{e}</li>" for e in entries) + "</ol>")

    assert [p.venue for p in _of(Paper, page(plain))] == [
        "IEEE J. Emerg. Sel. Topics Power Electron.", "Proc. IEEE ECCE", "Proc. IEEE APEC"
    ]
    stored = [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in page(plain)]
    assert diff_items(stored, page(italic)).changes == ()


def test_a_cv_s_honours_and_grants_with_their_years_in_a_column_of_their_own_are_awards() -> None:
    row = '<div class="cv-row"><div class="cv-date">{when}</div><div class="cv-item">{what}</div></div>'
    honours = [("2022", "Elected Member, American Society for Clinical Investigation (ASCI)"),
               ("2020", "Doris Duke Clinical Scientist Development Award"),
               ("2011", "Alpha Omega Alpha Honor Medical Society")]
    grants = [("2020&ndash;2025", "NIH/NHLBI K08 HL148231 (PI). Inflammatory selection of mutant clones"),
              ("2021&ndash;2024", "Leukemia Research Program (Co-I; PI: P. Tremblay)")]
    html = ("<h2>Honors and Awards</h2>" + "".join(row.format(when=w, what=t) for w, t in honours)
            + "<h2>Research Support</h2>" + "".join(row.format(when=w, what=t) for w, t in grants))
    records = _read(html)
    assert _of(NewsItem, records) == []
    assert [(a.title, a.year) for a in _of(Award, records)] == [
        ("Elected Member", 2022),
        ("Doris Duke Clinical Scientist Development Award", 2020),
        ("Alpha Omega Alpha Honor Medical Society", 2011),
        ("NIH/NHLBI K08 HL148231 (PI). Inflammatory selection of mutant clones", 2020),
        ("Leukemia Research Program (Co-I; PI: P. Tremblay)", 2021),
    ]


def test_a_card_s_labelled_date_is_no_venue_and_the_rest_of_its_title_line_is() -> None:
    card = ('<li class="card"><div class="content"><p><strong><a href="https://doi.org/10.1/x{n}">{title}</a>&nbsp;,'
            '&nbsp;</strong>{venue}</p><p class="text-muted"><small>Published on: {date}</small></p>'
            '<p>Kemi Oduya, <b>Daniel Aksoy</b></p></div></li>')
    works = [("Platform Cooperatives and the Politics of Dispatch", "Information, Communication &amp; Society",
              "Jul 20, 2023"),
             ("Volunteer Labor and the Platform Commons", "New Media &amp; Society 22(9)", "Sep 01, 2020")]
    html = "<h2>Publications</h2><ul>" + "".join(
        card.format(n=n, title=t, venue=v, date=d) for n, (t, v, d) in enumerate(works)) + "</ul>"
    assert [(p.venue, p.year) for p in _of(Paper, _read(html))] == [
        ("Information, Communication & Society", 2023), ("New Media & Society", 2020)
    ]


def test_a_grants_table_s_years_column_dates_each_grant_not_a_number_in_its_code() -> None:
    html = """<h2>Grants</h2><table>
    <tr><th>Funder / mechanism</th><th>Title</th><th>Role</th><th>Years</th></tr>
    <tr><td>Ocean Health Trust Award<br><small>OHT-2019B4-0071</small></td><td>Kelp forest recovery after heatwaves</td>
        <td>PI</td><td>2021&ndash;2024</td></tr>
    <tr><td>National Fund for Coastal Science<br><small>NFC 2020-118</small></td><td>Tidal mixing in estuaries</td>
        <td>Co-I (PI: L. Moreau)</td><td>2023&ndash;2026</td></tr>
    </table>"""
    assert [a.year for a in _of(Award, _read(html))] == [2021, 2023]


#: People cards: a photo, the name as the card's heading, the role, a labelled field.
_PERSON_CARDS = {
    "record": ('<div class="person-card"><img src="/p/{n}.jpg" alt="Portrait"><h3><a href="/people/{n}">{name}</a></h3>'
               '<div class="field-position">{role}</div><div class="field-area"><div class="label">Research area</div>'
               '<div class="item">{area}</div></div></div>'),
    "article": ('<div class="views-col"><article class="node person-card"><div class="person-card__image">'
                '<div class="field"><img src="/p/{n}.jpg" alt="Portrait of {name}"></div></div>'
                '<div class="node__content">'
                '<h3 class="node__title"><a href="/people/{n}"><span class="field">{name}</span></a></h3>'
                '<div class="field field--name-field-position">{role}</div><div class="field field--label-inline">'
                '<div class="field__label">Research area</div><div class="field__item">{area}</div></div>'
                '<div class="field"><a href="mailto:p{n}@example.edu">p{n}@example.edu</a></div>'
                '</div></article></div>'),
}


@pytest.mark.parametrize("shape", sorted(_PERSON_CARDS))
def test_a_member_whose_surname_is_a_word_for_honours_is_a_member_among_the_other_cards(shape: str) -> None:
    people = [("Mireille Okoro", "Postdoctoral Researcher", "Fungal networks"),
              ("Hollis Grant", "Ph.D. Student", "Wildfire effects on soil nitrogen"),
              ("Dev Iyer", "Ph.D. Student", "Root exudates"),
              ("Clara Medal", "M.S. Student", "Soil carbon"),
              ("Ana Lima", "M.S. Student", "Soil water")]
    cards = [_PERSON_CARDS[shape].format(n=n, name=name, role=role, area=area)
             for n, (name, role, area) in enumerate(people)]
    # Cards in a grid's rows of three, or one after another.
    rows = "</div><div class='row'>".join("".join(cards[at : at + 3]) for at in range(0, len(cards), 3))
    html = f"<main><h1>People</h1><div class='grid'><div class='row'>{rows}</div></div></main>"
    if shape == "record":
        html = "<h2>People</h2>" + "".join(cards)
    records = _read(html)
    assert _of(Award, records) == []
    assert [(m.name, m.role) for m in _of(Member, records)] == [(name, role) for name, role, _ in people]


def test_a_cv_s_masthead_gives_its_owner_s_post_without_their_name() -> None:
    html = """<html><head><title>CV · Tomasz Ferreira</title></head><body><header class="masthead"><div>
    <h1>Tomasz Ferreira</h1><p class="role">Lecturer in History, Pellham College</p></div>
    <address>Department of History, Pellham College</address></header>
    <main><section><h2>Experience</h2><ol>
    <li><span class="when">2025–</span><div><strong>Lecturer in History</strong><span>Pellham College</span></div></li>
    <li><span class="when">2022–2025</span><div><strong>Research Fellow</strong>
    <span>Institute of Maritime History</span></div></li></ol></section></main></body></html>"""
    roles = _of(Role, _read(html))
    assert roles and all(not r.title.startswith("Tomasz") for r in roles)
    assert ("Lecturer in History", "Pellham College") in [(r.title, r.organization) for r in roles]


def test_a_member_s_biography_gives_their_title_and_the_honours_it_lists() -> None:
    bios = [
        ("Mireille Okafor", "is Professor of Marine Chemistry and head of the group. She received her D.Phil. from "
         "Wrexford in 2004. Her honours include the Tidewater Medal (2011), the Coastal Science Teaching Award (2019) "
         "and the Halden Prize for Ocean Chemistry (2026). She is an Associate Editor of the Journal of Ocean "
         "Chemistry."),
        ("Dev Anand", "is a postdoctoral research associate working on trace metals in estuaries."),
        ("Lina Berg", "is a third-year PhD student studying iron in sea ice."),
    ]
    html = "<h1>People</h1>" + "".join(f'<p class="member"><b>{n}</b> {bio}</p>' for n, bio in bios)
    records = _read(html)
    assert [(m.name, m.role) for m in _of(Member, records)] == [
        ("Mireille Okafor", "Professor of Marine Chemistry and head of the group"),
        ("Dev Anand", "postdoctoral research associate"),
        ("Lina Berg", "third-year PhD student"),
    ]
    assert [(a.title, a.year) for a in _of(Award, records)] == [
        ("Tidewater Medal", 2011), ("Coastal Science Teaching Award", 2019), ("Halden Prize for Ocean Chemistry", 2026)
    ]


def test_the_owner_s_introduction_lists_their_honours_in_a_sentence() -> None:
    html = """<h1>Ines Amaro</h1><p>I am an Associate Professor of History at Pellham College. My awards include the
    Maritime History Book Prize (2021) and a Pellham Teaching Excellence Award (2024).</p>
    <h2>Publications</h2><ul><li>Amaro, I. (2020). <i>Salt and Empire</i>. Dunmore University Press.</li></ul>"""
    assert [(a.title, a.year) for a in _of(Award, _read(html))] == [
        ("Maritime History Book Prize", 2021), ("Pellham Teaching Excellence Award", 2024)
    ]


def test_a_last_updated_field_after_the_honours_is_no_award() -> None:
    html = """<article><h1>Miriam Vos</h1><div class="field"><h2 class="field__label">Honors</h2>
    <div class="field__item"><ul><li>Excellence in Teaching Award (2024)</li><li>Order of the Coif (2014)</li></ul>
    </div></div><div class="field field--name-field-last-updated field--label-inline">
    <div class="field__label">Last updated</div><div class="field__item"><time>January 20, 2026</time></div></div>
    </article>"""
    assert [a.title for a in _of(Award, _read(html))] == ["Excellence in Teaching Award", "Order of the Coif"]


def test_a_timeline_s_dates_title_and_place_lines_and_a_header_s_linked_institution() -> None:
    job = ('<li><time>{when}</time><h3>{title}</h3><div><a href="https://{host}/">{place}</a> · {town}</div>'
           "<div>{note}</div></li>")
    jobs = [("Jan 2026 – Present", "Assistant Professor", "uni.example.edu", "Pellham University", "Pellham, Ohio",
             "Teaching cloud physics and leading a research group."),
            ("Sep 2021 – Dec 2025", "Project Scientist", "lab.example.org", "Tidewater Climate Laboratory",
             "Boulder, Colorado", "Led the cloud-feedback evaluation of the model.")]
    html = f"""<div class="profile"><div class="name">Nadia Holt</div><div class="post">Assistant Professor</div>
    <div class="org"><a href="https://uni.example.edu/">Pellham University</a></div>
    <div class="bio"><p>Nadia Holt studies how clouds respond to warming and why climate models disagree.</p></div>
    <div><div class="title">Interests</div><ul><li>Cloud feedbacks</li><li>Tropical convection</li></ul></div></div>
    <section id="experience"><div class="title">Experience</div><ol>{"".join(job.format(when=w, title=t, host=h,
    place=p, town=c, note=n) for w, t, h, p, c, n in jobs)}</ol></section>"""
    assert sorted((r.title, r.organization, r.start) for r in _of(Role, _read(html))) == [
        ("Assistant Professor", "Pellham University", "2026-01"),
        ("Project Scientist", "Tidewater Climate Laboratory", "2021-09"),
    ]


def test_citation_fields_named_in_another_language_are_read_by_their_names() -> None:
    entry = ('<li><span class="titulo">{title}</span>. <span class="autores"><b>L. Ortiz</b>, X. Urrutia</span>. '
             '<span class="revista"><i>{venue}</i></span>.</li>')
    works = [("Dialect Robustness of Language Models in Spanish", "ACL 2025"),
             ("A Treebank of Spoken Basque Dialects", "EACL 2023")]
    html = "<h2>Publicaciones / Publications</h2><ol>" + "".join(entry.format(title=t, venue=v) for t, v in works)
    assert [(p.title, p.venue) for p in _of(Paper, _read(html + "</ol>"))] == [
        ("Dialect Robustness of Language Models in Spanish", "ACL"),
        ("A Treebank of Spoken Basque Dialects", "EACL"),
    ]



def test_one_author_then_the_year_as_a_sentence_of_its_own_is_the_author_list() -> None:
    html = """<h2>Publications</h2><ul>
    <li><b>Lucía Ortiz</b>. 2022. Recursos léxicos para el asturiano. <i>Procesamiento del Lenguaje Natural</i>,
    69:33–44.</li>
    <li>Marta Ruiz and <b>Lucía Ortiz</b>. 2021. Quantum walks on trees. <i>Journal of Walks</i>, 2:1–9.</li></ul>"""
    assert [(p.title, p.authors, p.year) for p in _of(Paper, _read(html))] == [
        ("Recursos léxicos para el asturiano", ("Lucía Ortiz",), 2022),
        ("Quantum walks on trees", ("Marta Ruiz", "Lucía Ortiz"), 2021),
    ]


def test_a_bilingual_page_s_news_are_read_once_from_the_list_its_heading_announces() -> None:
    posts = [("2025-11-27", "He impartido una charla invitada en Granada.", "I gave an invited talk in Granada."),
             ("2025-09-15", "Nuestro artículo está en arXiv.", "Our tokenization paper is on arXiv."),
             ("2025-07-28", "Presenté nuestro banco de pruebas en ACL 2025.", "I presented our benchmark at ACL 2025.")]
    html = ('<div lang="es"><h2>Noticias</h2><ul>' + "".join(f"<li><b>{d}</b>: {es}</li>" for d, es, _ in posts)
            + '</ul></div><div lang="en"><h2>News</h2><ul>'
            + "".join(f"<li><b>{d}</b>: {en}</li>" for d, _, en in posts) + "</ul></div>")
    assert [(n.date, n.text) for n in _of(NewsItem, _read(html))] == [(d, en) for d, _, en in posts]


def test_a_sidebar_s_latest_posts_stand_under_none_of_the_page_s_title_nor_headings() -> None:
    books = [("Paper Walls: Eviction and Tenancy", "Riverline Press", 2024),
             ("Working Nights: Care Labor in the City", "Cardinal University Press", 2017)]
    posts = ["What the new eviction data can and cannot tell us", "Teaching Paper Walls in an undergraduate seminar",
             "Back to the archive: notes from the county court records"]
    html = ("<html><head><title>Books | Miriam Vos</title></head><body><main><h1>Books</h1>"
            + "".join(f"<p><b>{t}</b>. {p}, {y}.</p>" for t, p, y in books)
            + '</main><aside class="widget-area"><section class="widget"><h2>Search</h2><form></form></section>'
            '<section class="widget"><h2>Recent Posts</h2><ul class="wp-block-latest-posts">'
            + "".join(f'<li><a href="/2026/{n}/">{t}</a></li>' for n, t in enumerate(posts))
            + "</ul></section></aside></body></html>")
    assert [p.title for p in _of(Paper, read_html(html).records)] == [t for t, _, _ in books]
    # On the home page, the sidebar's posts are no part of the owner's introduction.
    home = html.replace("<title>Books | Miriam Vos</title>", "<title>Miriam Vos</title>").replace(
        "<h1>Books</h1>", "<h1>Miriam Vos</h1><p>Associate Professor of Sociology, Brightwater University</p>")
    assert [(r.title, r.organization) for r in _of(Role, read_html(home).records)] == [
        ("Associate Professor of Sociology", "Brightwater University")
    ]


def test_nlm_s_last_author_ends_at_the_stop_after_the_initials_before_a_capitalised_title() -> None:
    html = """<h2>Publications</h2><ul>
    <li>Cross N, Mehta-Lund R, Ade-Lind F. Racial and ethnic differences in referral to cardiac rehabilitation.
    <i>Circ Cardiovasc Qual Outcomes</i>. 2024;17(7):e010644.</li>
    <li>Wierz T, Owusu A, Ade-Lind F. Semaglutide and diastolic function in obesity: a pilot trial.
    <i>JACC Heart Fail</i>. 2025;13(4):512-20.</li></ul>"""
    assert [(p.title, p.authors[-1]) for p in _of(Paper, _read(html))] == [
        ("Racial and ethnic differences in referral to cardiac rehabilitation", "Ade-Lind F"),
        ("Semaglutide and diastolic function in obesity: a pilot trial", "Ade-Lind F"),
    ]


def test_a_co_advisor_set_inline_after_the_role_is_no_part_of_it() -> None:
    card = ('<li><img src="/p/{n}.jpg" alt="{name}"><div><a href="https://{n}.lab.example.edu/">{name}</a>'
            '<span class="sc-bd5bba a6bc15">{role}</span>{extra}</div></li>')
    # Styled components name their classes by hashes: nothing tells the note from the role but its words.
    people = [("Hana Reid", "PhD Student", '<span class="sc-b2ddf4">Co-advisor: Prof. Vic Alm (Design)</span>'),
              ("Yusuf Demir", "PhD Candidate", ""),
              ("Clara Jovic", "PhD Student", '<span class="sc-b2ddf4">co-advised by Lauren Pike</span>')]
    html = "<h2>PhD Students</h2><ul>" + "".join(
        card.format(n=n, name=name, role=role, extra=extra) for n, (name, role, extra) in enumerate(people)) + "</ul>"
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [(n, r) for n, r, _ in people]


def test_a_link_label_in_brackets_after_a_role_is_no_part_of_it() -> None:
    html = """<h2>People</h2><ul>
    <li><b>Siobhan Hale</b> — Associate Professor of Ecology, Ridgeway State University (<a href="https://sh.example">website</a>)</li>
    <li><b>Mei Lin</b> — PhD Student (2021) [<a href="cv.pdf">CV</a>]</li>
    <li><b>Tavita Fale</b> — PhD Student</li></ul>"""
    assert [(m.name, m.role) for m in _of(Member, _read(html))] == [
        ("Siobhan Hale", "Associate Professor of Ecology, Ridgeway State University"),
        ("Mei Lin", "PhD Student (2021)"),
        ("Tavita Fale", "PhD Student"),
    ]


def test_a_grid_row_of_a_span_of_years_beside_a_post_is_one_dated_post() -> None:
    row = ('<div class="row mb-2"><div class="col-sm-3 text-muted">{when}</div><div class="col-sm-9"><strong>{post}'
           '</strong>, {place}</div></div>')
    posts = [("2026&ndash;present", "Associate Professor of Economics", "Ashcombe University"),
             ("2019&ndash;2026", "Assistant Professor of Economics", "Ashcombe University"),
             ("2018&ndash;2019", "Postdoctoral Fellow", "Calder Institute for Policy Research")]
    html = ('<div class="card"><div class="card-header">Positions</div><div class="card-body">'
            + "".join(row.format(when=w, post=p, place=o) for w, p, o in posts) + "</div></div>")
    assert [(r.title, r.start, r.end) for r in _of(Role, _read(html))] == [
        ("Associate Professor of Economics", "2026", None),
        ("Assistant Professor of Economics", "2019", "2026"),
        ("Postdoctoral Fellow", "2018", "2019"),
    ]


def test_a_mathematician_s_plain_citations_part_title_and_journal_at_the_comma() -> None:
    html = """<H2>Papers</H2><OL>
    <LI> (with G. Ferrand) A remark on Kakeya sets in the plane, Studia Math. 125 (1997), 91-99.
    <LI> Decoupling inequalities for degenerate curves, Rev. Mat. Iberoam. 27 (2011), 553-590.
    <LI> Exponential sums over thin sequences, Mathematika 50 (2003), 121-140.
    <LI> (with E. Tanaka) Short Weyl sums for the cubic moment curve, arXiv:2502.06644.
    </OL><H2>Conferences organized</H2><UL>
    <LI> Summer School in Fourier Restriction, University of Eastmoor, July 6-17, 2026 (with T. Mirho)
    <LI> Workshop on Exponential Sums, University of Eastmoor, May 2014</UL>"""
    assert [(p.title, p.venue) for p in _of(Paper, _read(html))] == [
        ("A remark on Kakeya sets in the plane", "Studia Math."),
        ("Decoupling inequalities for degenerate curves", "Rev. Mat. Iberoam."),
        ("Exponential sums over thin sequences", "Mathematika"),
        ("Short Weyl sums for the cubic moment curve", "arXiv:2502.06644"),
    ]


def test_an_equal_contribution_legend_under_a_card_is_not_its_venue() -> None:
    card = ('<article class="card"><span class="chip font-semibold">{venue}</span><h3>{title}</h3>'
            '<p>Dan Ahn*, <span class="underline">Lucia Ferro</span>*, Tobias Wend</p>'
            '<p class="text-xs italic">* equal contribution</p><a href="{n}.pdf">Paper</a></article>')
    papers = [("NeurIPS 2024", "Learning to Skip: Token-Adaptive Depth for Transformers"),
              ("ICLR 2025", "KV-Sieve: Query-Aware Cache Eviction for Long Contexts")]
    html = "<h2>Publications</h2>" + "".join(card.format(venue=v, title=t, n=n) for n, (v, t) in enumerate(papers))
    assert all("equal" not in (p.venue or "") for p in _of(Paper, _read(html)))
    assert [p.title for p in _of(Paper, _read(html))] == [t for _, t in papers]


def test_a_timeline_s_when_and_where_line_is_no_post_and_the_header_s_adviser_no_place() -> None:
    job = ('<li><span class="dot"></span><p class="meta">{when} · {where}</p><p class="post">{post}</p>'
           '<p class="note">{note}</p></li>')
    jobs = [("Summer 2025", "London, UK", "Google DeepMind — Research Intern", "Efficient long-context inference."),
            ("Summer 2024", "Menlo Park, CA", "Meta FAIR — Research Intern", "Early-exit transformers."),
            ("2020 – 2022", "Berkeley, CA", "UC Berkeley Sky Lab — Undergraduate Researcher", "Serving systems.")]
    html = ("""<h1>Lucia Ferro</h1><p>PhD student at <a href="https://u.example.edu">Carnegie Mellon University</a>,
    advised by <a href="https://u.example.edu/~tw">Tobias Wend</a></p><section><h2>Experience</h2><ol>"""
            + "".join(job.format(when=w, where=p, post=t, note=n) for w, p, t, n in jobs) + "</ol></section>")
    assert [(r.title, r.organization) for r in _of(Role, _read(html))] == [
        ("PhD student", "Carnegie Mellon University"),
        ("Research Intern", "Google DeepMind"),
        ("Research Intern", "Meta FAIR"),
        ("Undergraduate Researcher", "UC Berkeley Sky Lab"),
    ]



def test_a_spotlight_mark_under_a_card_leaves_the_venue_to_its_chip() -> None:
    card = ('<article class="card"><span class="chip font-semibold">{venue}</span><h3>{title}</h3>'
            '<p>{authors}</p>{mark}<a href="{n}.pdf">Paper</a></article>')
    papers = [("NeurIPS 2025", "Draft Trees Revisited: Adaptive Speculative Decoding", "Lucia Ferro, Dan Ahn",
               '<p class="text-xs italic">Spotlight</p>'),
              ("ICLR 2025", "KV-Sieve: Query-Aware Cache Eviction for Long Contexts", "Lucia Ferro, Tobias Wend", ""),
              ("NeurIPS 2024", "Learning to Skip: Token-Adaptive Depth", "Dan Ahn*, Lucia Ferro*, Tobias Wend",
               '<p class="text-xs italic">* equal contribution</p>')]
    html = '<h2>Publications</h2><div class="grid">' + "".join(
        card.format(venue=v, title=t, authors=a, mark=m, n=n) for n, (v, t, a, m) in enumerate(papers)) + "</div>"
    # The chip names the conference (its year is the paper's year).
    assert [(p.title, (p.venue or "").split()[0]) for p in _of(Paper, _read(html))] == [
        (t, v.split()[0]) for v, t, _, _ in papers
    ]


def test_a_post_that_names_a_visitor_is_news_and_a_visitor_counter_is_not() -> None:
    html = """<h2>News</h2><dl>
    <dt><b>12 December 2025</b></dt><dd>Our boryl radical paper was accepted in <i>J. Am. Chem. Soc.</i> &ndash;
    congratulations also to our visitor Mateus, who is a co-author!</dd>
    <dt><b>15 September 2025</b></dt><dd>Welcome to Dr. Mateus Santos, who is visiting the group until February.</dd>
    </dl><p>Visitors: 12,345</p>"""
    assert [n.date for n in _of(NewsItem, _read(html))] == ["2025-12-12", "2025-09-15"]



def test_a_cv_s_degree_in_its_field_is_no_paper() -> None:
    row = ('<li class="list-group-item d-flex"><span>{what}</span><span class="text-muted">{when}</span></li>')
    rows = [("Senior Lecturer in Particle Physics, University of Harlow", "2022–present"),
            ("Research Fellow, CERN, Geneva", "2016–2019"),
            ("Dr. rer. nat. in Physics, Ruprecht University Heidelberg", "2013")]
    html = ('<h2>CV</h2><h3>Positions &amp; education</h3><ul class="list-group">'
            + "".join(row.format(what=w, when=d) for w, d in rows) + "</ul>")
    assert _of(Paper, _read(html)) == []


def test_a_pandoc_cv_s_service_section_is_a_part_of_the_page_not_a_record_of_the_introduction() -> None:
    html = """<header id="title-block-header"><h1 class="title">Amara Holloway, PhD</h1></header>
    <section id="contact" class="level2"><h2>Contact</h2><p>Department of Epidemiology, Ridgeford University</p>
    <p>aholloway@ridgeford.edu</p></section>
    <section id="appointments" class="level2"><h2>Appointments</h2><dl>
    <dt>2021–present</dt><dd>Assistant Professor, Department of Epidemiology, Ridgeford University</dd></dl></section>
    <section id="service" class="level2"><h2>Service</h2><section id="institutional" class="level3">
    <h3>Institutional</h3><ul><li>Doctoral Admissions Committee, Department of Epidemiology (2022–present)</li>
    <li>Faculty mentor, First-Generation Graduate Students Network (2021–present)</li></ul></section></section>"""
    assert [r.title for r in _of(Role, _read(html))] == ["Assistant Professor"]


def test_a_wiki_s_edit_links_beside_its_year_headings_are_furniture() -> None:
    edit = ('<span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?'
            'action=edit&amp;section={n}">edit</a><span class="mw-editsection-bracket">]</span></span>')
    html = "<h1>Publications</h1>" + "".join(
        f'<h2><span class="mw-headline">{year}</span>{edit.format(n=n)}</h2><ul><li>Ana Lima, Bo Chen. '
        f"<i>Sleep spindles in mice number {n}</i>. J. Neurosci. {year}.</li></ul>"
        for n, year in enumerate((2024, 2023)))
    assert [p.year for p in _of(Paper, _read(html))] == [2024, 2023]
    assert all("edit" not in p.title for p in _of(Paper, _read(html)))
