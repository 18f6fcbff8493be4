"""Synthetic but realistic temporal graphs for benchmarks: people, organizations and places; functional
predicates with successions over time (employers, homes, chief executives, head offices) and plain ones
(membership, acquaintance, birthplace); one sentence per fact, grouped into ``facts`` episodes with a passage
each, evidence spans and mentions, so search returns full provenance. Embeddings: from the embedder ``load`` is
given (the deterministic HashEmbedder when none is); the command line uses the configured one or ``--embedder``.

Written straight through ``strata.graph.bulk`` in UNWIND batches (the per-episode commit would take hours for
100k facts), into ``bench-`` groups only.

Run: .venv/bin/python -m bench.generate_graph --facts 10000 --group bench-10k [--keep] [--embedder hash]
"""

from __future__ import annotations

import argparse
import json
import random
import time
import typing
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from strata.graph import Graph, apply_migrations
from strata.graph.bulk import bulk_entities, bulk_episodes, bulk_facts, bulk_predicates, drop_group
from strata.ingest.embedders import HashEmbedder, make_embedder
from strata.ingest.protocols import Embedder
from strata.resolve.normalize import entity_key
from strata.schema import ids
from strata.schema.models import utcnow
from strata.schema.settings import Settings

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
SYLLABLES = "al bar cor dan el fen gar hal in jor kel lan mor nor or pel quar ros sel tor ul var wen yor zan".split()
ORG_SUFFIX = "Labs Systems Group Bank Foods Logistics Energy Media Robotics Pharma Motors Insurance Studios".split()
PLACE_END = "ton ville burg ford haven field port mouth stead bridge".split()
STATES = (" works for ", " lives in ", " is ", " knows ", " sits on ")
ROLES = "engineer analyst designer manager accountant researcher nurse lawyer chef pilot".split()


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


@dataclass
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


@dataclass
class Generated:
    group_id: str
    people: list[Ent] = field(default_factory=list)
    orgs: list[Ent] = field(default_factory=list)
    places: list[Ent] = field(default_factory=list)
    facts: list[FactRow] = field(default_factory=list)

    @property
    def entities(self) -> list[Ent]:
        return self.people + self.orgs + self.places


def _names(rng: random.Random, n: int, make) -> list[str]:
    seen: set[str] = set()
    while len(seen) < n:
        seen.add(make(rng))
    return sorted(seen)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice('ABCDEFGHJKLMNPRSTVW')}. {rng.choice(LAST)}"


def _root(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def _org(rng: random.Random) -> str:
    return f"{_root(rng, rng.choice((2, 3)))} {rng.choice(ORG_SUFFIX)}"


def _place(rng: random.Random) -> str:
    name = _root(rng, rng.choice((1, 2))) + rng.choice(PLACE_END)
    return f"New {name}" if rng.random() < 0.1 else name


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
    """Entities sized to the fact count, then facts until there are exactly ``n_facts``."""
    rng = random.Random(seed)
    n_people = max(50, n_facts // 8)
    out = Generated(group_id)
    for kind, names, target in (("Person", _names(rng, n_people, _person), out.people),
                                ("Organization", _names(rng, max(20, n_people // 8), _org), out.orgs),
                                ("Place", _names(rng, max(20, n_people // 20), _place), out.places)):
        target += [Ent(ids.stable_uuid("bench-entity", group_id, kind, name), name, kind) for name in names]

    def fact(predicate: str, s: Ent, o: Ent, when: datetime) -> FactRow:
        uuid = ids.stable_uuid("bench-fact", group_id, len(out.facts), predicate, s.uuid, o.uuid)
        row = FactRow(uuid, s, predicate, o, _sentence(rng, predicate, s, o, when), when)
        out.facts.append(row)
        return row

    def succession(predicate: str, s_or_o: Ent, pool: list[Ent], steps: int, subject_side: bool) -> None:
        when, previous = _date(rng, 1975, 2000), None
        for _ in range(steps):
            other = rng.choice(pool)
            s, o = (s_or_o, other) if subject_side else (other, s_or_o)
            row = fact(predicate, s, o, when)
            if previous is not None:  # the functional slot: the new fact closes the previous one
                previous.invalid_at, previous.invalidated_by = when, row.uuid
            previous = row
            when += timedelta(days=rng.randint(365, 365 * 8))
            if when.year > 2024:
                break

    org_cycle = 0
    while len(out.facts) < n_facts:
        for person in out.people:
            fact("born_in", person, rng.choice(out.places), _date(rng, 1940, 1990))
            succession("works_for", person, out.orgs, rng.randint(1, 4), True)
            succession("lives_in", person, out.places, rng.randint(1, 3), True)
            for other in rng.sample(out.people, rng.randint(0, 2)):
                if other is not person:
                    fact("knows", person, other, _date(rng))
            if rng.random() < 0.3:
                fact("member_of", person, rng.choice(out.orgs), _date(rng))
            org = out.orgs[org_cycle % len(out.orgs)]
            org_cycle += 1
            if org_cycle <= len(out.orgs):
                succession("headquartered_in", org, out.places, rng.randint(1, 2), True)
                succession("ceo_of", org, out.people, rng.randint(1, 4), False)
            if len(out.facts) >= n_facts:
                break
    # Truncating may cut a succession: the dropped successor must not be named by its predecessor.
    out.facts = out.facts[:n_facts]
    kept = {f.uuid for f in out.facts}
    for f in out.facts:
        if f.invalidated_by and f.invalidated_by not in kept:
            f.invalid_at, f.invalidated_by = None, None
    return out


def _batches(rows: list, size: int = BATCH):
    for i in range(0, len(rows), size):
        yield rows[i:i + size]


def load(graph: Graph, gen: Generated, embedder: Embedder | None = None) -> dict:
    """Write the generated graph (after dropping the group); returns counts and timings."""
    embedder = embedder or HashEmbedder()
    now = utcnow()
    started = time.perf_counter()
    drop_group(graph, gen.group_id)
    for chunk in _batches(gen.entities):
        vectors = embedder.embed([e.name for e in chunk])
        bulk_entities(graph, gen.group_id, [
            {"uuid": e.uuid, "key": entity_key(e.name, e.type), "name": e.name, "type": e.type, "summary": "",
             "embedding": v} for e, v in zip(chunk, vectors, strict=True)], now)
    entities_s = time.perf_counter() - started

    episodes, fact_rows = [], []
    for seq, chunk in enumerate(_batches(gen.facts, FACTS_PER_EPISODE)):
        ep_uuid = ids.stable_uuid("bench-episode", gen.group_id, seq)
        lines, offset, mentions = [], 0, {}
        for f in chunk:
            fact_rows.append((f, ep_uuid, offset, offset + len(f.sentence)))
            for ent in (f.subject, f.object):
                start = f.sentence.find(ent.name)
                if start >= 0:
                    mentions.setdefault(ent.uuid, []).extend([offset + start, offset + start + len(ent.name)])
            lines.append(f.sentence)
            offset += len(f.sentence) + 1
        content = "\n".join(lines)
        episodes.append({"uuid": ep_uuid, "passage_uuid": ids.stable_uuid("bench-passage", ep_uuid),
                         "content": content, "content_hash": ids.content_hash(content), "source_name": "bench-gen",
                         "reference_time": max(f.valid_at for f in chunk), "seq": seq,
                         "mentions": [{"entity_uuid": u, "spans": s} for u, s in mentions.items()]})
    for chunk in _batches(episodes, 50):
        vectors = embedder.embed([e["content"] for e in chunk])
        bulk_episodes(graph, gen.group_id, [{**e, "embedding": v} for e, v in zip(chunk, vectors, strict=True)],
                      now)
    episodes_s = time.perf_counter() - started - entities_s

    for chunk in _batches(fact_rows):
        vectors = embedder.embed([f.sentence for f, *_ in chunk])
        bulk_facts(graph, gen.group_id, [
            {"uuid": f.uuid, "subject_uuid": f.subject.uuid, "object_uuid": f.object.uuid, "predicate": f.predicate,
             "fact": f.sentence, "valid_at": f.valid_at, "invalid_at": f.invalid_at,
             "invalidated_by": f.invalidated_by, "invalidated_at": now if f.invalidated_by else None,
             "episode_uuid": ep, "evidence": f"{ep}:{start}:{end}", "embedding": v}
            for (f, ep, start, end), v in zip(chunk, vectors, strict=True)], now)
    counts: dict[str, int] = {}
    for f in gen.facts:
        counts[f.predicate] = counts.get(f.predicate, 0) + 1
    bulk_predicates(graph, gen.group_id, [
        {"name": name, "description": name.replace("_", " "), "functional": kind.functional,
         "count": counts.get(name, 0)} for name, kind in PREDICATES.items()], now)
    total_s = time.perf_counter() - started
    return {"group": gen.group_id, "facts": len(gen.facts), "entities": len(gen.entities),
            "people": len(gen.people), "organizations": len(gen.orgs), "places": len(gen.places),
            "episodes": len(episodes), "closed_facts": sum(1 for f in gen.facts if f.invalid_at is not None),
            "facts_by_predicate": dict(sorted(counts.items())), "load_seconds": round(total_s, 2),
            "facts_per_second": round(len(gen.facts) / max(total_s - entities_s - episodes_s, 1e-9), 1)}


def add_embedder_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--embedder", choices=typing.get_args(Settings.model_fields["embedder"].annotation),
                        default=None, help="the configured one (STRATA_EMBEDDER, ONNX MiniLM by default)")


def settings_for(args: argparse.Namespace) -> Settings:
    """The configured settings, with the embedder the command line chose, if any."""
    return Settings(**({"embedder": args.embedder} if args.embedder else {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--group", default=None, help="bench-<facts> by default")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the group (default: drop it after loading)")
    add_embedder_option(parser)
    args = parser.parse_args()
    settings = settings_for(args)
    group = args.group or f"bench-{args.facts}"
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        report = load(graph, generate(group, args.facts, args.seed), make_embedder(settings))
        if not args.keep:
            drop_group(graph, group)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
