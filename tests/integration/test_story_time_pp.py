"""Story time on Pride and Prejudice (read in place): what the story says about Charlotte Lucas, chapter by
chapter. Chapters 18-30 are ingested: her engagement to Mr. Collins (chapter 22) and her life at Hunsford."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from strata.graph import Graph
from strata.graph.read import list_facts
from strata.graph.story import StoryAsk, story_cut
from strata.ingest.extractors import SpacyExtractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources import load_source
from strata.resolve.temporal import holds_in_story
from strata.resolve.types import TemporalFact
from strata.schema.models import Fact

pytestmark = pytest.mark.integration

CHAPTERS = range(18, 31)
NOW = datetime(2025, 3, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def pp(graph: Graph, shared_data: Path) -> Iterator[str]:
    path = shared_data / "books" / "pride_and_prejudice_pg1342.txt"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    group = f"test-story-pp-{random.randrange(10**8)}"
    doc = load_source(path, "book", group_id=group, now=NOW)
    pipeline = Pipeline(graph, SpacyExtractor(), None)
    try:
        for episode in doc.episodes:
            if episode.metadata.get("chapter_index") in CHAPTERS:
                pipeline.process(episode, source=doc.source, now=NOW)
        yield group
    finally:
        graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)


def _about_charlotte(graph: Graph, group: str, ask: StoryAsk | None, history: bool = False) -> list[Fact]:
    cut = story_cut(graph, group, ask)
    facts = list_facts(graph, group, story=cut, include_history=history, limit=1000).items
    return [f for f in facts if "Charlotte" in f.subject_name or "Charlotte" in f.object_name]


def _temporal(f: Fact) -> TemporalFact:
    return TemporalFact(uuid=f.uuid, subject_uuid=f.subject_uuid, predicate=f.predicate, object_uuid=f.object_uuid,
                        valid_at=f.valid_at, negated=f.negated, story_at=f.story_at, story_until=f.story_until)


def test_charlottes_facts_appear_chapter_by_chapter(graph: Graph, pp: str) -> None:
    every = _about_charlotte(graph, pp, None, history=True)
    assert len({f.story_chapter for f in every}) >= 3, [(f.fact, f.story_chapter) for f in every]
    assert all(f.story_at is not None and f.story_chapter in CHAPTERS for f in every)
    seen: set[str] = set()
    for chapter in CHAPTERS:
        cut = story_cut(graph, pp, StoryAsk(as_of_chapter=chapter))
        assert cut is not None
        now = {f.uuid for f in _about_charlotte(graph, pp, StoryAsk(as_of_chapter=chapter))}
        # exactly what a reader at the end of the chapter holds: stated by then, not closed by then
        assert now == {f.uuid for f in every if holds_in_story(_temporal(f), cut.position)}, chapter
        assert all(next(f for f in every if f.uuid == u).story_chapter <= chapter for u in now)
        seen |= now
    # a fact first stated in a later chapter is absent before it and present (unless closed) from it on
    late = [f for f in every if f.story_chapter > CHAPTERS[0] and not f.negated and f.story_until is None]
    assert late
    for f in late:
        before = {x.uuid for x in _about_charlotte(graph, pp, StoryAsk(as_of_chapter=f.story_chapter - 1))}
        after = {x.uuid for x in _about_charlotte(graph, pp, StoryAsk(as_of_chapter=f.story_chapter))}
        assert f.uuid not in before and f.uuid in after


@pytest.mark.xfail(reason="the offline extractor gives 'Charlotte spouse_of Mr. Collins' in chapter 22, but "
                          "'Mrs. Collins' (chapter 28) is a separate entity, so 'Mrs. Collins spouse_of Mr. Collins' "
                          "closes it in the symmetric slot; a married-name merge at ingestion would hold it",
                   strict=False)
def test_charlotte_is_married_to_mr_collins_only_after_chapter_22(graph: Graph, pp: str) -> None:
    def spouses(chapter: int) -> list[Fact]:
        return [f for f in _about_charlotte(graph, pp, StoryAsk(as_of_chapter=chapter))
                if f.predicate == "spouse_of" and "Collins" in f.subject_name + f.object_name]

    assert spouses(20) == []
    assert spouses(30)
