"""`strata` commands for query: search, context, facts, serve, keys."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from strata.schema.settings import Settings

app = typer.Typer(no_args_is_help=True)
keys_app = typer.Typer(help="API keys scoped to groups.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")
console = Console(soft_wrap=True)


def _when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


POSITION = typer.Option(None, "--as-of-position", min=0, help="Story time: the book read up to this offset.")
CHAPTER = typer.Option(None, "--as-of-chapter", min=0, help="Story time: the book read to the end of this chapter.")
BOOK = typer.Option(None, "--source", help="The book (source uuid or file name) when the group holds several.")


def _story(position: int | None, chapter: int | None, source: str | None):
    from strata.graph.story import StoryAsk

    return StoryAsk(as_of_position=position, as_of_chapter=chapter, source=source)


def _fail(exc: Exception) -> NoReturn:
    """A caller's mistake (several books, no such chapter) as a message, not a traceback."""
    console.print(f"[red]{escape(str(exc))}[/]")
    raise typer.Exit(2)


def _story_where(f) -> str:
    if f.story_at is None:
        return ""
    until = f" until {f.story_until}" if f.story_until is not None else ""
    return f"  [story {f.story_at}{until}, chapter {f.story_chapter}]"


@app.command("search")
def search_cmd(query: str = typer.Argument(...), group: str = typer.Option(..., "--group"),
               as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."),
               limit: int = typer.Option(10, "--limit", min=1, max=100),
               position: int = POSITION, chapter: int = CHAPTER, source: str = BOOK,
               as_json: bool = typer.Option(False, "--json")) -> None:
    """Hybrid search in a group; prints hits with their provenance."""
    from strata.api.recall import recall_search
    from strata.graph import Graph
    from strata.graph.search import SearchQuery
    from strata.graph.story import story_cut
    from strata.ingest.embedders import make_embedder
    from strata.schema.errors import InputError, NotFoundError

    cfg = Settings()
    with Graph.from_settings(cfg) as graph:
        try:
            cut = story_cut(graph, group, _story(position, chapter, source), _when(as_of))
        except (InputError, NotFoundError) as exc:
            _fail(exc)
        result = recall_search(graph, group, SearchQuery(q=query, limit=limit, as_of=_when(as_of), story=cut),
                               make_embedder(cfg, for_queries=True).embed)
    if as_json:
        sys.stdout.write(result.model_dump_json() + "\n")
        return
    if result.degraded:
        console.print(f"[yellow]partial answer: no {', '.join(result.degraded)} channels (embedder unreachable)[/]")
    for hit in result.hits:
        what = (f"{hit.fact.subject_name} -[{hit.fact.predicate}]-> {hit.fact.object_name}" if hit.fact else
                f"{hit.entity.name} ({hit.entity.type})" if hit.entity else hit.episode.text if hit.episode else "")
        where = hit.provenance[0] if hit.provenance else None
        src = f"  [{where.source_name or where.episode_uuid} #{where.seq}]" if where else ""
        console.print(escape(f"{hit.score:.4f} {hit.kind:7} {what}{src}"), highlight=False)


@app.command("context")
def context_cmd(query: str = typer.Argument(...), group: str = typer.Option(..., "--group"),
                budget: int = typer.Option(1000, "--budget", min=50, max=32_000, help="Token budget."),
                as_of: str = typer.Option(None, "--as-of", help="Valid time (ISO date)."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """A ready-to-paste memory block about QUERY within the token budget (what an agent's prompt takes)."""
    from strata.api.recall import context_block
    from strata.graph import Graph
    from strata.ingest.embedders import make_embedder

    cfg = Settings()
    with Graph.from_settings(cfg) as graph:
        embed = make_embedder(cfg, for_queries=True).embed
        block = context_block(graph, group, query, budget, embed, as_of=_when(as_of))
    if as_json:
        sys.stdout.write(block.model_dump_json() + "\n")
        return
    if block.degraded:
        console.print(f"[yellow]partial answer: no {', '.join(block.degraded)} channels (embedder unreachable)[/]")
    sys.stdout.write(block.text + "\n")
    console.print(f"[dim]{block.tokens} of {block.budget_tokens} tokens, {len(block.hits)} hits[/]")


@app.command("facts")
def facts_cmd(group: str = typer.Option(..., "--group"),
              predicate: str = typer.Option(None, "--predicate",
                                            help="As statements write it (plays_for, 'works at'): normalized as on "
                                                 "ingest."),
              as_of: str = typer.Option(None, "--as-of"), position: int = POSITION, chapter: int = CHAPTER,
              source: str = BOOK, agent: str = typer.Option(None, "--agent", help="Only what this agent asserted."),
              as_json: bool = typer.Option(False, "--json")) -> None:
    """Every fact of a group (optionally one predicate, or one agent's), as of a date or a point of a book's
    story; pages through the complete listing."""
    from strata.api.predicates import stored_predicate_filter
    from strata.graph import Graph
    from strata.graph.read import list_facts
    from strata.graph.story import story_cut
    from strata.ingest.embedders import make_embedder
    from strata.schema.errors import InputError, NotFoundError

    cfg = Settings()
    cursor, total = None, 0
    with Graph.from_settings(cfg) as graph:
        try:
            cut = story_cut(graph, group, _story(position, chapter, source), _when(as_of))
        except (InputError, NotFoundError) as exc:
            _fail(exc)
        embed = make_embedder(cfg, for_queries=True).embed if predicate else None
        stored = stored_predicate_filter(graph, group, predicate, embed)  # as the write path names it
        while True:
            page = list_facts(graph, group, predicate=stored, as_of=_when(as_of), story=cut, agent=agent,
                              cursor=cursor, limit=1000)
            for f in page.items:
                if as_json:
                    sys.stdout.write(f.model_dump_json() + "\n")
                else:
                    console.print(escape(f"{f.subject_name} -[{f.predicate}]-> {f.object_name}  "
                                  f"{f.valid_at:%Y-%m-%d}..{f.invalid_at or ''}{_story_where(f)}"),
                                  highlight=False)
            total += len(page.items)
            cursor = page.next_cursor
            if not cursor:
                break
    if not as_json:
        console.print(f"{total} facts")


@app.command("network")
def network_cmd(group: str = typer.Option(..., "--group"), position: int = POSITION, chapter: int = CHAPTER,
                source: str = BOOK, limit: int = typer.Option(20, "--limit", min=1, max=500),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Who appears with whom and who speaks to whom, strongest first; as of a chapter of a book."""
    from strata.graph import Graph
    from strata.graph.network import interaction_network
    from strata.graph.story import story_cut
    from strata.schema.errors import InputError, NotFoundError

    with Graph.from_settings(Settings()) as graph:
        try:
            cut = story_cut(graph, group, _story(position, chapter, source))
        except (InputError, NotFoundError) as exc:
            _fail(exc)
        net = interaction_network(graph, group, story=cut, limit=limit)
    if as_json:
        sys.stdout.write(net.model_dump_json(indent=2) + "\n")
        return
    for i in net.interactions:
        seen = ""
        if i.first and i.last:
            seen = f"{i.first.chapter or i.first.position} .. {i.last.chapter or i.last.position}"
        console.print(escape(f"{i.weight:5d}  {i.a_name} - {i.b_name}: {i.scenes} scenes, "
                             f"{i.a_to_b} -> / {i.b_to_a} <- quotes  {seen}"), highlight=False)


@app.command("quotes")
def quotes_cmd(group: str = typer.Option(..., "--group"), speaker: str = typer.Option(None, "--speaker"),
               addressee: str = typer.Option(None, "--to", help="Whom the quotes were said to."),
               as_json: bool = typer.Option(False, "--json")) -> None:
    """What characters said to whom (by uuid or name), in reading order; pages through the complete listing."""
    from strata.api.quotes import quotes_said
    from strata.graph import Graph

    cfg = Settings()
    offset: int | None = 0
    total = 0
    with Graph.from_settings(cfg) as graph:
        while offset is not None:
            page = quotes_said(graph, group, speaker=speaker, addressee=addressee, offset=offset, limit=1000)
            for x in page.items:
                if as_json:
                    sys.stdout.write(x.model_dump_json() + "\n")
                else:
                    to = f" to {', '.join(x.addressees)}" if x.addressees else ""
                    console.print(escape(f"{x.speaker or '?'}{to}: \"{x.text}\""), highlight=False)
            total += len(page.items)
            offset = page.next_offset
    if not as_json:
        console.print(f"{total} quotes")


@app.command("timeline")
def timeline_cmd(entity: str = typer.Argument(..., help="Entity uuid."), group: str = typer.Option(..., "--group"),
                 position: int = POSITION, chapter: int = CHAPTER, source: str = BOOK,
                 as_json: bool = typer.Option(False, "--json")) -> None:
    """Every fact about an entity in (valid time, story) order; with a story cut, what the book stated by then."""
    from strata.graph import Graph
    from strata.graph.read import entity_timeline
    from strata.graph.story import story_cut
    from strata.schema.errors import InputError, NotFoundError

    with Graph.from_settings(Settings()) as graph:
        try:
            facts = entity_timeline(graph, group, entity, story=story_cut(graph, group, _story(position, chapter,
                                                                                                source)))
        except (InputError, NotFoundError) as exc:
            _fail(exc)
    for f in facts:
        if as_json:
            sys.stdout.write(f.model_dump_json() + "\n")
        else:
            console.print(escape(f"{f.subject_name} -[{f.predicate}]-> {f.object_name}{_story_where(f)}"),
                          highlight=False)


@app.command("serve")
def serve(host: str = typer.Option(None, "--host"), port: int = typer.Option(None, "--port"),
          workers: int = typer.Option(None, "--workers", min=0, max=64,
                                      help="API processes (default STRATA_API_WORKERS; 0 = one per CPU core)."),
          inline: bool = typer.Option(False, "--inline", help="Commit episodes in the API process (no worker; "
                                                              "one process).")) -> None:
    """Run the HTTP API (REST under /v1, MCP at /mcp) in one or more processes."""
    import os

    import uvicorn

    from strata.api.app import create_app
    from strata.api.serving import serve_processes

    cfg = Settings()
    count = cfg.api_workers if workers is None else workers
    count = count or os.cpu_count() or 1
    host, port = host or cfg.api_host, port or cfg.api_port
    if inline or count == 1:
        uvicorn.run(create_app(cfg, inline=inline), host=host, port=port)
    else:
        console.print(f"serving on http://{host}:{port} with {count} processes")
        serve_processes(host, port, count)


@keys_app.command("create")
def keys_create(group: list[str] = typer.Option(..., "--group", help="Repeat for several groups."),
                rights: str = typer.Option("r", "--rights", help="r, w or rw"),
                name: str = typer.Option(None, "--name")) -> None:
    """Create an API key; the secret is printed once and stored only as a hash."""
    from strata.graph import Graph, apply_migrations
    from strata.graph.keys import create_key

    cfg = Settings()
    with Graph.from_settings(cfg) as graph:
        apply_migrations(graph, cfg.embedding_dim)
        created = create_key(graph, group, rights, name)
    sys.stdout.write(json.dumps({"id": created.key.id, "groups": created.key.groups, "rights": created.key.rights,
                                 "token": created.token}) + "\n")


@keys_app.command("revoke")
def keys_revoke(key_id: str = typer.Argument(...)) -> None:
    """Revoke an API key by id."""
    from strata.graph import Graph
    from strata.graph.keys import revoke_key

    with Graph.from_settings(Settings()) as graph:
        revoke_key(graph, key_id)
    console.print(f"revoked {key_id}")
