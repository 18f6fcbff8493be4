"""Load a synthetic graph (strata.ingest.testing.synthetic) and print its load report.

Run: .venv/bin/python -m bench.generate_graph --facts 10000 --group bench-10k [--keep] [--embedder hash]
"""

from __future__ import annotations

import argparse
import json
import resource
import time
import typing

from strata.graph import Graph, apply_migrations
from strata.graph.bulk import drop_group
from strata.ingest.embedders import make_embedder
from strata.ingest.testing.synthetic import BATCH, Generated, ImpossibleRequestError, batches, generate, load
from strata.schema.settings import Settings


def stream_only(gen: Generated) -> dict:
    """Every entity and fact computed and dropped, with episodes' texts as ``load`` builds them: what the
    generator costs alone, and that its memory stays flat (peak resident set size)."""
    started = time.perf_counter()
    entities = sum(1 for _ in gen.entities())
    facts, chars = 0, 0
    for batch in batches(gen.facts(), BATCH):
        facts += len(batch)
        chars += sum(len(f.sentence) for f in batch)
    return {"facts": facts, "entities": entities, "sentence_chars": chars,
            "seconds": round(time.perf_counter() - started, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def add_embedder_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--embedder", choices=typing.get_args(Settings.model_fields["embedder"].annotation),
                        default=None, help="the configured one (STRATA_EMBEDDER, ONNX MiniLM by default)")


def settings_for(args: argparse.Namespace) -> Settings:
    """The configured settings, with the embedder the command line chose, if any."""
    return Settings(**({"embedder": args.embedder} if args.embedder else {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--group", default=None, help="bench-<facts> by default")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the group (default: drop it after loading)")
    parser.add_argument("--stream-only", action="store_true",
                        help="generate every entity and fact without loading them: time and peak memory")
    add_embedder_option(parser)
    args = parser.parse_args()
    try:
        gen = generate(args.group or f"bench-{args.facts}", args.facts, args.seed)
    except ImpossibleRequestError as exc:
        parser.error(str(exc))
    if args.stream_only:
        print(json.dumps(stream_only(gen), indent=2))
        return
    settings = settings_for(args)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        report = load(graph, gen, make_embedder(settings))
        if not args.keep:
            drop_group(graph, gen.group_id)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
