"""Extraction and embedding throughput, and LLM cost per episode against the wire-format server.

    .venv/bin/python -m bench.bench_extract [--quick]

Prints a JSON summary and writes bench/results/extract.json. Data is read from ../shared/data (never copied).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.msc import msc_sessions
from strata.ingest.embedders import HashEmbedder, OnnxMiniLMEmbedder
from strata.ingest.extractors import LLMExtractor, SpacyExtractor
from strata.ingest.llm_client import OpenAIChatLLM
from strata.ingest.prompts import INSTRUCTIONS, PROMPT_VERSION
from strata.ingest.protocols import MAX_ROSTER, ExtractionContext, RosterEntry
from strata.ingest.sources import load_source
from strata.ingest.testing import openai_server
from strata.schema.ids import content_hash
from strata.schema.models import Episode, Message

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
BOOK = DATA / "books" / "pride_and_prejudice_pg1342.txt"
REF = datetime(2024, 1, 1, tzinfo=UTC)


def book_episodes(window_tokens: int) -> list[Episode]:
    """Pride and Prejudice through the project's book segmenter."""
    return list(load_source(BOOK, "book", group_id="bench", book_window_tokens=window_tokens).episodes)


def _episode(content: str, seq: int, kind: str, messages: list[Message] | None = None) -> Episode:
    return Episode(uuid=f"ep-{kind}-{seq}", group_id="bench", seq=seq, kind=kind, content=content,  # type: ignore[arg-type]
                   reference_time=REF + timedelta(days=seq), content_hash=content_hash(content),
                   messages=messages or [])


def chat_episodes(n: int) -> list[Episode]:
    return [_episode(content, seq, "chat", messages) for seq, (content, messages) in enumerate(msc_sessions(n))]


def bench_spacy(episodes: list[Episode]) -> dict[str, Any]:
    extractor = SpacyExtractor()
    t0 = time.perf_counter()
    extractor.nlp  # noqa: B018 (load time measured separately)
    load_s = time.perf_counter() - t0
    words = sum(len(e.content.split()) for e in episodes)
    t0 = time.perf_counter()
    results = list(extractor.extract_many(episodes))
    elapsed = time.perf_counter() - t0
    return {
        "episodes": len(episodes), "words": words, "seconds": round(elapsed, 2), "load_s": round(load_s, 2),
        "words_per_s": round(words / elapsed), "entities": sum(len(r.entities) for r in results),
        "facts": sum(len(r.facts) for r in results),
    }


def bench_embed(episodes: list[Episode], n: int) -> dict[str, Any]:
    sentences = [s.strip() for e in episodes for s in re.split(r"(?<=[.!?])\s+", e.content) if len(s.split()) > 3]
    texts = [" ".join(s.split()) for s in sentences[:n]]
    out: dict[str, Any] = {"texts": len(texts), "mean_words": round(sum(len(t.split()) for t in texts) / len(texts), 1)}
    for name, embedder in (("onnx_minilm", OnnxMiniLMEmbedder()), ("hash", HashEmbedder())):
        embedder.embed(texts[:8])  # load outside the timing
        t0 = time.perf_counter()
        embedder.embed(texts)
        elapsed = time.perf_counter() - t0
        out[name] = {"seconds": round(elapsed, 2), "texts_per_s": round(len(texts) / elapsed)}
    return out


def _responder(wire: ModuleType) -> Any:
    """A plausible model: names capitalised words as entities, returns a 55-word summary."""
    def reply(body: dict[str, Any]) -> Any:
        text = body["messages"][-1]["content"].split("Episode (", 1)[-1]
        names = list(dict.fromkeys(re.findall(r"\b[A-Z][a-z]{3,}\b", text)))[:12]
        entities = [{"name": n, "type": "Person", "aliases": [], "description": ""} for n in names]
        summary = " ".join(["Summary"] + names[:5] + ["word"] * 49)
        return wire.Reply.json({"entities": entities, "facts": [], "summary": summary})
    return reply


def bench_llm(wire: ModuleType, episodes: list[Episode]) -> dict[str, Any]:
    """Calls and prompt tokens per episode, carrying roster and summary forward as the pipeline will."""
    instruction_tokens = wire.count_tokens(INSTRUCTIONS)
    rows = []
    with wire.OpenAIServer(chat_default=_responder(wire)) as server:
        llm = OpenAIChatLLM(model="bench", base_url=server.base_url, api_key="k", timeout_s=30)
        extractor = LLMExtractor(llm)
        roster: dict[str, RosterEntry] = {}
        summary = ""
        for episode in episodes:
            context = ExtractionContext(roster=tuple(list(roster.values())[-MAX_ROSTER:]), summary=summary)
            before = len(server.requests)
            result = extractor.extract(episode, context)
            logged = server.requests[before:]
            episode_tokens = wire.count_tokens(episode.content)
            prompt_tokens = sum(r.prompt_tokens for r in logged)
            rows.append({"calls": len(logged), "prompt_tokens": prompt_tokens, "episode_tokens": episode_tokens,
                         "budget": 2 * episode_tokens + instruction_tokens})
            roster.update({e.name: RosterEntry(name=e.name, type=e.type) for e in result.entities})
            summary = result.summary or summary
    n = len(rows)
    return {
        "episodes": n,
        "calls_per_episode": sum(r["calls"] for r in rows) / n,
        "mean_prompt_tokens": round(sum(r["prompt_tokens"] for r in rows) / n),
        "mean_episode_tokens": round(sum(r["episode_tokens"] for r in rows) / n),
        "instruction_tokens": instruction_tokens,
        "mean_prompt_over_budget": round(sum(r["prompt_tokens"] / r["budget"] for r in rows) / n, 3),
        "max_prompt_over_budget": round(max(r["prompt_tokens"] / r["budget"] for r in rows), 3),
        "mean_overhead_tokens": round(sum(r["prompt_tokens"] - r["episode_tokens"] for r in rows) / n),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a tenth of the book, 500 embedding texts")
    args = parser.parse_args()
    wire = openai_server
    episodes = book_episodes(1500)
    spacy_eps = episodes[: max(1, len(episodes) // 10)] if args.quick else episodes
    summary = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"), "cpus": os.cpu_count(),
        "python": platform.python_version(), "prompt_version": PROMPT_VERSION,
        "segmenter": "strata.ingest.sources (book, 1500-token windows)",
        "token_count": "regex words+punctuation (tests/support/openai_server.count_tokens)",
        "spacy": bench_spacy(spacy_eps),
        "embedding": bench_embed(episodes, 500 if args.quick else 2000),
        "llm_book": bench_llm(wire, episodes[:20]),
        "llm_chat": bench_llm(wire, chat_episodes(20)),
    }
    text = json.dumps(summary, indent=2)
    print(text)
    out = REPO / "bench" / "results" / "extract.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
