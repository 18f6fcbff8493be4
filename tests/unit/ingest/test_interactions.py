"""Quotes become spoke_to facts: one per speaker-addressee pair of an episode, every quote its evidence."""

from __future__ import annotations

from strata.ingest.extractors.interactions import spoke_to_facts, with_interactions
from strata.schema.models import ExtractedFact, ExtractedQuote, Extraction, ExtractorInfo


def quote(text: str, start: int, speaker: str | None, *to: str, confidence: float = 0.9) -> ExtractedQuote:
    return ExtractedQuote(text=text, start=start, end=start + len(text), speaker=speaker, addressees=list(to),
                          confidence=confidence)


def test_one_fact_per_pair_with_every_quote_as_evidence() -> None:
    quotes = [quote("Good morning, Anna.", 0, "Tom", "Anna"), quote("Good morning.", 30, "Anna", "Tom"),
              quote("Shall we walk to the river this fine morning, Anna, before the rain comes down again "
                    "over the whole of the valley?", 60, "Tom", "Anna", confidence=0.5),
              quote("Who is there?", 200, None, "Tom"), quote("Nobody.", 220, "Anna"),
              quote("I told myself so.", 240, "Tom", "Tom")]
    facts = {(f.subject, f.object): f for f in spoke_to_facts(quotes)}
    assert set(facts) == {("Tom", "Anna"), ("Anna", "Tom")}  # no speaker, no addressee, or oneself: no fact
    tom = facts[("Tom", "Anna")]
    assert tom.predicate == "spoke_to"
    assert [(s.start, s.end) for s in tom.spans] == [(0, 19), (60, 60 + len(quotes[2].text))]
    assert tom.fact == 'Tom said to Anna: "Good morning, Anna." (2 quotes)' and tom.confidence == 0.7
    long_first = spoke_to_facts([quotes[2]])[0].fact
    assert long_first.endswith('..."') and len(long_first) < 140


def test_an_extraction_keeps_its_facts_and_gains_the_pairs_once() -> None:
    stated = ExtractedFact(subject="Tom", predicate="spoke_to", object="Anna", fact="Tom spoke to Anna.")
    other = ExtractedFact(subject="Tom", predicate="lives_in", object="Bath")
    base = Extraction(episode_uuid="e", extractor=ExtractorInfo(name="t"), facts=[stated, other],
                      quotes=[quote("Hello, Anna.", 0, "Tom", "Anna"), quote("Hello.", 20, "Anna", "Tom")])
    got = with_interactions(base)
    assert [(f.subject, f.predicate, f.object) for f in got.facts] == [
        ("Tom", "spoke_to", "Anna"), ("Tom", "lives_in", "Bath"), ("Anna", "spoke_to", "Tom")]
    no_quotes = base.model_copy(update={"quotes": []})
    assert with_interactions(no_quotes) is no_quotes
