"""The answer stage's pure parts: which stored names a question's name may mean, which fact held when."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph.search import PassageHit, SearchHit
from strata.memory.answers import AskedTime, _holding, _unread_news, same_name
from strata.resolve.questions import StateQuestion
from strata.schema.models import Fact, TimeWindow


@pytest.mark.parametrize(("asked", "stored", "same"), [
    ("UN", "United Nations", True), ("the UN", "United Nations", True),
    ("NATO", "North Atlantic Treaty Organization", True), ("Volkswagen Group", "Volkswagen", True),
    ("Walmart", "walmart inc", True), ("Ford", "Harrison Ford", False), ("Austria", "Australia", False),
    ("United States", "United Kingdom", False), ("Finland", "Iceland", False),
])
def test_a_question_names_an_organization_loosely(asked, stored, same):
    assert same_name(asked, stored) is same


def _fact(uuid: str, who: str, start: int, end: int | None = None, negated: bool = False) -> Fact:
    return Fact(uuid=uuid, group_id="g", subject_uuid=who, subject_name=who, predicate="holds_office",
                object_uuid="o", object_name="Org", fact=f"{who} is CEO of Org", role="ceo", negated=negated,
                valid_at=datetime(start, 1, 1, tzinfo=UTC),
                invalid_at=datetime(end, 1, 1, tzinfo=UTC) if end else None)


def _at(year: int, month: int = 7) -> AskedTime:
    return AskedTime(datetime(year, month, 1, tzinfo=UTC))


def test_the_fact_that_held_at_the_instant_asked():
    facts = [_fact("a", "Lee", 2000, 2009), _fact("b", "Mike", 2009, 2014), _fact("c", "Doug", 2014),
             _fact("n", "Doug", 2020, negated=True)]  # a negation never answers
    assert _holding(facts, _at(2005)) == ["a"]
    assert _holding(facts, _at(2016)) == ["c"]
    assert _holding(facts, _at(1990)) == []


def test_two_open_values_of_one_slot_answer_with_the_later_start_unless_the_role_has_several():
    facts = [_fact("a", "Kofi", 1997), _fact("b", "Ban", 2007)]  # stored under "United Nations" and "UN"
    assert _holding(facts, _at(2010)) == ["b"]
    assert _holding(facts, _at(2010), several=True) == ["b", "a"]


def test_a_year_asked_is_answered_by_who_held_longest_in_it():
    facts = [_fact("a", "Lee", 2000, 2009), _fact("b", "Mike", 2009, 2014)]
    year = TimeWindow(start=datetime(2009, 1, 1, tzinfo=UTC), end=datetime(2010, 1, 1, tzinfo=UTC))
    assert _holding(facts, AskedTime(year.start, year)) == ["b"]
    late = [_fact("a", "Lee", 2000), _fact("b", "Mike", 2009)]
    late[1] = late[1].model_copy(update={"valid_at": datetime(2009, 11, 1, tzinfo=UTC)})
    assert _holding(late, AskedTime(year.start, year)) == ["a"]  # Lee held ten months of 2009


def _said(text: str, year: int) -> SearchHit:
    return SearchHit(kind="episode", score=1.0, channels=["passage_fulltext"], said_at=datetime(year, 3, 1, tzinfo=UTC),
                     episode=PassageHit(uuid=text, episode_uuid="e", start=0, end=len(text), text=f"Ana: {text}",
                                        speaker="Ana"))


def test_a_later_report_the_graph_did_not_read_leads_the_answer():
    ask = StateQuestion(kind="office", predicate="holds_office", role="ceo", org="Walmart")
    answer = [_fact("m", "Mike Duke", 2009)]
    news = _said("Word is Doug McMillon now runs Walmart as its CEO.", 2014)
    others = [_said("Wasn't Mike Duke the CEO of Walmart?", 2015),  # a question states nothing
              _said("Mike Duke, the CEO of Walmart, spoke today.", 2013),  # agrees with the answer
              _said("Walmart's vice president is Ann Lee.", 2016),  # another role
              _said("Target named Brian Cornell as its CEO.", 2014),  # another organization
              _said("Doug McMillon is the CEO of Walmart now.", 2030)]  # after the time asked
    assert _unread_news([*others, news], answer, answer, _at(2020), ask) is news
    assert _unread_news(others, answer, answer, _at(2020), ask) is None
    # a report of a holder the graph knows is no news ("in 2013" answered by Mike, Doug's term read already)
    known = [*answer, _fact("d", "Doug McMillon", 2014)]
    assert _unread_news([*others, news], answer, known, _at(2020), ask) is None


def test_a_later_report_of_a_persons_move_leads_their_stale_home():
    ask = StateQuestion(kind="subject", predicate="lives_in", subject="Greta Fontaine")
    home = Fact(uuid="h", group_id="g", subject_uuid="p", subject_name="Greta Fontaine", predicate="lives_in",
                object_uuid="c", object_name="Helsinki", fact="Greta Fontaine lives in Helsinki",
                valid_at=datetime(2009, 6, 23, tzinfo=UTC))
    news = _said("Greta Fontaine's new home is in Hamburg.", 2014)
    others = [_said("Didn't Greta Fontaine live in Helsinki before?", 2015),
              _said("Greta Fontaine signed for Ajax.", 2016),
              _said("Greta Fontaine moved back to Helsinki for a while.", 2012)]  # a value the graph knows
    assert _unread_news([*others, news], [home], [home], _at(2020), ask) is news
    assert _unread_news(others, [home], [home], _at(2020), ask) is None
