"""Synthetic but realistic temporal graphs for benchmarks: people, organizations and places; functional
predicates with successions over time (employers, homes, chief executives, head offices) and plain ones
(membership, acquaintance, birthplace); one sentence per fact, grouped into ``facts`` episodes with a passage
each, evidence spans and mentions, so search returns full provenance. Embeddings: from the embedder ``load`` is
given (the deterministic HashEmbedder when none is); the command line uses the configured one or ``--embedder``.

Names are distinct by construction: the i-th name of a kind is one combination of its word lists (a mixed-radix
number, visited in a seeded order that spreads the first names over every list), with overflow forms past the
combinations (double-barrelled surnames; "New" places). A request that needs more names than a kind can make is
refused at once. Entities and facts are streamed: entity i is computed from i, facts unit by unit (a person's
successions), so memory does not grow with the size; 10M facts need 1.25M people of the 4.9M possible.

Written straight through ``strata.graph.bulk`` in UNWIND batches (the per-episode commit would take hours for
100k facts), into ``bench-`` groups only.

Command line: bench/generate_graph.py.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property, lru_cache
from pathlib import Path

from strata.graph import Graph
from strata.graph.admin_csv import CsvStoreWriter
from strata.graph.bulk import bulk_entities, bulk_episodes, bulk_facts, bulk_predicates, drop_group
from strata.graph.bulk_csv import BulkCsv
from strata.graph.embedder_meta import record
from strata.ingest.embedders import HashEmbedder
from strata.ingest.embedders.queries import embedder_record
from strata.ingest.protocols import Embedder
from strata.resolve.normalize import entity_key
from strata.schema import ids
from strata.schema.models import utcnow

BATCH = 1000
FACTS_PER_EPISODE = 50
FIRST = ("Ann Ben Carla David Elena Farid Grace Hugo Ines Jonas Kara Liam Maya Nora Omar Priya Quinn Rosa Samir "
         "Tara Umar Vera Walter Xenia Yusuf Zoe Aiko Bruno Chloe Dmitri Esther Felix Greta Hassan Ivy Jamal Kenji "
         "Lena Mateo Nadia Oscar Paula Rafael Sofia Tomas Ulla Victor Wanda Yara Zane Alma Boris Celia Diego Edith "
         "Frank Gloria Henrik Irene Javier Karin Leon Marta Niko Olga Pedro Rita Stefan Thea Ugo Viola").split()
LAST = ("Archer Baker Carter Dalton Ellis Foster Garcia Hughes Ibarra Jensen Keller Lopez Moreau Novak Okafor "
        "Petrov Quinlan Rossi Santos Tanaka Ueda Varga Weber Xu Yilmaz Zhang Adler Brandt Costa Dubois Eriksen "
        "Fischer Gomez Hansen Ivanova Jovanovic Kowalski Larsen Meyer Nielsen Olsen Pereira Quintero Richter "
        "Schmidt Torres Urban Vogel Wagner Young Ziegler Amato Berg Cruz Duarte Engel Falk Gallo Holm").split()
INITIALS = list("ABCDEFGHJKLMNPRSTVW")
# No syllable begins another (a prefix code), so a root spells its syllables one way only.
SYLLABLES = "al bar cor dan el fen gar hal in jor kel lan mor nor or pel quar ros sel tor ul var wen yor zan".split()
ORG_SUFFIX = "Labs Systems Group Bank Foods Logistics Energy Media Robotics Pharma Motors Insurance Studios".split()
PLACE_END = "ton ville burg ford haven field port mouth stead bridge".split()
STATES = (" works for ", " lives in ", " is ", " knows ", " sits on ")
ROLES = "engineer analyst designer manager accountant researcher nurse lawyer chef pilot".split()
# Entities per fact: people 1 in 8, organizations 1 in 8 people, places 1 in 20 people (at least 50 / 20 / 20).
PEOPLE_PER_FACT, ORGS_PER_PERSON, PLACES_PER_PERSON = 8, 8, 20


class ImpossibleRequestError(ValueError):
    """The request cannot be generated (it needs more distinct names than the lists make, or no facts)."""


@dataclass(frozen=True)
class NameSpace:
    """Names distinct by construction. Index i < ``size`` is written as a mixed-radix number over ``parts`` (its
    digits pick one word of each list) inside block ``i // combinations``; ``form`` spells the words and the block
    so that different (words, block) give different names. Indexes are visited in an affine order fixed by the
    seed (a bijection of each block), so the first names use every list instead of the first words of each."""

    kind: str
    parts: tuple[tuple[str, ...], ...]
    blocks: int
    form: Callable[[tuple[str, ...], int], str]

    @cached_property
    def combinations(self) -> int:
        return math.prod(len(p) for p in self.parts)

    @property
    def size(self) -> int:
        return self.combinations * self.blocks

    def order(self, seed: int) -> tuple[int, int]:
        """A multiplier coprime with the combinations and an offset: i -> (a * i + c) mod combinations."""
        rng = random.Random(f"{seed}:{self.kind}")
        m = self.combinations
        for _ in range(64):
            a = rng.randrange(1, m) if m > 1 else 1
            if math.gcd(a, m) == 1:
                return a, rng.randrange(m)
        return 1, rng.randrange(m)  # 1 is coprime with everything

    def name(self, i: int, order: tuple[int, int]) -> str:
        if not 0 <= i < self.size:
            raise ImpossibleRequestError(f"{self.kind} name {i} is beyond the {self.size:,} the lists make")
        block, j = divmod(i, self.combinations)
        a, c = order
        j = (a * j + c) % self.combinations
        words = []
        for part in reversed(self.parts):
            j, digit = divmod(j, len(part))
            words.append(part[digit])
        return self.form(tuple(reversed(words)), block)


def _person(words: tuple[str, ...], block: int) -> str:
    first, initial, last = words
    return f"{first} {initial}. {last}" + (f"-{LAST[block - 1]}" if block else "")


def _root(words: tuple[str, ...]) -> str:
    return "".join(words).capitalize()


PEOPLE = NameSpace("Person", (tuple(FIRST), tuple(INITIALS), tuple(LAST)), 1 + len(LAST), _person)
ORGS = NameSpace("Organization", (tuple(SYLLABLES), tuple(SYLLABLES), (*SYLLABLES, ""), tuple(ORG_SUFFIX)), 1,
                 lambda w, _b: f"{_root(w[:3])} {w[3]}")
PLACES = NameSpace("Place", (tuple(SYLLABLES), tuple(SYLLABLES), (*SYLLABLES, ""), tuple(PLACE_END)), 2,
                   lambda w, b: ("New " if b else "") + _root(w[:3]) + w[3])

SPACES = {space.kind: space for space in (PEOPLE, ORGS, PLACES)}


@dataclass(frozen=True)
class Kind:
    subject: str
    object: str
    functional: str | None
    templates: tuple[str, ...]


PREDICATES: dict[str, Kind] = {
    "works_for": Kind("Person", "Organization", "subject", (
        "{s} works for {o} as a {role}", "{s} joined {o} as a {role}", "{s} was hired by {o}")),
    "lives_in": Kind("Person", "Place", "subject", ("{s} lives in {o}", "{s} moved to {o}",
                                                    "{s} settled in {o}")),
    "ceo_of": Kind("Person", "Organization", "object", ("{s} is the chief executive of {o}",
                                                        "{s} became CEO of {o}", "{s} took over as head of {o}")),
    "headquartered_in": Kind("Organization", "Place", "subject", ("{s} is headquartered in {o}",
                                                                  "{s} moved its head office to {o}")),
    "member_of": Kind("Person", "Organization", None, ("{s} is a member of the board of {o}",
                                                       "{s} sits on an advisory council of {o}")),
    "knows": Kind("Person", "Person", None, ("{s} knows {o}", "{s} met {o} at a conference",
                                            "{s} studied with {o}")),
    "born_in": Kind("Person", "Place", None, ("{s} was born in {o}",)),
}


@dataclass(frozen=True)
class Ent:
    uuid: str
    name: str
    type: str


@dataclass
class FactRow:
    uuid: str
    subject: Ent
    predicate: str
    object: Ent
    sentence: str
    valid_at: datetime
    invalid_at: datetime | None = None
    invalidated_by: str | None = None


@dataclass(frozen=True)
class Generated:
    """What ``generate`` plans: the entity counts and a seed. Entities and facts are computed on demand, the
    same for the same arguments, so nothing of the graph is held in memory."""

    group_id: str
    n_facts: int
    seed: int
    n_people: int
    n_orgs: int
    n_places: int

    @cached_property
    def _orders(self) -> dict[str, tuple[int, int]]:
        return {kind: space.order(self.seed) for kind, space in SPACES.items()}

    def _entity(self, space: NameSpace, i: int) -> Ent:
        return _entity(self.group_id, space.kind, self._orders[space.kind], i)

    def person(self, i: int) -> Ent:
        return self._entity(PEOPLE, i)

    def org(self, i: int) -> Ent:
        return self._entity(ORGS, i)

    def place(self, i: int) -> Ent:
        return self._entity(PLACES, i)

    @property
    def n_entities(self) -> int:
        return self.n_people + self.n_orgs + self.n_places

    def entities(self) -> Iterator[Ent]:
        for space, n in ((PEOPLE, self.n_people), (ORGS, self.n_orgs), (PLACES, self.n_places)):
            for i in range(n):
                yield self._entity(space, i)

    def facts(self) -> Iterator[FactRow]:
        """Exactly ``n_facts`` facts: person after person (cycling), each person's facts as one unit; the last
        unit is cut to fit, and a fact whose successor was cut is left open."""
        rng = random.Random(self.seed)
        made = 0
        for step in itertools.count():
            unit = self._unit(rng, step, made)
            if made + len(unit) >= self.n_facts:
                yield from _cut(unit, self.n_facts - made)
                return
            made += len(unit)
            yield from unit

    def _unit(self, rng: random.Random, step: int, made: int) -> list[FactRow]:
        person = self.person(step % self.n_people)
        unit: list[FactRow] = []

        def fact(predicate: str, s: Ent, o: Ent, when: datetime) -> FactRow:
            uuid = ids.stable_uuid("bench-fact", self.group_id, made + len(unit), predicate, s.uuid, o.uuid)
            row = FactRow(uuid, s, predicate, o, _sentence(rng, predicate, s, o, when), when)
            unit.append(row)
            return row

        def succession(predicate: str, anchor: Ent, pick: Callable[[], Ent], steps: int, subject_side: bool) -> None:
            when, previous = _date(rng, 1975, 2000), None
            for _ in range(steps):
                other = pick()
                s, o = (anchor, other) if subject_side else (other, anchor)
                row = fact(predicate, s, o, when)
                if previous is not None:  # the functional slot: the new fact closes the previous one
                    previous.invalid_at, previous.invalidated_by = when, row.uuid
                previous = row
                when += timedelta(days=rng.randint(365, 365 * 8))
                if when.year > 2024:
                    break

        def any_org() -> Ent:
            return self.org(rng.randrange(self.n_orgs))

        def any_place() -> Ent:
            return self.place(rng.randrange(self.n_places))

        def any_person() -> Ent:
            return self.person(rng.randrange(self.n_people))

        fact("born_in", person, any_place(), _date(rng, 1940, 1990))
        succession("works_for", person, any_org, rng.randint(1, 4), True)
        succession("lives_in", person, any_place, rng.randint(1, 3), True)
        for other in rng.sample(range(self.n_people), min(rng.randint(0, 2), self.n_people)):
            if other != step % self.n_people:
                fact("knows", person, self.person(other), _date(rng))
        if rng.random() < 0.3:
            fact("member_of", person, any_org(), _date(rng))
        if step < self.n_orgs:  # each organization's head office and chief executives, once
            org = self.org(step)
            succession("headquartered_in", org, any_place, rng.randint(1, 2), True)
            succession("ceo_of", org, any_person, rng.randint(1, 4), False)
        return unit


@lru_cache(maxsize=1 << 16)  # bounded: facts name the same entities again and again
def _entity(group_id: str, kind: str, order: tuple[int, int], i: int) -> Ent:
    name = SPACES[kind].name(i, order)
    return Ent(ids.stable_uuid("bench-entity", group_id, kind, name), name, kind)


def _cut(unit: list[FactRow], keep: int) -> list[FactRow]:
    """The first ``keep`` facts of a unit; a kept fact closed by a dropped successor stays open."""
    kept = unit[:keep]
    uuids = {f.uuid for f in kept}
    for f in kept:
        if f.invalidated_by and f.invalidated_by not in uuids:
            f.invalid_at, f.invalidated_by = None, None
    return kept


def _date(rng: random.Random, start_year: int = 1975, end_year: int = 2023) -> datetime:
    return datetime(rng.randint(start_year, end_year), rng.randint(1, 12), rng.randint(1, 28), tzinfo=UTC)


def _sentence(rng: random.Random, predicate: str, s: Ent, o: Ent, when: datetime) -> str:
    role = rng.choice(ROLES)
    text = rng.choice(PREDICATES[predicate].templates).format(s=s.name, o=o.name, role=role)
    text = text.replace(f" a {role}", f" an {role}") if role[0] in "aeiou" else text
    if any(verb in text for verb in STATES):  # a state holds "since"; an event happened "in"
        return f"{text} since {when.year}." if rng.random() < 0.5 else f"In {when.year}, {text}."
    return f"{text} in {when.year}." if rng.random() < 0.5 else f"In {when.year}, {text}."


def generate(group_id: str, n_facts: int, seed: int = 7) -> Generated:
    """Entities sized to the fact count (checked against what the name lists can make), then exactly ``n_facts``
    facts, computed as they are read."""
    if n_facts < 1:
        raise ImpossibleRequestError(f"a graph needs at least one fact, not {n_facts}")
    n_people = max(50, n_facts // PEOPLE_PER_FACT)
    counts = {PEOPLE: n_people, ORGS: max(20, n_people // ORGS_PER_PERSON),
              PLACES: max(20, n_people // PLACES_PER_PERSON)}
    for space, n in counts.items():
        if n > space.size:
            most = min(s.size * per for s, per in ((PEOPLE, 1), (ORGS, ORGS_PER_PERSON), (PLACES, PLACES_PER_PERSON)))
            raise ImpossibleRequestError(
                f"{n_facts:,} facts need {n:,} distinct {space.kind} names; the name lists make {space.size:,} "
                f"(at most {most * PEOPLE_PER_FACT:,} facts)")
    return Generated(group_id, n_facts, seed, counts[PEOPLE], counts[ORGS], counts[PLACES])


def batches(rows: Iterable, size: int = BATCH) -> Iterator[list]:
    it = iter(rows)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _episode(group_id: str, seq: int, chunk: list[FactRow]) -> tuple[dict, list[tuple[FactRow, str, int, int]]]:
    """One ``facts`` episode over a chunk of facts (a sentence a line, one passage over it all, the mentions),
    and each fact's evidence span in it."""
    ep_uuid = ids.stable_uuid("bench-episode", group_id, seq)
    lines, spans, offset = [], [], 0
    mentions: dict[str, list[int]] = {}
    for f in chunk:
        spans.append((f, ep_uuid, offset, offset + len(f.sentence)))
        for ent in (f.subject, f.object):
            start = f.sentence.find(ent.name)
            if start >= 0:
                mentions.setdefault(ent.uuid, []).extend([offset + start, offset + start + len(ent.name)])
        lines.append(f.sentence)
        offset += len(f.sentence) + 1
    content = "\n".join(lines)
    episode = {"uuid": ep_uuid, "passage_uuid": ids.stable_uuid("bench-passage", ep_uuid), "content": content,
               "content_hash": ids.content_hash(content), "source_name": "bench-gen",
               "reference_time": max(f.valid_at for f in chunk), "seq": seq,
               "mentions": [{"entity_uuid": u, "spans": s} for u, s in mentions.items()]}
    return episode, spans


@dataclass
class Planned:
    """What the loaders write, in order: row batches as ``strata.graph.bulk`` takes them (``kind`` is one of
    entities, episodes, facts, predicates), and the totals once every batch was read."""

    counts: dict[str, int]
    closed: int = 0
    episodes: int = 0


def planned_rows(gen: Generated, embedder: Embedder, now: datetime, planned: Planned,
                 facts_per_episode: int = FACTS_PER_EPISODE) -> Iterator[tuple[str, list[dict]]]:
    """The generated graph as bulk rows, a batch at a time, vectors included: the Cypher path (``load``) and
    the import files (``synthetic_csv``) write the same rows."""
    for chunk in batches(gen.entities()):
        vectors = embedder.embed([e.name for e in chunk])
        yield "entities", [{"uuid": e.uuid, "key": entity_key(e.name, e.type), "name": e.name, "type": e.type,
                            "summary": "", "embedding": v} for e, v in zip(chunk, vectors, strict=True)]
    per_batch = max(1, BATCH // facts_per_episode) * facts_per_episode  # whole episodes per batch
    for batch in batches(gen.facts(), per_batch):
        episodes, fact_rows = [], []
        for i in range(0, len(batch), facts_per_episode):
            episode, spans = _episode(gen.group_id, planned.episodes, batch[i:i + facts_per_episode])
            episodes.append(episode)
            fact_rows += spans
            planned.episodes += 1
        for chunk in batches(episodes, 50):
            vectors = embedder.embed([e["content"] for e in chunk])
            yield "episodes", [{**e, "embedding": v} for e, v in zip(chunk, vectors, strict=True)]
        vectors = embedder.embed([f.sentence for f, *_ in fact_rows])
        yield "facts", [
            {"uuid": f.uuid, "subject_uuid": f.subject.uuid, "object_uuid": f.object.uuid, "predicate": f.predicate,
             "fact": f.sentence, "valid_at": f.valid_at, "invalid_at": f.invalid_at,
             "invalidated_by": f.invalidated_by, "invalidated_at": now if f.invalidated_by else None,
             "episode_uuid": ep, "evidence": f"{ep}:{start}:{end}", "embedding": v}
            for (f, ep, start, end), v in zip(fact_rows, vectors, strict=True)]
        for f in batch:
            planned.counts[f.predicate] = planned.counts.get(f.predicate, 0) + 1
            planned.closed += f.invalid_at is not None
    yield "predicates", [{"name": name, "description": name.replace("_", " "), "functional": kind.functional,
                          "count": planned.counts.get(name, 0)} for name, kind in PREDICATES.items()]


def report(gen: Generated, planned: Planned) -> dict:
    return {"group": gen.group_id, "facts": sum(planned.counts.values()), "entities": gen.n_entities,
            "people": gen.n_people, "organizations": gen.n_orgs, "places": gen.n_places,
            "episodes": planned.episodes, "closed_facts": planned.closed,
            "facts_by_predicate": dict(sorted(planned.counts.items()))}


def load(graph: Graph, gen: Generated, embedder: Embedder | None = None,
         facts_per_episode: int = FACTS_PER_EPISODE, now: datetime | None = None) -> dict:
    """Write the generated graph (after dropping the group), a batch at a time; returns counts and timings."""
    embedder = embedder or HashEmbedder()
    now = now or utcnow()
    started = time.perf_counter()
    drop_group(graph, gen.group_id)
    record(graph, gen.group_id, embedder_record(embedder))  # a search under another embedder is refused
    writers = {"entities": bulk_entities, "episodes": bulk_episodes, "facts": bulk_facts,
               "predicates": bulk_predicates}
    planned = Planned(counts={})
    entities_s, facts_s = 0.0, 0.0
    for kind, rows in planned_rows(gen, embedder, now, planned, facts_per_episode):
        began = time.perf_counter()
        writers[kind](graph, gen.group_id, rows, now)
        if kind == "entities":
            entities_s = time.perf_counter() - started
        elif kind == "facts":
            facts_s += time.perf_counter() - began
    total_s = time.perf_counter() - started
    return {**report(gen, planned), "load_seconds": round(total_s, 2), "entities_seconds": round(entities_s, 2),
            "facts_per_second": round(sum(planned.counts.values()) / max(facts_s, 1e-9), 1)}


def write_import_files(gen: Generated, folder: Path, embedder: Embedder | None = None,
                       facts_per_episode: int = FACTS_PER_EPISODE, now: datetime | None = None) -> dict:
    """The same graph as ``load`` writes, as files for a first load through ``neo4j-admin`` (streamed)."""
    embedder = embedder or HashEmbedder()
    started = time.perf_counter()
    writer = CsvStoreWriter(folder)
    out = BulkCsv(writer, gen.group_id, now or utcnow())
    planned = Planned(counts={})
    for kind, rows in planned_rows(gen, embedder, out.now, planned, facts_per_episode):
        out.write(kind, rows)
    made_by = embedder_record(embedder)  # as `load` records it: without it the group reads as MiniLM's
    writer.node(f"embedder:{gen.group_id}", ["GroupEmbedder"],
                {"group_id": gen.group_id, "name": made_by.name, "dimension": made_by.dimension,
                 "recorded_at": out.now})
    manifest = writer.close()
    return {**report(gen, planned), "csv_seconds": round(time.perf_counter() - started, 2),
            "csv_bytes": sum(p.stat().st_size for p in folder.glob("*.csv")), "files": len(manifest.nodes) +
            len(manifest.relationships)}
