"""Jekyll data-file reading beyond the recorded cases: list shapes, alumni roles, broken files."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from extractors.data import read_data
from extractors.jekyll_data import JekyllDataExtractor, news_from_post
from extractors.markdown import parse_front_matter
from watcher.errors import ExtractionError
from watcher.records import Document, Member, NewsItem, Paper


def members_from_data(data: Any, label: str) -> list[Member]:
    return [r for r in read_data(data, label, label).records if isinstance(r, Member)]


def papers_from_data(data: Any) -> list[Paper]:
    return [r for r in read_data(data, "data").records if isinstance(r, Paper)]


def test_people_nested_under_group_keys_take_the_group_as_role() -> None:
    data = {"visitors": {"members": [{"name": "Ana Lima", "description": "Optics"}]}}
    assert members_from_data(data, "affil") == [Member(name="Ana Lima", role="Visitors")]


def test_a_student_who_graduates_keeps_the_same_name_and_gets_an_alumni_role() -> None:
    before = members_from_data([{"name": "Ana Lima", "position": "PhD student"}], "students")
    after = members_from_data([{"name": "Ana Lima", "degree": "PhD, 2025", "firstjob": "Scientist, Acme"}], "alumni")
    assert before[0].key == after[0].key
    assert after[0].role == "Alumni (PhD, 2025; Scientist, Acme)"


def test_a_name_field_broken_into_lines_names_the_person_on_its_first_line() -> None:
    name = "Ravi Menon<br>Elm Grove High School<br>Summer Scholars<br/>Since 2023"
    before = members_from_data([{"name": name, "position": "High School Researcher"}], "people")
    after = members_from_data([{"name": name, "position": "alumni"}], "people")
    assert [m.name for m in before + after] == ["Ravi Menon", "Ravi Menon"]
    assert before[0].key == after[0].key


def test_current_false_makes_an_alumnus_even_in_a_student_category() -> None:
    member = members_from_data([{"name": "Bo Li", "category": "Graduate", "current": False, "year": 2021}], "x")[0]
    assert member.role == "Alumni (2021)"


def test_lists_that_are_not_people_or_papers_are_ignored() -> None:
    navigation = [{"title": "Home", "url": "/"}, {"title": "People", "url": "/people/"}]
    courses = [{"name": "CS 101", "code": "101"}]
    assert members_from_data(navigation, "navigation") == []
    assert papers_from_data(navigation) == []
    assert members_from_data(courses, "courses") == []


def test_post_date_from_file_name_and_text_from_title_or_body() -> None:
    titled = news_from_post("_posts/2024-2-5-x.md", "---\ntitle: Grant won\n---\nBody")
    untitled = news_from_post("_posts/2024-02-05-y.md", "---\nlayout: post\n---\nWe moved to **Building 9**.")
    assert (titled.date, titled.text) == ("2024-02-05", "Grant won")
    assert untitled.text == "We moved to Building 9."
    # A draft the site does not publish is not news yet.
    assert news_from_post("_news/2024-03-01-a.md", "---\ntitle: Award won\npublished: false\n---\nSoon") is None
    assert news_from_post("content/post/b.md", "---\ntitle: Award won\ndraft: true\n---\nSoon") is None


def test_broken_data_file_is_an_error_naming_it_and_broken_posts_fail_softly() -> None:
    extractor = JekyllDataExtractor()
    files = {"_data/people.yml": "- name: [unclosed\n  : :", "_posts/x.md": "---\n: [\n---"}
    # A broken data file would read as all its people removed: the check fails instead, naming it.
    with pytest.raises(ExtractionError, match=r"_data/people\.yml: malformed YAML at line \d+"):
        extractor.parse(Document(url="github:o/r", files=files))
    posts_only = extractor.parse(Document(url="github:o/r", files={**files, "_data/people.yml": "- name: Ana Lima"}))
    assert [r.kind for r in posts_only] == ["news", "member"]
    assert extractor.detect(Document(url="github:o/r", files={"README.md": "hi"})) is None
    assert extractor.parse(Document(url="https://x.org/", text="<html></html>")) == []


def test_collections_named_for_a_kind_are_data_lists_of_front_matter() -> None:
    files = {
        "_data/people.yml": "- name: Ana Lima\n  role: PhD Student\n",
        "_people/bchen.md": "---\nname: Bo Chen\nrole: Postdoc\nalum: true\n---\nBo works on sonar.\n",
        "_publications/2024-echoes.md": "---\ntitle: Echoes\nauthors: Ana Lima and Bo Chen\nvenue: JASA\n"
        "date: 2024-05-01\n---\nAbstract.\n",
        "_posts/2024-06-01-welcome.md": "---\ntitle: Welcome Bo\n---\n",
    }
    records = JekyllDataExtractor().parse(Document(url="github:o/r", files=files))
    assert records == [
        Paper(title="Echoes", authors=("Ana Lima", "Bo Chen"), venue="JASA", year=2024),
        NewsItem(text="Welcome Bo", date="2024-06-01"),
        Member(name="Ana Lima", role="PhD Student"),
        Member(name="Bo Chen", role="Alumni (Postdoc)"),
    ]


def test_front_matter_is_yaml_or_toml_and_a_broken_one_keeps_the_body() -> None:
    yaml_page = "\ufeff---\ntitle: Echoes\ndate: 2024-05-01\n---\nBody with a rule\n\n---\n\nmore.\n"
    meta, body = parse_front_matter(yaml_page)
    assert meta == {"title": "Echoes", "date": date(2024, 5, 1)}
    assert body == "Body with a rule\n\n---\n\nmore.\n"
    toml_page = '+++\ntitle = "Sonar"\nauthors = ["Ana Lima", "Bo Chen"]\n+++\nAbstract.\n'
    assert parse_front_matter(toml_page) == ({"title": "Sonar", "authors": ["Ana Lima", "Bo Chen"]}, "Abstract.\n")
    assert parse_front_matter("---\ntitle: [unclosed\n---\nBody.\n") == ({}, "---\ntitle: [unclosed\n---\nBody.\n")
    assert parse_front_matter('+++\ntitle = "open\n+++\nBody.\n') == ({}, '+++\ntitle = "open\n+++\nBody.\n')
    assert parse_front_matter("---\ntitle: never closed\n") == ({}, "---\ntitle: never closed\n")
    assert parse_front_matter("Plain text.") == ({}, "Plain text.")
    assert parse_front_matter("---\n---\n## News\n") == ({}, "## News\n")
