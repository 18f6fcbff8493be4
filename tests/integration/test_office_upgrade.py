"""Migration 0022 and its upgrade move offices stored the old way onto (organization, role) slots."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph, load_migrations
from strata.graph.read import list_facts
from strata.graph.upgrade import upgrade_offices
from strata.ingest.rules import office_rules

pytestmark = pytest.mark.integration

OLD_FACTS = """
UNWIND $rows AS row
MERGE (s:Entity {group_id: $g, key: 'person:' + toLower(row.s)})
  ON CREATE SET s.uuid = randomUUID(), s.name = row.s, s.type = 'Person', s:Person
MERGE (o:Entity {group_id: $g, key: row.okey})
  ON CREATE SET o.uuid = randomUUID(), o.name = row.o, o.type = row.otype
CREATE (s)-[:RELATES_TO {uuid: randomUUID(), group_id: $g, predicate: row.p, fact: row.s + ' ' + row.p + ' ' + row.o,
                          valid_at: datetime(row.at), created_at: datetime(), negated: false, episodes: [],
                          confidence: 1.0, asserted_by: [], agents: [], evidence: []}]->(o)
"""


def test_old_offices_move_to_their_organization_and_their_slots_are_recomputed(graph: Graph, group_id: str) -> None:
    graph.query(OLD_FACTS, g=group_id, rows=[
        {"s": "Ana Ferreira", "p": "holds_office", "o": "Mayor of Alvorada", "okey": "office:mayor of alvorada",
         "otype": "Office", "at": "2009-01-01"},
        {"s": "Rui Costa", "p": "holds_office", "o": "Mayor of Alvorada", "okey": "office:mayor of alvorada",
         "otype": "Office", "at": "2013-10-20"},
        {"s": "Lee Scott", "p": "ceo_of", "o": "Walmart", "okey": "organization:walmart", "otype": "Organization",
         "at": "2000-01-31"},
        {"s": "Doug McMillon", "p": "holds_office", "o": "CEO of Walmart", "okey": "office:ceo of walmart",
         "otype": "Office", "at": "2014-02-01"}])
    migration = next(m for m in load_migrations() if m.name == "office_roles")
    for statement in migration.statements:  # the migration's data step again, as a database of old facts gets it
        graph.query(statement)
    assert upgrade_offices(graph, office_rules()) >= 4
    facts = {f.subject_name: f for f in list_facts(graph, group_id, predicate="holds_office",
                                                     include_history=True).items}
    assert {n: (f.object_name, f.role) for n, f in facts.items()} == {
        "Ana Ferreira": ("Alvorada", "mayor"), "Rui Costa": ("Alvorada", "mayor"),
        "Lee Scott": ("Walmart", "ceo"), "Doug McMillon": ("Walmart", "ceo")}
    assert facts["Lee Scott"].predicate_text == "ceo_of"
    # one slot each: the later holder closes the earlier one
    assert facts["Ana Ferreira"].invalid_at == datetime(2013, 10, 20, tzinfo=UTC)
    assert facts["Lee Scott"].invalid_at == datetime(2014, 2, 1, tzinfo=UTC)
    assert facts["Doug McMillon"].invalid_at is None
    assert upgrade_offices(graph, office_rules()) == 0  # nothing left marked
