"""What the extractor keeps of a conversation: LoCoMo dev evidence coverage, facts and notes per session.

    .venv/bin/python -m bench.bench_conversation [--extractor spacy] [--limit N]

Every session becomes one chat episode exactly as POST /v1/groups/{g}/episodes builds it; the extractor runs
in process (no database: extraction is what is measured). Evidence coverage = the share of gold evidence turns
(questions of categories 1-4) from which at least one fact or note was extracted, i.e. whose message span holds
a fact's or a note's evidence span. Reported beside it: the share of *all* turns that gave something (a
extractor that notes every line would reach coverage 1.0 and tell nothing), facts and notes per session, and
examples. Writes bench/results/conversation.json. Data is read from ../shared (never copied).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.locomo import DEV, load_conversations
from strata.ingest.extractors.factory import make_extractor
from strata.memory.episodes import EpisodeIn, to_episode
from strata.schema.models import Episode, Extraction
from strata.schema.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results" / "conversation.json"


def covered_turns(episode: Episode, extraction: Extraction) -> tuple[set[str], set[str]]:
    """dia_ids of messages holding a fact's evidence, and of messages holding a note's."""
    def turns_of(spans: list[Any]) -> set[str]:
        out = set()
        for span in spans:
            for m in episode.messages:
                if m.start <= span.start < m.end:
                    out.add(m.metadata.get("dia_id", ""))
        return out
    facts = turns_of([s for f in extraction.facts for s in f.spans])
    notes = turns_of([s for n in extraction.notes for s in n.spans])
    return facts, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--extractor", default="spacy")
    parser.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    parser.add_argument("--examples", type=int, default=12)
    args = parser.parse_args()
    if not DEV.exists():
        raise SystemExit(f"LoCoMo dev data not found at {DEV} (needs ../shared)")
    conversations = load_conversations()[: args.limit or None]
    extractor = make_extractor(Settings(extractor=args.extractor))
    evidence: set[str] = set()
    all_turns = facts_turns = notes_turns = 0
    covered_f: set[str] = set()
    covered_n: set[str] = set()
    sessions = words = 0
    counts: Counter[str] = Counter()
    predicates: Counter[str] = Counter()
    examples: list[dict[str, Any]] = []
    started = time.perf_counter()
    for conv in conversations:
        episodes = [to_episode(f"bench-{conv.sample_id}", EpisodeIn.model_validate(body), 10**7)
                    for body in conv.sessions]
        evidence |= {f"{conv.sample_id}/{e}" for q in conv.questions for e in q.evidence}
        for episode, extraction in zip(episodes, extractor.extract_many(episodes), strict=True):
            sessions += 1
            words += len(episode.content.split())
            all_turns += len(episode.messages)
            f_turns, n_turns = covered_turns(episode, extraction)
            facts_turns += len(f_turns)
            notes_turns += len(f_turns | n_turns)
            covered_f |= {f"{conv.sample_id}/{t}" for t in f_turns}
            covered_n |= {f"{conv.sample_id}/{t}" for t in f_turns | n_turns}
            counts["facts"] += len(extraction.facts)
            counts["notes"] += len(extraction.notes)
            counts["entities"] += len(extraction.entities)
            predicates.update(f.predicate for f in extraction.facts)
            if len(examples) < args.examples and sessions % 7 == 1:
                examples += [{"fact": f"{f.subject} -[{f.predicate}]-> {f.object}", "text": f.fact,
                              "evidence": episode.content[f.spans[0].start:f.spans[0].end] if f.spans else ""}
                             for f in extraction.facts[:2]]
                examples += [{"note": n.text, "evidence": episode.content[n.spans[0].start:n.spans[0].end]}
                             for n in extraction.notes[:2]]
    seconds = time.perf_counter() - started
    result = {
        "dataset": str(DEV.name), "extractor": args.extractor, "conversations": len(conversations),
        "sessions": sessions, "turns": all_turns, "evidence_turns": len(evidence),
        "evidence_coverage": round(len(evidence & covered_n) / max(len(evidence), 1), 3),
        "evidence_coverage_facts_only": round(len(evidence & covered_f) / max(len(evidence), 1), 3),
        "turns_with_facts_or_notes": round(notes_turns / max(all_turns, 1), 3),
        "turns_with_facts": round(facts_turns / max(all_turns, 1), 3),
        "facts_per_session": round(counts["facts"] / max(sessions, 1), 1),
        "notes_per_session": round(counts["notes"] / max(sessions, 1), 1),
        "entities_per_session": round(counts["entities"] / max(sessions, 1), 1),
        "top_predicates": predicates.most_common(25),
        "words_per_second": round(words / seconds), "seconds": round(seconds, 1),
        "machine": platform.machine(), "examples": examples,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "examples"}, indent=2))


if __name__ == "__main__":
    main()
