"""The spaCy extractor's facts: the generic subject-verb-object rule for verbs without a frame, one fact
recorded per (subject, predicate, object) with its evidence, succession, and the fact line in the text's words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from strata.ingest.extractors.common import snake_case
from strata.ingest.extractors.discourse import FIRST_PERSON
from strata.ingest.extractors.frames import FrameFact, is_negated, subjects_of
from strata.ingest.extractors.modality import is_irrealis
from strata.ingest.extractors.name_shape import argument_shaped
from strata.ingest.extractors.person_shape import place_shaped
from strata.ingest.extractors.relation_words import FRAME_PREDICATES, RELATION_NOUNS
from strata.ingest.extractors.spacy_arguments import NOT_ARGUMENTS, Arguments
from strata.ingest.extractors.spacy_state import Collector, Dates, Segment
from strata.resolve.ontology import load_ontology
from strata.resolve.roles import OFFICE_PREDICATE
from strata.schema.models import ExtractedFact, Span

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan
    from spacy.tokens import Token

# Verbs too light to name a relation on their own ("I'm here for you" is not "be_for").
_LIGHT_VERBS = frozenset({"be", "have", "get", "do", "make", "let", "feel", "keep", "seem", "look", "want", "need"})
_AUX_DEPS = ("aux", "auxpass", "neg")
_THIRD_PERSON_IRREGULAR = {"am": "is", "are": "is", "have": "has", "do": "does", "'m": "is", "'ve": "has"}


def canonical_predicate(name: str) -> str:
    """The ontology's name for a predicate spelling ("move_to" -> "lives_in"); others unchanged."""
    return load_ontology().canonical_predicate(name) or name


def facts_for_verb(col: Collector, segment: Segment, verb: Token, args: Arguments, sent: SpacySpan,
                   evidence: Span, dates: Dates) -> None:
    """The generic rule for verbs without a frame: subject-verb-object between names."""
    subj_tokens, passive = subjects_of(verb)
    if not subj_tokens or is_irrealis(verb):
        return
    light = verb.lemma_.lower() in _LIGHT_VERBS
    framed = FRAME_PREDICATES.get(verb.lemma_.lower(), frozenset())
    particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
    base = [verb.lemma_.lower(), *particles]
    negated = is_negated(verb)
    candidates: list[tuple[list[str], Token, str]] = []  # (predicate words, object token, joining words)
    for child in verb.children:
        if light and child.dep_ not in ("attr", "acomp"):
            continue  # only "X is the CEO of Y" / "X is married to Y" make a light verb a relation
        if child.dep_ == "dobj" or (child.dep_ == "attr" and child.i in args.token_names):
            candidates.append((base, child, ""))
        elif child.dep_ == "prep" or (child.dep_ == "agent" and not passive):
            candidates += [(base + [child.lower_], p, child.text) for p in child.children if p.dep_ == "pobj"]
        elif child.dep_ in ("attr", "acomp") and child.lemma_.lower() not in RELATION_NOUNS:
            # "X is the CEO of Y", "X is married to Y" ("X is nephew to Y" is the relation nouns' to read)
            for prep in (c for c in child.children if c.dep_ == "prep"):
                for p in (c for c in prep.children if c.dep_ == "pobj"):
                    candidates.append(([child.lemma_.lower(), prep.lower_], p, f"{child.text} {prep.text}"))
    if passive:  # "Y was visited by X" -> X visit Y
        agents = [p for c in verb.children if c.dep_ == "agent" for p in c.children if p.dep_ == "pobj"]
        candidates = [(base, s, "") for s in subj_tokens] if agents else candidates
        subj_tokens = agents or subj_tokens
    candidates = [c for c in candidates if c[1].ent_type_ not in NOT_ARGUMENTS]
    for subj_token in subj_tokens:
        for subject, s_type in args.names(subj_token):
            for words, obj_token, joiner in candidates:
                for obj, o_type in args.names(obj_token):
                    if obj == subject:
                        continue
                    predicate = canonical_predicate(snake_case(" ".join(words)))
                    if predicate in framed:
                        continue  # "engaged his attention": the frame, not its bare verb, says engaged_to
                    text = fact_text(verb, subject, obj, joiner, particles, subj_token, passive)
                    claim = Claim(subject, predicate, obj, negated, text, s_type, o_type)
                    add_fact(col, claim, evidence, dates.first or segment.said_at, segment, args.token_names)


@dataclass(frozen=True)
class Claim:
    """A fact as a rule reads it, before the roster and the sentence's names settle its argument types."""

    subject: str
    predicate: str
    obj: str
    negated: bool
    text: str
    subject_type: str | None = None
    object_type: str | None = None
    role: str | None = None


def add_fact(col: Collector, claim: Claim, evidence: Span, when: datetime | None, segment: Segment,
             names: Mapping[int, tuple[str, str]] | None = None) -> None:
    """Record a claim once per (subject, predicate, object, negation, role); a repeat adds its evidence."""
    subject, obj = claim.subject, claim.obj
    if not claim.predicate:
        return
    shaped = argument_shaped(subject) and (argument_shaped(obj) or claim.object_type == "Concept")
    if segment.speaker is None and not shaped:
        return  # narration's names come from a noisier NER: "CHAPTER VI", "Longbourn if Lydia"
    types = {n: t for n, t in (names or {}).values()}
    subject_type = col.roster_types.get(subject.lower(), types.get(subject, claim.subject_type or "Person"))
    object_type = col.roster_types.get(obj.lower(), types.get(obj, claim.object_type or "Person"))
    if (subject_type == "Person" and place_shaped(subject)) or (object_type == "Person" and place_shaped(obj)):
        return  # a person's slot filled by "King Edward Street": the parse went wrong
    col.record(ExtractedFact(
        subject=subject, predicate=claim.predicate, object=obj, fact=claim.text,
        subject_type=subject_type, object_type=object_type, valid_at=when, negated=claim.negated,
        spans=[evidence], asserted_by=segment.speaker, role=claim.role,
        confidence=0.6,  # parse-based facts are noisier than LLM ones; lets resolve/ weigh them
    ))


def derive_succession(col: Collector) -> None:
    """"B succeeded A" where the episode says A held an office: B holds that office from then on."""
    offices = {(f.subject, f.object, f.role): f for f in col.facts.values()
               if f.predicate == OFFICE_PREDICATE and not f.negated}
    for f in [f for f in col.facts.values() if f.predicate == "succeeded" and not f.negated]:
        for (holder, office, role), held in offices.items():
            if holder == f.object and (f.subject, OFFICE_PREDICATE, office, False, role) not in col.facts:
                col.facts[(f.subject, OFFICE_PREDICATE, office, False, role)] = held.model_copy(update={
                    "subject": f.subject, "subject_type": f.subject_type, "valid_at": f.valid_at,
                    "fact": f"{f.subject} succeeded {f.object} as {office}", "spans": f.spans,
                    "asserted_by": f.asserted_by})


def fact_text_of(verb: Token, fact: FrameFact, speaker: str | None) -> str:
    """A readable fact line in the text's own words, "I" replaced by the speaker."""
    subjects, passive = subjects_of(verb)
    subject_token = next(iter(subjects), verb)
    particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
    joiner = next((c.text for c in verb.children if c.dep_ in ("prep", "agent") and any(
        p.dep_ == "pobj" and fact.object.endswith(p.text) for p in c.children)), "")
    if passive and any(c.dep_ == "agent" for c in verb.children) and fact.object.endswith(subject_token.text):
        return fact_text(verb, fact.subject, fact.object, "", particles, subject_token, True)
    return fact_text(verb, fact.subject, fact.object, joiner, particles, subject_token, False)


def fact_text(
    verb: Token, subject: str, obj: str, joiner: str, particles: list[str], subj_token: Token, passive: bool
) -> str:
    """A readable one-line fact in the text's own words, with "I" replaced by the speaker."""
    verb_words = [c.text for c in verb.children if c.dep_ in _AUX_DEPS and c.i < verb.i] + [verb.text]
    if subj_token.lower_ in FIRST_PERSON:
        verb_words[0] = _third_person(verb_words[0], verb if len(verb_words) == 1 else None)
    if any(c.lower_ == "longer" for c in verb.children):
        verb_words.insert(0, "no longer")
    phrase = " ".join([*verb_words, *particles, joiner] if joiner else [*verb_words, *particles]).replace(" n't", "n't")
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
