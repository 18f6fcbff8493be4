"""Load a synthetic graph (strata.ingest.testing.synthetic) and print its load report.

Run: .venv/bin/python -m bench.generate_graph --facts 10000 --group bench-10k [--keep] [--embedder hash]
"""

from __future__ import annotations

import argparse
import json
import typing

from strata.graph import Graph, apply_migrations
from strata.graph.bulk import drop_group
from strata.ingest.embedders import make_embedder
from strata.ingest.testing.synthetic import ImpossibleRequestError, generate, load
from strata.schema.settings import Settings


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
    add_embedder_option(parser)
    args = parser.parse_args()
    try:
        gen = generate(args.group or f"bench-{args.facts}", args.facts, args.seed)
    except ImpossibleRequestError as exc:
        parser.error(str(exc))
    settings = settings_for(args)
    with Graph.from_settings(settings) as graph:
        apply_migrations(graph, settings.embedding_dim)
        report = load(graph, gen, make_embedder(settings))
        if not args.keep:
            drop_group(graph, gen.group_id)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
