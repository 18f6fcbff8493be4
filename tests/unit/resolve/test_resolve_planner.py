"""Planning facts: a symmetric predicate's pair is stored in one direction."""

from __future__ import annotations

from datetime import UTC, datetime

from strata.resolve.planner import PlanAids, build_plan
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo, Span

DAY = datetime(1812, 11, 1, tzinfo=UTC)


def _plan(content: str, subject: str, predicate: str, obj: str):
    episode = Episode(uuid=f"ep-{content}", group_id="g", kind="text", content=content, reference_time=DAY,
                      content_hash=content)
    start = content.index(obj)
    extraction = Extraction(episode_uuid=episode.uuid, extractor=ExtractorInfo(name="t"), entities=[
        ExtractedEntity(name=subject, type="Person", spans=[Span(start=0, end=len(subject))]),
        ExtractedEntity(name=obj, type="Person", spans=[Span(start=start, end=start + len(obj))])],
        facts=[ExtractedFact(subject=subject, predicate=predicate, object=obj, fact=content)])
    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=[])
    return plan


def test_a_symmetric_pair_stated_either_way_is_one_fact() -> None:
    one = _plan("Jane Bennet married Charles Bingley.", "Jane Bennet", "spouse_of", "Charles Bingley")
    other = _plan("Charles Bingley married Jane Bennet.", "Charles Bingley", "spouse_of", "Jane Bennet")
    (a,), (b,) = one.facts, other.facts
    assert a.uuid == b.uuid
    assert (a.subject_uuid, a.object_uuid) == (b.subject_uuid, b.object_uuid)
    assert a.subject_uuid < a.object_uuid


def test_a_directed_pair_keeps_the_stated_direction() -> None:
    one = _plan("Jane Bennet visited Charles Bingley.", "Jane Bennet", "visited", "Charles Bingley")
    other = _plan("Charles Bingley visited Jane Bennet.", "Charles Bingley", "visited", "Jane Bennet")
    (a,), (b,) = one.facts, other.facts
    assert a.uuid != b.uuid and (a.subject_uuid, a.object_uuid) == (b.object_uuid, b.subject_uuid)


def test_a_passage_context_is_the_turn_before_and_itself() -> None:
    from strata.resolve.passages import CONTEXT_CHARS, passages_for
    from strata.schema.models import Episode, Message

    long = "word " * (CONTEXT_CHARS // 4) + "and then a sunset over the lake."
    lines = [("ann", "Did you finish the painting?"), ("bob", "Yes, a sunset over the lake."), ("bob", long),
             ("ann", "Lovely!")]
    content, messages = "", []
    for speaker, text in lines:
        content += f"{speaker}: "
        messages.append(Message(speaker=speaker, text=text, start=len(content), end=len(content) + len(text)))
        content += text + "\n"
    episode = Episode(uuid="e", group_id="g", seq=0, kind="chat", content=content, messages=messages,
                      content_hash="h", reference_time=datetime(2024, 1, 1, tzinfo=UTC))
    passages = passages_for(episode)
    assert passages[0].context == "ann: Did you finish the painting?"
    assert passages[1].context == "ann: Did you finish the painting?\nbob: Yes, a sunset over the lake."
    # A long turn before: its tail, cut at a word, leads into the reply.
    before, own = passages[3].context.rsplit("\n", 1)
    assert own == "ann: Lovely!"
    assert len(before) <= CONTEXT_CHARS and before.endswith("sunset over the lake.") and before.startswith("word")


def test_an_unknown_predicate_folds_onto_a_registered_one_by_embedding() -> None:
    from strata.schema.plan import Predicate

    content = "Ann relocated to Porto."
    episode = Episode(uuid="ep", group_id="g", kind="text", content=content, reference_time=DAY, content_hash="h")
    fact = ExtractedFact(subject="Ann", predicate="relocate_into", object="Porto", fact=content,
                         spans=[Span(start=0, end=len(content))])
    extraction = Extraction(episode_uuid="ep", facts=[fact], extractor=ExtractorInfo(name="test"))
    near = {"relocate into": [1.0, 0.0], "resides near": [0.97, 0.1], "dislikes": [0.0, 1.0]}

    def embed(texts):
        return [near.get(t, [0.5, 0.5]) for t in texts]

    registry = [Predicate(name="resides_near"), Predicate(name="dislikes")]
    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=registry,
                         aids=PlanAids(embed=embed))
    assert [f.predicate for f in plan.facts] == ["resides_near"]
    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=registry)
    assert [f.predicate for f in plan.facts] == ["relocate_into"]  # without vectors, nothing to fold by


def _book_plan(position: int | None, facts: list[tuple[str, str, int]]):
    content = "Ann Archer lived in Bath. Later Ann Archer lived in York. Ann Archer lived in Bath."
    episode = Episode(uuid="ep-book", group_id="g", kind="text", content=content, reference_time=DAY,
                      content_hash="h", source_uuid="src", story_position=position,
                      metadata={"chapter_index": 3})
    extraction = Extraction(episode_uuid=episode.uuid, extractor=ExtractorInfo(name="t"), facts=[
        ExtractedFact(subject="Ann Archer", predicate="lives_in", object=o, fact=o, subject_type="Person",
                      object_type="Place", spans=[Span(start=at, end=at + 5)]) for _, o, at in facts])
    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=[])
    return {f.object_uuid: f for f in plan.facts}, plan


def test_a_book_fact_stands_at_its_window_offset_plus_its_evidence_offset() -> None:
    by_object, plan = _book_plan(10_000, [("Ann Archer", "Bath", 60), ("Ann Archer", "York", 26),
                                          ("Ann Archer", "Bath", 0)])
    positions = sorted((f.story_at, f.story_chapter, f.story_source) for f in plan.facts)
    # Bath stated twice in the window stands where the window first states it
    assert positions == [(10_000, 3, "src"), (10_026, 3, "src")]


def test_a_fact_outside_a_book_has_no_story_position() -> None:
    _, plan = _book_plan(None, [("Ann Archer", "Bath", 0)])
    assert [(f.story_at, f.story_chapter, f.story_source) for f in plan.facts] == [(None, None, None)]


def test_prose_passages_go_unembedded_when_prose_vectors_are_off() -> None:
    from strata.resolve.planner import texts_to_embed

    content = "Ann walked to the mill. She met the miller there.\n\nThe river was high that spring."
    episode = Episode(uuid="ep", group_id="g", kind="text", content=content, reference_time=DAY, content_hash="h")
    extraction = Extraction(episode_uuid="ep", extractor=ExtractorInfo(name="t"), entities=[
        ExtractedEntity(name="Ann", type="Person", spans=[Span(start=0, end=3)])])
    asked: list[str] = []

    def embed(texts):
        asked.extend(texts)
        return [[1.0, 0.0] for _ in texts]

    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=[],
                         aids=PlanAids(embed=embed, prose_vectors=False))
    assert plan.passages and all(p.embedding is None and p.context_embedding is None for p in plan.passages)
    assert asked == ["Ann"] == texts_to_embed(episode, extraction, prose_vectors=False)
    asked.clear()
    plan, _ = build_plan(episode, extraction, lookup=lambda group_id, queries: {}, predicates=[],
                         aids=PlanAids(embed=embed, prose_vectors=True))
    assert all(p.embedding is not None for p in plan.passages)
    assert set(asked) == set(texts_to_embed(episode, extraction, prose_vectors=True)) and len(asked) > 1
