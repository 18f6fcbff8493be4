"""The consolidation pass of one book (or every source of a group): one service for the end of a job, the CLI
(`strata consolidate`) and REST (`POST /v1/groups/{g}/consolidate`).

Reads the book's cast (current entities its episodes mention), keeps the persons (typed Person, or shaped like a
person's name whatever the small model typed them), asks `strata.resolve.consolidate` for merges, applies each
with `merge_entities` and a record (rule + evidence + what moved, for undo), and records suggestions where the
evidence is not clear. Idempotent: a second run finds nothing left to merge; a merge whose entities are no
longer current is skipped.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime

from pydantic import BaseModel, Field

from strata.graph import Graph
from strata.graph import consolidate as store
from strata.graph.edit import MergeEvidence, merge_entities
from strata.graph.split import SplitHow, split_forms
from strata.ingest.extractors.gender import given_name_gender
from strata.ingest.extractors.person_shape import given_name_led
from strata.ingest.logging import log_event
from strata.ingest.rules import split_rules
from strata.resolve.alias_rules import AliasTie
from strata.resolve.cleanup import cleanup
from strata.resolve.consolidate import CastMember, Described, Marriage, Reply, consolidate
from strata.resolve.given_names import census_first_names
from strata.resolve.names import parse_name
from strata.resolve.narrator import book_narrator
from strata.resolve.normalize import type_class
from strata.resolve.timeline import recompute_timeline
from strata.schema.errors import InputError, NotFoundError
from strata.schema.models import utcnow

log = logging.getLogger("strata.ingest")
# Confidence of a narrator's quote named by the book's pass rather than by its own window.
NARRATOR_CONFIDENCE = 0.5


class MergeDone(BaseModel):
    merged: str
    into: str
    rule: str
    forms: list[str]
    record_uuid: str | None = None


class SplitDone(BaseModel):
    entity: str
    into: str
    rule: str
    forms: list[str]
    record_uuid: str


class ConsolidationResult(BaseModel):
    group_id: str
    source_uuid: str | None
    cast: int  # persons considered
    splits: list[SplitDone] = Field(default_factory=list)
    merges: list[MergeDone] = Field(default_factory=list)
    suggestions: int = 0
    skipped: int = 0  # merges whose entities were no longer current
    narrator_quotes: int = 0  # the narrator's quotes given to the book's narrator


def _is_person(row: store.CastRow, titled_surnames: set[str]) -> bool:
    cls = type_class(row.type)
    if cls == "person":
        return True
    if cls not in (None, "organization", "place"):
        return False  # events, works, objects: never a person whatever the name
    if given_name_led(row.name):
        return True
    words = row.name.split()
    if len(words) == 2 and words[0].lower() in census_first_names() and words[1].lower() in titled_surnames:
        return True  # "Toby Crackit" typed an organization, while a titled person bears the surname ("Mr. Crackit")
    return len(words) == 1 and words[0][:1].isupper() and (
        words[0].lower() in titled_surnames or given_name_gender(words[0]) is not None)


def _members(graph: Graph, group_id: str, source_uuid: str | None) -> list[CastMember]:
    rows = store.read_cast(graph, group_id, source_uuid)
    titled = {p.surname for r in rows if type_class(r.type) == "person"
              for p in map(parse_name, [r.name, *r.aliases]) if p.surname and p.honorifics and not p.given}
    out = []
    for r in rows:
        if not _is_person(r, titled):
            continue
        counts = Counter(f for forms in r.seen for f in set(forms))
        out.append(CastMember(uuid=r.uuid, name=r.name, aliases=r.aliases, episodes=r.episodes,
                              first_position=r.first_position, form_episodes=dict(counts), apart=r.apart))
    return out


def _split(graph: Graph, group_id: str, source_uuid: str | None, result: ConsolidationResult) -> None:
    for split in cleanup(_members(graph, group_id, source_uuid)):
        try:
            how = SplitHow(into_uuid=split.into_uuid, rule=split.rule, reason=split.reason, source_uuid=source_uuid)
            done = split_forms(graph, group_id, split.entity_uuid, split.forms, split_rules(), utcnow(), how)
        except (NotFoundError, InputError):
            result.skipped += 1
            continue
        result.splits.append(SplitDone(entity=split.entity_uuid, into=done.into_uuid, rule=split.rule,
                                       forms=done.forms, record_uuid=done.record_uuid))


def _name_narrator(graph: Graph, group_id: str, source_uuid: str | None) -> int:
    """Give the narrator's unnamed quotes to the entity the book's windows named the narrator most."""
    rows = store.read_narrator_quotes(graph, group_id, source_uuid)
    narrator = book_narrator((str(r["episode"]), str(r["speaker"])) for r in rows if r["speaker"])
    unnamed = [str(r["quote"]) for r in rows if not r["speaker"]]
    if narrator is None or not unnamed:
        return 0
    return store.assign_narrator(graph, group_id, narrator, unnamed, NARRATOR_CONFIDENCE)


def consolidate_source(graph: Graph, group_id: str, source_uuid: str | None,
                       now: datetime | None = None) -> ConsolidationResult:
    """Clean the cast (split misplaced names), read it again, merge, clean again; suggestions where unclear."""
    now = now or utcnow()
    result = ConsolidationResult(group_id=group_id, source_uuid=source_uuid, cast=0)
    _split(graph, group_id, source_uuid, result)
    members = _members(graph, group_id, source_uuid)
    result.cast = len(members)
    uuids = [m.uuid for m in members]
    marriages = [Marriage(a=str(x["a"]), b=str(x["b"]), position=x["position"], predicate=str(x["predicate"]),
                          seq=x["seq"]) for x in store.read_marriages(graph, group_id, uuids)]
    replies = [Reply(**x) for x in store.read_replies(graph, group_id, source_uuid)]
    descriptions = [Described(named=str(x["a"]), description=str(x["b"]))
                    for x in store.read_descriptions(graph, group_id, uuids)]
    aliases = [AliasTie(a=str(x["a"]), b=str(x["b"])) for x in store.read_aliases(graph, group_id, uuids)]
    plan = consolidate(members, marriages, replies, descriptions, aliases)
    for m in plan.merges:
        evidence = MergeEvidence(**m.model_dump(exclude={"from_uuid", "into_uuid"}), source_uuid=source_uuid)
        try:
            done_merge = merge_entities(graph, group_id, m.from_uuid, m.into_uuid, recompute_timeline, utcnow(),
                                        evidence)
        except NotFoundError:
            result.skipped += 1
            continue
        result.merges.append(MergeDone(merged=m.from_uuid, into=m.into_uuid, rule=m.rule, forms=m.forms,
                                       record_uuid=done_merge.record_uuid))
    if result.merges:  # a merge can bring an alias that is another entity's name: clean once more
        _split(graph, group_id, source_uuid, result)
    result.narrator_quotes = _name_narrator(graph, group_id, source_uuid)
    store.record_suggestions(graph, group_id, [s.model_dump() for s in plan.suggestions], now)
    result.suggestions = len(plan.suggestions)
    log_event(log, "consolidate.done", group_id=group_id, source_uuid=source_uuid, cast=len(members),
              splits=len(result.splits), merges=len(result.merges), suggestions=result.suggestions,
              narrator_quotes=result.narrator_quotes,
              skipped=result.skipped)
    return result


def consolidate_group(graph: Graph, group_id: str, source_uuid: str | None = None) -> list[ConsolidationResult]:
    """One pass per source of the group (or the given one); a group without sources is one pass."""
    targets: list[str | None] = [source_uuid] if source_uuid else [*store.sources(graph, group_id)] or [None]
    return [consolidate_source(graph, group_id, s) for s in targets]
