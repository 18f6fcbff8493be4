"""Build the commit plan for one episode: resolve its mentions to entities and its facts to ids.

The planner does no I/O itself: candidate lookup, predicate registry and embeddings come in through
narrow callables, so it is tested without a database. It makes at most one adjudication call per episode
(all ambiguous mentions together); offline it creates the entity and records a "possibly same as".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from pydantic import BaseModel

from strata.resolve.apart import foreign_forms, keep_apart
from strata.resolve.attachments import notes_for, quotes_for
from strata.resolve.clusters import collapse_mentions
from strata.resolve.decide import decide
from strata.resolve.normalize import entity_key, fold_name
from strata.resolve.ontology import Ontology, load_ontology
from strata.resolve.passages import passages_for
from strata.resolve.predicates import fold_predicate, parse_predicate
from strata.resolve.roles import OFFICE_PREDICATE, qualify_roles
from strata.resolve.types import CandidateEntity, Decision, MentionCandidate, MentionGroup
from strata.schema import ids
from strata.schema.errors import InputError
from strata.schema.models import Episode, ExtractedEntity, ExtractedFact, Extraction, Functionality, Source
from strata.schema.plan import (
    LABEL,
    PREDICATE,
    CommitPlan,
    EntityWrite,
    Evidence,
    FactWrite,
    MentionWrite,
    MergeRecordWrite,
    Predicate,
    SameAsSuggestion,
)

# Dates Neo4j and every client handle without surprises.
MIN_DATE = datetime(1, 1, 2, tzinfo=UTC)
MAX_DATE = datetime(9999, 12, 30, tzinfo=UTC)
SUGGESTIONS_PER_ENTITY = 3


class MentionQuery(BaseModel):
    index: int
    name: str
    type: str
    aliases: list[str]
    keys: list[str]
    embedding: list[float] | None = None
    exact_only: bool = False  # structured statements: only exact key matches count, skip fuzzy channels


class CandidateLookup(Protocol):
    def __call__(self, group_id: str, queries: Sequence[MentionQuery]) -> dict[int, list[CandidateEntity]]: ...


class AmbiguousCase(BaseModel):
    """A mention the scores could not decide, with the candidates its decision lists (best first)."""

    mention: MentionGroup
    decision: Decision
    candidates: list[CandidateEntity]


class Adjudicator(Protocol):
    """Chooses among candidates for ambiguous mentions; returns candidate uuid or None (new) per case index."""

    def __call__(self, episode: Episode, cases: Sequence[AmbiguousCase]) -> dict[int, str | None]: ...


Embed = Callable[[Sequence[str]], list[list[float]]]


@dataclass
class PlanReport:
    merged: int = 0
    created: int = 0
    ambiguous: int = 0
    adjudication_calls: int = 0
    rejected_facts: list[str] = field(default_factory=list)


def passage_vectors_wanted(episode: Episode, prose_vectors: bool) -> bool:
    """Chat passages are always embedded; prose passages (book windows) only when ``prose_vectors`` is on:
    embedding every sentence of a book is most of its ingestion time (docs/benchmarks.md)."""
    return prose_vectors or episode.kind == "chat"


def texts_to_embed(episode: Episode, extraction: Extraction, ontology: Ontology | None = None,
                   prose_vectors: bool = False) -> list[str]:
    """Exactly the texts ``build_plan`` will embed, so a caller can embed them ahead (outside any lock)."""
    onto = ontology or load_ontology()
    extraction = qualify_roles(extraction, onto)
    groups = [g for g in collapse_mentions(_all_mentions(extraction), onto, fuzzy=episode.kind != "facts")
              if _usable(g)]
    facts = [f.fact or f"{f.subject} {f.predicate} {f.object}" for f in extraction.facts]
    passages = passages_for(episode, extraction.notes) if passage_vectors_wanted(episode, prose_vectors) else []
    return [g.name for g in groups] + facts + [p.text for p in passages] + [p.context or "" for p in passages]


@dataclass(frozen=True)
class PlanAids:
    """What a plan may consult besides the group's candidates and predicates: vectors for names, facts and (when
    asked) prose passages, an adjudicator for ambiguous matches, an ontology other than the shipped one."""

    embed: Embed | None = None
    adjudicator: Adjudicator | None = None
    ontology: Ontology | None = None
    prose_vectors: bool = False


def build_plan(episode: Episode, extraction: Extraction, *, lookup: CandidateLookup,
               predicates: Sequence[Predicate], aids: PlanAids = PlanAids(),
               source: Source | None = None) -> tuple[CommitPlan, PlanReport]:
    embed, adjudicator = aids.embed, aids.adjudicator
    onto = aids.ontology or load_ontology()
    report = PlanReport()
    extraction = qualify_roles(extraction, onto)  # offices on their (organization, role) slots
    mentions = _all_mentions(extraction)
    groups = [g for g in collapse_mentions(mentions, onto, fuzzy=episode.kind != "facts") if _usable(g)]
    facts = list(extraction.facts)
    fact_texts = [f.fact or f"{f.subject} {f.predicate} {f.object}" for f in facts]
    passages = passages_for(episode, extraction.notes)
    embedded = passages if passage_vectors_wanted(episode, aids.prose_vectors) else []
    vectors = _embed_all(embed, [g.name for g in groups], fact_texts, [p.text for p in embedded],
                         [p.context or "" for p in embedded])
    name_vecs, fact_vecs, passage_vecs, context_vecs = vectors

    queries = [MentionQuery(index=i, name=g.name, type=g.type, aliases=g.aliases,
                            keys=sorted({entity_key(f, g.type, onto) for f in (g.name, *g.aliases) if fold_name(f)}),
                            embedding=name_vecs[i] if name_vecs else None, exact_only=episode.kind == "facts")
               for i, g in enumerate(groups)]
    found = lookup(episode.group_id, queries) if queries else {}
    found = {i: keep_apart([groups[i].name, *groups[i].aliases], c) for i, c in found.items()}
    if episode.kind == "facts":
        # Structured statements name their entities exactly: "Abdullah" (a king) is not "Abdullah Gül". The
        # lookup asked only for exact keys, so any candidate is the same normalized name and type class.
        decisions = [_exact_decision(found.get(i, [])) for i in range(len(groups))]
    else:
        decisions = [decide(MentionCandidate(name=g.name, type=g.type, aliases=g.aliases,
                                             embedding=queries[i].embedding), found.get(i, []), onto)
                     for i, g in enumerate(groups)]
    chosen = _choose(episode, groups, decisions, found, adjudicator, report)

    entities: dict[str, EntityWrite] = {}
    uuid_of_group: list[str] = []
    suggestions: list[SameAsSuggestion] = []
    for i, g in enumerate(groups):
        label = _label(onto.canonical_type(g.type))
        key = entity_key(g.name, g.type, onto)
        uuid = chosen[i] or ids.entity_uuid(episode.group_id, key)
        uuid_of_group.append(uuid)
        prior = entities.get(uuid)
        foreign = foreign_forms([g.name, *g.aliases], uuid, found.get(i, []))
        aliases = sorted({f for f in (g.name, *g.aliases) if fold_name(f) not in foreign}
                         | set(prior.aliases if prior else []))
        entities[uuid] = EntityWrite(uuid=uuid, key=key, name=prior.name if prior else g.name, type=label,
                                     aliases=aliases, summary=g.description[:500],
                                     embedding=name_vecs[i] if name_vecs else None)
        if chosen[i] is None and decisions[i].action == "ambiguous":
            suggestions += [SameAsSuggestion(entity_uuid=uuid, candidate_uuid=c.candidate_uuid, score=c.score)
                            for c in decisions[i].candidates[:SUGGESTIONS_PER_ENTITY] if c.candidate_uuid != uuid]

    merges = _merge_records(episode, groups, decisions, found, chosen, uuid_of_group)
    by_form = _form_index(groups, mentions)
    registry = list(predicates)
    resolved: dict[tuple[str, Functionality | None], tuple[str, bool, Predicate]] = {}
    predicate_writes: dict[str, Predicate] = {}
    fact_writes: dict[str, FactWrite] = {}
    vecs: list[list[float] | None] = list(fact_vecs) if fact_vecs else [None] * len(facts)
    for f, text, vec in zip(facts, fact_texts, vecs, strict=True):
        try:
            # One predicate spelling resolves once per episode; a 10k-fact batch often uses a handful.
            spelling = (f.predicate, f.functional)
            if spelling not in resolved:
                resolved[spelling] = _predicate(f, registry, onto, embed)
                pred = resolved[spelling][2]
                if all(p.name != pred.name for p in registry):
                    registry.append(pred)
            stated = _fact(episode, f, text, vec, by_form, uuid_of_group, resolved[spelling])
        except InputError as exc:
            report.rejected_facts.append(f"{f.subject} / {f.predicate} / {f.object}: {exc.message}")
            continue
        first = fact_writes.setdefault(stated.uuid, stated)
        if first.story_at is not None and stated.story_at is not None and stated.story_at < first.story_at:
            # One fact stated twice in a window stands where the story first states it.
            fact_writes[stated.uuid] = first.model_copy(update={"story_at": stated.story_at})
        pred = resolved[spelling][2]
        predicate_writes[pred.name] = Predicate(name=pred.name, description=pred.description,
                                                     functional=pred.functional)

    mention_writes = [MentionWrite(entity_uuid=uuid_of_group[i], spans=g.spans,
                                   surface_forms=sorted({g.name, *g.aliases})) for i, g in enumerate(groups)]
    plan = CommitPlan(
        group_id=episode.group_id, episode=episode, source=source, entities=list(entities.values()),
        mentions=_merge_mentions(mention_writes), facts=list(fact_writes.values()),
        predicates=list(predicate_writes.values()),
        passages=[p.model_copy(update={"embedding": passage_vecs[k] if passage_vecs else None,
                                       "context_embedding": context_vecs[k] if context_vecs else None})
                  for k, p in enumerate(passages)],
        notes=notes_for(episode, extraction, passages, by_form, uuid_of_group),
        quotes=quotes_for(episode, extraction, by_form, uuid_of_group),
        suggestions=suggestions, merges=merges, extractor=extraction.extractor, summary=extraction.summary)
    return plan, report


def _merge_records(episode: Episode, groups: list[MentionGroup], decisions: list[Decision],
                   found: dict[int, list[CandidateEntity]], chosen: list[str | None],
                   uuid_of_group: list[str]) -> list[MergeRecordWrite]:
    """One record per entity that gained names in this episode: which rule joined them, on what evidence."""
    records: dict[str, MergeRecordWrite] = {}
    for i, g in enumerate(groups):
        uuid, decision = uuid_of_group[i], decisions[i]
        known = {fold_name(f) for c in found.get(i, []) if c.uuid == uuid for f in (c.name, *c.aliases)}
        known |= foreign_forms((g.name, *g.aliases), uuid, found.get(i, []))  # names of an entity kept apart
        forms = [f for f in dict.fromkeys((g.name, *g.aliases)) if fold_name(f) not in known]
        if chosen[i] is None:
            forms = [f for f in forms if fold_name(f) != fold_name(g.name)]  # a new entity's own name joins nothing
        if not forms or uuid in records:
            continue
        best = next((c for c in decision.candidates if c.candidate_uuid == uuid), None)
        if chosen[i] is None or (decision.action == "merge" and best is not None and best.exact):
            rule, reason = "collapse", f"named together in this episode with {g.name!r}"
        elif decision.action == "merge":
            rule, reason = (best.reason if best else "merge"), decision.reason
        else:
            rule, reason = "adjudicator", "chosen among ambiguous candidates"
        records[uuid] = MergeRecordWrite(
            uuid=ids.stable_uuid("merge", episode.uuid, uuid), entity_uuid=uuid, forms=forms, rule=rule,
            reason=reason, score=best.score if best else None, mention_form=best.mention_form if best else None,
            candidate_form=best.candidate_form if best else None, episode_uuid=episode.uuid)
    return list(records.values())


def _exact_decision(candidates: list[CandidateEntity]) -> Decision:
    if len(candidates) == 1:
        return Decision(action="merge", uuid=candidates[0].uuid, reason="exact key")
    return Decision(action="create", reason="facts: only exact names merge")


def _all_mentions(extraction: Extraction) -> list[ExtractedEntity]:
    """Extracted entities plus fact endpoints and quote speakers the extractor did not list as entities."""
    mentions = list(extraction.entities)
    known = {fold_name(n) for e in mentions for n in (e.name, *e.aliases)}
    for f in extraction.facts:
        for name, type_ in ((f.subject, f.subject_type), (f.object, f.object_type)):
            if fold_name(name) and fold_name(name) not in known:
                mentions.append(ExtractedEntity(name=name, type=type_ or "Entity"))
                known.add(fold_name(name))
    for quote in extraction.quotes:  # whoever speaks or is spoken to is a person of the episode
        for person in (quote.speaker, *quote.addressees):
            if person and fold_name(person) and fold_name(person) not in known:
                mentions.append(ExtractedEntity(name=person, type="Person"))
                known.add(fold_name(person))
    return mentions


def _usable(group: MentionGroup) -> bool:
    return bool(fold_name(group.name))


def _label(type_name: str) -> str:
    candidate = "".join(part[:1].upper() + part[1:] for part in type_name.replace("-", "_").split("_") if part)
    return candidate if LABEL.match(candidate) else "Entity"


def _embed_all(embed: Embed | None, *batches: list[str]) -> list[list[list[float]] | None]:
    """One embedder call for every text of the episode (names, facts, passages)."""
    if embed is None:
        return [None for _ in batches]
    flat = [t for batch in batches for t in batch]
    vectors = embed(flat) if flat else []
    out: list[list[list[float]] | None] = []
    start = 0
    for batch in batches:
        out.append(vectors[start:start + len(batch)])
        start += len(batch)
    return out


def _choose(episode: Episode, groups: list[MentionGroup], decisions: list[Decision],
            found: dict[int, list[CandidateEntity]], adjudicator: Adjudicator | None,
            report: PlanReport) -> list[str | None]:
    chosen: list[str | None] = [d.uuid if d.action == "merge" else None for d in decisions]
    ambiguous = [i for i, d in enumerate(decisions) if d.action == "ambiguous"]
    report.merged = sum(1 for d in decisions if d.action == "merge")
    report.ambiguous = len(ambiguous)
    if ambiguous and adjudicator is not None:
        report.adjudication_calls += 1
        cases = []
        for i in ambiguous:
            by_uuid = {c.uuid: c for c in found.get(i, [])}
            cases.append(AmbiguousCase(mention=groups[i], decision=decisions[i], candidates=[
                by_uuid[s.candidate_uuid] for s in decisions[i].candidates if s.candidate_uuid in by_uuid]))
        verdicts = adjudicator(episode, cases)
        for k, i in enumerate(ambiguous):
            pick = verdicts.get(k)
            if pick in {c.uuid for c in cases[k].candidates}:
                chosen[i] = pick
    report.created = sum(1 for c in chosen if c is None)
    return chosen


def _form_index(groups: list[MentionGroup], mentions: list[ExtractedEntity]) -> dict[str, int]:
    index: dict[str, int] = {}
    for gi, g in enumerate(groups):
        forms = [g.name, *g.aliases]
        for m in g.members:
            forms += [mentions[m].name, *mentions[m].aliases]
        for form in forms:
            index.setdefault(fold_name(form), gi)
    return index


def _predicate(f: ExtractedFact, registry: list[Predicate], onto: Ontology,
               embed: Embed | None = None) -> tuple[str, bool, Predicate]:
    """Registry name, whether the wording negates, and the registry entry for one predicate spelling."""
    name, negated_word = parse_predicate(f.predicate)
    name = fold_predicate(name, registry, _predicate_vectors(name, registry, onto, embed), ontology=onto)
    if not PREDICATE.match(name):
        raise InputError(f"predicate {f.predicate!r} does not normalize to a usable name")
    known = next((p for p in registry if p.name == name), None)
    functional = (known.functional if known and known.functional else None) or onto.functional(name) or f.functional
    pdef = onto.predicates.get(onto.canonical_predicate(name) or "")
    info = Predicate(name=name, functional=functional,
                         description=(known.description if known else "") or (pdef.description if pdef else ""))
    return name, negated_word, info


def _predicate_vectors(name: str, registry: list[Predicate], onto: Ontology,
                       embed: Embed | None) -> dict[str, list[float]] | None:
    """Embeddings for the last step of predicate folding ("relocate_to" onto a registered "lives_in"): only for
    a name neither the registry nor the ontology knows, and only when the registry has other names."""
    if embed is None or onto.canonical_predicate(name) or any(p.name == name for p in registry) or not registry:
        return None
    names = [name, *(p.name for p in registry)]
    return dict(zip(names, embed([n.replace("_", " ") for n in names]), strict=True))


def _fact(episode: Episode, f: ExtractedFact, text: str, vec: list[float] | None, by_form: dict[str, int],
          uuid_of_group: list[str], predicate: tuple[str, bool, Predicate]) -> FactWrite:
    s_idx, o_idx = by_form.get(fold_name(f.subject)), by_form.get(fold_name(f.object))
    if s_idx is None or o_idx is None:
        raise InputError("subject or object has no usable name")
    subject, obj = uuid_of_group[s_idx], uuid_of_group[o_idx]
    if subject == obj:
        raise InputError("subject and object are the same entity (self-loop)")
    name, negated_word, info = predicate
    if info.functional == "symmetric" and obj < subject:
        # One direction per pair: "A married B" and "B married A" of one day are one fact with two sources.
        subject, obj = obj, subject
    negated = f.negated or negated_word
    valid_at = f.valid_at or episode.reference_time
    for when in (valid_at, f.invalid_at):
        if when is not None and not (MIN_DATE <= when <= MAX_DATE):
            raise InputError(f"date {when.isoformat()} is out of range")
    if f.invalid_at is not None and f.invalid_at <= valid_at:
        raise InputError(f"end {f.invalid_at.isoformat()} is not after start {valid_at.isoformat()}")
    role = f.role if name == OFFICE_PREDICATE else None
    uuid = ids.fact_uuid(episode.group_id, subject, ("not:" if negated else "") + name, obj, valid_at, role)
    evidence = [Evidence(episode_uuid=episode.uuid, start=s.start, end=s.end) for s in f.spans]
    return FactWrite(uuid=uuid, subject_uuid=subject, predicate=name, object_uuid=obj, fact=text, role=role,
                     valid_at=valid_at, invalid_at=f.invalid_at, negated=negated, confidence=f.confidence,
                     asserted_by=f.asserted_by, evidence=evidence, embedding=vec, predicate_text=f.predicate,
                     **_story(episode, f))


def _story(episode: Episode, f: ExtractedFact) -> dict[str, int | str | None]:
    """A book fact's story position: its episode's offset in the book plus its evidence's offset in the
    episode, so two facts of one window are ordered too. None outside books."""
    if episode.story_position is None:
        return {}
    inside = min((s.start for s in f.spans), default=0)
    chapter = episode.metadata.get("chapter_index")
    return {"story_at": episode.story_position + inside, "story_source": episode.source_uuid,
            "story_chapter": chapter if isinstance(chapter, int) else None}


def _merge_mentions(mentions: list[MentionWrite]) -> list[MentionWrite]:
    """Two groups resolved to one entity give one MENTIONS edge."""
    merged: dict[str, MentionWrite] = {}
    for m in mentions:
        if m.entity_uuid in merged:
            prior = merged[m.entity_uuid]
            m = MentionWrite(entity_uuid=m.entity_uuid, spans=[*prior.spans, *m.spans],
                             surface_forms=sorted({*prior.surface_forms, *m.surface_forms}))
        merged[m.entity_uuid] = m
    return list(merged.values())
