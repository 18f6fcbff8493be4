"""Who speaks to whom, as facts: an episode's attributed quotes become ``spoke_to`` statements.

One fact per (speaker, addressee) pair of the episode; its evidence is every quote of that pair, so the fact
committed for a book counts the quotes (its evidence), starts where the story first has the pair talk
(``story_at``) and can be read as of any chapter like every other fact. Works on any extractor's quotes.
"""

from __future__ import annotations

from collections.abc import Sequence

from strata.schema.models import ExtractedFact, ExtractedQuote, Extraction, Span

PREDICATE = "spoke_to"
SNIPPET_CHARS = 100  # of the first quote, in the fact's text


def spoke_to_facts(quotes: Sequence[ExtractedQuote]) -> list[ExtractedFact]:
    pairs: dict[tuple[str, str], list[ExtractedQuote]] = {}
    for quote in quotes:
        if not quote.speaker:
            continue
        for addressee in dict.fromkeys(quote.addressees):
            if addressee and addressee != quote.speaker:
                pairs.setdefault((quote.speaker, addressee), []).append(quote)
    facts = []
    for (speaker, addressee), said in pairs.items():
        first = " ".join(said[0].text.split())
        if len(first) > SNIPPET_CHARS:
            first = first[:SNIPPET_CHARS].rsplit(" ", 1)[0] + "..."
        more = f" ({len(said)} quotes)" if len(said) > 1 else ""
        facts.append(ExtractedFact(
            subject=speaker, predicate=PREDICATE, object=addressee, subject_type="Person", object_type="Person",
            fact=f'{speaker} said to {addressee}: "{first}"{more}',
            spans=[Span(start=q.start, end=q.end) for q in said],
            # as sure as the attributions it rests on
            confidence=round(sum(q.confidence for q in said) / len(said), 3) or 0.5))
    return facts


def with_interactions(extraction: Extraction) -> Extraction:
    """The extraction plus its spoke_to facts (unchanged when it has no attributed quotes with addressees)."""
    extra = spoke_to_facts(extraction.quotes)
    if not extra:
        return extraction
    stated = {(f.subject, f.predicate, f.object) for f in extraction.facts}
    extra = [f for f in extra if (f.subject, f.predicate, f.object) not in stated]
    return extraction.model_copy(update={"facts": [*extraction.facts, *extra]})
