"""Entity resolution through the real graph path on the Pride and Prejudice character list.

Each character is introduced once by its main name (its own episode), then every other alias arrives in an
episode of its own, in random order, and is resolved against the graph (exact key, full-text, vectors).
A merge into the alias's own character is correct, into another character wrong; an ambiguous mention is
created with a "possibly same as" suggestion, which counts as one LLM adjudication it would have needed.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from strata.ingest.pipeline import Pipeline
from strata.resolve.evaluate import AliasRecord, parse_alias_cell
from strata.resolve.normalize import fold_name
from strata.schema import ids
from strata.schema.models import Episode, ExtractedEntity, Extraction, ExtractorInfo, Span

REFERENCE = datetime(1813, 1, 28, tzinfo=UTC)

# The character list names some people twice (spelling variants, a title and a full name); merging these
# is right. Everything else two main names resolve to is a wrong merge.
KNOWN_DUPLICATES = frozenset({
    frozenset({"Mr. Philips", "Mr. Phillips"}), frozenset({"Mrs. Philips", "Aunt Philips"}),
    frozenset({"Harriet", "Harriet Harrington"}), frozenset({"Pen", "Pen Harrington"}),
    frozenset({"Mr. Darcy", "Mr. Darcy Of Pemberley"}), frozenset({"Ms. Reynolds", "Mrs. Reynolds"}),
    frozenset({"Denny", "Mr. Denney"}),
})


def load_characters(path: Path) -> list[AliasRecord]:
    with path.open(encoding="utf-8") as fh:
        return [AliasRecord(id=row["Character ID"], name=row["Main Name"].strip(),
                            aliases=parse_alias_cell(row["Aliases"]))
                for row in csv.DictReader(fh)]


@dataclass
class GraphERReport:
    evaluated: int = 0
    correct: int = 0
    wrong: int = 0
    created: int = 0
    adjudications: int = 0
    main_collisions: list[frozenset[str]] = field(default_factory=list)
    main_uuids: dict[str, str] = field(default_factory=dict)  # character main name -> entity uuid
    errors: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def unexpected_collisions(self) -> list[frozenset[str]]:
        return [c for c in self.main_collisions if c not in KNOWN_DUPLICATES]

    @property
    def merged(self) -> int:
        return self.correct + self.wrong

    @property
    def precision(self) -> float:
        return self.correct / self.merged if self.merged else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.evaluated if self.evaluated else 0.0


def _mention_episode(group: str, seq: int, name: str, context: str) -> tuple[Episode, Extraction]:
    content = f"{context} {name} came in."
    start = content.index(name, len(context))
    ep = Episode(uuid=ids.stable_uuid("pp-er", group, seq), group_id=group, seq=seq, kind="text", content=content,
                 reference_time=REFERENCE, content_hash=ids.content_hash(content))
    ext = Extraction(episode_uuid=ep.uuid, extractor=ExtractorInfo(name="gold-mentions"), entities=[
        ExtractedEntity(name=name, type="Person", spans=[Span(start=start, end=start + len(name))])])
    return ep, ext


def resolve_aliases(pipeline: Pipeline, group: str, characters: list[AliasRecord], seed: int = 3,
                    novel: str | None = None) -> GraphERReport:
    """Aliases in random order, or, given the novel's text, in the order the novel first uses them (aliases
    it never uses verbatim come last, shuffled)."""
    report = GraphERReport()
    main_uuid: dict[str, str] = {}
    seq = 0
    for record in characters:
        ep, ext = _mention_episode(group, seq, record.name, "Chapter one.")
        seq += 1
        outcome = pipeline.commit(ep, ext)
        report.adjudications += outcome.ambiguous
        main_uuid[record.id] = _entity_of(pipeline, ep.uuid)
    report.main_uuids = {r.name: main_uuid[r.id] for r in characters}
    by_uuid: dict[str, set[str]] = {}
    for record in characters:
        by_uuid.setdefault(main_uuid[record.id], set()).add(record.name)
    report.main_collisions = [frozenset(names) for names in by_uuid.values() if len(names) > 1]
    owner = {uuid: cid for cid, uuid in main_uuid.items()}
    pending = [(r, a) for r in characters for a in r.aliases if fold_name(a) != fold_name(r.name)]
    random.Random(seed).shuffle(pending)
    if novel is not None:
        first_use = {alias: novel.find(alias) for _, alias in pending}
        pending.sort(key=lambda p: first_use[p[1]] if first_use[p[1]] >= 0 else len(novel))

    def names_of(uuid: str) -> str:
        return next((r.name for r in characters if main_uuid[r.id] == uuid), "")

    for record, alias in pending:
        ep, ext = _mention_episode(group, seq, alias, "Later that day.")
        seq += 1
        outcome = pipeline.commit(ep, ext)
        report.adjudications += outcome.ambiguous
        report.evaluated += 1
        got = _entity_of(pipeline, ep.uuid)
        if got == main_uuid[record.id] or frozenset({record.name, names_of(got)}) in KNOWN_DUPLICATES:
            report.correct += 1
        elif got in owner:
            report.wrong += 1
            report.errors.append((alias, record.name, next(r.name for r in characters if r.id == owner[got])))
        else:
            report.created += 1
    return report


def _entity_of(pipeline: Pipeline, episode_uuid: str) -> str:
    rows = pipeline.graph.query("MATCH (:Episode {uuid: $u})-[:MENTIONS]->(e:Entity) RETURN e.uuid AS uuid",
                                u=episode_uuid)
    return rows[0]["uuid"] if rows else ""
