"""The spaCy extractor's per-episode state: the pieces parsed on their own, what the episode names and states
so far, and a sentence's dates."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from strata.ingest.extractors.dates import resolve_date
from strata.ingest.extractors.person_shape import person_names, place_shaped
from strata.schema.models import ExtractedEntity, ExtractedFact, ExtractedNote, Span

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan


@dataclass
class Segment:
    """A piece of the episode parsed on its own: the whole text, or one chat message."""

    text: str
    offset: int
    speaker: str | None = None
    # when the message was said: what it tells without a date of its own happened then, not at the session's
    # start ("is the new CEO" said on 1 March is news of 1 March)
    said_at: datetime | None = None


@dataclass
class Collector:
    content: str
    reference_time: datetime
    roster_types: dict[str, str]
    dates: dict[tuple[int, int], datetime | None] = field(default_factory=dict)
    proper_names: set[str] = field(default_factory=set)  # lowercased names used as fact arguments
    mentions: dict[str, list[Span]] = field(default_factory=lambda: defaultdict(list))
    labels: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    facts: dict[tuple[str, str, str, bool, str | None], ExtractedFact] = field(default_factory=dict)
    notes: list[ExtractedNote] = field(default_factory=list)
    aliases: dict[str, list[str]] = field(default_factory=dict)
    kin: dict[tuple[str, str], str] = field(default_factory=dict)  # (possessor, "sister") -> "Sofia"

    def is_known(self, lowered: str) -> bool:
        """A name seen in this episode (as a mention or a fact argument) or given by the roster."""
        return lowered in self.proper_names or lowered in self.roster_types or any(
            m.lower() == lowered for m in self.mentions)

    def add_mention(self, name: str, type_: str, span: Span) -> None:
        self.mentions[name].append(span)
        self.labels[name][self.roster_types.get(name.lower(), type_)] += 1

    def record(self, fact: ExtractedFact) -> None:
        """A fact once per (subject, predicate, object, negation, role): a repeat adds its evidence only."""
        key = (fact.subject, fact.predicate, fact.object, fact.negated, fact.role)
        known = self.facts.get(key)
        if known is None:
            self.facts[key] = fact
        elif added := [s for s in fact.spans if s not in known.spans]:
            self.facts[key] = known.model_copy(update={"spans": [*known.spans, *added]})

    def entities(self, quote_parties: set[str] | None = None) -> list[ExtractedEntity]:
        out = []
        person_once = {n for n, votes in self.labels.items() if votes["Person"] > 0}
        persons = person_names(self.mentions, person_once, quote_parties or set())
        for name, spans in self.mentions.items():
            type_ = "Person" if name in persons else self.labels[name].most_common(1)[0][0]
            if type_ == "Person" and name.lower() not in self.roster_types and place_shaped(name):
                type_ = "Place"  # the small model tags "Trafalgar Square" a person now and then
            unique = sorted(set(spans), key=lambda s: s.start)
            out.append(ExtractedEntity(name=name, type=type_, spans=unique, aliases=self.aliases.get(name, [])))
        return out


class Dates:
    """DATE entities of a sentence that resolve against the reference time, by token range; resolved only when
    a fact or a note asks (date parsing is a tenth of the rule layer's time on a novel)."""

    def __init__(self, sent: SpacySpan, reference_time: datetime) -> None:
        self._sent, self._ref = sent, reference_time
        self._phrases: dict[tuple[int, int], datetime] | None = None

    @property
    def phrases(self) -> dict[tuple[int, int], datetime]:
        if self._phrases is None:
            self._phrases = {(ent.start, ent.end): when for ent in self._sent.ents
                             if ent.label_ == "DATE" and (when := resolve_date(ent.text, self._ref)) is not None}
        return self._phrases

    @property
    def first(self) -> datetime | None:
        return next(iter(self.phrases.values()), None)
