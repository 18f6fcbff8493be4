"""spaCy extractor: entities with exact spans, SVO facts, negation, dates, chat speakers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from strata.ingest.extractors import SpacyExtractor, make_extractor, resolve_date
from strata.ingest.protocols import ExtractionContext, Extractor, RosterEntry
from strata.schema.models import Episode, FactStatement, Message
from strata.schema.settings import Settings

REF = datetime(2024, 6, 15, 12, tzinfo=UTC)


def text_episode(content: str, kind: str = "text") -> Episode:
    return Episode(uuid="ep", group_id="g", kind=kind, content=content, reference_time=REF, content_hash="h")


def chat_episode(lines: list[tuple[str, str]]) -> Episode:
    content, messages = "", []
    for speaker, text in lines:
        content += f"{speaker}: "
        messages.append(Message(speaker=speaker, text=text, start=len(content), end=len(content) + len(text)))
        content += text + "\n"
    return Episode(uuid="ep", group_id="g", kind="chat", content=content, reference_time=REF, content_hash="h",
                   messages=messages, speakers=sorted({s for s, _ in lines}))


@pytest.fixture(scope="module")
def extractor() -> SpacyExtractor:
    return SpacyExtractor()


def facts_of(result: object) -> set[tuple[str, str, str, bool]]:
    return {(f.subject, f.predicate, f.object, f.negated) for f in result.facts}  # type: ignore[attr-defined]


def test_is_an_extractor_and_factory_default(extractor: SpacyExtractor) -> None:
    assert isinstance(extractor, Extractor)
    assert isinstance(make_extractor(Settings(_env_file=None)), SpacyExtractor)


def test_pride_and_prejudice_window(extractor: SpacyExtractor, pride_and_prejudice: str) -> None:
    start = pride_and_prejudice.index("CHAPTER III.")
    episode = text_episode(pride_and_prejudice[start:start + 9000])  # ~1500 tokens, the Meryton ball
    result = extractor.extract(episode, ExtractionContext())
    names = {e.name for e in result.entities}
    assert {"Elizabeth", "Darcy", "Bingley"} <= names
    for entity in result.entities:
        for span in entity.spans:
            assert " ".join(episode.content[span.start:span.end].split()) == entity.name
    assert len({e.name for e in result.entities}) == len(result.entities)  # identical forms collapsed
    assert not any(n.endswith("'s") for n in names)
    for fact in result.facts:
        assert fact.spans
        for span in fact.spans:
            assert 0 <= span.start < span.end <= len(episode.content)
        assert fact.subject in names and fact.object in names


def test_possessive_and_identical_forms_collapse(extractor: SpacyExtractor) -> None:
    episode = text_episode("Darcy's letter surprised her. Later Darcy met Bingley in London. Darcy left.")
    darcy = next(e for e in extractor.extract(episode, ExtractionContext()).entities if e.name == "Darcy")
    assert [episode.content[s.start:s.end] for s in darcy.spans] == ["Darcy"] * 3


def test_svo_facts_negation_and_dates(extractor: SpacyExtractor) -> None:
    episode = text_episode(
        "Alice no longer works for Acme Corp since May 2020. Mr. Darcy married Elizabeth Bennet last May. "
        "Bob is the CEO of Google. Jane and Elizabeth visited Netherfield yesterday. Tom did not visit London."
    )
    result = extractor.extract(episode, ExtractionContext())
    facts = {(f.subject, f.predicate, f.object): f for f in result.facts}
    work = facts[("Alice", "employed_by", "Acme Corp")]
    assert work.negated and work.valid_at == datetime(2020, 5, 1, tzinfo=UTC)
    assert facts[("Mr. Darcy", "spouse_of", "Elizabeth Bennet")].valid_at == datetime(2024, 5, 1, tzinfo=UTC)
    assert facts[("Bob", "holds_office", "Google")].role == "ceo"  # the office is the slot (Google, ceo)
    assert facts[("Jane", "visits", "Netherfield")].valid_at == datetime(2024, 6, 14, tzinfo=UTC)
    assert ("Elizabeth", "visits", "Netherfield") in facts
    assert facts[("Tom", "visits", "London")].negated
    span = work.spans[0]
    assert episode.content[span.start:span.end] == "Alice no longer works for Acme Corp since May 2020."
    assert work.fact == "Alice no longer works for Acme Corp"


def test_chat_first_person_resolves_to_speaker(extractor: SpacyExtractor) -> None:
    episode = chat_episode([("Alice", "I live in Paris."),
                            ("Bob", "I moved to Berlin in 2019. Alice called me yesterday.")])
    result = extractor.extract(episode, ExtractionContext())
    facts = {(f.subject, f.predicate, f.object): f for f in result.facts}
    live = facts[("Alice", "lives_in", "Paris")]
    assert live.asserted_by == "Alice" and live.fact == "Alice lives in Paris" and not live.negated
    assert episode.content[live.spans[0].start:live.spans[0].end] == "I live in Paris."
    move = facts[("Bob", "lives_in", "Berlin")]
    assert move.asserted_by == "Bob" and move.valid_at == datetime(2019, 1, 1, tzinfo=UTC)
    assert facts[("Alice", "call", "Bob")].asserted_by == "Bob"
    people = {e.name: e for e in result.entities if e.type == "Person"}
    assert {"Alice", "Bob"} <= set(people)
    assert all(episode.content[s.start:s.end] == "Alice" for s in people["Alice"].spans)


def test_roster_sets_types(extractor: SpacyExtractor) -> None:
    ctx = ExtractionContext(roster=(RosterEntry(name="Netherfield", type="Estate"),))
    result = extractor.extract(text_episode("Jane and Elizabeth visited Netherfield."), ctx)
    assert {e.name: e.type for e in result.entities}["Netherfield"] == "Estate"


def test_facts_episode_bypasses_nlp() -> None:
    episode = Episode(uuid="ep", group_id="g", kind="facts", content="", reference_time=REF, content_hash="h",
                      facts=[FactStatement(subject="Peru", predicate="president", object="Dina Boluarte")])
    result = SpacyExtractor(nlp=object()).extract(episode, ExtractionContext())  # type: ignore[arg-type]
    assert facts_of(result) == {("Peru", "president", "Dina Boluarte", False)}


def test_extract_many_matches_extract(extractor: SpacyExtractor, pride_and_prejudice: str) -> None:
    start = pride_and_prejudice.index("CHAPTER V.")
    episodes = [text_episode(pride_and_prejudice[start + i * 3000:start + (i + 1) * 3000]) for i in range(3)]
    batched = list(extractor.extract_many(episodes))
    single = [extractor.extract(e, ExtractionContext()) for e in episodes]
    assert [b.model_dump() for b in batched] == [s.model_dump() for s in single]


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("yesterday", datetime(2024, 6, 14, tzinfo=UTC)),
        ("last May", datetime(2024, 5, 1, tzinfo=UTC)),
        ("last August", datetime(2023, 8, 1, tzinfo=UTC)),
        ("in 2019", datetime(2019, 1, 1, tzinfo=UTC)),
        ("2019", datetime(2019, 1, 1, tzinfo=UTC)),
        ("three weeks ago", datetime(2024, 5, 25, tzinfo=UTC)),
        ("August 24, 2011", datetime(2011, 8, 24, tzinfo=UTC)),
        ("last year", datetime(2023, 1, 1, tzinfo=UTC)),
        ("the 1990s", datetime(1990, 1, 1, tzinfo=UTC)),
        ("the next day", None),
        ("a few days", None),
    ],
)
def test_resolve_date(phrase: str, expected: datetime | None) -> None:
    assert resolve_date(phrase, REF) == expected


def test_apposition_and_names_the_model_misses(extractor: SpacyExtractor) -> None:
    """The small model tags neither sentence-initial "Sofia" as a person; the parse still gives the facts,
    and "my sister Sofia" stands for Sofia."""
    episode = chat_episode([("Maya", "My sister Sofia lives in Porto."),
                            ("Maya", "Sofia no longer lives in Porto. Sofia lives in Madrid now.")])
    got = facts_of(extractor.extract(episode, ExtractionContext()))
    assert ("Sofia", "lives_in", "Porto", False) in got
    assert ("Sofia", "lives_in", "Porto", True) in got
    assert ("Sofia", "lives_in", "Madrid", False) in got
