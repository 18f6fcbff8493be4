"""The per-episode commit on a real Neo4j: idempotence, provenance, order-independent timelines, retraction."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.commit import commit_episode
from strata.graph.read import list_facts
from strata.graph.retract import retract_episode
from strata.resolve.timeline import recompute_timeline
from strata.schema import ids
from strata.schema.errors import InputError
from strata.schema.models import Episode, ExtractorInfo
from strata.schema.plan import CommitPlan, EntityWrite, Evidence, FactWrite, MentionWrite, Predicate

pytestmark = pytest.mark.integration
NOW = datetime(2026, 1, 1, tzinfo=UTC)
LATER = datetime(2026, 3, 1, tzinfo=UTC)


def _dt(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def _entity(group: str, name: str, type_: str = "Person") -> EntityWrite:
    key = name.lower()
    return EntityWrite(uuid=ids.entity_uuid(group, key), key=key, name=name, type=type_, aliases=[name])


def _plan(group: str, seq: int, holder: str, office: str, year: int, predicate: str = "holds_office",
          functional: str | None = "object") -> CommitPlan:
    content = f"{holder} holds {office} from {year}."
    ep = Episode(uuid=ids.episode_uuid(group, "src", seq), group_id=group, seq=seq, kind="facts",
                 content=content, reference_time=_dt(year), content_hash=ids.content_hash(content))
    person, post = _entity(group, holder), _entity(group, office, "Office")
    fact = FactWrite(
        uuid=ids.fact_uuid(group, person.uuid, predicate, post.uuid, _dt(year)), subject_uuid=person.uuid,
        predicate=predicate, object_uuid=post.uuid, fact=content, valid_at=_dt(year),
        evidence=[Evidence(episode_uuid=ep.uuid, start=0, end=len(content))], asserted_by="registry")
    return CommitPlan(
        group_id=group, episode=ep, entities=[person, post],
        mentions=[MentionWrite(entity_uuid=person.uuid, surface_forms=[holder]),
                  MentionWrite(entity_uuid=post.uuid, surface_forms=[office])],
        facts=[fact], predicates=[Predicate(name=predicate, functional=functional)],
        extractor=ExtractorInfo(name="facts"))


def _snapshot(graph: Graph, group: str) -> list[dict]:
    # the group's text version is a cache token (graph/text_version.py) every commit sets anew, not data
    nodes = graph.query("MATCH (n {group_id: $g}) WHERE NOT n:TextVersion "
                        "RETURN labels(n) AS l, properties(n) AS p ORDER BY n.uuid, n.name", g=group)
    rels = graph.query("MATCH ()-[r:RELATES_TO {group_id: $g}]->() RETURN properties(r) AS p ORDER BY r.uuid", g=group)
    mentions = graph.query("MATCH (e:Episode {group_id: $g})-[m:MENTIONS]->(x) "
                           "RETURN e.uuid AS e, x.uuid AS x, properties(m) AS p ORDER BY e, x", g=group)
    return [*nodes, *rels, *mentions]


def _intervals(graph: Graph, group: str) -> dict[str, tuple]:
    page = list_facts(graph, group, include_history=True, limit=1000)
    return {f.subject_name: (f.valid_at, f.invalid_at, f.expired_at is not None) for f in page.items}


HOLDERS = [("Ann Archer", 1990), ("Ben Baker", 1995), ("Cleo Cole", 2001), ("Dan Dorn", 2008)]


def test_commit_twice_changes_nothing(graph: Graph, group_id: str) -> None:
    plan = _plan(group_id, 0, "Ann Archer", "Mayor of Avalon", 1990)
    commit_episode(graph, plan, recompute_timeline, NOW)
    before = _snapshot(graph, group_id)
    commit_episode(graph, plan, recompute_timeline, datetime(2026, 6, 1, tzinfo=UTC))
    assert _snapshot(graph, group_id) == before


def test_same_fact_from_two_episodes_appends_provenance(graph: Graph, group_id: str) -> None:
    first = _plan(group_id, 0, "Ann Archer", "Mayor of Avalon", 1990)
    second_ep = first.episode.model_copy(update={"uuid": ids.episode_uuid(group_id, "src", 1), "seq": 1})
    fact = first.facts[0].model_copy(update={"evidence": [Evidence(episode_uuid=second_ep.uuid, start=0, end=5)]})
    second = first.model_copy(update={"episode": second_ep, "facts": [fact]})
    commit_episode(graph, first, recompute_timeline, NOW)
    commit_episode(graph, second, recompute_timeline, NOW)
    page = list_facts(graph, group_id, include_history=True)
    assert page.count == 1
    assert sorted(page.items[0].episodes) == sorted([first.episode.uuid, second_ep.uuid])
    assert len(page.items[0].evidence) == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_timeline_is_independent_of_commit_order(graph: Graph, group_id: str, seed: int) -> None:
    plans = [_plan(group_id, i, name, "Mayor of Avalon", year) for i, (name, year) in enumerate(HOLDERS)]
    random.Random(seed).shuffle(plans)
    for plan in plans:
        commit_episode(graph, plan, recompute_timeline, NOW)
    got = _intervals(graph, group_id)
    assert got == {
        "Ann Archer": (_dt(1990), _dt(1995), False),
        "Ben Baker": (_dt(1995), _dt(2001), False),
        "Cleo Cole": (_dt(2001), _dt(2008), False),
        "Dan Dorn": (_dt(2008), None, False),
    }
    as_of = list_facts(graph, group_id, as_of=_dt(1999))
    assert [f.subject_name for f in as_of.items] == ["Ben Baker"]
    naive = list_facts(graph, group_id, as_of=datetime(1999, 1, 1))  # a naive time is read as UTC
    assert [f.subject_name for f in naive.items] == ["Ben Baker"]
    assert [f.subject_name for f in list_facts(graph, group_id).items] == ["Dan Dorn"]


def test_retraction_reopens_what_it_closed_and_recommit_restores(graph: Graph, group_id: str) -> None:
    plans = [_plan(group_id, i, name, "Mayor of Avalon", year) for i, (name, year) in enumerate(HOLDERS)]
    for plan in plans:
        commit_episode(graph, plan, recompute_timeline, NOW)
    original = _intervals(graph, group_id)
    result = retract_episode(graph, group_id, plans[1].episode.uuid, recompute_timeline, LATER)
    assert result.facts_expired == 1
    got = _intervals(graph, group_id)
    assert got["Ann Archer"] == (_dt(1990), _dt(2001), False)  # Ben's term is gone: Ann served until Cleo
    assert got["Ben Baker"][2] is True  # expired, kept as history
    assert [f.subject_name for f in list_facts(graph, group_id, as_of=_dt(1999)).items] == ["Ann Archer"]
    # believed at a time before the retraction: Ben was mayor in 1999
    before = list_facts(graph, group_id, as_of=_dt(1999), known_at=datetime(2026, 2, 1, tzinfo=UTC))
    assert [f.subject_name for f in before.items] == ["Ben Baker"]
    assert list_facts(graph, group_id, known_at=datetime(2025, 12, 31, tzinfo=UTC)).count == 0  # nothing known yet
    expired = "MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NOT NULL RETURN e.name AS name"
    assert [r["name"] for r in graph.query(expired, g=group_id)] == ["Ben Baker"]  # nothing supports him now
    commit_episode(graph, plans[1], recompute_timeline, LATER)
    assert _intervals(graph, group_id) == original
    assert graph.query(expired, g=group_id) == []  # stated again: back


def test_unrelated_slots_are_never_closed(graph: Graph, group_id: str) -> None:
    commit_episode(graph, _plan(group_id, 0, "Ann Archer", "Mayor of Avalon", 1990), recompute_timeline, NOW)
    commit_episode(graph, _plan(group_id, 1, "Ben Baker", "Mayor of Brill", 1995), recompute_timeline, NOW)
    commit_episode(graph, _plan(group_id, 2, "Ann Archer", "Friend of Brill", 1996, predicate="likes",
                                functional=None), recompute_timeline, NOW)
    assert all(f.invalid_at is None for f in list_facts(graph, group_id, include_history=True).items)


def test_negation_closes_only_its_pair_and_retracting_it_reopens(graph: Graph, group_id: str) -> None:
    likes = _plan(group_id, 0, "Ann Archer", "Jazz Club", 2001, predicate="likes", functional=None)
    other = _plan(group_id, 1, "Ann Archer", "Chess Club", 2001, predicate="likes", functional=None)
    negation_fact = likes.facts[0].model_copy(update={
        "uuid": ids.fact_uuid(group_id, likes.facts[0].subject_uuid, "not:likes", likes.facts[0].object_uuid,
                              _dt(2005)), "valid_at": _dt(2005), "negated": True})
    neg_ep = likes.episode.model_copy(update={"uuid": ids.episode_uuid(group_id, "src", 2), "seq": 2})
    negation = likes.model_copy(update={"episode": neg_ep, "facts": [negation_fact]})
    for plan in (likes, other, negation):
        commit_episode(graph, plan, recompute_timeline, NOW)
    page = list_facts(graph, group_id, include_history=True)
    by_object = {(f.object_name, f.negated): f for f in page.items}
    assert by_object[("Jazz Club", False)].invalid_at == _dt(2005)
    assert by_object[("Jazz Club", False)].invalidated_by == negation_fact.uuid
    assert by_object[("Chess Club", False)].invalid_at is None
    assert [f.object_name for f in list_facts(graph, group_id).items] == ["Chess Club"]
    retract_episode(graph, group_id, neg_ep.uuid, recompute_timeline, LATER)
    assert sorted(f.object_name for f in list_facts(graph, group_id).items) == ["Chess Club", "Jazz Club"]


def test_negation_committed_before_the_fact_still_closes_it(graph: Graph, group_id: str) -> None:
    likes = _plan(group_id, 0, "Ann Archer", "Jazz Club", 2001, predicate="likes", functional=None)
    negation_fact = likes.facts[0].model_copy(update={
        "uuid": ids.fact_uuid(group_id, likes.facts[0].subject_uuid, "not:likes", likes.facts[0].object_uuid,
                              _dt(2005)), "valid_at": _dt(2005), "negated": True})
    neg_ep = likes.episode.model_copy(update={"uuid": ids.episode_uuid(group_id, "src", 2), "seq": 2})
    commit_episode(graph, likes.model_copy(update={"episode": neg_ep, "facts": [negation_fact]}),
                   recompute_timeline, NOW)
    commit_episode(graph, likes, recompute_timeline, LATER)
    fact = next(f for f in list_facts(graph, group_id, include_history=True).items if not f.negated)
    assert (fact.invalid_at, fact.invalidated_by) == (_dt(2005), negation_fact.uuid)
    assert list_facts(graph, group_id).items == []


def test_listing_pages_read_one_snapshot_and_count_once(graph: Graph, group_id: str) -> None:
    for seq, (holder, year) in enumerate(HOLDERS):
        commit_episode(graph, _plan(group_id, seq, holder, f"Chair of Club {seq}", year), recompute_timeline, NOW)
    first = list_facts(graph, group_id, predicate="holds_office", limit=3)
    assert first.count == 4 and len(first.items) == 3 and first.next_cursor
    # A fact learned after the first page is not part of this listing: the pages stay one snapshot.
    late = datetime.now(UTC)
    commit_episode(graph, _plan(group_id, 9, "Eve Evans", "Chair of Club 9", 2010), recompute_timeline, late)
    rest = list_facts(graph, group_id, predicate="holds_office", limit=3, cursor=first.next_cursor)
    assert rest.count == 4 and rest.next_cursor is None
    assert len({f.uuid for f in [*first.items, *rest.items]}) == 4
    assert "Eve Evans" not in {f.subject_name for f in rest.items}
    assert list_facts(graph, group_id, predicate="holds_office").count == 5


def test_listing_refuses_a_damaged_cursor_or_one_from_other_filters(graph: Graph, group_id: str) -> None:
    for seq, (holder, year) in enumerate(HOLDERS):
        commit_episode(graph, _plan(group_id, seq, holder, f"Chair of Club {seq}", year), recompute_timeline, NOW)
    cursor = list_facts(graph, group_id, predicate="holds_office", limit=2).next_cursor
    assert cursor
    with pytest.raises(InputError, match="other filters"):
        list_facts(graph, group_id, predicate="likes", limit=2, cursor=cursor)
    with pytest.raises(InputError, match="cursor"):
        list_facts(graph, group_id, predicate="holds_office", limit=2, cursor=cursor[:-5] + "!!!!!")


def test_merging_two_entities_keeps_one_copy_of_a_fact_both_stated(graph: Graph, group_id: str) -> None:
    from strata.graph.edit import merge_entities

    ann = _plan(group_id, 0, "Ann Archer", "Mayor of Avalon", 1990)
    alias = _plan(group_id, 1, "A. Archer", "Mayor of Avalon", 1990)
    for plan in (ann, alias):
        commit_episode(graph, plan, recompute_timeline, NOW)
    result = merge_entities(graph, group_id, alias.entities[0].uuid, ann.entities[0].uuid, recompute_timeline, LATER)
    assert result.facts_moved == 1 and result.facts_deduplicated == 1
    live = list_facts(graph, group_id).items
    assert len(live) == 1 and live[0].subject_name == "Ann Archer"
    assert sorted(live[0].episodes) == sorted([ann.episode.uuid, alias.episode.uuid])
    # The duplicate is history, not deleted; retracting one episode leaves the fact standing on the other.
    assert len(list_facts(graph, group_id, include_history=True).items) == 2
    retract_episode(graph, group_id, alias.episode.uuid, recompute_timeline, LATER)
    assert [f.episodes for f in list_facts(graph, group_id).items] == [[ann.episode.uuid]]


def _marriage(group: str, seq: int, one: str, other: str, year: int) -> CommitPlan:
    content = f"{one} married {other} in {year}."
    ep = Episode(uuid=ids.episode_uuid(group, "src", seq), group_id=group, seq=seq, kind="facts",
                 content=content, reference_time=_dt(year), content_hash=ids.content_hash(content))
    a, b = _entity(group, one), _entity(group, other)
    fact = FactWrite(uuid=ids.fact_uuid(group, a.uuid, "spouse_of", b.uuid, _dt(year)), subject_uuid=a.uuid,
                     predicate="spouse_of", object_uuid=b.uuid, fact=content, valid_at=_dt(year),
                     evidence=[Evidence(episode_uuid=ep.uuid, start=0, end=len(content))])
    return CommitPlan(group_id=group, episode=ep, entities=[a, b], facts=[fact],
                      mentions=[MentionWrite(entity_uuid=a.uuid, surface_forms=[one]),
                                MentionWrite(entity_uuid=b.uuid, surface_forms=[other])],
                      predicates=[Predicate(name="spouse_of", functional="symmetric")],
                      extractor=ExtractorInfo(name="facts"))


MARRIAGES = [("Ann", "Bob", 2000), ("Bob", "Ann", 2003), ("Cat", "Ann", 2009), ("Bob", "Dee", 2012)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_symmetric_predicate_keeps_one_partner_whichever_side_states_it(graph: Graph, group_id: str,
                                                                           seed: int) -> None:
    plans = [_marriage(group_id, i, *m) for i, m in enumerate(MARRIAGES)]
    for plan in random.Random(seed).sample(plans, len(plans)):
        commit_episode(graph, plan, recompute_timeline, NOW)

    def intervals() -> dict[tuple[str, str], tuple]:
        page = list_facts(graph, group_id, include_history=True, limit=1000)
        return {(f.subject_name, f.object_name): (f.valid_at, f.invalid_at) for f in page.items if not f.expired_at}

    # Ann and Bob's marriage, stated from both sides, ends when Ann marries Cat; Bob's later marriage ends
    # nothing of Ann's.
    assert intervals() == {("Ann", "Bob"): (_dt(2000), _dt(2009)), ("Bob", "Ann"): (_dt(2003), _dt(2009)),
                           ("Cat", "Ann"): (_dt(2009), None), ("Bob", "Dee"): (_dt(2012), None)}
    assert {(f.subject_name, f.object_name) for f in list_facts(graph, group_id).items} == {("Cat", "Ann"),
                                                                                        ("Bob", "Dee")}
    # Retracting Ann's second marriage reopens the first (both statements of it) until Bob remarries.
    retract_episode(graph, group_id, plans[2].episode.uuid, recompute_timeline, LATER)
    assert intervals() == {("Ann", "Bob"): (_dt(2000), _dt(2012)), ("Bob", "Ann"): (_dt(2003), _dt(2012)),
                           ("Bob", "Dee"): (_dt(2012), None)}


def test_a_plan_that_mentions_no_subject_can_still_be_retracted(graph: Graph, group_id: str) -> None:
    plan = _marriage(group_id, 0, "Ann", "Bob", 2000).model_copy(update={"mentions": []})
    commit_episode(graph, plan, recompute_timeline, NOW)
    assert list_facts(graph, group_id).count == 1
    assert retract_episode(graph, group_id, plan.episode.uuid, recompute_timeline, LATER).facts_expired == 1
    assert list_facts(graph, group_id).count == 0
