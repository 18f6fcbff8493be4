"""Story time: a book's facts follow the story, and reads cut the story at a chapter or a position."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.graph import Graph
from strata.graph.read import entity_timeline, list_facts
from strata.graph.story import StoryAsk, story_cut
from strata.graph.traverse import ReadCut, neighborhood
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources import parse_source_text
from strata.resolve.normalize import entity_key
from strata.schema.errors import InputError, NotFoundError
from strata.schema.models import Fact

pytestmark = pytest.mark.integration

NOW = datetime(2025, 3, 1, tzinfo=UTC)
BOOK = """THE STORY OF ANN

CHAPTER I

Ann Archer lived in Bath with her aunt. Ann Archer was married to Bob Baker.

CHAPTER II

Bob Baker died in the winter. Ann Archer moved to York.

CHAPTER III

Ann Archer married Carl Conway. Ann Archer moved to Leeds.
"""


def _ingest(graph: Graph, group_id: str, text: str, name: str, reverse: bool = False) -> None:
    doc = parse_source_text(text, "book", name=name, group_id=group_id, now=NOW)
    pipeline = Pipeline(graph, SpacyExtractor(), None)
    # Committing the last chapter first must give the same story: the rules depend on the facts, not the order.
    for episode in reversed(doc.episodes) if reverse else doc.episodes:
        pipeline.process(episode, source=doc.source, now=NOW)


def _ann(graph: Graph, group_id: str, predicate: str, ask: StoryAsk | None) -> list[str]:
    cut = story_cut(graph, group_id, ask)
    page = list_facts(graph, group_id, subject_key=entity_key("Ann Archer", "Person"), predicate=predicate,
                      story=cut)
    return sorted(f.object_name for f in page.items)


def _couples(graph: Graph, group_id: str, ask: StoryAsk | None) -> list[set[str]]:
    facts = list_facts(graph, group_id, predicate="spouse_of", story=story_cut(graph, group_id, ask)).items
    return [{f.subject_name, f.object_name} for f in facts]


@pytest.mark.parametrize("reverse", [False, True])
def test_a_functional_slot_follows_the_story_chapter_by_chapter(graph: Graph, group_id: str, reverse: bool) -> None:
    _ingest(graph, group_id, BOOK, "ann.txt", reverse)
    assert _ann(graph, group_id, "lives_in", StoryAsk(as_of_chapter=1)) == ["Bath"]
    assert _ann(graph, group_id, "lives_in", StoryAsk(as_of_chapter=2)) == ["York"]
    assert _ann(graph, group_id, "lives_in", StoryAsk(as_of_chapter=3)) == ["Leeds"]
    # spouse_of is symmetric: one partner at a time, whichever side the pair is stored on
    assert _couples(graph, group_id, StoryAsk(as_of_chapter=1)) == [{"Ann Archer", "Bob Baker"}]
    assert _couples(graph, group_id, StoryAsk(as_of_chapter=2)) == [{"Ann Archer", "Bob Baker"}]
    assert _couples(graph, group_id, StoryAsk(as_of_chapter=3)) == [{"Ann Archer", "Carl Conway"}]
    assert _couples(graph, group_id, None) == [{"Ann Archer", "Carl Conway"}]
    # current (valid time, no cut): the end of the story; what it closed ended at its own instant
    assert _ann(graph, group_id, "lives_in", None) == ["Leeds"]
    history = list_facts(graph, group_id, subject_key=entity_key("Ann Archer", "Person"), predicate="lives_in",
                         include_history=True).items
    closed = {f.object_name: f for f in history}
    assert closed["Bath"].invalid_at == closed["Bath"].valid_at and closed["Leeds"].invalid_at is None
    assert closed["Bath"].story_until == closed["York"].story_at < closed["Leeds"].story_at
    assert (closed["Bath"].story_chapter, closed["York"].story_chapter, closed["Leeds"].story_chapter) == (1, 2, 3)


def test_a_position_cut_orders_two_facts_of_one_window(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, BOOK, "ann.txt")
    chapter3 = list_facts(graph, group_id, story=story_cut(graph, group_id, StoryAsk(as_of_chapter=3))).items
    married = next(f for f in chapter3 if f.predicate == "spouse_of")
    leeds = next(f for f in chapter3 if f.object_name == "Leeds")
    assert married.story_at < leeds.story_at  # one window, two statements, two positions
    between = story_cut(graph, group_id, StoryAsk(as_of_position=leeds.story_at))
    assert _ann(graph, group_id, "lives_in", StoryAsk(as_of_position=between.position)) == ["York"]
    assert _ann(graph, group_id, "lives_in", StoryAsk(as_of_position=leeds.story_at + 1)) == ["Leeds"]


def test_timeline_and_neighbourhood_read_the_story(graph: Graph, group_id: str) -> None:
    _ingest(graph, group_id, BOOK, "ann.txt", reverse=True)
    ann = graph.query("MATCH (e:Entity {group_id: $g, key: $k}) RETURN e.uuid AS uuid", g=group_id,
                      k=entity_key("Ann Archer", "Person"))[0]["uuid"]
    timeline = entity_timeline(graph, group_id, ann)
    assert [f.story_at for f in timeline] == sorted(f.story_at for f in timeline)
    assert [f.object_name for f in timeline if f.predicate == "lives_in"] == ["Bath", "York", "Leeds"]
    cut = story_cut(graph, group_id, StoryAsk(as_of_chapter=1))
    assert {_other(f) for f in entity_timeline(graph, group_id, ann, story=cut)} == {"Bath", "Bob Baker"}
    around = neighborhood(graph, group_id, ann,
                          cut=ReadCut(story=story_cut(graph, group_id, StoryAsk(as_of_chapter=2))))
    assert sorted(_other(f) for f in around.facts) == ["Bob Baker", "York"]
    around = neighborhood(graph, group_id, ann,
                          cut=ReadCut(story=story_cut(graph, group_id, StoryAsk(as_of_chapter=3))))
    assert sorted(_other(f) for f in around.facts) == ["Carl Conway", "Leeds"]


def _other(fact: Fact) -> str:
    """The name on the side of a fact that is not Ann (a symmetric pair may store her as the object)."""
    return fact.object_name if fact.subject_name == "Ann Archer" else fact.subject_name


def test_cut_errors_are_the_callers_to_fix(graph: Graph, group_id: str) -> None:
    with pytest.raises(NotFoundError):
        story_cut(graph, group_id, StoryAsk(as_of_chapter=1))  # no book yet
    _ingest(graph, group_id, BOOK, "ann.txt")
    with pytest.raises(NotFoundError):
        story_cut(graph, group_id, StoryAsk(as_of_chapter=9))
    with pytest.raises(InputError):
        story_cut(graph, group_id, StoryAsk(as_of_chapter=1), as_of=NOW)
    with pytest.raises(InputError):
        story_cut(graph, group_id, StoryAsk(as_of_chapter=1, as_of_position=5))
    _ingest(graph, group_id, BOOK.replace("Ann Archer", "Dora Dunn"), "dora.txt")
    with pytest.raises(InputError) as several:
        story_cut(graph, group_id, StoryAsk(as_of_chapter=1))
    assert {b["name"] for b in several.value.details["books"]} == {"ann.txt", "dora.txt"}
    cut = story_cut(graph, group_id, StoryAsk(as_of_chapter=2, source="dora.txt"))
    dora = list_facts(graph, group_id, predicate="lives_in", story=cut).items
    assert [(f.subject_name, f.object_name) for f in dora] == [("Dora Dunn", "York")]
