"""Edge cases of the lab extractor beyond its recorded fixture."""

from __future__ import annotations

from extractors.lab import LabExtractor
from watcher.diff import StoredItem, diff_items
from watcher.normalise import normalise_records
from watcher.records import Document, Member, record_fields

PAGE = """<html><body><h1>Reef Lab</h1>
<h2>PhD Students</h2><ul>{students}</ul>
<h2>Alumni</h2><ul>{alumni}</ul>
<footer><p>Copyright 2025 Reef Lab. Last updated today.</p></footer></body></html>"""


def _members(students: str, alumni: str) -> list[Member]:
    doc = Document(url="https://reef.example.edu/", text=PAGE.format(students=students, alumni=alumni))
    return [r for r in normalise_records(LabExtractor().parse(doc)) if isinstance(r, Member)]


def test_student_who_graduates_is_one_modified_member() -> None:
    before = _members("<li><a href='https://x.example/kai'>Kai Moreno</a>, since 2020</li>", "")
    after = _members("", "<li><a href='https://x.example/kai'>Kai Moreno</a> (now Lecturer at Dune College)</li>")
    assert after == [
        Member(name="Kai Moreno", role="Alumni (now Lecturer at Dune College)", url="https://x.example/kai")
    ]
    result = diff_items([StoredItem(kind=m.kind, key=m.key, fields=record_fields(m)) for m in before], after)
    assert [(c.change, c.kind) for c in result.changes] == [("modified", "member")]


def test_lines_that_are_not_people_are_skipped() -> None:
    members = _members("<li>We are always looking for motivated students!</li><li>Ana Ruiz</li>", "")
    assert [m.name for m in members] == ["Ana Ruiz"]


def test_detection_needs_two_people_headings() -> None:
    lab = LabExtractor()
    assert lab.detect(Document(url="https://x.example/", text=PAGE.format(students="", alumni=""))) is not None
    assert lab.detect(Document(url="https://x.example/", text="<h2>Alumni</h2><h2>Publications</h2>")) is None
    assert lab.parse(Document(url="https://x.example/", text="")) == []
