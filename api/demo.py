"""The demo behind `make demo`: ingest a chat history, an office-holder table and a book's first chapters, ask
what is true now, then, and why, and print the three ways to browse the result.

The samples in docs/samples/ are written for the demo: a three-session chat in which facts change (moves,
an explicit "no longer"), an office-holder table, and a three-chapter story. The book is Pride and Prejudice
(its first chapters) when the project's shared data folder lies beside the checkout, else that story, or any
book passed with ``--book``. Everything runs in-process through the same pipeline the workers use (spaCy
extractor, ONNX MiniLM embeddings), so no key and no network are needed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import track

from strata.graph import Graph
from strata.graph.bloom import browse_schema
from strata.graph.keys import create_key, list_keys, revoke_key
from strata.graph.network import interaction_network
from strata.graph.read import group_counts, list_facts
from strata.graph.search import SearchQuery, search
from strata.graph.summaries import summaries_of
from strata.ingest.communities import refresh_communities
from strata.ingest.consolidate import consolidate_source
from strata.ingest.embedders import make_embedder
from strata.ingest.extractors import make_extractor
from strata.ingest.pipeline import Pipeline
from strata.ingest.sources import load_source
from strata.ingest.summaries import make_summarizer, refresh_group
from strata.resolve.normalize import entity_key
from strata.schema.bloom import build_perspective
from strata.schema.models import utcnow
from strata.schema.settings import Settings

GROUP = "demo"
SAMPLES = Path(__file__).resolve().parent.parent / "docs" / "samples"
SHARED_BOOK = SAMPLES.parents[2] / "shared" / "data" / "books" / "pride_and_prejudice_pg1342.txt"
KEY_NAME = "demo-explorer"


def default_book() -> Path:
    return SHARED_BOOK if SHARED_BOOK.is_file() else SAMPLES / "harbour_book.txt"


def ingest_book(pipeline: Pipeline, path: Path, chapters: int, console: Console) -> None:
    """The book's first ``chapters`` chapters (and its title page), then its cast consolidated as a book job
    would be."""
    doc = load_source(path, "book", group_id=GROUP, agent="demo")
    episodes = [ep for ep in doc.episodes if ep.metadata.get("chapter_index", 0) <= chapters]
    for episode in track(episodes, description=f"reading {path.name}", console=console, transient=True):
        pipeline.process(episode, doc.source)
    consolidate_source(pipeline.graph, GROUP, doc.source.uuid)
    console.print(f"ingested {path.name}: chapters 1-{chapters}, {len(episodes)} episode(s)")


def write_perspective(graph: Graph, path: Path) -> Path:
    """The demo group's Bloom perspective (docs/browse.md), ready to import."""
    schema = browse_schema(graph, GROUP)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(build_perspective(schema, utcnow()).to_bloom(), ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")
    return path


def explorer_key(graph: Graph) -> str:
    """A fresh read key for the demo group; the previous demo's key is revoked (a token cannot be shown twice)."""
    for key in list_keys(graph):
        if key.name == KEY_NAME:
            revoke_key(graph, key.id)
    return create_key(graph, [GROUP], "r", name=KEY_NAME).token


def _when(value: datetime | None) -> str:
    return value.date().isoformat() if value else "open"


def run_demo(settings: Settings, graph: Graph, console: Console, book: Path | None = None,
             chapters: int = 6) -> None:
    pipeline = Pipeline(graph, make_extractor(settings), make_embedder(settings))
    for name, fmt in (("chat_sessions.json", "sessions-json"), ("offices.jsonl", "facts-jsonl")):
        doc = load_source(SAMPLES / name, fmt, group_id=GROUP, agent="demo")
        for episode in doc.episodes:
            pipeline.process(episode, doc.source)
        console.print(f"ingested {name}: {len(doc.episodes)} episode(s)")
    ingest_book(pipeline, book or default_book(), chapters, console)
    counts = group_counts(graph, GROUP)
    console.print(f"group '{GROUP}': {counts['entities']} entities, {counts['facts']} facts "
                  f"({counts['open_facts']} open), {counts['episodes']} episodes")
    summarizer = make_summarizer(settings)
    if summarizer is not None:  # the demo commits without the workers' run_episode: summaries in one pass
        written = refresh_group(graph, GROUP, summarizer)
        run = refresh_communities(graph, GROUP, settings, summarizer)
        homes = list_facts(graph, GROUP, subject_key=entity_key("Maya", "Person"), predicate="lives_in").items
        maya = next((s.summary for s in summaries_of(graph, GROUP, [f.subject_uuid for f in homes[:1]])), "")
        console.print(f"summaries: {written.changed} written ({summarizer.method}); {run.communities} communities"
                      + (f'; Maya: "{escape(maya)}"' if maya else ""))

    def where(person: str, as_of: datetime | None = None) -> str:
        page = list_facts(graph, GROUP, subject_key=entity_key(person, "Person"), predicate="lives_in", as_of=as_of)
        return ", ".join(f.object_name for f in page.items) or "unknown"

    march = datetime(2024, 3, 1, tzinfo=UTC)
    console.print(f"Where does Maya live now? {where('Maya')}   ... on 2024-03-01? {where('Maya', march)}")
    console.print(f"Where does Sofia live now? {where('Sofia')}   ... on 2024-03-01? {where('Sofia', march)}")
    office = entity_key("Mayor of Alvorada", "Office")
    for label, when in (("now", None), ("on 2015-06-01", datetime(2015, 6, 1, tzinfo=UTC))):
        page = list_facts(graph, GROUP, predicate="holds_office", object_key=office, as_of=when)
        console.print(f"Mayor of Alvorada {label}: {', '.join(f.subject_name for f in page.items) or 'nobody'}")
    history = list_facts(graph, GROUP, subject_key=entity_key("Maya", "Person"), predicate="lives_in",
                         include_history=True)
    for f in sorted(history.items, key=lambda f: f.valid_at or datetime.min.replace(tzinfo=UTC)):
        console.print(escape(f"  Maya lives_in {f.object_name}: {_when(f.valid_at)} -> {_when(f.invalid_at)}"
                             f"  (said by {', '.join(f.asserted_by) or '?'})"))
    result = search(graph, GROUP, SearchQuery(q="Where does Maya live?", limit=3), embed=pipeline.embedder.embed
                    if pipeline.embedder else None)
    console.print("search 'Where does Maya live?':")
    for hit in result.hits:
        what = hit.fact.fact if hit.fact else hit.entity.name if hit.entity else hit.episode.text if hit.episode else ""
        ids = [m.metadata.get("message_id") for p in hit.provenance for m in p.messages]
        console.print(escape(f"  [{hit.kind} {hit.score:.3f}] {what[:90]}  messages={[i for i in ids if i]}"))
    network = interaction_network(graph, GROUP, limit=3)
    console.print("who interacts most (scenes together, quotes either way):")
    for pair in network.interactions:
        console.print(escape(f"  {pair.a_name} - {pair.b_name}: {pair.scenes} scenes, "
                             f"{pair.a_to_b + pair.b_to_a} quotes"))
