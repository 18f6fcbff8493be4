"""How long retention policies take on a group of realistic size, and how much of the store they free.

A synthetic group (bench/generate_graph.py: facts episodes of 50 facts with a passage each, hash embeddings,
functional successions so about half the facts are ended) is loaded and its episodes' ingestion times spread
over the last year. Then: a dry run, a run of the policy (raw text 180 days, passages 30 days, fact history 90
days), a restore (the policy cleared and run again), the policy again, and the retention purge. Sizes are the
bytes the group holds in what retention can hide (graph/retention.py ``content_size``: characters of text,
4 bytes per vector number), visible and hidden, after each step.

Run: .venv/bin/python -m bench.bench_retention --facts 20000
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from bench.generate_graph import generate, load
from strata.graph import Graph, apply_migrations
from strata.graph import retention as store
from strata.graph.bulk import drop_group
from strata.ingest.embedders import HashEmbedder
from strata.ingest.retention import apply_group
from strata.schema.models import utcnow
from strata.schema.retention import RetentionPolicy
from strata.schema.settings import Settings

POLICY = RetentionPolicy(raw_text_days=180, passages_days=30, compact_history_days=90)
# Episodes of the synthetic group were ingested one a day, going back a year, and each fact (and the end of an
# ended one) was learned with its episode (bench only).
SPREAD = """
MATCH (ep:Episode) WHERE ep.group_id = $g
SET ep.created_at = ep.created_at - duration({days: ep.seq % 365})
"""
SPREAD_FACTS = """
MATCH ()-[r:RELATES_TO]->() WHERE r.group_id = $g
MATCH (ep:Episode {uuid: r.episodes[0]})
SET r.created_at = ep.created_at, r.invalidated_at = CASE WHEN r.invalidated_at IS NULL THEN null ELSE ep.created_at END
"""


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, round(time.perf_counter() - started, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=20_000)
    parser.add_argument("--keep", action="store_true", help="Leave the group in the database afterwards.")
    args = parser.parse_args()
    settings = Settings()
    group = f"bench-retention-{args.facts}"
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        loaded = load(graph, generate(group, args.facts), HashEmbedder(dimension=settings.embedding_dim))
        graph.query(SPREAD, g=group)
        graph.query(SPREAD_FACTS, g=group)
        sizes = {"loaded": store.content_size(graph, group)}
        store.put_policy(graph, group, POLICY, utcnow(), actor="bench")
        dry, dry_s = _timed(lambda: apply_group(graph, group, dry_run=True))
        run, run_s = _timed(lambda: apply_group(graph, group))
        sizes["applied"] = store.content_size(graph, group)
        again, again_s = _timed(lambda: apply_group(graph, group))  # nothing new is due: the steady-state cost
        store.put_policy(graph, group, RetentionPolicy(), utcnow(), actor="bench")
        back, back_s = _timed(lambda: apply_group(graph, group))
        sizes["restored"] = store.content_size(graph, group)
        store.put_policy(graph, group, POLICY, utcnow(), actor="bench")
        apply_group(graph, group)
        purged, purge_s = _timed(lambda: store.purge_hidden(graph, group, utcnow()))
        sizes["purged"] = store.content_size(graph, group)
        if not args.keep:
            drop_group(graph, group)
    before, after = sizes["loaded"].total, sizes["purged"].total
    print(json.dumps({
        "facts": loaded["facts"], "entities": loaded["entities"], "episodes": loaded["episodes"],
        "policy": POLICY.model_dump(exclude_none=True),
        "dry_run_s": dry_s, "apply_s": run_s, "apply_again_s": again_s, "restore_s": back_s, "purge_s": purge_s,
        "hidden": run.counts.model_dump(), "dry_run_matches": dry.counts == run.counts,
        "nothing_new_on_second_run": again.counts.model_dump() == {k: 0 for k in again.counts.model_dump()},
        "restored": back.counts.model_dump(), "purged": purged.model_dump(mode="json"),
        "bytes": {k: v.model_dump() | {"total": v.total} for k, v in sizes.items()},
        "bytes_saved_by_purge": before - after, "share_saved": round((before - after) / before, 3) if before else 0,
    }, indent=1))


if __name__ == "__main__":
    main()
