"""Removals the page contradicts: an item whose words the page still shows is kept, not removed."""

from __future__ import annotations

from watcher.diff import DiffResult, ItemChange
from watcher.records import Document
from watcher.shown import keep_shown_items, shown_text, without_read_anew, without_reader_differences


def _removed(kind: str, **fields: str) -> ItemChange:
    return ItemChange(change="removed", kind=kind, key=f"{kind}:x", before=fields)


def test_the_words_a_page_shows_leave_out_scripts_and_repository_comments() -> None:
    html = """<html><body><p>Our paper <b>Tidal Nets for Estuary Mapping</b> is out.</p>
    <script>var old = "Salt Wedges Under Summer Drought";</script></body></html>"""
    text = shown_text(Document(url="https://example.org/", text=html))
    assert " tidal nets for estuary mapping " in text
    assert "salt wedges" not in text
    bundle = Document(url="github:lab/site", files={
        "_bibliography/papers.bib": "@article{a, title={{B}ayesian Tides in Narrow Channels}}",
        "_pages/about.md": "<!-- Quiet Rooms and Their Echoes -->\nWelcome.",
    })
    text = shown_text(bundle)
    assert " bayesian tides in narrow channels " in text
    assert "quiet rooms" not in text


def test_only_removals_of_long_enough_labels_still_shown_are_kept() -> None:
    changes = (
        _removed("paper", title="Tidal Nets for Estuary Mapping"),
        _removed("paper", title="Salt Wedges Under Summer Drought"),
        _removed("paper", title="Tides"),  # too short to be the item's own words
        _removed("member", name="Ana Lima"),  # in a repository a name outlives its entry in author lists
        ItemChange(change="added", kind="paper", key="paper:y", after={"title": "Tidal Nets for Estuary Mapping"}),
    )
    shown = " our paper tidal nets for estuary mapping is out by ana lima on tides "
    result, kept = keep_shown_items(DiffResult(changes=changes, suspect=None, unchanged=3), shown, members=False)
    assert [(c.change, c.before or c.after) for c in result.changes] == [
        (c.change, c.before or c.after) for c in changes[1:]
    ]
    assert kept == {("paper", "paper:x")}
    assert result.unchanged == 4


def test_a_current_position_the_reworded_biography_still_names_is_not_removed() -> None:
    shown = shown_text(Document(url="https://example.org/", text="""<html><body><p>I am a PhD student
        advised by Rosa Vidal and just started my third year. I work at <a href="#">Northfield University</a>
        and teach there. I was a visiting researcher at Lund University in 2022.</p></body></html>"""))
    reworded = _removed("role", title="PhD student", organization="Northfield University")
    left = _removed("role", title="PhD student", organization="Southbay College")  # the page names it no more
    vague = _removed("role", title="Researcher", organization="Northfield University")  # one word is in any bio
    ended = _removed("role", title="Visiting researcher", organization="Lund University", end="2022")
    changes = (reworded, left, vague, ended)
    result, kept = keep_shown_items(DiffResult(changes=changes, suspect=None, unchanged=0), shown, members=True)
    assert result.changes == (left, vague, ended)
    assert len(kept) == 1


def test_a_member_a_redesigned_page_still_names_is_not_removed() -> None:
    # The people list became a table the reader does not follow; the names are all still there.
    shown = shown_text(Document(url="https://example.org/people", text="""<html><body><table>
        <tr><td>Ana Lima</td><td>Postdoc</td></tr><tr><td>Bo Chen</td><td>PhD student</td></tr>
        </table></body></html>"""))
    stayed = _removed("member", name="Ana Lima", role="Postdoc")
    left = _removed("member", name="Cara Diaz", role="PhD student")
    alone = _removed("member", name="Chen")  # one word is not a person's own
    changes = (stayed, left, alone)
    result, kept = keep_shown_items(DiffResult(changes=changes, suspect=None, unchanged=0), shown, members=True)
    assert result.changes == (left, alone)
    assert kept == {("member", "member:x")}
    # A repository's files name members in every author list: there the diff decides.
    assert keep_shown_items(DiffResult(changes=changes, suspect=None, unchanged=0), shown, members=False)[1] == set()


def _added(kind: str, **fields: str) -> ItemChange:
    return ItemChange(change="added", kind=kind, key=f"{kind}:{sorted(fields.values())}", after=fields)


def test_several_additions_the_page_showed_before_are_a_list_read_anew() -> None:
    shown_before = " members are ana lima bo chen and cara diaz with dev rao our paper tidal nets for estuary mapping "
    people = [_added("member", name=n) for n in ("Ana Lima", "Bo Chen", "Cara Diaz", "Eli Moss")]
    paper = _added("paper", title="Tidal Nets for Estuary Mapping")
    result = without_read_anew(DiffResult(changes=(*people, paper), suspect=None, unchanged=0), shown_before)
    # Three members the page named before are read anew; the new one and the lone paper are told.
    assert [c.after for c in result.changes] == [{"name": "Eli Moss"}, {"title": "Tidal Nets for Estuary Mapping"}]
    assert result.unchanged == 3
    assert result.reformatted == "read anew: 3 members already on the page last time"
    # Two are not enough: a news line may name people before the list does.
    pair = DiffResult(changes=tuple(people[:2]), suspect=None, unchanged=0)
    assert without_read_anew(pair, shown_before) is pair


def test_a_new_reader_s_values_the_old_page_showed_are_its_difference_but_a_lone_year_is_news() -> None:
    before = " cv ines amaro ph d expected may 2024 graduate teaching fellow 2019 present published in ecology letters "
    venue = ItemChange(change="modified", kind="paper", key="paper:x", before={"title": "Tides"},
                       after={"title": "Tides"}, delta={"venue": {"old": None, "new": "Ecology Letters"}})
    ended = ItemChange(change="modified", kind="role", key="role:x", before={"title": "Graduate Teaching Fellow"},
                       after={"title": "Graduate Teaching Fellow"}, delta={"end": {"old": None, "new": "2024"}})
    result = without_reader_differences(DiffResult(changes=(venue, ended), suspect=None, unchanged=0), before, "")
    assert result.changes == (ended,)


def test_an_education_list_read_anew_is_no_news_but_posts_of_two_words_still_are() -> None:
    shown_before = " education phd in atmospheric science 2018 msc in meteorology 2014 bsc in physics 2012 professor "
    degrees = [_added("role", title=t) for t in ("PhD in Atmospheric Science", "MSc in Meteorology", "BSc in Physics")]
    result = without_read_anew(DiffResult(changes=tuple(degrees), suspect=None, unchanged=0), shown_before)
    assert result.changes == ()
    posts = tuple(_added("role", title=t) for t in ("Assistant Professor", "Associate Professor", "Full Professor"))
    short = DiffResult(changes=posts, suspect=None, unchanged=0)
    assert without_read_anew(short, " assistant professor associate professor full professor ") is short
