"""Embedder latency on LoCoMo text: per question (one text, as a search embeds it) and per batch of turns (as an
ingest embeds an episode), each embedder on one thread, the embedders taking turns so that both see the same
machine. Reports the median and p95 per text.

Run: .venv/bin/python -m bench.bench_embedders [--rounds 5] [--batch 32] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench.locomo import DEV, load_conversations
from strata.ingest.embedders import make_embedder, query_mode
from strata.schema.settings import Settings

EMBEDDERS = ("onnx-minilm", "bge-small")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results" / "embedders.json")
    args = parser.parse_args()
    conv = load_conversations(DEV)[0]
    questions = [q.text for q in conv.questions][: args.questions]
    turns = [f"{m['speaker']}: {m['text']}" for s in conv.sessions for m in s["messages"]][: args.batch * 8]
    models = {name: make_embedder(Settings(embedder=name, embedding_threads=1, query_embedding_threads=1),
                                  for_queries=True) for name in EMBEDDERS}
    asked: dict[str, list[float]] = {n: [] for n in EMBEDDERS}
    batched: dict[str, list[float]] = {n: [] for n in EMBEDDERS}
    for model in models.values():  # warm-up: the session's first runs allocate
        model.embed(turns[: args.batch])
        query_mode(model)(questions[:5])
    for _ in range(args.rounds):
        for name, model in models.items():
            ask = query_mode(model)
            for q in questions:
                started = time.perf_counter()
                ask([q])
                asked[name].append((time.perf_counter() - started) * 1000)
            for b in range(0, len(turns), args.batch):
                started = time.perf_counter()
                model.embed(turns[b:b + args.batch])
                batched[name].append((time.perf_counter() - started) * 1000 / args.batch)

    def summary(ms: list[float]) -> dict[str, float]:
        ms = sorted(ms)
        return {"p50": round(statistics.median(ms), 2), "p95": round(ms[int(len(ms) * 0.95)], 2)}

    report = {"threads": 1, "batch": args.batch,
              "query_ms": {n: summary(asked[n]) for n in EMBEDDERS},
              "batch_ms_per_text": {n: summary(batched[n]) for n in EMBEDDERS}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
