"""The character network: INTERACTS_WITH edges from scenes, recomputed on commit and retraction, read by position."""

from __future__ import annotations

import pytest

from strata.graph import Graph
from strata.graph.network import interaction_network
from strata.graph.purge import purge_episode
from strata.graph.retract import retract_episode
from strata.graph.story import StoryAsk, story_cut
from strata.ingest.embedders import HashEmbedder
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.rules import purge_rules, split_rules
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


def test_network_as_of_a_chapter(graph: Graph, group_id: str, book) -> None:
    net = interaction_network(graph, group_id, story=story_cut(graph, group_id, StoryAsk(as_of_chapter=2)))
    assert net.as_of_chapter == 2 and net.as_of_position == book.episodes[1].span_end
    assert _pair(net, "Mr. Thomas Hale", "Miss Anna Grey").scenes == 1
    assert _pair(net, "Mr. Thomas Hale", "Mrs. Mary Stone") is None
    early = interaction_network(graph, group_id, story=story_cut(graph, group_id, StoryAsk(as_of_chapter=1)))
    assert [(i.a_name, i.b_name) for i in early.interactions] in (
        [("Mr. Thomas Hale", "Miss Anna Grey")], [("Miss Anna Grey", "Mr. Thomas Hale")])


def test_quotes_count_who_speaks_to_whom(graph: Graph, group_id: str) -> None:
    text = ('CHAPTER I.\n\n"Good morning, Miss Anna Grey," said Mr. Thomas Hale.\n\n'
            '"Good morning, Mr. Thomas Hale," said Miss Anna Grey.\n\n'
            '"Shall we walk to the river, Miss Anna Grey?" asked Mr. Thomas Hale.\n')
    doc = parse_source_text(text, "book", name="quotes.txt", group_id=group_id)
    pipeline = Pipeline(graph, SpacyExtractor(), HashEmbedder(dimension=384))
    for episode in doc.episodes:
        pipeline.process(episode, source=doc.source)
    pair = _pair(interaction_network(graph, group_id), "Mr. Thomas Hale", "Miss Anna Grey")
    hale_to_grey = pair.a_to_b if pair.a_name == "Mr. Thomas Hale" else pair.b_to_a
    grey_to_hale = pair.quotes - hale_to_grey
    assert (hale_to_grey, grey_to_hale) == (2, 1)
    assert pair.weight == pair.scenes + 6
    stored = graph.query("MATCH (a:Entity)-[r:INTERACTS_WITH]->(b:Entity) WHERE r.group_id = $g "
                         "RETURN r.a_to_b + r.b_to_a AS quotes", g=group_id)
    assert [r["quotes"] for r in stored] == [3]


def test_retraction_and_purge_recompute_the_stored_edges(graph: Graph, group_id: str, book) -> None:
    last = book.episodes[2]
    retract_episode(graph, group_id, last.uuid, recompute_timeline, utcnow())
    stored = _stored(graph, group_id)
    assert stored[frozenset(("Mr. Thomas Hale", "Miss Anna Grey"))]["scenes"] == 1
    assert frozenset(("Mr. Thomas Hale", "Mrs. Mary Stone")) not in stored
    purge_episode(graph, group_id, book.episodes[1].uuid, purge_rules(), utcnow())
    assert frozenset(("Miss Anna Grey", "Mrs. Mary Stone")) not in _stored(graph, group_id)


def test_a_merge_and_its_undo_move_the_stored_edges(graph: Graph, group_id: str, book) -> None:
    from strata.graph.edit import ManualMerge, merge_entities
    from strata.graph.undo import undo_record

    uuid_of = {r["name"]: r["uuid"] for r in graph.query(
        "MATCH (e:Entity {group_id: $g}) WHERE e.expired_at IS NULL RETURN e.name AS name, e.uuid AS uuid",
        g=group_id)}
    merged = merge_entities(graph, group_id, uuid_of["Mrs. Mary Stone"], uuid_of["Miss Anna Grey"],
                            recompute_timeline, utcnow(), ManualMerge(reason="test"))
    stored = _stored(graph, group_id)
    assert not any("Mrs. Mary Stone" in pair for pair in stored), stored
    assert stored[frozenset(("Mr. Thomas Hale", "Miss Anna Grey"))]["scenes"] == 2
    undo_record(graph, group_id, uuid_of["Miss Anna Grey"], merged.record_uuid, split_rules(), utcnow())
    stored = _stored(graph, group_id)
    assert stored[frozenset(("Mr. Thomas Hale", "Mrs. Mary Stone"))]["scenes"] == 1
    assert stored[frozenset(("Miss Anna Grey", "Mrs. Mary Stone"))]["scenes"] == 2
