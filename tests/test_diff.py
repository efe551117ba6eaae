"""The diff stage: identity, meaningful changes, fuzzy re-identification and the collapse guard."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

import pytest

from watcher.diff import DiffResult, ItemChange, StoredItem, diff_items, meaningful_delta
from watcher.normalise import normalise_records
from watcher.records import Award, Member, NewsItem, Paper, Record, Role, record_fields


def stored(records: Sequence[Record]) -> list[StoredItem]:
    """What the database would hold after a check that read these records."""
    return [StoredItem(kind=r.kind, key=r.key, fields=record_fields(r)) for r in normalise_records(records)]


def run(before: Sequence[Record], after: Sequence[Record]) -> DiffResult:
    return diff_items(stored(before), normalise_records(after))


def only(result: DiffResult) -> ItemChange:
    assert result.suspect is None
    assert len(result.changes) == 1, result.changes
    return result.changes[0]


def papers(count: int) -> list[Record]:
    return [
        Paper(title=f"Study {n} of tidal sediment transport", authors=("Ines Marlow", f"Coauthor {n}"), year=2024)
        for n in range(count)
    ]


def test_first_check_reports_everything_as_added() -> None:
    result = diff_items([], normalise_records(papers(5)))
    assert result.suspect is None
    assert [c.change for c in result.changes] == ["added"] * 5
    assert result.changes[0].after == record_fields(normalise_records(papers(1))[0])


def test_same_items_report_nothing() -> None:
    result = run(papers(6), papers(6))
    assert result.changes == () and result.unchanged == 6 and result.refreshed == ()


def test_reordering_reports_nothing() -> None:
    items = [*papers(6), NewsItem(date="2026-01-02", text="Welcome, new students")]
    result = run(items, list(reversed(items)))
    assert result.changes == () and result.unchanged == 7


def test_case_punctuation_and_spacing_edits_report_nothing() -> None:
    before = [*papers(4), Paper(title="Wave Models: A Survey", venue="J. Coastal Res.", year=2025)]
    after = [*papers(4), Paper(title="wave models - a  survey.", venue="J Coastal Res", year=2025)]
    result = run(before, after)
    assert result.changes == ()
    # The new spelling is stored quietly, under the same identity.
    [refresh] = result.refreshed
    assert refresh.old_key == refresh.key == "title:wave models a survey"
    assert refresh.fields["venue"] == "J Coastal Res"


def test_a_fixed_title_typo_is_refreshed_quietly_not_removed_and_added() -> None:
    before = [*papers(4), Paper(title="Lagrangian Tracers in Estaury Plumes", venue="GRL 2025")]
    for title in ("Lagrangian Tracers in Estuary Plumes", "Lagrangian Tracers in Estuary-Plumes"):
        result = run(before, [*papers(4), Paper(title=title, venue="GRL 2025")])
        assert result.changes == ()
        [refresh] = result.refreshed
        assert refresh.old_key == "title:lagrangian tracers in estaury plumes"
        assert refresh.fields["title"] == title


def test_a_retitled_paper_is_modified() -> None:
    before = [*papers(4), Paper(title="Lagrangian Tracers in Estuary Plumes", venue="GRL 2025", url="https://x.org/t.pdf")]
    after = [*papers(4), Paper(title="Lagrangian Tracers in River Plumes", venue="GRL 2025", url="https://x.org/t.pdf")]
    change = only(run(before, after))
    assert change.change == "modified"
    assert change.delta == {
        "title": {"old": "Lagrangian Tracers in Estuary Plumes", "new": "Lagrangian Tracers in River Plumes"}
    }


def test_venue_from_arxiv_to_conference_is_modified_with_a_json_delta() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", venue="arXiv", year=2025, arxiv="2503.01234")]
    after = [*papers(4), Paper(title="Sparse Reef Maps", venue="CVPR 2026", year=2026, arxiv="2503.01234")]
    change = only(run(before, after))
    assert change.change == "modified" and change.key == change.old_key == "arxiv:2503.01234"
    assert change.delta == {"venue": {"old": "arXiv", "new": "CVPR 2026"}, "year": {"old": 2025, "new": 2026}}
    assert json.loads(json.dumps(change.delta)) == change.delta
    assert change.before is not None and change.before["venue"] == "arXiv"
    assert change.after is not None and change.after["venue"] == "CVPR 2026"


def test_a_venue_appearing_for_a_preprint_is_modified() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps")]
    after = [*papers(4), Paper(title="Sparse Reef Maps", venue="ECCV 2026")]
    assert only(run(before, after)).delta == {"venue": {"old": None, "new": "ECCV 2026"}}


def test_a_dropped_detail_or_a_venue_typo_fix_reports_nothing() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", venue="Under reveiw", year=2025)]
    assert run(before, [*papers(4), Paper(title="Sparse Reef Maps", venue="Under review", year=2025)]).changes == ()
    assert run(before, [*papers(4), Paper(title="Sparse Reef Maps")]).changes == ()


def test_a_year_added_to_a_venue_badge_reports_nothing() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", venue="ECCV")]
    assert run(before, [*papers(4), Paper(title="Sparse Reef Maps", venue="ECCV 2024")]).changes == ()
    changed = run(before, [*papers(4), Paper(title="Sparse Reef Maps", venue="ECCV 2024 (Oral)")])
    assert only(changed).delta == {"venue": {"old": "ECCV", "new": "ECCV 2024 (Oral)"}}



def test_the_issue_s_month_and_year_added_to_a_journal_report_nothing() -> None:
    before = [*papers(4), Paper(title="Shelf Space and Prices", venue="AEJ: Micro", year=2013)]
    after = [*papers(4), Paper(title="Shelf Space and Prices", venue="AEJ: Micro (November 2013)", year=2013)]
    assert run(before, after).changes == ()


def test_a_preprint_dated_anew_is_no_news_but_a_published_paper_s_year_is() -> None:
    before = [*papers(4), Paper(title="Mixing in Infinite Measure", venue="Preprint, May", year=2025)]
    assert run(before, [*papers(4), Paper(title="Mixing in Infinite Measure", venue="Preprint, May", year=2026)]
               ).changes == ()
    published = [*papers(4), Paper(title="Mixing in Infinite Measure", venue="Ann. Probab.", year=2025)]
    changed = run(published, [*papers(4), Paper(title="Mixing in Infinite Measure", venue="Ann. Probab.", year=2026)])
    assert only(changed).delta == {"year": {"old": 2025, "new": 2026}}


def test_short_venue_words_are_not_typos() -> None:
    assert meaningful_delta("paper", {"title": "T", "venue": "ICCV 2025"}, {"title": "T", "venue": "ECCV 2025"})


def test_paper_gaining_a_doi_changes_key_but_reports_nothing() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", venue="ICLR 2026", url="https://x.example/reef.pdf")]
    after = [*papers(4), Paper(title="Sparse Reef Maps", venue="ICLR 2026", doi="10.5555/Reef.7")]
    result = run(before, after)
    assert result.changes == ()
    [refresh] = result.refreshed
    assert (refresh.old_key, refresh.key) == ("title:sparse reef maps", "doi:10.5555/reef.7")


def test_paper_gaining_a_doi_and_a_venue_is_one_modification() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", arxiv="2503.01234", venue="arXiv")]
    after = [*papers(4), Paper(title="Sparse Reef Maps: Extended", arxiv="2503.01234", doi="10.1/r", venue="TPAMI")]
    change = only(run(before, after))
    assert change.change == "modified"
    assert (change.old_key, change.key) == ("arxiv:2503.01234", "doi:10.1/r")
    assert set(change.delta or {}) == {"title", "venue"}


def test_an_author_list_change_is_told_only_beside_another_change() -> None:
    base = Paper(title="Sparse Reef Maps", authors=("Ines Marlow", "Pavel Siddharth Orr"))
    respelt = Paper(title="Sparse Reef Maps", authors=("I. Marlow", "Pavel S. Orr"))
    grown = Paper(title="Sparse Reef Maps", authors=("Ines Marlow", "Pavel S. Orr", "Dana Yu"))
    assert run([*papers(4), base], [*papers(4), respelt]).changes == ()
    assert run([*papers(4), base], [*papers(4), grown]).changes == ()
    published = Paper(title="Sparse Reef Maps", authors=grown.authors, venue="Coral Reefs")
    change = only(run([*papers(4), base], [*papers(4), published]))
    assert change.delta == {
        "authors": {"old": list(base.authors), "new": list(grown.authors)},
        "venue": {"old": None, "new": "Coral Reefs"},
    }


def test_reordered_authors_with_a_new_venue_report_the_venue_alone() -> None:
    before = {"title": "Sparse Reef Maps", "authors": ["Ines Marlow", "Pavel Orr", "Dana Yu"], "venue": "arXiv"}
    after = {"title": "Sparse Reef Maps", "authors": ["Dana Yu", "Ines Marlow", "Pavel Orr"], "venue": "CVPR 2027"}
    assert meaningful_delta("paper", before, after) == {"venue": {"old": "arXiv", "new": "CVPR 2027"}}
    assert meaningful_delta("paper", before, {**before, "authors": list(reversed(before["authors"]))}) == {}


def test_different_papers_with_similar_titles_stay_apart() -> None:
    before = [*papers(6), Paper(title="Reef Maps I", doi="10.1/one")]
    after = [*papers(6), Paper(title="Reef Maps II", doi="10.1/two")]
    assert [c.change for c in run(before, after).changes] == ["added", "removed"]


def test_an_entry_whose_doi_is_replaced_under_the_same_title_is_the_same_paper() -> None:
    preprint = Paper(title="Trampling and microphytobenthos", venue="bioRxiv", doi="10.2251/ecb.0042")
    published = Paper(title="Trampling and microphytobenthos", venue="Marine Ecology Notes", doi="10.3354/men.731")
    change = only(run([*papers(4), preprint], [*papers(4), published]))
    assert change.change == "modified" and set(change.delta or {}) >= {"venue"}
    # Listed together, a workshop version and a journal version stay two papers.
    workshop = Paper(title="Trampling and microphytobenthos", venue="Coastal Workshop", doi="10.1/ws")
    journal = Paper(title="Trampling and microphytobenthos", venue="Marine Ecology Notes", doi="10.2/j")
    change = only(run([*papers(4), workshop], [*papers(4), workshop, journal]))
    assert change.change == "added" and change.key == "doi:10.2/j"


def test_a_working_paper_label_appearing_where_no_venue_was_is_no_news() -> None:
    before = [*papers(4), Paper(title="Remote Work Options and Gender Wage Gaps")]
    assert run(before, [*papers(4), Paper(title="Remote Work Options and Gender Wage Gaps", venue="Working paper")]
               ).changes == ()
    published = [*papers(4), Paper(title="Remote Work Options and Gender Wage Gaps", venue="Labour Economics")]
    assert only(run(before, published)).change == "modified"


def test_reworded_news_with_the_same_date_is_modified() -> None:
    before = [*papers(4), NewsItem(date="2026-04-12", text="Tomas's MS defense")]
    after = [
        *papers(4),
        NewsItem(date="Apr 12, 2026", text="Tomas defended his MS thesis. Congratulations! He stays on for a PhD."),
    ]
    change = only(run(before, after))
    assert change.change == "modified" and change.kind == "news"
    assert set(change.delta or {}) == {"text"}


def test_news_with_another_date_and_similar_text_is_new() -> None:
    before = [*papers(4), NewsItem(date="2022-09-16", text="One paper gets accepted to NeurIPS 2022")]
    after = [*before, NewsItem(date="2024-07-01", text="One paper gets accepted to ECCV 2024")]
    change = only(run(before, after))
    assert change.change == "added" and change.key.startswith("2024-07-01|")


def test_member_role_change_is_modified() -> None:
    lab = [Member(name=f"Student {n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Rosa Quint", role="PhD student", url="https://rq.example")]
    after = [*lab, Member(name="Rosa Quint", role="Alumni")]
    change = only(run(before, after))
    assert change.kind == "member" and change.key == change.old_key == "rosa quint"
    assert change.delta == {"role": {"old": "PhD student", "new": "Alumni"}}


def test_member_role_losing_years_is_not_news_but_gaining_an_end_year_is() -> None:
    lab = [Member(name=f"Student {n}", role="PhD student (2020-)") for n in range(5)]
    before = [*lab, Member(name="Ivo Brandt", role="Alumni (PhD, 2016-2022)")]
    restyled = [*lab, Member(name="Ivo Brandt", role="Alumni (PhD, 2022)")]
    assert run(before, restyled).changes == ()
    graduated = [*lab[1:], Member(name="Student 0", role="PhD student (2020-2025)"), before[-1]]
    change = only(run(before, graduated))
    assert change.key == "student 0" and change.delta["role"]["new"] == "PhD student (2020-2025)"


def test_the_one_current_position_replaced_by_another_is_the_person_moving_on() -> None:
    past = [Role(title="Research Intern", organization="Lumen Labs", start="2019", end="2019")]
    before = [*papers(4), *past, Role(title="PhD student", organization="Karst University")]
    after = [*papers(4), *past, Role(title="Postdoctoral Scholar", organization="Fjord Institute")]
    change = only(run(before, after))
    assert change.change == "modified" and change.kind == "role"
    assert change.delta["title"] == {"old": "PhD student", "new": "Postdoctoral Scholar"}
    # Two new current positions beside the old one are news of their own.
    two = [*after, Role(title="Visiting Researcher", organization="Harbour Lab")]
    assert sorted(c.change for c in run(before, two).changes) == ["added", "added", "removed"]


def test_a_member_whose_name_gains_a_middle_name_is_the_same_person() -> None:
    lab = [Member(name=f"Student {n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Ana Silva", role="PhD student")]
    after = [*lab, Member(name="Ana Maria Silva", role="Postdoc")]
    change = only(run(before, after))
    assert change.change == "modified" and change.delta["role"] == {"old": "PhD student", "new": "Postdoc"}
    # One shared given name is not one person.
    other = [*lab, Member(name="Ana Costa", role="PhD student")]
    assert sorted(c.change for c in run(before, other).changes) == ["added", "removed"]


def test_an_award_title_that_gains_a_qualifier_is_the_same_award() -> None:
    base = [*papers(4), Award(title="Best Poster Award", organization="Ocean Sciences Meeting", year=2024)]
    before = [*base, Award(title="Outstanding Teaching Innovation Award", year=2026)]
    after = [*base, Award(title="Outstanding Teaching Innovation Award, School of Engineering", year=2026)]
    # Named more fully, it is the award it was: neither removed and added, nor news.
    result = run(before, after)
    assert result.changes == () and result.unchanged == 6
    # A giver that gains its grant's number is the same giver.
    grant = Award(title="HIV-TRACE Services", organization="Centers for Disease Control (CDC)", year=2023)
    numbered = Award(title="HIV-TRACE Services", organization="Centers for Disease Control (CDC) Contract 75D3",
                     year=2023)
    assert run([*base, grant], [*base, numbered]).changes == ()
    # A giver shown where none was (a grants list redrawn as a table with a column for it), or
    # written anew (a proceedings' name for its acronym), is detail of the same award.
    bare = Award(title="HIV-TRACE Services", year=2023)
    assert run([*base, bare], [*base, grant]).changes == ()
    honour = Award(title="Best Paper Honorable Mention", organization="Proceedings of the 38th Annual ACM Symposium "
                   "on User Interface Software and Technology", year=2025)
    assert run([*base, honour], [*base, Award(title=honour.title, organization="UIST '25", year=2025)]).changes == ()
    # Words that tell where the award stands are news.
    finalist = [*base, Award(title="Outstanding Teaching Innovation Award Finalist", year=2026)]
    assert [c.change for c in run(before, finalist).changes] == ["modified"]


def test_a_retitled_paper_keeping_its_pdf_link_is_modified() -> None:
    pdf = "https://people.example.edu/~jv/papers/blockboot.pdf"
    before = [*papers(4), Paper(title="Two-way clustering with exchangeable data", year=2025, url=pdf)]
    after = [*papers(4), Paper(title="Clustered inference for dyadic panels", year=2025, url=pdf)]
    change = only(run(before, after))
    assert change.change == "modified" and change.delta["title"]["new"] == "Clustered inference for dyadic panels"
    # A link several entries share (a profile, a lab page) says nothing about identity.
    shared = "https://scholar.example.org/jv"
    before = [*papers(4), Paper(title="Alpha study of rivers", url=shared), Paper(title="Beta study", url=shared)]
    after = [*papers(4), Paper(title="Gamma work on lakes", url=shared), Paper(title="Beta study", url=shared)]
    assert sorted(c.change for c in run(before, after).changes) == ["added", "removed"]


def test_a_paper_reworded_by_its_authors_is_modified() -> None:
    team = ("Rosa Quint", "Malik Oyelaran", "Tove Berg")
    before = [*papers(4), Paper(title="Sparse maps of coral reefs from drones", authors=team, venue="arXiv 2025")]
    after = [
        *papers(4),
        Paper(title="Sparse coral reef mapping from drone imagery", authors=(*team, "I. Lund"), venue="ICCV 2025"),
    ]
    change = only(run(before, after))
    assert change.change == "modified" and set(change.delta) >= {"title", "venue"}
    # Other authors: another paper on the same subject.
    others = [*papers(4), Paper(title="Sparse coral reef mapping from drone imagery", authors=("Ada Voss", "Ben Ng"))]
    assert sorted(c.change for c in run(before, others).changes) == ["added", "removed"]
    # Two reworded candidates of one group: not guessed between.
    twins = [
        *papers(4),
        Paper(title="Sparse coral reef mapping from drone imagery", authors=team),
        Paper(title="Sparse coral reef maps from drones at night", authors=team),
    ]
    assert sorted(c.change for c in run(before, twins).changes) == ["added", "added", "removed"]


def test_a_news_item_touched_up_is_not_news_but_a_rewrite_or_new_number_is() -> None:
    text = "Presented our paper on tagging at K-CAP 2017, Austin, Texas"
    before = [*papers(4), NewsItem(date="2017-10-20", text=f"{text}, US.")]
    touched = [*papers(4), NewsItem(date="2017-10-20", text=f"{text}.")]
    assert run(before, touched).changes == ()
    tail = "were accepted to CVPR 2026"
    accepted = [*papers(4), NewsItem(date="2026-02-27", text=f"Self-Eval and Group Diffusion {tail}")]
    one_more = [*papers(4), NewsItem(date="2026-02-27", text=f"ID-Sim, Self-Eval, Group Diffusion {tail}")]
    assert only(run(accepted, one_more)).change == "modified"
    recruiting = [*papers(4), NewsItem(date="2022-11-01", text="We are recruiting PhD students for Fall 2022")]
    next_year = [*papers(4), NewsItem(date="2022-11-01", text="We are recruiting PhD students for Fall 2023")]
    assert only(run(recruiting, next_year)).change == "modified"


def test_role_promotion_at_the_same_organisation_is_modified() -> None:
    before = [*papers(4), Role(title="Senior Research Scientist", organization="Adobe", start="2021")]
    after = [*papers(4), Role(title="Principal Scientist", organization="Adobe", start="2021")]
    change = only(run(before, after))
    assert change.kind == "role" and change.delta == {
        "title": {"old": "Senior Research Scientist", "new": "Principal Scientist"}
    }


def test_role_moving_to_a_similar_organisation_is_modified() -> None:
    before = [*papers(4), Role(title="Research Scientist", organization="Google Research")]
    after = [*papers(4), Role(title="Research Scientist", organization="Google DeepMind")]
    assert set(only(run(before, after)).delta or {}) == {"organization"}


def test_a_role_that_ends_is_modified() -> None:
    before = [*papers(4), Role(title="PhD student", organization="Northfield University", start="2020")]
    after = [*papers(4), Role(title="PhD student", organization="Northfield University", start="2020", end="2026")]
    assert only(run(before, after)).delta == {"end": {"old": None, "new": "2026"}}


def test_a_post_named_more_fully_is_the_same_post_and_a_new_rank_there_a_promotion() -> None:
    before = [*papers(4), Role(title="Assistant Professor", organization="Department of Economics at Tulane University",
                                start="2026"),
              Role(title="PhD Candidate in Economics", organization="University of Minnesota")]
    after = [*papers(4), Role(title="Assistant Professor of Economics", organization="Tulane University", start="2026"),
             Role(title="PhD Candidate in Economics", organization="University of Minnesota")]
    assert not run(before, after).changes
    promoted = [*papers(4), Role(title="Associate Professor of Economics", organization="Tulane University"),
                Role(title="PhD Candidate in Economics", organization="University of Minnesota")]
    assert only(run(before, promoted)).change == "modified"


def test_a_post_with_its_unit_left_out_and_its_start_month_given_is_the_same_post() -> None:
    before = [*papers(4), Role(title="Research Assistant", organization="Coastal Studies Program, Pellham College",
                               start="2019", end="2020")]
    after = [*papers(4), Role(title="Research Assistant", organization="Pellham College", start="2019-01",
                              end="2020-05")]
    assert not run(before, after).changes
    # Another place, or another year, is news.
    moved = [*papers(4), Role(title="Research Assistant", organization="Tollund College", start="2019", end="2020")]
    assert sorted(c.change for c in run(before, moved).changes) == ["added", "removed"]
    # Its units named in another order are the same place.
    reordered = [*papers(4), Role(title="Research Assistant", organization="Pellham College, Coastal Studies Program",
                                  start="2019", end="2020")]
    assert not run(before, reordered).changes
    redated = [*papers(4), Role(title="Research Assistant", organization="Pellham College", start="2018-09",
                                end="2020")]
    assert only(run(before, redated)).delta == {"start": {"old": "2019", "new": "2018-09"}}


def test_a_position_s_field_or_programme_given_or_left_out_is_the_same_position() -> None:
    lab = [Member(name=f"Ana Lima {n}", role="PhD student") for n in "ABCD"]
    before = [*lab, Member(name="Hana Ito", role="Undergraduate Researcher (B.S. Computer Science)"),
              Role(title="Assistant Professor of Data Sciences", organization="Pellham College")]
    after = [*lab, Member(name="Hana Ito", role="Undergraduate Researcher"),
             Role(title="Assistant Professor", organization="Pellham College")]
    assert not run(before, after).changes
    assert not run(after, before).changes
    # A post left out is news.
    chair = [*lab, Role(title="Professor of Geology and Department Chair", organization="Pellham College")]
    professor = [*lab, Role(title="Professor of Geology", organization="Pellham College")]
    assert only(run(chair, professor)).change == "modified"


def test_a_post_taken_up_beside_the_same_post_named_more_fully_is_news() -> None:
    before = [*papers(4), Role(title="Professor of Geology", organization="Department of Geological Sciences")]
    chair = Role(title="Professor of Geology and Department Chair",
                 organization="Department of Geological Sciences, Marrowby State University")
    change = only(run(before, [*papers(4), chair]))
    assert change.delta["title"] == {"old": "Professor of Geology", "new": "Professor of Geology and Department Chair"}


def test_an_undated_line_gone_beside_a_new_dated_position_is_not_a_move() -> None:
    before = [*papers(4), Role(title="Research Intern, Tax Policy Unit", organization="Ministry of Finance")]
    after = [*papers(4), Role(title="Associate Professor", organization="Harlan School of Economics", start="2025-07")]
    assert sorted(c.change for c in run(before, after).changes) == ["added", "removed"]
    moved = [*papers(4), Role(title="Associate Professor", organization="Harlan School of Economics")]
    assert only(run(before, moved)).change == "modified"  # one current post for another: a move


def test_a_one_year_role_written_as_a_range_of_that_year_has_not_ended() -> None:
    before = [*papers(4), Role(title="Visiting researcher", organization="Lund University", start="2017")]
    spelled = [*papers(4), Role(title="Visiting researcher", organization="Lund University", start="2017", end="2017")]
    assert not run(before, spelled).changes
    # An end year other than the start is still an end.
    ended = [*papers(4), Role(title="Visiting researcher", organization="Lund University", start="2017", end="2018")]
    assert only(run(before, ended)).delta == {"end": {"old": None, "new": "2018"}}


def test_a_former_member_s_destination_said_as_next_or_as_now_is_no_move() -> None:
    lab = [Member(name=f"Ana Lima {n}", role="PhD student") for n in "ABCD"]
    before = [*lab, Member(name="Joon Baek", role="Alumni (PhD Student; next Research Scientist, Halcyon)")]
    after = [*lab, Member(name="Joon Baek", role="Alumni (PhD Student; now Research Scientist, Halcyon)")]
    assert not run(before, after).changes
    moved = [*lab, Member(name="Joon Baek", role="Alumni (PhD Student; now Lecturer, Pellham College)")]
    assert only(run(before, moved)).change == "modified"


def test_a_former_member_read_as_alumni_where_their_time_here_was_read_before_is_no_move() -> None:
    before = [*papers(4), Member(name="Sipho Dub", role="PhD 2025 · now Economist at the Labour Policy Unit")]
    same = [*papers(4), Member(name="Sipho Dub", role="Alumni (now Economist at the Labour Policy Unit)")]
    assert not run(before, same).changes
    moved = [*papers(4), Member(name="Sipho Dub", role="Alumni (now Lecturer at Highveld University)")]
    assert only(run(before, moved)).change == "modified"


def test_a_spelling_fix_in_a_role_award_or_member_is_not_news() -> None:
    before = [*papers(4), Role(title="Visiting Reseacher", start="2025"), Award(title="Outstanding Reviwer Award"),
              Member(name="Dong Zhang", role="Alumni (Assitant Professor at University of Oklahoma)")]
    after = [*papers(4), Role(title="Visiting Researcher", start="2025"), Award(title="Outstanding Reviewer Award"),
             Member(name="Dong Zhang", role="Alumni (Assistant Professor at the University of Oklahoma)")]
    result = run(before, after)
    assert result.changes == ()
    assert {r.kind for r in result.refreshed} == {"role", "award", "member"}


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        ("Assistant Professor, Lakeview University", "Assistant Professor of Data Sciences, Lakeview University",
         False),
        ("PhD student", "PhD student in Marine Biology", False),
        ("Ph.D., Professor", "Ph.D., Professor, ACM Fellow", False),
        ("Professor", "Professor, Sloan Research Prize", False),
        ("Professor", "Professor Emeritus", True),
        ("Postdoc", "Postdoc, Research Fellow", True),
        ("PhD student", "PhD student, now at Halcyon Labs", True),
        ("Undergraduate student", "Undergraduate student, class of 2027", True),
        ("Undergraduate", "Undergraduate Researcher", False),
        ("Visiting", "Visiting Student", False),
        ("Undergraduate", "Graduate Researcher", True),
    ],
)
def test_a_position_qualified_by_its_field_or_an_honour_is_the_same_position(old: str, new: str, told: bool) -> None:
    result = run([*papers(4), Member(name="Ana Lima", role=old)], [*papers(4), Member(name="Ana Lima", role=new)])
    assert [c.change for c in result.changes] == (["modified"] if told else [])
    role = run([*papers(4), Role(title=old, start="2020")], [*papers(4), Role(title=new, start="2020")])
    assert [c.change for c in role.changes] == (["modified"] if told else [])


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        ("PhD student in the APAM department",
         "PhD student in the Department of Applied Physics and Applied Mathematics", False),
        ("Postdoc at Massachusetts Institute of Technology", "Postdoc at MIT", False),
        ("PhD student at UCSD", "PhD student at University of California, San Diego", False),
        ("PhD student at UCSD", "PhD student at University of California, Davis", True),
        ("PhD student in the APAM department", "PhD student in the Department of Earth and Environmental Sciences",
         True),
    ],
)
def test_an_acronym_written_out_is_the_same_role(old: str, new: str, told: bool) -> None:
    result = run([*papers(4), Member(name="Ana Lima", role=old)], [*papers(4), Member(name="Ana Lima", role=new)])
    assert [c.change for c in result.changes] == (["modified"] if told else [])


def test_a_name_written_more_fully_is_told_only_beside_a_new_role() -> None:
    before = [*papers(4), Member(name="David Lee", role="PhD Student")]
    assert run(before, [*papers(4), Member(name="David A. Lee", role="PhD Student")]).changes == ()
    change = only(run(before, [*papers(4), Member(name="David A. Lee", role="Alumni (now at Acme)")]))
    assert set(change.delta or {}) == {"name", "role"}


def test_role_gaining_its_organisation_is_modified() -> None:
    before = [*papers(4), Role(title="Research Scientist")]
    after = [*papers(4), Role(title="Research Scientist", organization="Halcyon Labs")]
    assert only(run(before, after)).delta == {"organization": {"old": None, "new": "Halcyon Labs"}}


def test_unrelated_past_roles_are_removed_and_added() -> None:
    before = [*papers(6), Role(title="Teaching fellow", organization="Northfield University", start="2015", end="2016")]
    after = [*papers(6), Role(title="Engineer", organization="Halcyon Labs", start="2012", end="2013")]
    assert [c.change for c in run(before, after).changes] == ["added", "removed"]


def test_several_news_of_one_date_pair_by_text() -> None:
    before = [
        *papers(4),
        NewsItem(date="2026-03-01", text="Two papers accepted to ICRA 2026"),
        NewsItem(date="2026-03-01", text="Welcome to our new postdoc Lena Park"),
    ]
    after = [
        *papers(4),
        NewsItem(date="2026-03-01", text="Welcome to our new postdoc, Dr. Lena Park!"),
        NewsItem(date="2026-03-01", text="Three papers accepted to ICRA 2026"),
    ]
    result = run(before, after)
    # The welcome only gained a title (a touch-up); the count of papers is news.
    assert [(c.change, (c.delta or {})["text"]) for c in result.changes] == [
        ("modified", {"old": "Two papers accepted to ICRA 2026", "new": "Three papers accepted to ICRA 2026"}),
    ]


def test_same_award_in_another_year_is_another_award() -> None:
    before = [*papers(4), Award(title="Best Reviewer Award", year=2024)]
    after = [*before, Award(title="Best Reviewer Award", year=2025)]
    assert only(run(before, after)).change == "added"


def test_duplicate_news_rows_on_the_page_report_nothing() -> None:
    news = [NewsItem(date=f"2025-0{n}-01", text=f"Item {n}") for n in range(1, 6)]
    result = run(news, [*news, NewsItem(date="2025-03-01", text="Item 3")])
    assert result.changes == () and result.unchanged == 5


def test_genuine_removal_of_one_of_ten() -> None:
    before = papers(10)
    change = only(run(before, before[:3] + before[4:]))
    assert change.change == "removed" and change.before == record_fields(normalise_records([before[3]])[0])


def test_additions_and_removals_come_in_page_order() -> None:
    before = papers(8)
    after = [Paper(title="Brand new first"), *before[1:], Paper(title="Brand new last")]
    result = run(before, after)
    assert [(c.change, c.key) for c in result.changes] == [
        ("added", "title:brand new first"),
        ("added", "title:brand new last"),
        ("removed", "title:study 0 of tidal sediment transport"),
    ]


@pytest.mark.parametrize(
    ("after_count", "reason_part"),
    [(0, "no items"), (1, "fewer than 50%")],
)
def test_collapsed_extraction_is_suspect_and_reports_nothing(after_count: int, reason_part: str) -> None:
    before = papers(30)
    error_page = [Paper(title="Page not found")][:after_count]
    result = run(before, error_page)
    assert result.changes == () and result.refreshed == ()
    assert result.suspect is not None and reason_part in result.suspect


def test_zero_items_after_a_single_item_is_suspect() -> None:
    assert run(papers(1), []).suspect is not None


def test_redesign_that_replaces_most_items_is_suspect() -> None:
    # Same count, but the extractor now reads navigation links instead of papers.
    junk = [Paper(title=f"Menu entry {n}") for n in range(10)]
    result = run(papers(10), junk)
    assert result.changes == ()
    assert result.suspect == "10 of 10 items would be removed"


def test_a_kind_that_vanishes_is_held_while_the_others_are_diffed() -> None:
    news = [NewsItem(date=f"2025-0{n}-01", text=f"Item {n}") for n in range(1, 6)]
    result = run(papers(20) + news, papers(20))
    assert result.suspect is None and result.held == ("news",) and result.changes == ()
    # The kinds the page still shows as before tell their changes; the vanished kind tells none.
    members = [Member(name=f"Ana Lima {n}", role="PhD student") for n in "ABCDEF"]
    new_post = NewsItem(date="2025-09-01", text="Our paper on tides is out")
    result = run(papers(20) + news + members, [new_post, *news])
    assert result.suspect is None and result.held == ("member", "paper")
    assert [(c.change, c.kind) for c in result.changes] == [("added", "news")]
    # A page that keeps too little of what it showed is suspect as a whole.
    assert run(papers(20) + news[:3], news[:3]).suspect is not None


def test_small_sources_below_the_guard_size_report_removals() -> None:
    result = run(papers(3), papers(1))
    assert result.suspect is None
    assert [c.change for c in result.changes] == ["removed", "removed"]


def test_large_edit_is_matched_exactly() -> None:
    before = papers(2000)
    after = list(before)
    for n in range(0, 2000, 20):  # 5 %: a word added to the title
        after[n] = Paper(title=f"Study {n} of tidal sediment transport rates", authors=("Ines Marlow", f"Coauthor {n}"))
    result = run(before, after)
    assert result.suspect is None
    assert len(result.changes) == 100 and {c.change for c in result.changes} == {"modified"}
    assert all(c.key == f"{c.old_key} rates" for c in result.changes)


def test_field_deltas_of_plain_values_need_no_deepdiff_and_lists_ignore_order() -> None:
    # A venue or year change is told by plain comparison (deepdiff and numpy cost 0.16 s to
    # import); an author list is compared by deepdiff, ignoring order.
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from watcher.diff import meaningful_delta\n"
        "a = {'title': 'T', 'authors': ['Ann Lee', 'Bo Chen'], 'venue': 'arXiv', 'year': 2025}\n"
        "plain = meaningful_delta('paper', a, {**a, 'venue': 'NeurIPS', 'year': 2026})\n"
        "before = 'deepdiff' in sys.modules\n"
        "reordered = meaningful_delta('paper', a, {**a, 'authors': ['Bo Chen', 'Ann Lee']})\n"
        "grown = meaningful_delta('paper', a, {**a, 'authors': ['Ann Lee', 'Bo Chen', 'Cy Park'], 'year': 2026})\n"
        "print(json.dumps([sorted(plain), before, reordered, sorted(grown)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    plain, deepdiff_loaded, reordered, grown = json.loads(out)
    assert plain == ["venue", "year"]
    assert deepdiff_loaded is False
    assert reordered == {}
    assert grown == ["authors", "year"]


# The reformat guard: a re-rendered list is recorded silently, its new items still reported.


def styled_papers(count: int, *, style: str) -> list[Record]:
    """One list of papers in two citation styles: "plain" and "numbered" (a new rendering
    that puts the venue into the title line and abbreviates the journal)."""
    made: list[Record] = []
    for n in range(count):
        title = f"Study {n} of tidal sediment transport"
        if style == "plain":
            authors = ("Ines Marlow", f"Coauthor {n}")
            made.append(Paper(title=title, authors=authors, venue="J. Coastal Res.", year=2024))
        else:
            made.append(Paper(title=f"[{n + 1}] {title}. Coastal Research Letters", authors=("Marlow, I.",), year=2024))
    return made


def test_a_new_citation_style_is_recorded_silently_and_named_once() -> None:
    before = styled_papers(10, style="plain")
    after = styled_papers(10, style="numbered")
    result = run(before, after)
    assert result.suspect is None and result.changes == ()
    assert result.reformatted == "reformatted: 10 of 10 papers changed format"
    # Every stored item moves to its new rendering, keeping its identity.
    assert len(result.refreshed) == 10
    assert {r.old_key for r in result.refreshed} == {f"title:study {n} of tidal sediment transport" for n in range(10)}
    assert all(r.key.startswith("title:") and r.old_key != r.key for r in result.refreshed)


def test_a_mass_change_of_one_field_is_a_reformat() -> None:
    before = styled_papers(8, style="plain")
    after = [replace(p, venue="Journal of Coastal Research, vol. 3") for p in before]
    result = run(before, after)
    assert result.changes == () and result.reformatted == "reformatted: 8 of 8 papers changed format"
    assert {r.fields["venue"] for r in result.refreshed} == {"Journal of Coastal Research, vol. 3"}


def test_a_real_new_paper_beside_a_reformat_is_still_reported() -> None:
    before = styled_papers(10, style="plain")
    fresh = Paper(title="Estuary fronts seen from drifting buoys", authors=("Ines Marlow",), year=2026)
    result = run(before, [fresh, *styled_papers(10, style="numbered")])
    assert result.reformatted is not None
    assert [(c.change, c.key) for c in result.changes] == [("added", "title:estuary fronts seen from drifting buoys")]


def test_a_paper_published_beside_a_new_citation_style_is_still_reported() -> None:
    before = styled_papers(10, style="plain")
    before[2] = replace(before[2], venue="To appear in SODA 2026")
    after = [replace(p, venue=f"Proceedings of {p.venue or 'Coastal Research Letters'}, 2026.") for p in before]
    after[2] = replace(after[2], venue="Proceedings of the Symposium on Discrete Algorithms (SODA), 2026.")
    result = run(before, after)
    assert result.reformatted is not None
    assert [(c.change, c.delta) for c in result.changes] == [
        ("modified", {"venue": {"old": "To appear in SODA 2026", "new": after[2].venue}})
    ]
    # A style that leaves every stage out moves no paper.
    pending = [replace(p, venue=f"Under review at {p.title}") for p in before]
    assert run(pending, after).changes == ()


def test_venues_named_in_full_now_are_a_reformat_but_a_preprint_published_is_news() -> None:
    def paper(n: int, venue: str, year: int) -> Paper:
        return Paper(title=f"Study {n} of tactile interfaces", authors=("Ana Lima",), venue=venue, year=year)

    short = {"SIT": "Symposium on Interface Technology", "HCIS": "Conference on Human-Centred Interactive Systems"}
    before = [paper(n, f"{('SIT', 'HCIS')[n % 2]} {2020 + n}", 2020 + n) for n in range(6)]
    before += [paper(n, "Journal of Haptics", 2019) for n in range(6, 14)] + [paper(14, "arXiv", 2026)]
    after = [paper(n, f"Proceedings of the {2020 + n} {short[('SIT', 'HCIS')[n % 2]]}", 2020 + n) for n in range(6)]
    after += [*before[6:14], paper(14, "Transactions on Interactive Computing", 2026)]
    award_before = Award(title="Best Paper Award", organization="HCIS 2021", year=2021)
    award_after = Award(title="Best Paper Award", organization=after[1].venue, year=2021)
    result = run([*before, award_before], [*after, award_after])
    assert result.reformatted == "reformatted: 6 of 15 papers' venues named anew"
    assert [(c.kind, c.delta) for c in result.changes] == [
        ("paper", {"venue": {"old": "arXiv", "new": "Transactions on Interactive Computing"}})
    ]
    # Venues that change each their own way are each told.
    moved = [*before[:3], paper(3, "Nature Communications", 2023), *before[4:]]
    assert [c.key for c in run(before, moved).changes] == ["title:study 3 of tactile interfaces"]


def test_a_news_headline_shown_with_its_excerpt_is_no_change_but_a_new_headline_is() -> None:
    headline = "Heat-wave paper published in Environmental Health Perspectives"
    before = [NewsItem(text=f"Item number {n} of the lab news", date=f"2024-0{n + 1}-01") for n in range(4)]
    before.append(NewsItem(text=headline, date="2024-09-16"))
    fuller = NewsItem(text=f"{headline} Our case-crossover study of heat is out now.", date="2024-09-16")
    assert run(before, [*before[:4], fuller]).changes == ()
    assert run([*before[:4], fuller], before).changes == ()
    reworded = NewsItem(text="Heat-wave paper now in print in Environmental Health Perspectives", date="2024-09-16")
    assert only(run(before, [*before[:4], reworded])).change == "modified"


def test_news_dated_by_month_now_is_no_change_and_old_items_that_left_are_still_told() -> None:
    news = [NewsItem(text=f"Lab news item number {n} about our work", date=f"2024-0{n + 1}-1{n}") for n in range(8)]
    by_month = [NewsItem(text=n.text, date=(n.date or "")[:7]) for n in news]
    fresh = NewsItem(text="I started as a Postdoctoral Fellow at Lakeshore", date="2024-09")
    result = run(news, [fresh, *by_month[2:]])
    assert result.reformatted is None
    assert [(c.change, (c.after or c.before or {})["text"]) for c in result.changes] == [
        ("added", fresh.text), ("removed", news[0].text), ("removed", news[1].text)
    ]
    # Another day is another date.
    moved = only(run(news, [NewsItem(text=news[0].text, date="2024-01-20"), *news[1:]]))
    assert moved.delta == {"date": {"old": "2024-01-10", "new": "2024-01-20"}}


def test_a_carousel_caption_that_moves_on_while_the_list_keeps_that_day_s_news_is_not_removed() -> None:
    listed = [NewsItem(text=f"Lab news item number {n} about our work", date=f"2022-1{n}-16") for n in range(3)]
    caption = NewsItem(text="Happy holidays from the lab", date="2022-12-16")
    fresh = NewsItem(text="Our segmentation pipeline is now published", date="2023-03-27")
    result = run([caption, *listed], [fresh, *listed])
    assert [(c.change, (c.after or c.before or {})["text"]) for c in result.changes] == [("added", fresh.text)]
    # News of a day the page no longer holds has left it.
    gone = run([caption, *listed[:2]], [fresh, *listed[:2]])
    assert sorted(c.change for c in gone.changes) == ["added", "removed"]


def test_a_few_real_edits_are_not_a_reformat() -> None:
    before = styled_papers(10, style="plain")
    edited = [replace(before[0], venue="Nature Geoscience"), *before[1:]]
    news = [Paper(title=f"Brand new work number {n} on dunes", year=2026) for n in range(3)]
    result = run(before, [*news, *edited])
    assert result.reformatted is None
    assert [c.change for c in result.changes] == ["added", "added", "added", "modified"]


def test_a_redesign_with_a_few_items_read_under_new_labels_is_still_suspect() -> None:
    # Four of ten items re-read with extra words, six lost: too few for a rendering, a collapse.
    before = styled_papers(10, style="plain")
    after = [*styled_papers(4, style="numbered"), *(Paper(title=f"Menu entry {n}") for n in range(6))]
    assert run(before, after).suspect == "10 of 10 items would be removed"


def test_a_reformat_of_a_small_list_is_reported_as_edits() -> None:
    # Four items are too few to call a rendering: each change is told.
    before = styled_papers(4, style="plain")
    after = [replace(p, venue="Journal of Coastal Research") for p in before]
    result = run(before, after)
    assert result.reformatted is None and [c.change for c in result.changes] == ["modified"] * 4


def test_a_kind_read_anew_in_another_layout_tells_neither_its_losses_nor_its_arrivals() -> None:
    # A new theme: the honours are read by their givers and dates, none alike enough to pair.
    honours = [Award(title=f"{name} Award", organization=giver, year=2010 + n)
               for n, (name, giver) in enumerate([("Early Career", "Society for Marine Ecology"),
                                                   ("Best Paper", "Coastal Dynamics"),
                                                   ("Teaching Excellence", "Northfield University"),
                                                   ("Young Investigator", "Ocean Sciences Council"),
                                                   ("Mentoring", "Graduate School")])]
    read_anew = [Award(title=f"{month} {2010 + n} {a.organization}", year=2010 + n)
                 for n, (month, a) in enumerate(zip(["June", "May", "April", "March", "July"], honours, strict=True))]
    result = run([*papers(6), *honours], [*papers(6), *read_anew])
    assert result.suspect is None and result.changes == ()
    assert result.reformatted == "read anew: 5 of 5 awards gave way to 5 others"


def test_an_item_filed_under_another_kind_in_a_new_layout_is_neither_removed_nor_added() -> None:
    # "In the News" read as posts in one layout and as dated news in the next; one real item arrives.
    mentions = ["Interviewed by Harbor Public Radio on reef heatwaves", "Quoted in Coastal Weekly on storm surge maps"]
    before = [*papers(6), *(Role(title=text) for text in mentions)]
    after = [
        *papers(6),
        *(NewsItem(date=f"2025-0{n + 1}-10", text=text) for n, text in enumerate(reversed(mentions))),
        NewsItem(date="2025-06-01", text="Our lab welcomes two new doctoral students"),
    ]
    result = run(before, after)
    assert [(c.change, c.kind, c.after["text"]) for c in result.changes] == [
        ("added", "news", "Our lab welcomes two new doctoral students")
    ]
    # A paper's title inside a news item is news about it, not the paper read again.
    news = NewsItem(date="2025-06-01", text="Study 5 of tidal sediment transport is out in Coastal Research")
    changes = run(papers(6), [*papers(5), news]).changes
    assert sorted((c.change, c.kind) for c in changes) == [("added", "news"), ("removed", "paper")]


def test_a_news_list_that_rolls_over_is_not_read_anew() -> None:
    result = run([*papers(6), *rolling_news(0, 5)], [*papers(6), *rolling_news(5, 5)])
    assert result.reformatted is None
    assert [c.change for c in result.changes].count("added") == 5


def rolling_news(first: int, count: int) -> list[Record]:
    """A "latest news" widget, newest first: items first .. first+count-1 (higher is newer)."""
    return [
        NewsItem(date=f"2026-{1 + n:02d}-15", text=TOPICS[n]) for n in reversed(range(first, first + count))
    ]


TOPICS = [
    "Welcome to our new postdoc from Lisbon",
    "Our reef acoustics paper is out in Ocean Letters",
    "Field season on the tidal flats starts next week",
    "Talk at the storm surge workshop in Bremen",
    "Two students defended their theses",
    "New grant for kelp forest carbon budgets",
    "The lab moves to the harbour building",
    "Summer school on sand waves: applications open",
    "Best student poster at the coastal meeting",
    "Open day for prospective students in March",
    "Our drifter data set is now public",
    "Guest lecture on glacier melt and sea level",
]


@pytest.mark.parametrize("arrived", [1, 3, 5, 6])
def test_a_rolling_news_list_reports_each_new_item(arrived: int) -> None:
    before, after = rolling_news(0, 6), rolling_news(arrived, 6)
    result = run(before, after)
    assert result.suspect is None and result.reformatted is None
    assert [c.change for c in result.changes] == ["added"] * arrived + ["removed"] * arrived
    assert {c.key for c in result.changes if c.change == "added"} == {r.key for r in normalise_records(after[:arrived])}


def test_an_undated_rolling_list_rotates_by_position() -> None:
    awards = [Award(title=topic) for topic in TOPICS[:8]]
    before, after = awards[:6], awards[2:8]  # oldest first: two leave the top, two arrive below
    result = run(before, after)
    assert result.suspect is None and result.reformatted is None
    assert sorted(c.change for c in result.changes) == ["added", "added", "removed", "removed"]


def test_a_redesign_read_as_other_dated_items_is_still_suspect() -> None:
    # Old news replaced by items dated before them: not a rolling list.
    before, after = rolling_news(6, 6), rolling_news(0, 6)
    assert run(before, after).suspect == "6 of 6 items would be removed"


def test_a_member_gaining_a_middle_name_and_a_role_is_one_person() -> None:
    lab = [Member(name=f"Student Number{n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Ana Silva", role="PhD student")]
    after = [*lab, Member(name="Ana Maria Silva", role="Postdoc")]
    change = only(run(before, after))
    assert (change.change, change.old_key, change.key) == ("modified", "ana silva", "ana maria silva")
    assert change.delta == {
        "name": {"old": "Ana Silva", "new": "Ana Maria Silva"},
        "role": {"old": "PhD student", "new": "Postdoc"},
    }
    # Dropping it again, same role: the same person, refreshed quietly.
    result = run(after, [*lab, Member(name="Ana Silva", role="Postdoc")])
    assert result.changes == () and [r.key for r in result.refreshed] == ["ana silva"]


def test_members_sharing_only_a_surname_are_two_people() -> None:
    lab = [Member(name=f"Student Number{n}", role="PhD student") for n in range(5)]
    result = run([*lab, Member(name="Ana Silva")], [*lab, Member(name="Rui Silva")])
    assert sorted(c.change for c in result.changes) == ["added", "removed"]


def test_a_preprint_server_appearing_as_the_venue_is_not_news() -> None:
    before = [*papers(4), Paper(title="Sparse Reef Maps", year=2023)]
    for venue in ("PsyArXiv", "arXiv preprint arXiv:2106.10866", "bioRxiv 2023", "arXiv '23"):
        assert run(before, [*papers(4), Paper(title="Sparse Reef Maps", venue=venue, year=2023)]).changes == ()
    for venue in ("Submitted to Ecology", "Under revision at Econometric Theory", "ICLR 2024"):
        change = only(run(before, [*papers(4), Paper(title="Sparse Reef Maps", venue=venue, year=2023)]))
        assert change.delta == {"venue": {"old": None, "new": venue}}


def test_one_preprint_label_written_as_another_is_not_news_but_a_journal_is() -> None:
    def paper(venue: str) -> Paper:
        return Paper(title="Sparse Reef Maps", venue=venue, year=2023)

    for old, new in (("PsyArXiv (preprint)", "PsyArXiv"), ("Working paper", "SSRN Working Paper"),
                     ("arXiv preprint", "arXiv:2106.10866")):
        assert run([*papers(4), paper(old)], [*papers(4), paper(new)]).changes == ()
    for old, new in (("PsyArXiv (preprint)", "Cognition"), ("arXiv 2023", "CoRR 2024")):
        change = only(run([*papers(4), paper(old)], [*papers(4), paper(new)]))
        assert change.delta == {"venue": {"old": old, "new": new}}


def test_a_citation_s_month_written_or_left_out_is_no_change_but_its_volume_appearing_is() -> None:
    def paper(venue: str) -> Paper:
        return Paper(title="Eosinophil trajectories after biologics", venue=venue, year=2023)

    old = "Eur Respir J. 2023 Sep;62(3):2300412"
    assert run([*papers(4), paper(old)], [*papers(4), paper("Eur Respir J. 2023;62(3):2300412")]).changes == ()
    change = only(run([*papers(4), paper("Eur Respir J. 2023 Jun")], [*papers(4), paper(old)]))
    assert change.delta == {"venue": {"old": "Eur Respir J. 2023 Jun", "new": old}}


def test_a_journal_s_volume_and_pages_put_after_it_are_no_change_but_another_journal_is() -> None:
    def paper(venue: str) -> Paper:
        return Paper(title="Allele-specific expression in hybrid trout", venue=venue, year=2024)

    for old, new in (
        ("Genome Biology and Evolution", "Genome Biology and Evolution 16(2):evae021"),
        ("Bioinformatics (ISMB 2023 Proceedings)", "Bioinformatics (ISMB 2023 Proceedings) 39(Suppl 1):i312–i320"),
        ("J. Fish Biol., vol. 12, no. 3, pp. 4-9", "J. Fish Biol."),
        ("Workshop on Fish Genomics (WFG 2025), 44–53", "Workshop on Fish Genomics (WFG 2025), pp. 44–53"),
        ("Cytometry A", "Cytometry A. 2021;99(9):893-899"),
    ):
        assert run([*papers(4), paper(old)], [*papers(4), paper(new)]).changes == ()
    for old, new in (("Genome Biology and Evolution", "Molecular Ecology 33(2):e17201"), ("GBE 16", "GBE 17")):
        change = only(run([*papers(4), paper(old)], [*papers(4), paper(new)]))
        assert change.delta == {"venue": {"old": old, "new": new}}


def test_a_paper_no_longer_ahead_of_print_is_news() -> None:
    def paper(venue: str) -> Paper:
        return Paper(title="Complement deposition shapes macrophage polarization", venue=venue, year=2025)

    change = only(run([*papers(4), paper("J Am Soc Nephrol, Epub ahead of print")],
                      [*papers(4), paper("J Am Soc Nephrol")]))
    assert change.delta == {"venue": {"old": "J Am Soc Nephrol, Epub ahead of print", "new": "J Am Soc Nephrol"}}


def test_a_submission_no_longer_said_beside_the_same_preprint_is_not_news_but_a_journal_is() -> None:
    def paper(venue: str) -> Paper:
        return Paper(title="Sparse Reef Maps", venue=venue, year=2023)

    old = "Submitted. arXiv:2206.11986"
    assert run([*papers(4), paper(old)], [*papers(4), paper("arXiv:2206.11986")]).changes == ()
    for new in ("Math. Z. 309 (2025), no. 3", "Accepted. arXiv:2206.11986"):
        change = only(run([*papers(4), paper(old)], [*papers(4), paper(new)]))
        assert change.delta == {"venue": {"old": old, "new": new}}


def test_an_entry_reused_for_another_paper_is_one_added_and_one_removed() -> None:
    before = [*papers(4), Paper(title="Recsys Feedback for Reranking", arxiv="2410.05939")]
    after = [*papers(4), Paper(title="Direct Preference Optimization for Recommenders", arxiv="2410.05939")]
    result = run(before, after)
    assert sorted((c.change, (c.after or c.before or {})["title"]) for c in result.changes) == [
        ("added", "Direct Preference Optimization for Recommenders"),
        ("removed", "Recsys Feedback for Reranking"),
    ]


def test_a_paper_retitled_under_its_preprint_s_id_with_its_year_and_co_authors_is_one_modified_paper() -> None:
    before = [*papers(4), Paper(title="Anosov actions on exotic tori", venue="with R. Ilunga", year=2024,
                                arxiv="2408.01234")]
    after = [*papers(4), Paper(title="Counting flat cycles on Hadamard manifolds", venue="with R. Ilunga", year=2024,
                               arxiv="2408.01234")]
    change = only(run(before, after))
    assert (change.change, change.before["title"], change.after["title"]) == (
        "modified", "Anosov actions on exotic tori", "Counting flat cycles on Hadamard manifolds"
    )
    # Another year or other co-authors under the copied id is another paper.
    reused = [*papers(4), Paper(title="Counting flat cycles on Hadamard manifolds", venue="with T. Berg", year=2024,
                                arxiv="2408.01234")]
    assert sorted(c.change for c in run(before, reused).changes) == ["added", "removed"]


def test_a_member_s_start_written_with_or_without_since_is_no_change() -> None:
    lab = [Member(name=f"Student Number{n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Hedda Ruud", role="Doctoral Researcher (since 2024)")]
    assert run(before, [*lab, Member(name="Hedda Ruud", role="Doctoral Researcher (2024)")]).changes == ()
    moved = only(run(before, [*lab, Member(name="Hedda Ruud", role="Doctoral Researcher (since 2023)")]))
    assert moved.change == "modified"


def test_a_former_member_s_note_left_out_is_no_change_but_a_new_note_is() -> None:
    lab = [Member(name=f"Student Number{n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Odile Marsh", role="Alumni (M.Sc. 2018, project student 2016)")]
    assert run(before, [*lab, Member(name="Odile Marsh", role="Alumni")]).changes == ()
    placed = [*lab, Member(name="Odile Marsh", role="Alumni (M.Sc. 2018; now Seed Scientist, Hollis Seeds)")]
    assert run(placed, [*lab, Member(name="Odile Marsh", role="Alumni (M.Sc. 2018)")]).changes == ()
    moved = only(run(before, [*lab, Member(name="Odile Marsh", role="Alumni (now at Hollis Seeds)")]))
    assert (moved.change, moved.after["role"]) == ("modified", "Alumni (now at Hollis Seeds)")


def test_a_member_renamed_with_an_initial_is_one_person() -> None:
    lab = [Member(name=f"Student Number{n}", role="PhD student") for n in range(5)]
    before = [*lab, Member(name="Jiankun Pu", role="PhD student")]
    change = only(run(before, [*lab, Member(name="J. Kian Pu", role="Alumni (ML Scientist at Acme Energy)")]))
    assert (change.change, change.old_key, change.key) == ("modified", "jiankun pu", "j kian pu")
    # Another given name with the same surname is another person.
    result = run(before, [*lab, Member(name="Rui Pu", role="PhD student")])
    assert sorted(c.change for c in result.changes) == ["added", "removed"]


def test_a_bare_working_paper_retitled_is_one_modified_paper_but_two_are_not_guessed_between() -> None:
    drafts = [Paper(title="Regulatory Enforcement Markets", venue="Revise and Resubmit"),
              Paper(title="Cooperation between Parties")]
    before = [*papers(4), *drafts, Paper(title="Private Sector Politicians")]
    after = [*papers(4), Paper(title="Side Hustles: How Politicians' Outside Jobs Shape Democracies"), *drafts]
    change = only(run(before, after))
    assert (change.change, change.before["title"]) == ("modified", "Private Sector Politicians")
    # Two bare drafts gone and two new: which became which is a guess, so none is made.
    two_before = [*before, Paper(title="Lobbying Politicians Abroad")]
    two_after = [*after, Paper(title="Politicians and Their Second Jobs")]
    assert sorted(c.change for c in run(two_before, two_after).changes) == ["added", "added", "removed", "removed"]


def test_a_new_citation_style_that_turns_names_round_and_names_the_press_s_town_changes_nothing() -> None:
    before = [
        Paper(title="Rumour in Print", authors=("Vlasić-Brenner, Katharina",), venue="Böhlau", year=2021),
        Paper(title="Paper Kin", authors=("Marquardt, Ilse", "Roe, Bo"), venue="Cambridge Univ. Press, forthcoming"),
    ]
    after = [
        Paper(title="Rumour in Print", authors=("Katharina Vlasić-Brenner",), venue="Vienna: Böhlau", year=2021),
        Paper(title="Paper Kin", authors=("Ilse Marquardt", "Bo Roe"), venue="Cambridge: Cambridge Univ. Press"),
    ]
    # The town is no news; the book that is no longer forthcoming is.
    change = only(run(before, after))
    assert (change.change, change.after["title"]) == ("modified", "Paper Kin")
    assert set(change.delta or {}) == {"venue"}
    # A press is not a town's: "Physics" -> "Nature Physics" is another venue.
    assert meaningful_delta("paper", {"venue": "Physics"}, {"venue": "Nature Physics"})


def test_a_member_s_start_year_shown_or_not_is_no_change_and_an_end_year_is() -> None:
    # A list restyled as a table with a "Since" column.
    assert not meaningful_delta("member", {"role": "PhD student"}, {"role": "PhD student (2020)"})
    assert meaningful_delta("member", {"role": "PhD student (2020)"}, {"role": "PhD student (2020-2025)"})
    assert meaningful_delta("member", {"role": "PhD student"}, {"role": "PhD student (2020-2025)"})


def test_undated_posts_shown_with_their_spans_at_once_are_no_change_and_one_post_dated_afresh_is() -> None:
    cv = [("Research Assistant", "Reef Lab"), ("Field Technician", "Kelp Trust"), ("Intern", "Aquarium")]
    before = [Role(title=t, organization=o) for t, o in cv]
    spans = [("2016", "2018"), ("2014", "2016"), ("2013", "2014")]
    after = [Role(title=t, organization=o, start=a, end=b) for (t, o), (a, b) in zip(cv, spans, strict=True)]
    assert run(before, after).changes == ()
    # One undated post now dated and ended, the rest as they were: it may have ended, and it is told.
    one = [after[0], *before[1:]]
    assert [c.change for c in run(before, one).changes] == ["modified"]


def test_a_stage_written_in_other_words_is_no_change_and_a_new_stage_is() -> None:
    # A new theme writes the same stages its own way: "R&R", "to appear", "In review".
    assert not meaningful_delta("paper", {"venue": "Revise and resubmit at Econometrica"},
                                {"venue": "R&R, Econometrica"})
    assert not meaningful_delta("paper", {"venue": "Journal of Glaciology, forthcoming"},
                                {"venue": "Journal of Glaciology (to appear)"})
    assert not meaningful_delta("paper", {"venue": "Submitted to Ecology"}, {"venue": "Under review at Ecology"})
    assert not meaningful_delta("paper", {"venue": "Glaciology (forthcoming), in press"},
                                {"venue": "Glaciology (forthcoming)"})
    # A paper that moves on is told.
    assert meaningful_delta("paper", {"venue": "R&R at Econometrica"}, {"venue": "Econometrica, forthcoming"})
    assert meaningful_delta("paper", {"venue": "Under review at Ecology"}, {"venue": "Ecology, to appear"})


def test_a_move_is_one_modified_role_though_the_education_list_gains_the_degree() -> None:
    before = [Role(title="PhD Candidate in Physics", organization="ETH Zurich"),
              Role(title="MSc in Physics", start="2020")]
    after = [Role(title="Postdoctoral Researcher", organization="Max Planck Institute"),
             Role(title="PhD in Physics", start="2025"),
             Role(title="MSc in Physics", start="2020")]
    changes = run(before, after).changes
    assert sorted((c.change, (c.after or {}).get("title")) for c in changes) == [
        ("added", "PhD in Physics"), ("modified", "Postdoctoral Researcher")
    ]


def test_an_alumnus_role_written_with_or_without_now_is_unchanged() -> None:
    before = [Member(name="Hugo Varenne", role="Alumni (Post-doctorant, Agroscope)")]
    after = [Member(name="Hugo Varenne", role="Alumni (now Post-doctorant, Agroscope)")]
    assert run(before, after).changes == ()
    moved = [Member(name="Hugo Varenne", role="Alumni (now Researcher, INRAE)")]
    assert [c.change for c in run(before, moved).changes] == ["modified"]


def test_a_post_whose_place_gains_its_faculty_after_it_is_unchanged() -> None:
    before = [Role(title="Associate Professor of Economics", organization="Universidad de los Andes", start="2025")]
    faculty = "Universidad de los Andes, Facultad de Economía"
    after = [Role(title="Associate Professor of Economics", organization=faculty, start="2025")]
    assert run(before, after).changes == ()
