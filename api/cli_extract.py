"""`strata extract`: segment and extract a file without writing to the graph (debug formats and prompts)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
console = Console(soft_wrap=True)


@app.command("extract")
def extract(
    path: Path = typer.Argument(..., help="The file to read."),
    fmt: str = typer.Option(..., "--format", help="book | chat-jsonl | transcript | sessions-json | facts-jsonl"),
    extractor: str = typer.Option(None, "--extractor", help="spacy | llm (default: STRATA_EXTRACTOR)"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per episode."),
    limit: int = typer.Option(0, "--limit", min=0, help="Only the first N episodes (0 = all)."),
    group: str = typer.Option("default", "--group", help="Group id used for the episode ids."),
) -> None:
    """Print the episodes of PATH and what the extractor finds in each; nothing is written."""
    from strata.ingest.extractors import make_extractor
    from strata.ingest.protocols import EMPTY_CONTEXT
    from strata.ingest.sources import load_source

    overrides: dict[str, Any] = {"extractor": extractor} if extractor else {}
    cfg = Settings(**overrides)
    doc = load_source(path, fmt, group_id=group, book_window_tokens=cfg.book_window_tokens,
                      chat_window_messages=cfg.chat_window_messages, max_episode_chars=cfg.max_episode_chars)
    for warning in doc.warnings:
        typer.echo(f"warning: {warning}", err=True)
    engine = make_extractor(cfg)
    episodes = doc.episodes[:limit] if limit else doc.episodes
    for episode in episodes:
        result = engine.extract(episode, EMPTY_CONTEXT)
        if as_json:
            payload = {"episode": episode.model_dump(mode="json"), "extraction": result.model_dump(mode="json")}
            sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
            continue
        where = episode.chapter or episode.metadata.get("session") or ""
        console.print(f"[bold]episode {episode.seq}[/] {where} chars {episode.span_start}-{episode.span_end}: "
                      f"{len(result.entities)} entities, {len(result.facts)} facts, {len(result.notes)} notes")
        for f in result.facts:
            line = (f"  {f.subject} -[{f.predicate}{' (not)' if f.negated else ''}]-> {f.object}"
                    f"  valid_at={f.valid_at.isoformat() if f.valid_at else '-'}")
            console.print(escape(line))
        for e in result.entities:
            if e.aliases:
                console.print(escape(f"  {e.name} also goes by {', '.join(e.aliases)}"))
        for n in result.notes:
            console.print(escape(f"  note: {n.text}"))
