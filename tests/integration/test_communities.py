"""Communities on a real Neo4j: two obvious clusters come out as two communities, titled by their top members,
found by full text; a refresh over an unchanged graph changes nothing; a run past its budget writes nothing."""

from __future__ import annotations

import json

import pytest

from strata.graph import Graph
from strata.graph.communities import list_communities
from strata.ingest.communities import refresh_communities
from strata.ingest.sources import parse_source_text
from strata.ingest.submit import submit_document
from strata.ingest.summaries import Summarizer, refresh_group
from strata.ingest.tasks import build_pipeline
from strata.schema.settings import Settings

pytestmark = pytest.mark.integration

HARBOUR = ["Ann Archer", "Bob Brine", "Cid Cove", "Dee Dock"]
ORCHARD = ["Eve Elder", "Fay Fig", "Gus Grove", "Hal Hazel"]


def _clusters() -> str:
    """Everyone knows everyone in each cluster (Ann most of all: she also employs the harbour), one weak link."""
    rows = []
    for people, place in ((HARBOUR, "Saltmarsh Harbour"), (ORCHARD, "Pippin Orchard")):
        rows += [{"subject": a, "subject_type": "Person", "predicate": "knows", "object": b, "object_type": "Person",
                  "valid_at": "2024-01-01"} for k, a in enumerate(people) for b in people[k + 1:]]
        rows += [{"subject": p, "subject_type": "Person", "predicate": "works_for", "object": place,
                  "object_type": "Organization", "valid_at": "2024-01-01"} for p in people]
    rows += [{"subject": "Ann Archer", "subject_type": "Person", "predicate": p, "object": o, "object_type": "Person",
              "valid_at": "2024-01-02"} for p, o in (("visits", "Cid Cove"), ("wrote_to", "Bob Brine"))]
    rows.append({"subject": "Dee Dock", "subject_type": "Person", "predicate": "wrote_to", "object": "Eve Elder",
                 "object_type": "Person", "valid_at": "2024-01-01"})
    return "\n".join(json.dumps(r) for r in rows)


@pytest.fixture
def settings_fast(settings: Settings) -> Settings:
    return settings.model_copy(update={"embedder": "hash", "summary_min_interval_s": 0.0})


@pytest.fixture
def clusters(graph: Graph, settings_fast: Settings, group_id: str) -> str:
    doc = parse_source_text(_clusters(), "facts-jsonl", name="town.jsonl", group_id=group_id)
    assert submit_document(graph, None, doc, inline_pipeline=build_pipeline(settings_fast, graph)).status == "done"
    return group_id


def _members(graph: Graph, group_id: str) -> list[set[str]]:
    rows = graph.query("MATCH (c:Community {group_id: $g})-[:HAS_MEMBER]->(e:Entity) "
                       "RETURN c.uuid AS c, collect(e.name) AS names", g=group_id)
    return sorted((set(r["names"]) for r in rows), key=lambda s: sorted(s))


def test_two_obvious_clusters_are_two_communities(graph: Graph, settings_fast: Settings, clusters: str) -> None:
    run = refresh_communities(graph, clusters, settings_fast, Summarizer())
    assert run.written and run.communities == 2 and run.stopped is None
    assert _members(graph, clusters) == [set(HARBOUR) | {"Saltmarsh Harbour"}, set(ORCHARD) | {"Pippin Orchard"}]
    listed = list_communities(graph, clusters)
    assert [c.size for c in listed] == [5, 5]
    harbour = next(c for c in listed if "Ann Archer" in c.title)
    assert harbour.title.split(", ")[0] == "Ann Archer" and len(harbour.title.split(", ")) == 3  # top members
    assert harbour.summary.startswith("5 members: Ann Archer")
    assert "Saltmarsh Harbour" in harbour.summary  # from the members' summaries
    assert [m.name for m in harbour.members][0] == "Ann Archer"
    # found by full text, within the group
    found = list_communities(graph, clusters, query="who works at the orchard?")
    assert [c.title.split(", ")[0] for c in found][:1] != ["Ann Archer"] and "Eve Elder" in found[0].summary
    assert list_communities(graph, f"{clusters}-other", query="orchard") == []
    ann = graph.query("MATCH (e:Entity {group_id: $g, name: 'Ann Archer'}) RETURN e.uuid AS u", g=clusters)[0]["u"]
    assert [c.uuid for c in list_communities(graph, clusters, entity_uuid=ann)] == [harbour.uuid]


def test_a_refresh_over_an_unchanged_graph_changes_nothing(graph: Graph, settings_fast: Settings,
                                                           clusters: str) -> None:
    refresh_communities(graph, clusters, settings_fast, Summarizer())
    first = graph.query("MATCH (c:Community {group_id: $g}) RETURN c.uuid AS u, c.title AS t, c.summary AS s "
                        "ORDER BY u", g=clusters)
    refresh_group(graph, clusters, Summarizer(), force=True)
    again = refresh_communities(graph, clusters, settings_fast, Summarizer())
    assert again.written and again.communities == 2
    second = graph.query("MATCH (c:Community {group_id: $g}) RETURN c.uuid AS u, c.title AS t, c.summary AS s "
                         "ORDER BY u", g=clusters)
    assert second == first  # same nodes, same titles and summaries
    edges = graph.query("MATCH (c:Community {group_id: $g})-[h:HAS_MEMBER]->() RETURN count(h) AS n", g=clusters)
    assert edges[0]["n"] == 10  # no member linked twice


def test_a_run_past_its_budget_stops_without_writing(graph: Graph, settings_fast: Settings, clusters: str) -> None:
    refresh_communities(graph, clusters, settings_fast, Summarizer())
    before = _members(graph, clusters)
    graph.query("MATCH (e:Entity {group_id: $g, name: 'Dee Dock'}) SET e.expired_at = datetime()", g=clusters)
    run = refresh_communities(graph, clusters, settings_fast, Summarizer(), budget_s=1e-9)
    assert not run.written and run.stopped and "time budget" in run.stopped
    assert _members(graph, clusters) == before  # the previous communities stay
