"""The character network: INTERACTS_WITH edges from scenes, recomputed on commit and retraction, read by position."""

from __future__ import annotations

import pytest

from strata.graph import Graph
from strata.graph.network import interaction_network
from strata.graph.retract import purge_episode, retract_episode
from strata.ingest.embedders import HashEmbedder
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources.base import parse_source_text
from strata.resolve.timeline import recompute_timeline
from strata.schema.models import utcnow

pytestmark = pytest.mark.integration

BOOK = """CHAPTER I.

Mr. Thomas Hale walked with Miss Anna Grey along the river, and spoke of the mill.

CHAPTER II.

Miss Anna Grey called on Mrs. Mary Stone at the rectory. She poured the tea.

CHAPTER III.

Mr. Thomas Hale met Miss Anna Grey again at the ball, and Mrs. Mary Stone watched them dance.
"""


def _pair(net, x: str, y: str):
    found = [i for i in net.interactions if {i.a_name, i.b_name} == {x, y}]
    return found[0] if found else None


@pytest.fixture
def book(graph: Graph, group_id: str):
    doc = parse_source_text(BOOK, "book", name="three-chapters.txt", group_id=group_id)
    pipeline = Pipeline(graph, SpacyExtractor(), HashEmbedder(dimension=384))
    for episode in doc.episodes:
        pipeline.process(episode, source=doc.source)
    return doc


def _stored(graph: Graph, group_id: str) -> dict[frozenset[str], dict]:
    rows = graph.query("MATCH (a:Entity)-[r:INTERACTS_WITH]->(b:Entity) WHERE r.group_id = $g "
                       "RETURN a.name AS a, b.name AS b, r.scenes AS scenes, r.first_chapter AS first, "
                       "r.last_chapter AS last", g=group_id)
    return {frozenset((r["a"], r["b"])): r for r in rows}


def test_scenes_are_counted_per_pair_with_first_and_last_chapter(graph: Graph, group_id: str, book) -> None:
    assert len(book.episodes) == 3
    net = interaction_network(graph, group_id)
    hale_grey = _pair(net, "Mr. Thomas Hale", "Miss Anna Grey")
    assert hale_grey is not None, [(i.a_name, i.b_name) for i in net.interactions]
    assert hale_grey.scenes == 2
    assert (hale_grey.first.chapter, hale_grey.last.chapter) == ("CHAPTER I.", "CHAPTER III.")
    assert _pair(net, "Miss Anna Grey", "Mrs. Mary Stone").scenes == 2
    assert _pair(net, "Mr. Thomas Hale", "Mrs. Mary Stone").scenes == 1
    assert net.interactions[0].weight >= net.interactions[-1].weight
    # the stored edges (what Bloom shows) say the same
    stored = _stored(graph, group_id)
    assert stored[frozenset(("Mr. Thomas Hale", "Miss Anna Grey"))]["scenes"] == 2
    assert stored[frozenset(("Mr. Thomas Hale", "Mrs. Mary Stone"))]["first"] == "CHAPTER III."


def test_network_as_of_a_story_position(graph: Graph, group_id: str, book) -> None:
    end_of_two = book.episodes[1].span_end
    net = interaction_network(graph, group_id, until_position=end_of_two)
    assert _pair(net, "Mr. Thomas Hale", "Miss Anna Grey").scenes == 1
    assert _pair(net, "Mr. Thomas Hale", "Mrs. Mary Stone") is None


def test_retraction_and_purge_recompute_the_stored_edges(graph: Graph, group_id: str, book) -> None:
    last = book.episodes[2]
    retract_episode(graph, group_id, last.uuid, recompute_timeline, utcnow())
    stored = _stored(graph, group_id)
    assert stored[frozenset(("Mr. Thomas Hale", "Miss Anna Grey"))]["scenes"] == 1
    assert frozenset(("Mr. Thomas Hale", "Mrs. Mary Stone")) not in stored
    purge_episode(graph, group_id, book.episodes[1].uuid)
    assert frozenset(("Miss Anna Grey", "Mrs. Mary Stone")) not in _stored(graph, group_id)
