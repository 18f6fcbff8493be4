"""The benchmark graph generator: names distinct by construction, streamed facts, impossible requests refused."""

from __future__ import annotations

import itertools

import pytest

from strata.ingest.testing.synthetic import ORGS, PEOPLE, PLACES, ImpossibleRequestError, generate


@pytest.mark.parametrize("space", [PEOPLE, ORGS, PLACES], ids=lambda s: s.kind)
def test_names_are_distinct_across_the_first_blocks_and_their_seams(space) -> None:
    order = space.order(7)
    edges = [i for b in range(1, min(space.blocks, 3)) for i in range(b * space.combinations - 3000,
                                                                         b * space.combinations + 3000)]
    indexes = sorted(set(range(min(space.size, 60_000))) | set(edges))
    names = [space.name(i, order) for i in indexes]
    assert len(set(names)) == len(names)


def test_a_graph_names_every_entity_once_and_states_exactly_the_facts_asked() -> None:
    gen = generate("bench-unit", 5_000)
    entities = list(gen.entities())
    assert len(entities) == gen.n_entities == 625 + 78 + 31
    assert len({e.name for e in entities}) == len({e.uuid for e in entities}) == len(entities)
    facts = list(gen.facts())
    assert len(facts) == 5_000 and len({f.uuid for f in facts}) == 5_000
    known = {e.uuid for e in entities}
    assert all(f.subject.uuid in known and f.object.uuid in known for f in facts)
    # A closed fact names its successor, which the graph holds (the last unit was cut without dangling ends).
    uuids = {f.uuid for f in facts}
    assert all(f.invalidated_by in uuids for f in facts if f.invalidated_by)
    assert [f.uuid for f in generate("bench-unit", 5_000).facts()] == [f.uuid for f in facts]


def test_ten_million_facts_are_planned_at_once_and_streamed() -> None:
    gen = generate("bench-unit", 10_000_000)
    assert (gen.n_people, gen.n_orgs, gen.n_places) == (1_250_000, 156_250, 62_500)
    first = list(itertools.islice(gen.facts(), 2_000))
    assert len(first) == 2_000
    # The last people are as nameable as the first: no name list runs dry at this size.
    assert gen.person(gen.n_people - 1).name != gen.person(0).name


@pytest.mark.parametrize("facts", [0, -5, 20_000_000])
def test_an_impossible_request_is_refused_at_once(facts: int) -> None:
    with pytest.raises(ImpossibleRequestError, match="fact"):
        generate("bench-unit", facts)
