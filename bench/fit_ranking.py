"""Fit the ranking weights (graph/ranking.py ``RankWeights``) on LoCoMo-format conversations, honestly.

Each question's channels run once (``graph.search.gather``, in process, the shipped embedder); every weight
setting then only ranks and reads the winners (``answer``), so a setting costs seconds. Coordinate ascent on
recall@10 from the shipped defaults, each weight scaled by a few factors in turn until nothing improves.
Two-fold check: fit on half of the conversations, report recall@10 on the other half with the fitted and the
default weights (what the fit is worth on conversations it did not see); then fit on all of them.

``--rescore bge-small`` adds the rescoring stage (graph/rescore.py) and its weight to the fit,
starting from ``--start-rescore`` (the stage's weight; the shipped default is 0, off).

Needs the groups `bench.bench_retrieval` ingested (run it first, keep the groups).
Run: .venv/bin/python -m bench.fit_ranking [--data PATH] [--group-prefix P] [--rescore bge-small] [--out PATH]
Writes bench/results/ranking_fit.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from pathlib import Path

from bench.bench_retrieval import GROUP_PREFIX, group_of
from bench.locomo import DEV, Conversation, load_conversations, ranked_turns, recall_at
from strata.graph import Graph
from strata.graph.ranking import RankWeights
from strata.graph.rescore import Rescorer
from strata.graph.search import Gathered, SearchQuery, answer, gather
from strata.ingest.embedders import make_embedder, make_rescorer, query_mode
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "ranking_fit.json"
FACTORS = (0.5, 2.0)
KIND_STEPS = (-2.0, -1.0, 1.0)
SCALARS = ("text", "semantic", "episode")


RESCORER: list[Rescorer | None] = [None]  # --rescore: the stage every evaluation runs
ONLY_RESCORE = [False]  # --only-rescore: the other weights stay as shipped (fitted before the stage existed)


def evaluate(graph: Graph, asked: list[tuple[Gathered, list[str]]], weights: RankWeights) -> float:
    scores = []
    for gathered, evidence in asked:
        hits = [h.model_dump(mode="json") for h in answer(graph, gathered, weights, RESCORER[0]).hits]
        scores.append(recall_at(ranked_turns(hits), evidence, 10))
    return statistics.fmean(scores)


def steps() -> list[Callable[[RankWeights], RankWeights]]:
    """One change of one weight each: scale a weight, move the cosine midpoint, count more or fewer of an
    episode's passages, shift a hit kind's prior."""
    if ONLY_RESCORE[0]:
        return rescore_steps()
    out: list[Callable[[RankWeights], RankWeights]] = [
        lambda w, n=name, f=f: w.model_copy(update={n: getattr(w, n) * f}) for name in SCALARS for f in FACTORS]
    out += [lambda w, d=d: w.model_copy(update={"cosine_mean": round(w.cosine_mean + d, 3)}) for d in (-0.1, 0.1)]
    out += [lambda w, d=d: w.model_copy(update={"episode_top": max(1, w.episode_top + d)}) for d in (-1, 2)]
    out += [lambda w, k=kind, d=d: w.model_copy(update={"kind": {**w.kind, k: w.kind.get(k, 0.0) + d}})
            for kind in ("fact", "entity") for d in KIND_STEPS]
    return out + (rescore_steps() if RESCORER[0] is not None else [])


def rescore_steps() -> list[Callable[[RankWeights], RankWeights]]:
    """The rescoring weight: added to (from 0 too) and scaled."""
    out: list[Callable[[RankWeights], RankWeights]] = [
        lambda w, d=d: w.model_copy(update={"rescore": max(0.0, w.rescore + d)}) for d in (-2.0, 2.0)]
    return out + [lambda w, f=f: w.model_copy(update={"rescore": w.rescore * f}) for f in FACTORS]


def fit(graph: Graph, asked: list[tuple[Gathered, list[str]]], start: RankWeights) -> tuple[RankWeights, float]:
    """Coordinate ascent: take any step that improves recall@10, from the weights as they are now, until a
    whole round of steps improves nothing."""
    best, best_score = start, evaluate(graph, asked, start)
    tried: set[str] = {best.model_dump_json()}
    improved = True
    while improved:
        improved = False
        for step in steps():
            candidate = step(best)
            if candidate.model_dump_json() in tried:
                continue
            tried.add(candidate.model_dump_json())
            score = evaluate(graph, asked, candidate)
            if score > best_score + 1e-4:
                best, best_score, improved = candidate, score, True
                print(f"  {score:.3f} {candidate.model_dump()}", flush=True)
    return best, best_score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--group-prefix", default=GROUP_PREFIX[0])
    parser.add_argument("--rescore", choices=["bge-small"], default=None, help="fit with the rescoring stage")
    parser.add_argument("--start-rescore", type=float, default=8.0, help="the rescoring weight the fit starts at")
    parser.add_argument("--only-rescore", action="store_true", help="fit the rescoring weight alone")
    parser.add_argument("--no-full", dest="full", action="store_false", help="the two folds only, no fit on all")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    ONLY_RESCORE[0] = args.only_rescore
    GROUP_PREFIX[0] = args.group_prefix
    conversations = load_conversations(args.data)
    settings = Settings()
    embedder = make_embedder(settings, for_queries=True)
    embed = query_mode(embedder)
    defaults = RankWeights()
    if args.rescore:  # with bge-small stored, the stage reads the stored vectors' cosines (graph/rescore.py)
        RESCORER[0] = make_rescorer(settings.model_copy(update={"rescore_embedder": args.rescore}), embedder)
        defaults = defaults.model_copy(update={"rescore": args.start_rescore})
    with Graph.from_settings(settings) as graph:
        asked: dict[str, list[tuple[Gathered, list[str]]]] = {}
        for conv in conversations:
            asked[conv.sample_id] = [(gather(graph, group_of(conv), SearchQuery(q=q.text, limit=20), embed),
                                      q.evidence) for q in conv.questions]
        half = len(conversations) // 2
        folds = [(conversations[:half], conversations[half:]), (conversations[half:], conversations[:half])]
        report: dict = {"folds": [], "rescore": args.rescore, "group_prefix": args.group_prefix}

        def pool(convs: list[Conversation]) -> list[tuple[Gathered, list[str]]]:
            return [x for c in convs for x in asked[c.sample_id]]

        for train, test in folds:
            fitted, train_score = fit(graph, pool(train), defaults)
            report["folds"].append({
                "train": [c.sample_id for c in train], "test": [c.sample_id for c in test],
                "train_r10": round(train_score, 3), "test_r10_fitted": round(evaluate(graph, pool(test), fitted), 3),
                "test_r10_defaults": round(evaluate(graph, pool(test), defaults), 3), "weights": fitted.model_dump(),
                **({"test_r10_without_rescoring": round(evaluate(graph, pool(test), RankWeights()), 3)}
                   if args.rescore else {})})
            print(json.dumps(report["folds"][-1]), flush=True)
        if args.full:
            fitted, score = fit(graph, pool(conversations), defaults)
            report["all"] = {"r10_fitted": round(score, 3),
                             "r10_defaults": round(evaluate(graph, pool(conversations), defaults), 3),
                             "weights": fitted.model_dump()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
