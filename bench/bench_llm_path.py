"""The LLM path against a real OpenAI-compatible server: calls, tokens and seconds per episode, the estimate
beside what was billed, and a re-ingest answered from the cache.

    python -m bench.bench_llm_path                      # starts the local server (strata services llm build)
    python -m bench.bench_llm_path --url http://127.0.0.1:8081/v1 --locomo-sessions 2

Inputs: the demo's chat sessions (docs/samples/chat_sessions.json) and, when the shared data is present, the
first sessions of the first LoCoMo dev conversation. Each runs inline (one process, the workers' code) into a
fresh group, then again into another group with a fresh pipeline and the same cache folder.
Results: bench/results/llm_path.json. With the bundled 270M base model only the plumbing figures mean
anything (calls, tokens, seconds, failures by kind), never what was extracted.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from strata.graph import Graph
from strata.ingest.estimate import estimate
from strata.ingest.sources import SourceDocument, parse_source_text
from strata.ingest.submit import episode_info, submit_document
from strata.ingest.tasks import build_pipeline
from strata.schema.settings import Settings

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "docs" / "samples" / "chat_sessions.json"
RESULTS = REPO / "bench" / "results" / "llm_path.json"


def locomo_text(sessions: int) -> str | None:
    from bench.locomo import DEV, load_conversations

    if sessions <= 0 or not DEV.exists():
        return None
    conv = load_conversations()[0]
    return json.dumps({"sessions": [
        {"date": s["reference_time"], "session_id": s["source"],
         "messages": [{"speaker": m["speaker"], "text": m["text"]} for m in s["messages"]]}
        for s in conv.sessions[:sessions]]})


def run(graph: Graph, cfg: Settings, name: str, text: str) -> dict[str, Any]:
    out: dict[str, Any] = {"input": name}
    for attempt in ("first", "again"):
        group = f"bench-llm-{uuid.uuid4().hex[:8]}"
        doc: SourceDocument = parse_source_text(text, "sessions-json", name=name, group_id=group)
        if attempt == "first":
            est = estimate(doc.episodes, cfg)
            out["estimate"] = {"episodes": est.episodes, "calls": est.calls, "prompt_tokens": est.prompt_tokens}
        began = time.perf_counter()
        try:
            info = submit_document(graph, None, doc, inline_pipeline=build_pipeline(cfg, graph))
            wall = time.perf_counter() - began
            episodes = [episode_info(graph, e.uuid) for e in doc.episodes]
            props = graph.query("MATCH (e:Episode {group_id: $g}) RETURN e.seq AS seq, e.extract_ms AS ms, "
                                "size(e.content) AS chars ORDER BY seq", g=group)
        finally:
            graph.query("MATCH (n {group_id: $g}) DETACH DELETE n", g=group)
        rows = [{"seq": p["seq"], "chars": p["chars"], "status": e["status"],
                 "extract_s": round((p["ms"] or 0) / 1000, 1), "error": (e["error"] or "")[:160] or None, **e["llm"]}
                for p, e in zip(props, episodes, strict=True)]
        n = len(rows)
        out[attempt] = {
            "status": info.status, "done": info.done, "failed": info.failed, "episodes": n, "wall_s": round(wall, 1),
            "llm": info.llm.model_dump(), "facts": info.facts,
            "per_episode": {"calls": round(info.llm.calls / n, 2),
                            "prompt_tokens": round(info.llm.prompt_tokens / n),
                            "completion_tokens": round(info.llm.completion_tokens / n),
                            "seconds": round(wall / n, 1)},
            "failures": dict(Counter(r["error"].split(":", 1)[0] for r in rows if r["error"])),
            "episodes_detail": rows,
        }
    first = out["first"]["llm"]
    if first["extraction_calls"]:
        # the estimate counts instructions + episode per expected call, without roster and summary
        out["billed_prompt_tokens_per_estimated"] = round(first["prompt_tokens"] / max(1, out["estimate"]
                                                                                         ["prompt_tokens"]), 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", help="an OpenAI-compatible /v1 base URL (default: the local llama-server)")
    parser.add_argument("--model", default="local")
    parser.add_argument("--locomo-sessions", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=4096)
    # the limits a 270M model finishes within max_tokens; 0 = Strata's defaults (for a capable model)
    parser.add_argument("--limits", default="5,4,4,80", help="entities,facts,notes,string_chars or 'default'")
    parser.add_argument("--split-depth", type=int, default=1, help="splits of a cut episode (Strata's default: 3)")
    args = parser.parse_args()
    limits: dict[str, Any] = {}
    if args.limits != "default":
        e, f, n, c = (int(x) for x in args.limits.split(","))
        limits = {"llm_max_entities": e, "llm_max_facts": f, "llm_max_notes": n, "llm_max_string_chars": c}
    base = Settings()
    svc = None
    url = args.url
    if url is None:
        from strata.services.llm import LocalLLMService

        svc = LocalLLMService(base)
        if not svc.ready():
            svc.build()
            svc.start()
        else:
            svc = None  # someone else's: leave it running
        url = LocalLLMService(base).base_url
    inputs = [("chat_sessions.json", SAMPLE.read_text())]
    if (text := locomo_text(args.locomo_sessions)) is not None:
        inputs.append((f"locomo-conv0-{args.locomo_sessions}-sessions.json", text))
    results: dict[str, Any] = {"url": url, "model": args.model, "max_tokens": args.max_tokens,
                               "limits": limits or "default", "split_depth": args.split_depth, "runs": []}
    try:
        with tempfile.TemporaryDirectory() as cache, Graph.from_settings(base) as graph:
            cfg = base.model_copy(update={
                "extractor": "llm", "embedder": "hash", "llm_base_url": url, "llm_model": args.model,
                "llm_api_key": None, "llm_timeout_s": 900.0, "llm_max_retries": 1, "llm_max_tokens": args.max_tokens,
                "llm_cache": "directory", "llm_cache_dir": Path(cache), "llm_max_split_depth": args.split_depth,
                **limits})
            for name, text in inputs:
                result = run(graph, cfg, name, text)
                results["runs"].append(result)
                print(json.dumps({k: v for k, v in result.items() if k not in ("first", "again")} | {
                    k: {kk: vv for kk, vv in result[k].items() if kk != "episodes_detail"}
                    for k in ("first", "again")}, indent=1))
    finally:
        if svc is not None:
            svc.stop()
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
