"""The data-file reader beyond its recorded cases: which files are content, list shapes, people's
identity across edits, bad and huge files, and whole checks of a repository and a JSON page."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from github_fake import FakeGitHub
from servers import Page, StaticSite, serve

from extractors.data import MAX_ENTRIES, DataExtractor, is_data_path, load_data, read_data, read_data_files
from watcher.diff import StoredItem, diff_items
from watcher.errors import ExtractionError
from watcher.extract import extract_records, wanted_repository_path
from watcher.records import Award, Document, Member, NewsItem, Paper, Role, record_fields


@pytest.mark.parametrize(
    "path",
    [
        "package.json",
        "package-lock.json",
        "web/package.json",
        "tsconfig.json",
        "tsconfig.app.json",
        "composer.json",
        "_config.yml",
        "_config_dev.yml",
        "config.toml",
        "hugo.toml",
        "config/_default/params.toml",
        ".eslintrc.json",
        ".github/workflows/pages.yml",
        "netlify.toml",
        "manifest.json",
        "node_modules/left-pad/package.json",
        "node_modules/some-lib/data/people.json",
        "vendor/bundle/ruby/gems/x/data.yml",
        "pnpm-lock.yaml",
        "themes/academic/data/fonts/minimal.toml",
        "i18n/en.yaml",
        "README.md",
        "_data/people.csv",
    ],
)
def test_configuration_package_and_lock_files_are_not_content(path: str) -> None:
    assert not is_data_path(path)
    assert not DataExtractor().wants_path(path)


@pytest.mark.parametrize(
    "path",
    ["data/people.json", "src/data/publications.yaml", "content/awards.toml", "public/home.json",
     "_data/news.yml", "assets/json/resume.json", "static/data/team.YML"],
)
def test_data_files_anywhere_in_the_tree_are_wanted(path: str) -> None:
    assert is_data_path(path)
    assert wanted_repository_path(path)


def _records(data: Any, label: str = "") -> list[Any]:
    return read_data(data, "test", label).records


def test_lists_named_for_a_kind_and_lists_read_by_shape() -> None:
    data = {
        "pubs": [{"title": "Sound Maps", "authors": ["Ana Lima", "Bo Chen"], "venue": "ICASSP 2024"}],
        "items": [{"date": "March 2025", "text": "We moved to *Building 9*."}],
        "honors": [{"title": "Young Researcher Prize", "year": 2023, "by": "Acoustics Society"}],
        "experience": [{"position": "Research Scientist", "company": "Wavefront Labs", "start": "2019-06",
                        "end": "2022-01"}],
        "navigation": [{"title": "Home", "url": "/"}, {"title": "People", "url": "/people/"}],
        "courses": [{"name": "CS 101", "code": "101"}, {"name": "Signals and Systems", "code": "240"}],
    }
    assert _records(data) == [
        Paper(title="Sound Maps", authors=("Ana Lima", "Bo Chen"), venue="ICASSP 2024", year=2024),
        NewsItem(text="We moved to Building 9.", date="2025-03"),
        Award(title="Young Researcher Prize", year=2023),
        Role(title="Research Scientist", organization="Wavefront Labs", start="2019-06", end="2022-01"),
    ]


def test_a_venue_written_as_an_object_and_a_status_in_a_details_field_are_read() -> None:
    data = {"publications": [
        {"title": "Sonification Grammars", "authors": ["Ana Lima"], "year": 2025,
         "venue": {"short": "ICAS '25", "full": "Proceedings of the Conference on Accessible Systems"}},
        {"title": "Sodium Loss in Cathodes", "authors": ["Bo Chen"], "journal": "J. Mater. Chem. E",
         "details": "accepted"},
        {"title": "Tidal Nets", "authors": ["Bo Chen"], "journal": "Estuaries", "details": "13, 8820–8831"},
    ]}
    assert [r.venue for r in _records(data)] == [
        "Proceedings of the Conference on Accessible Systems", "J. Mater. Chem. E, accepted", "Estuaries"
    ]


def test_the_honours_a_member_s_entry_lists_are_awards() -> None:
    data = {"people": [
        {"name": "Xinyi Chen", "role": "PhD Student",
         "awards": ["Best Oral Presentation, Spring Electrochemistry Meeting (2025)"]},
        {"name": "Hannah Okoro", "role": "PhD Student", "honors": "Westbrook Dissertation Fellowship (2024)"},
        {"name": "Bo Chen", "role": "Postdoc", "interests": ["batteries", "sodium"]},
    ]}
    records = _records(data)
    assert [(r.name, r.role) for r in records if isinstance(r, Member)] == [
        ("Xinyi Chen", "PhD Student"), ("Hannah Okoro", "PhD Student"), ("Bo Chen", "Postdoc")
    ]
    assert [r for r in records if isinstance(r, Award)] == [
        Award(title="Best Oral Presentation", organization="Spring Electrochemistry Meeting", year=2025),
        Award(title="Westbrook Dissertation Fellowship", year=2024),
    ]


def test_a_cv_of_titled_sections_reads_its_positions_and_its_awards_by_year() -> None:
    # The shape of a Jekyll theme's CV data: sections with a title, a display type and contents.
    cv = [
        {"title": "General Information", "type": "map",
         "contents": [{"name": "Full Name", "value": "Rosa Quint"}, {"name": "Location", "value": "Lyon"}]},
        {"title": "Experience", "type": "time_table",
         "contents": [{"title": "Research Engineer", "institution": "Tidewater Institute", "year": "2021 - Present",
                       "description": ["Built instruments."]}]},
        {"title": "Honors and Awards", "type": "time_table",
         "contents": [{"year": 2024, "items": ["Young Engineer Award"]}, {"year": 2019, "items": ["Dean's List"]}]},
    ]
    assert _records(cv) == [
        Role(title="Research Engineer", organization="Tidewater Institute", start="2021"),
        Award(title="Young Engineer Award", year=2024),
        Award(title="Dean's List", year=2019),
    ]


def test_groups_give_roles_and_years_and_past_groups_give_alumni() -> None:
    people = [
        {"type": "PhD Students", "members": [{"name": "Ana Lima"}]},
        {"type": "Former members", "members": [{"name": "Bo Chen", "position": "Postdoc",
                                                 "current_position": "Lecturer, Example College"}]},
    ]
    papers = [{"year": 2022, "papers": [{"title": "Quiet Rooms", "authorLine": "Lima, A., Chen, B."}]}]
    assert _records(people, "people") == [
        Member(name="Ana Lima", role="PhD Students"),
        Member(name="Bo Chen", role="Alumni (Postdoc; now Lecturer, Example College)"),
    ]
    assert _records(papers, "publications") == [
        Paper(title="Quiet Rooms", authors=("Lima, A.", "Chen, B."), year=2022)
    ]


def test_people_keyed_by_id_flags_and_roles_written_beside_the_name() -> None:
    data = {
        "alima": {"display_name": "Dr. Ana Lima", "role": "pi"},
        "bchen": {"display_name": "Bo Chen (MSc Student)", "alumni": True, "next": "PhD at Example University"},
        "cdiaz": {"first_name": "Carla", "last_name": "Diaz", "status": "PhD student", "current": False},
    }
    assert _records(data, "team") == [
        Member(name="Ana Lima", role="pi"),
        Member(name="Bo Chen", role="Alumni (MSc Student; next PhD at Example University)"),
        Member(name="Carla Diaz", role="Alumni (PhD student)"),
    ]


def test_a_membership_field_naming_alumni_makes_an_alumnus() -> None:
    data = [
        {"name": "Owen Tiller", "position": "Postdoctoral Researcher", "type": "current"},
        {"name": "Dara Flint", "position": "PhD Student", "type": "alumni", "current_position": "Nimbus Labs"},
        {"name": "Eli Sato", "title": "MS Student", "status": "former member"},
    ]
    assert _records(data, "team") == [
        Member(name="Owen Tiller", role="Postdoctoral Researcher"),
        Member(name="Dara Flint", role="Alumni (PhD Student; now Nimbus Labs)"),
        Member(name="Eli Sato", role="Alumni (MS Student)"),
    ]


def test_a_person_with_a_field_saying_where_they_went_is_a_former_member_in_any_group() -> None:
    # The group's label is in another language ("Antiguos miembros"); that they left is in their fields.
    data = {"groups": [{"label": "Antiguos miembros", "people": [
        {"name": "Rosa Cifuentes", "role": "PhD student", "period": "2016-2021",
         "now": "Assistant Professor, Sierra Alta University"},
        {"name": "Ivo Medina", "role": "Research Assistant", "placement": "UX Researcher, Bluefin"},
    ]}, {"label": "Doctorandos", "people": [{"name": "Ana Ferro", "role": "PhD student", "since": 2020}]}]}
    assert _records(data, "members") == [
        Member(name="Rosa Cifuentes", role="Alumni (PhD student; now Assistant Professor, Sierra Alta University)"),
        Member(name="Ivo Medina", role="Alumni (Research Assistant; now UX Researcher, Bluefin)"),
        Member(name="Ana Ferro", role="PhD student"),
    ]


def test_a_work_titled_by_its_headline_with_a_byline_is_a_paper() -> None:
    data = [
        {"yr": 2025, "headline": "Gender cues in bilingual reading", "byline": "Ferro, A., & Lasa, G.",
         "published_in": "PsyArXiv (preprint)"},
        {"yr": 2024, "headline": "Agreement attraction in relative clauses", "creators": ["Ivo Medina", "Ana Ferro"],
         "published_in": "Journal of Sentence Processing"},
    ]
    assert [(p.title, p.authors, p.venue, p.year) for p in _records(data, "papers")] == [
        ("Gender cues in bilingual reading", ("Ferro, A.", "Lasa, G."), "PsyArXiv (preprint)", 2025),
        ("Agreement attraction in relative clauses", ("Ivo Medina", "Ana Ferro"), "Journal of Sentence Processing",
         2024),
    ]


def test_where_an_alumnus_went_is_read_from_a_free_field_that_says_now() -> None:
    data = [
        {"name": "Dr. Mira Castellanos", "duration": "PhD (2020-2025)", "info": "now Research Scientist at Halcyon"},
        {"name": "Tom Oduya", "info": "Currently: PhD student at Example University."},
        {"name": "Lia Berg", "duration": "BSc (2022)", "info": "Thesis on river sediments"},
    ]
    assert _records(data, "alumni_members") == [
        Member(name="Mira Castellanos", role="Alumni (PhD (2020-2025); now Research Scientist at Halcyon)"),
        Member(name="Tom Oduya", role="Alumni (now PhD student at Example University)"),
        Member(name="Lia Berg", role="Alumni (BSc (2022))"),
    ]


def test_a_file_of_the_lab_s_details_beside_its_members_reads_every_member_and_not_the_lab() -> None:
    # A schema's next version: the section code moves from "role" to "group", years and contacts nest.
    first = {"lab": {"name": "Quarry Lab", "institution": "Westmarch University", "email": "lab@westmarch.example"},
             "members": [{"fullName": "Ines Okoro", "title": "Associate Professor of Geology", "role": "pi"},
                         {"fullName": "Tomas Reyes", "title": "Postdoctoral Researcher", "role": "postdoc"}]}
    second = {"lab": {"name": "Quarry Lab", "institution": "Westmarch University"},
              "meta": {"updated": "2025-04-11", "schema": 2},
              "members": [{"fullName": "Ines Okoro", "title": "Associate Professor of Geology", "group": "pi",
                           "years": {"from": 2017}, "contact": {"email": "i.okoro@westmarch.example"}},
                          {"fullName": "Tomas Reyes", "title": "Postdoctoral Researcher", "group": "postdoc",
                           "years": {"from": 2021}, "contact": {"email": "t.reyes@westmarch.example"}}]}
    expected = [Member(name="Ines Okoro", role="Associate Professor of Geology"),
                Member(name="Tomas Reyes", role="Postdoctoral Researcher")]
    assert _records(first, "people") == expected
    assert _records(second, "people") == expected


def test_role_codes_read_as_the_words_the_theme_s_labels_file_gives_them() -> None:
    files = {
        "_data/types.yaml": "principal-investigator:\n  icon: fa-microscope\n  description: Principal Investigator\n"
        "phd:\n  icon: fa-cap\n  description: PhD Student\npostdoc:\n  description: Postdoctoral Researcher\n"
        "github:\n  icon: fa-github\n",
        "_data/team.yaml": "- name: Ngozi Okafor\n  role: principal-investigator\n- name: Ana Petrova\n  role: phd\n"
        "  group: alum\n- name: Theo Park\n  role: postdoc\n",
    }
    members = [r for r in read_data_files(files).records if isinstance(r, Member)]
    assert members == [
        Member(name="Ngozi Okafor", role="Principal Investigator"),
        Member(name="Ana Petrova", role="Alumni (PhD Student)"),
        Member(name="Theo Park", role="Postdoctoral Researcher"),
    ]


def test_an_owner_profile_gives_the_position_held_when_no_list_of_positions_does() -> None:
    profile = {"name": "Mira Okafor", "position": "PhD Candidate", "affiliation": "Lakeshore University",
               "email": "mira@example.edu", "bio": "I study snowmelt and alpine streams."}
    assert read_data_files({"data/profile.json": json.dumps(profile)}).records == [
        Role(title="PhD Candidate", organization="Lakeshore University")
    ]
    nested = {"site": {"title": "Mira's page"}, "about": {"name": "Mira Okafor", "title": "Assistant Professor"}}
    assert read_data_files({"data/home.json": json.dumps(nested)}).records == [Role(title="Assistant Professor")]
    # A site title beside a name is no position; a list of positions says more than a profile.
    assert read_data_files({"data/site.json": json.dumps({"name": "Mira Okafor", "title": "Notes"})}).records == []
    jobs = {"name": "Mira Okafor", "position": "Assistant Professor",
            "experience": [{"position": "Assistant Professor", "org": "Lakeshore University", "period": "2025 -"}]}
    assert read_data_files({"data/cv.json": json.dumps(jobs)}).records == [
        Role(title="Assistant Professor", organization="Lakeshore University", start="2025")
    ]


def test_a_role_change_is_one_modified_member() -> None:
    before = _records([{"name": "Ana Lima", "position": "PhD Student"}], "people")
    after = _records([{"name": "Ana Lima", "position": "Postdoc"}], "people")
    assert before[0].key == after[0].key
    result = diff_items([StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in before], after)
    assert [(c.change, c.kind, c.key) for c in result.changes] == [("modified", "member", before[0].key)]


def test_news_markup_is_plain_text_and_dates_are_read_in_any_form() -> None:
    data = [
        {"time": "2016-12-8", "content": "Our paper <strong>Tidal Nets</strong> is out &amp; online!"},
        {"date": "Apr 2024", "headline": "See [the slides](https://example.org/s.pdf) from our **tutorial**"},
    ]
    assert _records(data, "news") == [
        NewsItem(text="Our paper Tidal Nets is out & online!", date="2016-12-08"),
        NewsItem(text="See the slides from our tutorial", date="2024-04"),
    ]


def test_one_record_per_file_when_its_folder_names_the_kind() -> None:
    files = {
        "_data/publications/2024-05-01-lima.yml": "title: Echoes\nauthors: Lima A, Chen B\njournal: JASA\n"
        "date: 2024-05-01\ntext: https://doi.org/10.1121/1.0001\n",
        "_data/site.yml": "title: Acoustics Lab\nauthor: Ana Lima\nurl: https://lab.example.org\n",
    }
    assert read_data_files(files).records == [
        Paper(title="Echoes", authors=("Lima A", "Chen B"), venue="JASA", year=2024,
              url="https://doi.org/10.1121/1.0001", doi="10.1121/1.0001")
    ]


@pytest.mark.parametrize(
    ("path", "text", "message"),
    [
        ("data/people.json", '[{"name": "Ana Lima",}]', r"data/people\.json: malformed JSON at line 1, column 22"),
        ("_data/news.yml", "- date: 2024\n  text: [unclosed\n", r"_data/news\.yml: malformed YAML at line 3"),
        ("content/awards.toml", "[[awards]]\ntitle = \n", r"content/awards\.toml: malformed TOML"),
    ],
)
def test_a_malformed_file_is_an_error_that_names_it(path: str, text: str, message: str) -> None:
    with pytest.raises(ExtractionError, match=message):
        load_data(path, text)
    bundle = Document(url="github:o/r", files={path: text, "data/team.json": '[{"name": "Bo Chen", "role": "PI"}]'})
    with pytest.raises(ExtractionError, match=message):
        extract_records(bundle)


def test_templates_that_look_like_data_are_skipped() -> None:
    feed = '---\nlayout: null\n---\n[{% for post in site.posts %}{"title": "{{ post.title }}"}{% endfor %}]'
    assert load_data("feed.json", feed) is None
    assert read_data_files({"feed.json": feed, "data/team.json": '[{"name": "Bo Chen", "role": "PI"}]'}).records == [
        Member(name="Bo Chen", role="PI")
    ]


def test_a_huge_file_is_read_up_to_the_bound_and_says_so() -> None:
    people = [{"name": f"Person {i}", "role": "Member"} for i in range(MAX_ENTRIES + 500)]
    reading = read_data_files({"data/people.json": json.dumps(people)})
    assert len(reading.records) == MAX_ENTRIES
    assert reading.truncated
    assert any(f"cut short after {MAX_ENTRIES} entries" in report.why for report in reading.lists)


# ------------------------------------------------------------------ whole checks


def _watcher(tmp_path: Path, *args: str) -> str:
    from watcher.cli import main

    config = tmp_path / "config.yaml"
    if not config.exists():
        config.write_text("fetch: {host_delay: 0, retries: 0}\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["--db", f"sqlite:///{tmp_path / 'w.db'}", "--config", str(config), *args])
    assert code == 0, args
    return out.getvalue()


@pytest.fixture
def repository(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    fake = FakeGitHub("tidepool", "website", {})
    with serve(fake.api_app()) as api, serve(fake.raw_app()) as raw:
        monkeypatch.setenv("WATCHER_GITHUB_API", api)
        monkeypatch.setenv("WATCHER_GITHUB_RAW", raw)
        yield fake


PEOPLE = [{"type": "Current Members", "members": [{"name": "Ana Lima", "position": "PhD Student"},
                                                  {"name": "Bo Chen", "position": "Postdoc"}]}]
PAPERS = [{"title": "Tidal Nets", "authors": "Ana Lima and Bo Chen", "venue": "arXiv preprint", "year": 2025}]
SITE = {
    "package.json": '{"name": "site", "dependencies": {"vite": "^5"}}',
    "src/data/people.json": json.dumps(PEOPLE),
    "src/data/publications.json": json.dumps(PAPERS),
}


def _changes(tmp_path: Path) -> list[tuple[str, str, str]]:
    _watcher(tmp_path, "check")
    found = json.loads(_watcher(tmp_path, "diff", "--format", "json"))
    return sorted((c["change"], c["kind"], c["item"].get("name") or c["item"].get("title")) for c in found)


def test_a_repository_of_json_data_is_read_item_by_item(tmp_path: Path, repository: FakeGitHub) -> None:
    repository.set_files(SITE)
    _watcher(tmp_path, "add", "github:tidepool/website", "--no-probe")
    assert _changes(tmp_path) == []  # the first check is the baseline
    shown = json.loads(_watcher(tmp_path, "show", "github:tidepool/website", "--format", "json"))
    assert shown["extractor"] == "data"
    assert len(shown["items"]) == 3

    people = [{"type": "Current Members", "members": [{"name": "Ana Lima", "position": "Postdoc"}]},
              {"type": "Past Members", "members": [{"name": "Bo Chen", "position": "Postdoc"}]}]
    papers = [*PAPERS, {"title": "Reef Echoes", "authors": "Bo Chen", "journal": "JASA", "year": 2025}]
    repository.set_files({**SITE, "src/data/people.json": json.dumps(people),
                          "src/data/publications.json": json.dumps(papers)})
    assert _changes(tmp_path) == [
        ("added", "paper", "Reef Echoes"),
        ("modified", "member", "Ana Lima"),
        ("modified", "member", "Bo Chen"),
    ]


def test_a_broken_data_file_fails_the_check_and_loses_nothing(tmp_path: Path, repository: FakeGitHub) -> None:
    repository.set_files(SITE)
    _watcher(tmp_path, "add", "github:tidepool/website", "--no-probe")
    _changes(tmp_path)
    repository.set_files({**SITE, "src/data/people.json": json.dumps(PEOPLE)[:-3]})
    assert _changes(tmp_path) == []  # no "removed" for the people of the broken file
    listed = _watcher(tmp_path, "list")
    assert "error" in listed and "src/data/people.json: malformed JSON at line 1" in listed
    shown = json.loads(_watcher(tmp_path, "show", "github:tidepool/website", "--format", "json"))
    assert len(shown["items"]) == 3

    fixed = [*PAPERS, {"title": "Reef Echoes", "authors": "Bo Chen", "journal": "JASA", "year": 2025}]
    repository.set_files({**SITE, "src/data/publications.json": json.dumps(fixed)})
    assert _changes(tmp_path) == [("added", "paper", "Reef Echoes")]


@pytest.mark.parametrize("content_type", ["application/json", "text/plain; charset=utf-8"])
def test_a_page_served_as_json_is_read_through_the_url_path(tmp_path: Path, content_type: str) -> None:
    site = StaticSite({"/api/team": Page(json.dumps({"people": PEOPLE}), content_type=content_type)})
    with serve(site.app()) as base:
        extracted = json.loads(_watcher(tmp_path, "extract", f"{base}/api/team", "--format", "json"))
        assert extracted["extractor"] == "data"
        assert [(i["kind"], i["name"], i["role"]) for i in extracted["items"]] == [
            ("member", "Ana Lima", "PhD Student"),
            ("member", "Bo Chen", "Postdoc"),
        ]
        _watcher(tmp_path, "add", f"{base}/api/team", "--no-probe")
        assert _changes(tmp_path) == []
        site.set("/api/team", Page(json.dumps({"people": [*PEOPLE, {"name": "Carla Diaz", "role": "Intern"}]}),
                                   content_type=content_type))
        assert _changes(tmp_path) == [("added", "member", "Carla Diaz")]


def test_titles_under_name_nested_names_and_cms_wrapped_entries() -> None:
    papers = {"items": [{"name": "Sound Maps of Coral Reefs", "authors": "Ana Lima and Bo Chen", "year": 2024},
                        {"name": "Quiet Rooms", "authors": ["Bo Chen"], "year": 2023}]}
    people = {"items": [{"name": {"first": "Ana", "last": "Lima"}, "role": "PhD Student"}]}
    cms = {"data": [{"id": 7, "attributes": {"title": "Reef Echoes", "authors": "Bo Chen", "journal": "JASA"}}]}
    assert _records(papers) == [
        Paper(title="Sound Maps of Coral Reefs", authors=("Ana Lima", "Bo Chen"), year=2024),
        Paper(title="Quiet Rooms", authors=("Bo Chen",), year=2023),
    ]
    assert _records(people) == [Member(name="Ana Lima", role="PhD Student")]
    assert _records(cms) == [Paper(title="Reef Echoes", authors=("Bo Chen",), venue="JASA")]


def test_yaml_aliases_nesting_one_object_many_times_stay_bounded() -> None:
    lines = ['a0: &a0 {name: "Ana Lima", role: "PhD Student"}']
    lines += [f"a{i}: &a{i} {{{', '.join(f'k{j}: *a{i - 1}' for j in range(9))}}}" for i in range(1, 10)]
    reading = read_data_files({"data/people.yml": "\n".join(lines) + "\n"})
    assert reading.truncated
    assert len(reading.records) <= MAX_ENTRIES


def test_a_resume_s_references_projects_and_skills_are_not_people_and_an_open_range_is_a_start() -> None:
    resume = {
        "work": [{"name": "Acme University", "position": "Assistant Professor", "startDate": "2023-09-01"}],
        "education": [{"institution": "Hillcrest University", "studyType": "PhD", "year": "2018 - "}],
        "references": [{"name": "John Smith", "reference": "A pleasure to work with."}],
        "projects": [{"name": "Tidal Nets", "description": "A toolkit."}],
        "skills": [{"name": "Python", "keywords": ["numpy"]}],
        "people": [{"name": "Ana Lima", "role": "PhD student"}],
    }
    assert _records(resume, "resume") == [
        Role(title="Assistant Professor", organization="Acme University", start="2023-09-01"),
        Role(title="PhD", organization="Hillcrest University", start="2018"),
        Member(name="Ana Lima", role="PhD student"),
    ]


def test_a_paper_s_status_field_stays_with_its_venue_so_publication_is_a_modified_paper() -> None:
    before = _records(
        [
            {"title": "Tidal Nets", "authors": "Ana Lima, Bo Chen", "journal": "Coastal Dynamics",
             "status": "In press"},
            {"title": "Salt Wedges", "authors": "Bo Chen", "pubinfo": "Estuaries 45(2), 1-12", "year": "forthcoming"},
            {"title": "Quiet Rooms", "authors": "Ana Lima", "venue": "Acoustics Letters", "year": 2021,
             "note": "Best paper runner-up"},
        ],
        "publications",
    )
    before = [r for r in before if isinstance(r, Paper)]
    assert [p.venue for p in before] == ["Coastal Dynamics, In press", "Estuaries 45(2), 1-12, forthcoming",
                                         "Acoustics Letters"]
    after = _records([{"title": "Tidal Nets", "authors": "Ana Lima, Bo Chen", "journal": "Coastal Dynamics",
                       "year": 2026}], "publications")
    result = diff_items([StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in before[:1]], after)
    assert [(c.change, c.after["venue"] if c.after else None) for c in result.changes] == [
        ("modified", "Coastal Dynamics")
    ]


def test_a_status_with_the_journal_it_stands_at_is_the_venue_and_its_change_is_told() -> None:
    def venue(status: str) -> list[Paper]:
        return _records([{"title": "Algorithmic Matching at Work", "authors": "E. Varga", "status": status}],
                        "publications")

    before, after = venue("under review"), venue("revise and resubmit at American Sociological Review")
    assert after[0].venue == "revise and resubmit at American Sociological Review"
    result = diff_items([StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in before], after)
    assert [c.change for c in result.changes] == ["modified"]


def test_a_rank_beside_a_part_in_the_lab_is_part_of_the_role() -> None:
    people = {"people": [
        {"name": "Karin Holm", "role": "Principal Investigator", "position": "Associate Professor"},
        {"name": "Ola Berg", "role": "PhD Student", "title": "Mr."},
    ]}
    members = [r for r in read_data(people, "people.yml").records if isinstance(r, Member)]
    assert [(m.name, m.role) for m in members] == [
        ("Karin Holm", "Associate Professor, Principal Investigator"),  # a promotion edits the rank only
        ("Ola Berg", "PhD Student"),
    ]


def test_a_working_paper_s_status_with_its_journal_is_its_venue() -> None:
    papers = {"working_papers": [
        {"title": "Platform work as a stepping stone", "status": "Revise and resubmit, *Work and Society*"},
    ]}
    (paper,) = [r for r in read_data(papers, "publications.yml").records if isinstance(r, Paper)]
    assert paper.venue is not None and paper.venue.startswith("Revise and resubmit")
    assert "Work and Society" in paper.venue


def test_a_paper_s_location_is_its_venue_but_a_city_is_not() -> None:
    data = [
        {"title": "Sage Graphs", "authors": "Ana Lima and Bo Chen", "location": "To appear in VLDB 2026"},
        {"title": "Batch Trees", "authors": "Ana Lima", "location": "SODA 2025"},
        {"title": "Tidal Nets", "authors": "Bo Chen", "location": "Vienna, Austria"},
    ]
    assert [r.venue for r in read_data(data, "_data/papers.yaml").records if isinstance(r, Paper)] == [
        "To appear in VLDB 2026", "SODA 2025", None
    ]


def test_a_paper_s_awards_given_as_a_list_are_awards() -> None:
    data = [{"title": "Haptic Breadcrumbs", "authors": ["Ana Lima"], "venue": "HCIS 2025", "year": 2025,
             "awards": ["Best Paper Award"]}]
    assert [r for r in read_data(data, "src/data/publications.json").records if isinstance(r, Award)] == [
        Award(title="Best Paper Award", organization="HCIS 2025", year=2025)
    ]


def test_a_paper_s_note_that_names_an_award_is_an_award_and_other_notes_are_not() -> None:
    data = [{"title": "Creaky Voice on Radio", "authors": "Brennan, A.", "venue": "AMLV 2025", "year": 2025,
             "note": "Outstanding Student Paper Award, AMLV 2025"},
            {"title": "Vowel Merger in Progress", "authors": "Heikki, S.", "venue": "Socio Q", "year": 2025,
             "note": "Equal contribution"}]
    awards = [r for r in read_data(data, "_data/pubs.yml").records if isinstance(r, Award)]
    assert [a.title for a in awards] == ["Outstanding Student Paper Award, AMLV 2025"]


def test_a_resume_s_volunteer_list_is_service_not_positions() -> None:
    resume = {"work": [{"name": "Aarvik University", "position": "Assistant Professor", "startDate": "2025-09-01"}],
              "volunteer": [{"organization": "CELP", "position": "Area Chair", "startDate": "2024-01-01"},
                            {"organization": "MultiEval Workshop", "position": "Co-organizer"}]}
    roles = [r for r in read_data(resume, "assets/json/resume.json").records if isinstance(r, Role)]
    assert [(r.title, r.organization) for r in roles] == [("Assistant Professor", "Aarvik University")]


def test_a_chapter_s_venue_is_its_book_not_its_press() -> None:
    chapters = {"book_chapters": [
        {"title": "Care workers and the welfare state", "book": "Handbook of Welfare States",
         "publisher": "Kestrel Academic", "year": 2023},
    ]}
    (paper,) = [r for r in read_data(chapters, "publications.yml").records if isinstance(r, Paper)]
    assert paper.venue == "Handbook of Welfare States"  # so renaming "book" to "venue" changes nothing


def test_a_publication_file_s_group_labels_are_not_works_and_its_venue_fields_are_read() -> None:
    data = {
        "typeOrder": [{"key": "book", "title": "Monographs"}, {"key": "chapter", "title": "Book Chapters"}],
        "items": [
            {"type": "chapter", "title": "Rain Diaries of a River Town", "authors": ["Ana Lind"], "year": 2024,
             "container": "Climate and Society in Early Modern Europe", "publisher": "Palgrave"},
            {"title": "Ledgers of the Salt Trade", "authors": ["Ana Lind"], "year": 2022,
             "in": {"title": "Trade and Empire", "editors": "B. Roe"}},
            {"type": "dataset", "title": "TIDE-1703: Digitised Harbour Logs", "authors": ["Ana Lind"], "year": 2023,
             "repository": "Zenodo"},
            {"type": "software", "title": "logtagger: Tagging Harbour Logs", "authors": ["Ana Lind"], "year": 2021,
             "repository": "https://github.com/alind/logtagger"},
        ],
    }
    papers = [r for r in read_data(data, "publications.json").records if isinstance(r, Paper)]
    assert [(p.title, p.venue) for p in papers] == [
        ("Rain Diaries of a River Town", "Climate and Society in Early Modern Europe"),
        ("Ledgers of the Salt Trade", "Trade and Empire"),
        ("TIDE-1703: Digitised Harbour Logs", "Zenodo"),
        ("logtagger: Tagging Harbour Logs", None),
    ]


def test_news_whose_fields_have_names_of_the_site_s_own_are_read_by_their_values() -> None:
    updates = """
- on: 2024-08-19
  tag: paper
  blurb: "Three new papers this month, on soil viruses, nitrous oxide and drought."
- on: 2024-08-01
  tag: people
  blurb: "Vitória Sampaio starts her MSc on mycorrhizal inoculants."
"""
    news = [r for r in read_data(yaml.safe_load(updates), "_data/updates.yml").records if isinstance(r, NewsItem)]
    assert [(n.date, n.text[:24]) for n in news] == [
        ("2024-08-19", "Three new papers this mo"),
        ("2024-08-01", "Vitória Sampaio starts h"),
    ]


def test_a_news_item_with_a_headline_is_told_by_it() -> None:
    items = {"items": [
        {"published": "2025-03-01", "title": "Katharina elected Vice-Dean", "text": "Katharina starts as Vice-Dean."},
        {"published": "2025-02-03", "title": "Welcome Tobias!", "text": "Tobias Gruber joins the lab."},
        {"published": "2025-01-10", "title": "Paper out", "text": "Paper out in Past & Present."},
    ]}
    news = [r for r in read_data(items, "news.json").records if isinstance(r, NewsItem)]
    assert [n.text for n in news] == ["Katharina elected Vice-Dean", "Welcome Tobias!", "Paper out"]


def test_a_current_student_s_degree_field_names_the_role() -> None:
    people = {"students": [
        {"name": "Ruby Kaur", "degree": "Honours", "start": 2023},
        {"name": "Tom Vale", "degree": "PhD", "start": 2022},
        {"name": "Ana Lima", "degree": "Cognitive Science", "start": 2021},
    ]}
    members = [r for r in read_data(people, "_data/members.yml").records if isinstance(r, Member)]
    assert [(m.name, m.role) for m in members] == [
        ("Ruby Kaur", "Honours student"), ("Tom Vale", "PhD student"), ("Ana Lima", "Students")
    ]


def test_a_funding_file_s_entries_are_awards_named_by_what_they_are() -> None:
    funding = [
        {"what": "Thematic Project on soil carbon", "funder": "FAPESP", "ref": "2024/50112-3", "period": "2025–2030"},
        {"what": "Research Productivity Fellowship", "funder": "CNPq", "period": "2021–2024", "kind": "fellowship"},
    ]
    awards = [r for r in read_data(funding, "_data/funding.yml", "funding").records if isinstance(r, Award)]
    assert [(a.title, a.organization, a.year) for a in awards] == [
        ("Thematic Project on soil carbon", "FAPESP", 2025),
        ("Research Productivity Fellowship", "CNPq", 2021),
    ]


def test_degrees_in_brackets_after_a_name_are_not_the_member_s_role() -> None:
    people = {"pi": [{"name": "Prof. Narges Lind (Ph.D., P.Eng.)", "email": "nl@example.edu"}],
              "students": [{"name": "Ana Ruiz (PhD Student)"}]}
    members = [r for r in read_data(people, "_data/team.yml").records if isinstance(r, Member)]
    assert [(m.name, m.role) for m in members] == [("Narges Lind", "PI"), ("Ana Ruiz", "PhD Student")]


def test_a_bilingual_site_s_texts_are_read_once_in_english() -> None:
    people = json.dumps({"people": [
        {"id": "oshiro-rin", "nameJa": "大城 凛", "nameEn": "Rin Oshiro", "group": "doctoral",
         "position": {"ja": "博士後期課程", "en": "Doctoral Student"}},
        {"id": "kamiya-sho", "nameJa": "神谷 翔", "nameEn": "Sho Kamiya", "group": "masters",
         "position": {"ja": "博士前期課程", "en": "Master's Student"}},
    ]}, ensure_ascii=False)
    news = "- date: 2025-02-03\n  fr: \"Rin Oshiro a soutenu sa thèse de doctorat, bravo à elle!\"\n" \
           "  en: \"Rin Oshiro defended her doctoral thesis, congratulations!\"\n"
    records = read_data_files({"public/data/people.json": people, "_data/news.yml": news}).records
    assert sorted((m.name, m.role) for m in records if isinstance(m, Member)) == [
        ("Rin Oshiro", "Doctoral Student"), ("Sho Kamiya", "Master's Student"),
    ]
    assert [n.text for n in records if isinstance(n, NewsItem)] == [
        "Rin Oshiro defended her doctoral thesis, congratulations!"
    ]
    # One language alone is no bilingual text: a lone "es" key keeps its name.
    assert load_data("x.json", '{"es": "solo", "name": "Ana"}') == {"es": "solo", "name": "Ana"}


def test_a_cv_entry_whose_description_holds_a_labelled_line_is_still_one_position() -> None:
    cv = """- title: Experience
  type: time_table
  contents:
    - title: Graduate Research Assistant
      institution: Robotics Institute, Carrow Institute of Technology
      year: 2020 - present
      description:
        - Tactile sensing for contact-rich manipulation
        - Advisor: Prof. Hanna Kell
    - title: Research Intern
      institution: Northlight Robotics
      year: 2024
"""
    records = read_data_files({"_data/cv.yml": cv}).records
    assert [(r.title, r.organization) for r in records if isinstance(r, Role)] == [
        ("Graduate Research Assistant", "Robotics Institute, Carrow Institute of Technology"),
        ("Research Intern", "Northlight Robotics"),
    ]


def test_a_news_list_s_dates_put_the_day_first_where_one_shows_it() -> None:
    news = """- date: 02/09/2024
  headline: Welcome to our four new students, who join the lab this fall.
- date: 15/03/2024
  headline: Our paper on cell extrusion is out in Nature Physics.
- date: 04/05/2024
  headline: Kwame joins the lab as a postdoctoral researcher.
"""
    records = read_data_files({"_data/news.yml": news}).records
    assert [n.date for n in records if isinstance(n, NewsItem)] == ["2024-09-02", "2024-03-15", "2024-05-04"]
