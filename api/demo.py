"""The demo behind `make demo`: ingest a chat history, an office-holder table and a book's first chapters, ask
what is true now, then, and why, and print the three ways to browse the result.

The samples in docs/samples/ are written for the demo: a three-session chat in which facts change (moves,
an explicit "no longer"), an office-holder table, and a three-chapter story. The book is Pride and Prejudice
(its first chapters) when the project's shared data folder lies beside the checkout, else that story, or any
book passed with ``--book``. Everything runs in-process through ``Memory`` over an inline runtime: the use
cases REST, MCP and the CLI call and the pipeline the workers run (spaCy extractor, ONNX MiniLM embeddings),
so no key and no network are needed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from strata.memory import FactsRequest, Memory, NetworkRequest, SearchRequest

GROUP = "demo"
AGENT = "demo"
SAMPLES = Path(__file__).resolve().parent.parent / "docs" / "samples"
SHARED_BOOK = SAMPLES.parents[2] / "shared" / "data" / "books" / "pride_and_prejudice_pg1342.txt"
KEY_NAME = "demo-explorer"


def default_book() -> Path:
    return SHARED_BOOK if SHARED_BOOK.is_file() else SAMPLES / "harbour_book.txt"


def ingest_file(mem: Memory, group: str, path: Path, fmt: str, console: Console, chapters: int | None = None
                ) -> None:
    """One file as one job, run to its end here (a book's cast is consolidated when its job ends, as a worker
    does); ``chapters``: only a book's first chapters (and its title page)."""
    doc = mem.parse_source(group, path.read_bytes(), fmt, path.name, AGENT)
    if chapters is not None:
        doc = doc.model_copy(update={"episodes": [ep for ep in doc.episodes
                                                  if ep.metadata.get("chapter_index", 0) <= chapters]})
    with console.status(f"reading {path.name} ({len(doc.episodes)} episodes)"):
        job = mem.add_document(doc, AGENT)
    part = f": chapters 1-{chapters}" if chapters is not None else ""
    console.print(f"ingested {path.name}{part}, {job.done} episode(s) done, {job.failed} failed")


def write_perspective(mem: Memory, path: Path) -> Path:
    """The demo group's Bloom perspective (docs/browse.md), ready to import."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(mem.perspective(GROUP).to_bloom(), ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")
    return path


def explorer_key(mem: Memory) -> str:
    """A fresh read key for the demo group; the previous demo's key is revoked (a token cannot be shown twice)."""
    for key in mem.keys():
        if key.name == KEY_NAME:
            mem.revoke_key(key.id)
    return mem.create_key([GROUP], "r", name=KEY_NAME).token


def _when(value: datetime | None) -> str:
    return value.date().isoformat() if value else "open"


def run_demo(mem: Memory, console: Console, book: Path | None = None, chapters: int = 6, group: str = GROUP
             ) -> None:
    """``mem`` runs episodes inline (a runtime with a pipeline)."""
    ingest_file(mem, group, SAMPLES / "chat_sessions.json", "sessions-json", console)
    ingest_file(mem, group, SAMPLES / "offices.jsonl", "facts-jsonl", console)
    ingest_file(mem, group, book or default_book(), "book", console, chapters)
    counts = mem.counts(group)
    console.print(f"group '{group}': {counts.entities} entities, {counts.facts} facts "
                  f"({counts.open_facts} open), {counts.episodes} episodes")
    if mem.summarizer() is not None:  # written as the jobs ended; the communities are asked for here
        run = mem.refresh_communities(group)
        homes = mem.facts(group, FactsRequest(subject="Maya", subject_type="Person", predicate="lives_in")).items
        maya = mem.entity(group, homes[0].subject_uuid).summary if homes else ""
        console.print(f"{run.communities} communities" + (f'; Maya: "{escape(maya)}"' if maya else ""))

    def where(person: str, as_of: datetime | None = None) -> str:
        page = mem.facts(group, FactsRequest(subject=person, subject_type="Person", predicate="lives_in", as_of=as_of))
        return ", ".join(f.object_name for f in page.items) or "unknown"

    march = datetime(2024, 3, 1, tzinfo=UTC)
    console.print(f"Where does Maya live now? {where('Maya')}   ... on 2024-03-01? {where('Maya', march)}")
    console.print(f"Where does Sofia live now? {where('Sofia')}   ... on 2024-03-01? {where('Sofia', march)}")
    for label, when in (("now", None), ("on 2015-06-01", datetime(2015, 6, 1, tzinfo=UTC))):
        page = mem.facts(group, FactsRequest(predicate="holds_office", object="Mayor of Alvorada",
                                             object_type="Office", as_of=when))
        console.print(f"Mayor of Alvorada {label}: {', '.join(f.subject_name for f in page.items) or 'nobody'}")
    history = mem.facts(group, FactsRequest(subject="Maya", subject_type="Person", predicate="lives_in",
                                            include_history=True))
    for f in sorted(history.items, key=lambda f: f.valid_at or datetime.min.replace(tzinfo=UTC)):
        console.print(escape(f"  Maya lives_in {f.object_name}: {_when(f.valid_at)} -> {_when(f.invalid_at)}"
                             f"  (said by {', '.join(f.asserted_by) or '?'})"))
    result = mem.search(group, SearchRequest(q="Where does Maya live?", limit=3))
    console.print("search 'Where does Maya live?':")
    for hit in result.hits:
        what = hit.fact.fact if hit.fact else hit.entity.name if hit.entity else hit.episode.text if hit.episode else ""
        what = f"{what}  ({hit.superseded})" if hit.superseded else what
        ids = [m.metadata.get("message_id") for p in hit.provenance for m in p.messages]
        kind = "answer" if hit.answer else hit.kind
        console.print(escape(f"  [{kind} {hit.score:.3f}] {what[:90]}  messages={[i for i in ids if i]}"))
    network = mem.network(group, NetworkRequest(limit=3))
    console.print("who interacts most (scenes together, quotes either way):")
    for pair in network.interactions:
        console.print(escape(f"  {pair.a_name} - {pair.b_name}: {pair.scenes} scenes, "
                             f"{pair.a_to_b + pair.b_to_a} quotes"))
