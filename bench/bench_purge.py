"""How long a purge takes in a group of a given size: one episode (retraction included), then the whole group.

A synthetic group (bench/generate_graph.py: facts episodes of 50 facts, hash embeddings) is loaded, one episode
purged through ``graph.purge.purge_episode`` (which scans the group's facts once for what the episode stated),
then the group through ``purge_group``.

Run: .venv/bin/python -m bench.bench_purge --facts 20000
"""

from __future__ import annotations

import argparse
import json
import time

from strata.graph import Graph, apply_migrations
from strata.graph.purge import purge_episode, purge_group
from strata.ingest.embedders import HashEmbedder
from strata.ingest.rules import purge_rules
from strata.ingest.testing.synthetic import generate, load
from strata.schema.models import utcnow
from strata.schema.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=20_000)
    args = parser.parse_args()
    settings = Settings()
    group = f"bench-purge-{args.facts}"
    embedder = HashEmbedder(dimension=settings.embedding_dim)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        loaded = load(graph, generate(group, args.facts), embedder)
        episode = graph.query("MATCH (e:Episode {group_id: $g}) RETURN e.uuid AS uuid ORDER BY e.seq LIMIT 1",
                              g=group)[0]["uuid"]
        started = time.perf_counter()
        one = purge_episode(graph, group, episode, purge_rules(embedder.embed), utcnow(), key_id="bench")
        episode_s = time.perf_counter() - started
        started = time.perf_counter()
        whole = purge_group(graph, group, utcnow(), key_id="bench")
        group_s = time.perf_counter() - started
        graph.query("MATCH (p:PurgeRecord {group_id: $g}) DELETE p", g=group)
    print(json.dumps({"facts": loaded["facts"], "entities": loaded["entities"], "episodes": loaded["episodes"],
                      "purge_episode_s": round(episode_s, 2), "episode_facts_deleted": one.record.facts_deleted,
                      "purge_group_s": round(group_s, 2), "group_facts_deleted": whole.facts_deleted}, indent=1))


if __name__ == "__main__":
    main()
